// SPDX-License-Identifier: MIT
/*
 * IGT-style reliability tests: injected device faults, clients dying,
 * unbind/bind and module reload, hostile ioctls, and load. Each prints
 * what it did (TH_LOG) and checks that every job is accounted for in the
 * driver's debugfs counters. Run on the debug kernel by
 * `scripts/test.sh --debug-kernel`, whose harness also fails on any
 * KASAN/lockdep/kmemleak/WARN splat.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#define WAIT_NS		60000000000ll
#define DEV_NAME	"c000000.fdif"
#define DRV_DIR		"/sys/bus/platform/drivers/fdif"

/*
 * An ROI around the astronaut's marked face (/data/astronaut.truth): the
 * detector's work is small. Set by main() before the tests run.
 */
static struct drm_fdif_roi face_roi;
static struct fdif_box face_truth;

static long long stat_value(const char *key)
{
	char line[128];
	long long v = -1;
	FILE *f;

	f = popen("cat /sys/kernel/debug/accel/*/stats 2>/dev/null", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = atoll(line + strlen(key) + 1);
	pclose(f);
	return v;
}

/* submitted == completed + errors + timeouts + cancelled, within @ms */
static int all_accounted(int ms)
{
	long long s, done;

	do {
		s = stat_value("submitted");
		done = stat_value("completed") + stat_value("errors") +
		       stat_value("timeouts") + stat_value("cancelled");
		if (s == done)
			return 1;
		usleep(10000);
		ms -= 10;
	} while (ms > 0);
	return 0;
}

static int bos_back_to(long long base, int ms)
{
	while (stat_value("bos") != base && ms > 0) {
		usleep(10000);
		ms -= 10;
	}
	return stat_value("bos") == base;
}

static int fence_wait(int fd, int64_t ns)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };

	if (poll(&p, 1, (int)(ns / 1000000)) != 1)
		return -ETIME;
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	return file.status;
}

FIXTURE(stress) {
	int fd;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
};

FIXTURE_SETUP(stress)
{
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map));
	fdif_job_init(&self->job, &self->j);
	self->job.roi = face_roi;
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
}

FIXTURE_TEARDOWN(stress)
{
	if (self->fd < 0)
		return;
	fdif_emu_inject(FDIF_FAULT_NONE, 0);
	fdif_job_bos_free(self->fd, &self->j);
	close(self->fd);
}

static int run_one(int fd, struct drm_fdif_job *job, struct fdif_job_bos *j, int *count)
{
	int st, ret = fdif_submit_one(fd, job);

	*count = 0;
	if (ret)
		return ret;
	st = fence_wait(job->fence_fd, WAIT_NS);
	close(job->fence_fd);
	*count = fdif_result(&j->result)->count;
	return st;
}

TEST_F_TIMEOUT(stress, faults_interleaved, 900)
{
	static const enum fdif_fault modes[] = {
		FDIF_FAULT_ERR, FDIF_FAULT_DMA, FDIF_FAULT_SPURIOUS, FDIF_FAULT_ERR,
		FDIF_FAULT_DMA, FDIF_FAULT_SPURIOUS, FDIF_FAULT_ERR, FDIF_FAULT_DMA,
		FDIF_FAULT_SPURIOUS, FDIF_FAULT_HANG,
	};
	int i, st, count, by_mode[5] = { 0 }, good = 0;

	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
	for (i = 0; i < 200; i++) {
		enum fdif_fault m = modes[i % 10];
		int want = m == FDIF_FAULT_SPURIOUS ? 1 :
			   m == FDIF_FAULT_HANG ? -ETIMEDOUT : -EIO;

		ASSERT_EQ(0, fdif_emu_inject(m, 1));
		st = run_one(self->fd, &self->job, &self->j, &count);
		ASSERT_EQ(want, st) TH_LOG("fault %d (mode %d)", i, m);
		by_mode[m]++;
		/* and the next job is right */
		st = run_one(self->fd, &self->job, &self->j, &count);
		ASSERT_EQ(1, st);
		ASSERT_EQ(1, count);
		good++;
	}
	ASSERT_TRUE(all_accounted(5000));
	TH_LOG("200 faults (err %d, dma %d, spurious %d, hang %d), %d good jobs after them; "
	       "submitted %lld = completed %lld + errors %lld + timeouts %lld + cancelled %lld",
	       by_mode[FDIF_FAULT_ERR], by_mode[FDIF_FAULT_DMA], by_mode[FDIF_FAULT_SPURIOUS],
	       by_mode[FDIF_FAULT_HANG], good, stat_value("submitted"), stat_value("completed"),
	       stat_value("errors"), stat_value("timeouts"), stat_value("cancelled"));
}

