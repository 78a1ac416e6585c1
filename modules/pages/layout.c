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

#define A(k, v)                                                                \
	{                                                                      \
		CORE_ATTR_##k, (v)                                             \
	}
#define END                                                                    \
	{                                                                      \
		CORE_ATTR__MAX, NULL                                           \
	}

void
pages_h_open(struct core_html *h, enum core_tag t, const char *cls)
{
	core_html_elem(h, t, (const struct core_attr[]){ A(CLASS, cls), END });
}

void
pages_h_text(struct core_html *h, enum core_tag t, const char *cls,
    const char *text)
{
	core_html_elemtext(h, t,
	    (const struct core_attr[]){ A(CLASS, cls), END },
	    text != NULL ? text : "");
}

void
pages_h_link(struct core_html *h, const char *href, const char *cls,
    const char *text)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, href), A(CLASS, cls), END },
	    text != NULL ? text : "");
}

void
pages_h_eyebrow(struct core_html *h, const char *text)
{
	pages_h_text(h, CORE_TAG_P, "eyebrow", text);
}

static void
meta_name(struct core_html *h, const char *name, const char *content)
{
	if (content == NULL)
		return;
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(NAME, name), A(CONTENT, content),
		END });
}

static void
meta_prop(struct core_html *h, const char *prop, const char *content)
{
	if (content == NULL)
		return;
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(PROPERTY, prop), A(CONTENT, content),
		END });
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
	    (const struct core_attr[]){ A(REL, "alternate"), A(TYPE, mime),
		A(HREF, u), END });
	free(u);
}

static void
header(struct core_html *h, const struct pages_page *p)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(CLASS, "skip"), A(HREF, "#main"),
		END },
	    "Skip to content");
	pages_h_open(h, CORE_TAG_HEADER, "site-header");
	pages_h_open(h, CORE_TAG_DIV, "wrap site-bar");

	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(CLASS, "brand"), A(HREF, "/"),
		A(ARIA_LABEL, "weft home"), END });
	core_html_elemtext(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ A(CLASS, "brand-mark"),
		A(ARIA_HIDDEN, "true"), END },
	    "◍");
	pages_h_text(h, CORE_TAG_SPAN, "brand-name", "weft");
	core_html_pop(h);

	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ A(CLASS, "site-search"),
		A(ACTION, "/search"), A(METHOD, "get"), A(ROLE, "search"),
		END });
	core_html_elemtext(h, CORE_TAG_LABEL,
	    (const struct core_attr[]){ A(CLASS, "sr-only"), A(FOR, "site-q"),
		END },
	    "Search papers, researchers and institutions");
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ A(ID, "site-q"), A(TYPE, "search"),
		A(NAME, "q"),
		A(PLACEHOLDER, "Search papers, people, institutions"),
		A(MAXLENGTH, "300"), END });
	core_html_elemtext(h, CORE_TAG_BUTTON,
	    (const struct core_attr[]){ A(TYPE, "submit"), END }, "Search");
	core_html_pop(h);

	core_html_elem(h, CORE_TAG_NAV,
	    (const struct core_attr[]){ A(CLASS, "site-nav"),
		A(ARIA_LABEL, "Main"), END });
	pages_h_link(h, "/researchers", NULL, "Researchers");
	pages_h_link(h, "/institutions", NULL, "Institutions");
	pages_h_link(h, "/about", NULL, "About");
	pages_h_open(h, CORE_TAG_SPAN, "account");
	core_html_ssi_if_cookie(h, p->cookie, "/account/nav");
	pages_h_link(h, "/signin", "signin", "Sign in");
	core_html_ssi_endif(h);
	core_html_pop(h); /* span */
	core_html_pop(h); /* nav */

	core_html_pop(h); /* div */
	core_html_pop(h); /* header */
}

