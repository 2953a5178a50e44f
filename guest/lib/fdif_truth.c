// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "fdif_truth.h"

#define FDIF_DATA_DIR	"/data"

/*
 * The marked faces of picture NAME, one 'x y w h' line each.
 * Return: their number, or a negative errno.
 */
int fdif_load_truth(const char *name, struct fdif_box *boxes, int max)
{
	char path[256];
	struct fdif_box b;
	FILE *f;
	int n = 0, got;

	snprintf(path, sizeof(path), "%s/%s.truth", FDIF_DATA_DIR, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while ((got = fscanf(f, "%lf %lf %lf %lf", &b.x, &b.y, &b.w, &b.h)) == 4) {
		if (n == max) {
			n = -E2BIG;
			break;
		}
		boxes[n++] = b;
	}
	if (n >= 0 && got != EOF)
		n = -EINVAL;
	fclose(f);
	return n;
}

/*
 * A face found at (@cx, @cy) of side @size is the marked face @b when its
 * center lies in the box and its size is within a factor of two of the
 * box's (the rule of tests/truth.py).
 */
bool fdif_box_holds(const struct fdif_box *b, double cx, double cy, double size)
{
	double side = sqrt(b->w * b->h);

	return cx >= b->x && cx <= b->x + b->w && cy >= b->y && cy <= b->y + b->h &&
	       size >= side / 2 && size <= side * 2;
}

