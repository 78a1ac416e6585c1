/*
 * network_svg.c -- the co-author network and the publication timeline as
 * inline SVG, laid out on the server so pages need no script.  Output is
 * deterministic (sorted input, fixed geometry) so pages cache and tests
 * compare bytes.  Styling is left to CSS through class names: the CSP
 * forbids inline style attributes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "network_svg.h"

#define SVG_NS    "http://www.w3.org/2000/svg"
#define NET_MAX   36    /* co-authors drawn; more is unreadable */
#define NET_READ  400   /* input nodes looked at */
#define NET_EDGES 2000  /* input edges looked at */
#define NET_SIZE  480.0 /* the viewBox is NET_SIZE square */
#define NET_ONE   10    /* up to this many co-authors: one ring */
#define NET_INNER 16    /* most co-authors on the inner ring */
/* Edges between co-authors drawn at most, per co-author: the heaviest.
 * A dense network (196 lines for 25 people) reads as a grey disc. */
#define NET_CHORDS 2

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

struct node {
	json_int_t id;
	const char *name; /* borrowed from the JSON */
	int full;         /* label with the full name (short one is shared) */
	const char *url;  /* borrowed, may be NULL */
	json_int_t papers;
	json_int_t weight; /* joint papers with the centre */
	int ring;          /* 0 inner, 1 outer */
	int seen;          /* visited while ordering */
	double x, y, r;
};

/*
 * Formats v for an attribute as printf's "%.1f" does; one decimal is
 * plenty at this size.  printf works out the exact decimal value of v,
 * which costs more than the rest of the drawing: for the coordinates
 * here (non-negative, far below 1e9) v * 10 rounded to the nearest
 * integer gives the same digits, except where v * 10 lies within a
 * hair of a tie (x.x5), where the product's own rounding could decide
 * and printf is asked instead.
 */
const char *
pages_svg_num(char *buf, size_t sz, double v)
{
	char tmp[16];
	double t = v * 10, f = floor(t);
	long long k;
	size_t i = sizeof(tmp);

	if (!(v >= 0 && v < 1e9) || signbit(v) || fabs(t - f - 0.5) < 1e-6 ||
	    sz < 16) {
		snprintf(buf, sz, "%.1f", v);
		return buf;
	}
	k = (long long)f + (t - f > 0.5);
	tmp[--i] = '\0';
	tmp[--i] = (char)('0' + k % 10);
	tmp[--i] = '.';
	k /= 10;
	do {
		tmp[--i] = (char)('0' + k % 10);
		k /= 10;
	} while (k > 0);
	memcpy(buf, tmp + i, sizeof(tmp) - i);
	return buf;
}

static json_int_t
int_field(const json_t *o, const char *key, json_int_t def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : def;
}

