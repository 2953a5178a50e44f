// SPDX-License-Identifier: MIT
/*
 * IGT-style reliability tests: injected device faults, clients dying,
 * unbind/bind and module reload, hostile ioctls, load, and kernel
 * allocations failed on purpose (failslab, fail_page_alloc). Each prints
 * what it did (TH_LOG) and checks that every job is accounted for in the
 * driver's debugfs counters. Run on the debug kernel by
 * `scripts/test.sh --debug-kernel`, whose harness also fails on any
 * KASAN/lockdep/kmemleak/WARN splat.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
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

/*
 * Counter @key of DEV_NAME's debugfs stats: the instance fdif_open() and
 * the fault injection use (the guest has a second FDIF, which these tests
 * leave alone).
 */
static long long stat_value(const char *key)
{
	return fdif_stat(DEV_NAME, key);
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

/*
 * Wait up to @ns for the sync_file @fd: its status (1 signalled, or the
 * error), or -ETIME; *@ts (if not NULL) gets when it signalled, in
 * CLOCK_MONOTONIC ns.
 */
static int fence_wait_ts(int fd, int64_t ns, uint64_t *ts)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };

	if (poll(&p, 1, (int)(ns / 1000000)) != 1)
		return -ETIME;
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	if (ts)
		*ts = info.timestamp_ns;
	return file.status;
}

static int fence_wait(int fd, int64_t ns)
{
	return fence_wait_ts(fd, ns, NULL);
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

/* DEV_NAME bound with its accel node (@present), or unbound and gone. */
static int wait_node(int present)
{
	char path[32];
	int i, minor;

	for (i = 0; i < 200; i++) {
		minor = fdif_devname_minor(DEV_NAME);
		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		if ((minor >= 0 && access(path, F_OK) == 0) == present)
			return 1;
		usleep(10000);
	}
	return 0;
}

#define FDIF_REFCNT		"/sys/module/fdif/refcnt"

/* The fdif module's reference count, or -1. */
static long long module_refs(void)
{
	FILE *f = fopen(FDIF_REFCNT, "re");
	long long n = -1;

	if (f) {
		if (fscanf(f, "%lld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/*
 * rmmod fdif, once the last jobs are gone: a job holds the module until
 * it has been freed, a little after its fence signalled (and its file
 * was closed), so right after a job rmmod may still find it in use.
 */
static int unload_driver(void)
{
	int i;

	for (i = 0; i < 500 && module_refs() > 0; i++)
		usleep(10000);
	return system("rmmod fdif");
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
		ASSERT_EQ(0, unload_driver());
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

	snprintf(cmd, sizeof(cmd), "modprobe fdif timeout_ms=%u", timeout_ms);
	if (unload_driver() || system(cmd))
		return -1;
	return wait_node(1) ? 0 : -1;
}

#define DELAY_KO	"/lib/fdif-test/fdif_delay.ko"
#define DELAY_PARAMS	"/sys/module/fdif_delay/parameters/"

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
	for (i = 0; i < RACE_JOBS; i++)
		fdif_bo_free(fd, &res[i]);
	fdif_job_bos_free(fd, &jb);
	close(fd);
}

static int knob_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? -err : -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long long knob_value(const char *path)
{
	char buf[32];

	return knob_read(path, buf, sizeof(buf)) ? -1 : atoll(buf);
}

#define MAX_STALLS	64

/* fdif_delay's log of stalls ("start end" in ns a line); how many, or -1 */
static int read_stalls(uint64_t start[MAX_STALLS], uint64_t end[MAX_STALLS])
{
	FILE *f = fopen(DELAY_PARAMS "stalls", "r");
	unsigned long long s0, e0;
	int n = 0;

	if (!f)
		return -1;
	while (n < MAX_STALLS && fscanf(f, "%llu %llu", &s0, &e0) == 2) {
		start[n] = s0;
		end[n++] = e0;
	}
	fclose(f);
	return n;
}

/*
 * The same race (issue 11, 1), held open. The test module fdif_delay
 * stalls the timeout handler's entry, after drm_sched_job_timedout() has
 * taken job A off the pending list, for longer than a job takes: A's
 * interrupt comes meanwhile, its fence signals and the scheduler starts
 * job B. Without the stall that window is a few microseconds, which
 * timeout_at_completion does not hit. The handler must leave the job on
 * the hardware alone: a drm_sched_stop()/drm_sched_start() there cancels
 * it (-ECANCELED) while it runs, and its interrupt then writes into the
 * freed job. A job (60 ms) outlasts its timer (40 ms) but not the stall
 * (100 ms), so a fixed handler always finds its job ended, while six
 * jobs a round keep one on the hardware when the stall ends. The module's
 * log of stalls and the fences' timestamps show that the window was hit:
 * a job signalled during a stall and the next one ended after it.
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
	/* by design every round; TCG's timing may spoil some, not most */
	ASSERT_GE(raced, ROUNDS / 2);
	ASSERT_EQ(0, system("rmmod fdif_delay"));
	for (i = 0; i < JOBS; i++)
		fdif_bo_free(fd, &res[i]);
	fdif_job_bos_free(fd, &jb);
	close(fd);
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
	enum { TIMEOUT_MS = 100, JOB_MS = 800, FRESH = 16 };
	uint32_t area = face_roi.width * face_roi.height;
	struct fdif_bo fresh[FRESH];
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	long long bos0;
	int fd, i, corrupted = 0;
	size_t k, work_size;

	ASSERT_EQ(0, reload_driver(TIMEOUT_MS));
	bos0 = stat_value("bos");
	fd = fdif_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	work_size = j.work.size;
	ASSERT_GT(area, 0);
	ASSERT_EQ(0, fdif_emu_frame_time((uint64_t)JOB_MS * 1000 * FDIF_PIC_SIZE / area));
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_STUCK_RESET, 1));

	fdif_job_init(&job, &j);
	job.roi = face_roi;
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	ASSERT_EQ(-ETIMEDOUT, fence_wait(job.fence_fd, WAIT_NS));
	close(job.fence_fd);
	/* the timeout's reset did not complete: the module runs on */
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_NONE, 0));

	fdif_bo_free(fd, &j.work);
	for (i = 0; i < FRESH; i++) {
		ASSERT_EQ(0, fdif_bo_new(fd, work_size, &fresh[i]));
		memset(fresh[i].map, 0x5a, work_size);
	}
	/* the module ends the job and writes the work area it was given */
	usleep(2 * JOB_MS * 1000);
	for (i = 0; i < FRESH; i++) {
		const unsigned char *p = fresh[i].map;

		for (k = 0; k < work_size && p[k] == 0x5a; k++)
			;
		if (k < work_size) {
			TH_LOG("new BO %d written by the module at byte %zu", i, k);
			corrupted++;
		}
	}
	EXPECT_EQ(0, corrupted);
	for (i = 0; i < FRESH; i++)
		fdif_bo_free(fd, &fresh[i]);

	/* a good job: its reset completes, and the kept BOs go */
	ASSERT_EQ(0, fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT));
	ASSERT_EQ(0, fdif_bo_new(fd, work_size, &j.work));
	fdif_job_init(&job, &j);
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd, &job));
	EXPECT_EQ(1, fence_wait(job.fence_fd, WAIT_NS));
	close(job.fence_fd);
	fdif_job_bos_free(fd, &j);
	close(fd);
	EXPECT_TRUE(bos_back_to(bos0, 5000))
		TH_LOG("live BOs: %lld, %lld before the test", stat_value("bos"), bos0);
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

