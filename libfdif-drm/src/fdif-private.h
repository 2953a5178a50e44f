/* SPDX-License-Identifier: MIT */
#ifndef FDIF_PRIVATE_H
#define FDIF_PRIVATE_H

#define FDIF_MAX_SIDE	16384	/* largest picture side we decode */
/*
 * The most memory libjpeg may take for one picture beyond its output rows:
 * a baseline JPEG needs a few MiB at any size, a progressive one all its
 * coefficients (2 bytes a sample: 4:2:0 colour 3 bytes a pixel), so this
 * is a progressive picture of about 170 Mpixel 4:2:0, 85 Mpixel 4:4:4.
 */
#define FDIF_JPEG_MAX_MEMORY	(512L << 20)
#define FDIF_PAD_GRAY	128	/* frame area outside the fitted picture */

#include <errno.h>
#include <stdlib.h>

#include "fdif/fdif.h"

/* BT.601 luma of an RGB pixel, the same in both libraries */
static inline uint8_t fdif_luma(const uint8_t *rgb)
{
	return (uint8_t)((299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] + 500) / 1000);
}

/*
 * A new picture of @w x @h pixels of @channels bytes, rows packed. Inline:
 * both libraries (libfdif-drm and libfdif-image) allocate pictures, and
 * neither exports it.
 */
static inline int fdif_image_alloc(struct fdif_image *img, unsigned int w,
				   unsigned int h, unsigned int channels)
{
	if (!w || !h)
		return -EBADMSG;
	if (w > FDIF_MAX_SIDE || h > FDIF_MAX_SIDE)
		return -EFBIG;
	img->width = w;
	img->height = h;
	img->channels = channels;
	img->stride = w * channels;
	img->pixels = malloc((size_t)img->stride * h);
	return img->pixels ? 0 : -ENOMEM;
}

/* fdif_detect_start()'s frame BO, kept by the device between detections */
struct fdif_bo *fdif_frame_take(struct fdif_device *dev);
void fdif_frame_give(struct fdif_device *dev, struct fdif_bo *bo);

#endif
