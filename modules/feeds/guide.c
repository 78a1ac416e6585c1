/*
 * guide.c -- guidance for machines: robots.txt for crawlers, llms.txt
 * (llmstxt.org) for language-model agents, and openapi.json (OpenAPI
 * 3.1) for programs.  All three depend only on the base URL, so they are
 * built once per worker at init and served from memory with an ETag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"

#define CC_GUIDE "public, max-age=3600"

/* Private paths: the account, the signed-in feed, private feed URLs,
 * and the forms (nothing there for an index). */
static const char *const disallow[] = {
	"/account",
	"/feed",
	"/rss/feed/",
	"/signin",
	"/signup",
};

static char *
robots_build(const char *base)
{
	struct core_buf b = CORE_BUF_INIT;
	size_t i;

	core_buf_puts(&b,
	    "# robots.txt for weft: papers, researchers and "
	    "institutions are for everyone;\n# accounts and private feeds "
	    "are not.  See also /llms.txt.\n\nUser-agent: *\n");
	for (i = 0; i < sizeof(disallow) / sizeof(disallow[0]); i++)
		core_buf_printf(&b, "Disallow: %s\n", disallow[i]);
	core_buf_printf(&b, "\nSitemap: %s/sitemap.xml\n", base);
	return core_buf_steal(&b);
}

/*
 * llms.txt per https://llmstxt.org/: an H1, a blockquote summary, free
 * text, then H2 sections of "- [name](url): notes" lists; the section
 * named "Optional" holds what an agent may skip.  Every link absolute.
 */
