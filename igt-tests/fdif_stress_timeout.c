// SPDX-License-Identifier: MIT
/*
 * IGT-style reliability tests: races at a job's timeout, with the driver
 * reloaded with a short timeout_ms. Jobs that end as their timer fires;
 * the same window held open by the test module fdif_delay (kmod/),
 * which stalls the timeout handler; a reset that does not complete, and
 * one that fails while the release of what the first kept waits; an
 * unbind while jobs time out; a failed job's error reaching the job that
 * waits for it in the window where the scheduler has given back its
 * credit (fdif_delay again); no slow work with interrupts off (ftrace).
 *
 * Run on the debug kernel (KASAN, lockdep, kmemleak, DMA-API debug) by
 * scripts/test.sh's stress stage, whose harness also fails on any splat
 * (guest/run-guest.sh --debug-kernel --suite stress); docs/reliability.md.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_stress.h"

/*
 * Tests that load the driver with a short timeout_ms: the fixture reloads
 * it, and puts the default back (and the device's fault mode and frame
 * time) whatever the test did.
 */
FIXTURE(short_timeout) {
	int unused;
};

FIXTURE_SETUP(short_timeout)
{
	/* a test killed at its time limit left it loaded */
	if (!access(DELAY_PARAMS, F_OK) && system("rmmod fdif_delay"))
		TH_LOG("could not unload a leftover fdif_delay");
	if (access("/dev/accel/accel0", F_OK))
		SKIP(return, "no fdif device");
	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
}

/*
 * In the parent, once the test's process is gone (ended, failed an
 * assertion or killed at its time limit): its files and mappings no longer
 * pin the module, so the reload below cannot be refused.
 */
FIXTURE_TEARDOWN_PARENT(short_timeout)
{
	if (!fdif_emu_available())
		return;
	if (!access(DELAY_PARAMS, F_OK) && system("rmmod fdif_delay"))
		TH_LOG("could not unload fdif_delay");
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
 * A new file with the astronaut in @jb (one picture and work area) and a
 * result BO for each of @n jobs in @res: the file's fd.
 */
static int open_for_round(struct __test_metadata *_metadata, struct fdif_job_bos *jb,
			  struct fdif_bo *res, int n)
{
	int fd = fdif_open(), i;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, jb));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, fdif_bo_new(fd, jb->caps.layout.size, &res[i]));
	ASSERT_EQ(0, fdif_load_picture("astronaut", jb->pic.map));
	return fd;
}

/* The end of open_for_round(): the result BOs, the picture, the file. */
static void close_round(int fd, struct fdif_job_bos *jb, struct fdif_bo *res, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fdif_bo_free(fd, &res[i]);
	fdif_job_bos_free(fd, jb);
	close(fd);
}

/*
 * @n jobs on the picture of @jb, around the face, each with its own result
 * BO (filled with 0xa5 first) and an out-fence: their fds and seqnos.
 */
static void submit_round(struct __test_metadata *_metadata, int fd, struct fdif_job_bos *jb,
			 struct fdif_bo *res, int n, int *fences, uint64_t *seqnos)
{
	struct drm_fdif_job job;
	int i;

	for (i = 0; i < n; i++) {
		memset(res[i].map, 0xa5, res[i].size);
		fdif_job_init(&job, jb);
		job.result_handle = res[i].handle;
		job.roi = face_roi;
		job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(0, fdif_submit_one(fd, &job));
		fences[i] = job.fence_fd;
		seqnos[i] = job.seqno;
	}
}

/*
 * Jobs that end right when their timer fires (issue 11, 1): the timeout
 * handler then sees a job whose interrupt has just come, while the next
 * job may already be on the hardware. Each job must either finish with the
 * face or time out; none may be cancelled, and no result may be lost.
 * The jobs' lengths straddle the timer, so both outcomes must be seen: a
 * run where every job timed out (or none did) never reached the race.
 */
