// SPDX-License-Identifier: MIT
/*
 * IGT-style reliability tests: the driver going away under its users.
 * Unbind and bind, idle and with jobs queued on an open file; module
 * unload and reload, refused while in use; a job and a fence that outlive
 * their file, the device and the module's unload attempt; a timeout_ms
 * the module refuses at load.
 *
 * Run on the debug kernel (KASAN, lockdep, kmemleak, DMA-API debug) by
 * scripts/test.sh's stress stage, whose harness also fails on any splat
 * (guest/run-guest.sh --debug-kernel --suite stress); docs/reliability.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_stress.h"

FDIF_PLAIN_FIXTURE

TEST(unbind_bind_idle)
{
	int i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
		ASSERT_TRUE(wait_node(0));
		ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
		ASSERT_TRUE(wait_node(1));
		good_job(_metadata);
	}
	TH_LOG("unbound and bound 3 times, a good job after each");
}

TEST(unbind_while_open_with_jobs)
{
	struct fdif_job_bos j;
	struct drm_fdif_job jobs[4];
	int fd = fdif_open(), i, fences[4], st;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	for (i = 0; i < 4; i++) {
		fdif_job_init(&jobs[i], &j);
		jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	}
	/* one batch of four */
	ASSERT_EQ(0, fdif_submit_jobs(fd, jobs, 4));
	for (i = 0; i < 4; i++)
		fences[i] = jobs[i].fence_fd;
	/* the driver goes away under an open file with jobs queued */
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	for (i = 0; i < 4; i++) {
		st = fence_wait(fences[i], WAIT_NS);
		/* done before the unbind, or ended by it: never left hanging */
		EXPECT_TRUE(st == 1 || st == -ENODEV) TH_LOG("job %d: %d", i, st);
		close(fences[i]);
	}
	EXPECT_EQ(-ENODEV, fdif_submit_one(fd, &jobs[0]));
	fdif_job_bos_free(fd, &j);
	close(fd);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
}

TEST(module_reload)
{
	int fd, i;

	/* busy: refused cleanly */
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	EXPECT_NE(0, system("rmmod fdif 2>/dev/null"));
	close(fd);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, unload_driver());
		ASSERT_TRUE(wait_node(0));
		ASSERT_EQ(0, system("modprobe fdif timeout_ms=2000"));
		ASSERT_TRUE(wait_node(1));
		good_job(_metadata);
	}
	TH_LOG("rmmod refused while open; unloaded and reloaded 3 times");
}

/*
 * In a child process: a job on a file of its own that waits on the sw_sync
 * point @fence; with @sock >= 0 its sync_file (DRM_FDIF_JOB_FENCE_FD_OUT)
 * goes back over that socket. The child then exits with the job queued
 * (the file closes in exit()), and the parent has waited for it: the
 * job is parked on the point. Closes @fence. 0, or why not.
 */
static int job_parked_by_child(int fence, int sock)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		struct drm_fdif_sync in = { 0 };
		struct fdif_job_bos j;
		struct drm_fdif_job job;
		int cfd = fdif_open();

		if (cfd < 0 || fdif_job_bos_new(cfd, &j) ||
		    fdif_load_picture("astronaut", j.pic.map))
			_exit(1);
		in.handle = syncobj_from_sync_file(cfd, fence);
		if (!in.handle)
			_exit(2);
		fdif_job_init(&job, &j);
		job.in_sync_count = 1;
		job.in_syncs = (uintptr_t)&in;
		if (sock >= 0)
			job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		if (fdif_submit_one(cfd, &job))
			_exit(3);
		if (sock >= 0 && fd_send(sock, job.fence_fd))
			_exit(4);
		_exit(0);
	}
	close(fence);
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * A job outlives its file, its device and every open file (issue 25, 1).
 * Its in-sync is a fence no driver signals (a sw_sync point). When its
 * process exits, the scheduler waits a second for the queue, then parks
 * the job until that fence signals. The device is unbound meanwhile, with
 * no file open: the job alone holds the drm_device (its scheduler and
 * counters) and the module (the scheduler's ops), so rmmod is refused.
 * Then the fence signals: the scheduler ends the job (-ESRCH) and frees it
 * through the driver, and its references go. Without them that free ran
 * on the freed device and scheduler (a KASAN report on this kernel), or in
 * an unloaded module.
 */
TEST_F_TIMEOUT(plain, job_outlives_file_device_and_module, 120)
{
	long long idle, parked, refs = -1;
	int tl, fence, i;

	/* the earlier tests' last jobs may still be being freed */
	for (i = 0; i < 500 && (idle = module_refs()) > 0; i++)
		usleep(10000);
	ASSERT_EQ(0, idle) TH_LOG("module references with nothing open: %lld", idle);
	tl = sw_sync_point(_metadata, &fence);
	ASSERT_EQ(0, job_parked_by_child(fence, -1));
	/* the file is gone, the job is parked on the sw_sync point */
	parked = module_refs();
	/* the job, and its hardware fence, each hold one */
	EXPECT_GE(parked, idle + 1) TH_LOG("module references: %lld idle, %lld with the job",
					   idle, parked);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));
	/*
	 * The job keeps the module's code, not its power: the unbind took
	 * its runtime PM reference, and the driver suspended the module as
	 * it let go (issue 39). Runtime PM is disabled by then (sysfs says
	 * "unsupported"): the emulated module itself says it is in standby.
	 */
	EXPECT_EQ(1, fdif_emu_in_standby(FDIF_EMU_BASE))
		TH_LOG("the module after the unbind, with a job parked: not in standby");
	EXPECT_NE(0, system("rmmod fdif 2>/dev/null")) TH_LOG("rmmod with a job alive");
	ASSERT_EQ(0, access(FDIF_REFCNT, F_OK));

	ASSERT_EQ(0, sw_sync_signal(tl));
	for (i = 0; i < 500; i++) {
		refs = module_refs();
		if (refs == idle)
			break;
		usleep(10000);
	}
	EXPECT_EQ(idle, refs) TH_LOG("module references 5 s after the job's fence signalled");
	close(tl);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
	TH_LOG("a parked job held the module (%lld references) across an unbind; "
	       "released when its fence signalled", parked);
}

