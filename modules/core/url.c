/*
 * url.c -- percent-decoding and encoding, query strings and form bodies
 * (application/x-www-form-urlencoded), Cookie headers, and the key/value
 * list they fill.  All of it is client input: every decoded string is
 * checked to be valid UTF-8 without NUL before any handler sees it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"

/* More pairs than any form of ours has; beyond it is an attack. */
#define QUERY_MAXPAIRS 256
/* Browsers send at most 180 or so cookies per host; past that, ignore. */
#define COOKIE_MAXPAIRS 256

/* The value of hex digit c, or -1. */
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

enum core_err
core_url_decode(const char *in, size_t n, int plus_space, char **out,
    size_t *outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	char *d = NULL;
	size_t i, len = 0;
	enum core_err er = CORE_EINPUT;
	int hi, lo;

	*out = NULL;
	if (outlen != NULL)
		*outlen = 0;
	/* Decoding never grows the string. */
	d = core_xcalloc(1, n + 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '%') {
			/* "%", "%4" and "%zz" are errors, not literals:
			 * guessing what a broken client meant is how
			 * two parsers come to disagree. */
			if (n - i < 3 || (hi = hexval(s[i + 1])) < 0 ||
			    (lo = hexval(s[i + 2])) < 0)
				goto out;
			d[len++] = (char)(hi << 4 | lo);
			i += 2;
		} else if (s[i] == '+' && plus_space)
			d[len++] = ' ';
		else
			d[len++] = (char)s[i];
	}
	/* Rejects raw and encoded NUL (C strings would be cut short) and
	 * invalid UTF-8, overlong "%C0%AF" for "/" among it. */
	if (!core_utf8_valid(d, len))
		goto out;
	d[len] = '\0';
	*out = d;
	d = NULL;
	if (outlen != NULL)
		*outlen = len;
	er = CORE_OK;
out:
	free(d);
	return er;
}

void
core_url_encode(struct core_buf *b, const char *s, int keep_slash)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	char esc[3];

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		/* RFC 3986, 2.3: only unreserved characters pass. */
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' ||
		    *p == '_' || *p == '~' || (*p == '/' && keep_slash)) {
			core_buf_putc(b, (char)*p);
			continue;
		}
		esc[0] = '%';
		esc[1] = hex[*p >> 4];
		esc[2] = hex[*p & 0xf];
		core_buf_put(b, esc, sizeof(esc));
	}
}

/* Appends a pair, taking ownership of key and val. */
static void
params_add(struct core_params *p, char *key, char *val)
{
	p->v = core_xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n].key = key;
	p->v[p->n].val = val;
	p->n++;
}

enum core_err
core_query_parse(const char *s, size_t n, struct core_params *p)
{
	const char *pair, *end, *eq, *amp;
	char *key = NULL, *val = NULL;
	enum core_err er = CORE_OK;

	p->v = NULL;
	p->n = 0;
	if (s == NULL)
		return CORE_OK;
	end = s + n;
	for (pair = s; pair < end; pair = amp + 1) {
		if ((amp = memchr(pair, '&', (size_t)(end - pair))) == NULL)
			amp = end;
		/* "a&&b" and a trailing '&' give empty pairs: skip. */
		if (amp == pair)
			continue;
		if (p->n == QUERY_MAXPAIRS) {
			er = CORE_EINPUT;
			goto out;
		}
		/* "flag" without '=' is the key "flag" with value "". */
		if ((eq = memchr(pair, '=', (size_t)(amp - pair))) == NULL)
			eq = amp;
		if ((er = core_url_decode(pair, (size_t)(eq - pair), 1, &key,
			 NULL)) != CORE_OK)
			goto out;
		if (eq == amp)
			val = core_xstrdup("");
		else if ((er = core_url_decode(eq + 1, (size_t)(amp - eq - 1),
			      1, &val, NULL)) != CORE_OK)
			goto out;
		params_add(p, key, val);
		key = val = NULL;
	}
out:
	free(key);
	free(val);
	if (er != CORE_OK)
		core_params_free(p);
	return er;
}

/* 1 if c is HTTP optional whitespace. */
static int
ows(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * 1 if s[0..n) may be a cookie name or value: valid UTF-8 and no
 * controls.  A cookie carrying CR, LF or NUL was not set by us, and
 * would only cause trouble further on (logs, headers).
 */
static int
cookie_ok(const char *s, size_t n, int name)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
		/* RFC 6265: a name is a token, so no space or separator
		 * that could confuse a later "a=b" split. */
		if (name && (s[i] == ' ' || s[i] == '"' || s[i] == ','))
			return 0;
	}
	return core_utf8_valid(s, n);
}

/*
 * The end of the cookie pair that starts at s: the next ';' or ',', or
 * the end of the string.  nginx's $cookie_NAME splits on both, and a
 * cookie value never holds either (RFC 6265, 4.1.1: cookie-octet), so
 * the workers split where nginx does.
 */
static const char *
pair_end(const char *s)
{
	return s + strcspn(s, ";,");
}

void
core_cookie_parse(const char *header, struct core_params *p)
{
	const char *pair, *semi, *eq, *k, *ke, *v, *ve;

	if (header == NULL)
		return;
	for (pair = header; *pair != '\0'; pair = *semi ? semi + 1 : semi) {
		semi = pair_end(pair);
		if (p->n == COOKIE_MAXPAIRS)
			break;
		/* A pair without '=' is not a cookie (RFC 6265, 5.2). */
		eq = memchr(pair, '=', (size_t)(semi - pair));
		if (eq == NULL)
			continue;
		/* Trims whitespace around name and value. */
		for (k = pair; k < eq && ows(*k); k++)
			;
		for (ke = eq; ke > k && ows(ke[-1]); ke--)
			;
		for (v = eq + 1; v < semi && ows(*v); v++)
			;
		for (ve = semi; ve > v && ows(ve[-1]); ve--)
			;
		if (ke == k)
			continue;
		/* Quotes are part of the syntax, not of the value. */
		if (ve - v >= 2 && *v == '"' && ve[-1] == '"') {
			v++;
			ve--;
		}
		if (!cookie_ok(k, (size_t)(ke - k), 1) ||
		    !cookie_ok(v, (size_t)(ve - v), 0))
			continue;
		params_add(p, core_xstrndup(k, (size_t)(ke - k)),
		    core_xstrndup(v, (size_t)(ve - v)));
	}
}

/*
 * The one rule for "this request carries the session cookie", the same
 * as nginx's map in upstreams.conf.in: some pair of the header, split on
 * ';' and ',', whose name (spaces and tabs around it skipped) is name
 * in any ASCII case, followed by '='; the value does not matter.
 */
int
core_cookie_has(const char *header, const char *name)
{
	const char *s;
	size_t n;

	if (header == NULL || name == NULL || (n = strlen(name)) == 0)
		return 0;
	for (s = header; *s != '\0'; s = *s ? s + 1 : s) {
		while (ows(*s))
			s++;
		if (strncasecmp(s, name, n) == 0) {
			const char *t = s + n;

			while (ows(*t))
				t++;
			if (*t == '=')
				return 1;
		}
		s = pair_end(s);
	}
	return 0;
}

const char *
core_params_get(const struct core_params *p, const char *key)
{
	size_t i;

	if (p == NULL || key == NULL)
		return NULL;
	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].key, key) == 0)
			return p->v[i].val;
	return NULL;
}

void
core_params_free(struct core_params *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++) {
		free(p->v[i].key);
		free(p->v[i].val);
	}
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
