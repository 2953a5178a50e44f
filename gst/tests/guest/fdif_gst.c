// SPDX-License-Identifier: MIT
/*
 * IGT-style test: fdiffacedetect, the GStreamer element, on the device,
 * fed by a camera. The camera is vivid with its HDMI output looped to its
 * input (guest/vivid/fdif_vivid.c) showing the marked test pictures; v4l2src
 * reads it, as a camera application's pipeline does. Each frame that
 * reaches the appsink is checked to hold the picture shown, and its
 * region-of-interest metas and the element's "facedetect" message against
 * the still picture's faces (from libfdif-drm) and the marked boxes.
 * Then what goes wrong in a stream: a format the device does not take, a
 * hung device, the device unbound under the pipeline.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "kselftest_harness.h"
#include "fdif/fdif.h"
#include "fdif/image.h"
#include "fdif_emu.h"
#include "fdif_reach.h"
#include "fdif_truth.h"
#include "fdif_vivid.h"

#define W		320
#define H		240
#define MAX_FACES	64
#define WAIT_NS		(20LL * 1000 * 1000 * 1000)
#define DRV_DIR		"/sys/bus/platform/drivers/fdif"

static const char *const names[] = { "astronaut", "hopper", "lfw-15", "landscape" };
#define NPICS	(sizeof(names) / sizeof(names[0]))

FIXTURE(gst) {
	struct fdif_device *dev;
	struct fdif_vivid_feed feed;
	char node[64];
	int out;
	struct fdif_image pic[NPICS];
	struct fdif_face still[NPICS][MAX_FACES];
	int nstill[NPICS];
	struct fdif_box truth[NPICS][MAX_FACES];
	int ntruth[NPICS];
	GstElement *pipeline;
	/* armed on this minor, or -1: teardown disarms it */
	int fault_minor;
	/* the platform device a test unbound, "" once bound again */
	char unbound[64];
};

/* the faces in @img, still, upright only (as the pipelines ask); MAX_FACES at most */
static int still_faces(struct fdif_device *dev, const struct fdif_image *img,
		       struct fdif_face *f)
{
	struct fdif_params p;
	int n;

	fdif_params_init(&p, sizeof(p));
	p.timeout_ns = WAIT_NS;
	n = fdif_detect_image(dev, img, &p, f, MAX_FACES);
	return n > MAX_FACES ? MAX_FACES : n;
}

FIXTURE_SETUP(gst)
{
	char fd_path[64];
	int cap, err;
	unsigned int k;

	self->out = -1;
	self->pipeline = NULL;
	self->fault_minor = -1;
	self->unbound[0] = '\0';
	gst_init(NULL, NULL);
	ASSERT_EQ(0, fdif_open(&self->dev));
	for (k = 0; k < NPICS; k++) {
		char path[64];

		snprintf(path, sizeof(path), "/data/%s.pgm", names[k]);
		ASSERT_EQ(0, fdif_image_load(path, &self->pic[k]));
		ASSERT_EQ(W, self->pic[k].width);
		ASSERT_EQ(H, self->pic[k].height);
		self->nstill[k] = still_faces(self->dev, &self->pic[k], self->still[k]);
		ASSERT_GE(self->nstill[k], 0);
		self->ntruth[k] = fdif_load_truth(names[k], self->truth[k], MAX_FACES);
		ASSERT_GE(self->ntruth[k], 0);
	}
	err = fdif_vivid_load();
	if (err == -ENODEV)
		SKIP(return, "no vivid camera driver (CONFIG_VIDEO_VIVID)");
	ASSERT_EQ(0, err);
	cap = fdif_vivid_node(V4L2_CAP_VIDEO_CAPTURE);
	self->out = fdif_vivid_node(V4L2_CAP_VIDEO_OUTPUT);
	ASSERT_GE(cap, 0);
	ASSERT_GE(self->out, 0);
	ASSERT_EQ(0, fdif_vivid_loop(cap, self->out, W, H));
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", cap);
	memset(self->node, 0, sizeof(self->node));
	ASSERT_LT(0, readlink(fd_path, self->node, sizeof(self->node) - 1));
	close(cap);	/* v4l2src opens it */
	ASSERT_EQ(0, fdif_vivid_feed_start(&self->feed, self->out, W, H,
					   self->pic[0].pixels));
}

