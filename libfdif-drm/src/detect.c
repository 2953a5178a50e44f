// SPDX-License-Identifier: MIT
/*
 * fdif_detect_image(): from a decoded picture of any size to faces in its
 * own coordinates, through one frame BO and a job per max_job_directions
 * directions in flight, all requested through fdif_submit_requests().
 * The frame's size and the ROI's limits are the device's (fdif_caps).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

#define WAIT_NS		(30LL * 1000 * 1000 * 1000)

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

/*
 * Queue the scans of @directions on @req's picture: one request if its
 * jobs fit one submission, else as many as needed, max_jobs jobs each.
 */
static int submit_all(struct fdif_device *dev, struct fdif_request *req,
		      uint32_t directions, struct fdif_job **jobs, unsigned int *njobs)
{
	struct fdif_limits l = { .size = sizeof(l) };
	uint64_t per;
	unsigned int got;
	int ret;

	*njobs = 0;
	ret = fdif_query_limits(dev, &l);
	if (ret)
		return ret;
	per = (uint64_t)(l.max_jobs ? l.max_jobs : 1) * (l.max_job_directions ? l.max_job_directions : 1);
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

int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max, unsigned int *count)
{
	struct fdif_job *jobs[MAX_JOBS] = { NULL };
	struct fdif_params fp;
	struct fdif_request req;
	struct fdif_image gray = { 0 };
	struct fdif_face *found = NULL;
	struct fdif_frame_map map;
	struct frame_rect want;
	struct fdif_caps c;
	struct fdif_bo *frame = NULL;
	unsigned int njobs = 0, i, n = 0;
	uint32_t directions;
	void *pixels;
	int ret;

	*count = 0;
	if (p->direction > FDIF_DIR_ALL)
		return -EINVAL;
	ret = fdif_query_caps(dev, &c);
	if (ret)
		return ret;
	if (!(c.formats & 1))
		return -ENOTSUP;	/* no grey frame to fit the picture into */
	/* a full scan: every direction the device scans faces in, in the fewest jobs */
	directions = p->direction == FDIF_DIR_ALL ? c.directions : 1u << p->direction;
	if (!directions)
		return -EINVAL;
	ret = roi_check(img, p);
	if (ret)
		return ret;
	ret = img->channels == 1 ? 0 : fdif_image_to_gray(img, &gray);
	if (ret)
		return ret;
	ret = fdif_bo_create(dev, (size_t)c.frame_stride * c.frame_height, &frame);
	if (!ret)
		ret = fdif_bo_map(frame, &pixels);
	if (!ret)
		ret = fdif_image_fit_frame(img->channels == 1 ? img : &gray, pixels,
					   c.frame_width, c.frame_height, c.frame_stride, &map);
	if (!ret)
		ret = frame_roi(&c, &map, p, &fp, &want);
	if (ret)
		goto out;

	fdif_request_init(&req, sizeof(req));
	req.picture.fourcc = DRM_FORMAT_R8;
	req.picture.width = c.frame_width;
	req.picture.height = c.frame_height;
	req.picture.planes[0] = (struct fdif_plane){ frame, 0, c.frame_stride };
	req.min_size = fp.min_size;
	req.lhit = fp.lhit;
	req.roi_x = fp.roi_x;
	req.roi_y = fp.roi_y;
	req.roi_width = fp.roi_width;
	req.roi_height = fp.roi_height;
	ret = submit_all(dev, &req, directions, jobs, &njobs);
	found = ret ? NULL : calloc((size_t)njobs * c.max_objects + 1, sizeof(*found));
	if (!ret && !found)
		ret = -ENOMEM;
	for (i = 0; i < njobs && !ret; i++) {
		int got;

		ret = fdif_job_wait(jobs[i], WAIT_NS);
		got = ret ? ret : fdif_job_result(jobs[i], found + n, c.max_objects);
		if (got < 0)
			ret = got;
		else
			n += (unsigned int)got;
	}
	if (ret)
		goto out;
	if (p->roi_width)
		n = faces_inside(found, n, &want);
	if (directions & (directions - 1))
		n = fdif_merge_faces(found, n);	/* the scans found some twice */
	for (i = 0; i < n && i < max; i++) {
		faces[i] = found[i];
		fdif_map_face(&map, &faces[i]);
	}
	*count = i;
out:
	for (i = 0; i < MAX_JOBS; i++) {
		if (jobs[i])
			fdif_job_wait(jobs[i], WAIT_NS);	/* before the frame goes */
		fdif_job_free(jobs[i]);
	}
	free(found);
	fdif_bo_free(frame);
	fdif_image_free(&gray);
	return ret;
}
