// SPDX-License-Identifier: MIT
/*
 * IGT-style test: DRM_IOCTL_FDIF_SUBMIT, valid jobs and what they find: the
 * result header, each scan direction, the marked faces on the test
 * pictures, BOs in several roles at offsets, an ROI, and pictures in
 * imported buffers (a CMA dma-heap's, a camera's capture buffer).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/videodev2.h>

#include "kselftest_harness.h"
#include "fdif_test.h"
#include "fdif_submit.h"
#include "fdif_vivid.h"

/*
 * Every direction the device scans, one a job, on a picture with the
 * face that way: the face is found, in that direction, at its angle.
 */
TEST_F(job, each_direction)
{
	static const struct {
		uint32_t dir;
		const char *picture;
		uint32_t angle_min, angle_max;	/* mod 360 */
	} want[] = {
		{ DRM_FDIF_DIR_UP, "astronaut", 330, 30 },
		{ DRM_FDIF_DIR_RIGHT, "astronaut-cw90", 60, 120 },
		{ DRM_FDIF_DIR_LEFT, "astronaut-ccw90", 240, 300 },
	};
	uint32_t dirs = self->j.caps.dev.directions;
	unsigned int k;

	ASSERT_EQ(0, dirs & ~7u) TH_LOG("directions 0x%x: a test picture per direction", dirs);
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		struct drm_fdif_result_header *r = result_of(&self->j);
		struct drm_fdif_job job = self->job;
		const struct drm_fdif_object *o;
		struct fdif_box t;
		char why[160] = "";

		if (!(dirs & (1u << want[k].dir)))
			continue;
		ASSERT_EQ(1, fdif_load_truth(want[k].picture, &t, 1));
		ASSERT_EQ(0, fdif_load_picture(want[k].picture, self->j.pic.map));
		memset(r, 0xa5, self->j.caps.layout.size);
		job.directions = 1u << want[k].dir;
		ASSERT_EQ(0, fdif_submit_one(self->fd, &job)) TH_LOG("direction %u", want[k].dir);
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(job.seqno, r->seqno);
		ASSERT_EQ(1, r->count) TH_LOG("%s, direction %u", want[k].picture, want[k].dir);
		EXPECT_EQ(0, fdif_result_check(r, &t, 1, why, sizeof(why)))
			TH_LOG("%s: %s", want[k].picture, why);
		o = fdif_result_object(r, 0);
		EXPECT_EQ(want[k].dir, o->direction);
		if (want[k].angle_min < want[k].angle_max) {
			EXPECT_TRUE(o->angle >= want[k].angle_min && o->angle <= want[k].angle_max)
				TH_LOG("%s: angle %u", want[k].picture, o->angle);
		} else {
			EXPECT_TRUE(o->angle >= want[k].angle_min || o->angle <= want[k].angle_max)
				TH_LOG("%s: angle %u", want[k].picture, o->angle);
		}
	}
}

/* The header a job writes describes the layout the query announced. */
TEST_F(job, result_header_layout)
{
	const struct drm_fdif_result_layout *l = &self->j.caps.layout;
	struct drm_fdif_result_header *r = result_of(&self->j);
	uint32_t i;

	memset(r, 0xa5, l->size);
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(l->version, r->version);
	EXPECT_EQ(l->header_size, r->header_size);
	EXPECT_EQ(l->object_size, r->object_size);
	EXPECT_EQ(l->capacity, r->capacity);
	EXPECT_EQ(0, r->status);
	EXPECT_EQ(self->job.seqno, r->seqno);
	EXPECT_LE(r->count, r->capacity);
	ASSERT_EQ(1, r->count);
	for (i = 0; i < r->count; i++) {
		const struct drm_fdif_object *o = fdif_result_object(r, i);

		EXPECT_EQ(l->object_fields, o->fields);
		EXPECT_EQ(DRM_FDIF_CLASS_FACE, o->object_class);
		EXPECT_EQ(o->width, o->height);
	}
	check_astronaut(_metadata, r);
}

TEST_F(job, single_photo)
{
	struct drm_fdif_result_header *r = result_of(&self->j);
	const struct drm_fdif_object *o;

	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	EXPECT_EQ(1, self->job.seqno);
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(1, r->seqno);
	check_astronaut(_metadata, r);
	o = fdif_result_object(r, 0);
	TH_LOG("face at %d,%d size %ux%u angle %u confidence %u",
	       o->x, o->y, o->width, o->height, o->angle, o->confidence);
}

/*
 * Many faces through the driver: the LFW mosaics (15 faces of 48 px, 60 of
 * 28 px pasted on a grid). Every object is on a pasted face, sorted; the
 * 60-face picture fills the result to its capacity.
 */
