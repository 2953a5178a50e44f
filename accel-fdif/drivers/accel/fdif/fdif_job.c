// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jobs on the hardware: the drm_sched backend (one hardware queue, one
 * entity per open file), completion from the interrupt, and recovery from
 * hung jobs. The submit ioctl that makes them is in fdif_submit.c.
 *
 * The module runs one job at a time. The scheduler may give run_job a
 * second one, which waits in the driver until the first ends: whoever
 * ends that one (the interrupt thread, the timeout handler, the fault
 * work, the unbind) starts it, before the first one's fence signals,
 * rather than leave the module idle while the scheduler's work runs.
 *
 * Everything a job needs is allocated in the submit ioctl: run_job and the
 * signalling path (interrupt, timeout) only program registers, copy results
 * and signal fences.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include <uapi/drm/fdif_accel.h>

#include "fdif_drv.h"
#include "fdif_job.h"
#include "fdif_omap4.h"
#include "fdif_params.h"

static int fdif_timeout_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	/* 0 would time every job out at once */
	if (!ms || ms > 600 * MSEC_PER_SEC)
		return -EINVAL;
	*(unsigned int *)kp->arg = ms;
	return 0;
}

static const struct kernel_param_ops fdif_timeout_ms_ops = {
	.set = fdif_timeout_ms_set,
	.get = param_get_uint,
};

static unsigned int fdif_timeout_ms = 2000;
module_param_cb(timeout_ms, &fdif_timeout_ms_ops, &fdif_timeout_ms, 0444);
MODULE_PARM_DESC(timeout_ms, "time a job may take before the device is reset (ms, 1..600000)");

static const char *fdif_fence_driver_name(struct dma_fence *fence)
{
	return "fdif";
}

static const char *fdif_fence_timeline_name(struct dma_fence *fence)
{
	return "fdif-hw";
}

/*
 * Jobs and hardware fences end their lives on this queue, which module
 * exit destroys: see fdif_job_release().
 */
static struct workqueue_struct *fdif_release_wq;

static void fdif_fence_release_work(struct work_struct *work)
{
	struct fdif_hw_fence *f = container_of(work, struct fdif_hw_fence,
					       release_work);
	struct fdif_device *fdev = f->fdev;

	dma_fence_free(&f->base);	/* RCU-delayed: readers may still look */
	drm_dev_put(&fdev->drm);
	module_put(THIS_MODULE);
}

/**
 * fdif_release_later() - run a release that drops the module, from a work item
 * @work: drops what its object holds, the module last
 *
 * On a queue of the driver's that module exit destroys, which waits for
 * the work: the module's code is not left while it still runs.
 */
void fdif_release_later(struct work_struct *work)
{
	queue_work(fdif_release_wq, work);
}

/* The last reference, in any context: the rest goes from a work item. */
static void fdif_fence_release(struct dma_fence *fence)
{
	struct fdif_hw_fence *f = container_of(fence, struct fdif_hw_fence, base);

	INIT_WORK(&f->release_work, fdif_fence_release_work);
	fdif_release_later(&f->release_work);
}

static const struct dma_fence_ops fdif_fence_ops = {
	.get_driver_name = fdif_fence_driver_name,
	.get_timeline_name = fdif_fence_timeline_name,
	.release = fdif_fence_release,
};

/**
 * fdif_hw_fence_alloc() - a job's hardware fence, to be initialised in run_job
 * @fdev: the device, from an ioctl of an open file (which pins it and the module)
 *
 * The fence holds the device (its lock is the device's) and the module
 * (its ops are ours) until it is released: the scheduler's fences keep it
 * as their parent for as long as anyone holds them.
 *
 * Return: the fence, or NULL.
 */
struct dma_fence *fdif_hw_fence_alloc(struct fdif_device *fdev)
{
	struct fdif_hw_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->fdev = fdev;
	drm_dev_get(&fdev->drm);
	__module_get(THIS_MODULE);
	return &f->base;
}

/**
 * fdif_irq() - the interrupt handler: acknowledge, hand the rest on
 * @irq: the interrupt
 * @arg: the device
 *
 * Only the status register is read here, with interrupts off: copying the
 * results (a hundred and more register reads) is left to fdif_irq_thread(),
 * and an ERR, which needs a soft reset that may take milliseconds, to
 * fdif_fault_work() on the scheduler's workqueue.
 *
 * A job holds a runtime PM reference from submit to free, so its interrupt
 * comes while the module is out of standby. One that comes while it is in
 * standby (latched as it went idle, or spurious) must not touch it: its
 * clocks may be cut, and on OMAP4 a register access is then a bus error.
 *
 * Return: IRQ_NONE if the module had nothing to say (a spurious interrupt)
 * or was in standby, IRQ_WAKE_THREAD for a finished job.
 */
