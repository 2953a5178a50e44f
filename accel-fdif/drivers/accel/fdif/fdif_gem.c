// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer objects: physically contiguous DMA memory below 4 GiB (the FDIF
 * has no IOMMU and 32-bit address registers), through the GEM DMA helpers.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-resv.h>
#include <linux/sizes.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"

#define FDIF_BO_MAX_SIZE	SZ_64M

static void fdif_gem_free(struct drm_gem_object *obj)
{
	struct fdif_device *fdev = to_fdif_device(obj->dev);

	atomic_dec(&fdev->stats.bos);
	drm_gem_dma_object_free(obj);
}

static const struct drm_gem_object_funcs fdif_gem_funcs = {
	.free = fdif_gem_free,
	.print_info = drm_gem_dma_object_print_info,
	.get_sg_table = drm_gem_dma_object_get_sg_table,
	.vmap = drm_gem_dma_object_vmap,
	.mmap = drm_gem_dma_object_mmap,
	.vm_ops = &drm_gem_dma_vm_ops,
};

/**
 * fdif_gem_create_object() - &drm_driver.gem_create_object
 * @drm: the device
 * @size: object size
 *
 * Used for our own and for PRIME-imported objects, so every BO is counted.
 *
 * Return: the new object or an ERR_PTR.
 */
struct drm_gem_object *fdif_gem_create_object(struct drm_device *drm,
					      size_t size)
{
	struct drm_gem_dma_object *dma;

	dma = kzalloc(sizeof(*dma), GFP_KERNEL);
	if (!dma)
		return ERR_PTR(-ENOMEM);
	dma->base.funcs = &fdif_gem_funcs;
	atomic_inc(&to_fdif_device(drm)->stats.bos);
	return &dma->base;
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
	/* dma_alloc_*() memory is zeroed; make sure a reused page is too */
	memset(dma->vaddr, 0, dma->base.size);

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
