// SPDX-License-Identifier: MIT
/*
 * Golden test: the detector's outputs on every fixture against expected
 * values that do not come from the detector.
 *
 *   test-golden --tap FIXTURE_DIR GOLDEN_OPENCV   ours against OpenCV's, TAP, one per fixture
 *   test-golden --evaluators FIXTURE_DIR [NAME...] auto, sse2, scalar == reference, TAP
 *   test-golden --split FIXTURE_DIR               split jobs == facedet_detect(), TAP
 *   test-golden --print FIXTURE_DIR               print every output (debugging)
 *
 * --tap compares with golden-opencv.txt, which make-golden-opencv.py made
 * by running OpenCV's detectMultiScale on the same fixtures (see the
 * comment above cv_check() for what must agree and how closely); the
 * expected values used to be this program's own output, recorded once and
 * amended when the code changed, which could not catch a bug made before
 * the recording (issue 38).
 *
 * --evaluators checks that the fast evaluators give exactly, as text, what
 * the reference evaluator (float weights, one window at a time, any tree
 * shape) gives, both computed in this run: facedet_detect_rects() upright,
 * raw windows and grouped (min_neighbors 3), and facedet_detect() for each
 * direction and several parameter sets (min sizes, LHIT, an ROI, no
 * rotation), every candidate before the cap, the returned count and the
 * stats counters.  Speed work on an evaluator must not change a box, a hit
 * or a counter.
 *
 * --split runs every request of every fixture as a plan of units with 1, 2,
 * 3 and 4 level bands per angle, on two threads with their own contexts,
 * each taking every other unit from the last one backwards, merges the
 * parts on a third context and checks faces, candidates and stats are
 * exactly facedet_detect()'s.
 *
 * Environment: FACEDET_MODEL (default: the alt2 cascade), FACEDET_EVAL.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "facedet.h"
#include "pnm.h"

static const char *const fixtures[] = {
	"astronaut", "hopper", "astronaut-cw90", "astronaut-ccw90",
	"astronaut-cw20", "hopper-ccw20", "landscape", "coffee", "rocket",
	"lfw-15", "lfw-60",
};

/* The facedet_detect() requests recorded for each fixture. */
struct request {
	unsigned int dir, min_size, lhit, flags;
	unsigned int roi[4];	/* startx, starty, sizex, sizey; 0s = whole picture */
};

static const struct request requests[] = {
	{ FACEDET_DIR_UP, 20, 5, 0, { 0 } },
	{ FACEDET_DIR_RIGHT, 20, 5, 0, { 0 } },
	{ FACEDET_DIR_LEFT, 20, 5, 0, { 0 } },
	{ FACEDET_DIR_UP, 25, 5, 0, { 0 } },
	{ FACEDET_DIR_UP, 32, 5, 0, { 0 } },
	{ FACEDET_DIR_UP, 40, 5, 0, { 0 } },
	{ FACEDET_DIR_UP, 20, 0, 0, { 0 } },
	{ FACEDET_DIR_UP, 20, 9, 0, { 0 } },
	{ FACEDET_DIR_RIGHT, 20, 0, 0, { 0 } },
	{ FACEDET_DIR_LEFT, 25, 9, 0, { 0 } },
	{ FACEDET_DIR_UP, 20, 5, 0, { 41, 17, 203, 181 } },
	{ FACEDET_DIR_RIGHT, 20, 0, 0, { 41, 17, 203, 181 } },
	{ FACEDET_DIR_UP, 20, 5, FACEDET_F_NO_ROTATION, { 0 } },
};

static const char *const dir_names[] = { "up", "right", "left" };

static void print_stats(GString *out, struct facedet_ctx *ctx)
{
	const struct facedet_stats *st = facedet_ctx_stats(ctx);

	g_string_append_printf(out, " scans=%u windows=%u raw=%u groups=%u\n",
			       st->scans, st->windows, st->raw_hits, st->groups);
}

