/*
 * search.c -- /search: papers by full text, researchers and institutions
 * by name (?q=&type=&category=&paper_type=&from=&to=&researcher=
 * &institution=&sort=&page=).  The handler validates every parameter (a clear 400,
 * never a 5xx), asks search_store.c, and builds one view model:
 *
 *   {"type":"search","url":…,"query":…,"search_type":…,"sort":…,
 *    "filters":{…},"total":N,"total_capped":bool,"page":N,"results":[…],
 *    "pagination":{…},"facets":[…],"paper_type_facets":[…],
 *    "researchers":{…},"institutions":{…}}
 *
 * An empty q is the search page with suggestions.  A page beyond the
 * last is a 404 that names the last page, as in the directories.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "search/search.h"
#include "vindex.h"

/* People and places shown with papers when no type is asked for. */
#define TOP_FEW 5
/* Vector candidates of a hybrid or semantic search. */
#define NEAR_MAX 200

const char *const pages_search_types[PAGES_SEARCH_TYPE__MAX] = {
	"",
	"papers",
	"researchers",
	"institutions",
};
const char *const pages_search_sorts[PAGES_SEARCH_SORT__MAX] = {
	"relevance",
	"newest",
	"citations",
};

/* ---------------------------------------------------------------- parsing */

static int
digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

int
pages_search_date(const char *s, int upper, char out[11])
{
	size_t n = s != NULL ? strlen(s) : 0;
	int y, m, d;

	if (n == 4 && digits(s, 4)) {
		if (atoi(s) < 1)
			return -1;
		memcpy(out, s, 4);
		memcpy(out + 4, upper ? "-12-31" : "-01-01", 7);
		return 0;
	}
	if (n != 10 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) ||
	    s[7] != '-' || !digits(s + 8, 2))
		return -1;
	y = atoi(s);
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1 || !core_date_is_day(y, m, d))
		return -1;
	memcpy(out, s, 10);
	out[10] = '\0';
	return 0;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

/* 1 when s[0..n) is the word "or", any case. */
static int
is_or(const char *s, size_t n)
{
	return n == 2 && (s[0] == 'o' || s[0] == 'O') &&
	    (s[1] == 'r' || s[1] == 'R');
}

/* Appends s[0..n) to b after a space, without '"'; nothing when empty. */
static void
add_word(struct core_buf *b, const char *s, size_t n)
{
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++)
		if (s[i] != '"' && !is_space(s[i]))
			any = 1;
	if (!any)
		return;
	if (b->len > 0)
		core_buf_putc(b, ' ');
	for (i = 0; i < n; i++)
		if (s[i] != '"')
			core_buf_putc(b, is_space(s[i]) ? ' ' : s[i]);
}

/* Appends item to neg, joined with " or ". */
static void
add_neg(struct core_buf *neg, const char *s, size_t n, int phrase)
{
	if (neg->len > 0)
		core_buf_puts(neg, " or ");
	if (phrase)
		core_buf_putc(neg, '"');
	core_buf_put(neg, s, n);
	if (phrase)
		core_buf_putc(neg, '"');
}

void
pages_search_words(const char *q, struct core_buf *pos, struct core_buf *neg)
{
	const char *p = q, *s;
	int negate;

	while (*p != '\0') {
		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		negate = 0;
		if (*p == '-') {
			negate = 1;
			while (*p == '-')
				p++;
		}
		if (*p == '"') {
			/* A phrase runs to the next quote or the end. */
			s = ++p;
			while (*p != '\0' && *p != '"')
				p++;
			if (negate) {
				/* No quotes inside: the phrase ends at one. */
				if (p > s)
					add_neg(neg, s, (size_t)(p - s), 1);
			} else
				add_word(pos, s, (size_t)(p - s));
			if (*p == '"')
				p++;
			continue;
		}
		s = p;
		while (*p != '\0' && !is_space(*p) && *p != '"')
			p++;
		if (p == s)
			continue;
		/* "or" between words is websearch's operator, not a word. */
		if (!negate && is_or(s, (size_t)(p - s)))
			continue;
		if (negate)
			add_neg(neg, s, (size_t)(p - s), 0);
		else
			add_word(pos, s, (size_t)(p - s));
	}
}

void
pages_search_or(const char *words, struct core_buf *out)
{
	const char *p = words, *s;
	size_t n;
	int first = 1;

	while ((s = pages_search_word(&p, &n)) != NULL) {
		if (!first)
			core_buf_puts(out, " or ");
		core_buf_put(out, s, n);
		first = 0;
	}
}

int
pages_search_is_question(const char *q)
{
	const char *p = q;
	int words = 0;

	if (q == NULL)
		return 0;
	while (*p != '\0' && words <= PAGES_SEARCH_QUESTION_WORDS) {
		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		words++;
		while (*p != '\0' && !is_space(*p))
			p++;
	}
	return words > PAGES_SEARCH_QUESTION_WORDS;
}

