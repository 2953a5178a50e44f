// SPDX-License-Identifier: MIT
/*
 * fdiffacedetect: a stand-in for gst-plugins-bad's facedetect that finds
 * the faces on the FDIF (docs/gstreamer.md).
 *
 * An in-place GstBaseTransform on GRAY8 video, on the luma plane of
 * NV12, NV21, I420 or YV12 (a camera's usual formats), or on the grey
 * of RGB and packed YUV. Each frame goes to the device as one request,
 * which the library splits into the fewest jobs (one a direction on the
 * OMAP4, which scans one direction per job), either imported as it is
 * (a dma-buf in the device's own frame layout: no copy) or fitted into
 * a pooled BO by the library (fdif_image_fit_frame(): any size). The
 * streaming thread submits the frame and queues it; a task on the src
 * pad takes the frames in order, polls each one's fences, maps its
 * faces back to the frame's own pixels, attaches them as
 * GstVideoRegionOfInterestMeta ("face"), posts facedetect's
 * "facedetect" element message and pushes the buffer: each frame goes
 * out as soon as its jobs are done, never waiting for the next frame,
 * and the device has the next frame queued (up to DEPTH) while a
 * frame's results are read and pushed. Serialized events and DRAIN
 * queries wait until the frames before them are out; a downstream flow
 * error comes back to upstream at its next buffer. A flush, or
 * PAUSED->READY, ends a wait on a fence at once (and a FLUSH_STOP
 * during PAUSED->READY does not let the waits begin again); stop()
 * waits STOP_TIMEOUT_MS in all for the jobs in flight.
 */

/**
 * SECTION:element-fdiffacedetect
 * @title: fdiffacedetect
 * @see_also: facedetect
 *
 * Finds faces on the TI OMAP4 Face Detection module (FDIF, a DRM accel
 * device, through libfdif-drm) and reports them as gst-plugins-bad's
 * facedetect does: an element message named "facedetect" per frame (see
 * #GstFdifFaceDetect:updates) with the frame's timestamps and a list of
 * "face" structures (x, y, width, height in the video's pixels, and
 * confidence and angle), and a #GstVideoRegionOfInterestMeta of type
 * "face" per face on the buffer. With #GstFdifFaceDetect:display the
 * faces are outlined in the frame.
 *
 * It takes facedetect's properties, so a pipeline written for facedetect
 * runs with the element's name changed: #GstFdifFaceDetect:min-neighbors
 * is the device's threshold, #GstFdifFaceDetect:min-stddev skips flat
 * frames, the cascade profiles, #GstFdifFaceDetect:scale-factor and
 * #GstFdifFaceDetect:flags are accepted and ignored (a warning says so).
 *
 * GRAY8 and the luma plane of NV12, NV21, I420 and YV12 are read by the
 * device where they are when the frame is a dma-buf in the device's own
 * layout (320x240, stride 320 on the OMAP4); other sizes, and RGB, BGR,
 * RGBx, BGRx, xRGB, YUY2 and UYVY (their grey), are copied and scaled
 * into a buffer of the device. Each frame is pushed as soon as its jobs
 * are done, with the next frame already on the device.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m v4l2src io-mode=dmabuf ! \
 *     video/x-raw,format=NV12,width=320,height=240 ! fdiffacedetect ! fakesink
 * ]| A camera's NV12 frames at the device's size, read by the device from
 * the camera's dma-bufs; -m prints the facedetect messages.
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! video/x-raw,format=RGB ! \
 *     fdiffacedetect min-size-width=60 min-size-height=60 updates=on_change ! \
 *     videoconvert ! autovideosink
 * ]| facedetect's pipeline with fdiffacedetect in its place: RGB frames,
 * copied as grey, the faces outlined, a message when a face appears or goes.
 * |[
 * gst-launch-1.0 -m filesrc location=photo.jpg ! jpegdec ! videoconvert ! \
 *     imagefreeze num-buffers=1 ! fdiffacedetect directions=up+right+left ! fakesink
 * ]| One photo, upright and sideways faces.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <time.h>

#include <drm_fourcc.h>
#include <gst/allocators/gstdmabuf.h>

#include "gstfdiffacedetect.h"

GST_DEBUG_CATEGORY_STATIC (gst_fdif_face_detect_debug);
#define GST_CAT_DEFAULT gst_fdif_face_detect_debug

/*
 * Frames in the element at most, submitted and not yet pushed: the
 * streaming thread waits with frame N+2 until frame N is out, so frame N+1
 * is on the device while frame N's results are read and pushed
 */
#define DEPTH			2
#define FENCE_TIMEOUT_MS	10000	/* a frame's wait; the kernel's own job timeout is shorter */
/*
 * stop()'s one wait for every job in flight, then they are dropped: longer
 * than the driver's default job timeout (timeout_ms, 2 s), so a job it ends
 * for hanging is normally over before the element gives up
 */
#define STOP_TIMEOUT_MS		3000
#define MAX_IMPORTS		16	/* dma-bufs kept imported, the most recently used */

/* facedetect's defaults (gst-plugins-bad 1.22), and the FDIF's own */
#define DEFAULT_DISPLAY		TRUE
#define DEFAULT_MIN_SIZE	30
#define DEFAULT_UPDATES		GST_FDIF_FACE_DETECT_UPDATES_EVERY_FRAME
#define DEFAULT_SCALE_FACTOR	1.25
#define DEFAULT_MIN_NEIGHBORS	3
#define DEFAULT_FLAGS		GST_FDIF_FACE_DETECT_FLAG_DO_CANNY_PRUNING
#define DEFAULT_MIN_STDDEV	0
#define DEFAULT_THRESHOLD	-1	/* min-neighbors', or the device's recommended one */
#define DEFAULT_DIRECTIONS	GST_FDIF_DIRECTION_UP
#define MAX_THRESHOLD		9	/* the OMAP4's largest; a device's own is checked at start */

enum {
  PROP_0,
  PROP_DISPLAY,
  PROP_MIN_SIZE_WIDTH,
  PROP_MIN_SIZE_HEIGHT,
  PROP_UPDATES,
  PROP_THRESHOLD,
  PROP_DIRECTIONS,
  PROP_DEVICE,
  PROP_FRAMES_IMPORTED,
  PROP_FRAMES_COPIED,
  PROP_FACE_PROFILE,
  PROP_NOSE_PROFILE,
  PROP_MOUTH_PROFILE,
  PROP_EYES_PROFILE,
  PROP_SCALE_FACTOR,
  PROP_MIN_NEIGHBORS,
  PROP_FLAGS,
  PROP_MIN_STDDEV,
};

/* facedetect's cascade files: accepted, not used (the FDIF has its own model) */
#define N_PROFILES 4

/*
 * What a frame is detected with: the properties, read once per frame under
 * the object lock (a change while playing takes effect at the next frame)
 */
struct settings {
  gboolean display;
  gint min_w, min_h;		/* facedetect's minimum size, in frame (input) pixels */
  GstFdifFaceDetectUpdates updates;
  gint threshold;
  gint min_neighbors;
  gboolean min_neighbors_set;
  guint directions;
  gint min_stddev;
};

/*
 * The dma-bufs imported, one entry a GstMemory seen. A weak reference on
 * the memory drops its entry, and the BO, when the memory goes: an entry
 * never outlives the dma-buf it was made for, whose fd and inode may then
 * be another's. At most MAX_IMPORTS entries hold a BO (an import pins the
 * dma-buf), the most recently used; an older one is imported again when
 * it comes back. The weak references may come from any thread, also after
 * the element stopped: the cache has its own lock and count.
 */
struct imports {
  gint refs;			/* the element's, and one a memory watched */
  GMutex lock;
  GHashTable *mems;		/* GstMemory * -> struct import *, the memories watched */
  GQueue lru;			/* struct import * holding a BO, most recent first */
};

struct import {
  struct imports *cache;
  struct fdif_bo *bo;		/* NULL: not imported (now) */
  gboolean refused;		/* the kernel refused it (e.g. not contiguous): copied */
  GList link;			/* in cache->lru while bo */
};

/* a frame on the device: its buffer is held until its jobs are done */
struct inflight {
  GstBuffer *buf;
  struct fdif_bo *copy_bo;	/* the pooled BO it was fitted into; NULL: imported */
  struct fdif_job *jobs[3];	/* a job a direction at most */
  unsigned int njobs;		/* 0: not detected (min-stddev, or unread) */
  guint directions;		/* FDIF_DIR_* scanned */
  gboolean unread;		/* CORRUPTED or GAP: passed on as it is, no message */
  struct fdif_frame_map map;
  struct settings set;
  GstVideoInfo info;		/* its caps' */
};

struct _GstFdifFaceDetect {
  GstBaseTransform parent;

  /* properties, under the object lock */
  gboolean display;
  gint min_size_width, min_size_height;
  GstFdifFaceDetectUpdates updates;
  gint threshold;
  guint directions;
  gchar *device;
  gchar *profiles[N_PROFILES];	/* face, nose, mouth, eyes: ignored */
  gdouble scale_factor;		/* ignored */
  guint flags;			/* ignored */
  gint min_neighbors;
  gboolean min_neighbors_set;	/* set: the threshold from it (unless threshold is) */
  gint min_stddev;
  guint64 frames_imported, frames_copied;
  GstClockTime latency;		/* the max latency the frames queued add (set_caps) */

  /*
   * The fence waits, set flushing (which wakes a wait at once, from any
   * thread) while either of these is TRUE, both under the object lock:
   * flushing, from FLUSH_START to FLUSH_STOP; stopping, from PAUSED->READY
   * to the next start (or the transition's failure), so that a FLUSH_STOP
   * in between does not let the streaming thread wait again while the
   * pads' deactivation waits for it
   */
  GstPoll *poll;
  gboolean flushing, stopping;

