// SPDX-License-Identifier: MIT
/*
 * IGT-style test: system suspend and resume with the FDIF idle, runtime
 * suspended, and with jobs queued. The cycle is the kernel's suspend test:
 * "devices" into /sys/power/pm_test, then "freeze" into /sys/power/state
 * runs every device's suspend callbacks, waits pm_test_delay seconds
 * (shortened to 1 here), and resumes them, with no wake-up source needed.
 * The guest kernel must have CONFIG_SUSPEND=y and CONFIG_PM_DEBUG=y: without
 * /sys/power/pm_test every test fails.
 *
 * The driver parks its scheduler on suspend and waits for the job on the
 * hardware and the one queued in the driver behind it
 * (fdif_system_suspend()); jobs still in the scheduler run after the
 * resume. What
 * the kernel log must not show between the start and the end of a cycle,
 * checked after each:
 *   "suspend refused"       fdif_sched_suspend() gave up waiting for the
 *                           running job (-EBUSY, the whole suspend fails)
 *   "failed to suspend"     a device's suspend callback failed (PM core)
 *   "failed to resume"      a device's resume callback failed (PM core)
 *   "Some devices failed"   the PM core gave up the suspend
 *   "timed out: resetting"  a job timed out across the cycle
 * and it must show "suspend debug: Waiting" (the devices stage was reached).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#define PM_TEST		"/sys/power/pm_test"
#define PM_STATE	"/sys/power/state"
#define PM_DELAY	"/sys/module/suspend/parameters/pm_test_delay"
#define DELAY_S		1
/*
 * 200 ms a full frame: a batch of JOBS outlasts the start of the suspend.
 * Before it, the driver holds two (credit limit 2), and a second instance
 * may run two more while the first one's suspend waits for its two.
 */
#define FRAME_US	200000
#define JOBS		6
#define WAIT_MS		30000
#define RPM_WAIT_MS	3000	/* autosuspend is 50 ms */

static const char *const forbidden[] = {
	"suspend refused",
	"failed to suspend",
	"failed to resume",
	"Some devices failed",
	"timed out: resetting",
};

/* /sys/class/accel/accel<minor>/device/power/<file> */
static void power_path(char *path, size_t len, int minor, const char *file)
{
	snprintf(path, len, "/sys/class/accel/accel%d/device/power/%s", minor, file);
}

/* A finished job's result: the astronaut's one marked face. */
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

