// SPDX-License-Identifier: MIT
/*
 * libfdif-image: decoding PGM/PPM, PNG (libpng) and JPEG (libjpeg-turbo),
 * writing PNG, grey and RGB copies, drawing, freeing its pictures. The
 * only part of the two libraries that links the image format libraries;
 * it calls nothing of libfdif-drm (fdif-private.h's helpers are inline).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>
#include <libexif/exif-data.h>
#include <png.h>

#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif-private.h"

void fdif_image_free(struct fdif_image *img)
{
	free(img->pixels);
	memset(img, 0, sizeof(*img));
}

/* What the caller asked of a load. */
struct load_req {
	int gray;				/* 1 channel */
	unsigned int fit_width, fit_height;	/* reduce (0: full size) */
	struct fdif_image_info *info;		/* out, or NULL */
	size_t max_pixels;	/* the picture as stored (0: only FDIF_MAX_SIDE) */
	size_t max_bytes;	/* held at once (0: only libjpeg's bound) */
};

/*
 * --- the decoded rows' way into the picture ------------------------------
 *
 * Every decoder hands its rows, as they are decoded, to a sink, which
 * turns them grey (if asked), reduces them (PNG and PNM: the mean of each
 * s x s block; libjpeg reduces a JPEG itself) and puts them where the
 * EXIF orientation says: the picture is never held whole at its full
 * size, nor twice for turning it upright.
 */
struct sink {
	struct fdif_image *img;	/* the result: upright, reduced */
	unsigned int w, h;	/* the picture as stored, at the decoder's scale */
	unsigned int in_ch;	/* channels of the rows given: 1 or 3 */
	unsigned int ch;	/* of the result: 1 or @in_ch */
	unsigned int o;		/* EXIF orientation */
	unsigned int s;		/* reduced s times (1: not) */
	unsigned int rw, rh;	/* the stored picture reduced */
	uint32_t *sum;		/* s > 1: each reduced pixel's sum, stored order */
	size_t bytes;		/* the result and the sums */
};

/* the largest reduction of a sum: 255 * s * s fits 32 bits */
#define SINK_MAX_REDUCE	1024

/*
 * Where the stored picture's pixel (x, @sy) of a @w x @h picture goes in
 * the upright one (rows @stride bytes apart, @c bytes a pixel) for EXIF
 * orientation @o: at byte *@origin + x * *@step.
 */
static void orient_row(unsigned int o, unsigned int w, unsigned int h, size_t stride,
		       unsigned int c, unsigned int sy, ptrdiff_t *origin, ptrdiff_t *step)
{
	ptrdiff_t S = (ptrdiff_t)stride, C = c, X = (ptrdiff_t)w - 1, Y = (ptrdiff_t)h - 1;
	ptrdiff_t y = sy;

	switch (o) {
	case 2: *origin = y * S + X * C; *step = -C; break;		/* mirrored */
	case 3: *origin = (Y - y) * S + X * C; *step = -C; break;	/* turned 180 */
	case 4: *origin = (Y - y) * S; *step = C; break;		/* flipped */
	case 5: *origin = y * C; *step = S; break;			/* transposed */
	case 6: *origin = (Y - y) * C; *step = S; break;		/* 90 clockwise */
	case 7: *origin = X * S + (Y - y) * C; *step = -S; break;	/* transverse */
	case 8: *origin = X * S + y * C; *step = -S; break;		/* 90 counter-clockwise */
	default: *origin = y * S; *step = C; break;
	}
}

/*
 * The reduction for a @w x @h picture (either way up when the orientation
 * is not known yet, @o 0) to still cover what fitting it into @fit_w x
 * @fit_h keeps; 1: none.
 */
static unsigned int reduce_for(unsigned int w, unsigned int h, unsigned int o,
			       unsigned int fit_w, unsigned int fit_h)
{
	unsigned int s, t;

	if (!fit_w || !fit_h)
		return 1;
	if (o >= 5) {
		t = w;
		w = h;
		h = t;
	}
	s = w / fit_w > h / fit_h ? w / fit_w : h / fit_h;
	if (!o) {	/* perhaps turned: the smaller of both */
		t = h / fit_w > w / fit_h ? h / fit_w : w / fit_h;
		s = t < s ? t : s;
	}
	if (s > SINK_MAX_REDUCE)
		s = SINK_MAX_REDUCE;
	return s ? s : 1;
}

/*
 * The limits, before anything is allocated for the picture: its stored
 * size (@full_w x @full_h), and what the result, the sums and @extra
 * bytes of the decoder's own (rows) hold at once. sink_alloc() then
 * allocates them.
 */
static int sink_init(struct sink *k, struct fdif_image *img, unsigned int w,
		     unsigned int h, unsigned int in_ch, unsigned int o,
		     unsigned int s, unsigned int full_w, unsigned int full_h,
		     size_t extra, const struct load_req *req)
{
	size_t bytes;

	memset(k, 0, sizeof(*k));
	if (!w || !h)
		return -EBADMSG;
	if (full_w > FDIF_MAX_SIDE || full_h > FDIF_MAX_SIDE ||
	    (req->max_pixels && (size_t)full_w * full_h > req->max_pixels))
		return -EFBIG;
	k->img = img;
	k->w = w;
	k->h = h;
	k->in_ch = in_ch;
	k->ch = req->gray ? 1 : in_ch;
	k->o = o;
	k->s = s;
	k->rw = (w + s - 1) / s;
	k->rh = (h + s - 1) / s;
	bytes = (size_t)k->rw * k->rh * k->ch;
	if (s > 1)
		bytes += (size_t)k->rw * k->rh * k->ch * sizeof(*k->sum);
	if (req->max_bytes && (bytes > req->max_bytes || extra > req->max_bytes - bytes))
		return -EFBIG;
	k->bytes = bytes;
	return 0;
}