  /*
   * Between the streaming thread and the src pad's task, under qlock:
   * the frames queued, the one the task finishes and pushes, and the
   * first flow that was not OK (a push downstream, a failed frame),
   * which the streaming thread returns upstream. halted: flushing ||
   * stopping, which ends both threads' waits on qcond.
   */
  GMutex qlock;
  GCond qcond;
  GQueue inflight;		/* struct inflight *, oldest first */
  struct inflight *current;	/* the task's */
  GstFlowReturn flow;
  gboolean reporting;		/* the task is posting a frame's error: its flow comes */
  gboolean halted;
  GSList *free_bos;		/* copy BOs no job reads */

  /* between start() and stop() */
  struct fdif_device *dev;
  struct fdif_caps caps;
  GstVideoInfo info;		/* the streaming thread's */
  struct imports *imports;	/* the dma-bufs imported */
  gboolean dropped;		/* QoS dropped a frame: the next one is DISCONT */
  guint8 *grey;			/* an RGB or packed YUV frame's grey, copied */
  gsize grey_size;
  gboolean face_detected;	/* the task's */
  GstPadActivateModeFunction base_src_activate_mode;
};

/*
 * GRAY8, and the camera formats whose first plane is full-size 8-bit luma:
 * that plane is the grey picture the device takes (DRM_FORMAT_R8), so a
 * camera's NV12 dma-buf is imported as it is, its chroma never read. Then
 * facedetect's RGB and its 24- and 32-bit relatives, and the packed YUV
 * of USB cameras: their grey (BT.601 luma, or the Y bytes) is made in the
 * copy, so they are never imported.
 */
#define FORMATS "{ GRAY8, NV12, NV21, I420, YV12, RGB, BGR, RGBx, BGRx, xRGB, YUY2, UYVY }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (FORMATS)));

/* @info's plane 0 is its grey picture, byte for byte (the device can read it) */
static gboolean
luma_plane (const GstVideoInfo * info)
{
  return !GST_VIDEO_INFO_IS_RGB (info) && GST_VIDEO_INFO_COMP_PLANE (info, 0) == 0 &&
      GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) == 1;
}

#define gst_fdif_face_detect_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstFdifFaceDetect, gst_fdif_face_detect,
    GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_fdif_face_detect_debug, "fdiffacedetect", 0,
        "face detection on the FDIF"));
GST_ELEMENT_REGISTER_DEFINE (fdiffacedetect, "fdiffacedetect", GST_RANK_NONE,
    GST_TYPE_FDIF_FACE_DETECT);

static GType
gst_fdif_face_detect_updates_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_FDIF_FACE_DETECT_UPDATES_EVERY_FRAME, "Send update messages on every frame",
        "every_frame"},
    {GST_FDIF_FACE_DETECT_UPDATES_ON_CHANGE,
        "Send messages when a new face is detected or one is not anymore detected",
        "on_change"},
    {GST_FDIF_FACE_DETECT_UPDATES_ON_FACE, "Send messages whenever a face is detected",
        "on_face"},
    {GST_FDIF_FACE_DETECT_UPDATES_NONE, "Send no messages update", "none"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstFdifFaceDetectUpdates", values));
  return type;
}

static GType
gst_fdif_directions_get_type (void)
{
  static GType type;
  static const GFlagsValue values[] = {
    {GST_FDIF_DIRECTION_UP, "Upright faces (-30..30 degrees)", "up"},
    {GST_FDIF_DIRECTION_RIGHT, "Top of the head to the right (60..120 degrees)", "right"},
    {GST_FDIF_DIRECTION_LEFT, "Top of the head to the left (240..300 degrees)", "left"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("GstFdifDirections", values));
  return type;
}

static GType
gst_fdif_face_detect_flags_get_type (void)
{
  static GType type;
  static const GFlagsValue values[] = {
    {GST_FDIF_FACE_DETECT_FLAG_DO_CANNY_PRUNING,
        "Do Canny edge detection to discard some regions (facedetect's; ignored)",
        "do-canny-pruning"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("GstFdifFaceDetectFlags", values));
  return type;
}

/* Properties */

static const char *const profile_names[N_PROFILES] = {
  "profile", "nose-profile", "mouth-profile", "eyes-profile",
};

static void
gst_fdif_face_detect_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DISPLAY:
      self->display = g_value_get_boolean (value);
      break;
    case PROP_MIN_SIZE_WIDTH:
      self->min_size_width = g_value_get_int (value);
      break;
    case PROP_MIN_SIZE_HEIGHT:
      self->min_size_height = g_value_get_int (value);
      break;
    case PROP_UPDATES:
      self->updates = g_value_get_enum (value);
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_int (value);
      break;
    case PROP_DIRECTIONS:
      self->directions = g_value_get_flags (value);
      break;
    case PROP_DEVICE:
      /* used at start: a change takes effect at the next READY->PAUSED */
      g_free (self->device);
      self->device = g_value_dup_string (value);
      break;
    case PROP_FACE_PROFILE:
    case PROP_NOSE_PROFILE:
    case PROP_MOUTH_PROFILE:
    case PROP_EYES_PROFILE:
      g_free (self->profiles[prop_id - PROP_FACE_PROFILE]);
      self->profiles[prop_id - PROP_FACE_PROFILE] = g_value_dup_string (value);
      GST_WARNING_OBJECT (self, "%s is ignored: the FDIF finds faces with its own model, "
          "and no nose, mouth or eyes", pspec->name);
      break;
    case PROP_SCALE_FACTOR:
      self->scale_factor = g_value_get_double (value);
      GST_WARNING_OBJECT (self, "scale-factor is ignored: the FDIF scans its own scales");
      break;
    case PROP_FLAGS:
      self->flags = g_value_get_flags (value);
      GST_WARNING_OBJECT (self, "flags is ignored: the FDIF has no Canny pruning");
      break;
    case PROP_MIN_NEIGHBORS:
      self->min_neighbors = g_value_get_int (value);
      self->min_neighbors_set = TRUE;
      break;
    case PROP_MIN_STDDEV:
      self->min_stddev = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_fdif_face_detect_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DISPLAY:
      g_value_set_boolean (value, self->display);
      break;
    case PROP_MIN_SIZE_WIDTH:
      g_value_set_int (value, self->min_size_width);
      break;
    case PROP_MIN_SIZE_HEIGHT:
      g_value_set_int (value, self->min_size_height);
      break;
    case PROP_UPDATES:
      g_value_set_enum (value, self->updates);
      break;
    case PROP_THRESHOLD:
      g_value_set_int (value, self->threshold);
      break;
    case PROP_DIRECTIONS:
      g_value_set_flags (value, self->directions);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_FRAMES_IMPORTED:
      g_value_set_uint64 (value, self->frames_imported);
      break;
    case PROP_FRAMES_COPIED:
      g_value_set_uint64 (value, self->frames_copied);
      break;
    case PROP_FACE_PROFILE:
    case PROP_NOSE_PROFILE:
    case PROP_MOUTH_PROFILE:
    case PROP_EYES_PROFILE:
      g_value_set_string (value, self->profiles[prop_id - PROP_FACE_PROFILE]);
      break;
    case PROP_SCALE_FACTOR:
      g_value_set_double (value, self->scale_factor);
      break;
    case PROP_FLAGS:
      g_value_set_flags (value, self->flags);
      break;
    case PROP_MIN_NEIGHBORS:
      g_value_set_int (value, self->min_neighbors);
      break;
    case PROP_MIN_STDDEV:
      g_value_set_int (value, self->min_stddev);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/*
 * The poll's flushing state and halted from flushing and stopping; object
 * lock held. Both threads' waits end.
 */
static void
update_poll_locked (GstFdifFaceDetect * self)
{
  if (self->poll)
    gst_poll_set_flushing (self->poll, self->flushing || self->stopping);
  g_mutex_lock (&self->qlock);
  self->halted = self->flushing || self->stopping;
  g_cond_broadcast (&self->qcond);
  g_mutex_unlock (&self->qlock);
}

static void
set_flushing (GstFdifFaceDetect * self, gboolean flushing)
{
  GST_OBJECT_LOCK (self);
  self->flushing = flushing;
  update_poll_locked (self);
  GST_OBJECT_UNLOCK (self);
}

static void
set_stopping (GstFdifFaceDetect * self, gboolean stopping)
{
  GST_OBJECT_LOCK (self);
  self->stopping = stopping;
  update_poll_locked (self);
  GST_OBJECT_UNLOCK (self);
}

/* The device */

static void
import_free (gpointer bo)
{
  fdif_bo_free (bo);		/* NULL (not importable) too */
}

static struct imports *
imports_new (void)
{
  struct imports *c = g_new0 (struct imports, 1);

  c->refs = 1;
  g_mutex_init (&c->lock);
  c->mems = g_hash_table_new (NULL, NULL);
  g_queue_init (&c->lru);
  return c;
}

static void
imports_unref (struct imports *c)
{
  if (!g_atomic_int_dec_and_test (&c->refs))
    return;
  g_hash_table_destroy (c->mems);
  g_mutex_clear (&c->lock);
  g_free (c);
}

/* A memory watched went (any thread): its entry and BO go with it. */
static void
import_memory_gone (gpointer data, GstMiniObject * mem)
{
  struct import *im = data;
  struct imports *c = im->cache;
  struct fdif_bo *bo;

  g_mutex_lock (&c->lock);
  g_hash_table_remove (c->mems, mem);
  bo = im->bo;
  if (bo)
    g_queue_unlink (&c->lru, &im->link);
  g_mutex_unlock (&c->lock);
  fdif_bo_free (bo);
  g_free (im);
  imports_unref (c);
}

/* stop(): every BO freed; the entries go with their memories. */
static void
imports_close (struct imports *c)
{
  GSList *bos = NULL;
  GList *l;

  g_mutex_lock (&c->lock);
  while ((l = g_queue_pop_head_link (&c->lru))) {
    struct import *im = l->data;

    bos = g_slist_prepend (bos, im->bo);
    im->bo = NULL;
  }
  g_mutex_unlock (&c->lock);
  g_slist_free_full (bos, import_free);
  imports_unref (c);
}

static void src_loop (gpointer data);

static gboolean
gst_fdif_face_detect_start (GstBaseTransform * trans)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  gchar *path;
  guint directions;
  gint threshold;
  int ret;

  if (!self->poll) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE,
        ("Could not create a poll set for the FDIF's fences."), (NULL));
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  self->flushing = self->stopping = FALSE;
  update_poll_locked (self);
  path = g_strdup (self->device);
  directions = self->directions;
  threshold = self->threshold;
  self->frames_imported = self->frames_copied = 0;
  self->latency = 0;
  GST_OBJECT_UNLOCK (self);

  ret = path ? fdif_open_path (path, &self->dev) : fdif_open (&self->dev);
  if (ret) {
    self->dev = NULL;
    if (path)
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No FDIF face detector at %s: %s.", path, fdif_strerror (ret)),
          ("fdif_open_path(%s): %d", path, ret));
    else
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No FDIF face detector found (/dev/accel/accel*, or $FDIF_ACCEL_DIR): %s.",
              fdif_strerror (ret)), ("fdif_open(): %d", ret));
    g_free (path);
    return FALSE;
  }
  self->caps.size = sizeof (self->caps);
  ret = fdif_query_caps (self->dev, &self->caps);
  if (ret || !self->caps.frame_width) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("The FDIF at %s takes no 8-bit grey frames.", path ? path : "(first)"),
        ("fdif_query_caps(): %d, frame %ux%u", ret, self->caps.frame_width,
            self->caps.frame_height));
    goto fail;
  }
  if (!(directions & self->caps.directions)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("The FDIF scans none of the directions asked for."),
        ("directions 0x%x, the device's 0x%x", directions, self->caps.directions));
    goto fail;
  }
  if (threshold >= 0 && (guint) threshold > self->caps.max_threshold) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("threshold %d is above the device's largest, %u.", threshold,
            self->caps.max_threshold), (NULL));
    goto fail;
  }
  GST_INFO_OBJECT (self, "FDIF generation %u rev 0x%x: frame %ux%u stride %u, "
      "directions 0x%x, threshold 0..%u (default %u)", self->caps.generation,
      self->caps.revision, self->caps.frame_width, self->caps.frame_height,
      self->caps.frame_stride, self->caps.directions, self->caps.max_threshold,
      self->caps.default_threshold);
  g_mutex_lock (&self->qlock);
  self->flow = GST_FLOW_OK;
  self->reporting = FALSE;
  g_mutex_unlock (&self->qlock);
  self->imports = imports_new ();
  self->face_detected = FALSE;
  self->dropped = FALSE;
  g_free (path);
  /* the src pad is active (src pads are activated first): its task starts */
  gst_pad_start_task (GST_BASE_TRANSFORM_SRC_PAD (trans), src_loop, self, NULL);
  return TRUE;

