/*
 * fuzz_s2.c -- harvest_s2_parse() (the expected length from the input length) on arbitrary bytes
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
	struct harvest_s2_batch b;
	char why[HARVEST_WHY_LEN];
	size_t want = size % 7;

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (harvest_s2_parse(copy, size, want, (int)(size % 2), &b, why) ==
	    CORE_OK) {
		if (b.n != want)
			abort();
		harvest_s2_batch_free(&b);
	} else if (b.v != NULL || why[0] == '\0')
		abort();
	free(copy);
	return 0;
}
