/*
 * resolve.c -- identifiers typed where a page is expected.  A search for
 * an arXiv id (new or old style, with a version, an "arXiv:" prefix or
 * an arxiv.org URL), a DOI (10.48550/arXiv.… names the arXiv paper) or
 * an ORCID, and the researcher paths /researchers/{ORCID},
 * /researchers/openalex:A… and /researchers/s2:{id}: each is a 301 to
 * the page it names when weft has that page.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "pages.h"
#include "pages_sql.h"

/* Skips prefix (ASCII, any case) at *s: 1 and *s advanced, or 0. */
static int
skip(const char **s, size_t *n, const char *prefix)
{
	size_t k = strlen(prefix);

	if (*n < k || strncasecmp(*s, prefix, k) != 0)
		return 0;
	*s += k;
	*n -= k;
	return 1;
}

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

/* An ORCID iD, 0000-0002-1825-0097, its check character (ISO 7064
 * 11,2) right. */
static int
orcid_ok(const char *s, size_t n)
{
	int total = 0, i, d, check;

	if (n != 19)
		return 0;
	for (i = 0, d = 0; i < 19; i++) {
		if (i % 5 == 4) {
			if (s[i] != '-')
				return 0;
			continue;
		}
		if (d == 15)
			break;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		total = (total + (s[i] - '0')) * 2;
		d++;
	}
	check = (12 - total % 11) % 11;
	return toupper((unsigned char)s[18]) ==
	    (check == 10 ? 'X' : '0' + check);
}

