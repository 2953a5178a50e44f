// SPDX-License-Identifier: MIT
/*
 * Host tests of libfdif-drm's device path against a fake kernel: the
 * library's sources are linked with libdrm and with the fake's drmIoctl(),
 * drmGetVersion() and drmPrimeFDToHandle() (mock-kernel.c) in place of
 * libdrm's; libdrm's other helpers stay its own and reach the fake
 * drmIoctl() through libdrm's PLT. The fake answers the
 * queries as the fdif uAPI's contract says the OMAP4 generation does (or,
 * with "extra", as a later kernel whose answers, entries, result header and
 * objects have grown at the end), keeps its BOs in a temporary file that
 * the library mmap()s, and writes results into them on submission.
 *
 * What this checks is the library's side of the contract: the queries
 * read by the sizes the kernel reports, jobs built from the answers, the
 * absolute wait deadline, results stepped through by the header's sizes
 * and their fields mask. The driver itself is tested in the guest.
 *
 * Like the kernel, the fake takes calls from several threads at once: one
 * lock (mock_lock) serialises its ioctls, as the driver's locks do. In the
 * ThreadSanitizer build that lock is one the sanitizer does not see, and
 * the fake is not instrumented (MOCK_LOCK_UNSEEN), as with a real kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <drm_fourcc.h>
#include <xf86drm.h>

#include "fdif_accel.h"
#include "fdif/fdif.h"
#include "mock-kernel.h"

static char *tmpdir, *dev_path;

/*
 * glibc's secure_getenv() as the library sees it: NULL for every name
 * while fake_secure is set, as in a setuid or setcap program (AT_SECURE),
 * where the caller's environment must not choose the device; this
 * program's definition is the one the library's sources linked here call.
 */
static int fake_secure;

char *secure_getenv(const char *name)
{
	return fake_secure ? NULL : getenv(name);
}

/* the tests */

static void fake_reset(void)
{
	if (k.fd > 0)
		close(k.fd);
	memset(&k, 0, sizeof(k));
	k.fd = open(dev_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	g_assert_cmpint(k.fd, >=, 0);
	k.faces[0] = (struct fake_face){ 101, 80, 25, 10, 0, 900, 1, 0x1f, 0 };
	k.faces[1] = (struct fake_face){ 250, 60, 40, 350, 0, 300, 6,
					 DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE, 0 };
	k.nfaces = 2;
}

static struct fdif_device *open_fake(void)
{
	struct fdif_device *dev;

	g_assert_cmpint(fdif_open_path(dev_path, &dev), ==, 0);
	return dev;
}

static void check_caps(uint32_t extra)
{
	struct fdif_format fmt = { .size = sizeof(fmt) };
	struct fdif_caps c = { .size = sizeof(c) };
	struct fdif_device *dev;
	struct fdif_size ms;

	fake_reset();
	k.extra = extra;
	dev = open_fake();
	g_assert_cmpint(fdif_query_caps(dev, &c), ==, 0);
	g_assert_cmpuint(c.size, ==, sizeof(c));
	g_assert_cmpuint(c.generation, ==, 1);
	g_assert_cmpuint(c.revision, ==, 0x42);
	g_assert_cmpuint(c.frame_width, ==, 320);
	g_assert_cmpuint(c.frame_height, ==, 240);
	g_assert_cmpuint(c.frame_stride, ==, 320);
	g_assert_cmpuint(c.frame_align, ==, 32);
	g_assert_cmpuint(c.num_formats, ==, 2);
	g_assert_cmpint(fdif_query_format(dev, 0, &fmt), ==, 0);
	g_assert_cmpuint(fmt.fourcc, ==, DRM_FORMAT_NV12);
	g_assert_cmpint(fdif_query_format(dev, 1, &fmt), ==, 0);
	g_assert_cmpuint(fmt.fourcc, ==, DRM_FORMAT_R8);
	g_assert_cmpuint(c.classes, ==, FDIF_CLASS_FACE);
	g_assert_cmpuint(c.directions, ==, FDIF_DIR_UP | FDIF_DIR_RIGHT | FDIF_DIR_LEFT);
	g_assert_cmpuint(c.max_objects, ==, 35);
	/* the hardware's raw confidence (bit 4) stays out of the API */
	g_assert_cmpuint(c.object_fields, ==, 0xf);
	g_assert_cmpuint(c.max_threshold, ==, 9);
	g_assert_cmpuint(c.default_threshold, ==, 5);
	g_assert_cmpuint(c.num_min_sizes, ==, 4);
	g_assert_cmpint(fdif_query_min_size(dev, 0, &ms), ==, 0);
	g_assert_cmpuint(ms.width, ==, 20);
	g_assert_cmpuint(ms.height, ==, 20);
	g_assert_cmpint(fdif_query_min_size(dev, 3, &ms), ==, 0);
	g_assert_cmpuint(ms.width, ==, 40);
	g_assert_cmpuint(ms.height, ==, 40);
	g_assert_cmpint(fdif_query_min_size(dev, 4, &ms), ==, -ENOENT);
	g_assert_cmpuint(c.max_job_directions, ==, 1);
	g_assert_cmpuint(c.max_job_classes, ==, 1);
	g_assert_cmpuint(c.roi_min_width, ==, 20);
	g_assert_cmpuint(c.roi_min_height, ==, 20);
	g_assert_cmpuint(c.roi_max_x, ==, 160);
	g_assert_cmpuint(c.roi_max_y, ==, 120);
	g_assert_cmpuint(c.max_jobs, ==, 16);
	fdif_close(dev);
}

static void test_caps(void)
{
	check_caps(0);
}

static void test_caps_grown(void)
{
	check_caps(24);
}

static void test_old_uapi(void)
{
	struct fdif_device *dev;

	fake_reset();
	k.old_uapi = 1;
	g_assert_cmpint(fdif_open_path(dev_path, &dev), ==, -EPROTO);
	g_assert_null(dev);
}

/* The fake's (the OMAP4's) result capacity: a job's faces, a full scan's */
#define MAX_FACES	35
#define MAX_RESULTS	(3 * MAX_FACES)
#define DIR_ALL		(FDIF_DIR_UP | FDIF_DIR_RIGHT | FDIF_DIR_LEFT)

/*
 * A request a params on the device's grey frame at @offset in @bo, one
 * direction each (@params[i].directions one bit), all in one
 * fdif_submit_requests(): the shape most tests below submit in.
 */
static int submit_batch(struct fdif_device *dev, struct fdif_bo *bo, uint32_t offset,
			const struct fdif_params *params, unsigned int count,
			struct fdif_job **jobs)
{
	struct fdif_caps c = { .size = sizeof(c) };
	struct fdif_request r[20];
	unsigned int i, n;

	g_assert_cmpuint(count, <=, G_N_ELEMENTS(r));
	g_assert_cmpint(fdif_query_caps(dev, &c), ==, 0);
	for (i = 0; i < count; i++)
		jobs[i] = NULL;
	if (!c.frame_width)
		return -ENOTSUP;
	for (i = 0; i < count; i++) {
		fdif_request_init(&r[i], sizeof(r[i]));
		r[i].picture.fourcc = DRM_FORMAT_R8;
		r[i].picture.width = c.frame_width;
		r[i].picture.height = c.frame_height;
		r[i].picture.planes[0] = (struct fdif_plane){ bo, offset, c.frame_stride };
		r[i].directions = params[i].directions;
		r[i].min_size = params[i].min_size;
		r[i].threshold = params[i].threshold;
		r[i].roi_x = params[i].roi_x;
		r[i].roi_y = params[i].roi_y;
		r[i].roi_width = params[i].roi_width;
		r[i].roi_height = params[i].roi_height;
	}
	return fdif_submit_requests(dev, r, count, jobs, count, &n);
}

static int submit(struct fdif_device *dev, struct fdif_bo *bo, uint32_t offset,
		  const struct fdif_params *p, struct fdif_job **job)
{
	return submit_batch(dev, bo, offset, p, 1, job);
}

/*
 * fdif_detect_image() as 0 and *@n faces written (at most @max), checking
 * that a total over @max comes with @max faces written.
 */
static int detect(struct fdif_device *dev, const struct fdif_image *img,
		  const struct fdif_params *p, struct fdif_face *f, unsigned int max,
		  unsigned int *n)
{
	int ret = fdif_detect_image(dev, img, p, f, max);

	*n = 0;
	if (ret < 0)
		return ret;
	*n = (unsigned int)ret < max ? (unsigned int)ret : max;
	return 0;
}

static struct fdif_bo *frame_bo(struct fdif_device *dev)
{
	struct fdif_bo *bo;

	g_assert_cmpint(fdif_bo_create(dev, 320 * 240, &bo), ==, 0);
	return bo;
}

static void check_results(uint32_t extra)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_job *job;
	struct fdif_bo *frame;
	const struct drm_fdif_job *j = &k.jobs[0];

	fake_reset();
	k.extra = extra;
	dev = open_fake();
	frame = frame_bo(dev);
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	/* the job as the library built it from the answers */
	g_assert_cmpuint(k.job_count, ==, 1);
	g_assert_cmpuint(j->picture.planes[0].handle, ==, fdif_bo_handle(frame));
	g_assert_cmpuint(j->min_width, ==, 20);
	g_assert_cmpuint(j->min_height, ==, 20);
	g_assert_cmpuint(j->threshold, ==, 5);
	g_assert_cmpuint(j->directions, ==, 1u << DRM_FDIF_DIR_UP);
	g_assert_cmpuint(j->flags, ==, DRM_FDIF_JOB_FENCE_FD_OUT);
	g_assert_cmpuint(j->out_sync_count, ==, 1);
	g_assert_cmpint(fdif_job_fence_fd(job), >, 2);

	g_assert_cmpint(fdif_job_wait(job, 1000000000), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, 2);
	/* center = box edge + width / 2: the hardware's center, odd sizes too */
	g_assert_cmpfloat(f[0].x, ==, 101);
	g_assert_cmpfloat(f[0].y, ==, 80);
	g_assert_cmpfloat(f[0].width, ==, 25);
	g_assert_cmpfloat(f[0].height, ==, 25);
	g_assert_cmpuint(f[0].angle, ==, 10);
	g_assert_cmpuint(f[0].confidence, ==, 900);
	g_assert_cmpuint(f[0].object_class, ==, FDIF_CLASS_FACE);
	g_assert_cmpuint(f[0].direction, ==, FDIF_DIR_UP);
	/* only a box and an angle: the rest stays 0, the direction the scan's */
	g_assert_cmpfloat(f[1].x, ==, 250);
	g_assert_cmpfloat(f[1].width, ==, 40);
	g_assert_cmpuint(f[1].angle, ==, 350);
	g_assert_cmpuint(f[1].confidence, ==, 0);
	g_assert_cmpuint(f[1].direction, ==, FDIF_DIR_UP);
	g_assert_cmpuint(f[1].object_class, ==, FDIF_CLASS_FACE);
	/*
	 * room for fewer than found: the total comes back (as snprintf()'s),
	 * only the room written. Before, the cut count: no way to know more
	 * were found.
	 */
	memset(&f[1], 0x5a, sizeof(f[1]));
	g_assert_cmpint(fdif_job_result(job, f, 1), ==, 2);
	g_assert_cmpfloat(f[0].x, ==, 101);
	g_assert_cmpuint(f[1].angle, ==, 0x5a5a5a5a);
	fdif_job_free(job);

	/* a pooled result BO holds the previous job's result: not this one's */
	k.busy = 1;
	p.directions = FDIF_DIR_LEFT;
	p.min_size = 32;
	p.threshold = 0;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	g_assert_cmpuint(j->min_width, ==, 32);
	g_assert_cmpuint(j->threshold, ==, 0);
	g_assert_cmpuint(j->directions, ==, 1u << DRM_FDIF_DIR_LEFT);
	g_assert_cmpint(fdif_job_wait(job, 0), ==, -EBUSY);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, -EBUSY);
	k.busy = 0;
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, -EPROTO);
	fdif_job_free(job);

	/* the job's own error */
	k.status = -EIO;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	g_assert_cmpint(fdif_job_wait(job, -1), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, -EIO);
	fdif_job_free(job);

	fdif_bo_free(frame);
	fdif_close(dev);
}

