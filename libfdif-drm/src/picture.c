// SPDX-License-Identifier: MIT
/*
 * The device library's own picture helpers, plain C: freeing a picture and
 * its grey version for the frame. Decoding and writing files is
 * libfdif-image's (image.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

void fdif_image_free(struct fdif_image *img)
{
	free(img->pixels);
	memset(img, 0, sizeof(*img));
}

int fdif_image_to_gray(const struct fdif_image *src, struct fdif_image *dst)
{
	unsigned int x, y;
	int ret = fdif_image_alloc(dst, src->width, src->height, 1);

	if (ret)
		return ret;
	for (y = 0; y < src->height; y++) {
		const uint8_t *s = src->pixels + (size_t)y * src->stride;
		uint8_t *d = dst->pixels + (size_t)y * dst->stride;

		for (x = 0; x < src->width; x++, s += src->channels)
			d[x] = src->channels == 1 ? s[0] : fdif_luma(s);
	}
	return 0;
}