void
pages_search_plain(const char *q, struct core_buf *out)
{
	const char *p = q, *s;
	int quoted = 0;

	if (q == NULL)
		return;
	while (is_space(*p))
		core_buf_putc(out, *p++);
	while (*p != '\0') {
		s = p;
		while (*p != '\0' && !is_space(*p))
			if (*p++ == '"')
				quoted = !quoted;
		if (quoted || !is_or(s, (size_t)(p - s))) {
			while (is_space(*p))
				p++;
			core_buf_put(out, s, (size_t)(p - s));
		} else
			while (is_space(*p))
				p++;
	}
}

/* U+E000 and U+E001 in UTF-8. */
#define MARK_ON  "\xee\x80\x80"
#define MARK_OFF "\xee\x80\x81"

static void
segment(json_t *arr, const char *s, size_t n, int match)
{
	json_t *o;
	char *t;

	if (n == 0)
		return;
	t = core_xstrndup(s, n);
	o = json_pack("{s:o}", "text", core_json_str(t));
	if (match)
		json_object_set_new(o, "match", json_true());
	json_array_append_new(arr, o);
	free(t);
}

json_t *
pages_search_marks(const char *s)
{
	json_t *arr = json_array();
	struct core_buf cur = CORE_BUF_INIT;
	int in = 0;

	if (s == NULL)
		return arr;
	while (*s != '\0') {
		int on = strncmp(s, MARK_ON, 3) == 0;
		int off = !on && strncmp(s, MARK_OFF, 3) == 0;

		if ((on && !in) || (off && in)) {
			segment(arr, cur.ptr, cur.len, in);
			core_buf_reset(&cur);
			in = on;
		}
		if (on || off) {
			s += 3; /* a stray marker is dropped */
			continue;
		}
		core_buf_putc(&cur, *s++);
	}
	segment(arr, cur.ptr, cur.len, in);
	core_buf_free(&cur);
	return arr;
}

/* ---------------------------------------------------------------- params */

struct params {
	const char *q; /* trimmed, owned by qbuf */
	char *qbuf;
	enum pages_search_type type;
	enum pages_search_sort sort;
	enum pages_search_mode mode; /* asked for */
	struct pages_search_filter f;
	const char *from_raw, *to_raw;
	long page;
};