static void test_results(void)
{
	check_results(0);
}

static void test_results_grown(void)
{
	check_results(16);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void test_wait_deadline(void)
{
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_job *job;
	struct fdif_bo *frame;
	int64_t t0, t1;

	fake_reset();
	dev = open_fake();
	frame = frame_bo(dev);
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	t0 = now_ns();
	g_assert_cmpint(fdif_job_wait(job, 5000000000LL), ==, 0);
	t1 = now_ns();
	g_assert_cmpint(k.wait_deadline, >=, t0 + 5000000000LL);
	g_assert_cmpint(k.wait_deadline, <=, t1 + 5000000000LL);
	g_assert_cmpint(fdif_job_wait(job, -1), ==, 0);
	g_assert_cmpint(k.wait_deadline, ==, INT64_MAX);
	g_assert_cmpint(fdif_job_wait(job, INT64_MAX), ==, 0);
	g_assert_cmpint(k.wait_deadline, ==, INT64_MAX);
	fdif_job_free(job);
	fdif_bo_free(frame);
	fdif_close(dev);
}

static void test_bad_params(void)
{
	struct fdif_params p[17];
	struct fdif_job *jobs[17];
	struct fdif_device *dev;
	struct fdif_bo *frame, *small;
	unsigned int i;

	fake_reset();
	dev = open_fake();
	frame = frame_bo(dev);
	for (i = 0; i < 17; i++)
		fdif_params_init(&p[i], sizeof(p[i]));
	p[0].directions = DIR_ALL;
	g_assert_cmpint(submit(dev, frame, 0, &p[0], &jobs[0]), ==, -EINVAL);
	g_assert_null(jobs[0]);
	p[0].directions = FDIF_DIR_UP;
	p[0].min_size = 24;
	g_assert_cmpint(submit(dev, frame, 0, &p[0], &jobs[0]), ==, -EINVAL);
	p[0].min_size = 0;
	p[0].threshold = 10;		/* the kernel's to refuse */
	g_assert_cmpint(submit(dev, frame, 0, &p[0], &jobs[0]), ==, -EINVAL);
	p[0].threshold = FDIF_THRESHOLD_DEFAULT;
	g_assert_cmpint(submit(dev, frame, 16, &p[0], &jobs[0]), ==, -EINVAL);
	g_assert_cmpint(fdif_bo_create(dev, 4096, &small), ==, 0);
	g_assert_cmpint(submit(dev, small, 0, &p[0], &jobs[0]), ==, -EINVAL);
	/* a batch is at most max_jobs, and all or nothing */
	g_assert_cmpint(submit_batch(dev, frame, 0, p, 17, jobs), ==, -EINVAL);
	g_assert_cmpint(submit_batch(dev, frame, 0, p, 0, jobs), ==, -EINVAL);
	p[5].min_size = 33;
	g_assert_cmpint(submit_batch(dev, frame, 0, p, 16, jobs), ==, -EINVAL);
	for (i = 0; i < 16; i++)
		g_assert_null(jobs[i]);
	g_assert_cmpuint(k.submits, ==, 0);
	p[5].min_size = 40;
	g_assert_cmpint(submit_batch(dev, frame, 0, p, 16, jobs), ==, 0);
	g_assert_cmpuint(k.submits, ==, 1);
	g_assert_cmpuint(k.job_count, ==, 16);
	g_assert_cmpuint(k.jobs[5].min_width, ==, 40);
	for (i = 0; i < 16; i++) {
		g_assert_cmpint(fdif_job_wait(jobs[i], -1), ==, 0);
		g_assert_cmpint(fdif_job_result(jobs[i], NULL, 0), ==, 2);
		fdif_job_free(jobs[i]);
	}
	fdif_bo_free(small);
	fdif_bo_free(frame);
	fdif_close(dev);
}

/* A full scan: one batch of three jobs, merged, mapped to the picture. */
static void test_detect_image(void)
{
	struct fdif_face f[MAX_RESULTS];
	struct fdif_device *dev;
	struct fdif_image img = { 640, 480, 1, 640, NULL };
	struct fdif_params p;
	unsigned int n;

	fake_reset();
	dev = open_fake();
	img.pixels = g_malloc0(640 * 480);
	fdif_params_init(&p, sizeof(p));
	p.directions = DIR_ALL;
	g_assert_cmpint(detect(dev, &img, &p, f, MAX_RESULTS, &n), ==, 0);
	g_assert_cmpuint(k.submits, ==, 1);
	g_assert_cmpuint(k.job_count, ==, 3);
	g_assert_cmpuint(k.jobs[2].directions, ==, 1u << DRM_FDIF_DIR_LEFT);
	/* each job found the same two: merged into two, in picture pixels */
	g_assert_cmpuint(n, ==, 2);
	g_assert_cmpfloat(f[0].x, ==, 202);
	g_assert_cmpfloat(f[0].y, ==, 160);
	g_assert_cmpfloat(f[0].width, ==, 50);

	/*
	 * the ROI, in picture pixels, moved and widened to the device's
	 * limits (its left edge at most 160): the faces of the region it
	 * was moved to are not the ROI's (the fake reports its two
	 * whatever the ROI; the device reports those inside its own)
	 */
	p.directions = FDIF_DIR_UP;
	p.roi_x = 600;
	p.roi_y = 0;
	p.roi_width = 40;
	p.roi_height = 480;
	g_assert_cmpint(detect(dev, &img, &p, f, MAX_RESULTS, &n), ==, 0);
	g_assert_cmpuint(k.jobs[0].roi.x, ==, 160);
	g_assert_cmpuint(k.jobs[0].roi.width, ==, 160);
	g_assert_cmpuint(k.jobs[0].roi.height, ==, 240);
	g_assert_cmpuint(n, ==, 0);
	g_free(img.pixels);
	fdif_close(dev);
}

/*
 * detect()'s ROI is refused outside the picture, as
 * fdif_submit_requests() refuses its own, not moved into it; and the
 * faces it returns are the ROI's: those whose box lies inside it (in
 * the frame: the ROI widened to whole frame pixels), not those of the
 * region the device's limits moved or widened it to. Before, an ROI
 * past the picture's right edge became its right half, and every face
 * the device found there came back.
 */
static void test_detect_image_roi(void)
{
	struct fdif_face f[MAX_RESULTS];
	struct fdif_device *dev;
	struct fdif_image img = { 640, 480, 1, 640, NULL };
	struct fdif_params p;
	unsigned int n, submits;

	fake_reset();
	dev = open_fake();
	img.pixels = g_malloc0(640 * 480);
	fdif_params_init(&p, sizeof(p));
	/* past the right edge, across it, past the bottom, no height */
	p.roi_x = 700;
	p.roi_width = 40;
	p.roi_height = 100;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, -EINVAL);
	p.roi_x = 600;
	p.roi_width = 41;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, -EINVAL);
	p.roi_x = 0;
	p.roi_y = 400;
	p.roi_height = 81;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, -EINVAL);
	p.roi_height = 0;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, -EINVAL);
	g_assert_cmpuint(n, ==, 0);
	g_assert_cmpuint(k.submits, ==, 0);
	/* ending on the edges: taken */
	p.roi_x = 600;
	p.roi_width = 40;
	p.roi_y = 400;
	p.roi_height = 80;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(k.submits, ==, 1);

	/*
	 * The fake's faces, in the 320x240 frame (the picture halved):
	 * boxes 89..114 x 68..93 and 230..270 x 40..80. An ROI around the
	 * second, 459,79 82x82 (229.5..270.5 x 39.5..80.5 in the frame, so
	 * 229..271 x 39..81), is sent from 160 (the device's largest left
	 * edge), where the first is too: only the second comes back, in the
	 * picture's pixels.
	 */
	p.roi_x = 459;
	p.roi_y = 79;
	p.roi_width = 82;
	p.roi_height = 82;
	submits = k.submits;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(k.submits, ==, submits + 1);
	g_assert_cmpuint(k.jobs[0].roi.x, ==, 160);
	g_assert_cmpuint(k.jobs[0].roi.y, ==, 39);
	g_assert_cmpuint(k.jobs[0].roi.width, ==, 111);
	g_assert_cmpuint(k.jobs[0].roi.height, ==, 42);
	g_assert_cmpuint(n, ==, 1);
	g_assert_cmpfloat(f[0].x, ==, 500);
	g_assert_cmpfloat(f[0].y, ==, 120);
	g_assert_cmpfloat(f[0].width, ==, 80);
	/* a pixel narrower on either side: the box is no longer inside */
	p.roi_x = 462;
	p.roi_width = 79;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(n, ==, 0);
	p.roi_x = 459;
	p.roi_width = 79;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(n, ==, 0);
	/* a full scan: the same, merged from three jobs */
	p.roi_width = 82;
	p.directions = DIR_ALL;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(k.job_count, ==, 3);
	g_assert_cmpuint(n, ==, 1);
	g_assert_cmpfloat(f[0].x, ==, 500);
	/* the whole picture: both */
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(n, ==, 2);
	g_free(img.pixels);
	fdif_close(dev);
}

