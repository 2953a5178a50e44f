// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the OMAP4 FDIF takes: the answers of the query ioctl, and the check
 * of a job against the same limits, so that a job the queries allow is a
 * job the driver takes (KUnit, fdif_kunit.c, holds the two together).
 * Buffer handles and sizes are checked by the submit ioctl against the
 * BOs. Pure functions.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sort.h>

#include <drm/drm_fourcc.h>

#include "fdif_params.h"

/* %DRM_FDIF_QUERY_DEVICE; the revision is the module's, read at probe */
const struct drm_fdif_device_info fdif_device_info = {
	.generation = DRM_FDIF_GEN_OMAP4,
	.classes = BIT(DRM_FDIF_CLASS_FACE),
	.directions = FDIF_DIRECTIONS,
	.max_job_classes = 1,
	.max_job_directions = 1,	/* FD_DCOND.DIR: one a job */
	.max_threshold = FDIF_MAX_LHIT,
	.default_threshold = FDIF_DEFAULT_LHIT,
	.work_size = FDIF_WORK_SIZE,
	.work_align = FDIF_ADDR_ALIGN,
	.roi_min_width = FDIF_ROI_MIN,
	.roi_min_height = FDIF_ROI_MIN,
	.roi_max_x = FDIF_ROI_MAX_X,
	.roi_max_y = FDIF_ROI_MAX_Y,
	.max_jobs = FDIF_MAX_BATCH,
	.max_syncs = FDIF_MAX_SYNCS,
};

/* %DRM_FDIF_QUERY_FORMATS */
const struct drm_fdif_format_info fdif_formats[1] = {
	{
		.fourcc = DRM_FORMAT_R8,
		.num_planes = 1,
		.flags = DRM_FDIF_FORMAT_PACKED_ROWS,
		.min_width = FDIF_PIC_WIDTH,
		.max_width = FDIF_PIC_WIDTH,
		.width_align = 1,
		.min_height = FDIF_PIC_HEIGHT,
		.max_height = FDIF_PIC_HEIGHT,
		.height_align = 1,
		.offset_align = FDIF_ADDR_ALIGN,
		.stride_align = 1,
	},
};

/*
 * %DRM_FDIF_QUERY_MIN_SIZES, smallest first: FD_DCOND.MIN_SIZE encodes the
 * index of the minimum size in this table
 */
const struct drm_fdif_size fdif_min_sizes[FDIF_NUM_MIN_SIZES] = {
	{ 20, 20 }, { 25, 25 }, { 32, 32 }, { 40, 40 },
};

/* %DRM_FDIF_QUERY_CLASSES */
const struct drm_fdif_class_info fdif_classes[1] = {
	{
		.object_class = DRM_FDIF_CLASS_FACE,
		.directions = FDIF_DIRECTIONS,
	},
};

/**
 * fdif_min_size_index() - which supported minimum object size this is
 * @width: the minimum width asked for
 * @height: the minimum height asked for
 *
 * Return: its index in fdif_min_sizes[] (FD_DCOND.MIN_SIZE), or -EINVAL.
 */
int fdif_min_size_index(u32 width, u32 height)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(fdif_min_sizes); i++)
		if (fdif_min_sizes[i].width == width &&
		    fdif_min_sizes[i].height == height)
			return i;
	return -EINVAL;
}

/**
 * fdif_result_layout() - %DRM_FDIF_QUERY_RESULT_LAYOUT
 * @layout: filled in
 */
void fdif_result_layout(struct drm_fdif_result_layout *layout)
{
	*layout = (struct drm_fdif_result_layout) {
		.version = DRM_FDIF_RESULT_VERSION,
		.header_size = sizeof(struct drm_fdif_result_header),
		.object_size = sizeof(struct drm_fdif_object),
		.capacity = FDIF_MAX_FACES,
		.size = FDIF_RESULT_SIZE,
		.align = DRM_FDIF_RESULT_ALIGN,
		.object_fields = FDIF_OBJECT_FIELDS,
	};
}

/*
 * An object's centre along one axis: its box edge @pos plus half its
 * length @len, rounded down, as docs/uapi.md defines it (for the OMAP4,
 * the hardware's centre exactly).
 */
static s64 fdif_center(s32 pos, u32 len)
{
	return (s64)pos + len / 2;
}

