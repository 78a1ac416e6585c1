/*
 * fetch.c -- the arXiv harvesters and "status": "arxiv oai" (OAI-PMH
 * ListRecords, resumable), "arxiv ids" and "arxiv query" (the Atom
 * API), each one descriptor (struct core_cmd) at the end of the file.
 * What runs share (connection, client, progress) is in run.c.
 *
 * Every response is one batch and one transaction: the papers are
 * COPYed into the session's staging tables and merged by the loader's
 * MERGE_PAPERS (idempotent: unchanged rows are not written), OAI
 * deletions applied, derived columns recomputed for what changed, the
 * changed entities marked in stale_pages and the source's cursor moved
 * -- all or nothing.  A response that does not parse writes nothing.
 */
#include <stddef.h>
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

/* Adds one paper object (see remote.h) to the staging buffers, in the
 * loader's staging format (load.c stage_paper()). */
static void
stage_paper(struct harvest_run *r, const json_t *p)
{
	const json_t *auth = json_object_get(p, "authors"), *a, *f;
	const char *arxiv = json_string_value(json_object_get(p, "arxiv_id"));
	char seq[24], pos[24], count[24], *cats, *vers, *slug, *title, *ccodes;
	json_t *all, *codes;
	char *key, *aslug, *clean;
	size_t i, j;
	int matched = json_array_size(auth) > 0;

	r->seq++;
	snprintf(seq, sizeof(seq), "%ld", r->seq);
	json_array_foreach(auth, i, a)
	{
		clean = harvest_tex_unaccent(
		    json_string_value(json_object_get(a, "name")));
		key = harvest_name_key(clean);
		aslug = core_slug(clean, 60);
		if (*key == '\0')
			matched = 0;
		snprintf(pos, sizeof(pos), "%zu", i + 1);
		harvest_copy_row(&r->st_authors,
		    (const char *const[]){ seq, arxiv, pos, clean, key, aslug },
		    6);
		/* The raw affiliation strings, for "affil link". */
		json_array_foreach(json_object_get(a, "affiliations"), j, f)
		{
			if (json_string_value(f) == NULL)
				continue;
			harvest_copy_row(&r->st_a,
			    (const char *const[]){ seq, pos,
				json_string_value(f) },
			    3);
		}
		free(clean);
		free(key);
		free(aslug);
	}
	title = harvest_tex_unaccent(
	    json_string_value(json_object_get(p, "title")));
	slug = core_slug(title, 80);
	all = json_deep_copy(json_object_get(p, "categories"));
	codes = harvest_class_codes(all);
	cats = harvest_jdump(all);
	ccodes = harvest_jdump(codes);
	json_decref(all);
	json_decref(codes);
	vers = harvest_jdump(json_object_get(p, "versions"));
	snprintf(count, sizeof(count), "%zu", json_array_size(auth));
	harvest_copy_row(&r->st_papers,
	    (const char *const[]){ seq, arxiv, title,
		json_string_value(json_object_get(p, "abstract")),
		json_string_value(json_object_get(p, "comment")), cats,
		json_string_value(json_object_get(p, "primary")),
		json_string_value(json_object_get(p, "published")),
		json_string_value(json_object_get(p, "updated")), vers,
		json_string_value(json_object_get(p, "doi")),
		json_string_value(json_object_get(p, "journal_ref")),
		json_string_value(json_object_get(p, "license")), slug,
		json_string_value(json_object_get(p, "source")), count,
		matched ? "t" : "f", ccodes },
	    18);
	free(title);
	free(slug);
	free(cats);
	free(ccodes);
	free(vers);
}

/*
 * Writes one response in one transaction: papers, deletions, derived
 * columns, stale marks and the cursor (next: the position after this
 * batch; "" for none).  Nothing of it remains on failure.  The search
 * words of its papers are merged beside the next batches every
 * harvest_merge_every papers (merge.c), and at the end of the run
 * (harvest_run_done(), harvest_run_close()).
 */
