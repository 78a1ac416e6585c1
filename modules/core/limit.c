/*
 * limit.c -- fair use of the reads that reach a worker: a token bucket
 * per client in Redis, and API keys (Authorization: Bearer) that get a
 * bucket of their own, larger.
 *
 * The bucket is one Lua script (BUCKET below), run with EVAL: refilling,
 * taking a token and reading what is left happen in one atomic step on
 * the Redis server, with the server's clock (TIME), so workers on
 * several hosts share one bucket without sharing a clock, and no race
 * between a GET and a SET can hand out more than the bucket holds.  An
 * INCR/EXPIRE window is simpler but lets a client send twice its quota
 * across a window's edge, and cannot say when the next request will
 * pass; the bucket can (Retry-After), and allows a burst of q requests
 * after a quiet spell, which is what a person opening tabs does.
 *
 * A client is its address as nginx saw it (REMOTE_ADDR, $remote_addr,
 * never X-Forwarded-For unless nginx's real_ip is configured to trust a
 * proxy), an IPv6 client its /64 (core_client_key).  Without Redis every
 * read passes: the limiter protects the site, it must never take it
 * down; a warning says so, at most once a minute per worker.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <arpa/inet.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"

/*
 * KEYS[1] the bucket; ARGV[1] q, its size and the requests refilled in
 * ARGV[2] w seconds.  The hash holds the tokens left (n, a fraction)
 * and when (t, ms).  Returns { 1 passed / 0 refused, tokens left
 * (whole), seconds until the next token (0 when one is there), seconds
 * until the bucket is full again }.  The key expires once it would be
 * full anyway.
 */
static const char BUCKET[] =
    "local q = tonumber(ARGV[1])\n"
    "local w = tonumber(ARGV[2])\n"
    "local tm = redis.call('TIME')\n"
    "local now = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / "
    "1000)\n"
    "local s = redis.call('HMGET', KEYS[1], 'n', 't')\n"
    "local n = tonumber(s[1]) or q\n"
    "local t = tonumber(s[2]) or now\n"
    "local rate = q / (w * 1000)\n"
    "if now > t then n = math.min(q, n + (now - t) * rate) end\n"
    "local ok = 0\n"
    "if n >= 1 then n = n - 1; ok = 1 end\n"
    "redis.call('HSET', KEYS[1], 'n', tostring(n), 't', tostring(now))\n"
    "redis.call('PEXPIRE', KEYS[1], w * 1000)\n"
    "local retry = 0\n"
    "if n < 1 then retry = math.ceil((1 - n) / rate / 1000) end\n"
    "return { ok, math.floor(n), retry, math.ceil((q - n) / rate / 1000) "
    "}\n";

