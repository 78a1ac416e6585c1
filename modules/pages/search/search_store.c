/*
 * search_store.c -- the statements of /search: the pages module's second
 * store file (store.c holds the others).  As there, every query is a
 * named statement of sql/queries/pages.sql (the "-- search" section) run
 * through core_db_exec(), values only as $n parameters, and results come
 * back as pieces of the view model with absolute URLs.
 *
 * A paper search runs in one short transaction that asks for custom
 * plans (SEARCH_CUSTOM_PLANS): the best plan for a word in most papers
 * (walk the date index) is the worst for a rare one (the GIN index), and
 * a generic plan cannot see the words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "search/search.h"
#include "pages_sql.h"
#include "vindex.h"

/*
 * The bounds that keep a search fast whatever the corpus size: at most
 * POOL_CAP all-words matches are ranked (the newest, or the most cited
 * for sort=citations), at most FILL_CAP any-word matches fill after
 * them, and only words in fewer than RARE_NDOC papers find those.
 */
#define POOL_CAP 300
/* A hybrid search by relevance ranks by meaning too: the semantic
 * index's nearest papers carry relevance, and the newest all-words
 * matches need not be as many (the walk for a common word costs in
 * proportion). */
#define POOL_CAP_HYBRID 100
#define FILL_CAP        100
/* Browse without a query: the newest this many (facets, pages). */
#define BROWSE_CAP 1000
#define RARE_NDOC  2000
/* Category facets shown. */
#define FACETS_MAX 20

/* The statement's authors [{name,id,slug}] as card authors. */
static json_t *
card_authors(const char *base, json_t *raw)
{
	json_t *out = json_array(), *a;
	size_t i;

	json_array_foreach(raw, i, a)
	{
		json_t *id = json_object_get(a, "id");
		json_t *o =
		    json_pack("{s:O}", "name", json_object_get(a, "name"));

		if (json_is_integer(id)) {
			json_object_set(o, "id", id);
			json_object_set_new(o, "url",
			    pages_json_abs_free(base,
				pages_researcher_path(json_integer_value(id),
				    pages_str(a, "slug"))));
		} else {
			json_object_set_new(o, "id", json_null());
			json_object_set_new(o, "url", json_null());
		}
		json_array_append_new(out, o);
	}
	return out;
}

/* The "match" of a card by tier: how the paper was found. */
static const char *const match_names[] = { "any", "all", "any", "semantic" };

/* One paper card from a row of SEARCH_PAGE; score < -1: none shown. */
static json_t *
hit(const char *base, const PGresult *res, int r, double score)
{
	json_t *o = json_object(), *cats, *raw;
	long long tier = core_cell_bigint(res, r, PAGES_SEARCH_PAGE__TIER, 0);

	json_object_set_new(o, "type", json_string("paper"));
	json_object_set_new(o, "arxiv_id",
	    core_cell_jtext(res, r, PAGES_SEARCH_PAGE__ARXIV_ID));
	json_object_set_new(o, "title",
	    core_cell_jtext(res, r, PAGES_SEARCH_PAGE__TITLE));
	json_object_set_new(o, "url",
	    pages_json_abs_free(base,
		pages_paper_path(core_cell_text(res, r,
				     PAGES_SEARCH_PAGE__ARXIV_ID),
		    core_cell_text(res, r, PAGES_SEARCH_PAGE__SLUG))));
	json_object_set_new(o, "published",
	    core_cell_jtext(res, r, PAGES_SEARCH_PAGE__PUBLISHED));
	json_object_set_new(o, "primary_category",
	    core_cell_jtext(res, r, PAGES_SEARCH_PAGE__PRIMARY_CATEGORY));
	cats = core_cell_json(res, r, PAGES_SEARCH_PAGE__CATEGORIES, NULL);
	json_object_set_new(o, "categories",
	    json_is_array(cats) ? cats : (json_decref(cats), json_array()));
	json_object_set_new(o, "citation_count",
	    core_cell_jint(res, r, PAGES_SEARCH_PAGE__CITATION_COUNT));
	json_object_set_new(o, "author_count",
	    core_cell_jint(res, r, PAGES_SEARCH_PAGE__AUTHOR_COUNT));
	json_object_set_new(o, "all_authors_matched",
	    json_boolean(
		core_cell_bool(res, r, PAGES_SEARCH_PAGE__FULLY_MATCHED, 0)));
	json_object_set_new(o, "match",
	    json_string(match_names[tier >= 1 && tier <= 3 ? tier : 0]));
	if (score >= -1)
		json_object_set_new(o, "score",
		    json_real(
			(double)(long long)(score * 10000 + 0.5) / 10000));
	json_object_set_new(o, "title_marks",
	    pages_search_marks(
		core_cell_text(res, r, PAGES_SEARCH_PAGE__TITLE_MARKED)));
	json_object_set_new(o, "snippet",
	    pages_search_marks(
		core_cell_text(res, r, PAGES_SEARCH_PAGE__SNIPPET_MARKED)));
	raw = core_cell_json(res, r, PAGES_SEARCH_PAGE__AUTHORS, NULL);
	json_object_set_new(o, "authors", card_authors(base, raw));
	json_decref(raw);
	return o;
}