/* An open file descriptor of this process? */
static int fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

/* --- requests (LIBFDIF_DRM_2.1) ------------------------------------ */

/* A request for the R8 picture @w x @h at @offset in @bo, rows @stride apart. */
static void grey_request(struct fdif_request *r, struct fdif_bo *bo, uint32_t offset,
			 uint32_t w, uint32_t h, uint32_t stride)
{
	fdif_request_init(r, sizeof(*r));
	r->picture.fourcc = DRM_FORMAT_R8;
	r->picture.width = w;
	r->picture.height = h;
	r->picture.planes[0] = (struct fdif_plane){ bo, offset, stride };
}

/* Submit @count requests, expecting @want; on success the jobs are waited for. */
static int submit_reqs(struct fdif_device *dev, const struct fdif_request *r,
		       unsigned int count, struct fdif_job **jobs, unsigned int max,
		       unsigned int *n)
{
	unsigned int i;
	int ret = fdif_submit_requests(dev, r, count, jobs, max, n);

	if (ret) {
		g_assert_cmpuint(*n, ==, 0);
		for (i = 0; i < max; i++)
			g_assert_null(jobs[i]);
	}
	return ret;
}

static void free_jobs(struct fdif_job **jobs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		g_assert_cmpint(fdif_job_wait(jobs[i], -1), ==, 0);
		fdif_job_free(jobs[i]);
	}
}

/*
 * libfdif-drm 3's API (issue #40), each part of it against what the fake
 * kernel was asked; each of these failed on libfdif-drm 2 (or did not
 * build against it: fdif_jobs_wait(), fdif_detect_start(), the
 * size-prefixed fdif_params).
 */
static void test_v3_detection(void)
{
	struct fdif_face f[MAX_RESULTS];
	struct fdif_device *dev;
	struct fdif_detection *d;
	struct fdif_image img = { 640, 480, 3, 640 * 3, NULL };
	struct fdif_params p;
	struct {
		struct fdif_params p;
		uint64_t later;		/* a field of a newer header */
	} big;
	unsigned int creates;
	int64_t t0;

	fake_reset();
	dev = open_fake();
	img.pixels = g_malloc0(640 * 480 * 3);
	/* RGB straight in: its luma is fitted into the frame */
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpuint(p.size, ==, sizeof(p));
	g_assert_cmpuint(p.directions, ==, FDIF_DIR_UP);
	g_assert_cmpint(p.timeout_ns, ==, 10LL * 1000 * 1000 * 1000);
	g_assert_cmpint(fdif_detect_start(dev, &img, &p, &d), ==, 0);
	g_assert_cmpint(fdif_detection_wait(d, 0), ==, 0);
	g_assert_cmpint(fdif_detection_result(d, f, 1), ==, 2);	/* all, one written */
	g_assert_cmpint(fdif_detection_result(d, f, MAX_RESULTS), ==, 2);
	g_assert_cmpfloat(f[0].x, ==, 202);
	fdif_detection_free(d);
	/* the next detection reuses the frame BO: no BO made for it */
	creates = k.bo_creates;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, 2);
	g_assert_cmpuint(k.bo_creates, ==, creates);
	k.busy = 1;
	p.timeout_ns = 5 * 1000 * 1000;
	t0 = g_get_monotonic_time() * 1000;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, -EBUSY);
	/* waited by the caller's timeout, not forever */
	g_assert_cmpint(k.min_block_deadline, <, t0 + 1000LL * 1000 * 1000);
	k.busy = 0;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, 2);
	/* a longer struct of a newer program: a zero tail is fine, else -E2BIG */
	memset(&big, 0, sizeof(big));
	fdif_params_init(&big.p, sizeof(big));
	g_assert_cmpuint(big.p.size, ==, sizeof(big));
	g_assert_cmpint(fdif_detect_image(dev, &img, &big.p, f, MAX_RESULTS), ==, 2);
	big.later = 1;
	g_assert_cmpint(fdif_detect_image(dev, &img, &big.p, f, MAX_RESULTS), ==, -E2BIG);
	p.size = 8;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, -EINVAL);
	/* directions are bits of what the device scans */
	fdif_params_init(&p, sizeof(p));
	p.directions = 1u << 3;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, -EINVAL);
	p.directions = 0;
	g_assert_cmpint(fdif_detect_image(dev, &img, &p, f, MAX_RESULTS), ==, -EINVAL);
	g_free(img.pixels);
	fdif_close(dev);
}

/* fdif_jobs_wait(): any or all of several jobs, in one SYNCOBJ_WAIT */
static void test_v3_jobs_wait(void)
{
	struct fdif_params p[3];
	struct fdif_job *jobs[3];
	struct fdif_device *dev, *other;
	struct fdif_bo *frame, *foreign;
	unsigned int i, first = 99;

	fake_reset();
	dev = open_fake();
	frame = frame_bo(dev);
	for (i = 0; i < 3; i++) {
		fdif_params_init(&p[i], sizeof(p[i]));
		p[i].directions = 1u << i;
	}
	g_assert_cmpint(submit_batch(dev, frame, 0, p, 3, jobs), ==, 0);
	g_assert_cmpint(fdif_jobs_wait(jobs, 3, FDIF_WAIT_ALL, -1, NULL), ==, 0);
	g_assert_cmpuint(k.wait_handles, ==, 3);
	g_assert_cmpuint(k.wait_flags, ==, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL);
	g_assert_cmpint(fdif_jobs_wait(jobs, 3, 0, -1, &first), ==, 0);
	g_assert_cmpuint(k.wait_flags, ==, 0);
	g_assert_cmpuint(first, ==, 2);		/* the fake's choice */
	g_assert_cmpint(fdif_jobs_wait(jobs, 0, 0, -1, NULL), ==, -EINVAL);
	g_assert_cmpint(fdif_jobs_wait(jobs, 3, 1u << 7, -1, NULL), ==, -EINVAL);
	k.busy = 1;
	g_assert_cmpint(fdif_jobs_wait(jobs, 3, FDIF_WAIT_ALL, 0, NULL), ==, -EBUSY);
	k.busy = 0;
	/* jobs of two devices are not one wait */
	fdif_job_free(jobs[2]);
	other = open_fake();
	foreign = frame_bo(other);
	g_assert_cmpint(submit(other, foreign, 0, &p[0], &jobs[2]), ==, 0);
	g_assert_cmpint(fdif_jobs_wait(jobs, 3, 0, -1, NULL), ==, -EINVAL);
	fdif_job_free(jobs[2]);
	/*
	 * a BO of another device: refused (-EXDEV) before the kernel is
	 * asked, whose handle would name another BO, or none, on this file.
	 * Before, its handle was submitted as it was.
	 */
	i = k.submits;
	g_assert_cmpint(submit(dev, foreign, 0, &p[0], &jobs[2]), ==, -EXDEV);
	g_assert_cmpuint(k.submits, ==, i);
	g_assert_null(strstr(fdif_strerror(-EXDEV), "link"));
	free_jobs(jobs, 2);
	fdif_bo_free(foreign);
	fdif_bo_free(frame);
	fdif_close(other);
	fdif_close(dev);
}

/*
 * What the device reported, all of it: its formats (with their limits and
 * flags) and the submission limits, size-prefixed. The OMAP4 and a later
 * generation (k.v2: R8 and NV12 of many sizes, two classes, two
 * directions a job). Before, only the fourccs and the grey frame were
 * kept.
 */
static void test_formats(void)
{
	struct {
		struct fdif_format f;
		uint32_t later;		/* a field of a newer header */
	} big;
	struct fdif_caps l = { .size = sizeof(l) };
	struct fdif_format f = { .size = sizeof(f) };
	struct fdif_device *dev;
	struct fdif_caps c = { .size = sizeof(c) };

	fake_reset();
	dev = open_fake();
	g_assert_cmpint(fdif_query_caps(dev, &l), ==, 0);
	g_assert_cmpuint(l.size, ==, sizeof(l));
	g_assert_cmpuint(l.max_jobs, ==, 16);
	g_assert_cmpuint(l.max_job_directions, ==, 1);
	g_assert_cmpuint(l.max_job_classes, ==, 1);
	g_assert_cmpuint(l.max_syncs, ==, 64);
	g_assert_cmpuint(l.num_formats, ==, 2);
	g_assert_cmpuint(l.classes, ==, 1);
	g_assert_cmpuint(l.directions, ==, 7);
	g_assert_cmpint(fdif_query_format(dev, 1, &f), ==, 0);
	g_assert_cmpuint(f.fourcc, ==, DRM_FORMAT_R8);
	g_assert_cmpuint(f.flags, ==, FDIF_FORMAT_PACKED_ROWS);
	g_assert_cmpuint(f.min_width, ==, 320);
	g_assert_cmpuint(f.max_height, ==, 240);
	g_assert_cmpuint(f.offset_align, ==, 32);
	fdif_close(dev);

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_query_caps(dev, &l), ==, 0);
	g_assert_cmpuint(l.max_job_directions, ==, 2);
	g_assert_cmpuint(l.classes, ==, 3);
	g_assert_cmpint(fdif_query_format(dev, 0, &f), ==, 0);
	g_assert_cmpuint(f.fourcc, ==, DRM_FORMAT_NV12);
	g_assert_cmpuint(f.num_planes, ==, 2);
	g_assert_cmpuint(f.flags, ==, 0);
	g_assert_cmpint(fdif_query_format(dev, 1, &f), ==, 0);
	g_assert_cmpuint(f.fourcc, ==, DRM_FORMAT_R8);
	g_assert_cmpuint(f.min_width, ==, 64);
	g_assert_cmpuint(f.max_width, ==, 640);
	g_assert_cmpuint(f.width_align, ==, 16);
	g_assert_cmpuint(f.min_height, ==, 48);
	g_assert_cmpuint(f.max_height, ==, 480);
	g_assert_cmpuint(f.height_align, ==, 2);
	g_assert_cmpuint(f.offset_align, ==, 64);
	g_assert_cmpuint(f.stride_align, ==, 64);
	g_assert_cmpint(fdif_query_format(dev, 2, &f), ==, -ENOENT);
	/* a newer caller's longer structure: what this library does not know is 0 */
	memset(&big, 0xff, sizeof(big));
	big.f.size = sizeof(big);
	g_assert_cmpint(fdif_query_format(dev, 1, &big.f), ==, 0);
	g_assert_cmpuint(big.f.size, ==, sizeof(big));
	g_assert_cmpuint(big.f.stride_align, ==, 64);
	g_assert_cmpuint(big.later, ==, 0);
	f.size = 8;
	g_assert_cmpint(fdif_query_format(dev, 1, &f), ==, -EINVAL);
	l.size = 4;
	g_assert_cmpint(fdif_query_caps(dev, &l), ==, -EINVAL);
	/* the grey frame is the largest R8 picture */
	g_assert_cmpint(fdif_query_caps(dev, &c), ==, 0);
	g_assert_cmpuint(c.frame_width, ==, 640);
	g_assert_cmpuint(c.frame_height, ==, 480);
	g_assert_cmpuint(c.frame_stride, ==, 640);
	g_assert_cmpuint(c.generation, ==, 2);
	fdif_close(dev);
}

