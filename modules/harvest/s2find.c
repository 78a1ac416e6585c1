/*
 * s2find.c -- the harvesters "s2 search", "s2 bulk", "s2 recommend" and
 * "s2 similar": the papers Semantic Scholar finds for a query or for
 * seed papers (issue 16).  Each answer is a list of papers (s2.c parses
 * it); every paper of it is kept in s2_papers (0039) with its arXiv id
 * when it has one, and for the arXiv papers that are here, the citation
 * count (source s2, as "s2 papers" writes it) and the authors'
 * affiliation strings (authorship_affiliations, source s2) are written.
 *
 * A page is fetched and parsed before its transaction begins: a failed
 * request, an error answer or a malformed page writes nothing of it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

#define S2_SEARCH_PAGE 100  /* relevance search: results a page (max) */
#define S2_SEARCH_END  1000 /* it serves nothing past offset + limit 1000 */
#define S2_RECS_MAX    500  /* recommendations: results at most */
#define S2_SEEDS_MAX   100  /* seed papers of one recommend request */
#define S2_QUERY_MAX   1000 /* bytes of a query or a seed id */

/* What each harvester asks for: the fields s2.c reads. */
static const char s2_fields[] =
    "paperId,title,externalIds,citationCount,year,authors";

enum s2f_mode { S2F_SEARCH, S2F_BULK, S2F_RECOMMEND, S2F_SIMILAR, S2F__MAX };

/* s2_papers.found_by, and the run's label after "s2 ". */
static const char *const s2f_name[S2F__MAX] = { "search", "bulk", "recommend",
	"similar" };

static const enum harvest_s2_shape s2f_shape[S2F__MAX] = {
	[S2F_SEARCH] = HARVEST_S2_SEARCH,
	[S2F_BULK] = HARVEST_S2_BULK,
	[S2F_RECOMMEND] = HARVEST_S2_RECS,
	[S2F_SIMILAR] = HARVEST_S2_RECS,
};

struct s2f_args {
	int mode;
	size_t limit;
	const char *negative; /* recommend: ids, comma-separated */
	const char *pool;     /* similar: "recent" or "all-cs" */
};

/* One run. */
struct s2f {
	struct harvest_run r;
	int mode;
	char *query;   /* what s2_papers.query records */
	long gone;     /* null results: papers S2 no longer has */
	long on_arxiv; /* papers with an arXiv id */
	long here;     /* ... that are papers here */
};

/*
 * A seed paper as S2 takes it: an arXiv id becomes "ARXIV:id", anything
 * else (a paperId, "CorpusId:...", a DOI) passes as given.  NULL when it
 * is empty, too long or holds white space or control characters.
 * Caller frees.
 */
static char *
seed_id(const char *s)
{
	struct core_arxiv_id id;
	size_t used, i, n = strlen(s);

	if (n == 0 || n > 200)
		return NULL;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return NULL;
	if (core_arxiv_parse(s, n, &id, &used) == CORE_OK && used == n) {
		char *r = core_xcalloc(1, strlen(id.id) + 7);

		snprintf(r, strlen(id.id) + 7, "ARXIV:%s", id.id);
		return r;
	}
	return core_xstrdup(s);
}

/*
 * The base of the recommendations API: s2_url with its "/graph/v1"
 * replaced by "/recommendations/v1" (both hang off the same host), or
 * with "/recommendations/v1" appended.
 */
static void
recs_base(struct harvest_http *h, struct core_buf *b)
{
	const char *base = harvest_http_base(h);
	size_t n = strlen(base), g = strlen("/graph/v1");

	if (n >= g && strcmp(base + n - g, "/graph/v1") == 0)
		n -= g;
	core_buf_put(b, base, n);
	core_buf_puts(b, "/recommendations/v1");
}

/*
 * One request and its parse into *l.  On failure the cause is recorded
 * (harvest_run_fail): S2's own message when a 4xx carries its error
 * object ("Paper with id 0 not found"), else the transport's or the
 * parser's; *l then holds nothing.
 */
static enum core_err
s2f_get(struct s2f *f, const char *url, const char *post,
    struct harvest_s2_list *l)
{
	struct core_buf body = CORE_BUF_INIT;
	struct harvest_s2_list tmp;
	char why[HARVEST_WHY_LEN], msg[HARVEST_WHY_LEN + 256];
	long status = 0;
	enum core_err er;