irqreturn_t fdif_irq(int irq, void *arg)
{
	struct fdif_device *fdev = arg;
	bool fault;
	u32 events = 0;

	spin_lock(&fdev->standby_lock);
	if (!fdev->standby)
		events = fdif_omap4_irq_events(fdev);
	spin_unlock(&fdev->standby_lock);

	spin_lock(&fdev->job_lock);
	if (!fdev->active)
		events = 0;	/* no job: latched, or ended by the timeout handler */
	fault = events & FDIF_EV_ERROR;
	if (fault)
		fdev->faulted = true;
	spin_unlock(&fdev->job_lock);

	if (!events) {
		atomic64_inc(&fdev->stats.spurious_irqs);
		return IRQ_NONE;
	}
	if (fault) {
		/* resets the module and fails the job */
		queue_work(fdev->sched_wq, &fdev->fault_work);
		return IRQ_HANDLED;
	}
	return IRQ_WAKE_THREAD;
}

/**
 * fdif_irq_thread() - complete the finished job
 * @irq: the interrupt
 * @arg: the device
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t fdif_irq_thread(int irq, void *arg)
{
	fdif_job_done(arg);
	return IRQ_HANDLED;
}

/*
 * The whole header, written when the job ends and not at submit: until
 * then the region may still hold an earlier job's result, being read.
 */
static void fdif_job_write_header(struct fdif_job *job, int status, u32 count)
{
	*job->result = (struct drm_fdif_result_header) {
		.version = DRM_FDIF_RESULT_VERSION,
		.header_size = sizeof(struct drm_fdif_result_header),
		.object_size = sizeof(struct drm_fdif_object),
		.capacity = FDIF_MAX_FACES,
		.count = count,
		.status = status,
		.seqno = job->seqno,
	};
}

static struct drm_fdif_object *fdif_job_objects(struct fdif_job *job)
{
	return (struct drm_fdif_object *)(job->result + 1);
}

/**
 * fdif_job_alloc() - a new job, holding its device and the module
 * @fdev: the device, from an ioctl of an open file (which pins both)
 *
 * A job can outlive its file, the unbind of its device and the last open
 * file: the scheduler ends a closed file's queued jobs only once their
 * dependencies, maybe another driver's fences, have signalled, and then
 * calls fdif_free_job() and writes the device's counters. So a job holds
 * a reference to the drm_device (its scheduler and counters) and to the
 * module (the scheduler's ops). Its hardware fence holds its own
 * (fdif_hw_fence_alloc()).
 *
 * Return: the job, zeroed but for @fdev, or NULL.
 */
struct fdif_job *fdif_job_alloc(struct fdif_device *fdev)
{
	struct fdif_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	job->fdev = fdev;
	drm_dev_get(&fdev->drm);
	__module_get(THIS_MODULE);
	return job;
}

/*
 * The last of a job: its device and module references. Not dropped where
 * fdif_job_free() runs: the last device reference there, in the
 * scheduler's free work, would have drm_sched_fini() wait for that work
 * itself; and code of the module must not run after module_put() unless
 * something waits for it: fdif_job_exit() destroys this queue, which waits
 * until this function has returned.
 */
static void fdif_job_release(struct work_struct *work)
{
	struct fdif_job *job = container_of(work, struct fdif_job, release_work);
	struct fdif_device *fdev = job->fdev;

	kfree(job);
	drm_dev_put(&fdev->drm);
	module_put(THIS_MODULE);
}

/**
 * fdif_job_free() - release a job and what it holds
 * @job: the job, from the submit ioctl (maybe half set up) or the scheduler
 *
 * Its device and module references go last, from a work item.
 */
