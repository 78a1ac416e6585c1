/*
 * pages.h -- the pages module's private header: one section per file.
 *
 * A request goes: module.c routes it to a handler (paper.c, researcher.c,
 * ...), the handler negotiates, asks a store file (store.c or a
 * *_store.c) for data and builds ONE view model (a jansson object), and
 * pages_respond() hands the model to a
 * renderer: render_html.c (with layout.c for the page shell),
 * render_md.c, render_bib.c, or JSON (the model itself).
 */
#ifndef PAGES_H
#define PAGES_H

#include <stdint.h>

#include <jansson.h>

#include "core.h"

/*
 * Items per page in every list.  This and the limits below are written
 * into the statements of sql/queries/pages.sql as {{NAME}} (stmts.awk):
 * integer literals only.
 */
#define PAGES_PER_PAGE 24
/* Authors shown on a paper card; the card says how many more there are. */
#define PAGES_CARD_AUTHORS 12
/* Side blocks of the researcher page. */
#define PAGES_FIELDS_MAX       12
#define PAGES_SAME_NAME_MAX    12
#define PAGES_INSTITUTIONS_MAX 12
#define PAGES_COAUTHORS_MAX    24
/* Co-authors named in the evidence summary; namesakes listed with a reason. */
#define PAGES_EV_COAUTHORS_MAX 3
#define PAGES_EV_NAMESAKES_MAX 12
/* The highest ?page= we accept; beyond it the request is malformed. */
#define PAGES_MAX_PAGE 100000

/* ------------------------------------------------------------------ */
/* module.c                                                            */
/* ------------------------------------------------------------------ */

/* The static pages, authored in markdown (content/NAME.md). */
enum pages_doc {
	PAGES_DOC_ABOUT,
	PAGES_DOC_PRIVACY,
	PAGES_DOC_CONTACT,
	PAGES_DOC_DEVELOPERS,
	PAGES_DOC__MAX
};

/* Process state, in ctx->mod_state. */
struct pages_state {
	char *doc_rel[PAGES_DOC__MAX]; /* markdown as authored */
	char *doc_abs[PAGES_DOC__MAX]; /* with site links made absolute */
};

/* ------------------------------------------------------------------ */
/* Page kinds and the render input                                     */
/* ------------------------------------------------------------------ */

enum pages_kind {
	PAGES_HOME,
	PAGES_PAPER,
	PAGES_RESEARCHER,
	PAGES_INSTITUTION,
	PAGES_RESEARCHERS,  /* the directory */
	PAGES_INSTITUTIONS, /* the directory */
	PAGES_DOC,          /* about, privacy, contact, developers */
	PAGES_CHOICES,      /* 300: several institutions match */
	PAGES_ERROR,        /* 404 and the other errors */
	PAGES_SEARCH,       /* /search */
	PAGES_EVIDENCE,     /* /researchers/{id}-{slug}/evidence */
	PAGES_SIMILAR,      /* /papers/{id}-{slug}/similar */
	PAGES_KIND__MAX
};

/*
 * What a renderer needs: the view model and a little of the context.
 * All borrowed for the duration of the render.
 */
struct pages_page {
	enum pages_kind kind;
	const json_t *model;
	const char *base; /* "http://127.0.0.1:8080", no trailing '/' */
};

/* ------------------------------------------------------------------ */
/* respond.c: shared handler plumbing                                  */
/* ------------------------------------------------------------------ */

/* The offers of ordinary pages, and of papers (which add BibTeX). */
extern const enum core_rep pages_offers[3];
extern const enum core_rep pages_paper_offers[4];

/*
 * Renders model as kind in the negotiated representation into the
 * response: Content-Type, Link rel=canonical (model's "url"), ETag, and
 * rel=next/prev from model's "pagination" (top level or under "papers").
 * Returns CORE_OK, or CORE_ESYS when a renderer failed (logged).
 */
enum core_err pages_respond(struct core_req *, enum pages_kind,
    const json_t *model);

/*
 * Reads ?page=: *page is 1 when absent.  CORE_EFAIL (core_req_fail(): a
 * 400 with a clear message) for anything but 1 to PAGES_MAX_PAGE; the
 * caller returns it.
 */
enum core_err pages_page_param(struct core_req *, long *page);

