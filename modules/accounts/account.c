/*
 * account.c -- /account (email, followed researchers, the private feed
 * URL), POST /account/feed-token (a new private feed URL) and the
 * onboarding page /account/welcome.
 *
 * Private feed tokens are stored only as a hash (see 0002_accounts.sql),
 * like sessions, so a database leak reveals no feed.  The price: the URL
 * is shown once, in the response to the POST that made it; afterwards
 * the page says one exists and offers to make a new one.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"

static enum core_err
account_page_status(struct core_req *req, const struct acc_session *s,
    const char *new_url, const char *new_key, int status, const char *error)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *m = NULL, *fol = NULL;
	char *created = NULL, *self, *rot, *feed, digest[8];
	enum core_err er;

	if ((er = acc_store_following(ctx->db, ctx->base_url, s->uid, &fol)) !=
	    CORE_OK)
		goto out;
	if ((er = acc_store_feed_token_created(ctx->db, s->uid, &created)) !=
	    CORE_OK)
		goto out;
	self = core_abs_url(req, "/account");
	rot = core_abs_url(req, "/account/feed-token");
	feed = core_abs_url(req, "/feed");
	m = json_pack("{s:o,s:o,s:o,s:I,s:o,s:{s:b,s:o,s:o,s:o,s:s}}", "url",
	    core_json_str(self), "email", core_json_str(s->email), "feed",
	    core_json_str(feed), "following_count",
	    (json_int_t)json_array_size(fol), "following", fol, "private_feed",
	    "exists", *created != '\0', "created_at",
	    *created != '\0' ? core_json_str(created) : json_null(), "url",
	    core_json_str(new_url), "rotate", core_json_str(rot), "warning",
	    "This URL works like a password: anyone who has it "
	    "can read your feed. Do not share it.");
	fol = NULL; /* stolen by "o" */
	free(self);
	free(rot);
	free(feed);
	if (m == NULL) {
		er = CORE_ESYS;
		goto out;
	}
	/* Email status, sessions, notices (manage.c). */
	if ((er = acc_account_extra(req, s, m)) != CORE_OK)
		goto out;
	if ((er = acc_api_keys_model(req, s->uid, new_key, m)) != CORE_OK)
		goto out;
	/* The other kinds of follows and the digest setting (issue 21). */
	if ((er = acc_store_targets(ctx->db, ctx->base_url, s->uid, &fol)) !=
	    CORE_OK)
		goto out;
	json_object_set_new(m, "follows", fol);
	fol = NULL;
	if ((er = acc_store_digest_get(ctx->db, s->uid, digest)) != CORE_OK)
		goto out;
	json_object_set_new(m, "digest", json_string(digest));
	if (error != NULL)
		json_object_set_new(m, "error", json_string(error));
	er = acc_respond(req, ACC_VIEW_ACCOUNT, status, m, s);
out:
	json_decref(m);
	json_decref(fol);
	free(created);
	return er;
}

static enum core_err
account_page(struct core_req *req, const struct acc_session *s,
    const char *new_url)
{
	return account_page_status(req, s, new_url, NULL, 200, NULL);
}

enum core_err
acc_account_page(struct core_req *req, const struct acc_session *s, int status,
    const char *error)
{
	return account_page_status(req, s, NULL, NULL, status, error);
}

enum core_err
acc_account_page_key(struct core_req *req, const struct acc_session *s,
    const char *new_key)
{
	return account_page_status(req, s, NULL, new_key, 200, NULL);
}

/*
 * The start of a signed-in page: negotiates the representation and loads
 * the session, else sends to sign-in and back to back.  1 to go on; 0
 * when *er is the answer.
 */
static int
signed_in_page(struct core_req *req, struct acc_session *s, const char *back,
    enum core_err *er)
{
	if ((*er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return 0;
	return acc_need_session(req, s, back, er);
}

enum core_err
acc_account_get(struct core_req *req)
{
	struct acc_session s;
	enum core_err er;

	if (!signed_in_page(req, &s, "/account", &er))
		return er;
	return account_page(req, &s, NULL);
}

enum core_err
acc_feed_token_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	char tok[ACC_TOKEN_LEN + 1], hash[ACC_HASH_HEX + 1], *url = NULL;
	struct acc_session s;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	acc_token_new(tok);
	acc_token_hash(tok, hash);
	if ((er = acc_store_feed_token_set(ctx->db, s.uid, hash)) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "feedtoken", "user %lld has a new feed token",
	    s.uid);
	url = core_xasprintf("%s/rss/feed/%s.xml", ctx->base_url, tok);
	er = account_page(req, &s, url);
out:
	sodium_memzero(tok, sizeof(tok));
	free(url);
	return er;
}

/* 1 for an arXiv category code: [A-Za-z0-9.-]{1,32}. */
static int
field_ok(const char *s)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
			(s[n] >= 'A' && s[n] <= 'Z') ||
			(s[n] >= '0' && s[n] <= '9') || s[n] == '.' ||
			s[n] == '-'))
			return 0;
	return n >= 1 && n <= 32;
}

enum core_err
acc_welcome_get(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_buf self = CORE_BUF_INIT;
	const char *field, *q, *next;
	json_t *m = NULL, *fields = NULL, *rs = NULL;
	struct acc_session s;
	enum core_err er;

	if (!signed_in_page(req, &s, "/account/welcome", &er))
		return er;
	field = core_req_param(req, "field");
	q = core_req_param(req, "q");
	next = core_req_param(req, "next");
	if (field != NULL && *field == '\0')
		field = NULL;
	if (q != NULL) {
		while (*q == ' ')
			q++;
		if (*q == '\0')
			q = NULL;
	}
	if (field != NULL && !field_ok(field)) {
		return core_req_fail(req, 400,
		    "field must be an arXiv category "
		    "code such as cs.LG");
	}
	if (q != NULL && strlen(q) > 200) {
		return core_req_fail(req, 400,
		    "a name search has at most 200 "
		    "characters");
	}
	if (next != NULL && !acc_next_ok(next))
		next = NULL;

	if ((er = acc_store_fields(ctx->db, &fields)) != CORE_OK)
		goto out;
	if (q != NULL)
		er = acc_store_search(ctx->db, ctx->base_url, s.uid, q, &rs);
	else if (field != NULL)
		er = acc_store_top_in_field(ctx->db, ctx->base_url, s.uid,
		    field, &rs);
	else
		rs = json_array();
	if (er != CORE_OK)
		goto out;
	/* Where a follow button brings the user back: this very view. */
	core_buf_puts(&self, "/account/welcome");
	if (q != NULL) {
		core_buf_puts(&self, "?q=");
		core_url_encode(&self, q, 0);
	} else if (field != NULL) {
		core_buf_puts(&self, "?field=");
		core_url_encode(&self, field, 0);
	}
	if (next != NULL) {
		core_buf_puts(&self, self.len > 16 ? "&next=" : "?next=");
		core_url_encode(&self, next, 0);
	}
	m = json_pack("{s:o,s:i,s:o,s:o,s:o,s:o,s:s}", "field",
	    core_json_str(field), "field_newest", ACC_FIELD_NEWEST, "q",
	    core_json_str(q), "fields", fields, "researchers", rs, "self",
	    core_json_str(core_buf_cstr(&self)), "continue",
	    next != NULL ? next : "/feed");
	fields = rs = NULL;
	if (m == NULL) {
		er = CORE_ESYS;
		goto out;
	}
	er = acc_respond(req, ACC_VIEW_WELCOME, 200, m, &s);
out:
	core_buf_free(&self);
	json_decref(m);
	json_decref(fields);
	json_decref(rs);
	return er;
}
