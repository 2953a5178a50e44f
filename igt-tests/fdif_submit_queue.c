// SPDX-License-Identifier: MIT
/*
 * IGT-style test: DRM_IOCTL_FDIF_SUBMIT, the queue: many jobs in order,
 * batches (a fence each, refused whole for one bad job, the most a
 * submission takes), threads and files submitting at once, and a file
 * closed with its jobs queued.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_submit.h"

TEST_F(job, many_jobs_in_order)
{
	enum { N = 12 };
	struct fdif_job_bos j[N];
	struct drm_fdif_job job[N];
	uint64_t prev = 0, ts = 0;
	int i;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j[i]));
		ASSERT_EQ(0, fdif_load_picture(i % 2 ? "landscape" : "astronaut",
					       j[i].pic.map));
		fdif_job_init(&job[i], &j[i]);
		job[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job[i]));
		if (i)
			EXPECT_EQ(job[i - 1].seqno + 1, job[i].seqno);
	}
	for (i = 0; i < N; i++) {
		struct drm_fdif_result_header *r = result_of(&j[i]);

		ASSERT_EQ(0, wait_result(self->fd, &j[i]));
		EXPECT_EQ(job[i].seqno, r->seqno);
		if (i % 2) {
			check_empty(_metadata, r);
		} else {
			check_astronaut(_metadata, r);
		}
		/* fences of one file signal in submission order */
		ASSERT_EQ(1, fence_status(job[i].fence_fd, &ts));
		EXPECT_LE(prev, ts);
		prev = ts;
		close(job[i].fence_fd);
		fdif_job_bos_free(self->fd, &j[i]);
	}
}

/* --- batches ---------------------------------------------------------- */

/*
 * Four jobs in one submission on one picture: consecutive seqnos, a fence
 * each, signalled in array order, every result its own job's (the second
 * job's ROI misses the face).
 */
TEST_F(job, batch_four_jobs)
{
	enum { N = 4 };
	struct drm_fdif_job jobs[N];
	struct fdif_bo res[N];
	uint64_t prev = 0, ts = 0;
	int i, k;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
		memset(res[i].map, 0xa5, res[i].size);
		jobs[i] = self->job;
		jobs[i].result_handle = res[i].handle;
		jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		jobs[i].fence_fd = -1;
	}
	jobs[1].roi = ROI_NO_FACE;
	ASSERT_EQ(0, fdif_submit_jobs(self->fd, jobs, N));
	EXPECT_EQ(1, jobs[0].seqno);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(jobs[0].seqno + i, jobs[i].seqno);
		ASSERT_GE(jobs[i].fence_fd, 0);
		for (k = 0; k < i; k++) {
			EXPECT_NE(jobs[k].fence_fd, jobs[i].fence_fd);
		}
	}
	for (i = 0; i < N; i++) {
		struct pollfd p = { .fd = jobs[i].fence_fd, .events = POLLIN };
		struct drm_fdif_result_header *r = res[i].map;

		ASSERT_EQ(1, poll(&p, 1, WAIT_NS / 1000000)) TH_LOG("job %d", i);
		EXPECT_TRUE(p.revents & POLLIN);
		ASSERT_EQ(1, fence_status(jobs[i].fence_fd, &ts));
		EXPECT_LE(prev, ts) TH_LOG("job %d signalled before job %d", i, i - 1);
		prev = ts;
		/* the result is written before the fence signals */
		EXPECT_EQ(jobs[i].seqno, r->seqno);
		if (i == 1)
			check_empty(_metadata, r);
		else
			check_astronaut(_metadata, r);
		close(jobs[i].fence_fd);
		fdif_bo_free(self->fd, &res[i]);
	}
}

/*
 * A batch whose third job is bad is refused whole: no job queued (the
 * earlier ones' result BOs stay idle and untouched, their out-syncs
 * unsignalled), no fence fd left open, the file's seqno not advanced.
 */
