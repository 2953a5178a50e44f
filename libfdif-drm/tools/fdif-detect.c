// SPDX-License-Identifier: MIT
/*
 * fdif-detect - print the faces in photos, found by the FDIF.
 *
 *   fdif-detect [options] IMAGE...
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdif/fdif.h"

static const char *const dir_names[] = { "up", "right", "left", "all" };
static const char *const class_names[] = { "face" };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fdif-detect [options] IMAGE...\n"
		"Find faces in PGM, PPM, PNG or JPEG images on the FDIF accelerator.\n\n"
		"  --json              print JSON instead of text\n"
		"  --draw OUT.png      write the image with the faces outlined (one IMAGE)\n"
		"  --min-size N        smallest face, in device frame pixels (OMAP4: 320x240\n"
		"                      frame; 20, 25, 32, 40; default: the smallest)\n"
		"  --direction D       up, right, left, or all (a full scan; default up)\n"
		"  --roi X,Y,W,H       only look here (image pixels)\n"
		"  --threshold N       only report faces of confidence >= N (0..1000)\n"
		"  --lhit N            the device's likelihood threshold (OMAP4: 0..9; default:\n"
		"                      the device's recommended one, 5 on OMAP4)\n"
		"  --device PATH       the accel device (default: the first FDIF)\n"
		"  --help              this text\n");
}

static int parse_uint(const char *s, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static void print_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_class(unsigned int c)
{
	if (c < sizeof(class_names) / sizeof(class_names[0]))
		printf("\"%s\"", class_names[c]);
	else
		printf("\"class-%u\"", c);
}

static void print_faces(const char *path, const struct fdif_image *img,
			const struct fdif_face *f, unsigned int n, int json, int first)
{
	unsigned int i;

	if (!json) {
		printf("%s: %u face%s (%ux%u)\n", path, n, n == 1 ? "" : "s",
		       img->width, img->height);
		for (i = 0; i < n; i++)
			printf("  face %u: x=%.0f y=%.0f size=%.0f confidence=%u angle=%u direction=%s\n",
			       i + 1, f[i].x, f[i].y, f[i].size, f[i].confidence,
			       f[i].angle, dir_names[f[i].direction]);
		return;
	}
	printf("%s\n  {\"image\": ", first ? "" : ",");
	print_json_string(path);
	printf(", \"width\": %u, \"height\": %u, \"faces\": [", img->width, img->height);
	for (i = 0; i < n; i++) {
		printf("%s\n    {\"x\": %.1f, \"y\": %.1f, \"size\": %.1f, \"confidence\": %u, "
		       "\"raw_confidence\": %u, \"angle\": %u, \"direction\": \"%s\", "
		       "\"width\": %.1f, \"height\": %.1f, \"class\": ",
		       i ? "," : "", f[i].x, f[i].y, f[i].size, f[i].confidence,
		       f[i].raw_confidence, f[i].angle, dir_names[f[i].direction],
		       f[i].width, f[i].height);
		print_class(f[i].object_class);
		putchar('}');
	}
	printf("%s]}", n ? "\n  " : "");
}


int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "draw", required_argument, NULL, 'o' },
		{ "min-size", required_argument, NULL, 's' },
		{ "direction", required_argument, NULL, 'd' },
		{ "roi", required_argument, NULL, 'r' },
		{ "threshold", required_argument, NULL, 't' },
		{ "lhit", required_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct fdif_face *faces;
	const char *draw = NULL, *device = NULL, *min_size_arg = NULL, *lhit_arg = NULL;
	unsigned int threshold = 0, max, n, i, k, printed = 0;
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_caps caps;
	int json = 0, c, li = 0, ret, status = 0;

	fdif_params_init(&p);
	while ((c = getopt_long(argc, argv, "h", opts, &li)) != -1) {
		char extra;

		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'o':
			draw = optarg;
			break;
		case 's':
			/* checked against the device's sizes once it is open */
			if (parse_uint(optarg, UINT_MAX, &p.min_size))
				goto bad;
			min_size_arg = optarg;
			break;
		case 'd':
			for (k = 0; k < 4 && strcmp(optarg, dir_names[k]); k++)
				;
			if (k == 4)
				goto bad;
			p.direction = k;
			break;
		case 'r':
			if (sscanf(optarg, "%u,%u,%u,%u%c", &p.roi_x, &p.roi_y, &p.roi_width,
				   &p.roi_height, &extra) != 4 || !p.roi_width || !p.roi_height)
				goto bad;
			break;
		case 't':
			if (parse_uint(optarg, 1000, &threshold))
				goto bad;
			break;
		case 'l':
			/* checked against the device's range once it is open */
			if (parse_uint(optarg, UINT_MAX - 1, &p.lhit))
				goto bad;
			lhit_arg = optarg;
			break;
		case 'D':
			device = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "fdif-detect: invalid value '%s' for --%s\n", optarg,
			opts[li].name);
		return 2;
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	if (draw && argc - optind != 1) {
		fprintf(stderr, "fdif-detect: --draw takes exactly one IMAGE\n");
		return 2;
	}

	ret = device ? fdif_open_path(device, &dev) : fdif_open(&dev);
	if (ret) {
		/* the node, or the directory fdif_open() searched */
		const char *dir = getenv("FDIF_ACCEL_DIR");

		fprintf(stderr, "fdif-detect: %s: %s\n",
			device ? device : dir && *dir ? dir : "/dev/accel",
			fdif_strerror(ret));
		return 1;
	}
	ret = fdif_query_caps(dev, &caps);
	if (ret) {
		fprintf(stderr, "fdif-detect: cannot query the device: %s\n", fdif_strerror(ret));
		fdif_close(dev);
		return 1;
	}
	for (k = 0; min_size_arg && k < caps.num_min_sizes && caps.min_sizes[k] != p.min_size; k++)
		;
	if (min_size_arg && k == caps.num_min_sizes) {
		fprintf(stderr, "fdif-detect: --min-size %u: the device takes", p.min_size);
		for (k = 0; k < caps.num_min_sizes; k++)
			fprintf(stderr, " %u", caps.min_sizes[k]);
		fprintf(stderr, "\n");
		fdif_close(dev);
		return 2;
	}
	if (lhit_arg && p.lhit > caps.max_lhit) {
		fprintf(stderr, "fdif-detect: invalid value '%s' for --lhit: the device takes 0..%u\n",
			lhit_arg, caps.max_lhit);
		fdif_close(dev);
		return 2;
	}
	/* a full scan: one job's faces a direction, at most */
	max = 3 * caps.max_objects;
	faces = calloc(max ? max : 1, sizeof(*faces));
	if (!faces) {
		fprintf(stderr, "fdif-detect: %s\n", fdif_strerror(-ENOMEM));
		fdif_close(dev);
		return 1;
	}

	if (json)
		printf("[");
	for (i = optind; i < (unsigned int)argc; i++) {
		struct fdif_image img;

		ret = fdif_image_load(argv[i], &img);
		if (!ret)
			ret = fdif_detect_image(dev, &img, &p, faces, max, &n);
		if (ret) {
			fprintf(stderr, "fdif-detect: %s: %s\n", argv[i], fdif_strerror(ret));
			fdif_image_free(&img);
			status = 1;
			continue;
		}
		for (k = 0; k < n && faces[k].confidence >= threshold; k++)
			;
		n = k;	/* sorted by confidence */
		print_faces(argv[i], &img, faces, n, json, !printed++);
		if (draw) {
			struct fdif_image rgb;

			ret = fdif_image_to_rgb(&img, &rgb);
			for (k = 0; !ret && k < n; k++)
				fdif_image_draw_square(&rgb, faces[k].x, faces[k].y,
						       faces[k].size, 255, 32, 32);
			if (!ret)
				ret = fdif_image_save_png(draw, &rgb);
			if (ret) {
				fprintf(stderr, "fdif-detect: %s: %s\n", draw, fdif_strerror(ret));
				status = 1;
			}
			fdif_image_free(&rgb);
		}
		fdif_image_free(&img);
	}
	if (json)
		printf("\n]\n");
	free(faces);
	fdif_close(dev);
	return status;
}
