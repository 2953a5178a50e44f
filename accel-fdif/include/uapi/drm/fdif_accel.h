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
 * the picture in buffer objects (BOs), submits detection jobs naming the
 * picture's planes, a work area and a result region, and waits on each
 * job's fence; the kernel writes a &struct drm_fdif_result_header followed
 * by the objects found into the result region before the fence signals.
 *
 * What a device can do is asked with %DRM_IOCTL_FDIF_QUERY, never assumed:
 * picture formats and their size limits, minimum object sizes, object
 * classes, directions and the result layout. A later generation (bigger or
 * colour pictures, other object classes, more objects, per-object
 * landmarks) answers the same queries with other values, and old
 * userspace keeps working on it.
 *
 * Rules for growing this interface (docs/uapi.md has the reasoning):
 *
 * - Every structure userspace passes in has explicit padding that must be
 *   zero, and every flag or mask bit the kernel does not know is refused
 *   with -EINVAL.
 * - Jobs are passed with their size (&drm_fdif_submit.job_size). New job
 *   fields are only ever appended, and zero in a new field means what the
 *   kernel did before the field existed. An old kernel refuses a longer
 *   job whose unknown tail is not zero with -E2BIG; a new kernel reads a
 *   shorter job as if the tail were zero.
 * - Query answers and results only grow at the end; userspace steps
 *   through arrays by the entry size the kernel reports, and reads the
 *   fields an object holds from its &drm_fdif_object.fields mask.
 *
 * Generation-specific meanings (the threshold, the raw confidence) are
 * documented per generation in Documentation/accel/fdif.
 */

#define DRM_FDIF_QUERY			0x00
#define DRM_FDIF_BO_CREATE		0x01
#define DRM_FDIF_BO_MMAP_OFFSET		0x02
#define DRM_FDIF_BO_WAIT		0x03
#define DRM_FDIF_SUBMIT			0x04

#define DRM_IOCTL_FDIF_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_QUERY, struct drm_fdif_query)
#define DRM_IOCTL_FDIF_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_BO_CREATE, struct drm_fdif_bo_create)
#define DRM_IOCTL_FDIF_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_FDIF_BO_MMAP_OFFSET, \
		 struct drm_fdif_bo_mmap_offset)
#define DRM_IOCTL_FDIF_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_FDIF_BO_WAIT, struct drm_fdif_bo_wait)
#define DRM_IOCTL_FDIF_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_FDIF_SUBMIT, struct drm_fdif_submit)

/**
 * enum drm_fdif_query_type - what %DRM_IOCTL_FDIF_QUERY can answer
 * @DRM_FDIF_QUERY_DEVICE: a &struct drm_fdif_device_info
 * @DRM_FDIF_QUERY_FORMATS: a &struct drm_fdif_query_list of
 *	&struct drm_fdif_format_info, one per picture format
 * @DRM_FDIF_QUERY_MIN_SIZES: a &struct drm_fdif_query_list of
 *	&struct drm_fdif_size, the minimum object sizes a job may ask for,
 *	smallest first
 * @DRM_FDIF_QUERY_CLASSES: a &struct drm_fdif_query_list of
 *	&struct drm_fdif_class_info, one per object class
 * @DRM_FDIF_QUERY_RESULT_LAYOUT: a &struct drm_fdif_result_layout
 */
enum drm_fdif_query_type {
	DRM_FDIF_QUERY_DEVICE = 0,
	DRM_FDIF_QUERY_FORMATS = 1,
	DRM_FDIF_QUERY_MIN_SIZES = 2,
	DRM_FDIF_QUERY_CLASSES = 3,
	DRM_FDIF_QUERY_RESULT_LAYOUT = 4,
};

/**
 * struct drm_fdif_query - ask the device what it can do
 * @type: in, an &enum drm_fdif_query_type
 * @size: in, bytes at @pointer; out, bytes of the kernel's answer
 * @pointer: in, user pointer to the answer's buffer, or 0 to ask the size
 *
 * With @pointer 0 only @size is set. Otherwise the kernel copies the first
 * min(@size, answer size) bytes of its answer, zeroes the bytes of a longer
 * buffer beyond its answer, and sets @size to its answer's size: a caller
 * built against a newer header reads zeroes in fields this kernel does not
 * know, one built against an older header gets the fields it knows.
 *
 * Errors: -EINVAL for an unknown @type, -EFAULT for an unwritable buffer.
 */
