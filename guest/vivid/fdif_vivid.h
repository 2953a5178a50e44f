/* SPDX-License-Identifier: MIT */
/*
 * The guest's camera: vivid (a V4L2 test driver) with its HDMI output
 * looped to its HDMI input. A picture written to the output comes back as
 * the capture side's frames, from the capture driver's own buffers
 * (dma-contig: a camera-like dma-buf exporter), so a test knows which
 * faces each camera frame holds. Every call returns 0 (or an fd) or a
 * negative errno.
 */
#ifndef FDIF_VIVID_H
#define FDIF_VIVID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The module options: one instance with a capture and an output node,
 * one HDMI input and one HDMI output, dma-contig buffers (allocators=1),
 * and only the scaler on both sides (no crop or compose rectangles), so a
 * frame of any size fills the 1280x720 link whole and comes back whole.
 */
#define FDIF_VIVID_OPTIONS							\
	"n_devs=1 node_types=0x101 allocators=1 num_inputs=1 input_types=0x3 "	\
	"num_outputs=1 output_types=0x1 ccs_cap_mode=4 ccs_out_mode=4"

/* one buffer on show, one spare (vivid's output takes no fewer) */
#define FDIF_VIVID_BUFS		2

/*
 * struct fdif_vivid_feed - the output side, showing one picture at a time
 * @fd: the output node
 * @width: frame width
 * @height: frame height
 * @fourcc: V4L2_PIX_FMT_GREY, _NV12, _NV21, _YUV420, _YVU420 or _YUYV
 *	   (grey: chroma 128)
 * @stride: bytes per row of the output's buffers (the luma plane's)
 * @map: the output buffers, mapped
 * @len: bytes of each
 * @spare: the buffer not on show, dequeued: the next picture goes there
 * @has_bufs: the output's buffers are allocated (until the stop)
 * @streaming: the output streams (until the stop)
 * @broken: no buffer came back after a show: none is known to be spare,
 *	   so no more shows
 *
 * vivid's output only lets go of its last queued buffer for a newer one,
 * and the looped capture side copies whichever it holds. So the picture
 * stays on show, with no thread refilling buffers: a busy machine cannot
 * starve the camera of its picture. It also leaves vivid's "Inject
 * V4L2_BUF_FLAG_ERROR" to the capture side alone: the button's flag is
 * one for the whole instance, and an output buffer going back would
 * take it (fdif_vivid_damage_next()).
 */
struct fdif_vivid_feed {
	int fd;
	unsigned int width, height, stride;
	uint32_t fourcc;
	void *map[FDIF_VIVID_BUFS];
	size_t len;
	unsigned int spare;
	bool has_bufs, streaming, broken;
};

/* fdif_vivid_load() - load vivid with FDIF_VIVID_OPTIONS (reloads it if loaded otherwise) */
int fdif_vivid_load(void);
/* fdif_vivid_node() - open vivid's node with @caps (V4L2_CAP_VIDEO_CAPTURE or _OUTPUT) */
int fdif_vivid_node(uint32_t caps);
/*
 * fdif_vivid_loop() - connect the capture node @cap's HDMI input to the
 * output, without text on the frames, both sides @width x @height GREY
 */
int fdif_vivid_loop(int cap, int out, unsigned int width, unsigned int height);
/* fdif_vivid_loop_fmt() - the same in @fourcc (one of struct fdif_vivid_feed's) */
int fdif_vivid_loop_fmt(int cap, int out, unsigned int width, unsigned int height,
			uint32_t fourcc);
/*
 * fdif_vivid_feed_start() - show @picture (@width x @height grey) on the
 * output node @out, in the output's format (@fourcc's)
 */
int fdif_vivid_feed_start(struct fdif_vivid_feed *f, int out, unsigned int width,
			  unsigned int height, const uint8_t *picture);
/*
 * fdif_vivid_show() - show @picture instead, returning once the output
 * took it (within a frame; -ETIMEDOUT after 5 s). Capture frames returned
 * soon after may still hold the picture before: readers compare frames
 * with the picture. -EINVAL if the output does not stream; once no
 * buffer came back (-ETIMEDOUT, a failed VIDIOC_DQBUF), every later call
 * fails with -EIO.
 */
int fdif_vivid_show(struct fdif_vivid_feed *f, const uint8_t *picture);
void fdif_vivid_feed_stop(struct fdif_vivid_feed *f);
/*
 * fdif_vivid_damage_ctrl() - the id of vivid's "Inject
 * V4L2_BUF_FLAG_ERROR" button on either node @fd, into @id: looked up
 * once, as a press should not scan all of the controls
 */
int fdif_vivid_damage_ctrl(int fd, uint32_t *id);
/*
 * fdif_vivid_damage_next() - the next frame the capture side returns is
 * marked damaged (V4L2_BUF_FLAG_ERROR; the button @id pressed through
 * either node @fd), unless an output buffer goes back first
 * (fdif_vivid_show())
 */
int fdif_vivid_damage_next(int fd, uint32_t id);

#endif
