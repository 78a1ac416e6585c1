/*
 * fuzz_arxivraw.c -- harvest_arxivraw_authors() (arXivRaw's authors
 * line, parentheses and numbered affiliations) on any bytes: never more
 * than HARVEST_MAX_AUTHORS + 1 authors, each a non-empty name without
 * parentheses at depth 0 and at most 16 affiliations, and the result
 * serialises (every string cleaned).  The XML side of the
 * format is fuzz_oai's (its corpus holds an arXivRaw page).
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
	char *in, *s;
	json_t *a, *e;
	size_t i;

	in = core_xstrndup((const char *)data, size);
	a = harvest_arxivraw_authors(in);
	if (!json_is_array(a) || json_array_size(a) > HARVEST_MAX_AUTHORS + 1)
		abort();
	json_array_foreach(a, i, e)
	{
		const char *name =
		    json_string_value(json_object_get(e, "name"));
		json_t *aff = json_object_get(e, "affiliations");

		if (name == NULL || *name == '\0' || !json_is_array(aff) ||
		    json_array_size(aff) > 16)
			abort();
	}
	s = json_dumps(a, JSON_COMPACT);
	if (s == NULL) /* core_json_str() cleaned every string */
		abort();
	free(s);
	json_decref(a);
	free(in);
	return 0;
}
