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
 *	struct fdif_caps caps;
 *	struct fdif_params p;
 *	unsigned int n;
 *
 *	fdif_open(&dev);			($FDIF_DEVICE, else the first FDIF)
 *	fdif_query_caps(dev, &caps);
 *	faces = calloc(caps.max_objects, sizeof(*faces));
 *	fdif_image_load("photo.jpg", &img);	(libfdif-image, <fdif/image.h>)
 *	fdif_params_init(&p);
 *	fdif_detect_image(dev, &img, &p, faces, caps.max_objects, &n);
 *
 * Any picture the device takes (its formats, several directions, classes,
 * input fences, several pictures in one batch) goes through
 * fdif_submit_requests().
 *
 * For pipelining, fdif_submit() queues a job and returns at once; several
 * jobs may be in flight, each with its own fence (fdif_job_fence_fd(),
 * pollable, or fdif_job_syncobj() for DRM syncobj users). Picture BOs can
 * be reused for the next frame once fdif_job_wait() returned for the jobs
 * reading them.
 *
 * What the device takes (frame size, minimum face sizes, thresholds,
 * result capacity...) is asked once at fdif_open() with the uAPI's
 * queries, never assumed; fdif_query_caps() returns it.
 *
 * Threads: every function may be called from several threads at once,
 * also on one device and the BOs made on it (the device's shared state,
 * its pool of job BOs and the CPU mappings, is under a lock). A job may
 * be waited for and its result read from any thread, from several at
 * once. Freeing an object (fdif_job_free(), fdif_bo_free(), fdif_close())
 * must come after the caller's other calls on that object have returned.
 * Writing a picture BO while a job reads it is the caller's to order (wait
 * for the job first).
 *
 * Every file descriptor the library opens is close-on-exec. After fork(),
 * the child must not use the parent's devices, BOs or jobs (they share
 * the parent's DRM file); it opens a device of its own.
 */
