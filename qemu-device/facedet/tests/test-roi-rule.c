// SPDX-License-Identifier: MIT
/*
 * The ROI rule of the rotated scans, from its statement in docs/detector.md
 * ("Direction and angle"), not from the detector's code: the copy of a
 * W x H ROI turned by t degrees is ceil(W |cos t| + H |sin t|) wide and
 * ceil(W |sin t| + H |cos t|) high; its point q samples the ROI at
 * o + M(t) (q - r), o and r the centers of the ROI and of the copy,
 * M = [cos -sin; sin cos]; a window is kept when its four corners map to
 * at most one pixel outside the ROI, [-1, W + 1] x [-1, H + 1].
 *
 * Every window position of a few sizes, in copies of a few ROIs at every
 * angle the three directions scan, is judged here with that arithmetic and
 * compared with the detector's own test (fd_window_kept()).  Positions with
 * a corner within 1e-6 of a bound are left out: there the last bit of a
 * sine decides, and the rule does not.  Each comparison must also meet
 * windows kept only thanks to the pixel of tolerance, and windows dropped
 * although no corner is more than two pixels out, so that a rule with no
 * tolerance, or with a larger one, fails.
 */
#include <math.h>
#include <stdlib.h>

#include <glib.h>

#include "facedet.h"
#include "detect.h"

enum verdict { DROP, KEEP, KEEP_BY_TOLERANCE, UNDECIDED };

/* The rule as docs/detector.md states it. */
static enum verdict rule(int roi_w, int roi_h, int deg, int cw, int ch,
			 int x, int y, int w, int h, int *near_miss)
{
	const double eps = 1e-6, t = deg * M_PI / 180.0;
	const double s = sin(t), c = cos(t);
	double ox = roi_w / 2.0, oy = roi_h / 2.0, rx = cw / 2.0, ry = ch / 2.0;
	double lo = INFINITY, hix = -INFINITY, hiy = -INFINITY, loy = INFINITY;
	int k;

	for (k = 0; k < 4; k++) {
		double qx = x + (k & 1 ? w : 0) - rx, qy = y + (k & 2 ? h : 0) - ry;
		double px = ox + c * qx - s * qy, py = oy + s * qx + c * qy;

		lo = fmin(lo, px);
		hix = fmax(hix, px);
		loy = fmin(loy, py);
		hiy = fmax(hiy, py);
	}
	/* how far the worst corner lies outside the ROI */
	double out = fmax(fmax(-lo, hix - roi_w), fmax(-loy, hiy - roi_h));

	*near_miss = out > 1 + eps && out < 2;
	if (fabs(out - 1) < eps || fabs(out) < eps)
		return UNDECIDED;
	if (out > 1)
		return DROP;
	return out > 0 ? KEEP_BY_TOLERANCE : KEEP;
}

static void test_rule(void)
{
	static const int angles[] = { 20, -20, 70, 90, 110, 250, 270, 290 };
	static const int rois[][2] = { { 320, 240 }, { 100, 60 }, { 41, 37 } };
	static const int sizes[] = { 20, 24, 33 };
	struct facedet_model *model = NULL;
	struct facedet_ctx *ctx;
	unsigned int a, r, z;
	char err[256];

	/* any model: the rule is the scan's, not the cascade's */
	g_assert_cmpint(facedet_model_load(FACEDET_DEFAULT_MODEL, &model, err, sizeof(err)),
			==, 0);
	ctx = facedet_ctx_new(model, 640, 480);
	g_assert_nonnull(ctx);
	for (a = 0; a < G_N_ELEMENTS(angles); a++) {
		for (r = 0; r < G_N_ELEMENTS(rois); r++) {
			const int W = rois[r][0], H = rois[r][1], deg = angles[a];
			const double t = deg * M_PI / 180.0;
			const int cw = (int)ceil(W * fabs(cos(t)) + H * fabs(sin(t)) - 1e-9);
			const int ch = (int)ceil(W * fabs(sin(t)) + H * fabs(cos(t)) - 1e-9);
			unsigned long n[4] = { 0 }, near_misses = 0, wrong = 0;

			for (z = 0; z < G_N_ELEMENTS(sizes); z++) {
				const int w = sizes[z];
				int x, y;

				for (y = 0; y + w <= ch; y++) {
					for (x = 0; x + w <= cw; x++) {
						int near, got;
						enum verdict v = rule(W, H, deg, cw, ch, x, y, w, w,
								      &near);

						n[v]++;
						if (v == UNDECIDED)
							continue;
						near_misses += v == DROP && near;
						got = fd_window_kept(ctx, W, H, deg, x, y, w, w);
						if (got != (v != DROP) && wrong++ < 3)
							g_test_message("%dx%d at %d deg: window %d,%d %dx%d: %s, the rule says %s",
								       W, H, deg, x, y, w, w,
								       got ? "kept" : "dropped",
								       v == DROP ? "drop" : "keep");
					}
				}
			}
			g_test_message("%dx%d ROI at %d deg (copy %dx%d): %lu kept, %lu kept by the pixel of tolerance, %lu dropped (%lu under two pixels out), %lu undecided; %lu disagree",
				       W, H, deg, cw, ch, n[KEEP], n[KEEP_BY_TOLERANCE], n[DROP],
				       near_misses, n[UNDECIDED], wrong);
			g_assert_cmpuint(wrong, ==, 0);
			/* the comparison saw both sides of the tolerance */
			if (deg % 90) {
				g_assert_cmpuint(n[KEEP], >, 0);
				g_assert_cmpuint(n[KEEP_BY_TOLERANCE], >, 0);
				g_assert_cmpuint(near_misses, >, 0);
			}
		}
	}
	facedet_ctx_free(ctx);
	facedet_model_free(model);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/facedet/roi-rule", test_rule);
	return g_test_run();
}
