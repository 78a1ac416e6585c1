/*
 * fuzz_s2list.c -- harvest_s2_list_parse() (the shape from the input
 * length: search, bulk or recommendations) on arbitrary bytes (an
 * exact-size heap copy, so ASan sees any read past the end): a success
 * gives papers each with an id or counted gone, a failure a reason and
 * nothing else.
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
	struct harvest_s2_list l;
	char *copy, why[HARVEST_WHY_LEN];
	size_t i, gone = 0;

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (harvest_s2_list_parse(copy, size,
		(enum harvest_s2_shape)(size % HARVEST_S2_SHAPE__MAX), &l,
		why) == CORE_OK) {
		for (i = 0; i < l.n; i++) {
			if (l.v[i].id == NULL)
				gone++;
			else if (l.v[i].id[0] == '\0' ||
			    !json_is_array(l.v[i].authors))
				abort();
		}
		if (gone != l.gone || (l.token != NULL && l.token[0] == '\0'))
			abort();
		harvest_s2_list_free(&l);
	} else if (l.v != NULL || l.token != NULL || why[0] == '\0')
		abort();
	free(copy);
	return 0;
}
