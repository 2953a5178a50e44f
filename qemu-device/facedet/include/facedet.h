/* SPDX-License-Identifier: MIT */
/*
 * facedet - the face detector behind the emulated OMAP4 FDIF.
 *
 * A Viola-Jones / Lienhart boosted Haar cascade evaluator in portable C11.
 * It loads a trained cascade (OpenCV's XML format, e.g. the ones Debian's
 * opencv-data ships) at run time and implements the contract of the OMAP4
 * Face Detection module (TRM chapter 9): an 8-bit grayscale picture, a region
 * of interest, a minimum face size, a face direction and a likelihood
 * threshold in; at most 35 faces with center, size, confidence and in-plane
 * angle out.
 *
 * Three levels of API:
 *  - facedet_detect_rects(): the plain multi-scale detector, upright only,
 *    with OpenCV detectMultiScale() semantics (scale step, min size,
 *    min neighbours, groupRectangles). The benchmark compares this to OpenCV.
 *  - facedet_detect(): the FDIF contract on top of it (ROI, direction with
 *    rotated scans, LHIT, TRM confidence, 35-face cap, deterministic order).
 *  - facedet_plan_init() / facedet_run_unit() / facedet_merge(): the same
 *    job cut into independent units for several threads, merged into the
 *    very result facedet_detect() gives.
 *
 * Nothing here allocates per window; a context owns all scratch memory.
 * Contexts are not thread-safe, models are read-only after loading and may
 * be shared by any number of contexts.
 */
#ifndef FACEDET_H
#define FACEDET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The OMAP4 FDIF limits. */
#define FACEDET_MAX_FACES	35
#define FACEDET_MAX_CONFIDENCE	9	/* TRM: 0 = most confident .. 9 = least */
#define FACEDET_MAX_LHIT	9
#define FACEDET_DEFAULT_LHIT	5

/* Default model: see docs/detector.md for why alt2. */
#define FACEDET_DEFAULT_MODEL \
	"/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"

/**
 * enum facedet_dir - which way the faces look (FD_DCOND bits 3:2)
 * @FACEDET_DIR_UP: upright faces, angles 330..359 and 0..30 degrees
 * @FACEDET_DIR_RIGHT: faces rotated clockwise, top of the head to the right
 *	of the picture, angles 60..120 degrees
 * @FACEDET_DIR_LEFT: faces rotated counter-clockwise, top of the head to the
 *	left, angles 240..300 degrees
 */
enum facedet_dir {
	FACEDET_DIR_UP = 0,
	FACEDET_DIR_RIGHT = 1,
	FACEDET_DIR_LEFT = 2,
};

/* Flags for struct facedet_params.flags. */
#define FACEDET_F_NO_ROTATION	(1u << 0) /* scan only the direction's center angle */

/**
 * struct facedet_params - one detection request
 * @startx: region of interest, left column
 * @starty: region of interest, top row
 * @sizex: region of interest width (0 = to the right edge)
 * @sizey: region of interest height (0 = to the bottom edge)
 * @min_size: smallest face side in pixels (the FDIF allows 20, 25, 32, 40;
 *	any value >= the model's window is accepted here)
 * @dir: enum facedet_dir
 * @lhit: likelihood threshold 0..9, larger is stricter (see docs)
 * @flags: FACEDET_F_*
 */
struct facedet_params {
	unsigned int startx, starty, sizex, sizey;
	unsigned int min_size;
	unsigned int dir;
	unsigned int lhit;
	unsigned int flags;
};

/**
 * struct facedet_face - one detected face, in picture coordinates
 * @cx: center column
 * @cy: center row
 * @size: side of the face square in pixels
 * @confidence: TRM confidence, 0 = most confident .. 9 = least
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright, 0..359
 * @hits: raw detections merged into this face (the score behind @confidence)
 */
struct facedet_face {
	unsigned int cx, cy, size;
	unsigned int confidence;
	unsigned int angle;
	unsigned int hits;
};

/**
 * struct facedet_rect - a raw or grouped detection rectangle
 * @x, @y, @w, @h: the rectangle
 * @hits: number of raw windows grouped into it (1 for raw windows)
 */
struct facedet_rect {
	int x, y, w, h;
	int hits;
};

/**
 * struct facedet_stats - what the last facedet_detect() did
 * @scans: rotated copies of the ROI scanned
 * @windows: cascade windows evaluated
 * @raw_hits: windows that passed every stage
 * @groups: candidate faces after grouping, before merging and the cap
 */
struct facedet_stats {
	unsigned int scans;
	unsigned int windows;
	unsigned int raw_hits;
	unsigned int groups;
};

struct facedet_model;
struct facedet_ctx;

/**
 * facedet_model_load() - parse a cascade XML file
 * @path: file name
 * @model: on success, the new model
 * @err: buffer for a human-readable reason on failure (may be NULL)
 * @errlen: size of @err
 *
 * Return: 0, -ENOENT/-EACCES/... if the file cannot be read, -EINVAL if it
 * is not a valid boosted Haar cascade, -ENOTSUP for a valid cascade of a
 * kind this evaluator does not run (LBP, tilted features), -ENOMEM.
 */
