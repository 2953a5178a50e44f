// SPDX-License-Identifier: MIT
/*
 * libfdif-image's memory bounds and what came with them: loads within a
 * caller's limits (fdif_image_load_limited(), _gray_limited(), from a
 * stream: fdif_image_load_file(), _gray_file()), the grey
 * path a row at a time (PNG and PNM reduced on the way, interlaced PNGs
 * too), a JPEG scan with no data refused, palette PNGs with tRNS.
 * Usage: test-libfdif-image-limits [--tap] BIG_DIR (make-big-images' files)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <jpeglib.h>
#include <png.h>

#include "fdif/fdif.h"
#include "fdif/image.h"

static char *tmpdir;
static const char *bigdir;

#define MAX_RSS_KB	(64L << 10)	/* fdif-detect's bound, 64 MiB */
/* AddressSanitizer's shadow and quarantine are not the library's memory */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_RSS	0
#else
#define CHECK_RSS	1
#endif

static char *tmp(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static uint8_t luma(const uint8_t *p)
{
	return (uint8_t)((299u * p[0] + 587u * p[1] + 114u * p[2] + 500) / 1000);
}

/*
 * A PNG of @w x @h: @type (PNG_COLOR_TYPE_*), 8 bits, pixels from @px
 * (@ch bytes each, palette indices for a palette), Adam7 if @adam7,
 * with @plte/@trns for a palette.
 */
static void write_png(const char *path, unsigned int w, unsigned int h, int type,
		      unsigned int ch, const uint8_t *px, int adam7,
		      const png_color *plte, unsigned int nplte, const uint8_t *trns,
		      unsigned int ntrns)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	png_bytep *rows = g_new(png_bytep, h);
	FILE *f = fopen(path, "wb");
	unsigned int y;

	g_assert_nonnull(f);
	g_assert_nonnull(info);
	if (setjmp(png_jmpbuf(png)))
		g_assert_not_reached();
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, type,
		     adam7 ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (plte)
		png_set_PLTE(png, info, plte, (int)nplte);
	if (trns)
		png_set_tRNS(png, info, trns, (int)ntrns, NULL);
	for (y = 0; y < h; y++)
		rows[y] = (png_bytep)px + (size_t)y * w * ch;
	png_set_rows(png, info, rows);
	png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
	png_destroy_write_struct(&png, &info);
	g_free(rows);
	g_assert_cmpint(fclose(f), ==, 0);
}

/*
 * Palette PNGs with a tRNS chunk (what most tools write for a GIF-like
 * picture with a transparent colour) are decoded, alpha dropped: they
 * were refused as corrupt (libpng expanded the tRNS to an alpha channel,
 * a fourth channel the loader did not take).
 */
static void test_palette_trns(void)
{
	static const png_color plte[4] = {
		{ 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 200, 100, 50 },
	};
	static const uint8_t trns[2] = { 0, 128 };	/* 0 clear, 1 half */
	g_autofree char *path = tmp("palette.png");
	uint8_t idx[6 * 4];
	struct fdif_image img;
	struct fdif_image_info info;
	unsigned int i, adam7;

	for (i = 0; i < sizeof(idx); i++)
		idx[i] = (uint8_t)((i * 7 + i / 6) % 4);
	for (adam7 = 0; adam7 <= 1; adam7++) {
		write_png(path, 6, 4, PNG_COLOR_TYPE_PALETTE, 1, idx, (int)adam7, plte, 4,
			  trns, 2);
		g_assert_cmpint(fdif_image_load(path, &img), ==, 0);
		g_assert_cmpuint(img.width, ==, 6);
		g_assert_cmpuint(img.height, ==, 4);
		g_assert_cmpuint(img.channels, ==, 3);
		for (i = 0; i < sizeof(idx); i++) {
			const uint8_t *p = img.pixels + 3 * i;

			g_assert_cmpuint(p[0], ==, plte[idx[i]].red);
			g_assert_cmpuint(p[1], ==, plte[idx[i]].green);
			g_assert_cmpuint(p[2], ==, plte[idx[i]].blue);
		}
		fdif_image_free(&img);
		g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &img, &info), ==, 0);
		g_assert_cmpuint(img.channels, ==, 1);
		g_assert_cmpuint(info.width, ==, 6);
		for (i = 0; i < sizeof(idx); i++) {
			uint8_t rgb[3] = { plte[idx[i]].red, plte[idx[i]].green,
					   plte[idx[i]].blue };

			g_assert_cmpuint(img.pixels[i], ==, luma(rgb));
		}
		fdif_image_free(&img);
	}
	g_unlink(path);
}

