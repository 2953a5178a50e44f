// SPDX-License-Identifier: MIT
/*
 * The sizes and alignments of the public structures a program allocates
 * and the library fills or reads (include/fdif/fdif.h), for the ABI check
 * (check-abi.sh compares them with libfdif-drm.abi): a structure that
 * grows or moves changes what a program built against the old header
 * passes, so it takes a new SONAME (docs/library.md, "ABI").
 */
#include <stdalign.h>
#include <stdio.h>

#include "fdif/fdif.h"

#define SHOW(s) printf("struct %s %zu %zu\n", #s, sizeof(struct s), alignof(struct s))

int main(void)
{
	SHOW(fdif_caps);
	SHOW(fdif_params);
	SHOW(fdif_face);
	SHOW(fdif_image);
	SHOW(fdif_frame_map);
	return 0;
}
