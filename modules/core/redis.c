/*
 * redis.c -- a Redis connection that fails soft.  Redis holds only what
 * can be rebuilt (cached pages, sessions may live there, rate-limit
 * counters), so every failure is CORE_ECACHE and callers carry on
 * without it.  A broken connection is retried at most once a second so
 * that a Redis outage costs each request a failed call, not a connect
 * timeout.
 *
 * Where Redis is: a unix socket path, "host:port" ("[v6]:port") for a
 * Redis shared by several worker hosts, or a set of Sentinels that name
 * the primary of a monitored group.  A password (AUTH, with a user for
 * Redis 6 ACLs) comes from a file.  hiredis 0.14 (Debian 12): the old
 * API, and no TLS (README, "Redis on its own machine").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"

#define REDIS_SENTINELS_MAX 8

struct core_redis {
	redisContext *c;
	char *where;             /* the configured address, for the log */
	char *user;              /* NULL: AUTH with the password alone */
	char *password;          /* NULL: no AUTH */
	char *master;            /* Sentinel: the monitored group's name */
	char *sentinel_password; /* NULL: the Sentinels ask for none */
	char *sentinels[REDIS_SENTINELS_MAX];
	int nsentinels;
	time_t last_try;
	struct core_pool pool; /* owns the strings but the two secrets */
};

static const struct timeval redis_timeout = { 0, 200000 };

/*
 * Connects to addr: a path when it starts with '/', else host:port or
 * [v6]:port.  NULL (logged) when that fails.
 */
static redisContext *
redis_dial(const char *addr)
{
	char host[256];
	const char *colon;
	redisContext *c;
	size_t hl;

	if (addr[0] == '/')
		c = redisConnectUnixWithTimeout(addr, redis_timeout);
	else if ((colon = strrchr(addr, ':')) == NULL) {
		core_log(CORE_LOG_ERROR, "redis",
		    "%s: neither a socket path nor host:port", addr);
		return NULL;
	} else {
		hl = (size_t)(colon - addr);
		if (addr[0] == '[' && hl >= 2 && addr[hl - 1] == ']')
			snprintf(host, sizeof(host), "%.*s", (int)hl - 2,
			    addr + 1);
		else
			snprintf(host, sizeof(host), "%.*s", (int)hl, addr);
		c = redisConnectWithTimeout(host, atoi(colon + 1),
		    redis_timeout);
	}
	if (c == NULL || c->err) {
		core_log(CORE_LOG_WARN, "redis", "cannot connect to %s: %s",
		    addr, c != NULL ? c->errstr : "no memory");
		redisFree(c);
		return NULL;
	}
	/* A command that hangs must not hang the request. */
	redisSetTimeout(c, redis_timeout);
	return c;
}

/* Runs a command on a fresh connection; NULL (logged) on any failure. */
static redisReply *
redis_ask(redisContext *c, const char *what, const char *fmt, ...)
{
	redisReply *rep;
	va_list ap;

	va_start(ap, fmt);
	rep = redisvCommand(c, fmt, ap);
	va_end(ap);
	if (rep == NULL || rep->type == REDIS_REPLY_ERROR) {
		core_log(CORE_LOG_WARN, "redis", "%s failed: %s", what,
		    rep != NULL ? rep->str : c->errstr);
		if (rep != NULL)
			freeReplyObject(rep);
		return NULL;
	}
	return rep;
}

/* AUTH on a new connection when a password is set; -1 (logged) if refused. */
static int
redis_auth(redisContext *c, const char *user, const char *password)
{
	redisReply *rep;

	if (password == NULL)
		return 0;
	rep = user != NULL ? redis_ask(c, "AUTH", "AUTH %s %s", user, password)
			   : redis_ask(c, "AUTH", "AUTH %s", password);
	if (rep == NULL)
		return -1;
	freeReplyObject(rep);
	return 0;
}

/*
 * The primary's address as the first Sentinel that answers names it
 * ("ip:port" in buf), or -1 (logged) when none does.
 */
static int
redis_sentinel_primary(const struct core_redis *r, char *buf, size_t len)
{
	redisContext *s;
	redisReply *rep;
	int i, found = -1;

	for (i = 0; i < r->nsentinels && found != 0; i++) {
		if ((s = redis_dial(r->sentinels[i])) == NULL)
			continue;
		if (redis_auth(s, NULL, r->sentinel_password) != 0) {
			redisFree(s);
			continue;
		}
		rep = redis_ask(s, "SENTINEL get-master-addr-by-name",
		    "SENTINEL get-master-addr-by-name %s", r->master);
		if (rep != NULL && rep->type == REDIS_REPLY_ARRAY &&
		    rep->elements == 2 &&
		    rep->element[0]->type == REDIS_REPLY_STRING &&
		    rep->element[1]->type == REDIS_REPLY_STRING) {
			snprintf(buf, len,
			    strchr(rep->element[0]->str, ':') != NULL
				? "[%s]:%s"
				: "%s:%s",
			    rep->element[0]->str, rep->element[1]->str);
			found = 0;
		}
		if (rep != NULL)
			freeReplyObject(rep);
		redisFree(s);
	}
	if (found != 0)
		core_log(CORE_LOG_WARN, "redis",
		    "no Sentinel named a primary for %s", r->master);
	return found;
}

