// SPDX-License-Identifier: MIT
/*
 * make-big-images DIR: small files that claim huge pictures, for the
 * memory tests (test-image-rss.sh, test-image-limits.c); made here, not
 * committed:
 *   exif6-16384.jpg   a 16x16 baseline JPEG with EXIF orientation 6, its
 *                     SOF0 patched to 16384x16384, its scan data dropped
 *                     (the SOS header, then EOI): under 1 KB
 *   prog-12000.jpg    a 16x16 progressive 4:2:0 JPEG, SOF2 patched to
 *                     12000x12000, its scans dropped
 *   zero-16384.png    a real 16384x16384 RGB PNG, every row zero (zlib
 *                     compresses 805 MB of zeros to under 1 MB; written
 *                     row by row through libpng, make-files.h)
 *   zero-16384-adam7.png  the same, grey and interlaced (Adam7)
 *   cut-16384.pgm     a PGM header claiming 16384x16384, a row of data
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "make-files.h"

static void put_be16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void done(FILE *f)
{
	if (fclose(f)) {
		perror("make-big-images");
		exit(1);
	}
}

/*
 * A 16x16 JPEG (progressive or not, with EXIF orientation @o if not 0),
 * its frame header claiming @w x @h, everything after the first SOS
 * header replaced by EOI.
 */
static void jpeg_claiming(FILE *out, int progressive, unsigned int o,
			  unsigned int w, unsigned int h)
{
	static const uint8_t exif[] = {
		'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
		0, 1,				/* one entry */
		0x01, 0x12, 0, 3, 0, 0, 0, 1,	/* Orientation, SHORT, 1 */
		0, 0, 0, 0, 0, 0, 0, 0,		/* its value, no next IFD */
	};
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *buf = NULL, row[16 * 3];
	unsigned long len = 0;
	uint8_t app1[sizeof(exif)];
	size_t i;
	unsigned int x, y;

	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &buf, &len);
	c.image_width = 16;
	c.image_height = 16;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	if (progressive)
		jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	if (o) {
		memcpy(app1, exif, sizeof(exif));
		app1[25] = (uint8_t)o;
		jpeg_write_marker(&c, JPEG_APP0 + 1, app1, sizeof(app1));
	}
	for (y = 0; y < 16; y++) {
		JSAMPROW r = row;

		for (x = 0; x < 16 * 3; x++)
			row[x] = (uint8_t)(x * 5 + y * 9);
		jpeg_write_scanlines(&c, &r, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	/* the markers after SOI: FF xx LEN16 ...; up to the first SOS */
	for (i = 2; i + 4 <= len && buf[i] == 0xff;) {
		unsigned int marker = buf[i + 1], n = (unsigned int)buf[i + 2] << 8 | buf[i + 3];

		if (marker == 0xc0 || marker == 0xc2) {
			put_be16(buf + i + 5, h);
			put_be16(buf + i + 7, w);
		}
		i += 2 + n;
		if (marker == 0xda)
			break;
	}
	if (i > len)
		exit(1);
	fwrite(buf, 1, i, out);
	fwrite("\xff\xd9", 1, 2, out);
	free(buf);
}

/* every row of the big PNGs: zeros (write_png's buffer is zeroed) */
static void zero_row(unsigned int y, uint8_t *row, size_t len, void *arg)
{
	(void)y, (void)row, (void)len, (void)arg;
}

int main(int argc, char **argv)
{
	static const uint8_t zeros[16384];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: make-big-images DIR\n");
		return 2;
	}
	f = create(argv[1], "exif6-16384.jpg");
	jpeg_claiming(f, 0, 6, 16384, 16384);
	done(f);
	f = create(argv[1], "prog-12000.jpg");
	jpeg_claiming(f, 1, 0, 12000, 12000);
	done(f);
	f = create(argv[1], "zero-16384.png");
	write_png(f, 16384, 16384, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, NULL, 0, NULL, 0,
		  zero_row, NULL);
	done(f);
	f = create(argv[1], "zero-16384-adam7.png");
	write_png(f, 16384, 16384, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7, NULL, 0, NULL, 0,
		  zero_row, NULL);
	done(f);
	f = create(argv[1], "cut-16384.pgm");
	fprintf(f, "P5\n16384 16384\n255\n");
	fwrite(zeros, 1, sizeof(zeros), f);
	done(f);
	return 0;
}
