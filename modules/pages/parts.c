/*
 * parts.c -- the pieces of a page that every renderer shares: numbers,
 * author lines, categories and pagers, in HTML and in markdown.  The
 * renderers (render_html.c, render_md.c, search/, evidence/) call these;
 * nothing here calls a renderer, so the dependencies run one way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

const char *
pages_num(char *buf, size_t sz, long long n)
{
	char tmp[32];
	size_t len, i, o = 0;
	int neg = n < 0;

	snprintf(tmp, sizeof(tmp), "%lld", neg ? -n : n);
	len = strlen(tmp);
	if (neg && o < sz - 1)
		buf[o++] = '-';
	for (i = 0; i < len && o < sz - 1; i++) {
		if (i > 0 && (len - i) % 3 == 0 && o < sz - 1)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

char *
pages_count_of(long long n, const char *one, const char *many)
{
	char num[32];

	return core_xasprintf("%s %s", pages_num(num, sizeof(num), n),
	    n == 1 ? one : many);
}

char *
pages_large_papers_note(const json_t *net)
{
	long long n = pages_int(net, "large_papers_left_out", 0);
	char *papers, *s;

	if (n <= 0)
		return NULL;
	papers = pages_count_of(n, "paper", "papers");
	s = core_xasprintf("Co-authors through %s with more than %lld authors "
			   "are not shown.",
	    papers, pages_int(net, "large_papers_authors_over", 0));
	free(papers);
	return s;
}

const char *
pages_version_label(char *buf, size_t sz, const json_t *ver, size_t i)
{
	if (json_is_string(ver))
		return json_string_value(ver);
	if (json_is_integer(ver))
		snprintf(buf, sz, "v%lld", (long long)json_integer_value(ver));
	else
		snprintf(buf, sz, "v%zu", i + 1);
	return buf;
}

/* ---------------------------------------------------------------- HTML */

void
pages_html_category(struct core_html *h, const char *code, int primary)
{
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){
		CORE_A(CLASS, primary ? "cat cat-primary" : "cat"),
		CORE_A(TITLE, primary ? "primary category" : NULL),
		CORE_A_END });
	core_html_text(h, code);
	core_html_pop(h);
}

/* An author's page: its own "url", else its researcher's (or NULL). */
static const char *
author_url(const json_t *a)
{
	const json_t *r = json_object_get(a, "researcher");
	const char *u = pages_str(a, "url");

	if (u == NULL && json_is_object(r))
		u = pages_str(r, "url");
	return u;
}

/*
 * How a representation writes an author line: the separator, an author
 * (url NULL when unmatched) and the "more" of n authors not listed.  w is
 * its writer (struct core_html or struct core_buf).
 */
struct authors_out {
	void (*sep)(void *w);
	void (*author)(void *w, const struct pages_page *p, const char *name,
	    const char *url);
	void (*more)(void *w, long long n);
};

/* The authors line of authors (total in all) through out's writer w. */
static void
authors_walk(const struct authors_out *out, void *w, const struct pages_page *p,
    const json_t *authors, long long total)
{
	const json_t *a;
	size_t i;

	json_array_foreach(authors, i, a)
	{
		if (i > 0)
			out->sep(w);
		out->author(w, p, pages_str(a, "name"), author_url(a));
	}
	if (total > (long long)json_array_size(authors))
		out->more(w, total - (long long)json_array_size(authors));
}

static void
h_author_sep(void *w)
{
	core_html_text(w, ", ");
}

static void
h_author(void *w, const struct pages_page *p, const char *name, const char *url)
{
	if (url != NULL)
		pages_h_link(w, pages_rel(p->base, url), "author", name);
	else
		pages_h_text(w, CORE_TAG_SPAN, "author unmatched", name);
}

static void
h_authors_more(void *w, long long n)
{
	char *more = pages_count_of(n, "more author", "more authors");

	core_html_text(w, ", ");
	pages_h_text(w, CORE_TAG_SPAN, "faint", more);
	free(more);
}

void
pages_html_authors(struct core_html *h, const struct pages_page *p,
    const json_t *authors, long long total)
{
	static const struct authors_out html = { h_author_sep, h_author,
		h_authors_more };

	authors_walk(&html, h, p, authors, total);
}

void
pages_html_list(struct core_html *h, const struct pages_page *p,
    const json_t *items, const char *cls,
    void (*row)(struct core_html *, const struct pages_page *, const json_t *))
{
	const json_t *v;
	size_t i;

	pages_h_open(h, CORE_TAG_UL, cls);
	json_array_foreach(items, i, v) row(h, p, v);
	core_html_pop(h);
}

/* The pager's link to url (rel "prev" or "next"), when there is one. */
static void
pager_link(struct core_html *h, const struct pages_page *p, const char *url,
    const char *rel, const char *text)
{
	if (url == NULL)
		return;
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ CORE_A(HREF, pages_rel(p->base, url)),
		CORE_A(REL, rel), CORE_A(CLASS, "button"), CORE_A_END },
	    text);
}

void
pages_html_pager(struct core_html *h, const struct pages_page *p,
    const json_t *pg, const char *prev_text, const char *next_text)
{
	const char *prev = pages_str(pg, "prev"), *next = pages_str(pg, "next");

	if (prev == NULL && next == NULL)
		return;
	core_html_elem(h, CORE_TAG_NAV,
	    (const struct core_attr[]){ CORE_A(CLASS, "pager"),
		CORE_A(ARIA_LABEL, "Pages"), CORE_A_END });
	pager_link(h, p, prev, "prev", prev_text);
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ CORE_A(CLASS, "faint"), CORE_A_END });
	core_html_textf(h, "page %lld of %lld", pages_int(pg, "page", 1),
	    pages_int(pg, "pages", 1));
	core_html_pop(h);
	pager_link(h, p, next, "next", next_text);
	core_html_pop(h);
}

