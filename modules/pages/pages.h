/*
 * pages.h -- the pages module's private header: one section per file.
 *
 * A request goes: module.c routes it to a handler (paper.c, researcher.c,
 * ..., search/search.c, evidence/evidence.c, evidence/similar.c), the
 * handler negotiates, asks a store file (store.c, vindex.c or a
 * *_store.c) for data and builds ONE view model (a jansson object), and
 * pages_respond() (respond.c) hands the model to render.c, which picks
 * the renderer of its kind: render_html.c (with layout.c for the page
 * shell), render_md.c, search/render_search.c, evidence/render_*.c;
 * render_cite.c for BibTeX, RIS and CSL-JSON, or JSON (the model itself).  Renderers call
 * the shared pieces of parts.c and layout.c, never each other back.
 *
 * search/search.h and evidence/evidence.h declare those folders' parts.
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
/* An export of a researcher's list holds every paper (streamed: see
 * pages_respond_cite()); one of a search's results its first eight
 * pages (a ranking, not a set), said by X-Export-Limit. */
#define PAGES_EXPORT_ALL        (1LL << 62)
#define PAGES_SEARCH_EXPORT_MAX 192 /* eight pages */

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
	PAGES_CATEGORIES,   /* /categories */
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

/* The lists a paper export reads. */
enum pages_export {
	PAGES_EXPORT_RESEARCHER, /* key: the researcher's id */
	PAGES_EXPORT__MAX
};

/* The offers of ordinary pages, and of papers and lists of papers (which
 * add BibTeX, RIS and CSL-JSON). */
extern const enum core_rep pages_offers[3];
extern const enum core_rep pages_paper_offers[6];

/*
 * Renders model as kind in the negotiated representation into the
 * response: Content-Type, Link rel=canonical (model's "url"), ETag, and
 * rel=next/prev from model's "pagination" (top level or under "papers").
 * Returns CORE_OK, or CORE_ESYS when a renderer failed (logged).
 */
/*
 * A list of papers as citations in the negotiated representation (a
 * core_rep_is_cite() one): its headers (canonical url, alternates,
 * ETag while it fits in one piece), then pages_store_cite(what, key,
 * max) written as the rows come, leaving in pieces once long
 * (core_cite_open_resp()).
 */
enum core_err pages_respond_cite(struct core_req *, enum pages_export what,
    const char *key, long long max, const char *url);
enum core_err pages_respond(struct core_req *, enum pages_kind,
    const json_t *model);
/*
 * pages_respond() for a model just built, which it takes ownership of:
 * a NULL model (a json_pack that failed) is logged with what and gives
 * CORE_ESYS.
 */
enum core_err pages_respond_new(struct core_req *, enum pages_kind,
    json_t *model, const char *what);
/*
 * A page of its own below a subject's page (a researcher's evidence, a
 * paper's similar papers), at the subject's canonical path plus suffix:
 * a 301 there from any other spelling (or when moved), else the model
 * that model() builds for the subject at that URL (canon), answered with
 * pages_respond_new().  Takes ownership of subject and path.
 */
typedef enum core_err pages_sub_model(struct core_req *, json_t *subject,
    const char *canon, json_t **model);
enum core_err pages_respond_sub(struct core_req *, enum pages_kind,
    json_t *subject, char *path, const char *suffix, int moved,
    pages_sub_model *model);
/* Negotiates among pages_offers: CORE_OK, or the error to answer. */
enum core_err pages_negotiate(struct core_req *);

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
/* The same for a path the caller built: takes ownership of path. */
json_t *pages_json_abs_free(const char *base, char *path);
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
/* store.c, search/search_store.c, evidence/evidence_store.c,         */
/* evidence/similar_store.c and vindex.c (the newest vector_index     */
/* row).                                                              */
/* ------------------------------------------------------------------ */

/*
 * Each returns CORE_OK with a new reference in *out, CORE_ENOTFOUND, or
 * CORE_EDB (logged).  URLs inside are absolute, built on base.
 */

/* The LIMIT and OFFSET parameters of list page "page" (from 1). */
struct pages_window {
	char lim[16], off[24];
};
void pages_window(struct pages_window *, long page);

/* The paper with canonical arXiv id: every field, authors and versions. */
enum core_err pages_store_paper(struct core_db *, const char *base,
    const char *arxiv_id, json_t **out);