/*
 * A device that takes no grey picture (NV12 only) opens and takes
 * requests on its own format; the calls that need the grey frame say
 * -ENOTSUP. Before, it could not be opened at all (-EPROTO).
 */
static void test_no_grey(void)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_image img = { 64, 48, 1, 64, NULL };
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_request r;
	struct fdif_job *job;
	struct fdif_bo *bo;
	struct fdif_caps c = { .size = sizeof(c) };
	unsigned int n;

	fake_reset();
	k.v2 = 1;
	k.no_grey = 1;
	g_assert_cmpint(fdif_open_path(dev_path, &dev), ==, 0);
	g_assert_cmpint(fdif_query_caps(dev, &c), ==, 0);
	g_assert_cmpuint(c.num_formats, ==, 1);
	g_assert_cmpuint(c.frame_width, ==, 0);
	g_assert_cmpint(fdif_bo_create(dev, 640 * 480 * 2, &bo), ==, 0);
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(submit(dev, bo, 0, &p, &job), ==, -ENOTSUP);
	img.pixels = g_malloc0(64 * 48);
	g_assert_cmpint(detect(dev, &img, &p, f, MAX_FACES, &n), ==, -ENOTSUP);
	/* whose message names this case too, not only a picture's format */
	g_assert_nonnull(strstr(fdif_strerror(-ENOTSUP), "a device that takes no 8-bit grey picture"));
	g_assert_null(strstr(fdif_strerror(-ENOTSUP), "unsupported image format"));
	g_free(img.pixels);
	fdif_request_init(&r, sizeof(r));
	r.picture.fourcc = DRM_FORMAT_NV12;
	r.picture.width = 640;
	r.picture.height = 480;
	r.picture.planes[0] = (struct fdif_plane){ bo, 0, 0 };
	r.picture.planes[1] = (struct fdif_plane){ bo, 640 * 480, 0 };
	g_assert_cmpint(submit_reqs(dev, &r, 1, &job, 1, &n), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, 2);
	free_jobs(&job, 1);
	r.picture.fourcc = DRM_FORMAT_R8;
	r.picture.planes[1] = (struct fdif_plane){ NULL, 0, 0 };
	g_assert_cmpint(submit_reqs(dev, &r, 1, &job, 1, &n), ==, -EINVAL);
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * A picture is what the device took: any of its formats and sizes, each
 * plane's offset and stride; one it cannot take is -EINVAL before the
 * kernel sees it. Before, only the OMAP4's 320x240 R8 frame could be
 * submitted.
 */
static void test_request_picture(void)
{
	struct fdif_job *jobs[4];
	struct fdif_device *dev;
	struct fdif_bo *bo, *small;
	struct fdif_request r;
	const struct drm_fdif_picture *pic = &k.jobs[0].picture;
	unsigned int n;

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 1 << 20, &bo), ==, 0);
	g_assert_cmpint(fdif_bo_create(dev, 4096, &small), ==, 0);
	/* R8, the least stride (the width, rounded up to 64) */
	grey_request(&r, bo, 0, 608, 480, 0);
	g_assert_cmpint(fdif_request_jobs(dev, &r), ==, 1);
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(n, ==, 1);
	g_assert_cmpuint(pic->fourcc, ==, DRM_FORMAT_R8);
	g_assert_cmpuint(pic->width, ==, 608);
	g_assert_cmpuint(pic->height, ==, 480);
	g_assert_cmpuint(pic->planes[0].handle, ==, fdif_bo_handle(bo));
	g_assert_cmpuint(pic->planes[0].stride, ==, 640);
	free_jobs(jobs, n);
	/* NV12, both planes in one BO, strides given */
	fdif_request_init(&r, sizeof(r));
	r.picture.fourcc = DRM_FORMAT_NV12;
	r.picture.width = 640;
	r.picture.height = 480;
	r.picture.planes[0] = (struct fdif_plane){ bo, 0, 704 };
	r.picture.planes[1] = (struct fdif_plane){ bo, 704 * 480, 704 };
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(pic->fourcc, ==, DRM_FORMAT_NV12);
	g_assert_cmpuint(pic->planes[1].handle, ==, fdif_bo_handle(bo));
	g_assert_cmpuint(pic->planes[1].offset, ==, 704 * 480);
	g_assert_cmpuint(pic->planes[1].stride, ==, 704);
	free_jobs(jobs, n);
	g_assert_cmpuint(k.submits, ==, 2);

	/* what the device cannot take: none reaches the kernel */
#define REFUSED(...) do { \
		__VA_ARGS__; \
		g_assert_cmpint(fdif_request_jobs(dev, &r), ==, -EINVAL); \
		g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL); \
	} while (0)
	REFUSED(grey_request(&r, bo, 0, 600, 480, 0));		/* width_align 16 */
	REFUSED(grey_request(&r, bo, 0, 656, 480, 0));		/* wider than 640 */
	REFUSED(grey_request(&r, bo, 0, 640, 46, 0));		/* lower than 48 */
	REFUSED(grey_request(&r, bo, 0, 640, 47, 0));		/* height_align 2 */
	REFUSED(grey_request(&r, bo, 32, 640, 480, 0));		/* offset_align 64 */
	REFUSED(grey_request(&r, bo, 0, 640, 480, 672));	/* stride_align 64 */
	REFUSED(grey_request(&r, bo, 0, 640, 480, 576));	/* stride < row */
	REFUSED(grey_request(&r, small, 0, 640, 480, 0));	/* BO too small */
	REFUSED(grey_request(&r, bo, (1 << 20) - 64 * 640, 640, 480, 0));
	REFUSED(grey_request(&r, NULL, 0, 640, 480, 0));
	REFUSED(grey_request(&r, bo, 0, 640, 480, 0); r.picture.fourcc = DRM_FORMAT_XRGB8888);
	REFUSED(grey_request(&r, bo, 0, 640, 480, 0); r.picture.fourcc = DRM_FORMAT_NV12);
	REFUSED(grey_request(&r, bo, 0, 640, 480, 0);
		r.picture.planes[1] = (struct fdif_plane){ bo, 0, 0 });
	g_assert_cmpuint(k.submits, ==, 2);
	fdif_bo_free(small);
	fdif_bo_free(bo);
	fdif_close(dev);

	/* the OMAP4's packed rows: the stride is the width, or 0 for it */
	fake_reset();
	dev = open_fake();
	bo = frame_bo(dev);
	grey_request(&r, bo, 0, 320, 240, 0);
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(pic->planes[0].stride, ==, 320);
	free_jobs(jobs, n);
	REFUSED(grey_request(&r, bo, 0, 320, 240, 352));
	REFUSED(grey_request(&r, bo, 0, 160, 120, 0));
#undef REFUSED
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * Object classes: asked for by mask, refused unless the device detects
 * them (few enough a job, in the directions asked); a job asked for
 * class 1 carries it to the kernel. Before, every job was FACE.
 */
static void test_request_classes(void)
{
	struct fdif_job *jobs[4];
	struct fdif_device *dev;
	struct fdif_request r;
	struct fdif_bo *bo;
	unsigned int n;

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 640 * 480, &bo), ==, 0);
	grey_request(&r, bo, 0, 640, 480, 0);
	g_assert_cmpuint(r.classes, ==, FDIF_CLASS_FACE);
	r.classes = 1u << 1;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(k.jobs[0].classes, ==, 2);
	free_jobs(jobs, n);
	r.directions = FDIF_DIR_RIGHT;	/* class 1 is scanned upright only */
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	r.directions = FDIF_DIR_UP;
	r.classes = 1u << 2;			/* not a class the device has */
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	r.classes = 3;				/* two: max_job_classes is 1 */
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	r.classes = 0;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	g_assert_cmpuint(k.submits, ==, 1);
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * A direction mask takes the fewest jobs the device allows: two on a
 * device scanning two directions a job, three on the OMAP4 (one a job).
 */
static void test_request_directions(void)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_job *jobs[4];
	struct fdif_device *dev;
	struct fdif_request r;
	struct fdif_bo *bo;
	unsigned int n;

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 640 * 480, &bo), ==, 0);
	grey_request(&r, bo, 0, 640, 480, 0);
	r.directions = 7;
	g_assert_cmpint(fdif_request_jobs(dev, &r), ==, 2);
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(n, ==, 2);
	g_assert_cmpuint(k.submits, ==, 1);
	g_assert_cmpuint(k.jobs[0].directions, ==, 3);
	g_assert_cmpuint(k.jobs[1].directions, ==, 4);
	/* an object without a direction is the job's first scan's */
	g_assert_cmpint(fdif_job_result(jobs[1], f, MAX_FACES), ==, 2);
	g_assert_cmpuint(f[1].direction, ==, FDIF_DIR_LEFT);
	free_jobs(jobs, n);
	/* too few jobs for them */
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 1, &n), ==, -EINVAL);
	r.directions = 8;	/* no such direction */
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	fdif_bo_free(bo);
	fdif_close(dev);

	fake_reset();
	dev = open_fake();
	bo = frame_bo(dev);
	grey_request(&r, bo, 0, 320, 240, 0);
	r.directions = 5;
	g_assert_cmpint(fdif_request_jobs(dev, &r), ==, 2);
	r.directions = 7;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(n, ==, 3);
	g_assert_cmpuint(k.jobs[0].directions, ==, 1);
	g_assert_cmpuint(k.jobs[1].directions, ==, 2);
	g_assert_cmpuint(k.jobs[2].directions, ==, 4);
	free_jobs(jobs, n);
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * detect()'s full scan on a device with two directions a job:
 * two jobs, not one a direction, and a frame the device's largest grey
 * picture. Runs on the old calls alone: before, it queued three jobs.
 */
