/*
 * layout.c -- the page shell every HTML page shares: <head> (title,
 * description, canonical, alternates, OpenGraph and Twitter tags,
 * JSON-LD), the header (brand, search, navigation, the account slot as
 * an SSI include) and the footer.  No inline scripts or styles: the CSP
 * forbids them; everything visual is in /static/weft.css.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "card/card.h"

void
pages_h_open(struct core_html *h, enum core_tag t, const char *cls)
{
	core_html_elem(h, t,
	    (const struct core_attr[]){ CORE_A(CLASS, cls), CORE_A_END });
}

void
pages_h_text(struct core_html *h, enum core_tag t, const char *cls,
    const char *text)
{
	core_html_elemtext(h, t,
	    (const struct core_attr[]){ CORE_A(CLASS, cls), CORE_A_END },
	    text != NULL ? text : "");
}

void
pages_h_link(struct core_html *h, const char *href, const char *cls,
    const char *text)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ CORE_A(HREF, href), CORE_A(CLASS, cls),
		CORE_A_END },
	    text != NULL ? text : "");
}

char *
pages_feed_path(const char *xml, enum core_feed_fmt fmt)
{
	size_t n = strcspn(xml, "?");

	if (n < 4 || strncmp(xml + n - 4, ".xml", 4) != 0)
		return core_xstrdup(xml);
	return core_xasprintf("%.*s.%s%s", (int)(n - 4), xml,
	    core_feed_ext[fmt], xml + n);
}

/* A <link rel="alternate"> in the head for the feed xml in each format. */
static void
feed_alternates(struct core_html *h, const char *xml, const char *title)
{
	char *u;
	int i;

	for (i = 0; i < CORE_FEED__MAX; i++) {
		u = pages_feed_path(xml, (enum core_feed_fmt)i);
		core_html_elem(h, CORE_TAG_LINK,
		    (const struct core_attr[]){ CORE_A(REL, "alternate"),
			CORE_A(TYPE, core_feed_mime[i]), CORE_A(TITLE, title),
			CORE_A(HREF, u), CORE_A_END });
		free(u);
	}
}

void
pages_h_feed_links(struct core_html *h, const char *xml, const char *cls)
{
	char *u;
	int i;

	for (i = 0; i < CORE_FEED__MAX; i++) {
		if (i > 0)
			core_html_text(h, " · ");
		u = pages_feed_path(xml, (enum core_feed_fmt)i);
		core_html_elemtext(h, CORE_TAG_A,
		    (const struct core_attr[]){ CORE_A(HREF, u),
			CORE_A(CLASS, cls), CORE_A(TYPE, core_feed_mime[i]),
			CORE_A_END },
		    core_feed_label[i]);
		free(u);
	}
}

void
pages_md_feed_links(struct core_buf *b, const char *base, const char *xml)
{
	char *path, *u;
	int i;

	for (i = 0; i < CORE_FEED__MAX; i++) {
		path = pages_feed_path(xml, (enum core_feed_fmt)i);
		u = core_xasprintf("%s%s", base, path);
		core_buf_puts(b, "- ");
		core_buf_puts(b, core_feed_label[i]);
		core_buf_puts(b, ": ");
		core_md_link(b, u, u);
		core_buf_putc(b, '\n');
		free(u);
		free(path);
	}
}

void
pages_h_eyebrow(struct core_html *h, const char *text)
{
	pages_h_text(h, CORE_TAG_P, "eyebrow", text);
}

void
pages_h_block(struct core_html *h, const char *eyebrow)
{
	pages_h_open(h, CORE_TAG_SECTION, "block");
	pages_h_text(h, CORE_TAG_H2, "eyebrow", eyebrow);
}

void
pages_h_search_open(struct core_html *h, const char *cls)
{
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ CORE_A(CLASS, cls),
		CORE_A(ACTION, "/search"), CORE_A(METHOD, "get"),
		CORE_A(ROLE, "search"), CORE_A_END });
}

