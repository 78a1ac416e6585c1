/*
 * fuzz_form.c -- core_query_parse() as it reads form bodies
 * (application/x-www-form-urlencoded, '+' is a space), against a small
 * reference decoder written from the WHATWG URL spec's rules: the same
 * verdict and the same pairs in the same order.  A parsed form, encoded
 * again (spaces as '+'), parses back to the same pairs.
 *
 * The input is an exact-size heap copy, so ASan sees any read past its
 * end (forms are not NUL-terminated in the request buffer either).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXPAIRS 256 /* core_query_parse()'s documented limit */

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Reference: decodes s[0..n) with '+' as space into b.  -1 for a '%'
 * not followed by two hex digits, a NUL (raw or encoded) or a result
 * that is not valid UTF-8.
 */
static int
ref_decode(const char *s, size_t n, struct core_buf *b)
{
	size_t i;
	int hi, lo;

	core_buf_reset(b);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%') {
			if (n - i < 3)
				return -1;
			hi = hexval((unsigned char)s[i + 1]);
			lo = hexval((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = (unsigned char)(hi * 16 + lo);
			i += 2;
		} else if (c == '+')
			c = ' ';
		if (c == '\0')
			return -1;
		core_buf_putc(b, (char)c);
	}
	return core_utf8_valid(core_buf_cstr(b), b->len) ? 0 : -1;
}

/* Reference parse: compares with p pair by pair; 0 when they agree. */
static int
ref_agrees(const char *s, size_t n, enum core_err er,
    const struct core_params *p)
{
	struct core_buf k = CORE_BUF_INIT, v = CORE_BUF_INIT;
	const char *pair, *end = s + n, *amp, *eq;
	size_t npairs = 0;
	int bad = 0, differ = 0;

	for (pair = s; pair < end && !bad; pair = amp + 1) {
		amp = memchr(pair, '&', (size_t)(end - pair));
		if (amp == NULL)
			amp = end;
		if (amp == pair)
			continue;
		if (npairs == MAXPAIRS) {
			bad = 1;
			break;
		}
		eq = memchr(pair, '=', (size_t)(amp - pair));
		if (eq == NULL)
			eq = amp;
		if (ref_decode(pair, (size_t)(eq - pair), &k) != 0) {
			bad = 1;
			break;
		}
		if (eq == amp)
			core_buf_reset(&v);
		else if (ref_decode(eq + 1, (size_t)(amp - eq - 1), &v) != 0) {
			bad = 1;
			break;
		}
		if (er == CORE_OK &&
		    (npairs >= p->n ||
			strcmp(p->v[npairs].key, core_buf_cstr(&k)) != 0 ||
			strcmp(p->v[npairs].val, core_buf_cstr(&v)) != 0))
			differ = 1;
		npairs++;
	}
	core_buf_free(&k);
	core_buf_free(&v);
	if (bad)
		return er == CORE_OK ? -1 : 0; /* both must reject */
	if (er != CORE_OK)
		return -1;
	return differ || npairs != p->n ? -1 : 0;
}

/* Encodes p as a form body, spaces as '+'. */
static void
encode(struct core_buf *b, const struct core_params *p)
{
	struct core_buf tmp = CORE_BUF_INIT;
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const char *kv[2] = { p->v[i].key, p->v[i].val };

		if (i > 0)
			core_buf_putc(b, '&');
		for (j = 0; j < 2; j++) {
			const char *q;

			if (j == 1)
				core_buf_putc(b, '=');
			core_buf_reset(&tmp);
			core_url_encode(&tmp, kv[j], 0);
			/* %20 -> '+', the form spelling of a space. */
			for (q = core_buf_cstr(&tmp); *q != '\0'; q++) {
				if (strncmp(q, "%20", 3) == 0) {
					core_buf_putc(b, '+');
					q += 2;
				} else
					core_buf_putc(b, *q);
			}
		}
	}
	core_buf_free(&tmp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_params p = { NULL, 0 }, q = { NULL, 0 };
	struct core_buf b = CORE_BUF_INIT;
	enum core_err er;
	char *copy;
	size_t i;

	if ((copy = malloc(size ? size : 1)) == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);

	er = core_query_parse(copy, size, &p);
	if (er != CORE_OK && (p.n != 0 || p.v != NULL))
		abort();
	if (ref_agrees(copy, size, er, &p) != 0)
		abort();
	if (er == CORE_OK) {
		encode(&b, &p);
		/* An encoded form has only unreserved bytes, % + = &. */
		for (i = 0; i < b.len; i++)
			if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz0123456789"
				   "-._~%+=&",
				b.ptr[i]) == NULL)
				abort();
		if (core_query_parse(b.ptr, b.len, &q) != CORE_OK)
			abort();
		/* Even "=" (empty key and value) survives: it encodes to
		 * "=", which is not an empty pair. */
		if (q.n != p.n)
			abort();
		for (i = 0; i < p.n; i++)
			if (strcmp(p.v[i].key, q.v[i].key) != 0 ||
			    strcmp(p.v[i].val, q.v[i].val) != 0)
				abort();
	}
	core_params_free(&p);
	core_params_free(&q);
	core_buf_free(&b);
	free(copy);
	return 0;
}
