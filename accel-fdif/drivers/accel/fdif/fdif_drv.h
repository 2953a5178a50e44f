/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_DRV_H__
#define __FDIF_DRV_H__

#include <linux/atomic.h>
#include <linux/irqreturn.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include <drm/drm_device.h>
#include <drm/gpu_scheduler.h>

#include "fdif_job.h"

struct dma_buf;
struct dma_buf_attachment;
struct drm_fdif_query;
struct sg_table;

/**
 * struct fdif_stats - what debugfs "stats" shows
 * @submitted: jobs queued
 * @completed: jobs that ended with FINISH
 * @errors: jobs that ended with ERR
 * @timeouts: jobs the scheduler timed out
 * @cancelled: jobs ended without running (cancelled, or the device gone)
 * @resets: soft resets after a timeout or an ERR interrupt, and a job's
 *	retry, as it starts, of one that did not complete
 * @missed_irqs: timeouts that found the job done (interrupt lost)
 * @spurious_irqs: interrupts with no status or no job
 * @bos: live buffer objects
 */
struct fdif_stats {
	atomic64_t submitted;
	atomic64_t completed;
	atomic64_t errors;
	atomic64_t timeouts;
	atomic64_t cancelled;
	atomic64_t resets;
	atomic64_t missed_irqs;
	atomic64_t spurious_irqs;
	atomic_t bos;
};

/**
 * struct fdif_device - one FDIF
 * @drm: the DRM (accel) device
 * @regs: its registers
 * @irq: its interrupt
 * @revision: REVISION, read at probe
 * @sched: the one hardware queue
 * @sched_wq: its submission and timeout work, ordered
 * @fence_context: context of the hardware fences
 * @fence_seqno: last hardware fence seqno (serialised by the scheduler)
 * @fence_lock: lock of the hardware fences
 * @job_lock: protects @active, @queued and @faulted between run_job, the
 *	interrupt, the timeout handler, @fault_work and the unbind, and
 *	@held, @holding and @held_reset
 * @active: the job that holds the module: on it, or passed the module as
 *	the one before it ended and not started yet, or ended and signalled
 *	but not yet passed on (then only compared: it may be freed); or NULL
 * @queued: jobs run_job got while one was active, to be started in order
 *	as it ends (&fdif_job.queue_node); at most two, by the credit limit,
 *	two only while @active has signalled and not been passed on
 * @faulted: @active ended with an ERR interrupt, for @fault_work
 * @fault_work: resets the module and fails @active after an ERR interrupt,
 *	on @sched_wq
 * @standby_lock: protects @standby between runtime PM and the interrupt
 * @standby: the module is in standby, runtime-suspended, and its clocks
 *	may be cut (on OMAP4 an access is then a bus error): the interrupt
 *	handler must not touch it
 * @hw_failed: the last soft reset did not complete: start no job (read and
 *	written without a lock, READ_ONCE()/WRITE_ONCE())
 * @held: BOs of the job a failed reset was meant to stop, by role (under
 *	@job_lock): the module may still use them, so they are not freed
 *	until a reset completes, and their memory never is if the device is
 *	unbound first (fdif_reset_unbind())
 * @holding: whether @held has any (under @job_lock)
 * @held_reset: a soft reset has completed since @held was filled, so the
 *	module no longer uses it; cleared when @held is refilled (under
 *	@job_lock)
 * @held_work: drops @held once a reset completed
 * @pm_lock: protects @pm_jobs
 * @pm_jobs: runtime PM references held by jobs, which the unbind drops
 * @reset_lock: serialises the timeout handler, @fault_work, the resets
 *	they do and fdif_job_abort_active() on unbind, so that exactly one of
 *	them ends the job on the hardware
 * @stats: counters
 */
struct fdif_device {
	struct drm_device drm;
	void __iomem *regs;
	int irq;
	u32 revision;

	struct drm_gpu_scheduler sched;
	struct workqueue_struct *sched_wq;
	u64 fence_context;
	u64 fence_seqno;
	spinlock_t fence_lock;	/* for the hardware fences */

