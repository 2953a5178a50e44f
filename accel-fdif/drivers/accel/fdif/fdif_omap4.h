/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The OMAP4 FDIF's registers as the rest of the driver uses them: reset
 * and standby, a job packed into register values and programmed, the
 * interrupt status, the faces read back.
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_OMAP4_H__
#define __FDIF_OMAP4_H__

#include <linux/bits.h>
#include <linux/types.h>

struct drm_fdif_job;
struct drm_fdif_object;
struct fdif_device;

/* What an interrupt (or a lost one) reports */
#define FDIF_EV_DONE		BIT(0)
#define FDIF_EV_ERROR		BIT(1)

/* Indices of &fdif_hw_job.regs */
enum fdif_omap4_reg {
	FDIF_OMAP4_DCOND,
	FDIF_OMAP4_STARTX,
	FDIF_OMAP4_STARTY,
	FDIF_OMAP4_SIZEX,
	FDIF_OMAP4_SIZEY,
	FDIF_OMAP4_LHIT,
	FDIF_OMAP4_NUM_REGS,
};

/**
 * struct fdif_hw_job - one checked job as the module wants it
 * @pic_addr: DMA address of the picture, below 4 GiB
 * @work_addr: DMA address of the work area, below 4 GiB
 * @regs: register values, by &enum fdif_omap4_reg, from
 *	fdif_omap4_prepare()
 */
struct fdif_hw_job {
	dma_addr_t pic_addr;
	dma_addr_t work_addr;
	u32 regs[FDIF_OMAP4_NUM_REGS];
};

/*
 * None of these may sleep or allocate: fdif_omap4_prepare() runs in the
 * submit ioctl, the others in the fence signalling path (run_job, the
 * interrupt, the timeout), or at runtime PM.
 */
u32 fdif_omap4_revision(struct fdif_device *fdev);
int fdif_omap4_hw_init(struct fdif_device *fdev);
int fdif_omap4_hw_suspend(struct fdif_device *fdev);
void fdif_omap4_prepare(const struct drm_fdif_job *job, struct fdif_hw_job *hw);
void fdif_omap4_run(struct fdif_device *fdev, const struct fdif_hw_job *hw);
u32 fdif_omap4_irq_events(struct fdif_device *fdev);
u32 fdif_omap4_take_pending(struct fdif_device *fdev);
u32 fdif_omap4_read_results(struct fdif_device *fdev,
			    const struct fdif_hw_job *hw,
			    struct drm_fdif_object *objs);
void fdif_omap4_unpack_face(u32 centerx, u32 centery, u32 confsize, u32 angle,
			    u32 dcond, struct drm_fdif_object *obj);
u32 fdif_omap4_confidence(u32 raw);

#endif /* __FDIF_OMAP4_H__ */
