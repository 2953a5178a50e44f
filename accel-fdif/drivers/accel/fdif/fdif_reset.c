// SPDX-License-Identifier: GPL-2.0-only
/*
 * Soft resets, and what a reset that does not complete leaves behind:
 * until one completes no job is started, and the BOs of the job the
 * module may still be running stay with the device.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/workqueue.h>

#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "fdif_drv.h"
#include "fdif_job.h"
#include "fdif_omap4.h"

/**
 * fdif_hw_init() - soft-reset the module and set it up for jobs
 * @fdev: the device, powered
 *
 * Discards anything the hardware was doing. Called at runtime resume and
 * after a fault. Until a reset completes, no job is started (a job's start
 * in run_job, or after a reset, tries once more, then fails it with -EIO);
 * once one does, the BOs a failed one kept are let go.
 *
 * Context: may sleep (the reset's poll); takes @fdev's job_lock, which the
 * caller must not hold.
 *
 * Return: 0 or -ETIMEDOUT if the reset does not complete.
 */
int fdif_hw_init(struct fdif_device *fdev)
{
	int ret = fdif_omap4_hw_init(fdev);
	unsigned long flags;
	bool release;

	WRITE_ONCE(fdev->hw_failed, ret != 0);
	if (ret)
		return ret;
	spin_lock_irqsave(&fdev->job_lock, flags);
	release = fdev->holding;
	fdev->held_reset = release;
	spin_unlock_irqrestore(&fdev->job_lock, flags);
	if (release)
		queue_work(system_wq, &fdev->held_work);
	return 0;
}

/**
 * fdif_hw_reset() - soft-reset the module after a fault
 * @fdev: the device, powered, no job on it
 */
void fdif_hw_reset(struct fdif_device *fdev)
{
	atomic64_inc(&fdev->stats.resets);
	fdif_hw_init(fdev);
}

/**
 * fdif_reset_from() - soft-reset the module that was running a job
 * @fdev: the device, powered
 * @job: the job, off the hardware, its fence not signalled yet
 *
 * If the reset fails, the module may still be running it, reading its
 * picture and writing its work area: its BOs stay with the device, so that
 * their memory is not reused, until a reset completes. BOs still held from
 * an earlier failure go to the job instead, to be freed with it: this job
 * ran, so a reset completed since.
 */
void fdif_reset_from(struct fdif_device *fdev, struct fdif_job *job)
{
	unsigned long flags;
	u32 i;

	fdif_hw_reset(fdev);
	if (!READ_ONCE(fdev->hw_failed))
		return;
	spin_lock_irqsave(&fdev->job_lock, flags);
	for (i = 0; i < FDIF_BO_COUNT; i++)
		swap(fdev->held[i], job->bos[i]);
	WRITE_ONCE(fdev->holding, true);
	fdev->held_reset = false;
	spin_unlock_irqrestore(&fdev->job_lock, flags);
}

/*
 * Let go of the BOs a failed reset kept: once a reset has completed since
 * they were kept, or when the device is unbound (@unbound). A later reset
 * that fails does not bring their job back: one that fails for another job
 * swaps that job's BOs in (fdif_reset_from()), one that fails at a resume
 * had no job. A device unbound with no reset completed since they were
 * kept leaves a module that may still run their job: their memory is given
 * up for good (fdif_gem_lose()).
 */
static void fdif_held_release(struct fdif_device *fdev, bool unbound)
{
	struct drm_gem_object *bos[FDIF_BO_COUNT] = { };
	size_t lost = 0;
	bool in_use;
	u32 i;

	spin_lock_irq(&fdev->job_lock);
	in_use = !fdev->held_reset;
	if (unbound || !in_use) {
		for (i = 0; i < FDIF_BO_COUNT; i++)
			swap(bos[i], fdev->held[i]);
		WRITE_ONCE(fdev->holding, false);
		fdev->held_reset = false;
	}
	spin_unlock_irq(&fdev->job_lock);
	for (i = 0; i < FDIF_BO_COUNT; i++) {
		if (!bos[i])
			continue;
		if (in_use && fdif_bo_once(bos, i))
			lost += fdif_gem_lose(fdev, bos[i]);
		drm_gem_object_put(bos[i]);
	}
	if (lost)
		drm_warn(&fdev->drm,
			 "unbound with no reset completed: leaking %zu bytes the module may still use\n",
			 lost);
}

static void fdif_held_work(struct work_struct *work)
{
	fdif_held_release(container_of(work, struct fdif_device, held_work), false);
}

/**
 * fdif_reset_init() - set up the device's reset state, before its first reset
 * @fdev: the device
 */
void fdif_reset_init(struct fdif_device *fdev)
{
	INIT_WORK(&fdev->held_work, fdif_held_work);
}

/**
 * fdif_reset_unbind() - let go of what a failed reset kept, the device unbound
 * @fdev: the device, unplugged, its last job off the module
 *
 * Nothing resets the module any more. Without a completed reset since the
 * last failed one, the module may still run the kept BOs' job: their
 * memory is never freed. Not left to the device's release: the kept BOs'
 * fences hold the device.
 */
void fdif_reset_unbind(struct fdif_device *fdev)
{
	cancel_work_sync(&fdev->held_work);
	fdif_held_release(fdev, true);
}

/**
 * fdif_reset_fini() - the device going, its last reference gone
 * @fdev: the device
 */
void fdif_reset_fini(struct fdif_device *fdev)
{
	cancel_work_sync(&fdev->held_work);
	drm_WARN_ON(&fdev->drm, READ_ONCE(fdev->holding));
}
