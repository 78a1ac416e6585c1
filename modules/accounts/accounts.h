/*
 * accounts.h -- the accounts module's private header: one section per
 * file.
 *
 * module.c routes a request to a handler (auth.c: sign-up, sign-in,
 * sign-out; account.c: the account page, the private feed token, the
 * onboarding page; follow.c: follow/unfollow and the SSI fragments;
 * feed.c: /feed; recover.c: the end of sign-up, email verification and
 * password reset; manage.c: change password, sessions, deletion).
 * Handlers find the signed-in user with session.c, ask store.c (the
 * only file with SQL) for data, build one view model (a
 * jansson object) and hand it to render.c, which writes HTML, markdown
 * or JSON.  validate.c holds the pure functions (email, password, next=,
 * tokens, CSRF, Origin) that the unit tests exercise; limit.c the Redis
 * rate limits; mail.c the message encoders (unit-tested) and the SMTP
 * sender.
 */
#ifndef ACCOUNTS_H
#define ACCOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core.h"

/* Items per page on /feed and in the onboarding suggestions. */
#define ACC_PER_PAGE 24
#define ACC_MAX_PAGE 100000
/* The onboarding's researchers of a field are counted over its newest
 * papers, this many (accounts.sql, TOP_IN_FIELD, says why). */
#define ACC_FIELD_NEWEST 10000

/* Follows of every kind together, per user (issue 21). */
#define ACC_FOLLOW_MAX 1000
/* A saved search: at most this many terms and bytes once normalised. */
#define ACC_SEARCH_TERMS 32
#define ACC_SEARCH_MAX   200
/* Items in one email digest. */
#define ACC_DIGEST_MAX 100

/* Random tokens: 32 bytes, base64url without padding (43 characters). */
#define ACC_TOKEN_RAW 32
#define ACC_TOKEN_LEN 43
/* Hex of a 32-byte BLAKE2b digest. */
#define ACC_HASH_HEX 64

#define ACC_EMAIL_MAX    254
#define ACC_PASSWORD_MIN 10
#define ACC_PASSWORD_MAX 1024

/* Sessions last 30 days from sign-in. */
#define ACC_SESSION_TTL (30L * 24 * 3600)
/* The pre-session cookie that carries the sign-in/up forms' CSRF key. */
#define ACC_PRE_COOKIE "weft_presession"
#define ACC_PRE_TTL    (2L * 3600)

/* The answer to a form without its CSRF token. */
#define ACC_MSG_CSRF                                                           \
	"This form has expired or was not sent from this site's own page. "    \
	"Please try again."
/* The answer to a next= that is not a path of this site. */
#define ACC_MSG_NEXT                                                           \
	"The page to return to (next=) must be a path on this site."
/* The answer of every 429. */
#define ACC_MSG_LIMITED "Too many attempts. Please wait a minute and try again."

/* ------------------------------------------------------------------ */
/* validate.c: pure functions (unit-tested)                            */
/* ------------------------------------------------------------------ */

/*
 * Normalises an email address into out (at least ACC_EMAIL_MAX + 1
 * bytes): surrounding ASCII whitespace trimmed, NFKC (so fullwidth forms
 * become ASCII), the domain's ASCII lower-cased; the local part keeps its
 * case (it is what mail is sent to; acc_email_key() is the identity).
 * Valid: at most 254 bytes, valid UTF-8, exactly one '@', a local part of
 * 1 to 64 bytes made of RFC 5322 atext, dots (not first, last or
 * doubled) and non-ASCII; a domain of dot-separated labels (letters,
 * digits, '-', non-ASCII; at least two labels, none empty, none starting
 * or ending with '-').  Returns 0, or -1 with *why (static English) set.
 */
int acc_email_normalise(const char *in, char *out, size_t outsz,
    const char **why);

/*
 * The key of an account: the NFKC_Casefold (utf8proc: NFKC, full case
 * folding, default-ignorables removed) of an address acc_email_normalise
 * gave, written to out (at least ACC_EMAIL_KEY_MAX + 1 bytes).  Two
 * addresses are the same account exactly when their keys are equal: the
 * users table stores it (users.email_key, unique), sign-in looks the
 * account up by it, and every rate limit that counts by account counts
 * by it.  Returns 0, or -1 (not UTF-8, empty, longer than outsz - 1).
 */
