/* SPDX-License-Identifier: MIT */
/*
 * A fake fdif kernel for the host tests (mock-kernel.c): drmIoctl(),
 * drmGetVersion() and drmPrimeFDToHandle() answering as the fdif uAPI's
 * contract says the OMAP4 generation does. Linked into the device tests
 * (test-device-mock.c) in place of libdrm's, and preloaded under
 * fdif-detect (mock-preload.c) so the CLI runs on a host. libdrm's other
 * helpers (drmSyncobj*(), drmCloseBufferHandle()) are libdrm's own in
 * both: they call drmIoctl() through libdrm's PLT, so this one serves
 * them.
 */
#ifndef FDIF_MOCK_KERNEL_H
#define FDIF_MOCK_KERNEL_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "fdif_accel.h"

#define PAGE		4096
#define MAX_BOS		256
#define RESULT_SIZE(hs, os)	((hs) + 35 * (os))

/* the DRM core's ioctls the library uses, counted in k.by_libdrm[] */
enum {
	MOCK_SYNCOBJ_CREATE, MOCK_SYNCOBJ_DESTROY, MOCK_SYNCOBJ_FD_TO_HANDLE,
	MOCK_SYNCOBJ_WAIT, MOCK_GEM_CLOSE, MOCK_CORE_IOCTLS
};

struct fake_face {
	int cx, cy;
	unsigned int size, angle, direction, confidence, raw;
	uint32_t fields;
	unsigned int height;	/* 0: size (a square) */
};

struct mock_kernel {
	int fd;				/* the device: a file holding the BOs */
	size_t used;
	struct {
		size_t off, size;
		int live, imported;
		dev_t st_dev;		/* imported: the dma-buf (a file) */
		ino_t st_ino;
	} bo[MAX_BOS];
	uint32_t extra;			/* bytes a later kernel appends */
	int old_uapi;			/* a kernel with GET_PARAM at 0x00 */
	int busy;			/* jobs never finish */
	int32_t status;			/* the next results' status */
	uint64_t seqno;
	uint32_t syncobjs;
	struct drm_fdif_job jobs[16];	/* the last submission */
	unsigned int job_count, submits, prime_imports;
	int64_t wait_deadline;
	uint32_t wait_flags, wait_handles;	/* the last SYNCOBJ_WAIT's */
	unsigned int bo_creates;		/* BO_CREATE calls */
	struct fake_face faces[4];
	unsigned int nfaces;
	int (*is_device)(int fd);	/* NULL: every file is the device */
	/*
	 * A later generation, not the OMAP4: R8 and NV12 pictures of
	 * 64x48..640x480 (width a multiple of 16, height of 2, offsets of
	 * 64, strides of 64, rows not packed), two classes (faces in every
	 * direction, class 1 upright only), two directions a job.
	 */
	int v2;
	int no_grey;				/* v2, NV12 only */
	struct drm_fdif_sync in_syncs[16][8];	/* the last submission's */
	unsigned int fd_imports, syncobjs_destroyed;
	int imported_fds[8];			/* SYNCOBJ_FD_TO_HANDLE's fds */
	/*
	 * With busy: the jobs' fences never signal (a pipe's read end that
	 * nobody writes), as a hung job's sync_file; 0: /dev/null, readable
	 * at once
	 */
	int hang_fences;
	int64_t max_wait_deadline;		/* the latest SYNCOBJ_WAIT deadline */
	/*
	 * With busy: a SYNCOBJ_WAIT whose deadline is ahead (one that would
	 * block) sleeps this long, at most until its deadline, before it
	 * times out, as a wait on a hung job takes time (outside mock_lock);
	 * 0: it times out at once. Those waits are counted, with the
	 * earliest and the latest of their deadlines.
	 */
	unsigned int wait_sleep_ms;
	unsigned int blocking_waits;
	int64_t min_block_deadline, max_block_deadline;
	/*
	 * Called with each submission the fake kernel accepted (its jobs, with
	 * their seqnos), under mock_lock: a test's record of every job, not
	 * only the last submission's (k.jobs). NULL: none.
	 */
	void (*submitted)(const struct drm_fdif_job *jobs, unsigned int count);
	/*
	 * The DRM core's ioctls (syncobjs, GEM_CLOSE) the fake kernel served,
	 * by where drmIoctl() was called from: libdrm's own helpers
	 * (drmSyncobjCreate(), drmCloseBufferHandle()...), which reach this
	 * drmIoctl() through libdrm's PLT, or anywhere else (a raw ioctl of
	 * the library's). by_libdrm[] counts each of SYNCOBJ_CREATE,
	 * SYNCOBJ_DESTROY, SYNCOBJ_FD_TO_HANDLE, SYNCOBJ_WAIT and GEM_CLOSE.
	 */
	unsigned int versions;		/* drmGetVersion() calls: nodes asked */
	unsigned int core_raw;
	unsigned int by_libdrm[MOCK_CORE_IOCTLS];
};

extern struct mock_kernel k;
extern pthread_mutex_t mock_lock;

/* the job's result, as the kernel writes it before the fence signals */
void write_result(const struct drm_fdif_job *j, uint64_t seqno);

#endif
