// SPDX-License-Identifier: MIT
/*
 * The AVX2 pixel code against the scalar code it replaces: the rotated
 * copies of the ROI, the last pyramid level's resized picture and its
 * integral images must be identical byte for byte, for pictures of noise
 * (every pixel value, every rounding case) and random ROIs, directions and
 * minimum sizes.  The golden test checks the detector's outputs; this one
 * checks the pictures they come from, so a sample off by one cannot hide
 * behind an unchanged result.
 *
 * A second test puts the picture's last byte just before a page that
 * faults and scans ROIs that end there: the AVX2 resize reads a few bytes
 * past each sample it gathers, and must stop before it leaves the picture.
 *
 * Uses the context's internals (src/detect.h).  Skips where the build or
 * the CPU has no AVX2 code.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "facedet.h"
#include "detect.h"

#define PIC_W 640
#define PIC_H 480

static struct facedet_model *model;

static struct facedet_ctx *ctx_with(const char *eval)
{
	struct facedet_ctx *ctx;

	ctx = facedet_ctx_new(model, PIC_W, PIC_H);
	g_assert_nonnull(ctx);
	g_assert_cmpint(facedet_ctx_set_eval(ctx, eval ? facedet_eval_parse(eval) :
					     FACEDET_EVAL_AUTO), ==, 0);
	return ctx;
}

static size_t isize(const struct facedet_ctx *ctx)
{
	return (size_t)(ctx->cap + 1) * (ctx->cap + 1);
}

static void scratch_clear(struct facedet_ctx *ctx)
{
	memset(ctx->rotated, 0, (size_t)ctx->cap * ctx->cap);
	memset(ctx->scaled, 0, (size_t)ctx->cap * ctx->cap);
	memset(ctx->sum, 0, isize(ctx) * sizeof(*ctx->sum));
	memset(ctx->sq, 0, isize(ctx) * sizeof(*ctx->sq));
}

/* The pictures a scan left in @vec and @ref are the same, byte for byte. */
static void assert_same_pictures(const struct facedet_ctx *vec, const struct facedet_ctx *ref)
{
	const size_t pic = (size_t)vec->cap * vec->cap;

	/* the last level's integrals: stride = its width + 1 */
	g_assert_cmpint(vec->stride, ==, ref->stride);
	g_assert_cmpint(vec->stride, >, 1);
	g_assert_cmpmem(vec->rotated, pic, ref->rotated, pic);
	g_assert_cmpmem(vec->scaled, pic, ref->scaled, pic);
	g_assert_cmpmem(vec->sum, isize(vec) * sizeof(*vec->sum),
			ref->sum, isize(ref) * sizeof(*ref->sum));
	g_assert_cmpmem(vec->sq, isize(vec) * sizeof(*vec->sq),
			ref->sq, isize(ref) * sizeof(*ref->sq));
}

/* whether this build has the AVX2 code and this CPU can run it */
static int avx2_possible(void)
{
#if HAVE_AVX2_SCAN
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

static void test_pixels_exact(void)
{
	struct facedet_ctx *vec = ctx_with(NULL), *ref = ctx_with("scalar");
	struct facedet_part *pv = facedet_part_new(), *pr = facedet_part_new();
	GRand *rnd = g_rand_new_with_seed(20261204);
	uint8_t *img = g_malloc(PIC_W * PIC_H);
	unsigned int i, t, u, units = 0, levels = 0;
	int k, nlev;

	g_assert_nonnull(pv);
	g_assert_nonnull(pr);
	if (!vec->avx2) {
		/* only a build or CPU without AVX2 may skip: the default
		 * model is one the fast evaluator runs, and if it stopped
		 * being one, that is a failure, not a skip */
		g_assert_false(avx2_possible() && "the fast evaluator does not run the default model");
		g_test_skip("no AVX2 code in this build or on this CPU");
		goto out;
	}
	for (i = 0; i < PIC_W * PIC_H; i++)
		img[i] = (uint8_t)g_rand_int_range(rnd, 0, 256);
	for (t = 0; t < 40; t++) {
		struct facedet_params p;
		struct facedet_plan plv, plr;

		facedet_params_default(&p);
		p.sizex = g_rand_int_range(rnd, 40, PIC_W + 1);
		p.sizey = g_rand_int_range(rnd, 40, PIC_H + 1);
		/* the ROI touches the picture's last byte now and then */
		p.startx = t % 4 ? (unsigned int)g_rand_int_range(rnd, 0, PIC_W - p.sizex + 1) : PIC_W - p.sizex;
		p.starty = t % 4 ? (unsigned int)g_rand_int_range(rnd, 0, PIC_H - p.sizey + 1) : PIC_H - p.sizey;
		p.dir = t % 3;
		p.min_size = g_rand_int_range(rnd, 20, 41);
		g_assert_cmpint(facedet_plan_init(vec, PIC_W, PIC_H, &p, FACEDET_MAX_BANDS, &plv), ==, 0);
		g_assert_cmpint(facedet_plan_init(ref, PIC_W, PIC_H, &p, FACEDET_MAX_BANDS, &plr), ==, 0);
		/* rotated copies: each unit's last level */
		for (u = 0; u < plv.nunits; u++) {
			scratch_clear(vec);
			scratch_clear(ref);
			g_assert_cmpint(facedet_run_unit(vec, img, PIC_W, &plv, u, pv), ==, 0);
			g_assert_cmpint(facedet_run_unit(ref, img, PIC_W, &plr, u, pr), ==, 0);
			assert_same_pictures(vec, ref);
			units++;
		}
		/* the upright ROI: every level */
		nlev = fd_levels(vec, p.sizex, p.sizey, 1.1, p.min_size, NULL, 0);
		for (k = 0; k < nlev; k++) {
			const uint8_t *roi = img + (size_t)p.starty * PIC_W + p.startx;
			int nv, nr;

			scratch_clear(vec);
			scratch_clear(ref);
			nv = fd_scan(vec, roi, p.sizex, p.sizey, PIC_W, 1.1, p.min_size, k, 1, NULL);
			nr = fd_scan(ref, roi, p.sizex, p.sizey, PIC_W, 1.1, p.min_size, k, 1, NULL);
			g_assert_cmpint(nv, ==, nr);
			if (vec->stride)
				assert_same_pictures(vec, ref);
			levels++;
		}
	}
	g_test_message("%u units and %u upright levels compared", units, levels);
out:
	g_free(img);
	g_rand_free(rnd);
	facedet_part_free(pv);
	facedet_part_free(pr);
	facedet_ctx_free(vec);
	facedet_ctx_free(ref);
}

/* Up to @len bytes that end where an inaccessible page starts. */
static uint8_t *alloc_before_guard(size_t len, void **map, size_t *maplen)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const size_t body = (len + pg - 1) / pg * pg;
	uint8_t *m;

	*maplen = body + pg;
	m = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	g_assert_true(m != MAP_FAILED);
	g_assert_cmpint(mprotect(m + body, pg, PROT_NONE), ==, 0);
	*map = m;
	return m + body - len;
}