/* sw_sync (drivers/dma-buf/sw_sync.c, CONFIG_SW_SYNC) has no uAPI header */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};

#define SW_SYNC_PATH		"/sys/kernel/debug/sync/sw_sync"
#define SW_SYNC_IOC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC		_IOW('W', 1, __u32)
/* A sw_sync timeline (an fd) and in *@fence a point 1 on it no one signals. */
static int sw_sync_point(struct __test_metadata *_metadata, int *fence)
{
	struct sw_sync_create_fence_data d = { .value = 1, .name = "fdif-test" };
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);

	ASSERT_GE(tl, 0) TH_LOG(SW_SYNC_PATH ": %s (the stress kernel has CONFIG_SW_SYNC)",
				strerror(errno));
	ASSERT_EQ(0, ioctl(tl, SW_SYNC_IOC_CREATE_FENCE, &d));
	*fence = d.fence;
	return tl;
}

static int sw_sync_signal(int tl)
{
	__u32 one = 1;

	return ioctl(tl, SW_SYNC_IOC_INC, &one) ? -errno : 0;
}

/* A new syncobj of @fd holding the sync_file @fence: its handle, or 0. */
static uint32_t syncobj_from_sync_file(int fd, int fence)
{
	struct drm_syncobj_handle h = {
		.fd = fence,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
	};

	if (fdif_syncobj_create(fd, 0, &h.handle) ||
	    fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h))
		return 0;
	return h.handle;
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
	int tl, fence, status, i;
	pid_t pid;

	/* the earlier tests' last jobs may still be being freed */
	for (i = 0; i < 500 && (idle = module_refs()) > 0; i++)
		usleep(10000);
	ASSERT_EQ(0, idle) TH_LOG("module references with nothing open: %lld", idle);
	tl = sw_sync_point(_metadata, &fence);
	pid = fork();
	ASSERT_GE(pid, 0);
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
		if (fdif_submit_one(cfd, &job))
			_exit(3);
		/* exit with the job queued: the file closes in exit() */
		_exit(0);
	}
	close(fence);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("child: status 0x%x", status);
	/* the file is gone, the job is parked on the sw_sync point */
	parked = module_refs();
	/* the job, and its hardware fence, each hold one */
	EXPECT_GE(parked, idle + 1) TH_LOG("module references: %lld idle, %lld with the job",
					   idle, parked);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));
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
 * A job's hardware fence outlives the job: the scheduler's fences keep it
 * as their parent, and a sync_file keeps those. With the file closed and
 * the job done and freed, the fence still holds the module (its ops are
 * the driver's) and the device (its lock is the device's): rmmod is
 * refused until the sync_file goes. Before, rmmod succeeded, and closing
 * the sync_file released the fence through the unloaded module's ops.
 */
TEST_F_TIMEOUT(plain, fence_outlives_file_and_module, 120)
{
	long long idle = -1, held = -1, refs = -1;
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
	/* the job is freed a little after its fence signalled; the fence stays */
	for (i = 0; i < 500 && (held = module_refs()) > 1; i++)
		usleep(10000);
	EXPECT_EQ(1, held) TH_LOG("module references with only the sync_file left: %lld", held);
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", DEV_NAME));
	ASSERT_TRUE(wait_node(0));
	EXPECT_NE(0, system("rmmod fdif 2>/dev/null")) TH_LOG("rmmod with a fence alive");
	ASSERT_EQ(0, access(FDIF_REFCNT, F_OK));
	close(job.fence_fd);
	for (i = 0; i < 500 && (refs = module_refs()) > 0; i++)
		usleep(10000);
	EXPECT_EQ(0, refs) TH_LOG("module references after the sync_file was closed");
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", DEV_NAME));
	ASSERT_TRUE(wait_node(1));
	good_job(_metadata);
}

/*
 * A job whose in-sync is a failed job's out-sync must not run (issue 25,
 * 4), even in the window where the scheduler has given back the failed
 * job's credit, so the next job may start, but has not yet set the error
 * of its finished fence. fdif_delay stalls drm_sched_fence_finished() to
 * hold that window open (in the interrupt of the failed job, on one CPU).
 * The waiting job's second in-sync, a sw_sync point, is signalled inside
 * it, so the scheduler looks at that job then. The waiting job is on the
 * same file (an in-sync from its own entity, which the scheduler drops as
 * a dependency) and on another file (which, pipelined, only waited for
 * the failed job to start). Both must end with -ECANCELED.
 */
