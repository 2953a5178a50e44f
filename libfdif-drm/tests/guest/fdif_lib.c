// SPDX-License-Identifier: MIT
/* IGT-style test: libfdif-drm on the device (the library's device path). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>

#include "kselftest_harness.h"
#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_truth.h"

#define WAIT_NS		(20LL * 1000 * 1000 * 1000)
#define MAX_FACES	64	/* room for any test picture's faces */

FIXTURE(lib) {
	struct fdif_device *dev;
	struct fdif_caps caps;
};

FIXTURE_SETUP(lib)
{
	if (fdif_open(&self->dev))
		SKIP(return, "no fdif device");
	self->caps.size = sizeof(self->caps);
	ASSERT_EQ(0, fdif_query_caps(self->dev, &self->caps));
}

FIXTURE_TEARDOWN(lib)
{
	fdif_close(self->dev);
}

/* A job on the device's grey frame in @bo: one upright scan. */
static int submit_frame(struct fdif_device *dev, const struct fdif_caps *c,
			struct fdif_bo *bo, struct fdif_job **job)
{
	struct fdif_request r;
	unsigned int n;

	fdif_request_init(&r, sizeof(r));
	r.picture.fourcc = DRM_FORMAT_R8;
	r.picture.width = c->frame_width;
	r.picture.height = c->frame_height;
	r.picture.planes[0] = (struct fdif_plane){ bo, 0, c->frame_stride };
	return fdif_submit_requests(dev, &r, 1, job, 1, &n);
}

/* The astronaut fitted into a new frame BO of @dev's. */
static void astronaut_frame(struct __test_metadata *_metadata, struct fdif_device *dev,
			    const struct fdif_caps *c, struct fdif_bo **bo)
{
	struct fdif_frame_map map;
	struct fdif_image img;
	void *pix;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut.pgm", &img));
	ASSERT_EQ(0, fdif_bo_create(dev, (size_t)c->frame_stride * c->frame_height, bo));
	ASSERT_EQ(0, fdif_bo_map(*bo, &pix));
	ASSERT_EQ(0, fdif_image_fit_frame(&img, pix, c->frame_width, c->frame_height,
					  c->frame_stride, &map));
	fdif_image_free(&img);
}

/* What the OMAP4 generation answers, through the size-prefixed caps */
TEST_F(lib, caps)
{
	struct fdif_caps *c = &self->caps;
	struct fdif_size ms;

	EXPECT_EQ(sizeof(*c), c->size);
	EXPECT_EQ(1, c->generation);
	EXPECT_EQ(320, c->frame_width);
	EXPECT_EQ(240, c->frame_height);
	EXPECT_EQ(4, c->num_min_sizes);
	ASSERT_EQ(0, fdif_query_min_size(self->dev, 0, &ms));
	EXPECT_EQ(20, ms.width);
	ASSERT_EQ(0, fdif_query_min_size(self->dev, 3, &ms));
	EXPECT_EQ(40, ms.width);
	EXPECT_EQ(-ENOENT, fdif_query_min_size(self->dev, 4, &ms));
	EXPECT_EQ(FDIF_DIR_UP | FDIF_DIR_RIGHT | FDIF_DIR_LEFT, c->directions);
	EXPECT_EQ(FDIF_CLASS_FACE, c->classes);
}

TEST_F(lib, open_path_not_fdif)
{
	struct fdif_device *d;

	EXPECT_EQ(-ENOENT, fdif_open_path("/dev/nonexistent", &d));
	EXPECT_EQ(-ENODEV, fdif_open_path("/dev/null", &d));
}

/* The original 512x512 colour PNG, fitted into the frame by the library. */
TEST_F(lib, detect_png_photo)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_box t;
	struct fdif_params p;
	struct fdif_image img;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut.png", &img));
	fdif_params_init(&p, sizeof(p));
	ASSERT_EQ(1, fdif_detect_image(self->dev, &img, &p, f, MAX_FACES));
	/* in the 512x512 picture's own coordinates, on the marked face */
	ASSERT_EQ(1, fdif_load_truth("astronaut.png", &t, 1));
	TH_LOG("face at %.0f,%.0f %.0fx%.0f; marked %.0f,%.0f %.0fx%.0f", f[0].x, f[0].y,
	       f[0].width, f[0].height, t.x, t.y, t.w, t.h);
	EXPECT_TRUE(fdif_box_holds(&t, f[0].x, f[0].y, f[0].width));
	EXPECT_EQ(FDIF_DIR_UP, f[0].direction);
	EXPECT_EQ(FDIF_CLASS_FACE, f[0].object_class);
	/* no room: the total still comes back, nothing written */
	EXPECT_EQ(1, fdif_detect_image(self->dev, &img, &p, NULL, 0));
	fdif_image_free(&img);
}

TEST_F(lib, full_scan_finds_rotated_face)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_params p;
	struct fdif_image img;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut-cw90.pgm", &img));
	fdif_params_init(&p, sizeof(p));
	EXPECT_EQ(0, fdif_detect_image(self->dev, &img, &p, f, MAX_FACES));	/* upright only */
	p.directions = self->caps.directions;
	ASSERT_GE(fdif_detect_image(self->dev, &img, &p, f, MAX_FACES), 1);
	EXPECT_EQ(FDIF_DIR_RIGHT, f[0].direction);
	EXPECT_GE(f[0].angle, 60);
	EXPECT_LE(f[0].angle, 120);
	fdif_image_free(&img);
}