void fdif_job_free(struct fdif_job *job)
{
	u32 i;

	if (job->pm_ref)
		fdif_pm_job_put(job->fdev);
	for (i = 0; i < FDIF_BO_COUNT; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	for (i = 0; i < job->num_in_fences; i++)
		dma_fence_put(job->in_fences[i]);
	kfree(job->in_fences);
	if (job->hw_fence_init)
		dma_fence_put(job->hw_fence);
	else if (job->hw_fence)
		fdif_fence_release(job->hw_fence);	/* never initialised */
	if (job->ffile)
		fdif_file_put(job->ffile);
	INIT_WORK(&job->release_work, fdif_job_release);
	fdif_release_later(&job->release_work);
}

/**
 * fdif_job_init() - set up what jobs need for the module's lifetime
 *
 * Return: 0 or -ENOMEM.
 */
int fdif_job_init(void)
{
	fdif_release_wq = alloc_workqueue("fdif-release", WQ_UNBOUND, 0);
	return fdif_release_wq ? 0 : -ENOMEM;
}

/**
 * fdif_job_exit() - wait for the last jobs' release, at module exit
 *
 * No job is left (each holds the module), but the release of the last one
 * may still be returning from module_put().
 */
void fdif_job_exit(void)
{
	destroy_workqueue(fdif_release_wq);
}

/*
 * End a job: write its result header, account its time, signal its
 * hardware fence (its error set first: fdif_job_set_error()). The job
 * may be freed as soon as the fence signals.
 */
static void fdif_job_signal(struct fdif_job *job, int err, u32 count)
{
	fdif_job_write_header(job, err, err ? 0 : count);
	if (job->start)	/* it was on the hardware */
		atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), job->start)),
			     &job->ffile->busy_ns);
	dma_fence_signal(job->hw_fence);
}

/* A failed job's error, on its hardware fence before it signals. */
static void fdif_job_set_error(struct fdif_job *job, int err)
{
	if (err)
		dma_fence_set_error(job->hw_fence, err);
}

/*
 * The module passes from @job, the active one, which has left it, to the
 * job queued behind it, active from now on so that run_job queues behind
 * that one; with none queued, to none once @job has signalled (@signalled):
 * until then @job stays active, so that no job run_job starts, or fails,
 * can signal before it. Return the new active job, for the caller to
 * start, or NULL.
 */
static struct fdif_job *fdif_pass_on(struct fdif_device *fdev,
				     struct fdif_job *job, bool signalled)
{
	struct fdif_job *next = NULL;
	unsigned long flags;

	spin_lock_irqsave(&fdev->job_lock, flags);
	if (fdev->active == job) {
		next = list_first_entry_or_null(&fdev->queued, struct fdif_job,
						queue_node);
		if (next)
			list_del(&next->queue_node);
		if (next || signalled) {
			fdev->active = next;
			fdev->faulted = false;
		}
	}
	spin_unlock_irqrestore(&fdev->job_lock, flags);
	return next;
}

/*
 * The error of in-sync @fence, which has signalled or is a job of this
 * device that has left the hardware. drm_sched_job_done() gives back the
 * credit (and so lets the next job run) before it sets the error of the
 * finished fence, and the scheduler drops an in-sync from the job's own
 * entity as a dependency: for a job of ours, the hardware fence is what
 * tells. It has its error before it signals, and a job that ended well
 * has none when the next one starts, before its fence signals. Jobs of
 * other entities are waited for to the end (DRM_SCHED_FENCE_DONT_PIPELINE,
 * set at submit), so one the scheduler kills has its error too.
 */
static int fdif_in_fence_error(struct fdif_device *fdev,
			       struct dma_fence *fence)
{
	struct drm_sched_fence *s_fence;
	struct dma_fence *parent;

	fence = dma_fence_chain_contained(fence);
	s_fence = to_drm_sched_fence(fence);
	if (s_fence && s_fence->sched == &fdev->sched) {
		/* pairs with drm_sched_fence_set_parent()'s smp_store_release() */
		parent = smp_load_acquire(&s_fence->parent);
		if (parent && parent->error)
			return parent->error;
	}
	return fence->error;
}

/*
 * A job whose in-sync fence failed does not run: it works on what that
 * job did not produce. Checked as it starts: its dependencies have all
 * signalled by then, or are jobs of its own entity that have left the
 * hardware.
 */
static int fdif_job_deps_error(struct fdif_job *job)
{
	u32 i;

	for (i = 0; i < job->num_in_fences; i++)
		if (fdif_in_fence_error(job->fdev, job->in_fences[i]) < 0)
			return -ECANCELED;
	return 0;
}