/*
 * The interrupt of DEV_NAME's FDIF goes to CPU 0 only, and this process
 * runs on CPU 1 only (@on), or both back to any CPU (!@on): a stall in the
 * interrupt handler then does not hold this process's timers up.
 */
static int split_irq_and_test_cpus(bool on)
{
	char line[512], path[64];
	cpu_set_t set;
	int irq = -1;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, DEV_NAME) && sscanf(line, " %d:", &irq) == 1)
			break;
	fclose(f);
	if (irq < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity", irq);
	if (sysfs_write(path, on ? "1" : "3"))
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

/* --- allocation failures ------------------------------------------------ */

/*
 * The kernel's fault injection (Documentation/fault-injection): failslab
 * fails slab allocations, fail_page_alloc page allocations. Both are set
 * so that only this test's thread sees a failure: either its n-th fault
 * point from now fails (/proc/thread-self/fail-nth, written just before
 * the ioctl under test and read back just after: 0 means the failure was
 * injected), or each fault point fails with some probability while the
 * thread has make-it-fail set (task-filter), which it sets only around
 * the ioctls under test. Sleeping allocations are fault points too
 * (ignore-gfp-wait N), and nothing is printed (verbose 0: with the
 * default, every injected failure dumps a stack the harness would take
 * for a splat). The allocator not under test is kept out: fail_page_alloc
 * by a min-order above any order, failslab by cache-filter (no cache is
 * marked for it). "times" starts at INJ_TIMES, so what is left of it
 * counts the failures each one injected.
 *
 * Leaks on the failure paths are kmemleak's: the harness scans twice
 * after the suite and fails the run on any new suspected leak.
 */
#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc/"
#define DMA_API_OFF	"/sys/kernel/debug/dma-api/disabled"
#define INJ_TIMES	1000000
#define INJ_TIMES_STR	"1000000"
/* no ioctl here has this many fault points: a sweep that gets there is stuck */
#define NTH_MAX		4000
#define RANDOM_CALLS	300

enum inj_target { INJ_SLAB, INJ_PAGE };

/* Every knob the tests set, the probabilities last: restored in this order. */
static const char *const inj_knobs[] = {
	FAILSLAB "interval", FAILSLAB "times", FAILSLAB "space", FAILSLAB "verbose",
	FAILSLAB "task-filter", FAILSLAB "ignore-gfp-wait", FAILSLAB "cache-filter",
	FAILPAGE "interval", FAILPAGE "times", FAILPAGE "space", FAILPAGE "verbose",
	FAILPAGE "task-filter", FAILPAGE "ignore-gfp-wait", FAILPAGE "ignore-gfp-highmem",
	FAILPAGE "min-order",
	FAILSLAB "probability", FAILPAGE "probability",
};
#define INJ_KNOBS	(sizeof(inj_knobs) / sizeof(inj_knobs[0]))

/* DMA-API debugging (the debug kernel's) is on: dma-api/disabled reads N. */
static bool dma_api_on(void)
{
	char buf[8];

	return !knob_read(DMA_API_OFF, buf, sizeof(buf)) && buf[0] == 'N';
}

static int knobs_write(const char *const (*kv)[2], size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = sysfs_write(kv[i][0], kv[i][1]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Set the knobs for fault points in @t's allocator only, probability 0
 * (fail-nth only) until inj_probability().
 */
static int inj_setup(enum inj_target t)
{
	static const char *const common[][2] = {
		{ FAILSLAB "probability", "0" }, { FAILPAGE "probability", "0" },
		{ FAILSLAB "interval", "1" }, { FAILPAGE "interval", "1" },
		{ FAILSLAB "times", INJ_TIMES_STR }, { FAILPAGE "times", INJ_TIMES_STR },
		{ FAILSLAB "space", "0" }, { FAILPAGE "space", "0" },
		{ FAILSLAB "verbose", "0" }, { FAILPAGE "verbose", "0" },
		{ FAILSLAB "task-filter", "Y" }, { FAILPAGE "task-filter", "Y" },
	};
	static const char *const slab[][2] = {
		{ FAILSLAB "ignore-gfp-wait", "N" }, { FAILSLAB "cache-filter", "N" },
		{ FAILPAGE "ignore-gfp-wait", "Y" }, { FAILPAGE "ignore-gfp-highmem", "Y" },
		{ FAILPAGE "min-order", "32" },
	};
	static const char *const page[][2] = {
		{ FAILSLAB "ignore-gfp-wait", "Y" }, { FAILSLAB "cache-filter", "Y" },
		{ FAILPAGE "ignore-gfp-wait", "N" }, { FAILPAGE "ignore-gfp-highmem", "N" },
		{ FAILPAGE "min-order", "0" },
	};
	int ret = knobs_write(common, sizeof(common) / sizeof(common[0]));

	if (ret)
		return ret;
	return t == INJ_SLAB ? knobs_write(slab, sizeof(slab) / sizeof(slab[0])) :
			       knobs_write(page, sizeof(page) / sizeof(page[0]));
}

static const char *inj_dir(enum inj_target t)
{
	return t == INJ_SLAB ? FAILSLAB : FAILPAGE;
}

static int inj_probability(enum inj_target t, unsigned int percent)
{
	char path[96], v[16];

	snprintf(path, sizeof(path), "%sprobability", inj_dir(t));
	snprintf(v, sizeof(v), "%u", percent);
	return sysfs_write(path, v);
}

/* Failures @t injected since inj_setup(), from what is left of "times". */
static long long inj_injected(enum inj_target t)
{
	char path[96];
	long long left;

	snprintf(path, sizeof(path), "%stimes", inj_dir(t));
	left = knob_value(path);
	return left < 0 ? -1 : INJ_TIMES - left;
}

/*
 * A probability, in percent, at which about half the calls with @points
 * fault points get through: (1 - p)^points = 1/2.
 */
static unsigned int probability_for(unsigned int points)
{
	unsigned int p = points ? 69 / points : 50;

	return p < 1 ? 1 : p > 50 ? 50 : p;
}

/* The live BO count once it holds still (an earlier test's BOs may be on their way out). */
static long long settled_bos(void)
{
	long long a = stat_value("bos"), b;
	int i;

	for (i = 0; i < 40; i++) {
		usleep(50000);
		b = stat_value("bos");
		if (a == b)
			return a;
		a = b;
	}
	return a;
}

static int syncobj_reset(int fd, uint32_t handle)
{
	struct drm_syncobj_array a = {
		.handles = (uintptr_t)&handle,
		.count_handles = 1,
	};

	return fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &a);
}

/* One ioctl, as it returned: no retry on EINTR (none may come back). */
static int ioctl_once(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? -errno : 0;
}

/*
 * The fixture of the allocation failure tests: the stress fixture's file,
 * BOs and job, this thread's make-it-fail and fail-nth opened before
 * anything can fail (opening a file allocates), and the injection knobs
 * as they were, put back in the teardown whatever the test did. The setup
 * only reads the knobs: an ASSERT there skips the teardown.
 */
FIXTURE(alloc_fail) {
	int fd;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int make_it_fail, fail_nth;
	char saved[INJ_KNOBS][32];
	unsigned int nsaved;
	bool dma_api_on;	/* DMA-API debugging was on before the test */
};

FIXTURE_SETUP(alloc_fail)
{
	unsigned int i;

	self->fd = self->make_it_fail = self->fail_nth = -1;
	self->nsaved = 0;
	if (access(FAILSLAB "probability", W_OK) || access(FAILPAGE "probability", W_OK))
		SKIP(return, "no failslab or fail_page_alloc in debugfs: a kernel without "
		     "CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS "
		     "(accel-fdif/config/debug.config has them)");
	self->make_it_fail = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
	self->fail_nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->make_it_fail, 0);
	ASSERT_GE(self->fail_nth, 0);
	for (i = 0; i < INJ_KNOBS; i++) {
		ASSERT_EQ(0, knob_read(inj_knobs[i], self->saved[i], sizeof(self->saved[i])))
			TH_LOG("%s", inj_knobs[i]);
	}
	self->nsaved = INJ_KNOBS;
	self->dma_api_on = dma_api_on();
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	/* the counters read (stat_value) must be this file's device's */
	ASSERT_EQ(fdif_devname_minor(DEV_NAME), fdif_fd_minor(self->fd))
		TH_LOG("fdif_open() did not open %s", DEV_NAME);
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map));
	fdif_job_init(&self->job, &self->j);
	self->job.roi = face_roi;
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
}

