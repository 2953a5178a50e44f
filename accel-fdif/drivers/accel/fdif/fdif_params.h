/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_PARAMS_H__
#define __FDIF_PARAMS_H__

#include <linux/types.h>

struct drm_fdif_submit;
struct drm_fdif_object;

/**
 * struct fdif_hw_params - one job as the registers want it
 * @dcond: FD_DCOND (min size and direction)
 * @startx: FD_STARTX
 * @starty: FD_STARTY
 * @sizex: FD_SIZEX
 * @sizey: FD_SIZEY
 * @lhit: FD_LHIT
 */
struct fdif_hw_params {
	u32 dcond;
	u32 startx, starty, sizex, sizey;
	u32 lhit;
};

u64 fdif_params_min_sizes(void);
int fdif_params_check(const struct drm_fdif_submit *args);
void fdif_params_pack(const struct drm_fdif_submit *args,
		      struct fdif_hw_params *hw);
void fdif_unpack_face(u32 centerx, u32 centery, u32 confsize, u32 angle,
		      struct drm_fdif_object *obj);
u32 fdif_confidence_normalize(u32 raw);
long fdif_timeout_to_jiffies(s64 timeout_ns);

#endif /* __FDIF_PARAMS_H__ */
