/*
 * enrich.c -- the harvesters "openalex", "s2 papers", "s2 authors" and
 * "ror": what other sources know about the papers, researchers and
 * institutions arXiv gave us.  Each is one descriptor (struct core_cmd)
 * at the end of the file; what runs share is in run.c.
 *
 * Network first, then one transaction: a page of works and the authors
 * it names are fetched before BEGIN, so no transaction waits on a remote
 * server and a failed request writes nothing of its batch.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

#define OA_PER_PAGE 50  /* OpenAlex: results a page, ids a filter */
#define S2_BATCH    500 /* S2: ids a batch request (its maximum) */
/* A ROR file: its size (compressed and not), a record, a read. */
#define ROR_MAX_BYTES  (4LL << 30)
#define ROR_MAX_RECORD (8u << 20)
#define ROR_CHUNK      (1 << 20)
/* More records skipped than this share fails the run. */
#define ROR_MAX_SKIP_PCT 5

/* ------------------------------------------------------------------ */
/* openalex                                                            */
/* ------------------------------------------------------------------ */

/* The last word of a name's key ("ada lovelace" -> "lovelace"). */
static char *
last_word(const char *name)
{
	char *k = harvest_name_key(name), *sp, *r;

	sp = strrchr(k, ' ');
	r = core_xstrdup(sp != NULL ? sp + 1 : k);
	free(k);
	return r;
}

/* GET one OpenAlex list of kind ('W', 'A'); CORE_OK with *l filled. */
static enum core_err
oa_get(struct harvest_run *r, const char *url, char kind,
    struct harvest_oa_list *l)
{
	struct core_buf body = CORE_BUF_INIT;
	char why[HARVEST_WHY_LEN];
	long status;
	enum core_err er;

	if ((er = harvest_http_fetch(r->http, url, NULL, &body, &status)) !=
	    CORE_OK)
		harvest_run_fail(r, harvest_http_error(r->http));
	else if ((er = harvest_oa_parse(body.ptr, body.len, 0, l, why)) !=
		CORE_OK ||
	    (harvest_oa_check_kind(l, kind, why) != 0 &&
		(er = CORE_EINPUT) != CORE_OK)) {
		harvest_oa_list_free(l);
		harvest_run_fail_parse(r, er, why,
		    "nothing of this batch written");
	}
	core_buf_free(&body);
	return er;
}

/*
 * Stages the OpenAlex authors of l (the loader's conversion).  Issue 16:
 * a "Deleted Author" placeholder, or a record under another id than the
 * ones asked for (OpenAlex answers a merged id with the profile it was
 * merged into, or with the placeholder), is no researcher of this
 * answer: it is logged and counted in *gone, never staged.
 */
static void
stage_authors(struct harvest_run *r, const struct harvest_oa_list *l,
    const json_t *asked, long *gone)
{
	struct harvest_author a;
	const struct harvest_affil *f;
	const json_t *v;
	const char *why;
	char seq[24], fy[16], ly[16];
	size_t i, j;

	r->seen += (long)json_array_size(l->results);
	json_array_foreach(l->results, i, v)
	{
		memset(&a, 0, sizeof(a));
		if (harvest_oa_author_parse(v, &a, &why) != CORE_OK) {
			harvest_run_skip(r, why);
			harvest_author_free(&a);
			continue;
		}
		if (a.deleted ||
		    json_object_get(asked, a.openalex_id) == NULL) {
			core_log(CORE_LOG_WARN, "harvest.openalex",
			    "author %s not a researcher: %s", a.openalex_id,
			    a.deleted ? why : "merged (not an id asked for)");
			(*gone)++;
			harvest_author_free(&a);
			continue;
		}
		snprintf(seq, sizeof(seq), "%ld", ++r->seq);
		harvest_copy_row(&r->st_a,
		    (const char *const[]){ seq, a.openalex_id, a.name,
			a.name_key, a.slug, a.orcid, a.h_index, a.citations,
			a.works_count },
		    9);
		for (j = 0; j < a.naffils; j++) {
			f = &a.affils[j];
			snprintf(fy, sizeof(fy), "%d", f->first_year);
			snprintf(ly, sizeof(ly), "%d", f->last_year);
			harvest_copy_row(&r->st_b,
			    (const char *const[]){ a.openalex_id, f->ror_id,
				f->openalex_id, f->name, f->slug,
				f->country_code, f->type,
				f->last_known ? "t" : "f",
				f->first_year ? fy : NULL,
				f->last_year ? ly : NULL },
			    10);
		}
		harvest_author_free(&a);
	}
}

