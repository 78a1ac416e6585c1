/*
 * test_search_rank.c -- the pure part of a paper search (search_rank.c):
 * ?mode= parsing, the ranking of candidates in each mode and sort, and
 * the category facets counted over them.
 */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "../../modules/pages/pages.h"
#include "../../modules/pages/search/search.h"

static void
modes(void)
{
	enum pages_search_mode m = PAGES_SEARCH_SEMANTIC;

	T_EQ(pages_search_mode_parse(NULL, &m), 0, "absent mode accepted");
	T_EQ(m, PAGES_SEARCH_HYBRID, "absent: hybrid");
	T_EQ(pages_search_mode_parse("", &m), 0, "empty mode accepted");
	T_EQ(m, PAGES_SEARCH_HYBRID, "empty: hybrid");
	T_EQ(pages_search_mode_parse("lexical", &m), 0, "lexical");
	T_EQ(m, PAGES_SEARCH_LEXICAL, "lexical parsed");
	T_EQ(pages_search_mode_parse("semantic", &m), 0, "semantic");
	T_EQ(m, PAGES_SEARCH_SEMANTIC, "semantic parsed");
	T_EQ(pages_search_mode_parse("hybrid", &m), 0, "hybrid");
	T_EQ(m, PAGES_SEARCH_HYBRID, "hybrid parsed");
	T_EQ(pages_search_mode_parse("Hybrid", &m), -1, "case matters");
	T_EQ(pages_search_mode_parse("bogus", &m), -1, "unknown refused");
	T_EQ(pages_search_mode_parse("lexical ", &m), -1, "trailing space");
}

/* Three candidates: 1 all-words, weak meaning; 2 rarer words, strong
 * meaning; 3 vector only, strongest meaning. */
static void
fill(struct pages_search_cand *c)
{
	memset(c, 0, 3 * sizeof(*c));
	c[0].id = 1, c[0].tier = 1, c[0].text = 0.8, c[0].sim = 0.1;
	c[1].id = 2, c[1].tier = 2, c[1].text = 0.4, c[1].sim = 0.7;
	c[2].id = 3, c[2].tier = 3, c[2].text = 0.0, c[2].sim = 0.9;
	memcpy(c[0].published, "2024-01-01", 11);
	memcpy(c[1].published, "2025-01-01", 11);
	memcpy(c[2].published, "2023-01-01", 11);
	c[0].citations = 5, c[1].citations = -1, c[2].citations = 50;
	c[0].cats = "cs.SE cs.AI";
	c[1].cats = "cs.AI";
	c[2].cats = " cs.LG  cs.AI ";
}

static void
rank(void)
{
	struct pages_search_cand c[3];

	fill(c);
	pages_search_rank(c, 3, PAGES_SEARCH_LEXICAL, PAGES_SEARCH_RELEVANCE,
	    0.6);
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 123,
	    "lexical: by tier, then text");
	fill(c);
	pages_search_rank(c, 3, PAGES_SEARCH_SEMANTIC, PAGES_SEARCH_RELEVANCE,
	    0.6);
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 321,
	    "semantic: by similarity");
	fill(c);
	pages_search_rank(c, 3, PAGES_SEARCH_HYBRID, PAGES_SEARCH_RELEVANCE,
	    0.6);
	/* 1: .6*1 + .4*.1 = .64; 2: .6*.5 + .4*.7 = .58; 3: .36 */
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 123, "hybrid at w .6");
	T_OK(c[0].score > 0.639 && c[0].score < 0.641, "hybrid score");
	fill(c);
	pages_search_rank(c, 3, PAGES_SEARCH_HYBRID, PAGES_SEARCH_RELEVANCE,
	    0.2);
	/* 1: .2 + .08 = .28; 2: .1 + .56 = .66; 3: .72 */
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 321, "hybrid at w .2");
	fill(c);
	pages_search_rank(c, 3, PAGES_SEARCH_HYBRID, PAGES_SEARCH_NEWEST, 0.6);
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 123,
	    "newest: tiers first");
	fill(c);
	c[0].tier = c[1].tier = c[2].tier = 3;
	pages_search_rank(c, 3, PAGES_SEARCH_SEMANTIC, PAGES_SEARCH_NEWEST,
	    0.6);
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 213,
	    "newest in one tier: by date");
	fill(c);
	c[0].tier = c[1].tier = c[2].tier = 1;
	pages_search_rank(c, 3, PAGES_SEARCH_LEXICAL, PAGES_SEARCH_CITATIONS,
	    0.6);
	T_EQ(c[0].id * 100 + c[1].id * 10 + c[2].id, 312,
	    "citations: most cited first, unknown last");
	fill(c);
	c[1].text = c[0].text;
	c[0].tier = c[1].tier = 1;
	pages_search_rank(c, 2, PAGES_SEARCH_LEXICAL, PAGES_SEARCH_RELEVANCE,
	    0.6);
	T_EQ(c[0].id, 2, "ties: the newer first");
	fill(c);
	c[0].text = c[1].text = c[2].text = 0;
	pages_search_rank(c, 3, PAGES_SEARCH_HYBRID, PAGES_SEARCH_RELEVANCE,
	    0.6);
	T_EQ(c[0].id, 3, "no text score anywhere: similarity decides");
	pages_search_rank(c, 0, PAGES_SEARCH_HYBRID, PAGES_SEARCH_RELEVANCE,
	    0.6);
	T_OK(1, "no candidates: nothing to do");
}

static void
facets(void)
{
	struct pages_search_cand c[3];
	json_t *f;
	char *s;

	fill(c);
	f = pages_search_facets(c, 3, 20);
	s = json_dumps(f, JSON_COMPACT);
	T_STREQ(s,
	    "[{\"category\":\"cs.AI\",\"count\":3},"
	    "{\"category\":\"cs.LG\",\"count\":1},"
	    "{\"category\":\"cs.SE\",\"count\":1}]",
	    "facets: by count, then name");
	free(s);
	json_decref(f);
	f = pages_search_facets(c, 3, 1);
	T_EQ(json_array_size(f), 1, "facets: at most max");
	json_decref(f);
	f = pages_search_facets(c, 0, 20);
	T_EQ(json_array_size(f), 0, "facets: none without candidates");
	json_decref(f);
}

int
main(void)
{
	modes();
	rank();
	facets();
	return T_DONE();
}
