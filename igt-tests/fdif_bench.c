// SPDX-License-Identifier: MIT
/*
 * fdif_bench - measure the FDIF stack in the guest (not a test: it prints
 * numbers and asserts nothing). Run by scripts/bench.sh.
 *
 *   fdif_bench throughput JOBS_PER_RUN [NODE]
 *                                          jobs/s and device utilization
 *                                          with 1, 2, 4, 8 jobs in flight
 *                                          from one client and from 4
 *   fdif_bench compare JOBS ROUNDS NODE...  one client, 2 in flight, on
 *                                          each node in turn, ROUNDS times
 *                                          (devices set up differently),
 *                                          with the timing model and, with
 *                                          test-regs=on, without it
 *   fdif_bench overhead JOBS [NODE]        submit-to-signal minus device
 *                                          time, timing model at 0
 *   fdif_bench library IMAGE RUNS [NODE]   fdif_detect_image() stages
 *
 * NODE is a /dev/accel node; without it, the first fdif device.
 *
 * Device time is the driver's fdinfo busy counter (drm-engine-fdif);
 * the timing model's frame time is read from the emulated device.
 * Output lines are "key value..." for the script to tabulate.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_emu.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* drm-engine-fdif of one open device file, in ns */
static long long busy_ns(struct fdif_device *dev)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fdif_device_fd(dev));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "drm-engine-fdif:", 16))
			v = strtoll(line + 16, NULL, 10);
	fclose(f);
	return v;
}

/* The instance whose timing model is off, and its frame time before. */
static struct {
	int minor;
	int saved;
} model = { .minor = -1 };

/*
 * Turn instance @minor's timing model off until model_restore() (or
 * die()). Return: whether it could (the emulated FDIF with test-regs=on).
 */
static int model_off(int minor)
{
	int saved = fdif_emu_frame_time_get(minor);

	if (saved < 0 || fdif_emu_frame_time_on(minor, 0))
		return 0;
	model.minor = minor;
	model.saved = saved;
	return 1;
}

static void model_restore(void)
{
	if (model.minor >= 0)
		fdif_emu_frame_time_on(model.minor, (uint32_t)model.saved);
	model.minor = -1;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "fdif_bench: %s: %s\n", what, fdif_strerror(err));
	model_restore();
	exit(1);
}

/* The accel minor of NODE (NULL: the first fdif device), or die. */
static int node_minor(const char *node)
{
	struct fdif_device *dev;
	int ret = node ? fdif_open_path(node, &dev) : fdif_open(&dev);

	if (ret)
		die("open", ret);
	ret = fdif_fd_minor(fdif_device_fd(dev));
	fdif_close(dev);
	if (ret < 0)
		die("minor", ret);
	return ret;
}

/* The emulated OMAP4's frame and result capacity: what is measured */
#define FRAME_W		320
#define FRAME_H		240
#define MAX_FACES	35
#define MAX_RESULTS	(3 * MAX_FACES)

struct client {
	struct fdif_device *dev;
	struct fdif_bo *frame;
	int inflight, jobs;
	struct fdif_request req;	/* an upright scan of the frame */
	pthread_t thread;
};

static int client_submit(struct client *c, struct fdif_job **job)
{
	unsigned int n;

	return fdif_submit_requests(c->dev, &c->req, 1, job, 1, &n);
}

/* NODE: a /dev/accel node, or NULL for the first fdif device */
static void client_init(struct client *c, const uint8_t *frame, const char *node)
{
	void *pix;
	int ret = node ? fdif_open_path(node, &c->dev) : fdif_open(&c->dev);

	if (ret)
		die("open", ret);
	ret = fdif_bo_create(c->dev, FRAME_W * FRAME_H, &c->frame);
	if (!ret)
		ret = fdif_bo_map(c->frame, &pix);
	if (ret)
		die("frame BO", ret);
	memcpy(pix, frame, FRAME_W * FRAME_H);
	fdif_request_init(&c->req, sizeof(c->req));
	c->req.picture.fourcc = DRM_FORMAT_R8;
	c->req.picture.width = FRAME_W;
	c->req.picture.height = FRAME_H;
	c->req.picture.planes[0] = (struct fdif_plane){ c->frame, 0, FRAME_W };
}

