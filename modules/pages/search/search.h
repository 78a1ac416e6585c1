/*
 * search/search.h -- /search: parsing the query (search.c, pure, for the
 * unit tests), ranking candidates (search_rank.c), the statements
 * (search_store.c) and the renderers (render_search.c).  Part of
 * pages.so; uses pages.h and never the other way round, except that
 * render.c names the renderers and module.c the handler.
 */
#ifndef PAGES_SEARCH_H
#define PAGES_SEARCH_H

#include <stddef.h>

#include <jansson.h>

#include "core.h"
#include "pages.h"

/* ------------------------------------------------------------------ */
/* search.c: /search (parsing is pure, for the unit tests)             */
/* ------------------------------------------------------------------ */

/* The longest q we take, in bytes: longer is a 400. */
#define PAGES_SEARCH_QMAX 512

enum pages_search_type {
	PAGES_SEARCH_ALL, /* no type: papers, and the top few people/places */
	PAGES_SEARCH_PAPERS,
	PAGES_SEARCH_RESEARCHERS,
	PAGES_SEARCH_INSTITUTIONS,
	PAGES_SEARCH_TYPE__MAX
};
enum pages_search_sort {
	PAGES_SEARCH_RELEVANCE,
	PAGES_SEARCH_NEWEST,
	PAGES_SEARCH_CITATIONS,
	PAGES_SEARCH_SORT__MAX
};
extern const char *const pages_search_types[PAGES_SEARCH_TYPE__MAX];
extern const char *const pages_search_sorts[PAGES_SEARCH_SORT__MAX];

/* How papers are found and ranked (?mode=, search_rank.c). */
enum pages_search_mode {
	PAGES_SEARCH_HYBRID,   /* text and vector similarity (the default) */
	PAGES_SEARCH_LEXICAL,  /* full text only */
	PAGES_SEARCH_SEMANTIC, /* the semantic index's nearest papers only */
	PAGES_SEARCH_MODE__MAX
};
extern const char *const pages_search_modes[PAGES_SEARCH_MODE__MAX];
/*
 * The text weight w of the hybrid score w * text / max text + (1 - w) *
 * cosine.  Chosen on the tuning sample of weft-vectors eval (the 1,000
 * papers after its test queries in its seeded shuffle, never the test
 * queries): the weights best there for its two search tasks, title ->
 * abstract (0.55) and first sentence -> title (0.65), averaged.
 */
#define PAGES_SEARCH_W 0.6
/* ?mode=: *m is hybrid for NULL or ""; 0, or -1 when unknown. */
int pages_search_mode_parse(const char *s, enum pages_search_mode *m);

/* One candidate of a paper search. */
struct pages_search_cand {
	long long id;
	int tier; /* 1 all words, 2 rarer words, 3 vector only */
	char published[11];
	long long citations; /* -1 when unknown */
	double text;         /* ts_rank(v, q, 1) */
	double sim;          /* cosine to the query (0: not indexed) */
	double score;        /* set by pages_search_rank() */
	const char *cats;    /* space-separated categories (borrowed) */
	const char *ptype;   /* paper_type or NULL (borrowed) */
};
/*
 * Scores and sorts c[0..n): relevance ranks lexical by tier then text,
 * semantic by similarity, hybrid by w * text / max + (1 - w) * sim;
 * newest and citations keep the tiers first.  Ties: newer, higher id.
 */
void pages_search_rank(struct pages_search_cand *c, size_t n,
    enum pages_search_mode, enum pages_search_sort, double w);
/* [{"category","count"}] over c[0..n), most frequent first, at most max.
 * New reference. */
json_t *pages_search_facets(const struct pages_search_cand *c, size_t n,
    size_t max);
/* [{"paper_type","label","count"}] over c[0..n), most frequent first
 * (ties in core_paper_types order), types with no paper left out.  New
 * reference. */
json_t *pages_search_type_facets(const struct pages_search_cand *c, size_t n);

/* The filters of a paper search; NULL / 0 when absent. */
struct pages_search_filter {
	const char *category;
	const char *paper_type; /* one of core_paper_types */
	char from[11];          /* "YYYY-MM-DD" or "" */
	char to[11];
	long long researcher;
	long long institution;
};

/*
 * A date filter: "YYYY" or "YYYY-MM-DD" (a real calendar day).  A year
 * alone means its first day, or its last when upper.  Writes the
 * normalised "YYYY-MM-DD" to out and returns 0, or -1 when malformed.
 */
int pages_search_date(const char *s, int upper, char out[11]);

/*
 * Splits a query the way websearch_to_tsquery reads it: "quoted
 * phrases", -negated words or phrases, the operator "or".  Appends to
 * pos the positive words separated by single spaces (quotes and
 * operators removed) and to neg the negated words and phrases joined
 * with " or " (phrases keep their quotes).  Never fails.
 */