void
pages_h_search_box(struct core_html *h, const char *id, const char *value,
    const char *placeholder, const char *maxlength)
{
	core_html_elemtext(h, CORE_TAG_LABEL,
	    (const struct core_attr[]){ CORE_A(CLASS, "sr-only"),
		CORE_A(FOR, id), CORE_A_END },
	    "Search the archive");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ CORE_A(ID, id), CORE_A(TYPE, "search"),
		CORE_A(NAME, "q"), CORE_A(VALUE, value),
		CORE_A(PLACEHOLDER, placeholder), CORE_A(MAXLENGTH, maxlength),
		CORE_A_END });
	core_html_elemtext(h, CORE_TAG_BUTTON,
	    (const struct core_attr[]){ CORE_A(TYPE, "submit"),
		CORE_A(CLASS, "button button-primary"), CORE_A_END },
	    "Search");
}

/* <meta key="name" content="content"> (key: name or property). */
static void
meta(struct core_html *h, enum core_attrname key, const char *name,
    const char *content)
{
	if (content == NULL)
		return;
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ { key, name }, CORE_A(CONTENT, content),
		CORE_A_END });
}

static void
meta_name(struct core_html *h, const char *name, const char *content)
{
	meta(h, CORE_ATTR_NAME, name, content);
}

static void
meta_prop(struct core_html *h, const char *prop, const char *content)
{
	meta(h, CORE_ATTR_PROPERTY, prop, content);
}

/* <link rel="alternate" type=mime href=canonical?format=fmt>. */
static void
alternate(struct core_html *h, const char *canonical, const char *mime,
    const char *fmt)
{
	char *u;

	u = core_xasprintf("%s%sformat=%s", canonical,
	    strchr(canonical, '?') != NULL ? "&" : "?", fmt);
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ CORE_A(REL, "alternate"),
		CORE_A(TYPE, mime), CORE_A(HREF, u), CORE_A_END });
	free(u);
}

/* The header's account slot on public pages: filled by nginx SSI from
 * the accounts module for signed-in browsers, a sign-in link otherwise. */
static void
account_slot(struct core_html *h, const void *arg)
{
	(void)arg;
	core_html_ssi_if_signed_in(h, "/account/nav");
	pages_h_link(h, "/signin", "signin", "Sign in");
	core_html_ssi_endif(h);
}

/*
 * The site itself, on every page: a WebSite (with its search, for
 * search engines' site links) published by the Organization weft.
 */
static void
site_jsonld(struct core_html *h, const char *base)
{
	json_t *ld;
	char *tmpl, *org, *site;

	tmpl = core_xasprintf("%s/search?q={search_term_string}", base);
	org = core_xasprintf("%s/#organization", base);
	site = core_xasprintf("%s/#website", base);
	ld =
	    json_pack("{s:s,s:[{s:s,s:s,s:s,s:o,s:o},"
		      "{s:s,s:s,s:s,s:o,s:s,s:{s:s},s:{s:s,s:{s:s,s:s},s:s}}]}",
		"@context", "https://schema.org", "@graph", "@type",
		"Organization", "@id", org, "name", "weft", "url",
		pages_json_abs(base, "/"), "logo",
		pages_json_abs(base, "/static/apple-touch-icon.png"), "@type",
		"WebSite", "@id", site, "name", "weft", "url",
		pages_json_abs(base, "/"), "description",
		"arXiv papers, their researchers and institutions.",
		"publisher", "@id", org, "potentialAction", "@type",
		"SearchAction", "target", "@type", "EntryPoint", "urlTemplate",
		tmpl, "query-input", "required name=search_term_string");
	if (ld != NULL)
		core_html_jsonld(h, ld);
	json_decref(ld);
	free(tmpl);
	free(org);
	free(site);
}

