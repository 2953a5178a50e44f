// SPDX-License-Identifier: MIT
/*
 * Unit tests of the detector on real photographs (see make-fixtures.py).
 *
 * Ground truth comes from outside the detector: every fixture NAME.pgm has
 * NAME.truth, written by make-fixtures.py: the face boxes a person marked
 * on the original photos (testdata/faces.tsv), moved by the fixture's
 * letterbox and rotation, or where it pasted each face of the LFW mosaics.
 * A face is found when a detection's center lies in the marked box and
 * its size is within a factor of two of the box's (tests/truth.py uses the
 * same rule).
 *
 * Environment: FACEDET_FIXTURES (directory of the pictures), FACEDET_MODEL.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "facedet.h"
#include "pnm.h"

#define W 320
#define H 240

struct box {
	double x, y, w, h;
};

static struct facedet_model *model;
static struct facedet_ctx *ctx;
static const char *fixtures;
static const char *model_path;

static uint8_t *load(const char *name)
{
	char *path = g_strdup_printf("%s/%s.pgm", fixtures, name);
	unsigned int w, h;
	uint8_t *img = pnm_read_gray(path, &w, &h);

	g_assert_nonnull(img);
	g_assert_cmpuint(w, ==, W);
	g_assert_cmpuint(h, ==, H);
	g_free(path);
	return img;
}

/* The marked faces of fixture @name (NAME.truth); returns their number. */
static int truth(const char *name, struct box *boxes, int max)
{
	char *path = g_strdup_printf("%s/%s.truth", fixtures, name);
	char *text, **lines;
	int n = 0, i;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i] && *lines[i]; i++) {
		g_assert_cmpint(n, <, max);
		g_assert_cmpint(sscanf(lines[i], "%lf %lf %lf %lf", &boxes[n].x,
				       &boxes[n].y, &boxes[n].w, &boxes[n].h), ==, 4);
		n++;
	}
	g_strfreev(lines);
	g_free(text);
	g_free(path);
	return n;
}

/* The one marked face of fixture @name. */
static struct box truth1(const char *name)
{
	struct box b[2];

	g_assert_cmpint(truth(name, b, 2), ==, 1);
	return b[0];
}

/* A detection finds a marked face: center inside, size within 2x. */
static bool matches(const struct facedet_face *f, const struct box *t)
{
	double side = sqrt(t->w * t->h);

	return f->cx >= t->x && f->cx <= t->x + t->w &&
	       f->cy >= t->y && f->cy <= t->y + t->h &&
	       f->size >= side / 2 && f->size <= side * 2;
}

static int detect(const char *name, const struct facedet_params *p,
		  struct facedet_face *faces)
{
	uint8_t *img = load(name);
	int n = facedet_detect(ctx, img, W, H, W, p, faces);

	g_free(img);
	return n;
}

static void assert_one_face(const char *name, const struct facedet_params *p,
			    const struct box *truth, unsigned int amin,
			    unsigned int amax)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	int n = detect(name, p, f);

	g_assert_cmpint(n, ==, 1);
	g_test_message("%s: face at %u,%u size %u angle %u, marked %.0f,%.0f %.0fx%.0f",
		       name, f[0].cx, f[0].cy, f[0].size, f[0].angle, truth->x,
		       truth->y, truth->w, truth->h);
	g_assert_true(matches(&f[0], truth));
	g_assert_cmpuint(f[0].confidence, <=, FACEDET_MAX_CONFIDENCE);
	if (amin <= amax) {
		g_assert_cmpuint(f[0].angle, >=, amin);
		g_assert_cmpuint(f[0].angle, <=, amax);
	} else {	/* a range through 0 */
		g_assert_true(f[0].angle >= amin || f[0].angle <= amax);
	}
}

