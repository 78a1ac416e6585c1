/*
 * test_pages_render.c -- the pages module's renderers on fixed view
 * models: escaping of hostile titles in HTML, markdown and BibTeX, the
 * researcher page's blocks, the 404 page, and the small helpers.
 */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "../../modules/pages/pages.h"

#define BASE "http://weft.test"
#define EVIL "<script>alert(\"x\")</script> & 'q' </script>"

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static json_t *
paper_model(void)
{
	json_error_t e;
	json_t *m;

	m = json_pack_ex(&e, 0,
	    "{s:s,s:s,s:s,s:s,s:s,s:s,s:n,"
	    "s:[{s:i,s:s,s:{s:i,s:s,s:s}},{s:i,s:s,s:n}],"
	    "s:i,s:b,s:s,s:[s,s],s:s,s:n,s:[{s:i,s:s}],"
	    "s:s,s:s,s:n,s:n,s:n,s:n,"
	    "s:{s:s,s:s,s:s}}",
	    "type", "paper", "arxiv_id", "2512.20345", "url",
	    BASE "/papers/2512.20345-a-study", "slug", "a-study", "title", EVIL,
	    "abstract", "We study <b>bugs</b>\nin systems.", "comment",
	    "authors", "position", 1, "name", "Xiaoxue \"Ma\"", "researcher",
	    "id", 7, "name", "Xiaoxue Ma", "url",
	    BASE "/researchers/7-xiaoxue-ma", "position", 2, "name",
	    "Jacky <Keung>", "researcher", "authors_matched", 1,
	    "all_authors_matched", 0, "primary_category", "cs.SE", "categories",
	    "cs.SE", "cs.LG", "published", "2025-12-23", "updated", "versions",
	    "version", 1, "date", "2025-12-23", "doi", "10.1/x_y", "doi_url",
	    "https://doi.org/10.1/x_y", "journal_ref", "license",
	    "citation_count", "citation_source", "links", "abs",
	    "https://arxiv.org/abs/2512.20345", "pdf",
	    "https://arxiv.org/pdf/2512.20345", "bibtex",
	    BASE "/papers/2512.20345-a-study?format=bib");
	if (m == NULL)
		printf("# json_pack: %s\n", e.text);
	return m;
}

static json_t *
researcher_model(void)
{
	json_t *m, *card, *net;

	card = json_pack("{s:s,s:s,s:s,s:s,s:s,s:[s],s:n,s:i,s:b,"
			 "s:[{s:s,s:i,s:s},{s:s,s:n,s:n}]}",
	    "arxiv_id", "2512.20345", "title", EVIL, "url",
	    BASE "/papers/2512.20345-a-study", "published", "2025-12-23",
	    "primary_category", "cs.SE", "categories", "cs.SE",
	    "citation_count", "author_count", 6, "all_authors_matched", 0,
	    "authors", "name", "Jiale Chen", "id", 9, "url",
	    BASE "/researchers/9-jiale-chen", "name", "Unmatched Person", "id",
	    "url");
	m = json_pack("{s:s,s:i,s:s,s:s,s:s,s:[],"
		      "s:{s:i,s:n,s:n,s:n,s:n},"
		      "s:{s:i,s:i,s:i,s:i,s:i},"
		      "s:[{s:s,s:i,s:s}],"
		      "s:{s:i,s:[{s:i,s:s,s:s,s:i,s:i}]},"
		      "s:[],"
		      "s:{s:{s:i,s:s,s:s},s:[{s:i,s:s,s:s,s:i}],s:[{s:i,s:i,s:"
		      "i}]},"
		      "s:[{s:i,s:i}],"
		      "s:{s:s,s:s,s:s,s:s,s:s,s:[o],"
		      "s:{s:i,s:i,s:i,s:i,s:n,s:s}}}",
	    "type", "researcher", "id", 9, "name", "Jiale <Chen>", "slug",
	    "jiale-chen", "url", BASE "/researchers/9-jiale-chen", "profiles",
	    "metrics", "papers_here", 3, "h_index", "citations", "works_total",
	    "source", "author_position", "first", 1, "middle", 2, "last", 0,
	    "papers_counted", 3, "papers_total", 4, "fields", "category",
	    "cs.SE", "papers", 3, "url",
	    BASE "/researchers/9-jiale-chen?category=cs.SE", "same_name",
	    "total", 1, "items", "id", 70, "name", "Jiale Chen", "url",
	    BASE "/researchers/70-jiale-chen", "papers", 8, "h_index", 6,
	    "institutions", "network", "center", "id", 9, "name", "Jiale Chen",
	    "url", BASE "/researchers/9-jiale-chen", "nodes", "id", 10, "name",
	    "Yishu Li", "url", BASE "/researchers/10-yishu-li", "papers", 2,
	    "edges", "a", 9, "b", 10, "weight", 2, "timeline", "year", 2025,
	    "count", 3, "papers", "sort", "newest", "category", "cs.SE",
	    "unfiltered_url", BASE "/researchers/9-jiale-chen", "newest_url",
	    BASE "/researchers/9-jiale-chen?category=cs.SE", "citations_url",
	    BASE "/researchers/9-jiale-chen?category=cs.SE&sort=citations",
	    "items", card, "pagination", "page", 1, "per_page", 24, "total", 30,
	    "pages", 2, "prev", "next",
	    BASE "/researchers/9-jiale-chen?category=cs.SE&page=2");
	/* A second co-author who also wrote with the first. */
	net = json_object_get(m, "network");
	json_array_append_new(json_object_get(net, "nodes"),
	    json_pack("{s:i,s:s,s:s,s:i}", "id", 11, "name", "Ada <Lovelace>",
		"url", BASE "/researchers/11-ada", "papers", 1));
	json_array_append_new(json_object_get(net, "edges"),
	    json_pack("{s:i,s:i,s:i}", "a", 10, "b", 11, "weight", 1));
	return m;
}

