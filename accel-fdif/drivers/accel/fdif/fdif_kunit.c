// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the job check against what the queries report, of the
 * OMAP4's register packing and result unpacking.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <kunit/test.h>
#include <linux/minmax.h>

#include <drm/drm_fourcc.h>

#include <uapi/drm/fdif_accel.h>

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
	/* unused planes are zero */
	EXPECT_BAD(picture.planes[1].handle, 1);
	EXPECT_BAD(picture.planes[1].stride, 320);
	EXPECT_BAD(picture.planes[2].offset, 32);
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

/* The limits the queries report are the ones the check uses. */
static void fdif_test_tables(struct kunit *test)
{
	struct drm_fdif_job a = fdif_good_job();
	u32 i;

	KUNIT_EXPECT_EQ(test, FDIF_RESULT_SIZE, 32 + 35 * 40);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_result_header), 32);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_object), 40);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_job), 160);
	for (i = 0; i < ARRAY_SIZE(fdif_min_sizes); i++) {
		a.min_width = fdif_min_sizes[i].width;
		a.min_height = fdif_min_sizes[i].height;
		KUNIT_EXPECT_EQ(test, fdif_job_check(&a), 0);
		if (i)
			KUNIT_EXPECT_GT(test, fdif_min_sizes[i].width,
					fdif_min_sizes[i - 1].width);
	}
	for (i = 0; i < 32; i++) {
		a.directions = BIT(i);
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(&a),
				    fdif_device_info.directions & BIT(i) ? 0 : -EINVAL,
				    "direction %u", i);
	}
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

/* The result layout of the OMAP4, as the query reports it. */
static void fdif_test_layout(struct kunit *test)
{
	struct drm_fdif_result_layout layout;

	fdif_result_layout(&layout);
	KUNIT_EXPECT_EQ(test, layout.version, DRM_FDIF_RESULT_VERSION);
	KUNIT_EXPECT_EQ(test, layout.capacity, FDIF_MAX_FACES);
	KUNIT_EXPECT_EQ(test, layout.size, 32 + 35 * 40);
	KUNIT_EXPECT_EQ(test, layout.align, 8);
}

static struct kunit_case fdif_params_cases[] = {
	KUNIT_CASE(fdif_test_check_good),
	KUNIT_CASE(fdif_test_check_bad),
	KUNIT_CASE(fdif_test_tables),
	KUNIT_CASE(fdif_test_prepare),
	KUNIT_CASE(fdif_test_unpack),
	KUNIT_CASE(fdif_test_confidence),
	KUNIT_CASE(fdif_test_layout),
	KUNIT_CASE(fdif_test_sort),
	{ }
};

static struct kunit_suite fdif_params_suite = {
	.name = "fdif-params",
	.test_cases = fdif_params_cases,
};

kunit_test_suite(fdif_params_suite);
