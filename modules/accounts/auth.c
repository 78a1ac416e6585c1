/*
 * auth.c -- /signup, /signin (GET the form, POST it) and POST /signout.
 * A valid sign-up ends in recover.c (the same answer for every address).
 *
 * The order of checks on a POST is fixed: Origin/Referer, the form's
 * size and encoding, the CSRF token, next=, the email and password
 * rules, the rate limits, and only then the password hash.  Every
 * rejection re-renders the form with a clear message and the email as
 * typed; nothing is written before all checks pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"

#define MSG_BAD_LOGIN "The email address or the password is wrong."

int
acc_need_session(struct core_req *req, struct acc_session *s, const char *back,
    enum core_err *er)
{
	*er = acc_session_load(req, s);
	if (*er != CORE_OK)
		return 0;
	if (s->valid)
		return 1;
	if (s->had_cookie)
		acc_cookie_expire(req); /* stale: stop the SSI subrequests */
	acc_redirect_signin(req, back);
	return 0;
}

enum core_err
acc_see_other(struct core_req *req, const char *to)
{
	core_resp_redirect(req, 303, to);
	acc_private_headers(req);
	return CORE_OK;
}

void
acc_redirect_signin(struct core_req *req, const char *path)
{
	char *to = acc_path_next("/signin", path);

	acc_see_other(req, to);
	free(to);
}

/* The value of field key, NULL when absent or empty. */
static const char *
field(const struct core_params *p, const char *key)
{
	const char *v = p != NULL ? core_params_get(p, key) : NULL;

	return v != NULL && *v != '\0' ? v : NULL;
}

/*
 * Renders the sign-in or sign-up form with status, the email as typed
 * (escaped by the writer), next and an error message.  Markdown and JSON
 * clients get the error object instead of a form.
 */
static enum core_err
form_page(struct core_req *req, enum acc_view v, int status, const char *email,
    const char *next, const char *error)
{
	char tok[ACC_TOKEN_LEN + 1], csrf[ACC_HASH_HEX + 1];
	unsigned char raw[ACC_TOKEN_RAW];
	enum core_err er;
	char *other;
	json_t *m;

	if (status >= 400 && core_req_rep(req) != CORE_REP_HTML)
		return core_req_fail(req, status, error);
	acc_pre_token(req, tok);
	acc_token_parse(tok, raw);
	acc_csrf_derive(raw, csrf);
	sodium_memzero(raw, sizeof(raw));
	other =
	    acc_path_next(v == ACC_VIEW_SIGNUP ? "/signin" : "/signup", next);
	m = json_pack("{s:o,s:o,s:o,s:s,s:s}", "email", core_json_str(email),
	    "next", core_json_str(next), "error", core_json_str(error), "csrf",
	    csrf, "other_url", other);
	free(other);
	er = acc_respond(req, v, status, m, NULL);
	json_decref(m);
	return er;
}

static enum core_err
get_form(struct core_req *req, enum acc_view v)
{
	struct acc_session s;
	const char *next;
	enum core_err er;

	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	next = core_req_param(req, "next");
	if (next != NULL && *next == '\0')
		next = NULL;
	if (next != NULL && !acc_next_ok(next))
		return form_page(req, v, 400, NULL, NULL, ACC_MSG_NEXT);
	if ((er = acc_session_load(req, &s)) != CORE_OK)
		return er;
	if (s.valid) {
		return acc_see_other(req, next != NULL ? next : "/account");
	}
	return form_page(req, v, 200, NULL, next, NULL);
}

enum core_err
acc_signin_get(struct core_req *req)
{
	return get_form(req, ACC_VIEW_SIGNIN);
}

enum core_err
acc_signup_get(struct core_req *req)
{
	return get_form(req, ACC_VIEW_SIGNUP);
}

/*
 * 429 with Retry-After when over a limit; 1 when sent.  key is the
 * account's (acc_email_key), so every spelling of one address shares its
 * counters; a browser that signed in to it before counts apart (limit.c).
 */
static int
limited(struct core_req *req, enum acc_view v, const char *action,
    const char *email, const char *key, const char *next, enum core_err *er)
{
	char dev[33];

	acc_device_known(req, key, dev);
	if (acc_limited(req, action, key, dev) == 0)
		return 0;
	*er = form_page(req, v, 429, email, next, ACC_MSG_LIMITED);
	return 1;
}

/*
 * The checks shared by both POSTs, the rate limits last.  Returns 0
 * with *email normalised into ebuf, its account key (acc_email_key) in
 * kbuf, and the password and next set, or -1 when the response (an
 * error form) is already set.
 */
static int
post_checks(struct core_req *req, enum acc_view v, char *ebuf, size_t esz,
    char *kbuf, size_t ksz, const char **pw, const char **next,
    enum core_err *er)
{
	const struct core_params *form = NULL;
	const char *email, *why;

