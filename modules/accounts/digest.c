/*
 * digest.c -- email digests (issue 21): the setting on /account (POST
 * /account/digest: daily, weekly or off), the one-click unsubscribe
 * link of the mails (/account/unsubscribe?token=, RFC 8058, no session
 * needed), and the sender, "weftd -m accounts -x digest", which a timer
 * runs hourly (conf/weft-digest.timer).
 *
 * A digest holds everything followed that weft learned of since the
 * previous one (0026 weft_follow_items, by "seen"), at most
 * ACC_DIGEST_MAX items, as text and HTML.  It goes only to a verified
 * address, never when there is nothing new, and counts against the
 * address's daily mail cap.  Each mail carries a fresh unsubscribe
 * token; only its hash is stored (as for every token, 0002).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"
#include "accounts_sql.h"

enum core_err
acc_digest_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	const char *mode;
	struct acc_session s;
	enum core_err er;

	if (acc_post_session(req, &form, &s, &er) != 0)
		return er;
	mode = core_params_get(form, "digest");
	if (!acc_digest_mode_ok(mode))
		return core_req_fail(req, 400,
		    "digest must be daily, weekly or off");
	if ((er = acc_store_digest_set(ctx->db, s.uid, mode)) != CORE_OK)
		return er;
	core_log(CORE_LOG_INFO, "digest", "user %lld digest %s", s.uid, mode);
	return acc_see_other(req, "/account?done=digest#digest");
}

/* The token of an unsubscribe request: the query's, else the form's. */
static const char *
unsubscribe_token(struct core_req *req, const struct core_params *form)
{
	const char *t = core_req_param(req, "token");

	if ((t == NULL || *t == '\0') && form != NULL)
		t = core_params_get(form, "token");
	return t;
}

/* The answer to a bad or used unsubscribe link. */
static enum core_err
unsubscribe_bad(struct core_req *req)
{
	return core_req_fail(req, 404,
	    "This unsubscribe link is not valid any more: a newer digest has "
	    "a newer link, or digests are already off. Sign in to change "
	    "them on your account page.");
}

enum core_err
acc_unsubscribe_get(struct core_req *req)
{
	const char *tok = unsubscribe_token(req, NULL);
	unsigned char raw[ACC_TOKEN_RAW];
	json_t *m = NULL;
	enum core_err er;

	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	if (tok == NULL || acc_token_parse(tok, raw) != 0)
		return unsubscribe_bad(req);
	sodium_memzero(raw, sizeof(raw));
	/* A GET changes nothing (link checkers follow links): a button. */
	m = json_pack("{s:s,s:s,s:b,s:[],s:{s:s,s:s,s:s,s:s}}", "title",
	    "Stop the email digests", "message",
	    "Press the button to stop the digest emails. You can turn them "
	    "on again on your account page.",
	    "ok", 1, "links", "form", "action", "/account/unsubscribe", "csrf",
	    "", "token", tok, "button", "Stop the digests");
	return acc_respond_message(req, 200, m, NULL);
}

enum core_err
acc_unsubscribe_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	unsigned char raw[ACC_TOKEN_RAW];
	char hash[ACC_HASH_HEX + 1];
	const char *tok;
	long long uid = 0;
	json_t *m = NULL;
	enum core_err er;

	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	/*
	 * No Origin or CSRF check: the token is the credential, and mail
	 * clients send RFC 8058's "List-Unsubscribe=One-Click" POST from
	 * nowhere.  The body may be empty.
	 */
	if ((er = core_req_form(req, &form)) != CORE_OK)
		form = NULL;
	tok = unsubscribe_token(req, form);
	if (tok == NULL || acc_token_parse(tok, raw) != 0)
		return unsubscribe_bad(req);
	sodium_memzero(raw, sizeof(raw));
	acc_token_hash(tok, hash);
	if ((er = acc_store_digest_unsubscribe(ctx->db, hash, &uid)) != CORE_OK)
		return er;
	if (uid == 0)
		return unsubscribe_bad(req);
	core_log(CORE_LOG_INFO, "digest", "user %lld unsubscribed", uid);
	m = json_pack("{s:s,s:s,s:b,s:n,s:[]}", "title", "Digests stopped",
	    "message",
	    "You will get no more digest emails. You can turn them on again "
	    "on your account page.",
	    "ok", 1, "form", "links");
	return acc_respond_message(req, 200, m, NULL);
}

