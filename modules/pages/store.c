/*
 * store.c -- the only file of the pages module that talks to
 * PostgreSQL.  Every query is a named statement of sql/queries/pages.sql
 * run through core_db_exec(); values travel as $n parameters.  Results
 * come back as pieces of the view model (jansson), with absolute URLs.
 *
 * Unknown metrics are NULL in the database and stay null here: a page
 * says "unknown", never 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "pages_sql.h"

/* Lists on the institution page. */
#define INST_RESEARCHERS_MAX 60

/* ---------------------------------------------------------------- cells */

/*
 * Result cells are read with core's readers (core_cell_*) and the column
 * enums of pages_sql.h; json documents with named fields with these.
 */

void
pages_window(struct pages_window *w, long page)
{
	snprintf(w->lim, sizeof(w->lim), "%d", PAGES_PER_PAGE);
	snprintf(w->off, sizeof(w->off), "%lld",
	    (long long)(page - 1) * PAGES_PER_PAGE);
}

/* Field k of a json object, a new reference (null when absent). */
static json_t *
fv(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return v != NULL ? json_incref(v) : json_null();
}

/* prefix + id as a JSON string, null for a NULL or empty id. */
static json_t *
link_or_null(const char *prefix, const char *id)
{
	json_t *j;
	char *u;

	if (id == NULL || *id == '\0')
		return json_null();
	u = core_xasprintf("%s%s", prefix, id);
	j = core_json_str(u);
	free(u);
	return j;
}

static json_t *
url_paper(const char *base, const char *arxiv_id, const char *slug)
{
	return pages_json_abs_free(base, pages_paper_path(arxiv_id, slug));
}

static json_t *
url_researcher(const char *base, long long id, const char *slug)
{
	return pages_json_abs_free(base, pages_researcher_path(id, slug));
}

static json_t *
url_institution(const char *base, long long id, const char *slug)
{
	return pages_json_abs_free(base, pages_institution_path(id, slug));
}

/* ---------------------------------------------------------------- cards */

/*
 * A paper card from row r of a statement whose select list starts with
 * {{CARD_COLUMNS}} (pages.sql), read as PAGES_CARD__*.
 */
static json_t *
card(const char *base, const PGresult *res, int r)
{
	json_t *o = json_object();

	json_object_set_new(o, "arxiv_id",
	    core_cell_jtext(res, r, PAGES_CARD__ARXIV_ID));
	json_object_set_new(o, "title",
	    core_cell_jtext(res, r, PAGES_CARD__TITLE));
	json_object_set_new(o, "url",
	    url_paper(base, core_cell_text(res, r, PAGES_CARD__ARXIV_ID),
		core_cell_text(res, r, PAGES_CARD__SLUG)));
	json_object_set_new(o, "published",
	    core_cell_jtext(res, r, PAGES_CARD__PUBLISHED));
	json_object_set_new(o, "primary_category",
	    core_cell_jtext(res, r, PAGES_CARD__PRIMARY_CATEGORY));
	json_object_set_new(o, "categories",
	    core_cell_json(res, r, PAGES_CARD__CATEGORIES, json_array()));
	json_object_set_new(o, "citation_count",
	    core_cell_jint(res, r, PAGES_CARD__CITATION_COUNT));
	json_object_set_new(o, "author_count",
	    core_cell_jint(res, r, PAGES_CARD__AUTHOR_COUNT));
	json_object_set_new(o, "all_authors_matched",
	    json_boolean(core_cell_bool(res, r, PAGES_CARD__FULLY_MATCHED, 0)));
	json_object_set_new(o, "paper_type",
	    core_cell_jtext(res, r, PAGES_CARD__PAPER_TYPE));
	json_object_set_new(o, "authors", json_array());
	return o;
}

/* A card's author: {name, id, url}, url null when unmatched; the raw
 * name shown with mojibake repaired. */
static json_t *
card_author(const char *base, const char *name, json_t *id, long long rid,
    const char *slug)
{
	json_t *a = json_object();

	json_object_set_new(a, "name", core_json_name(name));
	json_object_set_new(a, "id", id);
	json_object_set_new(a, "url",
	    json_is_null(id) ? json_null() : url_researcher(base, rid, slug));
	return a;
}

json_t *
pages_card_authors(const char *base, const json_t *rows)
{
	json_t *list = json_array(), *id;
	const json_t *a;
	size_t i;

	json_array_foreach(rows, i, a)
	{
		id = json_array_get(a, 1);
		json_array_append_new(list,
		    card_author(base, json_string_value(json_array_get(a, 0)),
			json_is_integer(id) ? json_incref(id) : json_null(),
			json_integer_value(id),
			json_string_value(json_array_get(a, 2))));
	}
	return list;
}

/*
 * Cards for every row of res, whose column acol holds the first authors
 * as {{CARD_AUTHOR_LIST}} gives them: [[raw_name, id, slug]] in order; no
 * query.
 */
static void
cards_inline(const char *base, const PGresult *res, int acol, json_t *arr)
{
	json_t *authors, *list, *c;
	int i;

	for (i = 0; i < PQntuples(res); i++) {
		c = card(base, res, i);
		authors = core_cell_json(res, i, acol, json_null());
		list = pages_card_authors(base, authors);
		json_array_extend(json_object_get(c, "authors"), list);
		json_decref(list);
		json_decref(authors);
		json_array_append_new(arr, c);
	}
}

