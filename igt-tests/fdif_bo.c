// SPDX-License-Identifier: MIT
/* IGT-style test: buffer objects (create, mmap, PRIME, wait). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/udmabuf.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

FDIF_DEV_FIXTURE(dev);

TEST_F(dev, create_bo_zero_bytes)
{
	uint32_t h;

	EXPECT_EQ(-EINVAL, fdif_bo_create(self->fd, 0, &h));
}

TEST_F(dev, create_bo_sizes)
{
	static const size_t sizes[] = { 1, 4095, 4096, 4097, FDIF_PIC_SIZE,
					1 << 20, 64 << 20 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct fdif_bo bo;

		ASSERT_EQ(0, fdif_bo_new(self->fd, sizes[i], &bo)) TH_LOG("size %zu", sizes[i]);
		((volatile char *)bo.map)[sizes[i] - 1] = 1;
		fdif_bo_free(self->fd, &bo);
	}
}

TEST_F(dev, create_bo_zeroed)
{
	struct fdif_bo bo;
	size_t i;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, fdif_bo_new(self->fd, 1 << 20, &bo));
		for (i = 0; i < bo.size; i++)
			ASSERT_EQ(0, ((unsigned char *)bo.map)[i]) TH_LOG("byte %zu", i);
		memset(bo.map, 0xa5, bo.size);	/* the next BO must not see this */
		fdif_bo_free(self->fd, &bo);
	}
}

TEST_F(dev, create_bo_bad_flags)
{
	struct drm_fdif_bo_create c = { .size = 4096, .flags = 1 };

	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_CREATE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_CREATE, &c));
	c.pad = 0;
	c.pad2 = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_CREATE, &c));
	/* the handle is an output: it must come in as zero */
	c.pad2 = 0;
	c.handle = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_CREATE, &c));
}

TEST_F(dev, create_bo_huge)
{
	uint32_t h;

	EXPECT_EQ(-EINVAL, fdif_bo_create(self->fd, (64 << 20) + 1, &h));
	EXPECT_EQ(-EINVAL, fdif_bo_create(self->fd, 1ull << 40, &h));
	EXPECT_EQ(-EINVAL, fdif_bo_create(self->fd, ~0ull, &h));
}

TEST_F(dev, mmap_bad_handle)
{
	uint64_t off;

	EXPECT_EQ(-ENOENT, fdif_bo_mmap_offset(self->fd, 0, &off));
	EXPECT_EQ(-ENOENT, fdif_bo_mmap_offset(self->fd, 12345, &off));
}

TEST_F(dev, mmap_bad_pad)
{
	struct drm_fdif_bo_mmap_offset m = { .pad = 1 };

	ASSERT_EQ(0, fdif_bo_create(self->fd, 4096, &m.handle));
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_MMAP_OFFSET, &m));
}

TEST_F(dev, mmap_roundtrip)
{
	struct fdif_bo bo;
	uint64_t off;
	uint32_t *second;
	size_t i;

	ASSERT_EQ(0, fdif_bo_new(self->fd, 3 * 4096, &bo));
	for (i = 0; i < bo.size / 4; i++)
		((uint32_t *)bo.map)[i] = 0x12345678 ^ (uint32_t)i;
	ASSERT_EQ(0, fdif_bo_mmap_offset(self->fd, bo.handle, &off));
	second = mmap(NULL, bo.size, PROT_READ, MAP_SHARED, self->fd, off);
	ASSERT_NE(MAP_FAILED, second);
	for (i = 0; i < bo.size / 4; i++)
		ASSERT_EQ(0x12345678 ^ (uint32_t)i, second[i]);
	munmap(second, bo.size);
	/* a mapping larger than the BO is refused */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, bo.size + 4096, PROT_READ, MAP_SHARED,
				   self->fd, off));
	fdif_bo_free(self->fd, &bo);
}

/*
 * A BO imported into another file of the same device is the same GEM
 * object, not a foreign import: it maps through that file.
 */
