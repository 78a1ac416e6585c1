/*
 * manage.c -- what a signed-in user does to their own account: change the
 * password (every other session ends), sign out one session or every
 * other one, delete the account with everything of theirs; and the
 * account page's fields for these (email status, sessions, notices).
 *
 * Every POST checks Origin, the session's CSRF token, and, for the
 * password and the deletion, the current password (rate-limited per
 * account, so a stolen session cannot guess it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"

void
acc_user_clear(struct acc_user *u)
{
	if (u->hash != NULL) {
		sodium_memzero(u->hash, strlen(u->hash));
		free(u->hash);
	}
	memset(u, 0, sizeof(*u));
}

/* The notices of ?done= after a form's redirect. */
static const struct {
	const char *key, *text;
} notices[] = {
	{ "password",
	    "Your password has been changed. Every other session has been "
	    "signed out." },
	{ "reset",
	    "Your new password is set. Every other session has been signed "
	    "out." },
	{ "sent",
	    "We sent you a new link to confirm your address. It works once, "
	    "within 24 hours." },
	{ "others", "Every other session has been signed out." },
	{ "session", "That session has been signed out." },
	{ "key", "That API key has been revoked: it works no more." },
	{ "digest", "Your email digest setting has been saved." },
};

enum core_err
acc_account_extra(struct core_req *req, const struct acc_session *s, json_t *m)
{
	struct core_db *db = core_req_ctx(req)->db;
	const char *done = core_req_param(req, "done");
	struct acc_user u = { 0 };
	json_t *list = NULL;
	enum core_err er;
	size_t i;

	if ((er = acc_store_user_get(db, s->uid, &u)) != CORE_OK)
		return er;
	if ((er = acc_store_sessions(db, s->uid, s->hash, &list)) != CORE_OK)
		goto out;
	json_object_set_new(m, "email_verified", json_boolean(u.verified));
	json_object_set_new(m, "email_verified_at",
	    u.verified ? core_json_str(u.verified_at) : json_null());
	json_object_set_new(m, "sessions", list);
	list = NULL;
	if (done != NULL)
		for (i = 0; i < sizeof(notices) / sizeof(*notices); i++)
			if (strcmp(done, notices[i].key) == 0)
				json_object_set_new(m, "notice",
				    json_string(notices[i].text));
out:
	json_decref(list);
	acc_user_clear(&u);
	return er;
}

int
acc_post_session(struct core_req *req, const struct core_params **form,
    struct acc_session *s, enum core_err *er)
{
	if ((*er = acc_post_open(req, form)) != CORE_OK)
		return -1; /* the 406, 403, 400 or 413 it set */
	if (!acc_need_session(req, s, "/account", er))
		return -1;
	if (acc_csrf_bad(req, s->token, core_params_get(*form, "csrf"))) {
		*er = core_req_fail(req, 403, ACC_MSG_CSRF);
		return -1;
	}
	return 0;
}

/*
 * Checks the current password typed in form field "current".  0 when
 * right; else -1 with the account page re-rendered with the error.
 */
static int
check_current(struct core_req *req, const struct core_params *form,
    const struct acc_session *s, enum core_err *er)
{
	struct core_db *db = core_req_ctx(req)->db;
	const char *pw = core_params_get(form, "current");
	struct acc_user u = { 0 };
	char key[ACC_EMAIL_KEY_MAX + 1];
	int ok;

	/* Per account by its key, as every limit (limit.c). */
	if (acc_email_key(s->email, key, sizeof(key)) != 0)
		key[0] = '\0';
	if (acc_limited(req, "password", key[0] ? key : NULL, NULL) > 0) {
		*er = acc_account_page(req, s, 429, ACC_MSG_LIMITED);
		return -1;
	}
	if ((*er = acc_store_user_get(db, s->uid, &u)) != CORE_OK)
		return -1;
	ok =
	    pw != NULL && crypto_pwhash_str_verify(u.hash, pw, strlen(pw)) == 0;
	acc_user_clear(&u);
	if (ok)
		return 0;
	core_log(CORE_LOG_INFO, "password", "wrong current password");
	*er = acc_account_page(req, s, 401,
	    "Your current password is not right. Please type it again.");
	return -1;
}

enum core_err
acc_password_post(struct core_req *req)
{
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	char hash[crypto_pwhash_STRBYTES];
	const char *pw, *why;
	struct acc_session s;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	pw = core_params_get(form, "password");
	if (acc_password_check(pw, &why) != 0)
		return acc_account_page(req, &s, 400, why);
	if (check_current(req, form, &s, &er) != 0)
		return er;
	if (crypto_pwhash_str(hash, pw, strlen(pw),
		crypto_pwhash_OPSLIMIT_INTERACTIVE,
		crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		core_log(CORE_LOG_ERROR, "password",
		    "crypto_pwhash_str failed");
		return CORE_ESYS;
	}
	/* A new password ends the other sessions and voids reset links. */
	if ((er = acc_store_user_set_password(db, s.uid, hash)) != CORE_OK ||
	    (er = acc_store_sessions_end_others(db, s.uid, s.hash)) !=
		CORE_OK ||
	    (er = acc_store_mail_tokens_clear(db, s.uid, "reset")) != CORE_OK)
		return er;
	core_log(CORE_LOG_INFO, "password", "user %lld changed their password",
	    s.uid);
	return acc_see_other(req, "/account?done=password");
}

enum core_err
acc_session_end_post(struct core_req *req)
{
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	struct acc_session s, after;
	const char *id;
	long long sid;
	enum core_err er;
	int gone = 0;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	id = core_params_get(form, "id");
	if (id == NULL || acc_parse_id(id, strlen(id), &sid) != 0) {
		core_resp_error(req, 400,
		    "Which session? The form names none.");
		return CORE_OK;
	}
	if ((er = acc_store_session_delete_id(db, s.uid, sid, &gone)) !=
	    CORE_OK)
		return er;
	/* This very session: signed out, like /signout. */
	if ((er = acc_session_load(req, &after)) != CORE_OK)
		return er;
	if (!after.valid) {
		acc_cookie_expire(req);
		return acc_see_other(req, "/");
	}
	return acc_see_other(req, gone ? "/account?done=session" : "/account");
}

enum core_err
acc_sessions_end_others_post(struct core_req *req)
{
	const struct core_params *form = NULL;
	struct acc_session s;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	if ((er = acc_store_sessions_end_others(core_req_ctx(req)->db, s.uid,
		 s.hash)) != CORE_OK)
		return er;
	core_log(CORE_LOG_INFO, "sessions",
	    "user %lld signed out everywhere else", s.uid);
	return acc_see_other(req, "/account?done=others");
}

enum core_err
acc_delete_post(struct core_req *req)
{
	const struct core_params *form = NULL;
	struct acc_session s;
	enum core_err er;
	json_t *m;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	if (check_current(req, form, &s, &er) != 0)
		return er;
	if ((er = acc_store_user_delete(core_req_ctx(req)->db, s.uid)) !=
	    CORE_OK)
		return er;
	core_log(CORE_LOG_INFO, "delete", "user %lld deleted their account",
	    s.uid);
	acc_cookie_expire(req);
	m = json_pack("{s:s,s:s,s:b,s:n,s:[{s:s,s:s}]}", "title",
	    "Your account is deleted", "message",
	    "Your account, your sessions, the researchers you followed and "
	    "your private feed are gone.",
	    "ok", 1, "form", "links", "href", "/", "text",
	    "Go to the home page");
	return acc_respond_message(req, 200, m, NULL);
}
