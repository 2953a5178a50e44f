// SPDX-License-Identifier: MIT
/* IGT-style test: DRM_IOCTL_FDIF_QUERY, its answers and its size rules. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static const uint32_t types[] = {
	DRM_FDIF_QUERY_DEVICE, DRM_FDIF_QUERY_FORMATS, DRM_FDIF_QUERY_MIN_SIZES,
	DRM_FDIF_QUERY_CLASSES, DRM_FDIF_QUERY_RESULT_LAYOUT,
};

static bool is_list(uint32_t type)
{
	return type == DRM_FDIF_QUERY_FORMATS || type == DRM_FDIF_QUERY_MIN_SIZES ||
	       type == DRM_FDIF_QUERY_CLASSES;
}

/* The entry structure this header knows for a list type. */
static size_t entry_size(uint32_t type)
{
	switch (type) {
	case DRM_FDIF_QUERY_FORMATS:
		return sizeof(struct drm_fdif_format_info);
	case DRM_FDIF_QUERY_MIN_SIZES:
		return sizeof(struct drm_fdif_size);
	case DRM_FDIF_QUERY_CLASSES:
		return sizeof(struct drm_fdif_class_info);
	}
	return 0;
}

/* The structure this header knows for a fixed-size answer. */
static size_t fixed_size(uint32_t type)
{
	switch (type) {
	case DRM_FDIF_QUERY_DEVICE:
		return sizeof(struct drm_fdif_device_info);
	case DRM_FDIF_QUERY_RESULT_LAYOUT:
		return sizeof(struct drm_fdif_result_layout);
	}
	return 0;
}

static int raw_query(int fd, uint32_t type, uint64_t pointer, uint32_t *size)
{
	struct drm_fdif_query q = { .type = type, .size = *size, .pointer = pointer };
	int ret = fdif_ioctl(fd, DRM_IOCTL_FDIF_QUERY, &q);

	*size = q.size;
	return ret;
}

