/*
 * fetch.c -- the remote subcommands' common part and arXiv: "arxiv oai"
 * (OAI-PMH ListRecords, resumable), "arxiv ids" and "arxiv query" (the
 * Atom API), "status", and the dispatch of "openalex", "s2" and "ror"
 * (enrich.c).
 *
 * Every response is one batch and one transaction: the papers are
 * COPYed into the session's staging tables and merged by the loader's
 * MERGE_PAPERS (idempotent: unchanged rows are not written), OAI
 * deletions applied, derived columns recomputed for what changed, the
 * changed entities marked in stale_pages and the source's cursor moved
 * -- all or nothing.  A response that does not parse writes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

#define ATOM_BATCH 100 /* ids per id_list request (the API's advice) */

static const char usage_arxiv[] =
    "usage: weft-harvest arxiv oai [--from YYYY-MM-DD] [--until YYYY-MM-DD]\n"
    "                              [--set SET] [--prefix arXiv|oai_dc]\n"
    "       weft-harvest arxiv ids ID...\n"
    "       weft-harvest arxiv query QUERY [--max N] [--page-size N]\n"
    "\n"
    "oai    OAI-PMH ListRecords from arxiv_oai_url, following\n"
    "       resumptionToken; the position is stored after every page, so\n"
    "       an interrupted run with the same options resumes there.\n"
    "       Without --from: from the last successful run's end.\n"
    "ids    the Atom API (arxiv_api_url) by id_list, 100 ids a request;\n"
    "       new-style, old-style and versioned ids.\n"
    "query  the Atom API's search_query, paged by start/max_results\n"
    "       (--max default 100, --page-size default 100).\n"
    "\n"
    "Waits arxiv_delay ms (default 3000) between requests.  Exit status:\n"
    "0 done, 1 failed (the message says why; batches before the failure\n"
    "are kept), 2 usage.\n";

static const char usage_status[] =
    "usage: weft-harvest status\n"
    "\n"
    "Each source's cursor, last run, last success, last error and counts.\n";

/* ------------------------------------------------------------------ */
/* Runs: connection, staging, batches, progress                        */
/* ------------------------------------------------------------------ */


