// SPDX-License-Identifier: MIT
/*
 * Host unit tests of libfdif-image (decoding from files, streams and
 * memory, saving, grey and RGB copies, drawing) and of libfdif-drm's
 * device-independent parts: fitting into a frame (320x240 and another),
 * coordinate mapping and merging.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <jpeglib.h>

#include "fdif/fdif.h"
#include "fdif/image.h"

static char *tmpdir;

static char *tmp(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static void make_image(struct fdif_image *img, unsigned int w, unsigned int h,
		       unsigned int channels)
{
	unsigned int x, y, c;

	img->width = w;
	img->height = h;
	img->channels = channels;
	img->stride = w * channels;
	img->pixels = g_malloc((size_t)img->stride * h);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			for (c = 0; c < channels; c++)
				img->pixels[y * img->stride + x * channels + c] =
					(uint8_t)((x * 7 + y * 13 + c * 50) & 0xff);
}

static void write_file(const char *path, const void *data, size_t len)
{
	g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
}

static void test_png_roundtrip(void)
{
	unsigned int ch;

	for (ch = 1; ch <= 3; ch += 2) {
		struct fdif_image a, b;
		g_autofree char *path = tmp("a.png");

		make_image(&a, 37, 23, ch);
		g_assert_cmpint(fdif_image_save_png(path, &a), ==, 0);
		g_assert_cmpint(fdif_image_load(path, &b), ==, 0);
		g_assert_cmpuint(b.width, ==, 37);
		g_assert_cmpuint(b.height, ==, 23);
		g_assert_cmpuint(b.channels, ==, ch);
		g_assert_cmpmem(a.pixels, (size_t)a.stride * a.height, b.pixels,
				(size_t)b.stride * b.height);
		g_free(a.pixels);
		fdif_image_free(&b);
	}
}

static void test_pnm(void)
{
	static const char pgm[] = "P5\n# a comment\n3 2\n255\n\x01\x02\x03\x04\x05\x06";
	static const char ppm[] = "P6 1 1 255\n\x0a\x14\x1e";
	g_autofree char *p1 = tmp("a.pgm"), *p2 = tmp("a.ppm");
	struct fdif_image img;

	write_file(p1, pgm, sizeof(pgm) - 1);
	g_assert_cmpint(fdif_image_load(p1, &img), ==, 0);
	g_assert_cmpuint(img.width, ==, 3);
	g_assert_cmpuint(img.height, ==, 2);
	g_assert_cmpuint(img.channels, ==, 1);
	g_assert_cmpuint(img.pixels[5], ==, 6);
	fdif_image_free(&img);
	write_file(p2, ppm, sizeof(ppm) - 1);
	g_assert_cmpint(fdif_image_load(p2, &img), ==, 0);
	g_assert_cmpuint(img.channels, ==, 3);
	g_assert_cmpuint(img.pixels[2], ==, 0x1e);
	fdif_image_free(&img);
}

/* @len bytes of PNM decoded, from a file and from memory alike */
static int load_pnm_bytes(const char *data, size_t len, struct fdif_image *img)
{
	g_autofree char *path = tmp("t.pnm");
	struct fdif_image m;
	int ret, ret_mem;

	write_file(path, data, len);
	ret = fdif_image_load(path, img);
	ret_mem = fdif_image_load_mem(data, len, &m);
	g_assert_cmpint(ret, ==, ret_mem);
	if (!ret) {
		g_assert_cmpmem(img->pixels, (size_t)img->stride * img->height,
				m.pixels, (size_t)m.stride * m.height);
		fdif_image_free(&m);
	}
	return ret;
}

#define PNM(img, lit) load_pnm_bytes(lit, sizeof(lit) - 1, img)

/* P2/P3 (ASCII) and maxvals other than 255, 16-bit samples; bad headers */
static void test_pnm_ascii_maxval(void)
{
	static const uint8_t p2[] = { 0, 17, 34, 51, 238, 255 };
	static const uint8_t p16[] = { 0, 128, 255, 64 };
	struct fdif_image img;

	/* ASCII, maxval 15, the last sample at the end of the file */
	g_assert_cmpint(PNM(&img, "P2\n# c\n3 2\n15\n0 1 2\n3 14 15"), ==, 0);
	g_assert_cmpuint(img.width, ==, 3);
	g_assert_cmpuint(img.height, ==, 2);
	g_assert_cmpuint(img.channels, ==, 1);
	g_assert_cmpmem(img.pixels, 6, p2, 6);
	fdif_image_free(&img);
	/* binary, maxval 15 */
	g_assert_cmpint(PNM(&img, "P5 3 2 15\n\0\1\2\3\16\17"), ==, 0);
	g_assert_cmpmem(img.pixels, 6, p2, 6);
	fdif_image_free(&img);
	/* 16-bit big-endian samples, maxval 1000: 0, 500, 1000, 250 */
	g_assert_cmpint(PNM(&img, "P5 2 2 1000\n\0\0\x01\xf4\x03\xe8\0\xfa"), ==, 0);
	g_assert_cmpmem(img.pixels, 4, p16, 4);
	fdif_image_free(&img);
	/* ASCII RGB */
	g_assert_cmpint(PNM(&img, "P3 1 1 255 10 20 30\n"), ==, 0);
	g_assert_cmpuint(img.channels, ==, 3);
	g_assert_cmpuint(img.pixels[1], ==, 20);
	fdif_image_free(&img);

	/* bad headers and samples */
	g_assert_cmpint(PNM(&img, "P2 3 x 255\n1 2 3"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P2 -3 1 255\n1 2 3"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P5 1 1 0\n\0"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P5 1 1 70000\n\0\0"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P5 0 1 255\n"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P5 20000 1 255\n"), ==, -EFBIG);
	g_assert_null(img.pixels);
	g_assert_cmpint(PNM(&img, "P2 2 1 255\n1 256"), ==, -EBADMSG);	/* over maxval */
	g_assert_cmpint(PNM(&img, "P2 2 1 255\n1"), ==, -EBADMSG);	/* truncated */
	g_assert_cmpint(PNM(&img, "P2 2 1 255\n1 x"), ==, -EBADMSG);
	g_assert_cmpint(PNM(&img, "P5 2 1 1000\n\0\1\0"), ==, -EBADMSG);	/* truncated */
	g_assert_cmpint(PNM(&img, "P5 1 1 1000\n\x03\xe9"), ==, -EBADMSG);	/* 1001 */
	g_assert_null(img.pixels);
}

static void save_jpeg_as(const char *path, const struct fdif_image *img,
			 int progressive)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	FILE *f = fopen(path, "wb");
	unsigned int y;

	g_assert_nonnull(f);
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = img->width;
	c.image_height = img->height;
	c.input_components = (int)img->channels;
	c.in_color_space = img->channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, 98, TRUE);
	if (progressive)
		jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	for (y = 0; y < img->height; y++) {
		JSAMPROW row = img->pixels + (size_t)y * img->stride;

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	fclose(f);
}

static void save_jpeg(const char *path, const struct fdif_image *img)
{
	save_jpeg_as(path, img, 0);
}

/*
 * @img (4 channels: CMYK, stored as given) as a JPEG in colour space
 * @jcs (JCS_CMYK, JCS_YCCK; 0: the default for its channels), with an
 * APP1 marker of @app1_len bytes if @app1.
 */
static void save_jpeg_ex(const char *path, const struct fdif_image *img, int jcs,
			 const uint8_t *app1, unsigned int app1_len)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	FILE *f = fopen(path, "wb");
	unsigned int y;

	g_assert_nonnull(f);
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = img->width;
	c.image_height = img->height;
	c.input_components = (int)img->channels;
	c.in_color_space = img->channels == 4 ? JCS_CMYK :
			   img->channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
	jpeg_set_defaults(&c);
	if (jcs)
		jpeg_set_colorspace(&c, (J_COLOR_SPACE)jcs);
	jpeg_set_quality(&c, 98, TRUE);
	jpeg_start_compress(&c, TRUE);
	if (app1)
		jpeg_write_marker(&c, JPEG_APP0 + 1, app1, app1_len);
	for (y = 0; y < img->height; y++) {
		JSAMPROW row = img->pixels + (size_t)y * img->stride;

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	fclose(f);
}

static void make_flat(struct fdif_image *img, unsigned int w, unsigned int h,
		      unsigned int channels, const uint8_t *px)
{
	unsigned int i;

	make_image(img, w, h, channels);
	for (i = 0; i < w * h; i++)
		memcpy(img->pixels + (size_t)i * channels, px, channels);
}

/*
 * A grey picture for a frame: decoded straight to grey and reduced by
 * libjpeg to the smallest M/8 that still covers the fitted picture.
 */
static void test_jpeg_gray_scaled(void)
{
	static const uint8_t rgb[3] = { 200, 100, 50 };	/* luma 124 */
	g_autofree char *path = tmp("big.jpg"), *png = tmp("g.png");
	struct fdif_image a, b, c;
	struct fdif_image_info info;
	char *data;
	gsize len;

	make_flat(&a, 2048, 1536, 3, rgb);
	save_jpeg(path, &a);
	g_free(a.pixels);
	g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &b, &info), ==, 0);
	/* 1/6.4 of the size is enough: 2/8 is the largest reduction that is */
	g_assert_cmpuint(b.width, ==, 512);
	g_assert_cmpuint(b.height, ==, 384);
	g_assert_cmpuint(b.channels, ==, 1);
	g_assert_cmpfloat(info.scale, ==, 4.0);
	g_assert_cmpuint(info.width, ==, 2048);
	g_assert_cmpuint(info.height, ==, 1536);
	g_assert_cmpuint(info.orientation, ==, 1);
	g_assert_cmpint(abs(b.pixels[100 * b.stride + 100] - 124), <=, 2);
	/* from memory, the same */
	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	g_assert_cmpint(fdif_image_load_gray_mem(data, len, 320, 240, &c, NULL), ==, 0);
	g_assert_cmpmem(b.pixels, (size_t)b.stride * b.height, c.pixels,
			(size_t)c.stride * c.height);
	g_free(data);
	fdif_image_free(&b);
	fdif_image_free(&c);
	/* no frame: full size, grey */
	g_assert_cmpint(fdif_image_load_gray(path, 0, 0, &b, &info), ==, 0);
	g_assert_cmpuint(b.width, ==, 2048);
	g_assert_cmpuint(b.channels, ==, 1);
	g_assert_cmpfloat(info.scale, ==, 1.0);
	fdif_image_free(&b);

	/* a panorama: its width decides (4096 / 8 = 512 >= 320) */
	make_flat(&a, 4096, 512, 3, rgb);
	save_jpeg(path, &a);
	g_free(a.pixels);
	g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &b, &info), ==, 0);
	g_assert_cmpuint(b.width, ==, 512);
	g_assert_cmpuint(b.height, ==, 64);
	g_assert_cmpfloat(info.scale, ==, 8.0);
	fdif_image_free(&b);

	/* a small one is not reduced; other formats are made grey whole */
	make_flat(&a, 300, 200, 3, rgb);
	save_jpeg(path, &a);
	g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &b, &info), ==, 0);
	g_assert_cmpuint(b.width, ==, 300);
	fdif_image_free(&b);
	g_assert_cmpint(fdif_image_save_png(png, &a), ==, 0);
	g_assert_cmpint(fdif_image_load_gray(png, 320, 240, &b, &info), ==, 0);
	g_assert_cmpuint(b.channels, ==, 1);
	g_assert_cmpuint(b.pixels[0], ==, 124);
	g_assert_cmpuint(info.width, ==, 300);
	g_assert_cmpfloat(info.scale, ==, 1.0);
	fdif_image_free(&b);
	g_free(a.pixels);
}

