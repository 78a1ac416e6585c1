/*
 * cache.c -- rendered representations in Redis.
 *
 * A key names one variant of one resource: the module, the path, the
 * query and the Accept header, hashed, under the current generation.
 * Writers (the loader, the harvester) bump the generation after they
 * commit, so keys of stale pages are never read again and simply expire.
 * The generation is read at most once a second per worker.
 *
 * Single flight: the first worker to miss takes a short lock and renders;
 * the others wait a little for its result instead of rendering the same
 * page again, and render themselves if it does not come.
 *
 * Every failure is CORE_ECACHE: the page is rendered uncached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"

#define GEN_KEY "weft:gen"

static long long gen_value = -1;
static time_t gen_read;

enum core_err
core_cache_gen(struct core_redis *rd, long long *gen)
{
	struct redisReply *rep = NULL;
	time_t now = time(NULL);

	if (gen_value >= 0 && now == gen_read) {
		*gen = gen_value;
		return CORE_OK;
	}
	if (core_redis_cmd(rd, &rep, "GET " GEN_KEY) != CORE_OK)
		return CORE_ECACHE;
	gen_value = rep->type == REDIS_REPLY_STRING ? atoll(rep->str) : 0;
	gen_read = now;
	freeReplyObject(rep);
	*gen = gen_value;
	return CORE_OK;
}

enum core_err
core_cache_key(struct core_ctx *ctx, const char *path, const char *query,
    const char *accept, char *key, size_t keysz)
{
	crypto_generichash_state st;
	unsigned char h[16];
	char hex[33];
	long long gen;

	if (ctx->redis == NULL || core_cache_gen(ctx->redis, &gen) != CORE_OK)
		return CORE_ECACHE;
	crypto_generichash_init(&st, NULL, 0, sizeof(h));
	/* NUL separators: no two different tuples hash the same input. */
	crypto_generichash_update(&st, (const unsigned char *)ctx->mod->name,
	    strlen(ctx->mod->name) + 1);
	crypto_generichash_update(&st, (const unsigned char *)path,
	    strlen(path) + 1);
	crypto_generichash_update(&st, (const unsigned char *)query,
	    strlen(query) + 1);
	if (accept != NULL)
		crypto_generichash_update(&st, (const unsigned char *)accept,
		    strlen(accept));
	crypto_generichash_final(&st, h, sizeof(h));
	sodium_bin2hex(hex, sizeof(hex), h, sizeof(h));
	snprintf(key, keysz, "weft:c:%lld:%s", gen, hex);
	return CORE_OK;
}

enum core_err
core_cache_get(struct core_ctx *ctx, const char *key, struct core_buf *blob)
{
	struct redisReply *rep = NULL;
	enum core_err er = CORE_ENOTFOUND;

	if (core_redis_cmd(ctx->redis, &rep, "GET %s", key) != CORE_OK)
		return CORE_ECACHE;
	if (rep->type == REDIS_REPLY_STRING) {
		core_buf_put(blob, rep->str, rep->len);
		er = CORE_OK;
	}
	freeReplyObject(rep);
	return er;
}

enum core_err
core_cache_put(struct core_ctx *ctx, const char *key, const char *blob,
    size_t n, long ttl)
{
	struct redisReply *rep = NULL;

	if (core_redis_cmd(ctx->redis, &rep, "SET %s %b EX %ld", key, blob, n,
		ttl) != CORE_OK)
		return CORE_ECACHE;
	freeReplyObject(rep);
	return CORE_OK;
}

/*
 * Takes the render lock for key (1), or waits for another worker's
 * rendering to appear in the cache (0 with blob filled), or gives up
 * waiting (0 with blob empty: render anyway).
 */
int
core_cache_lock(struct core_ctx *ctx, const char *key, struct core_buf *blob)
{
	struct redisReply *rep = NULL;
	char lock[128];
	int got, i;

	snprintf(lock, sizeof(lock), "%s:lock", key);
	if (core_redis_cmd(ctx->redis, &rep, "SET %s 1 NX PX 3000", lock) !=
	    CORE_OK)
		return 1;
	got = rep->type == REDIS_REPLY_STATUS;
	freeReplyObject(rep);
	if (got)
		return 1;
	/* Someone renders it: wait up to about a second for the result. */
	for (i = 0; i < 50; i++) {
		usleep(20000);
		if (core_cache_get(ctx, key, blob) == CORE_OK)
			return 0;
	}
	return 0;
}

void
core_cache_unlock(struct core_ctx *ctx, const char *key)
{
	struct redisReply *rep = NULL;
	char lock[128];

	snprintf(lock, sizeof(lock), "%s:lock", key);
	if (core_redis_cmd(ctx->redis, &rep, "DEL %s", lock) == CORE_OK)
		freeReplyObject(rep);
}

enum core_err
core_cache_bump(struct core_redis *rd)
{
	struct redisReply *rep = NULL;

	if (core_redis_cmd(rd, &rep, "INCR " GEN_KEY) != CORE_OK)
		return CORE_ECACHE;
	freeReplyObject(rep);
	return CORE_OK;
}
