// SPDX-License-Identifier: MIT
/*
 * fdiffacedetect on the host (GStreamer's check library, GstHarness):
 * what needs no device (factory, pads, properties, no device at start),
 * then frames through it on the project's fake fdif kernel
 * (libfdif-drm/tests/mock-kernel.c) preloaded under this program: the
 * faces it scripts come back mapped to the input's size, in the bus
 * message and the ROI metas; dma-bufs in the device's layout are
 * imported, not copied; a failed, lost or hung job is a GStreamer error.
 *
 * The mock's state (struct mock_kernel k) is reached with dlsym(): what
 * the element submitted (threshold, minimum size, the frame's BO and
 * offset) and the frame a copy put in its BO are read there. The mock
 * tests skip when it is not preloaded and not asked for; with
 * $FDIF_MOCK_DEVICE set (meson's environment) and no fake kernel in the
 * process, they fail.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "mock-kernel.h"

static struct mock_kernel *mk;		/* the preloaded fake kernel's state */
static pthread_mutex_t *mk_lock;
static const char *mock_device;		/* $FDIF_MOCK_DEVICE */

static gboolean
need_mock (void)
{
  if (!mk || !mock_device) {
    if (mock_device) {
      /* asked for (meson sets both): a preload that did not load is a failure */
      g_test_message ("FDIF_MOCK_DEVICE is set, but the fake kernel is not in this "
          "process (LD_PRELOAD=%s)", g_getenv ("LD_PRELOAD"));
      g_test_fail ();
    } else {
      g_test_skip ("the fake kernel is not preloaded (LD_PRELOAD, FDIF_MOCK_DEVICE)");
    }
    return FALSE;
  }
  pthread_mutex_lock (mk_lock);
  mk->status = 0;
  mk->busy = 0;
  mk->hang_fences = 0;
  mk->nfaces = 1;
  mk->faces[0] = (struct fake_face) { .cx = 160, .cy = 120, .size = 40,
      .confidence = 900, .raw = 1, .fields = 0x1f };
  pthread_mutex_unlock (mk_lock);
  return TRUE;
}

static unsigned int
mk_get (const unsigned int *field)
{
  unsigned int v;

  pthread_mutex_lock (mk_lock);
  v = *field;
  pthread_mutex_unlock (mk_lock);
  return v;
}

/* The last submission's first job, as the fake kernel took it */
static struct drm_fdif_job
mk_last_job (void)
{
  struct drm_fdif_job j;

  pthread_mutex_lock (mk_lock);
  g_assert_cmpuint (mk->job_count, >, 0);
  j = mk->jobs[0];
  pthread_mutex_unlock (mk_lock);
  return j;
}

/* BO @handle is open in the fake kernel, and was imported from a dma-buf */
static void
mk_bo_state (guint32 handle, gboolean * live, gboolean * imported)
{
  g_assert_cmpuint (handle, >, 0);
  g_assert_cmpuint (handle, <=, MAX_BOS);
  pthread_mutex_lock (mk_lock);
  *live = mk->bo[handle - 1].live;
  *imported = mk->bo[handle - 1].imported;
  pthread_mutex_unlock (mk_lock);
}

/*
 * The frame a job reads: the 320x240 bytes at @offset of BO @handle, as
 * the fake kernel holds them (a BO it made: a copy; it keeps no pixels of
 * an imported dma-buf)
 */
static guint8 *
mk_frame (guint32 handle, guint32 offset)
{
  guint8 *px = g_malloc (320 * 240);
  off_t at;

  pthread_mutex_lock (mk_lock);
  g_assert_true (mk->bo[handle - 1].live);
  g_assert_false (mk->bo[handle - 1].imported);
  at = (off_t) (mk->bo[handle - 1].off + offset);
  g_assert_cmpint (pread (mk->fd, px, 320 * 240, at), ==, 320 * 240);
  pthread_mutex_unlock (mk_lock);
  return px;
}

/* BOs the fake kernel has imported from dma-bufs and not closed */
static guint
mk_live_imports (void)
{
  guint h, n = 0;

  pthread_mutex_lock (mk_lock);
  for (h = 0; h < MAX_BOS; h++)
    n += mk->bo[h].live && mk->bo[h].imported;
  pthread_mutex_unlock (mk_lock);
  return n;
}

/* The next jobs hang (@on), their fences never signalling, as a hung device's */
static void
mk_hang (int on)
{
  pthread_mutex_lock (mk_lock);
  mk->busy = on;
  mk->hang_fences = on;
  pthread_mutex_unlock (mk_lock);
}

/* Without a device */

static void
test_factory (void)
{
  GstElementFactory *f = gst_element_factory_find ("fdiffacedetect");
  const GList *l;
  guint n = 0;

  g_assert_nonnull (f);
  g_assert_cmpstr (gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_KLASS), ==,
      "Filter/Analyzer/Video/Hardware");
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps = gst_static_pad_template_get_caps (t);
    GstCaps *gray = gst_caps_from_string ("video/x-raw,format=GRAY8,width=123,height=45");
    GstCaps *rgb16 = gst_caps_from_string ("video/x-raw,format=RGB16,width=320,height=240");
    GstCaps *nv12 = gst_caps_from_string ("video/x-raw,format=NV12,width=320,height=240");
    static const char *const taken[] = { "RGB", "BGR", "RGBx", "BGRx", "xRGB", "YUY2",
      "UYVY", "I420", "YV12", "NV21",
    };

    g_assert_true (t->presence == GST_PAD_ALWAYS);
    g_assert_true (g_str_equal (t->name_template, t->direction == GST_PAD_SINK ? "sink" : "src"));
    /*
     * any size (the library scales); GRAY8 and luma-plane formats, and
     * facedetect's RGB and a USB camera's packed YUV (grey in the copy)
     */
    g_assert_true (gst_caps_can_intersect (caps, gray));
    g_assert_true (gst_caps_can_intersect (caps, nv12));
    for (guint i = 0; i < G_N_ELEMENTS (taken); i++) {
      gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=640,height=480", taken[i]);
      GstCaps *c = gst_caps_from_string (str);

      if (!gst_caps_can_intersect (caps, c))
        g_error ("%s: %s not taken", t->name_template, taken[i]);
      gst_caps_unref (c);
      g_free (str);
    }
    g_assert_false (gst_caps_can_intersect (caps, rgb16));
    gst_caps_unref (nv12);
    gst_caps_unref (caps);
    gst_caps_unref (gray);
    gst_caps_unref (rgb16);
    n++;
  }
  g_assert_cmpuint (n, ==, 2);
  gst_object_unref (f);
}

static void
test_properties (void)
{
  GstElement *e = gst_element_factory_make ("fdiffacedetect", NULL);
  GParamSpec *ps;
  gboolean display;
  gint msw, msh, threshold, updates;
  guint directions;
  guint64 imported, copied;
  gchar *device;

  g_assert_nonnull (e);
  g_object_get (e, "display", &display, "min-size-width", &msw, "min-size-height", &msh,
      "threshold", &threshold, "directions", &directions, "device", &device,
      "updates", &updates, "frames-imported", &imported, "frames-copied", &copied, NULL);
  g_assert_true (display);	/* facedetect's default */
  g_assert_cmpint (msw, ==, 30);	/* facedetect's */
  g_assert_cmpint (msh, ==, 30);
  g_assert_cmpint (threshold, ==, -1);
  g_assert_cmpuint (directions, ==, 1);	/* up */
  g_assert_null (device);
  g_assert_cmpint (updates, ==, 0);	/* every_frame */
  g_assert_cmpuint (imported, ==, 0);
  g_assert_cmpuint (copied, ==, 0);

  /* the ranges refuse what the device cannot take; the old value stays */
  g_object_set (e, "threshold", 7, NULL);
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "threshold", 10, NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "threshold", -2, NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "min-size-width", -1, NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "directions", 8, NULL);
  g_test_assert_expected_messages ();
  g_object_get (e, "threshold", &threshold, "min-size-width", &msw, "directions",
      &directions, NULL);
  g_assert_cmpint (threshold, ==, 7);
  g_assert_cmpint (msw, ==, 30);
  g_assert_cmpuint (directions, ==, 1);

  /* the counters are read-only */
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "frames-copied");
  g_assert_nonnull (ps);
  g_assert_false (ps->flags & G_PARAM_WRITABLE);
  g_assert_true (G_PARAM_SPEC_VALUE_TYPE (ps) == G_TYPE_UINT64);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "frames-imported");
  g_assert_nonnull (ps);
  g_assert_false (ps->flags & G_PARAM_WRITABLE);
  gst_object_unref (e);
}

static GstDebugLevel category_at_least (const gchar * name, GstDebugLevel level);
static void category_restore (const gchar * name, GstDebugLevel level);

/* A property's flags, which must be there */
static GParamFlags
prop_flags (GstElement * e, const char *name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);

  if (!ps)
    g_error ("no property %s", name);
  return ps->flags;
}

/*
 * facedetect's properties, with its types, ranges and defaults (gst-plugins-bad
 * 1.22's gstfacedetect.cpp): the cascade profiles (strings: the FDIF has
 * its own model, so none is named), scale-factor (double 1.1..10, 1.25),
 * min-neighbors (int, 3), flags (do-canny-pruning), min-stddev (int
 * 0..255, 0), min-size 30, and QoS on (facedetect is a GstVideoFilter).
 * Those a playing pipeline may change say so (GST_PARAM_MUTABLE_PLAYING);
 * the device is opened at start (GST_PARAM_MUTABLE_READY).
 */
static void
test_facedetect_properties (void)
{
  GstElement *e = gst_element_factory_make ("fdiffacedetect", NULL);
  static const char *const playing[] = { "display", "min-size-width", "min-size-height",
    "updates", "threshold", "directions", "min-neighbors", "min-stddev",
  };
  static const char *const profiles[] = { "profile", "nose-profile", "mouth-profile",
    "eyes-profile",
  };
  GParamSpecDouble *sf;
  gint mn, ms;
  guint flags, i;
  gdouble scale;
  gboolean qos;
  gchar *str;

  g_assert_nonnull (e);
  g_object_get (e, "scale-factor", &scale, "min-neighbors", &mn, "flags", &flags,
      "min-stddev", &ms, "qos", &qos, NULL);
  g_assert_cmpfloat (scale, ==, 1.25);
  g_assert_cmpint (mn, ==, 3);
  g_assert_cmpuint (flags, ==, 1);	/* do-canny-pruning */
  g_assert_cmpint (ms, ==, 0);
  g_assert_true (qos);
  sf = G_PARAM_SPEC_DOUBLE (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          "scale-factor"));
  g_assert_cmpfloat (sf->minimum, ==, 1.1);
  g_assert_cmpfloat (sf->maximum, ==, 10.0);
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "min-stddev", 256, NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("GLib-GObject", G_LOG_LEVEL_WARNING, "*out of range*");
  g_object_set (e, "min-neighbors", -1, NULL);
  g_test_assert_expected_messages ();
  for (i = 0; i < G_N_ELEMENTS (profiles); i++) {
    g_assert_true (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
            (G_OBJECT_GET_CLASS (e), profiles[i])) == G_TYPE_STRING);
    g_object_get (e, profiles[i], &str, NULL);
    g_assert_null (str);
  }
  for (i = 0; i < G_N_ELEMENTS (playing); i++)
    if (!(prop_flags (e, playing[i]) & GST_PARAM_MUTABLE_PLAYING))
      g_error ("%s: not GST_PARAM_MUTABLE_PLAYING", playing[i]);
  g_assert_true (prop_flags (e, "device") & GST_PARAM_MUTABLE_READY);
  gst_object_unref (e);
}

/* Counts the element's WARNING log messages that say something is ignored */
static void
ignored_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  const gchar *text = gst_debug_message_get (message);

  if (level == GST_LEVEL_WARNING && g_str_equal (gst_debug_category_get_name (cat),
          "fdiffacedetect") && text && strstr (text, "ignored"))
    g_atomic_int_inc ((gint *) data);
}

/*
 * A pipeline description written for facedetect, every one of its
 * properties set, parses with fdiffacedetect in its place; the values are
 * kept, and each of what the FDIF cannot use (the four profiles,
 * scale-factor, flags) is a WARNING that says it is ignored.
 */
static void
test_facedetect_pipeline_string (void)
{
  GError *err = NULL;
  GstElement *bin, *e;
  GstDebugLevel old;
  gint warnings = 0, mn, ms, msw;
  gdouble scale;
  guint flags;
  gchar *profile;

  /* the element's type, and with it its debug category */
  gst_object_unref (gst_element_factory_make ("fdiffacedetect", NULL));
  old = category_at_least ("fdiffacedetect", GST_LEVEL_WARNING);
  gst_debug_add_log_function (ignored_log, &warnings, NULL);
  bin = gst_parse_launch ("fdiffacedetect name=f display=false "
      "profile=/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml "
      "nose-profile=/usr/share/opencv4/haarcascades/haarcascade_mcs_nose.xml "
      "mouth-profile=/usr/share/opencv4/haarcascades/haarcascade_mcs_mouth.xml "
      "eyes-profile=/usr/share/opencv4/haarcascades/haarcascade_mcs_eyepair_small.xml "
      "scale-factor=1.1 min-neighbors=5 flags=0 min-stddev=12 "
      "min-size-width=40 min-size-height=44 updates=on_change", &err);
  gst_debug_remove_log_function (ignored_log);
  category_restore ("fdiffacedetect", old);
  g_assert_no_error (err);
  g_assert_nonnull (bin);
  e = GST_IS_BIN (bin) ? gst_bin_get_by_name (GST_BIN (bin), "f") : gst_object_ref (bin);
  g_assert_nonnull (e);
  g_object_get (e, "profile", &profile, "scale-factor", &scale, "min-neighbors", &mn,
      "flags", &flags, "min-stddev", &ms, "min-size-width", &msw, NULL);
  g_assert_cmpstr (profile, ==,
      "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml");
  g_assert_cmpfloat (scale, ==, 1.1);
  g_assert_cmpint (mn, ==, 5);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_cmpint (ms, ==, 12);
  g_assert_cmpint (msw, ==, 40);
  g_assert_cmpint (warnings, ==, 6);
  g_free (profile);
  gst_object_unref (e);
  gst_object_unref (bin);
}

