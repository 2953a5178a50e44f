// SPDX-License-Identifier: GPL-2.0-only
/*
 * Validation of a submission's detection parameters and their packing into
 * FDIF register values. Pure functions, covered by KUnit (fdif_kunit.c).
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_params.h"
#include "fdif_regs.h"

/* FD_DCOND.MIN_SIZE encodings 0..3 */
static const u32 fdif_min_sizes[] = { 20, 25, 32, 40 };

/* the hardware's result registers and the uAPI's result hold as many */
static_assert(FDIF_MAX_FACES == DRM_FDIF_MAX_OBJECTS);

static int fdif_min_size_code(u32 size)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fdif_min_sizes); i++)
		if (fdif_min_sizes[i] == size)
			return i;
	return -EINVAL;
}

/**
 * fdif_params_min_sizes() - DRM_FDIF_PARAM_MIN_SIZES
 *
 * Return: the supported minimum sizes, one per byte, smallest first.
 */
u64 fdif_params_min_sizes(void)
{
	u64 v = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(fdif_min_sizes); i++)
		v |= (u64)fdif_min_sizes[i] << (8 * i);
	return v;
}

/**
 * fdif_params_check() - validate what a submission asks the hardware for
 * @args: the submission, as copied from userspace
 *
 * Checks the fields this hardware generation constrains: picture format
 * and geometry, object class, direction, minimum size, LHIT, the region of
 * interest and the flags. Buffer handles, offsets and sizes are checked
 * against the BOs by the caller.
 *
 * Return: 0 or -EINVAL.
 */
int fdif_params_check(const struct drm_fdif_submit *args)
{
	const struct drm_fdif_roi *roi = &args->roi;

	if (args->flags & ~DRM_FDIF_SUBMIT_FENCE_FD_OUT)
		return -EINVAL;
	if (args->format != DRM_FDIF_FORMAT_GREY8 ||
	    args->width != FDIF_PIC_WIDTH || args->height != FDIF_PIC_HEIGHT ||
	    args->stride != FDIF_PIC_WIDTH)
		return -EINVAL;
	if (args->object_class != DRM_FDIF_CLASS_FACE)
		return -EINVAL;
	if (args->direction > DRM_FDIF_DIR_LEFT)
		return -EINVAL;
	if (fdif_min_size_code(args->min_size) < 0)
		return -EINVAL;
	if (args->lhit > FDIF_MAX_LHIT)
		return -EINVAL;

	if (!roi->width && !roi->height && !roi->x && !roi->y)
		return 0;	/* the whole picture */
	if (roi->x > FDIF_ROI_MAX_X || roi->y > FDIF_ROI_MAX_Y ||
	    roi->width < FDIF_ROI_MIN || roi->height < FDIF_ROI_MIN ||
	    roi->width > FDIF_PIC_WIDTH - roi->x ||
	    roi->height > FDIF_PIC_HEIGHT - roi->y)
		return -EINVAL;
	return 0;
}

/**
 * fdif_params_pack() - register values for a checked submission
 * @args: a submission that passed fdif_params_check()
 * @hw: the register values
 */
void fdif_params_pack(const struct drm_fdif_submit *args,
		      struct fdif_hw_params *hw)
{
	const struct drm_fdif_roi *roi = &args->roi;
	bool whole = !roi->width && !roi->height;

	hw->dcond = FIELD_PREP(FD_DCOND_MIN_SIZE, fdif_min_size_code(args->min_size)) |
		    FIELD_PREP(FD_DCOND_DIR, args->direction);
	hw->startx = whole ? 0 : roi->x;
	hw->starty = whole ? 0 : roi->y;
	hw->sizex = whole ? FDIF_PIC_WIDTH : roi->width;
	hw->sizey = whole ? FDIF_PIC_HEIGHT : roi->height;
	hw->lhit = args->lhit;
}

/**
 * fdif_confidence_normalize() - the uAPI's confidence for a TRM value
 * @raw: FD_CONFSIZE.CONF, 0 (best) .. 9 (worst); larger values are clamped
 *
 * Return: 0 (least confident) .. DRM_FDIF_CONFIDENCE_MAX (most).
 */
u32 fdif_confidence_normalize(u32 raw)
{
	raw = min_t(u32, raw, FDIF_MAX_CONFIDENCE);
	return (FDIF_MAX_CONFIDENCE - raw) * DRM_FDIF_CONFIDENCE_MAX /
	       FDIF_MAX_CONFIDENCE;
}

/**
 * fdif_unpack_face() - one face from its four result registers
 * @centerx: FD_CENTERX_i
 * @centery: FD_CENTERY_i
 * @confsize: FD_CONFSIZE_i
 * @angle: FD_ANGLE_i
 * @obj: the uAPI object
 */
void fdif_unpack_face(u32 centerx, u32 centery, u32 confsize, u32 angle,
		      struct drm_fdif_object *obj)
{
	u32 raw = FIELD_GET(FD_CONFSIZE_CONF, confsize);

	obj->center_x = FIELD_GET(FD_CENTERX_MASK, centerx);
	obj->center_y = FIELD_GET(FD_CENTERY_MASK, centery);
	obj->size = FIELD_GET(FD_CONFSIZE_SIZE, confsize);
	obj->angle = FIELD_GET(FD_ANGLE_MASK, angle) % 360;
	obj->raw_confidence = raw;
	obj->confidence = fdif_confidence_normalize(raw);
	obj->object_class = DRM_FDIF_CLASS_FACE;
	obj->pad = 0;
}

/**
 * fdif_timeout_to_jiffies() - BO_WAIT's relative timeout for dma_resv
 * @timeout_ns: the timeout, 0 (poll) or positive
 *
 * Rounds up, so that a short timeout still waits, and clamps as
 * drm_timeout_abs_to_jiffies() does: on 32-bit ARM a long timeout does
 * not fit in a long of jiffies, and a truncated value could turn negative
 * (dma_fence_wait_timeout() WARNs on that) or short.
 *
 * Return: 0 for 0, otherwise 1 .. MAX_SCHEDULE_TIMEOUT - 1 jiffies.
 */
long fdif_timeout_to_jiffies(s64 timeout_ns)
{
	u64 j;

	if (timeout_ns <= 0)
		return 0;
	j = nsecs_to_jiffies64(timeout_ns);
	if (j >= MAX_SCHEDULE_TIMEOUT - 1)
		return MAX_SCHEDULE_TIMEOUT - 1;
	return j + 1;
}
