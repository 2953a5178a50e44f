// SPDX-License-Identifier: MIT
/*
 * The grouping of raw windows (fd_group(), detect.c) against OpenCV's
 * groupRectangles on the same made-up lists (group-opencv.txt, made by
 * make-golden-opencv.py --groups with OpenCV alone): for every case and
 * threshold 1..5, the same groups (box and neighbour count), exactly, in
 * any order.  The lists have what the fixtures rarely have: groups inside
 * other groups, stronger and weaker than them, and groups of 1 or 2.
 *
 * Then the merge of the three scans of a direction (facedet_merge(), on
 * parts made up here) against the rules docs/detector.md gives: faces of
 * two scans are one face when their centres lie within half a face and
 * their sizes differ by less than 1.5x; a face is dropped when one with
 * more hits, a box no larger and at least half of that box inside its own
 * was not found by one of the scans that found it.  The +20 degree scan's
 * windows are placed with the rotation the same document gives (a point q
 * of the rotated copy is the picture's o + M (q - r)).
 *
 *   test-group GROUP_FILE       TAP, one test per case, then the merges
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "facedet.h"
#include "detect.h"

struct grp {
	int x, y, w, h, n;
};

static int cmp_grp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct grp));
}

/* @n copies of a @size square window centred at (@cx, @cy) into @part */
static void put(struct facedet_part *part, double cx, double cy, int size, int n)
{
	int i;

	part->raw = realloc(part->raw, (part->nraw + n) * sizeof(*part->raw));
	for (i = 0; i < n; i++)
		part->raw[part->nraw++] = (struct facedet_rect){
			(int)lrint(cx - size / 2.0), (int)lrint(cy - size / 2.0), size, size, 1 };
}

/*
 * A face of @s0 px with 10 hits at the centre of the upright scan, and one
 * of @s1 px with 4 hits at (160 + @dx, 120) in the +20 degree scan; how
 * many faces facedet_merge() gives with LHIT 5.
 */
static int merge_two(struct facedet_ctx *ctx, int s0, int s1, double dx)
{
	const double a = 20 * M_PI / 180, c = cos(a), s = sin(a);
	/* the copy of the 320x240 picture turned by 20 degrees, and its centre */
	const double rw = ceil(320 * c + 240 * s - 1e-9), rh = ceil(320 * s + 240 * c - 1e-9);
	struct facedet_part *parts[FACEDET_MAX_UNITS] = { NULL };
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	struct facedet_plan plan;
	unsigned int i;
	int n;

	facedet_params_default(&p);
	if (facedet_plan_init(ctx, 320, 240, &p, 1, &plan) || plan.nunits != 3)
		return -1;
	for (i = 0; i < plan.nunits; i++) {
		parts[i] = facedet_part_new();
		parts[i]->unit = i;
		parts[i]->plan_w = 320;
		parts[i]->plan_h = 240;
	}
	put(parts[0], 160, 120, s0, 10);
	/* q = r + M^T (p - o), M = [c -s; s c]: the window the scan would see */
	put(parts[1], rw / 2 + c * dx, rh / 2 - s * dx, s1, 4);
	n = facedet_merge(ctx, &plan, parts, f);
	for (i = 0; i < plan.nunits; i++)
		facedet_part_free(parts[i]);
	return n;
}

static int merges(struct facedet_ctx *ctx, int t)
{
	static const struct {
		int s0, s1;
		double dx;
		int want;
		const char *what;
	} cases[] = {
		{ 40, 30, 0, 1, "40 and 30 px faces at one centre, 1.33x apart: merged" },
		{ 40, 25, 0, 2, "40 and 25 px faces at one centre, 1.6x apart: two faces" },
		{ 25, 40, 0, 1, "a weaker 40 px face around a 25 px one, not merged (1.6x): dropped" },
		{ 20, 36, 10, 1, "a weaker 36 px face with over half of a 20 px one inside: dropped" },
		{ 20, 36, 20, 2, "a weaker 36 px face with 42% of a 20 px one inside: kept" },
	};
	int failed = 0;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		int n = merge_two(ctx, cases[i].s0, cases[i].s1, cases[i].dx);

		printf("%s %d - merge: %s (%d faces)\n", n == cases[i].want ? "ok" : "not ok",
		       t + (int)i, cases[i].what, n);
		failed += n != cases[i].want;
	}
	return failed;
}