/* The error message on @bus, which must be there. */
static GError *
bus_error (GstBus * bus)
{
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *dbg = NULL;

  g_assert_nonnull (m);
  gst_message_parse_error (m, &err, &dbg);
  g_test_message ("error: %s (%s)", err->message, dbg);
  g_free (dbg);
  gst_message_unref (m);
  return err;
}

/* start() without a device: an error message, not a crash */
static void
no_device (const char *device)
{
  GstElement *e = gst_element_factory_make ("fdiffacedetect", NULL);
  GstBus *bus = gst_bus_new ();
  GError *err;

  if (device)
    g_object_set (e, "device", device, NULL);
  gst_element_set_bus (e, bus);
  g_assert_cmpint (gst_element_set_state (e, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_FAILURE);
  err = bus_error (bus);
  g_assert_true (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND));
  if (device)
    g_assert_nonnull (strstr (err->message, device));
  g_error_free (err);
  g_assert_cmpint (gst_element_set_state (e, GST_STATE_NULL), ==, GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

static void
test_no_device_path (void)
{
  no_device ("/nonexistent/accel0");
}

static void
test_no_device_dir (void)
{
  gchar *dir = g_dir_make_tmp ("fdif-gst-XXXXXX", NULL);
  gchar *old = g_strdup (g_getenv ("FDIF_ACCEL_DIR"));

  g_assert_nonnull (dir);
  g_setenv ("FDIF_ACCEL_DIR", dir, TRUE);	/* no accel* in it */
  no_device (NULL);
  if (old)
    g_setenv ("FDIF_ACCEL_DIR", old, TRUE);
  else
    g_unsetenv ("FDIF_ACCEL_DIR");
  g_rmdir (dir);
  g_free (dir);
  g_free (old);
}

/* On the fake kernel */

struct run {
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
  guint width, height;
};

static void
run_start_fmt (struct run *r, const char *format, guint width, guint height,
    const char *props)
{
  gchar *caps;

  r->e = gst_element_factory_make ("fdiffacedetect", NULL);
  g_object_set (r->e, "device", mock_device, NULL);
  if (props) {
    gchar **kv = g_strsplit (props, " ", -1), **p;

    for (p = kv; *p; p++) {
      gchar **nv = g_strsplit (*p, "=", 2);

      gst_util_set_object_arg (G_OBJECT (r->e), nv[0], nv[1]);
      g_strfreev (nv);
    }
    g_strfreev (kv);
  }
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->e, r->bus);
  r->h = gst_harness_new_with_element (r->e, "sink", "src");
  gst_harness_play (r->h);
  r->width = width;
  r->height = height;
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,framerate=30/1",
      format, width, height);
  gst_harness_set_src_caps_str (r->h, caps);
  g_free (caps);
}

static void
run_start (struct run *r, guint width, guint height, const char *props)
{
  run_start_fmt (r, "GRAY8", width, height, props);
}

static void
run_stop (struct run *r)
{
  gst_harness_teardown (r->h);
  gst_element_set_bus (r->e, NULL);
  gst_object_unref (r->bus);
  gst_object_unref (r->e);
}

static GstBuffer *
gray_buffer (guint width, guint height, guint64 n)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, (gsize) width * height, NULL);

  gst_buffer_memset (b, 0, 0x40, (gsize) width * height);
  GST_BUFFER_PTS (b) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

/* A @size byte dma-buf (a memfd: the fake kernel takes any file) */
static GstBuffer *
dmabuf_buffer (GstAllocator * alloc, gsize size, guint64 n)
{
  int fd = memfd_create ("fdif-gst-frame", MFD_CLOEXEC);
  GstBuffer *b = gst_buffer_new ();

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) size), ==, 0);
  gst_buffer_append_memory (b, gst_dmabuf_allocator_alloc (alloc, fd, size));
  GST_BUFFER_PTS (b) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

/* The next "facedetect" message's faces, checked against facedetect's format */
static const GValue *
next_faces (struct run *r, GstMessage ** msg, GstClockTime ts)
{
  const GstStructure *s;
  GstClockTime t;

  *msg = gst_bus_pop_filtered (r->bus, GST_MESSAGE_ELEMENT);
  g_assert_nonnull (*msg);
  s = gst_message_get_structure (*msg);
  g_assert_true (gst_structure_has_name (s, "facedetect"));
  g_assert_true (gst_structure_get_uint64 (s, "timestamp", &t));
  g_assert_cmpuint (t, ==, ts);
  g_assert_true (gst_structure_get_uint64 (s, "running-time", &t));
  g_assert_cmpuint (t, ==, ts);
  g_assert_true (gst_structure_get_uint64 (s, "stream-time", &t));
  g_assert_cmpuint (t, ==, ts);
  g_assert_true (gst_structure_get_uint64 (s, "duration", &t));
  g_assert_cmpuint (t, ==, GST_SECOND / 30);
  g_assert_true (gst_structure_has_field_typed (s, "faces", GST_TYPE_LIST));
  return gst_structure_get_value (s, "faces");
}

static void
check_face (const GValue * faces, guint i, guint x, guint y, guint w, guint h)
{
  const GstStructure *f = gst_value_get_structure (gst_value_list_get_value (faces, i));
  guint v;

  g_assert_true (gst_structure_has_name (f, "face"));
  g_assert_true (gst_structure_get_uint (f, "x", &v));
  g_assert_cmpuint (v, ==, x);
  g_assert_true (gst_structure_get_uint (f, "y", &v));
  g_assert_cmpuint (v, ==, y);
  g_assert_true (gst_structure_get_uint (f, "width", &v));
  g_assert_cmpuint (v, ==, w);
  g_assert_true (gst_structure_get_uint (f, "height", &v));
  g_assert_cmpuint (v, ==, h);
}

/* face @i's confidence and angle in the message */
static void
check_face_fields (const GValue * faces, guint i, guint confidence, guint angle)
{
  const GstStructure *f = gst_value_get_structure (gst_value_list_get_value (faces, i));
  guint v;

  g_assert_true (gst_structure_get_uint (f, "confidence", &v));
  g_assert_cmpuint (v, ==, confidence);
  g_assert_true (gst_structure_get_uint (f, "angle", &v));
  g_assert_cmpuint (v, ==, angle);
}

static void
check_roi (GstBuffer * b, guint x, guint y, guint w, guint h)
{
  gpointer state = NULL;
  GstMeta *m;
  guint n = 0;

  while ((m = gst_buffer_iterate_meta_filtered (b, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) m;

    g_assert_cmpstr (g_quark_to_string (roi->roi_type), ==, "face");
    g_assert_cmpuint (roi->x, ==, x);
    g_assert_cmpuint (roi->y, ==, y);
    g_assert_cmpuint (roi->w, ==, w);
    g_assert_cmpuint (roi->h, ==, h);
    g_assert_nonnull (gst_video_region_of_interest_meta_get_param (roi, "fdif"));
    n++;
  }
  g_assert_cmpuint (n, ==, 1);
}

static guint64
counter (struct run *r, const char *name)
{
  guint64 v;

  g_object_get (r->e, name, &v, NULL);
  return v;
}

/*
 * The frames out of the element once @n are, or 5 s have passed: the task
 * pushes them on its own
 */
static guint
wait_received (struct run *r, guint n)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (gst_harness_buffers_received (r->h) < n && g_get_monotonic_time () < end)
    g_usleep (1000);
  return gst_harness_buffers_received (r->h);
}

/* The element's latency as a query from downstream has it */
static void
latency_of (struct run *r, GstClockTime * min, GstClockTime * max)
{
  GstQuery *q = gst_query_new_latency ();
  gboolean live;

  g_assert_true (gst_pad_peer_query (r->h->sinkpad, q));
  gst_query_parse_latency (q, &live, min, max);
  gst_query_unref (q);
}

/*
 * 640x480 frames: fitted (scaled by 1/2) into copies; the fake face at
 * (160,120) size 40 in the device's frame is (280,200) 80x80 here. The
 * second frame is submitted before the first comes out (pipelined).
 */
static void
test_mock_copy (void)
{
  struct run r;
  GstMessage *msg;
  GstBuffer *b;
  GstMapInfo mi;
  guint i, submits;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  /* each frame out when its jobs are done: no latency added */
  g_assert_cmpuint (gst_harness_query_latency (r.h), ==, 0);
  submits = mk_get (&mk->submits);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 1);
  /* a request/response application: frame 0 back without frame 1 */
  g_assert_cmpuint (wait_received (&r, 1), ==, 1);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 2);
  g_assert_cmpuint (wait_received (&r, 2), ==, 2);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 2)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));	/* drains */
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 3);

  for (i = 0; i < 3; i++) {
    const GValue *faces = next_faces (&r, &msg, i * GST_SECOND / 30);

    g_assert_cmpuint (gst_value_list_get_size (faces), ==, 1);
    check_face (faces, 0, 280, 200, 80, 80);
    gst_message_unref (msg);

    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    check_roi (b, 280, 200, 80, 80);
    /* display: the box's outline drawn, its inside left alone */
    g_assert_true (gst_buffer_map (b, &mi, GST_MAP_READ));
    g_assert_cmpuint (mi.data[200 * 640 + 300], ==, 255);	/* top */
    g_assert_cmpuint (mi.data[201 * 640 + 300], ==, 255);
    g_assert_cmpuint (mi.data[202 * 640 + 300], ==, 0x40);
    g_assert_cmpuint (mi.data[279 * 640 + 281], ==, 255);
    g_assert_cmpuint (mi.data[279 * 640 + 320], ==, 255);	/* bottom */
    g_assert_cmpuint (mi.data[278 * 640 + 320], ==, 255);
    g_assert_cmpuint (mi.data[277 * 640 + 320], ==, 0x40);
    g_assert_cmpuint (mi.data[240 * 640 + 280], ==, 255);	/* left */
    g_assert_cmpuint (mi.data[240 * 640 + 359], ==, 255);	/* right */
    g_assert_cmpuint (mi.data[240 * 640 + 358], ==, 255);
    g_assert_cmpuint (mi.data[240 * 640 + 357], ==, 0x40);
    g_assert_cmpuint (mi.data[240 * 640 + 360], ==, 0x40);
    g_assert_cmpuint (mi.data[240 * 640 + 320], ==, 0x40);
    g_assert_cmpuint (mi.data[10 * 640 + 10], ==, 0x40);
    gst_buffer_unmap (b, &mi);
    gst_buffer_unref (b);
  }
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 3);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 0);
  run_stop (&r);
}

/*
 * dma-bufs in the device's own frame layout (320x240, stride 320): the
 * device reads them where they are, each dma-buf imported once; at another
 * size or a misaligned offset they are copied.
 */
static void
test_mock_import (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  GstBuffer *bufs[2], *b;
  GstMessage *msg;
  struct run r;
  guint i, imports;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "display=false");
  bufs[0] = dmabuf_buffer (alloc, 320 * 240, 0);
  bufs[1] = dmabuf_buffer (alloc, 320 * 240, 0);
  imports = mk_get (&mk->prime_imports);
  for (i = 0; i < 6; i++) {
    b = gst_buffer_copy (bufs[i % 2]);	/* shares the dma-buf memory */
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  }
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 6);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 6);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 0);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 2);	/* cached */
  for (i = 0; i < 6; i++) {
    const GValue *faces = next_faces (&r, &msg, i * GST_SECOND / 30);

    check_face (faces, 0, 140, 100, 40, 40);	/* no scaling */
    gst_message_unref (msg);
    b = gst_harness_pull (r.h);
    check_roi (b, 140, 100, 40, 40);
    gst_buffer_unref (b);
  }
  run_stop (&r);

  /* the frame 32 bytes into its dma-buf: aligned, still imported */
  run_start (&r, 320, 240, "display=false");
  b = dmabuf_buffer (alloc, 320 * 240 + 64, 0);
  gst_buffer_resize (b, 32, 320 * 240);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  /* 16 bytes in: misaligned for the device, copied */
  b = dmabuf_buffer (alloc, 320 * 240 + 64, 1);
  gst_buffer_resize (b, 16, 320 * 240);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 1);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  run_stop (&r);

  /* another size: copied (and scaled) */
  run_start (&r, 640, 480, "display=false");
  g_assert_cmpint (gst_harness_push (r.h, dmabuf_buffer (alloc, 640 * 480, 0)), ==,
      GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 0);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  run_stop (&r);

  gst_buffer_unref (bufs[0]);
  gst_buffer_unref (bufs[1]);
  gst_object_unref (alloc);
}

/*
 * A source with more dma-bufs than the element keeps imported (80, all
 * alive): every frame is still imported, never copied, and at most 16
 * stay imported (an import pins its dma-buf), the most recently used;
 * one used again recently is not imported again, an old one is. The
 * least recently used goes, not the first imported: after 64..79, 64
 * used again and a new one imported, 64 is still there and 65 is not.
 */
static void
test_mock_import_bounded (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  GstBuffer *bufs[81];
  guint i, base, imports;
  struct run r;

  if (!need_mock ())
    return;
  base = mk_live_imports ();
  run_start (&r, 320, 240, "display=false");
  for (i = 0; i < 80; i++) {
    bufs[i] = dmabuf_buffer (alloc, 320 * 240, i);
    g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[i])), ==, GST_FLOW_OK);
    g_assert_cmpuint (mk_live_imports (), <=, base + 16);
  }
  bufs[80] = dmabuf_buffer (alloc, 320 * 240, 80);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 80);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 0);
  g_assert_cmpuint (mk_live_imports (), ==, base + 16);	/* 64..79 */
  imports = mk_get (&mk->prime_imports);
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[75])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports);	/* still imported */
  /* the oldest one used again, then a new one: 65 is now the least recently used */
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[64])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports);
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[80])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 1);
  g_assert_cmpuint (mk_live_imports (), ==, base + 16);
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[64])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 1);	/* kept */
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[65])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 2);	/* was evicted */
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[0])), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 3);	/* again */
  g_assert_cmpuint (mk_live_imports (), <=, base + 16);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 86);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 86);
  run_stop (&r);
  g_assert_cmpuint (mk_live_imports (), ==, base);
  for (i = 0; i < G_N_ELEMENTS (bufs); i++)
    gst_buffer_unref (bufs[i]);
  gst_object_unref (alloc);
}

