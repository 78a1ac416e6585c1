/*
 * mcp/tools.c -- what the MCP server offers: six tools and the pages as
 * resources.  Each tool runs the page handler of its URL as a
 * subrequest (core_req_sub_new()) and returns that page's view model
 * (the JSON representation) as structured content, and its markdown
 * where an agent reads a whole page, so the tools, the pages and their
 * URLs cannot drift apart.  The input schemas are built from the same
 * tables that check the arguments.  "ask" answers from the chat
 * module's retrieval instead (ask.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "pages.h"
#include "mcp/mcp.h"

/* Redirects followed inside the site (bare id -> canonical slug). */
#define FOLLOW_MAX 3

/* ---------------------------------------------------------------- args */

enum arg_type {
	ARG_STRING,
	ARG_INTEGER,
	ARG_ID, /* a page's id: a string, or a whole number */
	ARG__MAX
};

struct arg {
	const char *name;
	enum arg_type type;
	int required;
	const char *const *choices; /* NULL-terminated, or NULL */
	long long max;              /* integers: 1..max; strings: length */
	const char *desc;
};

static const char *const search_types[] = { "papers", "researchers",
	"institutions", NULL };
static const char *const search_sorts[] = { "relevance", "newest", "citations",
	NULL };
static const char *const search_modes[] = { "hybrid", "lexical", "semantic",
	NULL };
static const char *const list_sorts[] = { "newest", "citations", NULL };

#define ARG_PAGE                                                               \
	{                                                                      \
		"page", ARG_INTEGER, 0, NULL, PAGES_MAX_PAGE,                  \
		    "Page of the results, from 1 (24 a page)"                  \
	}
/* The researcher a tool is about (researcher, researcher_papers). */
#define ARG_RESEARCHER                                                         \
	{                                                                      \
		"id", ARG_ID, 1, NULL, 64,                                     \
		    "weft's researcher id (123 or 123-name), an ORCID, "       \
		    "openalex:A… or s2:…"                                  \
	}
#define ARG_END                                                                \
	{                                                                      \
		NULL, ARG__MAX, 0, NULL, 0, NULL                               \
	}

static const struct arg search_args[] = {
	{ "q", ARG_STRING, 1, NULL, 512,
	    "What to look for: words, \"a phrase\", -excluded, or an "
	    "identifier (arXiv id, DOI, ORCID)" },
	{ "type", ARG_STRING, 0, search_types, 0,
	    "Only papers, researchers or institutions (default: papers and "
	    "the best researchers and institutions)" },
	{ "category", ARG_STRING, 0, NULL, 32,
	    "Papers in this arXiv category, such as cs.SE" },
	{ "paper_type", ARG_STRING, 0, core_paper_types, 0,
	    "Papers of this type (weft-harvest analyse): empirical study, "
	    "method, system, benchmark/dataset, survey, theory, position" },
	{ "from", ARG_STRING, 0, NULL, 10,
	    "Papers published on or after this date (YYYY or YYYY-MM-DD)" },
	{ "to", ARG_STRING, 0, NULL, 10,
	    "Papers published on or before this date (YYYY or YYYY-MM-DD)" },
	{ "researcher", ARG_ID, 0, NULL, 64,
	    "Papers by this researcher (weft id, such as 123)" },
	{ "institution", ARG_ID, 0, NULL, 64,
	    "Papers from this institution (weft id, such as 123)" },
	{ "sort", ARG_STRING, 0, search_sorts, 0, "Order of the papers" },
	{ "mode", ARG_STRING, 0, search_modes, 0,
	    "hybrid (text and meaning, default), lexical (text) or semantic "
	    "(meaning)" },
	ARG_PAGE,
	ARG_END,
};
static const struct arg paper_args[] = {
	{ "id", ARG_STRING, 1, NULL, 256,
	    "An arXiv id in any form: 2512.20345, arXiv:2512.20345v2, "
	    "math.GT/0309136, an arxiv.org URL or its DOI" },
	ARG_END,
};
static const struct arg researcher_args[] = {
	ARG_RESEARCHER,
	ARG_END,
};
static const struct arg researcher_papers_args[] = {
	ARG_RESEARCHER,
	{ "sort", ARG_STRING, 0, list_sorts, 0,
	    "newest (default) or citations" },
	{ "category", ARG_STRING, 0, NULL, 32,
	    "Only papers in this arXiv category, such as cs.SE" },
	ARG_PAGE,
	ARG_END,
};
static const char *const ask_scopes[] = { "all", "paper", "researcher",
	"search", NULL };