/* The whole answer of @type, malloc()ed, its size in *@size. */
static unsigned char *answer(int fd, uint32_t type, int *size)
{
	unsigned char *buf;

	*size = fdif_query(fd, type, NULL, 0);
	if (*size <= 0)
		return NULL;
	buf = malloc(*size);
	if (buf && fdif_query(fd, type, buf, *size) != *size) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

FDIF_DEV_FIXTURE(dev);

/* --- the OMAP4 FDIF's answers ---------------------------------------- */

TEST_F(dev, device)
{
	struct drm_fdif_device_info d;

	memset(&d, 0xa5, sizeof(d));
	ASSERT_EQ(sizeof(d), fdif_query(self->fd, DRM_FDIF_QUERY_DEVICE, &d, sizeof(d)));
	EXPECT_EQ(DRM_FDIF_GEN_OMAP4, d.generation);
	EXPECT_NE(0, d.revision);
	EXPECT_EQ(1u << DRM_FDIF_CLASS_FACE, d.classes);
	EXPECT_EQ((1u << DRM_FDIF_DIR_UP) | (1u << DRM_FDIF_DIR_RIGHT) |
		  (1u << DRM_FDIF_DIR_LEFT), d.directions);
	EXPECT_EQ(1, d.max_job_classes);
	EXPECT_EQ(1, d.max_job_directions);
	EXPECT_EQ(9, d.max_threshold);
	EXPECT_EQ(5, d.default_threshold);
	EXPECT_EQ(52 * 1024, d.work_size);
	EXPECT_EQ(32, d.work_align);
	EXPECT_EQ(20, d.roi_min_width);
	EXPECT_EQ(20, d.roi_min_height);
	EXPECT_EQ(160, d.roi_max_x);
	EXPECT_EQ(120, d.roi_max_y);
	EXPECT_EQ(16, d.max_jobs);
	EXPECT_EQ(64, d.max_syncs);
	TH_LOG("generation %u revision 0x%08x", d.generation, d.revision);
}

TEST_F(dev, formats)
{
	const struct drm_fdif_format_info *f;
	struct drm_fdif_query_list *l;
	int err;

	l = fdif_query_list(self->fd, DRM_FDIF_QUERY_FORMATS, &err);
	ASSERT_NE(NULL, l) TH_LOG("error %d", err);
	ASSERT_EQ(1, l->count);
	EXPECT_EQ(sizeof(*f), l->entry_size);
	ASSERT_GE(l->entry_size, sizeof(*f));
	f = fdif_list_entry(l, 0);
	EXPECT_EQ(DRM_FORMAT_R8, f->fourcc);
	EXPECT_EQ(1, f->num_planes);
	EXPECT_EQ(DRM_FDIF_FORMAT_PACKED_ROWS, f->flags);
	EXPECT_EQ(320, f->min_width);
	EXPECT_EQ(320, f->max_width);
	EXPECT_EQ(1, f->width_align);
	EXPECT_EQ(240, f->min_height);
	EXPECT_EQ(240, f->max_height);
	EXPECT_EQ(1, f->height_align);
	EXPECT_EQ(32, f->offset_align);
	EXPECT_EQ(1, f->stride_align);
	EXPECT_EQ(0, f->pad);
	free(l);
}

TEST_F(dev, min_sizes)
{
	static const struct drm_fdif_size want[] = { { 20, 20 }, { 25, 25 }, { 32, 32 },
						     { 40, 40 } };
	struct drm_fdif_query_list *l;
	uint32_t i;
	int err;

	l = fdif_query_list(self->fd, DRM_FDIF_QUERY_MIN_SIZES, &err);
	ASSERT_NE(NULL, l) TH_LOG("error %d", err);
	ASSERT_EQ(ARRAY_SIZE(want), l->count);
	ASSERT_GE(l->entry_size, sizeof(struct drm_fdif_size));
	for (i = 0; i < l->count; i++) {
		const struct drm_fdif_size *s = fdif_list_entry(l, i);

		EXPECT_EQ(want[i].width, s->width) TH_LOG("entry %u", i);
		EXPECT_EQ(want[i].height, s->height) TH_LOG("entry %u", i);
	}
	free(l);
}

TEST_F(dev, classes)
{
	const struct drm_fdif_class_info *c;
	struct drm_fdif_query_list *l;
	int err;

	l = fdif_query_list(self->fd, DRM_FDIF_QUERY_CLASSES, &err);
	ASSERT_NE(NULL, l) TH_LOG("error %d", err);
	ASSERT_EQ(1, l->count);
	ASSERT_GE(l->entry_size, sizeof(*c));
	c = fdif_list_entry(l, 0);
	EXPECT_EQ(DRM_FDIF_CLASS_FACE, c->object_class);
	EXPECT_EQ(0x7, c->directions);
	free(l);
}

TEST_F(dev, result_layout)
{
	struct drm_fdif_result_layout r;

	memset(&r, 0xa5, sizeof(r));
	ASSERT_EQ(sizeof(r), fdif_query(self->fd, DRM_FDIF_QUERY_RESULT_LAYOUT, &r, sizeof(r)));
	EXPECT_EQ(DRM_FDIF_RESULT_VERSION, r.version);
	EXPECT_EQ(sizeof(struct drm_fdif_result_header), r.header_size);
	EXPECT_EQ(sizeof(struct drm_fdif_object), r.object_size);
	EXPECT_EQ(35, r.capacity);
	EXPECT_EQ(32 + 35 * 40, r.size);
	EXPECT_EQ(8, r.align);
	EXPECT_EQ(DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE | DRM_FDIF_OBJECT_DIRECTION |
		  DRM_FDIF_OBJECT_CONFIDENCE | DRM_FDIF_OBJECT_RAW_CONFIDENCE, r.object_fields);
	EXPECT_EQ(0, r.pad);
}

/* --- the size rules, for every query ---------------------------------- */

/* Pointer 0 asks the size only, whatever size was passed in. */
TEST_F(dev, size_only)
{
	static const uint32_t in_sizes[] = { 0, 1, 4096, ~0u };
	unsigned int t, k;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		uint32_t first = 0;

		for (k = 0; k < ARRAY_SIZE(in_sizes); k++) {
			uint32_t size = in_sizes[k];

			ASSERT_EQ(0, raw_query(self->fd, types[t], 0, &size))
				TH_LOG("type %u size in %u", types[t], in_sizes[k]);
			if (!k)
				first = size;
			EXPECT_EQ(first, size) TH_LOG("type %u", types[t]);
		}
		if (is_list(types[t])) {
			EXPECT_GE(first, sizeof(struct drm_fdif_query_list) + entry_size(types[t]))
				TH_LOG("type %u", types[t]);
		} else {
			EXPECT_GE(first, fixed_size(types[t])) TH_LOG("type %u", types[t]);
		}
		EXPECT_EQ(first, fdif_query(self->fd, types[t], NULL, 0));
	}
}

