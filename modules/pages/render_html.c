/*
 * render_html.c -- view models to HTML.  Everything goes through the core
 * HTML writer, so text and attributes are escaped by construction; the
 * page shell (head, header, footer) is in layout.c.  Widths of bars are
 * classes (w0 .. w100), never inline styles: the CSP forbids them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"
#include "network_svg.h"

/* ---------------------------------------------------------------- helpers */

/* A site link: the path part of an absolute URL of ours. */
/*
 * "Ask about ...": a link to the chat (modules/chat) with the scope set;
 * signed out, /chat sends the reader to sign in and back.
 */
static void
ask_link(struct core_html *h, const char *scope, const char *id,
    const char *label)
{
	struct core_buf u = CORE_BUF_INIT;

	if (id == NULL || *id == '\0')
		return;
	core_buf_printf(&u, "/chat?scope=%s&id=", scope);
	core_url_encode(&u, id, 0);
	pages_h_link(h, core_buf_cstr(&u), "button", label);
	core_buf_free(&u);
}

static const char *
href(const struct pages_page *p, const char *url)
{
	return pages_rel(p->base, url);
}

/* One row of a bar list: label (a link when url), bar, count. */
static void
bar_row(struct core_html *h, const char *label, const char *url, long long n,
    long long max, int mono, int current)
{
	char cls[32], num[32];
	long long w = max > 0 ? (n * 100 + max / 2) / max : 0;

	if (w > 100)
		w = 100;
	if (n > 0 && w < 2)
		w = 2; /* a known count stays visible */
	snprintf(cls, sizeof(cls), "bar w%lld", w);
	core_html_elem(h, CORE_TAG_LI, NULL);
	if (url != NULL)
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ CORE_A(HREF, url),
			CORE_A(CLASS, mono ? "bar-label mono" : "bar-label"),
			CORE_A(ARIA_CURRENT, current ? "true" : NULL),
			CORE_A_END },
		    label);
	else
		pages_h_text(h, CORE_TAG_SPAN,
		    mono ? "bar-label mono" : "bar-label", label);
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ CORE_A(CLASS, "bar-track"),
		CORE_A(ARIA_HIDDEN, "true"), CORE_A_END });
	pages_h_text(h, CORE_TAG_SPAN, cls, "");
	core_html_pop(h);
	pages_h_text(h, CORE_TAG_SPAN, "bar-count",
	    pages_num(num, sizeof(num), n));
	core_html_pop(h);
}

/* A paper card (lists on researcher, institution and home pages). */
static void
card(struct core_html *h, const struct pages_page *p, const json_t *c)
{
	pages_html_card_head(h, p, c, NULL);
	pages_html_card_meta(h, c);
	pages_html_citations(h, c);
	core_html_pop(h);
	core_html_pop(h);
}

/* A badge: "<n> <unit>"; none for a metric no source gave. */
static void
badge(struct core_html *h, const json_t *metrics, const char *key,
    const char *prefix, const char *one, const char *many, const char *cls)
{
	char num[32];
	char *s;

	if (!pages_has_int(metrics, key))
		return;
	if (prefix != NULL)
		s = core_xasprintf("%s %s", prefix,
		    pages_num(num, sizeof(num), pages_int(metrics, key, 0)));
	else
		s = pages_count_of(pages_int(metrics, key, 0), one, many);
	pages_h_text(h, CORE_TAG_LI, cls, s);
	free(s);
}

/* ---------------------------------------------------------------- JSON-LD */

static json_t *
crumbs(const char *base, const char *section, const char *section_path,
    const char *name, const char *url)
{
	json_t *items = json_array();
	int pos = 1;

	json_array_append_new(items,
	    json_pack("{s:s,s:i,s:s,s:o}", "@type", "ListItem", "position",
		pos++, "name", "weft", "item", pages_json_abs(base, "/")));
	if (section != NULL)
		json_array_append_new(items,
		    json_pack("{s:s,s:i,s:s,s:o}", "@type", "ListItem",
			"position", pos++, "name", section, "item",
			pages_json_abs(base, section_path)));
	if (name != NULL && url != NULL)
		json_array_append_new(items,
		    json_pack("{s:s,s:i,s:o,s:o}", "@type", "ListItem",
			"position", pos++, "name", core_json_str(name), "item",
			core_json_str(url)));
	return json_pack("{s:s,s:o}", "@type", "BreadcrumbList",
	    "itemListElement", items);
}

static json_t *
graph(json_t *thing, json_t *crumb)
{
	return json_pack("{s:s,s:[oo]}", "@context", "https://schema.org",
	    "@graph", thing, crumb);
}

/* Sets key to a string when s is not NULL. */
static void
set_str(json_t *o, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(o, key, core_json_str(s));
}

/* What tells a researcher page from an institution page in its head. */
struct entity_page {
	const char *section;      /* the directory: breadcrumb name */
	const char *section_path; /* its path */
	const char *feeds;        /* the folder of its entities' feeds */
	const char *og_type;
	const char *main_class;
};

static const struct entity_page researcher_page = { "Researchers",
	"/researchers", "/rss/researchers/", "profile", "wrap researcher" };
static const struct entity_page institution_page = { "Institutions",
	"/institutions", "/rss/institutions/", "website", "wrap institution" };

/*
 * Opens the page of entity id of kind e, called name at url: its head
 * with desc, thing (consumed) and breadcrumbs as JSON-LD, and its own
 * feed, whose path is written to feed (feedsz bytes).
 */
static void
entity_open(struct core_html *h, const struct pages_page *p,
    const struct entity_page *e, const char *name, const char *url,
    const char *desc, json_t *thing, long long id, char *feed, size_t feedsz)
{
	struct pages_head hd;
	json_t *ld;

	ld = graph(thing,
	    crumbs(p->base, e->section, e->section_path, name, url));
	memset(&hd, 0, sizeof(hd));
	hd.title = name;
	hd.description = desc;
	hd.canonical = url;
	hd.og_type = e->og_type;
	hd.jsonld = ld;
	hd.main_class = e->main_class;
	snprintf(feed, feedsz, "%s%lld.xml", e->feeds, id);
	hd.feed = feed;
	/* A page that says false (an institution with no papers here). */
	hd.noindex = json_is_false(json_object_get(p->model, "indexable"));
	pages_layout_open(h, p, &hd);
	json_decref(ld);
}

/* ---------------------------------------------------------------- paper */

static void
fact(struct core_html *h, const char *label)
{
	core_html_elemtext(h, CORE_TAG_DT, NULL, label);
	core_html_elem(h, CORE_TAG_DD, NULL);
}