static char *
render(enum core_err (*fn)(struct core_buf *, const struct pages_page *),
    enum pages_kind kind, const json_t *m, enum core_err *er)
{
	struct core_buf b = CORE_BUF_INIT;
	struct pages_page p;

	p.kind = kind;
	p.model = m;
	p.base = BASE;
	*er = fn(&b, &p);
	core_buf_puts(&b, "");
	return core_buf_steal(&b);
}

static void
test_paper(void)
{
	json_t *m = paper_model();
	enum core_err er;
	char *s;

	T_OK(m != NULL, "paper model builds");
	s = render(pages_render_html, PAGES_PAPER, m, &er);
	T_EQ(er, CORE_OK, "paper html renders");
	T_LACKS(s, "<script>alert", "html: no raw script from the title");
	T_EQ(count(s, "</script>"), 2,
	    "html: only the two JSON-LD blocks (the site's, the paper's) "
	    "close a script");
	T_CONTAINS(s,
	    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; "
	    "&amp; &#39;q&#39;",
	    "html: title escaped in the body");
	T_CONTAINS(s, "<title>&lt;script&gt;", "html: <title> escaped");
	T_CONTAINS(s, "\\u003cscript\\u003e", "json-ld: < escaped");
	T_CONTAINS(s,
	    "<link rel=\"canonical\" href=\"" BASE
	    "/papers/2512.20345-a-study\">",
	    "html: canonical link");
	T_CONTAINS(s,
	    "type=\"text/markdown\" href=\"" BASE
	    "/papers/2512.20345-a-study?format=md\"",
	    "html: md alternate");
	T_CONTAINS(s, "application/x-bibtex", "html: bib alternate");
	T_CONTAINS(s, "property=\"og:title\"", "html: OpenGraph");
	T_CONTAINS(s, "name=\"twitter:card\"", "html: Twitter card");
	T_CONTAINS(s, "\"ScholarlyArticle\"", "json-ld: ScholarlyArticle");
	T_CONTAINS(s, "\"BreadcrumbList\"", "json-ld: breadcrumbs");
	T_CONTAINS(s, "href=\"/researchers/7-xiaoxue-ma\"",
	    "html: matched author linked (site-relative)");
	T_CONTAINS(s, "Jacky &lt;Keung&gt;", "html: unmatched author as text");
	T_CONTAINS(s, "1 of 2 authors are matched",
	    "html: says not all "
	    "authors are matched");
	T_CONTAINS(s, "We study &lt;b&gt;bugs&lt;/b&gt;",
	    "html: abstract "
	    "escaped");
	T_CONTAINS(s, "https://arxiv.org/pdf/2512.20345", "html: PDF link");
	T_CONTAINS(s, "https://doi.org/10.1/x_y", "html: DOI link");
	T_LACKS(s, "<dt>Citations</dt>", "html: no citations without a count");
	T_LACKS(s, "unknown", "html: nothing shown as unknown");
	T_CONTAINS(s, "cat cat-primary", "html: primary category marked");
	T_CONTAINS(s,
	    "<!--# if expr=\"$weft_signed_in\" -->"
	    "<!--# include virtual=\"/account/nav\" --><!--# else -->",
	    "html: account slot is SSI guarded by the cookie");
	T_CONTAINS(s, "not affiliated with arXiv", "footer: not affiliated");
	T_LACKS(s, "style=", "html: no inline styles");
	T_LACKS(s, "<script>", "html: no inline scripts");
	free(s);

	s = render(pages_render_md, PAGES_PAPER, m, &er);
	T_EQ(er, CORE_OK, "paper md renders");
	/* How much punctuation core_md_text() escapes is its business; the
	 * angle brackets must be escaped whatever it decides. */
	T_CONTAINS(s, "# \\<script\\>alert", "md: title escaped");
	T_LACKS(s, "<script>", "md: no raw script tag");
	T_CONTAINS(s, "[Xiaoxue \"Ma\"](" BASE "/researchers/7-xiaoxue-ma)",
	    "md: author link absolute");
	T_LACKS(s, "Citations:", "md: no citations line without a count");
	T_CONTAINS(s, "## Abstract", "md: abstract section");
	T_LACKS(s, "<b>", "md: no raw html");
	free(s);

	s = render(pages_render_bib, PAGES_PAPER, m, &er);
	T_EQ(er, CORE_OK, "paper bib renders");
	T_CONTAINS(s, "@misc{ma2025script,", "bib: key");
	T_CONTAINS(s,
	    "title = {<script>alert(\"x\")</script> \\& 'q' "
	    "</script>}",
	    "bib: title escaped for BibTeX");
	T_CONTAINS(s, "eprint = {2512.20345}", "bib: eprint");
	T_CONTAINS(s, "doi = {10.1/x\\_y}", "bib: underscore escaped");
	T_CONTAINS(s, "author = {Xiaoxue \"Ma\" and Jacky <Keung>}",
	    "bib: authors joined with and");
	free(s);

	s = render(pages_render_bib, PAGES_RESEARCHER, m, &er);
	T_EQ(er, CORE_EINPUT, "bib refuses other kinds");
	free(s);
	json_decref(m);
}

