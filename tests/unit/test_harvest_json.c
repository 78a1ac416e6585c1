/*
 * test_harvest_json.c -- the OpenAlex and Semantic Scholar parsers on
 * recorded responses and on JSON of the wrong shape; the backoff rule.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"
#include "t.h"
#include "harvest_data.h"

static enum core_err
oa(const char *s, int entity, struct harvest_oa_list *l, char *why)
{
	return harvest_oa_parse(s, strlen(s), entity, l, why);
}

static enum core_err
s2(const char *s, size_t want, int authors, struct harvest_s2_batch *b,
    char *why)
{
	return harvest_s2_parse(s, strlen(s), want, authors, b, why);
}

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct harvest_oa_list l;
	struct harvest_s2_batch sb;
	char why[HARVEST_WHY_LEN], ax[48];
	json_t *w;
	size_t i, arxiv = 0;

	/* OpenAlex list with a cursor, and its last page. */
	T_OK(data_read("openalex/works_cursor_page1.json", &b) == 0, "read p1");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 0, &l, why), CORE_OK, "parse p1");
	T_EQ(json_array_size(l.results), 25, "25 works");
	T_EQ(l.count, 62, "meta.count");
	T_STREQ(l.next_cursor, "IlsxMDAuMCwgIldvcmtzMjVdIg==", "next_cursor");
	for (i = 0; i < json_array_size(l.results); i++)
		if (harvest_oa_work_arxiv(json_array_get(l.results, i), ax) ==
		    0)
			arxiv++;
	T_OK(arxiv >= 4, "works with an arXiv DOI found");
	w = json_array_get(l.results, 0);
	T_OK(harvest_oa_short(json_string_value(json_object_get(w, "id"))) !=
		NULL,
	    "short id");
	harvest_oa_list_free(&l);
	T_OK(data_read("openalex/works_cursor_page2.json", &b) == 0, "read p2");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 0, &l, why), CORE_OK, "parse p2");
	T_OK(l.next_cursor == NULL, "null next_cursor ends the run");
	harvest_oa_list_free(&l);

	/* Entities. */
	T_OK(data_read("openalex/A5023888391.json", &b) == 0, "read author");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 1, &l, why), CORE_OK, "author");
	T_EQ(json_array_size(l.results), 1, "one entity");
	harvest_oa_list_free(&l);
	T_OK(data_read("openalex/authors_list.json", &b) == 0, "read authors");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 0, &l, why), CORE_OK, "authors");
	T_EQ(json_array_size(l.results), 3, "three authors");
	harvest_oa_list_free(&l);
	T_OK(data_read("openalex/institutions_list.json", &b) == 0,
	    "read institutions list");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 0, &l, why), CORE_OK,
	    "institutions list parses");
	T_OK(harvest_oa_check_kind(&l, 'I', why) == 0, "institutions asked");
	T_OK(harvest_oa_check_kind(&l, 'W', why) != 0, "works asked");
	T_CONTAINS(why, "is an institution, not a work", "kind named");
	harvest_oa_list_free(&l);
	T_OK(data_read("openalex/I114027177.json", &b) == 0, "read inst");
	T_EQ(harvest_oa_parse(b.ptr, b.len, 1, &l, why), CORE_OK,
	    "institution");
	harvest_oa_list_free(&l);

	/* DOI forms. */
	w = json_pack("{s:s}", "doi",
	    "https://doi.org/10.48550/arXiv.2108."
	    "04680");
	T_OK(harvest_oa_work_arxiv(w, ax) == 0, "arXiv DOI, mixed case");
	T_STREQ(ax, "2108.04680", "arXiv id from DOI");
	json_decref(w);
	w = json_pack("{s:s}", "doi", "https://doi.org/10.7717/peerj.4375");
	T_OK(harvest_oa_work_arxiv(w, ax) != 0, "other DOI");
	json_decref(w);

	/* Works hosted on arXiv: the id from a location's URL. */
	w = json_pack("{s:{s:s},s:[{s:s},{s:s,s:s}]}", "primary_location",
	    "landing_page_url", "https://doi.org/10.1007/s11192-013-1221-3",
	    "locations", "landing_page_url", "http://hdl.handle.net/11108/158",
	    "landing_page_url", "https://arxiv.org/abs/1304.7300", "pdf_url",
	    "https://arxiv.org/pdf/1304.7300");
	T_OK(harvest_oa_work_arxiv_loc(w, ax) == 0, "arXiv location");
	T_STREQ(ax, "1304.7300", "arXiv id from a location");
	json_decref(w);
	w = json_pack("{s:{s:s}}", "primary_location", "landing_page_url",
	    "http://arxiv.org/pdf/hep-th/9711200v3.pdf");
	T_OK(harvest_oa_work_arxiv_loc(w, ax) == 0, "old-style pdf URL");
	T_STREQ(ax, "hep-th/9711200", "old-style id without version");
	json_decref(w);
	w = json_pack("{s:{s:s}}", "primary_location", "landing_page_url",
	    "https://arxiv.org/abs/1304.7300x");
	T_OK(harvest_oa_work_arxiv_loc(w, ax) != 0, "trailing junk");
	json_decref(w);
	w = json_pack("{s:n,s:[{s:s}]}", "primary_location", "locations",
	    "landing_page_url", "https://example.org/arxiv.org/abs/1304.7300");
	T_OK(harvest_oa_work_arxiv_loc(w, ax) != 0, "not arxiv.org");
	json_decref(w);

	/* Wrong shapes. */
	T_EQ(oa("[1,2]", 0, &l, why), CORE_EINPUT, "array instead of list");
	T_EQ(oa("{\"meta\":{},\"results\":{}}", 0, &l, why), CORE_EINPUT,
	    "results not an array");
	T_EQ(oa("{\"meta\":{\"count\":\"many\"},\"results\":[]}", 0, &l, why),
	    CORE_EINPUT, "count a string");
	T_EQ(oa("{\"meta\":{\"next_cursor\":5},\"results\":[]}", 0, &l, why),
	    CORE_EINPUT, "cursor a number");
	T_EQ(oa("{\"meta\":{},\"results\":[{\"id\":\"https://openalex.org/"
		"W1\",\"cited_by_count\":\"12\"}]}",
		 0, &l, why),
	    CORE_EINPUT, "cited_by_count a string");
	T_CONTAINS(why, "cited_by_count", "field named");
	T_EQ(oa("{\"meta\":{},\"results\":[{\"id\":\"W1\"}]}", 0, &l, why),
	    CORE_EINPUT, "id not a URL");
	T_EQ(oa("{\"id\":\"https://openalex.org/A1\",\"summary_stats\":{"
		"\"h_index\":1.5}}",
		 1, &l, why),
	    CORE_EINPUT, "h_index a real");
	T_EQ(oa("{\"meta\":{},\"results\":[{\"id\":\"https://openalex.org/"
		"W1\",\"authorships\":[{\"author\":{\"id\":7}}]}]}",
		 0, &l, why),
	    CORE_EINPUT, "author id a number");
	T_EQ(oa("{\"error\":\"Invalid query parameters error.\",\"message\":"
		"\"x is not a valid field\"}",
		 0, &l, why),
	    CORE_EUPSTREAM, "error object");
	T_EQ(oa("{\"meta\":", 0, &l, why), CORE_EINPUT, "truncated JSON");
	T_EQ(oa("<html>", 0, &l, why), CORE_EINPUT, "HTML");

	/* S2 batches: nulls for ids not found, matched by position. */
	T_OK(data_read("s2/test_get_papers_return_not_found.json", &b) == 0,
	    "read s2 papers");
	T_EQ(harvest_s2_parse(b.ptr, b.len, 4, 0, &sb, why), CORE_OK,
	    "paper batch");
	T_EQ(sb.v[0].found, 0, "null: not found");
	T_EQ(sb.v[1].found, 1, "found");
	T_STREQ(sb.v[1].id, "c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce",
	    "paperId");
	T_EQ(sb.v[1].citations, 10670, "citationCount");
	T_EQ(sb.v[3].citations, 0, "zero citations is known");
	harvest_s2_batch_free(&sb);
	T_EQ(harvest_s2_parse(b.ptr, b.len, 3, 0, &sb, why), CORE_EINPUT,
	    "length mismatch refused");
	T_OK(data_read("s2/test_get_authors_return_not_found.json", &b) == 0,
	    "read s2 authors");
	T_EQ(harvest_s2_parse(b.ptr, b.len, 4, 1, &sb, why), CORE_OK,
	    "author batch");
	T_STREQ(sb.v[1].name, "E. Dijkstra", "author name");
	T_EQ(sb.v[1].h_index, -1, "hIndex absent");
	harvest_s2_batch_free(&sb);
	T_EQ(s2("[{\"authorId\":\"1\",\"hIndex\":40,\"citationCount\":9000,"
		"\"paperCount\":120}]",
		 1, 1, &sb, why),
	    CORE_OK, "author metrics");
	T_EQ(sb.v[0].h_index, 40, "hIndex");
	T_EQ(sb.v[0].paper_count, 120, "paperCount");
	harvest_s2_batch_free(&sb);
	T_EQ(s2("[{\"paperId\":\"x\",\"externalIds\":{\"ArXiv\":\"2512."
		"20345\"},\"citationCount\":3}]",
		 1, 0, &sb, why),
	    CORE_OK, "externalIds.ArXiv");
	T_STREQ(sb.v[0].arxiv, "2512.20345", "arxiv id");
	harvest_s2_batch_free(&sb);
	T_EQ(s2("[{\"paperId\":\"x\",\"citationCount\":\"3\"}]", 1, 0, &sb,
		 why),
	    CORE_EINPUT, "count a string");
	T_EQ(s2("[{\"paperId\":\"x\",\"citationCount\":-1}]", 1, 0, &sb, why),
	    CORE_EINPUT, "negative count");
	T_EQ(s2("[{\"paperId\":5}]", 1, 0, &sb, why), CORE_EINPUT,
	    "paperId a number");
	T_EQ(s2("[7]", 1, 0, &sb, why), CORE_EINPUT, "item a number");
	T_EQ(s2("{\"message\":\"Too Many Requests\"}", 1, 0, &sb, why),
	    CORE_EUPSTREAM, "error object");
	T_EQ(s2("{\"data\":[]}", 1, 0, &sb, why), CORE_EINPUT, "object");

	/* Backoff: doubling, jitter within [w/2, w), cap, Retry-After. */
	T_EQ(harvest_backoff_ms(0, 1000, 60000, -1, 0.0), 500, "first, r=0");
	T_EQ(harvest_backoff_ms(0, 1000, 60000, -1, 0.5), 750, "first, r=.5");
	T_EQ(harvest_backoff_ms(3, 1000, 60000, -1, 0.0), 4000, "doubles");
	T_EQ(harvest_backoff_ms(10, 1000, 60000, -1, 0.0), 30000, "capped");
	T_EQ(harvest_backoff_ms(2, 1000, 60000, 7, 0.3), 7000, "Retry-After");
	T_EQ(harvest_backoff_ms(2, 1000, 60000, 3600, 0.3), 60000,
	    "Retry-After capped");
	T_EQ(harvest_backoff_ms(99, 1000, 60000, -1, 0.99), 59700,
	    "no overflow");

	core_buf_free(&b);
	return T_DONE();
}