static void
versions(struct core_html *h, const json_t *vs)
{
	const json_t *v;
	char label[32];
	size_t i;

	pages_h_open(h, CORE_TAG_OL, "versions");
	json_array_foreach(vs, i, v)
	{
		const json_t *ver = json_object_get(v, "version");
		const char *d = pages_str(v, "date");

		if (d == NULL)
			d = pages_str(v, "created");
		core_html_elem(h, CORE_TAG_LI, NULL);
		/* Each version links arXiv's page of it (abs/IDvN). */
		if (pages_str(v, "url") != NULL)
			core_html_elem(h, CORE_TAG_A,
			    (const struct core_attr[]){
				CORE_A(HREF, pages_str(v, "url")),
				CORE_A_END });
		core_html_text(h,
		    pages_version_label(label, sizeof(label), ver, i));
		if (pages_str(v, "url") != NULL)
			core_html_pop(h);
		if (d != NULL) {
			core_html_text(h, " · ");
			if (strlen(d) == 10 && d[4] == '-')
				core_html_date(h, d);
			else
				core_html_text(h, d);
		}
		core_html_pop(h);
	}
	core_html_pop(h);
}

/* ---------------------------------------------------------------- Zotero */

/*
 * How a paper is typed for reference managers (Zotero's "Embedded
 * Metadata" and "COinS" translators): a journal article when arXiv
 * gives a journal reference, otherwise a report of the institution
 * "arXiv" (Zotero's type for a preprint read from Highwire tags).
 */
static int
is_journal(const json_t *m)
{
	const char *j = pages_str(m, "journal_ref");

	return j != NULL && *j != '\0';
}

/* "2025-12-23..." as Google Scholar asks for it, "2025/12/23"; or NULL. */
static char *
slash_date(const char *d)
{
	if (d == NULL || strlen(d) < 10 || d[4] != '-' || d[7] != '-')
		return NULL;
	return core_xasprintf("%.4s/%.2s/%.2s", d, d + 5, d + 8);
}

static void
hw_add(json_t *a, const char *name, const char *content)
{
	if (content != NULL && *content != '\0')
		json_array_append_new(a, json_pack("[s,s]", name, content));
}

/*
 * An author's name as text for both formats: TeX made plain, and no
 * ';' (Zotero splits a citation_author on it).
 */
static char *
plain_author(const json_t *a)
{
	char *n = core_tex_plain(pages_str(a, "name"), 0), *c;

	for (c = n; c != NULL && *c != '\0'; c++)
		if (*c == ';')
			*c = ',';
	return n;
}

/*
 * The Highwire Press citation_* tags of a paper, as [[name, content]]
 * for pages_head.meta: one citation_author per author, in order.
 */
static json_t *
highwire(const json_t *m, const char *ptitle, const char *pabstract)
{
	const json_t *links = json_object_get(m, "links"), *v;
	const char *pub = pages_str(m, "published");
	const char *upd = pages_str(m, "updated");
	json_t *a = json_array();
	char *d, *t;
	size_t i;

	hw_add(a, "citation_title", ptitle);
	json_array_foreach(json_object_get(m, "authors"), i, v)
	{
		t = plain_author(v);
		hw_add(a, "citation_author", t);
		free(t);
	}
	d = slash_date(pub);
	hw_add(a, "citation_publication_date", d);
	hw_add(a, "citation_date", d);
	free(d);
	d = slash_date(upd != NULL ? upd : pub);
	hw_add(a, "citation_online_date", d);
	free(d);
	if (is_journal(m))
		hw_add(a, "citation_journal_title",
		    pages_str(m, "journal_ref"));
	else {
		hw_add(a, "citation_technical_report_institution", "arXiv");
		t = core_xasprintf("arXiv:%s", pages_str(m, "arxiv_id"));
		hw_add(a, "citation_technical_report_number", t);
		free(t);
	}
	hw_add(a, "citation_arxiv_id", pages_str(m, "arxiv_id"));
	hw_add(a, "citation_doi", pages_str(m, "doi"));
	hw_add(a, "citation_pdf_url", pages_str(links, "pdf"));
	hw_add(a, "citation_abstract_html_url", pages_str(m, "url"));
	hw_add(a, "citation_abstract", pabstract);
	hw_add(a, "citation_language", "en");
	return a;
}

/* "&key=value", value percent-encoded (skipped when NULL or empty). */
static void
kev(struct core_buf *b, const char *key, const char *value)
{
	if (value == NULL || *value == '\0')
		return;
	core_buf_printf(b, "&%s=", key);
	core_url_encode(b, value, 0);
}

/*
 * The COinS span (OpenURL 1.0 KEV in the title of span.Z3988): the same
 * item as the Highwire tags, for tools that read COinS instead.
 */
static void
coins(struct core_html *h, const json_t *m, const char *ptitle)
{
	struct core_buf b = CORE_BUF_INIT;
	const json_t *v;
	const char *pub = pages_str(m, "published");
	char *t;
	size_t i;

	core_buf_puts(&b, "ctx_ver=Z39.88-2004");
	if (is_journal(m)) {
		kev(&b, "rft_val_fmt", "info:ofi/fmt:kev:mtx:journal");
		kev(&b, "rft.genre", "article");
		kev(&b, "rft.atitle", ptitle);
		kev(&b, "rft.jtitle", pages_str(m, "journal_ref"));
	} else {
		kev(&b, "rft_val_fmt", "info:ofi/fmt:kev:mtx:book");
		kev(&b, "rft.genre", "report");
		kev(&b, "rft.btitle", ptitle);
		kev(&b, "rft.pub", "arXiv");
	}
	json_array_foreach(json_object_get(m, "authors"), i, v)
	{
		t = plain_author(v);
		kev(&b, "rft.au", t);
		free(t);
	}
	if (pub != NULL && strlen(pub) >= 10) {
		t = core_xasprintf("%.10s", pub);
		kev(&b, "rft.date", t);
		free(t);
	}
	t = core_xasprintf("info:arxiv/%s", pages_str(m, "arxiv_id"));
	kev(&b, "rft_id", t);
	free(t);
	if ((v = json_object_get(m, "doi")) != NULL && json_is_string(v)) {
		t = core_xasprintf("info:doi/%s", json_string_value(v));
		kev(&b, "rft_id", t);
		free(t);
	}
	kev(&b, "rft_id", pages_str(m, "url"));
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ CORE_A(CLASS, "Z3988"),
		CORE_A(TITLE, core_buf_cstr(&b)), CORE_A_END });
	core_html_pop(h);
	core_buf_free(&b);
}

