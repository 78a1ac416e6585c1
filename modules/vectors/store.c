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

enum core_err
vec_store_each(struct core_db *db, vec_paper_fn fn, void *arg)
{
	PGresult *res = NULL;
	char after[24], limit[16];
	const char *params[2] = { after, limit };
	struct vec_paper p;
	int64_t last = 0;
	enum core_err er = CORE_OK;
	int i, n;

	snprintf(limit, sizeof(limit), "%d", PAGE);
	for (;;) {
		snprintf(after, sizeof(after), "%" PRId64, last);
		if ((er = core_db_exec(db, VECTORS_SQL_PAPERS, params, 2,
			 &res)) != CORE_OK)
			goto out;
		n = PQntuples(res);
		for (i = 0; i < n; i++) {
			p.id = core_cell_bigint(res, i, VECTORS_PAPERS__ID, 0);
			p.title = core_cell_str(res, i, VECTORS_PAPERS__TITLE);
			p.abstract =
			    core_cell_str(res, i, VECTORS_PAPERS__ABSTRACT);
			p.primary = core_cell_str(res, i,
			    VECTORS_PAPERS__PRIMARY_CATEGORY);
			last = p.id;
			if ((er = fn(arg, &p)) != CORE_OK)
				goto out;
		}
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
vec_store_state(struct core_db *db, size_t *count, char *fp, size_t fpsz)
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
	PQclear(res);
	return CORE_OK;
}