/* The newest PAGES_PER_PAGE papers as cards. */
enum core_err pages_store_latest(struct core_db *, const char *base,
    json_t **out);
/* {"papers":N,"researchers":N,"institutions":N} */
enum core_err pages_store_counts(struct core_db *, json_t **out);

/* The researcher row: id, name, name_key, slug, ids, metrics (a
 * source's figures; metrics.here comes with pages_store_researcher_blocks,
 * read once the request is known to be the page). */
enum core_err pages_store_researcher(struct core_db *, const char *base,
    long long id, json_t **out);

/* The researcher's papers: a page of cards and the total. */
enum pages_sort { PAGES_SORT_NEWEST, PAGES_SORT_CITATIONS, PAGES_SORT__MAX };
/*
 * An export: writes the papers of list what (key as it says) to c, at
 * most max of them, a chunk of rows per query.  CORE_EDB (logged) on
 * failure, with what was written so far left in c's buffer.
 */
enum core_err pages_store_cite(struct core_db *, enum pages_export what,
    const char *key, long long max, struct core_cite *c);
enum core_err pages_store_researcher_papers(struct core_db *, const char *base,
    long long id, enum pages_sort, const char *category, long page,
    json_t **items, long long *total);
/*
 * The side blocks of a researcher page, set into r: author_position,
 * fields, same_name, institutions, network, timeline, and metrics.here
 * into r's metrics.  rpath is the researcher's canonical path (for the
 * ?category= links).
 */
enum core_err pages_store_researcher_blocks(struct core_db *, const char *base,
    const char *rpath, json_t *r);

/*
 * Institution by id (every field, researchers, and page `page` of its
 * researchers' papers, newest first, PAGES_PER_PAGE a page, in
 * "recent_papers"); *npapers is the number of those papers.
 */
enum core_err pages_store_institution(struct core_db *, const char *base,
    long long id, long page, json_t **out, long long *npapers);
/* Institution lookups: *out is an array of {id,name,slug,...}. */
enum core_err pages_store_institution_by_ror(struct core_db *, const char *ror,
    json_t **out);
enum core_err pages_store_institutions_by_name(struct core_db *,
    const char *base, const char *name, json_t **out);

/*
 * Card authors [{name, id, url}] (url null when unmatched) from the
 * rows of {{CARD_AUTHOR_LIST}} ([[raw_name, id, slug]]).  New reference.
 */
json_t *pages_card_authors(const char *base, const json_t *rows);

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
/*
 * The years of an institution page's researcher item v (its links'
 * first_year and last_year): "2019–2024", "2024", "since 2019", "until
 * 2020", or "any year" when its links have none.  Caller frees.
 */
char *pages_link_years(const json_t *v);
/* The sentence saying which papers an institution page lists. */
extern const char pages_while_there[];
enum core_err pages_researchers(struct core_req *);
enum core_err pages_institutions(struct core_req *);
/* /about, /privacy, /contact, /developers: the document the path names. */
enum core_err pages_doc(struct core_req *);
/* The catch-all: 404 in the negotiated representation. */
enum core_err pages_not_found(struct core_req *);
/* The module's html_error hook. */
void pages_html_error(struct core_req *, int status, const char *msg);

/* static.c: loads content_dir/NAME.md at init.  CORE_ESYS (logged). */
enum core_err pages_docs_load(struct pages_state *, const char *dir,
    const char *base, const struct core_conf *conf);
void pages_docs_free(struct pages_state *);
/* The view model of a static page (new reference). */
json_t *pages_doc_model(const struct pages_state *, enum pages_doc,
    const char *base);

/* ------------------------------------------------------------------ */
/* Renderers                                                           */
/* ------------------------------------------------------------------ */

/*
 * render.c: the one per-kind dispatch.  Each appends the page to b;
 * CORE_OK, or the writer's sticky error (CORE_EINPUT: an unsafe value
 * reached the writer, or no model).
 */
enum core_err pages_render_html(struct core_buf *b, const struct pages_page *);
enum core_err pages_render_md(struct core_buf *b, const struct pages_page *);
/*
 * render_cite.c: a paper as a citation in rep (core_rep_is_cite());
 * CORE_EINPUT for any other kind or representation.  pages_render_bib()
 * is the BibTeX one.
 */
