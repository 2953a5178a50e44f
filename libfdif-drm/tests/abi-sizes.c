// SPDX-License-Identifier: MIT
/*
 * The sizes and alignments of the public structures a program allocates
 * and a library fills or reads, for the ABI check (check-abi.sh compares
 * them with libfdif-drm.abi and libfdif-image.abi): a structure that
 * grows or moves changes what a program built against the old header
 * passes, so it takes a new SONAME (docs/library.md, "ABI").
 * Usage: abi-sizes fdif|image (the header: include/fdif/NAME.h)
 */
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "fdif/fdif.h"
#include "fdif/image.h"

#define SHOW(s) printf("struct %s %zu %zu\n", #s, sizeof(struct s), alignof(struct s))

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (!strcmp(argv[1], "fdif")) {
		SHOW(fdif_caps);
		SHOW(fdif_params);
		SHOW(fdif_face);
		SHOW(fdif_image);
		SHOW(fdif_frame_map);
		SHOW(fdif_format);
		SHOW(fdif_size);
		SHOW(fdif_plane);
		SHOW(fdif_picture);
		SHOW(fdif_request);
		return 0;
	}
	if (!strcmp(argv[1], "image")) {
		SHOW(fdif_image_info);
		SHOW(fdif_image_limits);
		return 0;
	}
	return 2;
}