TEST_F_TIMEOUT(short_timeout, timeout_at_completion, 600)
{
	enum { TIMEOUT_MS = 40, ROUNDS = 300 };
	struct fdif_bo res[RACE_JOBS];
	struct fdif_job_bos jb;
	int fd, round, i, fences[RACE_JOBS], ok = 0, timedout = 0;
	uint64_t seqnos[RACE_JOBS];
	uint32_t area = face_roi.width * face_roi.height;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	fd = open_for_round(_metadata, &jb, res, RACE_JOBS);
	ASSERT_GT(area, 0);

	for (round = 0; round < ROUNDS; round++) {
		/* a job takes TIMEOUT_MS -4.2 ms .. +4.2 ms, 0.2 ms apart */
		uint64_t job_us = TIMEOUT_MS * 1000 + ((round % 43) - 21) * 200;

		ASSERT_EQ(0, fdif_emu_frame_time(job_us * FDIF_PIC_SIZE / area));
		submit_round(_metadata, fd, &jb, res, RACE_JOBS, fences, seqnos);
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
	/* the timer fired on both sides of a job's end: the window was reached */
	EXPECT_GT(ok, 0);
	EXPECT_GT(timedout, 0);
	close_round(fd, &jb, res, RACE_JOBS);
}

#define WQ_CPUMASK	"/sys/devices/virtual/workqueue/cpumask"

/* The number of DEV_NAME's interrupt, from /proc/interrupts, or -1. */
static int fdif_irq_number(void)
{
	char line[512];
	int irq = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (irq < 0 && fgets(line, sizeof(line), f))
		if (strstr(line, DEV_NAME) && sscanf(line, " %d:", &irq) != 1)
			irq = -1;
	fclose(f);
	return irq;
}

/*
 * The scheduler's work and its timeout handler (the unbound workqueues)
 * on CPU 0 only, and the FDIF's interrupt with its thread on CPU 1 only
 * (@on), or both back as they were (!@on). fdif_delay stalls by spinning
 * with preemption off, so a thread cannot run on the stalled CPU until
 * the stall ends: a stall of the scheduler's work then does not hold up
 * the interrupt's thread.
 */
static int split_work_and_irq(bool on)
{
	static char wq_mask[128], irq_mask[128];
	char path[64];
	int irq = fdif_irq_number();

	if (irq < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity", irq);
	if (on && (sysfs_read(WQ_CPUMASK, wq_mask, sizeof(wq_mask)) ||
		   sysfs_read(path, irq_mask, sizeof(irq_mask))))
		return -EIO;
	if (sysfs_write(WQ_CPUMASK, on ? "1" : wq_mask) ||
	    sysfs_write(path, on ? "2" : irq_mask))
		return -EIO;
	return 0;
}

/*
 * The same race (issue 11, 1), held open. The test module fdif_delay
 * stalls the timeout handler's entry, after drm_sched_job_timedout() has
 * taken job A off the pending list, for longer than a job takes: A's
 * interrupt comes meanwhile and its fence signals. Without the stall
 * that window is a few microseconds, which timeout_at_completion does
 * not hit. No job may be cancelled: a drm_sched_stop()/drm_sched_start()
 * with a next job B on the hardware cancels B (-ECANCELED) while it runs,
 * and its interrupt then writes into the freed job. (Until issue 39 the
 * scheduler started B during the stall; then its work and the timeout
 * handler came to share an ordered workqueue, so the stalled handler held
 * B back. Since issue 41 B, queued in the driver behind A, starts as A
 * ends, during the stall, and the handler holds back C; it no longer
 * stops and starts the scheduler.) A job (60 ms) outlasts its timer (40 ms) but not the stall
 * (100 ms), so a fixed handler always finds its job ended, while six
 * jobs a round keep one queued when the stall ends. The module's
 * log of stalls and the fences' timestamps show that the window was hit:
 * a job signalled during a stall and the next one ended after it.
 *
 * The interrupt's thread, which signals A, cannot run on the stalled CPU
 * until the stall ends; there A would end after the stall, and the round
 * miss the window (half the rounds did, by where the kworker ran): the
 * two are kept apart (split_work_and_irq()).
 */
TEST_F_TIMEOUT(short_timeout, timeout_handler_late, 600)
{
	enum { TIMEOUT_MS = 40, JOB_MS = 60, STALL_MS = 100, JOBS = 6, ROUNDS = 6 };
	uint64_t ts[ROUNDS][JOBS], st_start[MAX_STALLS], st_end[MAX_STALLS];
	struct fdif_bo res[JOBS];
	struct fdif_job_bos jb;
	int fd, round, i, k, fences[JOBS], ok = 0, timedout = 0, nstalls, raced = 0;
	uint64_t seqnos[JOBS];
	uint32_t area = face_roi.width * face_roi.height;
	char cmd[160];

	/* the next job must be able to start while one CPU is stalled */
	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 2);
	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	ASSERT_EQ(0, split_work_and_irq(true));
	snprintf(cmd, sizeof(cmd),
		 "insmod " DELAY_KO " func=fdif_timedout_job owner=fdif delay_us=%d",
		 STALL_MS * 1000);
	ASSERT_EQ(0, system(cmd));
	fd = open_for_round(_metadata, &jb, res, JOBS);
	ASSERT_GT(area, 0);
	ASSERT_EQ(0, fdif_emu_frame_time((uint64_t)JOB_MS * 1000 * FDIF_PIC_SIZE / area));

	for (round = 0; round < ROUNDS; round++) {
		submit_round(_metadata, fd, &jb, res, JOBS, fences, seqnos);
		for (i = 0; i < JOBS; i++) {
			int st = fence_wait_ts(fences[i], WAIT_NS, &ts[round][i]);

			close(fences[i]);
			/*
			 * Done with the face; -ETIMEDOUT only if the host was
			 * so slow that a job outlasted the stall. Never
			 * cancelled.
			 */
			ASSERT_TRUE(st == 1 || st == -ETIMEDOUT)
				TH_LOG("round %d job %d: fence status %d", round, i, st);
			if (!check_outcome(_metadata, st, res[i].map, seqnos[i], &ok))
				timedout++;
		}
		/*
		 * Let the stalled handler (and a second run of the timeout
		 * work queued meanwhile) end, so that the next round's first
		 * job times out on its own.
		 */
		usleep((2 * STALL_MS + 2 * TIMEOUT_MS) * 1000);
	}
	ASSERT_TRUE(all_accounted(5000));
	nstalls = read_stalls(st_start, st_end);
	ASSERT_GE(nstalls, ROUNDS);
	/* a round hit the window if a job ended inside a stall and the next after it */
	for (round = 0; round < ROUNDS; round++) {
		int hit = 0;

		for (k = 0; k < nstalls && !hit; k++)
			for (i = 0; i + 1 < JOBS && !hit; i++)
				hit = ts[round][i] > st_start[k] && ts[round][i] < st_end[k] &&
				      ts[round][i + 1] > st_end[k];
		raced += hit;
	}
	TH_LOG("%d jobs of %d ms with timeout_ms=%d, handler stalled %d ms %lld times, "
	       "%d of %d rounds in the window: %d found the face, %d timed out",
	       ROUNDS * JOBS, JOB_MS, TIMEOUT_MS, STALL_MS, knob_value(DELAY_PARAMS "hits"),
	       raced, ROUNDS, ok, timedout);
	EXPECT_EQ(0, split_work_and_irq(false));
	/* by design every round; TCG's timing may spoil some, not most */
	ASSERT_GE(raced, ROUNDS / 2);
	ASSERT_EQ(0, system("rmmod fdif_delay"));
	close_round(fd, &jb, res, JOBS);
}

/*
 * The module is not left idle between two jobs for the time of the
 * scheduler's work (issue 41): B, submitted with A, starts as A ends,
 * from the interrupt thread. Before, the scheduler gave B to run_job
 * only once its free work had freed A, a few milliseconds of an idle
 * module each job in a camera's stream. fdif_delay stalls that free,
 * fdif_free_job(), for longer than a job takes: B must end inside the
 * stall, where it did not start before. The scheduler's work runs on
 * another CPU than the interrupt's thread (split_work_and_irq()).
 */
TEST_F_TIMEOUT(short_timeout, next_job_starts_as_the_first_ends, 120)
{
	enum { STALL_MS = 300, JOBS = 2 };
	uint64_t ts[JOBS], st_start[MAX_STALLS], st_end[MAX_STALLS], seqnos[JOBS];
	struct fdif_bo res[JOBS];
	struct fdif_job_bos jb;
	int fd, i, k, n, fences[JOBS], ok = 0;
	char cmd[160];

	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 2);
	fd = open_for_round(_metadata, &jb, res, JOBS);
	ASSERT_TRUE(all_accounted(5000));
	ASSERT_EQ(0, split_work_and_irq(true));
	snprintf(cmd, sizeof(cmd),
		 "insmod " DELAY_KO " func=fdif_free_job owner=fdif delay_us=%d",
		 STALL_MS * 1000);
	ASSERT_EQ(0, system(cmd));

	submit_round(_metadata, fd, &jb, res, JOBS, fences, seqnos);
	for (i = 0; i < JOBS; i++) {
		ASSERT_EQ(1, fence_wait_ts(fences[i], WAIT_NS, &ts[i]));
		close(fences[i]);
		check_outcome(_metadata, 1, res[i].map, seqnos[i], &ok);
	}
	EXPECT_EQ(JOBS, ok);
	/* the module logs a stall as it ends: let both frees' stalls end */
	usleep((JOBS + 1) * STALL_MS * 1000);
	n = read_stalls(st_start, st_end);
	/* the free of A: the first stall that began after A ended */
	for (k = 0; k < n && st_start[k] < ts[0]; k++)
		;
	ASSERT_LT(k, n) TH_LOG("no stall of fdif_free_job() after the first job ended");
	TH_LOG("A ended, its free stalled %lld ms later for %d ms; B ended %lld ms after A",
	       (long long)(st_start[k] - ts[0]) / 1000000, STALL_MS,
	       (long long)(ts[1] - ts[0]) / 1000000);
	EXPECT_LT(ts[1], st_end[k]) TH_LOG("B waited for the scheduler to free A");
	ASSERT_EQ(0, system("rmmod fdif_delay"));
	EXPECT_EQ(0, split_work_and_irq(false));
	close_round(fd, &jb, res, JOBS);
}