static const struct arg ask_args[] = {
	{ "question", ARG_STRING, 1, NULL, 4000,
	    "The question, in plain words (at most 4,000 bytes)" },
	{ "scope", ARG_STRING, 0, ask_scopes, 0,
	    "Which papers answer it: all (the archive, default), paper (one "
	    "paper), researcher (a researcher's papers), search (the papers "
	    "of a search)" },
	{ "id", ARG_STRING, 0, NULL, 500,
	    "What the scope names: an arXiv id (paper), a weft researcher "
	    "id such as \"123\" (researcher), a search query (search)" },
	ARG_END,
};
static const struct arg institution_args[] = {
	{ "id", ARG_ID, 1, NULL, 64,
	    "weft's institution id (123 or 123-name)" },
	ARG_END,
};

/* The JSON Schema of args (new reference). */
static json_t *
input_schema(const struct arg *args)
{
	json_t *props = json_object(), *req = json_array(), *p, *e;
	const struct arg *a;
	size_t i;

	for (a = args; a->name != NULL; a++) {
		p = json_pack("{s:s,s:s}", "type",
		    a->type == ARG_INTEGER ? "integer" : "string",
		    "description", a->desc);
		if (a->type == ARG_ID)
			json_object_set_new(p, "type",
			    json_pack("[s,s]", "string", "integer"));
		if (a->type == ARG_INTEGER) {
			json_object_set_new(p, "minimum", json_integer(1));
			json_object_set_new(p, "maximum", json_integer(a->max));
		} else if (a->max > 0 && a->type == ARG_STRING)
			json_object_set_new(p, "maxLength",
			    json_integer(a->max));
		if (a->choices != NULL) {
			e = json_array();
			for (i = 0; a->choices[i] != NULL; i++)
				json_array_append_new(e,
				    json_string(a->choices[i]));
			json_object_set_new(p, "enum", e);
		}
		json_object_set_new(props, a->name, p);
		if (a->required)
			json_array_append_new(req, json_string(a->name));
	}
	return json_pack("{s:s,s:o,s:o,s:b}", "type", "object", "properties",
	    props, "required", req, "additionalProperties", 0);
}

static const struct arg *
arg_find(const struct arg *args, const char *name)
{
	for (; args->name != NULL; args++)
		if (strcmp(args->name, name) == 0)
			return args;
	return NULL;
}

/* v's text for an ID argument into buf: a string of [A-Za-z0-9:._-] or
 * a whole number.  0, or -1. */
static int
id_text(const json_t *v, char *buf, size_t sz)
{
	const char *s;
	size_t i;

	if (json_is_integer(v)) {
		snprintf(buf, sz, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return json_integer_value(v) > 0 ? 0 : -1;
	}
	if (!json_is_string(v) || (s = json_string_value(v))[0] == '\0' ||
	    strlen(s) >= sz)
		return -1;
	for (i = 0; s[i] != '\0'; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY"
			   "Z"
			   "0123456789:._-",
			s[i]) == NULL)
			return -1;
	snprintf(buf, sz, "%s", s);
	return 0;
}

/*
 * Checks args against the table: 0, or -1 with the reason in *why
 * (caller frees).
 */