/*
 * A buffer of the answer's size gets all of it: two reads into buffers
 * filled with different bytes agree on every byte, and nothing past the
 * buffer is written.
 */
TEST_F(dev, exact_size)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		unsigned char *a, *b;
		uint32_t size;
		int n = fdif_query(self->fd, types[t], NULL, 0);

		ASSERT_GT(n, 0) TH_LOG("type %u", types[t]);
		a = malloc(n + 16);
		b = malloc(n + 16);
		ASSERT_TRUE(a && b);
		memset(a, 0xa5, n + 16);
		memset(b, 0x5a, n + 16);
		size = n;
		ASSERT_EQ(0, raw_query(self->fd, types[t], (uintptr_t)a, &size));
		EXPECT_EQ(n, size);
		size = n;
		ASSERT_EQ(0, raw_query(self->fd, types[t], (uintptr_t)b, &size));
		EXPECT_EQ(n, size);
		EXPECT_EQ(0, memcmp(a, b, n)) TH_LOG("type %u: bytes left unwritten", types[t]);
		EXPECT_TRUE(all_bytes(a + n, 16, 0xa5)) TH_LOG("type %u", types[t]);
		EXPECT_TRUE(all_bytes(b + n, 16, 0x5a)) TH_LOG("type %u", types[t]);
		free(a);
		free(b);
	}
}

/*
 * A shorter buffer (an older header's structure) gets the answer's first
 * bytes, and size still tells the whole answer's size; the caller's bytes
 * beyond its size are not touched.
 */
TEST_F(dev, short_buffer)
{
	unsigned int t, k;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		unsigned char *full, *buf;
		int n;

		full = answer(self->fd, types[t], &n);
		ASSERT_NE(NULL, full) TH_LOG("type %u", types[t]);
		buf = malloc(n + 16);
		ASSERT_NE(NULL, buf);
		{
			const uint32_t shorts[] = { 0, 1, 4, 8, n / 2, n - 4, n - 1 };

			for (k = 0; k < ARRAY_SIZE(shorts); k++) {
				uint32_t size = shorts[k];

				if (size >= (uint32_t)n)
					continue;
				memset(buf, 0xa5, n + 16);
				ASSERT_EQ(0, raw_query(self->fd, types[t], (uintptr_t)buf, &size))
					TH_LOG("type %u size %u", types[t], shorts[k]);
				EXPECT_EQ(n, size) TH_LOG("type %u size %u", types[t], shorts[k]);
				EXPECT_EQ(0, memcmp(buf, full, shorts[k]))
					TH_LOG("type %u size %u: not the answer's prefix",
					       types[t], shorts[k]);
				EXPECT_TRUE(all_bytes(buf + shorts[k], n + 16 - shorts[k], 0xa5))
					TH_LOG("type %u size %u: written past the size",
					       types[t], shorts[k]);
			}
		}
		free(buf);
		free(full);
	}
}

/*
 * A longer buffer (a newer header's structure) gets the answer and zeroes
 * up to its size, where this kernel has no fields; nothing past its size.
 */
