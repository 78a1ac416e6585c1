/*
 * fuzz_paths.c -- the parsers of path segments and request headers that
 * routing and conditional GETs use, on arbitrary bytes (an exact-size
 * copy for the length-taking ones, so ASan sees any read past the end):
 *
 *   core_id_parse             a success is 1..18 ASCII digits, positive,
 *                             and prints back to the same digits (less
 *                             leading zeros)
 *   core_category_ok          1 exactly for [A-Za-z0-9.-]{1,32}
 *   feeds_token_ok            1 exactly for [A-Za-z0-9_-]{16,128}
 *   feeds_sitemap_name_parse  a success prints back to the same name
 *   core_http_date_parse      a success formats (IMF-fixdate) and parses
 *                             back to the same time
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/feeds/feeds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 if s[0..n) is lo..hi bytes, all in set. */
static int
made_of(const char *s, size_t n, const char *set, size_t lo, size_t hi)
{
	size_t i;

	if (n < lo || n > hi)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '\0' || strchr(set, s[i]) == NULL)
			return 0;
	return 1;
}

#define DIGITS "0123456789"
#define ALNUM  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" DIGITS

static void
check_id(const char *s, size_t n)
{
	long long id = -7;
	char back[32];

	if (core_id_parse(s, n, &id) != 0)
		return;
	if (id <= 0 || !made_of(s, n, DIGITS, 1, 18))
		abort();
	while (n > 1 && s[0] == '0') {
		s++;
		n--;
	}
	snprintf(back, sizeof(back), "%lld", id);
	if (strlen(back) != n || memcmp(back, s, n) != 0)
		abort();
}

static void
check_sitemap(const char *s)
{
	enum feeds_kind kind = FEEDS_KIND__MAX;
	long long n = -7;
	char back[64];

	if (feeds_sitemap_name_parse(s, &kind, &n) != 0)
		return;
	if ((unsigned)kind >= FEEDS_KIND__MAX || n < 1)
		abort();
	snprintf(back, sizeof(back), "%s-%lld.xml", feeds_kind_name[kind], n);
	if (strcmp(back, s) != 0)
		abort();
}

static void
check_date(const char *s)
{
	int64_t t = -7, t2 = -8;
	char out[32];

	if (core_http_date_parse(s, &t) != 0)
		return;
	core_http_date(out, t);
	if (core_http_date_parse(out, &t2) != 0 || t2 != t)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *str;
	const char *s;

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	s = copy;
	check_id(s, size);
	if (core_category_ok(s, size) != made_of(s, size, ALNUM ".-", 1, 32))
		abort();
	if (feeds_token_ok(s, size) != made_of(s, size, ALNUM "_-", 16, 128))
		abort();
	str = core_xstrndup(s, size);
	check_sitemap(str);
	check_date(str);
	free(str);
	free(copy);
	return 0;
}
