/*
 * test_svg.c -- the co-author network and timeline SVGs: well-formed
 * XML whatever the names and URLs, escaped, deterministic, laid out as
 * promised.
 * The functions come from libpages.a, which the Makefile links into
 * every test.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core.h"
#include "../../modules/pages/network_svg.h"
#include "t.h"

/* The <svg> element of s (the network's name list follows it). */
static xmlDocPtr
parse(const char *s)
{
	const char *end = strstr(s, "</svg>");
	int n = end != NULL ? (int)(end - s) + 6 : (int)strlen(s);

	return xmlReadMemory(s, n, "svg.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

static char *
net_render(const json_t *net, const char *base, enum core_err *er)
{
	struct core_buf b = CORE_BUF_INIT;
	struct core_html h;

	core_html_open(&h, core_buf_sink(&b));
	pages_network_svg(&h, net, base);
	*er = core_html_close(&h);
	return core_buf_steal(&b);
}

static char *
tl_render(const json_t *years, enum core_err *er)
{
	struct core_buf b = CORE_BUF_INIT;
	struct core_html h;

	core_html_open(&h, core_buf_sink(&b));
	pages_timeline_svg(&h, years);
	*er = core_html_close(&h);
	return core_buf_steal(&b);
}

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* The first element named name below n, depth first. */
static xmlNodePtr
first(xmlNodePtr n, const char *name)
{
	xmlNodePtr c, r;

	for (c = n->children; c != NULL; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, name) == 0)
			return c;
		if ((r = first(c, name)) != NULL)
			return r;
	}
	return NULL;
}

/*
 * The distance from the centre of the circle in the node whose <title>
 * starts with name; -1 if there is none.
 */
static double
radius_of(xmlDocPtr doc, const char *name)
{
	xmlNodePtr nodes, a, t, c;
	xmlChar *title, *cx, *cy;
	double r = -1;

	nodes = first(xmlDocGetRootElement(doc), "g");
	nodes = nodes != NULL ? nodes->next : NULL; /* net-edges, net-nodes */
	for (a = nodes != NULL ? nodes->children : NULL; a != NULL;
	     a = a->next) {
		if ((t = first(a, "title")) == NULL ||
		    (c = first(a, "circle")) == NULL)
			continue;
		title = xmlNodeGetContent(t);
		if (strncmp((const char *)title, name, strlen(name)) == 0) {
			cx = xmlGetProp(c, (const xmlChar *)"cx");
			cy = xmlGetProp(c, (const xmlChar *)"cy");
			r = hypot(atof((const char *)cx) - 240,
			    atof((const char *)cy) - 240);
			xmlFree(cx);
			xmlFree(cy);
		}
		xmlFree(title);
	}
	return r;
}