/**
 * fdif_job_start() - put a job on the idle module
 * @fdev: the device, powered (the job holds a PM reference since submit)
 * @job: the job, its hardware fence initialised by run_job
 * @may_reset: may try a failed reset once more (a poll) and wait for the
 *	interrupt handler: in run_job, and in the timeout handler and the
 *	fault work after a reset (the interrupt masked there); not in the
 *	interrupt thread nor the unbind
 *
 * Either run_job starts @job, with no job active, or @job is already
 * active, passed the module by the one before it (fdif_pass_on()).
 *
 * Return: 0, @job active and running; or why it cannot run, for the caller
 * to fail it once every job before it has signalled (a fence context
 * signals in order).
 */
static int fdif_job_start(struct fdif_device *fdev, struct fdif_job *job,
			  bool may_reset)
{
	unsigned long flags;
	int idx;

	if (!drm_dev_enter(&fdev->drm, &idx))
		return -ENODEV;	/* unplugged: fail what is still queued */
	if (fdif_job_deps_error(job)) {
		drm_dev_exit(idx);
		return -ECANCELED;
	}
	if (READ_ONCE(fdev->hw_failed) && may_reset) {
		/*
		 * The last reset did not complete. A device kept busy is never
		 * runtime-suspended, so the next resume's reset may not come
		 * soon: try once more here (a poll of at most 4 ms) before
		 * failing the job.
		 */
		fdif_hw_reset(fdev);
		/*
		 * The interrupt of the job the failed reset was for may still
		 * be in its handler: it must not find this job active.
		 */
		synchronize_irq(fdev->irq);
	}
	if (READ_ONCE(fdev->hw_failed)) {
		drm_dev_exit(idx);
		return -EIO;	/* the module did not come out of reset */
	}

	job->start = ktime_get();
	spin_lock_irqsave(&fdev->job_lock, flags);
	fdev->active = job;
	fdev->faulted = false;
	spin_unlock_irqrestore(&fdev->job_lock, flags);
	fdif_omap4_run(fdev, &job->hw);
	drm_dev_exit(idx);
	return 0;
}

/*
 * End @job, the active one, which has left the module: start the job
 * queued behind it, then signal @job (@err, @count), then fail each job
 * that cannot start once the one before it has signalled, passing the
 * module on each time. Run_job may queue a job behind the active one
 * whenever a fence here signals: fdif_pass_on() takes it first. A job's
 * error is on its hardware fence before the next one starts, which checks
 * it if it is an in-sync (fdif_job_deps_error()).
 */
static void fdif_job_end(struct fdif_device *fdev, struct fdif_job *job,
			 int err, u32 count, bool may_reset)
{
	struct fdif_job *next;
	int next_err;

	for (;;) {
		fdif_job_set_error(job, err);
		next = fdif_pass_on(fdev, job, false);
		next_err = next ? fdif_job_start(fdev, next, may_reset) : 0;
		fdif_job_signal(job, err, count);
		if (!next) {
			/* one run_job queued as @job signalled */
			next = fdif_pass_on(fdev, job, true);
			next_err = next ? fdif_job_start(fdev, next, may_reset) : 0;
		}
		if (!next_err)
			return;
		/* @next is active but cannot run: end it in turn */
		atomic64_inc(&fdev->stats.cancelled);
		job = next;
		err = next_err;
		count = 0;
	}
}

/**
 * fdif_job_done() - the active job finished: copy its objects, end it
 * @fdev: the device
 *
 * Called from the interrupt thread, and from the timeout handler or the
 * fault work, with the interrupt masked, when they find the interrupt was
 * lost. Whoever ends the job on the module (this, the timeout handler,
 * the fault work, the unbind) passes the module on; the others find
 * another job active, or none: they mask the interrupt, which waits for
 * this, before they end one.
 *
 * The job stays active until its results are read, so that run_job queues
 * a next job rather than start it over them. The queued one starts
 * before the fence whose signal would let the scheduler's work run it:
 * the module is not left idle for the time of a work item.
 */
void fdif_job_done(struct fdif_device *fdev)
{
	struct fdif_job *job;
	unsigned long flags;
	bool cookie;
	u32 count;

	cookie = dma_fence_begin_signalling();
	spin_lock_irqsave(&fdev->job_lock, flags);
	/* one an ERR marked is the fault work's to end, with a reset */
	job = fdev->faulted ? NULL : fdev->active;
	spin_unlock_irqrestore(&fdev->job_lock, flags);
	if (job) {
		atomic64_inc(&fdev->stats.completed);
		count = fdif_omap4_read_results(fdev, &job->hw,
						fdif_job_objects(job));
		fdif_sort_objects(fdif_job_objects(job), count);
		fdif_job_end(fdev, job, 0, count, false);
	}
	dma_fence_end_signalling(cookie);
}

