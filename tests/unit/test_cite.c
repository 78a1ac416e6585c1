/*
 * test_cite.c -- core's citation writers (cite.c): BibTeX, RIS and
 * CSL-JSON of hostile titles and names, and the keys of a list.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

static json_t *
paper(const char *id, const char *title, const char *first,
    const char *published)
{
	return json_pack("{s:s,s:s,s:[{s:s},{s:s}],s:s,s:s,s:s,s:s,"
			 "s:{s:s,s:s}}",
	    "arxiv_id", id, "title", title, "authors", "name", first, "name",
	    "Anna and Bo Li", "published", published, "primary_category",
	    "cs.DB", "doi", "10.1/x_y", "abstract", "Line one\nTY  - JOUR\r\nx",
	    "links", "abs", "https://arxiv.org/abs/x", "pdf",
	    "https://arxiv.org/pdf/x");
}

static char *
write_list(enum core_rep rep, json_t *papers)
{
	struct core_buf b = CORE_BUF_INIT;
	struct core_cite c;
	char *s;

	core_cite_open(&c, rep, &b);
	core_cite_add_all(&c, papers);
	core_cite_close(&c);
	s = core_xstrdup(core_buf_cstr(&b));
	core_buf_free(&b);
	return s;
}

static void
test_keys(void)
{
	json_t *a = paper("2501.00001", "The Graph Databases", "José Müller",
	    "2025-01-02");
	json_t *l = json_array(), *p;
	char *k, *s;
	int i;

	k = core_cite_key(a);
	T_STREQ(k, "muller2025graph", "key: last name, year, first long word");
	free(k);
	p = paper("2501.00002", "", "", "");
	k = core_cite_key(p);
	T_STREQ(k, "arxiv2501_00002", "key: from the id without author/year");
	free(k);
	json_decref(p);
	p = paper("math.GT/0309136", "x", "李", "2003");
	k = core_cite_key(p);
	T_STREQ(k, "arxivmath_gt_0309136", "key: old id, no ASCII name");
	free(k);
	json_decref(p);

	/* Four papers with the same key, and one whose own key is the
	 * second's suffixed key. */
	for (i = 0; i < 4; i++)
		json_array_append_new(l,
		    paper("2501.00001", "Graph things", "Ann Lee",
			"2025-01-01"));
	json_array_append_new(l,
	    paper("2501.00009", "Graphb things", "Ann Lee", "2025-01-01"));
	s = write_list(CORE_REP_BIB, l);
	T_CONTAINS(s, "@misc{lee2025graph,", "list: first keeps its key");
	T_CONTAINS(s, "@misc{lee2025graphb,", "list: second gets b");
	T_CONTAINS(s, "@misc{lee2025graphc,", "list: third gets c");
	T_CONTAINS(s, "@misc{lee2025graphd,", "list: fourth gets d");
	T_CONTAINS(s, "@misc{lee2025graphbb,", "list: a taken key moves on");
	free(s);
	json_decref(l);
	json_decref(a);
}

static void
test_bib(void)
{
	json_t *l = json_array();
	char *s;

	json_array_append_new(l,
	    paper("2501.00001", "}{\\input{/etc/passwd} $x^2$ 100% #1 a_b ~",
		"Éva \"Q\" O'Neil}", "2025-01-02"));
	s = write_list(CORE_REP_BIB, l);
	T_LACKS(s, "\\input", "bib: no command from a title");
	T_CONTAINS(s, "title = {\\}\\{\\textbackslash{}input\\{/etc/passwd\\}",
	    "bib: braces and backslash escaped");
	T_CONTAINS(s, "x²", "bib: TeX math made plain");
	T_CONTAINS(s, "100\\% \\#1 a\\_b \\~{}", "bib: specials escaped");
	T_CONTAINS(s, "author = {Éva \"Q\" O'Neil\\} and {Anna and Bo Li}}",
	    "bib: a name with 'and' is braced");
	T_CONTAINS(s, "doi = {10.1/x\\_y}", "bib: doi escaped");
	T_CONTAINS(s, "eprint = {2501.00001}", "bib: eprint");
	free(s);
	json_decref(l);
}

