/*
 * test_utf8.c -- core_utf8_valid(), core_utf8_clean() and its variants,
 * and a comparison with a reference built on utf8proc's decoder (what
 * utf8.c used before it decoded by itself) over random bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"
#include "t.h"

#define V(lit) core_utf8_valid((lit), sizeof(lit) - 1)

/* core_utf8_clean() of the literal, as a fresh string. */
static char *
clean(const char *s, size_t n)
{
	struct core_buf b = CORE_BUF_INIT;

	core_utf8_clean(&b, s, n);
	return core_buf_steal(&b);
}

#define C(lit, want)                                                           \
	do {                                                                   \
		char *t_s = clean((lit), sizeof(lit) - 1);                     \
		T_STREQ(t_s, (want), "clean " #lit);                           \
		free(t_s);                                                     \
	} while (0)

/* ---- the reference: utf8proc decodes, the rest as documented ---- */

static size_t
ref_decode(const unsigned char *s, size_t n, utf8proc_int32_t *cp)
{
	utf8proc_ssize_t r;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	r = utf8proc_iterate(s, n < 4 ? (utf8proc_ssize_t)n : 4, cp);
	if (r <= 0 || !utf8proc_codepoint_valid(*cp))
		return 0;
	return (size_t)r;
}

/* Maximal subpart (Unicode 3.9), from the table of well-formed bytes. */
static size_t
ref_bad_len(const unsigned char *s, size_t n)
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
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < 2 || s[1] < lo || s[1] > hi)
		return 1;
	for (k = 2; k < n && k <= need && s[k] >= 0x80 && s[k] <= 0xbf; k++)
		;
	return k;
}

/* Clean with subst (NULL: none) the way utf8.c documents it. */
static void
ref_clean(struct core_buf *b, const char *s, size_t n,
    const char *const subst[128])
{
	const unsigned char *p = (const unsigned char *)s;
	utf8proc_int32_t cp;
	size_t i, len;

	for (i = 0; i < n; i += len) {
		if ((len = ref_decode(p + i, n - i, &cp)) == 0) {
			core_buf_puts(b, "\xef\xbf\xbd");
			len = ref_bad_len(p + i, n - i);
		} else if ((cp < 0x20 && cp != '\t' && cp != '\n' &&
			       cp != '\r') ||
		    (cp >= 0x7f && cp <= 0x9f))
			continue;
		else if (cp < 0x80 && subst != NULL && subst[cp] != NULL)
			core_buf_puts(b, subst[cp]);
		else
			core_buf_put(b, s + i, len);
	}
}

static int
ref_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	utf8proc_int32_t cp;
	size_t i, len;

	for (i = 0; i < n; i += len)
		if (p[i] == '\0' || (len = ref_decode(p + i, n - i, &cp)) == 0)
			return 0;
	return 1;
}

static unsigned long rnd_state = 12345;

static unsigned
rnd(void)
{
	rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rnd_state >> 33);
}

/*
 * Random strings biased to the interesting bytes: ASCII, controls,
 * specials, every lead byte, continuations.  Returns how many of
 * rounds disagreed with the reference.
 */