static void
test_researcher(void)
{
	json_t *m = researcher_model();
	enum core_err er;
	char *s;

	T_OK(m != NULL, "researcher model builds");
	s = render(pages_render_html, PAGES_RESEARCHER, m, &er);
	T_EQ(er, CORE_OK, "researcher html renders");
	T_CONTAINS(s, "<h1>Jiale &lt;Chen&gt;</h1>", "name as h1, escaped");
	T_CONTAINS(s, "<p class=\"eyebrow\">researcher</p>", "eyebrow");
	T_CONTAINS(s, "3 papers here", "badge: papers here");
	T_LACKS(s, "badge-red", "badge: no h-index badge without a source");
	T_LACKS(s, "unknown", "badge: nothing shown as unknown");
	T_LACKS(s, "works total", "badge: no works total without a source");
	T_CONTAINS(s, "newest first", "note on matching order");
	T_CONTAINS(s,
	    "<!--# if expr=\"$weft_signed_in\" -->"
	    "<!--# include virtual=\"/account/follow/9\" --><!--# else -->",
	    "follow slot is an SSI include");
	T_CONTAINS(s, "href=\"/signin?next=/researchers/9-jiale-chen\"",
	    "signed-out follow links to sign-in");
	T_CONTAINS(s, "Across 3 of 4 papers where every author was matched",
	    "author position caption");
	T_CONTAINS(s, "class=\"bar w50\"", "middle bar at 100%, first at 50%");
	T_CONTAINS(s, "class=\"bar w100\"", "the largest bar is full");
	T_CONTAINS(s, "href=\"/researchers/9-jiale-chen?category=cs.SE\"",
	    "fields link to the filter");
	T_CONTAINS(s, "aria-current=\"true\">cs.SE", "active field marked");
	T_CONTAINS(s, "same name", "same-name block");
	T_CONTAINS(s, "— 8 papers, h 6", "same-name counts");
	T_CONTAINS(s, "not merged yet", "same-name explanation");
	T_CONTAINS(s, "No OpenAlex, Semantic Scholar or ORCID record",
	    "identity block without profiles");
	T_CONTAINS(s, "<svg", "network drawn");
	T_CONTAINS(s, "class=\"timeline\"", "timeline drawn");
	T_CONTAINS(s, "30 papers in <span class=\"mono\">cs.SE</span>",
	    "paper count with the filter");
	T_CONTAINS(s, "pill pill-active\" href=\"/researchers/9-jiale-chen\"",
	    "active filter removable");
	T_CONTAINS(s, "rel=\"next\"", "pager next");
	T_CONTAINS(s, "Unmatched Person", "unmatched author on the card");
	T_CONTAINS(s, "4 more authors", "card says how many authors more");
	T_LACKS(s, "<script>alert", "card title escaped");
	T_CONTAINS(s, "\"Person\"", "json-ld Person");
	T_LACKS(s, "style=", "no inline styles");
	free(s);

	s = render(pages_render_md, PAGES_RESEARCHER, m, &er);
	T_EQ(er, CORE_OK, "researcher md renders");
	T_CONTAINS(s, "# Jiale \\<Chen\\>", "md title");
	T_LACKS(s, "h-index", "md: no h-index without a source");
	T_CONTAINS(s,
	    "- [Yishu Li](" BASE "/researchers/10-yishu-li) — 2 "
	    "joint papers; also with Ada \\<Lovelace\\> (1)",
	    "md adjacency list with the co-authors' own links");
	T_CONTAINS(s,
	    "- [Ada \\<Lovelace\\>](" BASE "/researchers/11-ada) — "
	    "1 joint paper; also with Yishu Li (1)",
	    "md adjacency both ways");
	T_CONTAINS(s, "Next page: [", "md next page");
	T_CONTAINS(s,
	    "](" BASE "/researchers/9-jiale-chen?category=cs.SE&"
	    "page=2)",
	    "md next page absolute");
	T_LACKS(s, "](/", "md: no relative links");
	free(s);
	json_decref(m);
}

