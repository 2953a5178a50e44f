// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-heap.h>
#include <linux/sync_file.h>

#include "fdif_test.h"

/* klogctl()'s actions (glibc's sys/klog.h does not name them) */
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

/* The emulated FDIF on -M virt: the platform bus's first device. */

int fdif_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

int fdif_dma_heap_alloc(const char *heap, size_t len)
{
	struct dma_heap_allocation_data a = {
		.len = len, .fd_flags = O_RDWR | O_CLOEXEC,
	};
	char path[300];
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/dma_heap/%s", heap);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = ioctl(fd, DMA_HEAP_IOCTL_ALLOC, &a) ? -errno : (int)a.fd;
	close(fd);
	return ret;
}

int fdif_import_foreign(int fd, int buf, uint32_t *handle)
{
	struct drm_prime_handle imp = { .fd = buf };
	int beyond = fdif_ram_beyond_reach(), ret;

	if (beyond < 0)
		return beyond;
	ret = fdif_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp);
	*handle = imp.handle;
	if (!beyond)
		return ret;
	if (!ret) {
		/* taken where it may be a bounced copy: not by this driver */
		fdif_gem_close(fd, imp.handle);
		*handle = 0;
		return -EEXIST;
	}
	return ret == -EINVAL && !imp.handle ? 1 : ret;
}

const char *fdif_import_error(int ret)
{
	return ret == -EEXIST ? "taken, with RAM beyond the device's reach" :
	       strerror(-ret);
}

/* The first dma-heap that is not the system heap: the CMA one, or -errno. */
int fdif_cma_heap_alloc(size_t len)
{
	char name[256] = "";
	struct dirent *de;
	DIR *d = opendir("/dev/dma_heap");

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "system"))
			continue;
		snprintf(name, sizeof(name), "%s", de->d_name);
		break;
	}
	closedir(d);
	return name[0] ? fdif_dma_heap_alloc(name, len) : -ENOENT;
}

/*
 * The fdif device the single-device tests use: the instance at FDIF_EMU_BASE,
 * whose test registers fdif_emu_*() drive, else the one at the lowest
 * address. Accel minors follow probe order, which nothing ties to the
 * devices' addresses, so /dev/accel/accel0 is not assumed to be it.
 */
int fdif_open(void)
{
	struct fdif_instance inst[FDIF_MAX_INSTANCES];
	int n = fdif_instances(inst, FDIF_MAX_INSTANCES), first = 0, i, fd;

	for (i = 0; i < n; i++)
		if (inst[i].base == FDIF_EMU_BASE)
			first = i;
	for (i = 0; i < n; i++) {
		fd = fdif_open_minor(inst[(first + i) % n].minor);
		if (fd >= 0)
			return fd;
	}
	return -ENODEV;
}

int fdif_query(int fd, uint32_t type, void *buf, uint32_t size)
{
	struct drm_fdif_query q = {
		.type = type,
		.size = size,
		.pointer = (uintptr_t)buf,
	};
	int ret = fdif_ioctl(fd, DRM_IOCTL_FDIF_QUERY, &q);

	if (ret)
		return ret;
	return q.size > INT32_MAX ? -EOVERFLOW : (int)q.size;
}

struct drm_fdif_query_list *fdif_query_list(int fd, uint32_t type, int *err)
{
	struct drm_fdif_query_list *l;
	int size = fdif_query(fd, type, NULL, 0), got;

	if (size < 0) {
		*err = size;
		return NULL;
	}
	if ((size_t)size < sizeof(*l)) {
		*err = -EPROTO;
		return NULL;
	}
	l = malloc(size);
	if (!l) {
		*err = -ENOMEM;
		return NULL;
	}
	got = fdif_query(fd, type, l, size);
	if (got != size) {
		*err = got < 0 ? got : -EPROTO;
		free(l);
		return NULL;
	}
	if ((uint64_t)l->count * l->entry_size + sizeof(*l) != (uint64_t)size) {
		*err = -EPROTO;
		free(l);
		return NULL;
	}
	*err = 0;
	return l;
}