	memset(l, 0, sizeof(*l));
	memset(&tmp, 0, sizeof(tmp));
	er = harvest_http_fetch(f->r.http, url, post, &body, &status);
	if (er != CORE_OK) {
		if (status >= 400 && status < 500 &&
		    harvest_s2_list_parse(body.ptr, body.len,
			s2f_shape[f->mode], &tmp, why) == CORE_EUPSTREAM)
			snprintf(msg, sizeof(msg),
			    "error response (HTTP %ld) from %s: %s; nothing "
			    "written of this page",
			    status, harvest_http_base(f->r.http), why);
		else
			snprintf(msg, sizeof(msg), "%s",
			    harvest_http_error(f->r.http));
		harvest_s2_list_free(&tmp);
		harvest_run_fail(&f->r, msg);
	} else if ((er = harvest_s2_list_parse(body.ptr, body.len,
			s2f_shape[f->mode], l, why)) != CORE_OK) {
		snprintf(msg, sizeof(msg),
		    "%s response from %s: %s; nothing written of this page",
		    er == CORE_EUPSTREAM ? "error" : "malformed",
		    harvest_http_base(f->r.http), why);
		harvest_run_fail(&f->r, msg);
	}
	core_buf_free(&body);
	return er;
}

/* The arXiv paper ax (here or not): its count and affiliations. */
static enum core_err
write_arxiv(struct s2f *f, const char *ax, const struct harvest_s2_paper *pp)
{
	const json_t *a, *s;
	char num[24], *key;
	size_t j, k;
	enum core_err er = CORE_OK;

	if (pp->citations >= 0) {
		snprintf(num, sizeof(num), "%ld", pp->citations);
		if ((er = harvest_exec0(f->r.db, HARVEST_SQL_HV_PAPER_CITATIONS,
			 (const char *const[]){ ax, num, "s2" }, 3)) != CORE_OK)
			return er;
	}
	/* Item 2: S2's affiliation strings on the authorship at the same
	 * position, when the family names agree (HV_S2_AFFIL). */
	json_array_foreach(pp->authors, j, a)
	{
		if (json_array_size(json_object_get(a, "affiliations")) == 0)
			continue;
		key = harvest_name_key(
		    json_string_value(json_object_get(a, "name")) != NULL
			? json_string_value(json_object_get(a, "name"))
			: "");
		snprintf(num, sizeof(num), "%zu", j + 1);
		json_array_foreach(json_object_get(a, "affiliations"), k, s)
		{
			if ((er = harvest_exec0(f->r.db,
				 HARVEST_SQL_HV_S2_AFFIL,
				 (const char *const[]){ ax, num,
				     json_string_value(s), key },
				 4)) != CORE_OK)
				break;
		}
		free(key);
		if (er != CORE_OK)
			break;
	}
	return er;
}

/*
 * Writes one parsed page in one transaction; cursor is where the next
 * page starts ("" for none).  CORE_OK, or the failure recorded.
 */
static enum core_err
s2f_page(struct s2f *f, const struct harvest_s2_list *l, const char *cursor)
{
	const struct harvest_s2_paper *pp;
	struct core_arxiv_id id;
	PGresult *res = NULL;
	char year[24], cites[24];
	const char *ax;
	size_t i, used;
	long n = 0;
	int here;
	enum core_err er;

	if ((er = core_db_cmd(f->r.db, "BEGIN")) != CORE_OK)
		goto fail;
	for (i = 0; i < l->n; i++) {
		pp = &l->v[i];
		if (pp->id == NULL) {
			f->gone++;
			continue;
		}
		f->r.seen++;
		ax = NULL;
		if (pp->arxiv != NULL &&
		    core_arxiv_parse(pp->arxiv, strlen(pp->arxiv), &id,
			&used) == CORE_OK &&
		    used == strlen(pp->arxiv))
			ax = id.id;
		else if (pp->arxiv != NULL)
			core_log(CORE_LOG_WARN, "harvest.s2",
			    "paper %s: externalIds.ArXiv %s is no arXiv id",
			    pp->id, pp->arxiv);
		snprintf(year, sizeof(year), "%ld", pp->year);
		snprintf(cites, sizeof(cites), "%ld", pp->citations);
		if ((er = core_db_exec(f->r.db, HARVEST_SQL_HV_S2_FOUND,
			 (const char *const[]){ pp->id, pp->title, ax,
			     pp->year >= 0 ? year : NULL,
			     pp->citations >= 0 ? cites : NULL,
			     s2f_name[f->mode], f->query },
			 7, &res)) != CORE_OK)
			goto rollback;
		n++;
		here = core_cell_bool(res, 0, HARVEST_HV_S2_FOUND__HERE, 0);
		PQclear(res);
		res = NULL;
		if (ax == NULL)
			continue;
		f->on_arxiv++;
		if (!here)
			continue;
		f->here++;
		if ((er = write_arxiv(f, ax, pp)) != CORE_OK)
			goto rollback;
	}
	if ((er = harvest_run_commit(&f->r, cursor, n, (long)l->gone,
		 l->total)) != CORE_OK)
		goto fail; /* rolled back */
	harvest_run_progress(&f->r, 0);
	return CORE_OK;
rollback:
	PQclear(res);
	core_db_cmd(f->r.db, "ROLLBACK");
fail:
	harvest_run_fail(&f->r, "database write failed; page rolled back");
	return er;
}