#define ACC_EMAIL_KEY_MAX 1024
int acc_email_key(const char *email, char *out, size_t outsz);

/* The rate-limit key of a client address: core_client_key(). */
#define ACC_CLIENT_KEY_MAX CORE_CLIENT_KEY_MAX
void acc_client_key(const char *addr, char out[ACC_CLIENT_KEY_MAX]);

/* 0 when the password's length is 10 to 1,024 bytes, else -1 and *why. */
int acc_password_check(const char *pw, const char **why);

/*
 * 1 when next is a same-site relative path safe to redirect to: starts
 * with exactly one '/', the next byte is not '/' or '\', no backslash,
 * no control character (CR, LF, TAB, ...), no space, at most 1,024
 * bytes.  NULL and "" give 0.
 */
int acc_next_ok(const char *next);
/*
 * path, followed by "?next=" and next percent-encoded when next is not
 * NULL (a link that carries next= on).  Caller frees.
 */
char *acc_path_next(const char *path, const char *next);

/* Writes a fresh random token (ACC_TOKEN_LEN chars and a NUL) to out. */
void acc_token_new(char out[ACC_TOKEN_LEN + 1]);
/*
 * Decodes a token: exactly ACC_TOKEN_LEN base64url characters giving
 * ACC_TOKEN_RAW bytes.  0 and raw set, or -1.
 */
int acc_token_parse(const char *s, unsigned char raw[ACC_TOKEN_RAW]);
/*
 * The stored form of a token: lower-case hex of crypto_generichash (32
 * bytes, no key) of the token string's bytes.  Used for sessions and for
 * feed_tokens.token_hash (the feeds module computes the same).
 */
void acc_token_hash(const char *tok, char hex[ACC_HASH_HEX + 1]);

/*
 * The CSRF token of a session (or pre-session) token: hex of BLAKE2b
 * keyed with the token's 32 raw bytes over the label "weft csrf v1".
 * Knowing it reveals nothing about the session token.
 */
void acc_csrf_derive(const unsigned char raw[ACC_TOKEN_RAW],
    char hex[ACC_HASH_HEX + 1]);
/*
 * 1 when given is the CSRF token of the token string tok (compared in
 * constant time), 0 otherwise (NULL, malformed, different).
 */
int acc_csrf_check(const char *tok, const char *given);

/*
 * 1 when a state-changing request may proceed: Origin, when sent, must be
 * base_url's origin (scheme://host[:port], compared without case); else
 * Referer, when sent, must be that origin followed by '/', '?', '#' or
 * nothing.  Neither sent: 1.  "null" and anything else: 0.
 */
int acc_origin_ok(const char *base_url, const char *origin,
    const char *referer);

/* A decimal id 1 to 2^62 from s[0..n) (digits only): 0 and *id, or -1. */
int acc_parse_id(const char *s, size_t n, long long *id);

/* ------------------------------------------------------------------ */
/* module.c                                                            */
/* ------------------------------------------------------------------ */

/* Process state, in ctx->mod_state. */
struct acc_state {
	char *dummy_hash;          /* verified when no such user: same cost */
	long limit;                /* attempts a minute per IP and per email */
	long mail_cap;             /* mails a day to one address; 0: no cap */
	int secure;                /* base_url is https: cookies get Secure */
	int keys_filled;           /* acc_store_email_keys_fill has run */
	struct acc_mailer *mailer; /* mail.c: the SMTP relay, or NULL */
};

/*
 * Runs acc_store_email_keys_fill once per worker: at start, and again
 * before a sign-in or sign-up while it has not succeeded (the database
 * was down at start).
 */
void acc_email_keys_backfill(struct core_ctx *);

/* ------------------------------------------------------------------ */
/* session.c                                                           */
/* ------------------------------------------------------------------ */

/* Who is asking.  Zeroed means signed out. */
struct acc_session {
	int had_cookie; /* a session cookie was sent */
	int valid;      /* ... and names a live session */
	long long uid;
	char email[ACC_EMAIL_MAX + 1];
	char token[ACC_TOKEN_LEN + 1];
	char hash[ACC_HASH_HEX + 1];
	char csrf[ACC_HASH_HEX + 1];
};