/*
 * What sink_init() planned, allocated: by the decoders once the first
 * row is decoded, so that a file with no rows costs nothing.
 */
static int sink_alloc(struct sink *k)
{
	struct fdif_image *img = k->img;
	int ret;

	ret = k->o >= 5 ? fdif_image_alloc(img, k->rh, k->rw, k->ch) :
			  fdif_image_alloc(img, k->rw, k->rh, k->ch);
	if (ret)
		return ret;
	if (k->s > 1) {
		k->sum = calloc((size_t)k->rw * k->rh * k->ch, sizeof(*k->sum));
		if (!k->sum) {
			fdif_image_free(img);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * @n pixels (@in_ch bytes each) of stored row @sy, at columns @x0,
 * @x0 + @dx, ... (an interlaced PNG's pass gives every @dx-th).
 */
static void sink_put(struct sink *k, unsigned int sy, unsigned int x0, unsigned int dx,
		     const uint8_t *row, unsigned int n)
{
	unsigned int i, c, x;
	const uint8_t *p = row;

	if (k->s == 1) {
		struct fdif_image *img = k->img;
		ptrdiff_t origin, step;

		orient_row(k->o, k->w, k->h, img->stride, k->ch, sy, &origin, &step);
		for (i = 0, x = x0; i < n; i++, x += dx, p += k->in_ch) {
			uint8_t *d = img->pixels + origin + (ptrdiff_t)x * step;

			if (k->ch == k->in_ch)
				memcpy(d, p, k->ch);
			else
				d[0] = fdif_luma(p);
		}
		return;
	}
	for (i = 0, x = x0; i < n; i++, x += dx, p += k->in_ch) {
		uint32_t *d = k->sum + ((size_t)(sy / k->s) * k->rw + x / k->s) * k->ch;

		if (k->ch == k->in_ch)
			for (c = 0; c < k->ch; c++)
				d[c] += p[c];
		else
			d[0] += fdif_luma(p);
	}
}

/* The sums made means, put upright; @o: the orientation, now known. */
static void sink_finish(struct sink *k, unsigned int o)
{
	struct fdif_image *img = k->img;
	unsigned int rx, ry, c;

	if (k->s == 1)
		return;
	for (ry = 0; ry < k->rh; ry++) {
		unsigned int bh = k->h - ry * k->s < k->s ? k->h - ry * k->s : k->s;
		ptrdiff_t origin, step;

		orient_row(o, k->rw, k->rh, img->stride, k->ch, ry, &origin, &step);
		for (rx = 0; rx < k->rw; rx++) {
			unsigned int bw = k->w - rx * k->s < k->s ? k->w - rx * k->s : k->s;
			uint32_t n = bw * bh;
			const uint32_t *sum = k->sum + ((size_t)ry * k->rw + rx) * k->ch;
			uint8_t *d = img->pixels + origin + (ptrdiff_t)rx * step;

			for (c = 0; c < k->ch; c++)
				d[c] = (uint8_t)((sum[c] + n / 2) / n);
		}
	}
	free(k->sum);
	k->sum = NULL;
}

/* A load that failed: nothing kept. */
static void sink_drop(struct sink *k)
{
	free(k->sum);
	k->sum = NULL;
	if (k->img)
		fdif_image_free(k->img);
}

/* The size the picture was, and how far it was reduced. */
static void sink_info(const struct load_req *req, double scale,
		      unsigned int full_w, unsigned int full_h, unsigned int o)
{
	if (!req->info)
		return;
	req->info->scale = scale;
	req->info->width = o >= 5 ? full_h : full_w;
	req->info->height = o >= 5 ? full_w : full_h;
	req->info->orientation = o;
}

/* --- PGM / PPM -------------------------------------------------------- */

#define PNM_MAXVAL	65535	/* 16-bit samples, the format's largest */

/*
 * A decimal number after whitespace and comments; it must end in
 * whitespace (@eof_ok: or the end of the file, for an ASCII picture's last
 * sample).
 */
static int pnm_int(FILE *f, unsigned int *out, int eof_ok)
{
	unsigned long v = 0;
	int c, digits = 0;

	do {
		c = fgetc(f);
		if (c == '#')
			while (c != '\n' && c != EOF)
				c = fgetc(f);
	} while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
	while (c >= '0' && c <= '9' && digits < 9) {
		v = v * 10 + (unsigned long)(c - '0');
		digits++;
		c = fgetc(f);
	}
	if (!digits || (c != ' ' && c != '\t' && c != '\r' && c != '\n' &&
			(c != EOF || !eof_ok)))
		return -EBADMSG;
	*out = (unsigned int)v;
	return 0;
}

/*
 * P2/P3 (ASCII) and P5/P6 (binary) grey and RGB; samples of any maxval
 * (1..65535, two bytes big-endian above 255) scaled to 0..255; read a row
 * at a time into the sink.
 */
static int load_pnm(FILE *f, struct sink *k, struct fdif_image *img,
		    const struct load_req *req)
{
	unsigned int w, h, maxval, channels, v, bytes, y, s;
	int kind, ascii, ret;
	uint8_t *row = NULL;
	size_t n, i;

	fgetc(f);	/* 'P', checked by the caller */
	kind = fgetc(f);
	ascii = kind == '2' || kind == '3';
	channels = kind == '3' || kind == '6' ? 3 : 1;
	ret = pnm_int(f, &w, 0);
	if (!ret)
		ret = pnm_int(f, &h, 0);
	if (!ret)
		ret = pnm_int(f, &maxval, 0);
	if (ret)
		return ret;
	if (!maxval || maxval > PNM_MAXVAL)
		return -EBADMSG;
	s = reduce_for(w, h, 1, req->fit_width, req->fit_height);
	n = (size_t)w * channels;
	ret = sink_init(k, img, w, h, channels, 1, s, w, h, n, req);
	if (ret)
		return ret;
	row = malloc(n);
	if (!row) {
		sink_drop(k);
		return -ENOMEM;
	}
	bytes = maxval > 255 ? 2 : 1;
	for (y = 0; y < h; y++) {
		if (!ascii && bytes == 1 && maxval == 255) {
			if (fread(row, 1, n, f) != n)
				goto bad;
		} else {
			for (i = 0; i < n; i++) {
				if (ascii) {
					if (pnm_int(f, &v, 1))
						goto bad;
				} else {
					int hi = bytes == 2 ? fgetc(f) : 0, lo = fgetc(f);

					if (hi == EOF || lo == EOF)
						goto bad;
					v = (unsigned int)hi << 8 | (unsigned int)lo;
				}
				if (v > maxval)
					goto bad;
				row[i] = (uint8_t)((v * 255u + maxval / 2) / maxval);
			}
		}
		if (!y && (ret = sink_alloc(k))) {
			free(row);
			return ret;
		}
		sink_put(k, y, 0, 1, row, w);
	}
	free(row);
	sink_finish(k, 1);
	sink_info(req, s, w, h, 1);
	return 0;
bad:
	free(row);
	sink_drop(k);
	return -EBADMSG;
}

/* --- EXIF orientation (JPEG APP1, PNG eXIf) ----------------------- */

/*
 * The EXIF orientation (1..8; 1 without one or with a bad one) of @len
 * bytes of EXIF data starting with the "Exif\0\0" header (a JPEG's APP1
 * payload), by libexif, without its fixups (which add default tags).
 */
static unsigned int exif_orientation(const unsigned char *data, size_t len)
{
	ExifData *ed;
	ExifEntry *e;
	unsigned int o = 1;

	if (len < 6 || len > UINT_MAX || memcmp(data, "Exif\0\0", 6))
		return 1;
	ed = exif_data_new();
	if (!ed)
		return 1;
	exif_data_unset_option(ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
	exif_data_load_data(ed, data, (unsigned int)len);
	e = exif_content_get_entry(ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
	if (e && e->format == EXIF_FORMAT_SHORT && e->components >= 1 &&
	    e->size >= 2)
		o = exif_get_short(e->data, exif_data_get_byte_order(ed));
	exif_data_unref(ed);
	return o >= 1 && o <= 8 ? o : 1;
}

/*
 * The EXIF orientation of the first APP1 "Exif" marker libjpeg saved
 * (jpeg_save_markers(), at most 64 KiB).
 */
static unsigned int jpeg_orientation(j_decompress_ptr cinfo)
{
	jpeg_saved_marker_ptr m;

	for (m = cinfo->marker_list; m; m = m->next)
		if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 &&
		    !memcmp(m->data, "Exif\0\0", 6))
			return exif_orientation(m->data, m->data_length);
	return 1;
}

/*
 * @img turned upright for EXIF orientation @o: 2 mirrored, 3 turned 180,
 * 4 flipped, 5 transposed, 6 turned 90 clockwise, 7 transverse, 8 turned
 * 90 counter-clockwise (what a viewer does to show the stored picture).
 */
static int image_orient(struct fdif_image *img, unsigned int o)
{
	unsigned int w = img->width, h = img->height, c = img->channels;
	unsigned int x, y, sx, sy, k;
	struct fdif_image out;
	int ret;

	if (o <= 1 || o > 8)
		return 0;
	ret = o >= 5 ? fdif_image_alloc(&out, h, w, c) : fdif_image_alloc(&out, w, h, c);
	if (ret)
		return ret;
	for (y = 0; y < out.height; y++) {
		for (x = 0; x < out.width; x++) {
			switch (o) {
			case 2: sx = w - 1 - x; sy = y; break;
			case 3: sx = w - 1 - x; sy = h - 1 - y; break;
			case 4: sx = x; sy = h - 1 - y; break;
			case 5: sx = y; sy = x; break;
			case 6: sx = y; sy = h - 1 - x; break;
			case 7: sx = w - 1 - y; sy = h - 1 - x; break;
			default: sx = w - 1 - y; sy = x; break;	/* 8 */
			}
			for (k = 0; k < c; k++)
				out.pixels[(size_t)y * out.stride + (size_t)x * c + k] =
					img->pixels[(size_t)sy * img->stride + (size_t)sx * c + k];
		}
	}
	fdif_image_free(img);
	*img = out;
	return 0;
}

/* --- PNG -------------------------------------------------------------- */

static void png_error_fn(png_structp png, png_const_charp msg)
{
	(void)msg;
	png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/*
 * The EXIF orientation of a PNG's eXIf chunk (PNG 1.5 extensions: the TIFF
 * data alone, without JPEG's "Exif\0\0" header, which libexif wants), or
 * 1. libpng keeps one eXIf, read before or after the image data.
 */
static unsigned int png_orientation(png_structp png, png_infop info)
{
#ifdef PNG_eXIf_SUPPORTED
	png_bytep exif = NULL;
	png_uint_32 len = 0;
	unsigned char *buf;
	unsigned int o;

	if (!png_get_eXIf_1(png, info, &len, &exif) || !exif || len < 8 ||
	    len > (64u << 10))
		return 1;
	buf = malloc(6 + (size_t)len);
	if (!buf)
		return 1;
	memcpy(buf, "Exif\0\0", 6);
	memcpy(buf + 6, exif, len);
	o = exif_orientation(buf, 6 + (size_t)len);
	free(buf);
	return o;
#else
	(void)png;
	(void)info;
	return 1;
#endif
}

/*
 * A PNG, a row at a time (png_read_row() into one row's buffer, handed to
 * the sink; an interlaced one pass by pass, each pixel where it belongs):
 * the picture is never held at its full size unless that is what was
 * asked.
 */
static int load_png(FILE *f, struct sink *k, struct fdif_image *img,
		    const struct load_req *req)
{
	png_structp png;
	png_infop info;
	uint8_t *volatile row = NULL;
	volatile int ret = -EBADMSG;
	png_uint_32 w, h, y;
	int depth, type, interlace, channels, pass, passes;
	unsigned int o, o_end, s;

	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_fn,
				     png_warning_fn);
	if (!png)
		return -ENOMEM;
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		free(row);
		sink_drop(k);
		png_destroy_read_struct(&png, &info, NULL);
		return ret;
	}
	png_init_io(png, f);
	/*
	 * libpng's own limits (PNG's largest, 2^31 - 1) refuse only what no
	 * PNG can be; ours are checked right after the header, before any
	 * row is read, to say -EFBIG and not "corrupt".
	 */
	png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
	png_read_info(png, info);
	png_get_IHDR(png, info, &w, &h, &depth, &type, &interlace, NULL, NULL);
	if (w > FDIF_MAX_SIDE || h > FDIF_MAX_SIDE) {
		ret = -EFBIG;
		png_longjmp(png, 1);
	}
	/*
	 * everything to 8-bit grey or RGB, alpha dropped (also the alpha a
	 * palette's or a colour's tRNS chunk expands to)
	 */
	if (depth == 16)
		png_set_strip_16(png);
	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	png_set_strip_alpha(png);
	png_read_update_info(png, info);
	channels = png_get_channels(png, info);
	if (channels != 1 && channels != 3)
		png_longjmp(png, 1);
	/* an eXIf before the image data; one after it is seen at the end */
	o = png_orientation(png, info);
	s = reduce_for(w, h, o == 1 ? 0 : o, req->fit_width, req->fit_height);
	ret = sink_init(k, img, w, h, (unsigned int)channels, o, s, w, h,
			png_get_rowbytes(png, info), req);
	if (ret)
		png_longjmp(png, 1);
	ret = -ENOMEM;
	row = malloc(png_get_rowbytes(png, info));
	if (!row)
		png_longjmp(png, 1);
	ret = -EBADMSG;
	/*
	 * Interlaced: without png_set_interlace_handling() libpng gives each
	 * pass's rows as they are stored, its pixels only (passes without
	 * any skipped).
	 */
	passes = interlace == PNG_INTERLACE_NONE ? 1 : PNG_INTERLACE_ADAM7_PASSES;
	for (pass = 0; pass < passes; pass++) {
		png_uint_32 rows = passes == 1 ? h : PNG_PASS_ROWS(h, pass);
		png_uint_32 cols = passes == 1 ? w : PNG_PASS_COLS(w, pass);

		if (!rows || !cols)
			continue;
		for (y = 0; y < rows; y++) {
			png_read_row(png, row, NULL);
			/* the picture once a row is there, not for a file that has none */
			if (!img->pixels) {
				ret = sink_alloc(k);
				if (ret)
					png_longjmp(png, 1);
				ret = -EBADMSG;
			}
			if (passes == 1)
				sink_put(k, y, 0, 1, row, cols);
			else
				sink_put(k, PNG_ROW_FROM_PASS_ROW(y, pass),
					 PNG_COL_FROM_PASS_COL(0, pass),
					 1u << PNG_PASS_COL_SHIFT(pass), row, cols);
		}
	}
	png_read_end(png, info);	/* an eXIf after the image data too */
	free(row);
	row = NULL;
	o_end = o != 1 ? o : png_orientation(png, info);
	png_destroy_read_struct(&png, &info, NULL);
	sink_finish(k, o_end);
	ret = 0;
	if (o == 1 && o_end != 1 && s == 1) {
		/* placed as stored: turned now, the picture twice for a moment */
		if (req->max_bytes && (size_t)img->stride * img->height > req->max_bytes / 2)
			ret = -EFBIG;
		else
			ret = image_orient(img, o_end);
	}
	if (ret) {
		fdif_image_free(img);
		return ret;
	}
	sink_info(req, s, w, h, o_end);
	return 0;
}

/*
 * @img as a PNG into @f, which is closed: 0 or the errno of the write
 * that failed (libpng only says "Write Error"; -EIO if there is none).
 */
static int write_png(FILE *f, const struct fdif_image *img)
{
	png_structp png;
	png_infop info;
	unsigned int y;

	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_fn,
				      png_warning_fn);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		fclose(f);
		return -ENOMEM;
	}
	errno = 0;
	if (setjmp(png_jmpbuf(png))) {
		int err = errno ? errno : EIO;

		png_destroy_write_struct(&png, &info);
		fclose(f);
		return -err;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, img->width, img->height, 8,
		     img->channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < img->height; y++)
		png_write_row(png, img->pixels + (size_t)y * img->stride);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	/* a small picture's only write() is fclose()'s flush */
	errno = 0;
	return fclose(f) ? (errno ? -errno : -EIO) : 0;
}

#define SAVE_TMP_NAME	".fdif-image-XXXXXX"
#define SAVE_TMP_TRIES	100

/*
 * A new file next to @dest (in its directory), created as fopen() creates
 * one (mode 0666 less the umask, and the directory's default ACL), but
 * exclusively, with a name of its own: *@tmp (malloc()ed), open for
 * writing in *@fd (close-on-exec).
 */
static int save_tmp_create(const char *dest, char **tmp, int *fd)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const char *slash = strrchr(dest, '/');
	size_t dir = slash ? (size_t)(slash - dest) + 1 : 0;
	size_t len = dir + sizeof(SAVE_TMP_NAME);
	unsigned int try, i;
	char *name, *x;
	int err;

	name = malloc(len);
	if (!name)
		return -ENOMEM;
	memcpy(name, dest, dir);
	memcpy(name + dir, SAVE_TMP_NAME, sizeof(SAVE_TMP_NAME));
	x = name + len - 7;	/* the XXXXXX */
	for (try = 0; try < SAVE_TMP_TRIES; try++) {
		uint64_t v;

		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v)) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			v = ((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^
			     (uint64_t)getpid() << 40 ^ try) * 0x9e3779b97f4a7c15ull;
		}
		for (i = 0; i < 6; i++, v /= sizeof(chars) - 1)
			x[i] = chars[v % (sizeof(chars) - 1)];
		*fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (*fd >= 0) {
			*tmp = name;
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	err = errno;
	free(name);
	return -err;
}

/* libjpeg's errors back to write_jpeg(), with the errno of a failed write */
struct jpeg_write_err {
	struct jpeg_error_mgr mgr;
	jmp_buf jmp;
	int err;
};

static void jpeg_write_exit(j_common_ptr cinfo)
{
	struct jpeg_write_err *e = (struct jpeg_write_err *)cinfo->err;

	e->err = errno ? errno : EIO;
	longjmp(e->jmp, 1);
}

/* @img as a baseline JPEG of @quality into @f, which is closed: as write_png() */
static int write_jpeg(FILE *f, const struct fdif_image *img, int quality)
{
	struct jpeg_compress_struct c;
	struct jpeg_write_err err = { .err = 0 };
	unsigned int y;

	c.err = jpeg_std_error(&err.mgr);
	err.mgr.error_exit = jpeg_write_exit;
	jpeg_create_compress(&c);
	errno = 0;
	if (setjmp(err.jmp)) {
		jpeg_destroy_compress(&c);
		fclose(f);
		return -err.err;
	}
	jpeg_stdio_dest(&c, f);
	c.image_width = img->width;
	c.image_height = img->height;
	c.input_components = (int)img->channels;
	c.in_color_space = img->channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	jpeg_start_compress(&c, TRUE);
	for (y = 0; y < img->height; y++) {
		JSAMPROW row = img->pixels + (size_t)y * img->stride;

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	errno = 0;
	return fclose(f) ? (errno ? -errno : -EIO) : 0;
}

/*
 * @img written by write_png() or, @quality 1..100, write_jpeg() to a file
 * of its own in the same directory, renamed over @path once complete:
 * @path is never half-written, and an error leaves it as it was. What is
 * there and no regular file (a FIFO, /dev/stdout) is written in place,
 * as fopen() would.
 */
static int save_atomic(const char *path, const struct fdif_image *img, int quality)
{
	struct stat st, lst;
	char *real = NULL, *tmp = NULL;
	const char *dest = path;
	int fd, ret, replace = 0;
	FILE *f;

	if (!stat(path, &st)) {
		if (!S_ISREG(st.st_mode)) {
			f = fopen(path, "wbe");	/* e: close-on-exec */
			if (!f)
				return -errno;
			return quality ? write_jpeg(f, img, quality) : write_png(f, img);
		}
		replace = 1;
		/* a symbolic link to a file: that file is replaced, not the link */
		if (!lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
			real = realpath(path, NULL);
			if (!real)
				return -errno;
			dest = real;
		}
	}
	ret = save_tmp_create(dest, &tmp, &fd);
	if (ret) {
		free(real);
		return ret;
	}
	/* a file replaced keeps its permissions, where the file system has them */
	if (replace)
		(void)!fchmod(fd, st.st_mode & 07777);
	f = fdopen(fd, "wb");
	if (f) {
		ret = quality ? write_jpeg(f, img, quality) : write_png(f, img);
	} else {
		ret = -errno;
		close(fd);
	}
	if (!ret && rename(tmp, dest))
		ret = -errno;
	if (ret)
		unlink(tmp);
	free(tmp);
	free(real);
	return ret;
}

int fdif_image_save_png(const char *path, const struct fdif_image *img)
{
	if (img->channels != 1 && img->channels != 3)
		return -EINVAL;
	return save_atomic(path, img, 0);
}

int fdif_image_save_jpeg(const char *path, const struct fdif_image *img,
			 unsigned int quality)
{
	if ((img->channels != 1 && img->channels != 3) || !quality || quality > 100 ||
	    !img->width || !img->height || img->width > JPEG_MAX_DIMENSION ||
	    img->height > JPEG_MAX_DIMENSION)
		return -EINVAL;
	return save_atomic(path, img, (int)quality);
}

/* --- JPEG ------------------------------------------------------------- */

struct jpeg_err {
	struct jpeg_error_mgr mgr;
	jmp_buf jmp;
};

static void jpeg_error_exit(j_common_ptr cinfo)
{
	longjmp(((struct jpeg_err *)cinfo->err)->jmp, 1);
}

/* libjpeg's error: over max_memory_to_use is too large, not corrupt. */
static int jpeg_errno(const struct jpeg_err *err)
{
	switch (err->mgr.msg_code) {
	case JERR_NO_BACKING_STORE:	/* its arrays exceed max_memory_to_use */
		return -EFBIG;
	case JERR_OUT_OF_MEMORY:
		return -ENOMEM;
	default:
		return -EBADMSG;
	}
}

/*
 * libjpeg's warnings print nothing and most are not fatal (corrupt bytes
 * libjpeg skips, as "extraneous bytes before marker": other decoders show
 * those pictures too); but libjpeg pads data that is missing, a file that
 * ends early ("Premature end of JPEG file") or a scan cut short by the
 * next marker ("premature end of data segment": a scan with no data
 * before EOI), with grey, and that picture is corrupt: refused at once,
 * before another row is decoded.
 */
static void jpeg_quiet(j_common_ptr cinfo, int level)
{
	if (level < 0) {
		cinfo->err->num_warnings++;
		if (cinfo->err->msg_code == JWRN_JPEG_EOF ||
		    cinfo->err->msg_code == JWRN_HIT_MARKER)
			longjmp(((struct jpeg_err *)cinfo->err)->jmp, 1);
	}
}

/*
 * The largest libjpeg reduction (M/8, M in 1..8) at which a @w x @h
 * picture still covers what fitting it into @fit_w x @fit_h keeps: the
 * fitted picture is never enlarged from the reduced one. 0: full size.
 */
static unsigned int jpeg_scale_num(unsigned int w, unsigned int h,
				   unsigned int fit_w, unsigned int fit_h)
{
	unsigned int m;

	if (!fit_w || !fit_h)
		return 8;
	/* M/8 >= 1/s, s = max(w / fit_w, h / fit_h): 8 * fit <= M * side */
	for (m = 1; m < 8; m++)
		if ((uint64_t)8 * fit_w <= (uint64_t)m * w ||
		    (uint64_t)8 * fit_h <= (uint64_t)m * h)
			break;
	return m;
}

/* One row of Adobe (inverted) or plain CMYK to RGB, as OpenCV reads them. */
static void cmyk_to_rgb(const uint8_t *s, uint8_t *d, unsigned int n, int inverted)
{
	unsigned int i, k;

	for (i = 0; i < n; i++, s += 4, d += 3) {
		for (k = 0; k < 3; k++) {
			unsigned int ink = inverted ? s[k] : 255u - s[k];
			unsigned int key = inverted ? s[3] : 255u - s[3];

			d[k] = (uint8_t)((ink * key + 127) / 255);
		}
	}
}

/*
 * A JPEG, scanline by scanline at libjpeg's reduction, each row into the
 * sink (CMYK made RGB on the way). What it holds at once is bounded
 * before libjpeg allocates anything for the size: the result and the
 * rows, and libjpeg's own arrays (max_memory_to_use: what is left).
 */
static int load_jpeg(FILE *f, struct sink *k, struct fdif_image *img,
		     const struct load_req *req)
{
	struct jpeg_decompress_struct cinfo;
	struct jpeg_err err;
	uint8_t *volatile row = NULL;
	volatile int ret = -EBADMSG;
	unsigned int o, m, uw, uh, y, cmyk, channels;
	size_t rows;

	memset(&err, 0, sizeof(err));
	cinfo.err = jpeg_std_error(&err.mgr);
	err.mgr.error_exit = jpeg_error_exit;
	err.mgr.emit_message = jpeg_quiet;
	if (setjmp(err.jmp)) {
		if (ret == -EBADMSG && err.mgr.msg_code)
			ret = jpeg_errno(&err);
		jpeg_destroy_decompress(&cinfo);
		free(row);
		sink_drop(k);
		return ret;
	}
	jpeg_create_decompress(&cinfo);
	jpeg_stdio_src(&cinfo, f);
	jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xffff);	/* EXIF */
	jpeg_read_header(&cinfo, TRUE);
	if (!cinfo.image_width || !cinfo.image_height)
		longjmp(err.jmp, 1);
	if (cinfo.image_width > FDIF_MAX_SIDE || cinfo.image_height > FDIF_MAX_SIDE) {
		ret = -EFBIG;
		longjmp(err.jmp, 1);
	}
	o = jpeg_orientation(&cinfo);
	uw = o >= 5 ? cinfo.image_height : cinfo.image_width;	/* upright */
	uh = o >= 5 ? cinfo.image_width : cinfo.image_height;
	m = jpeg_scale_num(uw, uh, req->fit_width, req->fit_height);
	cinfo.scale_num = m;
	cinfo.scale_denom = 8;
	/*
	 * Grey straight from the luma where the caller wants grey; CMYK and
	 * YCCK (Adobe) as CMYK, turned into RGB (and grey) here: libjpeg
	 * has no CMYK to RGB.
	 */
	cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
	if (cmyk)
		cinfo.out_color_space = JCS_CMYK;
	else if (cinfo.num_components == 1 || req->gray)
		cinfo.out_color_space = JCS_GRAYSCALE;
	else
		cinfo.out_color_space = JCS_RGB;
	jpeg_calc_output_dimensions(&cinfo);
	channels = cmyk ? 3 : (unsigned int)cinfo.output_components;
	rows = (size_t)cinfo.output_width * (cmyk ? 7 : channels);	/* CMYK, then RGB */
	ret = sink_init(k, img, cinfo.output_width, cinfo.output_height, channels, o, 1,
			cinfo.image_width, cinfo.image_height, rows, req);
	if (ret)
		longjmp(err.jmp, 1);
	ret = -EBADMSG;
	/*
	 * Before jpeg_start_decompress(), which allocates (a progressive
	 * picture's coefficients for its whole size) and reads every scan:
	 * libjpeg may have what the limit leaves.
	 */
	cinfo.mem->max_memory_to_use = FDIF_JPEG_MAX_MEMORY;
	if (req->max_bytes && req->max_bytes - k->bytes - rows < FDIF_JPEG_MAX_MEMORY)
		cinfo.mem->max_memory_to_use = (long)(req->max_bytes - k->bytes - rows);
	jpeg_start_decompress(&cinfo);
	ret = -ENOMEM;
	row = malloc(rows);
	if (!row)
		longjmp(err.jmp, 1);
	ret = -EBADMSG;
	while (cinfo.output_scanline < cinfo.output_height) {
		JSAMPROW r = row;

		y = cinfo.output_scanline;
		jpeg_read_scanlines(&cinfo, &r, 1);
		/* the picture once a row is there, not for a file that has none */
		if (!img->pixels) {
			ret = sink_alloc(k);
			if (ret)
				longjmp(err.jmp, 1);
			ret = -EBADMSG;
		}
		if (cmyk) {
			cmyk_to_rgb(row, row + (size_t)cinfo.output_width * 4,
				    cinfo.output_width, cinfo.saw_Adobe_marker);
			r = row + (size_t)cinfo.output_width * 4;
		}
		sink_put(k, y, 0, 1, r, cinfo.output_width);
	}
	jpeg_finish_decompress(&cinfo);
	sink_info(req, 8.0 / m, cinfo.image_width, cinfo.image_height, o);
	jpeg_destroy_decompress(&cinfo);
	free(row);
	row = NULL;
	return 0;
}

/* The format by its magic (@n bytes at @magic, which @f reads again). */
static int load_format(FILE *f, const unsigned char *magic, size_t n,
		       struct fdif_image *img, const struct load_req *req)
{
	struct sink k = { 0 };

	if (n >= 2 && magic[0] == 'P' && magic[1] >= '2' && magic[1] <= '6' &&
	    magic[1] != '4')
		return load_pnm(f, &k, img, req);
	if (n == 8 && !png_sig_cmp(magic, 0, 8))
		return load_png(f, &k, img, req);
	if (n >= 3 && magic[0] == 0xff && magic[1] == 0xd8 && magic[2] == 0xff)
		return load_jpeg(f, &k, img, req);
	return n ? -ENOTSUP : -EBADMSG;
}

/*
 * A stream that cannot seek back over the magic (a pipe): the bytes
 * read for it, then the rest of @f.
 */
struct replay {
	FILE *f;
	const unsigned char *head;
	size_t n, pos;
};

static ssize_t replay_read(void *cookie, char *buf, size_t size)
{
	struct replay *r = cookie;
	size_t k;

	if (r->pos < r->n) {
		k = r->n - r->pos < size ? r->n - r->pos : size;
		memcpy(buf, r->head + r->pos, k);
		r->pos += k;
		return (ssize_t)k;
	}
	k = fread(buf, 1, size, r->f);
	return !k && ferror(r->f) ? -1 : (ssize_t)k;
}

/*
 * A picture from a stream (a file, fmemopen()ed memory, the caller's)
 * from its current position, by its magic, as the request asks: grey or
 * not, reduced or not, within its limits. A stream that seeks is put
 * back where it was after the magic is read; another is read through a
 * stream that gives the magic again.
 */
static int load_stream(FILE *f, struct fdif_image *img, const struct load_req *req)
{
	static const cookie_io_functions_t io = { .read = replay_read };
	unsigned char magic[8] = { 0 };
	struct replay r = { f, magic, 0, 0 };
	off_t start;
	FILE *s;
	int ret;

	if (req->info) {
		memset(req->info, 0, sizeof(*req->info));
		req->info->scale = 1;
		req->info->orientation = 1;
	}
	start = ftello(f);
	r.n = fread(magic, 1, sizeof(magic), f);
	/* a stream that cannot be read (a directory, write-only) says why */
	if (r.n < sizeof(magic) && ferror(f))
		return errno ? -errno : -EIO;
	if (start >= 0 && !fseeko(f, start, SEEK_SET))
		return load_format(f, magic, r.n, img, req);
	clearerr(f);
	s = fopencookie(&r, "r", io);
	if (!s)
		return errno ? -errno : -ENOMEM;
	ret = load_format(s, magic, r.n, img, req);
	fclose(s);
	return ret;
}

static int load_file(const char *path, struct fdif_image *img,
		     const struct load_req *req)
{
	FILE *f;
	int ret;

	memset(img, 0, sizeof(*img));
	f = fopen(path, "rbe");	/* e: close-on-exec */
	if (!f)
		return -errno;
	ret = load_stream(f, img, req);
	fclose(f);
	return ret;
}

/*
 * The same decoders, the same limits, on bytes in memory: glibc's
 * fmemopen() gives them a stream that reads @data (never written).
 */
static int load_mem(const void *data, size_t size, struct fdif_image *img,
		    const struct load_req *req)
{
	FILE *f;
	int ret;

	memset(img, 0, sizeof(*img));
	if (!size)
		return -EBADMSG;	/* as an empty file */
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return -errno;
	ret = load_stream(f, img, req);
	fclose(f);
	return ret;
}

/*
 * A caller's limits (NULL: the defaults) into @req. Size-prefixed: a
 * longer structure than this library knows is taken if its unknown tail
 * is zero (-E2BIG if not), a shorter one than the first is -EINVAL.
 */
static int take_limits(struct load_req *req, const struct fdif_image_limits *limits)
{
	const unsigned char *tail;
	size_t i;

	if (!limits)
		return 0;
	/* as libfdif-drm's size-prefixed structures, at most 4096 bytes */
	if (limits->size < sizeof(*limits) || limits->size > 4096 || limits->reserved)
		return -EINVAL;
	tail = (const unsigned char *)limits;
	for (i = sizeof(*limits); i < limits->size; i++)
		if (tail[i])
			return -E2BIG;
	req->max_pixels = limits->max_pixels > SIZE_MAX ? SIZE_MAX : (size_t)limits->max_pixels;
	req->max_bytes = limits->max_bytes > SIZE_MAX ? SIZE_MAX : (size_t)limits->max_bytes;
	return 0;
}

/* @path, or with NULL the @size bytes at @data */
static int load_req_run(const char *path, const void *data, size_t size,
			const struct fdif_image_limits *limits, struct fdif_image *img,
			struct load_req *req)
{
	int ret;

	memset(img, 0, sizeof(*img));
	ret = take_limits(req, limits);
	if (ret)
		return ret;
	return path ? load_file(path, img, req) : load_mem(data, size, img, req);
}

/* the caller's stream, from where it is */
static int load_caller_stream(FILE *f, const struct fdif_image_limits *limits,
			      struct fdif_image *img, struct load_req *req)
{
	int ret;

	memset(img, 0, sizeof(*img));
	if (!f)
		return -EINVAL;
	ret = take_limits(req, limits);
	if (ret)
		return ret;
	return load_stream(f, img, req);
}

int fdif_image_load(const char *path, struct fdif_image *img)
{
	const struct load_req req = { .gray = 0 };

	return load_file(path, img, &req);
}

int fdif_image_load_mem(const void *data, size_t size, struct fdif_image *img)
{
	const struct load_req req = { .gray = 0 };

	return load_mem(data, size, img, &req);
}

int fdif_image_load_gray(const char *path, unsigned int fit_width,
			 unsigned int fit_height, struct fdif_image *img,
			 struct fdif_image_info *info)
{
	const struct load_req req = { 1, fit_width, fit_height, info, 0, 0 };

	return load_file(path, img, &req);
}

int fdif_image_load_gray_mem(const void *data, size_t size,
			     unsigned int fit_width, unsigned int fit_height,
			     struct fdif_image *img, struct fdif_image_info *info)
{
	const struct load_req req = { 1, fit_width, fit_height, info, 0, 0 };

	return load_mem(data, size, img, &req);
}

int fdif_image_load_file(FILE *f, const struct fdif_image_limits *limits,
			 struct fdif_image *img)
{
	struct load_req req = { .gray = 0 };

	return load_caller_stream(f, limits, img, &req);
}

int fdif_image_load_gray_file(FILE *f, unsigned int fit_width,
			      unsigned int fit_height,
			      const struct fdif_image_limits *limits,
			      struct fdif_image *img, struct fdif_image_info *info)
{
	struct load_req req = { 1, fit_width, fit_height, info, 0, 0 };

	return load_caller_stream(f, limits, img, &req);
}

int fdif_image_load_limited(const char *path, const void *data, size_t size,
			    const struct fdif_image_limits *limits, struct fdif_image *img)
{
	struct load_req req = { .gray = 0 };

	return load_req_run(path, data, size, limits, img, &req);
}

int fdif_image_load_gray_limited(const char *path, const void *data, size_t size,
				 unsigned int fit_width, unsigned int fit_height,
				 const struct fdif_image_limits *limits,
				 struct fdif_image *img, struct fdif_image_info *info)
{
	struct load_req req = { 1, fit_width, fit_height, info, 0, 0 };

	return load_req_run(path, data, size, limits, img, &req);
}

/* --- conversions and drawing ------------------------------------------ */

int fdif_image_to_gray(const struct fdif_image *src, struct fdif_image *dst)
{
	unsigned int x, y;
	int ret;

	memset(dst, 0, sizeof(*dst));
	if (src->channels != 1 && src->channels != 3)
		return -EINVAL;
	ret = fdif_image_alloc(dst, src->width, src->height, 1);
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

int fdif_image_to_rgb(const struct fdif_image *src, struct fdif_image *dst)
{
	unsigned int x, y, c;
	int ret;

	memset(dst, 0, sizeof(*dst));
	if (src->channels != 1 && src->channels != 3)
		return -EINVAL;
	ret = fdif_image_alloc(dst, src->width, src->height, 3);
	if (ret)
		return ret;
	for (y = 0; y < src->height; y++) {
		const uint8_t *s = src->pixels + (size_t)y * src->stride;
		uint8_t *d = dst->pixels + (size_t)y * dst->stride;

		for (x = 0; x < src->width; x++, s += src->channels)
			for (c = 0; c < 3; c++)
				*d++ = s[src->channels == 3 ? c : 0];
	}
	return 0;
}

static void put(struct fdif_image *img, long x, long y, const uint8_t *rgb)
{
	uint8_t *p;

	if (x < 0 || y < 0 || x >= (long)img->width || y >= (long)img->height)
		return;
	p = img->pixels + (size_t)y * img->stride + (size_t)x * img->channels;
	memcpy(p, rgb, img->channels == 3 ? 3 : 1);
}

/* A face's rectangle, @width x @height around its center; the line grows with it. */
void fdif_image_draw_box(struct fdif_image *img, double cx, double cy,
			 double width, double height, uint8_t r, uint8_t g, uint8_t b)
{
	const uint8_t rgb[3] = { r, g, b };
	long x0 = (long)(cx - width / 2), y0 = (long)(cy - height / 2);
	long x1 = (long)(cx + width / 2), y1 = (long)(cy + height / 2);
	long t = 1 + (long)((width < height ? width : height) / 60), i, k;

	for (k = 0; k < t; k++) {
		for (i = x0; i <= x1; i++) {
			put(img, i, y0 + k, rgb);
			put(img, i, y1 - k, rgb);
		}
		for (i = y0; i <= y1; i++) {
			put(img, x0 + k, i, rgb);
			put(img, x1 - k, i, rgb);
		}
	}
}