	spinlock_t job_lock;	/* protects @active, @queued, @held... */
	struct fdif_job *active;
	struct list_head queued;
	bool faulted;
	struct work_struct fault_work;

	spinlock_t standby_lock;	/* protects @standby */
	bool standby;
	bool hw_failed;
	struct drm_gem_object *held[FDIF_BO_COUNT];
	bool holding;
	bool held_reset;
	struct work_struct held_work;
	spinlock_t pm_lock;	/* protects @pm_jobs */
	unsigned int pm_jobs;
	struct mutex reset_lock;	/* timeout, reset, remove and suspend */

	struct fdif_stats stats;
};

/**
 * struct fdif_file - one open file
 * @fdev: the device
 * @refcount: the file and each of its jobs hold a reference
 * @entity: its scheduler entity
 * @submit_lock: keeps sequence numbers in queue order
 * @seqno: last job sequence number
 * @busy_ns: nanoseconds the device spent on its jobs
 */
struct fdif_file {
	struct fdif_device *fdev;
	struct kref refcount;
	struct drm_sched_entity entity;
	struct mutex submit_lock;	/* arm and push in seqno order */
	atomic64_t seqno;
	atomic64_t busy_ns;
};

static inline struct fdif_device *to_fdif_device(struct drm_device *drm)
{
	return container_of(drm, struct fdif_device, drm);
}

/* fdif_drv.c */
void fdif_file_put(struct fdif_file *ffile);
int fdif_pm_job_get(struct fdif_device *fdev);
void fdif_pm_job_put(struct fdif_device *fdev);

/* fdif_gem.c */
size_t fdif_gem_lose(struct fdif_device *fdev, struct drm_gem_object *obj);
struct drm_gem_object *fdif_gem_create_object(struct drm_device *drm,
					      size_t size);
struct drm_gem_object *fdif_gem_prime_import(struct drm_device *drm,
					     struct dma_buf *dma_buf);
struct drm_gem_object *
fdif_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt);
int fdif_ioctl_bo_create(struct drm_device *drm, void *data,
			 struct drm_file *file);
int fdif_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
			      struct drm_file *file);
int fdif_ioctl_bo_wait(struct drm_device *drm, void *data,
		       struct drm_file *file);

/* fdif_query.c */
int fdif_query_copy(struct drm_fdif_query *q, const void *answer, u32 size);
int fdif_ioctl_query(struct drm_device *drm, void *data,
		     struct drm_file *file);

/* fdif_reset.c */
void fdif_reset_init(struct fdif_device *fdev);
void fdif_reset_unbind(struct fdif_device *fdev);
void fdif_reset_fini(struct fdif_device *fdev);
int fdif_hw_init(struct fdif_device *fdev);
void fdif_hw_reset(struct fdif_device *fdev);
void fdif_reset_from(struct fdif_device *fdev, struct fdif_job *job);

/* fdif_job.c */
int fdif_job_init(void);
void fdif_job_exit(void);
irqreturn_t fdif_irq(int irq, void *arg);
irqreturn_t fdif_irq_thread(int irq, void *arg);
int fdif_sched_init(struct fdif_device *fdev);
void fdif_job_abort_active(struct fdif_device *fdev);
void fdif_job_done(struct fdif_device *fdev);
int fdif_sched_suspend(struct fdif_device *fdev);
void fdif_sched_resume(struct fdif_device *fdev);

/* fdif_submit.c */
bool fdif_job_size_ok(u32 size);
int fdif_job_from_user(void *job, size_t ksize, const void __user *ujob,
		       u32 usize);
int fdif_ioctl_submit(struct drm_device *drm, void *data,
		      struct drm_file *file);

/* fdif_debugfs.c */
#ifdef CONFIG_DEBUG_FS
void fdif_debugfs_init(struct fdif_device *fdev);
#else
static inline void fdif_debugfs_init(struct fdif_device *fdev) { }
#endif

#endif /* __FDIF_DRV_H__ */