void
pages_layout_open(struct core_html *h, const struct pages_page *p,
    const struct pages_head *hd)
{
	char *title;

	title = hd->title != NULL
	    ? core_xasprintf("%s · weft", hd->title)
	    : core_xstrdup("weft · papers, researchers and institutions");

	core_html_doctype(h);
	core_html_elem(h, CORE_TAG_HTML,
	    (const struct core_attr[]){ A(LANG, "en"), END });
	core_html_elem(h, CORE_TAG_HEAD, NULL);
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ A(CHARSET, "utf-8"), END });
	meta_name(h, "viewport", "width=device-width, initial-scale=1");
	core_html_elemtext(h, CORE_TAG_TITLE, NULL, title);
	meta_name(h, "description", hd->description);
	if (hd->canonical != NULL) {
		core_html_elem(h, CORE_TAG_LINK,
		    (const struct core_attr[]){ A(REL, "canonical"),
			A(HREF, hd->canonical), END });
		alternate(h, hd->canonical, "text/markdown", "md");
		alternate(h, hd->canonical, "application/json", "json");
		if (hd->bib)
			alternate(h, hd->canonical, "application/x-bibtex",
			    "bib");
	}
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "stylesheet"),
		A(HREF, "/static/weft.css"), END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "icon"),
		A(TYPE, "image/svg+xml"), A(HREF, "/static/favicon.svg"),
		END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "alternate"),
		A(TYPE, "application/rss+xml"), A(TITLE, "weft: latest papers"),
		A(HREF, "/rss/latest.xml"), END });
	meta_prop(h, "og:site_name", "weft");
	meta_prop(h, "og:type", hd->og_type != NULL ? hd->og_type : "website");
	meta_prop(h, "og:title", hd->title != NULL ? hd->title : "weft");
	meta_prop(h, "og:description", hd->description);
	meta_prop(h, "og:url", hd->canonical);
	meta_name(h, "twitter:card", "summary");
	meta_name(h, "twitter:title", hd->title != NULL ? hd->title : "weft");
	meta_name(h, "twitter:description", hd->description);
	if (hd->jsonld != NULL)
		core_html_jsonld(h, hd->jsonld);
	core_html_pop(h); /* head */

	core_html_elem(h, CORE_TAG_BODY, NULL);
	header(h, p);
	core_html_elem(h, CORE_TAG_MAIN,
	    (const struct core_attr[]){ A(ID, "main"),
		A(CLASS, hd->main_class != NULL ? hd->main_class : "wrap"),
		END });
	free(title);
}

static void
footer_list(struct core_html *h, const char *label, const char *const *items)
{
	pages_h_open(h, CORE_TAG_DIV, "footer-col");
	pages_h_eyebrow(h, label);
	core_html_elem(h, CORE_TAG_UL, NULL);
	for (; items[0] != NULL; items += 2) {
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, items[1], NULL, items[0]);
		core_html_pop(h);
	}
	core_html_pop(h); /* ul */
	core_html_pop(h); /* div */
}

void
pages_layout_close(struct core_html *h, const struct pages_page *p)
{
	static const char *const explore[] = {
		"Search",
		"/search",
		"Researchers",
		"/researchers",
		"Institutions",
		"/institutions",
		NULL,
		NULL,
	};
	static const char *const data[] = {
		"arXiv",
		"https://arxiv.org/",
		"Semantic Scholar",
		"https://www.semanticscholar.org/",
		"OpenAlex",
		"https://openalex.org/",
		"Latest RSS",
		"/rss/latest.xml",
		NULL,
		NULL,
	};
	static const char *const site[] = {
		"About",
		"/about",
		"Contact",
		"/contact",
		"Privacy",
		"/privacy",
		"Developers",
		"/developers",
		NULL,
		NULL,
	};
	static const char *const machines[] = {
		"llms.txt",
		"/llms.txt",
		"openapi.json",
		"/openapi.json",
		"Sitemap",
		"/sitemap.xml",
		NULL,
		NULL,
	};

	(void)p;
	core_html_pop(h); /* main */
	pages_h_open(h, CORE_TAG_FOOTER, "site-footer");
	pages_h_open(h, CORE_TAG_DIV, "wrap footer-grid");

	pages_h_open(h, CORE_TAG_DIV, "footer-brand");
	core_html_elem(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "brand"), END });
	core_html_elemtext(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ A(CLASS, "brand-mark"),
		A(ARIA_HIDDEN, "true"), END },
	    "◍");
	pages_h_text(h, CORE_TAG_SPAN, "brand-name", "weft");
	core_html_pop(h);
	pages_h_text(h, CORE_TAG_P, "tagline",
	    "An open archive that ties arXiv papers to the researchers who "
	    "wrote them and the institutions they work at.");
	core_html_pop(h);

	footer_list(h, "Explore", explore);
	footer_list(h, "Data", data);
	footer_list(h, "Site", site);
	footer_list(h, "For machines", machines);
	core_html_pop(h); /* footer-grid */

	pages_h_open(h, CORE_TAG_DIV, "wrap footer-note");
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_text(h, "Researcher data from ");
	pages_h_link(h, "https://www.semanticscholar.org/", NULL,
	    "Semantic Scholar");
	core_html_text(h, " (ODC-BY) and ");
	pages_h_link(h, "https://openalex.org/", NULL, "OpenAlex");
	core_html_text(h, " (CC0); paper metadata from ");
	pages_h_link(h, "https://arxiv.org/", NULL, "arXiv");
	core_html_text(h, " (CC0); institutions from ");
	pages_h_link(h, "https://ror.org/", NULL, "ROR");
	core_html_text(h, " (CC0). weft is not affiliated with arXiv.");
	core_html_pop(h);
	core_html_pop(h); /* footer-note */
	core_html_pop(h); /* footer */
}