static int
args_check(const struct arg *args, json_t *in, char **why)
{
	const struct arg *a;
	const char *key, *s;
	const json_t *v;
	char buf[72];
	size_t i;
	int ok;

	*why = NULL;
	if (in != NULL && !json_is_object(in)) {
		*why = core_xstrdup("arguments must be an object");
		return -1;
	}
	json_object_foreach(in, key, v)
	{
		if (arg_find(args, key) == NULL) {
			*why = core_xasprintf("unknown argument: %s", key);
			return -1;
		}
	}
	for (a = args; a->name != NULL; a++) {
		v = json_object_get(in, a->name);
		if (v == NULL || json_is_null(v)) {
			if (a->required) {
				*why =
				    core_xasprintf("%s is required", a->name);
				return -1;
			}
			continue;
		}
		switch (a->type) {
		case ARG_INTEGER:
			ok = json_is_integer(v) && json_integer_value(v) >= 1 &&
			    json_integer_value(v) <= a->max;
			if (!ok)
				*why = core_xasprintf("%s must be an integer "
						      "from 1 to %lld",
				    a->name, a->max);
			break;
		case ARG_ID:
			ok = id_text(v, buf, sizeof(buf)) == 0;
			if (!ok)
				*why = core_xasprintf("%s must be an id: a "
						      "string of letters, "
						      "digits, ':', '.', '_', "
						      "'-', or a number",
				    a->name);
			break;
		default:
			s = json_string_value(v);
			ok = s != NULL && *s != '\0' &&
			    (a->max == 0 || (long long)strlen(s) <= a->max);
			for (i = 0;
			     ok && a->choices != NULL && a->choices[i] != NULL;
			     i++)
				if (strcmp(s, a->choices[i]) == 0)
					break;
			if (ok && a->choices != NULL && a->choices[i] == NULL)
				ok = 0;
			if (!ok && json_is_number(v))
				*why =
				    core_xasprintf("%s must be a JSON string: "
						   "a number such as "
						   "2512.20345 "
						   "would lose its digits",
					a->name);
			else if (!ok)
				*why = core_xasprintf("%s must be a%s string%s",
				    a->name, a->choices ? "" : " non-empty",
				    a->choices
					? " among the schema's enum"
					: " (see the schema's maxLength)");
			break;
		}
		if (!ok)
			return -1;
	}
	return 0;
}

/* Appends "&name=value" for every argument of names present in in. */
static void
args_query(struct core_buf *q, const json_t *in, const char *const *names)
{
	const json_t *v;

	for (; *names != NULL; names++) {
		if ((v = json_object_get(in, *names)) == NULL ||
		    json_is_null(v))
			continue;
		core_buf_printf(q, "%s%s=", q->len > 0 ? "&" : "", *names);
		if (json_is_integer(v))
			core_buf_printf(q, "%" JSON_INTEGER_FORMAT,
			    json_integer_value(v));
		else if (json_is_string(v))
			core_url_encode(q, json_string_value(v), 0);
	}
}

/* ------------------------------------------------------------ fetching */

/* A page's answer: status, the body, the final path. */
struct view {
	int status;
	struct core_req *sub;
	char *path;     /* the last path asked for (owned) */
	char *location; /* a redirect not followed (owned) */
};

static void
view_free(struct view *v)
{
	core_req_sub_free(v->sub);
	free(v->path);
	free(v->location);
	memset(v, 0, sizeof(*v));
}

/*
 * GET path?query in representation fmt ("json", "md") through the
 * pages' own handlers, following follow redirects inside the site.
 * Returns the last status; v holds its response (view_free()).
 */