/* the test picture: an RGB pattern of known luma */
static uint8_t *pattern(unsigned int w, unsigned int h)
{
	uint8_t *px = g_malloc((size_t)w * h * 3);
	unsigned int i;

	for (i = 0; i < w * h * 3; i++)
		px[i] = (uint8_t)((i * 37 + i / (w * 3) * 11) & 0xff);
	return px;
}

/*
 * The grey path reduces a PNG (plain and interlaced) and a PGM by whole
 * factors as it reads them: each pixel the mean of its block of the
 * grey picture (the blocks at the right and bottom edges smaller), the
 * scale reported.
 */
static void test_reduce(void)
{
	const unsigned int w = 70, h = 45;	/* 4: 18 x 12, edge blocks 2 and 1 */
	g_autofree char *png = tmp("r.png"), *pgm = tmp("r.pgm");
	uint8_t *px = pattern(w, h), *grey = g_malloc((size_t)w * h);
	struct fdif_image img;
	struct fdif_image_info info;
	unsigned int i, x, y, rx, ry, adam7;
	FILE *f;

	for (i = 0; i < w * h; i++)
		grey[i] = luma(px + 3 * i);
	f = fopen(pgm, "wb");
	g_assert_nonnull(f);
	fprintf(f, "P5 %u %u 255\n", w, h);
	g_assert_cmpuint(fwrite(grey, 1, (size_t)w * h, f), ==, (size_t)w * h);
	g_assert_cmpint(fclose(f), ==, 0);
	for (adam7 = 0; adam7 <= 2; adam7++) {
		const char *path = adam7 == 2 ? pgm : png;

		if (adam7 < 2)
			write_png(png, w, h, PNG_COLOR_TYPE_RGB, 3, px, (int)adam7, NULL, 0,
				  NULL, 0);
		/* 70 / 16 and 45 / 10: 4 */
		g_assert_cmpint(fdif_image_load_gray(path, 16, 10, &img, &info), ==, 0);
		g_assert_cmpfloat(info.scale, ==, 4);
		g_assert_cmpuint(info.width, ==, w);
		g_assert_cmpuint(info.height, ==, h);
		g_assert_cmpuint(img.width, ==, 18);
		g_assert_cmpuint(img.height, ==, 12);
		for (ry = 0; ry < 12; ry++) {
			for (rx = 0; rx < 18; rx++) {
				unsigned int sum = 0, cnt = 0;

				for (y = ry * 4; y < ry * 4 + 4 && y < h; y++)
					for (x = rx * 4; x < rx * 4 + 4 && x < w; x++, cnt++)
						sum += grey[y * w + x];
				g_assert_cmpuint(img.pixels[ry * img.stride + rx], ==,
						 (sum + cnt / 2) / cnt);
			}
		}
		fdif_image_free(&img);
		/* a frame it does not exceed: whole, pixel for pixel */
		g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &img, &info), ==, 0);
		g_assert_cmpfloat(info.scale, ==, 1);
		g_assert_cmpmem(img.pixels, (size_t)w * h, grey, (size_t)w * h);
		fdif_image_free(&img);
	}
	g_unlink(png);
	g_unlink(pgm);
	g_free(px);
	g_free(grey);
}

/*
 * The limits: the pixels the file claims and the memory held, each
 * refused with -EFBIG at the header; the structure's size checked as
 * the library's other size-prefixed structures are.
 */