/*
 * Cards for every row of res, with their first authors from its
 * "authors" column when the statement has one, otherwise from one more
 * query.
 */
static enum core_err
cards(struct core_db *db, const char *base, const PGresult *res, json_t **out)
{
	struct core_buf ids = CORE_BUF_INIT;
	PGresult *ar = NULL;
	const char *params[2];
	char nbuf[16];
	json_t *arr = json_array(), *c;
	long long *pid = NULL;
	enum core_err er = CORE_OK;
	int i, j, n = PQntuples(res), acol;

	*out = NULL;
	if (n == 0)
		goto done;
	if ((acol = PQfnumber(res, "authors")) >= 0) {
		cards_inline(base, res, acol, arr);
		goto done;
	}
	pid = core_xcalloc((size_t)n, sizeof(*pid));
	core_buf_putc(&ids, '{');
	for (i = 0; i < n; i++) {
		pid[i] = core_cell_bigint(res, i, PAGES_CARD__ID, 0);
		json_array_append_new(arr, card(base, res, i));
		core_buf_printf(&ids, "%s%lld", i ? "," : "", pid[i]);
	}
	core_buf_putc(&ids, '}');
	snprintf(nbuf, sizeof(nbuf), "%d", PAGES_CARD_AUTHORS);
	params[0] = core_buf_cstr(&ids);
	params[1] = nbuf;
	if ((er = core_db_exec(db, PAGES_SQL_CARD_AUTHORS, params, 2, &ar)) !=
	    CORE_OK)
		goto out;
	for (j = 0; j < PQntuples(ar); j++) {
		long long p =
		    core_cell_bigint(ar, j, PAGES_CARD_AUTHORS__PAPER_ID, 0);
		json_t *a;

		for (i = 0; i < n && pid[i] != p; i++)
			;
		if (i == n)
			continue;
		c = json_array_get(arr, (size_t)i);
		a = card_author(base,
		    core_cell_text(ar, j, PAGES_CARD_AUTHORS__RAW_NAME),
		    core_cell_jint(ar, j, PAGES_CARD_AUTHORS__ID),
		    core_cell_bigint(ar, j, PAGES_CARD_AUTHORS__ID, 0),
		    core_cell_text(ar, j, PAGES_CARD_AUTHORS__SLUG));
		json_array_append_new(json_object_get(c, "authors"), a);
	}
done:
	*out = arr;
	arr = NULL;
out:
	PQclear(ar);
	free(pid);
	core_buf_free(&ids);
	json_decref(arr);
	return er;
}

/*
 * Runs stmt and turns its rows into cards.  With total not NULL the
 * statement ends with a "total" column (count(*) OVER ()), read from the
 * first row; *total is -1 when there is no row to read it from.
 */
static enum core_err
card_query(struct core_db *db, const char *base, int stmt,
    const char *const *params, int np, json_t **out, long long *total)
{
	PGresult *res = NULL;
	enum core_err er;
	int tcol;

	*out = NULL;
	if ((er = core_db_exec(db, stmt, params, np, &res)) == CORE_OK)
		er = cards(db, base, res, out);
	if (total != NULL)
		*total = er == CORE_OK && PQntuples(res) > 0 &&
			(tcol = PQfnumber(res, "total")) >= 0
		    ? core_cell_bigint(res, 0, tcol, 0)
		    : -1;
	PQclear(res);
	return er;
}

/* The single count of a statement, in its column col. */
static enum core_err
count_query(struct core_db *db, int stmt, int col, const char *const *params,
    int np, long long *n)
{
	PGresult *res = NULL;
	enum core_err er;

	*n = 0;
	if ((er = core_db_exec(db, stmt, params, np, &res)) == CORE_OK &&
	    PQntuples(res) == 1)
		*n = core_cell_bigint(res, 0, col, 0);
	PQclear(res);
	return er;
}

/* ---------------------------------------------------------------- papers */

/* "https://arxiv.org/abs/ID" and the PDF link; old ids keep their '/'. */
static json_t *
arxiv_links(const char *base, const char *arxiv_id, const char *canon)
{
	char *abs = core_xasprintf("https://arxiv.org/abs/%s", arxiv_id);
	char *pdf = core_xasprintf("https://arxiv.org/pdf/%s", arxiv_id);
	char *bib = core_xasprintf("%s?format=bib", canon);
	json_t *o;

	(void)base;
	o = json_pack("{s:o,s:o,s:o}", "abs", core_json_str(abs), "pdf",
	    core_json_str(pdf), "bibtex", core_json_str(bib));
	free(abs);
	free(pdf);
	free(bib);
	return o;
}

/*
 * Each version of vs gets "url": arXiv's abs page of that version
 * ("https://arxiv.org/abs/IDvN"); N from "version" (2 or "v2"), else
 * the position.
 */
static void
version_urls(json_t *vs, const char *arxiv_id)
{
	json_t *v, *ver;
	const char *s;
	long long n;
	size_t i;

	json_array_foreach(vs, i, v)
	{
		if (!json_is_object(v))
			continue;
		ver = json_object_get(v, "version");
		s = json_string_value(ver);
		if (json_is_integer(ver))
			n = (long long)json_integer_value(ver);
		else if (s != NULL && (s[0] == 'v' || s[0] == 'V') &&
		    s[1] >= '1' && s[1] <= '9' && strlen(s) < 8)
			n = strtoll(s + 1, NULL, 10);
		else
			n = (long long)i + 1;
		json_object_set_new(v, "url",
		    json_sprintf("https://arxiv.org/abs/%sv%lld", arxiv_id, n));
	}
}

