// SPDX-License-Identifier: MIT
/*
 * The multi-scale cascade evaluator.
 *
 * For each pyramid level the picture is resized (bilinear), its integral
 * and squared integral are built into buffers of one fixed stride, and the
 * model's base window slides over it.  Because the stride never changes, the
 * offsets of every feature rectangle are computed once per context
 * ("compiled" nodes), and a window is evaluated with nothing but loads,
 * multiply-adds and compares.  The squared integral is kept in uint32_t
 * with wrap-around: a window's sum of squares (at most 64*64*255^2) fits,
 * and modular arithmetic makes the four-corner difference exact.
 *
 * The scan order, window steps, variance normalisation and grouping follow
 * OpenCV's CascadeClassifier::detectMultiScale() so both agree on the same
 * cascade; see docs/detector.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "facedet-internal.h"
#include "detect.h"

/* The widest vector scan's lanes (see detect-vector.h). */
#define FD_MAX_LANES 8
/* Stage sums within this margin of the threshold count as passing. */
#define STAGE_EPS 1e-5f
/* Windows flatter than this standard deviation are not faces. */
#define MIN_STDDEV 10.0

/* A tree node compiled for one integral layout: the reference evaluator. */
struct fd_cnode {
	int ofs[FD_MAX_RECTS][4];
	float weight[FD_MAX_RECTS];
	float threshold;
	int nrects;
	int left, right;
};

/*
 * The fast evaluator's tree: a stump, or a depth-2 tree whose root has one
 * leaf child and one node child (every tree of alt2 has this shape).  A
 * stump is stored as such a tree whose second node has no rectangles and a
 * threshold of -inf, so it always takes its ">=" leaf.
 *
 * Rectangle weights are integers here (alt2's are -1, 2 and 3), so a
 * feature is an exact int32 sum, converted to float once.  fd_ctx_init()
 * only takes this path if every weight is an integer and every feature's
 * largest possible |sum| is below 2^24: then the float sum of the
 * reference evaluator is exact too and both give the same float, bit for
 * bit.  Anything else runs the reference evaluator.
 */
struct fd_pnode {
	int ofs[FD_MAX_RECTS][4];
	int32_t weight[FD_MAX_RECTS];
	float fweight[FD_MAX_RECTS];	/* the same, for the vector code */
	int nrects;
	float threshold;
};

struct fd_ptree {
	struct fd_pnode n[2];	/* root, second node */
	float leaf_root;	/* the root's leaf */
	float leaf_lt, leaf_ge;	/* the second node's leaves: < threshold, >= */
	int node_if_lt;		/* the root goes to the second node if < threshold */
	int32_t node_xor;	/* 0 if node_if_lt, else -1: "<" mask ^ this = to node */
};

static int iround(double v)
{
	return (int)lrint(v);
}

/*
 * Where integral column @dx of a window lives relative to the window's own
 * column.  Levels scanned with a 2-pixel step store their integral images
 * with even columns first, then odd ones ("deinterleaved"): the windows at
 * x = 0, 2, 4, ... then read consecutive addresses, which is what lets the
 * vector code load 8 windows' corners with one load.  A window at x = 2i
 * has base column i; column 2i + dx is at i + dx/2 if dx is even and at
 * H + i + dx/2 (rounded down) if odd, H being the number of even columns.
 */
static int col_ofs(int dx, int S, int deint)
{
	if (!deint)
		return dx;
	return (dx & 1 ? (S + 1) / 2 : 0) + (dx >> 1);
}

static void rect_ofs(int ofs[4], const struct fd_rect *r, int S, int deint)
{
	ofs[0] = r->y * S + col_ofs(r->x, S, deint);
	ofs[1] = r->y * S + col_ofs(r->x + r->w, S, deint);
	ofs[2] = (r->y + r->h) * S + col_ofs(r->x, S, deint);
	ofs[3] = (r->y + r->h) * S + col_ofs(r->x + r->w, S, deint);
}

static void compile_pnode(struct fd_pnode *pn, const struct facedet_model *m,
			  const struct fd_node *n, int S, int deint)
{
	const struct fd_feature *f = &m->features[n->feature];
	int j;

	memset(pn, 0, sizeof(*pn));
	pn->threshold = n->threshold;
	pn->nrects = f->nrects;
	for (j = 0; j < f->nrects; j++) {
		pn->weight[j] = (int32_t)f->r[j].weight;
		pn->fweight[j] = (float)pn->weight[j];
		rect_ofs(pn->ofs[j], &f->r[j], S, deint);
	}
}

/*
 * Compute every node's rectangle offsets for integral images of stride @S
 * in the given column layout.  A scan compiles at most twice (its 2-step
 * levels, then its 1-step ones), not per window or per level.
 */
