// SPDX-License-Identifier: MIT
/*
 * IGT-style test: faces in a camera's frames. The camera is vivid with its
 * HDMI output looped to its input (guest/vivid/fdif_vivid.c): the marked test
 * pictures written to the output come back as capture frames, in the
 * capture driver's own dma-contig buffers. Each frame is checked to hold
 * the picture shown, its faces against the still picture's result and
 * the marked boxes (never the detector's own output).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <drm_fourcc.h>

#include "kselftest_harness.h"
#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_reach.h"
#include "fdif_truth.h"
#include "fdif_vivid.h"

#define W		320
#define H		240
#define NBUF		4
#define MAX_FACES	64
#define WAIT_NS		(20LL * 1000 * 1000 * 1000)

FIXTURE(camera) {
	struct fdif_device *dev;
	struct fdif_caps caps;
	struct fdif_vivid_feed feed;
	int cap, out;
	void *map[NBUF];
	size_t len[NBUF];
	unsigned int nbuf;
	struct fdif_bo *bo[NBUF];	/* a BO per camera buffer */
	uint8_t blank[W * H];
};

FIXTURE_SETUP(camera)
{
	int err;

	self->cap = self->out = -1;
	ASSERT_EQ(0, fdif_open(&self->dev));
	self->caps.size = sizeof(self->caps);
	ASSERT_EQ(0, fdif_query_caps(self->dev, &self->caps));
	ASSERT_EQ(W, self->caps.frame_width);
	ASSERT_EQ(H, self->caps.frame_height);
	err = fdif_vivid_load();
	/*
	 * vivid is in every guest kernel (accel-fdif/config/fdif.config);
	 * scripts/test.sh fails this skip, a board without it may take it
	 */
	if (err == -ENODEV)
		SKIP(return, "no vivid camera driver (CONFIG_VIDEO_VIVID)");
	ASSERT_EQ(0, err) TH_LOG("vivid with an HDMI loop: %s", strerror(-err));
	self->cap = fdif_vivid_node(V4L2_CAP_VIDEO_CAPTURE);
	self->out = fdif_vivid_node(V4L2_CAP_VIDEO_OUTPUT);
	ASSERT_GE(self->cap, 0);
	ASSERT_GE(self->out, 0);
	ASSERT_EQ(0, fdif_vivid_loop(self->cap, self->out, W, H));
	memset(self->blank, 0x80, sizeof(self->blank));
	ASSERT_EQ(0, fdif_vivid_feed_start(&self->feed, self->out, W, H, self->blank));
}

FIXTURE_TEARDOWN(camera)
{
	struct v4l2_requestbuffers req = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (self->cap >= 0) {
		ioctl(self->cap, VIDIOC_STREAMOFF, &type);
		for (i = 0; i < self->nbuf; i++)
			munmap(self->map[i], self->len[i]);
		ioctl(self->cap, VIDIOC_REQBUFS, &req);
	}
	fdif_vivid_feed_stop(&self->feed);
	for (i = 0; i < NBUF; i++)
		fdif_bo_free(self->bo[i]);
	if (self->cap >= 0)
		close(self->cap);
	if (self->out >= 0)
		close(self->out);
	fdif_close(self->dev);
}

/* the capture side's buffers, mapped and queued, streaming */
static int start_capture(struct __test_metadata *_metadata,
			 FIXTURE_DATA(camera) *self)
{
	struct v4l2_requestbuffers req = {
		.count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (ioctl(self->cap, VIDIOC_REQBUFS, &req))
		return -errno;
	if (req.count < 2)
		return -ENOBUFS;	/* not enough to stream with */
	for (i = 0; i < req.count && i < NBUF; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP, .index = i,
		};

		if (ioctl(self->cap, VIDIOC_QUERYBUF, &b))
			return -errno;
		self->len[i] = b.length;
		self->map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED,
				    self->cap, b.m.offset);
		if (self->map[i] == MAP_FAILED)
			return -errno;
		self->nbuf++;
		if (ioctl(self->cap, VIDIOC_QBUF, &b))
			return -errno;
	}
	return ioctl(self->cap, VIDIOC_STREAMON, &type) ? -errno : 0;
}

static int next_frame(int cap, struct v4l2_buffer *b)
{
	struct pollfd pfd = { .fd = cap, .events = POLLIN };

	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	if (poll(&pfd, 1, 5000) != 1)
		return -ETIMEDOUT;
	return ioctl(cap, VIDIOC_DQBUF, b) ? -errno : 0;
}

/* bytes of @frame (rows @stride apart) that differ from the packed @pic */
static unsigned int differing(const uint8_t *frame, unsigned int stride,
			      const uint8_t *pic)
{
	unsigned int x, y, n = 0;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			n += frame[y * stride + x] != pic[y * W + x];
	return n;
}