/*
 * Runs stmt with the parameters q, n and, unless offset is negative,
 * offset (a text, a count and where a page starts): the name statements
 * and the rare words.
 */
static enum core_err
names(struct core_db *db, int stmt, const char *q, int n, long long offset,
    PGresult **res)
{
	const char *params[3];
	char nbuf[16], obuf[24];

	snprintf(nbuf, sizeof(nbuf), "%d", n);
	snprintf(obuf, sizeof(obuf), "%lld", offset);
	params[0] = q;
	params[1] = nbuf;
	params[2] = obuf;
	return core_db_exec(db, stmt, params, offset < 0 ? 2 : 3, res);
}

/* The words of pos rare enough to find any-word matches, "a or b". */
static enum core_err
rare_words(struct core_db *db, const char *pos, struct core_buf *out)
{
	PGresult *res = NULL;
	enum core_err er;
	int i;

	if ((er = names(db, PAGES_SQL_SEARCH_RARE_WORDS, pos, RARE_NDOC, -1,
		 &res)) != CORE_OK)
		return er;
	for (i = 0; i < PQntuples(res); i++) {
		if (i > 0)
			core_buf_puts(out, " or ");
		core_buf_puts(out,
		    core_cell_text(res, i, PAGES_SEARCH_RARE_WORDS__W));
	}
	PQclear(res);
	return CORE_OK;
}

/* Appends "{a,b,c}" (a bigint[] literal) of the nearest papers to b. */
static void
near_array(struct core_buf *b, const struct pages_search_q *sq)
{
	size_t i;

	core_buf_putc(b, '{');
	for (i = 0; i < sq->nnear; i++)
		core_buf_printf(b, "%s%lld", i > 0 ? "," : "",
		    (long long)sq->near[i].paper_id);
	core_buf_putc(b, '}');
}

/* How many all-words matches a search ranks at most. */
static int
pool_cap(const struct pages_search_q *sq)
{
	return sq->mode == PAGES_SEARCH_HYBRID &&
		sq->sort == PAGES_SEARCH_RELEVANCE
	    ? POOL_CAP_HYBRID
	    : POOL_CAP;
}

/* The text of a filter's ids, for filter_params(). */
struct filter_bufs {
	char researcher[24], institution[24];
};

/*
 * The five parameters of filter f, in the order both the candidates and
 * the browse statement take them: category, from, to, researcher,
 * institution (NULL when not filtered on); the ids' text goes in fb.
 */
static void
filter_params(const struct pages_search_filter *f, const char **params,
    struct filter_bufs *fb)
{
	snprintf(fb->researcher, sizeof(fb->researcher), "%lld", f->researcher);
	snprintf(fb->institution, sizeof(fb->institution), "%lld",
	    f->institution);
	params[0] = f->category;
	params[1] = f->from[0] != '\0' ? f->from : NULL;
	params[2] = f->to[0] != '\0' ? f->to : NULL;
	params[3] = f->researcher > 0 ? fb->researcher : NULL;
	params[4] = f->institution > 0 ? fb->institution : NULL;
}