/* One full-frame job on @j's BOs, waited for and checked. */
static void good_job(struct __test_metadata *_metadata, int fd, struct fdif_job_bos *j)
{
	struct drm_fdif_job job;
	int st;

	memset(j->result.map, 0xa5, j->result.size);
	fdif_job_init(&job, j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	st = fdif_fence_wait(job.fence_fd, WAIT_MS, NULL);
	close(job.fence_fd);
	ASSERT_EQ(1, st);
	check_astronaut(_metadata, fdif_result(&j->result), job.seqno);
}

/*
 * One suspend/resume cycle through pm_test "devices"; checks the write
 * succeeded, the devices stage was reached and the kernel log of the cycle
 * (see the top of this file). Return: CLOCK_MONOTONIC ns when it started.
 */
static int64_t pm_cycle(struct __test_metadata *_metadata, const char *tag)
{
	static int cycles;
	char marker[96], delay[16] = "";
	unsigned int delay_s = 5;
	int64_t t0, t1;
	char *log;
	size_t i;
	int ret;

	EXPECT_EQ(0, sysfs_write(PM_DELAY, "1"));
	if (!sysfs_read(PM_DELAY, delay, sizeof(delay)))
		delay_s = (unsigned int)atoi(delay);
	ASSERT_EQ(0, sysfs_write(PM_TEST, "devices")) TH_LOG("cannot select pm_test devices");
	snprintf(marker, sizeof(marker), "fdif_pm[%d]: cycle %d (%s) begins", getpid(),
		 ++cycles, tag);
	EXPECT_EQ(0, sysfs_write("/dev/kmsg", marker));
	t0 = fdif_now_ns();
	ret = sysfs_write(PM_STATE, "freeze");
	t1 = fdif_now_ns();
	log = fdif_log_since(marker);
	if (!log)
		log = strdup("(the kernel log does not hold the cycle's marker)");
	ASSERT_TRUE(log != NULL);
	EXPECT_EQ(0, ret) TH_LOG("freeze: %s; kernel log of the cycle:\n%s", strerror(-ret), log);
	EXPECT_TRUE(strstr(log, "suspend debug: Waiting") != NULL)
		TH_LOG("the devices stage was not reached; kernel log:\n%s", log);
	for (i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		const char *hit = strstr(log, forbidden[i]);

		EXPECT_TRUE(hit == NULL) TH_LOG("in the kernel log of the cycle:\n%s", log);
	}
	/* the kernel waited pm_test_delay between suspend and resume */
	EXPECT_GE(t1 - t0, (int64_t)delay_s * 900000000)
		TH_LOG("the cycle took %lld ms, pm_test_delay is %u s",
		       (long long)(t1 - t0) / 1000000, delay_s);
	TH_LOG("%s: suspend/resume cycle of %lld ms", tag, (long long)(t1 - t0) / 1000000);
	free(log);
	return t0;
}

/* A batch of JOBS full-frame jobs on one instance, each with its result BO. */
struct queue {
	int fd, minor;
	struct fdif_job_bos j;
	struct fdif_bo res[JOBS];
	struct drm_fdif_job jobs[JOBS];
	int fences[JOBS];
};

static void queue_init(struct __test_metadata *_metadata, struct queue *q, int fd, int minor)
{
	int i;

	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->minor = minor;
	for (i = 0; i < JOBS; i++)
		q->fences[i] = -1;
	ASSERT_EQ(0, fdif_job_bos_new(fd, &q->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", q->j.pic.map));
	for (i = 0; i < JOBS; i++)
		ASSERT_EQ(0, fdif_bo_new(fd, q->j.caps.layout.size, &q->res[i]));
}

static void queue_free(struct queue *q)
{
	int i;

	for (i = 0; i < JOBS; i++) {
		if (q->fences[i] >= 0)
			close(q->fences[i]);
		fdif_bo_free(q->fd, &q->res[i]);
	}
	fdif_job_bos_free(q->fd, &q->j);
}

/* Slow the device down and queue the batch. */
static void queue_submit(struct __test_metadata *_metadata, struct queue *q)
{
	int i;

	ASSERT_NE(NULL, fdif_emu_regs_for(q->minor))
		TH_LOG("accel%d has no test registers", q->minor);
	ASSERT_EQ(0, fdif_emu_frame_time_on(q->minor, FRAME_US));
	for (i = 0; i < JOBS; i++) {
		memset(q->res[i].map, 0xa5, q->res[i].size);
		fdif_job_init(&q->jobs[i], &q->j);
		q->jobs[i].result_handle = q->res[i].handle;
		q->jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	}
	ASSERT_EQ(0, fdif_submit_jobs(q->fd, q->jobs, JOBS));
	for (i = 0; i < JOBS; i++) {
		q->fences[i] = q->jobs[i].fence_fd;
		ASSERT_GE(q->fences[i], 0);
		if (i)
			ASSERT_EQ(q->jobs[i - 1].seqno + 1, q->jobs[i].seqno);
	}
}

/*
 * After the cycle that started at @t0 and lasted @delay_s or more: every
 * job done with the face, in seqno order, and one of them parked across
 * the cycle (the batch takes less than the cycle, so the last job finishing
 * after it shows that the queue waited for the resume, not that it ran on).
 */
static void queue_check(struct __test_metadata *_metadata, struct queue *q, int64_t t0,
			int64_t t_submit)
{
	int64_t ts[JOBS];
	int i, st;

	for (i = 0; i < JOBS; i++) {
		st = fdif_fence_wait(q->fences[i], WAIT_MS, &ts[i]);
		EXPECT_EQ(1, st) TH_LOG("accel%d job %d (seqno %llu): fence status %d",
					q->minor, i, (unsigned long long)q->jobs[i].seqno, st);
		if (st != 1)
			ts[i] = 0;
		check_astronaut(_metadata, fdif_result(&q->res[i]), q->jobs[i].seqno);
		TH_LOG("accel%d job %llu done at +%lld ms", q->minor,
		       (unsigned long long)q->jobs[i].seqno,
		       ts[i] ? (long long)(ts[i] - t_submit) / 1000000 : -1ll);
		if (i)
			EXPECT_LE(ts[i - 1], ts[i]) TH_LOG("job %d ended before job %d", i, i - 1);
	}
	EXPECT_GE(ts[JOBS - 1], t0 + (int64_t)DELAY_S * 900000000)
		TH_LOG("the last job ended %lld ms after the cycle began: nothing waited for the resume",
		       (long long)(ts[JOBS - 1] - t0) / 1000000);
}

FIXTURE(pm) {
	int fd, minor;
	struct fdif_job_bos j;
	char delay[16];		/* pm_test_delay before the test, "" if unknown */
	bool forbidden_rpm;	/* power/control was set to "on" */
};

FIXTURE_SETUP(pm)
{
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	ASSERT_EQ(0, access(PM_TEST, W_OK))
		TH_LOG("no writable %s: the guest kernel needs CONFIG_SUSPEND=y and CONFIG_PM_DEBUG=y",
		       PM_TEST);
	ASSERT_EQ(0, access(PM_STATE, W_OK));
	self->minor = fdif_fd_minor(self->fd);
	ASSERT_GE(self->minor, 0);
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map));
	sysfs_read(PM_DELAY, self->delay, sizeof(self->delay));
}

FIXTURE_TEARDOWN(pm)
{
	struct fdif_instance inst[FDIF_MAX_INSTANCES];
	char path[128];
	int n, i;

	if (self->fd < 0)
		return;
	sysfs_write(PM_TEST, "none");
	if (self->delay[0])
		sysfs_write(PM_DELAY, self->delay);
	if (self->forbidden_rpm) {
		power_path(path, sizeof(path), self->minor, "control");
		sysfs_write(path, "auto");
	}
	n = fdif_instances(inst, FDIF_MAX_INSTANCES);
	for (i = 0; i < n; i++) {
		/* a failed test may leave a fault armed */
		fdif_emu_inject_on(inst[i].minor, FDIF_FAULT_NONE, 0);
		fdif_emu_frame_time_on(inst[i].minor, FDIF_EMU_FRAME_TIME_DEFAULT);
	}
	fdif_job_bos_free(self->fd, &self->j);
	close(self->fd);
}

/* Powered and idle (runtime PM forbidden): suspended, resumed, works. */
TEST_F_TIMEOUT(pm, idle, 90)
{
	char path[128], st[32];
	bool ok;

	power_path(path, sizeof(path), self->minor, "control");
	ASSERT_EQ(0, sysfs_write(path, "on"));
	self->forbidden_rpm = true;
	ok = fdif_wait_rpm(self->minor, "active", RPM_WAIT_MS);
	fdif_rpm_status(self->minor, st, sizeof(st));
	ASSERT_TRUE(ok) TH_LOG("runtime status %s with power/control \"on\"", st);

	pm_cycle(_metadata, "idle");
	/* forced down for the sleep, back up (and re-initialised) after it */
	fdif_rpm_status(self->minor, st, sizeof(st));
	EXPECT_STREQ("active", st);
	good_job(_metadata, self->fd, &self->j);

	/* runtime PM works again after the cycle */
	ASSERT_EQ(0, sysfs_write(path, "auto"));
	self->forbidden_rpm = false;
	EXPECT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
}

/*
 * A soft reset that does not complete when the device resumes, nor when
 * run_job tries it again (the emulated FDIF's stuck-reset fault, twice):
 * the job that woke the device fails with -EIO, and the device is not
 * wedged: the next resume resets it and jobs run again. (A resume callback
 * that returned the reset's error made the PM core latch it: every later
 * submit failed with -EINVAL.)
 */
TEST_F_TIMEOUT(pm, resume_reset_fails, 90)
{
	struct drm_fdif_job job;
	int ret;

	ASSERT_TRUE(fdif_emu_available());
	good_job(_metadata, self->fd, &self->j);
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	ASSERT_EQ(0, fdif_emu_inject_on(self->minor, FDIF_FAULT_STUCK_RESET, 2));

	memset(self->j.result.map, 0xa5, self->j.result.size);
	fdif_job_init(&job, &self->j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ret = fdif_submit_one(self->fd, &job);
	ASSERT_EQ(0, ret) TH_LOG("submit that resumes into a failed reset: %d", ret);
	EXPECT_EQ(-EIO, fdif_fence_wait(job.fence_fd, WAIT_MS, NULL));
	close(job.fence_fd);
	EXPECT_EQ(-EIO, fdif_result(&self->j.result)->status);
	EXPECT_EQ(0, fdif_result(&self->j.result)->count);

	/* the fault is used up: the next resume's reset completes */
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	good_job(_metadata, self->fd, &self->j);
	EXPECT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
}

/*
 * Master standby waits for the module's handshake (issue 39). A job whose
 * soft reset does not complete (the emulated FDIF's stuck-reset fault)
 * times out, and the module goes on running it for two more seconds: it
 * must not be put in standby, where ti-sysc may gate its clocks, before it
 * acknowledges with FDIF_CTRL.MSTANDBY_HDSHK, which it gives once its DMA
 * is idle. The device stays active meanwhile, suspends once the module is
 * done, and touches nothing in standby. (Runtime suspend set MSTANDBY and
 * returned at once before: suspended under a running module.)
 */
TEST_F_TIMEOUT(pm, standby_waits_for_handshake, 90)
{
	struct drm_fdif_job job;
	char st[32], ms[16];
	long long before;
	int64_t t_end;
	int timeout_ms;

	ASSERT_TRUE(fdif_emu_available());
	ASSERT_EQ(0, sysfs_read("/sys/module/fdif/parameters/timeout_ms", ms, sizeof(ms)));
	timeout_ms = atoi(ms);
	ASSERT_GT(timeout_ms, 0);
	good_job(_metadata, self->fd, &self->j);
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	before = fdif_emu_standby_accesses(self->minor);
	ASSERT_GE(before, 0);

	/*
	 * The module runs the job for timeout_ms + 2 s, and the reset after
	 * its timeout sticks: the fault is armed once the submission has
	 * resumed the device, whose resume resets the module too.
	 */
	ASSERT_EQ(0, fdif_emu_frame_time_on(self->minor, (timeout_ms + 2000) * 1000u));
	fdif_job_init(&job, &self->j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_emu_inject_on(self->minor, FDIF_FAULT_STUCK_RESET, 1));
	EXPECT_EQ(-ETIMEDOUT, fdif_fence_wait(job.fence_fd, WAIT_MS, NULL));
	close(job.fence_fd);
	t_end = fdif_now_ns() + 2000 * 1000000ll;

	/*
	 * Ten autosuspend delays later, the module is still at it: the device
	 * is active, or in a runtime suspend that waits up to 2 ms for the
	 * handshake and will be refused ("suspending": the CI run of ce8eedf
	 * looked in that window once); never suspended.
	 */
	usleep(500000);
	fdif_rpm_status(self->minor, st, sizeof(st));
	ASSERT_LT(fdif_now_ns(), t_end) TH_LOG("the guest was too slow to look in time");
	EXPECT_TRUE(!strcmp(st, "active") || !strcmp(st, "suspending"))
		TH_LOG("runtime PM status while the module still runs: %s", st);
	/* and done: standby acknowledged, the device suspends */
	EXPECT_TRUE(fdif_wait_rpm(self->minor, "suspended", 2000 + RPM_WAIT_MS));
	EXPECT_EQ(before, fdif_emu_standby_accesses(self->minor));

	ASSERT_EQ(0, fdif_emu_frame_time_on(self->minor, FDIF_EMU_FRAME_TIME_DEFAULT));
	good_job(_metadata, self->fd, &self->j);
}

/*
 * A failed reset on a device that stays powered (runtime PM forbidden
 * here; a device kept busy is never idle long enough to suspend either):
 * run_job tries the reset again, so the next jobs run. (Only a runtime
 * resume retried it before: every job of a busy device failed with -EIO
 * until the device went idle.)
 */
TEST_F_TIMEOUT(pm, failed_reset_retried_while_powered, 90)
{
	char path[128];
	int i;

	ASSERT_TRUE(fdif_emu_available());
	good_job(_metadata, self->fd, &self->j);
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	ASSERT_EQ(0, fdif_emu_inject_on(self->minor, FDIF_FAULT_STUCK_RESET, 1));
	/* resumed for good: that resume's reset does not complete */
	power_path(path, sizeof(path), self->minor, "control");
	ASSERT_EQ(0, sysfs_write(path, "on"));
	self->forbidden_rpm = true;
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "active", RPM_WAIT_MS));
	for (i = 0; i < 3; i++)
		good_job(_metadata, self->fd, &self->j);
}