static int
lookup(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* An id filter: "123" or "123-some-slug"; 0 and *id, or -1. */
static int
id_param(const char *s, long long *id)
{
	return pages_parse_id(s, strcspn(s, "-"), id);
}

/* Reads and checks every parameter: CORE_EFAIL (a 400) on bad input. */
static enum core_err
read_params(struct core_req *req, struct params *pp)
{
	const char *s;
	size_t n;
	int i;

	memset(pp, 0, sizeof(*pp));
	s = core_req_param(req, "q");
	if (s == NULL)
		s = "";
	if (strlen(s) > PAGES_SEARCH_QMAX)
		return core_req_fail(req, 400,
		    "q is too long: at most 512 bytes, please");
	while (is_space(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_space(s[n - 1]))
		n--;
	pp->qbuf = core_xstrndup(s, n);
	pp->q = pp->qbuf;

	if ((s = core_req_param(req, "type")) != NULL && *s != '\0') {
		if ((i = lookup(s, pages_search_types,
			 PAGES_SEARCH_TYPE__MAX)) <= 0)
			return core_req_fail(req, 400,
			    "type must be papers, researchers or institutions");
		pp->type = (enum pages_search_type)i;
	}
	if ((s = core_req_param(req, "sort")) != NULL && *s != '\0') {
		if ((i = lookup(s, pages_search_sorts,
			 PAGES_SEARCH_SORT__MAX)) < 0)
			return core_req_fail(req, 400,
			    "sort must be relevance, newest or citations");
		pp->sort = (enum pages_search_sort)i;
	}
	if (pages_search_mode_parse(core_req_param(req, "mode"), &pp->mode) !=
	    0)
		return core_req_fail(req, 400,
		    "mode must be hybrid, lexical or semantic");
	if ((s = core_req_param(req, "category")) != NULL && *s != '\0') {
		if (!pages_category_ok(s))
			return core_req_fail(req, 400,
			    "category must be an arXiv category code such as "
			    "cs.SE (letters, digits, '.', '-'; at most 32 "
			    "characters)");
		pp->f.category = s;
	}
	if ((s = core_req_param(req, "paper_type")) != NULL && *s != '\0') {
		for (i = 0; core_paper_types[i] != NULL; i++)
			if (strcmp(s, core_paper_types[i]) == 0)
				break;
		if (core_paper_types[i] == NULL)
			return core_req_fail(req, 400,
			    "paper_type must be empirical, method, system, "
			    "benchmark, survey, theory or position");
		pp->f.paper_type = core_paper_types[i];
	}
	if ((s = core_req_param(req, "from")) != NULL && *s != '\0') {
		if (pages_search_date(s, 0, pp->f.from) != 0)
			return core_req_fail(req, 400,
			    "from must be a date, YYYY-MM-DD or YYYY");
		pp->from_raw = s;
	}
	if ((s = core_req_param(req, "to")) != NULL && *s != '\0') {
		if (pages_search_date(s, 1, pp->f.to) != 0)
			return core_req_fail(req, 400,
			    "to must be a date, YYYY-MM-DD or YYYY");
		pp->to_raw = s;
	}
	if (pp->f.from[0] != '\0' && pp->f.to[0] != '\0' &&
	    strcmp(pp->f.from, pp->f.to) > 0)
		return core_req_fail(req, 400, "from is after to");
	if ((s = core_req_param(req, "researcher")) != NULL && *s != '\0' &&
	    id_param(s, &pp->f.researcher) != 0)
		return core_req_fail(req, 400,
		    "researcher must be a researcher id, such as 123");
	if ((s = core_req_param(req, "institution")) != NULL && *s != '\0' &&
	    id_param(s, &pp->f.institution) != 0)
		return core_req_fail(req, 400,
		    "institution must be an institution id, such as 123");
	return pages_page_param(req, &pp->page);
}

/* ---------------------------------------------------------------- model */

static void
param(struct core_buf *b, const char *key, const char *val)
{
	if (val == NULL || *val == '\0')
		return;
	core_buf_putc(b, b->len == 0 ? '?' : '&');
	core_buf_puts(b, key);
	core_buf_putc(b, '=');
	core_url_encode(b, val, 0);
}

/*
 * "/search?q=…&type=…&…" in one fixed order, without page.  type and
 * sort are overridable (for the tabs and sort links); with no_cat the
 * category is left out (the facets' "all" link).  Caller frees.
 */
static char *
search_path(const struct params *pp, enum pages_search_type type,
    enum pages_search_sort sort, const char *category)
{
	struct core_buf b = CORE_BUF_INIT;
	char id[24];
	char *out;

	param(&b, "q", pp->q);
	param(&b, "type", pages_search_types[type]);
	param(&b, "category", category);
	param(&b, "paper_type", pp->f.paper_type);
	param(&b, "from", pp->from_raw);
	param(&b, "to", pp->to_raw);
	if (pp->f.researcher > 0) {
		snprintf(id, sizeof(id), "%lld", pp->f.researcher);
		param(&b, "researcher", id);
	}
	if (pp->f.institution > 0) {
		snprintf(id, sizeof(id), "%lld", pp->f.institution);
		param(&b, "institution", id);
	}
	if (sort != PAGES_SEARCH_RELEVANCE)
		param(&b, "sort", pages_search_sorts[sort]);
	if (pp->mode != PAGES_SEARCH_HYBRID)
		param(&b, "mode", pages_search_modes[pp->mode]);
	out = core_xasprintf("/search%s", core_buf_cstr(&b));
	core_buf_free(&b);
	return out;
}

static json_t *
filters_model(const struct params *pp)
{
	json_t *o = json_object();

	json_object_set_new(o, "category", core_json_str(pp->f.category));
	json_object_set_new(o, "paper_type", core_json_str(pp->f.paper_type));
	json_object_set_new(o, "from",
	    pp->f.from[0] ? json_string(pp->f.from) : json_null());
	json_object_set_new(o, "to",
	    pp->f.to[0] ? json_string(pp->f.to) : json_null());
	json_object_set_new(o, "researcher",
	    pp->f.researcher > 0 ? json_integer(pp->f.researcher)
				 : json_null());
	json_object_set_new(o, "institution",
	    pp->f.institution > 0 ? json_integer(pp->f.institution)
				  : json_null());
	return o;
}

/*
 * The page's feed ("feed", its RSS path; the other formats differ in
 * the extension): a search of papers has its own, /rss/search.xml with
 * the same parameters; a category without a query has the category's.
 */
static void
feed_model(json_t *m, const struct params *pp)
{
	char *sp;

	if (*pp->q != '\0' && pp->type != PAGES_SEARCH_RESEARCHERS &&
	    pp->type != PAGES_SEARCH_INSTITUTIONS) {
		sp = search_path(pp, pp->type, pp->sort, pp->f.category);
		json_object_set_new(m, "feed",
		    json_sprintf("/rss/search.xml%s", sp + strlen("/search")));
		free(sp);
	} else if (*pp->q == '\0' && pp->f.category != NULL)
		json_object_set_new(m, "feed",
		    json_sprintf("/rss/categories/%s.xml", pp->f.category));
}

/* Links for the type tabs and the sort choices. */
static void
nav_links(json_t *m, const char *base, const struct params *pp)
{
	json_t *tabs = json_object(), *sorts = json_object();
	json_t *modes = json_object();
	int i;

	for (i = 0; i < PAGES_SEARCH_TYPE__MAX; i++)
		json_object_set_new(tabs,
		    i == 0 ? "all" : pages_search_types[i],
		    pages_json_abs_free(base,
			search_path(pp, (enum pages_search_type)i,
			    PAGES_SEARCH_RELEVANCE,
			    i <= PAGES_SEARCH_PAPERS ? pp->f.category : NULL)));
	for (i = 0; i < PAGES_SEARCH_SORT__MAX; i++)
		json_object_set_new(sorts, pages_search_sorts[i],
		    pages_json_abs_free(base,
			search_path(pp, pp->type, (enum pages_search_sort)i,
			    pp->f.category)));
	for (i = 0; i < PAGES_SEARCH_MODE__MAX; i++) {
		struct params alt = *pp;

		alt.mode = (enum pages_search_mode)i;
		json_object_set_new(modes, pages_search_modes[i],
		    pages_json_abs_free(base,
			search_path(&alt, pp->type, pp->sort, pp->f.category)));
	}
	json_object_set_new(m, "type_urls", tabs);
	json_object_set_new(m, "sort_urls", sorts);
	json_object_set_new(m, "mode_urls", modes);
	json_object_set_new(m, "unfiltered_url",
	    pages_json_abs_free(base,
		search_path(pp, pp->type, pp->sort, NULL)));
}

/* Facet urls: the current search with category=c. */
static void
facet_urls(json_t *facets, const char *base, const struct params *pp)
{
	json_t *f;
	size_t i;

	json_array_foreach(facets, i, f)
	{
		const char *c = pages_str(f, "category");

		json_object_set_new(f, "url",
		    pages_json_abs_free(base,
			search_path(pp, pp->type, pp->sort, c)));
		json_object_set_new(f, "current",
		    json_boolean(c != NULL && pp->f.category != NULL &&
			strcmp(c, pp->f.category) == 0));
	}
}

/*
 * Paper type facet urls: the current search with paper_type=t, and
 * "paper_type_unfiltered_url", the search without a paper_type.
 */
static void
type_facet_urls(json_t *m, json_t *tfacets, const char *base,
    const struct params *pp)
{
	struct params alt = *pp;
	json_t *f;
	size_t i;

	json_array_foreach(tfacets, i, f)
	{
		alt.f.paper_type = pages_str(f, "paper_type");
		json_object_set_new(f, "url",
		    pages_json_abs_free(base,
			search_path(&alt, pp->type, pp->sort, pp->f.category)));
		json_object_set_new(f, "current",
		    json_boolean(pp->f.paper_type != NULL &&
			alt.f.paper_type != NULL &&
			strcmp(alt.f.paper_type, pp->f.paper_type) == 0));
	}
	alt.f.paper_type = NULL;
	json_object_set_new(m, "paper_type_unfiltered_url",
	    pages_json_abs_free(base,
		search_path(&alt, pp->type, pp->sort, pp->f.category)));
}

/* Example searches for the empty search page. */
static json_t *
suggestions(const char *base)
{
	static const char *const ex[] = {
		"large language models for code",
		"program repair",
		"distributed consensus",
		"\"graph neural network\"",
		"federated learning -survey",
	};
	json_t *arr = json_array();
	struct core_buf b = CORE_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		core_buf_reset(&b);
		core_buf_puts(&b, "/search?q=");
		core_url_encode(&b, ex[i], 0);
		json_array_append_new(arr,
		    json_pack("{s:s,s:o}", "query", ex[i], "url",
			pages_json_abs(base, core_buf_cstr(&b))));
	}
	core_buf_free(&b);
	return arr;
}

/*
 * The vector side of a hybrid or semantic search: the query's vector and
 * its NEAR_MAX nearest papers into sq.  Without an index, or when no
 * word of the query is known to it, the search falls back to lexical
 * and the model says so ("notice").
 */
static void
semantic(struct pages_search_q *sq, struct vec_query *vq, struct vec_hit *near,
    json_t *m)
{
	const struct vec_index *idx = pages_vectors();
	const char *notice = NULL;

	if (idx == NULL)
		notice = "Semantic search is not available right now: these "
			 "are full-text results.";
	else if (*sq->pos == '\0' || vec_embed(idx, sq->pos, vq) != CORE_OK)
		notice = "None of the words of this query is known to the "
			 "semantic index: these are full-text results.";
	else if (vec_search(idx, vq, NEAR_MAX, -1, near, &sq->nnear) != CORE_OK)
		notice = "Semantic search failed for this query: these are "
			 "full-text results.";
	if (notice != NULL) {
		sq->mode = PAGES_SEARCH_LEXICAL;
		sq->nnear = 0;
		json_object_set_new(m, "notice", json_string(notice));
		return;
	}
	sq->idx = idx;
	sq->vq = vq;
	sq->near = near;
}

/* The store's query for page of pp's search, words split in pos/neg. */
static void
search_q(struct pages_search_q *sq, const struct params *pp,
    struct core_buf *pos, struct core_buf *neg, long page)
{
	memset(sq, 0, sizeof(*sq));
	sq->q = pp->q;
	sq->pos = core_buf_cstr(pos);
	sq->neg = core_buf_cstr(neg);
	sq->sort = pp->sort;
	sq->f = &pp->f;
	sq->page = page;
}

/* The papers part: results, total, facets, pagination. */
static enum core_err
papers(struct core_req *req, const struct params *pp, json_t *m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf pos = CORE_BUF_INIT, neg = CORE_BUF_INIT;
	struct pages_search_q sq;
	struct vec_query vq;
	struct vec_hit near[NEAR_MAX];
	json_t *items = NULL, *facets = NULL, *tfacets = NULL;
	long long total = 0;
	int capped = 0;
	char *lp = NULL;
	enum core_err er;

	pages_search_words(pp->q, &pos, &neg);
	search_q(&sq, pp, &pos, &neg, pp->page);
	/* Browse (no query) lists by date or citations: words only. */
	sq.mode = *pp->q == '\0' ? PAGES_SEARCH_LEXICAL : pp->mode;
	if (sq.mode != PAGES_SEARCH_LEXICAL)
		semantic(&sq, &vq, near, m);
	if ((er = pages_search_store_papers(ctx->db, ctx->base_url, &sq, &items,
		 &total, &capped, &facets, &tfacets)) != CORE_OK)
		goto out;
	if ((er = pages_beyond_last(req, pp->page, total)) != CORE_OK)
		goto out;
	facet_urls(facets, ctx->base_url, pp);
	type_facet_urls(m, tfacets, ctx->base_url, pp);
	lp = search_path(pp, pp->type, pp->sort, pp->f.category);
	json_object_set_new(m, "mode",
	    json_string(pages_search_modes[sq.mode]));
	json_object_set_new(m, "total", json_integer(total));
	json_object_set_new(m, "total_capped", json_boolean(capped));
	json_object_set_new(m, "results", items);
	json_object_set_new(m, "facets", facets);
	json_object_set_new(m, "paper_type_facets", tfacets);
	json_object_set_new(m, "pagination",
	    pages_pagination(ctx->base_url, lp, pp->page, total));
	items = facets = tfacets = NULL;
out:
	free(lp);
	json_decref(items);
	json_decref(facets);
	json_decref(tfacets);
	core_buf_free(&pos);
	core_buf_free(&neg);
	return er;
}

/* Researchers or institutions (type=): a page of the result. */
static enum core_err
names(struct core_req *req, const struct params *pp, json_t *m,
    enum pages_search_type type)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *items = NULL;
	long long total = 0;
	char *lp = NULL;
	enum core_err er;

	if ((er = pages_search_store_names(ctx->db, ctx->base_url, type, pp->q,
		 PAGES_PER_PAGE, (long long)(pp->page - 1) * PAGES_PER_PAGE,
		 &items, &total)) != CORE_OK)
		return er;
	if (json_array_size(items) == 0 && pp->page > 1) {
		/* Beyond the last: the total comes from page 1. */
		json_decref(items);
		items = NULL;
		if ((er = pages_search_store_names(ctx->db, ctx->base_url, type,
			 pp->q, 1, 0, &items, &total)) != CORE_OK)
			return er;
	}
	if ((er = pages_beyond_last(req, pp->page, total)) != CORE_OK) {
		json_decref(items);
		return er;
	}
	lp = search_path(pp, type, PAGES_SEARCH_RELEVANCE, NULL);
	json_object_set_new(m, "total", json_integer(total));
	json_object_set_new(m, "total_capped", json_false());
	json_object_set_new(m, "results", items);
	json_object_set_new(m, "pagination",
	    pages_pagination(ctx->base_url, lp, pp->page, total));
	free(lp);
	return CORE_OK;
}

