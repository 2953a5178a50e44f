/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A detection job, shared by the submit ioctl that makes it and the
 * scheduler backend that runs it.
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_JOB_H__
#define __FDIF_JOB_H__

#include <linux/dma-fence.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>

#include <drm/gpu_scheduler.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_omap4.h"

struct drm_gem_object;
struct fdif_device;
struct fdif_file;

/* The BOs of a job, by role (one BO may play several; NULL until looked up) */
enum fdif_bo_role {
	FDIF_BO_PICTURE,
	FDIF_BO_WORK,
	FDIF_BO_RESULT,
	FDIF_BO_COUNT,
};

/**
 * struct fdif_hw_fence - a job's hardware fence
 * @base: the fence
 * @fdev: its device (referenced, and the module with it): the scheduler's
 *	fences keep this one as their parent, in a sync_file or a BO's
 *	reservation maybe long after the job and the device's last file
 * @release_work: drops them and frees the fence, once it is released
 */
struct fdif_hw_fence {
	struct dma_fence base;
	struct fdif_device *fdev;
	struct work_struct release_work;
};

/**
 * struct fdif_job - one detection
 * @base: the scheduler's job
 * @fdev: the device (referenced, and the module with it)
 * @ffile: the file it came from (referenced)
 * @bos: its BOs by &enum fdif_bo_role (referenced)
 * @result: kernel address of its result region (header, then objects)
 * @hw: what the hardware is programmed with
 * @seqno: sequence number on its file
 * @hw_fence: the hardware fence (&fdif_hw_fence.base), allocated at submit,
 *	initialised by run_job
 * @hw_fence_init: whether @hw_fence was initialised (and is refcounted)
 * @pm_ref: holds a runtime PM reference, from submit to free
 * @scheduled_cb: on the scheduled fence, to report a job that never ran
 * @start: when it was started on the hardware; 0 if it never was
 * @in_fences: the fences of its in-syncs (referenced), to see at run time
 *	whether one failed
 * @num_in_fences: entries in @in_fences
 * @queue_node: in &fdif_device.queued while it waits for the module
 * @release_work: drops the device and module references, last
 */
struct fdif_job {
	struct drm_sched_job base;
	struct fdif_device *fdev;
	struct fdif_file *ffile;
	struct drm_gem_object *bos[FDIF_BO_COUNT];
	struct drm_fdif_result_header *result;
	struct fdif_hw_job hw;
	u64 seqno;
	struct dma_fence *hw_fence;
	bool hw_fence_init;
	bool pm_ref;
	struct dma_fence_cb scheduled_cb;
	ktime_t start;
	struct dma_fence **in_fences;
	u32 num_in_fences;
	struct list_head queue_node;
	struct work_struct release_work;
};

/*
 * The BO in role @k of @bos (a job's, by role), if this is the first role
 * it plays there (one BO may be picture, work area and result at once),
 * else NULL.
 */
static inline struct drm_gem_object *
fdif_bo_once(struct drm_gem_object *const bos[FDIF_BO_COUNT], int k)
{
	int i;

	for (i = 0; i < k; i++)
		if (bos[i] == bos[k])
			return NULL;
	return bos[k];
}

static inline struct fdif_job *to_fdif_job(struct drm_sched_job *job)
{
	return container_of(job, struct fdif_job, base);
}

struct fdif_job *fdif_job_alloc(struct fdif_device *fdev);
struct dma_fence *fdif_hw_fence_alloc(struct fdif_device *fdev);
void fdif_release_later(struct work_struct *work);
struct dma_fence *fdif_out_fence_create(struct fdif_device *fdev);
void fdif_out_fence_follow(struct dma_fence *fence, struct dma_fence *job);
bool fdif_out_fence_of(struct dma_fence *fence, struct fdif_device *fdev);
void fdif_job_free(struct fdif_job *job);
void fdif_job_scheduled(struct dma_fence *fence, struct dma_fence_cb *cb);

#endif /* __FDIF_JOB_H__ */