/* Every output of one fixture, as text. */
static void run_fixture(GString *out, struct facedet_ctx *ctx, const char *name,
			const uint8_t *img, unsigned int w, unsigned int h)
{
	static struct facedet_rect r[4096];
	struct facedet_face f[FACEDET_MAX_FACES];
	const struct facedet_face *all;
	int n, mn, i;
	size_t k;

	g_string_append_printf(out, "fixture %s\n", name);
	for (mn = -1; mn <= 3; mn += 4) {
		n = facedet_detect_rects(ctx, img, w, h, w, 1.1, 20, mn, r, G_N_ELEMENTS(r));
		g_string_append_printf(out, "rects min_neighbors=%d n=%d", mn, n);
		print_stats(out, ctx);
		for (i = 0; i < n && i < (int)G_N_ELEMENTS(r); i++)
			g_string_append_printf(out, "r %d %d %d %d %d\n", r[i].x, r[i].y,
					       r[i].w, r[i].h, r[i].hits);
	}
	for (k = 0; k < G_N_ELEMENTS(requests); k++) {
		const struct request *q = &requests[k];
		struct facedet_params p;
		unsigned int nall;

		facedet_params_default(&p);
		p.dir = q->dir;
		p.min_size = q->min_size;
		p.lhit = q->lhit;
		p.flags = q->flags;
		p.startx = q->roi[0];
		p.starty = q->roi[1];
		p.sizex = q->roi[2];
		p.sizey = q->roi[3];
		n = facedet_detect(ctx, img, w, h, w, &p, f);
		nall = facedet_ctx_candidates(ctx, &all);
		g_string_append_printf(out, "detect dir=%s min=%u lhit=%u flags=%u roi=%u,%u,%u,%u n=%d cand=%u",
				       dir_names[q->dir], q->min_size, q->lhit, q->flags,
				       q->roi[0], q->roi[1], q->roi[2], q->roi[3], n, nall);
		print_stats(out, ctx);
		for (i = 0; i < (int)nall; i++)
			g_string_append_printf(out, "f %u %u %u %u %u %u\n", all[i].cx, all[i].cy,
					       all[i].size, all[i].confidence, all[i].angle,
					       all[i].hits);
	}
}

/* --split: one worker thread's share of the units of a plan. */
struct worker {
	struct facedet_ctx *ctx;
	const struct facedet_plan *plan;
	const uint8_t *img;
	unsigned int stride;
	struct facedet_part **parts;
	unsigned int first;	/* runs units nunits-1-first, -3, ... */
	int ret;
};

static gpointer run_worker(gpointer data)
{
	struct worker *wk = data;
	int i;

	for (i = (int)wk->plan->nunits - 1 - (int)wk->first; i >= 0 && !wk->ret; i -= 2)
		wk->ret = facedet_run_unit(wk->ctx, wk->img, wk->stride, wk->plan, i,
					   wk->parts[i]);
	return NULL;
}

static int same_job(struct facedet_ctx *a, int na, const struct facedet_face *fa,
		    struct facedet_ctx *b, int nb, const struct facedet_face *fb)
{
	const struct facedet_face *ca, *cb;
	unsigned int nca = facedet_ctx_candidates(a, &ca), ncb = facedet_ctx_candidates(b, &cb);

	return na == nb && !memcmp(fa, fb, na * sizeof(*fa)) && nca == ncb &&
	       !memcmp(ca, cb, nca * sizeof(*ca)) &&
	       !memcmp(facedet_ctx_stats(a), facedet_ctx_stats(b), sizeof(struct facedet_stats));
}

