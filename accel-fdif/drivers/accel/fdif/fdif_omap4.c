// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TI OMAP4 FDIF's registers: reset and setup, standby, programming a
 * job, the interrupt status, reading the results. What the module takes
 * (the query answers and the job check) is in fdif_params.c.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/kernel.h>

#include <drm/drm_print.h>

#include "fdif_drv.h"
#include "fdif_omap4.h"
#include "fdif_params.h"
#include "fdif_regs.h"

#define FDIF_IRQ_EVENTS		(FDIF_IRQ_FINISH | FDIF_IRQ_ERR)

/* the hardware's result registers and the result layout hold as many */
static_assert(FDIF_MAX_FACES <= FD_DNUM_MASK);
/* FD_DCOND.MIN_SIZE (bits 1:0) holds the index of each minimum size */
static_assert(FDIF_NUM_MIN_SIZES - 1 <= FD_DCOND_MIN_SIZE);

static u32 fdif_read(struct fdif_device *fdev, u32 reg)
{
	return readl(fdev->regs + reg);
}

static void fdif_write(struct fdif_device *fdev, u32 reg, u32 val)
{
	writel(val, fdev->regs + reg);
}

/**
 * fdif_omap4_revision() - the module's REVISION register
 * @fdev: the device, powered
 *
 * Return: its value.
 */
u32 fdif_omap4_revision(struct fdif_device *fdev)
{
	return fdif_read(fdev, FDIF_REVISION);
}

/**
 * fdif_omap4_hw_init() - soft-reset the module and set it up for jobs
 * @fdev: the device, powered
 *
 * On OMAP4 the module's SYSCONFIG idle and standby modes belong to its
 * interconnect target module (drivers/bus/ti-sysc.c), which programs them
 * when it enables the module. The reset sets them back to their reset
 * values, so they are put back afterwards, as ti-sysc does for its own
 * reset-and-restore (SYSC_QUIRK_RESET_ON_CTX_LOST).
 *
 * Return: 0, or -ETIMEDOUT if the reset did not complete.
 */