/*
 * The pagination object for page of total items: page, per_page,
 * total, pages, next, prev (absolute URLs or null).  path_query is the
 * list's path with its other parameters ("/researchers" or
 * "/researchers/5-x?sort=citations"); the page parameter is appended.
 * New reference.
 */
json_t *pages_pagination(const char *base, const char *path_query, long page,
    long long total);

/*
 * CORE_EFAIL (core_req_fail(): a 404 saying so) when page is beyond the
 * last page of a list of total items (page 1 of an empty list is fine),
 * CORE_OK otherwise.
 */
enum core_err pages_beyond_last(struct core_req *, long page, long long total);

/* ------------------------------------------------------------------ */
/* links.c: canonical paths and small helpers                          */
/* ------------------------------------------------------------------ */

/* Canonical paths: core's, so every module links to the same URLs. */
#define pages_paper_path       core_paper_path
#define pages_researcher_path  core_researcher_path
#define pages_institution_path core_institution_path
/* base + path; caller frees. */
/*
 * 1 when the request's path is canon.  canon is percent-encoded (an odd
 * slug), the request path decoded: compare decoded forms, or such a
 * page would redirect to itself forever.
 */
int pages_is_canon(const struct core_req *, const char *canon);
/* A 301 to path with the request's query string kept. */
void pages_redirect(struct core_req *, const char *path);
char *pages_abs(const char *base, const char *path);
/* A JSON string of base + path (new reference). */
json_t *pages_json_abs(const char *base, const char *path);
/*
 * The site-relative part of url when it starts with base ("/" for base
 * itself), else url.  Borrowed from url.
 */
const char *pages_rel(const char *base, const char *url);
/* 1 for a well-formed category code: [A-Za-z0-9.-]{1,32}. */
int pages_category_ok(const char *s);
/* A decimal id (1 to 18 digits) from s[0..n): 0 and *id, or -1. */
#define pages_parse_id core_id_parse

/* ------------------------------------------------------------------ */
/* resolve.c: identifiers typed where a page is expected               */
/* ------------------------------------------------------------------ */

enum pages_ident_kind {
	PAGES_IDENT_NONE,
	PAGES_IDENT_ARXIV,    /* value: "2512.20345", "math.GT/0309136" */
	PAGES_IDENT_DOI,      /* value: "10.1145/3597503.3639187" */
	PAGES_IDENT_ORCID,    /* value: "0000-0002-1825-0097" */
	PAGES_IDENT_OPENALEX, /* value: "A5023888391" */
	PAGES_IDENT_S2        /* value: "1741101" */
};
struct pages_ident {
	enum pages_ident_kind kind;
	char value[256];
};
/*
 * A whole search query that is an identifier: an arXiv id (any form, a
 * version, "arXiv:", an arxiv.org/abs or /pdf URL), a DOI ("doi:",
 * doi.org URL; 10.48550/arXiv.ID is the arXiv id) or an ORCID (bare,
 * "orcid:" or orcid.org URL, check digit right).  1 and *out set, or 0
 * (kind PAGES_IDENT_NONE).
 */
int pages_ident_query(const char *q, struct pages_ident *out);
/* A researcher path segment naming an external id: an ORCID,
 * "openalex:A…" or "s2:{digits}".  1 and *out set, or 0. */
int pages_ident_researcher(const char *rest, struct pages_ident *out);
/* A 301 to the page id names (*sent = 1) when weft has it; *sent = 0
 * and nothing sent otherwise. */
enum core_err pages_resolve(struct core_req *, const struct pages_ident *id,
    int *sent);

/* ------------------------------------------------------------------ */
/* metrics.c: the words of a researcher's metrics                      */
/* ------------------------------------------------------------------ */

/* "Figures from OpenAlex, as of 2026-12-01." for metrics.source and
 * metrics.as_of, or NULL when no source gave any.  Caller frees. */
char *pages_metrics_source(const json_t *metrics);
/* What the papers here say (metrics.here): citations summed, h-index and
 * the first-or-last-author h-index, and whose counts; NULL when no paper
 * here has a count.  Caller frees. */
char *pages_metrics_here(const json_t *metrics);

