/*
 * store.c -- the only file of the feeds module that talks to
 * PostgreSQL.  Every query is a named statement of sql/queries/feeds.sql
 * run through core_db_exec(); values travel as $n parameters.  Feed
 * items come back as C structs; sitemap rows go to a callback a batch at
 * a time, so that a chunk of 50,000 URLs never sits in memory at once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"
#include "feeds_sql.h"

/* ---------------------------------------------------------------- cells */

/*
 * Cells are read with core's readers and the column enums of feeds_sql.h.
 * A NULL time (an undated paper) reads as -1.
 */

/* A text cell copied, "" for NULL; caller frees. */
static char *
text_dup(const PGresult *res, int r, int c)
{
	const char *v = core_cell_text(res, r, c);

	return core_xstrdup(v != NULL ? v : "");
}

/* A JSON text cell as an array (an empty one for NULL or not an array). */
static json_t *
jarray(const PGresult *res, int r, int c)
{
	json_t *v;

	v = core_cell_json(res, r, c, NULL);
	if (!json_is_array(v)) {
		json_decref(v);
		v = json_array();
	}
	return v;
}

/* ---------------------------------------------------------------- items */

/* Frees the members of items[0..n), not the array. */
static void
feeds_items_free_tail(struct feeds_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n && items != NULL; i++) {
		free(items[i].arxiv_id);
		free(items[i].title);
		free(items[i].slug);
		free(items[i].abstract);
		json_decref(items[i].authors);
		json_decref(items[i].categories);
		free(items[i].why);
		memset(&items[i], 0, sizeof(items[i]));
	}
}

void
feeds_items_free(struct feeds_item *items, size_t n)
{
	feeds_items_free_tail(items, n);
	free(items);
}

/* The raw author names of an item as shown: mojibake repaired. */
static void
shown_names(json_t *names)
{
	json_t *v;
	size_t i;

	json_array_foreach(names, i, v)
	{
		if (json_is_string(v))
			json_array_set_new(names, i,
			    core_json_name(json_string_value(v)));
	}
}

/*
 * The private feed's row i (0026 weft_follow_items): why the item is
 * there, and which version it announces: a new paper (version 0 or 1)
 * at its date, or "vN replaced vN-1" at that version's date.
 */
static void
user_item(const PGresult *res, int i, struct feeds_item *it)
{
	int v = core_cell_int(res, i, FEEDS_RSS_USER__VERSION, 1);
	int64_t at = core_cell_bigint(res, i, FEEDS_RSS_USER__AT, -1);

	it->why = text_dup(res, i, FEEDS_RSS_USER__WHY);
	if (v >= 2) {
		it->version = v;
		it->version_date = at;
	} else
		it->published = at;
}

/*
 * load_items() for any item statement; vers: the statement is a version
 * one, whose two columns after the item's are the version and its date.
 */
static enum core_err
load_rows(struct core_db *db, int stmt, int limit, const char *arg, int vers,
    struct feeds_item **itemsp, size_t *np)
{
	struct feeds_item *items = NULL;
	PGresult *res = NULL;
	const char *params[2];
	char lim[16];
	enum core_err er;
	int i, n = 0;

	*itemsp = NULL;
	*np = 0;
	if (limit > 0) {
		snprintf(lim, sizeof(lim), "%d", limit);
		params[n++] = lim;
	}
	if (arg != NULL)
		params[n++] = arg;
	if ((er = core_db_exec(db, stmt, params, n, &res)) != CORE_OK)
		goto out;
	n = PQntuples(res);
	items = core_xcalloc((size_t)n + 1, sizeof(*items));
	for (i = 0; i < n; i++) {
		items[i].arxiv_id = text_dup(res, i, FEEDS_FEED_ITEM__ARXIV_ID);
		items[i].title = text_dup(res, i, FEEDS_FEED_ITEM__TITLE);
		items[i].slug = text_dup(res, i, FEEDS_FEED_ITEM__SLUG);
		items[i].abstract = text_dup(res, i, FEEDS_FEED_ITEM__ABSTRACT);
		items[i].categories =
		    jarray(res, i, FEEDS_FEED_ITEM__CATEGORIES);
		items[i].authors = jarray(res, i, FEEDS_FEED_ITEM__AUTHORS);
		shown_names(items[i].authors);
		items[i].published =
		    core_cell_bigint(res, i, FEEDS_FEED_ITEM__PUBLISHED, -1);
		items[i].modified =
		    core_cell_bigint(res, i, FEEDS_FEED_ITEM__MODIFIED_AT, -1);
		if (vers) {
			items[i].version = (int)core_cell_bigint(res, i,
			    FEEDS_RSS_VERSIONS_LATEST__VERSION, 0);
			items[i].version_date = core_cell_bigint(res, i,
			    FEEDS_RSS_VERSIONS_LATEST__VERSION_DATE, -1);
		}
		if (stmt == FEEDS_SQL_RSS_USER)
			user_item(res, i, &items[i]);
	}
	*itemsp = items;
	*np = (size_t)n;
out:
	PQclear(res);
	return er;
}