static int
fetch(struct core_req *req, const char *path, const char *query,
    const char *fmt, int follow, struct view *v)
{
	struct core_ctx *ctx = core_req_ctx(req);
	size_t blen = strlen(ctx->base_url), plen;
	const char *loc;
	char *q, *dpath = NULL;

	memset(v, 0, sizeof(*v));
	q = core_xasprintf("%s%sformat=%s", query, *query != '\0' ? "&" : "",
	    fmt);
	v->path = core_xstrdup(path);
	for (;;) {
		v->sub = core_req_sub_new(req, v->path, q);
		v->status = core_req_sub_run(v->sub);
		if (v->status < 300 || v->status >= 400)
			break;
		loc = core_resp_get_header(v->sub, "Location");
		if (loc == NULL)
			break;
		if (follow-- <= 0 || strncmp(loc, ctx->base_url, blen) != 0 ||
		    loc[blen] != '/') {
			v->location = core_xstrdup(loc);
			break;
		}
		/* The Location keeps our query (format and all). */
		loc += blen;
		plen = strcspn(loc, "?");
		if (core_url_decode(loc, plen, 0, &dpath, &plen) != CORE_OK) {
			v->location = core_xstrdup(loc);
			break;
		}
		free(q);
		q = core_xstrdup(loc[plen] == '?' ? loc + plen + 1 : "");
		free(v->path);
		v->path = dpath;
		dpath = NULL;
		core_req_sub_free(v->sub);
		v->sub = NULL;
	}
	free(q);
	return v->status;
}

/* The response body of v as JSON (new reference), or NULL. */
static json_t *
view_json(struct view *v)
{
	struct core_buf *b = core_resp_body(v->sub);

	return json_loadb(b->ptr != NULL ? b->ptr : "", b->len, 0, NULL);
}

/* The body of v as text (borrowed from v). */
static const char *
view_text(struct view *v)
{
	return core_buf_cstr(core_resp_body(v->sub));
}

/* ------------------------------------------------------------ results */

json_t *
pages_mcp_result(const char *text, json_t *structured, int err)
{
	json_t *r = json_pack("{s:[{s:s,s:o}]}", "content", "type", "text",
	    "text", core_json_str(text));

	if (structured != NULL)
		json_object_set_new(r, "structuredContent", structured);
	if (err)
		json_object_set_new(r, "isError", json_true());
	return r;
}

/* A failed page as a tool error: the page's own message. */
static json_t *
failed(struct view *v, const char *what)
{
	json_t *e = view_json(v);
	const char *msg =
	    core_json_text(json_object_get(e, "error"), "message");
	char *t;
	json_t *r;

	if (v->status == 404)
		t = core_xasprintf("weft has no %s with this id%s%s", what,
		    msg != NULL ? ": " : "", msg != NULL ? msg : "");
	else
		t = core_xasprintf("%s (status %d)",
		    msg != NULL ? msg : "the request failed", v->status);
	r = pages_mcp_result(t, NULL, 1);
	free(t);
	json_decref(e);
	return r;
}

/* The structured content alone: its JSON as the text, as the
 * specification recommends.  Takes s. */
static json_t *
structured(json_t *s)
{
	char *t = json_dumps(s, JSON_COMPACT);
	json_t *r = pages_mcp_result(t != NULL ? t : "", s, 0);

	free(t);
	return r;
}

/*
 * A whole page: its model as the structured content and its markdown
 * as the text, for path (query added).  what names it in errors.
 */
static json_t *
page(struct core_req *req, const char *path, const char *query,
    const char *what)
{
	struct view v, md;
	json_t *m, *r;

	if (fetch(req, path, query, "json", FOLLOW_MAX, &v) != 200 ||
	    (m = view_json(&v)) == NULL) {
		r = failed(&v, what);
		view_free(&v);
		return r;
	}
	/* The canonical path now: no redirect for the markdown. */
	if (fetch(req, v.path, query, "md", 0, &md) != 200)
		r = pages_mcp_result("", m, 0);
	else
		r = pages_mcp_result(view_text(&md), m, 0);
	view_free(&md);
	view_free(&v);
	return r;
}

/* -------------------------------------------------------------- tools */