void
pages_layout_open(struct core_html *h, const struct pages_page *p,
    const struct pages_head *hd)
{
	const json_t *v;
	char *title, *card;
	size_t i;

	title = hd->title != NULL
	    ? core_xasprintf("%s · weft", hd->title)
	    : core_xstrdup("weft · papers, researchers and institutions");

	core_html_doctype(h);
	core_html_elem(h, CORE_TAG_HTML,
	    (const struct core_attr[]){ CORE_A(LANG, "en"), CORE_A_END });
	core_html_elem(h, CORE_TAG_HEAD, NULL);
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ CORE_A(CHARSET, "utf-8"), CORE_A_END });
	meta_name(h, "viewport", "width=device-width, initial-scale=1");
	core_html_elemtext(h, CORE_TAG_TITLE, NULL, title);
	meta_name(h, "description", hd->description);
	if (hd->noindex)
		meta_name(h, "robots", "noindex");
	if (hd->canonical != NULL) {
		core_html_elem(h, CORE_TAG_LINK,
		    (const struct core_attr[]){ CORE_A(REL, "canonical"),
			CORE_A(HREF, hd->canonical), CORE_A_END });
		alternate(h, hd->canonical, "text/markdown", "md");
		alternate(h, hd->canonical, "application/json", "json");
		if (hd->bib)
			alternate(h, hd->canonical, "application/x-bibtex",
			    "bib");
	}
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ CORE_A(REL, "stylesheet"),
		CORE_A(HREF, "/static/weft.css"), CORE_A_END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ CORE_A(REL, "icon"),
		CORE_A(TYPE, "image/svg+xml"),
		CORE_A(HREF, "/static/favicon.svg"), CORE_A_END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ CORE_A(REL, "apple-touch-icon"),
		CORE_A(HREF, "/static/apple-touch-icon.png"), CORE_A_END });
	feed_alternates(h, "/rss/latest.xml", "weft: latest papers");
	if (hd->feed != NULL)
		feed_alternates(h, hd->feed,
		    hd->title != NULL ? hd->title : "weft");
	meta_prop(h, "og:site_name", "weft");
	meta_prop(h, "og:type", hd->og_type != NULL ? hd->og_type : "website");
	meta_prop(h, "og:title", hd->title != NULL ? hd->title : "weft");
	meta_prop(h, "og:description", hd->description);
	meta_prop(h, "og:url", hd->canonical);
	/* The page's card (card/): a 1200x630 PNG drawn on the server. */
	if ((card = pages_card_url(p)) != NULL) {
		meta_prop(h, "og:image", card);
		meta_prop(h, "og:image:type", "image/png");
		meta_prop(h, "og:image:width", "1200");
		meta_prop(h, "og:image:height", "630");
		meta_prop(h, "og:image:alt", title);
	}
	meta_name(h, "twitter:card",
	    card != NULL ? "summary_large_image" : "summary");
	meta_name(h, "twitter:title", hd->title != NULL ? hd->title : "weft");
	meta_name(h, "twitter:description", hd->description);
	if (card != NULL) {
		meta_name(h, "twitter:image", card);
		meta_name(h, "twitter:image:alt", title);
	}
	free(card);
	/* Page-specific <meta name> pairs (the paper's Highwire tags). */
	json_array_foreach(hd->meta, i, v)
	    meta_name(h, json_string_value(json_array_get(v, 0)),
		json_string_value(json_array_get(v, 1)));
	site_jsonld(h, p->base);
	if (hd->jsonld != NULL)
		core_html_jsonld(h, hd->jsonld);
	core_html_pop(h); /* head */

	core_html_elem(h, CORE_TAG_BODY, NULL);
	core_site_header(h, account_slot, p);
	core_html_elem(h, CORE_TAG_MAIN,
	    (const struct core_attr[]){ CORE_A(ID, "main"),
		CORE_A(CLASS, hd->main_class != NULL ? hd->main_class : "wrap"),
		CORE_A_END });
	free(title);
}

void
pages_layout_page(struct core_html *h, const struct pages_page *p,
    const char *title, const char *description, const char *canonical,
    const json_t *jsonld, const char *main_class)
{
	struct pages_head hd;

	memset(&hd, 0, sizeof(hd));
	hd.title = title;
	hd.description = description;
	hd.canonical = canonical;
	hd.jsonld = jsonld;
	hd.main_class = main_class;
	pages_layout_open(h, p, &hd);
}

void
pages_layout_subject(struct core_html *h, const struct pages_page *p,
    const char *title, const char *description, const char *main_class,
    const char *eyebrow, const char *url, const char *name, int tex)
{
	pages_layout_page(h, p, title, description, pages_str(p->model, "url"),
	    NULL, main_class);
	pages_h_eyebrow(h, eyebrow);
	pages_h_open(h, CORE_TAG_H1, NULL);
	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){ CORE_A(HREF, pages_rel(p->base, url)),
		CORE_A_END });
	if (tex)
		core_html_tex(h, name);
	else
		core_html_text(h, name);
	core_html_pop(h);
	core_html_pop(h);
}

void
pages_layout_close(struct core_html *h, const struct pages_page *p)
{
	(void)p;
	core_html_pop(h); /* main */
	core_site_footer(h);
}
