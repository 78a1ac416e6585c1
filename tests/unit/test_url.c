/*
 * test_url.c -- percent-decoding and encoding, query strings, cookies.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

/* Decodes the literal; returns the result or NULL on CORE_EINPUT. */
static char *
dec(const char *s, size_t n, int plus)
{
	static char poison;
	char *out = &poison;
	size_t len = 99;
	enum core_err er;

	er = core_url_decode(s, n, plus, &out, &len);
	if (er != CORE_OK) {
		/* The contract: *out is NULL on error. */
		T_OK(er == CORE_EINPUT && out == NULL, "error leaves NULL");
		return NULL;
	}
	T_EQ(len, strlen(out), "outlen matches");
	return out;
}

#define D_OK(lit, plus, want)                                                  \
	do {                                                                   \
		char *t_s = dec((lit), sizeof(lit) - 1, (plus));               \
		T_STREQ(t_s, (want), "decode " #lit);                          \
		free(t_s);                                                     \
	} while (0)
#define D_BAD(lit, plus)                                                       \
	do {                                                                   \
		char *t_s = dec((lit), sizeof(lit) - 1, (plus));               \
		T_OK(t_s == NULL, "reject " #lit);                             \
		free(t_s);                                                     \
	} while (0)

static char *
enc(const char *s, int keep_slash)
{
	struct core_buf b = CORE_BUF_INIT;

	core_url_encode(&b, s, keep_slash);
	core_buf_putc(&b, '\0'); /* so "" gives "" too */
	return core_buf_steal(&b);
}

static void
test_decode(void)
{
	char *out;
	size_t len;

	D_OK("", 0, "");
	D_OK("abc", 0, "abc");
	D_OK("a%2Fb", 0, "a/b");
	D_OK("a%2fb", 0, "a/b");
	D_OK("%41%42%43", 0, "ABC");
	D_OK("%25", 0, "%");
	D_OK("%2525", 0, "%25");
	D_OK("a+b", 1, "a b");
	D_OK("a+b", 0, "a+b");
	D_OK("a%2Bb", 1, "a+b");
	D_OK("%20", 0, " ");
	D_OK("%C3%A9mile", 1, "\xc3\xa9mile");
	D_OK("\xc3\xa9", 0, "\xc3\xa9");
	D_OK("%E6%B7%B1%E5%BA%A6", 0, "\xe6\xb7\xb1\xe5\xba\xa6");
	D_OK("%F0%9F%98%80", 0, "\xf0\x9f\x98\x80");
	D_OK("%0A%09", 0, "\n\t");

	D_BAD("%", 0);
	D_BAD("%4", 0);
	D_BAD("a%0", 0);
	D_BAD("%zz", 0);
	D_BAD("%g0", 0);
	D_BAD("%0g", 0);
	D_BAD("%%41", 0);
	D_BAD("% 41", 0);
	D_BAD("%00", 0);
	D_BAD("a%00b", 1);
	D_BAD("a\0b", 0);
	D_BAD("%C3%28", 0);
	D_BAD("%C3", 0);
	D_BAD("%C0%AF", 0);
	D_BAD("%E0%80%AF", 0);
	D_BAD("%ED%A0%80", 0);
	D_BAD("%F4%90%80%80", 0);
	D_BAD("%FF", 0);
	D_BAD("\xff", 0);
	D_BAD("\xc0\xaf", 0);

	/* Only n bytes are read. */
	out = NULL;
	T_EQ(core_url_decode("ab%zz", 2, 0, &out, &len), CORE_OK, "stops at n");
	T_STREQ(out, "ab", "prefix decoded");
	free(out);
	T_EQ(core_url_decode("%4", 3, 0, &out, NULL), CORE_EINPUT,
	    "escape cut by NUL at n");
	T_EQ(core_url_decode("x", 1, 0, &out, NULL), CORE_OK,
	    "outlen may be NULL");
	free(out);
}

static void
test_encode(void)
{
	char *s;

	s = enc("", 0);
	T_STREQ(s, "", "encode empty");
	free(s);
	s = enc("AZaz09-._~", 0);
	T_STREQ(s, "AZaz09-._~", "unreserved pass");
	free(s);
	s = enc("a b&c=d/e?f#g%h+i", 0);
	T_STREQ(s, "a%20b%26c%3Dd%2Fe%3Ff%23g%25h%2Bi", "reserved encoded");
	free(s);
	s = enc("a/b c", 1);
	T_STREQ(s, "a/b%20c", "keep_slash");
	free(s);
	s = enc("\xc3\xa9\xff\x01", 0);
	T_STREQ(s, "%C3%A9%FF%01", "high bytes and controls");
	free(s);
	/* Round trip through the decoder. */
	{
		const char *orig = "x=1&y=\xc3\xa9 \xe6\xb7\xb1/+%";
		char *out = NULL;
		size_t len;

		s = enc(orig, 0);
		T_EQ(core_url_decode(s, strlen(s), 1, &out, &len), CORE_OK,
		    "round trip decodes");
		T_STREQ(out, orig, "round trip equal");
		free(out);
		free(s);
	}
}

static void
test_query(void)
{
	struct core_params p = { NULL, 0 };
	struct core_buf b = CORE_BUF_INIT;
	const char *q;
	int i;

	q = "a=1&b=two+words&a=3&empty=&flag&&x=%C3%A9&";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_OK, "query parses");
	T_EQ(p.n, 6, "six pairs (empty skipped)");
	T_STREQ(core_params_get(&p, "a"), "1", "first a wins");
	T_STREQ(p.v[2].key, "a", "repeat key kept in order");
	T_STREQ(p.v[2].val, "3", "repeat value");
	T_STREQ(core_params_get(&p, "b"), "two words", "plus is space");
	T_STREQ(core_params_get(&p, "empty"), "", "empty value");
	T_STREQ(core_params_get(&p, "flag"), "", "no '=' gives \"\"");
	T_STREQ(core_params_get(&p, "x"), "\xc3\xa9", "decoded value");
	T_OK(core_params_get(&p, "missing") == NULL, "missing key NULL");
	T_OK(core_params_get(&p, "A") == NULL, "keys case-sensitive");
	core_params_free(&p);
	T_EQ(p.n, 0, "free empties");
	T_OK(p.v == NULL, "free NULLs");
	core_params_free(&p);

	T_EQ(core_query_parse("", 0, &p), CORE_OK, "empty query");
	T_EQ(p.n, 0, "no pairs");
	core_params_free(&p);
	T_EQ(core_query_parse("&&&", 3, &p), CORE_OK, "only '&'");
	T_EQ(p.n, 0, "no pairs from &&&");
	core_params_free(&p);
	T_EQ(core_query_parse(NULL, 0, &p), CORE_OK, "NULL query");
	core_params_free(&p);

	q = "q=a=b&%3D=%26";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_OK, "'=' in value");
	T_STREQ(core_params_get(&p, "q"), "a=b", "split at first '='");
	T_STREQ(core_params_get(&p, "="), "&", "encoded = and &");
	core_params_free(&p);

	q = "=v";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_OK, "empty key");
	T_STREQ(core_params_get(&p, ""), "v", "empty key kept");
	core_params_free(&p);

	q = "a=1&b=%zz";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_EINPUT, "bad escape");
	T_EQ(p.n, 0, "empty after error");
	T_OK(p.v == NULL, "nothing leaked after error");
	q = "a=%00";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_EINPUT, "encoded NUL");
	T_EQ(core_query_parse("a=1\0b", 5, &p), CORE_EINPUT, "raw NUL");
	q = "%C0%AF=1";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_EINPUT, "overlong key");
	q = "a=%C3%28";
	T_EQ(core_query_parse(q, strlen(q), &p), CORE_EINPUT,
	    "invalid UTF-8 value");

	/* The pair limit: 256 pass, 257 and 300 do not. */
	for (i = 0; i < 256; i++)
		core_buf_printf(&b, "k%d=%d&", i, i);
	T_EQ(core_query_parse(b.ptr, b.len, &p), CORE_OK, "256 pairs");
	T_EQ(p.n, 256, "256 kept");
	T_STREQ(core_params_get(&p, "k255"), "255", "last pair");
	core_params_free(&p);
	core_buf_puts(&b, "&&&&");
	T_EQ(core_query_parse(b.ptr, b.len, &p), CORE_OK,
	    "empty pairs do not count");
	core_params_free(&p);
	core_buf_puts(&b, "one=more");
	T_EQ(core_query_parse(b.ptr, b.len, &p), CORE_EINPUT, "257 pairs");
	T_EQ(p.n, 0, "empty after limit");
	for (i = 257; i < 300; i++)
		core_buf_printf(&b, "&k%d=%d", i, i);
	T_EQ(core_query_parse(b.ptr, b.len, &p), CORE_EINPUT, "300 pairs");
	core_buf_free(&b);
}

