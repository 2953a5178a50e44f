/* SPDX-License-Identifier: MIT */
/*
 * The face boxes marked on the guest's test pictures: /data/NAME.truth, one
 * 'x y w h' line a face, written on the host from testdata/faces.tsv (boxes
 * a person marked) and from where the LFW mosaics' faces were pasted, never
 * from a detector. Shared by the uAPI tests and the library's tests.
 */
#ifndef FDIF_TRUTH_H
#define FDIF_TRUTH_H

#include <stdbool.h>

struct fdif_box {
	double x, y, w, h;
};

int fdif_load_truth(const char *name, struct fdif_box *boxes, int max);
bool fdif_box_holds(const struct fdif_box *b, double cx, double cy, double size);

#endif