FIXTURE_TEARDOWN(alloc_fail)
{
	char zero[2] = "0";
	unsigned int i;

	/* this thread first (through the open files: nothing here may fail) */
	if (self->make_it_fail >= 0) {
		(void)!pwrite(self->make_it_fail, zero, 1, 0);
		close(self->make_it_fail);
	}
	if (self->fail_nth >= 0) {
		(void)!pwrite(self->fail_nth, zero, 1, 0);
		close(self->fail_nth);
	}
	if (self->nsaved) {
		sysfs_write(FAILSLAB "probability", "0");
		sysfs_write(FAILPAGE "probability", "0");
	}
	for (i = 0; i < self->nsaved; i++)
		sysfs_write(inj_knobs[i], self->saved[i]);
	/*
	 * kernel/dma/debug.c turns itself off for good when an allocation of
	 * its own (cacheline tracking, GFP_ATOMIC, in this thread's
	 * dma_alloc) fails and the radix tree's per-CPU preload is empty:
	 * not the driver's doing, but later DMA-API checks are void.
	 */
	if (self->dma_api_on && !dma_api_on())
		TH_LOG("note: an injected failure turned DMA-API debugging off "
		       "(\"DMA-API: cacheline tracking ENOMEM\" in dmesg): DMA-API checks "
		       "after this test are void");
	if (self->fd >= 0) {
		fdif_job_bos_free(self->fd, &self->j);
		close(self->fd);
	}
}

/* How one call is put under injection. */
struct inj {
	unsigned int nth;	/* fail its nth fault point; 0: make-it-fail */
	bool fired;		/* (nth) the nth fault point was reached and failed */
};

/*
 * What these write is on the stack, present and written: the kernel's
 * copy from it cannot fault, and so cannot allocate (and fail) itself.
 */
static int inj_begin(FIXTURE_DATA(alloc_fail) *self, struct inj *in)
{
	char num[16] = "1";
	int len = 1;

	in->fired = false;
	if (!in->nth)
		return pwrite(self->make_it_fail, num, len, 0) == len ? 0 : -errno;
	len = snprintf(num, sizeof(num), "%u", in->nth);
	return pwrite(self->fail_nth, num, len, 0) == len ? 0 : -errno;
}

/* Injection off for this thread again; with fail-nth, whether it fired. */
static int inj_end(FIXTURE_DATA(alloc_fail) *self, struct inj *in)
{
	char num[16] = "0", zero[2] = "0";
	ssize_t n;

	if (!in->nth)
		return pwrite(self->make_it_fail, num, 1, 0) == 1 ? 0 : -errno;
	n = pread(self->fail_nth, num, sizeof(num) - 1, 0);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	num[n] = '\0';
	in->fired = strtoul(num, NULL, 10) == 0;
	/* not reached: the rest must not fire later, in some other call */
	if (!in->fired && pwrite(self->fail_nth, zero, 1, 0) != 1)
		return -errno;
	return 0;
}

/* What came back from the calls under injection. */
struct tally {
	int calls, ok, enomem, enospc;
	int fired;	/* fail-nth failures injected */
	int survived;	/* of them, in calls that still succeeded */
	int drift;	/* calls after which the live BO count was off */
	unsigned int drift_nth[8];
	int drift_ret[8];
};

/*
 * One BO create of @size bytes under @in; when it worked, its mmap offset
 * (under make-it-fail too, in the same window), a mapping that must read
 * as zeroes, and its GEM close (under make-it-fail again). The create
 * returns 0, -ENOMEM, or -ENOSPC: drm_gem_dma_create() gives every DMA BO
 * a shmem file (drm_gem_object_init), and mm/shmem.c reports a failed
 * inode allocation as -ENOSPC. The offset exists from the create (no
 * allocation: 0), the close allocates nothing (0). After the call the live
 * BO count is *@bos (a change is tallied and becomes the new *@bos).
 */
