/*
 * migrate.c -- "weft-harvest migrate": applies sql/schema/NNNN_*.sql in
 * version order, each file in its own transaction, and records each one
 * in schema_migrations.  Forward-only and idempotent.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"

_Static_assert(HARVEST_SQL_MIGRATIONS_RECORD < HARVEST_NMIGRATE,
    "migration statements come first in harvest.sql");
_Static_assert(HARVEST_NMIGRATE < HARVEST_NPREPARED,
    "prepared statements come before the scripts in harvest.sql");

/* Server notices ("already exists, skipping") are for debugging only. */
static void
notice(void *arg, const char *msg)
{
	(void)arg;
	core_log(CORE_LOG_DEBUG, "harvest.db", "%s", msg);
}

/* core_db_open() with the quiet notices; *dbp stays NULL on failure. */
static enum core_err
open_db(const char *conninfo, const struct core_stmt *stmts, size_t n,
    struct core_db **dbp)
{
	enum core_err er;

	if ((er = core_db_open(conninfo, stmts, n, dbp)) != CORE_OK) {
		core_db_close(*dbp);
		*dbp = NULL;
		return er;
	}
	PQsetNoticeProcessor(core_db_conn(*dbp), notice, NULL);
	return CORE_OK;
}

/*
 * The search windows a migration made due (0056 changed their indexes'
 * shape), built now rather than at the next refresh: until then a
 * search that would read one reads the whole index instead.  On a
 * connection of its own, every statement prepared (the migrating one
 * has only the migrations').  Failures are warnings, as in a refresh.
 */
static void
windows_after(const struct core_conf *conf)
{
	struct core_db *db = NULL;

	if (harvest_connect(conf, HARVEST_NPREPARED, &db) != CORE_OK)
		return;
	harvest_build_windows(db);
	core_db_close(db);
}

enum core_err
harvest_connect(const struct core_conf *conf, size_t nstmts,
    struct core_db **dbp)
{
	struct core_db *db = NULL;
	const char *conninfo;
	enum core_err er;

	*dbp = NULL;
	/* The harvester writes: db.harvest names the primary when "db"
	 * prefers replicas (see conf/weft.conf). */
	if ((conninfo = core_conf_get(conf, "db.harvest", NULL)) == NULL &&
	    (conninfo = core_conf_get(conf, "db", NULL)) == NULL) {
		core_log(CORE_LOG_ERROR, "harvest.conf",
		    "no database: set \"db\" in the configuration or WEFT_DB");
		return CORE_EINPUT;
	}
	/*
	 * schema_migrations must exist before statements naming it can be
	 * prepared, and DDL cannot be prepared: create it on a plain
	 * connection first.
	 */
	if ((er = open_db(conninfo, NULL, 0, &db)) != CORE_OK)
		return er;
	er = core_db_cmd(db, harvest_sql[HARVEST_SQL_MIGRATIONS_ENSURE].sql);
	core_db_close(db);
	if (er != CORE_OK)
		return er;
	return open_db(conninfo, harvest_sql, nstmts, dbp);
}

enum core_err
harvest_connect_migrated(const struct core_conf *conf, const char *area,
    struct core_db **dbp)
{
	struct harvest_mfile *files = NULL;
	size_t nfiles = 0;
	int current = 0;
	enum core_err er;

	*dbp = NULL;
	if ((er = harvest_migrations(conf, &files, &nfiles)) != CORE_OK ||
	    (er = harvest_connect(conf, HARVEST_NMIGRATE, dbp)) != CORE_OK ||
	    (er = harvest_db_version(*dbp, &current)) != CORE_OK)
		goto out;
	if (nfiles == 0 || current != files[nfiles - 1].version) {
		core_log(CORE_LOG_ERROR, area,
		    "the database is at version %d, the migrations at %d: "
		    "run weft-harvest migrate first",
		    current, nfiles > 0 ? files[nfiles - 1].version : 0);
		er = CORE_EDB;
		goto out;
	}
	core_db_close(*dbp);
	*dbp = NULL;
	er = harvest_connect(conf, HARVEST_NPREPARED, dbp);
out:
	if (er != CORE_OK) {
		core_db_close(*dbp);
		*dbp = NULL;
	}
	harvest_migrations_free(files, nfiles);
	return er;
}

