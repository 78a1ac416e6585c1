/*
 * follow.c -- POST /researchers/{id}/follow and /unfollow, and the SSI
 * fragments /account/follow/{id} (the follow button of a researcher
 * page) and /account/nav (the header's account links).
 *
 * Fragments are bare HTML snippets for nginx's SSI include: no doctype,
 * "Cache-Control: private, no-store", and on any failure an empty body
 * (the page around them must still render).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "accounts.h"

/* An empty fragment with status (the include then shows nothing). */
static enum core_err
empty_fragment(struct core_req *req, int status)
{
	core_buf_reset(core_resp_body(req));
	core_resp_status(req, status);
	core_resp_type(req, CORE_REP_HTML);
	core_resp_header(req, "Cache-Control", "private, no-store");
	return CORE_OK;
}

enum core_err
acc_nav_get(struct core_req *req)
{
	struct acc_session s;

	if (acc_session_load(req, &s) != CORE_OK)
		return empty_fragment(req, 503);
	acc_render_nav_fragment(req, &s);
	return CORE_OK;
}

/*
 * The fragment's own path.  In an SSI subrequest nginx passes the parent
 * page's REQUEST_URI (that is what $request_uri means), which core routes
 * on; the subrequest's path is only in DOCUMENT_URI ($document_uri).
 */
static const char *
fragment_path(struct core_req *req)
{
	const char *d = core_req_env(req, "DOCUMENT_URI");

	return d != NULL && *d != '\0' ? d : core_req_path(req);
}

/*
 * The start of a follow button fragment for prefix{id}: its id and the
 * session.  0, or the status of the empty fragment to answer: 404 for
 * a path that is not prefix{id}, 503 when the session cannot be read.
 */
static int
fragment_open(struct core_req *req, const char *prefix, long long *id,
    struct acc_session *s)
{
	const char *p = fragment_path(req);
	size_t n = strlen(prefix);

	if (strncmp(p, prefix, n) != 0 ||
	    acc_parse_id(p + n, strlen(p + n), id) != 0)
		return 404;
	if (acc_session_load(req, s) != CORE_OK)
		return 503;
	return 0;
}

/* The status of a fragment whose target's state was looked up with er. */
static int
state_status(enum core_err er)
{
	if (er == CORE_ENOTFOUND)
		return 404;
	return er != CORE_OK ? 503 : 0;
}

enum core_err
acc_fragment_dispatch(struct core_req *req)
{
	const char *p = fragment_path(req);
	size_t n;

	if (strcmp(p, "/account/nav") == 0)
		return acc_nav_get(req);
	if (strncmp(p, "/account/follow/institution/", 28) == 0)
		return acc_follow_institution_fragment(req);
	if (strncmp(p, "/account/follow/category/", 25) == 0)
		return acc_follow_category_fragment(req);
	if (strncmp(p, "/account/follow/", 16) == 0)
		return acc_follow_fragment_get(req);
	/* A GET of a POST-only path of ours. */
	if (strcmp(p, "/account/follows") == 0 ||
	    strcmp(p, "/account/follows/remove") == 0 ||
	    strcmp(p, "/account/digest") == 0) {
		core_resp_header(req, "Allow", "POST");
		return core_req_fail(req, 405, "this is a POST form");
	}
	n = strlen(p);
	if (strncmp(p, "/researchers/", 13) == 0 &&
	    ((n > 7 && strcmp(p + n - 7, "/follow") == 0) ||
		(n > 9 && strcmp(p + n - 9, "/unfollow") == 0))) {
		core_resp_header(req, "Allow", "POST");
		return core_req_fail(req, 405,
		    "follow and unfollow are POST forms");
	}
	return CORE_ENOTFOUND;
}

