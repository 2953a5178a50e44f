// SPDX-License-Identifier: MIT
/*
 * The OMAP4 FDIF contract on top of the cascade evaluator: region of
 * interest, face direction (scanning rotated copies of the ROI), LHIT, TRM
 * confidence, the 35-face cap and a deterministic order.
 *
 * LHIT and confidence (documented in docs/detector.md):
 *   min_neighbors = (3 * LHIT + 2) / 5   LHIT 5 -> 3 (OpenCV's default)
 *   confidence    = 9 - min(9, (hits - 1) / 3)
 * where hits counts the raw windows merged into a face.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "facedet-internal.h"
#include "detect.h"

#define SCAN_STEP	1.1	/* pyramid scale step */
#define ROT_STEP	20	/* degrees between rotated scans */
#define FD_PI		3.14159265358979323846

struct candidate {
	double cx, cy, size;	/* hit-weighted sums until normalised */
	double angle;		/* weighted offset from the direction center */
	unsigned int hits;
	unsigned int scans;	/* bit s: scan s found it */
};

void facedet_params_default(struct facedet_params *p)
{
	memset(p, 0, sizeof(*p));
	p->min_size = 20;
	p->dir = FACEDET_DIR_UP;
	p->lhit = FACEDET_DEFAULT_LHIT;
}

