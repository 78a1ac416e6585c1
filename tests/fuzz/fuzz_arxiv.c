/*
 * fuzz_arxiv.c -- core_arxiv_parse() on bytes that are not NUL-terminated
 * (ASan catches any read past n): a parsed id, with its version, must
 * parse again to the same id, version and style, consuming all of it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_arxiv_id id, id2;
	char *copy, canon[64];
	size_t c = 0, c2 = 0;

	/* An exact-size heap copy, so a read past size is reported. */
	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	if (core_arxiv_parse(copy, size, &id, &c) != CORE_OK) {
		if (c != 0 || id.id[0] != '\0')
			abort();
		goto out;
	}
	if (c == 0 || c > size || id.version < 0 || id.version > 999)
		abort();
	if (memchr(id.id, '\0', sizeof(id.id)) == NULL)
		abort();
	if (id.version > 0)
		snprintf(canon, sizeof(canon), "%sv%d", id.id, id.version);
	else
		snprintf(canon, sizeof(canon), "%s", id.id);
	if (core_arxiv_parse(canon, strlen(canon), &id2, &c2) != CORE_OK ||
	    c2 != strlen(canon) || strcmp(id.id, id2.id) != 0 ||
	    id.version != id2.version || id.old_style != id2.old_style)
		abort();
out:
	free(copy);
	return 0;
}
