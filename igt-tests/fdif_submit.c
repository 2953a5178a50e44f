// SPDX-License-Identifier: MIT
/* IGT-style test: DRM_IOCTL_FDIF_SUBMIT, invalid and valid jobs and batches. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <linux/videodev2.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_vivid.h"

#define WAIT_NS		20000000000ll	/* 20 s: TCG is slow, the test is not */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* An ROI without the astronaut's face: the picture's lower half. */
#define ROI_NO_FACE	((struct drm_fdif_roi){ 0, 120, 320, 120 })

FIXTURE(job) {
	int fd;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
};

FIXTURE_SETUP(job)
{
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map));
	fdif_job_init(&self->job, &self->j);
}

FIXTURE_TEARDOWN(job)
{
	if (self->fd < 0)
		return;
	fdif_job_bos_free(self->fd, &self->j);
	close(self->fd);
}

static struct drm_fdif_result_header *result_of(struct fdif_job_bos *j)
{
	return fdif_result(&j->result);
}

static int wait_result(int fd, struct fdif_job_bos *j)
{
	return fdif_bo_wait_for(fd, j->result.handle, WAIT_NS);
}

/* The astronaut's one face, on the box a person marked (astronaut.truth). */
static bool astronaut_ok(const struct drm_fdif_result_header *r, char *why, size_t len)
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
			    const struct drm_fdif_result_header *r)
{
	const struct drm_fdif_object *o;
	char why[160] = "";

	ASSERT_TRUE(astronaut_ok(r, why, sizeof(why))) TH_LOG("%s", why);
	o = fdif_result_object(r, 0);
	EXPECT_TRUE(o->angle <= 30 || o->angle >= 330);
	EXPECT_EQ(DRM_FDIF_DIR_UP, o->direction);
}

/* A face-free result: done, nothing found. */
static void check_empty(struct __test_metadata *_metadata,
			const struct drm_fdif_result_header *r)
{
	char why[160] = "";

	EXPECT_EQ(0, r->status);
	EXPECT_EQ(0, r->count);
	EXPECT_EQ(0, fdif_result_check(r, NULL, 0, why, sizeof(why))) TH_LOG("%s", why);
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

/* One submission of @count jobs @job_size bytes apart. */
static int submit_raw(int fd, void *jobs, uint32_t count, uint32_t job_size)
{
	struct drm_fdif_submit s = {
		.jobs = (uintptr_t)jobs,
		.job_count = count,
		.job_size = job_size,
	};

	return fdif_ioctl(fd, DRM_IOCTL_FDIF_SUBMIT, &s);
}

/*
 * After refused submissions, nothing was queued: the fixture's job is the
 * file's first (seqno 1) and finds the face.
 */
static void check_nothing_queued(struct __test_metadata *_metadata,
				 FIXTURE_DATA(job) *self)
{
	struct drm_fdif_job job = self->job;

	job.flags = 0;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	EXPECT_EQ(1, job.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(job.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
}

/* --- invalid arguments ------------------------------------------------ */

#define EXPECT_JOB(err, field, value) do {				\
		struct drm_fdif_job _j = self->job;			\
		_j.field = value;					\
		EXPECT_EQ(err, fdif_submit_one(self->fd, &_j))		\
			TH_LOG(#field " = " #value);			\
	} while (0)

/* Unknown job flag bits. */
TEST_F(job, invalid_flags)
{
	EXPECT_JOB(-EINVAL, flags, 2);
	EXPECT_JOB(-EINVAL, flags, DRM_FDIF_JOB_FENCE_FD_OUT | 2);
	EXPECT_JOB(-EINVAL, flags, 0x80000000u);
	EXPECT_JOB(-EINVAL, flags, ~0u);
	check_nothing_queued(_metadata, self);
}

/* A fourcc the device did not list. */
TEST_F(job, invalid_format)
{
	EXPECT_JOB(-EINVAL, picture.fourcc, 0);
	EXPECT_JOB(-EINVAL, picture.fourcc, DRM_FORMAT_NV12);
	EXPECT_JOB(-EINVAL, picture.fourcc, FDIF_FOURCC('G', 'R', 'E', 'Y'));
	EXPECT_JOB(-EINVAL, picture.fourcc, DRM_FORMAT_R8 + 1);
	EXPECT_JOB(-EINVAL, picture.fourcc, ~0u);
	check_nothing_queued(_metadata, self);
}

/* A picture size outside the format's range. */
TEST_F(job, invalid_picture_size)
{
	const struct drm_fdif_format_info *f = &self->j.caps.format;

	EXPECT_JOB(-EINVAL, picture.width, 0);
	EXPECT_JOB(-EINVAL, picture.width, f->min_width - 1);
	EXPECT_JOB(-EINVAL, picture.width, f->max_width + 1);
	EXPECT_JOB(-EINVAL, picture.width, 2 * f->max_width);
	EXPECT_JOB(-EINVAL, picture.width, ~0u);
	EXPECT_JOB(-EINVAL, picture.height, 0);
	EXPECT_JOB(-EINVAL, picture.height, f->min_height - 1);
	EXPECT_JOB(-EINVAL, picture.height, f->max_height + 1);
	EXPECT_JOB(-EINVAL, picture.height, f->max_height / 2);
	EXPECT_JOB(-EINVAL, picture.height, ~0u);
	check_nothing_queued(_metadata, self);
}

TEST_F(job, invalid_roi)
{
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 161, 0, 20, 20 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 121, 20, 20 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 0, 19, 100 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 0, 100, 19 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 160, 0, 161, 20 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 120, 20, 121 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 0, 0, 0xffffffffu, 20 }));
	EXPECT_JOB(-EINVAL, roi, ((struct drm_fdif_roi){ 10, 10, 0, 0 }));
	check_nothing_queued(_metadata, self);
}

TEST_F(job, invalid_handles)
{
	EXPECT_JOB(-ENOENT, picture.planes[0].handle, 0);
	EXPECT_JOB(-ENOENT, picture.planes[0].handle, 9999);
	EXPECT_JOB(-ENOENT, work_handle, 9999);
	EXPECT_JOB(-ENOENT, result_handle, 9999);
	check_nothing_queued(_metadata, self);
}

