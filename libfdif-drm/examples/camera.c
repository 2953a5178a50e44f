// SPDX-License-Identifier: MIT
/*
 * fdif-camera: faces in a V4L2 camera's frames, as they come.
 *
 *   fdif-camera [-n FRAMES] [-b BUFFERS] [-f FORMAT] [-c] [-q] /dev/videoN
 *
 * The frame loop of a camera application that does not use GStreamer:
 *
 * - the camera's frames in a format whose first plane is the grey picture
 *   the device reads: GREY, or the luma plane of NV12, NV21, YU12 or YV12
 *   (-f picks one; by default the first of these the camera lists); else
 *   YUYV, whose luma is taken out by a copy;
 * - the camera's own buffers (VIDIOC_REQBUFS with V4L2_MEMORY_MMAP: -b
 *   asked for, default 4, and all the driver grants taken, up to 32), each
 *   exported as a dma-buf (VIDIOC_EXPBUF) and imported once as an FDIF BO
 *   (fdif_bo_import()): the device reads the frame where the camera wrote
 *   it, no copy. Where it cannot (the camera's frames are not the device's
 *   size, its buffers are not contiguous, YUYV, or -c), each frame is
 *   fitted into a BO of the library's instead (fdif_image_fit_frame(): a
 *   copy);
 * - pipelined: the job for frame N+1 is queued before the result of frame
 *   N is read, and a frame goes back to the camera (VIDIOC_QBUF) once its
 *   job is done; a job's sync_file is polled with the camera's node in
 *   mind (a device without one is waited on through the library).
 *
 * Frames the camera marks as damaged (V4L2_BUF_FLAG_ERROR) go back to it
 * unread; MAX_DAMAGED of them in a row end the loop with an error.
 *
 * Prints one line a frame: its sequence number, how it reached the device
 * (import or copy), the face boxes in camera pixels (x y w h, left and top
 * edge); and at the end the frames per second, and how many of the
 * buffers frames came in. Exit status 0, 1 with a message, or 2 for bad
 * arguments.
 * Build: cc camera.c $(pkg-config --cflags --libs libfdif-drm)
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <drm_fourcc.h>
#include <fdif/fdif.h>

#define NBUF	4	/* camera buffers asked for, by default (-b) */
#define MAX_BUF	32	/* taken at most (VIDEO_MAX_FRAME); more stay unused */
#define DEPTH	2	/* frames in flight on the device */
#define MAX_DAMAGED	30	/* damaged frames in a row: the camera is broken */

/* the formats taken, in the order tried: the grey picture first, then YUYV */
static const struct format {
	const char *name;
	uint32_t fourcc;
	bool luma_first;	/* the first plane is the R8 picture: importable */
} formats[] = {
	{ "GREY", V4L2_PIX_FMT_GREY, true },
	{ "NV12", V4L2_PIX_FMT_NV12, true },
	{ "NV21", V4L2_PIX_FMT_NV21, true },
	{ "YU12", V4L2_PIX_FMT_YUV420, true },
	{ "YV12", V4L2_PIX_FMT_YVU420, true },
	{ "YUYV", V4L2_PIX_FMT_YUYV, false },
};
#define NFORMATS	(sizeof(formats) / sizeof(formats[0]))

struct frame {
	unsigned int index;	/* camera buffer */
	unsigned int sequence;
	struct fdif_job *job;
};

static struct {
	int video;
	struct v4l2_pix_format fmt;
	const struct format *format;
	unsigned int nbuf;
	uint8_t *luma;		/* YUYV: a frame's luma, packed */
	void *map[MAX_BUF];
	size_t len[MAX_BUF];
	struct fdif_bo *import[MAX_BUF];	/* NULL: copy path */
	struct fdif_bo *copy[MAX_BUF];
	struct fdif_frame_map fmap[MAX_BUF];
	uint32_t used;		/* the buffers frames came in, a bit each */
	struct fdif_device *dev;
	struct fdif_caps caps;
	bool quiet;
	unsigned int imported, copied, damaged;
} cam;

static int fail(const char *what, int err)
{
	fprintf(stderr, "fdif-camera: %s: %s\n", what,
		err < 0 ? fdif_strerror(err) : strerror(errno));
	return 1;
}