static char *
llms_build(const char *base, const struct core_conf *conf)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *u = base;

	core_buf_puts(&b,
	    "# weft\n"
	    "\n"
	    "> weft is a scholarly archive: papers from arXiv, the "
	    "researchers who wrote them and the institutions they work at, "
	    "linked together. Every page is available as HTML, as markdown "
	    "written for agents, and as JSON.\n"
	    "\n"
	    "## How to read this site\n"
	    "\n"
	    "- Markdown: send `Accept: text/markdown`, or add `?format=md` "
	    "to any page URL. Markdown pages have a `#` title, the facts as "
	    "short lines and lists, and absolute links.\n"
	    "- JSON: send `Accept: application/json`, or add "
	    "`?format=json`.\n"
	    "- BibTeX for papers: `Accept: application/x-bibtex` or "
	    "`?format=bib`.\n"
	    "- Errors come in the representation you asked for; in JSON "
	    "they are `{\"error\": {\"status\": 404, \"message\": "
	    "\"...\"}}`.\n"
	    "- Non-canonical URLs (a bare arXiv id, a version suffix, a "
	    "wrong slug) answer 301 with the canonical URL in `Location`; "
	    "follow it.\n"
	    "- Lists show 24 items a page: `?page=N` from 1, and "
	    "`Link: <...>; rel=\"next\"` headers.\n"
	    "- MCP: `/mcp` on this site is a Model Context Protocol server "
	    "(2025-06-18, Streamable HTTP) with the tools search, "
	    "get_paper, get_researcher, get_institution, similar_papers, "
	    "researcher_papers and ask (a question about a paper, a "
	    "researcher's papers, a search or the archive, answered with "
	    "cited extracts), and the pages as resources; see "
	    "Developers below.\n"
	    "\n"
	    "URL patterns:\n"
	    "\n");
	core_buf_printf(&b,
	    "- `%s/papers/{arxiv-id}`: a paper, e.g. `%s/papers/2512.20345` "
	    "(new-style ids) or `%s/papers/math.GT/0309136` (old-style); "
	    "redirects to `/papers/{arxiv-id}-{title-slug}`\n"
	    "- `%s/researchers/{id}`: a researcher, with "
	    "`?category=&sort=newest|citations&page=`\n"
	    "- `%s/institutions/{id}`, `%s/institutions/{ror-id}` or "
	    "`%s/institutions/{name}`: an institution\n"
	    "- `%s/search?q={words}&type=papers|researchers|institutions"
	    "&category=&paper_type=empirical|method|system|benchmark|survey"
	    "|theory|position&from=YYYY-MM-DD&to=YYYY-MM-DD"
	    "&sort=relevance|newest|citations&mode=hybrid|lexical|semantic"
	    "&page=`: search (mode: words and meaning, the default; words "
	    "only; meaning only)\n"
	    "- `%s/rss/latest.xml`, `%s/rss/categories/{category}.xml`, "
	    "`%s/rss/researchers/{id}.xml`, `%s/rss/institutions/{id}.xml`, "
	    "`%s/rss/search.xml?q={words}&category=` (the parameters of "
	    "/search): RSS 2.0 feeds; the same URL ending in `.atom` is "
	    "Atom, in `.json` JSON Feed 1.1.  A paper's new version is an "
	    "item of its own (\"v2 replaced v1\")\n"
	    "\n",
	    u, u, u, u, u, u, u, u, u, u, u, u, u);
	/* The limits as /developers states them (core_limits_md). */
	core_limits_md(&b, conf, base);
	core_buf_puts(&b, "\n");
	core_buf_printf(&b,
	    "## Start here\n"
	    "\n"
	    "- [Latest papers](%s/?format=md): the home page, with the "
	    "newest papers and corpus counts\n"
	    "- [Researchers](%s/researchers?format=md): the directory, "
	    "most prolific first\n"
	    "- [Institutions](%s/institutions?format=md): the directory\n"
	    "- [Search](%s/search?q=software+testing&format=md): an "
	    "example query\n"
	    "\n"
	    "## Machine-readable\n"
	    "\n"
	    "- [OpenAPI description](%s/openapi.json): every endpoint, its "
	    "parameters, media types and error object (OpenAPI 3.1)\n"
	    "- [Sitemap](%s/sitemap.xml): every paper, researcher and "
	    "institution page, with last-modified dates\n"
	    "- [Latest papers feed](%s/rss/latest.xml): RSS 2.0 (also "
	    "`.atom`, Atom, and `.json`, JSON Feed 1.1)\n"
	    "- [Developers](%s/developers?format=md): how to use the site "
	    "from programs\n"
	    "- [Everything for agents](%s/llms-full.txt): this file, the "
	    "developers' guide and MCP in one markdown file\n"
	    "\n"
	    "## Optional\n"
	    "\n"
	    "- [About](%s/about?format=md): what weft is and where its data "
	    "comes from\n"
	    "- [Privacy](%s/privacy?format=md)\n"
	    "- [Contact](%s/contact?format=md)\n",
	    u, u, u, u, u, u, u, u, u, u, u, u);
	return core_buf_steal(&b);
}

/*
 * /llms-full.txt: everything an agent needs in one markdown file, made
 * of the same sources as the pages it repeats, so that none can drift:
 * llms.txt (above, with the limits of core_limits_md), the developers'
 * guide as /developers serves it (content_dir/developers.md, its
 * headings one level down), whose "MCP server" section names the
 * tools.
 */
static char *
llms_full_build(const char *llms, const char *dev)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *p;

	core_buf_puts(&b, llms);
	if (dev == NULL)
		return core_buf_steal(&b);
	core_buf_puts(&b, "\n");
	/* The developers' guide, each heading one level down (#, ## ...
	 * under this file's one H1); code blocks have no headings. */
	for (p = dev; *p != '\0';) {
		size_t n = strcspn(p, "\n");

		if (*p == '#')
			core_buf_putc(&b, '#');
		core_buf_put(&b, p, n);
		core_buf_putc(&b, '\n');
		p += n;
		if (*p == '\n')
			p++;
	}
	return core_buf_steal(&b);
}

/* content_dir/developers.md with its site links made absolute, or
 * NULL (logged).  Caller frees. */