int facedet_model_load(const char *path, struct facedet_model **model,
		       char *err, size_t errlen);
void facedet_model_free(struct facedet_model *model);
/** facedet_model_window() - the model's base window (e.g. 20x20) */
void facedet_model_window(const struct facedet_model *model,
			  unsigned int *width, unsigned int *height);

/**
 * facedet_ctx_new() - scratch space for pictures up to @max_w x @max_h
 * Return: the context, or NULL if out of memory or a size is 0 or > 4096.
 */
struct facedet_ctx *facedet_ctx_new(const struct facedet_model *model,
				    unsigned int max_w, unsigned int max_h);
void facedet_ctx_free(struct facedet_ctx *ctx);

/**
 * facedet_detect_rects() - upright multi-scale detection, OpenCV semantics
 * @ctx: context
 * @img: 8-bit grayscale picture
 * @w, @h, @stride: its geometry (stride >= w, in bytes)
 * @scale_step: pyramid step, > 1.0 (OpenCV's scaleFactor, e.g. 1.1)
 * @min_size: smallest window side to try
 * @min_neighbors: OpenCV's minNeighbors; < 0 returns the raw windows
 * @rects: output array
 * @max_rects: its length
 *
 * Return: number of rectangles found (may exceed @max_rects; only the first
 * @max_rects are stored), or -EINVAL / -E2BIG (picture larger than @ctx).
 */
int facedet_detect_rects(struct facedet_ctx *ctx, const uint8_t *img,
			 unsigned int w, unsigned int h, unsigned int stride,
			 double scale_step, unsigned int min_size,
			 int min_neighbors, struct facedet_rect *rects,
			 unsigned int max_rects);

/**
 * facedet_detect() - the OMAP4 FDIF detection contract
 * @ctx: context
 * @img, @w, @h, @stride: 8-bit grayscale picture
 * @params: request; the ROI must lie inside the picture
 * @faces: output, room for FACEDET_MAX_FACES entries
 *
 * Faces come sorted by confidence (best first), then by row, then column.
 * The same input always gives the same output.
 *
 * Return: number of faces (0..FACEDET_MAX_FACES) or -EINVAL for bad
 * parameters, -E2BIG for a picture larger than @ctx was made for,
 * -ECANCELED if stopped by facedet_ctx_set_abort()'s callback, -ENOMEM,
 * or -EPROTO when one of the detector's internal consistency checks failed
 * (a bug in the detector: it is reported, never an abort()).
 */
int facedet_detect(struct facedet_ctx *ctx, const uint8_t *img,
		   unsigned int w, unsigned int h, unsigned int stride,
		   const struct facedet_params *params,
		   struct facedet_face faces[FACEDET_MAX_FACES]);

/**
 * enum facedet_eval - how the detector evaluates its windows
 * @FACEDET_EVAL_AUTO: the fastest that the model, the build and the CPU
 *	allow (the default): the 8-lane AVX2 scan, the 4-lane vector scan, or
 *	one window at a time; the reference evaluator for a cascade the fast
 *	one cannot compute exactly
 * @FACEDET_EVAL_SSE2: the 4-lane vector scan even where AVX2 exists
 * @FACEDET_EVAL_SCALAR: the fast evaluator one window at a time, which also
 *	checks the vector scans' row intervals on every window
 * @FACEDET_EVAL_REFERENCE: the reference evaluator (any tree shape, float
 *	weights), one window at a time
 *
 * All of them give the same faces, byte for byte (the golden tests run
 * each); the choice exists for testing and benchmarking.
 */
enum facedet_eval {
	FACEDET_EVAL_AUTO,
	FACEDET_EVAL_SSE2,
	FACEDET_EVAL_SCALAR,
	FACEDET_EVAL_REFERENCE,
};

/**
 * facedet_ctx_set_eval() - choose @ctx's evaluator for its next detections
 * Return: 0, or -EINVAL for a value not in enum facedet_eval.
 */
int facedet_ctx_set_eval(struct facedet_ctx *ctx, enum facedet_eval eval);

/**
 * facedet_eval_parse() - an evaluator by name: "auto", "sse2", "scalar",
 * "reference"
 * Return: the enum facedet_eval value, or -EINVAL.
 */
int facedet_eval_parse(const char *name);

/**
 * facedet_ctx_set_abort() - let a caller stop facedet_detect() early
 * @ctx: context
 * @should_abort: called by the detecting thread at least once per pyramid
 *	level; when it returns non-zero, the detection on @ctx stops and
 *	returns -ECANCELED. NULL (the default) never stops.
 * @opaque: its argument
 *
 * For a caller that discards a detection running on another thread.
 */
void facedet_ctx_set_abort(struct facedet_ctx *ctx,
			   int (*should_abort)(void *opaque), void *opaque);

