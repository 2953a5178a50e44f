/* SPDX-License-Identifier: MIT */
/*
 * libfdif-image - pictures in and out for libfdif-drm
 *
 * Decoding PGM/PPM, PNG (libpng) and JPEG (libjpeg-turbo) pictures from a
 * file, a stream or memory, writing PNG and JPEG, grey and RGB copies,
 * drawing, into and from the struct fdif_image of <fdif/fdif.h>, and
 * freeing the pictures this library allocates (fdif_image_free()). A
 * separate library so that a program that only submits frames (a camera
 * app) links libfdif-drm alone, without the image format libraries;
 * pkg-config: libfdif-image (it requires libfdif-drm for <fdif/fdif.h>;
 * the library itself calls nothing of it: fdif_strerror() words its
 * errors).
 *
 * Every function that can fail returns 0 on success and a negative errno
 * on failure. The library never prints and never exits; every file it
 * opens is close-on-exec. Pictures are untrusted input: sizes are checked
 * against the limits below before anything is allocated for them. A
 * picture a call here returns is the caller's, freed with
 * fdif_image_free(); on an error there is none to free (@img->pixels
 * NULL).
 */
#ifndef FDIF_IMAGE_H
#define FDIF_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <fdif/fdif.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct fdif_image_limits - what a load may take
 * @size: sizeof(struct fdif_image_limits), set by the caller: the
 *	structure may grow at its end (a longer one, up to 4096 bytes, is
 *	taken if what this library does not know of it is zero, else -E2BIG;
 *	a shorter one is -EINVAL): libfdif-drm's size-prefixed style
 * @reserved: zero (-EINVAL otherwise), no hidden padding
 * @max_pixels: the most pixels (width x height, as the file stores the
 *	picture, before any reduction) a picture may have; 0: no limit but
 *	16384 a side
 * @max_bytes: the most memory the load holds at once: the decoded picture
 *	(reduced, as asked), the decoder's rows and sums, libjpeg's own
 *	(a progressive JPEG's coefficients, 2 bytes each: 3 bytes a pixel
 *	for 4:2:0); 0: no limit but libjpeg's 512 MiB
 *
 * Both are checked right after the header, before anything is allocated
 * for the size; over either, the load is -EFBIG. Every load takes a
 * pointer to one, or NULL for no limits but those.
 */
struct fdif_image_limits {
	uint32_t size;
	uint32_t reserved;	/* zero */
	uint64_t max_pixels;
	uint64_t max_bytes;
};

/**
 * struct fdif_image_info - what a picture was, before a load reduced it
 * @scale: its pixels per decoded pixel (1: full size; a JPEG reduced to
 *	M/8 of its size: 8/M); a point of the decoded picture times @scale is
 *	the point in the full-size picture
 * @width: the full picture's width, upright
 * @height: its height, upright
 * @orientation: the EXIF orientation it was stored in (1..8; 1 also when
 *	it has none), already applied: the decoded picture is upright
 * @reserved: zeroed; a later version fills fields in here, 0 meaning "not
 *	reported", so that the structure keeps its size
 *
 * Filled in by a grey load that succeeds.
 */
struct fdif_image_info {
	double scale;
	unsigned int width, height;
	unsigned int orientation;
	uint32_t reserved[7];
};