/* CMYK and YCCK JPEGs (Adobe: inverted, as Photoshop writes them) */
static void test_jpeg_cmyk(void)
{
	static const uint8_t red_inv[4] = { 255, 0, 0, 255 };	/* C0 M1 Y1 K0 */
	static const int spaces[] = { JCS_CMYK, JCS_YCCK };
	g_autofree char *path = tmp("cmyk.jpg");
	struct fdif_image a, b;
	unsigned int i;

	make_flat(&a, 64, 48, 4, red_inv);
	for (i = 0; i < G_N_ELEMENTS(spaces); i++) {
		save_jpeg_ex(path, &a, spaces[i], NULL, 0);
		g_assert_cmpint(fdif_image_load(path, &b), ==, 0);
		g_assert_cmpuint(b.channels, ==, 3);
		g_assert_cmpuint(b.width, ==, 64);
		g_assert_cmpint(b.pixels[30 * b.stride + 90], >=, 250);
		g_assert_cmpint(b.pixels[30 * b.stride + 91], <=, 5);
		g_assert_cmpint(b.pixels[30 * b.stride + 92], <=, 5);
		fdif_image_free(&b);
		g_assert_cmpint(fdif_image_load_gray(path, 0, 0, &b, NULL), ==, 0);
		g_assert_cmpuint(b.channels, ==, 1);
		g_assert_cmpint(abs(b.pixels[30 * b.stride + 30] - 76), <=, 3);
		fdif_image_free(&b);
	}
	g_free(a.pixels);
}

/*
 * "Corrupt JPEG data: 2 extraneous bytes before marker 0xda" is a
 * warning: libjpeg skips them, and so do other decoders.
 */
static void test_jpeg_warning(void)
{
	g_autofree char *path = tmp("w.jpg"), *bad = tmp("wx.jpg");
	struct fdif_image a, b;
	uint8_t *data, *more;
	gsize len, i = 2;

	make_image(&a, 64, 48, 3);
	save_jpeg(path, &a);
	g_assert_true(g_file_get_contents(path, (char **)&data, &len, NULL));
	/* walk the header's segments to the start of scan */
	while (i + 4 < len && data[i] == 0xff && data[i + 1] != 0xda)
		i += 2 + ((size_t)data[i + 2] << 8 | data[i + 3]);
	g_assert_cmpuint(i + 4, <, len);
	g_assert_cmpuint(data[i + 1], ==, 0xda);
	more = g_malloc(len + 2);
	memcpy(more, data, i);
	more[i] = 0x12;
	more[i + 1] = 0x34;
	memcpy(more + i + 2, data + i, len - i);
	write_file(bad, more, len + 2);
	g_assert_cmpint(fdif_image_load(bad, &b), ==, 0);
	g_assert_cmpuint(b.width, ==, 64);
	fdif_image_free(&b);
	g_free(more);
	g_free(data);
	g_free(a.pixels);
}

/* EXIF APP1 data: a big-endian TIFF with one IFD entry, Orientation = @o */
static unsigned int exif_orientation(uint8_t *p, unsigned int o)
{
	static const uint8_t head[] = {
		'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
		0, 1,				/* one entry */
		0x01, 0x12, 0, 3, 0, 0, 0, 1,	/* Orientation, SHORT, 1 */
	};

	memcpy(p, head, sizeof(head));
	p[sizeof(head)] = 0;
	p[sizeof(head) + 1] = (uint8_t)o;
	memset(p + sizeof(head) + 2, 0, 6);	/* padding, no next IFD */
	return sizeof(head) + 8;
}

/* @src shown as EXIF orientation @o says (what the loader must do) */
static void orient(const struct fdif_image *src, unsigned int o, struct fdif_image *dst)
{
	unsigned int w = src->width, h = src->height, x, y, sx, sy;

	make_image(dst, o >= 5 ? h : w, o >= 5 ? w : h, 1);
	for (y = 0; y < dst->height; y++) {
		for (x = 0; x < dst->width; x++) {
			switch (o) {
			case 1: sx = x; sy = y; break;
			case 2: sx = w - 1 - x; sy = y; break;		/* mirrored */
			case 3: sx = w - 1 - x; sy = h - 1 - y; break;	/* 180 */
			case 4: sx = x; sy = h - 1 - y; break;		/* flipped */
			case 5: sx = y; sy = x; break;			/* transposed */
			case 6: sx = y; sy = h - 1 - x; break;		/* 90 clockwise */
			case 7: sx = w - 1 - y; sy = h - 1 - x; break;	/* transverse */
			default: sx = w - 1 - y; sy = x; break;		/* 8: 90 counter */
			}
			dst->pixels[y * dst->stride + x] = src->pixels[sy * src->stride + sx];
		}
	}
}

/*
 * Phone photos are stored sideways with an EXIF orientation: each of the
 * 8, made from a known upright picture (four flat quadrants, none alike,
 * wider than high), loads upright, also reduced and from memory.
 */