enum core_err pages_render_cite(struct core_buf *b, const struct pages_page *,
    enum core_rep rep);
enum core_err pages_render_bib(struct core_buf *b, const struct pages_page *);

/*
 * render_html.c and render_md.c: one function per kind, called by
 * render.c only.  The directory renderers serve both PAGES_RESEARCHERS
 * and PAGES_INSTITUTIONS (p->kind says which).
 */
void pages_html_home(struct core_html *, const struct pages_page *);
void pages_html_paper(struct core_html *, const struct pages_page *);
void pages_html_researcher(struct core_html *, const struct pages_page *);
void pages_html_institution(struct core_html *, const struct pages_page *);
void pages_html_directory(struct core_html *, const struct pages_page *);
void pages_html_doc(struct core_html *, const struct pages_page *);
void pages_html_choices(struct core_html *, const struct pages_page *);
void pages_html_error_page(struct core_html *, const struct pages_page *);
void pages_md_home(struct core_buf *, const struct pages_page *);
void pages_md_paper(struct core_buf *, const struct pages_page *);
void pages_md_researcher(struct core_buf *, const struct pages_page *);
void pages_md_institution(struct core_buf *, const struct pages_page *);
void pages_md_directory(struct core_buf *, const struct pages_page *);
void pages_md_doc(struct core_buf *, const struct pages_page *);
void pages_md_choices(struct core_buf *, const struct pages_page *);
void pages_md_error_page(struct core_buf *, const struct pages_page *);

/*
 * parts.c: the pieces every renderer shares (they call no renderer).
 */
/* "12,345" into buf (returned). */
const char *pages_num(char *buf, size_t sz, long long n);
/* "1 paper", "3 papers", "1,204 citations"; caller frees. */
char *pages_count_of(long long n, const char *one, const char *many);
/* "Co-authors through 3 papers with more than 100 authors are not
 * shown." for a co-author network that leaves such papers out (store.c,
 * blk_network), NULL when it leaves none; caller frees. */
char *pages_large_papers_note(const json_t *net);
/* A category code in monospace; the primary one marked. */
void pages_html_category(struct core_html *, const char *code, int primary);
/* An authors line: matched names linked, "N more authors" when total
 * exceeds the list. */
void pages_html_authors(struct core_html *, const struct pages_page *,
    const json_t *authors, long long total);
/*
 * A list of items: <ul class="cls"> and row(h, p, item) for each item,
 * each row writing its own <li>.
 */
void pages_html_list(struct core_html *, const struct pages_page *,
    const json_t *items, const char *cls,
    void (*row)(struct core_html *, const struct pages_page *, const json_t *));
/* Previous/next links (with these texts) and "page N of M"; nothing
 * for a single page. */
void pages_html_pager(struct core_html *, const struct pages_page *,
    const json_t *pagination, const char *prev_text, const char *next_text);
/*
 * A paper card c (a card of store.c): pages_html_card_head() opens
 * <li class="card"> and writes the linked title (title(h, c), or the
 * title's TeX as MathML for NULL) and the authors line;
 * pages_html_card_meta() opens the card's meta line and writes the
 * date, the arXiv id and the categories.  The caller adds what its
 * list shows (pages_html_citations(): "N citations" when known) and
 * pops both.
 */
void pages_html_card_head(struct core_html *, const struct pages_page *,
    const json_t *c, void (*title)(struct core_html *, const json_t *c));
void pages_html_card_meta(struct core_html *, const json_t *c);
void pages_html_citations(struct core_html *, const json_t *c);
/* The same two in markdown. */
void pages_md_authors(struct core_buf *, const json_t *authors,
    long long total);
void pages_md_pager(struct core_buf *, const json_t *pagination);
/* A paper card c as the start of a list item: "- [title](url) —
 * authors; date; arXiv id"; the caller adds the rest and the newline. */
void pages_md_card_head(struct core_buf *, const json_t *c);
/* Its "{sep}date; arXiv id" (no date, no sep). */
void pages_md_date_id(struct core_buf *, const json_t *c, const char *sep);
/* A list item of a researcher (people) or an institution v: its linked
 * name, papers and h-index, or country and researchers. */