TEST_F(job, invalid_offsets)
{
	struct fdif_bo small;

	/* the picture must fit (BO: 19 pages) */
	EXPECT_JOB(-EINVAL, picture.planes[0].offset, 4096);
	EXPECT_JOB(-EINVAL, picture.planes[0].offset, 0xffffffe0u);
	/* the work area too, at an aligned offset (BO: 13 pages, just enough) */
	EXPECT_JOB(-EINVAL, work_offset, 1);
	EXPECT_JOB(-EINVAL, work_offset, self->j.caps.dev.work_align / 2);
	EXPECT_JOB(-EINVAL, work_offset, 4096);
	EXPECT_JOB(-EINVAL, work_offset, 0xffffffe0u);
	/* and the result region (BO: one page) */
	EXPECT_JOB(-EINVAL, result_offset, 4);
	EXPECT_JOB(-EINVAL, result_offset, 4096);
	/* BOs too small for their role */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &small));
	EXPECT_JOB(-EINVAL, picture.planes[0].handle, small.handle);
	EXPECT_JOB(-EINVAL, work_handle, small.handle);
	fdif_bo_free(self->fd, &small);
	check_nothing_queued(_metadata, self);
}

/* Plane offsets must be aligned to the format's offset_align. */
TEST_F(job, invalid_plane_offset)
{
	uint32_t align = self->j.caps.format.offset_align;
	struct drm_fdif_job job = self->job;
	struct fdif_bo big;

	ASSERT_GT(align, 1);
	/* room for the picture at any offset below 4096 */
	ASSERT_EQ(0, fdif_bo_new(self->fd, FDIF_PIC_SIZE + 4096, &big));
	job.picture.planes[0].handle = big.handle;
	job.picture.planes[0].offset = 1;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.picture.planes[0].offset = align / 2;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.picture.planes[0].offset = align - 1;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.picture.planes[0].offset = 3 * align + align / 2;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	check_nothing_queued(_metadata, self);

	/* aligned, off the BO's start: the picture is read from there */
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.map + align));
	job.picture.planes[0].offset = align;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	EXPECT_EQ(2, job.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_astronaut(_metadata, result_of(&self->j));
	fdif_bo_free(self->fd, &big);
}

/* PACKED_ROWS: the stride is the width, nothing else. */
TEST_F(job, invalid_plane_stride)
{
	struct drm_fdif_job job = self->job;
	struct fdif_bo big;
	static const uint32_t bad[] = { 0, 1, FDIF_W - 1, FDIF_W + 1, FDIF_W + 16,
					2 * FDIF_W, ~0u };
	unsigned int k;

	ASSERT_TRUE(self->j.caps.format.flags & DRM_FDIF_FORMAT_PACKED_ROWS);
	/* a BO with room for two-row strides: only the rule is broken */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 2 * FDIF_PIC_SIZE + 4096, &big));
	job.picture.planes[0].handle = big.handle;
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		job.picture.planes[0].stride = bad[k];
		EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job)) TH_LOG("stride %u", bad[k]);
	}
	fdif_bo_free(self->fd, &big);
	check_nothing_queued(_metadata, self);
}

/* Planes the format does not have must be all zero. */
TEST_F(job, invalid_unused_planes)
{
	uint32_t h = self->j.pic.handle;

	ASSERT_EQ(1, self->j.caps.format.num_planes);
	EXPECT_JOB(-EINVAL, picture.planes[1], ((struct drm_fdif_plane){ h, 0, 0, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[1], ((struct drm_fdif_plane){ 0, 32, 0, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[1], ((struct drm_fdif_plane){ 0, 0, FDIF_W, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[1], ((struct drm_fdif_plane){ 0, 0, 0, 1 }));
	EXPECT_JOB(-EINVAL, picture.planes[1],
		   ((struct drm_fdif_plane){ h, FDIF_PIC_SIZE / 2, FDIF_W, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[2], ((struct drm_fdif_plane){ h, 0, 0, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[2], ((struct drm_fdif_plane){ 0, 64, 0, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[2], ((struct drm_fdif_plane){ 0, 0, 1, 0 }));
	EXPECT_JOB(-EINVAL, picture.planes[2], ((struct drm_fdif_plane){ 0, 0, 0, 0x80000000u }));
	check_nothing_queued(_metadata, self);
}

TEST_F(job, invalid_pads)
{
	EXPECT_JOB(-EINVAL, picture.pad, 1);
	EXPECT_JOB(-EINVAL, picture.pad, 0x80000000u);
	EXPECT_JOB(-EINVAL, picture.planes[0].pad, 1);
	EXPECT_JOB(-EINVAL, picture.planes[0].pad, ~0u);
	check_nothing_queued(_metadata, self);
}

/* The submission itself: job count, flags, padding. */
TEST_F(job, invalid_submit_args)
{
	struct drm_fdif_job jobs[2] = { self->job, self->job };
	struct drm_fdif_submit s = {
		.jobs = (uintptr_t)jobs,
		.job_count = 1,
		.job_size = sizeof(jobs[0]),
	}, t;
	uint32_t max = self->j.caps.dev.max_jobs;
	struct drm_fdif_job *many;

	t = s;
	t.job_count = 0;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &t));
	t = s;
	t.job_count = ~0u;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &t));
	t = s;
	t.flags = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &t));
	t.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &t));
	t = s;
	t.pad = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &t));
	/* one more than max_jobs valid jobs */
	many = calloc(max + 1, sizeof(*many));
	ASSERT_NE(NULL, many);
	for (uint32_t i = 0; i <= max; i++)
		many[i] = self->job;
	EXPECT_EQ(-EINVAL, fdif_submit_jobs(self->fd, many, max + 1));
	free(many);
	check_nothing_queued(_metadata, self);
}

/* The job, with @sync as its one in-sync, then as its one out-sync. */
static void expect_sync_refused(struct __test_metadata *_metadata,
				FIXTURE_DATA(job) *self, struct drm_fdif_sync *sync,
				int err)
{
	struct drm_fdif_job job = self->job;

	job.in_sync_count = 1;
	job.in_syncs = (uintptr_t)sync;
	EXPECT_EQ(err, fdif_submit_one(self->fd, &job));
	job = self->job;
	job.out_sync_count = 1;
	job.out_syncs = (uintptr_t)sync;
	EXPECT_EQ(err, fdif_submit_one(self->fd, &job));
}

TEST_F(job, invalid_syncs)
{
	struct drm_fdif_sync sync[65] = { { .handle = 4242 } };
	struct drm_fdif_job job;
	uint32_t obj, i, max = self->j.caps.dev.max_syncs;

	ASSERT_LE(max, 64);
	expect_sync_refused(_metadata, self, sync, -ENOENT);

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &obj));
	for (i = 0; i < ARRAY_SIZE(sync); i++)
		sync[i] = (struct drm_fdif_sync){ .handle = obj };
	/* flags, then the reserved word */
	sync[0].flags = 1;
	expect_sync_refused(_metadata, self, sync, -EINVAL);
	sync[0].flags = 0;
	sync[0].mbz = 1;
	expect_sync_refused(_metadata, self, sync, -EINVAL);
	sync[0].mbz = 0;
	job = self->job;
	job.in_syncs = (uintptr_t)sync;
	job.in_sync_count = max + 1;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job = self->job;
	job.out_sync_count = max + 1;
	job.out_syncs = (uintptr_t)sync;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	fdif_syncobj_destroy(self->fd, obj);
	check_nothing_queued(_metadata, self);
}