void
pages_html_paper(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *v;
	const char *url = pages_str(m, "url"), *title = pages_str(m, "title");
	const char *prim = pages_str(m, "primary_category"), *s;
	const json_t *authors = json_object_get(m, "authors");
	const json_t *links = json_object_get(m, "links");
	struct core_buf desc = CORE_BUF_INIT;
	struct pages_head hd;
	json_t *art, *ld, *al, *hw;
	size_t i, n = json_array_size(authors);
	long long matched = pages_int(m, "authors_matched", 0);
	/* <title> and the meta description as text: TeX made readable. */
	char *ptitle = core_tex_plain(title, 0);
	char *pabstract = core_tex_plain(pages_str(m, "abstract"), 0);

	pages_excerpt(&desc, pabstract, 200);
	art = json_pack("{s:s,s:o,s:o,s:o}", "@type", "ScholarlyArticle", "@id",
	    json_sprintf("%s#article", url), "url", core_json_str(url),
	    "headline", core_json_str(ptitle));
	/* JSON-LD is read as text: TeX made text, as in <title>. */
	set_str(art, "name", ptitle);
	set_str(art, "abstract", pabstract);
	set_str(art, "datePublished", pages_str(m, "published"));
	set_str(art, "dateModified", pages_str(m, "updated"));
	set_str(art, "identifier", pages_str(m, "arxiv_id"));
	set_str(art, "sameAs", pages_str(links, "abs"));
	set_str(art, "about", prim);
	al = json_array();
	json_array_foreach(authors, i, v)
	{
		char *pn = core_tex_plain(pages_str(v, "name"), 0);
		json_t *pe = json_pack("{s:s,s:o}", "@type", "Person", "name",
		    core_json_str(pn));
		const json_t *r = json_object_get(v, "researcher");

		free(pn);
		if (json_is_object(r))
			set_str(pe, "url", pages_str(r, "url"));
		json_array_append_new(al, pe);
	}
	json_object_set_new(art, "author", al);
	ld = graph(art, crumbs(p->base, NULL, NULL, ptitle, url));

	memset(&hd, 0, sizeof(hd));
	hd.title = ptitle;
	hd.description = core_buf_cstr(&desc);
	hd.canonical = url;
	hd.og_type = "article";
	hd.jsonld = ld;
	hd.bib = 1;
	hd.main_class = "wrap paper";
	hd.meta = hw = highwire(m, ptitle, pabstract);
	pages_layout_open(h, p, &hd);

	core_html_elem(h, CORE_TAG_ARTICLE, NULL);
	pages_h_open(h, CORE_TAG_P, "eyebrow");
	core_html_text(h, "paper · arXiv:");
	pages_h_text(h, CORE_TAG_SPAN, "mono", pages_str(m, "arxiv_id"));
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_H1, "paper-title");
	core_html_tex(h, title);
	core_html_pop(h);

	pages_h_open(h, CORE_TAG_P, "paper-authors");
	pages_html_authors(h, p, authors, (long long)n);
	core_html_pop(h);
	if (n > 0 && matched < (long long)n) {
		pages_h_open(h, CORE_TAG_P, "note");
		if (matched == 0)
			core_html_text(h,
			    "None of the authors is matched to a "
			    "researcher profile yet; names are shown as "
			    "written on the paper.");
		else
			core_html_textf(h,
			    "%lld of %zu authors are matched "
			    "to researcher profiles; the others are shown as "
			    "written on the paper.",
			    matched, n);
		core_html_pop(h);
	}

	pages_h_open(h, CORE_TAG_P, "paper-cats");
	json_array_foreach(json_object_get(m, "categories"), i,
	    v) if (json_is_string(v))
	    pages_html_category(h, json_string_value(v),
		prim != NULL && strcmp(prim, json_string_value(v)) == 0);
	core_html_pop(h);

	pages_h_open(h, CORE_TAG_DIV, "paper-grid");
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "abstract"),
		CORE_A(ARIA_LABEL, "Abstract"), CORE_A_END });
	pages_html_analysis(h, m);
	pages_h_text(h, CORE_TAG_H2, "eyebrow", "abstract");
	s = pages_str(m, "abstract");
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_tex(h,
	    s != NULL && *s != '\0' ? s : "No abstract is available.");
	core_html_pop(h);
	if ((s = pages_str(m, "comment")) != NULL && *s != '\0') {
		pages_h_text(h, CORE_TAG_H2, "eyebrow", "comment");
		pages_h_text(h, CORE_TAG_P, "soft", s);
	}
	core_html_pop(h);

	pages_h_open(h, CORE_TAG_ASIDE, "facts");
	pages_h_open(h, CORE_TAG_DL, "facts-list");
	fact(h, "arXiv id");
	pages_h_text(h, CORE_TAG_SPAN, "mono", pages_str(m, "arxiv_id"));
	core_html_pop(h);
	if ((s = pages_str(m, "published")) != NULL) {
		fact(h, "Published");
		core_html_date(h, s);
		core_html_pop(h);
	}
	if ((s = pages_str(m, "updated")) != NULL &&
	    (pages_str(m, "published") == NULL ||
		strcmp(s, pages_str(m, "published")) != 0)) {
		fact(h, "Updated");
		core_html_date(h, s);
		core_html_pop(h);
	}
	if (json_array_size(json_object_get(m, "versions")) > 0) {
		fact(h, "Versions");
		versions(h, json_object_get(m, "versions"));
		core_html_pop(h);
	}
	if (pages_has_int(m, "citation_count")) {
		char num[32];

		fact(h, "Citations");
		core_html_text(h,
		    pages_num(num, sizeof(num),
			pages_int(m, "citation_count", 0)));
		if ((s = pages_str(m, "citation_source")) != NULL)
			core_html_textf(h, " (%s)",
			    strcmp(s, "openalex") == 0 ? "OpenAlex"
				: strcmp(s, "s2") == 0 ? "Semantic Scholar"
						       : s);
		core_html_pop(h);
	}
	if ((s = pages_str(m, "doi")) != NULL && *s != '\0') {
		fact(h, "DOI");
		pages_h_link(h, pages_str(m, "doi_url"), "mono", s);
		core_html_pop(h);
	}
	if (json_array_size(json_object_get(m, "class_codes")) > 0) {
		fact(h, "Classes");
		json_array_foreach(json_object_get(m, "class_codes"), i, v)
		{
			core_html_textf(h, "%s%s", i > 0 ? ", " : "",
			    json_string_value(v));
		}
		core_html_pop(h);
	}
	if ((s = pages_str(m, "journal_ref")) != NULL && *s != '\0') {
		fact(h, "Journal ref");
		core_html_text(h, s);
		core_html_pop(h);
	}
	if ((s = pages_str(m, "license")) != NULL && *s != '\0') {
		fact(h, "Licence");
		if (strncmp(s, "http", 4) == 0)
			pages_h_link(h, s, NULL, s);
		else
			core_html_text(h, s);
		core_html_pop(h);
	}
	core_html_pop(h); /* dl */
	pages_h_open(h, CORE_TAG_P, "actions");
	pages_h_link(h, pages_str(links, "abs"), "button", "arXiv page");
	pages_h_link(h, pages_str(links, "pdf"), "button", "PDF");
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, href(p, pages_str(links, "bibtex"))),
		CORE_A(CLASS, "button"), CORE_A(TYPE, "application/x-bibtex"),
		CORE_A_END },
	    "Cite as BibTeX");
	ask_link(h, "paper", pages_str(m, "arxiv_id"), "Ask about this paper");
	core_html_pop(h);
	core_html_pop(h); /* aside */
	core_html_pop(h); /* grid */
	coins(h, m, ptitle);
	core_html_pop(h); /* article */
	pages_html_similar_section(h, p, m);

	pages_layout_close(h, p);
	json_decref(hw);
	json_decref(ld);
	core_buf_free(&desc);
	free(ptitle);
	free(pabstract);
}

