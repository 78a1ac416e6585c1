/*
 * render_search.c -- the search view model (search.c) to HTML and
 * markdown.  The page shell and the card pieces come from layout.c and
 * render_html.c through pages.h.  Highlights arrive as segments
 * ({"text"}, {"text","match":true}): each is written escaped, matches
 * inside <mark>, so nothing from the database is ever taken as markup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "search/search.h"

static const char *
rel(const struct pages_page *p, const char *url)
{
	return url != NULL ? pages_rel(p->base, url) : NULL;
}

/*
 * Writes one highlight segment, marked when it matched the query; out is
 * the writer's own (a struct core_html, a struct core_buf).
 */
typedef void seg_writer(void *out, const char *text, int match);

/* Segments through w; the fallback text, unmarked, when there are none. */
static void
walk_marked(const json_t *segs, const char *fallback, seg_writer *w, void *out)
{
	const json_t *s;
	size_t i;

	if (json_array_size(segs) == 0) {
		w(out, fallback != NULL ? fallback : "", 0);
		return;
	}
	json_array_foreach(segs, i, s)
	{
		w(out, pages_str(s, "text"),
		    json_is_true(json_object_get(s, "match")));
	}
}

/* ---------------------------------------------------------------- HTML */

/* A segment, a match in <mark>. */
static void
html_seg(void *out, const char *text, int match)
{
	struct core_html *h = out;

	/* Titles and abstracts are TeX; math cut by a mark stays literal. */
	if (match)
		core_html_elem(h, CORE_TAG_MARK, NULL);
	core_html_tex(h, text);
	if (match)
		core_html_pop(h);
}

static void
marked(struct core_html *h, const json_t *segs, const char *fallback)
{
	walk_marked(segs, fallback, html_seg, h);
}

static void
hidden(struct core_html *h, const char *name, const char *val)
{
	if (val == NULL || *val == '\0')
		return;
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ CORE_A(TYPE, "hidden"),
		CORE_A(NAME, name), CORE_A(VALUE, val), CORE_A_END });
}

static void
option(struct core_html *h, const char *val, const char *label, int sel)
{
	core_html_elemtext(h, CORE_TAG_OPTION,
	    (const struct core_attr[]){ CORE_A(VALUE, val),
		CORE_A(SELECTED, sel ? "" : NULL), CORE_A_END },
	    label);
}

static void
field(struct core_html *h, const char *id, const char *name, const char *label,
    const char *val, const char *ph)
{
	pages_h_open(h, CORE_TAG_DIV, "search-field");
	core_html_elemtext(h, CORE_TAG_LABEL,
	    (const struct core_attr[]){ CORE_A(FOR, id), CORE_A_END }, label);
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ CORE_A(ID, id), CORE_A(TYPE, "text"),
		CORE_A(NAME, name), CORE_A(VALUE, val), CORE_A(PLACEHOLDER, ph),
		CORE_A(MAXLENGTH, "32"), CORE_A_END });
	core_html_pop(h);
}

/*
 * A labelled <select> named name of the n values, labels[i] naming
 * values[i] (NULL labels: the values themselves), the one equal to cur
 * selected.  A non-NULL all first adds an option of that label with an
 * empty value, selected when cur is "all".
 */
static void
choice(struct core_html *h, const char *id, const char *name, const char *label,
    const char *all, const char *const *values, const char *const *labels,
    int n, const char *cur)
{
	int i;

	pages_h_open(h, CORE_TAG_DIV, "search-field");
	core_html_elemtext(h, CORE_TAG_LABEL,
	    (const struct core_attr[]){ CORE_A(FOR, id), CORE_A_END }, label);
	core_html_elem(h, CORE_TAG_SELECT,
	    (const struct core_attr[]){ CORE_A(ID, id), CORE_A(NAME, name),
		CORE_A_END });
	if (all != NULL)
		option(h, "", all, strcmp(cur, "all") == 0);
	for (i = 0; i < n; i++)
		option(h, values[i], labels != NULL ? labels[i] : values[i],
		    strcmp(cur, values[i]) == 0);
	core_html_pop(h);
	core_html_pop(h);
}

/* The modes as the form and the summary name them. */
static const char *const mode_labels[PAGES_SEARCH_MODE__MAX] = {
	"words and meaning (hybrid)",
	"words only (lexical)",
	"meaning only (semantic)",
};