static double
elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Progress: a rewritten line on a terminal, one log line per batch else. */
void
harvest_run_progress(struct harvest_run *r, int final)
{
	double s = elapsed(&r->t0), rate = s > 0 ? r->records / s : 0;
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
harvest_run_open(struct harvest_run *r, const struct core_conf *conf, enum harvest_src src,
    const char *key, const char *label)
{
	enum core_err er;

	memset(r, 0, sizeof(*r));
	r->conf = conf;
	r->key = key;
	r->label = label;
	r->expect = -1;
	r->tty = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	if ((er = harvest_connect(conf, HARVEST_NPREPARED, &r->db)) != CORE_OK)
		return er;
	/* The loader's TEMP staging tables, for this session. */
	if ((er = core_db_cmd(r->db, harvest_sql[HARVEST_SQL_STAGE_CREATE].sql))
	    != CORE_OK)
		return er;
	if ((int)src >= 0)
		r->http = harvest_http_new(conf, src);
	return CORE_OK;
}

void
harvest_run_close(struct harvest_run *r)
{
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

/* Runs a statement whose result is not needed. */
enum core_err
harvest_exec0(struct core_db *db, int stmt, const char *const *p, int n)
{
	PGresult *res = NULL;
	enum core_err er = core_db_exec(db, stmt, p, n, &res);

	PQclear(res);
	return er;
}

/* COPY FROM STDIN of one staging buffer (as load.c does). */
enum core_err
harvest_copy_in(struct core_db *db, int stmt, const struct core_buf *b)
{
	PGconn *c = core_db_conn(db);
	PGresult *res;
	enum core_err er = CORE_OK;

	res = PQexec(c, harvest_sql[stmt].sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		core_log(CORE_LOG_ERROR, "harvest.db", "%s: %s",
		    harvest_sql[stmt].name, PQresultErrorMessage(res));
		PQclear(res);
		return CORE_EDB;
	}
	PQclear(res);
	if (b->len > 0 && PQputCopyData(c, b->ptr, (int)b->len) != 1)
		er = CORE_EDB;
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
	return er;
}

char *
harvest_jdump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
}

/* Adds one paper object (see remote.h) to the staging buffers, in the
 * loader's staging format (load.c stage_paper()). */
static void
stage_paper(struct harvest_run *r, const json_t *p)
{
	const json_t *auth = json_object_get(p, "authors"), *a;
	const char *arxiv = json_string_value(json_object_get(p, "arxiv_id"));
	char seq[24], pos[24], count[24], *cats, *vers, *slug, *title;
	char *key, *aslug, *clean;
	size_t i;
	int matched = json_array_size(auth) > 0;

	r->seq++;
	snprintf(seq, sizeof(seq), "%ld", r->seq);
	json_array_foreach(auth, i, a) {
		clean = harvest_tex_unaccent(json_string_value(
		    json_object_get(a, "name")));
		key = harvest_name_key(clean);
		aslug = core_slug(clean, 60);
		if (*key == '\0')
			matched = 0;
		snprintf(pos, sizeof(pos), "%zu", i + 1);
		harvest_copy_row(&r->st_authors, (const char *const[]){ seq,
		    arxiv, pos, clean, key, aslug }, 6);
		free(clean);
		free(key);
		free(aslug);
	}
	title = harvest_tex_unaccent(json_string_value(json_object_get(p,
	    "title")));
	slug = core_slug(title, 80);
	cats = harvest_jdump(json_object_get(p, "categories"));
	vers = harvest_jdump(json_object_get(p, "versions"));
	snprintf(count, sizeof(count), "%zu", json_array_size(auth));
	harvest_copy_row(&r->st_papers, (const char *const[]){ seq, arxiv,
	    title, json_string_value(json_object_get(p, "abstract")),
	    json_string_value(json_object_get(p, "comment")), cats,
	    json_string_value(json_object_get(p, "primary")),
	    json_string_value(json_object_get(p, "published")),
	    json_string_value(json_object_get(p, "updated")), vers,
	    json_string_value(json_object_get(p, "doi")),
	    json_string_value(json_object_get(p, "journal_ref")),
	    json_string_value(json_object_get(p, "license")), slug,
	    json_string_value(json_object_get(p, "source")), count,
	    matched ? "t" : "f" }, 17);
	free(title);
	free(slug);
	free(cats);
	free(vers);
}

/*
 * Writes one response in one transaction: papers, deletions, derived
 * columns, stale marks and the cursor (next: the position after this
 * batch; "" for none).  Nothing of it remains on failure.
 */
static enum core_err
write_batch(struct harvest_run *r, const json_t *papers, const json_t *deleted,
    const char *next, long complete)
{
	const json_t *v;
	size_t i;
	char nrec[24], ndel[24], nreq[24], ncomp[24], *ids = NULL;
	enum core_err er;

	core_buf_reset(&r->st_papers);
	core_buf_reset(&r->st_authors);
	json_array_foreach(papers, i, v)
		stage_paper(r, v);
	if ((er = core_db_cmd(r->db, "BEGIN")) != CORE_OK)
		return er;
	if (json_array_size(papers) > 0 &&
	    ((er = harvest_copy_in(r->db, HARVEST_SQL_COPY_PAPERS, &r->st_papers)) !=
	    CORE_OK || (r->st_authors.len > 0 && (er = harvest_copy_in(r->db,
	    HARVEST_SQL_COPY_AUTHORS, &r->st_authors)) != CORE_OK) ||
	    (er = core_db_cmd(r->db, harvest_sql[HARVEST_SQL_MERGE_PAPERS].sql))
	    != CORE_OK || (er = core_db_cmd(r->db,
	    harvest_sql[HARVEST_SQL_MERGE_AUTHORSHIPS].sql)) != CORE_OK))
		goto rollback;
	if (deleted != NULL && json_array_size(deleted) > 0) {
		/* A text[] literal: ids hold no quotes or commas. */
		struct core_buf b = CORE_BUF_INIT;

		core_buf_putc(&b, '{');
		json_array_foreach(deleted, i, v)
			core_buf_printf(&b, "%s\"%s\"", i ? "," : "",
			    json_string_value(v));
		core_buf_putc(&b, '}');
		ids = core_buf_steal(&b);
		if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_DELETE_PAPERS,
		    (const char *const[]){ ids }, 1)) != CORE_OK)
			goto rollback;
	}
	if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_RECOMPUTE_BATCH, NULL, 0)) !=
	    CORE_OK || (er = harvest_exec0(r->db, HARVEST_SQL_HV_RECOMPUTE_RESEARCHERS,
	    NULL, 0)) != CORE_OK || (er = harvest_exec0(r->db,
	    HARVEST_SQL_HV_MARK_STALE, NULL, 0)) != CORE_OK)
		goto rollback;
	snprintf(nrec, sizeof(nrec), "%zu", json_array_size(papers));
	snprintf(ndel, sizeof(ndel), "%zu", deleted ? json_array_size(deleted)
	    : 0);
	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(r));
	snprintf(ncomp, sizeof(ncomp), "%ld", complete);
	if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_CURSOR_STEP,
	    (const char *const[]){ r->key, next ? next : "", nrec, ndel, nreq,
	    ncomp }, 6)) != CORE_OK)
		goto rollback;
	if ((er = core_db_cmd(r->db, "COMMIT")) != CORE_OK)
		goto out;
	/* Committed: a failed refresh is logged and the next one catches up. */
	(void)harvest_after_write(r->conf, r->db, HARVEST_AFTER_BATCH);
	r->records += (long)json_array_size(papers);
	r->deleted += deleted ? (long)json_array_size(deleted) : 0;
	r->batches++;
	goto out;
