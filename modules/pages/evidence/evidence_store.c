/*
 * evidence_store.c -- the statements of "why these papers are here" (the
 * "-- evidence" section of sql/queries/pages.sql): the matcher's reason
 * and score of each authorship, summed up for the researcher page and
 * paper by paper for /researchers/{id}-{slug}/evidence.  As in store.c,
 * values travel only as $n parameters and URLs come back absolute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"
#include "pages_sql.h"

/*
 * Result cells are read with core's readers and the column enums of
 * pages_sql.h; the summary's json objects by the member names pages.sql
 * gives them (pages_int(), pages_str(), num()).
 */

/* Member key as a number (a score), or null. */
static json_t *
num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_real(json_number_value(v))
				 : json_null();
}

/* {id, name, url} of r ({id, name, slug}). */
static json_t *
researcher_ref(const char *base, const json_t *r)
{
	long long id = pages_int(r, "id", 0);
	char *p = pages_researcher_path(id, pages_str(r, "slug"));
	json_t *o;

	o = json_pack("{s:I,s:o,s:o}", "id", (json_int_t)id, "name",
	    core_json_str(pages_str(r, "name")), "url",
	    pages_json_abs(base, p));
	free(p);
	return o;
}

/* Researchers [{id, name, slug}] as references. */
static json_t *
refs(const char *base, const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	    json_array_append_new(a, researcher_ref(base, row));
	return a;
}

static json_t *
paper_ref(const char *base, const char *arxiv_id, const char *title,
    const char *slug, const char *published)
{
	char *p;
	json_t *o;

	if (arxiv_id == NULL)
		return json_null();
	p = pages_paper_path(arxiv_id, slug);
	o = json_pack("{s:o,s:o,s:o,s:o}", "arxiv_id", core_json_str(arxiv_id),
	    "title", core_json_str(title), "url", pages_json_abs(base, p),
	    "published", core_json_str(published));
	free(p);
	return o;
}

/*
 * The seed of a profile from s ({reason, score, arxiv_id, title, slug,
 * published, paper_id}): {reason, score, paper, order}, or null.
 * "order" is the paper's place in the matcher's newest-first order
 * ("YYYY-MM-DD/id"), compared by pages_evidence_apart().
 */
static json_t *
seed(const char *base, const json_t *s)
{
	const char *published = pages_str(s, "published");
	char order[64];

	if (pages_str(s, "reason") == NULL)
		return json_null();
	snprintf(order, sizeof(order), "%s/%018lld",
	    published != NULL ? published : "0000-00-00",
	    pages_int(s, "paper_id", 0));
	return json_pack("{s:o,s:o,s:o,s:s}", "reason",
	    core_json_str(pages_str(s, "reason")), "score", num(s, "score"),
	    "paper",
	    paper_ref(base, pages_str(s, "arxiv_id"), pages_str(s, "title"),
		pages_str(s, "slug"), published),
	    "order", order);
}

/* The "reasons" of the summary, the co-author names on "coauthors". */
static json_t *
reasons(const char *base, const json_t *rows, const json_t *co)
{
	json_t *a = json_array(), *o, *names, *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		const char *r = pages_str(row, "reason") != NULL
		    ? pages_str(row, "reason")
		    : "";

		o = json_pack("{s:o,s:s,s:I,s:o,s:o}", "reason",
		    core_json_str(r), "label", pages_evidence_label(r),
		    "papers", (json_int_t)pages_int(row, "papers", 0),
		    "score_avg", num(row, "score_avg"), "score_min",
		    num(row, "score_min"));
		if (strcmp(r, "coauthors") == 0) {
			names = refs(base, co);
			json_object_set_new(o, "coauthors", names);
		}
		json_array_append_new(a, o);
	}
	return a;
}