	*er = CORE_OK;
	if ((*er = acc_post_open(req, &form)) != CORE_OK)
		return -1;
	email = field(form, "email");
	*next = field(form, "next");
	*pw = core_params_get(form, "password");
	if (acc_csrf_bad(req, core_req_cookie(req, ACC_PRE_COOKIE),
		field(form, "csrf"))) {
		*er = form_page(req, v, 403, email, NULL, ACC_MSG_CSRF);
		return -1;
	}
	if (*next != NULL && !acc_next_ok(*next)) {
		*er = form_page(req, v, 400, email, NULL, ACC_MSG_NEXT);
		return -1;
	}
	if (acc_email_normalise(email, ebuf, esz, &why) != 0) {
		*er = form_page(req, v, 400, email, *next, why);
		return -1;
	}
	if (acc_email_key(ebuf, kbuf, ksz) != 0) {
		*er = form_page(req, v, 400, email, *next,
		    "That email address is too long: use one of at most 254 "
		    "characters.");
		return -1;
	}
	if (acc_password_check(*pw, &why) != 0) {
		*er = form_page(req, v, 400, ebuf, *next, why);
		return -1;
	}
	if (limited(req, v, v == ACC_VIEW_SIGNUP ? "signup" : "signin", ebuf,
		kbuf, *next, er))
		return -1;
	acc_email_keys_backfill(core_req_ctx(req));
	return 0;
}

/*
 * Signs uid in (replacing any session this browser had), remembers the
 * browser for the account key, and redirects.
 */
static enum core_err
sign_in(struct core_req *req, long long uid, const char *email, const char *key,
    const char *to)
{
	struct acc_session s;
	enum core_err er;

	/* No fixation: whatever session came in is deleted, a new token
	 * goes out. */
	if ((er = acc_sign_in_fresh(req, uid, email, &s)) != CORE_OK)
		return er;
	acc_device_remember(req, key);
	return acc_see_other(req, to);
}

enum core_err
acc_signin_post(struct core_req *req)
{
	const struct acc_state *st = core_req_ctx(req)->mod_state;
	struct core_db *db = core_req_ctx(req)->db;
	char email[ACC_EMAIL_MAX + 1], key[ACC_EMAIL_KEY_MAX + 1];
	const char *pw = NULL, *next = NULL;
	char *hash = NULL, *stored = NULL;
	long long uid = 0;
	enum core_err er;
	int ok;

	if (post_checks(req, ACC_VIEW_SIGNIN, email, sizeof(email), key,
		sizeof(key), &pw, &next, &er) != 0)
		return er;
	if ((er = acc_store_user_by_email(db, key, &uid, &hash, &stored)) !=
	    CORE_OK)
		return er;
	/*
	 * No such user: verify against a dummy hash anyway, so that the
	 * answer takes as long as for a wrong password.
	 */
	ok = crypto_pwhash_str_verify(uid > 0 ? hash : st->dummy_hash, pw,
		 strlen(pw)) == 0 &&
	    uid > 0;
	if (!ok) {
		core_log(CORE_LOG_INFO, "signin", "failed sign-in");
		er = form_page(req, ACC_VIEW_SIGNIN, 401, email, next,
		    MSG_BAD_LOGIN);
		goto out;
	}
	core_log(CORE_LOG_INFO, "signin", "user %lld signed in", uid);
	er = sign_in(req, uid, stored, key, next != NULL ? next : "/feed");
out:
	free(hash);
	free(stored);
	return er;
}

enum core_err
acc_signup_post(struct core_req *req)
{
	char email[ACC_EMAIL_MAX + 1], hash[crypto_pwhash_STRBYTES];
	char key[ACC_EMAIL_KEY_MAX + 1];
	const char *pw = NULL, *next = NULL;
	enum core_err er;

	if (post_checks(req, ACC_VIEW_SIGNUP, email, sizeof(email), key,
		sizeof(key), &pw, &next, &er) != 0)
		return er;
	if (crypto_pwhash_str(hash, pw, strlen(pw),
		crypto_pwhash_OPSLIMIT_INTERACTIVE,
		crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		core_log(CORE_LOG_ERROR, "signup",
		    "crypto_pwhash_str failed "
		    "(out of memory?)");
		return CORE_ESYS;
	}
	/*
	 * No session and the same answer whether or not the address has
	 * an account: the mail says the rest (recover.c).
	 */
	er = acc_signup_finish(req, email, key, hash, next);
	sodium_memzero(hash, sizeof(hash));
	return er;
}

enum core_err
acc_signout_post(struct core_req *req)
{
	const struct core_params *form = NULL;
	struct acc_session s;
	enum core_err er;

	if ((er = acc_post_open(req, &form)) != CORE_OK)
		return er;
	if ((er = acc_session_load(req, &s)) != CORE_OK)
		return er;
	if (s.valid && !acc_csrf_check(s.token, field(form, "csrf")))
		return core_req_fail(req, 403, ACC_MSG_CSRF);
	if ((er = acc_session_end(req, &s)) != CORE_OK)
		return er;
	return acc_see_other(req, "/");
}