static void test_limits_api(void)
{
	g_autofree char *png = tmp("l.png");
	const unsigned int w = 64, h = 48;
	uint8_t *px = pattern(w, h);
	struct fdif_image img;
	struct fdif_image_info info;
	struct {
		struct fdif_image_limits l;
		uint64_t more;
	} big;
	struct fdif_image_limits lim = { .size = sizeof(lim) };
	gchar *data;
	gsize len;
	FILE *f;

	write_png(png, w, h, PNG_COLOR_TYPE_RGB, 3, px, 0, NULL, 0, NULL, 0);
	g_assert_true(g_file_get_contents(png, &data, &len, NULL));
	/* no limits: as fdif_image_load() */
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, NULL, &img), ==, 0);
	g_assert_cmpmem(img.pixels, (size_t)w * h * 3, px, (size_t)w * h * 3);
	fdif_image_free(&img);
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &lim, &img), ==, 0);
	fdif_image_free(&img);
	/* pixels: the picture's, whatever the reduction */
	lim.max_pixels = w * h;
	g_assert_cmpint(fdif_image_load_limited(NULL, data, len, &lim, &img), ==, 0);
	fdif_image_free(&img);
	lim.max_pixels = w * h - 1;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &lim, &img), ==, -EFBIG);
	g_assert_null(img.pixels);
	g_assert_cmpint(fdif_image_load_gray_limited(png, NULL, 0, 16, 12, &lim, &img, &info),
			==, -EFBIG);
	g_assert_cmpint(fdif_image_load_gray_limited(NULL, data, len, 16, 12, &lim, &img,
						     &info), ==, -EFBIG);
	/* bytes: the picture as decoded (reduced: less) and a row */
	lim.max_pixels = 0;
	lim.max_bytes = w * h * 3;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &lim, &img), ==, -EFBIG);
	lim.max_bytes = w * h * 3 + w * 3;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &lim, &img), ==, 0);
	fdif_image_free(&img);
	lim.max_bytes = w * h;
	g_assert_cmpint(fdif_image_load_gray_limited(png, NULL, 0, 0, 0, &lim, &img, &info),
			==, -EFBIG);
	g_assert_cmpint(fdif_image_load_gray_limited(png, NULL, 0, 16, 12, &lim, &img, &info),
			==, 0);
	g_assert_cmpuint(img.width, ==, 16);
	g_assert_cmpfloat(info.scale, ==, 4);
	fdif_image_free(&img);
	/* the size: shorter is -EINVAL, longer with a zero tail fine, else -E2BIG */
	lim.size = sizeof(lim) - 1;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &lim, &img), ==, -EINVAL);
	memset(&big, 0, sizeof(big));
	big.l.size = sizeof(big);
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &big.l, &img), ==, 0);
	fdif_image_free(&img);
	big.more = 1;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &big.l, &img), ==, -E2BIG);
	/* one size-prefix style with libfdif-drm's: a u32 size, at most 4096 */
	big.more = 0;
	big.l.reserved = 1;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &big.l, &img), ==, -EINVAL);
	big.l.reserved = 0;
	big.l.size = 4097;
	g_assert_cmpint(fdif_image_load_limited(png, NULL, 0, &big.l, &img), ==, -EINVAL);
	g_assert_cmpuint(sizeof(big.l.size), ==, sizeof(uint32_t));
	big.l.size = sizeof(big);
	big.more = 1;

	/* the same limits, the same checks, from a stream */
	f = fopen(png, "rb");
	g_assert_nonnull(f);
	lim.size = sizeof(lim);
	lim.max_pixels = w * h - 1;
	lim.max_bytes = 0;
	g_assert_cmpint(fdif_image_load_file(f, &lim, &img), ==, -EFBIG);
	g_assert_null(img.pixels);
	rewind(f);
	g_assert_cmpint(fdif_image_load_gray_file(f, 16, 12, &lim, &img, &info), ==, -EFBIG);
	lim.max_pixels = 0;
	lim.max_bytes = w * h * 3;
	rewind(f);
	g_assert_cmpint(fdif_image_load_file(f, &lim, &img), ==, -EFBIG);
	lim.max_bytes = w * h;
	rewind(f);
	g_assert_cmpint(fdif_image_load_gray_file(f, 0, 0, &lim, &img, &info), ==, -EFBIG);
	rewind(f);
	g_assert_cmpint(fdif_image_load_gray_file(f, 16, 12, &lim, &img, &info), ==, 0);
	g_assert_cmpuint(img.width, ==, 16);
	g_assert_cmpfloat(info.scale, ==, 4);
	fdif_image_free(&img);
	rewind(f);
	g_assert_cmpint(fdif_image_load_file(f, NULL, &img), ==, 0);
	g_assert_cmpmem(img.pixels, (size_t)w * h * 3, px, (size_t)w * h * 3);
	fdif_image_free(&img);
	lim.size = sizeof(lim) - 1;
	rewind(f);
	g_assert_cmpint(fdif_image_load_file(f, &lim, &img), ==, -EINVAL);
	g_assert_cmpint(fdif_image_load_gray_file(f, 0, 0, &big.l, &img, NULL), ==, -E2BIG);
	g_assert_cmpint(fclose(f), ==, 0);
	g_free(data);
	g_free(px);
	g_unlink(png);
}