/*
 * An ERR interrupt ends its job at once, not at its timer, also for a job
 * the interrupt thread started behind another (issue 41). B, queued in
 * the driver behind A, takes a DMA error the moment A's end starts it,
 * before A is freed. drm_sched_fault(), which the driver used, runs the
 * timeout handler at once for the oldest job not yet freed: A, ended; the
 * scheduler then timed B anew, and B's ERR waited for a whole timeout.
 * With timeout_ms at its largest (10 minutes) that is a hang here.
 */
TEST_F_TIMEOUT(short_timeout, err_of_the_job_started_behind_another, 120)
{
	enum { JOB_MS = 300, JOBS = 2 };
	uint64_t seqnos[JOBS];
	struct fdif_bo res[JOBS];
	struct fdif_job_bos jb;
	int fd, i, st[JOBS], fences[JOBS], ok = 0;
	uint32_t area = face_roi.width * face_roi.height;

	ASSERT_EQ(0, reload_driver(600000));
	fd = open_for_round(_metadata, &jb, res, JOBS);
	ASSERT_GT(area, 0);
	ASSERT_EQ(0, fdif_emu_frame_time((uint64_t)JOB_MS * 1000 * FDIF_PIC_SIZE / area));
	submit_round(_metadata, fd, &jb, res, 1, fences, seqnos);
	/* A runs (a third of its time) when B's fault is set */
	usleep(JOB_MS / 3 * 1000);
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_DMA, 1));
	submit_round(_metadata, fd, &jb, res + 1, 1, fences + 1, seqnos + 1);
	for (i = 0; i < JOBS; i++) {
		st[i] = fence_wait(fences[i], WAIT_NS);
		close(fences[i]);
		check_outcome(_metadata, st[i], res[i].map, seqnos[i], &ok);
	}
	EXPECT_EQ(1, st[0]) TH_LOG("A: fence %d", st[0]);
	EXPECT_EQ(-EIO, st[1]) TH_LOG("B: fence %d (-ETIME: its ERR waited for the timer)",
				      st[1]);
	close_round(fd, &jb, res, JOBS);
}

/*
 * The end of a test whose job @j the device keeps (its reset failed, the
 * module may still run it): the process frees the job's work area, which
 * must free nothing, and fills FRESH_BOS new BOs of its size with 0x5a,
 * where that memory would go if it were freed. After @wait_ms the module
 * has ended the job and written its work area: into none of them. Then a
 * good job on @j, with a new work area, resets the module, which lets the
 * kept BOs go: once @j is freed and @fd closed, the count of live BOs
 * comes back to @bos0.
 */
#define FRESH_BOS	16

/*
 * FRESH_BOS new BOs of @size on @fd, filled with 0x5a where memory the
 * device let go would go; after @wait_ms, when the module has ended its
 * job and written its work area, none of them may hold anything else.
 */