TEST_F(dev, long_buffer)
{
	static const uint32_t extra[] = { 1, 4, 64, 4096 };
	unsigned int t, k;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		unsigned char *full, *buf;
		int n;

		full = answer(self->fd, types[t], &n);
		ASSERT_NE(NULL, full) TH_LOG("type %u", types[t]);
		buf = malloc(n + 4096 + 16);
		ASSERT_NE(NULL, buf);
		for (k = 0; k < ARRAY_SIZE(extra); k++) {
			uint32_t size = n + extra[k];

			memset(buf, 0xa5, n + 4096 + 16);
			ASSERT_EQ(0, raw_query(self->fd, types[t], (uintptr_t)buf, &size));
			EXPECT_EQ(n, size) TH_LOG("type %u +%u", types[t], extra[k]);
			EXPECT_EQ(0, memcmp(buf, full, n)) TH_LOG("type %u +%u", types[t], extra[k]);
			EXPECT_TRUE(all_bytes(buf + n, extra[k], 0))
				TH_LOG("type %u +%u: the tail is not zeroed", types[t], extra[k]);
			EXPECT_TRUE(all_bytes(buf + n + extra[k], 16, 0xa5))
				TH_LOG("type %u +%u: written past the size", types[t], extra[k]);
		}
		free(buf);
		free(full);
	}
}

TEST_F(dev, unknown_type)
{
	static const uint32_t bad[] = { DRM_FDIF_QUERY_RESULT_LAYOUT + 1, 6, 0x100,
					0x80000000u, ~0u };
	unsigned char buf[256];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		uint32_t size = 0;

		EXPECT_EQ(-EINVAL, raw_query(self->fd, bad[k], 0, &size)) TH_LOG("type 0x%x", bad[k]);
		memset(buf, 0xa5, sizeof(buf));
		size = sizeof(buf);
		EXPECT_EQ(-EINVAL, raw_query(self->fd, bad[k], (uintptr_t)buf, &size))
			TH_LOG("type 0x%x", bad[k]);
		EXPECT_TRUE(all_bytes(buf, sizeof(buf), 0xa5)) TH_LOG("type 0x%x", bad[k]);
	}
}

/* Unwritable answer buffers: unmapped, read-only, running into a hole. */
TEST_F(dev, bad_pointer)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map;
	unsigned int t;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int n = fdif_query(self->fd, types[t], NULL, 0);
		uint32_t size;

		ASSERT_GT(n, 1);
		ASSERT_LT(n, page);
		size = n;
		EXPECT_EQ(-EFAULT, raw_query(self->fd, types[t], 8, &size)) TH_LOG("type %u", types[t]);
		size = n;
		EXPECT_EQ(-EFAULT, raw_query(self->fd, types[t], (uintptr_t)-4096, &size))
			TH_LOG("type %u", types[t]);
		/* its last byte on the inaccessible page */
		size = n;
		EXPECT_EQ(-EFAULT, raw_query(self->fd, types[t], (uintptr_t)(map + page - n + 1),
					     &size)) TH_LOG("type %u", types[t]);
	}
	/* read-only */
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		uint32_t size = fdif_query(self->fd, types[t], NULL, 0);

		EXPECT_EQ(-EFAULT, raw_query(self->fd, types[t], (uintptr_t)map, &size))
			TH_LOG("type %u", types[t]);
	}
	munmap(map, 2 * page);
	/* and the ioctl's own argument */
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_QUERY, (void *)8));
}

/* Every list has entries, each at least the structure this header knows. */
TEST_F(dev, list_entries)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		struct drm_fdif_query_list *l;
		int err, n;

		if (!is_list(types[t]))
			continue;
		n = fdif_query(self->fd, types[t], NULL, 0);
		l = fdif_query_list(self->fd, types[t], &err);
		ASSERT_NE(NULL, l) TH_LOG("type %u: error %d", types[t], err);
		EXPECT_GT(l->count, 0) TH_LOG("type %u", types[t]);
		EXPECT_GE(l->entry_size, entry_size(types[t])) TH_LOG("type %u", types[t]);
		EXPECT_EQ(0, l->entry_size % 4) TH_LOG("type %u", types[t]);
		EXPECT_EQ(n, sizeof(*l) + (size_t)l->count * l->entry_size)
			TH_LOG("type %u", types[t]);
		free(l);
	}
}