static void test_model_errors(void)
{
	struct facedet_model *m = (void *)1;
	char err[256], *dir, *path;
	static const struct {
		const char *xml;
		int ret;
	} bad[] = {
		{ "<opencv_storage><cascade><stageType>BOOST", -EINVAL },
		{ "not xml at all", -EINVAL },
		{ "<opencv_storage></opencv_storage>", -EINVAL },
		{ "<opencv_storage><cascade><stageType>BOOST</stageType>"
		  "<featureType>LBP</featureType></cascade></opencv_storage>", -ENOTSUP },
		{ "<opencv_storage><cascade><stageType>BOOST</stageType>"
		  "<featureType>HAAR</featureType><width>20</width><height>20</height>"
		  "<stages><_><stageThreshold>1</stageThreshold><weakClassifiers><_>"
		  "<internalNodes>0 -1 7 0.5</internalNodes><leafValues>1 2</leafValues>"
		  "</_></weakClassifiers></_></stages><features><_><rects>"
		  "<_>0 0 4 4 -1.</_><_>0 0 2 2 2.</_></rects><tilted>0</tilted></_>"
		  "</features></cascade></opencv_storage>", -EINVAL },	/* feature 7 */
		{ "<opencv_storage><cascade><stageType>BOOST</stageType>"
		  "<featureType>HAAR</featureType><width>20</width><height>20</height>"
		  "<stages><_><stageThreshold>1</stageThreshold><weakClassifiers><_>"
		  "<internalNodes>0 -1 0 0.5</internalNodes><leafValues>1 2</leafValues>"
		  "</_></weakClassifiers></_></stages><features><_><rects>"
		  "<_>10 10 14 4 -1.</_><_>0 0 2 2 2.</_></rects><tilted>0</tilted></_>"
		  "</features></cascade></opencv_storage>", -EINVAL },	/* rect outside */
		{ "<opencv_storage><cascade><stageType>BOOST</stageType>"
		  "<featureType>HAAR</featureType><width>20</width><height>20</height>"
		  "<stages><_><stageThreshold>1</stageThreshold><weakClassifiers><_>"
		  "<internalNodes>0 0 0 0.5</internalNodes><leafValues>1 2</leafValues>"
		  "</_></weakClassifiers></_></stages><features><_><rects>"
		  "<_>0 0 4 4 -1.</_><_>0 0 2 2 2.</_></rects><tilted>1</tilted></_>"
		  "</features></cascade></opencv_storage>", -ENOTSUP },	/* tilted */
	};
	unsigned int i;

	g_assert_cmpint(facedet_model_load("/nonexistent/model.xml", &m, err, sizeof(err)),
			==, -ENOENT);
	g_assert_null(m);
	g_assert_cmpstr(err, !=, "");

	dir = g_dir_make_tmp("facedet-XXXXXX", NULL);
	g_assert_nonnull(dir);
	path = g_build_filename(dir, "bad.xml", NULL);
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_true(g_file_set_contents(path, bad[i].xml, -1, NULL));
		err[0] = 0;
		g_assert_cmpint(facedet_model_load(path, &m, err, sizeof(err)), ==, bad[i].ret);
		g_assert_null(m);
		g_test_message("bad model %u: %s", i, err);
		g_assert_cmpstr(err, !=, "");
	}
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);

	/* a real cascade of another kind: LBP */
	if (g_file_test("/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml",
			G_FILE_TEST_EXISTS))
		g_assert_cmpint(facedet_model_load("/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml",
						   &m, err, sizeof(err)), ==, -ENOTSUP);
}

static void test_model_window(void)
{
	unsigned int w, h;

	facedet_model_window(model, &w, &h);
	g_assert_cmpuint(w, ==, 20);
	g_assert_cmpuint(h, ==, 20);
}

static void test_photos(void)
{
	struct facedet_params p;
	struct box astronaut = truth1("astronaut"), hopper = truth1("hopper");

	facedet_params_default(&p);
	assert_one_face("astronaut", &p, &astronaut, 330, 30);
	assert_one_face("hopper", &p, &hopper, 330, 30);
}

static void test_mosaic(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	struct box t[16];
	int n, i, j, marked = truth("lfw-15", t, 16);

	g_assert_cmpint(marked, ==, 15);
	facedet_params_default(&p);
	n = detect("lfw-15", &p, f);
	g_assert_cmpint(n, ==, 15);
	/* each pasted face is found exactly once */
	for (i = 0; i < marked; i++) {
		int found = 0;

		for (j = 0; j < n; j++)
			found += matches(&f[j], &t[i]);
		g_assert_cmpint(found, ==, 1);
	}
}

static void test_face_free(void)
{
	static const char *const names[] = { "landscape", "coffee", "rocket" };
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	unsigned int i, d;

	facedet_params_default(&p);
	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		for (d = FACEDET_DIR_UP; d <= FACEDET_DIR_LEFT; d++) {
			p.dir = d;
			g_assert_cmpint(detect(names[i], &p, f), ==, 0);
		}
	}
}

