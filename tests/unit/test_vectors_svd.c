/*
 * test_vectors_svd.c -- the randomized SVD on matrices whose SVD is
 * known, and the fit of a model on a tiny corpus.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "internal.h"

#define M 60
#define N 40
#define K 6

int
main(void)
{
	struct vec_csr a;
	float *v = core_xcalloc(N * K, sizeof(float)), sigma[K];
	size_t i, c, perm[N];
	int ok;

	/*
	 * A scaled permutation: row i has sigma_i = 2^-i/2 in column
	 * perm[i], so a's singular values are those and its right singular
	 * vectors the unit vectors e_perm[i] (up to sign).
	 */
	memset(&a, 0, sizeof(a));
	a.rows = M;
	a.cols = N;
	a.ptr = core_xcalloc(M + 1, sizeof(*a.ptr));
	a.col = core_xcalloc(N, sizeof(*a.col));
	a.val = core_xcalloc(N, sizeof(*a.val));
	for (i = 0; i < N; i++)
		perm[i] = (i * 7 + 3) % N;
	for (i = 0; i < M; i++) {
		a.ptr[i + 1] = a.ptr[i];
		if (i < N) {
			a.col[a.nnz] = (uint32_t)perm[i];
			a.val[a.nnz++] = (float)pow(2, -(double)i / 2);
			a.ptr[i + 1]++;
		}
	}
	T_EQ(vec_svd(&a, K, 6, 2, 1, v, sigma), CORE_OK, "svd runs");
	ok = 1;
	for (c = 0; c < K; c++)
		if (fabs(sigma[c] - pow(2, -(double)c / 2)) > 1e-4)
			ok = 0;
	T_OK(ok, "singular values found");
	ok = 1;
	for (c = 0; c < K; c++)
		for (i = 0; i < N; i++)
			if (fabs(fabs(v[i * K + c]) - (i == perm[c])) > 1e-3)
				ok = 0;
	T_OK(ok, "right singular vectors are the permuted unit vectors");
	T_EQ(vec_svd(&a, 40, 6, 2, 1, v, sigma), CORE_EINPUT,
	    "more dimensions than columns refused");
	vec_csr_free(&a);
	free(v);
	return T_DONE();
}