fail:
  fdif_close (self->dev);
  self->dev = NULL;
  g_free (path);
  return FALSE;
}

/*
 * Frees @fl and its jobs once they are done (they may read its buffer and
 * BO), or @deadline (g_get_monotonic_time()) has passed; 0: at once. A job
 * not done by then is dropped all the same (the kernel holds its own
 * references to what it reads and writes, and its timeout ends a hung
 * job), but the pooled BO it may still read is freed, not given to the
 * next frame. Only a wait that gave up is a warning: at once (a flush, a
 * frame failed or cut short), jobs not done are expected.
 */
static void
inflight_free (GstFdifFaceDetect * self, struct inflight *fl, gint64 deadline)
{
  gboolean done = TRUE;
  unsigned int i;

  for (i = 0; i < fl->njobs; i++) {
    gint64 left = MAX (deadline - g_get_monotonic_time (), 0);

    if (fdif_job_wait (fl->jobs[i], left * 1000))
      done = FALSE;
    fdif_job_free (fl->jobs[i]);
  }
  if (!done)
    GST_CAT_LEVEL_LOG (GST_CAT_DEFAULT, deadline ? GST_LEVEL_WARNING : GST_LEVEL_DEBUG,
        self, "frame %" GST_TIME_FORMAT ": dropped with jobs not done",
        GST_TIME_ARGS (GST_BUFFER_PTS (fl->buf)));
  if (fl->copy_bo && done) {
    g_mutex_lock (&self->qlock);
    self->free_bos = g_slist_prepend (self->free_bos, fl->copy_bo);
    g_mutex_unlock (&self->qlock);
  } else {
    fdif_bo_free (fl->copy_bo);	/* NULL too */
  }
  gst_buffer_unref (fl->buf);
  g_free (fl);
}

/*
 * Every frame queued freed, their jobs waited for until @deadline, all
 * together; the task is paused or stopped (it holds none)
 */
static void
discard_inflight (GstFdifFaceDetect * self, gint64 deadline)
{
  struct inflight *fl;

  for (;;) {
    g_mutex_lock (&self->qlock);
    fl = g_queue_pop_head (&self->inflight);
    g_cond_broadcast (&self->qcond);
    g_mutex_unlock (&self->qlock);
    if (!fl)
      break;
    inflight_free (self, fl, deadline);
  }
}

static gboolean
gst_fdif_face_detect_stop (GstBaseTransform * trans)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);

  if (!self->dev)
    return TRUE;
  /*
   * One deadline for all the jobs in flight, not one each: a hung device
   * holds the teardown STOP_TIMEOUT_MS at most (the task, stopped with the
   * src pad, no longer waits)
   */
  discard_inflight (self, g_get_monotonic_time () + STOP_TIMEOUT_MS * G_GINT64_CONSTANT (1000));
  g_slist_free_full (self->free_bos, import_free);
  self->free_bos = NULL;
  g_clear_pointer (&self->imports, imports_close);
  g_clear_pointer (&self->grey, g_free);
  self->grey_size = 0;
  fdif_close (self->dev);
  self->dev = NULL;
  return TRUE;
}

/*
 * Caps: the same on both pads (the templates'), whatever the device:
 * start() refuses a device without 8-bit grey, and the library fits any
 * size into its frame. So no transform_caps of the element's own: the
 * base class's identity, which reads no device state (caps queries come
 * from any thread, while start() and stop() change that state).
 */

static gboolean
gst_fdif_face_detect_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  GstClockTime latency = 0, old;

  /* each frame queued carries its own copy: the task never reads this one */
  if (!gst_video_info_from_caps (&self->info, incaps))
    return FALSE;
  /*
   * The latency: a frame goes out as soon as its jobs are done, so none is
   * added to the minimum (the device's time is processing time, as a
   * synchronous filter's, which the sink's processing-deadline covers);
   * the element can hold DEPTH frames, their duration added to the
   * maximum (with no frame rate, none known: none added)
   */
  if (GST_VIDEO_INFO_FPS_N (&self->info) > 0)
    latency = gst_util_uint64_scale_int (DEPTH * GST_SECOND,
        GST_VIDEO_INFO_FPS_D (&self->info), GST_VIDEO_INFO_FPS_N (&self->info));
  GST_OBJECT_LOCK (self);
  old = self->latency;
  self->latency = latency;
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "%" GST_TIME_FORMAT " of maximum latency",
      GST_TIME_ARGS (latency));
  if (latency != old)		/* the pipeline asks again */
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  GST_DEBUG_OBJECT (self, "%dx%d, %s", GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info),
      self->info.width == (gint) self->caps.frame_width &&
      self->info.height == (gint) self->caps.frame_height ?
      "the device's frame size (dma-bufs can be imported)" : "fitted into the device's frame");
  return TRUE;
}

/* Frames in */

/*
 * An import failure that says nothing of the dma-buf (the process or the
 * kernel short of descriptors or memory for a moment): the frame is
 * copied and the dma-buf's next frame tries again. Any other failure
 * (e.g. not contiguous) is the dma-buf's own: its frames are copied.
 */
static gboolean
transient_error (int err)
{
  return err == -EMFILE || err == -ENFILE || err == -ENOMEM || err == -EAGAIN ||
      err == -EINTR;
}

/*
 * The BO of @buf's dma-buf and the frame's offset in it, if the device can
 * read the frame where it is: plane 0 is the grey picture, the device's
 * frame size and stride, all its stride x height bytes in one dma-buf
 * memory (the only one, or one of several: NV12M's planes each in a
 * dma-buf of their own), an aligned offset. NULL: copy it.
 */