void pages_search_words(const char *q, struct core_buf *pos,
    struct core_buf *neg);
/*
 * The next space-separated word at *p: its start (borrowed) and length
 * *len, *p moved past it; NULL at the end of the string.
 */
const char *pages_search_word(const char **p, size_t *len);
/* "a b c" -> "a or b or c" appended to out. */
void pages_search_or(const char *words, struct core_buf *out);

/*
 * A query of more words than this is a question (a sentence people and
 * agents ask), not a name or a few keywords: no close name is looked up
 * for it (a close match is a name the query is nearly a word of, and
 * 99.4 % of ROR's names have at most 12 words), and its "or" is a word.
 */
#define PAGES_SEARCH_QUESTION_WORDS 12
/* 1 when q has more than PAGES_SEARCH_QUESTION_WORDS words (split at
 * white space, as websearch_to_tsquery splits), 0 otherwise or NULL. */
int pages_search_is_question(const char *q);
/*
 * Appends q to out without its words "or" (any case) outside quotes:
 * websearch_to_tsquery reads "or" as its operator, and in a question
 * ("... arithmetic mistakes, or hallucinations") it turned the
 * all-words match into "(every other word) or hallucinations", a match
 * of 5 % of the papers to visit and sort.  Everything else is kept.
 */
void pages_search_plain(const char *q, struct core_buf *out);

/*
 * Splits text marked with U+E000 (start) and U+E001 (stop) into an
 * array of {"text": …} and {"text": …, "match": true} segments; stray
 * or unbalanced markers are dropped.  New reference.
 */
json_t *pages_search_marks(const char *s);

enum core_err pages_search(struct core_req *);
/*
 * /rss/search.xml, .atom, .json: the papers of a search (the parameters
 * of /search; q required, newest first unless sort says otherwise) as a
 * feed.  Bad parameters are 400s, as for /search.
 */
enum core_err pages_search_feed(struct core_req *);

/* search_store.c: the search statements. */
struct vec_index;
struct vec_query;
struct vec_hit;
struct pages_search_q {
	const char *q;   /* the user's text */
	const char *pos; /* positive words, space-separated */
	const char *neg; /* negated words, " or "-joined ("" none) */
	enum pages_search_sort sort;
	enum pages_search_mode mode; /* the mode used (after fallbacks) */
	const struct pages_search_filter *f;
	long page;
	/* Not lexical: the index, the query's vector and its nearest
	 * papers (the vector candidates). */
	const struct vec_index *idx;
	const struct vec_query *vq;
	const struct vec_hit *near;
	size_t nnear;
};
/*
 * A page of paper hits (cards with "match", "title_marks", "snippet",
 * and "score" unless lexical) into *items, the number of hits *total,
 * *capped when the all-words pool was full (more matches exist), the
 * category facets *facets ([{"category","count"}]) and the paper type
 * facets *tfacets (pages_search_type_facets()).  CORE_OK or CORE_EDB
 * (logged).
 */
/* *known: whether any paper carries category cat.  CORE_OK or CORE_EDB. */
enum core_err pages_search_store_category_known(struct core_db *,
    const char *cat, int *known);
/*
 * The categories the papers carry, [{category, papers}] by code, into
 * *items.  CORE_OK or CORE_EDB.
 */
enum core_err pages_search_store_categories(struct core_db *, json_t **items);
/* /categories: the arXiv categories here, with counts and browse links. */
enum core_err pages_categories(struct core_req *);
void pages_render_categories_html(struct core_html *,
    const struct pages_page *);
void pages_render_categories_md(struct core_buf *, const struct pages_page *);
enum core_err pages_search_store_papers(struct core_db *, const char *base,
    const struct pages_search_q *, json_t **items, long long *total,
    int *capped, json_t **facets, json_t **tfacets);
/* Researchers or institutions (type) by name: a page (n from offset)
 * and the total.  CORE_OK or CORE_EDB. */
enum core_err pages_search_store_names(struct core_db *, const char *base,
    enum pages_search_type type, const char *q, int n, long long offset,
    json_t **items, long long *total);
/* With no type: the top n researchers and institutions among the close
 * matches (a word of the name like the query) and how many there are,
 * in one statement.  CORE_OK or CORE_EDB. */
enum core_err pages_search_store_few(struct core_db *, const char *base,
    const char *q, int n, json_t **researchers, long long *rtotal,
    int *restimated, json_t **institutions, long long *itotal);
/* The researchers (at most n) whose name is the query itself, most
 * papers first: the items of the search page's "exact_researchers". */
enum core_err pages_search_store_exact(struct core_db *, const char *base,
    const char *q, int n, json_t **items);

/* render_search.c */
void pages_render_search_html(struct core_html *, const struct pages_page *);
void pages_render_search_md(struct core_buf *, const struct pages_page *);

#endif /* PAGES_SEARCH_H */