/*
 * An interrupt while the device is runtime-suspended (the emulated FDIF's
 * irq-in-standby fault: the line pulses as the driver puts the module in
 * standby) must not touch the module, whose clocks a real OMAP4 may have
 * cut: the handler returns IRQ_NONE without a register access, and the
 * emulated device counts none. (The handler read IRQSTATUS before: a bus
 * error on OMAP4.)
 */
TEST_F_TIMEOUT(pm, irq_while_suspended, 90)
{
	long long before, spurious;
	char name[64];

	ASSERT_TRUE(fdif_emu_available());
	ASSERT_EQ(0, fdif_minor_devname(self->minor, name, sizeof(name)));
	good_job(_metadata, self->fd, &self->j);
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	before = fdif_emu_standby_accesses(self->minor);
	ASSERT_GE(before, 0);
	spurious = fdif_stat(name, "spurious_irqs");

	/* next time the module goes to standby */
	ASSERT_EQ(0, fdif_emu_inject_on(self->minor, FDIF_FAULT_IRQ_IN_STANDBY, 1));
	good_job(_metadata, self->fd, &self->j);
	ASSERT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
	usleep(100000);
	/* the pulse came (the fault is used up) and reached the handler */
	EXPECT_EQ(0, fdif_emu_fault_get(self->minor));
	EXPECT_LT(spurious, fdif_stat(name, "spurious_irqs"));
	EXPECT_EQ(before, fdif_emu_standby_accesses(self->minor))
		TH_LOG("registers accessed while suspended");
	good_job(_metadata, self->fd, &self->j);
}