/* ---------------------------------------------------------------- sender */

/* One digest's items: text and HTML bodies, from DIGEST_ITEMS rows. */
static void
digest_bodies(const char *base, const char *mode, const PGresult *res,
    const char *unsub, struct core_buf *text, struct core_buf *html)
{
	struct core_html h;
	char *url;
	const char *aid, *slug, *at, *why;
	int i, n = PQntuples(res), v;

	core_buf_printf(text, "Your %s weft digest: %d new item%s.\n\n", mode,
	    n, n == 1 ? "" : "s");
	core_html_open(&h, core_buf_sink(html));
	core_html_doctype(&h);
	core_html_elem(&h, CORE_TAG_HTML, NULL);
	core_html_elem(&h, CORE_TAG_BODY, NULL);
	core_html_elem(&h, CORE_TAG_P, NULL);
	core_html_textf(&h, "Your %s weft digest: %d new item%s.", mode, n,
	    n == 1 ? "" : "s");
	core_html_pop(&h);
	core_html_elem(&h, CORE_TAG_UL, NULL);
	for (i = 0; i < n; i++) {
		aid = core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__ARXIV_ID);
		slug = core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__SLUG);
		at = core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__AT);
		why = core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__WHY);
		v = core_cell_int(res, i, ACCOUNTS_DIGEST_ITEMS__VERSION, 1);
		url = *slug != '\0'
		    ? core_xasprintf("%s/papers/%s-%s", base, aid, slug)
		    : core_xasprintf("%s/papers/%s", base, aid);
		/* Text: one line of data each (no line breaks from it). */
		core_buf_puts(text, "- ");
		core_buf_puts(text,
		    core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__TITLE));
		core_buf_printf(text, "\n  %s\n  %s", url, aid);
		if (v > 1)
			core_buf_printf(text, "%d", v);
		core_buf_printf(text, " · %s · %s\n\n",
		    *at != '\0' ? at : "undated", why);
		core_html_elem(&h, CORE_TAG_LI, NULL);
		core_html_elemtext(&h, CORE_TAG_A,
		    (const struct core_attr[]){ A(HREF, url), AEND },
		    core_cell_text(res, i, ACCOUNTS_DIGEST_ITEMS__TITLE));
		core_html_text(&h, " ");
		core_html_elem(&h, CORE_TAG_SMALL, NULL);
		core_html_text(&h, aid);
		if (v > 1)
			core_html_textf(&h, "v%d", v);
		core_html_textf(&h, " · %s · ", *at != '\0' ? at : "undated");
		core_html_text(&h, why);
		core_html_pop(&h);
		core_html_pop(&h); /* li */
		free(url);
	}
	core_html_pop(&h); /* ul */
	url = core_xasprintf("%s/feed", base);
	core_buf_printf(text, "Your whole feed: %s\n", url);
	core_html_elem(&h, CORE_TAG_P, NULL);
	core_html_elemtext(&h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, url), AEND },
	    "Your whole feed");
	core_html_pop(&h);
	free(url);
	url = core_xasprintf("%s/account#digest", base);
	core_buf_printf(text,
	    "\nStop these emails (one click, no sign-in): %s\n"
	    "Or change them on your account page: %s\n",
	    unsub, url);
	core_html_elem(&h, CORE_TAG_P, NULL);
	core_html_elemtext(&h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, unsub), AEND },
	    "Stop these emails");
	core_html_text(&h, " (one click, no sign-in) · ");
	core_html_elemtext(&h, CORE_TAG_A,
	    (const struct core_attr[]){ A(HREF, url), AEND },
	    "change them on your account page");
	core_html_pop(&h);
	free(url);
	core_html_close(&h);
}

/*
 * The digest of user uid (email to, mode "daily"/"weekly") of what it
 * learned of after since up to now.  *sent 1 when a mail went out.
 */