static void test_exif_orientation(void)
{
	static const uint8_t quad[4] = { 20, 90, 160, 230 };
	g_autofree char *path = tmp("o.jpg");
	struct fdif_image up, stored, b;
	struct fdif_image_info info;
	uint8_t app1[64];
	unsigned int o, x, y, len;

	make_image(&up, 32, 16, 1);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 32; x++)
			up.pixels[y * 32 + x] = quad[(y >= 8) * 2 + (x >= 16)];
	for (o = 1; o <= 8; o++) {
		/* stored so that showing it as @o says gives @up: 6 and 8 swap */
		orient(&up, o == 6 ? 8 : o == 8 ? 6 : o, &stored);
		len = exif_orientation(app1, o);
		save_jpeg_ex(path, &stored, 0, app1, len);
		g_free(stored.pixels);
		g_assert_cmpint(fdif_image_load(path, &b), ==, 0);
		g_assert_cmpuint(b.width, ==, 32);
		g_assert_cmpuint(b.height, ==, 16);
		for (y = 0; y < 16; y++)
			for (x = 0; x < 32; x++)
				g_assert_cmpint(abs(b.pixels[y * b.stride + x] - up.pixels[y * 32 + x]), <=, 4);
		fdif_image_free(&b);
		g_assert_cmpint(fdif_image_load_gray(path, 0, 0, &b, &info), ==, 0);
		g_assert_cmpuint(info.orientation, ==, o);
		g_assert_cmpuint(info.width, ==, 32);
		g_assert_cmpuint(info.height, ==, 16);
		g_assert_cmpuint(b.width, ==, 32);
		g_assert_cmpint(abs(b.pixels[15 * b.stride] - quad[2]), <=, 4);
		g_assert_cmpint(abs(b.pixels[31] - quad[1]), <=, 4);
		fdif_image_free(&b);
	}
	g_free(up.pixels);
}

static void test_jpeg(void)
{
	g_autofree char *path = tmp("a.jpg");
	struct fdif_image a, b;
	unsigned int i, worst = 0;

	make_image(&a, 64, 48, 3);
	memset(a.pixels, 90, (size_t)a.stride * a.height);	/* flat: lossless enough */
	save_jpeg(path, &a);
	g_assert_cmpint(fdif_image_load(path, &b), ==, 0);
	g_assert_cmpuint(b.width, ==, 64);
	g_assert_cmpuint(b.height, ==, 48);
	g_assert_cmpuint(b.channels, ==, 3);
	for (i = 0; i < a.stride * a.height; i++)
		worst = MAX(worst, (unsigned int)abs(a.pixels[i] - b.pixels[i]));
	g_assert_cmpuint(worst, <=, 2);
	g_free(a.pixels);
	fdif_image_free(&b);
}

static void test_bad_files(void)
{
	g_autofree char *png = tmp("a.png"), *cut = tmp("cut.png"), *jpg = tmp("a.jpg");
	g_autofree char *cutj = tmp("cut.jpg"), *junk = tmp("junk.bin"), *empty = tmp("empty");
	g_autofree char *pgm = tmp("short.pgm"), *deep = tmp("deep.pgm");
	struct fdif_image a, b;
	char *data;
	gsize len;

	make_image(&a, 200, 100, 3);
	g_assert_cmpint(fdif_image_save_png(png, &a), ==, 0);
	g_assert_true(g_file_get_contents(png, &data, &len, NULL));
	write_file(cut, data, len / 2);
	g_free(data);
	g_assert_cmpint(fdif_image_load(cut, &b), ==, -EBADMSG);
	g_assert_null(b.pixels);

	save_jpeg(jpg, &a);
	g_assert_true(g_file_get_contents(jpg, &data, &len, NULL));
	write_file(cutj, data, len / 2);
	g_free(data);
	g_assert_cmpint(fdif_image_load(cutj, &b), ==, -EBADMSG);

	write_file(junk, "GIF89a....", 10);
	g_assert_cmpint(fdif_image_load(junk, &b), ==, -ENOTSUP);
	write_file(empty, "", 0);
	g_assert_cmpint(fdif_image_load(empty, &b), ==, -EBADMSG);
	write_file(pgm, "P5 10 10 255\nabc", 16);
	g_assert_cmpint(fdif_image_load(pgm, &b), ==, -EBADMSG);
	write_file(deep, "P5 1 1 65536\n\0\0", 15);	/* over 16 bits */
	g_assert_cmpint(fdif_image_load(deep, &b), ==, -EBADMSG);
	g_assert_cmpint(fdif_image_load("/nonexistent/x.png", &b), ==, -ENOENT);
	/* a file that cannot be read is not a corrupt picture */
	g_assert_cmpint(fdif_image_load(tmpdir, &b), ==, -EISDIR);
	g_assert_null(b.pixels);
	g_assert_cmpstr(fdif_strerror(-EBADMSG), ==, "corrupt or truncated image");
	g_assert_nonnull(strstr(fdif_strerror(-EPROTO), "uAPI"));
	g_free(a.pixels);
}

static void jpeg_claiming(const char *src, const char *dst, unsigned int w,
			  unsigned int h);

/* a file loaded from memory: what fdif_image_load() gives for the file */
static int load_mem_of(const char *path, struct fdif_image *img)
{
	g_autofree char *data = NULL;
	gsize len;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	return fdif_image_load_mem(data, len, img);
}

static void check_same_as_file(const char *path)
{
	struct fdif_image a, b;

	g_assert_cmpint(fdif_image_load(path, &a), ==, 0);
	g_assert_cmpint(load_mem_of(path, &b), ==, 0);
	g_assert_cmpuint(a.width, ==, b.width);
	g_assert_cmpuint(a.height, ==, b.height);
	g_assert_cmpuint(a.channels, ==, b.channels);
	g_assert_cmpuint(a.stride, ==, b.stride);
	g_assert_cmpmem(a.pixels, (size_t)a.stride * a.height, b.pixels,
			(size_t)b.stride * b.height);
	fdif_image_free(&a);
	fdif_image_free(&b);
}

/* fdif_image_load_mem(): every format, every error, as from a file */
static void test_load_mem(void)
{
	static const char pgm[] = "P5\n# a comment\n3 2\n255\n\x01\x02\x03\x04\x05\x06";
	g_autofree char *png = tmp("m.png"), *jpg = tmp("m.jpg"), *pjpg = tmp("mp.jpg");
	g_autofree char *pnm = tmp("m.pgm"), *cut = tmp("mcut.png"), *bomb = tmp("mbomb.jpg");
	struct fdif_image a, b;
	char *data;
	gsize len;

	make_image(&a, 41, 29, 3);
	g_assert_cmpint(fdif_image_save_png(png, &a), ==, 0);
	save_jpeg(jpg, &a);
	save_jpeg_as(pjpg, &a, 1);
	write_file(pnm, pgm, sizeof(pgm) - 1);
	check_same_as_file(png);
	check_same_as_file(jpg);
	check_same_as_file(pjpg);
	check_same_as_file(pnm);

	g_assert_true(g_file_get_contents(png, &data, &len, NULL));
	write_file(cut, data, len / 2);
	g_assert_cmpint(fdif_image_load_mem(data, len / 2, &b), ==, -EBADMSG);
	g_assert_null(b.pixels);
	g_free(data);
	g_assert_cmpint(load_mem_of(cut, &b), ==, fdif_image_load(cut, &b));
	g_assert_cmpint(fdif_image_load_mem("GIF89a....", 10, &b), ==, -ENOTSUP);
	g_assert_cmpint(fdif_image_load_mem("", 0, &b), ==, -EBADMSG);
	g_assert_cmpint(fdif_image_load_mem(NULL, 0, &b), ==, -EBADMSG);
	g_assert_cmpint(fdif_image_load_mem("P5 1 1 65536\n\0\0", 15, &b), ==, -EBADMSG);

	/* a bomb is refused at its header from memory too */
	jpeg_claiming(pjpg, bomb, 20000, 20000);
	g_assert_cmpint(load_mem_of(bomb, &b), ==, -EFBIG);
	g_assert_null(b.pixels);
	g_free(a.pixels);
}

/*
 * fdif_image_to_gray() (libfdif-image's since 2.0) and fdif_image_to_rgb():
 * BT.601 luma, a grey copy, an RGB copy; a picture of another number of
 * channels is refused (it was read as if it had 3: past its rows).
 */
