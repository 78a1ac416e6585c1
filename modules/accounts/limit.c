/*
 * limit.c -- rate limits for sign-in and sign-up in Redis: a counter per
 * action and client IP and per action and email, INCR'd on each attempt
 * and expiring a minute after the first (a fixed window).  Redis holds
 * only these counters; when it is down the limits fail open, and
 * authentication, which lives in PostgreSQL, still works.
 */
#include <stdio.h>
#include <string.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"
#include "accounts.h"

#define WINDOW 60

/*
 * Counts one hit on key.  Returns 0 when within limit, the seconds until
 * the window ends when beyond, 0 when Redis fails.
 */
static long
hit(struct core_redis *rc, const char *key, long limit)
{
	redisReply *r = NULL;
	long long n;
	long ttl;

	if (core_redis_cmd(rc, &r, "INCR %s", key) != CORE_OK)
		return 0;
	n = r->type == REDIS_REPLY_INTEGER ? r->integer : 0;
	freeReplyObject(r);
	r = NULL;
	if (n == 1) {
		if (core_redis_cmd(rc, &r, "EXPIRE %s %d", key, WINDOW) ==
		    CORE_OK)
			freeReplyObject(r);
		return 0;
	}
	if (n <= limit)
		return 0;
	if (core_redis_cmd(rc, &r, "TTL %s", key) != CORE_OK)
		return WINDOW;
	ttl = r->type == REDIS_REPLY_INTEGER ? (long)r->integer : -1;
	freeReplyObject(r);
	r = NULL;
	if (ttl < 0) {
		/* The EXPIRE after the first INCR was lost: a counter
		 * without a TTL would lock the client out for good. */
		if (core_redis_cmd(rc, &r, "EXPIRE %s %d", key, WINDOW) ==
		    CORE_OK)
			freeReplyObject(r);
		ttl = WINDOW;
	}
	return ttl > 0 ? ttl : 1;
}

long
acc_limit(struct core_req *req, const char *action, const char *email)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct acc_state *st = ctx->mod_state;
	unsigned char h[16];
	char hex[33], key[160];
	const char *ip;
	long wait, w2;

	if (ctx->redis == NULL || st == NULL || st->limit <= 0)
		return 0;
	if ((ip = core_req_env(req, "REMOTE_ADDR")) == NULL)
		ip = "-";
	snprintf(key, sizeof(key), "weft:rl:%s:ip:%.64s", action, ip);
	wait = hit(ctx->redis, key, st->limit);
	if (email == NULL)
		return wait;
	/* The address is personal data: only its hash goes to Redis. */
	crypto_generichash(h, sizeof(h), (const unsigned char *)email,
	    strlen(email), NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), h, sizeof(h));
	snprintf(key, sizeof(key), "weft:rl:%s:email:%s", action, hex);
	w2 = hit(ctx->redis, key, st->limit);
	return w2 > wait ? w2 : wait;
}
