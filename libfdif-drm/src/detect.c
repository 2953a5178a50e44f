// SPDX-License-Identifier: MIT
/*
 * fdif_detect_start() and fdif_detect_image(): from a picture of any size
 * to faces in its own coordinates, through one frame BO (the device's,
 * reused from one detection to the next) and a job per max_job_directions
 * directions in flight, all requested through fdif_submit_requests().
 * The frame's size and the ROI's limits are the device's (fdif_caps).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/sync_file.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

#define DEFAULT_TIMEOUT_NS	(10LL * 1000 * 1000 * 1000)

/* The ROI of @p, if any, inside @img (as fdif_submit_requests() checks its picture's)? */
static int roi_check(const struct fdif_image *img, const struct fdif_params *p)
{
	if (!p->roi_width && !p->roi_height && !p->roi_x && !p->roi_y)
		return 0;
	if (!p->roi_width || !p->roi_height ||
	    p->roi_x > img->width || p->roi_width > img->width - p->roi_x ||
	    p->roi_y > img->height || p->roi_height > img->height - p->roi_y)
		return -EINVAL;
	return 0;
}

/* A region of the frame, in whole frame pixels: [x0, x1) x [y0, y1). */
struct frame_rect {
	double x0, y0, x1, y1;
};

/*
 * The ROI in picture pixels -> frame pixels: @want, the ROI itself
 * (widened to whole frame pixels); @out's, what the device is asked for:
 * @want moved and widened to the device's limits (its largest left and
 * top edges, its smallest ROI), so it may reach past @want.
 */
static int frame_roi(const struct fdif_caps *c, const struct fdif_frame_map *map,
		     const struct fdif_params *in, struct fdif_params *out,
		     struct frame_rect *want)
{
	double x1, y1;

	*out = *in;
	*want = (struct frame_rect){ 0, 0, c->frame_width, c->frame_height };
	if (!in->roi_width && !in->roi_height && !in->roi_x && !in->roi_y)
		return 0;
	want->x0 = fmax(0, floor(in->roi_x / map->scale + map->off_x));
	want->y0 = fmax(0, floor(in->roi_y / map->scale + map->off_y));
	want->x1 = fmin(c->frame_width,
			ceil((in->roi_x + (double)in->roi_width) / map->scale + map->off_x));
	want->y1 = fmin(c->frame_height,
			ceil((in->roi_y + (double)in->roi_height) / map->scale + map->off_y));
	/* the device's limits: the left and top edges, the smallest ROI */
	out->roi_x = (unsigned int)fmin(want->x0, c->roi_max_x);
	out->roi_y = (unsigned int)fmin(want->y0, c->roi_max_y);
	x1 = fmax(want->x1, out->roi_x + (double)c->roi_min_width);
	y1 = fmax(want->y1, out->roi_y + (double)c->roi_min_height);
	if (x1 > c->frame_width || y1 > c->frame_height)
		return -EINVAL;
	out->roi_width = (unsigned int)x1 - out->roi_x;
	out->roi_height = (unsigned int)y1 - out->roi_y;
	return 0;
}

/*
 * The faces (in frame pixels, as the device gave them) whose box lies
 * inside @want: what the device would have found had it taken the ROI
 * as it is (every face it reports lies inside its ROI), not those of
 * the region it was widened or moved to. Return: how many are left.
 */
static unsigned int faces_inside(struct fdif_face *f, unsigned int n,
				 const struct frame_rect *want)
{
	unsigned int i, out = 0;

	for (i = 0; i < n; i++) {
		/* the box's edges: the center is its left edge plus width / 2, rounded down */
		double x0 = f[i].x - floor(f[i].width / 2), y0 = f[i].y - floor(f[i].height / 2);

		if (x0 >= want->x0 && y0 >= want->y0 &&
		    x0 + f[i].width <= want->x1 && y0 + f[i].height <= want->y1)
			f[out++] = f[i];
	}
	return out;
}

#define MAX_JOBS	32	/* a job a direction at most: 32 bits */