static void test_picture_end(void)
{
	static const unsigned int dims[][2] = {
		{ 333, 251 }, { 320, 240 }, { 639, 97 }, { 61, 480 },
	};
	struct facedet_ctx *vec = ctx_with(NULL), *ref = ctx_with("scalar");
	GRand *rnd = g_rand_new_with_seed(4096);
	unsigned int d, t, i, jobs = 0;

	if (!vec->avx2) {
		g_assert_false(avx2_possible() && "the fast evaluator does not run the default model");
		g_test_skip("no AVX2 code in this build or on this CPU");
		goto out;
	}
	for (d = 0; d < G_N_ELEMENTS(dims); d++) {
		const unsigned int w = dims[d][0], h = dims[d][1];
		struct facedet_rect rv[256], rr[256];
		size_t maplen;
		void *map;
		uint8_t *img = alloc_before_guard((size_t)w * h, &map, &maplen);
		int nv, nr;

		for (i = 0; i < w * h; i++)
			img[i] = (uint8_t)g_rand_int_range(rnd, 0, 256);
		/* the OpenCV-style upright scan of the whole picture */
		nv = facedet_detect_rects(vec, img, w, h, w, 1.1, 20, 3, rv, G_N_ELEMENTS(rv));
		nr = facedet_detect_rects(ref, img, w, h, w, 1.1, 20, 3, rr, G_N_ELEMENTS(rr));
		g_assert_cmpint(nv, ==, nr);
		g_assert_cmpint(nv, >=, 0);
		g_assert_cmpmem(rv, MIN(nv, 256) * sizeof(*rv), rr, MIN(nr, 256) * sizeof(*rr));
		/* FDIF jobs whose ROI ends at the picture's last byte */
		for (t = 0; t < 12; t++) {
			struct facedet_face fv[FACEDET_MAX_FACES], fr[FACEDET_MAX_FACES];
			struct facedet_params p;

			facedet_params_default(&p);
			p.sizex = t % 4 ? (unsigned int)g_rand_int_range(rnd, 40, w + 1) : w;
			p.sizey = t % 4 ? (unsigned int)g_rand_int_range(rnd, 40, h + 1) : h;
			p.startx = w - p.sizex;
			p.starty = h - p.sizey;
			p.dir = t % 3;
			p.min_size = g_rand_int_range(rnd, 20, 41);
			nv = facedet_detect(vec, img, w, h, w, &p, fv);
			nr = facedet_detect(ref, img, w, h, w, &p, fr);
			g_assert_cmpint(nv, ==, nr);
			g_assert_cmpint(nv, >=, 0);
			g_assert_cmpmem(fv, nv * sizeof(*fv), fr, nr * sizeof(*fr));
			jobs++;
		}
		g_assert_cmpint(munmap(map, maplen), ==, 0);
	}
	g_test_message("%u jobs on pictures that end at a faulting page", jobs);
out:
	g_rand_free(rnd);
	facedet_ctx_free(vec);
	facedet_ctx_free(ref);
}

int main(int argc, char **argv)
{
	const char *path = g_getenv("FACEDET_MODEL");
	char err[256];

	g_test_init(&argc, &argv, NULL);
	if (!path)
		path = FACEDET_DEFAULT_MODEL;
	if (facedet_model_load(path, &model, err, sizeof(err))) {
		g_printerr("%s\n", err);
		return 1;
	}
	g_test_add_func("/facedet/pixels-exact", test_pixels_exact);
	g_test_add_func("/facedet/picture-end", test_picture_end);
	return g_test_run();
}