/* The paper type <select>: any, or one of core_paper_types. */
static void
ptype_choice(struct core_html *h, const char *cur)
{
	const char *labels[16];
	int n;

	for (n = 0; core_paper_types[n] != NULL && n < 16; n++)
		labels[n] = core_paper_type_label(core_paper_types[n]);
	choice(h, "search-ptype", "paper_type", "Paper type", "Any type",
	    core_paper_types, labels, n, cur != NULL ? cur : "all");
}

/* The search form, the query echoed (escaped by the writer). */
static void
form(struct core_html *h, const json_t *m)
{
	const json_t *f = json_object_get(m, "filters");
	const char *type = pages_str(m, "search_type");
	const char *sort = pages_str(m, "sort");
	const char *mode = pages_str(m, "mode_requested");
	static const char *const scopes[2] = { "researcher", "institution" };
	char id[24];
	int i;

	if (mode == NULL)
		mode = "hybrid";
	if (type == NULL)
		type = "all";
	if (sort == NULL)
		sort = "relevance";
	pages_h_search_open(h, "search-form");
	pages_h_open(h, CORE_TAG_DIV, "hero-search");
	pages_h_search_box(h, "search-q", pages_str(m, "query"),
	    "Words of a title or abstract, a name", "512");
	core_html_pop(h);

	core_html_elem(h, CORE_TAG_DETAILS,
	    (const struct core_attr[]){ CORE_A(CLASS, "search-options"),
		CORE_A_END });
	core_html_elemtext(h, CORE_TAG_SUMMARY, NULL, "Filters and order");
	pages_h_open(h, CORE_TAG_DIV, "search-fields");
	choice(h, "search-type", "type", "Find", "Everything",
	    pages_search_types + 1, NULL, PAGES_SEARCH_TYPE__MAX - 1, type);
	choice(h, "search-sort", "sort", "Order papers by", NULL,
	    pages_search_sorts, NULL, PAGES_SEARCH_SORT__MAX, sort);
	choice(h, "search-mode", "mode", "Match papers by", NULL,
	    pages_search_modes, mode_labels, PAGES_SEARCH_MODE__MAX, mode);
	field(h, "search-category", "category", "Category",
	    pages_str(f, "category"), "cs.SE");
	ptype_choice(h, pages_str(f, "paper_type"));
	field(h, "search-from", "from", "From", pages_str(f, "from"),
	    "YYYY or YYYY-MM-DD");
	field(h, "search-to", "to", "To", pages_str(f, "to"),
	    "YYYY or YYYY-MM-DD");
	for (i = 0; i < 2; i++)
		if (pages_has_int(f, scopes[i])) {
			snprintf(id, sizeof(id), "%lld",
			    pages_int(f, scopes[i], 0));
			hidden(h, scopes[i], id);
		}
	core_html_pop(h); /* search-fields */
	core_html_pop(h); /* details */
	core_html_pop(h); /* form */
}

/*
 * A link to the URL urls gives for key, labelled label, with
 * aria-current=current when key is cur (which may be NULL).
 */
static void
switch_link(struct core_html *h, const struct pages_page *p, const json_t *urls,
    const char *key, const char *label, const char *cur, const char *current)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, rel(p, pages_str(urls, key))),
		CORE_A(ARIA_CURRENT,
		    cur != NULL && strcmp(cur, key) == 0 ? current : NULL),
		CORE_A_END },
	    label);
}

/*
 * <p class=cls>lead, then a link to each of the n keys (labels[i]
 * naming keys[i]) separated by " · ", the one equal to cur current.
 */
static void
switch_line(struct core_html *h, const struct pages_page *p, const char *cls,
    const char *lead, const json_t *urls, const char *const *keys,
    const char *const *labels, int n, const char *cur)
{
	int i;

	core_html_elem(h, CORE_TAG_P,
	    (const struct core_attr[]){ CORE_A(CLASS, cls), CORE_A_END });
	core_html_text(h, lead);
	for (i = 0; i < n; i++) {
		if (i > 0)
			core_html_text(h, " · ");
		switch_link(h, p, urls, keys[i], labels[i], cur, "true");
	}
	core_html_pop(h);
}

