// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the parameter validation and register packing.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_params.h"
#include "fdif_regs.h"

static struct drm_fdif_submit fdif_good_args(void)
{
	return (struct drm_fdif_submit) {
		.format = DRM_FDIF_FORMAT_GREY8,
		.width = 320, .height = 240, .stride = 320,
		.object_class = DRM_FDIF_CLASS_FACE,
		.direction = DRM_FDIF_DIR_UP,
		.min_size = 20,
		.lhit = DRM_FDIF_LHIT_DEFAULT,
	};
}

static void fdif_test_check_good(struct kunit *test)
{
	struct drm_fdif_submit a = fdif_good_args();

	KUNIT_EXPECT_EQ(test, fdif_params_check(&a), 0);
	a.roi = (struct drm_fdif_roi){ 160, 120, 160, 120 };
	KUNIT_EXPECT_EQ(test, fdif_params_check(&a), 0);
	a.roi = (struct drm_fdif_roi){ 0, 0, 20, 20 };
	KUNIT_EXPECT_EQ(test, fdif_params_check(&a), 0);
	a.direction = DRM_FDIF_DIR_LEFT;
	a.min_size = 40;
	a.lhit = 9;
	a.flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
	KUNIT_EXPECT_EQ(test, fdif_params_check(&a), 0);
	/* the sizes GET_PARAM reports are the ones the check accepts */
	KUNIT_EXPECT_EQ(test, fdif_params_min_sizes(), 0x28201914ULL);
}

static void fdif_test_check_bad(struct kunit *test)
{
	static const struct drm_fdif_roi bad_rois[] = {
		{ 161, 0, 20, 20 }, { 0, 121, 20, 20 }, { 0, 0, 19, 20 },
		{ 0, 0, 20, 19 }, { 160, 0, 161, 20 }, { 0, 120, 20, 121 },
		{ 0, 0, 0, 240 }, { 10, 10, 0, 0 }, { 0, 0, U32_MAX, 20 },
	};
	struct drm_fdif_submit a;
	int i;

#define EXPECT_BAD(field, value) do {					\
		a = fdif_good_args();					\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, fdif_params_check(&a), -EINVAL, \
				    #field " = " #value);		\
	} while (0)
	EXPECT_BAD(flags, 2);
	EXPECT_BAD(flags, 0x80000000);
	EXPECT_BAD(format, 1);
	EXPECT_BAD(width, 640);
	EXPECT_BAD(height, 0);
	EXPECT_BAD(stride, 336);
	EXPECT_BAD(object_class, 1);
	EXPECT_BAD(direction, 3);
	EXPECT_BAD(min_size, 0);
	EXPECT_BAD(min_size, 24);
	EXPECT_BAD(lhit, 10);
#undef EXPECT_BAD
	for (i = 0; i < ARRAY_SIZE(bad_rois); i++) {
		a = fdif_good_args();
		a.roi = bad_rois[i];
		KUNIT_EXPECT_EQ_MSG(test, fdif_params_check(&a), -EINVAL,
				    "roi %d", i);
	}
}

static void fdif_test_pack(struct kunit *test)
{
	struct drm_fdif_submit a = fdif_good_args();
	struct fdif_hw_params hw;

	fdif_params_pack(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.dcond, 0);
	KUNIT_EXPECT_EQ(test, hw.startx, 0);
	KUNIT_EXPECT_EQ(test, hw.sizex, 320);
	KUNIT_EXPECT_EQ(test, hw.sizey, 240);
	KUNIT_EXPECT_EQ(test, hw.lhit, 5);

	/* min size in bits 1:0, direction in 3:2: '|' not '||' (2011's bug) */
	a.min_size = 32;
	a.direction = DRM_FDIF_DIR_RIGHT;
	a.roi = (struct drm_fdif_roi){ 10, 20, 100, 80 };
	fdif_params_pack(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.dcond, 0x6);
	KUNIT_EXPECT_EQ(test, hw.startx, 10);
	KUNIT_EXPECT_EQ(test, hw.starty, 20);
	KUNIT_EXPECT_EQ(test, hw.sizex, 100);
	KUNIT_EXPECT_EQ(test, hw.sizey, 80);
	a.min_size = 40;
	a.direction = DRM_FDIF_DIR_LEFT;
	fdif_params_pack(&a, &hw);
	KUNIT_EXPECT_EQ(test, hw.dcond, 0xb);
}

