/*
 * ivf.c -- the lists of an index (an inverted file, "IVF"): centroids
 * learned by a spherical k-means on a sample of the papers' vectors,
 * then every paper in the list of its nearest centroid.  A query reads
 * the few lists whose centroids are nearest to it (query.c).
 *
 * Everything is scored as queries score papers, int8 dot products
 * (vec_dots) times the centroid's scale, so a paper's own list is the
 * first a "similar papers" query from it reads.  Used by the build
 * only (write.c); pages.so does not link this file.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

/* Sample rows per list, the k-means iterations, the threads. */
#define SAMPLE_PER 32
#define ITERS      8
#define THREADS    2

size_t
vec_ivf_nlist(size_t n)
{
	size_t c;

	if (n <= VEC_IVF_MIN)
		return 0;
	c = (size_t)lrint(VEC_IVF_C * sqrt((double)n));
	if (c > VEC_NLIST_MAX)
		c = VEC_NLIST_MAX;
	return c < n ? c : n;
}

/* Rows lo..hi of one job: each row's best centroid (and its score). */
struct job {
	pthread_t th;
	const int8_t *vecs;
	const float *scales;
	const int8_t *cent;
	const float *cscales;
	size_t nlist, lo, hi;
	uint32_t *best;
	double *sum;   /* when set: nlist x VEC_DIMS, the unit rows added */
	size_t *count; /* per list, with sum */
	double fit;    /* sum of the best cosines */
	int started;   /* in a thread of its own */
};

/*
 * In tiles: ROWS rows against CENTS centroids at a time (16 + 8 KB, in
 * the first-level cache together), so that the centroids are read
 * from memory once a tile of rows, not once a row.
 */
#define ROWS  64
#define CENTS 32

static void *
assign(void *arg)
{
	struct job *j = arg;
	int32_t d[CENTS];
	float top[ROWS], sc;
	uint32_t best[ROWS];
	size_t r0, rb, c0, cb, i, b, c;
	double s;

	for (r0 = j->lo; r0 < j->hi; r0 += rb) {
		rb = j->hi - r0 < ROWS ? j->hi - r0 : ROWS;
		for (i = 0; i < rb; i++) {
			top[i] = -INFINITY;
			best[i] = 0;
		}
		for (c0 = 0; c0 < j->nlist; c0 += cb) {
			cb = j->nlist - c0 < CENTS ? j->nlist - c0 : CENTS;
			for (i = 0; i < rb; i++) {
				vec_dots(j->vecs + (r0 + i) * VEC_DIMS,
				    j->cent + c0 * VEC_DIMS, cb, d);
				/* The first of equal scores, as a query's
				 * heap takes it. */
				for (b = 0; b < cb; b++) {
					sc = (float)d[b] * j->cscales[c0 + b];
					if (sc > top[i]) {
						top[i] = sc;
						best[i] = (uint32_t)(c0 + b);
					}
				}
			}
		}
		for (i = 0; i < rb; i++) {
			const int8_t *v = j->vecs + (r0 + i) * VEC_DIMS;

			j->best[r0 + i] = best[i];
			s = (double)j->scales[r0 + i];
			j->fit += (double)top[i] * s;
			if (j->sum == NULL)
				continue;
			j->count[best[i]]++;
			for (c = 0; c < VEC_DIMS; c++)
				j->sum[best[i] * VEC_DIMS + c] += s * v[c];
		}
	}
	return NULL;
}

/*
 * Every row of vecs[0..n) to its best centroid, in THREADS threads;
 * with sum, also the sums of each list's rows as unit vectors and the
 * counts (the next centroids).  Returns the mean cosine of a row and
 * its centroid.
 */
static double
assign_all(const int8_t *vecs, const float *scales, size_t n,
    const int8_t *cent, const float *cscales, size_t nlist, uint32_t *best,
    double *sum, size_t *count)
{
	struct job j[THREADS];
	double fit = 0;
	size_t t, i, nt = n >= 4096 ? THREADS : 1;

	for (t = 0; t < nt; t++) {
		memset(&j[t], 0, sizeof(j[t]));
		j[t].vecs = vecs;
		j[t].scales = scales;
		j[t].cent = cent;
		j[t].cscales = cscales;
		j[t].nlist = nlist;
		j[t].lo = n * t / nt;
		j[t].hi = n * (t + 1) / nt;
		j[t].best = best;
		if (sum != NULL) {
			j[t].sum = t == 0
			    ? sum
			    : core_xcalloc(nlist * VEC_DIMS, sizeof(*sum));
			j[t].count = t == 0
			    ? count
			    : core_xcalloc(nlist, sizeof(*count));
		}
		if (t > 0)
			j[t].started =
			    pthread_create(&j[t].th, NULL, assign, &j[t]) == 0;
	}
	for (t = 0; t < nt; t++)
		if (!j[t].started)
			assign(&j[t]); /* the first, or no thread */
	for (t = 1; t < nt; t++)
		if (j[t].started)
			pthread_join(j[t].th, NULL);
	for (t = 0; t < nt; t++) {
		fit += j[t].fit;
		if (sum == NULL || t == 0)
			continue;
		for (i = 0; i < nlist * VEC_DIMS; i++)
			sum[i] += j[t].sum[i];
		for (i = 0; i < nlist; i++)
			count[i] += j[t].count[i];
		free(j[t].sum);
		free(j[t].count);
	}
	return n > 0 ? fit / (double)n : 0;
}

