/*
 * path.c -- the site's canonical paths (the same the pages module
 * builds, so that feed and sitemap links never redirect) and the checks
 * on what arrives in a feed URL.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "feeds.h"

char *
feeds_paper_path(const char *arxiv_id, const char *slug)
{
	size_t n = strlen(arxiv_id);

	/* A slug stored with the id in front ("2512.20345-a-study") is
	 * the same slug: do not repeat the id. */
	if (slug != NULL && strncmp(slug, arxiv_id, n) == 0 && slug[n] == '-')
		slug += n + 1;
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/papers/%s", arxiv_id);
	return core_xasprintf("/papers/%s-%s", arxiv_id, slug);
}

char *
feeds_researcher_path(long long id, const char *slug)
{
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/researchers/%lld", id);
	return core_xasprintf("/researchers/%lld-%s", id, slug);
}

char *
feeds_institution_path(long long id, const char *slug)
{
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/institutions/%lld", id);
	return core_xasprintf("/institutions/%lld-%s", id, slug);
}

int
feeds_category_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 32)
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxy"
			   "z"
			   "0123456789.-",
			s[i]) == NULL ||
		    s[i] == '\0')
			return 0;
	return 1;
}

int
feeds_parse_id(const char *s, size_t n, long long *id)
{
	long long v = 0;
	size_t i;

	/* At most 18 digits: no overflow, and bigserial never gets there. */
	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v < 1)
		return -1;
	*id = v;
	return 0;
}

int
feeds_strip_xml(const char *rest, size_t *n)
{
	size_t len = strlen(rest);

	if (len < 4 || strcmp(rest + len - 4, ".xml") != 0)
		return -1;
	*n = len - 4;
	return 0;
}

int
feeds_token_ok(const char *s, size_t n)
{
	size_t i;

	/* Tokens are made by accounts (random bytes, URL-safe encoding);
	 * anything else cannot be one, so we do not even hash it. */
	if (n < 16 || n > 128)
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxy"
			   "z"
			   "0123456789_-",
			s[i]) == NULL ||
		    s[i] == '\0')
			return 0;
	return 1;
}

void
feeds_token_hash(const char *s, size_t n, char out[65])
{
	unsigned char h[32];

	crypto_generichash(h, sizeof(h), (const unsigned char *)s, n, NULL, 0);
	sodium_bin2hex(out, 65, h, sizeof(h));
	sodium_memzero(h, sizeof(h));
}
