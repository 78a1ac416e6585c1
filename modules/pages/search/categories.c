/*
 * categories.c -- /categories: the arXiv categories the papers here
 * carry, each with its paper count and a link to its browse listing
 * (/search?category=…&sort=newest), in HTML, markdown and JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "search/search.h"

enum core_err
pages_categories(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *items = NULL, *v, *m;
	enum core_err er;
	size_t i;
	char *u;

	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;
	if ((er = pages_search_store_categories(ctx->db, &items)) != CORE_OK)
		return er;
	json_array_foreach(items, i, v)
	{
		struct core_buf b = CORE_BUF_INIT;

		core_buf_puts(&b, "/search?category=");
		core_url_encode(&b, pages_str(v, "category"), 0);
		core_buf_puts(&b, "&sort=newest");
		json_object_set_new(v, "url",
		    pages_json_abs(ctx->base_url, core_buf_cstr(&b)));
		core_buf_reset(&b);
		core_buf_printf(&b, "/rss/categories/%s.xml",
		    pages_str(v, "category"));
		json_object_set_new(v, "feed",
		    pages_json_abs(ctx->base_url, core_buf_cstr(&b)));
		core_buf_free(&b);
	}
	u = pages_abs(ctx->base_url, "/categories");
	m = json_pack("{s:s,s:s,s:s,s:I,s:o}", "type", "categories", "title",
	    "Categories", "url", u, "total", (json_int_t)json_array_size(items),
	    "items", items);
	free(u);
	return pages_respond_new(req, PAGES_CATEGORIES, m, "/categories");
}

void
pages_render_categories_html(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *v;
	size_t i;
	char *s;

	pages_layout_page(h, p, "Categories",
	    "The arXiv categories of the papers on weft, with their counts.",
	    pages_str(m, "url"), NULL, "wrap directory");
	pages_h_eyebrow(h, "browse");
	pages_h_text(h, CORE_TAG_H1, NULL, "Categories");
	pages_h_open(h, CORE_TAG_P, "lead");
	s = pages_count_of(pages_int(m, "total", 0), "arXiv category",
	    "arXiv categories");
	core_html_textf(h,
	    "%s with papers here; each lists its papers, "
	    "newest first.",
	    s);
	free(s);
	core_html_pop(h);
	pages_h_open(h, CORE_TAG_UL, "rows");
	json_array_foreach(json_object_get(m, "items"), i, v)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_link(h, pages_rel(p->base, pages_str(v, "url")), "mono",
		    pages_str(v, "category"));
		pages_h_open(h, CORE_TAG_SPAN, "faint");
		s = pages_count_of(pages_int(v, "papers", 0), "paper",
		    "papers");
		core_html_textf(h, " %s · ", s);
		free(s);
		pages_h_link(h, pages_rel(p->base, pages_str(v, "feed")), NULL,
		    "RSS");
		core_html_pop(h);
		core_html_pop(h);
	}
	core_html_pop(h);
	pages_layout_close(h, p);
}

void
pages_render_categories_md(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model, *v;
	size_t i;

	core_md_heading(b, 1, "Categories");
	core_buf_printf(b,
	    "%lld arXiv categories with papers here; each links to its "
	    "papers, newest first.\n\n",
	    pages_int(m, "total", 0));
	json_array_foreach(json_object_get(m, "items"), i, v)
	{
		pages_md_link_row(b, v, "category", "papers", "paper");
		core_buf_putc(b, '\n');
	}
}