rollback:
	core_db_cmd(r->db, "ROLLBACK");
out:
	free(ids);
	return er;
}

/* ------------------------------------------------------------------ */
/* Option helpers                                                      */
/* ------------------------------------------------------------------ */

/* "--name VALUE" or "--name=VALUE" at argv[*i]; 1 when it matched. */
int
harvest_opt(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);

	if (strcmp(argv[*i], name) == 0) {
		if (*i + 1 >= argc)
			return -1;
		*val = argv[++*i];
		return 1;
	}
	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	return 0;
}

static int
wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") ==
		    0)
			return 1;
	return 0;
}

int
harvest_bad_usage(const char *text, const char *msg, const char *arg)
{
	if (msg != NULL)
		fprintf(stderr, "weft-harvest: %s%s%s\n", msg, arg ? " " : "",
		    arg ? arg : "");
	fputs(text, stderr);
	return HARVEST_EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* arxiv oai                                                           */
/* ------------------------------------------------------------------ */

static void
url_param(struct core_buf *b, const char *k, const char *v)
{
	if (v == NULL)
		return;
	core_buf_printf(b, "&%s=", k);
	core_url_encode(b, v, 0);
}

static int
arxiv_oai(const struct core_conf *conf, int argc, char **argv)
{
	struct harvest_run r;
	struct harvest_page pg;
	struct core_buf url = CORE_BUF_INIT, body = CORE_BUF_INIT;
	const char *from = NULL, *until = NULL, *set = NULL, *prefix = "arXiv";
	char why[HARVEST_WHY_LEN], date[11], *token = NULL, *ptext = NULL;
	char msg[HARVEST_WHY_LEN + 64];
	PGresult *res = NULL;
	json_t *params = NULL, *old = NULL;
	long status;
	int i, m, rc = HARVEST_EXIT_FAIL, resumed = 0;
	enum core_err er;

	for (i = 0; i < argc; i++) {
		if ((m = harvest_opt(argc, argv, &i, "--from", &from)) ||
		    (m = harvest_opt(argc, argv, &i, "--until", &until)) ||
		    (m = harvest_opt(argc, argv, &i, "--set", &set)) ||
		    (m = harvest_opt(argc, argv, &i, "--prefix", &prefix))) {
			if (m < 0)
				return harvest_bad_usage(usage_arxiv, "missing value "
				    "for", argv[i]);
			continue;
		}
		return harvest_bad_usage(usage_arxiv, "unexpected", argv[i]);
	}
	if ((from && harvest_date10(from, date) != 0) || (from &&
	    strlen(from) != 10) || (until && (harvest_date10(until, date) !=
	    0 || strlen(until) != 10)))
		return harvest_bad_usage(usage_arxiv, "dates are YYYY-MM-DD", NULL);
	if (strcmp(prefix, "arXiv") != 0 && strcmp(prefix, "oai_dc") != 0)
		return harvest_bad_usage(usage_arxiv, "--prefix is arXiv or oai_dc",
		    NULL);

	if (harvest_run_open(&r, conf, HARVEST_SRC_OAI, "arxiv-oai", "arxiv oai") !=
	    CORE_OK)
		goto out;
	/* Incremental: start where the last successful run ended. */
	if (from == NULL && core_db_exec(r.db, HARVEST_SQL_HV_LAST_OK_DATE,
	    (const char *const[]){ r.key }, 1, &res) == CORE_OK &&
	    PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) &&
	    harvest_date10(PQgetvalue(res, 0, 0), date) == 0)
		from = date;
	PQclear(res);
	res = NULL;
	params = json_pack("{s:s?, s:s?, s:s?, s:s}", "from", from, "until",
	    until, "set", set, "prefix", prefix);
	ptext = harvest_jdump(params);

	/* The same run interrupted?  Then resume at its token. */
	if ((er = core_db_exec(r.db, HARVEST_SQL_HV_CURSOR_GET,
	    (const char *const[]){ r.key }, 1, &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 2), "f") == 0 &&
	    *PQgetvalue(res, 0, 0) != '\0' &&
	    (old = json_loads(PQgetvalue(res, 0, 1), 0, NULL)) != NULL &&
	    json_equal(old, params)) {
		token = core_xstrdup(PQgetvalue(res, 0, 0));
		r.records = atol(PQgetvalue(res, 0, 3));
		resumed = 1;
		core_log(CORE_LOG_INFO, "harvest.resume", "arxiv oai: resuming "
		    "at resumptionToken %s after %ld records", token,
		    r.records);
		er = harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_RESUME,
		    (const char *const[]){ r.key }, 1);
	} else
		er = harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_START,
		    (const char *const[]){ r.key, ptext }, 2);
	if (er != CORE_OK)
		goto out;
	PQclear(res);
	res = NULL;

	for (;;) {
		core_buf_reset(&url);
		core_buf_printf(&url, "%s?verb=ListRecords",
		    harvest_http_base(r.http));
		if (token != NULL)
			/* OAI-PMH: the token is an exclusive argument. */
			url_param(&url, "resumptionToken", token);
		else {
			url_param(&url, "metadataPrefix", prefix);
			url_param(&url, "from", from);
			url_param(&url, "until", until);
			url_param(&url, "set", set);
		}
		if (harvest_http_fetch(r.http, core_buf_cstr(&url), NULL, &body,
		    &status) != CORE_OK) {
			harvest_run_fail(&r, harvest_http_error(r.http));
			goto out;
		}
		er = harvest_oai_parse(body.ptr, body.len, &pg, why);
		if (er == CORE_EUPSTREAM && resumed &&
		    strstr(why, "badResumptionToken") != NULL) {
			/* Tokens expire: start the same run again. */
			core_log(CORE_LOG_WARN, "harvest.resume", "arxiv oai: "
			    "stored token refused (%s); starting over", why);
			free(token);
			token = NULL;
			resumed = 0;
			r.records = 0;
			if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_START,
			    (const char *const[]){ r.key, ptext }, 2) !=
			    CORE_OK)
				goto out;
			continue;
		}
		if (er != CORE_OK) {
			snprintf(msg, sizeof(msg), "%s response from %s: %s; "
			    "nothing of it written",
			    er == CORE_EUPSTREAM ? "error" : "malformed",
			    harvest_http_base(r.http), why);
			harvest_run_fail(&r, msg);
			goto out;
		}
		if (pg.complete > 0)
			r.expect = pg.complete;
		if (write_batch(&r, pg.papers, pg.deleted, pg.token,
		    pg.complete) != CORE_OK) {
			harvest_page_free(&pg);
			harvest_run_fail(&r, "database write failed; batch rolled back");
			goto out;
		}
		harvest_run_progress(&r, 0);
		free(token);
		token = pg.token != NULL ? core_xstrdup(pg.token) : NULL;
		harvest_page_free(&pg);
		if (token == NULL)
			break;
	}
	snprintf(why, sizeof(why), "%ld", harvest_run_requests(&r));
	if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_DONE,
	    (const char *const[]){ r.key, why }, 2) != CORE_OK)
		goto out;
	harvest_run_progress(&r, 1);
	printf("arxiv oai: %ld records, %ld deleted, %ld requests, %ld "
	    "retries\n", r.records, r.deleted, harvest_http_requests(r.http),
	    harvest_http_retries(r.http));
	rc = HARVEST_EXIT_OK;
