// SPDX-License-Identifier: MIT
/* IGT-style test: DRM_IOCTL_FDIF_SUBMIT, invalid and valid. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#define WAIT_NS		20000000000ll	/* 20 s: TCG is slow, the test is not */


FIXTURE(job) {
	int fd;
	struct fdif_job_bos j;
	struct drm_fdif_submit s;
};

FIXTURE_SETUP(job)
{
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map));
	fdif_submit_init(&self->s, &self->j);
}

FIXTURE_TEARDOWN(job)
{
	if (self->fd < 0)
		return;
	fdif_job_bos_free(self->fd, &self->j);
	close(self->fd);
}

static struct drm_fdif_result *result_of(struct fdif_job_bos *j)
{
	return j->result.map;
}

static int wait_result(int fd, struct fdif_job_bos *j)
{
	return fdif_bo_wait(fd, j->result.handle, WAIT_NS);
}

/* The astronaut's one face, on the box a person marked (astronaut.truth). */
static bool astronaut_ok(const struct drm_fdif_result *r, char *why, size_t len)
{
	struct fdif_box t;

	if (fdif_load_truth("astronaut", &t, 1) != 1) {
		snprintf(why, len, "no /data/astronaut.truth");
		return false;
	}
	if (r->count != 1) {
		snprintf(why, len, "status %d, %u faces, want 1", r->status, r->count);
		return false;
	}
	return !fdif_result_check(r, &t, 1, why, len);
}

static void check_astronaut(struct __test_metadata *_metadata,
			    const struct drm_fdif_result *r)
{
	char why[160] = "";

	ASSERT_TRUE(astronaut_ok(r, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_TRUE(r->objects[0].angle <= 30 || r->objects[0].angle >= 330);
}

/* --- invalid arguments ------------------------------------------------ */

#define EXPECT_SUBMIT(err, field, value) do {				\
		struct drm_fdif_submit s = self->s;			\
		s.field = value;					\
		EXPECT_EQ(err, fdif_submit(self->fd, &s))		\
			TH_LOG(#field " = " #value);			\
	} while (0)

TEST_F(job, invalid_flags)
{
	EXPECT_SUBMIT(-EINVAL, flags, 2);
	EXPECT_SUBMIT(-EINVAL, flags, 0x80000000u);
}

TEST_F(job, invalid_format)
{
	EXPECT_SUBMIT(-EINVAL, format, 1);
	EXPECT_SUBMIT(-EINVAL, width, 640);
	EXPECT_SUBMIT(-EINVAL, height, 120);
	EXPECT_SUBMIT(-EINVAL, stride, 336);
	EXPECT_SUBMIT(-EINVAL, object_class, 1);
	EXPECT_SUBMIT(-EINVAL, direction, 3);
	EXPECT_SUBMIT(-EINVAL, min_size, 24);
	EXPECT_SUBMIT(-EINVAL, min_size, 0);
	EXPECT_SUBMIT(-EINVAL, lhit, 10);
}

TEST_F(job, invalid_roi)
{
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 161, 0, 20, 20 }));
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 121, 20, 20 }));
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 0, 19, 100 }));
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 160, 0, 161, 20 }));
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 0, 0xffffffffu, 20 }));
	EXPECT_SUBMIT(-EINVAL, roi, ((struct drm_fdif_roi){ 10, 10, 0, 0 }));
}

TEST_F(job, invalid_handles)
{
	EXPECT_SUBMIT(-ENOENT, picture_handle, 0);
	EXPECT_SUBMIT(-ENOENT, picture_handle, 9999);
	EXPECT_SUBMIT(-ENOENT, work_handle, 9999);
	EXPECT_SUBMIT(-ENOENT, result_handle, 9999);
}