/* Runtime suspended (idle past the 50 ms autosuspend) before the cycle. */
TEST_F_TIMEOUT(pm, idle_runtime_suspended, 90)
{
	char st[32];
	bool ok;

	/* a job first, so the device went through active to suspended */
	good_job(_metadata, self->fd, &self->j);
	usleep(100000);
	ok = fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS);
	fdif_rpm_status(self->minor, st, sizeof(st));
	ASSERT_TRUE(ok) TH_LOG("runtime status %s, 3 s after a job", st);

	pm_cycle(_metadata, "runtime suspended");
	fdif_rpm_status(self->minor, st, sizeof(st));
	TH_LOG("runtime status after the cycle: %s", st);
	good_job(_metadata, self->fd, &self->j);
	EXPECT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
}

/*
 * A batch of six 200 ms jobs, the suspend right behind it: the first is on
 * the hardware and the second queued in the driver (the suspend waits for
 * both), the rest queued in the scheduler (they run after the resume). All
 * end with the face, in order; a new job works.
 */
TEST_F_TIMEOUT(pm, jobs_queued, 120)
{
	struct queue q;
	int64_t t_submit, t0;

	queue_init(_metadata, &q, self->fd, self->minor);
	t_submit = fdif_now_ns();
	queue_submit(_metadata, &q);
	ASSERT_TRUE(fdif_fence_pending(q.fences[JOBS - 1]))
		TH_LOG("the batch ended before the suspend began");
	t0 = pm_cycle(_metadata, "jobs queued");
	queue_check(_metadata, &q, t0, t_submit);
	queue_free(&q);

	ASSERT_EQ(0, fdif_emu_frame_time_on(self->minor, FDIF_EMU_FRAME_TIME_DEFAULT));
	good_job(_metadata, self->fd, &self->j);
	EXPECT_TRUE(fdif_wait_rpm(self->minor, "suspended", RPM_WAIT_MS));
}