/* The paper's members that are its columns as they are, after "url". */
static const struct core_cell_field paper_fields[] = {
	{ "slug", PAGES_PAPER_BY_ARXIV_ID__SLUG, CORE_CELL_TEXT },
	{ "title", PAGES_PAPER_BY_ARXIV_ID__TITLE, CORE_CELL_TEXT },
	{ "abstract", PAGES_PAPER_BY_ARXIV_ID__ABSTRACT, CORE_CELL_TEXT },
	{ "comment", PAGES_PAPER_BY_ARXIV_ID__COMMENT, CORE_CELL_TEXT },
	{ "primary_category", PAGES_PAPER_BY_ARXIV_ID__PRIMARY_CATEGORY,
	    CORE_CELL_TEXT },
	{ "categories", PAGES_PAPER_BY_ARXIV_ID__CATEGORIES, CORE_CELL_LIST },
	/* MSC / ACM classes, never categories: shown, not a field or facet. */
	{ "class_codes", PAGES_PAPER_BY_ARXIV_ID__CLASS_CODES, CORE_CELL_LIST },
	{ "published", PAGES_PAPER_BY_ARXIV_ID__PUBLISHED, CORE_CELL_TEXT },
	{ "updated", PAGES_PAPER_BY_ARXIV_ID__UPDATED, CORE_CELL_TEXT },
	{ "versions", PAGES_PAPER_BY_ARXIV_ID__VERSIONS, CORE_CELL_LIST },
};