/**
 * fdif_image_load() - decode a PGM/PPM, PNG or JPEG file
 * @path: the file
 * @img: out, the picture: 1 channel (a grey file) or 3 (RGB)
 *
 * PGM/PPM: ASCII (P2, P3) or binary (P5, P6), any maxval (1..65535; two
 * bytes a sample, big-endian, above 255), scaled to 0..255.
 * JPEG: YCbCr, grey, CMYK and YCCK (Adobe, inverted CMYK as Photoshop
 * writes it) pictures, to RGB or grey; libjpeg's warnings about bytes it
 * skips are not errors, a file that ends early or a scan whose data is
 * missing is (-EBADMSG, as soon as libjpeg says so).
 * PNG: any colour type and depth (a palette's tRNS dropped with the
 * alpha), interlaced or not.
 * The EXIF orientation of a JPEG (APP1) or a PNG (its eXIf chunk, before
 * or after the image data), read by libexif, is applied: the picture is
 * upright. Every decoder hands its rows, as they are decoded, to where
 * they go in the upright picture: only a PNG whose eXIf follows its image
 * data is turned after, a copy. fdif_image_load_limited() bounds the
 * memory.
 *
 * Return: 0, the open()'s errno (-ENOENT, -EACCES...) or the first
 * read's (-EISDIR for a directory), -ENOTSUP for another format, -EBADMSG for a corrupt or truncated file (also an empty
 * one, a PNM header that is not one, a sample over its maxval), -EFBIG
 * for more than 16384 pixels a side (checked right after the header,
 * before anything is allocated for the size) or a JPEG that needs more
 * than 512 MiB of libjpeg's own memory (a progressive one of more than
 * about 170 Mpixel 4:2:0), -ENOMEM.
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
 * fdif_image_load_file() - decode a picture from a stdio stream, within
 * @limits
 * @f: the stream, read from its current position (a picture inside a
 *	larger file, stdin, a pipe: it need not be seekable); it stays the
 *	caller's, open, at an unspecified position at or after the
 *	picture's end (the decoders read ahead)
 * @limits: the limits, or NULL for fdif_image_load()'s
 * @img: out, the picture
 *
 * The same formats and errors as fdif_image_load(); -EFBIG also for a
 * picture over @limits, -EINVAL for a NULL @f.
 */
int fdif_image_load_file(FILE *f, const struct fdif_image_limits *limits,
			 struct fdif_image *img);
/**
 * fdif_image_load_limited() - fdif_image_load() within @limits
 * @path: the file, or NULL to decode the @size bytes at @data
 *	(fdif_image_load_mem())
 * @data: with @path NULL, the picture's bytes
 * @size: their number
 * @limits: the limits, or NULL for fdif_image_load()'s
 * @img: out, the picture
 *
 * Return: as fdif_image_load(); -EFBIG also for a picture over @limits.
 */
int fdif_image_load_limited(const char *path, const void *data, size_t size,
			    const struct fdif_image_limits *limits, struct fdif_image *img);

/**
 * fdif_image_load_gray() - decode a picture as fdif_image_load() does, to
 * one grey channel, no larger than fitting it into a frame needs
 * @path: the file
 * @fit_width: the frame it will be fitted into (fdif_image_fit_frame(),
 *	the device's: fdif_caps.frame_width), or 0 for the full size
 * @fit_height: its height (fdif_caps.frame_height), or 0
 * @img: out, the grey picture
 * @info: out, the size the picture was and the decoded one's scale, or NULL
 *
 * A JPEG is decoded straight to grey (its luma) and reduced by libjpeg
 * to the smallest M/8 of its size (M 1..8) that is still at least as
 * large as the picture fitted into @fit_width x @fit_height: a 4000x3000
 * photo for a 320x240 frame is decoded at 500x375, never at full size.
 * A PNG or PGM/PPM is read a row at a time, turned grey (BT.601 luma) and
 * reduced on the way by the largest whole factor s that still covers the
 * fitted picture (each decoded pixel the mean of an s x s block; @info's
 * scale s). The same limits and errors as fdif_image_load(); EXIF
 * orientation is applied.
 */
int fdif_image_load_gray(const char *path, unsigned int fit_width,
			 unsigned int fit_height, struct fdif_image *img,
			 struct fdif_image_info *info);
/** fdif_image_load_gray_mem() - fdif_image_load_gray() from memory */
int fdif_image_load_gray_mem(const void *data, size_t size,
			     unsigned int fit_width, unsigned int fit_height,
			     struct fdif_image *img, struct fdif_image_info *info);
/**
 * fdif_image_load_gray_file() - fdif_image_load_gray() from a stdio
 * stream (read as fdif_image_load_file() reads it) within @limits (NULL:
 * none but fdif_image_load()'s)
 */