/* A source's figures with its name and date; the papers' own, labelled. */
static void
test_researcher_sourced(void)
{
	json_t *m = researcher_model();
	json_t *metrics = json_object_get(m, "metrics");
	enum core_err er;
	char *s;

	json_object_set_new(metrics, "h_index", json_integer(17));
	json_object_set_new(metrics, "citations", json_integer(3984));
	json_object_set_new(metrics, "works_total", json_integer(62));
	json_object_set_new(metrics, "source", json_string("openalex"));
	json_object_set_new(metrics, "as_of", json_string("2026-11-30"));
	json_object_set_new(metrics, "here",
	    json_pack("{s:i,s:i,s:i,s:i,s:[s,s]}", "papers_with_citations", 3,
		"citations", 52, "h_index", 3, "h_index_lead", 1, "sources",
		"openalex", "s2"));
	s = render(pages_render_html, PAGES_RESEARCHER, m, &er);
	T_EQ(er, CORE_OK, "sourced researcher html renders");
	T_CONTAINS(s, "badge badge-red\">h-index 17", "source's h-index badge");
	T_CONTAINS(s, "3,984 citations", "source's citations badge");
	T_CONTAINS(s, "62 works total", "source's works total badge");
	T_CONTAINS(s, "Figures from OpenAlex, as of 2026-11-30.",
	    "html: source and date");
	T_CONTAINS(s,
	    "Here: 52 citations of 3 papers with a count; h-index 3, 1 as "
	    "first or last author (counts from OpenAlex and Semantic "
	    "Scholar).",
	    "html: the archive's own figures, labelled, with whose counts");
	free(s);
	s = render(pages_render_md, PAGES_RESEARCHER, m, &er);
	T_EQ(er, CORE_OK, "sourced researcher md renders");
	T_CONTAINS(s, "- h-index: 17\n", "md: h-index");
	T_CONTAINS(s, "- Works total: 62\n", "md: works total");
	T_CONTAINS(s, "- Figures from OpenAlex, as of 2026-11-30.\n",
	    "md: source and date");
	T_CONTAINS(s, "- Here: 52 citations of 3 papers", "md: here figures");
	free(s);
	json_decref(m);
}

static void
test_error(void)
{
	json_t *m = json_pack("{s:s,s:i,s:s,s:s}", "type", "error", "status",
	    404, "title", "Not Found", "message", "nothing <here>");
	enum core_err er;
	char *s;

	s = render(pages_render_html, PAGES_ERROR, m, &er);
	T_EQ(er, CORE_OK, "404 renders");
	T_CONTAINS(s, "<p class=\"eyebrow\">404</p>", "404 eyebrow");
	T_CONTAINS(s, "This page is not here", "404 headline");
	T_CONTAINS(s, "Search the archive", "404 search button");
	T_CONTAINS(s, "Go home", "404 home button");
	T_CONTAINS(s, "/papers/{arxiv-id}-{title}", "404 URL patterns");
	T_CONTAINS(s, "href=\"/llms.txt\"", "404 points to llms.txt");
	T_CONTAINS(s, "href=\"/sitemap.xml\"", "404 points to the sitemap");
	T_CONTAINS(s, "nothing &lt;here&gt;", "404 message escaped");
	free(s);
	json_decref(m);
}