static void fresh_bos_not_written(struct __test_metadata *_metadata, int fd,
				  size_t size, int wait_ms)
{
	struct fdif_bo fresh[FRESH_BOS];
	int i, corrupted = 0;
	size_t k;

	for (i = 0; i < FRESH_BOS; i++) {
		ASSERT_EQ(0, fdif_bo_new(fd, size, &fresh[i]));
		memset(fresh[i].map, 0x5a, size);
	}
	usleep(wait_ms * 1000);
	for (i = 0; i < FRESH_BOS; i++) {
		const unsigned char *p = fresh[i].map;

		for (k = 0; k < size && p[k] == 0x5a; k++)
			;
		if (k < size) {
			TH_LOG("new BO %d written by the module at byte %zu", i, k);
			corrupted++;
		}
	}
	EXPECT_EQ(0, corrupted);
	for (i = 0; i < FRESH_BOS; i++)
		fdif_bo_free(fd, &fresh[i]);
}

static void kept_bos_not_reused(struct __test_metadata *_metadata, int fd,
				struct fdif_job_bos *j, int wait_ms, long long bos0)
{
	size_t size = j->work.size;
	struct drm_fdif_job job;
	long long held;

	held = stat_value("bos");
	fdif_bo_free(fd, &j->work);
	EXPECT_EQ(held, stat_value("bos"))
		TH_LOG("the job's work area was freed: the device let its BOs go");
	fresh_bos_not_written(_metadata, fd, size, wait_ms);

	/* a good job: its reset completes, and the kept BOs go */
	ASSERT_EQ(0, fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT));
	ASSERT_EQ(0, fdif_bo_new(fd, size, &j->work));
	fdif_job_init(&job, j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	EXPECT_EQ(1, fence_wait(job.fence_fd, WAIT_NS));
	close(job.fence_fd);
	fdif_job_bos_free(fd, j);
	close(fd);
	EXPECT_TRUE(bos_back_to(bos0, 5000))
		TH_LOG("live BOs: %lld, %lld before the test", stat_value("bos"), bos0);
}

/*
 * A job of @job_ms on the astronaut, on new BOs @j of @fd, whose reset
 * after its timeout is stuck: it times out, and the module runs on (and
 * writes its work area when it ends); the device keeps its BOs.
 */
static void job_kept_by_stuck_reset(struct __test_metadata *_metadata, int fd,
				    struct fdif_job_bos *j, int job_ms)
{
	uint32_t area = face_roi.width * face_roi.height;
	struct drm_fdif_job job;

	ASSERT_EQ(0, fdif_job_bos_new(fd, j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j->pic.map));
	ASSERT_GT(area, 0);
	ASSERT_EQ(0, fdif_emu_frame_time((uint64_t)job_ms * 1000 * FDIF_PIC_SIZE / area));
	fdif_job_init(&job, j);
	job.roi = face_roi;
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	/*
	 * The fault takes the next soft reset: the timeout's. (Injected
	 * before the submit, it went to the reset of the runtime resume the
	 * submit made, and the timeout's reset completed: nothing was kept.)
	 */
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_STUCK_RESET, 1));
	ASSERT_EQ(-ETIMEDOUT, fence_wait(job.fence_fd, WAIT_NS));
	close(job.fence_fd);
	/* the timeout's reset did not complete: the module runs on */
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_NONE, 0));
}

/*
 * A reset that fails after a timeout leaves a module that may still run
 * the job (issue 25, 5). The emulated FDIF's stuck-reset fault leaves it
 * running, and it writes the job's work area when it ends. The job's BOs
 * must not be freed and their memory reused meanwhile: here the process
 * frees its work area as soon as the job has timed out, and fills new BOs
 * of the same size, which must keep what it wrote into them when the
 * module is done. A good job (whose reset completes) then lets the kept
 * BOs go: the count of live BOs comes back.
 */
TEST_F_TIMEOUT(short_timeout, failed_reset_keeps_bos, 300)
{
	enum { TIMEOUT_MS = 100, JOB_MS = 800 };
	struct fdif_job_bos j;
	long long bos0;
	int fd;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	bos0 = stat_value("bos");
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	job_kept_by_stuck_reset(_metadata, fd, &j, JOB_MS);

	/* the module ends the job, at JOB_MS, and writes its work area */
	kept_bos_not_reused(_metadata, fd, &j, 2 * JOB_MS, bos0);
}

/*
 * A device unbound with its last reset failed leaves a module that may
 * still run the job, and nothing will reset it now: the memory of the BOs
 * it kept must never be freed (issue 39). The job's reset is stuck, as in
 * failed_reset_keeps_bos; the process frees the job's BOs and closes its
 * file, and the device is unbound, which lets the kept BOs go. The
 * process then fills new BOs of the work area's size, on the other FDIF,
 * with 0x5a, where freed memory would go (the two allocate from one CMA
 * area), and they must keep it when the module ends the job and writes
 * its work area. The kernel log says how much memory was given up, and
 * the module unloads: the kept BOs' fences (which hold the device) do not
 * keep the device from its release.
 */