static void compile_nodes(struct facedet_ctx *ctx, int S, int deint)
{
	const struct facedet_model *m = ctx->m;
	int i, j;

	if (ctx->stride == S && ctx->deint == deint)
		return;
	for (i = 0; i < m->nnodes; i++) {
		const struct fd_node *n = &m->nodes[i];
		const struct fd_feature *f = &m->features[n->feature];
		struct fd_cnode *c = &ctx->cnodes[i];

		c->threshold = n->threshold;
		c->left = n->left;
		c->right = n->right;
		c->nrects = f->nrects;
		for (j = 0; j < FD_MAX_RECTS; j++) {
			const struct fd_rect *r = &f->r[j < f->nrects ? j : 0];

			c->weight[j] = j < f->nrects ? r->weight : 0;
			rect_ofs(c->ofs[j], r, S, deint);
		}
	}
	if (ctx->fast) {
		for (i = 0; i < m->ntrees; i++) {
			const struct fd_tree *t = &m->trees[i];
			const struct fd_node *root = &m->nodes[t->first_node];
			struct fd_ptree *pt = &ctx->ptrees[i];

			compile_pnode(&pt->n[0], m, root, S, deint);
			if (t->nnodes == 1) {
				/* stump: "<" takes the left leaf, the dummy node the right */
				memset(&pt->n[1], 0, sizeof(pt->n[1]));
				pt->n[1].threshold = -INFINITY;
				pt->node_if_lt = 0;
				pt->node_xor = -1;
				pt->leaf_root = m->leaves[t->first_leaf - root->left];
				pt->leaf_ge = m->leaves[t->first_leaf - root->right];
				pt->leaf_lt = pt->leaf_ge;
			} else {
				const struct fd_node *second = &m->nodes[t->first_node + 1];

				compile_pnode(&pt->n[1], m, second, S, deint);
				pt->node_if_lt = root->left > 0;
				pt->node_xor = pt->node_if_lt ? 0 : -1;
				pt->leaf_root = m->leaves[t->first_leaf -
							  (root->left > 0 ? root->right : root->left)];
				pt->leaf_lt = m->leaves[t->first_leaf - second->left];
				pt->leaf_ge = m->leaves[t->first_leaf - second->right];
			}
		}
	}
	/* variance is measured on the window less a one-pixel border */
	{
		const struct fd_rect v = { 1, 1, m->win_w - 2, m->win_h - 2, 0 };

		rect_ofs(ctx->nofs, &v, S, deint);
	}
	ctx->narea = (m->win_w - 2) * (m->win_h - 2);
	ctx->stride = S;
	ctx->deint = deint;
}

/*
 * Can the fast evaluator run this model with results identical to the
 * reference one?  See struct fd_ptree.
 */
static int model_is_fast(const struct facedet_model *m)
{
	int i, j;

	for (i = 0; i < m->ntrees; i++) {
		const struct fd_tree *t = &m->trees[i];
		const struct fd_node *n = &m->nodes[t->first_node];

		if (t->nnodes == 1)
			continue;
		if (t->nnodes != 2 || (n->left > 0) == (n->right > 0) ||
		    n[1].left > 0 || n[1].right > 0)
			return 0;
	}
	for (i = 0; i < m->nfeatures; i++) {
		const struct fd_feature *f = &m->features[i];
		double bound = 0;

		for (j = 0; j < f->nrects; j++) {
			const struct fd_rect *r = &f->r[j];

			if (r->weight != (float)(int32_t)r->weight || fabsf(r->weight) > 1024)
				return 0;
			bound += fabs(r->weight) * r->w * r->h * 255.0;
		}
		if (bound >= 16777216.0)	/* 2^24: all partial sums exact in float */
			return 0;
	}
	return 1;
}

/*
 * The reference scan's skip rule on a chunk of 8 consecutive positions:
 * a visited position that stage 0 rejects makes it skip the next one.
 * chain[s][r] is the mask of the positions it visits when r is the mask of
 * those stage 0 would reject, s = 1 if it skips the first.
 */
static void fd_chain_init(uint8_t chain[2][256])
{
	int s, r, l;

	for (s = 0; s < 2; s++) {
		for (r = 0; r < 256; r++) {
			unsigned int v = 0, skip = s;

			for (l = 0; l < 8; l++) {
				if (skip) {
					skip = 0;
					continue;
				}
				v |= 1u << l;
				skip = r >> l & 1;
			}
			chain[s][r] = (uint8_t)v;
		}
	}
}

/*
 * Which evaluator scans: facedet_ctx_set_eval(). The fast one only for a
 * model it computes exactly (model_is_fast()); AVX2 only with the fast
 * vector scan, where the build and the CPU have it.
 */
int fd_ctx_set_eval(struct facedet_ctx *ctx, enum facedet_eval eval)
{
	switch (eval) {
	case FACEDET_EVAL_AUTO:
	case FACEDET_EVAL_SSE2:
	case FACEDET_EVAL_SCALAR:
	case FACEDET_EVAL_REFERENCE:
		break;
	default:
		return -EINVAL;
	}
	ctx->fast = model_is_fast(ctx->m) && eval != FACEDET_EVAL_REFERENCE;
	ctx->scalar = eval == FACEDET_EVAL_SCALAR;
#if HAVE_AVX2_SCAN
	ctx->avx2 = ctx->fast && !ctx->scalar && eval != FACEDET_EVAL_SSE2 &&
		    __builtin_cpu_supports("avx2");
#endif
	return 0;
}