static void fdif_test_unpack(struct kunit *test)
{
	struct drm_fdif_object o;

	/* reserved bits above each field are dropped */
	fdif_unpack_face(0xfe00 | 319, 0xff00 | 239, 0xf000 | 9 << 8 | 49,
			 0xfe00 | 345, &o);
	KUNIT_EXPECT_EQ(test, o.center_x, 319);
	KUNIT_EXPECT_EQ(test, o.center_y, 239);
	KUNIT_EXPECT_EQ(test, o.size, 49);
	KUNIT_EXPECT_EQ(test, o.angle, 345);
	KUNIT_EXPECT_EQ(test, o.raw_confidence, 9);
	KUNIT_EXPECT_EQ(test, o.confidence, 0);
	KUNIT_EXPECT_EQ(test, o.object_class, DRM_FDIF_CLASS_FACE);
	/* angle registers are 9 bits: values past 359 wrap */
	fdif_unpack_face(0, 0, 0, 400, &o);
	KUNIT_EXPECT_EQ(test, o.angle, 40);
	KUNIT_EXPECT_EQ(test, o.confidence, DRM_FDIF_CONFIDENCE_MAX);
}

static void fdif_test_confidence(struct kunit *test)
{
	u32 raw, prev = U32_MAX;

	KUNIT_EXPECT_EQ(test, fdif_confidence_normalize(0), DRM_FDIF_CONFIDENCE_MAX);
	KUNIT_EXPECT_EQ(test, fdif_confidence_normalize(9), 0);
	KUNIT_EXPECT_EQ(test, fdif_confidence_normalize(15), 0);
	/* larger is better: strictly decreasing in the TRM's value */
	for (raw = 0; raw <= FDIF_MAX_CONFIDENCE; raw++) {
		KUNIT_EXPECT_LT(test, fdif_confidence_normalize(raw), prev);
		prev = fdif_confidence_normalize(raw);
	}
}

static void fdif_test_timeout(struct kunit *test)
{
	static const s64 ns[] = {
		1, 999, NSEC_PER_MSEC, NSEC_PER_SEC, 3600 * NSEC_PER_SEC,
		(s64)U32_MAX * NSEC_PER_SEC, S64_MAX / 2, S64_MAX - 1, S64_MAX,
	};
	long prev = 0, j;
	int i;

	KUNIT_EXPECT_EQ(test, fdif_timeout_to_jiffies(0), 0);
	/* never negative, never "forever", never shorter for a longer wait */
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		j = fdif_timeout_to_jiffies(ns[i]);
		KUNIT_EXPECT_GT_MSG(test, j, 0, "%lld ns", ns[i]);
		KUNIT_EXPECT_LT_MSG(test, j, MAX_SCHEDULE_TIMEOUT, "%lld ns", ns[i]);
		KUNIT_EXPECT_GE_MSG(test, j, prev, "%lld ns", ns[i]);
		prev = j;
	}
	/* rounds up: a second is at least HZ jiffies */
	KUNIT_EXPECT_GE(test, fdif_timeout_to_jiffies(NSEC_PER_SEC), (long)HZ);
	/* the largest timeout: clamped where a long of jiffies ends */
	if (BITS_PER_LONG == 32)
		KUNIT_EXPECT_EQ(test, fdif_timeout_to_jiffies(S64_MAX),
				MAX_SCHEDULE_TIMEOUT - 1);
	else
		KUNIT_EXPECT_EQ(test, fdif_timeout_to_jiffies(S64_MAX),
				(long)nsecs_to_jiffies64(S64_MAX) + 1);
}

static struct kunit_case fdif_params_cases[] = {
	KUNIT_CASE(fdif_test_check_good),
	KUNIT_CASE(fdif_test_check_bad),
	KUNIT_CASE(fdif_test_pack),
	KUNIT_CASE(fdif_test_unpack),
	KUNIT_CASE(fdif_test_confidence),
	KUNIT_CASE(fdif_test_timeout),
	{ }
};

static struct kunit_suite fdif_params_suite = {
	.name = "fdif-params",
	.test_cases = fdif_params_cases,
};

kunit_test_suite(fdif_params_suite);