/* One block of the page with no type: the close matches' total (an
 * estimate when estimated), the top few and the link to the type's own
 * (looser) search. */
static json_t *
few_block(const char *base, const struct params *pp,
    enum pages_search_type type, json_t *items, long long total, int estimated)
{
	return json_pack("{s:I,s:b,s:o,s:b,s:o}", "total", (json_int_t)total,
	    "total_estimated", estimated, "items", items, "close_only", 1,
	    "url",
	    pages_json_abs_free(base,
		search_path(pp, type, PAGES_SEARCH_RELEVANCE, NULL)));
}

/* With no type: the top few researchers and institutions, one statement. */
static enum core_err
few(struct core_req *req, const struct params *pp, json_t *m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *r = NULL, *i = NULL;
	long long rt = 0, it = 0;
	int rest = 0;
	enum core_err er;

	/* A question's trigrams cost in proportion to its length (24 ms on
	 * average, up to 78 ms for a sentence over 416,106 names), and no
	 * name is nearly a word of it. */
	if (pages_search_is_question(pp->q)) {
		r = json_array();
		i = json_array();
	} else if ((er = pages_search_store_few(ctx->db, ctx->base_url, pp->q,
			TOP_FEW, &r, &rt, &rest, &i, &it)) != CORE_OK)
		return er;
	json_object_set_new(m, pages_search_types[PAGES_SEARCH_RESEARCHERS],
	    few_block(ctx->base_url, pp, PAGES_SEARCH_RESEARCHERS, r, rt,
		rest));
	json_object_set_new(m, pages_search_types[PAGES_SEARCH_INSTITUTIONS],
	    few_block(ctx->base_url, pp, PAGES_SEARCH_INSTITUTIONS, i, it, 0));
	return CORE_OK;
}

