/*
 * path.c -- the checks on what arrives in a feed URL.  (Canonical paths,
 * category and id checks are core's: core_paper_path() and friends.)
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"

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
	core_hash_hex(s, n, 32, out);
}