TEST_F_TIMEOUT(short_timeout, failed_reset_then_unbind_never_frees, 300)
{
	enum { TIMEOUT_MS = 100, JOB_MS = 3000 };
	struct fdif_instance inst[FDIF_MAX_INSTANCES];
	int fd, other = -1, n, i;
	struct fdif_job_bos j;
	char marker[64], *log;
	size_t size;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	n = fdif_instances(inst, FDIF_MAX_INSTANCES);
	for (i = 0; i < n; i++)
		if (strcmp(inst[i].name, DEV_NAME))
			other = inst[i].minor;
	ASSERT_GE(other, 0) TH_LOG("no FDIF beside " DEV_NAME);
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	job_kept_by_stuck_reset(_metadata, fd, &j, JOB_MS);

	/* the device goes, the module still running the job */
	size = j.work.size;
	fdif_job_bos_free(fd, &j);
	close(fd);
	snprintf(marker, sizeof(marker), "fdif_stress_timeout[%d]: unbind", getpid());
	EXPECT_EQ(0, sysfs_write("/dev/kmsg", marker));
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));

	/* the module ends the job, at JOB_MS, and writes its work area */
	fd = fdif_open_minor(other);
	ASSERT_GE(fd, 0);
	fresh_bos_not_written(_metadata, fd, size, JOB_MS);
	close(fd);
	log = fdif_log_since(marker);
	ASSERT_TRUE(log != NULL);
	EXPECT_TRUE(strstr(log, "unbound with no reset completed") != NULL)
		TH_LOG("the kernel log since the unbind:\n%s", log);
	free(log);
	/* nothing the device kept holds it or the module: it unloads */
	EXPECT_EQ(0, reload_driver(2000))
		TH_LOG("the module could not be reloaded: something holds it");
}

/*
 * The start of a test of the release a completed reset queues, with
 * timeout_ms=RELEASE_TIMEOUT_MS, in @t: job A of @job_ms on new BOs, whose
 * reset after its timeout is stuck, so that the device keeps A's BOs;
 * fdif_delay, loaded to stall the release (fdif_held_work()) @stall_ms at
 * its entry; and job B on new BOs, whose start resets the module, which
 * completes and queues the release. B runs as long as A, or, if @b_ends,
 * as long as a job does by default. Returns once the release is stalled.
 */
#define RELEASE_TIMEOUT_MS	500

struct stalled_release {
	struct fdif_job_bos a, b;	/* A's BOs (kept), B's */
	struct drm_fdif_job job;	/* B, its fence in fence_fd */
	long long bos0;			/* live BOs before the test */
	int fd;				/* the file of A and B */
};

static void release_stalled_by_b(struct __test_metadata *_metadata,
				 struct stalled_release *t, bool b_ends, int job_ms,
				 int stall_ms)
{
	struct fdif_job_bos *a = &t->a, *b = &t->b;
	struct drm_fdif_job *job = &t->job;
	int fd, waited;
	char cmd[160];

	/* the job and the timeout handler must run while one CPU is stalled */
	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 2);
	ASSERT_EQ(0, reload_driver(RELEASE_TIMEOUT_MS));
	t->bos0 = stat_value("bos");
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	t->fd = fd;
	job_kept_by_stuck_reset(_metadata, fd, a, job_ms);
	if (b_ends)
		ASSERT_EQ(0, fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT));
	ASSERT_EQ(0, fdif_job_bos_new(fd, b));
	ASSERT_EQ(0, fdif_load_picture("astronaut", b->pic.map));
	snprintf(cmd, sizeof(cmd),
		 "insmod " DELAY_KO " func=fdif_held_work owner=fdif delay_us=%d",
		 stall_ms * 1000);
	ASSERT_EQ(0, system(cmd));

	fdif_job_init(job, b);
	job->roi = face_roi;
	job->flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, job));
	for (waited = 0; knob_value(DELAY_PARAMS "hits") < 1 &&
	     waited < RELEASE_TIMEOUT_MS / 2; waited++)
		usleep(1000);
	ASSERT_EQ(1, knob_value(DELAY_PARAMS "hits"))
		TH_LOG("the release did not start within %d ms of B's submit", waited);
}

/* Waits until the release stalled for @stall_ms has run; fdif_delay goes. */
static void stalled_release_ran(struct __test_metadata *_metadata, int stall_ms)
{
	usleep((stall_ms + 500) * 1000);
	ASSERT_EQ(1, knob_value(DELAY_PARAMS "hits"));
	ASSERT_EQ(0, system("rmmod fdif_delay"));
}

/*
 * The release of what a failed reset kept waits for a reset that
 * completed, and checks again when it runs that none failed since. Job A's
 * reset fails: the device keeps A's BOs. Job B's start resets the module,
 * which completes and queues the release; fdif_delay stalls the release at
 * its entry while B times out and B's reset fails too: the device now
 * keeps B's BOs (A's go with B, whose run proves the module let A go).
 * When the release runs, a reset has failed since it was queued, so it
 * must let nothing go: the module may still be running B. The process
 * frees B's work area, which must free nothing, and fills new BOs of its
 * size, which must keep what it wrote when the module ends B.
 */
TEST_F_TIMEOUT(short_timeout, failed_reset_while_the_release_waits, 300)
{
	enum { JOB_MS = 4000, STALL_MS = 1500 };
	struct stalled_release t = { 0 };

	/* B runs as long as A: it times out */
	release_stalled_by_b(_metadata, &t, false, JOB_MS, STALL_MS);
	/* the release stalled, the reset after B's timeout is stuck */
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_STUCK_RESET, 1));
	ASSERT_EQ(-ETIMEDOUT, fence_wait(t.job.fence_fd, WAIT_NS));
	close(t.job.fence_fd);
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_NONE, 0));
	stalled_release_ran(_metadata, STALL_MS);

	/* the device still keeps B's BOs; the module ends B at JOB_MS */
	fdif_job_bos_free(t.fd, &t.a);
	kept_bos_not_reused(_metadata, t.fd, &t.b, JOB_MS, t.bos0);
}

/*
 * What a failed reset kept goes once a reset has completed since, even if
 * a later reset, with no job, fails before the release runs (issue 39's
 * review: such BOs were kept until a reset completed again, and their
 * memory given up for good at an unbind before that). Job A's reset
 * fails: the device keeps A's BOs. Job B's start resets the module, which
 * completes (the module lets A go) and queues the release; fdif_delay
 * stalls the release at its entry while B ends, the device suspends, and
 * job C's resume finds the reset stuck (twice: run_job tries once more):
 * C fails with -EIO, the module never ran it. When the release runs, the
 * last reset has failed, but none has failed for a job since A's BOs were
 * kept: they go, and with the process's BOs freed and its file closed,
 * the count of live BOs comes back before any reset completes again.
 */
