/*
 * recover.c -- what goes by email: the end of sign-up, verifying an
 * address (/account/verify), asking for a password reset
 * (/account/forgot) and setting the new password (/account/reset).
 *
 * Sign-up never says whether an address has an account.  Every valid
 * sign-up gets the same answer ("check your email"), sets no cookie, and
 * sends exactly one mail, so that even the time taken is alike:
 *
 *   - a new address: the account is created unverified and the address
 *     gets a verification link;
 *   - an address whose account is not verified: that account is left as
 *     it is; the address gets a verification link that carries the new
 *     password (mail_tokens.password_hash).  Only the mailbox's owner,
 *     typing that password, makes it the account's and ends the
 *     account's other sessions -- so a squatter who registered someone's
 *     address first cannot keep it, and a stranger cannot take over an
 *     unverified account by signing up again;
 *   - a verified address: its owner gets a note that someone tried to
 *     sign up with it, with links to sign in and to reset the password.
 *
 * Until an address is verified nothing but verification mail goes to it
 * (no sign-up notes, no reset links).  Links open a page with a button
 * (a POST): mail scanners that fetch links must not use the token up.
 * Verifying asks for the password, so a link alone proves nothing.
 * Tokens are single-use (DELETE ... RETURNING) and expire (24 h, 1 h).
 *
 * A reset request gets the same answer whatever the address and
 * whatever the relay does: a failure to send is logged (never the
 * token) and counted in /metrics, not told.  No address gets more than
 * mail_daily_cap messages a day (limit.c); over it nothing is sent, no
 * token is made, and the answer is the same as when a mail went out.
 *
 * A next= given to sign-up rides along: in the verification link, in
 * its form, and in the sign-in link of the answer, so that the new user
 * lands where they were going (checked by acc_next_ok at every step).
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"

#define MSG_LINK                                                               \
	"This link has expired or was already used. Links work once, for "     \
	"a limited time."
/* The mails, as plain text; "%s" is the link. */
#define MAIL_VERIFY                                                            \
	"Hello,\n\n"                                                           \
	"someone, hopefully you, created an account on weft with this\n"       \
	"email address.  To confirm the address, open this link within\n"      \
	"24 hours and type the password you chose:\n\n"                        \
	"%s\n\n"                                                               \
	"If you did not create an account, ignore this message: without\n"     \
	"the link and the password nobody can use this address on weft.\n"     \
	"\n-- \nweft\n"
#define MAIL_RESET                                                             \
	"Hello,\n\n"                                                           \
	"someone, hopefully you, asked to reset the password of your weft\n"   \
	"account.  To choose a new password, open this link within an\n"       \
	"hour:\n\n"                                                            \
	"%s\n\n"                                                               \
	"Setting a new password signs you out everywhere.  If you did not\n"   \
	"ask, ignore this message: your password stays as it is.\n"            \
	"\n-- \nweft\n"
/* "%s" is base_url. */
#define MAIL_NOTE                                                              \
	"Hello,\n\n"                                                           \
	"someone tried to create a new weft account with this email\n"         \
	"address, which already has one.  Nothing has changed.\n\n"            \
	"If it was you, sign in: %s/signin\n"                                  \
	"If you forgot your password, reset it: %s/account/forgot\n\n"         \
	"If it was not you, you can ignore this message.\n"                    \
	"\n-- \nweft\n"
#define MSG_NOT_SENT                                                           \
	"We could not send the email just now: our mail server did not "       \
	"answer. Nothing is lost; please try again in a few minutes."

static const char *
field(const struct core_params *p, const char *key)
{
	const char *v = p != NULL ? core_params_get(p, key) : NULL;

	return v != NULL && *v != '\0' ? v : NULL;
}

/* The CSRF token of this browser's pre-session (sets it when needed). */
static void
pre_csrf(struct core_req *req, char csrf[ACC_HASH_HEX + 1])
{
	char tok[ACC_TOKEN_LEN + 1];
	unsigned char raw[ACC_TOKEN_RAW];

	acc_pre_token(req, tok);
	acc_token_parse(tok, raw);
	acc_csrf_derive(raw, csrf);
	sodium_memzero(raw, sizeof(raw));
	sodium_memzero(tok, sizeof(tok));
}

/*
 * Answers with a message page.  form (stolen, may be NULL) is completed
 * with this browser's pre-session CSRF token.
 */
