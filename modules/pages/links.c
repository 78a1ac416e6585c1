/*
 * links.c -- absolute URLs, category checks, JSON accessors (the canonical
 * paths themselves are core's, shared with the other modules).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

int
pages_is_canon(const struct core_req *req, const char *canon)
{
	char *dec = NULL;
	int same;

	if (core_url_decode(canon, strlen(canon), 0, &dec, NULL) != CORE_OK)
		return 0;
	same = strcmp(core_req_path(req), dec) == 0;
	free(dec);
	return same;
}

void
pages_redirect(struct core_req *req, const char *path)
{
	const char *q = core_req_query(req);
	char *loc;

	loc = core_xasprintf("%s%s%s", path, *q != '\0' ? "?" : "", q);
	core_resp_redirect(req, 301, loc);
	free(loc);
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

json_t *
pages_json_abs_free(const char *base, char *path)
{
	json_t *s = pages_json_abs(base, path);

	free(path);
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
	return s != NULL && core_category_ok(s, strlen(s));
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