static void test_roi(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	struct box t = truth1("astronaut");

	facedet_params_default(&p);
	/* the face is in the upper half: the lower half has none */
	g_assert_cmpfloat(t.y + t.h, <, 120);
	p.starty = 120;
	g_assert_cmpint(detect("astronaut", &p, f), ==, 0);
	/* the left part, cut through the middle of the face, has none either */
	p.starty = 0;
	p.sizex = (unsigned int)(t.x + t.w / 2);
	g_assert_cmpint(detect("astronaut", &p, f), ==, 0);
	/* a 160x120 ROI around the face finds it, in picture coordinates */
	p.startx = (unsigned int)fmax(0, fmin(160, t.x + t.w / 2 - 80));
	p.sizex = 160;
	p.sizey = 120;
	g_assert_cmpint(detect("astronaut", &p, f), ==, 1);
	g_assert_true(matches(&f[0], &t));
}

static void test_min_size(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	int n, i;

	facedet_params_default(&p);
	p.min_size = 40;	/* the astronaut's face is 49 px */
	g_assert_cmpint(detect("astronaut", &p, f), ==, 1);
	p.min_size = 64;
	g_assert_cmpint(detect("astronaut", &p, f), ==, 0);

	/* the 28 px faces of lfw-60 are seen at 20 px and gone at 40 px */
	p.min_size = 20;
	g_assert_cmpint(detect("lfw-60", &p, f), >, 0);
	p.min_size = 40;
	n = detect("lfw-60", &p, f);
	for (i = 0; i < n; i++)
		g_assert_cmpuint(f[i].size, >=, 40);
	g_assert_cmpint(n, ==, 0);
}

/*
 * The pyramid as docs/detector.md specifies it, counted on a flat picture:
 * levels at f = 1, 1.1, 1.1^2, ... resized to round(w/f) x round(h/f),
 * used while the 20x20 window fits and its size in the picture,
 * round(20 f), is at least the minimum size; window steps of 2 pixels up
 * to f = 2, 1 above. No window of a flat picture passes the variance test,
 * so none is skipped as a stage-0 rejection: the scan visits every
 * position of every level, which the windows counter must show exactly.
 * A level lost at the top (the largest faces) or at the minimum size
 * changes the count.
 */
static void test_pyramid(void)
{
	static const unsigned int sizes[] = { 20, 25, 32, 40, 100, 200, 217, 218 };
	static struct facedet_rect r[64];
	uint8_t *flat = g_malloc(W * H);
	size_t k;

	if (strcmp(model_path, FACEDET_DEFAULT_MODEL)) {
		g_test_skip("the counts are for alt2's 20x20 window");
		g_free(flat);
		return;
	}
	memset(flat, 128, W * H);
	for (k = 0; k < G_N_ELEMENTS(sizes); k++) {
		unsigned long want = 0;
		unsigned int levels = 0;
		double f;
		int n;

		for (f = 1.0;; f *= 1.1) {
			const int ww = (int)lrint(20 * f), sw = (int)lrint(W / f), sh = (int)lrint(H / f);
			const int pw = sw - 20, ph = sh - 20, step = f > 2.0 ? 1 : 2;

			if (pw <= 0 || ph <= 0)
				break;
			if (ww < (int)sizes[k])
				continue;
			want += (unsigned long)((pw + step - 1) / step) * ((ph + step - 1) / step);
			levels++;
		}
		n = facedet_detect_rects(ctx, flat, W, H, W, 1.1, sizes[k], 3, r, G_N_ELEMENTS(r));
		g_test_message("min size %u: %u levels, %lu windows, scanned %u", sizes[k], levels,
			       want, facedet_ctx_stats(ctx)->windows);
		g_assert_cmpint(n, ==, 0);
		g_assert_cmpuint(facedet_ctx_stats(ctx)->windows, ==, want);
	}
	g_free(flat);
}

static void test_direction(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;

	facedet_params_default(&p);
	/* head to the right: "up" misses it, "right" finds it at ~90 deg */
	g_assert_cmpint(detect("astronaut-cw90", &p, f), ==, 0);
	p.dir = FACEDET_DIR_RIGHT;
	{
		struct box t = truth1("astronaut-cw90");

		assert_one_face("astronaut-cw90", &p, &t, 60, 120);
	}

	/* head to the left */
	p.dir = FACEDET_DIR_UP;
	g_assert_cmpint(detect("astronaut-ccw90", &p, f), ==, 0);
	p.dir = FACEDET_DIR_LEFT;
	{
		struct box t = truth1("astronaut-ccw90");

		assert_one_face("astronaut-ccw90", &p, &t, 240, 300);
	}
}

