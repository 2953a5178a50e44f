/* SPDX-License-Identifier: MIT */
/*
 * The cascade evaluator's context and entry points, used by the FDIF layer
 * (facedet.c).  Not part of the public API.
 */
#ifndef FACEDET_DETECT_H
#define FACEDET_DETECT_H

#include <stdint.h>

#include "facedet.h"

#define FD_MAX_CANDIDATES	256	/* faces kept before the 35-face cap */

/* Which vector scans this build has (see scan_level_vector4() in detect.c). */
#if defined(__GNUC__) && !defined(FACEDET_NO_VECTOR)
#define HAVE_VECTOR_SCAN 1
#else
#define HAVE_VECTOR_SCAN 0
#endif
/* and the AVX2 code chosen at run time (ctx->avx2): scan, resize, rotation */
#if HAVE_VECTOR_SCAN && defined(__x86_64__) && !defined(__clang__) && !defined(FACEDET_NO_AVX2)
#define HAVE_AVX2_SCAN 1
#include <immintrin.h>
#else
#define HAVE_AVX2_SCAN 0
#endif

struct fd_cnode;
struct fd_ptree;

/*
 * Which raw windows a scan keeps: fn(arg, x, y, w, h) is called with a
 * candidate window in picture coordinates and returns two bits whose AND
 * says whether to keep it: bit 0, conditions that once true stay true as
 * x grows (y, w, h fixed), and bit 1, conditions that once false stay false
 * as x grows.  So the kept windows of a row are one interval, which the
 * scan finds with two binary searches per row; it skips the later stages of
 * windows it does not keep.
 */
struct fd_keep {
	int (*fn)(const void *arg, int x, int y, int w, int h);
	const void *arg;
};

/* One unit's output (see facedet_run_unit()). */
struct facedet_part {
	struct facedet_rect *raw;	/* raw hits in scan order */
	int nraw, cap;
	unsigned int windows;		/* windows visited */
	unsigned int unit;		/* which unit of the plan */
	unsigned int plan_w, plan_h;	/* picture size of the plan */
};

struct facedet_ctx {
	const struct facedet_model *m;
	unsigned int max_w, max_h;	/* largest picture accepted */
	int cap;			/* side of the scratch pictures */
	int stride;			/* of the integral images (picture width + 1) */
	int deint;			/* integral columns deinterleaved (2-step levels) */
	int fast;			/* the model runs on the fast evaluator */
	int scalar;			/* FACEDET_EVAL_SCALAR: no vector scan */
	int avx2;			/* the AVX2 scan, resize and rotation run */
	uint8_t chain[2][256];		/* the skip rule on a chunk: fd_chain_init() */
	uint64_t *live;			/* a row's windows alive after a stage, 1 bit each */
	float *row_inv;			/* a row's 1 / (area * stddev), per position */

	struct fd_cnode *cnodes;	/* nodes with offsets for @stride, @deint */
	struct fd_ptree *ptrees;	/* the same for the fast evaluator */
	float *stage_thr;		/* stage thresholds less STAGE_EPS */
	int nofs[4];			/* variance rectangle offsets */
	int narea;			/* and its area */

	uint8_t *scaled;		/* a pyramid level, cap x cap */
	uint8_t *rotated;		/* a rotated ROI, cap x cap */
	double *rot_terms;		/* rotate_roi()'s per-column terms, 2 x cap */
	int32_t *sum;			/* integral, stride x stride */
	uint32_t *sq;			/* squared integral, mod 2^32 */
	int *xofs, *xofs1;		/* resize tables: left, right pixel */
	int16_t *xw;

	struct facedet_rect *raw;	/* raw windows, then groups */
	struct facedet_rect *tmp;	/* grouping scratch */
	int *labels, *cls;
	int raw_cap, nraw;

	struct facedet_part *parts[3];	/* facedet_detect()'s own units */
	int (*should_abort)(void *);	/* facedet_ctx_set_abort() */
	void *abort_opaque;

	struct facedet_stats stats;	/* of the last facedet_detect() */
	struct facedet_face all[FD_MAX_CANDIDATES]; /* its faces before the cap */
	int nall;
};

int fd_ctx_init(struct facedet_ctx *ctx, const struct facedet_model *m, int cap);
int fd_ctx_set_eval(struct facedet_ctx *ctx, enum facedet_eval eval);
void fd_ctx_fini(struct facedet_ctx *ctx);

/*
 * The pyramid levels a scan of a @w x @h picture uses (window side >=
 * @min_size), numbered from 0 by increasing scale; stores the number of
 * window positions of the first @max levels in @windows (may be NULL).
 * Return: the number of levels.
 */
int fd_levels(const struct facedet_ctx *ctx, int w, int h, double step,
	      int min_size, unsigned int *windows, int max);

/*
 * Slide the model over levels [first, first + count) of the picture (see
 * fd_levels()); raw hits that @keep (may be NULL) accepts land in ctx->raw
 * in scan order (level, row, column); ctx->stats.windows counts the
 * windows visited.  Return: number of raw hits or -ENOMEM.
 */
int fd_scan(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
	    int stride, double step, int min_size, int first, int count,
	    const struct fd_keep *keep);

/*
 * Whether a rotated scan keeps window (@x, @y, @w, @h) of the copy of a
 * @roi_w x @roi_h ROI turned by @deg degrees (facedet.c; for tests).
 */
int fd_window_kept(const struct facedet_ctx *ctx, int roi_w, int roi_h, int deg,
		   int x, int y, int w, int h);

/* Make room for @n raw windows in ctx->raw; 0 or -ENOMEM. */
int fd_reserve(struct facedet_ctx *ctx, int n);

/* Group ctx->raw[0..n) in place (OpenCV groupRectangles); returns groups. */
int fd_group(struct facedet_ctx *ctx, int n, int min_neighbors);

#endif /* FACEDET_DETECT_H */