TEST_F(dev, mmap_prime_same_device)
{
	struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_prime_handle imp = { 0 };
	struct fdif_bo bo;
	uint64_t off;
	char *map;
	int fd2;

	fd2 = fdif_open();
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &bo));
	strcpy(bo.map, "shared through PRIME");
	exp.handle = bo.handle;
	ASSERT_EQ(0, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
	imp.fd = exp.fd;
	ASSERT_EQ(0, fdif_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	ASSERT_EQ(0, fdif_bo_mmap_offset(fd2, imp.handle, &off));
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2, off);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_STREQ("shared through PRIME", map);
	munmap(map, 4096);
	close(exp.fd);
	fdif_bo_free(self->fd, &bo);
	close(fd2);
}

/* Another open file's handles and mmap offsets are not this file's. */
TEST_F(dev, isolation_between_files)
{
	struct drm_fdif_bo_wait w = { 0 };
	struct fdif_bo bo;
	uint64_t off, off2;
	int fd2 = fdif_open();

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &bo));
	ASSERT_EQ(0, fdif_bo_mmap_offset(self->fd, bo.handle, &off));
	/* the handle means nothing on fd2 (it has no BO yet) */
	EXPECT_EQ(-ENOENT, fdif_bo_mmap_offset(fd2, bo.handle, &off2));
	w.handle = bo.handle;
	EXPECT_EQ(-ENOENT, fdif_ioctl(fd2, DRM_IOCTL_FDIF_BO_WAIT, &w));
	/* nor does the offset: the mapping is refused */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2, off));
	fdif_bo_free(self->fd, &bo);
	close(fd2);
}

/*
 * PRIME: importing a BO's dma-buf into the file that exported it gives the
 * same handle back; the dma-buf's size is the BO's (lseek SEEK_END).
 */
TEST_F(dev, prime_self_import_and_size)
{
	struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_prime_handle imp = { 0 };
	struct fdif_bo bo;
	uint64_t off;

	ASSERT_EQ(0, fdif_bo_new(self->fd, 3 * 4096, &bo));
	exp.handle = bo.handle;
	ASSERT_EQ(0, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp));
	imp.fd = exp.fd;
	ASSERT_EQ(0, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(bo.handle, imp.handle);
	EXPECT_EQ(3 * 4096, lseek(exp.fd, 0, SEEK_END));
	EXPECT_EQ(0, lseek(exp.fd, 0, SEEK_SET));
	/* still our own BO: it maps */
	EXPECT_EQ(0, fdif_bo_mmap_offset(self->fd, imp.handle, &off));
	close(exp.fd);
	fdif_bo_free(self->fd, &bo);
}

/*
 * A one-page dma-buf of another exporter, or a negative errno: the CMA
 * dma-heap's (contiguous and, on arm64, below 4 GiB, as a camera's
 * frames), else udmabuf's (a memfd's page: above 4 GiB in the stress
 * guest, where swiotlb bounces it).
 */
static int foreign_dmabuf(void)
{
	struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = 4096 };
	int dev, memfd, buf;

	buf = fdif_cma_heap_alloc(4096);
	if (buf >= 0)
		return buf;
	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	memfd = memfd_create("fdif-foreign", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, 4096) ||
	    fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		buf = -errno;
		goto out;
	}
	c.memfd = memfd;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	if (buf < 0)
		buf = -errno;
out:
	if (memfd >= 0)
		close(memfd);
	close(dev);
	return buf;
}

/*
 * Another exporter's dma-buf @buf imported into @fd: true with its handle
 * in @imp; false, the test's end, where the guest has RAM beyond the
 * device's reach, which refuses every such import (-EINVAL, the stress
 * guest): there even the CMA heap's page, contiguous and below 4 GiB.
 */
static bool imported(struct __test_metadata *_metadata, int fd, int buf,
		     struct drm_prime_handle *imp)
{
	int ret = fdif_import_foreign(fd, buf, &imp->handle);

