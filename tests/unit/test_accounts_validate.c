/*
 * test_accounts_validate.c -- the accounts module's pure functions:
 * email normalisation and account keys, password length, next= targets,
 * tokens, CSRF tokens, the Origin check and client address keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "t.h"
#include "core.h"
#include "../modules/accounts/accounts.h"

static const char *
norm(const char *in)
{
	static char out[ACC_EMAIL_MAX + 1];
	const char *why;

	if (acc_email_normalise(in, out, sizeof(out), &why) != 0)
		return NULL;
	return out;
}

static void
emails(void)
{
	char big[400];
	const char *why = NULL;
	char out[ACC_EMAIL_MAX + 1];

	T_STREQ(norm("alice@example.org"), "alice@example.org", "plain");
	T_STREQ(norm("  Alice@Example.ORG \t\r\n"), "Alice@example.org",
	    "trimmed, domain lower-cased, local part kept");
	T_STREQ(norm("o'brien+tag@mail.example.co.uk"),
	    "o'brien+tag@mail.example.co.uk", "apostrophe and plus");
	T_STREQ(norm("jos\xc3\xa9@\xc3\xa9xample.fr"),
	    "jos\xc3\xa9@\xc3\xa9xample.fr", "UTF-8 kept");
	T_OK(norm("") == NULL, "empty");
	T_OK(norm("   ") == NULL, "blank");
	T_OK(norm(NULL) == NULL, "NULL");
	T_OK(norm("alice") == NULL, "no @");
	T_OK(norm("a@b@example.org") == NULL, "two @");
	T_OK(norm("@example.org") == NULL, "no local part");
	T_OK(norm("alice@") == NULL, "no domain");
	T_OK(norm("alice@localhost") == NULL, "one-label domain");
	T_OK(norm("al ice@example.org") == NULL, "inner space");
	T_OK(norm("alice@exa mple.org") == NULL, "space in domain");
	T_OK(norm("ali\x01"
		  "ce@example.org") == NULL,
	    "control character");
	T_OK(norm("alice\x7f"
		  "@example.org") == NULL,
	    "DEL");
	T_OK(norm("ali\nce@example.org") == NULL, "inner newline");
	T_OK(norm(".alice@example.org") == NULL, "leading dot");
	T_OK(norm("alice.@example.org") == NULL, "trailing dot");
	T_OK(norm("al..ice@example.org") == NULL, "double dot");
	T_OK(norm("alice@example..org") == NULL, "empty label");
	T_OK(norm("alice@-example.org") == NULL, "label starts with -");
	T_OK(norm("alice@example-.org") == NULL, "label ends with -");
	T_OK(norm("alice@.example.org") == NULL, "domain starts with .");
	T_OK(norm("alice@example.org.") == NULL, "domain ends with .");
	T_OK(norm("\"a\"@example.org") == NULL, "quoted local part");
	T_OK(norm("a<b>@example.org") == NULL, "angle brackets");
	T_OK(norm("x' OR '1'='1@example.org") == NULL, "SQL with spaces");
	T_OK(norm("alice@exam_ple.org") == NULL, "underscore in domain");
	T_OK(norm("\xff\xfe@example.org") == NULL, "invalid UTF-8");

	memset(big, 'a', 64);
	strcpy(big + 64, "@example.org");
	T_OK(norm(big) != NULL, "64-byte local part");
	memset(big, 'a', 65);
	strcpy(big + 65, "@example.org");
	T_OK(norm(big) == NULL, "65-byte local part");
	/* 254 bytes exactly: 60 + @ + 193 */
	memset(big, 'a', 60);
	big[60] = '@';
	memset(big + 61, 'b', 189);
	strcpy(big + 250, ".org");
	for (size_t i = 61 + 60; i < 250; i += 61)
		big[i] = '.';
	T_EQ(strlen(big), 254, "fixture is 254 bytes");
	T_OK(norm(big) != NULL, "254 bytes accepted");
	memmove(big + 1, big, 255);
	big[0] = 'a';
	T_EQ(strlen(big), 255, "fixture is 255 bytes");
	T_OK(norm(big) == NULL, "255 bytes rejected");

	T_EQ(acc_email_normalise("nope", out, sizeof(out), &why), -1,
	    "error result");
	T_OK(why != NULL && strchr(why, '@') != NULL, "message names the @");
	T_EQ(acc_email_normalise("a@example.org", out, 4, &why), -1,
	    "too small an output buffer");
}