/*
 * A dma-buf's import goes with its memory: once the source has freed it
 * (its fd, its inode may then be another dma-buf's), its BO is closed
 * while the element runs on; the next dma-buf is imported anew.
 */
static void
test_mock_import_freed (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  guint base, imports;
  struct run r;

  if (!need_mock ())
    return;
  base = mk_live_imports ();
  run_start (&r, 320, 240, "display=false");
  imports = mk_get (&mk->prime_imports);
  g_assert_cmpint (gst_harness_push (r.h, dmabuf_buffer (alloc, 320 * 240, 0)), ==,
      GST_FLOW_OK);
  g_assert_cmpuint (mk_live_imports (), ==, base + 1);
  g_assert_cmpint (gst_harness_push (r.h, dmabuf_buffer (alloc, 320 * 240, 1)), ==,
      GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->prime_imports), ==, imports + 2);
  g_assert_cmpuint (mk_live_imports (), ==, base + 2);
  gst_buffer_unref (gst_harness_pull (r.h));	/* frame 0: its memory's last reference */
  g_assert_cmpuint (mk_live_imports (), ==, base + 1);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  gst_buffer_unref (gst_harness_pull (r.h));
  g_assert_cmpuint (mk_live_imports (), ==, base);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 2);
  run_stop (&r);
  gst_object_unref (alloc);
}

static void
memory_gone (gpointer data, GstMiniObject * obj)
{
  g_atomic_int_inc ((gint *) data);
}

/*
 * Stop closes every import, also of dma-bufs the source still holds (the
 * frames' still queued too), and keeps no reference to a memory: the memories the
 * source frees after the stop are freed.
 */
static void
test_mock_import_stop (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  GstBuffer *bufs[2];
  guint i, base;
  gint gone = 0;
  struct run r;

  if (!need_mock ())
    return;
  base = mk_live_imports ();
  run_start (&r, 320, 240, "display=false");
  for (i = 0; i < 2; i++) {
    bufs[i] = dmabuf_buffer (alloc, 320 * 240, i);
    gst_mini_object_weak_ref (GST_MINI_OBJECT (gst_buffer_peek_memory (bufs[i], 0)),
        memory_gone, &gone);
    g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (bufs[i])), ==, GST_FLOW_OK);
  }
  gst_buffer_unref (gst_harness_pull (r.h));	/* frame 0; frame 1 in the harness or held */
  g_assert_cmpuint (mk_live_imports (), ==, base + 2);
  run_stop (&r);
  g_assert_cmpuint (mk_live_imports (), ==, base);
  g_assert_cmpint (g_atomic_int_get (&gone), ==, 0);	/* the source's still */
  for (i = 0; i < 2; i++)
    gst_buffer_unref (bufs[i]);
  g_assert_cmpint (g_atomic_int_get (&gone), ==, 2);
  g_assert_cmpuint (mk_live_imports (), ==, base);
  gst_object_unref (alloc);
}

/*
 * A camera's NV12: its luma plane is the grey picture. At the device's
 * frame size the dma-buf is imported (the device reads the luma plane at
 * offset 0, never the chroma after it); at another size the luma plane is
 * copied and scaled, and the outline drawn on it, the chroma left alone.
 */
static void
test_mock_nv12 (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  GstMessage *msg;
  GstBuffer *b;
  GstMapInfo mi;
  const GValue *faces;
  struct run r;

  if (!need_mock ())
    return;
  run_start_fmt (&r, "NV12", 320, 240, "display=false");
  g_assert_cmpint (gst_harness_push (r.h, dmabuf_buffer (alloc, 320 * 240 * 3 / 2, 0)),
      ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 1);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 0);
  faces = next_faces (&r, &msg, 0);
  check_face (faces, 0, 140, 100, 40, 40);
  gst_message_unref (msg);
  run_stop (&r);

  run_start_fmt (&r, "NV12", 640, 480, NULL);
  b = gst_buffer_new_allocate (NULL, 640 * 480 * 3 / 2, NULL);
  gst_buffer_memset (b, 0, 0x40, 640 * 480);
  gst_buffer_memset (b, 640 * 480, 0x80, 640 * 480 / 2);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  faces = next_faces (&r, &msg, 0);
  check_face (faces, 0, 280, 200, 80, 80);
  gst_message_unref (msg);
  b = gst_harness_pull (r.h);
  check_roi (b, 280, 200, 80, 80);
  g_assert_true (gst_buffer_map (b, &mi, GST_MAP_READ));
  g_assert_cmpuint (mi.data[200 * 640 + 300], ==, 255);	/* luma: the outline */
  g_assert_cmpuint (mi.data[240 * 640 + 320], ==, 0x40);
  g_assert_cmpuint (mi.data[640 * 480 + 100 * 640 + 300], ==, 0x80);	/* chroma */
  gst_buffer_unmap (b, &mi);
  gst_buffer_unref (b);
  run_stop (&r);
  gst_object_unref (alloc);
}

/* three directions: three jobs a frame, their duplicates merged */
static void
test_mock_directions (void)
{
  struct run r;
  GstMessage *msg;
  const GValue *faces;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "directions=up+right+left");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->job_count), ==, 3);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 1);
  check_face (faces, 0, 140, 100, 40, 40);
  gst_message_unref (msg);
  run_stop (&r);
}

/* min-size-*: smaller faces are not reported; updates=on_face: no message then */
static void
test_mock_min_size (void)
{
  struct run r;
  GstMessage *msg;
  const GValue *faces;
  GstBuffer *b;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, "min-size-width=100 min-size-height=100");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 0);
  gst_message_unref (msg);
  b = gst_harness_pull (r.h);
  g_assert_null (gst_buffer_get_video_region_of_interest_meta (b));
  gst_buffer_unref (b);
  run_stop (&r);

  run_start (&r, 640, 480, "min-size-width=100 updates=on_face");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ELEMENT));
  run_stop (&r);

  /* each bound on its own: the 80x80 box is lower than 100, then narrower */
  run_start (&r, 640, 480, "min-size-height=100");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 0);
  gst_message_unref (msg);
  run_stop (&r);
  run_start (&r, 640, 480, "min-size-width=81 min-size-height=80");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 0);
  gst_message_unref (msg);
  run_stop (&r);
  /* exactly the box's size: kept */
  run_start (&r, 640, 480, "min-size-width=80 min-size-height=80");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 1);
  check_face (faces, 0, 280, 200, 80, 80);
  gst_message_unref (msg);
  run_stop (&r);
}

/* Downstream (the harness's sink pad) blocks each buffer until unblocked */
static gulong
block_downstream (struct run *r)
{
  return gst_pad_add_probe (r->h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BLOCK, NULL, NULL, NULL);
}

struct unblock {
  GstPad *pad;
  gulong probe;
};

static gpointer
unblock_thread (gpointer data)
{
  struct unblock *u = data;

  g_usleep (100 * 1000);
  gst_pad_remove_probe (u->pad, u->probe);
  g_free (u);
  return NULL;
}

/* Downstream unblocked in 100 ms, from another thread */
static void
unblock_downstream_later (struct run *r, gulong probe)
{
  struct unblock *u = g_new (struct unblock, 1);

  u->pad = r->h->sinkpad;
  u->probe = probe;
  g_thread_unref (g_thread_new ("unblock", unblock_thread, u));
}

/*
 * A DRAIN query (upstream wants its buffers back): the frames queued are
 * finished and pushed before the query is answered. Downstream blocks
 * frame 0's push (a probe) while frame 1 is queued: the query waits for
 * both.
 */
static void
test_mock_drain_query (void)
{
  struct run r;
  GstQuery *q;
  GstMessage *msg;
  GstBuffer *b;
  gulong probe;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  probe = block_downstream (&r);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 0);	/* blocked */
  unblock_downstream_later (&r, probe);
  q = gst_query_new_drain ();
  gst_pad_peer_query (r.h->srcpad, q);	/* the harness's sink does not answer it */
  gst_query_unref (q);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 2);
  for (i = 0; i < 2; i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    check_roi (b, 280, 200, 80, 80);
    gst_buffer_unref (b);
    next_faces (&r, &msg, i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  run_stop (&r);
}

/* Downstream's answer to the allocation query: a pool of @data[0]..@data[1] buffers */
static GstPadProbeReturn
pool_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  const guint *minmax = data;
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (q) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_add_allocation_pool (q, NULL, 640 * 480, minmax[0], minmax[1]);
  gst_query_add_allocation_meta (q, GST_VIDEO_META_API_TYPE, NULL);
  return GST_PAD_PROBE_HANDLED;
}

/* Downstream's answer: a pool object of its own, @min..@max buffers (0: no limit) */
struct pool_answer {
  GstBufferPool *pool;
  guint min, max;
};

static GstPadProbeReturn
own_pool_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  const struct pool_answer *a = data;
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (q) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_add_allocation_pool (q, a->pool, 640 * 480, a->min, a->max);
  return GST_PAD_PROBE_HANDLED;
}

/* The allocation query for 640x480 at 30/1, answered: its pools, the first one's */
static guint
allocation_pool (struct run *r, GstBufferPool ** pool, guint * min, guint * max)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=GRAY8,width=640,height=480,"
      "framerate=30/1");
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  guint n, size;

  g_assert_true (gst_pad_peer_query (r->h->srcpad, q));
  n = gst_query_get_n_allocation_pools (q);
  g_assert_cmpuint (n, >, 0);
  gst_query_parse_nth_allocation_pool (q, 0, pool, &size, min, max);
  g_assert_cmpuint (size, ==, 640 * 480);
  gst_query_unref (q);
  gst_caps_unref (caps);
  return n;
}

/*
 * The allocation query upstream would make for 640x480 at @framerate,
 * answered: its first pool's min and max
 */
static void
allocation_at (struct run *r, const char *framerate, guint * npools, guint * min,
    guint * max, gboolean * vmeta)
{
  gchar *str = g_strdup_printf ("video/x-raw,format=GRAY8,width=640,height=480,"
      "framerate=%s", framerate);
  GstCaps *caps = gst_caps_from_string (str);
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  guint size = 0;

  g_assert_true (gst_pad_peer_query (r->h->srcpad, q));
  *npools = gst_query_get_n_allocation_pools (q);
  *min = *max = G_MAXUINT;
  if (*npools) {
    gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, min, max);
    g_assert_null (pool);
    g_assert_cmpuint (size, ==, 640 * 480);
  }
  *vmeta = gst_query_find_allocation_meta (q, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_unref (q);
  gst_caps_unref (caps);
  g_free (str);
}

static void
allocation (struct run *r, guint * npools, guint * min, guint * max, gboolean * vmeta)
{
  allocation_at (r, "30/1", npools, min, max, vmeta);
}

/*
 * The allocation query is downstream's (the buffers pass through), with
 * the frames the element holds (DEPTH, 2) added to the pool's minimum, so
 * that an upstream pool does not run short; GstVideoMeta only if
 * downstream takes it.
 */
static void
test_mock_allocation (void)
{
  guint npools, min, max, minmax[2];
  gboolean vmeta;
  struct run r;
  gulong probe;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  /* the harness's sink: no pool, no meta */
  allocation (&r, &npools, &min, &max, &vmeta);
  g_assert_cmpuint (npools, ==, 1);
  g_assert_cmpuint (min, ==, 2);
  g_assert_cmpuint (max, ==, 0);
  g_assert_false (vmeta);
  /* downstream's pool of 2..4 buffers, and its video meta */
  minmax[0] = 2;
  minmax[1] = 4;
  probe = gst_pad_add_probe (r.h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, pool_probe,
      minmax, NULL);
  allocation (&r, &npools, &min, &max, &vmeta);
  g_assert_cmpuint (npools, ==, 1);
  g_assert_cmpuint (min, ==, 4);
  g_assert_cmpuint (max, ==, 4);
  g_assert_true (vmeta);
  /* a pool of exactly 3 cannot hold two more: upstream's own, of 5 */
  minmax[0] = minmax[1] = 3;
  allocation (&r, &npools, &min, &max, &vmeta);
  g_assert_cmpuint (npools, ==, 1);
  g_assert_cmpuint (min, ==, 5);
  g_assert_cmpuint (max, ==, 0);
  gst_pad_remove_probe (r.h->sinkpad, probe);
  run_stop (&r);
}

/*
 * Downstream proposes its own pool of @pmin..@pmax (a->pool); the query
 * upstream gets must hold that pool (@same) or none (upstream's own), of
 * @min..@max buffers.
 */
static void
expect_pool (struct run *r, struct pool_answer *a, guint pmin, guint pmax,
    gboolean same, guint min, guint max)
{
  GstBufferPool *pool;
  guint got_min, got_max;

  a->min = pmin;
  a->max = pmax;
  g_assert_cmpuint (allocation_pool (r, &pool, &got_min, &got_max), ==, 1);
  if (same)
    g_assert_true (pool == a->pool);
  else
    g_assert_null (pool);
  g_assert_cmpuint (got_min, ==, min);
  g_assert_cmpuint (got_max, ==, max);
  g_clear_object (&pool);
}

/*
 * The next @n frames out, @first's the first (30 frames/s): each with its
 * timestamp, the mock's face as its ROI, and its faces message
 */
