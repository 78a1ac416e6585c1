/*
 * render_cite.c -- a paper as a citation (BibTeX, RIS, CSL-JSON) through
 * core's writers (cite.c), which the lists (researcher.c, search) and
 * the accounts feed use as well.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

enum core_err
pages_render_cite(struct core_buf *b, const struct pages_page *p,
    enum core_rep rep)
{
	struct core_cite c;

	if (p->kind != PAGES_PAPER || p->model == NULL ||
	    pages_str(p->model, "arxiv_id") == NULL || !core_rep_is_cite(rep))
		return CORE_EINPUT;
	core_cite_open(&c, rep, b);
	core_cite_add(&c, p->model);
	core_cite_close(&c);
	return CORE_OK;
}

enum core_err
pages_render_bib(struct core_buf *b, const struct pages_page *p)
{
	return pages_render_cite(b, p, CORE_REP_BIB);
}
