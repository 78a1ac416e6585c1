/*
 * test_harvest_arxivraw.c -- the OAI-PMH arXivRaw format through
 * harvest_oai_parse() (tests/data/harvest/arxivraw, re-serialised from
 * arXiv's own .abs files), its authors line, and broken records.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"
#include "t.h"
#include "harvest_data.h"

#define HEAD                                                                   \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OAI-PMH xmlns=\""        \
	"http://www.openarchives.org/OAI/2.0/\"><responseDate>2008-12-13T17:"  \
	"26:00Z</responseDate><request verb=\"ListRecords\">http://export."    \
	"arxiv.org/oai2</request><ListRecords><record><header><identifier>"    \
	"oai:arXiv.org:0704.0004</identifier><datestamp>2007-03-31</"          \
	"datestamp></header><metadata><arXivRaw xmlns=\"http://arxiv.org/OAI/" \
	"arXivRaw/\">"
#define TAIL "</arXivRaw></metadata></record></ListRecords></OAI-PMH>"

/* The authors line s, as "name|aff;aff/name|..." for comparison. */
static char *
authors(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	json_t *a = harvest_arxivraw_authors(s), *e, *f;
	size_t i, j;

	json_array_foreach(a, i, e)
	{
		core_buf_printf(&b, "%s%s|", i ? "/" : "",
		    json_string_value(json_object_get(e, "name")));
		json_array_foreach(json_object_get(e, "affiliations"), j, f)
		    core_buf_printf(&b, "%s%s", j ? ";" : "",
			json_string_value(f));
	}
	json_decref(a);
	core_buf_cstr(&b);
	return core_buf_steal(&b);
}