TEST_F_TIMEOUT(short_timeout, failed_jobless_reset_while_the_release_waits, 300)
{
	enum { JOB_MS = 800, STALL_MS = 1500 };
	struct stalled_release t = { 0 };
	struct drm_fdif_job c;

	/* B, a job of the default length, ends */
	release_stalled_by_b(_metadata, &t, true, JOB_MS, STALL_MS);
	ASSERT_EQ(1, fence_wait(t.job.fence_fd, WAIT_NS));
	close(t.job.fence_fd);

	/* C: the resume's reset and run_job's second try are stuck */
	ASSERT_TRUE(fdif_wait_rpm(fdif_fd_minor(t.fd), "suspended", STALL_MS / 3));
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_STUCK_RESET, 2));
	fdif_job_init(&c, &t.b);
	c.roi = face_roi;
	c.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(t.fd, &c));
	ASSERT_EQ(-EIO, fence_wait(c.fence_fd, WAIT_NS));
	close(c.fence_fd);
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_NONE, 0));

	/* the release runs, the last reset failed; then nothing resets */
	stalled_release_ran(_metadata, STALL_MS);
	fdif_job_bos_free(t.fd, &t.a);
	fdif_job_bos_free(t.fd, &t.b);
	close(t.fd);
	EXPECT_TRUE(bos_back_to(t.bos0, 5000))
		TH_LOG("live BOs: %lld, %lld before the test: A's are still kept",
		       stat_value("bos"), t.bos0);
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
 * A job whose in-sync is a failed job's out-sync must not run (issue 25,
 * 4), even in the window where the scheduler has given back the failed
 * job's credit, so the next job may start, but has not yet set the error
 * of its finished fence. fdif_delay stalls drm_sched_fence_finished() to
 * hold that window open (where the failed job is signalled: the driver's
 * fault work, on one CPU).
 * The waiting job's second in-sync, a sw_sync point, is signalled inside
 * it, so the scheduler looks at that job then. The waiting job is on the
 * same file (an in-sync from its own entity, which the scheduler drops as
 * a dependency) and on another file (which, pipelined, only waited for
 * the failed job to start). Both must end with -ECANCELED.
 */
/*
 * The interrupt of DEV_NAME's FDIF and the unbound workqueues (the
 * scheduler's work and its timeout handler) go to CPU 0 only, and this
 * process runs on CPU 1 only (@on), or all back to any CPU (!@on): a
 * stall where the failed job is signalled (since issue 39 the timeout
 * handler, on an unbound workqueue) then does not hold this process's
 * timers up.
 */