/*
 * A detection without waiting: three scans' fences merged into one
 * sync_file a poll loop waits on, the frame BO reused by the next one.
 */
TEST_F(lib, detection_polled)
{
	struct fdif_detection *d;
	struct fdif_face f[MAX_FACES];
	struct fdif_params p;
	struct fdif_image img;
	struct pollfd pfd = { .events = POLLIN };
	int round;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut-cw90.pgm", &img));
	fdif_params_init(&p, sizeof(p));
	p.directions = self->caps.directions;
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, fdif_detect_start(self->dev, &img, &p, &d));
		pfd.fd = fdif_detection_fence_fd(d);
		ASSERT_GE(pfd.fd, 0);
		ASSERT_EQ(1, poll(&pfd, 1, 20000));
		EXPECT_EQ(0, fdif_detection_wait(d, 0));
		ASSERT_GE(fdif_detection_result(d, f, MAX_FACES), 1);
		EXPECT_EQ(FDIF_DIR_RIGHT, f[0].direction);
		fdif_detection_free(d);
	}
	fdif_image_free(&img);
}

TEST_F(lib, pipelined_jobs)
{
	enum { N = 4 };
	struct fdif_job *jobs[N];
	struct fdif_face f[MAX_FACES];
	struct fdif_bo *frame;
	unsigned int first = N;
	int i;

	astronaut_frame(_metadata, self->dev, &self->caps, &frame);
	/* several jobs on one frame BO in flight, each with its own fence */
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, submit_frame(self->dev, &self->caps, frame, &jobs[i]));
	ASSERT_EQ(0, fdif_jobs_wait(jobs, N, 0, WAIT_NS, &first));
	EXPECT_LT(first, N);
	ASSERT_EQ(0, fdif_jobs_wait(jobs, N, FDIF_WAIT_ALL, WAIT_NS, NULL));
	for (i = 0; i < N; i++) {
		struct pollfd pfd = { .fd = fdif_job_fence_fd(jobs[i]), .events = POLLIN };

		ASSERT_EQ(1, poll(&pfd, 1, 0));
		EXPECT_EQ(0, drmSyncobjWait(fdif_device_fd(self->dev),
					    (uint32_t[]){ fdif_job_syncobj(jobs[i]) }, 1,
					    0, 0, NULL));
		ASSERT_EQ(1, fdif_job_result(jobs[i], f, MAX_FACES));
		fdif_job_free(jobs[i]);
	}
	fdif_bo_free(frame);
}

/*
 * A BO of another open file: its handle means nothing here (-EXDEV, the
 * kernel never asked); exported (fdif_bo_export()) and imported, it is.
 */
TEST_F(lib, import_dmabuf)
{
	struct fdif_device *other;
	struct fdif_bo *src, *imp;
	struct fdif_job *job;
	struct fdif_face f[MAX_FACES];
	int fd;

	ASSERT_EQ(0, fdif_open(&other));
	astronaut_frame(_metadata, other, &self->caps, &src);
	EXPECT_EQ(-EXDEV, submit_frame(self->dev, &self->caps, src, &job));
	ASSERT_EQ(0, fdif_bo_export(src, &fd));
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(0, fdif_bo_import(self->dev, fd, &imp));
	EXPECT_GE(fdif_bo_size(imp), 320 * 240);
	close(fd);
	ASSERT_EQ(0, submit_frame(self->dev, &self->caps, imp, &job));
	ASSERT_EQ(0, fdif_job_wait(job, WAIT_NS));
	EXPECT_EQ(1, fdif_job_result(job, f, MAX_FACES));
	fdif_job_free(job);
	fdif_bo_free(imp);
	fdif_bo_free(src);
	fdif_close(other);
}

TEST_F(lib, job_errors)
{
	struct fdif_params p;
	struct fdif_image img = { 64, 64, 1, 64, NULL };
	struct fdif_bo *small;
	struct fdif_job *job;
	struct fdif_face f[1];

	ASSERT_EQ(0, fdif_bo_create(self->dev, 4096, &small));
	EXPECT_EQ(-EINVAL, submit_frame(self->dev, &self->caps, small, &job));
	fdif_bo_free(small);
	img.pixels = calloc(64, 64);
	ASSERT_NE(NULL, img.pixels);
	fdif_params_init(&p, sizeof(p));
	p.directions = 1u << 5;		/* a direction the device does not scan */
	EXPECT_EQ(-EINVAL, fdif_detect_image(self->dev, &img, &p, f, 1));
	fdif_params_init(&p, sizeof(p));
	p.roi_x = 60;			/* past the picture's right edge */
	p.roi_width = 20;
	p.roi_height = 20;
	EXPECT_EQ(-EINVAL, fdif_detect_image(self->dev, &img, &p, f, 1));
	free(img.pixels);
}

TEST_HARNESS_MAIN
