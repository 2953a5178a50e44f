/* SPDX-License-Identifier: MIT */
/*
 * What the fdif_submit_* programs share (the tests of
 * DRM_IOCTL_FDIF_SUBMIT, one program a concern): the job fixture, a file
 * with the astronaut in a picture BO, a work area and a result region,
 * and a valid job on them (fdif_test.h's FDIF_JOB_FIXTURE); and the
 * checks of a job's result. Include it
 * after kselftest_harness.h and fdif_test.h: each program gets its own
 * copy of the fixture (the harness keeps one list of tests a program).
 */
#ifndef FDIF_SUBMIT_H
#define FDIF_SUBMIT_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "fdif_test.h"

#define WAIT_NS		20000000000ll	/* 20 s: TCG is slow, the test is not */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* An ROI without the astronaut's face: the picture's lower half. */
#define ROI_NO_FACE	((struct drm_fdif_roi){ 0, 120, 320, 120 })

FDIF_JOB_FIXTURE(job);

static inline struct drm_fdif_result_header *result_of(struct fdif_job_bos *j)
{
	return fdif_result(&j->result);
}

static inline int wait_result(int fd, struct fdif_job_bos *j)
{
	return fdif_bo_wait_for(fd, j->result.handle, WAIT_NS);
}

/* The astronaut's one face, on the box a person marked (astronaut.truth). */
static inline bool astronaut_ok(const struct drm_fdif_result_header *r, char *why, size_t len)
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

static inline void check_astronaut(struct __test_metadata *_metadata,
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
static inline void check_empty(struct __test_metadata *_metadata,
			       const struct drm_fdif_result_header *r)
{
	char why[160] = "";

	EXPECT_EQ(0, r->status);
	EXPECT_EQ(0, r->count);
	EXPECT_EQ(0, fdif_result_check(r, NULL, 0, why, sizeof(why))) TH_LOG("%s", why);
}

static inline int fence_status(int fence_fd, uint64_t *timestamp)
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
static inline int submit_raw(int fd, void *jobs, uint32_t count, uint32_t job_size)
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
static inline void check_nothing_queued(struct __test_metadata *_metadata,
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

#endif