static void
test_network(void)
{
	json_t *net, *nodes, *edges, *perm;
	enum core_err er;
	xmlDocPtr doc;
	char *s, *s2, name[32];
	const char *p, *q;
	int i;

	net = json_pack("{s:{s:i, s:s, s:s}}", "center", "id", 1, "name",
	    "Ada \"</script><script>alert(1)</script>\" Lovelace", "url",
	    "/researchers/1-ada");
	nodes = json_array();
	edges = json_array();
	json_array_append_new(nodes,
	    json_pack("{s:i, s:s, s:s, s:i}", "id", 2, "name",
		"Charles Babbage", "url", "/researchers/2-cb", "papers", 12));
	json_array_append_new(nodes,
	    json_pack("{s:i, s:o, s:s, s:i}", "id", 3, "name",
		json_stringn_nocheck("Bad\x01 \xff\xfe Name", 12), "url",
		"javascript:alert(1)", "papers", 1));
	json_array_append_new(nodes,
	    json_pack("{s:i, s:s, s:s, s:i}", "id", 4, "name",
		"O'Hara & <Sons>", "url", " JaVaScRiPt:x", "papers", 3));
	json_array_append_new(nodes,
	    json_pack("{s:i, s:s, s:i}", "id", 5, "name", "Curie, Marie",
		"papers", 2));
	json_array_append_new(edges,
	    json_pack("{s:i, s:i, s:i}", "a", 1, "b", 2, "weight", 9));
	json_array_append_new(edges,
	    json_pack("{s:i, s:i, s:i}", "a", 3, "b", 1, "weight", 1));
	json_array_append_new(edges,
	    json_pack("{s:i, s:i, s:i}", "a", 1, "b", 4, "weight", 2));
	json_array_append_new(edges,
	    json_pack("{s:i, s:i, s:i}", "a", 2, "b", 4, "weight", 1));
	json_array_append_new(edges,
	    json_pack("{s:i, s:i, s:i}", "a", 2, "b", 99, "weight", 1));
	json_object_set_new(net, "nodes", nodes);
	json_object_set_new(net, "edges", edges);

	s = net_render(net, "", &er);
	T_EQ(er, CORE_OK, "network: no error");
	doc = parse(s);
	T_OK(doc != NULL, "network SVG parses as XML");
	T_OK(strncmp(s,
		 "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		 "viewBox=\"0 0 480 480\" role=\"group\" "
		 "aria-label=\"Co-author "
		 "network of Ada &quot;&lt;/script&gt;&lt;script&gt;alert(1)"
		 "&lt;/script&gt;&quot; Lovelace\" class=\"net\">",
		 100) == 0,
	    "svg element with viewBox, role and escaped aria-label");
	T_LACKS(s, "<script", "no script element");
	T_LACKS(s, "javascript", "unsafe URLs emptied");
	T_LACKS(s, "JaVaScRiPt", "unsafe URL with spaces emptied");
	T_LACKS(s, "style=", "no inline style");
	T_LACKS(s, "\x01", "no control characters");
	T_CONTAINS(s,
	    "<title>Bad \xef\xbf\xbd\xef\xbf\xbd Name, 1 joint paper"
	    "</title>",
	    "bad UTF-8 replaced in the title");
	T_CONTAINS(s,
	    "<title>O&#39;Hara &amp; &lt;Sons&gt;, 2 joint papers"
	    "</title>",
	    "title escaped");
	T_CONTAINS(s, "<title>Charles Babbage, 9 joint papers</title>",
	    "weight from the centre edge");
	T_CONTAINS(s, "<title>Curie, Marie, 2 joint papers</title>",
	    "weight from papers without an edge");
	T_CONTAINS(s, "<a href=\"/researchers/2-cb\" class=\"net-node\">",
	    "node link");
	T_CONTAINS(s,
	    "<a href=\"/researchers/1-ada\" class=\"net-node "
	    "net-centre\">",
	    "centre link");
	T_CONTAINS(s, "<g class=\"net-node\"><title>Curie", "no URL: a group");
	T_CONTAINS(s, ">C. Babbage</text>", "initial and surname label");
	T_CONTAINS(s, ">M. Curie</text>", "surname before a comma");
	T_CONTAINS(s, ">O. &lt;Sons&gt;</text>", "label escaped");
	T_CONTAINS(s,
	    "<details class=\"net-list\"><summary>The 4 co-authors drawn, "
	    "by joint papers</summary>",
	    "the names in full under the drawing");
	T_CONTAINS(s,
	    "<li><a href=\"/researchers/2-cb\">Charles Babbage</a>"
	    "<span class=\"faint\"> 9</span></li>",
	    "a name in full, linked, with its joint papers");
	T_EQ(count(s, "<line "), 4, "edge to an unknown node skipped");
	T_EQ(count(s, "class=\"net-edge net-spoke\""), 3, "three spokes");
	T_CONTAINS(s, "stroke-width=\"3.0\"", "weight 9 edge is 3.0 wide");
	T_CONTAINS(s, "stroke-width=\"1.5\"", "weight 1 edge is 1.5 wide");
	T_EQ(count(s, "<circle"), 5, "five circles");
	xmlFreeDoc(doc);

	s2 = net_render(net, "", &er);
	T_STREQ(s2, s, "deterministic");
	free(s2);

	/* Node order in the input does not matter. */
	perm = json_deep_copy(net);
	nodes = json_object_get(perm, "nodes");
	json_array_insert(nodes, 0, json_array_get(nodes, 3));
	json_array_remove(nodes, 4);
	json_array_append(nodes, json_array_get(nodes, 1));
	json_array_remove(nodes, 1);
	s2 = net_render(perm, "", &er);
	T_STREQ(s2, s, "independent of node order");
	free(s2);
	json_decref(perm);

	s2 = net_render(net, "/weft/", &er);
	T_CONTAINS(s2, "href=\"/weft/researchers/2-cb\"", "base_path prefix");
	free(s2);
	free(s);
	json_decref(net);

	/* Many co-authors: two rings, heavier closer, at most 36. */
	net = json_pack("{s:{s:i, s:s, s:s}, s:[], s:[]}", "center", "id", 1,
	    "name", "Centre", "url", "/researchers/1", "nodes", "edges");
	nodes = json_object_get(net, "nodes");
	edges = json_object_get(net, "edges");
	for (i = 2; i < 52; i++) {
		snprintf(name, sizeof(name), "N%02d Person%d", i, i);
		json_array_append_new(nodes,
		    json_pack("{s:i, s:s, s:s, s:i}", "id", i, "name", name,
			"url", "/r", "papers", i));
		json_array_append_new(edges,
		    json_pack("{s:i, s:i, s:i}", "a", 1, "b", i, "weight", i));
	}
	s = net_render(net, NULL, &er);
	T_EQ(er, CORE_OK, "many: no error");
	T_EQ(count(s, "class=\"net-node\""), 36, "at most 36 co-authors");
	T_LACKS(s, "N02 ", "the lightest are left out");
	doc = parse(s);
	T_OK(doc != NULL, "many: parses");
	if (doc != NULL) {
		T_OK(fabs(radius_of(doc, "N51") - 110) < 0.5,
		    "heaviest on the inner ring");
		T_OK(fabs(radius_of(doc, "N16") - 190) < 0.5,
		    "lightest on the outer ring");
		T_OK(radius_of(doc, "Centre") < 0.5, "centre in the middle");
	}
	xmlFreeDoc(doc);
	free(s);
	json_decref(net);

	/* Co-authors who write together sit next to each other. */
	net = json_pack("{s:{s:i}, s:[], s:[[iii][iii]]}", "center", "id", 1,
	    "nodes", "edges", 2, 5, 1, 3, 6, 1);
	nodes = json_object_get(net, "nodes");
	edges = json_object_get(net, "edges");
	for (i = 0; i < 2; i++) {
		json_t *e = json_array_get(edges, 0);

		json_array_append_new(edges,
		    json_pack("{s:O, s:O}", "a", json_array_get(e, 0), "b",
			json_array_get(e, 1)));
		json_array_remove(edges, 0);
	}
	for (i = 2; i < 8; i++) {
		snprintf(name, sizeof(name), "P%d", i);
		json_array_append_new(nodes,
		    json_pack("{s:i, s:s, s:i}", "id", i, "name", name,
			"papers", 1));
	}
	s = net_render(net, NULL, &er);
	p = strstr(s, "<title>P2,");
	q = p != NULL ? strstr(p + 1, "<title>") : NULL;
	T_OK(q != NULL && strncmp(q, "<title>P5,", 10) == 0,
	    "P5 follows its co-author P2");
	p = strstr(s, "<title>P3,");
	q = p != NULL ? strstr(p + 1, "<title>") : NULL;
	T_OK(q != NULL && strncmp(q, "<title>P6,", 10) == 0,
	    "P6 follows its co-author P3");
	T_CONTAINS(s, "aria-label=\"Co-author network of ?\"",
	    "centre without a name");
	doc = parse(s);
	T_OK(doc != NULL, "cluster: parses");
	xmlFreeDoc(doc);
	free(s);
	json_decref(net);

	/* Nothing to draw. */
	net = json_pack("{s:{s:i}, s:[], s:[]}", "center", "id", 1, "nodes",
	    "edges");
	s = net_render(net, NULL, &er);
	T_STREQ(s, "", "no co-authors: nothing");
	free(s);
	json_decref(net);
	net = json_pack("{s:[{s:i}]}", "nodes", "id", 2);
	s = net_render(net, NULL, &er);
	T_STREQ(s, "", "no centre: nothing");
	free(s);
	json_decref(net);
	s = net_render(NULL, NULL, &er);
	T_STREQ(s, "", "NULL: nothing");
	T_EQ(er, CORE_OK, "and no error");
	free(s);
}

