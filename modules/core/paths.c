/*
 * paths.c -- the site's canonical paths and the small checks on path
 * parts, shared by every module so that a link written by one module
 * (a feed item, a sitemap entry, a follow redirect) never redirects.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

/*
 * "{prefix}{id}-{slug}", the slug percent-encoded as pages does it: a
 * loader's slug is [a-z0-9-] and passes unchanged, but an odd one ('"',
 * spaces) must not reach a sitemap or feed link raw, and must give the
 * same URL as the page's canonical one.
 */
static char *
with_slug(const char *prefix, const char *id, const char *slug)
{
	struct core_buf b = CORE_BUF_INIT;

	core_buf_puts(&b, prefix);
	core_buf_puts(&b, id);
	if (slug != NULL && *slug != '\0') {
		core_buf_putc(&b, '-');
		core_url_encode(&b, slug, 0);
	}
	return core_buf_steal(&b);
}

char *
core_paper_path(const char *arxiv_id, const char *slug)
{
	size_t n = strlen(arxiv_id);

	/* A slug stored with the id in front ("2512.20345-a-study") is the
	 * same slug: do not repeat the id. */
	if (slug != NULL && strncmp(slug, arxiv_id, n) == 0 && slug[n] == '-')
		slug += n + 1;
	return with_slug("/papers/", arxiv_id, slug);
}

char *
core_researcher_path(long long id, const char *slug)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", id);
	return with_slug("/researchers/", num, slug);
}

char *
core_institution_path(long long id, const char *slug)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", id);
	return with_slug("/institutions/", num, slug);
}

int
core_category_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 32)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
			(s[i] >= 'A' && s[i] <= 'Z') ||
			(s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
			s[i] == '-'))
			return 0;
	return 1;
}

int
core_id_parse(const char *s, size_t n, long long *id)
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
