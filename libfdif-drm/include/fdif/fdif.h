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
 *	struct fdif_params p;
 *	struct fdif_face faces[16];
 *	int n;
 *
 *	fdif_open(&dev);			($FDIF_DEVICE, else the first FDIF)
 *	fdif_image_load("photo.jpg", &img);	(libfdif-image, <fdif/image.h>)
 *	fdif_params_init(&p, sizeof(p));
 *	n = fdif_detect_image(dev, &img, &p, faces, 16);
 *	(n < 0: an error, fdif_strerror(n); n > 16: 16 of n faces written)
 *
 * fdif_detect_start() does the same without waiting, for a program with
 * an event loop. Any picture the device takes, already in BOs (its
 * formats, several directions, classes, input fences, several pictures in
 * one batch), goes through fdif_submit_requests(): several jobs may be in
 * flight, each with its own fence (fdif_job_fence_fd(), pollable, or
 * fdif_job_syncobj() for DRM syncobj users).
 *
 * What the device takes (frame size, minimum face sizes, thresholds,
 * result capacity...) is asked once at fdif_open() with the uAPI's
 * queries, never assumed; fdif_query_caps() returns it. Nothing of one
 * hardware generation is in this header.
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
 * A detection (fdif_detect_start()) is one thread's at a time: its calls
 * on one struct fdif_detection must not overlap.
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

#define FDIF_MAX_PLANES		3	/* planes of a picture: the uAPI's */

/*
 * Size-prefixed structures (struct fdif_caps, fdif_format, fdif_params,
 * fdif_request) begin with a uint32_t size, set to sizeof() of the
 * structure as the program knows it: by the program before a query
 * (fdif_query_caps(), fdif_query_format()), by the _init() function of an
 * input (fdif_params_init(), fdif_request_init()). A query fills in what
 * both know and zeroes the rest; an input longer than the library knows
 * must end in zeroes (-E2BIG), one shorter than the first version is
 * refused (-EINVAL). So these structures grow at their end, and a program
 * built against an older header keeps working with a newer library.
 * struct fdif_face, which programs allocate in arrays, grows into its
 * reserved words instead.
 */

/* struct fdif_params.threshold, fdif_request.threshold: the device's own */
#define FDIF_THRESHOLD_DEFAULT	(~0u)

/*
 * Directions: which way faces look, as a bit mask (the directions a device
 * scans, fdif_caps.directions; a request's, fdif_request.directions); a
 * face's fdif_face.direction is the one bit of the scan that found it.
 * A device scans a range of in-plane rotations around each; the face's
 * fdif_face.angle says where in it the face was.
 */
#define FDIF_DIR_UP	(1u << 0)	/* upright */
#define FDIF_DIR_RIGHT	(1u << 1)	/* top of the head to the right: a quarter turn clockwise */
#define FDIF_DIR_LEFT	(1u << 2)	/* top of the head to the left */

/*
 * Object classes, a bit mask likewise (fdif_caps.classes,
 * fdif_request.classes); fdif_face.object_class is one bit.
 */
#define FDIF_CLASS_FACE	(1u << 0)	/* a human face */

struct fdif_device;
struct fdif_bo;
struct fdif_job;
struct fdif_detection;

/**
 * struct fdif_caps - what the device can do (DRM_IOCTL_FDIF_QUERY)
 * @size: set by the caller: sizeof(struct fdif_caps)
 * @generation: the hardware generation (1: OMAP4)
 * @revision: hardware revision register
 * @classes: FDIF_CLASS_* the device detects
 * @directions: FDIF_DIR_* in which it scans for faces
 * @max_objects: most objects one job reports
 * @max_threshold: largest threshold (fdif_params.threshold), larger is stricter
 * @default_threshold: the threshold the hardware vendor recommends
 * @num_min_sizes: minimum object sizes the device takes (fdif_query_min_size())
 * @num_formats: picture formats it takes (fdif_query_format())
 * @frame_width: width of the 8-bit grey frame fdif_detect_image() fits
 *	pictures into: the device's largest grey picture; 0 if it takes none
 * @frame_height: its height
 * @frame_stride: bytes from one frame row to the next; a frame needs
 *	@frame_stride * @frame_height bytes
 * @frame_align: alignment of a frame's offset in its BO
 * @roi_min_width: narrowest region of interest
 * @roi_min_height: lowest region of interest
 * @roi_max_x: largest left edge of a region of interest
 * @roi_max_y: largest top edge of a region of interest
 * @max_jobs: most jobs one fdif_submit_requests() queues
 * @max_job_directions: most directions one job scans; a request's
 *	direction mask takes this many a job
 * @max_job_classes: most object classes one request asks for
 * @max_syncs: most input fences (syncobjs and sync_files) a request waits for
 * @object_fields: which face fields the device fills in, the uAPI's
 *	DRM_FDIF_OBJECT_* bits: 0 box, 1 angle, 2 direction, 3 confidence
 *
 * Size-prefixed (above): the library fills in the first @size bytes it
 * knows and zeroes the rest.
 */