/* The dates the search windows start (0048), "" where there is none. */
struct windows {
	char near[16], far[16];
};

/* How the candidates find their pool (SEARCH_WAY): way, the way after a
 * window that does not fill it, that window's first date or fewest
 * citations ("": none) and the key lexemes for the GIN index (NULL: the
 * whole query). */
struct way {
	char way[16], after[8], since[16], cited[16];
	char *key;
};

static enum core_err
run_way(struct core_db *db, const struct pages_search_q *sq, const char *qo,
    const char *text, const char *pool, const char *cat, const char *upto,
    const struct windows *w, struct way *out)
{
	PGresult *res = NULL;
	const char *params[8], *v;
	enum core_err er;

	params[0] = qo;
	params[1] = pool;
	params[2] = pages_search_sorts[sq->sort];
	params[3] = cat;
	params[4] = upto;
	params[5] = w->near[0] != '\0' ? w->near : NULL;
	params[6] = w->far[0] != '\0' ? w->far : NULL;
	params[7] = text;
	if ((er = core_db_exec(db, PAGES_SQL_SEARCH_WAY, params, 8, &res)) !=
	    CORE_OK)
		return er;
	v = core_cell_text(res, 0, PAGES_SEARCH_WAY__WAY);
	snprintf(out->way, sizeof(out->way), "%s", v != NULL ? v : "gin");
	v = core_cell_text(res, 0, PAGES_SEARCH_WAY__AFTER);
	snprintf(out->after, sizeof(out->after), "%s", v != NULL ? v : "gin");
	v = core_cell_text(res, 0, PAGES_SEARCH_WAY__SINCE);
	snprintf(out->since, sizeof(out->since), "%s", v != NULL ? v : "");
	v = core_cell_text(res, 0, PAGES_SEARCH_WAY__MIN_CITATIONS);
	snprintf(out->cited, sizeof(out->cited), "%s", v != NULL ? v : "");
	v = core_cell_text(res, 0, PAGES_SEARCH_WAY__KEY);
	out->key = v != NULL ? core_xstrdup(v) : NULL;
	PQclear(res);
	return CORE_OK;
}

/* The candidates statement: every mode and sort. */
static enum core_err
run_candidates(struct core_db *db, const struct pages_search_q *sq,
    const char *qo, const char *qr, const struct windows *w, PGresult **res)
{
	struct filter_bufs fb;
	struct core_buf near = CORE_BUF_INIT, plain = CORE_BUF_INIT;
	struct way way = { "gin", "gin", "", "", NULL };
	const char *params[19];
	char pbuf[16], fbuf[16];
	int lexical = sq->mode != PAGES_SEARCH_SEMANTIC;
	enum core_err er;

	near_array(&near, sq);
	snprintf(pbuf, sizeof(pbuf), "%d", lexical ? pool_cap(sq) : 0);
	snprintf(fbuf, sizeof(fbuf), "%d", lexical ? FILL_CAP : 0);
	params[0] = sq->q;
	if (pages_search_is_question(sq->q)) {
		pages_search_plain(sq->q, &plain);
		params[0] = core_buf_cstr(&plain);
	}
	params[1] = qo;
	params[2] = qr;
	params[3] = sq->neg;
	filter_params(sq->f, params + 4, &fb);
	params[9] = pbuf;
	params[10] = fbuf;
	params[11] = pages_search_sorts[sq->sort];
	params[12] = core_buf_cstr(&near);
	params[13] = sq->f->paper_type;
	if (lexical &&
	    (er = run_way(db, sq, qo, params[0], pbuf, params[4], params[6], w,
		 &way)) != CORE_OK)
		goto out;
	params[14] = way.since[0] != '\0' ? way.since : NULL;
	params[15] = way.way;
	params[16] = way.after;
	params[17] = way.key;
	params[18] = way.cited[0] != '\0' ? way.cited : NULL;
	er = core_db_exec(db, PAGES_SQL_SEARCH_CANDIDATES, params, 19, res);
out:
	free(way.key);
	core_buf_free(&near);
	core_buf_free(&plain);
	return er;
}

