// SPDX-License-Identifier: MIT
/*
 * IGT-style test: DRM_IOCTL_FDIF_SUBMIT refuses what it cannot run, whole,
 * and queues nothing then: every job field and the submission's own,
 * syncs, user pointers, the result region, and the job_size extension
 * rules. (The other fdif_submit_* programs: valid jobs, syncs, batches.)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_submit.h"

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
	/*
	 * Two jobs, the first asking for a fence fd on a writable page, the
	 * second on a read-only one: the kernel wrote the first's fd number,
	 * then failed. That number is released (a later open() may get it),
	 * so it must not be left in the first job.
	 */
	ro = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	{
		struct drm_fdif_job *two = (void *)((char *)ro + 4096 - sizeof(job));

		two[0] = self->job;
		two[0].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		two[0].fence_fd = -1;
		two[1] = self->job;
		ASSERT_EQ(0, mprotect((char *)ro + 4096, 4096, PROT_READ));
		s.jobs = (uintptr_t)two;
		s.job_count = 2;
		EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_SUBMIT, &s));
		EXPECT_EQ(-1, two[0].fence_fd);
		EXPECT_EQ(fds, fdif_count_fds());
		s.job_count = 1;
	}
	munmap(ro, 8192);
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
	/* one byte past the end: at the start of the page and at its end */
	job.result_offset = 0;
	job.result_size = 4096 + 1;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	job.result_offset = end_off;
	job.result_size = 4096 - end_off + 1;
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

TEST_HARNESS_MAIN
