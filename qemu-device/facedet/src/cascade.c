// SPDX-License-Identifier: MIT
/*
 * Loading a boosted Haar cascade from OpenCV's XML storage format
 * ("opencv-cascade-classifier", as written by opencv_traincascade and shipped
 * by Debian's opencv-data), with GLib's GMarkup parser.
 *
 * Layout we read (element names; "_" is a list item):
 *
 *   cascade/{stageType=BOOST, featureType=HAAR, width, height}
 *   cascade/stages/_/stageThreshold
 *   cascade/stages/_/weakClassifiers/_/{internalNodes, leafValues}
 *   cascade/features/_/rects/_          "x y w h weight"
 *   cascade/features/_/tilted           0 (tilted features: -ENOTSUP)
 *
 * Everything is validated after parsing, so the evaluator can trust every
 * index and rectangle without checks of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "facedet-internal.h"

#define MAX_DEPTH 16

struct parser {
	const char *stack[MAX_DEPTH];
	int depth;
	GString *text;

	gboolean seen_cascade;
	char *stage_type, *feature_type;
	int width, height;

	GArray *stages;		/* struct fd_stage */
	GArray *trees;		/* struct fd_tree */
	GArray *nodes;		/* struct fd_node */
	GArray *leaves;		/* float */
	GArray *features;	/* struct fd_feature */

	int err;		/* errno to return with a GError */
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Does the element path end in the given names (innermost last)? */
static gboolean path_is(const struct parser *p, int n, ...)
{
	va_list ap;
	gboolean match = TRUE;
	int i;

	if (p->depth < n)
		return FALSE;
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *want = va_arg(ap, const char *);

		if (strcmp(p->stack[p->depth - n + i], want)) {
			match = FALSE;
			break;
		}
	}
	va_end(ap);
	return match;
}

