// SPDX-License-Identifier: MIT
/*
 * Devices, buffer objects and jobs over libdrm and the fdif uAPI: what
 * the DRM core does (the driver's name, PRIME, syncobjs, GEM_CLOSE) goes
 * through libdrm's own helpers; raw ioctls (drmIoctl()) are only the
 * fdif uAPI's own.
 *
 * What the device takes is asked once, at open, with DRM_IOCTL_FDIF_QUERY
 * and kept in the device (struct fdif_caps, every format's limits, each
 * class's directions, the job limits): requests are checked against it
 * and jobs built from it, nothing assumed of a generation, and results
 * are read by the sizes the kernel reports, so that a kernel whose
 * answers or results have grown at the end keeps working.
 *
 * Threads: every call may come from any thread, on one device at once.
 * What the threads share is the device's: its BO pool and the lazily made
 * CPU mappings, under the device's lock (dev->lock, never held across a
 * wait). A job's own fields are written before fdif_submit_requests()
 * returns it and only read after, so any thread may wait for it and read
 * its result; only freeing it must come after every other call on it.
 *
 * Lifetimes: the device is counted (dev->refs): the application's
 * reference, dropped by fdif_close(), and one for each BO and job made on
 * it. The DRM file stays open until the last of them is freed, so BOs and
 * jobs may outlive fdif_close() and be freed (or mapped, waited for, read)
 * after it.
 *
 * BOs are counted too (bo->refs) and kept in the device's handle table
 * (dev->bos, as libdrm_etnaviv does): PRIME gives the handle a dma-buf
 * already has on this file, so an import of it returns that BO with one
 * more reference instead of a second owner of the handle, which would
 * close it under the first. The lock is held from the import's
 * drmPrimeFDToHandle() to the table, and from a BO's removal from the
 * table to its GEM_CLOSE, so no import can find a handle being closed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>

#include "fdif_accel.h"
#include "fdif/fdif.h"
#include "fdif-private.h"

struct fdif_bo {
	struct fdif_device *dev;
	uint32_t handle;
	size_t size;
	void *map;
	int dmabuf_fd;		/* imported: our duplicate, mapped; else -1 */
	unsigned int refs;	/* under dev->lock */
	struct fdif_bo *prev, *next;	/* dev->bos, under dev->lock */
};

struct fdif_job {
	struct fdif_device *dev;
	struct fdif_bo *work, *result;	/* from the device's pool */
	uint32_t syncobj;
	int fence_fd;
	uint64_t seqno;		/* 0 until submitted */
	uint32_t directions;	/* the scans it does, a mask */
};

/* Work and result BOs are recycled: a job needs a pair, most apps loop. */
#define POOL_MAX 8

#define MAX_CLASSES 32

struct fdif_device {
	int fd;
	char *path;			/* the node it was opened by */
	/* written at open, read-only after */
	struct fdif_caps caps;
	struct drm_fdif_format_info *formats;	/* every format, as answered */
	struct fdif_size *min_sizes;	/* caps.num_min_sizes */
	uint32_t class_dirs[MAX_CLASSES];	/* directions each class scans */
	uint32_t work_size, work_align, result_size;
	uint32_t grey_max_width, grey_max_height;
	atomic_uint refs;		/* the app's, one a BO, one a job */
	pthread_mutex_t lock;		/* the pool, closed, the BO table,
					 * every BO's map and refs */
	struct fdif_bo *bos;		/* every BO, by GEM handle */
	struct fdif_bo *pool[POOL_MAX][2];
	unsigned int npool;
	struct fdif_bo *frame;		/* fdif_detect_start()'s, when idle */
	int closed;			/* fdif_close()d: nothing more to the pool */
};

/* The end of a structure's first version: what every kernel answers. */
#define V1_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static int xioctl(int fd, unsigned long req, void *arg)
{
	return drmIoctl(fd, req, arg) ? -errno : 0;
}

/* libdrm's helpers that return drmIoctl()'s -1 and errno, as -errno */
static int drm_err(int ret)
{
	return ret ? -errno : 0;
}

static int check_driver(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	int ok;

	if (!v)
		return -ENODEV;
	ok = v->name && !strcmp(v->name, "fdif");
	drmFreeVersion(v);
	return ok ? 0 : -ENODEV;
}

/*
 * One query. A kernel without it (another uAPI: an unknown ioctl or
 * type) is -EPROTO to the caller.
 */
static int query(int fd, uint32_t type, void *buf, uint32_t *size)
{
	struct drm_fdif_query q = {
		.type = type,
		.size = buf ? *size : 0,
		.pointer = (uintptr_t)buf,
	};
	int ret = xioctl(fd, DRM_IOCTL_FDIF_QUERY, &q);

	if (ret == -EINVAL || ret == -ENOTTY)
		return -EPROTO;
	if (!ret)
		*size = q.size;
	return ret;
}

/* A structure answer: fields this kernel does not know read as zero. */
static int query_struct(int fd, uint32_t type, void *buf, uint32_t size,
			uint32_t v1_size)
{
	uint32_t got = size;
	int ret;

	memset(buf, 0, size);
	ret = query(fd, type, buf, &got);
	if (ret)
		return ret;
	return got < v1_size ? -EPROTO : 0;
}

/*
 * A list answer, malloc()ed: *@list, then its entries, each at least
 * @v1_entry bytes and list->entry_size apart.
 */
static int query_list(int fd, uint32_t type, uint32_t v1_entry,
		      struct drm_fdif_query_list **list)
{
	struct drm_fdif_query_list *l;
	uint32_t size = 0, got;
	int ret;

	*list = NULL;
	ret = query(fd, type, NULL, &size);
	if (ret)
		return ret;
	if (size < sizeof(*l))
		return -EPROTO;
	l = calloc(1, size);
	if (!l)
		return -ENOMEM;
	got = size;
	ret = query(fd, type, l, &got);
	if (!ret && (got != size || (l->count && l->entry_size < v1_entry) ||
		     (l->count && l->count > (size - sizeof(*l)) / l->entry_size)))
		ret = -EPROTO;
	if (ret) {
		free(l);
		return ret;
	}
	*list = l;
	return 0;
}

