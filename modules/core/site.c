/*
 * site.c -- the site's chrome, the same on every HTML page whichever
 * module renders it: the skip link, the header bar (brand, search box,
 * navigation and an account slot the caller fills) and the footer with
 * its links, credits and licences (UI.md, "Footer"); and the entry
 * points a module's markdown 404 may point agents to.
 */
#include <stddef.h>

#include "core.h"

const struct core_hint core_site_hints[] = {
	{ "Papers", "/papers/{arxiv-id}" },
	{ "Researchers", "/researchers" },
	{ "Institutions", "/institutions" },
	{ "Search", "/search?q={words}" },
	{ "Sitemap", "/sitemap.xml" },
	{ "Guidance for agents", "/llms.txt" },
	{ NULL, NULL },
};

#define A(k, v)                                                                \
	{                                                                      \
		CORE_ATTR_##k, (v)                                             \
	}
#define END                                                                    \
	{                                                                      \
		CORE_ATTR__MAX, NULL                                           \
	}

void
core_site_head_links(struct core_html *h)
{
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "stylesheet"),
		A(HREF, "/static/weft.css"), END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "icon"),
		A(TYPE, "image/svg+xml"), A(HREF, "/static/favicon.svg"),
		END });
	core_html_elem(h, CORE_TAG_LINK,
	    (const struct core_attr[]){ A(REL, "apple-touch-icon"),
		A(HREF, "/static/apple-touch-icon.png"), END });
}

static void
open_class(struct core_html *h, enum core_tag t, const char *cls)
{
	core_html_elem(h, t, (const struct core_attr[]){ A(CLASS, cls), END });
}

static void
link(struct core_html *h, const char *href, const char *text)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, href), END }, text);
}

void
core_site_error(struct core_html *h, int status, const char *title,
    const char *msg)
{
	open_class(h, CORE_TAG_P, "eyebrow");
	core_html_textf(h, "%d", status);
	core_html_pop(h);
	core_html_elemtext(h, CORE_TAG_H1, NULL, title);
	core_html_elemtext(h, CORE_TAG_P, NULL, msg);
	core_html_elem(h, CORE_TAG_P, NULL);
	link(h, "/", "Go to the home page");
	core_html_pop(h);
}

static void
brand(struct core_html *h)
{
	core_html_elemtext(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ A(CLASS, "brand-mark"),
		A(ARIA_HIDDEN, "true"), END },
	    "\xe2\x97\x8d"); /* U+25CD, the weft mark */
	core_html_elemtext(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ A(CLASS, "brand-name"), END }, "weft");
}

void
core_site_header(struct core_html *h,
    void (*account)(struct core_html *, const void *), const void *arg)
{
	core_html_elemtext(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(CLASS, "skip"), A(HREF, "#main"),
		END },
	    "Skip to content");
	open_class(h, CORE_TAG_HEADER, "site-header");
	open_class(h, CORE_TAG_DIV, "wrap site-bar");

	core_html_elem(h, CORE_TAG_A,
	    (const struct core_attr[]){ A(CLASS, "brand"), A(HREF, "/"),
		A(ARIA_LABEL, "weft home"), END });
	brand(h);
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
	link(h, "/researchers", "Researchers");
	link(h, "/institutions", "Institutions");
	link(h, "/about", "About");
	open_class(h, CORE_TAG_SPAN, "account");
	account(h, arg);
	core_html_pop(h); /* span */
	core_html_pop(h); /* nav */
	core_html_pop(h); /* div */
	core_html_pop(h); /* header */
}

static void
footer_list(struct core_html *h, const char *label, const char *const *items)
{
	open_class(h, CORE_TAG_DIV, "footer-col");
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "eyebrow"), END }, label);
	core_html_elem(h, CORE_TAG_UL, NULL);
	for (; items[0] != NULL; items += 2) {
		core_html_elem(h, CORE_TAG_LI, NULL);
		link(h, items[1], items[0]);
		core_html_pop(h);
	}
	core_html_pop(h); /* ul */
	core_html_pop(h); /* div */
}

void
core_site_footer(struct core_html *h)
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

	open_class(h, CORE_TAG_FOOTER, "site-footer");
	open_class(h, CORE_TAG_DIV, "wrap footer-grid");
	open_class(h, CORE_TAG_DIV, "footer-brand");
	open_class(h, CORE_TAG_P, "brand");
	brand(h);
	core_html_pop(h);
	core_html_elemtext(h, CORE_TAG_P,
	    (const struct core_attr[]){ A(CLASS, "tagline"), END },
	    "An open archive that ties arXiv papers to the researchers who "
	    "wrote them and the institutions they work at.");
	core_html_pop(h); /* footer-brand */
	footer_list(h, "Explore", explore);
	footer_list(h, "Data", data);
	footer_list(h, "Site", site);
	footer_list(h, "For machines", machines);
	core_html_pop(h); /* footer-grid */

	open_class(h, CORE_TAG_DIV, "wrap footer-note");
	core_html_elem(h, CORE_TAG_P, NULL);
	core_html_text(h, "Researcher data from ");
	link(h, "https://www.semanticscholar.org/", "Semantic Scholar");
	core_html_text(h, " (ODC-BY) and ");
	link(h, "https://openalex.org/", "OpenAlex");
	core_html_text(h, " (CC0); paper metadata from ");
	link(h, "https://arxiv.org/", "arXiv");
	core_html_text(h, " (CC0); institutions from ");
	link(h, "https://ror.org/", "ROR");
	core_html_text(h, " (CC0). weft is not affiliated with arXiv.");
	core_html_pop(h);
	core_html_pop(h); /* footer-note */
	core_html_pop(h); /* footer */
}