/* poll() one fd, again where a signal interrupted it */
static int poll_one(struct pollfd *pfd, int timeout_ms)
{
	int r;

	do
		r = poll(pfd, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	return r;
}

static int xioctl(unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(cam.video, req, arg);
	while (r && errno == EINTR);
	return r;
}

/* 1 if the camera lists @fourcc among its capture formats */
static bool camera_lists(uint32_t fourcc)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (d.index = 0; !xioctl(VIDIOC_ENUM_FMT, &d); d.index++)
		if (d.pixelformat == fourcc)
			return true;
	return false;
}

/*
 * Frames of the device's size in @want (NULL: the first of formats[] the
 * camera lists) if the camera takes them; else of its own size.
 */
static int setup_camera(const char *node, const struct format *want, bool copy,
			unsigned int nbuf)
{
	struct v4l2_capability vcap = { 0 };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = nbuf, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	cam.video = open(node, O_RDWR | O_CLOEXEC);
	if (cam.video < 0)
		return fail(node, 0);
	if (xioctl(VIDIOC_QUERYCAP, &vcap))
		return fail("VIDIOC_QUERYCAP", 0);
	if (!(vcap.device_caps & V4L2_CAP_VIDEO_CAPTURE) ||
	    !(vcap.device_caps & V4L2_CAP_STREAMING)) {
		fprintf(stderr, "fdif-camera: %s is not a single-planar streaming capture device%s\n",
			node, vcap.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE ?
			" (multi-planar capture is not supported)" : "");
		return 1;
	}
	for (i = 0; !want && i < NFORMATS; i++)
		if (camera_lists(formats[i].fourcc))
			want = &formats[i];
	if (!want) {
		fprintf(stderr, "fdif-camera: %s has none of the formats taken "
			"(GREY, NV12, NV21, YU12, YV12, YUYV)\n", node);
		return 1;
	}
	if (xioctl(VIDIOC_G_FMT, &fmt))
		return fail("VIDIOC_G_FMT", 0);
	fmt.fmt.pix.width = cam.caps.frame_width;
	fmt.fmt.pix.height = cam.caps.frame_height;
	fmt.fmt.pix.pixelformat = want->fourcc;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	fmt.fmt.pix.bytesperline = want->fourcc == V4L2_PIX_FMT_YUYV ? 0 :
				   cam.caps.frame_stride;
	if (xioctl(VIDIOC_S_FMT, &fmt))
		return fail("VIDIOC_S_FMT", 0);
	if (fmt.fmt.pix.pixelformat != want->fourcc) {
		fprintf(stderr, "fdif-camera: %s has no %s frames\n", node, want->name);
		return 1;
	}
	cam.fmt = fmt.fmt.pix;
	cam.format = want;
	if (!want->luma_first) {
		cam.luma = malloc((size_t)cam.fmt.width * cam.fmt.height);
		if (!cam.luma)
			return fail("memory for a frame's luma", -ENOMEM);
	}
	if (xioctl(VIDIOC_REQBUFS, &req))
		return fail("VIDIOC_REQBUFS", 0);
	/* the driver may grant fewer, or more: all are queued, up to MAX_BUF */
	cam.nbuf = req.count < MAX_BUF ? req.count : MAX_BUF;
	if (cam.nbuf < DEPTH + 1) {
		fprintf(stderr, "fdif-camera: %s gave %u buffers, %u needed\n", node,
			req.count, DEPTH + 1);
		return 1;
	}
	/* frames the device reads where they are: its size, stride and alignment */
	copy |= !want->luma_first || cam.fmt.width != cam.caps.frame_width ||
		cam.fmt.height != cam.caps.frame_height ||
		cam.fmt.bytesperline != cam.caps.frame_stride;
	for (i = 0; i < cam.nbuf; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP,
			.index = i,
		};
		struct v4l2_exportbuffer exp = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .index = i,
			.flags = O_RDONLY | O_CLOEXEC,
		};
		int err;

		if (xioctl(VIDIOC_QUERYBUF, &b))
			return fail("VIDIOC_QUERYBUF", 0);
		cam.len[i] = b.length;
		if (b.length < (size_t)cam.fmt.bytesperline * cam.fmt.height) {
			fprintf(stderr, "fdif-camera: a %u-byte buffer for %ux%u frames\n",
				b.length, cam.fmt.width, cam.fmt.height);
			return 1;
		}
		cam.map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, cam.video, b.m.offset);
		if (cam.map[i] == MAP_FAILED)
			return fail("mmap of a camera buffer", 0);
		if (!copy && !xioctl(VIDIOC_EXPBUF, &exp)) {
			/* -EINVAL: not contiguous, or out of the device's reach */
			err = fdif_bo_import(cam.dev, exp.fd, &cam.import[i]);
			close(exp.fd);
			if (err)
				cam.import[i] = NULL;
		}
		if (!cam.import[i]) {
			err = fdif_bo_create(cam.dev, (size_t)cam.caps.frame_stride *
					     cam.caps.frame_height, &cam.copy[i]);
			if (err)
				return fail("fdif_bo_create", err);
		}
		if (xioctl(VIDIOC_QBUF, &b))
			return fail("VIDIOC_QBUF", 0);
	}
	return 0;
}

