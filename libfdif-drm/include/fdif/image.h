/* SPDX-License-Identifier: MIT */
/*
 * libfdif-image - pictures in and out for libfdif-drm
 *
 * Decoding PGM/PPM, PNG (libpng) and JPEG (libjpeg-turbo) pictures from a
 * file or from memory, writing PNG, and drawing, into and from the
 * struct fdif_image of <fdif/fdif.h>. A separate library so that a program
 * that only submits frames (a camera app) links libfdif-drm alone, without
 * the image format libraries; pkg-config: libfdif-image (it requires
 * libfdif-drm, whose fdif_image_free() frees what this library decodes and
 * whose fdif_strerror() gives its errors' messages).
 *
 * Every function that can fail returns 0 on success and a negative errno
 * on failure. The library never prints and never exits; every file it
 * opens is close-on-exec. Pictures are untrusted input: sizes are checked
 * against the limits below before anything is allocated for them.
 */
#ifndef FDIF_IMAGE_H
#define FDIF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <fdif/fdif.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fdif_image_load() - decode a PGM/PPM, PNG or JPEG file
 * PGM/PPM: ASCII (P2, P3) or binary (P5, P6), any maxval (1..65535; two
 * bytes a sample, big-endian, above 255), scaled to 0..255.
 * Return: 0, -ENOENT/-EACCES..., -ENOTSUP for another format, -EBADMSG for
 * a corrupt or truncated file (also a PNM header that is not one, a
 * sample over its maxval), -EFBIG for more than 16384 pixels a side
 * (checked right after the header, before anything is allocated for the
 * size) or a JPEG that needs more than 512 MiB of libjpeg's own memory (a
 * progressive one of more than about 170 Mpixel 4:2:0).
 * JPEG: YCbCr, grey, CMYK and YCCK (Adobe, inverted CMYK as Photoshop
 * writes it) pictures, to RGB or grey; libjpeg's warnings about bytes it
 * skips are not errors, a file that ends early or a scan whose data is
 * missing is (-EBADMSG, as soon as libjpeg says so).
 * The EXIF orientation of a JPEG (APP1) or a PNG (its eXIf chunk, before
 * or after the image data), read by libexif, is applied: the picture is
 * upright. Every decoder hands its rows, as they are decoded, to where
 * they go in the upright picture: only a PNG whose eXIf follows its image
 * data is turned after, a copy. fdif_image_load_limited() bounds the
 * memory.
 */
int fdif_image_load(const char *path, struct fdif_image *img);
/**
 * fdif_image_load_mem() - decode a picture held in memory (@size bytes at
 * @data, a whole file's contents: from a pipe, a socket, a camera app's
 * buffer), with the same formats, limits and errors as fdif_image_load().
 * @data is only read, and may be freed once this returns.
 */
int fdif_image_load_mem(const void *data, size_t size, struct fdif_image *img);
/**
 * struct fdif_image_info - what a picture was, before a load reduced it
 * @scale: its pixels per decoded pixel (1: full size; a JPEG reduced to
 *	M/8 of its size: 8/M); a point of the decoded picture times @scale is
 *	the point in the full-size picture
 * @width: the full picture's width, upright
 * @height: its height, upright
 * @orientation: the EXIF orientation it was stored in (1..8; 1 also when
 *	it has none), already applied: the decoded picture is upright
 */
struct fdif_image_info {
	double scale;
	unsigned int width, height;
	unsigned int orientation;
};

/**
 * fdif_image_load_gray() - decode a picture as fdif_image_load() does, to
 * one grey channel, no larger than fitting it into a frame needs
 * @fit_width: the frame it will be fitted into (fdif_image_fit_frame(),
 *	the device's: fdif_caps.frame_width), or 0 for the full size
 * @fit_height: its height (fdif_caps.frame_height), or 0
 * @info: the size the picture was and the decoded one's scale, or NULL
 *
 * A JPEG is decoded straight to grey (its luma) and reduced by libjpeg
 * to the smallest M/8 of its size (M 1..8) that is still at least as
 * large as the picture fitted into @fit_width x @fit_height: a 4000x3000
 * photo for a 320x240 frame is decoded at 500x375, never at full size.
 * A PNG or PGM/PPM is read a row at a time, turned grey and reduced on
 * the way by the largest whole factor s that still covers the fitted
 * picture (each decoded pixel the mean of an s x s block; @info's scale
 * s). The same limits and errors as fdif_image_load(); EXIF orientation
 * is applied.
 */