static enum core_err
one(const char *body, struct harvest_page *pg, char *why)
{
	char *s = core_xasprintf("%s%s%s", HEAD, body, TAIL);
	enum core_err er = harvest_oai_parse(s, strlen(s), pg, why);

	free(s);
	return er;
}

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN], *s, *d;
	json_t *p, *v;

	T_OK(data_read("arxivraw/ListRecords_arXivRaw_0704.xml", &b) == 0,
	    "read arXivRaw page");
	T_EQ(harvest_oai_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse arXivRaw page");
	T_EQ(json_array_size(pg.papers), 15, "15 papers");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "0704.0001", "id");
	T_STREQ(jstr(p, "source"), "arxiv-oai-raw", "source");
	T_STREQ(jstr(p, "submitter"), "Pavel Nadolsky", "submitter");
	T_STREQ(jstr(p, "title"),
	    "Calculation of prompt diphoton production cross sections at "
	    "Tevatron and LHC energies",
	    "title squashed");
	T_STREQ(jstr(p, "published"), "2007-04-02", "v1 date");
	T_STREQ(jstr(p, "updated"), "2007-07-24", "v2 date");
	T_EQ(json_integer_value(json_object_get(p, "version")), 2, "version 2");
	d = json_dumps(json_object_get(p, "versions"), JSON_COMPACT);
	T_STREQ(d,
	    "[{\"version\":1,\"date\":\"2007-04-02\",\"size\":\"443kb\"},"
	    "{\"version\":2,\"date\":\"2007-07-24\",\"size\":\"370kb\"}]",
	    "versions with dates and sizes");
	free(d);
	T_STREQ(jstr(p, "doi"), "10.1103/PhysRevD.76.013009", "doi");
	T_STREQ(jstr(p, "journal_ref"), "Phys.Rev.D76:013009,2007",
	    "journal-ref");
	T_STREQ(jstr(p, "comment"), "37 pages, 15 figures; published version",
	    "comment");
	T_OK(json_is_null(json_object_get(p, "license")), "no licence");
	T_OK(strncmp(jstr(p, "abstract"), "A fully differential", 20) == 0,
	    "abstract trimmed");
	T_OK(strchr(jstr(p, "abstract"), '\n') != NULL,
	    "abstract keeps its lines");
	v = json_object_get(p, "authors");
	T_EQ(json_array_size(v), 4, "four authors");
	T_STREQ(jstr(json_array_get(v, 0), "name"), "C. Bal\\'azs",
	    "TeX left to the harvester");
	T_STREQ(jstr(json_array_get(v, 3), "name"), "C.-P. Yuan",
	    "last author");

	/* MSC classes after the categories, for harvest_class_codes(). */
	p = json_array_get(pg.papers, 1);
	d = json_dumps(json_object_get(p, "categories"), JSON_COMPACT);
	T_STREQ(d,
	    "[\"math.CO\",\"cs.CG\",\"05C85\",\"05C70\",\"68R10\","
	    "\"05B35\"]",
	    "categories then MSC classes");
	free(d);
	T_STREQ(jstr(p, "primary"), "math.CO", "primary");
	T_STREQ(jstr(json_array_get(json_object_get(p, "versions"), 0), "size"),
	    "377kb", "size without the source type");
	p = json_array_get(pg.papers, 2);
	T_EQ(json_array_size(json_object_get(p, "versions")), 3,
	    "three versions");
	T_STREQ(jstr(p, "updated"), "2008-01-13", "v3 date");

	/* Numbered affiliations: "(1 and 2)" into the list at the end. */
	p = json_array_get(pg.papers, 10);
	T_STREQ(jstr(p, "arxiv_id"), "0704.0025", "0704.0025");
	v = json_object_get(p, "authors");
	T_EQ(json_array_size(v), 2, "two authors");
	d = json_dumps(json_array_get(v, 1), JSON_COMPACT);
	T_STREQ(d,
	    "{\"name\":\"N. Nagaosa\",\"affiliations\":[\"CREST, Japan "
	    "Science and Technology Agency\",\"The University of Tokyo\"]}",
	    "references resolved");
	free(d);
	p = json_array_get(pg.papers, 11);
	v = json_object_get(p, "authors");
	T_EQ(json_array_size(v), 7, "0704.0044: seven authors");
	d = json_dumps(json_array_get(v, 0), JSON_COMPACT);
	T_STREQ(d,
	    "{\"name\":\"A. A. Schekochihin\",\"affiliations\":[\"Oxford\"]}",
	    "name without its affiliation");
	free(d);
	harvest_page_free(&pg);

	/* The authors line. */
	s = authors("Ileana Streinu and Louis Theran");
	T_STREQ(s, "Ileana Streinu|/Louis Theran|", "A and B");
	free(s);
	s = authors("A. One, B. Two, and C. Three");
	T_STREQ(s, "A. One|/B. Two|/C. Three|", "serial comma");
	free(s);
	s = authors("Arthur Jaffe (1) and Gordon Ritter (1) ((1) "
		    "Harvard University)");
	T_STREQ(s,
	    "Arthur Jaffe|Harvard University/Gordon Ritter|Harvard University",
	    "a legend shared");
	free(s);
	s = authors("Francisco J. Botella (Valencia U. & Valencia U., IFIC), "
		    "Miguel Nebot (Lisbon, IST)");
	T_STREQ(s,
	    "Francisco J. Botella|Valencia U. & Valencia U., IFIC/"
	    "Miguel Nebot|Lisbon, IST",
	    "commas inside parentheses");
	free(s);
	s = authors("Alexander Andersen, Sandra Anderson et al.");
	T_STREQ(s, "Alexander Andersen|/Sandra Anderson et al.|",
	    "et al. kept in the last name (as arXiv shows it)");
	free(s);
	s = authors("A. B, et al.");
	T_STREQ(s, "A. B|", "a lone et al. dropped");
	free(s);
	s = authors("Unclosed (Group, B. Two");
	T_STREQ(s, "Unclosed|", "an unclosed group swallows the rest");
	free(s);
	s = authors(NULL);
	T_STREQ(s, "", "NULL: none");
	free(s);
	s = authors(" , and ,");
	T_STREQ(s, "", "separators only: none");
	free(s);
	s = authors("Maandla (1) ((1) )");
	T_STREQ(s, "Maandla|", "an empty legend entry");
	free(s);

	/* Broken records: the page is refused with a reason. */
	T_EQ(one("<id>0704.0004</id><title>T</title><categories>math.CO"
		 "</categories>",
		 &pg, why),
	    CORE_EINPUT, "no version");
	T_OK(strstr(why, "no version") != NULL, "why: no version");
	T_EQ(one("<id>0704.0004</id><version version=\"v1\"><date>someday"
		 "</date></version><title>T</title><categories>math.CO"
		 "</categories>",
		 &pg, why),
	    CORE_EINPUT, "a version without a date");
	T_EQ(one("<id>0704.0004</id><version version=\"v2\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date></version><version version=\"v1\">"
		 "<date>Sat, 31 Mar 2007 03:16:14 GMT</date></version><title>T"
		 "</title><categories>math.CO</categories>",
		 &pg, why),
	    CORE_EINPUT, "versions out of order");
	T_EQ(one("<id>0704.0004</id><version version=\"1\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date></version><title>T</title>"
		 "<categories>math.CO</categories>",
		 &pg, why),
	    CORE_EINPUT, "a version number without v");
	T_EQ(one("<id>not-an-id</id><version version=\"v1\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date></version><title>T</title>"
		 "<categories>math.CO</categories>",
		 &pg, why),
	    CORE_EINPUT, "a bad id");
	T_OK(strstr(why, "bad id") != NULL, "why: bad id");
	T_EQ(one("<id>0704.0004</id><version version=\"v1\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date></version><title>T</title>",
		 &pg, why),
	    CORE_EINPUT, "no categories");
	T_EQ(one("<id>0704.0004</id><version version=\"v1\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date></version><categories>math.CO"
		 "</categories>",
		 &pg, why),
	    CORE_EINPUT, "no title");
	T_EQ(one("<id>0704.0004</id><version version=\"v1\"><date>Sat, 31 Mar "
		 "2007 03:16:14 GMT</date><size>9kb</size></version><title>A "
		 "&amp; B</title><authors>David Callan</authors><categories>"
		 "math.CO</categories><acm-class>F.2.2; G.2.1</acm-class>",
		 &pg, why),
	    CORE_OK, "a minimal record");
	p = json_array_get(pg.papers, 0);
	d = json_dumps(json_object_get(p, "categories"), JSON_COMPACT);
	T_STREQ(d, "[\"math.CO\",\"F.2.2\",\" G.2.1\"]", "ACM classes");
	free(d);
	T_OK(json_is_null(json_object_get(p, "submitter")), "no submitter");
	T_STREQ(jstr(p, "abstract"), "", "no abstract: empty");
	harvest_page_free(&pg);

	core_buf_free(&b);
	return T_DONE();
}
