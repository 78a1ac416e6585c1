/*
 * evidence/evidence.h -- what pages.so says about its matches: "why
 * these papers are here" (evidence*.c, render_evidence.c) and "similar
 * papers" (similar*.c, render_similar.c).  The researcher and paper
 * pages attach these sections to their models; render_html.c and
 * render_md.c render them through the functions below.
 */
#ifndef PAGES_EVIDENCE_H
#define PAGES_EVIDENCE_H

#include <jansson.h>

#include "core.h"
#include "pages.h"

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

#endif /* PAGES_EVIDENCE_H */
