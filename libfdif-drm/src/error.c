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
		 * fdif_detect_start()'s on a device without a grey frame
		 */
		return "not supported: a picture in a format other than PGM, PPM, PNG or JPEG, "
		       "or a device that takes no 8-bit grey picture";
	case -EXDEV:
		return "a buffer object of another FDIF device";
	case -EBADMSG:
		return "corrupt or truncated image";
	case -EFBIG:
		return "image too large (over the size or memory limit)";
	case -ETIMEDOUT:
		return "the device hung and was reset";
	case -EIO:
		return "the device reported an error";
	case -ECANCELED:
		return "the job was cancelled";
	case -EINVAL:
		return "invalid argument";
	case -EPROTO:
		return "the FDIF device answers in a way this library does not know (another fdif uAPI?)";
	case -EBUSY:
		return "not done yet (the wait timed out)";
	default:
		return err < 0 ? strerror(-err) : "unknown error";
	}
}