enum core_err
harvest_db_version(struct core_db *db, int *version)
{
	PGresult *res = NULL;
	enum core_err er;

	*version = 0;
	if ((er = core_db_exec(db, HARVEST_SQL_MIGRATIONS_CURRENT, NULL, 0,
		 &res)) != CORE_OK)
		return er;
	*version =
	    core_cell_int(res, 0, HARVEST_MIGRATIONS_CURRENT__VERSION, 0);
	PQclear(res);
	return CORE_OK;
}

void
harvest_migrations_free(struct harvest_mfile *files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].path);
	}
	free(files);
}

static int
mfile_cmp(const void *a, const void *b)
{
	const struct harvest_mfile *x = a, *y = b;

	return (x->version > y->version) - (x->version < y->version);
}

/* The version of a file called "NNNN_name.sql" (four or more digits, an
 * underscore, a name), or -1. */
static int
file_version(const char *f)
{
	size_t n, len = strlen(f);
	int v = 0;

	for (n = 0; f[n] >= '0' && f[n] <= '9'; n++)
		if (n < 9)
			v = v * 10 + (f[n] - '0');
	if (n < 4 || n > 9 || f[n] != '_' || len < n + 6 ||
	    strcmp(f + len - 4, ".sql") != 0)
		return -1;
	return v;
}

enum core_err
harvest_migrations(const struct core_conf *conf, struct harvest_mfile **filesp,
    size_t *np)
{
	struct harvest_mfile *files = NULL;
	struct dirent *de;
	DIR *d = NULL;
	char *dir;
	size_t n = 0, i;
	int v;
	enum core_err er = CORE_OK;

	*filesp = NULL;
	*np = 0;
	dir =
	    core_xasprintf("%s/schema", core_conf_get(conf, "sql_dir", "sql"));
	if ((d = opendir(dir)) == NULL) {
		core_log(CORE_LOG_ERROR, "harvest.migrate", "%s: %s", dir,
		    strerror(errno));
		er = CORE_ESYS;
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		if ((v = file_version(de->d_name)) < 0)
			continue;
		files = core_xrealloc(files, (n + 1) * sizeof(*files));
		files[n].version = v;
		files[n].name =
		    core_xstrndup(de->d_name, strlen(de->d_name) - 4);
		files[n].path = core_xasprintf("%s/%s", dir, de->d_name);
		n++;
	}
	qsort(files, n, sizeof(*files), mfile_cmp);
	/* Two files for one version would make the order a coin toss. */
	for (i = 1; i < n; i++)
		if (files[i].version == files[i - 1].version) {
			core_log(CORE_LOG_ERROR, "harvest.migrate",
			    "%s and %s have the same version",
			    files[i - 1].path, files[i].path);
			er = CORE_EINPUT;
			goto out;
		}
	*filesp = files;
	*np = n;
	files = NULL;
	n = 0;
out:
	if (d != NULL)
		closedir(d);
	harvest_migrations_free(files, n);
	free(dir);
	return er;
}

/* The whole file at path, NUL-terminated; NULL (logged) on failure.
 * Caller frees. */
