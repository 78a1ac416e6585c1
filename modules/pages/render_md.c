/*
 * render_md.c -- view models to markdown for agents: a "#" title, the
 * facts as short lines and lists, every link absolute, no layout chrome.
 * All text goes through core_md_text()/core_md_link(), which escape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

/* "- Label: " */
static void
item(struct core_buf *b, const char *label)
{
	core_buf_puts(b, "- ");
	core_md_text(b, label);
	core_buf_puts(b, ": ");
}

/* "- Label: text\n", nothing when text is NULL or empty. */
static void
fact(struct core_buf *b, const char *label, const char *text)
{
	if (text == NULL || *text == '\0')
		return;
	item(b, label);
	core_md_text(b, text);
	core_buf_putc(b, '\n');
}

/* "- Label: N\n"; nothing for a figure nobody gave. */
static void
metric(struct core_buf *b, const char *label, const json_t *o, const char *key)
{
	if (!pages_has_int(o, key))
		return;
	item(b, label);
	core_buf_printf(b, "%lld\n", pages_int(o, key, 0));
}

/* "- text\n" for a sentence of the metrics' words (freed), if any. */
static void
metric_words(struct core_buf *b, char *s)
{
	if (s == NULL)
		return;
	core_buf_puts(b, "- ");
	core_md_text(b, s);
	core_buf_putc(b, '\n');
	free(s);
}

/* "- [name](url), country\n": an institution v in a list. */
static void
place_row(struct core_buf *b, const json_t *v)
{
	pages_md_link_row(b, v, "name", NULL, NULL);
	if (pages_str(v, "country") != NULL) {
		core_buf_puts(b, ", ");
		core_md_text(b, pages_str(v, "country"));
	}
	core_buf_putc(b, '\n');
}

/* "- RSS: [url](url)\n" and the other formats: the entity's own feed,
 * /rss/KIND/ID.xml. */
static void
feed_fact(struct core_buf *b, const char *base, const char *kind, long long id)
{
	char *u = core_xasprintf("/rss/%s/%lld.xml", kind, id);

	pages_md_feed_links(b, base, u);
	free(u);
}

/* "- Label: [url](url)\n". */
static void
link_fact(struct core_buf *b, const char *label, const char *text,
    const char *url)
{
	if (url == NULL)
		return;
	item(b, label);
	/* URLs from data (a website) may be javascript: or worse: only
	 * http(s) becomes a link, anything else stays text. */
	if (strncasecmp(url, "http://", 7) == 0 ||
	    strncasecmp(url, "https://", 8) == 0)
		core_md_link(b, text != NULL ? text : url, url);
	else
		core_md_text(b, text != NULL ? text : url);
	core_buf_putc(b, '\n');
}

static void
categories(struct core_buf *b, const json_t *cats, const char *prim)
{
	const json_t *v;
	size_t i;

	json_array_foreach(cats, i, v)
	{
		if (!json_is_string(v))
			continue;
		if (i > 0)
			core_buf_puts(b, ", ");
		core_md_text(b, json_string_value(v));
		if (prim != NULL && strcmp(prim, json_string_value(v)) == 0)
			core_buf_puts(b, " (primary)");
	}
}

/* One paper of a list, as a list item. */
static void
card(struct core_buf *b, const json_t *c)
{
	const json_t *cats = json_object_get(c, "categories");

	pages_md_card_head(b, c);
	if (json_array_size(cats) > 0) { /* none: a paper from OpenAlex */
		core_buf_puts(b, "; ");
		categories(b, cats, pages_str(c, "primary_category"));
	}
	if (pages_has_int(c, "citation_count"))
		core_buf_printf(b, "; %lld citation%s",
		    pages_int(c, "citation_count", 0),
		    pages_int(c, "citation_count", 0) == 1 ? "" : "s");
	core_buf_putc(b, '\n');
}

static void
cards(struct core_buf *b, const json_t *items)
{
	const json_t *c;
	size_t i;

	json_array_foreach(items, i, c) card(b, c);
}