/* acc_email_key of norm(in), NULL when either refuses. */
static const char *
key(const char *in)
{
	static char out[ACC_EMAIL_KEY_MAX + 1];
	const char *n = norm(in);

	if (n == NULL || acc_email_key(n, out, sizeof(out)) != 0)
		return NULL;
	return out;
}

/* 1 when a and b are one account. */
static int
same(const char *a, const char *b)
{
	char ka[ACC_EMAIL_KEY_MAX + 1];
	const char *kb;

	if (key(a) == NULL)
		return 0;
	strcpy(ka, key(a));
	return (kb = key(b)) != NULL && strcmp(ka, kb) == 0;
}

static void
email_keys(void)
{
	char out[ACC_EMAIL_KEY_MAX + 1], again[ACC_EMAIL_KEY_MAX + 1];
	char what[64];
	static const char *const samples[] = {
		"kelvin@example.org",
		"\xe2\x84\xaa"
		"elvin@example.org",
		"\xc4\xb0stanbul@example.org",
		"\xef\xbd\x8b\xef\xbd\x89\xef\xbd\x8d@example.org",
		"Stra\xc3\x9f"
		"e@example.de",
		"\xce\xa3\xce\xbf\xcf\x86\xce\xaf\xce\xb1@example.gr",
		"\xef\xac\x81le@example.org",
		"e\xcc\x81mile@example.fr",
	};
	size_t i;

	/* NFKC in the stored form: fullwidth letters and @ become ASCII. */
	T_STREQ(norm("\xef\xbd\x8b\xef\xbd\x89\xef\xbd\x8d@example.org"),
	    "kim@example.org", "fullwidth letters: NFKC");
	T_STREQ(norm("kim\xef\xbc\xa0"
		     "example.org"),
	    "kim@example.org", "a fullwidth @ is an @");
	T_OK(norm("kim@ex\xef\xbc\xa0"
		  "ample.org") == NULL,
	    "a fullwidth @ counts as a second @");
	T_OK(norm("ki\xc2\xa0m@example.org") == NULL,
	    "a no-break space is a space");
	T_STREQ(norm("\xe2\x84\xaaim@example.org"), "Kim@example.org",
	    "KELVIN SIGN: NFKC gives K, the case is kept");
	T_STREQ(norm("e\xcc\x81mile@example.fr"), "\xc3\xa9mile@example.fr",
	    "combining accent composed");

	T_STREQ(key("Kim@Example.ORG"), "kim@example.org", "ASCII: lower case");
	T_OK(same("kim@example.org", "\xe2\x84\xaaim@example.org"),
	    "KELVIN SIGN is k");
	T_OK(same("kim@example.org", "KIM@EXAMPLE.ORG"), "upper case");
	T_OK(same("kim@example.org",
		 "\xef\xbd\x8b\xef\xbd\x89\xef\xbd\x8d@example.org"),
	    "fullwidth kim");
	T_OK(same("kim@example.org",
		 "\xef\xbc\xab\xef\xbc\xa9\xef\xbc\xad@example.org"),
	    "fullwidth KIM");
	T_OK(same("kim@example.org", "k\xe2\x80\x8bim@example.org"),
	    "a zero-width space is dropped");
	T_OK(same("kim@example.org", "ki\xc2\xadm@example.org"),
	    "a soft hyphen is dropped");
	T_OK(same("kim@example.org", "kim@\xef\xbd\x85xample.org"),
	    "fullwidth letter in the domain");
	T_OK(same("strasse@example.de",
		 "Stra\xc3\x9f"
		 "e@example.de"),
	    "sharp s folds to ss");
	T_OK(same("strasse@example.de",
		 "STRA\xe1\xba\x9e"
		 "E@example.de"),
	    "capital sharp s folds to ss");
	T_OK(same("\xcf\x83\xce\xbf\xcf\x86\xce\xaf\xce\xb1@example.gr",
		 "\xce\xa3\xce\x9f\xce\xa6\xce\x8a\xce\x91@example.gr"),
	    "Greek upper and lower case");
	T_OK(same("\xcf\x83\xcf\x82@example.gr", "\xcf\x83\xcf\x83@example.gr"),
	    "final sigma");
	T_OK(same("file@example.org", "\xef\xac\x81le@example.org"),
	    "the fi ligature");
	T_OK(same("\xc3\xa9mile@example.fr", "E\xcc\x81MILE@example.fr"),
	    "composed and combining accents");
	/* Dotted capital I folds to i + COMBINING DOT ABOVE (full folding,
	 * not Turkish): one account for every case of it, and not the
	 * account of plain i. */
	T_STREQ(key("\xc4\xb0stanbul@example.org"),
	    "i\xcc\x87stanbul@example.org", "dotted I: i + U+0307");
	T_OK(same("\xc4\xb0stanbul@example.org",
		 "i\xcc\x87stanbul@example.org"),
	    "dotted I and i + U+0307");
	T_OK(!same("\xc4\xb0stanbul@example.org", "istanbul@example.org"),
	    "dotted I is not plain i");
	T_OK(!same("kim@example.org", "kin@example.org"), "different names");
	T_OK(!same("kim@example.org", "kim@example.com"), "different domains");

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		snprintf(what, sizeof(what), "sample %zu: a key", i);
		T_EQ(acc_email_key(samples[i], out, sizeof(out)), 0, what);
		snprintf(what, sizeof(what), "sample %zu: a fixed point", i);
		T_EQ(acc_email_key(out, again, sizeof(again)), 0, what);
		T_STREQ(again, out, what);
	}
	T_EQ(acc_email_key("\xff@example.org", out, sizeof(out)), -1,
	    "invalid UTF-8: no key");
	T_EQ(acc_email_key("kim@example.org", out, 8), -1,
	    "too small a buffer");
	T_EQ(acc_email_key("", out, sizeof(out)), -1, "empty");
	T_EQ(acc_email_key(NULL, out, sizeof(out)), -1, "NULL");
	T_EQ(acc_email_key("\xe2\x80\x8b", out, sizeof(out)), -1,
	    "nothing left after the ignorables");
}