struct fdif_caps {
	uint32_t size;
	uint32_t generation, revision;
	uint32_t classes, directions;
	uint32_t max_objects;
	uint32_t max_threshold, default_threshold;
	uint32_t num_min_sizes, num_formats;
	uint32_t frame_width, frame_height, frame_stride, frame_align;
	uint32_t roi_min_width, roi_min_height, roi_max_x, roi_max_y;
	uint32_t max_jobs, max_job_directions, max_job_classes, max_syncs;
	uint32_t object_fields;
};

/**
 * struct fdif_size - a minimum object size
 * @width: in pixels of the picture the device looks at
 * @height: likewise
 */
struct fdif_size {
	uint32_t width, height;
};

/**
 * DOC: coordinates
 *
 * The region of interest (fdif_params.roi_*, fdif_request.roi_*) and the
 * faces a call reports are always in pixels of the picture that call is
 * given: fdif_request.picture for fdif_submit_requests(), the struct
 * fdif_image for fdif_detect_image(). A region all 0 is the whole
 * picture; otherwise it must have a width and a height and lie inside
 * the picture (-EINVAL). fdif_detect_image() asks the device for it moved
 * and widened to what the device takes where it must be, and returns
 * only the faces whose box lies inside the region (mapped into the
 * device's frame, out to whole frame pixels).
 */

/**
 * struct fdif_face - one face
 * @x: center column: the box's left edge plus half its width (rounded
 *	down in the submitted picture's pixels)
 * @y: center row, likewise
 * @width: width of the face's box
 * @height: height of the face's box
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright
 * @confidence: 0 (least) .. 1000 (most)
 * @direction: the FDIF_DIR_* bit of the scan that found it
 * @object_class: the FDIF_CLASS_* bit of what it is
 * @reserved: zero; a later version fills fields in here, 0 meaning
 *	"not reported", so that arrays of this structure keep their size
 *
 * Coordinates are pixels of the picture the call was given (DOC:
 * coordinates). The face is a rectangle, @width x @height: its left edge
 * is @x - @width / 2 in the submitted picture's pixels (integer
 * division), its top edge @y - @height / 2. Fields the device does not
 * fill in (fdif_caps.object_fields) are 0.
 */
