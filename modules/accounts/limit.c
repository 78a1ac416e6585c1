/*
 * limit.c -- rate limits for sign-in and sign-up in Redis: fixed-window
 * counters (INCR'd on each attempt, expiring a minute after the first)
 * keyed by the client and by the account.  Redis holds only these
 * counters and the device marks below; when it is down the limits fail
 * open, and authentication, which lives in PostgreSQL, still works.
 *
 * Who is counted (README, "Rate limits"):
 *
 *   - the client: per IPv4 address, per IPv6 /64 (acc_client_key), every
 *     attempt, whatever the account;
 *   - the account (acc_email_key, so every Unicode spelling of an address
 *     is one counter): every attempt from a browser the account has not
 *     signed in from before.  This bounds a distributed guesser (many
 *     addresses, one account) to `limit` guesses a minute in all;
 *   - a device: a browser that once signed in to the account carries a
 *     random token (cookie weft_device, Path=/signin, new at each
 *     sign-in), remembered in Redis for that account.  Its attempts count against that device
 *     and account only, not against the account's counter above, so a
 *     guesser filling the account's counter does not lock the owner out
 *     of a browser they used before, whatever address it now has.  The
 *     token proves nothing but an earlier successful sign-in here.
 *
 * (OWASP's "device cookies".)
 *
 * Mail has a cap of its own: at most mail_daily_cap messages to one
 * account key a day (verification, reset, sign-up notes), so that the
 * forms cannot be used to flood someone's mailbox.  An owner on a browser that never signed
 * in waits like anyone else, at most a window, while the account is
 * under attack: until the password is checked nothing tells them apart
 * from the guesser, and checking it first would give the guesser an
 * unlimited oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"
#include "accounts.h"

#define WINDOW 60
/* The mail cap counts a day from an address's first mail. */
#define MAIL_WINDOW (24L * 3600)
/* A browser stays known to an account for 180 days after a sign-in. */
#define DEVICE_COOKIE "weft_device"
#define DEVICE_TTL    (180L * 24 * 3600)

/*
 * Counts one hit on key in a window of window seconds from its first hit.
 * Returns 0 when within limit, the seconds until the window ends when
 * beyond, 0 when Redis fails.
 */
static long
hit(struct core_redis *rc, const char *key, long limit, long window)
{
	redisReply *r = NULL;
	long long n;
	long ttl;

	if (core_redis_incr(rc, key, window, &n) != CORE_OK)
		return 0;
	if (n == 1 || n <= limit)
		return 0;
	if (core_redis_cmd(rc, &r, "TTL %s", key) != CORE_OK)
		return WINDOW;
	ttl = r->type == REDIS_REPLY_INTEGER ? (long)r->integer : -1;
	freeReplyObject(r);
	r = NULL;
	if (ttl < 0) {
		/* The EXPIRE after the first INCR was lost: a counter
		 * without a TTL would lock the client out for good. */
		if (core_redis_cmd(rc, &r, "EXPIRE %s %ld", key, window) ==
		    CORE_OK)
			freeReplyObject(r);
		ttl = window;
	}
	return ttl > 0 ? ttl : 1;
}

/* The Redis name of an account key: hex of BLAKE2b-128 (the address is
 * personal data: only its hash goes to Redis). */
static void
key_hash(const char *key, char hex[33])
{
	core_hash_hex(key, strlen(key), 16, hex);
}

/* Hex of BLAKE2b-128(token NUL key): one device for one account. */
static void
device_id(const char *tok, const char *key, char out[33])
{
	crypto_generichash_state st;
	unsigned char h[16];

	crypto_generichash_init(&st, NULL, 0, sizeof(h));
	crypto_generichash_update(&st, (const unsigned char *)tok,
	    strlen(tok) + 1);
	crypto_generichash_update(&st, (const unsigned char *)key, strlen(key));
	crypto_generichash_final(&st, h, sizeof(h));
	sodium_bin2hex(out, 33, h, sizeof(h));
}

