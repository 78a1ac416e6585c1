/*
 * db.c -- PostgreSQL through libpq.  Every statement a module runs is
 * prepared at connection time from the module's generated table, so a
 * query that no longer matches the schema stops the worker at start-up,
 * not on some later request.  Values travel only as $n parameters.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct core_db {
	PGconn *conn;
	char *conninfo;
	const struct core_stmt *stmts;
	size_t nstmts;
};

/* Prepares every statement under its own name. */
static enum core_err
prepare_all(struct core_db *db)
{
	PGresult *res;
	size_t i;

	for (i = 0; i < db->nstmts; i++) {
		res = PQprepare(db->conn, db->stmts[i].name, db->stmts[i].sql,
		    0, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			core_log(CORE_LOG_ERROR, "db",
			    "statement %s does not prepare: %s",
			    db->stmts[i].name, PQerrorMessage(db->conn));
			PQclear(res);
			return CORE_EDB;
		}
		PQclear(res);
	}
	return CORE_OK;
}

static enum core_err
connect_db(struct core_db *db)
{
	PQfinish(db->conn);
	db->conn = PQconnectdb(db->conninfo);
	if (PQstatus(db->conn) != CONNECTION_OK) {
		core_log(CORE_LOG_ERROR, "db", "cannot connect: %s",
		    PQerrorMessage(db->conn));
		return CORE_EDB;
	}
	/* Our text is UTF-8, always; dates in ISO form. */
	PQsetClientEncoding(db->conn, "UTF8");
	return prepare_all(db);
}

enum core_err
core_db_open(const char *conninfo, const struct core_stmt *stmts, size_t n,
    struct core_db **dbp)
{
	struct core_db *db;
	enum core_err er;

	db = core_xcalloc(1, sizeof(*db));
	db->conninfo = core_xstrdup(conninfo);
	db->stmts = stmts;
	db->nstmts = n;
	*dbp = db;
	/*
	 * The handle is returned even when the server is down, so that a
	 * worker can start, answer 503 and reconnect once it is back.
	 */
	er = connect_db(db);
	return er;
}

enum core_err
core_db_exec(struct core_db *db, int stmt, const char *const *params,
    int nparams, PGresult **resp)
{
	PGresult *res = NULL;
	ExecStatusType st;
	int attempt;

	*resp = NULL;
	if (db == NULL || stmt < 0 || (size_t)stmt >= db->nstmts)
		return CORE_ESYS;
	for (attempt = 0; attempt < 2; attempt++) {
		if (PQstatus(db->conn) != CONNECTION_OK &&
		    connect_db(db) != CORE_OK)
			return CORE_EDB;
		res = PQexecPrepared(db->conn, db->stmts[stmt].name, nparams,
		    params, NULL, NULL, 0);
		st = PQresultStatus(res);
		if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
			*resp = res;
			return CORE_OK;
		}
		if (PQstatus(db->conn) == CONNECTION_OK) {
			/* A real error from the server: retrying cannot help. */
			core_log(CORE_LOG_ERROR, "db", "%s: %s",
			    db->stmts[stmt].name, PQresultErrorMessage(res));
			PQclear(res);
			return CORE_EDB;
		}
		/* The connection broke (server restart): reset, try again. */
		PQclear(res);
		res = NULL;
		core_log(CORE_LOG_WARN, "db", "connection lost, reconnecting");
	}
	return CORE_EDB;
}

PGconn *
core_db_conn(struct core_db *db)
{
	if (db != NULL && PQstatus(db->conn) != CONNECTION_OK)
		connect_db(db);
	return db != NULL ? db->conn : NULL;
}

enum core_err
core_db_cmd(struct core_db *db, const char *sql)
{
	PGresult *res;
	enum core_err er = CORE_OK;

	res = PQexec(core_db_conn(db), sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK) {
		core_log(CORE_LOG_ERROR, "db", "%s", PQresultErrorMessage(res));
		er = CORE_EDB;
	}
	PQclear(res);
	return er;
}

void
core_db_close(struct core_db *db)
{
	if (db == NULL)
		return;
	PQfinish(db->conn);
	free(db->conninfo);
	free(db);
}