/*
 * Runs an item statement with (limit, arg) as its parameters -- limit 0
 * for a statement with its limit written in, arg NULL for none -- and
 * copies the rows out (PQgetvalue() dies with the result).
 */
static enum core_err
load_items(struct core_db *db, int stmt, int limit, const char *arg,
    struct feeds_item **itemsp, size_t *np)
{
	return load_rows(db, stmt, limit, arg, 0, itemsp, np);
}

enum core_err
feeds_load_latest(struct core_db *db, struct feeds_item **items, size_t *n)
{
	return load_items(db, FEEDS_SQL_RSS_LATEST, 0, NULL, items, n);
}

enum core_err
feeds_load_category(struct core_db *db, const char *cat, int limit,
    struct feeds_item **items, size_t *n)
{
	return load_items(db, FEEDS_SQL_RSS_CATEGORY, limit, cat, items, n);
}

/* load_items with the id of a researcher or an institution. */
static enum core_err
load_items_of(struct core_db *db, int stmt, long long id, int limit,
    struct feeds_item **items, size_t *n)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", id);
	return load_items(db, stmt, limit, buf, items, n);
}

enum core_err
feeds_load_researcher(struct core_db *db, long long id, int limit,
    struct feeds_item **items, size_t *n)
{
	return load_items_of(db, FEEDS_SQL_RSS_RESEARCHER, id, limit, items, n);
}

enum core_err
feeds_load_institution(struct core_db *db, long long id, int limit,
    struct feeds_item **items, size_t *n)
{
	return load_items_of(db, FEEDS_SQL_RSS_INSTITUTION, id, limit, items,
	    n);
}

enum core_err
feeds_load_user(struct core_db *db, const char *user_id, int limit,
    struct feeds_item **items, size_t *n)
{
	return load_items(db, FEEDS_SQL_RSS_USER, limit, user_id, items, n);
}

/* ---------------------------------------------------------------- versions */

/* The three version statements share their columns. */
_Static_assert((int)FEEDS_RSS_VERSIONS_LATEST__VERSION ==
	    (int)FEEDS_FEED_ITEM__MODIFIED_AT + 1 &&
	(int)FEEDS_RSS_VERSIONS_CATEGORY__VERSION ==
	    (int)FEEDS_RSS_VERSIONS_LATEST__VERSION &&
	(int)FEEDS_RSS_VERSIONS_RESEARCHER__VERSION_DATE ==
	    (int)FEEDS_RSS_VERSIONS_LATEST__VERSION_DATE,
    "version statements differ in their columns");

static const int versions_stmt[FEEDS_VERSIONS__MAX] = {
	FEEDS_SQL_RSS_VERSIONS_LATEST,
	FEEDS_SQL_RSS_VERSIONS_CATEGORY,
	FEEDS_SQL_RSS_VERSIONS_RESEARCHER,
};

/* The date an item is listed by: a version's, or the paper's. */
static int64_t
item_date(const struct feeds_item *it)
{
	return it->version > 0 ? it->version_date : it->published;
}

enum core_err
feeds_add_versions(struct core_db *db, enum feeds_versions kind,
    const char *arg, int limit, struct feeds_item **items, size_t *n)
{
	struct feeds_item *v = NULL, *out;
	size_t nv = 0, i = 0, j = 0, k = 0;
	enum core_err er;

	/* The latest statement has its limit written in. */
	if ((er = load_rows(db, versions_stmt[kind],
		 kind == FEEDS_VERSIONS_LATEST ? 0 : limit, arg, 1, &v, &nv)) !=
	    CORE_OK)
		return er;
	if (nv == 0) {
		free(v);
		return CORE_OK;
	}
	/* Both lists are newest first: merge, keep limit, free the rest. */
	out = core_xcalloc(*n + nv + 1, sizeof(*out));
	while (i < *n || j < nv) {
		if (j >= nv ||
		    (i < *n && item_date(&(*items)[i]) >= item_date(&v[j])))
			out[k++] = (*items)[i++];
		else
			out[k++] = v[j++];
	}
	free(*items);
	free(v);
	if (k > (size_t)limit) {
		feeds_items_free_tail(out + limit, k - (size_t)limit);
		k = (size_t)limit;
	}
	*items = out;
	*n = k;
	return CORE_OK;
}

