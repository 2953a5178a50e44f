// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jobs: the submit ioctl, the drm_sched backend (one hardware queue with
 * room for one job, one entity per open file), completion from the
 * interrupt, and recovery from hung jobs.
 *
 * Everything a job needs is allocated in the submit ioctl: run_job and the
 * signalling path (interrupt, timeout) only program registers, copy results
 * and signal fences.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_regs.h"

#define FDIF_MAX_SYNCS		64

static int fdif_timeout_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	/* 0 would time every job out at once */
	if (!ms || ms > 600 * MSEC_PER_SEC)
		return -EINVAL;
	*(unsigned int *)kp->arg = ms;
	return 0;
}

static const struct kernel_param_ops fdif_timeout_ms_ops = {
	.set = fdif_timeout_ms_set,
	.get = param_get_uint,
};

static unsigned int fdif_timeout_ms = 2000;
module_param_cb(timeout_ms, &fdif_timeout_ms_ops, &fdif_timeout_ms, 0444);
MODULE_PARM_DESC(timeout_ms, "time a job may take before the device is reset (ms, 1..600000)");

enum fdif_bo_role {
	FDIF_BO_PICTURE,
	FDIF_BO_WORK,
	FDIF_BO_RESULT,
	FDIF_BO_COUNT,
};

struct fdif_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;	/* for a timeline point */
	u64 point;
};

/**
 * struct fdif_job - one detection
 * @base: the scheduler's job
 * @fdev: the device
 * @ffile: the file it came from (referenced)
 * @bos: picture, work and result BOs (referenced)
 * @picaddr: DMA address of the picture
 * @wkaddr: DMA address of the work area
 * @result: kernel address of the &struct drm_fdif_result
 * @hw: the detection parameters
 * @seqno: sequence number on its file
 * @hw_fence: the hardware fence, allocated at submit, initialised by run_job
 * @hw_fence_init: whether @hw_fence was initialised (and is refcounted)
 * @pm_ref: holds a runtime PM reference, from submit to free
 * @scheduled_cb: on the scheduled fence, to report a job that never ran
 * @start: when it was started on the hardware
 */
struct fdif_job {
	struct drm_sched_job base;
	struct fdif_device *fdev;
	struct fdif_file *ffile;
	struct drm_gem_object *bos[FDIF_BO_COUNT];
	u32 picaddr, wkaddr;
	struct drm_fdif_result *result;
	struct fdif_hw_params hw;
	u64 seqno;
	struct dma_fence *hw_fence;
	bool hw_fence_init;
	bool pm_ref;
	struct dma_fence_cb scheduled_cb;
	ktime_t start;
};

static struct fdif_job *to_fdif_job(struct drm_sched_job *job)
{
	return container_of(job, struct fdif_job, base);
}

static const char *fdif_fence_driver_name(struct dma_fence *fence)
{
	return "fdif";
}

static const char *fdif_fence_timeline_name(struct dma_fence *fence)
{
	return "fdif-hw";
}

static const struct dma_fence_ops fdif_fence_ops = {
	.get_driver_name = fdif_fence_driver_name,
	.get_timeline_name = fdif_fence_timeline_name,
};

static void fdif_pm_idle(struct fdif_device *fdev)
{
	pm_runtime_mark_last_busy(fdev->drm.dev);
	pm_runtime_put_autosuspend(fdev->drm.dev);
}

static void fdif_job_free(struct fdif_job *job)
{
	int i;

	if (job->pm_ref)
		fdif_pm_idle(job->fdev);
	for (i = 0; i < FDIF_BO_COUNT; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	if (job->hw_fence_init)
		dma_fence_put(job->hw_fence);
	else
		kfree(job->hw_fence);
	if (job->ffile)
		fdif_file_put(job->ffile);
	kfree(job);
}

/*
 * End a job: write its result header, account its time, signal its
 * hardware fence. The job may be freed as soon as the fence signals.
 */
static void fdif_job_signal(struct fdif_job *job, int err)
{
	struct drm_fdif_result *res = job->result;

	res->status = err;
	res->seqno = job->seqno;
	if (err)
		res->count = 0;
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), job->start)),
		     &job->ffile->busy_ns);
	if (err)
		dma_fence_set_error(job->hw_fence, err);
	dma_fence_signal(job->hw_fence);
}

