// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM accel driver for the TI OMAP4 Face Detection module (FDIF).
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_omap4.h"
#include "fdif_params.h"

#define FDIF_AUTOSUSPEND_MS	50

static int fdif_open(struct drm_device *drm, struct drm_file *file)
{
	struct fdif_device *fdev = to_fdif_device(drm);
	struct drm_gpu_scheduler *sched = &fdev->sched;
	struct fdif_file *ffile;
	int ret;

	ffile = kzalloc(sizeof(*ffile), GFP_KERNEL);
	if (!ffile)
		return -ENOMEM;
	ffile->fdev = fdev;
	kref_init(&ffile->refcount);
	mutex_init(&ffile->submit_lock);
	ret = drm_sched_entity_init(&ffile->entity, DRM_SCHED_PRIORITY_NORMAL,
				    &sched, 1, NULL);
	if (ret) {
		mutex_destroy(&ffile->submit_lock);
		kfree(ffile);
		return ret;
	}
	file->driver_priv = ffile;
	return 0;
}

static void fdif_file_release(struct kref *kref)
{
	struct fdif_file *ffile = container_of(kref, struct fdif_file, refcount);

	mutex_destroy(&ffile->submit_lock);
	kfree(ffile);
}

/**
 * fdif_file_put() - drop a reference to a file's driver state
 * @ffile: the state; jobs keep it alive after the file is closed
 */
void fdif_file_put(struct fdif_file *ffile)
{
	kref_put(&ffile->refcount, fdif_file_release);
}

static void fdif_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct fdif_file *ffile = file->driver_priv;

	/* queued jobs still run; the entity waits until they reached the queue */
	drm_sched_entity_destroy(&ffile->entity);
	fdif_file_put(ffile);
}

static void fdif_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct fdif_file *ffile = file->driver_priv;

	drm_printf(p, "drm-engine-fdif:\t%llu ns\n",
		   (u64)atomic64_read(&ffile->busy_ns));
	/* not a drm-usage-stats key: in the driver's own namespace */
	drm_printf(p, "fdif-jobs:\t%llu\n", (u64)atomic64_read(&ffile->seqno));
	drm_show_memory_stats(p, file);
}

static const struct drm_ioctl_desc fdif_ioctls[] = {
#define FDIF_IOCTL(n, func) \
	DRM_IOCTL_DEF_DRV(FDIF_##n, fdif_ioctl_##func, 0)
	FDIF_IOCTL(QUERY, query),
	FDIF_IOCTL(BO_CREATE, bo_create),
	FDIF_IOCTL(BO_MMAP_OFFSET, bo_mmap_offset),
	FDIF_IOCTL(BO_WAIT, bo_wait),
	FDIF_IOCTL(SUBMIT, submit),
#undef FDIF_IOCTL
};

static const struct file_operations fdif_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

static const struct drm_driver fdif_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = fdif_open,
	.postclose = fdif_postclose,
	.gem_create_object = fdif_gem_create_object,
	.gem_prime_import = fdif_gem_prime_import,
	.gem_prime_import_sg_table = fdif_gem_prime_import_sg_table,
	.show_fdinfo = fdif_show_fdinfo,
	.ioctls = fdif_ioctls,
	.num_ioctls = ARRAY_SIZE(fdif_ioctls),
	.fops = &fdif_fops,
	.name = "fdif",
	.desc = "TI OMAP4 Face Detection module",
	.major = 1,
	.minor = 0,
};