TEST_F(job, invalid_user_pointers)
{
	struct drm_fdif_job job = self->job, *ro;
	struct drm_fdif_submit s = { .job_count = 1, .job_size = sizeof(job) };
	int fds;

	job.in_sync_count = 1;
	job.in_syncs = 8;
	EXPECT_EQ(-EFAULT, fdif_submit_one(self->fd, &job));
	job = self->job;
	job.out_sync_count = 2;
	job.out_syncs = (uintptr_t)-4096;
	EXPECT_EQ(-EFAULT, fdif_submit_one(self->fd, &job));
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, (void *)16));
	/* unreadable job arrays */
	s.jobs = 0;
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &s));
	s.jobs = 8;
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &s));
	/* a valid job the kernel cannot write its seqno and fence back to */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	*ro = self->job;
	ro->flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	s.jobs = (uintptr_t)ro;
	fds = fdif_count_fds();
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &s));
	EXPECT_EQ(fds, fdif_count_fds());
	munmap(ro, 4096);
	/* nothing was queued by any of these */
	EXPECT_EQ(0, fdif_bo_wait(self->fd, self->j.result.handle, 0));
	check_nothing_queued(_metadata, self);
}

/* Classes: not empty, known, at most max_job_classes of them. */
TEST_F(job, invalid_classes)
{
	uint32_t known = self->j.caps.dev.classes;

	EXPECT_JOB(-EINVAL, classes, 0);
	EXPECT_JOB(-EINVAL, classes, ~known & (known + 1));	/* the first unknown */
	EXPECT_JOB(-EINVAL, classes, 0x80000000u);
	EXPECT_JOB(-EINVAL, classes, known | 0x80000000u);
	EXPECT_JOB(-EINVAL, classes, ~0u);
	/* more classes than a job may ask for */
	EXPECT_JOB(-EINVAL, classes, (1u << (self->j.caps.dev.max_job_classes + 1)) - 1);
	check_nothing_queued(_metadata, self);
}

/* Directions: not empty, known, at most max_job_directions (OMAP4: one). */
TEST_F(job, invalid_directions)
{
	static const uint32_t bad[] = { 0, 1u << 3, 0x80000000u, ~0u, 0x9 };
	static const uint32_t too_many[] = { 0x3, 0x5, 0x6, 0x7 };
	unsigned int k;

	ASSERT_EQ(1, self->j.caps.dev.max_job_directions);
	for (k = 0; k < ARRAY_SIZE(bad); k++)
		EXPECT_JOB(-EINVAL, directions, bad[k]);
	for (k = 0; k < ARRAY_SIZE(too_many); k++)
		EXPECT_JOB(-EINVAL, directions, too_many[k]);
	check_nothing_queued(_metadata, self);
}

/*
 * Every direction the device scans, one a job, on a picture with the
 * face that way: the face is found, in that direction, at its angle.
 */
TEST_F(job, each_direction)
{
	static const struct {
		uint32_t dir;
		const char *picture;
		uint32_t angle_min, angle_max;	/* mod 360 */
	} want[] = {
		{ DRM_FDIF_DIR_UP, "astronaut", 330, 30 },
		{ DRM_FDIF_DIR_RIGHT, "astronaut-cw90", 60, 120 },
		{ DRM_FDIF_DIR_LEFT, "astronaut-ccw90", 240, 300 },
	};
	uint32_t dirs = self->j.caps.dev.directions;
	unsigned int k;

	ASSERT_EQ(0, dirs & ~7u) TH_LOG("directions 0x%x: a test picture per direction", dirs);
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		struct drm_fdif_result_header *r = result_of(&self->j);
		struct drm_fdif_job job = self->job;
		const struct drm_fdif_object *o;
		struct fdif_box t;
		char why[160] = "";

		if (!(dirs & (1u << want[k].dir)))
			continue;
		ASSERT_EQ(1, fdif_load_truth(want[k].picture, &t, 1));
		ASSERT_EQ(0, fdif_load_picture(want[k].picture, self->j.pic.map));
		memset(r, 0xa5, self->j.caps.layout.size);
		job.directions = 1u << want[k].dir;
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job)) TH_LOG("direction %u", want[k].dir);
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(job.seqno, r->seqno);
		ASSERT_EQ(1, r->count) TH_LOG("%s, direction %u", want[k].picture, want[k].dir);
		EXPECT_EQ(0, fdif_result_check(r, &t, 1, why, sizeof(why)))
			TH_LOG("%s: %s", want[k].picture, why);
		o = fdif_result_object(r, 0);
		EXPECT_EQ(want[k].dir, o->direction);
		if (want[k].angle_min < want[k].angle_max) {
			EXPECT_TRUE(o->angle >= want[k].angle_min && o->angle <= want[k].angle_max)
				TH_LOG("%s: angle %u", want[k].picture, o->angle);
		} else {
			EXPECT_TRUE(o->angle >= want[k].angle_min || o->angle <= want[k].angle_max)
				TH_LOG("%s: angle %u", want[k].picture, o->angle);
		}
	}
}

/* Minimum sizes: one of the listed pairs, and each of them works. */
TEST_F(job, invalid_min_size)
{
	static const struct drm_fdif_size bad[] = {
		{ 0, 0 }, { 20, 0 }, { 0, 20 }, { 20, 25 }, { 25, 20 }, { 19, 19 },
		{ 24, 24 }, { 40, 41 }, { 41, 41 }, { 80, 80 }, { ~0u, ~0u },
	};
	struct drm_fdif_query_list *sizes;
	unsigned int k;
	int err;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		struct drm_fdif_job job = self->job;

		job.min_width = bad[k].width;
		job.min_height = bad[k].height;
		EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job))
			TH_LOG("min size %ux%u", bad[k].width, bad[k].height);
	}
	check_nothing_queued(_metadata, self);

	sizes = fdif_query_list(self->fd, DRM_FDIF_QUERY_MIN_SIZES, &err);
	ASSERT_NE(NULL, sizes);
	for (k = 0; k < sizes->count; k++) {
		const struct drm_fdif_size *sz = fdif_list_entry(sizes, k);
		struct drm_fdif_result_header *r = result_of(&self->j);
		struct drm_fdif_job job = self->job;

		job.min_width = sz->width;
		job.min_height = sz->height;
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job))
			TH_LOG("min size %ux%u", sz->width, sz->height);
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(job.seqno, r->seqno);
		EXPECT_EQ(0, r->status);
		/* no object below the minimum */
		for (uint32_t i = 0; i < r->count; i++) {
			EXPECT_GE(fdif_result_object(r, i)->width, sz->width);
		}
	}
	free(sizes);
}