static void
test_helpers(void)
{
	struct core_buf b = CORE_BUF_INIT;
	json_t *pg;
	long long id;
	char *s;

	s = pages_paper_path("math.GT/0309136", "knots");
	T_STREQ(s, "/papers/math.GT/0309136-knots", "old-style path");
	free(s);
	s = pages_paper_path("2512.20345", "");
	T_STREQ(s, "/papers/2512.20345", "empty slug left out with its '-'");
	free(s);
	s = pages_paper_path("2512.20345", "2512.20345-a-b");
	T_STREQ(s, "/papers/2512.20345-a-b", "id not repeated from slug");
	free(s);
	s = pages_researcher_path(5, "yang-liu");
	T_STREQ(s, "/researchers/5-yang-liu", "researcher path");
	free(s);
	s = pages_institution_path(7, "a b%41/c");
	T_STREQ(s, "/institutions/7-a%20b%2541%2Fc",
	    "odd slugs are encoded, so the path decodes back to them");
	free(s);

	T_STREQ(pages_rel(BASE, BASE "/x?y=1"), "/x?y=1", "rel strips base");
	T_STREQ(pages_rel(BASE, BASE), "/", "rel of base is /");
	T_STREQ(pages_rel(BASE, "https://arxiv.org/"), "https://arxiv.org/",
	    "rel keeps foreign URLs");
	T_STREQ(pages_rel(BASE, BASE ".evil.com/x"), BASE ".evil.com/x",
	    "rel needs a boundary after base");

	T_OK(pages_category_ok("cs.SE"), "category ok");
	T_OK(pages_category_ok("hep-th"), "category with '-'");
	T_OK(!pages_category_ok(""), "empty category");
	T_OK(!pages_category_ok("cs SE"), "category with space");
	T_OK(!pages_category_ok("a<b"), "category with <");
	T_OK(!pages_category_ok("abcdefghijklmnopqrstuvwxyz0123456789"),
	    "category too long");

	T_OK(pages_parse_id("42", 2, &id) == 0 && id == 42, "id 42");
	T_OK(pages_parse_id("0", 1, &id) != 0, "id 0 refused");
	T_OK(pages_parse_id("12a", 3, &id) != 0, "id with letter refused");
	T_OK(pages_parse_id("9999999999999999999", 19, &id) != 0,
	    "id overflow refused");
	T_OK(pages_parse_id("", 0, &id) != 0, "empty id refused");

	pg = pages_pagination(BASE, "/researchers", 2, 50);
	T_EQ(pages_int(pg, "pages", 0), 3, "50 items are 3 pages");
	T_STREQ(pages_str(pg, "next"), BASE "/researchers?page=3", "next");
	T_STREQ(pages_str(pg, "prev"), BASE "/researchers",
	    "prev of 2 is "
	    "the list itself");
	json_decref(pg);
	pg = pages_pagination(BASE, "/r/1-x?sort=citations", 3, 100);
	T_STREQ(pages_str(pg, "prev"), BASE "/r/1-x?sort=citations&page=2",
	    "prev keeps the other parameters");
	json_decref(pg);
	pg = pages_pagination(BASE, "/researchers", 1, 0);
	T_OK(json_is_null(json_object_get(pg, "next")), "empty: no next");
	T_EQ(pages_int(pg, "pages", -1), 0, "empty: 0 pages");
	json_decref(pg);

	pages_excerpt(&b, "one two  three\nfour", 9);
	T_STREQ(core_buf_cstr(&b), "one two…", "excerpt cut at a word");
	core_buf_reset(&b);
	pages_excerpt(&b, "héllo wörld", 100);
	T_STREQ(core_buf_cstr(&b), "héllo wörld", "excerpt keeps UTF-8");
	core_buf_reset(&b);
	core_bib_escape(&b, "{a}\\b%c#d$e&f_g^h~i");
	T_STREQ(core_buf_cstr(&b),
	    "\\{a\\}\\textbackslash{}b\\%c\\#d\\$e"
	    "\\&f\\_g\\^{}h\\~{}i",
	    "bib escape");
	core_buf_free(&b);
}

int
main(void)
{
	test_paper();
	test_researcher();
	test_researcher_sourced();
	test_error();
	test_helpers();
	return T_DONE();
}