static void test_detect_image_v2(void)
{
	struct fdif_face f[3 * MAX_FACES];
	struct fdif_device *dev;
	struct fdif_image img = { 640, 480, 1, 640, NULL };
	struct fdif_params p;
	unsigned int n;

	fake_reset();
	k.v2 = 1;
	k.faces[0].height = 31;		/* a face as a rectangle */
	dev = open_fake();
	img.pixels = g_malloc0(640 * 480);
	fdif_params_init(&p, sizeof(p));
	p.directions = DIR_ALL;
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(k.submits, ==, 1);
	g_assert_cmpuint(k.job_count, ==, 2);
	g_assert_cmpuint(k.jobs[0].directions, ==, 3);
	g_assert_cmpuint(k.jobs[1].directions, ==, 4);
	g_assert_cmpuint(k.jobs[0].picture.width, ==, 640);
	g_assert_cmpuint(n, ==, 2);
	g_assert_cmpfloat(f[0].x, ==, 101);
	g_assert_cmpfloat(f[0].y, ==, 80);
	g_assert_cmpfloat(f[0].width, ==, 25);
	g_assert_cmpfloat(f[0].height, ==, 31);
	g_free(img.pixels);
	fdif_close(dev);
}

/*
 * Input fences: syncobjs (binary or at a timeline point) and sync_files
 * (each imported into a syncobj of the library's, destroyed once the
 * kernel has the fence), for every job of the request; too many or bad
 * ones are refused, and a kernel's refusal leaves nothing behind.
 */
static void test_request_in_fences(void)
{
	uint32_t objs[65] = { 0 };
	uint64_t points[2] = { 0, 7 };
	struct fdif_job *jobs[4], *prev[2];
	struct fdif_device *dev;
	struct fdif_request r;
	struct fdif_bo *bo;
	unsigned int n, destroyed;
	int fds[2];

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 640 * 480, &bo), ==, 0);
	/* two earlier jobs' syncobjs to wait for, and two sync_files */
	grey_request(&r, bo, 0, 640, 480, 0);
	r.directions = 7;
	g_assert_cmpint(submit_reqs(dev, &r, 1, prev, 2, &n), ==, 0);
	objs[0] = fdif_job_syncobj(prev[0]);
	objs[1] = fdif_job_syncobj(prev[1]);
	fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fds[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	r.in_syncobjs = objs;
	r.in_points = points;
	r.num_in_syncobjs = 2;
	r.in_fence_fds = fds;
	r.num_in_fence_fds = 2;
	destroyed = k.syncobjs_destroyed;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, 0);
	g_assert_cmpuint(n, ==, 2);
	for (unsigned int i = 0; i < 2; i++) {
		g_assert_cmpuint(k.jobs[i].in_sync_count, ==, 4);
		g_assert_cmpuint(k.in_syncs[i][0].handle, ==, objs[0]);
		g_assert_cmpuint(k.in_syncs[i][0].point, ==, 0);
		g_assert_cmpuint(k.in_syncs[i][1].handle, ==, objs[1]);
		g_assert_cmpuint(k.in_syncs[i][1].point, ==, 7);
		g_assert_cmpuint(k.in_syncs[i][2].handle, !=, 0);
		g_assert_cmpuint(k.in_syncs[i][3].handle, !=, 0);
		g_assert_cmpuint(k.in_syncs[i][2].handle, !=, k.in_syncs[i][3].handle);
		g_assert_cmpuint(k.in_syncs[i][2].handle, ==, k.in_syncs[0][2].handle);
	}
	g_assert_cmpuint(k.fd_imports, ==, 2);
	g_assert_cmpint(k.imported_fds[0], ==, fds[0]);
	g_assert_cmpint(k.imported_fds[1], ==, fds[1]);
	g_assert_cmpuint(k.syncobjs_destroyed, ==, destroyed + 2);	/* the temporary ones */
	g_assert_true(fd_open(fds[0]));		/* the caller's */
	free_jobs(jobs, n);

	/* a syncobj the kernel does not know: nothing queued, nothing left */
	objs[1] = 999;
	destroyed = k.syncobjs_destroyed;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -ENOENT);
	g_assert_cmpuint(k.fd_imports, ==, 4);
	/* the two temporary syncobjs and the two jobs' own */
	g_assert_cmpuint(k.syncobjs_destroyed, ==, destroyed + 4);
	objs[1] = fdif_job_syncobj(prev[1]);
	/* more than max_syncs (64), missing arrays, a bad fd */
	r.num_in_syncobjs = 63;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	r.num_in_syncobjs = 2;
	r.in_syncobjs = NULL;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	r.in_syncobjs = objs;
	fds[1] = -1;
	g_assert_cmpint(submit_reqs(dev, &r, 1, jobs, 4, &n), ==, -EINVAL);
	g_assert_cmpuint(k.fd_imports, ==, 4);
	close(fds[0]);
	free_jobs(prev, 2);
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * The DRM core's objects are made, waited for and closed through libdrm's
 * own helpers (drmSyncobjCreate(), drmSyncobjImportSyncFile(),
 * drmSyncobjWait(), drmSyncobjDestroy(), drmCloseBufferHandle()), with
 * their return conventions (drmSyncobjWait() -errno, the others -1 and
 * errno): the fake kernel sees every such ioctl come from libdrm, none
 * from the library itself. Before, all five were raw ioctls.
 */
static void test_libdrm_helpers(void)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_job *job;
	struct fdif_device *dev;
	struct fdif_request r;
	struct fdif_bo *bo;
	unsigned int n;
	int fd;

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 640 * 480, &bo), ==, 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	grey_request(&r, bo, 0, 640, 480, 0);
	r.in_fence_fds = &fd;
	r.num_in_fence_fds = 1;
	/* not done: -EBUSY from both (drmSyncobjWait()'s -ETIME before) */
	k.busy = 1;
	g_assert_cmpint(submit_reqs(dev, &r, 1, &job, 1, &n), ==, 0);
	g_assert_cmpuint(fdif_job_syncobj(job), !=, 0);
	g_assert_cmpint(fdif_job_wait(job, 0), ==, -EBUSY);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, -EBUSY);
	k.busy = 0;
	write_result(&k.jobs[0], k.jobs[0].seqno);
	g_assert_cmpint(fdif_job_wait(job, 1000000000), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, 2);
	fdif_job_free(job);
	fdif_bo_free(bo);
	fdif_close(dev);
	close(fd);
	g_assert_cmpuint(k.core_raw, ==, 0);
	/* the job's syncobj and the sync_file's temporary one */
	g_assert_cmpuint(k.by_libdrm[MOCK_SYNCOBJ_CREATE], ==, 2);
	g_assert_cmpuint(k.by_libdrm[MOCK_SYNCOBJ_FD_TO_HANDLE], ==, 1);
	g_assert_cmpuint(k.by_libdrm[MOCK_SYNCOBJ_DESTROY], ==, 2);
	g_assert_cmpuint(k.by_libdrm[MOCK_SYNCOBJ_WAIT], >=, 3);
	/* the picture, the job's work area and result, all closed */
	g_assert_cmpuint(k.by_libdrm[MOCK_GEM_CLOSE], ==, 3);
	for (n = 0; n < MAX_BOS; n++)
		g_assert_false(k.bo[n].live);
}

/*
 * Several pictures in one batch, each with its own picture and params: one
 * submission, the jobs in request order; all or nothing, at most
 * max_jobs jobs; requests longer than the library knows are read by their
 * size, a non-zero unknown tail refused.
 */
static void test_request_batch(void)
{
	struct fdif_face f[MAX_FACES];
	struct {
		struct fdif_request r;
		uint64_t later;		/* a field of a newer header */
	} big[2];
	struct fdif_request r[9];
	struct fdif_job *jobs[20];
	struct fdif_device *dev;
	struct fdif_bo *a, *b;
	unsigned int n, i;

	fake_reset();
	k.v2 = 1;
	dev = open_fake();
	g_assert_cmpint(fdif_bo_create(dev, 1 << 20, &a), ==, 0);
	g_assert_cmpint(fdif_bo_create(dev, 320 * 240 * 2, &b), ==, 0);
	grey_request(&r[0], a, 0, 640, 480, 0);
	fdif_request_init(&r[1], sizeof(r[1]));
	r[1].picture.fourcc = DRM_FORMAT_NV12;
	r[1].picture.width = 320;
	r[1].picture.height = 240;
	r[1].picture.planes[0] = (struct fdif_plane){ b, 0, 320 };
	r[1].picture.planes[1] = (struct fdif_plane){ b, 320 * 240, 320 };
	r[1].directions = 7;
	r[1].min_size = 32;
	grey_request(&r[2], a, 640 * 480, 64, 48, 0);
	r[2].classes = 1u << 1;
	r[2].threshold = 2;
	g_assert_cmpint(submit_reqs(dev, r, 3, jobs, 20, &n), ==, 0);
	g_assert_cmpuint(n, ==, 4);
	g_assert_cmpuint(k.submits, ==, 1);
	g_assert_cmpuint(k.job_count, ==, 4);
	g_assert_cmpuint(k.jobs[0].picture.planes[0].handle, ==, fdif_bo_handle(a));
	g_assert_cmpuint(k.jobs[1].picture.fourcc, ==, DRM_FORMAT_NV12);
	g_assert_cmpuint(k.jobs[1].min_width, ==, 32);
	g_assert_cmpuint(k.jobs[2].directions, ==, 4);
	g_assert_cmpuint(k.jobs[3].picture.width, ==, 64);
	g_assert_cmpuint(k.jobs[3].picture.planes[0].offset, ==, 640 * 480);
	g_assert_cmpuint(k.jobs[3].classes, ==, 2);
	g_assert_cmpuint(k.jobs[3].threshold, ==, 2);
	for (i = 0; i < n; i++)
		g_assert_cmpint(fdif_job_result(jobs[i], f, MAX_FACES), ==, 2);
	free_jobs(jobs, n);

	/* one bad request: none queued */
	r[1].picture.width = 330;
	g_assert_cmpint(submit_reqs(dev, r, 3, jobs, 20, &n), ==, -EINVAL);
	r[1].picture.width = 320;
	/* more jobs than the caller's array, or than max_jobs (16) */
	g_assert_cmpint(submit_reqs(dev, r, 3, jobs, 3, &n), ==, -EINVAL);
	for (i = 0; i < 9; i++) {
		grey_request(&r[i], a, 0, 640, 480, 0);
		r[i].directions = 7;
	}
	g_assert_cmpint(submit_reqs(dev, r, 9, jobs, 20, &n), ==, -EINVAL);
	g_assert_cmpint(submit_reqs(dev, r, 8, jobs, 20, &n), ==, 0);
	g_assert_cmpuint(n, ==, 16);
	free_jobs(jobs, n);
	g_assert_cmpint(submit_reqs(dev, r, 0, jobs, 20, &n), ==, -EINVAL);
	g_assert_cmpuint(k.submits, ==, 2);

	/* a newer caller's longer request, stepped through by its size */
	memset(big, 0, sizeof(big));
	grey_request(&big[0].r, a, 0, 640, 480, 0);
	grey_request(&big[1].r, b, 0, 320, 240, 0);
	big[0].r.size = big[1].r.size = sizeof(big[0]);
	g_assert_cmpint(submit_reqs(dev, &big[0].r, 2, jobs, 20, &n), ==, 0);
	g_assert_cmpuint(n, ==, 2);
	g_assert_cmpuint(k.jobs[1].picture.planes[0].handle, ==, fdif_bo_handle(b));
	free_jobs(jobs, n);
	big[1].later = 1;	/* what this library cannot do */
	g_assert_cmpint(submit_reqs(dev, &big[0].r, 2, jobs, 20, &n), ==, -E2BIG);
	big[1].later = 0;
	big[1].r.size = 8;
	g_assert_cmpint(submit_reqs(dev, &big[0].r, 2, jobs, 20, &n), ==, -EINVAL);
	/* a size never set: refused, not read far past the struct */
	big[1].r.size = big[0].r.size = 0x7fffffff;
	g_assert_cmpint(submit_reqs(dev, &big[0].r, 1, jobs, 20, &n), ==, -EINVAL);
	big[0].r.size = big[1].r.size = sizeof(big[0]);
	/* the reserved word (which on LP64 was tail padding no check saw) */
	big[0].r.reserved = 1;
	g_assert_cmpint(submit_reqs(dev, &big[0].r, 2, jobs, 20, &n), ==, -EINVAL);
	big[0].r.reserved = 0;
	g_assert_cmpuint(k.submits, ==, 3);
	fdif_bo_free(a);
	fdif_bo_free(b);
	fdif_close(dev);
}

