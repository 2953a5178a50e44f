// SPDX-License-Identifier: MIT
/*
 * vivid, looped: its HDMI output back to its HDMI input (fdif_vivid.h).
 *
 * vivid 6.12 connects an input to an output with a per-input menu control
 * ("HDMI 000-0 Is Connected To": "Test Pattern Generator", "None", then
 * one item per HDMI output). While the output streams and both sides have
 * the same format, each capture frame is a copy of the output buffer being
 * shown, scaled from the output's frame to the link (1280x720) and back to
 * the capture's frame: integer factors for 320x240, so the picture comes
 * back unchanged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "fdif_vivid.h"

/* 1 if vivid is loaded with FDIF_VIVID_OPTIONS' output node and loop */
static int vivid_loaded_for_loop(void)
{
	char v[64] = "";
	FILE *f = fopen("/sys/module/vivid/parameters/ccs_out_mode", "r");

	if (!f)
		return 0;
	if (!fgets(v, sizeof(v), f))
		v[0] = 0;
	fclose(f);
	/* ccs_out_mode is only ever 4 (first instance) with our options */
	return !strncmp(v, "4,", 2) || !strcmp(v, "4\n");
}

int fdif_vivid_load(void)
{
	if (vivid_loaded_for_loop())
		return 0;
	if (!access("/sys/module/vivid", F_OK) && system("rmmod vivid 2>/dev/null"))
		return -EBUSY;
	if (system("modprobe vivid " FDIF_VIVID_OPTIONS " 2>/dev/null"))
		return -ENODEV;
	return vivid_loaded_for_loop() ? 0 : -EMEDIUMTYPE;
}

int fdif_vivid_node(uint32_t caps)
{
	char path[300];
	struct dirent *de;
	int fd = -ENOENT;
	DIR *d = opendir("/sys/class/video4linux");

	if (!d)
		return -errno;
	while (fd < 0 && (de = readdir(d))) {
		struct v4l2_capability cap = { 0 };
		int v;

		if (strncmp(de->d_name, "video", 5))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		v = open(path, O_RDWR | O_CLOEXEC);
		if (v < 0)
			continue;
		if (!ioctl(v, VIDIOC_QUERYCAP, &cap) && !strcmp((char *)cap.driver, "vivid") &&
		    (cap.device_caps & caps) == caps &&
		    (cap.device_caps & V4L2_CAP_STREAMING))
			fd = v;
		else
			close(v);
	}
	closedir(d);
	return fd;
}

