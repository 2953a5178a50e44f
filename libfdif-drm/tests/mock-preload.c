// SPDX-License-Identifier: MIT
/*
 * The fake fdif kernel (mock-kernel.c) as an LD_PRELOAD module, so that
 * the fdif-detect and libfdif-drm.so the build made run on a host:
 *
 *   FDIF_MOCK_DEVICE=/tmp/x/accel0 FDIF_MOCK_FACES='160,120,40,900' \
 *   LD_PRELOAD=.../libfdif-mock-kernel.so fdif-detect --device /tmp/x/accel0 a.png
 *
 * FDIF_MOCK_DEVICE names the file that stands for the device node (made
 * or emptied when the program starts; only that file is the device, any
 * other answers as a file that is no DRM node; unset: none is). FDIF_MOCK_FACES gives
 * the faces every job finds, "cx,cy,size,confidence[,height]" in the
 * device's 320x240 frame (size: the box's width; height, if given,
 * makes it a rectangle), separated by ';' (at most 4; empty or unset:
 * none). FDIF_MOCK_LOG names a file to which every job the fake kernel
 * accepted is appended, one line each (submit N job J: handle, imported,
 * offset, stride, size, directions, min size, threshold, ROI), so that a
 * test can check what a program asked the device for.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mock-kernel.h"

static dev_t dev_dev;
static ino_t dev_ino;
static FILE *log_file;		/* $FDIF_MOCK_LOG */

/* every job accepted, one line each (under mock_lock) */
static void log_submitted(const struct drm_fdif_job *jobs, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		const struct drm_fdif_job *j = &jobs[i];
		const struct drm_fdif_plane *p = &j->picture.planes[0];

		fprintf(log_file, "submit %u job %u: handle=%u imported=%d offset=%u stride=%u "
			"size=%ux%u directions=%u min=%ux%u threshold=%u roi=%u,%u,%u,%u\n",
			k.submits, i, p->handle,
			p->handle && p->handle <= MAX_BOS ? k.bo[p->handle - 1].imported : -1,
			p->offset, p->stride, j->picture.width, j->picture.height, j->directions,
			j->min_width, j->min_height, j->threshold, j->roi.x, j->roi.y,
			j->roi.width, j->roi.height);
	}
	fflush(log_file);
}

static int no_device(int fd)
{
	return 0;
}

static int is_device(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == dev_dev && st.st_ino == dev_ino;
}

static void parse_faces(const char *s)
{
	while (s && *s && k.nfaces < 4) {
		struct fake_face *f = &k.faces[k.nfaces];

		if (sscanf(s, "%d,%d,%u,%u,%u", &f->cx, &f->cy, &f->size, &f->confidence,
			   &f->height) < 4) {
			fprintf(stderr, "mock-preload: bad FDIF_MOCK_FACES '%s'\n", s);
			exit(99);
		}
		f->raw = f->confidence / 100;
		f->fields = 0x1f;
		k.nfaces++;
		s = strchr(s, ';');
		s = s ? s + 1 : NULL;
	}
}

__attribute__((constructor)) static void mock_init(void)
{
	const char *path = getenv("FDIF_MOCK_DEVICE");
	const char *log = getenv("FDIF_MOCK_LOG");
	struct stat st;

	k.fd = -1;
	if (log && *log) {
		log_file = fopen(log, "ae");
		if (!log_file) {
			perror(log);
			exit(99);
		}
		k.submitted = log_submitted;
	}
	k.is_device = no_device;	/* not asked for: no device at all */
	if (!path || !*path)
		return;
	k.fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (k.fd < 0 || fstat(k.fd, &st)) {
		perror(path);
		exit(99);
	}
	dev_dev = st.st_dev;
	dev_ino = st.st_ino;
	k.is_device = is_device;
	parse_faces(getenv("FDIF_MOCK_FACES"));
}