/**
 * fdif_job_scheduled() - report a job dropped without running
 * @fence: its scheduled fence
 * @cb: &fdif_job.scheduled_cb
 *
 * The scheduled fence signals after run_job() for a job that ran, and for
 * one dropped with its entity (its process was killed with jobs queued)
 * once its dependencies are done, just before its finished fence, which
 * the scheduler ends with -ESRCH: then its result must say the same, as
 * the uAPI documents, rather than keep what the BO held. No one else
 * writes that result any more.
 */
void fdif_job_scheduled(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct fdif_job *job = container_of(cb, struct fdif_job, scheduled_cb);

	if (job->hw_fence_init)
		return;	/* run_job() or its completion wrote the result */
	fdif_job_write_header(job, -ESRCH, 0);
	atomic64_inc(&job->fdev->stats.cancelled);
}

/*
 * The scheduler hands a job over while the one before it may still be on
 * the module (credit limit 2): it waits in @fdev->queued, and whoever
 * ends that one starts it (fdif_job_end()). Two may wait there while the
 * active job's fence signals and it has not passed the module on yet.
 */
static struct dma_fence *fdif_run_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);
	struct fdif_device *fdev = job->fdev;
	struct dma_fence *fence = job->hw_fence;
	bool cookie, busy;
	int err = 0;

	cookie = dma_fence_begin_signalling();
	dma_fence_init(fence, &fdif_fence_ops, &fdev->fence_lock,
		       fdev->fence_context, ++fdev->fence_seqno);
	job->hw_fence_init = true;

	spin_lock_irq(&fdev->job_lock);
	busy = !!fdev->active;
	if (busy)
		list_add_tail(&job->queue_node, &fdev->queued);
	spin_unlock_irq(&fdev->job_lock);
	if (!busy)
		err = fdif_job_start(fdev, job, true);
	if (err) {
		/* cancelled, or no hardware to run it on */
		atomic64_inc(&fdev->stats.cancelled);
		fdif_job_set_error(job, err);
		fdif_job_signal(job, err, 0);
	}
	dma_fence_end_signalling(cookie);
	return dma_fence_get(fence);
}

static void fdif_free_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	fdif_job_free(job);
}

/*
 * End the active job, which timed out or faulted: complete it if its
 * interrupt was lost, else reset the module and fail it; then pass the
 * module on. The interrupt is masked, so nobody else ends it meanwhile,
 * and run_job, on the same ordered workqueue, queues no job.
 */
static void fdif_job_recover(struct fdif_device *fdev, struct fdif_job *job)
{
	u32 events;
	int err;

	spin_lock_irq(&fdev->job_lock);
	events = fdev->faulted ? FDIF_EV_ERROR : 0;
	spin_unlock_irq(&fdev->job_lock);
	if (!events)
		events = fdif_omap4_take_pending(fdev);

	if (events == FDIF_EV_DONE) {
		atomic64_inc(&fdev->stats.missed_irqs);
		drm_warn(&fdev->drm, "job %llu: interrupt lost\n", job->seqno);
		fdif_job_done(fdev);
		return;
	}
	if (events & FDIF_EV_ERROR) {
		/* the module stopped in an unknown state: start over */
		atomic64_inc(&fdev->stats.errors);
		err = -EIO;
	} else if (drm_dev_is_unplugged(&fdev->drm)) {
		atomic64_inc(&fdev->stats.cancelled);
		err = -ENODEV;
	} else {
		atomic64_inc(&fdev->stats.timeouts);
		drm_err(&fdev->drm, "job %llu timed out: resetting the device\n",
			job->seqno);
		err = -ETIMEDOUT;
	}
	fdif_reset_from(fdev, job);
	/* after a reset that failed, the next job tries once more */
	fdif_job_end(fdev, job, err, 0, true);
}

/*
 * End @job if it is the active one, the interrupt masked, under reset_lock
 * (the unbind, fdif_job_abort_active(), takes it too: a job still active
 * means the module and its interrupt are still there).
 */
static void fdif_job_recover_if_active(struct fdif_device *fdev,
				       struct fdif_job *job)
{
	bool cookie, active;