static void
pull_frames (struct run *r, guint first, guint n)
{
  GstMessage *msg;
  GstBuffer *b;

  for (guint i = first; i < first + n; i++) {
    b = gst_harness_pull (r->h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    check_roi (b, 140, 100, 40, 40);
    gst_buffer_unref (b);
    next_faces (r, &msg, i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
}

/*
 * A pool without a maximum (max 0: unbounded, also with min 0) can hold
 * the frames the element keeps: downstream's own pool stays, its minimum
 * two larger; only a pool whose maximum is too small is replaced.
 */
static void
test_mock_allocation_unbounded (void)
{
  struct pool_answer a;
  struct run r;
  gulong probe;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  a.pool = gst_buffer_pool_new ();
  probe = gst_pad_add_probe (r.h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      own_pool_probe, &a, NULL);
  /* 0..0 and 2..0: kept, two more at least */
  expect_pool (&r, &a, 0, 0, TRUE, 2, 0);
  expect_pool (&r, &a, 2, 0, TRUE, 4, 0);
  /* room for two more below the maximum: kept */
  expect_pool (&r, &a, 2, 4, TRUE, 4, 4);
  /* no room (3..4, 4..4): replaced by a pool of upstream's own, two larger */
  expect_pool (&r, &a, 3, 4, FALSE, 5, 0);
  expect_pool (&r, &a, 4, 4, FALSE, 6, 0);
  gst_pad_remove_probe (r.h->sinkpad, probe);
  gst_object_unref (a.pool);
  run_stop (&r);
}

/*
 * No frame rate (0/1, variable): each frame still out when its jobs are
 * done, without the next one; no latency, none added to the maximum; the
 * frames the element holds still added to downstream's pool (none:
 * a pool of upstream's own, DEPTH buffers)
 */
static void
test_mock_variable_framerate (void)
{
  guint npools, min, max;
  gboolean vmeta;
  struct run r;
  GstMessage *msg;
  GstBuffer *b;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  gst_harness_set_src_caps_str (r.h,
      "video/x-raw,format=GRAY8,width=640,height=480,framerate=0/1");
  g_assert_cmpuint (gst_harness_query_latency (r.h), ==, 0);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 1), ==, 1);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 2), ==, 2);
  allocation_at (&r, "0/1", &npools, &min, &max, &vmeta);
  g_assert_cmpuint (npools, ==, 1);
  g_assert_cmpuint (min, ==, 2);
  g_assert_cmpuint (max, ==, 0);
  gst_harness_set_src_caps_str (r.h,
      "video/x-raw,format=GRAY8,width=640,height=480,framerate=25/1");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 2)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 3), ==, 3);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  for (i = 0; i < 3; i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    check_roi (b, 280, 200, 80, 80);
    gst_buffer_unref (b);
    next_faces (&r, &msg, i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  run_stop (&r);
}

/* Upstream's answer to a latency query: live, 5 ms .. 1 s */
static GstPadProbeReturn
upstream_latency (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (q) != GST_QUERY_LATENCY)
    return GST_PAD_PROBE_OK;
  gst_query_set_latency (q, TRUE, 5 * GST_MSECOND, GST_SECOND);
  return GST_PAD_PROBE_HANDLED;
}

/* The LATENCY messages the element posted since the last call */
static guint
latency_messages (struct run *r)
{
  GstMessage *m;
  guint n = 0;

  while ((m = gst_bus_pop_filtered (r->bus, GST_MESSAGE_LATENCY))) {
    g_assert_true (GST_MESSAGE_SRC (m) == GST_OBJECT (r->e));
    gst_message_unref (m);
    n++;
  }
  return n;
}

/*
 * The latency as it is: nothing added to the minimum (a frame goes out
 * when its jobs are done), the DEPTH (2) frames the element can hold
 * added to the maximum (2/30 s at 30/1, with an upstream maximum of 1 s);
 * a caps change that changes it posts a LATENCY message (the pipeline
 * then asks again), one that does not posts none; with no frame rate
 * nothing is added.
 */
static void
test_mock_latency_message (void)
{
  GstClockTime min, max;
  struct run r;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);	/* 30/1: 0 -> 2/30 s */
  gst_pad_add_probe (r.h->srcpad, GST_PAD_PROBE_TYPE_QUERY_UPSTREAM, upstream_latency,
      NULL, NULL);
  g_assert_cmpuint (latency_messages (&r), ==, 1);
  latency_of (&r, &min, &max);
  g_test_message ("latency at 30/1: %" GST_TIME_FORMAT " .. %" GST_TIME_FORMAT,
      GST_TIME_ARGS (min), GST_TIME_ARGS (max));
  g_assert_cmpuint (min, ==, 5 * GST_MSECOND);
  g_assert_cmpuint (max, ==, GST_SECOND + gst_util_uint64_scale_int (2 * GST_SECOND, 1, 30));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  gst_harness_set_src_caps_str (r.h,
      "video/x-raw,format=GRAY8,width=640,height=480,framerate=25/1");
  g_assert_cmpuint (latency_messages (&r), ==, 1);
  latency_of (&r, &min, &max);
  g_assert_cmpuint (min, ==, 5 * GST_MSECOND);
  g_assert_cmpuint (max, ==, GST_SECOND + 2 * GST_SECOND / 25);
  /* another size, the same frame rate: the same latency */
  gst_harness_set_src_caps_str (r.h,
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=25/1");
  g_assert_cmpuint (latency_messages (&r), ==, 0);
  gst_harness_set_src_caps_str (r.h,
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=0/1");
  g_assert_cmpuint (latency_messages (&r), ==, 1);
  latency_of (&r, &min, &max);
  g_assert_cmpuint (min, ==, 5 * GST_MSECOND);
  g_assert_cmpuint (max, ==, GST_SECOND);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 1);	/* drained by the caps */
  run_stop (&r);
}

/* What comes out of the element, in order: "buffer N", or an event's name */
static GstPadProbeReturn
record_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GPtrArray *seen = data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    g_ptr_array_add (seen, g_strdup_printf ("buffer %" G_GUINT64_FORMAT,
            GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) / (GST_SECOND / 30)));
  else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)
    g_ptr_array_add (seen, g_strdup (GST_EVENT_TYPE_NAME (GST_PAD_PROBE_INFO_EVENT (info))));
  return GST_PAD_PROBE_OK;
}

/*
 * Serialized events stay in order with the frames queued: a GAP and a
 * custom serialized event after frame 0 come out after it, not before.
 */
static void
test_mock_event_order (void)
{
  static const char *const want[] = {
    "buffer 0", "gap", "custom-downstream", "buffer 2", "buffer 3", "eos",
  };
  GPtrArray *seen = g_ptr_array_new_with_free_func (g_free);
  struct run r;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  gst_pad_add_probe (r.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record_probe, seen, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h,
          gst_event_new_gap (GST_SECOND / 30, GST_SECOND / 30)));
  g_assert_true (gst_harness_push_event (r.h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("fdif-test"))));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 2)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 3)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  for (i = 0; i < seen->len; i++)
    g_test_message ("out %u: %s", i, (const char *) seen->pdata[i]);
  g_assert_cmpuint (seen->len, ==, G_N_ELEMENTS (want));
  for (i = 0; i < seen->len; i++)
    g_assert_cmpstr (seen->pdata[i], ==, want[i]);
  run_stop (&r);
  g_ptr_array_unref (seen);
}

/*
 * DISCONT stays on the frames that had it, the task pushing them: the
 * frame before a DISCONT one does not get it (the base class would mark
 * the next buffer it pushed after a DISCONT input), nor does the one
 * after a DISCONT frame an event pushed out.
 */
static void
test_mock_discont (void)
{
  static const gboolean discont[] = { TRUE, FALSE, FALSE, TRUE, FALSE };
  gchar got[G_N_ELEMENTS (discont) + 1] = "", want[G_N_ELEMENTS (discont) + 1] = "";
  struct run r;
  GstMessage *msg;
  GstBuffer *b;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  for (i = 0; i < G_N_ELEMENTS (discont); i++) {
    b = gray_buffer (640, 480, i);
    if (discont[i])
      GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
    g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
    if (i == 0)			/* a serialized event waits for the frame queued */
      g_assert_true (gst_harness_push_event (r.h,
              gst_event_new_tag (gst_tag_list_new_empty ())));
  }
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, G_N_ELEMENTS (discont));
  for (i = 0; i < G_N_ELEMENTS (discont); i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    check_roi (b, 280, 200, 80, 80);
    got[i] = GST_BUFFER_IS_DISCONT (b) ? 'D' : '-';
    want[i] = discont[i] ? 'D' : '-';
    gst_buffer_unref (b);
    next_faces (&r, &msg, i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  g_assert_cmpstr (got, ==, want);	/* frame i's DISCONT flag: D */
  run_stop (&r);
}

/* A buffer pushed from a thread of its own, the flow it got */
struct push {
  GstHarness *h;
  GstBuffer *buf;
  GstFlowReturn ret;
};

static gpointer
push_thread (gpointer data)
{
  struct push *p = data;

  p->ret = gst_harness_push (p->h, p->buf);
  return NULL;
}

/*
 * Pushes @buf from another thread, which waits there for room (DEPTH
 * frames queued, the task waiting on a hung fence): returns 50 ms later,
 * the thread most likely waiting (if not yet, a flush or a stop still
 * ends its push with FLUSHING)
 */
static GThread *
push_blocked (struct run *r, struct push *p, GstBuffer * buf)
{
  GThread *t;

  p->h = r->h;
  p->buf = buf;
  p->ret = GST_FLOW_CUSTOM_ERROR;
  t = g_thread_new ("push", push_thread, p);
  g_usleep (50 * 1000);
  return t;
}

/* Frames 0 and 1 pushed on a hung device: the task waits on frame 0's fence */
static void
push_two_hung (struct run *r)
{
  mk_hang (1);
  g_assert_cmpint (gst_harness_push (r->h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r->h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
}

/*
 * A flushing seek while the task waits on a hung job's fence and the
 * streaming thread waits for room: FLUSH_START ends both waits at once
 * (not the fence's 10 s), the chain returns FLUSHING, no error, and after
 * FLUSH_STOP only the new frames come out, not the queued ones.
 */
static void
test_mock_flush (void)
{
  struct run r;
  struct push p;
  GstSegment seg;
  GstMessage *msg;
  GThread *t;
  GstBuffer *b;
  gint64 t0;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  push_two_hung (&r);
  t = push_blocked (&r, &p, gray_buffer (320, 240, 2));
  t0 = g_get_monotonic_time ();
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_thread_join (t);
  g_assert_cmpint (p.ret, ==, GST_FLOW_FLUSHING);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  mk_hang (0);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 3)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 4)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 2);
  for (i = 3; i < 5; i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    gst_buffer_unref (b);
    next_faces (&r, &msg, i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ELEMENT));
  run_stop (&r);
}

static GstDebugCategory *
find_category (const gchar * name)
{
  GSList *all = gst_debug_get_all_categories (), *l;
  GstDebugCategory *cat = NULL;

  for (l = all; l; l = l->next)
    if (g_str_equal (gst_debug_category_get_name (l->data), name))
      cat = l->data;
  g_slist_free (all);
  g_assert_nonnull (cat);
  return cat;
}

/* The debug category @name logs @level at least; its old threshold */
static GstDebugLevel
category_at_least (const gchar * name, GstDebugLevel level)
{
  GstDebugCategory *cat = find_category (name);
  GstDebugLevel old = gst_debug_category_get_threshold (cat);

  if (old < level)
    gst_debug_category_set_threshold (cat, level);
  return old;
}

static void
category_restore (const gchar * name, GstDebugLevel level)
{
  gst_debug_category_set_threshold (find_category (name), level);
}

/* GstPoll's log messages seen, and how many began a wait */
struct poll_log {
  gint calls;
  gint waits;
};

/* A log handler that changes errno, as one writing to a file or syslog may */
static void
errno_clobber_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  struct poll_log *log = data;
  const gchar *text;

  if (!g_str_equal (gst_debug_category_get_name (cat), "GST_POLL"))
    return;
  text = gst_debug_message_get (message);
  /* gst_poll_wait() starts with "%p: timeout :..." */
  if (text && strstr (text, ": timeout :"))
    g_atomic_int_inc (&log->waits);
  g_atomic_int_inc (&log->calls);
  errno = ENOENT;
}

/*
 * A flush while the task waits on a hung fence, with a log handler that
 * changes errno in GstPoll's debug logging (which gst_poll_remove_fd()
 * does after the wait): the wait's EBUSY is still seen as the flush (no
 * error), not as a job that did not finish.
 */
static void
test_mock_flush_errno (void)
{
  struct run r;
  GstDebugLevel old;
  struct poll_log log = { 0, 0 };
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  mk_hang (1);
  old = category_at_least ("GST_POLL", GST_LEVEL_DEBUG);
  gst_debug_add_log_function (errno_clobber_log, &log, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  /* the flush must come while the task waits, not before the wait */
  for (i = 0; i < 10000 && !g_atomic_int_get (&log.waits); i++)
    g_usleep (1000);
  g_assert_cmpint (g_atomic_int_get (&log.waits), >, 0);
  /* once it returns, the task's frame is over (the task paused) */
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  gst_debug_remove_log_function (errno_clobber_log);
  category_restore ("GST_POLL", old);
  g_assert_cmpint (g_atomic_int_get (&log.calls), >, 0);	/* errno was changed */
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  mk_hang (0);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  run_stop (&r);
}

/* Counts the element's WARNING (and worse) log messages */
static void
warning_count_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  if (level <= GST_LEVEL_WARNING && g_str_equal (gst_debug_category_get_name (cat),
          "fdiffacedetect")) {
    g_test_message ("logged: %s", gst_debug_message_get (message));
    g_atomic_int_inc ((gint *) data);
  }
}

/*
 * A flush (a seek) with a frame's jobs hung, the task waiting on them: the
 * frame dropped without waiting (no deadlock), the element goes on with
 * the frames after it, and a seek is no WARNING (its frames are expected
 * to be unfinished).
 */
static void
test_mock_flush_hung (void)
{
  struct run r;
  GstSegment seg;
  GstDebugLevel old;
  gint warnings = 0;
  guint32 hung_bo;
  gboolean live, imported;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  old = category_at_least ("fdiffacedetect", GST_LEVEL_WARNING);
  gst_debug_add_log_function (warning_count_log, &warnings, NULL);
  mk_hang (1);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  hung_bo = mk_last_job ().picture.planes[0].handle;
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  /*
   * the frame's BO, which its hung job may still read, is closed, not
   * kept for the next frame's copy
   */
  mk_bo_state (hung_bo, &live, &imported);
  g_assert_false (imported);
  g_assert_false (live);
  /* the count works: one warning of the test's own */
  gst_debug_log (find_category ("fdiffacedetect"), GST_LEVEL_WARNING, __FILE__, G_STRFUNC,
      __LINE__, NULL, "the test's own");
  gst_debug_remove_log_function (warning_count_log);
  category_restore ("fdiffacedetect", old);
  mk_hang (0);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 2)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 2);
  pull_frames (&r, 1, 2);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  g_assert_cmpint (warnings, ==, 1);
  run_stop (&r);
}