/* Members of a view-model object: core_json_text(), core_json_int(). */
#define pages_str core_json_text
#define pages_int core_json_int
/* 1 when member key is a JSON integer (a known metric). */
int pages_has_int(const json_t *o, const char *key);

/*
 * Appends s cut to at most max bytes at a word boundary (UTF-8 safe),
 * with "…" when cut.  Whitespace runs become one space.
 */
void pages_excerpt(struct core_buf *b, const char *s, size_t max);

/* ------------------------------------------------------------------ */
/* store.c: the page statements.  Five files talk to PostgreSQL:      */
/* store.c, search_store.c, evidence_store.c, similar_store.c and     */
/* vindex.c (the newest vector_index row).                            */
/* ------------------------------------------------------------------ */

/*
 * Each returns CORE_OK with a new reference in *out, CORE_ENOTFOUND, or
 * CORE_EDB (logged).  URLs inside are absolute, built on base.
 */

/* The paper with canonical arXiv id: every field, authors and versions. */
enum core_err pages_store_paper(struct core_db *, const char *base,
    const char *arxiv_id, json_t **out);
/* The newest PAGES_PER_PAGE papers as cards. */
enum core_err pages_store_latest(struct core_db *, const char *base,
    json_t **out);
/* {"papers":N,"researchers":N,"institutions":N} */
enum core_err pages_store_counts(struct core_db *, json_t **out);

/* The researcher row: id, name, name_key, slug, ids, metrics. */
enum core_err pages_store_researcher(struct core_db *, const char *base,
    long long id, json_t **out);

/* The researcher's papers: a page of cards and the total. */
enum pages_sort { PAGES_SORT_NEWEST, PAGES_SORT_CITATIONS, PAGES_SORT__MAX };
enum core_err pages_store_researcher_papers(struct core_db *, const char *base,
    long long id, enum pages_sort, const char *category, long page,
    json_t **items, long long *total);
/*
 * The side blocks of a researcher page, set into r: author_position,
 * fields, same_name, institutions, network, timeline.  rpath is the
 * researcher's canonical path (for the ?category= links).
 */
enum core_err pages_store_researcher_blocks(struct core_db *, const char *base,
    const char *rpath, json_t *r);

/* Institution by id (every field, researchers, recent papers). */
enum core_err pages_store_institution(struct core_db *, const char *base,
    long long id, json_t **out);
/* Institution lookups: *out is an array of {id,name,slug,...}. */
enum core_err pages_store_institution_by_ror(struct core_db *, const char *ror,
    json_t **out);
enum core_err pages_store_institutions_by_name(struct core_db *,
    const char *base, const char *name, json_t **out);

/* Directories: a page of rows and the total. */
enum core_err pages_store_researchers_page(struct core_db *, const char *base,
    long page, json_t **items, long long *total);
enum core_err pages_store_institutions_page(struct core_db *, const char *base,
    long page, json_t **items, long long *total);

/* ------------------------------------------------------------------ */
/* Handlers (paper.c, researcher.c, institution.c, directory.c,        */
/* home.c, static.c, errors.c)                                         */
/* ------------------------------------------------------------------ */

enum core_err pages_home(struct core_req *);
enum core_err pages_paper(struct core_req *);
enum core_err pages_researcher(struct core_req *);
enum core_err pages_institution(struct core_req *);
enum core_err pages_researchers(struct core_req *);
enum core_err pages_institutions(struct core_req *);
enum core_err pages_about(struct core_req *);
enum core_err pages_privacy(struct core_req *);
enum core_err pages_contact(struct core_req *);
enum core_err pages_developers(struct core_req *);
/* The catch-all: 404 in the negotiated representation. */
enum core_err pages_not_found(struct core_req *);
/* The module's html_error hook. */
void pages_html_error(struct core_req *, int status, const char *msg);

/* static.c: loads content_dir/NAME.md at init.  CORE_ESYS (logged). */
enum core_err pages_docs_load(struct pages_state *, const char *dir,
    const char *base);
void pages_docs_free(struct pages_state *);
/* The view model of a static page (new reference). */
json_t *pages_doc_model(const struct pages_state *, enum pages_doc,
    const char *base);

/* ------------------------------------------------------------------ */
/* Renderers                                                           */
/* ------------------------------------------------------------------ */

