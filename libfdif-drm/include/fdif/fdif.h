/* SPDX-License-Identifier: MIT */
/*
 * libfdif-drm - faces from pictures on the FDIF face-detection accelerator
 *
 * A small C library over libdrm and the fdif accel uAPI. Every function
 * that can fail returns 0 (or a count) on success and a negative errno on
 * failure; fdif_strerror() turns it into a message. The library never
 * prints and never exits.
 *
 * Typical use:
 *
 *	struct fdif_device *dev;
 *	struct fdif_image img;
 *	struct fdif_face faces[FDIF_MAX_RESULTS];
 *	struct fdif_params p;
 *	unsigned int n;
 *
 *	fdif_open(&dev);
 *	fdif_image_load("photo.jpg", &img);
 *	fdif_params_init(&p);
 *	fdif_detect_image(dev, &img, &p, faces, FDIF_MAX_RESULTS, &n);
 *
 * For pipelining, fdif_submit() queues a job and returns at once; several
 * jobs may be in flight, each with its own fence (fdif_job_fence_fd(),
 * pollable, or fdif_job_syncobj() for DRM syncobj users). Picture BOs can
 * be reused for the next frame once fdif_job_wait() returned for the jobs
 * reading them.
 */
#ifndef FDIF_FDIF_H
#define FDIF_FDIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FDIF_FRAME_WIDTH	320	/* what the OMAP4 FDIF takes */
#define FDIF_FRAME_HEIGHT	240
#define FDIF_MAX_FACES		35	/* one job */
#define FDIF_MAX_RESULTS	(3 * FDIF_MAX_FACES)	/* a full scan */

/** enum fdif_direction - which way faces look */
enum fdif_direction {
	FDIF_DIR_UP = 0,	/* upright, -30..30 degrees */
	FDIF_DIR_RIGHT = 1,	/* top of the head to the right, 60..120 */
	FDIF_DIR_LEFT = 2,	/* top of the head to the left, 240..300 */
	FDIF_DIR_ALL = 3,	/* full scan: all three, duplicates merged */
};

struct fdif_device;
struct fdif_bo;
struct fdif_job;

/**
 * struct fdif_caps - what the device can do (DRM_IOCTL_FDIF_GET_PARAM)
 * @revision: hardware revision register
 * @max_width: widest picture
 * @max_height: tallest picture
 * @formats: bit mask of pixel formats (bit 0: 8-bit grey)
 * @object_classes: bit mask of object classes (bit 0: faces)
 * @max_objects: most objects a job reports
 * @directions: bit mask of enum fdif_direction (without FDIF_DIR_ALL)
 * @work_size: bytes of work area a job needs
 * @align: alignment of picture and work area offsets
 * @max_lhit: largest likelihood threshold
 * @min_sizes: supported minimum face sizes in pixels, smallest first
 * @num_min_sizes: entries in @min_sizes
 */
struct fdif_caps {
	uint32_t revision;
	uint32_t max_width, max_height;
	uint32_t formats, object_classes, max_objects, directions;
	uint32_t work_size, align, max_lhit;
	uint8_t min_sizes[8];
	unsigned int num_min_sizes;
};

/**
 * struct fdif_params - a detection request
 * @direction: enum fdif_direction
 * @min_size: smallest face in frame pixels (one of fdif_caps.min_sizes)
 * @lhit: likelihood threshold, 0..fdif_caps.max_lhit, larger is stricter
 * @roi_x: region of interest in frame pixels (all 0: the whole frame)
 * @roi_y: ...
 * @roi_width: ...
 * @roi_height: ...
 */
struct fdif_params {
	unsigned int direction;
	unsigned int min_size;
	unsigned int lhit;
	unsigned int roi_x, roi_y, roi_width, roi_height;
};

/**
 * struct fdif_face - one face
 * @x: center column
 * @y: center row
 * @size: side of the face square
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright
 * @confidence: 0 (least) .. 1000 (most)
 * @raw_confidence: the hardware's own value (OMAP4: 0 best .. 9 worst)
 * @direction: the enum fdif_direction scan that found it
 *
 * Coordinates are frame pixels from fdif_job_result(), and picture pixels
 * of the original image from fdif_detect_image().
 */
struct fdif_face {
	double x, y, size;
	unsigned int angle;
	unsigned int confidence;
	unsigned int raw_confidence;
	unsigned int direction;
};

/* Devices */

/** fdif_open() - the first /dev/accel/accel* whose driver is "fdif" */
int fdif_open(struct fdif_device **dev);
/** fdif_open_path() - a given device node; -ENODEV if it is not an FDIF */
int fdif_open_path(const char *path, struct fdif_device **dev);
void fdif_close(struct fdif_device *dev);
/** fdif_device_fd() - the DRM file descriptor, for syncobj users */
int fdif_device_fd(const struct fdif_device *dev);
int fdif_query_caps(struct fdif_device *dev, struct fdif_caps *caps);

/* Buffer objects */

/** fdif_bo_create() - a zeroed, contiguous BO of at least @size bytes */
int fdif_bo_create(struct fdif_device *dev, size_t size, struct fdif_bo **bo);
/**
 * fdif_bo_import() - a BO for a dma-buf (e.g. a camera frame), no copy
 * The dma-buf must be physically contiguous below 4 GiB; @dmabuf_fd stays
 * the caller's.
 */
