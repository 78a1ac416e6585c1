/*
 * fuzz_url.c -- percent-decoding, query strings and Cookie headers: every
 * string they hand out must be valid UTF-8 without NUL, and encoding a
 * decoded string must decode back to it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_str(const char *s)
{
	if (s == NULL || !core_utf8_valid(s, strlen(s)))
		abort();
}

static void
check_params(const struct core_params *p, size_t max)
{
	size_t i;

	if (p->n > max)
		abort();
	for (i = 0; i < p->n; i++) {
		check_str(p->v[i].key);
		check_str(p->v[i].val);
		if (core_params_get(p, p->v[i].key) == NULL)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_params p = { NULL, 0 };
	struct core_buf b = CORE_BUF_INIT;
	const char *s = (const char *)data;
	char *out = NULL, *again = NULL, *cstr = NULL;
	size_t len, len2;
	int plus;

	for (plus = 0; plus <= 1; plus++) {
		if (core_url_decode(s, size, plus, &out, &len) != CORE_OK) {
			if (out != NULL)
				abort();
			continue;
		}
		if (strlen(out) != len || !core_utf8_valid(out, len))
			abort();
		/* Round trip: encode, decode, compare. */
		core_buf_reset(&b);
		core_url_encode(&b, out, plus);
		if (core_url_decode(core_buf_cstr(&b), b.len, !plus, &again,
			&len2) != CORE_OK ||
		    len2 != len || memcmp(again, out, len) != 0)
			abort();
		free(again);
		again = NULL;
		free(out);
		out = NULL;
	}

	if (core_query_parse(s, size, &p) == CORE_OK)
		check_params(&p, 256);
	else if (p.n != 0 || p.v != NULL)
		abort();
	core_params_free(&p);

	/* The Cookie header is a C string. */
	cstr = core_xstrndup(s, size);
	core_cookie_parse(cstr, &p);
	check_params(&p, 256);
	core_params_free(&p);

	free(cstr);
	core_buf_free(&b);
	return 0;
}
