/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the fdif uAPI tests (IGT-style, on the kernel's
 * kselftest_harness.h). Every helper returns 0 (or a size) or a negative
 * errno.
 */
#ifndef FDIF_TEST_H
#define FDIF_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/drm.h>
#include <drm/fdif_accel.h>

#include "fdif_emu.h"
#include "fdif_reach.h"
#include "fdif_truth.h"

/* The test pictures: 320x240, 8-bit grey, rows packed. */
#define FDIF_W		320
#define FDIF_H		240
#define FDIF_PIC_SIZE	(FDIF_W * FDIF_H)

/* Where the test pictures are in the guest. */
#define FDIF_DATA_DIR	"/data"

/* DRM fourccs, without depending on drm_fourcc.h being installed. */
#define FDIF_FOURCC(a, b, c, d)							\
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) |	\
	 ((uint32_t)(d) << 24))
#ifndef DRM_FORMAT_R8
#define DRM_FORMAT_R8	FDIF_FOURCC('R', '8', ' ', ' ')
#endif
#ifndef DRM_FORMAT_NV12
#define DRM_FORMAT_NV12	FDIF_FOURCC('N', 'V', '1', '2')
#endif

/* sizeof(struct drm_fdif_job) in the first version of the uAPI. */
#define FDIF_JOB_SIZE_V1	160

/* A BO and its CPU mapping. */
struct fdif_bo {
	uint32_t handle;
	size_t size;
	void *map;
};

/* What the tests need to know of the device, all of it queried. */
struct fdif_caps {
	struct drm_fdif_device_info dev;
	struct drm_fdif_result_layout layout;
	struct drm_fdif_format_info format;	/* DRM_FORMAT_R8's entry */
	struct drm_fdif_size min_size;		/* the smallest MIN_SIZES entry */
};

/*
 * The three BOs of a job (picture, work area, result region of the queried
 * layout's size) and the device's capabilities they were sized by.
 */
struct fdif_job_bos {
	struct fdif_bo pic, work, result;
	struct fdif_caps caps;
};

int fdif_open(void);
int fdif_ioctl(int fd, unsigned long request, void *arg);
/* @len bytes from /dev/dma_heap/@heap: the dma-buf fd, or -errno. */
int fdif_dma_heap_alloc(const char *heap, size_t len);
/* @len bytes from the first dma-heap that is not the system heap (CMA's). */
int fdif_cma_heap_alloc(size_t len);
/*
 * Another exporter's dma-buf @buf imported into @fd, by the driver's rule
 * (docs/driver.md): where the guest has RAM beyond the device's reach
 * (fdif_ram_beyond_reach(), the stress guest), no such import is taken.
 * Return: 0 imported (*@handle), 1 refused there as it must be (-EINVAL,
 * no handle), or a negative errno: -EEXIST if it imported there, else the
 * import's own error.
 */
int fdif_import_foreign(int fd, int buf, uint32_t *handle);
/* What fdif_import_foreign()'s negative @ret means, for a test's log. */
const char *fdif_import_error(int ret);

/*
 * DRM_IOCTL_FDIF_QUERY of @type into @buf (@size bytes; NULL: the size
 * only). Return: the size of the kernel's answer, or a negative errno.
 */
int fdif_query(int fd, uint32_t type, void *buf, uint32_t size);
/*
 * A list answer (FORMATS, MIN_SIZES, CLASSES) read whole into malloc()ed
 * memory, its size checked against count and entry_size; free() it.
 * Return: the list, or NULL with the errno in *@err.
 */
struct drm_fdif_query_list *fdif_query_list(int fd, uint32_t type, int *err);
static inline const void *fdif_list_entry(const struct drm_fdif_query_list *l,
					  uint32_t i)
{
	return (const char *)(l + 1) + (size_t)i * l->entry_size;
}
int fdif_caps_get(int fd, struct fdif_caps *caps);

int fdif_bo_create(int fd, uint64_t size, uint32_t *handle);
int fdif_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
int fdif_bo_new(int fd, size_t size, struct fdif_bo *bo);
void fdif_bo_free(int fd, struct fdif_bo *bo);
/* Wait until @deadline_ns, absolute CLOCK_MONOTONIC (fdif_now_ns()). */
int fdif_bo_wait(int fd, uint32_t handle, int64_t deadline_ns);
/* Wait for at most @timeout_ns from now. */
int fdif_bo_wait_for(int fd, uint32_t handle, int64_t timeout_ns);
int fdif_gem_close(int fd, uint32_t handle);

int fdif_job_bos_new(int fd, struct fdif_job_bos *j);
void fdif_job_bos_free(int fd, struct fdif_job_bos *j);
/*
 * A valid job on @j's BOs: the whole R8 320x240 picture at offset 0 of
 * j->pic, work area and result region at offset 0, faces scanned upright
 * from the smallest minimum size at the default threshold, no flags.
 */
void fdif_job_init(struct drm_fdif_job *job, const struct fdif_job_bos *j);
/* One DRM_IOCTL_FDIF_SUBMIT of @count jobs of sizeof(struct drm_fdif_job). */
int fdif_submit_jobs(int fd, struct drm_fdif_job *jobs, uint32_t count);
int fdif_submit_one(int fd, struct drm_fdif_job *job);

/* The result header a job writes at the start of its result region. */
static inline struct drm_fdif_result_header *fdif_result(const struct fdif_bo *bo)
{
	return bo->map;
}

/* Object @i of a result, found by the header's own sizes. */
static inline const struct drm_fdif_object *
fdif_result_object(const struct drm_fdif_result_header *r, uint32_t i)
{
	return (const void *)((const char *)r + r->header_size + (size_t)i * r->object_size);
}

