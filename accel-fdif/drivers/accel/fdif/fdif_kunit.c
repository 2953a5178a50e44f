// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the job check against what the queries report (each
 * answer walked through the check, at and past its limits), of the growth
 * rules (jobs and query answers sized by the caller), of the OMAP4's
 * register packing and result unpacking.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/minmax.h>
#include <linux/mman.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_fourcc.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_omap4.h"
#include "fdif_params.h"
#include "fdif_regs.h"

static struct drm_fdif_job fdif_good_job(void)
{
	return (struct drm_fdif_job) {
		.picture = {
			.fourcc = DRM_FORMAT_R8,
			.width = 320, .height = 240,
			.planes[0] = { .handle = 1, .offset = 0, .stride = 320 },
		},
		.work_handle = 2,
		.result_handle = 3,
		.result_size = 32 + 35 * 40,
		.classes = BIT(DRM_FDIF_CLASS_FACE),
		.directions = BIT(DRM_FDIF_DIR_UP),
		.min_width = 20, .min_height = 20,
		.threshold = 5,
	};
}

static void fdif_test_check_good(struct kunit *test)
{
	struct drm_fdif_job a = fdif_good_job();

	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.roi = (struct drm_fdif_roi){ 160, 120, 160, 120 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.roi = (struct drm_fdif_roi){ 0, 0, 20, 20 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.directions = BIT(DRM_FDIF_DIR_LEFT);
	a.min_width = 40;
	a.min_height = 40;
	a.threshold = 9;
	a.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	a.result_size = 4096;
	a.picture.planes[0].offset = 64;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
}

static void fdif_test_check_bad(struct kunit *test)
{
	static const struct drm_fdif_roi bad_rois[] = {
		{ 161, 0, 20, 20 }, { 0, 121, 20, 20 }, { 0, 0, 19, 20 },
		{ 0, 0, 20, 19 }, { 160, 0, 161, 20 }, { 0, 120, 20, 121 },
		{ 0, 0, 0, 240 }, { 10, 10, 0, 0 }, { 0, 0, U32_MAX, 20 },
	};
	struct drm_fdif_job a;
	int i;

#define EXPECT_BAD(field, value) do {					\
		a = fdif_good_job();					\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a), -EINVAL,	\
				    #field " = " #value);		\
	} while (0)
	EXPECT_BAD(flags, 2);
	EXPECT_BAD(flags, 0x80000000);
	EXPECT_BAD(picture.fourcc, DRM_FORMAT_NV12);
	EXPECT_BAD(picture.fourcc, 0);
	EXPECT_BAD(picture.pad, 1);
	EXPECT_BAD(picture.width, 640);
	EXPECT_BAD(picture.width, 319);
	EXPECT_BAD(picture.height, 0);
	EXPECT_BAD(picture.planes[0].stride, 336);
	EXPECT_BAD(picture.planes[0].stride, 0);
	EXPECT_BAD(picture.planes[0].offset, 16);
	EXPECT_BAD(picture.planes[0].pad, 1);
	/* the planes the OMAP4 does not read are zero, for later use */
	EXPECT_BAD(picture.planes[1].handle, 1);
	EXPECT_BAD(picture.planes[1].offset, 32);
	EXPECT_BAD(picture.planes[1].stride, 320);
	EXPECT_BAD(picture.planes[1].pad, 1);
	EXPECT_BAD(picture.planes[2].handle, 1);
	EXPECT_BAD(picture.planes[2].offset, 32);
	EXPECT_BAD(picture.planes[2].stride, 320);
	EXPECT_BAD(picture.planes[2].pad, 1);
	EXPECT_BAD(classes, 0);
	EXPECT_BAD(classes, BIT(1));
	EXPECT_BAD(classes, BIT(DRM_FDIF_CLASS_FACE) | BIT(31));
	EXPECT_BAD(directions, 0);
	EXPECT_BAD(directions, BIT(3));
	/* the OMAP4 scans one direction a job */
	EXPECT_BAD(directions, BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_LEFT));
	EXPECT_BAD(min_width, 0);
	EXPECT_BAD(min_width, 24);
	EXPECT_BAD(min_height, 25);
	EXPECT_BAD(threshold, 10);
	EXPECT_BAD(result_size, 32 + 35 * 40 - 1);
	EXPECT_BAD(result_size, 0);
	EXPECT_BAD(in_sync_count, 65);
	EXPECT_BAD(out_sync_count, 65);