struct fdif_detection {
	struct fdif_device *dev;
	struct fdif_bo *frame;
	struct fdif_job *jobs[MAX_JOBS];
	unsigned int njobs;
	int fence_fd;			/* the jobs' fences merged, once asked for */
	uint32_t directions;
	uint32_t max_objects;
	int roi;			/* an ROI was asked for: @want */
	struct frame_rect want;
	struct fdif_frame_map map;
};

/* The end of struct fdif_params' first version (LIBFDIF_DRM_3). */
#define PARAMS_V1_SIZE	(offsetof(struct fdif_params, timeout_ns) + sizeof(int64_t))

void fdif_params_init(struct fdif_params *p, size_t size)
{
	struct fdif_params d = {
		.size = (uint32_t)size,
		.directions = FDIF_DIR_UP,
		.min_size = 0,		/* the device's smallest */
		.threshold = FDIF_THRESHOLD_DEFAULT,
		.timeout_ns = DEFAULT_TIMEOUT_NS,
	};

	memset(p, 0, size);
	memcpy(p, &d, size < sizeof(d) ? size : sizeof(d));
	p->size = (uint32_t)size;
}

/* @in (as long as the caller knows it) read into @p: as fdif_request's */
static int params_read(const struct fdif_params *in, struct fdif_params *p)
{
	return fdif_sized_read(in, in->size, PARAMS_V1_SIZE, p, sizeof(*p));
}

/*
 * Queue the scans of @directions on @req's picture: one request if its
 * jobs fit one submission, else as many as needed, max_jobs jobs each.
 */
static int submit_all(struct fdif_device *dev, const struct fdif_caps *c,
		      struct fdif_request *req, uint32_t directions,
		      struct fdif_job **jobs, unsigned int *njobs)
{
	uint64_t per = (uint64_t)(c->max_jobs ? c->max_jobs : 1) *
		       (c->max_job_directions ? c->max_job_directions : 1);
	unsigned int got;
	int ret;

	*njobs = 0;
	while (directions) {
		uint32_t take = 0;
		uint64_t k;

		for (k = 0; k < per && directions; k++) {
			take |= directions & -directions;
			directions &= directions - 1;
		}
		req->directions = take;
		ret = fdif_submit_requests(dev, req, 1, jobs + *njobs, MAX_JOBS - *njobs, &got);
		if (ret)
			return ret;
		*njobs += got;
	}
	return 0;
}

/* One sync_file for every job's fence (SYNC_IOC_MERGE), for a poll loop. */
static int merge_fences(struct fdif_detection *d)
{
	unsigned int i;

	for (i = 1; i < d->njobs; i++) {
		struct sync_merge_data m = {
			.name = "fdif-detection",
			.fd2 = fdif_job_fence_fd(d->jobs[i]),
		};
		int fd1 = i == 1 ? fdif_job_fence_fd(d->jobs[0]) : d->fence_fd;

		if (ioctl(fd1, SYNC_IOC_MERGE, &m) < 0) {
			int err = -errno;

			if (d->fence_fd >= 0)
				close(d->fence_fd);
			d->fence_fd = -1;
			return err;
		}
		if (d->fence_fd >= 0)
			close(d->fence_fd);
		d->fence_fd = m.fence;
	}
	return 0;
}

/* A frame BO of @size bytes: the device's cached one if it is that large. */
static int frame_get(struct fdif_device *dev, size_t size, struct fdif_bo **frame)
{
	struct fdif_bo *bo = fdif_frame_take(dev);

	if (bo && fdif_bo_size(bo) >= size) {
		*frame = bo;
		return 0;
	}
	fdif_bo_free(bo);
	return fdif_bo_create(dev, size, frame);
}