/* ---------------------------------------------------------------- pages */

void
pages_md_paper(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	const json_t *links = json_object_get(m, "links"), *v;
	const json_t *as = json_object_get(m, "authors");
	long long matched = pages_int(m, "authors_matched", 0);
	size_t i, n = json_array_size(as);
	const char *s;
	char label[32];
	char *t = core_tex_plain(pages_str(m, "title"), 1);

	core_md_heading(b, 1, t);
	free(t);
	link_fact(b, "URL", NULL, pages_str(m, "url"));
	fact(b, "arXiv id", pages_str(m, "arxiv_id"));
	item(b, "Authors");
	pages_md_authors(b, as, (long long)n);
	core_buf_putc(b, '\n');
	if (n > 0 && matched < (long long)n)
		core_buf_printf(b,
		    "- Matching: %lld of %zu authors are "
		    "matched to researcher profiles; the others are given as "
		    "written on the paper\n",
		    matched, n);
	/* A paper known only from OpenAlex has no arXiv categories. */
	if (json_array_size(json_object_get(m, "categories")) > 0) {
		item(b, "Categories");
		categories(b, json_object_get(m, "categories"),
		    pages_str(m, "primary_category"));
		core_buf_putc(b, '\n');
	}
	fact(b, "Published", pages_str(m, "published"));
	fact(b, "Updated", pages_str(m, "updated"));
	if (json_array_size(json_object_get(m, "versions")) > 0) {
		item(b, "Versions");
		json_array_foreach(json_object_get(m, "versions"), i, v)
		{
			const json_t *ver = json_object_get(v, "version");

			if (i > 0)
				core_buf_puts(b, ", ");
			/* Linked to arXiv's page of the version. */
			if (pages_str(v, "url") != NULL)
				core_buf_putc(b, '[');
			core_md_text(b,
			    pages_version_label(label, sizeof(label), ver, i));
			if (pages_str(v, "url") != NULL)
				core_buf_printf(b, "](%s)",
				    pages_str(v, "url"));
			if ((s = pages_str(v, "date")) != NULL ||
			    (s = pages_str(v, "created")) != NULL) {
				core_buf_puts(b, " \\(");
				core_md_text(b, s);
				core_buf_puts(b, "\\)");
			}
		}
		core_buf_putc(b, '\n');
	}
	metric(b, "Citations", m, "citation_count");
	fact(b, "Citations from", pages_str(m, "citation_source"));
	link_fact(b, "DOI", pages_str(m, "doi"), pages_str(m, "doi_url"));
	if (json_array_size(json_object_get(m, "class_codes")) > 0) {
		item(b, "Classes (MSC/ACM)");
		pages_md_join(b, json_object_get(m, "class_codes"), ", ");
		core_buf_putc(b, '\n');
	}
	fact(b, "Journal ref", pages_str(m, "journal_ref"));
	fact(b, "Comment", pages_str(m, "comment"));
	fact(b, "Licence", pages_str(m, "license"));
	link_fact(b, "arXiv page", NULL, pages_str(links, "abs"));
	link_fact(b, "PDF", NULL, pages_str(links, "pdf"));
	link_fact(b, "BibTeX", NULL, pages_str(links, "bibtex"));
	pages_md_analysis(b, m);
	core_buf_puts(b, "\n## Abstract\n\n");
	s = pages_str(m, "abstract");
	core_md_tex(b,
	    s != NULL && *s != '\0' ? s
				    : "No abstract is "
				      "available.");
	core_buf_putc(b, '\n');
	pages_md_similar_section(b, m);
}

/* The node of the network with this id, or NULL. */
static const json_t *
node_by_id(const json_t *net, long long id)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(net, "nodes"), i, v)
	{
		if (pages_int(v, "id", 0) == id)
			return v;
	}
	return NULL;
}

/*
 * The rest of one adjacency-list line: the other co-authors that id
 * wrote with, "; also with A (3), B (1)".  Edges to the centre are the
 * line's own joint-paper count, so they are left out here.
 */