/*
 * Looks up the session named by the request's session cookie.  CORE_OK
 * with s filled (s->valid 0 when signed out), or CORE_EDB (logged).
 */
enum core_err acc_session_load(struct core_req *, struct acc_session *s);
/*
 * Signs uid in: a new token, stored hashed, and its Set-Cookie.  s is
 * filled as if loaded.  CORE_OK or CORE_EDB.
 */
enum core_err acc_session_start(struct core_req *, long long uid,
    const char *email, struct acc_session *s);
/* Deletes the session server-side (if any) and expires the cookie. */
enum core_err acc_session_end(struct core_req *, struct acc_session *s);
/* Adds the Set-Cookie that expires the session cookie. */
void acc_cookie_expire(struct core_req *);

/*
 * The pre-session token of the sign-in/up forms: the cookie's when it is
 * well-formed, else a new one with its Set-Cookie.  tok receives it.
 */
void acc_pre_token(struct core_req *, char tok[ACC_TOKEN_LEN + 1]);

/*
 * The checks of every state-changing POST, in order: Origin/Referer
 * (403), the form (413/400).  On failure CORE_EFAIL (core_req_fail()),
 * which the handler returns.  *form is borrowed.
 */
enum core_err acc_post_begin(struct core_req *,
    const struct core_params **form);
/*
 * The representation (core_req_negotiate() with acc_offers: 406), then
 * acc_post_begin(): the start of the accounts module's POST handlers.
 * The error, if any, is the handler's to return.
 */
enum core_err acc_post_open(struct core_req *, const struct core_params **form);

/*
 * 0 when given is the CSRF token of tok (acc_csrf_check); else 1, and
 * the bad token is logged: the caller answers 403.
 */
int acc_csrf_bad(struct core_req *, const char *tok, const char *given);

/* Adds the headers of every personal response (no-store, noindex...). */
void acc_private_headers(struct core_req *);

/* ------------------------------------------------------------------ */
/* limit.c: rate limits in Redis                                       */
/* ------------------------------------------------------------------ */

/*
 * Counts one attempt of action ("signin", "signup") by the client
 * (acc_client_key of REMOTE_ADDR) and, when key (acc_email_key) is not
 * NULL, by the account: by device (the id from acc_device_known) when
 * device is not NULL or "", else by the account's own counter.  Returns
 * 0 when allowed, or the seconds to wait (> 0) when over a limit.  Redis
 * down: 0 (fail open; authentication itself never depends on Redis).
 */
long acc_limit(struct core_req *, const char *action, const char *key,
    const char *device);
/*
 * acc_limit(), and when over a limit: logged and a Retry-After header
 * added; the caller then answers 429 in its own way.  Returns what
 * acc_limit() did.
 */
long acc_limited(struct core_req *, const char *action, const char *key,
    const char *device);
/*
 * Counts one mail to address to (by its acc_email_key) against the
 * daily cap (mail_daily_cap in weft.conf).  1 when it may be sent; 0
 * when over the cap (logged, counted in /metrics): send nothing, and
 * answer as if sent.  Redis down or no cap: 1.
 */
int acc_mail_allowed(struct core_req *, const char *to);
/* The same outside a request (digests). */
int acc_mail_allowed_ctx(struct core_ctx *, const char *to);
/*
 * 1 when the request's weft_device cookie is a browser that signed in to
 * the account key before, with its id (for acc_limit) in id; else 0 and
 * id "".
 */
int acc_device_known(struct core_req *, const char *key, char id[33]);
/*
 * After a successful sign-in to key: sends the browser a new random
 * device token (cookie weft_device) and remembers it for the account
 * (Redis, 180 days).
 */
void acc_device_remember(struct core_req *, const char *key);

/* ------------------------------------------------------------------ */
/* store.c: the only file that talks to PostgreSQL                     */
/* ------------------------------------------------------------------ */

/* Creates a user with email and its key (acc_email_key); *uid 0 when
 * the address is taken. */