out:
	PQclear(res);
	json_decref(params);
	json_decref(old);
	free(ptext);
	free(token);
	core_buf_free(&url);
	core_buf_free(&body);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* arxiv ids, arxiv query                                              */
/* ------------------------------------------------------------------ */

/* One Atom request and its batch.  *total gets totalResults. */
static int
atom_batch(struct harvest_run *r, const char *url, const char *cursor, long *total,
    size_t *got)
{
	struct core_buf body = CORE_BUF_INIT;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN], msg[HARVEST_WHY_LEN + 64];
	long status;
	enum core_err er;
	int rc = -1;

	er = harvest_http_fetch(r->http, url, NULL, &body, &status);
	if (er != CORE_OK && status == 400 && body.len > 0 &&
	    harvest_atom_parse(body.ptr, body.len, &pg, why) ==
	    CORE_EUPSTREAM) {
		/* The API explains a 400 in an error entry: say that. */
		harvest_run_fail(r, why);
		goto out;
	}
	if (er != CORE_OK) {
		harvest_run_fail(r, harvest_http_error(r->http));
		goto out;
	}
	if ((er = harvest_atom_parse(body.ptr, body.len, &pg, why)) !=
	    CORE_OK) {
		snprintf(msg, sizeof(msg), "%s response from %s: %s; nothing "
		    "of it written", er == CORE_EUPSTREAM ? "error" :
		    "malformed", harvest_http_base(r->http), why);
		harvest_run_fail(r, msg);
		goto out;
	}
	*total = pg.total;
	*got = json_array_size(pg.papers);
	if (write_batch(r, pg.papers, NULL, cursor, pg.total) != CORE_OK) {
		harvest_run_fail(r, "database write failed; batch rolled back");
		harvest_page_free(&pg);
		goto out;
	}
	harvest_page_free(&pg);
	harvest_run_progress(r, 0);
	rc = 0;