int fdif_caps_get(int fd, struct fdif_caps *caps)
{
	struct drm_fdif_query_list *l;
	uint32_t i;
	int ret;

	memset(caps, 0, sizeof(*caps));
	ret = fdif_query(fd, DRM_FDIF_QUERY_DEVICE, &caps->dev, sizeof(caps->dev));
	if (ret < 0)
		return ret;
	ret = fdif_query(fd, DRM_FDIF_QUERY_RESULT_LAYOUT, &caps->layout,
			 sizeof(caps->layout));
	if (ret < 0)
		return ret;
	l = fdif_query_list(fd, DRM_FDIF_QUERY_FORMATS, &ret);
	if (!l)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < l->count; i++) {
		const struct drm_fdif_format_info *f = fdif_list_entry(l, i);

		if (f->fourcc == DRM_FORMAT_R8) {
			memcpy(&caps->format, f, l->entry_size < sizeof(*f) ?
			       l->entry_size : sizeof(*f));
			ret = 0;
			break;
		}
	}
	free(l);
	if (ret)
		return ret;
	l = fdif_query_list(fd, DRM_FDIF_QUERY_MIN_SIZES, &ret);
	if (!l)
		return ret;
	if (!l->count || l->entry_size < sizeof(caps->min_size))
		ret = -EPROTO;
	else
		memcpy(&caps->min_size, fdif_list_entry(l, 0), sizeof(caps->min_size));
	free(l);
	return ret;
}

int fdif_bo_create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_fdif_bo_create c = { .size = size };
	int ret = fdif_ioctl(fd, DRM_IOCTL_FDIF_BO_CREATE, &c);

	if (!ret)
		*handle = c.handle;
	return ret;
}

int fdif_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_fdif_bo_mmap_offset m = { .handle = handle };
	int ret = fdif_ioctl(fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m);

	if (!ret)
		*offset = m.offset;
	return ret;
}

int fdif_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return fdif_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

int fdif_bo_new(int fd, size_t size, struct fdif_bo *bo)
{
	uint64_t offset;
	int ret;

	memset(bo, 0, sizeof(*bo));
	ret = fdif_bo_create(fd, size, &bo->handle);
	if (ret)
		return ret;
	bo->size = size;
	ret = fdif_bo_mmap_offset(fd, bo->handle, &offset);
	if (!ret) {
		bo->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
		if (bo->map == MAP_FAILED) {
			ret = -errno;
			bo->map = NULL;
		}
	}
	if (ret)
		fdif_gem_close(fd, bo->handle);
	return ret;
}

