// SPDX-License-Identifier: MIT
/*
 * IGT-style test: two FDIF instances in one system. The guest has two
 * -device omap4-fdif,test-regs=on (guest/run-guest.sh); QEMU's
 * platform bus puts them at 0x0c000000 and 0x0c001000, each with its own
 * interrupt, and the driver makes one drm_device, scheduler and accel node
 * each. Instances are told apart by their platform device
 * (/sys/class/accel/accelN/device), never by minor: minors follow probe
 * order. "First" and "second" below are by register address.
 *
 * Each instance answers on its own, runs its own jobs, is named after its
 * device in its jobs' fences (the scheduler's name is dev_name(), which
 * drm_sched fences report as their timeline), and a hang on one leaves the
 * other running at full speed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#define WAIT_MS		30000
#define OTHER_JOBS	6	/* jobs on the healthy instance during a hang */
#define BATCH		4
#define SLOW_US		200000	/* 200 ms a full frame */

/* A fence's status (1 done, 0 pending, -errno failed), timestamp and names. */
static int fence_info(int fd, int64_t *ts, char *obj, char *drv)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };

	if (ioctl(fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	if (ts)
		*ts = (int64_t)info.timestamp_ns;
	if (obj)
		memcpy(obj, info.obj_name, sizeof(info.obj_name));
	if (drv)
		memcpy(drv, info.driver_name, sizeof(info.driver_name));
	return file.status;
}

static void check_astronaut(struct __test_metadata *_metadata,
			    const struct drm_fdif_result_header *r, uint64_t seqno)
{
	struct fdif_box t;
	char why[160] = "";

	ASSERT_EQ(1, fdif_load_truth("astronaut", &t, 1));
	EXPECT_EQ(seqno, r->seqno);
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(1, r->count);
	EXPECT_EQ(0, fdif_result_check(r, &t, 1, why, sizeof(why))) TH_LOG("%s", why);
}

/* Submit a full-frame job on @j's BOs with a fence fd; return the fd. */
static int submit_job(struct __test_metadata *_metadata, int fd, struct fdif_job_bos *j,
		      struct drm_fdif_job *job)
{
	memset(j->result.map, 0xa5, j->result.size);
	fdif_job_init(job, j);
	job->flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	EXPECT_EQ(0, fdif_submit_one(fd, job));
	return job->fence_fd;
}

static void good_job(struct __test_metadata *_metadata, int fd, struct fdif_job_bos *j)
{
	struct drm_fdif_job job;
	int fence = submit_job(_metadata, fd, j, &job), st;

	ASSERT_GE(fence, 0);
	st = fdif_fence_wait(fence, WAIT_MS, NULL);
	close(fence);
	ASSERT_EQ(1, st);
	check_astronaut(_metadata, fdif_result(&j->result), job.seqno);
}

/* The IRQ number /proc/interrupts lists for handler @name, or -1. */
static int irq_of(const char *name)
{
	char line[512];
	int irq = -1;
	size_t nlen = strlen(name), len;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (len > nlen && !strcmp(line + len - nlen, name) && line[len - nlen - 1] == ' ') {
			irq = atoi(line);
			break;
		}
	}
	fclose(f);
	return irq;
}

FIXTURE(multi) {
	int n;
	struct fdif_instance inst[FDIF_MAX_INSTANCES];
	int fd[2];
	struct fdif_job_bos j[2];
};

FIXTURE_SETUP(multi)
{
	int i;

	self->fd[0] = self->fd[1] = -1;
	self->n = fdif_instances(self->inst, FDIF_MAX_INSTANCES);
	if (self->n <= 0)
		SKIP(return, "no fdif device");
	ASSERT_GE(self->n, 2)
		TH_LOG("one fdif instance: the guest must have two -device omap4-fdif");
	for (i = 0; i < 2; i++) {
		self->fd[i] = fdif_open_minor(self->inst[i].minor);
		ASSERT_GE(self->fd[i], 0);
		ASSERT_EQ(0, fdif_job_bos_new(self->fd[i], &self->j[i]));
		ASSERT_EQ(0, fdif_load_picture("astronaut", self->j[i].pic.map));
	}
}

FIXTURE_TEARDOWN(multi)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (self->fd[i] < 0)
			continue;
		fdif_emu_inject_on(self->inst[i].minor, FDIF_FAULT_NONE, 0);
		fdif_emu_frame_time_on(self->inst[i].minor, FDIF_EMU_FRAME_TIME_DEFAULT);
		fdif_job_bos_free(self->fd[i], &self->j[i]);
		close(self->fd[i]);
	}
}

