/* SPDX-License-Identifier: MIT */
/*
 * facedet internals shared by the model loader and the evaluator.
 */
#ifndef FACEDET_INTERNAL_H
#define FACEDET_INTERNAL_H

#include "facedet.h"

#define FD_MAX_RECTS		3	/* Haar features have 2 or 3 rectangles */
#define FD_MAX_WINDOW		64	/* largest model window we accept */
#define FD_MAX_SIDE		4096	/* largest picture side a context takes */

struct fd_rect {
	int x, y, w, h;
	float weight;
};

struct fd_feature {
	int nrects;
	struct fd_rect r[FD_MAX_RECTS];
};

/*
 * A tree node: compare feature @feature against @threshold; go @left if
 * smaller, else @right.  A child > 0 is a node index inside the same tree, a
 * child <= 0 is the leaf -child of that tree (OpenCV's encoding).
 */
struct fd_node {
	int feature;
	float threshold;
	int left, right;
};

struct fd_tree {
	int first_node, nnodes;
	int first_leaf, nleaves;
};

struct fd_stage {
	int first_tree, ntrees;
	float threshold;
};

struct facedet_model {
	int win_w, win_h;
	int nstages, ntrees, nnodes, nleaves, nfeatures;
	struct fd_stage *stages;
	struct fd_tree *trees;
	struct fd_node *nodes;
	float *leaves;
	struct fd_feature *features;
};

#endif /* FACEDET_INTERNAL_H */