TEST_F(job, invalid_threshold)
{
	uint32_t max = self->j.caps.dev.max_threshold;
	struct drm_fdif_job job = self->job;

	EXPECT_JOB(-EINVAL, threshold, max + 1);
	EXPECT_JOB(-EINVAL, threshold, 0x80000000u);
	EXPECT_JOB(-EINVAL, threshold, ~0u);
	check_nothing_queued(_metadata, self);
	/* both ends of the range */
	job.threshold = 0;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	job.threshold = max;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(job.seqno, result_of(&self->j)->seqno);
	EXPECT_EQ(0, result_of(&self->j)->status);
}

/* --- the result region ------------------------------------------------ */

/*
 * A result region smaller than the layout's size, misaligned, or not
 * inside its BO.
 */
TEST_F(job, invalid_result_region)
{
	const struct drm_fdif_result_layout *l = &self->j.caps.layout;
	uint32_t end_off = (4096 - l->size) & ~(l->align - 1);
	struct drm_fdif_job job = self->job;
	struct drm_fdif_result_header *r;
	struct fdif_bo page;

	ASSERT_LE(l->size, 4096);
	ASSERT_TRUE(l->align > 1 && !(l->align & (l->align - 1)));
	EXPECT_JOB(-EINVAL, result_size, 0);
	EXPECT_JOB(-EINVAL, result_size, l->header_size);
	EXPECT_JOB(-EINVAL, result_size, l->size - l->object_size);
	EXPECT_JOB(-EINVAL, result_size, l->size - 1);
	EXPECT_JOB(-EINVAL, result_offset, 1);
	EXPECT_JOB(-EINVAL, result_offset, l->align / 2);

	/* a one-page BO: the region must lie inside it */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &page));
	job.result_handle = page.handle;
	job.result_offset = end_off + l->align;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job)) TH_LOG("offset %u", job.result_offset);
	job.result_offset = 0;
	job.result_size = 4096 + l->align;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.result_offset = end_off;
	job.result_size = l->size + l->align;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.result_offset = 0xfffffff8u & ~(l->align - 1);
	job.result_size = l->size;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.result_offset = 8192;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.result_offset = 0;
	job.result_size = ~0u;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	check_nothing_queued(_metadata, self);

	/* exactly at the BO's end: fine, and the result is written there */
	memset(page.map, 0xa5, 4096);
	job.result_offset = end_off;
	job.result_size = l->size;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, page.handle, WAIT_NS));
	r = (void *)((char *)page.map + end_off);
	EXPECT_EQ(job.seqno, r->seqno);
	check_astronaut(_metadata, r);
	/* nothing written before the region */
	for (uint32_t i = 0; i < end_off; i++) {
		ASSERT_EQ(0xa5, ((unsigned char *)page.map)[i]) TH_LOG("byte %u", i);
	}

	/* a region larger than needed is fine too */
	job.result_offset = 0;
	job.result_size = 4096;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, page.handle, WAIT_NS));
	check_astronaut(_metadata, page.map);
	fdif_bo_free(self->fd, &page);
}

/* The header a job writes describes the layout the query announced. */
TEST_F(job, result_header_layout)
{
	const struct drm_fdif_result_layout *l = &self->j.caps.layout;
	struct drm_fdif_result_header *r = result_of(&self->j);
	uint32_t i;

	memset(r, 0xa5, l->size);
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(l->version, r->version);
	EXPECT_EQ(l->header_size, r->header_size);
	EXPECT_EQ(l->object_size, r->object_size);
	EXPECT_EQ(l->capacity, r->capacity);
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(self->job.seqno, r->seqno);
	EXPECT_LE(r->count, r->capacity);
	ASSERT_EQ(1, r->count);
	for (i = 0; i < r->count; i++) {
		const struct drm_fdif_object *o = fdif_result_object(r, i);

		EXPECT_EQ(l->object_fields, o->fields);
		EXPECT_EQ(DRM_FDIF_CLASS_FACE, o->object_class);
		EXPECT_EQ(o->width, o->height);
	}
	check_astronaut(_metadata, r);
}

/* --- job_size: the extension rules ------------------------------------ */

/* The job this header knows, and one from a header 8 bytes newer. */
#define JOB_SIZE	sizeof(struct drm_fdif_job)
#define JOB_V2_SIZE	(JOB_SIZE + 8)

/* A longer job (a newer header) whose tail is zero is an old job. */
TEST_F(job, job_size_longer_zero_tail)
{
	uint64_t buf[2 * JOB_V2_SIZE / 8];
	unsigned char *b = (unsigned char *)buf;
	struct fdif_job_bos j2;
	struct drm_fdif_job out[2];
	int i;

	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j2));
	memset(buf, 0, sizeof(buf));
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	memcpy(b, &self->job, sizeof(self->job));
	fdif_job_init(&out[1], &j2);
	out[1].picture.planes[0].handle = self->j.pic.handle;
	out[1].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	memcpy(b + JOB_V2_SIZE, &out[1], sizeof(out[1]));
	ASSERT_EQ(0, submit_raw(self->fd, buf, 2, JOB_V2_SIZE));
	/* the kernel wrote back at JOB_V2_SIZE steps, and not into the tails */
	for (i = 0; i < 2; i++) {
		memcpy(&out[i], b + i * JOB_V2_SIZE, sizeof(out[i]));
		EXPECT_EQ(i + 1, out[i].seqno);
		EXPECT_GE(out[i].fence_fd, 0);
		EXPECT_TRUE(b[i * JOB_V2_SIZE + JOB_SIZE] == 0 &&
			    !memcmp(b + i * JOB_V2_SIZE + JOB_SIZE,
				    b + i * JOB_V2_SIZE + JOB_SIZE + 1, 7));
	}
	EXPECT_NE(out[0].fence_fd, out[1].fence_fd);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	ASSERT_EQ(0, wait_result(self->fd, &j2));
	EXPECT_EQ(1, result_of(&self->j)->seqno);
	EXPECT_EQ(2, result_of(&j2)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
	check_astronaut(_metadata, result_of(&j2));
	close(out[0].fence_fd);
	close(out[1].fence_fd);
	fdif_job_bos_free(self->fd, &j2);
}