static int
compare_random(int rounds)
{
	/* Few stops (the 16-byte scan looks for them), and more than it
	 * takes (byte by byte), each with a control among them. */
	static const char *const few[128] = {
		['&'] = "&amp;",
		['<'] = "&lt;",
		['"'] = "&quot;",
		['\r'] = "&#13;",
	};
	static const char *const many[128] = {
		['&'] = "&",
		['<'] = "<",
		['>'] = ">",
		['"'] = "\"",
		['\''] = "'",
		['*'] = "\\*",
		['_'] = "\\_",
		['['] = "\\[",
		[']'] = "\\]",
		['`'] = "\\`",
		['\n'] = " ",
	};
	static const char *const *const tables[] = { few, many };
	static const unsigned char pick[] = { 'a', ' ', '&', '<', '"', '_', 0,
		0x01, 0x09, 0x0a, 0x0d, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
		0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xe6, 0xed, 0xef,
		0xf0, 0xf3, 0xf4, 0xf5, 0xff };
	const char *const *subst;
	char s[80];
	int r, bad = 0;
	size_t n, i;

	for (r = 0; r < rounds; r++) {
		struct core_buf want = CORE_BUF_INIT, got = CORE_BUF_INIT;
		struct core_buf wsub = CORE_BUF_INIT, gsub = CORE_BUF_INIT;

		/* Short strings, and long ones mostly of plain letters, so
		 * that whole blocks pass and a stop falls anywhere in one. */
		n = r % 2 ? rnd() % 16 : rnd() % sizeof(s);
		for (i = 0; i < n; i++) {
			if (r % 2 == 0 && rnd() % 8 != 0)
				s[i] = (char)('a' + rnd() % 26);
			else
				s[i] = (char)(rnd() % 4 == 0
					? rnd() % 256
					: pick[rnd() % sizeof(pick)]);
		}
		subst = tables[rnd() % 2];
		ref_clean(&want, s, n, NULL);
		core_utf8_clean(&got, s, n);
		ref_clean(&wsub, s, n, subst);
		core_utf8_clean_subst(core_buf_sink(&gsub), s, n, subst);
		if (want.len != got.len ||
		    memcmp(core_buf_cstr(&want), core_buf_cstr(&got),
			want.len) != 0 ||
		    wsub.len != gsub.len ||
		    memcmp(core_buf_cstr(&wsub), core_buf_cstr(&gsub),
			wsub.len) != 0 ||
		    ref_valid(s, n) != core_utf8_valid(s, n) ||
		    (core_utf8_clean_span(s, n) == n) !=
			(want.len == n &&
			    memcmp(core_buf_cstr(&want), s, n) == 0))
			bad++;
		core_buf_free(&want);
		core_buf_free(&got);
		core_buf_free(&wsub);
		core_buf_free(&gsub);
	}
	return bad;
}