static void
test_cookie(void)
{
	struct core_params p = { NULL, 0 };

	core_cookie_parse("a=1; b=2;c=3", &p);
	T_EQ(p.n, 3, "three cookies");
	T_STREQ(core_params_get(&p, "a"), "1", "a");
	T_STREQ(core_params_get(&p, "b"), "2", "b");
	T_STREQ(core_params_get(&p, "c"), "3", "c without space");
	core_params_free(&p);

	core_cookie_parse("  sid = abc%20def ;\ttheme=\"dark\" ", &p);
	T_STREQ(core_params_get(&p, "sid"), "abc%20def",
	    "trimmed, not percent-decoded");
	T_STREQ(core_params_get(&p, "theme"), "dark", "quotes removed");
	core_params_free(&p);

	core_cookie_parse("novalue; x=; =y; ;; z=\"; q=\"\"", &p);
	T_OK(core_params_get(&p, "novalue") == NULL, "missing '=' skipped");
	T_STREQ(core_params_get(&p, "x"), "", "empty value kept");
	T_OK(core_params_get(&p, "") == NULL, "empty name skipped");
	T_STREQ(core_params_get(&p, "z"), "\"", "lone quote kept");
	T_STREQ(core_params_get(&p, "q"), "", "empty quoted value");
	T_EQ(p.n, 3, "three good pairs");
	core_params_free(&p);

	core_cookie_parse("a=b=c; d=\xff; e\x01=1; f=\x01; g=ok", &p);
	T_STREQ(core_params_get(&p, "a"), "b=c", "value keeps '='");
	T_OK(core_params_get(&p, "d") == NULL, "invalid UTF-8 skipped");
	T_OK(core_params_get(&p, "f") == NULL, "control in value skipped");
	T_STREQ(core_params_get(&p, "g"), "ok", "later pair still read");
	T_EQ(p.n, 2, "two good pairs");
	core_params_free(&p);

	core_cookie_parse("a b=1; c=1", &p);
	T_OK(core_params_get(&p, "a b") == NULL, "space in name skipped");
	T_EQ(p.n, 1, "one good pair");
	core_params_free(&p);

	core_cookie_parse("", &p);
	T_EQ(p.n, 0, "empty header");
	core_cookie_parse(NULL, &p);
	T_EQ(p.n, 0, "NULL header");
	core_cookie_parse(";;;", &p);
	T_EQ(p.n, 0, "only separators");
	core_params_free(&p);
	T_OK(core_params_get(NULL, "a") == NULL, "get on NULL");
	core_params_free(NULL);

	/* nginx's $cookie_NAME also splits on ','; so do we. */
	core_cookie_parse("a=b,weft_session=x , c=d", &p);
	T_STREQ(core_params_get(&p, "a"), "b", "',' ends a value");
	T_STREQ(core_params_get(&p, "weft_session"), "x", "pair after ','");
	T_STREQ(core_params_get(&p, "c"), "d", "';' still splits");
	T_EQ(p.n, 3, "three pairs across ',' and ';'");
	core_params_free(&p);

	/* Many cookies are capped, not an error. */
	{
		struct core_buf b = CORE_BUF_INIT;
		int i;

		for (i = 0; i < 1000; i++)
			core_buf_printf(&b, "c%d=%d; ", i, i);
		core_cookie_parse(b.ptr, &p);
		T_EQ(p.n, 256, "cookies capped at 256");
		T_STREQ(core_params_get(&p, "c0"), "0", "first kept");
		core_params_free(&p);
		core_buf_free(&b);
	}
}

