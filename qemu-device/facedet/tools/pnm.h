/* SPDX-License-Identifier: MIT */
/* Minimal binary PGM (P5) / PPM (P6) reading and PGM writing, 8-bit. */
#ifndef FACEDET_PNM_H
#define FACEDET_PNM_H

#include <stdint.h>

/**
 * pnm_read_gray() - read a P5 or P6 file as 8-bit gray (P6: BT.601 luma)
 * @path: file name
 * @w, @h: picture size
 * Return: malloc()ed pixels, stride == *w, or NULL with errno set
 * (EINVAL for a file that is not an 8-bit binary PGM/PPM).
 */
uint8_t *pnm_read_gray(const char *path, unsigned int *w, unsigned int *h);

/** pnm_write_gray() - write a P5 file; 0 or -errno */
int pnm_write_gray(const char *path, const uint8_t *img, unsigned int w,
		   unsigned int h, unsigned int stride);

#endif