/* the sysfs attribute @attr of the fdif platform driver, written @name */
static int driver_write(const char *attr, const char *name)
{
	char path[128];
	int fd, w;

	snprintf(path, sizeof(path), DRV_DIR "/%s", attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, name, strlen(name));
	w = w < 0 ? -errno : w == (int)strlen(name) ? 0 : -EIO;
	close(fd);
	return w;
}

FIXTURE_TEARDOWN(gst)
{
	/* a test that failed between arming a fault and disarming it */
	if (self->fault_minor >= 0)
		fdif_emu_inject_on(self->fault_minor, FDIF_FAULT_NONE, 0);
	if (self->pipeline) {
		gst_element_set_state(self->pipeline, GST_STATE_NULL);
		gst_object_unref(self->pipeline);
	}
	/* one that returned between unbinding the FDIF and binding it again */
	if (self->unbound[0] && fdif_devname_minor(self->unbound) < 0)
		driver_write("bind", self->unbound);
	fdif_vivid_feed_stop(&self->feed);
	if (self->out >= 0)
		close(self->out);
	for (unsigned int k = 0; k < NPICS; k++)
		fdif_image_free(&self->pic[k]);
	fdif_close(self->dev);
}

/* the pipeline from @desc, playing; NULL if it does not parse or start */
static GstElement *play(const char *desc)
{
	GError *err = NULL;
	GstElement *p = gst_parse_launch(desc, &err);

	if (!p || err) {
		fprintf(stderr, "# %s: %s\n", desc, err ? err->message : "?");
		g_clear_error(&err);
		return NULL;
	}
	if (gst_element_set_state(p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
		gst_object_unref(p);
		return NULL;
	}
	return p;
}

/*
 * The next error on @p's bus within @seconds: "source: message", or NULL
 * if none. @domain, @code and @debug (the message's debug text, g_free()
 * it), when not NULL, get the error's.
 */
static gchar *bus_error_full(GstElement *p, int seconds, GQuark *domain, int *code,
			     gchar **debug)
{
	GstBus *bus = gst_element_get_bus(p);
	GstMessage *m = gst_bus_timed_pop_filtered(bus, (GstClockTime)seconds * GST_SECOND,
						   GST_MESSAGE_ERROR);
	GError *err = NULL;
	gchar *text = NULL, *dbg = NULL;

	if (m) {
		gst_message_parse_error(m, &err, &dbg);
		text = g_strdup_printf("%s: %s", GST_OBJECT_NAME(GST_MESSAGE_SRC(m)),
				       err->message);
		if (domain)
			*domain = err->domain;
		if (code)
			*code = err->code;
		g_clear_error(&err);
		gst_message_unref(m);
	}
	if (debug)
		*debug = dbg;
	else
		g_free(dbg);
	gst_object_unref(bus);
	return text;
}

static gchar *bus_error(GstElement *p, int seconds)
{
	return bus_error_full(p, seconds, NULL, NULL, NULL);
}

/* the faces of the "facedetect" message for the frame at @ts, or -1 */
static int message_faces(GstElement *p, GstClockTime ts, guint *boxes)
{
	GstBus *bus = gst_element_get_bus(p);
	GstMessage *m;
	int n = -1;

	while (n < 0 && (m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT))) {
		const GstStructure *s = gst_message_get_structure(m);
		guint64 t;

		if (gst_structure_has_name(s, "facedetect") &&
		    gst_structure_get_uint64(s, "timestamp", &t) && t == ts) {
			const GValue *faces = gst_structure_get_value(s, "faces");

			n = faces ? gst_value_list_get_size(faces) : 0;
			for (int i = 0; i < n && i < MAX_FACES; i++) {
				const GstStructure *f =
					gst_value_get_structure(gst_value_list_get_value(faces, i));

				gst_structure_get_uint(f, "x", &boxes[4 * i]);
				gst_structure_get_uint(f, "y", &boxes[4 * i + 1]);
				gst_structure_get_uint(f, "width", &boxes[4 * i + 2]);
				gst_structure_get_uint(f, "height", &boxes[4 * i + 3]);
			}
		}
		gst_message_unref(m);
	}
	gst_object_unref(bus);
	return n;
}