int fdif_omap4_hw_init(struct fdif_device *fdev)
{
	u32 modes, val;
	int ret;

	/*
	 * Out of master standby (runtime suspend put it there) before
	 * anything else: the reset clears it too, but may not complete, and
	 * from here on the module is in use.
	 */
	fdif_write(fdev, FDIF_CTRL, FIELD_PREP(FDIF_CTRL_MAX_TAGS, FDIF_MAX_TAGS));
	modes = fdif_read(fdev, FDIF_SYSCONFIG) &
		(FDIF_SYSCONFIG_SIDLEMODE | FDIF_SYSCONFIG_MIDLEMODE);
	fdif_write(fdev, FDIF_SYSCONFIG, modes | FDIF_SYSCONFIG_SOFTRESET);
	ret = readl_poll_timeout(fdev->regs + FDIF_SYSCONFIG, val,
				 !(val & FDIF_SYSCONFIG_SOFTRESET), 20, 4000);
	if (ret) {
		/* run_job retries it for each job while the module is wedged */
		drm_err_ratelimited(&fdev->drm, "soft reset did not complete\n");
		return ret;
	}
	fdif_write(fdev, FDIF_SYSCONFIG, modes);
	fdif_write(fdev, FDIF_CTRL, FIELD_PREP(FDIF_CTRL_MAX_TAGS, FDIF_MAX_TAGS));
	fdif_write(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	fdif_write(fdev, FDIF_IRQENABLE_SET(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	return 0;
}

/**
 * fdif_omap4_hw_suspend() - put the module in master standby
 * @fdev: the device, powered, before runtime PM powers it down
 *
 * The module acknowledges standby (MSTANDBY_HDSHK) once its DMA is idle,
 * and only then may ti-sysc gate it. A module still running a job that a
 * failed reset did not stop keeps the handshake back, and stays out of
 * standby, its interrupt enabled again.
 *
 * Return: 0, or -EBUSY if the module did not acknowledge.
 */
int fdif_omap4_hw_suspend(struct fdif_device *fdev)
{
	u32 ctrl = FIELD_PREP(FDIF_CTRL_MAX_TAGS, FDIF_MAX_TAGS), val;
	int ret;

	fdif_write(fdev, FDIF_IRQENABLE_CLR(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
	fdif_write(fdev, FDIF_CTRL, ctrl | FDIF_CTRL_MSTANDBY);
	ret = readl_poll_timeout(fdev->regs + FDIF_CTRL, val,
				 val & FDIF_CTRL_MSTANDBY_HDSHK, 20, 2000);
	if (ret) {
		fdif_write(fdev, FDIF_CTRL, ctrl);
		fdif_write(fdev, FDIF_IRQENABLE_SET(FDIF_IRQ_MPU), FDIF_IRQ_EVENTS);
		return -EBUSY;
	}
	return 0;
}

/**
 * fdif_omap4_prepare() - the register values of a checked job
 * @job: a job that passed fdif_job_check()
 * @hw: where the values go (&fdif_hw_job.regs, enum fdif_omap4_reg)
 */
void fdif_omap4_prepare(const struct drm_fdif_job *job, struct fdif_hw_job *hw)
{
	const struct drm_fdif_roi *roi = &job->roi;
	bool whole = !roi->width && !roi->height;
	u32 dir = __ffs(job->directions);
	int size = fdif_min_size_index(job->min_width, job->min_height);

	hw->regs[FDIF_OMAP4_DCOND] = FIELD_PREP(FD_DCOND_MIN_SIZE, size) |
				     FIELD_PREP(FD_DCOND_DIR, dir);
	hw->regs[FDIF_OMAP4_STARTX] = whole ? 0 : roi->x;
	hw->regs[FDIF_OMAP4_STARTY] = whole ? 0 : roi->y;
	hw->regs[FDIF_OMAP4_SIZEX] = whole ? FDIF_PIC_WIDTH : roi->width;
	hw->regs[FDIF_OMAP4_SIZEY] = whole ? FDIF_PIC_HEIGHT : roi->height;
	hw->regs[FDIF_OMAP4_LHIT] = job->threshold;
}

/**
 * fdif_omap4_run() - program a prepared job and start it
 * @fdev: the device, powered, the module idle
 * @hw: the job
 */
void fdif_omap4_run(struct fdif_device *fdev, const struct fdif_hw_job *hw)
{
	/* FDIF_DMA_BITS: fdif_lookup_bo() let no address above 4 GiB through */
	fdif_write(fdev, FDIF_PICADDR, lower_32_bits(hw->pic_addr));
	fdif_write(fdev, FDIF_WKADDR, lower_32_bits(hw->work_addr));
	fdif_write(fdev, FD_DCOND, hw->regs[FDIF_OMAP4_DCOND]);
	fdif_write(fdev, FD_STARTX, hw->regs[FDIF_OMAP4_STARTX]);
	fdif_write(fdev, FD_STARTY, hw->regs[FDIF_OMAP4_STARTY]);
	fdif_write(fdev, FD_SIZEX, hw->regs[FDIF_OMAP4_SIZEX]);
	fdif_write(fdev, FD_SIZEY, hw->regs[FDIF_OMAP4_SIZEY]);
	fdif_write(fdev, FD_LHIT, hw->regs[FDIF_OMAP4_LHIT]);
	fdif_write(fdev, FD_CTRL, FD_CTRL_RUN);
}

/* Read the events in @reg, acknowledge them, translate them to FDIF_EV_*. */
static u32 fdif_omap4_ack(struct fdif_device *fdev, u32 reg)
{
	u32 status = fdif_read(fdev, reg) & FDIF_IRQ_EVENTS;

	if (status)
		fdif_write(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU), status);
	return (status & FDIF_IRQ_FINISH ? FDIF_EV_DONE : 0) |
	       (status & FDIF_IRQ_ERR ? FDIF_EV_ERROR : 0);
}

/**
 * fdif_omap4_irq_events() - read and acknowledge the interrupt
 * @fdev: the device, out of standby
 *
 * Return: the FDIF_EV_* it reports, or 0.
 */
u32 fdif_omap4_irq_events(struct fdif_device *fdev)
{
	return fdif_omap4_ack(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU));
}

/**
 * fdif_omap4_take_pending() - the events an interrupt did not report
 * @fdev: the device, its interrupt masked
 *
 * Reads the raw status (a lost interrupt's events) and acknowledges it.
 *
 * Return: FDIF_EV_* or 0.
 */
u32 fdif_omap4_take_pending(struct fdif_device *fdev)
{
	return fdif_omap4_ack(fdev, FDIF_IRQSTATUS_RAW(FDIF_IRQ_MPU));
}

/**
 * fdif_omap4_confidence() - the uAPI's confidence for a TRM value
 * @raw: FD_CONFSIZE.CONF, 0 (best) .. 9 (worst); larger values are clamped
 *
 * Return: 0 (least confident) .. DRM_FDIF_CONFIDENCE_MAX (most).
 */
u32 fdif_omap4_confidence(u32 raw)
{
	raw = min_t(u32, raw, FDIF_MAX_CONFIDENCE);
	return (FDIF_MAX_CONFIDENCE - raw) * DRM_FDIF_CONFIDENCE_MAX /
	       FDIF_MAX_CONFIDENCE;
}

/**
 * fdif_omap4_unpack_face() - one face from its four result registers
 * @centerx: FD_CENTERX_i
 * @centery: FD_CENTERY_i
 * @confsize: FD_CONFSIZE_i
 * @angle: FD_ANGLE_i
 * @dcond: FD_DCOND of the job (its direction)
 * @obj: the uAPI object; its box is the square around the center, so
 *	that @obj->x + @obj->width / 2 is the hardware's center
 */
void fdif_omap4_unpack_face(u32 centerx, u32 centery, u32 confsize, u32 angle,
			    u32 dcond, struct drm_fdif_object *obj)
{
	u32 raw = FIELD_GET(FD_CONFSIZE_CONF, confsize);
	u32 size = FIELD_GET(FD_CONFSIZE_SIZE, confsize);

	*obj = (struct drm_fdif_object) {
		.fields = FDIF_OBJECT_FIELDS,
		.object_class = DRM_FDIF_CLASS_FACE,
		.x = (s32)FIELD_GET(FD_CENTERX_MASK, centerx) - (s32)(size / 2),
		.y = (s32)FIELD_GET(FD_CENTERY_MASK, centery) - (s32)(size / 2),
		.width = size,
		.height = size,
		.angle = FIELD_GET(FD_ANGLE_MASK, angle) % 360,
		.direction = FIELD_GET(FD_DCOND_DIR, dcond),
		.confidence = fdif_omap4_confidence(raw),
		.raw_confidence = raw,
	};
}

/**
 * fdif_omap4_read_results() - the faces of a finished job
 * @fdev: the device
 * @hw: the job that finished
 * @objs: room for %FDIF_MAX_FACES objects
 *
 * Copies the faces and releases the result registers.
 *
 * Return: the number of faces copied.
 */
u32 fdif_omap4_read_results(struct fdif_device *fdev,
			    const struct fdif_hw_job *hw,
			    struct drm_fdif_object *objs)
{
	u32 i, n = FIELD_GET(FD_DNUM_MASK, fdif_read(fdev, FD_DNUM));
	u32 dcond = hw->regs[FDIF_OMAP4_DCOND];

	n = min_t(u32, n, FDIF_MAX_FACES);
	for (i = 0; i < n; i++)
		fdif_omap4_unpack_face(fdif_read(fdev, FD_CENTERX(i)),
				       fdif_read(fdev, FD_CENTERY(i)),
				       fdif_read(fdev, FD_CONFSIZE(i)),
				       fdif_read(fdev, FD_ANGLE(i)),
				       dcond, &objs[i]);
	fdif_write(fdev, FD_CTRL, FD_CTRL_FINISH);
	return n;
}