/*
 * Issue 16: each institution of an OpenAlex authorship links its author
 * to it with the paper's year (not only the author's last-known ones).
 */
static enum core_err
link_institutions(struct harvest_run *r, const char *arxiv, const char *aid,
    const json_t *authorship)
{
	const json_t *in;
	char *ror, *oa;
	size_t i;
	enum core_err er = CORE_OK;

	json_array_foreach(json_object_get(authorship, "institutions"), i, in)
	{
		ror = harvest_oa_ror(in);
		oa = harvest_oa_inst_id(in);
		if (ror != NULL || oa != NULL)
			er = harvest_exec0(r->db,
			    HARVEST_SQL_HV_LINK_INSTITUTION,
			    (const char *const[]){ arxiv, aid, ror, oa }, 4);
		free(ror);
		free(oa);
		if (er != CORE_OK)
			break;
	}
	return er;
}

/* Links the work's authorships to researchers, by position and name. */
static enum core_err
link_work(struct harvest_run *r, const char *arxiv, const json_t *work)
{
	const json_t *ash = json_object_get(work, "authorships"), *a;
	PGresult *res = NULL;
	const char *aid, *dn, *raw;
	char pos[24], *w1, *w2;
	size_t i;
	int row;
	enum core_err er;

	if ((er = core_db_exec(r->db, HARVEST_SQL_HV_PAPER_AUTHORS,
		 (const char *const[]){ arxiv }, 1, &res)) != CORE_OK)
		return er;
	json_array_foreach(ash, i, a)
	{
		aid = harvest_oa_short(json_string_value(
		    json_object_get(json_object_get(a, "author"), "id")));
		dn = json_string_value(
		    json_object_get(json_object_get(a, "author"),
			"display_name"));
		if (aid == NULL || dn == NULL)
			continue;
		for (row = 0; row < PQntuples(res); row++)
			if ((size_t)core_cell_bigint(res, row,
				HARVEST_HV_PAPER_AUTHORS__POSITION, 0) == i + 1)
				break;
		if (row == PQntuples(res))
			continue;
		raw = core_cell_text(res, row,
		    HARVEST_HV_PAPER_AUTHORS__RAW_NAME);
		w1 = last_word(raw != NULL ? raw : "");
		w2 = last_word(dn);
		if (*w1 != '\0' && strcmp(w1, w2) == 0) {
			snprintf(pos, sizeof(pos), "%zu", i + 1);
			er = harvest_exec0(r->db, HARVEST_SQL_HV_LINK_AUTHOR,
			    (const char *const[]){ arxiv, pos, aid,
				"openalex" },
			    4);
			if (er == CORE_OK)
				er = link_institutions(r, arxiv, aid, a);
		}
		free(w1);
		free(w2);
		if (er != CORE_OK)
			break;
	}
	PQclear(res);
	return er;
}

/*
 * The citation count of each arXiv paper a page of works names (issue
 * 16): the works that carry it are its DataCite stub (DOI 10.48550/
 * arxiv.ID, often 0 citations) and the works hosted on arXiv (a location
 * at arxiv.org, e.g. its journal version, which OpenAlex counts the
 * citations of).  The richest of them wins.  Into counts: id -> count.
 */
static void
page_counts(const json_t *works, json_t *counts)
{
	const json_t *w, *c, *had;
	char ax[48];
	size_t i;

	json_array_foreach(works, i, w)
	{
		c = json_object_get(w, "cited_by_count");
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) > 2000000000)
			continue;
		if (harvest_oa_work_arxiv(w, ax) != 0 &&
		    harvest_oa_work_arxiv_loc(w, ax) != 0)
			continue;
		had = json_object_get(counts, ax);
		if (had == NULL ||
		    json_integer_value(c) > json_integer_value(had))
			json_object_set_new(counts, ax,
			    json_integer(json_integer_value(c)));
	}
}

/*
 * The OpenAlex authors whose ids ids holds ("A1|A2|..."), fetched in one
 * request and staged; ids is emptied.
 */
static enum core_err
oa_authors(struct harvest_run *r, struct core_buf *ids, json_t *seen,
    long *gone)
{
	struct harvest_oa_list al;
	struct core_buf url = CORE_BUF_INIT;
	enum core_err er;

	core_buf_printf(&url, "%s/authors?filter=ids.openalex:%s&per-page=%d",
	    harvest_http_base(r->http), core_buf_cstr(ids), OA_PER_PAGE);
	core_buf_reset(ids);
	er = oa_get(r, core_buf_cstr(&url), 'A', &al);
	core_buf_free(&url);
	if (er != CORE_OK)
		return er;
	stage_authors(r, &al, seen, gone);
	harvest_oa_list_free(&al);
	return CORE_OK;
}

