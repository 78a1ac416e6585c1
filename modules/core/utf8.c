/*
 * utf8.c -- UTF-8 validation and cleaning.  Everything that reaches
 * XML, JSON or a database column passes through here first, so the
 * decoder must reject overlong forms, surrogates and code points above
 * U+10FFFF; utf8proc_iterate() already does all three.
 */
#include <stddef.h>

#include <utf8proc.h>

#include "core.h"

/*
 * Length of the "maximal subpart" of the invalid sequence at s[0..n):
 * the lead byte and the continuation bytes that could still have begun a
 * valid sequence (Unicode 15, 3.9, U+FFFD substitution).  Replacing each
 * maximal subpart by one U+FFFD is what browsers and ICU do, so our
 * output matches theirs byte for byte.
 */
static size_t
bad_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, k;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 1;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 2;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 3;
	else
		return 1;
	/* The second byte is narrowed to exclude overlongs, surrogates
	 * and code points past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	k = 1;
	if (k < n && s[k] >= lo && s[k] <= hi)
		k++;
	else
		return 1;
	while (k < n && k <= need && s[k] >= 0x80 && s[k] <= 0xbf)
		k++;
	return k;
}

/*
 * Decodes one code point at s[0..n), n > 0.  Returns its length in
 * bytes and sets *cp, or returns 0 when the sequence is invalid.
 */
static size_t
decode(const unsigned char *s, size_t n, utf8proc_int32_t *cp)
{
	utf8proc_ssize_t r;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	/* Never ask for more than 4 bytes: n may exceed ssize_t. */
	r = utf8proc_iterate(s, n < 4 ? (utf8proc_ssize_t)n : 4, cp);
	if (r <= 0 || !utf8proc_codepoint_valid(*cp))
		return 0;
	return (size_t)r;
}

int
core_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	utf8proc_int32_t cp;
	size_t i, len;

	for (i = 0; i < n; i += len) {
		if (p[i] == '\0')
			return 0;
		if ((len = decode(p + i, n - i, &cp)) == 0)
			return 0;
	}
	return 1;
}

/* 1 for the controls we drop: C0 but tab, LF and CR; DEL; C1. */
static int
dropped(utf8proc_int32_t cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\r';
	return cp >= 0x7f && cp <= 0x9f;
}

void
core_utf8_clean(struct core_buf *b, const char *s, size_t n)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *p = (const unsigned char *)s;
	utf8proc_int32_t cp;
	size_t i, run, len;

	if (n == 0)
		return;
	/* Copies runs of good bytes at once: most text needs no change. */
	run = 0;
	for (i = 0; i < n; i += len) {
		if ((len = decode(p + i, n - i, &cp)) != 0 && !dropped(cp))
			continue;
		core_buf_put(b, s + run, i - run);
		if (len == 0) {
			core_buf_put(b, fffd, sizeof(fffd) - 1);
			len = bad_len(p + i, n - i);
		}
		run = i + len;
	}
	core_buf_put(b, s + run, n - run);
}