static void
test_timeline(void)
{
	json_t *years;
	enum core_err er;
	xmlDocPtr doc;
	char *s;
	int i;

	years = json_pack("[{s:i,s:i},{s:i,s:i},{s:i,s:i},{s:s,s:i}]", "year",
	    2022, "count", 5, "year", 2020, "count", 2, "year", 2019, "count",
	    0, "year", "x", "count", 3);
	s = tl_render(years, &er);
	T_EQ(er, CORE_OK, "timeline: no error");
	doc = parse(s);
	T_OK(doc != NULL, "timeline parses as XML");
	xmlFreeDoc(doc);
	T_OK(strncmp(s,
		 "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 "
		 "0 84 110\" role=\"img\" aria-label=\"Publications per year, "
		 "2020 "
		 "to 2022\" class=\"timeline\">",
		 80) == 0,
	    "svg element");
	T_EQ(count(s, "<g class=\"tl-year\">"), 3, "one group per year");
	T_EQ(count(s, "<rect"), 2, "a bar per year with papers");
	T_CONTAINS(s, "<title>2021: 0 papers</title>", "gap year titled");
	T_CONTAINS(s, "<title>2022: 5 papers</title>", "bar title");
	T_CONTAINS(s, "height=\"80.0\"", "tallest bar full height");
	T_CONTAINS(s, "height=\"32.0\"", "2 of 5 is 32");
	T_CONTAINS(s,
	    "class=\"tl-label\" x=\"14.0\" y=\"106.0\" "
	    "text-anchor=\"middle\">2020</text>",
	    "year label");
	T_CONTAINS(s, ">5</text>", "count label");
	T_LACKS(s, "style=", "no inline style");
	free(s);
	json_decref(years);

	years = json_array();
	for (i = 1900; i <= 2024; i++)
		json_array_append_new(years,
		    json_pack("{s:i,s:i}", "year", i, "count", i % 3));
	s = tl_render(years, &er);
	T_CONTAINS(s, "1965 to 2024", "at most 60 years, the recent ones");
	T_EQ(count(s, "class=\"tl-label\""), 12, "labels thinned to 12");
	T_CONTAINS(s, ">2024</text></g></svg>", "last year labelled");
	doc = parse(s);
	T_OK(doc != NULL, "long timeline parses");
	xmlFreeDoc(doc);
	free(s);
	json_decref(years);

	years = json_pack("[{s:i,s:i}]", "year", 2020, "count", 0);
	s = tl_render(years, &er);
	T_STREQ(s, "", "no papers: nothing");
	free(s);
	json_decref(years);
	s = tl_render(NULL, &er);
	T_STREQ(s, "", "NULL: nothing");
	free(s);
}

