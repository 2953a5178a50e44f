// SPDX-License-Identifier: MIT
/*
 * libfdif-image: decoding PGM/PPM, PNG (libpng) and JPEG (libjpeg-turbo),
 * writing PNG, RGB conversion and drawing. The only part of the two
 * libraries that links the image format libraries.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <libexif/exif-data.h>
#include <png.h>

#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif-private.h"

/* What the caller asked of a load. */
struct load_req {
	int gray;				/* 1 channel */
	unsigned int fit_width, fit_height;	/* JPEG: reduce (0: full size) */
	struct fdif_image_info *info;		/* out, or NULL */
};

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
 * (1..65535, two bytes big-endian above 255) scaled to 0..255.
 */
static int load_pnm(FILE *f, struct fdif_image *img)
{
	unsigned int w, h, maxval, channels, v, bytes;
	int kind, ascii, ret;
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
	ret = fdif_image_alloc(img, w, h, channels);
	if (ret)
		return ret;
	n = (size_t)img->stride * h;
	bytes = maxval > 255 ? 2 : 1;
	if (!ascii && bytes == 1 && maxval == 255) {
		if (fread(img->pixels, 1, n, f) != n)
			goto bad;
		return 0;
	}
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
		img->pixels[i] = (uint8_t)((v * 255u + maxval / 2) / maxval);
	}
	return 0;
bad:
	fdif_image_free(img);
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

static int load_png(FILE *f, struct fdif_image *img, const struct load_req *req)
{
	png_structp png;
	png_infop info;
	png_bytep *volatile rows = NULL;
	volatile int ret = -EBADMSG;
	png_uint_32 w, h, y;
	int depth, type, channels;
	unsigned int o;

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
		free(rows);
		fdif_image_free(img);
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
	png_get_IHDR(png, info, &w, &h, &depth, &type, NULL, NULL, NULL);
	if (w > FDIF_MAX_SIDE || h > FDIF_MAX_SIDE) {
		ret = -EFBIG;
		png_longjmp(png, 1);
	}
	/* everything to 8-bit grey or RGB, alpha dropped */
	if (depth == 16)
		png_set_strip_16(png);
	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (type & PNG_COLOR_MASK_ALPHA)
		png_set_strip_alpha(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	channels = png_get_channels(png, info);
	if (channels != 1 && channels != 3)
		png_longjmp(png, 1);
	ret = fdif_image_alloc(img, w, h, (unsigned int)channels);
	if (ret)
		png_longjmp(png, 1);
	ret = -EBADMSG;
	rows = malloc(h * sizeof(*rows));
	if (!rows) {
		ret = -ENOMEM;
		png_longjmp(png, 1);
	}
	for (y = 0; y < h; y++)
		rows[y] = img->pixels + (size_t)y * img->stride;
	png_read_image(png, rows);
	png_read_end(png, info);	/* an eXIf after the image data too */
	free(rows);
	rows = NULL;
	o = png_orientation(png, info);
	png_destroy_read_struct(&png, &info, NULL);
	ret = image_orient(img, o);
	if (ret) {
		fdif_image_free(img);
		return ret;
	}
	if (req->info)
		req->info->orientation = o;
	return 0;
}

int fdif_image_save_png(const char *path, const struct fdif_image *img)
{
	png_structp png;
	png_infop info;
	FILE *volatile f;
	unsigned int y;

	if (img->channels != 1 && img->channels != 3)
		return -EINVAL;
	f = fopen(path, "wbe");	/* e: close-on-exec */
	if (!f)
		return -errno;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_fn,
				      png_warning_fn);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		fclose(f);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(f);
		return -EIO;
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
	return fclose(f) ? -EIO : 0;
}

/* --- JPEG ------------------------------------------------------------- */

struct jpeg_err {
	struct jpeg_error_mgr mgr;
	jmp_buf jmp;
	int truncated;	/* libjpeg warned of the file's early end */
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
 * those pictures too); but a file that ends early is padded with grey, and
 * that one is corrupt.
 */