static void test_tilt(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	struct box t = truth1("astronaut-cw20");

	facedet_params_default(&p);
	/* tilted 20 deg clockwise: only the rotated scans see it */
	p.flags = FACEDET_F_NO_ROTATION;
	g_assert_cmpint(detect("astronaut-cw20", &p, f), ==, 0);
	p.flags = 0;
	assert_one_face("astronaut-cw20", &p, &t, 10, 30);

	/* hopper tilted 20 deg counter-clockwise: angle in 330..350 */
	p.flags = FACEDET_F_NO_ROTATION;
	g_assert_cmpint(detect("hopper-ccw20", &p, f), ==, 0);
	p.flags = 0;
	g_assert_cmpint(detect("hopper-ccw20", &p, f), ==, 1);
	{
		struct box h = truth1("hopper-ccw20");

		g_assert_true(matches(&f[0], &h));
	}
	g_assert_cmpuint(f[0].angle, >=, 330);
	g_assert_cmpuint(f[0].angle, <=, 350);
}

static void test_cap_and_order(void)
{
	struct facedet_face f[FACEDET_MAX_FACES], g[FACEDET_MAX_FACES];
	struct facedet_rect r[128];
	struct facedet_params p;
	uint8_t *img = load("lfw-60");
	int n, i;

	/* 60 faces in the picture, more than 35 found by the plain detector */
	n = facedet_detect_rects(ctx, img, W, H, W, 1.1, 20, 3, r, 128);
	g_test_message("lfw-60: %d faces before the cap", n);
	g_assert_cmpint(n, >, FACEDET_MAX_FACES);

	facedet_params_default(&p);
	p.flags = FACEDET_F_NO_ROTATION;
	n = facedet_detect(ctx, img, W, H, W, &p, f);
	g_assert_cmpint(n, ==, FACEDET_MAX_FACES);
	for (i = 1; i < n; i++) {
		g_assert_cmpuint(f[i - 1].confidence, <=, f[i].confidence);
		if (f[i - 1].confidence == f[i].confidence)
			g_assert_true(f[i - 1].cy < f[i].cy ||
				      (f[i - 1].cy == f[i].cy && f[i - 1].cx <= f[i].cx));
	}
	/* deterministic */
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &p, g), ==, n);
	g_assert_cmpmem(f, sizeof(f), g, sizeof(g));
	g_free(img);
}

static void test_lhit(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	int prev = FACEDET_MAX_FACES + 1, n;
	unsigned int l;

	facedet_params_default(&p);
	p.flags = FACEDET_F_NO_ROTATION;
	p.min_size = 25;
	for (l = 0; l <= FACEDET_MAX_LHIT; l++) {
		p.lhit = l;
		n = detect("lfw-60", &p, f);
		g_test_message("lhit %u: %d faces", l, n);
		g_assert_cmpint(n, <=, prev);
		prev = n;
	}
	p.lhit = 0;
	g_assert_cmpint(detect("lfw-60", &p, f), >, prev);
}

static void test_bad_params(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p, q;
	uint8_t *img = load("astronaut");
	struct facedet_ctx *small;

	facedet_params_default(&p);
	q = p;
	q.dir = 3;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.lhit = 10;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.min_size = 19;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.startx = W;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.startx = 200;
	q.sizex = 121;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.sizey = H + 1;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	q = p;
	q.flags = 0x80;
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, &q, f), ==, -EINVAL);
	g_assert_cmpint(facedet_detect(ctx, NULL, W, H, W, &p, f), ==, -EINVAL);
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W - 1, &p, f), ==, -EINVAL);
	g_assert_cmpint(facedet_detect(ctx, img, W, H, W, NULL, f), ==, -EINVAL);
	g_assert_cmpint(facedet_detect_rects(ctx, img, W, H, W, 1.0, 20, 3, NULL, 0),
			==, -EINVAL);

	small = facedet_ctx_new(model, 160, 120);
	g_assert_nonnull(small);
	g_assert_cmpint(facedet_detect(small, img, W, H, W, &p, f), ==, -E2BIG);
	/* a tiny ROI is not an error: nothing fits, nothing is found */
	q = p;
	q.sizex = 10;
	q.sizey = 10;
	g_assert_cmpint(facedet_detect(small, img, 160, 120, W, &q, f), ==, 0);
	facedet_ctx_free(small);
	g_assert_null(facedet_ctx_new(model, 0, 10));
	g_assert_null(facedet_ctx_new(model, 5000, 10));
	g_free(img);
}