/* 1 when c is a primary (ROLE's first element is "master"). */
static int
redis_is_primary(redisContext *c)
{
	redisReply *rep;
	int yes;

	if ((rep = redis_ask(c, "ROLE", "ROLE")) == NULL)
		return 0;
	yes = rep->type == REDIS_REPLY_ARRAY && rep->elements > 0 &&
	    rep->element[0]->type == REDIS_REPLY_STRING &&
	    strcmp(rep->element[0]->str, "master") == 0;
	freeReplyObject(rep);
	if (!yes)
		core_log(CORE_LOG_WARN, "redis",
		    "the address the Sentinels named is not a primary");
	return yes;
}

static void
redis_connect(struct core_redis *r)
{
	char addr[300];
	time_t now = time(NULL);

	if (r->c != NULL || now == r->last_try)
		return;
	r->last_try = now;
	if (r->nsentinels > 0) {
		if (redis_sentinel_primary(r, addr, sizeof(addr)) != 0)
			return;
	} else
		snprintf(addr, sizeof(addr), "%s", r->where);
	if ((r->c = redis_dial(addr)) == NULL)
		return;
	if (redis_auth(r->c, r->user, r->password) != 0 ||
	    (r->nsentinels > 0 && !redis_is_primary(r->c))) {
		redisFree(r->c);
		r->c = NULL;
	}
}

/* Splits the space- or comma-separated Sentinel list into r. */
static void
redis_sentinels(struct core_redis *r, const char *list)
{
	const char *p = list;
	size_t n;

	while (*p != '\0' && r->nsentinels < REDIS_SENTINELS_MAX) {
		p += strspn(p, " ,\t");
		if ((n = strcspn(p, " ,\t")) == 0)
			break;
		r->sentinels[r->nsentinels++] =
		    core_pool_keep(&r->pool, core_xstrndup(p, n));
		p += n;
	}
}

struct core_redis *
core_redis_open(const struct core_conf *conf)
{
	const char *where = core_conf_get(conf, "redis", "");
	const char *sentinels = core_conf_get(conf, "redis_sentinels", "");
	const char *user = core_conf_get(conf, "redis_user", "");
	struct core_redis *r;

	if (*where == '\0' && *sentinels == '\0')
		return NULL;
	r = core_xcalloc(1, sizeof(*r));
	if (*sentinels != '\0') {
		redis_sentinels(r, sentinels);
		r->master = core_pool_keep(&r->pool,
		    core_xstrdup(core_conf_get(conf, "redis_master", "weft")));
		r->where = core_pool_keep(&r->pool,
		    core_xasprintf("the primary of %s", r->master));
		(void)core_conf_secret(conf, "redis_sentinel_password_file",
		    &r->sentinel_password);
	} else
		r->where = core_pool_keep(&r->pool, core_xstrdup(where));
	if (*user != '\0')
		r->user = core_pool_keep(&r->pool, core_xstrdup(user));
	(void)core_conf_secret(conf, "redis_password_file", &r->password);
	redis_connect(r);
	return r;
}

const char *
core_redis_where(const struct core_redis *r)
{
	return r != NULL ? r->where : "(no Redis configured)";
}

enum core_err
core_redis_vcmd(struct core_redis *r, struct redisReply **replyp,
    const char *fmt, va_list ap)
{
	redisReply *rep;

	*replyp = NULL;
	if (r == NULL)
		return CORE_ECACHE;
	redis_connect(r);
	if (r->c == NULL)
		return CORE_ECACHE;
	rep = redisvCommand(r->c, fmt, ap);
	if (rep == NULL) {
		/* The connection is unusable after an I/O error. */
		core_log(CORE_LOG_WARN, "redis", "command failed: %s",
		    r->c->errstr);
		redisFree(r->c);
		r->c = NULL;
		return CORE_ECACHE;
	}
	if (rep->type == REDIS_REPLY_ERROR) {
		core_log(CORE_LOG_WARN, "redis", "error reply: %s", rep->str);
		/* A primary demoted by a failover answers writes with
		 * READONLY: ask the Sentinels again on the next call. */
		if (strncmp(rep->str, "READONLY", 8) == 0) {
			redisFree(r->c);
			r->c = NULL;
		}
		freeReplyObject(rep);
		return CORE_ECACHE;
	}
	*replyp = rep;
	return CORE_OK;
}

enum core_err
core_redis_cmd(struct core_redis *r, struct redisReply **replyp,
    const char *fmt, ...)
{
	enum core_err er;
	va_list ap;

	va_start(ap, fmt);
	er = core_redis_vcmd(r, replyp, fmt, ap);
	va_end(ap);
	return er;
}

enum core_err
core_redis_incr(struct core_redis *r, const char *key, long ttl, long long *n)
{
	struct redisReply *rep = NULL;
	enum core_err er;

	*n = 0;
	if ((er = core_redis_cmd(r, &rep, "INCR %s", key)) != CORE_OK)
		return er;
	*n = rep->type == REDIS_REPLY_INTEGER ? rep->integer : 0;
	freeReplyObject(rep);
	rep = NULL;
	/* A lost EXPIRE is the caller's to notice (TTL -1). */
	if (*n == 1 &&
	    core_redis_cmd(r, &rep, "EXPIRE %s %ld", key, ttl) == CORE_OK)
		freeReplyObject(rep);
	return CORE_OK;
}

/* Frees a secret, wiped first. */
static void
redis_forget(char *secret)
{
	if (secret != NULL)
		sodium_memzero(secret, strlen(secret));
	free(secret);
}

void
core_redis_close(struct core_redis *r)
{
	if (r == NULL)
		return;
	redisFree(r->c);
	redis_forget(r->password);
	redis_forget(r->sentinel_password);
	core_pool_free(&r->pool);
	free(r);
}