static int split_irq_and_test_cpus(bool on)
{
	static char wq_mask[128];
	char path[64];
	cpu_set_t set;
	int irq = fdif_irq_number();

	if (irq < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity", irq);
	if (sysfs_write(path, on ? "1" : "3"))
		return -EIO;
	if (on && sysfs_read(WQ_CPUMASK, wq_mask, sizeof(wq_mask)))
		return -EIO;
	if (sysfs_write(WQ_CPUMASK, on ? "1" : wq_mask))
		return -EIO;
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (!on)
		CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

TEST_F_TIMEOUT(short_timeout, in_sync_error_in_credit_window, 300)
{
	enum { STALL_MS = 600, SIGNAL_MS = 300 };
	uint64_t st_start[MAX_STALLS], st_end[MAX_STALLS];
	int other, hit = 0;
	char cmd[160];

	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 2);
	/* the stall on CPU 0, this test's sleeps and signals on CPU 1 */
	ASSERT_EQ(0, split_irq_and_test_cpus(true));
	snprintf(cmd, sizeof(cmd),
		 "insmod " DELAY_KO " func=drm_sched_fence_finished owner=gpu_sched delay_us=%d",
		 STALL_MS * 1000);
	ASSERT_EQ(0, system(cmd));
	for (other = 0; other < 2; other++) {
		struct drm_fdif_sync out = { 0 }, in[2] = { { 0 }, { 0 } };
		struct drm_fdif_job a, b;
		struct fdif_job_bos ja;
		struct fdif_bo res_b;
		struct drm_fdif_result_header *r;
		int fa = fdif_open(), fb, tl, fence, st, n, k;
		int64_t submitted, signalled;

		ASSERT_GE(fa, 0);
		fb = other ? fdif_open() : fa;
		ASSERT_GE(fb, 0);
		ASSERT_EQ(0, fdif_job_bos_new(fa, &ja));
		ASSERT_EQ(0, fdif_load_picture("astronaut", ja.pic.map));
		ASSERT_EQ(0, fdif_syncobj_create(fa, 0, &out.handle));
		in[0].handle = out.handle;
		if (other) {	/* the syncobj, shared with the other file */
			struct drm_syncobj_handle h = { .handle = out.handle };

			ASSERT_EQ(0, fdif_ioctl(fa, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h));
			h.handle = 0;
			ASSERT_EQ(0, fdif_ioctl(fb, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h));
			close(h.fd);
			in[0].handle = h.handle;
		}
		tl = sw_sync_point(_metadata, &fence);
		in[1].handle = syncobj_from_sync_file(fb, fence);
		ASSERT_NE(0, in[1].handle);
		close(fence);

		/* A ends with ERR; B, on the same picture, would find the face */
		fdif_job_init(&a, &ja);
		a.roi = face_roi;
		a.out_sync_count = 1;
		a.out_syncs = (uintptr_t)&out;
		a.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(0, fdif_bo_new(fb, ja.caps.layout.size, &res_b));
		memset(res_b.map, 0xa5, res_b.size);
		if (other) {	/* B's picture and work area on its own file */
			struct fdif_job_bos jb;

			ASSERT_EQ(0, fdif_job_bos_new(fb, &jb));
			ASSERT_EQ(0, fdif_load_picture("astronaut", jb.pic.map));
			fdif_job_init(&b, &jb);
		} else {
			fdif_job_init(&b, &ja);
		}
		b.result_handle = res_b.handle;
		b.roi = face_roi;
		b.in_sync_count = 2;
		b.in_syncs = (uintptr_t)in;
		b.flags = DRM_FDIF_JOB_FENCE_FD_OUT;

		ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_ERR, 1));
		submitted = fdif_now_ns();
		ASSERT_EQ(0, fdif_submit_one(fa, &a));
		ASSERT_EQ(0, fdif_submit_one(fb, &b));
		usleep(SIGNAL_MS * 1000);
		signalled = fdif_now_ns();
		ASSERT_EQ(0, sw_sync_signal(tl));

		EXPECT_EQ(-EIO, fence_wait(a.fence_fd, WAIT_NS));
		st = fence_wait(b.fence_fd, WAIT_NS);
		r = res_b.map;
		EXPECT_EQ(-ECANCELED, st) TH_LOG("%s file: the waiting job's fence %d",
						 other ? "another" : "the same", st);
		EXPECT_EQ(-ECANCELED, r->status);
		EXPECT_EQ(0, r->count);

		/* the point was signalled inside the stall of A's interrupt */
		n = read_stalls(st_start, st_end);
		for (k = 0; k < n; k++)
			if ((int64_t)st_start[k] > submitted)
				TH_LOG("stall from %lld to %lld ms after the submit",
				       (long long)((int64_t)st_start[k] - submitted) / 1000000,
				       (long long)((int64_t)st_end[k] - submitted) / 1000000);
		for (k = 0; k < n; k++)
			if ((int64_t)st_start[k] < signalled && (int64_t)st_end[k] > signalled)
				break;
		hit += k < n;
		TH_LOG("%s file: the waiting job ended with %d; signalled %lld ms after the submit, %s a stall",
		       other ? "another" : "the same", st,
		       (long long)(signalled - submitted) / 1000000,
		       k < n ? "inside" : "outside");

		close(a.fence_fd);
		close(b.fence_fd);
		close(tl);
		fdif_bo_free(fb, &res_b);
		if (other)
			close(fb);
		fdif_job_bos_free(fa, &ja);
		close(fa);
	}
	/* TCG's timing may spoil one variant's window, not both */
	EXPECT_GE(hit, 1);
	ASSERT_EQ(0, system("rmmod fdif_delay"));
	ASSERT_EQ(0, split_irq_and_test_cpus(false));
}

FDIF_STRESS_MAIN

#define TRACEFS	"/sys/kernel/tracing"

static int trace_set(const char *file, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	return sysfs_write(path, value);
}

/* Good jobs (their results copied) and jobs that fault (the module reset). */
static void completions_and_faults(struct __test_metadata *_metadata, int rounds)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int fd = fdif_open(), i, count;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	for (i = 0; i < rounds; i++) {
		fdif_job_init(&job, &j);
		job.roi = face_roi;
		job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(1, run_one(fd, &job, &j, &count));
		ASSERT_EQ(1, count);
		ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_ERR, 1));
		fdif_job_init(&job, &j);
		job.roi = face_roi;
		job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(-EIO, run_one(fd, &job, &j, &count));
	}
	fdif_job_bos_free(fd, &j);
	close(fd);
}

enum { ROUNDS_GRAPH = 5 };

/*
 * The trace of completions_and_faults(@rounds) by @tracer, of the
 * functions @filter names (set_ftrace_filter's globs), open for reading.
 */
static FILE *traced_jobs(struct __test_metadata *_metadata, const char *filter,
			 const char *tracer, int rounds)
{
	FILE *f;

	ASSERT_EQ(0, trace_set("tracing_on", "0"));
	ASSERT_EQ(0, trace_set("current_tracer", "nop"));
	ASSERT_EQ(0, trace_set("set_ftrace_filter", filter))
		TH_LOG("not traceable (inlined?): %s", filter);
	ASSERT_EQ(0, trace_set("trace", ""));
	ASSERT_EQ(0, trace_set("current_tracer", tracer)) TH_LOG("no %s tracer", tracer);
	ASSERT_EQ(0, trace_set("tracing_on", "1"));
	completions_and_faults(_metadata, rounds);
	ASSERT_EQ(0, trace_set("tracing_on", "0"));
	f = fopen(TRACEFS "/trace", "r");
	ASSERT_NE(NULL, f);
	return f;
}