int fd_ctx_init(struct facedet_ctx *ctx, const struct facedet_model *m, int cap)
{
	int S = cap + 1, i;
	/* the vector code reads up to a chunk past the last window of a row */
	size_t isize = (size_t)S * S + 4 * FD_MAX_WINDOW;

	ctx->m = m;
	ctx->cap = cap;
	ctx->stride = 0;
	fd_ctx_set_eval(ctx, FACEDET_EVAL_AUTO);
	ctx->cnodes = calloc(m->nnodes, sizeof(*ctx->cnodes));
	/* any evaluator can be chosen later: fd_ctx_set_eval() */
	ctx->ptrees = model_is_fast(m) ? calloc(m->ntrees, sizeof(*ctx->ptrees)) : NULL;
	ctx->stage_thr = malloc(m->nstages * sizeof(*ctx->stage_thr));
	ctx->scaled = malloc((size_t)cap * cap);
	ctx->rotated = malloc((size_t)cap * cap);
	ctx->rot_terms = malloc(2 * (size_t)cap * sizeof(*ctx->rot_terms));
	ctx->sum = calloc(isize, sizeof(*ctx->sum));
	ctx->sq = calloc(isize, sizeof(*ctx->sq));
	ctx->xofs = malloc(cap * sizeof(*ctx->xofs));
	ctx->xofs1 = malloc(cap * sizeof(*ctx->xofs1));
	ctx->xw = malloc(cap * sizeof(*ctx->xw));
	/* a row's bits and factors, and a chunk past its last position */
	ctx->live = calloc((size_t)cap / 64 + 2, sizeof(*ctx->live));
	ctx->row_inv = calloc((size_t)cap + 2 * FD_MAX_LANES, sizeof(*ctx->row_inv));
	ctx->raw_cap = 1024;
	ctx->raw = malloc(ctx->raw_cap * sizeof(*ctx->raw));
	ctx->tmp = malloc(ctx->raw_cap * sizeof(*ctx->tmp));
	ctx->labels = malloc(ctx->raw_cap * sizeof(*ctx->labels));
	ctx->cls = malloc(ctx->raw_cap * sizeof(*ctx->cls));
	if (!ctx->cnodes || (model_is_fast(m) && !ctx->ptrees) || !ctx->stage_thr || !ctx->scaled ||
	    !ctx->rotated || !ctx->rot_terms || !ctx->sum || !ctx->sq ||
	    !ctx->xofs || !ctx->xofs1 || !ctx->xw || !ctx->live || !ctx->row_inv || !ctx->raw || !ctx->tmp || !ctx->labels || !ctx->cls)
		return -ENOMEM;
	fd_chain_init(ctx->chain);
	/* the very float the reference evaluator compares a stage sum with */
	for (i = 0; i < m->nstages; i++)
		ctx->stage_thr[i] = m->stages[i].threshold - STAGE_EPS;

	return 0;
}

void fd_ctx_fini(struct facedet_ctx *ctx)
{
	free(ctx->cnodes);
	free(ctx->ptrees);
	free(ctx->stage_thr);
	free(ctx->scaled);
	free(ctx->rotated);
	free(ctx->rot_terms);
	free(ctx->sum);
	free(ctx->sq);
	free(ctx->xofs);
	free(ctx->xofs1);
	free(ctx->xw);
	free(ctx->live);
	free(ctx->row_inv);
	free(ctx->raw);
	free(ctx->tmp);
	free(ctx->labels);
	free(ctx->cls);
}

#if HAVE_AVX2_SCAN
/*
 * resize_bilinear()'s row loop for dst pixels [0, n), 8 at a time: a
 * gather of the 4 bytes at each left pixel gives it and its right
 * neighbour (byte 1, the right pixel wherever the weight is not 0), and
 * the same integer formula follows.  Reads up to 3 bytes past xofs[x], so
 * the caller keeps n where that stays inside the picture.  @r1 = NULL: the
 * row weight is 0.
 */
__attribute__((target("avx2")))
static void resize_row_avx2(const uint8_t *r0, const uint8_t *r1, int b,
			    const int *xofs, const int16_t *xw, uint8_t *d, int n)
{
	const __m256i lo = _mm256_set1_epi32(0xff), half = _mm256_set1_epi32(1 << 21);
	const __m256i vb = _mm256_set1_epi32(b);
	int x;

	for (x = 0; x + 8 <= n; x += 8) {
		const __m256i xo = _mm256_loadu_si256((const __m256i *)(xofs + x));
		const __m256i a = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(xw + x)));
		__m256i g = _mm256_i32gather_epi32((const int *)r0, xo, 1);
		__m256i p0 = _mm256_and_si256(g, lo), p1 = _mm256_and_si256(_mm256_srli_epi32(g, 8), lo);
		__m256i top = _mm256_add_epi32(_mm256_slli_epi32(p0, 11),
					       _mm256_mullo_epi32(_mm256_sub_epi32(p1, p0), a));
		__m256i v = _mm256_slli_epi32(top, 11), pk;

		if (r1) {
			__m256i bot;

			g = _mm256_i32gather_epi32((const int *)r1, xo, 1);
			p0 = _mm256_and_si256(g, lo);
			p1 = _mm256_and_si256(_mm256_srli_epi32(g, 8), lo);
			bot = _mm256_add_epi32(_mm256_slli_epi32(p0, 11),
					       _mm256_mullo_epi32(_mm256_sub_epi32(p1, p0), a));
			v = _mm256_add_epi32(v, _mm256_mullo_epi32(_mm256_sub_epi32(bot, top), vb));
		}
		v = _mm256_srli_epi32(_mm256_add_epi32(v, half), 22);
		/* eight values 0..255 to bytes: 4 per 128-bit lane */
		pk = _mm256_packus_epi16(_mm256_packus_epi32(v, v), _mm256_setzero_si256());
		{
			const uint32_t l0 = (uint32_t)_mm256_extract_epi32(pk, 0);
			const uint32_t l1 = (uint32_t)_mm256_extract_epi32(pk, 4);

			memcpy(d + x, &l0, 4);
			memcpy(d + x + 4, &l1, 4);
		}
	}
}
#endif

