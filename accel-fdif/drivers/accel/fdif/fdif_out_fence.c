// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fence of a job's sync_file (DRM_FDIF_JOB_FENCE_FD_OUT). The
 * sync_file is made before the job is armed, since nothing may fail after
 * that, so it cannot hold the job's finished fence, which does not exist
 * yet: it holds this fence, which follows that one once the job is armed.
 *
 * It holds the device and the module until it is released, as the
 * hardware fence does: a sync_file of it can be asked for its timeline
 * (the device's name) after the device is unbound, and after the job,
 * killed before it ran, is gone with the scheduler's fences' last hold on
 * the scheduler (the scheduler fence's own name lookup reads it).
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "fdif_drv.h"
#include "fdif_job.h"

/**
 * struct fdif_out_fence - a fence that follows a job's finished fence
 * @base: the fence
 * @lock: its lock
 * @fdev: its device (referenced, and the module with it)
 * @cb: on the job's finished fence, signals @base with its error (and
 *	holds a reference to @base until it has run)
 * @release_work: drops the references and frees the fence
 */
struct fdif_out_fence {
	struct dma_fence base;
	spinlock_t lock;	/* the fence's, nothing else */
	struct fdif_device *fdev;
	struct dma_fence_cb cb;
	struct work_struct release_work;
};

static struct fdif_out_fence *to_out_fence(struct dma_fence *fence)
{
	return container_of(fence, struct fdif_out_fence, base);
}

static const char *fdif_out_fence_driver_name(struct dma_fence *fence)
{
	return "fdif";
}

/* The device's name, as its scheduler's fences give: the device is held */
static const char *fdif_out_fence_timeline_name(struct dma_fence *fence)
{
	return dev_name(to_out_fence(fence)->fdev->drm.dev);
}

static void fdif_out_fence_release_work(struct work_struct *work)
{
	struct fdif_out_fence *f = container_of(work, struct fdif_out_fence,
						release_work);
	struct fdif_device *fdev = f->fdev;

	dma_fence_free(&f->base);	/* RCU-delayed: readers may still look */
	drm_dev_put(&fdev->drm);
	module_put(THIS_MODULE);
}

/* The last reference, in any context: the rest goes from a work item. */
static void fdif_out_fence_release(struct dma_fence *fence)
{
	struct fdif_out_fence *f = to_out_fence(fence);

	INIT_WORK(&f->release_work, fdif_out_fence_release_work);
	fdif_release_later(&f->release_work);
}

static const struct dma_fence_ops fdif_out_fence_ops = {
	.get_driver_name = fdif_out_fence_driver_name,
	.get_timeline_name = fdif_out_fence_timeline_name,
	.release = fdif_out_fence_release,
};

/**
 * fdif_out_fence_create() - a fence to follow a job not armed yet
 * @fdev: the device, from an ioctl of an open file (which pins it and the module)
 *
 * Each has a context of its own: jobs of different files end in the order
 * the scheduler runs them, not the order they were submitted in.
 *
 * Return: the fence (one reference), or NULL.
 */
struct dma_fence *fdif_out_fence_create(struct fdif_device *fdev)
{
	struct fdif_out_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	f->fdev = fdev;
	drm_dev_get(&fdev->drm);
	__module_get(THIS_MODULE);
	dma_fence_init(&f->base, &fdif_out_fence_ops, &f->lock,
		       dma_fence_context_alloc(1), 1);
	return &f->base;
}

static void fdif_out_fence_signal(struct dma_fence *job, struct dma_fence_cb *cb)
{
	struct fdif_out_fence *f = container_of(cb, struct fdif_out_fence, cb);

	if (job->error)
		dma_fence_set_error(&f->base, job->error);
	dma_fence_signal(&f->base);
	/* the callback's: maybe the last, whose release is a work item */
	dma_fence_put(&f->base);
}

/**
 * fdif_out_fence_follow() - signal the fence when the job ends, with its error
 * @fence: from fdif_out_fence_create(), not followed yet
 * @job: the job's finished fence, armed
 *
 * Allocates nothing and cannot fail: called between arming the job and
 * pushing it. The callback holds a reference to the fence: the sync_file
 * may be closed, and drop the last other one, before the job ends.
 */
void fdif_out_fence_follow(struct dma_fence *fence, struct dma_fence *job)
{
	struct fdif_out_fence *f = to_out_fence(fence);

	dma_fence_get(fence);
	/* a job armed and not pushed yet cannot have ended */
	if (WARN_ON_ONCE(dma_fence_add_callback(job, &f->cb, fdif_out_fence_signal)))
		fdif_out_fence_signal(job, &f->cb);
}

/**
 * fdif_out_fence_of() - whether a fence is a sync_file fence of a device
 * @fence: any fence
 * @fdev: the device
 *
 * Return: true if @fence is one of @fdev's sync_file fences (which hold it).
 */
bool fdif_out_fence_of(struct dma_fence *fence, struct fdif_device *fdev)
{
	return fence->ops == &fdif_out_fence_ops && to_out_fence(fence)->fdev == fdev;
}