enum core_err acc_store_user_create(struct core_db *, const char *email,
    const char *key, const char *hash, long long *uid);
/* The account of key (acc_email_key): *uid 0 when none; else *hash
 * (caller frees) and *stored (the email as stored, caller frees). */
enum core_err acc_store_user_by_email(struct core_db *, const char *key,
    long long *uid, char **hash, char **stored);
/*
 * Fills users.email_key where 0016 left it NULL, oldest account first;
 * an account whose key another holds keeps NULL and is logged (warn),
 * counted in *conflicts.  CORE_OK or CORE_EDB (logged).
 */
enum core_err acc_store_email_keys_fill(struct core_db *, int *conflicts);

enum core_err acc_store_session_create(struct core_db *, const char *hash,
    long long uid, long ttl);
/* *uid 0 when no live session; else email copied to email. */
enum core_err acc_store_session_user(struct core_db *, const char *hash,
    long long *uid, char email[ACC_EMAIL_MAX + 1]);
enum core_err acc_store_session_delete(struct core_db *, const char *hash);

/*
 * The researcher's slug and whether uid follows them.  CORE_ENOTFOUND
 * when no such researcher.  *slug: caller frees.
 */
enum core_err acc_store_follow_state(struct core_db *, long long uid,
    long long rid, char **slug, int *following);
enum core_err acc_store_follow(struct core_db *, long long uid, long long rid);
enum core_err acc_store_unfollow(struct core_db *, long long uid,
    long long rid);
/* The researchers uid follows, by name: [{id,name,slug,...}] (new ref). */
enum core_err acc_store_following(struct core_db *, const char *base,
    long long uid, json_t **out);

/* The private feed token's creation time ("" when none; caller frees). */
enum core_err acc_store_feed_token_created(struct core_db *, long long uid,
    char **created);
/* Sets (creates or replaces) uid's feed token hash. */
/*
 * API keys (apikey.c, 0027_api_keys.sql): the live keys of uid as a
 * JSON array of {id, name, created_at} (caller decrefs); a new key (*id
 * 0 when the user has 20 live keys already); revoking (hash set to the
 * key's hash, "" when no live key of uid has that id).
 */
enum core_err acc_store_api_keys(struct core_db *, long long uid, json_t **);
enum core_err acc_store_api_key_add(struct core_db *, long long uid,
    const char *name, const char *hash, long long *id);
enum core_err acc_store_api_key_revoke(struct core_db *, long long uid,
    long long id, char hash[65]);
/* Adds "api_keys" to the account page's model m (new_key: the secret
 * just made, shown this once, or NULL). */
enum core_err acc_api_keys_model(struct core_req *, long long uid,
    const char *new_key, json_t *m);
enum core_err acc_api_key_post(struct core_req *);
/* The account page showing new_key, the secret just made, once. */
enum core_err acc_account_page_key(struct core_req *,
    const struct acc_session *, const char *new_key);
enum core_err acc_api_key_revoke_post(struct core_req *);
enum core_err acc_store_feed_token_set(struct core_db *, long long uid,
    const char *hash);

/* A page of the newest papers of researchers uid follows, and the total. */
/*
 * The papers of the newest max items of uid's feed, each once, newest
 * first, as paper objects for core_cite_add() (caller json_decref()s),
 * and how many items the feed has.
 */
enum core_err acc_store_feed_export(struct core_db *, long long uid,
    long long max, json_t **papers, long long *total);
enum core_err acc_store_feed(struct core_db *, const char *base, long long uid,
    long page, json_t **items, long long *total);

/* Onboarding: fields (primary categories by papers), the researchers
 * with the most of a field's newest papers, researchers by the words of
 * their names. */
enum core_err acc_store_fields(struct core_db *, json_t **out);
enum core_err acc_store_top_in_field(struct core_db *, const char *base,
    long long uid, const char *field, json_t **out);
enum core_err acc_store_search(struct core_db *, const char *base,
    long long uid, const char *q, json_t **out);

/* ------------------------------------------------------------------ */
/* render.c                                                            */
/* ------------------------------------------------------------------ */

