// SPDX-License-Identifier: MIT
/*
 * Helpers of the reliability suite (fdif_stress_*.c, fdif_stress.h): the
 * driver's counters, fences, sysfs, the module loaded and unloaded, the
 * test module fdif_delay's knobs and sw_sync points.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "fdif_stress.h"

/*
 * An ROI around the astronaut's marked face (/data/astronaut.truth): the
 * detector's work is small. Set by fdif_stress_init() before the tests run.
 */
struct drm_fdif_roi face_roi;
struct fdif_box face_truth;

void fdif_stress_init(void)
{
	/* without the marked face every check against it fails */
	if (fdif_load_truth("astronaut", &face_truth, 1) == 1)
		face_roi = fdif_roi_around(&face_truth);
}

/*
 * Counter @key of DEV_NAME's debugfs stats: the instance fdif_open() and
 * the fault injection use (the guest has a second FDIF, which these tests
 * leave alone).
 */
long long stat_value(const char *key)
{
	return fdif_stat(DEV_NAME, key);
}

/* submitted == completed + errors + timeouts + cancelled, within @ms */
int all_accounted(int ms)
{
	long long s, done;

	do {
		s = stat_value("submitted");
		done = stat_value("completed") + stat_value("errors") +
		       stat_value("timeouts") + stat_value("cancelled");
		if (s == done)
			return 1;
		usleep(10000);
		ms -= 10;
	} while (ms > 0);
	return 0;
}

int bos_back_to(long long base, int ms)
{
	while (stat_value("bos") != base && ms > 0) {
		usleep(10000);
		ms -= 10;
	}
	return stat_value("bos") == base;
}

/*
 * Wait up to @ns for the sync_file @fd: its status (1 signalled, or the
 * error), or -ETIME; *@ts (if not NULL) gets when it signalled, in
 * CLOCK_MONOTONIC ns.
 */
int fence_wait_ts(int fd, int64_t ns, uint64_t *ts)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };

	if (poll(&p, 1, (int)(ns / 1000000)) != 1)
		return -ETIME;
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	if (ts)
		*ts = info.timestamp_ns;
	return file.status;
}

int fence_wait(int fd, int64_t ns)
{
	return fence_wait_ts(fd, ns, NULL);
}

int run_one(int fd, struct drm_fdif_job *job, struct fdif_job_bos *j, int *count)
{
	int st, ret = fdif_submit_one(fd, job);

	*count = 0;
	if (ret)
		return ret;
	st = fence_wait(job->fence_fd, WAIT_NS);
	close(job->fence_fd);
	*count = fdif_result(&j->result)->count;
	return st;
}

/* DEV_NAME bound with its accel node (@present), or unbound and gone. */
int wait_node(int present)
{
	char path[32];
	int i, minor;

	for (i = 0; i < 200; i++) {
		minor = fdif_devname_minor(DEV_NAME);
		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		if ((minor >= 0 && access(path, F_OK) == 0) == present)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* The fdif module's reference count, or -1. */
long long module_refs(void)
{
	FILE *f = fopen(FDIF_REFCNT, "re");
	long long n = -1;

	if (f) {
		if (fscanf(f, "%lld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/*
 * rmmod fdif, once the last jobs are gone: a job holds the module until
 * it has been freed, a little after its fence signalled (and its file
 * was closed), so right after a job rmmod may still find it in use.
 */
int unload_driver(void)
{
	int i;

	for (i = 0; i < 500 && module_refs() > 0; i++)
		usleep(10000);
	return system("rmmod fdif");
}

/* The driver unloaded and loaded again with @timeout_ms, its node back: 0 or -1. */
int reload_driver(unsigned int timeout_ms)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "modprobe fdif timeout_ms=%u", timeout_ms);
	if (unload_driver() || system(cmd))
		return -1;
	return wait_node(1) ? 0 : -1;
}

int knob_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? -err : -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

long long knob_value(const char *path)
{
	char buf[32];

	return knob_read(path, buf, sizeof(buf)) ? -1 : atoll(buf);
}

/* fdif_delay's log of stalls ("start end" in ns a line); how many, or -1 */
int read_stalls(uint64_t start[MAX_STALLS], uint64_t end[MAX_STALLS])
{
	FILE *f = fopen(DELAY_PARAMS "stalls", "r");
	unsigned long long s0, e0;
	int n = 0;

	if (!f)
		return -1;
	while (n < MAX_STALLS && fscanf(f, "%llu %llu", &s0, &e0) == 2) {
		start[n] = s0;
		end[n++] = e0;
	}
	fclose(f);
	return n;
}

int sw_sync_signal(int tl)
{
	__u32 one = 1;

	return ioctl(tl, SW_SYNC_IOC_INC, &one) ? -errno : 0;
}

/* A new syncobj of @fd holding the sync_file @fence: its handle, or 0. */
uint32_t syncobj_from_sync_file(int fd, int fence)
{
	struct drm_syncobj_handle h = {
		.fd = fence,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
	};

	if (fdif_syncobj_create(fd, 0, &h.handle) ||
	    fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h))
		return 0;
	return h.handle;
}

int fd_send(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

int fd_receive(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -EIO;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
		return -EIO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}