static int64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Stop with a frame of three hung jobs queued (frame 1; the task, waiting
 * on frame 0's, drops that one at once when the stop ends its wait): one
 * wait for them all, 3 s at most (the kernel's own timeout ends hung
 * jobs), not 3 s each. Each of the fake kernel's waits takes 100 ms
 * before it times out, and it records the deadlines it is given: one
 * deadline for all three waits is the same absolute time (a deadline of
 * its own for each would move 100 ms later every wait), at most 3 s from
 * the stop.
 */
static void
test_mock_stop_bounded (void)
{
  const int64_t ms = 1000000;
  int64_t t1, t2, first, last;
  unsigned int waits;
  struct run r;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "directions=up+right+left");
  mk_hang (1);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->job_count), ==, 3);
  pthread_mutex_lock (mk_lock);
  mk->wait_sleep_ms = 100;
  mk->blocking_waits = 0;
  pthread_mutex_unlock (mk_lock);
  t1 = now_ns ();
  run_stop (&r);
  t2 = now_ns ();
  pthread_mutex_lock (mk_lock);
  waits = mk->blocking_waits;
  first = mk->min_block_deadline;
  last = mk->max_block_deadline;
  mk->wait_sleep_ms = 0;
  mk->busy = 0;
  mk->hang_fences = 0;
  pthread_mutex_unlock (mk_lock);
  g_test_message ("stop: %u waits, deadlines %.3f..%.3f s after stop began, "
      "stop took %.3f s", waits, (first - t1) / 1e9, (last - t1) / 1e9, (t2 - t1) / 1e9);
  /* one a job, each 100 ms: frame 1's, and frame 0's if the task had not taken it yet */
  g_assert_true (waits == 3 || waits == 6);
  g_assert_cmpint (first, >, t1);
  /*
   * the same deadline (to the microseconds the element rounds to), not
   * 100 ms later each wait (200 ms from the first to the third)
   */
  g_assert_cmpint (last - first, <, 100 * ms);
  /* 1 ms for the element's microseconds against the library's nanoseconds */
  g_assert_cmpint (last, <=, t2 + 3000 * ms + 1 * ms);
}

/*
 * PAUSED->READY while the task waits on a hung job's fence and the
 * streaming thread for room: both waits end at once (FLUSHING, no error),
 * not after 10 s.
 */
static void
test_mock_stop_while_waiting (void)
{
  struct run r;
  struct push p;
  GThread *t;
  gint64 t0;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  push_two_hung (&r);
  t = push_blocked (&r, &p, gray_buffer (320, 240, 2));
  t0 = g_get_monotonic_time ();
  g_assert_cmpint (gst_element_set_state (r.e, GST_STATE_READY), ==,
      GST_STATE_CHANGE_SUCCESS);
  g_test_message ("PAUSED->READY took %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  /* the two hung frames waited for by stop, 3 s at most */
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_thread_join (t);
  g_assert_cmpint (p.ret, ==, GST_FLOW_FLUSHING);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  mk_hang (0);
  run_stop (&r);
}

/*
 * A hook on the deactivation of the element's src pad: in PAUSED->READY,
 * GstElement deactivates the src pads before the sink pads, so the hook
 * runs after the element's change_state began and before its sink pad is
 * deactivated (and stop() called), while streaming may still go on.
 */
static struct {
  GstPadActivateModeFunction orig;
  gboolean ran;
  gboolean fail;		/* the deactivation fails */
  struct run *r;
  GThread *waiter;		/* joined first: its wait ended by the stop */
  GstFlowReturn held_ret;	/* a frame pushed after a FLUSH_STOP */
  struct push late;		/* and the next one, from its own thread */
  GThread *late_thread;
  guint submits;		/* the fake kernel's submissions at the FLUSH_STOP */
} hook;

static gboolean
deactivate_hook (GstPad * pad, GstObject * parent, GstPadMode mode, gboolean active)
{
  if (!active && !hook.ran) {
    hook.ran = TRUE;
    if (hook.fail) {
      gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

      /* the stop has paused the task (its waits over): it must start again */
      while (gst_pad_get_task_state (pad) != GST_TASK_PAUSED &&
          g_get_monotonic_time () < end)
        g_usleep (1000);
      g_assert_cmpint (gst_pad_get_task_state (pad), ==, GST_TASK_PAUSED);
      return FALSE;
    }
    if (hook.waiter) {
      GstPad *sink = gst_element_get_static_pad (hook.r->e, "sink");
      GstSegment seg;
      GstEvent *ev;

      g_thread_join (hook.waiter);
      /* a seek's FLUSH_STOP, a new segment, and frames after them */
      gst_pad_send_event (sink, gst_event_new_flush_stop (TRUE));
      gst_segment_init (&seg, GST_FORMAT_TIME);
      /*
       * the element takes the segment, but cannot send it on (its src pad
       * is inactive) and so refuses it: the sink pad keeps it all the same
       */
      gst_pad_send_event (sink, gst_event_new_segment (&seg));
      ev = gst_event_new_segment (&seg);
      g_assert_cmpint (gst_pad_store_sticky_event (sink, ev), ==, GST_FLOW_OK);
      gst_event_unref (ev);
      gst_object_unref (sink);
      hook.submits = mk_get (&mk->submits);
      hook.held_ret = gst_harness_push (hook.r->h, gray_buffer (320, 240, 3));
      hook.late_thread = push_blocked (hook.r, &hook.late, gray_buffer (320, 240, 4));
    }
  }
  return hook.orig (pad, parent, mode, active);
}

static void
hook_install (struct run *r)
{
  GstPad *src = gst_element_get_static_pad (r->e, "src");

  memset (&hook, 0, sizeof (hook));
  hook.r = r;
  hook.orig = GST_PAD_ACTIVATEMODEFUNC (src);
  gst_pad_set_activatemode_function (src, deactivate_hook);
  gst_object_unref (src);
}

static void
hook_remove (struct run *r)
{
  GstPad *src = gst_element_get_static_pad (r->e, "src");

  g_assert_true (hook.ran);
  gst_pad_set_activatemode_function (src, hook.orig);
  gst_object_unref (src);
}

/*
 * A FLUSH_STOP (a seek) arriving while PAUSED->READY is under way, after
 * the waits were ended and before the sink pad goes: the frames after it,
 * on a hung device, are refused (FLUSHING), never submitted (their jobs
 * would hold the stop), and the stop is over within its own 3 s.
 */
static void
test_mock_flush_stop_while_stopping (void)
{
  struct run r;
  struct push p;
  int64_t t1, t2;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  push_two_hung (&r);
  hook_install (&r);
  hook.waiter = push_blocked (&r, &p, gray_buffer (320, 240, 2));
  t1 = now_ns ();
  g_assert_cmpint (gst_element_set_state (r.e, GST_STATE_READY), ==,
      GST_STATE_CHANGE_SUCCESS);
  t2 = now_ns ();
  hook_remove (&r);
  g_thread_join (hook.late_thread);
  g_test_message ("PAUSED->READY took %.3f s", (t2 - t1) / 1e9);
  g_assert_cmpint (p.ret, ==, GST_FLOW_FLUSHING);
  g_assert_cmpint (hook.held_ret, ==, GST_FLOW_FLUSHING);
  g_assert_cmpint (hook.late.ret, ==, GST_FLOW_FLUSHING);
  g_assert_cmpuint (mk_get (&mk->submits), ==, hook.submits);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  g_assert_cmpint (t2 - t1, <, 4 * (int64_t) 1000000000);
  mk_hang (0);
  run_stop (&r);
}

/*
 * PAUSED->READY fails (here: the src pad's deactivation): the element
 * stays PAUSED and streams on, its fence waits no longer cut short.
 */
static void
test_mock_failed_stop (void)
{
  struct run r;
  GstSegment seg;
  GstPad *src;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 1), ==, 1);
  hook_install (&r);
  hook.fail = TRUE;
  g_test_expect_message ("GStreamer", G_LOG_LEVEL_CRITICAL, "Failed to deactivate pad*");
  g_assert_cmpint (gst_element_set_state (r.e, GST_STATE_READY), ==,
      GST_STATE_CHANGE_FAILURE);
  g_test_assert_expected_messages ();
  hook_remove (&r);
  /*
   * the failed deactivation left the src pad flushing: a FLUSH_STOP on it
   * alone, and the segment it drops
   */
  src = gst_element_get_static_pad (r.e, "src");
  g_assert_true (gst_pad_push_event (src, gst_event_new_flush_stop (FALSE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  g_assert_true (gst_pad_push_event (src, gst_event_new_segment (&seg)));
  gst_object_unref (src);
  /* the task streams again: frame 1 out without another */
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 2), ==, 2);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 2);
  pull_frames (&r, 0, 2);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  run_stop (&r);
}

/* A job that fails (@status), or never finishes (@busy): an error, then a clean teardown */
static void
job_fails (int32_t status, int busy, GstResourceError code, const char *text)
{
  struct run r;
  GstMessage *m;
  GError *err;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  pthread_mutex_lock (mk_lock);
  mk->status = status;
  mk->busy = busy;
  pthread_mutex_unlock (mk_lock);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  /* the task reads the result, posts the error; the next push returns it */
  m = gst_bus_timed_pop_filtered (r.bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  g_assert_nonnull (m);
  gst_message_parse_error (m, &err, NULL);
  gst_message_unref (m);
  g_test_message ("error: %s", err->message);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_ERROR);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 0);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));	/* one error */
  g_assert_true (g_error_matches (err, GST_RESOURCE_ERROR, code));
  g_assert_nonnull (strstr (err->message, text));
  g_error_free (err);
  run_stop (&r);		/* the second frame still in flight: waited for, freed */
  pthread_mutex_lock (mk_lock);
  mk->status = 0;
  mk->busy = 0;
  pthread_mutex_unlock (mk_lock);
}

static void
test_mock_job_eio (void)
{
  job_fails (-EIO, 0, GST_RESOURCE_ERROR_FAILED, "failed a frame");
}

static void
test_mock_job_timedout (void)
{
  job_fails (-ETIMEDOUT, 0, GST_RESOURCE_ERROR_FAILED, "failed a frame");
}

static void
test_mock_job_enodev (void)
{
  job_fails (-ENODEV, 0, GST_RESOURCE_ERROR_READ, "went away");
}

static void
test_mock_job_hung (void)
{
  job_fails (0, 1, GST_RESOURCE_ERROR_FAILED, "did not finish");
}

/* a buffer smaller than its caps say: a stream error, not a read past its end */
static void
test_mock_short_buffer (void)
{
  struct run r;
  GError *err;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (64, 48, 0)), ==, GST_FLOW_ERROR);
  err = bus_error (r.bus);
  g_assert_true (err->domain == GST_STREAM_ERROR);
  g_assert_nonnull (strstr (err->message, "3072 bytes for 640x480"));
  g_error_free (err);
  run_stop (&r);
}

/*
 * What the element asked the device for, read from the fake kernel's
 * record of the submission: the threshold (-1: the device's recommended,
 * 5 on the OMAP4; any other value as it is, up to the device's largest)
 * and the device's minimum face size, the largest of its sizes (20, 25,
 * 32, 40 frame pixels) not above min-size-width/-height (the larger of
 * the two) scaled into the device's frame; a copied frame from a BO of
 * the device's own at offset 0.
 */
static void
submitted_with (guint width, guint height, const char *props, guint threshold,
    guint min_size)
{
  struct drm_fdif_job j;
  gboolean live, imported;
  struct run r;

  run_start (&r, width, height, props);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (width, height, 0)), ==, GST_FLOW_OK);
  j = mk_last_job ();
  g_test_message ("%ux%u %s: threshold %u, min %ux%u", width, height, props ? props : "",
      j.threshold, j.min_width, j.min_height);
  g_assert_cmpuint (mk_get (&mk->job_count), ==, 1);
  g_assert_cmpuint (j.threshold, ==, threshold);
  g_assert_cmpuint (j.min_width, ==, min_size);
  g_assert_cmpuint (j.min_height, ==, min_size);
  g_assert_cmpuint (j.directions, ==, 1);	/* up */
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 0);
  g_assert_cmpuint (j.picture.planes[0].stride, ==, 320);
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (live);
  g_assert_false (imported);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 1);
  run_stop (&r);
}

static void
test_mock_threshold (void)
{
  if (!need_mock ())
    return;
  /* min-size 30 (facedetect's): the device's 25 */
  submitted_with (320, 240, NULL, 5, 25);
  submitted_with (320, 240, "threshold=7", 7, 25);
  submitted_with (320, 240, "threshold=0", 0, 25);
  submitted_with (320, 240, "threshold=9", 9, 25);	/* the device's largest */
}

static void
test_mock_min_size_device (void)
{
  if (!need_mock ())
    return;
  /* 640x480: halved into the frame */
  submitted_with (640, 480, "min-size-width=100 min-size-height=100", 5, 40);
  submitted_with (640, 480, "min-size-width=60", 5, 25);
  submitted_with (640, 480, "min-size-height=64", 5, 32);
  submitted_with (640, 480, "min-size-width=30 min-size-height=48", 5, 20);
  submitted_with (640, 480, NULL, 5, 20);	/* 30: 15 of the frame's */
  /* 320x240: as they are */
  submitted_with (320, 240, "min-size-width=39 threshold=3", 3, 32);
  submitted_with (320, 240, "min-size-width=40", 5, 40);
  submitted_with (320, 240, "min-size-width=19 min-size-height=0", 5, 20);	/* below the smallest */
  submitted_with (320, 240, "min-size-width=0 min-size-height=0", 5, 20);
}

/* A @size byte memfd "dma-buf" holding @fill, PTS frame @n */
static GstBuffer *
dmabuf_filled (GstAllocator * alloc, gsize size, guint8 fill, guint64 n)
{
  GstBuffer *b = dmabuf_buffer (alloc, size, n);

  gst_buffer_memset (b, 0, fill, size);
  return b;
}

/*
 * The imported frame's BO and offset as the job has them: the dma-buf's
 * own BO (imported, the same for the same dma-buf), the frame's offset
 * in it (the memory's offset, plus the video meta's), the device's stride.
 */
