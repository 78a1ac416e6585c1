/*
 * fuzz_affil.c -- raw affiliation strings (modules/harvest/affil_ror.c)
 * on any bytes: the parts are non-empty, hold no separator and no
 * surrounding space; the key has single inner spaces; the matcher, on a
 * small index, names only institutions it holds, each once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/harvest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct harvest_affix *ix;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in, **parts, *key;
	long long ids[8];
	size_t n, i, j;

	if (ix == NULL) {
		ix = harvest_affix_new();
		harvest_affix_add(ix, 1, "University College London",
		    "[\"UCL\"]", "GB", "United Kingdom", 1);
		harvest_affix_add(ix, 2, "Institute of Physics", "[\"IOP\"]",
		    "PL", "Poland", 1);
		harvest_affix_add(ix, 3, "Institute of Physics", "[]", "HR",
		    "Croatia", 0);
		harvest_affix_add(ix, 4, "Kyoto University",
		    "[\"Kyōto daigaku\", \"京都大学\"]", "JP", "Japan", 1);
	}
	in = core_xstrndup((const char *)data, size);
	n = harvest_affil_split(in, &parts);
	if (n > 32)
		abort();
	for (i = 0; i < n; i++) {
		if (parts[i][0] == '\0' || parts[i][0] == ' ' ||
		    strpbrk(parts[i], ",;()[]|\n\r\t") != NULL)
			abort();
		key = harvest_affil_key(parts[i]);
		if (key[0] == ' ' || strstr(key, "  ") != NULL ||
		    (key[0] != '\0' && key[strlen(key) - 1] == ' '))
			abort();
		free(key);
	}
	core_strv_free(parts, n);
	n = harvest_affix_match(ix, in, ids, 8);
	for (i = 0; i < n; i++) {
		if (ids[i] < 1 || ids[i] > 4)
			abort();
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				abort();
	}
	free(in);
	return 0;
}
