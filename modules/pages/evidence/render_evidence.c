/*
 * render_evidence.c -- "why these papers are here" in HTML and markdown:
 * the summary block of the researcher page and the evidence page
 * (/researchers/{id}-{slug}/evidence).  Names, titles and texts come
 * from the data: everything goes through the escaping writers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

/* Namesakes with their reasons in the researcher page's rail. */
#define EV_RAIL_NAMESAKES 3

static const char *
href(const struct pages_page *p, const char *url)
{
	return pages_rel(p->base, url);
}

/* " · score 0.49 on average (lowest 0.09)" for name evidence only. */
static int
has_score(const char *reason)
{
	return reason != NULL &&
	    (strcmp(reason, "coauthors") == 0 ||
		strcmp(reason, "fields") == 0 ||
		strcmp(reason, "new_identity") == 0);
}

/* ---------------------------------------------------------------- HTML */

static void
h_refs(struct core_html *h, const struct pages_page *p, const json_t *refs)
{
	const json_t *v;
	size_t i;

	json_array_foreach(refs, i, v)
	{
		if (i > 0)
			core_html_text(h, ", ");
		pages_h_link(h, href(p, pages_str(v, "url")), NULL,
		    pages_str(v, "name"));
	}
}

static void
h_reasons(struct core_html *h, const struct pages_page *p, const json_t *rs)
{
	const json_t *v, *co;
	char num[32];
	size_t i;

	pages_h_open(h, CORE_TAG_UL, "plain evidence-reasons");
	json_array_foreach(rs, i, v)
	{
		long long n = pages_int(v, "papers", 0);
		const char *reason = pages_str(v, "reason");

		core_html_elem(h, CORE_TAG_LI, NULL);
		core_html_elem(h, CORE_TAG_STRONG, NULL);
		core_html_textf(h, "%s paper%s", pages_num(num, sizeof(num), n),
		    n == 1 ? "" : "s");
		core_html_pop(h);
		core_html_text(h, " ");
		core_html_text(h, pages_str(v, "label"));
		co = json_object_get(v, "coauthors");
		if (json_array_size(co) > 0) {
			core_html_text(h, " (");
			h_refs(h, p, co);
			core_html_text(h, ")");
		}
		if (has_score(reason) &&
		    json_is_number(json_object_get(v, "score_avg"))) {
			pages_h_open(h, CORE_TAG_SPAN, "faint");
			core_html_textf(h, " · score %.2f",
			    json_number_value(json_object_get(v, "score_avg")));
			if (n > 1)
				core_html_textf(h, " on average, lowest %.2f",
				    json_number_value(
					json_object_get(v, "score_min")));
			core_html_pop(h);
		}
		core_html_pop(h);
	}
	core_html_pop(h);
}

static void
h_apart(struct core_html *h, const struct pages_page *p, const json_t *ka)
{
	const json_t *paper = json_object_get(ka, "paper");

	pages_h_open(h, CORE_TAG_SPAN, "caption evidence-apart");
	core_html_text(h, pages_str(ka, "text"));
	if (json_is_object(paper)) {
		core_html_text(h, " Paper: ");
		core_html_elem(h, CORE_TAG_A,
		    (const struct core_attr[]){
			CORE_A(HREF, href(p, pages_str(paper, "url"))),
			CORE_A_END });
		core_html_tex(h, pages_str(paper, "title"));
		core_html_pop(h);
	}
	core_html_pop(h);
}

/* At most max namesakes with their reasons; the rest are counted. */
static void
h_namesakes(struct core_html *h, const struct pages_page *p, const json_t *ns,
    size_t max)
{
	const json_t *items = json_object_get(ns, "items"), *v;
	long long total = pages_int(ns, "total", 0);
	size_t i, shown = 0;

	if (json_array_size(items) == 0)
		return;
	pages_h_open(h, CORE_TAG_P, "caption");
	core_html_textf(h,
	    "Kept apart from %lld other profile%s of this name:", total,
	    total == 1 ? "" : "s");
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_UL, "plain evidence-namesakes");
	json_array_foreach(items, i, v)
	{
		long long n = pages_int(v, "papers", 0);

		if (shown++ == max)
			break;
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, href(p, pages_str(v, "url")), NULL,
		    pages_str(v, "name"));
		pages_h_open(h, CORE_TAG_SPAN, "faint");
		core_html_textf(h, " — %lld paper%s", n, n == 1 ? "" : "s");
		core_html_pop(h);
		core_html_elem(h, CORE_TAG_BR, NULL);
		h_apart(h, p, json_object_get(v, "kept_apart"));
		core_html_pop(h);
	}
	core_html_pop(h);
	shown = json_array_size(items) < max ? json_array_size(items) : max;
	if (total > (long long)shown) {
		pages_h_open(h, CORE_TAG_P, "caption");
		core_html_textf(h, "and %lld more.", total - (long long)shown);
		core_html_pop(h);
	}
}