static void
coauthor_links(struct core_buf *b, const json_t *net, long long id,
    long long centre)
{
	const json_t *e, *o;
	long long a, c, other;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(net, "edges"), i, e)
	{
		a = pages_int(e, "a", 0);
		c = pages_int(e, "b", 0);
		if (a == centre || c == centre || (a != id && c != id))
			continue;
		other = a == id ? c : a;
		if ((o = node_by_id(net, other)) == NULL)
			continue;
		core_buf_puts(b, n++ == 0 ? "; also with " : ", ");
		core_md_text(b, pages_str(o, "name"));
		core_buf_printf(b, " (%lld)", pages_int(e, "weight", 0));
	}
}

void
pages_md_researcher(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	const char *base = p->base;
	const json_t *metrics = json_object_get(m, "metrics");
	const json_t *ap = json_object_get(m, "author_position");
	const json_t *pl = json_object_get(m, "papers"), *v, *items;
	const json_t *net = json_object_get(m, "network");
	const char *cat = pages_str(pl, "category"), *sort;
	char *note;
	long long total;
	size_t i;

	core_md_heading(b, 1, pages_str(m, "name"));
	link_fact(b, "URL", NULL, pages_str(m, "url"));
	core_buf_printf(b, "- Id: %lld\n", pages_int(m, "id", 0));
	feed_fact(b, base, "researchers", pages_int(m, "id", 0));
	metric(b, "Papers here", metrics, "papers_here");
	metric(b, "h-index", metrics, "h_index");
	metric(b, "Citations", metrics, "citations");
	metric(b, "Works total", metrics, "works_total");
	metric_words(b, pages_metrics_source(metrics));
	metric_words(b, pages_metrics_here(metrics));
	json_array_foreach(json_object_get(m, "profiles"), i, v) link_fact(b,
	    pages_str(v, "name"), pages_str(v, "id"), pages_str(v, "url"));
	core_buf_puts(b,
	    "\nPapers are matched to researchers newest first, "
	    "so older work may not be attached to this profile yet.\n");

	core_buf_puts(b, "\n## Author position\n\n");
	if (pages_int(ap, "papers_counted", 0) > 0) {
		core_buf_printf(b,
		    "Across %lld of %lld papers where every "
		    "author was matched:\n\n",
		    pages_int(ap, "papers_counted", 0),
		    pages_int(ap, "papers_total", 0));
		core_buf_printf(b,
		    "- First author: %lld\n- Middle author: "
		    "%lld\n- Last author: %lld\n",
		    pages_int(ap, "first", 0), pages_int(ap, "middle", 0),
		    pages_int(ap, "last", 0));
	} else if (pages_int(ap, "papers_total", 0) == 0)
		core_buf_puts(b, "No papers here yet.\n");
	else if (pages_int(ap, "papers_total", 0) == 1)
		core_buf_puts(b,
		    "Not known yet: the one paper here does not "
		    "have every author matched.\n");
	else
		core_buf_printf(b,
		    "Not known yet: none of the %lld papers has "
		    "every author matched.\n",
		    pages_int(ap, "papers_total", 0));

	if (json_array_size(json_object_get(m, "fields")) > 0) {
		core_buf_puts(b, "\n## Fields\n\n");
		json_array_foreach(json_object_get(m, "fields"), i, v)
		{
			core_buf_puts(b, "- ");
			if (pages_str(v, "url") != NULL)
				core_md_link(b, pages_str(v, "category"),
				    pages_str(v, "url"));
			else
				core_md_text(b, pages_str(v, "category"));
			core_buf_printf(b, ": %lld paper%s\n",
			    pages_int(v, "papers", 0),
			    pages_int(v, "papers", 0) == 1 ? "" : "s");
		}
	}

	items = json_object_get(json_object_get(m, "same_name"), "items");
	if (json_array_size(items) > 0) {
		core_buf_puts(b, "\n## Same name\n\n");
		json_array_foreach(items, i, v)
		{
			pages_md_link_row(b, v, "name", "papers", "paper");
			if (pages_has_int(v, "h_index"))
				core_buf_printf(b, ", h %lld",
				    pages_int(v, "h_index", 0));
			core_buf_putc(b, '\n');
		}
		core_buf_puts(b,
		    "\nThese are either different people who "
		    "publish under the same name, or the same person in "
		    "records that the sources have not merged yet.\n");
	}
	pages_md_evidence_summary(b, json_object_get(m, "evidence"));

	if (json_array_size(json_object_get(m, "institutions")) > 0) {
		core_buf_puts(b, "\n## Institutions\n\n");
		json_array_foreach(json_object_get(m, "institutions"), i, v)
		{
			place_row(b, v);
		}
	}

	core_buf_puts(b, "\n## Co-authors\n\n");
	note = pages_large_papers_note(net);
	if (json_array_size(json_object_get(net, "nodes")) == 0 && note == NULL)
		core_buf_puts(b, "No co-author is matched to a profile yet.\n");
	json_array_foreach(json_object_get(net, "nodes"), i, v)
	{
		pages_md_link_row(b, v, "name", "papers", "joint paper");
		coauthor_links(b, net, pages_int(v, "id", 0),
		    pages_int(json_object_get(net, "center"), "id", 0));
		core_buf_putc(b, '\n');
	}
	if (note != NULL) {
		if (json_array_size(json_object_get(net, "nodes")) > 0)
			core_buf_putc(b, '\n');
		core_md_text(b, note);
		core_buf_putc(b, '\n');
		free(note);
	}

	if (json_array_size(json_object_get(m, "timeline")) > 0) {
		core_buf_puts(b, "\n## Papers per year\n\n");
		json_array_foreach(json_object_get(m, "timeline"), i, v)
		    core_buf_printf(b, "- %lld: %lld\n",
			pages_int(v, "year", 0), pages_int(v, "count", 0));
	}

	sort = pages_str(pl, "sort");
	total = pages_int(json_object_get(pl, "pagination"), "total", 0);
	core_buf_printf(b, "\n## Papers\n\n%lld paper%s", total,
	    total == 1 ? "" : "s");
	if (cat != NULL) {
		core_buf_puts(b, " in ");
		core_md_text(b, cat);
	}
	core_buf_printf(b, ", %s first.",
	    sort != NULL && strcmp(sort, "citations") == 0 ? "most cited"
							   : "newest");
	if (cat != NULL) {
		core_buf_puts(b, " Without the filter: ");
		core_md_link(b, pages_str(pl, "unfiltered_url"),
		    pages_str(pl, "unfiltered_url"));
		core_buf_putc(b, '.');
	}
	core_buf_puts(b, "\n\n");
	cards(b, json_object_get(pl, "items"));
	pages_md_pager(b, json_object_get(pl, "pagination"));
}