/* Queue the job for a frame the camera filled. */
/* One upright scan of the device's grey frame in @bo: one job a frame. */
static int queue(struct frame *f, struct fdif_bo *bo)
{
	struct fdif_request r;
	unsigned int n;

	fdif_request_init(&r, sizeof(r));
	r.picture.fourcc = DRM_FORMAT_R8;
	r.picture.width = cam.caps.frame_width;
	r.picture.height = cam.caps.frame_height;
	r.picture.planes[0] = (struct fdif_plane){ bo, 0, cam.caps.frame_stride };
	return fdif_submit_requests(cam.dev, &r, 1, &f->job, 1, &n);
}

static int submit(struct frame *f)
{
	struct fdif_image img = {
		.width = cam.fmt.width, .height = cam.fmt.height, .channels = 1,
		.stride = cam.fmt.bytesperline, .pixels = cam.map[f->index],
	};
	void *frame;
	int err;

	if (!cam.format->luma_first) {
		/* YUYV: Y0 U Y1 V, the luma every other byte */
		const uint8_t *yuyv = cam.map[f->index];

		for (unsigned int y = 0; y < img.height; y++)
			for (unsigned int x = 0; x < img.width; x++)
				cam.luma[(size_t)y * img.width + x] =
					yuyv[(size_t)y * cam.fmt.bytesperline + 2 * x];
		img.pixels = cam.luma;
		img.stride = img.width;
	}

	if (cam.import[f->index]) {
		cam.imported++;
		cam.fmap[f->index] = (struct fdif_frame_map){ .scale = 1 };
		return queue(f, cam.import[f->index]);
	}
	cam.copied++;
	err = fdif_bo_map(cam.copy[f->index], &frame);
	if (!err)
		err = fdif_image_fit_frame(&img, frame, cam.caps.frame_width,
					   cam.caps.frame_height, cam.caps.frame_stride,
					   &cam.fmap[f->index]);
	return err ? err : queue(f, cam.copy[f->index]);
}

/* Wait for a frame's job, print its faces, give the buffer back. */
static int finish(struct frame *f)
{
	struct pollfd pfd = { .fd = fdif_job_fence_fd(f->job), .events = POLLIN };
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP,
		.index = f->index,
	};
	struct fdif_face faces[64];
	int n, i;

	/* no sync_file for this job (fdif_job_fence_fd() failed): the library waits */
	if (pfd.fd < 0 ? fdif_job_wait(f->job, 10000000000LL) : poll_one(&pfd, 10000) != 1)
		return fail("the device did not finish a frame in 10 s", -ETIME);
	n = fdif_job_result(f->job, faces, 64);
	fdif_job_free(f->job);
	f->job = NULL;
	if (n < 0)
		return fail("job", n);
	n = n < 64 ? n : 64;	/* the job's total: those past 64 are not printed */
	if (!cam.quiet) {
		printf("frame %u %s %d", f->sequence,
		       cam.import[f->index] ? "import" : "copy", n);
		for (i = 0; i < n; i++) {
			fdif_map_face(&cam.fmap[f->index], &faces[i]);
			printf(" %.0f %.0f %.0f %.0f", faces[i].x - faces[i].width / 2,
			       faces[i].y - faces[i].height / 2, faces[i].width,
			       faces[i].height);
		}
		printf("\n");
		fflush(stdout);
	}
	return xioctl(VIDIOC_QBUF, &b) ? fail("VIDIOC_QBUF", 0) : 0;
}