/*
 * The ROI means pixels of the picture the call is given, in every call:
 * on a frame-sized picture submit(), fdif_submit_requests() and
 * detect() give the kernel the same region; one that is not
 * inside the picture is refused. Before, submit() passed a region
 * outside the frame on to the kernel.
 */
static void test_roi_one_meaning(void)
{
	struct fdif_face f[3 * MAX_FACES];
	struct fdif_image img = { 320, 240, 1, 320, NULL };
	struct fdif_device *dev;
	struct fdif_request r;
	struct fdif_params p;
	struct fdif_job *job;
	struct fdif_bo *frame;
	unsigned int n;

	fake_reset();
	dev = open_fake();
	frame = frame_bo(dev);
	img.pixels = g_malloc0(320 * 240);
	fdif_params_init(&p, sizeof(p));
	p.roi_x = 10;
	p.roi_y = 20;
	p.roi_width = 100;
	p.roi_height = 80;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	g_assert_cmpuint(k.jobs[0].roi.x, ==, 10);
	g_assert_cmpuint(k.jobs[0].roi.y, ==, 20);
	g_assert_cmpuint(k.jobs[0].roi.width, ==, 100);
	g_assert_cmpuint(k.jobs[0].roi.height, ==, 80);
	free_jobs(&job, 1);
	memset(&k.jobs[0].roi, 0, sizeof(k.jobs[0].roi));
	g_assert_cmpint(detect(dev, &img, &p, f, G_N_ELEMENTS(f), &n), ==, 0);
	g_assert_cmpuint(k.jobs[0].roi.x, ==, 10);
	g_assert_cmpuint(k.jobs[0].roi.y, ==, 20);
	g_assert_cmpuint(k.jobs[0].roi.width, ==, 100);
	g_assert_cmpuint(k.jobs[0].roi.height, ==, 80);
	/* outside the picture, or without a size */
	p.roi_x = 300;
	p.roi_width = 40;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, -EINVAL);
	p.roi_x = 10;
	p.roi_height = 0;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, -EINVAL);
	memset(&k.jobs[0].roi, 0, sizeof(k.jobs[0].roi));
	grey_request(&r, frame, 0, 320, 240, 0);
	r.roi_x = 10;
	r.roi_y = 20;
	r.roi_width = 100;
	r.roi_height = 80;
	g_assert_cmpint(submit_reqs(dev, &r, 1, &job, 1, &n), ==, 0);
	g_assert_cmpuint(k.jobs[0].roi.x, ==, 10);
	g_assert_cmpuint(k.jobs[0].roi.height, ==, 80);
	free_jobs(&job, 1);
	r.roi_y = 200;
	g_assert_cmpint(submit_reqs(dev, &r, 1, &job, 1, &n), ==, -EINVAL);
	g_free(img.pixels);
	fdif_bo_free(frame);
	fdif_close(dev);
}

/* An imported BO is mapped through its dma-buf (here: a plain file). */
static void test_import_map(void)
{
	g_autofree char *path = g_build_filename(tmpdir, "dmabuf", NULL);
	struct fdif_device *dev;
	struct fdif_bo *bo;
	uint8_t *map, byte = 0;
	int fd;

	fake_reset();
	dev = open_fake();
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, 320 * 240), ==, 0);
	g_assert_cmpint(fdif_bo_import(dev, fd, &bo), ==, 0);
	close(fd);		/* the caller's; the BO has its own */
	g_assert_cmpuint(fdif_bo_size(bo), ==, 320 * 240);
	g_assert_cmpint(fdif_bo_map(bo, (void **)&map), ==, 0);
	map[1000] = 0xab;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	g_assert_cmpint(pread(fd, &byte, 1, 1000), ==, 1);
	g_assert_cmpuint(byte, ==, 0xab);
	close(fd);
	fdif_bo_free(bo);
	fdif_close(dev);
}

/*
 * fdif_open() in $FDIF_ACCEL_DIR: the real errno, not "no FDIF device" for
 * every failure. (Root opens a mode-000 node: a directory named accel0
 * stands for a node that cannot be opened, -EISDIR.)
 */
static void test_open_dir(void)
{
	g_autofree char *dir = g_build_filename(tmpdir, "accel", NULL);
	g_autofree char *node = g_build_filename(dir, "accel0", NULL);
	g_autofree char *other = g_build_filename(dir, "renderD128", NULL);
	g_autofree char *file = g_build_filename(tmpdir, "not-a-dir", NULL);
	struct fdif_device *dev = (void *)1;

	fake_reset();
	/* no such directory: no device */
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, -ENODEV);
	g_assert_null(dev);
	/* an empty one, or only other nodes: no device */
	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	g_assert_cmpint(fdif_open(&dev), ==, -ENODEV);
	g_assert_true(g_file_set_contents(other, "", 0, NULL));
	g_assert_cmpint(fdif_open(&dev), ==, -ENODEV);
	/* a node that cannot be opened: why */
	g_assert_cmpint(g_mkdir(node, 0700), ==, 0);
	g_assert_cmpint(fdif_open(&dev), ==, -EISDIR);
	g_assert_null(dev);
	g_assert_cmpint(g_rmdir(node), ==, 0);
	/* the directory itself unreadable: its errno */
	g_assert_true(g_file_set_contents(file, "", 0, NULL));
	g_setenv("FDIF_ACCEL_DIR", file, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, -ENOTDIR);
	/* the device, found in that directory */
	g_assert_cmpint(symlink(dev_path, node), ==, 0);
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_nonnull(dev);
	fdif_close(dev);
	/* and one that speaks another uAPI says so */
	k.old_uapi = 1;
	g_assert_cmpint(fdif_open(&dev), ==, -EPROTO);
	g_unsetenv("FDIF_ACCEL_DIR");
	g_unlink(node);
	g_unlink(other);
	g_rmdir(dir);
	g_unlink(file);
}

/*
 * In a program run setuid or setcap (secure_getenv() NULL), neither
 * $FDIF_DEVICE nor $FDIF_ACCEL_DIR chooses the device: the caller could
 * point a privileged program at any file. Before, getenv() took both.
 */
