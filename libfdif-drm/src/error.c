// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>

#include "fdif/fdif.h"

const char *fdif_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ENODEV:
		return "no FDIF device (is the fdif driver loaded? was the device removed?)";
	case -ENOTSUP:
		/*
		 * the decoders' (libfdif-image: not PGM, PPM, PNG or JPEG) and
		 * the grey-frame calls' (fdif_submit(), fdif_submit_batch(),
		 * fdif_detect_image() on a device without one)
		 */
		return "not supported: a picture in a format other than PGM, PPM, PNG or JPEG, "
		       "or a device that takes no 8-bit grey picture";
	case -EBADMSG:
		return "corrupt or truncated image";
	case -EFBIG:
		return "image too large (over the size or memory limit)";
	case -ETIMEDOUT:
		return "the device hung and was reset";
	case -EIO:
		return "the device reported an error";
	case -ETIME:
		return "timed out waiting for the device";
	case -ECANCELED:
		return "the job was cancelled";
	case -EINVAL:
		return "invalid argument";
	case -EPROTO:
		return "the FDIF device answers in a way this library does not know (another fdif uAPI?)";
	case -EBUSY:
		return "the job is not done yet";
	default:
		return err < 0 ? strerror(-err) : "unknown error";
	}
}