static void test_gray(void)
{
	struct fdif_image rgb, gray, copy, zero = { 0 };
	unsigned int ch;

	make_image(&rgb, 2, 1, 3);
	rgb.pixels[0] = 255, rgb.pixels[1] = 0, rgb.pixels[2] = 0;
	rgb.pixels[3] = 10, rgb.pixels[4] = 200, rgb.pixels[5] = 30;
	g_assert_cmpint(fdif_image_to_gray(&rgb, &gray), ==, 0);
	g_assert_cmpuint(gray.channels, ==, 1);
	g_assert_cmpuint(gray.pixels[0], ==, 76);	/* 0.299 * 255 */
	g_assert_cmpuint(gray.pixels[1], ==, 124);	/* 3 + 117.4 + 3.4 */
	/* grey to grey: a copy; grey to RGB: each value thrice */
	g_assert_cmpint(fdif_image_to_gray(&gray, &copy), ==, 0);
	g_assert_cmpmem(copy.pixels, 2, gray.pixels, 2);
	fdif_image_free(&copy);
	g_assert_cmpint(fdif_image_to_rgb(&gray, &copy), ==, 0);
	g_assert_cmpuint(copy.channels, ==, 3);
	g_assert_cmpuint(copy.pixels[3], ==, 124);
	g_assert_cmpuint(copy.pixels[5], ==, 124);
	fdif_image_free(&copy);
	g_assert_null(copy.pixels);
	g_assert_cmpuint(copy.width, ==, 0);
	fdif_image_free(&zero);	/* what a failed call leaves */
	/* 2 or 4 channels: -EINVAL, nothing to free */
	for (ch = 2; ch <= 4; ch += 2) {
		rgb.channels = ch;
		rgb.width = 1;
		memset(&copy, 0xaa, sizeof(copy));
		g_assert_cmpint(fdif_image_to_gray(&rgb, &copy), ==, -EINVAL);
		g_assert_null(copy.pixels);
		memset(&copy, 0xaa, sizeof(copy));
		g_assert_cmpint(fdif_image_to_rgb(&rgb, &copy), ==, -EINVAL);
		g_assert_null(copy.pixels);
	}
	g_free(rgb.pixels);
	fdif_image_free(&gray);
}

/* --- streams: fdif_image_load_file(), fdif_image_load_gray_file() ----- */

/* @n bytes written into a pipe by a thread of their own, then closed */
struct feed {
	int fd;
	const char *data;
	size_t len;
};

static gpointer feed_run(gpointer p)
{
	struct feed *fd = p;
	size_t off = 0;

	while (off < fd->len) {
		ssize_t n = write(fd->fd, fd->data + off, fd->len - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd->fd);
	return NULL;
}

/*
 * The @len bytes at @data as a stream that cannot seek (a pipe's read
 * end), loaded (@gray: grey for a 16x12 frame) then read to its end and
 * closed by the test: the library leaves it open.
 */
static int load_from_pipe(const char *data, size_t len, int gray,
			  const struct fdif_image_limits *lim, struct fdif_image *img,
			  struct fdif_image_info *info)
{
	struct feed feed;
	GThread *t;
	char buf[4096];
	int p[2], ret;
	FILE *f;

	g_assert_cmpint(pipe2(p, O_CLOEXEC), ==, 0);
	feed = (struct feed){ p[1], data, len };
	t = g_thread_new("feed", feed_run, &feed);
	f = fdopen(p[0], "r");
	g_assert_nonnull(f);
	g_assert_cmpint(ftello(f), ==, -1);	/* it cannot seek */
	ret = gray ? fdif_image_load_gray_file(f, 16, 12, lim, img, info) :
		     fdif_image_load_file(f, lim, img);
	while (fread(buf, 1, sizeof(buf), f) > 0)
		;
	g_assert_false(ferror(f));
	g_assert_cmpint(fclose(f), ==, 0);
	g_thread_join(t);
	return ret;
}

static void assert_same_image(const struct fdif_image *a, const struct fdif_image *b)
{
	g_assert_cmpuint(a->width, ==, b->width);
	g_assert_cmpuint(a->height, ==, b->height);
	g_assert_cmpuint(a->channels, ==, b->channels);
	g_assert_cmpuint(a->stride, ==, b->stride);
	g_assert_cmpmem(a->pixels, (size_t)a->stride * a->height, b->pixels,
			(size_t)b->stride * b->height);
}

/*
 * A picture read from a stdio stream where it stands: inside a larger
 * file (the stream's position, not its start: a loader that rewound read
 * the bytes before it), or from a pipe (no seeking back over the magic);
 * as fdif_image_load() and fdif_image_load_gray() give it from its own
 * file, and the stream left open. Limits and errors as theirs.
 */
static void test_load_file(void)
{
	static const char pgm[] = "P5\n# a comment\n3 2\n255\n\x01\x02\x03\x04\x05\x06";
	static const char before[] = "P6 junk before the picture ";
	g_autofree char *png = tmp("s.png"), *jpg = tmp("s.jpg"), *pnm = tmp("s.pgm");
	const char *paths[] = { png, jpg, pnm };
	struct fdif_image_limits lim = { .size = sizeof(lim), .max_pixels = 1 };
	struct fdif_image a, want, got;
	struct fdif_image_info winfo, ginfo;
	unsigned int i, gray;
	FILE *wo;

	make_image(&a, 41, 29, 3);
	g_assert_cmpint(fdif_image_save_png(png, &a), ==, 0);
	save_jpeg(jpg, &a);
	write_file(pnm, pgm, sizeof(pgm) - 1);
	g_free(a.pixels);
	for (i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autofree char *data = NULL;
		gsize len;
		FILE *f;

		g_assert_true(g_file_get_contents(paths[i], &data, &len, NULL));
		for (gray = 0; gray <= 1; gray++) {
			g_assert_cmpint(gray ? fdif_image_load_gray(paths[i], 16, 12, &want,
								    &winfo) :
					       fdif_image_load(paths[i], &want), ==, 0);
			/* at an offset in a file, more after it */
			f = tmpfile();
			g_assert_nonnull(f);
			g_assert_cmpuint(fwrite(before, 1, sizeof(before) - 1, f), ==,
					 sizeof(before) - 1);
			g_assert_cmpuint(fwrite(data, 1, len, f), ==, len);
			g_assert_cmpuint(fwrite("trailing", 1, 8, f), ==, 8);
			g_assert_cmpint(fseek(f, sizeof(before) - 1, SEEK_SET), ==, 0);
			memset(&ginfo, 0xaa, sizeof(ginfo));
			g_assert_cmpint(gray ? fdif_image_load_gray_file(f, 16, 12, NULL, &got,
									 &ginfo) :
					       fdif_image_load_file(f, NULL, &got), ==, 0);
			assert_same_image(&want, &got);
			if (gray)
				g_assert_cmpmem(&ginfo, sizeof(ginfo), &winfo, sizeof(winfo));
			fdif_image_free(&got);
			/* still the caller's, open */
			g_assert_cmpint(fseek(f, 0, SEEK_SET), ==, 0);
			g_assert_cmpint(fgetc(f), ==, 'P');
			/* over the limits from a stream too */
			g_assert_cmpint(fseek(f, sizeof(before) - 1, SEEK_SET), ==, 0);
			g_assert_cmpint(gray ? fdif_image_load_gray_file(f, 16, 12, &lim, &got,
									 NULL) :
					       fdif_image_load_file(f, &lim, &got), ==, -EFBIG);
			g_assert_null(got.pixels);
			g_assert_cmpint(fclose(f), ==, 0);
			/* from a pipe */
			memset(&ginfo, 0xaa, sizeof(ginfo));
			g_assert_cmpint(load_from_pipe(data, len, (int)gray, NULL, &got, &ginfo),
					==, 0);
			assert_same_image(&want, &got);
			if (gray)
				g_assert_cmpmem(&ginfo, sizeof(ginfo), &winfo, sizeof(winfo));
			fdif_image_free(&got);
			g_assert_cmpint(load_from_pipe(data, len, (int)gray, &lim, &got, NULL),
					==, -EFBIG);
			fdif_image_free(&want);
		}
		/* a cut picture from a pipe is corrupt, as from a file */
		g_assert_cmpint(load_from_pipe(data, len / 2, 0, NULL, &got, NULL), ==,
				-EBADMSG);
		g_assert_null(got.pixels);
	}
	/* the errors: nothing, not a picture, no stream, a bad limits size */
	g_assert_cmpint(load_from_pipe("", 0, 0, NULL, &got, NULL), ==, -EBADMSG);
	g_assert_cmpint(load_from_pipe("GIF89a....", 10, 1, NULL, &got, NULL), ==, -ENOTSUP);
	g_assert_cmpint(load_from_pipe("P", 1, 0, NULL, &got, NULL), ==, -ENOTSUP);
	g_assert_cmpint(fdif_image_load_file(NULL, NULL, &got), ==, -EINVAL);
	g_assert_null(got.pixels);
	g_assert_cmpint(fdif_image_load_gray_file(NULL, 0, 0, NULL, &got, NULL), ==, -EINVAL);
	/* a stream that cannot be read: its error, not a corrupt picture */
	wo = fopen(pnm, "ab");
	g_assert_nonnull(wo);
	g_assert_cmpint(fdif_image_load_file(wo, NULL, &got), ==, -EBADF);
	g_assert_null(got.pixels);
	fclose(wo);
	lim.size = sizeof(lim) - 1;
	g_assert_cmpint(load_from_pipe(pgm, sizeof(pgm) - 1, 0, &lim, &got, NULL), ==,
			-EINVAL);
}

/* a 320x240 frame, stride 320 (the OMAP4's) */
#define FRAME_W	320
#define FRAME_H	240

static int fit320(const struct fdif_image *img, uint8_t *frame, struct fdif_frame_map *map)
{
	return fdif_image_fit_frame(img, frame, FRAME_W, FRAME_H, FRAME_W, map);
}

static void test_fit_area(void)
{
	static uint8_t frame[FRAME_W * FRAME_H];
	struct fdif_frame_map map;
	struct fdif_image img;
	unsigned int x, y;

	/* 640x480: exactly 2x; a 1-pixel checkerboard of 0/200 averages to 100 */
	make_image(&img, 640, 480, 1);
	for (y = 0; y < 480; y++)
		for (x = 0; x < 640; x++)
			img.pixels[y * 640 + x] = (x + y) % 2 ? 200 : 0;
	g_assert_cmpint(fit320(&img, frame, &map), ==, 0);
	g_assert_cmpfloat(map.scale, ==, 2.0);
	g_assert_cmpfloat(map.off_x, ==, 0);
	g_assert_cmpfloat(map.off_y, ==, 0);
	for (x = 0; x < sizeof(frame); x++)
		g_assert_cmpuint(frame[x], ==, 100);
	g_free(img.pixels);

	/* 3x downscale of a constant stays constant, with any rounding */
	make_image(&img, 960, 720, 1);
	memset(img.pixels, 77, 960 * 720);
	g_assert_cmpint(fit320(&img, frame, &map), ==, 0);
	for (x = 0; x < sizeof(frame); x++)
		g_assert_cmpuint(frame[x], ==, 77);
	g_free(img.pixels);
}

static void test_fit_aspect_and_map(void)
{
	static uint8_t frame[FRAME_W * FRAME_H];
	struct fdif_frame_map map;
	struct fdif_image img;
	struct fdif_face f = { .x = 160, .y = 120, .width = 20, .height = 20 };

	/* 1920x1080 -> 320x180, centred: 30 rows of padding above and below */
	make_image(&img, 1920, 1080, 1);
	memset(img.pixels, 10, 1920 * 1080);
	g_assert_cmpint(fit320(&img, frame, &map), ==, 0);
	g_assert_cmpfloat(map.scale, ==, 6.0);
	g_assert_cmpfloat(map.off_x, ==, 0);
	g_assert_cmpfloat(map.off_y, ==, 30);
	g_assert_cmpuint(frame[0], ==, 128);
	g_assert_cmpuint(frame[29 * 320], ==, 128);
	g_assert_cmpuint(frame[30 * 320], ==, 10);
	g_assert_cmpuint(frame[209 * 320 + 319], ==, 10);
	g_assert_cmpuint(frame[210 * 320], ==, 128);
	fdif_map_face(&map, &f);
	g_assert_cmpfloat(f.x, ==, 960);
	g_assert_cmpfloat(f.y, ==, 540);
	g_assert_cmpfloat(f.width, ==, 120);
	g_assert_cmpfloat(f.height, ==, 120);
	g_free(img.pixels);

	/* a small portrait picture is scaled up and centred horizontally */
	make_image(&img, 120, 240, 1);
	g_assert_cmpint(fit320(&img, frame, &map), ==, 0);
	g_assert_cmpfloat(map.scale, ==, 1.0);
	g_assert_cmpfloat(map.off_x, ==, 100);
	g_free(img.pixels);
}

/* Another device's frame: its size, and rows further apart than its width. */
static void test_fit_frame_stride(void)
{
	enum { W = 64, H = 32, STRIDE = 80 };
	static uint8_t frame[STRIDE * H];
	struct fdif_frame_map map;
	struct fdif_image img;
	struct fdif_face f = { .x = 32, .y = 16, .width = 8, .height = 6 };
	unsigned int x, y;

	memset(frame, 0xee, sizeof(frame));
	/* 256x64 -> 64x16, centred: 8 rows of padding above and below */
	make_image(&img, 256, 64, 1);
	memset(img.pixels, 40, 256 * 64);
	g_assert_cmpint(fdif_image_fit_frame(&img, frame, W, H, STRIDE, &map), ==, 0);
	g_assert_cmpfloat(map.scale, ==, 4.0);
	g_assert_cmpfloat(map.off_x, ==, 0);
	g_assert_cmpfloat(map.off_y, ==, 8);
	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++)
			g_assert_cmpuint(frame[y * STRIDE + x], ==, y < 8 || y >= 24 ? 128 : 40);
		for (; x < STRIDE; x++)
			g_assert_cmpuint(frame[y * STRIDE + x], ==, 0xee);	/* left alone */
	}
	fdif_map_face(&map, &f);
	g_assert_cmpfloat(f.x, ==, 128);
	g_assert_cmpfloat(f.y, ==, 32);
	g_assert_cmpfloat(f.width, ==, 32);
	g_assert_cmpfloat(f.height, ==, 24);

	/* bad frames */
	g_assert_cmpint(fdif_image_fit_frame(&img, frame, W, H, W - 1, &map), ==, -EINVAL);
	g_assert_cmpint(fdif_image_fit_frame(&img, frame, 0, H, STRIDE, &map), ==, -EINVAL);
	g_assert_cmpint(fdif_image_fit_frame(&img, frame, W, 0, STRIDE, &map), ==, -EINVAL);
	g_free(img.pixels);
}