static void test_open_env_secure(void)
{
	g_autofree char *dir = g_build_filename(tmpdir, "accel-secure", NULL);
	g_autofree char *node = g_build_filename(dir, "accel0", NULL);
	struct fdif_device *dev;
	int ret;

	fake_reset();
	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	g_assert_cmpint(symlink(dev_path, node), ==, 0);
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);
	g_setenv("FDIF_DEVICE", dev_path, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpstr(fdif_device_path(dev), ==, dev_path);
	fdif_close(dev);
	g_setenv("FDIF_DEVICE", "0", TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpstr(fdif_device_path(dev), ==, node);
	fdif_close(dev);
	/* secure: /dev/accel, whatever it holds here, never the fake */
	fake_secure = 1;
	g_setenv("FDIF_DEVICE", dev_path, TRUE);
	ret = fdif_open(&dev);
	if (!ret) {
		g_assert_true(g_str_has_prefix(fdif_device_path(dev), "/dev/accel/"));
		fdif_close(dev);
	}
	g_unsetenv("FDIF_DEVICE");
	ret = fdif_open_index(0, &dev);
	if (!ret) {
		g_assert_true(g_str_has_prefix(fdif_device_path(dev), "/dev/accel/"));
		fdif_close(dev);
	}
	fake_secure = 0;
	g_unsetenv("FDIF_DEVICE");
	g_unsetenv("FDIF_ACCEL_DIR");
	g_unlink(node);
	g_rmdir(dir);
}

/*
 * The accel nodes are matched to the fdif driver through sysfs
 * (class/accel/NODE/device/driver, $FDIF_SYSFS_DIR for /sys) without
 * being opened: a node another driver drives, or none, is never opened,
 * even one that would answer as an FDIF (the fake answers on any file
 * here); one sysfs does not know (no sysfs) is opened and asked. Before,
 * every accel node was opened and asked its driver's name.
 */
static void test_open_sysfs(void)
{
	g_autofree char *dir = g_build_filename(tmpdir, "accel-sysfs", NULL);
	g_autofree char *sys = g_build_filename(tmpdir, "sys", NULL);
	static const char *const nodes[] = { "accel0", "accel1", "accel2", "accel3" };
	/* accel0: another driver's; accel1: unbound; accel2: fdif; accel3: not in sysfs */
	static const char *const drivers[] = { "../../../bus/platform/drivers/vivid", NULL,
					       "../../../bus/platform/drivers/fdif" };
	struct fdif_device *dev;
	unsigned int i, versions;

	fake_reset();
	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	for (i = 0; i < G_N_ELEMENTS(nodes); i++) {
		g_autofree char *node = g_build_filename(dir, nodes[i], NULL);
		g_autofree char *dev_dir = g_build_filename(sys, "class", "accel", nodes[i],
							    "device", NULL);
		g_autofree char *driver = g_build_filename(dev_dir, "driver", NULL);

		g_assert_cmpint(symlink(dev_path, node), ==, 0);
		if (i < 3)
			g_assert_cmpint(g_mkdir_with_parents(dev_dir, 0700), ==, 0);
		if (i < 3 && drivers[i])
			g_assert_cmpint(symlink(drivers[i], driver), ==, 0);
	}
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);
	g_setenv("FDIF_SYSFS_DIR", sys, TRUE);
	versions = k.versions;
	g_assert_cmpint(fdif_open_index(0, &dev), ==, 0);
	g_assert_true(g_str_has_suffix(fdif_device_path(dev), "/accel2"));
	fdif_close(dev);
	g_assert_cmpint(fdif_open_index(1, &dev), ==, 0);
	g_assert_true(g_str_has_suffix(fdif_device_path(dev), "/accel3"));
	fdif_close(dev);
	g_assert_cmpint(fdif_open_index(2, &dev), ==, -ENODEV);
	/* accel0 and accel1 never asked: 1 + 2 + 2 nodes opened for the three */
	g_assert_cmpuint(k.versions - versions, ==, 5);
	g_unsetenv("FDIF_SYSFS_DIR");
	g_unsetenv("FDIF_ACCEL_DIR");
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s' '%s'", dir, sys);

		g_assert_cmpint(system(cmd), ==, 0);
	}
}

/* The fake device, or a second FDIF (dev2): both answer as one. */
static char *dev2_path;

static int is_fake_dev(int fd)
{
	struct stat st, a, b;

	return !fstat(fd, &st) && ((!stat(dev_path, &a) && a.st_ino == st.st_ino) ||
				   (!stat(dev2_path, &b) && b.st_ino == st.st_ino));
}

/* Which of the two devices @dev is: 1 or 2. */
static int which_dev(struct fdif_device *dev)
{
	struct stat st, a;

	g_assert_cmpint(fstat(fdif_device_fd(dev), &st), ==, 0);
	g_assert_cmpint(stat(dev_path, &a), ==, 0);
	return st.st_ino == a.st_ino ? 1 : 2;
}

/*
 * Choosing the device: $FDIF_DEVICE for fdif_open(), an index or a path.
 * Nodes: accel0 (a file, no FDIF), accel2 (the first FDIF) and accel10
 * (the second: after accel2, though "accel10" < "accel2" as strings).
 * Before, fdif_open() took whichever FDIF readdir() gave first and had
 * no way to be told another.
 */
static void test_open_env(void)
{
	g_autofree char *dir = g_build_filename(tmpdir, "accel-env", NULL);
	g_autofree char *n0 = g_build_filename(dir, "accel0", NULL);
	g_autofree char *n2 = g_build_filename(dir, "accel2", NULL);
	g_autofree char *n10 = g_build_filename(dir, "accel10", NULL);
	struct fdif_device *dev;

	fake_reset();
	k.is_device = is_fake_dev;
	g_assert_true(g_file_set_contents(dev2_path, "", 0, NULL));
	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	g_assert_true(g_file_set_contents(n0, "", 0, NULL));
	g_assert_cmpint(symlink(dev2_path, n10), ==, 0);
	g_assert_cmpint(symlink(dev_path, n2), ==, 0);
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);

	g_unsetenv("FDIF_DEVICE");
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpint(which_dev(dev), ==, 1);
	fdif_close(dev);
	g_setenv("FDIF_DEVICE", "1", TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpint(which_dev(dev), ==, 2);
	fdif_close(dev);
	g_setenv("FDIF_DEVICE", "0", TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpint(which_dev(dev), ==, 1);
	fdif_close(dev);
	g_setenv("FDIF_DEVICE", "2", TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, -ENODEV);
	g_assert_null(dev);
	g_setenv("FDIF_DEVICE", n10, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, 0);
	g_assert_cmpint(which_dev(dev), ==, 2);
	fdif_close(dev);
	g_setenv("FDIF_DEVICE", n0, TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, -ENODEV);
	g_setenv("FDIF_DEVICE", "/nonexistent/accel0", TRUE);
	g_assert_cmpint(fdif_open(&dev), ==, -ENOENT);
	g_unsetenv("FDIF_DEVICE");
	g_unsetenv("FDIF_ACCEL_DIR");
	g_unlink(n0);
	g_unlink(n2);
	g_unlink(n10);
	g_rmdir(dir);
	g_unlink(dev2_path);
}

/* Enumeration: index 0, 1, ... in node order, each saying its node. */
static void test_open_index(void)
{
	g_autofree char *dir = g_build_filename(tmpdir, "accel-idx", NULL);
	g_autofree char *n0 = g_build_filename(dir, "accel0", NULL);
	g_autofree char *n2 = g_build_filename(dir, "accel2", NULL);
	g_autofree char *n10 = g_build_filename(dir, "accel10", NULL);
	struct fdif_device *dev;

	fake_reset();
	k.is_device = is_fake_dev;
	g_assert_true(g_file_set_contents(dev2_path, "", 0, NULL));
	g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
	g_assert_true(g_file_set_contents(n0, "", 0, NULL));
	g_assert_cmpint(symlink(dev2_path, n10), ==, 0);
	g_assert_cmpint(symlink(dev_path, n2), ==, 0);
	g_setenv("FDIF_ACCEL_DIR", dir, TRUE);
	g_assert_cmpint(fdif_open_index(0, &dev), ==, 0);
	g_assert_cmpstr(fdif_device_path(dev), ==, n2);
	fdif_close(dev);
	g_assert_cmpint(fdif_open_index(1, &dev), ==, 0);
	g_assert_cmpstr(fdif_device_path(dev), ==, n10);
	fdif_close(dev);
	g_assert_cmpint(fdif_open_index(2, &dev), ==, -ENODEV);
	g_assert_null(dev);
	g_assert_cmpint(fdif_open_path(n10, &dev), ==, 0);
	g_assert_cmpstr(fdif_device_path(dev), ==, n10);
	fdif_close(dev);
	g_unsetenv("FDIF_ACCEL_DIR");
	g_unlink(n0);
	g_unlink(n2);
	g_unlink(n10);
	g_rmdir(dir);
	g_unlink(dev2_path);
}

/* A "dma-buf": a frame-sized file. */
static int make_dmabuf(const char *name)
{
	g_autofree char *path = g_build_filename(tmpdir, name, NULL);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, 320 * 240), ==, 0);
	return fd;
}

/*
 * One dma-buf imported twice (through two fds) is one BO, counted: freeing
 * one reference keeps the GEM handle open for the other. Before, each
 * import was a BO of its own with the same handle, and freeing one closed
 * the handle under the other.
 */
static void test_import_twice(void)
{
	g_autofree char *path = g_build_filename(tmpdir, "dmabuf2", NULL);
	struct fdif_face f[MAX_FACES];
	struct fdif_device *dev;
	struct fdif_bo *a, *b, *c;
	struct fdif_params p;
	struct fdif_job *job;
	uint32_t h;
	void *map;
	int fd, fd2;

	fake_reset();
	dev = open_fake();
	fd = make_dmabuf("dmabuf2");
	fd2 = open(path, O_RDWR | O_CLOEXEC);
	g_assert_cmpint(fd2, >=, 0);
	g_assert_cmpint(fdif_bo_import(dev, fd, &a), ==, 0);
	g_assert_cmpint(fdif_bo_import(dev, fd2, &b), ==, 0);
	g_assert_cmpint(fdif_bo_import(dev, fd, &c), ==, 0);
	g_assert_cmpuint(k.prime_imports, ==, 3);
	g_assert_true(a == b);
	g_assert_true(a == c);
	h = fdif_bo_handle(a);
	fdif_bo_free(a);
	fdif_bo_free(c);
	g_assert_true(k.bo[h - 1].live);
	/* the one left still works */
	g_assert_cmpint(fdif_bo_map(b, &map), ==, 0);
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(submit(dev, b, 0, &p, &job), ==, 0);
	g_assert_cmpint(fdif_job_wait(job, -1), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, 2);
	fdif_job_free(job);
	fdif_bo_free(b);
	g_assert_false(k.bo[h - 1].live);
	/* and after the last free, an import is a new BO */
	g_assert_cmpint(fdif_bo_import(dev, fd2, &a), ==, 0);
	g_assert_true(k.bo[fdif_bo_handle(a) - 1].live);
	fdif_bo_free(a);
	close(fd);
	close(fd2);
	fdif_close(dev);
}

/*
 * The fds without close-on-exec: @was (of 1024) those there were before, if
 * not NULL; the number of others, named.
 */
static unsigned int fds_without_cloexec(const uint8_t *was, uint8_t *now)
{
	unsigned int n = 0;
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		int flags = fcntl(fd, F_GETFD);

		now[fd] = flags != -1 && !(flags & FD_CLOEXEC);
		if (now[fd] && !(was && was[fd])) {
			if (was)
				g_test_message("fd %d is not close-on-exec", fd);
			n++;
		}
	}
	return n;
}

/* Every fd the library opens is close-on-exec, with a device, an import and jobs. */
static void test_cloexec(void)
{
	static uint8_t before[1024], after[1024];
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_job *job;
	struct fdif_bo *frame, *imp;
	int fd;

	fake_reset();
	fds_without_cloexec(NULL, before);	/* the ones we were given */
	dev = open_fake();
	frame = frame_bo(dev);
	fd = make_dmabuf("dmabuf3");
	g_assert_cmpint(fdif_bo_import(dev, fd, &imp), ==, 0);
	close(fd);
	fdif_params_init(&p, sizeof(p));
	g_assert_cmpint(submit(dev, imp, 0, &p, &job), ==, 0);
	g_assert_cmpint((fcntl(fdif_device_fd(dev), F_GETFD) & FD_CLOEXEC), ==, FD_CLOEXEC);
	g_assert_cmpint((fcntl(fdif_job_fence_fd(job), F_GETFD) & FD_CLOEXEC), ==, FD_CLOEXEC);
	g_assert_cmpuint(fds_without_cloexec(before, after), ==, 0);
	fdif_job_free(job);
	fdif_bo_free(imp);
	fdif_bo_free(frame);
	fdif_close(dev);
}

