// SPDX-License-Identifier: MIT
/*
 * make-jpeg OUT WIDTH HEIGHT: a flat RGB JPEG of that size, for the CLI's
 * tests of large photos (no image tool needed on the host).
 */
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

int main(int argc, char **argv)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *row;
	unsigned int w, h, x, y;
	FILE *f;

	if (argc != 4)
		return 2;
	w = (unsigned int)strtoul(argv[2], NULL, 10);
	h = (unsigned int)strtoul(argv[3], NULL, 10);
	f = fopen(argv[1], "wb");
	row = malloc((size_t)w * 3);
	if (!f || !row || !w || !h)
		return 1;
	for (x = 0; x < w; x++) {
		row[3 * x] = 200;
		row[3 * x + 1] = 120;
		row[3 * x + 2] = 90;
	}
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = w;
	c.image_height = h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_start_compress(&c, TRUE);
	for (y = 0; y < h; y++)
		jpeg_write_scanlines(&c, &row, 1);
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(row);
	return fclose(f) ? 1 : 0;
}