static char *
developers_read(const struct core_conf *conf, const char *base)
{
	struct core_buf out = CORE_BUF_INIT;
	char *path, *md;

	if (conf == NULL)
		return NULL;
	if (core_conf_get(conf, "content_dir", NULL) == NULL)
		return NULL;
	path = core_xasprintf("%s/developers.md",
	    core_conf_get(conf, "content_dir", NULL));
	if ((md = core_file_read(path, 256 * 1024)) == NULL)
		core_log(CORE_LOG_WARN, "init",
		    "cannot read %s: llms-full.txt goes without it", path);
	free(path);
	if (md == NULL)
		return NULL;
	core_md_absolutise(&out, md, base);
	free(md);
	return core_buf_steal(&out);
}

/* The shipped description with servers[0].url set to this site. */
static enum core_err
openapi_build(const char *base, char **out)
{
	json_error_t jerr;
	json_t *doc, *servers;
	char *s;

	*out = NULL;
	doc = json_loadb((const char *)feeds_openapi_json,
	    feeds_openapi_json_len, 0, &jerr);
	if (!json_is_object(doc)) {
		core_log(CORE_LOG_ERROR, "openapi",
		    "openapi.json does not "
		    "parse: line %d: %s",
		    jerr.line, jerr.text);
		json_decref(doc);
		return CORE_EINPUT;
	}
	servers =
	    json_pack("[{s:s,s:s}]", "url", base, "description", "this site");
	json_object_set_new(doc, "servers", servers);
	/* Indented: people read this file too.  No JSON_ESCAPE_SLASH
	 * needed: it is never inlined into HTML. */
	s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (s == NULL)
		return CORE_ESYS;
	*out = core_xasprintf("%s\n", s);
	free(s);
	return CORE_OK;
}

/* Where each document is served, and as what. */
static const struct {
	const char *path;
	enum core_rep rep;
} docs[FEEDS_DOC__MAX] = {
	[FEEDS_DOC_ROBOTS] = { "/robots.txt", CORE_REP_TEXT },
	[FEEDS_DOC_LLMS] = { "/llms.txt", CORE_REP_MD },
	[FEEDS_DOC_LLMS_FULL] = { "/llms-full.txt", CORE_REP_MD },
	[FEEDS_DOC_OPENAPI] = { "/openapi.json", CORE_REP_JSON },
};

enum core_err
feeds_guide_build(struct feeds_state *st, const char *base,
    const struct core_conf *conf)
{
	enum core_err er;
	char *dev;

	if ((er = openapi_build(base, &st->doc[FEEDS_DOC_OPENAPI])) != CORE_OK)
		return er;
	st->doc[FEEDS_DOC_ROBOTS] = robots_build(base);
	st->doc[FEEDS_DOC_LLMS] = llms_build(base, conf);
	dev = developers_read(conf, base);
	st->doc[FEEDS_DOC_LLMS_FULL] =
	    llms_full_build(st->doc[FEEDS_DOC_LLMS], dev);
	free(dev);
	return CORE_OK;
}

void
feeds_guide_free(struct feeds_state *st)
{
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < FEEDS_DOC__MAX; i++) {
		free(st->doc[i]);
		st->doc[i] = NULL;
	}
}

enum core_err
feeds_guide(struct core_req *r)
{
	struct feeds_state *st = core_req_ctx(r)->mod_state;
	const char *path = core_req_path(r), *doc;
	enum core_rep rep;
	char n[24];
	size_t i;

	for (i = 0; i < FEEDS_DOC__MAX; i++)
		if (strcmp(path, docs[i].path) == 0)
			break;
	/* Only the routes in module.c lead here. */
	if (i == FEEDS_DOC__MAX || (doc = st->doc[i]) == NULL)
		return CORE_ESYS;
	rep = docs[i].rep;
	core_buf_puts(core_resp_body(r), doc);
	/* As Cloudflare's markdown for agents: a token estimate. */
	if (rep == CORE_REP_MD) {
		snprintf(n, sizeof(n), "%zu", strlen(doc) / 4);
		core_resp_header(r, "x-markdown-tokens", n);
	}
	feeds_finish(r, rep, CC_GUIDE, -1);
	return CORE_OK;
}