/* ---------------------------------------------------------------- researcher */

static void
position_block(struct core_html *h, const json_t *ap)
{
	static const char *const keys[3] = { "first", "middle", "last" };
	static const char *const labels[3] = {
		"first author",
		"middle author",
		"last author",
	};
	long long counted = pages_int(ap, "papers_counted", 0);
	long long total = pages_int(ap, "papers_total", 0), max = 0, n;
	int i;

	pages_h_block(h, "author position");
	if (counted > 0) {
		for (i = 0; i < 3; i++)
			if ((n = pages_int(ap, keys[i], 0)) > max)
				max = n;
		pages_h_open(h, CORE_TAG_UL, "bars");
		for (i = 0; i < 3; i++)
			bar_row(h, labels[i], NULL, pages_int(ap, keys[i], 0),
			    max, 0, 0);
		core_html_pop(h);
		pages_h_open(h, CORE_TAG_P, "caption");
		core_html_textf(h,
		    "Across %lld of %lld paper%s where every "
		    "author was matched, so the position is known.",
		    counted, total, total == 1 ? "" : "s");
		core_html_pop(h);
	} else {
		pages_h_open(h, CORE_TAG_P, "caption");
		if (total == 0)
			core_html_text(h, "No papers here yet.");
		else if (total == 1)
			core_html_text(h,
			    "Not known yet: the one paper here "
			    "does not have every author matched.");
		else
			core_html_textf(h,
			    "Not known yet: none of the %lld papers has "
			    "every author matched.",
			    total);
		core_html_pop(h);
	}
	core_html_pop(h);
}

static void
fields_block(struct core_html *h, const struct pages_page *p,
    const json_t *fields, const char *active)
{
	const json_t *f;
	long long max = 0;
	size_t i;

	if (json_array_size(fields) == 0)
		return;
	json_array_foreach(fields, i, f) if (pages_int(f, "papers", 0) > max)
	    max = pages_int(f, "papers", 0);
	pages_h_block(h, "fields");
	pages_h_open(h, CORE_TAG_UL, "bars");
	json_array_foreach(fields, i, f)
	{
		const char *c = pages_str(f, "category"),
			   *u = pages_str(f, "url");

		bar_row(h, c != NULL ? c : "", u != NULL ? href(p, u) : NULL,
		    pages_int(f, "papers", 0), max, 1,
		    active != NULL && c != NULL && strcmp(active, c) == 0);
	}
	core_html_pop(h);
	core_html_pop(h);
}

/* A namesake r: linked name, papers and h-index. */
static void
same_name_row(struct core_html *h, const struct pages_page *p, const json_t *r)
{
	char *s;

	core_html_elem(h, CORE_TAG_LI, NULL);
	pages_h_link(h, href(p, pages_str(r, "url")), NULL,
	    pages_str(r, "name"));
	s = pages_count_of(pages_int(r, "papers", 0), "paper", "papers");
	pages_h_open(h, CORE_TAG_SPAN, "faint");
	core_html_textf(h, " — %s", s);
	if (pages_has_int(r, "h_index"))
		core_html_textf(h, ", h %lld", pages_int(r, "h_index", 0));
	core_html_pop(h);
	free(s);
	core_html_pop(h);
}

static void
same_name_block(struct core_html *h, const struct pages_page *p,
    const json_t *sn)
{
	const json_t *items = json_object_get(sn, "items");
	long long total = pages_int(sn, "total", 0);

	if (json_array_size(items) == 0)
		return;
	pages_h_block(h, "same name");
	pages_html_list(h, p, items, "plain", same_name_row);
	if (total > (long long)json_array_size(items)) {
		pages_h_open(h, CORE_TAG_P, "caption");
		core_html_textf(h, "and %lld more with this name.",
		    total - (long long)json_array_size(items));
		core_html_pop(h);
	}
	pages_h_text(h, CORE_TAG_P, "caption",
	    "These are either different people who publish under the same "
	    "name, or the same person in records that the sources have not "
	    "merged yet.");
	core_html_pop(h);
}

/* A linked external profile: the source's name, then its id. */
static void
profile_row(struct core_html *h, const struct pages_page *p, const json_t *pr)
{
	(void)p;
	core_html_elem(h, CORE_TAG_LI, NULL);
	pages_h_link(h, pages_str(pr, "url"), NULL, pages_str(pr, "name"));
	core_html_text(h, " ");
	pages_h_text(h, CORE_TAG_SPAN, "mono faint", pages_str(pr, "id"));
	core_html_pop(h);
}

static void
identity_block(struct core_html *h, const struct pages_page *p,
    const json_t *profiles)
{
	pages_h_block(h, "identity via OpenAlex / Semantic Scholar / ORCID");
	if (json_array_size(profiles) == 0)
		pages_h_text(h, CORE_TAG_P, "caption",
		    "No OpenAlex, Semantic "
		    "Scholar or ORCID record is linked to this profile yet.");
	else
		pages_html_list(h, p, profiles, "plain", profile_row);
	core_html_pop(h);
}