TEST_F_TIMEOUT(stress, clients_killed, 600)
{
	long long bos = stat_value("bos");
	int round, status;

	for (round = 0; round < 30; round++) {
		int pipefd[2];
		pid_t pid;
		char c;

		ASSERT_EQ(0, pipe(pipefd));
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			struct fdif_job_bos j;
			struct drm_fdif_job jobs[4];
			int fd = fdif_open(), i;

			if (fd < 0 || fdif_job_bos_new(fd, &j))
				_exit(1);
			fdif_load_picture("astronaut", j.pic.map);
			for (i = 0; i < 4; i++) {
				fdif_job_init(&jobs[i], &j);
				jobs[i].roi = face_roi;
			}
			/* two single jobs and a batch of four */
			fdif_submit_one(fd, &jobs[0]);
			fdif_submit_one(fd, &jobs[1]);
			fdif_submit_jobs(fd, jobs, 4);
			if (write(pipefd[1], "x", 1) != 1)
				_exit(1);
			pause();	/* killed with jobs queued and in flight */
			_exit(0);
		}
		close(pipefd[1]);
		ASSERT_EQ(1, read(pipefd[0], &c, 1));
		close(pipefd[0]);
		usleep((round % 5) * 20000);
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFSIGNALED(status));
	}
	ASSERT_TRUE(all_accounted(60000));
	ASSERT_TRUE(bos_back_to(bos, 10000)) TH_LOG("bos %lld, was %lld", stat_value("bos"), bos);
	TH_LOG("30 clients killed with 6 jobs each; every job accounted for, BOs back to %lld", bos);
}

TEST_F(stress, close_with_bos_mapped_and_exported)
{
	long long bos = stat_value("bos");
	struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct fdif_bo bo;
	int fd = fdif_open();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_bo_new(fd, 8192, &bo));
	exp.handle = bo.handle;
	ASSERT_EQ(0, fdif_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
	close(fd);	/* mapping and dma-buf still hold the BO */
	memset(bo.map, 0x5a, bo.size);
	EXPECT_EQ(bos + 1, stat_value("bos"));
	munmap(bo.map, bo.size);
	close(exp.fd);
	ASSERT_TRUE(bos_back_to(bos, 5000));
}

static int sysfs_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int wait_node(int present)
{
	int i;

	for (i = 0; i < 200; i++) {
		if ((access("/dev/accel/accel0", F_OK) == 0) == present)
			return 1;
		usleep(10000);
	}
	return 0;
}

static void good_job(struct __test_metadata *_metadata)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int fd = fdif_open(), count;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	fdif_job_init(&job, &j);
	job.roi = face_roi;
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(1, run_one(fd, &job, &j, &count));
	ASSERT_EQ(1, count);
	fdif_job_bos_free(fd, &j);
	close(fd);
}

/* For tests that need nothing but a longer timeout than TEST()'s 30 s. */
FIXTURE(plain) {
	int unused;
};

FIXTURE_SETUP(plain)
{
	if (access("/dev/accel/accel0", F_OK))
		SKIP(return, "no fdif device");
}

FIXTURE_TEARDOWN(plain)
{
}

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
		ASSERT_EQ(0, system("rmmod fdif"));
		ASSERT_TRUE(wait_node(0));
		ASSERT_EQ(0, system("modprobe fdif timeout_ms=2000"));
		ASSERT_TRUE(wait_node(1));
		good_job(_metadata);
	}
	TH_LOG("rmmod refused while open; unloaded and reloaded 3 times");
}

/*
 * Tests that load the driver with a short timeout_ms: the fixture reloads
 * it, and puts the default back (and the device's fault mode and frame
 * time) whatever the test did.
 */
FIXTURE(short_timeout) {
	int unused;
};

static int reload_driver(unsigned int timeout_ms)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rmmod fdif && modprobe fdif timeout_ms=%u", timeout_ms);
	if (system(cmd))
		return -1;
	return wait_node(1) ? 0 : -1;
}

