/*
 * buf.c -- growable byte buffers and the sink that appends to one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Makes room for n more bytes plus the terminating NUL. */
static void
reserve(struct core_buf *b, size_t n)
{
	size_t cap;

	if (b->len + n + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->ptr = core_xrealloc(b->ptr, cap);
	b->cap = cap;
}

void
core_buf_put(struct core_buf *b, const void *p, size_t n)
{
	reserve(b, n);
	if (n > 0)
		memcpy(b->ptr + b->len, p, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void
core_buf_puts(struct core_buf *b, const char *s)
{
	core_buf_put(b, s, strlen(s));
}

void
core_buf_putc(struct core_buf *b, char c)
{
	core_buf_put(b, &c, 1);
}

/*
 * Formats straight into the free space when the result fits (the usual
 * case once a buffer has grown), so most calls format once, not twice.
 */
void
core_buf_vprintf(struct core_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	size_t room;
	int n;

	reserve(b, 64);
	room = b->cap - b->len;
	va_copy(cp, ap);
	n = vsnprintf(b->ptr + b->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		b->ptr[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		reserve(b, (size_t)n);
		vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void
core_buf_printf(struct core_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	core_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
core_buf_reset(struct core_buf *b)
{
	b->len = 0;
	if (b->ptr != NULL)
		b->ptr[0] = '\0';
}

const char *
core_buf_cstr(struct core_buf *b)
{
	return b->ptr != NULL ? b->ptr : "";
}

char *
core_buf_steal(struct core_buf *b)
{
	char *p;

	reserve(b, 0);
	p = b->ptr;
	p[b->len] = '\0';
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

void
core_buf_free(struct core_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

static void
buf_write(void *arg, const char *p, size_t n)
{
	core_buf_put(arg, p, n);
}

struct core_sink
core_buf_sink(struct core_buf *b)
{
	struct core_sink s = { buf_write, b };

	return s;
}

uint64_t
core_fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}