/* How many of the values pages_svg_num() writes unlike "%.1f". */
static int
num_mismatches(const double *v, size_t n)
{
	char want[64], got[64];
	size_t i;
	int bad = 0;

	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%.1f", v[i]);
		pages_svg_num(got, sizeof(got), v[i]);
		bad += strcmp(want, got) != 0;
	}
	return bad;
}

static void
test_num(void)
{
	static const double fixed[] = { 0, -0.0, 0.04, 0.05, 0.15, 0.25, 0.35,
		1.45, 2.5, 239.95, 240, 479.99, 1e9, 1e12, -3.25, -0.04,
		1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 123456789.95, 5e-324 };
	double *v;
	size_t i, n = 0;
	unsigned long x = 7;
	char small[8];

	T_OK(num_mismatches(fixed, sizeof(fixed) / sizeof(fixed[0])) == 0,
	    "num: special values as printf");
	/* The drawings' own kind of values: sums of sines and square roots,
	 * exact ties and their neighbours (one ulp apart). */
	v = malloc(400000 * sizeof(*v));
	for (i = 0; i < 100000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		v[n++] = 240 + 190 * cos((double)(x >> 11) * 1e-6);
		v[n++] = 5 + 1.5 * sqrt((double)(i % 5000));
		v[n++] = nextafter((double)i / 20, 0);
		v[n++] = nextafter((double)i / 20, 1e9);
	}
	T_OK(num_mismatches(v, n) == 0, "num: 400,000 values as printf");
	for (i = 0; i < 10000; i++)
		v[i] = (double)i / 20; /* x.x5: printf rounds the exact value */
	T_OK(num_mismatches(v, 10000) == 0, "num: ties as printf");
	free(v);
	T_STREQ(pages_svg_num(small, sizeof(small), 12.34), "12.3",
	    "num: a short buffer still formats");
}