/*
 * Browse without a query: the filtered papers, newest (or most cited)
 * first, at most BROWSE_CAP and one more (there are more than the page
 * lists), in the candidates' columns.
 */
static enum core_err
run_browse(struct core_db *db, const struct pages_search_q *sq, PGresult **res)
{
	struct filter_bufs fb;
	char cbuf[16];
	const char *params[6];

	snprintf(cbuf, sizeof(cbuf), "%d", BROWSE_CAP + 1);
	filter_params(sq->f, params, &fb);
	params[5] = cbuf;
	return core_db_exec(db,
	    sq->sort == PAGES_SEARCH_CITATIONS ? PAGES_SQL_SEARCH_BROWSE_CITED
					       : PAGES_SQL_SEARCH_BROWSE_NEWEST,
	    params, 6, res);
}

/* The cosine of each candidate: from the nearest papers when there,
 * else scored against the index (0 when the paper is not in it). */
static void
similarities(const struct pages_search_q *sq, struct pages_search_cand *c,
    size_t n)
{
	size_t i, j;
	float sim;

	for (i = 0; i < n; i++) {
		c[i].sim = 0;
		for (j = 0; j < sq->nnear; j++)
			if (sq->near[j].paper_id == c[i].id)
				break;
		if (j < sq->nnear)
			c[i].sim = sq->near[j].score;
		else if (vec_score(sq->idx, sq->vq, c[i].id, &sim) == CORE_OK)
			c[i].sim = sim;
	}
}

/* The cards of c[0..n) in that order, appended to arr. */
static enum core_err
run_page(struct core_db *db, const char *base, const char *qo,
    const struct pages_search_cand *c, size_t n, int scores, json_t *arr)
{
	struct core_buf ids = CORE_BUF_INIT, tiers = CORE_BUF_INIT;
	const char *params[3];
	PGresult *res = NULL;
	enum core_err er;
	size_t i;
	int r;

	core_buf_putc(&ids, '{');
	core_buf_putc(&tiers, '{');
	for (i = 0; i < n; i++) {
		core_buf_printf(&ids, "%s%lld", i > 0 ? "," : "", c[i].id);
		core_buf_printf(&tiers, "%s%d", i > 0 ? "," : "", c[i].tier);
	}
	core_buf_putc(&ids, '}');
	core_buf_putc(&tiers, '}');
	params[0] = core_buf_cstr(&ids);
	params[1] = qo;
	params[2] = core_buf_cstr(&tiers);
	if ((er = core_db_exec(db, PAGES_SQL_SEARCH_PAGE, params, 3, &res)) ==
	    CORE_OK) {
		for (r = 0; r < PQntuples(res) && (size_t)r < n; r++)
			json_array_append_new(arr,
			    hit(base, res, r, scores ? c[r].score : -2));
		PQclear(res);
	}
	core_buf_free(&ids);
	core_buf_free(&tiers);
	return er;
}