static struct fdif_bo *
import_frame (GstFdifFaceDetect * self, GstBuffer * buf, uint32_t * offset)
{
  const struct fdif_caps *c = &self->caps;
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buf);
  guint width = GST_VIDEO_INFO_WIDTH (&self->info);
  guint height = GST_VIDEO_INFO_HEIGHT (&self->info);
  gint stride = GST_VIDEO_INFO_PLANE_STRIDE (&self->info, 0);
  gsize off = GST_VIDEO_INFO_PLANE_OFFSET (&self->info, 0);
  struct imports *cache = self->imports;
  struct fdif_bo *bo, *evicted = NULL;
  struct import *im;
  GstMemory *mem;
  guint idx, len;
  gsize skip;
  int fd, ret;

  if (!luma_plane (&self->info))
    return NULL;
  if (vmeta) {
    width = vmeta->width;
    height = vmeta->height;
    stride = vmeta->stride[0];
    off = vmeta->offset[0];
  }
  /* the memory plane 0 begins in */
  if (stride <= 0 || !gst_buffer_find_memory (buf, off, (gsize) stride * height, &idx,
          &len, &skip))
    return NULL;		/* a buffer too short: the copy says so */
  mem = gst_buffer_peek_memory (buf, idx);
  /* all of its stride x height bytes in that dma-buf memory: the device reads one dma-buf */
  if (!gst_is_dmabuf_memory (mem) || skip + (gsize) stride * height > mem->size) {
    GST_LOG_OBJECT (self, "plane 0 (%d x %u bytes at %" G_GSIZE_FORMAT
        ") is not in one dma-buf memory", stride, height, off);
    return NULL;
  }
  off = mem->offset + skip;
  if (width != c->frame_width || height != c->frame_height ||
      stride != (gint) c->frame_stride || off % (c->frame_align ? c->frame_align : 1) ||
      off > G_MAXUINT32) {
    GST_LOG_OBJECT (self, "dma-buf frame %ux%u stride %d offset %" G_GSIZE_FORMAT
        " is not the device's %ux%u stride %u", width, height, stride, off,
        c->frame_width, c->frame_height, c->frame_stride);
    return NULL;
  }
  fd = gst_dmabuf_memory_get_fd (mem);
  if (fd < 0)
    return NULL;

  /* @buf holds @mem: its entry cannot go under us, only others can */
  g_mutex_lock (&cache->lock);
  im = g_hash_table_lookup (cache->mems, mem);
  if (!im) {
    im = g_new0 (struct import, 1);
    im->cache = cache;
    im->link.data = im;
    g_atomic_int_inc (&cache->refs);
    g_hash_table_insert (cache->mems, mem, im);
    gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (mem), import_memory_gone, im);
  }
  if (im->bo) {
    g_queue_unlink (&cache->lru, &im->link);
    g_queue_push_head_link (&cache->lru, &im->link);
  } else if (!im->refused) {
    ret = fdif_bo_import (self->dev, fd, &im->bo);
    if (ret) {
      /* e.g. not contiguous: remembered, this memory's frames are copied */
      im->bo = NULL;
      im->refused = !transient_error (ret);
      GST_INFO_OBJECT (self, "dma-buf fd %d cannot be imported (%s): copying %s",
          fd, fdif_strerror (ret), im->refused ? "its frames" : "this frame");
    } else {
      g_queue_push_head_link (&cache->lru, &im->link);
      if (cache->lru.length > MAX_IMPORTS) {
        struct import *old = g_queue_pop_tail_link (&cache->lru)->data;

        /* its frames in flight, if any, are the kernel's to keep */
        evicted = old->bo;
        old->bo = NULL;
      }
    }
  }
  bo = im->bo;
  g_mutex_unlock (&cache->lock);
  if (evicted) {
    GST_LOG_OBJECT (self, "%u dma-bufs imported: the least recently used one freed",
        MAX_IMPORTS);
    fdif_bo_free (evicted);
  }
  *offset = (uint32_t) off;
  return bo;
}

/*
 * The grey of an RGB or packed YUV frame, rows packed, in self->grey:
 * BT.601 luma (as libfdif-drm's fdif_image_fit_frame() takes it of an RGB
 * picture, and OpenCV's RGB2GRAY, which facedetect uses), or the Y bytes.
 */
static guint8 *
grey_of (GstFdifFaceDetect * self, const GstVideoFrame * vf)
{
  guint width = GST_VIDEO_FRAME_WIDTH (vf), height = GST_VIDEO_FRAME_HEIGHT (vf);
  gsize size = (gsize) width * height;
  guint x, y;

  if (self->grey_size < size) {
    g_free (self->grey);
    self->grey = g_malloc (size);
    self->grey_size = size;
  }
  for (y = 0; y < height; y++) {
    guint8 *d = self->grey + (gsize) y * width;

    if (GST_VIDEO_INFO_IS_RGB (&vf->info)) {
      const guint8 *r = GST_VIDEO_FRAME_COMP_DATA (vf, 0) +
          (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (vf, 0);
      const guint8 *g = GST_VIDEO_FRAME_COMP_DATA (vf, 1) +
          (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (vf, 1);
      const guint8 *b = GST_VIDEO_FRAME_COMP_DATA (vf, 2) +
          (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (vf, 2);
      gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (vf, 0);

      for (x = 0; x < width; x++, r += ps, g += ps, b += ps)
        d[x] = (guint8) ((299 * *r + 587 * *g + 114 * *b + 500) / 1000);
    } else {
      const guint8 *l = GST_VIDEO_FRAME_COMP_DATA (vf, 0) +
          (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (vf, 0);
      gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (vf, 0);

      for (x = 0; x < width; x++, l += ps)
        d[x] = *l;
    }
  }
  return self->grey;
}

/*
 * @buf's video meta puts a plane over more than one memory (a buffer of
 * several dma-bufs, as NV12M's, cut elsewhere than between planes):
 * GstVideoMeta maps a plane from the memory it begins in only, so such a
 * frame is read whole (its memories merged), and not drawn on.
 */
static gboolean
plane_split (GstBuffer * buf)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buf);
  const GstVideoFormatInfo *finfo;
  guint i, idx, len;
  gsize skip;

  if (!vmeta || gst_buffer_n_memory (buf) < 2)
    return FALSE;
  finfo = gst_video_format_get_info (vmeta->format);
  for (i = 0; i < vmeta->n_planes; i++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    guint rows;

    gst_video_format_info_component (finfo, i, comp);
    rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, comp[0], vmeta->height);
    if (vmeta->stride[i] <= 0 || !gst_buffer_find_memory (buf, vmeta->offset[i],
            (gsize) vmeta->stride[i] * rows, &idx, &len, &skip) || len != 1)
      return TRUE;
  }
  return FALSE;
}

/* @buf's frame mapped for reading, as its video meta (if any) lays it out */
static gboolean
map_frame (GstFdifFaceDetect * self, GstBuffer * buf, GstVideoFrame * vf)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buf);
  GstVideoInfo info = self->info;
  GstBuffer *whole;
  gboolean ok;
  guint i;

  if (!plane_split (buf))
    return gst_video_frame_map (vf, &self->info, buf, GST_MAP_READ);
  GST_LOG_OBJECT (self, "a plane over several memories: the frame read whole");
  for (i = 0; i < vmeta->n_planes; i++) {
    info.offset[i] = vmeta->offset[i];
    info.stride[i] = vmeta->stride[i];
  }
  /* the memories, not the meta: mapped as one */
  whole = gst_buffer_copy_region (buf, GST_BUFFER_COPY_MEMORY, 0, -1);
  ok = gst_video_frame_map (vf, &info, whole, GST_MAP_READ);
  gst_buffer_unref (whole);	/* the frame holds it while mapped */
  return ok;
}

/*
 * The device went away (unbound, its module removed): one error, whichever
 * call saw it (a submission, a job's result, a buffer of its own)
 */
static void
device_gone (GstFdifFaceDetect * self, int err, const char *what)
{
  GST_ELEMENT_ERROR (self, RESOURCE, READ,
      ("The FDIF went away: %s.", fdif_strerror (err)), ("%s: %d", what, err));
}

/* A pooled frame BO with @buf fitted into it. */
static struct fdif_bo *
copy_frame (GstFdifFaceDetect * self, GstBuffer * buf, struct fdif_frame_map *map)
{
  const struct fdif_caps *c = &self->caps;
  gboolean rgb = GST_VIDEO_INFO_FORMAT (&self->info) == GST_VIDEO_FORMAT_RGB;
  struct fdif_bo *bo = NULL;
  struct fdif_image img;
  GstVideoFrame vf;
  void *pixels;
  int ret;

  g_mutex_lock (&self->qlock);
  if (self->free_bos) {
    bo = self->free_bos->data;
    self->free_bos = g_slist_delete_link (self->free_bos, self->free_bos);
  }
  g_mutex_unlock (&self->qlock);
  if (!bo) {
    ret = fdif_bo_create (self->dev, (size_t) c->frame_stride * c->frame_height, &bo);
    if (ret) {
      if (ret == -ENODEV)
        device_gone (self, ret, "fdif_bo_create()");
      else
        GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
            ("Could not allocate a frame on the FDIF: %s.", fdif_strerror (ret)), (NULL));
      return NULL;
    }
  }
  ret = fdif_bo_map (bo, &pixels);
  if (ret) {
    if (ret == -ENODEV)
      device_gone (self, ret, "fdif_bo_map()");
    else
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not map a frame of the FDIF: %s.", fdif_strerror (ret)), (NULL));
    goto fail;
  }
  if (!map_frame (self, buf, &vf)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not read a video frame: %" G_GSIZE_FORMAT " bytes for %dx%d %s (%"
            G_GSIZE_FORMAT " bytes).", gst_buffer_get_size (buf),
            GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info),
            GST_VIDEO_INFO_NAME (&self->info), GST_VIDEO_INFO_SIZE (&self->info)), (NULL));
    goto fail;
  }
  img.width = GST_VIDEO_FRAME_WIDTH (&vf);
  img.height = GST_VIDEO_FRAME_HEIGHT (&vf);
  /* the grey plane as it is, or R,G,B bytes as they are: the library takes their luma */
  if (luma_plane (&self->info) || rgb) {
    img.channels = rgb ? 3 : 1;
    img.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0);
    img.pixels = GST_VIDEO_FRAME_PLANE_DATA (&vf, 0);
  } else {
    img.channels = 1;
    img.stride = img.width;
    img.pixels = grey_of (self, &vf);
  }
  ret = fdif_image_fit_frame (&img, pixels, c->frame_width, c->frame_height,
      c->frame_stride, map);
  gst_video_frame_unmap (&vf);
  if (ret) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not fit a %ux%u frame into the FDIF's %ux%u: %s.", img.width,
            img.height, c->frame_width, c->frame_height, fdif_strerror (ret)), (NULL));
    goto fail;
  }
  return bo;

