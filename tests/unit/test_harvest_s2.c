/*
 * test_harvest_s2.c -- harvest_s2_list_parse() on the recorded Semantic
 * Scholar search, bulk-search and recommendation answers (tests/data/
 * harvest/s2, from the semanticscholar client's cassettes), on its error
 * answers, on an author list where papers are expected, on a truncated
 * page, and on small documents of the documented shapes the recordings
 * lack (null results, authors' affiliation strings).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"
#include "t.h"
#include "harvest_data.h"

static enum core_err
list(const char *s, enum harvest_s2_shape shape, struct harvest_s2_list *l,
    char *why)
{
	return harvest_s2_list_parse(s, strlen(s), shape, l, why);
}

static enum core_err
file(const char *rel, enum harvest_s2_shape shape, struct harvest_s2_list *l,
    char *why)
{
	struct core_buf b = CORE_BUF_INIT;
	enum core_err er = CORE_EINPUT;

	if (data_read(rel, &b) == 0)
		er = harvest_s2_list_parse(b.ptr, b.len, shape, l, why);
	core_buf_free(&b);
	return er;
}

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct harvest_s2_list l;
	char why[HARVEST_WHY_LEN];
	const json_t *a;

	/* Relevance search: a page naming the next offset, a last page. */
	T_EQ(file("s2/search_turing_p1.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_OK, "search page 1");
	T_EQ(l.n, 100, "100 results");
	T_EQ(l.total, 70498, "total");
	T_EQ(l.next, 100, "next offset");
	T_STREQ(l.v[0].id, "7cbc2a7843411a1768ab762930707af0a3c33a19",
	    "paperId");
	T_OK(l.v[0].title != NULL &&
		strncmp(l.v[0].title, "Using DeepSpeed", 15) == 0,
	    "title");
	T_EQ(l.v[0].citations, -1, "citationCount not asked: unknown");
	T_EQ(l.gone, 0, "nothing deleted");
	harvest_s2_list_free(&l);
	T_EQ(file("s2/search_edit_distance.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_OK, "search, one page");
	T_EQ(l.n, 89, "89 results");
	T_EQ(l.next, -1, "no next: the last page");
	harvest_s2_list_free(&l);
	T_EQ(file("s2/search_min_citations.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_OK, "search with citationCount");
	T_EQ(l.v[0].citations, 4340, "citationCount");
	harvest_s2_list_free(&l);
	T_EQ(file("s2/search_empty.json", HARVEST_S2_SEARCH, &l, why), CORE_OK,
	    "empty search: no data member");
	T_EQ(l.n, 0, "no result");
	T_EQ(l.total, 0, "total 0");
	harvest_s2_list_free(&l);

	/* Bulk search: pages by token, null on the last. */
	T_EQ(file("s2/bulk_kubernetes_p1.json", HARVEST_S2_BULK, &l, why),
	    CORE_OK, "bulk page 1");
	T_EQ(l.n, 1000, "1000 results");
	T_EQ(l.total, 2674, "total");
	T_OK(l.token != NULL && strncmp(l.token, "PCOKWVSK", 8) == 0, "token");
	harvest_s2_list_free(&l);
	T_EQ(file("s2/bulk_kubernetes_p3.json", HARVEST_S2_BULK, &l, why),
	    CORE_OK, "bulk page 3");
	T_EQ(l.n, 674, "674 results");
	T_OK(l.token == NULL, "token null: the last page");
	harvest_s2_list_free(&l);

	/* Recommendations, from lists and for one paper. */
	T_EQ(file("s2/recommend_lists.json", HARVEST_S2_RECS, &l, why), CORE_OK,
	    "recommendations from lists");
	T_EQ(l.n, 100, "100 recommended");
	T_EQ(l.total, -1, "no total");
	harvest_s2_list_free(&l);
	T_EQ(file("s2/recommend_forpaper.json", HARVEST_S2_RECS, &l, why),
	    CORE_OK, "recommendations for a paper");
	T_EQ(l.n, 100, "100 recommended");
	harvest_s2_list_free(&l);

	/* The wrong entity type: the authors of a paper (recorded). */
	T_EQ(file("s2/paper_authors.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "an author list where papers are expected");
	T_CONTAINS(why, "wrong entity type: result 0 is an author", "says so");
	T_OK(l.v == NULL && l.n == 0, "nothing kept");
	T_EQ(file("s2/test_get_authors.json", HARVEST_S2_BULK, &l, why),
	    CORE_EINPUT, "an author batch where a bulk page is expected");
	T_CONTAINS(why, "wrong entity type: result 0 is an author", "says so");
	T_EQ(file("s2/test_get_papers.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "a batch answer where a search page is expected");
	T_CONTAINS(why, "an array", "says so");
	T_EQ(file("s2/search_turing_p1.json", HARVEST_S2_RECS, &l, why),
	    CORE_EINPUT, "a search page where recommendations are expected");
	T_CONTAINS(why, "no recommendedPapers array", "says so");
	T_EQ(file("s2/recommend_lists.json", HARVEST_S2_BULK, &l, why),
	    CORE_EINPUT, "recommendations where a bulk page is expected");

	/* Error answers (recorded): S2's message is the cause. */
	T_EQ(file("s2/error_bad_fields.json", HARVEST_S2_SEARCH, &l, why),
	    CORE_EUPSTREAM, "bad fields");
	T_STREQ(why,
	    "Semantic Scholar error: Unrecognized or unsupported fields: "
	    "[unknown]",
	    "its message");
	T_EQ(file("s2/error_paper_not_found.json", HARVEST_S2_RECS, &l, why),
	    CORE_EUPSTREAM, "paper not found");
	T_CONTAINS(why, "Paper with id 0 not found", "its message");
	T_EQ(file("s2/error_no_positive.json", HARVEST_S2_RECS, &l, why),
	    CORE_EUPSTREAM, "no positive papers");

	/* Truncated: the first 5000 bytes of a recorded page. */
	T_OK(data_read("s2/search_turing_p1.json", &b) == 0, "read p1");
	T_EQ(harvest_s2_list_parse(b.ptr, 5000, HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "truncated page");
	T_CONTAINS(why, "not JSON", "says so");
	T_EQ(harvest_s2_list_parse(b.ptr, 0, HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "empty body");

	/* Shapes the recordings lack, as S2 documents them: a null result
	 * and a null paperId are papers S2 no longer has; authors carry
	 * authorId, name and (when asked) affiliation strings. */
	T_EQ(list("{\"total\":3,\"offset\":0,\"data\":[null,{\"paperId\":"
		  "null},{\"paperId\":\"p1\",\"externalIds\":{\"ArXiv\":"
		  "\"2512.20345\"},\"year\":2025,\"citationCount\":7,"
		  "\"authors\":[{\"authorId\":\"1\",\"name\":\"Ada L\","
		  "\"affiliations\":[\"Dept. of Physics, UCL\",\"\"]},"
		  "{\"authorId\":null,\"name\":\"B\"}]}]}",
		 HARVEST_S2_SEARCH, &l, why),
	    CORE_OK, "nulls, arXiv id, authors");
	T_EQ(l.n, 3, "three results");
	T_EQ(l.gone, 2, "two gone");
	T_OK(l.v[0].id == NULL && l.v[1].id == NULL, "no id for them");
	T_STREQ(l.v[2].arxiv, "2512.20345", "externalIds.ArXiv");
	T_EQ(l.v[2].year, 2025, "year");
	T_EQ(json_array_size(l.v[2].authors), 2, "two authors");
	a = json_array_get(l.v[2].authors, 0);
	T_EQ(json_array_size(json_object_get(a, "affiliations")), 1,
	    "the empty affiliation dropped");
	T_STREQ(json_string_value(
		    json_array_get(json_object_get(a, "affiliations"), 0)),
	    "Dept. of Physics, UCL", "affiliation string kept");
	T_OK(json_is_null(
		 json_object_get(json_array_get(l.v[2].authors, 1), "id")),
	    "authorId null");
	harvest_s2_list_free(&l);

	/* Fields of the wrong type. */
	T_EQ(list("{\"total\":1,\"data\":[{\"paperId\":\"p\",\"year\":\"x\"}]}",
		 HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "year a string");
	T_EQ(list("{\"total\":1,\"data\":[{\"paperId\":\"p\",\"authors\":"
		  "[{\"name\":\"A\",\"affiliations\":[3]}]}]}",
		 HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "affiliation a number");
	T_EQ(list("{\"total\":1,\"data\":[{\"title\":\"t\"}]}",
		 HARVEST_S2_SEARCH, &l, why),
	    CORE_EINPUT, "no paperId");
	T_EQ(list("{\"data\":[]}", HARVEST_S2_SEARCH, &l, why), CORE_EINPUT,
	    "search page without total");
	T_EQ(list("{\"total\":1,\"token\":7,\"data\":[]}", HARVEST_S2_BULK, &l,
		 why),
	    CORE_EINPUT, "token a number");
	T_EQ(list("{\"total\":1,\"next\":\"2\",\"data\":[]}", HARVEST_S2_SEARCH,
		 &l, why),
	    CORE_EINPUT, "next a string");
	T_EQ(list("{\"message\":\"Too Many Requests\"}", HARVEST_S2_BULK, &l,
		 why),
	    CORE_EUPSTREAM, "rate limit message");

	core_buf_free(&b);
	return T_DONE();
}