/* The center of an object's box: where the hardware found it. */
static inline int32_t fdif_object_cx(const struct drm_fdif_object *o)
{
	return o->x + (int32_t)(o->width / 2);
}

static inline int32_t fdif_object_cy(const struct drm_fdif_object *o)
{
	return o->y + (int32_t)(o->height / 2);
}

int fdif_load_picture(const char *name, void *dst);

bool fdif_object_on(const struct drm_fdif_object *o, const struct fdif_box *b);
int fdif_result_check(const struct drm_fdif_result_header *r, const struct fdif_box *truth,
		      int marked, char *why, size_t len);
struct drm_fdif_roi fdif_roi_around(const struct fdif_box *b);
int fdif_syncobj_create(int fd, uint32_t flags, uint32_t *handle);
int fdif_syncobj_wait(int fd, uint32_t handle, uint64_t point, int64_t timeout_ns);
int fdif_syncobj_destroy(int fd, uint32_t handle);
int64_t fdif_now_ns(void);
/* This process's open file descriptors, or a negative errno. */
/* The kernel log from the last line holding @marker on (malloc()ed), or NULL. */
char *fdif_log_since(const char *marker);
int fdif_count_fds(void);
/* A sync_file's status (1 done, 0 pending, -errno failed) and timestamp. */
int fdif_fence_info(int fence_fd, int64_t *timestamp_ns);
bool fdif_fence_pending(int fence_fd);
/* Poll up to @ms for the fence, then fdif_fence_info(); -ETIME if not done. */
int fdif_fence_wait(int fence_fd, int ms, int64_t *timestamp_ns);

/*
 * Several FDIF instances. Each /dev/accel/accelN whose DRM driver is
 * "fdif" is one, named in sysfs by its platform device,
 * "<register address in hex>.fdif" (/sys/class/accel/accelN/device). On
 * QEMU's -M virt the platform bus gives each -device omap4-fdif the next
 * free 4 KiB window from FDIF_EMU_BASE, in command-line order; the accel
 * minors follow probe order, which nothing ties to those addresses: match
 * instances by name, never by minor. fdif_open() opens the instance at
 * FDIF_EMU_BASE (the one fdif_emu_inject() and fdif_emu_frame_time() drive),
 * or else the one at the lowest address.
 */
struct fdif_instance {
	int minor;		/* /dev/accel/accel<minor> */
	uint64_t base;		/* register address, from the name; UINT64_MAX: unknown */
	char name[64];		/* platform device name, "" if sysfs does not say */
};

/* The fdif instances, at most @max, by address. Return: how many, or -errno. */
int fdif_instances(struct fdif_instance *inst, int max);
/* Open /dev/accel/accel<minor>: the fd, or -ENODEV if its driver is not fdif. */
int fdif_open_minor(int minor);
/*
 * Counter @key of platform device @devname's debugfs stats
 * (/sys/kernel/debug/accel/<devname>/stats on 6.12, <minor>/stats on
 * kernels that name the directory by minor), or -1 (unbound: no stats).
 */
long long fdif_stat(const char *devname, const char *key);

/*
 * FDIF_DEV_FIXTURE(name) - the fixture most tests share: self->fd is an
 * open fdif device file, or the test is skipped. Use after including
 * kselftest_harness.h.
 */
#define FDIF_DEV_FIXTURE(name)					\
	FIXTURE(name) { int fd; };				\
	FIXTURE_SETUP(name)					\
	{							\
		self->fd = fdif_open();				\
		if (self->fd < 0)				\
			SKIP(return, "no fdif device");		\
	}							\
	FIXTURE_TEARDOWN(name)					\
	{							\
		if (self->fd >= 0)				\
			close(self->fd);			\
	}

/*
 * FDIF_JOB_FIXTURE(name, ...) - the fixture of the tests that run jobs:
 * self->fd an open fdif device file (or the test is skipped), self->j the
 * BOs of fdif_job_bos_new() with the astronaut in the picture BO, and
 * self->job a valid job on them. The statements given after the name end
 * the setup (a job's flags, a skip without the test registers...); one of
 * them may set self->faults, and then the teardown switches off any fault
 * left injected (only then: on a board, the emulator's registers are
 * not there to touch). Use after including kselftest_harness.h.
 */
#define FDIF_JOB_FIXTURE(name, ...)					\
	FIXTURE(name) {							\
		int fd;							\
		bool faults;						\
		struct fdif_job_bos j;					\
		struct drm_fdif_job job;				\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		self->fd = fdif_open();					\
		if (self->fd < 0)					\
			SKIP(return, "no fdif device");			\
		ASSERT_EQ(0, fdif_job_bos_new(self->fd, &self->j));	\
		ASSERT_EQ(0, fdif_load_picture("astronaut", self->j.pic.map)); \
		fdif_job_init(&self->job, &self->j);			\
		__VA_ARGS__;						\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		if (self->fd < 0)					\
			return;						\
		if (self->faults)					\
			fdif_emu_inject(FDIF_FAULT_NONE, 0);		\
		fdif_job_bos_free(self->fd, &self->j);			\
		close(self->fd);					\
	}

/*
 * Write all of @value to the sysfs, procfs or tracefs file @path (tracefs
 * takes one word a write): 0 or -errno.
 */
int sysfs_write(const char *path, const char *value);
/* Read @path into @buf, trailing newlines and spaces cut: 0 or -errno. */
int sysfs_read(const char *path, char *buf, size_t len);
/*
 * The runtime PM status of accel<@minor>'s device ("active", "suspended",
 * ...) in @buf, or "(unreadable)".
 */
void fdif_rpm_status(int minor, char *buf, size_t len);
/* Wait up to @ms for that status to be @want: true if it was. */
bool fdif_wait_rpm(int minor, const char *want, int ms);

#endif
