/*
 * svd.c -- a randomized truncated SVD of a sparse matrix (Halko,
 * Martinsson and Tropp, "Finding structure with randomness", 2011,
 * algorithms 4.4 and 5.1).  Only products with the sparse matrix, QRs
 * of tall thin matrices and one small SVD: OpenBLAS and LAPACKE, no
 * dense copy of the m x n matrix.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "core.h"
#include "internal.h"

uint64_t
vec_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
vec_gauss(uint64_t *st)
{
	double u = ((double)(vec_rand(st) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(vec_rand(st) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * y (m x l) = a x (n x l), or with t, y (n x l) = a' x (m x l); row
 * major.
 */
static void
mul(const struct vec_csr *a, int t, const float *x, size_t l, float *y)
{
	size_t i, p, r, c;

	memset(y, 0, (t ? a->cols : a->rows) * l * sizeof(*y));
	for (i = 0; i < a->rows; i++)
		for (p = a->ptr[i]; p < a->ptr[i + 1]; p++) {
			r = t ? (size_t)a->col[p] : i;
			c = t ? i : (size_t)a->col[p];
			cblas_saxpy((blasint)l, a->val[p], x + c * l, 1,
			    y + r * l, 1);
		}
}

/* Replaces the r x l matrix y by an orthonormal basis of its columns. */
static enum core_err
orth(float *y, size_t r, size_t l, float *tau)
{
	lapack_int rc;

	if ((rc = LAPACKE_sgeqrf(LAPACK_ROW_MAJOR, (lapack_int)r, (lapack_int)l,
		 y, (lapack_int)l, tau)) != 0 ||
	    (rc = LAPACKE_sorgqr(LAPACK_ROW_MAJOR, (lapack_int)r, (lapack_int)l,
		 (lapack_int)l, y, (lapack_int)l, tau)) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "QR failed (%d)", (int)rc);
		return CORE_ESYS;
	}
	return CORE_OK;
}

enum core_err
vec_svd(const struct vec_csr *a, size_t k, size_t p, unsigned q, uint64_t seed,
    float *v, float *sigma)
{
	size_t m = a->rows, n = a->cols, l = k + p, i, c;
	float *om = NULL, *y = NULL, *z = NULL, *s = NULL, *u = NULL;
	float *vt = NULL, *tau = NULL;
	uint64_t st = seed;
	enum core_err er;
	unsigned it;
	lapack_int rc;

	if (k == 0 || l > m || l > n) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "SVD of %zu x %zu: cannot take %zu + %zu dimensions", m, n,
		    k, p);
		return CORE_EINPUT;
	}
	om = core_xcalloc(n * l, sizeof(*om));
	y = core_xcalloc(m * l, sizeof(*y));
	tau = core_xcalloc(l, sizeof(*tau));
	for (i = 0; i < n * l; i++)
		om[i] = (float)vec_gauss(&st);

	/* Range of a: y = a om, then (a a')^q y, orthonormalised as we go
	 * so that the small singular values do not drown in rounding. */
	mul(a, 0, om, l, y);
	z = om; /* n x l, reused */
	om = NULL;
	if ((er = orth(y, m, l, tau)) != CORE_OK)
		goto out;
	for (it = 0; it < q; it++) {
		mul(a, 1, y, l, z);
		if ((er = orth(z, n, l, tau)) != CORE_OK)
			goto out;
		mul(a, 0, z, l, y);
		if ((er = orth(y, m, l, tau)) != CORE_OK)
			goto out;
	}
	/*
	 * b = y' a is l x n; its transpose z = a' y is n x l, whose left
	 * singular vectors are a's right ones: z = u s vt, a ~ y vt' s u'.
	 */
	mul(a, 1, y, l, z);
	s = core_xcalloc(l, sizeof(*s));
	u = core_xcalloc(n * l, sizeof(*u));
	vt = core_xcalloc(l * l, sizeof(*vt));
	rc = LAPACKE_sgesdd(LAPACK_ROW_MAJOR, 'S', (lapack_int)n, (lapack_int)l,
	    z, (lapack_int)l, s, u, (lapack_int)l, vt, (lapack_int)l);
	if (rc != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "SVD failed (%d)", (int)rc);
		er = CORE_ESYS;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (c = 0; c < k; c++)
			v[i * k + c] = u[i * l + c];
	for (c = 0; c < k; c++)
		sigma[c] = s[c];
	er = CORE_OK;
out:
	free(om);
	free(y);
	free(z);
	free(s);
	free(u);
	free(vt);
	free(tau);
	return er;
}
