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
#include <string.h>

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

/* the largest size a caller's size-prefixed struct may claim */
#define FDIF_STRUCT_MAX 4096

/*
 * A size-prefixed input, @size bytes at @in as the caller knows it, read
 * into @out (@known bytes, as this library knows it): shorter than its
 * first version (@v1) or longer than FDIF_STRUCT_MAX is -EINVAL (a size
 * never set is no multi-GB read), longer than @known with a tail that is
 * not zero -E2BIG; what the caller's lacks is zero.
 */
static inline int fdif_sized_read(const void *in, uint32_t size, size_t v1,
				  void *out, size_t known)
{
	const unsigned char *tail = in;
	uint32_t i;

	if (size < v1 || size > FDIF_STRUCT_MAX)
		return -EINVAL;
	for (i = (uint32_t)known; i < size; i++)
		if (tail[i])
			return -E2BIG;
	memset(out, 0, known);
	memcpy(out, in, size < known ? size : known);
	return 0;
}

/* fdif_detect_start()'s frame BO, kept by the device between detections */
struct fdif_bo *fdif_frame_take(struct fdif_device *dev);
void fdif_frame_give(struct fdif_device *dev, struct fdif_bo *bo);

#endif