static void fail(struct parser *p, GError **error, int err, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static void fail(struct parser *p, GError **error, int err, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	p->err = err;
	g_set_error_literal(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, msg);
	g_free(msg);
}

static void on_start(GMarkupParseContext *ctx, const char *name,
		     const char **attr_names, const char **attr_values,
		     gpointer data, GError **error)
{
	struct parser *p = data;

	(void)ctx;
	(void)attr_names;
	(void)attr_values;

	if (p->depth == MAX_DEPTH) {
		fail(p, error, EINVAL, "elements nested too deeply");
		return;
	}
	p->stack[p->depth++] = g_intern_string(name);
	g_string_truncate(p->text, 0);

	if (p->depth == 2 && !strcmp(name, "cascade")) {
		p->seen_cascade = TRUE;
	} else if (path_is(p, 3, "cascade", "stages", "_")) {
		struct fd_stage s = { .first_tree = p->trees->len,
				      .threshold = NAN };

		g_array_append_val(p->stages, s);
	} else if (path_is(p, 5, "cascade", "stages", "_", "weakClassifiers", "_")) {
		struct fd_tree t = { .first_node = p->nodes->len,
				     .first_leaf = p->leaves->len };
		struct fd_stage *s;

		if (!p->stages->len) {
			fail(p, error, EINVAL, "weak classifier outside a stage");
			return;
		}
		s = &g_array_index(p->stages, struct fd_stage, p->stages->len - 1);
		s->ntrees++;
		g_array_append_val(p->trees, t);
	} else if (path_is(p, 3, "cascade", "features", "_")) {
		struct fd_feature f = { 0 };

		g_array_append_val(p->features, f);
	}
}

static void on_text(GMarkupParseContext *ctx, const char *text, gsize len,
		    gpointer data, GError **error)
{
	struct parser *p = data;

	(void)ctx;
	(void)error;
	g_string_append_len(p->text, text, len);
}

/* Parse a whitespace-separated list of numbers into @out (up to @max). */
static int parse_numbers(const char *s, double *out, int max)
{
	int n = 0;

	for (;;) {
		char *end;
		double v;

		while (g_ascii_isspace(*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return -1;
		v = g_ascii_strtod(s, &end);
		if (end == s || !isfinite(v))
			return -1;
		out[n++] = v;
		s = end;
	}
}

static gboolean parse_int(const char *s, int *out)
{
	double v;

	if (parse_numbers(s, &v, 1) != 1 || v != (int)v)
		return FALSE;
	*out = (int)v;
	return TRUE;
}

static void end_tree_nodes(struct parser *p, GError **error)
{
	struct fd_tree *t = &g_array_index(p->trees, struct fd_tree, p->trees->len - 1);
	double v[4 * 64];
	int n, i;

	n = parse_numbers(p->text->str, v, G_N_ELEMENTS(v));
	if (n <= 0 || n % 4) {
		fail(p, error, EINVAL, "internalNodes must be groups of 'left right feature threshold'");
		return;
	}
	for (i = 0; i < n; i += 4) {
		struct fd_node node = {
			.left = (int)v[i], .right = (int)v[i + 1],
			.feature = (int)v[i + 2], .threshold = (float)v[i + 3],
		};

		if (node.left != v[i] || node.right != v[i + 1] || node.feature != v[i + 2]) {
			fail(p, error, EINVAL, "internalNodes indices must be integers");
			return;
		}
		g_array_append_val(p->nodes, node);
	}
	t->nnodes = n / 4;
}

static void end_tree_leaves(struct parser *p, GError **error)
{
	struct fd_tree *t = &g_array_index(p->trees, struct fd_tree, p->trees->len - 1);
	double v[65];
	int n, i;

	n = parse_numbers(p->text->str, v, G_N_ELEMENTS(v));
	if (n <= 0) {
		fail(p, error, EINVAL, "leafValues must be a list of numbers");
		return;
	}
	for (i = 0; i < n; i++) {
		float f = (float)v[i];

		g_array_append_val(p->leaves, f);
	}
	t->nleaves = n;
}

static void end_rect(struct parser *p, GError **error)
{
	struct fd_feature *f = &g_array_index(p->features, struct fd_feature,
					      p->features->len - 1);
	struct fd_rect *r;
	double v[5];

	if (f->nrects == FD_MAX_RECTS) {
		fail(p, error, EINVAL, "feature %u has more than %d rectangles",
		     p->features->len - 1, FD_MAX_RECTS);
		return;
	}
	if (parse_numbers(p->text->str, v, 5) != 5 || v[0] != (int)v[0] ||
	    v[1] != (int)v[1] || v[2] != (int)v[2] || v[3] != (int)v[3]) {
		fail(p, error, EINVAL, "a rect must be 'x y w h weight'");
		return;
	}
	r = &f->r[f->nrects++];
	r->x = (int)v[0];
	r->y = (int)v[1];
	r->w = (int)v[2];
	r->h = (int)v[3];
	r->weight = (float)v[4];
}

static void on_end(GMarkupParseContext *ctx, const char *name,
		   gpointer data, GError **error)
{
	struct parser *p = data;
	const char *text = p->text->str;
	int v;

	(void)ctx;
	(void)name;

	if (path_is(p, 2, "cascade", "stageType")) {
		g_free(p->stage_type);
		p->stage_type = g_strstrip(g_strdup(text));
	} else if (path_is(p, 2, "cascade", "featureType")) {
		g_free(p->feature_type);
		p->feature_type = g_strstrip(g_strdup(text));
		/* stop before the stages: other kinds lay them out differently */
		if (strcmp(p->feature_type, "HAAR"))
			fail(p, error, ENOTSUP, "featureType '%s' is not supported (want HAAR)",
			     p->feature_type);
	} else if (path_is(p, 2, "cascade", "width")) {
		if (!parse_int(text, &p->width))
			fail(p, error, EINVAL, "bad <width>");
	} else if (path_is(p, 2, "cascade", "height")) {
		if (!parse_int(text, &p->height))
			fail(p, error, EINVAL, "bad <height>");
	} else if (path_is(p, 4, "cascade", "stages", "_", "stageThreshold")) {
		double t;

		if (parse_numbers(text, &t, 1) != 1)
			fail(p, error, EINVAL, "bad <stageThreshold>");
		else
			g_array_index(p->stages, struct fd_stage,
				      p->stages->len - 1).threshold = (float)t;
	} else if (path_is(p, 5, "stages", "_", "weakClassifiers", "_", "internalNodes")) {
		end_tree_nodes(p, error);
	} else if (path_is(p, 5, "stages", "_", "weakClassifiers", "_", "leafValues")) {
		end_tree_leaves(p, error);
	} else if (path_is(p, 5, "cascade", "features", "_", "rects", "_")) {
		end_rect(p, error);
	} else if (path_is(p, 4, "cascade", "features", "_", "tilted")) {
		if (!parse_int(text, &v))
			fail(p, error, EINVAL, "bad <tilted>");
		else if (v)
			fail(p, error, ENOTSUP, "tilted Haar features are not supported");
	}
	p->depth--;
	g_string_truncate(p->text, 0);
}

static int validate(const struct parser *p, char *err, size_t errlen)
{
	const struct fd_stage *stages = (const void *)p->stages->data;
	const struct fd_tree *trees = (const void *)p->trees->data;
	const struct fd_node *nodes = (const void *)p->nodes->data;
	const struct fd_feature *features = (const void *)p->features->data;
	const float *leaves = (const void *)p->leaves->data;
	guint i;
	int j;

	if (!p->seen_cascade) {
		set_err(err, errlen, "no <cascade> element: not an OpenCV cascade "
			"(old-style haartraining files are not supported)");
		return -EINVAL;
	}
	if (!p->stage_type || strcmp(p->stage_type, "BOOST")) {
		set_err(err, errlen, "stageType '%s' is not supported (want BOOST)",
			p->stage_type ? p->stage_type : "");
		return p->stage_type ? -ENOTSUP : -EINVAL;
	}
	if (!p->feature_type || strcmp(p->feature_type, "HAAR")) {
		set_err(err, errlen, "featureType '%s' is not supported (want HAAR)",
			p->feature_type ? p->feature_type : "");
		return p->feature_type ? -ENOTSUP : -EINVAL;
	}
	if (p->width < 3 || p->width > FD_MAX_WINDOW ||
	    p->height < 3 || p->height > FD_MAX_WINDOW) {
		set_err(err, errlen, "window %dx%d out of range 3..%d",
			p->width, p->height, FD_MAX_WINDOW);
		return -EINVAL;
	}
	if (!p->stages->len || !p->features->len) {
		set_err(err, errlen, "cascade has no stages or no features");
		return -EINVAL;
	}
	for (i = 0; i < p->stages->len; i++) {
		if (!stages[i].ntrees || isnan(stages[i].threshold)) {
			set_err(err, errlen, "stage %u has no weak classifiers or no threshold", i);
			return -EINVAL;
		}
	}
	for (i = 0; i < p->trees->len; i++) {
		const struct fd_tree *t = &trees[i];

		if (!t->nnodes || t->nleaves != t->nnodes + 1) {
			set_err(err, errlen, "weak classifier %u: %d nodes need %d leaves, got %d",
				i, t->nnodes, t->nnodes + 1, t->nleaves);
			return -EINVAL;
		}
		for (j = 0; j < t->nnodes; j++) {
			const struct fd_node *n = &nodes[t->first_node + j];
			int c;

			if (n->feature < 0 || (guint)n->feature >= p->features->len) {
				set_err(err, errlen, "weak classifier %u: feature %d out of range",
					i, n->feature);
				return -EINVAL;
			}
			/* children go strictly forward, so evaluation terminates */
			for (c = 0; c < 2; c++) {
				int child = c ? n->right : n->left;

				if (child > 0 ? (child <= j || child >= t->nnodes)
					      : (-child >= t->nleaves)) {
					set_err(err, errlen, "weak classifier %u: bad child %d", i, child);
					return -EINVAL;
				}
			}
		}
	}
	for (i = 0; i < p->trees->len; i++)
		for (j = 0; j < trees[i].nleaves; j++)
			if (!isfinite(leaves[trees[i].first_leaf + j])) {
				set_err(err, errlen, "weak classifier %u: bad leaf", i);
				return -EINVAL;
			}
	for (i = 0; i < p->features->len; i++) {
		const struct fd_feature *f = &features[i];

		if (f->nrects < 2) {
			set_err(err, errlen, "feature %u has %d rectangles, need 2 or 3",
				i, f->nrects);
			return -EINVAL;
		}
		for (j = 0; j < f->nrects; j++) {
			const struct fd_rect *r = &f->r[j];

			if (r->x < 0 || r->y < 0 || r->w <= 0 || r->h <= 0 ||
			    r->x + r->w > p->width || r->y + r->h > p->height ||
			    !isfinite(r->weight)) {
				set_err(err, errlen, "feature %u: rect %d outside the %dx%d window",
					i, j, p->width, p->height);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static void *steal(GArray *a)
{
	return g_array_free(a, FALSE);
}

int facedet_model_load(const char *path, struct facedet_model **model,
		       char *err, size_t errlen)
{
	static const GMarkupParser callbacks = {
		.start_element = on_start,
		.end_element = on_end,
		.text = on_text,
	};
	struct parser p = { 0 };
	GMarkupParseContext *ctx;
	struct facedet_model *m;
	GError *error = NULL;
	char *contents;
	gsize len;
	int ret;

	*model = NULL;
	if (!g_file_get_contents(path, &contents, &len, &error)) {
		ret = error->domain == G_FILE_ERROR && error->code == G_FILE_ERROR_NOENT
			? -ENOENT : -EIO;
		if (error->domain == G_FILE_ERROR && error->code == G_FILE_ERROR_ACCES)
			ret = -EACCES;
		if (error->domain == G_FILE_ERROR && error->code == G_FILE_ERROR_ISDIR)
			ret = -EISDIR;
		set_err(err, errlen, "%s", error->message);
		g_error_free(error);
		return ret;
	}

	p.text = g_string_new(NULL);
	p.stages = g_array_new(FALSE, TRUE, sizeof(struct fd_stage));
	p.trees = g_array_new(FALSE, TRUE, sizeof(struct fd_tree));
	p.nodes = g_array_new(FALSE, TRUE, sizeof(struct fd_node));
	p.leaves = g_array_new(FALSE, TRUE, sizeof(float));
	p.features = g_array_new(FALSE, TRUE, sizeof(struct fd_feature));

	ctx = g_markup_parse_context_new(&callbacks, 0, &p, NULL);
	if (!g_markup_parse_context_parse(ctx, contents, len, &error) ||
	    !g_markup_parse_context_end_parse(ctx, &error)) {
		int line, col;

		g_markup_parse_context_get_position(ctx, &line, &col);
		set_err(err, errlen, "%s:%d:%d: %s", path, line, col, error->message);
		ret = p.err ? -p.err : -EINVAL;
		g_error_free(error);
	} else {
		ret = validate(&p, err, errlen);
		if (ret) {
			char *msg = g_strdup_printf("%s: %s", path, err ? err : "");

			set_err(err, errlen, "%s", msg);
			g_free(msg);
		}
	}
	g_markup_parse_context_free(ctx);
	g_free(contents);
	g_string_free(p.text, TRUE);
	g_free(p.stage_type);
	g_free(p.feature_type);

	m = ret ? NULL : calloc(1, sizeof(*m));
	if (!ret && !m) {
		set_err(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	if (ret) {
		g_array_free(p.stages, TRUE);
		g_array_free(p.trees, TRUE);
		g_array_free(p.nodes, TRUE);
		g_array_free(p.leaves, TRUE);
		g_array_free(p.features, TRUE);
		return ret;
	}
	m->win_w = p.width;
	m->win_h = p.height;
	m->nstages = p.stages->len;
	m->ntrees = p.trees->len;
	m->nnodes = p.nodes->len;
	m->nleaves = p.leaves->len;
	m->nfeatures = p.features->len;
	m->stages = steal(p.stages);
	m->trees = steal(p.trees);
	m->nodes = steal(p.nodes);
	m->leaves = steal(p.leaves);
	m->features = steal(p.features);
	*model = m;
	return 0;
}

void facedet_model_free(struct facedet_model *m)
{
	if (!m)
		return;
	g_free(m->stages);
	g_free(m->trees);
	g_free(m->nodes);
	g_free(m->leaves);
	g_free(m->features);
	free(m);
}

void facedet_model_window(const struct facedet_model *m,
			  unsigned int *width, unsigned int *height)
{
	*width = m->win_w;
	*height = m->win_h;
}
