/*
 * fuzz_names.c -- author names (modules/harvest/name.c) on any bytes:
 * core_utf8_demojibake() never grows its input, gives valid UTF-8 from
 * valid UTF-8, changes nothing when it undid no round, and leaves
 * nothing a further round would undo; harvest_name_key() gives letters,
 * digits and single inner spaces.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"
#include "../../modules/harvest/harvest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
valid_utf8(const char *s)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
	utf8proc_int32_t cp;
	utf8proc_ssize_t r;

	for (; *p != '\0'; p += r)
		if ((r = utf8proc_iterate(p, -1, &cp)) <= 0)
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in, *out, *again, *key;
	size_t n;
	int rounds, more;

	in = core_xstrndup((const char *)data, size);
	n = strlen(in);
	out = core_utf8_demojibake(in, &rounds);
	if (strlen(out) > n || rounds < 0 || rounds > 3)
		abort();
	if (rounds == 0 && strcmp(out, in) != 0)
		abort();
	if (rounds > 0 && (!valid_utf8(out) || strlen(out) >= n))
		abort();
	if (valid_utf8(in) && !valid_utf8(out))
		abort();
	again = core_utf8_demojibake(out, &more);
	if (rounds < 3 && (more != 0 || strcmp(again, out) != 0))
		abort();
	free(again);

	key = harvest_name_key(in);
	if (key[0] == ' ' || (key[0] != '\0' && key[strlen(key) - 1] == ' ') ||
	    strstr(key, "  ") != NULL || !valid_utf8(key))
		abort();
	free(key);
	free(out);
	free(in);
	return 0;
}
