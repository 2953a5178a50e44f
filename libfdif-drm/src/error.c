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
		return "unsupported image format (PGM, PPM, PNG and JPEG are)";
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
