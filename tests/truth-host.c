// SPDX-License-Identifier: MIT
/*
 * truth-host - the host detector on whole photos, for the truth check.
 *
 *   truth-host OUTDIR PHOTO...
 *
 * Does for each photo what fdif_detect_image() does on the device with
 * the default parameters (fit into the 320x240 frame, one upright scan,
 * faces mapped back to the photo), with the detector library in place of
 * the device, and writes OUTDIR/NAME.json in fdif-detect's --json format.
 * tests/truth.py then compares the faces with the marked boxes. The
 * difference between this and the device path is the whole stack: the
 * same photos go through scripts/demo.sh in the demo stage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facedet.h"
#include "fdif/fdif.h"
#include "fdif/image.h"

#define FRAME_W 320
#define FRAME_H 240

static int write_json(const char *outdir, const char *photo,
		      const struct fdif_image *img, const struct fdif_face *f,
		      unsigned int n)
{
	const char *base = strrchr(photo, '/');
	char path[4096], name[1024];
	unsigned int i;
	FILE *out;

	snprintf(name, sizeof(name), "%s", base ? base + 1 : photo);
	if (strrchr(name, '.'))
		*strrchr(name, '.') = 0;
	snprintf(path, sizeof(path), "%s/%s.json", outdir, name);
	out = fopen(path, "w");
	if (!out)
		return -errno;
	fprintf(out, "[{\"image\": \"%s\", \"width\": %u, \"height\": %u, \"faces\": [",
		name, img->width, img->height);
	for (i = 0; i < n; i++)
		fprintf(out, "%s{\"x\": %.1f, \"y\": %.1f, \"size\": %.1f, "
			"\"confidence\": %u, \"angle\": %u}", i ? ", " : "",
			f[i].x, f[i].y, f[i].width, f[i].confidence, f[i].angle);
	fprintf(out, "]}]\n");
	return fclose(out) ? -errno : 0;
}

static int detect_photo(struct facedet_ctx *ctx, const char *outdir,
			const char *photo)
{
	struct facedet_face found[FACEDET_MAX_FACES];
	struct fdif_face faces[FACEDET_MAX_FACES];
	struct fdif_image img = { 0 };
	static uint8_t frame[FRAME_W * FRAME_H];
	struct fdif_frame_map map;
	struct facedet_params p;
	int ret, n, i;

	ret = fdif_image_load(photo, &img);
	if (!ret)
		ret = fdif_image_fit_frame(&img, frame, FRAME_W, FRAME_H, FRAME_W, &map);
	if (ret)
		goto out;
	facedet_params_default(&p);
	n = facedet_detect(ctx, frame, FRAME_W, FRAME_H, FRAME_W, &p, found);
	if (n < 0) {
		ret = n;
		goto out;
	}
	for (i = 0; i < n; i++) {
		faces[i] = (struct fdif_face){
			.x = found[i].cx, .y = found[i].cy,
			.width = found[i].size, .height = found[i].size,
			.angle = found[i].angle,
			/* as the driver normalises it: 0 (least) .. 1000 (most) */
			.confidence = (FACEDET_MAX_CONFIDENCE - found[i].confidence) *
				      1000 / FACEDET_MAX_CONFIDENCE,
		};
		fdif_map_face(&map, &faces[i]);
	}
	ret = write_json(outdir, photo, &img, faces, (unsigned int)n);
out:
	if (ret)
		fprintf(stderr, "truth-host: %s: %s\n", photo, strerror(-ret));
	fdif_image_free(&img);
	return ret;
}

int main(int argc, char **argv)
{
	const char *model_path = getenv("FACEDET_MODEL");
	struct facedet_model *model;
	struct facedet_ctx *ctx;
	char err[256];
	int i, status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: truth-host OUTDIR PHOTO...\n");
		return 2;
	}
	if (facedet_model_load(model_path ? model_path : FACEDET_DEFAULT_MODEL,
			       &model, err, sizeof(err))) {
		fprintf(stderr, "truth-host: cannot load the model: %s\n", err);
		return 1;
	}
	ctx = facedet_ctx_new(model, FRAME_W, FRAME_H);
	if (!ctx) {
		fprintf(stderr, "truth-host: out of memory\n");
		return 1;
	}
	for (i = 2; i < argc; i++)
		status |= detect_photo(ctx, argv[1], argv[i]) != 0;
	facedet_ctx_free(ctx);
	facedet_model_free(model);
	return status;
}