/* Every request of one fixture, split every way; 0 or the failing count. */
static int split_fixture(struct facedet_ctx *ref, struct facedet_ctx *const wctx[3],
			 struct facedet_part **parts, const uint8_t *img,
			 unsigned int w, unsigned int h)
{
	int failed = 0;
	size_t k;

	for (k = 0; k < G_N_ELEMENTS(requests); k++) {
		const struct request *q = &requests[k];
		struct facedet_face want[FACEDET_MAX_FACES], got[FACEDET_MAX_FACES];
		struct facedet_params p;
		unsigned int bands;
		int nwant;

		facedet_params_default(&p);
		p.dir = q->dir;
		p.min_size = q->min_size;
		p.lhit = q->lhit;
		p.flags = q->flags;
		p.startx = q->roi[0];
		p.starty = q->roi[1];
		p.sizex = q->roi[2];
		p.sizey = q->roi[3];
		nwant = facedet_detect(ref, img, w, h, w, &p, want);
		for (bands = 1; bands <= FACEDET_MAX_BANDS; bands++) {
			struct facedet_plan plan;
			struct worker wk[2];
			GThread *th[2];
			int i, ngot;

			if (facedet_plan_init(ref, w, h, &p, bands, &plan)) {
				printf("# request %zu: plan_init failed\n", k);
				failed++;
				continue;
			}
			for (i = 0; i < 2; i++) {
				wk[i] = (struct worker){ wctx[i], &plan, img, w, parts, i, 0 };
				th[i] = g_thread_new("unit", run_worker, &wk[i]);
			}
			for (i = 0; i < 2; i++)
				g_thread_join(th[i]);
			ngot = wk[0].ret ? wk[0].ret : wk[1].ret;
			if (!ngot)
				ngot = facedet_merge(wctx[2], &plan, parts, got);
			if (!same_job(ref, nwant, want, wctx[2], ngot, got)) {
				printf("# request %zu (dir %s), %u bands, %u units: differs (%d vs %d faces)\n",
				       k, dir_names[q->dir], bands, plan.nunits, ngot, nwant);
				failed++;
			}
		}
	}
	return failed;
}

/*
 * --tap: our outputs against OpenCV's (golden-opencv.txt, made by
 * make-golden-opencv.py with OpenCV alone).  The detector evaluates the
 * cascade as OpenCV does and claims the same faces (docs/detector.md), but
 * its pyramid levels are not OpenCV's to the grey level (OpenCV 4.6
 * resizes with its own fixed-point rounding), so a window whose stage sum
 * sits on a threshold can go either way: on the fixtures at most 5 of 585
 * raw windows differ each way, a group's neighbour count moves by a few and
 * its averaged box by a pixel.  So, per request of a fixture:
 *  - raw windows (min_neighbors 0): at most 1 + n/50 windows in one list
 *    and not the other, each way;
 *  - grouped (min_neighbors K >= 1), facedet_detect_rects(): OpenCV's
 *    faces and ours one to one, every edge within 1 pixel and neighbour
 *    counts within 2; a face of either side may be unmatched only if its
 *    count is K + 1, one window from the threshold; none of ours may have
 *    K hits or fewer.  (Measured when this was written: edges 1 pixel
 *    apart at most, counts 2, and 9 unmatched faces, all at K + 1.)
 *  - facedet_detect() for each LHIT that maps to K ((3 LHIT + 2) / 5 = K,
 *    docs/detector.md), upright, no rotation, same minimum size:
 *    the same matching on the candidates' boxes (centre and size, within
 *    1.5 pixels: the centre is rounded), min(candidates, 35)
 *    returned, the returned faces the first candidates, each with angle 0
 *    and the confidence 9 - min(9, (hits - 1) / 3) of its own hits, in
 *    order (confidence, row, column).
 */
struct cvrect {
	int x, y, w, h, n;
};

struct cvreq {
	unsigned int roi[4], min_size;
	int k, n;
	struct cvrect *r;
};