/* An institution in of the researcher: linked name, country, latest. */
static void
institution_row(struct core_html *h, const struct pages_page *p,
    const json_t *in)
{
	const char *c = pages_str(in, "country");

	core_html_elem(h, CORE_TAG_LI, NULL);
	pages_h_link(h, href(p, pages_str(in, "url")), NULL,
	    pages_str(in, "name"));
	if (c != NULL || json_is_true(json_object_get(in, "last_known"))) {
		pages_h_open(h, CORE_TAG_SPAN, "faint");
		if (c != NULL)
			core_html_textf(h, " · %s", c);
		if (json_is_true(json_object_get(in, "last_known")))
			core_html_text(h, " · latest");
		core_html_pop(h);
	}
	core_html_pop(h);
}

static void
institutions_block(struct core_html *h, const struct pages_page *p,
    const json_t *insts)
{
	if (json_array_size(insts) == 0)
		return;
	pages_h_block(h, "institutions");
	pages_html_list(h, p, insts, "plain", institution_row);
	core_html_pop(h);
}

/* Visible links to the page's own feed (the head links it too). */
static void
feed_link(struct core_html *h, const char *feed)
{
	pages_h_open(h, CORE_TAG_P, "feed-link");
	core_html_text(h, "New papers: ");
	pages_h_feed_links(h, feed, NULL);
	core_html_pop(h);
}

/*
 * The follow button: the per-user fragment (slot, "/account/follow/" for
 * a researcher, "/account/follow/institution/"), or a sign-in link.
 */
static void
follow_slot(struct core_html *h, const char *slot, long long id,
    const char *rpath)
{
	struct core_buf next = CORE_BUF_INIT;
	char *ssi, *u;

	ssi = core_xasprintf("%s%lld", slot, id);
	core_url_encode(&next, rpath, 1);
	u = core_xasprintf("/signin?next=%s", core_buf_cstr(&next));
	pages_h_open(h, CORE_TAG_DIV, "follow");
	core_html_ssi_if_signed_in(h, ssi);
	pages_h_link(h, u, "button button-primary", "Follow");
	core_html_ssi_endif(h);
	core_html_pop(h);
	free(ssi);
	free(u);
	core_buf_free(&next);
}

static void
papers_block(struct core_html *h, const struct pages_page *p, const json_t *pl)
{
	const json_t *pg = json_object_get(pl, "pagination");
	const char *cat = pages_str(pl, "category");
	const char *sort = pages_str(pl, "sort");
	int cites = sort != NULL && strcmp(sort, "citations") == 0;
	long long total = pages_int(pg, "total", 0);
	char *s;

	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "papers hairline"),
		CORE_A(ID, "papers"), CORE_A_END });
	pages_h_open(h, CORE_TAG_DIV, "list-head");
	pages_h_open(h, CORE_TAG_H2, NULL);
	s = pages_count_of(total, "paper", "papers");
	core_html_text(h, s);
	free(s);
	if (cat != NULL) {
		core_html_text(h, " in ");
		pages_h_text(h, CORE_TAG_SPAN, "mono", cat);
	}
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_NAV,
	    (const struct core_attr[]){ CORE_A(CLASS, "sort"),
		CORE_A(ARIA_LABEL, "Sort papers"), CORE_A_END });
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, href(p, pages_str(pl, "newest_url"))),
		CORE_A(ARIA_CURRENT, cites ? NULL : "true"), CORE_A_END },
	    "newest");
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){
		CORE_A(HREF, href(p, pages_str(pl, "citations_url"))),
		CORE_A(ARIA_CURRENT, cites ? "true" : NULL), CORE_A_END },
	    "most cited");
	core_html_pop(h);
	core_html_pop(h); /* list-head */
	if (cat != NULL) {
		pages_h_open(h, CORE_TAG_P, "filters");
		core_html_text(h, "Filtered by ");
		core_html_elem(h, CORE_TAG_A,
		    (const struct core_attr[]){
			CORE_A(CLASS, "pill pill-active"),
			CORE_A(HREF, href(p, pages_str(pl, "unfiltered_url"))),
			CORE_A(TITLE, "remove this filter"), CORE_A_END });
		pages_h_text(h, CORE_TAG_SPAN, "mono", cat);
		core_html_elemtext(h, CORE_TAG_SPAN,
		    (const struct core_attr[]){ CORE_A(ARIA_HIDDEN, "true"),
			CORE_A_END },
		    " ×");
		pages_h_text(h, CORE_TAG_SPAN, "sr-only", " (remove filter)");
		core_html_pop(h);
		core_html_pop(h);
	}
	if (json_array_size(json_object_get(pl, "items")) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    cat != NULL
			? "No papers of this researcher in this category."
			: "No papers are attached to this profile yet.");
	else
		pages_html_list(h, p, json_object_get(pl, "items"), "cards",
		    card);
	pages_html_pager(h, p, pg, cites ? "← more cited" : "← newer",
	    cites ? "less cited →" : "older →");
	core_html_pop(h);
}