/** facedet_ctx_stats() - counters of the last facedet_detect() on @ctx */
const struct facedet_stats *facedet_ctx_stats(const struct facedet_ctx *ctx);

/**
 * facedet_ctx_candidates() - every face of the last facedet_detect(), in the
 * same order, before the FACEDET_MAX_FACES cap (at most 256)
 * Return: their number; *@faces points into @ctx until its next detection.
 */
unsigned int facedet_ctx_candidates(const struct facedet_ctx *ctx,
				    const struct facedet_face **faces);

/*
 * Splitting one facedet_detect() job across threads.
 *
 * A job is a plan of independent work units: one per rotated scan (angle),
 * or, with @bands > 1, each scan's pyramid levels cut into @bands runs of
 * about equal window counts.  Each unit runs on its own context (any
 * thread, any order, any number of units per context one after the other)
 * and leaves its raw output in a part; facedet_merge() then combines the
 * parts in plan order.  The result (faces, candidates, stats) is identical
 * to facedet_detect() with the same parameters, whatever the split, the
 * threads or the order the units ran in:
 *
 *	facedet_plan_init(ctx, w, h, &params, 2, &plan);
 *	for (i = 0; i < plan.nunits; i++)	// in parallel, one ctx per worker
 *		facedet_run_unit(worker_ctx, img, stride, &plan, i, parts[i]);
 *	n = facedet_merge(ctx, &plan, parts, faces);
 *
 * facedet_detect() itself is exactly this with @bands = 1 on one context.
 * Contexts and parts are not shared between threads while in use; the model
 * and the plan are read-only and may be.  The picture must not change
 * between the units and the merge.
 */
#define FACEDET_MAX_BANDS	4
#define FACEDET_MAX_UNITS	(3 * FACEDET_MAX_BANDS)

/**
 * struct facedet_unit - one independent piece of a job
 * @scan: rotated scan: 0 = direction's center angle, 1 = +20, 2 = -20 degrees
 * @first_level: first pyramid level of that scan it covers
 * @nlevels: number of levels (0 only for a scan too small for any level)
 * @windows: window positions in those levels, an estimate of its cost
 *	(the actual work depends on the picture)
 */
struct facedet_unit {
	unsigned int scan, first_level, nlevels, windows;
};

/**
 * struct facedet_plan - a job cut into units (filled by facedet_plan_init())
 * @params: the request, ROI size resolved (sizex, sizey never 0)
 * @w, @h: picture size
 * @nscans: rotated scans (1 or 3)
 * @nunits: units in @unit, ordered by scan, then level
 * @unit: the units
 */
struct facedet_plan {
	struct facedet_params params;
	unsigned int w, h;
	unsigned int nscans;
	unsigned int nunits;
	struct facedet_unit unit[FACEDET_MAX_UNITS];
};

/** struct facedet_part - one unit's output (opaque; reusable for any unit) */
struct facedet_part;

/**
 * facedet_plan_init() - cut a facedet_detect() job into units
 * @ctx: a context the picture fits (used for the model and size checks only)
 * @w, @h: picture size
 * @params: the request, as for facedet_detect()
 * @bands: level bands per scan, 1..FACEDET_MAX_BANDS (1: one unit per angle)
 * @plan: output
 * Return: 0, -EINVAL for bad parameters, -E2BIG for a picture too large.
 */
int facedet_plan_init(const struct facedet_ctx *ctx, unsigned int w, unsigned int h,
		      const struct facedet_params *params, unsigned int bands,
		      struct facedet_plan *plan);

/** facedet_part_new() - an empty part; NULL if out of memory */
struct facedet_part *facedet_part_new(void);
void facedet_part_free(struct facedet_part *part);

/**
 * facedet_run_unit() - run unit @unit of @plan on @ctx into @part
 * @ctx: a context made for pictures of at least the plan's size, with the
 *	same model as the plan's; its stats and candidates are not touched
 *	in a meaningful way (read them from the merging context)
 * @img, @stride: the picture of the plan
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int facedet_run_unit(struct facedet_ctx *ctx, const uint8_t *img, unsigned int stride,
		     const struct facedet_plan *plan, unsigned int unit,
		     struct facedet_part *part);

/**
 * facedet_merge() - combine the parts of every unit of @plan
 * @ctx: context receiving the stats and candidates (may be one of the
 *	workers' once they are done)
 * @parts: @plan->nunits parts, parts[i] holding unit i's output
 * @faces: output, room for FACEDET_MAX_FACES entries
 * Return: as facedet_detect(); -EINVAL if a part is missing or holds
 * another unit.
 */
int facedet_merge(struct facedet_ctx *ctx, const struct facedet_plan *plan,
		  struct facedet_part *const parts[],
		  struct facedet_face faces[FACEDET_MAX_FACES]);

/** facedet_params_default() - FDIF reset values: whole picture, 20 px, up, LHIT 5 */
void facedet_params_default(struct facedet_params *params);

#ifdef __cplusplus
}
#endif

#endif /* FACEDET_H */
