/*
 * validate.c -- the pure functions of the accounts module: email
 * normalisation, password rules, next= targets, tokens, CSRF tokens and
 * the Origin check, and the keys the rate limits count by (the folded
 * email, the client's address or IPv6 /64).  No I/O here, so the unit
 * tests cover all of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sodium.h>
#include <utf8proc.h>

#include "core.h"
#include "accounts.h"

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

static int
is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* RFC 5322 atext (ASCII part); non-ASCII bytes are checked as UTF-8. */
static int
is_atext(unsigned char c)
{
	return c >= 0x80 || is_alnum(c) ||
	    (c != '\0' && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL);
}

static int
domain_ok(const char *d, size_t n)
{
	size_t i, label = 0, labels = 0;
	unsigned char c, prev = '.';

	if (n == 0 || n > 253)
		return 0;
	for (i = 0; i < n; i++) {
		c = (unsigned char)d[i];
		if (c == '.') {
			if (label == 0 || prev == '-')
				return 0;
			labels++;
			label = 0;
		} else if (c == '-') {
			if (label == 0)
				return 0;
			label++;
		} else if (is_alnum(c) || c >= 0x80)
			label++;
		else
			return 0;
		if (label > 63)
			return 0;
		prev = c;
	}
	if (label == 0 || prev == '-')
		return 0;
	return labels + 1 >= 2;
}

/*
 * utf8proc_map() of s[0..n) with flags into a fresh NUL-terminated
 * string (caller frees), NULL when utf8proc refuses it.
 */
static char *
umap(const char *s, size_t n, int flags)
{
	utf8proc_uint8_t *r = NULL;

	if (utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &r,
		(utf8proc_option_t)(UTF8PROC_STABLE | flags)) < 0)
		return NULL;
	return (char *)r;
}

int
acc_email_normalise(const char *in, char *out, size_t outsz, const char **why)
{
	const char *s, *e, *at;
	char *nf = NULL;
	size_t n, i, local;
	int rc = -1;

	*why = "Enter your email address.";
	if (in == NULL || outsz == 0)
		return -1;
	out[0] = '\0';
	for (s = in; is_ws(*s); s++)
		;
	for (e = s + strlen(s); e > s && is_ws(e[-1]); e--)
		;
	n = (size_t)(e - s);
	if (n == 0)
		return -1;
	*why = "That email address is too long: use one of at most 254 "
	       "characters.";
	if (n > ACC_EMAIL_MAX || n + 1 > outsz)
		return -1;
	*why =
	    "That email address has characters we cannot read: type it again.";
	if (!core_utf8_valid(s, n))
		return -1;
	/*
	 * NFKC first, so that the rules below judge what is stored: a
	 * fullwidth commercial at (U+FF20) becomes '@' here and is then
	 * counted as one, and a no-break space becomes a space the rules
	 * refuse.
	 */
	if ((nf = umap(s, n, UTF8PROC_COMPOSE | UTF8PROC_COMPAT)) == NULL)
		return -1;
	s = nf;
	n = strlen(nf);
	e = s + n;
	*why = "That email address is too long: use one of at most 254 "
	       "characters.";
	if (n == 0 || n > ACC_EMAIL_MAX || n + 1 > outsz)
		goto out;
	*why = "Check the email address: it needs one @ with a name "
	       "before it and a domain after it, and no spaces.";
	if ((at = memchr(s, '@', n)) == NULL ||
	    memchr(at + 1, '@', (size_t)(e - at - 1)) != NULL)
		goto out;
	local = (size_t)(at - s);
	if (local == 0 || local > 64 || s[0] == '.' || at[-1] == '.')
		goto out;
	for (i = 0; i < local; i++) {
		if (s[i] == '.') {
			if (s[i + 1] == '.')
				goto out;
			continue;
		}
		if (!is_atext((unsigned char)s[i]))
			goto out;
	}
	*why = "Check the part after @: it should be a domain such as "
	       "example.org.";
	if (!domain_ok(at + 1, (size_t)(e - at - 1)))
		goto out;
	memcpy(out, s, n);
	out[n] = '\0';
	/* The domain is case-insensitive (RFC 5321 2.4); the local part
	 * belongs to the receiving host, so it is kept as typed. */
	for (i = local + 1; i < n; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] + ('a' - 'A'));
	*why = NULL;
	rc = 0;