void
pages_html_researcher(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *metrics = json_object_get(m, "metrics");
	const json_t *pl = json_object_get(m, "papers");
	const json_t *net = json_object_get(m, "network");
	const char *url = pages_str(m, "url"), *name = pages_str(m, "name");
	struct core_buf desc = CORE_BUF_INIT;
	json_t *person, *same, *aff;
	const json_t *v;
	size_t i;
	char feed[64];
	char *s;

	core_buf_printf(&desc, "%s: %lld paper%s on weft",
	    name != NULL ? name : "", pages_int(metrics, "papers_here", 0),
	    pages_int(metrics, "papers_here", 0) == 1 ? "" : "s");
	if (pages_has_int(metrics, "h_index"))
		core_buf_printf(&desc, ", h-index %lld",
		    pages_int(metrics, "h_index", 0));
	core_buf_puts(&desc, "; co-authors, fields and author positions.");

	person = json_pack("{s:s,s:o,s:o,s:o,s:o}", "@type", "Person", "@id",
	    json_sprintf("%s#person", url), "url", core_json_str(url), "name",
	    core_json_str(name), "description",
	    core_json_str(core_buf_cstr(&desc)));
	same = json_array();
	json_array_foreach(json_object_get(m, "profiles"), i, v)
	    json_array_append_new(same, core_json_str(pages_str(v, "url")));
	if (json_array_size(same) > 0)
		json_object_set_new(person, "sameAs", same);
	else
		json_decref(same);
	aff = json_array();
	json_array_foreach(json_object_get(m, "institutions"), i, v)
	    json_array_append_new(aff,
		json_pack("{s:s,s:o,s:o}", "@type", "Organization", "name",
		    core_json_str(pages_str(v, "name")), "url",
		    core_json_str(pages_str(v, "url"))));
	if (json_array_size(aff) > 0)
		json_object_set_new(person, "affiliation", aff);
	else
		json_decref(aff);
	entity_open(h, p, &researcher_page, name, url, core_buf_cstr(&desc),
	    person, pages_int(m, "id", 0), feed, sizeof(feed));

	pages_h_open(h, CORE_TAG_ASIDE, "rail");
	pages_h_eyebrow(h, "researcher");
	pages_h_text(h, CORE_TAG_H1, NULL, name);
	core_html_elem(h, CORE_TAG_UL,
	    (const struct core_attr[]){ CORE_A(CLASS, "badges"),
		CORE_A(ARIA_LABEL, "Metrics"), CORE_A_END });
	s = pages_count_of(pages_int(metrics, "papers_here", 0), "paper here",
	    "papers here");
	pages_h_text(h, CORE_TAG_LI, "badge", s);
	free(s);
	badge(h, metrics, "h_index", "h-index", NULL, NULL, "badge badge-red");
	badge(h, metrics, "citations", NULL, "citation", "citations", "badge");
	badge(h, metrics, "works_total", NULL, "work total", "works total",
	    "badge");
	core_html_pop(h);
	if ((s = pages_metrics_source(metrics)) != NULL) {
		pages_h_text(h, CORE_TAG_P, "caption", s);
		free(s);
	}
	if ((s = pages_metrics_here(metrics)) != NULL) {
		pages_h_text(h, CORE_TAG_P, "caption", s);
		free(s);
	}
	pages_h_text(h, CORE_TAG_P, "note",
	    "Papers are matched to "
	    "researchers newest first, so older work may not be attached to "
	    "this profile yet.");
	follow_slot(h, "/account/follow/", pages_int(m, "id", 0), href(p, url));
	{
		char rid[24];

		snprintf(rid, sizeof(rid), "%lld", pages_int(m, "id", 0));
		ask_link(h, "researcher", rid, "Ask about these papers");
	}
	feed_link(h, feed);
	position_block(h, json_object_get(m, "author_position"));
	fields_block(h, p, json_object_get(m, "fields"),
	    pages_str(pl, "category"));
	same_name_block(h, p, json_object_get(m, "same_name"));
	pages_html_evidence_summary(h, p, json_object_get(m, "evidence"), 1);
	identity_block(h, p, json_object_get(m, "profiles"));
	institutions_block(h, p, json_object_get(m, "institutions"));
	core_html_pop(h); /* aside */

	pages_h_open(h, CORE_TAG_DIV, "main-col");
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "block network"),
		CORE_A(ARIA_LABEL, "Co-author network"), CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, "eyebrow", "co-authors");
	s = pages_large_papers_note(net);
	if (json_array_size(json_object_get(net, "nodes")) > 0)
		pages_network_svg(h, net, NULL);
	else if (s == NULL)
		pages_h_text(h, CORE_TAG_P, "caption",
		    "No co-author of these "
		    "papers is matched to a profile yet.");
	if (s != NULL) {
		pages_h_text(h, CORE_TAG_P, "caption", s);
		free(s);
	}
	core_html_pop(h);
	if (json_array_size(json_object_get(m, "timeline")) > 0) {
		core_html_elem(h, CORE_TAG_SECTION,
		    (const struct core_attr[]){
			CORE_A(CLASS, "block timeline-block"),
			CORE_A(ARIA_LABEL, "Papers per year"), CORE_A_END });
		pages_h_text(h, CORE_TAG_H2, "eyebrow", "papers per year");
		pages_timeline_svg(h, json_object_get(m, "timeline"));
		core_html_pop(h);
	}
	papers_block(h, p, pl);
	core_html_pop(h); /* main-col */

	pages_layout_close(h, p);
	core_buf_free(&desc);
}

/* ---------------------------------------------------------------- institution */

