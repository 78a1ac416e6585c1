/*
 * fuzz_accounts.c -- the accounts module's input validation
 * (modules/accounts/validate.c) on arbitrary bytes, checked against the
 * contracts in accounts.h:
 *
 *   acc_email_normalise  a success is 1..254 bytes of valid UTF-8 with
 *                        one '@', no ASCII space or control, a lower-case
 *                        domain, the trimmed input up to the domain's
 *                        case (ASCII input; other input is NFKC'd), and
 *                        normalising it again changes nothing; its
 *                        acc_email_key exists and is a fixed point;
 *   acc_next_ok          an accepted target resolves, as a browser reads
 *                        it (WHATWG URL: C0/space trimmed, tab/CR/LF
 *                        removed, '\' as '/'), to a path on this site and
 *                        can go into a Location header as it is;
 *   acc_token_parse      an accepted token is the one spelling of its
 *                        bytes (base64url re-encodes to it);
 *   acc_csrf_check       only the derived token is accepted;
 *   acc_origin_ok        only our own origin passes;
 *   acc_parse_id         an accepted id prints back as its digits;
 *   acc_client_key       bounded; an IPv6 /64 key keys to itself.
 *
 * The input is split at NUL bytes into up to three strings (the fields a
 * request could carry: Origin, Referer, a form value).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <sodium.h>

#include "core.h"
#include "../../modules/accounts/accounts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const bases[] = {
	"http://127.0.0.1:8089",
	"https://weft.example",
	"https://weft.example/",
};

static int
ascii_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

static void
check_email(const char *in)
{
	char out[ACC_EMAIL_MAX + 1], again[ACC_EMAIL_MAX + 1];
	char key[ACC_EMAIL_KEY_MAX + 1], key2[ACC_EMAIL_KEY_MAX + 1];
	const char *why = NULL, *s, *e, *at, *p;
	size_t n, i;
	int ascii;

	if (acc_email_normalise(in, out, sizeof(out), &why) != 0) {
		if (why == NULL || *why == '\0')
			abort();
		return;
	}
	if (why != NULL)
		abort();
	n = strlen(out);
	if (n == 0 || n > ACC_EMAIL_MAX || !core_utf8_valid(out, n))
		abort();
	if ((at = strchr(out, '@')) == NULL || strchr(at + 1, '@') != NULL ||
	    at == out || at - out > 64 || at[1] == '\0')
		abort();
	/* Nothing that could split a header, a log line or a mail. */
	for (i = 0; i < n; i++)
		if ((unsigned char)out[i] <= 0x20 || out[i] == 0x7f)
			abort();
	for (i = (size_t)(at - out) + 1; i < n; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			abort();
	/* The trimmed input, the domain's case aside. */
	for (s = in; ascii_ws((unsigned char)*s); s++)
		;
	for (e = s + strlen(s); e > s && ascii_ws((unsigned char)e[-1]); e--)
		;
	ascii = 1;
	for (p = s; p < e; p++)
		if ((unsigned char)*p >= 0x80)
			ascii = 0;
	/* (Non-ASCII input is NFKC'd, so only ASCII input is compared.) */
	if (ascii &&
	    ((size_t)(e - s) != n || strncmp(s, out, (size_t)(at - out)) != 0 ||
		strncasecmp(s, out, n) != 0))
		abort();
	/* Every valid address has an account key, and the key's key is
	 * itself. */
	if (acc_email_key(out, key, sizeof(key)) != 0 ||
	    acc_email_key(key, key2, sizeof(key2)) != 0 ||
	    strcmp(key, key2) != 0)
		abort();
	if (acc_email_normalise(out, again, sizeof(again), &why) != 0 ||
	    strcmp(out, again) != 0)
		abort();
	/* A buffer one byte too small is refused, never overrun. */
	{
		char *tight = malloc(n);

		if (tight != NULL) {
			if (acc_email_normalise(in, tight, n, &why) == 0)
				abort();
			free(tight);
		}
	}
}

/* A client key is a bounded string, and a fixed point for addresses. */
static void
check_client(const char *in)
{
	char out[ACC_CLIENT_KEY_MAX], again[ACC_CLIENT_KEY_MAX];
	unsigned char a6[16];
	char *slash;

	acc_client_key(in, out);
	if (strlen(out) == 0 || strlen(out) > 71)
		abort();
	if (inet_pton(AF_INET6, in, a6) == 1 &&
	    (slash = strstr(out, "/64")) != NULL) {
		*slash = '\0';
		acc_client_key(out, again);
		*slash = '/';
		if (strcmp(out, again) != 0)
			abort();
	}
}

