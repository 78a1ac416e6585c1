/*
 * run.c -- what every harvester's run shares: the connection with its
 * staging tables, the source's HTTP client, progress, failures recorded
 * in harvest_cursors, and the small database helpers.  The harvesters
 * (fetch.c: arXiv and status; enrich.c: OpenAlex, S2, ROR) call this
 * file and never each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

/* ------------------------------------------------------------------ */
/* Runs: connection, staging, batches, progress                        */
/* ------------------------------------------------------------------ */

/* Progress: a rewritten line on a terminal, one log line per batch else. */
void
harvest_run_progress(struct harvest_run *r, int final)
{
	double s = core_elapsed(&r->t0), rate = s > 0 ? r->records / s : 0;
	char eta[32] = "?";
	long left;

	if (r->expect > 0 && rate > 0) {
		left = (long)((r->expect - r->records) / rate);
		if (left < 0)
			left = 0;
		snprintf(eta, sizeof(eta), "%ld:%02ld", left / 60, left % 60);
	}
	if (r->tty) {
		fprintf(stderr, "\r%s: %ld records%s%ld, %.1f/s, ETA %s   %s",
		    r->label, r->records, r->expect > 0 ? " of " : "",
		    r->expect > 0 ? r->expect : 0, rate, eta,
		    final ? "\n" : "");
		fflush(stderr);
	} else
		core_log(CORE_LOG_INFO, "harvest.batch",
		    "%s: batch %ld, %ld records, %ld deleted, %.1f/s%s%s",
		    r->label, r->batches, r->records, r->deleted, rate,
		    r->expect > 0 ? ", ETA " : "", r->expect > 0 ? eta : "");
}

enum core_err
harvest_run_open(struct harvest_run *r, const struct core_conf *conf,
    enum harvest_src src, const char *key, const char *label)
{
	enum core_err er;

	memset(r, 0, sizeof(*r));
	r->conf = conf;
	r->key = key;
	r->label = label;
	r->expect = -1;
	harvest_merge_init(&r->merge, conf);
	r->tty = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	if ((er = harvest_connect(conf, HARVEST_NPREPARED, &r->db)) != CORE_OK)
		return er;
	/* The loader's TEMP staging tables, for this session. */
	if ((er = core_db_cmd(r->db,
		 harvest_sql[HARVEST_SQL_STAGE_CREATE].sql)) != CORE_OK)
		return er;
	if ((int)src >= 0)
		r->http = harvest_http_new(conf, src);
	return CORE_OK;
}

void
harvest_run_close(struct harvest_run *r)
{
	/* What a failed run committed is merged all the same. */
	if (r->db != NULL)
		(void)harvest_merge_end(&r->merge, r->db);
	harvest_merge_close(&r->merge);
	core_db_close(r->db);
	harvest_http_free(r->http);
	core_buf_free(&r->st_papers);
	core_buf_free(&r->st_authors);
	core_buf_free(&r->st_a);
	core_buf_free(&r->st_b);
}

/* Requests made since the last time the cursor was told. */
long
harvest_run_requests(struct harvest_run *r)
{
	long n = r->http != NULL ? harvest_http_requests(r->http) : 0;
	long d = n - r->reqs_noted;

	r->reqs_noted = n;
	return d;
}

enum core_err
harvest_run_start(struct harvest_run *r, const char *params)
{
	return harvest_exec0(r->db, HARVEST_SQL_HV_CURSOR_START,
	    (const char *const[]){ r->key, params }, 2);
}

int
harvest_run_done(struct harvest_run *r)
{
	char nreq[24];

	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(r));
	if (harvest_merge_end(&r->merge, r->db) != CORE_OK ||
	    harvest_exec0(r->db, HARVEST_SQL_HV_CURSOR_DONE,
		(const char *const[]){ r->key, nreq }, 2) != CORE_OK)
		return HARVEST_EXIT_FAIL;
	harvest_run_progress(r, 1);
	return HARVEST_EXIT_OK;
}

enum core_err
harvest_run_commit(struct harvest_run *r, const char *cursor, long n, long ndel,
    long complete)
{
	char nrec[24], nd[24], nreq[24], ncomp[24];
	enum core_err er;

	snprintf(nrec, sizeof(nrec), "%ld", n);
	snprintf(nd, sizeof(nd), "%ld", ndel);
	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(r));
	snprintf(ncomp, sizeof(ncomp), "%ld", complete);
	if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_RECOMPUTE_BATCH, NULL,
		 0)) != CORE_OK ||
	    (er = harvest_exec0(r->db, HARVEST_SQL_HV_RECOMPUTE_RESEARCHERS,
		 NULL, 0)) != CORE_OK ||
	    (er = harvest_exec0(r->db, HARVEST_SQL_HV_MARK_STALE, NULL, 0)) !=
		CORE_OK ||
	    (er = harvest_exec0(r->db, HARVEST_SQL_HV_CURSOR_STEP,
		 (const char *const[]){ r->key, cursor ? cursor : "", nrec, nd,
		     nreq, ncomp },
		 6)) != CORE_OK ||
	    (er = core_db_cmd(r->db, "COMMIT")) != CORE_OK) {
		core_db_cmd(r->db, "ROLLBACK");
		return er;
	}
	/* Committed: a failed refresh is logged and the next one catches up. */
	(void)harvest_after_write(r->conf, r->db, HARVEST_AFTER_BATCH);
	r->records += n;
	r->deleted += ndel;
	r->batches++;
	return CORE_OK;
}