static unsigned int bits(uint32_t v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct frame inflight[DEPTH];
	unsigned int frames = 100, nbuf = NBUF, head = 0, count = 0, done = 0, in_a_row = 0;
	unsigned long v;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, opt, err;
	const struct format *want = NULL;
	bool copy = false;
	double t0 = 0;
	char *end;

	while ((opt = getopt(argc, argv, "n:b:f:cq")) != -1) {
		switch (opt) {
		case 'n':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !isdigit((unsigned char)optarg[0]) || !v ||
			    v > UINT_MAX) {
				fprintf(stderr, "fdif-camera: -n %s: want a positive number of frames\n",
					optarg);
				goto usage;
			}
			frames = v;
			break;
		case 'b':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !isdigit((unsigned char)optarg[0]) ||
			    v < DEPTH + 1 || v > MAX_BUF) {
				fprintf(stderr, "fdif-camera: -b %s: want %u to %u buffers\n",
					optarg, DEPTH + 1, MAX_BUF);
				goto usage;
			}
			nbuf = v;
			break;
		case 'f':
			for (want = formats; want < formats + NFORMATS; want++)
				if (!strcasecmp(optarg, want->name))
					break;
			if (want == formats + NFORMATS) {
				fprintf(stderr, "fdif-camera: unknown format %s (GREY, NV12, NV21, "
					"YU12, YV12 or YUYV)\n", optarg);
				goto usage;
			}
			break;
		case 'c': copy = true; break;
		case 'q': cam.quiet = true; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	err = fdif_open(&cam.dev);
	if (err)
		return fail("opening the FDIF", err);
	cam.caps.size = sizeof(cam.caps);
	err = fdif_query_caps(cam.dev, &cam.caps);
	if (err)
		return fail("the FDIF's capabilities", err);
	if (setup_camera(argv[optind], want, copy, nbuf))
		return 1;
	if (xioctl(VIDIOC_STREAMON, &type))
		return fail("VIDIOC_STREAMON", 0);
	while (done < frames) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP,
		};
		struct pollfd pfd = { .fd = cam.video, .events = POLLIN };
		struct frame *f;

		if (count - done == DEPTH || count == frames) {
			/* the oldest frame in flight: done by now, or soon */
			if (finish(&inflight[done % DEPTH]))
				return 1;
			done++;
			continue;
		}
		if (poll_one(&pfd, 5000) != 1)
			return fail("the camera gave no frame in 5 s", -ETIME);
		if (xioctl(VIDIOC_DQBUF, &b))
			return fail("VIDIOC_DQBUF", 0);
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			/* a damaged frame: back to the camera, unread */
			cam.damaged++;
			if (++in_a_row == MAX_DAMAGED) {
				fprintf(stderr, "fdif-camera: %u damaged frames in a row "
					"(V4L2_BUF_FLAG_ERROR): the camera is not working\n",
					in_a_row);
				return 1;
			}
			if (xioctl(VIDIOC_QBUF, &b))
				return fail("VIDIOC_QBUF", 0);
			continue;
		}
		in_a_row = 0;
		if (b.index >= cam.nbuf) {
			fprintf(stderr, "fdif-camera: VIDIOC_DQBUF gave buffer %u, never queued\n",
				b.index);
			return 1;
		}
		cam.used |= 1u << b.index;
		if (!count)
			t0 = now();
		f = &inflight[head++ % DEPTH];
		f->index = b.index;
		f->sequence = b.sequence;
		err = submit(f);
		if (err)
			return fail("submit", err);
		count++;
	}
	fprintf(stderr, "fdif-camera: %u %s frames in %.2f s: %.1f frames/s "
		"(%u imported, %u copied, %u damaged, through %u of %u buffers)\n",
		done, cam.format->name, now() - t0,
		done > 1 ? (done - 1) / (now() - t0) : 0.0,
		cam.imported, cam.copied, cam.damaged, bits(cam.used), cam.nbuf);
	xioctl(VIDIOC_STREAMOFF, &type);
	for (unsigned int i = 0; i < cam.nbuf; i++) {
		fdif_bo_free(cam.import[i]);
		fdif_bo_free(cam.copy[i]);
	}
	free(cam.luma);
	fdif_close(cam.dev);
	return 0;
usage:
	fprintf(stderr, "usage: fdif-camera [-n FRAMES] [-b BUFFERS] [-f GREY|NV12|NV21|YU12|YV12|YUYV] "
		"[-c] [-q] /dev/videoN\n");
	return 2;
}