enum core_err
acc_follow_fragment_get(struct core_req *req)
{
	struct acc_session s;
	char *slug = NULL;
	long long rid;
	int following = 0, status;

	if ((status = fragment_open(req, "/account/follow/", &rid, &s)) != 0)
		return empty_fragment(req, status);
	if (s.valid &&
	    (status = state_status(acc_store_follow_state(core_req_ctx(req)->db,
		 s.uid, rid, &slug, &following))) != 0)
		return empty_fragment(req, status);
	acc_render_follow_fragment(req, rid, slug, &s, following);
	free(slug);
	return CORE_OK;
}

/* next= of a form: NULL when absent; a 400 when not a path of ours. */
static enum core_err
form_next(struct core_req *req, const struct core_params *form,
    const char **next)
{
	*next = core_params_get(form, "next");
	if (*next != NULL && **next == '\0')
		*next = NULL;
	if (*next != NULL && !acc_next_ok(*next))
		return core_req_fail(req, 400, ACC_MSG_NEXT);
	return CORE_OK;
}

/* POST /researchers/{id}/follow|unfollow. */
enum core_err
acc_follow_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *rest = core_req_rest(req), *slash, *next;
	const struct core_params *form = NULL;
	struct acc_session s;
	char *slug = NULL, *back = NULL, page[40];
	long long rid;
	int follow, following;
	enum core_err er;

	if ((slash = strchr(rest, '/')) == NULL ||
	    acc_parse_id(rest, (size_t)(slash - rest), &rid) != 0)
		return CORE_ENOTFOUND;
	if (strcmp(slash, "/follow") == 0)
		follow = 1;
	else if (strcmp(slash, "/unfollow") == 0)
		follow = 0;
	else
		return CORE_ENOTFOUND;
	if ((er = acc_post_open(req, &form)) != CORE_OK)
		return er;
	if ((er = form_next(req, form, &next)) != CORE_OK)
		return er;
	/* Anonymous: sign in first, then come back to the page. */
	snprintf(page, sizeof(page), "/researchers/%lld", rid);
	if (!acc_need_session(req, &s, next != NULL ? next : page, &er))
		return er;
	if (acc_csrf_bad(req, s.token, core_params_get(form, "csrf")))
		return core_req_fail(req, 403,
		    "This form has expired or was not "
		    "sent from this site's own page. Please reload the page "
		    "and try again.");
	if ((er = acc_store_follow_state(ctx->db, s.uid, rid, &slug,
		 &following)) != CORE_OK) {
		if (er == CORE_ENOTFOUND)
			return core_req_fail(req, 404,
			    "There is no researcher with "
			    "this id.");
		return er;
	}
	/* Following twice, or unfollowing nobody, changes nothing. */
	if (follow && !following)
		er = acc_store_follow(ctx->db, s.uid, rid);
	else if (!follow && following)
		er = acc_store_unfollow(ctx->db, s.uid, rid);
	if (er != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "follow", "user %lld %s researcher %lld", s.uid,
	    follow ? "follows" : "unfollows", rid);
	if (next == NULL)
		back = *slug != '\0'
		    ? core_xasprintf("/researchers/%lld-%s", rid, slug)
		    : core_xasprintf("/researchers/%lld", rid);
	acc_see_other(req, next != NULL ? next : back);
out:
	free(slug);
	free(back);
	return er;
}

/* ------------------------------------------------ issue 21: follow kinds */

/* The fragment /account/follow/institution/{id}. */
enum core_err
acc_follow_institution_fragment(struct core_req *req)
{
	struct acc_session s;
	char *slug = NULL, *next;
	long long iid, target = 0;
	int status;

	if ((status = fragment_open(req, "/account/follow/institution/", &iid,
		 &s)) != 0)
		return empty_fragment(req, status);
	if (s.valid &&
	    (status = state_status(
		 acc_store_institution_state(core_req_ctx(req)->db, s.uid, iid,
		     &slug, &target))) != 0)
		return empty_fragment(req, status);
	next = slug != NULL && *slug != '\0'
	    ? core_xasprintf("/institutions/%lld-%s", iid, slug)
	    : core_xasprintf("/institutions/%lld", iid);
	acc_render_target_fragment(req, ACC_KIND_INSTITUTION, iid, target, next,
	    &s);
	free(next);
	free(slug);
	return CORE_OK;
}