/* Centroid c from a float vector; 0 when x is 0 (an empty list). */
static int
set_centroid(const double *x, int8_t *cent, float *cscales, size_t c)
{
	struct vec_query q;
	float f[VEC_DIMS];
	size_t j;

	for (j = 0; j < VEC_DIMS; j++)
		f[j] = (float)x[j];
	if (vec_quantize(f, &q) != CORE_OK)
		return 0;
	memcpy(cent + c * VEC_DIMS, q.v, VEC_DIMS);
	cscales[c] = q.scale;
	return 1;
}

double
vec_ivf_train(const int8_t *vecs, const float *scales, size_t n, size_t nlist,
    uint64_t seed, int8_t *cent, float *cscales, uint32_t *list)
{
	uint32_t *pick = NULL, *sbest = NULL, t;
	int8_t *svecs = NULL;
	float *sscales = NULL;
	double *sum = NULL, x[VEC_DIMS], fit = 0;
	size_t *count = NULL, m, i, j, c, it;
	uint64_t st = seed;

	if (nlist == 0 || n == 0)
		return 0;
	/* The sample: m distinct rows (a partial Fisher-Yates shuffle). */
	m = nlist * SAMPLE_PER < n ? nlist * SAMPLE_PER : n;
	pick = core_xcalloc(n, sizeof(*pick));
	for (i = 0; i < n; i++)
		pick[i] = (uint32_t)i;
	for (i = 0; i < m; i++) {
		j = i + (size_t)(vec_rand(&st) % (n - i));
		t = pick[i];
		pick[i] = pick[j];
		pick[j] = t;
	}
	svecs = core_xcalloc(m, VEC_DIMS);
	sscales = core_xcalloc(m, sizeof(*sscales));
	for (i = 0; i < m; i++) {
		memcpy(svecs + i * VEC_DIMS, vecs + (size_t)pick[i] * VEC_DIMS,
		    VEC_DIMS);
		sscales[i] = scales[pick[i]];
	}
	free(pick);
	pick = NULL;

	/* Start from nlist of the sampled papers (already in random order). */
	for (c = 0; c < nlist; c++) {
		memcpy(cent + c * VEC_DIMS, svecs + c * VEC_DIMS, VEC_DIMS);
		cscales[c] = sscales[c];
	}
	sbest = core_xcalloc(m, sizeof(*sbest));
	sum = core_xcalloc(nlist * VEC_DIMS, sizeof(*sum));
	count = core_xcalloc(nlist, sizeof(*count));
	for (it = 0; it < ITERS; it++) {
		memset(sum, 0, nlist * VEC_DIMS * sizeof(*sum));
		memset(count, 0, nlist * sizeof(*count));
		assign_all(svecs, sscales, m, cent, cscales, nlist, sbest, sum,
		    count);
		/*
		 * Spherical k-means: the new centroid is the direction of the
		 * sum of its rows.  An empty list restarts at a random
		 * sampled paper, which then pulls its neighbours over.
		 */
		for (c = 0; c < nlist; c++) {
			if (count[c] > 0 &&
			    set_centroid(sum + c * VEC_DIMS, cent, cscales, c))
				continue;
			i = (size_t)(vec_rand(&st) % m);
			for (j = 0; j < VEC_DIMS; j++)
				x[j] = (double)svecs[i * VEC_DIMS + j] +
				    (double)(vec_rand(&st) % 3) - 1;
			if (!set_centroid(x, cent, cscales, c)) {
				memcpy(cent + c * VEC_DIMS,
				    svecs + i * VEC_DIMS, VEC_DIMS);
				cscales[c] = sscales[i];
			}
		}
	}
	fit =
	    assign_all(vecs, scales, n, cent, cscales, nlist, list, NULL, NULL);
	free(svecs);
	free(sscales);
	free(sbest);
	free(sum);
	free(count);
	return fit;
}

uint32_t
vec_ivf_nearest(const int8_t *v, const int8_t *cent, const float *cscales,
    size_t nlist, float *score)
{
	int32_t d[CENTS];
	float top = -INFINITY, sc;
	uint32_t best = 0;
	size_t c0, cb, b;

	/* The scores and the tie rule of assign(), so that a vector added
	 * later lands in the list a full assignment would give it. */
	for (c0 = 0; c0 < nlist; c0 += cb) {
		cb = nlist - c0 < CENTS ? nlist - c0 : CENTS;
		vec_dots(v, cent + c0 * VEC_DIMS, cb, d);
		for (b = 0; b < cb; b++) {
			sc = (float)d[b] * cscales[c0 + b];
			if (sc > top) {
				top = sc;
				best = (uint32_t)(c0 + b);
			}
		}
	}
	if (score != NULL)
		*score = top;
	return best;
}
