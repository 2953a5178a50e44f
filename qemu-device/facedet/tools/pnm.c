// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "pnm.h"

/* Next header integer, skipping white space and '#' comments. */
static int header_int(FILE *f, unsigned int *out)
{
	unsigned long v = 0;
	int c, digits = 0;

	do {
		c = fgetc(f);
		if (c == '#')
			while (c != '\n' && c != EOF)
				c = fgetc(f);
	} while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
	while (c >= '0' && c <= '9') {
		v = v * 10 + (unsigned long)(c - '0');
		if (v > 65535)
			return -1;
		digits++;
		c = fgetc(f);
	}
	if (!digits || (c != ' ' && c != '\t' && c != '\r' && c != '\n'))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

uint8_t *pnm_read_gray(const char *path, unsigned int *w, unsigned int *h)
{
	unsigned int maxval, channels, x;
	uint8_t *img = NULL, *row = NULL;
	size_t n;
	FILE *f;
	int kind, err = EINVAL;

	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fgetc(f) != 'P')
		goto out;
	kind = fgetc(f);
	if (kind != '5' && kind != '6')
		goto out;
	channels = kind == '6' ? 3 : 1;
	if (header_int(f, w) || header_int(f, h) || header_int(f, &maxval) ||
	    !*w || !*h || maxval != 255)
		goto out;
	n = (size_t)*w * *h;
	img = malloc(n);
	row = malloc((size_t)*w * channels);
	if (!img || !row) {
		err = ENOMEM;
		goto out;
	}
	for (unsigned int y = 0; y < *h; y++) {
		if (fread(row, channels, *w, f) != *w)
			goto out;
		for (x = 0; x < *w; x++) {
			const uint8_t *p = row + (size_t)x * channels;

			img[(size_t)y * *w + x] = channels == 1 ? p[0] :
				(uint8_t)((299 * p[0] + 587 * p[1] + 114 * p[2] + 500) / 1000);
		}
	}
	err = 0;
out:
	free(row);
	fclose(f);
	if (err) {
		free(img);
		errno = err;
		return NULL;
	}
	return img;
}

int pnm_write_gray(const char *path, const uint8_t *img, unsigned int w,
		   unsigned int h, unsigned int stride)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -errno;
	ok = fprintf(f, "P5\n%u %u\n255\n", w, h) > 0;
	for (unsigned int y = 0; ok && y < h; y++)
		ok = fwrite(img + (size_t)y * stride, 1, w, f) == w;
	if (fclose(f) || !ok)
		return -EIO;
	return 0;
}