/*
 * The fragment /account/follow/category/{code}: the browse page's
 * (/search?category=code) follow button, which comes back to it.
 */
enum core_err
acc_follow_category_fragment(struct core_req *req)
{
	struct core_db *db = core_req_ctx(req)->db;
	const char *p = fragment_path(req), *cat;
	struct acc_session s;
	long long target = 0;
	char *next;
	int known = 0;

	if (strncmp(p, "/account/follow/category/", 25) != 0)
		return empty_fragment(req, 404);
	cat = p + 25;
	if (!core_category_ok(cat, strlen(cat)))
		return empty_fragment(req, 404);
	if (acc_session_load(req, &s) != CORE_OK)
		return empty_fragment(req, 503);
	if (s.valid) {
		if (acc_store_category_known(db, cat, &known) != CORE_OK ||
		    (known &&
			acc_store_target_find(db, s.uid, ACC_KIND_CATEGORY, 0,
			    cat, "", &target) != CORE_OK))
			return empty_fragment(req, 503);
		if (!known)
			return empty_fragment(req, 404);
	}
	next = core_xasprintf("/search?category=%s", cat);
	acc_render_category_fragment(req, cat, target, next, &s);
	free(next);
	return CORE_OK;
}

/* What a follow form names, checked; the response set on failure. */
struct target {
	enum acc_kind kind;
	long long id;    /* researcher or institution */
	const char *cat; /* category, or a search's filter ("") */
	char q[ACC_SEARCH_MAX + 1];
	char *back; /* the target's page (caller frees) */
};

/*
 * Reads kind, id, category and q of form into t and checks them against
 * the database.  CORE_OK, or what the handler returns (the 4xx set).
 */
static enum core_err
target_parse(struct core_req *req, const struct core_params *form,
    long long uid, struct target *t)
{
	struct core_db *db = core_req_ctx(req)->db;
	const char *ks = core_params_get(form, "kind");
	const char *ids = core_params_get(form, "id"), *why;
	char *slug = NULL;
	long long tgt;
	int k, known, following;
	enum core_err er;

	memset(t, 0, sizeof(*t));
	if ((k = acc_kind_parse(ks)) < 0)
		return core_req_fail(req, 400,
		    "kind must be researcher, institution, category or "
		    "search");
	t->kind = k;
	t->cat = core_params_get(form, "category");
	if (t->cat == NULL)
		t->cat = "";
	switch (t->kind) {
	case ACC_KIND_RESEARCHER:
	case ACC_KIND_INSTITUTION:
		if (ids == NULL || acc_parse_id(ids, strlen(ids), &t->id) != 0)
			return core_req_fail(req, 400,
			    "id must be the number of a researcher or an "
			    "institution");
		er = t->kind == ACC_KIND_RESEARCHER
		    ? acc_store_follow_state(db, uid, t->id, &slug, &following)
		    : acc_store_institution_state(db, uid, t->id, &slug, &tgt);
		if (er == CORE_ENOTFOUND)
			return core_req_fail(req, 404,
			    t->kind == ACC_KIND_RESEARCHER
				? "There is no researcher with this id."
				: "There is no institution with this id.");
		if (er != CORE_OK)
			return er;
		t->back = core_xasprintf("/%s/%lld%s%s",
		    t->kind == ACC_KIND_RESEARCHER ? "researchers"
						   : "institutions",
		    t->id, *slug != '\0' ? "-" : "", slug);
		free(slug);
		t->cat = "";
		return CORE_OK;
	case ACC_KIND_SEARCH:
		if (acc_search_normalise(core_params_get(form, "q"), t->q,
			sizeof(t->q), &why) != 0)
			return core_req_fail(req, 400, why);
		__attribute__((fallthrough));
	case ACC_KIND_CATEGORY:
		if (t->kind == ACC_KIND_CATEGORY && *t->cat == '\0')
			return core_req_fail(req, 400,
			    "category is required: an arXiv category code "
			    "such as cs.DB");
		if (*t->cat != '\0') {
			if (!core_category_ok(t->cat, strlen(t->cat)))
				return core_req_fail(req, 400,
				    "category must be an arXiv category code "
				    "such as cs.DB");
			if ((er = acc_store_category_known(db, t->cat,
				 &known)) != CORE_OK)
				return er;
			if (!known)
				return core_req_failf(req, 400,
				    "There is no paper in category %s here: "
				    "an unknown category cannot be followed.",
				    t->cat);
		}
		break;
	default:
		return CORE_ENOTFOUND;
	}
	{
		struct core_buf b = CORE_BUF_INIT;

		core_buf_puts(&b, "/search?");
		if (t->kind == ACC_KIND_SEARCH) {
			core_buf_puts(&b, "q=");
			core_url_encode(&b, t->q, 0);
			if (*t->cat != '\0')
				core_buf_puts(&b, "&");
		}
		if (*t->cat != '\0') {
			core_buf_puts(&b, "category=");
			core_url_encode(&b, t->cat, 0);
		}
		t->back = core_xstrdup(core_buf_cstr(&b));
		core_buf_free(&b);
	}
	return CORE_OK;
}