static int fdif_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct fdif_device *fdev;
	int ret;

	fdev = devm_drm_dev_alloc(dev, &fdif_drm_driver, struct fdif_device, drm);
	if (IS_ERR(fdev))
		return PTR_ERR(fdev);
	platform_set_drvdata(pdev, fdev);
	spin_lock_init(&fdev->fence_lock);
	spin_lock_init(&fdev->job_lock);
	spin_lock_init(&fdev->standby_lock);
	spin_lock_init(&fdev->pm_lock);
	fdif_reset_init(fdev);
	ret = drmm_mutex_init(&fdev->drm, &fdev->reset_lock);
	if (ret)
		return ret;

	/* no IOMMU: the module's address registers are the limit */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(FDIF_DMA_BITS));
	if (ret)
		return dev_err_probe(dev, ret, "no %d-bit DMA\n", FDIF_DMA_BITS);
	/* a picture is one contiguous segment, whatever its size */
	dma_set_max_seg_size(dev, UINT_MAX);

	fdev->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(fdev->regs))
		return PTR_ERR(fdev->regs);
	fdev->irq = platform_get_irq(pdev, 0);
	if (fdev->irq < 0)
		return fdev->irq;

	pm_runtime_set_autosuspend_delay(dev, FDIF_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	ret = devm_pm_runtime_enable(dev);
	if (ret)
		return ret;
	ret = pm_runtime_resume_and_get(dev);
	if (ret)
		return ret;
	if (READ_ONCE(fdev->hw_failed)) {
		/* a module that never came out of its first reset */
		pm_runtime_put_noidle(dev);
		return dev_err_probe(dev, -EIO, "the module did not reset\n");
	}
	fdev->revision = fdif_omap4_revision(fdev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	ret = devm_request_threaded_irq(dev, fdev->irq, fdif_irq, fdif_irq_thread,
					0, dev_name(dev), fdev);
	if (ret)
		return ret;

	ret = fdif_sched_init(fdev);
	if (ret)
		return ret;

	fdif_debugfs_init(fdev);
	ret = drm_dev_register(&fdev->drm, 0);
	if (ret)
		return ret;
	drm_info(&fdev->drm, "FDIF revision %08x\n", fdev->revision);
	return 0;
}

/**
 * fdif_pm_job_get() - power the module for a job, from its submission
 * @fdev: the device
 *
 * A job holds the reference until it is freed (fdif_pm_job_put()), so
 * that run_job never resumes the module, or until the unbind, whichever
 * comes first: a queued job may wait on another driver's fence for ever,
 * and must not keep an unbound module powered.
 *
 * Return: 0, -ENODEV after the unplug, or the resume's error.
 */
int fdif_pm_job_get(struct fdif_device *fdev)
{
	int ret, idx;

	/* fdif_pm_unbind() comes after the unplug, which waits for us */
	if (!drm_dev_enter(&fdev->drm, &idx))
		return -ENODEV;
	ret = pm_runtime_resume_and_get(fdev->drm.dev);
	if (!ret) {
		spin_lock_irq(&fdev->pm_lock);
		fdev->pm_jobs++;
		spin_unlock_irq(&fdev->pm_lock);
	}
	drm_dev_exit(idx);
	return ret;
}

/**
 * fdif_pm_job_put() - a job's power reference goes, unless the unbind took it
 * @fdev: the device
 */
void fdif_pm_job_put(struct fdif_device *fdev)
{
	unsigned long flags;
	bool put;

	spin_lock_irqsave(&fdev->pm_lock, flags);
	put = fdev->pm_jobs;
	if (put)
		fdev->pm_jobs--;
	spin_unlock_irqrestore(&fdev->pm_lock, flags);
	if (put) {
		pm_runtime_mark_last_busy(fdev->drm.dev);
		pm_runtime_put_autosuspend(fdev->drm.dev);
	}
}

/*
 * The unbind drops the power references of the jobs still queued (none
 * runs any more: they fail with -ENODEV), so that the module is suspended
 * as the driver lets go of it.
 */
static void fdif_pm_unbind(struct fdif_device *fdev)
{
	unsigned int n;

	spin_lock_irq(&fdev->pm_lock);
	n = fdev->pm_jobs;
	fdev->pm_jobs = 0;
	spin_unlock_irq(&fdev->pm_lock);
	while (n--)
		pm_runtime_put_noidle(fdev->drm.dev);
}

static void fdif_remove(struct platform_device *pdev)
{
	struct fdif_device *fdev = platform_get_drvdata(pdev);

	/*
	 * Open files keep the drm_device and its scheduler, not the hardware:
	 * after the unplug no job touches it (queued ones fail with -ENODEV,
	 * new submissions are refused), and the one running is ended here.
	 */
	drm_dev_unplug(&fdev->drm);
	fdif_job_abort_active(fdev);
	fdif_reset_unbind(fdev);
	fdif_pm_unbind(fdev);
	/*
	 * devm_pm_runtime_enable()'s action stops autosuspend, which suspends
	 * the idle module, and disables runtime PM
	 */
}

/*
 * Also called by pm_runtime_force_suspend() for system sleep, with runtime
 * PM disabled: the interrupt handler learns that the module is in standby
 * from @standby, not from the PM core, and is told before the module is
 * asked to go there (an interrupt latched as it goes must not touch it).
 *
 * A module whose DMA still runs (a failed reset did not stop its job) does
 * not acknowledge standby: -EBUSY, and the PM core tries again after the
 * autosuspend delay.
 */
static int fdif_runtime_suspend(struct device *dev)
{
	struct fdif_device *fdev = dev_get_drvdata(dev);
	int ret;

	spin_lock_irq(&fdev->standby_lock);
	fdev->standby = true;
	spin_unlock_irq(&fdev->standby_lock);
	ret = fdif_omap4_hw_suspend(fdev);
	if (ret) {
		spin_lock_irq(&fdev->standby_lock);
		fdev->standby = false;
		spin_unlock_irq(&fdev->standby_lock);
		dev_warn_ratelimited(dev, "module busy: standby refused\n");
		pm_runtime_mark_last_busy(dev);
	}
	return ret;
}

/*
 * A reset that fails here must not fail the resume: the PM core would
 * latch the error (power.runtime_error) and refuse every later resume with
 * -EINVAL, so every submit and debugfs read would fail until a rebind. The
 * device counts as powered but failed instead: run_job tries the reset
 * again for each job, and fails the job with -EIO if it does not complete.
 */
static int fdif_runtime_resume(struct device *dev)
{
	struct fdif_device *fdev = dev_get_drvdata(dev);

	fdif_hw_init(fdev);
	spin_lock_irq(&fdev->standby_lock);
	fdev->standby = false;
	spin_unlock_irq(&fdev->standby_lock);
	return 0;
}

/*
 * System sleep: park the scheduler and let the job on the hardware end
 * before the module is gated; queued jobs wait for the resume.
 */
static int fdif_system_suspend(struct device *dev)
{
	struct fdif_device *fdev = dev_get_drvdata(dev);
	int ret;

	ret = fdif_sched_suspend(fdev);
	if (ret)
		return ret;
	ret = pm_runtime_force_suspend(dev);
	if (ret)
		fdif_sched_resume(fdev);
	return ret;
}

static int fdif_system_resume(struct device *dev)
{
	struct fdif_device *fdev = dev_get_drvdata(dev);
	int ret;

	ret = pm_runtime_force_resume(dev);
	fdif_sched_resume(fdev);
	return ret;
}

static const struct dev_pm_ops fdif_pm_ops = {
	RUNTIME_PM_OPS(fdif_runtime_suspend, fdif_runtime_resume, NULL)
	SYSTEM_SLEEP_PM_OPS(fdif_system_suspend, fdif_system_resume)
};

static const struct of_device_id fdif_of_match[] = {
	{ .compatible = "ti,omap4-fdif" },
	{ }
};
MODULE_DEVICE_TABLE(of, fdif_of_match);

static struct platform_driver fdif_platform_driver = {
	.probe = fdif_probe,
	.remove = fdif_remove,
	.driver = {
		.name = "fdif",
		.of_match_table = fdif_of_match,
		.pm = pm_ptr(&fdif_pm_ops),
	},
};

static int __init fdif_init(void)
{
	int ret;

	ret = fdif_job_init();
	if (ret)
		return ret;
	ret = platform_driver_register(&fdif_platform_driver);
	if (ret)
		fdif_job_exit();
	return ret;
}
module_init(fdif_init);

static void __exit fdif_exit(void)
{
	platform_driver_unregister(&fdif_platform_driver);
	fdif_job_exit();
}
module_exit(fdif_exit);

MODULE_AUTHOR("The fdif developers");
MODULE_DESCRIPTION("TI OMAP4 Face Detection module (FDIF) accel driver");
MODULE_LICENSE("GPL");