/*
 * Bilinear resize with OpenCV's pixel-center mapping and 11-bit fixed-point
 * weights: dst(x, y) samples src((x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5).
 */
static void resize_bilinear(struct facedet_ctx *ctx, const uint8_t *src,
			    int sw, int sh, int sstride, uint8_t *dst,
			    int dw, int dh, int dstride)
{
	const double fx = (double)sw / dw, fy = (double)sh / dh;
	/* locals: the uint8_t stores below may alias anything, ctx too */
	int *const xofs = ctx->xofs, *const xofs1 = ctx->xofs1;
	int16_t *const xw = ctx->xw;
	int x, y, nv = 0;

	for (x = 0; x < dw; x++) {
		double s = (x + 0.5) * fx - 0.5;
		int x0 = (int)floor(s);
		double a = s - x0;

		if (x0 < 0) {
			x0 = 0;
			a = 0;
		}
		if (x0 >= sw - 1) {
			x0 = sw - 1;
			a = 0;
		}
		xofs[x] = x0;
		xw[x] = (int16_t)iround(a * 2048);
		/* a zero weight needs no second pixel */
		xofs1[x] = x0 + (xw[x] != 0);
	}
#if HAVE_AVX2_SCAN
	/* the gather reads 4 bytes from the left pixel: stay in the row */
	if (ctx->avx2)
		while (nv + 8 <= dw && xofs[nv + 7] + 3 < sw)
			nv += 8;
#endif
	for (y = 0; y < dh; y++) {
		double s = (y + 0.5) * fy - 0.5;
		int y0 = (int)floor(s), b, y1;
		const uint8_t *r0, *r1;
		uint8_t *d = dst + (size_t)y * dstride;

		b = iround((s - y0) * 2048);
		if (y0 < 0) {
			y0 = 0;
			b = 0;
		}
		if (y0 >= sh - 1) {
			y0 = sh - 1;
			b = 0;
		}
		y1 = y0 + (b ? 1 : 0);
		r0 = src + (size_t)y0 * sstride;
		r1 = src + (size_t)y1 * sstride;
		/*
		 * p0 (2048 - a) + p1 a = 2048 p0 + (p1 - p0) a, and the same
		 * for the rows: the same integers with half the multiplies
		 * (all terms stay below 2^31).  A zero weight needs no second
		 * pixel, and b = 0 no second row.
		 */
#if HAVE_AVX2_SCAN
		if (nv)
			resize_row_avx2(r0, b ? r1 : NULL, b, xofs, xw, d, nv);
#endif
		if (!b) {
			for (x = nv; x < dw; x++) {
				int x0 = xofs[x], a = xw[x];
				int top = (r0[x0] << 11) + (r0[xofs1[x]] - r0[x0]) * a;

				d[x] = (uint8_t)(((top << 11) + (1 << 21)) >> 22);
			}
			continue;
		}
		for (x = nv; x < dw; x++) {
			int x0 = xofs[x], a = xw[x], x1 = xofs1[x];
			int top = (r0[x0] << 11) + (r0[x1] - r0[x0]) * a;
			int bot = (r1[x0] << 11) + (r1[x1] - r1[x0]) * a;

			d[x] = (uint8_t)(((top << 11) + (bot - top) * b + (1 << 21)) >> 22);
		}
	}
}

/* Sum and squared-sum integrals of @img in the layout compiled last. */
static void integral(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
		     int istride)
{
	const int S = ctx->stride, H = (S + 1) / 2, deint = ctx->deint;
	int32_t *sum = ctx->sum;
	uint32_t *sq = ctx->sq;
	int x, y, k;

	memset(sum, 0, (w + 1) * sizeof(*sum));
	memset(sq, 0, (w + 1) * sizeof(*sq));
	for (y = 0; y < h; y++) {
		const uint8_t *row = img + (size_t)y * istride;
		int32_t *s = sum + (size_t)(y + 1) * S, *sp = s - S;
		uint32_t *q = sq + (size_t)(y + 1) * S, *qp = q - S;
		int32_t rs = 0;
		uint32_t rq = 0;

		s[0] = 0;
		q[0] = 0;
		if (!deint) {
			for (x = 0; x < w; x++) {
				rs += row[x];
				rq += (uint32_t)row[x] * row[x];
				s[x + 1] = sp[x + 1] + rs;
				q[x + 1] = qp[x + 1] + rq;
			}
			continue;
		}
		/*
		 * Column c = x + 1 is at H + x / 2 for even x (odd c) and at
		 * x / 2 + 1 for odd x: two pixels at a time, no index maths.
		 */
		for (x = 0, k = 0; x + 1 < w; x += 2, k++) {
			rs += row[x];
			rq += (uint32_t)row[x] * row[x];
			s[H + k] = sp[H + k] + rs;
			q[H + k] = qp[H + k] + rq;
			rs += row[x + 1];
			rq += (uint32_t)row[x + 1] * row[x + 1];
			s[k + 1] = sp[k + 1] + rs;
			q[k + 1] = qp[k + 1] + rq;
		}
		if (x < w) {
			rs += row[x];
			rq += (uint32_t)row[x] * row[x];
			s[H + k] = sp[H + k] + rs;
			q[H + k] = qp[H + k] + rq;
		}
	}
}