enum core_err
pages_store_paper(struct core_db *db, const char *base, const char *arxiv_id,
    json_t **out)
{
	PGresult *res = NULL;
	const char *params[1];
	json_t *o = NULL, *authors, *rows = NULL, *row, *u;
	enum core_err er;
	size_t i;
	int matched = 0;

	*out = NULL;
	params[0] = arxiv_id;
	if ((er = core_db_exec(db, PAGES_SQL_PAPER_BY_ARXIV_ID, params, 1,
		 &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	o = json_object();
	/* Internal (similar papers start from it); paper.c removes it. */
	json_object_set_new(o, "paper_id",
	    json_integer(
		core_cell_bigint(res, 0, PAGES_PAPER_BY_ARXIV_ID__ID, 0)));
	json_object_set_new(o, "type", json_string("paper"));
	json_object_set_new(o, "arxiv_id",
	    core_cell_jtext(res, 0, PAGES_PAPER_BY_ARXIV_ID__ARXIV_ID));
	u = url_paper(base,
	    core_cell_text(res, 0, PAGES_PAPER_BY_ARXIV_ID__ARXIV_ID),
	    core_cell_text(res, 0, PAGES_PAPER_BY_ARXIV_ID__SLUG));
	json_object_set_new(o, "url", u);
	core_row_set(o, res, 0, paper_fields,
	    sizeof(paper_fields) / sizeof(paper_fields[0]));
	version_urls(json_object_get(o, "versions"),
	    core_cell_text(res, 0, PAGES_PAPER_BY_ARXIV_ID__ARXIV_ID));
	json_object_set_new(o, "doi",
	    core_cell_jtext(res, 0, PAGES_PAPER_BY_ARXIV_ID__DOI));
	json_object_set_new(o, "doi_url",
	    link_or_null("https://doi.org/",
		core_cell_text(res, 0, PAGES_PAPER_BY_ARXIV_ID__DOI)));
	json_object_set_new(o, "journal_ref",
	    core_cell_jtext(res, 0, PAGES_PAPER_BY_ARXIV_ID__JOURNAL_REF));
	json_object_set_new(o, "license",
	    core_cell_jtext(res, 0, PAGES_PAPER_BY_ARXIV_ID__LICENSE));
	json_object_set_new(o, "citation_count",
	    core_cell_jint(res, 0, PAGES_PAPER_BY_ARXIV_ID__CITATION_COUNT));
	json_object_set_new(o, "citation_source",
	    core_cell_jtext(res, 0, PAGES_PAPER_BY_ARXIV_ID__CITATION_SOURCE));
	json_object_set_new(o, "links",
	    arxiv_links(base,
		core_cell_text(res, 0, PAGES_PAPER_BY_ARXIV_ID__ARXIV_ID),
		json_string_value(u)));

	/* [{position, raw_name, id, name, slug}] in order (pages.sql). */
	rows = core_cell_json(res, 0, PAGES_PAPER_BY_ARXIV_ID__AUTHORS,
	    json_array());
	authors = json_array();
	json_array_foreach(rows, i, row)
	{
		json_t *a = json_object(), *r = json_null();

		json_object_set_new(a, "position", fv(row, "position"));
		json_object_set_new(a, "name",
		    core_json_name(pages_str(row, "raw_name")));
		/* The bytes as received (issue 16): only "name" is shown. */
		json_object_set_new(a, "raw_name",
		    core_json_str(pages_str(row, "raw_name")));
		if (!json_is_null(json_object_get(row, "id"))) {
			matched++;
			r = json_object();
			json_object_set_new(r, "id", fv(row, "id"));
			json_object_set_new(r, "name", fv(row, "name"));
			json_object_set_new(r, "url",
			    url_researcher(base, pages_int(row, "id", 0),
				pages_str(row, "slug")));
		}
		json_object_set_new(a, "researcher", r);
		json_array_append_new(authors, a);
	}
	json_object_set_new(o, "authors", authors);
	json_object_set_new(o, "authors_matched", json_integer(matched));
	json_object_set_new(o, "all_authors_matched",
	    json_boolean(json_array_size(rows) > 0 &&
		(size_t)matched == json_array_size(rows)));
	pages_analysis_set(o,
	    core_cell_json(res, 0, PAGES_PAPER_BY_ARXIV_ID__ANALYSIS,
		json_null()));
	*out = o;
	o = NULL;
out:
	PQclear(res);
	json_decref(rows);
	json_decref(o);
	return er;
}

enum core_err
pages_store_latest(struct core_db *db, const char *base, json_t **out)
{
	return card_query(db, base, PAGES_SQL_LATEST_PAPERS, NULL, 0, out,
	    NULL);
}

enum core_err
pages_store_counts(struct core_db *db, json_t **out)
{
	PGresult *res = NULL;
	enum core_err er;

	*out = NULL;
	if ((er = core_db_exec(db, PAGES_SQL_CORPUS_COUNTS, NULL, 0, &res)) ==
		CORE_OK &&
	    PQntuples(res) == 1)
		*out = json_pack("{s:o,s:o,s:o}", "papers",
		    core_cell_jint(res, 0, PAGES_CORPUS_COUNTS__PAPERS),
		    "researchers",
		    core_cell_jint(res, 0, PAGES_CORPUS_COUNTS__RESEARCHERS),
		    "institutions",
		    core_cell_jint(res, 0, PAGES_CORPUS_COUNTS__INSTITUTIONS));
	PQclear(res);
	return er;
}

/* ---------------------------------------------------------------- researchers */

/* Adds {name, id, url: prefix + id} for a known external id. */
static void
profile(json_t *profiles, const char *name, const char *prefix, const char *id)
{
	char *u;

	if (id == NULL || *id == '\0')
		return;
	u = core_xasprintf("%s%s", prefix, id);
	json_array_append_new(profiles,
	    json_pack("{s:s,s:o,s:o}", "name", name, "id", core_json_str(id),
		"url", core_json_str(u)));
	free(u);
}

/*
 * Runs stmt with $1 = id into *res (the caller clears it): CORE_OK with
 * at least one row, CORE_ENOTFOUND without, or CORE_EDB.
 */
static enum core_err
by_id(struct core_db *db, int stmt, long long id, PGresult **res)
{
	char idbuf[24];
	const char *params[1] = { idbuf };
	enum core_err er;

	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	if ((er = core_db_exec(db, stmt, params, 1, res)) != CORE_OK)
		return er;
	return PQntuples(*res) == 0 ? CORE_ENOTFOUND : CORE_OK;
}

/* The start of an entity page's model: {type, id, name} from row 0. */
static json_t *
entity(const char *type, const PGresult *res, int idcol, int namecol)
{
	return json_pack("{s:s,s:o,s:o}", "type", type, "id",
	    core_cell_jint(res, 0, idcol), "name",
	    core_cell_jtext(res, 0, namecol));
}

enum core_err
pages_store_researcher(struct core_db *db, const char *base, long long id,
    json_t **out)
{
	PGresult *res = NULL;
	json_t *o = NULL, *profiles, *metrics;
	enum core_err er;

	*out = NULL;
	if ((er = by_id(db, PAGES_SQL_RESEARCHER_BY_ID, id, &res)) != CORE_OK)
		goto out;
	o = entity("researcher", res, PAGES_RESEARCHER_BY_ID__ID,
	    PAGES_RESEARCHER_BY_ID__NAME);
	json_object_set_new(o, "name_key",
	    core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__NAME_KEY));
	json_object_set_new(o, "slug",
	    core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__SLUG));
	json_object_set_new(o, "url",
	    url_researcher(base, id,
		core_cell_text(res, 0, PAGES_RESEARCHER_BY_ID__SLUG)));
	json_object_set_new(o, "ids",
	    json_pack("{s:o,s:o,s:o}", "openalex",
		core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__OPENALEX_ID),
		"semantic_scholar",
		core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__S2_ID), "orcid",
		core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__ORCID)));
	profiles = json_array();
	profile(profiles, "OpenAlex", "https://openalex.org/",
	    core_cell_text(res, 0, PAGES_RESEARCHER_BY_ID__OPENALEX_ID));
	profile(profiles, "Semantic Scholar",
	    "https://www.semanticscholar.org/author/",
	    core_cell_text(res, 0, PAGES_RESEARCHER_BY_ID__S2_ID));
	profile(profiles, "ORCID", "https://orcid.org/",
	    core_cell_text(res, 0, PAGES_RESEARCHER_BY_ID__ORCID));
	json_object_set_new(o, "profiles", profiles);
	/* A source's figures (with its name and date) or nulls; then what
	 * the papers here say, labelled as such. */
	metrics = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "papers_here",
	    core_cell_jint(res, 0, PAGES_RESEARCHER_BY_ID__PAPER_COUNT),
	    "h_index", core_cell_jint(res, 0, PAGES_RESEARCHER_BY_ID__H_INDEX),
	    "citations",
	    core_cell_jint(res, 0, PAGES_RESEARCHER_BY_ID__CITATIONS),
	    "works_total",
	    core_cell_jint(res, 0, PAGES_RESEARCHER_BY_ID__WORKS_COUNT),
	    "source",
	    core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__METRICS_SOURCE),
	    "as_of",
	    core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__METRICS_AT));
	json_object_set_new(o, "metrics", metrics);
	json_object_set_new(o, "latest_paper",
	    core_cell_jtext(res, 0, PAGES_RESEARCHER_BY_ID__LATEST_PAPER));
	*out = o;
	o = NULL;