/*
 * Two accel nodes of the fdif driver on two platform devices, each with its
 * own interrupt, both answering DRM_FDIF_QUERY_DEVICE; on the emulated
 * guest the first is the one at FDIF_EMU_BASE, and it is the one fdif_open()
 * (every single-device test) uses.
 */
TEST_F(multi, two_instances)
{
	struct drm_fdif_device_info info;
	int i, irq[2], fd;

	for (i = 0; i < self->n; i++)
		TH_LOG("accel%d: %s", self->inst[i].minor, self->inst[i].name);
	EXPECT_NE(self->inst[0].minor, self->inst[1].minor);
	for (i = 0; i < 2; i++) {
		const char *name = self->inst[i].name;
		size_t len = strlen(name);

		EXPECT_TRUE(len > 5 && !strcmp(name + len - 5, ".fdif")) TH_LOG("name \"%s\"", name);
		EXPECT_NE(UINT64_MAX, self->inst[i].base);
		EXPECT_EQ(self->inst[i].minor, fdif_devname_minor(name));
		EXPECT_EQ(self->inst[i].minor, fdif_fd_minor(self->fd[i]));
		memset(&info, 0, sizeof(info));
		EXPECT_GE(fdif_query(self->fd[i], DRM_FDIF_QUERY_DEVICE, &info, sizeof(info)),
			  (int)offsetof(struct drm_fdif_device_info, max_syncs) + 4);
		EXPECT_EQ(DRM_FDIF_GEN_OMAP4, info.generation);
		irq[i] = irq_of(name);
		EXPECT_GE(irq[i], 0) TH_LOG("no interrupt named %s in /proc/interrupts", name);
	}
	EXPECT_STRNE(self->inst[0].name, self->inst[1].name);
	EXPECT_NE(self->inst[0].base, self->inst[1].base);
	EXPECT_NE(irq[0], irq[1]);

	if (!fdif_emu_available())
		return;	/* not the emulated device: no fixed addresses */
	EXPECT_EQ(FDIF_EMU_BASE, self->inst[0].base);
	EXPECT_STREQ("c000000.fdif", self->inst[0].name);
	/* QEMU's platform bus: the next free 4 KiB window */
	EXPECT_EQ(FDIF_EMU_BASE + 0x1000, self->inst[1].base);
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	EXPECT_EQ(self->inst[0].minor, fdif_fd_minor(fd))
		TH_LOG("fdif_open() did not open the device whose test registers fdif_emu_*() use");
	close(fd);
}

/* Each instance's test registers are its own window. */
TEST_F(multi, test_regs_per_instance)
{
	volatile uint32_t *r0 = fdif_emu_regs_for(self->inst[0].minor);
	volatile uint32_t *r1 = fdif_emu_regs_for(self->inst[1].minor);

	if (!r0 || !r1)
		SKIP(return, "no emulated FDIF with test registers");
	EXPECT_NE(r0, r1);
	ASSERT_EQ(0, fdif_emu_frame_time_on(self->inst[0].minor, 123000));
	ASSERT_EQ(0, fdif_emu_frame_time_on(self->inst[1].minor, 45000));
	EXPECT_EQ(123000, fdif_emu_frame_time_get(self->inst[0].minor));
	EXPECT_EQ(45000, fdif_emu_frame_time_get(self->inst[1].minor));
	ASSERT_EQ(0, fdif_emu_frame_time_on(self->inst[1].minor, FDIF_EMU_FRAME_TIME_DEFAULT));
	EXPECT_EQ(123000, fdif_emu_frame_time_get(self->inst[0].minor));
	ASSERT_EQ(0, fdif_emu_frame_time_on(self->inst[0].minor, FDIF_EMU_FRAME_TIME_DEFAULT));
}

/* A job on each finds the face; each device counts only its own jobs. */
TEST_F(multi, job_on_each)
{
	long long before[2], after[2];
	int i, k;

	for (i = 0; i < 2; i++) {
		for (k = 0; k < 2; k++)
			before[k] = fdif_stat(self->inst[k].name, "submitted");
		good_job(_metadata, self->fd[i], &self->j[i]);
		for (k = 0; k < 2; k++)
			after[k] = fdif_stat(self->inst[k].name, "submitted");
		if (before[0] < 0 || before[1] < 0)
			continue;	/* no debugfs */
		EXPECT_EQ(before[i] + 1, after[i]) TH_LOG("%s", self->inst[i].name);
		EXPECT_EQ(before[!i], after[!i]) TH_LOG("%s counted %s's job",
							self->inst[!i].name, self->inst[i].name);
	}
}