static struct fdif_job *fdif_take_active(struct fdif_device *fdev)
{
	struct fdif_job *job;
	unsigned long flags;

	spin_lock_irqsave(&fdev->job_lock, flags);
	job = fdev->active;
	fdev->active = NULL;
	spin_unlock_irqrestore(&fdev->job_lock, flags);
	return job;
}

/**
 * fdif_job_done() - the hardware raised FINISH or ERR for the active job
 * @fdev: the device
 * @events: FDIF_IRQ_* bits, already acknowledged
 *
 * Called from the interrupt handler, and from the timeout handler when it
 * finds the interrupt was lost.
 */
void fdif_job_done(struct fdif_device *fdev, u32 events)
{
	struct fdif_job *job;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	job = fdif_take_active(fdev);
	if (!job) {
		atomic64_inc(&fdev->stats.spurious_irqs);
		dma_fence_end_signalling(cookie);
		return;
	}
	if (events & FDIF_IRQ_ERR) {
		atomic64_inc(&fdev->stats.errors);
		/* the module stopped in an unknown state: start over */
		fdif_hw_reset(fdev);
		fdif_job_signal(job, -EIO);
	} else {
		atomic64_inc(&fdev->stats.completed);
		fdif_hw_read_results(fdev, job->result);
		fdif_job_signal(job, 0);
	}
	dma_fence_end_signalling(cookie);
}

/*
 * The scheduled fence signals after run_job() for a job that ran, and for
 * one dropped with its entity (its process was killed with jobs queued)
 * once its dependencies are done, just before its finished fence: then
 * its result must say so, as the uAPI documents, rather than keep what
 * the BO held. No one else writes that result any more.
 */
static void fdif_job_scheduled(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct fdif_job *job = container_of(cb, struct fdif_job, scheduled_cb);
	struct drm_fdif_result *res = job->result;

	if (job->hw_fence_init)
		return;	/* run_job() or its completion wrote the result */
	res->status = -ECANCELED;
	res->count = 0;
	res->seqno = job->seqno;
	atomic64_inc(&job->fdev->stats.cancelled);
}

static struct dma_fence *fdif_run_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);
	struct fdif_device *fdev = job->fdev;
	struct dma_fence *fence = job->hw_fence;
	int err = sched_job->s_fence->finished.error;
	bool cookie;
	int idx;

	/* the device is powered: the job holds a PM reference since submit */
	cookie = dma_fence_begin_signalling();
	dma_fence_init(fence, &fdif_fence_ops, &fdev->fence_lock,
		       fdev->fence_context, ++fdev->fence_seqno);
	job->hw_fence_init = true;
	job->start = ktime_get();

	if (!err && !drm_dev_enter(&fdev->drm, &idx))
		err = -ENODEV;	/* unplugged: fail what is still queued */
	if (!err && READ_ONCE(fdev->hw_failed)) {
		drm_dev_exit(idx);
		err = -EIO;	/* the module did not come out of reset */
	}
	if (err) {
		/* cancelled, or no hardware to run it on */
		atomic64_inc(&fdev->stats.cancelled);
		fdif_job_signal(job, err);
		goto out;
	}

	spin_lock_irq(&fdev->job_lock);
	fdev->active = job;
	spin_unlock_irq(&fdev->job_lock);
	fdif_hw_run(fdev, job->picaddr, job->wkaddr, &job->hw);
	drm_dev_exit(idx);
out:
	dma_fence_end_signalling(cookie);
	return dma_fence_get(fence);
}

/*
 * Put a job the timeout handler does not reset back on the pending list.
 * drm_sched_job_timedout() in 6.12 took it off before calling us, and only
 * drm_sched_stop() puts it back: a handler that returns without stopping
 * the scheduler must do it itself, or the job is never freed (as
 * etnaviv_sched_timedout_job() does; newer schedulers do this for
 * DRM_GPU_SCHED_STAT_NO_HANG).
 */
static void fdif_job_reinsert(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
}

/* The job on the hardware timed out: a lost interrupt, or a real hang. */
static void fdif_job_hang(struct fdif_device *fdev, struct fdif_job *job)
{
	u32 events = fdif_hw_take_pending(fdev);

	if (events) {
		atomic64_inc(&fdev->stats.missed_irqs);
		drm_warn(&fdev->drm, "job %llu: interrupt lost\n", job->seqno);
		fdif_job_done(fdev, events);
		return;
	}
	atomic64_inc(&fdev->stats.timeouts);
	drm_err(&fdev->drm, "job %llu timed out: resetting the device\n",
		job->seqno);
	fdif_hw_reset(fdev);
	fdif_take_active(fdev);
	fdif_job_signal(job, -ETIMEDOUT);
}

