/*
 * static.c -- /about, /privacy, /contact, /developers: markdown files
 * from content_dir, read once per worker at init.  HTML gets them
 * through cmark's safe mode (core_html_md), markdown and JSON clients
 * as text; in both the site's own links ("](/x)") are made absolute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

/* Larger files are a mistake, not content. */
#define DOC_MAX (256 * 1024)

static const char *const names[PAGES_DOC__MAX] = {
	[PAGES_DOC_ABOUT] = "about",
	[PAGES_DOC_PRIVACY] = "privacy",
	[PAGES_DOC_CONTACT] = "contact",
	[PAGES_DOC_DEVELOPERS] = "developers",
};

static char *
slurp(const char *path)
{
	return core_file_read(path, DOC_MAX);
}

/* md with every "](/" link target prefixed by base.  Caller frees. */
static char *
absolutise(const char *md, const char *base)
{
	struct core_buf b = CORE_BUF_INIT;

	core_md_absolutise(&b, md, base);
	return core_buf_steal(&b);
}

/*
 * /developers with the fair-use section generated from the limits in
 * force (core_limits_md), before "## Licences".  Takes ownership of md.
 */
static char *
with_limits(char *md, const struct core_conf *conf, const char *base)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *at = strstr(md, "\n## Licences");
	size_t n = at != NULL ? (size_t)(at - md) + 1 : strlen(md);

	core_buf_put(&b, md, n);
	core_limits_md(&b, conf, base);
	core_buf_puts(&b, "\n");
	core_buf_puts(&b, md + n);
	free(md);
	return core_buf_steal(&b);
}

enum core_err
pages_docs_load(struct pages_state *st, const char *dir, const char *base,
    const struct core_conf *conf)
{
	char *path;
	int i;

	for (i = 0; i < PAGES_DOC__MAX; i++) {
		path = core_xasprintf("%s/%s.md", dir, names[i]);
		st->doc_rel[i] = slurp(path);
		if (st->doc_rel[i] == NULL) {
			core_log(CORE_LOG_ERROR, "init", "cannot read %s",
			    path);
			free(path);
			return CORE_ESYS;
		}
		free(path);
		if (i == PAGES_DOC_DEVELOPERS && conf != NULL)
			st->doc_rel[i] = with_limits(st->doc_rel[i], conf,
			    base != NULL ? base : "");
		st->doc_abs[i] =
		    absolutise(st->doc_rel[i], base != NULL ? base : "");
	}
	return CORE_OK;
}

void
pages_docs_free(struct pages_state *st)
{
	int i;

	for (i = 0; i < PAGES_DOC__MAX; i++) {
		free(st->doc_rel[i]);
		free(st->doc_abs[i]);
		st->doc_rel[i] = st->doc_abs[i] = NULL;
	}
}

/* The first "# " heading's text, or the page name.  Caller frees. */
static char *
doc_title(const char *md, const char *name)
{
	const char *p = md, *e;

	while (p != NULL && *p != '\0') {
		if (p[0] == '#' && p[1] == ' ') {
			e = p + 2 + strcspn(p + 2, "\r\n");
			return core_xstrndup(p + 2, (size_t)(e - p - 2));
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return core_xstrdup(name);
}

json_t *
pages_doc_model(const struct pages_state *st, enum pages_doc d,
    const char *base)
{
	char *path = core_xasprintf("/%s", names[d]);
	char *title = doc_title(st->doc_rel[d], names[d]);
	json_t *m;

	m = json_pack("{s:s,s:s,s:o,s:o,s:o}", "type", "page", "name", names[d],
	    "title", core_json_str(title), "url", pages_json_abs(base, path),
	    "markdown", core_json_str(st->doc_abs[d]));
	free(path);
	free(title);
	return m;
}

enum core_err
pages_doc(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct pages_state *st = ctx->mod_state;
	const char *path = core_req_path(req);
	enum pages_doc d;
	enum core_err er;
	json_t *m;

	/* The route is the document's name: "/about" serves about.md. */
	for (d = 0; d < PAGES_DOC__MAX; d++)
		if (path[0] == '/' && strcmp(path + 1, names[d]) == 0)
			break;
	if (d == PAGES_DOC__MAX)
		return CORE_ENOTFOUND;
	if (st == NULL)
		return CORE_ESYS;
	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;
	m = pages_doc_model(st, d, ctx->base_url);
	return pages_respond_new(req, PAGES_DOC, m, path);
}