#undef EXPECT_BAD
	for (i = 0; i < ARRAY_SIZE(bad_rois); i++) {
		a = fdif_good_job();
		a.roi = bad_rois[i];
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a), -EINVAL,
				    "roi %d", i);
	}
}

/*
 * What QUERY reports and what the job check takes agree: each answer is
 * walked through fdif_job_check(), at its limits and just past them.
 */

/* A mask is taken if it is a non-empty subset of @supported, @max bits at most. */
static int fdif_mask_want(u32 mask, u32 supported, u32 max)
{
	return mask && !(mask & ~supported) && hweight32(mask) <= max ? 0 : -EINVAL;
}

/* %DRM_FDIF_QUERY_DEVICE: classes, directions, threshold */
static void fdif_test_query_device_masks(struct kunit *test)
{
	const struct drm_fdif_device_info *info = &fdif_device_info;
	struct drm_fdif_job a;
	u32 i, mask;

	KUNIT_EXPECT_EQ(test, info->generation, DRM_FDIF_GEN_OMAP4);
	KUNIT_EXPECT_EQ(test, info->revision, 0);	/* the module's, at probe */
	KUNIT_EXPECT_LE(test, info->default_threshold, info->max_threshold);
	/* each bit on its own */
	for (i = 0; i < 32; i++) {
		a = fdif_good_job();
		a.classes = BIT(i);
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    info->classes & BIT(i) ? 0 : -EINVAL,
				    "class %u", i);
		a = fdif_good_job();
		a.directions = BIT(i);
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    info->directions & BIT(i) ? 0 : -EINVAL,
				    "direction %u", i);
	}
	/* every mask of what is reported, and one bit more */
	for (mask = 0; mask <= (info->classes << 1 | 1); mask++) {
		a = fdif_good_job();
		a.classes = mask;
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    fdif_mask_want(mask, info->classes,
						   info->max_job_classes),
				    "classes 0x%x", mask);
	}
	for (mask = 0; mask <= (info->directions << 1 | 1); mask++) {
		a = fdif_good_job();
		a.directions = mask;
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    fdif_mask_want(mask, info->directions,
						   info->max_job_directions),
				    "directions 0x%x", mask);
	}
	for (i = 0; i <= info->max_threshold + 1; i++) {
		a = fdif_good_job();
		a.threshold = i;
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    i <= info->max_threshold ? 0 : -EINVAL,
				    "threshold %u", i);
	}
}

/* %DRM_FDIF_QUERY_DEVICE: region of interest, syncs, work area, batch */
static void fdif_test_query_device_limits(struct kunit *test)
{
	const struct drm_fdif_device_info *info = &fdif_device_info;
	const struct drm_fdif_roi corner = {
		info->roi_max_x, info->roi_max_y,
		info->roi_min_width, info->roi_min_height,
	};
	struct drm_fdif_job a = fdif_good_job();

	a.roi = corner;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.roi.x++;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
	a.roi = corner;
	a.roi.y++;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
	a.roi = corner;
	a.roi.width--;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
	a.roi = corner;
	a.roi.height--;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);

	a = fdif_good_job();
	a.in_sync_count = info->max_syncs;
	a.out_sync_count = info->max_syncs;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.in_sync_count++;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
	a.in_sync_count--;
	a.out_sync_count++;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);

	/* what the submit ioctl looks the work area up with, and its batch */
	KUNIT_EXPECT_EQ(test, info->work_size, FDIF_WORK_SIZE);
	KUNIT_EXPECT_EQ(test, info->work_align, FDIF_ADDR_ALIGN);
	KUNIT_EXPECT_EQ(test, info->max_jobs, FDIF_MAX_BATCH);
}

