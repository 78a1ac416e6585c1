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
#define INST_PAPERS_MAX      24
/* The shared card columns; an authors column may follow, then a total. */
#define CARD_COLS 10

/* ---------------------------------------------------------------- cells */

static int
isnull(const PGresult *res, int r, int c)
{
	return PQgetisnull(res, r, c);
}

static const char *
val(const PGresult *res, int r, int c)
{
	return PQgetvalue(res, r, c);
}

static long long
lval(const PGresult *res, int r, int c)
{
	return isnull(res, r, c) ? 0 : strtoll(PQgetvalue(res, r, c), NULL, 10);
}

/* A text cell as a JSON string, null for NULL. */
static json_t *
jtext(const PGresult *res, int r, int c)
{
	return isnull(res, r, c) ? json_null() : core_json_str(val(res, r, c));
}

/* An integer cell, null for NULL (an unknown metric). */
static json_t *
jint(const PGresult *res, int r, int c)
{
	return isnull(res, r, c) ? json_null()
				 : json_integer((json_int_t)lval(res, r, c));
}

static json_t *
jbool(const PGresult *res, int r, int c)
{
	return json_boolean(!isnull(res, r, c) && val(res, r, c)[0] == 't');
}

/* A cell holding JSON text (to_json(), jsonb); def when NULL or bad. */
static json_t *
jjson(const PGresult *res, int r, int c, json_t *def)
{
	json_t *v;

	if (isnull(res, r, c) ||
	    (v = json_loads(val(res, r, c), JSON_DECODE_ANY, NULL)) == NULL)
		return def;
	json_decref(def);
	return v;
}

/* Element i of a json array as an integer, 0 for null or absent. */
static long long
ai(const json_t *a, size_t i)
{
	return (long long)json_integer_value(json_array_get(a, i));
}

/* Element i of a json array, a new reference (null when absent). */
static json_t *
av(const json_t *a, size_t i)
{
	json_t *v = json_array_get(a, i);

	return v != NULL ? json_incref(v) : json_null();
}

/* Element i of a json array as a string, NULL for null or absent. */
static const char *
as(const json_t *a, size_t i)
{
	return json_string_value(json_array_get(a, i));
}

static json_t *
url_paper(const char *base, const char *arxiv_id, const char *slug)
{
	char *p = pages_paper_path(arxiv_id, slug);
	json_t *u = pages_json_abs(base, p);

	free(p);
	return u;
}

static json_t *
url_researcher(const char *base, long long id, const char *slug)
{
	char *p = pages_researcher_path(id, slug);
	json_t *u = pages_json_abs(base, p);

	free(p);
	return u;
}

static json_t *
url_institution(const char *base, long long id, const char *slug)
{
	char *p = pages_institution_path(id, slug);
	json_t *u = pages_json_abs(base, p);

	free(p);
	return u;
}

/* ---------------------------------------------------------------- cards */

/*
 * A paper card from the shared column list (see pages.sql): id, arxiv_id,
 * title, slug, published, primary_category, categories, citation_count,
 * author_count, fully_matched.
 */
static json_t *
card(const char *base, const PGresult *res, int r)
{
	json_t *o = json_object();

	json_object_set_new(o, "arxiv_id", jtext(res, r, 1));
	json_object_set_new(o, "title", jtext(res, r, 2));
	json_object_set_new(o, "url",
	    url_paper(base, val(res, r, 1), val(res, r, 3)));
	json_object_set_new(o, "published", jtext(res, r, 4));
	json_object_set_new(o, "primary_category", jtext(res, r, 5));
	json_object_set_new(o, "categories", jjson(res, r, 6, json_array()));
	json_object_set_new(o, "citation_count", jint(res, r, 7));
	json_object_set_new(o, "author_count", jint(res, r, 8));
	json_object_set_new(o, "all_authors_matched", jbool(res, r, 9));
	json_object_set_new(o, "authors", json_array());
	return o;
}