void fdif_bo_free(int fd, struct fdif_bo *bo)
{
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		fdif_gem_close(fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
}

int fdif_bo_wait(int fd, uint32_t handle, int64_t deadline_ns)
{
	struct drm_fdif_bo_wait w = { .handle = handle, .timeout_ns = deadline_ns };

	return fdif_ioctl(fd, DRM_IOCTL_FDIF_BO_WAIT, &w);
}

int fdif_bo_wait_for(int fd, uint32_t handle, int64_t timeout_ns)
{
	int64_t now = fdif_now_ns();

	return fdif_bo_wait(fd, handle, timeout_ns > INT64_MAX - now ? INT64_MAX :
				       now + timeout_ns);
}

int fdif_job_bos_new(int fd, struct fdif_job_bos *j)
{
	int ret;

	memset(j, 0, sizeof(*j));
	ret = fdif_caps_get(fd, &j->caps);
	if (!ret)
		ret = fdif_bo_new(fd, FDIF_PIC_SIZE, &j->pic);
	if (!ret && j->caps.dev.work_size)	/* 0: the device needs none */
		ret = fdif_bo_new(fd, j->caps.dev.work_size, &j->work);
	if (!ret)
		ret = fdif_bo_new(fd, j->caps.layout.size, &j->result);
	if (ret)
		fdif_job_bos_free(fd, j);
	return ret;
}

void fdif_job_bos_free(int fd, struct fdif_job_bos *j)
{
	fdif_bo_free(fd, &j->pic);
	fdif_bo_free(fd, &j->work);
	fdif_bo_free(fd, &j->result);
}

void fdif_job_init(struct drm_fdif_job *job, const struct fdif_job_bos *j)
{
	memset(job, 0, sizeof(*job));
	job->picture.fourcc = DRM_FORMAT_R8;
	job->picture.width = FDIF_W;
	job->picture.height = FDIF_H;
	job->picture.planes[0].handle = j->pic.handle;
	job->picture.planes[0].offset = 0;
	job->picture.planes[0].stride = FDIF_W;
	job->work_handle = j->work.handle;
	job->result_handle = j->result.handle;
	job->result_size = j->caps.layout.size;
	job->classes = 1u << DRM_FDIF_CLASS_FACE;
	job->directions = 1u << DRM_FDIF_DIR_UP;
	job->min_width = j->caps.min_size.width;
	job->min_height = j->caps.min_size.height;
	job->threshold = j->caps.dev.default_threshold;
	job->fence_fd = -1;
}

int fdif_submit_jobs(int fd, struct drm_fdif_job *jobs, uint32_t count)
{
	struct drm_fdif_submit s = {
		.jobs = (uintptr_t)jobs,
		.job_count = count,
		.job_size = sizeof(*jobs),
	};

	return fdif_ioctl(fd, DRM_IOCTL_FDIF_SUBMIT, &s);
}

int fdif_submit_one(int fd, struct drm_fdif_job *job)
{
	return fdif_submit_jobs(fd, job, 1);
}

int fdif_load_picture(const char *name, void *dst)
{
	static const char hdr[] = "P5\n320 240\n255\n";
	char path[256], buf[sizeof(hdr) - 1];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s.pgm", FDIF_DATA_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	if (fread(buf, 1, sizeof(buf), f) != sizeof(buf) ||
	    memcmp(buf, hdr, sizeof(buf)) ||
	    fread(dst, 1, FDIF_PIC_SIZE, f) != FDIF_PIC_SIZE)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

bool fdif_object_on(const struct drm_fdif_object *o, const struct fdif_box *b)
{
	return fdif_box_holds(b, fdif_object_cx(o), fdif_object_cy(o),
			      sqrt((double)o->width * o->height));
}

/* The fields every object of the OMAP4 FDIF holds. */
#define FDIF_OBJECT_FIELDS (DRM_FDIF_OBJECT_BOX | DRM_FDIF_OBJECT_ANGLE |	\
			    DRM_FDIF_OBJECT_DIRECTION | DRM_FDIF_OBJECT_CONFIDENCE | \
			    DRM_FDIF_OBJECT_RAW_CONFIDENCE)

/*
 * A finished job's result against the marked faces: status 0, a header of
 * this layout version, every object on a different marked face, a face
 * with a square box and the fields the OMAP4 fills in, sorted by
 * confidence (best first; ties by the box center's row, then column), its
 * confidence the normalised raw value. Return: 0, or -1 with the reason in
 * @why.
 */