static void
tabs(struct core_html *h, const struct pages_page *p, const json_t *m)
{
	static const char *const labels[PAGES_SEARCH_TYPE__MAX] = {
		"Everything", "Papers", "Researchers", "Institutions"
	};
	const json_t *urls = json_object_get(m, "type_urls");
	const char *cur = pages_str(m, "search_type");
	int i;

	core_html_elem(h, CORE_TAG_NAV,
	    (const struct core_attr[]){ CORE_A(CLASS, "search-tabs"),
		CORE_A(ARIA_LABEL, "What to find"), CORE_A_END });
	for (i = 0; i < PAGES_SEARCH_TYPE__MAX; i++) {
		const char *key = i == 0 ? "all" : pages_search_types[i];

		switch_link(h, p, urls, key, labels[i], cur, "page");
	}
	core_html_pop(h);
}

/* The ranking links, and the notice of a fallback to lexical search. */
static void
modes(struct core_html *h, const struct pages_page *p, const json_t *m)
{
	const json_t *urls = json_object_get(m, "mode_urls");
	const char *used = pages_str(m, "mode");

	if (pages_str(m, "notice") != NULL)
		pages_h_text(h, CORE_TAG_P, "search-notice",
		    pages_str(m, "notice"));
	switch_line(h, p, "search-modes faint", "Match by: ", urls,
	    pages_search_modes, mode_labels, PAGES_SEARCH_MODE__MAX, used);
}

/* "1,234 papers", the sort links, the active filters. */
/*
 * "Follow this search" (and its category): links to the accounts
 * module's confirmation form, the same for everyone, so the page stays
 * one cached copy (signed out, the form asks to sign in first).
 */
/* "/account/follows/new?kind=search&q=…[&category=…]" into u. */
static void
follow_url(struct core_buf *u, const char *q, const char *cat)
{
	core_buf_puts(u, "/account/follows/new?kind=search&q=");
	core_url_encode(u, q, 0);
	if (cat != NULL) {
		core_buf_puts(u, "&category=");
		core_url_encode(u, cat, 0);
	}
}

/* "/account/follows/new?kind=category&category=…" into u. */
static void
follow_category_url(struct core_buf *u, const char *cat)
{
	core_buf_puts(u, "/account/follows/new?kind=category&category=");
	core_url_encode(u, cat, 0);
}

/*
 * The browse page's "Follow new papers in cs.DB": the accounts module's
 * button through the SSI slot when signed in (follow or unfollow), the
 * confirmation form's link otherwise, so the page stays one copy.
 */
static void
follow_category(struct core_html *h, const char *cat)
{
	struct core_buf u = CORE_BUF_INIT;
	char *ssi, *label;

	ssi = core_xasprintf("/account/follow/category/%s", cat);
	label = core_xasprintf("Follow new papers in %s", cat);
	follow_category_url(&u, cat);
	pages_h_open(h, CORE_TAG_DIV, "follow search-follow");
	core_html_ssi_if_signed_in(h, ssi);
	pages_h_link(h, core_buf_cstr(&u), "button button-primary", label);
	core_html_ssi_endif(h);
	core_html_pop(h);
	core_buf_free(&u);
	free(label);
	free(ssi);
}

static void
follow_line(struct core_html *h, const json_t *m)
{
	const char *q = pages_str(m, "query");
	const char *cat = pages_str(json_object_get(m, "filters"), "category");
	struct core_buf u = CORE_BUF_INIT;
	char *label = NULL;

	if ((q == NULL || *q == '\0') && cat != NULL &&
	    json_is_true(json_object_get(m, "browse"))) {
		follow_category(h, cat);
		return;
	}
	if (q == NULL || *q == '\0')
		return;
	pages_h_open(h, CORE_TAG_P, "search-follow faint");
	follow_url(&u, q, cat);
	pages_h_link(h, core_buf_cstr(&u), NULL, "Follow this search");
	if (cat != NULL) {
		core_buf_reset(&u);
		follow_category_url(&u, cat);
		core_html_text(h, " · ");
		free(label);
		label = core_xasprintf("Follow new papers in %s", cat);
		pages_h_link(h, core_buf_cstr(&u), NULL, label);
	}
	core_html_pop(h);
	core_buf_free(&u);
	free(label);
}

/* " (remove)": a filter's link to the same search without it. */
static void
remove_link(struct core_html *h, const struct pages_page *p, const char *url)
{
	core_html_text(h, " (");
	pages_h_link(h, rel(p, url), NULL, "remove");
	core_html_text(h, ")");
}

