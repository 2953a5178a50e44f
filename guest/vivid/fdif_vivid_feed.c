// SPDX-License-Identifier: MIT
/*
 * fdif-vivid-feed: the guest's camera, showing pictures.
 *
 *   fdif-vivid-feed [-s SECONDS] [-t SECONDS] [-g WxH] [-f FORMAT] [-e MS] PICTURE...
 *
 * Loads vivid with its HDMI output looped to its input (fdif_vivid.c)
 * and plays the pictures (any size, any format libfdif-image reads; each
 * fitted into a WxH grey frame, default 320x240, sent as -f GREY (the
 * default), NV12, NV21, YU12, YV12 or YUYV with neutral chroma) on the
 * output, each for -s seconds (default 2), in turn, until SIGINT/SIGTERM
 * or -t seconds. Whatever reads the capture node sees them as camera
 * frames; with -e, one frame every MS milliseconds comes marked damaged
 * (V4L2_BUF_FLAG_ERROR), as a camera marks a frame it lost data of. Prints
 * "capture /dev/videoN" once the loop runs, then "show PICTURE" for the
 * first picture and at each switch, on stdout. Not a test: the camera
 * tests and the camera demo (scripts/demo.sh --camera) run it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_vivid.h"

static volatile sig_atomic_t stop;

static const struct {
	const char *name;
	uint32_t fourcc;
} formats[] = {
	{ "GREY", V4L2_PIX_FMT_GREY },
	{ "NV12", V4L2_PIX_FMT_NV12 },
	{ "NV21", V4L2_PIX_FMT_NV21 },
	{ "YU12", V4L2_PIX_FMT_YUV420 },
	{ "YV12", V4L2_PIX_FMT_YVU420 },
	{ "YUYV", V4L2_PIX_FMT_YUYV },
};

static void on_signal(int sig)
{
	stop = 1;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "fdif-vivid-feed: %s: %s\n", what, strerror(-err));
	return 1;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * @path fitted into a @w x @h grey frame, malloc()ed; read as fdif-detect
 * reads a photo (a JPEG decoded grey, reduced to what the frame needs)
 */
static int load(const char *path, unsigned int w, unsigned int h, uint8_t **frame)
{
	struct fdif_image img;
	struct fdif_frame_map map;
	int err = fdif_image_load_gray(path, w, h, &img, NULL);

	if (err)
		return err;
	*frame = malloc((size_t)w * h);
	err = *frame ? fdif_image_fit_frame(&img, *frame, w, h, w, &map) : -ENOMEM;
	fdif_image_free(&img);
	return err;
}

int main(int argc, char **argv)
{
	double each = 2, total = 0, damage = 0, damaged = 0, next;
	unsigned int w = 320, h = 240, i, n;
	struct fdif_vivid_feed feed;
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec t0;
	uint8_t **frames;
	char node[64];
	uint32_t fourcc = V4L2_PIX_FMT_GREY, button = 0;
	int cap, out, err, opt, k;

	while ((opt = getopt(argc, argv, "s:t:g:f:e:")) != -1) {
		switch (opt) {
		case 'f':
			for (k = 0; k < (int)(sizeof(formats) / sizeof(formats[0])); k++)
				if (!strcasecmp(optarg, formats[k].name))
					break;
			if (k == (int)(sizeof(formats) / sizeof(formats[0])))
				goto usage;
			fourcc = formats[k].fourcc;
			break;
		case 'e':
			damage = atof(optarg) / 1000;
			if (damage <= 0)
				goto usage;
			break;
		case 's': each = atof(optarg); break;
		case 't': total = atof(optarg); break;
		case 'g':
			if (sscanf(optarg, "%ux%u", &w, &h) != 2 || !w || !h || w > 4096 || h > 4096)
				goto usage;
			break;
		default: goto usage;
		}
	}
	n = argc - optind;
	if (!n || each <= 0)
		goto usage;
	frames = calloc(n, sizeof(*frames));
	if (!frames)
		return fail("memory", -ENOMEM);
	for (i = 0; i < n; i++) {
		err = load(argv[optind + i], w, h, &frames[i]);
		if (err) {
			/* the picture library's words: "unsupported image format"... */
			fprintf(stderr, "fdif-vivid-feed: %s: %s\n", argv[optind + i],
				fdif_strerror(err));
			return 1;
		}
	}
	err = fdif_vivid_load();
	if (err)
		return fail("loading vivid with an HDMI loop", err);
	cap = fdif_vivid_node(V4L2_CAP_VIDEO_CAPTURE);
	out = fdif_vivid_node(V4L2_CAP_VIDEO_OUTPUT);
	if (cap < 0 || out < 0)
		return fail("vivid's capture and output nodes", cap < 0 ? cap : out);
	err = fdif_vivid_loop_fmt(cap, out, w, h, fourcc);
	if (err)
		return fail("looping vivid's output to its input", err);
	if (damage > 0) {
		err = fdif_vivid_damage_ctrl(out, &button);
		if (err)
			return fail("vivid's Inject V4L2_BUF_FLAG_ERROR button", err);
	}
	snprintf(node, sizeof(node), "/proc/self/fd/%d", cap);
	{
		char target[64] = "";

		if (readlink(node, target, sizeof(target) - 1) < 0)
			return fail("the capture node's name", -errno);
		snprintf(node, sizeof(node), "%s", target);
	}
	/* the capture node is for the reader: this process only set it up */
	close(cap);
	err = fdif_vivid_feed_start(&feed, out, w, h, frames[0]);
	if (err)
		return fail("streaming the output", err);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("capture %s\nshow %s\n", node, argv[optind]);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0, next = each; !stop && !(total > 0 && since(&t0) >= total);) {
		/*
		 * a picture stays on show by itself: only another one is
		 * shown, before any press (a switch takes a pending damage
		 * mark), and the next switch is a whole -s after this one
		 * however long the output took
		 */
		if (n > 1 && since(&t0) >= next) {
			i = (i + 1) % n;
			err = fdif_vivid_show(&feed, frames[i]);
			if (err)
				return fail("the output stopped", err);
			printf("show %s\n", argv[optind + i]);
			fflush(stdout);
			next = since(&t0) + each;
		}
		if (damage > 0 && since(&t0) >= damaged) {
			err = fdif_vivid_damage_next(out, button);
			if (err)
				return fail("marking a frame damaged", err);
			damaged = since(&t0) + damage;
		}
		usleep(damage > 0 && damage < 0.02 ? damage * 1e6 : 20000);
	}
	fdif_vivid_feed_stop(&feed);
	close(out);
	return 0;
usage:
	fprintf(stderr, "usage: fdif-vivid-feed [-s SECONDS] [-t SECONDS] [-g WxH] "
		"[-f GREY|NV12|NV21|YU12|YV12|YUYV] [-e MS] PICTURE...\n");
	return 2;
}