void
pages_html_evidence_summary(struct core_html *h, const struct pages_page *p,
    const json_t *ev, int compact)
{
	if (!json_is_object(ev))
		return;
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "block evidence"),
		CORE_A(ID, "evidence"), CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, "eyebrow", "why these papers are here");
	if (json_array_size(json_object_get(ev, "reasons")) == 0)
		pages_h_text(h, CORE_TAG_P, "caption",
		    "No paper is attached to this profile yet.");
	else
		h_reasons(h, p, json_object_get(ev, "reasons"));
	h_namesakes(h, p, json_object_get(ev, "namesakes"),
	    compact ? EV_RAIL_NAMESAKES : (size_t)-1);
	if (compact) {
		pages_h_open(h, CORE_TAG_P, "caption");
		pages_h_link(h, href(p, pages_str(ev, "url")), NULL,
		    "Every paper with its evidence →");
		core_html_pop(h);
	}
	core_html_pop(h);
}

static void
h_item(struct core_html *h, const struct pages_page *p, const json_t *it)
{
	const json_t *co = json_object_get(it, "shared_coauthors");
	const json_t *fi = json_object_get(it, "shared_fields"), *v;
	const char *reason = pages_str(it, "reason");
	size_t i;

	pages_h_open(h, CORE_TAG_LI, "card evidence-item");
	pages_h_open(h, CORE_TAG_H3, "card-title");
	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, href(p, pages_str(it, "url"))), CORE_A_END });
	core_html_tex(h, pages_str(it, "title")); /* TeX as MathML */
	core_html_pop(h);
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_P, "card-meta");
	core_html_date(h, pages_str(it, "published"));
	pages_h_text(h, CORE_TAG_SPAN, "mono faint", pages_str(it, "arxiv_id"));
	pages_h_open(h, CORE_TAG_SPAN, "faint");
	core_html_textf(h, "author %lld of %lld, as “",
	    pages_int(it, "position", 0), pages_int(it, "author_count", 0));
	core_html_text(h, pages_str(it, "name_as_written"));
	core_html_text(h, "”");
	core_html_pop(h);
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_P, "evidence-why");
	pages_h_text(h, CORE_TAG_STRONG, NULL, pages_str(it, "label"));
	if (has_score(reason) && json_is_number(json_object_get(it, "score")))
		core_html_textf(h, " · score %.2f",
		    json_number_value(json_object_get(it, "score")));
	core_html_pop(h);
	if (json_array_size(co) > 0) {
		pages_h_open(h, CORE_TAG_P, "caption");
		core_html_text(h, "Co-authors also on newer papers here: ");
		h_refs(h, p, co);
		core_html_pop(h);
	}
	if (json_array_size(fi) > 0) {
		pages_h_open(h, CORE_TAG_P, "caption");
		core_html_text(h, "Fields also on newer papers here:");
		json_array_foreach(fi, i, v) if (json_is_string(v))
		    pages_html_category(h, json_string_value(v), 0);
		core_html_pop(h);
	}
	core_html_pop(h);
}

void
pages_render_evidence_html(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *r = json_object_get(m, "researcher");
	const json_t *items = json_object_get(m, "items");
	long long total;
	char *title, num[32];

	title = core_xasprintf("Why these papers are here: %s",
	    pages_str(m, "name") != NULL ? pages_str(m, "name") : "");
	pages_layout_subject(h, p, title,
	    "The matching evidence of each paper of this "
	    "researcher: the reason and its score.",
	    "wrap evidence-page", "why these papers are here",
	    pages_str(r, "url"), pages_str(r, "name"), 0);
	pages_h_text(h, CORE_TAG_P, "note",
	    "Papers are matched to researchers newest first.  An external id "
	    "(OpenAlex, ORCID, Semantic Scholar) decides; otherwise the name "
	    "joins a profile of that name when the paper shares enough "
	    "co-authors or fields with the profile's newer papers (the score "
	    "is that share), and starts a profile of its own when it does "
	    "not.");
	pages_html_evidence_summary(h, p, json_object_get(m, "summary"), 0);
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "papers hairline"),
		CORE_A(ID, "papers"), CORE_A_END });
	pages_h_open(h, CORE_TAG_H2, NULL);
	total = pages_int(json_object_get(m, "pagination"), "total", 0);
	core_html_textf(h, "%s paper%s, newest first",
	    pages_num(num, sizeof(num), total), total == 1 ? "" : "s");
	core_html_pop(h);
	if (json_array_size(items) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    "No paper is attached to this profile yet.");
	pages_html_list(h, p, items, "cards", h_item);
	pages_html_pager(h, p, json_object_get(m, "pagination"), "← previous",
	    "next →");
	core_html_pop(h);
	pages_layout_close(h, p);
	free(title);
}

/* ---------------------------------------------------------------- markdown */

static void
md_refs(struct core_buf *b, const json_t *refs)
{
	const json_t *v;
	size_t i;

	json_array_foreach(refs, i, v)
	{
		if (i > 0)
			core_buf_puts(b, ", ");
		core_md_link(b, pages_str(v, "name"), pages_str(v, "url"));
	}
}

