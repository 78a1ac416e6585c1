/*
 * alloc.c -- allocation that aborts on exhaustion.  A worker serves one
 * request at a time; aborting lets nginx answer 502 for that request and
 * weftd restart the worker, and removes error paths nobody tests.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static void
oom(void)
{
	static const char msg[] = "{\"level\":\"error\",\"event\":\"oom\"}\n";

	fwrite(msg, 1, sizeof(msg) - 1, stderr);
	abort();
}

void *
core_xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if ((p = calloc(nmemb ? nmemb : 1, size ? size : 1)) == NULL)
		oom();
	return p;
}

void *
core_xrealloc(void *p, size_t size)
{
	if ((p = realloc(p, size ? size : 1)) == NULL)
		oom();
	return p;
}

char *
core_xstrdup(const char *s)
{
	return core_xstrndup(s, strlen(s));
}

char *
core_xstrndup(const char *s, size_t n)
{
	char *p;

	p = core_xcalloc(1, n + 1);
	memcpy(p, s, n);
	return p;
}

char *
core_xasprintf(const char *fmt, ...)
{
	struct core_buf b = CORE_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	core_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return core_buf_steal(&b);
}
