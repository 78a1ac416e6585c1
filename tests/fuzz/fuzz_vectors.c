/*
 * fuzz_vectors.c -- the index file reader: whatever the bytes, either
 * vec_open_mem() refuses them or every query on the index stays inside
 * it, through its lists too (vec_search_probe() reading one or two of
 * them: a small index's vec_search() reads them all, the brute force).
 * Seeds: tests/fuzz/corpus/vectors/ (small valid indexes without and
 * with lists, written by test_vectors_file with WEFT_VEC_SEEDS set).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vec_index *idx = NULL;
	struct vec_hit hits[4];
	struct vec_query q;
	void *copy;
	size_t n;
	float s;

	/* The reader wants 8-byte alignment, which mmap always gives. */
	copy = malloc(size + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	if (vec_open_mem(copy, size, &idx) == CORE_OK) {
		vec_query_text(idx, "alpha beta networks", 4, hits, &n);
		if (vec_count(idx) > 0 &&
		    vec_query_text(idx, "gamma", 4, hits, &n) == CORE_OK &&
		    n > 0) {
			vec_similar(idx, hits[0].paper_id, 4, hits, &n);
			if (vec_embed(idx, "delta", &q) == CORE_OK)
				vec_score(idx, &q, hits[0].paper_id, &s);
		}
		vec_similar(idx, 1, 4, hits, &n);
		if (vec_embed(idx, "alpha gamma", &q) == CORE_OK) {
			vec_search_probe(idx, &q, 4, 7, 1, hits, &n);
			vec_search_probe(idx, &q, 3, -1, 2, hits, &n);
		}
		vec_close(idx);
	}
	free(copy);
	return 0;
}