/* " by this researcher", linked to the page of the filter's id, if set. */
static void
id_filter(struct core_html *h, const json_t *f, const char *key,
    const char *lead, const char *dir, const char *text)
{
	char *u;

	if (!pages_has_int(f, key))
		return;
	u = core_xasprintf("%s%lld", dir, pages_int(f, key, 0));
	core_html_text(h, lead);
	pages_h_link(h, u, NULL, text);
	free(u);
}

static void
summary(struct core_html *h, const struct pages_page *p, const json_t *m)
{
	const json_t *f = json_object_get(m, "filters");
	const json_t *sorts = json_object_get(m, "sort_urls");
	const char *type = pages_str(m, "search_type"), *sort;
	const char *noun = "papers";
	char num[32];

	if (type != NULL && strcmp(type, "researchers") == 0)
		noun = "researchers";
	else if (type != NULL && strcmp(type, "institutions") == 0)
		noun = "institutions";
	pages_h_open(h, CORE_TAG_DIV, "search-summary");
	pages_h_open(h, CORE_TAG_P, "soft");
	sort = pages_str(m, "sort");
	if (json_is_true(json_object_get(m, "total_capped")))
		/* What the order is among a capped set (search_store.c:
		 * the newest all-words matches, with the semantic index's
		 * nearest when ranking by relevance). */
		core_html_textf(h, "More than %s %s match%s",
		    pages_num(num, sizeof(num), pages_int(m, "total", 0)), noun,
		    sort != NULL && strcmp(sort, "newest") == 0
			? ", newest first."
			: sort != NULL && strcmp(sort, "citations") == 0
			? "; the most cited among the newest matches are "
			  "shown first. Add words or filters to narrow the "
			  "search."
			: "; the most relevant among the newest matches, and "
			  "those closest in meaning, are shown first. Add "
			  "words or filters to narrow the search.");
	else
		core_html_textf(h, "%s %s",
		    pages_num(num, sizeof(num), pages_int(m, "total", 0)),
		    pages_int(m, "total", 0) == 1
			? (strcmp(noun, "papers") == 0 ? "paper"
				  : strcmp(noun, "researchers") == 0
				  ? "researcher"
				  : "institution")
			: noun);
	core_html_pop(h);
	if (strcmp(noun, "papers") == 0) {
		sort = pages_str(m, "sort");
		switch_line(h, p, "search-sorts faint", "Order: ", sorts,
		    pages_search_sorts, pages_search_sorts,
		    PAGES_SEARCH_SORT__MAX, sort);
		modes(h, p, m);
		follow_line(h, m);
	}
	if (pages_str(f, "category") != NULL ||
	    pages_str(f, "paper_type") != NULL ||
	    pages_str(f, "from") != NULL || pages_str(f, "to") != NULL ||
	    pages_has_int(f, "researcher") || pages_has_int(f, "institution")) {
		pages_h_open(h, CORE_TAG_P, "search-filters faint");
		core_html_text(h, "Filtered:");
		if (pages_str(f, "category") != NULL) {
			core_html_text(h, " category ");
			pages_html_category(h, pages_str(f, "category"), 0);
			remove_link(h, p, pages_str(m, "unfiltered_url"));
		}
		if (pages_str(f, "paper_type") != NULL) {
			core_html_text(h, " type ");
			core_html_text(h,
			    core_paper_type_label(pages_str(f, "paper_type")));
			remove_link(h, p,
			    pages_str(m, "paper_type_unfiltered_url"));
		}
		if (pages_str(f, "from") != NULL) {
			core_html_text(h, " from ");
			core_html_date(h, pages_str(f, "from"));
		}
		if (pages_str(f, "to") != NULL) {
			core_html_text(h, " to ");
			core_html_date(h, pages_str(f, "to"));
		}
		id_filter(h, f, "researcher", " by ", "/researchers/",
		    "this researcher");
		id_filter(h, f, "institution", " at ", "/institutions/",
		    "this institution");
		core_html_pop(h);
	}
	core_html_pop(h);
}

/* A card's title with the query's words marked. */
static void
card_title(struct core_html *h, const json_t *c)
{
	marked(h, json_object_get(c, "title_marks"), pages_str(c, "title"));
}