	EXPECT_LE(0, ret) TH_LOG("import: %s", fdif_import_error(ret));
	if (ret == 1)
		TH_LOG("refused: this guest has RAM beyond the device's reach");
	return ret == 0 && imp->handle;
}

/*
 * Another exporter's dma-buf: the import is not this driver's BO. It is
 * mapped through its own fd, not the device (BO_MMAP_OFFSET: -EINVAL), and
 * the kernel does not write results into it (SUBMIT: -EINVAL); waiting on
 * it works. (Needs CONFIG_UDMABUF in the guest kernel.) Where the device
 * cannot reach all RAM, it is refused.
 */
TEST_F(dev, prime_foreign_import)
{
	struct drm_prime_handle imp = { 0 };
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	uint64_t off;
	int buf = foreign_dmabuf();

	if (buf == -ENOENT)
		SKIP(return, "no /dev/udmabuf (CONFIG_UDMABUF) to export a foreign dma-buf");
	ASSERT_GE(buf, 0);
	if (!imported(_metadata, self->fd, buf, &imp)) {
		close(buf);
		return;
	}
	EXPECT_EQ(-EINVAL, fdif_bo_mmap_offset(self->fd, imp.handle, &off));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, imp.handle, 0));

	ASSERT_EQ(0, fdif_job_bos_new(self->fd, &j));
	ASSERT_LE(j.caps.layout.size, 4096);
	fdif_job_init(&job, &j);
	job.result_handle = imp.handle;
	EXPECT_EQ(-EINVAL, fdif_submit_one(self->fd, &job));
	/* nothing was queued */
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.pic.handle, 0));
	fdif_job_bos_free(self->fd, &j);
	EXPECT_EQ(0, fdif_gem_close(self->fd, imp.handle));
	close(buf);
}

/*
 * An import is mapped through its exporter's fd, never through the device,
 * even at a guessed offset: the DMA helpers give the import an mmap offset
 * too, from the same allocator as the file's own BOs, so it lies near
 * theirs. Every page offset around two own BOs made before and after the
 * import is tried; only those BOs' own offsets may map.
 */
TEST_F(dev, prime_foreign_import_no_mmap)
{
	enum { AROUND = 512 };	/* pages tried below and above the two BOs */
	struct drm_prime_handle imp = { 0 };
	struct fdif_bo a, c;
	uint64_t offa, offc, lo, hi, off;
	int buf = foreign_dmabuf(), mapped = 0;

	if (buf == -ENOENT)
		SKIP(return, "no /dev/udmabuf (CONFIG_UDMABUF) to export a foreign dma-buf");
	ASSERT_GE(buf, 0);
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &a));
	if (!imported(_metadata, self->fd, buf, &imp)) {
		fdif_bo_free(self->fd, &a);
		close(buf);
		return;
	}
	ASSERT_EQ(0, fdif_bo_new(self->fd, 4096, &c));
	ASSERT_EQ(0, fdif_bo_mmap_offset(self->fd, a.handle, &offa));
	ASSERT_EQ(0, fdif_bo_mmap_offset(self->fd, c.handle, &offc));
	lo = (offa < offc ? offa : offc) - AROUND * 4096ull;
	hi = (offa > offc ? offa : offc) + AROUND * 4096ull;
	for (off = lo; off <= hi; off += 4096) {
		void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, off);

		if (p == MAP_FAILED)
			continue;
		munmap(p, 4096);
		mapped++;
		EXPECT_TRUE(off == offa || off == offc)
			TH_LOG("offset 0x%llx (own BOs at 0x%llx, 0x%llx) mapped the import",
			       (unsigned long long)off, (unsigned long long)offa,
			       (unsigned long long)offc);
	}
	/* the scan does map what it may: the two own BOs */
	EXPECT_EQ(2, mapped);
	fdif_bo_free(self->fd, &a);
	fdif_bo_free(self->fd, &c);
	EXPECT_EQ(0, fdif_gem_close(self->fd, imp.handle));
	close(buf);
}