/* The requests of fixture @name in the OpenCV file; -1 if it has none. */
static int cv_requests(char *const *lines, const char *name, struct cvreq *req, int max)
{
	char *head = g_strdup_printf("fixture %s", name);
	int in = 0, nreq = -1, got = 0;

	for (; *lines; lines++) {
		const char *l = *lines;
		struct cvreq *q;

		if (l[0] == '#' || !l[0])
			continue;
		if (g_str_has_prefix(l, "fixture ")) {
			in = !strcmp(l, head);
			if (in)
				nreq = 0;
			continue;
		}
		if (!in)
			continue;
		if (g_str_has_prefix(l, "opencv ")) {
			if (nreq >= max || (nreq > 0 && got != req[nreq - 1].n))
				goto bad;
			q = &req[nreq++];
			if (sscanf(l, "opencv roi=%u,%u,%u,%u min_size=%u min_neighbors=%d n=%d",
				   &q->roi[0], &q->roi[1], &q->roi[2], &q->roi[3], &q->min_size,
				   &q->k, &q->n) != 7 || q->n < 0 || q->k < 0)
				goto bad;
			q->r = g_new0(struct cvrect, q->n + 1);
			got = 0;
		} else if (l[0] == 'r' && l[1] == ' ' && nreq > 0) {
			q = &req[nreq - 1];
			if (got >= q->n || sscanf(l, "r %d %d %d %d %d", &q->r[got].x, &q->r[got].y,
						  &q->r[got].w, &q->r[got].h, &q->r[got].n) != 5)
				goto bad;
			got++;
		} else {
			goto bad;
		}
	}
	if (nreq > 0 && got != req[nreq - 1].n)
		goto bad;
	g_free(head);
	return nreq;
bad:
	printf("# malformed OpenCV file near '%s'\n", *lines ? *lines : "(end)");
	g_free(head);
	return -2;
}

static int near(int a, int b, int tol)
{
	return a - b <= tol && b - a <= tol;
}

struct box {
	double x, y, w, h;
	int n;
};

/* Raw windows: how many of @a are not in @b (the same box to the pixel). */
static int raw_missing(const struct box *a, int na, const struct box *b, int nb)
{
	int i, j, miss = 0;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++)
			if (a[i].x == b[j].x && a[i].y == b[j].y && a[i].w == b[j].w &&
			    a[i].h == b[j].h)
				break;
		miss += j == nb;
	}
	return miss;
}

/*
 * OpenCV's boxes @c against ours @o, one to one: x, y, w and h within @tol
 * pixels, neighbour counts within 2.  A box of either side left unmatched
 * fails unless its count is K + 1, one window from the threshold; and a
 * box of ours with K or fewer hits is wrong whatever OpenCV has.
 * Explains each failure.
 */
static int match_boxes(const char *what, const struct box *c, int nc, const struct box *o,
		       int no, int k, double tol)
{
	static char used[4096];
	int i, j, bad = 0;

	memset(used, 0, sizeof(used));
	for (i = 0; i < nc; i++) {
		for (j = 0; j < no; j++)
			if (!used[j] && fabs(o[j].x - c[i].x) <= tol && fabs(o[j].y - c[i].y) <= tol &&
			    fabs(o[j].w - c[i].w) <= tol && fabs(o[j].h - c[i].h) <= tol &&
			    near(o[j].n, c[i].n, 2))
				break;
		if (j < no) {
			used[j] = 1;
		} else if (c[i].n != k + 1) {
			printf("# %s: OpenCV's face %.0f %.0f %.0f %.0f (%d neighbours) has no match\n",
			       what, c[i].x, c[i].y, c[i].w, c[i].h, c[i].n);
			bad++;
		}
	}
	for (j = 0; j < no; j++) {
		if (o[j].n <= k || (!used[j] && o[j].n != k + 1)) {
			printf("# %s: our face %.1f %.1f %.1f %.1f (%d hits) is not OpenCV's\n",
			       what, o[j].x, o[j].y, o[j].w, o[j].h, o[j].n);
			bad++;
		}
	}
	return bad;
}