/* One upright scan of the W x H grey frame in @bo. */
static int submit_frame(struct fdif_device *dev, struct fdif_bo *bo, struct fdif_job **job)
{
	struct fdif_request r;
	unsigned int n;

	fdif_request_init(&r, sizeof(r));
	r.picture.fourcc = DRM_FORMAT_R8;
	r.picture.width = W;
	r.picture.height = H;
	r.picture.planes[0] = (struct fdif_plane){ bo, 0, W };
	return fdif_submit_requests(dev, &r, 1, job, 1, &n);
}

/* the faces in @pic, still, from a BO of the library's: the reference */
static int still_faces(struct fdif_device *dev, const uint8_t *pic,
		       struct fdif_face *f)
{
	struct fdif_job *job;
	struct fdif_bo *bo;
	void *map;
	int n;

	n = fdif_bo_create(dev, W * H, &bo);
	if (n)
		return n;
	n = fdif_bo_map(bo, &map);
	if (!n) {
		memcpy(map, pic, W * H);
		n = submit_frame(dev, bo, &job);
	}
	if (!n) {
		n = fdif_job_wait(job, WAIT_NS);
		if (!n)
			n = fdif_job_result(job, f, MAX_FACES);
		if (n > MAX_FACES)
			n = -ENOSPC;	/* more than the arrays below hold */
		fdif_job_free(job);
	}
	fdif_bo_free(bo);
	return n;
}

static bool same_faces(const struct fdif_face *a, const struct fdif_face *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].width != b[i].width ||
		    a[i].height != b[i].height || a[i].confidence != b[i].confidence)
			return false;
	return true;
}

/*
 * vivid's exported buffer @exp_fd imported into *@bo: true; false, the
 * test's end, where the guest has RAM beyond the device's reach, whose
 * driver refuses every other exporter's buffer (-EINVAL; the stress
 * guest, docs/driver.md) even a reachable one like vivid's dma-contig
 * frames.
 */
static bool import_frame(struct __test_metadata *_metadata, struct fdif_device *dev,
			 int exp_fd, struct fdif_bo **bo)
{
	int beyond = fdif_ram_beyond_reach();
	int ret = fdif_bo_import(dev, exp_fd, bo);

	EXPECT_LE(0, beyond);
	if (beyond > 0) {
		EXPECT_EQ(-EINVAL, ret) TH_LOG("imported with RAM beyond the device's reach");
		if (!ret) {
			fdif_bo_free(*bo);
			*bo = NULL;
		}
		TH_LOG("refused: this guest has RAM beyond the device's reach");
		return false;
	}
	EXPECT_EQ(0, ret) TH_LOG("import: %s", strerror(-ret));
	return ret == 0;
}

/*
 * Show each marked picture on the looped output; take camera frames until
 * FRAMES of them hold it (the first after a switch may still hold the
 * previous one); for each, queue a job on the frame where the camera wrote
 * it (an import of its dma-buf) or on a copy, and check its faces.
 */
