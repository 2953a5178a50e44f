// SPDX-License-Identifier: MIT
/*
 * The fake fdif kernel (mock-kernel.h): it keeps its BOs in the file k.fd
 * (the "device" the library opens and mmap()s) and writes k.faces into
 * a job's result when the job is submitted. One lock (mock_lock)
 * serialises its ioctls, as the driver's locks do. It also counts where
 * the DRM core's ioctls come from (k.by_libdrm, k.core_raw): the library
 * makes them through libdrm's helpers, not as raw ioctls.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <drm_fourcc.h>
#include <xf86drm.h>

#include "mock-kernel.h"

struct mock_kernel k;

#ifdef MOCK_LOCK_UNSEEN
/*
 * The ThreadSanitizer build (libfdif-device-mock-tsan): this file is built
 * without the sanitizer, and its lock is one the sanitizer does not see,
 * as it does not see a kernel's. A pthread mutex here would order the
 * library's threads at every ioctl in the sanitizer's eyes and hide a
 * race between two of them that the kernel would not prevent.
 */
static int mock_lock_word;

static void mock_lock_take(void)
{
	while (__atomic_exchange_n(&mock_lock_word, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void mock_lock_drop(void)
{
	__atomic_store_n(&mock_lock_word, 0, __ATOMIC_RELEASE);
}
#else
pthread_mutex_t mock_lock = PTHREAD_MUTEX_INITIALIZER;

static void mock_lock_take(void)
{
	pthread_mutex_lock(&mock_lock);
}

static void mock_lock_drop(void)
{
	pthread_mutex_unlock(&mock_lock);
}
#endif

/* libdrm, as far as the library uses it */

drmVersionPtr drmGetVersion(int fd)
{
	drmVersionPtr v;

	mock_lock_take();
	k.versions++;
	mock_lock_drop();
	if (k.is_device && !k.is_device(fd))
		return NULL;	/* as libdrm on a file that is no DRM node */
	v = calloc(1, sizeof(*v));
	v->name = strdup("fdif");
	v->name_len = 4;
	return v;
}

void drmFreeVersion(drmVersionPtr v)
{
	free(v->name);
	free(v);
}

static uint32_t bo_add(size_t size, int imported)
{
	uint32_t h;

	for (h = 0; h < MAX_BOS && k.bo[h].live; h++)
		;
	g_assert_cmpuint(h, <, MAX_BOS);
	size = (size + PAGE - 1) / PAGE * PAGE;
	k.bo[h].off = k.used;
	k.bo[h].size = size;
	k.bo[h].live = 1;
	k.bo[h].imported = imported;
	k.used += size;
	g_assert_cmpint(ftruncate(k.fd, (off_t)k.used), ==, 0);
	return h + 1;
}

/*
 * As the kernel's PRIME: a dma-buf already imported on this file gets the
 * handle it has (GEM handles are not counted: one GEM_CLOSE closes it).
 */
int drmPrimeFDToHandle(int fd, int prime_fd, uint32_t *handle)
{
	off_t size = lseek(prime_fd, 0, SEEK_END);
	struct stat st;
	uint32_t h;

	if (fstat(prime_fd, &st))
		return -1;
	mock_lock_take();
	k.prime_imports++;
	for (h = 0; h < MAX_BOS; h++)
		if (k.bo[h].live && k.bo[h].imported && k.bo[h].st_dev == st.st_dev &&
		    k.bo[h].st_ino == st.st_ino)
			break;
	if (h < MAX_BOS) {
		*handle = h + 1;
	} else {
		*handle = bo_add((size_t)size, 1);
		k.bo[*handle - 1].st_dev = st.st_dev;
		k.bo[*handle - 1].st_ino = st.st_ino;
	}
	mock_lock_drop();
	return 0;
}

static int bo_ok(uint32_t h)
{
	return h && h <= MAX_BOS && k.bo[h - 1].live;
}

/* min(size, answer) bytes, zeroes beyond, size = answer's: the contract */
static int answer(struct drm_fdif_query *q, const void *a, uint32_t size)
{
	if (q->pointer) {
		memcpy((void *)(uintptr_t)q->pointer, a, q->size < size ? q->size : size);
		if (q->size > size)
			memset((char *)(uintptr_t)q->pointer + size, 0, q->size - size);
	}
	q->size = size;
	return 0;
}

/* A grown structure: @s, then "extra" bytes a newer kernel knows. */
static uint32_t grown(void *buf, const void *s, uint32_t size)
{
	memcpy(buf, s, size);
	memset((char *)buf + size, 0x5a, k.extra);
	return size + k.extra;
}

static int fake_query(struct drm_fdif_query *q)
{
	static const struct drm_fdif_size sizes[] = { { 20, 20 }, { 25, 25 }, { 32, 32 }, { 40, 40 } };
	struct drm_fdif_device_info d = {
		.generation = DRM_FDIF_GEN_OMAP4, .revision = 0x42, .classes = 1,
		.directions = 7, .max_job_classes = 1, .max_job_directions = 1,
		.max_threshold = 9, .default_threshold = 5, .work_size = 53248,
		.work_align = 32, .roi_min_width = 20, .roi_min_height = 20,
		.roi_max_x = 160, .roi_max_y = 120, .max_jobs = 16, .max_syncs = 64,
	};
	struct drm_fdif_format_info f = {
		.fourcc = DRM_FORMAT_R8, .num_planes = 1, .flags = DRM_FDIF_FORMAT_PACKED_ROWS,
		.min_width = 320, .max_width = 320, .width_align = 1,
		.min_height = 240, .max_height = 240, .height_align = 1,
		.offset_align = 32, .stride_align = 1,
	};
	/* a format this library does not feed comes first */
	struct drm_fdif_format_info nv12 = f;
	struct drm_fdif_class_info c = { .object_class = DRM_FDIF_CLASS_FACE, .directions = 7 };
	uint32_t hs = 32 + k.extra, os = 40 + k.extra;
	struct drm_fdif_result_layout l = {
		.version = DRM_FDIF_RESULT_VERSION, .header_size = hs, .object_size = os,
		.capacity = 35, .size = RESULT_SIZE(hs, os), .align = 8,
		.object_fields = 0x1f,
	};
	char buf[1024];
	struct drm_fdif_query_list *list = (void *)buf;
	char *e = (char *)(list + 1);
	uint32_t i, n = 0;

	if (k.old_uapi) {
		/* GET_PARAM: a non-zero pad is refused, else a value is written */
		if (q->size)
			return -EINVAL;
		q->pointer = 0x2;
		return 0;
	}
	nv12.fourcc = DRM_FORMAT_NV12;
	nv12.num_planes = 2;
	if (k.v2) {
		d.generation = 2;
		d.classes = 3;
		d.max_job_directions = 2;
		f = (struct drm_fdif_format_info){
			.fourcc = DRM_FORMAT_R8, .num_planes = 1,
			.min_width = 64, .max_width = 640, .width_align = 16,
			.min_height = 48, .max_height = 480, .height_align = 2,
			.offset_align = 64, .stride_align = 64,
		};
		nv12 = f;
		nv12.fourcc = DRM_FORMAT_NV12;
		nv12.num_planes = 2;
	}
	switch (q->type) {
	case DRM_FDIF_QUERY_DEVICE:
		return answer(q, buf, grown(buf, &d, sizeof(d)));
	case DRM_FDIF_QUERY_RESULT_LAYOUT:
		return answer(q, buf, grown(buf, &l, sizeof(l)));
	case DRM_FDIF_QUERY_FORMATS:
		n += grown(e + n, &nv12, sizeof(nv12));
		if (!k.no_grey)
			n += grown(e + n, &f, sizeof(f));
		*list = (struct drm_fdif_query_list){ 2 - !!k.no_grey, sizeof(f) + k.extra };
		break;
	case DRM_FDIF_QUERY_MIN_SIZES:
		for (i = 0; i < 4; i++)
			n += grown(e + n, &sizes[i], sizeof(sizes[i]));
		*list = (struct drm_fdif_query_list){ 4, sizeof(sizes[0]) + k.extra };
		break;
	case DRM_FDIF_QUERY_CLASSES:
		n += grown(e + n, &c, sizeof(c));
		*list = (struct drm_fdif_query_list){ 1, sizeof(c) + k.extra };
		if (k.v2) {
			struct drm_fdif_class_info c1 = { .object_class = 1, .directions = 1 };

			n += grown(e + n, &c1, sizeof(c1));
			list->count = 2;
		}
		break;
	default:
		return -EINVAL;
	}
	return answer(q, buf, sizeof(*list) + n);
}

static int bo_ok(uint32_t h);

/* A plane of @rows rows of @row bytes, as the v2 device checks it. */
static int check_plane(const struct drm_fdif_plane *p, uint32_t row, uint32_t rows)
{
	if (!bo_ok(p->handle))
		return -ENOENT;
	if (p->offset % 64 || p->stride % 64 || p->stride < row || p->pad ||
	    p->offset + (uint64_t)p->stride * rows > k.bo[p->handle - 1].size)
		return -EINVAL;
	return 0;
}

/* The later generation's job: its formats, classes, two directions a job. */
static int check_job_v2(const struct drm_fdif_job *j)
{
	const struct drm_fdif_picture *pic = &j->picture;
	uint32_t planes = pic->fourcc == DRM_FORMAT_NV12 ? 2 : 1, i;
	int ret;

	if (j->flags & ~DRM_FDIF_JOB_FENCE_FD_OUT ||
	    (pic->fourcc != DRM_FORMAT_R8 && pic->fourcc != DRM_FORMAT_NV12) ||
	    (k.no_grey && pic->fourcc == DRM_FORMAT_R8) ||
	    pic->width < 64 || pic->width > 640 || pic->width % 16 ||
	    pic->height < 48 || pic->height > 480 || pic->height % 2 ||
	    (j->classes != 1 && j->classes != 2) || !j->directions || j->directions >= 7 ||
	    (j->classes == 2 && j->directions != 1) ||
	    j->threshold > 9 || j->in_sync_count > 64 || j->out_sync_count > 64 ||
	    j->roi.x + j->roi.width > pic->width || j->roi.y + j->roi.height > pic->height)
		return -EINVAL;
	for (i = planes; i < DRM_FDIF_MAX_PLANES; i++)
		if (pic->planes[i].handle || pic->planes[i].offset || pic->planes[i].stride)
			return -EINVAL;
	ret = check_plane(&pic->planes[0], pic->width, pic->height);
	if (!ret && planes == 2)
		ret = check_plane(&pic->planes[1], pic->width, pic->height / 2);
	if (ret)
		return ret;
	for (i = 0; i < j->in_sync_count; i++) {
		const struct drm_fdif_sync *s = (const void *)(uintptr_t)(j->in_syncs + i * sizeof(*s));

		if (!s->handle || s->handle > k.syncobjs || s->flags || s->mbz)
			return -ENOENT;
	}
	if (!bo_ok(j->work_handle) || !bo_ok(j->result_handle))
		return -ENOENT;
	return 0;
}

/* What the kernel checks of a job, as far as the library's jobs go. */
static int check_job(const struct drm_fdif_job *j)
{
	const struct drm_fdif_plane *p = &j->picture.planes[0];
	uint32_t ms = j->min_width;

	if (k.v2)
		return check_job_v2(j);
	if (j->in_sync_count)
		return -ENOENT;		/* the OMAP4 tests give none */
	if (j->flags & ~DRM_FDIF_JOB_FENCE_FD_OUT || j->picture.fourcc != DRM_FORMAT_R8 ||
	    j->picture.width != 320 || j->picture.height != 240 || p->stride != 320 ||
	    p->offset % 32 || j->classes != 1 || !j->directions ||
	    j->directions & (j->directions - 1) || j->directions > 4 ||
	    !(ms == 20 || ms == 25 || ms == 32 || ms == 40) || j->min_height != ms ||
	    j->threshold > 9 || j->result_size < RESULT_SIZE(32 + k.extra, 40 + k.extra) ||
	    j->result_offset % 8 || j->work_offset % 32 || j->out_sync_count > 64)
		return -EINVAL;
	if (!bo_ok(p->handle) || !bo_ok(j->work_handle) || !bo_ok(j->result_handle))
		return -ENOENT;
	if (p->offset + 320 * 240 > k.bo[p->handle - 1].size ||
	    k.bo[j->work_handle - 1].size < 53248 ||
	    k.bo[j->result_handle - 1].imported)
		return -EINVAL;
	return 0;
}

/* The job's result, as the kernel writes it before the fence signals. */
void write_result(const struct drm_fdif_job *j, uint64_t seqno)
{
	uint32_t hs = 32 + k.extra, os = 40 + k.extra, i;
	char buf[RESULT_SIZE(32 + 64, 40 + 64)];
	struct drm_fdif_result_header h = {
		.version = DRM_FDIF_RESULT_VERSION, .header_size = hs, .object_size = os,
		.capacity = 35, .count = k.status ? 0 : k.nfaces, .status = k.status,
		.seqno = seqno,
	};

	memset(buf, 0x77, sizeof(buf));	/* stale bytes */
	grown(buf, &h, sizeof(h));
	for (i = 0; i < h.count; i++) {
		const struct fake_face *f = &k.faces[i];
		struct drm_fdif_object o = {
			.fields = f->fields, .object_class = DRM_FDIF_CLASS_FACE,
			.x = f->cx - (int)(f->size / 2),
			.y = f->cy - (int)((f->height ? f->height : f->size) / 2),
			.width = f->size, .height = f->height ? f->height : f->size,
			.angle = f->angle,
			.direction = f->direction, .confidence = f->confidence,
			.raw_confidence = f->raw,
		};

		grown(buf + hs + i * os, &o, sizeof(o));
	}
	g_assert_cmpint(pwrite(k.fd, buf, hs + h.count * os,
			       (off_t)(k.bo[j->result_handle - 1].off + j->result_offset)), >, 0);
}

/* A fence for a job: one that never signals for a hung job if asked (hang_fences). */
static int fence_fd(void)
{
	static int never[2] = { -1, -1 };

	if (!k.busy || !k.hang_fences)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (never[0] < 0)
		g_assert_cmpint(pipe2(never, O_CLOEXEC), ==, 0);
	return fcntl(never[0], F_DUPFD_CLOEXEC, 0);
}

static int fake_submit(struct drm_fdif_submit *s)
{
	struct drm_fdif_job *jobs = (void *)(uintptr_t)s->jobs;
	unsigned int i;
	int ret;

	if (s->flags || s->pad || !s->job_count || s->job_count > 16 ||
	    s->job_size != sizeof(struct drm_fdif_job))
		return -EINVAL;
	for (i = 0; i < s->job_count; i++) {
		ret = check_job(&jobs[i]);
		if (ret)
			return ret;
	}
	k.submits++;
	k.job_count = s->job_count;
	for (i = 0; i < s->job_count; i++) {
		jobs[i].seqno = ++k.seqno;
		jobs[i].fence_fd = jobs[i].flags & DRM_FDIF_JOB_FENCE_FD_OUT ? fence_fd() : 0;
		k.jobs[i] = jobs[i];
		memset(k.in_syncs[i], 0, sizeof(k.in_syncs[i]));
		if (jobs[i].in_sync_count)
			memcpy(k.in_syncs[i], (void *)(uintptr_t)jobs[i].in_syncs,
			       (jobs[i].in_sync_count < 8 ? jobs[i].in_sync_count : 8) *
			       sizeof(struct drm_fdif_sync));
		if (!k.busy)
			write_result(&jobs[i], jobs[i].seqno);
	}
	if (k.submitted)
		k.submitted(jobs, s->job_count);
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int fake_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case DRM_IOCTL_FDIF_QUERY:
		return fake_query(arg);
	case DRM_IOCTL_FDIF_BO_CREATE: {
		struct drm_fdif_bo_create *c = arg;

		if (!c->size || c->flags || c->pad || c->pad2)
			return -EINVAL;
		c->handle = bo_add(c->size, 0);
		k.bo_creates++;
		return 0;
	}
	case DRM_IOCTL_FDIF_BO_MMAP_OFFSET: {
		struct drm_fdif_bo_mmap_offset *m = arg;

		if (!bo_ok(m->handle))
			return -ENOENT;
		if (k.bo[m->handle - 1].imported)
			return -EINVAL;		/* mapped through its dma-buf */
		m->offset = k.bo[m->handle - 1].off;
		return 0;
	}
	case DRM_IOCTL_GEM_CLOSE: {
		struct drm_gem_close *c = arg;

		if (!bo_ok(c->handle))
			return -EINVAL;
		k.bo[c->handle - 1].live = 0;
		return 0;
	}
	case DRM_IOCTL_FDIF_SUBMIT:
		return fake_submit(arg);
	case DRM_IOCTL_SYNCOBJ_CREATE:
		((struct drm_syncobj_create *)arg)->handle = ++k.syncobjs;
		return 0;
	case DRM_IOCTL_SYNCOBJ_DESTROY:
		k.syncobjs_destroyed++;
		return 0;
	case DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE: {
		struct drm_syncobj_handle *h = arg;

		if (h->flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE ||
		    !h->handle || h->handle > k.syncobjs || h->fd < 0 || h->pad)
			return -EINVAL;
		if (k.fd_imports < 8)
			k.imported_fds[k.fd_imports] = h->fd;
		k.fd_imports++;
		return 0;
	}
	case DRM_IOCTL_SYNCOBJ_WAIT: {
		struct drm_syncobj_wait *w = arg;

		k.wait_deadline = w->timeout_nsec;
		k.wait_flags = w->flags;
		k.wait_handles = w->count_handles;
		if (!k.busy)
			w->first_signaled = w->count_handles - 1;	/* any: the last */
		if (w->timeout_nsec > k.max_wait_deadline)
			k.max_wait_deadline = w->timeout_nsec;
		if (k.busy && w->timeout_nsec > now_ns()) {
			k.blocking_waits++;
			if (k.blocking_waits == 1 || w->timeout_nsec < k.min_block_deadline)
				k.min_block_deadline = w->timeout_nsec;
			if (k.blocking_waits == 1 || w->timeout_nsec > k.max_block_deadline)
				k.max_block_deadline = w->timeout_nsec;
		}
		return k.busy ? -ETIME : 0;
	}
	default:
		return -ENOTTY;
	}
}

/* The DRM core's ioctls the library uses: their k.by_libdrm[] index, or -1. */
static int core_ioctl(unsigned long request)
{
	switch (request) {
	case DRM_IOCTL_SYNCOBJ_CREATE:
		return MOCK_SYNCOBJ_CREATE;
	case DRM_IOCTL_SYNCOBJ_DESTROY:
		return MOCK_SYNCOBJ_DESTROY;
	case DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE:
		return MOCK_SYNCOBJ_FD_TO_HANDLE;
	case DRM_IOCTL_SYNCOBJ_WAIT:
		return MOCK_SYNCOBJ_WAIT;
	case DRM_IOCTL_GEM_CLOSE:
		return MOCK_GEM_CLOSE;
	default:
		return -1;
	}
}

/* Is @addr (a return address) in libdrm's code? */
static int in_libdrm(const void *addr)
{
	Dl_info info;
	const char *base;

	if (!dladdr(addr, &info) || !info.dli_fname)
		return 0;
	base = strrchr(info.dli_fname, '/');
	return !strncmp(base ? base + 1 : info.dli_fname, "libdrm.so", 9);
}

int drmIoctl(int fd, unsigned long request, void *arg)
{
	int core = core_ioctl(request);
	int libdrm = core >= 0 && in_libdrm(__builtin_return_address(0));
	int64_t nap = 0;
	int ret;

	mock_lock_take();
	if (core >= 0 && libdrm)
		k.by_libdrm[core]++;
	else if (core >= 0)
		k.core_raw++;
	ret = fake_ioctl(request, arg);
	if (request == DRM_IOCTL_SYNCOBJ_WAIT && ret == -ETIME && k.wait_sleep_ms) {
		int64_t left = (int64_t)((struct drm_syncobj_wait *)arg)->timeout_nsec - now_ns();

		nap = MIN((int64_t)k.wait_sleep_ms * 1000000, left);
	}
	mock_lock_drop();
	if (nap > 0) {
		struct timespec ts = { nap / 1000000000, nap % 1000000000 };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}

	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}