	/* waits for a handler or thread that may be ending it */
	disable_irq(fdev->irq);
	/* reset, signal, start the next: no allocation */
	cookie = dma_fence_begin_signalling();
	spin_lock_irq(&fdev->job_lock);
	active = job && fdev->active == job;
	spin_unlock_irq(&fdev->job_lock);
	if (active)
		fdif_job_recover(fdev, job);
	dma_fence_end_signalling(cookie);
	enable_irq(fdev->irq);
}

/*
 * The fault work: an ERR interrupt marked the active job faulted. On the
 * scheduler's ordered workqueue, beside neither run_job nor the timeout
 * handler. Not drm_sched_fault(): it runs the timeout handler at once by
 * setting the timer to zero, and the timer is set to a whole timeout
 * again each time the scheduler hands a job over (drm_sched_job_begin()),
 * which, with a job queued behind another, can come first.
 */
static void fdif_fault_work(struct work_struct *work)
{
	struct fdif_device *fdev = container_of(work, struct fdif_device,
						fault_work);
	struct fdif_job *job;

	mutex_lock(&fdev->reset_lock);
	spin_lock_irq(&fdev->job_lock);
	job = fdev->faulted ? fdev->active : NULL;
	spin_unlock_irq(&fdev->job_lock);
	fdif_job_recover_if_active(fdev, job);
	mutex_unlock(&fdev->reset_lock);
}

/*
 * The timeout handler. The scheduler's run, free and timeout work, and
 * the fault work, share one ordered workqueue (fdif_sched_init()), so
 * while this runs the scheduler hands over no job and frees none.
 * drm_sched_job_timedout() has taken @sched_job, the oldest job not yet
 * freed, off the pending list. Either it is still on the module (it ran
 * a whole timeout): then it is ended here (completed, or the module reset
 * and the job failed) and the module passed on. Or it ended before this
 * ran (its interrupt came as its timer fired, or the unbind ended it).
 *
 * The scheduler is not stopped and started: drm_sched_stop() takes the
 * hardware fence from every job not yet ended, and drm_sched_start()
 * cancels (-ECANCELED) a job without one, so the next job, queued or
 * already on the module, would be cancelled while the module runs it, and
 * freed under it. @sched_job, off the pending list and signalled, is this
 * handler's to free instead (as drm_sched_stop()'s kernel-doc has a
 * caller do). The scheduler then times the next job.
 */
static enum drm_gpu_sched_stat
fdif_timedout_job(struct drm_sched_job *sched_job)
{
	struct fdif_job *job = to_fdif_job(sched_job);
	struct fdif_device *fdev = job->fdev;
	enum drm_gpu_sched_stat stat;

	mutex_lock(&fdev->reset_lock);
	fdif_job_recover_if_active(fdev, job);
	mutex_unlock(&fdev->reset_lock);
	stat = drm_dev_is_unplugged(&fdev->drm) ? DRM_GPU_SCHED_STAT_ENODEV :
						  DRM_GPU_SCHED_STAT_NOMINAL;
	/* its hardware fence's callback must have run: else leak, not free */
	if (!drm_WARN_ON(&fdev->drm, !dma_fence_is_signaled(job->hw_fence)))
		fdif_free_job(sched_job);
	return stat;
}

/*
 * The hardware fence of the job on the hardware, or NULL: none is left.
 * Under reset_lock, and once the interrupt thread is done, none is being
 * ended: a job queued behind the last one has been started (or failed)
 * by whoever ended that one.
 */
static struct dma_fence *fdif_active_fence(struct fdif_device *fdev)
{
	struct dma_fence *fence = NULL;

	mutex_lock(&fdev->reset_lock);
	synchronize_irq(fdev->irq);
	spin_lock_irq(&fdev->job_lock);
	if (fdev->active)
		fence = dma_fence_get(fdev->active->hw_fence);
	spin_unlock_irq(&fdev->job_lock);
	mutex_unlock(&fdev->reset_lock);
	return fence;
}

/**
 * fdif_sched_suspend() - park the queue for system sleep
 * @fdev: the device
 *
 * No job is started until fdif_sched_resume() but the one queued behind
 * the job on the hardware; both are waited for (they end, fail or time
 * out).
 *
 * Return: 0, or -EBUSY if one did not end within twice the job timeout.
 */