/*
 * BOs and jobs outlive fdif_close(): the device (and its DRM file) stays
 * until the last of them is freed. Before, freeing a BO after the close
 * read the freed device (libfdif-device-mock-asan: heap-use-after-free).
 */
static void test_lifetimes(void)
{
	struct fdif_face f[MAX_FACES];
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_job *job, *done;
	struct fdif_bo *frame;
	uint32_t pooled[2], busy[2];
	uint8_t *map;
	int fd;

	fake_reset();
	dev = open_fake();
	fd = fdif_device_fd(dev);
	frame = frame_bo(dev);
	fdif_params_init(&p, sizeof(p));
	/* one job's BOs go to the pool, the other job keeps its own */
	g_assert_cmpint(submit(dev, frame, 0, &p, &done), ==, 0);
	pooled[0] = k.jobs[0].work_handle;
	pooled[1] = k.jobs[0].result_handle;
	g_assert_cmpint(fdif_job_wait(done, -1), ==, 0);
	k.busy = 1;
	g_assert_cmpint(submit(dev, frame, 0, &p, &job), ==, 0);
	busy[0] = k.jobs[0].work_handle;
	busy[1] = k.jobs[0].result_handle;
	fdif_job_free(done);
	fdif_close(dev);
	/* the pool is gone with the application's reference; the rest stays */
	g_assert_false(k.bo[pooled[0] - 1].live);
	g_assert_false(k.bo[pooled[1] - 1].live);
	g_assert_true(k.bo[busy[0] - 1].live);
	g_assert_true(k.bo[fdif_bo_handle(frame) - 1].live);
	g_assert_true(fd_open(fd));
	g_assert_cmpint(fdif_bo_map(frame, (void **)&map), ==, 0);
	map[0] = 1;
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, -EBUSY);
	k.busy = 0;
	write_result(&k.jobs[0], k.jobs[0].seqno);	/* it finished */
	g_assert_cmpint(fdif_job_wait(job, -1), ==, 0);
	g_assert_cmpint(fdif_job_result(job, f, MAX_FACES), ==, 2);
	fdif_bo_free(frame);
	g_assert_true(fd_open(fd));
	/* the last one: its BOs are not pooled on a closed device, the file closes */
	fdif_job_free(job);
	g_assert_false(k.bo[busy[0] - 1].live);
	g_assert_false(k.bo[busy[1] - 1].live);
	g_assert_false(fd_open(fd));
}

/*
 * Several threads on one device, as a camera app's capture and UI threads
 * would: each submits jobs (single and batches) on a frame BO they share
 * and maps, reads its own results (the seqno check fails if two jobs got
 * one result BO), and now and then imports a dma-buf they all import
 * (one handle: the table), runs a whole detect() or makes and
 * frees a BO of its own. The library's pool, BO table and
 * lazily made mappings are shared between them; built with
 * -fsanitize=thread (libfdif-device-mock-tsan) a missing lock is a report.
 */
#define THREAD_ROUNDS	1500

struct worker {
	pthread_t thread;
	struct fdif_device *dev;
	struct fdif_bo *shared;
	int dmabuf;		/* one dma-buf all threads import */
	unsigned int id;
	int err;		/* the first failure, or 0 */
	const char *what;
};

static void worker_fail(struct worker *w, const char *what, int err)
{
	if (!w->err) {
		w->err = err ? err : -1;
		w->what = what;
	}
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct fdif_image img = { 64, 48, 1, 64, NULL };
	struct fdif_face f[MAX_RESULTS];
	struct fdif_params p[3];
	struct fdif_job *jobs[3];
	unsigned int i, j, n, count;
	struct fdif_bo *own, *imp;
	struct fdif_job *job;
	void *map;
	int ret;

	img.pixels = calloc(64, 48);
	for (i = 0; i < 3; i++) {
		fdif_params_init(&p[i], sizeof(p[i]));
		p[i].directions = 1u << i;
	}
	for (i = 0; i < THREAD_ROUNDS && !w->err; i++) {
		ret = fdif_bo_map(w->shared, &map);
		if (ret || !map)
			worker_fail(w, "map the shared frame", ret);
		n = 1 + (i + w->id) % 3;
		ret = submit_batch(w->dev, w->shared, 0, p, n, jobs);
		if (ret) {
			worker_fail(w, "submit", ret);
			break;
		}
		for (j = 0; j < n; j++) {
			ret = fdif_job_wait(jobs[j], 1000000000);
			if (!ret)
				ret = fdif_job_result(jobs[j], f, MAX_FACES);
			if (ret != 2)
				worker_fail(w, "result", ret);
		}
		for (j = 0; j < n; j++)
			fdif_job_free(jobs[(j + i) % n]);	/* not in order */
		if (i % 16 == w->id % 16) {
			ret = detect(w->dev, &img, &p[0], f, MAX_RESULTS, &count);
			if (ret || count != 2)
				worker_fail(w, "detect_image", ret);
		}
		if (i % 4 == w->id % 4) {
			/* the same handle for all: none may close it under another */
			ret = fdif_bo_import(w->dev, w->dmabuf, &imp);
			if (ret) {
				worker_fail(w, "import", ret);
				break;
			}
			ret = submit(w->dev, imp, 0, &p[0], &job);
			if (!ret)
				ret = fdif_job_wait(job, 1000000000);
			if (!ret)
				ret = fdif_job_result(job, f, MAX_FACES);
			if (ret != 2)
				worker_fail(w, "job on an import", ret);
			fdif_job_free(job);
			fdif_bo_free(imp);
		}
		if (i % 8 == 0) {
			ret = fdif_bo_create(w->dev, 4096, &own);
			if (!ret)
				ret = fdif_bo_map(own, &map);
			if (ret)
				worker_fail(w, "own BO", ret);
			fdif_bo_free(own);
		}
	}
	free(img.pixels);
	return NULL;
}

static void check_threads(unsigned int nthreads)
{
	struct worker w[8];
	struct fdif_device *dev;
	struct fdif_bo *shared;
	unsigned int i;
	int dmabuf;

	g_assert_cmpuint(nthreads, <=, G_N_ELEMENTS(w));
	fake_reset();
	dev = open_fake();
	shared = frame_bo(dev);
	dmabuf = make_dmabuf("dmabuf-threads");
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .dev = dev, .shared = shared, .dmabuf = dmabuf, .id = i };
		g_assert_cmpint(pthread_create(&w[i].thread, NULL, worker_run, &w[i]), ==, 0);
	}
	for (i = 0; i < nthreads; i++) {
		g_assert_cmpint(pthread_join(w[i].thread, NULL), ==, 0);
		if (w[i].err)
			g_test_message("thread %u: %s: %d", i, w[i].what, w[i].err);
		g_assert_cmpint(w[i].err, ==, 0);
	}
	close(dmabuf);
	fdif_bo_free(shared);
	fdif_close(dev);
	/* every BO the threads made went back: only the closed device's are gone */
	for (i = 0; i < MAX_BOS; i++)
		g_assert_false(k.bo[i].live);
}

static void test_threads_2(void)
{
	check_threads(2);
}

static void test_threads_4(void)
{
	check_threads(4);
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("libfdif-mock-XXXXXX", NULL);
	dev_path = g_build_filename(tmpdir, "accel0", NULL);
	dev2_path = g_build_filename(tmpdir, "dev2", NULL);
	g_test_add_func("/libfdif/device/caps", test_caps);
	g_test_add_func("/libfdif/device/caps-grown", test_caps_grown);
	g_test_add_func("/libfdif/device/old-uapi", test_old_uapi);
	g_test_add_func("/libfdif/device/open-dir", test_open_dir);
	g_test_add_func("/libfdif/device/open-env", test_open_env);
	g_test_add_func("/libfdif/device/open-index", test_open_index);
	g_test_add_func("/libfdif/device/open-env-secure", test_open_env_secure);
	g_test_add_func("/libfdif/device/open-sysfs", test_open_sysfs);
	g_test_add_func("/libfdif/device/results", test_results);
	g_test_add_func("/libfdif/device/results-grown", test_results_grown);
	g_test_add_func("/libfdif/device/wait-deadline", test_wait_deadline);
	g_test_add_func("/libfdif/device/bad-params", test_bad_params);
	g_test_add_func("/libfdif/device/detect-image", test_detect_image);
	g_test_add_func("/libfdif/device/detect-image-roi", test_detect_image_roi);
	g_test_add_func("/libfdif/device/formats", test_formats);
	g_test_add_func("/libfdif/device/no-grey", test_no_grey);
	g_test_add_func("/libfdif/device/request-picture", test_request_picture);
	g_test_add_func("/libfdif/device/request-classes", test_request_classes);
	g_test_add_func("/libfdif/device/request-directions", test_request_directions);
	g_test_add_func("/libfdif/device/detect-image-v2", test_detect_image_v2);
	g_test_add_func("/libfdif/device/request-in-fences", test_request_in_fences);
	g_test_add_func("/libfdif/device/libdrm-helpers", test_libdrm_helpers);
	g_test_add_func("/libfdif/device/request-batch", test_request_batch);
	g_test_add_func("/libfdif/device/roi-one-meaning", test_roi_one_meaning);
	g_test_add_func("/libfdif/device/import-map", test_import_map);
	g_test_add_func("/libfdif/device/import-twice", test_import_twice);
	g_test_add_func("/libfdif/device/cloexec", test_cloexec);
	g_test_add_func("/libfdif/device/lifetimes", test_lifetimes);
	g_test_add_func("/libfdif/device/threads-2", test_threads_2);
	g_test_add_func("/libfdif/device/threads-4", test_threads_4);
	g_test_add_func("/libfdif/device/v3-detection", test_v3_detection);
	g_test_add_func("/libfdif/device/v3-jobs-wait", test_v3_jobs_wait);
	ret = g_test_run();
	if (k.fd > 0)
		close(k.fd);
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);

		(void)!system(cmd);
	}
	g_free(dev_path);
	g_free(dev2_path);
	g_free(tmpdir);
	return ret;
}
