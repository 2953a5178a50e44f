// SPDX-License-Identifier: MIT
/*
 * fdif-detect - print the faces in photos, found by the FDIF.
 *
 *   fdif-detect [options] IMAGE...
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fdif/fdif.h"
#include "fdif/image.h"

static const char *const dir_names[] = { "up", "right", "left", "all" };
static const char *const class_names[] = { "face" };

/* A direction's or class's name: the FDIF_DIR_* or FDIF_CLASS_* bit's. */
static const char *bit_name(const char *const *names, unsigned int n, uint32_t bit,
			    char *buf, size_t len, const char *prefix)
{
	unsigned int k = bit ? (unsigned int)__builtin_ctz(bit) : 32;

	if (bit && !(bit & (bit - 1)) && k < n)
		return names[k];
	snprintf(buf, len, "%s%u", prefix, k);
	return buf;
}

#ifndef FDIF_VERSION
#define FDIF_VERSION "unknown"
#endif

/*
 * Memory: fdif-detect answers any file within 64 MiB of peak RSS. A
 * picture's load holds at most LOAD_MAX_BYTES (the decoded picture, the
 * decoder's rows, libjpeg's arrays; a picture on standard input counts
 * too, at most STDIN_MAX of it); --draw decodes the whole picture in
 * colour and draws on it (a grey picture: on a colour copy), at most 4
 * bytes a pixel: at most DRAW_MAX_PIXELS (a 12 Mpixel photo). More is
 * refused (-EFBIG), never swapped in.
 */
#define LOAD_MAX_BYTES	(48u << 20)
#define DRAW_MAX_PIXELS	(12u << 20)
#define STDIN_MAX	(32u << 20)

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: fdif-detect [OPTION]... IMAGE...\n"
		"Find faces in PGM, PPM, PNG or JPEG images on the FDIF accelerator.\n"
		"An IMAGE of - is a picture read from standard input.\n\n"
		"  --json              print JSON instead of text\n"
		"  --draw OUT.png      write the image with the faces outlined (one IMAGE)\n"
		"  --min-size N        smallest face, in device frame pixels (OMAP4: 320x240\n"
		"                      frame; 20, 25, 32, 40; default: the smallest)\n"
		"  --direction D       up, right, left, or all (a full scan; default up)\n"
		"  --roi X,Y,W,H       only look here (image pixels)\n"
		"  --threshold N       only report faces of confidence >= N (0..1000)\n"
		"  --lhit N            the device's likelihood threshold (OMAP4: 0..9; default:\n"
		"                      the device's recommended one, 5 on OMAP4)\n"
		"  --device DEV        the accel device: a node's path, or N for the N-th\n"
		"                      FDIF from 0 (default: $FDIF_DEVICE, else the first)\n"
		"  --list-devices      print the FDIFs, one line each: N and the node\n"
		"  --check             only read each IMAGE, as a search with the same options\n"
		"                      would (--draw: whole, in colour; nothing written), and\n"
		"                      print IMAGE: WIDTHxHEIGHT (no device needed)\n"
		"  --help              this text\n"
		"  --version           the version\n"
		"  --facedetect [ARGS] the command line, output lines and exit status of\n"
		"                      facedetect(1) (first; also as fdif-facedetect)\n\n"
		"Exit status: 0 if every image was processed, 1 if the device or an image\n"
		"failed or the output could not be written, 2 for bad options.\n");
}

/*
 * A whole number 0..@max, digits only: strtoul() alone would skip blanks
 * and take a sign (" -5" is 4294967291 where long is 32 bits).
 */
