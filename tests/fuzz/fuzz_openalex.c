/*
 * fuzz_openalex.c -- harvest_oa_parse() (list or entity by the input length's parity) on arbitrary bytes
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
	struct harvest_oa_list l;
	char why[HARVEST_WHY_LEN], ax[48];
	size_t i;

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (harvest_oa_parse(copy, size, size % 2, &l, why) == CORE_OK) {
		for (i = 0; i < json_array_size(l.results); i++)
			(void)harvest_oa_work_arxiv(json_array_get(l.results,
							i),
			    ax);
		harvest_oa_list_free(&l);
	} else if (l.results != NULL || why[0] == '\0')
		abort();
	free(copy);
	return 0;
}