enum core_err
acc_follows_add_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	const char *next;
	struct acc_session s;
	struct target t = { 0 };
	long long id = 0, total;
	int following = 0;
	char *slug = NULL;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	if ((er = form_next(req, form, &next)) != CORE_OK)
		return er;
	if ((er = target_parse(req, form, s.uid, &t)) != CORE_OK)
		goto out;
	/* Already followed: nothing to write, whatever the count. */
	if (t.kind == ACC_KIND_RESEARCHER)
		er = acc_store_follow_state(ctx->db, s.uid, t.id, &slug,
		    &following);
	else
		er = acc_store_target_find(ctx->db, s.uid, t.kind, t.id, t.cat,
		    t.q, &id);
	if (er != CORE_OK)
		goto out;
	if (!following && id == 0) {
		if ((er = acc_store_follow_total(ctx->db, s.uid, &total)) !=
		    CORE_OK)
			goto out;
		if (total >= ACC_FOLLOW_MAX) {
			er = core_req_failf(req, 409,
			    "You follow %lld things, the most one account "
			    "may. Unfollow some on your account page first.",
			    total);
			goto out;
		}
		if (t.kind == ACC_KIND_RESEARCHER)
			er = acc_store_follow(ctx->db, s.uid, t.id);
		else
			er = acc_store_target_add(ctx->db, s.uid, t.kind, t.id,
			    t.cat, t.q, &id);
		if (er != CORE_OK)
			goto out;
		core_log(CORE_LOG_INFO, "follow", "user %lld follows a%s %s",
		    s.uid, t.kind == ACC_KIND_INSTITUTION ? "n" : "",
		    acc_kinds[t.kind]);
	}
	acc_see_other(req, next != NULL ? next : t.back);
out:
	free(slug);
	free(t.back);
	return er;
}

enum core_err
acc_follows_remove_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	const char *next, *ids;
	struct acc_session s;
	long long id;
	int k, gone = 0;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	if ((er = form_next(req, form, &next)) != CORE_OK)
		return er;
	if ((k = acc_kind_parse(core_params_get(form, "kind"))) < 0)
		return core_req_fail(req, 400,
		    "kind must be researcher, institution, category or "
		    "search");
	ids = core_params_get(form, "id");
	if (ids == NULL || acc_parse_id(ids, strlen(ids), &id) != 0)
		return core_req_fail(req, 400,
		    "id must be the number of the follow to remove");
	if (k == ACC_KIND_RESEARCHER)
		er = acc_store_unfollow(ctx->db, s.uid, id);
	else
		er = acc_store_target_remove(ctx->db, s.uid, id, &gone);
	if (er != CORE_OK)
		return er;
	core_log(CORE_LOG_INFO, "follow", "user %lld unfollows a%s %s", s.uid,
	    k == ACC_KIND_INSTITUTION ? "n" : "", acc_kinds[k]);
	return acc_see_other(req, next != NULL ? next : "/account#following");
}

