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

/* drm-usage-stats's standard keys; any other drm- key is a driver's mistake */
static int standard_drm_key(const char *key)
{
	static const char *const exact[] = { "drm-driver", "drm-pdev", "drm-client-id",
					     "drm-client-name" };
	static const char *const prefix[] = { "drm-engine-", "drm-engine-capacity-",
					      "drm-cycles-", "drm-total-cycles-",
					      "drm-maxfreq-", "drm-total-", "drm-shared-",
					      "drm-resident-", "drm-purgeable-", "drm-active-",
					      "drm-memory-" };
	size_t i;

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(key, exact[i]))
			return 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(key, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

/* Every key in @fd's fdinfo that starts with drm- and is not standard: 0 if none. */
static int nonstandard_drm_keys(int fd, char *bad, size_t len)
{
	char path[64], line[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	bad[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, ":")] = 0;
		if (!strncmp(line, "drm-", 4) && !standard_drm_key(line)) {
			snprintf(bad + strlen(bad), len - strlen(bad), " %s", line);
			n++;
		}
	}
	fclose(f);
	return n;
}

/* drm-total-memory of @fd in bytes (it is printed in B, KiB or MiB), or -1 */
static long long total_memory(int fd)
{
	char text[64], *unit;
	long long v = fdinfo_value(fd, "drm-total-memory", text, sizeof(text));

	if (v < 0)
		return -1;
	unit = strchr(text, ' ');
	if (unit && !strcmp(unit + 1, "KiB"))
		return v << 10;
	if (unit && !strcmp(unit + 1, "MiB"))
		return v << 20;
	return unit ? -1 : v;
}

TEST_F(dev, fdinfo_keys)
{
	char text[64], bad[256];
	int other = fdif_open();

	text[0] = 0;
	fdinfo_value(self->fd, "drm-driver", text, sizeof(text));
	EXPECT_STREQ("fdif", text);
	EXPECT_GE(fdinfo_value(self->fd, "drm-client-id", NULL, 0), 0);
	/* each open file is a client of its own */
	ASSERT_GE(other, 0);
	EXPECT_NE(fdinfo_value(self->fd, "drm-client-id", NULL, 0),
		  fdinfo_value(other, "drm-client-id", NULL, 0));
	close(other);
	/* a new file: no device time, no job, no memory */
	EXPECT_EQ(0, fdinfo_value(self->fd, "drm-engine-fdif", NULL, 0));
	EXPECT_EQ(0, fdinfo_value(self->fd, "fdif-jobs", NULL, 0));
	EXPECT_EQ(0, total_memory(self->fd));
	/* the driver's own keys are fdif-, never drm- (drm-usage-stats) */
	EXPECT_EQ(0, nonstandard_drm_keys(self->fd, bad, sizeof(bad)))
		TH_LOG("non-standard drm- keys:%s", bad);
}

TEST_F(dev, fdinfo_busy_time)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	long long busy, mem0, mem;
	int64_t t0, wall;
	int i;

	mem0 = total_memory(self->fd);
	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j));
	mem = total_memory(self->fd);
	/* the three BOs count, whole */
	EXPECT_GE(mem - mem0, (long long)(j.pic.size + j.work.size + j.result.size));
	fdif_job_init(&job, &j);
	t0 = fdif_now_ns();
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
		ASSERT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 20000000000ll));
	}
	wall = fdif_now_ns() - t0;
	busy = fdinfo_value(self->fd, "drm-engine-fdif", NULL, 0);
	/* three jobs of at least the 15 ms frame time each, one at a time:
	 * no more device time than the time they took */
	EXPECT_GE(busy, 3 * 15000000ll);
	EXPECT_LE(busy, wall);
	EXPECT_EQ(3, fdinfo_value(self->fd, "fdif-jobs", NULL, 0));
	TH_LOG("busy %lld ns of %lld ns after 3 jobs", busy, (long long)wall);
	fdif_job_bos_free(self->fd, &j);
	/* freed BOs no longer count */
	EXPECT_EQ(mem0, total_memory(self->fd));
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