/* the control named @suffix-ending @name on @fd, or -ENOENT */
static int find_ctrl(int fd, const char *name, struct v4l2_query_ext_ctrl *q)
{
	size_t n = strlen(name);

	memset(q, 0, sizeof(*q));
	q->id = V4L2_CTRL_FLAG_NEXT_CTRL;
	while (!ioctl(fd, VIDIOC_QUERY_EXT_CTRL, q)) {
		size_t l = strlen(q->name);

		if (l >= n && !strcmp(q->name + l - n, name))
			return 0;
		q->id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	return -ENOENT;
}

/* set the menu control ending in @name to its item starting with @item */
static int set_menu(int fd, const char *name, const char *item)
{
	struct v4l2_query_ext_ctrl q;
	struct v4l2_querymenu m = { 0 };
	struct v4l2_control c = { 0 };
	int i;

	if (find_ctrl(fd, name, &q))
		return -ENOENT;
	for (i = q.minimum; i <= q.maximum; i++) {
		m.id = q.id;
		m.index = i;
		if (ioctl(fd, VIDIOC_QUERYMENU, &m) ||
		    strncmp((char *)m.name, item, strlen(item)))
			continue;
		c.id = q.id;
		c.value = i;
		return ioctl(fd, VIDIOC_S_CTRL, &c) ? -errno : 0;
	}
	return -ENOENT;
}

int fdif_vivid_damage_ctrl(int fd, uint32_t *id)
{
	struct v4l2_query_ext_ctrl q;

	if (find_ctrl(fd, "Inject V4L2_BUF_FLAG_ERROR", &q))
		return -ENOENT;
	*id = q.id;
	return 0;
}

int fdif_vivid_damage_next(int fd, uint32_t id)
{
	struct v4l2_control c = { .id = id, .value = 1 };

	return ioctl(fd, VIDIOC_S_CTRL, &c) ? -errno : 0;
}

static int set_fmt(int fd, enum v4l2_buf_type type, unsigned int w, unsigned int h,
		   uint32_t fourcc)
{
	struct v4l2_format fmt = { .type = type };

	if (ioctl(fd, VIDIOC_G_FMT, &fmt))
		return -errno;
	fmt.fmt.pix.width = w;
	fmt.fmt.pix.height = h;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	fmt.fmt.pix.bytesperline = 0;
	if (ioctl(fd, VIDIOC_S_FMT, &fmt))
		return -errno;
	if (fmt.fmt.pix.width != w || fmt.fmt.pix.height != h ||
	    fmt.fmt.pix.pixelformat != fourcc)
		return -EINVAL;
	return 0;
}

int fdif_vivid_loop(int cap, int out, unsigned int width, unsigned int height)
{
	return fdif_vivid_loop_fmt(cap, out, width, height, V4L2_PIX_FMT_GREY);
}

int fdif_vivid_loop_fmt(int cap, int out, unsigned int width, unsigned int height,
			uint32_t fourcc)
{
	int zero = 0, err;

	if (ioctl(cap, VIDIOC_S_INPUT, &zero) || ioctl(out, VIDIOC_S_OUTPUT, &zero))
		return -errno;
	/* the frames without vivid's text on them (0 all, 1 counters, 2 none) */
	err = set_menu(cap, "OSD Text Mode", "None");
	if (!err)
		err = set_menu(cap, "Is Connected To", "Output HDMI");
	if (!err)
		err = set_fmt(out, V4L2_BUF_TYPE_VIDEO_OUTPUT, width, height, fourcc);
	if (!err)
		err = set_fmt(cap, V4L2_BUF_TYPE_VIDEO_CAPTURE, width, height, fourcc);
	return err;
}

/* 4:2:0, the luma plane first and half its size of chroma after it */
static bool is_420(uint32_t fourcc)
{
	return fourcc == V4L2_PIX_FMT_NV12 || fourcc == V4L2_PIX_FMT_NV21 ||
	       fourcc == V4L2_PIX_FMT_YUV420 || fourcc == V4L2_PIX_FMT_YVU420;
}

/* output buffer @i holds @picture, in the output's format */
static void fill(struct fdif_vivid_feed *f, unsigned int i, const uint8_t *picture)
{
	unsigned int x, y;

	for (y = 0; y < f->height; y++) {
		uint8_t *row = (uint8_t *)f->map[i] + (size_t)y * f->stride;
		const uint8_t *pic = picture + (size_t)y * f->width;

		if (f->fourcc != V4L2_PIX_FMT_YUYV) {
			memcpy(row, pic, f->width);
			continue;
		}
		/* YUYV: Y0 U Y1 V, the chroma neutral */
		for (x = 0; x < f->width; x++) {
			row[2 * x] = pic[x];
			row[2 * x + 1] = 128;
		}
	}
	/*
	 * a grey picture: chroma neutral, whether one interleaved plane (NV12,
	 * NV21) or two of a quarter each (YU12, YV12)
	 */
	if (is_420(f->fourcc))
		memset((uint8_t *)f->map[i] + (size_t)f->stride * f->height, 128,
		       (size_t)f->stride * f->height / 2);
}

static int queue(struct fdif_vivid_feed *f, unsigned int i)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP,
		.index = i, .bytesused = f->len,
	};

	return ioctl(f->fd, VIDIOC_QBUF, &b) ? -errno : 0;
}