fail:
  g_mutex_lock (&self->qlock);
  self->free_bos = g_slist_prepend (self->free_bos, bo);
  g_mutex_unlock (&self->qlock);
  return NULL;
}

/*
 * The device's minimum face size (a width, in frame pixels) for faces of
 * @min frame pixels: the largest not above it.
 */
static unsigned int
device_min_size (GstFdifFaceDetect * self, double min)
{
  struct fdif_size size;
  unsigned int i, best = 0;

  /* smallest first */
  for (i = 0; fdif_query_min_size (self->dev, i, &size) == 0; i++)
    if (size.width <= min)
      best = size.width;
  return best;			/* 0: the device's smallest */
}

/* The properties a frame is detected with, read at once under the object lock */
static void
read_settings (GstFdifFaceDetect * self, struct settings *set)
{
  GST_OBJECT_LOCK (self);
  set->display = self->display;
  set->min_w = self->min_size_width;
  set->min_h = self->min_size_height;
  set->updates = self->updates;
  set->threshold = self->threshold;
  set->min_neighbors = self->min_neighbors;
  set->min_neighbors_set = self->min_neighbors_set;
  set->directions = self->directions;
  set->min_stddev = self->min_stddev;
  GST_OBJECT_UNLOCK (self);
}

/*
 * The device's likelihood threshold (the FDIF's LHIT) for @set: threshold,
 * if set (the device's largest at most); else facedetect's min-neighbors,
 * if set: the smallest threshold whose neighbours in the FDIF's model,
 * (3 threshold + 2) / 5 (docs/detector.md), are at least min-neighbors,
 * the device's largest at most; else the device's recommended one.
 */
static unsigned int
device_threshold (GstFdifFaceDetect * self, const struct settings *set)
{
  unsigned int t;

  if (set->threshold >= 0) {
    if ((guint) set->threshold <= self->caps.max_threshold)
      return (unsigned int) set->threshold;
    GST_WARNING_OBJECT (self, "threshold %d is above the device's largest, %u: %u taken",
        set->threshold, self->caps.max_threshold, self->caps.max_threshold);
    return self->caps.max_threshold;
  }
  if (!set->min_neighbors_set)
    return FDIF_THRESHOLD_DEFAULT;
  for (t = 0; t < self->caps.max_threshold; t++)
    if ((gint) ((3 * t + 2) / 5) >= set->min_neighbors)
      break;
  return t;
}

/*
 * facedetect's min-stddev: whether the frame's grey has a standard
 * deviation below @min (facedetect then does not detect). Read on the CPU,
 * also an imported frame's, only when min-stddev is set.
 */
static gboolean
below_stddev (GstFdifFaceDetect * self, GstBuffer * buf, gint min)
{
  GstVideoFrame vf;
  const guint8 *row;
  guint64 sum = 0, sumsq = 0;
  guint x, y, width, height;
  gint stride;
  gdouble n, mean, var;

  if (min <= 0 || !map_frame (self, buf, &vf))
    return FALSE;		/* a frame that cannot be read fails in the copy */
  width = GST_VIDEO_FRAME_WIDTH (&vf);
  height = GST_VIDEO_FRAME_HEIGHT (&vf);
  if (luma_plane (&self->info)) {
    row = GST_VIDEO_FRAME_PLANE_DATA (&vf, 0);
    stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0);
  } else {
    row = grey_of (self, &vf);
    stride = (gint) width;
  }
  for (y = 0; y < height; y++, row += stride)
    for (x = 0; x < width; x++) {
      sum += row[x];
      sumsq += (guint) row[x] * row[x];
    }
  gst_video_frame_unmap (&vf);
  n = (gdouble) width * height;
  mean = sum / n;
  var = sumsq / n - mean * mean;
  GST_LOG_OBJECT (self, "grey variance %.2f, min-stddev %d (squared %d)", var, min,
      min * min);
  return var < (gdouble) min * min;
}

/* @fl to the task, the last frame queued */
static void
queue_frame (GstFdifFaceDetect * self, struct inflight *fl)
{
  g_mutex_lock (&self->qlock);
  g_queue_push_tail (&self->inflight, fl);
  g_cond_broadcast (&self->qcond);
  g_mutex_unlock (&self->qlock);
}

/* Queues @buf's jobs (none if it is not to be detected); takes @buf. */
static GstFlowReturn
submit_frame (GstFdifFaceDetect * self, GstBuffer * buf)
{
  struct fdif_request req;
  struct inflight *fl = g_new0 (struct inflight, 1);
  struct fdif_bo *bo;
  uint32_t offset = 0;
  const char *path;
  int ret;

  read_settings (self, &fl->set);
  fl->directions = fl->set.directions & self->caps.directions;
  fl->buf = buf;
  fl->info = self->info;
  fl->map = (struct fdif_frame_map) { 1.0, 0.0, 0.0 };
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED) ||
      GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP)) {
    /* what a camera marks broken, or no picture: passed on, in its place */
    GST_DEBUG_OBJECT (self, "frame %" GST_TIME_FORMAT ": %s, not detected",
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
        GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP) ? "a gap" : "corrupted");
    fl->unread = TRUE;
    queue_frame (self, fl);
    return GST_FLOW_OK;
  }
  if (below_stddev (self, buf, fl->set.min_stddev)) {
    /* facedetect's: no detection, reported as a frame without a face */
    GST_DEBUG_OBJECT (self, "frame %" GST_TIME_FORMAT ": below min-stddev %d, not detected",
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)), fl->set.min_stddev);
    queue_frame (self, fl);
    return GST_FLOW_OK;
  }
  bo = import_frame (self, buf, &offset);
  if (bo) {
    path = "import";
  } else {
    bo = fl->copy_bo = copy_frame (self, buf, &fl->map);
    offset = 0;
    path = "copy";
  }
  if (!bo) {
    inflight_free (self, fl, 0);
    return GST_FLOW_ERROR;
  }

  if (!fl->directions) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("The FDIF scans none of the directions asked for."),
        ("directions 0x%x, the device's 0x%x", fl->set.directions, self->caps.directions));
    inflight_free (self, fl, 0);
    return GST_FLOW_ERROR;
  }
  /* the device's grey frame, in the BO at @offset */
  fdif_request_init (&req, sizeof (req));
  req.picture.fourcc = DRM_FORMAT_R8;
  req.picture.width = self->caps.frame_width;
  req.picture.height = self->caps.frame_height;
  req.picture.planes[0].bo = bo;
  req.picture.planes[0].offset = offset;
  req.picture.planes[0].stride = self->caps.frame_stride;
  req.directions = fl->directions;
  req.min_size = device_min_size (self,
      MAX (fl->set.min_w, fl->set.min_h) / fl->map.scale);
  req.threshold = device_threshold (self, &fl->set);
  ret = fdif_submit_requests (self->dev, &req, 1, fl->jobs, G_N_ELEMENTS (fl->jobs),
      &fl->njobs);
  if (ret) {
    if (ret == -ENODEV)
      device_gone (self, ret, "fdif_submit_requests()");
    else
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("The FDIF refused a frame: %s.", fdif_strerror (ret)),
          ("fdif_submit_requests() (%s path, directions 0x%x): %d", path,
              fl->directions, ret));
    fl->njobs = 0;		/* none was queued */
    inflight_free (self, fl, 0);
    return GST_FLOW_ERROR;
  }
  GST_OBJECT_LOCK (self);
  if (fl->copy_bo)
    self->frames_copied++;
  else
    self->frames_imported++;
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "frame %" GST_TIME_FORMAT ": %s, %u job(s)",
      GST_TIME_ARGS (GST_BUFFER_PTS (buf)), path, fl->njobs);
  queue_frame (self, fl);
  return GST_FLOW_OK;
}

/* Frames out */

/*
 * Polls @fl's fences (sync_files), FENCE_TIMEOUT_MS in all. 0, -ETIME, or
 * -ECANCELED: flushing (FLUSH_START) or stopping, the wait cut short.
 */
static int
wait_fences (GstFdifFaceDetect * self, struct inflight *fl)
{
  gint64 deadline = g_get_monotonic_time () + FENCE_TIMEOUT_MS * G_GINT64_CONSTANT (1000);
  unsigned int i;
  int ret = 0;

  for (i = 0; i < fl->njobs && !ret; i++) {
    GstPollFD pfd = GST_POLL_FD_INIT;
    gboolean cancelled;
    gint n, err;

    GST_OBJECT_LOCK (self);
    cancelled = self->flushing || self->stopping;
    GST_OBJECT_UNLOCK (self);
    if (cancelled)
      return -ECANCELED;	/* as the poll would say */
    pfd.fd = fdif_job_fence_fd (fl->jobs[i]);
    if (pfd.fd < 0)
      continue;			/* no fence: fdif_job_result() tells */
    gst_poll_add_fd (self->poll, &pfd);
    gst_poll_fd_ctl_read (self->poll, &pfd, TRUE);
    do {
      gint64 left = MAX (deadline - g_get_monotonic_time (), 0);

      n = gst_poll_wait (self->poll, left * GST_USECOND);
      /* now: gst_poll_remove_fd() (its debug log) may change errno */
      err = n < 0 ? errno : 0;
    } while (err == EINTR || err == EAGAIN);
    gst_poll_remove_fd (self->poll, &pfd);
    if (err == EBUSY)
      ret = -ECANCELED;
    else if (n == 0)
      ret = -ETIME;
    /* another poll error: fdif_job_result() tells whether the job is done */
  }
  return ret;
}