/* 1 if the face box @b (x y w h, picture pixels) is one of the still faces */
static bool is_still_face(const struct fdif_face *still, int n, const guint *b)
{
	for (int i = 0; i < n; i++) {
		double x = still[i].x - still[i].width / 2, y = still[i].y - still[i].height / 2;

		if (abs((int)b[0] - (int)x) <= 1 && abs((int)b[1] - (int)y) <= 1 &&
		    abs((int)b[2] - (int)still[i].width) <= 1 &&
		    abs((int)b[3] - (int)still[i].height) <= 1)
			return true;
	}
	return false;
}

/*
 * Show each picture on the camera, pull frames from the appsink until
 * FRAMES hold it, and check each one's metas and message. min-size 0:
 * every face the device finds, as the still picture's (the element's
 * default, facedetect's 30, would drop the smaller ones).
 */
static void check_stream(struct __test_metadata *_metadata, FIXTURE_DATA(gst) *self,
			 const char *io_mode, const char *format)
{
	enum { FRAMES = 3, TRIES = 60 };
	GstElement *sink, *det;
	guint64 imported = 0, copied = 0;
	gchar *desc;

	desc = g_strdup_printf("v4l2src device=%s io-mode=%s ! "
			       "video/x-raw,format=%s,width=%d,height=%d ! "
			       "fdiffacedetect name=det directions=up display=false "
			       "min-size-width=0 min-size-height=0 ! "
			       "appsink name=sink sync=false max-buffers=2", self->node,
			       io_mode, format, W, H);
	self->pipeline = play(desc);
	g_free(desc);
	ASSERT_NE(NULL, self->pipeline);
	sink = gst_bin_get_by_name(GST_BIN(self->pipeline), "sink");
	det = gst_bin_get_by_name(GST_BIN(self->pipeline), "det");
	for (unsigned int k = 0; k < NPICS; k++) {
		int matched = 0, tries = 0;

		ASSERT_EQ(0, fdif_vivid_show(&self->feed, self->pic[k].pixels));
		while (matched < FRAMES && tries++ < TRIES) {
			GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink),
								    5 * GST_SECOND);
			GstVideoRegionOfInterestMeta *roi;
			guint boxes[4 * MAX_FACES];
			gpointer state = NULL;
			GstBuffer *buf;
			GstMapInfo map;
			bool same;
			int n = 0, nmsg;

			ASSERT_NE(NULL, s) TH_LOG("no frame in 5 s: %s",
						  bus_error(self->pipeline, 0));
			buf = gst_sample_get_buffer(s);
			ASSERT_TRUE(gst_buffer_map(buf, &map, GST_MAP_READ));
			same = map.size >= W * H && !memcmp(map.data, self->pic[k].pixels, W * H);
			gst_buffer_unmap(buf, &map);
			/* the frames from before the picture changed */
			if (!same) {
				message_faces(self->pipeline, GST_BUFFER_PTS(buf), boxes);
				gst_sample_unref(s);
				continue;
			}
			while ((roi = (GstVideoRegionOfInterestMeta *)gst_buffer_iterate_meta_filtered(
					buf, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
				guint b[4] = { roi->x, roi->y, roi->w, roi->h };
				bool marked = false;

				EXPECT_EQ(g_quark_from_string("face"), roi->roi_type);
				EXPECT_TRUE(is_still_face(self->still[k], self->nstill[k], b))
					TH_LOG("%s: meta %u,%u %ux%u is not a still face", names[k],
					       b[0], b[1], b[2], b[3]);
				for (int t = 0; t < self->ntruth[k]; t++)
					marked |= fdif_box_holds(&self->truth[k][t], b[0] + b[2] / 2.0,
								 b[1] + b[3] / 2.0, b[2]);
				EXPECT_TRUE(marked) TH_LOG("%s: face %u,%u %ux%u is not marked",
							   names[k], b[0], b[1], b[2], b[3]);
				n++;
			}
			EXPECT_EQ(self->nstill[k], n) TH_LOG("%s: %d metas, %d still faces",
							     names[k], n, self->nstill[k]);
			/* facedetect's message, for the same frame and faces */
			nmsg = message_faces(self->pipeline, GST_BUFFER_PTS(buf), boxes);
			EXPECT_EQ(n, nmsg);
			for (int i = 0; i < nmsg && i < MAX_FACES; i++)
				EXPECT_TRUE(is_still_face(self->still[k], self->nstill[k],
							  &boxes[4 * i]));
			gst_sample_unref(s);
			matched++;
		}
		ASSERT_EQ(FRAMES, matched) TH_LOG("%s: %d of %d frames held it", names[k],
						  matched, tries);
		TH_LOG("%s (%s): %d faces, %d marked, in %d frames", names[k], io_mode,
		       self->nstill[k], self->ntruth[k], matched);
	}
	g_object_get(det, "frames-imported", &imported, "frames-copied", &copied, NULL);
	TH_LOG("%s: %llu frames imported, %llu copied", io_mode,
	       (unsigned long long)imported, (unsigned long long)copied);
	if (!strcmp(io_mode, "dmabuf") && fdif_ram_beyond_reach() == 0) {
		/* the camera's dma-bufs go to the device as they are */
		EXPECT_EQ(0, copied);
		EXPECT_LE(FRAMES * NPICS, imported);
	} else {
		/*
		 * mmap; or dma-bufs where the guest has RAM beyond the
		 * device's reach, whose driver refuses other exporters'
		 * buffers (the stress guest): copied
		 */
		EXPECT_LE(0, fdif_ram_beyond_reach());
		EXPECT_EQ(0, imported);
		EXPECT_LE(FRAMES * NPICS, copied);
	}
	gst_object_unref(det);
	gst_object_unref(sink);
	EXPECT_EQ(NULL, bus_error(self->pipeline, 0));
}