/* Every evaluator by name gives the default's faces; bad values are refused. */
static void test_eval(void)
{
	static const char *const names[] = { "auto", "sse2", "scalar", "reference" };
	struct facedet_face want[FACEDET_MAX_FACES], got[FACEDET_MAX_FACES];
	struct facedet_params p;
	unsigned int i;
	int n;

	facedet_params_default(&p);
	n = detect("astronaut", &p, want);
	g_assert_cmpint(n, ==, 1);
	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		int eval = facedet_eval_parse(names[i]);

		g_assert_cmpint(eval, ==, (int)i);
		g_assert_cmpint(facedet_ctx_set_eval(ctx, eval), ==, 0);
		g_assert_cmpint(detect("astronaut", &p, got), ==, n);
		g_assert_cmpmem(got, n * sizeof(*got), want, n * sizeof(*want));
	}
	g_assert_cmpint(facedet_eval_parse("fast"), ==, -EINVAL);
	g_assert_cmpint(facedet_eval_parse(""), ==, -EINVAL);
	g_assert_cmpint(facedet_eval_parse(NULL), ==, -EINVAL);
	g_assert_cmpint(facedet_ctx_set_eval(ctx, 4), ==, -EINVAL);
	g_assert_cmpint(facedet_ctx_set_eval(ctx, -1), ==, -EINVAL);
	g_assert_cmpint(facedet_ctx_set_eval(ctx, FACEDET_EVAL_AUTO), ==, 0);
}

static int abort_calls;

static int abort_after(void *opaque)
{
	return ++abort_calls > *(int *)opaque;
}

/* facedet_ctx_set_abort(): the detection stops at the next pyramid level. */
static void test_abort(void)
{
	struct facedet_face f[FACEDET_MAX_FACES];
	struct facedet_params p;
	int limit = 0;

	facedet_params_default(&p);
	abort_calls = 0;
	facedet_ctx_set_abort(ctx, abort_after, &limit);
	g_assert_cmpint(detect("astronaut", &p, f), ==, -ECANCELED);
	g_assert_cmpint(abort_calls, ==, 1);
	limit = 3;
	abort_calls = 0;
	g_assert_cmpint(detect("astronaut", &p, f), ==, -ECANCELED);
	g_assert_cmpint(abort_calls, ==, 4);
	/* asked at every level: a full detection asks many times */
	limit = 1000000;
	abort_calls = 0;
	g_assert_cmpint(detect("astronaut", &p, f), ==, 1);
	g_assert_cmpint(abort_calls, >=, 10);
	facedet_ctx_set_abort(ctx, NULL, NULL);
	g_assert_cmpint(detect("astronaut", &p, f), ==, 1);
}

int main(int argc, char **argv)
{
	char err[256];
	int ret;

	g_test_init(&argc, &argv, NULL);
	fixtures = g_getenv("FACEDET_FIXTURES");
	model_path = g_getenv("FACEDET_MODEL");
	if (!model_path)
		model_path = FACEDET_DEFAULT_MODEL;
	if (!fixtures) {
		g_printerr("FACEDET_FIXTURES is not set\n");
		return 1;
	}
	if (facedet_model_load(model_path, &model, err, sizeof(err))) {
		g_printerr("cannot load %s: %s\n", model_path, err);
		return 1;
	}
	ctx = facedet_ctx_new(model, W, H);
	g_assert_nonnull(ctx);

	g_test_add_func("/facedet/model/errors", test_model_errors);
	g_test_add_func("/facedet/model/window", test_model_window);
	g_test_add_func("/facedet/detect/photos", test_photos);
	g_test_add_func("/facedet/detect/mosaic", test_mosaic);
	g_test_add_func("/facedet/detect/face-free", test_face_free);
	g_test_add_func("/facedet/detect/roi", test_roi);
	g_test_add_func("/facedet/detect/min-size", test_min_size);
	g_test_add_func("/facedet/rects/pyramid", test_pyramid);
	g_test_add_func("/facedet/detect/direction", test_direction);
	g_test_add_func("/facedet/detect/tilt", test_tilt);
	g_test_add_func("/facedet/detect/cap-and-order", test_cap_and_order);
	g_test_add_func("/facedet/detect/lhit", test_lhit);
	g_test_add_func("/facedet/detect/abort", test_abort);
	g_test_add_func("/facedet/detect/eval", test_eval);
	g_test_add_func("/facedet/detect/bad-params", test_bad_params);
	ret = g_test_run();

	facedet_ctx_free(ctx);
	facedet_model_free(model);
	return ret;
}