/* Researchers named exactly as the query: listed first in every
 * representation ("exact_researchers"). */
static enum core_err
exact(struct core_req *req, const struct params *pp, json_t *m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *items = NULL;
	enum core_err er;

	if ((er = pages_search_store_exact(ctx->db, ctx->base_url, pp->q,
		 TOP_FEW, &items)) != CORE_OK)
		return er;
	json_object_set_new(m, "exact_researchers", items);
	return CORE_OK;
}

/*
 * Browse: no query but a filter (category, dates, researcher,
 * institution) over papers lists the papers instead of the help page.
 */
static int
is_browse(const struct params *pp)
{
	return *pp->q == '\0' && pp->type != PAGES_SEARCH_RESEARCHERS &&
	    pp->type != PAGES_SEARCH_INSTITUTIONS &&
	    (pp->f.category != NULL || pp->f.from[0] != '\0' ||
		pp->f.to[0] != '\0' || pp->f.researcher > 0 ||
		pp->f.institution > 0);
}

/* "Newest in cs.DB", "Most cited papers", ...: a browse's title. */
static char *
browse_title(const struct params *pp)
{
	return core_xasprintf("%s%s%s",
	    pp->sort == PAGES_SEARCH_CITATIONS ? "Most cited papers"
					       : "Newest papers",
	    pp->f.category != NULL ? " in " : "",
	    pp->f.category != NULL ? pp->f.category : "");
}