/* The same with a batch queued on every FDIF instance at once. */
TEST_F_TIMEOUT(pm, jobs_queued_all_instances, 120)
{
	struct fdif_instance inst[FDIF_MAX_INSTANCES];
	struct queue *q;
	int64_t t_submit, t0;
	int n, i;

	n = fdif_instances(inst, FDIF_MAX_INSTANCES);
	ASSERT_GE(n, 1);
	TH_LOG("%d instance(s)", n);
	q = calloc(n, sizeof(*q));
	ASSERT_NE(NULL, q);
	for (i = 0; i < n; i++) {
		int fd = fdif_open_minor(inst[i].minor);

		ASSERT_GE(fd, 0);
		queue_init(_metadata, &q[i], fd, inst[i].minor);
	}
	t_submit = fdif_now_ns();
	for (i = 0; i < n; i++)
		queue_submit(_metadata, &q[i]);
	for (i = 0; i < n; i++)
		ASSERT_TRUE(fdif_fence_pending(q[i].fences[JOBS - 1]))
			TH_LOG("%s: the batch ended before the suspend began", inst[i].name);
	t0 = pm_cycle(_metadata, "jobs queued on every instance");
	for (i = 0; i < n; i++) {
		queue_check(_metadata, &q[i], t0, t_submit);
		queue_free(&q[i]);
		ASSERT_EQ(0, fdif_emu_frame_time_on(inst[i].minor, FDIF_EMU_FRAME_TIME_DEFAULT));
	}
	for (i = 0; i < n; i++) {
		struct fdif_job_bos j;

		ASSERT_EQ(0, fdif_job_bos_new(q[i].fd, &j));
		ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
		good_job(_metadata, q[i].fd, &j);
		fdif_job_bos_free(q[i].fd, &j);
		close(q[i].fd);
	}
	free(q);
}

TEST_HARNESS_MAIN