void
pages_html_institution(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *rs = json_object_get(m, "researchers");
	const json_t *aliases = json_object_get(m, "aliases"), *v;
	const char *url = pages_str(m, "url"), *name = pages_str(m, "name");
	const char *country = pages_str(m, "country"), *s;
	struct core_buf desc = CORE_BUF_INIT;
	json_t *org;
	long long total = pages_int(rs, "total", 0);
	size_t i;
	char *c, feed[64];

	core_buf_printf(&desc,
	    "%s%s%s: %lld researcher%s on weft and their "
	    "recent papers.",
	    name != NULL ? name : "", country != NULL ? ", " : "",
	    country != NULL ? country : "", total, total == 1 ? "" : "s");
	org = json_pack("{s:s,s:o,s:o,s:o}", "@type", "Organization", "@id",
	    json_sprintf("%s#organization", url), "url", core_json_str(url),
	    "name", core_json_str(name));
	set_str(org, "sameAs", pages_str(m, "ror_url"));
	if (json_array_size(aliases) > 0)
		json_object_set_new(org, "alternateName",
		    json_deep_copy(aliases));
	if (country != NULL)
		json_object_set_new(org, "address",
		    json_pack("{s:s,s:o}", "@type", "PostalAddress",
			"addressCountry",
			core_json_str(pages_str(m, "country_code") != NULL
				? pages_str(m, "country_code")
				: country)));
	entity_open(h, p, &institution_page, name, url, core_buf_cstr(&desc),
	    org, pages_int(m, "id", 0), feed, sizeof(feed));

	pages_h_eyebrow(h, "institution");
	pages_h_text(h, CORE_TAG_H1, NULL, name);
	pages_h_open(h, CORE_TAG_UL, "badges");
	if (country != NULL)
		pages_h_text(h, CORE_TAG_LI, "badge", country);
	if ((s = pages_str(m, "kind")) != NULL)
		pages_h_text(h, CORE_TAG_LI, "badge", s);
	c = pages_count_of(total, "researcher here", "researchers here");
	pages_h_text(h, CORE_TAG_LI, "badge", c);
	free(c);
	core_html_pop(h);
	follow_slot(h, "/account/follow/institution/", pages_int(m, "id", 0),
	    href(p, url));
	feed_link(h, feed);

	pages_h_open(h, CORE_TAG_DL, "facts-list facts-wide");
	if ((s = pages_str(m, "ror_id")) != NULL) {
		fact(h, "ROR");
		pages_h_link(h, pages_str(m, "ror_url"), "mono", s);
		core_html_pop(h);
	}
	if ((s = pages_str(m, "website")) != NULL && *s != '\0') {
		fact(h, "Website");
		pages_h_link(h, s, NULL, s);
		core_html_pop(h);
	}
	if (pages_has_int(m, "established")) {
		fact(h, "Established");
		core_html_textf(h, "%lld", pages_int(m, "established", 0));
		core_html_pop(h);
	}
	if ((s = pages_str(m, "status")) != NULL && strcmp(s, "active") != 0) {
		fact(h, "Status");
		core_html_text(h, s);
		core_html_pop(h);
	}
	if (json_array_size(aliases) > 0) {
		fact(h, "Also known as");
		json_array_foreach(aliases, i, v)
		{
			if (i > 0)
				core_html_text(h, "; ");
			if (json_is_string(v))
				core_html_text(h, json_string_value(v));
		}
		core_html_pop(h);
	}
	core_html_pop(h); /* dl */

	pages_h_open(h, CORE_TAG_DIV, "two-col");
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "block"),
		CORE_A(ARIA_LABEL, "Researchers"), CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, NULL, "Researchers");
	if (json_array_size(json_object_get(rs, "items")) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    "No researcher on weft is "
		    "linked to this institution yet.");
	else {
		pages_h_open(h, CORE_TAG_UL, "rows");
		json_array_foreach(json_object_get(rs, "items"), i, v)
		{
			core_html_elem(h, CORE_TAG_LI, NULL);
			pages_h_link(h, href(p, pages_str(v, "url")), NULL,
			    pages_str(v, "name"));
			c = pages_count_of(pages_int(v, "papers", 0), "paper",
			    "papers");
			pages_h_text(h, CORE_TAG_SPAN, "faint", c);
			free(c);
			c = pages_link_years(v);
			core_html_text(h, " ");
			pages_h_text(h, CORE_TAG_SPAN, "faint", c);
			free(c);
			core_html_pop(h);
		}
		core_html_pop(h);
		if (total >
		    (long long)json_array_size(json_object_get(rs, "items"))) {
			pages_h_open(h, CORE_TAG_P, "caption");
			core_html_textf(h,
			    "The %zu with the most papers here, "
			    "of %lld.",
			    json_array_size(json_object_get(rs, "items")),
			    total);
			core_html_pop(h);
		}
	}
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "block"),
		CORE_A(ARIA_LABEL, "Recent papers"), CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, NULL, "Recent papers");
	if (json_array_size(json_object_get(m, "recent_papers")) == 0)
		pages_h_text(h, CORE_TAG_P, "note", "No papers yet.");
	else {
		pages_h_text(h, CORE_TAG_P, "caption", pages_while_there);
		pages_html_list(h, p, json_object_get(m, "recent_papers"),
		    "cards", card);
		pages_html_pager(h, p, json_object_get(m, "pagination"),
		    "← newer", "older →");
	}
	core_html_pop(h);
	core_html_pop(h); /* two-col */

	pages_layout_close(h, p);
	core_buf_free(&desc);
}

/* ---------------------------------------------------------------- directories */

void
pages_html_directory(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *pg = json_object_get(m, "pagination"), *v;
	const char *url = pages_str(m, "url"), *title = pages_str(m, "title");
	int people = p->kind == PAGES_RESEARCHERS;
	char num[32];
	json_t *ld;
	size_t i;
	char *s, *d;

	d = core_xasprintf("%s on weft, %s.", title,
	    people ? "by number of papers here"
		   : "by number of researchers here");
	ld =
	    json_pack("{s:s,s:[o]}", "@context", "https://schema.org", "@graph",
		crumbs(p->base, title,
		    people ? "/researchers" : "/institutions", NULL, NULL));
	pages_layout_page(h, p, title, d, url, ld, "wrap directory");

	pages_h_eyebrow(h, "directory");
	pages_h_text(h, CORE_TAG_H1, NULL, title);
	pages_h_open(h, CORE_TAG_P, "lead");
	core_html_textf(h, "%s %s, ordered by %s.",
	    pages_num(num, sizeof(num), pages_int(pg, "total", 0)),
	    people ? "researchers with papers here" : "institutions",
	    people ? "papers here" : "researchers here, then name");
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_UL, "rows");
	json_array_foreach(json_object_get(m, "items"), i, v)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, href(p, pages_str(v, "url")), NULL,
		    pages_str(v, "name"));
		pages_h_open(h, CORE_TAG_SPAN, "faint");
		if (people) {
			s = pages_count_of(pages_int(v, "papers", 0), "paper",
			    "papers");
			core_html_text(h, s);
			free(s);
			if (pages_has_int(v, "h_index"))
				core_html_textf(h, " · h-index %lld",
				    pages_int(v, "h_index", 0));
		} else {
			if (pages_str(v, "country") != NULL)
				core_html_textf(h, "%s · ",
				    pages_str(v, "country"));
			s = pages_count_of(pages_int(v, "researchers", 0),
			    "researcher", "researchers");
			core_html_text(h, s);
			free(s);
		}
		core_html_pop(h);
		core_html_pop(h);
	}
	core_html_pop(h);
	pages_html_pager(h, p, pg, "← previous", "next →");
	pages_layout_close(h, p);
	json_decref(ld);
	free(d);
}

/* ---------------------------------------------------------------- home */

static void
search_form(struct core_html *h, const char *cls, const char *id)
{
	pages_h_search_open(h, cls);
	pages_h_search_box(h, id, NULL,
	    "A title, a researcher, an institution, an arXiv id", "300");
	core_html_pop(h);
}

static void
stat(struct core_html *h, const json_t *counts, const char *key,
    const char *label, const char *url)
{
	char num[32];

	core_html_elem(h, CORE_TAG_LI, NULL);
	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){ CORE_A(HREF, url),
		CORE_A(CLASS, "stat"), CORE_A_END });
	pages_h_text(h, CORE_TAG_SPAN, "stat-n",
	    pages_has_int(counts, key)
		? pages_num(num, sizeof(num), pages_int(counts, key, 0))
		: "—");
	pages_h_text(h, CORE_TAG_SPAN, "stat-label", label);
	core_html_pop(h);
	core_html_pop(h);
}