void
pages_md_evidence_summary(struct core_buf *b, const json_t *ev)
{
	const json_t *v, *ns = json_object_get(ev, "namesakes"), *ka, *pa;
	const char *reason;
	long long n, total = pages_int(ns, "total", 0);
	size_t i;

	if (!json_is_object(ev))
		return;
	core_buf_puts(b, "\n## Why these papers are here\n\n");
	if (json_array_size(json_object_get(ev, "reasons")) == 0)
		core_buf_puts(b, "No paper is attached to this profile yet.\n");
	json_array_foreach(json_object_get(ev, "reasons"), i, v)
	{
		n = pages_int(v, "papers", 0);
		reason = pages_str(v, "reason");
		core_buf_printf(b, "- %lld paper%s: ", n, n == 1 ? "" : "s");
		core_md_text(b, pages_str(v, "label"));
		if (json_array_size(json_object_get(v, "coauthors")) > 0) {
			core_buf_puts(b, " \\(");
			md_refs(b, json_object_get(v, "coauthors"));
			core_buf_puts(b, "\\)");
		}
		if (has_score(reason) &&
		    json_is_number(json_object_get(v, "score_avg")))
			core_buf_printf(b, "; score %.2f",
			    json_number_value(json_object_get(v, "score_avg")));
		if (has_score(reason) && n > 1 &&
		    json_is_number(json_object_get(v, "score_min")))
			core_buf_printf(b, " on average, lowest %.2f",
			    json_number_value(json_object_get(v, "score_min")));
		core_buf_putc(b, '\n');
	}
	if (json_array_size(json_object_get(ns, "items")) > 0) {
		core_buf_printf(b,
		    "\nKept apart from %lld other profile%s of this name:\n\n",
		    total, total == 1 ? "" : "s");
		json_array_foreach(json_object_get(ns, "items"), i, v)
		{
			ka = json_object_get(v, "kept_apart");
			pa = json_object_get(ka, "paper");
			pages_md_link_row(b, v, "name", "papers", "paper");
			core_buf_puts(b, ": ");
			core_md_text(b, pages_str(ka, "text"));
			if (json_is_object(pa)) {
				char *t =
				    core_tex_plain(pages_str(pa, "title"), 1);

				core_buf_puts(b, " Paper: ");
				core_md_link(b, t, pages_str(pa, "url"));
				free(t);
			}
			core_buf_putc(b, '\n');
		}
	}
	core_buf_puts(b, "\nEvery paper with its evidence: ");
	core_md_link(b, pages_str(ev, "url"), pages_str(ev, "url"));
	core_buf_putc(b, '\n');
}

void
pages_render_evidence_md(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model, *r = json_object_get(m, "researcher"), *v;
	const json_t *fi;
	const char *reason;
	size_t i;
	char *t;

	core_buf_puts(b, "# Why these papers are here: ");
	core_md_text(b, pages_str(m, "name"));
	core_buf_puts(b, "\n\n- Researcher: ");
	core_md_link(b, pages_str(r, "name"), pages_str(r, "url"));
	core_buf_puts(b, "\n- URL: ");
	core_md_link(b, pages_str(m, "url"), pages_str(m, "url"));
	core_buf_puts(b,
	    "\n\nPapers are matched to researchers newest first. An external "
	    "id decides; otherwise the name joins a profile of that name when "
	    "the paper shares enough co-authors or fields with the profile's "
	    "newer papers \\(the score is that share\\), and starts a profile "
	    "of its own when it does not.\n");
	pages_md_evidence_summary(b, json_object_get(m, "summary"));
	core_buf_puts(b, "\n## Papers\n\n");
	json_array_foreach(json_object_get(m, "items"), i, v)
	{
		reason = pages_str(v, "reason");
		t = core_tex_plain(pages_str(v, "title"), 1); /* math kept */
		core_buf_puts(b, "- ");
		core_md_link(b, t, pages_str(v, "url"));
		free(t);
		pages_md_date_id(b, v, " — ");
		core_buf_printf(b, "; author %lld of %lld as ",
		    pages_int(v, "position", 0),
		    pages_int(v, "author_count", 0));
		core_md_text(b, pages_str(v, "name_as_written"));
		core_buf_puts(b, ": ");
		core_md_text(b, pages_str(v, "label"));
		if (has_score(reason) &&
		    json_is_number(json_object_get(v, "score")))
			core_buf_printf(b, ", score %.2f",
			    json_number_value(json_object_get(v, "score")));
		if (json_array_size(json_object_get(v, "shared_coauthors")) >
		    0) {
			core_buf_puts(b, "; co-authors also on newer papers: ");
			md_refs(b, json_object_get(v, "shared_coauthors"));
		}
		fi = json_object_get(v, "shared_fields");
		if (json_array_size(fi) > 0) {
			core_buf_puts(b, "; fields also on newer papers: ");
			pages_md_join(b, fi, ", ");
		}
		core_buf_putc(b, '\n');
	}
	if (json_array_size(json_object_get(m, "items")) == 0)
		core_buf_puts(b, "No paper is attached to this profile yet.\n");
	pages_md_pager(b, json_object_get(m, "pagination"));
}