static void test_merge(void)
{
	struct fdif_face f[] = {
		{ .x = 100, .y = 100, .width = 40, .height = 40, .confidence = 500,
		  .direction = FDIF_DIR_UP },
		{ .x = 250, .y = 60, .width = 30, .height = 30, .confidence = 300,
		  .direction = FDIF_DIR_UP },
		{ .x = 108, .y = 95, .width = 44, .height = 44, .confidence = 900,
		  .direction = FDIF_DIR_RIGHT },
		{ .x = 100, .y = 100, .width = 90, .height = 90, .confidence = 100,
		  .direction = FDIF_DIR_LEFT },
	};

	/* the two at ~(100,100) of similar size are one face; the big one is not */
	g_assert_cmpuint(fdif_merge_faces(f, 4), ==, 3);
	g_assert_cmpuint(f[0].confidence, ==, 900);
	g_assert_cmpuint(f[0].direction, ==, FDIF_DIR_RIGHT);
	g_assert_cmpuint(f[1].confidence, ==, 300);
	g_assert_cmpuint(f[2].confidence, ==, 100);
}

static void test_draw(void)
{
	struct fdif_image img;

	make_image(&img, 50, 50, 3);
	memset(img.pixels, 0, img.stride * 50);
	fdif_image_draw_box(&img, 25, 25, 20, 20, 255, 0, 0);
	g_assert_cmpuint(img.pixels[15 * img.stride + 15 * 3], ==, 255);
	g_assert_cmpuint(img.pixels[25 * img.stride + 25 * 3], ==, 0);
	/* boxes off the edge are clipped, not written outside */
	fdif_image_draw_box(&img, 0, 0, 200, 200, 0, 255, 0);
	g_free(img.pixels);
	/* a grey picture takes the red value */
	make_image(&img, 50, 50, 1);
	memset(img.pixels, 0, img.stride * 50);
	fdif_image_draw_box(&img, 25, 25, 20, 20, 200, 0, 0);
	g_assert_cmpuint(img.pixels[15 * img.stride + 15], ==, 200);
	g_assert_cmpuint(img.pixels[25 * img.stride + 25], ==, 0);
	g_free(img.pixels);
}