enum core_err
pages_search_store_papers(struct core_db *db, const char *base,
    const struct pages_search_q *sq, json_t **items, long long *total,
    int *capped, json_t **facets, json_t **tfacets)
{
	struct core_buf qo = CORE_BUF_INIT, qr = CORE_BUF_INIT;
	struct pages_search_cand *c = NULL;
	struct windows win;
	PGresult *res = NULL;
	json_t *arr = NULL;
	size_t n = 0, i, off;
	const char *v;
	int in_tx = 0, row;
	enum core_err er;

	*items = *facets = *tfacets = NULL;
	*total = 0;
	*capped = 0;
	pages_search_or(sq->pos, &qo);
	if ((er = core_db_cmd(db, "BEGIN")) != CORE_OK)
		goto out;
	in_tx = 1;
	if ((er = core_db_exec(db, PAGES_SQL_SEARCH_CUSTOM_PLANS, NULL, 0,
		 &res)) != CORE_OK)
		goto out;
	v = core_cell_text(res, 0, PAGES_SEARCH_CUSTOM_PLANS__NEAR_SINCE);
	snprintf(win.near, sizeof(win.near), "%s", v != NULL ? v : "");
	v = core_cell_text(res, 0, PAGES_SEARCH_CUSTOM_PLANS__FAR_SINCE);
	snprintf(win.far, sizeof(win.far), "%s", v != NULL ? v : "");
	PQclear(res);
	res = NULL;
	/* One positive word: the any-word pass would find nothing new. */
	if (sq->mode != PAGES_SEARCH_SEMANTIC && strchr(sq->pos, ' ') != NULL &&
	    (er = rare_words(db, sq->pos, &qr)) != CORE_OK)
		goto out;
	if ((er = *sq->q == '\0'
		    ? run_browse(db, sq, &res)
		    : run_candidates(db, sq, core_buf_cstr(&qo),
			  core_buf_cstr(&qr), &win, &res)) != CORE_OK)
		goto out;
	n = (size_t)PQntuples(res);
	if (*sq->q == '\0') {
		/* A browse's row past the cap only says there are more. */
		*capped = n > BROWSE_CAP;
		n = *capped ? BROWSE_CAP : n;
	}
	c = core_xcalloc(n + 1, sizeof(*c));
	for (i = 0; i < n; i++) {
		row = (int)i;
		c[i].id =
		    core_cell_bigint(res, row, PAGES_SEARCH_CANDIDATES__ID, 0);
		c[i].tier =
		    core_cell_int(res, row, PAGES_SEARCH_CANDIDATES__TIER, 0);
		v = core_cell_text(res, row,
		    PAGES_SEARCH_CANDIDATES__PUBLISHED);
		snprintf(c[i].published, sizeof(c[i].published), "%s",
		    v != NULL ? v : "");
		/* An unknown citation count ranks below 0 citations. */
		c[i].citations = core_cell_bigint(res, row,
		    PAGES_SEARCH_CANDIDATES__CITATION_COUNT, -1);
		v = core_cell_text(res, row,
		    PAGES_SEARCH_CANDIDATES__CATEGORIES);
		c[i].cats = v != NULL ? v : "";
		c[i].ptype = core_cell_text(res, row,
		    PAGES_SEARCH_CANDIDATES__PAPER_TYPE);
		v = core_cell_text(res, row, PAGES_SEARCH_CANDIDATES__RANK);
		c[i].text = v != NULL ? strtod(v, NULL) : 0;
	}
	if (n > 0 && *sq->q != '\0')
		*capped =
		    core_cell_bigint(res, 0, PAGES_SEARCH_CANDIDATES__POOL_SIZE,
			0) >= pool_cap(sq);
	if (sq->mode != PAGES_SEARCH_LEXICAL && sq->idx != NULL)
		similarities(sq, c, n);
	pages_search_rank(c, n, sq->mode, sq->sort, PAGES_SEARCH_W);
	*total = (long long)n;
	*facets = pages_search_facets(c, n, FACETS_MAX);
	*tfacets = pages_search_type_facets(c, n);
	arr = json_array();
	off = (size_t)(sq->page - 1) * PAGES_PER_PAGE;
	if (off < n &&
	    (er = run_page(db, base, core_buf_cstr(&qo), c + off,
		 n - off < PAGES_PER_PAGE ? n - off : PAGES_PER_PAGE,
		 sq->mode != PAGES_SEARCH_LEXICAL, arr)) != CORE_OK)
		goto out;
	er = core_db_cmd(db, "COMMIT");
	in_tx = 0;
	if (er != CORE_OK)
		goto out;
	*items = arr;
	arr = NULL;
out:
	if (in_tx)
		(void)core_db_cmd(db, "ROLLBACK");
	if (er != CORE_OK) {
		json_decref(*facets);
		json_decref(*tfacets);
		*facets = *tfacets = NULL;
	}
	PQclear(res);
	free(c);
	json_decref(arr);
	core_buf_free(&qo);
	core_buf_free(&qr);
	return er;
}

