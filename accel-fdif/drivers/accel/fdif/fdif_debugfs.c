// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs: /sys/kernel/debug/accel/<device name>/{regs,stats}
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/io.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "fdif_drv.h"
#include "fdif_regs.h"

/* The registers "regs" dumps, by their names in the TRM */
static const struct {
	const char *name;
	u32 offset;
} fdif_regs[] = {
#define REG(r) { #r, r }
	REG(FDIF_REVISION), REG(FDIF_HWINFO), REG(FDIF_SYSCONFIG),
	REG(FDIF_IRQSTATUS_RAW(FDIF_IRQ_MPU)), REG(FDIF_IRQSTATUS(FDIF_IRQ_MPU)),
	REG(FDIF_IRQENABLE_SET(FDIF_IRQ_MPU)), REG(FDIF_PICADDR), REG(FDIF_CTRL),
	REG(FDIF_WKADDR), REG(FD_CTRL), REG(FD_DNUM), REG(FD_DCOND),
	REG(FD_STARTX), REG(FD_STARTY), REG(FD_SIZEX), REG(FD_SIZEY), REG(FD_LHIT),
#undef REG
};

static int fdif_regs_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct fdif_device *fdev = to_fdif_device(entry->dev);
	int i, ret, idx;

	if (!drm_dev_enter(&fdev->drm, &idx))
		return -ENODEV;
	/* reading wakes the device; it goes back to sleep on its own */
	ret = pm_runtime_resume_and_get(fdev->drm.dev);
	if (ret) {
		drm_dev_exit(idx);
		return ret;
	}
	for (i = 0; i < ARRAY_SIZE(fdif_regs); i++)
		seq_printf(m, "%-40s 0x%03x = 0x%08x\n", fdif_regs[i].name,
			   fdif_regs[i].offset,
			   readl(fdev->regs + fdif_regs[i].offset));
	pm_runtime_mark_last_busy(fdev->drm.dev);
	pm_runtime_put_autosuspend(fdev->drm.dev);
	drm_dev_exit(idx);
	return 0;
}

static int fdif_stats_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct fdif_stats *s = &to_fdif_device(entry->dev)->stats;

	seq_printf(m, "submitted: %lld\n", atomic64_read(&s->submitted));
	seq_printf(m, "completed: %lld\n", atomic64_read(&s->completed));
	seq_printf(m, "errors: %lld\n", atomic64_read(&s->errors));
	seq_printf(m, "timeouts: %lld\n", atomic64_read(&s->timeouts));
	seq_printf(m, "cancelled: %lld\n", atomic64_read(&s->cancelled));
	seq_printf(m, "resets: %lld\n", atomic64_read(&s->resets));
	seq_printf(m, "missed_irqs: %lld\n", atomic64_read(&s->missed_irqs));
	seq_printf(m, "spurious_irqs: %lld\n", atomic64_read(&s->spurious_irqs));
	seq_printf(m, "bos: %d\n", atomic_read(&s->bos));
	seq_printf(m, "runtime_status: %s\n",
		   pm_runtime_suspended(entry->dev->dev) ? "suspended" : "active");
	return 0;
}

static const struct drm_debugfs_info fdif_debugfs_list[] = {
	{ "regs", fdif_regs_show },
	{ "stats", fdif_stats_show },
};

/**
 * fdif_debugfs_init() - register the debugfs files (before drm_dev_register)
 * @fdev: the device
 */
void fdif_debugfs_init(struct fdif_device *fdev)
{
	drm_debugfs_add_files(&fdev->drm, fdif_debugfs_list,
			      ARRAY_SIZE(fdif_debugfs_list));
}