/* A longer job with something in its tail: this kernel cannot honour it. */
TEST_F(job, job_size_longer_nonzero_tail)
{
	uint64_t buf[2 * JOB_V2_SIZE / 8];
	unsigned char *b = (unsigned char *)buf;
	int k, fds = fdif_count_fds();

	for (k = 0; k < 8; k++) {
		memset(buf, 0, sizeof(buf));
		memcpy(b, &self->job, sizeof(self->job));
		b[JOB_SIZE + k] = 1u << k;
		EXPECT_EQ(-E2BIG, submit_raw(self->fd, buf, 1, JOB_V2_SIZE)) TH_LOG("byte %d", k);
	}
	/* the second job's tail: the first is not queued either */
	memset(buf, 0, sizeof(buf));
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	memcpy(b, &self->job, sizeof(self->job));
	memcpy(b + JOB_V2_SIZE, &self->job, sizeof(self->job));
	b[JOB_V2_SIZE + JOB_V2_SIZE - 1] = 0x80;
	EXPECT_EQ(-E2BIG, submit_raw(self->fd, buf, 2, JOB_V2_SIZE));
	EXPECT_EQ(fds, fdif_count_fds());
	check_nothing_queued(_metadata, self);
}

/* Longer than 4096 bytes, whatever the tail and the page size: refused. */
TEST_F(job, job_size_too_long)
{
	static uint64_t buf[2 * 8192 / 8];

	memcpy(buf, &self->job, sizeof(self->job));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, buf, 1, 4097));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, buf, 1, 8192));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, buf, 1, UINT32_MAX));
	check_nothing_queued(_metadata, self);
	/* 4096 with a zero tail is fine */
	ASSERT_EQ(0, submit_raw(self->fd, buf, 1, 4096));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
}

/* Shorter than the first version: refused. */
TEST_F(job, job_size_too_short)
{
	static const uint32_t sizes[] = { 0, 1, 8, FDIF_JOB_SIZE_V1 - 8, FDIF_JOB_SIZE_V1 - 1 };
	uint64_t buf[JOB_V2_SIZE / 8] = { 0 };
	unsigned int k;

	memcpy(buf, &self->job, sizeof(self->job));
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		EXPECT_EQ(-EINVAL, submit_raw(self->fd, buf, 1, sizes[k]))
			TH_LOG("job_size %u", sizes[k]);
	}
	check_nothing_queued(_metadata, self);
	/* the first version's own size */
	ASSERT_EQ(0, submit_raw(self->fd, buf, 1, FDIF_JOB_SIZE_V1));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(2, result_of(&self->j)->seqno);
}

/* --- valid jobs ------------------------------------------------------- */

TEST_F(job, single_photo)
{
	struct drm_fdif_result_header *r = result_of(&self->j);
	const struct drm_fdif_object *o;

	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	EXPECT_EQ(1, self->job.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(1, r->seqno);
	check_astronaut(_metadata, r);
	o = fdif_result_object(r, 0);
	TH_LOG("face at %d,%d size %ux%u angle %u confidence %u",
	       o->x, o->y, o->width, o->height, o->angle, o->confidence);
}

/*
 * Many faces through the driver: the LFW mosaics (15 faces of 48 px, 60 of
 * 28 px pasted on a grid). Every object is on a pasted face, sorted; the
 * 60-face picture fills the result to its capacity.
 */
TEST_F(job, many_faces)
{
	static const struct {
		const char *name;
		int marked;
		uint32_t count;	/* 0: the layout's capacity */
	} mosaics[] = {
		{ "lfw-15", 15, 15 },
		{ "lfw-60", 60, 0 },
	};
	struct drm_fdif_result_header *r = result_of(&self->j);
	struct fdif_box truth[64];
	char why[160];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(mosaics); k++) {
		uint32_t want = mosaics[k].count ? mosaics[k].count : self->j.caps.layout.capacity;

		ASSERT_EQ(mosaics[k].marked, fdif_load_truth(mosaics[k].name, truth, 64));
		ASSERT_EQ(0, fdif_load_picture(mosaics[k].name, self->j.pic.map));
		memset(r, 0xff, self->j.caps.layout.size);
		ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(self->job.seqno, r->seqno);
		EXPECT_EQ(0, r->status);
		EXPECT_EQ(want, r->count);
		EXPECT_EQ(0, fdif_result_check(r, truth, mosaics[k].marked, why, sizeof(why)))
			TH_LOG("%s: %s", mosaics[k].name, why);
	}
}

TEST_F(job, face_free_photo)
{
	ASSERT_EQ(0, fdif_load_picture("landscape", self->j.pic.map));
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_empty(_metadata, result_of(&self->j));
}

/* One BO for the picture, the work area and the result, at aligned offsets. */
TEST_F(job, one_bo_all_roles)
{
	struct drm_fdif_result_header *r;
	struct fdif_job_bos big = { .caps = self->j.caps };
	struct drm_fdif_job job;

	ASSERT_EQ(0, fdif_bo_new(self->fd, 256 * 1024, &big.pic));
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.pic.map + 4096));
	fdif_job_init(&job, &big);
	job.work_handle = job.result_handle = big.pic.handle;
	job.picture.planes[0].offset = 4096;
	job.work_offset = 128 * 1024;
	job.result_offset = 200 * 1024;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	r = (void *)((char *)big.pic.map + job.result_offset);
	EXPECT_EQ(job.seqno, r->seqno);
	check_astronaut(_metadata, r);
	fdif_bo_free(self->fd, &big.pic);
}

TEST_F(job, roi_and_offsets)
{
	struct drm_fdif_result_header *r;
	struct fdif_job_bos big = { .caps = self->j.caps };
	struct drm_fdif_job job;

	/* one BO for all three roles, at aligned offsets */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 256 * 1024, &big.pic));
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.pic.map + 4096));
	fdif_job_init(&job, &big);
	job.work_handle = job.result_handle = big.pic.handle;
	job.picture.planes[0].offset = 4096;
	job.work_offset = 128 * 1024;
	job.result_offset = 200 * 1024;
	job.roi = (struct drm_fdif_roi){ 66, 0, 160, 120 };
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	r = (void *)((char *)big.pic.map + job.result_offset);
	check_astronaut(_metadata, r);

	/* an ROI without the face */
	job.roi = ROI_NO_FACE;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	check_empty(_metadata, r);
	fdif_bo_free(self->fd, &big.pic);
}

