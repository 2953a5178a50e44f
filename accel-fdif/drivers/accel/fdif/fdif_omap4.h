/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The OMAP4 generation's job packing and result unpacking, for KUnit.
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_OMAP4_H__
#define __FDIF_OMAP4_H__

#include <linux/types.h>

struct drm_fdif_job;
struct drm_fdif_object;
struct fdif_hw_job;

/* Indices of &fdif_hw_job.regs on the OMAP4 */
enum fdif_omap4_reg {
	FDIF_OMAP4_DCOND,
	FDIF_OMAP4_STARTX,
	FDIF_OMAP4_STARTY,
	FDIF_OMAP4_SIZEX,
	FDIF_OMAP4_SIZEY,
	FDIF_OMAP4_LHIT,
};

void fdif_omap4_prepare(const struct drm_fdif_job *job, struct fdif_hw_job *hw);
void fdif_omap4_unpack_face(u32 centerx, u32 centery, u32 confsize, u32 angle,
			    u32 dcond, struct drm_fdif_object *obj);
u32 fdif_omap4_confidence(u32 raw);

#endif /* __FDIF_OMAP4_H__ */
