/*
 * send.c -- a statement sent to a connection of its own and its result
 * waited for, so that the process works on its first connection
 * meanwhile: the match's reader (match_db.c) and the cards, search
 * terms and name words refreshed beside the derived tables (after.c).
 * The statement is sent as a script with parameters, not prepared on
 * that connection.
 */
#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"

enum core_err
harvest_send(struct core_db *db, int stmt, const char *const *params, int np)
{
	if (PQsendQueryParams(core_db_conn(db), harvest_sql[stmt].sql, np, NULL,
		params, NULL, NULL, 0) == 1)
		return CORE_OK;
	core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s", harvest_sql[stmt].name,
	    PQerrorMessage(core_db_conn(db)));
	return CORE_EDB;
}

enum core_err
harvest_wait(struct core_db *db, int stmt, PGresult **res)
{
	PGresult *more;

	*res = PQgetResult(core_db_conn(db));
	/* A query string with one statement gives one result, then NULL. */
	while ((more = PQgetResult(core_db_conn(db))) != NULL)
		PQclear(more);
	if (PQresultStatus(*res) != PGRES_TUPLES_OK) {
		core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s",
		    harvest_sql[stmt].name,
		    *res != NULL ? PQresultErrorMessage(*res)
				 : PQerrorMessage(core_db_conn(db)));
		PQclear(*res);
		*res = NULL;
		return CORE_EDB;
	}
	if (core_db_columns(&harvest_sql[stmt], *res) != CORE_OK) {
		PQclear(*res);
		*res = NULL;
		return CORE_EDB;
	}
	return CORE_OK;
}