FIXTURE_SETUP(short_timeout)
{
	if (access("/dev/accel/accel0", F_OK))
		SKIP(return, "no fdif device");
	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
}

FIXTURE_TEARDOWN(short_timeout)
{
	if (!fdif_emu_available())
		return;
	fdif_emu_inject(FDIF_FAULT_NONE, 0);
	fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT);
	/* a bound device again, with the usual timeout */
	sysfs_write(DRV_DIR "/bind", DEV_NAME);
	reload_driver(2000);
}

#define RACE_JOBS	4

/* A job's outcome: its fence status and its result BO agree. */
static int check_outcome(struct __test_metadata *_metadata, int st,
			 const struct drm_fdif_result_header *r, uint64_t seqno, int *ok)
{
	EXPECT_EQ(seqno, r->seqno);
	if (st == 1) {
		EXPECT_EQ(0, r->status);
		EXPECT_EQ(1, r->count);
		EXPECT_TRUE(r->count >= 1 && fdif_object_on(fdif_result_object(r, 0), &face_truth));
		++*ok;
		return 1;
	}
	EXPECT_EQ(st, r->status);
	EXPECT_EQ(0, r->count);
	return 0;
}

/*
 * Jobs that end right when their timer fires (issue 11, 1): the timeout
 * handler then sees a job whose interrupt has just come, while the next
 * job may already be on the hardware. Each job must either finish with the
 * face or time out; none may be cancelled, and no result may be lost.
 */
TEST_F_TIMEOUT(short_timeout, timeout_at_completion, 600)
{
	enum { TIMEOUT_MS = 40, ROUNDS = 300 };
	struct fdif_bo res[RACE_JOBS];
	struct fdif_job_bos jb;
	int fd, round, i, fences[RACE_JOBS], ok = 0, timedout = 0;
	uint64_t seqnos[RACE_JOBS];
	uint32_t area = face_roi.width * face_roi.height;
	struct drm_fdif_job job;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	/* one picture and work area, a result BO a job */
	ASSERT_EQ(0, fdif_job_bos_new(fd, &jb));
	for (i = 0; i < RACE_JOBS; i++)
		ASSERT_EQ(0, fdif_bo_new(fd, jb.caps.layout.size, &res[i]));
	ASSERT_EQ(0, fdif_load_picture("astronaut", jb.pic.map));
	ASSERT_GT(area, 0);

	for (round = 0; round < ROUNDS; round++) {
		/* a job takes TIMEOUT_MS -4.2 ms .. +4.2 ms, 0.2 ms apart */
		uint64_t job_us = TIMEOUT_MS * 1000 + ((round % 43) - 21) * 200;

		ASSERT_EQ(0, fdif_emu_frame_time(job_us * FDIF_PIC_SIZE / area));
		for (i = 0; i < RACE_JOBS; i++) {
			memset(res[i].map, 0xa5, res[i].size);
			fdif_job_init(&job, &jb);
			job.result_handle = res[i].handle;
			job.roi = face_roi;
			job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
			ASSERT_EQ(0, fdif_submit_one(fd, &job));
			fences[i] = job.fence_fd;
			seqnos[i] = job.seqno;
		}
		for (i = 0; i < RACE_JOBS; i++) {
			int st = fence_wait(fences[i], WAIT_NS);

			close(fences[i]);
			/* done, or timed out and the device reset: nothing else */
			ASSERT_TRUE(st == 1 || st == -ETIMEDOUT)
				TH_LOG("round %d job %d (%llu us): fence status %d", round, i,
				       (unsigned long long)job_us, st);
			if (!check_outcome(_metadata, st, res[i].map, seqnos[i], &ok))
				timedout++;
		}
	}
	ASSERT_TRUE(all_accounted(5000));
	TH_LOG("%d jobs finishing %d ms +-4.2 ms with timeout_ms=%d: %d found the face, "
	       "%d timed out; missed IRQs %lld, timeouts %lld",
	       ROUNDS * RACE_JOBS, TIMEOUT_MS, TIMEOUT_MS, ok, timedout,
	       stat_value("missed_irqs"), stat_value("timeouts"));
	for (i = 0; i < RACE_JOBS; i++)
		fdif_bo_free(fd, &res[i]);
	fdif_job_bos_free(fd, &jb);
	close(fd);
}