/* The answers agree with each other. */
TEST_F(dev, consistency)
{
	struct drm_fdif_query_list *formats, *sizes, *classes;
	struct drm_fdif_result_layout r;
	struct drm_fdif_device_info d;
	uint32_t i, cmask = 0, dmask = 0;
	int err;

	ASSERT_EQ(sizeof(d), fdif_query(self->fd, DRM_FDIF_QUERY_DEVICE, &d, sizeof(d)));
	ASSERT_EQ(sizeof(r), fdif_query(self->fd, DRM_FDIF_QUERY_RESULT_LAYOUT, &r, sizeof(r)));

	/* the result layout */
	EXPECT_EQ(r.size, r.header_size + r.capacity * r.object_size);
	EXPECT_GE(r.header_size, sizeof(struct drm_fdif_result_header));
	EXPECT_GE(r.object_size, sizeof(struct drm_fdif_object));
	EXPECT_GT(r.capacity, 0);
	EXPECT_TRUE(is_pow2(r.align));
	EXPECT_EQ(0, r.header_size % r.align);
	EXPECT_EQ(0, r.object_size % 4);
	EXPECT_TRUE(r.object_fields & DRM_FDIF_OBJECT_BOX);

	/* the device */
	EXPECT_GE(d.max_job_classes, 1);
	EXPECT_LE(d.max_job_classes, __builtin_popcount(d.classes));
	EXPECT_GE(d.max_job_directions, 1);
	EXPECT_LE(d.max_job_directions, __builtin_popcount(d.directions));
	EXPECT_LE(d.default_threshold, d.max_threshold);
	EXPECT_TRUE(is_pow2(d.work_align));
	EXPECT_GE(d.max_jobs, 1);

	/* the classes are the device's */
	classes = fdif_query_list(self->fd, DRM_FDIF_QUERY_CLASSES, &err);
	ASSERT_NE(NULL, classes);
	for (i = 0; i < classes->count; i++) {
		const struct drm_fdif_class_info *c = fdif_list_entry(classes, i);

		ASSERT_LT(c->object_class, 32);
		EXPECT_FALSE(cmask & (1u << c->object_class)) TH_LOG("class %u twice", c->object_class);
		cmask |= 1u << c->object_class;
		EXPECT_NE(0, c->directions);
		EXPECT_EQ(0, c->directions & ~d.directions);
		dmask |= c->directions;
	}
	EXPECT_EQ(d.classes, cmask);
	EXPECT_EQ(d.directions, dmask);
	free(classes);

	/* minimum sizes, smallest first */
	sizes = fdif_query_list(self->fd, DRM_FDIF_QUERY_MIN_SIZES, &err);
	ASSERT_NE(NULL, sizes);
	for (i = 1; i < sizes->count; i++) {
		const struct drm_fdif_size *a = fdif_list_entry(sizes, i - 1);
		const struct drm_fdif_size *b = fdif_list_entry(sizes, i);

		EXPECT_TRUE(a->width < b->width || (a->width == b->width && a->height < b->height))
			TH_LOG("entries %u and %u", i - 1, i);
	}
	free(sizes);

	/* formats: sane limits; the ROI limits fit in every picture */
	formats = fdif_query_list(self->fd, DRM_FDIF_QUERY_FORMATS, &err);
	ASSERT_NE(NULL, formats);
	for (i = 0; i < formats->count; i++) {
		const struct drm_fdif_format_info *f = fdif_list_entry(formats, i);

		EXPECT_GE(f->num_planes, 1);
		EXPECT_LE(f->num_planes, DRM_FDIF_MAX_PLANES);
		EXPECT_EQ(0, f->flags & ~DRM_FDIF_FORMAT_PACKED_ROWS);
		EXPECT_LE(f->min_width, f->max_width);
		EXPECT_LE(f->min_height, f->max_height);
		EXPECT_GE(f->width_align, 1);
		EXPECT_GE(f->height_align, 1);
		EXPECT_TRUE(is_pow2(f->offset_align));
		EXPECT_TRUE(is_pow2(f->stride_align));
		EXPECT_LE(d.roi_min_width, f->min_width);
		EXPECT_LE(d.roi_min_height, f->min_height);
	}
	free(formats);
}

TEST_F(dev, unknown_ioctl)
{
	struct drm_fdif_query q = { 0 };

	/* the first ioctl number past the table */
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd,
				      DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_SUBMIT + 1,
					       struct drm_fdif_query),
				      &q));
}

TEST_HARNESS_MAIN