/* One request against OpenCV; the number of failures (each explained). */
static int cv_check(struct facedet_ctx *ctx, const char *name, const uint8_t *img,
		    unsigned int w, unsigned int h, const struct cvreq *q)
{
	static struct facedet_rect r[4096];
	const unsigned int x0 = q->roi[0], y0 = q->roi[1], sx = q->roi[2], sy = q->roi[3];
	struct box *c, *o;
	char what[96];
	int n, i, bad = 0, lhit;

	snprintf(what, sizeof(what), "%s roi=%u,%u,%u,%u min=%u K=%d", name, x0, y0, sx, sy,
		 q->min_size, q->k);
	if (x0 + sx > w || y0 + sy > h) {
		printf("# %s: ROI outside the picture\n", what);
		return 1;
	}
	n = facedet_detect_rects(ctx, img + (size_t)y0 * w + x0, sx, sy, w, 1.1, q->min_size,
				 q->k ? q->k : -1, r, G_N_ELEMENTS(r));
	if (n < 0 || n > (int)G_N_ELEMENTS(r)) {
		printf("# %s: facedet_detect_rects() returned %d\n", what, n);
		return 1;
	}
	for (i = 0; i < n; i++) {
		r[i].x += x0;
		r[i].y += y0;
	}
	c = g_new0(struct box, q->n + 1);
	o = g_new0(struct box, n + 1);
	for (i = 0; i < q->n; i++)
		c[i] = (struct box){ q->r[i].x, q->r[i].y, q->r[i].w, q->r[i].h, q->r[i].n };
	for (i = 0; i < n; i++)
		o[i] = (struct box){ r[i].x, r[i].y, r[i].w, r[i].h, r[i].hits };
	if (!q->k) {
		int budget = 1 + q->n / 50;
		int only_cv = raw_missing(c, q->n, o, n), only_ours = raw_missing(o, n, c, q->n);

		g_free(o);
		g_free(c);
		if (only_cv > budget || only_ours > budget) {
			printf("# %s: raw windows: OpenCV %d, ours %d; %d only OpenCV's, %d only ours"
			       " (at most %d each)\n", what, q->n, n, only_cv, only_ours, budget);
			return 1;
		}
		return 0;
	}
	/* grouped: one to one */
	bad += match_boxes(what, c, q->n, o, n, q->k, 1);
	g_free(o);
	g_free(c);
	/* facedet_detect() at each LHIT that maps to K */
	for (lhit = 0; lhit <= FACEDET_MAX_LHIT; lhit++) {
		struct facedet_face f[FACEDET_MAX_FACES];
		const struct facedet_face *all;
		struct facedet_params p;
		unsigned int nall;
		int nf;

		if ((3 * lhit + 2) / 5 != q->k)
			continue;
		facedet_params_default(&p);
		p.dir = FACEDET_DIR_UP;
		p.flags = FACEDET_F_NO_ROTATION;
		p.lhit = lhit;
		p.min_size = q->min_size;
		p.startx = x0;
		p.starty = y0;
		p.sizex = sx;
		p.sizey = sy;
		nf = facedet_detect(ctx, img, w, h, w, &p, f);
		nall = facedet_ctx_candidates(ctx, &all);
		if (nf < 0 || nf != (int)(nall < FACEDET_MAX_FACES ? nall : FACEDET_MAX_FACES)) {
			printf("# %s LHIT %d: %d faces returned of %u candidates\n", what, lhit, nf, nall);
			bad++;
			continue;
		}
		for (i = 0; i < (int)nall; i++) {
			const struct facedet_face *a = &all[i];
			unsigned int score = (a->hits - 1) / 3;

			if (a->confidence != FACEDET_MAX_CONFIDENCE -
			    (score > FACEDET_MAX_CONFIDENCE ? FACEDET_MAX_CONFIDENCE : score) ||
			    a->angle != 0) {
				printf("# %s LHIT %d: face at %u,%u: confidence %u, angle %u for %u hits\n",
				       what, lhit, a->cx, a->cy, a->confidence, a->angle, a->hits);
				bad++;
			}
			if (i && (all[i - 1].confidence > a->confidence ||
				  (all[i - 1].confidence == a->confidence &&
				   (all[i - 1].cy > a->cy ||
				    (all[i - 1].cy == a->cy && all[i - 1].cx > a->cx))))) {
				printf("# %s LHIT %d: faces %d and %d out of order\n", what, lhit, i - 1, i);
				bad++;
			}
			if (i < nf && memcmp(&f[i], a, sizeof(*a))) {
				printf("# %s LHIT %d: returned face %d is not candidate %d\n", what, lhit, i, i);
				bad++;
			}
		}
		{
			struct box *c = g_new0(struct box, q->n + 1), *o = g_new0(struct box, nall + 1);
			char wl[128];

			for (i = 0; i < q->n; i++)
				c[i] = (struct box){ q->r[i].x, q->r[i].y, q->r[i].w, q->r[i].h, q->r[i].n };
			for (i = 0; i < (int)nall; i++)
				o[i] = (struct box){ all[i].cx - all[i].size / 2.0, all[i].cy - all[i].size / 2.0,
						     all[i].size, all[i].size, (int)all[i].hits };
			snprintf(wl, sizeof(wl), "%s LHIT %d", what, lhit);
			bad += match_boxes(wl, c, q->n, o, nall, q->k, 1.5);
			g_free(o);
			g_free(c);
		}
	}
	return bad;
}