enum acc_view {
	ACC_VIEW_SIGNIN,
	ACC_VIEW_SIGNUP,
	ACC_VIEW_ACCOUNT,
	ACC_VIEW_FEED,
	ACC_VIEW_WELCOME,
	ACC_VIEW__MAX
};

/* The three representations every page is offered in. */
extern const enum core_rep acc_offers[3];

/*
 * Renders model as view in the negotiated representation with status,
 * and the private headers.  s may be NULL (signed out).  CORE_OK or
 * CORE_ESYS (logged).
 */
enum core_err acc_respond(struct core_req *, enum acc_view, int status,
    const json_t *model, const struct acc_session *s);
/* The module's html_error hook. */
void acc_html_error(struct core_req *, int status, const char *msg);

/* The fragments: bare HTML snippets (no doctype). */
void acc_render_follow_fragment(struct core_req *, long long rid,
    const char *slug, const struct acc_session *s, int following);
void acc_render_nav_fragment(struct core_req *, const struct acc_session *s);
/*
 * The follow button of a target (an institution page's slot): when
 * signed in, a form to follow kind id (target 0) or to remove follow
 * target; else a sign-in link back to next.
 */
void acc_render_target_fragment(struct core_req *, int kind, long long id,
    long long target, const char *next, const struct acc_session *s);
/* The same for category cat ("cs.DB"): follow it, or remove target. */
void acc_render_category_fragment(struct core_req *, const char *cat,
    long long target, const char *next, const struct acc_session *s);

/* ------------------------------------------------------------------ */
/* Handlers                                                            */
/* ------------------------------------------------------------------ */

enum core_err acc_signup_get(struct core_req *);
enum core_err acc_signup_post(struct core_req *);
enum core_err acc_signin_get(struct core_req *);
enum core_err acc_signin_post(struct core_req *);
enum core_err acc_signout_post(struct core_req *);
enum core_err acc_account_get(struct core_req *);
enum core_err acc_feed_token_post(struct core_req *);
enum core_err acc_welcome_get(struct core_req *);
enum core_err acc_nav_get(struct core_req *);
enum core_err acc_follow_fragment_get(struct core_req *);
enum core_err acc_follow_post(struct core_req *);
/* GET of any other path: the fragments of SSI subrequests by DOCUMENT_URI,
 * else 405 (the POST-only paths) or 404. */
enum core_err acc_fragment_dispatch(struct core_req *);
enum core_err acc_feed_get(struct core_req *);

/* Helpers shared by handlers (auth.c). */
/* 303 to /signin?next=path (path percent-encoded). */
void acc_redirect_signin(struct core_req *, const char *path);
/*
 * Loads the session of a page that needs one.  Returns 1 when signed in;
 * 0 when the response (303 to /signin?next=back, the stale cookie
 * dropped, or an error) is set, *er telling the handler what to return.
 */
int acc_need_session(struct core_req *, struct acc_session *s, const char *back,
    enum core_err *er);
/* A 303 to another page of the site, with the private headers: the end
 * of most POSTs.  CORE_OK. */
enum core_err acc_see_other(struct core_req *, const char *to);

/* ------------------------------------------------------------------ */
/* Issue 18: mail, verification, reset, sessions, deletion             */
/* ------------------------------------------------------------------ */

/* Mail tokens live 24 hours (verification) and 1 hour (reset). */
#define ACC_VERIFY_TTL (24L * 3600)
#define ACC_RESET_TTL  3600L

/* mail.c: pure functions (unit-tested) */

/*
 * The addr-spec of a From value, "Name <a@b>" or "a@b", into out
 * (outsz bytes).  0, or -1 when there is none or it holds a space, a
 * control character, '<' or '>'.
 */
int acc_mail_addr(const char *from, char *out, size_t outsz);
/*
 * Appends header text s to b: unchanged when it is printable ASCII,
 * else as RFC 2047 "=?UTF-8?B?...?=" words of at most 75 characters,
 * split between whole UTF-8 characters and folded with CRLF SP.  -1
 * (nothing appended) when s is not valid UTF-8 or holds a control
 * character (CR and LF included: no header injection).
 */