/* The one rule for "signed in", shared with nginx's map. */
static void
test_cookie_has(void)
{
	static const struct {
		const char *hdr;
		int want;
	} cases[] = {
		{ "weft_session=abc", 1 },
		{ "WEFT_SESSION=x", 1 },
		{ "Weft_Session=x", 1 },
		{ "a=b,weft_session=x", 1 },
		{ "a=b, weft_session=x", 1 },
		{ "a=b;weft_session=x", 1 },
		{ "a=b; \tweft_session =x", 1 },
		{ "weft_session=", 1 },
		{ "weft_session=\x01\xff", 1 },
		{ "a=1; b=2; weft_session=x; c=3", 1 },
		{ "", 0 },
		{ "weft_session", 0 },
		{ "weft_sessionx=1", 0 },
		{ "xweft_session=1", 0 },
		{ "a=weft_session=1", 0 },
		{ "a=\"weft_session=1\"", 0 },
		{ "weft_sessio=1", 0 },
		{ "theme=dark; sid=1", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		T_EQ(core_cookie_has(cases[i].hdr, "weft_session"),
		    cases[i].want, cases[i].hdr);
	T_EQ(core_cookie_has(NULL, "weft_session"), 0, "NULL header");
	T_EQ(core_cookie_has("a=1", ""), 0, "empty name");
	T_EQ(core_cookie_has("a=1", NULL), 0, "NULL name");
}

int
main(void)
{
	test_decode();
	test_encode();
	test_query();
	test_cookie();
	test_cookie_has();
	return T_DONE();
}
