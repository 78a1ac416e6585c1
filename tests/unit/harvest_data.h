/*
 * harvest_data.h -- reading the recorded responses of tests/data/harvest
 * (run from the repository root, as `make check` and tests/run.sh do).
 */
#ifndef HARVEST_DATA_H
#define HARVEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

#include "core.h"

/* The whole file tests/data/harvest/rel into b (reset first); 0 or -1. */
static inline int
data_read(const char *rel, struct core_buf *b)
{
	char path[512], chunk[8192];
	FILE *f;
	size_t n;

	core_buf_reset(b);
	snprintf(path, sizeof(path), "tests/data/harvest/%s", rel);
	if ((f = fopen(path, "rb")) == NULL) {
		printf("# cannot open %s (run from the repository root)\n",
		    path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		core_buf_put(b, chunk, n);
	fclose(f);
	core_buf_cstr(b);
	return 0;
}

/* A string member of a JSON object, or "(null)". */
static inline const char *
jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "(null)";
}

#endif /* HARVEST_DATA_H */