/* A job on a picture of format @f, @width x @height, its rows packed. */
static struct drm_fdif_job fdif_format_job(const struct drm_fdif_format_info *f,
					   u32 width, u32 height)
{
	const struct drm_format_info *info = drm_format_info(f->fourcc);
	struct drm_fdif_job a = fdif_good_job();
	u32 i;

	a.picture.fourcc = f->fourcc;
	a.picture.width = width;
	a.picture.height = height;
	for (i = 0; i < f->num_planes; i++)
		a.picture.planes[i] = (struct drm_fdif_plane) {
			.handle = 1,
			.stride = drm_format_info_min_pitch(info, i,
				drm_format_info_plane_width(info, width, i)),
		};
	return a;
}

/* %DRM_FDIF_QUERY_FORMATS */
static void fdif_test_query_formats(struct kunit *test)
{
	static const u32 others[] = {
		0, DRM_FORMAT_C8, DRM_FORMAT_R16, DRM_FORMAT_RG88,
		DRM_FORMAT_NV12, DRM_FORMAT_YUV420, DRM_FORMAT_XRGB8888,
	};
	struct drm_fdif_job a;
	u32 i, k, p;

	for (i = 0; i < ARRAY_SIZE(fdif_formats); i++) {
		const struct drm_fdif_format_info *f = &fdif_formats[i];
		const struct drm_format_info *info = drm_format_info(f->fourcc);
		struct drm_fdif_plane *p0 = &a.picture.planes[0];

		KUNIT_ASSERT_NOT_NULL(test, info);
		KUNIT_EXPECT_EQ(test, f->num_planes, info->num_planes);
		KUNIT_ASSERT_LE(test, f->num_planes, DRM_FDIF_MAX_PLANES);
		KUNIT_EXPECT_EQ(test, f->pad, 0);
		/* its smallest and largest pictures */
		a = fdif_format_job(f, f->min_width, f->min_height);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
		a = fdif_format_job(f, f->max_width, f->max_height);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
		/* one pixel past each limit */
		a = fdif_format_job(f, f->min_width - 1, f->min_height);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
		a = fdif_format_job(f, f->max_width + 1, f->max_height);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
		a = fdif_format_job(f, f->min_width, f->min_height - 1);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
		a = fdif_format_job(f, f->max_width, f->max_height + 1);
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
		/* the plane's offset and stride alignment, its packed rows */
		a = fdif_format_job(f, f->min_width, f->min_height);
		p0->offset = f->offset_align;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
		p0->offset = f->offset_align / 2;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a),
				f->offset_align > 1 ? -EINVAL : 0);
		p0->offset = 0;
		p0->stride += f->stride_align;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a),
				f->flags & DRM_FDIF_FORMAT_PACKED_ROWS ? -EINVAL : 0);
		p0->stride -= f->stride_align + 1;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
		/* the planes the format does not have stay zero */
		for (p = f->num_planes; p < DRM_FDIF_MAX_PLANES; p++) {
			for (k = 0; k < 4; k++) {
				a = fdif_format_job(f, f->min_width, f->min_height);
				((u32 *)&a.picture.planes[p])[k] = 1;
				KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a), -EINVAL,
						    "plane %u word %u", p, k);
			}
		}
	}
	/* formats not listed */
	for (k = 0; k < ARRAY_SIZE(others); k++) {
		for (i = 0; i < ARRAY_SIZE(fdif_formats); i++)
			KUNIT_ASSERT_NE(test, others[k], fdif_formats[i].fourcc);
		a = fdif_good_job();
		a.picture.fourcc = others[k];
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a), -EINVAL,
				    "fourcc 0x%08x", others[k]);
	}
}