static void
paper_card(struct core_html *h, const struct pages_page *p, const json_t *c)
{
	pages_html_card_head(h, p, c, card_title);
	if (json_array_size(json_object_get(c, "snippet")) > 0) {
		pages_h_open(h, CORE_TAG_P, "card-snippet soft");
		marked(h, json_object_get(c, "snippet"), NULL);
		core_html_pop(h);
	}
	pages_html_card_meta(h, c);
	pages_html_citations(h, c);
	if (pages_str(c, "match") != NULL &&
	    strcmp(pages_str(c, "match"), "any") == 0)
		pages_h_text(h, CORE_TAG_SPAN, "faint",
		    "matches some of the words");
	core_html_pop(h);
	core_html_pop(h);
}

/* One researcher or institution row. */
static void
name_row(struct core_html *h, const struct pages_page *p, const json_t *v)
{
	const char *t = pages_str(v, "type");
	char num[32];

	core_html_elem(h, CORE_TAG_LI, NULL);
	pages_h_link(h, rel(p, pages_str(v, "url")), NULL,
	    pages_str(v, "name"));
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ CORE_A(CLASS, "faint"), CORE_A_END });
	if (t != NULL && strcmp(t, "researcher") == 0) {
		core_html_textf(h, " · %s paper%s",
		    pages_num(num, sizeof(num), pages_int(v, "papers", 0)),
		    pages_int(v, "papers", 0) == 1 ? "" : "s");
		if (pages_has_int(v, "h_index"))
			core_html_textf(h, " · h-index %lld",
			    pages_int(v, "h_index", 0));
	} else {
		if (pages_str(v, "country") != NULL)
			core_html_textf(h, " · %s", pages_str(v, "country"));
		core_html_textf(h, " · %s researcher%s",
		    pages_num(num, sizeof(num), pages_int(v, "researchers", 0)),
		    pages_int(v, "researchers", 0) == 1 ? "" : "s");
	}
	core_html_pop(h);
	core_html_pop(h);
}

/* Researchers named as the query: before everything else. */
static void
exact(struct core_html *h, const struct pages_page *p, const json_t *items)
{
	size_t n = json_array_size(items);

	if (n == 0)
		return;
	pages_h_block(h,
	    n == 1 ? "Researcher with this name"
		   : "Researchers with this name");
	pages_html_list(h, p, items, "rows", name_row);
	core_html_pop(h);
}

/* "about " before a block's total when it is an estimate. */
static const char *
about(const json_t *blk)
{
	return json_is_true(json_object_get(blk, "total_estimated")) ? "about "
								     : "";
}

/* The top few researchers or institutions beside the papers. */
static void
few(struct core_html *h, const struct pages_page *p, const json_t *blk,
    const char *label)
{
	char num[32];
	char *more;

	if (!json_is_object(blk) || pages_int(blk, "total", 0) == 0)
		return;
	pages_h_block(h, label);
	pages_html_list(h, p, json_object_get(blk, "items"), "rows", name_row);
	/* The total counts close matches (or estimates them); the link
	 * lists looser ones too. */
	if (pages_int(blk, "total", 0) >
	    (long long)json_array_size(json_object_get(blk, "items")))
		more = core_xasprintf("all %s%s close matches and similar %s →",
		    about(blk),
		    pages_num(num, sizeof(num), pages_int(blk, "total", 0)),
		    label);
	else
		more = core_xasprintf("similar %s →", label);
	pages_h_link(h, rel(p, pages_str(blk, "url")), "caption", more);
	free(more);
	core_html_pop(h);
}

/*
 * When more papers match than a search ranks (total_capped), the facet
 * counts are over the papers found, not every match: counting every
 * match of a common word is what a search bounded at any corpus size
 * must not do (search_store.c).
 */
#define FACETS_PARTIAL                                                         \
	"Counts are among the papers found, not every match: add words or "    \
	"filters to narrow the search."

static int
facets_partial(const json_t *m)
{
	return json_is_true(json_object_get(m, "total_capped")) &&
	    (json_array_size(json_object_get(m, "facets")) > 0 ||
		json_array_size(json_object_get(m, "paper_type_facets")) > 0);
}

/*
 * A facet block: under title, a link to each facet of fs with its count,
 * its text the facet's key (a class on the link, NULL for none).
 */