/*
 * Where a browser goes with Location: base + next (next starting with
 * '/'): 1 when it stays on the same host, 0 otherwise.  WHATWG URL for a
 * special scheme: leading/trailing C0 controls and spaces stripped, tab,
 * CR and LF removed anywhere, '\' read as '/'; "//" starts an authority.
 */
static int
browser_same_host(const char *next)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *p = next, *q;
	int same;

	while (*p != '\0' && (unsigned char)*p <= 0x20)
		p++;
	q = p + strlen(p);
	while (q > p && (unsigned char)q[-1] <= 0x20)
		q--;
	for (; p < q; p++) {
		if (*p == '\t' || *p == '\r' || *p == '\n')
			continue;
		core_buf_putc(&b, *p == '\\' ? '/' : *p);
	}
	p = core_buf_cstr(&b);
	same = p[0] == '/' && p[1] != '/';
	core_buf_free(&b);
	return same;
}

static void
check_next(const char *next)
{
	const char *p;
	size_t n = strlen(next);

	if (!acc_next_ok(next))
		return;
	if (next[0] != '/' || next[1] == '/' || next[1] == '\\' || n > 1024)
		abort();
	for (p = next; *p != '\0'; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '\\')
			abort();
	if (!browser_same_host(next))
		abort();
}

static void
check_token(const char *tok, const char *given)
{
	unsigned char raw[ACC_TOKEN_RAW];
	char enc[ACC_TOKEN_LEN + 1], want[ACC_HASH_HEX + 1];
	char hex[ACC_HASH_HEX + 1];

	if (acc_token_parse(tok, raw) == 0) {
		if (strlen(tok) != ACC_TOKEN_LEN)
			abort();
		sodium_bin2base64(enc, sizeof(enc), raw, sizeof(raw),
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		if (strcmp(enc, tok) != 0)
			abort();
		acc_csrf_derive(raw, want);
		if (!acc_csrf_check(tok, want))
			abort();
		if (acc_csrf_check(tok, given) && strcmp(given, want) != 0)
			abort();
	} else if (acc_csrf_check(tok, given))
		abort();
	acc_token_hash(tok, hex);
	if (strlen(hex) != ACC_HASH_HEX ||
	    strspn(hex, "0123456789abcdef") != ACC_HASH_HEX)
		abort();
}

static void
check_origin(const char *origin, const char *referer)
{
	size_t i, n;
	const char *base, *p;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		base = bases[i];
		/* The origin: scheme://authority, without a path. */
		p = strstr(base, "://") + 3;
		n = strchr(p, '/') != NULL ? (size_t)(strchr(p, '/') - base)
					   : strlen(base);
		if (!acc_origin_ok(base, origin, referer))
			continue;
		if (*origin != '\0') {
			if (strlen(origin) != n || strncasecmp(origin, base, n))
				abort();
		} else if (*referer != '\0') {
			if (strncasecmp(referer, base, n) != 0 ||
			    strchr("/?#", referer[n]) == NULL)
				abort();
		}
		/* "null" (sandboxed frames, file:) is never ours. */
		if (strcmp(origin, "null") == 0)
			abort();
	}
}

static void
check_id(const char *s)
{
	long long id;
	char buf[32];

	if (acc_parse_id(s, strlen(s), &id) != 0)
		return;
	if (id < 1 || id > (1LL << 62))
		abort();
	snprintf(buf, sizeof(buf), "%lld", id);
	if (strcmp(buf, s) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *copy, *f[3];
	const char *why;
	size_t i, nf;

	if (!init) {
		if (sodium_init() < 0)
			abort();
		init = 1;
	}
	/* NUL-terminated copy; NULs inside split the fields. */
	if ((copy = malloc(size + 1)) == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	f[0] = f[1] = f[2] = copy + size; /* "" */
	f[0] = copy;
	for (nf = 1, i = 0; i < size && nf < 3; i++)
		if (copy[i] == '\0')
			f[nf++] = copy + i + 1;

	check_email(f[0]);
	check_client(f[0]);
	check_next(f[0]);
	check_id(f[0]);
	check_token(f[0], f[1]);
	check_origin(f[0], f[1]);
	check_origin("", f[0]);
	(void)acc_password_check(f[0], &why);
	if (acc_next_ok(NULL) || acc_next_ok(""))
		abort();
	free(copy);
	return 0;
}
