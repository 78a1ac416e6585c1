/*
 * test_db_cells.c -- core's cell readers (core_cell_*) on results built
 * in memory, and, when WEFT_DB names a database, core_db_open() refusing
 * statements whose result columns differ from their table's list
 * (tests/integration/t_db_columns.sh runs it so).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

enum { C_TEXT, C_INT, C_BOOL, C_DATE, C_JSON, C__MAX };

/* One row: each value, NULL for SQL NULL. */
static PGresult *
row(const char *const v[C__MAX])
{
	static char cname[] = "c";
	PGresAttDesc att[C__MAX];
	PGresult *res;
	char *copy;
	int i;

	memset(att, 0, sizeof(att));
	for (i = 0; i < C__MAX; i++)
		att[i].name = cname;
	res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
	PQsetResultAttrs(res, C__MAX, att);
	for (i = 0; i < C__MAX; i++) {
		/* PQsetvalue copies the value; its prototype is not const. */
		copy = v[i] != NULL ? core_xstrdup(v[i]) : NULL;
		PQsetvalue(res, 0, i, copy,
		    copy != NULL ? (int)strlen(copy) : -1);
		free(copy);
	}
	return res;
}

static void
cells(void)
{
	PGresult *res;
	json_t *j;

	res = row((const char *const[]){ "caf\xc3\xa9", "42", "t", "2024-02-29",
	    "[1,\"a\"]" });
	T_STREQ(core_cell_text(res, 0, C_TEXT), "caf\xc3\xa9", "text");
	T_EQ(core_cell_int(res, 0, C_INT, -1), 42, "int");
	T_EQ(core_cell_bigint(res, 0, C_INT, -1), 42, "bigint");
	T_EQ(core_cell_int(res, 0, C_TEXT, -7), -7, "int of a word: def");
	T_EQ(core_cell_bool(res, 0, C_BOOL, 0), 1, "bool t");
	T_EQ(core_cell_bool(res, 0, C_INT, 1), 0, "bool not t");
	T_STREQ(core_cell_date(res, 0, C_DATE), "2024-02-29", "date");
	T_OK(core_cell_date(res, 0, C_TEXT) == NULL, "date of a word: NULL");
	j = core_cell_json(res, 0, C_JSON, json_array());
	T_OK(json_is_array(j) && json_array_size(j) == 2, "json parsed");
	json_decref(j);
	j = core_cell_json(res, 0, C_TEXT, json_array());
	T_OK(json_is_array(j) && json_array_size(j) == 0, "bad json: def");
	json_decref(j);
	j = core_cell_jint(res, 0, C_INT);
	T_EQ(json_integer_value(j), 42, "jint");
	json_decref(j);
	j = core_cell_jbool(res, 0, C_BOOL);
	T_OK(json_is_true(j), "jbool");
	json_decref(j);
	j = core_cell_jtext(res, 0, C_TEXT);
	T_STREQ(json_string_value(j), "caf\xc3\xa9", "jtext");
	json_decref(j);
	PQclear(res);

	/* NULL is unknown: NULL, the caller's def, or json null. */
	res = row((const char *const[]){ NULL, NULL, NULL, NULL, NULL });
	T_OK(core_cell_isnull(res, 0, C_TEXT), "isnull");
	T_OK(core_cell_text(res, 0, C_TEXT) == NULL, "NULL text: NULL");
	T_EQ(core_cell_int(res, 0, C_INT, -1), -1, "NULL int: def");
	T_EQ(core_cell_bigint(res, 0, C_INT, 0), 0, "NULL bigint: def");
	T_EQ(core_cell_bool(res, 0, C_BOOL, 1), 1, "NULL bool: def");
	T_OK(core_cell_date(res, 0, C_DATE) == NULL, "NULL date: NULL");
	j = core_cell_json(res, 0, C_JSON, NULL);
	T_OK(j == NULL, "NULL json: def (NULL)");
	j = core_cell_jint(res, 0, C_INT);
	T_OK(json_is_null(j), "NULL jint: null");
	json_decref(j);
	j = core_cell_jtext(res, 0, C_TEXT);
	T_OK(json_is_null(j), "NULL jtext: null");
	json_decref(j);
	j = core_cell_jbool(res, 0, C_BOOL);
	T_OK(json_is_null(j), "NULL jbool: null");
	json_decref(j);
	PQclear(res);
}

