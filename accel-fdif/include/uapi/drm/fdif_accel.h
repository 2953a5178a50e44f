/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __UAPI_FDIF_ACCEL_H__
#define __UAPI_FDIF_ACCEL_H__

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: fdif uAPI
 *
 * The FDIF finds objects (today: human faces) in a picture. Userspace puts
 * the picture in a buffer object (BO), submits a detection job naming the
 * picture, a work area and a result BO, and waits on the job's fence; the
 * kernel writes a &struct drm_fdif_result into the result BO before the
 * fence signals.
 *
 * Everything the hardware generation can do is discoverable with
 * %DRM_IOCTL_FDIF_GET_PARAM, so later hardware (bigger or colour pictures,
 * other object classes) fits into the same ioctls: a submission names its
 * format, size and object class, and the kernel rejects what the device
 * cannot do with -EINVAL.
 *
 * All structures have explicit padding that must be zero, every unknown
 * flag or parameter is rejected with -EINVAL, and user pointers are __u64.
 */

#define DRM_FDIF_GET_PARAM		0x00
#define DRM_FDIF_BO_CREATE		0x01
#define DRM_FDIF_BO_MMAP_OFFSET		0x02
#define DRM_FDIF_BO_WAIT		0x03
#define DRM_FDIF_SUBMIT			0x04

#define DRM_IOCTL_FDIF_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_GET_PARAM, struct drm_fdif_get_param)
#define DRM_IOCTL_FDIF_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_BO_CREATE, struct drm_fdif_bo_create)
#define DRM_IOCTL_FDIF_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_BO_MMAP_OFFSET, \
		 struct drm_fdif_bo_mmap_offset)
#define DRM_IOCTL_FDIF_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_FDIF_BO_WAIT, struct drm_fdif_bo_wait)
#define DRM_IOCTL_FDIF_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_SUBMIT, struct drm_fdif_submit)

/**
 * enum drm_fdif_param - what %DRM_IOCTL_FDIF_GET_PARAM can tell
 * @DRM_FDIF_PARAM_REVISION: the hardware's REVISION register
 * @DRM_FDIF_PARAM_MAX_WIDTH: widest picture, in pixels
 * @DRM_FDIF_PARAM_MAX_HEIGHT: tallest picture, in pixels
 * @DRM_FDIF_PARAM_FORMATS: bit mask of supported &enum drm_fdif_format,
 *	bit n for format n
 * @DRM_FDIF_PARAM_OBJECT_CLASSES: bit mask of detectable
 *	&enum drm_fdif_object_class, bit n for class n
 * @DRM_FDIF_PARAM_MAX_OBJECTS: most objects one job reports
 * @DRM_FDIF_PARAM_MIN_SIZES: supported minimum object sizes in pixels,
 *	one per byte from the least significant, smallest first, 0-terminated
 *	(the OMAP4 FDIF: 0x28201914, that is 20, 25, 32, 40)
 * @DRM_FDIF_PARAM_DIRECTIONS: bit mask of supported &enum drm_fdif_direction
 * @DRM_FDIF_PARAM_WORK_SIZE: bytes of work area a job needs
 * @DRM_FDIF_PARAM_ALIGN: alignment in bytes of picture and work area
 *	addresses (BO offsets must be multiples of it)
 * @DRM_FDIF_PARAM_RESULT_SIZE: bytes a &struct drm_fdif_result takes
 * @DRM_FDIF_PARAM_ROI_MAX_X: largest ROI left edge
 * @DRM_FDIF_PARAM_ROI_MAX_Y: largest ROI top edge
 * @DRM_FDIF_PARAM_ROI_MIN_SIZE: smallest ROI width and height
 * @DRM_FDIF_PARAM_MAX_LHIT: largest likelihood threshold
 */