int fdif_bo_import(struct fdif_device *dev, int dmabuf_fd, struct fdif_bo **bo);
/** fdif_bo_map() - CPU mapping (made once, kept until fdif_bo_free()) */
int fdif_bo_map(struct fdif_bo *bo, void **ptr);
size_t fdif_bo_size(const struct fdif_bo *bo);
/** fdif_bo_handle() - the GEM handle, e.g. for drmPrimeHandleToFD() */
uint32_t fdif_bo_handle(const struct fdif_bo *bo);
void fdif_bo_free(struct fdif_bo *bo);

/* Jobs */

/** fdif_params_init() - whole frame, upright, 20 px, LHIT 5 */
void fdif_params_init(struct fdif_params *p);

/**
 * fdif_submit() - queue a detection on the 320x240 grey frame at @offset
 * in @picture; returns at once. @p->direction must not be FDIF_DIR_ALL.
 */
int fdif_submit(struct fdif_device *dev, struct fdif_bo *picture,
		uint32_t offset, const struct fdif_params *p,
		struct fdif_job **job);
/** fdif_job_fence_fd() - sync_file fd, POLLIN when done; owned by @job */
int fdif_job_fence_fd(const struct fdif_job *job);
/** fdif_job_syncobj() - DRM syncobj signalled when done; owned by @job */
uint32_t fdif_job_syncobj(const struct fdif_job *job);
/** fdif_job_wait() - wait up to @timeout_ns (< 0: forever); -ETIME if not done */
int fdif_job_wait(struct fdif_job *job, int64_t timeout_ns);
/**
 * fdif_job_result() - the faces of a finished job, in frame pixels
 * Return: the number of faces, or the job's error (-EIO, -ETIMEDOUT...).
 */
int fdif_job_result(struct fdif_job *job, struct fdif_face *faces,
		    unsigned int max);
void fdif_job_free(struct fdif_job *job);

/* Images */

/**
 * struct fdif_image - a decoded picture
 * @width: in pixels
 * @height: in pixels
 * @channels: 1 (grey) or 3 (RGB)
 * @stride: bytes per row
 * @pixels: the pixels, malloc()ed
 */
struct fdif_image {
	unsigned int width, height, channels, stride;
	uint8_t *pixels;
};

/**
 * fdif_image_load() - decode a PGM/PPM (binary), PNG or JPEG file
 * Return: 0, -ENOENT/-EACCES..., -ENOTSUP for another format, -EBADMSG for
 * a corrupt or truncated file, -EFBIG for more than 16384 pixels a side.
 */
int fdif_image_load(const char *path, struct fdif_image *img);
int fdif_image_save_png(const char *path, const struct fdif_image *img);
void fdif_image_free(struct fdif_image *img);
/** fdif_image_to_gray() - BT.601 luma of @src as a new 1-channel image */
int fdif_image_to_gray(const struct fdif_image *src, struct fdif_image *dst);
/** fdif_image_to_rgb() - a 3-channel copy of @src, for drawing */
int fdif_image_to_rgb(const struct fdif_image *src, struct fdif_image *dst);
/** fdif_image_draw_square() - outline a face in an RGB image */
void fdif_image_draw_square(struct fdif_image *img, double cx, double cy,
			    double size, uint8_t r, uint8_t g, uint8_t b);

/**
 * struct fdif_frame_map - how a picture was fitted into a frame
 * @scale: picture pixels per frame pixel
 * @off_x: frame column of the picture's left edge
 * @off_y: frame row of its top edge
 */
struct fdif_frame_map {
	double scale;
	double off_x, off_y;
};

/**
 * fdif_image_fit() - resize a grey picture into a 320x240 frame
 * @gray: a 1-channel picture of any size
 * @frame: 320x240 bytes, stride 320
 * @map: how picture coordinates map to the frame
 *
 * Keeps the aspect ratio (the rest of the frame is mid-grey) and resizes
 * with an area filter (each frame pixel the mean of the picture area it
 * covers).
 */
int fdif_image_fit(const struct fdif_image *gray, uint8_t *frame,
		   struct fdif_frame_map *map);
/** fdif_map_face() - a face in frame pixels to picture pixels */
void fdif_map_face(const struct fdif_frame_map *map, struct fdif_face *face);
/**
 * fdif_merge_faces() - drop duplicates (centers within half a face, sizes
 * within 1.5x), keeping the more confident; sorted by confidence after.
 * Return: the number of faces left.
 */
unsigned int fdif_merge_faces(struct fdif_face *faces, unsigned int n);

/**
 * fdif_detect_image() - everything: fit, submit (three jobs in flight for
 * FDIF_DIR_ALL), wait, merge, map back to @img's coordinates
 * @roi coordinates in @p are in picture pixels here.
 * Return: 0 and *@count faces, or a negative errno.
 */
int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max, unsigned int *count);

/** fdif_strerror() - a message for a negative errno from this library */
const char *fdif_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* FDIF_FDIF_H */