struct facedet_ctx *facedet_ctx_new(const struct facedet_model *m,
				    unsigned int max_w, unsigned int max_h)
{
	struct facedet_ctx *ctx;
	int cap, i;

	if (!m || !max_w || !max_h || max_w > FD_MAX_SIDE || max_h > FD_MAX_SIDE)
		return NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	/* any rotation of the picture fits in a square of its diagonal */
	cap = (int)ceil(sqrt((double)max_w * max_w + (double)max_h * max_h)) + 2;
	ctx->max_w = max_w;
	ctx->max_h = max_h;
	for (i = 0; i < 3; i++)
		ctx->parts[i] = facedet_part_new();
	if (!ctx->parts[0] || !ctx->parts[1] || !ctx->parts[2] || fd_ctx_init(ctx, m, cap)) {
		facedet_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

int facedet_ctx_set_eval(struct facedet_ctx *ctx, enum facedet_eval eval)
{
	return fd_ctx_set_eval(ctx, eval);
}

int facedet_eval_parse(const char *name)
{
	static const char *const names[] = {
		[FACEDET_EVAL_AUTO] = "auto",
		[FACEDET_EVAL_SSE2] = "sse2",
		[FACEDET_EVAL_SCALAR] = "scalar",
		[FACEDET_EVAL_REFERENCE] = "reference",
	};
	unsigned int i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -EINVAL;
}

void facedet_ctx_set_abort(struct facedet_ctx *ctx,
			   int (*should_abort)(void *opaque), void *opaque)
{
	ctx->should_abort = should_abort;
	ctx->abort_opaque = opaque;
}

void facedet_ctx_free(struct facedet_ctx *ctx)
{
	int i;

	if (!ctx)
		return;
	fd_ctx_fini(ctx);
	for (i = 0; i < 3; i++)
		facedet_part_free(ctx->parts[i]);
	free(ctx);
}

const struct facedet_stats *facedet_ctx_stats(const struct facedet_ctx *ctx)
{
	return &ctx->stats;
}

unsigned int facedet_ctx_candidates(const struct facedet_ctx *ctx,
				    const struct facedet_face **faces)
{
	*faces = ctx->all;
	return ctx->nall;
}

static int check_picture(const struct facedet_ctx *ctx, const uint8_t *img,
			 unsigned int w, unsigned int h, unsigned int stride)
{
	if (!ctx || !img || !w || !h || stride < w)
		return -EINVAL;
	if (w > ctx->max_w || h > ctx->max_h)
		return -E2BIG;
	return 0;
}

int facedet_detect_rects(struct facedet_ctx *ctx, const uint8_t *img,
			 unsigned int w, unsigned int h, unsigned int stride,
			 double scale_step, unsigned int min_size,
			 int min_neighbors, struct facedet_rect *rects,
			 unsigned int max_rects)
{
	int ret, n;

	ret = check_picture(ctx, img, w, h, stride);
	if (ret)
		return ret;
	if (!(scale_step > 1.0 && scale_step < 4.0) || (max_rects && !rects))
		return -EINVAL;
	memset(&ctx->stats, 0, sizeof(ctx->stats));
	n = fd_scan(ctx, img, w, h, stride, scale_step, min_size, 0, INT32_MAX, NULL);
	if (n < 0)
		return n;
	ctx->stats.scans = 1;
	ctx->stats.raw_hits = n;
	n = fd_group(ctx, n, min_neighbors);
	ctx->stats.groups = n;
	memcpy(rects, ctx->raw, (n < (int)max_rects ? n : (int)max_rects) * sizeof(*rects));
	return n;
}

static void angle_sincos(int deg, double *s, double *c)
{
	static const double exact[4][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };

	deg = ((deg % 360) + 360) % 360;
	if (deg % 90 == 0) {
		*s = exact[deg / 90][0];
		*c = exact[deg / 90][1];
	} else {
		*s = sin(deg * FD_PI / 180.0);
		*c = cos(deg * FD_PI / 180.0);
	}
}

/*
 * Where a rotated scan's geometry lives: a point q in the rotated copy maps
 * to the ROI point  o + M (q - r)  with M = [c -s; s c] (clockwise by the
 * scan angle on screen, y pointing down), o the ROI center, r the copy's.
 */
struct rotation {
	double s, c;
	double ox, oy;		/* ROI center */
	double rx, ry;		/* rotated copy center */
	int w, h;		/* rotated copy size */
	int roi_w, roi_h;	/* ROI size */
};

static void rot_map(const struct rotation *rt, double qx, double qy,
		    double *x, double *y)
{
	qx -= rt->rx;
	qy -= rt->ry;
	*x = rt->ox + rt->c * qx - rt->s * qy;
	*y = rt->oy + rt->s * qx + rt->c * qy;
}

/* The geometry of the copy of a @w x @h ROI rotated by @deg. */
static void rot_geometry(const struct facedet_ctx *ctx, int w, int h, int deg,
			 struct rotation *rt)
{
	angle_sincos(deg, &rt->s, &rt->c);
	rt->w = (int)ceil(fabs(w * rt->c) + fabs(h * rt->s) - 1e-9);
	rt->h = (int)ceil(fabs(w * rt->s) + fabs(h * rt->c) - 1e-9);
	if (rt->w > ctx->cap)
		rt->w = ctx->cap;
	if (rt->h > ctx->cap)
		rt->h = ctx->cap;
	rt->ox = w / 2.0;
	rt->oy = h / 2.0;
	rt->rx = rt->w / 2.0;
	rt->ry = rt->h / 2.0;
	rt->roi_w = w;
	rt->roi_h = h;
}

/*
 * lrint() of a sample in [0, 255] without the library call: adding and
 * taking away 2^52 rounds to an integer in the current rounding mode, as
 * lrint() does, exactly for 0 <= v < 2^52 -- where doubles are evaluated
 * in double (FLT_EVAL_METHOD 0: SSE2, NEON, ...; not the x87).
 */
static inline int sample_round(double v)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	return (int)((v + 0x1p52) - 0x1p52);
#else
	return (int)lrint(v);
#endif
}

#if HAVE_AVX2_SCAN
/*
 * rotate_roi()'s loop over a row, four samples at a time from @u: the same
 * double operations, lane by lane (packed IEEE adds, multiplies and
 * truncations), and the same rounding trick as sample_round().  Neither
 * loop is fused into FMAs as long as the build's CPU has none (the
 * default x86-64) or contraction is off (ISO C, as meson.build asks); a
 * gnu11 build for x86-64-v3 contracts both: test-exact and the golden
 * tests still passed there, but nothing then guarantees they will.  The
 * clamps are max/min: max(-0.0, 0) gives +0.0 where the scalar code keeps
 * -0.0, which only changes the sign of a zero weight's product, never the
 * sum.  Return: where the row stopped.
 */
__attribute__((target("avx2")))
static int rotate_row_avx2(const struct rotation *rt, const double *ax, const double *ay,
			   double bx, double by, const uint8_t *roi, int stride, uint8_t *d)
{
	const __m256d half = _mm256_set1_pd(0.5), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
	const __m256d xmax = _mm256_set1_pd(rt->roi_w - 1), ymax = _mm256_set1_pd(rt->roi_h - 1);
	const __m256d round = _mm256_set1_pd(0x1p52);
	const __m128i wm1 = _mm_set1_epi32(rt->roi_w - 1), hm1 = _mm_set1_epi32(rt->roi_h - 1);
	const __m128i one_i = _mm_set1_epi32(1), vstride = _mm_set1_epi32(stride);
	int u, l;

	for (u = 0; u + 4 <= rt->w; u += 4) {
		__m256d x = _mm256_sub_pd(_mm256_sub_pd(_mm256_loadu_pd(ax + u), _mm256_set1_pd(bx)), half);
		__m256d y = _mm256_sub_pd(_mm256_add_pd(_mm256_loadu_pd(ay + u), _mm256_set1_pd(by)), half);
		__m128i x0, y0, x1, y1, px;
		__m256d fx, fy, gx, top, bot, v;
		int i00[4], i01[4], i10[4], i11[4];

		x = _mm256_min_pd(_mm256_max_pd(x, zero), xmax);
		y = _mm256_min_pd(_mm256_max_pd(y, zero), ymax);
		x0 = _mm256_cvttpd_epi32(x);
		y0 = _mm256_cvttpd_epi32(y);
		fx = _mm256_sub_pd(x, _mm256_cvtepi32_pd(x0));
		fy = _mm256_sub_pd(y, _mm256_cvtepi32_pd(y0));
		x1 = _mm_min_epi32(_mm_add_epi32(x0, one_i), wm1);
		y1 = _mm_min_epi32(_mm_add_epi32(y0, one_i), hm1);
		y0 = _mm_mullo_epi32(y0, vstride);
		y1 = _mm_mullo_epi32(y1, vstride);
		_mm_storeu_si128((__m128i *)i00, _mm_add_epi32(y0, x0));
		_mm_storeu_si128((__m128i *)i01, _mm_add_epi32(y0, x1));
		_mm_storeu_si128((__m128i *)i10, _mm_add_epi32(y1, x0));
		_mm_storeu_si128((__m128i *)i11, _mm_add_epi32(y1, x1));
		gx = _mm256_sub_pd(one, fx);
#define FD_PIX(i) _mm256_cvtepi32_pd(_mm_setr_epi32(roi[(i)[0]], roi[(i)[1]], roi[(i)[2]], roi[(i)[3]]))
		top = _mm256_add_pd(_mm256_mul_pd(FD_PIX(i00), gx), _mm256_mul_pd(FD_PIX(i01), fx));
		bot = _mm256_add_pd(_mm256_mul_pd(FD_PIX(i10), gx), _mm256_mul_pd(FD_PIX(i11), fx));
#undef FD_PIX
		v = _mm256_add_pd(_mm256_mul_pd(top, _mm256_sub_pd(one, fy)), _mm256_mul_pd(bot, fy));
		v = _mm256_sub_pd(_mm256_add_pd(v, round), round);
		px = _mm256_cvttpd_epi32(v);
		px = _mm_packus_epi16(_mm_packus_epi32(px, px), px);
		l = _mm_cvtsi128_si32(px);
		memcpy(d + u, &l, 4);
	}
	return u;
}
#endif

/*
 * Build the copy of the ROI rotated so that faces at @rt's angle stand upright.
 * rot_map()'s terms that depend on u alone (ox + c qx, oy + s qx) are taken
 * once per column and those of v (s qy, c qy) once per row: the same double
 * operations in the same order, so the very same samples.
 */
static void rotate_roi(struct facedet_ctx *ctx, const uint8_t *roi, int stride,
		       const struct rotation *rt)
{
	/* locals: the uint8_t stores below may alias anything */
	const int w = rt->roi_w, h = rt->roi_h, rw = rt->w, rh = rt->h;
	double *const ax = ctx->rot_terms, *const ay = ctx->rot_terms + rw;
	uint8_t *const dst = ctx->rotated;
	int u, v;

	for (u = 0; u < rw; u++) {
		const double qx = u + 0.5 - rt->rx;

		ax[u] = rt->ox + rt->c * qx;
		ay[u] = rt->oy + rt->s * qx;
	}
	for (v = 0; v < rh; v++) {
		const double qy = v + 0.5 - rt->ry, bx = rt->s * qy, by = rt->c * qy;
		uint8_t *d = dst + (size_t)v * rw;

		u = 0;
#if HAVE_AVX2_SCAN
		if (ctx->avx2)
			u = rotate_row_avx2(rt, ax, ay, bx, by, roi, stride, d);
#endif
		for (; u < rw; u++) {
			double x = ax[u] - bx, y = ay[u] + by, fx, fy;
			int x0, y0, x1, y1, p;

			x -= 0.5;
			y -= 0.5;
			/* replicate the border: only windows inside the ROI count */
			x = x < 0 ? 0 : (x > w - 1 ? w - 1 : x);
			y = y < 0 ? 0 : (y > h - 1 ? h - 1 : y);
			x0 = (int)x;
			y0 = (int)y;
			fx = x - x0;
			fy = y - y0;
			x1 = x0 + 1 < w ? x0 + 1 : x0;
			y1 = y0 + 1 < h ? y0 + 1 : y0;
			p = sample_round((roi[y0 * stride + x0] * (1 - fx) + roi[y0 * stride + x1] * fx) * (1 - fy) +
					 (roi[y1 * stride + x0] * (1 - fx) + roi[y1 * stride + x1] * fx) * fy);
			d[u] = (uint8_t)p;
		}
	}
}

/*
 * Keep a raw window of a rotated scan only if its corners all lie in the
 * ROI: the copy's corners are padding.  The scan skips the cascade past
 * stage 0 on the windows this rejects (their hits were dropped anyway).
 *
 * The 16 comparisons are split by how they move as the window's x grows
 * (struct fd_keep): a corner's ROI x is ox + c (qx - rx) - s (qy - ry),
 * non-decreasing in qx if c >= 0, and its y is oy + s (qx - rx) + c (...),
 * non-decreasing if s >= 0.  That holds in floating point too: qx - rx is
 * exact and every later rounding is monotonic.  The AND of both bits is
 * the AND of all 16 comparisons, the test the scan used to apply to its
 * raw hits afterwards.
 */
static int keep_inside(const void *arg, int rx, int ry, int rw, int rh)
{
	const struct rotation *rt = arg;
	const double tol = 1.0;
	int k, rising = 1, falling = 1;

	for (k = 0; k < 4; k++) {
		double x, y;
		int x_lo, x_hi, y_lo, y_hi;

		rot_map(rt, rx + (k & 1 ? rw : 0), ry + (k & 2 ? rh : 0), &x, &y);
		x_lo = x >= -tol;
		x_hi = x <= rt->roi_w + tol;
		y_lo = y >= -tol;
		y_hi = y <= rt->roi_h + tol;
		rising &= rt->c >= 0 ? x_lo : x_hi;
		falling &= rt->c >= 0 ? x_hi : x_lo;
		rising &= rt->s >= 0 ? y_lo : y_hi;
		falling &= rt->s >= 0 ? y_hi : y_lo;
	}
	return rising | falling << 1;
}

/*
 * keep_inside()'s verdict on window (@x, @y, @w, @h) of the copy of a
 * @roi_w x @roi_h ROI rotated by @deg degrees: the spec test
 * (tests/test-roi-rule.c) checks it against the rule in docs/detector.md.
 */
int fd_window_kept(const struct facedet_ctx *ctx, int roi_w, int roi_h, int deg,
		   int x, int y, int w, int h)
{
	struct rotation rt;

	rot_geometry(ctx, roi_w, roi_h, deg, &rt);
	return keep_inside(&rt, x, y, w, h) == 3;
}

static int scan_offset(int scan);

static int add_candidates(const struct facedet_ctx *ctx, int n, const struct rotation *rt,
			  int scan, struct candidate *cand, int ncand)
{
	int i;

	for (i = 0; i < n && ncand < FD_MAX_CANDIDATES; i++) {
		const struct facedet_rect *r = &ctx->raw[i];
		struct candidate *c = &cand[ncand++];
		double x = r->x + r->w / 2.0, y = r->y + r->h / 2.0;

		if (rt)
			rot_map(rt, x, y, &x, &y);
		c->cx = x;
		c->cy = y;
		c->size = (r->w + r->h) / 2.0;
		c->angle = scan_offset(scan);
		c->hits = r->hits;
		c->scans = 1u << scan;
	}
	return ncand;
}

static int cmp_hits(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	if (x->cy != y->cy)
		return x->cy < y->cy ? -1 : 1;
	return x->cx < y->cx ? -1 : x->cx > y->cx;
}

/*
 * Merge the candidates of the different rotated scans: one face seen at
 * 0 and 20 degrees is one face, at the hit-weighted mean position and angle.
 */
static int merge_candidates(struct candidate *cand, int n)
{
	int i, j, out = 0;

	qsort(cand, n, sizeof(*cand), cmp_hits);
	for (i = 0; i < n; i++) {
		const struct candidate *c = &cand[i];

		for (j = 0; j < out; j++) {
			struct candidate *m = &cand[j];
			double mx = m->cx / m->hits, my = m->cy / m->hits;
			double ms = m->size / m->hits;
			double d = hypot(c->cx - mx, c->cy - my);

			if (d < 0.5 * fmax(ms, c->size) &&
			    c->size < 1.5 * ms && ms < 1.5 * c->size)
				break;
		}
		if (j == out) {
			cand[out] = *c;
			cand[out].cx *= c->hits;
			cand[out].cy *= c->hits;
			cand[out].size *= c->hits;
			cand[out].angle *= c->hits;
			out++;
		} else {
			cand[j].cx += c->cx * c->hits;
			cand[j].cy += c->cy * c->hits;
			cand[j].size += c->size * c->hits;
			cand[j].angle += c->angle * c->hits;
			cand[j].hits += c->hits;
			cand[j].scans |= c->scans;
		}
	}
	return out;
}

/* Merged candidates, most hits first; ties by position, size, angle. */
static int cmp_merged(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	double kx[4] = { x->cy / x->hits, x->cx / x->hits, x->size / x->hits, x->angle / x->hits };
	double ky[4] = { y->cy / y->hits, y->cx / y->hits, y->size / y->hits, y->angle / y->hits };
	int i;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	for (i = 0; i < 4; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/*
 * One face kept twice: a larger box from another scan around a face kept
 * already (typically a tilted box from a +-20 degree scan around a face
 * found upright), too far off or too large for merge_candidates() to join.
 * A candidate is dropped when one with more hits has a box no larger that
 * lies at least half inside its own, and it was found by a scan that one
 * was not.  The boxes are the candidates' upright squares; the candidates
 * are taken most hits first, so the result does not depend on their order.
 */
static int suppress_overlaps(struct candidate *cand, int n)
{
	int i, j, out = 0;

	qsort(cand, n, sizeof(*cand), cmp_merged);
	for (i = 0; i < n; i++) {
		const struct candidate *c = &cand[i];
		double cs = c->size / c->hits, cx = c->cx / c->hits, cy = c->cy / c->hits;

		for (j = 0; j < out; j++) {
			const struct candidate *k = &cand[j];
			double ks = k->size / k->hits, kx = k->cx / k->hits, ky = k->cy / k->hits;
			double w = fmin(cx + cs / 2, kx + ks / 2) - fmax(cx - cs / 2, kx - ks / 2);
			double h = fmin(cy + cs / 2, ky + ks / 2) - fmax(cy - cs / 2, ky - ks / 2);

			if (k->hits > c->hits && ks <= cs && (c->scans & ~k->scans) &&
			    w > 0 && h > 0 && w * h >= 0.5 * ks * ks)
				break;
		}
		if (j == out)
			cand[out++] = *c;
	}
	return out;
}

static int cmp_faces(const void *a, const void *b)
{
	const struct facedet_face *x = a, *y = b;

	if (x->confidence != y->confidence)
		return x->confidence < y->confidence ? -1 : 1;
	if (x->cy != y->cy)
		return x->cy < y->cy ? -1 : 1;
	if (x->cx != y->cx)
		return x->cx < y->cx ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->angle < y->angle ? -1 : x->angle > y->angle;
}

static unsigned int clampu(double v, unsigned int lo, unsigned int hi)
{
	long r = lrint(v);

	return r < (long)lo ? lo : (r > (long)hi ? hi : (unsigned int)r);
}

/* scan order: center, then +ROT_STEP, then -ROT_STEP */
static int scan_offset(int scan)
{
	return scan == 0 ? 0 : (scan == 1 ? ROT_STEP : -ROT_STEP);
}

static int scan_angle(const struct facedet_plan *plan, int scan)
{
	static const int centers[] = { 0, 90, 270 };

	return centers[plan->params.dir] + scan_offset(scan);
}

int facedet_plan_init(const struct facedet_ctx *ctx, unsigned int w, unsigned int h,
		      const struct facedet_params *p, unsigned int bands,
		      struct facedet_plan *plan)
{
	unsigned int sx, sy, nscan, s;

	if (!ctx || !p || !plan || !w || !h || bands < 1 || bands > FACEDET_MAX_BANDS)
		return -EINVAL;
	if (w > ctx->max_w || h > ctx->max_h)
		return -E2BIG;
	if (p->dir > FACEDET_DIR_LEFT || p->lhit > FACEDET_MAX_LHIT ||
	    p->min_size < (unsigned int)ctx->m->win_w ||
	    p->min_size < (unsigned int)ctx->m->win_h || p->min_size > FD_MAX_SIDE ||
	    p->flags & ~FACEDET_F_NO_ROTATION ||
	    p->startx >= w || p->starty >= h)
		return -EINVAL;
	sx = p->sizex ? p->sizex : w - p->startx;
	sy = p->sizey ? p->sizey : h - p->starty;
	if (sx > w - p->startx || sy > h - p->starty)
		return -EINVAL;

	memset(plan, 0, sizeof(*plan));
	plan->params = *p;
	plan->params.sizex = sx;
	plan->params.sizey = sy;
	plan->w = w;
	plan->h = h;
	nscan = p->flags & FACEDET_F_NO_ROTATION ? 1 : 3;
	plan->nscans = nscan;
	for (s = 0; s < nscan; s++) {
		unsigned int win[64], total = 0, acc = 0, b, first = 0;
		int deg = scan_angle(plan, s), nlev, l;
		int cw = sx, ch = sy;

		if (deg) {
			struct rotation rt;

			rot_geometry(ctx, sx, sy, deg, &rt);
			cw = rt.w;
			ch = rt.h;
		}
		nlev = fd_levels(ctx, cw, ch, SCAN_STEP, p->min_size, win, 64);
		if (nlev > 64)
			return -EINVAL;	/* cannot happen below 4096 px at step 1.1 */
		for (l = 0; l < nlev; l++)
			total += win[l];
		/*
		 * Cut the levels into @bands runs of about equal window counts
		 * (a band always has at least one level; a scan with no level
		 * still gets one unit, so its counters come out as scanned).
		 */
		for (b = 0; b < bands; b++) {
			struct facedet_unit *u = &plan->unit[plan->nunits];
			unsigned int last = first, cost = 0;

			if (b > 0 && first >= (unsigned int)nlev)
				break;
			while (last < (unsigned int)nlev &&
			       (b == bands - 1 || cost == 0 ||
				(acc + cost) * (double)bands < (double)total * (b + 1))) {
				cost += win[last];
				last++;
			}
			u->scan = s;
			u->first_level = first;
			u->nlevels = last - first;
			u->windows = cost;
			acc += cost;
			first = last;
			plan->nunits++;
		}
	}
	return 0;
}

struct facedet_part *facedet_part_new(void)
{
	return calloc(1, sizeof(struct facedet_part));
}

void facedet_part_free(struct facedet_part *part)
{
	if (!part)
		return;
	free(part->raw);
	free(part);
}

int facedet_run_unit(struct facedet_ctx *ctx, const uint8_t *img, unsigned int stride,
		     const struct facedet_plan *plan, unsigned int unit,
		     struct facedet_part *part)
{
	const struct facedet_params *p = &plan->params;
	const struct facedet_unit *u;
	const uint8_t *roi;
	struct rotation rt;
	struct fd_keep keep = { keep_inside, &rt };
	int ret, n, deg;

	if (!plan || !part || unit >= plan->nunits)
		return -EINVAL;
	ret = check_picture(ctx, img, plan->w, plan->h, stride);
	if (ret)
		return ret;
	u = &plan->unit[unit];
	deg = scan_angle(plan, u->scan);
	roi = img + (size_t)p->starty * stride + p->startx;
	ctx->stats.windows = 0;
	if (deg == 0) {
		n = fd_scan(ctx, roi, p->sizex, p->sizey, stride, SCAN_STEP, p->min_size,
			    u->first_level, u->nlevels, NULL);
	} else {
		rot_geometry(ctx, p->sizex, p->sizey, deg, &rt);
		rotate_roi(ctx, roi, stride, &rt);
		n = fd_scan(ctx, ctx->rotated, rt.w, rt.h, rt.w, SCAN_STEP, p->min_size,
			    u->first_level, u->nlevels, &keep);
	}
	if (n < 0)
		return n;
	if (n > part->cap) {
		struct facedet_rect *raw = realloc(part->raw, n * sizeof(*raw));

		if (!raw)
			return -ENOMEM;
		part->raw = raw;
		part->cap = n;
	}
	if (n)	/* part->raw is still NULL on a part that never had hits */
		memcpy(part->raw, ctx->raw, n * sizeof(*part->raw));
	part->nraw = n;
	part->windows = ctx->stats.windows;
	part->unit = unit;
	part->plan_w = plan->w;
	part->plan_h = plan->h;
	return 0;
}

int facedet_merge(struct facedet_ctx *ctx, const struct facedet_plan *plan,
		  struct facedet_part *const parts[],
		  struct facedet_face faces[FACEDET_MAX_FACES])
{
	static const int centers[] = { 0, 90, 270 };
	const struct facedet_params *p = &plan->params;
	struct candidate cand[FD_MAX_CANDIDATES];
	struct facedet_face *all = ctx->all;
	unsigned int i, w = plan->w, h = plan->h;
	int ncand = 0, s, n, min_neighbors = (3 * (int)p->lhit + 2) / 5;

	if (!ctx || !plan || !parts || !faces)
		return -EINVAL;
	for (i = 0; i < plan->nunits; i++)
		if (!parts[i] || parts[i]->unit != i || parts[i]->plan_w != w ||
		    parts[i]->plan_h != h)
			return -EINVAL;

	memset(&ctx->stats, 0, sizeof(ctx->stats));
	ctx->nall = 0;
	for (s = 0; s < (int)plan->nscans; s++) {
		int deg = scan_angle(plan, s);
		struct rotation rt;

		/* this scan's raw hits, in level order: its units in plan order */
		n = 0;
		for (i = 0; i < plan->nunits; i++) {
			const struct facedet_part *pt = parts[i];

			if (plan->unit[i].scan != (unsigned int)s)
				continue;
			if (fd_reserve(ctx, n + pt->nraw))
				return -ENOMEM;
			if (pt->nraw)	/* pt->raw is NULL until a unit has hits */
				memcpy(ctx->raw + n, pt->raw, pt->nraw * sizeof(*pt->raw));
			n += pt->nraw;
			ctx->stats.windows += pt->windows;
		}
		if (deg)
			rot_geometry(ctx, p->sizex, p->sizey, deg, &rt);
		ctx->stats.scans++;
		ctx->stats.raw_hits += n;
		n = fd_group(ctx, n, min_neighbors);
		ctx->stats.groups += n;
		ncand = add_candidates(ctx, n, deg ? &rt : NULL, s, cand, ncand);
	}

	ncand = merge_candidates(cand, ncand);
	ncand = suppress_overlaps(cand, ncand);
	for (s = 0; s < ncand; s++) {
		const struct candidate *c = &cand[s];
		unsigned int score = (c->hits - 1) / 3;

		all[s] = (struct facedet_face){
			.cx = clampu(p->startx + c->cx / c->hits, 0, w - 1),
			.cy = clampu(p->starty + c->cy / c->hits, 0, h - 1),
			.size = clampu(c->size / c->hits, 0, 0xffff),
			.confidence = FACEDET_MAX_CONFIDENCE -
				(score > FACEDET_MAX_CONFIDENCE ? FACEDET_MAX_CONFIDENCE : score),
			.angle = (unsigned int)((lrint(centers[p->dir] + c->angle / c->hits) + 360) % 360),
			.hits = c->hits,
		};
	}
	qsort(all, ncand, sizeof(*all), cmp_faces);
	ctx->nall = ncand;
	n = ncand < FACEDET_MAX_FACES ? ncand : FACEDET_MAX_FACES;
	memcpy(faces, all, n * sizeof(*faces));
	return n;
}

/* The single-threaded job: the plan's units one after the other, then the merge. */
int facedet_detect(struct facedet_ctx *ctx, const uint8_t *img,
		   unsigned int w, unsigned int h, unsigned int stride,
		   const struct facedet_params *p,
		   struct facedet_face faces[FACEDET_MAX_FACES])
{
	struct facedet_plan plan;
	unsigned int i;
	int ret;

	ret = check_picture(ctx, img, w, h, stride);
	if (ret)
		return ret;
	if (!p || !faces)
		return -EINVAL;
	ret = facedet_plan_init(ctx, w, h, p, 1, &plan);
	if (ret)
		return ret;
	for (i = 0; i < plan.nunits; i++) {
		ret = facedet_run_unit(ctx, img, stride, &plan, i, ctx->parts[i]);
		if (ret)
			return ret;
	}
	return facedet_merge(ctx, &plan, ctx->parts, faces);
}