static enum core_err
write_batch(struct harvest_run *r, const json_t *papers, const json_t *deleted,
    const char *next, long complete)
{
	const json_t *v;
	size_t i;
	char *ids = NULL;
	enum core_err er;

	/* Before the first papers: the relations their writes read at
	 * random read in order (0098); a run with none reads nothing. */
	if (!r->prewarmed && json_array_size(papers) > 0) {
		harvest_prewarm(r->db, "harvest");
		r->prewarmed = 1;
	}
	core_buf_reset(&r->st_papers);
	core_buf_reset(&r->st_authors);
	core_buf_reset(&r->st_a);
	json_array_foreach(papers, i, v) stage_paper(r, v);
	if ((er = core_db_cmd(r->db, "BEGIN")) != CORE_OK)
		return er;
	if (json_array_size(papers) > 0 &&
	    ((er = harvest_copy_in(r->db, HARVEST_SQL_COPY_PAPERS,
		  &r->st_papers)) != CORE_OK ||
		(r->st_authors.len > 0 &&
		    (er = harvest_copy_in(r->db, HARVEST_SQL_COPY_AUTHORS,
			 &r->st_authors)) != CORE_OK) ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_MERGE_PAPERS].sql)) != CORE_OK ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_MERGE_AUTHORSHIPS].sql)) !=
		    CORE_OK ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_HV_MARK_MADE].sql)) != CORE_OK ||
		(r->st_a.len > 0 &&
		    (er = harvest_copy_in(r->db, HARVEST_SQL_COPY_AFFILS,
			 &r->st_a)) != CORE_OK) ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_MERGE_AFFILS].sql)) != CORE_OK))
		goto rollback;
	if (deleted != NULL && json_array_size(deleted) > 0) {
		/* A text[] literal: ids hold no quotes or commas. */
		struct core_buf b = CORE_BUF_INIT;

		core_buf_putc(&b, '{');
		json_array_foreach(deleted, i, v) core_buf_printf(&b,
		    "%s\"%s\"", i ? "," : "", json_string_value(v));
		core_buf_putc(&b, '}');
		ids = core_buf_steal(&b);
		if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_DELETE_PAPERS,
			 (const char *const[]){ ids }, 1)) != CORE_OK)
			goto rollback;
	}
	if ((er = harvest_run_commit(r, next, (long)json_array_size(papers),
		 deleted ? (long)json_array_size(deleted) : 0, complete)) ==
	    CORE_OK)
		er = harvest_merge_note(&r->merge,
		    (long)json_array_size(papers));
	goto out;
rollback:
	core_db_cmd(r->db, "ROLLBACK");
out:
	free(ids);
	return er;
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

struct oai_args {
	const char *from, *until, *set, *prefix;
};