/* Entry @i of @l, copied into the zeroed @entry of @size bytes. */
static void list_entry(const struct drm_fdif_query_list *l, uint32_t i,
		       void *entry, size_t size)
{
	memset(entry, 0, size);
	memcpy(entry, (const char *)(l + 1) + (size_t)i * l->entry_size,
	       MIN(size, l->entry_size));
}

static uint32_t round_down(uint32_t v, uint32_t align)
{
	return align > 1 ? v - v % align : v;
}

static uint32_t round_up(uint32_t v, uint32_t align)
{
	return align > 1 ? round_down(v + align - 1, align) : v;
}

/*
 * Every format the device takes (dev->formats); the frame fdif_detect_start()
 * uses is the largest 8-bit grey picture, if any.
 */
static int caps_formats(int fd, struct fdif_device *dev)
{
	struct fdif_caps *c = &dev->caps;
	struct drm_fdif_query_list *l;
	struct drm_fdif_format_info *f, grey = { 0 };
	uint32_t i;
	int ret;

	ret = query_list(fd, DRM_FDIF_QUERY_FORMATS,
			 V1_END(struct drm_fdif_format_info, stride_align), &l);
	if (ret)
		return ret;
	dev->formats = calloc(l->count ? l->count : 1, sizeof(*dev->formats));
	if (!dev->formats) {
		free(l);
		return -ENOMEM;
	}
	for (i = 0; i < l->count; i++) {
		f = &dev->formats[c->num_formats];
		list_entry(l, i, f, sizeof(*f));
		if (!f->num_planes || f->num_planes > DRM_FDIF_MAX_PLANES)
			continue;	/* not one this library can describe */
		c->num_formats++;
		if (f->fourcc == DRM_FORMAT_R8 && f->num_planes == 1 && !grey.fourcc)
			grey = *f;
	}
	free(l);
	if (!grey.fourcc)
		return 0;	/* no grey frame: requests on its own formats only */
	dev->grey_max_width = grey.max_width;
	dev->grey_max_height = grey.max_height;
	c->frame_width = round_down(grey.max_width, grey.width_align);
	c->frame_height = round_down(grey.max_height, grey.height_align);
	c->frame_stride = grey.flags & DRM_FDIF_FORMAT_PACKED_ROWS ? c->frame_width :
			  round_up(c->frame_width, grey.stride_align);
	c->frame_align = grey.offset_align ? grey.offset_align : 1;
	if (!c->frame_width || !c->frame_height || c->frame_width < grey.min_width ||
	    c->frame_height < grey.min_height || c->frame_stride < c->frame_width) {
		c->frame_width = c->frame_height = c->frame_stride = c->frame_align = 0;
		return 0;	/* no grey frame after all */
	}
	return 0;
}

static int caps_min_sizes(int fd, struct fdif_device *dev)
{
	struct fdif_caps *c = &dev->caps;
	struct drm_fdif_query_list *l;
	struct drm_fdif_size s;
	uint32_t i;
	int ret;

	ret = query_list(fd, DRM_FDIF_QUERY_MIN_SIZES,
			 V1_END(struct drm_fdif_size, height), &l);
	if (ret)
		return ret;
	dev->min_sizes = calloc(l->count ? l->count : 1, sizeof(*dev->min_sizes));
	if (!dev->min_sizes) {
		free(l);
		return -ENOMEM;
	}
	for (i = 0; i < l->count; i++) {
		list_entry(l, i, &s, sizeof(s));
		dev->min_sizes[c->num_min_sizes++] = (struct fdif_size){ s.width, s.height };
	}
	free(l);
	return c->num_min_sizes ? 0 : -EPROTO;
}

/* The directions each class can be scanned in; fdif_caps': the faces'. */
static int caps_classes(int fd, struct fdif_device *dev)
{
	struct fdif_caps *c = &dev->caps;
	struct drm_fdif_query_list *l;
	struct drm_fdif_class_info k;
	uint32_t i;
	int ret;

	ret = query_list(fd, DRM_FDIF_QUERY_CLASSES,
			 V1_END(struct drm_fdif_class_info, directions), &l);
	if (ret)
		return ret;
	for (i = 0; i < l->count; i++) {
		list_entry(l, i, &k, sizeof(k));
		if (k.object_class < MAX_CLASSES)
			dev->class_dirs[k.object_class] = k.directions & c->directions;
	}
	free(l);
	/* a class without an entry (no direction to scan it in) is not asked for */
	for (i = 0; i < MAX_CLASSES; i++)
		if (!dev->class_dirs[i])
			c->classes &= ~(1u << i);
	c->directions = dev->class_dirs[DRM_FDIF_CLASS_FACE] & 0x7;
	return 0;
}

static int load_caps(int fd, struct fdif_device *dev)
{
	struct fdif_caps *c = &dev->caps;
	struct drm_fdif_device_info d;
	struct drm_fdif_result_layout r;
	int ret;

	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	ret = query_struct(fd, DRM_FDIF_QUERY_DEVICE, &d, sizeof(d),
			   V1_END(struct drm_fdif_device_info, max_syncs));
	if (!ret)
		ret = query_struct(fd, DRM_FDIF_QUERY_RESULT_LAYOUT, &r, sizeof(r),
				   V1_END(struct drm_fdif_result_layout, object_fields));
	if (ret)
		return ret;
	if (r.version != DRM_FDIF_RESULT_VERSION ||
	    r.header_size < V1_END(struct drm_fdif_result_header, seqno) ||
	    r.object_size < V1_END(struct drm_fdif_object, raw_confidence) ||
	    r.size < r.header_size + (uint64_t)r.capacity * r.object_size ||
	    !d.max_jobs)
		return -EPROTO;

	c->generation = d.generation;
	c->revision = d.revision;
	c->classes = d.classes;
	c->directions = d.directions;
	c->max_threshold = d.max_threshold;
	c->default_threshold = d.default_threshold;
	dev->work_size = d.work_size;
	dev->work_align = d.work_align ? d.work_align : 1;
	c->roi_min_width = d.roi_min_width;
	c->roi_min_height = d.roi_min_height;
	c->roi_max_x = d.roi_max_x;
	c->roi_max_y = d.roi_max_y;
	c->max_jobs = d.max_jobs;
	c->max_objects = r.capacity;
	dev->result_size = r.size;
	/* the raw confidence (bit 4) is the hardware's own: not in the API */
	c->object_fields = r.object_fields & 0xf;
	c->max_job_directions = d.max_job_directions ? d.max_job_directions : 1;
	c->max_job_classes = d.max_job_classes ? d.max_job_classes : 1;
	c->max_syncs = d.max_syncs;

	ret = caps_formats(fd, dev);
	if (!ret)
		ret = caps_min_sizes(fd, dev);
	if (!ret)
		ret = caps_classes(fd, dev);
	return ret;
}