void
pages_html_card_head(struct core_html *h, const struct pages_page *p,
    const json_t *c, void (*title)(struct core_html *, const json_t *))
{
	pages_h_open(h, CORE_TAG_LI, "card");
	pages_h_open(h, CORE_TAG_H3, "card-title");
	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, pages_rel(p->base, pages_str(c, "url"))),
		CORE_A_END });
	if (title != NULL)
		title(h, c);
	else
		core_html_tex(h, pages_str(c, "title")); /* TeX as MathML */
	core_html_pop(h);
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_P, "card-authors");
	pages_html_authors(h, p, json_object_get(c, "authors"),
	    pages_int(c, "author_count", 0));
	core_html_pop(h);
}

void
pages_html_card_meta(struct core_html *h, const json_t *c)
{
	const json_t *cats = json_object_get(c, "categories"), *v;
	const char *prim = pages_str(c, "primary_category");
	size_t i;

	pages_h_open(h, CORE_TAG_P, "card-meta");
	core_html_date(h, pages_str(c, "published"));
	pages_h_text(h, CORE_TAG_SPAN, "mono faint", pages_str(c, "arxiv_id"));
	json_array_foreach(cats, i, v) if (json_is_string(v))
	    pages_html_category(h, json_string_value(v),
		prim != NULL && strcmp(prim, json_string_value(v)) == 0);
	pages_html_card_type(h, c);
}

void
pages_html_citations(struct core_html *h, const json_t *c)
{
	char *s;

	if (!pages_has_int(c, "citation_count"))
		return;
	s = pages_count_of(pages_int(c, "citation_count", 0), "citation",
	    "citations");
	pages_h_text(h, CORE_TAG_SPAN, "faint", s);
	free(s);
}

/* ---------------------------------------------------------------- markdown */

static void
md_author_sep(void *w)
{
	core_buf_puts(w, ", ");
}

static void
md_author(void *w, const struct pages_page *p, const char *name,
    const char *url)
{
	(void)p; /* markdown links are absolute */
	if (url != NULL)
		core_md_link(w, name, url);
	else
		core_md_text(w, name);
}

static void
md_authors_more(void *w, long long n)
{
	core_buf_printf(w, " and %lld more", n);
}

void
pages_md_authors(struct core_buf *b, const json_t *as, long long total)
{
	static const struct authors_out md = { md_author_sep, md_author,
		md_authors_more };

	authors_walk(&md, b, NULL, as, total);
}

void
pages_md_card_head(struct core_buf *b, const json_t *c)
{
	/* Accents and escapes as text; math stays TeX, which agents read. */
	char *t = core_tex_plain(pages_str(c, "title"), 1);

	core_buf_puts(b, "- ");
	core_md_link(b, t, pages_str(c, "url"));
	free(t);
	core_buf_puts(b, " — ");
	pages_md_authors(b, json_object_get(c, "authors"),
	    pages_int(c, "author_count", 0));
	pages_md_date_id(b, c, "; ");
	pages_md_card_type(b, c);
}

void
pages_md_date_id(struct core_buf *b, const json_t *c, const char *sep)
{
	if (pages_str(c, "published") != NULL) {
		core_buf_puts(b, sep);
		core_md_text(b, pages_str(c, "published"));
	}
	core_buf_puts(b, "; arXiv ");
	core_md_text(b, pages_str(c, "arxiv_id"));
}

void
pages_md_pager(struct core_buf *b, const json_t *pg)
{
	const char *u;

	if (pg == NULL)
		return;
	core_buf_printf(b, "\nPage %lld of %lld (%lld items, %lld a page).\n",
	    pages_int(pg, "page", 1), pages_int(pg, "pages", 1),
	    pages_int(pg, "total", 0), pages_int(pg, "per_page", 24));
	if ((u = pages_str(pg, "prev")) != NULL) {
		core_buf_puts(b, "\nPrevious page: ");
		core_md_link(b, u, u);
		core_buf_putc(b, '\n');
	}
	if ((u = pages_str(pg, "next")) != NULL) {
		core_buf_puts(b, "\nNext page: ");
		core_md_link(b, u, u);
		core_buf_putc(b, '\n');
	}
}

void
pages_md_join(struct core_buf *b, const json_t *a, const char *sep)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
	{
		if (i > 0)
			core_buf_puts(b, sep);
		core_md_text(b, json_string_value(v)); /* NULL: nothing */
	}
}

void
pages_md_link_row(struct core_buf *b, const json_t *v, const char *key,
    const char *count, const char *unit)
{
	long long n;

	core_buf_puts(b, "- ");
	core_md_link(b, pages_str(v, key), pages_str(v, "url"));
	if (count == NULL)
		return;
	n = pages_int(v, count, 0);
	core_buf_printf(b, " — %lld", n);
	if (unit != NULL)
		core_buf_printf(b, " %s%s", unit, n == 1 ? "" : "s");
}

void
pages_md_name_row(struct core_buf *b, const json_t *v, int people)
{
	pages_md_link_row(b, v, "name", people ? "papers" : NULL, "paper");
	if (people) {
		if (pages_has_int(v, "h_index"))
			core_buf_printf(b, ", h-index %lld",
			    pages_int(v, "h_index", 0));
	} else {
		core_buf_puts(b, " — ");
		if (pages_str(v, "country") != NULL) {
			core_md_text(b, pages_str(v, "country"));
			core_buf_puts(b, ", ");
		}
		core_buf_printf(b, "%lld researcher%s",
		    pages_int(v, "researchers", 0),
		    pages_int(v, "researchers", 0) == 1 ? "" : "s");
	}
	core_buf_putc(b, '\n');
}