void
pages_md_institution(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	const char *base = p->base;
	const json_t *rs = json_object_get(m, "researchers"), *v;
	char *years;
	size_t i;

	core_md_heading(b, 1, pages_str(m, "name"));
	link_fact(b, "URL", NULL, pages_str(m, "url"));
	core_buf_printf(b, "- Id: %lld\n", pages_int(m, "id", 0));
	feed_fact(b, base, "institutions", pages_int(m, "id", 0));
	link_fact(b, "ROR", pages_str(m, "ror_id"), pages_str(m, "ror_url"));
	fact(b, "Country", pages_str(m, "country"));
	fact(b, "Type", pages_str(m, "kind"));
	if (pages_str(m, "website") != NULL)
		link_fact(b, "Website", NULL, pages_str(m, "website"));
	if (pages_has_int(m, "established"))
		core_buf_printf(b, "- Established: %lld\n",
		    pages_int(m, "established", 0));
	if (json_array_size(json_object_get(m, "aliases")) > 0) {
		item(b, "Also known as");
		pages_md_join(b, json_object_get(m, "aliases"), "; ");
		core_buf_putc(b, '\n');
	}
	core_buf_printf(b, "- Researchers here: %lld\n",
	    pages_int(rs, "total", 0));
	core_buf_puts(b, "\n## Researchers\n\n");
	if (json_array_size(json_object_get(rs, "items")) == 0)
		core_buf_puts(b,
		    "No researcher is linked to this institution "
		    "yet.\n");
	json_array_foreach(json_object_get(rs, "items"), i, v)
	{
		pages_md_link_row(b, v, "name", "papers", "paper");
		years = pages_link_years(v);
		core_buf_printf(b, ", %s\n", years);
		free(years);
	}
	core_buf_puts(b, "\n## Recent papers\n\n");
	if (json_array_size(json_object_get(m, "recent_papers")) == 0)
		core_buf_puts(b, "No papers yet.\n");
	else {
		core_buf_printf(b, "%s\n\n", pages_while_there);
		cards(b, json_object_get(m, "recent_papers"));
		pages_md_pager(b, json_object_get(m, "pagination"));
	}
}