static void bo_attempt(struct __test_metadata *_metadata, FIXTURE_DATA(alloc_fail) *self,
		       size_t size, struct inj *in, long long *bos, struct tally *t)
{
	struct drm_fdif_bo_create c = { .size = size };
	struct drm_fdif_bo_mmap_offset m = { 0 };
	struct drm_gem_close cl = { 0 };
	struct inj again = { 0 };
	unsigned char *map;
	int ret, ret2 = 0;
	long long now;
	size_t i;

	ASSERT_EQ(0, inj_begin(self, in));
	ret = ioctl_once(self->fd, DRM_IOCTL_FDIF_BO_CREATE, &c);
	if (!ret && !in->nth) {
		m.handle = c.handle;
		ret2 = ioctl_once(self->fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m);
	}
	ASSERT_EQ(0, inj_end(self, in));
	t->calls++;
	t->fired += in->fired;
	ASSERT_TRUE(ret == 0 || ret == -ENOMEM || ret == -ENOSPC)
		TH_LOG("BO create of %zu bytes (fail-nth %u) returned %d", size, in->nth, ret);
	if (in->nth && !in->fired) {
		ASSERT_EQ(0, ret) TH_LOG("BO create of %zu bytes failed with nothing injected", size);
	}
	if (ret == -ENOMEM)
		t->enomem++;
	else if (ret == -ENOSPC)
		t->enospc++;
	if (!ret) {
		t->ok++;
		t->survived += in->fired;
		ASSERT_NE(0, c.handle);
		if (in->nth) {
			m.handle = c.handle;
			ret2 = ioctl_once(self->fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m);
		}
		ASSERT_EQ(0, ret2) TH_LOG("mmap offset of a new BO (fail-nth %u)", in->nth);
		map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, m.offset);
		ASSERT_NE(MAP_FAILED, map);
		for (i = 0; i < size && !map[i]; i++)
			;
		EXPECT_EQ(size, i) TH_LOG("a new %zu-byte BO holds 0x%02x at %zu", size,
					  map[i], i);
		munmap(map, size);
		cl.handle = c.handle;
		if (!in->nth) {
			ASSERT_EQ(0, inj_begin(self, &again));
		}
		ret2 = ioctl_once(self->fd, DRM_IOCTL_GEM_CLOSE, &cl);
		if (!in->nth) {
			ASSERT_EQ(0, inj_end(self, &again));
		}
		ASSERT_EQ(0, ret2) TH_LOG("GEM close");
	}
	now = stat_value("bos");
	ASSERT_GE(now, 0);
	if (now != *bos) {
		if (t->drift < 8) {
			t->drift_nth[t->drift] = in->nth;
			t->drift_ret[t->drift] = ret;
		}
		t->drift++;
		*bos = now;
	}
}

/* The fail-nth values after which the live BO count changed, for a log. */
static const char *drift_list(const struct tally *t, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->drift && i < 8 && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u (%d)", i ? ", " : "",
				t->drift_nth[i], t->drift_ret[i]);
	return buf;
}

/*
 * Injection off: a job on the fixture's file finds the face, and one on a
 * new file too. Return: the first job's seqno.
 */
static uint64_t device_works(struct __test_metadata *_metadata, FIXTURE_DATA(alloc_fail) *self)
{
	struct drm_fdif_job job = self->job;
	struct drm_fdif_result_header *r = fdif_result(&self->j.result);
	char why[160];

	memset(self->j.result.map, 0xa5, self->j.result.size);
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(1, fence_wait(job.fence_fd, WAIT_NS));
	close(job.fence_fd);
	EXPECT_EQ(job.seqno, r->seqno);
	EXPECT_EQ(1, r->count);
	EXPECT_EQ(0, fdif_result_check(r, &face_truth, 1, why, sizeof(why))) TH_LOG("%s", why);
	good_job(_metadata);
	return job.seqno;
}

/*
 * Fail each fault point of @call in turn (fail-nth 1, 2, ...) until a call
 * is over before its nth: then @n - 1 is how many it had.
 */
#define SWEEP(n, call)							\
	for (n = 1; n <= NTH_MAX; n++) {				\
		struct inj in = { .nth = n };				\
									\
		call;							\
		if (!in.fired)						\
			break;						\
	}

/*
 * failslab on DRM_IOCTL_FDIF_BO_CREATE: every slab allocation of a create
 * (a one-page BO and a picture-sized one) failed in turn with fail-nth,
 * then 300 creates (with mmap offset and GEM close) with make-it-fail at a
 * probability that fails about half of them. Each create returns 0,
 * -ENOMEM or -ENOSPC and leaves nothing behind; a failure must have been
 * injected and reached userspace; afterwards the live BO count is what it
 * was and the device finds the face.
 */
