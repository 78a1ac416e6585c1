/*
 * module.c -- the accounts plugin's descriptor: routes, statements, init
 * and fini, and the HTML error hook.  nginx sends this module /signup,
 * /signin, /signout, /account*, /feed* and the follow/unfollow POSTs.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"
#include "accounts_sql.h"

static const struct core_route routes[] = {
	{ "GET", "/signin", acc_signin_get },
	{ "POST", "/signin", acc_signin_post },
	{ "GET", "/signup", acc_signup_get },
	{ "POST", "/signup", acc_signup_post },
	{ "POST", "/signout", acc_signout_post },
	{ "GET", "/account", acc_account_get },
	{ "POST", "/account/feed-token", acc_feed_token_post },
	{ "POST", "/account/keys", acc_api_key_post },
	{ "POST", "/account/keys/revoke", acc_api_key_revoke_post },
	{ "GET", "/account/welcome", acc_welcome_get },
	{ "GET", "/account/verify", acc_link_get },
	{ "POST", "/account/verify", acc_verify_post },
	{ "POST", "/account/verify/resend", acc_verify_resend_post },
	{ "GET", "/account/forgot", acc_forgot_get },
	{ "POST", "/account/forgot", acc_forgot_post },
	{ "GET", "/account/reset", acc_link_get },
	{ "POST", "/account/reset", acc_reset_post },
	{ "POST", "/account/password", acc_password_post },
	{ "POST", "/account/sessions/end", acc_session_end_post },
	{ "POST", "/account/sessions/end-others",
	    acc_sessions_end_others_post },
	{ "POST", "/account/delete", acc_delete_post },
	{ "GET", "/account/nav", acc_nav_get },
	{ "GET", "/account/follow/institution/*",
	    acc_follow_institution_fragment },
	{ "GET", "/account/follow/category/*", acc_follow_category_fragment },
	{ "GET", "/account/follow/*", acc_follow_fragment_get },
	{ "POST", "/account/follows", acc_follows_add_post },
	{ "POST", "/account/follows/remove", acc_follows_remove_post },
	{ "GET", "/account/follows/new", acc_follows_new_get },
	{ "POST", "/account/digest", acc_digest_post },
	{ "GET", "/account/unsubscribe", acc_unsubscribe_get },
	{ "POST", "/account/unsubscribe", acc_unsubscribe_post },
	{ "GET", "/feed", acc_feed_get },
	{ "POST", "/researchers/*", acc_follow_post },
	/*
	 * SSI subrequests arrive with the parent page's REQUEST_URI, so
	 * core routes them by that path: whatever GET matched nothing
	 * above is dispatched by DOCUMENT_URI (follow.c).
	 */
	{ "GET", "*", acc_fragment_dispatch },
	{ NULL, NULL, NULL },
};

void
acc_email_keys_backfill(struct core_ctx *ctx)
{
	struct acc_state *st = ctx->mod_state;
	int conflicts = 0;

	if (st == NULL || st->keys_filled || ctx->db == NULL)
		return;
	if (acc_store_email_keys_fill(ctx->db, &conflicts) == CORE_OK)
		st->keys_filled = 1;
}

static enum core_err
init(struct core_ctx *ctx)
{
	struct acc_state *st = ctx->mod_state;
	unsigned char pw[24];

	st->dummy_hash = core_xcalloc(1, crypto_pwhash_STRBYTES);
	/*
	 * A hash of a random password with the real parameters: sign-in
	 * verifies against it when the email is unknown, so both failures
	 * take the same time.
	 */
	randombytes_buf(pw, sizeof(pw));
	if (crypto_pwhash_str(st->dummy_hash, (const char *)pw, sizeof(pw),
		crypto_pwhash_OPSLIMIT_INTERACTIVE,
		crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		core_log(CORE_LOG_ERROR, "start", "crypto_pwhash_str failed");
		return CORE_ESYS;
	}
	st->limit = core_conf_int(ctx->conf, "accounts_rate_limit", 10);
	st->mail_cap = core_conf_int(ctx->conf, "mail_daily_cap", 10);
	st->secure =
	    ctx->base_url != NULL && strncmp(ctx->base_url, "https://", 8) == 0;
	if (acc_mailer_new(ctx->conf, &st->mailer) != CORE_OK)
		return CORE_EINPUT;
	/* Addresses 0016 could not key in SQL (non-ASCII); not fatal. */
	acc_email_keys_backfill(ctx);
	return CORE_OK;
}

static void
fini(struct core_ctx *ctx)
{
	struct acc_state *st = ctx->mod_state;

	acc_mailer_free(st->mailer);
	free(st->dummy_hash);
}

const struct core_module weft_module = {
	CORE_MODULE(accounts, ACCOUNTS, struct acc_state),
	.html_error = acc_html_error,
	.hints = core_site_hints,
	.command = acc_command,
};