/* %DRM_FDIF_QUERY_MIN_SIZES, and FD_DCOND.MIN_SIZE, which is their index */
static void fdif_test_query_min_sizes(struct kunit *test)
{
	const u32 last = ARRAY_SIZE(fdif_min_sizes) - 1;
	struct fdif_hw_job hw = { };
	struct drm_fdif_job a;
	u32 i, w, h;

	KUNIT_EXPECT_LE(test, last, FIELD_MAX(FD_DCOND_MIN_SIZE));
	for (i = 0; i <= last; i++) {
		a = fdif_good_job();
		a.min_width = fdif_min_sizes[i].width;
		a.min_height = fdif_min_sizes[i].height;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
		fdif_omap4_prepare(&a, &hw);
		KUNIT_EXPECT_EQ(test, FIELD_GET(FD_DCOND_MIN_SIZE,
						hw.regs[FDIF_OMAP4_DCOND]), i);
		if (i) {
			KUNIT_EXPECT_GT(test, fdif_min_sizes[i].width,
					fdif_min_sizes[i - 1].width);
			KUNIT_EXPECT_GT(test, fdif_min_sizes[i].height,
					fdif_min_sizes[i - 1].height);
		}
	}
	/* every other size up to past the largest is refused */
	for (w = 0; w <= fdif_min_sizes[last].width + 1; w++) {
		for (h = 0; h <= fdif_min_sizes[last].height + 1; h++) {
			bool listed = false;

			for (i = 0; i <= last; i++)
				listed |= fdif_min_sizes[i].width == w &&
					  fdif_min_sizes[i].height == h;
			a = fdif_good_job();
			a.min_width = w;
			a.min_height = h;
			KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
					    listed ? 0 : -EINVAL, "%ux%u", w, h);
		}
	}
}

/* %DRM_FDIF_QUERY_CLASSES: each class in the directions it lists */
static void fdif_test_query_classes(struct kunit *test)
{
	struct drm_fdif_job a;
	u32 i, d, seen = 0;

	for (i = 0; i < ARRAY_SIZE(fdif_classes); i++) {
		const struct drm_fdif_class_info *c = &fdif_classes[i];

		KUNIT_ASSERT_LT(test, c->object_class, 32);
		seen |= BIT(c->object_class);
		KUNIT_EXPECT_EQ(test, c->directions & ~fdif_device_info.directions, 0);
		for (d = 0; d < 32; d++) {
			a = fdif_good_job();
			a.classes = BIT(c->object_class);
			a.directions = BIT(d);
			KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
					    c->directions & BIT(d) ? 0 : -EINVAL,
					    "class %u direction %u",
					    c->object_class, d);
		}
	}
	/* the classes listed are the device's */
	KUNIT_EXPECT_EQ(test, seen, fdif_device_info.classes);
}

/* %DRM_FDIF_QUERY_RESULT_LAYOUT */
static void fdif_test_query_layout(struct kunit *test)
{
	struct drm_fdif_result_layout layout;
	struct drm_fdif_job a = fdif_good_job();
	struct drm_fdif_object o;

	fdif_result_layout(&layout);
	KUNIT_EXPECT_EQ(test, layout.version, DRM_FDIF_RESULT_VERSION);
	KUNIT_EXPECT_EQ(test, layout.header_size, sizeof(struct drm_fdif_result_header));
	KUNIT_EXPECT_EQ(test, layout.header_size, 32);
	KUNIT_EXPECT_EQ(test, layout.object_size, sizeof(struct drm_fdif_object));
	KUNIT_EXPECT_EQ(test, layout.object_size, 40);
	KUNIT_EXPECT_EQ(test, layout.capacity, FDIF_MAX_FACES);
	KUNIT_EXPECT_EQ(test, layout.size,
			layout.header_size + layout.capacity * layout.object_size);
	KUNIT_EXPECT_EQ(test, layout.size, 32 + 35 * 40);
	KUNIT_EXPECT_EQ(test, layout.align, DRM_FDIF_RESULT_ALIGN);
	KUNIT_EXPECT_EQ(test, layout.align, 8);
	KUNIT_EXPECT_EQ(test, layout.pad, 0);
	/* a region of that size is taken, one byte less is not */
	a.result_size = layout.size;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
	a.result_size = layout.size - 1;
	KUNIT_EXPECT_EQ(test, fdif_job_check(&a), -EINVAL);
	/* the result registers hold that many faces */
	KUNIT_EXPECT_LE(test, layout.capacity, FD_DNUM_MASK);
	/* every face has the fields reported */
	fdif_omap4_unpack_face(100, 100, 40, 0, 0, &o);
	KUNIT_EXPECT_EQ(test, o.fields, layout.object_fields);
}