TEST_F_TIMEOUT(alloc_fail, failslab_bo_create, 600)
{
	static const size_t sizes[] = { 4096, FDIF_PIC_SIZE, 3 * 4096 };
	struct tally sweep = { 0 }, rnd = { 0 };
	long long bos0, bos, injected;
	unsigned int points[2], pct, n, i;
	char list[160];

	bos0 = settled_bos();
	ASSERT_GE(bos0, 0) TH_LOG("no driver stats in debugfs");
	bos = bos0;
	ASSERT_EQ(0, inj_setup(INJ_SLAB));

	for (i = 0; i < 2; i++) {
		SWEEP(n, bo_attempt(_metadata, self, sizes[i], &in, &bos, &sweep));
		ASSERT_LE(n, NTH_MAX) TH_LOG("a %zu-byte create never got through", sizes[i]);
		points[i] = n - 1;
		ASSERT_GT(points[i], 0)
			TH_LOG("a %zu-byte BO create made no slab allocation failslab could fail: "
			       "the injection does not work", sizes[i]);
	}
	EXPECT_GT(sweep.enomem + sweep.enospc, 0) TH_LOG("no injected failure reached userspace");
	EXPECT_EQ(sweep.fired, inj_injected(INJ_SLAB))
		TH_LOG("fail-nth fired %d times, failslab counts %lld", sweep.fired,
		       inj_injected(INJ_SLAB));
	EXPECT_EQ(0, sweep.drift)
		TH_LOG("the live BO count changed after %d of %d creates, at fail-nth (returned) %s",
		       sweep.drift, sweep.calls, drift_list(&sweep, list, sizeof(list)));

	pct = probability_for(points[0]);
	injected = inj_injected(INJ_SLAB);
	ASSERT_EQ(0, inj_probability(INJ_SLAB, pct));
	for (n = 0; n < RANDOM_CALLS; n++) {
		struct inj in = { 0 };

		bo_attempt(_metadata, self, sizes[n % 3], &in, &bos, &rnd);
	}
	ASSERT_EQ(0, inj_probability(INJ_SLAB, 0));
	injected = inj_injected(INJ_SLAB) - injected;
	EXPECT_GT(injected, 0);
	EXPECT_GT(rnd.enomem + rnd.enospc, 0) TH_LOG("no create failed at %u%%", pct);
	EXPECT_GT(rnd.ok, 0) TH_LOG("no create got through at %u%%", pct);
	EXPECT_EQ(0, rnd.drift)
		TH_LOG("the live BO count changed after %d of %d creates", rnd.drift, rnd.calls);

	EXPECT_TRUE(bos_back_to(bos0, 5000))
		TH_LOG("live BOs %lld, were %lld", stat_value("bos"), bos0);
	device_works(_metadata, self);
	TH_LOG("failslab, BO create: %u fault points in a 4 KiB create, %u in a %d-byte one, "
	       "each failed in turn: %d ENOMEM, %d ENOSPC, %d survived; %d creates at %u%%: "
	       "%d ok, %d ENOMEM, %d ENOSPC, %lld failures injected; live BOs back to %lld",
	       points[0], points[1], FDIF_PIC_SIZE, sweep.enomem, sweep.enospc, sweep.survived,
	       RANDOM_CALLS, pct, rnd.ok, rnd.enomem, rnd.enospc, injected, bos0);
}

/* The submissions of failslab_submit and what they must have left. */
struct submit_run {
	struct fdif_bo res[4];
	struct drm_fdif_sync out[4];
	uint32_t bin, tl;	/* out-syncs: job 0's binary, the others' timeline */
	uint64_t point;		/* the timeline's last point */
	uint64_t seqno;		/* the file's last seqno */
	long long submitted;	/* the device's submitted counter */
	int fds;		/* fds open between submissions */
};

/*
 * One submission of @count jobs on the astronaut (a result BO each, a
 * fence fd each, job 0 signalling a binary syncobj, the others timeline
 * points) under @in. It returns 0 or -ENOMEM: no signal ever reaches this
 * process, so -EINTR (from the interruptible reservation locks) cannot.
 * A failed one leaves no fd open (those it wrote back are closed), no
 * out-sync signalled, its result BOs idle and untouched, the submitted
 * counter and the file's seqno where they were. A successful one's jobs
 * take the next seqnos, and each finds the face, signalling its fence and
 * out-sync.
 */
static void submit_attempt(struct __test_metadata *_metadata, FIXTURE_DATA(alloc_fail) *self,
			   struct submit_run *run, uint32_t count, struct inj *in,
			   struct tally *t)
{
	struct drm_fdif_job jobs[4];
	struct drm_fdif_submit s = {
		.jobs = (uintptr_t)jobs,
		.job_count = count,
		.job_size = sizeof(jobs[0]),
	};
	char why[160];
	uint32_t i;
	int ret;

	for (i = 0; i < count; i++) {
		memset(run->res[i].map, 0xa5, run->res[i].size);
		jobs[i] = self->job;
		jobs[i].result_handle = run->res[i].handle;
		jobs[i].fence_fd = -1;
		run->out[i] = (struct drm_fdif_sync){
			.handle = i ? run->tl : run->bin,
			.point = i ? run->point + i : 0,
		};
		jobs[i].out_sync_count = 1;
		jobs[i].out_syncs = (uintptr_t)&run->out[i];
	}
	ASSERT_EQ(0, syncobj_reset(self->fd, run->bin));

	ASSERT_EQ(0, inj_begin(self, in));
	ret = ioctl_once(self->fd, DRM_IOCTL_FDIF_SUBMIT, &s);
	ASSERT_EQ(0, inj_end(self, in));
	t->calls++;
	t->fired += in->fired;
	ASSERT_TRUE(ret == 0 || ret == -ENOMEM)
		TH_LOG("submit of %u (fail-nth %u) returned %d", count, in->nth, ret);
	if (in->nth && !in->fired) {
		ASSERT_EQ(0, ret) TH_LOG("submit of %u failed with nothing injected", count);
	}

	if (ret) {
		t->enomem++;
		ASSERT_EQ(run->fds, fdif_count_fds())
			TH_LOG("a failed submit of %u (fail-nth %u) left an fd open", count, in->nth);
		for (i = 0; i < count; i++) {
			if (jobs[i].fence_fd >= 0) {
				ASSERT_EQ(-1, fcntl(jobs[i].fence_fd, F_GETFD))
					TH_LOG("job %u's fence fd %d is open after the submit failed",
					       i, jobs[i].fence_fd);
			}
		}
		ASSERT_EQ(-ETIME, fdif_syncobj_wait(self->fd, run->bin, 0, 0))
			TH_LOG("a failed submit (fail-nth %u) signalled its out-sync", in->nth);
		if (count > 1) {
			ASSERT_EQ(-ETIME, fdif_syncobj_wait(self->fd, run->tl, run->point + 1, 0))
				TH_LOG("a failed submit (fail-nth %u) added a timeline point", in->nth);
		}
		for (i = 0; i < count; i++) {
			ASSERT_EQ(0, fdif_bo_wait(self->fd, run->res[i].handle, 0))
				TH_LOG("a failed submit (fail-nth %u) left job %u's result busy",
				       in->nth, i);
			ASSERT_EQ(0xa5a5a5a5u, *(uint32_t *)run->res[i].map);
		}
		ASSERT_EQ(run->submitted, stat_value("submitted"))
			TH_LOG("a failed submit (fail-nth %u) queued jobs", in->nth);
		return;
	}

