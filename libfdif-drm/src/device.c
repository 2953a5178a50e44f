// SPDX-License-Identifier: MIT
/*
 * Devices, buffer objects and jobs over libdrm and the fdif uAPI.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "fdif_accel.h"
#include "fdif/fdif.h"
#include "fdif-private.h"

struct fdif_bo {
	struct fdif_device *dev;
	uint32_t handle;
	size_t size;
	void *map;
};

struct fdif_job {
	struct fdif_device *dev;
	struct fdif_bo *work, *result;	/* from the device's pool */
	uint32_t syncobj;
	int fence_fd;
};

/* Work and result BOs are recycled: a job needs a pair, most apps loop. */
#define POOL_MAX 8

struct fdif_device {
	int fd;
	struct fdif_bo *pool[POOL_MAX][2];
	unsigned int npool;
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	return drmIoctl(fd, req, arg) ? -errno : 0;
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

int fdif_open_path(const char *path, struct fdif_device **dev)
{
	struct fdif_device *d;
	int fd, ret;

	*dev = NULL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = check_driver(fd);
	if (ret) {
		close(fd);
		return ret;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	d->fd = fd;
	*dev = d;
	return 0;
}

int fdif_open(struct fdif_device **dev)
{
	const char *dir_path = getenv("FDIF_ACCEL_DIR");
	struct dirent *de;
	DIR *dir;
	int ret = -ENODEV;

	*dev = NULL;
	dir = opendir(dir_path ? dir_path : "/dev/accel");
	if (!dir)
		return -ENODEV;
	while ((de = readdir(dir))) {
		char path[512];

		if (strncmp(de->d_name, "accel", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir_path ? dir_path : "/dev/accel",
			 de->d_name);
		ret = fdif_open_path(path, dev);
		if (!ret)
			break;
		ret = -ENODEV;
	}
	closedir(dir);
	return ret;
}

void fdif_close(struct fdif_device *dev)
{
	unsigned int i;

	if (!dev)
		return;
	for (i = 0; i < dev->npool; i++) {
		fdif_bo_free(dev->pool[i][0]);
		fdif_bo_free(dev->pool[i][1]);
	}
	close(dev->fd);
	free(dev);
}

int fdif_device_fd(const struct fdif_device *dev)
{
	return dev->fd;
}

static int get_param(struct fdif_device *dev, uint32_t param, uint64_t *value)
{
	struct drm_fdif_get_param p = { .param = param };
	int ret = xioctl(dev->fd, DRM_IOCTL_FDIF_GET_PARAM, &p);

	*value = ret ? 0 : p.value;
	return ret;
}

int fdif_query_caps(struct fdif_device *dev, struct fdif_caps *caps)
{
	static const struct {
		uint32_t param;
		size_t offset;
	} map[] = {
#define P(name, field) { DRM_FDIF_PARAM_##name, offsetof(struct fdif_caps, field) }
		P(REVISION, revision), P(MAX_WIDTH, max_width), P(MAX_HEIGHT, max_height),
		P(FORMATS, formats), P(OBJECT_CLASSES, object_classes),
		P(MAX_OBJECTS, max_objects), P(DIRECTIONS, directions),
		P(WORK_SIZE, work_size), P(ALIGN, align), P(MAX_LHIT, max_lhit),
#undef P
	};
	uint64_t v;
	unsigned int i;
	int ret;

	memset(caps, 0, sizeof(*caps));
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		ret = get_param(dev, map[i].param, &v);
		if (ret)
			return ret;
		*(uint32_t *)((char *)caps + map[i].offset) = (uint32_t)v;
	}
	ret = get_param(dev, DRM_FDIF_PARAM_MIN_SIZES, &v);
	if (ret)
		return ret;
	for (i = 0; i < 8 && (v >> (8 * i)) & 0xff; i++)
		caps->min_sizes[i] = (v >> (8 * i)) & 0xff;
	caps->num_min_sizes = i;
	return 0;
}

static int bo_wrap(struct fdif_device *dev, uint32_t handle, size_t size,
		   struct fdif_bo **bo)
{
	struct fdif_bo *b = calloc(1, sizeof(*b));

	if (!b) {
		struct drm_gem_close c = { .handle = handle };

		xioctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &c);
		return -ENOMEM;
	}
	b->dev = dev;
	b->handle = handle;
	b->size = size;
	*bo = b;
	return 0;
}

int fdif_bo_create(struct fdif_device *dev, size_t size, struct fdif_bo **bo)
{
	struct drm_fdif_bo_create c = { .size = size };
	int ret;

	*bo = NULL;
	ret = xioctl(dev->fd, DRM_IOCTL_FDIF_BO_CREATE, &c);
	if (ret)
		return ret;
	return bo_wrap(dev, c.handle, size, bo);
}

int fdif_bo_import(struct fdif_device *dev, int dmabuf_fd, struct fdif_bo **bo)
{
	off_t size = lseek(dmabuf_fd, 0, SEEK_END);
	uint32_t handle;

	*bo = NULL;
	if (size <= 0)
		return size < 0 ? -errno : -EINVAL;
	if (drmPrimeFDToHandle(dev->fd, dmabuf_fd, &handle))
		return -errno;
	return bo_wrap(dev, handle, (size_t)size, bo);
}

int fdif_bo_map(struct fdif_bo *bo, void **ptr)
{
	struct drm_fdif_bo_mmap_offset m = { .handle = bo->handle };
	void *p;
	int ret;

	if (!bo->map) {
		ret = xioctl(bo->dev->fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m);
		if (ret)
			return ret;
		p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bo->dev->fd, (off_t)m.offset);
		if (p == MAP_FAILED)
			return -errno;
		bo->map = p;
	}
	*ptr = bo->map;
	return 0;
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
	struct drm_gem_close c;