static enum core_err
message(struct core_req *req, int status, const char *title, const char *msg,
    int ok, json_t *form, json_t *links)
{
	char csrf[ACC_HASH_HEX + 1];
	json_t *m;

	if (form != NULL) {
		pre_csrf(req, csrf);
		json_object_set_new(form, "csrf", json_string(csrf));
	}
	m = json_pack("{s:s,s:o,s:b,s:o,s:o}", "title", title, "message",
	    core_json_str(msg), "ok", ok, "form",
	    form != NULL ? form : json_null(), "links",
	    links != NULL ? links : json_array());
	return acc_respond_message(req, status, m, NULL);
}

static json_t *
link1(const char *href, const char *text)
{
	return json_pack("[{s:s,s:s}]", "href", href, "text", text);
}

/* A form of the message page: action, button, the token, a password. */
static json_t *
form_of(const char *action, const char *button, const char *token,
    const char *password)
{
	return json_pack("{s:s,s:s,s:o,s:o}", "action", action, "button",
	    button, "token", core_json_str(token), "password",
	    core_json_str(password));
}

/* The token of a link or form: its hash, or -1 when malformed. */
static int
token_hash(const char *tok, char hex[ACC_HASH_HEX + 1])
{
	unsigned char raw[ACC_TOKEN_RAW];

	if (acc_token_parse(tok, raw) != 0)
		return -1;
	sodium_memzero(raw, sizeof(raw));
	acc_token_hash(tok, hex);
	return 0;
}

/*
 * Makes a token of purpose for uid (with a pending password hash, or
 * NULL) and mails its link (carrying next, or NULL) to to.  CORE_OK
 * (sent, or not sent because to had its daily cap), CORE_EUPSTREAM (not
 * sent) or CORE_EDB.
 */
static enum core_err
mail_link(struct core_req *req, long long uid, const char *to,
    const char *purpose, const char *pwhash, const char *next)
{
	struct core_ctx *ctx = core_req_ctx(req);
	char tok[ACC_TOKEN_LEN + 1], hash[ACC_HASH_HEX + 1];
	int verify = strcmp(purpose, "verify") == 0;
	struct core_buf link = CORE_BUF_INIT;
	enum core_err er;
	char *body;

	if (!acc_mail_allowed(req, to))
		return CORE_OK;
	acc_token_new(tok);
	acc_token_hash(tok, hash);
	if ((er = acc_store_mail_token_new(ctx->db, uid, purpose, hash,
		 verify ? ACC_VERIFY_TTL : ACC_RESET_TTL, pwhash)) != CORE_OK)
		goto out;
	core_buf_printf(&link, "%s/account/%s?", ctx->base_url, purpose);
	if (next != NULL) {
		core_buf_puts(&link, "next=");
		core_url_encode(&link, next, 0);
		core_buf_puts(&link, "&");
	}
	core_buf_printf(&link, "token=%s", tok);
	body = core_xasprintf(verify ? MAIL_VERIFY : MAIL_RESET,
	    core_buf_cstr(&link));
	er = acc_mail_send(req, to,
	    verify ? "Confirm your email address for weft"
		   : "Reset your weft password",
	    body);
	sodium_memzero(body, strlen(body));
	free(body);
out:
	if (link.ptr != NULL)
		sodium_memzero(link.ptr, link.len);
	core_buf_free(&link);
	sodium_memzero(tok, sizeof(tok));
	return er;
}

/* The note to a verified address that someone tried to sign up. */
static enum core_err
mail_signup_note(struct core_req *req, const char *to)
{
	struct core_ctx *ctx = core_req_ctx(req);
	enum core_err er;
	char *body;

	if (!acc_mail_allowed(req, to))
		return CORE_OK;
	body = core_xasprintf(MAIL_NOTE, ctx->base_url, ctx->base_url);
	er = acc_mail_send(req, to,
	    "Someone tried to sign up with your address", body);
	free(body);
	return er;
}