static enum drm_gpu_sched_stat fdif_timedout_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);
	struct fdif_device *fdev = job->fdev;
	enum drm_gpu_sched_stat stat = DRM_GPU_SCHED_STAT_NOMINAL;
	bool present, owned, cookie;
	int idx;

	mutex_lock(&fdev->reset_lock);
	/*
	 * Park the scheduler's work: every job on the pending list has been
	 * through run_job (its hardware fence is initialised), and no next
	 * job reaches the hardware while we look at this one or reset it.
	 */
	drm_sched_wqueue_stop(&fdev->sched);

	present = drm_dev_enter(&fdev->drm, &idx);
	if (present)
		disable_irq(fdev->irq);
	/* from here to enable_irq(): reset and signal, no waits, no allocation */
	cookie = dma_fence_begin_signalling();
	spin_lock_irq(&fdev->job_lock);
	owned = fdev->active == job;
	spin_unlock_irq(&fdev->job_lock);

	if (!owned) {
		/*
		 * Its interrupt came as its timer fired (or the unbind ended
		 * it): the hardware fence has signalled, or is being signalled
		 * by whoever took it off the hardware, and the next job may
		 * already run. Nothing to recover; stopping the scheduler now
		 * would cancel that next job under the hardware.
		 */
	} else if (!present) {
		/*
		 * Unplugged, and the job is still on the hardware:
		 * fdif_job_abort_active(), called from remove under
		 * reset_lock after us, resets the module and ends it with
		 * -ENODEV.
		 */
		stat = DRM_GPU_SCHED_STAT_ENODEV;
	} else if (ktime_ms_delta(ktime_get(), job->start) < fdif_timeout_ms / 2) {
		/*
		 * The timer was the previous job's: it fired as that job
		 * completed, and the scheduler handed us the next one, which
		 * has only just started. Not a hang.
		 */
	} else {
		fdif_job_hang(fdev, job);
	}
	dma_fence_end_signalling(cookie);
	if (present) {
		enable_irq(fdev->irq);
		drm_dev_exit(idx);
	}

	/*
	 * Whichever way it went, the job's hardware fence has signalled or
	 * will be by its owner, which retires it through the scheduler's
	 * callback: no drm_sched_stop()/drm_sched_start() (which would drop
	 * and cancel the hardware fence of a next job already running).
	 */
	fdif_job_reinsert(sched_job);
	if (!fdev->suspended)
		drm_sched_wqueue_start(&fdev->sched);
	mutex_unlock(&fdev->reset_lock);
	return stat;
}

/**
 * fdif_sched_suspend() - park the queue for system sleep
 * @fdev: the device
 *
 * No job is started until fdif_sched_resume(); the one on the hardware is
 * waited for (it ends, fails or times out).
 *
 * Return: 0, or -EBUSY if it did not end within twice the job timeout.
 */
int fdif_sched_suspend(struct fdif_device *fdev)
{
	struct dma_fence *fence = NULL;
	long left = 1;

	mutex_lock(&fdev->reset_lock);
	fdev->suspended = true;
	drm_sched_wqueue_stop(&fdev->sched);
	spin_lock_irq(&fdev->job_lock);
	if (fdev->active)
		fence = dma_fence_get(fdev->active->hw_fence);
	spin_unlock_irq(&fdev->job_lock);
	mutex_unlock(&fdev->reset_lock);

	/* not under reset_lock: the timeout handler may have to end it */
	if (fence) {
		left = dma_fence_wait_timeout(fence, false,
					      2 * msecs_to_jiffies(fdif_timeout_ms));
		dma_fence_put(fence);
	}
	if (left > 0)
		return 0;
	drm_warn(&fdev->drm, "job still running: suspend refused\n");
	fdif_sched_resume(fdev);
	return -EBUSY;
}

/**
 * fdif_sched_resume() - let the queue run again after system sleep
 * @fdev: the device
 */
