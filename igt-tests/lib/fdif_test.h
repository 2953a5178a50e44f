/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the fdif uAPI tests (IGT-style, on the kernel's
 * kselftest_harness.h). Every helper returns 0 or a negative errno.
 */
#ifndef FDIF_TEST_H
#define FDIF_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/drm.h>
#include <drm/fdif_accel.h>

#include "fdif_truth.h"

#define FDIF_W		320
#define FDIF_H		240
#define FDIF_PIC_SIZE	(FDIF_W * FDIF_H)
#define FDIF_WORK_SIZE	(52 * 1024)

/* Where the test pictures are in the guest. */
#define FDIF_DATA_DIR	"/data"

/* Emulated FDIF fault modes (QEMU's EMU_FAULT register). */
enum fdif_fault {
	FDIF_FAULT_NONE = 0,
	FDIF_FAULT_HANG = 1,
	FDIF_FAULT_ERR = 2,
	FDIF_FAULT_SPURIOUS = 3,
	FDIF_FAULT_DMA = 4,
	FDIF_FAULT_LOST_IRQ = 5,
};

/* A BO and its CPU mapping. */
struct fdif_bo {
	uint32_t handle;
	size_t size;
	void *map;
};

/* The three BOs of a job and a ready-to-use submission. */
struct fdif_job_bos {
	struct fdif_bo pic, work, result;
};

int fdif_open(void);
int fdif_ioctl(int fd, unsigned long request, void *arg);
int fdif_get_param(int fd, uint32_t param, uint64_t *value);
int fdif_bo_create(int fd, size_t size, uint32_t *handle);
int fdif_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
int fdif_bo_new(int fd, size_t size, struct fdif_bo *bo);
void fdif_bo_free(int fd, struct fdif_bo *bo);
int fdif_bo_wait(int fd, uint32_t handle, int64_t timeout_ns);
int fdif_gem_close(int fd, uint32_t handle);

int fdif_job_bos_new(int fd, struct fdif_job_bos *j);
void fdif_job_bos_free(int fd, struct fdif_job_bos *j);
void fdif_submit_init(struct drm_fdif_submit *s, const struct fdif_job_bos *j);
int fdif_submit(int fd, struct drm_fdif_submit *s);

int fdif_load_picture(const char *name, void *dst);

bool fdif_object_on(const struct drm_fdif_object *o, const struct fdif_box *b);
int fdif_result_check(const struct drm_fdif_result *r, const struct fdif_box *truth,
		      int marked, char *why, size_t len);
struct drm_fdif_roi fdif_roi_around(const struct fdif_box *b);
int fdif_syncobj_create(int fd, uint32_t flags, uint32_t *handle);
int fdif_syncobj_wait(int fd, uint32_t handle, uint64_t point, int64_t timeout_ns);
int fdif_syncobj_destroy(int fd, uint32_t handle);
int64_t fdif_now_ns(void);

/* Fault injection through the emulated device (QEMU test-regs=on). */
bool fdif_emu_available(void);
int fdif_emu_inject(enum fdif_fault fault, uint32_t jobs);
/* The device's time for a full 320x240 frame (scaled by the ROI's area). */
int fdif_emu_frame_time(uint32_t us);
#define FDIF_EMU_FRAME_TIME_DEFAULT	15000

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

#endif
