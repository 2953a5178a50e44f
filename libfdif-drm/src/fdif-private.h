/* SPDX-License-Identifier: MIT */
#ifndef FDIF_PRIVATE_H
#define FDIF_PRIVATE_H

#define FDIF_MAX_SIDE	16384	/* largest picture side we decode */
#define FDIF_PAD_GRAY	128	/* frame area outside the fitted picture */

#endif