/* GET /account/follows/new?kind=category|search&category=&q=. */
enum core_err
acc_follows_new_get(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf self = CORE_BUF_INIT, title = CORE_BUF_INIT;
	const char *ks = core_req_param(req, "kind");
	const char *cat = core_req_param(req, "category"), *why;
	const char *q = core_req_param(req, "q");
	char nq[ACC_SEARCH_MAX + 1];
	struct acc_session s;
	json_t *m = NULL, *fields;
	long long id = 0;
	int k, known = 1;
	enum core_err er;

	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	k = acc_kind_parse(ks);
	if (k != ACC_KIND_CATEGORY && k != ACC_KIND_SEARCH)
		return core_req_fail(req, 400,
		    "kind must be category or search");
	if (cat != NULL && *cat == '\0')
		cat = NULL;
	if (k == ACC_KIND_SEARCH &&
	    acc_search_normalise(q, nq, sizeof(nq), &why) != 0)
		return core_req_fail(req, 400, why);
	if (k == ACC_KIND_CATEGORY && cat == NULL)
		return core_req_fail(req, 400,
		    "category is required: an arXiv category code such as "
		    "cs.DB");
	if (cat != NULL && !core_category_ok(cat, strlen(cat)))
		return core_req_fail(req, 400,
		    "category must be an arXiv category code such as cs.DB");
	/* This very page, to come back to after signing in. */
	core_buf_printf(&self, "/account/follows/new?kind=%s", acc_kinds[k]);
	if (k == ACC_KIND_SEARCH) {
		core_buf_puts(&self, "&q=");
		core_url_encode(&self, nq, 0);
	}
	if (cat != NULL) {
		core_buf_puts(&self, "&category=");
		core_url_encode(&self, cat, 0);
	}
	if (!acc_need_session(req, &s, core_buf_cstr(&self), &er))
		goto out;
	if (cat != NULL &&
	    (er = acc_store_category_known(ctx->db, cat, &known)) != CORE_OK)
		goto out;
	if (!known) {
		er = core_req_failf(req, 400,
		    "There is no paper in category %s here: an unknown "
		    "category cannot be followed.",
		    cat);
		goto out;
	}
	if ((er = acc_store_target_find(ctx->db, s.uid, k, 0,
		 cat != NULL ? cat : "", k == ACC_KIND_SEARCH ? nq : "",
		 &id)) != CORE_OK)
		goto out;
	if (k == ACC_KIND_SEARCH)
		core_buf_printf(&title, "Follow the search '%s'%s%s", nq,
		    cat != NULL ? " in " : "", cat != NULL ? cat : "");
	else
		core_buf_printf(&title, "Follow the new papers in %s", cat);
	fields = json_pack("{s:s}", "kind", acc_kinds[k]);
	if (k == ACC_KIND_SEARCH)
		json_object_set_new(fields, "q", core_json_str(nq));
	if (cat != NULL)
		json_object_set_new(fields, "category", core_json_str(cat));
	m = json_pack("{s:s,s:s,s:b,s:[],s:{s:s,s:s,s:s,s:o}}", "title",
	    core_buf_cstr(&title), "message",
	    id != 0
		? "You already follow this. Its new papers are in your "
		  "feed."
		: "Its new papers will appear in your feed, in your private "
		  "RSS feed and in your email digests.",
	    "ok", 1, "links", "form", "action", "/account/follows", "csrf",
	    s.csrf, "button", id != 0 ? "Follow (already followed)" : "Follow",
	    "fields", fields);
	er = acc_respond_message(req, 200, m, &s);
out:
	core_buf_free(&self);
	core_buf_free(&title);
	return er;
}