out:
	PQclear(res);
	json_decref(o);
	return er;
}

enum core_err
pages_store_researcher_papers(struct core_db *db, const char *base,
    long long id, enum pages_sort sort, const char *category, long page,
    json_t **items, long long *total)
{
	static const int stmts[2][PAGES_SORT__MAX] = {
		{ PAGES_SQL_RESEARCHER_PAPERS_NEWEST,
		    PAGES_SQL_RESEARCHER_PAPERS_CITATIONS },
		{ PAGES_SQL_RESEARCHER_PAPERS_CAT_NEWEST,
		    PAGES_SQL_RESEARCHER_PAPERS_CAT_CITATIONS },
	};
	const char *params[4];
	struct pages_window w;
	char idbuf[24];
	enum core_err er;
	int cat = category != NULL;

	*items = NULL;
	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	pages_window(&w, page);
	params[0] = idbuf;
	params[1] = w.lim;
	params[2] = w.off;
	params[3] = category;
	if ((er = card_query(db, base, stmts[cat][sort], params, cat ? 4 : 3,
		 items, total)) != CORE_OK ||
	    *total >= 0)
		return er;
	/* No row to read the total from: an empty list or a page beyond. */
	*total = 0;
	if (page == 1)
		return CORE_OK;
	params[1] = category;
	if (cat)
		return count_query(db, PAGES_SQL_RESEARCHER_PAPER_COUNT_CAT,
		    PAGES_RESEARCHER_PAPER_COUNT_CAT__COUNT, params, 2, total);
	return count_query(db, PAGES_SQL_RESEARCHER_PAPER_COUNT,
	    PAGES_RESEARCHER_PAPER_COUNT__COUNT, params, 1, total);
}

/* The "fields" block: categories with counts and their filter links. */
static json_t *
blk_fields(const char *base, const char *rpath, const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		const char *c = pages_str(row, "category");
		char *u = NULL;

		/* Only well-formed codes become filter links. */
		if (c != NULL && pages_category_ok(c))
			u = core_xasprintf("%s%s?category=%s", base, rpath, c);
		json_array_append_new(a,
		    json_pack("{s:o,s:I,s:o}", "category", fv(row, "category"),
			"papers", (json_int_t)pages_int(row, "papers", 0),
			"url", u != NULL ? core_json_str(u) : json_null()));
		free(u);
	}
	return a;
}

static json_t *
blk_same_name(const char *base, const json_t *rows)
{
	json_t *a = json_array(), *row;
	long long total = 0;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		total = pages_int(row, "total", 0);
		json_array_append_new(a,
		    json_pack("{s:o,s:o,s:o,s:o,s:o}", "id", fv(row, "id"),
			"name", fv(row, "name"), "url",
			url_researcher(base, pages_int(row, "id", 0),
			    pages_str(row, "slug")),
			"papers", fv(row, "paper_count"), "h_index",
			fv(row, "h_index")));
	}
	return json_pack("{s:I,s:o}", "total", (json_int_t)total, "items", a);
}

static json_t *
blk_institutions(const char *base, const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		json_array_append_new(a,
		    json_pack("{s:o,s:o,s:o,s:o,s:o,s:b,s:o,s:o}", "id",
			fv(row, "id"), "name", fv(row, "name"), "url",
			url_institution(base, pages_int(row, "id", 0),
			    pages_str(row, "slug")),
			"ror_id", fv(row, "ror_id"), "country",
			fv(row, "country_name"), "last_known",
			json_is_true(json_object_get(row, "last_known")),
			"first_year", fv(row, "first_year"), "last_year",
			fv(row, "last_year")));
	}
	return a;
}

/*
 * The co-author network in the shape pages_network_svg() draws (see
 * network_svg.h): the researcher as "center", the top co-authors by
 * joint papers as "nodes" ("papers": joint papers), and "edges" (a, b,
 * weight: joint papers) among all of them, the centre included.  The
 * researcher's papers with more than "large_over" authors make no pairs
 * (0040); when there are some, "large_papers_left_out" counts them and
 * "large_papers_authors_over" says the limit, so that the page can say
 * what the network leaves out.
 */
static json_t *
blk_network(const char *base, const json_t *r, const json_t *pos,
    const json_t *co, const json_t *ed)
{
	json_t *nodes = json_array(), *edges = json_array(), *row, *net;
	long long large = pages_int(pos, "large", 0);
	size_t i;

	json_array_foreach(co, i, row)
	{
		json_array_append_new(nodes,
		    json_pack("{s:o,s:o,s:o,s:I}", "id", fv(row, "id"), "name",
			fv(row, "name"), "url",
			url_researcher(base, pages_int(row, "id", 0),
			    pages_str(row, "slug")),
			"papers", (json_int_t)pages_int(row, "papers", 0)));
	}
	json_array_foreach(ed, i, row)
	{
		json_array_append_new(edges,
		    json_pack("{s:I,s:I,s:I}", "a",
			(json_int_t)pages_int(row, "a", 0), "b",
			(json_int_t)pages_int(row, "b", 0), "weight",
			(json_int_t)pages_int(row, "papers", 0)));
	}
	net = json_pack("{s:{s:O,s:O,s:O},s:o,s:o}", "center", "id",
	    json_object_get(r, "id"), "name", json_object_get(r, "name"), "url",
	    json_object_get(r, "url"), "nodes", nodes, "edges", edges);
	if (large > 0) {
		json_object_set_new(net, "large_papers_left_out",
		    json_integer(large));
		json_object_set_new(net, "large_papers_authors_over",
		    json_integer(pages_int(pos, "large_over", 0)));
	}
	return net;
}

