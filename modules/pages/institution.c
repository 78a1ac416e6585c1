/*
 * institution.c -- /institutions/{id}-{slug}, and the lookups that
 * redirect to it: a bare or wrong-slugged id, a ROR id (bare
 * "02jx3x895" or the URL "https://ror.org/02jx3x895", percent-encoded in
 * the path), or a name (case-insensitive, exact, on the name, an alias
 * or the slug).  One match: 301.  Several names: 300 with the
 * candidates.  None: 404.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "pages.h"

const char pages_while_there[] =
    "Papers its researchers wrote while there: published within the "
    "years of their link to it, or in any year where the link has no "
    "years.";

char *
pages_link_years(const json_t *v)
{
	long long f = pages_int(v, "first_year", 0);
	long long l = pages_int(v, "last_year", 0);

	if (f > 0 && l > 0)
		return f == l ? core_xasprintf("%lld", f)
			      : core_xasprintf("%lld–%lld", f, l);
	if (f > 0)
		return core_xasprintf("since %lld", f);
	if (l > 0)
		return core_xasprintf("until %lld", l);
	return core_xstrdup("any year");
}

/* Longer lookups are not names of institutions. */
#define NAME_MAX_LEN 300

/*
 * A ROR id: '0', six of Crockford's base32 (no i, l, o, u), two check
 * digits.  Letters may come in either case; out gets it lower-cased.
 */
static int
ror_id(const char *s, char out[10])
{
	size_t i;

	if (strlen(s) != 9 || s[0] != '0')
		return 0;
	for (i = 0; i < 9; i++) {
		int c = tolower((unsigned char)s[i]);

		if (i >= 7 ? !isdigit(c)
			   : !(isdigit(c) ||
				 (c >= 'a' && c <= 'z' && !strchr("ilou", c))))
			return 0;
		out[i] = (char)c;
	}
	out[9] = '\0';
	return 1;
}

/*
 * Strips "https://ror.org/" and its variants (http, merged slashes, no
 * scheme); returns the rest, or NULL when s is no ROR URL.
 */
static const char *
ror_url(const char *s)
{
	if (strncasecmp(s, "https:", 6) == 0)
		s += 6;
	else if (strncasecmp(s, "http:", 5) == 0)
		s += 5;
	while (*s == '/')
		s++;
	if (strncasecmp(s, "www.", 4) == 0)
		s += 4;
	if (strncasecmp(s, "ror.org/", 8) != 0)
		return NULL;
	return s + 8;
}

/* The 300 page: the candidates in the negotiated representation. */
static enum core_err
choices(struct core_req *req, const char *name, json_t *cands)
{
	json_t *m;
	enum core_err er;

	m = json_pack("{s:s,s:o,s:O}", "type", "choices", "query",
	    core_json_str(name), "candidates", cands);
	core_resp_status(req, 300);
	er = pages_respond(req, PAGES_CHOICES, m);
	json_decref(m);
	return er;
}

/*
 * The page of institution id with page ?page= of its papers.  One with
 * no papers here is not worth a search engine's index (nor in the
 * sitemap, feeds.sql): "indexable" false, a robots meta in HTML and
 * X-Robots-Tag in every representation.
 */
static enum core_err
by_id(struct core_req *req, long long id)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *m = NULL;
	char *canon = NULL;
	long long total = 0;
	long page = 1;
	enum core_err er;

	if ((er = pages_page_param(req, &page)) != CORE_OK ||
	    (er = pages_store_institution(ctx->db, ctx->base_url, id, page, &m,
		 &total)) != CORE_OK)
		return er;
	canon = pages_institution_path(id, pages_str(m, "slug"));
	if (!pages_is_canon(req, canon)) {
		pages_redirect(req, canon);
		goto out;
	}
	if ((er = pages_beyond_last(req, page, total)) != CORE_OK)
		goto out;
	json_object_set_new(m, "indexable", json_boolean(total > 0));
	json_object_set_new(m, "pagination",
	    pages_pagination(ctx->base_url, canon, page, total));
	if (total == 0 &&
	    (er = core_resp_header(req, "X-Robots-Tag", "noindex")) != CORE_OK)
		goto out;
	er = pages_respond(req, PAGES_INSTITUTION, m);
out:
	free(canon);
	json_decref(m);
	return er;
}

/* One candidate of a lookup: redirect to its canonical page. */
static void
to_candidate(struct core_req *req, const json_t *c)
{
	char *p =
	    pages_institution_path(pages_int(c, "id", 0), pages_str(c, "slug"));

	pages_redirect(req, p);
	free(p);
}

enum core_err
pages_institution(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *rest = core_req_rest(req), *r;
	json_t *found = NULL;
	long long id;
	char ror[10];
	size_t n;
	enum core_err er;

	if (*rest == '\0') {
		pages_redirect(req, "/institutions");
		return CORE_OK;
	}
	if (strlen(rest) > NAME_MAX_LEN)
		return CORE_ENOTFOUND;
	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;

	/* "42" or "42-slug": by id. */
	n = strcspn(rest, "-");
	if (pages_parse_id(rest, n, &id) == 0)
		return by_id(req, id);

	/* A ROR id, bare or as its URL. */
	if ((r = ror_url(rest)) != NULL || ror_id(rest, ror)) {
		if (r != NULL && !ror_id(r, ror))
			return CORE_ENOTFOUND;
		if ((er = pages_store_institution_by_ror(ctx->db, ror,
			 &found)) != CORE_OK)
			return er;
		if (json_array_size(found) > 0) {
			to_candidate(req, json_array_get(found, 0));
			json_decref(found);
			return CORE_OK;
		}
		json_decref(found);
		found = NULL;
		if (r != NULL)
			return CORE_ENOTFOUND;
		/* A bare string shaped like a ROR id may still be a name. */
	}

	/* A name. */
	if ((er = pages_store_institutions_by_name(ctx->db, ctx->base_url, rest,
		 &found)) != CORE_OK)
		return er;
	switch (json_array_size(found)) {
	case 0:
		er = CORE_ENOTFOUND;
		break;
	case 1:
		to_candidate(req, json_array_get(found, 0));
		break;
	default:
		er = choices(req, rest, found);
		break;
	}
	json_decref(found);
	return er;
}
