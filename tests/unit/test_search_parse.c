/*
 * test_search_parse.c -- the pure parts of /search: date filters, the
 * websearch-like split of a query into positive and negated words, the
 * OR query, the highlight markers, and the renderers on a hostile model
 * (a query and a title full of markup come out escaped, marks as
 * <mark>).
 */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "../../modules/pages/pages.h"
#include "../../modules/pages/search/search.h"

#define BASE "http://weft.test"
#define ON   "\xee\x80\x80"
#define OFF  "\xee\x80\x81"
#define EVIL "<script>alert(1)</script>&\""

static void
dates(void)
{
	char d[11];

	T_EQ(pages_search_date("2025", 0, d), 0, "year accepted");
	T_STREQ(d, "2025-01-01", "a year from its first day");
	T_EQ(pages_search_date("2025", 1, d), 0, "year as upper bound");
	T_STREQ(d, "2025-12-31", "a year to its last day");
	T_EQ(pages_search_date("2024-02-29", 0, d), 0, "leap day");
	T_STREQ(d, "2024-02-29", "date kept");
	T_EQ(pages_search_date("2023-02-29", 0, d), -1, "no leap day in 2023");
	T_EQ(pages_search_date("1900-02-29", 0, d), -1, "no leap day in 1900");
	T_EQ(pages_search_date("2000-02-29", 0, d), 0, "leap day in 2000");
	T_EQ(pages_search_date("2025-13-01", 0, d), -1, "month 13");
	T_EQ(pages_search_date("2025-04-31", 0, d), -1, "April 31");
	T_EQ(pages_search_date("2025-00-10", 0, d), -1, "month 0");
	T_EQ(pages_search_date("2025-1-1", 0, d), -1, "unpadded");
	T_EQ(pages_search_date("25", 0, d), -1, "two digits");
	T_EQ(pages_search_date("0000", 0, d), -1, "year 0");
	T_EQ(pages_search_date("2025-01-01x", 0, d), -1, "trailing garbage");
	T_EQ(pages_search_date("yesterday", 0, d), -1, "a word");
	T_EQ(pages_search_date("", 0, d), -1, "empty");
	T_EQ(pages_search_date(NULL, 0, d), -1, "NULL");
	T_EQ(pages_search_date("2025-01-0\xff", 0, d), -1, "bytes");
}

static void
words_is(const char *q, const char *pos, const char *neg, const char *what)
{
	struct core_buf p = CORE_BUF_INIT, n = CORE_BUF_INIT;

	pages_search_words(q, &p, &n);
	T_STREQ(core_buf_cstr(&p), pos, what);
	T_STREQ(core_buf_cstr(&n), neg, what);
	core_buf_free(&p);
	core_buf_free(&n);
}

static void
words(void)
{
	struct core_buf b = CORE_BUF_INIT;

	words_is("program repair", "program repair", "", "two words");
	words_is("  spaced\t out  ", "spaced out", "", "whitespace");
	words_is("\"graph neural\" network", "graph neural network", "",
	    "a phrase's words are positive");
	words_is("llm -survey -\"code review\"", "llm",
	    "survey or \"code review\"", "negated word and phrase");
	words_is("fuzzing or testing OR proofs", "fuzzing testing proofs", "",
	    "or is an operator");
	words_is("state-of-the-art", "state-of-the-art", "",
	    "inner hyphen is no negation");
	words_is("\"unclosed phrase", "unclosed phrase", "", "unclosed quote");
	words_is("\"\" - -- \"", "", "", "only syntax");
	words_is("a\"b\"c", "a b c", "", "quotes inside a word");
	words_is("&:|!()<->", "&:|!()<->", "",
	    "tsquery syntax is only text here");
	words_is("", "", "", "empty");
	pages_search_or("a b  c", &b);
	T_STREQ(core_buf_cstr(&b), "a or b or c", "or query");
	core_buf_reset(&b);
	pages_search_or("", &b);
	T_STREQ(core_buf_cstr(&b), "", "or of nothing");
	core_buf_free(&b);
}

static void
plain_is(const char *q, const char *want, const char *what)
{
	struct core_buf b = CORE_BUF_INIT;

	pages_search_plain(q, &b);
	T_STREQ(core_buf_cstr(&b), want, what);
	core_buf_free(&b);
}

static void
questions(void)
{
	T_EQ(pages_search_is_question("a b c d e f g h i j k l"), 0,
	    "12 words: not a question");
	T_EQ(pages_search_is_question("a b c d e f g h i j k l m"), 1,
	    "13 words: a question");
	T_EQ(pages_search_is_question("  a\tb\nc d e f g h i j k l  "), 0,
	    "white space of any kind splits, 12 words");
	T_EQ(pages_search_is_question(""), 0, "empty");
	T_EQ(pages_search_is_question(NULL), 0, "NULL");
	plain_is("mistakes, or hallucinations", "mistakes, hallucinations",
	    "or left out");
	plain_is("a OR b Or c", "a b c", "any case");
	plain_is("order, for, oracle", "order, for, oracle",
	    "words starting with or are kept");
	plain_is("\"this or that\" or x", "\"this or that\" x",
	    "or inside quotes is kept");
	plain_is("-a or\t-b", "-a -b", "or and its white space left out");
	plain_is("or", "", "only or");
	plain_is("", "", "empty");
	plain_is(NULL, "", "NULL");
}

