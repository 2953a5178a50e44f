// SPDX-License-Identifier: MIT
/*
 * Not a test: a demonstration of a bug in the DRM scheduler's core code on
 * this kernel (6.12), for the cover letter (scripts/kasan-fence-demo.sh
 * runs it on the debug kernel, KASAN on, and keeps the report).
 *
 * A scheduler fence names its timeline through its scheduler
 * (drm_sched_fence_get_timeline_name() reads fence->sched->name), and
 * nothing holds the scheduler for the fence. A job that runs is covered:
 * its hardware fence, the scheduler fences' parent, holds the drm_device,
 * in which the scheduler lives (fdif_hw_fence_alloc()). A job killed
 * before it ran has no parent. So: a job waits on a fence no driver
 * signals (a sw_sync point), its finished fence exported from an
 * out-syncobj as a sync_file (DRM_FDIF_JOB_FENCE_FD_OUT's sync_file holds
 * a fence of the driver's that holds the device: fdif_out_fence.c); its
 * process exits, the device is unbound; the sw_sync point signals, the
 * scheduler ends the job (-ESRCH) and frees it, and the last reference to
 * the drm_device, and so the scheduler, goes with it. SYNC_IOC_FILE_INFO
 * on the sync_file then reads the freed scheduler: a KASAN
 * slab-use-after-free in drm_sched_fence_get_timeline_name(). A driver
 * cannot prevent it: it is not told when a scheduler fence is released.
 * (Since 6.17 sync_file asks through dma_fence_timeline_name(), which
 * does not call a signalled fence's ops.)
 *
 * Exit: 0 once the ioctl returned (whatever KASAN said), 1 if a step of
 * the set-up failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "fdif_stress.h"

static int fail(const char *what, int err)
{
	fprintf(stderr, "fdif_fence_uaf: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

/*
 * In a child: a job on a new file that waits on @in_fence and signals a
 * syncobj, whose fence (the job's finished fence itself) goes back over
 * @sock as a sync_file; then the child exits with the job queued (a
 * process that closes its file without exiting would wait for the queue
 * for ever: drm_sched_entity_flush()).
 */
static int child_submit(int sock, int in_fence)
{
	struct drm_syncobj_handle h = {
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
	};
	struct drm_fdif_sync in = { 0 }, out = { 0 };
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int fd = fdif_open(), ret;

	if (fd < 0 || fdif_job_bos_new(fd, &j))
		return fail("open the device and make BOs", fd < 0 ? fd : EIO);
	in.handle = syncobj_from_sync_file(fd, in_fence);
	if (!in.handle || fdif_syncobj_create(fd, 0, &out.handle))
		return fail("syncobjs", EINVAL);
	fdif_job_init(&job, &j);
	job.in_sync_count = 1;
	job.in_syncs = (uintptr_t)&in;
	job.out_sync_count = 1;
	job.out_syncs = (uintptr_t)&out;
	ret = fdif_submit_one(fd, &job);
	if (ret)
		return fail("submit", ret);
	h.handle = out.handle;
	ret = fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h);
	if (ret)
		return fail("export the syncobj's fence", ret);
	ret = fd_send(sock, h.fd);
	return ret ? fail("send the sync_file", ret) : 0;
}

int main(void)
{
	struct sw_sync_create_fence_data d = { .value = 1, .name = "fdif-demo" };
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1 };
	int tl, sv[2], fence_fd, status, ret, i;
	pid_t pid;

	tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);
	if (tl < 0)
		return fail(SW_SYNC_PATH, errno);
	if (ioctl(tl, SW_SYNC_IOC_CREATE_FENCE, &d))
		return fail("SW_SYNC_IOC_CREATE_FENCE", errno);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return fail("socketpair", errno);
	pid = fork();
	if (pid < 0)
		return fail("fork", errno);
	if (!pid)
		_exit(child_submit(sv[1], d.fence));
	close(d.fence);
	fence_fd = fd_receive(sv[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("the child's submit", EIO);
	if (fence_fd < 0)
		return fail("receive the sync_file", EIO);
	/* the job waits on the sw_sync point, its file is gone; now its device */
	ret = sysfs_write(DRV_DIR "/unbind", DEV_NAME);
	if (ret)
		return fail("unbind", ret);
	if (!wait_node(0))
		return fail("the device node after the unbind", ENODEV);
	printf("fdif_fence_uaf: job queued, its file closed, the device unbound\n");
	/* the job ends (-ESRCH) and is freed, and the drm_device with it */
	ret = sw_sync_signal(tl);
	if (ret)
		return fail("signal the sw_sync point", ret);
	for (i = 0; i < 500 && module_refs() > 0; i++)
		usleep(10000);
	printf("fdif_fence_uaf: module references after the job's end: %lld\n",
	       module_refs());
	/* the fence's timeline name, from its freed scheduler */
	file.sync_fence_info = (uintptr_t)&info;
	ret = ioctl(fence_fd, SYNC_IOC_FILE_INFO, &file);
	printf("fdif_fence_uaf: SYNC_IOC_FILE_INFO: %d, status %d, timeline '%.32s'\n",
	       ret ? -errno : 0, info.status, info.obj_name);
	close(fence_fd);
	close(tl);
	return 0;
}