#ifndef FDIF_FDIF_H
#define FDIF_FDIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The OMAP4 FDIF's frame and result capacity, kept for programs written
 * for it (fdif_image_fit(), callers' fixed-size arrays): the library
 * itself never uses them, it asks the device for its own (struct
 * fdif_caps: frame_width, frame_height, max_objects; fdif_query_format(),
 * fdif_query_limits()). New code sizes its arrays from those.
 */
#define FDIF_FRAME_WIDTH	320
#define FDIF_FRAME_HEIGHT	240
#define FDIF_MAX_FACES		35	/* one OMAP4 job */
#define FDIF_MAX_RESULTS	(3 * FDIF_MAX_FACES)	/* a full OMAP4 scan */

#define FDIF_MAX_MIN_SIZES	8	/* entries of fdif_caps.min_sizes */
#define FDIF_MAX_FORMATS	8	/* entries of fdif_caps.fourccs */
#define FDIF_MAX_PLANES		3	/* planes of a picture: the uAPI's */

/* fdif_params.lhit: the threshold the device recommends (OMAP4: 5) */
#define FDIF_LHIT_DEFAULT	(~0u)

/** enum fdif_direction - which way faces look */
enum fdif_direction {
	FDIF_DIR_UP = 0,	/* upright, -30..30 degrees */
	FDIF_DIR_RIGHT = 1,	/* top of the head to the right, 60..120 */
	FDIF_DIR_LEFT = 2,	/* top of the head to the left, 240..300 */
	FDIF_DIR_ALL = 3,	/* full scan: all three, duplicates merged */
};

/**
 * enum fdif_object_class - what an object is (fdif_face.object_class); in
 * a class mask (fdif_request.classes, fdif_caps.object_classes) bit n
 * stands for class n
 */
enum fdif_object_class {
	FDIF_CLASS_FACE = 0,	/* a human face */
};

struct fdif_device;
struct fdif_bo;
struct fdif_job;

/**
 * struct fdif_caps - what the device can do (DRM_IOCTL_FDIF_QUERY)
 * @revision: hardware revision register
 * @max_width: widest 8-bit grey picture the device takes
 * @max_height: tallest 8-bit grey picture
 * @formats: bit 0 set if the device takes 8-bit grey (DRM_FORMAT_R8)
 *	pictures: the frame fdif_submit() and fdif_detect_image() use;
 *	@fourccs lists the device's formats, fdif_query_format() their limits
 * @object_classes: bit mask of enum fdif_object_class the device detects
 * @max_objects: most objects one job reports (OMAP4: 35)
 * @directions: bit mask of enum fdif_direction (without FDIF_DIR_ALL) in
 *	which the device scans for faces
 * @work_size: bytes of work area a job needs (0: none)
 * @align: the larger of @offset_align and @work_align
 * @max_lhit: largest likelihood threshold (fdif_params.lhit)
 * @min_sizes: widths of the supported minimum face sizes in pixels of the
 *	picture the device looks at,
 *	smallest first (OMAP4: 20, 25, 32, 40); at most FDIF_MAX_MIN_SIZES
 * @num_min_sizes: entries in @min_sizes and @min_heights
 * @generation: the hardware generation (1: OMAP4)
 * @default_lhit: the likelihood threshold the hardware vendor recommends
 * @min_heights: heights of the minimum sizes, @min_heights[i] going with
 *	@min_sizes[i] (equal to it on the OMAP4: faces are square)
 * @frame_width: width of the frames the library submits: the largest
 *	8-bit grey picture (OMAP4: 320)
 * @frame_height: their height (OMAP4: 240)
 * @frame_stride: bytes from one frame row to the next (OMAP4: 320); a
 *	frame BO needs @frame_stride * @frame_height bytes
 * @offset_align: alignment of a frame's offset in its BO (OMAP4: 32)
 * @work_align: alignment of the work area's offset in its BO
 * @roi_min_width: narrowest region of interest (OMAP4: 20)
 * @roi_min_height: lowest region of interest (OMAP4: 20)
 * @roi_max_x: largest left edge of a region of interest (OMAP4: 160)
 * @roi_max_y: largest top edge of a region of interest (OMAP4: 120)
 * @max_jobs: most jobs one fdif_submit_batch() or fdif_submit_requests()
 *	takes (OMAP4: 16)
 * @result_size: bytes of a job's result region
 * @object_fields: which face fields the device fills in, the uAPI's
 *	DRM_FDIF_OBJECT_* bits: 0 box, 1 angle, 2 direction, 3 confidence,
 *	4 raw confidence (OMAP4: all five, 0x1f)
 * @fourccs: DRM_FORMAT_* codes of the picture formats the device takes,
 *	at most FDIF_MAX_FORMATS
 * @num_formats: entries in @fourccs
 *
 * The fields up to @num_min_sizes are those of the first version of this
 * structure; the rest came with the query uAPI.
 */
struct fdif_caps {
	uint32_t revision;
	uint32_t max_width, max_height;
	uint32_t formats, object_classes, max_objects, directions;
	uint32_t work_size, align, max_lhit;
	unsigned int min_sizes[FDIF_MAX_MIN_SIZES];
	unsigned int num_min_sizes;

	uint32_t generation;
	uint32_t default_lhit;
	unsigned int min_heights[FDIF_MAX_MIN_SIZES];
	uint32_t frame_width, frame_height, frame_stride;
	uint32_t offset_align, work_align;
	uint32_t roi_min_width, roi_min_height, roi_max_x, roi_max_y;
	uint32_t max_jobs;
	uint32_t result_size, object_fields;
	uint32_t fourccs[FDIF_MAX_FORMATS];
	unsigned int num_formats;
};

/**
 * DOC: coordinates
 *
 * The region of interest (fdif_params.roi_*, fdif_request.roi_*) and the
 * faces a call reports are always in pixels of the picture that call is
 * given: the frame BO's picture for fdif_submit() and fdif_submit_batch()
 * (fdif_caps.frame_width x frame_height), fdif_request.picture for
 * fdif_submit_requests(), the struct fdif_image for fdif_detect_image().
 * A region all 0 is the whole picture; otherwise it must have a width and
 * a height and lie inside the picture (-EINVAL). fdif_detect_image()
 * asks the device for it moved and widened to what the device takes where
 * it must be, and returns only the faces whose box lies inside the region
 * (mapped into the device's frame, out to whole frame pixels).
 */

/**
 * struct fdif_params - a detection request on the device's grey frame
 * @direction: enum fdif_direction
 * @min_size: smallest face in pixels of the picture the device looks at
 *	(for fdif_detect_image(): the frame it is fitted into): one of
 *	fdif_caps.min_sizes, or 0 for the smallest the device takes
 * @lhit: likelihood threshold, 0..fdif_caps.max_lhit, larger is stricter;
 *	FDIF_LHIT_DEFAULT for fdif_caps.default_lhit
 * @roi_x: region of interest (DOC: coordinates; all 0: the whole picture)
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
 * @x: center column: the box's left edge plus half its width (rounded
 *	down in the submitted picture's pixels, the OMAP4's own center)
 * @y: center row, likewise
 * @size: side of the face square: the larger of @width and @height
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright
 * @confidence: 0 (least) .. 1000 (most)
 * @raw_confidence: the hardware's own value (OMAP4: 0 best .. 9 worst)
 * @direction: the enum fdif_direction scan that found it
 * @width: width of the face's box
 * @height: height of the face's box (equal to @width on the OMAP4)
 * @object_class: enum fdif_object_class
 *
 * Coordinates are pixels of the picture the call was given (DOC:
 * coordinates): the submitted picture's from fdif_job_result(), the
 * original image's from fdif_detect_image(). The face is a rectangle,
 * @width x @height (square only on a device that finds square faces, as
 * the OMAP4): its left edge is @x - @width / 2 in the submitted
 * picture's pixels (integer division), its top edge @y - @height / 2;
 * draw and report @width and @height, not @size. Fields the device does
 * not fill in (fdif_caps.object_fields) are 0.
 */
struct fdif_face {
	double x, y, size;
	unsigned int angle;
	unsigned int confidence;
	unsigned int raw_confidence;
	unsigned int direction;
	double width, height;
	unsigned int object_class;
};

/* Devices */

/**
 * fdif_open() - the device $FDIF_DEVICE names, else the first FDIF
 * $FDIF_DEVICE is a number (an index for fdif_open_index()) or a node's
 * path (fdif_open_path()); unset or empty, fdif_open_index(0). Read with
 * secure_getenv() (also $FDIF_ACCEL_DIR, $FDIF_SYSFS_DIR): a setuid or
 * setcap program takes the first FDIF in /dev/accel.
 * Return: what fdif_open_index() or fdif_open_path() returns.
 */
int fdif_open(struct fdif_device **dev);
/**
 * fdif_open_index() - the @index-th FDIF (from 0) among the nodes
 * /dev/accel/accel<N> ($FDIF_ACCEL_DIR/accel<N> if set), in the order of N;
 * a node sysfs says another driver drives (/sys/class/accel/accel<N>/
 * device/driver, $FDIF_SYSFS_DIR for /sys) is never opened
 * To list the devices, open 0, 1, ... until it fails (-ENODEV, or -EPROTO
 * or an open()'s errno if some node is an FDIF this library cannot drive
 * or cannot be opened: such nodes are not counted); fdif_device_path()
 * says which node each is.
 * Return: 0; if it was not opened, -EPROTO if an FDIF does not answer the
 * queries this library needs, else the open()'s errno of a node that could
 * not be opened (e.g. -EACCES: it may be an FDIF), else -ENODEV (no such
 * directory, not that many FDIFs in it); the directory's own errno
 * (scandir()) if it cannot be read.
 */
int fdif_open_index(unsigned int index, struct fdif_device **dev);
/**
 * fdif_open_path() - a given device node
 * Return: 0, -ENODEV if it is not an FDIF, -EPROTO if it does not answer
 * the queries this library needs (a kernel with another fdif uAPI), or
 * the open()'s errno. A device that takes no 8-bit grey picture opens
 * (fdif_caps.formats bit 0 clear, no frame): fdif_submit_requests() on
 * its own formats drives it.
 */
int fdif_open_path(const char *path, struct fdif_device **dev);
/**
 * fdif_close() - drop the application's reference to @dev
 * @dev must not be passed to any call after; but the BOs and jobs made on
 * it each hold a reference of their own: they stay usable (map, wait,
 * result, free) and the DRM file open until the last of them is freed.
 */
void fdif_close(struct fdif_device *dev);
/** fdif_device_fd() - the DRM file descriptor, for syncobj users */
int fdif_device_fd(const struct fdif_device *dev);
/** fdif_device_path() - the node @dev was opened by; owned by @dev */
const char *fdif_device_path(const struct fdif_device *dev);
/** fdif_query_caps() - what the device answered to the queries at open */
int fdif_query_caps(struct fdif_device *dev, struct fdif_caps *caps);

/* Buffer objects */

/** fdif_bo_create() - a zeroed, contiguous BO of at least @size bytes */
int fdif_bo_create(struct fdif_device *dev, size_t size, struct fdif_bo **bo);
/**
 * fdif_bo_import() - a BO for a dma-buf (e.g. a camera frame), no copy
 * The dma-buf must be physically contiguous below 4 GiB; @dmabuf_fd stays
 * the caller's (the BO keeps a duplicate, for fdif_bo_map()). An imported
 * BO can hold pictures, not a job's results. A dma-buf already imported
 * on @dev (through any fd), or exported from one of its BOs, gives that
 * same BO with one more reference: each import is freed with its own
 * fdif_bo_free().
 */
int fdif_bo_import(struct fdif_device *dev, int dmabuf_fd, struct fdif_bo **bo);
/**
 * fdif_bo_map() - CPU mapping (made once, kept until fdif_bo_free())
 * An imported BO is mapped through its dma-buf; if its exporter needs CPU
 * access bracketed, use DMA_BUF_IOCTL_SYNC on the dma-buf fd around it.
 */
int fdif_bo_map(struct fdif_bo *bo, void **ptr);
size_t fdif_bo_size(const struct fdif_bo *bo);
/** fdif_bo_handle() - the GEM handle, e.g. for drmPrimeHandleToFD() */
uint32_t fdif_bo_handle(const struct fdif_bo *bo);
/**
 * fdif_bo_free() - drop a reference to @bo (fdif_bo_create() and every
 * fdif_bo_import() give one); the last closes its GEM handle and mapping
 */
void fdif_bo_free(struct fdif_bo *bo);

/* Jobs */

/**
 * fdif_params_init() - whole frame, upright, the device's smallest minimum
 * size (min_size 0) and its recommended threshold (FDIF_LHIT_DEFAULT)
 */
void fdif_params_init(struct fdif_params *p);

/**
 * fdif_submit() - queue a detection on the 8-bit grey frame at @offset in
 * @picture; returns at once
 * The frame is fdif_caps.frame_width x frame_height pixels, rows
 * fdif_caps.frame_stride bytes apart (OMAP4: 320x240, 320); @offset is
 * aligned to fdif_caps.offset_align. @p->direction must not be
 * FDIF_DIR_ALL. fdif_submit_requests() with one request on that picture.
 * Return: 0, -EINVAL for a bad parameter (a picture BO too small, a
 * misaligned offset...), -ENOTSUP if the device takes no grey frame.
 */
int fdif_submit(struct fdif_device *dev, struct fdif_bo *picture,
		uint32_t offset, const struct fdif_params *p,
		struct fdif_job **job);
/**
 * fdif_submit_batch() - queue @count detections on one frame in one call
 * @params: @count requests, one a job (e.g. one a direction)
 * @jobs: @count jobs out, in the order of @params
 *
 * All or nothing: either every job is queued, or none and *@jobs are NULL.
 * The jobs run in array order. @count is 1..fdif_caps.max_jobs.
 */
int fdif_submit_batch(struct fdif_device *dev, struct fdif_bo *picture,
		      uint32_t offset, const struct fdif_params *params,
		      unsigned int count, struct fdif_job **jobs);
/*
 * Requests: any picture the device takes, several directions and classes,
 * input fences, several pictures in one batch (LIBFDIF_DRM_2.1).
 * fdif_submit() and fdif_submit_batch() are these on the device's grey
 * frame.
 */

/* struct fdif_format.flags: a plane's stride must be its row's bytes */
#define FDIF_FORMAT_PACKED_ROWS	(1u << 0)

/**
 * struct fdif_format - a picture format the device takes
 * @size: set by the caller: sizeof(struct fdif_format)
 * @fourcc: DRM_FORMAT_* (drm_fourcc.h)
 * @num_planes: planes a picture of it has, 1..FDIF_MAX_PLANES
 * @flags: FDIF_FORMAT_*
 * @min_width: narrowest picture
 * @max_width: widest picture
 * @width_align: the width is a multiple of it
 * @min_height: lowest picture
 * @max_height: tallest picture
 * @height_align: the height is a multiple of it
 * @offset_align: alignment of each plane's offset in its BO
 * @stride_align: alignment of each plane's stride
 *
 * Size-prefixed: the library fills in the first @size bytes it knows and
 * zeroes the rest, so that the structure can grow at its end.
 */
struct fdif_format {
	uint32_t size;
	uint32_t fourcc;
	uint32_t num_planes;
	uint32_t flags;
	uint32_t min_width, max_width, width_align;
	uint32_t min_height, max_height, height_align;
	uint32_t offset_align, stride_align;
};

/**
 * fdif_query_format() - the device's @index-th picture format (from 0)
 * Return: 0, -ENOENT past the last one, -EINVAL if @fmt->size is smaller
 * than the structure's first version (up to @stride_align).
 */
int fdif_query_format(struct fdif_device *dev, unsigned int index,
		      struct fdif_format *fmt);

/**
 * struct fdif_limits - what one submission may ask for
 * @size: set by the caller: sizeof(struct fdif_limits)
 * @max_jobs: most jobs one fdif_submit_requests() queues
 * @max_job_directions: most directions one job scans (OMAP4: 1); a
 *	request's direction mask takes this many a job
 * @max_job_classes: most object classes one request asks for
 * @max_syncs: most input fences (syncobjs and sync_files) a request waits for
 * @num_formats: picture formats (fdif_query_format())
 * @classes: mask of enum fdif_object_class the device detects
 * @directions: mask of enum fdif_direction it scans faces in
 *
 * Size-prefixed, as struct fdif_format.
 */
struct fdif_limits {
	uint32_t size;
	uint32_t max_jobs;
	uint32_t max_job_directions;
	uint32_t max_job_classes;
	uint32_t max_syncs;
	uint32_t num_formats;
	uint32_t classes;
	uint32_t directions;
};

/** fdif_query_limits() - fill in @limits; -EINVAL for a too small @size */
int fdif_query_limits(struct fdif_device *dev, struct fdif_limits *limits);

/**
 * struct fdif_plane - one plane of a picture
 * @bo: the BO holding it (planes may share one); NULL for a plane the
 *	format does not have
 * @offset: bytes from the BO's start to the plane's first row, a multiple
 *	of fdif_format.offset_align
 * @stride: bytes from one row to the next, a multiple of
 *	fdif_format.stride_align; 0 for the least the format allows
 */
struct fdif_plane {
	struct fdif_bo *bo;
	uint32_t offset;
	uint32_t stride;
};

/**
 * struct fdif_picture - a picture in BOs
 * @fourcc: its format, one of fdif_query_format()'s
 * @width: in pixels, within the format's limits and a multiple of its
 *	width_align
 * @height: likewise
 * @planes: the format's planes, in its plane order; the rest all zero
 */
struct fdif_picture {
	uint32_t fourcc;
	uint32_t width, height;
	struct fdif_plane planes[FDIF_MAX_PLANES];
};

/**
 * struct fdif_request - one picture to look at, and what to look for
 * @size: sizeof(struct fdif_request), set by fdif_request_init()
 * @picture: the picture
 * @classes: mask of enum fdif_object_class to look for: classes the
 *	device detects (fdif_limits.classes), at most max_job_classes
 * @directions: mask of enum fdif_direction (bit n: direction n, not
 *	FDIF_DIR_ALL) to scan, each scanned by every class asked for; the
 *	library splits it into the fewest jobs, max_job_directions a job
 * @min_size: smallest object width in @picture's pixels, one of
 *	fdif_caps.min_sizes, or 0 for the smallest
 * @lhit: threshold as in struct fdif_params
 * @roi_x: region of interest in @picture's pixels (DOC: coordinates)
 * @roi_y: ...
 * @roi_width: ...
 * @roi_height: ...
 * @in_syncobjs: DRM syncobj handles (on fdif_device_fd()) the jobs wait
 *	for, or NULL
 * @in_points: their timeline points (0: a binary syncobj), or NULL for
 *	all binary
 * @num_in_syncobjs: entries of @in_syncobjs
 * @in_fence_fds: sync_file fds the jobs wait for, or NULL; they stay the
 *	caller's
 * @num_in_fence_fds: entries of @in_fence_fds
 * @reserved: zero (-EINVAL otherwise): the first field a later version
 *	may give a meaning, with zero meaning what it means now; explicit, so
 *	that no tail padding (4 bytes on LP64) hides a later field from a
 *	library that does not know it
 *
 * Each syncobj must hold a fence (at its point) when submitted; a fence
 * that ends in an error cancels the jobs (their result: -ECANCELED). All
 * the input fences together are at most fdif_limits.max_syncs.
 */
struct fdif_request {
	uint32_t size;
	struct fdif_picture picture;
	uint32_t classes;
	uint32_t directions;
	unsigned int min_size;
	unsigned int lhit;
	unsigned int roi_x, roi_y, roi_width, roi_height;
	const uint32_t *in_syncobjs;
	const uint64_t *in_points;
	unsigned int num_in_syncobjs;
	const int *in_fence_fds;
	unsigned int num_in_fence_fds;
	uint32_t reserved;
};

/**
 * fdif_request_init() - zero @size bytes of @req and set its defaults:
 * faces (FDIF_CLASS_FACE), upright (FDIF_DIR_UP), the smallest minimum
 * size, the recommended threshold, the whole picture, no input fences
 * @size: sizeof(*@req) as the caller knows it
 */
void fdif_request_init(struct fdif_request *req, size_t size);
/**
 * fdif_request_jobs() - how many jobs @req takes (its direction mask split
 * max_job_directions a job), checking it as fdif_submit_requests() does
 * Return: the number of jobs, or -EINVAL for a request the device cannot
 * take (a picture outside its formats' limits, a plane too small for its
 * BO, a class or direction it does not scan, ...).
 */
int fdif_request_jobs(struct fdif_device *dev, const struct fdif_request *req);
/**
 * fdif_submit_requests() - queue the jobs of @count requests in one call
 * @reqs: @count requests, reqs[0].size bytes apart (an array of struct
 *	fdif_request), each made by fdif_request_init() with that size
 * @jobs: out, the jobs in request order, each request's directions in
 *	ascending order (fdif_request_jobs() of each)
 * @max_jobs: entries of @jobs
 * @num_jobs: out, the jobs queued
 *
 * All or nothing: every request is checked against what the device
 * reported before anything is queued; on an error no job is queued and
 * @jobs are NULL. The jobs run in array order; each has its own fence and
 * result (in its picture's pixels), as from fdif_submit().
 * Return: 0, -EINVAL for a request the device cannot take, a @count of 0,
 * more jobs than @max_jobs or than fdif_limits.max_jobs, -E2BIG for a
 * request longer than this library knows with a non-zero tail, or an
 * error of the kernel's (-ENOENT: an unknown syncobj...).
 */
int fdif_submit_requests(struct fdif_device *dev, const struct fdif_request *reqs,
			 unsigned int count, struct fdif_job **jobs,
			 unsigned int max_jobs, unsigned int *num_jobs);

/** fdif_job_fence_fd() - sync_file fd, POLLIN when done; owned by @job */
int fdif_job_fence_fd(const struct fdif_job *job);
/** fdif_job_syncobj() - DRM syncobj signalled when done; owned by @job */
uint32_t fdif_job_syncobj(const struct fdif_job *job);
/**
 * fdif_job_wait() - wait up to @timeout_ns from now (< 0: forever)
 * The deadline is fixed when called (CLOCK_MONOTONIC): signals do not
 * extend it. Return: 0 when done, -ETIME if not done in time.
 */
int fdif_job_wait(struct fdif_job *job, int64_t timeout_ns);
/**
 * fdif_job_result() - the faces of a finished job, in its picture's
 * pixels, most confident first; at most @max of them
 * Return: the number of faces, the job's error (-EIO, -ETIMEDOUT,
 * -ECANCELED, -ENODEV), -EBUSY if the job is not done yet, or -EPROTO for
 * a result this library cannot read.
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

/*
 * Decoding and writing pictures (fdif_image_load(), fdif_image_save_png(),
 * drawing...) is libfdif-image's, <fdif/image.h>: this library needs no
 * image format library. A struct fdif_image from it (or one the program
 * fills in itself, e.g. around a camera buffer) is what the calls below
 * take.
 */

/** fdif_image_free() - free @img's pixels (malloc()ed) and zero it */
void fdif_image_free(struct fdif_image *img);
/** fdif_image_to_gray() - BT.601 luma of @src as a new 1-channel image */
int fdif_image_to_gray(const struct fdif_image *src, struct fdif_image *dst);

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
 * fdif_image_fit_frame() - resize a grey picture into a frame
 * @gray: a 1-channel picture of any size
 * @frame: @height rows of @width bytes, @stride bytes apart (for the
 *	device: fdif_caps.frame_width, frame_height and frame_stride)
 * @width: frame width in pixels
 * @height: frame height in pixels
 * @stride: bytes from one frame row to the next, at least @width
 * @map: how picture coordinates map to the frame
 *
 * Keeps the aspect ratio (the rest of the frame is mid-grey) and resizes
 * with an area filter (each frame pixel the mean of the picture area it
 * covers). The bytes between rows are left alone.
 */
int fdif_image_fit_frame(const struct fdif_image *gray, uint8_t *frame,
			 unsigned int width, unsigned int height,
			 unsigned int stride, struct fdif_frame_map *map);
/**
 * fdif_image_fit() - fdif_image_fit_frame() into the OMAP4's frame:
 * FDIF_FRAME_WIDTH x FDIF_FRAME_HEIGHT bytes, stride FDIF_FRAME_WIDTH
 */
int fdif_image_fit(const struct fdif_image *gray, uint8_t *frame,
		   struct fdif_frame_map *map);
/** fdif_map_face() - a face in frame pixels to picture pixels (center, size, box) */
void fdif_map_face(const struct fdif_frame_map *map, struct fdif_face *face);
/**
 * fdif_merge_faces() - drop duplicates (centers within half a face, sizes
 * within 1.5x), keeping the more confident; sorted by confidence after.
 * Return: the number of faces left.
 */
unsigned int fdif_merge_faces(struct fdif_face *faces, unsigned int n);

/**
 * fdif_detect_image() - everything: fit into the device's grey frame,
 * submit (for FDIF_DIR_ALL every direction the device scans, in the
 * fewest jobs, in one batch), wait, merge, map back to @img's pixels
 * Return: 0 and *@count faces (only those inside @p's ROI, if it has one),
 * or a negative errno (-EINVAL for an ROI not inside @img, -ENOTSUP if
 * the device takes no grey frame).
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