out:
	core_buf_free(&body);
	return rc;
}

static int
arxiv_ids(const struct core_conf *conf, int argc, char **argv)
{
	struct harvest_run r;
	struct core_arxiv_id id;
	struct core_buf url = CORE_BUF_INIT;
	size_t used, got, n, i, j;
	long total;
	int rc = HARVEST_EXIT_FAIL;
	char nreq[24];

	if (argc == 0)
		return harvest_bad_usage(usage_arxiv, "arxiv ids: no ids", NULL);
	for (i = 0; i < (size_t)argc; i++)
		if (core_arxiv_parse(argv[i], strlen(argv[i]), &id, &used) !=
		    CORE_OK || used != strlen(argv[i]))
			return harvest_bad_usage(usage_arxiv, "not an arXiv id:",
			    argv[i]);
	if (harvest_run_open(&r, conf, HARVEST_SRC_ARXIV, "arxiv-api", "arxiv ids") !=
	    CORE_OK)
		goto out;
	r.expect = argc;
	if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_START, (const char *const[]){
	    r.key, "{\"mode\":\"ids\"}" }, 2) != CORE_OK)
		goto out;
	for (i = 0; i < (size_t)argc; i += ATOM_BATCH) {
		n = (size_t)argc - i < ATOM_BATCH ? (size_t)argc - i :
		    ATOM_BATCH;
		core_buf_reset(&url);
		core_buf_printf(&url, "%s?id_list=", harvest_http_base(r.http));
		for (j = 0; j < n; j++) {
			if (j > 0)
				core_buf_puts(&url, ",");
			/* Versioned ids stay versioned: that version asked. */
			core_url_encode(&url, argv[i + j], 1);
		}
		core_buf_printf(&url, "&start=0&max_results=%zu", n);
		if (atom_batch(&r, core_buf_cstr(&url), "", &total, &got) != 0)
			goto out;
	}
	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(&r));
	if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_DONE, (const char *const[]){
	    r.key, nreq }, 2) != CORE_OK)
		goto out;
	harvest_run_progress(&r, 1);
	printf("arxiv ids: %ld of %d found\n", r.records, argc);
	rc = HARVEST_EXIT_OK;