/* a 64x64 baseline JPEG, its entropy-coded data cut after @keep bytes, then EOI */
static void jpeg_cut(const char *path, size_t keep)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *buf = NULL, row[64 * 3];
	unsigned long len = 0;
	unsigned int x, y;
	size_t i;
	FILE *f;

	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &buf, &len);
	c.image_width = 64;
	c.image_height = 64;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_start_compress(&c, TRUE);
	for (y = 0; y < 64; y++) {
		JSAMPROW r = row;

		for (x = 0; x < 64 * 3; x++)
			row[x] = (uint8_t)(x * 3 ^ y * 5);
		jpeg_write_scanlines(&c, &r, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	for (i = 2; i + 4 <= len && buf[i] == 0xff; i += 2 + (buf[i + 2] << 8 | buf[i + 3]))
		if (buf[i + 1] == 0xda)
			break;
	i += 2 + (buf[i + 2] << 8 | buf[i + 3]);
	g_assert_cmpuint(i + keep + 2, <, len);
	f = fopen(path, "wb");
	g_assert_nonnull(f);
	fwrite(buf, 1, i + keep, f);
	fwrite("\xff\xd9", 1, 2, f);
	g_assert_cmpint(fclose(f), ==, 0);
	free(buf);
}

/*
 * A JPEG whose scan stops short of its picture before EOI was padded
 * with grey and returned as a success: it is corrupt, in colour and grey.
 */
static void test_jpeg_missing_scan(void)
{
	g_autofree char *path = tmp("cut.jpg");
	struct fdif_image img;
	struct fdif_image_info info;
	size_t keep;

	for (keep = 0; keep <= 64; keep += 64) {
		jpeg_cut(path, keep);
		g_assert_cmpint(fdif_image_load(path, &img), ==, -EBADMSG);
		g_assert_null(img.pixels);
		g_assert_cmpint(fdif_image_load_gray(path, 320, 240, &img, &info), ==, -EBADMSG);
		g_assert_cmpint(fdif_image_load_gray(path, 16, 16, &img, &info), ==, -EBADMSG);
	}
	g_unlink(path);
}

/*
 * make-big-images' files (tests/make-big-images.c), loaded in a child
 * whose peak RSS is read (wait4): the old calls and the limited ones
 * with fdif-detect's limits (48 MiB; 12 Mi pixels in colour), from the
 * file's path or (@limited 2) from a stream on it, with the error each
 * must give or its picture; the limited ones within 64 MiB.
 */
struct big_case {
	const char *file;
	int gray, limited, want;
	unsigned int width, height;	/* the decoded picture's, on success */
};

static int big_load(const struct big_case *c, long *rss_kb)
{
	g_autofree char *path = g_build_filename(bigdir, c->file, NULL);
	struct rusage ru;
	int status;
	pid_t pid;

	pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (!pid) {
		struct fdif_image_limits lim = { .size = sizeof(lim),
			.max_pixels = c->gray ? 0 : 12u << 20, .max_bytes = 48u << 20 };
		struct fdif_image img;
		struct fdif_image_info info;
		size_t i;
		int ret;

		FILE *f = NULL;

		if (c->limited == 2 && !(f = fopen(path, "rb")))
			_exit(252);
		if (c->gray && f)
			ret = fdif_image_load_gray_file(f, 320, 240, &lim, &img, &info);
		else if (c->gray)
			ret = c->limited ?
			      fdif_image_load_gray_limited(path, NULL, 0, 320, 240, &lim, &img, &info) :
			      fdif_image_load_gray(path, 320, 240, &img, &info);
		else if (f)
			ret = fdif_image_load_file(f, &lim, &img);
		else
			ret = c->limited ? fdif_image_load_limited(path, NULL, 0, &lim, &img) :
					   fdif_image_load(path, &img);
		if (!ret) {
			/* all zero rows: black, at the size asked */
			if (img.width != c->width || img.height != c->height ||
			    info.width != 16384 || info.height != 16384)
				_exit(254);
			for (i = 0; i < (size_t)img.stride * img.height; i++)
				if (img.pixels[i])
					_exit(253);
			fdif_image_free(&img);
		}
		_exit(ret < 0 && ret > -250 ? -ret : ret ? 255 : 0);
	}
	g_assert_cmpint(wait4(pid, &status, 0, &ru), ==, pid);
	g_assert_true(WIFEXITED(status));
	*rss_kb = ru.ru_maxrss;
	g_test_message("%s %s%s: exit %d, peak RSS %ld KiB", c->file, c->gray ? "grey" : "colour",
		       c->limited == 2 ? " limited, stream" : c->limited ? " limited" : "",
		       WEXITSTATUS(status), ru.ru_maxrss);
	g_assert_cmpint(WEXITSTATUS(status), <, 250);
	return -WEXITSTATUS(status);
}

static void test_big_files(void)
{
	static const struct big_case cases[] = {
		/* no scan data: corrupt, whatever the call (was: a 16384x16384 picture, 1.5 GB) */
		{ "exif6-16384.jpg", 0, 0, -EBADMSG, 0, 0 },
		{ "exif6-16384.jpg", 1, 0, -EBADMSG, 0, 0 },
		{ "exif6-16384.jpg", 0, 1, -EFBIG, 0, 0 },
		{ "exif6-16384.jpg", 1, 1, -EBADMSG, 0, 0 },
		/* 432 MB of coefficients: over 48 MiB (was: 427 MB on the grey path) */
		{ "prog-12000.jpg", 1, 0, -EBADMSG, 0, 0 },
		{ "prog-12000.jpg", 1, 1, -EFBIG, 0, 0 },
		{ "prog-12000.jpg", 0, 1, -EFBIG, 0, 0 },
		/* real pictures: grey a row at a time (was: 1.05 GB), reduced by 68 */
		{ "zero-16384.png", 1, 0, 0, 241, 241 },
		{ "zero-16384.png", 1, 1, 0, 241, 241 },
		{ "zero-16384.png", 0, 1, -EFBIG, 0, 0 },
		{ "zero-16384-adam7.png", 1, 0, 0, 241, 241 },
		{ "zero-16384-adam7.png", 1, 1, 0, 241, 241 },
		{ "zero-16384-adam7.png", 0, 1, -EFBIG, 0, 0 },
		{ "cut-16384.pgm", 1, 1, -EBADMSG, 0, 0 },
		{ "cut-16384.pgm", 0, 0, -EBADMSG, 0, 0 },
		/* from a stream, the same bounds */
		{ "exif6-16384.jpg", 0, 2, -EFBIG, 0, 0 },
		{ "prog-12000.jpg", 1, 2, -EFBIG, 0, 0 },
		{ "zero-16384.png", 1, 2, 0, 241, 241 },
		{ "zero-16384.png", 0, 2, -EFBIG, 0, 0 },
		{ "zero-16384-adam7.png", 1, 2, 0, 241, 241 },
		{ "cut-16384.pgm", 1, 2, -EBADMSG, 0, 0 },
	};
	unsigned int i;
	long rss;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_assert_cmpint(big_load(&cases[i], &rss), ==, cases[i].want);
		/*
		 * the old calls' bound is libjpeg's 512 MiB: their RSS is low
		 * only because nothing is touched (not so under meson's
		 * MALLOC_PERTURB_); the limited ones hold that little
		 */
		if (CHECK_RSS && cases[i].limited)
			g_assert_cmpint(rss, <=, MAX_RSS_KB);
	}
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	if (argc != 2) {
		fprintf(stderr, "usage: test-libfdif-image-limits [--tap] BIG_DIR\n");
		return 2;
	}
	bigdir = argv[1];
	tmpdir = g_dir_make_tmp("fdif-limits-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);
	g_test_add_func("/libfdif/image-limits/palette-trns", test_palette_trns);
	g_test_add_func("/libfdif/image-limits/reduce", test_reduce);
	g_test_add_func("/libfdif/image-limits/api", test_limits_api);
	g_test_add_func("/libfdif/image-limits/jpeg-missing-scan", test_jpeg_missing_scan);
	g_test_add_func("/libfdif/image-limits/big-files", test_big_files);
	ret = g_test_run();
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return ret;
}