	t->ok++;
	t->survived += in->fired;
	ASSERT_EQ(run->seqno + 1, jobs[0].seqno)
		TH_LOG("the file's seqno moved: a failed submit took seqnos");
	ASSERT_EQ(run->fds + (int)count, fdif_count_fds());
	for (i = 0; i < count; i++) {
		struct drm_fdif_result_header *r = run->res[i].map;

		ASSERT_EQ(jobs[0].seqno + i, jobs[i].seqno);
		ASSERT_GE(jobs[i].fence_fd, 0);
		ASSERT_EQ(1, fence_wait(jobs[i].fence_fd, WAIT_NS))
			TH_LOG("job %u of %u (fail-nth %u)", i, count, in->nth);
		close(jobs[i].fence_fd);
		ASSERT_EQ(jobs[i].seqno, r->seqno);
		ASSERT_EQ(1, r->count);
		ASSERT_EQ(0, fdif_result_check(r, &face_truth, 1, why, sizeof(why)))
			TH_LOG("job %u of %u (fail-nth %u): %s", i, count, in->nth, why);
	}
	ASSERT_EQ(0, fdif_syncobj_wait(self->fd, run->bin, 0, WAIT_NS));
	if (count > 1) {
		ASSERT_EQ(0, fdif_syncobj_wait(self->fd, run->tl, run->point + count - 1, WAIT_NS));
	}
	run->seqno = jobs[count - 1].seqno;
	run->point += count - 1;
	run->submitted += count;
	ASSERT_EQ(run->submitted, stat_value("submitted"));
	ASSERT_EQ(run->fds, fdif_count_fds());
}

/*
 * failslab on DRM_IOCTL_FDIF_SUBMIT: every slab allocation of a single job
 * and of a batch of 4 (fence fds, out-syncs) failed in turn with fail-nth,
 * then 300 submits, single and batches alternating, with make-it-fail at
 * probabilities that fail about half of each. Every submit is checked as
 * submit_attempt() says; failures must have been injected and reached
 * userspace; afterwards every job is accounted for, the BOs and fds are
 * back and the device finds the face.
 */
TEST_F_TIMEOUT(alloc_fail, failslab_submit, 900)
{
	static const uint32_t counts[2] = { 1, 4 };
	struct submit_run run = { 0 };
	struct tally sweep[2] = { { 0 } }, rnd = { 0 };
	unsigned int points[2], pct[2], n, i;
	long long bos0, injected;

	ASSERT_GE(self->j.caps.dev.max_jobs, 4);
	ASSERT_GE(self->j.caps.dev.max_syncs, 1);
	bos0 = settled_bos();
	ASSERT_GE(bos0, 0) TH_LOG("no driver stats in debugfs");
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &run.res[i]));
	}
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &run.bin));
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &run.tl));
	run.submitted = stat_value("submitted");
	ASSERT_GE(run.submitted, 0);
	run.fds = fdif_count_fds();
	ASSERT_GT(run.fds, 0);
	ASSERT_EQ(0, inj_setup(INJ_SLAB));

	for (i = 0; i < 2; i++) {
		SWEEP(n, submit_attempt(_metadata, self, &run, counts[i], &in, &sweep[i]));
		ASSERT_LE(n, NTH_MAX) TH_LOG("a submit of %u never got through", counts[i]);
		points[i] = n - 1;
		ASSERT_GT(sweep[i].enomem, 0)
			TH_LOG("no injected failure in a submit of %u reached userspace", counts[i]);
		pct[i] = probability_for(points[i]);
	}
	EXPECT_EQ(sweep[0].fired + sweep[1].fired, inj_injected(INJ_SLAB))
		TH_LOG("fail-nth fired %d times, failslab counts %lld",
		       sweep[0].fired + sweep[1].fired, inj_injected(INJ_SLAB));

	injected = inj_injected(INJ_SLAB);
	for (n = 0; n < RANDOM_CALLS; n++) {
		struct inj in = { 0 };

		ASSERT_EQ(0, inj_probability(INJ_SLAB, pct[n % 2]));
		submit_attempt(_metadata, self, &run, counts[n % 2], &in, &rnd);
	}
	ASSERT_EQ(0, inj_probability(INJ_SLAB, 0));
	injected = inj_injected(INJ_SLAB) - injected;
	EXPECT_GT(injected, 0);
	EXPECT_GT(rnd.enomem, 0) TH_LOG("no submit failed at %u%%/%u%%", pct[0], pct[1]);
	EXPECT_GT(rnd.ok, 0) TH_LOG("no submit got through at %u%%/%u%%", pct[0], pct[1]);

	ASSERT_TRUE(all_accounted(10000));
	EXPECT_EQ(run.seqno + 1, device_works(_metadata, self));
	fdif_syncobj_destroy(self->fd, run.bin);
	fdif_syncobj_destroy(self->fd, run.tl);
	for (i = 0; i < 4; i++)
		fdif_bo_free(self->fd, &run.res[i]);
	EXPECT_EQ(run.fds, fdif_count_fds());
	ASSERT_TRUE(bos_back_to(bos0, 5000))
		TH_LOG("live BOs %lld, were %lld", stat_value("bos"), bos0);
	TH_LOG("failslab, submit: %u fault points in a single job, %u in a batch of 4, each "
	       "failed in turn: %d + %d ENOMEM, %d + %d survived; %d submits at %u%%/%u%%: "
	       "%d ok, %d ENOMEM, %lld failures injected; %llu jobs ran, all found the face",
	       points[0], points[1], sweep[0].enomem, sweep[1].enomem, sweep[0].survived,
	       sweep[1].survived, RANDOM_CALLS, pct[0], pct[1], rnd.ok, rnd.enomem, injected,
	       (unsigned long long)run.seqno);
}

