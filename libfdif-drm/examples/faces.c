// SPDX-License-Identifier: MIT
/* faces PHOTO: print the faces in a photo. Build: cc faces.c $(pkg-config --cflags --libs libfdif-image) */
#include <stdio.h>
#include <fdif/fdif.h>
#include <fdif/image.h>

int main(int argc, char **argv)
{
	struct fdif_device *dev;
	struct fdif_image img;
	struct fdif_params p;
	struct fdif_face f[16];
	int err, n, i;

	if (argc != 2)
		return 2;
	if ((err = fdif_open(&dev)) || (err = fdif_image_load(argv[1], &img)))
		return fprintf(stderr, "faces: %s\n", fdif_strerror(err)), 1;
	fdif_params_init(&p, sizeof(p));			/* upright faces */
	n = fdif_detect_image(dev, &img, &p, f, 16);		/* all found; at most 16 written */
	if (n < 0)
		return fprintf(stderr, "faces: %s\n", fdif_strerror(n)), 1;
	for (i = 0; i < n && i < 16; i++)
		printf("face at %.0f,%.0f, %.0fx%.0f\n", f[i].x, f[i].y, f[i].width, f[i].height);
	if (n > 16)
		printf("(and %d more)\n", n - 16);
	return 0;
}