enum core_err
pages_store_evidence_summary(struct core_db *db, const char *base, json_t *r)
{
	PGresult *res = NULL;
	const char *params[2];
	char idbuf[24], *p;
	json_t *d = NULL, *ev, *items, *row, *self, *ids;
	long long total = 0;
	size_t i;
	enum core_err er;

	snprintf(idbuf, sizeof(idbuf), "%lld", pages_int(r, "id", 0));
	params[0] = idbuf;
	params[1] =
	    pages_str(r, "name_key") != NULL ? pages_str(r, "name_key") : "";
	if ((er = core_db_exec(db, PAGES_SQL_EVIDENCE_SUMMARY, params, 2,
		 &res)) != CORE_OK)
		goto out;
	/* json_is_object() is a macro that evaluates its argument twice:
	 * parse first. */
	if (PQntuples(res) == 1)
		d = core_cell_json(res, 0, PAGES_EVIDENCE_SUMMARY__SUMMARY,
		    json_null());
	if (!json_is_object(d)) {
		core_log(CORE_LOG_ERROR, "pages.evidence",
		    "EVIDENCE_SUMMARY gave no json object");
		er = CORE_EDB;
		goto out;
	}
	self = seed(base, json_object_get(d, "seed"));
	ids = json_object_get(r, "ids");
	items = json_array();
	json_array_foreach(json_object_get(d, "same"), i, row)
	{
		json_t *ns_ids, *ns_seed, *o;

		total = pages_int(row, "total", 0);
		ns_ids = json_pack("{s:o,s:o,s:o}", "openalex",
		    core_json_str(pages_str(row, "openalex")), "orcid",
		    core_json_str(pages_str(row, "orcid")), "semantic_scholar",
		    core_json_str(pages_str(row, "semantic_scholar")));
		ns_seed = seed(base, json_object_get(row, "seed"));
		o = researcher_ref(base, row);
		json_object_set_new(o, "papers",
		    json_integer(pages_int(row, "papers", 0)));
		json_object_set_new(o, "ids", ns_ids);
		json_object_set_new(o, "kept_apart",
		    pages_evidence_apart(ids, self, ns_ids, ns_seed));
		json_decref(ns_seed);
		json_array_append_new(items, o);
	}
	p = core_xasprintf("%s/evidence", pages_rel(base, pages_str(r, "url")));
	ev = json_pack("{s:o,s:o,s:o,s:{s:I,s:o}}", "url",
	    pages_json_abs(base, p), "reasons",
	    reasons(base, json_object_get(d, "reasons"),
		json_object_get(d, "co")),
	    "seed", json_is_null(self) ? json_null() : json_incref(self),
	    "namesakes", "total", (json_int_t)total, "items", items);
	free(p);
	/* "order" is for the comparison only. */
	if (json_is_object(json_object_get(ev, "seed")))
		json_object_del(json_object_get(ev, "seed"), "order");
	json_object_set_new(r, "evidence", ev);
	json_decref(self);
out:
	PQclear(res);
	json_decref(d);
	return er;
}

enum core_err
pages_store_evidence_papers(struct core_db *db, const char *base, long long id,
    long page, json_t **items, long long *total)
{
	PGresult *res = NULL;
	const char *params[3];
	struct pages_window w;
	char idbuf[24];
	json_t *a = NULL, *o, *co, *cats;
	enum core_err er;
	int i, n;

	*items = NULL;
	*total = 0;
	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	pages_window(&w, page);
	params[0] = idbuf;
	params[1] = w.lim;
	params[2] = w.off;
	if ((er = core_db_exec(db, PAGES_SQL_EVIDENCE_PAPERS, params, 3,
		 &res)) != CORE_OK)
		goto out;
	a = json_array();
	n = PQntuples(res);
	for (i = 0; i < n; i++) {
		const char *reason =
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__MATCH_REASON);
		const char *score =
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__MATCH_SCORE);

		if (reason == NULL)
			reason = "";
		co = core_cell_json(res, i,
		    PAGES_EVIDENCE_PAPERS__SHARED_COAUTHORS, json_array());
		cats = core_cell_json(res, i,
		    PAGES_EVIDENCE_PAPERS__SHARED_CATEGORIES, json_array());
		o = paper_ref(base,
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__ARXIV_ID),
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__TITLE),
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__SLUG),
		    core_cell_text(res, i, PAGES_EVIDENCE_PAPERS__PUBLISHED));
		json_object_set_new(o, "primary_category",
		    core_cell_jtext(res, i,
			PAGES_EVIDENCE_PAPERS__PRIMARY_CATEGORY));
		json_object_set_new(o, "categories",
		    core_cell_json(res, i, PAGES_EVIDENCE_PAPERS__CATEGORIES,
			json_array()));
		json_object_set_new(o, "author_count",
		    json_integer(core_cell_bigint(res, i,
			PAGES_EVIDENCE_PAPERS__AUTHOR_COUNT, 0)));
		json_object_set_new(o, "position",
		    json_integer(core_cell_bigint(res, i,
			PAGES_EVIDENCE_PAPERS__POSITION, 0)));
		json_object_set_new(o, "name_as_written",
		    core_cell_jtext(res, i, PAGES_EVIDENCE_PAPERS__RAW_NAME));
		json_object_set_new(o, "reason", core_json_str(reason));
		json_object_set_new(o, "label",
		    json_string(pages_evidence_label(reason)));
		json_object_set_new(o, "score",
		    score != NULL ? json_real(strtod(score, NULL))
				  : json_null());
		json_object_set_new(o, "shared_coauthors", refs(base, co));
		json_object_set_new(o, "shared_fields", cats);
		json_decref(co);
		json_array_append_new(a, o);
		*total =
		    core_cell_bigint(res, i, PAGES_EVIDENCE_PAPERS__TOTAL, 0);
	}
	*items = a;
	a = NULL;
out:
	PQclear(res);
	json_decref(a);
	return er;
}