static json_t *
blk_timeline(const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		json_array_append_new(a,
		    json_pack("{s:I,s:I}", "year",
			(json_int_t)pages_int(row, "year", 0), "count",
			(json_int_t)pages_int(row, "papers", 0)));
	}
	return a;
}

/*
 * Every side block of the researcher page from one statement,
 * RESEARCHER_BLOCKS, which answers one json document of rows with named
 * fields.
 */
enum core_err
pages_store_researcher_blocks(struct core_db *db, const char *base,
    const char *rpath, json_t *r)
{
	PGresult *res = NULL;
	const char *params[2];
	char idbuf[24];
	json_t *d = NULL, *pos;
	enum core_err er;

	snprintf(idbuf, sizeof(idbuf), "%lld", pages_int(r, "id", 0));
	params[0] = idbuf;
	params[1] = pages_str(r, "name_key");
	if (params[1] == NULL)
		params[1] = "";
	if ((er = core_db_exec(db, PAGES_SQL_RESEARCHER_BLOCKS, params, 2,
		 &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) != 1 ||
	    (d = core_cell_json(res, 0, PAGES_RESEARCHER_BLOCKS__BLOCKS,
		 NULL)) == NULL ||
	    !json_is_object(d)) {
		core_log(CORE_LOG_ERROR, "pages.store",
		    "RESEARCHER_BLOCKS gave no json object");
		er = CORE_EDB;
		goto out;
	}
	/* metrics.here: the figures the refresh keeps (0046). */
	json_object_set(json_object_get(r, "metrics"), "here",
	    json_object_get(d, "here"));
	pos = json_object_get(d, "pos");
	json_object_set_new(r, "author_position",
	    json_pack("{s:I,s:I,s:I,s:I,s:I}", "first",
		(json_int_t)pages_int(pos, "first", 0), "middle",
		(json_int_t)pages_int(pos, "middle", 0), "last",
		(json_int_t)pages_int(pos, "last", 0), "papers_counted",
		(json_int_t)pages_int(pos, "counted", 0), "papers_total",
		(json_int_t)pages_int(pos, "total", 0)));
	json_object_set_new(r, "fields",
	    blk_fields(base, rpath, json_object_get(d, "fields")));
	json_object_set_new(r, "same_name",
	    blk_same_name(base, json_object_get(d, "same")));
	json_object_set_new(r, "institutions",
	    blk_institutions(base, json_object_get(d, "inst")));
	json_object_set_new(r, "network",
	    blk_network(base, r, pos, json_object_get(d, "co"),
		json_object_get(d, "edges")));
	json_object_set_new(r, "timeline",
	    blk_timeline(json_object_get(d, "timeline")));
out:
	PQclear(res);
	json_decref(d);
	return er;
}

/* ---------------------------------------------------------------- institutions */

/* The institution's members that are its columns as they are, after
 * "ror_url". */
static const struct core_cell_field institution_fields[] = {
	{ "openalex_id", PAGES_INSTITUTION_BY_ID__OPENALEX_ID, CORE_CELL_TEXT },
	{ "aliases", PAGES_INSTITUTION_BY_ID__ALIASES, CORE_CELL_LIST },
	{ "country_code", PAGES_INSTITUTION_BY_ID__COUNTRY_CODE,
	    CORE_CELL_TEXT },
	{ "country", PAGES_INSTITUTION_BY_ID__COUNTRY_NAME, CORE_CELL_TEXT },
	{ "kind", PAGES_INSTITUTION_BY_ID__TYPE, CORE_CELL_TEXT },
	{ "status", PAGES_INSTITUTION_BY_ID__STATUS, CORE_CELL_TEXT },
	{ "website", PAGES_INSTITUTION_BY_ID__WEBSITE, CORE_CELL_TEXT },
	{ "established", PAGES_INSTITUTION_BY_ID__ESTABLISHED, CORE_CELL_INT },
};

enum core_err
pages_store_institution(struct core_db *db, const char *base, long long id,
    long page, json_t **out, long long *npapers)
{
	PGresult *res = NULL, *rr = NULL;
	const char *params[3];
	char idbuf[24], nbuf[16], offbuf[24];
	json_t *o = NULL, *a, *v, *papers = NULL;
	enum core_err er;
	long long total = 0;
	int i;

	*out = NULL;
	if ((er = by_id(db, PAGES_SQL_INSTITUTION_BY_ID, id, &res)) != CORE_OK)
		goto out;
	o = entity("institution", res, PAGES_INSTITUTION_BY_ID__ID,
	    PAGES_INSTITUTION_BY_ID__NAME);
	json_object_set_new(o, "slug",
	    core_cell_jtext(res, 0, PAGES_INSTITUTION_BY_ID__SLUG));
	json_object_set_new(o, "url",
	    url_institution(base, id,
		core_cell_text(res, 0, PAGES_INSTITUTION_BY_ID__SLUG)));
	json_object_set_new(o, "ror_id",
	    core_cell_jtext(res, 0, PAGES_INSTITUTION_BY_ID__ROR_ID));
	json_object_set_new(o, "ror_url",
	    link_or_null("https://ror.org/",
		core_cell_text(res, 0, PAGES_INSTITUTION_BY_ID__ROR_ID)));
	core_row_set(o, res, 0, institution_fields,
	    sizeof(institution_fields) / sizeof(institution_fields[0]));

	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	params[0] = idbuf;
	snprintf(nbuf, sizeof(nbuf), "%d", INST_RESEARCHERS_MAX);
	params[1] = nbuf;
	if ((er = core_db_exec(db, PAGES_SQL_INSTITUTION_RESEARCHERS, params, 2,
		 &rr)) != CORE_OK)
		goto out;
	a = json_array();
	for (i = 0; i < PQntuples(rr); i++) {
		total = core_cell_bigint(rr, i,
		    PAGES_INSTITUTION_RESEARCHERS__TOTAL, 0);
		json_array_append_new(a,
		    json_pack("{s:o,s:o,s:o,s:o,s:o}", "id",
			core_cell_jint(rr, i,
			    PAGES_INSTITUTION_RESEARCHERS__ID),
			"name",
			core_cell_jtext(rr, i,
			    PAGES_INSTITUTION_RESEARCHERS__NAME),
			"url",
			url_researcher(base,
			    core_cell_bigint(rr, i,
				PAGES_INSTITUTION_RESEARCHERS__ID, 0),
			    core_cell_text(rr, i,
				PAGES_INSTITUTION_RESEARCHERS__SLUG)),
			"papers",
			core_cell_jint(rr, i,
			    PAGES_INSTITUTION_RESEARCHERS__PAPER_COUNT),
			"h_index",
			core_cell_jint(rr, i,
			    PAGES_INSTITUTION_RESEARCHERS__H_INDEX)));
		/* The years of the links; null: any year (issue 16). */
		v = json_array_get(a, json_array_size(a) - 1);
		json_object_set_new(v, "first_year",
		    core_cell_jint(rr, i,
			PAGES_INSTITUTION_RESEARCHERS__FIRST_YEAR));
		json_object_set_new(v, "last_year",
		    core_cell_jint(rr, i,
			PAGES_INSTITUTION_RESEARCHERS__LAST_YEAR));
	}
	json_object_set_new(o, "researchers",
	    json_pack("{s:I,s:o}", "total", (json_int_t)total, "items", a));

	snprintf(nbuf, sizeof(nbuf), "%d", PAGES_PER_PAGE);
	snprintf(offbuf, sizeof(offbuf), "%ld", (page - 1) * PAGES_PER_PAGE);
	params[2] = offbuf;
	if ((er = card_query(db, base, PAGES_SQL_INSTITUTION_PAPERS, params, 3,
		 &papers, npapers)) != CORE_OK)
		goto out;
	if (*npapers < 0)
		*npapers = 0; /* no row: none, or a page beyond the last */
	json_object_set_new(o, "recent_papers", papers);
	*out = o;
	o = NULL;
out:
	PQclear(res);
	PQclear(rr);
	json_decref(o);
	return er;
}

enum core_err
pages_store_institution_by_ror(struct core_db *db, const char *ror,
    json_t **out)
{
	PGresult *res = NULL;
	const char *params[1];
	enum core_err er;
	int i;

	*out = NULL;
	params[0] = ror;
	if ((er = core_db_exec(db, PAGES_SQL_INSTITUTION_BY_ROR, params, 1,
		 &res)) != CORE_OK)
		return er;
	*out = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(*out,
		    json_pack("{s:o,s:o,s:o}", "id",
			core_cell_jint(res, i, PAGES_INSTITUTION_BY_ROR__ID),
			"name",
			core_cell_jtext(res, i, PAGES_INSTITUTION_BY_ROR__NAME),
			"slug",
			core_cell_jtext(res, i,
			    PAGES_INSTITUTION_BY_ROR__SLUG)));
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_store_institutions_by_name(struct core_db *db, const char *base,
    const char *name, json_t **out)
{
	PGresult *res = NULL;
	const char *params[2];
	char *slug;
	enum core_err er;
	int i;

	*out = NULL;
	slug = core_slug(name, 200);
	params[0] = name;
	/* An empty slug must not match institutions whose slug is empty. */
	params[1] = slug[0] != '\0' ? slug : "\x01";
	er = core_db_exec(db, PAGES_SQL_INSTITUTIONS_BY_NAME, params, 2, &res);
	free(slug);
	if (er != CORE_OK)
		return er;
	*out = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(*out,
		    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "id",
			core_cell_jint(res, i, PAGES_INSTITUTIONS_BY_NAME__ID),
			"name",
			core_cell_jtext(res, i,
			    PAGES_INSTITUTIONS_BY_NAME__NAME),
			"slug",
			core_cell_jtext(res, i,
			    PAGES_INSTITUTIONS_BY_NAME__SLUG),
			"url",
			url_institution(base,
			    core_cell_bigint(res, i,
				PAGES_INSTITUTIONS_BY_NAME__ID, 0),
			    core_cell_text(res, i,
				PAGES_INSTITUTIONS_BY_NAME__SLUG)),
			"country",
			core_cell_jtext(res, i,
			    PAGES_INSTITUTIONS_BY_NAME__COUNTRY_NAME),
			"researchers",
			core_cell_jint(res, i,
			    PAGES_INSTITUTIONS_BY_NAME__RESEARCHER_COUNT)));
	PQclear(res);
	return CORE_OK;
}

/* ---------------------------------------------------------------- directories */

/* One more column of a directory row: its JSON key, column, reader. */
struct dir_col {
	const char *key;
	int col;
	json_t *(*cell)(const PGresult *, int, int);
};

/*
 * A directory: its count and page statements and, for each row, the
 * id, name and slug columns, the URL builder and up to three more
 * columns, in the order the JSON object lists them.
 */
struct dir_spec {
	int count_stmt, count_col, page_stmt;
	int id_col, name_col, slug_col;
	json_t *(*url)(const char *, long long, const char *);
	struct dir_col more[3];
};

static const struct dir_spec researchers_dir = {
	PAGES_SQL_RESEARCHERS_COUNT,
	PAGES_RESEARCHERS_COUNT__RESEARCHERS,
	PAGES_SQL_RESEARCHERS_PAGE,
	PAGES_RESEARCHERS_PAGE__ID,
	PAGES_RESEARCHERS_PAGE__NAME,
	PAGES_RESEARCHERS_PAGE__SLUG,
	url_researcher,
	{
	    { "papers", PAGES_RESEARCHERS_PAGE__PAPER_COUNT, core_cell_jint },
	    { "h_index", PAGES_RESEARCHERS_PAGE__H_INDEX, core_cell_jint },
	    { "citations", PAGES_RESEARCHERS_PAGE__CITATIONS, core_cell_jint },
	},
};

static const struct dir_spec institutions_dir = {
	PAGES_SQL_INSTITUTIONS_COUNT,
	PAGES_INSTITUTIONS_COUNT__INSTITUTIONS,
	PAGES_SQL_INSTITUTIONS_PAGE,
	PAGES_INSTITUTIONS_PAGE__ID,
	PAGES_INSTITUTIONS_PAGE__NAME,
	PAGES_INSTITUTIONS_PAGE__SLUG,
	url_institution,
	{
	    { "country", PAGES_INSTITUTIONS_PAGE__COUNTRY_NAME,
		core_cell_jtext },
	    { "kind", PAGES_INSTITUTIONS_PAGE__TYPE, core_cell_jtext },
	    { "researchers", PAGES_INSTITUTIONS_PAGE__RESEARCHER_COUNT,
		core_cell_jint },
	},
};

/*
 * Page "page" of directory d: *total its row count, *items (caller
 * json_decref()s it) an array of one object per row.
 */
static enum core_err
dir_page(struct core_db *db, const char *base, const struct dir_spec *d,
    long page, json_t **items, long long *total)
{
	PGresult *res = NULL;
	const char *params[2];
	struct pages_window w;
	enum core_err er;
	json_t *o;
	size_t k;
	int i;

	*items = NULL;
	if ((er = count_query(db, d->count_stmt, d->count_col, NULL, 0,
		 total)) != CORE_OK)
		return er;
	pages_window(&w, page);
	params[0] = w.lim;
	params[1] = w.off;
	if ((er = core_db_exec(db, d->page_stmt, params, 2, &res)) != CORE_OK)
		return er;
	*items = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		o = json_object();
		json_object_set_new(o, "id", core_cell_jint(res, i, d->id_col));
		json_object_set_new(o, "name",
		    core_cell_jtext(res, i, d->name_col));
		json_object_set_new(o, "url",
		    d->url(base, core_cell_bigint(res, i, d->id_col, 0),
			core_cell_text(res, i, d->slug_col)));
		for (k = 0; k < sizeof(d->more) / sizeof(d->more[0]); k++)
			json_object_set_new(o, d->more[k].key,
			    d->more[k].cell(res, i, d->more[k].col));
		json_array_append_new(*items, o);
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_store_researchers_page(struct core_db *db, const char *base, long page,
    json_t **items, long long *total)
{
	return dir_page(db, base, &researchers_dir, page, items, total);
}

enum core_err
pages_store_institutions_page(struct core_db *db, const char *base, long page,
    json_t **items, long long *total)
{
	return dir_page(db, base, &institutions_dir, page, items, total);
}

/* ---------------------------------------------------------------- exports */

/* Rows per query of an export: memory stays bounded whatever the list. */
#define CITE_CHUNK 200

static const int export_stmts[PAGES_EXPORT__MAX] = {
	PAGES_SQL_RESEARCHER_EXPORT,
};

enum core_err
pages_store_cite(struct core_db *db, enum pages_export what, const char *key,
    long long max, struct core_cite *c)
{
	int stmt = export_stmts[what];
	PGresult *res = NULL;
	const char *params[3];
	char lim[24], off[24];
	long long done = 0;
	enum core_err er = CORE_OK;
	json_t *p;
	int i, n;

	params[0] = key;
	params[1] = lim;
	params[2] = off;
	while (done < max && c->err == CORE_OK) {
		snprintf(lim, sizeof(lim), "%lld",
		    max - done < CITE_CHUNK ? max - done : CITE_CHUNK);
		snprintf(off, sizeof(off), "%lld", done);
		if ((er = core_db_exec(db, stmt, params, 3, &res)) != CORE_OK)
			break;
		n = PQntuples(res);
		for (i = 0; i < n; i++) {
			p = core_cell_json(res, i,
			    PAGES_RESEARCHER_EXPORT__PAPER, NULL);
			core_cite_add(c, p);
			json_decref(p);
		}
		PQclear(res);
		res = NULL;
		done += n;
		if (n < CITE_CHUNK)
			break;
	}
	PQclear(res);
	return er;
}