static void
test_mock_import_submitted (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  struct drm_fdif_job j;
  gboolean live, imported;
  GstBuffer *b, *keep;
  guint32 first;
  struct run r;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "display=false threshold=6");
  keep = dmabuf_buffer (alloc, 320 * 240 + 64, 0);
  gst_buffer_resize (keep, 32, 320 * 240);
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (keep)), ==, GST_FLOW_OK);
  j = mk_last_job ();
  first = j.picture.planes[0].handle;
  mk_bo_state (first, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 32);
  g_assert_cmpuint (j.picture.planes[0].stride, ==, 320);
  g_assert_cmpuint (j.threshold, ==, 6);
  /* the same dma-buf again: the same BO */
  b = gst_buffer_copy (keep);
  GST_BUFFER_PTS (b) = GST_SECOND / 30;
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  g_assert_cmpuint (j.picture.planes[0].handle, ==, first);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 32);
  /* another dma-buf, its frame at 96: another BO */
  b = dmabuf_buffer (alloc, 320 * 240 + 96, 2);
  gst_buffer_resize (b, 96, 320 * 240);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  g_assert_cmpuint (j.picture.planes[0].handle, !=, first);
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 96);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 3);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 0);
  run_stop (&r);
  gst_buffer_unref (keep);
  gst_object_unref (alloc);
}

/* The frame at 320x240 must be all @v (rows 0..@rows-1); *@bad the first that is not */
static gboolean
frame_is (const guint8 * px, guint rows, guint8 v, guint * bad)
{
  guint i;

  for (i = 0; i < 320 * rows; i++)
    if (px[i] != v) {
      *bad = i;
      return FALSE;
    }
  return TRUE;
}

/*
 * A GstVideoMeta gives the frame's layout in the buffer, not the caps:
 * a dma-buf whose meta puts the frame 64 bytes in, stride 320, is
 * imported at 64; one whose meta gives a padded stride (384) cannot be
 * read by the device (which takes 320) and is copied, row by row at that
 * stride: none of the padding (0xff) in the device's frame.
 */
static void
test_mock_video_meta (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 64 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 320 };
  struct drm_fdif_job j;
  gboolean live, imported;
  GstMessage *msg;
  GstMapInfo mi;
  GstBuffer *b;
  guint8 *px;
  guint y, bad = 0;
  struct run r;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "display=false");
  b = dmabuf_filled (alloc, 320 * 240 + 64, 0x40, 0);
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8,
      320, 240, 1, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 64);

  /* rows of 320 bytes of 0x40 and 64 of padding, 0xff */
  b = dmabuf_filled (alloc, 384 * 240, 0xff, 1);
  g_assert_true (gst_buffer_map (b, &mi, GST_MAP_WRITE));
  for (y = 0; y < 240; y++)
    memset (mi.data + y * 384, 0x40, 320);
  gst_buffer_unmap (b, &mi);
  offset[0] = 0;
  stride[0] = 384;
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8,
      320, 240, 1, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_false (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 0);
  px = mk_frame (j.picture.planes[0].handle, 0);
  if (!frame_is (px, 240, 0x40, &bad))
    g_test_message ("frame byte %u (row %u) is 0x%02x", bad, bad / 320, px[bad]);
  g_assert_true (frame_is (px, 240, 0x40, &bad));
  g_free (px);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 1);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  for (y = 0; y < 2; y++) {
    check_face (next_faces (&r, &msg, y * GST_SECOND / 30), 0, 140, 100, 40, 40);
    gst_message_unref (msg);
  }
  run_stop (&r);
  gst_object_unref (alloc);
}

/*
 * A padded stride from the caps: GRAY8 rows of 322 pixels are 324 bytes
 * apart. The copy reads each row at its stride (no padding byte, 0xff, in
 * the device's frame: 322x240 fitted into 320x239 of 0x40, the last row the
 * letterbox's grey), and display draws at that stride too, leaving the
 * padding alone.
 */
static void
test_mock_padded_stride (void)
{
  GstVideoRegionOfInterestMeta *roi;
  struct drm_fdif_job j;
  GstMessage *msg;
  GstMapInfo mi;
  GstBuffer *b;
  guint8 *px;
  guint y, x, cx, bad = 0;
  struct run r;

  if (!need_mock ())
    return;
  run_start (&r, 322, 240, NULL);
  b = gst_buffer_new_allocate (NULL, 324 * 240, NULL);
  gst_buffer_memset (b, 0, 0xff, 324 * 240);
  g_assert_true (gst_buffer_map (b, &mi, GST_MAP_WRITE));
  for (y = 0; y < 240; y++)
    memset (mi.data + y * 324, 0x40, 322);
  gst_buffer_unmap (b, &mi);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  px = mk_frame (j.picture.planes[0].handle, 0);
  if (!frame_is (px, 239, 0x40, &bad))
    g_test_message ("frame byte %u (row %u) is 0x%02x", bad, bad / 320, px[bad]);
  g_assert_true (frame_is (px, 239, 0x40, &bad));
  g_assert_cmpuint (px[239 * 320 + 100], ==, 128);	/* the letterbox */
  g_free (px);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  gst_message_unref (msg = gst_bus_pop_filtered (r.bus, GST_MESSAGE_ELEMENT));
  g_assert_nonnull (msg);

  b = gst_harness_pull (r.h);
  roi = gst_buffer_get_video_region_of_interest_meta (b);
  g_assert_nonnull (roi);
  g_test_message ("box %u,%u %ux%u", roi->x, roi->y, roi->w, roi->h);
  g_assert_cmpuint (roi->w, >=, 40);
  g_assert_cmpuint (roi->h, >=, 40);
  g_assert_true (gst_buffer_map (b, &mi, GST_MAP_READ));
  cx = roi->x + roi->w / 2;
  /* the outline at 324 bytes a row: top, bottom, left, right */
  g_assert_cmpuint (mi.data[roi->y * 324 + cx], ==, 255);
  g_assert_cmpuint (mi.data[(roi->y + roi->h - 1) * 324 + cx], ==, 255);
  g_assert_cmpuint (mi.data[(roi->y + roi->h / 2) * 324 + roi->x], ==, 255);
  g_assert_cmpuint (mi.data[(roi->y + roi->h / 2) * 324 + roi->x + roi->w - 1], ==, 255);
  g_assert_cmpuint (mi.data[(roi->y + roi->h / 2) * 324 + cx], ==, 0x40);
  /* nothing else drawn, the padding untouched */
  for (y = 0; y < 240; y++)
    for (x = 0; x < 324; x++) {
      gboolean edge = y >= roi->y && y < roi->y + roi->h && x >= roi->x &&
          x < roi->x + roi->w && (y < roi->y + 2 || y >= roi->y + roi->h - 2 ||
          x < roi->x + 2 || x >= roi->x + roi->w - 2);

      if (mi.data[y * 324 + x] != (x >= 322 ? 0xff : edge ? 255 : 0x40))
        g_error ("pixel %u,%u is 0x%02x", x, y, mi.data[y * 324 + x]);
    }
  gst_buffer_unmap (b, &mi);
  gst_buffer_unref (b);
  run_stop (&r);
}

/*
 * display=false: the frames come out as they went in (a copied frame's
 * pixels untouched), the faces still on them as metas
 */
static void
test_mock_display_false (void)
{
  struct run r;
  GstMessage *msg;
  GstMapInfo mi;
  GstBuffer *b;
  gsize i;

  if (!need_mock ())
    return;
  run_start (&r, 640, 480, "display=false");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (640, 480, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  check_face (next_faces (&r, &msg, 0), 0, 280, 200, 80, 80);
  gst_message_unref (msg);
  b = gst_harness_pull (r.h);
  check_roi (b, 280, 200, 80, 80);
  g_assert_true (gst_buffer_map (b, &mi, GST_MAP_READ));
  g_assert_cmpuint (mi.size, ==, 640 * 480);
  for (i = 0; i < mi.size; i++)
    if (mi.data[i] != 0x40)
      g_error ("pixel %" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT " drawn: 0x%02x", i % 640,
          i / 640, mi.data[i]);
  gst_buffer_unmap (b, &mi);
  gst_buffer_unref (b);
  run_stop (&r);
}

/* The PTS of every "facedetect" message posted, as "0 2 4" (frames at 30/1) */
static gchar *
posted (struct run *r)
{
  GString *s = g_string_new ("");
  GstMessage *m;
  guint64 t;

  while ((m = gst_bus_pop_filtered (r->bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *st = gst_message_get_structure (m);

    g_assert_true (gst_structure_has_name (st, "facedetect"));
    g_assert_true (gst_structure_get_uint64 (st, "timestamp", &t));
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, s->len ? " " : "",
        t / (GST_SECOND / 30));
    gst_message_unref (m);
  }
  return g_string_free (s, FALSE);
}

/*
 * Frames with a face, a face, none, none, a face (the fake kernel's faces
 * when each is submitted): the messages each `updates` mode posts, as
 * facedetect's; the metas are on the frames with a face whatever the mode.
 */
static void
updates_mode (const char *mode, const char *want)
{
  static const guint faces[] = { 1, 1, 0, 0, 1 };
  gchar *props = g_strdup_printf ("updates=%s", mode);
  struct run r;
  GstBuffer *b;
  gchar *got;
  guint i;

  run_start (&r, 320, 240, props);
  for (i = 0; i < G_N_ELEMENTS (faces); i++) {
    pthread_mutex_lock (mk_lock);
    mk->nfaces = faces[i];
    pthread_mutex_unlock (mk_lock);
    g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, i)), ==, GST_FLOW_OK);
  }
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  got = posted (&r);
  g_test_message ("updates=%s: messages for frames '%s'", mode, got);
  g_assert_cmpstr (got, ==, want);
  for (i = 0; i < G_N_ELEMENTS (faces); i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    if (faces[i])
      check_roi (b, 140, 100, 40, 40);
    else
      g_assert_null (gst_buffer_get_video_region_of_interest_meta (b));
    gst_buffer_unref (b);
  }
  g_free (got);
  g_free (props);
  run_stop (&r);
  pthread_mutex_lock (mk_lock);
  mk->nfaces = 1;
  pthread_mutex_unlock (mk_lock);
}

static void
test_mock_updates (void)
{
  if (!need_mock ())
    return;
  updates_mode ("every_frame", "0 1 2 3 4");
  updates_mode ("on_change", "0 2 4");
  updates_mode ("on_face", "0 1 4");
  updates_mode ("none", "");
}

/*
 * updates=on_change across a flush (a seek): what was seen before it is
 * forgotten, so the first frame after it with a face posts, though the
 * last frame before it had one too
 */
static void
test_mock_updates_flush (void)
{
  struct run r;
  GstSegment seg;
  gchar *got;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "updates=on_change");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (wait_received (&r, 2), ==, 2);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 2)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 3)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  got = posted (&r);
  g_assert_cmpstr (got, ==, "0 2");
  g_free (got);
  run_stop (&r);
}

/*
 * A segment that does not start at 0 (a seek to 1 s, the stream's time
 * 2 s there, 5 s of running time before it): the message's running-time
 * and stream-time are the segment's, the timestamp the buffer's PTS.
 */
static void
test_mock_segment (void)
{
  struct run r;
  GstSegment seg;
  GstMessage *msg;
  const GstStructure *s;
  GstBuffer *b;
  guint64 t;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = GST_SECOND;
  seg.position = GST_SECOND;
  seg.time = 2 * GST_SECOND;
  seg.base = 5 * GST_SECOND;
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  for (i = 0; i < 2; i++) {
    b = gray_buffer (320, 240, i);
    GST_BUFFER_PTS (b) += GST_SECOND;
    g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  }
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  for (i = 0; i < 2; i++) {
    msg = gst_bus_pop_filtered (r.bus, GST_MESSAGE_ELEMENT);
    g_assert_nonnull (msg);
    s = gst_message_get_structure (msg);
    g_test_message ("%" GST_PTR_FORMAT, s);
    g_assert_true (gst_structure_get_uint64 (s, "timestamp", &t));
    g_assert_cmpuint (t, ==, GST_SECOND + i * GST_SECOND / 30);
    g_assert_true (gst_structure_get_uint64 (s, "running-time", &t));
    g_assert_cmpuint (t, ==, 5 * GST_SECOND + i * GST_SECOND / 30);
    g_assert_true (gst_structure_get_uint64 (s, "stream-time", &t));
    g_assert_cmpuint (t, ==, 2 * GST_SECOND + i * GST_SECOND / 30);
    g_assert_true (gst_structure_get_uint64 (s, "duration", &t));
    g_assert_cmpuint (t, ==, GST_SECOND / 30);
    gst_message_unref (msg);
  }
  run_stop (&r);
}

/*
 * A face looking right (direction 1, angle 90, confidence 700), found by
 * a scan to the right: its confidence and angle in the message, and
 * confidence, angle and direction in the ROI meta's "fdif" parameters.
 */
static void
test_mock_face_fields (void)
{
  GstVideoRegionOfInterestMeta *roi;
  const GstStructure *p;
  struct run r;
  GstMessage *msg;
  const GValue *faces;
  GstBuffer *b;
  guint v;

  if (!need_mock ())
    return;
  pthread_mutex_lock (mk_lock);
  mk->faces[0].direction = 1;
  mk->faces[0].angle = 90;
  mk->faces[0].confidence = 700;
  pthread_mutex_unlock (mk_lock);
  run_start (&r, 320, 240, "directions=right");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_last_job ().directions, ==, 2);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 1);
  check_face (faces, 0, 140, 100, 40, 40);
  check_face_fields (faces, 0, 700, 90);
  gst_message_unref (msg);
  b = gst_harness_pull (r.h);
  check_roi (b, 140, 100, 40, 40);
  roi = gst_buffer_get_video_region_of_interest_meta (b);
  p = gst_video_region_of_interest_meta_get_param (roi, "fdif");
  g_assert_true (gst_structure_get_uint (p, "confidence", &v));
  g_assert_cmpuint (v, ==, 700);
  g_assert_true (gst_structure_get_uint (p, "angle", &v));
  g_assert_cmpuint (v, ==, 90);
  g_assert_true (gst_structure_get_uint (p, "direction", &v));
  g_assert_cmpuint (v, ==, 1);
  gst_buffer_unref (b);
  run_stop (&r);
}

/*
 * Faces reaching past the frame's edges: their boxes clamped to it
 * (facedetect's are inside the picture), on the bus and in the meta
 */
