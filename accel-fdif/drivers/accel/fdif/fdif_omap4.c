// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TI OMAP4 FDIF generation: what it can do (the tables the query ioctl
 * reports and the job check enforces), and its register-level operations:
 * reset and setup, programming a job, the interrupt status, reading the
 * results.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/kernel.h>

#include <drm/drm_fourcc.h>
#include <drm/drm_print.h>

#include "fdif_drv.h"
#include "fdif_gen.h"
#include "fdif_omap4.h"
#include "fdif_regs.h"

#define FDIF_IRQ_EVENTS		(FDIF_IRQ_FINISH | FDIF_IRQ_ERR)

/* the hardware's result registers and the result layout hold as many */
static_assert(FDIF_MAX_FACES <= FD_DNUM_MASK);

static u32 fdif_read(struct fdif_device *fdev, u32 reg)
{
	return readl(fdev->regs + reg);
}

static void fdif_write(struct fdif_device *fdev, u32 reg, u32 val)
{
	writel(val, fdev->regs + reg);
}

static u32 fdif_omap4_revision(struct fdif_device *fdev)
{
	return fdif_read(fdev, FDIF_REVISION);
}

/*
 * Soft-reset the module and set it up for jobs; 0 or -ETIMEDOUT.
 *
 * On OMAP4 the module's SYSCONFIG idle and standby modes belong to its
 * interconnect target module (drivers/bus/ti-sysc.c), which programs them
 * when it enables the module. The reset sets them back to their reset
 * values, so they are put back afterwards, as ti-sysc does for its own
 * reset-and-restore (SYSC_QUIRK_RESET_ON_CTX_LOST).
 */
static int fdif_omap4_hw_init(struct fdif_device *fdev)
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

/*
 * Master standby: the module acknowledges it (MSTANDBY_HDSHK) once its DMA
 * is idle, and only then may ti-sysc gate it. A module still running a job
 * that a failed reset did not stop keeps the handshake back: -EBUSY, and
 * the module stays out of standby, its interrupt enabled again.
 */
static int fdif_omap4_hw_suspend(struct fdif_device *fdev)
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

/* FD_DCOND.MIN_SIZE encodes the index of the minimum size in this table */
static const struct drm_fdif_size fdif_omap4_min_sizes[] = {
	{ 20, 20 }, { 25, 25 }, { 32, 32 }, { 40, 40 },
};

/**
 * fdif_omap4_prepare() - the register values of a checked job
 * @job: a job that passed fdif_job_check() for the OMAP4
 * @hw: where the values go (&fdif_hw_job.regs, enum fdif_omap4_reg)
 */
void fdif_omap4_prepare(const struct drm_fdif_job *job, struct fdif_hw_job *hw)
{
	const struct drm_fdif_roi *roi = &job->roi;
	bool whole = !roi->width && !roi->height;
	u32 dir = __ffs(job->directions);
	int size = fdif_gen_min_size_index(&fdif_gen_omap4, job->min_width,
					   job->min_height);

	hw->regs[FDIF_OMAP4_DCOND] = FIELD_PREP(FD_DCOND_MIN_SIZE, size) |
				     FIELD_PREP(FD_DCOND_DIR, dir);
	hw->regs[FDIF_OMAP4_STARTX] = whole ? 0 : roi->x;
	hw->regs[FDIF_OMAP4_STARTY] = whole ? 0 : roi->y;
	hw->regs[FDIF_OMAP4_SIZEX] = whole ? FDIF_PIC_WIDTH : roi->width;
	hw->regs[FDIF_OMAP4_SIZEY] = whole ? FDIF_PIC_HEIGHT : roi->height;
	hw->regs[FDIF_OMAP4_LHIT] = job->threshold;
}