/*
 * The end of a test whose sync_file @fence_fd holds the last of the module
 * (the device unbound): closing it lets the module go, and the device is
 * bound again and works.
 */
static void sync_file_was_the_last(struct __test_metadata *_metadata, int fence_fd)
{
	long long refs = -1;
	int i;

	close(fence_fd);
	for (i = 0; i < 500 && (refs = module_refs()) > 0; i++)
		usleep(10000);
	EXPECT_EQ(0, refs) TH_LOG("module references after the sync_file was closed");
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
}

/*
 * A job's hardware fence outlives the job: the scheduler's fences keep it
 * as their parent, and a sync_file keeps those. With the file closed and
 * the job done and freed, the fence still holds the module (its ops are
 * the driver's) and the device (its lock is the device's): rmmod is
 * refused until the sync_file goes. Before, rmmod succeeded, and closing
 * the sync_file released the fence through the unloaded module's ops.
 */
TEST_F_TIMEOUT(plain, fence_outlives_file_and_module, 120)
{
	long long idle = -1, held = -1;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int fd, i;

	for (i = 0; i < 500 && (idle = module_refs()) > 0; i++)
		usleep(10000);
	ASSERT_EQ(0, idle) TH_LOG("module references with nothing open: %lld", idle);
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	fdif_job_init(&job, &j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	ASSERT_EQ(1, fence_wait(job.fence_fd, WAIT_NS));
	fdif_job_bos_free(fd, &j);
	close(fd);
	/*
	 * The job is freed a little after its fence signalled; the
	 * sync_file's fence (fdif_out_fence.c) stays
	 */
	for (i = 0; i < 500 && (held = module_refs()) > 1; i++)
		usleep(10000);
	EXPECT_EQ(1, held) TH_LOG("module references with only the sync_file left: %lld", held);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));
	EXPECT_NE(0, system("rmmod fdif 2>/dev/null")) TH_LOG("rmmod with a fence alive");
	ASSERT_EQ(0, access(FDIF_REFCNT, F_OK));
	sync_file_was_the_last(_metadata, job.fence_fd);
}

/*
 * The sync_file of a job killed before it ran outlives the device
 * (issue 39). The job waits on a sw_sync point in a child that sends its
 * sync_file (DRM_FDIF_JOB_FENCE_FD_OUT) back and exits; the device is
 * unbound; the point signals and the job ends, -ESRCH. The scheduler's
 * fences have no hardware fence to hold the device then, and ask the
 * scheduler, which lives in the device, for their timeline's name: the
 * sync_file's own fence (fdif_out_fence.c) holds the device and the
 * module, so the file's info reads no freed memory, and rmmod waits for
 * the sync_file. When it held the scheduler's fence, this read freed
 * memory (KASAN; scripts/kasan-fence-demo.sh still shows it for a
 * syncobj's fence exported as a sync_file, which is the core's).
 */
TEST_F_TIMEOUT(plain, killed_job_sync_file_outlives_device, 120)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1 };
	long long idle = -1, held = -1;
	int tl, fence, sv[2], fence_fd, i;

	for (i = 0; i < 500 && (idle = module_refs()) > 0; i++)
		usleep(10000);
	ASSERT_EQ(0, idle) TH_LOG("module references with nothing open: %lld", idle);
	tl = sw_sync_point(_metadata, &fence);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv));
	/* the datagram waits in the socket until the parent takes it */
	ASSERT_EQ(0, job_parked_by_child(fence, sv[1]));
	close(sv[1]);
	fence_fd = fd_receive(sv[0]);
	close(sv[0]);
	ASSERT_GE(fence_fd, 0);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));
	ASSERT_EQ(0, sw_sync_signal(tl));
	close(tl);
	EXPECT_EQ(-ESRCH, fence_wait(fence_fd, WAIT_NS));
	/* the job is freed a little after its end; the sync_file's fence stays */
	for (i = 0; i < 500 && (held = module_refs()) > 1; i++)
		usleep(10000);
	EXPECT_EQ(1, held) TH_LOG("module references with only the sync_file left: %lld", held);
	EXPECT_NE(0, system("rmmod fdif 2>/dev/null")) TH_LOG("rmmod with a sync_file alive");
	file.sync_fence_info = (uintptr_t)&info;
	ASSERT_EQ(0, ioctl(fence_fd, SYNC_IOC_FILE_INFO, &file));
	EXPECT_EQ(-ESRCH, info.status);
	EXPECT_STREQ("fdif", info.driver_name);
	sync_file_was_the_last(_metadata, fence_fd);
}

/* timeout_ms=0 would time every job out at once: refused at load */
TEST(timeout_ms_zero_refused)
{
	ASSERT_EQ(0, unload_driver());
	ASSERT_TRUE(wait_node(0));
	EXPECT_NE(0, system("modprobe fdif timeout_ms=0 2>/dev/null"));
	EXPECT_NE(0, access("/dev/accel/accel0", F_OK));
	(void)!system("rmmod fdif 2>/dev/null");
	ASSERT_EQ(0, system("modprobe fdif timeout_ms=2000"));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
}

FDIF_STRESS_MAIN