TEST_F(job, fence_fd_out)
{
	struct pollfd p = { .events = POLLIN };

	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_GE(self->job.fence_fd, 0);
	p.fd = self->job.fence_fd;
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
	struct drm_fdif_sync out[2] = { { 0 }, { .point = 5 } };
	uint32_t bin, tl;

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &bin));
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &tl));
	out[0].handle = bin;
	out[1].handle = tl;
	self->job.out_sync_count = 2;
	self->job.out_syncs = (uintptr_t)out;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
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
	struct drm_fdif_job job2;
	uint64_t t1, t2;
	uint32_t obj;
	int fd2 = fdif_open();

	/* job 1 on one file signals obj; job 2, on another, waits for it */
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &obj));
	sync.handle = obj;
	self->job.out_sync_count = 1;
	self->job.out_syncs = (uintptr_t)&sync;
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));

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
	fdif_job_init(&job2, &j2);
	job2.in_sync_count = 1;
	job2.in_syncs = (uintptr_t)&sync;
	job2.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(fd2, &job2));

	ASSERT_EQ(0, fdif_bo_wait_for(fd2, j2.result.handle, WAIT_NS));
	ASSERT_EQ(1, fence_status(self->job.fence_fd, &t1));
	ASSERT_EQ(1, fence_status(job2.fence_fd, &t2));
	EXPECT_LE(t1, t2);
	check_astronaut(_metadata, result_of(&self->j));
	check_empty(_metadata, result_of(&j2));
	close(self->job.fence_fd);
	close(job2.fence_fd);
	fdif_job_bos_free(fd2, &j2);
	close(fd2);
}

/* An in-sync that holds no fence cannot be waited for: -EINVAL, not a hang. */
TEST_F(job, in_sync_without_fence)
{
	struct drm_fdif_sync sync = { 0 };
	uint32_t empty, tl;

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &empty));
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &tl));
	sync.handle = empty;
	self->job.in_sync_count = 1;
	self->job.in_syncs = (uintptr_t)&sync;
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &self->job));
	/* a timeline point nobody has submitted yet */
	sync.handle = tl;
	sync.point = 1;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &self->job));
	self->job.in_sync_count = 0;
	self->job.in_syncs = 0;
	check_nothing_queued(_metadata, self);
	fdif_syncobj_destroy(self->fd, empty);
	fdif_syncobj_destroy(self->fd, tl);
}

/*
 * Timeline points: a job waits for the point another job signals (and
 * for an earlier point, which that one also satisfies); a later point
 * that no job signals yet is refused.
 */
TEST_F(job, in_sync_timeline_points)
{
	struct drm_fdif_sync out = { .point = 3 };
	struct drm_fdif_sync in[3] = { { .point = 3 }, { .point = 2 }, { .point = 4 } };
	struct fdif_job_bos j2;
	struct drm_fdif_job waiter[3];
	uint64_t t0, t;
	uint32_t tl;
	int i;

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &tl));
	out.handle = tl;
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j2));
	ASSERT_EQ(0, fdif_load_picture("landscape", j2.pic.map));

	/* slow the first job down, so that the others really wait */
	if (fdif_emu_available())
		ASSERT_EQ(0, fdif_emu_frame_time(200000));
	self->job.out_sync_count = 1;
	self->job.out_syncs = (uintptr_t)&out;
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));

	for (i = 0; i < 3; i++) {
		in[i].handle = tl;
		fdif_job_init(&waiter[i], &j2);
		waiter[i].in_sync_count = 1;
		waiter[i].in_syncs = (uintptr_t)&in[i];
		waiter[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	}
	/* point 3 itself, and point 2, which point 3 satisfies */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &waiter[0]));
	ASSERT_EQ(0, fdif_submit_one(self->fd, &waiter[1]));
	/* point 4: nobody has submitted it */
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &waiter[2]));

	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, j2.result.handle, WAIT_NS));
	ASSERT_EQ(1, fence_status(self->job.fence_fd, &t0));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(1, fence_status(waiter[i].fence_fd, &t));
		EXPECT_LE(t0, t) TH_LOG("waiter on point %llu", (unsigned long long)in[i].point);
		close(waiter[i].fence_fd);
	}
	EXPECT_EQ(0, fdif_syncobj_wait(self->fd, tl, 3, 0));
	check_astronaut(_metadata, result_of(&self->j));
	check_empty(_metadata, result_of(&j2));
	if (fdif_emu_available())
		fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT);
	close(self->job.fence_fd);
	fdif_job_bos_free(self->fd, &j2);
	fdif_syncobj_destroy(self->fd, tl);
}


/*
 * The fixture's job on the picture at @offset / @stride in the dma-buf
 * @buf, imported: the astronaut's face must be found. The import has no
 * mmap offset of ours (the CPU maps it through its exporter), and once
 * the job has read it, it is idle and still ours to close.
 */
static void job_on_import(struct __test_metadata *_metadata, FIXTURE_DATA(job) *self,
			  int buf, uint32_t offset, uint32_t stride)
{
	struct drm_prime_handle imp = { .fd = buf };
	uint64_t off;

	ASSERT_EQ(0, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(-EINVAL, fdif_bo_mmap_offset(self->fd, imp.handle, &off));
	self->job.picture.planes[0].handle = imp.handle;
	self->job.picture.planes[0].offset = offset;
	self->job.picture.planes[0].stride = stride;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(self->job.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, imp.handle, 0));
	EXPECT_EQ(0, fdif_gem_close(self->fd, imp.handle));
}

/*
 * A picture in another exporter's buffer (a CMA dma-heap, as a camera's
 * contiguous frame would be): imported without a copy, read by the
 * device, its face found. The CPU writes it through the dma-buf's own
 * mapping, bracketed by DMA_BUF_IOCTL_SYNC.
 */
TEST_F(job, picture_from_foreign_dmabuf)
{
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };
	size_t len = FDIF_PIC_SIZE + 4096;
	void *map;
	int buf = fdif_cma_heap_alloc(len);

	ASSERT_GE(buf, 0) TH_LOG("no CMA dma-heap (CONFIG_DMABUF_HEAPS_CMA): %d", buf);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(buf, DMA_BUF_IOCTL_SYNC, &sync));
	/* at an offset, as a frame after a header would be */
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)map + 4096));
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
	ASSERT_EQ(0, ioctl(buf, DMA_BUF_IOCTL_SYNC, &sync));

	job_on_import(_metadata, self, buf, 4096, FDIF_W);
	munmap(map, len);
	close(buf);
}

/*
 * vivid's video capture node, opened, or -errno: vivid loaded as the
 * guest's camera (lib/fdif_vivid.h), with dma-contig buffers.
 */