#define RECT_SUM(p, o) ((p)[(o)[0]] - (p)[(o)[1]] - (p)[(o)[2]] + (p)[(o)[3]])

/*
 * The reference evaluator: any tree shape, float weights.
 * Evaluate the cascade on the window whose integral corner is @ofs.
 * Return: 1 if every stage passes, 0 if the first stage rejects it (the
 * caller then skips the next position, as OpenCV does), -1 otherwise.
 */
static int eval_window(const struct facedet_ctx *ctx, size_t ofs)
{
	const struct facedet_model *m = ctx->m;
	const int32_t *p = ctx->sum + ofs;
	const uint32_t *q = ctx->sq + ofs;
	const int *no = ctx->nofs;
	const double area = ctx->narea;
	int32_t vsum = RECT_SUM(p, no);
	uint32_t vsq = q[no[0]] - q[no[1]] - q[no[2]] + q[no[3]];
	double nf = area * vsq - (double)vsum * vsum;
	float inv;
	int si;

	if (nf <= 0)
		return -1;
	nf = sqrt(nf);
	if (nf <= MIN_STDDEV * area)
		return -1;
	inv = (float)(1.0 / nf);

	for (si = 0; si < m->nstages; si++) {
		const struct fd_stage *st = &m->stages[si];
		const struct fd_tree *t = &m->trees[st->first_tree];
		const struct fd_tree *tend = t + st->ntrees;
		float acc = 0;

		for (; t < tend; t++) {
			const struct fd_cnode *nodes = &ctx->cnodes[t->first_node];
			int idx = 0;

			do {
				const struct fd_cnode *n = &nodes[idx];
				float v = n->weight[0] * RECT_SUM(p, n->ofs[0]) +
					  n->weight[1] * RECT_SUM(p, n->ofs[1]);

				if (n->nrects > 2)
					v += n->weight[2] * RECT_SUM(p, n->ofs[2]);
				idx = v * inv < n->threshold ? n->left : n->right;
			} while (idx > 0);
			acc += m->leaves[t->first_leaf - idx];
		}
		if (acc < st->threshold - STAGE_EPS)
			return si == 0 ? 0 : -1;
	}
	return 1;
}

/* A feature's exact integer sum (fast evaluator). */
static inline int32_t pfeature(const int32_t *p, const struct fd_pnode *n)
{
	int32_t v = n->weight[0] * RECT_SUM(p, n->ofs[0]) +
		    n->weight[1] * RECT_SUM(p, n->ofs[1]);

	if (n->nrects > 2)
		v += n->weight[2] * RECT_SUM(p, n->ofs[2]);
	return v;
}

/*
 * The fast evaluator, from stage @si on, for a window that passed the
 * variance test with normalisation @inv.  Same return values as
 * eval_window().  Each comparison is the reference one: float(sum) * inv
 * against the node's float threshold, and the stage sums add the same
 * leaves in the same order.
 */
static int eval_fast(const struct facedet_ctx *ctx, const int32_t *p, float inv, int si)
{
	const struct facedet_model *m = ctx->m;

	for (; si < m->nstages; si++) {
		const struct fd_ptree *t = &ctx->ptrees[m->stages[si].first_tree];
		const struct fd_ptree *tend = t + m->stages[si].ntrees;
		float acc = 0;

		for (; t < tend; t++) {
			int lt = (float)pfeature(p, &t->n[0]) * inv < t->n[0].threshold;

			if (lt == t->node_if_lt) {
				lt = (float)pfeature(p, &t->n[1]) * inv < t->n[1].threshold;
				acc += lt ? t->leaf_lt : t->leaf_ge;
			} else {
				acc += t->leaf_root;
			}
		}
		if (acc < ctx->stage_thr[si])
			return si == 0 ? 0 : -1;
	}
	return 1;
}

/*
 * The variance test of the fast evaluator, without the square root on
 * rejected windows.  nf = area * sumsq - sum^2 is an exact integer (below
 * 2^53: area <= 62^2, sumsq <= area * 255^2) computed exactly in double,
 * and T = MIN_STDDEV * area is an integer, so the reference test
 * sqrt(nf) <= T is the same as nf <= T^2: sqrt is correctly rounded and
 * monotonic, sqrt(T^2) = T exactly, and for nf >= T^2 + 1 the true root
 * exceeds T by more than 1/(2T + 2) > 1e-5, far more than half an ulp of T.
 * Return: 1 and *@inv as the reference computes it, or 0 (rejected).
 */
static inline int window_var(const struct facedet_ctx *ctx, const int32_t *p,
			     const uint32_t *q, float *inv)
{
	const int *no = ctx->nofs;
	const double area = ctx->narea, t = MIN_STDDEV * area;
	int32_t vsum = RECT_SUM(p, no);
	uint32_t vsq = q[no[0]] - q[no[1]] - q[no[2]] + q[no[3]];
	double nf = area * vsq - (double)vsum * vsum;

	if (nf <= t * t)
		return 0;
	*inv = (float)(1.0 / sqrt(nf));
	return 1;
}