/* A face is a rectangle: its box is drawn @width wide and @height high. */
static void test_draw_box(void)
{
	struct fdif_image img;

	make_image(&img, 60, 60, 3);
	memset(img.pixels, 0, img.stride * 60);
	fdif_image_draw_box(&img, 30, 30, 40, 20, 255, 0, 0);	/* 10..50 x 20..40 */
	g_assert_cmpuint(img.pixels[20 * img.stride + 10 * 3], ==, 255);
	g_assert_cmpuint(img.pixels[40 * img.stride + 50 * 3], ==, 255);
	g_assert_cmpuint(img.pixels[30 * img.stride + 10 * 3], ==, 255);
	/* not the 40x40 square around it */
	g_assert_cmpuint(img.pixels[10 * img.stride + 30 * 3], ==, 0);
	g_assert_cmpuint(img.pixels[50 * img.stride + 30 * 3], ==, 0);
	g_assert_cmpuint(img.pixels[30 * img.stride + 30 * 3], ==, 0);
	fdif_image_draw_box(&img, 59, 0, 300, 100, 0, 255, 0);	/* clipped */
	g_free(img.pixels);
}

/* --- decompression bombs ------------------------------------------- */

#define BOMB_HEADROOM	(256L << 20)	/* address space a load may add */
#define BOMB_MAX_RSS_KB	(64L << 10)	/* peak RSS of the loading process */

/*
 * fdif_image_load(@path) in a child whose address space may grow by at
 * most BOMB_HEADROOM (an unbounded allocation fails there, not on the
 * machine): its return value, and its peak RSS in *@maxrss_kb.
 */
static int load_bounded_as(const char *path, int gray, long *maxrss_kb)
{
	struct rusage ru;
	int status;
	pid_t pid;

	pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (!pid) {
		struct fdif_image img;
		struct rlimit r;
		long pages = 0;
		FILE *statm = fopen("/proc/self/statm", "re");
		int ret;

		if (!statm || fscanf(statm, "%ld", &pages) != 1)
			_exit(255);
		fclose(statm);
		r.rlim_cur = r.rlim_max = (rlim_t)(pages * sysconf(_SC_PAGESIZE) + BOMB_HEADROOM);
		if (setrlimit(RLIMIT_AS, &r))
			_exit(255);
		ret = gray ? fdif_image_load_gray(path, 320, 240, &img, NULL) :
			     fdif_image_load(path, &img);
		_exit(ret < 0 && ret > -255 ? -ret : ret ? 255 : 0);
	}
	g_assert_cmpint(wait4(pid, &status, 0, &ru), ==, pid);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), !=, 255);
	*maxrss_kb = ru.ru_maxrss;
	g_test_message("%s: %d, peak RSS %ld KiB", path, -WEXITSTATUS(status), ru.ru_maxrss);
	return -WEXITSTATUS(status);
}

static int load_bounded(const char *path, long *maxrss_kb)
{
	return load_bounded_as(path, 0, maxrss_kb);
}

static void put_be16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v & 0xffff);
}

/* @src, a JPEG, with its frame header (SOFn) claiming @w x @h pixels */
static void jpeg_claiming(const char *src, const char *dst, unsigned int w,
			  unsigned int h)
{
	uint8_t *data;
	gsize len, i;

	g_assert_true(g_file_get_contents(src, (char **)&data, &len, NULL));
	for (i = 2; i + 9 < len; i++)
		if (data[i] == 0xff && (data[i + 1] == 0xc0 || data[i + 1] == 0xc2))
			break;
	g_assert_cmpuint(i + 9, <, len);
	put_be16(data + i + 5, h);	/* FF Cn, length, precision, height, width */
	put_be16(data + i + 7, w);
	write_file(dst, data, len);
	g_free(data);
}

static uint32_t crc32_png(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffff;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffff;
}

/* @src, a PNG, with its IHDR claiming @w x @h pixels (and a right CRC) */
static void png_claiming(const char *src, const char *dst, unsigned int w,
			 unsigned int h)
{
	uint8_t *data;
	gsize len;

	g_assert_true(g_file_get_contents(src, (char **)&data, &len, NULL));
	g_assert_cmpmem(data + 12, 4, "IHDR", 4);
	put_be32(data + 16, w);
	put_be32(data + 20, h);
	put_be32(data + 29, crc32_png(data + 12, 17));
	write_file(dst, data, len);
	g_free(data);
}

/* @png (a file) with a chunk @type of @len bytes inserted at byte @at */
static void png_insert_chunk(const char *png, size_t at, const char *type,
			     const uint8_t *data, size_t len)
{
	uint8_t *in, *out;
	gsize n;

	g_assert_true(g_file_get_contents(png, (char **)&in, &n, NULL));
	g_assert_cmpuint(at, <=, n);
	out = g_malloc(n + 12 + len);
	memcpy(out, in, at);
	put_be32(out + at, (uint32_t)len);
	memcpy(out + at + 4, type, 4);
	memcpy(out + at + 8, data, len);
	put_be32(out + at + 8 + len, crc32_png(out + at + 4, 4 + len));
	memcpy(out + at + 12 + len, in + at, n - at);
	write_file(png, out, n + 12 + len);
	g_free(in);
	g_free(out);
}

/*
 * A PNG's EXIF orientation is in its eXIf chunk (the TIFF data without
 * JPEG's "Exif\0\0"), before the image data or after it: each of the 8
 * loads upright, as a JPEG's does; the chunk's orientation is reported.
 */
static void test_png_exif_orientation(void)
{
	static const uint8_t quad[4] = { 20, 90, 160, 230 };
	g_autofree char *path = tmp("o.png");
	struct fdif_image up, stored, b;
	struct fdif_image_info info;
	uint8_t app1[64];
	unsigned int o, x, y, len, after;

	make_image(&up, 32, 16, 1);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 32; x++)
			up.pixels[y * 32 + x] = quad[(y >= 8) * 2 + (x >= 16)];
	for (after = 0; after <= 1; after++) {
		for (o = 1; o <= 8; o++) {
			struct stat st;

			orient(&up, o == 6 ? 8 : o == 8 ? 6 : o, &stored);
			len = exif_orientation(app1, o);
			g_assert_cmpint(fdif_image_save_png(path, &stored), ==, 0);
			g_free(stored.pixels);
			g_assert_cmpint(stat(path, &st), ==, 0);
			/* after IHDR (8 + 25 bytes), or before IEND (the last 12) */
			png_insert_chunk(path, after ? (size_t)st.st_size - 12 : 33, "eXIf",
					 app1 + 6, len - 6);
			g_assert_cmpint(fdif_image_load(path, &b), ==, 0);
			g_assert_cmpuint(b.width, ==, 32);
			g_assert_cmpuint(b.height, ==, 16);
			g_assert_cmpmem(b.pixels, 32 * 16, up.pixels, 32 * 16);
			fdif_image_free(&b);
			g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &b, &info), ==, 0);
			g_assert_cmpuint(info.orientation, ==, o);
			g_assert_cmpuint(info.width, ==, 32);
			g_assert_cmpuint(info.height, ==, 16);
			g_assert_cmpmem(b.pixels, 32 * 16, up.pixels, 32 * 16);
			fdif_image_free(&b);
		}
	}
	g_free(up.pixels);
}

/*
 * A few hundred bytes of JPEG or PNG claiming a huge picture are refused
 * with -EFBIG right after their header: a progressive JPEG's coefficients
 * for the whole claimed size were allocated (1.2 GB for 20000x20000) and
 * every missing scan "decoded" before the size was checked; a PNG over the
 * limit was "corrupt". Memory is bounded, not time: the child's address
 * space can grow by 256 MiB only, and its peak RSS is checked.
 */