int fdif_image_load_gray_file(FILE *f, unsigned int fit_width,
			      unsigned int fit_height,
			      const struct fdif_image_limits *limits,
			      struct fdif_image *img, struct fdif_image_info *info);
/**
 * fdif_image_load_gray_limited() - fdif_image_load_gray() (or, @path
 * NULL, fdif_image_load_gray_mem() of @size bytes at @data) within
 * @limits (NULL: none but fdif_image_load()'s)
 */
int fdif_image_load_gray_limited(const char *path, const void *data, size_t size,
				 unsigned int fit_width, unsigned int fit_height,
				 const struct fdif_image_limits *limits,
				 struct fdif_image *img, struct fdif_image_info *info);

/**
 * fdif_image_free() - free the pixels of a picture this library made (a
 * load, fdif_image_to_gray(), fdif_image_to_rgb()) and zero @img
 *
 * Not for a struct fdif_image the program filled in around a buffer of
 * its own. A zeroed @img (as a failed call leaves it) may be freed.
 */
void fdif_image_free(struct fdif_image *img);

/**
 * fdif_image_save_png() - write a 1- or 3-channel @img as a PNG file
 * @path: the file: created, or replaced whole
 * @img: the picture
 *
 * Atomic: the PNG is written to a new file in @path's directory (named
 * ".fdif-image-XXXXXX", close-on-exec), which is renamed to @path once
 * complete; on an error it is removed, and @path is as it was (a file
 * that was there keeps its contents). So the directory must be writable,
 * as for rename(), also to replace a file. A new file gets mode 0666
 * less the umask, as fopen() gives it; a regular file replaced keeps its
 * permission bits (not its owner, nor other hard links to it, which keep
 * the old contents). A symbolic link to a file is followed: the file it
 * points to is replaced. A @path that is there and not a regular file (a
 * FIFO, a device such as /dev/stdout) is written in place, as fopen()
 * would.
 *
 * Return: 0, -EINVAL for another number of channels, or the errno of the
 * call that failed: creating the file (-EACCES, -ENOENT...), a write
 * (-ENOSPC for a full disk, -EFBIG over RLIMIT_FSIZE; -EIO if there is
 * none) or rename().
 */
int fdif_image_save_png(const char *path, const struct fdif_image *img);
/**
 * fdif_image_save_jpeg() - write a 1- or 3-channel @img as a baseline
 * JFIF file of @quality (1..100, libjpeg's scale; 95 keeps drawn boxes
 * sharp), by libjpeg-turbo, in the same way as fdif_image_save_png():
 * never half-written, an error leaves @path as it was
 * Return: as fdif_image_save_png(); -EINVAL also for a @quality outside
 * 1..100 or a side over 65500 (JPEG's largest).
 */
int fdif_image_save_jpeg(const char *path, const struct fdif_image *img,
			 unsigned int quality);
/**
 * fdif_image_to_gray() - a new 1-channel picture, the BT.601 luma of @src
 * (1 or 3 channels; a grey one is copied)
 * @src: the picture
 * @dst: out, the grey copy, freed with fdif_image_free()
 *
 * Return: 0, -EINVAL for @src of another number of channels, -ENOMEM.
 */
int fdif_image_to_gray(const struct fdif_image *src, struct fdif_image *dst);
/**
 * fdif_image_to_rgb() - a new 3-channel copy of @src (1 or 3 channels),
 * for drawing
 * @src: the picture
 * @dst: out, the RGB copy, freed with fdif_image_free()
 *
 * Return: 0, -EINVAL for @src of another number of channels, -ENOMEM.
 */
int fdif_image_to_rgb(const struct fdif_image *src, struct fdif_image *dst);
/**
 * fdif_image_draw_box() - outline a face's rectangle in a 1- or 3-channel
 * image: the @width x @height box around @cx, @cy (struct fdif_face's x,
 * y, width, height), clipped to the image; a grey image takes @r
 */
void fdif_image_draw_box(struct fdif_image *img, double cx, double cy,
			 double width, double height, uint8_t r, uint8_t g, uint8_t b);

#ifdef __cplusplus
}
#endif

#endif /* FDIF_IMAGE_H */