/*
 * Unbind while jobs time out (issue 11, 2): the timer of the hung job
 * fires before, during or after the unbind. Every job ends with
 * -ETIMEDOUT or -ENODEV, never cancelled or lost, and nothing is touched
 * after it was freed.
 */
TEST_F_TIMEOUT(short_timeout, unbind_while_jobs_time_out, 600)
{
	enum { TIMEOUT_MS = 40, ROUNDS = 40, JOBS = 3 };
	int round, i, timedout = 0, nodev = 0;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	for (round = 0; round < ROUNDS; round++) {
		struct fdif_job_bos j;
		struct drm_fdif_job jobs[JOBS];
		int fd = fdif_open(), fences[JOBS], st;

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
		ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
		for (i = 0; i < JOBS; i++) {
			fdif_job_init(&jobs[i], &j);
			jobs[i].roi = face_roi;
			jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		}
		ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_HANG, 0));	/* every job */
		/* single jobs on even rounds, one batch on odd ones */
		if (round % 2) {
			ASSERT_EQ(0, fdif_submit_jobs(fd, jobs, JOBS));
		} else {
			for (i = 0; i < JOBS; i++) {
				ASSERT_EQ(0, fdif_submit_one(fd, &jobs[i]));
			}
		}
		for (i = 0; i < JOBS; i++)
			fences[i] = jobs[i].fence_fd;
		/* around the first job's timeout, 2 ms apart */
		usleep(TIMEOUT_MS * 1000 / 2 + (round % 20) * 2000);
		ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
		for (i = 0; i < JOBS; i++) {
			st = fence_wait(fences[i], WAIT_NS);
			close(fences[i]);
			ASSERT_TRUE(st == -ETIMEDOUT || st == -ENODEV)
				TH_LOG("round %d job %d: fence status %d", round, i, st);
			timedout += st == -ETIMEDOUT;
			nodev += st == -ENODEV;
		}
		/* (the unplug zapped the BO mappings: results are not readable) */
		fdif_job_bos_free(fd, &j);
		close(fd);
		ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_NONE, 0));
		ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
		ASSERT_TRUE(wait_node(1));
	}
	/* with the usual timeout: a good job under load may take 40 ms */
	ASSERT_EQ(0, reload_driver(2000));
	good_job(_metadata);
	TH_LOG("%d unbinds around hung jobs' timeouts: %d jobs timed out, %d ended by the unbind",
	       ROUNDS, timedout, nodev);
}

/*
 * Jobs dropped with their file when the process is killed never reach the
 * hardware (issue 11, 6): their result must say -ECANCELED, as the uAPI
 * documents, not keep whatever the BO held. The result BOs belong to this
 * process (exported to the child), so they outlive the child's file.
 */
TEST_F_TIMEOUT(plain, killed_jobs_report_cancelled, 120)
{
	enum { JOBS = 4 };
	struct fdif_bo res[JOBS];
	struct fdif_caps caps;
	int fd = fdif_open(), bufs[JOBS], pipefd[2], i, status, cancelled = 0;
	pid_t pid;
	char c;

	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_caps_get(fd, &caps));
	for (i = 0; i < JOBS; i++) {
		struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };

		ASSERT_EQ(0, fdif_bo_new(fd, caps.layout.size, &res[i]));
		memset(res[i].map, 0xa5, res[i].size);
		exp.handle = res[i].handle;
		ASSERT_EQ(0, fdif_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
		bufs[i] = exp.fd;
	}
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_HANG, 1));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct fdif_job_bos j;
		struct drm_fdif_job jobs[JOBS];
		int cfd = fdif_open();

		if (cfd < 0 || fdif_job_bos_new(cfd, &j) ||
		    fdif_load_picture("astronaut", j.pic.map))
			_exit(1);
		/*
		 * The first hangs (2 s), the others wait behind it. The result
		 * BOs come from the parent's file through PRIME: the same
		 * device's BOs, so the kernel writes results into them.
		 */
		for (i = 0; i < JOBS; i++) {
			struct drm_prime_handle imp = { .fd = bufs[i] };

			if (fdif_ioctl(cfd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp))
				_exit(2);
			fdif_job_init(&jobs[i], &j);
			jobs[i].roi = face_roi;
			jobs[i].result_handle = imp.handle;
		}
		/* one single job, then a batch of the rest */
		if (fdif_submit_one(cfd, &jobs[0]) ||
		    fdif_submit_jobs(cfd, jobs + 1, JOBS - 1))
			_exit(3);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(4);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	usleep(100000);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	for (i = 0; i < JOBS; i++) {
		struct drm_fdif_result_header *r = res[i].map;

		ASSERT_EQ(0, fdif_bo_wait_for(fd, res[i].handle, WAIT_NS));
		if (i == 0) {
			/* on the hardware when the process died: it ran */
			EXPECT_EQ(-ETIMEDOUT, r->status);
		} else {
			EXPECT_EQ(-ECANCELED, r->status) TH_LOG("job %d: status %d (0x%x)",
								i, r->status, r->status);
			EXPECT_EQ(0, r->count);
			cancelled += r->status == -ECANCELED;
		}
		close(bufs[i]);
		fdif_bo_free(fd, &res[i]);
	}
	ASSERT_TRUE(all_accounted(10000));
	TH_LOG("killed with %d jobs queued behind a hang: %d report -ECANCELED", JOBS - 1,
	       cancelled);
	close(fd);
}