static void
test_ris(void)
{
	json_t *l = json_array();
	char *s;

	json_array_append_new(l,
	    paper("2501.00001", "A\nTY  - BOOK\n title", "Ann\r\nER  - Lee",
		"2025-01-02"));
	json_array_append_new(l,
	    paper("2501.00002", "Second", "Bo Li", "2024-12-31"));
	s = write_list(CORE_REP_RIS, l);
#define RIS_HEAD "TY  - UNPB\r\nID  - lee2025book\r\n"
	T_OK(strncmp(s, RIS_HEAD, strlen(RIS_HEAD)) == 0,
	    "ris: TY first, then the key");
	T_CONTAINS(s, "TI  - A TY  - BOOK  title\r\n",
	    "ris: a line break cannot start a tag");
	T_CONTAINS(s, "AU  - Ann ER  - Lee\r\n", "ris: nor end the record");
	T_CONTAINS(s, "AB  - Line one TY  - JOUR x\r\n",
	    "ris: abstract folded");
	T_CONTAINS(s, "DA  - 2025/01/02\r\n", "ris: date");
	T_CONTAINS(s, "PY  - 2024\r\n", "ris: year");
	T_CONTAINS(s, "AN  - arXiv:2501.00002\r\n", "ris: accession number");
	T_LACKS(s, "\nTY  - BOOK", "ris: no injected tag");
	T_LACKS(s, "\nER  - Lee", "ris: no injected end");
	{
		const char *p = s;
		int n = 0;

		while ((p = strstr(p, "ER  - \r\n")) != NULL) {
			n++;
			p++;
		}
		T_EQ(n, 2, "ris: two records");
	}
	free(s);
	json_decref(l);
}

static void
test_csl(void)
{
	json_t *l = json_array(), *v, *o;
	json_error_t e;
	char *s;

	s = write_list(CORE_REP_CSL, l);
	T_STREQ(s, "[]\n", "csl: empty list is []");
	free(s);
	json_array_append_new(l,
	    paper("2501.00001", "\"]}, {\"x\": 1 </script>", "Plato",
		"2025-01-02"));
	json_array_append_new(l,
	    paper("2501.00002", "B", "Ada King Lovelace", "2025"));
	s = write_list(CORE_REP_CSL, l);
	v = json_loads(s, 0, &e);
	T_OK(json_is_array(v) && json_array_size(v) == 2,
	    "csl: parses as an array of two");
	T_LACKS(s, "</script>", "csl: slash escaped");
	o = json_array_get(v, 0);
	T_STREQ(core_json_text(o, "title"), "\"]}, {\"x\": 1 </script>",
	    "csl: title exact");
	T_STREQ(core_json_text(json_array_get(json_object_get(o, "author"), 0),
		    "literal"),
	    "Plato", "csl: one-word name is literal");
	T_STREQ(core_json_text(o, "type"), "article", "csl: preprint");
	T_EQ(json_integer_value(json_array_get(
		 json_array_get(json_object_get(json_object_get(o, "issued"),
				    "date-parts"),
		     0),
		 2)),
	    2, "csl: day");
	o = json_array_get(v, 1);
	T_STREQ(core_json_text(json_array_get(json_object_get(o, "author"), 0),
		    "family"),
	    "Lovelace", "csl: family");
	T_STREQ(core_json_text(json_array_get(json_object_get(o, "author"), 0),
		    "given"),
	    "Ada King", "csl: given");
	json_decref(v);
	free(s);
	json_decref(l);
}

int
main(void)
{
	test_keys();
	test_bib();
	test_ris();
	test_csl();
	return T_DONE();
}