/*
 * Each appends the page to b; CORE_OK, or the writer's sticky error
 * (CORE_EINPUT: an unsafe value reached the writer).
 */
enum core_err pages_render_html(struct core_buf *b, const struct pages_page *);
enum core_err pages_render_md(struct core_buf *b, const struct pages_page *);
/* Papers only; CORE_EINPUT for any other kind. */
enum core_err pages_render_bib(struct core_buf *b, const struct pages_page *);
/* BibTeX-escapes s (braces, backslash, # $ % & _ ^ ~) into b. */
void pages_bib_escape(struct core_buf *b, const char *s);

/* layout.c: the page shell. */
struct pages_head {
	const char *title;       /* without " · weft" (NULL: site name) */
	const char *description; /* meta description (may be NULL) */
	const char *canonical;   /* absolute URL (may be NULL) */
	const char *og_type;     /* "website", "article", "profile" */
	const json_t *jsonld;    /* may be NULL */
	int bib;                 /* offer a BibTeX alternate */
	const char *main_class;  /* class of <main> */
	const char *feed;        /* the page's own RSS feed path (or NULL) */
};
/* Writes doctype, head, header and opens <main>. */
void pages_layout_open(struct core_html *, const struct pages_page *,
    const struct pages_head *);
/* Closes <main>, writes the footer, closes the document. */
void pages_layout_close(struct core_html *, const struct pages_page *);

/* Small HTML helpers shared by the renderers. */
void pages_h_open(struct core_html *, enum core_tag, const char *cls);
void pages_h_text(struct core_html *, enum core_tag, const char *cls,
    const char *text);
void pages_h_link(struct core_html *, const char *href, const char *cls,
    const char *text);
void pages_h_eyebrow(struct core_html *, const char *text);

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