struct drm_fdif_query {
	__u32 type;
	__u32 size;
	__u64 pointer;
};

/**
 * struct drm_fdif_query_list - header of an answer that is an array
 * @count: number of entries following the header
 * @entry_size: bytes from one entry to the next; at least the size of the
 *	entry structure in the header the kernel was built with
 *
 * The entries follow the header directly, @entry_size bytes each.
 */
struct drm_fdif_query_list {
	__u32 count;
	__u32 entry_size;
};

/**
 * enum drm_fdif_generation - hardware generation
 * @DRM_FDIF_GEN_OMAP4: the TI OMAP4 Face Detection module (FDIF)
 */
enum drm_fdif_generation {
	DRM_FDIF_GEN_OMAP4 = 1,
};

/**
 * enum drm_fdif_object_class - what a job looks for; bit n of a class
 * mask stands for class n
 * @DRM_FDIF_CLASS_FACE: human faces
 */
enum drm_fdif_object_class {
	DRM_FDIF_CLASS_FACE = 0,
};

/**
 * enum drm_fdif_direction - which way objects face; bit n of a direction
 * mask stands for direction n
 * @DRM_FDIF_DIR_UP: upright, in-plane angles -30..30 degrees
 * @DRM_FDIF_DIR_RIGHT: turned clockwise, top to the right, 60..120 degrees
 * @DRM_FDIF_DIR_LEFT: turned counter-clockwise, top to the left, 240..300
 */
enum drm_fdif_direction {
	DRM_FDIF_DIR_UP = 0,
	DRM_FDIF_DIR_RIGHT = 1,
	DRM_FDIF_DIR_LEFT = 2,
};

/**
 * struct drm_fdif_device_info - %DRM_FDIF_QUERY_DEVICE
 * @generation: &enum drm_fdif_generation
 * @revision: the hardware's revision register
 * @classes: mask of the &enum drm_fdif_object_class the device detects
 * @directions: mask of the &enum drm_fdif_direction it scans
 * @max_job_classes: most classes one job may ask for
 * @max_job_directions: most directions one job may ask for (the OMAP4
 *	scans one direction a job)
 * @max_threshold: largest &drm_fdif_job.threshold
 * @default_threshold: the threshold the hardware vendor recommends
 * @work_size: bytes of work area a job needs (0: none)
 * @work_align: alignment of &drm_fdif_job.work_offset
 * @roi_min_width: narrowest region of interest
 * @roi_min_height: lowest region of interest
 * @roi_max_x: largest left edge of a region of interest
 * @roi_max_y: largest top edge of a region of interest
 * @max_jobs: most jobs one %DRM_IOCTL_FDIF_SUBMIT takes
 * @max_syncs: most in-syncs, and most out-syncs, one job takes
 */
struct drm_fdif_device_info {
	__u32 generation;
	__u32 revision;
	__u32 classes;
	__u32 directions;
	__u32 max_job_classes;
	__u32 max_job_directions;
	__u32 max_threshold;
	__u32 default_threshold;
	__u32 work_size;
	__u32 work_align;
	__u32 roi_min_width;
	__u32 roi_min_height;
	__u32 roi_max_x;
	__u32 roi_max_y;
	__u32 max_jobs;
	__u32 max_syncs;
};

/* &drm_fdif_format_info.flags */
/* Rows are packed: each plane's stride must be its width in bytes. */
#define DRM_FDIF_FORMAT_PACKED_ROWS	(1u << 0)

#define DRM_FDIF_MAX_PLANES		3