void
pages_html_home(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *counts = json_object_get(m, "counts");

	/* The WebSite and Organization JSON-LD: on every page (layout.c). */
	pages_layout_page(h, p, NULL,
	    "weft ties arXiv papers to the researchers who wrote "
	    "them and the institutions they work at: browse by "
	    "person, field and place, in HTML, markdown or JSON.",
	    pages_str(m, "url"), NULL, "wrap home");

	pages_h_open(h, CORE_TAG_SECTION, "hero");
	pages_h_eyebrow(h, "an open scholarly archive");
	pages_h_text(h, CORE_TAG_H1, NULL,
	    "Papers, the people who write them, and where they work.");
	pages_h_text(h, CORE_TAG_P, "lead",
	    "weft follows arXiv and weaves "
	    "each paper to its authors' profiles and institutions, so you "
	    "can read a field through the people in it.");
	search_form(h, "hero-search", "home-q");
	pages_h_open(h, CORE_TAG_UL, "stats");
	stat(h, counts, "papers", "papers", "/search");
	stat(h, counts, "researchers", "researchers", "/researchers");
	stat(h, counts, "institutions", "institutions", "/institutions");
	core_html_pop(h);
	core_html_pop(h);

	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "latest hairline"),
		CORE_A(ARIA_LABEL, "Latest papers"), CORE_A_END });
	pages_h_open(h, CORE_TAG_DIV, "list-head");
	pages_h_text(h, CORE_TAG_H2, NULL, "Latest papers");
	pages_h_feed_links(h, "/rss/latest.xml", "faint");
	core_html_pop(h);
	if (json_array_size(json_object_get(m, "latest")) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    "No papers are loaded yet.");
	else
		pages_html_list(h, p, json_object_get(m, "latest"), "cards",
		    card);
	core_html_pop(h);

	pages_layout_close(h, p);
}

/* ---------------------------------------------------------------- docs, choices, errors */

void
pages_html_doc(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model;
	json_t *ld;

	ld =
	    json_pack("{s:s,s:[o]}", "@context", "https://schema.org", "@graph",
		crumbs(p->base, NULL, NULL, pages_str(m, "title"),
		    pages_str(m, "url")));
	pages_layout_page(h, p, pages_str(m, "title"), NULL,
	    pages_str(m, "url"), ld, "wrap doc");
	pages_h_open(h, CORE_TAG_ARTICLE, "prose");
	core_html_md(h, pages_str(m, "markdown"));
	core_html_pop(h);
	pages_layout_close(h, p);
	json_decref(ld);
}

void
pages_html_choices(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *v;
	size_t i;
	char *t;

	t = core_xasprintf("Institutions named “%s”",
	    pages_str(m, "query") ? pages_str(m, "query") : "");
	pages_layout_page(h, p, t, NULL, NULL, NULL, "wrap choices");
	pages_h_eyebrow(h, "several matches");
	pages_h_text(h, CORE_TAG_H1, NULL, t);
	pages_h_text(h, CORE_TAG_P, "lead",
	    "More than one institution has "
	    "this name or alias. Pick the one you mean:");
	pages_h_open(h, CORE_TAG_UL, "rows");
	json_array_foreach(json_object_get(m, "candidates"), i, v)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, href(p, pages_str(v, "url")), NULL,
		    pages_str(v, "name"));
		if (pages_str(v, "country") != NULL)
			pages_h_text(h, CORE_TAG_SPAN, "faint",
			    pages_str(v, "country"));
		core_html_pop(h);
	}
	core_html_pop(h);
	pages_layout_close(h, p);
	free(t);
}

/* The "where to look next" list of the 404 page. */
static void
look_next(struct core_html *h)
{
	static const char *const rows[] = {
		"/papers/{arxiv-id}-{title}",
		"The id alone works and redirects, e.g. /papers/2512.20345; "
		"old-style ids such as /papers/math.GT/0309136 too.",
		"/researchers/{id}-{name}",
		"The id alone works and redirects. Ids come from search, "
		"papers and the researcher directory, not from names.",
		"/institutions/{id}-{name}",
		"An id, a ROR id or an exact name all lead to the canonical "
		"page.",
		NULL,
		NULL,
	};
	size_t i;

	pages_h_text(h, CORE_TAG_H2, NULL, "Where to look next");
	pages_h_open(h, CORE_TAG_DL, "patterns");
	for (i = 0; rows[i] != NULL; i += 2) {
		pages_h_open(h, CORE_TAG_DIV, "pattern");
		pages_h_text(h, CORE_TAG_DT, "mono", rows[i]);
		pages_h_text(h, CORE_TAG_DD, "soft", rows[i + 1]);
		core_html_pop(h);
	}
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_P, "soft");
	core_html_text(h, "Every indexable URL is listed in the ");
	pages_h_link(h, "/sitemap.xml", NULL, "sitemap");
	core_html_text(h, ". Programs and agents: see ");
	pages_h_link(h, "/llms.txt", NULL, "llms.txt");
	core_html_text(h,
	    " — this URL gives the same guidance as markdown "
	    "when asked with an ");
	pages_h_text(h, CORE_TAG_CODE, NULL, "Accept: text/markdown");
	core_html_text(h, " header.");
	core_html_pop(h);
}

void
pages_html_error_page(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model;
	long long st = pages_int(m, "status", 500);
	const char *msg = pages_str(m, "message");
	char eb[16];

	snprintf(eb, sizeof(eb), "%lld", st);
	pages_layout_page(h, p,
	    st == 404 ? "Page not found" : pages_str(m, "title"), NULL, NULL,
	    NULL, "wrap error-page");
	pages_h_eyebrow(h, eb);
	if (st == 404) {
		pages_h_text(h, CORE_TAG_H1, NULL, "This page is not here");
		pages_h_text(h, CORE_TAG_P, "lead",
		    "The link may be mistyped, "
		    "or the paper may not be harvested yet: new arXiv papers "
		    "arrive every day, and the newest can take a little while "
		    "to show up.");
		if (msg != NULL && strcmp(msg, core_err_str(CORE_ENOTFOUND)))
			pages_h_text(h, CORE_TAG_P, "faint", msg);
	} else {
		pages_h_text(h, CORE_TAG_H1, NULL, pages_str(m, "title"));
		pages_h_text(h, CORE_TAG_P, "lead", msg);
	}
	pages_h_open(h, CORE_TAG_P, "actions");
	pages_h_link(h, "/search", "button button-primary",
	    "Search the archive");
	pages_h_link(h, "/", "button", "Go home");
	core_html_pop(h);
	if (st == 404)
		look_next(h);
	pages_layout_close(h, p);
}
