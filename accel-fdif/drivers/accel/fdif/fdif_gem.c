// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer objects: physically contiguous DMA memory below 4 GiB (the FDIF
 * has no IOMMU and 32-bit address registers), through the GEM DMA helpers.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/kmemleak.h>
#include <linux/sizes.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>
#include <drm/gpu_scheduler.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_job.h"

#define FDIF_BO_MAX_SIZE	SZ_64M

/**
 * struct fdif_bo - a buffer object
 * @dma: the GEM DMA object (first: the DMA helpers allocate and free it)
 * @counted: whether it is in &fdif_stats.bos; only objects whose creation
 *	or import completed are (the helpers free a half-made one directly)
 * @lost: its memory is given up to a module that may still use it
 *	(fdif_gem_lose()): freeing the object does not give it back
 */
struct fdif_bo {
	struct drm_gem_dma_object dma;
	bool counted;
	bool lost;
};

static struct fdif_bo *to_fdif_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_dma_obj(obj), struct fdif_bo, dma);
}

static void fdif_bo_count(struct drm_gem_object *obj)
{
	to_fdif_bo(obj)->counted = true;
	atomic_inc(&to_fdif_device(obj->dev)->stats.bos);
}

/* Whether fence @f holds @fdev: one of its scheduler's or its sync_files' */
static bool fdif_fence_holds(struct dma_fence *f, struct fdif_device *fdev)
{
	struct drm_sched_fence *s = to_drm_sched_fence(f);

	return s ? s->sched == &fdev->sched : fdif_out_fence_of(f, fdev);
}

/*
 * Take the device's fences out of an import's reservation object, which
 * outlives the device with its dma-buf: they hold the device and the
 * module. A signalled stub takes their place. Those of jobs that did not
 * run end without the module (run_job fails them after the unplug); the
 * timed-out job's has signalled while the module may still run it, which
 * is why the memory is lost at all. Waiters see no error from the stub.
 */
static void fdif_gem_unfence(struct drm_gem_object *obj,
			     struct fdif_device *fdev)
{
	struct dma_fence *stub = dma_fence_get_stub(), *f;
	struct dma_resv_iter cursor;

	dma_resv_lock(obj->resv, NULL);
	/* (the locked iterator does not look at a fence it has passed) */
	dma_resv_for_each_fence(&cursor, obj->resv, DMA_RESV_USAGE_BOOKKEEP, f)
		if (fdif_fence_holds(f, fdev))
			dma_resv_replace_fences(obj->resv, f->context, stub,
						DMA_RESV_USAGE_BOOKKEEP);
	dma_resv_unlock(obj->resv);
	dma_fence_put(stub);
}

/**
 * fdif_gem_lose() - give a BO's memory up to the module for good
 * @fdev: the device, unbound
 * @obj: a BO of the job a failed reset did not stop
 *
 * The module may still read and write the memory, and nothing will reset
 * it now: when the object is freed, its memory is not given back, so that
 * nothing else ever gets it. A BO of ours keeps its DMA allocation. An
 * import keeps its attachment, its mapping and the reference to its
 * dma-buf that the import took, so the exporter keeps the pages (and its
 * module loaded); the device's fences leave its reservation object, and
 * the attachment's device is referenced, as exporters still use it.
 *
 * Return: the size given up.
 */
size_t fdif_gem_lose(struct fdif_device *fdev, struct drm_gem_object *obj)
{
	to_fdif_bo(obj)->lost = true;
	if (obj->import_attach) {
		fdif_gem_unfence(obj, fdev);
		get_device(obj->import_attach->dev);
	}
	return obj->size;
}

/*
 * Free a lost BO's object, not its memory (fdif_gem_lose()). A lost
 * import's stays: it is the one record of the attachment and mapping left
 * behind, which kmemleak is told are left on purpose (it still scans it).
 */
static void fdif_gem_free_lost(struct fdif_bo *bo)
{
	struct drm_gem_object *obj = &bo->dma.base;

	drm_gem_object_release(obj);
	if (obj->import_attach)
		kmemleak_not_leak(bo);
	else
		kfree(bo);
}

static void fdif_gem_free(struct drm_gem_object *obj)
{
	struct fdif_device *fdev = to_fdif_device(obj->dev);
	struct fdif_bo *bo = to_fdif_bo(obj);

	if (bo->counted)
		atomic_dec(&fdev->stats.bos);
	if (bo->lost)
		fdif_gem_free_lost(bo);
	else
		drm_gem_dma_object_free(obj);
}