int acc_mail_header_text(struct core_buf *b, const char *s);
/*
 * Appends body as quoted-printable (RFC 2045): lines end in CRLF
 * (whatever ended them in body), '=', non-ASCII and control bytes but TAB
 * become =XX, as does a space or TAB ending a line and a '.' starting
 * one; soft breaks keep lines at most 76 characters.
 */
void acc_mail_qp(struct core_buf *b, const char *body);
/*
 * A whole message into b: Date (of t, RFC 5322, UTC), From, To, Subject,
 * Message-ID (<msgid_left@the From address's domain>), MIME-Version,
 * Content-Type text/plain UTF-8, quoted-printable, Auto-Submitted, then
 * the body.  0, or -1 when a header value is unusable (see above; to
 * must be an address without '<', '>', space or control characters).
 */
int acc_mail_build(struct core_buf *b, const char *from, const char *to,
    const char *subject, const char *body, long long t, const char *msgid_left);
/*
 * acc_mail_build() with, when html is not NULL, a multipart/alternative
 * body of text and html, and when unsubscribe is not NULL (an https or
 * http URL of printable ASCII), the RFC 8058 one-click headers
 * List-Unsubscribe and List-Unsubscribe-Post.  0, or -1 (see above).
 */
int acc_mail_build_digest(struct core_buf *b, const char *from, const char *to,
    const char *subject, const char *text, const char *html,
    const char *unsubscribe, long long t, const char *msgid_left);
/*
 * The summary a sessions list shows for a User-Agent: "Firefox on
 * Linux", "curl", "Unknown browser" (NULL or nothing known), at most 79
 * bytes of printable ASCII.
 */
void acc_agent_summary(const char *ua, char out[80]);
/*
 * The network of an address for the sessions list: "192.0.2.0/24",
 * "2001:db8:1:2::/64", "" when not an IP address.
 */
void acc_network_summary(const char *addr, char out[64]);

/* mail.c: the sender */

/*
 * Reads smtp_url, smtp_from, smtp_user, smtp_password_file,
 * smtp_timeout and smtp_starttls from conf.  *mp NULL (mail off, logged)
 * when smtp_url is empty; CORE_EINPUT (logged) when a key is invalid.
 * Free with acc_mailer_free().
 */
enum core_err acc_mailer_new(const struct core_conf *, struct acc_mailer **mp);
void acc_mailer_free(struct acc_mailer *);
/*
 * Sends one text/plain message to to over SMTP, waiting at most the
 * configured timeout.  CORE_OK, or CORE_EUPSTREAM (logged without the
 * body: it holds a token) when mail is off, the relay is down or refuses.
 */
enum core_err acc_mail_send(struct core_req *, const char *to,
    const char *subject, const char *body);
/* The same outside a request (a digest: acc_mail_build_digest()). */
enum core_err acc_mail_send_digest(struct core_ctx *, const char *to,
    const char *subject, const char *text, const char *html,
    const char *unsubscribe);

/* store.c */

/* One account, for the password checks (caller: acc_user_clear()). */
struct acc_user {
	long long id;
	char email[ACC_EMAIL_MAX + 1];
	char *hash;
	int verified;
	char verified_at[32];
};
void acc_user_clear(struct acc_user *);
/* *uid 0 when no account has the address key (acc_email_key). */
enum core_err acc_store_user_mail_state(struct core_db *, const char *key,
    long long *uid, char stored[ACC_EMAIL_MAX + 1], int *verified);
/* CORE_ENOTFOUND when no such user. */
enum core_err acc_store_user_get(struct core_db *, long long uid,
    struct acc_user *);
enum core_err acc_store_user_set_password(struct core_db *, long long uid,
    const char *hash);
enum core_err acc_store_user_set_verified(struct core_db *, long long uid);
/* Deletes the user and, by cascade, everything of theirs. */
enum core_err acc_store_user_delete(struct core_db *, long long uid);
/* A new token (hash) of purpose for uid, replacing the older ones;
 * pwhash (NULL: none) is a password waiting for the verification. */
enum core_err acc_store_mail_token_new(struct core_db *, long long uid,
    const char *purpose, const char *hash, long ttl, const char *pwhash);