/*
 * A BO of one instance imports into the other, and the other finds the
 * face in it. Also where RAM lies beyond the devices' reach (the stress
 * stage's guest), where the driver takes no other exporter's buffer: an
 * FDIF's memory is within every FDIF's reach.
 */
TEST_F(multi, picture_from_other_instance)
{
	struct drm_prime_handle exp = { .handle = self->j[0].pic.handle, .flags = DRM_CLOEXEC };
	struct drm_prime_handle imp = { 0 };
	struct fdif_job_bos j = self->j[1];

	ASSERT_EQ(0, fdif_ioctl(self->fd[0], DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
	imp.fd = exp.fd;
	EXPECT_EQ(0, fdif_ioctl(self->fd[1], DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	close(exp.fd);
	ASSERT_NE(0, imp.handle);
	/* the first instance's picture, the second's work area and results */
	j.pic.handle = imp.handle;
	good_job(_metadata, self->fd[1], &j);
	EXPECT_EQ(0, fdif_gem_close(self->fd[1], imp.handle));
}

/*
 * A job's sync_file names its device: its fence (the driver's, following
 * drm_sched's finished fence) reports the device's name, as the
 * scheduler's fences do, as its timeline, SYNC_IOC_FILE_INFO's obj_name,
 * and "fdif" as its driver. Read while the job is pending where the
 * device can be slowed down.
 */
TEST_F(multi, sched_named_after_device)
{
	char obj[2][32], drv[32];
	struct drm_fdif_job job;
	int i, fence, st;

	for (i = 0; i < 2; i++) {
		fdif_emu_frame_time_on(self->inst[i].minor, SLOW_US);
		fence = submit_job(_metadata, self->fd[i], &self->j[i], &job);
		ASSERT_GE(fence, 0);
		memset(obj[i], 0, sizeof(obj[i]));
		memset(drv, 0, sizeof(drv));
		st = fence_info(fence, NULL, obj[i], drv);
		ASSERT_GE(st, 0);
		obj[i][sizeof(obj[i]) - 1] = drv[sizeof(drv) - 1] = '\0';
		TH_LOG("%s: fence timeline \"%s\", driver \"%s\"%s", self->inst[i].name, obj[i],
		       drv, st ? " (already signalled)" : "");
		EXPECT_STREQ(self->inst[i].name, obj[i]);
		/* the sync_file's fence, the driver's own (fdif_out_fence.c) */
		EXPECT_STREQ("fdif", drv);
		st = fdif_fence_wait(fence, WAIT_MS, NULL);
		close(fence);
		EXPECT_EQ(1, st);
		check_astronaut(_metadata, fdif_result(&self->j[i].result), job.seqno);
		fdif_emu_frame_time_on(self->inst[i].minor, FDIF_EMU_FRAME_TIME_DEFAULT);
	}
	EXPECT_STRNE(obj[0], obj[1]);
}

/*
 * Instance @hung hangs on a job (no interrupt ever: the driver's timeout,
 * 2 s in the guest, resets it) while instance @other runs OTHER_JOBS jobs
 * one after the other: each ends with the face while the hung job is still
 * pending, i.e. well before the timeout. Then the hung job ends -ETIMEDOUT,
 * only the hung device counts a timeout, and both work.
 */
static void hang_isolated(struct __test_metadata *_metadata, FIXTURE_DATA(multi) *self,
			  int hung, int other)
{
	const char *hname = self->inst[hung].name, *oname = self->inst[other].name;
	long long tmo[2], rst[2];
	struct drm_fdif_job hjob, job;
	int hfence, fence, k, st;
	int64_t t0, t_other, t_hung;

	if (!fdif_emu_regs_for(self->inst[hung].minor) ||
	    !fdif_emu_regs_for(self->inst[other].minor))
		SKIP(return, "no emulated FDIF with test registers");
	for (k = 0; k < 2; k++) {
		tmo[k] = fdif_stat(self->inst[k].name, "timeouts");
		rst[k] = fdif_stat(self->inst[k].name, "resets");
	}

	ASSERT_EQ(0, fdif_emu_inject_on(self->inst[hung].minor, FDIF_FAULT_HANG, 1));
	hfence = submit_job(_metadata, self->fd[hung], &self->j[hung], &hjob);
	ASSERT_GE(hfence, 0);
	t0 = fdif_now_ns();

	for (k = 0; k < OTHER_JOBS; k++) {
		fence = submit_job(_metadata, self->fd[other], &self->j[other], &job);
		ASSERT_GE(fence, 0);
		st = fdif_fence_wait(fence, WAIT_MS, NULL);
		close(fence);
		EXPECT_EQ(1, st) TH_LOG("%s job %d during %s's hang: fence status %d",
					oname, k, hname, st);
		check_astronaut(_metadata, fdif_result(&self->j[other].result), job.seqno);
		/* done while the other device's job is still hung */
		ASSERT_TRUE(fdif_fence_pending(hfence))
			TH_LOG("%s's hung job ended before %s's job %d (%lld ms in)", hname,
			       oname, k, (long long)(fdif_now_ns() - t0) / 1000000);
	}
	t_other = fdif_now_ns() - t0;

	st = fdif_fence_wait(hfence, WAIT_MS, NULL);
	t_hung = fdif_now_ns() - t0;
	close(hfence);
	EXPECT_EQ(-ETIMEDOUT, st);
	EXPECT_EQ(-ETIMEDOUT, fdif_result(&self->j[hung].result)->status);
	EXPECT_EQ(0, fdif_result(&self->j[hung].result)->count);
	EXPECT_EQ(hjob.seqno, fdif_result(&self->j[hung].result)->seqno);
	TH_LOG("%s: %d jobs in %lld ms while %s hung; its job timed out after %lld ms", oname,
	       OTHER_JOBS, (long long)t_other / 1000000, hname, (long long)t_hung / 1000000);

	/* the timeout and the reset were the hung device's alone */
	if (tmo[0] >= 0 && tmo[1] >= 0) {
		EXPECT_EQ(tmo[hung] + 1, fdif_stat(self->inst[hung].name, "timeouts"));
		EXPECT_EQ(tmo[other], fdif_stat(self->inst[other].name, "timeouts"));
		EXPECT_EQ(rst[other], fdif_stat(self->inst[other].name, "resets"));
	}
	good_job(_metadata, self->fd[hung], &self->j[hung]);
	good_job(_metadata, self->fd[other], &self->j[other]);
}

TEST_F_TIMEOUT(multi, hang_on_first_isolated, 90)
{
	hang_isolated(_metadata, self, 0, 1);
}

TEST_F_TIMEOUT(multi, hang_on_second_isolated, 90)
{
	hang_isolated(_metadata, self, 1, 0);
}

/*
 * A batch on each at once: every job finds the face, each instance's in
 * its own order, and with 200 ms jobs the two batches overlap in time (the
 * devices run side by side, not one after the other).
 */
TEST_F_TIMEOUT(multi, concurrent_batches, 90)
{
	struct fdif_bo res[2][BATCH];
	struct drm_fdif_job jobs[2][BATCH];
	int64_t ts[2][BATCH];
	bool slow = true;
	int i, k, st;

	for (i = 0; i < 2; i++)
		slow &= !fdif_emu_frame_time_on(self->inst[i].minor, SLOW_US);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < BATCH; k++) {
			ASSERT_EQ(0, fdif_bo_new(self->fd[i], self->j[i].caps.layout.size, &res[i][k]));
			memset(res[i][k].map, 0xa5, res[i][k].size);
			fdif_job_init(&jobs[i][k], &self->j[i]);
			jobs[i][k].result_handle = res[i][k].handle;
			jobs[i][k].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		}
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, fdif_submit_jobs(self->fd[i], jobs[i], BATCH));
	for (i = 0; i < 2; i++) {
		for (k = 0; k < BATCH; k++) {
			st = fdif_fence_wait(jobs[i][k].fence_fd, WAIT_MS, &ts[i][k]);
			close(jobs[i][k].fence_fd);
			EXPECT_EQ(1, st) TH_LOG("%s job %d: %d", self->inst[i].name, k, st);
			check_astronaut(_metadata, fdif_result(&res[i][k]), jobs[i][k].seqno);
			if (k)
				EXPECT_LE(ts[i][k - 1], ts[i][k]);
			fdif_bo_free(self->fd[i], &res[i][k]);
		}
	}
	TH_LOG("%s: jobs done %lld..%lld ms, %s: %lld..%lld ms (from the first)",
	       self->inst[0].name, 0ll, (long long)(ts[0][BATCH - 1] - ts[0][0]) / 1000000,
	       self->inst[1].name, (long long)(ts[1][0] - ts[0][0]) / 1000000,
	       (long long)(ts[1][BATCH - 1] - ts[0][0]) / 1000000);
	if (slow) {
		/* each device's first job ended before the other's last one */
		EXPECT_LT(ts[0][0], ts[1][BATCH - 1]);
		EXPECT_LT(ts[1][0], ts[0][BATCH - 1]);
	}
}

TEST_HARNESS_MAIN