int
acc_device_known(struct core_req *req, const char *key, char id[33])
{
	struct core_ctx *ctx = core_req_ctx(req);
	unsigned char raw[ACC_TOKEN_RAW];
	redisReply *r = NULL;
	const char *tok;
	int known;

	id[0] = '\0';
	if (ctx->redis == NULL ||
	    (tok = core_req_cookie(req, DEVICE_COOKIE)) == NULL ||
	    acc_token_parse(tok, raw) != 0)
		return 0;
	sodium_memzero(raw, sizeof(raw));
	device_id(tok, key, id);
	if (core_redis_cmd(ctx->redis, &r, "EXISTS weft:dev:%s", id) !=
	    CORE_OK) {
		id[0] = '\0';
		return 0;
	}
	known = r->type == REDIS_REPLY_INTEGER && r->integer == 1;
	freeReplyObject(r);
	if (!known)
		id[0] = '\0';
	return known;
}

void
acc_device_remember(struct core_req *req, const char *key)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct acc_state *st = ctx->mod_state;
	char tok[ACC_TOKEN_LEN + 1], id[33], *v;
	redisReply *r = NULL;

	if (ctx->redis == NULL)
		return;
	/*
	 * A new token at every sign-in, never the one that came in: a
	 * token planted in the owner's browser must not become a known
	 * device that its planter also holds.
	 */
	acc_token_new(tok);
	device_id(tok, key, id);
	if (core_redis_cmd(ctx->redis, &r, "SET weft:dev:%s 1 EX %ld", id,
		DEVICE_TTL) != CORE_OK)
		return;
	freeReplyObject(r);
	/* Sent only to /signin: no other page ever sees it. */
	v = core_xasprintf("%s=%s; Path=/signin; Max-Age=%ld; HttpOnly; "
			   "SameSite=Lax%s",
	    DEVICE_COOKIE, tok, DEVICE_TTL,
	    st != NULL && st->secure ? "; Secure" : "");
	core_resp_header(req, "Set-Cookie", v);
	free(v);
}

long
acc_limit(struct core_req *req, const char *action, const char *key,
    const char *device)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct acc_state *st = ctx->mod_state;
	char hex[33], rk[160], client[ACC_CLIENT_KEY_MAX];
	long wait, w2;

	if (ctx->redis == NULL || st == NULL || st->limit <= 0)
		return 0;
	acc_client_key(core_req_env(req, "REMOTE_ADDR"), client);
	snprintf(rk, sizeof(rk), "weft:rl:%s:ip:%s", action, client);
	wait = hit(ctx->redis, rk, st->limit, WINDOW);
	if (key == NULL)
		return wait;
	if (device != NULL && *device != '\0') {
		/* A known browser: its own counter, not the account's. */
		snprintf(rk, sizeof(rk), "weft:rl:%s:dev:%s", action, device);
	} else {
		key_hash(key, hex);
		snprintf(rk, sizeof(rk), "weft:rl:%s:email:%s", action, hex);
	}
	w2 = hit(ctx->redis, rk, st->limit, WINDOW);
	return w2 > wait ? w2 : wait;
}

long
acc_limited(struct core_req *req, const char *action, const char *key,
    const char *device)
{
	char ra[24];
	long wait;

	if ((wait = acc_limit(req, action, key, device)) == 0)
		return 0;
	core_log(CORE_LOG_WARN, "ratelimit", "%s limited for %lds", action,
	    wait);
	snprintf(ra, sizeof(ra), "%ld", wait);
	core_resp_header(req, "Retry-After", ra);
	return wait;
}

int
acc_mail_allowed(struct core_req *req, const char *to)
{
	return acc_mail_allowed_ctx(core_req_ctx(req), to);
}

int
acc_mail_allowed_ctx(struct core_ctx *ctx, const char *to)
{
	const struct acc_state *st = ctx->mod_state;
	char key[ACC_EMAIL_KEY_MAX + 1], hex[33], rk[80];

	if (ctx->redis == NULL || st == NULL || st->mail_cap <= 0 ||
	    acc_email_key(to, key, sizeof(key)) != 0)
		return 1;
	key_hash(key, hex);
	snprintf(rk, sizeof(rk), "weft:mailcap:%s", hex);
	if (hit(ctx->redis, rk, st->mail_cap, MAIL_WINDOW) == 0)
		return 1;
	core_log(CORE_LOG_WARN, "mail",
	    "not sent: the address reached its daily cap of %ld", st->mail_cap);
	core_metrics_count(ctx->metrics, CORE_METRIC_MAIL_CAPPED);
	return 0;
}