/* Opens conninfo with the one statement {name, sql, cols, n}. */
static enum core_err
open_one(const char *conninfo, const char *sql, const char *const *cols, int n)
{
	struct core_stmt st[1] = { { "T_COLUMNS", sql, cols, n, 0 } };
	struct core_db *db = NULL;
	enum core_err er;

	er = core_db_open(conninfo, st, 1, &db);
	core_db_close(db);
	return er;
}

static void
columns(const char *conninfo)
{
	static const char *const ab[] = { "a", "b" };
	static const char *const ba[] = { "b", "a" };
	static const char *const a[] = { "a" };
	static const char *const abc[] = { "a", "b", "c" };

	T_EQ(open_one(conninfo, "SELECT 1 AS a, 2 AS b", ab, 2), CORE_OK,
	    "the listed columns: accepted");
	T_EQ(open_one(conninfo, "SELECT 1 AS a, 2 AS b", ba, 2), CORE_EDB,
	    "columns swapped: refused");
	T_EQ(open_one(conninfo, "SELECT 1 AS a, 2 AS b", a, 1), CORE_EDB,
	    "a column more than listed: refused");
	T_EQ(open_one(conninfo, "SELECT 1 AS a, 2 AS b", abc, 3), CORE_EDB,
	    "a column fewer than listed: refused");
	T_EQ(open_one(conninfo, "SELECT 1 AS a, 2 AS c", ab, 2), CORE_EDB,
	    "a column renamed: refused");
	T_EQ(open_one(conninfo, "SELECT 1 AS a", NULL, 0), CORE_EDB,
	    "columns where none are listed: refused");
	T_EQ(open_one(conninfo, "SET LOCAL jit = off", NULL, 0), CORE_OK,
	    "no columns, none listed: accepted");
}

/*
 * A statement marked "-- plan: each" (core_stmt.plan_each) runs as an
 * unnamed statement, planned with its values every time: its prepared
 * twin counts the plans PostgreSQL made for it (pg_prepared_statements),
 * it counts none.
 */
static void
plans(const char *conninfo)
{
	static const char *const a[] = { "a" };
	static const char *const n[] = { "n" };
	const struct core_stmt st[] = {
		{ "T_PREPARED", "SELECT $1::integer AS a", a, 1, 0 },
		{ "T_EACH", "SELECT $1::integer AS a", a, 1, 1 },
		{ "T_PLANS",
		    "SELECT generic_plans + custom_plans AS n "
		    "FROM pg_prepared_statements WHERE name = $1",
		    n, 1, 0 },
	};
	const char *one[] = { "7" };
	struct core_db *db = NULL;
	PGresult *res = NULL;
	int i, ok = 1;

	T_EQ(core_db_open(conninfo, st, 3, &db), CORE_OK, "plans: opened");
	for (i = 0; i < 7; i++) {
		ok &= core_db_exec(db, 0, one, 1, &res) == CORE_OK;
		PQclear(res);
		ok &= core_db_exec(db, 1, one, 1, &res) == CORE_OK &&
		    core_cell_int(res, 0, 0, 0) == 7;
		PQclear(res);
	}
	T_OK(ok, "both run seven times, the marked one with its value");
	one[0] = "T_PREPARED";
	T_OK(core_db_exec(db, 2, one, 1, &res) == CORE_OK &&
		core_cell_int(res, 0, 0, -1) == 7,
	    "the prepared one was planned as a prepared statement, 7 times");
	PQclear(res);
	one[0] = "T_EACH";
	T_OK(core_db_exec(db, 2, one, 1, &res) == CORE_OK &&
		core_cell_int(res, 0, 0, -1) == 0,
	    "the marked one never was: planned for each execution's value");
	PQclear(res);
	core_db_close(db);
}

int
main(void)
{
	const char *conninfo = getenv("WEFT_DB");

	cells();
	if (conninfo != NULL && *conninfo != '\0') {
		columns(conninfo);
		plans(conninfo);
	} else
		printf("# WEFT_DB not set: column checks skipped\n");
	return T_DONE();
}