/*
 * A kind of name result as one statement returns it: its "type", the
 * path of its page, the columns of its id, name and slug, and the rest
 * of its object (after type, id, name and url) as a cell table.
 */
struct name_cols {
	const char *type;
	char *(*path)(long long id, const char *slug);
	int id, name, slug;
	const struct core_cell_field *fields;
	size_t nfields;
};

#define NAME_COLS(type, path, st, fields)                                      \
	{                                                                      \
		type, path, st##__ID, st##__NAME, st##__SLUG, fields,          \
		    sizeof(fields) / sizeof((fields)[0])                       \
	}

/*
 * The fields after the head of a researcher (papers from column
 * st__papers) and of an institution (researchers from st__researchers),
 * for statement st.
 */
/* clang-format off */
#define RESEARCHER_FIELDS(st, papers)					\
	{ "papers", st##__##papers, CORE_CELL_INT },			\
	{ "h_index", st##__H_INDEX, CORE_CELL_INT },			\
	{ "citations", st##__CITATIONS, CORE_CELL_INT }
#define INSTITUTION_FIELDS(st, researchers)				\
	{ "country", st##__COUNTRY_NAME, CORE_CELL_TEXT },		\
	{ "institution_type", st##__TYPE, CORE_CELL_TEXT },		\
	{ "researchers", st##__##researchers, CORE_CELL_INT }
/* clang-format on */

static const struct core_cell_field researchers_fields[] = {
	RESEARCHER_FIELDS(PAGES_SEARCH_RESEARCHERS, PAPER_COUNT),
};
static const struct core_cell_field institutions_fields[] = {
	INSTITUTION_FIELDS(PAGES_SEARCH_INSTITUTIONS, RESEARCHER_COUNT),
};
static const struct core_cell_field exact_fields[] = {
	RESEARCHER_FIELDS(PAGES_RESEARCHERS_EXACT, PAPER_COUNT),
};
/* SEARCH_NAMES_FEW: "size" is papers in 'r' rows, researchers in 'i'. */
static const struct core_cell_field few_r_fields[] = {
	RESEARCHER_FIELDS(PAGES_SEARCH_NAMES_FEW, SIZE),
};
static const struct core_cell_field few_i_fields[] = {
	INSTITUTION_FIELDS(PAGES_SEARCH_NAMES_FEW, SIZE),
};

static const struct name_cols researchers_cols = NAME_COLS("researcher",
    pages_researcher_path, PAGES_SEARCH_RESEARCHERS, researchers_fields);
static const struct name_cols institutions_cols = NAME_COLS("institution",
    pages_institution_path, PAGES_SEARCH_INSTITUTIONS, institutions_fields);
static const struct name_cols exact_cols = NAME_COLS("researcher",
    pages_researcher_path, PAGES_RESEARCHERS_EXACT, exact_fields);
static const struct name_cols few_r_cols = NAME_COLS("researcher",
    pages_researcher_path, PAGES_SEARCH_NAMES_FEW, few_r_fields);
static const struct name_cols few_i_cols = NAME_COLS("institution",
    pages_institution_path, PAGES_SEARCH_NAMES_FEW, few_i_fields);

/* A researcher or institution result from row r, as k says (new). */
static json_t *
name_row(const char *base, const PGresult *res, int r,
    const struct name_cols *k)
{
	long long id = core_cell_bigint(res, r, k->id, 0);
	json_t *o;

	o = json_pack("{s:s,s:I,s:o,s:o}", "type", k->type, "id",
	    (json_int_t)id, "name", core_cell_jtext(res, r, k->name), "url",
	    pages_json_abs_free(base,
		k->path(id, core_cell_text(res, r, k->slug))));
	core_row_set(o, res, r, k->fields, k->nfields);
	return o;
}

/*
 * Results of name statement stmt for q, each built as k says; *total
 * from column total_col of the last row.
 */
static enum core_err
name_results(struct core_db *db, const char *base, int stmt,
    const struct name_cols *k, int total_col, const char *q, int n,
    long long offset, json_t **items, long long *total)
{
	PGresult *res = NULL;
	enum core_err er;
	int i;

	*items = NULL;
	*total = 0;
	if ((er = names(db, stmt, q, n, offset, &res)) != CORE_OK)
		return er;
	*items = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		json_array_append_new(*items, name_row(base, res, i, k));
		*total = core_cell_bigint(res, i, total_col, 0);
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_search_store_names(struct core_db *db, const char *base,
    enum pages_search_type type, const char *q, int n, long long offset,
    json_t **items, long long *total)
{
	if (type == PAGES_SEARCH_RESEARCHERS)
		return name_results(db, base, PAGES_SQL_SEARCH_RESEARCHERS,
		    &researchers_cols, PAGES_SEARCH_RESEARCHERS__TOTAL, q, n,
		    offset, items, total);
	return name_results(db, base, PAGES_SQL_SEARCH_INSTITUTIONS,
	    &institutions_cols, PAGES_SEARCH_INSTITUTIONS__TOTAL, q, n, offset,
	    items, total);
}

enum core_err
pages_search_store_few(struct core_db *db, const char *base, const char *q,
    int n, json_t **researchers, long long *rtotal, int *restimated,
    json_t **institutions, long long *itotal)
{
	PGresult *res = NULL;
	const char *kind;
	enum core_err er;
	int i;

	*researchers = *institutions = NULL;
	*rtotal = *itotal = 0;
	*restimated = 0;
	if ((er = names(db, PAGES_SQL_SEARCH_NAMES_FEW, q, n, -1, &res)) !=
	    CORE_OK)
		return er;
	*researchers = json_array();
	*institutions = json_array();
	for (i = 0; i < PQntuples(res); i++) {
		kind = core_cell_text(res, i, PAGES_SEARCH_NAMES_FEW__KIND);
		if (kind != NULL && kind[0] == 'r') {
			json_array_append_new(*researchers,
			    name_row(base, res, i, &few_r_cols));
			*rtotal = core_cell_bigint(res, i,
			    PAGES_SEARCH_NAMES_FEW__TOTAL, 0);
			*restimated = core_cell_bool(res, i,
			    PAGES_SEARCH_NAMES_FEW__APPROX, 0);
		} else {
			json_array_append_new(*institutions,
			    name_row(base, res, i, &few_i_cols));
			*itotal = core_cell_bigint(res, i,
			    PAGES_SEARCH_NAMES_FEW__TOTAL, 0);
		}
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_search_store_exact(struct core_db *db, const char *base, const char *q,
    int n, json_t **items)
{
	PGresult *res = NULL;
	enum core_err er;
	int i;

	*items = NULL;
	if ((er = names(db, PAGES_SQL_RESEARCHERS_EXACT, q, n, 0, &res)) !=
	    CORE_OK)
		return er;
	*items = json_array();
	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(*items,
		    name_row(base, res, i, &exact_cols));
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_search_store_category_known(struct core_db *db, const char *cat,
    int *known)
{
	PGresult *res = NULL;
	const char *params[1] = { cat };
	enum core_err er;

	*known = 0;
	if ((er = core_db_exec(db, PAGES_SQL_CATEGORY_EXISTS, params, 1,
		 &res)) == CORE_OK &&
	    PQntuples(res) == 1)
		*known =
		    core_cell_bool(res, 0, PAGES_CATEGORY_EXISTS__EXISTS, 0);
	PQclear(res);
	return er;
}

enum core_err
pages_search_store_categories(struct core_db *db, json_t **items)
{
	PGresult *res = NULL;
	enum core_err er;
	int r;

	*items = NULL;
	if ((er = core_db_exec(db, PAGES_SQL_CATEGORY_COUNTS, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	*items = json_array();
	for (r = 0; r < PQntuples(res); r++)
		json_array_append_new(*items,
		    json_pack("{s:o,s:I}", "category",
			core_cell_jtext(res, r,
			    PAGES_CATEGORY_COUNTS__CATEGORY),
			"papers",
			(json_int_t)core_cell_bigint(res, r,
			    PAGES_CATEGORY_COUNTS__PAPERS, 0)));
	PQclear(res);
	return CORE_OK;
}
