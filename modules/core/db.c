/*
 * db.c -- PostgreSQL through libpq.  Every statement a module runs is
 * prepared at connection time from the module's generated table, so a
 * query that no longer matches the schema stops the worker at start-up,
 * not on some later request.  Values travel only as $n parameters.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct core_db {
	PGconn *conn;
	const struct core_stmt *stmts;
	size_t nstmts;
	char conninfo[]; /* allocated with the handle, freed with it */
};

/*
 * Modules read cells by the generated column enums, so a column added,
 * moved or renamed in the SQL and not in the C would be read as another
 * one: compare what PostgreSQL returns with st's list (sql/stmts.awk).
 */
enum core_err
core_db_columns(const struct core_stmt *st, const PGresult *res)
{
	const char *have, *want;
	enum core_err er = CORE_OK;
	int i, n;

	n = PQnfields(res);
	for (i = 0; i < n || i < st->ncols; i++) {
		have = i < n ? PQfname(res, i) : NULL;
		want = i < st->ncols ? st->cols[i] : NULL;
		if (have != NULL && want != NULL && strcmp(have, want) == 0)
			continue;
		if (want == NULL)
			core_log(CORE_LOG_ERROR, "db",
			    "statement %s returns "
			    "column %d \"%s\" that its table does not list "
			    "(%d columns)",
			    st->name, i + 1, have, st->ncols);
		else if (have == NULL)
			core_log(CORE_LOG_ERROR, "db",
			    "statement %s does not "
			    "return column %d \"%s\" (it returns %d columns)",
			    st->name, i + 1, want, n);
		else
			core_log(CORE_LOG_ERROR, "db",
			    "statement %s returns "
			    "column %d as \"%s\", its table says \"%s\"",
			    st->name, i + 1, have, want);
		er = CORE_EDB;
		break;
	}
	return er;
}

/*
 * Checks the columns PostgreSQL describes for prepared statement st, so
 * that a mismatch stops the worker at start-up.
 */
static enum core_err
check_columns(struct core_db *db, const struct core_stmt *st)
{
	PGresult *res;
	enum core_err er;

	res = PQdescribePrepared(db->conn, st->name);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		core_log(CORE_LOG_ERROR, "db",
		    "statement %s: no description: %s", st->name,
		    PQerrorMessage(db->conn));
		PQclear(res);
		return CORE_EDB;
	}
	er = core_db_columns(st, res);
	PQclear(res);
	return er;
}

/* Prepares every statement under its own name and checks its columns. */
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
		if (check_columns(db, &db->stmts[i]) != CORE_OK)
			return CORE_EDB;
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
	size_t len = strlen(conninfo) + 1;
	enum core_err er;

	db = core_xcalloc(1, sizeof(*db) + len);
	memcpy(db->conninfo, conninfo, len);
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
		res = db->stmts[stmt].plan_each
		    ? PQexecParams(db->conn, db->stmts[stmt].sql, nparams, NULL,
			  params, NULL, NULL, 0)
		    : PQexecPrepared(db->conn, db->stmts[stmt].name, nparams,
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
	free(db);
}

/* ---------------------------------------------------------------- cells */

int
core_cell_isnull(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col);
}

const char *
core_cell_text(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : PQgetvalue(res, row, col);
}

const char *
core_cell_str(const PGresult *res, int row, int col)
{
	const char *v = core_cell_text(res, row, col);

	return v != NULL ? v : "";
}

/* The integer in cell (row, col); 0 with *ok 0 for NULL or not a number. */
static long long
cell_ll(const PGresult *res, int row, int col, int *ok)
{
	const char *v;
	char *end;
	long long n;

	*ok = 0;
	if (PQgetisnull(res, row, col))
		return 0;
	v = PQgetvalue(res, row, col);
	errno = 0;
	n = strtoll(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0)
		return 0;
	*ok = 1;
	return n;
}

int
core_cell_int(const PGresult *res, int row, int col, int def)
{
	long long n;
	int ok;

	n = cell_ll(res, row, col, &ok);
	return ok && n >= INT_MIN && n <= INT_MAX ? (int)n : def;
}

long long
core_cell_bigint(const PGresult *res, int row, int col, long long def)
{
	long long n;
	int ok;

	n = cell_ll(res, row, col, &ok);
	return ok ? n : def;
}

int
core_cell_bool(const PGresult *res, int row, int col, int def)
{
	if (PQgetisnull(res, row, col))
		return def;
	return PQgetvalue(res, row, col)[0] == 't';
}

const char *
core_cell_date(const PGresult *res, int row, int col)
{
	const char *v = core_cell_text(res, row, col);
	int i;

	/* PostgreSQL's ISO DateStyle; a year beyond 9999 is not a date here. */
	if (v == NULL || strlen(v) != 10)
		return NULL;
	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? v[i] != '-'
				     : !(v[i] >= '0' && v[i] <= '9'))
			return NULL;
	return v;
}

json_t *
core_cell_json(const PGresult *res, int row, int col, json_t *def)
{
	json_t *v;

	if (PQgetisnull(res, row, col) ||
	    (v = json_loads(PQgetvalue(res, row, col), JSON_DECODE_ANY,
		 NULL)) == NULL)
		return def;
	json_decref(def);
	return v;
}

json_t *
core_cell_jtext(const PGresult *res, int row, int col)
{
	return core_json_str(core_cell_text(res, row, col));
}

json_t *
core_cell_jint(const PGresult *res, int row, int col)
{
	long long n;
	int ok;

	n = cell_ll(res, row, col, &ok);
	return ok ? json_integer((json_int_t)n) : json_null();
}

json_t *
core_cell_jbool(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return json_null();
	return json_boolean(PQgetvalue(res, row, col)[0] == 't');
}

/* A JSON column for a list: [] when it is NULL or does not parse. */
static json_t *
cell_jlist(const PGresult *res, int row, int col)
{
	return core_cell_json(res, row, col, json_array());
}

void
core_row_set(json_t *o, const PGresult *res, int row,
    const struct core_cell_field *fields, size_t n)
{
	static json_t *(*const readers[CORE_CELL__MAX])(const PGresult *, int,
	    int) = {
		[CORE_CELL_TEXT] = core_cell_jtext,
		[CORE_CELL_INT] = core_cell_jint,
		[CORE_CELL_BOOL] = core_cell_jbool,
		[CORE_CELL_LIST] = cell_jlist,
	};
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, fields[i].key,
		    readers[fields[i].kind](res, row, fields[i].col));
}

json_t *
core_rows_json(const PGresult *res, const struct core_cell_field *fields,
    size_t n)
{
	json_t *a = json_array(), *o;
	int i;

	for (i = 0; i < PQntuples(res); i++) {
		o = json_object();
		core_row_set(o, res, i, fields, n);
		json_array_append_new(a, o);
	}
	return a;
}
