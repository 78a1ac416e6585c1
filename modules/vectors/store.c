/*
 * store.c -- the only file of the module that talks to PostgreSQL:
 * streaming the papers and recording builds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"
#include "vectors_sql.h"

/* Papers per round trip: 2,000 abstracts are about 3 MB. */
#define PAGE 2000

enum core_err
vec_store_open(const struct core_conf *conf, int readonly, struct core_db **dbp)
{
	const char *conninfo = core_conf_get(conf, "db", NULL);
	enum core_err er;

	*dbp = NULL;
	if (conninfo == NULL) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "no \"db\" in the configuration");
		return CORE_EINPUT;
	}
	if ((er = core_db_open(conninfo, vectors_sql,
		 readonly ? VECTORS_SQL_LOCK : VECTORS_SQL__MAX, dbp)) !=
	    CORE_OK)
		core_log(CORE_LOG_ERROR, "vectors",
		    "cannot use the database (is it migrated? weft-harvest "
		    "migrate creates vector_index)");
	return er;
}

/* Ids only: 50,000 a round trip (8 bytes a row). */
#define ID_PAGE 50000

/* Calls fn for every row of res (PAPERS or PAPERS_BY_ID, whose columns
 * are the same), *last set to the last id. */
static enum core_err
each_row(PGresult *res, vec_paper_fn fn, void *arg, int64_t *last)
{
	struct vec_paper p;
	enum core_err er;
	int i, n = PQntuples(res);

	for (i = 0; i < n; i++) {
		p.id = core_cell_bigint(res, i, VECTORS_PAPERS__ID, 0);
		p.title = core_cell_str(res, i, VECTORS_PAPERS__TITLE);
		p.abstract = core_cell_str(res, i, VECTORS_PAPERS__ABSTRACT);
		p.primary =
		    core_cell_str(res, i, VECTORS_PAPERS__PRIMARY_CATEGORY);
		*last = p.id;
		if ((er = fn(arg, &p)) != CORE_OK)
			return er;
	}
	return CORE_OK;
}

enum core_err
vec_store_each(struct core_db *db, vec_paper_fn fn, void *arg)
{
	PGresult *res = NULL;
	char after[24], limit[16];
	const char *params[2] = { after, limit };
	int64_t last = 0;
	enum core_err er = CORE_OK;
	int n;

	snprintf(limit, sizeof(limit), "%d", PAGE);
	for (;;) {
		snprintf(after, sizeof(after), "%" PRId64, last);
		if ((er = core_db_exec(db, VECTORS_SQL_PAPERS, params, 2,
			 &res)) != CORE_OK)
			goto out;
		n = PQntuples(res);
		if ((er = each_row(res, fn, arg, &last)) != CORE_OK)
			goto out;
		PQclear(res);
		res = NULL;
		if (n < PAGE)
			break;
	}
out:
	PQclear(res);
	return er;
}

enum core_err
vec_store_some(struct core_db *db, const int64_t *ids, size_t n,
    vec_paper_fn fn, void *arg)
{
	struct core_buf arr = CORE_BUF_INIT;
	PGresult *res = NULL;
	const char *params[1];
	int64_t last;
	enum core_err er = CORE_OK;
	size_t i, j;

	for (i = 0; i < n && er == CORE_OK; i += PAGE) {
		core_buf_reset(&arr);
		core_buf_putc(&arr, '{');
		for (j = i; j < n && j < i + PAGE; j++)
			core_buf_printf(&arr, "%s%" PRId64, j > i ? "," : "",
			    ids[j]);
		core_buf_putc(&arr, '}');
		params[0] = core_buf_cstr(&arr);
		if ((er = core_db_exec(db, VECTORS_SQL_PAPERS_BY_ID, params, 1,
			 &res)) == CORE_OK)
			er = each_row(res, fn, arg, &last);
		PQclear(res);
		res = NULL;
	}
	core_buf_free(&arr);
	return er;
}

/* The papers written since a watermark (CHANGED), in id order. */
struct changed {
	int64_t *id;
	unsigned char *since; /* after the watermark, not in the margin */
	size_t n;
};

static enum core_err
read_changed(struct core_db *db, const char *since, struct changed *c)
{
	PGresult *res = NULL;
	enum core_err er;
	size_t i;

	if ((er = core_db_exec(db, VECTORS_SQL_CHANGED,
		 (const char *const[]){ since }, 1, &res)) != CORE_OK)
		return er;
	c->n = (size_t)PQntuples(res);
	c->id = core_xcalloc(c->n + 1, sizeof(*c->id));
	c->since = core_xcalloc(c->n + 1, 1);
	for (i = 0; i < c->n; i++) {
		c->id[i] =
		    core_cell_bigint(res, (int)i, VECTORS_CHANGED__ID, 0);
		c->since[i] = (unsigned char)core_cell_bool(res, (int)i,
		    VECTORS_CHANGED__CHANGED, 1);
	}
	PQclear(res);
	return CORE_OK;
}

/*
 * Every paper id, ascending, each with whether it was written since the
 * watermark and whether within the margin before it: the written ones
 * first (CHANGED, by papers_modified), then the ids alone (IDS, from
 * the primary key), the two merged here.  A paper written between the
 * two reads is new to the index or caught by the next build's margin,
 * as with any read of a table being written.
 */
enum core_err
vec_store_ids(struct core_db *db, const char *since, vec_id_fn fn, void *arg)
{
	struct changed c = { 0 };
	PGresult *res = NULL;
	char after[24], limit[16];
	const char *params[2] = { after, limit };
	int64_t last = 0;
	enum core_err er;
	size_t k = 0;
	int i, n, hit;

	if ((er = read_changed(db, since, &c)) != CORE_OK)
		goto out;
	snprintf(limit, sizeof(limit), "%d", ID_PAGE);
	for (;;) {
		snprintf(after, sizeof(after), "%" PRId64, last);
		if ((er = core_db_exec(db, VECTORS_SQL_IDS, params, 2, &res)) !=
		    CORE_OK)
			goto out;
		n = PQntuples(res);
		for (i = 0; i < n; i++) {
			last = core_cell_bigint(res, i, VECTORS_IDS__ID, 0);
			while (k < c.n && c.id[k] < last)
				k++;
			hit = k < c.n && c.id[k] == last;
			if ((er = fn(arg, last, hit && c.since[k], hit)) !=
			    CORE_OK)
				goto out;
		}
		PQclear(res);
		res = NULL;
		if (n < ID_PAGE)
			break;
	}
out:
	PQclear(res);
	free(c.id);
	free(c.since);
	return er;
}

enum core_err
vec_store_state(struct core_db *db, size_t *count, char *fp, size_t fpsz,
    char *modified, size_t msz)
{
	PGresult *res = NULL;
	enum core_err er;

	*count = 0;
	if ((er = core_db_exec(db, VECTORS_SQL_STATE, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	*count = (size_t)core_cell_bigint(res, 0, VECTORS_STATE__PAPERS, 0);
	snprintf(fp, fpsz, "papers=%s max_id=%s modified=%s format=%d",
	    core_cell_str(res, 0, VECTORS_STATE__PAPERS),
	    core_cell_str(res, 0, VECTORS_STATE__MAX_ID),
	    core_cell_str(res, 0, VECTORS_STATE__MODIFIED_AT), VEC_FORMAT);
	snprintf(modified, msz, "%s",
	    core_cell_str(res, 0, VECTORS_STATE__MODIFIED_AT));
	PQclear(res);
	return CORE_OK;
}
