/*
 * render_similar.c -- "similar papers" in HTML and markdown: the section
 * of the paper page and the page /papers/{id}-{slug}/similar.  Titles
 * and names come from the data: everything goes through the escaping
 * writers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

/* ---------------------------------------------------------------- HTML */

static void
h_card(struct core_html *h, const struct pages_page *p, const json_t *c)
{
	pages_html_card_head(h, p, c, NULL);
	pages_html_card_meta(h, c);
	core_html_elem(h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ CORE_A(CLASS, "faint similarity"),
		CORE_A(TITLE, "cosine similarity in the semantic index"),
		CORE_A_END });
	core_html_textf(h, "similarity %.2f",
	    json_number_value(json_object_get(c, "score")));
	core_html_pop(h);
	core_html_pop(h);
	core_html_pop(h);
}

static void
h_list(struct core_html *h, const struct pages_page *p, const json_t *items,
    const char *notice)
{
	const json_t *c;
	size_t i;

	if (notice != NULL)
		pages_h_text(h, CORE_TAG_P, "note", notice);
	else if (json_array_size(items) == 0)
		pages_h_text(h, CORE_TAG_P, "note",
		    "No similar paper was found.");
	if (json_array_size(items) == 0)
		return;
	pages_h_open(h, CORE_TAG_OL, "cards similar-list");
	json_array_foreach(items, i, c) h_card(h, p, c);
	core_html_pop(h);
}

void
pages_html_similar_section(struct core_html *h, const struct pages_page *p,
    const json_t *m)
{
	char *u;

	if (json_object_get(m, "similar") == NULL)
		return;
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "similar hairline"),
		CORE_A(ID, "similar"), CORE_A(ARIA_LABEL, "Similar papers"),
		CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, "eyebrow", "similar papers");
	h_list(h, p, json_object_get(m, "similar"),
	    pages_str(m, "similar_notice"));
	u = core_xasprintf("%s/similar",
	    pages_rel(p->base, pages_str(m, "url")));
	pages_h_open(h, CORE_TAG_P, "caption");
	core_html_text(h,
	    "By similarity of title and abstract in weft's own semantic "
	    "index. ");
	pages_h_link(h, u, NULL, "The list on its own page →");
	core_html_pop(h);
	free(u);
	core_html_pop(h);
}

void
pages_render_similar_html(struct core_html *h, const struct pages_page *p)
{
	const json_t *m = p->model, *paper = json_object_get(m, "paper");
	char *title, *ptitle = core_tex_plain(pages_str(paper, "title"), 0);

	title = core_xasprintf("Papers similar to %s",
	    ptitle != NULL ? ptitle : "");
	free(ptitle);
	pages_layout_subject(h, p, title,
	    "The papers nearest to this one in weft's semantic "
	    "index of titles and abstracts.",
	    "wrap similar-page", "similar papers", pages_str(paper, "url"),
	    pages_str(paper, "title"), 1);
	pages_h_text(h, CORE_TAG_P, "note",
	    "The ten papers nearest to this one by the similarity of their "
	    "titles and abstracts in weft's own semantic index (TF-IDF and a "
	    "truncated SVD, learned from the papers here).");
	h_list(h, p, json_object_get(m, "items"), pages_str(m, "notice"));
	pages_layout_close(h, p);
	free(title);
}

/* ---------------------------------------------------------------- markdown */

static void
md_list(struct core_buf *b, const json_t *items, const char *notice)
{
	const json_t *c, *a;
	size_t i, j;

	if (notice != NULL) {
		core_md_text(b, notice);
		core_buf_putc(b, '\n');
	} else if (json_array_size(items) == 0)
		core_buf_puts(b, "No similar paper was found.\n");
	json_array_foreach(items, i, c)
	{
		char *t = core_tex_plain(pages_str(c, "title"), 1);

		core_buf_printf(b, "%zu. ", i + 1);
		core_md_link(b, t, pages_str(c, "url"));
		free(t);
		core_buf_puts(b, " — ");
		json_array_foreach(json_object_get(c, "authors"), j, a)
		{
			if (j > 0)
				core_buf_puts(b, ", ");
			core_md_text(b, pages_str(a, "name"));
		}
		if (pages_int(c, "author_count", 0) >
		    (long long)json_array_size(json_object_get(c, "authors")))
			core_buf_printf(b, " and %lld more",
			    pages_int(c, "author_count", 0) -
				(long long)json_array_size(
				    json_object_get(c, "authors")));
		pages_md_date_id(b, c, "; ");
		core_buf_printf(b, "; similarity %.2f\n",
		    json_number_value(json_object_get(c, "score")));
	}
}

void
pages_md_similar_section(struct core_buf *b, const json_t *m)
{
	char *u;

	if (json_object_get(m, "similar") == NULL)
		return;
	core_buf_puts(b, "\n## Similar papers\n\n");
	md_list(b, json_object_get(m, "similar"),
	    pages_str(m, "similar_notice"));
	u = core_xasprintf("%s/similar", pages_str(m, "url"));
	core_buf_puts(b, "\nThe list on its own page: ");
	core_md_link(b, u, u);
	core_buf_putc(b, '\n');
	free(u);
}

void
pages_render_similar_md(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model, *paper = json_object_get(m, "paper");
	char *t = core_tex_plain(pages_str(paper, "title"), 1);

	core_buf_puts(b, "# Papers similar to ");
	core_md_text(b, t);
	core_buf_puts(b, "\n\n- Paper: ");
	core_md_link(b, t, pages_str(paper, "url"));
	free(t);
	core_buf_puts(b, "\n- URL: ");
	core_md_link(b, pages_str(m, "url"), pages_str(m, "url"));
	core_buf_puts(b,
	    "\n\nThe ten papers nearest to this one by the similarity of their "
	    "titles and abstracts in weft's own semantic index.\n\n");
	md_list(b, json_object_get(m, "items"), pages_str(m, "notice"));
}
