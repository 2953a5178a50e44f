// SPDX-License-Identifier: MIT
/*
 * Fitting any picture into the device's frame (area filter, aspect ratio
 * kept), mapping faces back, and merging the faces of several scans.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

/*
 * Weights of source samples for one axis: output i covers the source
 * interval [i * scale, (i + 1) * scale); each source pixel contributes the
 * length of its overlap. Stored as (first, count, weights...) per output.
 */
struct axis {
	unsigned int *first, *count;
	float *w;
	unsigned int per;	/* weights reserved per output */
};

static int axis_init(struct axis *a, unsigned int out, unsigned int in,
		     double scale)
{
	unsigned int i, k;

	a->per = (unsigned int)ceil(scale) + 2;
	a->first = calloc(out, sizeof(*a->first));
	a->count = calloc(out, sizeof(*a->count));
	a->w = calloc((size_t)out * a->per, sizeof(*a->w));
	if (!a->first || !a->count || !a->w)
		return -ENOMEM;
	for (i = 0; i < out; i++) {
		double lo = i * scale, hi = (i + 1) * scale, sum = 0;
		unsigned int s = (unsigned int)floor(lo);

		if (hi > in)
			hi = in;
		if (s >= in)
			s = in - 1;
		a->first[i] = s;
		for (k = 0; k < a->per && s + k < in && s + k < hi; k++) {
			double l = fmax(lo, s + k), h = fmin(hi, s + k + 1.0);
			float w = h > l ? (float)(h - l) : 0;

			a->w[(size_t)i * a->per + k] = w;
			sum += w;
		}
		a->count[i] = k;
		if (sum <= 0) {		/* past the edge: repeat the last pixel */
			a->w[(size_t)i * a->per] = 1;
			a->count[i] = 1;
			sum = 1;
		}
		for (k = 0; k < a->count[i]; k++)
			a->w[(size_t)i * a->per + k] /= (float)sum;
	}
	return 0;
}

static void axis_fini(struct axis *a)
{
	free(a->first);
	free(a->count);
	free(a->w);
}

int fdif_image_fit_frame(const struct fdif_image *img, uint8_t *frame,
			 unsigned int width, unsigned int height,
			 unsigned int stride, struct fdif_frame_map *map)
{
	struct axis ax = { 0 }, ay = { 0 };
	unsigned int ow, oh, x, y, k;
	double scale;
	float *rows = NULL;
	int ret;

	if ((img->channels != 1 && img->channels != 3) || !img->width || !img->height ||
	    img->stride < (size_t)img->width * img->channels ||
	    !width || !height || stride < width || width > FDIF_MAX_SIDE ||
	    height > FDIF_MAX_SIDE)
		return -EINVAL;
	scale = fmax((double)img->width / width, (double)img->height / height);
	ow = (unsigned int)lrint(img->width / scale);
	oh = (unsigned int)lrint(img->height / scale);
	ow = ow < 1 ? 1 : (ow > width ? width : ow);
	oh = oh < 1 ? 1 : (oh > height ? height : oh);
	map->scale = scale;
	map->off_x = (width - ow) / 2;
	map->off_y = (height - oh) / 2;

	ret = axis_init(&ax, ow, img->width, scale);
	if (!ret)
		ret = axis_init(&ay, oh, img->height, scale);
	rows = ret ? NULL : malloc((size_t)ow * img->height * sizeof(*rows));
	if (!ret && !rows)
		ret = -ENOMEM;
	if (ret)
		goto out;

	/* horizontal pass over every source row (RGB as its luma), then vertical */
	for (y = 0; y < img->height; y++) {
		const uint8_t *s = img->pixels + (size_t)y * img->stride;
		float *r = rows + (size_t)y * ow;

		for (x = 0; x < ow; x++) {
			const float *w = ax.w + (size_t)x * ax.per;
			const uint8_t *p = s + (size_t)ax.first[x] * img->channels;
			float acc = 0;

			for (k = 0; k < ax.count[x]; k++, p += img->channels)
				acc += w[k] * (img->channels == 1 ? p[0] : fdif_luma(p));
			r[x] = acc;
		}
	}
	for (y = 0; y < height; y++)
		memset(frame + (size_t)y * stride, FDIF_PAD_GRAY, width);
	for (y = 0; y < oh; y++) {
		const float *w = ay.w + (size_t)y * ay.per;
		uint8_t *d = frame + (size_t)(y + map->off_y) * stride +
			     (size_t)map->off_x;

		for (x = 0; x < ow; x++) {
			float acc = 0;

			for (k = 0; k < ay.count[y]; k++)
				acc += w[k] * rows[(size_t)(ay.first[y] + k) * ow + x];
			d[x] = (uint8_t)lrintf(fminf(fmaxf(acc, 0), 255));
		}
	}
out:
	free(rows);
	axis_fini(&ax);
	axis_fini(&ay);
	return ret;
}

void fdif_map_face(const struct fdif_frame_map *map, struct fdif_face *f)
{
	f->x = (f->x - map->off_x) * map->scale;
	f->y = (f->y - map->off_y) * map->scale;
	f->width *= map->scale;
	f->height *= map->scale;
}

static int by_confidence(const void *a, const void *b)
{
	const struct fdif_face *x = a, *y = b;

	if (x->confidence != y->confidence)
		return x->confidence > y->confidence ? -1 : 1;
	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return x->x < y->x ? -1 : x->x > y->x;
}

unsigned int fdif_merge_faces(struct fdif_face *faces, unsigned int n)
{
	unsigned int i, j, out = 0;

	qsort(faces, n, sizeof(*faces), by_confidence);
	for (i = 0; i < n; i++) {
		const struct fdif_face *f = &faces[i];

		for (j = 0; j < out; j++) {
			const struct fdif_face *k = &faces[j];

			double fs = fmax(f->width, f->height), ks = fmax(k->width, k->height);

			if (hypot(f->x - k->x, f->y - k->y) < 0.5 * fmax(fs, ks) &&
			    fs < 1.5 * ks && ks < 1.5 * fs)
				break;
		}
		if (j == out)
			faces[out++] = *f;
	}
	return out;
}
