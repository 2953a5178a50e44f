// SPDX-License-Identifier: GPL-2.0-only
/*
 * fdif_delay: a test-only module that stalls the entry of one kernel
 * function, to hold a race window open that is otherwise a few
 * microseconds wide.
 *
 *   insmod fdif_delay.ko func=fdif_timedout_job owner=fdif delay_us=100000
 *
 * An ftrace callback at the function's entry busy-waits (ftrace callbacks
 * may not sleep). Interrupts stay enabled and the other CPUs go on, so an
 * interrupt and the work it queues run while the stalled function has not
 * yet looked at anything. Read-only parameters report what happened:
 * hits (calls stalled) and stalls (the first FDIF_DELAY_LOG stalls, one
 * "start end" line each, in ktime_get_ns() nanoseconds: the clock of
 * dma-fence timestamps). When the module @owner goes, the stall ends with
 * it: its text may be reused. Needs CONFIG_DYNAMIC_FTRACE; never for
 * production kernels.
 *
 * Copyright (c) 2026 The fdif developers
 */

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#define FDIF_DELAY_MAX_US	(2 * USEC_PER_SEC)
#define FDIF_DELAY_LOG		64

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function whose entry is stalled (required, no wildcards)");

static char *owner;
module_param(owner, charp, 0444);
MODULE_PARM_DESC(owner, "the module that holds func, if any: its removal ends the stall");

static unsigned int delay_us;
module_param(delay_us, uint, 0444);
MODULE_PARM_DESC(delay_us, "how long each call is stalled, 1..2000000 us");

static atomic_t hits = ATOMIC_INIT(0);
static struct {
	u64 start, end;
} stalls[FDIF_DELAY_LOG];

static DEFINE_MUTEX(fdif_delay_lock);	/* whether the ops is registered */
static bool fdif_delay_armed;

static int read_only_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops hits_ops = {
	.set = read_only_set,
	.get = hits_get,
};

module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "calls stalled so far (read-only)");

static int stalls_get(char *buf, const struct kernel_param *kp)
{
	int i, n = min(atomic_read(&hits), FDIF_DELAY_LOG), len = 0;

	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, "%llu %llu\n", READ_ONCE(stalls[i].start),
				     READ_ONCE(stalls[i].end));
	return len;
}

static const struct kernel_param_ops stalls_ops = {
	.set = read_only_set,
	.get = stalls_get,
};

module_param_cb(stalls, &stalls_ops, NULL, 0444);
MODULE_PARM_DESC(stalls, "the first 64 stalls, start and end in ns (read-only)");

static void fdif_delay_entry(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int n = atomic_inc_return(&hits) - 1;
	u64 start = ktime_get_ns();

	mdelay(delay_us / USEC_PER_MSEC);
	udelay(delay_us % USEC_PER_MSEC);
	if (n < FDIF_DELAY_LOG) {
		WRITE_ONCE(stalls[n].start, start);
		WRITE_ONCE(stalls[n].end, ktime_get_ns());
	}
}

static struct ftrace_ops fdif_delay_ops = {
	.func = fdif_delay_entry,
	/*
	 * No ftrace recursion guard needed (nor its preempt_disable()):
	 * the callback calls nothing this ops traces.
	 */
	.flags = FTRACE_OPS_FL_RECURSION,
};

static void fdif_delay_disarm(void)
{
	mutex_lock(&fdif_delay_lock);
	if (fdif_delay_armed) {
		/* returns once no CPU is in the callback any more */
		unregister_ftrace_function(&fdif_delay_ops);
		ftrace_free_filter(&fdif_delay_ops);
		fdif_delay_armed = false;
	}
	mutex_unlock(&fdif_delay_lock);
}

/*
 * The filter holds the function's address: once its module is gone,
 * ftrace would patch whatever code is loaded there next.
 */
static int fdif_delay_module_event(struct notifier_block *nb,
				   unsigned long action, void *data)
{
	struct module *mod = data;

	if (action != MODULE_STATE_GOING || !owner || strcmp(mod->name, owner))
		return NOTIFY_DONE;
	fdif_delay_disarm();
	pr_info("fdif_delay: %s unloaded, %s no longer stalled\n", owner, func);
	return NOTIFY_OK;
}

static struct notifier_block fdif_delay_nb = {
	.notifier_call = fdif_delay_module_event,
};

static int __init fdif_delay_init(void)
{
	int ret;

	if (!func || !*func || strpbrk(func, "*?[]!") || !delay_us ||
	    delay_us > FDIF_DELAY_MAX_US) {
		pr_err("fdif_delay: needs func=NAME (no wildcards) and delay_us=1..%ld\n",
		       FDIF_DELAY_MAX_US);
		return -EINVAL;
	}
	ret = register_module_notifier(&fdif_delay_nb);
	if (ret)
		return ret;
	/* -EINVAL when no traceable function has that name */
	ret = ftrace_set_filter(&fdif_delay_ops, (unsigned char *)func,
				strlen(func), 1);
	if (ret) {
		pr_err("fdif_delay: cannot trace %s: %d\n", func, ret);
		goto err_notifier;
	}
	ret = register_ftrace_function(&fdif_delay_ops);
	if (ret) {
		ftrace_free_filter(&fdif_delay_ops);
		goto err_notifier;
	}
	fdif_delay_armed = true;
	pr_info("fdif_delay: %s stalls %u us per call\n", func, delay_us);
	return 0;

err_notifier:
	unregister_module_notifier(&fdif_delay_nb);
	return ret;
}

static void __exit fdif_delay_exit(void)
{
	unregister_module_notifier(&fdif_delay_nb);
	fdif_delay_disarm();
}

module_init(fdif_delay_init);
module_exit(fdif_delay_exit);
MODULE_DESCRIPTION("Test only: stall a kernel function's entry to open a race window");
MODULE_LICENSE("GPL");
