// SPDX-License-Identifier: GPL-2.0-only
/*
 * The query ioctl: what the device can do (fdif_params.c, the limits the
 * job check enforces). Answers are sized, so that they can grow at the end
 * without breaking older or newer userspace.
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
#include "fdif_params.h"

/**
 * fdif_query_copy() - give userspace an answer, sized by its buffer
 * @q: the query: @q->pointer and @q->size are the caller's buffer
 * @answer: the kernel's answer
 * @size: its size
 *
 * Copies min(@q->size, @size) bytes of @answer, zeroes the rest of a
 * larger buffer and sets @q->size to @size; with @q->pointer 0, only sets
 * @q->size.
 *
 * Return: 0 or -EFAULT.
 */
int fdif_query_copy(struct drm_fdif_query *q, const void *answer, u32 size)
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
	struct drm_fdif_query *q = data;
	struct drm_fdif_device_info info;
	struct drm_fdif_result_layout layout;

	switch (q->type) {
	case DRM_FDIF_QUERY_DEVICE:
		info = fdif_device_info;
		info.revision = fdev->revision;
		return fdif_query_copy(q, &info, sizeof(info));
	case DRM_FDIF_QUERY_RESULT_LAYOUT:
		fdif_result_layout(&layout);
		return fdif_query_copy(q, &layout, sizeof(layout));
	case DRM_FDIF_QUERY_FORMATS:
		return fdif_query_list(q, fdif_formats, ARRAY_SIZE(fdif_formats),
				       sizeof(*fdif_formats));
	case DRM_FDIF_QUERY_MIN_SIZES:
		return fdif_query_list(q, fdif_min_sizes,
				       ARRAY_SIZE(fdif_min_sizes),
				       sizeof(*fdif_min_sizes));
	case DRM_FDIF_QUERY_CLASSES:
		return fdif_query_list(q, fdif_classes, ARRAY_SIZE(fdif_classes),
				       sizeof(*fdif_classes));
	default:
		return -EINVAL;
	}
}
