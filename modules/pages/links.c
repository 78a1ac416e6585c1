/*
 * links.c -- canonical paths, id and category parsing, JSON accessors.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

/*
 * "{prefix}{id}-{slug}".  The slug is percent-encoded: a loader's slug is
 * [a-z0-9-] and passes unchanged, but anything else must still decode
 * back to itself, or the canonical URL would redirect to itself forever.
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
pages_paper_path(const char *arxiv_id, const char *slug)
{
	size_t n = strlen(arxiv_id);

	/* A slug stored with the id in front ("2512.20345-a-study") is
	 * the same slug: do not repeat the id. */
	if (slug != NULL && strncmp(slug, arxiv_id, n) == 0 && slug[n] == '-')
		slug += n + 1;
	return with_slug("/papers/", arxiv_id, slug);
}

char *
pages_researcher_path(long long id, const char *slug)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", id);
	return with_slug("/researchers/", num, slug);
}

char *
pages_institution_path(long long id, const char *slug)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", id);
	return with_slug("/institutions/", num, slug);
}

char *
pages_abs(const char *base, const char *path)
{
	return core_xasprintf("%s%s", base, path);
}

json_t *
pages_json_abs(const char *base, const char *path)
{
	char *u = pages_abs(base, path);
	json_t *s = core_json_str(u);

	free(u);
	return s;
}

const char *
pages_rel(const char *base, const char *url)
{
	size_t n;

	if (url == NULL || base == NULL)
		return url;
	n = strlen(base);
	if (n == 0 || strncmp(url, base, n) != 0)
		return url;
	if (url[n] == '\0')
		return "/";
	if (url[n] == '/' || url[n] == '?')
		return url + n;
	return url;
}

int
pages_category_ok(const char *s)
{
	size_t n;

	if (s == NULL)
		return 0;
	n = strlen(s);
	if (n == 0 || n > 32)
		return 0;
	return strspn(s,
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789.-") == n;
}

int
pages_parse_id(const char *s, size_t n, long long *id)
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

const char *
pages_str(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

long long
pages_int(const json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

int
pages_has_int(const json_t *o, const char *key)
{
	return json_is_integer(json_object_get(o, key));
}

/* Length of the UTF-8 sequence starting with lead byte c (1 for junk). */
static size_t
u8len(unsigned char c)
{
	if (c >= 0xf0)
		return 4;
	if (c >= 0xe0)
		return 3;
	if (c >= 0xc0)
		return 2;
	return 1;
}

void
pages_excerpt(struct core_buf *b, const char *s, size_t max)
{
	size_t start = b->len, lastsp = 0, k;
	int sp = 0, cut = 0;
	const char *p;

	if (s == NULL)
		return;
	for (p = s; *p != '\0';) {
		if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') {
			sp = b->len > start;
			p++;
			continue;
		}
		k = u8len((unsigned char)*p);
		if (strnlen(p, k) < k)
			break;
		if (b->len - start + (sp ? 1 : 0) + k > max) {
			cut = 1;
			break;
		}
		if (sp) {
			lastsp = b->len;
			core_buf_putc(b, ' ');
			sp = 0;
		}
		core_buf_put(b, p, k);
		p += k;
	}
	if (cut) {
		/* Back to the last word boundary, when there is one. */
		if (lastsp > start) {
			b->len = lastsp;
			b->ptr[b->len] = '\0';
		}
		core_buf_puts(b, "…");
	}
}