static const char *
str_field(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void surname(struct core_buf *, const char *);

/* Appends s[0..e) cut to max characters (an ellipsis after). */
static void
put_cut(struct core_buf *b, const char *s, const char *e, size_t max)
{
	const char *p;
	size_t chars;

	for (chars = 0, p = s; p < e; p++) {
		/* Count characters, not bytes: continuation bytes are free. */
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (++chars > max) {
			core_buf_put(b, s, (size_t)(p - s));
			core_buf_puts(b, "\xe2\x80\xa6"); /* ellipsis */
			return;
		}
	}
	core_buf_put(b, s, (size_t)(e - s));
}

/*
 * The label under a node: the initial of the first given name and the
 * surname ("M. Curie" for "Marie Curie" or "Curie, Marie"), so that the
 * many Lis and Wangs of a network are told apart; the full name (cut to
 * 20 characters) when that is still shared (full).  Only ASCII bytes are
 * split on, so UTF-8 stays whole.
 */
static void
label(struct core_buf *b, const char *name, int full)
{
	const char *comma, *last, *e, *g;
	size_t n;

	if (name == NULL || *name == '\0') {
		core_buf_puts(b, "?");
		return;
	}
	while (*name == ' ')
		name++;
	e = name + strlen(name);
	while (e > name && e[-1] == ' ')
		e--;
	if (full) {
		put_cut(b, name, e, 20);
		return;
	}
	/* The given names: after the comma, or before the last word. */
	if ((comma = strchr(name, ',')) != NULL) {
		for (g = comma + 1; g < e && *g == ' '; g++)
			continue;
	} else {
		for (last = e; last > name && last[-1] != ' '; last--)
			continue;
		g = last > name ? name : e;
	}
	if (g < e && *g != ' ' && *g != ',') {
		/* The whole first character, however many bytes. */
		for (n = 1; g + n < e && ((unsigned char)g[n] & 0xc0) == 0x80;
		     n++)
			continue;
		core_buf_put(b, g, n);
		core_buf_puts(b, ". ");
	}
	surname(b, name);
}

/*
 * The surname, taken as the part before a comma ("Curie, Marie") or else
 * the last word ("Marie Curie"), cut to 12 characters.
 */
static void
surname(struct core_buf *b, const char *name)
{
	const char *s, *e;

	if (name == NULL || *name == '\0') {
		core_buf_puts(b, "?");
		return;
	}
	if ((e = strchr(name, ',')) != NULL) {
		s = name;
	} else {
		e = name + strlen(name);
		while (e > name && e[-1] == ' ')
			e--;
		for (s = e; s > name && s[-1] != ' '; s--)
			continue;
	}
	while (s < e && *s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	if (s == e)
		core_buf_puts(b, "?");
	else
		put_cut(b, s, e, 12);
}

/* The href for a node: site-relative URLs get base_path in front. */
static void
node_href(struct core_buf *b, const char *url, const char *base_path)
{
	size_t n;

	if (url[0] == '/' && url[1] != '/' && base_path != NULL) {
		n = strlen(base_path);
		while (n > 0 && base_path[n - 1] == '/')
			n--;
		core_buf_put(b, base_path, n);
	}
	core_buf_puts(b, url);
}

/* Heaviest first, then by id: the order rings are filled in. */
static int
by_weight(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

static struct node *
find(struct node *nodes, size_t n, json_int_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (nodes[i].id == id)
			return &nodes[i];
	return NULL;
}

/*
 * Reads the co-authors: objects with an integer id other than the
 * centre's, each once.  Their weight is the heaviest edge to the centre,
 * or their paper count when no such edge was sent.  Returns how many,
 * at most NET_MAX, heaviest first.
 */
static size_t
read_nodes(const json_t *net, json_int_t cid, struct node *nodes)
{
	const json_t *arr, *o;
	struct node *nd;
	json_int_t a, b, w;
	size_t i, n;

	arr = json_object_get(net, "nodes");
	n = 0;
	for (i = 0; i < json_array_size(arr) && i < NET_READ; i++) {
		o = json_array_get(arr, i);
		if (!json_is_integer(json_object_get(o, "id")))
			continue;
		a = json_integer_value(json_object_get(o, "id"));
		if (a == cid || find(nodes, n, a) != NULL)
			continue;
		nd = &nodes[n++];
		memset(nd, 0, sizeof(*nd));
		nd->id = a;
		nd->name = str_field(o, "name");
		nd->url = str_field(o, "url");
		nd->papers = int_field(o, "papers", 0);
		nd->weight = -1;
	}
	arr = json_object_get(net, "edges");
	for (i = 0; i < json_array_size(arr) && i < NET_EDGES; i++) {
		o = json_array_get(arr, i);
		a = int_field(o, "a", -1);
		b = int_field(o, "b", -1);
		w = int_field(o, "weight", 1);
		if (b == cid)
			b = a;
		else if (a != cid)
			continue;
		if ((nd = find(nodes, n, b)) != NULL && w > nd->weight)
			nd->weight = w;
	}
	for (i = 0; i < n; i++) {
		if (nodes[i].weight < 0)
			nodes[i].weight = nodes[i].papers;
		if (nodes[i].weight < 0)
			nodes[i].weight = 0;
		if (nodes[i].papers < 0)
			nodes[i].papers = 0;
	}
	qsort(nodes, n, sizeof(*nodes), by_weight);
	return n < NET_MAX ? n : NET_MAX;
}

/*
 * The angular order: co-authors who also write with each other are
 * placed next to each other, so their edges are short chords instead of
 * lines across the picture.  A breadth-first walk over the co-author
 * graph, started from the heaviest unplaced node and visiting
 * neighbours heaviest first, gives each cluster a contiguous arc; the
 * sort order makes it deterministic.  ord gets indexes into nodes.
 */
static void
order_nodes(const json_t *net, struct node *nodes, size_t n, size_t *ord)
{
	static const unsigned char zero[NET_MAX][NET_MAX];
	unsigned char adj[NET_MAX][NET_MAX];
	const json_t *edges, *o;
	struct node *p, *q;
	size_t head, tail, i, j;

	memcpy(adj, zero, sizeof(adj));
	edges = json_object_get(net, "edges");
	for (i = 0; i < json_array_size(edges) && i < NET_EDGES; i++) {
		o = json_array_get(edges, i);
		p = find(nodes, n, int_field(o, "a", -1));
		q = find(nodes, n, int_field(o, "b", -1));
		if (p != NULL && q != NULL)
			adj[p - nodes][q - nodes] = adj[q - nodes][p - nodes] =
			    1;
	}
	head = tail = 0;
	for (i = 0; i < n; i++) {
		if (nodes[i].seen)
			continue;
		nodes[i].seen = 1;
		ord[tail++] = i;
		for (; head < tail; head++) {
			for (j = 0; j < n; j++) {
				if (nodes[j].seen || !adj[ord[head]][j])
					continue;
				nodes[j].seen = 1;
				ord[tail++] = j;
			}
		}
	}
}

/*
 * Places the nodes: the heaviest on the inner ring, the rest on the
 * outer one, each ring evenly spaced in the cluster order.  Each ring
 * starts at the angle its first member has in the whole order, so the
 * clusters line up across the rings; the outer ring is turned by half a
 * step so its spokes pass between inner nodes.
 */
static void
layout(struct node *nodes, size_t n, const size_t *ord)
{
	double c = NET_SIZE / 2, rad[2], step, start;
	size_t inner, m[2], k[2], i;
	int ring, first[2];
	struct node *nd;

	inner = n <= NET_ONE ? n : (n + 1) / 2;
	if (inner > NET_INNER)
		inner = NET_INNER;
	rad[0] = n <= NET_ONE ? 140 : 110;
	rad[1] = 190;
	m[0] = m[1] = k[0] = k[1] = 0;
	first[0] = first[1] = -1;
	/* nodes[] is sorted heaviest first, so ring 0 is the heaviest. */
	for (i = 0; i < n; i++) {
		nodes[i].ring = i < inner ? 0 : 1;
		m[nodes[i].ring]++;
		nodes[i].r = 5 + 1.5 * sqrt((double)nodes[i].papers);
		if (nodes[i].r > 15)
			nodes[i].r = 15;
	}
	for (i = 0; i < n; i++) {
		nd = &nodes[ord[i]];
		ring = nd->ring;
		if (first[ring] < 0)
			first[ring] = (int)i;
		step = 2 * M_PI / (double)m[ring];
		start = -M_PI / 2 + 2 * M_PI * first[ring] / (double)n;
		if (ring == 1)
			start += step / 2;
		nd->x = c + rad[ring] * cos(start + step * (double)k[ring]);
		nd->y = c + rad[ring] * sin(start + step * (double)k[ring]);
		k[ring]++;
	}
}

struct chord {
	size_t i;     /* index in the edges array */
	json_int_t w; /* joint papers */
};

static int
chord_heavier(const void *a, const void *b)
{
	const struct chord *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Marks in keep[] the edges between two drawn co-authors that are drawn:
 * the NET_CHORDS * n heaviest (ties by input order), so a dense network
 * keeps its strongest collaborations and loses the grey disc.
 */
static void
pick_chords(const json_t *edges, json_int_t cid, struct node *nodes, size_t n,
    unsigned char *keep)
{
	static struct chord c[NET_EDGES];
	const json_t *o;
	json_int_t a, b;
	size_t i, k = 0;

	for (i = 0; i < json_array_size(edges) && i < NET_EDGES; i++) {
		o = json_array_get(edges, i);
		a = int_field(o, "a", -1);
		b = int_field(o, "b", -1);
		if (a == b || a == cid || b == cid ||
		    find(nodes, n, a) == NULL || find(nodes, n, b) == NULL)
			continue;
		c[k].i = i;
		c[k++].w = int_field(o, "weight", 1);
	}
	qsort(c, k, sizeof(c[0]), chord_heavier);
	for (i = 0; i < k && i < NET_CHORDS * n; i++)
		keep[c[i].i] = 1;
}

static void
draw_edges(struct core_html *h, const json_t *net, json_int_t cid,
    struct node *nodes, size_t n)
{
	static unsigned char keep[NET_EDGES];
	const json_t *edges = json_object_get(net, "edges"), *o;
	char x1[16], y1[16], x2[16], y2[16], sw[16];
	struct node *p, *q;
	double c = NET_SIZE / 2, w;
	json_int_t a, b;
	size_t i;

	memset(keep, 0, sizeof(keep));
	pick_chords(edges, cid, nodes, n, keep);
	core_html_elem(h, CORE_TAG_G,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, "net-edges" },
		{ CORE_ATTR__MAX, NULL },
	    });
	for (i = 0; i < json_array_size(edges) && i < NET_EDGES; i++) {
		o = json_array_get(edges, i);
		a = int_field(o, "a", -1);
		b = int_field(o, "b", -1);
		w = (double)int_field(o, "weight", 1);
		if (a == b)
			continue;
		p = a == cid ? NULL : find(nodes, n, a);
		q = b == cid ? NULL : find(nodes, n, b);
		/* Both ends must be drawn (the centre or a kept node), and
		 * a chord must be among the heaviest. */
		if ((p == NULL && a != cid) || (q == NULL && b != cid))
			continue;
		if (a != cid && b != cid && !keep[i])
			continue;
		w = w < 1 ? 1 : w;
		w = 0.75 + 0.75 * sqrt(w);
		core_html_elem(h, CORE_TAG_LINE,
		    (const struct core_attr[]){
			{ CORE_ATTR_CLASS,
			    a == cid || b == cid ? "net-edge net-spoke"
						 : "net-edge" },
			{ CORE_ATTR_X1,
			    pages_svg_num(x1, sizeof(x1), p ? p->x : c) },
			{ CORE_ATTR_Y1,
			    pages_svg_num(y1, sizeof(y1), p ? p->y : c) },
			{ CORE_ATTR_X2,
			    pages_svg_num(x2, sizeof(x2), q ? q->x : c) },
			{ CORE_ATTR_Y2,
			    pages_svg_num(y2, sizeof(y2), q ? q->y : c) },
			{ CORE_ATTR_STROKE_WIDTH,
			    pages_svg_num(sw, sizeof(sw), w > 5 ? 5 : w) },
			{ CORE_ATTR__MAX, NULL },
		    });
	}
	core_html_pop(h);
}

/*
 * One node: a link (a group when there is no URL) holding a <title>
 * for the tooltip and accessible name, the circle and the label.
 */
static void
draw_node(struct core_html *h, const struct node *nd, const char *cls,
    int centre, const char *base_path)
{
	struct core_buf href = CORE_BUF_INIT, text = CORE_BUF_INIT;
	char cx[16], cy[16], r[16], ly[16];

	if (nd->url != NULL)
		node_href(&href, nd->url, base_path);
	core_html_elem(h, nd->url != NULL ? CORE_TAG_A : CORE_TAG_G,
	    (const struct core_attr[]){
		{ CORE_ATTR_HREF,
		    nd->url != NULL ? core_buf_cstr(&href) : NULL },
		{ CORE_ATTR_CLASS, cls },
		{ CORE_ATTR__MAX, NULL },
	    });
	core_html_elem(h, CORE_TAG_SVGTITLE, NULL);
	core_html_text(h, nd->name != NULL ? nd->name : "");
	if (!centre)
		core_html_textf(h, ", %lld joint paper%s",
		    (long long)nd->weight, nd->weight == 1 ? "" : "s");
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_CIRCLE,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, "net-dot" },
		{ CORE_ATTR_CX, pages_svg_num(cx, sizeof(cx), nd->x) },
		{ CORE_ATTR_CY, pages_svg_num(cy, sizeof(cy), nd->y) },
		{ CORE_ATTR_R, pages_svg_num(r, sizeof(r), nd->r) },
		{ CORE_ATTR__MAX, NULL },
	    });
	label(&text, nd->name, nd->full);
	core_html_elemtext(h, CORE_TAG_TEXT,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, "net-label" },
		{ CORE_ATTR_X, cx },
		{ CORE_ATTR_Y,
		    pages_svg_num(ly, sizeof(ly), nd->y + nd->r + 12) },
		{ CORE_ATTR_TEXT_ANCHOR, "middle" },
		{ CORE_ATTR__MAX, NULL },
	    },
	    core_buf_cstr(&text));
	core_html_pop(h);
	core_buf_free(&href);
	core_buf_free(&text);
}

