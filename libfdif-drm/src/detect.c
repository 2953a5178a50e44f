// SPDX-License-Identifier: MIT
/*
 * fdif_detect_image(): from a decoded picture of any size to faces in its
 * own coordinates, through one frame BO and up to three jobs in flight.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fdif/fdif.h"
#include "fdif-private.h"

#define WAIT_NS		(30LL * 1000 * 1000 * 1000)

/* The ROI in picture pixels -> frame pixels, clamped to the frame. */
static int frame_roi(const struct fdif_frame_map *map, const struct fdif_params *in,
		     struct fdif_params *out)
{
	double x0, y0, x1, y1;

	*out = *in;
	if (!in->roi_width && !in->roi_height && !in->roi_x && !in->roi_y)
		return 0;
	if (!in->roi_width || !in->roi_height)
		return -EINVAL;
	x0 = fmax(0, in->roi_x / map->scale + map->off_x);
	y0 = fmax(0, in->roi_y / map->scale + map->off_y);
	x1 = fmin(FDIF_FRAME_WIDTH, (in->roi_x + (double)in->roi_width) / map->scale + map->off_x);
	y1 = fmin(FDIF_FRAME_HEIGHT, (in->roi_y + (double)in->roi_height) / map->scale + map->off_y);
	/* the FDIF: left edge <= 160, top <= 120, at least 20x20 */
	out->roi_x = (unsigned int)fmin(floor(x0), 160);
	out->roi_y = (unsigned int)fmin(floor(y0), 120);
	x1 = fmax(ceil(x1), out->roi_x + 20.0);
	y1 = fmax(ceil(y1), out->roi_y + 20.0);
	if (x1 > FDIF_FRAME_WIDTH || y1 > FDIF_FRAME_HEIGHT)
		return -EINVAL;
	out->roi_width = (unsigned int)x1 - out->roi_x;
	out->roi_height = (unsigned int)y1 - out->roi_y;
	return 0;
}

int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max, unsigned int *count)
{
	struct fdif_job *jobs[3] = { NULL };
	struct fdif_face found[FDIF_MAX_RESULTS];
	struct fdif_image gray = { 0 };
	struct fdif_frame_map map;
	struct fdif_params fp;
	struct fdif_bo *frame = NULL;
	unsigned int ndirs, i, n = 0;
	void *pixels;
	int ret;

	*count = 0;
	if (p->direction > FDIF_DIR_ALL)
		return -EINVAL;
	ret = img->channels == 1 ? 0 : fdif_image_to_gray(img, &gray);
	if (ret)
		return ret;
	ret = fdif_bo_create(dev, FDIF_FRAME_WIDTH * FDIF_FRAME_HEIGHT, &frame);
	if (!ret)
		ret = fdif_bo_map(frame, &pixels);
	if (!ret)
		ret = fdif_image_fit(img->channels == 1 ? img : &gray, pixels, &map);
	if (!ret)
		ret = frame_roi(&map, p, &fp);
	if (ret)
		goto out;

	/* a full scan queues the three directions at once: they pipeline */
	ndirs = p->direction == FDIF_DIR_ALL ? 3 : 1;
	for (i = 0; i < ndirs && !ret; i++) {
		fp.direction = ndirs == 3 ? i : p->direction;
		ret = fdif_submit(dev, frame, 0, &fp, &jobs[i]);
	}
	for (i = 0; i < ndirs && !ret && jobs[i]; i++) {
		int got;

		ret = fdif_job_wait(jobs[i], WAIT_NS);
		got = ret ? ret : fdif_job_result(jobs[i], found + n, FDIF_MAX_RESULTS - n);
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
	fdif_bo_free(frame);
	fdif_image_free(&gray);
	return ret;
}
