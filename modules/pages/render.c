/*
 * render.c -- the one per-kind dispatch: which function renders a page
 * kind in HTML and in markdown.  respond.c calls pages_render_html() and
 * pages_render_md(); they call the renderers (render_html.c,
 * render_md.c, search/, evidence/), which call the shared pieces
 * (parts.c, layout.c) and never back here.
 */
#include "core.h"
#include "pages.h"
#include "search/search.h"
#include "evidence/evidence.h"

static const struct {
	void (*html)(struct core_html *, const struct pages_page *);
	void (*md)(struct core_buf *, const struct pages_page *);
} renderers[PAGES_KIND__MAX] = {
	[PAGES_HOME] = { pages_html_home, pages_md_home },
	[PAGES_PAPER] = { pages_html_paper, pages_md_paper },
	[PAGES_RESEARCHER] = { pages_html_researcher, pages_md_researcher },
	[PAGES_INSTITUTION] = { pages_html_institution, pages_md_institution },
	[PAGES_RESEARCHERS] = { pages_html_directory, pages_md_directory },
	[PAGES_INSTITUTIONS] = { pages_html_directory, pages_md_directory },
	[PAGES_DOC] = { pages_html_doc, pages_md_doc },
	[PAGES_CHOICES] = { pages_html_choices, pages_md_choices },
	[PAGES_ERROR] = { pages_html_error_page, pages_md_error_page },
	[PAGES_SEARCH] = { pages_render_search_html, pages_render_search_md },
	[PAGES_EVIDENCE] = { pages_render_evidence_html,
	    pages_render_evidence_md },
	[PAGES_SIMILAR] = { pages_render_similar_html,
	    pages_render_similar_md },
	[PAGES_CATEGORIES] = { pages_render_categories_html,
	    pages_render_categories_md },
};

/* An unknown kind renders as the error page. */
static enum pages_kind
known(enum pages_kind k)
{
	return (unsigned)k < PAGES_KIND__MAX ? k : PAGES_ERROR;
}

enum core_err
pages_render_html(struct core_buf *b, const struct pages_page *p)
{
	struct core_html h;

	if (p->model == NULL)
		return CORE_EINPUT;
	core_html_open(&h, core_buf_sink(b));
	renderers[known(p->kind)].html(&h, p);
	return core_html_close(&h);
}

enum core_err
pages_render_md(struct core_buf *b, const struct pages_page *p)
{
	if (p->model == NULL)
		return CORE_EINPUT;
	renderers[known(p->kind)].md(b, p);
	return CORE_OK;
}