void
pages_md_directory(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	int people = p->kind == PAGES_RESEARCHERS;
	const json_t *v;
	size_t i;

	core_md_heading(b, 1, pages_str(m, "title"));
	core_buf_printf(b, "%s, ordered by %s.\n\n",
	    people ? "Researchers with papers on weft" : "Institutions on weft",
	    people ? "papers here" : "researchers here, then name");
	json_array_foreach(json_object_get(m, "items"), i, v)
	{
		pages_md_name_row(b, v, people);
	}
	pages_md_pager(b, json_object_get(m, "pagination"));
}

/* The home page's "Browse" list. */
static const struct {
	const char *label, *path;
} browse[] = {
	{ "Search", "/search?q=" },
	{ "Researchers", "/researchers" },
	{ "Institutions", "/institutions" },
	{ "For developers", "/developers" },
	{ "For agents", "/llms.txt" },
};

void
pages_md_home(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	const char *base = p->base;
	const json_t *c = json_object_get(m, "counts");
	size_t i;
	char *u;

	core_md_heading(b, 1, "weft");
	core_buf_puts(b,
	    "arXiv papers, the researchers who wrote them and "
	    "the institutions they work at.\n\n");
	metric(b, "Papers", c, "papers");
	metric(b, "Researchers", c, "researchers");
	metric(b, "Institutions", c, "institutions");
	core_buf_puts(b, "\n## Browse\n\n");
	for (i = 0; i < sizeof(browse) / sizeof(browse[0]); i++) {
		u = pages_abs(base, browse[i].path);
		link_fact(b, browse[i].label, u, u);
		free(u);
	}
	core_buf_puts(b, "\n## Latest papers\n\n");
	pages_md_feed_links(b, base, "/rss/latest.xml");
	core_buf_putc(b, '\n');
	cards(b, json_object_get(m, "latest"));
}

void
pages_md_choices(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;
	const json_t *v;
	size_t i;

	core_buf_puts(b,
	    "# 300 Multiple Choices\n\nSeveral institutions are "
	    "named ");
	core_md_text(b, pages_str(m, "query"));
	core_buf_puts(b, ":\n\n");
	json_array_foreach(json_object_get(m, "candidates"), i, v)
	{
		place_row(b, v);
	}
}

/* Authored markdown, links already absolute. */
void
pages_md_doc(struct core_buf *b, const struct pages_page *p)
{
	const char *md = pages_str(p->model, "markdown");

	core_buf_puts(b, md != NULL ? md : "");
}

void
pages_md_error_page(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model;

	core_buf_printf(b, "# %lld ", pages_int(m, "status", 500));
	core_md_text(b, pages_str(m, "title"));
	core_buf_puts(b, "\n\n");
	core_md_text(b, pages_str(m, "message"));
	core_buf_putc(b, '\n');
}