static void fdif_test_prepare(struct kunit *test)
{
	struct drm_fdif_job a = fdif_good_job();
	struct fdif_hw_job hw = { };

	fdif_omap4_prepare(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_DCOND], 0);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_STARTX], 0);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_SIZEX], 320);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_SIZEY], 240);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_LHIT], 5);

	/* min size in bits 1:0, direction in 3:2: '|' not '||' (2011's bug) */
	a.min_width = 32;
	a.min_height = 32;
	a.directions = BIT(DRM_FDIF_DIR_RIGHT);
	a.roi = (struct drm_fdif_roi){ 10, 20, 100, 80 };
	fdif_omap4_prepare(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_DCOND], 0x6);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_STARTX], 10);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_STARTY], 20);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_SIZEX], 100);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_SIZEY], 80);
	a.min_width = 40;
	a.min_height = 40;
	a.directions = BIT(DRM_FDIF_DIR_LEFT);
	fdif_omap4_prepare(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.regs[FDIF_OMAP4_DCOND], 0xb);
}

static void fdif_test_unpack(struct kunit *test)
{
	struct drm_fdif_object o;

	/* reserved bits above each field are dropped */
	fdif_omap4_unpack_face(0xfe00 | 319, 0xff00 | 239, 0xf000 | 9 << 8 | 49,
			       0xfe00 | 345, 0x8, &o);
	KUNIT_EXPECT_EQ(test, o.x, 319 - 24);
	KUNIT_EXPECT_EQ(test, o.y, 239 - 24);
	KUNIT_EXPECT_EQ(test, o.width, 49);
	KUNIT_EXPECT_EQ(test, o.height, 49);
	/* the box gives the hardware's center back */
	KUNIT_EXPECT_EQ(test, o.x + (s32)o.width / 2, 319);
	KUNIT_EXPECT_EQ(test, o.angle, 345);
	KUNIT_EXPECT_EQ(test, o.direction, DRM_FDIF_DIR_LEFT);
	KUNIT_EXPECT_EQ(test, o.raw_confidence, 9);
	KUNIT_EXPECT_EQ(test, o.confidence, 0);
	KUNIT_EXPECT_EQ(test, o.object_class, DRM_FDIF_CLASS_FACE);
	KUNIT_EXPECT_EQ(test, o.fields, FDIF_OBJECT_FIELDS);
	/* a face at the border: its box starts left of the picture */
	fdif_omap4_unpack_face(5, 3, 40, 400, 0, &o);
	KUNIT_EXPECT_EQ(test, o.x, -15);
	KUNIT_EXPECT_EQ(test, o.y, -17);
	/* angle registers are 9 bits: values past 359 wrap */
	KUNIT_EXPECT_EQ(test, o.angle, 40);
	KUNIT_EXPECT_EQ(test, o.confidence, DRM_FDIF_CONFIDENCE_MAX);
}

static void fdif_test_confidence(struct kunit *test)
{
	u32 raw, prev = U32_MAX;

	KUNIT_EXPECT_EQ(test, fdif_omap4_confidence(0), DRM_FDIF_CONFIDENCE_MAX);
	KUNIT_EXPECT_EQ(test, fdif_omap4_confidence(9), 0);
	KUNIT_EXPECT_EQ(test, fdif_omap4_confidence(15), 0);
	/* larger is better: strictly decreasing in the TRM's value */
	for (raw = 0; raw <= FDIF_MAX_CONFIDENCE; raw++) {
		KUNIT_EXPECT_LT(test, fdif_omap4_confidence(raw), prev);
		prev = fdif_omap4_confidence(raw);
	}
}

/* Objects come most confident first, then by row, then by column. */
static void fdif_test_sort(struct kunit *test)
{
	/* by centres: the big box's top edge is higher, its centre lower */
	struct drm_fdif_object o[] = {
		{ .confidence = 500, .x = 10, .y = 50, .width = 20, .height = 20 },
		{ .confidence = 900, .x = 90, .y = 90, .width = 20, .height = 20 },
		{ .confidence = 500, .x = 5, .y = 50, .width = 20, .height = 20 },
		{ .confidence = 500, .x = 70, .y = 20, .width = 20, .height = 20 },
		{ .confidence = 500, .x = 40, .y = 10, .width = 100, .height = 100 },
		{ .confidence = 1000, .x = 0, .y = 0, .width = 20, .height = 20 },
	};
	static const s32 want_x[] = { 0, 90, 70, 5, 10, 40 };
	int i;

	fdif_sort_objects(o, ARRAY_SIZE(o));
	for (i = 0; i < ARRAY_SIZE(o); i++)
		KUNIT_EXPECT_EQ_MSG(test, o[i].x, want_x[i], "object %d", i);
	fdif_sort_objects(o, 0);
}

