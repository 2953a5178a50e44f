// SPDX-License-Identifier: MIT
/*
 * facedet - run the FDIF face detector on a PGM/PPM picture on the host.
 *
 *   facedet [options] PICTURE
 *
 * By default it applies the FDIF contract (facedet_detect) and prints one
 * line per face.  With --rects it runs the plain upright multi-scale
 * detector with OpenCV semantics and prints rectangles, which is what the
 * OpenCV comparison benchmark reads.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "facedet.h"
#include "pnm.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: facedet [options] PICTURE.pgm\n"
		"  --model FILE        cascade XML (default %s)\n"
		"  --min-size N        smallest face side in pixels (default 20)\n"
		"  --dir up|right|left face direction (default up)\n"
		"  --lhit N            likelihood threshold 0..9 (default %d)\n"
		"  --roi X,Y,W,H       region of interest (default whole picture)\n"
		"  --no-rotation       scan only the direction's center angle\n"
		"  --rects             upright multi-scale rectangles, OpenCV semantics\n"
		"  --scale-step F      pyramid step for --rects (default 1.1)\n"
		"  --min-neighbors N   grouping threshold for --rects (default 3)\n"
		"  --repeat N          run N times and print the mean time per frame\n"
		"  --stats             print the detector's counters on stderr\n",
		FACEDET_DEFAULT_MODEL, FACEDET_DEFAULT_LHIT);
}

static int parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > max || *s == '-')
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Wall time, and the process's CPU time: on a shared machine the CPU time
 * of a single-threaded run is hit far less by the other load.
 */
static void now_ms(double t[2])
{
	t[0] = clock_ms(CLOCK_MONOTONIC);
	t[1] = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "min-size", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "lhit", required_argument, NULL, 'l' },
		{ "roi", required_argument, NULL, 'r' },
		{ "no-rotation", no_argument, NULL, 'n' },
		{ "rects", no_argument, NULL, 'R' },
		{ "scale-step", required_argument, NULL, 'S' },
		{ "min-neighbors", required_argument, NULL, 'N' },
		{ "repeat", required_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *model_path = FACEDET_DEFAULT_MODEL;
	struct facedet_params params;
	struct facedet_model *model;
	struct facedet_ctx *ctx;
	unsigned int w, h, repeat = 1, min_neighbors = 3, i;
	double step = 1.1, t0[2], t[2];
	int rects = 0, stats = 0, c, li = 0, n = 0, ret = 1;
	char err[256];
	uint8_t *img;

	facedet_params_default(&params);
	while ((c = getopt_long(argc, argv, "h", opts, &li)) != -1) {
		char *end;

		switch (c) {
		case 'm':
			model_path = optarg;
			break;
		case 's':
			if (parse_uint(optarg, 4096, &params.min_size))
				goto bad;
			break;
		case 'd':
			if (!strcmp(optarg, "up"))
				params.dir = FACEDET_DIR_UP;
			else if (!strcmp(optarg, "right"))
				params.dir = FACEDET_DIR_RIGHT;
			else if (!strcmp(optarg, "left"))
				params.dir = FACEDET_DIR_LEFT;
			else
				goto bad;
			break;
		case 'l':
			if (parse_uint(optarg, FACEDET_MAX_LHIT, &params.lhit))
				goto bad;
			break;
		case 'r':
			if (sscanf(optarg, "%u,%u,%u,%u%c", &params.startx, &params.starty,
				   &params.sizex, &params.sizey, (char *)err) != 4)
				goto bad;
			break;
		case 'n':
			params.flags |= FACEDET_F_NO_ROTATION;
			break;
		case 'R':
			rects = 1;
			break;
		case 'S':
			step = strtod(optarg, &end);
			if (*end || !(step > 1.0))
				goto bad;
			break;
		case 'N':
			if (parse_uint(optarg, 1000, &min_neighbors))
				goto bad;
			break;
		case 'p':
			if (parse_uint(optarg, 1000000, &repeat) || !repeat)
				goto bad;
			break;
		case 'T':
			stats = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "facedet: invalid value '%s' for --%s\n", optarg,
			opts[li].name);
		return 2;
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}

	img = pnm_read_gray(argv[optind], &w, &h);
	if (!img) {
		fprintf(stderr, "facedet: %s: %s\n", argv[optind],
			errno == EINVAL ? "not an 8-bit binary PGM/PPM picture" : strerror(errno));
		return 1;
	}
	c = facedet_model_load(model_path, &model, err, sizeof(err));
	if (c) {
		fprintf(stderr, "facedet: cannot load model: %s\n", err);
		free(img);
		return 1;
	}
	ctx = facedet_ctx_new(model, w, h);
	if (!ctx) {
		fprintf(stderr, "facedet: picture %ux%u too large\n", w, h);
		goto out;
	}

	if (rects) {
		struct facedet_rect r[256];

		now_ms(t0);
		for (i = 0; i < repeat; i++)
			n = facedet_detect_rects(ctx, img, w, h, w, step, params.min_size,
						 (int)min_neighbors, r, 256);
		now_ms(t);
		if (n < 0)
			goto fail;
		for (i = 0; i < (unsigned int)n && i < 256; i++)
			printf("rect %d %d %d %d hits %d\n", r[i].x, r[i].y, r[i].w, r[i].h,
			       r[i].hits);
	} else {
		struct facedet_face f[FACEDET_MAX_FACES];
		const struct facedet_stats *st;

		now_ms(t0);
		for (i = 0; i < repeat; i++)
			n = facedet_detect(ctx, img, w, h, w, &params, f);
		now_ms(t);
		if (n < 0)
			goto fail;
		for (i = 0; i < (unsigned int)n; i++)
			printf("face %u: center %u,%u size %u confidence %u angle %u hits %u\n",
			       i, f[i].cx, f[i].cy, f[i].size, f[i].confidence, f[i].angle,
			       f[i].hits);
		st = facedet_ctx_stats(ctx);
		if (stats)
			fprintf(stderr, "facedet: %u scans, %u windows, %u raw hits, %u groups\n",
				st->scans, st->windows, st->raw_hits, st->groups);
	}
	if (repeat > 1)
		printf("time %.3f ms/frame cpu %.3f ms/frame\n", (t[0] - t0[0]) / repeat,
		       (t[1] - t0[1]) / repeat);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "facedet: detection failed: %s\n", strerror(-n));
out:
	facedet_ctx_free(ctx);
	facedet_model_free(model);
	free(img);
	return ret;
}
