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

enum core_err
acc_fragment_dispatch(struct core_req *req)
{
	const char *p = fragment_path(req);
	size_t n;

	if (strcmp(p, "/account/nav") == 0)
		return acc_nav_get(req);
	if (strncmp(p, "/account/follow/", 16) == 0)
		return acc_follow_fragment_get(req);
	/* A GET of a POST-only path of ours. */
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
	const char *p = fragment_path(req), *rest;
	struct acc_session s;
	char *slug = NULL;
	long long rid;
	int following = 0;
	enum core_err er;

	if (strncmp(p, "/account/follow/", 16) != 0)
		return empty_fragment(req, 404);
	rest = p + 16;
	if (acc_parse_id(rest, strlen(rest), &rid) != 0)
		return empty_fragment(req, 404);
	if (acc_session_load(req, &s) != CORE_OK)
		return empty_fragment(req, 503);
	if (s.valid) {
		er = acc_store_follow_state(core_req_ctx(req)->db, s.uid, rid,
		    &slug, &following);
		if (er == CORE_ENOTFOUND)
			return empty_fragment(req, 404);
		if (er != CORE_OK)
			return empty_fragment(req, 503);
	}
	acc_render_follow_fragment(req, rid, slug, &s, following);
	free(slug);
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
	char *slug = NULL, *back = NULL;
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
	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	if ((er = acc_post_begin(req, &form)) != CORE_OK)
		return er;
	next = core_params_get(form, "next");
	if (next != NULL && *next == '\0')
		next = NULL;
	if (next != NULL && !acc_next_ok(next)) {
		return core_req_fail(req, 400,
		    "The page to return to (next=) must "
		    "be a path on this site.");
	}
	if ((er = acc_session_load(req, &s)) != CORE_OK)
		return er;
	if (!s.valid) {
		/* Anonymous: sign in first, then come back to the page. */
		back = core_xasprintf("/researchers/%lld", rid);
		if (s.had_cookie)
			acc_cookie_expire(req);
		acc_redirect_signin(req, next != NULL ? next : back);
		free(back);
		return CORE_OK;
	}
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
	core_resp_redirect(req, 303, next != NULL ? next : back);
	acc_private_headers(req);
out:
	free(slug);
	free(back);
	return er;
}