static int
arxiv_oai(const struct core_conf *conf, void *args)
{
	const struct oai_args *a = args;
	struct harvest_run r;
	struct harvest_page pg;
	struct core_buf url = CORE_BUF_INIT, body = CORE_BUF_INIT;
	const char *from = a->from, *until = a->until, *set = a->set;
	const char *prefix = a->prefix;
	char why[HARVEST_WHY_LEN], date[11], *token = NULL, *ptext = NULL;
	PGresult *res = NULL;
	json_t *params = NULL, *old = NULL;
	long status;
	int rc = HARVEST_EXIT_FAIL, resumed = 0;
	enum core_err er;

	if ((from && harvest_date10(from, date) != 0) ||
	    (from && strlen(from) != 10) ||
	    (until &&
		(harvest_date10(until, date) != 0 || strlen(until) != 10)))
		return harvest_bad_usage("dates are YYYY-MM-DD", NULL);

	if (harvest_run_open(&r, conf, HARVEST_SRC_OAI, "arxiv-oai",
		"arxiv oai") != CORE_OK)
		goto out;
	/* Incremental: start where the last successful run ended. */
	if (from == NULL &&
	    core_db_exec(r.db, HARVEST_SQL_HV_LAST_OK_DATE,
		(const char *const[]){ r.key }, 1, &res) == CORE_OK &&
	    PQntuples(res) == 1 &&
	    !core_cell_isnull(res, 0, HARVEST_HV_LAST_OK_DATE__SINCE) &&
	    harvest_date10(core_cell_text(res, 0,
			       HARVEST_HV_LAST_OK_DATE__SINCE),
		date) == 0)
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
	if (PQntuples(res) == 1 &&
	    core_cell_bool(res, 0, HARVEST_HV_CURSOR_GET__DONE, 1) == 0 &&
	    *core_cell_text(res, 0, HARVEST_HV_CURSOR_GET__CURSOR) != '\0' &&
	    (old = core_cell_json(res, 0, HARVEST_HV_CURSOR_GET__PARAMS,
		 NULL)) != NULL &&
	    json_equal(old, params)) {
		token = core_xstrdup(
		    core_cell_text(res, 0, HARVEST_HV_CURSOR_GET__CURSOR));
		r.records = (long)core_cell_bigint(res, 0,
		    HARVEST_HV_CURSOR_GET__RUN_RECORDS, 0);
		resumed = 1;
		core_log(CORE_LOG_INFO, "harvest.resume",
		    "arxiv oai: resuming "
		    "at resumptionToken %s after %ld records",
		    token, r.records);
		er = harvest_exec0(r.db, HARVEST_SQL_HV_CURSOR_RESUME,
		    (const char *const[]){ r.key }, 1);
	} else
		er = harvest_run_start(&r, ptext);
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
			core_log(CORE_LOG_WARN, "harvest.resume",
			    "arxiv oai: "
			    "stored token refused (%s); starting over",
			    why);
			free(token);
			token = NULL;
			resumed = 0;
			r.records = 0;
			if (harvest_run_start(&r, ptext) != CORE_OK)
				goto out;
			continue;
		}
		if (er != CORE_OK) {
			harvest_run_fail_parse(&r, er, why,
			    "nothing of it written");
			goto out;
		}
		if (pg.complete > 0)
			r.expect = pg.complete;
		if (write_batch(&r, pg.papers, pg.deleted, pg.token,
			pg.complete) != CORE_OK) {
			harvest_page_free(&pg);
			harvest_run_fail(&r,
			    "database write failed; batch rolled back");
			goto out;
		}
		harvest_run_progress(&r, 0);
		free(token);
		token = pg.token != NULL ? core_xstrdup(pg.token) : NULL;
		harvest_page_free(&pg);
		if (token == NULL)
			break;
	}
	if ((rc = harvest_run_done(&r)) != HARVEST_EXIT_OK)
		goto out;
	printf("arxiv oai: %ld records, %ld deleted, %ld requests, %ld "
	       "retries\n",
	    r.records, r.deleted, harvest_http_requests(r.http),
	    harvest_http_retries(r.http));
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
atom_batch(struct harvest_run *r, const char *url, const char *cursor,
    long *total, size_t *got)
{
	struct core_buf body = CORE_BUF_INIT;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN];
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
		harvest_run_fail_parse(r, er, why, "nothing of it written");
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
arxiv_ids(const struct core_conf *conf, void *args, int argc, char **argv)
{
	struct harvest_run r;
	struct core_arxiv_id id;
	struct core_buf url = CORE_BUF_INIT;
	size_t used, got, n, i, j;
	long total;
	int rc = HARVEST_EXIT_FAIL;

	(void)args;
	for (i = 0; i < (size_t)argc; i++)
		if (core_arxiv_parse(argv[i], strlen(argv[i]), &id, &used) !=
			CORE_OK ||
		    used != strlen(argv[i]))
			return harvest_bad_usage("not an arXiv id:", argv[i]);
	if (harvest_run_open(&r, conf, HARVEST_SRC_ARXIV, "arxiv-api",
		"arxiv ids") != CORE_OK ||
	    harvest_run_start(&r, "{\"mode\":\"ids\"}") != CORE_OK)
		goto out;
	r.expect = argc;
	for (i = 0; i < (size_t)argc; i += ATOM_BATCH) {
		n = (size_t)argc - i < ATOM_BATCH ? (size_t)argc - i
						  : ATOM_BATCH;
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
	if ((rc = harvest_run_done(&r)) != HARVEST_EXIT_OK)
		goto out;
	printf("arxiv ids: %ld of %d found\n", r.records, argc);
out:
	core_buf_free(&url);
	harvest_run_close(&r);
	return rc;
}

struct query_args {
	size_t max, page_size;
};

static int
arxiv_query(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct query_args *a = args;
	struct harvest_run r;
	struct core_buf url = CORE_BUF_INIT;
	const char *q = argv[0];
	long max = (long)a->max, size = (long)a->page_size, start, total = 0;
	size_t got;
	int rc = HARVEST_EXIT_FAIL;
	char next[24];

	(void)argc;
	if (max < 1 || size < 1 || size > 2000)
		return harvest_bad_usage("arxiv query QUERY [--max N] "
					 "[--page-size 1..2000]",
		    NULL);
	if (harvest_run_open(&r, conf, HARVEST_SRC_ARXIV, "arxiv-api",
		"arxiv query") != CORE_OK ||
	    harvest_run_start(&r, "{\"mode\":\"query\"}") != CORE_OK)
		goto out;
	r.expect = max;
	for (start = 0; start < max; start += size) {
		long n = max - start < size ? max - start : size;

		core_buf_reset(&url);
		core_buf_printf(&url,
		    "%s?search_query=", harvest_http_base(r.http));
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
	if ((rc = harvest_run_done(&r)) != HARVEST_EXIT_OK)
		goto out;
	printf("arxiv query: %ld records of %ld matching\n", r.records, total);
out:
	core_buf_free(&url);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* status                                                              */
/* ------------------------------------------------------------------ */

static int
status_cmd(const struct core_conf *conf, void *args)
{
	struct harvest_run r;
	PGresult *res = NULL;
	int i, rc = HARVEST_EXIT_FAIL;

	(void)args;
	if (harvest_run_open(&r, conf, (enum harvest_src) - 1, NULL,
		"status") != CORE_OK)
		goto out;
	if (core_db_exec(r.db, HARVEST_SQL_HV_STATUS, NULL, 0, &res) != CORE_OK)
		goto out;
	printf("%-10s %-8s %-19s %-19s %9s %9s %8s  %s\n", "source", "state",
	    "last run", "last ok", "run recs", "records", "requests",
	    "cursor / last error");
	for (i = 0; i < PQntuples(res); i++) {
		const char *err =
		    core_cell_str(res, i, HARVEST_HV_STATUS__LAST_ERROR);
		const char *cur =
		    core_cell_str(res, i, HARVEST_HV_STATUS__CURSOR);

		printf("%-10s %-8s %-19s %-19s %9s %9s %8s  %s%s%s\n",
		    core_cell_str(res, i, HARVEST_HV_STATUS__SOURCE),
		    *err ? "failed"
			: core_cell_bool(res, i, HARVEST_HV_STATUS__DONE, 0)
			? "done"
			: "partial",
		    core_cell_str(res, i, HARVEST_HV_STATUS__LAST_RUN),
		    core_cell_str(res, i, HARVEST_HV_STATUS__LAST_OK),
		    core_cell_str(res, i, HARVEST_HV_STATUS__RUN_RECORDS),
		    core_cell_str(res, i, HARVEST_HV_STATUS__RECORDS),
		    core_cell_str(res, i, HARVEST_HV_STATUS__REQUESTS),
		    *cur ? "cursor " : "", cur, err);
	}
	if (PQntuples(res) == 0)
		printf("(no harvest has run yet)\n");
	PQclear(res);
	res = NULL;
	if (core_db_exec(r.db, HARVEST_SQL_HV_COUNTS, NULL, 0, &res) == CORE_OK)
		printf("\npapers %s, authorships %s, researchers %s, "
		       "institutions %s, stale pages %s\n",
		    core_cell_str(res, 0, HARVEST_HV_COUNTS__PAPERS),
		    core_cell_str(res, 0, HARVEST_HV_COUNTS__AUTHORSHIPS),
		    core_cell_str(res, 0, HARVEST_HV_COUNTS__RESEARCHERS),
		    core_cell_str(res, 0, HARVEST_HV_COUNTS__INSTITUTIONS),
		    core_cell_str(res, 0, HARVEST_HV_COUNTS__STALE_PAGES));
	rc = HARVEST_EXIT_OK;
out:
	PQclear(res);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The descriptors (main.c lists them)                                 */
/* ------------------------------------------------------------------ */

#define ARXIV_NOTE                                                             \
	"\nWaits arxiv_delay ms (default 3000) between requests.  Exit\n"      \
	"status: 0 done, 1 failed (the message says why; batches before\n"     \
	"the failure are kept), 2 usage.\n"

static const char *const oai_prefixes[] = { "arXiv", "oai_dc", "arXivRaw",
	NULL };

static const struct core_opt oai_opts[] = {
	{ "--from", CORE_OPT_STR, offsetof(struct oai_args, from), "YYYY-MM-DD",
	    NULL,
	    "first datestamp (default: where the last "
	    "successful run ended)" },
	{ "--until", CORE_OPT_STR, offsetof(struct oai_args, until),
	    "YYYY-MM-DD", NULL, "last datestamp" },
	{ "--set", CORE_OPT_STR, offsetof(struct oai_args, set), "SET", NULL,
	    "an OAI set (cs, math, physics:hep-th, ...)" },
	{ "--prefix", CORE_OPT_STR, offsetof(struct oai_args, prefix), NULL,
	    oai_prefixes, "metadataPrefix (default arXiv)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct oai_args oai_init = { NULL, NULL, NULL, "arXiv" };

static const struct core_opt query_opts[] = {
	{ "--max", CORE_OPT_POS, offsetof(struct query_args, max), "N", NULL,
	    "papers at most (default 100)" },
	{ "--page-size", CORE_OPT_POS, offsetof(struct query_args, page_size),
	    "N", NULL, "papers a request, 1..2000 (default 100)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct query_args query_init = { 100, 100 };

const struct core_cmd harvest_cmds_arxiv[] = {
	{ .name = "arxiv oai",
	    .opts = oai_opts,
	    CORE_CMD_ARGS(oai_init),
	    .summary = "harvest arXiv by OAI-PMH",
	    .help =
		"OAI-PMH ListRecords from arxiv_oai_url, following "
		"resumptionToken;\n"
		"the position is stored after every page, so an interrupted "
		"run with\n"
		"the same options resumes there.  Without --from: from the "
		"last\n"
		"successful run's end.\n" ARXIV_NOTE,
	    .run_opts = arxiv_oai },
	{ .name = "arxiv ids",
	    .operands = "ID...",
	    .summary = "papers by arXiv id (Atom API)",
	    .help =
		"The Atom API (arxiv_api_url) by id_list, 100 ids a request;\n"
		"new-style, old-style and versioned ids.\n" ARXIV_NOTE,
	    .run = arxiv_ids },
	{ .name = "arxiv query",
	    .opts = query_opts,
	    CORE_CMD_ARGS(query_init),
	    .operands = "QUERY",
	    .summary = "papers matching an arXiv search_query (Atom API)",
	    .help = "The Atom API's search_query, paged by "
		    "start/max_results.\n" ARXIV_NOTE,
	    .run = arxiv_query },
	{ .name = NULL },
};

const struct core_cmd harvest_cmds_status[] = {
	{ .name = "status",
	    .summary = "each source's cursor, last run, errors, counts",
	    .help =
		"Each source's cursor, last run, last success, last error and "
		"counts.",
	    .run_opts = status_cmd },
	{ .name = NULL },
};
