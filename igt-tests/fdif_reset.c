// SPDX-License-Identifier: MIT
/*
 * IGT-style test: recovery from device faults, injected through the
 * emulated FDIF's test registers (QEMU -device omap4-fdif,test-regs=on).
 * The driver must be loaded with a short timeout_ms for the hang cases.
 */
#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#define WAIT_NS		30000000000ll

/* jobs with fences, on a device with the test registers */
FDIF_JOB_FIXTURE(fault,
		 if (!fdif_emu_available())
			SKIP(return, "no emulated FDIF with test registers");
		 self->faults = true;
		 self->job.flags = DRM_FDIF_JOB_FENCE_FD_OUT);

/* Submit the fixture's job and return its fence status (1 or -errno). */
static int run_job(int fd, struct drm_fdif_job *job)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };
	struct pollfd p = { .events = POLLIN };
	int ret = fdif_submit_one(fd, job);

	if (ret)
		return ret;
	p.fd = job->fence_fd;
	if (poll(&p, 1, WAIT_NS / 1000000) != 1)
		ret = -ETIME;
	else if (ioctl(p.fd, SYNC_IOC_FILE_INFO, &file))
		ret = -errno;
	else
		ret = file.status;
	close(p.fd);
	return ret;
}

static void check_good_job(struct __test_metadata *_metadata, int fd,
			   struct fdif_job_bos *j, struct drm_fdif_job *job)
{
	struct drm_fdif_result_header *r = fdif_result(&j->result);

	ASSERT_EQ(1, run_job(fd, job));
	EXPECT_EQ(job->seqno, r->seqno);
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(1, r->count);
}

/* A failed job's result: its status, no objects, a well-formed header. */
static void check_failed(struct __test_metadata *_metadata, struct fdif_job_bos *j,
			 struct drm_fdif_job *job, int status)
{
	struct drm_fdif_result_header *r = fdif_result(&j->result);

	EXPECT_EQ(status, r->status);
	EXPECT_EQ(0, r->count);
	EXPECT_EQ(job->seqno, r->seqno);
	EXPECT_EQ(DRM_FDIF_RESULT_VERSION, r->version);
	EXPECT_EQ(j->caps.layout.header_size, r->header_size);
	EXPECT_EQ(j->caps.layout.capacity, r->capacity);
}

TEST_F(fault, hang)
{
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_HANG, 1));
	EXPECT_EQ(-ETIMEDOUT, run_job(self->fd, &self->job));
	check_failed(_metadata, &self->j, &self->job, -ETIMEDOUT);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
}

/*
 * On OMAP4 the parent target module (ti-sysc) owns SYSCONFIG's idle and
 * standby modes; a recovery (hang, timeout, soft reset) must leave them as
 * they were, not at their reset values (0: force idle, force standby).
 * Smart idle and smart standby (0x28), as ti-sysc would set them, are
 * written first; the emulated module resets them like the real one.
 */
TEST_F(fault, hang_keeps_idle_modes)
{
	volatile uint32_t *regs = fdif_emu_regs_for(fdif_fd_minor(self->fd));
	const uint32_t modes = (2u << 2) | (2u << 4);

	ASSERT_NE(NULL, regs);
	regs[0x10 / 4] = modes;
	ASSERT_EQ(modes, regs[0x10 / 4]);
	ASSERT_EQ(0, fdif_emu_inject_on(fdif_fd_minor(self->fd), FDIF_FAULT_HANG, 1));
	EXPECT_EQ(-ETIMEDOUT, run_job(self->fd, &self->job));
	EXPECT_EQ(modes, regs[0x10 / 4]) TH_LOG("SYSCONFIG after the recovery: 0x%x",
						regs[0x10 / 4]);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
	EXPECT_EQ(modes, regs[0x10 / 4]);
	regs[0x10 / 4] = 0;
}

TEST_F(fault, hang_other_clients_unaffected)
{
	struct fdif_job_bos j2;
	struct drm_fdif_job job2;
	int fd2 = fdif_open();

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd2, &j2));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j2.pic.map));
	fdif_job_init(&job2, &j2);
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_HANG, 1));
	/* the hanging job first, then another client's job behind it */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, fdif_submit_one(fd2, &job2));
	ASSERT_EQ(0, fdif_bo_wait_for(fd2, j2.result.handle, WAIT_NS));
	EXPECT_EQ(0, fdif_result(&j2.result)->status);
	EXPECT_EQ(1, fdif_result(&j2.result)->count);
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, self->j.result.handle, WAIT_NS));
	check_failed(_metadata, &self->j, &self->job, -ETIMEDOUT);
	close(self->job.fence_fd);
	fdif_job_bos_free(fd2, &j2);
	close(fd2);
}

TEST_F(fault, error_irq)
{
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_ERR, 1));
	EXPECT_EQ(-EIO, run_job(self->fd, &self->job));
	check_failed(_metadata, &self->j, &self->job, -EIO);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
}

TEST_F(fault, dma_error)
{
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_DMA, 1));
	EXPECT_EQ(-EIO, run_job(self->fd, &self->job));
	check_failed(_metadata, &self->j, &self->job, -EIO);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
}

TEST_F(fault, spurious_irq)
{
	/* an interrupt with no status: ignored, and the job still finishes */
	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_SPURIOUS, 1));
	check_good_job(_metadata, self->fd, &self->j, &self->job);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
}

/*
 * FINISH latched but the interrupt never raised: the timeout handler finds
 * it in IRQSTATUS_RAW and completes the job with its faces, no reset.
 */
TEST_F(fault, lost_irq)
{
	struct drm_fdif_result_header *r = fdif_result(&self->j.result);

	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_LOST_IRQ, 1));
	EXPECT_EQ(1, run_job(self->fd, &self->job));
	EXPECT_EQ(self->job.seqno, r->seqno);
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(1, r->count);
	check_good_job(_metadata, self->fd, &self->j, &self->job);
}

/*
 * A job waiting (in-sync) for a job that failed does not run on what that
 * job did not produce: it ends with -ECANCELED. The next job runs.
 */
TEST_F(fault, dependency_error_propagates)
{
	struct drm_fdif_sync sync = { 0 };
	struct drm_fdif_job dep = self->job;
	struct fdif_job_bos j2;
	uint32_t obj;

	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &obj));
	sync.handle = obj;
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j2));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j2.pic.map));

	ASSERT_EQ(0, fdif_emu_inject(FDIF_FAULT_ERR, 1));
	self->job.out_sync_count = 1;
	self->job.out_syncs = (uintptr_t)&sync;
	fdif_job_init(&dep, &j2);
	dep.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	dep.in_sync_count = 1;
	dep.in_syncs = (uintptr_t)&sync;
	EXPECT_EQ(-EIO, run_job(self->fd, &self->job));
	check_failed(_metadata, &self->j, &self->job, -EIO);
	EXPECT_EQ(-ECANCELED, run_job(self->fd, &dep));
	check_failed(_metadata, &j2, &dep, -ECANCELED);

	/* without the dependency, the same job runs */
	fdif_job_init(&dep, &j2);
	dep.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	check_good_job(_metadata, self->fd, &j2, &dep);
	fdif_job_bos_free(self->fd, &j2);
	fdif_syncobj_destroy(self->fd, obj);
}

TEST_HARNESS_MAIN