out:
	free(nf);
	return rc;
}

int
acc_email_key(const char *email, char *out, size_t outsz)
{
	char *k = NULL, *again;
	size_t n;
	int i, rc = -1;

	if (outsz == 0)
		return -1;
	out[0] = '\0';
	if (email == NULL || !core_utf8_valid(email, strlen(email)))
		return -1;
	/*
	 * NFKC_Casefold: compatibility forms (fullwidth letters, ligatures)
	 * to their plain letters, full case folding (KELVIN SIGN to 'k',
	 * sharp s to "ss", dotted capital I to "i" and a combining dot),
	 * and default-ignorable characters (zero-width spaces, soft
	 * hyphens) dropped.  One pass is not always a fixed point (a
	 * fold can create a new composition), so repeat until it is.
	 */
	k = umap(email, strlen(email),
	    UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD |
		UTF8PROC_IGNORE);
	for (i = 0; k != NULL && i < 4; i++) {
		again = umap(k, strlen(k),
		    UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD |
			UTF8PROC_IGNORE);
		if (again == NULL || strcmp(again, k) == 0) {
			free(again);
			break;
		}
		free(k);
		k = again;
	}
	if (k == NULL || (n = strlen(k)) == 0 || n + 1 > outsz)
		goto out;
	memcpy(out, k, n + 1);
	rc = 0;
out:
	free(k);
	return rc;
}

void
acc_client_key(const char *addr, char out[ACC_CLIENT_KEY_MAX])
{
	/* One definition of a client for every limit: the reads' too. */
	core_client_key(addr, out);
}

int
acc_password_check(const char *pw, const char **why)
{
	size_t n = pw != NULL ? strlen(pw) : 0;

	if (n < ACC_PASSWORD_MIN) {
		*why = "Choose a longer password: at least 10 characters.";
		return -1;
	}
	if (n > ACC_PASSWORD_MAX) {
		*why = "Choose a shorter password: at most 1,024 bytes (about "
		       "1,000 letters).";
		return -1;
	}
	*why = NULL;
	return 0;
}

int
acc_next_ok(const char *next)
{
	const unsigned char *p;
	size_t n;

	if (next == NULL || next[0] != '/')
		return 0;
	/* "//host" and "/\host" are protocol-relative in browsers. */
	if (next[1] == '/' || next[1] == '\\')
		return 0;
	if ((n = strlen(next)) > 1024)
		return 0;
	for (p = (const unsigned char *)next; *p != '\0'; p++)
		if (*p <= 0x20 || *p == 0x7f || *p == '\\')
			return 0;
	return 1;
}

void
acc_token_new(char out[ACC_TOKEN_LEN + 1])
{
	unsigned char raw[ACC_TOKEN_RAW];

	randombytes_buf(raw, sizeof(raw));
	sodium_bin2base64(out, ACC_TOKEN_LEN + 1, raw, sizeof(raw),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof(raw));
}