static int vivid_open(void)
{
	int err = fdif_vivid_load();

	return err ? err : fdif_vivid_node(V4L2_CAP_VIDEO_CAPTURE);
}

/*
 * A picture in a camera driver's capture buffer: vivid (a V4L2 capture
 * driver) allocates a 640x480 grey frame with videobuf2's dma-contig
 * allocator and exports it with VIDIOC_EXPBUF, as a camera pipeline hands
 * frames on. The picture sits inside the frame, from row 120: at column
 * 160 with the frame's stride on a device that takes strides, packed
 * (stride = width) where the format says DRM_FDIF_FORMAT_PACKED_ROWS, as
 * on the OMAP4. The job's plane says where. The import goes through the
 * exporter's map_dma_buf for this device; the device reads the picture
 * from there (the fixture's own picture BO is cleared) and finds the face.
 */
TEST_F(job, picture_from_v4l2_capture_buffer)
{
	enum { X0 = 160, Y0 = 120 };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 1, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_exportbuffer exp = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .flags = O_RDWR | O_CLOEXEC,
	};
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };
	int video = vivid_open(), y;
	unsigned char *pic, *map;
	uint32_t bpl, stride, offset;
	size_t len;

	/* in every guest kernel; scripts/test.sh fails this skip */
	if (video == -ENODEV)
		SKIP(return, "no vivid camera driver (CONFIG_VIDEO_VIVID)");
	ASSERT_GE(video, 0) TH_LOG("no vivid capture node with dma-contig buffers: %d", video);
	ASSERT_EQ(0, ioctl(video, VIDIOC_G_FMT, &fmt));
	fmt.fmt.pix.width = 640;
	fmt.fmt.pix.height = 480;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_GREY;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	ASSERT_EQ(0, ioctl(video, VIDIOC_S_FMT, &fmt)) TH_LOG("S_FMT: %s", strerror(errno));
	ASSERT_EQ(V4L2_PIX_FMT_GREY, fmt.fmt.pix.pixelformat);
	ASSERT_EQ(640, fmt.fmt.pix.width);
	ASSERT_EQ(480, fmt.fmt.pix.height);
	bpl = fmt.fmt.pix.bytesperline;
	len = fmt.fmt.pix.sizeimage;
	ASSERT_GE(bpl, 640);
	ASSERT_GE(len, (size_t)bpl * 480);
	ASSERT_EQ(0, ioctl(video, VIDIOC_REQBUFS, &req)) TH_LOG("REQBUFS: %s", strerror(errno));
	ASSERT_GE(req.count, 1);
	ASSERT_EQ(0, ioctl(video, VIDIOC_EXPBUF, &exp)) TH_LOG("EXPBUF: %s", strerror(errno));

	pic = malloc(FDIF_PIC_SIZE);
	ASSERT_NE(NULL, pic);
	ASSERT_EQ(0, fdif_load_picture("astronaut", pic));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, exp.fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync));
	if (self->j.caps.format.flags & DRM_FDIF_FORMAT_PACKED_ROWS) {
		stride = FDIF_W;
		offset = Y0 * bpl;
	} else {
		stride = bpl;
		offset = Y0 * bpl + X0;
	}
	ASSERT_EQ(0, offset % self->j.caps.format.offset_align);
	memset(map, 0x80, len);
	for (y = 0; y < FDIF_H; y++)
		memcpy(map + offset + (size_t)y * stride, pic + y * FDIF_W, FDIF_W);
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
	ASSERT_EQ(0, ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync));
	free(pic);
	/* nothing of the picture anywhere but in the camera's frame */
	memset(self->j.pic.map, 0, self->j.pic.size);

	job_on_import(_metadata, self, exp.fd, offset, stride);
	munmap(map, len);
	close(exp.fd);
	/*
	 * The queue lets go of its buffers; the one exported lives on until
	 * the import's last reference (freed with the job) goes. vivid stays
	 * loaded: its device must outlive that buffer.
	 */
	req.count = 0;
	EXPECT_EQ(0, ioctl(video, VIDIOC_REQBUFS, &req));
	close(video);
}

TEST_F(job, many_jobs_in_order)
{
	enum { N = 12 };
	struct fdif_job_bos j[N];
	struct drm_fdif_job job[N];
	uint64_t prev = 0, ts;
	int i;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j[i]));
		ASSERT_EQ(0, fdif_load_picture(i % 2 ? "landscape" : "astronaut",
					       j[i].pic.map));
		fdif_job_init(&job[i], &j[i]);
		job[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job[i]));
		if (i)
			EXPECT_EQ(job[i - 1].seqno + 1, job[i].seqno);
	}
	for (i = 0; i < N; i++) {
		struct drm_fdif_result_header *r = result_of(&j[i]);

		ASSERT_EQ(0, wait_result(self->fd, &j[i]));
		EXPECT_EQ(job[i].seqno, r->seqno);
		if (i % 2) {
			check_empty(_metadata, r);
		} else {
			check_astronaut(_metadata, r);
		}
		/* fences of one file signal in submission order */
		ASSERT_EQ(1, fence_status(job[i].fence_fd, &ts));
		EXPECT_LE(prev, ts);
		prev = ts;
		close(job[i].fence_fd);
		fdif_job_bos_free(self->fd, &j[i]);
	}
}

/* --- batches ---------------------------------------------------------- */

/*
 * Four jobs in one submission on one picture: consecutive seqnos, a fence
 * each, signalled in array order, every result its own job's (the second
 * job's ROI misses the face).
 */
TEST_F(job, batch_four_jobs)
{
	enum { N = 4 };
	struct drm_fdif_job jobs[N];
	struct fdif_bo res[N];
	uint64_t prev = 0, ts;
	int i, k;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
		memset(res[i].map, 0xa5, res[i].size);
		jobs[i] = self->job;
		jobs[i].result_handle = res[i].handle;
		jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		jobs[i].fence_fd = -1;
	}
	jobs[1].roi = ROI_NO_FACE;
	ASSERT_EQ(0, fdif_submit_jobs(self->fd, jobs, N));
	EXPECT_EQ(1, jobs[0].seqno);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(jobs[0].seqno + i, jobs[i].seqno);
		ASSERT_GE(jobs[i].fence_fd, 0);
		for (k = 0; k < i; k++) {
			EXPECT_NE(jobs[k].fence_fd, jobs[i].fence_fd);
		}
	}
	for (i = 0; i < N; i++) {
		struct pollfd p = { .fd = jobs[i].fence_fd, .events = POLLIN };
		struct drm_fdif_result_header *r = res[i].map;

		ASSERT_EQ(1, poll(&p, 1, WAIT_NS / 1000000)) TH_LOG("job %d", i);
		EXPECT_TRUE(p.revents & POLLIN);
		ASSERT_EQ(1, fence_status(jobs[i].fence_fd, &ts));
		EXPECT_LE(prev, ts) TH_LOG("job %d signalled before job %d", i, i - 1);
		prev = ts;
		/* the result is written before the fence signals */
		EXPECT_EQ(jobs[i].seqno, r->seqno);
		if (i == 1)
			check_empty(_metadata, r);
		else
			check_astronaut(_metadata, r);
		close(jobs[i].fence_fd);
		fdif_bo_free(self->fd, &res[i]);
	}
}

