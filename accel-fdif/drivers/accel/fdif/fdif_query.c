// SPDX-License-Identifier: GPL-2.0-only
/*
 * The query ioctl: what the device's generation can do, from the same
 * tables the job check enforces. Answers are sized, so that they can grow
 * at the end without breaking older or newer userspace.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_gen.h"

/*
 * Give userspace min(its size, ours) bytes of @answer, zero the rest of a
 * larger buffer, and tell it our size.
 */
static int fdif_query_copy(struct drm_fdif_query *q, const void *answer,
			   u32 size)
{
	void __user *uptr = u64_to_user_ptr(q->pointer);
	u32 n = min(q->size, size);

	if (q->pointer) {
		if (copy_to_user(uptr, answer, n))
			return -EFAULT;
		if (q->size > size && clear_user(uptr + size, q->size - size))
			return -EFAULT;
	}
	q->size = size;
	return 0;
}

/* An answer that is a list: the header, then @count entries of @entry_size. */
static int fdif_query_list(struct drm_fdif_query *q, const void *entries,
			   u32 count, u32 entry_size)
{
	struct drm_fdif_query_list *list;
	u32 size = sizeof(*list) + count * entry_size;
	int ret;

	list = kzalloc(size, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	list->count = count;
	list->entry_size = entry_size;
	memcpy(list + 1, entries, (size_t)count * entry_size);
	ret = fdif_query_copy(q, list, size);
	kfree(list);
	return ret;
}

int fdif_ioctl_query(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct fdif_device *fdev = to_fdif_device(drm);
	const struct fdif_gen *gen = fdev->gen;
	struct drm_fdif_query *q = data;
	struct drm_fdif_device_info info;
	struct drm_fdif_result_layout layout;

	switch (q->type) {
	case DRM_FDIF_QUERY_DEVICE:
		info = gen->info;
		info.revision = fdev->revision;
		return fdif_query_copy(q, &info, sizeof(info));
	case DRM_FDIF_QUERY_RESULT_LAYOUT:
		fdif_result_layout(gen, &layout);
		return fdif_query_copy(q, &layout, sizeof(layout));
	case DRM_FDIF_QUERY_FORMATS:
		return fdif_query_list(q, gen->formats, gen->num_formats,
				       sizeof(*gen->formats));
	case DRM_FDIF_QUERY_MIN_SIZES:
		return fdif_query_list(q, gen->min_sizes, gen->num_min_sizes,
				       sizeof(*gen->min_sizes));
	case DRM_FDIF_QUERY_CLASSES:
		return fdif_query_list(q, gen->classes, gen->num_classes,
				       sizeof(*gen->classes));
	default:
		return -EINVAL;
	}
}