/*
 * Whether fail_page_alloc fails this thread's page allocations at all: the
 * first write into a new pipe allocates its page (fs/pipe.c, pipe_write:
 * alloc_page(GFP_HIGHUSER), -ENOMEM if that fails), its first page
 * allocation. Return: 1 if it failed so, 0 if not, or a negative errno.
 */
static int page_hook_works(FIXTURE_DATA(alloc_fail) *self)
{
	struct inj in = { .nth = 1 };
	ssize_t w = 0;
	int p[2], ret, err = 0;

	if (pipe(p))
		return -errno;
	ret = inj_begin(self, &in);
	if (!ret) {
		w = write(p[1], "x", 1);
		err = errno;
		ret = inj_end(self, &in);
	}
	close(p[0]);
	close(p[1]);
	if (ret)
		return ret;
	return in.fired && w == -1 && err == ENOMEM;
}

/*
 * fail_page_alloc on DRM_IOCTL_FDIF_BO_CREATE: every page allocation of a
 * create failed in turn with fail-nth, from order 0 (a one-page BO's memory
 * comes from alloc_pages(): dma_alloc_contiguous() leaves one page to the
 * page allocator; a bigger BO may come from CMA, page allocator or not),
 * then 300 creates with make-it-fail. The same as failslab_bo_create must
 * hold. A one-page create with no page allocation at all is a skip only
 * when the hook is shown to work in this thread (a pipe's page fails):
 * then the BO memory provably comes from elsewhere.
 */
TEST_F_TIMEOUT(alloc_fail, fail_page_alloc_bo_create, 600)
{
	static const size_t sizes[] = { 4096, FDIF_PIC_SIZE, 2 * 4096 };
	struct tally sweep[2] = { { 0 } }, rnd = { 0 };
	long long bos0, bos, injected;
	unsigned int points[2], pct, n, i;
	char list[160];
	int hook;

	bos0 = settled_bos();
	ASSERT_GE(bos0, 0) TH_LOG("no driver stats in debugfs");
	bos = bos0;
	ASSERT_EQ(0, inj_setup(INJ_PAGE));
	hook = page_hook_works(self);
	ASSERT_GE(hook, 0);

	for (i = 0; i < 2; i++) {
		SWEEP(n, bo_attempt(_metadata, self, sizes[i], &in, &bos, &sweep[i]));
		ASSERT_LE(n, NTH_MAX) TH_LOG("a %zu-byte create never got through", sizes[i]);
		points[i] = n - 1;
		EXPECT_EQ(0, sweep[i].drift)
			TH_LOG("the live BO count changed after %d of %d %zu-byte creates, at "
			       "fail-nth (returned) %s", sweep[i].drift, sweep[i].calls, sizes[i],
			       drift_list(&sweep[i], list, sizeof(list)));
	}
	if (!points[0]) {
		ASSERT_EQ(1, hook)
			TH_LOG("fail_page_alloc failed neither a pipe's page nor any page of a "
			       "BO create: the injection does not work");
		SKIP(return, "a one-page BO create made no page allocation, while a pipe's "
		     "page allocation did fail: the BO memory does not come from alloc_pages()");
	}
	EXPECT_GT(sweep[0].enomem + sweep[0].enospc, 0)
		TH_LOG("%u page allocations in a one-page create failed in turn, none failed "
		       "the create", points[0]);
	EXPECT_EQ(hook + sweep[0].fired + sweep[1].fired, inj_injected(INJ_PAGE))
		TH_LOG("fail-nth fired %d times, fail_page_alloc counts %lld",
		       hook + sweep[0].fired + sweep[1].fired, inj_injected(INJ_PAGE));

	pct = probability_for(points[0]);
	injected = inj_injected(INJ_PAGE);
	ASSERT_EQ(0, inj_probability(INJ_PAGE, pct));
	for (n = 0; n < RANDOM_CALLS; n++) {
		struct inj in = { 0 };

		bo_attempt(_metadata, self, sizes[n % 3], &in, &bos, &rnd);
	}
	ASSERT_EQ(0, inj_probability(INJ_PAGE, 0));
	injected = inj_injected(INJ_PAGE) - injected;
	EXPECT_GT(injected, 0);
	EXPECT_GT(rnd.enomem + rnd.enospc, 0) TH_LOG("no create failed at %u%%", pct);
	EXPECT_GT(rnd.ok, 0) TH_LOG("no create got through at %u%%", pct);
	EXPECT_EQ(0, rnd.drift)
		TH_LOG("the live BO count changed after %d of %d creates", rnd.drift, rnd.calls);

	EXPECT_TRUE(bos_back_to(bos0, 5000))
		TH_LOG("live BOs %lld, were %lld", stat_value("bos"), bos0);
	device_works(_metadata, self);
	TH_LOG("fail_page_alloc, BO create: a pipe's page %s; %u page allocations in a 4 KiB "
	       "create (%d ENOMEM, %d ENOSPC, %d survived), %u in a %d-byte one (%d ENOMEM, "
	       "%d ENOSPC, %d survived); %d creates at %u%%: %d ok, %d ENOMEM, %d ENOSPC, "
	       "%lld failures injected; live BOs back to %lld",
	       hook ? "failed" : "did not fail", points[0], sweep[0].enomem, sweep[0].enospc,
	       sweep[0].survived, points[1], FDIF_PIC_SIZE, sweep[1].enomem, sweep[1].enospc,
	       sweep[1].survived, RANDOM_CALLS, pct, rnd.ok, rnd.enomem, rnd.enospc, injected,
	       bos0);
}

int main(int argc, char **argv)
{
	/* without the marked face every check against it fails */
	if (fdif_load_truth("astronaut", &face_truth, 1) == 1)
		face_roi = fdif_roi_around(&face_truth);
	return test_harness_run(argc, argv);
}