/* Records the failure in harvest_cursors (outside any transaction). */
void
harvest_run_fail(struct harvest_run *r, const char *msg)
{
	char nreq[24];

	fprintf(stderr, "weft-harvest: %s: %s\n", r->label, msg);
	core_log(CORE_LOG_ERROR, "harvest.fail", "%s: %s", r->label, msg);
	if (r->db == NULL || r->key == NULL)
		return;
	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(r));
	harvest_exec0(r->db, HARVEST_SQL_HV_CURSOR_FAIL,
	    (const char *const[]){ r->key, msg, nreq }, 3);
}

void
harvest_run_fail_parse(struct harvest_run *r, enum core_err er, const char *why,
    const char *lost)
{
	char msg[HARVEST_WHY_LEN + 64];

	snprintf(msg, sizeof(msg), "%s response from %s: %s; %s",
	    er == CORE_EUPSTREAM ? "error" : "malformed",
	    harvest_http_base(r->http), why, lost);
	harvest_run_fail(r, msg);
}

void
harvest_run_skip(struct harvest_run *r, const char *why)
{
	core_log(CORE_LOG_WARN, "harvest.skip", "%s: skipped: %s", r->label,
	    why);
	if (r->skipped++ == 0)
		snprintf(r->first_skip, sizeof(r->first_skip), "%s", why);
}

int
harvest_run_judge(struct harvest_run *r, const char *none)
{
	char msg[2 * HARVEST_WHY_LEN];

	if (r->seen <= 0)
		return 0;
	if (r->records == 0)
		snprintf(msg, sizeof(msg),
		    "%ld records read, none written (%s: %s)", r->seen,
		    r->skipped ? "first skipped" : "none",
		    r->skipped ? r->first_skip : none);
	else if (r->skipped * 100 > r->seen * HARVEST_MAX_SKIP_PCT)
		snprintf(msg, sizeof(msg),
		    "%ld of %ld records skipped, more than %d%% (first: %s)",
		    r->skipped, r->seen, HARVEST_MAX_SKIP_PCT, r->first_skip);
	else
		return 0;
	harvest_run_fail(r, msg);
	return -1;
}

/* Runs a statement whose result is not needed. */
enum core_err
harvest_exec0(struct core_db *db, int stmt, const char *const *p, int n)
{
	PGresult *res = NULL;
	enum core_err er = core_db_exec(db, stmt, p, n, &res);

	PQclear(res);
	return er;
}

/*
 * COPY FROM STDIN of one staging buffer, 1 MiB a PQputCopyData() (its
 * length is an int; a bulk load's buffer can be larger).
 */
enum core_err
harvest_copy_in(struct core_db *db, int stmt, const struct core_buf *b)
{
	PGconn *c = core_db_conn(db);
	PGresult *res;
	size_t off, n;
	enum core_err er = CORE_OK;

	res = PQexec(c, harvest_sql[stmt].sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s",
		    harvest_sql[stmt].name, PQresultErrorMessage(res));
		PQclear(res);
		return CORE_EDB;
	}
	PQclear(res);
	for (off = 0; off < b->len; off += n) {
		n = b->len - off > (1u << 20) ? 1u << 20 : b->len - off;
		if (PQputCopyData(c, b->ptr + off, (int)n) != 1) {
			er = CORE_EDB;
			break;
		}
	}
	if (PQputCopyEnd(c, er == CORE_OK ? NULL : "client error") != 1)
		er = CORE_EDB;
	while ((res = PQgetResult(c)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s",
			    harvest_sql[stmt].name, PQresultErrorMessage(res));
			er = CORE_EDB;
		}
		PQclear(res);
	}
	if (er != CORE_OK && PQstatus(c) != CONNECTION_OK)
		core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s",
		    harvest_sql[stmt].name, PQerrorMessage(c));
	return er;
}

char *
harvest_jdump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
}

int
harvest_bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "weft-harvest: %s%s%s\n", msg, arg ? " " : "",
	    arg ? arg : "");
	return HARVEST_EXIT_USAGE;
}