/* v4l2src io-mode=dmabuf: the device reads vivid's buffers, no copy */
TEST_F(gst, camera_dmabuf_frames_hold_marked_faces)
{
	check_stream(_metadata, self, "dmabuf", "GRAY8");
}

/* io-mode=mmap: memory the element cannot import, so it copies */
TEST_F(gst, camera_mmap_frames_copied_hold_marked_faces)
{
	check_stream(_metadata, self, "mmap", "GRAY8");
}

/*
 * A camera's usual NV12: the device reads the luma plane of vivid's
 * dma-buf where it is (the first plane is the grey picture; the frame
 * check compares it), no copy.
 */
TEST_F(gst, camera_nv12_dmabuf_luma_imported)
{
	int cap;

	fdif_vivid_feed_stop(&self->feed);
	cap = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(cap, 0);
	ASSERT_EQ(0, fdif_vivid_loop_fmt(cap, self->out, W, H, V4L2_PIX_FMT_NV12));
	close(cap);
	ASSERT_EQ(0, fdif_vivid_feed_start(&self->feed, self->out, W, H,
					   self->pic[0].pixels));
	check_stream(_metadata, self, "dmabuf", "NV12");
}

/*
 * RGB16 is not a format the element takes (RGB, its 32-bit relatives and
 * packed YUV are, made grey in the copy). The element's sink pad does not
 * offer it (while it offers GRAY8, so the answer is not merely empty);
 * and a pipeline that links it anyway, with no caps check at link time,
 * stops with not-negotiated instead of running or crashing.
 */
