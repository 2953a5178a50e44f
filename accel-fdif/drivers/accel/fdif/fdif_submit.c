// SPDX-License-Identifier: GPL-2.0-only
/*
 * The submit ioctl: a batch of detection jobs, checked and prepared as a
 * whole (BO lookups, syncobjs, fences, sync_files, a PM reference each),
 * then queued in order on the file's scheduler entity. Nothing can fail
 * once the first job is armed, so a batch is queued whole or not at all.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_syncobj.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_job.h"
#include "fdif_omap4.h"
#include "fdif_params.h"

static_assert(offsetofend(struct drm_fdif_job, seqno) == FDIF_JOB_SIZE_V1);

struct fdif_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;	/* for a timeline point */
	u64 point;
};

/* One entry of a submission while it is being prepared. */
struct fdif_submit_entry {
	struct drm_fdif_job args;
	struct fdif_job *job;
	bool sched_init;
	struct fdif_out_sync *out;
	struct dma_fence *out_fence;	/* the sync_file's (fdif_out_fence.c) */
	struct sync_file *sync_file;
	int fd;
	struct dma_fence *done;
};

/**
 * fdif_job_size_ok() - whether the driver reads jobs of this size
 * @size: &drm_fdif_submit.job_size
 *
 * Return: true from the first version's size to %FDIF_JOB_SIZE_MAX.
 */
bool fdif_job_size_ok(u32 size)
{
	return size >= FDIF_JOB_SIZE_V1 && size <= FDIF_JOB_SIZE_MAX;
}

/**
 * fdif_job_from_user() - read one job of a submission
 * @job: where it goes
 * @ksize: bytes at @job: sizeof(struct drm_fdif_job) as this kernel knows it
 * @ujob: the job in the caller's array
 * @usize: its size, &drm_fdif_submit.job_size (fdif_job_size_ok())
 *
 * How jobs grow, by copy_struct_from_user()'s rule: a job shorter than the
 * kernel's (a caller built against an older header) reads as if its
 * missing tail were zero; a longer one (a newer header) is taken if the
 * tail this kernel does not know is zero. @ksize is not fixed here so that
 * KUnit can read a job as a kernel with a longer struct would.
 *
 * Return: 0, -E2BIG for a longer job whose unknown tail is not zero, or
 * -EFAULT.
 */
int fdif_job_from_user(void *job, size_t ksize, const void __user *ujob,
		       u32 usize)
{
	return copy_struct_from_user(job, ksize, ujob, usize);
}

static int fdif_job_pm_get(struct fdif_device *fdev, struct fdif_job *job)
{
	int ret = fdif_pm_job_get(fdev);

	if (ret)
		return ret;
	job->pm_ref = true;
	return 0;
}

/*
 * Look a BO up and check that @len bytes at @offset lie inside it, at an
 * @align-aligned address the module's address registers can take.
 */
static int fdif_lookup_bo(struct drm_file *file, struct fdif_job *job,
			  enum fdif_bo_role role, u32 handle, u32 offset,
			  u64 len, u32 align, dma_addr_t *addr)
{
	struct drm_gem_dma_object *dma;
	struct drm_gem_object *obj;

	obj = drm_gem_object_lookup(file, handle);
	if (!obj)
		return -ENOENT;
	job->bos[role] = obj;
	dma = to_drm_gem_dma_obj(obj);
	if (!len || !IS_ALIGNED(offset, align) || offset > obj->size ||
	    len > obj->size - offset)
		return -EINVAL;
	*addr = dma->dma_addr + offset;
	if (*addr + len - 1 > DMA_BIT_MASK(FDIF_DMA_BITS))
		return -EINVAL;
	return 0;
}

static int fdif_lookup_bos(struct drm_file *file, struct fdif_job *job,
			   const struct drm_fdif_job *args)
{
	const struct drm_fdif_picture *pic = &args->picture;
	struct drm_gem_object *res;
	dma_addr_t addr;
	int ret;

	/* fdif_job_check() let one plane through, its rows packed */
	ret = fdif_lookup_bo(file, job, FDIF_BO_PICTURE, pic->planes[0].handle,
			     pic->planes[0].offset,
			     (u64)pic->height * pic->planes[0].stride,
			     FDIF_ADDR_ALIGN, &addr);
	if (ret)
		return ret;
	job->hw.pic_addr = addr;
	ret = fdif_lookup_bo(file, job, FDIF_BO_WORK, args->work_handle,
			     args->work_offset, FDIF_WORK_SIZE,
			     FDIF_ADDR_ALIGN, &addr);
	if (ret)
		return ret;
	job->hw.work_addr = addr;
	ret = fdif_lookup_bo(file, job, FDIF_BO_RESULT, args->result_handle,
			     args->result_offset, args->result_size,
			     DRM_FDIF_RESULT_ALIGN, &addr);
	if (ret)
		return ret;
	/* the kernel writes the result: it must be one of our own BOs */
	res = job->bos[FDIF_BO_RESULT];
	if (res->import_attach || !to_drm_gem_dma_obj(res)->vaddr)
		return -EINVAL;
	job->result = to_drm_gem_dma_obj(res)->vaddr + args->result_offset;
	return 0;
}

