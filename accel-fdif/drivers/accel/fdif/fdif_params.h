/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the OMAP4 FDIF takes and reports (OMAP4 TRM chapter 9): its limits,
 * the answers of the query ioctl made of them, and the job check that
 * enforces them.
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_PARAMS_H__
#define __FDIF_PARAMS_H__

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include <uapi/drm/fdif_accel.h>

/* The module's limits */
#define FDIF_PIC_WIDTH		320
#define FDIF_PIC_HEIGHT		240
#define FDIF_MAX_FACES		35
#define FDIF_WORK_SIZE		(52 * 1024)
#define FDIF_ADDR_ALIGN		32
#define FDIF_ROI_MAX_X		160
#define FDIF_ROI_MAX_Y		120
#define FDIF_ROI_MIN		20
#define FDIF_MAX_LHIT		9
#define FDIF_DEFAULT_LHIT	5
/* PICADDR and WKADDR are 32 bits, and there is no IOMMU */
#define FDIF_DMA_BITS		32
/* FD_DCOND.DIR: one of three a job */
#define FDIF_DIRECTIONS		(BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) | \
				 BIT(DRM_FDIF_DIR_LEFT))
/* FD_DCOND.MIN_SIZE: the index of one of these */
#define FDIF_NUM_MIN_SIZES	4
#define FDIF_OBJECT_FIELDS	(DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE | \
				 DRM_FDIF_OBJECT_DIRECTION | \
				 DRM_FDIF_OBJECT_CONFIDENCE | \
				 DRM_FDIF_OBJECT_RAW_CONFIDENCE)

/* Limits of one submission, the driver's */
#define FDIF_MAX_BATCH		16
#define FDIF_MAX_SYNCS		64

/* The first version's struct drm_fdif_job; shorter ones do not exist */
#define FDIF_JOB_SIZE_V1	160
/* The most a job may grow to: the same whatever the page size */
#define FDIF_JOB_SIZE_MAX	SZ_4K

/* Bytes a job's result region must hold: the header and the faces */
#define FDIF_RESULT_SIZE	(sizeof(struct drm_fdif_result_header) + \
				 FDIF_MAX_FACES * sizeof(struct drm_fdif_object))

/* The query answers (the revision is read at probe) */
extern const struct drm_fdif_device_info fdif_device_info;
extern const struct drm_fdif_format_info fdif_formats[1];
extern const struct drm_fdif_size fdif_min_sizes[FDIF_NUM_MIN_SIZES];
extern const struct drm_fdif_class_info fdif_classes[1];

int fdif_min_size_index(u32 width, u32 height);
void fdif_result_layout(struct drm_fdif_result_layout *layout);
void fdif_sort_objects(struct drm_fdif_object *objs, u32 count);
int fdif_job_check(const struct drm_fdif_job *job);

#endif /* __FDIF_PARAMS_H__ */