/**
 * struct drm_fdif_format_info - one picture format and its constraints
 * @fourcc: the format, a DRM_FORMAT_* code from drm_fourcc.h
 *	(DRM_FORMAT_R8 for 8-bit grey, DRM_FORMAT_NV12 for 4:2:0 luma and
 *	interleaved chroma, ...)
 * @num_planes: planes a picture of this format has, 1..%DRM_FDIF_MAX_PLANES
 * @flags: DRM_FDIF_FORMAT_*
 * @min_width: narrowest picture, in pixels
 * @max_width: widest picture (equal to @min_width: that width only)
 * @width_align: the width must be a multiple of it
 * @min_height: lowest picture
 * @max_height: tallest picture
 * @height_align: the height must be a multiple of it
 * @offset_align: alignment of each plane's offset in its BO
 * @stride_align: alignment of each plane's stride
 * @pad: zero
 */
struct drm_fdif_format_info {
	__u32 fourcc;
	__u32 num_planes;
	__u32 flags;
	__u32 min_width;
	__u32 max_width;
	__u32 width_align;
	__u32 min_height;
	__u32 max_height;
	__u32 height_align;
	__u32 offset_align;
	__u32 stride_align;
	__u32 pad;
};

/**
 * struct drm_fdif_size - an object size, in picture pixels
 * @width: width
 * @height: height
 */
struct drm_fdif_size {
	__u32 width;
	__u32 height;
};

/**
 * struct drm_fdif_class_info - one object class
 * @object_class: &enum drm_fdif_object_class
 * @directions: mask of &enum drm_fdif_direction it can be scanned in
 */
struct drm_fdif_class_info {
	__u32 object_class;
	__u32 directions;
};

/* Layout version of &struct drm_fdif_result_header. */
#define DRM_FDIF_RESULT_VERSION		1

/*
 * Alignment of a result region (&drm_fdif_job.result_offset), the same on
 * every architecture: the header holds a __u64 field (&seqno), whose
 * natural alignment is 4 on some 32-bit ABIs and 8 on others.
 */
#define DRM_FDIF_RESULT_ALIGN		8

/* &drm_fdif_object.fields: which of its fields hold a value */
#define DRM_FDIF_OBJECT_BOX		(1u << 0)
#define DRM_FDIF_OBJECT_ANGLE		(1u << 1)
#define DRM_FDIF_OBJECT_DIRECTION	(1u << 2)
#define DRM_FDIF_OBJECT_CONFIDENCE	(1u << 3)
#define DRM_FDIF_OBJECT_RAW_CONFIDENCE	(1u << 4)

#define DRM_FDIF_CONFIDENCE_MAX		1000

/**
 * struct drm_fdif_result_layout - %DRM_FDIF_QUERY_RESULT_LAYOUT
 * @version: %DRM_FDIF_RESULT_VERSION
 * @header_size: bytes of the header the kernel writes
 * @object_size: bytes from one object to the next
 * @capacity: most objects one job reports
 * @size: bytes a job's result region must hold:
 *	@header_size + @capacity * @object_size
 * @align: alignment of &drm_fdif_job.result_offset: %DRM_FDIF_RESULT_ALIGN
 * @object_fields: the DRM_FDIF_OBJECT_* fields the device fills in
 * @pad: zero
 */
struct drm_fdif_result_layout {
	__u32 version;
	__u32 header_size;
	__u32 object_size;
	__u32 capacity;
	__u32 size;
	__u32 align;
	__u32 object_fields;
	__u32 pad;
};

/**
 * struct drm_fdif_result_header - the start of a job's result region
 * @version: %DRM_FDIF_RESULT_VERSION
 * @header_size: bytes of this header; the first object follows it
 * @object_size: bytes from one object to the next
 * @capacity: room for this many objects
 * @count: objects found, at most @capacity
 * @status: 0, or a negative errno: -EIO (the device reported an error or
 *	did not come out of reset), -ETIMEDOUT (the device hung and was
 *	reset), -ECANCELED (the job did not run: the fence of one of its
 *	in-syncs ended with an error), -ESRCH (the job never ran: its
 *	process was killed with it queued; its fence says -ESRCH too),
 *	-ENODEV (the device was removed)
 * @seqno: the job's &drm_fdif_job.seqno
 *
 * Written before the job's fence signals; read it after waiting. Objects
 * come most confident first, then top to bottom, then left to right (the
 * kernel sorts them, whatever order the hardware reports).
 */
