// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the job check against a generation's tables, of the
 * OMAP4's register packing and result unpacking.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/sizes.h>

#include <drm/drm_fourcc.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_gen.h"
#include "fdif_omap4.h"
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
	const struct fdif_gen *gen = &fdif_gen_omap4;
	struct drm_fdif_job a = fdif_good_job();

	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	a.roi = (struct drm_fdif_roi){ 160, 120, 160, 120 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	a.roi = (struct drm_fdif_roi){ 0, 0, 20, 20 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	a.directions = BIT(DRM_FDIF_DIR_LEFT);
	a.min_width = 40;
	a.min_height = 40;
	a.threshold = 9;
	a.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	a.result_size = 4096;
	a.picture.planes[0].offset = 64;
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
}

static void fdif_test_check_bad(struct kunit *test)
{
	static const struct drm_fdif_roi bad_rois[] = {
		{ 161, 0, 20, 20 }, { 0, 121, 20, 20 }, { 0, 0, 19, 20 },
		{ 0, 0, 20, 19 }, { 160, 0, 161, 20 }, { 0, 120, 20, 121 },
		{ 0, 0, 0, 240 }, { 10, 10, 0, 0 }, { 0, 0, U32_MAX, 20 },
	};
	const struct fdif_gen *gen = &fdif_gen_omap4;
	struct drm_fdif_job a;
	int i;

#define EXPECT_BAD(field, value) do {					\
		a = fdif_good_job();					\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(gen, &a), -EINVAL, \
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
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(gen, &a), -EINVAL,
				    "roi %d", i);
	}
}

/* The tables the queries report are the ones the check uses. */
static void fdif_test_tables(struct kunit *test)
{
	const struct fdif_gen *gen = &fdif_gen_omap4;
	struct drm_fdif_job a = fdif_good_job();
	u32 i;

	KUNIT_EXPECT_EQ(test, fdif_result_size(gen), 32 + 35 * 40);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_result_header), 32);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_object), 40);
	KUNIT_EXPECT_EQ(test, sizeof(struct drm_fdif_job), 160);
	KUNIT_EXPECT_EQ(test, gen->capacity, FDIF_MAX_FACES);
	for (i = 0; i < gen->num_min_sizes; i++) {
		a.min_width = gen->min_sizes[i].width;
		a.min_height = gen->min_sizes[i].height;
		KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
		if (i)
			KUNIT_EXPECT_GT(test, gen->min_sizes[i].width,
					gen->min_sizes[i - 1].width);
	}
	for (i = 0; i < 32; i++) {
		a.directions = BIT(i);
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(gen, &a),
				    gen->info.directions & BIT(i) ? 0 : -EINVAL,
				    "direction %u", i);
	}
	KUNIT_EXPECT_NOT_NULL(test, fdif_gen_format(gen, DRM_FORMAT_R8));
	KUNIT_EXPECT_NULL(test, fdif_gen_format(gen, DRM_FORMAT_NV12));
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
	KUNIT_EXPECT_EQ(test, o.fields, fdif_gen_omap4.object_fields);
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

/*
 * A made-up later generation, for KUnit only: no such hardware exists and
 * the driver matches none. Its tables reach the checks the OMAP4's cannot
 * (alignment of width, height and stride, a two-plane format, several
 * directions a job, a class that scans fewer directions than another, no
 * work area, an ROI that may start past the picture's edge) through the
 * same shared code: how the uAPI grows with hardware (docs/uapi.md).
 */
#define FAKE_CLASS_OTHER	1	/* a class a later uAPI would name */

static const struct drm_fdif_format_info fdif_fake_formats[] = {
	{
		.fourcc = DRM_FORMAT_R8, .num_planes = 1,
		.min_width = 64, .max_width = 4096, .width_align = 16,
		.min_height = 64, .max_height = 2160, .height_align = 8,
		.offset_align = 64, .stride_align = 64,
	}, {
		.fourcc = DRM_FORMAT_NV12, .num_planes = 2,
		.min_width = 64, .max_width = 4096, .width_align = 2,
		.min_height = 64, .max_height = 2160, .height_align = 2,
		.offset_align = 64, .stride_align = 64,
	},
};

static const struct drm_fdif_size fdif_fake_min_sizes[] = {
	{ 24, 24 }, { 48, 48 },
};

static const struct drm_fdif_class_info fdif_fake_classes[] = {
	{ DRM_FDIF_CLASS_FACE, BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) |
			       BIT(DRM_FDIF_DIR_LEFT) },
	{ FAKE_CLASS_OTHER, BIT(DRM_FDIF_DIR_UP) },
};