/*
 * A dma-buf whose pages are not contiguous cannot be a BO of a device
 * without an IOMMU: its import is refused with -EINVAL. udmabuf's list of
 * one memfd page twice is never contiguous, whatever the allocator did.
 * In a guest with RAM above 4 GiB (the stress stage's) the page lies
 * beyond the device's reach, and swiotlb bounces the two entries into
 * neighbouring slots: DMA addresses that follow each other, which
 * drm_gem_dma's contiguity check would take. The driver refuses every
 * foreign import there; in the 1 GiB guest, that check refuses it.
 */
TEST_F(dev, prime_import_not_contiguous)
{
	struct {
		struct udmabuf_create_list head;
		struct udmabuf_create_item items[2];
	} list = { .head = { .flags = UDMABUF_FLAGS_CLOEXEC, .count = 2 } };
	struct drm_prime_handle imp = { 0 };
	int dev, memfd, buf;

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	ASSERT_GE(dev, 0) TH_LOG("/dev/udmabuf: %s (CONFIG_UDMABUF)", strerror(errno));
	memfd = memfd_create("fdif-scattered", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	ASSERT_GE(memfd, 0);
	ASSERT_EQ(0, ftruncate(memfd, 4096));
	ASSERT_EQ(0, fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK));
	list.items[0] = (struct udmabuf_create_item){ .memfd = memfd, .size = 4096 };
	list.items[1] = list.items[0];
	buf = ioctl(dev, UDMABUF_CREATE_LIST, &list);
	ASSERT_GE(buf, 0) TH_LOG("UDMABUF_CREATE_LIST: %s", strerror(errno));
	EXPECT_EQ(8192, lseek(buf, 0, SEEK_END));

	imp.fd = buf;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(0, imp.handle);
	close(buf);
	close(memfd);
	close(dev);
}

/*
 * Free blocks of at least 2^@min_order pages above 4 GiB, from
 * /proc/buddyinfo: on arm64 -M virt, ZONE_DMA ends at 4 GiB and
 * ZONE_NORMAL holds what lies above. The count, or -errno.
 */
static long free_blocks_above_4gib(int min_order)
{
	static const char zone[] = "zone   Normal";
	char line[512];
	long n = 0;
	FILE *f = fopen("/proc/buddyinfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, zone);
		int order = 0, used;
		long c;

		if (!p)
			continue;
		for (p += strlen(zone); sscanf(p, "%ld%n", &c, &used) == 1; p += used, order++)
			if (order >= min_order)
				n += c;
	}
	fclose(f);
	return n;
}

#define SWIOTLB_HIWATER	"/sys/kernel/debug/swiotlb/io_tlb_used_hiwater"

/*
 * A buffer the device cannot address (its 32-bit DMA mask) is refused at
 * import, cleanly, and before the exporter maps it for the device: where
 * RAM lies beyond the device's reach, the driver takes no other exporter's
 * buffer (docs/driver.md). The system dma-heap takes a 1 MiB buffer as
 * one order-8 block from the highest zone with one free: above 4 GiB,
 * when the guest has RAM there; a 64 KiB one is an order-4 block from
 * there too. Both are refused with -EINVAL. A map would have failed for
 * the first (-EIO: swiotlb bounces at most 256 KiB, "swiotlb buffer is
 * full" in dmesg) and bounced the second: swiotlb's high-water mark of
 * slots used, reset before, stays 0. (Needs the system heap and RAM above
 * 4 GiB: the stress stage's guest.)
 */
