// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for one of libfdif-image's decoders, chosen at build
 * time (FUZZ_PNG, FUZZ_JPEG, FUZZ_PNM): the input's first bytes are made
 * that format's magic, so that every input reaches that decoder, and it
 * is decoded as fdif-detect does (grey and reduced for a 320x240 frame,
 * from memory, and whole in colour, from a stream that cannot seek, as a
 * pipe: fdif_image_load_file()) within fdif-detect's limits. Built with clang
 * -fsanitize=fuzzer,address,undefined (meson -Dfuzz=enabled; run by
 * run-fuzz.sh for a fixed budget): a crash, a leak, undefined behaviour
 * or a hang fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fdif/fdif.h"
#include "fdif/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the input as a stream with no seek, as a pipe is */
struct pipe_like {
	const uint8_t *data;
	size_t size, pos;
};

static ssize_t pipe_like_read(void *cookie, char *buf, size_t size)
{
	struct pipe_like *p = cookie;
	size_t n = p->size - p->pos < size ? p->size - p->pos : size;

	memcpy(buf, p->data + p->pos, n);
	p->pos += n;
	return (ssize_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if defined(FUZZ_PNG)
	static const uint8_t magic[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
#elif defined(FUZZ_JPEG)
	static const uint8_t magic[] = { 0xff, 0xd8, 0xff };
#elif defined(FUZZ_PNM)
	static const uint8_t magic[] = { 'P' };
#else
#error "FUZZ_PNG, FUZZ_JPEG or FUZZ_PNM"
#endif
	static const cookie_io_functions_t io = { .read = pipe_like_read };
	struct fdif_image_limits lim = { .size = sizeof(lim), .max_pixels = 12u << 20,
					 .max_bytes = 48u << 20 };
	struct fdif_image img;
	struct fdif_image_info info;
	struct pipe_like p;
	uint8_t *buf;
	FILE *f;
	size_t n = size > sizeof(magic) ? size : sizeof(magic) + 1;

	buf = malloc(n);
	if (!buf)
		return 0;
	memset(buf, 0, n);
	memcpy(buf, data, size);
	memcpy(buf, magic, sizeof(magic));
#if defined(FUZZ_PNM)
	buf[1] = "2356"[buf[1] & 3];	/* P2, P3, P5, P6 */
#endif
	if (!fdif_image_load_gray_limited(NULL, buf, n, 320, 240, &lim, &img, &info))
		fdif_image_free(&img);
	p = (struct pipe_like){ buf, n, 0 };
	f = fopencookie(&p, "r", io);
	if (f) {
		if (!fdif_image_load_file(f, &lim, &img))
			fdif_image_free(&img);
		fclose(f);
	}
	free(buf);
	return 0;
}