struct drm_fdif_result_header {
	__u32 version;
	__u32 header_size;
	__u32 object_size;
	__u32 capacity;
	__u32 count;
	__s32 status;
	__u64 seqno;
};

/**
 * struct drm_fdif_object - one detected object
 * @fields: DRM_FDIF_OBJECT_* telling which fields below hold a value
 * @object_class: &enum drm_fdif_object_class
 * @x: left edge of the object's box, in picture pixels (may be negative
 *	or reach past the picture for an object at its border)
 * @y: top edge
 * @width: box width
 * @height: box height
 * @angle: in-plane rotation in degrees, clockwise, 0 = upright, 0..359
 * @direction: the &enum drm_fdif_direction scan that found it
 * @confidence: normalised confidence, 0 (least) .. %DRM_FDIF_CONFIDENCE_MAX
 *	(most): larger is better on every generation
 * @raw_confidence: the hardware's own value (OMAP4: 0 = best .. 9 = worst)
 */
struct drm_fdif_object {
	__u32 fields;
	__u32 object_class;
	__s32 x;
	__s32 y;
	__u32 width;
	__u32 height;
	__u32 angle;
	__u32 direction;
	__u32 confidence;
	__u32 raw_confidence;
};

/**
 * struct drm_fdif_bo_create - a new buffer object
 * @size: in, bytes (rounded up to pages); 1 byte .. 64 MiB
 * @flags: in, must be zero
 * @handle: out, the GEM handle (must be zero on input: -EINVAL)
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
 * @handle: in, a GEM handle created by %DRM_IOCTL_FDIF_BO_CREATE (an
 *	imported dma-buf is mapped through its own fd instead: -EINVAL)
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
 * @timeout_ns: in, absolute CLOCK_MONOTONIC time to give up at; a time in
 *	the past polls
 *
 * The timeout is absolute, so a wait restarted after a signal does not
 * extend itself.
 *
 * Returns 0 when idle, -ETIMEDOUT if still busy at @timeout_ns, -EINTR
 * when a signal interrupts it (a handler with SA_RESTART restarts the
 * call instead), -ENOENT for an unknown handle.
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
 * @mbz: must be zero; room for what a future flag needs (a sync_file fd,
 *	a deadline), as the array of these has no stride of its own
 */
struct drm_fdif_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
	__u64 mbz;
};

/**
 * struct drm_fdif_plane - one plane of a picture
 * @handle: the BO holding it
 * @offset: byte offset of its first row in the BO, aligned to
 *	&drm_fdif_format_info.offset_align
 * @stride: bytes from one row to the next, aligned to
 *	&drm_fdif_format_info.stride_align
 * @pad: must be zero
 */
struct drm_fdif_plane {
	__u32 handle;
	__u32 offset;
	__u32 stride;
	__u32 pad;
};

/**
 * struct drm_fdif_picture - the picture a job looks at
 * @fourcc: its format, one of %DRM_FDIF_QUERY_FORMATS
 * @width: width in pixels, within the format's limits
 * @height: height in pixels
 * @pad: must be zero
 * @planes: the format's planes in its plane order; unused entries must be
 *	zero (-EINVAL), so that later formats can use them. Planes may share
 *	a BO.
 */
struct drm_fdif_picture {
	__u32 fourcc;
	__u32 width;
	__u32 height;
	__u32 pad;
	struct drm_fdif_plane planes[DRM_FDIF_MAX_PLANES];
};

/**
 * struct drm_fdif_roi - region of interest, in picture pixels
 * @x: left edge
 * @y: top edge
 * @width: width; all four 0 means the whole picture
 * @height: height
 */
struct drm_fdif_roi {
	__u32 x;
	__u32 y;
	__u32 width;
	__u32 height;
};

/* &drm_fdif_job.flags */
/* Return a sync_file for the job in &drm_fdif_job.fence_fd. */
#define DRM_FDIF_JOB_FENCE_FD_OUT	(1u << 0)

