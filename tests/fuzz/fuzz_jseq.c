/*
 * fuzz_jseq.c -- the JSON dump splitter (jseq.c) and, on each record it
 * hands over, json_loadb() and harvest_ror_parse(), as `weft-harvest
 * ror` runs them.  The input is fed in two chunks split at a point the
 * first byte chooses, so a record cut across pushes is exercised; each
 * record must be a copy of a span that starts with '{'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/harvest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
rec(void *arg, const char *s, size_t len)
{
	struct harvest_inst in;
	const char *why;
	json_t *o;

	(void)arg;
	if (len == 0 || s[0] != '{')
		abort();
	if ((o = json_loadb(s, len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;
	memset(&in, 0, sizeof(in));
	if (harvest_ror_parse(o, &in, &why) == CORE_OK) {
		if (in.ror_id == NULL || in.name == NULL)
			abort();
		harvest_inst_free(&in);
	} else if (why == NULL)
		abort();
	json_decref(o);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct harvest_jseq j;
	char *copy, why[HARVEST_JSEQ_WHY];
	size_t cut;
	int rc;

	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	cut = size > 0 ? data[0] % (size + 1) : 0;
	harvest_jseq_open(&j, 4096);
	why[0] = '\0';
	rc = harvest_jseq_push(&j, copy, cut, rec, NULL, why);
	if (rc == 0)
		rc = harvest_jseq_push(&j, copy + cut, size - cut, rec, NULL,
		    why);
	if (rc == 0)
		rc = harvest_jseq_end(&j, why);
	if (rc != 0 && why[0] == '\0')
		abort();
	harvest_jseq_close(&j);
	free(copy);
	return 0;
}