TEST_F(gst, format_device_does_not_take_is_not_negotiated)
{
	GstCaps *rgb = gst_caps_from_string("video/x-raw,format=RGB16,width=320,height=240");
	GstCaps *gray = gst_caps_from_string("video/x-raw,format=GRAY8,width=320,height=240");
	GstElement *src, *filter, *det, *sink;
	GstPad *out, *in;
	GstCaps *offered;
	gchar *err, *debug = NULL;
	GQuark domain = 0;
	int code = 0;

	det = gst_element_factory_make("fdiffacedetect", "det");
	ASSERT_NE(NULL, det) TH_LOG("no fdiffacedetect element");
	in = gst_element_get_static_pad(det, "sink");
	offered = gst_pad_query_caps(in, NULL);
	EXPECT_TRUE(gst_caps_can_intersect(offered, gray));
	EXPECT_FALSE(gst_caps_can_intersect(offered, rgb))
		TH_LOG("the sink pad offers RGB16: %" GST_PTR_FORMAT, offered);
	gst_caps_unref(offered);

	self->pipeline = gst_pipeline_new(NULL);
	src = gst_element_factory_make("videotestsrc", NULL);
	filter = gst_element_factory_make("capsfilter", NULL);
	sink = gst_element_factory_make("fakesink", NULL);
	ASSERT_TRUE(src && filter && sink);
	g_object_set(src, "num-buffers", 5, NULL);
	g_object_set(filter, "caps", rgb, NULL);
	gst_bin_add_many(GST_BIN(self->pipeline), src, filter, det, sink, NULL);
	ASSERT_TRUE(gst_element_link(det, sink));
	ASSERT_TRUE(gst_element_link(src, filter));
	out = gst_element_get_static_pad(filter, "src");
	ASSERT_EQ(GST_PAD_LINK_OK, gst_pad_link_full(out, in, GST_PAD_LINK_CHECK_NOTHING));
	gst_object_unref(out);
	gst_object_unref(in);
	gst_element_set_state(self->pipeline, GST_STATE_PLAYING);
	err = bus_error_full(self->pipeline, 10, &domain, &code, &debug);
	ASSERT_NE(NULL, err) TH_LOG("RGB16 frames ran through without an error");
	TH_LOG("%s (%s)", err, debug);
	/* a data-flow error of the source, for the not-negotiated flow return */
	EXPECT_EQ(GST_STREAM_ERROR, domain);
	EXPECT_TRUE(debug && strstr(debug, "not-negotiated"));
	g_free(err);
	g_free(debug);
	gst_caps_unref(rgb);
	gst_caps_unref(gray);
}

/*
 * The device hangs on every job: the driver's timeout (2 s in the guest)
 * ends each with -ETIMEDOUT, and the pipeline gets an error from the
 * element, and stops cleanly.
 */