enum drm_fdif_param {
	DRM_FDIF_PARAM_REVISION = 0,
	DRM_FDIF_PARAM_MAX_WIDTH = 1,
	DRM_FDIF_PARAM_MAX_HEIGHT = 2,
	DRM_FDIF_PARAM_FORMATS = 3,
	DRM_FDIF_PARAM_OBJECT_CLASSES = 4,
	DRM_FDIF_PARAM_MAX_OBJECTS = 5,
	DRM_FDIF_PARAM_MIN_SIZES = 6,
	DRM_FDIF_PARAM_DIRECTIONS = 7,
	DRM_FDIF_PARAM_WORK_SIZE = 8,
	DRM_FDIF_PARAM_ALIGN = 9,
	DRM_FDIF_PARAM_RESULT_SIZE = 10,
	DRM_FDIF_PARAM_ROI_MAX_X = 11,
	DRM_FDIF_PARAM_ROI_MAX_Y = 12,
	DRM_FDIF_PARAM_ROI_MIN_SIZE = 13,
	DRM_FDIF_PARAM_MAX_LHIT = 14,
};

/**
 * enum drm_fdif_format - picture pixel formats
 * @DRM_FDIF_FORMAT_GREY8: 8 bits of luma a pixel, rows of @stride bytes
 */
enum drm_fdif_format {
	DRM_FDIF_FORMAT_GREY8 = 0,
};

/**
 * enum drm_fdif_object_class - what a job looks for
 * @DRM_FDIF_CLASS_FACE: human faces
 */
enum drm_fdif_object_class {
	DRM_FDIF_CLASS_FACE = 0,
};

/**
 * enum drm_fdif_direction - which way the objects face
 * @DRM_FDIF_DIR_UP: upright, angles -30..30 degrees
 * @DRM_FDIF_DIR_RIGHT: turned clockwise, top to the right, 60..120 degrees
 * @DRM_FDIF_DIR_LEFT: turned counter-clockwise, top to the left, 240..300
 */
enum drm_fdif_direction {
	DRM_FDIF_DIR_UP = 0,
	DRM_FDIF_DIR_RIGHT = 1,
	DRM_FDIF_DIR_LEFT = 2,
};

/**
 * struct drm_fdif_get_param - ask the device what it can do
 * @param: in, an &enum drm_fdif_param
 * @pad: must be zero
 * @value: out, the answer
 */
struct drm_fdif_get_param {
	__u32 param;
	__u32 pad;
	__u64 value;
};

/**
 * struct drm_fdif_bo_create - a new buffer object
 * @size: in, bytes (rounded up to pages); 1 byte .. 64 MiB
 * @flags: in, must be zero
 * @handle: out, the GEM handle
 * @pad: must be zero
 * @pad2: must be zero
 *
 * BOs are physically contiguous and below 4 GiB: the FDIF has no IOMMU and
 * 32-bit address registers. Their contents start zeroed.
 */
struct drm_fdif_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u32 pad;
	__u32 pad2;
};

/**
 * struct drm_fdif_bo_mmap_offset - where to mmap() a BO
 * @handle: in, a GEM handle (own or PRIME-imported)
 * @pad: must be zero
 * @offset: out, the fake offset to pass to mmap() on the device file
 */
struct drm_fdif_bo_mmap_offset {
	__u32 handle;
	__u32 pad;
	__u64 offset;
};

/**
 * struct drm_fdif_bo_wait - wait until the jobs using a BO are done
 * @handle: in, a GEM handle
 * @flags: in, must be zero
 * @timeout_ns: in, relative timeout; 0 polls
 *
 * Returns 0 when idle, -EBUSY if still busy when polling, -ETIMEDOUT if
 * the timeout expired, -ERESTARTSYS/-EINTR on a signal.
 */
struct drm_fdif_bo_wait {
	__u32 handle;
	__u32 flags;
	__s64 timeout_ns;
};

/**
 * struct drm_fdif_sync - a DRM syncobj to wait on or signal
 * @handle: the syncobj handle
 * @flags: must be zero
 * @point: timeline point; 0 for a binary syncobj
 */
struct drm_fdif_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
};

/**
 * struct drm_fdif_roi - region of interest, in picture pixels
 * @x: left edge
 * @y: top edge
 * @width: width; 0 with @height 0 means the whole picture
 * @height: height
 */
struct drm_fdif_roi {
	__u32 x;
	__u32 y;
	__u32 width;
	__u32 height;
};

/* Flags for &drm_fdif_submit.flags */
#define DRM_FDIF_SUBMIT_FENCE_FD_OUT	(1u << 0)

/* Default likelihood threshold, &drm_fdif_submit.lhit */
#define DRM_FDIF_LHIT_DEFAULT		5

