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

/* Stage sums within this margin of the threshold count as passing. */
#define STAGE_EPS 1e-5f
/* Windows flatter than this standard deviation are not faces. */
#define MIN_STDDEV 10.0

struct fd_cnode {
	int ofs[FD_MAX_RECTS][4];
	float weight[FD_MAX_RECTS];
	float threshold;
	int nrects;
	int left, right;
};

static int iround(double v)
{
	return (int)lrint(v);
}

/*
 * Compute every node's rectangle offsets for integral images of stride @S.
 * Each picture size gets its own stride, so its integrals stay as compact
 * (and cache-friendly) as they can be; a new stride costs one pass over the
 * nodes per picture, not per window.
 */
static void compile_nodes(struct facedet_ctx *ctx, int S)
{
	const struct facedet_model *m = ctx->m;
	int i, j;

	if (ctx->stride == S)
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
			c->ofs[j][0] = r->y * S + r->x;
			c->ofs[j][1] = r->y * S + r->x + r->w;
			c->ofs[j][2] = (r->y + r->h) * S + r->x;
			c->ofs[j][3] = (r->y + r->h) * S + r->x + r->w;
		}
	}
	/* variance is measured on the window less a one-pixel border */
	ctx->nofs[0] = 1 * S + 1;
	ctx->nofs[1] = 1 * S + m->win_w - 1;
	ctx->nofs[2] = (m->win_h - 1) * S + 1;
	ctx->nofs[3] = (m->win_h - 1) * S + m->win_w - 1;
	ctx->narea = (m->win_w - 2) * (m->win_h - 2);
	ctx->stride = S;
}

int fd_ctx_init(struct facedet_ctx *ctx, const struct facedet_model *m, int cap)
{
	int S = cap + 1;

	ctx->m = m;
	ctx->cap = cap;
	ctx->stride = 0;
	ctx->cnodes = calloc(m->nnodes, sizeof(*ctx->cnodes));
	ctx->scaled = malloc((size_t)cap * cap);
	ctx->rotated = malloc((size_t)cap * cap);
	ctx->sum = malloc((size_t)S * S * sizeof(*ctx->sum));
	ctx->sq = malloc((size_t)S * S * sizeof(*ctx->sq));
	ctx->xofs = malloc(cap * sizeof(*ctx->xofs));
	ctx->xw = malloc(cap * sizeof(*ctx->xw));
	ctx->raw_cap = 1024;
	ctx->raw = malloc(ctx->raw_cap * sizeof(*ctx->raw));
	ctx->tmp = malloc(ctx->raw_cap * sizeof(*ctx->tmp));
	ctx->labels = malloc(ctx->raw_cap * sizeof(*ctx->labels));
	ctx->cls = malloc(ctx->raw_cap * sizeof(*ctx->cls));
	if (!ctx->cnodes || !ctx->scaled || !ctx->rotated || !ctx->sum || !ctx->sq || !ctx->xofs ||
	    !ctx->xw || !ctx->raw || !ctx->tmp || !ctx->labels || !ctx->cls)
		return -ENOMEM;

	return 0;
}

void fd_ctx_fini(struct facedet_ctx *ctx)
{
	free(ctx->cnodes);
	free(ctx->scaled);
	free(ctx->rotated);
	free(ctx->sum);
	free(ctx->sq);
	free(ctx->xofs);
	free(ctx->xw);
	free(ctx->raw);
	free(ctx->tmp);
	free(ctx->labels);
	free(ctx->cls);
}

/*
 * Bilinear resize with OpenCV's pixel-center mapping and 11-bit fixed-point
 * weights: dst(x, y) samples src((x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5).
 */
static void resize_bilinear(struct facedet_ctx *ctx, const uint8_t *src,
			    int sw, int sh, int sstride, uint8_t *dst,
			    int dw, int dh, int dstride)
{
	const double fx = (double)sw / dw, fy = (double)sh / dh;
	int x, y;

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
		ctx->xofs[x] = x0;
		ctx->xw[x] = (int16_t)iround(a * 2048);
	}
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
		for (x = 0; x < dw; x++) {
			int x0 = ctx->xofs[x], a = ctx->xw[x];
			int x1 = x0 + (a ? 1 : 0);
			int top = r0[x0] * (2048 - a) + r0[x1] * a;
			int bot = r1[x0] * (2048 - a) + r1[x1] * a;

			d[x] = (uint8_t)((top * (2048 - b) + bot * b + (1 << 21)) >> 22);
		}
	}
}

static void integral(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
		     int istride)
{
	const int S = ctx->stride;
	int32_t *sum = ctx->sum;
	uint32_t *sq = ctx->sq;
	int x, y;

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
		for (x = 0; x < w; x++) {
			rs += row[x];
			rq += (uint32_t)row[x] * row[x];
			s[x + 1] = sp[x + 1] + rs;
			q[x + 1] = qp[x + 1] + rq;
		}
	}
}

#define RECT_SUM(p, o) ((p)[(o)[0]] - (p)[(o)[1]] - (p)[(o)[2]] + (p)[(o)[3]])

/*
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

static int push_raw(struct facedet_ctx *ctx, int x, int y, int w, int h)
{
	if (ctx->nraw == ctx->raw_cap) {
		int cap = ctx->raw_cap * 2;
		struct facedet_rect *raw = realloc(ctx->raw, cap * sizeof(*raw));
		struct facedet_rect *tmp;
		int *labels, *cls;

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
	ctx->raw[ctx->nraw++] = (struct facedet_rect){ x, y, w, h, 1 };
	return 0;
}

int fd_scan(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
	    int stride, double step, int min_size, int max_size)
{
	const struct facedet_model *m = ctx->m;
	const int S = w + 1;
	double factor;

	ctx->nraw = 0;
	compile_nodes(ctx, S);
	for (factor = 1.0;; factor *= step) {
		const int ww = iround(m->win_w * factor), wh = iround(m->win_h * factor);
		const int sw = iround(w / factor), sh = iround(h / factor);
		const int pw = sw - m->win_w, ph = sh - m->win_h;
		const int ystep = factor > 2.0 ? 1 : 2;
		const uint8_t *src = img;
		int sstride = stride;
		int x, y, r;

		if (pw <= 0 || ph <= 0 || ww > max_size || wh > max_size)
			break;
		if (ctx->should_abort && ctx->should_abort(ctx->abort_opaque))
			return -ECANCELED;
		if (ww < min_size || wh < min_size)
			continue;
		if (sw != w || sh != h) {
			resize_bilinear(ctx, img, w, h, stride, ctx->scaled, sw, sh, sw);
			src = ctx->scaled;
			sstride = sw;
		}
		integral(ctx, src, sw, sh, sstride);

		for (y = 0; y < ph; y += ystep) {
			for (x = 0; x < pw; x += ystep) {
				r = eval_window(ctx, (size_t)y * S + x);
				ctx->stats.windows++;
				if (r > 0) {
					if (push_raw(ctx, iround(x * factor), iround(y * factor),
						     ww, wh))
						return -ENOMEM;
				} else if (r == 0) {
					x += ystep;
				}
			}
		}
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