static void
facets(struct core_html *h, const struct pages_page *p, const json_t *fs,
    const char *title, const char *key, const char *cls)
{
	const json_t *f;
	char num[32];
	size_t i;

	if (json_array_size(fs) == 0)
		return;
	pages_h_block(h, title);
	pages_h_open(h, CORE_TAG_UL, "plain facets");
	json_array_foreach(fs, i, f)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){
			CORE_A(HREF, rel(p, pages_str(f, "url"))),
			CORE_A(CLASS, cls),
			CORE_A(ARIA_CURRENT,
			    json_is_true(json_object_get(f, "current")) ? "true"
									: NULL),
			CORE_A_END },
		    pages_str(f, key));
		pages_h_text(h, CORE_TAG_SPAN, "faint",
		    pages_num(num, sizeof(num), pages_int(f, "count", 0)));
		core_html_pop(h);
	}
	core_html_pop(h);
	core_html_pop(h);
}

static void
suggest(struct core_html *h, const struct pages_page *p, const json_t *m)
{
	const json_t *v;
	size_t i;

	pages_h_block(h, "try");
	pages_h_open(h, CORE_TAG_UL, "plain");
	json_array_foreach(json_object_get(m, "suggestions"), i, v)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, rel(p, pages_str(v, "url")), NULL,
		    pages_str(v, "query"));
		core_html_pop(h);
	}
	core_html_pop(h);
	pages_h_text(h, CORE_TAG_P, "caption",
	    "All words rank first, then papers with some of them. Use "
	    "\"quotes\" for a phrase, -word to leave a word out and or "
	    "between alternatives. Names find researchers and institutions, "
	    "accents and small typos forgiven.");
	pages_h_open(h, CORE_TAG_P, "caption");
	core_html_text(h, "Or browse the ");
	pages_h_link(h, "/researchers", NULL, "researchers");
	core_html_text(h, " and ");
	pages_h_link(h, "/institutions", NULL, "institutions");
	core_html_text(h, ".");
	core_html_pop(h);
	core_html_pop(h);
}

/* 1 when the search is for researchers or institutions, not papers. */
static int
for_people(const char *type)
{
	return type != NULL &&
	    (strcmp(type, "researchers") == 0 ||
		strcmp(type, "institutions") == 0);
}

void
pages_render_search_html(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model;
	const char *q = pages_str(m, "query");
	const char *type = pages_str(m, "search_type");
	const char *feed = pages_str(m, "feed");
	int people = for_people(type);
	int browse = json_is_true(json_object_get(m, "browse"));
	struct pages_head hd;

	memset(&hd, 0, sizeof(hd));
	hd.title = pages_str(m, "title");
	hd.description = "Search arXiv papers, researchers and institutions "
			 "on weft.";
	hd.canonical = pages_str(m, "url");
	hd.main_class = "wrap search";
	hd.feed = feed;
	pages_layout_open(h, p, &hd);
	pages_h_eyebrow(h, "search");
	if (feed != NULL) {
		pages_h_open(h, CORE_TAG_P, "feed-link");
		core_html_text(h, "Follow in a feed reader: ");
		pages_h_feed_links(h, feed, NULL);
		core_html_pop(h);
	}
	if ((q == NULL || *q == '\0') && !browse) {
		pages_h_text(h, CORE_TAG_H1, NULL, "Search the archive");
		form(h, m);
		suggest(h, p, m);
		pages_layout_close(h, p);
		return;
	}
	if (browse)
		pages_h_text(h, CORE_TAG_H1, NULL, pages_str(m, "title"));
	else {
		core_html_elem(h, CORE_TAG_H1, NULL);
		core_html_text(h, "Results for “");
		core_html_text(h, q);
		core_html_text(h, "”");
		core_html_pop(h);
	}
	form(h, m);
	tabs(h, p, m);
	summary(h, p, m);
	pages_h_open(h, CORE_TAG_DIV, "search-body");
	pages_h_open(h, CORE_TAG_DIV, "search-results");
	exact(h, p, json_object_get(m, "exact_researchers"));
	if (json_array_size(json_object_get(m, "results")) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    "Nothing matches. Try fewer or other words, or remove a "
		    "filter.");
	else if (people)
		pages_html_list(h, p, json_object_get(m, "results"), "rows",
		    name_row);
	else {
		pages_html_list(h, p, json_object_get(m, "results"), "cards",
		    paper_card);
	}
	pages_html_pager(h, p, json_object_get(m, "pagination"), "← previous",
	    "next →");
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_ASIDE, "search-side");
	few(h, p, json_object_get(m, "researchers"), "researchers");
	few(h, p, json_object_get(m, "institutions"), "institutions");
	facets(h, p, json_object_get(m, "facets"), "categories", "category",
	    "mono");
	facets(h, p, json_object_get(m, "paper_type_facets"), "paper types",
	    "label", NULL);
	if (facets_partial(m))
		pages_h_text(h, CORE_TAG_P, "caption", FACETS_PARTIAL);
	core_html_pop(h);
	core_html_pop(h);
	pages_layout_close(h, p);
}