/**
 * struct drm_fdif_submit - queue one detection job
 * @picture_handle: BO holding the picture
 * @picture_offset: byte offset of the picture in it, aligned to
 *	%DRM_FDIF_PARAM_ALIGN
 * @work_handle: BO for the device's work area (%DRM_FDIF_PARAM_WORK_SIZE
 *	bytes from @work_offset); the device reads and writes it
 * @work_offset: byte offset of the work area, aligned
 * @result_handle: BO the &struct drm_fdif_result is written to
 * @result_offset: byte offset of the result, 8-byte aligned
 * @format: &enum drm_fdif_format of the picture
 * @width: picture width in pixels
 * @height: picture height in pixels
 * @stride: bytes from one row to the next
 * @object_class: &enum drm_fdif_object_class to look for
 * @direction: &enum drm_fdif_direction
 * @min_size: smallest object size in pixels, one of %DRM_FDIF_PARAM_MIN_SIZES
 * @lhit: likelihood threshold 0..%DRM_FDIF_PARAM_MAX_LHIT, larger is
 *	stricter (%DRM_FDIF_LHIT_DEFAULT)
 * @roi: region of interest
 * @flags: DRM_FDIF_SUBMIT_*
 * @fence_fd: out, with %DRM_FDIF_SUBMIT_FENCE_FD_OUT: a sync_file fd that
 *	polls readable (POLLIN) when the job is done; its status is the job's
 * @in_sync_count: number of &struct drm_fdif_sync in @in_syncs
 * @out_sync_count: number of &struct drm_fdif_sync in @out_syncs
 * @in_syncs: user pointer to syncobjs the job waits for
 * @out_syncs: user pointer to syncobjs signalled with the job's fence
 * @seqno: out, the job's sequence number on its file (1, 2, ...)
 *
 * The job also waits for earlier jobs writing the picture BO (implicit
 * sync through the BOs' reservation objects), and its fence is added to
 * the work and result BOs as a writer and to the picture BO as a reader.
 *
 * Errors: -EINVAL for bad fields, flags or sizes, -ENOENT for unknown BO or
 * syncobj handles, -EFAULT for unreadable sync arrays, -ENOMEM.
 */
struct drm_fdif_submit {
	__u32 picture_handle;
	__u32 picture_offset;
	__u32 work_handle;
	__u32 work_offset;
	__u32 result_handle;
	__u32 result_offset;

	__u32 format;
	__u32 width;
	__u32 height;
	__u32 stride;

	__u32 object_class;
	__u32 direction;
	__u32 min_size;
	__u32 lhit;
	struct drm_fdif_roi roi;

	__u32 flags;
	__s32 fence_fd;
	__u32 in_sync_count;
	__u32 out_sync_count;
	__u64 in_syncs;
	__u64 out_syncs;
	__u64 seqno;
};

#define DRM_FDIF_MAX_OBJECTS		35
#define DRM_FDIF_CONFIDENCE_MAX		1000

/**
 * struct drm_fdif_object - one detected object
 * @center_x: center column in picture pixels
 * @center_y: center row
 * @size: side of the object's square in pixels
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright, 0..359
 * @confidence: normalized confidence, 0 (least) .. %DRM_FDIF_CONFIDENCE_MAX
 *	(most): larger is better on every hardware generation
 * @raw_confidence: the hardware's own value (OMAP4: 0 = best .. 9 = worst)
 * @object_class: &enum drm_fdif_object_class
 * @pad: zero
 */
struct drm_fdif_object {
	__u32 center_x;
	__u32 center_y;
	__u32 size;
	__u32 angle;
	__u32 confidence;
	__u32 raw_confidence;
	__u32 object_class;
	__u32 pad;
};

/**
 * struct drm_fdif_result - what a job writes to its result BO
 * @status: 0, or a negative errno: -EIO (the device reported an error),
 *	-ETIMEDOUT (the device hung and was reset), -ECANCELED
 * @count: number of valid entries in @objects
 * @seqno: the job's &drm_fdif_submit.seqno
 * @objects: the objects found, most confident first
 *
 * Written before the job's fence signals; read it after waiting.
 */
struct drm_fdif_result {
	__s32 status;
	__u32 count;
	__u64 seqno;
	struct drm_fdif_object objects[DRM_FDIF_MAX_OBJECTS];
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_FDIF_ACCEL_H__ */
