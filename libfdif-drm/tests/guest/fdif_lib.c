// SPDX-License-Identifier: MIT
/* IGT-style test: libfdif-drm on the device (the library's device path). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "kselftest_harness.h"
#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_truth.h"

#define WAIT_NS		(20LL * 1000 * 1000 * 1000)

FIXTURE(lib) {
	struct fdif_device *dev;
};

FIXTURE_SETUP(lib)
{
	if (fdif_open(&self->dev))
		SKIP(return, "no fdif device");
}

FIXTURE_TEARDOWN(lib)
{
	fdif_close(self->dev);
}

TEST_F(lib, caps)
{
	struct fdif_caps c;

	ASSERT_EQ(0, fdif_query_caps(self->dev, &c));
	EXPECT_EQ(320, c.max_width);
	EXPECT_EQ(240, c.max_height);
	EXPECT_EQ(4, c.num_min_sizes);
	EXPECT_EQ(20, c.min_sizes[0]);
	EXPECT_EQ(40, c.min_sizes[3]);
	EXPECT_EQ(7, c.directions);
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
	struct fdif_face f[FDIF_MAX_RESULTS];
	struct fdif_box t;
	struct fdif_params p;
	struct fdif_image img;
	unsigned int n;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut.png", &img));
	fdif_params_init(&p);
	ASSERT_EQ(0, fdif_detect_image(self->dev, &img, &p, f, FDIF_MAX_RESULTS, &n));
	ASSERT_EQ(1, n);
	/* in the 512x512 picture's own coordinates, on the marked face */
	ASSERT_EQ(1, fdif_load_truth("astronaut.png", &t, 1));
	TH_LOG("face at %.0f,%.0f size %.0f; marked %.0f,%.0f %.0fx%.0f", f[0].x, f[0].y,
	       f[0].size, t.x, t.y, t.w, t.h);
	EXPECT_TRUE(fdif_box_holds(&t, f[0].x, f[0].y, f[0].size));
	fdif_image_free(&img);
}

TEST_F(lib, full_scan_finds_rotated_face)
{
	struct fdif_face f[FDIF_MAX_RESULTS];
	struct fdif_params p;
	struct fdif_image img;
	unsigned int n;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut-cw90.pgm", &img));
	fdif_params_init(&p);
	ASSERT_EQ(0, fdif_detect_image(self->dev, &img, &p, f, FDIF_MAX_RESULTS, &n));
	EXPECT_EQ(0, n);	/* upright only: missed */
	p.direction = FDIF_DIR_ALL;
	ASSERT_EQ(0, fdif_detect_image(self->dev, &img, &p, f, FDIF_MAX_RESULTS, &n));
	ASSERT_GE(n, 1);
	EXPECT_EQ(FDIF_DIR_RIGHT, f[0].direction);
	EXPECT_GE(f[0].angle, 60);
	EXPECT_LE(f[0].angle, 120);
	fdif_image_free(&img);
}

TEST_F(lib, pipelined_jobs)
{
	enum { N = 4 };
	struct fdif_job *jobs[N];
	struct fdif_face f[FDIF_MAX_FACES];
	struct fdif_params p;
	struct fdif_image img;
	struct fdif_frame_map map;
	struct fdif_bo *frame;
	void *pix;
	int i;

	ASSERT_EQ(0, fdif_image_load("/data/astronaut.pgm", &img));
	ASSERT_EQ(0, fdif_bo_create(self->dev, 320 * 240, &frame));
	ASSERT_EQ(0, fdif_bo_map(frame, &pix));
	ASSERT_EQ(0, fdif_image_fit(&img, pix, &map));
	fdif_params_init(&p);
	/* several jobs on one frame BO in flight, each with its own fence */
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, fdif_submit(self->dev, frame, 0, &p, &jobs[i]));
	for (i = 0; i < N; i++) {
		struct pollfd pfd = { .fd = fdif_job_fence_fd(jobs[i]), .events = POLLIN };

		ASSERT_EQ(1, poll(&pfd, 1, 20000));
		EXPECT_EQ(0, drmSyncobjWait(fdif_device_fd(self->dev),
					    (uint32_t[]){ fdif_job_syncobj(jobs[i]) }, 1,
					    0, 0, NULL));
		ASSERT_EQ(1, fdif_job_result(jobs[i], f, FDIF_MAX_FACES));
		fdif_job_free(jobs[i]);
	}
	fdif_bo_free(frame);
	fdif_image_free(&img);
}

/* A dma-buf from elsewhere (here: exported by another open file). */
TEST_F(lib, import_dmabuf)
{
	struct fdif_device *other;
	struct fdif_bo *src, *imp;
	struct fdif_job *job;
	struct fdif_face f[FDIF_MAX_FACES];
	struct fdif_params p;
	struct fdif_image img;
	struct fdif_frame_map map;
	void *pix;
	int fd;

	ASSERT_EQ(0, fdif_open(&other));
	ASSERT_EQ(0, fdif_bo_create(other, 320 * 240, &src));
	ASSERT_EQ(0, fdif_bo_map(src, &pix));
	ASSERT_EQ(0, fdif_image_load("/data/astronaut.pgm", &img));
	ASSERT_EQ(0, fdif_image_fit(&img, pix, &map));
	ASSERT_EQ(0, drmPrimeHandleToFD(fdif_device_fd(other), fdif_bo_handle(src),
					DRM_CLOEXEC, &fd));
	ASSERT_EQ(0, fdif_bo_import(self->dev, fd, &imp));
	EXPECT_GE(fdif_bo_size(imp), 320 * 240);
	close(fd);
	fdif_params_init(&p);
	ASSERT_EQ(0, fdif_submit(self->dev, imp, 0, &p, &job));
	ASSERT_EQ(0, fdif_job_wait(job, WAIT_NS));
	EXPECT_EQ(1, fdif_job_result(job, f, FDIF_MAX_FACES));
	fdif_job_free(job);
	fdif_bo_free(imp);
	fdif_bo_free(src);
	fdif_close(other);
	fdif_image_free(&img);
}

TEST_F(lib, job_errors)
{
	struct fdif_params p;
	struct fdif_bo *small;
	struct fdif_job *job;

	ASSERT_EQ(0, fdif_bo_create(self->dev, 4096, &small));
	fdif_params_init(&p);
	EXPECT_EQ(-EINVAL, fdif_submit(self->dev, small, 0, &p, &job));
	p.direction = FDIF_DIR_ALL;
	EXPECT_EQ(-EINVAL, fdif_submit(self->dev, small, 0, &p, &job));
	fdif_bo_free(small);
}

TEST_HARNESS_MAIN
