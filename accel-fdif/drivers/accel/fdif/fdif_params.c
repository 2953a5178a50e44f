// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks of a job against what its hardware generation can do. They are
 * driven by the generation's tables (struct fdif_gen), the same ones the
 * query ioctl reports, so a job the queries allow is a job the driver
 * takes. Buffer handles and sizes are checked by the submit ioctl against
 * the BOs. Pure functions, covered by KUnit (fdif_kunit.c).
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sort.h>

#include <drm/drm_fourcc.h>

#include "fdif_gen.h"

/**
 * fdif_gen_format() - a generation's constraints for a picture format
 * @gen: the generation
 * @fourcc: a DRM_FORMAT_* code
 *
 * Return: the format's entry, or NULL if the generation does not take it.
 */
const struct drm_fdif_format_info *
fdif_gen_format(const struct fdif_gen *gen, u32 fourcc)
{
	u32 i;

	for (i = 0; i < gen->num_formats; i++)
		if (gen->formats[i].fourcc == fourcc)
			return &gen->formats[i];
	return NULL;
}

/**
 * fdif_gen_min_size_index() - which supported minimum object size this is
 * @gen: the generation
 * @width: the minimum width asked for
 * @height: the minimum height asked for
 *
 * Return: its index in &fdif_gen.min_sizes, or -EINVAL.
 */
int fdif_gen_min_size_index(const struct fdif_gen *gen, u32 width, u32 height)
{
	u32 i;

	for (i = 0; i < gen->num_min_sizes; i++)
		if (gen->min_sizes[i].width == width &&
		    gen->min_sizes[i].height == height)
			return i;
	return -EINVAL;
}

/**
 * fdif_result_size() - bytes a job's result region must hold
 * @gen: the generation
 *
 * Return: the header and room for &fdif_gen.capacity objects.
 */
u32 fdif_result_size(const struct fdif_gen *gen)
{
	return sizeof(struct drm_fdif_result_header) +
	       gen->capacity * sizeof(struct drm_fdif_object);
}

/**
 * fdif_result_layout() - %DRM_FDIF_QUERY_RESULT_LAYOUT for a generation
 * @gen: the generation
 * @layout: filled in
 */
void fdif_result_layout(const struct fdif_gen *gen,
			struct drm_fdif_result_layout *layout)
{
	*layout = (struct drm_fdif_result_layout) {
		.version = DRM_FDIF_RESULT_VERSION,
		.header_size = sizeof(struct drm_fdif_result_header),
		.object_size = sizeof(struct drm_fdif_object),
		.capacity = gen->capacity,
		.size = fdif_result_size(gen),
		.align = DRM_FDIF_RESULT_ALIGN,
		.object_fields = gen->object_fields,
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
 * right, whatever order a generation's hardware reports them in. In place and without
 * allocating: it runs in the fence signalling path.
 */
void fdif_sort_objects(struct drm_fdif_object *objs, u32 count)
{
	sort(objs, count, sizeof(*objs), fdif_object_cmp, NULL);
}

/* The classes' directions a job may scan: those every class asked for has. */
static u32 fdif_class_directions(const struct fdif_gen *gen, u32 classes)
{
	u32 i, dirs = gen->info.directions;

	for (i = 0; i < gen->num_classes; i++)
		if (classes & BIT(gen->classes[i].object_class))
			dirs &= gen->classes[i].directions;
	return dirs;
}

static bool fdif_mask_ok(u32 mask, u32 supported, u32 max_bits)
{
	return mask && !(mask & ~supported) && hweight32(mask) <= max_bits;
}

static int fdif_picture_check(const struct fdif_gen *gen,
			      const struct drm_fdif_picture *pic)
{
	const struct drm_fdif_format_info *f = fdif_gen_format(gen, pic->fourcc);
	const struct drm_format_info *info;
	u32 i;

	if (!f || pic->pad)
		return -EINVAL;
	/* a generation's formats are all in the DRM core's table */
	info = drm_format_info(pic->fourcc);
	if (pic->width < f->min_width || pic->width > f->max_width ||
	    pic->width % f->width_align ||
	    pic->height < f->min_height || pic->height > f->max_height ||
	    pic->height % f->height_align)
		return -EINVAL;

	for (i = 0; i < DRM_FDIF_MAX_PLANES; i++) {
		const struct drm_fdif_plane *p = &pic->planes[i];
		u64 min_pitch;

		if (i >= f->num_planes) {
			/* unused planes are zero, so that they can get a use */
			if (p->handle || p->offset || p->stride || p->pad)
				return -EINVAL;
			continue;
		}
		/* a subsampled plane is narrower than the picture */
		min_pitch = drm_format_info_plane_width(info, pic->width, i);
		min_pitch = drm_format_info_min_pitch(info, i, min_pitch);
		/* handles are looked up later: an unknown one is -ENOENT */
		if (p->pad || !IS_ALIGNED(p->offset, f->offset_align) ||
		    !p->stride || p->stride % f->stride_align ||
		    p->stride < min_pitch)
			return -EINVAL;
		if ((f->flags & DRM_FDIF_FORMAT_PACKED_ROWS) &&
		    p->stride != min_pitch)
			return -EINVAL;
	}
	return 0;
}

static int fdif_roi_check(const struct fdif_gen *gen,
			  const struct drm_fdif_job *job)
{
	const struct drm_fdif_device_info *info = &gen->info;
	const struct drm_fdif_roi *roi = &job->roi;

	if (!roi->width && !roi->height && !roi->x && !roi->y)
		return 0;	/* the whole picture */
	if (roi->x > info->roi_max_x || roi->y > info->roi_max_y ||
	    roi->width < info->roi_min_width ||
	    roi->height < info->roi_min_height ||
	    roi->x > job->picture.width ||
	    roi->width > job->picture.width - roi->x ||
	    roi->y > job->picture.height ||
	    roi->height > job->picture.height - roi->y)
		return -EINVAL;
	return 0;
}

/**
 * fdif_job_check() - validate what a job asks the hardware for
 * @gen: the device's generation
 * @job: the job, as copied from userspace
 *
 * Checks the flags, the picture's format, size and plane layout, the
 * object classes and directions, the minimum size, the threshold, the
 * region of interest and the result region's size against @gen.
 *
 * Return: 0 or -EINVAL.
 */
int fdif_job_check(const struct fdif_gen *gen, const struct drm_fdif_job *job)
{
	const struct drm_fdif_device_info *info = &gen->info;
	int ret;

	if (job->flags & ~DRM_FDIF_JOB_FENCE_FD_OUT)
		return -EINVAL;
	ret = fdif_picture_check(gen, &job->picture);
	if (ret)
		return ret;
	if (!fdif_mask_ok(job->classes, info->classes, info->max_job_classes))
		return -EINVAL;
	if (!fdif_mask_ok(job->directions,
			  fdif_class_directions(gen, job->classes),
			  info->max_job_directions))
		return -EINVAL;
	if (fdif_gen_min_size_index(gen, job->min_width, job->min_height) < 0)
		return -EINVAL;
	if (job->threshold > info->max_threshold)
		return -EINVAL;
	if (job->result_size < fdif_result_size(gen))
		return -EINVAL;
	if (!info->work_size && (job->work_handle || job->work_offset))
		return -EINVAL;
	if (job->in_sync_count > info->max_syncs ||
	    job->out_sync_count > info->max_syncs)
		return -EINVAL;
	return fdif_roi_check(gen, job);
}