static json_t *
t_search(struct core_req *req, const json_t *in)
{
	static const char *const names[] = { "q", "type", "category",
		"paper_type", "from", "to", "researcher", "institution", "sort",
		"mode", "page", NULL };
	struct core_buf q = CORE_BUF_INIT;
	struct view v;
	json_t *m, *r;

	args_query(&q, in, names);
	fetch(req, "/search", core_buf_cstr(&q), "json", 0, &v);
	core_buf_free(&q);
	if (v.status == 301 && v.location != NULL) {
		/* An identifier: the page it names. */
		m = json_pack("{s:s,s:s,s:s,s:i,s:[]}", "url", v.location,
		    "resolved_url", v.location, "query",
		    json_string_value(json_object_get(in, "q")), "total", 0,
		    "results");
		r = structured(m);
	} else if (v.status != 200 || (m = view_json(&v)) == NULL)
		r = failed(&v, "result");
	else
		r = structured(m);
	view_free(&v);
	return r;
}

/* "/papers/ID" for any form of an arXiv id, or NULL.  Caller frees. */
static char *
paper_path(const char *s, const char *suffix)
{
	struct pages_ident id;

	if (!pages_ident_query(s, &id) || id.kind != PAGES_IDENT_ARXIV)
		return NULL;
	return core_xasprintf("/papers/%s%s", id.value, suffix);
}

static json_t *
t_paper(struct core_req *req, const json_t *in)
{
	char *p = paper_path(json_string_value(json_object_get(in, "id")), "");
	json_t *r;

	if (p == NULL)
		return pages_mcp_result("id is not an arXiv id", NULL, 1);
	r = page(req, p, "", "paper");
	free(p);
	return r;
}

static json_t *
t_similar(struct core_req *req, const json_t *in)
{
	char *p = paper_path(json_string_value(json_object_get(in, "id")),
	    "/similar");
	struct view v;
	json_t *m, *r;

	if (p == NULL)
		return pages_mcp_result("id is not an arXiv id", NULL, 1);
	if (fetch(req, p, "", "json", FOLLOW_MAX, &v) != 200 ||
	    (m = view_json(&v)) == NULL)
		r = failed(&v, "paper");
	else
		r = structured(m);
	view_free(&v);
	free(p);
	return r;
}

/* "/{dir}/{id}" for an ID argument.  Caller frees. */
static char *
id_path(const char *dir, const json_t *in)
{
	char buf[72];

	if (id_text(json_object_get(in, "id"), buf, sizeof(buf)) != 0)
		return NULL;
	return core_xasprintf("/%s/%s", dir, buf);
}

/* The page of the entity in.id under /dir/, as a tool result. */
static json_t *
entity_page(struct core_req *req, const json_t *in, const char *dir,
    const char *kind)
{
	char *p = id_path(dir, in);
	json_t *r = page(req, p, "", kind);

	free(p);
	return r;
}

static json_t *
t_researcher(struct core_req *req, const json_t *in)
{
	return entity_page(req, in, "researchers", "researcher");
}

static json_t *
t_institution(struct core_req *req, const json_t *in)
{
	return entity_page(req, in, "institutions", "institution");
}

static json_t *
t_researcher_papers(struct core_req *req, const json_t *in)
{
	static const char *const names[] = { "category", "sort", "page", NULL };
	struct core_buf q = CORE_BUF_INIT;
	char *p = id_path("researchers", in);
	struct view v;
	json_t *m, *s, *r;

	args_query(&q, in, names);
	if (fetch(req, p, core_buf_cstr(&q), "json", FOLLOW_MAX, &v) != 200 ||
	    (m = view_json(&v)) == NULL)
		r = failed(&v, "researcher");
	else {
		s = json_pack("{s:{s:O,s:O,s:O},s:O}", "researcher", "id",
		    json_object_get(m, "id"), "name",
		    json_object_get(m, "name"), "url",
		    json_object_get(m, "url"), "papers",
		    json_object_get(m, "papers"));
		json_decref(m);
		r = s != NULL
		    ? structured(s)
		    : pages_mcp_result("the page is malformed", NULL, 1);
	}
	view_free(&v);
	core_buf_free(&q);
	free(p);
	return r;
}