TEST_F(job, many_faces)
{
	static const struct {
		const char *name;
		int marked;
		uint32_t count;	/* 0: the layout's capacity */
	} mosaics[] = {
		{ "lfw-15", 15, 15 },
		{ "lfw-60", 60, 0 },
	};
	struct drm_fdif_result_header *r = result_of(&self->j);
	struct fdif_box truth[64];
	char why[160];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(mosaics); k++) {
		uint32_t want = mosaics[k].count ? mosaics[k].count : self->j.caps.layout.capacity;

		ASSERT_EQ(mosaics[k].marked, fdif_load_truth(mosaics[k].name, truth, 64));
		ASSERT_EQ(0, fdif_load_picture(mosaics[k].name, self->j.pic.map));
		memset(r, 0xff, self->j.caps.layout.size);
		ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
		ASSERT_EQ(0, wait_result(self->fd, &self->j));
		EXPECT_EQ(self->job.seqno, r->seqno);
		EXPECT_EQ(0, r->status);
		EXPECT_EQ(want, r->count);
		EXPECT_EQ(0, fdif_result_check(r, truth, mosaics[k].marked, why, sizeof(why)))
			TH_LOG("%s: %s", mosaics[k].name, why);
	}
}

TEST_F(job, face_free_photo)
{
	ASSERT_EQ(0, fdif_load_picture("landscape", self->j.pic.map));
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	check_empty(_metadata, result_of(&self->j));
}

/* One BO for the picture, the work area and the result, at aligned offsets. */
TEST_F(job, one_bo_all_roles)
{
	struct drm_fdif_result_header *r;
	struct fdif_job_bos big = { .caps = self->j.caps };
	struct drm_fdif_job job;

	ASSERT_EQ(0, fdif_bo_new(self->fd, 256 * 1024, &big.pic));
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.pic.map + 4096));
	fdif_job_init(&job, &big);
	job.work_handle = job.result_handle = big.pic.handle;
	job.picture.planes[0].offset = 4096;
	job.work_offset = 128 * 1024;
	job.result_offset = 200 * 1024;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	r = (void *)((char *)big.pic.map + job.result_offset);
	EXPECT_EQ(job.seqno, r->seqno);
	check_astronaut(_metadata, r);
	fdif_bo_free(self->fd, &big.pic);
}

TEST_F(job, roi_and_offsets)
{
	struct drm_fdif_result_header *r;
	struct fdif_job_bos big = { .caps = self->j.caps };
	struct drm_fdif_job job;

	/* one BO for all three roles, at aligned offsets */
	ASSERT_EQ(0, fdif_bo_new(self->fd, 256 * 1024, &big.pic));
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)big.pic.map + 4096));
	fdif_job_init(&job, &big);
	job.work_handle = job.result_handle = big.pic.handle;
	job.picture.planes[0].offset = 4096;
	job.work_offset = 128 * 1024;
	job.result_offset = 200 * 1024;
	job.roi = (struct drm_fdif_roi){ 66, 0, 160, 120 };
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	r = (void *)((char *)big.pic.map + job.result_offset);
	check_astronaut(_metadata, r);

	/* an ROI without the face */
	job.roi = ROI_NO_FACE;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &job));
	ASSERT_EQ(0, fdif_bo_wait_for(self->fd, big.pic.handle, WAIT_NS));
	check_empty(_metadata, r);
	fdif_bo_free(self->fd, &big.pic);
}

/*
 * The fixture's job on the picture at @offset / @stride in the dma-buf
 * @buf, imported: the astronaut's face must be found. The import has no
 * mmap offset of ours (the CPU maps it through its exporter), and once
 * the job has read it, it is idle and still ours to close. Where the
 * guest has RAM beyond the device's reach, the import must be refused
 * (-EINVAL), and that is the test's end.
 */
static void job_on_import(struct __test_metadata *_metadata, FIXTURE_DATA(job) *self,
			  int buf, uint32_t offset, uint32_t stride)
{
	uint32_t handle;
	uint64_t off;
	int ret = fdif_import_foreign(self->fd, buf, &handle);

	ASSERT_LE(0, ret) TH_LOG("import: %s", fdif_import_error(ret));
	if (ret == 1) {
		TH_LOG("refused: this guest has RAM beyond the device's reach");
		return;
	}
	EXPECT_EQ(-EINVAL, fdif_bo_mmap_offset(self->fd, handle, &off));
	self->job.picture.planes[0].handle = handle;
	self->job.picture.planes[0].offset = offset;
	self->job.picture.planes[0].stride = stride;
	ASSERT_EQ(0, fdif_submit_one(self->fd, &self->job));
	ASSERT_EQ(0, wait_result(self->fd, &self->j));
	EXPECT_EQ(self->job.seqno, result_of(&self->j)->seqno);
	check_astronaut(_metadata, result_of(&self->j));
	EXPECT_EQ(0, fdif_bo_wait(self->fd, handle, 0));
	EXPECT_EQ(0, fdif_gem_close(self->fd, handle));
}

/*
 * A picture in another exporter's buffer (a CMA dma-heap, as a camera's
 * contiguous frame would be): imported without a copy, read by the
 * device, its face found. The CPU writes it through the dma-buf's own
 * mapping, bracketed by DMA_BUF_IOCTL_SYNC.
 */