int fdif_detect_start(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *in, struct fdif_detection **det)
{
	struct fdif_detection *d;
	struct fdif_params p, fp;
	struct fdif_request req;
	struct fdif_caps c = { .size = sizeof(c) };
	void *pixels;
	int ret;

	*det = NULL;
	ret = params_read(in, &p);
	if (!ret)
		ret = fdif_query_caps(dev, &c);
	if (ret)
		return ret;
	if (!c.frame_width)
		return -ENOTSUP;	/* no grey frame to fit the picture into */
	if (!p.directions || p.directions & ~c.directions)
		return -EINVAL;
	ret = roi_check(img, &p);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->dev = dev;
	d->fence_fd = -1;
	d->directions = p.directions;
	d->max_objects = c.max_objects;
	d->roi = p.roi_width != 0;
	ret = frame_get(dev, (size_t)c.frame_stride * c.frame_height, &d->frame);
	if (!ret)
		ret = fdif_bo_map(d->frame, &pixels);
	if (!ret)
		ret = fdif_image_fit_frame(img, pixels, c.frame_width, c.frame_height,
					   c.frame_stride, &d->map);
	if (!ret)
		ret = frame_roi(&c, &d->map, &p, &fp, &d->want);
	if (!ret) {
		fdif_request_init(&req, sizeof(req));
		req.picture.fourcc = DRM_FORMAT_R8;
		req.picture.width = c.frame_width;
		req.picture.height = c.frame_height;
		req.picture.planes[0] = (struct fdif_plane){ d->frame, 0, c.frame_stride };
		req.min_size = fp.min_size;
		req.threshold = fp.threshold;
		req.roi_x = fp.roi_x;
		req.roi_y = fp.roi_y;
		req.roi_width = fp.roi_width;
		req.roi_height = fp.roi_height;
		ret = submit_all(dev, &c, &req, p.directions, d->jobs, &d->njobs);
	}
	if (ret) {
		fdif_detection_free(d);
		return ret;
	}
	*det = d;
	return 0;
}

int fdif_detection_fence_fd(struct fdif_detection *d)
{
	int ret;

	if (d->njobs == 1)
		return fdif_job_fence_fd(d->jobs[0]);
	if (d->fence_fd < 0) {
		ret = merge_fences(d);
		if (ret)
			return ret;
	}
	return d->fence_fd;
}

int fdif_detection_wait(struct fdif_detection *d, int64_t timeout_ns)
{
	return fdif_jobs_wait(d->jobs, d->njobs, FDIF_WAIT_ALL, timeout_ns, NULL);
}

int fdif_detection_result(struct fdif_detection *d, struct fdif_face *faces,
			  unsigned int max)
{
	struct fdif_face *found;
	unsigned int i, n = 0;
	int ret = 0;

	found = calloc((size_t)d->njobs * d->max_objects + 1, sizeof(*found));
	if (!found)
		return -ENOMEM;
	for (i = 0; i < d->njobs && !ret; i++) {
		int got = fdif_job_result(d->jobs[i], found + n, d->max_objects);

		if (got < 0)
			ret = got;
		else	/* a job reports at most max_objects */
			n += (unsigned int)got < d->max_objects ? (unsigned int)got : d->max_objects;
	}
	if (ret) {
		free(found);
		return ret;
	}
	if (d->roi)
		n = faces_inside(found, n, &d->want);
	if (d->directions & (d->directions - 1))
		n = fdif_merge_faces(found, n);	/* the scans found some twice */
	for (i = 0; i < n && i < max; i++) {
		faces[i] = found[i];
		fdif_map_face(&d->map, &faces[i]);
	}
	free(found);
	return (int)n;
}

void fdif_detection_free(struct fdif_detection *d)
{
	unsigned int i;
	int idle = 1;

	if (!d)
		return;
	/*
	 * No wait: a job still running is the kernel's to end (a hung one by
	 * its timeout), and the kernel holds its BOs meanwhile. The frame goes
	 * back for the next detection only if no job reads it any more, else
	 * it is freed.
	 */
	for (i = 0; i < d->njobs; i++)
		idle &= fdif_job_wait(d->jobs[i], 0) == 0;
	for (i = 0; i < d->njobs; i++)
		fdif_job_free(d->jobs[i]);
	if (d->fence_fd >= 0)
		close(d->fence_fd);
	if (d->frame && idle)
		fdif_frame_give(d->dev, d->frame);
	else
		fdif_bo_free(d->frame);
	free(d);
}

int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max)
{
	struct fdif_detection *d;
	int ret = fdif_detect_start(dev, img, p, &d);

	if (ret)
		return ret;
	ret = fdif_detection_wait(d, p->timeout_ns);
	if (!ret)
		ret = fdif_detection_result(d, faces, max);
	fdif_detection_free(d);
	return ret;
}