static void test_bombs(void)
{
	g_autofree char *prog = tmp("prog.jpg"), *base = tmp("base.jpg");
	g_autofree char *png = tmp("small.png"), *bomb = tmp("bomb");
	struct fdif_image img;
	long rss;

	make_image(&img, 16, 16, 3);
	save_jpeg_as(prog, &img, 1);
	save_jpeg_as(base, &img, 0);
	g_assert_cmpint(fdif_image_save_png(png, &img), ==, 0);
	g_free(img.pixels);

	/* the small pictures themselves load */
	g_assert_cmpint(load_bounded(prog, &rss), ==, 0);
	g_assert_cmpint(load_bounded(png, &rss), ==, 0);

	/* over 16384 a side: refused at the header */
	jpeg_claiming(prog, bomb, 20000, 20000);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	jpeg_claiming(base, bomb, 20000, 20000);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	/* the grey, reduced load checks the header the same way */
	g_assert_cmpint(load_bounded_as(bomb, 1, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	jpeg_claiming(prog, bomb, 20000, 20000);
	g_assert_cmpint(load_bounded_as(bomb, 1, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	jpeg_claiming(prog, bomb, 300, 17000);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);
	png_claiming(png, bomb, 20000, 20000);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	png_claiming(png, bomb, 16385, 1);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);

	/*
	 * Within the sides, but a progressive JPEG's coefficients (16000x16000
	 * 4:2:0: 768 MB) over libjpeg's memory bound: refused before libjpeg
	 * allocates them or reads a scan.
	 */
	jpeg_claiming(prog, bomb, 16000, 16000);
	g_assert_cmpint(load_bounded(bomb, &rss), ==, -EFBIG);
	g_assert_cmpint(rss, <, BOMB_MAX_RSS_KB);
	g_unlink(bomb);
}

/*
 * The files fdif_image_load() and fdif_image_save_png() open are
 * close-on-exec: a thread's fork() and exec() while a picture is being read
 * or written must not hand the file to the new program. A FIFO holds the
 * call open while the test looks at its fd: the loader waits for its
 * bytes, the writer for the test to read what fills the pipe.
 */
struct fifo_call {
	const char *path;
	int save, ret;
};

static gpointer fifo_call_run(gpointer data)
{
	struct fifo_call *c = data;
	struct fdif_image img;

	if (c->save) {
		unsigned int i;

		/* noise: more PNG than a pipe holds, so the writer waits for the test */
		make_image(&img, 256, 256, 3);
		for (i = 0; i < 256 * 256 * 3; i++)
			img.pixels[i] = (uint8_t)g_random_int();
		c->ret = fdif_image_save_png(c->path, &img);
		g_free(img.pixels);
	} else {
		c->ret = fdif_image_load(c->path, &img);
		if (!c->ret)
			fdif_image_free(&img);
	}
	return NULL;
}

/* The flags of the fd (not @mine) this process has open on @path; -1: none. */
static int fifo_fd_flags(const char *path, int mine)
{
	char link[64], target[4096];
	ssize_t n;
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		if (fd == mine)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (!strcmp(target, path))
			return fcntl(fd, F_GETFD);
	}
	return -1;
}

static void check_fifo_cloexec(int save)
{
	static const char pgm[] = "P5 2 2 255\n\x01\x02\x03\x04";
	g_autofree char *path = tmp(save ? "out.fifo" : "in.fifo");
	struct fifo_call c = { path, save, 0 };
	GThread *t;
	char buf[4096];
	int fd, flags = -1, i;

	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	t = g_thread_new("fifo", fifo_call_run, &c);
	/* returns once the library has opened the other end */
	fd = open(path, (save ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
	g_assert_cmpint(fd, >=, 0);
	for (i = 0; i < 1000 && flags == -1; i++) {
		flags = fifo_fd_flags(path, fd);
		if (flags == -1)
			g_usleep(1000);
	}
	if (save)
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	else
		g_assert_cmpint(write(fd, pgm, sizeof(pgm) - 1), ==, sizeof(pgm) - 1);
	close(fd);
	g_thread_join(t);
	g_assert_cmpint(flags, !=, -1);
	g_assert_cmpint(flags & FD_CLOEXEC, ==, FD_CLOEXEC);
	g_unlink(path);
}

/* a picture that takes a while to deflate: noise */
static void make_noise(struct fdif_image *img, unsigned int w, unsigned int h)
{
	size_t i;

	make_image(img, w, h, 3);
	for (i = 0; i < (size_t)img->stride * h; i++)
		img->pixels[i] = (uint8_t)((i * 2654435761u) >> 13 ^ i >> 7);
}

struct save_call {
	const char *path;
	const struct fdif_image *img;
	int ret;
	gint done;
};

static gpointer save_call_run(gpointer data)
{
	struct save_call *c = data;

	c->ret = fdif_image_save_png(c->path, c->img);
	g_atomic_int_set(&c->done, 1);
	return NULL;
}

/* The flags of an fd this process has open on a save's own new file; -1: none. */
static int save_tmp_fd_flags(const char *dir)
{
	g_autofree char *prefix = g_build_filename(dir, ".fdif-image-", NULL);
	char link[64], target[4096];
	ssize_t n;
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (g_str_has_prefix(target, prefix))
			return fcntl(fd, F_GETFD);
	}
	return -1;
}

/* a save to a regular file writes a new file next to it: close-on-exec too */
static void check_save_tmp_cloexec(void)
{
	g_autofree char *dir = tmp("cloexec-save"), *path = NULL;
	struct fdif_image img;
	struct save_call c = { 0 };
	GThread *t;
	int flags = -1;

	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	path = g_build_filename(dir, "out.png", NULL);
	make_noise(&img, 1500, 1500);
	c.path = path;
	c.img = &img;
	t = g_thread_new("save", save_call_run, &c);
	while (flags == -1 && !g_atomic_int_get(&c.done))
		flags = save_tmp_fd_flags(dir);
	g_thread_join(t);
	g_assert_cmpint(c.ret, ==, 0);
	g_assert_cmpint(flags, !=, -1);
	g_assert_cmpint(flags & FD_CLOEXEC, ==, FD_CLOEXEC);
	g_free(img.pixels);
	g_unlink(path);
	g_rmdir(dir);
}

static void test_cloexec(void)
{
	check_fifo_cloexec(0);
	check_fifo_cloexec(1);
	check_save_tmp_cloexec();
}

/* g_ptr_array_sort() hands pointers to the elements */
static int cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in @dir, sorted, each followed by a space */
static char *dir_names(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = g_ptr_array_new();
	GString *out = g_string_new(NULL);
	const char *name;
	unsigned int i;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, (gpointer)g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	for (i = 0; i < names->len; i++) {
		g_string_append_printf(out, "%s ", (char *)names->pdata[i]);
		g_free(names->pdata[i]);
	}
	g_ptr_array_free(names, TRUE);
	return g_string_free(out, FALSE);
}

/*
 * fdif_image_save_png(@path, @img) in a child whose files may not grow
 * past @limit bytes (RLIMIT_FSIZE, SIGXFSZ ignored: the write that would
 * goes short, then fails with EFBIG): its return value.
 */
static int save_fsize_limited_as(const char *path, const struct fdif_image *img, rlim_t limit,
				 int jpeg)
{
	int status;
	pid_t pid;

	pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (!pid) {
		struct rlimit r = { limit, limit };
		int ret;

		if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR || setrlimit(RLIMIT_FSIZE, &r))
			_exit(255);
		ret = jpeg ? fdif_image_save_jpeg(path, img, 95) : fdif_image_save_png(path, img);
		_exit(ret < 0 && ret > -255 ? -ret : ret ? 255 : 0);
	}
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), !=, 255);
	return -WEXITSTATUS(status);
}

static int save_fsize_limited(const char *path, const struct fdif_image *img, rlim_t limit)
{
	return save_fsize_limited_as(path, img, limit, 0);
}

static void assert_file_is(const char *path, const char *want)
{
	g_autofree char *data = NULL;
	gsize len;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	g_assert_cmpmem(data, len, want, strlen(want));
}

/*
 * A save is atomic: a write that fails midway (here over RLIMIT_FSIZE:
 * -EFBIG) leaves the file that was there as it was, and no file of the
 * save's behind (it was truncated and half-written); a bad picture too.
 * A new file's mode is 0666 less the umask, as fopen() makes it; a file
 * replaced keeps its mode; a symbolic link is followed, not replaced.
 */