/* timeout_ms=0 would time every job out at once: refused at load */
TEST(timeout_ms_zero_refused)
{
	ASSERT_EQ(0, system("rmmod fdif"));
	ASSERT_TRUE(wait_node(0));
	EXPECT_NE(0, system("modprobe fdif timeout_ms=0 2>/dev/null"));
	EXPECT_NE(0, access("/dev/accel/accel0", F_OK));
	(void)!system("rmmod fdif 2>/dev/null");
	ASSERT_EQ(0, system("modprobe fdif timeout_ms=2000"));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
}

static uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static uint64_t boundary(void)
{
	static const uint64_t v[] = { 0, 1, 2, 19, 20, 31, 32, 35, 40, 160, 161, 240,
				      320, 4096, 76800, 53248, 0x7fffffff, 0x80000000,
				      0xffffffff, 0x100000000ull, ~0ull };

	return rnd() % 2 ? v[rnd() % (sizeof(v) / sizeof(v[0]))] : rnd();
}

TEST_F_TIMEOUT(plain, fuzz_ioctls, 600)
{
	static const unsigned long cmds[] = {
		DRM_IOCTL_FDIF_QUERY, DRM_IOCTL_FDIF_BO_CREATE,
		DRM_IOCTL_FDIF_BO_MMAP_OFFSET, DRM_IOCTL_FDIF_BO_WAIT,
		DRM_IOCTL_FDIF_SUBMIT,
	};
	static uint64_t jobs[4 * 256 / 8];	/* random job arrays */
	static unsigned char answer[512];	/* room for any query answer */
	long counts[5] = { 0 }, errs[256] = { 0 };
	int fd = fdif_open(), i, k;

	ASSERT_GE(fd, 0);
	for (i = 0; i < 100000; i++) {
		union {
			struct drm_fdif_query q;
			struct drm_fdif_submit s;
			struct drm_fdif_bo_create c;
			uint64_t w[16];
		} arg;
		unsigned int c = rnd() % 5;
		int ret;

		for (k = 0; k < 16; k++)
			arg.w[k] = rnd() % 3 ? boundary() : 0;
		if (c == 0) {
			/* an answer into our buffer, the size only, or a bad pointer */
			switch (rnd() % 3) {
			case 0:
				arg.q.pointer = (uintptr_t)answer;
				arg.q.size %= sizeof(answer) + 1;
				break;
			case 1:
				arg.q.pointer = 0;
				break;
			default:
				arg.q.pointer = rnd() % 2 ? 8 : arg.q.pointer | (1ull << 63);
				break;
			}
			if (rnd() % 2)
				arg.q.type %= DRM_FDIF_QUERY_RESULT_LAYOUT + 2;
		}
		if (c == 1)	/* keep allocations small */
			arg.w[0] %= 1 << 20;
		if (c == 3)	/* never wait long: an absolute deadline long past */
			arg.w[1] = rnd() % 1000;
		if (c == 4 && rnd() % 2) {
			/* a few random jobs, of the known size or around it */
			for (k = 0; k < (int)(sizeof(jobs) / sizeof(jobs[0])); k++)
				jobs[k] = rnd() % 3 ? boundary() : 0;
			arg.s.jobs = (uintptr_t)jobs;
			arg.s.job_count = rnd() % 5;
			arg.s.job_size = rnd() % 2 ? FDIF_JOB_SIZE_V1 :
					 FDIF_JOB_SIZE_V1 - 8 + 8 * (rnd() % 5);
			if (rnd() % 2)
				arg.s.flags = arg.s.pad = 0;
		}
		ret = fdif_ioctl(fd, cmds[c], &arg);
		counts[c]++;
		if (!ret && c == 1) {
			struct drm_gem_close cl = { .handle = arg.c.handle };

			fdif_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
		}
		ASSERT_TRUE(ret == 0 || ret == -EINVAL || ret == -ENOENT ||
			    ret == -EFAULT || ret == -ENOMEM || ret == -E2BIG ||
			    ret == -ETIMEDOUT)
			TH_LOG("ioctl %u returned %d", c, ret);
		errs[-ret & 0xff]++;
	}
	TH_LOG("100000 ioctls (%ld query, %ld bo_create, %ld mmap_offset, %ld bo_wait, "
	       "%ld submit): ok %ld, EINVAL %ld, ENOENT %ld, EFAULT %ld, ENOMEM %ld, "
	       "E2BIG %ld, ETIMEDOUT %ld",
	       counts[0], counts[1], counts[2], counts[3], counts[4], errs[0], errs[EINVAL],
	       errs[ENOENT], errs[EFAULT], errs[ENOMEM], errs[E2BIG], errs[ETIMEDOUT]);
	close(fd);
}