int
acc_token_parse(const char *s, unsigned char raw[ACC_TOKEN_RAW])
{
	size_t i, binlen = 0;
	const char *end = NULL;

	if (s == NULL || strlen(s) != ACC_TOKEN_LEN)
		return -1;
	for (i = 0; i < ACC_TOKEN_LEN; i++)
		if (!is_alnum((unsigned char)s[i]) && s[i] != '-' &&
		    s[i] != '_')
			return -1;
	/* libsodium rejects non-zero padding bits: one spelling a token. */
	if (sodium_base642bin(raw, ACC_TOKEN_RAW, s, ACC_TOKEN_LEN, NULL,
		&binlen, &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
	    binlen != ACC_TOKEN_RAW || end != s + ACC_TOKEN_LEN)
		return -1;
	return 0;
}

void
acc_token_hash(const char *tok, char hex[ACC_HASH_HEX + 1])
{
	core_key_hash(tok, hex);
}

void
acc_csrf_derive(const unsigned char raw[ACC_TOKEN_RAW],
    char hex[ACC_HASH_HEX + 1])
{
	static const char label[] = "weft csrf v1";
	unsigned char h[32];

	crypto_generichash(h, sizeof(h), (const unsigned char *)label,
	    sizeof(label) - 1, raw, ACC_TOKEN_RAW);
	sodium_bin2hex(hex, ACC_HASH_HEX + 1, h, sizeof(h));
}

int
acc_csrf_check(const char *tok, const char *given)
{
	unsigned char raw[ACC_TOKEN_RAW];
	char want[ACC_HASH_HEX + 1];
	int ok;

	if (given == NULL || strlen(given) != ACC_HASH_HEX ||
	    acc_token_parse(tok, raw) != 0)
		return 0;
	acc_csrf_derive(raw, want);
	ok = sodium_memcmp(want, given, ACC_HASH_HEX) == 0;
	sodium_memzero(raw, sizeof(raw));
	return ok;
}

/* The length of base_url's origin (scheme://authority), 0 if none. */
static size_t
origin_len(const char *base)
{
	const char *p, *slash;

	if ((p = strstr(base, "://")) == NULL || p == base)
		return 0;
	p += 3;
	slash = strchr(p, '/');
	return slash != NULL ? (size_t)(slash - base) : strlen(base);
}

int
acc_origin_ok(const char *base_url, const char *origin, const char *referer)
{
	size_t n;

	if (base_url == NULL || (n = origin_len(base_url)) == 0)
		return 0;
	if (origin != NULL && *origin != '\0')
		return strlen(origin) == n &&
		    strncasecmp(origin, base_url, n) == 0;
	if (referer != NULL && *referer != '\0')
		return strncasecmp(referer, base_url, n) == 0 &&
		    (referer[n] == '\0' || referer[n] == '/' ||
			referer[n] == '?' || referer[n] == '#');
	return 1;
}

int
acc_parse_id(const char *s, size_t n, long long *id)
{
	unsigned long long v = 0;
	size_t i;

	if (n == 0 || n > 19 || s[0] == '0')
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long long)(s[i] - '0');
	}
	if (v == 0 || v > (1ULL << 62))
		return -1;
	*id = (long long)v;
	return 0;
}

char *
acc_path_next(const char *path, const char *next)
{
	struct core_buf b = CORE_BUF_INIT;
	char *r;

	core_buf_puts(&b, path);
	if (next != NULL) {
		core_buf_puts(&b, "?next=");
		core_url_encode(&b, next, 0);
	}
	r = core_xstrdup(core_buf_cstr(&b));
	core_buf_free(&b);
	return r;
}

/* ------------------------------------------------ issue 21: follow kinds */

const char *const acc_kinds[ACC_KIND__MAX] = {
	"researcher",
	"institution",
	"category",
	"search",
};

int
acc_kind_parse(const char *s)
{
	int k;

	if (s == NULL)
		return -1;
	for (k = 0; k < ACC_KIND__MAX; k++)
		if (strcmp(s, acc_kinds[k]) == 0)
			return k;
	return -1;
}

int
acc_search_normalise(const char *in, char *out, size_t outsz, const char **why)
{
	size_t n = 0, terms = 0, len;
	const char *p;
	int space = 1;

	*why = NULL;
	if (outsz > 0)
		*out = '\0';
	if (in == NULL)
		in = "";
	len = strlen(in);
	if (!core_utf8_valid(in, len)) {
		*why = "the search is not valid UTF-8";
		return -1;
	}
	for (p = in; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v') {
			space = 1;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			*why = "the search holds a control character";
			return -1;
		}
		if (space) {
			if (++terms > ACC_SEARCH_TERMS) {
				*why = "a saved search has at most 32 terms";
				return -1;
			}
			if (n > 0) {
				if (n + 1 >= outsz || n + 1 > ACC_SEARCH_MAX)
					goto long_;
				out[n++] = ' ';
			}
			space = 0;
		}
		if (n + 1 >= outsz || n + 1 > ACC_SEARCH_MAX)
			goto long_;
		out[n++] = (char)c;
	}
	if (n == 0) {
		*why = "a saved search needs at least one word (q=)";
		return -1;
	}
	out[n] = '\0';
	return 0;
long_:
	*out = '\0';
	*why = "a saved search has at most 200 bytes";
	return -1;
}

int
acc_digest_mode_ok(const char *s)
{
	return s != NULL &&
	    (strcmp(s, "off") == 0 || strcmp(s, "daily") == 0 ||
		strcmp(s, "weekly") == 0);
}