/* A category no paper here carries is unknown: 404, in the client's
 * representation, pointing at /categories. */
static enum core_err
category_known(struct core_req *req, const struct params *pp)
{
	struct core_ctx *ctx = core_req_ctx(req);
	enum core_err er;
	int known = 0;

	if (pp->f.category == NULL)
		return CORE_OK;
	if ((er = pages_search_store_category_known(ctx->db, pp->f.category,
		 &known)) != CORE_OK)
		return er;
	if (!known)
		return core_req_fail(req, 404,
		    "unknown category: no paper here is in it; the "
		    "categories are listed at /categories");
	return CORE_OK;
}

/*
 * The papers of a search as citations: the first pages of its results
 * in their order, at most PAGES_SEARCH_EXPORT_MAX papers (a search is a
 * ranking, not a set: the rest is not worth citing blind), said by
 * X-Export-Limit and X-Export-Total (the results there are).  Written
 * page by page, leaving in pieces once long (core_cite_open_resp()).
 * (Not named "export": clang-format takes that for C++'s keyword.)
 */
static enum core_err
cite_export(struct core_req *req, const struct params *pp, const char *url)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf pos = CORE_BUF_INIT, neg = CORE_BUF_INIT;
	struct pages_search_q sq;
	struct vec_query vq;
	struct vec_hit near[NEAR_MAX];
	struct core_cite c;
	json_t *items = NULL, *facets = NULL, *tf = NULL;
	json_t *scratch = json_object();
	long long total = 0;
	int capped = 0;
	long page;
	size_t n;
	char num[24];
	enum core_err er = CORE_OK;

	pages_search_words(pp->q, &pos, &neg);
	core_resp_type(req, core_req_rep(req));
	core_resp_link(req, url, "canonical");
	core_resp_alternates(req, url);
	core_resp_etag(req);
	snprintf(num, sizeof(num), "%d", PAGES_SEARCH_EXPORT_MAX);
	core_resp_header(req, "X-Export-Limit", num);
	core_cite_open_resp(&c, req);
	for (page = 1; (page - 1) * PAGES_PER_PAGE < PAGES_SEARCH_EXPORT_MAX &&
	     c.err == CORE_OK;
	     page++) {
		search_q(&sq, pp, &pos, &neg, page);
		sq.mode = pp->mode;
		if (pp->mode != PAGES_SEARCH_LEXICAL)
			semantic(&sq, &vq, near, scratch);
		if ((er = pages_search_store_papers(ctx->db, ctx->base_url, &sq,
			 &items, &total, &capped, &facets, &tf)) != CORE_OK)
			break;
		if (page == 1) {
			/* Before the first piece can leave with the head. */
			snprintf(num, sizeof(num), "%lld", total);
			core_resp_header(req, "X-Export-Total", num);
		}
		core_cite_add_all(&c, items);
		n = json_array_size(items);
		json_decref(items);
		json_decref(facets);
		json_decref(tf);
		items = facets = tf = NULL;
		if (n < PAGES_PER_PAGE)
			break;
	}
	core_cite_close(&c);
	core_buf_free(&pos);
	core_buf_free(&neg);
	json_decref(scratch);
	if (er != CORE_OK && !core_resp_spilled(req))
		core_buf_reset(core_resp_body(req));
	return er;
}