/*
 * One page of works: fetch its authors, then write it all at once.  A
 * failure is recorded where it happens (harvest_run_fail): a malformed
 * answer by oa_get(), a database error here, so `status` shows the real
 * cause.
 */
static enum core_err
oa_page(struct harvest_run *r, const struct harvest_oa_list *works,
    const char *cursor, json_t *best, long *gone)
{
	struct core_buf ids = CORE_BUF_INIT;
	json_t *seen = json_object(), *counts = json_object(), *w, *a, *c;
	char ax[48], cnt[24];
	const char *aid, *key;
	size_t i, j, nid = 0;
	long n = 0;
	enum core_err er = CORE_OK;

	core_buf_reset(&r->st_a);
	core_buf_reset(&r->st_b);
	r->seen += (long)json_array_size(works->results);
	/* The authors of works that are arXiv papers, 50 ids a request. */
	json_array_foreach(works->results, i, w)
	{
		if (harvest_oa_work_arxiv(w, ax) != 0)
			continue;
		json_array_foreach(json_object_get(w, "authorships"), j, a)
		{
			aid = harvest_oa_short(json_string_value(
			    json_object_get(json_object_get(a, "author"),
				"id")));
			if (aid == NULL || json_object_get(seen, aid) != NULL)
				continue;
			json_object_set_new(seen, aid, json_true());
			core_buf_printf(&ids, "%s%s", ids.len ? "|" : "", aid);
			if ((++nid % OA_PER_PAGE == 0 ||
				json_object_size(seen) >= 5000) &&
			    (er = oa_authors(r, &ids, seen, gone)) != CORE_OK)
				goto out;
		}
	}
	if (ids.len > 0 && (er = oa_authors(r, &ids, seen, gone)) != CORE_OK)
		goto out;

	if ((er = core_db_cmd(r->db, "BEGIN")) != CORE_OK)
		goto out;
	if (r->st_a.len > 0 &&
	    ((er = harvest_copy_in(r->db, HARVEST_SQL_COPY_OA_AUTHORS,
		  &r->st_a)) != CORE_OK ||
		(r->st_b.len > 0 &&
		    (er = harvest_copy_in(r->db, HARVEST_SQL_COPY_OA_AFFILS,
			 &r->st_b)) != CORE_OK) ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_MERGE_OA_AUTHORS].sql)) !=
		    CORE_OK ||
		(er = core_db_cmd(r->db,
		     harvest_sql[HARVEST_SQL_MERGE_OA_AFFILS].sql)) != CORE_OK))
		goto rollback;
	page_counts(works->results, counts);
	json_object_foreach(counts, key, c)
	{
		const json_t *had = json_object_get(best, key);

		if (had != NULL &&
		    json_integer_value(had) >= json_integer_value(c))
			continue;
		json_object_set(best, key, c);
		snprintf(cnt, sizeof(cnt), "%lld",
		    (long long)json_integer_value(c));
		if ((er = harvest_exec0(r->db, HARVEST_SQL_HV_PAPER_CITATIONS,
			 (const char *const[]){ key, cnt, "openalex" }, 3)) !=
		    CORE_OK)
			goto rollback;
	}
	json_array_foreach(works->results, i, w)
	{
		if (harvest_oa_work_arxiv(w, ax) != 0)
			continue;
		if ((er = link_work(r, ax, w)) != CORE_OK)
			goto rollback;
		n++;
	}
	if ((er = harvest_exec0(r->db, HARVEST_SQL_AFFIL_COUNTS, NULL, 0)) !=
	    CORE_OK)
		goto rollback;
	if ((er = harvest_run_commit(r, cursor, n, 0, works->count)) !=
	    CORE_OK) {
		harvest_run_fail(r, "database write failed; batch rolled back");
		goto out;
	}
	harvest_run_progress(r, 0);
	goto out;
rollback:
	core_db_cmd(r->db, "ROLLBACK");
	harvest_run_fail(r, "database write failed; batch rolled back");
out:
	json_decref(seen);
	json_decref(counts);
	core_buf_free(&ids);
	return er;
}

static const char oa_select[] =
    "id,doi,ids,cited_by_count,authorships,primary_location,locations";

struct openalex_args {
	const char *filter;
	size_t limit;
};