void fdif_sched_resume(struct fdif_device *fdev)
{
	mutex_lock(&fdev->reset_lock);
	fdev->suspended = false;
	drm_sched_wqueue_start(&fdev->sched);
	mutex_unlock(&fdev->reset_lock);
}

static void fdif_free_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	fdif_job_free(job);
}

static const struct drm_sched_backend_ops fdif_sched_ops = {
	.run_job = fdif_run_job,
	.timedout_job = fdif_timedout_job,
	.free_job = fdif_free_job,
};

static void fdif_sched_fini(struct drm_device *drm, void *arg)
{
	drm_sched_fini(&to_fdif_device(drm)->sched);
}

/**
 * fdif_sched_init() - set up the hardware queue
 * @fdev: the device
 *
 * The scheduler lives as long as the drm_device, past an unbind, until the
 * last open file is closed: entities of open files still point at it.
 *
 * Return: 0 or a negative errno.
 */
int fdif_sched_init(struct fdif_device *fdev)
{
	const struct drm_sched_init_args args = {
		.ops = &fdif_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = msecs_to_jiffies(fdif_timeout_ms),
		.name = dev_name(fdev->drm.dev),
		.dev = fdev->drm.dev,
	};
	int ret;

	fdev->fence_context = dma_fence_context_alloc(1);
	ret = drm_sched_init(&fdev->sched, &args);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&fdev->drm, fdif_sched_fini, NULL);
}

/**
 * fdif_job_abort_active() - end the job on the hardware, the device is going
 * @fdev: the device, already unplugged (no job will be started any more)
 */
void fdif_job_abort_active(struct fdif_device *fdev)
{
	struct fdif_job *job;
	bool cookie;

	/* after a timeout handler that saw the job, or before one that won't */
	mutex_lock(&fdev->reset_lock);
	disable_irq(fdev->irq);
	cookie = dma_fence_begin_signalling();
	job = fdif_take_active(fdev);
	if (job) {
		fdif_hw_reset(fdev);
		atomic64_inc(&fdev->stats.cancelled);
		fdif_job_signal(job, -ENODEV);
	}
	dma_fence_end_signalling(cookie);
	enable_irq(fdev->irq);
	mutex_unlock(&fdev->reset_lock);
}

/*
 * Look a BO up and check that @len bytes at @offset lie inside it, at an
 * address the 32-bit, @align-aligned address registers can take.
 */
static int fdif_job_pm_get(struct fdif_device *fdev, struct fdif_job *job)
{
	int ret, idx;

	if (!drm_dev_enter(&fdev->drm, &idx))
		return -ENODEV;
	ret = pm_runtime_resume_and_get(fdev->drm.dev);
	drm_dev_exit(idx);
	if (ret < 0)
		return ret;
	job->pm_ref = true;
	return 0;
}

static int fdif_lookup_bo(struct drm_file *file, struct fdif_job *job,
			  enum fdif_bo_role role, u32 handle, u32 offset,
			  size_t len, u32 align, dma_addr_t *addr)
{
	struct drm_gem_dma_object *dma;
	struct drm_gem_object *obj;

	obj = drm_gem_object_lookup(file, handle);
	if (!obj)
		return -ENOENT;
	job->bos[role] = obj;
	dma = to_drm_gem_dma_obj(obj);
	if (!IS_ALIGNED(offset, align) || offset > obj->size ||
	    len > obj->size - offset)
		return -EINVAL;
	*addr = dma->dma_addr + offset;
	if (*addr + len - 1 > U32_MAX)
		return -EINVAL;
	return 0;
}

static int fdif_lookup_bos(struct drm_file *file, struct fdif_job *job,
			   const struct drm_fdif_submit *args)
{
	struct drm_gem_dma_object *res;
	dma_addr_t addr;
	int ret;

	ret = fdif_lookup_bo(file, job, FDIF_BO_PICTURE, args->picture_handle,
			     args->picture_offset,
			     (size_t)args->stride * args->height,
			     FDIF_ADDR_ALIGN, &addr);
	if (ret)
		return ret;
	job->picaddr = addr;
	ret = fdif_lookup_bo(file, job, FDIF_BO_WORK, args->work_handle,
			     args->work_offset, FDIF_WORK_SIZE, FDIF_ADDR_ALIGN,
			     &addr);
	if (ret)
		return ret;
	job->wkaddr = addr;
	ret = fdif_lookup_bo(file, job, FDIF_BO_RESULT, args->result_handle,
			     args->result_offset, sizeof(struct drm_fdif_result),
			     8, &addr);
	if (ret)
		return ret;
	/* the kernel writes the result: it must be one of our own BOs */
	res = to_drm_gem_dma_obj(job->bos[FDIF_BO_RESULT]);
	if (!res->vaddr || job->bos[FDIF_BO_RESULT]->import_attach)
		return -EINVAL;
	job->result = res->vaddr + args->result_offset;
	return 0;
}