/* ---------------------------------------------------------------- markdown */

/* A segment as markdown, a match in bold. */
static void
md_seg(void *out, const char *text, int match)
{
	struct core_buf *b = out;

	if (match)
		core_buf_puts(b, "**");
	core_md_text(b, text);
	if (match)
		core_buf_puts(b, "**");
}

static void
md_marked(struct core_buf *b, const json_t *segs, const char *fallback)
{
	walk_marked(segs, fallback, md_seg, b);
}

static void
md_paper(struct core_buf *b, const json_t *c)
{
	const json_t *v;
	size_t i;

	pages_md_card_head(b, c);
	json_array_foreach(json_object_get(c, "categories"), i, v)
	{
		core_buf_puts(b, i == 0 ? "; " : ", ");
		core_md_text(b, json_string_value(v));
	}
	if (pages_has_int(c, "citation_count"))
		core_buf_printf(b, "; %lld citation%s",
		    pages_int(c, "citation_count", 0),
		    pages_int(c, "citation_count", 0) == 1 ? "" : "s");
	if (pages_str(c, "match") != NULL &&
	    strcmp(pages_str(c, "match"), "any") == 0)
		core_buf_puts(b, "; matches some of the words");
	core_buf_putc(b, '\n');
	if (json_array_size(json_object_get(c, "snippet")) > 0) {
		core_buf_puts(b, "  ");
		md_marked(b, json_object_get(c, "snippet"), NULL);
		core_buf_putc(b, '\n');
	}
}

static void
md_name(struct core_buf *b, const json_t *v)
{
	const char *t = pages_str(v, "type");

	pages_md_name_row(b, v, t != NULL && strcmp(t, "researcher") == 0);
}

static void
md_few(struct core_buf *b, const json_t *blk, const char *label)
{
	const json_t *v;
	size_t i;

	if (!json_is_object(blk) || pages_int(blk, "total", 0) == 0)
		return;
	core_buf_printf(b, "\n## %s (%s%lld close match%s)\n\n", label,
	    about(blk), pages_int(blk, "total", 0),
	    pages_int(blk, "total", 0) == 1 ? "" : "es");
	json_array_foreach(json_object_get(blk, "items"), i, v) md_name(b, v);
	core_buf_puts(b, "\nAll of them and similar names: ");
	core_md_link(b, pages_str(blk, "url"), pages_str(blk, "url"));
	core_buf_putc(b, '\n');
}

/*
 * "\n- Label: value": the head's list items each start a line, the
 * filters' below (md_filter()) each end one.
 */
static void
md_item(struct core_buf *b, const char *label, const char *value)
{
	core_buf_printf(b, "\n- %s: ", label);
	core_md_text(b, value);
}

/* "- Label: value\n" when the filter key is set. */
static void
md_filter(struct core_buf *b, const json_t *f, const char *key,
    const char *label)
{
	if (pages_str(f, key) == NULL)
		return;
	core_buf_printf(b, "- %s: ", label);
	core_md_text(b, pages_str(f, key));
	core_buf_putc(b, '\n');
}