/* Output schemas: what every answer of the tool has, loosely. */
#define S_STR "{\"type\":\"string\"}"
#define S_INT "{\"type\":\"integer\"}"
#define S_URL "{\"type\":\"string\",\"description\":\"canonical URL\"}"
#define S_PERSON                                                               \
	"{\"type\":\"object\",\"properties\":{\"id\":" S_INT                   \
	",\"name\":" S_STR ",\"url\":" S_URL                                   \
	"},\"required\":[\"id\",\"name\",\"url\"]}"
#define S_ITEMS                                                                \
	"{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":"   \
	"{\"url\":" S_URL "}}}"

struct tool {
	const char *name;
	const char *title;
	const char *desc;
	const struct arg *args;
	const char *output; /* JSON Schema text */
	json_t *(*run)(struct core_req *, const json_t *in);
};

static const struct tool tools[] = {
	{ "search", "Search weft",
	    "Full-text and semantic search over papers (title, abstract, "
	    "authors), and researchers and institutions by name, with "
	    "filters, sorting and pages.  Returns the search page's model: "
	    "results with their canonical URLs, total, facets, pagination.",
	    search_args,
	    "{\"type\":\"object\",\"properties\":{\"url\":" S_URL
	    ",\"query\":" S_STR ",\"total\":" S_INT ",\"results\":" S_ITEMS
	    ",\"resolved_url\":" S_URL "},\"required\":[\"url\",\"query\"]}",
	    t_search },
	{ "get_paper", "Get a paper",
	    "A paper by arXiv id (any form): its page as markdown, and its "
	    "fields (title, authors with their researcher pages, abstract, "
	    "dates, versions, categories, DOI, links, similar papers) as "
	    "structured content.",
	    paper_args,
	    "{\"type\":\"object\",\"properties\":{\"arxiv_id\":" S_STR
	    ",\"title\":" S_STR ",\"url\":" S_URL ",\"authors\":{\"type\":"
	    "\"array\"}},\"required\":[\"arxiv_id\",\"title\",\"url\"]}",
	    t_paper },
	{ "get_researcher", "Get a researcher",
	    "A researcher by weft id, ORCID, OpenAlex or Semantic Scholar "
	    "id: the page as markdown (metrics, institutions, fields, "
	    "co-authors, newest papers) and its fields.",
	    researcher_args, S_PERSON, t_researcher },
	{ "get_institution", "Get an institution",
	    "An institution by weft id: the page as markdown (ROR record, "
	    "location, researchers, recent papers) and its fields.",
	    institution_args, S_PERSON, t_institution },
	{ "similar_papers", "Similar papers",
	    "The papers closest in meaning to a paper (weft's semantic "
	    "index), with their canonical URLs.",
	    paper_args,
	    "{\"type\":\"object\",\"properties\":{\"url\":" S_URL
	    ",\"paper\":{\"type\":\"object\"},\"items\":" S_ITEMS
	    "},\"required\":[\"url\",\"paper\",\"items\"]}",
	    t_similar },
	{ "researcher_papers", "A researcher's papers",
	    "A page of a researcher's papers, newest or most cited first, "
	    "optionally in one arXiv category.",
	    researcher_papers_args,
	    "{\"type\":\"object\",\"properties\":{\"researcher\":" S_PERSON
	    ",\"papers\":{\"type\":\"object\",\"properties\":{"
	    "\"items\":" S_ITEMS
	    ",\"pagination\":{\"type\":\"object\"}},\"required\":[\"items\"]}},"
	    "\"required\":[\"researcher\",\"papers\"]}",
	    t_researcher_papers },
	{ "ask", "Ask the papers",
	    "A question answered from the archive's papers: the whole "
	    "archive, one paper, a researcher's papers or a search's.  The "
	    "answer quotes the retrieved papers' sentences closest to the "
	    "question (extracts, no language model), each cited [n], with "
	    "the numbered references and their canonical URLs.",
	    ask_args,
	    "{\"type\":\"object\",\"properties\":{\"question\":" S_STR
	    ",\"scope\":" S_STR ",\"mode\":" S_STR ",\"answer\":" S_STR
	    ",\"references\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\",\"properties\":{\"n\":" S_INT ",\"arxiv_id\":" S_STR
	    ",\"title\":" S_STR ",\"url\":" S_URL "},\"required\":[\"n\","
	    "\"url\"]}}},\"required\":[\"question\",\"scope\",\"answer\","
	    "\"references\"]}",
	    pages_mcp_ask },
};
#define NTOOLS (sizeof(tools) / sizeof(tools[0]))

static json_t *
tools_list(void)
{
	json_t *a = json_array(), *out;
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		out = json_loads(tools[i].output, 0, NULL);
		json_array_append_new(a,
		    json_pack("{s:s,s:s,s:s,s:o,s:o,s:{s:b,s:b}}", "name",
			tools[i].name, "title", tools[i].title, "description",
			tools[i].desc, "inputSchema",
			input_schema(tools[i].args), "outputSchema",
			out != NULL ? out : json_object(), "annotations",
			"readOnlyHint", 1, "openWorldHint", 0));
	}
	return json_pack("{s:o}", "tools", a);
}