int
main(void)
{
	char *s;

	/* Valid. */
	T_OK(core_utf8_valid("", 0), "empty is valid");
	T_OK(V("hello"), "ASCII");
	T_OK(V("\xc3\xa9mile"), "2-byte é");
	T_OK(V("\xe6\xb7\xb1\xe5\xba\xa6"), "3-byte CJK");
	T_OK(V("\xf0\x9f\x98\x80"), "4-byte emoji");
	T_OK(V("\xf4\x8f\xbf\xbf"), "U+10FFFF");
	T_OK(V("\xee\x80\x80"), "U+E000 private use");
	T_OK(V("\xef\xbf\xbf"), "U+FFFF noncharacter is still UTF-8");
	T_OK(V("\t\n\r\x01\x7f"), "controls are valid UTF-8");

	/* Invalid. */
	T_OK(!V("a\0b"), "NUL");
	T_OK(!V("\x80"), "lone continuation");
	T_OK(!V("\xbf"), "lone continuation 0xbf");
	T_OK(!V("\xc3"), "truncated 2-byte");
	T_OK(!V("\xc3\x28"), "bad continuation");
	T_OK(!V("\xc0\xaf"), "overlong / (2 bytes)");
	T_OK(!V("\xc1\xbf"), "overlong 0x7f");
	T_OK(!V("\xe0\x80\xaf"), "overlong / (3 bytes)");
	T_OK(!V("\xe0\x9f\xbf"), "overlong U+07FF");
	T_OK(!V("\xf0\x80\x80\xaf"), "overlong / (4 bytes)");
	T_OK(!V("\xf0\x8f\xbf\xbf"), "overlong U+FFFF");
	T_OK(!V("\xed\xa0\x80"), "surrogate U+D800");
	T_OK(!V("\xed\xbf\xbf"), "surrogate U+DFFF");
	T_OK(!V("\xed\xa0\xbd\xed\xb8\x80"), "CESU-8 surrogate pair");
	T_OK(!V("\xf4\x90\x80\x80"), "U+110000");
	T_OK(!V("\xf5\x80\x80\x80"), "lead 0xf5");
	T_OK(!V("\xf8\x88\x80\x80\x80"), "5-byte form");
	T_OK(!V("\xfe"), "0xfe");
	T_OK(!V("\xff"), "0xff");
	T_OK(!V("\xe6\xb7"), "truncated 3-byte");
	T_OK(!V("\xf0\x9f\x98"), "truncated 4-byte");
	T_OK(!core_utf8_valid("\xc3\xa9", 1), "length respected");
	T_OK(core_utf8_valid("ab\xff", 2), "bytes past n not read");

	/* Clean: valid text unchanged. */
	C("", "");
	C("plain text", "plain text");
	C("tab\there\nCR\r", "tab\there\nCR\r");
	C("\xc3\xa9mile \xe6\xb7\xb1 \xf0\x9f\x98\x80",
	    "\xc3\xa9mile \xe6\xb7\xb1 \xf0\x9f\x98\x80");
	/* Controls dropped. */
	C("a\0b", "ab");
	C("a\x01\x1b[31mb", "a[31mb");
	C("a\x7f"
	  "b",
	    "ab");
	C("a\xc2\x80\xc2\x9f"
	  "b",
	    "ab");
	C("a\xc2\xa0"
	  "b",
	    "a\xc2\xa0"
	    "b");
	C("\x0b\x0c", "");
	/* Invalid sequences replaced, one U+FFFD per maximal subpart. */
	C("a\xff"
	  "b",
	    "a\xef\xbf\xbd"
	    "b");
	C("\xc3\x28", "\xef\xbf\xbd(");
	C("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	C("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	C("\xe6\xb7", "\xef\xbf\xbd");
	C("\xe6\xb7x", "\xef\xbf\xbdx");
	C("\xf0\x9f\x98", "\xef\xbf\xbd");
	C("\xf0\x9f\x98\xf0\x9f\x98\x80", "\xef\xbf\xbd\xf0\x9f\x98\x80");
	C("\xf4\x90\x80\x80",
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	C("\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd");

	/* Clean appends and its output is always valid. */
	{
		struct core_buf b = CORE_BUF_INIT;

		core_buf_puts(&b, "x:");
		core_utf8_clean(&b, "\xff\xfe\xc3", 3);
		T_STREQ(core_buf_cstr(&b),
		    "x:\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "appends");
		T_OK(core_utf8_valid(b.ptr, b.len), "result valid");
		core_buf_free(&b);
	}
	s = clean("\xe0\x80\x80\xed\xbf\xbf\xf4\xbf\xbf\xbfok", 12);
	T_OK(core_utf8_valid(s, strlen(s)), "mixed garbage cleans valid");
	T_OK(strstr(s, "ok") != NULL, "text after garbage kept");
	free(s);

	/* Substitutions: specials replaced, the rest cleaned as before. */
	{
		static const char
		    *const subst[128] = { ['&'] = "&amp;", ['<'] = "&lt;" };
		struct core_buf b = CORE_BUF_INIT;

		core_utf8_clean_subst(core_buf_sink(&b), "a&b<\x01\xff>", 7,
		    subst);
		T_STREQ(core_buf_cstr(&b), "a&amp;b&lt;\xef\xbf\xbd>",
		    "subst and clean in one pass");
		core_buf_free(&b);
	}
	T_OK(core_utf8_clean_span("abc\xc3\xa9", 5) == 5, "clean span: all");
	T_OK(core_utf8_clean_span("ab\x01c", 4) == 2,
	    "span stops at a control");
	T_OK(core_utf8_clean_span("ab\xc2\x85", 4) == 2, "span stops at C1");
	T_OK(core_utf8_clean_span("a\xe6\xb7", 3) == 1,
	    "span stops at a cut sequence");
	T_OK(compare_random(200000) == 0,
	    "clean, subst, span and valid agree with utf8proc on random bytes");

	return T_DONE();
}