/* Report the first differing line of two outputs as TAP diagnostics. */
static void show_diff(const char *want, const char *got)
{
	char **a = g_strsplit(want, "\n", -1), **b = g_strsplit(got, "\n", -1);
	int i;

	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]))
			break;
	printf("# first difference at line %d\n#   reference: %s\n#   this:      %s\n",
	       i + 1, a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
	g_strfreev(a);
	g_strfreev(b);
}

/* FACEDET_EVAL (meson runs this test once per evaluator) on every context */
static int set_eval_from_env(struct facedet_ctx *ctx, struct facedet_ctx **wctx)
{
	const char *name = g_getenv("FACEDET_EVAL");
	int eval = name ? facedet_eval_parse(name) : FACEDET_EVAL_AUTO;
	int j;

	if (eval < 0 || !ctx) {
		printf("Bail out! bad FACEDET_EVAL or out of memory\n");
		return -1;
	}
	facedet_ctx_set_eval(ctx, eval);
	for (j = 0; j < 3; j++) {
		if (!wctx[j]) {
			printf("Bail out! out of memory\n");
			return -1;
		}
		facedet_ctx_set_eval(wctx[j], eval);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *model_path = g_getenv("FACEDET_MODEL");
	struct facedet_model *model;
	struct facedet_ctx *ctx = NULL;
	char **golden = NULL, *text, err[256];
	struct facedet_ctx *wctx[3] = { NULL };
	struct facedet_part *parts[FACEDET_MAX_UNITS];
	int tap, split, evals, failed = 0;
	size_t i, nevals = 0;

	if (argc < 3 || (strcmp(argv[1], "--print") && strcmp(argv[1], "--tap") &&
			 strcmp(argv[1], "--split") && strcmp(argv[1], "--evaluators")) ||
	    (!strcmp(argv[1], "--tap") && argc != 4)) {
		fprintf(stderr, "usage: test-golden --print FIXTURE_DIR | --tap FIXTURE_DIR GOLDEN"
			" | --split FIXTURE_DIR | --evaluators FIXTURE_DIR\n");
		return 2;
	}
	tap = !strcmp(argv[1], "--tap");
	split = !strcmp(argv[1], "--split");
	evals = !strcmp(argv[1], "--evaluators");
	for (i = 0; i < G_N_ELEMENTS(parts); i++)
		parts[i] = facedet_part_new();
	if (!model_path)
		model_path = FACEDET_DEFAULT_MODEL;
	if (facedet_model_load(model_path, &model, err, sizeof(err))) {
		fprintf(stderr, "test-golden: %s\n", err);
		return 1;
	}
	if (tap) {
		GError *gerr = NULL;

		if (!g_file_get_contents(argv[3], &text, NULL, &gerr)) {
			printf("Bail out! %s\n", gerr->message);
			return 1;
		}
		golden = g_strsplit(text, "\n", -1);
		g_free(text);
		printf("1..%zu\n", G_N_ELEMENTS(fixtures));
	}
	if (split || evals)
		printf("1..%zu\n", evals && argc > 3 ? (size_t)(argc - 3) : G_N_ELEMENTS(fixtures));
	for (i = 0; i < G_N_ELEMENTS(fixtures); i++) {
		char *path;

		if (evals && argc > 3 && !g_strv_contains((const char *const *)argv + 3, fixtures[i])) {
			continue;	/* not asked for */
		}
		path = g_strdup_printf("%s/%s.pgm", argv[2], fixtures[i]);
		GString *out = g_string_new(NULL);
		unsigned int w, h;
		uint8_t *img = pnm_read_gray(path, &w, &h);

		if (!img) {
			printf("Bail out! cannot read %s\n", path);
			return 1;
		}
		if (!ctx) {
			int j;

			ctx = facedet_ctx_new(model, w, h);
			for (j = 0; j < 3; j++)
				wctx[j] = facedet_ctx_new(model, w, h);
			if (set_eval_from_env(ctx, wctx))
				return 1;
		}
		if (split) {
			int bad = split_fixture(ctx, wctx, parts, img, w, h);

			printf("%s %zu - split %s\n", bad ? "not ok" : "ok", i + 1, fixtures[i]);
			failed += bad != 0;
		} else if (evals) {
			static const enum facedet_eval fast[] = {
				FACEDET_EVAL_AUTO, FACEDET_EVAL_SSE2, FACEDET_EVAL_SCALAR,
			};
			static const char *const fast_names[] = { "auto", "sse2", "scalar" };
			GString *ref = g_string_new(NULL);
			int bad = 0;
			size_t e;

			facedet_ctx_set_eval(ctx, FACEDET_EVAL_REFERENCE);
			run_fixture(ref, ctx, fixtures[i], img, w, h);
			for (e = 0; e < G_N_ELEMENTS(fast); e++) {
				g_string_truncate(out, 0);
				facedet_ctx_set_eval(ctx, fast[e]);
				run_fixture(out, ctx, fixtures[i], img, w, h);
				if (strcmp(ref->str, out->str)) {
					printf("# %s: the %s evaluator differs from the reference one\n",
					       fixtures[i], fast_names[e]);
					show_diff(ref->str, out->str);
					bad++;
				}
			}
			printf("%s %zu - %s: auto, sse2 and scalar evaluators == reference\n",
			       bad ? "not ok" : "ok", ++nevals, fixtures[i]);
			failed += bad != 0;
			g_string_free(ref, TRUE);
		} else if (!tap) {
			run_fixture(out, ctx, fixtures[i], img, w, h);
		}
		if (split || evals) {
		} else if (tap) {
			struct cvreq req[32];
			int nreq = cv_requests(golden, fixtures[i], req, G_N_ELEMENTS(req)), k, bad = 0;

			if (nreq <= 0) {
				printf("# no OpenCV requests for %s\n", fixtures[i]);
				bad = 1;
			}
			for (k = 0; k < nreq; k++) {
				bad += cv_check(ctx, fixtures[i], img, w, h, &req[k]);
				g_free(req[k].r);
			}
			printf("%s %zu - %s: %d requests against OpenCV\n", bad ? "not ok" : "ok", i + 1,
			       fixtures[i], nreq);
			failed += bad != 0;
		} else {
			fputs(out->str, stdout);
		}
		g_string_free(out, TRUE);
		g_free(path);
		free(img);
	}
	g_strfreev(golden);
	for (i = 0; i < G_N_ELEMENTS(parts); i++)
		facedet_part_free(parts[i]);
	for (i = 0; i < 3; i++)
		facedet_ctx_free(wctx[i]);
	facedet_ctx_free(ctx);
	facedet_model_free(model);
	return failed ? 1 : 0;
}