static json_t *
tools_call(struct core_req *req, const struct mcp_msg *m)
{
	const char *name = core_json_text(m->params, "name");
	json_t *in = json_object_get(m->params, "arguments");
	json_t *res, *empty = NULL;
	char *why = NULL, *t;
	size_t i;

	if (name == NULL)
		return mcp_error(m->id, MCP_INVALID_PARAMS,
		    "tools/call needs params.name", NULL);
	for (i = 0; i < NTOOLS; i++)
		if (strcmp(tools[i].name, name) == 0)
			break;
	if (i == NTOOLS)
		return mcp_error(m->id, MCP_INVALID_PARAMS, "unknown tool",
		    json_pack("{s:s}", "name", name));
	if (in == NULL)
		in = empty = json_object();
	if (args_check(tools[i].args, in, &why) != 0) {
		t = core_xasprintf("invalid arguments for %s: %s", name, why);
		res = mcp_error(m->id, MCP_INVALID_PARAMS, t, NULL);
		free(t);
		free(why);
		json_decref(empty);
		return res;
	}
	res = tools[i].run(req, in);
	json_decref(empty);
	return mcp_result(m->id, res);
}

/* ---------------------------------------------------------- resources */

static const char *const dirs[] = { "/papers/", "/researchers/",
	"/institutions/", NULL };

static json_t *
templates_list(struct core_req *req)
{
	const char *base = core_req_ctx(req)->base_url;
	json_t *a = json_array();

	json_array_append_new(a,
	    json_pack("{s:o,s:s,s:s,s:s,s:s}", "uriTemplate",
		pages_json_abs(base, "/papers/{arxiv_id}"), "name", "paper",
		"title", "A paper", "description",
		"A paper by arXiv id, as markdown", "mimeType",
		"text/markdown"));
	json_array_append_new(a,
	    json_pack("{s:o,s:s,s:s,s:s,s:s}", "uriTemplate",
		pages_json_abs(base, "/researchers/{id}"), "name", "researcher",
		"title", "A researcher", "description",
		"A researcher by weft id or ORCID, as markdown", "mimeType",
		"text/markdown"));
	json_array_append_new(a,
	    json_pack("{s:o,s:s,s:s,s:s,s:s}", "uriTemplate",
		pages_json_abs(base, "/institutions/{id}"), "name",
		"institution", "title", "An institution", "description",
		"An institution by weft id, as markdown", "mimeType",
		"text/markdown"));
	return json_pack("{s:o}", "resourceTemplates", a);
}