static void
marks(void)
{
	json_t *a;
	char *s;

	a = pages_search_marks("a " ON "b" OFF " c");
	s = json_dumps(a, JSON_COMPACT);
	T_STREQ(s,
	    "[{\"text\":\"a \"},{\"text\":\"b\",\"match\":true},"
	    "{\"text\":\" c\"}]",
	    "segments");
	free(s);
	json_decref(a);
	a = pages_search_marks(OFF "x" ON ON "y" OFF OFF "z" ON);
	s = json_dumps(a, JSON_COMPACT);
	T_STREQ(s,
	    "[{\"text\":\"x\"},{\"text\":\"y\",\"match\":true},"
	    "{\"text\":\"z\"}]",
	    "stray markers dropped");
	free(s);
	json_decref(a);
	a = pages_search_marks(ON "<b>&" OFF);
	s = json_dumps(a, JSON_COMPACT);
	T_STREQ(s, "[{\"text\":\"<b>&\",\"match\":true}]", "markup is text");
	free(s);
	json_decref(a);
	a = pages_search_marks(NULL);
	T_EQ(json_array_size(a), 0, "NULL is no segment");
	json_decref(a);
}

static json_t *
model(void)
{
	json_t *m, *card;

	card = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:[s],s:i,s:i,s:b,s:s,"
			 "s:o,s:o,s:[{s:s,s:n,s:n}]}",
	    "type", "paper", "arxiv_id", "2512.20345", "title", EVIL, "url",
	    BASE "/papers/2512.20345-x", "published", "2025-12-23",
	    "primary_category", "cs.SE", "categories", "cs.SE",
	    "citation_count", 3, "author_count", 1, "all_authors_matched", 0,
	    "match", "any", "title_marks",
	    pages_search_marks(ON "<script>" OFF "alert(1)</script>&\""),
	    "snippet", pages_search_marks("we " ON "<i>fuzz</i>" OFF " it"),
	    "authors", "name", "A <B>", "id", "url");
	m = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:{s:s,s:n,s:n,s:n,s:n},"
		      "s:i,s:b,s:i,s:[o],s:[{s:s,s:i,s:s,s:b}],"
		      "s:{s:i,s:i,s:i,s:i,s:n,s:s}}",
	    "type", "search", "title", "Search: " EVIL, "url",
	    BASE "/search?q=x", "query", EVIL, "search_type", "all", "sort",
	    "relevance", "filters", "category", "cs.SE", "from", "to",
	    "researcher", "institution", "total", 30, "total_capped", 0, "page",
	    1, "results", card, "facets", "category", "cs.SE", "count", 30,
	    "url", BASE "/search?q=x&category=cs.SE", "current", 1,
	    "pagination", "page", 1, "per_page", 24, "total", 30, "pages", 2,
	    "prev", "next", BASE "/search?q=x&page=2");
	return m;
}

static void
render(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct pages_page p;
	json_t *m = model();

	memset(&p, 0, sizeof(p));
	p.kind = PAGES_SEARCH;
	p.model = m;
	p.base = BASE;
	T_EQ(pages_render_html(&b, &p), CORE_OK, "html renders");
	T_LACKS(b.ptr, "<script>alert", "no live script from the query");
	T_CONTAINS(b.ptr,
	    "value=\"&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;\"",
	    "query echoed escaped in the box");
	T_CONTAINS(b.ptr, "<mark>&lt;script&gt;</mark>alert(1)",
	    "title mark escaped, then marked");
	T_CONTAINS(b.ptr, "we <mark>&lt;i&gt;fuzz&lt;/i&gt;</mark> it",
	    "snippet mark escaped, then marked");
	T_CONTAINS(b.ptr, "rel=\"next\"", "pager");
	T_CONTAINS(b.ptr, "href=\"/search?q=x&amp;category=cs.SE\"",
	    "facet link");
	T_LACKS(b.ptr, ON, "no marker left in HTML");
	core_buf_reset(&b);
	T_EQ(pages_render_md(&b, &p), CORE_OK, "markdown renders");
	T_CONTAINS(b.ptr, "**\\<i\\>fuzz\\</i\\>**", "markdown marks bold");
	T_CONTAINS(b.ptr, "# Search: \\<script\\>", "markdown title escaped");
	T_CONTAINS(b.ptr, "Next page:", "markdown pager");
	core_buf_free(&b);
	json_decref(m);
}

int
main(void)
{
	dates();
	words();
	questions();
	marks();
	render();
	return T_DONE();
}
