/*
 * fuzz_slug.c -- core_slug(): only [a-z0-9-], no leading, trailing or
 * doubled '-', never longer than maxlen, and a slug is its own slug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const char *s, size_t maxlen)
{
	size_t i, n = strlen(s);

	if (n > maxlen)
		abort();
	for (i = 0; i < n; i++) {
		if (s[i] == '-') {
			if (i == 0 || i == n - 1 || s[i + 1] == '-')
				abort();
		} else if (!((s[i] >= 'a' && s[i] <= 'z') ||
			       (s[i] >= '0' && s[i] <= '9')))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in, *s, *again;
	size_t maxlen;

	if (size < 1)
		return 0;
	/* The first byte picks maxlen, so cuts are fuzzed too. */
	maxlen = data[0] == 0xff ? (size_t)-1 : data[0];
	in = core_xstrndup((const char *)data + 1, size - 1);
	s = core_slug(in, maxlen);
	check(s, maxlen);
	again = core_slug(s, maxlen);
	if (strcmp(again, s) != 0)
		abort();
	free(again);
	free(s);
	free(in);
	return 0;
}