int fdif_result_check(const struct drm_fdif_result_header *r, const struct fdif_box *truth,
		      int marked, char *why, size_t len)
{
	bool used[128] = { false };
	uint32_t i;
	int j;

	if (r->status) {
		snprintf(why, len, "status %d", r->status);
		return -1;
	}
	if (r->version != DRM_FDIF_RESULT_VERSION ||
	    r->header_size < sizeof(*r) ||
	    r->object_size < sizeof(struct drm_fdif_object)) {
		snprintf(why, len, "header: version %u, header_size %u, object_size %u",
			 r->version, r->header_size, r->object_size);
		return -1;
	}
	if (r->count > r->capacity || marked > 128) {
		snprintf(why, len, "count %u, capacity %u", r->count, r->capacity);
		return -1;
	}
	for (i = 0; i < r->count; i++) {
		const struct drm_fdif_object *o = fdif_result_object(r, i);

		if ((o->fields & FDIF_OBJECT_FIELDS) != FDIF_OBJECT_FIELDS ||
		    o->width != o->height || !o->width || o->angle >= 360 ||
		    o->direction > DRM_FDIF_DIR_LEFT) {
			snprintf(why, len, "object %u: fields 0x%x, box %ux%u, angle %u, direction %u",
				 i, o->fields, o->width, o->height, o->angle, o->direction);
			return -1;
		}
		for (j = 0; j < marked && (used[j] || !fdif_object_on(o, &truth[j])); j++)
			;
		if (j == marked) {
			snprintf(why, len, "object %u at %d,%d size %ux%u is on no marked face",
				 i, o->x, o->y, o->width, o->height);
			return -1;
		}
		used[j] = true;
		if (o->object_class != DRM_FDIF_CLASS_FACE || o->raw_confidence > 9 ||
		    o->confidence != (9 - o->raw_confidence) * DRM_FDIF_CONFIDENCE_MAX / 9) {
			snprintf(why, len, "object %u: class %u, confidence %u raw %u", i,
				 o->object_class, o->confidence, o->raw_confidence);
			return -1;
		}
		if (i) {
			const struct drm_fdif_object *p = fdif_result_object(r, i - 1);

			if (p->confidence < o->confidence ||
			    (p->confidence == o->confidence &&
			     (fdif_object_cy(p) > fdif_object_cy(o) ||
			      (fdif_object_cy(p) == fdif_object_cy(o) &&
			       fdif_object_cx(p) > fdif_object_cx(o))))) {
				snprintf(why, len, "object %u is out of order", i);
				return -1;
			}
		}
	}
	return 0;
}

/* A region of interest of 80x80 (or more) around marked face @b. */
struct drm_fdif_roi fdif_roi_around(const struct fdif_box *b)
{
	double cx = b->x + b->w / 2, cy = b->y + b->h / 2;
	uint32_t side = b->w > 60 || b->h > 60 ? 2 * (uint32_t)(b->w > b->h ? b->w : b->h) : 80;
	struct drm_fdif_roi roi;

	if (side > FDIF_H)
		side = FDIF_H;
	roi.width = roi.height = side;
	roi.x = cx < side / 2.0 ? 0 : (uint32_t)(cx - side / 2.0);
	roi.y = cy < side / 2.0 ? 0 : (uint32_t)(cy - side / 2.0);
	if (roi.x > 160)
		roi.x = 160;
	if (roi.y > 120)
		roi.y = 120;
	if (roi.x + roi.width > FDIF_W)
		roi.x = FDIF_W - roi.width;
	if (roi.y + roi.height > FDIF_H)
		roi.y = FDIF_H - roi.height;
	return roi;
}

int fdif_syncobj_create(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_syncobj_create c = { .flags = flags };
	int ret = fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	if (!ret)
		*handle = c.handle;
	return ret;
}

int fdif_syncobj_wait(int fd, uint32_t handle, uint64_t point, int64_t timeout_ns)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&handle,
		.points = (uintptr_t)&point,
		.count_handles = 1,
		.timeout_nsec = fdif_now_ns() + timeout_ns,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

int fdif_syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy d = { .handle = handle };

	return fdif_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

int64_t fdif_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Several FDIF instances. Each /dev/accel/accelN whose DRM driver is
 * "fdif" is one; sysfs names its platform device (of_device_make_bus_id():
 * "<register address in hex>.fdif"), which tells the instances apart and
 * says where its registers, and the emulated device's test registers, are.
 */

