// SPDX-License-Identifier: MIT
/*
 * make-seeds DIR: the fuzz targets' seed corpora (committed in
 * corpus/png, corpus/jpeg, corpus/pnm; made once by this, kept so that a
 * run starts from valid files of each kind the decoders handle): PNG
 * grey, 16-bit, RGBA, palette with tRNS, interlaced; JPEG baseline,
 * progressive grey, CMYK with EXIF orientation 6; PGM/PPM binary,
 * ASCII, 16-bit. Build: cc make-seeds.c -lpng16 -ljpeg (the PNGs through
 * ../make-files.h, as make-big-images.c writes its own)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "../make-files.h"

/* the seeds' pixels: a palette's indexes, or a pattern */
static void seed_row(unsigned int y, uint8_t *row, size_t len, void *palette)
{
	size_t x;

	for (x = 0; x < len; x++)
		row[x] = palette ? (uint8_t)((x + y) % 3) : (uint8_t)(x * 29 + y * 71);
}

static void png(const char *dir, const char *name, unsigned int w, unsigned int h,
		int depth, int type, int interlace)
{
	static const png_color plte[3] = { { 255, 0, 0 }, { 0, 128, 0 }, { 20, 40, 250 } };
	static const png_byte trns[2] = { 0, 100 };
	int pal = type == PNG_COLOR_TYPE_PALETTE;
	FILE *f = create(dir, name);

	write_png(f, w, h, depth, type, interlace, plte, pal ? 3 : 0, trns, pal ? 2 : 0,
		  seed_row, pal ? (void *)plte : NULL);
	fclose(f);
}

static void jpeg(const char *dir, const char *name, unsigned int w, unsigned int h,
		 int comps, int progressive, int exif6)
{
	static const uint8_t exif[] = {
		'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1,
		0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
	};
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	FILE *f = create(dir, name);
	uint8_t row[16 * 4];
	unsigned int y, x;

	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = w;
	c.image_height = h;
	c.input_components = comps;
	c.in_color_space = comps == 4 ? JCS_CMYK : comps == 3 ? JCS_RGB : JCS_GRAYSCALE;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, 50, TRUE);
	if (progressive)
		jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	if (exif6)
		jpeg_write_marker(&c, JPEG_APP0 + 1, exif, sizeof(exif));
	for (y = 0; y < h; y++) {
		JSAMPROW r = row;

		for (x = 0; x < sizeof(row); x++)
			row[x] = (uint8_t)(x * 13 + y * 37);
		jpeg_write_scanlines(&c, &r, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	fclose(f);
}

int main(int argc, char **argv)
{
	char dir[4096];
	FILE *f;

	if (argc != 2)
		return 2;
	snprintf(dir, sizeof(dir), "%s/png", argv[1]);
	png(dir, "grey.png", 5, 3, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE);
	png(dir, "grey16.png", 4, 2, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE);
	png(dir, "rgba.png", 3, 3, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE);
	png(dir, "palette-trns.png", 6, 4, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE);
	png(dir, "rgb-adam7.png", 9, 7, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7);
	snprintf(dir, sizeof(dir), "%s/jpeg", argv[1]);
	jpeg(dir, "rgb.jpg", 8, 8, 3, 0, 0);
	jpeg(dir, "grey-progressive.jpg", 16, 9, 1, 1, 0);
	jpeg(dir, "cmyk-exif6.jpg", 8, 8, 4, 0, 1);
	snprintf(dir, sizeof(dir), "%s/pnm", argv[1]);
	f = create(dir, "grey.pgm");
	fwrite("P5 3 2 255\n\x01\x80\xff\x10\x20\x30", 1, 17, f);
	fclose(f);
	f = create(dir, "rgb.ppm");
	fwrite("P6\n# c\n2 1\n255\n\x0a\x14\x1e\xff\x00\x80", 1, 22, f);
	fclose(f);
	f = create(dir, "ascii.ppm");
	fputs("P3 2 1 15\n1 2 3\n15 0 7\n", f);
	fclose(f);
	f = create(dir, "sixteen.pgm");
	fwrite("P5 2 1 1000\n\x03\xe8\x01\xf4", 1, 16, f);
	fclose(f);
	return 0;
}
