/* SPDX-License-Identifier: MIT */
/*
 * What the programs that make test files share (make-big-images.c, run
 * by the build; fuzz/make-seeds.c, run once by hand): a file created in a
 * folder, and a PNG written through libpng (Debian's libpng-dev), row by
 * row, so that a huge picture never sits in memory.
 */
#ifndef MAKE_FILES_H
#define MAKE_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <png.h>

/* DIR/NAME opened for writing; a failure ends the program. */
static FILE *create(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

/*
 * A @w x @h PNG of @depth bits, colour @type and @interlace (libpng's
 * PNG_COLOR_TYPE_*, PNG_INTERLACE_*) to @f, unfiltered: @fill(y, row,
 * len, arg) fills each row (len bytes; the rows of an interlaced one are
 * whole rows, from which each pass takes its pixels). A palette picture
 * gets @plte (@nplte colours) and, if @ntrns, its tRNS @trns. A failure
 * ends the program.
 */
static void write_png(FILE *f, unsigned int w, unsigned int h, int depth, int type,
		      int interlace, const png_color *plte, int nplte,
		      const png_byte *trns, int ntrns,
		      void (*fill)(unsigned int y, uint8_t *row, size_t len, void *arg),
		      void *arg)
{
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	uint8_t *volatile row = NULL;
	size_t len;
	unsigned int y;
	int pass, passes;

	if (!info || setjmp(png_jmpbuf(p))) {
		fprintf(stderr, "libpng could not write the picture\n");
		exit(1);
	}
	png_init_io(p, f);
	png_set_IHDR(p, info, w, h, depth, type, interlace, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_set_filter(p, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	if (nplte)
		png_set_PLTE(p, info, plte, nplte);
	if (ntrns)
		png_set_tRNS(p, info, trns, ntrns, NULL);
	png_write_info(p, info);
	passes = png_set_interlace_handling(p);
	len = png_get_rowbytes(p, info);
	row = calloc(1, len);
	if (!row) {
		perror("write_png");
		exit(1);
	}
	for (pass = 0; pass < passes; pass++) {
		for (y = 0; y < h; y++) {
			fill(y, row, len, arg);
			png_write_row(p, row);
		}
	}
	png_write_end(p, NULL);
	png_destroy_write_struct(&p, &info);
	free(row);
}

#endif