static enum core_err
digest_one(struct core_ctx *ctx, long long uid, const char *to,
    const char *mode, long long since, long long now, int *sent)
{
	char ub[24], sb[24], nb[24], tok[ACC_TOKEN_LEN + 1],
	    hash[ACC_HASH_HEX + 1];
	const char *p[3] = { ub, sb, nb };
	struct core_buf text = CORE_BUF_INIT, html = CORE_BUF_INIT;
	PGresult *res = NULL, *r2 = NULL;
	char *unsub = NULL, *subject = NULL;
	enum core_err er;

	*sent = 0;
	snprintf(ub, sizeof(ub), "%lld", uid);
	snprintf(sb, sizeof(sb), "%lld", since);
	snprintf(nb, sizeof(nb), "%lld", now);
	if ((er = core_db_exec(ctx->db, ACCOUNTS_SQL_DIGEST_ITEMS, p, 3,
		 &res)) != CORE_OK)
		goto out;
	if (PQntuples(res) > 0) {
		if (!acc_mail_allowed_ctx(ctx, to)) {
			er = CORE_OK; /* capped: try again next time */
			goto out;
		}
		acc_token_new(tok);
		acc_token_hash(tok, hash);
		p[1] = hash;
		if ((er = core_db_exec(ctx->db, ACCOUNTS_SQL_DIGEST_TOKEN_SET,
			 p, 2, &r2)) != CORE_OK)
			goto out;
		unsub = core_xasprintf("%s/account/unsubscribe?token=%s",
		    ctx->base_url, tok);
		sodium_memzero(tok, sizeof(tok));
		digest_bodies(ctx->base_url, mode, res, unsub, &text, &html);
		subject = core_xasprintf("Your %s weft digest: %d new item%s",
		    mode, PQntuples(res), PQntuples(res) == 1 ? "" : "s");
		if ((er = acc_mail_send_digest(ctx, to, subject,
			 core_buf_cstr(&text), core_buf_cstr(&html), unsub)) !=
		    CORE_OK)
			goto out; /* since stays: the next run retries */
		*sent = 1;
	}
	/* Sent, or nothing new: the next digest starts now. */
	p[1] = nb;
	PQclear(r2);
	r2 = NULL;
	er = core_db_exec(ctx->db, ACCOUNTS_SQL_DIGEST_SENT, p, 2, &r2);
out:
	PQclear(res);
	PQclear(r2);
	if (unsub != NULL) {
		sodium_memzero(unsub, strlen(unsub));
		free(unsub);
	}
	if (text.ptr != NULL)
		sodium_memzero(text.ptr, text.len);
	if (html.ptr != NULL)
		sodium_memzero(html.ptr, html.len);
	core_buf_free(&text);
	core_buf_free(&html);
	free(subject);
	return er;
}

/* Sends every digest due now.  0, or 1 when one failed (logged). */
static int
digest_run(struct core_ctx *ctx)
{
	long long now = (long long)time(NULL);
	char nb[24];
	const char *p[1] = { nb };
	PGresult *res = NULL;
	int i, sent, nsent = 0, failed = 0;

	if (ctx->db == NULL)
		return 1;
	snprintf(nb, sizeof(nb), "%lld", now);
	if (core_db_exec(ctx->db, ACCOUNTS_SQL_DIGEST_DUE, p, 1, &res) !=
	    CORE_OK)
		return 1;
	for (i = 0; i < PQntuples(res); i++) {
		if (digest_one(ctx,
			core_cell_bigint(res, i, ACCOUNTS_DIGEST_DUE__ID, 0),
			core_cell_text(res, i, ACCOUNTS_DIGEST_DUE__EMAIL),
			core_cell_text(res, i, ACCOUNTS_DIGEST_DUE__DIGEST),
			core_cell_bigint(res, i, ACCOUNTS_DIGEST_DUE__SINCE, 0),
			now, &sent) != CORE_OK)
			failed++;
		nsent += sent;
	}
	core_log(CORE_LOG_INFO, "digest", "%d due, %d sent, %d failed",
	    PQntuples(res), nsent, failed);
	PQclear(res);
	return failed > 0;
}

int
acc_command(struct core_ctx *ctx, int argc, char **argv)
{
	if (argc == 1 && strcmp(argv[0], "digest") == 0)
		return digest_run(ctx);
	fprintf(stderr, "usage: weftd -m accounts -x digest\n");
	return 2;
}
