// SPDX-License-Identifier: MIT
/* faces PHOTO: print the faces in a photo. Build: cc faces.c $(pkg-config --cflags --libs libfdif-image) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fdif/fdif.h>
#include <fdif/image.h>

int main(int argc, char **argv)
{
	struct fdif_device *dev;
	struct fdif_image img;
	struct fdif_params p;
	struct fdif_caps caps;
	struct fdif_face *f;
	unsigned int n, i;
	int err;

	if (argc != 2)
		return 2;
	if ((err = fdif_open(&dev)) || (err = fdif_image_load(argv[1], &img)))
		return fprintf(stderr, "faces: %s\n", fdif_strerror(err)), 1;
	fdif_query_caps(dev, &caps);				/* one job's faces at most: upright only */
	f = calloc(caps.max_objects, sizeof(*f));
	fdif_params_init(&p);
	if (!f || (err = fdif_detect_image(dev, &img, &p, f, caps.max_objects, &n)))
		return fprintf(stderr, "faces: %s\n", fdif_strerror(f ? err : -ENOMEM)), 1;
	for (i = 0; i < n; i++)
		printf("face at %.0f,%.0f, %.0fx%.0f\n", f[i].x, f[i].y, f[i].width, f[i].height);
	return 0;
}
