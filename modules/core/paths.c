/*
 * paths.c -- the site's canonical paths and the small checks on path
 * parts, shared by every module so that a link written by one module
 * (a feed item, a sitemap entry, a follow redirect) never redirects.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

char *
core_paper_path(const char *arxiv_id, const char *slug)
{
	size_t n = strlen(arxiv_id);

	/* A slug stored with the id in front ("2512.20345-a-study") is the
	 * same slug: do not repeat the id. */
	if (slug != NULL && strncmp(slug, arxiv_id, n) == 0 && slug[n] == '-')
		slug += n + 1;
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/papers/%s", arxiv_id);
	return core_xasprintf("/papers/%s-%s", arxiv_id, slug);
}

char *
core_researcher_path(long long id, const char *slug)
{
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/researchers/%lld", id);
	return core_xasprintf("/researchers/%lld-%s", id, slug);
}

char *
core_institution_path(long long id, const char *slug)
{
	if (slug == NULL || *slug == '\0')
		return core_xasprintf("/institutions/%lld", id);
	return core_xasprintf("/institutions/%lld-%s", id, slug);
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
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '-'))
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