/* The filters of a paper search; NULL / 0 when absent. */
struct pages_search_filter {
	const char *category;
	char from[11]; /* "YYYY-MM-DD" or "" */
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
/* "a b c" -> "a or b or c" appended to out. */
void pages_search_or(const char *words, struct core_buf *out);

/*
 * Splits text marked with U+E000 (start) and U+E001 (stop) into an
 * array of {"text": …} and {"text": …, "match": true} segments; stray
 * or unbalanced markers are dropped.  New reference.
 */
json_t *pages_search_marks(const char *s);

enum core_err pages_search(struct core_req *);

/* search_store.c: the search statements (the second store file). */
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
 * category facets *facets ([{"category","count"}]).  CORE_OK or
 * CORE_EDB (logged).
 */
enum core_err pages_search_store_papers(struct core_db *, const char *base,
    const struct pages_search_q *, json_t **items, long long *total,
    int *capped, json_t **facets);
/* Researchers or institutions by name: a page (n from offset) and the
 * total.  CORE_OK or CORE_EDB. */
enum core_err pages_search_store_researchers(struct core_db *, const char *base,
    const char *q, int n, long long offset, json_t **items, long long *total);
enum core_err pages_search_store_institutions(struct core_db *,
    const char *base, const char *q, int n, long long offset, json_t **items,
    long long *total);
/* With no type: the top n researchers and institutions among the close
 * matches (a word of the name like the query) and how many there are,
 * in one statement.  CORE_OK or CORE_EDB. */
enum core_err pages_search_store_few(struct core_db *, const char *base,
    const char *q, int n, json_t **researchers, long long *rtotal,
    json_t **institutions, long long *itotal);
/* The researchers (at most n) whose name is the query itself, most
 * papers first: the items of the search page's "exact_researchers". */
enum core_err pages_search_store_exact(struct core_db *, const char *base,
    const char *q, int n, json_t **items);

/* render_search.c */
void pages_render_search_html(struct core_html *, const struct pages_page *);
void pages_render_search_md(struct core_buf *, const struct pages_page *);

/* Helpers of render_html.c and render_md.c that render_search.c shares. */
void pages_html_authors(struct core_html *, const struct pages_page *,
    const json_t *authors, long long total);
void pages_html_date(struct core_html *, const char *iso);
void pages_html_category(struct core_html *, const char *code, int primary);
void pages_html_pager(struct core_html *, const struct pages_page *,
    const json_t *pagination);
/* "12,345" into buf (returned). */
const char *pages_html_num(char *buf, size_t sz, long long n);
void pages_md_authors(struct core_buf *, const json_t *authors,
    long long total);
void pages_md_pager(struct core_buf *, const json_t *pagination);

/* ------------------------------------------------------------------ */
/* evidence.c, evidence_store.c, render_evidence.c: "why these papers  */
/* are here" (the matcher's reasons), on the researcher page and at    */
/* /researchers/{id}-{slug}/evidence                                   */
/* ------------------------------------------------------------------ */

/* The words for a match_reason ("coauthors" ...); static storage. */
const char *pages_evidence_label(const char *reason);
/* 1 when a /researchers/ rest is "{id}[-slug]/evidence". */
int pages_evidence_route(const char *rest);
enum core_err pages_evidence(struct core_req *);
/*
 * Why the researcher (its "ids" and first-paper "seed") and a namesake
 * (its ids and seed) are two profiles: {why: "external_ids" | "evidence"
 * | "own_id" | "unrecorded", text, paper (the decisive paper or null),
 * score}.  Seeds are {reason, score, paper, order} or null; all
 * borrowed.  New reference.
 */
json_t *pages_evidence_apart(const json_t *ids, const json_t *self,
    const json_t *ns_ids, const json_t *ns_seed);
/*
 * Sets r's "evidence": {url, reasons [{reason, label, papers,
 * score_avg, score_min, coauthors?}], seed, namesakes {total, items
 * [{id, name, url, papers, ids, kept_apart}]}}.  r is a researcher
 * model (id, name_key, url, ids).  CORE_OK or CORE_EDB (logged).
 */
enum core_err pages_store_evidence_summary(struct core_db *, const char *base,
    json_t *r);
/*
 * A page of the researcher's authorships, newest first: {arxiv_id,
 * title, url, published, categories, position, name_as_written, reason,
 * label, score, shared_coauthors, shared_fields} into *items (new
 * reference) and their number *total.  CORE_OK or CORE_EDB.
 */
enum core_err pages_store_evidence_papers(struct core_db *, const char *base,
    long long id, long page, json_t **items, long long *total);
/* The summary block (model's "evidence"); compact: the researcher
 * page's rail, a few namesakes only. */
void pages_html_evidence_summary(struct core_html *, const struct pages_page *,
    const json_t *ev, int compact);
void pages_md_evidence_summary(struct core_buf *, const json_t *ev);
/* The evidence page. */
void pages_render_evidence_html(struct core_html *, const struct pages_page *);
void pages_render_evidence_md(struct core_buf *, const struct pages_page *);

/* ------------------------------------------------------------------ */
/* similar.c, similar_store.c, render_similar.c: "similar papers" on   */
/* every paper page and at /papers/{id}-{slug}/similar                 */
/* ------------------------------------------------------------------ */

/* How many similar papers a list shows. */
#define PAGES_SIMILAR_N 10

/* 1 when a /papers/ rest is "{arxiv-id}[vN][-slug]/similar". */
int pages_similar_route(const char *rest);
enum core_err pages_similar(struct core_req *);
/*
 * The papers nearest to paper_id (papers.id: the paper model's
 * "paper_id", so no look-up of its own) in the worker's semantic index
 * (pages_vectors()), best first, at most PAGES_SIMILAR_N, the paper
 * itself left out: cards {id (the arXiv id), arxiv_id, title, url,
 * score (cosine), published, categories, authors, ...} into *items (a
 * new reference, also on failure).  Without an index, or when the paper
 * is not in it, the list is empty and *notice (static storage) says
 * why; otherwise *notice is NULL.  CORE_OK or CORE_EDB (logged).
 */
enum core_err pages_store_similar(struct core_db *, const char *base,
    long long paper_id, json_t **items, const char **notice);
/* Sets the paper model m's "similar" and "similar_notice". */
enum core_err pages_similar_attach(struct core_db *, const char *base,
    json_t *m);
/* The section of the paper page (model's "similar"). */
void pages_html_similar_section(struct core_html *, const struct pages_page *,
    const json_t *m);
void pages_md_similar_section(struct core_buf *, const json_t *m);
/* The similar papers page. */
void pages_render_similar_html(struct core_html *, const struct pages_page *);
void pages_render_similar_md(struct core_buf *, const struct pages_page *);

#endif /* PAGES_H */