/**
 * struct drm_fdif_job - one detection, an entry of a submission
 * @picture: the picture
 * @work_handle: BO for the device's work area
 *	(&drm_fdif_device_info.work_size bytes from @work_offset), which the
 *	device reads and writes; 0 if the device needs none
 * @work_offset: byte offset of the work area, aligned to
 *	&drm_fdif_device_info.work_align
 * @result_handle: BO the result is written to (created by
 *	%DRM_IOCTL_FDIF_BO_CREATE)
 * @result_offset: byte offset of the result region, aligned to
 *	&drm_fdif_result_layout.align
 * @result_size: bytes of the result region, at least
 *	&drm_fdif_result_layout.size
 * @classes: mask of &enum drm_fdif_object_class to look for, not empty, at
 *	most &drm_fdif_device_info.max_job_classes bits
 * @directions: mask of &enum drm_fdif_direction to scan, supported by every
 *	class asked for, not empty, at most
 *	&drm_fdif_device_info.max_job_directions bits
 * @min_width: smallest object width, with @min_height one entry of
 *	%DRM_FDIF_QUERY_MIN_SIZES
 * @min_height: smallest object height
 * @threshold: detection threshold, 0..&drm_fdif_device_info.max_threshold,
 *	larger is stricter; its scale is generation-specific (OMAP4: FD_LHIT)
 * @roi: the region of interest
 * @flags: DRM_FDIF_JOB_*
 * @fence_fd: out, with %DRM_FDIF_JOB_FENCE_FD_OUT: a sync_file fd that
 *	polls readable (POLLIN) when the job is done; its status is the job's
 * @in_sync_count: number of &struct drm_fdif_sync in @in_syncs
 * @out_sync_count: number of &struct drm_fdif_sync in @out_syncs
 * @in_syncs: user pointer to syncobjs the job waits for; each must hold a
 *	fence at its point (-EINVAL otherwise). If one of them ends with an
 *	error, the job does not run and reports -ECANCELED.
 * @out_syncs: user pointer to syncobjs signalled with the job's fence
 * @seqno: out, the job's sequence number on its file (1, 2, ...)
 *
 * Each job has its own fence. It also waits for earlier jobs writing its
 * picture BOs (implicit sync through the BOs' reservation objects), and
 * its fence is added to the work and result BOs as a writer and to the
 * picture BOs as a reader.
 */
struct drm_fdif_job {
	struct drm_fdif_picture picture;
	__u32 work_handle;
	__u32 work_offset;
	__u32 result_handle;
	__u32 result_offset;
	__u32 result_size;
	__u32 classes;
	__u32 directions;
	__u32 min_width;
	__u32 min_height;
	__u32 threshold;
	struct drm_fdif_roi roi;
	__u32 flags;
	__s32 fence_fd;
	__u32 in_sync_count;
	__u32 out_sync_count;
	__u64 in_syncs;
	__u64 out_syncs;
	__u64 seqno;
};

/**
 * struct drm_fdif_submit - queue a batch of detection jobs
 * @jobs: user pointer to an array of @job_count jobs
 * @job_count: 1..&drm_fdif_device_info.max_jobs
 * @job_size: bytes from one job to the next: sizeof(struct drm_fdif_job)
 *	as the caller knows it, at least the size of the first version (160)
 *	and at most 4096 (-EINVAL)
 * @flags: must be zero
 * @pad: must be zero
 *
 * The batch is all or nothing: every job is checked, and everything they
 * need is allocated, before the first is queued. Jobs run in array order,
 * after the file's earlier jobs. The kernel writes each job's @seqno and
 * @fence_fd back into the array before the fences can be seen by anyone.
 *
 * Errors: -EINVAL for a bad field, flag or size (also a result region
 * smaller than &drm_fdif_result_layout.size), -E2BIG for a job longer than
 * the kernel knows whose tail is not zero, -ENOENT for an unknown BO or
 * syncobj handle, -EFAULT for unreadable arrays or an unwritable job array,
 * -ENODEV once the device is gone, -ENOMEM. A device whose soft reset
 * failed still takes jobs: they end with -EIO in their result (and
 * fence) until a reset completes.
 */
struct drm_fdif_submit {
	__u64 jobs;
	__u32 job_count;
	__u32 job_size;
	__u32 flags;
	__u32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_FDIF_ACCEL_H__ */