struct loader {
	int jobs, failures, out_of_order;
};

static void *load_thread(void *arg)
{
	struct loader *l = arg;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	uint64_t last = 0;
	int fd = fdif_open(), i;

	if (fd < 0 || fdif_job_bos_new(fd, &j) || fdif_load_picture("astronaut", j.pic.map)) {
		l->failures = l->jobs;
		return NULL;
	}
	for (i = 0; i < l->jobs; i++) {
		struct drm_fdif_result_header *r = fdif_result(&j.result);

		fdif_job_init(&job, &j);
		job.roi = face_roi;
		if (fdif_submit_one(fd, &job) ||
		    fdif_bo_wait_for(fd, j.result.handle, WAIT_NS) ||
		    r->status || r->count != 1 || r->seqno != job.seqno ||
		    !fdif_object_on(fdif_result_object(r, 0), &face_truth))
			l->failures++;
		if (job.seqno <= last)
			l->out_of_order++;
		last = job.seqno;
	}
	fdif_job_bos_free(fd, &j);
	close(fd);
	return NULL;
}

TEST_F_TIMEOUT(plain, load_4x4, 1800)
{
	enum { P = 4, T = 4, TOTAL = 10000 };
	int p, status, failed = 0;
	int64_t t0 = fdif_now_ns();

	if (fdif_emu_available())
		fdif_emu_inject(FDIF_FAULT_NONE, 0);
	for (p = 0; p < P; p++) {
		if (!fork()) {
			pthread_t th[T];
			struct loader l[T];
			int t, bad = 0;

			for (t = 0; t < T; t++) {
				l[t] = (struct loader){ .jobs = TOTAL / (P * T) };
				pthread_create(&th[t], NULL, load_thread, &l[t]);
			}
			for (t = 0; t < T; t++) {
				pthread_join(th[t], NULL);
				bad += l[t].failures + l[t].out_of_order;
			}
			_exit(bad ? 1 : 0);
		}
	}
	for (p = 0; p < P; p++) {
		ASSERT_GT(wait(&status), 0);
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
	}
	EXPECT_EQ(0, failed);
	ASSERT_TRUE(all_accounted(10000));
	TH_LOG("4 processes x 4 threads: %d jobs in %.1f s, every result right, seqnos in order",
	       TOTAL, (fdif_now_ns() - t0) / 1e9);
}

int main(int argc, char **argv)
{
	/* without the marked face every check against it fails */
	if (fdif_load_truth("astronaut", &face_truth, 1) == 1)
		face_roi = fdif_roi_around(&face_truth);
	return test_harness_run(argc, argv);
}