int fdif_image_load_gray(const char *path, unsigned int fit_width,
			 unsigned int fit_height, struct fdif_image *img,
			 struct fdif_image_info *info);
/** fdif_image_load_gray_mem() - fdif_image_load_gray() from memory */
int fdif_image_load_gray_mem(const void *data, size_t size,
			     unsigned int fit_width, unsigned int fit_height,
			     struct fdif_image *img, struct fdif_image_info *info);
/**
 * struct fdif_image_limits - what a load may take (LIBFDIF_IMAGE_1.2)
 * @size: sizeof(struct fdif_image_limits), set by the caller: the
 *	structure may grow at its end (a longer one is taken if what this
 *	library does not know of it is zero, else -E2BIG; a shorter one is
 *	-EINVAL)
 * @max_pixels: the most pixels (width x height, as the file stores the
 *	picture, before any reduction) a picture may have; 0: no limit but
 *	16384 a side
 * @max_bytes: the most memory the load holds at once: the decoded picture
 *	(reduced, as asked), the decoder's rows and sums, libjpeg's own
 *	(a progressive JPEG's coefficients, 2 bytes each: 3 bytes a pixel
 *	for 4:2:0); 0: no limit but libjpeg's 512 MiB
 *
 * Both are checked right after the header, before anything is allocated
 * for the size; over either, the load is -EFBIG.
 */
struct fdif_image_limits {
	size_t size;
	size_t max_pixels;
	size_t max_bytes;
};

/**
 * fdif_image_load_limited() - fdif_image_load() within @limits
 * @path: the file, or NULL to decode the @size bytes at @data
 * (fdif_image_load_mem())
 * @limits: the limits, or NULL for fdif_image_load()'s
 *
 * Return: as fdif_image_load(); -EFBIG also for a picture over @limits.
 * (LIBFDIF_IMAGE_1.2)
 */
int fdif_image_load_limited(const char *path, const void *data, size_t size,
			    const struct fdif_image_limits *limits, struct fdif_image *img);
/**
 * fdif_image_load_gray_limited() - fdif_image_load_gray() (or, @path
 * NULL, fdif_image_load_gray_mem() of @size bytes at @data) within
 * @limits (NULL: none but fdif_image_load()'s) (LIBFDIF_IMAGE_1.2)
 */
int fdif_image_load_gray_limited(const char *path, const void *data, size_t size,
				 unsigned int fit_width, unsigned int fit_height,
				 const struct fdif_image_limits *limits,
				 struct fdif_image *img, struct fdif_image_info *info);
/**
 * fdif_image_save_png() - write a 1- or 3-channel @img as a PNG file
 * Return: 0, -EINVAL for another number of channels, or the errno of the
 * open() or of the write that failed (-ENOSPC for a full disk; -EIO if
 * there is none).
 */
int fdif_image_save_png(const char *path, const struct fdif_image *img);
/** fdif_image_to_rgb() - a 3-channel copy of @src, for drawing */
int fdif_image_to_rgb(const struct fdif_image *src, struct fdif_image *dst);
/**
 * fdif_image_draw_box() - outline a face's rectangle in an RGB image: the
 * @width x @height box around @cx, @cy (struct fdif_face's x, y, width,
 * height), clipped to the image (LIBFDIF_IMAGE_1.1)
 */
void fdif_image_draw_box(struct fdif_image *img, double cx, double cy,
			 double width, double height, uint8_t r, uint8_t g, uint8_t b);
/**
 * fdif_image_draw_square() - fdif_image_draw_box() of a @size x @size
 * square; faces are rectangles, draw those
 */
void fdif_image_draw_square(struct fdif_image *img, double cx, double cy,
			    double size, uint8_t r, uint8_t g, uint8_t b);

#ifdef __cplusplus
}
#endif

#endif /* FDIF_IMAGE_H */