int fdif_open_path(const char *path, struct fdif_device **dev)
{
	struct fdif_device *d;
	int fd, ret;

	*dev = NULL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = check_driver(fd);
	d = ret ? NULL : calloc(1, sizeof(*d));
	if (!ret && !d)
		ret = -ENOMEM;
	if (!ret)
		ret = load_caps(fd, d);
	if (!ret && !(d->path = strdup(path)))
		ret = -ENOMEM;
	if (!ret)
		ret = -pthread_mutex_init(&d->lock, NULL);
	if (ret) {
		if (d) {
			free(d->path);
			free(d->formats);
			free(d->min_sizes);
		}
		free(d);
		close(fd);
		return ret;
	}
	d->fd = fd;
	atomic_init(&d->refs, 1);
	*dev = d;
	return 0;
}

/* accel<N> nodes by N (accel2 before accel10), then by name */
static unsigned long node_number(const char *name)
{
	return strtoul(name + 5, NULL, 10);
}

static int node_filter(const struct dirent *de)
{
	return !strncmp(de->d_name, "accel", 5);
}

static int node_cmp(const struct dirent **a, const struct dirent **b)
{
	unsigned long na = node_number((*a)->d_name), nb = node_number((*b)->d_name);

	return na != nb ? (na < nb ? -1 : 1) : strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Is the accel node @name (accel<N>) driven by fdif, by sysfs, without
 * opening it: 1 if /sys/class/accel/@name/device/driver is the fdif
 * driver, 0 if it is another or none (unbound); -1 if sysfs has no such
 * node (no sysfs, or a node that is not the kernel's): then only opening
 * it tells ($FDIF_SYSFS_DIR stands for /sys, for tests).
 */
static int node_is_fdif(const char *name)
{
	const char *sys = secure_getenv("FDIF_SYSFS_DIR");
	char path[4096], link[4096];
	const char *base;
	ssize_t len;

	if (!sys || !*sys)
		sys = "/sys";
	if (snprintf(path, sizeof(path), "%s/class/accel/%s", sys, name) >= (int)sizeof(path) ||
	    access(path, F_OK))
		return -1;
	if (snprintf(path, sizeof(path), "%s/class/accel/%s/device/driver", sys, name) >=
	    (int)sizeof(path))
		return -1;
	len = readlink(path, link, sizeof(link) - 1);
	if (len < 0)
		return 0;
	link[len] = 0;
	base = strrchr(link, '/');
	return !strcmp(base ? base + 1 : link, "fdif");
}

/*
 * The @index-th FDIF (from 0) among the accel nodes, in their number's
 * order; a node sysfs says another driver drives is never opened. Failing that, what went wrong, the most telling first: an FDIF
 * this library cannot drive (-EPROTO), a node that could not be opened
 * (its errno, e.g. -EACCES: it may be the FDIF), no accel directory or
 * not that many FDIFs in it (-ENODEV); another error reading the
 * directory is its errno.
 */
int fdif_open_index(unsigned int index, struct fdif_device **dev)
{
	const char *dir_path = secure_getenv("FDIF_ACCEL_DIR");
	struct dirent **names = NULL;
	int ret, other_uapi = 0, open_err = 0, n, i;
	unsigned int found = 0;

	*dev = NULL;
	if (!dir_path || !*dir_path)
		dir_path = "/dev/accel";
	n = scandir(dir_path, &names, node_filter, node_cmp);
	if (n < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	for (i = 0; i < n; i++) {
		char path[4096];
		int len = snprintf(path, sizeof(path), "%s/%s", dir_path, names[i]->d_name);

		free(names[i]);
		if (*dev)
			continue;
		if (len >= (int)sizeof(path)) {
			open_err = open_err ? open_err : -ENAMETOOLONG;
			continue;
		}
		/* the node's name, after "DIR/" (its dirent is freed) */
		if (!node_is_fdif(path + strlen(dir_path) + 1))
			continue;	/* another driver's: not opened */
		ret = fdif_open_path(path, dev);
		if (!ret && found++ != index) {
			fdif_close(*dev);	/* an FDIF before the one asked for */
			*dev = NULL;
		} else if (ret == -EPROTO) {
			other_uapi = 1;
		} else if (ret && ret != -ENODEV && !open_err) {
			open_err = ret;
		}
	}
	free(names);
	if (*dev)
		return 0;
	return other_uapi ? -EPROTO : open_err ? open_err : -ENODEV;
}

/*
 * $FDIF_DEVICE: a number is an index for fdif_open_index(), anything else
 * a node's path; unset or empty: the first FDIF.
 */
int fdif_open(struct fdif_device **dev)
{
	/* not from the environment of a setuid or setcap program's caller */
	const char *env = secure_getenv("FDIF_DEVICE");
	char *end;
	unsigned long index;

	*dev = NULL;
	if (!env || !*env)
		return fdif_open_index(0, dev);
	errno = 0;
	index = strtoul(env, &end, 10);
	if (*env >= '0' && *env <= '9' && !*end) {
		if (errno || index > UINT_MAX)
			return -ENODEV;
		return fdif_open_index((unsigned int)index, dev);
	}
	return fdif_open_path(env, dev);
}

const char *fdif_device_path(const struct fdif_device *dev)
{
	return dev->path;
}

static void dev_get(struct fdif_device *dev)
{
	atomic_fetch_add_explicit(&dev->refs, 1, memory_order_relaxed);
}

/* The last reference: everything made on it is gone, the pool drained. */
static void dev_put(struct fdif_device *dev)
{
	if (atomic_fetch_sub_explicit(&dev->refs, 1, memory_order_acq_rel) != 1)
		return;
	pthread_mutex_destroy(&dev->lock);
	close(dev->fd);
	free(dev->path);
	free(dev->formats);
	free(dev->min_sizes);
	free(dev);
}

void fdif_close(struct fdif_device *dev)
{
	struct fdif_bo *pool[POOL_MAX][2], *frame;
	unsigned int i, n;

	if (!dev)
		return;
	/* the pooled BOs go now; those of jobs still alive when these are freed */
	pthread_mutex_lock(&dev->lock);
	dev->closed = 1;
	n = dev->npool;
	memcpy(pool, dev->pool, sizeof(pool));
	dev->npool = 0;
	frame = dev->frame;
	dev->frame = NULL;
	pthread_mutex_unlock(&dev->lock);
	for (i = 0; i < n; i++) {
		fdif_bo_free(pool[i][0]);
		fdif_bo_free(pool[i][1]);
	}
	fdif_bo_free(frame);
	dev_put(dev);
}

int fdif_device_fd(const struct fdif_device *dev)
{
	return dev->fd;
}

/*
 * A size-prefixed answer: the first *@out's size bytes of @in (@in_size
 * bytes, what this library knows), the rest zeroed.
 */
static int answer_sized(void *out, const void *in, uint32_t in_size, uint32_t v1_size)
{
	uint32_t size = *(const uint32_t *)out;

	if (size < v1_size || size > FDIF_STRUCT_MAX)
		return -EINVAL;
	memset(out, 0, size);
	memcpy(out, in, MIN(size, in_size));
	*(uint32_t *)out = size;
	return 0;
}

int fdif_query_caps(struct fdif_device *dev, struct fdif_caps *caps)
{
	return answer_sized(caps, &dev->caps, sizeof(dev->caps),
			    V1_END(struct fdif_caps, object_fields));
}

int fdif_query_min_size(struct fdif_device *dev, unsigned int index,
			struct fdif_size *min)
{
	if (index >= dev->caps.num_min_sizes)
		return -ENOENT;
	*min = dev->min_sizes[index];
	return 0;
}

/* The device's cached frame BO, or NULL (fdif_detect_start()'s). */
struct fdif_bo *fdif_frame_take(struct fdif_device *dev)
{
	struct fdif_bo *bo;

	pthread_mutex_lock(&dev->lock);
	bo = dev->frame;
	dev->frame = NULL;
	pthread_mutex_unlock(&dev->lock);
	return bo;
}

/* An idle frame BO back to the device's cache; freed if it has one. */
void fdif_frame_give(struct fdif_device *dev, struct fdif_bo *bo)
{
	pthread_mutex_lock(&dev->lock);
	if (!dev->closed && !dev->frame) {
		dev->frame = bo;
		bo = NULL;
	}
	pthread_mutex_unlock(&dev->lock);
	fdif_bo_free(bo);
}

static void gem_close(struct fdif_device *dev, uint32_t handle)
{
	drmCloseBufferHandle(dev->fd, handle);
}

/* A new BO for @handle in the table, one reference; under dev->lock. */
static int bo_wrap_locked(struct fdif_device *dev, uint32_t handle, size_t size,
			  int dmabuf_fd, struct fdif_bo **bo)
{
	struct fdif_bo *b = calloc(1, sizeof(*b));

	if (!b) {
		gem_close(dev, handle);
		return -ENOMEM;
	}
	dev_get(dev);
	b->dev = dev;
	b->handle = handle;
	b->size = size;
	b->dmabuf_fd = dmabuf_fd;
	b->refs = 1;
	b->next = dev->bos;
	if (dev->bos)
		dev->bos->prev = b;
	dev->bos = b;
	*bo = b;
	return 0;
}

static struct fdif_bo *bo_lookup_locked(struct fdif_device *dev, uint32_t handle)
{
	struct fdif_bo *b;

	for (b = dev->bos; b && b->handle != handle; b = b->next)
		;
	return b;
}

int fdif_bo_create(struct fdif_device *dev, size_t size, struct fdif_bo **bo)
{
	struct drm_fdif_bo_create c = { .size = size };
	int ret;

	*bo = NULL;
	ret = xioctl(dev->fd, DRM_IOCTL_FDIF_BO_CREATE, &c);
	if (ret)
		return ret;
	pthread_mutex_lock(&dev->lock);
	ret = bo_wrap_locked(dev, c.handle, size, -1, bo);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int fdif_bo_import(struct fdif_device *dev, int dmabuf_fd, struct fdif_bo **bo)
{
	off_t size = lseek(dmabuf_fd, 0, SEEK_END);
	struct fdif_bo *b;
	uint32_t handle;
	int fd, ret = 0;

	*bo = NULL;
	if (size <= 0)
		return size < 0 ? -errno : -EINVAL;
	/* ours, for mmap(): the kernel maps imported BOs through their dma-buf */
	fd = fcntl(dmabuf_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	pthread_mutex_lock(&dev->lock);
	if (drmPrimeFDToHandle(dev->fd, dmabuf_fd, &handle))
		ret = -errno;
	b = ret ? NULL : bo_lookup_locked(dev, handle);
	if (b) {
		/* imported before (or one of ours, exported): the same BO */
		b->refs++;
		*bo = b;
	} else if (!ret) {
		ret = bo_wrap_locked(dev, handle, (size_t)size, fd, bo);
		if (!ret)
			fd = -1;	/* the BO's now */
	}
	pthread_mutex_unlock(&dev->lock);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The mapping, made on first use; under dev->lock, once for all threads. */
static int bo_map_locked(struct fdif_bo *bo)
{
	struct drm_fdif_bo_mmap_offset m = { .handle = bo->handle };
	int fd = bo->dev->fd;
	off_t offset = 0;
	void *p;
	int ret;

	if (bo->map)
		return 0;
	if (bo->dmabuf_fd >= 0) {
		fd = bo->dmabuf_fd;
	} else {
		ret = xioctl(fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m);
		if (ret)
			return ret;
		offset = (off_t)m.offset;
	}
	p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	if (p == MAP_FAILED)
		return -errno;
	bo->map = p;
	return 0;
}

int fdif_bo_export(struct fdif_bo *bo, int *dmabuf_fd)
{
	*dmabuf_fd = -1;
	return drm_err(drmPrimeHandleToFD(bo->dev->fd, bo->handle, DRM_CLOEXEC | DRM_RDWR,
					  dmabuf_fd));
}

int fdif_bo_map(struct fdif_bo *bo, void **ptr)
{
	struct fdif_device *dev = bo->dev;
	int ret;

	pthread_mutex_lock(&dev->lock);
	ret = bo_map_locked(bo);
	*ptr = ret ? NULL : bo->map;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

size_t fdif_bo_size(const struct fdif_bo *bo)
{
	return bo->size;
}

uint32_t fdif_bo_handle(const struct fdif_bo *bo)
{
	return bo->handle;
}

void fdif_bo_free(struct fdif_bo *bo)
{
	struct fdif_device *dev;

	if (!bo)
		return;
	dev = bo->dev;
	pthread_mutex_lock(&dev->lock);
	if (--bo->refs) {
		pthread_mutex_unlock(&dev->lock);
		return;
	}
	if (bo->prev)
		bo->prev->next = bo->next;
	else
		dev->bos = bo->next;
	if (bo->next)
		bo->next->prev = bo->prev;
	/* closed before an import can see the handle free in the table */
	gem_close(dev, bo->handle);
	pthread_mutex_unlock(&dev->lock);
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->dmabuf_fd >= 0)
		close(bo->dmabuf_fd);
	free(bo);
	dev_put(dev);
}

/* A work area (if the device needs one) and a mapped result region. */
static int job_bos(struct fdif_device *dev, struct fdif_job *job)
{
	void *map;
	int ret = 0;

	pthread_mutex_lock(&dev->lock);
	if (dev->npool) {
		dev->npool--;
		job->work = dev->pool[dev->npool][0];
		job->result = dev->pool[dev->npool][1];
	}
	pthread_mutex_unlock(&dev->lock);
	if (job->result)
		return 0;
	if (dev->work_size)
		ret = fdif_bo_create(dev, dev->work_size, &job->work);
	if (!ret)
		ret = fdif_bo_create(dev, dev->result_size, &job->result);
	if (!ret)
		ret = fdif_bo_map(job->result, &map);
	return ret;
}

static int job_new(struct fdif_device *dev, struct fdif_job **jobp)
{
	struct fdif_job *job;
	int ret;

	*jobp = NULL;
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	dev_get(dev);
	job->dev = dev;
	job->fence_fd = -1;
	ret = job_bos(dev, job);
	if (!ret)
		ret = drm_err(drmSyncobjCreate(dev->fd, 0, &job->syncobj));
	if (ret) {
		fdif_job_free(job);
		return ret;
	}
	*jobp = job;
	return 0;
}

/* --- requests ---------------------------------------------------------- */

_Static_assert(FDIF_MAX_PLANES == DRM_FDIF_MAX_PLANES, "fdif.h's planes are the uAPI's");

/* The end of struct fdif_request's first version (LIBFDIF_DRM_2.1). */
#define REQUEST_V1_SIZE V1_END(struct fdif_request, reserved)
int fdif_query_format(struct fdif_device *dev, unsigned int index,
		      struct fdif_format *fmt)
{
	const struct drm_fdif_format_info *f;
	struct fdif_format out;

	if (fmt->size < V1_END(struct fdif_format, stride_align) || fmt->size > FDIF_STRUCT_MAX)
		return -EINVAL;
	if (index >= dev->caps.num_formats)
		return -ENOENT;
	f = &dev->formats[index];
	out = (struct fdif_format){
		.fourcc = f->fourcc, .num_planes = f->num_planes,
		.flags = f->flags & DRM_FDIF_FORMAT_PACKED_ROWS ? FDIF_FORMAT_PACKED_ROWS : 0,
		.min_width = f->min_width, .max_width = f->max_width,
		.width_align = f->width_align ? f->width_align : 1,
		.min_height = f->min_height, .max_height = f->max_height,
		.height_align = f->height_align ? f->height_align : 1,
		.offset_align = f->offset_align ? f->offset_align : 1,
		.stride_align = f->stride_align ? f->stride_align : 1,
	};
	return answer_sized(fmt, &out, sizeof(out), V1_END(struct fdif_format, stride_align));
}

void fdif_request_init(struct fdif_request *req, size_t size)
{
	memset(req, 0, size);
	req->size = (uint32_t)size;
	if (size < REQUEST_V1_SIZE)
		return;		/* too short to be submitted: fdif_submit_requests() says so */
	req->classes = FDIF_CLASS_FACE;
	req->directions = FDIF_DIR_UP;
	req->threshold = FDIF_THRESHOLD_DEFAULT;
}

/*
 * The planes of the pixel formats the library knows: bytes a pixel
 * (a sample group) and the subsampling of each. A format the device
 * reports and this table lacks is checked for alignment only, and its
 * strides must be given.
 */
struct plane_layout {
	uint32_t fourcc;
	uint8_t planes;
	uint8_t cpp[DRM_FDIF_MAX_PLANES];
	uint8_t hsub, vsub;	/* of the planes after the first */
};

static const struct plane_layout layouts[] = {
	{ DRM_FORMAT_R8, 1, { 1 }, 1, 1 },
	{ DRM_FORMAT_R16, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_NV12, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV21, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV16, 2, { 1, 2 }, 2, 1 },
	{ DRM_FORMAT_NV61, 2, { 1, 2 }, 2, 1 },
	{ DRM_FORMAT_YUV420, 3, { 1, 1, 1 }, 2, 2 },
	{ DRM_FORMAT_YVU420, 3, { 1, 1, 1 }, 2, 2 },
	{ DRM_FORMAT_YUYV, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_UYVY, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_RGB888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_BGR888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_XRGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XBGR8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ARGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ABGR8888, 1, { 4 }, 1, 1 },
};

static const struct plane_layout *layout_of(uint32_t fourcc, uint32_t planes)
{
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].fourcc == fourcc)
			return layouts[i].planes == planes ? &layouts[i] : NULL;
	return NULL;
}

static const struct drm_fdif_format_info *format_of(const struct fdif_device *dev,
						    uint32_t fourcc)
{
	uint32_t i;

	for (i = 0; i < dev->caps.num_formats; i++)
		if (dev->formats[i].fourcc == fourcc)
			return &dev->formats[i];
	return NULL;
}

static int popcount(uint32_t v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * @pic against the format the device reported for it: sizes, alignments,
 * packed rows, every plane inside its BO; the uAPI picture in @out.
 */
static int picture_check(const struct fdif_device *dev, const struct fdif_picture *pic,
			 struct drm_fdif_picture *out)
{
	const struct drm_fdif_format_info *f = format_of(dev, pic->fourcc);
	const struct plane_layout *lay;
	uint32_t i, walign, halign, oalign, salign;

	if (!f)
		return -EINVAL;
	walign = f->width_align ? f->width_align : 1;
	halign = f->height_align ? f->height_align : 1;
	oalign = f->offset_align ? f->offset_align : 1;
	salign = f->stride_align ? f->stride_align : 1;
	if (pic->width < f->min_width || pic->width > f->max_width || !pic->width ||
	    pic->width % walign || pic->height < f->min_height ||
	    pic->height > f->max_height || !pic->height || pic->height % halign)
		return -EINVAL;
	lay = layout_of(pic->fourcc, f->num_planes);
	memset(out, 0, sizeof(*out));
	out->fourcc = pic->fourcc;
	out->width = pic->width;
	out->height = pic->height;
	for (i = 0; i < FDIF_MAX_PLANES; i++) {
		const struct fdif_plane *pl = &pic->planes[i];
		uint64_t row = 0, rows = 0, stride = pl->stride;

		if (i >= f->num_planes) {
			if (pl->bo || pl->offset || pl->stride)
				return -EINVAL;
			continue;
		}
		if (!pl->bo || pl->offset % oalign)
			return -EINVAL;
		if (pl->bo->dev != dev)
			return -EXDEV;	/* its handle means nothing on this file */
		if (lay) {
			uint32_t hs = i ? lay->hsub : 1, vs = i ? lay->vsub : 1;

			row = (uint64_t)(pic->width + hs - 1) / hs * lay->cpp[i];
			rows = (pic->height + vs - 1) / vs;
			if (!stride)
				stride = f->flags & DRM_FDIF_FORMAT_PACKED_ROWS ? row :
					 (row + salign - 1) / salign * salign;
		}
		if (!stride || stride % salign || stride < row || stride > UINT32_MAX ||
		    (f->flags & DRM_FDIF_FORMAT_PACKED_ROWS && lay && stride != row) ||
		    /* the kernel's rule: every row a full stride, the last too */
		    (lay && pl->offset + stride * rows > pl->bo->size) ||
		    pl->offset >= pl->bo->size)
			return -EINVAL;
		out->planes[i].handle = pl->bo->handle;
		out->planes[i].offset = pl->offset;
		out->planes[i].stride = (uint32_t)stride;
	}
	return 0;
}

/* What one request becomes: the uAPI fields its jobs share. */
struct req_plan {
	struct drm_fdif_picture picture;
	uint32_t classes, directions;
	uint32_t min_width, min_height, threshold;
	struct drm_fdif_roi roi;
	unsigned int jobs;		/* directions split max_job_directions a job */
	unsigned int nsyncs;		/* syncobjs, then sync_files */
};

/*
 * @req (@size bytes, as the caller knows it) read into @r: a longer
 * request than this library knows must end in zeroes (-E2BIG), a shorter
 * one than its first version is refused.
 */
static int request_read(const struct fdif_request *req, uint32_t size,
			struct fdif_request *r)
{
	int ret;

	if (size < REQUEST_V1_SIZE || req->size != size)
		return -EINVAL;
	ret = fdif_sized_read(req, size, REQUEST_V1_SIZE, r, sizeof(*r));
	return ret ? ret : r->reserved ? -EINVAL : 0;
}

static int request_plan(const struct fdif_device *dev, const struct fdif_request *r,
			struct req_plan *plan)
{
	const struct fdif_caps *c = &dev->caps;
	uint32_t dirs = ~0u, i;
	unsigned int k = 0;
	int ret;

	memset(plan, 0, sizeof(*plan));
	/* classes the device detects, few enough, and directions all of them scan */
	if (!r->classes || r->classes & ~c->classes ||
	    (uint32_t)popcount(r->classes) > c->max_job_classes)
		return -EINVAL;
	for (i = 0; i < MAX_CLASSES; i++)
		if (r->classes & (1u << i))
			dirs &= dev->class_dirs[i];
	if (!r->directions || r->directions & ~dirs)
		return -EINVAL;
	if (r->min_size)
		for (k = 0; k < c->num_min_sizes && dev->min_sizes[k].width != r->min_size; k++)
			;
	if (k == c->num_min_sizes)
		return -EINVAL;
	if (r->threshold != FDIF_THRESHOLD_DEFAULT && r->threshold > c->max_threshold)
		return -EINVAL;
	ret = picture_check(dev, &r->picture, &plan->picture);
	if (ret)
		return ret;
	/* the region: in the picture's pixels, inside it */
	if (r->roi_x || r->roi_y || r->roi_width || r->roi_height) {
		if (!r->roi_width || !r->roi_height ||
		    r->roi_x > r->picture.width || r->roi_width > r->picture.width - r->roi_x ||
		    r->roi_y > r->picture.height || r->roi_height > r->picture.height - r->roi_y)
			return -EINVAL;
	}
	if ((r->num_in_syncobjs && !r->in_syncobjs) ||
	    (r->num_in_fence_fds && !r->in_fence_fds) ||
	    (uint64_t)r->num_in_syncobjs + r->num_in_fence_fds > c->max_syncs)
		return -EINVAL;
	for (i = 0; i < r->num_in_fence_fds; i++)
		if (r->in_fence_fds[i] < 0)
			return -EINVAL;

	plan->classes = r->classes;
	plan->directions = r->directions;
	plan->min_width = dev->min_sizes[k].width;
	plan->min_height = dev->min_sizes[k].height;
	plan->threshold = r->threshold == FDIF_THRESHOLD_DEFAULT ? c->default_threshold :
			  r->threshold;
	plan->roi = (struct drm_fdif_roi){ r->roi_x, r->roi_y, r->roi_width, r->roi_height };
	plan->jobs = ((unsigned int)popcount(r->directions) + c->max_job_directions - 1) /
		     c->max_job_directions;
	plan->nsyncs = r->num_in_syncobjs + r->num_in_fence_fds;
	return 0;
}

int fdif_request_jobs(struct fdif_device *dev, const struct fdif_request *req)
{
	struct fdif_request r;
	struct req_plan plan;
	int ret = request_read(req, req->size, &r);

	if (!ret)
		ret = request_plan(dev, &r, &plan);
	return ret ? ret : (int)plan.jobs;
}

/* The next @max set bits of *@mask, taken out of it. */
static uint32_t take_bits(uint32_t *mask, uint32_t max)
{
	uint32_t out = 0;

	while (*mask && max--) {
		uint32_t low = *mask & -*mask;

		out |= low;
		*mask &= ~low;
	}
	return out;
}

/*
 * A sync_file as a syncobj, for a job's in-syncs (the uAPI takes
 * syncobjs): a new syncobj holding the sync_file's fence. The kernel takes
 * the fence at submission; the syncobj is destroyed after.
 */
static int sync_file_syncobj(struct fdif_device *dev, int fence_fd, uint32_t *handle)
{
	uint32_t h;
	int ret;

	*handle = 0;
	ret = drm_err(drmSyncobjCreate(dev->fd, 0, &h));
	if (ret)
		return ret;
	ret = drm_err(drmSyncobjImportSyncFile(dev->fd, h, fence_fd));
	if (ret) {
		drmSyncobjDestroy(dev->fd, h);
		return ret;
	}
	*handle = h;
	return 0;
}

/*
 * The requests as one DRM_IOCTL_FDIF_SUBMIT: all checked, all their jobs,
 * BOs and temporary syncobjs made, then one ioctl; on an error nothing is
 * queued and every job made is freed.
 */
static int submit_requests(struct fdif_device *dev, const struct fdif_request *reqs,
			   uint32_t req_size, unsigned int count, struct fdif_job **jobs,
			   unsigned int max_jobs, unsigned int *num_jobs)
{
	struct drm_fdif_submit s = { 0 };
	struct drm_fdif_sync *out = NULL, *in = NULL;
	struct drm_fdif_job *j = NULL;
	struct req_plan *plans = NULL;
	struct fdif_request r;
	unsigned int i, n = 0, nsyncs = 0, in_used = 0, made = 0, q;
	uint32_t *temp = NULL;
	unsigned int ntemp = 0;
	int ret = 0;

	*num_jobs = 0;
	for (i = 0; i < max_jobs; i++)
		jobs[i] = NULL;
	if (!count || !max_jobs)
		return -EINVAL;
	plans = calloc(count, sizeof(*plans));
	if (!plans)
		return -ENOMEM;
	for (i = 0; i < count && !ret; i++) {
		const struct fdif_request *req =
			(const void *)((const char *)reqs + (size_t)i * req_size);

		ret = request_read(req, req_size, &r);
		if (!ret)
			ret = request_plan(dev, &r, &plans[i]);
		n += ret ? 0 : plans[i].jobs;
		nsyncs += ret ? 0 : plans[i].nsyncs;
	}
	if (!ret && (n > max_jobs || n > dev->caps.max_jobs))
		ret = -EINVAL;
	if (ret) {
		free(plans);
		return ret;
	}

	j = calloc(n, sizeof(*j));
	out = calloc(n, sizeof(*out));
	in = calloc(nsyncs ? nsyncs : 1, sizeof(*in));
	temp = calloc(nsyncs ? nsyncs : 1, sizeof(*temp));
	if (!j || !out || !in || !temp)
		ret = -ENOMEM;
	for (i = 0; i < count && !ret; i++) {
		const struct fdif_request *req =
			(const void *)((const char *)reqs + (size_t)i * req_size);
		const struct req_plan *pl = &plans[i];
		uint32_t dirs = pl->directions, k;
		struct drm_fdif_sync *ins = in + in_used;

		memset(&r, 0, sizeof(r));
		memcpy(&r, req, MIN(req_size, sizeof(r)));
		/* the input fences, shared by the request's jobs */
		for (k = 0; k < r.num_in_syncobjs; k++)
			ins[k] = (struct drm_fdif_sync){
				.handle = r.in_syncobjs[k],
				.point = r.in_points ? r.in_points[k] : 0,
			};
		for (k = 0; k < r.num_in_fence_fds && !ret; k++) {
			ret = sync_file_syncobj(dev, r.in_fence_fds[k], &temp[ntemp]);
			if (!ret)
				ins[r.num_in_syncobjs + k].handle = temp[ntemp++];
		}
		in_used += pl->nsyncs;
		for (q = 0; q < pl->jobs && !ret; q++, made++) {
			struct drm_fdif_job *dj = &j[made];

			ret = job_new(dev, &jobs[made]);
			if (ret)
				break;
			jobs[made]->directions = take_bits(&dirs, dev->caps.max_job_directions);
			dj->picture = pl->picture;
			dj->work_handle = jobs[made]->work ? jobs[made]->work->handle : 0;
			dj->result_handle = jobs[made]->result->handle;
			dj->result_size = dev->result_size;
			dj->classes = pl->classes;
			dj->directions = jobs[made]->directions;
			dj->min_width = pl->min_width;
			dj->min_height = pl->min_height;
			dj->threshold = pl->threshold;
			dj->roi = pl->roi;
			dj->flags = DRM_FDIF_JOB_FENCE_FD_OUT;
			dj->in_sync_count = pl->nsyncs;
			dj->in_syncs = pl->nsyncs ? (uintptr_t)ins : 0;
			out[made] = (struct drm_fdif_sync){ .handle = jobs[made]->syncobj };
			dj->out_sync_count = 1;
			dj->out_syncs = (uintptr_t)&out[made];
		}
	}
	if (!ret) {
		s.jobs = (uintptr_t)j;
		s.job_count = n;
		s.job_size = sizeof(*j);
		ret = xioctl(dev->fd, DRM_IOCTL_FDIF_SUBMIT, &s);
	}
	/* the kernel has the sync_files' fences (or failed): their syncobjs go */
	for (i = 0; i < ntemp; i++)
		drmSyncobjDestroy(dev->fd, temp[i]);
	if (!ret) {
		/* the kernel wrote each job's seqno and fence fd back */
		for (i = 0; i < n; i++) {
			jobs[i]->fence_fd = j[i].fence_fd;
			jobs[i]->seqno = j[i].seqno;
		}
		*num_jobs = n;
	} else {
		for (i = 0; i < max_jobs; i++) {
			fdif_job_free(jobs[i]);
			jobs[i] = NULL;
		}
	}
	free(j);
	free(out);
	free(in);
	free(temp);
	free(plans);
	return ret;
}

int fdif_submit_requests(struct fdif_device *dev, const struct fdif_request *reqs,
			 unsigned int count, struct fdif_job **jobs,
			 unsigned int max_jobs, unsigned int *num_jobs)
{
	unsigned int i;

	*num_jobs = 0;
	for (i = 0; i < max_jobs; i++)
		jobs[i] = NULL;
	if (!count)
		return -EINVAL;
	return submit_requests(dev, reqs, reqs->size, count, jobs, max_jobs, num_jobs);
}

int fdif_job_fence_fd(const struct fdif_job *job)
{
	return job->fence_fd;
}

uint32_t fdif_job_syncobj(const struct fdif_job *job)
{
	return job->syncobj;
}

/* @timeout_ns from now as an absolute CLOCK_MONOTONIC time; < 0: never. */
static int64_t deadline(int64_t timeout_ns)
{
	struct timespec ts;
	int64_t now;

	if (timeout_ns < 0 || clock_gettime(CLOCK_MONOTONIC, &ts))
		return INT64_MAX;
	now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
}

/*
 * The syncobjs of @count jobs, all submitted, of one device: any (or, with
 * DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, all) signalled by the absolute
 * deadline. The deadline survives drmIoctl()'s restart after a signal;
 * libdrm's helper returns -errno itself, -ETIME when it is not done:
 * the library's "not done" is -EBUSY, as fdif_job_result()'s.
 */
static int wait_syncobjs(struct fdif_job *const *jobs, unsigned int count,
			 uint32_t flags, int64_t timeout_ns, unsigned int *first)
{
	uint32_t stack[16], *h = count <= 16 ? stack : calloc(count, sizeof(*h));
	uint32_t done = 0;
	unsigned int i;
	int ret = 0;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < count && !ret; i++) {
		if (!jobs[i] || !jobs[i]->seqno || jobs[i]->dev != jobs[0]->dev)
			ret = -EINVAL;
		else
			h[i] = jobs[i]->syncobj;
	}
	if (!ret)
		ret = drmSyncobjWait(jobs[0]->dev->fd, h, count, deadline(timeout_ns),
				     flags, &done);
	if (h != stack)
		free(h);
	if (ret == -ETIME)
		return -EBUSY;
	if (!ret && first)
		*first = done;
	return ret;
}

int fdif_job_wait(struct fdif_job *job, int64_t timeout_ns)
{
	struct fdif_job *const jobs[] = { job };

	return wait_syncobjs(jobs, 1, 0, timeout_ns, NULL);
}

int fdif_jobs_wait(struct fdif_job *const *jobs, unsigned int count,
		   unsigned int flags, int64_t timeout_ns, unsigned int *first)
{
	if (!count || flags & ~FDIF_WAIT_ALL)
		return -EINVAL;
	return wait_syncobjs(jobs, count,
			     flags & FDIF_WAIT_ALL ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL : 0,
			     timeout_ns, first);
}

/* One object, whatever its size, as a face; fields it lacks stay 0. */
static void object_face(const struct fdif_job *job, const void *obj,
			uint32_t object_size, struct fdif_face *f)
{
	struct drm_fdif_object o = { 0 };

	memcpy(&o, obj, MIN(sizeof(o), object_size));
	memset(f, 0, sizeof(*f));
	if (o.fields & DRM_FDIF_OBJECT_BOX) {
		/* the center as the hardware gives it: x = center - size / 2 */
		f->x = (double)o.x + (double)(o.width / 2);
		f->y = (double)o.y + (double)(o.height / 2);
		f->width = o.width;
		f->height = o.height;
	}
	if (o.fields & DRM_FDIF_OBJECT_ANGLE)
		f->angle = o.angle;
	/* the uAPI's direction is a bit number; without one, the scan's lowest */
	f->direction = o.fields & DRM_FDIF_OBJECT_DIRECTION && o.direction < 32 &&
		       job->directions & (1u << o.direction) ? 1u << o.direction :
		       job->directions & -job->directions;
	if (o.fields & DRM_FDIF_OBJECT_CONFIDENCE)
		f->confidence = o.confidence;
	f->object_class = o.object_class < 32 ? 1u << o.object_class : 0;
}

int fdif_job_result(struct fdif_job *job, struct fdif_face *faces,
		    unsigned int max)
{
	struct drm_fdif_result_header h;
	size_t size = job->dev->result_size;
	const char *r;
	void *map;
	unsigned int i, n;
	int ret;

	if (!job->seqno)
		return -EINVAL;
	ret = fdif_job_wait(job, 0);
	if (ret)
		return ret;
	ret = fdif_bo_map(job->result, &map);
	if (ret)
		return ret;
	r = map;
	memcpy(&h, r, sizeof(h));
	/* a result region the kernel did not write for this job is stale */
	if (h.seqno != job->seqno)
		return -EPROTO;
	if (h.status)
		return h.status < 0 ? h.status : -EPROTO;
	if (h.version != DRM_FDIF_RESULT_VERSION ||
	    h.header_size < V1_END(struct drm_fdif_result_header, seqno) ||
	    h.object_size < V1_END(struct drm_fdif_object, raw_confidence) ||
	    h.count > h.capacity ||
	    h.header_size + (uint64_t)h.count * h.object_size > size)
		return -EPROTO;
	n = h.count < max ? h.count : max;
	for (i = 0; i < n; i++)
		object_face(job, r + h.header_size + (size_t)i * h.object_size,
			    h.object_size, &faces[i]);
	return (int)h.count;	/* all it found: more than @max says @faces was short */
}

void fdif_job_free(struct fdif_job *job)
{
	struct fdif_device *dev;
	int pooled = 0;

	if (!job)
		return;
	dev = job->dev;
	/* a job's BOs go back to the pool only once it is done with them */
	if (job->result && (job->work || !dev->work_size) &&
	    (!job->seqno || fdif_job_wait(job, 0) == 0)) {
		pthread_mutex_lock(&dev->lock);
		if (!dev->closed && dev->npool < POOL_MAX) {
			dev->pool[dev->npool][0] = job->work;
			dev->pool[dev->npool][1] = job->result;
			dev->npool++;
			pooled = 1;
		}
		pthread_mutex_unlock(&dev->lock);
	}
	if (!pooled) {
		fdif_bo_free(job->work);
		fdif_bo_free(job->result);
	}
	if (job->fence_fd >= 0)
		close(job->fence_fd);
	if (job->syncobj)
		drmSyncobjDestroy(dev->fd, job->syncobj);
	free(job);
	dev_put(dev);
}