/* A DOI: "10." registrant "/" suffix, no white space. */
static int
doi_ok(const char *s, size_t n)
{
	size_t i = 3, reg;

	if (n < 6 || strncmp(s, "10.", 3) != 0)
		return 0;
	for (reg = i; i < n && isdigit((unsigned char)s[i]); i++)
		;
	if (i - reg < 4 || i - reg > 9 || i + 1 >= n || s[i] != '/')
		return 0;
	for (; i < n; i++)
		if (isspace((unsigned char)s[i]) ||
		    iscntrl((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
arxiv(const char *s, size_t n, struct pages_ident *out)
{
	struct core_arxiv_id a;
	size_t used = 0;

	if (n > 4 && strncasecmp(s + n - 4, ".pdf", 4) == 0)
		n -= 4;
	if (core_arxiv_parse(s, n, &a, &used) != CORE_OK || used != n)
		return 0;
	out->kind = PAGES_IDENT_ARXIV;
	snprintf(out->value, sizeof(out->value), "%s", a.id);
	return 1;
}

static int
set(struct pages_ident *out, enum pages_ident_kind kind, const char *s,
    size_t n)
{
	if (n >= sizeof(out->value))
		return 0;
	out->kind = kind;
	memcpy(out->value, s, n);
	out->value[n] = '\0';
	if (kind == PAGES_IDENT_ORCID) /* stored with a capital X */
		out->value[n - 1] = (char)toupper((unsigned char)s[n - 1]);
	return 1;
}

int
pages_ident_query(const char *q, struct pages_ident *out)
{
	const char *s = q;
	size_t n;
	int url;

	out->kind = PAGES_IDENT_NONE;
	out->value[0] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	url = skip(&s, &n, "https://") || skip(&s, &n, "http://");
	(void)skip(&s, &n, "www.");
	if (skip(&s, &n, "arxiv.org/abs/") || skip(&s, &n, "arxiv.org/pdf/") ||
	    skip(&s, &n, "export.arxiv.org/abs/"))
		return arxiv(s, n, out);
	if (skip(&s, &n, "doi.org/") || skip(&s, &n, "dx.doi.org/") ||
	    (!url && skip(&s, &n, "doi:"))) {
		if (!doi_ok(s, n))
			return 0;
	} else if (skip(&s, &n, "orcid.org/") ||
	    (!url && skip(&s, &n, "orcid:")))
		return orcid_ok(s, n) && set(out, PAGES_IDENT_ORCID, s, n);
	else if (url)
		return 0;
	if (doi_ok(s, n)) {
		/* arXiv's own DOIs name the paper by its id. */
		if (n > 15 && strncasecmp(s, "10.48550/arxiv.", 15) == 0)
			return arxiv(s + 15, n - 15, out);
		return set(out, PAGES_IDENT_DOI, s, n);
	}
	if (orcid_ok(s, n))
		return set(out, PAGES_IDENT_ORCID, s, n);
	return arxiv(s, n, out);
}

int
pages_ident_researcher(const char *rest, struct pages_ident *out)
{
	const char *s = rest;
	size_t n = strlen(rest);

	out->kind = PAGES_IDENT_NONE;
	out->value[0] = '\0';
	if (orcid_ok(s, n))
		return set(out, PAGES_IDENT_ORCID, s, n);
	if (skip(&s, &n, "openalex:")) {
		(void)skip(&s, &n, "https://openalex.org/");
		if (n < 2 || toupper((unsigned char)*s) != 'A' ||
		    !all_digits(s + 1, n - 1) || n > 20)
			return 0;
		out->kind = PAGES_IDENT_OPENALEX;
		snprintf(out->value, sizeof(out->value), "A%.*s", (int)n - 1,
		    s + 1);
		return 1;
	}
	if (skip(&s, &n, "s2:") && all_digits(s, n) && n <= 20)
		return set(out, PAGES_IDENT_S2, s, n);
	return 0;
}

/* The researcher an external id names: its canonical path, or NULL. */
static enum core_err
researcher_path(struct core_db *db, const struct pages_ident *id, char **path)
{
	const char *p[3] = { NULL, NULL, NULL };
	PGresult *res = NULL;
	enum core_err er;

	*path = NULL;
	p[id->kind == PAGES_IDENT_ORCID            ? 0
		: id->kind == PAGES_IDENT_OPENALEX ? 1
						   : 2] = id->value;
	if ((er = core_db_exec(db, PAGES_SQL_RESOLVE_RESEARCHER, p, 3, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*path =
		    core_researcher_path(core_cell_bigint(res, 0,
					     PAGES_RESOLVE_RESEARCHER__ID, 0),
			core_cell_text(res, 0, PAGES_RESOLVE_RESEARCHER__SLUG));
	PQclear(res);
	return CORE_OK;
}

/* The paper an arXiv id or a DOI names: its canonical path, or NULL. */
static enum core_err
paper_path(struct core_db *db, const struct pages_ident *id, char **path)
{
	const char *p[2] = { NULL, NULL };
	PGresult *res = NULL;
	enum core_err er;

	*path = NULL;
	p[id->kind == PAGES_IDENT_ARXIV ? 0 : 1] = id->value;
	if ((er = core_db_exec(db, PAGES_SQL_RESOLVE_PAPER, p, 2, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*path = core_paper_path(core_cell_text(res, 0,
					    PAGES_RESOLVE_PAPER__ARXIV_ID),
		    core_cell_text(res, 0, PAGES_RESOLVE_PAPER__SLUG));
	PQclear(res);
	return CORE_OK;
}

enum core_err
pages_resolve(struct core_req *req, const struct pages_ident *id, int *sent)
{
	struct core_db *db = core_req_ctx(req)->db;
	char *path = NULL;
	enum core_err er;

	*sent = 0;
	switch (id->kind) {
	case PAGES_IDENT_NONE:
		return CORE_OK;
	case PAGES_IDENT_ARXIV:
	case PAGES_IDENT_DOI:
		er = paper_path(db, id, &path);
		break;
	default:
		er = researcher_path(db, id, &path);
		break;
	}
	if (er == CORE_OK && path != NULL) {
		core_resp_redirect(req, 301, path);
		*sent = 1;
	}
	free(path);
	return er;
}
