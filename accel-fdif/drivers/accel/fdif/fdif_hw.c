// SPDX-License-Identifier: GPL-2.0-only
/*
 * FDIF hardware access: reset and setup, programming a job, reading the
 * results, and the interrupt handler.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iopoll.h>

#include <drm/drm_print.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_regs.h"

#define FDIF_IRQ_EVENTS		(FDIF_IRQ_FINISH | FDIF_IRQ_ERR)

static u32 fdif_read(struct fdif_device *fdev, u32 reg)
{
	return readl(fdev->regs + reg);
}

static void fdif_write(struct fdif_device *fdev, u32 reg, u32 val)
{
	writel(val, fdev->regs + reg);
}

/**
 * fdif_hw_init() - soft-reset the module and set it up for jobs
 * @fdev: the device
 *
 * Discards anything the hardware was doing. Called at runtime resume and
 * after a job timed out.
 *
 * Return: 0 or -ETIMEDOUT if SOFTRESET does not complete.
 */
int fdif_hw_init(struct fdif_device *fdev)
{
	u32 val;
	int ret;

	fdif_write(fdev, FDIF_SYSCONFIG, FDIF_SYSCONFIG_SOFTRESET);
	ret = readl_poll_timeout_atomic(fdev->regs + FDIF_SYSCONFIG, val,
					!(val & FDIF_SYSCONFIG_SOFTRESET),
					2, 4000);
	if (ret) {
		drm_err(&fdev->drm, "soft reset did not complete\n");
		return ret;
	}
	fdif_write(fdev, FDIF_CTRL, FIELD_PREP(FDIF_CTRL_MAX_TAGS, FDIF_MAX_TAGS));
	fdif_write(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	fdif_write(fdev, FDIF_IRQENABLE_SET(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	return 0;
}

/**
 * fdif_hw_reset() - soft-reset the module after a fault
 * @fdev: the device, powered, no job on it
 *
 * Until a reset completes (here or at the next runtime resume), no job is
 * started: run_job fails them with -EIO.
 */
void fdif_hw_reset(struct fdif_device *fdev)
{
	atomic64_inc(&fdev->stats.resets);
	WRITE_ONCE(fdev->hw_failed, fdif_hw_init(fdev) != 0);
}

/**
 * fdif_hw_suspend() - quiesce the idle module before runtime suspend
 * @fdev: the device
 */
void fdif_hw_suspend(struct fdif_device *fdev)
{
	fdif_write(fdev, FDIF_IRQENABLE_CLR(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	fdif_write(fdev, FDIF_CTRL, FIELD_PREP(FDIF_CTRL_MAX_TAGS, FDIF_MAX_TAGS) |
		   FDIF_CTRL_MSTANDBY);
}

/**
 * fdif_hw_run() - program one job and start it
 * @fdev: the device, idle
 * @picaddr: DMA address of the picture, 32-byte aligned
 * @wkaddr: DMA address of the work area, 32-byte aligned
 * @hw: the detection parameters
 */
void fdif_hw_run(struct fdif_device *fdev, u32 picaddr, u32 wkaddr,
		 const struct fdif_hw_params *hw)
{
	fdif_write(fdev, FDIF_PICADDR, picaddr);
	fdif_write(fdev, FDIF_WKADDR, wkaddr);
	fdif_write(fdev, FD_DCOND, hw->dcond);
	fdif_write(fdev, FD_STARTX, hw->startx);
	fdif_write(fdev, FD_STARTY, hw->starty);
	fdif_write(fdev, FD_SIZEX, hw->sizex);
	fdif_write(fdev, FD_SIZEY, hw->sizey);
	fdif_write(fdev, FD_LHIT, hw->lhit);
	fdif_write(fdev, FD_CTRL, FD_CTRL_RUN);
}

/**
 * fdif_hw_take_pending() - acknowledge events the interrupt did not report
 * @fdev: the device, its interrupt disabled
 *
 * Return: the FDIF_IRQ_* events that were raised (a lost interrupt).
 */
u32 fdif_hw_take_pending(struct fdif_device *fdev)
{
	u32 events = fdif_read(fdev, FDIF_IRQSTATUS_RAW(FDIF_IRQ_MPU)) &
		     FDIF_IRQ_EVENTS;

	if (events)
		fdif_write(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU), events);
	return events;
}

/**
 * fdif_hw_read_results() - copy the faces of a finished job
 * @fdev: the device
 * @res: where they go (count and objects)
 */
void fdif_hw_read_results(struct fdif_device *fdev, struct drm_fdif_result *res)
{
	u32 i, n = FIELD_GET(FD_DNUM_MASK, fdif_read(fdev, FD_DNUM));

	n = min_t(u32, n, FDIF_MAX_FACES);
	for (i = 0; i < n; i++)
		fdif_unpack_face(fdif_read(fdev, FD_CENTERX(i)),
				 fdif_read(fdev, FD_CENTERY(i)),
				 fdif_read(fdev, FD_CONFSIZE(i)),
				 fdif_read(fdev, FD_ANGLE(i)),
				 &res->objects[i]);
	res->count = n;
	fdif_write(fdev, FD_CTRL, FD_CTRL_FINISH);
}

/**
 * fdif_irq() - the interrupt handler: acknowledge and complete the job
 * @irq: the interrupt
 * @arg: the device
 *
 * Return: IRQ_NONE if the module had nothing to say (a spurious interrupt).
 */
irqreturn_t fdif_irq(int irq, void *arg)
{
	struct fdif_device *fdev = arg;
	u32 events = fdif_read(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU)) & FDIF_IRQ_EVENTS;

	if (!events) {
		atomic64_inc(&fdev->stats.spurious_irqs);
		return IRQ_NONE;
	}
	fdif_write(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU), events);
	fdif_job_done(fdev, events);
	return IRQ_HANDLED;
}