enum core_err
acc_signup_finish(struct core_req *req, const char *email, const char *key,
    const char *hash, const char *next)
{
	struct core_db *db = core_req_ctx(req)->db;
	char stored[ACC_EMAIL_MAX + 1], *msg, *signin;
	long long uid = 0;
	int verified = 0;
	enum core_err er;

	if ((er = acc_store_user_mail_state(db, key, &uid, stored,
		 &verified)) != CORE_OK)
		return er;
	if (uid == 0) {
		if ((er = acc_store_user_create(db, email, key, hash, &uid)) !=
		    CORE_OK)
			return er;
		if (uid > 0) {
			core_log(CORE_LOG_INFO, "signup", "user %lld created",
			    uid);
			er = mail_link(req, uid, email, "verify", NULL, next);
		} else /* created meanwhile: as for a taken address */
			er = acc_store_user_mail_state(db, key, &uid, stored,
			    &verified);
		if (er == CORE_EDB)
			return er;
	}
	if (uid > 0 && *stored != '\0') {
		if (verified)
			er = mail_signup_note(req, stored);
		else
			er = mail_link(req, uid, stored, "verify", hash, next);
		if (er == CORE_EDB)
			return er;
	}
	/* The same answer in every case (the address as typed). */
	if (er == CORE_OK) {
		msg = core_xasprintf("We sent a message to %s. Follow the link "
				     "in it to finish. If nothing arrives "
				     "within a few minutes, check your spam "
				     "folder or sign up again.",
		    email);
		signin = acc_path_next("/signin", next);
		er = message(req, 200, "Check your email", msg, 1, NULL,
		    link1(signin, "Sign in"));
		free(signin);
		free(msg);
		return er;
	}
	return message(req, 200, "Check your email", MSG_NOT_SENT, 0, NULL,
	    link1("/signup", "Try again"));
}

/* ---------------------------------------------------------------- verify */

/*
 * The two kinds of mailed link.  Each opens a page with a form (a POST:
 * mail scanners that fetch links must not use the token up) or, once the
 * token is spent, a 410 saying where a new link comes from.
 */
struct link_kind {
	const char *purpose; /* mail_tokens.purpose */
	const char *title;
	const char *spent;              /* the GET's 410 */
	const char *again, *again_text; /* where a new link comes from */
	const char *intro;              /* above the form */
	const char *action, *button, *password;
	int next; /* the form carries next= */
};

enum { LINK_VERIFY, LINK_RESET };

/* By kind; the GET of a link finds its kind by its path (action). */
static const struct link_kind links[] = {
	[LINK_VERIFY] = { "verify", "Confirm your email address",
	    MSG_LINK " Sign in to ask for a new one.", "/signin", "Sign in",
	    "Type the password of your account to confirm that this address "
	    "is yours.",
	    "/account/verify", "Confirm my address", "current", 1 },
	[LINK_RESET] = { "reset", "Choose a new password",
	    MSG_LINK " You can ask for a new one.", "/account/forgot",
	    "Ask for a new link",
	    "At least 10 characters. Setting it signs you out everywhere.",
	    "/account/reset", "Set my new password", "new", 0 },
};

/* next when it is a safe local path, else NULL. */
static const char *
next_of(const char *next)
{
	return next != NULL && acc_next_ok(next) ? next : NULL;
}

/* The 410 of a spent link of kind k, saying msg. */
static enum core_err
link_spent(struct core_req *req, const struct link_kind *k, const char *msg)
{
	return message(req, 410, k->title, msg, 0, NULL,
	    link1(k->again, k->again_text));
}

/* The form of a link of kind k: the token, a password, next (or NULL). */
static json_t *
link_form(const struct link_kind *k, const char *tok, const char *next)
{
	json_t *f = form_of(k->action, k->button, tok, k->password);

	if (next != NULL)
		json_object_set_new(f, "next", json_string(next));
	return f;
}

/*
 * The GET of a mailed link (/account/verify, /account/reset): negotiates
 * the representation and looks the token (query "token") up without
 * using it.
 */
enum core_err
acc_link_get(struct core_req *req)
{
	char hash[ACC_HASH_HEX + 1], *pending = NULL;
	const struct link_kind *k = NULL;
	const char *tok;
	long long uid = 0;
	enum core_err er;
	size_t i;

	for (i = 0; i < sizeof(links) / sizeof(*links); i++)
		if (strcmp(core_req_path(req), links[i].action) == 0)
			k = &links[i];
	if (k == NULL)
		return CORE_ENOTFOUND;
	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	tok = core_req_param(req, "token");
	if (tok != NULL && token_hash(tok, hash) == 0 &&
	    (er = acc_store_mail_token_user(core_req_ctx(req)->db, hash,
		 k->purpose, 0, &uid, &pending)) != CORE_OK)
		return er;
	free(pending);
	if (uid == 0)
		return link_spent(req, k, k->spent);
	return message(req, 200, k->title, k->intro, 1,
	    link_form(k, tok,
		k->next ? next_of(core_req_param(req, "next")) : NULL),
	    NULL);
}

enum core_err
acc_sign_in_fresh(struct core_req *req, long long uid, const char *email,
    struct acc_session *s)
{
	struct acc_session old;
	enum core_err er;

	if ((er = acc_session_load(req, &old)) != CORE_OK)
		return er;
	if (old.valid &&
	    (er = acc_store_session_delete(core_req_ctx(req)->db, old.hash)) !=
		CORE_OK)
		return er;
	return acc_session_start(req, uid, email, s);
}