static int
openalex_cmd(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct openalex_args *a = args;
	struct harvest_run r;
	struct harvest_oa_list l;
	struct core_buf url = CORE_BUF_INIT, f = CORE_BUF_INIT;
	const char *filter = a->filter;
	json_t *best = json_object(); /* arXiv id -> count written */
	PGresult *res = NULL;
	char lim[24], *cursor = NULL;
	long limit = (long)a->limit, gone = 0;
	int i, row, rc = HARVEST_EXIT_FAIL;

	/* "works" is all OpenAlex gives us for now. */
	if (argc == 1 && strcmp(argv[0], "works") != 0)
		return harvest_bad_usage("unexpected", argv[0]);
	if (harvest_run_open(&r, conf, HARVEST_SRC_OPENALEX, "openalex",
		"openalex") != CORE_OK ||
	    harvest_run_start(&r, "{\"mode\":\"works\"}") != CORE_OK)
		goto out;
	if (filter != NULL) {
		/* A filter's pages by cursor, until next_cursor is null. */
		cursor = core_xstrdup("*");
		while (cursor != NULL) {
			core_buf_reset(&url);
			core_buf_printf(&url,
			    "%s/works?filter=", harvest_http_base(r.http));
			core_url_encode(&url, filter, 0);
			core_buf_printf(&url,
			    "&select=%s&per-page=%d&cursor=", oa_select,
			    OA_PER_PAGE);
			core_url_encode(&url, cursor, 0);
			if (oa_get(&r, core_buf_cstr(&url), 'W', &l) != CORE_OK)
				goto out;
			if (l.count >= 0)
				r.expect = l.count;
			if (oa_page(&r, &l, l.next_cursor, best, &gone) !=
			    CORE_OK) {
				harvest_oa_list_free(&l);
				goto out;
			}
			free(cursor);
			cursor = l.next_cursor != NULL &&
				json_array_size(l.results) > 0
			    ? core_xstrdup(l.next_cursor)
			    : NULL;
			harvest_oa_list_free(&l);
		}
	} else {
		/* Our papers, 50 DOIs a request (one page each). */
		snprintf(lim, sizeof(lim), "%ld", limit);
		if (core_db_exec(r.db, HARVEST_SQL_HV_PAPERS_TO_ENRICH,
			(const char *const[]){ "openalex", lim }, 2,
			&res) != CORE_OK)
			goto out;
		r.expect = PQntuples(res);
		for (row = 0; row < PQntuples(res); row += OA_PER_PAGE) {
			core_buf_reset(&f);
			for (i = row;
			     i < PQntuples(res) && i < row + OA_PER_PAGE; i++)
				core_buf_printf(&f, "%s10.48550/arxiv.%s",
				    i > row ? "|" : "",
				    core_cell_text(res, i,
					HARVEST_HV_PAPERS_TO_ENRICH__ARXIV_ID));
			core_buf_reset(&url);
			core_buf_printf(&url,
			    "%s/works?filter=doi:", harvest_http_base(r.http));
			core_url_encode(&url, core_buf_cstr(&f), 1);
			core_buf_printf(&url, "&select=%s&per-page=%d",
			    oa_select, OA_PER_PAGE);
			if (oa_get(&r, core_buf_cstr(&url), 'W', &l) != CORE_OK)
				goto out;
			if (oa_page(&r, &l, "", best, &gone) != CORE_OK) {
				harvest_oa_list_free(&l);
				goto out;
			}
			harvest_oa_list_free(&l);
		}
	}
	if (harvest_run_judge(&r, "no work has an arXiv DOI") != 0)
		goto out;
	rc = harvest_run_done(&r);
	printf("openalex: %ld works with an arXiv DOI, %ld requests, %ld "
	       "retries\n",
	    r.records, harvest_http_requests(r.http),
	    harvest_http_retries(r.http));
	if (gone > 0)
		printf("openalex: %ld deleted or merged author records, not "
		       "made researchers\n",
		    gone);
out:
	PQclear(res);
	free(cursor);
	core_buf_free(&url);
	core_buf_free(&f);
	json_decref(best);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* s2                                                                  */
/* ------------------------------------------------------------------ */

/* The options; authors (papers when 0) comes from the descriptor. */
struct s2_args {
	size_t limit;
	int authors;
};

static int
s2_cmd(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct s2_args *opt = args;
	int authors = opt->authors;
	struct harvest_run r;
	struct harvest_s2_batch b;
	struct core_buf url = CORE_BUF_INIT, body = CORE_BUF_INIT;
	struct core_buf post = CORE_BUF_INIT;
	struct core_arxiv_id id, got;
	json_t *ids = json_array(), *jid;
	PGresult *res = NULL;
	char why[HARVEST_WHY_LEN], lim[24];
	char c1[24], c2[24], c3[24], *arr;
	long limit = (long)opt->limit, status, n;
	size_t i, k, used, cnt;
	int m, rc = HARVEST_EXIT_FAIL;
	enum core_err er;

	for (m = 0; m < argc; m++) {
		if (!authors &&
		    (core_arxiv_parse(argv[m], strlen(argv[m]), &id, &used) !=
			    CORE_OK ||
			used != strlen(argv[m]))) {
			json_decref(ids);
			return harvest_bad_usage("not an arXiv id:", argv[m]);
		}
		json_array_append_new(ids,
		    json_string(authors ? argv[m] : id.id));
	}
	if (harvest_run_open(&r, conf, HARVEST_SRC_S2, "s2",
		authors ? "s2 authors" : "s2 papers") != CORE_OK ||
	    harvest_run_start(&r,
		authors ? "{\"mode\":\"authors\"}" : "{\"mode\":\"papers\"}") !=
		CORE_OK)
		goto out;
	if (json_array_size(ids) == 0) {
		snprintf(lim, sizeof(lim), "%ld", limit);
		if ((authors ? core_db_exec(r.db, HARVEST_SQL_HV_S2_AUTHOR_IDS,
				   (const char *const[]){ lim }, 1, &res)
			     : core_db_exec(r.db,
				   HARVEST_SQL_HV_PAPERS_TO_ENRICH,
				   (const char *const[]){ "s2", lim }, 2,
				   &res)) != CORE_OK)
			goto out;
		for (m = 0; m < PQntuples(res); m++)
			json_array_append_new(ids,
			    core_cell_jtext(res, m,
				authors
				    ? HARVEST_HV_S2_AUTHOR_IDS__S2_ID
				    : HARVEST_HV_PAPERS_TO_ENRICH__ARXIV_ID));
		PQclear(res);
		res = NULL;
	}
	r.expect = (long)json_array_size(ids);
	for (i = 0; i < json_array_size(ids); i += S2_BATCH) {
		cnt = json_array_size(ids) - i < S2_BATCH
		    ? json_array_size(ids) - i
		    : S2_BATCH;
		/* The body is built as JSON, never printed by hand. */
		{
			json_t *o = json_object(), *a = json_array();

			for (k = 0; k < cnt; k++) {
				jid = json_array_get(ids, i + k);
				json_array_append_new(a,
				    authors ? json_incref(jid)
					    : json_sprintf("ARXIV:%s",
						  json_string_value(jid)));
			}
			json_object_set_new(o, "ids", a);
			arr = harvest_jdump(o);
			json_decref(o);
			core_buf_reset(&post);
			core_buf_puts(&post, arr);
			free(arr);
		}
		core_buf_reset(&url);
		core_buf_printf(&url, "%s/%s/batch?fields=%s",
		    harvest_http_base(r.http), authors ? "author" : "paper",
		    authors ? "authorId,name,hIndex,citationCount,paperCount"
			    : "paperId,externalIds,citationCount");
		if (harvest_http_fetch(r.http, core_buf_cstr(&url),
			core_buf_cstr(&post), &body, &status) != CORE_OK) {
			harvest_run_fail(&r, harvest_http_error(r.http));
			goto out;
		}
		if ((er = harvest_s2_parse(body.ptr, body.len, cnt, authors, &b,
			 why)) != CORE_OK) {
			harvest_run_fail_parse(&r, er, why,
			    "nothing of this batch written");
			goto out;
		}
		if (core_db_cmd(r.db, "BEGIN") != CORE_OK) {
			harvest_s2_batch_free(&b);
			goto out;
		}
		n = 0;
		er = CORE_OK;
		for (k = 0; k < cnt && er == CORE_OK; k++) {
			const char *want =
			    json_string_value(json_array_get(ids, i + k));

			if (!b.v[k].found)
				continue;
			r.seen++;
			if (authors) {
				snprintf(c1, sizeof(c1), "%ld", b.v[k].h_index);
				snprintf(c2, sizeof(c2), "%ld",
				    b.v[k].citations);
				snprintf(c3, sizeof(c3), "%ld",
				    b.v[k].paper_count);
				er = harvest_exec0(r.db,
				    HARVEST_SQL_HV_S2_RESEARCHER,
				    (const char *const[]){ want,
					b.v[k].h_index >= 0 ? c1 : NULL,
					b.v[k].citations >= 0 ? c2 : NULL,
					b.v[k].paper_count >= 0 ? c3 : NULL },
				    4);
				n++;
				continue;
			}
			/* Position decides, but a stated arXiv id must agree. */
			if (b.v[k].arxiv != NULL &&
			    (core_arxiv_parse(b.v[k].arxiv,
				 strlen(b.v[k].arxiv), &got,
				 &used) != CORE_OK ||
				strcmp(got.id, want) != 0)) {
				snprintf(why, sizeof(why),
				    "the result for %s names %s", want,
				    b.v[k].arxiv);
				harvest_run_skip(&r, why);
				continue;
			}
			if (b.v[k].citations < 0) {
				snprintf(why, sizeof(why),
				    "the result for %s has no citationCount",
				    want);
				harvest_run_skip(&r, why);
				continue;
			}
			snprintf(c1, sizeof(c1), "%ld", b.v[k].citations);
			er = harvest_exec0(r.db, HARVEST_SQL_HV_PAPER_CITATIONS,
			    (const char *const[]){ want, c1, "s2" }, 3);
			n++;
		}
		harvest_s2_batch_free(&b);
		if (er != CORE_OK ||
		    harvest_run_commit(&r, "", n, 0, r.expect) != CORE_OK) {
			if (er != CORE_OK)
				core_db_cmd(r.db, "ROLLBACK");
			harvest_run_fail(&r,
			    "database write failed; batch "
			    "rolled back");
			goto out;
		}
		harvest_run_progress(&r, 0);
	}
	if (harvest_run_judge(&r, "nothing to write") != 0)
		goto out;
	rc = harvest_run_done(&r);
	printf("s2 %s: %ld found of %zu, %ld requests, %ld retries\n",
	    authors ? "authors" : "papers", r.records, json_array_size(ids),
	    harvest_http_requests(r.http), harvest_http_retries(r.http));
out:
	PQclear(res);
	json_decref(ids);
	core_buf_free(&url);
	core_buf_free(&body);
	core_buf_free(&post);
	harvest_run_close(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* ror                                                                 */
/* ------------------------------------------------------------------ */

static enum core_err
ror_flush(struct harvest_run *r, long n)
{
	enum core_err er;

	if (n == 0)
		return CORE_OK;
	if ((er = core_db_cmd(r->db, "BEGIN")) != CORE_OK)
		return er;
	if ((er = harvest_copy_in(r->db, HARVEST_SQL_COPY_INSTITUTIONS,
		 &r->st_a)) != CORE_OK ||
	    (er = core_db_cmd(r->db, harvest_sql[HARVEST_SQL_MERGE_ROR].sql)) !=
		CORE_OK ||
	    (er = harvest_run_commit(r, "", n, 0, -1)) != CORE_OK) {
		core_db_cmd(r->db, "ROLLBACK");
		return er;
	}
	core_buf_reset(&r->st_a);
	harvest_run_progress(r, 0);
	return CORE_OK;
}

/*
 * One ROR file as ROR publishes it: the data dump (one JSON array of v2
 * records), a single record (the API's /organizations/ID), the API's
 * search answer ({"items": [...]}) or JSON lines; gzip or not.  The
 * whole file is read and checked before anything is written, then
 * written in one transaction: a truncated dump, a dump of the wrong
 * kind or in the wrong encoding writes nothing.
 */
struct ror_load {
	struct harvest_run *r;
	long seen, n, skipped;
	char first_skip[HARVEST_WHY_LEN];
	char fatal[HARVEST_WHY_LEN];
};

static void
ror_one(struct ror_load *l, const json_t *o)
{
	struct harvest_inst in;
	const char *why;
	char seq[24];

	l->seen++;
	memset(&in, 0, sizeof(in));
	if (harvest_ror_parse(o, &in, &why) != CORE_OK) {
		core_log(CORE_LOG_WARN, "harvest.ror", "record %ld skipped: %s",
		    l->seen, why);
		if (l->skipped++ == 0)
			snprintf(l->first_skip, sizeof(l->first_skip),
			    "record %ld: %s", l->seen, why);
		return;
	}
	snprintf(seq, sizeof(seq), "%ld", l->seen);
	harvest_copy_row(&l->r->st_a,
	    (const char *const[]){ seq, in.ror_id, in.openalex_id, in.name,
		in.slug, in.aliases, in.country_code, in.country_name, in.type,
		in.status, in.website, in.established, in.relationships },
	    13);
	l->n++;
	harvest_inst_free(&in);
}

/* harvest_jseq_push()'s callback: one top-level object of the file. */
static int
ror_rec(void *arg, const char *s, size_t len)
{
	struct ror_load *l = arg;
	json_error_t je;
	json_t *o, *v, *it;
	size_t i;

	if (!core_utf8_valid(s, len)) {
		snprintf(l->fatal, sizeof(l->fatal),
		    "not UTF-8 (record %ld): ROR dumps are UTF-8", l->seen + 1);
		return -1;
	}
	if ((o = json_loadb(s, len, JSON_REJECT_DUPLICATES, &je)) == NULL) {
		l->seen++;
		core_log(CORE_LOG_WARN, "harvest.ror",
		    "record %ld skipped: bad JSON: %s", l->seen, je.text);
		if (l->skipped++ == 0)
			snprintf(l->first_skip, sizeof(l->first_skip),
			    "record %ld: bad JSON: %s", l->seen, je.text);
		return 0;
	}
	if (json_object_get(o, "meta") != NULL &&
	    json_object_get(o, "results") != NULL) {
		snprintf(l->fatal, sizeof(l->fatal),
		    "an OpenAlex list, not a ROR dump");
		json_decref(o);
		return -1;
	}
	if (json_object_get(o, "id") == NULL &&
	    json_is_array(v = json_object_get(o, "items"))) {
		/* The API's search answer: a page of records. */
		json_array_foreach(v, i, it) ror_one(l, it);
	} else
		ror_one(l, o);
	json_decref(o);
	return 0;
}

static int
ror_cmd(const struct core_conf *conf, void *args, int argc, char **argv)
{
	struct harvest_run r;
	struct harvest_jseq j;
	struct ror_load l;
	struct stat st;
	gzFile gz = NULL;
	char *chunk = NULL, why[HARVEST_JSEQ_WHY], msg[HARVEST_WHY_LEN + 128];
	const char *zmsg;
	long long total = 0;
	int got, zerr, rc = HARVEST_EXIT_FAIL;

	(void)args;
	(void)argc;
	memset(&l, 0, sizeof(l));
	l.r = &r;
	harvest_jseq_open(&j, ROR_MAX_RECORD);
	if (harvest_run_open(&r, conf, (enum harvest_src) - 1, "ror", "ror") !=
		CORE_OK ||
	    harvest_run_start(&r, "{\"mode\":\"file\"}") != CORE_OK)
		goto out;
	if (stat(argv[0], &st) != 0 || !S_ISREG(st.st_mode) ||
	    (gz = gzopen(argv[0], "rb")) == NULL) {
		snprintf(msg, sizeof(msg), "cannot read %s: %s", argv[0],
		    errno != 0 ? strerror(errno) : "not a file");
		harvest_run_fail(&r, msg);
		goto out;
	}
	if ((long long)st.st_size > ROR_MAX_BYTES) {
		snprintf(msg, sizeof(msg),
		    "%s is %lld MB, more than the %lld MB a ROR dump may be",
		    argv[0], (long long)st.st_size >> 20, ROR_MAX_BYTES >> 20);
		harvest_run_fail(&r, msg);
		goto out;
	}
	chunk = core_xcalloc(1, ROR_CHUNK);
	while ((got = gzread(gz, chunk, ROR_CHUNK)) > 0) {
		if ((total += got) > ROR_MAX_BYTES) {
			snprintf(msg, sizeof(msg),
			    "more than %lld MB uncompressed; nothing written",
			    ROR_MAX_BYTES >> 20);
			harvest_run_fail(&r, msg);
			goto out;
		}
		if (harvest_jseq_push(&j, chunk, (size_t)got, ror_rec, &l,
			why) != 0) {
			snprintf(msg, sizeof(msg), "%s; nothing written",
			    l.fatal[0] != '\0' ? l.fatal : why);
			harvest_run_fail(&r, msg);
			goto out;
		}
	}
	/* A gzip stream cut short reads as a short file: ask zlib. */
	zmsg = gzerror(gz, &zerr);
	if (got < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
		snprintf(msg, sizeof(msg),
		    "cannot read %s: %s; nothing written", argv[0],
		    zerr == Z_ERRNO ? strerror(errno)
			: zerr == Z_BUF_ERROR
			? "truncated (unexpected end of the gzip stream)"
			: zmsg);
		harvest_run_fail(&r, msg);
		goto out;
	}
	if (harvest_jseq_end(&j, why) != 0) {
		snprintf(msg, sizeof(msg), "%s; nothing written", why);
		harvest_run_fail(&r, msg);
		goto out;
	}
	if (l.n == 0) {
		snprintf(msg, sizeof(msg),
		    "no ROR record in %ld records (%s); nothing written",
		    l.seen, l.skipped ? l.first_skip : "the file is empty");
		harvest_run_fail(&r, msg);
		goto out;
	}
	if (l.skipped * 100 > l.seen * ROR_MAX_SKIP_PCT) {
		snprintf(msg, sizeof(msg),
		    "%ld of %ld records skipped, more than %d%% (first: %s); "
		    "nothing written",
		    l.skipped, l.seen, ROR_MAX_SKIP_PCT, l.first_skip);
		harvest_run_fail(&r, msg);
		goto out;
	}
	if (ror_flush(&r, l.n) != CORE_OK) {
		harvest_run_fail(&r, "database write failed; rolled back");
		goto out;
	}
	rc = harvest_run_done(&r);
	printf("ror: %ld institutions, %ld records skipped\n", r.records,
	    l.skipped);
out:
	if (gz != NULL)
		gzclose(gz);
	free(chunk);
	harvest_jseq_close(&j);
	harvest_run_close(&r);
	return rc;
}
/* ------------------------------------------------------------------ */
/* The descriptors (main.c lists them)                                 */
/* ------------------------------------------------------------------ */

static const struct core_opt openalex_opts[] = {
	{ "--filter", CORE_OPT_STR, offsetof(struct openalex_args, filter),
	    "FILTER", NULL, "an OpenAlex filter: every page of it, by cursor" },
	{ "--limit", CORE_OPT_POS, offsetof(struct openalex_args, limit), "N",
	    NULL, "papers at most without --filter (default 1000)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct openalex_args openalex_init = { NULL, 1000 };

static const struct core_opt s2_opts[] = {
	{ "--limit", CORE_OPT_POS, offsetof(struct s2_args, limit), "N", NULL,
	    "without ids: how many at most (default 1000)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct s2_args s2_papers_init = { 1000, 0 };
static const struct s2_args s2_authors_init = { 1000, 1 };

#define S2_HELP                                                                \
	"Semantic Scholar Graph API (s2_url) batch lookups: papers by\n"       \
	"ARXIV:{id} (citation counts, for papers without an OpenAlex "         \
	"count),\nauthors by S2 id (hIndex, citationCount, paperCount, "       \
	"for researchers\nwithout OpenAlex metrics).  Without ids: papers "    \
	"lacking a count /\nresearchers with an S2 id, up to --limit "         \
	"(default 1000), 500 a\nrequest.  Keys: s2_delay (ms, default "        \
	"1000), s2_api_key.\n"

/* s2 papers and s2 authors: one struct, options, help and function. */
#define S2_CMD(nm, ops, init, sum)                                             \
	{                                                                      \
		.name = nm, .operands = ops, .opts = s2_opts,                  \
		CORE_CMD_ARGS(init), .summary = sum, .help = S2_HELP,          \
		.run = s2_cmd                                                  \
	}

const struct core_cmd harvest_cmds_enrich[] = {
	{ .name = "openalex",
	    .operands = "[works]",
	    .opts = openalex_opts,
	    CORE_CMD_ARGS(openalex_init),
	    .summary = "enrich papers and researchers from OpenAlex",
	    .help =
		"Enriches papers from OpenAlex (openalex_url): each work with "
		"an arXiv\n"
		"DOI (10.48550/arXiv.ID) gives its paper's citation count, "
		"and its\n"
		"authors (OpenAlex id, ORCID, h-index, citations, works "
		"count, last\n"
		"known institutions) become researchers linked to the "
		"authorships at\n"
		"the same position with a compatible name.  Without --filter: "
		"the\n"
		"papers lacking an OpenAlex count, newest first (--limit, "
		"default\n"
		"1000), 50 DOIs a request.  With --filter (an OpenAlex "
		"filter, e.g.\n"
		"author.id:A5023888391): every page of it, by cursor.\n"
		"Keys: openalex_delay (ms, default 100), harvest_contact "
		"(mailto),\n"
		"openalex_api_key.\n",
	    .run = openalex_cmd },
	S2_CMD("s2 papers", "[ID...]", s2_papers_init,
	    "citation counts from Semantic Scholar"),
	S2_CMD("s2 authors", "[S2ID...]", s2_authors_init,
	    "researcher metrics from Semantic Scholar"),
	{ .name = NULL },
};

const struct core_cmd harvest_cmds_ror[] = {
	{ .name = "ror",
	    .operands = "FILE",
	    .summary = "load institutions from a ROR v2 dump",
	    .help =
		"Loads institutions (with status and relationships) from a "
		"ROR v2 file,\n"
		"gzip or plain: the data dump (one JSON array of records), "
		"one record,\n"
		"the API's search answer, or JSON lines.  The whole file is "
		"checked,\n"
		"then written in one transaction.  A malformed record is "
		"reported and\n"
		"skipped; more than 5% skipped, no record at all, a truncated "
		"file, one\n"
		"not in UTF-8 or over 4 GB fails the run and writes nothing.\n",
	    .run = ror_cmd },
	{ .name = NULL },
};