/* A card's author: {name, id, url}, url null when unmatched. */
static json_t *
card_author(const char *base, json_t *name, json_t *id, long long rid,
    const char *slug)
{
	json_t *a = json_object();

	json_object_set_new(a, "name", name);
	json_object_set_new(a, "id", id);
	json_object_set_new(a, "url",
	    json_is_null(id) ? json_null() : url_researcher(base, rid, slug));
	return a;
}

/*
 * Cards for every row of res with the authors column (see pages.sql):
 * [[raw_name, researcher id, researcher slug]] in order, no query.
 */
static void
cards_inline(const char *base, const PGresult *res, json_t *arr)
{
	json_t *authors, *a, *c;
	size_t j;
	int i;

	for (i = 0; i < PQntuples(res); i++) {
		c = card(base, res, i);
		authors = jjson(res, i, CARD_COLS, json_null());
		json_array_foreach(authors, j, a)
		{
			json_array_append_new(json_object_get(c, "authors"),
			    card_author(base, av(a, 0), av(a, 1), ai(a, 1),
				as(a, 2)));
		}
		json_decref(authors);
		json_array_append_new(arr, c);
	}
}

/*
 * Cards for every row of res, with their first authors from the authors
 * column when the statement has one, otherwise from one more query.
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
	int i, j, n = PQntuples(res);

	*out = NULL;
	if (n == 0)
		goto done;
	if (PQnfields(res) > CARD_COLS) {
		cards_inline(base, res, arr);
		goto done;
	}
	pid = core_xcalloc((size_t)n, sizeof(*pid));
	core_buf_putc(&ids, '{');
	for (i = 0; i < n; i++) {
		pid[i] = lval(res, i, 0);
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
		long long p = lval(ar, j, 0);
		json_t *a;

		for (i = 0; i < n && pid[i] != p; i++)
			;
		if (i == n)
			continue;
		c = json_array_get(arr, (size_t)i);
		a = card_author(base, jtext(ar, j, 1), jint(ar, j, 2),
		    lval(ar, j, 2), val(ar, j, 3));
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
 * statement ends with count(*) OVER (), read from the first row; *total
 * is -1 when there is no row to read it from.
 */
static enum core_err
card_query(struct core_db *db, const char *base, int stmt,
    const char *const *params, int np, json_t **out, long long *total)
{
	PGresult *res = NULL;
	enum core_err er;

	*out = NULL;
	if ((er = core_db_exec(db, stmt, params, np, &res)) == CORE_OK)
		er = cards(db, base, res, out);
	if (total != NULL)
		*total = er == CORE_OK && PQntuples(res) > 0
		    ? lval(res, 0, PQnfields(res) - 1)
		    : -1;
	PQclear(res);
	return er;
}

