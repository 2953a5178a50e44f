/* SPDX-License-Identifier: MIT */
#ifndef FDIF_PRIVATE_H
#define FDIF_PRIVATE_H

#define FDIF_MAX_SIDE	16384	/* largest picture side we decode */
/*
 * The most memory libjpeg may take for one picture beyond its output rows:
 * a baseline JPEG needs a few MiB at any size, a progressive one all its
 * coefficients (2 bytes a sample: 4:2:0 colour 3 bytes a pixel), so this
 * is a progressive picture of about 170 Mpixel 4:2:0, 85 Mpixel 4:4:4.
 */
#define FDIF_JPEG_MAX_MEMORY	(512L << 20)
#define FDIF_PAD_GRAY	128	/* frame area outside the fitted picture */

#endif