void pages_md_name_row(struct core_buf *, const json_t *v, int people);
/*
 * The label of the i-th (from 0) entry of a paper's versions, ver its
 * "version": "v2" for 2, its text for a string, else "v<i+1>".  Written
 * into buf, or borrowed from ver.
 */
const char *pages_version_label(char *buf, size_t sz, const json_t *ver,
    size_t i);
/* The strings of array a as markdown text, sep between two entries. */
void pages_md_join(struct core_buf *, const json_t *a, const char *sep);
/*
 * The start of a markdown list item of v: "- [v's key](v's url)"; then,
 * when count is not NULL, " — N" of v's count and, when unit is not NULL,
 * " unit" ("units" unless N is 1).  The caller adds the rest and the
 * newline.
 */
void pages_md_link_row(struct core_buf *, const json_t *v, const char *key,
    const char *count, const char *unit);

/*
 * analysis.c: a paper's analysis (weft-harvest analyse).  Sets on the
 * paper view model o "analysed" and the keys summary, topics, novelty,
 * significance_score, paper_type, research_field (null until analysed)
 * and "analysis" ({model, analysed_at, significance_rationale,
 * paper_type_label} or null) from a (the statement's analysis column;
 * takes ownership).
 */
void pages_analysis_set(json_t *o, json_t *a);
/* The paper page's summary block; nothing when not analysed. */
void pages_html_analysis(struct core_html *, const json_t *m);
void pages_md_analysis(struct core_buf *, const json_t *m);
/* A card's type (a pill; "; type" in markdown), nothing without one. */
void pages_html_card_type(struct core_html *, const json_t *c);
void pages_md_card_type(struct core_buf *, const json_t *c);

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
	int noindex;             /* <meta name="robots" content="noindex"> */
	const json_t *meta;      /* [[name, content], ...]: more <meta name> */
};
/* Writes doctype, head, header and opens <main>. */
void pages_layout_open(struct core_html *, const struct pages_page *,
    const struct pages_head *);
/*
 * pages_layout_open() for a page with no og:type (so "website"), BibTeX
 * or feed of its own; every argument but h and p may be NULL.
 */
void pages_layout_page(struct core_html *, const struct pages_page *,
    const char *title, const char *description, const char *canonical,
    const json_t *jsonld, const char *main_class);
/*
 * pages_layout_page() for a page about one subject at the model's "url"
 * (a researcher's evidence, a paper's similar papers): then the eyebrow
 * and an <h1> of the subject's name (TeX when tex) linked to its page,
 * url.
 */
void pages_layout_subject(struct core_html *, const struct pages_page *,
    const char *title, const char *description, const char *main_class,
    const char *eyebrow, const char *url, const char *name, int tex);
/* Closes <main>, writes the footer, closes the document. */
void pages_layout_close(struct core_html *, const struct pages_page *);

/* Small HTML helpers shared by the renderers. */
void pages_h_open(struct core_html *, enum core_tag, const char *cls);
void pages_h_text(struct core_html *, enum core_tag, const char *cls,
    const char *text);
void pages_h_link(struct core_html *, const char *href, const char *cls,
    const char *text);
void pages_h_eyebrow(struct core_html *, const char *text);
/*
 * Feeds come in three formats whose URLs differ in the extension of the
 * path ("/rss/x.xml?q=a" -> "/rss/x.atom?q=a"): the path of the feed
 * whose RSS path is xml in fmt (caller frees); its visible links
 * ("RSS · Atom · JSON Feed", class cls); its lines in markdown ("- Atom:
 * [url](url)", absolute on base).
 */
char *pages_feed_path(const char *xml, enum core_feed_fmt fmt);
void pages_h_feed_links(struct core_html *, const char *xml, const char *cls);
void pages_md_feed_links(struct core_buf *, const char *base, const char *xml);
/* Opens the GET form of /search, class cls. */
void pages_h_search_open(struct core_html *, const char *cls);
/* The search form's field q (labelled, value may be NULL) and button. */
void pages_h_search_box(struct core_html *, const char *id, const char *value,
    const char *placeholder, const char *maxlength);
/* Opens <section class="block"> with its <h2 class="eyebrow">. */
void pages_h_block(struct core_html *, const char *eyebrow);

#endif /* PAGES_H */