struct fdif_face {
	double x, y;
	double width, height;
	uint32_t angle;
	uint32_t confidence;
	uint32_t direction;
	uint32_t object_class;
	uint32_t reserved[8];
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
 * (fdif_caps.frame_width 0): fdif_submit_requests() on its own formats
 * drives it.
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
/**
 * fdif_query_caps() - what the device answered to the queries at open
 * Return: 0, -EINVAL if @caps->size is smaller than the structure's first
 * version or larger than 4096.
 */
int fdif_query_caps(struct fdif_device *dev, struct fdif_caps *caps);
/**
 * fdif_query_min_size() - the device's @index-th minimum object size (from
 * 0, smallest first)
 * Return: 0, -ENOENT past the last (fdif_caps.num_min_sizes).
 */
int fdif_query_min_size(struct fdif_device *dev, unsigned int index,
			struct fdif_size *min);

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
 * fdif_bo_export() - a dma-buf fd for @bo (close-on-exec, read-write), to
 * share it with another device or process; the fd is the caller's to
 * close, and keeps the buffer alive after fdif_bo_free()
 */
int fdif_bo_export(struct fdif_bo *bo, int *dmabuf_fd);
/**
 * fdif_bo_map() - CPU mapping (made once, kept until fdif_bo_free())
 * An imported BO is mapped through its dma-buf; if its exporter needs CPU
 * access bracketed, use DMA_BUF_IOCTL_SYNC on the dma-buf fd around it.
 */
int fdif_bo_map(struct fdif_bo *bo, void **ptr);
size_t fdif_bo_size(const struct fdif_bo *bo);
/** fdif_bo_handle() - the GEM handle on fdif_device_fd() */
uint32_t fdif_bo_handle(const struct fdif_bo *bo);
/**
 * fdif_bo_free() - drop a reference to @bo (fdif_bo_create() and every
 * fdif_bo_import() give one); the last closes its GEM handle and mapping
 */
void fdif_bo_free(struct fdif_bo *bo);

/* Jobs: any picture the device takes, in BOs */

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
 * Size-prefixed, as struct fdif_caps.
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
 * Return: 0, -ENOENT past the last one, -EINVAL for a bad @fmt->size.
 */
int fdif_query_format(struct fdif_device *dev, unsigned int index,
		      struct fdif_format *fmt);

/**
 * struct fdif_plane - one plane of a picture
 * @bo: the BO holding it (planes may share one), made on the device the
 *	picture is submitted to; NULL for a plane the format does not have
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
 * @classes: FDIF_CLASS_* to look for: classes the device detects
 *	(fdif_caps.classes), at most fdif_caps.max_job_classes
 * @directions: FDIF_DIR_* to scan, each scanned by every class asked for;
 *	the library splits it into the fewest jobs, max_job_directions a job
 * @min_size: smallest object width in @picture's pixels, the width of one
 *	of fdif_query_min_size()'s, or 0 for the smallest
 * @threshold: 0..fdif_caps.max_threshold, larger is stricter;
 *	FDIF_THRESHOLD_DEFAULT for the device's own
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
 * the input fences together are at most fdif_caps.max_syncs.
 */
struct fdif_request {
	uint32_t size;
	struct fdif_picture picture;
	uint32_t classes;
	uint32_t directions;
	uint32_t min_size;
	uint32_t threshold;
	uint32_t roi_x, roi_y, roi_width, roi_height;
	const uint32_t *in_syncobjs;
	const uint64_t *in_points;
	uint32_t num_in_syncobjs;
	const int *in_fence_fds;
	uint32_t num_in_fence_fds;
	uint32_t reserved;
};

/**
 * fdif_request_init() - zero @size bytes of @req and set its defaults:
 * faces, upright, the smallest minimum size, the device's threshold, the
 * whole picture, no input fences
 * @size: sizeof(*@req) as the caller knows it
 */
void fdif_request_init(struct fdif_request *req, size_t size);
/**
 * fdif_request_jobs() - how many jobs @req takes (its direction mask split
 * max_job_directions a job), checking it as fdif_submit_requests() does
 * Return: the number of jobs, or what fdif_submit_requests() would refuse
 * it with.
 */
int fdif_request_jobs(struct fdif_device *dev, const struct fdif_request *req);
/**
 * fdif_submit_requests() - queue the jobs of @count requests in one call;
 * returns at once
 * @reqs: @count requests, reqs[0].size bytes apart (an array of struct
 *	fdif_request), each made by fdif_request_init() with that size
 * @jobs: out, the jobs in request order, each request's directions in
 *	ascending order (fdif_request_jobs() of each)
 * @max_jobs: entries of @jobs
 * @num_jobs: out, the jobs queued
 *
 * All or nothing: every request is checked against what the device
 * reported before anything is queued; on an error no job is queued and
 * @jobs are NULL. The jobs run in array order; each has its own fence
 * (fdif_job_fence_fd(), pollable, or fdif_job_syncobj()) and result, in
 * its picture's pixels. A picture's BOs may be written again once the
 * jobs reading them are done.
 * Return: 0, -EINVAL for a request the device cannot take, a @count of 0,
 * more jobs than @max_jobs or than fdif_caps.max_jobs, -EXDEV for a plane
 * in a BO of another device, -E2BIG for a request longer than this library
 * knows with a non-zero tail, or an error of the kernel's (-ENOENT: an
 * unknown syncobj...).
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
 * extend it. Return: 0 when done, -EBUSY if not done in time.
 */
int fdif_job_wait(struct fdif_job *job, int64_t timeout_ns);

/* fdif_jobs_wait() flags: wait for every job, not the first to end */
#define FDIF_WAIT_ALL	(1u << 0)

/**
 * fdif_jobs_wait() - wait for any (or, FDIF_WAIT_ALL, every) one of @count
 * jobs of one device, up to @timeout_ns from now (< 0: forever)
 * @first: out (may be NULL), without FDIF_WAIT_ALL: the index of a job
 *	that is done
 * Return: 0, -EBUSY if not done in time, -EINVAL for jobs of several
 * devices, unknown @flags or a @count of 0.
 */
int fdif_jobs_wait(struct fdif_job *const *jobs, unsigned int count,
		   unsigned int flags, int64_t timeout_ns, unsigned int *first);
/**
 * fdif_job_result() - the faces of a finished job, in its picture's
 * pixels, most confident first; at most @max of them written
 * Return: how many faces the job found (also those past @max, as
 * snprintf() does: a return over @max says the array was too small), the
 * job's error (-EIO, -ETIMEDOUT, -ECANCELED, -ENODEV), -EBUSY if the job
 * is not done yet, or -EPROTO for a result this library cannot read.
 */
int fdif_job_result(struct fdif_job *job, struct fdif_face *faces,
		    unsigned int max);
void fdif_job_free(struct fdif_job *job);

/* Pictures in memory */

/**
 * struct fdif_image - a picture in memory
 * @width: in pixels
 * @height: in pixels
 * @channels: 1 (grey) or 3 (RGB)
 * @stride: bytes per row
 * @pixels: the pixels; this library only reads them
 *
 * Decoding pictures from files, and freeing what a decoder allocated, is
 * libfdif-image's (<fdif/image.h>): this library needs no image format
 * library. A program may fill one in around its own buffer (a camera
 * frame).
 */
struct fdif_image {
	unsigned int width, height, channels, stride;
	uint8_t *pixels;
};

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
 * fdif_image_fit_frame() - resize a picture into an 8-bit grey frame
 * @img: a 1-channel (grey) or 3-channel (RGB, turned to BT.601 luma)
 *	picture of any size
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
int fdif_image_fit_frame(const struct fdif_image *img, uint8_t *frame,
			 unsigned int width, unsigned int height,
			 unsigned int stride, struct fdif_frame_map *map);
/** fdif_map_face() - a face in frame pixels to picture pixels (center, box) */
void fdif_map_face(const struct fdif_frame_map *map, struct fdif_face *face);
/**
 * fdif_merge_faces() - drop duplicates (centers within half a face, sizes
 * within 1.5x), keeping the more confident; sorted by confidence after.
 * Return: the number of faces left.
 */
unsigned int fdif_merge_faces(struct fdif_face *faces, unsigned int n);

/**
 * struct fdif_params - what fdif_detect_image() looks for
 * @size: sizeof(struct fdif_params), set by fdif_params_init()
 * @directions: FDIF_DIR_* to scan (fdif_caps.directions: every one the
 *	device scans); the faces several scans found are merged
 * @min_size: smallest face in pixels of the frame the picture is fitted
 *	into: the width of one of fdif_query_min_size()'s, or 0 for the smallest
 * @threshold: as fdif_request.threshold
 * @roi_x: region of interest in the picture's pixels (DOC: coordinates)
 * @roi_y: ...
 * @roi_width: ...
 * @roi_height: ...
 * @timeout_ns: how long fdif_detect_image() waits for the device (< 0:
 *	forever; fdif_params_init(): 10 s)
 *
 * Size-prefixed (above).
 */
struct fdif_params {
	uint32_t size;
	uint32_t directions;
	uint32_t min_size;
	uint32_t threshold;
	uint32_t roi_x, roi_y, roi_width, roi_height;
	int64_t timeout_ns;
};

/**
 * fdif_params_init() - zero @size bytes of @p and set its defaults: the
 * whole picture, upright, the device's smallest minimum size and its own
 * threshold, a 10 s timeout
 * @size: sizeof(*@p) as the caller knows it
 */
void fdif_params_init(struct fdif_params *p, size_t size);

/**
 * fdif_detect_start() - fit @img into the device's grey frame and queue
 * its scans (every direction of @p, in the fewest jobs); returns at once
 * @det: out, the detection: fdif_detection_wait(), fdif_detection_result()
 *	and fdif_detection_free(). @img may be freed or changed once this
 *	returns (the frame is the library's, a BO kept for the next
 *	detection once this one is done).
 * Return: 0, -EINVAL for bad parameters (an ROI not inside @img...),
 * -ENOTSUP if the device takes no grey frame.
 */
int fdif_detect_start(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_detection **det);
/**
 * fdif_detection_fence_fd() - a sync_file fd that polls readable when
 * every job of @det is done (made on the first call: a merge of the jobs'
 * fences); owned by @det
 * Return: the fd, or a negative errno if the fences could not be merged.
 */
int fdif_detection_fence_fd(struct fdif_detection *det);
/** fdif_detection_wait() - as fdif_job_wait(), for every job of @det */
int fdif_detection_wait(struct fdif_detection *det, int64_t timeout_ns);
/**
 * fdif_detection_result() - the faces in @img's pixels (only those inside
 * the ROI, if there is one), duplicates of several scans merged, most
 * confident first; at most @max written
 * Return: as fdif_job_result(): how many there are, or an error.
 */
int fdif_detection_result(struct fdif_detection *det, struct fdif_face *faces,
			  unsigned int max);
/**
 * fdif_detection_free() - free @det at once, done or not (jobs still
 * running are the kernel's to end; their results are not read)
 */
void fdif_detection_free(struct fdif_detection *det);

/**
 * fdif_detect_image() - fdif_detect_start(), fdif_detection_wait() for
 * @p->timeout_ns, fdif_detection_result(), fdif_detection_free()
 * Return: as fdif_detection_result(); -EBUSY if the device took longer
 * than @p->timeout_ns.
 */
int fdif_detect_image(struct fdif_device *dev, const struct fdif_image *img,
		      const struct fdif_params *p, struct fdif_face *faces,
		      unsigned int max);

/** fdif_strerror() - a message for a negative errno from this library */
const char *fdif_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* FDIF_FDIF_H */