enum core_err
pages_search(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct params pp;
	struct pages_ident ident;
	json_t *m = NULL;
	char *title = NULL;
	enum core_err er;
	int sent, browse;

	if ((er = core_req_negotiate(req, pages_paper_offers,
		 sizeof(pages_paper_offers) / sizeof(pages_paper_offers[0]))) !=
	    CORE_OK)
		return er;
	if ((er = read_params(req, &pp)) != CORE_OK) {
		free(pp.qbuf);
		return er;
	}
	/* An identifier (arXiv id, DOI, ORCID) goes to its page. */
	if (pages_ident_query(pp.q, &ident)) {
		if ((er = pages_resolve(req, &ident, &sent)) != CORE_OK || sent)
			goto out;
	}
	if ((browse = is_browse(&pp))) {
		/* Browse: a listing, newest first unless asked otherwise. */
		if (pp.sort == PAGES_SEARCH_RELEVANCE)
			pp.sort = PAGES_SEARCH_NEWEST;
		if ((er = category_known(req, &pp)) != CORE_OK)
			goto out;
	}
	title = *pp.q != '\0' ? core_xasprintf("Search: %s", pp.q)
	    : browse          ? browse_title(&pp)
			      : core_xstrdup("Search");
	m = json_pack("{s:s,s:o,s:o,s:s,s:s,s:s,s:s,s:o,s:i}", "type", "search",
	    "title", core_json_str(title), "url",
	    pages_json_abs_free(ctx->base_url,
		search_path(&pp, pp.type, pp.sort, pp.f.category)),
	    "query", pp.q, "search_type",
	    pp.type == PAGES_SEARCH_ALL ? "all" : pages_search_types[pp.type],
	    "sort", pages_search_sorts[pp.sort], "mode_requested",
	    pages_search_modes[pp.mode], "filters", filters_model(&pp), "page",
	    (int)pp.page);
	if (m == NULL) {
		er = CORE_ESYS;
		goto out;
	}
	if (browse)
		json_object_set_new(m, "browse", json_true());
	nav_links(m, ctx->base_url, &pp);
	feed_model(m, &pp);
	if (core_rep_is_cite(core_req_rep(req))) {
		/* Citations are papers: of a search for papers. */
		if (*pp.q == '\0' || pp.type == PAGES_SEARCH_RESEARCHERS ||
		    pp.type == PAGES_SEARCH_INSTITUTIONS)
			er = core_req_fail(req, 400,
			    "an export needs a query (q=) over papers");
		else
			er = cite_export(req, &pp, pages_str(m, "url"));
		goto out;
	}
	if (*pp.q == '\0' && !browse) {
		/* The search page itself: a box and some suggestions. */
		json_object_set_new(m, "total", json_integer(0));
		json_object_set_new(m, "results", json_array());
		json_object_set_new(m, "suggestions",
		    suggestions(ctx->base_url));
		er = pages_respond(req, PAGES_SEARCH, m);
		goto out;
	}
	if (pp.page == 1 && !browse && pp.type != PAGES_SEARCH_INSTITUTIONS &&
	    (er = exact(req, &pp, m)) != CORE_OK)
		goto out;
	switch (pp.type) {
	case PAGES_SEARCH_RESEARCHERS:
	case PAGES_SEARCH_INSTITUTIONS:
		er = names(req, &pp, m, pp.type);
		break;
	default:
		er = papers(req, &pp, m);
		if (er == CORE_OK && pp.type == PAGES_SEARCH_ALL &&
		    pp.page == 1 && !browse)
			er = few(req, &pp, m);
		break;
	}
	if (er == CORE_OK)
		er = pages_respond(req, PAGES_SEARCH, m);
out:
	free(title);
	free(pp.qbuf);
	json_decref(m);
	return er;
}

/* ---------------------------------------------------------------- feed */

/*
 * The plain text of a card's snippet (its segments joined, the match
 * marks dropped); caller frees.
 */
static char *
snippet_text(const json_t *card)
{
	struct core_buf b = CORE_BUF_INIT;
	const json_t *seg;
	size_t i;

	json_array_foreach(json_object_get(card, "snippet"), i, seg)
	{
		const char *t = core_json_text(seg, "text");

		if (t != NULL)
			core_buf_puts(&b, t);
	}
	return core_buf_steal(&b);
}

/* An array of the names of a card's authors; new reference. */
static json_t *
author_names(const json_t *card)
{
	json_t *out = json_array(), *a;
	size_t i;

	json_array_foreach(json_object_get(card, "authors"), i, a)
	{
		const char *n = core_json_text(a, "name");

		if (n != NULL)
			json_array_append_new(out, json_string(n));
	}
	return out;
}

/*
 * Writes the results of m as a feed of the search (fmt) and finishes;
 * sort is the one the URL gave (relevance when none), for the feed's
 * own address.
 */