TEST_F(job, batch_bad_job_nothing_queued)
{
	enum { N = 4 };
	struct drm_fdif_sync in_bad = { .handle = 4242 }, out = { 0 };
	struct drm_fdif_job jobs[N], good = self->job;
	struct fdif_bo res[N];
	uint64_t prev;
	uint32_t obj;
	int i, kind, fds;

	/* a good job first: the file's seqnos have started */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &good));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	prev = good.seqno;
	ASSERT_EQ(0, fdif_syncobj_create(self->fd, 0, &obj));
	out.handle = obj;
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
	}
	fds = fdif_count_fds();
	ASSERT_GT(fds, 0);

	for (kind = 0; kind < 5; kind++) {
		int want;

		for (i = 0; i < N; i++) {
			memset(res[i].map, 0xa5, res[i].size);
			jobs[i] = self->job;
			jobs[i].result_handle = res[i].handle;
			jobs[i].flags = DRM_FDIF_JOB_FENCE_FD_OUT;
		}
		jobs[0].out_sync_count = 1;
		jobs[0].out_syncs = (uintptr_t)&out;
		switch (kind) {
		case 0:
			jobs[2].picture.fourcc = DRM_FORMAT_NV12;
			want = -EINVAL;
			break;
		case 1:
			jobs[2].result_handle = 9999;
			want = -ENOENT;
			break;
		case 2:
			jobs[2].in_sync_count = 1;
			jobs[2].in_syncs = (uintptr_t)&in_bad;
			want = -ENOENT;
			break;
		case 3:
			jobs[2].directions = 0;
			want = -EINVAL;
			break;
		default:
			jobs[2].result_size = self->j.caps.layout.size - 1;
			want = -EINVAL;
			break;
		}
		EXPECT_EQ(want, fdif_submit_jobs(self->fd, jobs, N)) TH_LOG("bad job kind %d", kind);
		EXPECT_EQ(fds, fdif_count_fds()) TH_LOG("bad job kind %d: fence fds leaked", kind);
		for (i = 0; i < N; i++) {
			EXPECT_EQ(0, fdif_bo_wait(self->fd, res[i].handle, 0));
			EXPECT_EQ(0xa5a5a5a5u, *(uint32_t *)res[i].map)
				TH_LOG("bad job kind %d: job %d wrote its result", kind, i);
		}
		/* job 0's out-sync got no fence */
		EXPECT_EQ(-ETIME, fdif_syncobj_wait(self->fd, obj, 0, 0));
	}
	/* give the kernel a moment to run anything it wrongly queued */
	usleep(100000);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(0xa5a5a5a5u, *(uint32_t *)res[i].map) TH_LOG("job %d", i);
	}

	/* the next job takes the next seqno */
	good = self->job;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &good));
	EXPECT_EQ(prev + 1, good.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(good.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
	EXPECT_EQ(fds, fdif_count_fds());
	fdif_syncobj_destroy(self->fd, obj);
	for (i = 0; i < N; i++)
		fdif_bo_free(self->fd, &res[i]);
}

/* The most jobs one submission takes, each on its own result. */
TEST_F(job, batch_max_jobs)
{
	uint32_t n = self->j.caps.dev.max_jobs, i;
	struct drm_fdif_job *jobs;
	struct fdif_bo *res;
	struct fdif_box t;
	struct drm_fdif_roi roi;

	ASSERT_EQ(1, fdif_load_truth("astronaut", &t, 1));
	roi = fdif_roi_around(&t);
	jobs = calloc(n, sizeof(*jobs));
	res = calloc(n, sizeof(*res));
	ASSERT_TRUE(jobs && res);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, self->j.caps.layout.size, &res[i]));
		jobs[i] = self->job;
		jobs[i].result_handle = res[i].handle;
		jobs[i].roi = i % 2 ? ROI_NO_FACE : roi;
	}
	ASSERT_EQ(0, fdif_submit_jobs(self->fd, jobs, n));
	for (i = 0; i < n; i++) {
		struct drm_fdif_result_header *r = res[i].map;

		EXPECT_EQ(i + 1, jobs[i].seqno);
		ASSERT_EQ(0, fdif_bo_wait_for(self->fd, res[i].handle, WAIT_NS));
		EXPECT_EQ(jobs[i].seqno, r->seqno);
		if (i % 2)
			check_empty(_metadata, r);
		else
			check_astronaut(_metadata, r);
		fdif_bo_free(self->fd, &res[i]);
	}
	free(res);
	free(jobs);
}

/* --- concurrency ------------------------------------------------------ */

struct worker {
	int fd;
	int jobs;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	char why[160];
	int i;

	if (fdif_job_bos_new(w->fd, &j) || fdif_load_picture("astronaut", j.pic.map)) {
		w->failures = w->jobs;
		return NULL;
	}
	for (i = 0; i < w->jobs; i++) {
		struct drm_fdif_result_header *r = fdif_result(&j.result);

		memset(r, 0xff, j.caps.layout.size);
		fdif_job_init(&job, &j);
		if (fdif_submit_one(w->fd, &job) ||
		    fdif_bo_wait_for(w->fd, j.result.handle, WAIT_NS) ||
		    r->seqno != job.seqno || !astronaut_ok(r, why, sizeof(why)))
			w->failures++;
	}
	fdif_job_bos_free(w->fd, &j);
	return NULL;
}

TEST_F(job, many_threads)
{
	enum { T = 4 };
	pthread_t th[T];
	struct worker w[T];
	int i;

	for (i = 0; i < T; i++) {
		w[i] = (struct worker){ .fd = self->fd, .jobs = 4 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < T; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d", i);
	}
}

TEST_F(job, many_files)
{
	enum { F = 6 };
	pthread_t th[F];
	struct worker w[F];
	int i;

	for (i = 0; i < F; i++) {
		w[i] = (struct worker){ .fd = fdif_open(), .jobs = 2 };
		ASSERT_GE(w[i].fd, 0);
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < F; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("file %d", i);
		close(w[i].fd);
	}
}

TEST_F(job, close_while_queued)
{
	int status, round;

	for (round = 0; round < 3; round++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (!pid) {
			struct fdif_job_bos j;
			struct drm_fdif_job jobs[5];
			int fd = fdif_open(), i;

			if (fd < 0 || fdif_job_bos_new(fd, &j))
				_exit(1);
			for (i = 0; i < 5; i++)
				fdif_job_init(&jobs[i], &j);
			/* one single job, then a batch of four */
			if (fdif_submit_one(fd, &jobs[0]) || fdif_submit_jobs(fd, jobs + 1, 4))
				_exit(2);
			_exit(0);	/* the file closes with its jobs queued */
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	/* and the device serves the next client */
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_astronaut(_metadata, result_of(&self->j));
}

TEST_HARNESS_MAIN