TEST_F(job, invalid_offsets)
{
	struct fdif_bo small;

	/* the picture must fit, at an aligned offset */
	EXPECT_SUBMIT(-EINVAL, picture_offset, 4096);	/* BO: 19 pages */
	EXPECT_SUBMIT(-EINVAL, picture_offset, 1);
	EXPECT_SUBMIT(-EINVAL, picture_offset, 0xffffffe0u);
	EXPECT_SUBMIT(-EINVAL, work_offset, 1);
	EXPECT_SUBMIT(-EINVAL, work_offset, 4096);
	EXPECT_SUBMIT(-EINVAL, result_offset, 4);
	EXPECT_SUBMIT(-EINVAL, result_offset, 4096);
	/* BOs too small for their role */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &small));
	EXPECT_SUBMIT(-EINVAL, picture_handle, small.handle);
	EXPECT_SUBMIT(-EINVAL, work_handle, small.handle);
	fdif_bo_free(self->fd, &small);
}

TEST_F(job, invalid_syncs)
{
	struct drm_fdif_sync sync = { .handle = 4242 };
	struct drm_fdif_submit s = self->s;
	uint32_t obj;

	s.in_sync_count = 1;
	s.in_syncs = (uintptr_t)&sync;
	EXPECT_EQ(-ENOENT, fdif_submit(self->fd, &s));
	s = self->s;
	s.out_sync_count = 1;
	s.out_syncs = (uintptr_t)&sync;
	EXPECT_EQ(-ENOENT, fdif_submit(self->fd, &s));

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &obj));
	sync.handle = obj;
	sync.flags = 1;
	s = self->s;
	s.in_sync_count = 1;
	s.in_syncs = (uintptr_t)&sync;
	EXPECT_EQ(-EINVAL, fdif_submit(self->fd, &s));
	s.in_sync_count = 65;
	EXPECT_EQ(-EINVAL, fdif_submit(self->fd, &s));
	fdif_syncobj_destroy(self->fd, obj);
}

TEST_F(job, invalid_user_pointers)
{
	struct drm_fdif_submit s = self->s;

	s.in_sync_count = 1;
	s.in_syncs = 8;
	EXPECT_EQ(-EFAULT, fdif_submit(self->fd, &s));
	s = self->s;
	s.out_sync_count = 2;
	s.out_syncs = (uintptr_t)-4096;
	EXPECT_EQ(-EFAULT, fdif_submit(self->fd, &s));
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, (void *)16));
	/* nothing was queued by any of these */
	EXPECT_EQ(0, fdif_bo_wait(self->fd, self->j.result.handle, 0));
}

/* --- valid jobs ------------------------------------------------------- */

TEST_F(job, single_photo)
{
	struct drm_fdif_result *r = result_of(&self->j);

	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
	EXPECT_EQ(1, self->s.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(1, r->seqno);
	check_astronaut(_metadata, r);
	TH_LOG("face at %u,%u size %u angle %u confidence %u",
	       r->objects[0].center_x, r->objects[0].center_y, r->objects[0].size,
	       r->objects[0].angle, r->objects[0].confidence);
}

/*
 * Many faces through the driver: the LFW mosaics (15 faces of 48 px, 60 of
 * 28 px pasted on a grid). Every object is on a pasted face, sorted; the
 * 60-face picture fills the 35 objects the FDIF reports at most.
 */
TEST_F(job, many_faces)
{
	static const struct {
		const char *name;
		int marked;
		uint32_t count;
	} mosaics[] = {
		{ "lfw-15", 15, 15 },
		{ "lfw-60", 60, DRM_FDIF_MAX_OBJECTS },
	};
	struct drm_fdif_result *r = result_of(&self->j);
	struct fdif_box truth[64];
	char why[160];
	unsigned int k;

	for (k = 0; k < sizeof(mosaics) / sizeof(mosaics[0]); k++) {
		ASSERT_EQ(mosaics[k].marked, fdif_load_truth(mosaics[k].name, truth, 64));
		ASSERT_EQ(0, fdif_load_picture(mosaics[k].name, self->j.pic.map));
		memset(r, 0xff, sizeof(*r));
		ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(self->s.seqno, r->seqno);
		EXPECT_EQ(0, r->status);
		EXPECT_EQ(mosaics[k].count, r->count);
		EXPECT_EQ(0, fdif_result_check(r, truth, mosaics[k].marked, why, sizeof(why)))
			TH_LOG("%s: %s", mosaics[k].name, why);
	}
}

TEST_F(job, face_free_photo)
{
	struct drm_fdif_result *r = result_of(&self->j);

	ASSERT_EQ(0, fdif_load_picture("landscape", self->j.pic.map));
	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(0, r->count);
}

TEST_F(job, roi_and_offsets)
{
	struct drm_fdif_result *r;
	struct fdif_job_bos big = { 0 };
	struct drm_fdif_submit s;

	/* one BO for all three roles, at aligned offsets */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 256 * 1024, &big.pic));
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.pic.map + 4096));
	fdif_submit_init(&s, &big);
	s.work_handle = s.result_handle = big.pic.handle;
	s.picture_offset = 4096;
	s.work_offset = 128 * 1024;
	s.result_offset = 200 * 1024;
	s.roi = (struct drm_fdif_roi){ 66, 0, 160, 120 };
	ASSERT_EQ(0, fdif_submit(self->fd, &s));
	ASSERT_EQ(0, fdif_bo_wait(self->fd, big.pic.handle, WAIT_NS));
	r = (void *)((char *)big.pic.map + s.result_offset);
	check_astronaut(_metadata, r);

	/* an ROI without the face */
	s.roi = (struct drm_fdif_roi){ 0, 120, 320, 120 };
	ASSERT_EQ(0, fdif_submit(self->fd, &s));
	ASSERT_EQ(0, fdif_bo_wait(self->fd, big.pic.handle, WAIT_NS));
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(0, r->count);
	fdif_bo_free(self->fd, &big.pic);
}

