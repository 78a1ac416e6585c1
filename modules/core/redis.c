/*
 * redis.c -- a Redis connection that fails soft.  Redis holds only what
 * can be rebuilt (cached pages, sessions may live there, rate-limit
 * counters), so every failure is CORE_ECACHE and callers carry on
 * without it.  A broken connection is retried at most once a second so
 * that a Redis outage costs each request a failed call, not a connect
 * timeout.  hiredis 0.14 (Debian 12): the old API.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <hiredis.h>

#include "core.h"

struct core_redis {
	redisContext *c;
	char *path;
	time_t last_try;
};

static void
redis_connect(struct core_redis *r)
{
	struct timeval tv = { 0, 200000 };
	time_t now = time(NULL);
	const char *colon;

	if (r->c != NULL || now == r->last_try)
		return;
	r->last_try = now;
	/* "host:port" for a Redis shared by several machines, else a
	 * unix socket path. */
	if (r->path[0] != '/' && (colon = strrchr(r->path, ':')) != NULL) {
		char host[256];

		snprintf(host, sizeof(host), "%.*s", (int)(colon - r->path),
		    r->path);
		r->c = redisConnectWithTimeout(host, atoi(colon + 1), tv);
	} else
		r->c = redisConnectUnixWithTimeout(r->path, tv);
	if (r->c == NULL || r->c->err) {
		core_log(CORE_LOG_WARN, "redis", "cannot connect to %s: %s",
		    r->path, r->c != NULL ? r->c->errstr : "no memory");
		redisFree(r->c);
		r->c = NULL;
		return;
	}
	/* A command that hangs must not hang the request. */
	redisSetTimeout(r->c, tv);
}

struct core_redis *
core_redis_open(const char *path)
{
	struct core_redis *r;

	r = core_xcalloc(1, sizeof(*r));
	r->path = core_xstrdup(path);
	redis_connect(r);
	return r;
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

void
core_redis_close(struct core_redis *r)
{
	if (r == NULL)
		return;
	redisFree(r->c);
	free(r->path);
	free(r);
}
