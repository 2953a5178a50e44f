// SPDX-License-Identifier: MIT
/*
 * fdif-gst-faces: the faces a GStreamer face detector reports, frame by
 * frame, and how fast the pipeline ran.
 *
 *   fdif-gst-faces [-n FRAMES] [-q] 'PIPELINE'
 *
 * Runs PIPELINE (gst-launch-1.0 syntax) followed by a fakesink, prints
 * each "facedetect" element message (posted alike by gst-plugins-bad's
 * facedetect and by fdiffacedetect) as "faces TIME N x y w h ...", and at
 * the end the frames that reached the sink, the frames per second, the
 * CPU time a frame took (this process: source, detector and sink),
 * when the detector is fdiffacedetect, how busy it kept the FDIF (its DRM
 * file's drm-engine-fdif time in fdinfo over the wall time), and how many
 * messages came, how many with faces. Stops
 * after FRAMES frames (default 100) with an EOS, or at the pipeline's own
 * EOS or error (exit status 1, with the error's text). Not a test: the
 * camera demo (scripts/demo.sh --camera) and scripts/bench-camera.sh run it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <gst/gst.h>

static struct {
	GstElement *pipeline;
	guint frames, want;
	gboolean quiet;
	gdouble t0, t1;
	gdouble busy0, busy1;
	guint messages, with_faces;
	gint status;
	GMainLoop *loop;
} run;

static gdouble now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static gdouble cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static gboolean send_eos(gpointer data)
{
	gst_element_send_event(run.pipeline, gst_event_new_eos());
	return G_SOURCE_REMOVE;
}

/* seconds the FDIF was busy for this process's DRM files (fdinfo), or -1 */
static gdouble engine_busy(void)
{
	char path[300], target[64], line[128];
	unsigned long long ns, sum = 0;
	gboolean any = FALSE;
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		FILE *f;
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (strncmp(target, "/dev/accel/accel", 16))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", de->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "drm-engine-fdif: %llu ns", &ns) == 1) {
				sum += ns;
				any = TRUE;
			}
		if (f)
			fclose(f);
	}
	closedir(d);
	return any ? sum / 1e9 : -1;
}

static void on_handoff(GstElement *sink, GstBuffer *buf, GstPad *pad, gpointer data)
{
	if (!run.frames) {
		run.t0 = now();
		run.busy0 = engine_busy();
	}
	run.t1 = now();
	/* the EOS goes from the main loop: not from the streaming thread */
	if (++run.frames == run.want) {
		run.busy1 = engine_busy();
		g_idle_add(send_eos, NULL);
	}
}

static void print_faces(const GstStructure *s)
{
	const GValue *faces = gst_structure_get_value(s, "faces");
	guint64 ts = 0;
	guint i, n = faces && GST_VALUE_HOLDS_LIST(faces) ? gst_value_list_get_size(faces) : 0;

	gst_structure_get_uint64(s, "timestamp", &ts);
	printf("faces %" GST_TIME_FORMAT " %u", GST_TIME_ARGS(ts), n);
	for (i = 0; i < n; i++) {
		const GstStructure *f = gst_value_get_structure(gst_value_list_get_value(faces, i));
		guint x = 0, y = 0, w = 0, h = 0;

		gst_structure_get_uint(f, "x", &x);
		gst_structure_get_uint(f, "y", &y);
		gst_structure_get_uint(f, "width", &w);
		gst_structure_get_uint(f, "height", &h);
		printf(" %u %u %u %u", x, y, w, h);
	}
	printf("\n");
	fflush(stdout);
}

static gboolean on_message(GstBus *bus, GstMessage *m, gpointer data)
{
	GError *err = NULL;
	gchar *dbg = NULL;

	switch (GST_MESSAGE_TYPE(m)) {
	case GST_MESSAGE_ELEMENT:
		if (gst_message_has_name(m, "facedetect")) {
			const GValue *faces = gst_structure_get_value(
				gst_message_get_structure(m), "faces");

			run.messages++;
			run.with_faces += faces && GST_VALUE_HOLDS_LIST(faces) &&
					  gst_value_list_get_size(faces) > 0;
			if (!run.quiet)
				print_faces(gst_message_get_structure(m));
		}
		break;
	case GST_MESSAGE_ERROR:
		gst_message_parse_error(m, &err, &dbg);
		fprintf(stderr, "fdif-gst-faces: error from %s: %s (%s)\n",
			GST_OBJECT_NAME(GST_MESSAGE_SRC(m)), err->message, dbg ? dbg : "");
		g_clear_error(&err);
		g_free(dbg);
		run.status = 1;
		g_main_loop_quit(run.loop);
		break;
	case GST_MESSAGE_EOS:
		g_main_loop_quit(run.loop);
		break;
	default:
		break;
	}
	return TRUE;
}

int main(int argc, char **argv)
{
	GError *err = NULL;
	GstElement *sink;
	gchar *desc;
	gdouble cpu0;
	int opt;

	run.want = 100;
	run.busy0 = run.busy1 = -1;
	while ((opt = getopt(argc, argv, "n:q")) != -1) {
		switch (opt) {
		case 'n': run.want = strtoul(optarg, NULL, 0); break;
		case 'q': run.quiet = TRUE; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || !run.want)
		goto usage;
	gst_init(NULL, NULL);
	desc = g_strdup_printf("%s ! fakesink name=fdif_gst_faces_sink sync=false "
			       "signal-handoffs=true", argv[optind]);
	run.pipeline = gst_parse_launch(desc, &err);
	g_free(desc);
	if (!run.pipeline) {
		fprintf(stderr, "fdif-gst-faces: %s\n", err->message);
		return 1;
	}
	/* a pipeline that parsed with a warning (e.g. a missing property) is refused */
	if (err) {
		fprintf(stderr, "fdif-gst-faces: %s\n", err->message);
		return 1;
	}
	sink = gst_bin_get_by_name(GST_BIN(run.pipeline), "fdif_gst_faces_sink");
	g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), NULL);
	run.loop = g_main_loop_new(NULL, FALSE);
	gst_bus_add_watch(gst_element_get_bus(run.pipeline), on_message, NULL);
	cpu0 = cpu_seconds();
	if (gst_element_set_state(run.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
		run.status = 1;
	g_main_loop_run(run.loop);
	gst_element_set_state(run.pipeline, GST_STATE_NULL);
	fprintf(stderr, "fdif-gst-faces: %u frames in %.2f s: %.1f frames/s, %.1f ms CPU a frame",
		run.frames, run.t1 - run.t0,
		run.frames > 1 ? (run.frames - 1) / (run.t1 - run.t0) : 0.0,
		run.frames ? (cpu_seconds() - cpu0) * 1000 / run.frames : 0.0);
	if (run.busy0 >= 0 && run.busy1 >= 0 && run.t1 > run.t0)
		fprintf(stderr, ", FDIF busy %.0f%%", 100 * (run.busy1 - run.busy0) / (run.t1 - run.t0));
	fprintf(stderr, "; %u facedetect messages, %u with faces\n", run.messages, run.with_faces);
	gst_object_unref(sink);
	gst_object_unref(run.pipeline);
	return run.status || run.frames < run.want;
usage:
	fprintf(stderr, "usage: fdif-gst-faces [-n FRAMES] [-q] 'PIPELINE'\n");
	return 2;
}