/* ---------------------------------------------------------------- subjects */

static enum core_err
load_subject(struct core_db *db, int stmt, long long id,
    struct feeds_subject *s)
{
	PGresult *res = NULL;
	const char *params[1];
	char buf[24];
	enum core_err er;

	memset(s, 0, sizeof(*s));
	snprintf(buf, sizeof(buf), "%lld", id);
	params[0] = buf;
	if ((er = core_db_exec(db, stmt, params, 1, &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	s->name = text_dup(res, 0, FEEDS_RESEARCHER_SUBJECT__NAME);
	s->slug = text_dup(res, 0, FEEDS_RESEARCHER_SUBJECT__SLUG);
	s->modified =
	    core_cell_bigint(res, 0, FEEDS_RESEARCHER_SUBJECT__MODIFIED_AT, -1);
out:
	PQclear(res);
	return er;
}

/* load_subject() reads both statements with one set of columns. */
_Static_assert((int)FEEDS_RESEARCHER_SUBJECT__NAME ==
	    (int)FEEDS_INSTITUTION_SUBJECT__NAME &&
	(int)FEEDS_RESEARCHER_SUBJECT__SLUG ==
	    (int)FEEDS_INSTITUTION_SUBJECT__SLUG &&
	(int)FEEDS_RESEARCHER_SUBJECT__MODIFIED_AT ==
	    (int)FEEDS_INSTITUTION_SUBJECT__MODIFIED_AT,
    "the subject statements differ");

enum core_err
feeds_load_researcher_subject(struct core_db *db, long long id,
    struct feeds_subject *s)
{
	return load_subject(db, FEEDS_SQL_RESEARCHER_SUBJECT, id, s);
}

enum core_err
feeds_load_institution_subject(struct core_db *db, long long id,
    struct feeds_subject *s)
{
	return load_subject(db, FEEDS_SQL_INSTITUTION_SUBJECT, id, s);
}

enum core_err
feeds_load_token_user(struct core_db *db, const char *hash, char **user_id)
{
	PGresult *res = NULL;
	const char *params[1];
	enum core_err er;

	*user_id = NULL;
	params[0] = hash;
	if ((er = core_db_exec(db, FEEDS_SQL_TOKEN_USER, params, 1, &res)) !=
	    CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	*user_id = text_dup(res, 0, FEEDS_TOKEN_USER__USER_ID);
out:
	PQclear(res);
	return er;
}

/* ---------------------------------------------------------------- sitemaps */

static const int chunk_stmt[FEEDS_KIND__MAX] = {
	FEEDS_SQL_SITEMAP_PAPERS,
	FEEDS_SQL_SITEMAP_RESEARCHERS,
	FEEDS_SQL_SITEMAP_INSTITUTIONS,
	-1,
};
/* Where each chunk statement keeps id, slug and lastmod. */
static const struct {
	int id, slug, lastmod;
} chunk_cols[FEEDS_KIND__MAX] = {
	{ FEEDS_SITEMAP_PAPERS__ID, FEEDS_SITEMAP_PAPERS__SLUG,
	    FEEDS_SITEMAP_PAPERS__LASTMOD },
	{ FEEDS_SITEMAP_RESEARCHERS__ID, FEEDS_SITEMAP_RESEARCHERS__SLUG,
	    FEEDS_SITEMAP_RESEARCHERS__LASTMOD },
	{ FEEDS_SITEMAP_INSTITUTIONS__ID, FEEDS_SITEMAP_INSTITUTIONS__SLUG,
	    FEEDS_SITEMAP_INSTITUTIONS__LASTMOD },
	{ -1, -1, -1 },
};
static const int chunks_stmt[FEEDS_KIND__MAX] = {
	FEEDS_SQL_SITEMAP_PAPERS_CHUNKS,
	FEEDS_SQL_SITEMAP_RESEARCHERS_CHUNKS,
	FEEDS_SQL_SITEMAP_INSTITUTIONS_CHUNKS,
	-1,
};
/* The chunk lists: the same columns, n and lastmod, for every kind. */
static const struct {
	int n, lastmod;
} chunks_cols[FEEDS_KIND__MAX] = {
	{ FEEDS_SITEMAP_PAPERS_CHUNKS__N,
	    FEEDS_SITEMAP_PAPERS_CHUNKS__LASTMOD },
	{ FEEDS_SITEMAP_RESEARCHERS_CHUNKS__N,
	    FEEDS_SITEMAP_RESEARCHERS_CHUNKS__LASTMOD },
	{ FEEDS_SITEMAP_INSTITUTIONS_CHUNKS__N,
	    FEEDS_SITEMAP_INSTITUTIONS_CHUNKS__LASTMOD },
	{ -1, -1 },
};

enum core_err
feeds_store_chunk(struct core_db *db, enum feeds_kind kind, long long n,
    long long per_chunk, feeds_url_cb cb, void *arg, size_t *count)
{
	PGresult *res = NULL;
	const char *params[3];
	char after[24], hi[24], lim[16];
	const char *slug;
	char *path;
	enum core_err er = CORE_OK;
	long long last;
	int i, rows;

	*count = 0;
	if ((unsigned)kind >= FEEDS_KIND__MAX || chunk_stmt[kind] < 0 ||
	    n < 1 || per_chunk < 1 || n > INT64_MAX / per_chunk)
		return CORE_EINPUT;
	last = (n - 1) * per_chunk;
	snprintf(hi, sizeof(hi), "%lld", n * per_chunk);
	snprintf(lim, sizeof(lim), "%d", FEEDS_SITEMAP_BATCH);
	params[0] = after;
	params[1] = hi;
	params[2] = lim;
	do {
		snprintf(after, sizeof(after), "%lld", last);
		if ((er = core_db_exec(db, chunk_stmt[kind], params, 3,
			 &res)) != CORE_OK)
			break;
		rows = PQntuples(res);
		for (i = 0; i < rows; i++) {
			last = core_cell_bigint(res, i, chunk_cols[kind].id, 0);
			slug = core_cell_text(res, i, chunk_cols[kind].slug);
			if (kind == FEEDS_KIND_PAPERS)
				path = core_paper_path(
				    core_cell_text(res, i,
					FEEDS_SITEMAP_PAPERS__ARXIV_ID),
				    slug);
			else if (kind == FEEDS_KIND_RESEARCHERS)
				path = core_researcher_path(last, slug);
			else
				path = core_institution_path(last, slug);
			cb(arg, path,
			    core_cell_bigint(res, i, chunk_cols[kind].lastmod,
				-1));
			free(path);
			(*count)++;
		}
		PQclear(res);
		res = NULL;
	} while (rows == FEEDS_SITEMAP_BATCH);
	return er;
}

enum core_err
feeds_store_chunks(struct core_db *db, enum feeds_kind kind,
    long long per_chunk, feeds_chunk_cb cb, void *arg)
{
	PGresult *res = NULL;
	const char *params[1];
	char size[24];
	enum core_err er;
	int i;

	if ((unsigned)kind >= FEEDS_KIND__MAX || chunks_stmt[kind] < 0)
		return CORE_EINPUT;
	snprintf(size, sizeof(size), "%lld", per_chunk);
	params[0] = size;
	if ((er = core_db_exec(db, chunks_stmt[kind], params, 1, &res)) !=
	    CORE_OK)
		return er;
	for (i = 0; i < PQntuples(res); i++)
		cb(arg, kind, core_cell_bigint(res, i, chunks_cols[kind].n, 0),
		    core_cell_bigint(res, i, chunks_cols[kind].lastmod, -1));
	PQclear(res);
	return CORE_OK;
}

enum core_err
feeds_store_newest(struct core_db *db, int64_t out[3])
{
	static const int cols[3] = { FEEDS_SITEMAP_NEWEST__PAPERS,
		FEEDS_SITEMAP_NEWEST__RESEARCHERS,
		FEEDS_SITEMAP_NEWEST__INSTITUTIONS };
	PGresult *res = NULL;
	enum core_err er;
	int i;

	for (i = 0; i < 3; i++)
		out[i] = -1;
	if ((er = core_db_exec(db, FEEDS_SQL_SITEMAP_NEWEST, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1)
		for (i = 0; i < 3; i++)
			out[i] = core_cell_bigint(res, 0, cols[i], -1);
	PQclear(res);
	return CORE_OK;
}