	if (!bo)
		return;
	if (bo->map)
		munmap(bo->map, bo->size);
	c = (struct drm_gem_close){ .handle = bo->handle };
	xioctl(bo->dev->fd, DRM_IOCTL_GEM_CLOSE, &c);
	free(bo);
}

void fdif_params_init(struct fdif_params *p)
{
	memset(p, 0, sizeof(*p));
	p->direction = FDIF_DIR_UP;
	p->min_size = 20;
	p->lhit = DRM_FDIF_LHIT_DEFAULT;
}

static int job_bos(struct fdif_device *dev, struct fdif_job *job)
{
	void *map;
	int ret;

	if (dev->npool) {
		dev->npool--;
		job->work = dev->pool[dev->npool][0];
		job->result = dev->pool[dev->npool][1];
		return 0;
	}
	ret = fdif_bo_create(dev, 52 * 1024, &job->work);
	if (!ret)
		ret = fdif_bo_create(dev, sizeof(struct drm_fdif_result), &job->result);
	if (!ret)
		ret = fdif_bo_map(job->result, &map);
	return ret;
}

int fdif_submit(struct fdif_device *dev, struct fdif_bo *picture,
		uint32_t offset, const struct fdif_params *p,
		struct fdif_job **jobp)
{
	struct drm_fdif_sync out = { 0 };
	struct drm_fdif_submit s = { 0 };
	struct fdif_job *job;
	int ret;

	*jobp = NULL;
	if (p->direction > FDIF_DIR_LEFT)
		return -EINVAL;
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	job->dev = dev;
	job->fence_fd = -1;
	ret = job_bos(dev, job);
	if (!ret)
		ret = drmSyncobjCreate(dev->fd, 0, &job->syncobj) ? -errno : 0;
	if (ret)
		goto fail;

	s.picture_handle = picture->handle;
	s.picture_offset = offset;
	s.work_handle = job->work->handle;
	s.result_handle = job->result->handle;
	s.format = DRM_FDIF_FORMAT_GREY8;
	s.width = FDIF_FRAME_WIDTH;
	s.height = FDIF_FRAME_HEIGHT;
	s.stride = FDIF_FRAME_WIDTH;
	s.object_class = DRM_FDIF_CLASS_FACE;
	s.direction = p->direction;
	s.min_size = p->min_size;
	s.lhit = p->lhit;
	s.roi.x = p->roi_x;
	s.roi.y = p->roi_y;
	s.roi.width = p->roi_width;
	s.roi.height = p->roi_height;
	s.flags = DRM_FDIF_SUBMIT_FENCE_FD_OUT;
	out.handle = job->syncobj;
	s.out_sync_count = 1;
	s.out_syncs = (uintptr_t)&out;
	ret = xioctl(dev->fd, DRM_IOCTL_FDIF_SUBMIT, &s);
	if (ret)
		goto fail;
	job->fence_fd = s.fence_fd;
	*jobp = job;
	return 0;
fail:
	fdif_job_free(job);
	return ret;
}

int fdif_job_fence_fd(const struct fdif_job *job)
{
	return job->fence_fd;
}

uint32_t fdif_job_syncobj(const struct fdif_job *job)
{
	return job->syncobj;
}

int fdif_job_wait(struct fdif_job *job, int64_t timeout_ns)
{
	struct pollfd p = { .fd = job->fence_fd, .events = POLLIN };
	int timeout_ms = timeout_ns < 0 ? -1 : (int)((timeout_ns + 999999) / 1000000);
	int ret;

	do {
		ret = poll(&p, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return ret ? 0 : -ETIME;
}

int fdif_job_result(struct fdif_job *job, struct fdif_face *faces,
		    unsigned int max)
{
	const struct drm_fdif_result *r;
	void *map;
	unsigned int i, n;
	int ret = fdif_bo_map(job->result, &map);

	if (ret)
		return ret;
	r = map;
	if (r->status)
		return r->status;
	n = r->count < max ? r->count : max;
	for (i = 0; i < n; i++) {
		const struct drm_fdif_object *o = &r->objects[i];

		faces[i] = (struct fdif_face){
			.x = o->center_x, .y = o->center_y, .size = o->size,
			.angle = o->angle, .confidence = o->confidence,
			.raw_confidence = o->raw_confidence,
			.direction = o->angle >= 45 && o->angle < 135 ? FDIF_DIR_RIGHT :
				     o->angle >= 225 && o->angle < 315 ? FDIF_DIR_LEFT :
				     FDIF_DIR_UP,
		};
	}
	return (int)n;
}

void fdif_job_free(struct fdif_job *job)
{
	struct fdif_device *dev;

	if (!job)
		return;
	dev = job->dev;
	/* a job's BOs go back to the pool only once it is done with them */
	if (job->work && job->result && dev->npool < POOL_MAX &&
	    (job->fence_fd < 0 || fdif_job_wait(job, 0) == 0)) {
		dev->pool[dev->npool][0] = job->work;
		dev->pool[dev->npool][1] = job->result;
		dev->npool++;
	} else {
		fdif_bo_free(job->work);
		fdif_bo_free(job->result);
	}
	if (job->fence_fd >= 0)
		close(job->fence_fd);
	if (job->syncobj)
		drmSyncobjDestroy(dev->fd, job->syncobj);
	free(job);
}
