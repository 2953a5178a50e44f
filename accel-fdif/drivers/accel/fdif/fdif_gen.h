/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between FDIF hardware generations: their capabilities, as
 * the query ioctl reports them and the job check enforces them, and the
 * few operations that touch registers. Everything else is shared.
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_GEN_H__
#define __FDIF_GEN_H__

#include <linux/types.h>

#include <uapi/drm/fdif_accel.h>

struct fdif_device;

/* What an interrupt (or a lost one) reports, whatever the registers. */
#define FDIF_EV_DONE		BIT(0)
#define FDIF_EV_ERROR		BIT(1)

#define FDIF_HW_JOB_REGS	8

/**
 * struct fdif_hw_job - one checked job as the hardware wants it
 * @plane_addr: DMA address of each picture plane, below 2^&fdif_gen.dma_bits
 * @work_addr: DMA address of the work area, below 2^&fdif_gen.dma_bits
 * @regs: generation-specific register values, from &fdif_gen_ops.prepare
 *
 * The addresses are whole dma_addr_t: how they fit the generation's
 * address registers is its &fdif_gen_ops.run's business.
 */
struct fdif_hw_job {
	dma_addr_t plane_addr[DRM_FDIF_MAX_PLANES];
	dma_addr_t work_addr;
	u32 regs[FDIF_HW_JOB_REGS];
};

/**
 * struct fdif_gen_ops - register-level operations of a generation
 * @revision: the hardware's revision register (the module is powered)
 * @hw_init: soft-reset the module and set it up for jobs; 0 or -ETIMEDOUT
 * @hw_suspend: put the module in standby before it is powered down: 0, or
 *	-EBUSY if it did not acknowledge (its DMA still runs)
 * @prepare: the register values of a job that passed fdif_job_check()
 * @run: program a prepared job and start it (the module is idle)
 * @irq_events: read and acknowledge the interrupt: FDIF_EV_* or 0
 * @take_pending: with the interrupt masked, acknowledge and return the
 *	events an interrupt did not report (a lost interrupt)
 * @read_results: copy the objects of the finished job @hw (at most
 *	@capacity)
 *	and release the result registers; returns the number copied
 *
 * None of them may sleep or allocate: @prepare runs in the submit ioctl,
 * the others in the fence signalling path (run_job, interrupt, timeout).
 */
struct fdif_gen_ops {
	u32 (*revision)(struct fdif_device *fdev);
	int (*hw_init)(struct fdif_device *fdev);
	int (*hw_suspend)(struct fdif_device *fdev);
	void (*prepare)(const struct drm_fdif_job *job, struct fdif_hw_job *hw);
	void (*run)(struct fdif_device *fdev, const struct fdif_hw_job *hw);
	u32 (*irq_events)(struct fdif_device *fdev);
	u32 (*take_pending)(struct fdif_device *fdev);
	u32 (*read_results)(struct fdif_device *fdev,
			    const struct fdif_hw_job *hw,
			    struct drm_fdif_object *objs, u32 capacity);
};

/**
 * struct fdif_reg_name - a register debugfs shows
 * @name: its name in the TRM
 * @offset: its offset in the register window
 */
struct fdif_reg_name {
	const char *name;
	u32 offset;
};

/**
 * struct fdif_gen - one hardware generation, the OF match data
 * @info: %DRM_FDIF_QUERY_DEVICE (the revision is read at probe)
 * @formats: %DRM_FDIF_QUERY_FORMATS
 * @num_formats: entries in @formats
 * @min_sizes: %DRM_FDIF_QUERY_MIN_SIZES, smallest first
 * @num_min_sizes: entries in @min_sizes
 * @classes: %DRM_FDIF_QUERY_CLASSES
 * @num_classes: entries in @classes
 * @dma_bits: the address bits of its DMA (no IOMMU: buffers are
 *	physically contiguous below 2^@dma_bits)
 * @capacity: most objects one job reports
 * @object_fields: the DRM_FDIF_OBJECT_* fields it fills in
 * @ops: its register-level operations
 * @regs: the registers debugfs "regs" dumps
 * @num_regs: entries in @regs
 */
struct fdif_gen {
	struct drm_fdif_device_info info;
	const struct drm_fdif_format_info *formats;
	u32 num_formats;
	const struct drm_fdif_size *min_sizes;
	u32 num_min_sizes;
	const struct drm_fdif_class_info *classes;
	u32 num_classes;
	u32 dma_bits;
	u32 capacity;
	u32 object_fields;
	const struct fdif_gen_ops *ops;
	const struct fdif_reg_name *regs;
	u32 num_regs;
};

extern const struct fdif_gen fdif_gen_omap4;

/* fdif_params.c: the shared, table-driven checks */
const struct drm_fdif_format_info *
fdif_gen_format(const struct fdif_gen *gen, u32 fourcc);
int fdif_gen_min_size_index(const struct fdif_gen *gen, u32 width, u32 height);
u32 fdif_result_size(const struct fdif_gen *gen);
void fdif_result_layout(const struct fdif_gen *gen,
			struct drm_fdif_result_layout *layout);
void fdif_sort_objects(struct drm_fdif_object *objs, u32 count);
int fdif_job_check(const struct fdif_gen *gen, const struct drm_fdif_job *job);

#endif /* __FDIF_GEN_H__ */