static int fdif_copy_in_syncs(struct drm_file *file, struct fdif_job *job,
			      const struct drm_fdif_submit *args)
{
	struct drm_fdif_sync __user *uptr = u64_to_user_ptr(args->in_syncs);
	struct drm_fdif_sync s;
	u32 i;
	int ret;

	for (i = 0; i < args->in_sync_count; i++) {
		if (copy_from_user(&s, uptr + i, sizeof(s)))
			return -EFAULT;
		if (s.flags)
			return -EINVAL;
		ret = drm_sched_job_add_syncobj_dependency(&job->base, file,
							   s.handle, s.point);
		if (ret)
			return ret;
	}
	return 0;
}

static void fdif_out_syncs_free(struct fdif_out_sync *out, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (out[i].syncobj)
			drm_syncobj_put(out[i].syncobj);
		dma_fence_chain_free(out[i].chain);
	}
	kvfree(out);
}

static struct fdif_out_sync *fdif_copy_out_syncs(struct drm_file *file,
						 const struct drm_fdif_submit *args)
{
	struct drm_fdif_sync __user *uptr = u64_to_user_ptr(args->out_syncs);
	struct fdif_out_sync *out;
	struct drm_fdif_sync s;
	int ret = 0;
	u32 i;

	out = kvcalloc(args->out_sync_count, sizeof(*out), GFP_KERNEL);
	if (!out)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < args->out_sync_count; i++) {
		if (copy_from_user(&s, uptr + i, sizeof(s))) {
			ret = -EFAULT;
			break;
		}
		if (s.flags) {
			ret = -EINVAL;
			break;
		}
		out[i].syncobj = drm_syncobj_find(file, s.handle);
		if (!out[i].syncobj) {
			ret = -ENOENT;
			break;
		}
		out[i].point = s.point;
		if (s.point) {
			out[i].chain = dma_fence_chain_alloc();
			if (!out[i].chain) {
				ret = -ENOMEM;
				break;
			}
		}
	}
	if (ret) {
		fdif_out_syncs_free(out, args->out_sync_count);
		return ERR_PTR(ret);
	}
	return out;
}

static void fdif_signal_out_syncs(struct fdif_out_sync *out, u32 count,
				  struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (out[i].chain) {
			drm_syncobj_add_point(out[i].syncobj, out[i].chain,
					      fence, out[i].point);
			out[i].chain = NULL;	/* consumed */
		} else {
			drm_syncobj_replace_fence(out[i].syncobj, fence);
		}
	}
}

/* The job's BOs without duplicates (one BO may play several roles). */
static int fdif_unique_bos(struct fdif_job *job, struct drm_gem_object **objs,
			   bool *write)
{
	int i, j, n = 0;

	for (i = 0; i < FDIF_BO_COUNT; i++) {
		for (j = 0; j < n; j++)
			if (objs[j] == job->bos[i])
				break;
		if (j == n) {
			objs[n] = job->bos[i];
			write[n++] = false;
		}
		/* the device reads the picture, writes work area and result */
		if (i != FDIF_BO_PICTURE)
			write[j] = true;
	}
	return n;
}

/*
 * A sync_file allocated before the job is armed, on a placeholder fence:
 * past drm_sched_job_arm() the job must be pushed, and nothing may fail.
 */
static struct sync_file *fdif_sync_file_alloc(void)
{
	struct dma_fence *stub = dma_fence_get_stub();
	struct sync_file *sync_file = sync_file_create(stub);

	dma_fence_put(stub);
	return sync_file;
}