static int parse_uint(const char *s, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* --roi X,Y,W,H: four whole numbers, W and H not 0 */
static int parse_roi(const char *arg, struct fdif_params *p)
{
	unsigned int v[4];
	const char *s = arg;
	int i;

	for (i = 0; i < 4; i++) {
		size_t len = strcspn(s, ",");
		char num[24];

		/* three commas, each after a number, and nothing after the fourth */
		if ((i < 3) != (s[len] == ',') || len >= sizeof(num))
			return -1;
		memcpy(num, s, len);
		num[len] = 0;
		if (parse_uint(num, UINT_MAX, &v[i]))
			return -1;
		s += len + (i < 3);
	}
	if (!v[2] || !v[3])
		return -1;
	p->roi_x = v[0];
	p->roi_y = v[1];
	p->roi_width = v[2];
	p->roi_height = v[3];
	return 0;
}

/*
 * The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if there is
 * none. Not glibc's iconv("UTF-8", "UTF-8"), tried: it passes F4 90 80
 * 80 (U+110000), which is no Unicode; mbrtowc() needs a UTF-8 locale
 * installed; json-c only copies bytes.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * A file name in JSON: "image" is the name as text, valid UTF-8 with each
 * byte that is not U+FFFD (the replacement character); when the name is
 * not UTF-8, "image_bytes" holds its bytes in hex too, so that a script
 * can still name the file. (json-c escapes quotes, backslashes and control
 * characters but copies other bytes as they are: invalid JSON text.)
 */
static void json_add_name(json_object *o, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t len = strlen(path), i, n;
	char *text = malloc(3 * len + 1), *t = text, *hex;
	int valid = 1;

	if (!text)
		abort();
	for (i = 0; i < len; i += n) {
		n = utf8_len(p + i);
		if (n) {
			memcpy(t, p + i, n);
			t += n;
		} else {
			memcpy(t, "\xef\xbf\xbd", 3);	/* U+FFFD */
			t += 3;
			n = 1;
			valid = 0;
		}
	}
	*t = 0;
	json_object_object_add(o, "image", json_object_new_string(text));
	free(text);
	if (valid)
		return;
	hex = malloc(2 * len + 1);
	if (!hex)
		abort();
	for (i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
	json_object_object_add(o, "image_bytes", json_object_new_string(hex));
	free(hex);
}

/* a number with one decimal, as fdif-detect has always printed them */
static json_object *json_1f(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_object_new_double_s(v, buf);
}

/* errno's name (ENOENT), or its number where the C library has none */
static const char *errno_name(int err, char *buf, size_t size)
{
	const char *name;

	if (err == ENOTSUP)
		return "ENOTSUP";	/* the library's word (Linux: = EOPNOTSUPP) */
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, size, "%d", err);
	return buf;
}

/* One image's entry in the JSON array, printed as soon as it is done. */
static void json_print_entry(json_object *o, int first)
{
	printf("%s  %s", first ? "\n" : ",\n",
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
						 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	fflush(stdout);
}

/* an image that could not be loaded or searched: its error, -errno */
static void print_error_msg(const char *path, int err, const char *msg, int json, int first)
{
	json_object *o, *e;
	char buf[16];

	fprintf(stderr, "fdif-detect: %s: %s\n", path, msg);
	if (!json)
		return;
	o = json_object_new_object();
	e = json_object_new_object();
	json_add_name(o, path);
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(e, "errno",
			       json_object_new_string(errno_name(-err, buf, sizeof(buf))));
	json_object_object_add(o, "error", e);
	json_print_entry(o, first);
}

/*
 * an image that could not be loaded: fdif_strerror()'s message, which for
 * -ENOTSUP also names the device's case; here it can only be the format
 */
static void print_load_error(const char *path, int err, int json, int first)
{
	print_error_msg(path, err, err == -ENOTSUP ?
			"unsupported image format (PGM, PPM, PNG and JPEG are)" :
			fdif_strerror(err), json, first);
}

static void print_faces(const char *path, const struct fdif_image *img,
			const struct fdif_face *f, unsigned int n, int json, int first)
{
	json_object *o, *faces;
	unsigned int i;
	char buf[32];

	if (!json) {
		printf("%s: %u face%s (%ux%u)\n", path, n, n == 1 ? "" : "s",
		       img->width, img->height);
		for (i = 0; i < n; i++)
			printf("  face %u: x=%.0f y=%.0f width=%.0f height=%.0f size=%.0f"
			       " confidence=%u angle=%u direction=%s\n",
			       i + 1, f[i].x, f[i].y, f[i].width, f[i].height,
			       fmax(f[i].width, f[i].height), f[i].confidence, f[i].angle,
			       bit_name(dir_names, 3, f[i].direction, buf, sizeof(buf), "direction-"));
		return;
	}
	o = json_object_new_object();
	json_add_name(o, path);
	json_object_object_add(o, "width", json_object_new_int64(img->width));
	json_object_object_add(o, "height", json_object_new_int64(img->height));
	faces = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *face = json_object_new_object();

		json_object_object_add(face, "x", json_1f(f[i].x));
		json_object_object_add(face, "y", json_1f(f[i].y));
		json_object_object_add(face, "size", json_1f(fmax(f[i].width, f[i].height)));
		json_object_object_add(face, "confidence", json_object_new_int64(f[i].confidence));
		json_object_object_add(face, "angle", json_object_new_int64(f[i].angle));
		json_object_object_add(face, "direction",
				       json_object_new_string(bit_name(dir_names, 3, f[i].direction,
								       buf, sizeof(buf),
								       "direction-")));
		json_object_object_add(face, "width", json_1f(f[i].width));
		json_object_object_add(face, "height", json_1f(f[i].height));
		json_object_object_add(face, "class",
				       json_object_new_string(bit_name(class_names, 1,
								       f[i].object_class, buf,
								       sizeof(buf), "class-")));
		json_object_array_add(faces, face);
	}
	json_object_object_add(o, "faces", faces);
	json_print_entry(o, first);
}


/*
 * IMAGE, or with "-" the picture on standard input (whatever the loader
 * takes: it is read whole, then decoded from memory). With @info, grey and
 * no larger than a @fit_w x @fit_h frame needs (fdif_image_load_gray()).
 * Within the limits above.
 */
static int load_image(const char *path, unsigned int fit_w, unsigned int fit_h,
		      struct fdif_image *img, struct fdif_image_info *info)
{
	struct fdif_image_limits lim = { .size = sizeof(lim),
					 .max_pixels = info ? 0 : DRAW_MAX_PIXELS,
					 .max_bytes = LOAD_MAX_BYTES };
	size_t len = 0, cap = 0;
	char *buf = NULL, *more;
	ssize_t got;
	int ret;

	if (strcmp(path, "-"))
		return info ? fdif_image_load_gray_limited(path, NULL, 0, fit_w, fit_h, &lim,
							   img, info) :
			      fdif_image_load_limited(path, NULL, 0, &lim, img);
	memset(img, 0, sizeof(*img));
	for (;;) {
		if (len == cap) {
			if (cap == STDIN_MAX) {
				free(buf);
				return -EFBIG;
			}
			cap = cap ? 2 * cap : 1u << 16;
			more = realloc(buf, cap);
			if (!more) {
				free(buf);
				return -ENOMEM;
			}
			buf = more;
		}
		got = read(STDIN_FILENO, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			free(buf);
			return ret;
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	lim.max_bytes -= len;	/* the file is held while it is decoded */
	ret = info ? fdif_image_load_gray_limited(NULL, buf, len, fit_w, fit_h, &lim, img, info) :
		     fdif_image_load_limited(NULL, buf, len, &lim, img);
	free(buf);
	return ret;
}

/*
 * An RGB picture to draw on: @img itself when it is one (taken: @img is
 * left empty), else a copy; not twice the picture for --draw.
 */
static int rgb_of(struct fdif_image *img, struct fdif_image *rgb)
{
	if (img->channels != 3)
		return fdif_image_to_rgb(img, rgb);
	*rgb = *img;
	memset(img, 0, sizeof(*img));
	return 0;
}

/* --- the facedetect-compatible mode ---------------------------------- */

/*
 * fdif-detect --facedetect [OPTIONS] FILE (or fdif-detect run under the
 * name fdif-facedetect or facedetect): the command line, output lines and
 * exit status of Debian's facedetect(1), so that scripts written for it
 * work: "x y w h" per face (-c: "x y", the centre), -q: exit 0 if a face
 * was found, 2 if none; 1 for a file that cannot be loaded, 2 for a bad
 * command line (argparse's usage and "PROG: error: ..." on stderr).
 * The faces are the FDIF's, so the boxes differ from OpenCV's.
 */
static const char fd_usage[] =
	"usage: %s [-h] [--biggest] [--best] [-c] [--data-dir DIRECTORY] [-q]\n"
	"                  [-s FILE] [--search-threshold PERCENT] [-o OUTPUT] [-d]\n"
	"                  file\n";

static int fd_error(const char *prog, int status, const char *fmt, const char *arg)
{
	fprintf(stderr, "%.*s: error: ", (int)strcspn(prog, " "), prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return status;
}

static int fd_usage_error(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, fd_usage, prog);
	return fd_error(prog, 2, fmt, arg);
}

static void fd_help(const char *prog)
{
	printf(fd_usage, prog);
	printf("\nA simple face detector for batch processing (facedetect's command line,\n"
	       "on the FDIF accelerator)\n\n"
	       "positional arguments:\n"
	       "  file                  Input image file (- for standard input)\n\n"
	       "options:\n"
	       "  -h, --help            show this help message and exit\n"
	       "  --biggest             Extract only the biggest face\n"
	       "  --best                Extract only the best matching face (the FDIF's most\n"
	       "                        confident)\n"
	       "  -c, --center          Print only the center coordinates\n"
	       "  --data-dir DIRECTORY  OpenCV data files directory (accepted, not used)\n"
	       "  -q, --query           Query only (exit 0: face detected, 2: no detection)\n"
	       "  -s FILE, --search FILE\n"
	       "                        Search for faces similar to the one supplied in FILE\n"
	       "                        (not supported: exits 2)\n"
	       "  --search-threshold PERCENT\n"
	       "                        Face similarity threshold (default: 30%%)\n"
	       "  -o OUTPUT, --output OUTPUT\n"
	       "                        Image output file (PNG for .png, JPEG for .jpg,\n"
	       "                        .jpeg and .jpe; other names fail)\n"
	       "  -d, --debug           Add debugging metrics in the image output file\n"
	       "                        (accepted, not used)\n");
}

/* A face as facedetect prints it: an integer box inside the picture. */
struct fd_rect {
	long x, y, w, h;
};

static long clampl(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static struct fd_rect fd_rect(const struct fdif_face *f, const struct fdif_image *img)
{
	long x0 = lround(f->x - f->width / 2), y0 = lround(f->y - f->height / 2);
	long x1 = lround(f->x + f->width / 2), y1 = lround(f->y + f->height / 2);
	struct fd_rect r;

	x0 = clampl(x0, 0, (long)img->width - 1);
	y0 = clampl(y0, 0, (long)img->height - 1);
	x1 = clampl(x1, x0 + 1, (long)img->width);
	y1 = clampl(y1, y0 + 1, (long)img->height);
	r.x = x0;
	r.y = y0;
	r.w = x1 - x0;
	r.h = y1 - y0;
	return r;
}

/*
 * -o's format, by the name's extension as OpenCV's imwrite() finds it
 * (from the last '.', any case): 'p' PNG, 'j' JPEG, 0 one not written
 * here (OpenCV also writes BMP, PNM, TIFF, WebP...; facedetect fails
 * on a name without an extension or with one OpenCV has no writer for)
 */
static int fd_format(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcasecmp(dot, ".png"))
		return 'p';
	if (dot && (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg") ||
		    !strcasecmp(dot, ".jpe")))
		return 'j';
	return 0;
}

/* -o: the picture with the faces outlined, as fd_format() says */
static int fd_save(const char *path, const struct fdif_image *rgb)
{
	if (fd_format(path) == 'p')
		return fdif_image_save_png(path, rgb);
	return fdif_image_save_jpeg(path, rgb, 95);
}

static int facedetect_main(int argc, char **argv, const char *prog)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "biggest", no_argument, NULL, 'B' },
		{ "best", no_argument, NULL, 'b' },
		{ "center", no_argument, NULL, 'c' },
		{ "data-dir", required_argument, NULL, 'D' },
		{ "query", no_argument, NULL, 'q' },
		{ "search", required_argument, NULL, 's' },
		{ "search-threshold", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "debug", no_argument, NULL, 'd' },
		{ 0 },
	};
	int biggest = 0, best = 0, center = 0, query = 0, c, ret;
	const char *search = NULL, *output = NULL, *file;
	unsigned int n, i, pick, max;
	struct fdif_face *faces;
	struct fdif_device *dev;
	struct fdif_image img, full;
	struct fdif_params p;
	struct fdif_caps caps = { .size = sizeof(caps) };
	struct fdif_image_info info = { .scale = 1 };
	char opt[3] = "-?";
	int dev_ret;

	opterr = 0;	/* argparse's messages, below */
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hcqs:o:d", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fd_help(prog);
			return 0;
		case 'B':
			biggest = 1;
			break;
		case 'b':
			best = 1;
			break;
		case 'c':
			center = 1;
			break;
		case 'q':
			query = 1;
			break;
		case 's':
			search = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'T': {
			char *end;

			errno = 0;
			(void)strtol(optarg, &end, 10);
			if (errno || end == optarg || *end)
				return fd_usage_error(prog,
					"argument --search-threshold: invalid int value: '%s'", optarg);
			break;
		}
		case 'D':	/* OpenCV's cascades: nothing to load here */
		case 'd':	/* metrics drawn into -o's picture: none here */
			break;
		case ':':	/* the option as it was given */
			return fd_usage_error(prog, "argument %s: expected one argument",
					      argv[optind - 1]);
		default:
			if (optopt) {
				opt[1] = (char)optopt;
				return fd_usage_error(prog, "unrecognized arguments: %s", opt);
			}
			return fd_usage_error(prog, "unrecognized arguments: %s", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return fd_usage_error(prog, "the following arguments are required: %s", "file");
	if (argc - optind > 1)
		return fd_usage_error(prog, "unrecognized arguments: %s", argv[optind + 1]);
	file = argv[optind];
	if (search)
		return fd_usage_error(prog, "argument -s/--search: %s",
				      "not supported on the FDIF (it finds faces, it does not compare them)");

	/*
	 * The device first, for its frame size: without -o only the faces
	 * are wanted, and the picture is decoded as the normal mode does it,
	 * grey and no larger than the frame needs (a JPEG reduced by
	 * libjpeg); the faces are scaled back to the full picture's pixels.
	 * A picture that cannot be loaded is still the first error told.
	 */
	dev_ret = fdif_open(&dev);
	if (!dev_ret) {
		dev_ret = fdif_query_caps(dev, &caps);
		if (dev_ret)
			fdif_close(dev);
	}
	ret = load_image(file, dev_ret ? 0 : caps.frame_width, dev_ret ? 0 : caps.frame_height,
			 &img, output ? NULL : &info);
	if (ret) {
		if (!dev_ret)
			fdif_close(dev);
		return fd_error(prog, 1, "cannot load input image %s", file);
	}
	ret = dev_ret;
	if (ret) {
		const char *dir = secure_getenv("FDIF_DEVICE");

		if (!dir || !*dir)
			dir = secure_getenv("FDIF_ACCEL_DIR");
		fprintf(stderr, "%.*s: error: %s: %s\n", (int)strcspn(prog, " "), prog,
			dir && *dir ? dir : "/dev/accel", fdif_strerror(ret));
		fdif_image_free(&img);
		return 1;
	}
	max = caps.max_objects ? caps.max_objects : 1;
	faces = calloc(max, sizeof(*faces));
	fdif_params_init(&p, sizeof(p));
	ret = faces ? fdif_detect_image(dev, &img, &p, faces, max) : -ENOMEM;
	fdif_close(dev);
	n = ret > 0 ? ((unsigned int)ret < max ? (unsigned int)ret : max) : 0;
	if (ret < 0) {
		fprintf(stderr, "%.*s: error: %s: %s\n", (int)strcspn(prog, " "), prog, file,
			fdif_strerror(ret));
		free(faces);
		fdif_image_free(&img);
		return 1;
	}
	if (query) {
		free(faces);
		fdif_image_free(&img);
		return n ? 0 : 2;
	}
	if (info.scale != 1) {
		for (i = 0; i < n; i++) {
			faces[i].x *= info.scale;
			faces[i].y *= info.scale;
			faces[i].width *= info.scale;
			faces[i].height *= info.scale;
		}
	}
	full = img;
	if (!output) {
		/* the full picture's size, for the boxes' clamping */
		full.width = info.width;
		full.height = info.height;
	}

	/* --biggest: the largest box; --best: the most confident (faces[0]) */
	pick = 0;
	for (i = 1; biggest && i < n; i++)
		if (faces[i].width * faces[i].height > faces[pick].width * faces[pick].height)
			pick = i;
	if (output && !fd_format(output)) {
		/* facedetect: OpenCV's error, nothing printed, exit 1 */
		fd_error(prog, 1, "%s: cannot write such a picture (here -o writes PNG, "
			 ".png, and JPEG, .jpg, .jpeg or .jpe)", output);
		free(faces);
		fdif_image_free(&img);
		return 1;
	}
	if (output) {
		struct fdif_image rgb;

		ret = rgb_of(&img, &rgb);
		for (i = 0; !ret && i < n; i++) {
			int hi = (best || biggest) && i == pick;

			fdif_image_draw_box(&rgb, faces[i].x, faces[i].y, faces[i].width,
					    faces[i].height, 255, 255, hi ? 0 : 255);
		}
		if (!ret)
			ret = fd_save(output, &rgb);
		fdif_image_free(&rgb);
		/*
		 * facedetect ignores imwrite()'s failure (a folder that is not
		 * there, a full disk): the faces are still printed, exit 0;
		 * here a warning says what went wrong
		 */
		if (ret)
			fprintf(stderr, "%.*s: warning: %s: %s\n", (int)strcspn(prog, " "), prog,
				output, fdif_strerror(ret));
	}
	for (i = 0; i < n; i++) {
		struct fd_rect r;

		if ((best || biggest) && i != pick)
			continue;
		r = fd_rect(&faces[i], &full);
		if (center)
			printf("%ld %ld\n", r.x + r.w / 2, r.y + r.h / 2);
		else
			printf("%ld %ld %ld %ld\n", r.x, r.y, r.w, r.h);
	}
	free(faces);
	fdif_image_free(&img);
	return 0;	/* a failed write to stdout: main()'s finish_stdout() */
}

/* --device: a number is an index among the FDIFs, else a node's path */
static int open_device(const char *device, struct fdif_device **dev)
{
	unsigned int index;

	if (!device)
		return fdif_open(dev);
	if (!parse_uint(device, UINT_MAX, &index))
		return fdif_open_index(index, dev);
	return fdif_open_path(device, dev);
}

/*
 * --check: each image read as the run with the same options would read
 * it, without searching: with --draw the whole picture in colour, within
 * --draw's limit (its OUT is not written); else grey and reduced for the
 * frame of the device the search would use (--device, $FDIF_DEVICE, the
 * first FDIF), or, with no device there (the host, before a guest is
 * booted), as small as the decoders go: every byte of the file is still
 * decoded, a frame only changes how far it is reduced. "IMAGE: WxH", the
 * picture's own size, or its error; exit 1 if one could not be read.
 */
static int check_images(int n, char **paths, const char *device, int draw)
{
	unsigned int fit_w = 1, fit_h = 1;
	struct fdif_device *dev;
	struct fdif_caps caps = { .size = sizeof(caps) };
	int i, ret, status = 0;

	if (!draw && !open_device(device, &dev)) {
		if (!fdif_query_caps(dev, &caps) && caps.frame_width && caps.frame_height) {
			fit_w = caps.frame_width;
			fit_h = caps.frame_height;
		}
		fdif_close(dev);
	}
	for (i = 0; i < n; i++) {
		struct fdif_image img;
		struct fdif_image_info info = { .scale = 1 };

		ret = load_image(paths[i], fit_w, fit_h, &img, draw ? NULL : &info);
		if (ret) {
			print_load_error(paths[i], ret, 0, 0);
			status = 1;
			continue;
		}
		printf("%s: %ux%u\n", paths[i], draw ? img.width : info.width,
		       draw ? img.height : info.height);
		fdif_image_free(&img);
	}
	return status;
}

/* --list-devices: "N NODE" for each FDIF; exit 1 if there is none */
static int list_devices(void)
{
	struct fdif_device *dev;
	unsigned int i;
	int ret;

	for (i = 0; !(ret = fdif_open_index(i, &dev)); i++) {
		printf("%u %s\n", i, fdif_device_path(dev));
		fdif_close(dev);
	}
	if (!i) {
		const char *dir = secure_getenv("FDIF_ACCEL_DIR");

		fprintf(stderr, "fdif-detect: %s: %s\n", dir && *dir ? dir : "/dev/accel",
			fdif_strerror(ret));
	}
	return i ? 0 : 1;
}

/* the facedetect mode's program name, for finish_stdout()'s message */
static const char *fd_prog;

/*
 * Standard output flushed and closed, and a failure to write it told (a
 * full disk, /dev/full...): output that was lost is an error, whatever
 * the rest did (exit 1 if it was 0). Every way out of main() goes
 * through here.
 */
static int finish_stdout(int status)
{
	int err = 0;

	if (fflush(stdout))
		err = errno ? errno : EIO;
	if (!err && ferror(stdout))
		err = EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return status;
	if (fd_prog)
		fprintf(stderr, "%.*s: error: standard output: %s\n",
			(int)strcspn(fd_prog, " "), fd_prog, strerror(err));
	else
		fprintf(stderr, "fdif-detect: standard output: %s\n", strerror(err));
	return status ? status : 1;
}

static int run(int argc, char **argv)
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
		{ "list-devices", no_argument, NULL, 'L' },
		{ "check", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct fdif_face *faces;
	const char *draw = NULL, *device = NULL, *min_size_arg = NULL, *lhit_arg = NULL;
	unsigned int threshold = 0, max, n, i, k, printed = 0, dir_arg = 0;
	struct fdif_size ms;
	struct fdif_device *dev;
	struct fdif_params p;
	struct fdif_caps caps = { .size = sizeof(caps) };
	int json = 0, check = 0, c, li = 0, ret, status = 0;

	{
		const char *base = strrchr(argv[0], '/');

		base = base ? base + 1 : argv[0];
		if (!strcmp(base, "fdif-facedetect") || !strcmp(base, "facedetect"))
			return facedetect_main(argc, argv, fd_prog = base);
		if (argc > 1 && !strcmp(argv[1], "--facedetect"))
			return facedetect_main(argc - 1, argv + 1,
					       fd_prog = "fdif-detect --facedetect");
	}
	fdif_params_init(&p, sizeof(p));
	while ((c = getopt_long(argc, argv, "h", opts, &li)) != -1) {
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
			dir_arg = k;	/* all: the device's, once it is open */
			break;
		case 'r':
			if (parse_roi(optarg, &p))
				goto bad;
			break;
		case 't':
			if (parse_uint(optarg, 1000, &threshold))
				goto bad;
			break;
		case 'l':
			/* checked against the device's range once it is open */
			if (parse_uint(optarg, UINT_MAX - 1, &p.threshold))
				goto bad;
			lhit_arg = optarg;
			break;
		case 'D':
			device = optarg;
			break;
		case 'L':
			return list_devices();
		case 'C':
			check = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("fdif-detect (fdif) %s\n", FDIF_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "fdif-detect: invalid value '%s' for --%s: %s\n", optarg,
			opts[li].name, c == 'r' ? "X,Y,W,H are four whole numbers "
			"0..4294967295 (image pixels), W and H not 0" :
			c == 'd' ? "up, right, left or all" :
			c == 't' ? "a whole number 0..1000" :
			c == 's' ? "a face size in frame pixels (OMAP4: 20, 25, 32 or 40)" :
			"a whole number (OMAP4: 0..9)");
		return 2;
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	for (i = optind, k = 0; i < (unsigned int)argc; i++)
		k += !strcmp(argv[i], "-");
	if (k > 1) {
		fprintf(stderr, "fdif-detect: - (standard input) can be read once only\n");
		return 2;
	}
	if (check && json) {
		fprintf(stderr, "fdif-detect: --check prints no faces: no --json\n");
		return 2;
	}
	if (check)
		return check_images(argc - optind, argv + optind, device, draw != NULL);
	if (draw && argc - optind != 1) {
		fprintf(stderr, "fdif-detect: --draw takes exactly one IMAGE\n");
		return 2;
	}

	ret = open_device(device, &dev);
	if (ret) {
		/* the node, or the directory searched */
		const char *dir = secure_getenv("FDIF_ACCEL_DIR");

		if (!device)
			device = secure_getenv("FDIF_DEVICE");
		fprintf(stderr, "fdif-detect: %s: %s\n",
			device && *device && strchr(device, '/') ? device :
			dir && *dir ? dir : "/dev/accel", fdif_strerror(ret));
		return 1;
	}
	ret = fdif_query_caps(dev, &caps);
	if (ret) {
		fprintf(stderr, "fdif-detect: cannot query the device: %s\n", fdif_strerror(ret));
		fdif_close(dev);
		return 1;
	}
	for (k = 0; min_size_arg && !fdif_query_min_size(dev, k, &ms) && ms.width != p.min_size; k++)
		;
	if (min_size_arg && k == caps.num_min_sizes) {
		fprintf(stderr, "fdif-detect: --min-size %u: the device takes", p.min_size);
		for (k = 0; !fdif_query_min_size(dev, k, &ms); k++)
			fprintf(stderr, " %u", ms.width);
		fprintf(stderr, "\n");
		fdif_close(dev);
		return 2;
	}
	if (lhit_arg && p.threshold > caps.max_threshold) {
		fprintf(stderr, "fdif-detect: invalid value '%s' for --lhit: the device takes 0..%u\n",
			lhit_arg, caps.max_threshold);
		fdif_close(dev);
		return 2;
	}
	p.directions = dir_arg == 3 ? caps.directions : 1u << dir_arg;
	if (!(p.directions & caps.directions)) {
		fprintf(stderr, "fdif-detect: --direction %s: the device does not scan it\n",
			dir_names[dir_arg]);
		fdif_close(dev);
		return 2;
	}
	/*
	 * room for every face: a job reports at most max_objects, and a
	 * detection takes at most a job a direction (merging only drops some)
	 */
	max = (caps.max_objects ? caps.max_objects : 1) *
	      (unsigned int)__builtin_popcount(p.directions);
	faces = calloc(max, sizeof(*faces));
	if (!faces) {
		fprintf(stderr, "fdif-detect: %s\n", fdif_strerror(-ENOMEM));
		fdif_close(dev);
		return 1;
	}

	if (json)
		printf("[");
	for (i = optind; i < (unsigned int)argc; i++) {
		struct fdif_image img, full = { 0 };
		struct fdif_image_info info = { .scale = 1 };
		struct fdif_params rp = p;

		/*
		 * Without --draw only the faces are wanted: the picture is
		 * decoded grey and no larger than the device's frame needs
		 * (a JPEG reduced by libjpeg), and the faces and the ROI are
		 * scaled between it and the full picture.
		 */
		ret = load_image(argv[i], caps.frame_width, caps.frame_height, &img,
				 draw ? NULL : &info);
		if (!ret) {
			full.width = draw ? img.width : info.width;
			full.height = draw ? img.height : info.height;
		}
		/* the ROI inside the picture, as the library takes it; said so here */
		if (!ret && p.roi_width &&
		    ((uint64_t)p.roi_x + p.roi_width > full.width ||
		     (uint64_t)p.roi_y + p.roi_height > full.height)) {
			char msg[160];

			snprintf(msg, sizeof(msg), "--roi %u,%u,%u,%u is not inside the picture (%ux%u)",
				 p.roi_x, p.roi_y, p.roi_width, p.roi_height, full.width, full.height);
			print_error_msg(argv[i], -EINVAL, msg, json, !printed++);
			fdif_image_free(&img);
			status = 1;
			continue;
		}
		if (!ret && info.scale != 1 && p.roi_width) {
			/* its edges scaled, out to whole pixels of the reduced picture */
			double x1 = ceil(((double)p.roi_x + p.roi_width) / info.scale);
			double y1 = ceil(((double)p.roi_y + p.roi_height) / info.scale);

			rp.roi_x = (unsigned int)floor(p.roi_x / info.scale);
			rp.roi_y = (unsigned int)floor(p.roi_y / info.scale);
			rp.roi_width = (unsigned int)fmin(x1, img.width) - rp.roi_x;
			rp.roi_height = (unsigned int)fmin(y1, img.height) - rp.roi_y;
		}
		if (ret) {
			print_load_error(argv[i], ret, json, !printed++);
			fdif_image_free(&img);
			status = 1;
			continue;
		}
		ret = fdif_detect_image(dev, &img, &rp, faces, max);
		n = ret > 0 ? ((unsigned int)ret < max ? (unsigned int)ret : max) : 0;
		if (ret < 0) {
			print_error_msg(argv[i], ret, fdif_strerror(ret), json, !printed++);
			fdif_image_free(&img);
			status = 1;
			continue;
		}
		for (k = 0; k < n && faces[k].confidence >= threshold; k++)
			;
		n = k;	/* sorted by confidence */
		for (k = 0; !draw && k < n; k++) {
			faces[k].x *= info.scale;
			faces[k].y *= info.scale;
			faces[k].width *= info.scale;
			faces[k].height *= info.scale;
		}
		print_faces(argv[i], &full, faces, n, json, !printed++);
		if (draw) {
			struct fdif_image rgb;

			ret = rgb_of(&img, &rgb);
			for (k = 0; !ret && k < n; k++)
				fdif_image_draw_box(&rgb, faces[k].x, faces[k].y,
						    faces[k].width, faces[k].height, 255, 32, 32);
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
		printf("\n]\n");	/* every image has its entry: never empty */
	free(faces);
	fdif_close(dev);
	return status;
}

int main(int argc, char **argv)
{
	return finish_stdout(run(argc, argv));
}