/*
 * The growth rules, in the caller's memory: jobs are read with their size,
 * query answers are copied into a buffer of the caller's size.
 */

/* A page of user memory; the test's kthread gets a mm of its own. */
static unsigned long fdif_user_page(struct kunit *test)
{
	unsigned long addr;

	addr = kunit_vm_mmap(test, NULL, 0, PAGE_ALIGN(FDIF_JOB_SIZE_MAX),
			     PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, addr, 0, "no user mm");
	KUNIT_ASSERT_LT_MSG(test, addr, (unsigned long)TASK_SIZE, "no user memory");
	return addr;
}

/* The job sizes a submission may give. */
static void fdif_test_job_size(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_job), FDIF_JOB_SIZE_V1);
	KUNIT_EXPECT_TRUE(test, fdif_job_size_ok(FDIF_JOB_SIZE_V1));
	KUNIT_EXPECT_TRUE(test, fdif_job_size_ok(FDIF_JOB_SIZE_V1 + 8));
	KUNIT_EXPECT_TRUE(test, fdif_job_size_ok(FDIF_JOB_SIZE_MAX));
	KUNIT_EXPECT_FALSE(test, fdif_job_size_ok(0));
	KUNIT_EXPECT_FALSE(test, fdif_job_size_ok(FDIF_JOB_SIZE_V1 - 8));
	KUNIT_EXPECT_FALSE(test, fdif_job_size_ok(FDIF_JOB_SIZE_V1 - 1));
	KUNIT_EXPECT_FALSE(test, fdif_job_size_ok(FDIF_JOB_SIZE_MAX + 1));
	KUNIT_EXPECT_FALSE(test, fdif_job_size_ok(U32_MAX));
}

/*
 * A longer job (a newer header) whose tail is zero is the job this kernel
 * knows; a non-zero byte anywhere in its tail is -E2BIG.
 */
static void fdif_test_job_longer(struct kunit *test)
{
	static const u32 sizes[] = {
		FDIF_JOB_SIZE_V1 + 8, FDIF_JOB_SIZE_V1 + 64, FDIF_JOB_SIZE_MAX,
	};
	u8 __user *u = (u8 __user *)fdif_user_page(test);
	struct drm_fdif_job want = fdif_good_job(), got;
	u8 *buf;
	u32 i, k;

	buf = kunit_kzalloc(test, FDIF_JOB_SIZE_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, &want, sizeof(want));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_ASSERT_EQ(test, copy_to_user(u, buf, sizes[i]), 0);
		memset(&got, 0xa5, sizeof(got));
		KUNIT_EXPECT_EQ(test, fdif_job_from_user(&got, sizeof(got), u,
							 sizes[i]), 0);
		KUNIT_EXPECT_MEMEQ(test, &got, &want, sizeof(want));
		KUNIT_EXPECT_EQ(test, fdif_job_check(&got), 0);
		for (k = sizeof(want); k < sizes[i]; k++) {
			KUNIT_ASSERT_EQ(test, put_user((u8)BIT(k % 8), u + k), 0);
			KUNIT_EXPECT_EQ_MSG(test,
					    fdif_job_from_user(&got, sizeof(got),
							       u, sizes[i]),
					    -E2BIG, "size %u byte %u", sizes[i], k);
			KUNIT_ASSERT_EQ(test, put_user((u8)0, u + k), 0);
		}
	}
}

/* A later kernel's job: this one's, and a field appended. */
struct fdif_test_job_v2 {
	struct drm_fdif_job v1;
	u32 track;
	u32 pad;
};

/*
 * A shorter job (an older header) reads as if its tail were zero: a
 * kernel whose job is longer reads this kernel's job with zero in the
 * fields it added, and its own job whole.
 */