static void test_png_save_atomic(void)
{
	static const char old[] = "the old contents";
	g_autofree char *dir = tmp("atomic"), *path = NULL, *fresh = NULL, *link = NULL;
	g_autofree char *names = NULL;
	struct fdif_image img, back;
	struct stat st;
	mode_t mask;

	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	path = g_build_filename(dir, "out.png", NULL);
	fresh = g_build_filename(dir, "new.png", NULL);
	link = g_build_filename(dir, "link.png", NULL);
	write_file(path, old, strlen(old));
	make_noise(&img, 500, 500);	/* a PNG of about 750 KB */

	/* the write fails after 64 KiB: the old file is intact, nothing left */
	g_assert_cmpint(save_fsize_limited(path, &img, 64 << 10), ==, -EFBIG);
	assert_file_is(path, old);
	names = dir_names(dir);
	g_assert_cmpstr(names, ==, "out.png ");
	g_free(names);
	/* so is a new file's: none there */
	g_assert_cmpint(save_fsize_limited(fresh, &img, 64 << 10), ==, -EFBIG);
	g_assert_false(g_file_test(fresh, G_FILE_TEST_EXISTS));
	names = dir_names(dir);
	g_assert_cmpstr(names, ==, "out.png ");
	g_free(names);
	/* a picture it cannot write: -EINVAL, untouched */
	img.channels = 2;
	g_assert_cmpint(fdif_image_save_png(path, &img), ==, -EINVAL);
	img.channels = 3;
	assert_file_is(path, old);

	/* replaced whole, its mode kept; only it in the directory */
	g_assert_cmpint(chmod(path, 0604), ==, 0);
	g_assert_cmpint(fdif_image_save_png(path, &img), ==, 0);
	g_assert_cmpint(stat(path, &st), ==, 0);
	g_assert_cmpuint(st.st_mode & 07777, ==, 0604);
	g_assert_cmpint(fdif_image_load(path, &back), ==, 0);
	assert_same_image(&img, &back);
	fdif_image_free(&back);
	names = dir_names(dir);
	g_assert_cmpstr(names, ==, "out.png ");
	g_free(names);

	/* a new file: 0666 less the umask */
	mask = umask(027);
	g_assert_cmpint(fdif_image_save_png(fresh, &img), ==, 0);
	umask(mask);
	g_assert_cmpint(stat(fresh, &st), ==, 0);
	g_assert_cmpuint(st.st_mode & 07777, ==, 0640);
	g_unlink(fresh);

	/* through a symbolic link: the file it points to */
	g_assert_cmpint(symlink("out.png", link), ==, 0);
	write_file(path, old, strlen(old));
	g_assert_cmpint(fdif_image_save_png(link, &img), ==, 0);
	g_assert_cmpint(lstat(link, &st), ==, 0);
	g_assert_true(S_ISLNK(st.st_mode));
	g_assert_cmpint(fdif_image_load(path, &back), ==, 0);
	assert_same_image(&img, &back);
	fdif_image_free(&back);
	names = dir_names(dir);
	g_assert_cmpstr(names, ==, "link.png out.png ");

	g_unlink(link);
	g_unlink(path);
	g_rmdir(dir);
	g_free(img.pixels);
}

/*
 * JPEG out (fdif-detect --facedetect -o x.jpg): libfdif-image's, the same
 * atomic save as a PNG's. Before, the CLI had a writer of its own that
 * opened the file in place (fopen(path, "w")): a failed write left part
 * of a JPEG where the old file was.
 */
static void test_jpeg_save(void)
{
	static const char old[] = "the old contents";
	g_autofree char *dir = tmp("jpeg-out"), *path = NULL, *names = NULL;
	struct fdif_image img, back;
	unsigned int ch;
	size_t i;

	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	path = g_build_filename(dir, "out.jpg", NULL);
	for (ch = 1; ch <= 3; ch += 2) {
		long diff = 0;

		make_image(&img, 64, 48, ch);
		g_autofree char *data = NULL;
		gsize len;

		g_assert_cmpint(fdif_image_save_jpeg(path, &img, 95), ==, 0);
		/* a JFIF file: SOI, then APP0 "JFIF" */
		g_assert_true(g_file_get_contents(path, &data, &len, NULL));
		g_assert_cmpuint(len, >, 11);
		g_assert_cmpmem(data, 4, "\xff\xd8\xff\xe0", 4);
		g_assert_cmpmem(data + 6, 4, "JFIF", 4);
		g_assert_cmpint(fdif_image_load(path, &back), ==, 0);
		g_assert_cmpuint(back.width, ==, 64);
		g_assert_cmpuint(back.height, ==, 48);
		g_assert_cmpuint(back.channels, ==, ch);
		for (i = 0; i < (size_t)64 * 48 * ch; i++)
			diff += labs((long)back.pixels[i] - img.pixels[i]);
		/* the same picture, within JPEG's loss of make_image()'s sharp edges */
		g_assert_cmpint(diff / (64 * 48 * (long)ch), <=, 32);
		fdif_image_free(&back);
		g_free(img.pixels);
	}
	make_image(&img, 64, 48, 3);
	g_assert_cmpint(fdif_image_save_jpeg(path, &img, 0), ==, -EINVAL);
	g_assert_cmpint(fdif_image_save_jpeg(path, &img, 101), ==, -EINVAL);
	img.channels = 2;
	g_assert_cmpint(fdif_image_save_jpeg(path, &img, 95), ==, -EINVAL);
	img.channels = 3;
	/* libjpeg's error is returned, not its exit(): a full disk's errno */
	g_assert_cmpint(fdif_image_save_jpeg("/dev/full", &img, 95), ==, -ENOSPC);
	g_free(img.pixels);

	write_file(path, old, strlen(old));
	make_noise(&img, 500, 500);	/* a JPEG far over 64 KiB at quality 95 */
	g_assert_cmpint(save_fsize_limited_as(path, &img, 64 << 10, 1), ==, -EFBIG);
	assert_file_is(path, old);
	names = dir_names(dir);
	g_assert_cmpstr(names, ==, "out.jpg ");
	g_unlink(path);
	g_rmdir(dir);
	g_free(img.pixels);
}

/*
 * A PNG that cannot be written says why: the open()'s errno, or the
 * failed write's (a full disk: -ENOSPC, where it was -EIO, which
 * fdif_strerror() words as the device's error). /dev/full, a device, is
 * written in place (no file of the save's next to it in /dev); a
 * directory is not a file.
 */
static void test_png_save_errors(void)
{
	static const uint8_t rgb[3] = { 10, 200, 30 };
	g_autofree char *none = tmp("none/out.png");
	struct fdif_image a;
	size_t i;

	make_flat(&a, 300, 200, 3, rgb);
	g_assert_cmpint(fdif_image_save_png(none, &a), ==, -ENOENT);
	g_assert_cmpint(fdif_image_save_png(tmpdir, &a), ==, -EISDIR);
	/* a small one fails when it is closed, a large one in libpng's write */
	g_assert_cmpint(fdif_image_save_png("/dev/full", &a), ==, -ENOSPC);
	g_free(a.pixels);
	make_flat(&a, 1000, 1000, 3, rgb);
	for (i = 0; i < 3000000; i++)
		a.pixels[i] = (uint8_t)(i * 2654435761u >> 13);	/* little to deflate */
	g_assert_cmpint(fdif_image_save_png("/dev/full", &a), ==, -ENOSPC);
	a.channels = 2;
	g_assert_cmpint(fdif_image_save_png("/dev/null", &a), ==, -EINVAL);
	g_free(a.pixels);
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("libfdif-XXXXXX", NULL);
	g_test_add_func("/libfdif/image/png-roundtrip", test_png_roundtrip);
	g_test_add_func("/libfdif/image/png-save-errors", test_png_save_errors);
	g_test_add_func("/libfdif/image/png-save-atomic", test_png_save_atomic);
	g_test_add_func("/libfdif/image/jpeg-save", test_jpeg_save);
	g_test_add_func("/libfdif/image/pnm", test_pnm);
	g_test_add_func("/libfdif/image/pnm-ascii-maxval", test_pnm_ascii_maxval);
	g_test_add_func("/libfdif/image/jpeg", test_jpeg);
	g_test_add_func("/libfdif/image/jpeg-gray-scaled", test_jpeg_gray_scaled);
	g_test_add_func("/libfdif/image/jpeg-cmyk", test_jpeg_cmyk);
	g_test_add_func("/libfdif/image/jpeg-warning", test_jpeg_warning);
	g_test_add_func("/libfdif/image/exif-orientation", test_exif_orientation);
	g_test_add_func("/libfdif/image/png-exif-orientation", test_png_exif_orientation);
	g_test_add_func("/libfdif/image/bad-files", test_bad_files);
	g_test_add_func("/libfdif/image/load-mem", test_load_mem);
	g_test_add_func("/libfdif/image/load-file", test_load_file);
	g_test_add_func("/libfdif/image/gray", test_gray);
	g_test_add_func("/libfdif/image/draw", test_draw);
	g_test_add_func("/libfdif/image/draw-box", test_draw_box);
	g_test_add_func("/libfdif/image/cloexec", test_cloexec);
	g_test_add_func("/libfdif/image/bombs", test_bombs);
	g_test_add_func("/libfdif/fit/area", test_fit_area);
	g_test_add_func("/libfdif/fit/aspect-and-map", test_fit_aspect_and_map);
	g_test_add_func("/libfdif/fit/frame-stride", test_fit_frame_stride);
	g_test_add_func("/libfdif/merge", test_merge);
	ret = g_test_run();
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);

		(void)!system(cmd);
	}
	g_free(tmpdir);
	return ret;
}