out:
	core_buf_free(&url);
	harvest_run_close(&r);
	return rc;
}

static int
arxiv_query(const struct core_conf *conf, int argc, char **argv)
{
	struct harvest_run r;
	struct core_buf url = CORE_BUF_INIT;
	const char *q = NULL, *v;
	long max = 100, size = 100, start, total = 0;
	size_t got;
	int i, m, rc = HARVEST_EXIT_FAIL;
	char next[24], nreq[24];

	for (i = 0; i < argc; i++) {
		if ((m = harvest_opt(argc, argv, &i, "--max", &v)) > 0)
			max = atol(v);
		else if ((m = harvest_opt(argc, argv, &i, "--page-size", &v)) > 0)
			size = atol(v);
		else if (m < 0)
			return harvest_bad_usage(usage_arxiv, "missing value", NULL);
		else if (q == NULL && argv[i][0] != '-')
			q = argv[i];
		else
			return harvest_bad_usage(usage_arxiv, "unexpected", argv[i]);
	}
	if (q == NULL || max < 1 || size < 1 || size > 2000)
		return harvest_bad_usage(usage_arxiv, "arxiv query QUERY [--max N] "
		    "[--page-size 1..2000]", NULL);
	if (harvest_run_open(&r, conf, HARVEST_SRC_ARXIV, "arxiv-api", "arxiv query")
	    != CORE_OK)
		goto out;
	r.expect = max;
	if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_START, (const char *const[]){
	    r.key, "{\"mode\":\"query\"}" }, 2) != CORE_OK)
		goto out;
	for (start = 0; start < max; start += size) {
		long n = max - start < size ? max - start : size;

		core_buf_reset(&url);
		core_buf_printf(&url, "%s?search_query=",
		    harvest_http_base(r.http));
		core_url_encode(&url, q, 0);
		core_buf_printf(&url, "&start=%ld&max_results=%ld", start, n);
		snprintf(next, sizeof(next), "%ld", start + n);
		if (atom_batch(&r, core_buf_cstr(&url), next, &total, &got) !=
		    0)
			goto out;
		if (total >= 0 && total < max)
			r.expect = max = total;
		if (got == 0)
			break; /* the API ran dry before its total */
	}
	snprintf(nreq, sizeof(nreq), "%ld", harvest_run_requests(&r));
	if (harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_DONE, (const char *const[]){
	    r.key, nreq }, 2) != CORE_OK)
		goto out;
	harvest_run_progress(&r, 1);
	printf("arxiv query: %ld records of %ld matching\n", r.records, total);
	rc = HARVEST_EXIT_OK;
