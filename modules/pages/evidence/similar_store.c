/*
 * similar_store.c -- "similar papers": the nearest papers by the
 * semantic index (vec_similar(), modules/vectors/vectors.h), turned into
 * cards by one statement (the "-- similar" section of pages.sql) that
 * keeps the similarity order.  Vector similarity only: no text score.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"
#include "pages_sql.h"
#include "vindex.h"

/*
 * Asked of the index beyond PAGES_SIMILAR_N: papers deleted since the
 * index was built drop out of the cards, and the list should still be
 * full.
 */
#define SLACK 6

/* One card: id (the arXiv id), title, url, score and the card facts. */
static json_t *
card(const char *base, const PGresult *res, int r, double score)
{
	json_t *o, *rows;
	char *p;

	p = pages_paper_path(core_cell_text(res, r,
				 PAGES_SIMILAR_CARDS__ARXIV_ID),
	    core_cell_text(res, r, PAGES_SIMILAR_CARDS__SLUG));
	rows =
	    core_cell_json(res, r, PAGES_SIMILAR_CARDS__AUTHORS, json_array());
	o = json_pack("{s:o,s:o,s:o,s:o,s:f,s:o,s:o,s:o,s:o,s:o,s:o}", "id",
	    core_cell_jtext(res, r, PAGES_SIMILAR_CARDS__ARXIV_ID), "arxiv_id",
	    core_cell_jtext(res, r, PAGES_SIMILAR_CARDS__ARXIV_ID), "title",
	    core_cell_jtext(res, r, PAGES_SIMILAR_CARDS__TITLE), "url",
	    pages_json_abs(base, p), "score",
	    (double)((long)(score * 1000 + (score < 0 ? -0.5 : 0.5))) / 1000,
	    "published",
	    core_cell_jtext(res, r, PAGES_SIMILAR_CARDS__PUBLISHED),
	    "primary_category",
	    core_cell_jtext(res, r, PAGES_SIMILAR_CARDS__PRIMARY_CATEGORY),
	    "categories",
	    core_cell_json(res, r, PAGES_SIMILAR_CARDS__CATEGORIES,
		json_array()),
	    "citation_count",
	    core_cell_jint(res, r, PAGES_SIMILAR_CARDS__CITATION_COUNT),
	    "author_count",
	    core_cell_jint(res, r, PAGES_SIMILAR_CARDS__AUTHOR_COUNT),
	    "authors", pages_card_authors(base, rows));
	json_decref(rows);
	free(p);
	return o;
}

enum core_err
pages_store_similar(struct core_db *db, const char *base, long long pid,
    json_t **items, const char **notice)
{
	const struct vec_index *idx;
	struct vec_hit hits[PAGES_SIMILAR_N + SLACK];
	struct core_buf ids = CORE_BUF_INIT;
	PGresult *res = NULL;
	const char *params[1];
	json_t *a;
	size_t n = 0, i;
	enum core_err er = CORE_OK;
	int r;

	*items = a = json_array();
	*notice = NULL;
	if ((idx = pages_vectors()) == NULL) {
		*notice = "The semantic index is not available right now, so "
			  "no similar papers can be listed.";
		return CORE_OK;
	}
	switch (
	    vec_similar(idx, (int64_t)pid, PAGES_SIMILAR_N + SLACK, hits, &n)) {
	case CORE_OK:
		break;
	case CORE_ENOTFOUND:
		*notice = "This paper came after the semantic index was "
			  "built; its similar papers appear after the next "
			  "build.";
		goto out;
	default:
		*notice = "The semantic index could not answer.";
		goto out;
	}
	if (n == 0)
		goto out;
	core_buf_putc(&ids, '{');
	for (i = 0; i < n; i++)
		core_buf_printf(&ids, "%s%lld", i ? "," : "",
		    (long long)hits[i].paper_id);
	core_buf_putc(&ids, '}');
	params[0] = core_buf_cstr(&ids);
	if ((er = core_db_exec(db, PAGES_SQL_SIMILAR_CARDS, params, 1, &res)) !=
	    CORE_OK)
		goto out;
	/* Rows keep the hits' order; a deleted paper's hit is skipped. */
	for (r = 0, i = 0;
	     r < PQntuples(res) && json_array_size(a) < PAGES_SIMILAR_N; r++) {
		pid = core_cell_bigint(res, r, PAGES_SIMILAR_CARDS__ID, 0);
		while (i < n && hits[i].paper_id != pid)
			i++;
		if (i == n)
			break;
		json_array_append_new(a, card(base, res, r, hits[i].score));
	}
out:
	PQclear(res);
	core_buf_free(&ids);
	return er;
}