/* Nodes whose short label ("H. Li") another node has get the full name. */
static void
mark_shared(struct node *nodes, size_t n, const struct node *centre)
{
	struct core_buf a = CORE_BUF_INIT, b = CORE_BUF_INIT;
	size_t i, j;

	for (i = 0; i < n; i++) {
		core_buf_reset(&a);
		label(&a, nodes[i].name, 0);
		core_buf_reset(&b);
		label(&b, centre->name, 0);
		if (strcmp(core_buf_cstr(&a), core_buf_cstr(&b)) == 0)
			nodes[i].full = 1;
		for (j = i + 1; j < n; j++) {
			core_buf_reset(&b);
			label(&b, nodes[j].name, 0);
			if (strcmp(core_buf_cstr(&a), core_buf_cstr(&b)) == 0)
				nodes[i].full = nodes[j].full = 1;
		}
	}
	core_buf_free(&a);
	core_buf_free(&b);
}

/*
 * The names in full, heaviest first, as links, under the drawing: on a
 * phone a label is small, and a name should not need a hover.
 */
static void
name_list(struct core_html *h, const struct node *nodes, size_t n,
    const char *base_path)
{
	struct core_buf href = CORE_BUF_INIT;
	size_t i;

	core_html_elem(h, CORE_TAG_DETAILS,
	    (const struct core_attr[]){ { CORE_ATTR_CLASS, "net-list" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elem(h, CORE_TAG_SUMMARY, NULL);
	core_html_textf(h, "The %zu co-author%s drawn, by joint papers", n,
	    n == 1 ? "" : "s");
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_OL,
	    (const struct core_attr[]){ { CORE_ATTR_CLASS, "net-names" },
		{ CORE_ATTR__MAX, NULL } });
	for (i = 0; i < n; i++) {
		core_html_elem(h, CORE_TAG_LI, NULL);
		core_buf_reset(&href);
		if (nodes[i].url != NULL) {
			node_href(&href, nodes[i].url, base_path);
			core_html_elemtext(h, CORE_TAG_A,
			    (const struct core_attr[]){
				{ CORE_ATTR_HREF, core_buf_cstr(&href) },
				{ CORE_ATTR__MAX, NULL } },
			    nodes[i].name != NULL ? nodes[i].name : "?");
		} else
			core_html_text(h,
			    nodes[i].name != NULL ? nodes[i].name : "?");
		core_html_elem(h, CORE_TAG_SPAN,
		    (const struct core_attr[]){ { CORE_ATTR_CLASS, "faint" },
			{ CORE_ATTR__MAX, NULL } });
		core_html_textf(h, " %lld", (long long)nodes[i].weight);
		core_html_pop(h);
		core_html_pop(h);
	}
	core_html_pop(h);
	core_html_pop(h);
	core_buf_free(&href);
}

/* Opens an inline <svg> of viewBox vb, its role, label and class. */
static void
svg_open(struct core_html *h, const char *vb, const char *role,
    struct core_buf *label, const char *cls)
{
	core_html_elem(h, CORE_TAG_SVG,
	    (const struct core_attr[]){
		{ CORE_ATTR_XMLNS, SVG_NS },
		{ CORE_ATTR_VIEWBOX, vb },
		{ CORE_ATTR_ROLE, role },
		{ CORE_ATTR_ARIA_LABEL, core_buf_cstr(label) },
		{ CORE_ATTR_CLASS, cls },
		{ CORE_ATTR__MAX, NULL },
	    });
}

void
pages_network_svg(struct core_html *h, const json_t *net, const char *base_path)
{
	struct node nodes[NET_READ], centre;
	struct core_buf aria = CORE_BUF_INIT;
	const json_t *co;
	size_t ord[NET_MAX], n, i;
	char vb[48];

	co = json_object_get(net, "center");
	if (!json_is_object(co) || !json_is_integer(json_object_get(co, "id")))
		return;
	memset(&centre, 0, sizeof(centre));
	centre.id = json_integer_value(json_object_get(co, "id"));
	centre.name = str_field(co, "name");
	centre.url = str_field(co, "url");
	centre.x = centre.y = NET_SIZE / 2;
	centre.r = 18;
	if ((n = read_nodes(net, centre.id, nodes)) == 0)
		return;
	mark_shared(nodes, n, &centre);
	order_nodes(net, nodes, n, ord);
	layout(nodes, n, ord);

	snprintf(vb, sizeof(vb), "0 0 %.0f %.0f", NET_SIZE, NET_SIZE);
	core_buf_puts(&aria, "Co-author network of ");
	core_buf_puts(&aria, centre.name != NULL ? centre.name : "?");
	/* A group, not an image: its co-authors are links, and an image's
	 * children are hidden from assistive technology. */
	svg_open(h, vb, "group", &aria, "net");
	draw_edges(h, net, centre.id, nodes, n);
	core_html_elem(h, CORE_TAG_G,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, "net-nodes" },
		{ CORE_ATTR__MAX, NULL },
	    });
	/* In the angular order, so neighbours in the DOM are neighbours. */
	for (i = 0; i < n; i++)
		draw_node(h, &nodes[ord[i]], "net-node", 0, base_path);
	/* Last, so it is drawn on top of the spokes' ends. */
	draw_node(h, &centre, "net-node net-centre", 1, base_path);
	core_html_pop(h);
	core_html_pop(h);
	name_list(h, nodes, n, base_path);
	core_buf_free(&aria);
}