static enum core_err
search_feed_respond(struct core_req *req, const struct params *pp,
    enum pages_search_sort sort, enum core_feed_fmt fmt, const json_t *m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const json_t *res = json_object_get(m, "results"), *c;
	struct core_feed_item *items;
	struct core_feed f;
	json_t **authors;
	char **strs, *sp, *self, *link, *desc;
	size_t i, n = json_array_size(res);
	enum core_err er;

	items = core_xcalloc(n + 1, sizeof(*items));
	strs = core_xcalloc(2 * n + 1, sizeof(*strs));
	authors = core_xcalloc(n + 1, sizeof(*authors));
	memset(&f, 0, sizeof(f));
	f.updated = -1;
	json_array_foreach(res, i, c)
	{
		int64_t day = -1;

		strs[2 * i] = core_tex_plain(core_json_text(c, "title"), 0);
		strs[2 * i + 1] = snippet_text(c);
		items[i].id = items[i].link = core_json_text(c, "url");
		items[i].title = strs[2 * i] != NULL ? strs[2 * i] : "";
		items[i].summary = strs[2 * i + 1];
		items[i].authors = authors[i] = author_names(c);
		items[i].categories = json_object_get(c, "categories");
		if (core_date_day_parse(core_json_text(c, "published"), &day) !=
		    0)
			day = -1;
		items[i].published = items[i].updated = day;
		if (day > f.updated)
			f.updated = day;
		if (items[i].id == NULL)
			items[i].id = items[i].link = "";
	}
	sp = search_path(pp, pp->type, pp->sort, pp->f.category);
	link = core_abs_url(req, sp);
	free(sp);
	/* "/search?..." -> "/rss/search.EXT?...", sort as it was asked. */
	sp = search_path(pp, pp->type, sort, pp->f.category);
	self = core_xasprintf("%s/rss/search.%s%s", ctx->base_url,
	    core_feed_ext[fmt], sp + strlen("/search"));
	desc = core_xasprintf("The newest papers on weft matching the search "
			      "'%s'%s%s.",
	    pp->q, pp->f.category != NULL ? " in " : "",
	    pp->f.category != NULL ? pp->f.category : "");
	f.title = core_json_text(m, "title");
	f.link = link;
	f.description = desc;
	f.self = self;
	f.items = items;
	f.nitems = n;
	er = core_feed_render(core_resp_sink(req), fmt, &f);
	/* The other formats, and the search page the feed follows. */
	core_resp_feed_alternates(req, self);
	core_resp_alternate(req, link, core_rep_mime[CORE_REP_HTML]);
	for (i = 0; i < n; i++) {
		json_decref(authors[i]);
		free(strs[2 * i]);
		free(strs[2 * i + 1]);
	}
	free(authors);
	free(strs);
	free(items);
	free(sp);
	free(link);
	free(self);
	free(desc);
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "search", "cannot render a feed: %s",
		    core_err_str(er));
		return CORE_ESYS;
	}
	core_resp_header(req, "Cache-Control", "public, max-age=300");
	core_resp_etag(req);
	if (f.updated >= 0) {
		char date[32];

		core_http_date(date, f.updated);
		core_resp_header(req, "Last-Modified", date);
	}
	core_resp_ctype(req, core_feed_ctype[fmt]);
	return CORE_OK;
}

enum core_err
pages_search_feed(struct core_req *req)
{
	struct params pp;
	enum pages_search_sort sort;
	enum core_feed_fmt fmt;
	const char *s;
	json_t *m = NULL;
	char *title = NULL;
	enum core_err er;
	size_t n;

	/* Routed as /rss/search.xml, .atom and .json only. */
	if (core_feed_ext_parse(core_req_path(req), &n, &fmt) != 0)
		return CORE_ENOTFOUND;
	if ((er = read_params(req, &pp)) != CORE_OK)
		goto out;
	if (*pp.q == '\0') {
		er = core_req_fail(req, 400,
		    "a search feed needs a query, q; the newest papers of a "
		    "category are at /rss/categories/{category}.xml");
		goto out;
	}
	if (pp.type == PAGES_SEARCH_RESEARCHERS ||
	    pp.type == PAGES_SEARCH_INSTITUTIONS) {
		er = core_req_fail(req, 400,
		    "search feeds list papers: type must be papers or absent");
		goto out;
	}
	if (pp.page != 1) {
		er = core_req_fail(req, 400, "a search feed has one page");
		goto out;
	}
	/* A feed is read for what is new: newest first unless asked. */
	sort = pp.sort;
	if ((s = core_req_param(req, "sort")) == NULL || *s == '\0')
		pp.sort = PAGES_SEARCH_NEWEST;
	title = core_xasprintf("weft: search %s", pp.q);
	m = json_pack("{s:o}", "title", core_json_str(title));
	if ((er = papers(req, &pp, m)) != CORE_OK)
		goto out;
	er = search_feed_respond(req, &pp, sort, fmt, m);
out:
	free(title);
	free(pp.qbuf);
	json_decref(m);
	return er;
}