/*
 * An imported buffer is mapped through its exporter's dma-buf fd, which
 * knows its caching and CPU-access rules; a mapping through the FDIF would
 * bypass them (dma_mmap_wc() on the exporter's pages). BO_MMAP_OFFSET does
 * not hand out an import's offset, but the DMA helpers give every object
 * one and offsets can be guessed: refuse here, where every mmap() of the
 * device comes through.
 */
static int fdif_gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	if (obj->import_attach)
		return -EACCES;
	return drm_gem_dma_object_mmap(obj, vma);
}

static const struct drm_gem_object_funcs fdif_gem_funcs = {
	.free = fdif_gem_free,
	.print_info = drm_gem_dma_object_print_info,
	.get_sg_table = drm_gem_dma_object_get_sg_table,
	.vmap = drm_gem_dma_object_vmap,
	.mmap = fdif_gem_mmap,
	.vm_ops = &drm_gem_dma_vm_ops,
};

/**
 * fdif_gem_create_object() - &drm_driver.gem_create_object
 * @drm: the device
 * @size: object size
 *
 * Used for our own and for PRIME-imported objects.
 *
 * Return: the new object or an ERR_PTR.
 */
struct drm_gem_object *fdif_gem_create_object(struct drm_device *drm,
					      size_t size)
{
	struct fdif_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->dma.base.funcs = &fdif_gem_funcs;
	return &bo->dma.base;
}

/**
 * fdif_gem_prime_import() - &drm_driver.gem_prime_import
 * @drm: the device
 * @dma_buf: the buffer
 *
 * Where the FDIF cannot address all RAM, only the buffers of FDIF devices
 * are taken (their memory is within its reach): another exporter's may lie
 * beyond it, the DMA API may then bounce it through swiotlb, and the
 * device would read and write a copy that not every exporter keeps up to
 * date; no interface tells a driver whether it did
 * (Documentation/accel/fdif/). The refusal comes before the attach, so the
 * exporter never maps the buffer for the device. An OMAP4 addresses all
 * of its RAM.
 *
 * Return: the object or an ERR_PTR: -EINVAL for a buffer refused here.
 */
struct drm_gem_object *fdif_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf)
{
	struct drm_gem_object *obj = dma_buf->priv;

	/*
	 * A GEM object's dma-buf, of an FDIF: the PRIME helpers' ops table
	 * is static, its release is exported (and takes priv as the object)
	 */
	if (dma_addressing_limited(drm->dev) &&
	    !(dma_buf->ops->release == drm_gem_dmabuf_release &&
	      obj->dev->driver == drm->driver)) {
		drm_dbg_prime(drm, "import refused: RAM beyond the device's reach\n");
		return ERR_PTR(-EINVAL);
	}
	return drm_gem_prime_import(drm, dma_buf);
}

/**
 * fdif_gem_prime_import_sg_table() - &drm_driver.gem_prime_import_sg_table
 * @drm: the device
 * @attach: the dma-buf attachment
 * @sgt: its DMA mapping for the FDIF
 *
 * Return: the imported object (counted in the stats) or an ERR_PTR:
 * -EINVAL if the buffer is not one contiguous DMA range.
 */
struct drm_gem_object *
fdif_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt)
{
	struct drm_gem_object *obj;

	obj = drm_gem_dma_prime_import_sg_table(drm, attach, sgt);
	if (!IS_ERR(obj))
		fdif_bo_count(obj);
	return obj;
}

int fdif_ioctl_bo_create(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_fdif_bo_create *args = data;
	struct drm_gem_dma_object *dma;
	int ret;

	if (args->flags || args->pad || args->pad2 || args->handle)
		return -EINVAL;
	if (!args->size || args->size > FDIF_BO_MAX_SIZE)
		return -EINVAL;

	dma = drm_gem_dma_create(drm, PAGE_ALIGN(args->size));
	if (IS_ERR(dma))
		return PTR_ERR(dma);
	/* zeroed: dma_alloc_*() memory always is */
	fdif_bo_count(&dma->base);

	ret = drm_gem_handle_create(file, &dma->base, &args->handle);
	drm_gem_object_put(&dma->base);
	return ret;
}

int fdif_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_fdif_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/*
	 * An imported buffer is mapped through its dma-buf fd, where the
	 * exporter sees it: drm_gem_dma_mmap() would map the importer's DMA
	 * address and skip the exporter's cache maintenance.
	 */
	if (obj->import_attach) {
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}

int fdif_ioctl_bo_wait(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_fdif_bo_wait *args = data;
	struct drm_gem_object *obj;
	long ret;

	if (args->flags)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_READ, true,
				    drm_timeout_abs_to_jiffies(args->timeout_ns));
	drm_gem_object_put(obj);
	if (ret > 0)
		return 0;
	return ret ? ret : -ETIMEDOUT;
}
