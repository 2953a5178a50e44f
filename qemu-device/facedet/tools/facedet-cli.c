// SPDX-License-Identifier: MIT
/*
 * facedet - run the FDIF face detector on a PGM/PPM picture on the host.
 *
 *   facedet [options] PICTURE
 *
 * By default it applies the FDIF contract (facedet_detect) and prints one
 * line per face.  With --rects it runs the plain upright multi-scale
 * detector with OpenCV semantics and prints rectangles, which is what the
 * OpenCV comparison benchmark reads.  With --threads N the FDIF job runs
 * as the emulated device runs it: split into units (facedet_plan_init()
 * with N level bands per angle) taken in turn by N threads, each with its
 * own context, then merged; the faces are facedet_detect()'s.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "facedet.h"
#include "pnm.h"

#define MAX_THREADS FACEDET_MAX_BANDS	/* --threads: one level band each */

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
		"  --threads N         split the job over N threads as the device does (1..%d)\n"
		"  --repeat N          run N times and print the mean time per frame\n"
		"  --stats             print the detector's counters on stderr\n"
		"  --eval NAME         evaluator: auto, sse2, scalar, reference (default\n"
		"                      auto, or $FACEDET_EVAL); all give the same faces\n",
		FACEDET_DEFAULT_MODEL, FACEDET_DEFAULT_LHIT, MAX_THREADS);
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

/* One job split over threads: see --threads. */
struct split {
	struct facedet_ctx *ctx[MAX_THREADS];
	struct facedet_part *part[FACEDET_MAX_UNITS];
	struct facedet_plan plan;
	const uint8_t *img;
	unsigned int stride;
	atomic_uint next;	/* the next unit to take */
	atomic_int err;
};

struct worker {
	struct split *sp;
	unsigned int index;
};

static void *split_worker(void *arg)
{
	const struct worker *wk = arg;
	struct split *sp = wk->sp;
	unsigned int u;
	int r;

	while (!atomic_load(&sp->err) && (u = atomic_fetch_add(&sp->next, 1)) < sp->plan.nunits) {
		r = facedet_run_unit(sp->ctx[wk->index], sp->img, sp->stride, &sp->plan, u,
				     sp->part[u]);
		if (r < 0)
			atomic_store(&sp->err, r);
	}
	return NULL;
}

/* facedet_detect() on @nthreads threads (the calling one among them). */
static int detect_split(struct split *sp, unsigned int nthreads, const uint8_t *img,
			unsigned int w, unsigned int h, const struct facedet_params *p,
			struct facedet_face faces[FACEDET_MAX_FACES])
{
	struct worker wk[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	unsigned int i, started = 1;
	int r;

	r = facedet_plan_init(sp->ctx[0], w, h, p, nthreads, &sp->plan);
	if (r)
		return r;
	sp->img = img;
	sp->stride = w;
	atomic_store(&sp->next, 0);
	atomic_store(&sp->err, 0);
	for (i = 0; i < nthreads; i++)
		wk[i] = (struct worker){ sp, i };
	/* threads that do not start leave their units to the others */
	for (; started < nthreads; started++)
		if (pthread_create(&tid[started], NULL, split_worker, &wk[started]))
			break;
	split_worker(&wk[0]);
	for (i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	r = atomic_load(&sp->err);
	return r ? r : facedet_merge(sp->ctx[0], &sp->plan, sp->part, faces);
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
		{ "threads", required_argument, NULL, 't' },
		{ "stats", no_argument, NULL, 'T' },
		{ "eval", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *model_path = FACEDET_DEFAULT_MODEL;
	struct facedet_params params;
	struct facedet_model *model;
	struct facedet_ctx *ctx;
	unsigned int w, h, repeat = 1, min_neighbors = 3, nthreads = 0, i;
	struct split sp = { 0 };
	double step = 1.1, t0[2], t[2];
	int rects = 0, stats = 0, c, li = 0, n = 0, ret = 1, eval = FACEDET_EVAL_AUTO;
	char err[256];
	uint8_t *img;

	facedet_params_default(&params);
	/* the detector's own tools take the evaluator from the environment */
	if (getenv("FACEDET_EVAL")) {
		eval = facedet_eval_parse(getenv("FACEDET_EVAL"));
		if (eval < 0) {
			fprintf(stderr, "facedet: unknown FACEDET_EVAL '%s'\n",
				getenv("FACEDET_EVAL"));
			return 2;
		}
	}
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
		case 'e':
			eval = facedet_eval_parse(optarg);
			if (eval < 0)
				goto bad;
			break;
		case 't':
			if (parse_uint(optarg, MAX_THREADS, &nthreads) || !nthreads)
				goto bad;
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
	if (nthreads && rects) {
		fprintf(stderr, "facedet: --threads splits the FDIF job, not --rects\n");
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
	facedet_ctx_set_eval(ctx, eval);
	/* --threads: ctx is the first worker's and the merge's */
	sp.ctx[0] = ctx;
	for (i = 1; i < nthreads; i++) {
		sp.ctx[i] = facedet_ctx_new(model, w, h);
		if (!sp.ctx[i]) {
			fprintf(stderr, "facedet: out of memory\n");
			goto out;
		}
		facedet_ctx_set_eval(sp.ctx[i], eval);
	}
	for (i = 0; nthreads && i < FACEDET_MAX_UNITS; i++) {
		sp.part[i] = facedet_part_new();
		if (!sp.part[i]) {
			fprintf(stderr, "facedet: out of memory\n");
			goto out;
		}
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
		for (i = 0; i < repeat && n >= 0; i++)
			n = nthreads ? detect_split(&sp, nthreads, img, w, h, &params, f) :
				facedet_detect(ctx, img, w, h, w, &params, f);
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
	for (i = 1; i < nthreads; i++)
		facedet_ctx_free(sp.ctx[i]);
	for (i = 0; i < FACEDET_MAX_UNITS; i++)
		facedet_part_free(sp.part[i]);
	facedet_ctx_free(ctx);
	facedet_model_free(model);
	free(img);
	return ret;
}