/*
 * A batch whose third job is bad is refused whole: no job queued (the
 * earlier ones' result BOs stay idle and untouched, their out-syncs
 * unsignalled), no fence fd left open, the file's seqno not advanced.
 */
TEST_F(job, batch_bad_job_nothing_queued)
{
	enum { N = 4 };
	struct drm_fdif_sync in_bad = { .handle = 4242 }, out = { 0 };
	struct drm_fdif_job jobs[N], good = self->job;
	struct fdif_bo res[N];
	uint64_t prev;
	uint32_t obj;
	int i, kind, fds;

	/* a good job first: the file's seqnos have started */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &good));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	prev = good.seqno;
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &obj));
	out.handle = obj;
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
	}
	fds = fdif_count_fds();
	ASSERT_GT(fds, 0);

	for (kind = 0; kind < 5; kind++) {
		int want;

		for (i = 0; i < N; i++) {
			memset(res[i].map, 0xa5, res[i].size);
			jobs[i] = self->job;
			jobs[i].result_handle = res[i].handle;
			jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		}
		jobs[0].out_sync_count = 1;
		jobs[0].out_syncs = (uintptr_t)&out;
		switch (kind) {
		case 0:
			jobs[2].picture.fourcc = DRM_FORMAT_NV12;
			want = -EINVAL;
			break;
		case 1:
			jobs[2].result_handle = 9999;
			want = -ENOENT;
			break;
		case 2:
			jobs[2].in_sync_count = 1;
			jobs[2].in_syncs = (uintptr_t)&in_bad;
			want = -ENOENT;
			break;
		case 3:
			jobs[2].directions = 0;
			want = -EINVAL;
			break;
		default:
			jobs[2].result_size = self->j.caps.layout.size - 1;
			want = -EINVAL;
			break;
		}
		EXPECT_EQ(want, fdif_submit_jobs(self->fd, jobs, N)) TH_LOG("bad job kind %d", kind);
		EXPECT_EQ(fds, fdif_count_fds()) TH_LOG("bad job kind %d: fence fds leaked", kind);
		for (i = 0; i < N; i++) {
			EXPECT_EQ(0, fdif_bo_wait(self->fd, res[i].handle, 0));
			EXPECT_EQ(0xa5a5a5a5u, *(uint32_t *)res[i].map)
				TH_LOG("bad job kind %d: job %d wrote its result", kind, i);
		}
		/* job 0's out-sync got no fence */
		EXPECT_EQ(-ETIME, fdif_syncobj_wait(self->fd, obj, 0, 0));
	}
	/* give the kernel a moment to run anything it wrongly queued */
	usleep(100000);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(0xa5a5a5a5u, *(uint32_t *)res[i].map) TH_LOG("job %d", i);
	}

	/* the next job takes the next seqno */
	good = self->job;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &good));
	EXPECT_EQ(prev + 1, good.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(good.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
	EXPECT_EQ(fds, fdif_count_fds());
	fdif_syncobj_destroy(self->fd, obj);
	for (i = 0; i < N; i++)
		fdif_bo_free(self->fd, &res[i]);
}

/* The most jobs one submission takes, each on its own result. */
TEST_F(job, batch_max_jobs)
{
	uint32_t n = self->j.caps.dev.max_jobs, i;
	struct drm_fdif_job *jobs;
	struct fdif_bo *res;
	struct fdif_box t;
	struct drm_fdif_roi roi;

	ASSERT_EQ(1, fdif_load_truth("astronaut", &t, 1));
	roi = fdif_roi_around(&t);
	jobs = calloc(n, sizeof(*jobs));
	res = calloc(n, sizeof(*res));
	ASSERT_TRUE(jobs && res);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
		jobs[i] = self->job;
		jobs[i].result_handle = res[i].handle;
		jobs[i].roi = i % 2 ? ROI_NO_FACE : roi;
	}
	ASSERT_EQ(0, fdif_submit_jobs(self->fd, jobs, n));
	for (i = 0; i < n; i++) {
		struct drm_fdif_result_header *r = res[i].map;

		EXPECT_EQ(i + 1, jobs[i].seqno);
		ASSERT_EQ(0, fdif_bo_wait_for(self->fd, res[i].handle, WAIT_NS));
		EXPECT_EQ(jobs[i].seqno, r->seqno);
		if (i % 2)
			check_empty(_metadata, r);
		else
			check_astronaut(_metadata, r);
		fdif_bo_free(self->fd, &res[i]);
	}
	free(res);
	free(jobs);
}

/* --- concurrency ------------------------------------------------------ */

struct worker {
	int fd;
	int jobs;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	char why[160];
	int i;

	if (fdif_job_bos_new(w->fd, &j) || fdif_load_picture("astronaut", j.pic.map)) {
		w->failures = w->jobs;
		return NULL;
	}
	for (i = 0; i < w->jobs; i++) {
		struct drm_fdif_result_header *r = fdif_result(&j.result);

		memset(r, 0xff, j.caps.layout.size);
		fdif_job_init(&job, &j);
		if (fdif_submit_one(w->fd, &job) ||
		    fdif_bo_wait_for(w->fd, j.result.handle, WAIT_NS) ||
		    r->seqno != job.seqno || !astronaut_ok(r, why, sizeof(why)))
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
			struct drm_fdif_job jobs[5];
			int fd = fdif_open(), i;

			if (fd < 0 || fdif_job_bos_new(fd, &j))
				_exit(1);
			for (i = 0; i < 5; i++)
				fdif_job_init(&jobs[i], &j);
			/* one single job, then a batch of four */
			if (fdif_submit_one(fd, &jobs[0]) || fdif_submit_jobs(fd, jobs + 1, 4))
				_exit(2);
			_exit(0);	/* the file closes with its jobs queued */
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	/* and the device serves the next client */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_astronaut(_metadata, result_of(&self->j));
}

TEST_HARNESS_MAIN
