// SPDX-License-Identifier: MIT
/*
 * IGT-style reliability tests: kernel allocations failed on purpose
 * (failslab, fail_page_alloc) in BO creates and submits, each fault point
 * in turn and at random: every call fails cleanly or works, and nothing
 * is left behind.
 *
 * Run on the debug kernel (KASAN, lockdep, kmemleak, DMA-API debug) by
 * scripts/test.sh's stress stage, whose harness also fails on any splat
 * (guest/run-guest.sh --debug-kernel --suite stress); docs/reliability.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_stress.h"

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

FDIF_STRESS_MAIN