/* Keep c->inflight jobs queued until c->jobs have been submitted. */
static void *client_run(void *arg)
{
	struct client *c = arg;
	struct fdif_job *ring[16] = { NULL };
	struct fdif_face f[MAX_FACES];
	int i, ret;

	for (i = 0; i < c->jobs + c->inflight; i++) {
		struct fdif_job **slot = &ring[i % c->inflight];

		if (*slot) {
			ret = fdif_job_wait(*slot, -1);
			if (!ret)
				ret = fdif_job_result(*slot, f, MAX_FACES);
			if (ret < 0)
				die("job", ret);
			fdif_job_free(*slot);
			*slot = NULL;
		}
		if (i < c->jobs) {
			ret = client_submit(c, slot);
			if (ret)
				die("submit", ret);
		}
	}
	return NULL;
}

static void throughput(const uint8_t *frame, int jobs, const char *node)
{
	static const int depths[] = { 1, 2, 4, 8 };
	unsigned int d;
	int nclients, k, us = fdif_emu_frame_time_get(node_minor(node));

	if (us < 0)
		printf("frame_time_us ?\n");	/* not the emulated FDIF */
	else
		printf("frame_time_us %d\n", us);
	for (nclients = 1; nclients <= 4; nclients += 3) {
		for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
			struct client c[4];
			long long busy0 = 0, busy1 = 0;
			double t0, t1;
			int total = 0;

			if (nclients > 1 && depths[d] != 2)
				continue;	/* 4 clients: 2 in flight each */
			for (k = 0; k < nclients; k++) {
				client_init(&c[k], frame, node);
				c[k].inflight = depths[d];
				c[k].jobs = jobs / nclients;
				total += c[k].jobs;
				busy0 += busy_ns(c[k].dev);
			}
			t0 = now_s();
			for (k = 0; k < nclients; k++)
				pthread_create(&c[k].thread, NULL, client_run, &c[k]);
			for (k = 0; k < nclients; k++)
				pthread_join(c[k].thread, NULL);
			t1 = now_s();
			for (k = 0; k < nclients; k++) {
				busy1 += busy_ns(c[k].dev);
				fdif_bo_free(c[k].frame);
				fdif_close(c[k].dev);
			}
			printf("throughput clients %d inflight %d jobs %d wall_s %.3f jobs_per_s %.2f "
			       "device_ms_per_job %.2f utilization %.4f\n",
			       nclients, depths[d], total, t1 - t0, total / (t1 - t0),
			       (busy1 - busy0) / 1e6 / total, (busy1 - busy0) / 1e9 / (t1 - t0));
			fflush(stdout);
		}
	}
}

/* One client with 2 jobs in flight: jobs/s and device ms per job. */
static void measure(const uint8_t *frame, int jobs, const char *node, double *jobs_per_s,
		    double *device_ms)
{
	struct client c;
	long long busy0, busy1;
	double t0, t1;

	client_init(&c, frame, node);
	c.inflight = 2;
	c.jobs = jobs;
	busy0 = busy_ns(c.dev);
	t0 = now_s();
	client_run(&c);
	t1 = now_s();
	busy1 = busy_ns(c.dev);
	fdif_bo_free(c.frame);
	fdif_close(c.dev);
	*jobs_per_s = jobs / (t1 - t0);
	*device_ms = (busy1 - busy0) / 1e6 / jobs;
}

/*
 * The same load (one client, 2 jobs in flight) on each node in turn, for
 * @rounds rounds: devices set up differently (e.g. the emulated FDIF's
 * host threads) measured interleaved, so that a change in the host's load
 * during the run hits them alike.  Each node is measured with its timing
 * model and, where its test registers are on, again with the model at 0:
 * then a job takes as long as the host's detector does.
 */