/* Durations of one function's calls in a function graph trace, in us. */
struct call_times {
	const char *name;
	double us[512];
	int n;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One function graph trace line's duration, if it is a call of @t's
 * function: "  0) ! 203.520 us  |  fdif_irq [fdif]();" (a '+', '!' or
 * '#' marks a long one; module functions carry their module's name).
 */
static void call_time_add(struct call_times *t, char *line)
{
	size_t len = strlen(t->name);
	char *bar = strchr(line, '|'), *name, *us;
	double v;

	if (!bar || t->n == (int)(sizeof(t->us) / sizeof(t->us[0])))
		return;
	name = bar + 1 + strspn(bar + 1, " ");
	if (strncmp(name, t->name, len) || (name[len] != '(' && name[len] != ' '))
		return;
	*bar = '\0';
	us = strstr(line, " us");
	if (us) {
		while (us > line && us[-1] != ' ')
			us--;
		if (sscanf(us, "%lf", &v) == 1)
			t->us[t->n++] = v;
	}
	*bar = '|';
}

/*
 * How long the hard interrupt handler, fdif_irq(), runs, over
 * completions_and_faults(): the function graph tracer's durations of its
 * calls, and of the arch timer's handler in the same guest and the same
 * time, for scale (an emulated, debug-built guest).
 */
static void handler_times(struct __test_metadata *_metadata, struct call_times *irq,
			  struct call_times *timer)
{
	char line[512];
	FILE *f;

	/* (CONFIG_FUNCTION_GRAPH_TRACER) */
	f = traced_jobs(_metadata, "fdif_irq arch_timer_handler_virt", "function_graph",
			ROUNDS_GRAPH);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		call_time_add(irq, line);
		call_time_add(timer, line);
	}
	fclose(f);
	EXPECT_EQ(0, trace_set("current_tracer", "nop"));
	EXPECT_EQ(0, trace_set("set_ftrace_filter", ""));
	/* a good job's completion and a fault's ERR: one each at least */
	EXPECT_LE(2 * ROUNDS_GRAPH, irq->n);
	qsort(irq->us, irq->n, sizeof(double), cmp_double);
	qsort(timer->us, timer->n, sizeof(double), cmp_double);
	TH_LOG("%s: %d calls, median %.1f us, longest %.1f us; %s: %d calls, "
	       "median %.1f us, longest %.1f us", irq->name, irq->n,
	       irq->n ? irq->us[irq->n / 2] : 0, irq->n ? irq->us[irq->n - 1] : 0,
	       timer->name, timer->n, timer->n ? timer->us[timer->n / 2] : 0,
	       timer->n ? timer->us[timer->n - 1] : 0);
}

/*
 * Nothing slow runs with interrupts off (issue 39): copying a finished
 * job's results (a hundred and more register reads for 35 faces) and the
 * soft reset after an ERR (a poll of up to 4 ms) belong in the interrupt
 * thread and the timeout handler. The function tracer shows, for each
 * call, whether interrupts were off (the 'd' flag): none of the calls of
 * fdif_omap4_read_results() and fdif_omap4_hw_init() during good and
 * faulting jobs may have it. (Both ran in the hard interrupt handler
 * before.) Two times are logged, not checked: numbers of this emulated,
 * debug-built guest. The function graph tracer times each call of the
 * hard interrupt handler, fdif_irq(), the driver's whole share of time
 * with interrupts off (issue 39's goal: at most 100 us); and the irqsoff
 * tracer gives the guest's longest interrupts-off section, with where it
 * began and ended, whoever's it is.
 */
TEST_F_TIMEOUT(short_timeout, no_slow_work_with_irqs_off, 300)
{
	enum { ROUNDS = 5 };
	char line[512], *p;
	static struct call_times irq = { .name = "fdif_irq" },
				 timer = { .name = "arch_timer_handler_virt" };
	int reads = 0, resets = 0, irqs_off = 0;
	long long max_us = -1;
	FILE *f;

	if (access(TRACEFS "/trace", F_OK))
		ASSERT_EQ(0, system("mount -t tracefs nodev " TRACEFS));
	/* the globs also take a compiler's clones (.isra.0, .constprop.0) */
	f = traced_jobs(_metadata, "fdif_omap4_read_results* fdif_omap4_hw_init*",
			"function", ROUNDS);
	while (fgets(line, sizeof(line), f)) {
		bool reader = strstr(line, " fdif_omap4_read_results") != NULL;
		bool reset = strstr(line, " fdif_omap4_hw_init") != NULL;

		if (line[0] == '#' || (!reader && !reset))
			continue;
		reads += reader;
		resets += reset;
		/* "task-pid [cpu] flags timestamp: function <-caller" */
		p = strchr(line, ']');
		ASSERT_NE(NULL, p) TH_LOG("trace line: %s", line);
		p += strspn(p + 1, " ") + 1;
		if (*p == 'd' || *p == 'D') {
			irqs_off++;
			TH_LOG("with interrupts off: %s", line);
		}
	}
	fclose(f);
	ASSERT_EQ(0, trace_set("current_tracer", "nop"));
	ASSERT_EQ(0, trace_set("set_ftrace_filter", ""));
	EXPECT_GE(reads, ROUNDS);
	EXPECT_GE(resets, ROUNDS);
	EXPECT_EQ(0, irqs_off);

	/* the measures, for docs/reliability.md */
	handler_times(_metadata, &irq, &timer);
	if (!trace_set("current_tracer", "irqsoff")) {
		ASSERT_EQ(0, trace_set("tracing_max_latency", "0"));
		ASSERT_EQ(0, trace_set("tracing_on", "1"));
		completions_and_faults(_metadata, ROUNDS);
		ASSERT_EQ(0, trace_set("tracing_on", "0"));
		max_us = knob_value(TRACEFS "/tracing_max_latency");
		/* where that section began and ended: the latency trace's header */
		f = fopen(TRACEFS "/trace", "r");
		while (f && fgets(line, sizeof(line), f)) {
			if (!strstr(line, "=> started at:") && !strstr(line, "=> ended at:"))
				continue;
			p = line + strspn(line, "# ");
			p[strcspn(p, "\n")] = '\0';
			TH_LOG("longest interrupts-off section %s", p);
		}
		if (f)
			fclose(f);
		ASSERT_EQ(0, trace_set("current_tracer", "nop"));
	}
	TH_LOG("%d result copies and %d resets, %d with interrupts off; longest "
	       "interrupts-off section over %d good and %d faulting jobs: %lld us%s",
	       reads, resets, irqs_off, ROUNDS, ROUNDS, max_us,
	       max_us < 0 ? " (no irqsoff tracer)" : "");
}