static const char *
client(const char *addr)
{
	static char out[ACC_CLIENT_KEY_MAX];

	acc_client_key(addr, out);
	return out;
}

static void
clients(void)
{
	T_STREQ(client("192.0.2.7"), "192.0.2.7", "IPv4 as is");
	T_STREQ(client("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64",
	    "IPv6: its /64");
	T_STREQ(client("2001:db8:1:2::1"), "2001:db8:1:2::/64",
	    "another address of the /64");
	T_STREQ(client("2001:DB8:1:2:0:0:0:FFFF"), "2001:db8:1:2::/64",
	    "any spelling");
	T_STREQ(client("2001:db8:1:3::1"), "2001:db8:1:3::/64",
	    "the next /64 is another client");
	T_STREQ(client("::ffff:192.0.2.7"), "192.0.2.7",
	    "IPv4-mapped: the IPv4 address");
	T_STREQ(client("::1"), "::/64", "loopback");
	T_STREQ(client(NULL), "-", "none");
	T_STREQ(client(""), "-", "empty");
	T_STREQ(client("unix:"), "unix:", "not an address: as given");
	T_EQ(strlen(client("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			   "xxxxxxxxxxxxxxxxxxxxxxxxxxxx")),
	    64, "bounded");
}

static void
passwords(void)
{
	char *p;
	const char *why = NULL;

	T_EQ(acc_password_check("123456789", &why), -1, "9 bytes too short");
	T_OK(why != NULL && strstr(why, "10") != NULL, "message says 10");
	T_EQ(acc_password_check("1234567890", &why), 0, "10 bytes ok");
	T_OK(why == NULL, "no message when ok");
	T_EQ(acc_password_check("", &why), -1, "empty");
	T_EQ(acc_password_check(NULL, &why), -1, "missing");
	/* Length is in bytes: 5 two-byte characters are 10 bytes. */
	T_EQ(acc_password_check("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
		 &why),
	    0, "10 bytes of UTF-8");
	p = malloc(1026);
	memset(p, 'x', 1024);
	p[1024] = '\0';
	T_EQ(acc_password_check(p, &why), 0, "1024 bytes ok");
	p[1024] = 'x';
	p[1025] = '\0';
	T_EQ(acc_password_check(p, &why), -1, "1025 bytes too long");
	free(p);
}

static void
nexts(void)
{
	T_OK(acc_next_ok("/researchers/5-ada"), "a path");
	T_OK(acc_next_ok("/"), "root");
	T_OK(acc_next_ok("/search?q=a&b=c#x"), "query and fragment");
	T_OK(acc_next_ok("/a//b"), "inner double slash");
	T_OK(!acc_next_ok(NULL), "NULL");
	T_OK(!acc_next_ok(""), "empty");
	T_OK(!acc_next_ok("//evil.com"), "protocol-relative");
	T_OK(!acc_next_ok("///evil.com"), "triple slash");
	T_OK(!acc_next_ok("/\\evil.com"), "slash backslash");
	T_OK(!acc_next_ok("/a\\b"), "inner backslash");
	T_OK(!acc_next_ok("https://evil.com"), "absolute URL");
	T_OK(!acc_next_ok("javascript:alert(1)"), "javascript:");
	T_OK(!acc_next_ok("evil.com"), "relative without slash");
	T_OK(!acc_next_ok("/a\r\nSet-Cookie: x=1"), "CR LF");
	T_OK(!acc_next_ok("/\t/evil.com"), "tab (browsers strip it)");
	T_OK(!acc_next_ok("/ /evil.com"), "space");
	T_OK(!acc_next_ok("/a\x7f"), "DEL");
}

static void
tokens(void)
{
	char a[ACC_TOKEN_LEN + 1], b[ACC_TOKEN_LEN + 1];
	char ha[ACC_HASH_HEX + 1], hb[ACC_HASH_HEX + 1];
	char ca[ACC_HASH_HEX + 1], cb[ACC_HASH_HEX + 1];
	unsigned char raw[ACC_TOKEN_RAW], h[32];
	char want[ACC_HASH_HEX + 1], bad[ACC_TOKEN_LEN + 1];
	size_t i;
	int ok = 1;

	acc_token_new(a);
	acc_token_new(b);
	T_EQ(strlen(a), ACC_TOKEN_LEN, "43 characters");
	for (i = 0; i < ACC_TOKEN_LEN; i++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxy"
			   "z"
			   "0123456789-_",
			a[i]) == NULL)
			ok = 0;
	T_OK(ok, "base64url alphabet");
	T_OK(strcmp(a, b) != 0, "two tokens differ");
	T_EQ(acc_token_parse(a, raw), 0, "parses back");
	T_EQ(acc_token_parse("short", raw), -1, "short rejected");
	T_EQ(acc_token_parse(NULL, raw), -1, "NULL rejected");
	memcpy(bad, a, sizeof(bad));
	bad[5] = '+';
	T_EQ(acc_token_parse(bad, raw), -1, "'+' rejected");
	memcpy(bad, a, sizeof(bad));
	bad[5] = '=';
	T_EQ(acc_token_parse(bad, raw), -1, "'=' rejected");

	/* The stored hash: hex of BLAKE2b-256 of the token string. */
	acc_token_hash(a, ha);
	crypto_generichash(h, sizeof(h), (const unsigned char *)a, strlen(a),
	    NULL, 0);
	sodium_bin2hex(want, sizeof(want), h, sizeof(h));
	T_STREQ(ha, want, "token hash definition");
	acc_token_hash(b, hb);
	T_OK(strcmp(ha, hb) != 0, "different hashes");
	T_EQ(strlen(ha), 64, "64 hex digits");
	/* A known vector, so the feeds module can check its own code. */
	acc_token_hash("abc", ha);
	T_STREQ(ha,
	    "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068"
	    "d52319",
	    "BLAKE2b-256(\"abc\")");

	/* CSRF */
	acc_token_parse(a, raw);
	acc_csrf_derive(raw, ca);
	acc_token_parse(b, raw);
	acc_csrf_derive(raw, cb);
	T_EQ(strlen(ca), 64, "CSRF token is 64 hex digits");
	T_OK(strcmp(ca, cb) != 0, "per-session CSRF tokens differ");
	acc_token_hash(a, ha);
	T_OK(strcmp(ca, ha) != 0, "CSRF token is not the stored hash");
	T_OK(strstr(ca, a) == NULL, "CSRF token does not contain the token");
	T_OK(acc_csrf_check(a, ca), "right token accepted");
	T_OK(!acc_csrf_check(b, ca), "other session's token rejected");
	T_OK(!acc_csrf_check(a, NULL), "missing token rejected");
	T_OK(!acc_csrf_check(a, ""), "empty token rejected");
	T_OK(!acc_csrf_check(NULL, ca), "no session rejected");
	T_OK(!acc_csrf_check("garbage", ca), "malformed session rejected");
	memcpy(want, ca, sizeof(want));
	want[10] = want[10] == '0' ? '1' : '0';
	T_OK(!acc_csrf_check(a, want), "one digit changed rejected");
	want[10] = ca[10];
	want[63] = '\0';
	T_OK(!acc_csrf_check(a, want), "truncated rejected");
	/* Deterministic: derived again, the same. */
	acc_token_parse(a, raw);
	acc_csrf_derive(raw, cb);
	T_STREQ(cb, ca, "derivation is stable");
}

static void
origins(void)
{
	const char *base = "http://127.0.0.1:8093";

	T_OK(acc_origin_ok(base, NULL, NULL), "neither sent");
	T_OK(acc_origin_ok(base, "", ""), "both empty");
	T_OK(acc_origin_ok(base, "http://127.0.0.1:8093", NULL), "same");
	T_OK(acc_origin_ok(base, "HTTP://127.0.0.1:8093", NULL), "case");
	T_OK(!acc_origin_ok(base, "http://evil.com", NULL), "foreign");
	T_OK(!acc_origin_ok(base, "null", NULL), "null origin");
	T_OK(!acc_origin_ok(base, "http://127.0.0.1:8093.evil.com", NULL),
	    "suffix attack");
	T_OK(!acc_origin_ok(base, "http://127.0.0.1:809", NULL), "prefix");
	T_OK(!acc_origin_ok(base, "https://127.0.0.1:8093", NULL),
	    "other scheme");
	T_OK(acc_origin_ok(base, "http://127.0.0.1:8093", "http://evil.com/x"),
	    "origin wins");
	T_OK(!acc_origin_ok(base, "http://evil.com", "http://127.0.0.1:8093/x"),
	    "origin wins over referer");
	T_OK(acc_origin_ok(base, NULL, "http://127.0.0.1:8093/signin"),
	    "referer same site");
	T_OK(acc_origin_ok(base, NULL, "http://127.0.0.1:8093"),
	    "referer bare");
	T_OK(!acc_origin_ok(base, NULL, "http://127.0.0.1:8093.evil.com/"),
	    "referer suffix attack");
	T_OK(!acc_origin_ok(base, NULL,
		 "http://evil.com/?http://127.0.0.1:"
		 "8093/"),
	    "referer foreign");
	T_OK(acc_origin_ok("https://weft.example/", "https://weft.example",
		 NULL),
	    "base with a slash");
	T_OK(!acc_origin_ok("nonsense", "nonsense", NULL), "bad base");
}

static void
ids(void)
{
	long long id = 0;

	T_EQ(acc_parse_id("42", 2, &id), 0, "42");
	T_EQ(id, 42, "value");
	T_EQ(acc_parse_id("", 0, &id), -1, "empty");
	T_EQ(acc_parse_id("0", 1, &id), -1, "zero");
	T_EQ(acc_parse_id("042", 3, &id), -1, "leading zero");
	T_EQ(acc_parse_id("-1", 2, &id), -1, "negative");
	T_EQ(acc_parse_id("1 OR 1=1", 8, &id), -1, "SQL");
	T_EQ(acc_parse_id("99999999999999999999", 20, &id), -1, "too long");
	T_EQ(acc_parse_id("9223372036854775807", 19, &id), -1, "beyond 2^62");
	T_EQ(acc_parse_id("12/follow", 2, &id), 0, "prefix of a path");
	T_EQ(id, 12, "prefix value");
}

/* Issue 21: follow kinds and saved searches. */
static void
follows(void)
{
	char out[ACC_SEARCH_MAX + 1], big[4096];
	const char *why;
	size_t i;

	T_EQ(acc_kind_parse("search"), ACC_KIND_SEARCH, "kind search");
	T_EQ(acc_kind_parse("institution"), ACC_KIND_INSTITUTION,
	    "kind institution");
	T_EQ(acc_kind_parse("planet"), -1, "an unknown kind");
	T_EQ(acc_kind_parse(NULL), -1, "no kind");
	T_EQ(acc_search_normalise("  graph \t  databases\n", out, sizeof(out),
		 &why),
	    0, "a search");
	T_STREQ(out, "graph databases", "... white space made one space");
	T_EQ(acc_search_normalise("   ", out, sizeof(out), &why), -1,
	    "an empty search");
	T_EQ(acc_search_normalise(NULL, out, sizeof(out), &why), -1,
	    "no search");
	T_EQ(acc_search_normalise("a\x01b", out, sizeof(out), &why), -1,
	    "a control character");
	T_EQ(acc_search_normalise("caf\xc3", out, sizeof(out), &why), -1,
	    "invalid UTF-8");
	big[0] = '\0';
	for (i = 0; i < 33; i++)
		strcat(big, "w ");
	T_EQ(acc_search_normalise(big, out, sizeof(out), &why), -1, "33 terms");
	big[64] = '\0';
	T_EQ(acc_search_normalise(big, out, sizeof(out), &why), 0, "32 terms");
	memset(big, 'x', 201);
	big[201] = '\0';
	T_EQ(acc_search_normalise(big, out, sizeof(out), &why), -1,
	    "201 bytes");
	big[200] = '\0';
	T_EQ(acc_search_normalise(big, out, sizeof(out), &why), 0, "200 bytes");
	T_OK(acc_digest_mode_ok("weekly") && acc_digest_mode_ok("off") &&
		!acc_digest_mode_ok("hourly") && !acc_digest_mode_ok(NULL),
	    "digest modes");
}

int
main(void)
{
	if (sodium_init() < 0)
		return 1;
	follows();
	emails();
	email_keys();
	clients();
	passwords();
	nexts();
	tokens();
	origins();
	ids();
	return T_DONE();
}