static void stream_pictures(struct __test_metadata *_metadata,
			    FIXTURE_DATA(camera) *self, bool import)
{
	static const char *const names[] = { "astronaut", "hopper", "lfw-15", "landscape" };
	enum { FRAMES = 4, TRIES = 40 };
	struct fdif_bo **bo = self->bo;
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	unsigned int i, k, stride;

	ASSERT_EQ(0, ioctl(self->cap, VIDIOC_G_FMT, &fmt));
	stride = fmt.fmt.pix.bytesperline;
	ASSERT_EQ(0, start_capture(_metadata, self));
	for (i = 0; i < self->nbuf; i++) {
		struct v4l2_exportbuffer exp = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .index = i,
			.flags = O_RDONLY | O_CLOEXEC,
		};

		if (import) {
			ASSERT_EQ(W, stride);
			ASSERT_EQ(0, ioctl(self->cap, VIDIOC_EXPBUF, &exp));
			/* vivid's dma-contig buffers: contiguous, reachable */
			if (!import_frame(_metadata, self->dev, exp.fd, &bo[i])) {
				close(exp.fd);
				return;
			}
			close(exp.fd);
		} else {
			ASSERT_EQ(0, fdif_bo_create(self->dev, W * H, &bo[i]));
		}
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct fdif_face still[MAX_FACES], got[MAX_FACES];
		struct fdif_box truth[MAX_FACES];
		struct fdif_image img;
		char path[64];
		int nstill, ntruth, n, matched = 0, tries = 0;

		snprintf(path, sizeof(path), "/data/%s.pgm", names[k]);
		ASSERT_EQ(0, fdif_image_load(path, &img));
		ASSERT_EQ(W, img.width);
		ASSERT_EQ(H, img.height);
		ASSERT_EQ(W, img.stride);
		ntruth = fdif_load_truth(names[k], truth, MAX_FACES);
		ASSERT_GE(ntruth, 0);
		nstill = still_faces(self->dev, img.pixels, still);
		ASSERT_GE(nstill, 0);
		ASSERT_EQ(0, fdif_vivid_show(&self->feed, img.pixels));
		while (matched < FRAMES && tries++ < TRIES) {
			struct fdif_job *job;
			struct v4l2_buffer b;
			const uint8_t *frame;
			void *map;

			ASSERT_EQ(0, next_frame(self->cap, &b));
			frame = self->map[b.index];
			/* a frame from before the switch: give it back */
			if (differing(frame, stride, img.pixels)) {
				ASSERT_EQ(0, ioctl(self->cap, VIDIOC_QBUF, &b));
				continue;
			}
			if (!import) {
				ASSERT_EQ(0, fdif_bo_map(bo[b.index], &map));
				for (unsigned int y = 0; y < H; y++)
					memcpy((uint8_t *)map + y * W, frame + y * stride, W);
			}
			ASSERT_EQ(0, submit_frame(self->dev, bo[b.index], &job));
			ASSERT_EQ(0, fdif_job_wait(job, WAIT_NS));
			n = fdif_job_result(job, got, MAX_FACES);
			fdif_job_free(job);
			ASSERT_EQ(0, ioctl(self->cap, VIDIOC_QBUF, &b));
			ASSERT_EQ(nstill, n) TH_LOG("%s frame %u: %d faces, %d still",
						    names[k], b.sequence, n, nstill);
			EXPECT_TRUE(same_faces(still, got, n));
			/* every face found is on a marked one */
			for (int f = 0; f < n; f++) {
				bool held = false;

				for (int t = 0; t < ntruth; t++)
					held |= fdif_box_holds(&truth[t], got[f].x, got[f].y,
							       got[f].width);
				EXPECT_TRUE(held) TH_LOG("%s: face at %.0f,%.0f size %.0f is not marked",
							 names[k], got[f].x, got[f].y, got[f].width);
			}
			/* a picture with marked faces gives some */
			EXPECT_EQ(ntruth > 0, n > 0);
			matched++;
		}
		ASSERT_EQ(FRAMES, matched) TH_LOG("%s: %d of %d camera frames held it",
						  names[k], matched, tries);
		TH_LOG("%s: %d faces (%d marked) in %d frames", names[k], nstill, ntruth, matched);
		fdif_image_free(&img);
	}
}

/* The device reads each frame in the camera's own buffer: no copy. */
TEST_F(camera, frames_imported_hold_marked_faces)
{
	stream_pictures(_metadata, self, true);
}

/* The same frames through a copy into BOs of the library's. */
TEST_F(camera, frames_copied_hold_marked_faces)
{
	stream_pictures(_metadata, self, false);
}

/*
 * A camera frame too small for the device (160x120): the import works (a
 * dma-buf is a dma-buf), the job on it is refused with -EINVAL, nothing
 * runs, and the stream goes on.
 */
TEST_F(camera, small_frame_refused)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_exportbuffer exp = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .flags = O_RDONLY | O_CLOEXEC,
	};
	struct fdif_job *job = NULL;
	struct v4l2_buffer b;

	fdif_vivid_feed_stop(&self->feed);
	ASSERT_EQ(0, ioctl(self->cap, VIDIOC_G_FMT, &fmt));
	fmt.fmt.pix.width = 160;
	fmt.fmt.pix.height = 120;
	ASSERT_EQ(0, ioctl(self->cap, VIDIOC_S_FMT, &fmt));
	ASSERT_EQ(160, fmt.fmt.pix.width);
	ASSERT_EQ(0, start_capture(_metadata, self));
	ASSERT_LT(self->len[0], W * H);
	ASSERT_EQ(0, ioctl(self->cap, VIDIOC_EXPBUF, &exp));
	if (!import_frame(_metadata, self->dev, exp.fd, &self->bo[0])) {
		close(exp.fd);
		return;
	}
	close(exp.fd);
	EXPECT_EQ(-EINVAL, submit_frame(self->dev, self->bo[0], &job));
	EXPECT_EQ(NULL, job);
	ASSERT_EQ(0, next_frame(self->cap, &b));
	EXPECT_EQ(0, ioctl(self->cap, VIDIOC_QBUF, &b));
}

TEST_HARNESS_MAIN