static void
test_mock_clamped (void)
{
  struct run r;
  GstMessage *msg;
  const GValue *faces;
  GstBuffer *b;
  gpointer state = NULL;
  GstMeta *m;
  guint n = 0;

  if (!need_mock ())
    return;
  pthread_mutex_lock (mk_lock);
  mk->nfaces = 2;
  mk->faces[0] = (struct fake_face) { .cx = 310, .cy = 230, .size = 40,
      .confidence = 900, .raw = 1, .fields = 0x1f };
  mk->faces[1] = (struct fake_face) { .cx = 10, .cy = 8, .size = 40,
      .confidence = 800, .raw = 1, .fields = 0x1f };
  pthread_mutex_unlock (mk_lock);
  run_start (&r, 320, 240, "display=false min-size-width=0 min-size-height=0");
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  faces = next_faces (&r, &msg, 0);
  g_assert_cmpuint (gst_value_list_get_size (faces), ==, 2);
  check_face (faces, 0, 290, 210, 30, 30);	/* 290..330 x 210..250 */
  check_face (faces, 1, 0, 0, 30, 28);	/* -10..30 x -12..28 */
  gst_message_unref (msg);
  b = gst_harness_pull (r.h);
  while ((m = gst_buffer_iterate_meta_filtered (b, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) m;

    g_assert_cmpuint (roi->x + roi->w, <=, 320);
    g_assert_cmpuint (roi->y + roi->h, <=, 240);
    n++;
  }
  g_assert_cmpuint (n, ==, 2);
  gst_buffer_unref (b);
  run_stop (&r);
}

/*
 * A frame of @format (an RGB or packed YUV one), @width x @height, every
 * pixel R,G,B = 0x60,0x40,0x20 (luma 70, BT.601) or Y = 70 and chroma
 * 0x80; the padding bytes (x) 0x80
 */
static GstBuffer *
color_buffer (GstVideoFormat format, guint width, guint height, guint64 n)
{
  GstVideoInfo info;
  GstVideoFrame vf;
  GstBuffer *b;
  guint x, y, c;

  g_assert_true (gst_video_info_set_format (&info, format, width, height));
  b = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (b, 0, 0x80, GST_VIDEO_INFO_SIZE (&info));
  g_assert_true (gst_video_frame_map (&vf, &info, b, GST_MAP_WRITE));
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      if (GST_VIDEO_INFO_IS_RGB (&info)) {
        static const guint8 rgb[3] = { 0x60, 0x40, 0x20 };

        for (c = 0; c < 3; c++)
          GST_VIDEO_FRAME_COMP_DATA (&vf, c)[y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, c) +
              x * GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, c)] = rgb[c];
      } else {
        GST_VIDEO_FRAME_COMP_DATA (&vf, 0)[y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, 0) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, 0)] = 70;
      }
    }
  gst_video_frame_unmap (&vf);
  GST_BUFFER_PTS (b) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

/* @b's pixel @x,@y of its @format frame: its first @ncomp components, as "a,b,c" */
static gchar *
color_at (GstBuffer * b, GstVideoFormat format, guint width, guint height, guint x,
    guint y)
{
  GstVideoInfo info;
  GstVideoFrame vf;
  GString *s = g_string_new ("");
  guint c, ncomp;

  g_assert_true (gst_video_info_set_format (&info, format, width, height));
  g_assert_true (gst_video_frame_map (&vf, &info, b, GST_MAP_READ));
  ncomp = GST_VIDEO_INFO_IS_RGB (&info) ? 3 : 1;
  for (c = 0; c < ncomp; c++)
    g_string_append_printf (s, "%s%u", c ? "," : "",
        GST_VIDEO_FRAME_COMP_DATA (&vf, c)[y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, c)]);
  gst_video_frame_unmap (&vf);
  return g_string_free (s, FALSE);
}

/*
 * facedetect's RGB, its relatives and a USB camera's packed YUV: linked,
 * copied as grey (BT.601 luma of R,G,B = 0x60,0x40,0x20 is 70; the Y
 * bytes of YUY2 and UYVY) into the device's frame, the face mapped back,
 * the outline drawn white (R,G,B 255, or Y 255), the rest untouched.
 */
static void
test_mock_color_formats (void)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_RGBx,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_YUY2,
    GST_VIDEO_FORMAT_UYVY,
  };
  struct drm_fdif_job j;
  GstMessage *msg;
  GstBuffer *b;
  guint8 *px;
  gchar *at;
  guint i, bad = 0;
  struct run r;

  if (!need_mock ())
    return;
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    const gchar *name = gst_video_format_to_string (formats[i]);
    gboolean rgb = gst_video_format_get_info (formats[i])->flags & GST_VIDEO_FORMAT_FLAG_RGB;

    g_test_message ("%s", name);
    run_start_fmt (&r, name, 640, 480, NULL);
    g_assert_cmpint (gst_harness_push (r.h, color_buffer (formats[i], 640, 480, 0)), ==,
        GST_FLOW_OK);
    j = mk_last_job ();
    px = mk_frame (j.picture.planes[0].handle, j.picture.planes[0].offset);
    if (!frame_is (px, 240, 70, &bad))
      g_error ("%s: frame byte %u (row %u) is %u, not 70", name, bad, bad / 320, px[bad]);
    g_free (px);
    g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
    g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
    check_face (next_faces (&r, &msg, 0), 0, 280, 200, 80, 80);
    gst_message_unref (msg);
    b = gst_harness_pull (r.h);
    check_roi (b, 280, 200, 80, 80);
    at = color_at (b, formats[i], 640, 480, 300, 200);	/* the top edge */
    g_assert_cmpstr (at, ==, rgb ? "255,255,255" : "255");
    g_free (at);
    at = color_at (b, formats[i], 640, 480, 359, 240);	/* the right edge */
    g_assert_cmpstr (at, ==, rgb ? "255,255,255" : "255");
    g_free (at);
    at = color_at (b, formats[i], 640, 480, 320, 240);	/* inside */
    g_assert_cmpstr (at, ==, rgb ? "96,64,32" : "70");
    g_free (at);
    at = color_at (b, formats[i], 640, 480, 10, 10);
    g_assert_cmpstr (at, ==, rgb ? "96,64,32" : "70");
    g_free (at);
    gst_buffer_unref (b);
    run_stop (&r);
  }
}

/* A buffer of dma-buf memories (memfds) of @sizes (0 ends the list) */
static GstBuffer *
dmabuf_memories (GstAllocator * alloc, const gsize * sizes, guint64 n)
{
  GstBuffer *b = gst_buffer_new ();

  for (; *sizes; sizes++) {
    int fd = memfd_create ("fdif-gst-plane", MFD_CLOEXEC);

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, (off_t) * sizes), ==, 0);
    gst_buffer_append_memory (b, gst_dmabuf_allocator_alloc (alloc, fd, *sizes));
  }
  GST_BUFFER_PTS (b) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

/*
 * NV12 from a multi-planar camera driver (NV12M): the luma plane and the
 * chroma plane each a dma-buf of its own, a video meta saying where each
 * plane is. The luma plane's dma-buf is imported, at the plane's offset
 * in it; a plane 0 that is not in the first memory too. A luma plane
 * split over two memories cannot be read by the device: copied.
 */
static void
test_mock_nv12m (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 320 * 240 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 320, 320 };
  const gsize two[] = { 320 * 240, 320 * 120, 0 };
  const gsize header[] = { 64, 320 * 240, 320 * 120, 0 };
  const gsize split[] = { 320 * 120, 320 * 120 + 320 * 120, 0 };
  struct drm_fdif_job j;
  gboolean live, imported;
  GstMessage *msg;
  GstBuffer *b;
  struct run r;
  guint i;

  if (!need_mock ())
    return;
  run_start_fmt (&r, "NV12", 320, 240, "display=false");
  /* luma, chroma */
  b = dmabuf_memories (alloc, two, 0);
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_NV12,
      320, 240, 2, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 0);
  g_assert_cmpuint (j.picture.planes[0].stride, ==, 320);
  /* a header memory first, the luma 64 bytes into the buffer: in memory 1, at 0 */
  b = dmabuf_memories (alloc, header, 1);
  offset[0] = 64;
  offset[1] = 64 + 320 * 240;
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_NV12,
      320, 240, 2, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 0);
  /* the luma's memory 32 bytes into its dma-buf: the job at 32 */
  b = gst_buffer_new ();
  for (i = 0; i < 2; i++) {
    int fd = memfd_create ("fdif-gst-plane", MFD_CLOEXEC);
    gsize size = i ? 320 * 120 : 32 + 320 * 240;
    GstMemory *mem;

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, (off_t) size), ==, 0);
    mem = gst_dmabuf_allocator_alloc (alloc, fd, size);
    if (!i)
      gst_memory_resize (mem, 32, 320 * 240);
    gst_buffer_append_memory (b, mem);
  }
  GST_BUFFER_PTS (b) = 2 * GST_SECOND / 30;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  offset[0] = 0;
  offset[1] = 320 * 240;
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_NV12,
      320, 240, 2, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_true (imported);
  g_assert_cmpuint (j.picture.planes[0].offset, ==, 32);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 3);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 0);
  for (i = 0; i < 3; i++) {
    check_face (next_faces (&r, &msg, i * GST_SECOND / 30), 0, 140, 100, 40, 40);
    gst_message_unref (msg);
  }
  run_stop (&r);

  run_start_fmt (&r, "NV12", 320, 240, "display=false");
  b = dmabuf_memories (alloc, split, 3);
  offset[0] = 0;
  offset[1] = 320 * 240;
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_NV12,
      320, 240, 2, offset, stride);
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  j = mk_last_job ();
  mk_bo_state (j.picture.planes[0].handle, &live, &imported);
  g_assert_false (imported);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 0);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  check_face (next_faces (&r, &msg, 3 * GST_SECOND / 30), 0, 140, 100, 40, 40);
  gst_message_unref (msg);
  run_stop (&r);
  gst_object_unref (alloc);
}

/* The file descriptor limit while a test runs out of descriptors */
static struct rlimit fd_limit;
static gint fd_limit_lowered;

/*
 * The element's log: when it says an import failed, the descriptors are
 * given back (before the frame's jobs, whose fences need them, are
 * submitted)
 */
static void
import_failed_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  const gchar *text;

  if (!g_str_equal (gst_debug_category_get_name (cat), "fdiffacedetect"))
    return;
  text = gst_debug_message_get (message);
  if (text && strstr (text, "cannot be imported") && g_atomic_int_get (&fd_limit_lowered)) {
    g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &fd_limit), ==, 0);
    g_atomic_int_set (&fd_limit_lowered, 0);
    g_atomic_int_inc ((gint *) data);
  }
}

/*
 * An import that fails for want of a file descriptor (EMFILE: the
 * library duplicates the dma-buf's) is not the dma-buf's fault: that
 * frame is copied, and the same dma-buf's next frame is imported.
 */
static void
test_mock_import_transient (void)
{
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  struct rlimit low;
  GstDebugLevel old;
  GstBuffer *keep, *b;
  struct run r;
  gint failed = 0;
  int fd;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "display=false");
  keep = dmabuf_buffer (alloc, 320 * 240, 0);
  old = category_at_least ("fdiffacedetect", GST_LEVEL_INFO);
  gst_debug_add_log_function (import_failed_log, &failed, NULL);
  /* no descriptor free below the limit */
  fd = fcntl (0, F_DUPFD_CLOEXEC, 0);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &fd_limit), ==, 0);
  low = fd_limit;
  low.rlim_cur = (rlim_t) fd;
  g_atomic_int_set (&fd_limit_lowered, 1);
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0);
  g_assert_cmpint (gst_harness_push (r.h, gst_buffer_ref (keep)), ==, GST_FLOW_OK);
  if (g_atomic_int_get (&fd_limit_lowered))
    g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &fd_limit), ==, 0);
  gst_debug_remove_log_function (import_failed_log);
  category_restore ("fdiffacedetect", old);
  g_assert_cmpint (failed, ==, 1);
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 0);
  /* the same dma-buf again, descriptors to spare: imported */
  b = gst_buffer_copy (keep);
  GST_BUFFER_PTS (b) = GST_SECOND / 30;
  g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (counter (&r, "frames-copied"), ==, 1);
  g_assert_cmpuint (counter (&r, "frames-imported"), ==, 1);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 2);
  g_assert_null (gst_bus_pop_filtered (r.bus, GST_MESSAGE_ERROR));
  run_stop (&r);
  gst_buffer_unref (keep);
  gst_object_unref (alloc);
}

/*
 * min-neighbors, facedetect's strictness, as the device's threshold: the
 * smallest LHIT whose neighbours, (3 LHIT + 2) / 5 in the FDIF's model
 * (docs/detector.md), are at least min-neighbors, the device's largest
 * at most; facedetect's default 3 is LHIT 5, the device's own. A
 * threshold set (not -1) wins.
 */
static void
test_mock_min_neighbors (void)
{
  if (!need_mock ())
    return;
  submitted_with (320, 240, "min-neighbors=0", 0, 25);
  submitted_with (320, 240, "min-neighbors=1", 1, 25);
  submitted_with (320, 240, "min-neighbors=2", 3, 25);
  submitted_with (320, 240, "min-neighbors=3", 5, 25);
  submitted_with (320, 240, "min-neighbors=4", 6, 25);
  submitted_with (320, 240, "min-neighbors=5", 8, 25);
  submitted_with (320, 240, "min-neighbors=6", 9, 25);
  submitted_with (320, 240, "min-neighbors=1000", 9, 25);
  submitted_with (320, 240, "min-neighbors=1 threshold=7", 7, 25);
  submitted_with (320, 240, "threshold=2 min-neighbors=5", 2, 25);
}

/*
 * A 320x240 frame whose grey has the standard deviation @sd (rows of
 * 64 - @sd and 64 + @sd in turn), of @format
 */
static GstBuffer *
stddev_buffer (guint sd, guint64 n)
{
  GstBuffer *b = gray_buffer (320, 240, n);
  guint y;

  for (y = 0; y < 240; y++)
    gst_buffer_memset (b, y * 320, y % 2 ? 64 + sd : 64 - sd, 320);
  return b;
}

/*
 * min-stddev, facedetect's: a frame whose grey standard deviation is below
 * it is not sent to the device (no job), and is reported as one without a
 * face (the message, as updates says; no meta); at or above it, it is.
 * Taken per frame, also while playing.
 */