/* The single count(*) of a statement. */
static enum core_err
count_query(struct core_db *db, int stmt, const char *const *params, int np,
    long long *n)
{
	PGresult *res = NULL;
	enum core_err er;

	*n = 0;
	if ((er = core_db_exec(db, stmt, params, np, &res)) == CORE_OK &&
	    PQntuples(res) == 1)
		*n = lval(res, 0, 0);
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

enum core_err
pages_store_paper(struct core_db *db, const char *base, const char *arxiv_id,
    json_t **out)
{
	PGresult *res = NULL;
	const char *params[1];
	json_t *o = NULL, *authors, *rows = NULL, *row, *u;
	enum core_err er;
	char *doi;
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
	json_object_set_new(o, "paper_id", json_integer(lval(res, 0, 0)));
	json_object_set_new(o, "type", json_string("paper"));
	json_object_set_new(o, "arxiv_id", jtext(res, 0, 1));
	u = url_paper(base, val(res, 0, 1), val(res, 0, 3));
	json_object_set_new(o, "url", u);
	json_object_set_new(o, "slug", jtext(res, 0, 3));
	json_object_set_new(o, "title", jtext(res, 0, 2));
	json_object_set_new(o, "abstract", jtext(res, 0, 10));
	json_object_set_new(o, "comment", jtext(res, 0, 11));
	json_object_set_new(o, "primary_category", jtext(res, 0, 5));
	json_object_set_new(o, "categories", jjson(res, 0, 6, json_array()));
	json_object_set_new(o, "published", jtext(res, 0, 4));
	json_object_set_new(o, "updated", jtext(res, 0, 12));
	json_object_set_new(o, "versions", jjson(res, 0, 13, json_array()));
	json_object_set_new(o, "doi", jtext(res, 0, 14));
	if (!isnull(res, 0, 14) && val(res, 0, 14)[0] != '\0') {
		doi = core_xasprintf("https://doi.org/%s", val(res, 0, 14));
		json_object_set_new(o, "doi_url", core_json_str(doi));
		free(doi);
	} else
		json_object_set_new(o, "doi_url", json_null());
	json_object_set_new(o, "journal_ref", jtext(res, 0, 15));
	json_object_set_new(o, "license", jtext(res, 0, 16));
	json_object_set_new(o, "citation_count", jint(res, 0, 7));
	json_object_set_new(o, "citation_source", jtext(res, 0, 17));
	json_object_set_new(o, "links",
	    arxiv_links(base, val(res, 0, 1), json_string_value(u)));

	/* [[position, raw_name, id, name, slug]] in order (pages.sql). */
	rows = jjson(res, 0, 18, json_array());
	authors = json_array();
	json_array_foreach(rows, i, row)
	{
		json_t *a = json_object(), *r = json_null();

		json_object_set_new(a, "position", av(row, 0));
		json_object_set_new(a, "name", av(row, 1));
		if (!json_is_null(json_array_get(row, 2))) {
			matched++;
			r = json_object();
			json_object_set_new(r, "id", av(row, 2));
			json_object_set_new(r, "name", av(row, 3));
			json_object_set_new(r, "url",
			    url_researcher(base, ai(row, 2), as(row, 4)));
		}
		json_object_set_new(a, "researcher", r);
		json_array_append_new(authors, a);
	}
	json_object_set_new(o, "authors", authors);
	json_object_set_new(o, "authors_matched", json_integer(matched));
	json_object_set_new(o, "all_authors_matched",
	    json_boolean(json_array_size(rows) > 0 &&
		(size_t)matched == json_array_size(rows)));
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
		*out = json_pack("{s:o,s:o,s:o}", "papers", jint(res, 0, 0),
		    "researchers", jint(res, 0, 1), "institutions",
		    jint(res, 0, 2));
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

enum core_err
pages_store_researcher(struct core_db *db, const char *base, long long id,
    json_t **out)
{
	PGresult *res = NULL;
	const char *params[1];
	char idbuf[24];
	json_t *o = NULL, *profiles;
	enum core_err er;

	*out = NULL;
	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	params[0] = idbuf;
	if ((er = core_db_exec(db, PAGES_SQL_RESEARCHER_BY_ID, params, 1,
		 &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	o = json_object();
	json_object_set_new(o, "type", json_string("researcher"));
	json_object_set_new(o, "id", jint(res, 0, 0));
	json_object_set_new(o, "name", jtext(res, 0, 1));
	json_object_set_new(o, "name_key", jtext(res, 0, 2));
	json_object_set_new(o, "slug", jtext(res, 0, 3));
	json_object_set_new(o, "url", url_researcher(base, id, val(res, 0, 3)));
	json_object_set_new(o, "ids",
	    json_pack("{s:o,s:o,s:o}", "openalex", jtext(res, 0, 4),
		"semantic_scholar", jtext(res, 0, 5), "orcid",
		jtext(res, 0, 6)));
	profiles = json_array();
	profile(profiles, "OpenAlex", "https://openalex.org/",
	    isnull(res, 0, 4) ? NULL : val(res, 0, 4));
	profile(profiles, "Semantic Scholar",
	    "https://www.semanticscholar.org/author/",
	    isnull(res, 0, 5) ? NULL : val(res, 0, 5));
	profile(profiles, "ORCID", "https://orcid.org/",
	    isnull(res, 0, 6) ? NULL : val(res, 0, 6));
	json_object_set_new(o, "profiles", profiles);
	json_object_set_new(o, "metrics",
	    json_pack("{s:o,s:o,s:o,s:o,s:o}", "papers_here", jint(res, 0, 11),
		"h_index", jint(res, 0, 7), "citations", jint(res, 0, 8),
		"works_total", jint(res, 0, 9), "source", jtext(res, 0, 10)));
	json_object_set_new(o, "latest_paper", jtext(res, 0, 12));
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
	char idbuf[24], lim[16], off[24];
	enum core_err er;
	int cat = category != NULL;

	*items = NULL;
	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	snprintf(lim, sizeof(lim), "%d", PAGES_PER_PAGE);
	snprintf(off, sizeof(off), "%lld",
	    (long long)(page - 1) * PAGES_PER_PAGE);
	params[0] = idbuf;
	params[1] = lim;
	params[2] = off;
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
	return count_query(db,
	    cat ? PAGES_SQL_RESEARCHER_PAPER_COUNT_CAT
		: PAGES_SQL_RESEARCHER_PAPER_COUNT,
	    params, cat ? 2 : 1, total);
}

/* The "fields" block: categories with counts and their filter links. */
static json_t *
blk_fields(const char *base, const char *rpath, const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		const char *c = as(row, 0);
		char *u = NULL;

		/* Only well-formed codes become filter links. */
		if (c != NULL && pages_category_ok(c))
			u = core_xasprintf("%s%s?category=%s", base, rpath, c);
		json_array_append_new(a,
		    json_pack("{s:o,s:I,s:o}", "category", av(row, 0), "papers",
			(json_int_t)ai(row, 1), "url",
			u != NULL ? core_json_str(u) : json_null()));
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
		total = ai(row, 5);
		json_array_append_new(a,
		    json_pack("{s:o,s:o,s:o,s:o,s:o}", "id", av(row, 0), "name",
			av(row, 1), "url",
			url_researcher(base, ai(row, 0), as(row, 2)), "papers",
			av(row, 3), "h_index", av(row, 4)));
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
			av(row, 0), "name", av(row, 1), "url",
			url_institution(base, ai(row, 0), as(row, 2)), "ror_id",
			av(row, 3), "country", av(row, 4), "last_known",
			json_is_true(json_array_get(row, 5)), "first_year",
			av(row, 6), "last_year", av(row, 7)));
	}
	return a;
}

/*
 * The co-author network in the shape pages_network_svg() draws (see
 * network_svg.h): the researcher as "center", the top co-authors by
 * joint papers as "nodes" ("papers": joint papers), and "edges" (a, b,
 * weight: joint papers) among all of them, the centre included.
 */
static json_t *
blk_network(const char *base, const json_t *r, const json_t *co,
    const json_t *ed)
{
	json_t *nodes = json_array(), *edges = json_array(), *row;
	size_t i;

	json_array_foreach(co, i, row)
	{
		json_array_append_new(nodes,
		    json_pack("{s:o,s:o,s:o,s:I}", "id", av(row, 0), "name",
			av(row, 1), "url",
			url_researcher(base, ai(row, 0), as(row, 2)), "papers",
			(json_int_t)ai(row, 3)));
	}
	json_array_foreach(ed, i, row)
	{
		json_array_append_new(edges,
		    json_pack("{s:I,s:I,s:I}", "a", (json_int_t)ai(row, 0), "b",
			(json_int_t)ai(row, 1), "weight",
			(json_int_t)ai(row, 2)));
	}
	return json_pack("{s:{s:O,s:O,s:O},s:o,s:o}", "center", "id",
	    json_object_get(r, "id"), "name", json_object_get(r, "name"), "url",
	    json_object_get(r, "url"), "nodes", nodes, "edges", edges);
}

static json_t *
blk_timeline(const json_t *rows)
{
	json_t *a = json_array(), *row;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		json_array_append_new(a,
		    json_pack("{s:I,s:I}", "year", (json_int_t)ai(row, 0),
			"count", (json_int_t)ai(row, 1)));
	}
	return a;
}

/*
 * Every side block of the researcher page from one statement,
 * RESEARCHER_BLOCKS, which answers one json document of row arrays.
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
	if (PQntuples(res) != 1 || (d = jjson(res, 0, 0, NULL)) == NULL ||
	    !json_is_object(d)) {
		core_log(CORE_LOG_ERROR, "pages.store",
		    "RESEARCHER_BLOCKS gave no json object");
		er = CORE_EDB;
		goto out;
	}
	pos = json_object_get(d, "pos");
	json_object_set_new(r, "author_position",
	    json_pack("{s:I,s:I,s:I,s:I,s:I}", "first", (json_int_t)ai(pos, 0),
		"middle", (json_int_t)ai(pos, 1), "last",
		(json_int_t)ai(pos, 2), "papers_counted",
		(json_int_t)ai(pos, 3), "papers_total",
		(json_int_t)ai(pos, 4)));
	json_object_set_new(r, "fields",
	    blk_fields(base, rpath, json_object_get(d, "fields")));
	json_object_set_new(r, "same_name",
	    blk_same_name(base, json_object_get(d, "same")));
	json_object_set_new(r, "institutions",
	    blk_institutions(base, json_object_get(d, "inst")));
	json_object_set_new(r, "network",
	    blk_network(base, r, json_object_get(d, "co"),
		json_object_get(d, "edges")));
	json_object_set_new(r, "timeline",
	    blk_timeline(json_object_get(d, "timeline")));
out:
	PQclear(res);
	json_decref(d);
	return er;
}

/* ---------------------------------------------------------------- institutions */

enum core_err
pages_store_institution(struct core_db *db, const char *base, long long id,
    json_t **out)
{
	PGresult *res = NULL, *rr = NULL;
	const char *params[2];
	char idbuf[24], nbuf[16];
	json_t *o = NULL, *a, *papers = NULL;
	enum core_err er;
	long long total = 0;
	char *ror;
	int i;

	*out = NULL;
	snprintf(idbuf, sizeof(idbuf), "%lld", id);
	params[0] = idbuf;
	if ((er = core_db_exec(db, PAGES_SQL_INSTITUTION_BY_ID, params, 1,
		 &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	o = json_object();
	json_object_set_new(o, "type", json_string("institution"));
	json_object_set_new(o, "id", jint(res, 0, 0));
	json_object_set_new(o, "name", jtext(res, 0, 2));
	json_object_set_new(o, "slug", jtext(res, 0, 3));
	json_object_set_new(o, "url",
	    url_institution(base, id, val(res, 0, 3)));
	json_object_set_new(o, "ror_id", jtext(res, 0, 1));
	if (!isnull(res, 0, 1) && val(res, 0, 1)[0] != '\0') {
		ror = core_xasprintf("https://ror.org/%s", val(res, 0, 1));
		json_object_set_new(o, "ror_url", core_json_str(ror));
		free(ror);
	} else
		json_object_set_new(o, "ror_url", json_null());
	json_object_set_new(o, "openalex_id", jtext(res, 0, 12));
	json_object_set_new(o, "aliases", jjson(res, 0, 4, json_array()));
	json_object_set_new(o, "country_code", jtext(res, 0, 5));
	json_object_set_new(o, "country", jtext(res, 0, 6));
	json_object_set_new(o, "kind", jtext(res, 0, 7));
	json_object_set_new(o, "status", jtext(res, 0, 8));
	json_object_set_new(o, "website", jtext(res, 0, 9));
	json_object_set_new(o, "established", jint(res, 0, 10));

	snprintf(nbuf, sizeof(nbuf), "%d", INST_RESEARCHERS_MAX);
	params[1] = nbuf;
	if ((er = core_db_exec(db, PAGES_SQL_INSTITUTION_RESEARCHERS, params, 2,
		 &rr)) != CORE_OK)
		goto out;
	a = json_array();
	for (i = 0; i < PQntuples(rr); i++) {
		total = lval(rr, i, 5);
		json_array_append_new(a,
		    json_pack("{s:o,s:o,s:o,s:o,s:o}", "id", jint(rr, i, 0),
			"name", jtext(rr, i, 1), "url",
			url_researcher(base, lval(rr, i, 0), val(rr, i, 2)),
			"papers", jint(rr, i, 3), "h_index", jint(rr, i, 4)));
	}
	json_object_set_new(o, "researchers",
	    json_pack("{s:I,s:o}", "total", (json_int_t)total, "items", a));

	snprintf(nbuf, sizeof(nbuf), "%d", INST_PAPERS_MAX);
	if ((er = card_query(db, base, PAGES_SQL_INSTITUTION_PAPERS, params, 2,
		 &papers, NULL)) != CORE_OK)
		goto out;
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
		    json_pack("{s:o,s:o,s:o}", "id", jint(res, i, 0), "name",
			jtext(res, i, 1), "slug", jtext(res, i, 2)));
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
			jint(res, i, 0), "name", jtext(res, i, 1), "slug",
			jtext(res, i, 2), "url",
			url_institution(base, lval(res, i, 0), val(res, i, 2)),
			"country", jtext(res, i, 3), "researchers",
			jint(res, i, 4)));
	PQclear(res);
	return CORE_OK;
}

/* ---------------------------------------------------------------- directories */

enum core_err
pages_store_researchers_page(struct core_db *db, const char *base, long page,
    json_t **items, long long *total)
{
	PGresult *res = NULL;
	const char *params[2];
	char lim[16], off[24];
	enum core_err er;
	int i;

	*items = NULL;
	if ((er = count_query(db, PAGES_SQL_RESEARCHERS_COUNT, NULL, 0,
		 total)) != CORE_OK)
		return er;
	snprintf(lim, sizeof(lim), "%d", PAGES_PER_PAGE);
	snprintf(off, sizeof(off), "%lld",
	    (long long)(page - 1) * PAGES_PER_PAGE);
	params[0] = lim;
	params[1] = off;
	if ((er = core_db_exec(db, PAGES_SQL_RESEARCHERS_PAGE, params, 2,
		 &res)) != CORE_OK)
		return er;
	*items = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(*items,
		    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "id",
			jint(res, i, 0), "name", jtext(res, i, 1), "url",
			url_researcher(base, lval(res, i, 0), val(res, i, 2)),
			"papers", jint(res, i, 3), "h_index", jint(res, i, 4),
			"citations", jint(res, i, 5)));
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_store_institutions_page(struct core_db *db, const char *base, long page,
    json_t **items, long long *total)
{
	PGresult *res = NULL;
	const char *params[2];
	char lim[16], off[24];
	enum core_err er;
	int i;

	*items = NULL;
	if ((er = count_query(db, PAGES_SQL_INSTITUTIONS_COUNT, NULL, 0,
		 total)) != CORE_OK)
		return er;
	snprintf(lim, sizeof(lim), "%d", PAGES_PER_PAGE);
	snprintf(off, sizeof(off), "%lld",
	    (long long)(page - 1) * PAGES_PER_PAGE);
	params[0] = lim;
	params[1] = off;
	if ((er = core_db_exec(db, PAGES_SQL_INSTITUTIONS_PAGE, params, 2,
		 &res)) != CORE_OK)
		return er;
	*items = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(*items,
		    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "id",
			jint(res, i, 0), "name", jtext(res, i, 1), "url",
			url_institution(base, lval(res, i, 0), val(res, i, 2)),
			"country", jtext(res, i, 3), "kind", jtext(res, i, 4),
			"researchers", jint(res, i, 5)));
	PQclear(res);
	return CORE_OK;
}