/* Search: pages of at most 100 by offset, while S2 names a next one. */
static int
run_search(struct s2f *f, const char *q, long limit)
{
	struct harvest_s2_list l;
	struct core_buf url = CORE_BUF_INIT;
	char next[24];
	long offset = 0, got = 0, per;
	int rc = -1;

	if (limit > S2_SEARCH_END)
		limit = S2_SEARCH_END;
	while (got < limit) {
		per =
		    limit - got < S2_SEARCH_PAGE ? limit - got : S2_SEARCH_PAGE;
		core_buf_reset(&url);
		core_buf_printf(&url,
		    "%s/paper/search?query=", harvest_http_base(f->r.http));
		core_url_encode(&url, q, 0);
		core_buf_printf(&url, "&fields=%s&offset=%ld&limit=%ld",
		    s2_fields, offset, per);
		if (s2f_get(f, core_buf_cstr(&url), NULL, &l) != CORE_OK)
			goto out;
		if (l.total >= 0)
			f->r.expect = l.total < limit ? l.total : limit;
		/* A next offset that does not move on ends the run. */
		if (l.next >= 0 && l.next <= offset)
			l.next = -1;
		snprintf(next, sizeof(next), "%ld", l.next);
		if (s2f_page(f, &l, l.next >= 0 ? next : "") != CORE_OK) {
			harvest_s2_list_free(&l);
			goto out;
		}
		got += (long)l.n;
		offset = l.next;
		harvest_s2_list_free(&l);
		if (offset < 0 || offset >= S2_SEARCH_END || got == 0)
			break;
	}
	rc = 0;
out:
	core_buf_free(&url);
	return rc;
}

/* Bulk search: pages of up to 1000, each naming the next by its token. */
static int
run_bulk(struct s2f *f, const char *q, long limit)
{
	struct harvest_s2_list l;
	struct core_buf url = CORE_BUF_INIT;
	char *token = NULL;
	long got = 0;
	int rc = -1;

	do {
		core_buf_reset(&url);
		core_buf_printf(&url, "%s/paper/search/bulk?query=",
		    harvest_http_base(f->r.http));
		core_url_encode(&url, q, 0);
		if (token != NULL) {
			core_buf_puts(&url, "&token=");
			core_url_encode(&url, token, 0);
		}
		core_buf_printf(&url, "&fields=%s", s2_fields);
		if (s2f_get(f, core_buf_cstr(&url), NULL, &l) != CORE_OK)
			goto out;
		if (l.total >= 0)
			f->r.expect = l.total < limit ? l.total : limit;
		if (s2f_page(f, &l, l.token != NULL ? l.token : "") !=
		    CORE_OK) {
			harvest_s2_list_free(&l);
			goto out;
		}
		got += (long)l.n;
		free(token);
		/* The same token again would loop for ever. */
		token = l.token != NULL && l.n > 0 ? l.token : NULL;
		if (token == l.token)
			l.token = NULL;
		harvest_s2_list_free(&l);
	} while (token != NULL && got < limit);
	rc = 0;
out:
	free(token);
	core_buf_free(&url);
	return rc;
}

/* Recommendations from seed lists (POST), or for one paper (GET). */
static int
run_recs(struct s2f *f, json_t *pos, json_t *neg, const char *pool, long limit)
{
	struct harvest_s2_list l;
	struct core_buf url = CORE_BUF_INIT;
	char *post = NULL;
	int rc = -1;

	if (limit > S2_RECS_MAX)
		limit = S2_RECS_MAX;
	recs_base(f->r.http, &url);
	if (f->mode == S2F_RECOMMEND) {
		json_t *o = json_pack("{s:O, s:O}", "positivePaperIds", pos,
		    "negativePaperIds", neg);

		post = harvest_jdump(o); /* built as JSON, never by hand */
		json_decref(o);
		core_buf_printf(&url, "/papers?fields=%s&limit=%ld", s2_fields,
		    limit);
	} else {
		core_buf_puts(&url, "/papers/forpaper/");
		/* A DOI's '/' stays: S2 reads the id from the rest of the path. */
		core_url_encode(&url, json_string_value(json_array_get(pos, 0)),
		    1);
		core_buf_printf(&url, "?fields=%s&limit=%ld&from=%s", s2_fields,
		    limit, pool);
	}
	f->r.expect = limit;
	if (s2f_get(f, core_buf_cstr(&url), post, &l) != CORE_OK)
		goto out;
	if (s2f_page(f, &l, "") == CORE_OK)
		rc = 0;
	harvest_s2_list_free(&l);
out:
	free(post);
	core_buf_free(&url);
	return rc;
}