static int fence_status(int fence_fd, uint64_t *timestamp)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = {
		.num_fences = 1,
		.sync_fence_info = (uintptr_t)&info,
	};

	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	if (timestamp)
		*timestamp = info.timestamp_ns;
	return file.status;
}

TEST_F(job, fence_fd_out)
{
	struct pollfd p = { .events = POLLIN };

	self->s.flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
	ASSERT_GE(self->s.fence_fd, 0);
	p.fd = self->s.fence_fd;
	/* not signalled yet: the device takes its time */
	EXPECT_EQ(0, fence_status(p.fd, NULL));
	ASSERT_EQ(1, poll(&p, 1, WAIT_NS / 1000000));
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_EQ(1, fence_status(p.fd, NULL));
	check_astronaut(_metadata, result_of(&self->j));
	close(p.fd);
}

TEST_F(job, out_syncs)
{
	struct drm_fdif_sync out[2] = { { 0 }, { 0, 0, 5 } };
	uint32_t bin, tl;

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &bin));
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &tl));
	out[0].handle = bin;
	out[1].handle = tl;
	self->s.out_sync_count = 2;
	self->s.out_syncs = (uintptr_t)out;
	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
	EXPECT_EQ(0, fdif_syncobj_wait(self->fd, bin, 0, WAIT_NS));
	EXPECT_EQ(0, fdif_syncobj_wait(self->fd, tl, 5, WAIT_NS));
	check_astronaut(_metadata, result_of(&self->j));
	fdif_syncobj_destroy(self->fd, bin);
	fdif_syncobj_destroy(self->fd, tl);
}

TEST_F(job, in_sync_ordering)
{
	struct drm_fdif_sync sync = { 0 };
	struct fdif_job_bos j2;
	struct drm_fdif_submit s2;
	uint64_t t1, t2;
	uint32_t obj;
	int fd2 = fdif_open();

	/* job 1 on one file signals obj; job 2, on another, waits for it */
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &obj));
	sync.handle = obj;
	self->s.out_sync_count = 1;
	self->s.out_syncs = (uintptr_t)&sync;
	self->s.flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));

	{	/* share the syncobj with the second file */
		struct drm_syncobj_handle h = { .handle = obj };

		ASSERT_EQ(0, fdif_ioctl(self->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h));
		h.handle = 0;
		ASSERT_EQ(0, fdif_ioctl(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h));
		close(h.fd);
		sync.handle = h.handle;
	}
	ASSERT_EQ(0, fdif_job_bos_new(fd2, &j2));
	ASSERT_EQ(0, fdif_load_picture("landscape", j2.pic.map));
	fdif_submit_init(&s2, &j2);
	s2.in_sync_count = 1;
	s2.in_syncs = (uintptr_t)&sync;
	s2.flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit(fd2, &s2));

	ASSERT_EQ(0, fdif_bo_wait(fd2, j2.result.handle, WAIT_NS));
	ASSERT_EQ(1, fence_status(self->s.fence_fd, &t1));
	ASSERT_EQ(1, fence_status(s2.fence_fd, &t2));
	EXPECT_LE(t1, t2);
	check_astronaut(_metadata, result_of(&self->j));
	EXPECT_EQ(0, result_of(&j2)->count);
	close(self->s.fence_fd);
	close(s2.fence_fd);
	fdif_job_bos_free(fd2, &j2);
	close(fd2);
}