static void
job_error (GstFdifFaceDetect * self, int err)
{
  if (err == -ENODEV)
    device_gone (self, err, "the job's result");
  else if (err == -ETIME)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("The FDIF did not finish a frame within %d ms.", FENCE_TIMEOUT_MS), (NULL));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("The FDIF failed a frame: %s.", fdif_strerror (err)), ("job result %d", err));
}

/* @ret, not OK, for the streaming thread to return upstream (the first one stays) */
static void
set_flow (GstFdifFaceDetect * self, GstFlowReturn ret)
{
  g_mutex_lock (&self->qlock);
  if (self->flow == GST_FLOW_OK)
    self->flow = ret;
  self->reporting = FALSE;
  g_cond_broadcast (&self->qcond);
  g_mutex_unlock (&self->qlock);
}

/* A box in the frame's pixels, clamped to it */
struct box {
  guint x, y, w, h;
};

static struct box
face_box (const struct fdif_face *f, guint width, guint height)
{
  double x0 = f->x - f->width / 2, y0 = f->y - f->height / 2;
  double x1 = x0 + f->width, y1 = y0 + f->height;
  struct box b;

  x0 = CLAMP (x0, 0, width);
  y0 = CLAMP (y0, 0, height);
  x1 = CLAMP (x1, 0, width);
  y1 = CLAMP (y1, 0, height);
  b.x = (guint) (x0 + 0.5);
  b.y = (guint) (y0 + 0.5);
  b.w = (guint) (x1 + 0.5) - b.x;
  b.h = (guint) (y1 + 0.5) - b.y;
  return b;
}

/* Pixel @x,@y of @vf white: R, G and B at 255, or luma (Y, grey) at 255 */
static inline void
white (GstVideoFrame * vf, guint ncomp, guint x, guint y)
{
  guint c;

  for (c = 0; c < ncomp; c++)
    GST_VIDEO_FRAME_COMP_DATA (vf, c)[(gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (vf, c) +
        (gsize) x * GST_VIDEO_FRAME_COMP_PSTRIDE (vf, c)] = 255;
}

/*
 * facedetect's display: an outline around each face, 2 pixels, white on
 * RGB and grey; on YUV the luma only (white on grey, bright on colour)
 */
static void
draw_boxes (GstVideoInfo * info, GstBuffer * buf, const struct box *boxes, guint n)
{
  GstVideoFrame vf;
  guint i, x, y, t, ncomp;

  if (!n || plane_split (buf) || !gst_video_frame_map (&vf, info, buf, GST_MAP_WRITE))
    return;
  ncomp = GST_VIDEO_INFO_IS_RGB (&vf.info) ? 3 : 1;
  for (i = 0; i < n; i++) {
    const struct box *b = &boxes[i];

    if (!b->w || !b->h)
      continue;
    for (t = 0; t < 2 && t < b->h; t++)
      for (x = b->x; x < b->x + b->w; x++) {
        white (&vf, ncomp, x, b->y + t);
        white (&vf, ncomp, x, b->y + b->h - 1 - t);
      }
    for (y = b->y; y < b->y + b->h; y++)
      for (t = 0; t < 2 && t < b->w; t++) {
        white (&vf, ncomp, b->x + t, y);
        white (&vf, ncomp, b->x + b->w - 1 - t, y);
      }
  }
  gst_video_frame_unmap (&vf);
}

/* The faces of frame @fl (the task's) on its buffer and the bus; frees @fl, the buffer out. */
static GstFlowReturn
finish_frame (GstFdifFaceDetect * self, struct inflight *fl, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  guint max = self->caps.max_objects, width, height, n = 0, nout = 0, i;
  struct fdif_face *faces;
  struct fdif_frame_map map;
  struct settings set;
  GstVideoInfo info;
  struct box *boxes;
  gboolean post;
  GstBuffer *buf;
  int ret;

  if (fl->unread) {
    /* no picture to read: on as it came, no message, the face state as it was */
    *outbuf = gst_buffer_ref (fl->buf);
    inflight_free (self, fl, 0);
    return GST_FLOW_OK;
  }
  faces = g_new0 (struct fdif_face, (gsize) fl->njobs * max + 1);
  ret = wait_fences (self, fl);
  if (ret == -ECANCELED) {
    /* a flush: the frame is dropped, its jobs not waited for */
    GST_DEBUG_OBJECT (self, "flushing: frame %" GST_TIME_FORMAT " dropped",
        GST_TIME_ARGS (GST_BUFFER_PTS (fl->buf)));
    g_free (faces);
    inflight_free (self, fl, 0);
    return GST_FLOW_FLUSHING;
  }
  for (i = 0; i < fl->njobs && !ret; i++) {
    int got = fdif_job_result (fl->jobs[i], faces + n, max);

    /* the fence signalled but the job not done: it never will be */
    if (got == -EBUSY)
      got = fdif_job_wait (fl->jobs[i], 0) == -EBUSY ? -ETIME : -EBUSY;
    if (got < 0)
      ret = got;
    else
      n += MIN ((guint) got, max);	/* all it found: at most max written */
  }
  if (ret) {
    /*
     * The message first: the application sees the device's error, not the
     * one upstream posts when its next push gets the flow. Meanwhile a
     * push waits (reporting): one that comes once the message is out
     * gets the error, never an OK for a frame after a failed one.
     */
    g_mutex_lock (&self->qlock);
    self->reporting = TRUE;
    g_mutex_unlock (&self->qlock);
    job_error (self, ret);
    set_flow (self, GST_FLOW_ERROR);
    g_free (faces);
    inflight_free (self, fl, 0);	/* waited for already, or failed */
    return GST_FLOW_ERROR;
  }
  /* several directions: the duplicates of their scans merged */
  if (fl->directions & (fl->directions - 1))
    n = fdif_merge_faces (faces, n);

  buf = gst_buffer_ref (fl->buf);
  map = fl->map;
  set = fl->set;
  info = fl->info;
  inflight_free (self, fl, 0);	/* its jobs are done, its BO can take the next frame */
  width = GST_VIDEO_INFO_WIDTH (&info);
  height = GST_VIDEO_INFO_HEIGHT (&info);
  boxes = g_new0 (struct box, n + 1);
  for (i = 0; i < n; i++) {
    fdif_map_face (&map, &faces[i]);
    boxes[nout] = face_box (&faces[i], width, height);
    /* facedetect's minimum size is a lower bound on the box */
    if (boxes[nout].w < (guint) set.min_w || boxes[nout].h < (guint) set.min_h ||
        !boxes[nout].w ||
        !boxes[nout].h)
      continue;
    faces[nout++] = faces[i];
  }
  n = nout;

  switch (set.updates) {
    case GST_FDIF_FACE_DETECT_UPDATES_ON_CHANGE:
      post = (n > 0) != self->face_detected;
      break;
    case GST_FDIF_FACE_DETECT_UPDATES_ON_FACE:
      post = n > 0;
      break;
    case GST_FDIF_FACE_DETECT_UPDATES_NONE:
      post = FALSE;
      break;
    default:
      post = TRUE;
      break;
  }
  self->face_detected = n > 0;

  if (n)
    buf = gst_buffer_make_writable (buf);	/* metas (and boxes) on it */
  if (set.display)
    draw_boxes (&info, buf, boxes, n);
  for (i = 0; i < n; i++) {
    GstVideoRegionOfInterestMeta *meta =
        gst_buffer_add_video_region_of_interest_meta (buf, "face",
        boxes[i].x, boxes[i].y, boxes[i].w, boxes[i].h);

    /* the direction as a number (0 up, 1 right, 2 left): the FDIF_DIR_* bit's */
    gst_video_region_of_interest_meta_add_param (meta,
        gst_structure_new ("fdif", "confidence", G_TYPE_UINT, faces[i].confidence,
            "angle", G_TYPE_UINT, faces[i].angle, "direction", G_TYPE_UINT,
            (guint) MAX (g_bit_nth_lsf (faces[i].direction, -1), 0), NULL));
    GST_LOG_OBJECT (self, "%2u/%2u: x,y = %4u,%4u: w.h = %4u,%4u, confidence %u", i,
        n, boxes[i].x, boxes[i].y, boxes[i].w, boxes[i].h, faces[i].confidence);
  }

  if (post) {
    GstClockTime ts = GST_BUFFER_PTS (buf);
    GValue list = G_VALUE_INIT;
    GstStructure *s;

    /* facedetect's message: its structure name and fields */
    s = gst_structure_new ("facedetect",
        "timestamp", G_TYPE_UINT64, ts,
        "stream-time", G_TYPE_UINT64,
        gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, ts),
        "running-time", G_TYPE_UINT64,
        gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME, ts),
        "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buf), NULL);
    g_value_init (&list, GST_TYPE_LIST);
    for (i = 0; i < n; i++) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, GST_TYPE_STRUCTURE);
      g_value_take_boxed (&v, gst_structure_new ("face",
              "x", G_TYPE_UINT, boxes[i].x, "y", G_TYPE_UINT, boxes[i].y,
              "width", G_TYPE_UINT, boxes[i].w, "height", G_TYPE_UINT, boxes[i].h,
              "confidence", G_TYPE_UINT, faces[i].confidence,
              "angle", G_TYPE_UINT, faces[i].angle, NULL));
      gst_value_list_append_and_take_value (&list, &v);
    }
    gst_structure_take_value (s, "faces", &list);
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), s));
  }
  g_free (boxes);
  g_free (faces);
  *outbuf = buf;
  return GST_FLOW_OK;
}