void
core_client_key(const char *addr, char out[CORE_CLIENT_KEY_MAX])
{
	unsigned char a6[16];
	struct in_addr a4;
	char txt[INET6_ADDRSTRLEN];

	if (addr == NULL || *addr == '\0') {
		snprintf(out, CORE_CLIENT_KEY_MAX, "-");
		return;
	}
	if (inet_pton(AF_INET6, addr, a6) == 1) {
		/* ::ffff:a.b.c.d is an IPv4 client on a dual-stack socket. */
		if (memcmp(a6, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0) {
			memcpy(&a4, a6 + 12, 4);
			inet_ntop(AF_INET, &a4, out, CORE_CLIENT_KEY_MAX);
			return;
		}
		/*
		 * One IPv6 subscriber gets at least a /64 (RFC 6177) and
		 * picks its interface bits freely (RFC 4941): the /64 is the
		 * client.
		 */
		memset(a6 + 8, 0, 8);
		inet_ntop(AF_INET6, a6, txt, sizeof(txt));
		snprintf(out, CORE_CLIENT_KEY_MAX, "%s/64", txt);
		return;
	}
	if (inet_pton(AF_INET, addr, &a4) == 1) {
		inet_ntop(AF_INET, &a4, out, CORE_CLIENT_KEY_MAX);
		return;
	}
	/* Not an IP address (a unix socket peer): as given, bounded. */
	snprintf(out, CORE_CLIENT_KEY_MAX, "%.64s", addr);
}

void
core_limits(const struct core_conf *c, struct core_limits *l)
{
	l->read_limit = core_conf_int(c, "read_limit", 120);
	l->read_window = core_conf_int(c, "read_window", 60);
	l->key_limit = core_conf_int(c, "key_limit", 1200);
	l->key_window = core_conf_int(c, "key_window", 60);
	if (l->read_window <= 0)
		l->read_window = 60;
	if (l->key_window <= 0)
		l->key_window = 60;
}

int
core_limit_exempt(const struct core_conf *c, const char *client)
{
	const char *list = core_conf_get(c, "read_limit_exempt", "");
	size_t n = strlen(client);

	/* A list of client keys separated by spaces or commas. */
	while (*list != '\0') {
		size_t k = strcspn(list, " ,\t");

		if (k == n && strncmp(list, client, n) == 0)
			return 1;
		list += k;
		list += strspn(list, " ,\t");
	}
	return 0;
}

int
core_bearer_parse(const char *authz, char *tok, size_t toksz)
{
	size_t n;

	if (authz == NULL)
		return 0;
	if (strncasecmp(authz, "Bearer", 6) != 0 ||
	    (authz[6] != ' ' && authz[6] != '\t'))
		return -1;
	authz += 6;
	authz += strspn(authz, " \t");
	/* token68 (RFC 7235): the characters a secret may hold. */
	n = strspn(authz,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-._~+/");
	n += strspn(authz + n, "=");
	if (n == 0 || n + 1 > toksz ||
	    authz[n + strspn(authz + n, " \t")] != '\0')
		return -1;
	memcpy(tok, authz, n);
	tok[n] = '\0';
	return 1;
}

void
core_hash_hex(const void *data, size_t len, size_t hlen, char *hex)
{
	unsigned char h[crypto_generichash_BYTES_MAX];

	assert(hlen >= crypto_generichash_BYTES_MIN && hlen <= sizeof(h));
	crypto_generichash(h, hlen, data, len, NULL, 0);
	sodium_bin2hex(hex, 2 * hlen + 1, h, hlen);
	/* The input may be a secret; leave nothing of it on the stack. */
	sodium_memzero(h, sizeof(h));
}

void
core_key_hash(const char *secret, char hex[65])
{
	core_hash_hex(secret, strlen(secret), 32, hex);
}

/* Warns that reads pass unlimited, at most once a minute per process. */
static void
warn_open(struct core_ctx *ctx, const char *why)
{
	static time_t last;
	time_t now = time(NULL);

	core_metrics_count(ctx->metrics, CORE_METRIC_LIMIT_OPEN);
	if (now - last < 60)
		return;
	last = now;
	core_log(CORE_LOG_WARN, "ratelimit",
	    "%s: reads pass unlimited (this warning at most once a minute)",
	    why);
}

enum core_err
core_limit_take(struct core_ctx *ctx, const char *bucket, long q, long w,
    struct core_limit_state *st)
{
	redisReply *r = NULL;
	enum core_err er = CORE_ECACHE;

	memset(st, 0, sizeof(*st));
	st->passed = 1;
	st->quota = q;
	st->window = w;
	st->remaining = q;
	if (ctx->redis == NULL ||
	    core_redis_cmd(ctx->redis, &r, "EVAL %s 1 %s %ld %ld", BUCKET,
		bucket, q, w) != CORE_OK)
		goto out;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 4 ||
	    r->element[0]->type != REDIS_REPLY_INTEGER)
		goto out;
	st->passed = r->element[0]->integer == 1;
	st->remaining = r->element[1]->integer;
	st->retry = r->element[2]->integer;
	st->reset = r->element[3]->integer;
	if (!st->passed && st->retry < 1)
		st->retry = 1;
	er = CORE_OK;
out:
	if (er != CORE_OK)
		warn_open(ctx, "Redis unavailable for the rate limits");
	freeReplyObject(r);
	return er;
}

/* The column of "SELECT weft_api_key($1)", named as PostgreSQL names it. */
enum { API_KEY__WEFT_API_KEY };

enum core_err
core_key_lookup(struct core_ctx *ctx, const char *secret, long long *id)
{
	char hex[65];
	const char *params[1];
	redisReply *r = NULL;
	PGresult *res = NULL;
	PGconn *conn;
	enum core_err er = CORE_OK;

	*id = 0;
	core_key_hash(secret, hex);
	/* A key seen in the last minute: Redis knows it (revoking deletes
	 * this entry, so a revoked key fails at once). */
	if (core_redis_cmd(ctx->redis, &r, "GET weft:apikey:%s", hex) ==
	    CORE_OK) {
		if (r->type == REDIS_REPLY_STRING)
			*id = strtoll(r->str, NULL, 10);
		freeReplyObject(r);
		r = NULL;
		if (*id > 0)
			return CORE_OK;
	}
	if (ctx->db == NULL || (conn = core_db_conn(ctx->db)) == NULL)
		return CORE_EDB;
	params[0] = hex;
	/* weft_api_key() (0027_api_keys.sql) is SECURITY DEFINER: the pools
	 * may ask about one hash, never read the table. */
	res = PQexecParams(conn, "SELECT weft_api_key($1)", 1, NULL, params,
	    NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		core_log(CORE_LOG_ERROR, "apikey", "lookup failed: %s",
		    PQerrorMessage(conn));
		er = CORE_EDB;
		goto out;
	}
	*id = core_cell_bigint(res, 0, API_KEY__WEFT_API_KEY, *id);
	if (*id > 0 &&
	    core_redis_cmd(ctx->redis, &r, "SET weft:apikey:%s %lld EX 60", hex,
		*id) == CORE_OK)
		freeReplyObject(r);
out:
	PQclear(res);
	return er;
}

void
core_limits_md(struct core_buf *b, const struct core_conf *c, const char *base)
{
	struct core_limits l;

	core_limits(c, &l);
	core_buf_puts(b, "## Fair use and API keys\n\n");
	if (l.read_limit > 0)
		core_buf_printf(b,
		    "Every read that reaches a worker (a page not in the "
		    "cache, a search, the JSON API, MCP) is counted against "
		    "its client: an IPv4 address, or an IPv6 /64. A client "
		    "may make %ld such reads at once, then one more every "
		    "%.3g seconds (a token bucket of %ld requests refilled "
		    "over %ld seconds). Pages served from the cache are "
		    "never counted.\n\n",
		    l.read_limit, (double)l.read_window / (double)l.read_limit,
		    l.read_limit, l.read_window);
	else
		core_buf_puts(b,
		    "Reads are not limited by client on this site.\n\n");
	core_buf_printf(b,
	    "Past the limit the answer is `429 Too Many Requests`, in the "
	    "representation you asked for (HTML, markdown or JSON), with "
	    "the headers of the IETF draft "
	    "draft-ietf-httpapi-ratelimit-headers-10:\n\n"
	    "```\n"
	    "Retry-After: 1\n"
	    "RateLimit-Policy: \"read\";q=%ld;w=%ld\n"
	    "RateLimit: \"read\";r=0;t=1\n"
	    "```\n\n"
	    "`q` requests in `w` seconds; `r` requests left and `t` seconds "
	    "until the next one (on a 429, equal to `Retry-After`). Wait "
	    "that long before you retry.\n\n",
	    l.read_limit, l.read_window);
	core_buf_printf(b,
	    "For more, sign in and create an API key on "
	    "[your account](%s/account) (it is shown once; revoke it there "
	    "too). Send it with every request:\n\n"
	    "```\n"
	    "curl -H 'Authorization: Bearer weft_...' "
	    "'%s/search?q=graph+neural+networks&format=json'\n"
	    "```\n\n"
	    "A key may make %ld reads in %ld seconds, counted per key "
	    "wherever you send it from, and every response to it carries "
	    "`RateLimit-Policy: \"key\";q=%ld;w=%ld` and `RateLimit`. A "
	    "request with a key is answered by a worker, never from a "
	    "shared cache. An unknown or revoked key gets `401` with "
	    "`WWW-Authenticate: Bearer realm=\"weft\", "
	    "error=\"invalid_token\"` at once (send no header to read "
	    "anonymously). Keys work on every read: pages, the JSON API, "
	    "search and MCP (`%s/mcp`).\n",
	    base, base, l.key_limit, l.key_window, l.key_limit, l.key_window,
	    base);
}