static void jpeg_quiet(j_common_ptr cinfo, int level)
{
	if (level < 0) {
		cinfo->err->num_warnings++;
		if (cinfo->err->msg_code == JWRN_JPEG_EOF)
			((struct jpeg_err *)cinfo->err)->truncated = 1;
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

static int load_jpeg(FILE *f, struct fdif_image *img, const struct load_req *req)
{
	struct jpeg_decompress_struct cinfo;
	struct jpeg_err err = { .truncated = 0 };
	uint8_t *volatile row4 = NULL;
	volatile int ret = -EBADMSG;
	unsigned int o, m, uw, uh, y, cmyk, channels;

	cinfo.err = jpeg_std_error(&err.mgr);
	err.mgr.error_exit = jpeg_error_exit;
	err.mgr.emit_message = jpeg_quiet;
	if (setjmp(err.jmp)) {
		if (ret == -EBADMSG && err.mgr.msg_code)
			ret = jpeg_errno(&err);
		jpeg_destroy_decompress(&cinfo);
		free(row4);
		fdif_image_free(img);
		return ret;
	}
	jpeg_create_decompress(&cinfo);
	/*
	 * Before jpeg_start_decompress(), which allocates (a progressive
	 * picture's coefficients for its whole size) and reads every scan:
	 * the size the header claims, and a bound on what libjpeg allocates.
	 */
	cinfo.mem->max_memory_to_use = FDIF_JPEG_MAX_MEMORY;
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
	jpeg_start_decompress(&cinfo);
	channels = cmyk ? (req->gray ? 1 : 3) : (unsigned int)cinfo.output_components;
	ret = fdif_image_alloc(img, cinfo.output_width, cinfo.output_height, channels);
	if (!ret && cmyk) {
		row4 = malloc((size_t)cinfo.output_width * 7);	/* CMYK, then RGB */
		if (!row4)
			ret = -ENOMEM;
	}
	if (ret)
		longjmp(err.jmp, 1);
	ret = -EBADMSG;
	while (cinfo.output_scanline < cinfo.output_height) {
		JSAMPROW row = img->pixels + (size_t)cinfo.output_scanline * img->stride;
		uint8_t *rgb = row4 + (size_t)cinfo.output_width * 4;
		unsigned int x;

		if (!cmyk) {
			jpeg_read_scanlines(&cinfo, &row, 1);
			continue;
		}
		y = cinfo.output_scanline;
		row = row4;
		jpeg_read_scanlines(&cinfo, &row, 1);
		cmyk_to_rgb(row4, channels == 3 ? img->pixels + (size_t)y * img->stride : rgb,
			    cinfo.output_width, cinfo.saw_Adobe_marker);
		if (channels == 1)
			for (x = 0; x < cinfo.output_width; x++)
				img->pixels[(size_t)y * img->stride + x] =
					fdif_luma(rgb + 3 * x);
	}
	if (err.truncated)
		longjmp(err.jmp, 1);
	jpeg_finish_decompress(&cinfo);
	jpeg_destroy_decompress(&cinfo);
	free(row4);
	row4 = NULL;
	ret = image_orient(img, o);
	if (ret) {
		fdif_image_free(img);
		return ret;
	}
	if (req->info) {
		req->info->scale = 8.0 / m;
		req->info->width = uw;
		req->info->height = uh;
		req->info->orientation = o;
	}
	return 0;
}

/* A picture from a stream (a file or fmemopen()ed memory) by its magic. */
static int load_any(FILE *f, struct fdif_image *img, const struct load_req *req)
{
	unsigned char magic[8] = { 0 };
	size_t n;

	n = fread(magic, 1, sizeof(magic), f);
	rewind(f);
	if (n >= 2 && magic[0] == 'P' && magic[1] >= '2' && magic[1] <= '6' &&
	    magic[1] != '4')
		return load_pnm(f, img);
	if (n == 8 && !png_sig_cmp(magic, 0, 8))
		return load_png(f, img, req);
	if (n >= 3 && magic[0] == 0xff && magic[1] == 0xd8 && magic[2] == 0xff)
		return load_jpeg(f, img, req);
	return n ? -ENOTSUP : -EBADMSG;
}

/*
 * load_any(), then what the request asks of any format: grey (a JPEG is
 * decoded to grey already), and the size it was.
 */
static int load_stream(FILE *f, struct fdif_image *img, const struct load_req *req)
{
	struct fdif_image gray;
	int ret;

	if (req->info) {
		memset(req->info, 0, sizeof(*req->info));
		req->info->scale = 1;
		req->info->orientation = 1;
	}
	ret = load_any(f, img, req);
	if (ret)
		return ret;
	if (req->gray && img->channels != 1) {
		ret = fdif_image_to_gray(img, &gray);
		fdif_image_free(img);
		if (ret)
			return ret;
		*img = gray;
	}
	if (req->info && !req->info->width) {	/* not reduced */
		req->info->width = img->width;
		req->info->height = img->height;
	}
	return 0;
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

int fdif_image_load(const char *path, struct fdif_image *img)
{
	const struct load_req req = { 0 };

	return load_file(path, img, &req);
}

int fdif_image_load_mem(const void *data, size_t size, struct fdif_image *img)
{
	const struct load_req req = { 0 };

	return load_mem(data, size, img, &req);
}

int fdif_image_load_gray(const char *path, unsigned int fit_width,
			 unsigned int fit_height, struct fdif_image *img,
			 struct fdif_image_info *info)
{
	const struct load_req req = { 1, fit_width, fit_height, info };

	return load_file(path, img, &req);
}

int fdif_image_load_gray_mem(const void *data, size_t size,
			     unsigned int fit_width, unsigned int fit_height,
			     struct fdif_image *img, struct fdif_image_info *info)
{
	const struct load_req req = { 1, fit_width, fit_height, info };

	return load_mem(data, size, img, &req);
}

/* --- conversions and drawing ------------------------------------------ */

int fdif_image_to_rgb(const struct fdif_image *src, struct fdif_image *dst)
{
	unsigned int x, y, c;
	int ret = fdif_image_alloc(dst, src->width, src->height, 3);

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

void fdif_image_draw_square(struct fdif_image *img, double cx, double cy,
			    double size, uint8_t r, uint8_t g, uint8_t b)
{
	fdif_image_draw_box(img, cx, cy, size, size, r, g, b);
}