int fdif_open_minor(int minor)
{
	char path[64], name[32] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	int fd;

	snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!fdif_ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "fdif"))
		return fd;
	close(fd);
	return -ENODEV;
}

int fdif_instances(struct fdif_instance *inst, int max)
{
	struct dirent *de;
	int n = 0, m, len, fd, i;
	DIR *dir = opendir("/dev/accel");

	if (!dir)
		return -ENODEV;
	while ((de = readdir(dir)) && n < max) {
		struct fdif_instance in = { .base = UINT64_MAX };

		len = 0;
		if (sscanf(de->d_name, "accel%d%n", &m, &len) != 1 || m < 0 ||
		    de->d_name[len])
			continue;
		fd = fdif_open_minor(m);
		if (fd < 0)
			continue;
		close(fd);
		in.minor = m;
		if (!fdif_minor_devname(m, in.name, sizeof(in.name)))
			fdif_devname_base(in.name, &in.base);
		/* insertion sort: by address, then minor */
		for (i = n; i > 0 && (inst[i - 1].base > in.base ||
				      (inst[i - 1].base == in.base &&
				       inst[i - 1].minor > in.minor)); i--)
			inst[i] = inst[i - 1];
		inst[i] = in;
		n++;
	}
	closedir(dir);
	return n;
}

long long fdif_stat(const char *devname, const char *key)
{
	char path[300], line[128];
	size_t klen = strlen(key);
	long long v = -1;
	int minor;
	FILE *f;

	/* 6.12 names the directory after the device (drm_device.unique) */
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/stats", devname);
	f = fopen(path, "r");
	if (!f) {
		minor = fdif_devname_minor(devname);
		if (minor < 0)
			return -1;
		snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%d/stats", minor);
		f = fopen(path, "r");
		if (!f)
			return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = atoll(line + klen + 1);
	fclose(f);
	return v;
}

int fdif_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* not the directory's own */
}

int fdif_fence_info(int fence_fd, int64_t *timestamp_ns)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info file = { .num_fences = 1,
				       .sync_fence_info = (uintptr_t)&info };

	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &file))
		return -errno;
	if (timestamp_ns)
		*timestamp_ns = (int64_t)info.timestamp_ns;
	return file.status;
}

bool fdif_fence_pending(int fence_fd)
{
	struct pollfd p = { .fd = fence_fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

int fdif_fence_wait(int fence_fd, int ms, int64_t *timestamp_ns)
{
	struct pollfd p = { .fd = fence_fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return -ETIME;
	return fdif_fence_info(fence_fd, timestamp_ns);
}

int sysfs_write(const char *path, const char *value)
{
	size_t len = strlen(value), done = 0;
	/* as the shell's '>': tracefs's filters take O_TRUNC to be replaced */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	/*
	 * All of it: tracefs takes one word a write (set_ftrace_filter with
	 * two globs is a short write), and the rest would be lost unseen.
	 */
	while (done < len) {
		n = write(fd, value + done, len - done);
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	close(fd);
	return ret;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

void fdif_rpm_status(int minor, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/power/runtime_status",
		 minor);
	if (sysfs_read(path, buf, len))
		snprintf(buf, len, "(unreadable)");
}

bool fdif_wait_rpm(int minor, const char *want, int ms)
{
	char st[32];
	int64_t end = fdif_now_ns() + (int64_t)ms * 1000000;

	for (;;) {
		fdif_rpm_status(minor, st, sizeof(st));
		if (!strcmp(st, want))
			return true;
		if (fdif_now_ns() > end)
			return false;
		usleep(10000);
	}
}

/* The kernel log after the last line holding @marker (malloc()ed), or NULL. */
char *fdif_log_since(const char *marker)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), n;
	char *buf, *p, *last = NULL, *out;

	if (size <= 0)
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	for (p = buf; (p = strstr(p, marker)); p++)
		last = p;
	out = last ? strdup(last) : NULL;
	free(buf);
	return out;
}