TEST_F(job, picture_from_foreign_dmabuf)
{
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };
	size_t len = FDIF_PIC_SIZE + 4096;
	void *map;
	int buf = fdif_cma_heap_alloc(len);

	ASSERT_GE(buf, 0) TH_LOG("no CMA dma-heap (CONFIG_DMABUF_HEAPS_CMA): %d", buf);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(buf, DMA_BUF_IOCTL_SYNC, &sync));
	/* at an offset, as a frame after a header would be */
	ASSERT_EQ(0, fdif_load_picture("astronaut", (char *)map + 4096));
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
	ASSERT_EQ(0, ioctl(buf, DMA_BUF_IOCTL_SYNC, &sync));

	job_on_import(_metadata, self, buf, 4096, FDIF_W);
	munmap(map, len);
	close(buf);
}

/*
 * vivid's video capture node, opened, or -errno: vivid loaded as the
 * guest's camera (guest/vivid/fdif_vivid.h), with dma-contig buffers.
 */
static int vivid_open(void)
{
	int err = fdif_vivid_load();

	return err ? err : fdif_vivid_node(V4L2_CAP_VIDEO_CAPTURE);
}

/*
 * A picture in a camera driver's capture buffer: vivid (a V4L2 capture
 * driver) allocates a 640x480 grey frame with videobuf2's dma-contig
 * allocator and exports it with VIDIOC_EXPBUF, as a camera pipeline hands
 * frames on. The picture sits inside the frame, from row 120: at column
 * 160 with the frame's stride on a device that takes strides, packed
 * (stride = width) where the format says DRM_FDIF_FORMAT_PACKED_ROWS, as
 * on the OMAP4. The job's plane says where. The import goes through the
 * exporter's map_dma_buf for this device; the device reads the picture
 * from there (the fixture's own picture BO is cleared) and finds the face.
 */
TEST_F(job, picture_from_v4l2_capture_buffer)
{
	enum { X0 = 160, Y0 = 120 };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 1, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_exportbuffer exp = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .flags = O_RDWR | O_CLOEXEC,
	};
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };
	int video = vivid_open(), y;
	unsigned char *pic, *map;
	uint32_t bpl, stride, offset;
	size_t len;

	/* in every guest kernel; scripts/test.sh fails this skip */
	if (video == -ENODEV)
		SKIP(return, "no vivid camera driver (CONFIG_VIDEO_VIVID)");
	ASSERT_GE(video, 0) TH_LOG("no vivid capture node with dma-contig buffers: %d", video);
	ASSERT_EQ(0, ioctl(video, VIDIOC_G_FMT, &fmt));
	fmt.fmt.pix.width = 640;
	fmt.fmt.pix.height = 480;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_GREY;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	ASSERT_EQ(0, ioctl(video, VIDIOC_S_FMT, &fmt)) TH_LOG("S_FMT: %s", strerror(errno));
	ASSERT_EQ(V4L2_PIX_FMT_GREY, fmt.fmt.pix.pixelformat);
	ASSERT_EQ(640, fmt.fmt.pix.width);
	ASSERT_EQ(480, fmt.fmt.pix.height);
	bpl = fmt.fmt.pix.bytesperline;
	len = fmt.fmt.pix.sizeimage;
	ASSERT_GE(bpl, 640);
	ASSERT_GE(len, (size_t)bpl * 480);
	ASSERT_EQ(0, ioctl(video, VIDIOC_REQBUFS, &req)) TH_LOG("REQBUFS: %s", strerror(errno));
	ASSERT_GE(req.count, 1);
	ASSERT_EQ(0, ioctl(video, VIDIOC_EXPBUF, &exp)) TH_LOG("EXPBUF: %s", strerror(errno));

	pic = malloc(FDIF_PIC_SIZE);
	ASSERT_NE(NULL, pic);
	ASSERT_EQ(0, fdif_load_picture("astronaut", pic));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, exp.fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync));
	if (self->j.caps.format.flags & DRM_FDIF_FORMAT_PACKED_ROWS) {
		stride = FDIF_W;
		offset = Y0 * bpl;
	} else {
		stride = bpl;
		offset = Y0 * bpl + X0;
	}
	ASSERT_EQ(0, offset % self->j.caps.format.offset_align);
	memset(map, 0x80, len);
	for (y = 0; y < FDIF_H; y++)
		memcpy(map + offset + (size_t)y * stride, pic + y * FDIF_W, FDIF_W);
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
	ASSERT_EQ(0, ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync));
	free(pic);
	/* nothing of the picture anywhere but in the camera's frame */
	memset(self->j.pic.map, 0, self->j.pic.size);

	job_on_import(_metadata, self, exp.fd, offset, stride);
	munmap(map, len);
	close(exp.fd);
	/*
	 * The queue lets go of its buffers; the one exported lives on until
	 * the import's last reference (freed with the job) goes. vivid stays
	 * loaded: its device must outlive that buffer.
	 */
	req.count = 0;
	EXPECT_EQ(0, ioctl(video, VIDIOC_REQBUFS, &req));
	close(video);
}

TEST_HARNESS_MAIN