static int fdif_copy_in_syncs(struct drm_file *file, struct fdif_job *job,
			      const struct drm_fdif_job *args)
{
	struct drm_fdif_sync __user *uptr = u64_to_user_ptr(args->in_syncs);
	struct dma_fence *fence;
	struct drm_fdif_sync s;
	u32 i;
	int ret;

	if (!args->in_sync_count)
		return 0;
	job->in_fences = kcalloc(args->in_sync_count, sizeof(*job->in_fences),
				 GFP_KERNEL);
	if (!job->in_fences)
		return -ENOMEM;
	for (i = 0; i < args->in_sync_count; i++) {
		if (copy_from_user(&s, uptr + i, sizeof(s)))
			return -EFAULT;
		if (s.flags || s.mbz)
			return -EINVAL;
		/* no fence (yet) at that point: -EINVAL, as drm_syncobj says */
		ret = drm_syncobj_find_fence(file, s.handle, s.point, 0, &fence);
		if (ret)
			return ret;
		/* one reference for run_job's look at its error */
		job->in_fences[job->num_in_fences++] = dma_fence_get(fence);
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static void fdif_out_syncs_free(struct fdif_out_sync *out, u32 count)
{
	u32 i;

	if (!out)
		return;
	for (i = 0; i < count; i++) {
		if (out[i].syncobj)
			drm_syncobj_put(out[i].syncobj);
		dma_fence_chain_free(out[i].chain);
	}
	kvfree(out);
}

static struct fdif_out_sync *fdif_copy_out_syncs(struct drm_file *file,
						 const struct drm_fdif_job *args)
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
		if (s.flags || s.mbz) {
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

/* Everything one job needs, allocated and looked up; nothing queued. */
static int fdif_submit_prepare(struct drm_file *file,
			       struct fdif_submit_entry *e)
{
	struct fdif_file *ffile = file->driver_priv;
	struct fdif_device *fdev = ffile->fdev;
	const struct drm_fdif_job *args = &e->args;
	struct fdif_job *job;
	int ret;

	ret = fdif_job_check(args);
	if (ret)
		return ret;

	job = fdif_job_alloc(fdev);
	if (!job)
		return -ENOMEM;
	e->job = job;
	job->hw_fence = fdif_hw_fence_alloc(fdev);
	if (!job->hw_fence)
		return -ENOMEM;
	kref_get(&ffile->refcount);
	job->ffile = ffile;

	ret = fdif_lookup_bos(file, job, args);
	if (ret)
		return ret;
	fdif_omap4_prepare(args, &job->hw);

	/*
	 * Power the device up here, where we may sleep and take the PM
	 * core's locks, not in run_job (the fence signalling path): the
	 * reference is dropped when the job is freed.
	 */
	ret = fdif_job_pm_get(fdev, job);
	if (ret)
		return ret;

	ret = drm_sched_job_init(&job->base, &ffile->entity, 1, ffile,
				 file->client_id);
	if (ret)
		return ret;
	e->sched_init = true;

	ret = fdif_copy_in_syncs(file, job, args);
	if (ret)
		return ret;
	if (args->out_sync_count) {
		e->out = fdif_copy_out_syncs(file, args);
		if (IS_ERR(e->out)) {
			ret = PTR_ERR(e->out);
			e->out = NULL;
			return ret;
		}
	}
	if (args->flags & DRM_FDIF_JOB_FENCE_FD_OUT) {
		e->fd = get_unused_fd_flags(O_CLOEXEC);
		if (e->fd < 0)
			return e->fd;
		/*
		 * Made before the job is armed, past which nothing may fail:
		 * on a fence that follows the job once it is armed.
		 */
		e->out_fence = fdif_out_fence_create(fdev);
		if (!e->out_fence)
			return -ENOMEM;
		e->sync_file = sync_file_create(e->out_fence);
		if (!e->sync_file)
			return -ENOMEM;
	}
	return 0;
}

static void fdif_submit_entry_fini(struct fdif_submit_entry *e)
{
	if (e->sync_file)
		fput(e->sync_file->file);
	dma_fence_put(e->out_fence);
	if (e->fd >= 0)
		put_unused_fd(e->fd);
	fdif_out_syncs_free(e->out, e->args.out_sync_count);
	if (e->sched_init)
		drm_sched_job_cleanup(&e->job->base);
	if (e->job)
		fdif_job_free(e->job);
}

/* Whether the job writes @obj (work area, result) or only reads it. */
static bool fdif_job_writes(const struct fdif_job *job,
			    const struct drm_gem_object *obj)
{
	return job->bos[FDIF_BO_WORK] == obj || job->bos[FDIF_BO_RESULT] == obj;
}

/*
 * The BOs of the whole batch without duplicates, for one ww acquire
 * context, with how many fence slots each needs (one a job using it).
 */
static int fdif_batch_bos(struct fdif_submit_entry *e, u32 count,
			  struct drm_gem_object **objs, unsigned int *uses)
{
	int n = 0, i, k;
	u32 j;

	for (j = 0; j < count; j++) {
		for (k = 0; k < FDIF_BO_COUNT; k++) {
			/* counted once a job, whatever its roles */
			struct drm_gem_object *obj = fdif_bo_once(e[j].job->bos, k);

			if (!obj)
				continue;
			for (i = 0; i < n; i++)
				if (objs[i] == obj)
					break;
			if (i == n)
				objs[n++] = obj;
			uses[i]++;
		}
	}
	return n;
}

static int fdif_add_dependencies(struct fdif_submit_entry *e, u32 count,
				 struct drm_gem_object **objs,
				 unsigned int *uses, int n)
{
	int i, ret;
	u32 j;

	for (i = 0; i < n; i++) {
		ret = dma_resv_reserve_fences(objs[i]->resv, uses[i]);
		if (ret)
			return ret;
	}
	for (j = 0; j < count; j++) {
		struct fdif_job *job = e[j].job;
		int k;

		for (k = 0; k < FDIF_BO_COUNT; k++) {
			struct drm_gem_object *obj = fdif_bo_once(job->bos, k);

			if (!obj)
				continue;
			ret = drm_sched_job_add_implicit_dependencies(&job->base, obj,
								      fdif_job_writes(job, obj));
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * A submission that failed after fdif_write_outputs() gave userspace fd
 * numbers: they are released, and a later open() may get one of them, so
 * the user must not be left holding them. Best effort: a page that took
 * a write a moment ago can still fault, and then nothing else can be done.
 */
static void fdif_clear_fence_fds(struct fdif_submit_entry *e, u32 count,
				 s32 __user *fd_base, u32 job_size)
{
	u32 j;

	for (j = 0; j < count; j++) {
		void __user *ufd = (void __user *)fd_base + (size_t)j * job_size;

		if (e[j].sync_file && put_user(-1, (s32 __user *)ufd))
			break;
	}
}

/*
 * Tell userspace each job's seqno and fence fd before any of them can be
 * seen: a fault here fails the submission with nothing queued, no fd
 * installed and the fence fds written so far set back to -1. Under
 * submit_lock, so that the seqnos are the ones the jobs get, and before
 * the reservations are locked (this may fault).
 */
static int fdif_write_outputs(struct fdif_submit_entry *e, u32 count,
			      u64 __user *seqno_base, s32 __user *fd_base,
			      u32 job_size, u64 first)
{
	u32 j;

	for (j = 0; j < count; j++) {
		void __user *ujob = (void __user *)seqno_base + (size_t)j * job_size;
		void __user *ufd = (void __user *)fd_base + (size_t)j * job_size;

		if (put_user(first + j, (u64 __user *)ujob) ||
		    (e[j].sync_file && put_user(e[j].fd, (s32 __user *)ufd))) {
			fdif_clear_fence_fds(e, j, fd_base, job_size);
			return -EFAULT;
		}
	}
	return 0;
}

/* Past this point nothing fails: arm and queue the jobs in order. */
static void fdif_push_job(struct fdif_file *ffile, struct fdif_submit_entry *e,
			  u64 seqno)
{
	struct fdif_job *job = e->job;
	struct dma_fence *done;
	int k;

	drm_sched_job_arm(&job->base);
	/* ours: once pushed, the job may run and be freed at any time */
	done = dma_fence_get(&job->base.s_fence->finished);
	/*
	 * Another file's job that waits for this one runs after it ended,
	 * not once it started: it must see this job's error (a job whose
	 * in-sync failed does not run, see fdif_run_job()).
	 */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &done->flags);
	e->done = done;
	job->seqno = seqno;
	for (k = 0; k < FDIF_BO_COUNT; k++) {
		struct drm_gem_object *obj = fdif_bo_once(job->bos, k);

		if (!obj)
			continue;
		dma_resv_add_fence(obj->resv, done, fdif_job_writes(job, obj) ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	}
	if (e->out_fence)
		fdif_out_fence_follow(e->out_fence, done);
	atomic64_inc(&ffile->fdev->stats.submitted);
	/* cannot fail: the job is not pushed yet */
	dma_fence_add_callback(&job->base.s_fence->scheduled,
			       &job->scheduled_cb, fdif_job_scheduled);
}

int fdif_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct fdif_file *ffile = file->driver_priv;
	struct drm_fdif_submit *args = data;
	void __user *ujobs = u64_to_user_ptr(args->jobs);
	struct fdif_submit_entry *e;
	struct drm_gem_object **objs;
	struct ww_acquire_ctx ctx;
	unsigned int *uses;
	int ret, n, idx;
	u64 first;
	u32 j;

	if (args->flags || args->pad)
		return -EINVAL;
	if (!args->job_count || args->job_count > FDIF_MAX_BATCH ||
	    !fdif_job_size_ok(args->job_size))
		return -EINVAL;
	/*
	 * The whole submission, up to its fences in the BOs' reservation
	 * objects, comes before the unplug's end: fdif_reset_unbind() then
	 * finds every fence of the device that a lost import's will hold.
	 */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	e = kcalloc(args->job_count, sizeof(*e), GFP_KERNEL);
	objs = kcalloc(args->job_count * FDIF_BO_COUNT, sizeof(*objs), GFP_KERNEL);
	uses = kcalloc(args->job_count * FDIF_BO_COUNT, sizeof(*uses), GFP_KERNEL);
	if (!e || !objs || !uses) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (j = 0; j < args->job_count; j++)
		e[j].fd = -1;

	for (j = 0; j < args->job_count; j++) {
		ret = fdif_job_from_user(&e[j].args, sizeof(e[j].args),
					 ujobs + (size_t)j * args->job_size,
					 args->job_size);
		if (ret)
			goto out_fini;
		ret = fdif_submit_prepare(file, &e[j]);
		if (ret)
			goto out_fini;
	}
	n = fdif_batch_bos(e, args->job_count, objs, uses);

	mutex_lock(&ffile->submit_lock);
	first = atomic64_read(&ffile->seqno) + 1;
	ret = fdif_write_outputs(e, args->job_count,
				 ujobs + offsetof(struct drm_fdif_job, seqno),
				 ujobs + offsetof(struct drm_fdif_job, fence_fd),
				 args->job_size, first);
	if (ret)
		goto out_unlock;
	ret = drm_gem_lock_reservations(objs, n, &ctx);
	if (ret)
		goto out_clear;
	ret = fdif_add_dependencies(e, args->job_count, objs, uses, n);
	if (ret) {
		drm_gem_unlock_reservations(objs, n, &ctx);
		goto out_clear;
	}

	for (j = 0; j < args->job_count; j++)
		fdif_push_job(ffile, &e[j], first + j);
	atomic64_add(args->job_count, &ffile->seqno);
	for (j = 0; j < args->job_count; j++)
		drm_sched_entity_push_job(&e[j].job->base);
	mutex_unlock(&ffile->submit_lock);
	drm_gem_unlock_reservations(objs, n, &ctx);

	for (j = 0; j < args->job_count; j++) {
		if (e[j].out) {
			fdif_signal_out_syncs(e[j].out, e[j].args.out_sync_count,
					      e[j].done);
			fdif_out_syncs_free(e[j].out, e[j].args.out_sync_count);
		}
		if (e[j].sync_file)
			fd_install(e[j].fd, e[j].sync_file->file);
		dma_fence_put(e[j].out_fence);
		dma_fence_put(e[j].done);
	}
	ret = 0;
	goto out_free;

out_clear:
	fdif_clear_fence_fds(e, args->job_count,
			     ujobs + offsetof(struct drm_fdif_job, fence_fd),
			     args->job_size);
out_unlock:
	mutex_unlock(&ffile->submit_lock);
out_fini:
	for (j = 0; j < args->job_count; j++)
		fdif_submit_entry_fini(&e[j]);
out_free:
	kfree(uses);
	kfree(objs);
	kfree(e);
	drm_dev_exit(idx);
	return ret;
}
