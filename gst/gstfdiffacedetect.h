/* SPDX-License-Identifier: MIT */
/*
 * fdiffacedetect: faces in GRAY8 video on the FDIF, through libfdif-drm,
 * with gst-plugins-bad's facedetect bus message and ROI metas
 * (docs/gstreamer.md).
 */
#ifndef GST_FDIF_FACE_DETECT_H
#define GST_FDIF_FACE_DETECT_H

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <fdif/fdif.h>

G_BEGIN_DECLS

#define GST_TYPE_FDIF_FACE_DETECT (gst_fdif_face_detect_get_type ())
G_DECLARE_FINAL_TYPE (GstFdifFaceDetect, gst_fdif_face_detect, GST, FDIF_FACE_DETECT,
    GstBaseTransform)

/* facedetect's "updates", under a type name of its own (both may be loaded) */
typedef enum {
  GST_FDIF_FACE_DETECT_UPDATES_EVERY_FRAME,
  GST_FDIF_FACE_DETECT_UPDATES_ON_CHANGE,
  GST_FDIF_FACE_DETECT_UPDATES_ON_FACE,
  GST_FDIF_FACE_DETECT_UPDATES_NONE,
} GstFdifFaceDetectUpdates;

/* the directions to scan, libfdif-drm's FDIF_DIR_* bits (the OMAP4 scans one per job) */
typedef enum {
  GST_FDIF_DIRECTION_UP = FDIF_DIR_UP,
  GST_FDIF_DIRECTION_RIGHT = FDIF_DIR_RIGHT,
  GST_FDIF_DIRECTION_LEFT = FDIF_DIR_LEFT,
} GstFdifDirections;

/* facedetect's "flags" (OpenCV's cascade flags), accepted and ignored */
typedef enum {
  GST_FDIF_FACE_DETECT_FLAG_DO_CANNY_PRUNING = 1 << 0,
} GstFdifFaceDetectFlags;

GST_ELEMENT_REGISTER_DECLARE (fdiffacedetect);

G_END_DECLS

#endif