int main(int argc, char **argv)
{
	struct facedet_model *model;
	struct facedet_ctx *ctx;
	struct facedet_rect in[512];
	char **lines, *text, err[256];
	GError *gerr = NULL;
	int ncase = 0, failed = 0, nin = 0, k, i;
	size_t l;

	if (argc != 2) {
		fprintf(stderr, "usage: test-group GROUP_FILE\n");
		return 2;
	}
	if (facedet_model_load(FACEDET_DEFAULT_MODEL, &model, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	ctx = facedet_ctx_new(model, 320, 240);
	if (!ctx || !g_file_get_contents(argv[1], &text, NULL, &gerr)) {
		printf("Bail out! %s\n", gerr ? gerr->message : "no context");
		return 1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (l = 0; lines[l]; l++)
		ncase += g_str_has_prefix(lines[l], "case ");
	printf("1..%d\n", ncase + 5);
	for (l = 0; lines[l]; l++) {
		const char *s = lines[l];
		struct grp want[512], got[512];
		int c, n, bad;

		if (sscanf(s, "case %d n=%d", &c, &n) == 2) {
			nin = 0;
			if (n < 1 || n > (int)G_N_ELEMENTS(in)) {
				printf("Bail out! bad case line: %s\n", s);
				return 1;
			}
			for (i = 0; i < n; i++) {
				s = lines[++l];
				if (!s || sscanf(s, "in %d %d %d %d", &in[i].x, &in[i].y, &in[i].w,
						 &in[i].h) != 4) {
					printf("Bail out! bad input line in case %d\n", c);
					return 1;
				}
				in[i].hits = 1;
			}
			nin = n;
			bad = 0;
			/* the thresholds follow */
			while (lines[l + 1] && sscanf(lines[l + 1], "out K=%d n=%d", &k, &n) == 2) {
				int ng;

				l++;
				if (n < 0 || n > (int)G_N_ELEMENTS(want)) {
					printf("Bail out! bad out line in case %d\n", c);
					return 1;
				}
				for (i = 0; i < n; i++) {
					s = lines[++l];
					if (!s || sscanf(s, "r %d %d %d %d %d", &want[i].x, &want[i].y,
							 &want[i].w, &want[i].h, &want[i].n) != 5) {
						printf("Bail out! bad group line in case %d\n", c);
						return 1;
					}
				}
				if (fd_reserve(ctx, nin)) {
					printf("Bail out! out of memory\n");
					return 1;
				}
				memcpy(ctx->raw, in, nin * sizeof(*in));
				ng = fd_group(ctx, nin, k);
				for (i = 0; i < ng && i < (int)G_N_ELEMENTS(got); i++)
					got[i] = (struct grp){ ctx->raw[i].x, ctx->raw[i].y, ctx->raw[i].w,
							       ctx->raw[i].h, ctx->raw[i].hits };
				qsort(want, n, sizeof(*want), cmp_grp);
				if (ng >= 0 && ng <= (int)G_N_ELEMENTS(got))
					qsort(got, ng, sizeof(*got), cmp_grp);
				if (ng != n || memcmp(want, got, n * sizeof(*want))) {
					printf("# case %d, threshold %d: %d groups, OpenCV %d\n", c, k, ng, n);
					for (i = 0; i < n || i < ng; i++)
						printf("#   OpenCV %s  ours %s\n",
						       i < n ? g_strdup_printf("%d %d %d %d (%d)", want[i].x,
									       want[i].y, want[i].w, want[i].h,
									       want[i].n) : "-",
						       i < ng ? g_strdup_printf("%d %d %d %d (%d)", got[i].x,
										got[i].y, got[i].w, got[i].h,
										got[i].n) : "-");
					bad++;
				}
			}
			printf("%s %d - case %d: %d windows, thresholds 1..5 as OpenCV groups them\n",
			       bad ? "not ok" : "ok", c + 1, c, nin);
			failed += bad != 0;
		}
	}
	failed += merges(ctx, ncase + 1);
	g_strfreev(lines);
	facedet_ctx_free(ctx);
	facedet_model_free(model);
	return failed ? 1 : 0;
}