static const struct fdif_gen fdif_gen_fake = {
	.info = {
		.generation = 0xfa4e,
		.classes = BIT(DRM_FDIF_CLASS_FACE) | BIT(FAKE_CLASS_OTHER),
		.directions = BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) |
			      BIT(DRM_FDIF_DIR_LEFT),
		.max_job_classes = 1,
		.max_job_directions = 2,
		.max_threshold = 100,
		.default_threshold = 50,
		.work_size = 0,
		.roi_min_width = 16,
		.roi_min_height = 16,
		.roi_max_x = 4096,
		.roi_max_y = 2160,
		.max_jobs = 16,
		.max_syncs = 8,
	},
	.formats = fdif_fake_formats,
	.num_formats = ARRAY_SIZE(fdif_fake_formats),
	.min_sizes = fdif_fake_min_sizes,
	.num_min_sizes = ARRAY_SIZE(fdif_fake_min_sizes),
	.classes = fdif_fake_classes,
	.num_classes = ARRAY_SIZE(fdif_fake_classes),
	.dma_bits = 40,
	.capacity = 200,
	.object_fields = DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_CONFIDENCE,
};

/* A 640x480 NV12 picture the fake generation takes. */
static struct drm_fdif_job fdif_fake_job(void)
{
	return (struct drm_fdif_job) {
		.picture = {
			.fourcc = DRM_FORMAT_NV12,
			.width = 640, .height = 480,
			.planes[0] = { .handle = 1, .offset = 0, .stride = 640 },
			.planes[1] = { .handle = 1, .offset = 640 * 480, .stride = 640 },
		},
		.result_handle = 3,
		.result_size = 32 + 200 * 40,
		.classes = BIT(DRM_FDIF_CLASS_FACE),
		.directions = BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_LEFT),
		.min_width = 24, .min_height = 24,
		.threshold = 100,
	};
}

static void fdif_test_fake_gen(struct kunit *test)
{
	const struct fdif_gen *gen = &fdif_gen_fake;
	struct drm_fdif_result_layout layout;
	struct drm_fdif_job a = fdif_fake_job();

	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	a.picture.fourcc = DRM_FORMAT_R8;
	a.picture.planes[1] = (struct drm_fdif_plane){ };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	/* the other class, in its one direction; the ROI at the far corner */
	a = fdif_fake_job();
	a.classes = BIT(FAKE_CLASS_OTHER);
	a.directions = BIT(DRM_FDIF_DIR_UP);
	a.roi = (struct drm_fdif_roi){ 624, 464, 16, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);

#define EXPECT_BAD(field, value) do {					\
		a = fdif_fake_job();					\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(gen, &a), -EINVAL, \
				    "fake gen: " #field " = " #value);	\
	} while (0)
	/* alignment of the picture's size and of each plane's layout */
	EXPECT_BAD(picture.width, 641);
	EXPECT_BAD(picture.height, 481);
	EXPECT_BAD(picture.width, 4098);
	EXPECT_BAD(picture.planes[0].stride, 640 + 32);
	EXPECT_BAD(picture.planes[1].stride, 576);
	EXPECT_BAD(picture.planes[1].offset, 640 * 480 + 16);
	EXPECT_BAD(picture.planes[1].stride, 0);
	EXPECT_BAD(picture.planes[2].handle, 1);
	/* classes: one a job; directions: two a job, each the class's */
	EXPECT_BAD(classes, BIT(DRM_FDIF_CLASS_FACE) | BIT(FAKE_CLASS_OTHER));
	EXPECT_BAD(classes, BIT(2));
	EXPECT_BAD(directions, BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) |
		   BIT(DRM_FDIF_DIR_LEFT));
	EXPECT_BAD(min_width, 20);
	EXPECT_BAD(threshold, 101);
	EXPECT_BAD(result_size, 32 + 200 * 40 - 1);
	/* no work area on this generation: none may be given */
	EXPECT_BAD(work_handle, 2);
	EXPECT_BAD(work_offset, 64);
	EXPECT_BAD(in_sync_count, 9);