out:
	core_buf_free(&url);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* status                                                              */
/* ------------------------------------------------------------------ */

static int
status_cmd(const struct core_conf *conf)
{
	struct harvest_run r;
	PGresult *res = NULL;
	int i, rc = HARVEST_EXIT_FAIL;

	if (harvest_run_open(&r, conf, (enum harvest_src)-1, NULL, "status") !=
	    CORE_OK)
		goto out;
	if (core_db_exec(r.db, HARVEST_SQL_HV_STATUS, NULL, 0, &res) !=
	    CORE_OK)
		goto out;
	printf("%-10s %-8s %-19s %-19s %9s %9s %8s  %s\n", "source", "state",
	    "last run", "last ok", "run recs", "records", "requests",
	    "cursor / last error");
	for (i = 0; i < PQntuples(res); i++) {
		const char *err = PQgetvalue(res, i, 6);
		printf("%-10s %-8s %-19s %-19s %9s %9s %8s  %s%s%s\n",
		    PQgetvalue(res, i, 0),
		    *err ? "failed" : strcmp(PQgetvalue(res, i, 3), "t") == 0 ?
		    "done" : "partial", PQgetvalue(res, i, 4),
		    PQgetvalue(res, i, 5), PQgetvalue(res, i, 7),
		    PQgetvalue(res, i, 8), PQgetvalue(res, i, 10),
		    *PQgetvalue(res, i, 1) ? "cursor " : "",
		    PQgetvalue(res, i, 1), *err ? err : "");
	}
	if (PQntuples(res) == 0)
		printf("(no harvest has run yet)\n");
	PQclear(res);
	res = NULL;
	if (core_db_exec(r.db, HARVEST_SQL_HV_COUNTS, NULL, 0, &res) == CORE_OK)
		printf("\npapers %s, authorships %s, researchers %s, "
		    "institutions %s, stale pages %s\n", PQgetvalue(res, 0, 0),
		    PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
		    PQgetvalue(res, 0, 3), PQgetvalue(res, 0, 4));
	rc = HARVEST_EXIT_OK;
out:
	PQclear(res);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

int
harvest_remote_is(const char *cmd)
{
	return strcmp(cmd, "arxiv") == 0 || strcmp(cmd, "openalex") == 0 ||
	    strcmp(cmd, "s2") == 0 || strcmp(cmd, "ror") == 0 ||
	    strcmp(cmd, "status") == 0;
}

int
harvest_remote_usage(const char *cmd)
{
	if (strcmp(cmd, "arxiv") == 0)
		fputs(usage_arxiv, stdout);
	else if (strcmp(cmd, "status") == 0)
		fputs(usage_status, stdout);
	else
		return harvest_enrich_usage(cmd);
	return HARVEST_EXIT_OK;
}

int
harvest_remote_main(const struct core_conf *conf, const char *cmd, int argc,
    char **argv)
{
	if (wants_help(argc, argv))
		return harvest_remote_usage(cmd);
	if (strcmp(cmd, "status") == 0)
		return argc == 0 ? status_cmd(conf) : harvest_bad_usage(usage_status,
		    "unexpected", argv[0]);
	if (strcmp(cmd, "arxiv") == 0) {
		if (argc >= 1 && strcmp(argv[0], "oai") == 0)
			return arxiv_oai(conf, argc - 1, argv + 1);
		if (argc >= 1 && strcmp(argv[0], "ids") == 0)
			return arxiv_ids(conf, argc - 1, argv + 1);
		if (argc >= 1 && strcmp(argv[0], "query") == 0)
			return arxiv_query(conf, argc - 1, argv + 1);
		return harvest_bad_usage(usage_arxiv, "arxiv: oai, ids or query?",
		    NULL);
	}
	return harvest_enrich_main(conf, cmd, argc, argv);
}