TEST_F(gst, hung_device_stops_pipeline_with_error)
{
	gchar *desc, *err;
	GQuark domain = 0;

	int fd;

	if (!fdif_emu_available())
		SKIP(return, "no emulated FDIF with test registers");
	/* this test's device, which need not be the first instance */
	fd = open(fdif_device_path(self->dev), O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	self->fault_minor = fdif_fd_minor(fd);
	close(fd);
	ASSERT_GE(self->fault_minor, 0);
	ASSERT_EQ(0, fdif_emu_inject_on(self->fault_minor, FDIF_FAULT_HANG, 64));
	desc = g_strdup_printf("v4l2src device=%s io-mode=dmabuf ! "
			       "video/x-raw,format=GRAY8,width=%d,height=%d ! "
			       "fdiffacedetect name=det directions=up device=%s ! "
			       "fakesink", self->node, W, H, fdif_device_path(self->dev));
	self->pipeline = play(desc);
	g_free(desc);
	err = self->pipeline ? bus_error_full(self->pipeline, 30, &domain, NULL, NULL) : NULL;
	/* disarmed before any assertion can end the test */
	fdif_emu_inject_on(self->fault_minor, FDIF_FAULT_NONE, 0);
	self->fault_minor = -1;
	ASSERT_NE(NULL, self->pipeline);
	ASSERT_NE(NULL, err);
	TH_LOG("%s", err);
	/* the element's error (a device error), not the camera's */
	EXPECT_EQ(0, strncmp(err, "det:", 4));
	EXPECT_EQ(GST_RESOURCE_ERROR, domain);
	g_free(err);
	EXPECT_EQ(GST_STATE_CHANGE_SUCCESS,
		  gst_element_set_state(self->pipeline, GST_STATE_NULL));
}

/*
 * The FDIF is unbound from its driver mid-stream (its device goes away):
 * the element's jobs end with -ENODEV or its submits fail, the pipeline
 * gets the element's error and stops; bound again, the same FDIF (found
 * by its platform device name: its accel minor may change) works.
 */
TEST_F(gst, device_unbound_mid_stream_stops_pipeline)
{
	char name[64], path[64];
	struct fdif_face f[MAX_FACES];
	struct fdif_device *dev;
	gchar *desc, *err;
	GstElement *sink;
	GQuark domain = 0;
	GstSample *s;
	int fd, minor;

	/* nothing of this process may hold the device but the pipeline */
	snprintf(path, sizeof(path), "%s", fdif_device_path(self->dev));
	fdif_close(self->dev);
	self->dev = NULL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	minor = fdif_fd_minor(fd);
	close(fd);
	ASSERT_EQ(0, fdif_minor_devname(minor, name, sizeof(name)));
	desc = g_strdup_printf("v4l2src device=%s io-mode=dmabuf ! "
			       "video/x-raw,format=GRAY8,width=%d,height=%d ! "
			       "fdiffacedetect name=det directions=up device=%s ! "
			       "appsink name=sink sync=false max-buffers=2 drop=true",
			       self->node, W, H, path);
	self->pipeline = play(desc);
	g_free(desc);
	ASSERT_NE(NULL, self->pipeline);
	sink = gst_bin_get_by_name(GST_BIN(self->pipeline), "sink");
	s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 5 * GST_SECOND);
	ASSERT_NE(NULL, s);
	gst_sample_unref(s);
	gst_object_unref(sink);

	ASSERT_EQ(0, driver_write("unbind", name));
	snprintf(self->unbound, sizeof(self->unbound), "%s", name);
	/*
	 * Only EXPECTs until the bind: an ASSERT would end the test with the
	 * FDIF unbound for every later test, as this harness (6.12's) runs
	 * no teardown after an ASSERT (its longjmp loses the fork's pid).
	 */
	err = bus_error_full(self->pipeline, 15, &domain, NULL, NULL);
	EXPECT_NE(NULL, err) TH_LOG("the stream went on without its device");
	if (err) {
		TH_LOG("%s", err);
		/* the element's error (the device is gone), not the camera's */
		EXPECT_EQ(0, strncmp(err, "det:", 4));
		EXPECT_EQ(GST_RESOURCE_ERROR, domain);
		g_free(err);
	}
	EXPECT_EQ(GST_STATE_CHANGE_SUCCESS,
		  gst_element_set_state(self->pipeline, GST_STATE_NULL));
	gst_object_unref(self->pipeline);
	self->pipeline = NULL;
	EXPECT_EQ(-ENODEV, fdif_devname_minor(name));

	ASSERT_EQ(0, driver_write("bind", name));
	self->unbound[0] = '\0';
	/* and it finds faces again, the same FDIF as a new device */
	for (int i = 0; i < 50 && (minor = fdif_devname_minor(name)) < 0; i++)
		usleep(100000);
	ASSERT_GE(minor, 0) TH_LOG("%s has no accel node after the bind", name);
	snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
	for (int i = 0; i < 50 && access(path, F_OK); i++)
		usleep(100000);
	ASSERT_EQ(0, fdif_open_path(path, &dev));
	EXPECT_EQ(self->nstill[0], still_faces(dev, &self->pic[0], f));
	fdif_close(dev);
}

TEST_HARNESS_MAIN