/* The newest papers (the home page's list): a bounded list. */
static json_t *
resources_list(struct core_req *req, const struct mcp_msg *m)
{
	struct view v;
	json_t *home = NULL, *a = json_array(), *c;
	size_t i;

	if (fetch(req, "/", "", "json", 0, &v) == 200)
		home = view_json(&v);
	json_array_foreach(json_object_get(home, "latest"), i, c)
	{
		if (core_json_text(c, "url") == NULL ||
		    core_json_text(c, "title") == NULL)
			continue;
		json_array_append_new(a,
		    json_pack("{s:O,s:O,s:O,s:s}", "uri",
			json_object_get(c, "url"), "name",
			json_object_get(c, "arxiv_id"), "title",
			json_object_get(c, "title"), "mimeType",
			"text/markdown"));
	}
	json_decref(home);
	view_free(&v);
	return mcp_result(m->id, json_pack("{s:o}", "resources", a));
}

static json_t *
resources_read(struct core_req *req, const struct mcp_msg *m)
{
	const char *base = core_req_ctx(req)->base_url;
	const char *uri = core_json_text(m->params, "uri"), *p;
	size_t blen = strlen(base), i, plen;
	struct view v;
	char *path = NULL, *url;
	json_t *r;

	if (uri == NULL)
		return mcp_error(m->id, MCP_INVALID_PARAMS,
		    "resources/read needs params.uri", NULL);
	/* Our own page URLs only, without query or fragment. */
	p = strncmp(uri, base, blen) == 0 ? uri + blen : "";
	for (i = 0; dirs[i] != NULL; i++)
		if (strncmp(p, dirs[i], strlen(dirs[i])) == 0)
			break;
	plen = strcspn(p, "?#");
	if (dirs[i] == NULL || p[plen] != '\0' ||
	    core_url_decode(p, plen, 0, &path, &plen) != CORE_OK)
		return mcp_error(m->id, MCP_RESOURCE_NOT_FOUND,
		    "Resource not found: weft's resources are its paper, "
		    "researcher and institution URLs",
		    json_pack("{s:s}", "uri", uri));
	if (fetch(req, path, "", "md", FOLLOW_MAX, &v) != 200) {
		r = mcp_error(m->id, MCP_RESOURCE_NOT_FOUND,
		    "Resource not found", json_pack("{s:s}", "uri", uri));
	} else {
		url = pages_abs(base, v.path);
		r = mcp_result(m->id,
		    json_pack("{s:[{s:s,s:s,s:o}]}", "contents", "uri", url,
			"mimeType", "text/markdown", "text",
			core_json_str(view_text(&v))));
		free(url);
	}
	view_free(&v);
	free(path);
	return r;
}

/* ---------------------------------------------------------- dispatch */

json_t *
pages_mcp_capabilities(void)
{
	return json_pack("{s:{s:b},s:{s:b,s:b}}", "tools", "listChanged", 0,
	    "resources", "subscribe", 0, "listChanged", 0);
}

json_t *
pages_mcp_dispatch(struct core_req *req, const struct mcp_msg *m)
{
	const char *meth = m->method;

	if (m->params != NULL && !json_is_object(m->params))
		return mcp_error(m->id, MCP_INVALID_PARAMS,
		    "params must be an object", NULL);
	if (strcmp(meth, "ping") == 0)
		return mcp_result(m->id, json_object());
	if (strcmp(meth, "tools/list") == 0)
		return mcp_result(m->id, tools_list());
	if (strcmp(meth, "tools/call") == 0)
		return tools_call(req, m);
	if (strcmp(meth, "resources/list") == 0)
		return resources_list(req, m);
	if (strcmp(meth, "resources/templates/list") == 0)
		return mcp_result(m->id, templates_list(req));
	if (strcmp(meth, "resources/read") == 0)
		return resources_read(req, m);
	return mcp_error(m->id, MCP_METHOD_NOT_FOUND, "Method not found",
	    json_pack("{s:s}", "method", meth));
}