TEST_F(dev, prime_import_above_4gib)
{
	struct drm_prime_handle imp = { 0 };
	int buf = -ENOENT, ret;
	char used[32] = "";

	if (free_blocks_above_4gib(8) > 0)	/* 1 MiB */
		buf = fdif_dma_heap_alloc("system", 1 << 20);
	if (buf == -ENOENT)
		SKIP(return,
		     "needs RAM above 4 GiB and the system dma-heap (stress stage)");
	ASSERT_GE(buf, 0);

	imp.fd = buf;
	ret = fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(0, imp.handle);
	/* and again: nothing of the first attempt is left behind */
	imp.handle = 0;
	EXPECT_EQ(ret, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(0, imp.handle);
	close(buf);

	ASSERT_LT(0, free_blocks_above_4gib(4));
	buf = fdif_dma_heap_alloc("system", 64 << 10);
	ASSERT_GE(buf, 0);
	ASSERT_EQ(0, sysfs_write(SWIOTLB_HIWATER, "0"));
	imp = (struct drm_prime_handle){ .fd = buf };
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp));
	EXPECT_EQ(0, imp.handle);
	ASSERT_EQ(0, sysfs_read(SWIOTLB_HIWATER, used, sizeof(used)));
	EXPECT_STREQ("0", used) TH_LOG("swiotlb slots bounced for the import");
	close(buf);
}

/* BO_WAIT's deadline is absolute; an idle BO is idle at any deadline. */
TEST_F(dev, bo_wait_idle)
{
	int64_t now = fdif_now_ns();
	uint32_t h;

	ASSERT_EQ(0, fdif_bo_create(self->fd, 4096, &h));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, 0));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, 1));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, -1));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, INT64_MIN));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, now));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, now + 1000000));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, h, INT64_MAX));
	/* none of them waited */
	EXPECT_LT(fdif_now_ns() - now, 1000000000ll);
}

TEST_F(dev, bo_wait_bad_handle)
{
	struct drm_fdif_bo_wait w = { .handle = 4242 };

	EXPECT_EQ(-ENOENT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_WAIT, &w));
	w.handle = 0;
	EXPECT_EQ(-ENOENT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_WAIT, &w));
	ASSERT_EQ(0, fdif_bo_create(self->fd, 4096, &w.handle));
	w.flags = 1;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_WAIT, &w));
	w.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_WAIT, &w));
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_BO_WAIT, (void *)8));
}

/* Submit a full-frame job on the astronaut (at least the device's frame time). */
static int submit_astronaut(int fd, struct fdif_job_bos *j, struct drm_fdif_job *job)
{
	int ret = fdif_job_bos_new(fd, j);

	if (ret)
		return ret;
	ret = fdif_load_picture("astronaut", j->pic.map);
	if (ret)
		return ret;
	memset(j->result.map, 0xa5, j->caps.layout.size);
	fdif_job_init(job, j);
	return fdif_submit_one(fd, job);
}

/* The emulated device, slowed down; its frame time put back afterwards. */
FIXTURE(slow) {
	int fd;
};

FIXTURE_SETUP(slow)
{
	self->fd = fdif_open();
	if (self->fd < 0)
		SKIP(return, "no fdif device");
	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
}

FIXTURE_TEARDOWN(slow)
{
	if (self->fd < 0)
		return;
	fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT);
	close(self->fd);
}

TEST_F(slow, bo_wait_busy)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;

	/* a job of 300 ms: the deadlines below come first, however slow the guest */
	ASSERT_EQ(0, fdif_emu_frame_time(300000));
	ASSERT_EQ(0, submit_astronaut(self->fd, &j, &job));
	/* deadline 0, long past, polls: a job takes at least the frame time */
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.result.handle, 0));
	/* and a picture BO is busy while a job reads it */
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.pic.handle, 0));
	EXPECT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 20000000000ll));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.result.handle, 0));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.pic.handle, 0));
	EXPECT_EQ(job.seqno, fdif_result(&j.result)->seqno);
	fdif_job_bos_free(self->fd, &j);
}