/*
 * The src pad's task: the frames in order, each pushed as soon as its jobs
 * are done. A flow that is not OK (downstream's, or a failed frame) is
 * kept for the streaming thread to return upstream, and the task pauses;
 * so it does while halted (flushing, stopping).
 */
static void
src_loop (gpointer data)
{
  GstFdifFaceDetect *self = data;
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  struct inflight *fl;
  GstFlowReturn ret;
  GstBuffer *out = NULL;

  g_mutex_lock (&self->qlock);
  while (!self->halted && self->flow == GST_FLOW_OK && g_queue_is_empty (&self->inflight))
    g_cond_wait (&self->qcond, &self->qlock);
  if (self->halted || self->flow != GST_FLOW_OK) {
    g_mutex_unlock (&self->qlock);
    GST_DEBUG_OBJECT (self, "pausing the task");
    gst_pad_pause_task (srcpad);
    return;
  }
  fl = self->current = g_queue_pop_head (&self->inflight);
  g_mutex_unlock (&self->qlock);

  ret = finish_frame (self, fl, &out);
  if (ret == GST_FLOW_OK)
    ret = gst_pad_push (srcpad, out);

  g_mutex_lock (&self->qlock);
  self->current = NULL;
  if (ret != GST_FLOW_OK && self->flow == GST_FLOW_OK)
    self->flow = ret;
  g_cond_broadcast (&self->qcond);
  g_mutex_unlock (&self->qlock);
  if (ret != GST_FLOW_OK)
    GST_DEBUG_OBJECT (self, "frame out: %s", gst_flow_get_name (ret));
}

/*
 * Waits until every frame queued is out (pushed by the task), or the flow
 * is not OK, or the element is halted: the flow then.
 */
static GstFlowReturn
drain (GstFdifFaceDetect * self)
{
  GstFlowReturn ret;

  g_mutex_lock (&self->qlock);
  while (!self->halted && self->flow == GST_FLOW_OK &&
      (self->current || !g_queue_is_empty (&self->inflight)))
    g_cond_wait (&self->qcond, &self->qlock);
  ret = self->halted ? GST_FLOW_FLUSHING : self->flow;
  g_mutex_unlock (&self->qlock);
  return ret;
}

/*
 * The base class's QoS (on, as facedetect's) drops a frame downstream
 * said is late before it reaches the device; the frame after it is then
 * DISCONT.
 */
static GstFlowReturn
gst_fdif_face_detect_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  GstFlowReturn ret;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans, is_discont,
      input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED) {
    GST_DEBUG_OBJECT (self, "a late frame dropped (QoS)");
    self->dropped = TRUE;
  } else if (ret == GST_FLOW_OK && trans->queued_buf && self->dropped) {
    trans->queued_buf = gst_buffer_make_writable (trans->queued_buf);
    GST_BUFFER_FLAG_SET (trans->queued_buf, GST_BUFFER_FLAG_DISCONT);
    self->dropped = FALSE;
  }
  return ret;
}

/*
 * The base class's chain gives each input buffer to submit_input_buffer
 * (the default keeps it in queued_buf, or drops it for QoS) and then asks
 * for an output: none here. The frame is submitted and queued for the
 * task, which pushes it, so the base class pushes nothing; the buffer
 * keeps its own flags (DISCONT included). Before that, the streaming
 * thread waits while DEPTH frames are queued (the bound), and returns
 * upstream a flow the task saw that was not OK (downstream's).
 */
static GstFlowReturn
gst_fdif_face_detect_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  GstBuffer *buf = trans->queued_buf;
  GstFlowReturn ret;

  *outbuf = NULL;
  if (!buf)
    return GST_FLOW_OK;
  trans->queued_buf = NULL;
  g_mutex_lock (&self->qlock);
  while (!self->halted && (self->reporting || (self->flow == GST_FLOW_OK &&
              g_queue_get_length (&self->inflight) + (self->current ? 1 : 0) >= DEPTH)))
    g_cond_wait (&self->qcond, &self->qlock);
  ret = self->halted ? GST_FLOW_FLUSHING : self->flow;
  g_mutex_unlock (&self->qlock);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "frame %" GST_TIME_FORMAT " refused: %s",
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)), gst_flow_get_name (ret));
    gst_buffer_unref (buf);
    return ret;
  }
  return submit_frame (self, buf);
}

static gboolean
gst_fdif_face_detect_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (trans);
  GstEventType type = GST_EVENT_TYPE (event);
  gboolean ret, stopping;

  if (type == GST_EVENT_FLUSH_START) {
    /*
     * From any thread, maybe while the task waits on a fence or the
     * streaming thread for room: both waits end at once (the frame waited
     * for dropped, the chain returns FLUSHING); once the event has made
     * the src pad flushing (a push in progress ends), the task is paused
     */
    set_flushing (self, TRUE);
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
    gst_pad_pause_task (srcpad);
    return ret;
  }
  if (type == GST_EVENT_FLUSH_STOP) {
    /* serialized: the streaming thread's, the task paused */
    if (self->dev) {
      /* the frames queued are stale: dropped, their jobs not waited for */
      discard_inflight (self, 0);
      g_mutex_lock (&self->qlock);
      self->flow = GST_FLOW_OK;
      g_mutex_unlock (&self->qlock);
      self->face_detected = FALSE;
      self->dropped = FALSE;
    }
    /* the waits stay cut short while stopping */
    set_flushing (self, FALSE);
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
    GST_OBJECT_LOCK (self);
    stopping = self->stopping;
    GST_OBJECT_UNLOCK (self);
    if (self->dev && !stopping)
      gst_pad_start_task (srcpad, src_loop, self, NULL);
    return ret;
  }
  if (GST_EVENT_IS_SERIALIZED (event) && self->dev) {
    /* EOS, a new segment or caps...: the frames before it go first */
    GstFlowReturn flow = drain (self);

    if (flow != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "draining before %s: %s", GST_EVENT_TYPE_NAME (event),
          gst_flow_get_name (flow));
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/*
 * DRAIN (upstream wants its buffers back, e.g. to renegotiate its pool):
 * the frames queued are pushed before the query goes on downstream.
 * LATENCY: nothing added to the minimum, DEPTH frames to the maximum
 * (set_caps).
 */
static gboolean
gst_fdif_face_detect_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  gboolean ret;

  /* serialized: the streaming thread's */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && self->dev) {
    GstFlowReturn flow = drain (self);

    if (flow != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "draining for a DRAIN query: %s", gst_flow_get_name (flow));
  }
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
  if (ret && direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min, max, held;
    gboolean live;

    /* any thread: set_caps's value */
    GST_OBJECT_LOCK (self);
    held = self->latency;
    GST_OBJECT_UNLOCK (self);
    gst_query_parse_latency (query, &live, &min, &max);
    GST_DEBUG_OBJECT (self, "adding %" GST_TIME_FORMAT " to the maximum latency",
        GST_TIME_ARGS (held));
    gst_query_set_latency (query, live, min,
        GST_CLOCK_TIME_IS_VALID (max) ? max + held : max);
  }
  return ret;
}

/*
 * In place, the buffers upstream allocates are the ones going downstream:
 * the allocation query is downstream's (its pools, its metas), which the
 * base class asks. GstVideoMeta is not added to downstream's answer:
 * downstream would get the strides upstream chose (the element itself
 * reads both its paths through the video meta). What the element adds are
 * the frames it holds once the chain returned, DEPTH (on the device, or
 * being pushed): to each pool's minimum, which an upstream with a pool of
 * its own adds to what it queues (v4l2src), so that the frames held do
 * not starve it. A pool whose maximum leaves no room for them (max != 0
 * and min + held > max; max 0 is no maximum) cannot give more: it is
 * dropped for a pool of upstream's own with that many more, as videorate
 * does for the one buffer it holds. With no answer downstream, only that
 * minimum.
 */
static gboolean
gst_fdif_face_detect_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (trans);
  guint held = DEPTH, down_min = 0, i = 0, n, size, min, max;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean have_info, answered;

  gst_query_parse_allocation (query, &caps, NULL);
  have_info = caps && gst_video_info_from_caps (&info, caps);
  answered = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
      decide_query, query);
  if (!answered)
    GST_DEBUG_OBJECT (self, "downstream did not answer the allocation query");
  n = gst_query_get_n_allocation_pools (query);
  while (i < n) {
    gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
    if (max && min + held > max) {
      gst_query_remove_nth_allocation_pool (query, i);
      n--;
      down_min = MAX (down_min, min);
    } else {
      gst_query_set_nth_allocation_pool (query, i, pool, size, min + held, max);
      i++;
    }
    if (pool)
      gst_object_unref (pool);
  }
  if (!n && have_info)
    gst_query_add_allocation_pool (query, NULL, GST_VIDEO_INFO_SIZE (&info),
        down_min + held, 0);
  GST_DEBUG_OBJECT (self, "allocation: %" GST_PTR_FORMAT, query);
  return TRUE;
}

