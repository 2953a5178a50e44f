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

struct fd_cnode;

struct facedet_ctx {
	const struct facedet_model *m;
	unsigned int max_w, max_h;	/* largest picture accepted */
	int cap;			/* side of the scratch pictures */
	int stride;			/* of the integral images: cap + 1 */

	struct fd_cnode *cnodes;	/* nodes with offsets for @stride */
	int nofs[4];			/* variance rectangle offsets */
	int narea;			/* and its area */

	uint8_t *scaled;		/* a pyramid level, cap x cap */
	uint8_t *rotated;		/* a rotated ROI, cap x cap */
	int32_t *sum;			/* integral, stride x stride */
	uint32_t *sq;			/* squared integral, mod 2^32 */
	int *xofs;			/* resize tables */
	int16_t *xw;

	struct facedet_rect *raw;	/* raw windows, then groups */
	struct facedet_rect *tmp;	/* grouping scratch */
	int *labels, *cls;
	int raw_cap, nraw;

	int (*should_abort)(void *);	/* facedet_ctx_set_abort() */
	void *abort_opaque;

	struct facedet_stats stats;	/* of the last facedet_detect() */
	struct facedet_face all[FD_MAX_CANDIDATES]; /* its faces before the cap */
	int nall;
};

int fd_ctx_init(struct facedet_ctx *ctx, const struct facedet_model *m, int cap);
void fd_ctx_fini(struct facedet_ctx *ctx);

/*
 * Slide the model over every pyramid level of the picture whose window
 * side lies in [min_size, max_size]; raw hits land in ctx->raw.
 * Return: number of raw hits or -ENOMEM.
 */
int fd_scan(struct facedet_ctx *ctx, const uint8_t *img, int w, int h,
	    int stride, double step, int min_size, int max_size);

/* Group ctx->raw[0..n) in place (OpenCV groupRectangles); returns groups. */
int fd_group(struct facedet_ctx *ctx, int n, int min_neighbors);

#endif /* FACEDET_DETECT_H */