static void fdif_omap4_run(struct fdif_device *fdev, const struct fdif_hw_job *hw)
{
	/* dma_bits 32: fdif_lookup_bo() let no address above 4 GiB through */
	fdif_write(fdev, FDIF_PICADDR, lower_32_bits(hw->plane_addr[0]));
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

static u32 fdif_omap4_irq_events(struct fdif_device *fdev)
{
	return fdif_omap4_ack(fdev, FDIF_IRQSTATUS(FDIF_IRQ_MPU));
}

/* the raw status: events the masked (or lost) interrupt did not report */
static u32 fdif_omap4_take_pending(struct fdif_device *fdev)
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
		.fields = DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE |
			  DRM_FDIF_OBJECT_DIRECTION | DRM_FDIF_OBJECT_CONFIDENCE |
			  DRM_FDIF_OBJECT_RAW_CONFIDENCE,
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

static u32 fdif_omap4_read_results(struct fdif_device *fdev,
				   const struct fdif_hw_job *hw,
				   struct drm_fdif_object *objs, u32 capacity)
{
	u32 i, n = FIELD_GET(FD_DNUM_MASK, fdif_read(fdev, FD_DNUM));
	u32 dcond = hw->regs[FDIF_OMAP4_DCOND];

	n = min(n, capacity);
	for (i = 0; i < n; i++)
		fdif_omap4_unpack_face(fdif_read(fdev, FD_CENTERX(i)),
				       fdif_read(fdev, FD_CENTERY(i)),
				       fdif_read(fdev, FD_CONFSIZE(i)),
				       fdif_read(fdev, FD_ANGLE(i)),
				       dcond, &objs[i]);
	fdif_write(fdev, FD_CTRL, FD_CTRL_FINISH);
	return n;
}

static const struct fdif_gen_ops fdif_omap4_ops = {
	.revision = fdif_omap4_revision,
	.hw_init = fdif_omap4_hw_init,
	.hw_suspend = fdif_omap4_hw_suspend,
	.prepare = fdif_omap4_prepare,
	.run = fdif_omap4_run,
	.irq_events = fdif_omap4_irq_events,
	.take_pending = fdif_omap4_take_pending,
	.read_results = fdif_omap4_read_results,
};

static const struct drm_fdif_format_info fdif_omap4_formats[] = {
	{
		.fourcc = DRM_FORMAT_R8,
		.num_planes = 1,
		.flags = DRM_FDIF_FORMAT_PACKED_ROWS,
		.min_width = FDIF_PIC_WIDTH,
		.max_width = FDIF_PIC_WIDTH,
		.width_align = 1,
		.min_height = FDIF_PIC_HEIGHT,
		.max_height = FDIF_PIC_HEIGHT,
		.height_align = 1,
		.offset_align = FDIF_ADDR_ALIGN,
		.stride_align = 1,
	},
};

static const struct drm_fdif_class_info fdif_omap4_classes[] = {
	{
		.object_class = DRM_FDIF_CLASS_FACE,
		.directions = BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) |
			      BIT(DRM_FDIF_DIR_LEFT),
	},
};

static const struct fdif_reg_name fdif_omap4_regs[] = {
#define REG(r) { #r, r }
	REG(FDIF_REVISION), REG(FDIF_HWINFO), REG(FDIF_SYSCONFIG),
	REG(FDIF_IRQSTATUS_RAW(FDIF_IRQ_MPU)), REG(FDIF_IRQSTATUS(FDIF_IRQ_MPU)),
	REG(FDIF_IRQENABLE_SET(FDIF_IRQ_MPU)), REG(FDIF_PICADDR), REG(FDIF_CTRL),
	REG(FDIF_WKADDR), REG(FD_CTRL), REG(FD_DNUM), REG(FD_DCOND),
	REG(FD_STARTX), REG(FD_STARTY), REG(FD_SIZEX), REG(FD_SIZEY), REG(FD_LHIT),
#undef REG
};

/* The OMAP4 FDIF (OMAP4 TRM chapter 9) */
const struct fdif_gen fdif_gen_omap4 = {
	.info = {
		.generation = DRM_FDIF_GEN_OMAP4,
		.classes = BIT(DRM_FDIF_CLASS_FACE),
		.directions = BIT(DRM_FDIF_DIR_UP) | BIT(DRM_FDIF_DIR_RIGHT) |
			      BIT(DRM_FDIF_DIR_LEFT),
		.max_job_classes = 1,
		.max_job_directions = 1,	/* FD_DCOND.DIR: one a job */
		.max_threshold = FDIF_MAX_LHIT,
		.default_threshold = FDIF_DEFAULT_LHIT,
		.work_size = FDIF_WORK_SIZE,
		.work_align = FDIF_ADDR_ALIGN,
		.roi_min_width = FDIF_ROI_MIN,
		.roi_min_height = FDIF_ROI_MIN,
		.roi_max_x = FDIF_ROI_MAX_X,
		.roi_max_y = FDIF_ROI_MAX_Y,
		.max_jobs = FDIF_MAX_BATCH,
		.max_syncs = FDIF_MAX_SYNCS,
	},
	.formats = fdif_omap4_formats,
	.num_formats = ARRAY_SIZE(fdif_omap4_formats),
	.min_sizes = fdif_omap4_min_sizes,
	.num_min_sizes = ARRAY_SIZE(fdif_omap4_min_sizes),
	.classes = fdif_omap4_classes,
	.num_classes = ARRAY_SIZE(fdif_omap4_classes),
	.dma_bits = 32,		/* PICADDR, WKADDR */
	.capacity = FDIF_MAX_FACES,
	.object_fields = DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE |
			 DRM_FDIF_OBJECT_DIRECTION | DRM_FDIF_OBJECT_CONFIDENCE |
			 DRM_FDIF_OBJECT_RAW_CONFIDENCE,
	.ops = &fdif_omap4_ops,
	.regs = fdif_omap4_regs,
	.num_regs = ARRAY_SIZE(fdif_omap4_regs),
};