static int fdif_object_cmp(const void *a, const void *b)
{
	const struct drm_fdif_object *p = a, *q = b;
	s64 py = fdif_center(p->y, p->height), qy = fdif_center(q->y, q->height);
	s64 px = fdif_center(p->x, p->width), qx = fdif_center(q->x, q->width);

	if (p->confidence != q->confidence)
		return p->confidence > q->confidence ? -1 : 1;
	if (py != qy)
		return py < qy ? -1 : 1;
	if (px != qx)
		return px < qx ? -1 : 1;
	return 0;
}

/**
 * fdif_sort_objects() - put a job's objects in the order the uAPI promises
 * @objs: the objects
 * @count: how many
 *
 * Most confident first, then by their centres top to bottom, then left to
 * right, whatever order the hardware reports them in. In place and without
 * allocating: it runs in the fence signalling path.
 */
void fdif_sort_objects(struct drm_fdif_object *objs, u32 count)
{
	sort(objs, count, sizeof(*objs), fdif_object_cmp, NULL);
}

/*
 * The OMAP4 reads one picture: 320x240 8-bit grey (R8), one plane whose
 * rows are packed, at an aligned address. The uAPI's other planes are
 * zero, so that they can get a use on other hardware.
 */
static int fdif_picture_check(const struct drm_fdif_picture *pic)
{
	const struct drm_fdif_plane *p = &pic->planes[0];
	u32 i;

	if (pic->fourcc != DRM_FORMAT_R8 || pic->pad ||
	    pic->width != FDIF_PIC_WIDTH || pic->height != FDIF_PIC_HEIGHT)
		return -EINVAL;
	/* handles are looked up later: an unknown one is -ENOENT */
	if (p->pad || !IS_ALIGNED(p->offset, FDIF_ADDR_ALIGN) ||
	    p->stride != FDIF_PIC_WIDTH)
		return -EINVAL;
	for (i = 1; i < DRM_FDIF_MAX_PLANES; i++) {
		p = &pic->planes[i];
		if (p->handle || p->offset || p->stride || p->pad)
			return -EINVAL;
	}
	return 0;
}

static int fdif_roi_check(const struct drm_fdif_job *job)
{
	const struct drm_fdif_roi *roi = &job->roi;

	if (!roi->width && !roi->height && !roi->x && !roi->y)
		return 0;	/* the whole picture */
	if (roi->x > FDIF_ROI_MAX_X || roi->y > FDIF_ROI_MAX_Y ||
	    roi->width < FDIF_ROI_MIN || roi->height < FDIF_ROI_MIN ||
	    roi->x > job->picture.width ||
	    roi->width > job->picture.width - roi->x ||
	    roi->y > job->picture.height ||
	    roi->height > job->picture.height - roi->y)
		return -EINVAL;
	return 0;
}

/**
 * fdif_job_check() - validate what a job asks the hardware for
 * @job: the job, as copied from userspace
 *
 * Checks the flags, the picture's format, size and plane layout, the
 * object classes and directions, the minimum size, the threshold, the
 * region of interest and the result region's size against the module's
 * limits, which the queries report.
 *
 * Return: 0 or -EINVAL.
 */
int fdif_job_check(const struct drm_fdif_job *job)
{
	int ret;

	if (job->flags & ~DRM_FDIF_JOB_FENCE_FD_OUT)
		return -EINVAL;
	ret = fdif_picture_check(&job->picture);
	if (ret)
		return ret;
	/* faces, the one class, in one direction a job (FD_DCOND.DIR) */
	if (job->classes != BIT(DRM_FDIF_CLASS_FACE) ||
	    hweight32(job->directions) != 1 ||
	    job->directions & ~FDIF_DIRECTIONS)
		return -EINVAL;
	if (fdif_min_size_index(job->min_width, job->min_height) < 0)
		return -EINVAL;
	if (job->threshold > FDIF_MAX_LHIT)
		return -EINVAL;
	if (job->result_size < FDIF_RESULT_SIZE)
		return -EINVAL;
	if (job->in_sync_count > FDIF_MAX_SYNCS ||
	    job->out_sync_count > FDIF_MAX_SYNCS)
		return -EINVAL;
	return fdif_roi_check(job);
}