TEST_F(job, many_jobs_in_order)
{
	enum { N = 12 };
	struct fdif_job_bos j[N];
	struct drm_fdif_submit s[N];
	uint64_t prev = 0, ts;
	int i;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j[i]));
		ASSERT_EQ(0, fdif_load_picture(i % 2 ? "landscape" : "astronaut",
					       j[i].pic.map));
		fdif_submit_init(&s[i], &j[i]);
		s[i].flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
		ASSERT_EQ(0, fdif_submit(self->fd, &s[i]));
		if (i)
			EXPECT_EQ(s[i - 1].seqno + 1, s[i].seqno);
	}
	for (i = 0; i < N; i++) {
		struct drm_fdif_result *r = result_of(&j[i]);

		ASSERT_EQ(0, wait_result(self->fd, &j[i]));
		EXPECT_EQ(s[i].seqno, r->seqno);
		if (i % 2) {
			EXPECT_EQ(0, r->count);
		} else {
			check_astronaut(_metadata, r);
		}
		/* fences of one file signal in submission order */
		ASSERT_EQ(1, fence_status(s[i].fence_fd, &ts));
		EXPECT_LE(prev, ts);
		prev = ts;
		close(s[i].fence_fd);
		fdif_job_bos_free(self->fd, &j[i]);
	}
}

struct worker {
	int fd;
	int jobs;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fdif_job_bos j;
	struct drm_fdif_submit s;
	char why[160];
	int i;

	if (fdif_job_bos_new(w->fd, &j) || fdif_load_picture("astronaut", j.pic.map)) {
		w->failures = w->jobs;
		return NULL;
	}
	for (i = 0; i < w->jobs; i++) {
		struct drm_fdif_result *r = j.result.map;

		memset(r, 0xff, sizeof(*r));
		fdif_submit_init(&s, &j);
		if (fdif_submit(w->fd, &s) || fdif_bo_wait(w->fd, j.result.handle, WAIT_NS) ||
		    r->seqno != s.seqno || !astronaut_ok(r, why, sizeof(why)))
			w->failures++;
	}
	fdif_job_bos_free(w->fd, &j);
	return NULL;
}

TEST_F(job, many_threads)
{
	enum { T = 4 };
	pthread_t th[T];
	struct worker w[T];
	int i;

	for (i = 0; i < T; i++) {
		w[i] = (struct worker){ .fd = self->fd, .jobs = 4 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < T; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d", i);
	}
}

TEST_F(job, many_files)
{
	enum { F = 6 };
	pthread_t th[F];
	struct worker w[F];
	int i;

	for (i = 0; i < F; i++) {
		w[i] = (struct worker){ .fd = fdif_open(), .jobs = 2 };
		ASSERT_GE(w[i].fd, 0);
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < F; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("file %d", i);
		close(w[i].fd);
	}
}

TEST_F(job, close_while_queued)
{
	int status, round;

	for (round = 0; round < 3; round++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (!pid) {
			struct fdif_job_bos j;
			struct drm_fdif_submit s;
			int fd = fdif_open(), i;

			if (fd < 0 || fdif_job_bos_new(fd, &j))
				_exit(1);
			fdif_submit_init(&s, &j);
			for (i = 0; i < 5; i++)
				if (fdif_submit(fd, &s))
					_exit(2);
			_exit(0);	/* the file closes with its jobs queued */
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	/* and the device serves the next client */
	ASSERT_EQ(0, fdif_submit(self->fd, &self->s));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_astronaut(_metadata, result_of(&self->j));
}

TEST_HARNESS_MAIN