/* The POST checks of the signed-out forms: Origin, form, pre-session
 * CSRF.  0, or -1 with the response set. */
static int
pre_post(struct core_req *req, const struct core_params **form,
    enum core_err *er)
{
	if ((*er = acc_post_open(req, form)) != CORE_OK)
		return -1;
	if (acc_csrf_bad(req, core_req_cookie(req, ACC_PRE_COOKIE),
		field(*form, "csrf"))) {
		*er = core_req_fail(req, 403, ACC_MSG_CSRF);
		return -1;
	}
	return 0;
}

/* 1 (and a 429 set) when over the limit of action. */
static int
limited(struct core_req *req, const char *action, const char *email,
    enum core_err *er)
{
	char key[ACC_EMAIL_KEY_MAX + 1];

	/* Per account by its key, as every limit (limit.c). */
	if (email != NULL && acc_email_key(email, key, sizeof(key)) != 0)
		email = NULL;
	if (acc_limited(req, action, email != NULL ? key : NULL, NULL) == 0)
		return 0;
	core_resp_error(req, 429, ACC_MSG_LIMITED);
	*er = CORE_OK;
	return 1;
}

enum core_err
acc_verify_post(struct core_req *req)
{
	const struct link_kind *k = &links[LINK_VERIFY];
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	char hash[ACC_HASH_HEX + 1], *pending = NULL, *taken = NULL;
	const char *tok, *pw, *next;
	struct acc_user u = { 0 };
	struct acc_session s;
	long long uid = 0, uid2 = 0;
	enum core_err er;
	int ok;

	if (pre_post(req, &form, &er) != 0)
		return er;
	tok = field(form, "token");
	pw = core_params_get(form, "password");
	next = next_of(field(form, "next"));
	if (limited(req, "verify", NULL, &er))
		return er;
	if (tok != NULL && token_hash(tok, hash) == 0 &&
	    (er = acc_store_mail_token_user(db, hash, "verify", 0, &uid,
		 &pending)) != CORE_OK)
		return er;
	if (uid == 0 || acc_store_user_get(db, uid, &u) != CORE_OK) {
		er = link_spent(req, k, k->spent);
		goto out;
	}
	ok = pw != NULL &&
	    crypto_pwhash_str_verify(pending != NULL ? pending : u.hash, pw,
		strlen(pw)) == 0;
	if (!ok) {
		core_log(CORE_LOG_INFO, "verify", "wrong password");
		er = message(req, 401, k->title,
		    "That is not the password of this account. Type the "
		    "password you chose when you signed up.",
		    0, link_form(k, tok, next), NULL);
		goto out;
	}
	/* Use the token up; whoever loses a race gets the expired page. */
	if ((er = acc_store_mail_token_user(db, hash, "verify", 1, &uid2,
		 &taken)) != CORE_OK)
		goto out;
	if (uid2 != uid) {
		er = link_spent(req, k, MSG_LINK);
		goto out;
	}
	if (taken != NULL) {
		/* A sign-up's password: it becomes the account's, and any
		 * session made with the old one ends. */
		if ((er = acc_store_user_set_password(db, uid, taken)) !=
			CORE_OK ||
		    (er = acc_store_sessions_end_others(db, uid, NULL)) !=
			CORE_OK)
			goto out;
	}
	if ((er = acc_store_user_set_verified(db, uid)) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "verify", "user %lld verified their address",
	    uid);
	if ((er = acc_sign_in_fresh(req, uid, u.email, &s)) != CORE_OK)
		goto out;
	acc_see_other(req, next != NULL ? next : "/account/welcome");
out:
	if (pending != NULL) {
		sodium_memzero(pending, strlen(pending));
		free(pending);
	}
	free(taken);
	acc_user_clear(&u);
	return er;
}

enum core_err
acc_verify_resend_post(struct core_req *req)
{
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	struct acc_user u = { 0 };
	struct acc_session s;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	if ((er = acc_store_user_get(db, s.uid, &u)) != CORE_OK)
		goto out;
	if (u.verified) {
		acc_see_other(req, "/account");
		goto out;
	}
	if (limited(req, "mail", u.email, &er))
		goto out;
	if ((er = mail_link(req, s.uid, u.email, "verify", NULL, NULL)) ==
	    CORE_EDB)
		goto out;
	if (er != CORE_OK) {
		er = message(req, 200, "Confirm your email address",
		    MSG_NOT_SENT, 0, NULL,
		    link1("/account", "Back to your account"));
		goto out;
	}
	acc_see_other(req, "/account?done=sent");
out:
	acc_user_clear(&u);
	return er;
}