int fdif_sched_suspend(struct fdif_device *fdev)
{
	struct dma_fence *fence;
	long left;

	mutex_lock(&fdev->reset_lock);
	drm_sched_wqueue_stop(&fdev->sched);
	mutex_unlock(&fdev->reset_lock);

	/* not under reset_lock: the timeout handler may have to end them */
	while ((fence = fdif_active_fence(fdev))) {
		left = dma_fence_wait_timeout(fence, false,
					      2 * msecs_to_jiffies(fdif_timeout_ms));
		dma_fence_put(fence);
		if (left <= 0) {
			drm_warn(&fdev->drm, "job still running: suspend refused\n");
			fdif_sched_resume(fdev);
			return -EBUSY;
		}
	}
	return 0;
}

/**
 * fdif_sched_resume() - let the queue run again after system sleep
 * @fdev: the device
 */
void fdif_sched_resume(struct fdif_device *fdev)
{
	mutex_lock(&fdev->reset_lock);
	drm_sched_wqueue_start(&fdev->sched);
	mutex_unlock(&fdev->reset_lock);
}

static const struct drm_sched_backend_ops fdif_sched_ops = {
	.run_job = fdif_run_job,
	.timedout_job = fdif_timedout_job,
	.free_job = fdif_free_job,
};

static void fdif_sched_fini(struct drm_device *drm, void *arg)
{
	struct fdif_device *fdev = to_fdif_device(drm);
	struct drm_gpu_scheduler *sched = &fdev->sched;

	/*
	 * This runs when the last reference to the unplugged device goes:
	 * every job holds one (fdif_job_alloc()), so none is left here.
	 */
	drm_WARN_ON(drm, !list_empty(&sched->pending_list));
	drm_sched_fini(sched);
	destroy_workqueue(fdev->sched_wq);
	fdif_reset_fini(fdev);
}

/**
 * fdif_sched_init() - set up the hardware queue
 * @fdev: the device
 *
 * The scheduler lives as long as the drm_device, past an unbind, until the
 * last open file is closed: entities of open files still point at it. Its
 * submission and its timeout work, and the driver's fault work, share one
 * ordered workqueue, so that the timeout handler and the fault work never
 * run beside run_job or free_job: see fdif_timedout_job().
 *
 * Return: 0 or a negative errno.
 */
int fdif_sched_init(struct fdif_device *fdev)
{
	struct drm_sched_init_args args = {
		.ops = &fdif_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 2,	/* the active job and the one queued */
		.timeout = msecs_to_jiffies(fdif_timeout_ms),
		.name = dev_name(fdev->drm.dev),
		.dev = fdev->drm.dev,
	};
	int ret;

	fdev->sched_wq = alloc_ordered_workqueue("fdif-%s", WQ_MEM_RECLAIM,
						 dev_name(fdev->drm.dev));
	if (!fdev->sched_wq)
		return -ENOMEM;
	/* queued by the interrupt handler for an active job: none yet */
	INIT_WORK(&fdev->fault_work, fdif_fault_work);
	INIT_LIST_HEAD(&fdev->queued);
	args.submit_wq = fdev->sched_wq;
	args.timeout_wq = fdev->sched_wq;
	fdev->fence_context = dma_fence_context_alloc(1);
	ret = drm_sched_init(&fdev->sched, &args);
	if (ret) {
		destroy_workqueue(fdev->sched_wq);
		return ret;
	}
	return drmm_add_action_or_reset(&fdev->drm, fdif_sched_fini, NULL);
}

/**
 * fdif_job_abort_active() - end the jobs on the hardware, the device is going
 * @fdev: the device, already unplugged (no job will be started any more)
 */
void fdif_job_abort_active(struct fdif_device *fdev)
{
	struct fdif_job *job;
	bool cookie;

	/* after a timeout handler that saw the job, or before one that won't */
	mutex_lock(&fdev->reset_lock);
	disable_irq(fdev->irq);
	cookie = dma_fence_begin_signalling();
	spin_lock_irq(&fdev->job_lock);
	job = fdev->active;
	spin_unlock_irq(&fdev->job_lock);
	if (job) {
		fdif_reset_from(fdev, job);
		atomic64_inc(&fdev->stats.cancelled);
		/* and the jobs queued behind it fail (-ENODEV) in turn */
		fdif_job_end(fdev, job, -ENODEV, 0, false);
	}
	dma_fence_end_signalling(cookie);
	enable_irq(fdev->irq);
	mutex_unlock(&fdev->reset_lock);
	/* no job is active any more to queue it again: it masks the IRQ */
	cancel_work_sync(&fdev->fault_work);
}