static GstStateChangeReturn
gst_fdif_face_detect_change_state (GstElement * element, GstStateChange transition)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (element);
  GstStateChangeReturn ret;

  /*
   * The pads' deactivation waits for the task, which may wait on a hung
   * job's fence, and for the streaming thread, which may wait for room:
   * those waits end now, as on FLUSH_START, and no other begins, whatever
   * FLUSH_STOP comes before the sink pad goes (start() clears it); the
   * src pad's deactivation stops the task
   */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_stopping (self, TRUE);
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  /* still PAUSED, still streaming: the waits as before, the task again */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY && ret == GST_STATE_CHANGE_FAILURE) {
    set_stopping (self, FALSE);
    if (self->dev)
      gst_pad_start_task (GST_BASE_TRANSFORM_SRC_PAD (self), src_loop, self, NULL);
  }
  return ret;
}

/*
 * The src pad's deactivation (PAUSED->READY, after stopping was set: the
 * task's waits are over) stops its task before the base class's own.
 */
static gboolean
gst_fdif_face_detect_src_activate_mode (GstPad * pad, GstObject * parent, GstPadMode mode,
    gboolean active)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (parent);

  if (!active) {
    g_mutex_lock (&self->qlock);
    self->halted = TRUE;	/* a pad deactivated without a state change too */
    g_cond_broadcast (&self->qcond);
    g_mutex_unlock (&self->qlock);
    gst_pad_stop_task (pad);
  }
  return self->base_src_activate_mode (pad, parent, mode, active);
}

/* never called (generate_output does the work); the base class wants one */
static GstFlowReturn
gst_fdif_face_detect_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  return GST_FLOW_OK;
}

static void
gst_fdif_face_detect_finalize (GObject * object)
{
  GstFdifFaceDetect *self = GST_FDIF_FACE_DETECT (object);

  g_free (self->device);
  for (guint i = 0; i < N_PROFILES; i++)
    g_free (self->profiles[i]);
  if (self->poll)
    gst_poll_free (self->poll);
  g_mutex_clear (&self->qlock);
  g_cond_clear (&self->qcond);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_fdif_face_detect_class_init (GstFdifFaceDetectClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  /* taken at the next frame: changed while playing */
  const GParamFlags rwp = rw | GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  static const char *const profile_blurbs[N_PROFILES] = {
    "Location of Haar cascade file to use for face detection (facedetect's; "
        "ignored: the FDIF has its own model)",
    "Location of Haar cascade file to use for nose detection (facedetect's; ignored)",
    "Location of Haar cascade file to use for mouth detection (facedetect's; ignored)",
    "Location of Haar cascade file to use for eye-pair detection (facedetect's; ignored)",
  };
  static const char *const profile_nicks[N_PROFILES] = {
    "Face profile", "Nose profile", "Mouth profile", "Eyes profile",
  };
  guint i;

  gobject_class->set_property = gst_fdif_face_detect_set_property;
  gobject_class->get_property = gst_fdif_face_detect_get_property;
  gobject_class->finalize = gst_fdif_face_detect_finalize;
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_change_state);

  g_object_class_install_property (gobject_class, PROP_DISPLAY,
      g_param_spec_boolean ("display", "Display",
          "Sets whether the detected faces should be highlighted in the output",
          DEFAULT_DISPLAY, rwp));
  g_object_class_install_property (gobject_class, PROP_MIN_SIZE_WIDTH,
      g_param_spec_int ("min-size-width", "Minimum face width",
          "Minimum area width to be recognized as a face (input pixels; "
          "0: the device's smallest)", 0, G_MAXINT, DEFAULT_MIN_SIZE, rwp));
  g_object_class_install_property (gobject_class, PROP_MIN_SIZE_HEIGHT,
      g_param_spec_int ("min-size-height", "Minimum face height",
          "Minimum area height to be recognized as a face (input pixels; "
          "0: the device's smallest)", 0, G_MAXINT, DEFAULT_MIN_SIZE, rwp));
  g_object_class_install_property (gobject_class, PROP_UPDATES,
      g_param_spec_enum ("updates", "Updates",
          "When send update bus messages, if at all",
          gst_fdif_face_detect_updates_get_type (), DEFAULT_UPDATES, rwp));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_int ("threshold", "Threshold",
          "Likelihood threshold (the FDIF's LHIT), larger is stricter; "
          "-1: from min-neighbors if set, else the device's recommended one", -1,
          MAX_THRESHOLD, DEFAULT_THRESHOLD, rwp));
  g_object_class_install_property (gobject_class, PROP_DIRECTIONS,
      g_param_spec_flags ("directions", "Directions",
          "Which way the faces to find look (one request a frame, in as few device jobs "
          "as the device allows: one a direction on the OMAP4)",
          gst_fdif_directions_get_type (), DEFAULT_DIRECTIONS, rwp));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "The FDIF's accel node (NULL: the first FDIF in /dev/accel, or $FDIF_ACCEL_DIR)",
          NULL, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IMPORTED,
      g_param_spec_uint64 ("frames-imported", "Frames imported",
          "Frames the device read from their own dma-buf, without a copy (since start)",
          0, G_MAXUINT64, 0, ro));
  g_object_class_install_property (gobject_class, PROP_FRAMES_COPIED,
      g_param_spec_uint64 ("frames-copied", "Frames copied",
          "Frames copied (and scaled) into a device buffer (since start)",
          0, G_MAXUINT64, 0, ro));
  for (i = 0; i < N_PROFILES; i++)
    g_object_class_install_property (gobject_class, PROP_FACE_PROFILE + i,
        g_param_spec_string (profile_names[i], profile_nicks[i], profile_blurbs[i], NULL,
            rw));
  g_object_class_install_property (gobject_class, PROP_SCALE_FACTOR,
      g_param_spec_double ("scale-factor", "Scale factor",
          "Factor by which the frame is scaled after each object scan (facedetect's; "
          "ignored: the FDIF scans its own scales)", 1.1, 10.0, DEFAULT_SCALE_FACTOR, rw));
  /**
   * GstFdifFaceDetect:min-neighbors:
   *
   * facedetect's strictness, mapped to the device's likelihood threshold
   * when #GstFdifFaceDetect:threshold is -1 and this is set: the smallest
   * threshold whose neighbours in the FDIF's model, (3 threshold + 2) / 5,
   * are at least this many, the device's largest at most. 0 is threshold
   * 0, 1 is 1, 2 is 3, 3 (the default) is 5 (the device's own), 4 is 6,
   * 5 is 8, 6 and more are 9.
   */
  g_object_class_install_property (gobject_class, PROP_MIN_NEIGHBORS,
      g_param_spec_int ("min-neighbors", "Minimum neighbors",
          "Minimum number (minus 1) of neighbor rectangles that makes up an object: "
          "the smallest threshold whose neighbors, (3 threshold + 2) / 5, are at least "
          "this many (3: the device's 5), unless threshold is set", 0, G_MAXINT,
          DEFAULT_MIN_NEIGHBORS, rwp));
  g_object_class_install_property (gobject_class, PROP_FLAGS,
      g_param_spec_flags ("flags", "Flags",
          "Flags to cvHaarDetectObjects (facedetect's; ignored)",
          gst_fdif_face_detect_flags_get_type (), DEFAULT_FLAGS, rw));
  /**
   * GstFdifFaceDetect:min-stddev:
   *
   * A frame whose grey has a standard deviation below this is not sent to
   * the device and is reported as a frame without a face, as facedetect
   * does. The frame is read on the CPU for it (an imported one too), so
   * it costs a pass over the frame when set.
   */
  g_object_class_install_property (gobject_class, PROP_MIN_STDDEV,
      g_param_spec_int ("min-stddev", "Minimum image standard deviation",
          "Minimum image average standard deviation: on images with standard "
          "deviation lesser than this value facedetection will not be performed "
          "(their grey read on the CPU; 0: every frame detected)", 0, 255,
          DEFAULT_MIN_STDDEV, rwp));

  gst_element_class_set_static_metadata (element_class,
      "FDIF face detection", "Filter/Analyzer/Video/Hardware",
      "Finds faces on the FDIF accelerator and reports them like facedetect: "
      "bus messages and region-of-interest metas",
      "the fdif project");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_fdif_face_detect_propose_allocation);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_generate_output);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_fdif_face_detect_submit_input_buffer);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_fdif_face_detect_transform_ip);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (gst_fdif_face_detect_updates_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_fdif_directions_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_fdif_face_detect_flags_get_type (), 0);
}

static void
gst_fdif_face_detect_init (GstFdifFaceDetect * self)
{
  GstPad *srcpad;

  self->display = DEFAULT_DISPLAY;
  self->min_size_width = self->min_size_height = DEFAULT_MIN_SIZE;
  self->updates = DEFAULT_UPDATES;
  self->threshold = DEFAULT_THRESHOLD;
  self->directions = DEFAULT_DIRECTIONS;
  self->scale_factor = DEFAULT_SCALE_FACTOR;
  self->flags = DEFAULT_FLAGS;
  self->min_neighbors = DEFAULT_MIN_NEIGHBORS;
  self->min_stddev = DEFAULT_MIN_STDDEV;
  self->poll = gst_poll_new (TRUE);	/* NULL: no fd left, start() fails */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  g_mutex_init (&self->qlock);
  g_cond_init (&self->qcond);
  g_queue_init (&self->inflight);
  self->flow = GST_FLOW_OK;
  srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  self->base_src_activate_mode = GST_PAD_ACTIVATEMODEFUNC (srcpad);
  gst_pad_set_activatemode_function (srcpad,
      GST_DEBUG_FUNCPTR (gst_fdif_face_detect_src_activate_mode));
  /* facedetect's (a GstVideoFilter): frames downstream reports late are dropped */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  return GST_ELEMENT_REGISTER (fdiffacedetect, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, fdif,
    "Face detection on the FDIF accelerator (DRM accel)", plugin_init,
    VERSION, "MIT/X11", "fdif", "(the fdif source tree)")
