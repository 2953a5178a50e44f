// SPDX-License-Identifier: MIT
/*
 * Golden test: the detector's exact output on every fixture, compared with
 * outputs recorded from a known-good build (tests/golden.txt).
 *
 * Speed work on the evaluator must not change a single box, hit count or
 * counter, so this test compares everything as text, exactly:
 *  - facedet_detect_rects() upright, raw windows (min_neighbors -1) and
 *    grouped (min_neighbors 3), with the stats counters;
 *  - facedet_detect() for each direction and several parameter sets (min
 *    sizes, LHIT, an ROI, no rotation): every candidate before the cap, the
 *    returned count and the stats counters.
 *
 *   test-golden --print FIXTURE_DIR             print the outputs
 *   test-golden --tap FIXTURE_DIR GOLDEN_FILE   compare, TAP, one test per fixture
 *   test-golden --split FIXTURE_DIR             split jobs == facedet_detect(), TAP
 *
 * --split runs every request of every fixture as a plan of units with 1, 2,
 * 3 and 4 level bands per angle, on two threads with their own contexts,
 * each taking every other unit from the last one backwards, merges the
 * parts on a third context and checks faces, candidates and stats are
 * exactly facedet_detect()'s.
 *
 * Lines starting with '#' in the golden file are provenance comments.
 * Environment: FACEDET_MODEL (default: the alt2 cascade).
 */
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

/* The golden file's block for @name, comments stripped. */
static char *golden_block(char *const *lines, const char *name)
{
	GString *b = g_string_new(NULL);
	char *head = g_strdup_printf("fixture %s", name);
	int in = 0;

	for (; *lines; lines++) {
		if ((*lines)[0] == '#' || !(*lines)[0])
			continue;
		if (g_str_has_prefix(*lines, "fixture "))
			in = !strcmp(*lines, head);
		if (in)
			g_string_append_printf(b, "%s\n", *lines);
	}
	g_free(head);
	return g_string_free(b, FALSE);
}

/* Report the first differing line of two blocks as TAP diagnostics. */
static void show_diff(const char *want, const char *got)
{
	char **a = g_strsplit(want, "\n", -1), **b = g_strsplit(got, "\n", -1);
	int i;

	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]))
			break;
	printf("# first difference at line %d of the block\n#   golden: %s\n#   now:    %s\n",
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
	int tap, split, failed = 0;
	size_t i;

	if (argc < 3 || (strcmp(argv[1], "--print") && strcmp(argv[1], "--tap") &&
			 strcmp(argv[1], "--split")) ||
	    (!strcmp(argv[1], "--tap") && argc != 4)) {
		fprintf(stderr, "usage: test-golden --print FIXTURE_DIR | --tap FIXTURE_DIR GOLDEN"
			" | --split FIXTURE_DIR\n");
		return 2;
	}
	tap = !strcmp(argv[1], "--tap");
	split = !strcmp(argv[1], "--split");
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
	if (split)
		printf("1..%zu\n", G_N_ELEMENTS(fixtures));
	for (i = 0; i < G_N_ELEMENTS(fixtures); i++) {
		char *path = g_strdup_printf("%s/%s.pgm", argv[2], fixtures[i]);
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
		} else {
			run_fixture(out, ctx, fixtures[i], img, w, h);
		}
		if (split) {
		} else if (tap) {
			char *want = golden_block(golden, fixtures[i]);
			int ok = !strcmp(want, out->str);

			printf("%s %zu - %s\n", ok ? "ok" : "not ok", i + 1, fixtures[i]);
			if (!ok)
				show_diff(want, out->str);
			failed += !ok;
			g_free(want);
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
