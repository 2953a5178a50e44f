// SPDX-License-Identifier: MIT
/*
 * IGT-style test: DRM_IOCTL_FDIF_SUBMIT with synchronisation: an out-fence
 * fd, out-syncs (binary and timeline), in-syncs across files, in the
 * right order, and in-syncs that cannot be waited for.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_submit.h"

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

/*
 * The sync_file closed long before its job ends: the job still runs and
 * ends, and nothing touches the sync_file's fence once it is gone. (Its
 * fence follows the job's from a callback, which held no reference to it:
 * the job's end then signalled freed memory, a KASAN report in the stress
 * boot's run of this suite on the debug kernel.) A fence's memory goes
 * back kfree_rcu()'s batch delay after its release, 5 s on this kernel:
 * the job waits behind LONG jobs of 1.5 s each (the emulated FDIF slowed
 * down, each under the driver's 2 s timeout), 6 s in all.
 */
TEST_F(job, fence_fd_closed_long_before_the_job_ends)
{
	enum { LONG = 4 };
	int i;

	ASSERT_EQ(0, fdif_emu_frame_time(1500000));
	for (i = 0; i < LONG; i++)
		ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_GE(self->job.fence_fd, 0);
	EXPECT_EQ(0, fence_status(self->job.fence_fd, NULL));
	close(self->job.fence_fd);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	ASSERT_EQ(0, fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT));
	EXPECT_EQ(self->job.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
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

TEST_HARNESS_MAIN
