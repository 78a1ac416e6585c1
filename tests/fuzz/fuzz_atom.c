/*
 * fuzz_atom.c -- harvest_atom_parse() on arbitrary bytes
 * (an exact-size heap copy, so ASan sees any read past the end): a
 * success gives a well-formed result, a failure a reason and nothing
 * else.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN];

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (harvest_atom_parse(copy, size, &pg, why) == CORE_OK) {
		char *s = json_dumps(pg.papers, JSON_COMPACT);
		if (s == NULL)
			abort();
		free(s);
		harvest_page_free(&pg);
	} else if (pg.papers != NULL || why[0] == '\0')
		abort();
	free(copy);
	return 0;
}