int fdif_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct fdif_device *fdev = to_fdif_device(drm);
	struct fdif_file *ffile = file->driver_priv;
	struct drm_fdif_submit *args = data;
	struct drm_gem_object *objs[FDIF_BO_COUNT];
	bool write[FDIF_BO_COUNT];
	struct fdif_out_sync *out = NULL;
	struct ww_acquire_ctx ctx;
	struct sync_file *sync_file = NULL;
	struct dma_fence *done;
	struct fdif_job *job;
	int ret, i, n, fd = -1;

	ret = fdif_params_check(args);
	if (ret)
		return ret;
	if (drm_dev_is_unplugged(drm))
		return -ENODEV;
	if (args->in_sync_count > FDIF_MAX_SYNCS ||
	    args->out_sync_count > FDIF_MAX_SYNCS)
		return -EINVAL;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL);
	if (!job->hw_fence) {
		kfree(job);
		return -ENOMEM;
	}
	job->fdev = fdev;
	kref_get(&ffile->refcount);
	job->ffile = ffile;
	fdif_params_pack(args, &job->hw);

	ret = fdif_lookup_bos(file, job, args);
	if (ret)
		goto err_free;

	/*
	 * Power the device up here, where we may sleep and take the PM
	 * core's locks, not in run_job (the fence signalling path): the
	 * reference is dropped when the job is freed.
	 */
	ret = fdif_job_pm_get(fdev, job);
	if (ret)
		goto err_free;

	ret = drm_sched_job_init(&job->base, &ffile->entity, 1, ffile,
				 file->client_id);
	if (ret)
		goto err_free;

	ret = fdif_copy_in_syncs(file, job, args);
	if (ret)
		goto err_cleanup;
	if (args->out_sync_count) {
		out = fdif_copy_out_syncs(file, args);
		if (IS_ERR(out)) {
			ret = PTR_ERR(out);
			out = NULL;
			goto err_cleanup;
		}
	}
	if (args->flags & DRM_FDIF_SUBMIT_FENCE_FD_OUT) {
		fd = get_unused_fd_flags(O_CLOEXEC);
		if (fd < 0) {
			ret = fd;
			goto err_cleanup;
		}
		sync_file = fdif_sync_file_alloc();
		if (!sync_file) {
			ret = -ENOMEM;
			goto err_cleanup;
		}
	}

	n = fdif_unique_bos(job, objs, write);
	ret = drm_gem_lock_reservations(objs, n, &ctx);
	if (ret)
		goto err_cleanup;
	for (i = 0; i < n; i++) {
		ret = dma_resv_reserve_fences(objs[i]->resv, 1);
		if (!ret)
			ret = drm_sched_job_add_implicit_dependencies(&job->base,
								      objs[i],
								      write[i]);
		if (ret)
			goto err_unlock;
	}

	mutex_lock(&ffile->submit_lock);
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	job->seqno = atomic64_inc_return(&ffile->seqno);
	for (i = 0; i < n; i++)
		dma_resv_add_fence(objs[i]->resv, done, write[i] ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	if (sync_file) {
		/* not visible to anyone yet: swap the placeholder for the job */
		dma_fence_put(sync_file->fence);
		sync_file->fence = dma_fence_get(done);
	}
	atomic64_inc(&fdev->stats.submitted);
	args->seqno = job->seqno;
	/* cannot fail: the job is not pushed yet */
	dma_fence_add_callback(&job->base.s_fence->scheduled,
			       &job->scheduled_cb, fdif_job_scheduled);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&ffile->submit_lock);
	drm_gem_unlock_reservations(objs, n, &ctx);

	if (out) {
		fdif_signal_out_syncs(out, args->out_sync_count, done);
		fdif_out_syncs_free(out, args->out_sync_count);
	}
	/*
	 * Nothing fails past drm_sched_job_arm(). The fd is installed last;
	 * drm_ioctl() copies fence_fd out after we return, so a caller whose
	 * arguments are not writable gets -EFAULT with the fd in its table
	 * (as with every DRM driver's out-fence: the handler never sees the
	 * user pointer).
	 */
	if (sync_file) {
		fd_install(fd, sync_file->file);
		args->fence_fd = fd;
	}
	dma_fence_put(done);
	return 0;

err_unlock:
	drm_gem_unlock_reservations(objs, n, &ctx);
err_cleanup:
	if (sync_file)
		fput(sync_file->file);
	if (fd >= 0)
		put_unused_fd(fd);
	if (out)
		fdif_out_syncs_free(out, args->out_sync_count);
	drm_sched_job_cleanup(&job->base);
err_free:
	fdif_job_free(job);
	return ret;
}