/* Ends uid's live tokens of purpose (a new password voids reset links). */
enum core_err acc_store_mail_tokens_clear(struct core_db *, long long uid,
    const char *purpose);
/* The user of a live token (*uid 0: none) and its pending password hash
 * (*pwhash, caller frees, NULL when none); take uses it up. */
enum core_err acc_store_mail_token_user(struct core_db *, const char *hash,
    const char *purpose, int take, long long *uid, char **pwhash);
enum core_err acc_store_session_describe(struct core_db *, const char *hash,
    const char *agent, const char *network);
enum core_err acc_store_session_touch(struct core_db *, const char *hash);
/* The live sessions of uid: [{id,created_at,last_seen_at,agent,network,
 * current}] (new ref); current is the session whose hash is current. */
enum core_err acc_store_sessions(struct core_db *, long long uid,
    const char *current, json_t **out);
/* Ends session id if it is uid's; *gone 1 when it was. */
enum core_err acc_store_session_delete_id(struct core_db *, long long uid,
    long long id, int *gone);
/* Ends every session of uid but keep's (a token hash; NULL: all). */
enum core_err acc_store_sessions_end_others(struct core_db *, long long uid,
    const char *keep);

/* render.c */

/*
 * A page with a title, a message (a notice when ok, else an error) and
 * optionally a form: model {title, message, ok, form?: {action, csrf,
 * token?, password: "current"|"new"|null, email?: true, button}, links?:
 * [{href,text}]}.  Takes ownership of model; NULL (a json_pack() that
 * failed) answers CORE_ESYS.
 */
enum core_err acc_respond_message(struct core_req *, int status, json_t *model,
    const struct acc_session *s);

/* recover.c: sign-up's end, verification, reset */

/*
 * The end of a valid sign-up (auth.c): the same answer whether or not
 * the address has an account; see recover.c.  email is normalised, key
 * its acc_email_key(), hash the new password's crypto_pwhash_str, next
 * the page to land on once verified (acc_next_ok) or NULL.
 */
enum core_err acc_signup_finish(struct core_req *, const char *email,
    const char *key, const char *hash, const char *next);
/* GET /account/verify and /account/reset: the page of a mailed link. */
enum core_err acc_link_get(struct core_req *);
enum core_err acc_verify_post(struct core_req *);
enum core_err acc_verify_resend_post(struct core_req *);
enum core_err acc_forgot_get(struct core_req *);
enum core_err acc_forgot_post(struct core_req *);
enum core_err acc_reset_post(struct core_req *);

/* manage.c: what a signed-in user does to their account */

/*
 * The start of every signed-in POST: negotiation, Origin, the form
 * (acc_post_open), a live session (else a redirect to sign in, and an
 * expired cookie dropped) and its CSRF token (else 403).  0, or -1 with
 * the response set or the failure recorded, and *er what to return.
 * *form is borrowed.
 */
int acc_post_session(struct core_req *, const struct core_params **form,
    struct acc_session *s, enum core_err *er);

/* account.c: the account page with status and an error (NULL: none). */
enum core_err acc_account_page(struct core_req *, const struct acc_session *,
    int status, const char *error);
/* Adds the account page's email, sessions and notice fields to m. */
enum core_err acc_account_extra(struct core_req *, const struct acc_session *,
    json_t *m);
enum core_err acc_password_post(struct core_req *);
enum core_err acc_session_end_post(struct core_req *);
enum core_err acc_sessions_end_others_post(struct core_req *);
enum core_err acc_delete_post(struct core_req *);
/* Signs uid in on this browser (any old session of it ended first). */
enum core_err acc_sign_in_fresh(struct core_req *, long long uid,
    const char *email, struct acc_session *s);

/* ------------------------------------------------------------------ */
/* Issue 21: follow anything, the merged feed, email digests           */
/* ------------------------------------------------------------------ */

/* An attribute of an HTML element (render.c, digest.c): A(HREF, url). */
#define A(k, v)                                                                \
	{                                                                      \
		CORE_ATTR_##k, (v)                                             \
	}
#define AEND                                                                   \
	{                                                                      \
		CORE_ATTR__MAX, NULL                                           \
	}

