// SPDX-License-Identifier: MIT
/*
 * fdif_detect_image(): from a decoded picture of any size to faces in its
 * own coordinates, through one frame BO and up to three jobs in flight.
 * The frame's size and the ROI's limits are the device's (fdif_caps).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

#define WAIT_NS		(30LL * 1000 * 1000 * 1000)

/* The ROI in picture pixels -> frame pixels, clamped to what the device takes. */
static int frame_roi(const struct fdif_caps *c, const struct fdif_frame_map *map,
		     const struct fdif_params *in, struct fdif_params *out)
{
	double x0, y0, x1, y1;

	*out = *in;
	if (!in->roi_width && !in->roi_height && !in->roi_x && !in->roi_y)
		return 0;
	if (!in->roi_width || !in->roi_height)
		return -EINVAL;
	x0 = fmax(0, in->roi_x / map->scale + map->off_x);
	y0 = fmax(0, in->roi_y / map->scale + map->off_y);
	x1 = fmin(c->frame_width, (in->roi_x + (double)in->roi_width) / map->scale + map->off_x);
	y1 = fmin(c->frame_height, (in->roi_y + (double)in->roi_height) / map->scale + map->off_y);
	/* the device's limits: the left and top edges, the smallest ROI */
	out->roi_x = (unsigned int)fmin(floor(x0), c->roi_max_x);
	out->roi_y = (unsigned int)fmin(floor(y0), c->roi_max_y);
	x1 = fmax(ceil(x1), out->roi_x + (double)c->roi_min_width);
	y1 = fmax(ceil(y1), out->roi_y + (double)c->roi_min_height);
	if (x1 > c->frame_width || y1 > c->frame_height)
		return -EINVAL;
	out->roi_width = (unsigned int)x1 - out->roi_x;
	out->roi_height = (unsigned int)y1 - out->roi_y;
	return 0;
}

/* Queue @n jobs on @frame, in batches of at most max_jobs. */
static int submit_all(struct fdif_device *dev, const struct fdif_caps *c,
		      struct fdif_bo *frame, const struct fdif_params *fp,
		      unsigned int n, struct fdif_job **jobs)
{
	unsigned int i, k;
	int ret = 0;

	for (i = 0; i < n && !ret; i += k) {
		k = n - i < c->max_jobs ? n - i : c->max_jobs;
		ret = fdif_submit_batch(dev, frame, 0, fp + i, k, jobs + i);
	}
	return ret;
}

int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max, unsigned int *count)
{
	struct fdif_job *jobs[3] = { NULL };
	struct fdif_params fp[3];
	struct fdif_image gray = { 0 };
	struct fdif_face *found = NULL;
	struct fdif_frame_map map;
	struct fdif_caps c;
	struct fdif_bo *frame = NULL;
	unsigned int ndirs = 0, i, n = 0;
	void *pixels;
	int ret;

	*count = 0;
	if (p->direction > FDIF_DIR_ALL)
		return -EINVAL;
	ret = fdif_query_caps(dev, &c);
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
		ret = frame_roi(&c, &map, p, &fp[0]);
	if (ret)
		goto out;

	/* a full scan queues every direction the device scans at once: they pipeline */
	for (i = FDIF_DIR_UP; i <= FDIF_DIR_LEFT; i++) {
		if (p->direction == FDIF_DIR_ALL ? !(c.directions & (1u << i)) :
		    p->direction != i)
			continue;
		fp[ndirs] = fp[0];
		fp[ndirs++].direction = i;
	}
	found = ndirs ? calloc((size_t)ndirs * c.max_objects + 1, sizeof(*found)) : NULL;
	ret = !ndirs ? -EINVAL : !found ? -ENOMEM : 0;
	if (!ret)
		ret = submit_all(dev, &c, frame, fp, ndirs, jobs);
	for (i = 0; i < ndirs && !ret; i++) {
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
	if (ndirs > 1)
		n = fdif_merge_faces(found, n);
	for (i = 0; i < n && i < max; i++) {
		faces[i] = found[i];
		fdif_map_face(&map, &faces[i]);
	}
	*count = i;
out:
	for (i = 0; i < 3; i++) {
		if (jobs[i])
			fdif_job_wait(jobs[i], WAIT_NS);	/* before the frame goes */
		fdif_job_free(jobs[i]);
	}
	free(found);
	fdif_bo_free(frame);
	fdif_image_free(&gray);
	return ret;
}
