/*
 * fuzz_vec_text.c -- the reader of fastText's .vec text (word vectors
 * the index build loads from a file): whatever the bytes, either
 * vec_wv_parse() refuses them or it returns exactly the words and
 * finite numbers the header promised.  Seeds: tests/fuzz/corpus/vec_text/.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vec_wordvecs wv;
	char *copy;
	size_t i;

	/* An exact-size copy: a read past the end is caught by ASan. */
	copy = malloc(size + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	if (vec_wv_parse(copy, size, &wv) == CORE_OK) {
		if (wv.dim == 0 || wv.dim > VEC_WV_MAX_DIM)
			abort();
		for (i = 0; i < wv.n; i++)
			if (wv.words[i][0] == '\0')
				abort();
		for (i = 0; i < wv.n * wv.dim; i++)
			if (!isfinite(wv.v[i]))
				abort();
		vec_wv_free(&wv);
	} else if (wv.n != 0 || wv.words != NULL || wv.v != NULL)
		abort(); /* a refusal leaves nothing behind */
	free(copy);
	return 0;
}