/*
 * the buffer the output let go of for the newer one, into @f->spare: at
 * its next frame, so 5 s without one means the output stopped
 */
static int take_spare(struct fdif_vivid_feed *f)
{
	struct pollfd p = { .fd = f->fd, .events = POLLOUT };
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP,
	};
	int n;

	do
		n = poll(&p, 1, 5000);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		return -ETIMEDOUT;
	/* a buffer back with V4L2_BUF_FLAG_ERROR is a spare all the same */
	if (ioctl(f->fd, VIDIOC_DQBUF, &b))
		return -errno;
	if (b.index >= FDIF_VIVID_BUFS)
		return -EIO;
	f->spare = b.index;
	return 0;
}

int fdif_vivid_feed_start(struct fdif_vivid_feed *f, int out, unsigned int width,
			  unsigned int height, const uint8_t *picture)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct v4l2_requestbuffers req = {
		.count = FDIF_VIVID_BUFS, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	unsigned int i;
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = out;
	f->width = width;
	f->height = height;
	if (ioctl(out, VIDIOC_G_FMT, &fmt))
		return -errno;
	f->stride = fmt.fmt.pix.bytesperline;
	f->len = fmt.fmt.pix.sizeimage;
	f->fourcc = fmt.fmt.pix.pixelformat;
	if (f->stride < width * (f->fourcc == V4L2_PIX_FMT_YUYV ? 2 : 1) ||
	    f->len < (size_t)f->stride * height *
	    (is_420(f->fourcc) ? 3 : 2) / 2)
		return -EINVAL;
	if (ioctl(out, VIDIOC_REQBUFS, &req))
		return -errno;
	f->has_bufs = true;
	err = req.count == FDIF_VIVID_BUFS ? 0 : -ENOBUFS;	/* granted another number */
	for (i = 0; !err && i < FDIF_VIVID_BUFS; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP,
			.index = i,
		};

		if (ioctl(out, VIDIOC_QUERYBUF, &b)) {
			err = -errno;
			break;
		}
		f->map[i] = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 out, b.m.offset);
		if (f->map[i] == MAP_FAILED) {
			f->map[i] = NULL;
			err = -errno;
			break;
		}
		/*
		 * both: vivid's output starts streaming only with two queued,
		 * and lets go of one only while another is queued (the spare
		 * take_spare() waits for)
		 */
		fill(f, i, picture);
		err = queue(f, i);
	}
	if (!err && ioctl(out, VIDIOC_STREAMON, &type))
		err = -errno;
	if (!err) {
		f->streaming = true;
		err = take_spare(f);
		if (!err)
			return 0;
	}
	fdif_vivid_feed_stop(f);
	return err;
}

int fdif_vivid_show(struct fdif_vivid_feed *f, const uint8_t *picture)
{
	int err;

	if (!f->streaming)
		return -EINVAL;
	if (f->broken)
		return -EIO;
	fill(f, f->spare, picture);
	err = queue(f, f->spare);
	if (err)
		return err;	/* not queued: still the spare */
	err = take_spare(f);
	/* no buffer back: none is known to be free to fill */
	if (err)
		f->broken = true;
	return err;
}

void fdif_vivid_feed_stop(struct fdif_vivid_feed *f)
{
	struct v4l2_requestbuffers req = {
		.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	unsigned int i;

	if (!f->has_bufs)
		return;
	if (f->streaming)
		ioctl(f->fd, VIDIOC_STREAMOFF, &type);
	f->streaming = false;
	f->broken = false;
	for (i = 0; i < FDIF_VIVID_BUFS; i++)
		if (f->map[i])
			munmap(f->map[i], f->len);
	memset(f->map, 0, sizeof(f->map));
	ioctl(f->fd, VIDIOC_REQBUFS, &req);
	f->has_bufs = false;
}