/*
 * The longest deadline there is on a busy BO (issue 11, 4): it returns when
 * the job ends, like any other, and the conversion to jiffies must not
 * wrap (it did on 32-bit ARM, where it tripped dma_fence_wait_timeout()'s
 * WARN on a negative timeout).
 */
TEST_F(slow, bo_wait_busy_huge_timeout)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int64_t t0;

	/* a job of 300 ms: the deadlines below come first, however slow the guest */
	ASSERT_EQ(0, fdif_emu_frame_time(300000));
	ASSERT_EQ(0, submit_astronaut(self->fd, &j, &job));
	/* a deadline 1 ms away passes first */
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait_for(self->fd, j.result.handle, 1000000));
	t0 = fdif_now_ns();
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.result.handle, INT64_MAX));
	EXPECT_LT(fdif_now_ns() - t0, 30000000000ll);
	EXPECT_EQ(0, fdif_result(&j.result)->status);
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.result.handle, 0));
	fdif_job_bos_free(self->fd, &j);
}

/*
 * A deadline in the recent past polls: read as a relative timeout it would
 * be the whole uptime, and the wait would end with the job instead.
 */
TEST_F(slow, bo_wait_past_deadline)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int64_t now;

	/* a job of 300 ms: the deadlines below come first, however slow the guest */
	ASSERT_EQ(0, fdif_emu_frame_time(300000));
	ASSERT_EQ(0, submit_astronaut(self->fd, &j, &job));
	now = fdif_now_ns();
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.result.handle, now - 1000000));
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.result.handle, now - 1000000000ll));
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.result.handle, now));
	TH_LOG("three past deadlines answered in %lld us",
	       (long long)(fdif_now_ns() - now) / 1000);
	EXPECT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 20000000000ll));
	EXPECT_EQ(0, fdif_result(&j.result)->status);
	fdif_job_bos_free(self->fd, &j);
}

/* A deadline 2 s away: the job (a frame time, 15 ms) ends before it. */
TEST_F(dev, bo_wait_absolute_deadline)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int64_t deadline;

	ASSERT_EQ(0, submit_astronaut(self->fd, &j, &job));
	deadline = fdif_now_ns() + 2000000000ll;
	EXPECT_EQ(0, fdif_bo_wait(self->fd, j.result.handle, deadline));
	EXPECT_EQ(0, fdif_result(&j.result)->status);
	EXPECT_EQ(job.seqno, fdif_result(&j.result)->seqno);
	EXPECT_EQ(1, fdif_result(&j.result)->count);
	fdif_job_bos_free(self->fd, &j);
}

/*
 * A job of a second (well below the driver's timeout) and a deadline 50 ms
 * away: the wait gives up at the deadline with -ETIMEDOUT, and the job
 * still finishes.
 */
TEST_F(slow, bo_wait_deadline_slowed_device)
{
	struct fdif_job_bos j;
	struct drm_fdif_job job;
	int64_t t0, waited;

	ASSERT_EQ(0, fdif_emu_frame_time(1000000));
	ASSERT_EQ(0, submit_astronaut(self->fd, &j, &job));
	t0 = fdif_now_ns();
	EXPECT_EQ(-ETIMEDOUT, fdif_bo_wait(self->fd, j.result.handle, t0 + 50000000));
	waited = fdif_now_ns() - t0;
	TH_LOG("a deadline 50 ms away gave up after %lld ms", (long long)waited / 1000000);
	EXPECT_EQ(0, fdif_bo_wait_for(self->fd, j.result.handle, 30000000000ll));
	EXPECT_EQ(0, fdif_result(&j.result)->status);
	EXPECT_EQ(1, fdif_result(&j.result)->count);
	EXPECT_EQ(job.seqno, fdif_result(&j.result)->seqno);
	ASSERT_EQ(0, fdif_emu_frame_time(FDIF_EMU_FRAME_TIME_DEFAULT));
	fdif_job_bos_free(self->fd, &j);
}

TEST_HARNESS_MAIN