/* Make room for @n raw windows (and their grouping scratch). */
int fd_reserve(struct facedet_ctx *ctx, int n)
{
	if (n > ctx->raw_cap) {
		int cap = ctx->raw_cap, *labels, *cls;
		struct facedet_rect *raw, *tmp;

		while (cap < n)
			cap *= 2;
		raw = realloc(ctx->raw, cap * sizeof(*raw));
		if (!raw)
			return -ENOMEM;
		ctx->raw = raw;
		tmp = realloc(ctx->tmp, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		ctx->tmp = tmp;
		labels = realloc(ctx->labels, cap * sizeof(*labels));
		if (!labels)
			return -ENOMEM;
		ctx->labels = labels;
		cls = realloc(ctx->cls, cap * sizeof(*cls));
		if (!cls)
			return -ENOMEM;
		ctx->cls = cls;
		ctx->raw_cap = cap;
	}
	return 0;
}

static int push_raw(struct facedet_ctx *ctx, int x, int y, int w, int h)
{
	if (ctx->nraw == ctx->raw_cap && fd_reserve(ctx, ctx->nraw + 1))
		return -ENOMEM;
	ctx->raw[ctx->nraw++] = (struct facedet_rect){ x, y, w, h, 1 };
	return 0;
}

/* One pyramid level being scanned. */
struct level {
	double factor;
	int ww, wh;		/* window size in the picture */
	int step;		/* window step in the level */
	int npos, nrows;	/* window positions per row, rows */
	const struct fd_keep *keep;
	int keep_row;		/* row whose kept positions are [keep_lo, keep_hi] */
	int keep_lo, keep_hi;
};

static int keep_bits(const struct level *lv, int i, int y)
{
	return lv->keep->fn(lv->keep->arg, iround(i * lv->step * lv->factor),
			    iround(y * lv->step * lv->factor), lv->ww, lv->wh);
}

/* Bit @bit of the ROI test at position @i, negated if @neg; true past the row. */
static int keep_pred(const struct level *lv, int y, int i, int bit, int neg)
{
	if (i >= lv->npos)
		return 1;
	return ((keep_bits(lv, i, y) & bit) != 0) != neg;
}

/*
 * The first position in [0, npos] where keep_pred() holds (it is false,
 * then true along a row: see struct fd_keep), searched from @hint: a row's
 * interval is its neighbour's moved by a fraction of a position, so
 * galloping out from there and bisecting usually costs two or three calls,
 * and never more than O(log npos).
 */
static int keep_first(const struct level *lv, int y, int bit, int neg, int hint)
{
	int lo, hi, step, c;

	hint = hint < 0 ? 0 : (hint > lv->npos ? lv->npos : hint);
	/* invariant: the answer is in [lo, hi] */
	if (keep_pred(lv, y, hint, bit, neg)) {
		lo = 0;
		hi = hint;
		for (step = 1; hi > 0; step *= 2) {
			c = hi - step < 0 ? 0 : hi - step;
			if (!keep_pred(lv, y, c, bit, neg)) {
				lo = c + 1;
				break;
			}
			hi = c;
		}
	} else {
		lo = hint + 1;
		hi = lv->npos;
		for (step = 1; lo < lv->npos; step *= 2) {
			c = lo - 1 + step > lv->npos ? lv->npos : lo - 1 + step;
			if (keep_pred(lv, y, c, bit, neg)) {
				hi = c;
				break;
			}
			lo = c + 1;
		}
	}
	while (lo < hi) {
		c = lo + (hi - lo) / 2;
		if (keep_pred(lv, y, c, bit, neg))
			hi = c;
		else
			lo = c + 1;
	}
	return lo;
}

/*
 * Keep the raw window at position @i of row @y?  The positions a row keeps
 * form one interval (see struct fd_keep), found once per row: its first
 * position is where the "rising" bit turns true, its last the one before
 * the "falling" bit turns false.
 */
static int keep_pos(struct level *lv, int i, int y)
{
	if (!lv->keep)
		return 1;
	if (lv->keep_row != y) {
		lv->keep_lo = keep_first(lv, y, 1, 0, lv->keep_lo);
		lv->keep_hi = keep_first(lv, y, 2, 1, lv->keep_hi + 1) - 1;
		lv->keep_row = y;
	}
	return i >= lv->keep_lo && i <= lv->keep_hi;
}

#if HAVE_VECTOR_SCAN
/*
 * The kept positions among @n starting at @i0 of row @y, as a bit mask
 * (bit l for position i0 + l): keep_pos() for a whole chunk.
 */
static unsigned int fd_keep_lanes(struct level *lv, int y, int i0, int n)
{
	int lo, hi;

	if (!lv->keep)
		return (1u << n) - 1;
	keep_pos(lv, i0, y);	/* finds the row's interval */
	lo = lv->keep_lo - i0;
	hi = lv->keep_hi - i0;
	if (hi < 0 || lo >= n || lo > hi)
		return 0;
	lo = lo < 0 ? 0 : lo;
	hi = hi >= n ? n - 1 : hi;
	return ((2u << hi) - 1) & ~((1u << lo) - 1);
}
#endif

/* The reference scan of one level: one window at a time. */
static int scan_level_scalar(struct facedet_ctx *ctx, struct level *lv)
{
	const int S = ctx->stride;
	int y, i, r;

	for (y = 0; y < lv->nrows; y++) {
		const size_t row = (size_t)y * lv->step * S;

		for (i = 0; i < lv->npos; i++) {
			float inv;

			if (!ctx->fast)
				r = eval_window(ctx, row + i);
			else if (!window_var(ctx, ctx->sum + row + i, ctx->sq + row + i, &inv))
				r = -1;
			else
				r = eval_fast(ctx, ctx->sum + row + i, inv, 0);
			ctx->stats.windows++;
			/*
			 * The scalar scan also checks the row intervals the
			 * vector scans use against the per-window ROI test: a
			 * disagreement is a detector bug, reported as an error
			 * (a library must never abort its caller, QEMU).
			 */
			if (lv->keep && (keep_pos(lv, i, y) != (keep_bits(lv, i, y) == 3)))
				return -EPROTO;
			if (r > 0) {
				if (keep_pos(lv, i, y) &&
				    push_raw(ctx, iround(i * lv->step * lv->factor),
					     iround(y * lv->step * lv->factor), lv->ww, lv->wh))
					return -ENOMEM;
			} else if (r == 0) {
				i++;	/* stage 0 rejects: skip the next position */
			}
		}
	}
	return 0;
}

#if HAVE_VECTOR_SCAN
/*
 * A row's live windows, one bit per position: the first live one at or
 * after @i, or -1.  @live has a spare word past @nw (live_clear()).
 */
static inline int live_next(const uint64_t *live, int nw, int i)
{
	int w = i >> 6;
	uint64_t b;

	if (w >= nw)
		return -1;
	b = live[w] & (~(uint64_t)0 << (i & 63));
	while (!b) {
		if (++w >= nw)
			return -1;
		b = live[w];
	}
	return w * 64 + __builtin_ctzll(b);
}

/* The @n (< 32) bits of positions [i, i + n). */
static inline unsigned int live_get(const uint64_t *live, int i, int n)
{
	const int w = i >> 6, o = i & 63;
	uint64_t b = live[w] >> o;

	if (o + n > 64)
		b |= live[w + 1] << (64 - o);
	return (unsigned int)b & ((1u << n) - 1);
}

/* Clear the positions i + l for the bits l of @bits (< 2^32). */
static inline void live_clear(uint64_t *live, int i, unsigned int bits)
{
	const int w = i >> 6, o = i & 63;

	live[w] &= ~((uint64_t)bits << o);
	if (o)
		live[w + 1] &= ~((uint64_t)bits >> (64 - o));
}

/*
 * The vector scan: GCC/Clang generic vectors, so it builds to SSE2 on
 * x86-64, NEON on aarch64, and the same code at QEMU's -O2; on x86-64 GCC
 * a few builtins (movmsk, packed sqrt) stand in for what generic vectors
 * would do lane by lane (see inv_stddev()).  A chunk is FD_VL consecutive
 * window positions of a row: their integral corners are consecutive int32
 * (see col_ofs()), so every rectangle corner is one vector load.  Per
 * chunk: the variance test and stage 0 for all lanes (needed anyway: the
 * skip rule and the windows counter depend on every visited position's
 * stage-0 result), then the walk that decides which positions the
 * reference scan visits.  When a row's chunks are done, the following
 * stages run stage by stage over the row's live windows, each chunk
 * starting at the next live one (later stages keep few windows, mostly in
 * small clusters that fixed chunks would cut in two).  Every lane computes
 * exactly the reference's float operations (IEEE, no reassociation; the
 * only products are exact or feed a comparison, so FMA contraction cannot
 * change them, and no instance enables FMA anyway).
 *
 * detect-vector.h is instantiated with 4 lanes for every target (16-byte
 * vectors: SSE2, NEON), and on x86-64 also with 8 lanes compiled for AVX2,
 * chosen at run time (__builtin_cpu_supports) when the CPU has it.  Wider
 * vectors without AVX2 compile to scalar compares, hence two instances
 * rather than one wide one.
 */
#if defined(__GNUC__) && !defined(__clang__)
/* vectors only cross static functions of this file: no ABI to keep */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define FD_VL 4
#define FD_V(name) name##4
#define FD_TARGET
#include "detect-vector.h"
#undef FD_VL
#undef FD_V
#undef FD_TARGET
#if HAVE_AVX2_SCAN
#define FD_VL 8
#define FD_V(name) name##8
#define FD_TARGET __attribute__((target("avx2")))
#include "detect-vector.h"
#undef FD_VL
#undef FD_V
#undef FD_TARGET
#endif
#endif

int fd_levels(const struct facedet_ctx *ctx, int w, int h, double step,
	      int min_size, unsigned int *windows, int max)
{
	const struct facedet_model *m = ctx->m;
	double factor;
	int n = 0;

	for (factor = 1.0;; factor *= step) {
		const int ww = iround(m->win_w * factor), wh = iround(m->win_h * factor);
		const int sw = iround(w / factor), sh = iround(h / factor);
		const int pw = sw - m->win_w, ph = sh - m->win_h;
		const int ystep = factor > 2.0 ? 1 : 2;

		if (pw <= 0 || ph <= 0)
			break;
		if (ww < min_size || wh < min_size)
			continue;
		if (n < max && windows)
			windows[n] = (unsigned int)(((pw + ystep - 1) / ystep) *
						    ((ph + ystep - 1) / ystep));
		n++;
	}
	return n;
}

int fd_scan(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
	    int stride, double step, int min_size, int first, int count,
	    const struct fd_keep *keep)
{
	const struct facedet_model *m = ctx->m;
	const int S = w + 1;
	double factor;
	int li = 0;

	ctx->nraw = 0;
	for (factor = 1.0; li < first + count; factor *= step) {
		const int ww = iround(m->win_w * factor), wh = iround(m->win_h * factor);
		const int sw = iround(w / factor), sh = iround(h / factor);
		const int pw = sw - m->win_w, ph = sh - m->win_h;
		const int ystep = factor > 2.0 ? 1 : 2;
		const uint8_t *src = img;
		int sstride = stride, r;
		struct level lv = {
			.factor = factor, .ww = ww, .wh = wh, .step = ystep,
			.npos = (pw + ystep - 1) / ystep, .nrows = (ph + ystep - 1) / ystep,
			.keep = keep, .keep_row = -1,
			/* search hints for the first row: the middle */
			.keep_lo = (pw + ystep - 1) / ystep / 2, .keep_hi = (pw + ystep - 1) / ystep / 2,
		};

		if (pw <= 0 || ph <= 0)
			break;
		if (ww < min_size || wh < min_size)
			continue;
		if (li++ < first)
			continue;
		/* a caller may stop a job it no longer wants, once a level */
		if (ctx->should_abort && ctx->should_abort(ctx->abort_opaque))
			return -ECANCELED;
		compile_nodes(ctx, S, ystep == 2);
		if (sw != w || sh != h) {
			resize_bilinear(ctx, img, w, h, stride, ctx->scaled, sw, sh, sw);
			src = ctx->scaled;
			sstride = sw;
		}
		integral(ctx, src, sw, sh, sstride);
#if HAVE_VECTOR_SCAN
#if HAVE_AVX2_SCAN
		if (ctx->avx2)
			r = scan_level_vector8(ctx, &lv);
		else
#endif
		if (ctx->fast && !ctx->scalar)
			r = scan_level_vector4(ctx, &lv);
		else
#endif
			r = scan_level_scalar(ctx, &lv);
		if (r)
			return r;
	}
	return ctx->nraw;
}

/* OpenCV's SimilarRects predicate. */
static int similar(const struct facedet_rect *a, const struct facedet_rect *b,
		   double eps)
{
	double delta = eps * (fmin(a->w, b->w) + fmin(a->h, b->h)) * 0.5;

	return fabs((double)a->x - b->x) <= delta &&
	       fabs((double)a->y - b->y) <= delta &&
	       fabs((double)a->x + a->w - b->x - b->w) <= delta &&
	       fabs((double)a->y + a->h - b->y - b->h) <= delta;
}

static int find_root(int *parent, int i)
{
	while (parent[i] >= 0)
		i = parent[i];
	return i;
}

/*
 * Group similar rectangles into their average and keep groups of more than
 * @min_neighbors members, then drop groups inside a stronger one (OpenCV's
 * groupRectangles with eps = 0.2).  Works on ctx->raw[0..n) and writes the
 * result there; returns the number of groups.
 */
int fd_group(struct facedet_ctx *ctx, int n, int min_neighbors)
{
	const double eps = 0.2;
	struct facedet_rect *r = ctx->raw, *g = ctx->tmp;
	int *parent = ctx->labels, *cls = ctx->cls;
	int i, j, ng = 0, out = 0;

	if (min_neighbors < 0)
		return n;
	for (i = 0; i < n; i++)
		parent[i] = -1;
	for (i = 0; i < n; i++) {
		int ri = find_root(parent, i);

		for (j = i + 1; j < n; j++) {
			int rj;

			if (!similar(&r[i], &r[j], eps))
				continue;
			rj = find_root(parent, j);
			if (rj != ri)
				parent[rj] = ri;
		}
	}
	/* number the classes in order of first appearance, then average them */
	for (i = 0; i < n; i++) {
		int root = find_root(parent, i);

		if (root == i) {
			cls[i] = ng;
			g[ng++] = (struct facedet_rect){ 0, 0, 0, 0, 0 };
		}
	}
	for (i = 0; i < n; i++) {
		struct facedet_rect *c = &g[cls[find_root(parent, i)]];

		c->x += r[i].x;
		c->y += r[i].y;
		c->w += r[i].w;
		c->h += r[i].h;
		c->hits++;
	}
	for (i = 0; i < ng; i++) {
		double s = 1.0 / g[i].hits;

		g[i].x = iround(g[i].x * s);
		g[i].y = iround(g[i].y * s);
		g[i].w = iround(g[i].w * s);
		g[i].h = iround(g[i].h * s);
	}
	for (i = 0; i < ng; i++) {
		const struct facedet_rect *a = &g[i];
		int keep = a->hits > min_neighbors;

		for (j = 0; keep && j < ng; j++) {
			const struct facedet_rect *b = &g[j];
			int dx = iround(b->w * eps), dy = iround(b->h * eps);

			if (j == i || b->hits <= min_neighbors)
				continue;
			if (a->x >= b->x - dx && a->y >= b->y - dy &&
			    a->x + a->w <= b->x + b->w + dx &&
			    a->y + a->h <= b->y + b->h + dy &&
			    (b->hits > (a->hits > 3 ? a->hits : 3) || a->hits < 3))
				keep = 0;
		}
		if (keep)
			r[out++] = *a;
	}
	return out;
}