static void
test_mock_min_stddev (void)
{
  struct run r;
  GstMessage *msg;
  GstBuffer *b;
  guint submits;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "min-stddev=10 display=false");
  submits = mk_get (&mk->submits);
  /* a uniform frame, then standard deviations 9, 10 */
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, stddev_buffer (9, 1)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, stddev_buffer (10, 2)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 1);
  g_object_set (r.e, "min-stddev", 11, NULL);
  g_assert_cmpint (gst_harness_push (r.h, stddev_buffer (10, 3)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 1);
  g_object_set (r.e, "min-stddev", 0, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 4)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 2);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 5);
  for (guint i = 0; i < 5; i++) {
    gboolean found = i == 2 || i == 4;

    g_assert_cmpuint (gst_value_list_get_size (next_faces (&r, &msg, i * GST_SECOND / 30)),
        ==, found);
    gst_message_unref (msg);
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    if (found)
      check_roi (b, 140, 100, 40, 40);
    else
      g_assert_null (gst_buffer_get_video_region_of_interest_meta (b));
    gst_buffer_unref (b);
  }
  run_stop (&r);

  /* in RGB: the deviation of its grey (70 everywhere: 0) */
  run_start_fmt (&r, "RGB", 320, 240, "min-stddev=1");
  submits = mk_get (&mk->submits);
  g_assert_cmpint (gst_harness_push (r.h, color_buffer (GST_VIDEO_FORMAT_RGB, 320, 240, 0)),
      ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits);
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 1);
  run_stop (&r);
}

/*
 * QoS, on as facedetect's: after downstream says it is late (a QOS event:
 * frames up to 1 s are too late), those frames are dropped before they
 * reach the device; the next frame in time is detected.
 */
static void
test_mock_qos (void)
{
  struct run r;
  GstBuffer *b;
  guint submits;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  submits = mk_get (&mk->submits);
  g_assert_true (gst_harness_push_upstream_event (r.h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.5, 0, GST_SECOND)));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 29)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 31)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 1);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 1);
  b = gst_harness_pull (r.h);
  g_assert_cmpuint (GST_BUFFER_PTS (b), ==, 31 * GST_SECOND / 30);
  g_assert_true (GST_BUFFER_IS_DISCONT (b));	/* frames were dropped before it */
  gst_buffer_unref (b);
  run_stop (&r);
}

/*
 * The bound: with downstream blocking frame 0's push, frame 1 is still
 * submitted (the device has it while frame 0 is pushed), frame 2 waits for
 * room and is submitted only once frame 0 is out; all three come out, in
 * order.
 */
static void
test_mock_bounded (void)
{
  struct run r;
  struct push p;
  GThread *t;
  gulong probe;
  guint submits;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  submits = mk_get (&mk->submits);
  probe = block_downstream (&r);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 2);
  t = push_blocked (&r, &p, gray_buffer (320, 240, 2));
  g_usleep (100 * 1000);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 2);	/* no room */
  g_assert_cmpint (p.ret, ==, GST_FLOW_CUSTOM_ERROR);	/* still in the push */
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 0);
  gst_pad_remove_probe (r.h->sinkpad, probe);
  g_thread_join (t);
  g_assert_cmpint (p.ret, ==, GST_FLOW_OK);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 3);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  pull_frames (&r, 0, 3);
  run_stop (&r);
}

/* Downstream's chain: refuses every buffer (NOT_NEGOTIATED) */
static GstFlowReturn
failing_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  gst_buffer_unref (buf);
  return GST_FLOW_NOT_NEGOTIATED;
}

/*
 * A flow error downstream returns on a frame the task pushes goes back
 * upstream: the next push returns it (the frame not submitted), also when
 * an event pushed the frame out; a flush clears it.
 */
static void
test_mock_downstream_error (void)
{
  GstPadChainFunction chain;
  struct run r;
  GstSegment seg;
  guint submits;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  chain = GST_PAD_CHAINFUNC (r.h->sinkpad);
  gst_pad_set_chain_function (r.h->sinkpad, failing_chain);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  /* a serialized event: frame 0 out before it */
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_tag (gst_tag_list_new_empty ())));
  submits = mk_get (&mk->submits);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 1)), ==,
      GST_FLOW_NOT_NEGOTIATED);
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits);
  gst_pad_set_chain_function (r.h->sinkpad, chain);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 2)), ==, GST_FLOW_OK);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (gst_harness_buffers_received (r.h), ==, 1);
  run_stop (&r);
}

/*
 * Frames a camera marks CORRUPTED, and GAP frames (no picture): passed on
 * in their place, untouched, without a job, a message or a meta, and the
 * face state as it was (on_change does not post for the frame after them)
 */
static void
test_mock_corrupted_gap (void)
{
  static const GstBufferFlags flags[] = { 0, GST_BUFFER_FLAG_CORRUPTED, GST_BUFFER_FLAG_GAP, 0 };
  struct run r;
  GstMapInfo mi;
  GstBuffer *b;
  guint i, submits;
  gchar *got;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, "updates=on_change");
  submits = mk_get (&mk->submits);
  for (i = 0; i < G_N_ELEMENTS (flags); i++) {
    b = gray_buffer (320, 240, i);
    GST_BUFFER_FLAG_SET (b, flags[i]);
    g_assert_cmpint (gst_harness_push (r.h, b), ==, GST_FLOW_OK);
  }
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpuint (mk_get (&mk->submits), ==, submits + 2);
  got = posted (&r);
  g_assert_cmpstr (got, ==, "0");
  g_free (got);
  for (i = 0; i < G_N_ELEMENTS (flags); i++) {
    b = gst_harness_pull (r.h);
    g_assert_cmpuint (GST_BUFFER_PTS (b), ==, i * GST_SECOND / 30);
    if (flags[i]) {
      g_assert_true (GST_BUFFER_FLAG_IS_SET (b, flags[i]));
      g_assert_null (gst_buffer_get_video_region_of_interest_meta (b));
      g_assert_true (gst_buffer_map (b, &mi, GST_MAP_READ));
      g_assert_cmpuint (mi.data[100 * 320 + 150], ==, 0x40);	/* no outline */
      gst_buffer_unmap (b, &mi);
    } else {
      check_roi (b, 140, 100, 40, 40);
    }
    gst_buffer_unref (b);
  }
  run_stop (&r);
}

/* The task's log of a frame's faces: it sleeps there 200 ms, between taking the frame and pushing it */
static void
slow_frame_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  const gchar *text;

  if (level != GST_LEVEL_LOG || !g_str_equal (gst_debug_category_get_name (cat),
          "fdiffacedetect"))
    return;
  text = gst_debug_message_get (message);
  if (text && strstr (text, "x,y = ")) {
    g_atomic_int_inc ((gint *) data);
    g_usleep (200 * 1000);
  }
}

/*
 * A serialized event waits for the frame the task has taken and not yet
 * pushed, not only for the frames still queued: with the task slow
 * between the two (200 ms in its log), the event still comes out after
 * the frame.
 */
static void
test_mock_event_waits_for_task (void)
{
  static const char *const want[] = { "buffer 0", "custom-downstream", "eos" };
  GPtrArray *seen = g_ptr_array_new_with_free_func (g_free);
  GstDebugLevel old;
  gint slowed = 0;
  struct run r;
  guint i;

  if (!need_mock ())
    return;
  run_start (&r, 320, 240, NULL);
  gst_pad_add_probe (r.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record_probe, seen, NULL);
  g_ptr_array_set_size (seen, 0);	/* what came before the frames */
  old = category_at_least ("fdiffacedetect", GST_LEVEL_LOG);
  gst_debug_add_log_function (slow_frame_log, &slowed, NULL);
  g_assert_cmpint (gst_harness_push (r.h, gray_buffer (320, 240, 0)), ==, GST_FLOW_OK);
  /* the task has taken frame 0 (none is queued) and sleeps before its push */
  for (i = 0; i < 5000 && !g_atomic_int_get (&slowed); i++)
    g_usleep (1000);
  g_assert_true (gst_harness_push_event (r.h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("fdif-test"))));
  gst_debug_remove_log_function (slow_frame_log);
  category_restore ("fdiffacedetect", old);
  g_assert_true (gst_harness_push_event (r.h, gst_event_new_eos ()));
  g_assert_cmpint (slowed, ==, 1);
  for (i = 0; i < seen->len; i++)
    g_test_message ("out %u: %s", i, (const char *) seen->pdata[i]);
  g_assert_cmpuint (seen->len, ==, G_N_ELEMENTS (want));
  for (i = 0; i < seen->len; i++)
    g_assert_cmpstr (seen->pdata[i], ==, want[i]);
  run_stop (&r);
  g_ptr_array_unref (seen);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  gst_init (&argc, &argv);

  mk = dlsym (RTLD_DEFAULT, "k");
  mk_lock = dlsym (RTLD_DEFAULT, "mock_lock");
  mock_device = g_getenv ("FDIF_MOCK_DEVICE");
  if (!mk_lock)
    mk = NULL;

  g_test_add_func ("/fdiffacedetect/factory", test_factory);
  g_test_add_func ("/fdiffacedetect/properties", test_properties);
  g_test_add_func ("/fdiffacedetect/facedetect-properties", test_facedetect_properties);
  g_test_add_func ("/fdiffacedetect/facedetect-pipeline-string",
      test_facedetect_pipeline_string);
  g_test_add_func ("/fdiffacedetect/no-device/path", test_no_device_path);
  g_test_add_func ("/fdiffacedetect/no-device/dir", test_no_device_dir);
  g_test_add_func ("/fdiffacedetect/mock/copy", test_mock_copy);
  g_test_add_func ("/fdiffacedetect/mock/variable-framerate", test_mock_variable_framerate);
  g_test_add_func ("/fdiffacedetect/mock/latency-message", test_mock_latency_message);
  g_test_add_func ("/fdiffacedetect/mock/import", test_mock_import);
  g_test_add_func ("/fdiffacedetect/mock/import-bounded", test_mock_import_bounded);
  g_test_add_func ("/fdiffacedetect/mock/import-freed", test_mock_import_freed);
  g_test_add_func ("/fdiffacedetect/mock/import-stop", test_mock_import_stop);
  g_test_add_func ("/fdiffacedetect/mock/nv12", test_mock_nv12);
  g_test_add_func ("/fdiffacedetect/mock/directions", test_mock_directions);
  g_test_add_func ("/fdiffacedetect/mock/min-size", test_mock_min_size);
  g_test_add_func ("/fdiffacedetect/mock/short-buffer", test_mock_short_buffer);
  g_test_add_func ("/fdiffacedetect/mock/job-eio", test_mock_job_eio);
  g_test_add_func ("/fdiffacedetect/mock/job-etimedout", test_mock_job_timedout);
  g_test_add_func ("/fdiffacedetect/mock/job-enodev", test_mock_job_enodev);
  g_test_add_func ("/fdiffacedetect/mock/job-hung", test_mock_job_hung);
  g_test_add_func ("/fdiffacedetect/mock/drain-query", test_mock_drain_query);
  g_test_add_func ("/fdiffacedetect/mock/event-order", test_mock_event_order);
  g_test_add_func ("/fdiffacedetect/mock/discont", test_mock_discont);
  g_test_add_func ("/fdiffacedetect/mock/allocation", test_mock_allocation);
  g_test_add_func ("/fdiffacedetect/mock/allocation-unbounded",
      test_mock_allocation_unbounded);
  g_test_add_func ("/fdiffacedetect/mock/flush", test_mock_flush);
  g_test_add_func ("/fdiffacedetect/mock/flush-errno", test_mock_flush_errno);
  g_test_add_func ("/fdiffacedetect/mock/flush-hung", test_mock_flush_hung);
  g_test_add_func ("/fdiffacedetect/mock/stop-bounded", test_mock_stop_bounded);
  g_test_add_func ("/fdiffacedetect/mock/stop-while-waiting", test_mock_stop_while_waiting);
  g_test_add_func ("/fdiffacedetect/mock/flush-stop-while-stopping",
      test_mock_flush_stop_while_stopping);
  g_test_add_func ("/fdiffacedetect/mock/failed-stop", test_mock_failed_stop);
  g_test_add_func ("/fdiffacedetect/mock/threshold", test_mock_threshold);
  g_test_add_func ("/fdiffacedetect/mock/min-size-device", test_mock_min_size_device);
  g_test_add_func ("/fdiffacedetect/mock/import-submitted", test_mock_import_submitted);
  g_test_add_func ("/fdiffacedetect/mock/video-meta", test_mock_video_meta);
  g_test_add_func ("/fdiffacedetect/mock/padded-stride", test_mock_padded_stride);
  g_test_add_func ("/fdiffacedetect/mock/display-false", test_mock_display_false);
  g_test_add_func ("/fdiffacedetect/mock/updates", test_mock_updates);
  g_test_add_func ("/fdiffacedetect/mock/updates-flush", test_mock_updates_flush);
  g_test_add_func ("/fdiffacedetect/mock/segment", test_mock_segment);
  g_test_add_func ("/fdiffacedetect/mock/face-fields", test_mock_face_fields);
  g_test_add_func ("/fdiffacedetect/mock/clamped", test_mock_clamped);
  g_test_add_func ("/fdiffacedetect/mock/color-formats", test_mock_color_formats);
  g_test_add_func ("/fdiffacedetect/mock/nv12m", test_mock_nv12m);
  g_test_add_func ("/fdiffacedetect/mock/import-transient", test_mock_import_transient);
  g_test_add_func ("/fdiffacedetect/mock/min-neighbors", test_mock_min_neighbors);
  g_test_add_func ("/fdiffacedetect/mock/min-stddev", test_mock_min_stddev);
  g_test_add_func ("/fdiffacedetect/mock/qos", test_mock_qos);
  g_test_add_func ("/fdiffacedetect/mock/bounded", test_mock_bounded);
  g_test_add_func ("/fdiffacedetect/mock/downstream-error", test_mock_downstream_error);
  g_test_add_func ("/fdiffacedetect/mock/corrupted-gap", test_mock_corrupted_gap);
  g_test_add_func ("/fdiffacedetect/mock/event-waits-for-task",
      test_mock_event_waits_for_task);
  return g_test_run ();
}