void
pages_render_search_md(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model, *v, *f = json_object_get(m, "filters");
	const char *q = pages_str(m, "query");
	const char *type = pages_str(m, "search_type");
	int people = for_people(type);
	int browse = json_is_true(json_object_get(m, "browse"));
	size_t i;
	char *u;

	if ((q == NULL || *q == '\0') && !browse) {
		core_md_heading(b, 1, "Search");
		u = pages_abs(p->base, "/search?q=");
		core_buf_puts(b,
		    "Search papers (full text: title, authors, "
		    "abstract), researchers and institutions "
		    "(by name): ");
		core_md_link(b, u, u);
		free(u);
		core_buf_puts(b,
		    "{words}\n\nParameters: type=papers|researchers|"
		    "institutions, sort=relevance|newest|citations, "
		    "mode=hybrid|lexical|semantic (words and meaning, the "
		    "default; words only; meaning only), "
		    "category, paper_type=empirical|method|system|benchmark|"
		    "survey|theory|position, "
		    "from and to (YYYY or YYYY-MM-DD), researcher, "
		    "institution (ids), page.  \"quotes\" make a phrase, "
		    "-word leaves a word out, or joins alternatives.\n\n"
		    "## Examples\n\n");
		json_array_foreach(json_object_get(m, "suggestions"), i, v)
		{
			pages_md_link_row(b, v, "query", NULL, NULL);
			core_buf_putc(b, '\n');
		}
		return;
	}
	core_md_heading(b, 1, pages_str(m, "title"));
	core_buf_puts(b, "- URL: ");
	core_md_link(b, pages_str(m, "url"), pages_str(m, "url"));
	if (pages_str(m, "feed") != NULL) {
		core_buf_putc(b, '\n');
		pages_md_feed_links(b, p->base, pages_str(m, "feed"));
		/* The lines below start with a line break of their own. */
		b->len--;
		b->ptr[b->len] = '\0';
	}
	if (!browse)
		md_item(b, "Query", q);
	md_item(b, "Type", type);
	md_item(b, "Order", pages_str(m, "sort"));
	if (pages_str(m, "mode") != NULL)
		md_item(b, "Match by", pages_str(m, "mode"));
	if (pages_str(m, "notice") != NULL)
		md_item(b, "Notice", pages_str(m, "notice"));
	core_buf_printf(b, "\n- Results: %s%lld\n",
	    json_is_true(json_object_get(m, "total_capped")) ? "more than "
							     : "",
	    pages_int(m, "total", 0));
	if (!people && (!browse || pages_str(f, "category") != NULL)) {
		/* As the HTML's "Follow this search" (follow_line()), or
		 * when browsing, "Follow new papers in cs.DB". */
		struct core_buf fu = CORE_BUF_INIT;

		if (browse)
			follow_category_url(&fu, pages_str(f, "category"));
		else
			follow_url(&fu, q, pages_str(f, "category"));
		u = pages_abs(p->base, core_buf_cstr(&fu));
		core_buf_puts(b,
		    browse ? "- Follow this category (signed in): "
			   : "- Follow this search (signed in): ");
		core_md_link(b, u, u);
		core_buf_putc(b, '\n');
		free(u);
		core_buf_free(&fu);
	}
	md_filter(b, f, "category", "Category");
	md_filter(b, f, "paper_type", "Paper type");
	md_filter(b, f, "from", "From");
	md_filter(b, f, "to", "To");
	if (pages_has_int(f, "researcher"))
		core_buf_printf(b, "- Researcher: %lld\n",
		    pages_int(f, "researcher", 0));
	if (pages_has_int(f, "institution"))
		core_buf_printf(b, "- Institution: %lld\n",
		    pages_int(f, "institution", 0));
	if (json_array_size(json_object_get(m, "exact_researchers")) > 0) {
		core_buf_puts(b, "\n## Researchers with this name\n\n");
		json_array_foreach(json_object_get(m, "exact_researchers"), i,
		    v) md_name(b, v);
	}
	core_buf_printf(b, "\n## %s\n\n",
	    people ? (strcmp(type, "researchers") == 0 ? "Researchers"
						       : "Institutions")
		   : "Papers");
	if (json_array_size(json_object_get(m, "results")) == 0)
		core_buf_puts(b, "Nothing matches.\n");
	json_array_foreach(json_object_get(m, "results"), i, v)
	{
		if (people)
			md_name(b, v);
		else
			md_paper(b, v);
	}
	pages_md_pager(b, json_object_get(m, "pagination"));
	if (json_array_size(json_object_get(m, "facets")) > 0) {
		core_buf_puts(b, "\n## Categories\n\n");
		json_array_foreach(json_object_get(m, "facets"), i, v)
		{
			pages_md_link_row(b, v, "category", "count", NULL);
			core_buf_putc(b, '\n');
		}
	}
	if (json_array_size(json_object_get(m, "paper_type_facets")) > 0) {
		core_buf_puts(b, "\n## Paper types\n\n");
		json_array_foreach(json_object_get(m, "paper_type_facets"), i,
		    v)
		{
			pages_md_link_row(b, v, "label", "count", NULL);
			core_buf_putc(b, '\n');
		}
	}
	if (facets_partial(m))
		core_buf_puts(b, "\n" FACETS_PARTIAL "\n");
	md_few(b, json_object_get(m, "researchers"), "Researchers");
	md_few(b, json_object_get(m, "institutions"), "Institutions");
}
