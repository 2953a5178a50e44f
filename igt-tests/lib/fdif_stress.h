/* SPDX-License-Identifier: MIT */
/*
 * What the reliability suite's programs (fdif_stress_*.c, one a concern,
 * run on the debug kernel) share: the instance they work on, the
 * driver's counters, fences, sysfs, unloading and reloading the module,
 * the test module fdif_delay (kmod/) and sw_sync points. Every helper
 * returns 0 (or a value) or a negative errno, unless it says otherwise.
 * The last part, for the test programs, uses kselftest_harness.h's
 * macros: include this header after it there.
 */
#ifndef FDIF_STRESS_H
#define FDIF_STRESS_H

#include <stdint.h>

#include "fdif_test.h"

#define WAIT_NS		60000000000ll
#define DEV_NAME	"c000000.fdif"
#define DRV_DIR		"/sys/bus/platform/drivers/fdif"
#define FDIF_REFCNT	"/sys/module/fdif/refcnt"
/* the test module, built by the harness against the debug kernel */
#define DELAY_KO	"/lib/fdif-test/fdif_delay.ko"
#define DELAY_PARAMS	"/sys/module/fdif_delay/parameters/"
#define MAX_STALLS	64

/*
 * An ROI around the astronaut's marked face, and the face: set by
 * fdif_stress_init() (FDIF_STRESS_MAIN) before the tests run.
 */
extern struct drm_fdif_roi face_roi;
extern struct fdif_box face_truth;
void fdif_stress_init(void);

long long stat_value(const char *key);
int all_accounted(int ms);
/* The live BO count back to @base within @ms: 1, or 0. */
int bos_back_to(long long base, int ms);
int fence_wait_ts(int fd, int64_t ns, uint64_t *ts);
int fence_wait(int fd, int64_t ns);
/* One job and its fence: the fence's status; *@count the faces it found. */
int run_one(int fd, struct drm_fdif_job *job, struct fdif_job_bos *j, int *count);
int wait_node(int present);
long long module_refs(void);
int unload_driver(void);
int reload_driver(unsigned int timeout_ms);
int knob_read(const char *path, char *buf, size_t len);
long long knob_value(const char *path);
int read_stalls(uint64_t start[MAX_STALLS], uint64_t end[MAX_STALLS]);

/* sw_sync (drivers/dma-buf/sw_sync.c, CONFIG_SW_SYNC) has no uAPI header */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};

#define SW_SYNC_PATH		"/sys/kernel/debug/sync/sw_sync"
#define SW_SYNC_IOC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC		_IOW('W', 1, __u32)
int sw_sync_signal(int tl);
uint32_t syncobj_from_sync_file(int fd, int fence);
/* An fd through a unix socket (SCM_RIGHTS): from a child that exits, say. */
int fd_send(int sock, int fd);
/* The fd fd_send() sent, close-on-exec, or -errno. */
int fd_receive(int sock);

#ifdef TEST_HARNESS_MAIN	/* kselftest_harness.h: the test programs */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* A job on a new file of DEV_NAME finds the face. */
static inline void good_job(struct __test_metadata *_metadata)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int fd = fdif_open(), count;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, fdif_job_bos_new(fd, &j));
	ASSERT_EQ(0, fdif_load_picture("astronaut", j.pic.map));
	fdif_job_init(&job, &j);
	job.roi = face_roi;
	job.flags = DRM_FDIF_JOB_FENCE_FD_OUT;
	ASSERT_EQ(1, run_one(fd, &job, &j, &count));
	ASSERT_EQ(1, count);
	fdif_job_bos_free(fd, &j);
	close(fd);
}

/* A sw_sync timeline (an fd) and in *@fence a point 1 on it no one signals. */
static inline int sw_sync_point(struct __test_metadata *_metadata, int *fence)
{
	struct sw_sync_create_fence_data d = { .value = 1, .name = "fdif-test" };
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);

	ASSERT_GE(tl, 0) TH_LOG(SW_SYNC_PATH ": %s (the stress kernel has CONFIG_SW_SYNC)",
				strerror(errno));
	ASSERT_EQ(0, ioctl(tl, SW_SYNC_IOC_CREATE_FENCE, &d));
	*fence = d.fence;
	return tl;
}

/* For tests that need nothing but a longer timeout than TEST()'s 30 s. */
#define FDIF_PLAIN_FIXTURE						\
	FIXTURE(plain) {						\
		int unused;						\
	};								\
									\
	FIXTURE_SETUP(plain)						\
	{								\
		if (access("/dev/accel/accel0", F_OK))			\
			SKIP(return, "no fdif device");			\
	}								\
									\
	FIXTURE_TEARDOWN(plain)						\
	{								\
	}

/* main(): the face the tests look for, then the tests */
#define FDIF_STRESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		fdif_stress_init();					\
		return test_harness_run(argc, argv);			\
	}

#endif	/* TEST_HARNESS_MAIN */

#endif