/* Timeline geometry: one slot per year, bars under a count label. */
#define TL_SPAN 60 /* years drawn at most */
#define TL_SLOT 28.0
#define TL_BAR  20.0
#define TL_TOP  14.0 /* room for the count above the tallest bar */
#define TL_BARS 80.0 /* the tallest bar */
#define TL_FOOT 16.0 /* room for the year labels */

/* A number of the timeline (a count or a year) centred on x, at y. */
static void
tl_number(struct core_html *h, const char *cls, const char *x, double y,
    json_int_t n)
{
	char ys[16], t[24];

	snprintf(t, sizeof(t), "%lld", (long long)n);
	core_html_elemtext(h, CORE_TAG_TEXT,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, cls },
		{ CORE_ATTR_X, x },
		{ CORE_ATTR_Y, pages_svg_num(ys, sizeof(ys), y) },
		{ CORE_ATTR_TEXT_ANCHOR, "middle" },
		{ CORE_ATTR__MAX, NULL },
	    },
	    t);
}

void
pages_timeline_svg(struct core_html *h, const json_t *years)
{
	json_int_t count[TL_SPAN], y, c, lo, hi, max;
	char vb[48], x[16], bx[16], by[16], bw[16], bh[16];
	struct core_buf aria = CORE_BUF_INIT;
	const json_t *o;
	size_t i, span, every;
	double bar;

	lo = hi = max = 0;
	for (i = 0; i < json_array_size(years); i++) {
		o = json_array_get(years, i);
		y = int_field(o, "year", 0);
		if (y < 1000 || y > 9999 || int_field(o, "count", 0) <= 0)
			continue;
		if (lo == 0 || y < lo)
			lo = y;
		if (y > hi)
			hi = y;
	}
	if (hi == 0)
		return;
	/* A long career keeps its recent end. */
	if (hi - lo + 1 > TL_SPAN)
		lo = hi - TL_SPAN + 1;
	span = (size_t)(hi - lo + 1);
	memset(count, 0, sizeof(count));
	for (i = 0; i < json_array_size(years); i++) {
		o = json_array_get(years, i);
		y = int_field(o, "year", 0);
		c = int_field(o, "count", 0);
		/* Repeated years add up; counts are capped to stay sane. */
		if (y < lo || y > hi || c <= 0)
			continue;
		count[y - lo] += c < 1000000 ? c : 1000000;
		if (count[y - lo] > max)
			max = count[y - lo];
	}
	/* Labels at least about 56 units apart once years get crowded. */
	every = span <= 12 ? 1 : (span + 11) / 12;

	snprintf(vb, sizeof(vb), "0 0 %.0f %.0f", TL_SLOT * (double)span,
	    TL_TOP + TL_BARS + TL_FOOT);
	core_buf_printf(&aria, "Publications per year, %lld to %lld",
	    (long long)lo, (long long)hi);
	svg_open(h, vb, "img", &aria, "timeline");
	for (i = 0; i < span; i++) {
		c = count[i];
		y = lo + (json_int_t)i;
		core_html_elem(h, CORE_TAG_G,
		    (const struct core_attr[]){
			{ CORE_ATTR_CLASS, "tl-year" },
			{ CORE_ATTR__MAX, NULL },
		    });
		core_html_elem(h, CORE_TAG_SVGTITLE, NULL);
		core_html_textf(h, "%lld: %lld paper%s", (long long)y,
		    (long long)c, c == 1 ? "" : "s");
		core_html_pop(h);
		pages_svg_num(x, sizeof(x), TL_SLOT * ((double)i + 0.5));
		if (c > 0) {
			/* At least one unit tall, so a 1 next to a 500 shows. */
			bar = TL_BARS * (double)c / (double)max;
			bar = bar < 1 ? 1 : bar;
			core_html_elem(h, CORE_TAG_RECT,
			    (const struct core_attr[]){
				{ CORE_ATTR_CLASS, "tl-bar" },
				{ CORE_ATTR_X,
				    pages_svg_num(bx, sizeof(bx),
					TL_SLOT * (double)i +
					    (TL_SLOT - TL_BAR) / 2) },
				{ CORE_ATTR_Y,
				    pages_svg_num(by, sizeof(by),
					TL_TOP + TL_BARS - bar) },
				{ CORE_ATTR_WIDTH,
				    pages_svg_num(bw, sizeof(bw), TL_BAR) },
				{ CORE_ATTR_HEIGHT,
				    pages_svg_num(bh, sizeof(bh), bar) },
				{ CORE_ATTR__MAX, NULL },
			    });
			tl_number(h, "tl-count", x, TL_TOP + TL_BARS - bar - 3,
			    c);
		}
		/* The last year is always labelled, then every "every"th. */
		if ((span - 1 - i) % every == 0) {
			tl_number(h, "tl-label", x, TL_TOP + TL_BARS + 12, y);
		}
		core_html_pop(h);
	}
	core_html_pop(h);
	core_buf_free(&aria);
}