enum acc_kind {
	ACC_KIND_RESEARCHER,
	ACC_KIND_INSTITUTION,
	ACC_KIND_CATEGORY,
	ACC_KIND_SEARCH,
	ACC_KIND__MAX
};
/* "researcher", "institution", "category", "search". */
extern const char *const acc_kinds[ACC_KIND__MAX];

/* validate.c */

/* The kind named s, or -1. */
int acc_kind_parse(const char *s);
/*
 * A saved search's query into out (outsz bytes): valid UTF-8 without
 * control characters, runs of white space made one space, trimmed.
 * 0, or -1 with *why (static English) when empty, over ACC_SEARCH_TERMS
 * terms or over ACC_SEARCH_MAX bytes.
 */
int acc_search_normalise(const char *in, char *out, size_t outsz,
    const char **why);
/* "off", "daily" or "weekly": 1, else 0. */
int acc_digest_mode_ok(const char *s);

/* store.c */

/* The number of follows of every kind of uid. */
enum core_err acc_store_follow_total(struct core_db *, long long uid,
    long long *n);
/*
 * Follows a target: kind ACC_KIND_INSTITUTION (iid), _CATEGORY (cat) or
 * _SEARCH (q, and cat its filter or "").  *id the new follow's id, 0
 * when nothing was written (already followed, or at ACC_FOLLOW_MAX).
 */
enum core_err acc_store_target_add(struct core_db *, long long uid,
    enum acc_kind, long long iid, const char *cat, const char *q,
    long long *id);
/* The id of uid's follow of that target (0: none). */
enum core_err acc_store_target_find(struct core_db *, long long uid,
    enum acc_kind, long long iid, const char *cat, const char *q,
    long long *id);
/* Ends follow id if it is uid's; *gone 1 when it was. */
enum core_err acc_store_target_remove(struct core_db *, long long uid,
    long long id, int *gone);
/*
 * What uid follows besides researchers: [{id, kind, label, url, and
 * institution_id | category | query, category}] (new ref).
 */
enum core_err acc_store_targets(struct core_db *, const char *base,
    long long uid, json_t **out);
/* An institution's slug (caller frees) and uid's follow of it (*target,
 * 0: none).  CORE_ENOTFOUND when there is no such institution. */
enum core_err acc_store_institution_state(struct core_db *, long long uid,
    long long iid, char **slug, long long *target);
/* Whether any paper is in category cat. */
enum core_err acc_store_category_known(struct core_db *, const char *cat,
    int *known);
/* The digest setting of uid into mode ("off", "daily", "weekly"). */
enum core_err acc_store_digest_get(struct core_db *, long long uid,
    char mode[8]);
enum core_err acc_store_digest_set(struct core_db *, long long uid,
    const char *mode);
/* Turns off the digests of the unsubscribe token hash; *uid 0: none. */
enum core_err acc_store_digest_unsubscribe(struct core_db *, const char *hash,
    long long *uid);

/* follow.c: the handlers */

/* POST /account/follows: follow kind=researcher|institution|category|
 * search (id, category, q). */
enum core_err acc_follows_add_post(struct core_req *);
/* POST /account/follows/remove: kind and id (a researcher's id, or the
 * follow's own id for the other kinds). */
enum core_err acc_follows_remove_post(struct core_req *);
/* GET /account/follows/new?kind=category|search&category=&q=: the
 * confirmation form the search page links to. */
enum core_err acc_follows_new_get(struct core_req *);
/* The SSI fragment /account/follow/institution/{id}. */
enum core_err acc_follow_institution_fragment(struct core_req *);
/* The fragment /account/follow/category/{code}. */
enum core_err acc_follow_category_fragment(struct core_req *);

/* digest.c */

/* POST /account/digest: daily, weekly or off. */
enum core_err acc_digest_post(struct core_req *);
/* GET and POST /account/unsubscribe?token=: the one-click link
 * (RFC 8058), without signing in. */
enum core_err acc_unsubscribe_get(struct core_req *);
enum core_err acc_unsubscribe_post(struct core_req *);
/* weftd -m accounts -x digest: sends the digests due now. */
int acc_command(struct core_ctx *, int argc, char **argv);

#endif /* ACCOUNTS_H */