#undef EXPECT_BAD
	/*
	 * an ROI of a valid size whose left (top) edge is allowed by the
	 * generation but lies past the picture: refused before the width
	 * check, whose picture.width - roi.x would wrap
	 */
	a = fdif_fake_job();
	a.roi = (struct drm_fdif_roi){ 641, 0, 16, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	a.roi = (struct drm_fdif_roi){ 0, 481, 16, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	/* R8 rows: width a multiple of 16, height of 8 (the stride is fine) */
	a = fdif_fake_job();
	a.picture.fourcc = DRM_FORMAT_R8;
	a.picture.planes[0].stride = 704;
	a.picture.planes[1] = (struct drm_fdif_plane){ };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);
	a.picture.width = 648;
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	a.picture.width = 640;
	a.picture.height = 484;
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	a = fdif_fake_job();
	a.classes = BIT(FAKE_CLASS_OTHER);
	KUNIT_EXPECT_EQ_MSG(test, fdif_job_check(gen, &a), -EINVAL,
			    "a direction the class does not scan");
	a = fdif_fake_job();
	a.roi = (struct drm_fdif_roi){ 640, 0, 16, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	a.roi = (struct drm_fdif_roi){ 600, 0, 41, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), -EINVAL);
	a.roi = (struct drm_fdif_roi){ 600, 0, 40, 16 };
	KUNIT_EXPECT_EQ(test, fdif_job_check(gen, &a), 0);

	/* the query answers grow with the tables; the sizes do not */
	fdif_result_layout(gen, &layout);
	KUNIT_EXPECT_EQ(test, layout.capacity, 200);
	KUNIT_EXPECT_EQ(test, layout.size, 32 + 200 * 40);
	KUNIT_EXPECT_EQ(test, layout.header_size, 32);
	KUNIT_EXPECT_EQ(test, layout.object_size, 40);
	KUNIT_EXPECT_EQ(test, layout.align, DRM_FDIF_RESULT_ALIGN);
	KUNIT_EXPECT_EQ(test, layout.object_fields,
			DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_CONFIDENCE);
	KUNIT_EXPECT_PTR_EQ(test, fdif_gen_format(gen, DRM_FORMAT_NV12),
			    &fdif_fake_formats[1]);
	KUNIT_EXPECT_EQ(test, fdif_gen_min_size_index(gen, 48, 48), 1);
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

	fdif_result_layout(&fdif_gen_omap4, &layout);
	KUNIT_EXPECT_EQ(test, layout.version, DRM_FDIF_RESULT_VERSION);
	KUNIT_EXPECT_EQ(test, layout.capacity, FDIF_MAX_FACES);
	KUNIT_EXPECT_EQ(test, layout.size, 32 + 35 * 40);
	KUNIT_EXPECT_EQ(test, layout.align, 8);
	KUNIT_EXPECT_EQ(test, fdif_gen_omap4.dma_bits, 32);
}

/*
 * The highest address each generation's DMA reaches (as far as this
 * kernel's dma_addr_t does) survives in the job the generation's ops get:
 * the shared job struct must not cut a wider generation's addresses.
 */
static void fdif_test_hw_job_addr(struct kunit *test)
{
	static const struct fdif_gen *const gens[] = { &fdif_gen_omap4, &fdif_gen_fake };
	struct fdif_hw_job hw = { };
	unsigned int i, bits;
	dma_addr_t top;

	for (i = 0; i < ARRAY_SIZE(gens); i++) {
		bits = min_t(unsigned int, gens[i]->dma_bits, sizeof(dma_addr_t) * BITS_PER_BYTE);
		top = DMA_BIT_MASK(bits) & ~(dma_addr_t)(SZ_4K - 1);
		hw.plane_addr[DRM_FDIF_MAX_PLANES - 1] = top;
		hw.work_addr = top;
		KUNIT_EXPECT_EQ_MSG(test, (u64)hw.plane_addr[DRM_FDIF_MAX_PLANES - 1], (u64)top,
				    "generation %u, %u DMA bits", i, gens[i]->dma_bits);
		KUNIT_EXPECT_EQ_MSG(test, (u64)hw.work_addr, (u64)top,
				    "generation %u, %u DMA bits", i, gens[i]->dma_bits);
	}
}

static struct kunit_case fdif_params_cases[] = {
	KUNIT_CASE(fdif_test_check_good),
	KUNIT_CASE(fdif_test_check_bad),
	KUNIT_CASE(fdif_test_tables),
	KUNIT_CASE(fdif_test_prepare),
	KUNIT_CASE(fdif_test_unpack),
	KUNIT_CASE(fdif_test_confidence),
	KUNIT_CASE(fdif_test_fake_gen),
	KUNIT_CASE(fdif_test_layout),
	KUNIT_CASE(fdif_test_hw_job_addr),
	KUNIT_CASE(fdif_test_sort),
	{ }
};

static struct kunit_suite fdif_params_suite = {
	.name = "fdif-params",
	.test_cases = fdif_params_cases,
};

kunit_test_suite(fdif_params_suite);