static void fdif_test_job_shorter(struct kunit *test)
{
	void __user *u = (void __user *)fdif_user_page(test);
	struct drm_fdif_job want = fdif_good_job();
	struct fdif_test_job_v2 got, want2 = { .v1 = want, .track = 1 };

	KUNIT_ASSERT_EQ(test, copy_to_user(u, &want, sizeof(want)), 0);
	memset(&got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, fdif_job_from_user(&got, sizeof(got), u,
						 FDIF_JOB_SIZE_V1), 0);
	KUNIT_EXPECT_MEMEQ(test, &got.v1, &want, sizeof(want));
	KUNIT_EXPECT_EQ(test, got.track, 0);
	KUNIT_EXPECT_EQ(test, got.pad, 0);

	KUNIT_ASSERT_EQ(test, copy_to_user(u, &want2, sizeof(want2)), 0);
	memset(&got, 0xa5, sizeof(got));
	KUNIT_EXPECT_EQ(test, fdif_job_from_user(&got, sizeof(got), u,
						 sizeof(want2)), 0);
	KUNIT_EXPECT_MEMEQ(test, &got, &want2, sizeof(want2));
}

/*
 * Query answers are sized by the caller: a shorter buffer (an older
 * header) gets the answer's first bytes, a longer one (a newer header)
 * the answer and zeroes up to its size; neither is written past its size,
 * and the size returned is always the answer's.
 */
static void fdif_test_query_sizes(struct kunit *test)
{
	const struct drm_fdif_device_info *answer = &fdif_device_info;
	const u32 n = sizeof(*answer), room = n + 64 + 16;
	const u32 sizes[] = { 0, 1, 4, n / 2, n - 1, n, n + 1, n + 4, n + 64 };
	unsigned long addr = fdif_user_page(test);
	u8 __user *u = (u8 __user *)addr;
	struct drm_fdif_query q;
	u8 *fill, *buf;
	u32 i, size;

	fill = kunit_kmalloc(test, room, GFP_KERNEL);
	buf = kunit_kmalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fill);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(fill, 0xa5, room);

	/* pointer 0: the answer's size only */
	q = (struct drm_fdif_query) { .size = 4096 };
	KUNIT_EXPECT_EQ(test, fdif_query_copy(&q, answer, n), 0);
	KUNIT_EXPECT_EQ(test, q.size, n);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size = sizes[i];
		KUNIT_ASSERT_EQ(test, copy_to_user(u, fill, room), 0);
		q = (struct drm_fdif_query) { .size = size, .pointer = addr };
		KUNIT_EXPECT_EQ(test, fdif_query_copy(&q, answer, n), 0);
		KUNIT_EXPECT_EQ_MSG(test, q.size, n, "buffer of %u", size);
		KUNIT_ASSERT_EQ(test, copy_from_user(buf, u, room), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, buf, answer, min(size, n),
				       "buffer of %u", size);
		if (size > n)
			KUNIT_EXPECT_NULL_MSG(test, memchr_inv(buf + n, 0, size - n),
					      "buffer of %u: tail not zeroed", size);
		KUNIT_EXPECT_NULL_MSG(test, memchr_inv(buf + size, 0xa5, room - size),
				      "buffer of %u: written past it", size);
	}
}

static struct kunit_case fdif_params_cases[] = {
	KUNIT_CASE(fdif_test_check_good),
	KUNIT_CASE(fdif_test_check_bad),
	KUNIT_CASE(fdif_test_query_device_masks),
	KUNIT_CASE(fdif_test_query_device_limits),
	KUNIT_CASE(fdif_test_query_formats),
	KUNIT_CASE(fdif_test_query_min_sizes),
	KUNIT_CASE(fdif_test_query_classes),
	KUNIT_CASE(fdif_test_query_layout),
	KUNIT_CASE(fdif_test_prepare),
	KUNIT_CASE(fdif_test_unpack),
	KUNIT_CASE(fdif_test_confidence),
	KUNIT_CASE(fdif_test_sort),
	KUNIT_CASE(fdif_test_job_size),
	KUNIT_CASE(fdif_test_job_longer),
	KUNIT_CASE(fdif_test_job_shorter),
	KUNIT_CASE(fdif_test_query_sizes),
	{ }
};

static struct kunit_suite fdif_params_suite = {
	.name = "fdif-params",
	.test_cases = fdif_params_cases,
};

kunit_test_suite(fdif_params_suite);