static void compare(const uint8_t *frame, int jobs, int rounds, char **nodes, int n)
{
	int r, k;

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < n; k++) {
			int minor = node_minor(nodes[k]);
			double js, ms, det_js, det_ms;
			char det[96] = "model0_jobs_per_s - model0_ms_per_job -";

			measure(frame, jobs, nodes[k], &js, &ms);
			if (model_off(minor)) {
				measure(frame, jobs, nodes[k], &det_js, &det_ms);
				model_restore();
				snprintf(det, sizeof(det),
					 "model0_jobs_per_s %.2f model0_ms_per_job %.2f",
					 det_js, det_ms);
			}
			printf("compare node %s round %d jobs %d jobs_per_s %.2f device_ms_per_job %.2f %s\n",
			       nodes[k], r, jobs, js, ms, det);
			fflush(stdout);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void overhead(const uint8_t *frame, int jobs, const char *node)
{
	struct fdif_face f[MAX_FACES];
	struct client c;
	double *lat = calloc(jobs, sizeof(*lat)), *dev_ms = calloc(jobs, sizeof(*dev_ms));
	int i, ret;

	if (!model_off(node_minor(node))) {
		fprintf(stderr, "fdif_bench: overhead needs the emulated FDIF with test-regs=on\n");
		exit(1);
	}
	client_init(&c, frame, node);
	/* a 20x20 blank corner: the detector has next to nothing to do */
	c.req.roi_x = 0;
	c.req.roi_y = 0;
	c.req.roi_width = 20;
	c.req.roi_height = 20;
	for (i = 0; i < jobs; i++) {
		struct fdif_job *job;
		long long b0 = busy_ns(c.dev);
		double t0 = now_s();

		ret = client_submit(&c, &job);
		if (!ret)
			ret = fdif_job_wait(job, -1);
		lat[i] = (now_s() - t0) * 1e3;
		if (!ret)
			ret = fdif_job_result(job, f, MAX_FACES);
		if (ret < 0)
			die("job", ret);
		fdif_job_free(job);
		dev_ms[i] = (busy_ns(c.dev) - b0) / 1e6;
		lat[i] -= dev_ms[i];
	}
	model_restore();
	qsort(lat, jobs, sizeof(*lat), cmp_double);
	qsort(dev_ms, jobs, sizeof(*dev_ms), cmp_double);
	printf("overhead jobs %d median_ms %.3f p99_ms %.3f device_median_ms %.3f\n", jobs,
	       lat[jobs / 2], lat[(jobs * 99) / 100], dev_ms[jobs / 2]);
	fdif_bo_free(c.frame);
	fdif_close(c.dev);
	free(lat);
	free(dev_ms);
}

static void library(const char *path, int runs, const char *node)
{
	static uint8_t frame[FRAME_W * FRAME_H];
	struct fdif_face f[MAX_RESULTS];
	struct fdif_device *dev;
	struct fdif_params p;
	double dec = 0, fit = 0, all = 0;
	int i, n = 0, ret;

	ret = node ? fdif_open_path(node, &dev) : fdif_open(&dev);
	if (ret)
		die("open", ret);
	fdif_params_init(&p, sizeof(p));
	for (i = 0; i < runs; i++) {
		struct fdif_image img;
		struct fdif_frame_map map;
		double t0 = now_s(), t1, t2, t3;

		ret = fdif_image_load(path, &img);
		if (ret)
			die(path, ret);
		t1 = now_s();
		ret = fdif_image_fit_frame(&img, frame, FRAME_W, FRAME_H, FRAME_W, &map);
		if (ret)
			die("fit", ret);
		t2 = now_s();
		n = fdif_detect_image(dev, &img, &p, f, MAX_RESULTS);
		if (n < 0)
			die("detect", n);
		t3 = now_s();
		dec += t1 - t0;
		fit += t2 - t1;
		all += (t1 - t0) + (t3 - t2);
		fdif_image_free(&img);
	}
	printf("library image %s runs %d decode_ms %.2f gray_fit_ms %.2f total_ms %.2f faces %d\n",
	       path, runs, dec * 1e3 / runs, fit * 1e3 / runs, all * 1e3 / runs, n);
	fdif_close(dev);
}

int main(int argc, char **argv)
{
	static uint8_t frame[FRAME_W * FRAME_H];
	struct fdif_frame_map map;
	struct fdif_image img;
	int ret;

	if (argc < 3) {
		fprintf(stderr, "usage: fdif_bench throughput JOBS [NODE] | overhead JOBS [NODE] | "
			"compare JOBS ROUNDS NODE... | library IMAGE RUNS [NODE]\n");
		return 2;
	}
	if (!strcmp(argv[1], "library")) {
		library(argv[2], argc > 3 ? atoi(argv[3]) : 5, argc > 4 ? argv[4] : NULL);
		return 0;
	}
	ret = fdif_image_load("/data/astronaut.pgm", &img);
	if (!ret)
		ret = fdif_image_fit_frame(&img, frame, FRAME_W, FRAME_H, FRAME_W, &map);
	if (ret)
		die("/data/astronaut.pgm", ret);
	if (!strcmp(argv[1], "throughput"))
		throughput(frame, atoi(argv[2]), argc > 3 ? argv[3] : NULL);
	else if (!strcmp(argv[1], "compare") && argc > 4)
		compare(frame, atoi(argv[2]), atoi(argv[3]), argv + 4, argc - 4);
	else if (!strcmp(argv[1], "overhead"))
		overhead(frame, atoi(argv[2]), argc > 3 ? argv[3] : NULL);
	else
		return 2;
	return 0;
}