/*
 * A dense network: every pair of 10 co-authors wrote together (45
 * chords): only the 2 x 10 heaviest are drawn, with every spoke; two
 * co-authors whose short labels are the same ("H. Li") get full names.
 */
static void
test_dense(void)
{
	json_t *net = json_object(), *nodes = json_array(),
	       *edges = json_array();
	enum core_err er;
	char name[32], *s;
	int i, j;

	json_object_set_new(net, "center",
	    json_pack("{s:i, s:s}", "id", 1, "name", "Han Li"));
	for (i = 2; i <= 11; i++) {
		if (i == 2)
			snprintf(name, sizeof(name), "Hui Li");
		else if (i == 3)
			snprintf(name, sizeof(name), "Hao Li");
		else
			snprintf(name, sizeof(name), "Person%d Name%d", i, i);
		json_array_append_new(nodes,
		    json_pack("{s:i, s:s, s:i}", "id", i, "name", name,
			"papers", 3));
		json_array_append_new(edges,
		    json_pack("{s:i, s:i, s:i}", "a", 1, "b", i, "weight", 3));
		for (j = i + 1; j <= 11; j++)
			json_array_append_new(edges,
			    json_pack("{s:i, s:i, s:i}", "a", i, "b", j,
				"weight", i == 2 ? 5 : 1));
	}
	json_object_set_new(net, "nodes", nodes);
	json_object_set_new(net, "edges", edges);
	s = net_render(net, "", &er);
	T_EQ(er, CORE_OK, "dense: no error");
	T_EQ(count(s, "class=\"net-edge net-spoke\""), 10,
	    "dense: every spoke");
	T_EQ(count(s, "class=\"net-edge\""), 20,
	    "dense: the 20 heaviest of 45 chords");
	T_CONTAINS(s, ">Hui Li</text>", "shared short label: full name");
	T_CONTAINS(s, ">Hao Li</text>", "... for both");
	T_CONTAINS(s, ">P. Name5</text>", "others: initial and surname");
	free(s);
	json_decref(net);
}

int
main(void)
{
	test_num();
	test_network();
	test_dense();
	test_timeline();
	xmlCleanupParser();
	return T_DONE();
}