/* The seed ids of argv (positives) or of a comma list into arr. */
static int
seeds(json_t *arr, char **v, int n, const char *list)
{
	char *copy = NULL, *tok, *save = NULL, *id;
	int i, rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		if ((id = seed_id(v[i])) == NULL)
			rc = harvest_bad_usage("not a paper id:", v[i]);
		else
			json_array_append_new(arr, core_json_str(id));
		free(id);
	}
	if (list != NULL && rc == 0) {
		copy = core_xstrdup(list);
		for (tok = strtok_r(copy, ",", &save); tok != NULL && rc == 0;
		     tok = strtok_r(NULL, ",", &save)) {
			if ((id = seed_id(tok)) == NULL)
				rc = harvest_bad_usage("not a paper id:", tok);
			else
				json_array_append_new(arr, core_json_str(id));
			free(id);
		}
		free(copy);
	}
	if (rc == 0 && json_array_size(arr) > S2_SEEDS_MAX)
		rc = harvest_bad_usage("more than 100 seed papers", NULL);
	return rc;
}

static int
s2f_cmd(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct s2f_args *a = args;
	struct s2f f;
	struct core_buf q = CORE_BUF_INIT;
	json_t *pos = json_array(), *neg = json_array(), *params = NULL;
	char label[32], *ptext = NULL;
	size_t i;
	int rc = HARVEST_EXIT_FAIL;

	memset(&f, 0, sizeof(f));
	f.mode = a->mode;
	if (f.mode == S2F_SEARCH || f.mode == S2F_BULK) {
		if (strlen(argv[0]) == 0 || strlen(argv[0]) > S2_QUERY_MAX ||
		    !core_utf8_valid(argv[0], strlen(argv[0]))) {
			rc = harvest_bad_usage("not a query:", argv[0]);
			goto early;
		}
		core_buf_puts(&q, argv[0]);
	} else {
		if ((rc = seeds(pos, argv, argc, NULL)) != 0 ||
		    (rc = seeds(neg, NULL, 0, a->negative)) != 0)
			goto early;
		rc = HARVEST_EXIT_FAIL;
		/* What s2_papers.query says: "+pos +pos -neg". */
		for (i = 0; i < json_array_size(pos); i++)
			core_buf_printf(&q, "%s+%s", i ? " " : "",
			    json_string_value(json_array_get(pos, i)));
		for (i = 0; i < json_array_size(neg); i++)
			core_buf_printf(&q, " -%s",
			    json_string_value(json_array_get(neg, i)));
	}
	f.query = core_xstrdup(core_buf_cstr(&q));
	snprintf(label, sizeof(label), "s2 %s", s2f_name[f.mode]);
	params =
	    json_pack("{s:s, s:s}", "mode", s2f_name[f.mode], "query", f.query);
	ptext = harvest_jdump(params);
	if (harvest_run_open(&f.r, conf, HARVEST_SRC_S2, "s2", label) !=
		CORE_OK ||
	    harvest_run_start(&f.r, ptext) != CORE_OK)
		goto out;
	switch (f.mode) {
	case S2F_SEARCH:
		if (run_search(&f, f.query, (long)a->limit) != 0)
			goto out;
		break;
	case S2F_BULK:
		if (run_bulk(&f, f.query, (long)a->limit) != 0)
			goto out;
		break;
	default:
		if (run_recs(&f, pos, neg, a->pool, (long)a->limit) != 0)
			goto out;
		break;
	}
	if (harvest_run_judge(&f.r, "no paper in the answer") != 0)
		goto out;
	rc = harvest_run_done(&f.r);
	printf("%s: %ld papers (%ld with an arXiv id, %ld of them here), "
	       "%ld deleted, %ld requests, %ld retries\n",
	    label, f.r.records, f.on_arxiv, f.here, f.gone,
	    harvest_http_requests(f.r.http), harvest_http_retries(f.r.http));
out:
	harvest_run_close(&f.r);
early:
	free(f.query);
	free(ptext);
	json_decref(params);
	json_decref(pos);
	json_decref(neg);
	core_buf_free(&q);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The descriptors (main.c lists them)                                 */
/* ------------------------------------------------------------------ */

static const struct core_opt search_opts[] = {
	{ "--limit", CORE_OPT_POS, offsetof(struct s2f_args, limit), "N", NULL,
	    "papers at most (search: default 100, at most 1000; bulk: "
	    "default 10000, whole pages)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const char *const pools[] = { "recent", "all-cs", NULL };

/* The recommendations' --limit (the API's cap is 500). */
#define RECS_LIMIT                                                             \
	{                                                                      \
		"--limit", CORE_OPT_POS, offsetof(struct s2f_args, limit),     \
		    "N", NULL, "papers at most (default 100, at most 500)"     \
	}

static const struct core_opt recommend_opts[] = {
	RECS_LIMIT,
	{ "--negative", CORE_OPT_STR, offsetof(struct s2f_args, negative),
	    "IDS", NULL, "papers unlike the ones wanted, comma-separated" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct core_opt similar_opts[] = {
	RECS_LIMIT,
	{ "--pool", CORE_OPT_STR, offsetof(struct s2f_args, pool), "POOL",
	    pools, "where to look: recent (default) or all-cs" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct s2f_args search_init = { S2F_SEARCH, 100, NULL, NULL };
static const struct s2f_args bulk_init = { S2F_BULK, 10000, NULL, NULL };
static const struct s2f_args recommend_init = { S2F_RECOMMEND, 100, NULL,
	NULL };
static const struct s2f_args similar_init = { S2F_SIMILAR, 100, NULL,
	"recent" };

#define S2F_HELP_TAIL                                                          \
	"Every paper of the answer is kept in s2_papers (S2 id, title, "       \
	"arXiv id,\nyear, citation count, how it was found); for those "       \
	"that are arXiv\npapers here, the citation count (source s2, unless "  \
	"another source owns\nit) and the authors' affiliation strings.  A "   \
	"null result (a paper S2\nno longer has) is counted, never written.  " \
	"An error answer, an author\nlist or anything malformed fails the "    \
	"run with the cause, and writes\nnothing of that page.  Keys: "        \
	"s2_url, s2_delay, s2_api_key.\n"

static const char help_search[] =
    "Semantic Scholar relevance search (GET s2_url/paper/search), page by\n"
    "page (100 a page) while the answer names a next offset, up to "
    "--limit.\n" S2F_HELP_TAIL;

static const char help_bulk[] =
    "Semantic Scholar bulk search (GET s2_url/paper/search/bulk), up to "
    "1000\npapers a page, following each page's token to the next until "
    "it is null\nor --limit is reached.\n" S2F_HELP_TAIL;

static const char help_recommend[] =
    "Semantic Scholar recommendations from lists of papers (POST\n"
    "/recommendations/v1/papers beside s2_url's /graph/v1): the papers "
    "like\nthe IDs given and unlike --negative.  An ID is an arXiv id "
    "(sent as\nARXIV:id), an S2 paper id, CorpusId:N or a "
    "DOI.\n" S2F_HELP_TAIL;

static const char help_similar[] =
    "Semantic Scholar recommendations for one paper (GET\n"
    "/recommendations/v1/papers/forpaper/ID beside s2_url's /graph/v1), "
    "from\nthe --pool of recent papers or of all computer science.  ID "
    "as for\ns2 recommend.\n" S2F_HELP_TAIL;

/* A row of the table: the four share their struct and their function. */
#define S2F_CMD(nm, ops, max, o, init, sum, hlp)                               \
	{                                                                      \
		.name = nm, .operands = ops, .max_args = max, .opts = o,       \
		CORE_CMD_ARGS(init), .summary = sum, .help = hlp,              \
		.run = s2f_cmd                                                 \
	}

const struct core_cmd harvest_cmds_s2find[] = {
	S2F_CMD("s2 search", "QUERY", 0, search_opts, search_init,
	    "papers Semantic Scholar's relevance search finds", help_search),
	S2F_CMD("s2 bulk", "QUERY", 0, search_opts, bulk_init,
	    "papers Semantic Scholar's bulk search finds", help_bulk),
	S2F_CMD("s2 recommend", "ID...", S2_SEEDS_MAX, recommend_opts,
	    recommend_init,
	    "papers Semantic Scholar recommends from seed papers",
	    help_recommend),
	S2F_CMD("s2 similar", "ID", 0, similar_opts, similar_init,
	    "papers Semantic Scholar recommends for one paper", help_similar),
	{ .name = NULL },
};
