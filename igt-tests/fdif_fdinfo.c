// SPDX-License-Identifier: MIT
/* IGT-style test: fdinfo keys, busy time, and runtime PM. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

FDIF_DEV_FIXTURE(dev);

/* The value of @key in this process's fdinfo for @fd, or -1. */
static long long fdinfo_value(int fd, const char *key, char *text, size_t len)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(key);

		if (!strncmp(line, key, n) && line[n] == ':') {
			char *p = line + n + 1;

			while (*p == ' ' || *p == '\t')
				p++;
			if (text) {
				snprintf(text, len, "%s", p);
				text[strcspn(text, "\n")] = 0;
			}
			v = strtoll(p, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

TEST_F(dev, fdinfo_keys)
{
	char text[64];

	text[0] = 0;
	fdinfo_value(self->fd, "drm-driver", text, sizeof(text));
	EXPECT_STREQ("fdif", text);
	EXPECT_GE(fdinfo_value(self->fd, "drm-client-id", NULL, 0), 0);
	EXPECT_EQ(0, fdinfo_value(self->fd, "drm-engine-fdif", NULL, 0));
	EXPECT_GE(fdinfo_value(self->fd, "drm-total-memory", NULL, 0), 0);
}

TEST_F(dev, fdinfo_busy_time)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	long long busy, mem;
	int i;

	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j));
	mem = fdinfo_value(self->fd, "drm-total-memory", NULL, 0);
	EXPECT_GE(mem, 0);
	fdif_job_init(&job, &j);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
		ASSERT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 20000000000ll));
	}
	busy = fdinfo_value(self->fd, "drm-engine-fdif", NULL, 0);
	/* three jobs of at least the 15 ms frame time each */
	EXPECT_GE(busy, 3 * 15000000ll);
	TH_LOG("busy %lld ns after 3 jobs", busy);
	fdif_job_bos_free(self->fd, &j);
}

/* The runtime PM status of the device behind @fd (not assumed to be accel0). */
static int runtime_status(int fd, char *buf, size_t len)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/power/runtime_status",
		 fdif_fd_minor(fd));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
	return 0;
}

TEST_F(dev, runtime_suspend_then_submit)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	char status[32];
	int i;

	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	/* idle: autosuspend after 50 ms */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, runtime_status(self->fd, status, sizeof(status)));
		if (!strcmp(status, "suspended"))
			break;
		usleep(20000);
	}
	EXPECT_STREQ("suspended", status);
	fdif_job_init(&job, &j);
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 20000000000ll));
	EXPECT_EQ(job.seqno, fdif_result(&j.result)->seqno);
	EXPECT_EQ(0, fdif_result(&j.result)->status);
	EXPECT_EQ(1, fdif_result(&j.result)->count);
	fdif_job_bos_free(self->fd, &j);
}

TEST_HARNESS_MAIN