static char *
slurp(const char *path)
{
	struct core_buf b = CORE_BUF_INIT;
	char chunk[8192];
	size_t n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		core_log(CORE_LOG_ERROR, "harvest.migrate", "%s: %s", path,
		    strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		core_buf_put(&b, chunk, n);
	if (ferror(f)) {
		core_log(CORE_LOG_ERROR, "harvest.migrate", "%s: read error",
		    path);
		fclose(f);
		core_buf_free(&b);
		return NULL;
	}
	fclose(f);
	return core_buf_steal(&b);
}

/*
 * Applies one file and records it, in one transaction: either both
 * happen or neither.
 */
static enum core_err
apply(struct core_db *db, const struct harvest_mfile *m)
{
	PGresult *res = NULL;
	ExecStatusType st;
	const char *params[2];
	char *sql = NULL, vbuf[16];
	enum core_err er = CORE_EDB;

	if ((sql = slurp(m->path)) == NULL) {
		er = CORE_ESYS;
		goto out;
	}
	if (core_db_cmd(db, "BEGIN") != CORE_OK)
		goto out;
	/* Our own trusted SQL, several statements: the simple protocol. */
	res = PQexec(core_db_conn(db), sql);
	st = PQresultStatus(res);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		core_log(CORE_LOG_ERROR, "harvest.migrate", "%s: %s", m->path,
		    PQresultErrorMessage(res));
		goto rollback;
	}
	PQclear(res);
	res = NULL;
	snprintf(vbuf, sizeof(vbuf), "%d", m->version);
	params[0] = vbuf;
	params[1] = m->name;
	if (core_db_exec(db, HARVEST_SQL_MIGRATIONS_RECORD, params, 2, &res) !=
	    CORE_OK)
		goto rollback;
	if (core_db_cmd(db, "COMMIT") != CORE_OK)
		goto out;
	er = CORE_OK;
	goto out;
rollback:
	core_db_cmd(db, "ROLLBACK");
out:
	PQclear(res);
	free(sql);
	return er;
}

int
harvest_migrate(const struct core_conf *conf, int check)
{
	struct harvest_mfile *files = NULL;
	struct core_db *db = NULL;
	PGresult *res = NULL;
	size_t n = 0, i;
	int latest, current, applied = 0, rc = HARVEST_EXIT_FAIL;
	int *done = NULL, ndone = 0, j, k;

	if (harvest_migrations(conf, &files, &n) != CORE_OK)
		goto out;
	latest = n > 0 ? files[n - 1].version : 0;
	if (harvest_connect(conf, HARVEST_NMIGRATE, &db) != CORE_OK)
		goto out;
	/* Held until we disconnect: a second migrator waits here. */
	if (!check) {
		if (core_db_exec(db, HARVEST_SQL_MIGRATIONS_LOCK, NULL, 0,
			&res) != CORE_OK)
			goto out;
		PQclear(res);
		res = NULL;
	}
	if (harvest_db_version(db, &current) != CORE_OK)
		goto out;
	if (current > latest) {
		core_log(CORE_LOG_ERROR, "harvest.migrate",
		    "the database is at version %d, newer than the newest "
		    "migration file (%d): is this an old checkout?",
		    current, latest);
		goto out;
	}
	if (check) {
		printf("current %d\nlatest %d\n", current, latest);
		rc = current == latest ? HARVEST_EXIT_OK : HARVEST_EXIT_BEHIND;
		goto out;
	}

	if (core_db_exec(db, HARVEST_SQL_MIGRATIONS_APPLIED, NULL, 0, &res) !=
	    CORE_OK)
		goto out;
	ndone = PQntuples(res);
	done = core_xcalloc((size_t)ndone + 1, sizeof(*done));
	for (j = 0; j < ndone; j++)
		done[j] = core_cell_int(res, j,
		    HARVEST_MIGRATIONS_APPLIED__VERSION, 0);
	PQclear(res);
	res = NULL;

	for (i = 0; i < n; i++) {
		for (k = 0; k < ndone && done[k] != files[i].version; k++)
			continue;
		if (k < ndone)
			continue; /* applied before */
		if (apply(db, &files[i]) != CORE_OK)
			goto out;
		printf("applied %s\n", files[i].name);
		core_log(CORE_LOG_INFO, "harvest.migrate", "applied %s",
		    files[i].name);
		applied++;
	}
	printf("schema at version %d (%d applied now)\n", latest, applied);
	rc = HARVEST_EXIT_OK;
	if (applied > 0)
		windows_after(conf);
out:
	PQclear(res);
	free(done);
	core_db_close(db);
	harvest_migrations_free(files, n);
	return rc;
}