/* ---------------------------------------------------------------- reset */

static json_t *
forgot_form(void)
{
	json_t *f = form_of("/account/forgot", "Send me a link", NULL, NULL);

	json_object_set_new(f, "email", json_true());
	return f;
}

enum core_err
acc_forgot_get(struct core_req *req)
{
	enum core_err er;

	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	return message(req, 200, "Reset your password",
	    "Type the email address of your account. If the address is "
	    "confirmed, we will send it a link to choose a new password.",
	    1, forgot_form(), link1("/signin", "Back to sign in"));
}

enum core_err
acc_forgot_post(struct core_req *req)
{
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	char email[ACC_EMAIL_MAX + 1], stored[ACC_EMAIL_MAX + 1], *msg;
	char key[ACC_EMAIL_KEY_MAX + 1];
	const char *why;
	long long uid = 0;
	int verified = 0;
	enum core_err er;

	if (pre_post(req, &form, &er) != 0)
		return er;
	if (acc_email_normalise(field(form, "email"), email, sizeof(email),
		&why) != 0)
		return message(req, 400, "Reset your password", why, 0,
		    forgot_form(), NULL);
	if (limited(req, "reset", email, &er))
		return er;
	if (acc_email_key(email, key, sizeof(key)) != 0)
		return message(req, 400, "Reset your password",
		    "That email address is too long: use one of at most 254 "
		    "characters.",
		    0, forgot_form(), NULL);
	if ((er = acc_store_user_mail_state(db, key, &uid, stored,
		 &verified)) != CORE_OK)
		return er;
	/*
	 * Nothing but verification mail goes to an unverified address.  A
	 * relay that fails is logged (acc_mail_send) and not told: the
	 * answer must not depend on whether there was a mail to send.
	 */
	if (uid > 0 && verified) {
		core_log(CORE_LOG_INFO, "reset", "user %lld asked for a reset",
		    uid);
		if ((er = mail_link(req, uid, stored, "reset", NULL, NULL)) ==
		    CORE_EDB)
			return er;
		if (er != CORE_OK)
			core_log(CORE_LOG_WARN, "reset",
			    "the reset mail of user %lld was not sent", uid);
	}
	msg = core_xasprintf("If %s is the confirmed address of an account, "
			     "we sent it a link to choose a new password. "
			     "The link works once, within an hour.",
	    email);
	er = message(req, 200, "Check your email", msg, 1, NULL,
	    link1("/signin", "Back to sign in"));
	free(msg);
	return er;
}

enum core_err
acc_reset_post(struct core_req *req)
{
	const struct link_kind *k = &links[LINK_RESET];
	struct core_db *db = core_req_ctx(req)->db;
	const struct core_params *form = NULL;
	char hash[ACC_HASH_HEX + 1], pwh[crypto_pwhash_STRBYTES];
	char *pending = NULL;
	const char *tok, *pw, *why;
	struct acc_user u = { 0 };
	struct acc_session s;
	long long uid = 0;
	enum core_err er;

	if (pre_post(req, &form, &er) != 0)
		return er;
	tok = field(form, "token");
	pw = core_params_get(form, "password");
	if (tok == NULL || token_hash(tok, hash) != 0)
		return link_spent(req, k, MSG_LINK);
	if (acc_password_check(pw, &why) != 0)
		return message(req, 400, k->title, why, 0,
		    link_form(k, tok, NULL), NULL);
	if (crypto_pwhash_str(pwh, pw, strlen(pw),
		crypto_pwhash_OPSLIMIT_INTERACTIVE,
		crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		core_log(CORE_LOG_ERROR, "reset", "crypto_pwhash_str failed");
		return CORE_ESYS;
	}
	if ((er = acc_store_mail_token_user(db, hash, "reset", 1, &uid,
		 &pending)) != CORE_OK)
		return er;
	free(pending);
	if (uid == 0 || acc_store_user_get(db, uid, &u) != CORE_OK)
		return link_spent(req, k, MSG_LINK);
	if ((er = acc_store_user_set_password(db, uid, pwh)) != CORE_OK ||
	    (er = acc_store_sessions_end_others(db, uid, NULL)) != CORE_OK ||
	    (er = acc_store_mail_tokens_clear(db, uid, "reset")) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "reset", "user %lld set a new password", uid);
	if ((er = acc_sign_in_fresh(req, uid, u.email, &s)) != CORE_OK)
		goto out;
	acc_see_other(req, "/account?done=reset");
out:
	acc_user_clear(&u);
	return er;
}
