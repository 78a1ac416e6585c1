/*
 * query.c -- embedding a text with the index's model and the scan.
 * 2.5 M papers x 256 bytes is 640 MB, read once per query by a brute
 * force; above VEC_EXACT_MAX papers the scan reads the 320 MB of 4-bit
 * rows instead and then a few thousand full vectors.  The
 * loop below is what the compiler turns into widening multiply-adds,
 * so keep it plain (no branches inside, fixed trip count).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

/* Tokens of one text looked at; an abstract has about 200. */
#define EMBED_MAX 4096

struct embed {
	const struct vec_index *idx;
	uint32_t ids[EMBED_MAX];
	size_t n, tokens;
};

/* The vocabulary id of t, or -1 (the terms are sorted: checked). */
static int64_t
lookup(const struct vec_index *idx, const char *t)
{
	size_t lo = 0, hi = idx->nterms, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(t, idx->str + idx->termoff[mid]);
		if (c == 0)
			return (int64_t)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static void
collect(void *arg, const char *tok, size_t len)
{
	struct embed *e = arg;
	int64_t id;

	(void)len;
	e->tokens++;
	if (e->n == EMBED_MAX || (id = lookup(e->idx, tok)) < 0)
		return;
	e->ids[e->n++] = (uint32_t)id;
}

static int
cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

enum core_err
vec_embed(const struct vec_index *idx, const char *text, struct vec_query *q)
{
	struct embed *e;
	float x[VEC_DIMS];
	double w;
	size_t i, j, run;
	const float *row;

	memset(q, 0, sizeof(*q));
	if (text == NULL || idx->nterms == 0)
		return CORE_ENOTFOUND;
	/* 16 KB: on the heap, workers' stacks may be small. */
	e = core_xcalloc(1, sizeof(*e));
	e->idx = idx;
	vec_tokenize(text, strlen(text), collect, e);
	qsort(e->ids, e->n, sizeof(e->ids[0]), cmpu32);

	memset(x, 0, sizeof(x));
	for (i = 0; i < e->n; i += run) {
		for (run = 1; i + run < e->n && e->ids[i + run] == e->ids[i];
		     run++)
			;
		q->known++;
		/* (1 + ln tf) * idf, the weighting the model was fit with */
		w = (1.0 + log((double)run)) * idx->idf[e->ids[i]];
		row = idx->proj + (size_t)e->ids[i] * VEC_DIMS;
		for (j = 0; j < VEC_DIMS; j++)
			x[j] += (float)w * row[j];
	}
	free(e);
	if (q->known == 0 || vec_quantize(x, q) != CORE_OK) {
		q->known = 0;
		return CORE_ENOTFOUND;
	}
	return CORE_OK;
}

enum core_err
vec_quantize(const float *x, struct vec_query *q)
{
	double norm = 0, m = 0;
	size_t j;

	for (j = 0; j < VEC_DIMS; j++)
		norm += (double)x[j] * x[j];
	norm = sqrt(norm);
	if (!(norm > 0) || !isfinite(norm))
		return CORE_ENOTFOUND;
	for (j = 0; j < VEC_DIMS; j++)
		if (fabs(x[j] / norm) > m)
			m = fabs(x[j] / norm);
	/* Each vector its own scale: the largest component becomes 127. */
	q->scale = (float)(m / 127.0);
	for (j = 0; j < VEC_DIMS; j++)
		q->v[j] = (int8_t)lrint(x[j] / norm / m * 127.0);
	return CORE_OK;
}

static int32_t
dot(const int8_t *restrict a, const int8_t *restrict b)
{
	int32_t s = 0;
	int j;

	for (j = 0; j < VEC_DIMS; j++)
		s += (int32_t)a[j] * (int32_t)b[j];
	return s;
}

/*
 * dot() of q with n consecutive papers.  On x86-64 with AVX2 (checked
 * once at run time, so one binary serves every machine) 16 dimensions
 * at a time: the paper's bytes widened to 16 bits and multiplied-added
 * with the query, widened once beforehand: about 3 instructions per 16
 * bytes, so the scan runs at memory speed.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX2_PATH 1

__attribute__((target("avx2"), always_inline)) static inline void
dots_avx2_n(const int8_t *q, const int8_t *docs, size_t n, int32_t *out,
    size_t dims)
{
	__m256i qw[VEC_DIMS / 16], acc, d;
	__m128i s;
	size_t i, j;

	for (j = 0; j < dims / 16; j++)
		qw[j] = _mm256_cvtepi8_epi16(_mm_loadu_si128(
		    (const __m128i *)(const void *)(q + 16 * j)));
	for (i = 0; i < n; i++, docs += dims) {
		acc = _mm256_setzero_si256();
		for (j = 0; j < dims / 16; j++) {
			d = _mm256_cvtepi8_epi16(_mm_loadu_si128(
			    (const __m128i *)(const void *)(docs + 16 * j)));
			acc =
			    _mm256_add_epi32(acc, _mm256_madd_epi16(d, qw[j]));
		}
		s = _mm_add_epi32(_mm256_castsi256_si128(acc),
		    _mm256_extracti128_si256(acc, 1));
		s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
		s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
		out[i] = _mm_cvtsi128_si32(s);
	}
}

/* The two widths, each with its trip count known to the compiler. */
__attribute__((target("avx2"))) static void
dots_avx2(const int8_t *q, const int8_t *docs, size_t n, int32_t *out)
{
	dots_avx2_n(q, docs, n, out, VEC_DIMS);
}

/*
 * The 4-bit rows: per block of 64 dimensions, 32 bytes whose low
 * halves pair with the query's first 32 bytes and high halves with the
 * next 32 (vec_nib_pack).  Unsigned 4-bit times signed 8-bit sums of
 * pairs fit 16 bits (2 * 15 * 127); the offset 8 comes off at the end.
 */
__attribute__((target("avx2"))) static void
nibs_avx2(const int8_t *q, const uint8_t *docs, size_t n, int32_t *out)
{
	__m256i qw[VEC_DIMS / 32], acc, x, lo, hi, p;
	const __m256i mask = _mm256_set1_epi8(0x0f),
		      ones = _mm256_set1_epi16(1);
	__m128i s;
	int32_t off = 0;
	size_t i, c;

	for (c = 0; c < VEC_DIMS / 32; c++)
		qw[c] = _mm256_loadu_si256(
		    (const __m256i *)(const void *)(q + 32 * c));
	for (c = 0; c < VEC_DIMS; c++)
		off += 8 * (int32_t)q[c];
	for (i = 0; i < n; i++, docs += VEC_NIB) {
		acc = _mm256_setzero_si256();
		for (c = 0; c < VEC_NIB / 32; c++) {
			x = _mm256_loadu_si256(
			    (const __m256i *)(const void *)(docs + 32 * c));
			lo = _mm256_and_si256(x, mask);
			hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), mask);
			p = _mm256_add_epi16(_mm256_maddubs_epi16(lo,
						 qw[2 * c]),
			    _mm256_maddubs_epi16(hi, qw[2 * c + 1]));
			acc = _mm256_add_epi32(acc, _mm256_madd_epi16(p, ones));
		}
		s = _mm_add_epi32(_mm256_castsi256_si128(acc),
		    _mm256_extracti128_si256(acc, 1));
		s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
		s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
		out[i] = _mm_cvtsi128_si32(s) - off;
	}
}
/*
 * With AVX-512 VNNI one instruction multiplies 64 unsigned bytes by 64
 * signed ones and adds them in fours to 16 sums: a paper's 256 bytes in
 * four, flipped to unsigned (d + 128) and the 128 * sum(q) taken off
 * at the end.  Five times fewer instructions than the AVX2 path, which
 * matters when the cores are shared.
 */
#define VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))

VNNI static void
dots_vnni(const int8_t *q, const int8_t *docs, size_t n, int32_t *out)
{
	__m512i qw[VEC_DIMS / 64], acc, x;
	const __m512i flip = _mm512_set1_epi8((char)0x80);
	int32_t off = 0;
	size_t i, j;

	for (j = 0; j < VEC_DIMS / 64; j++)
		qw[j] = _mm512_loadu_si512((const void *)(q + 64 * j));
	for (j = 0; j < VEC_DIMS; j++)
		off += 128 * (int32_t)q[j];
	for (i = 0; i < n; i++, docs += VEC_DIMS) {
		acc = _mm512_setzero_si512();
		for (j = 0; j < VEC_DIMS / 64; j++) {
			x = _mm512_xor_si512(_mm512_loadu_si512(
						 (const void *)(docs + 64 * j)),
			    flip);
			acc = _mm512_dpbusd_epi32(acc, x, qw[j]);
		}
		out[i] = _mm512_reduce_add_epi32(acc) - off;
	}
}

/* The 4-bit rows: 64 bytes are two blocks of 64 dimensions; the query
 * is rearranged to meet their low and high halves. */
VNNI static void
nibs_vnni(const int8_t *q, const uint8_t *docs, size_t n, int32_t *out)
{
	int8_t ql[VEC_DIMS / 2], qh[VEC_DIMS / 2];
	__m512i qlo[VEC_NIB / 64], qhi[VEC_NIB / 64], acc, x;
	const __m512i mask = _mm512_set1_epi8(0x0f);
	int32_t off = 0;
	size_t i, c, b;

	for (c = 0; c < VEC_DIMS / 64; c++)
		for (b = 0; b < 32; b++) {
			ql[32 * c + b] = q[64 * c + b];
			qh[32 * c + b] = q[64 * c + 32 + b];
		}
	for (c = 0; c < VEC_NIB / 64; c++) {
		qlo[c] = _mm512_loadu_si512((const void *)(ql + 64 * c));
		qhi[c] = _mm512_loadu_si512((const void *)(qh + 64 * c));
	}
	for (c = 0; c < VEC_DIMS; c++)
		off += 8 * (int32_t)q[c];
	for (i = 0; i < n; i++, docs += VEC_NIB) {
		acc = _mm512_setzero_si512();
		for (c = 0; c < VEC_NIB / 64; c++) {
			x = _mm512_loadu_si512((const void *)(docs + 64 * c));
			acc = _mm512_dpbusd_epi32(acc,
			    _mm512_and_si512(x, mask), qlo[c]);
			acc = _mm512_dpbusd_epi32(acc,
			    _mm512_and_si512(_mm512_srli_epi16(x, 4), mask),
			    qhi[c]);
		}
		out[i] = _mm512_reduce_add_epi32(acc) - off;
	}
}
#endif

static int
have_avx2(void)
{
#ifdef HAVE_AVX2_PATH
	static int avx2 = -1;

	if (avx2 < 0) {
		__builtin_cpu_init();
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	return avx2;
#else
	return 0;
#endif
}

static int
have_vnni(void)
{
#ifdef HAVE_AVX2_PATH
	static int vnni = -1;

	if (vnni < 0) {
		__builtin_cpu_init();
		vnni = __builtin_cpu_supports("avx512vnni") &&
		    __builtin_cpu_supports("avx512bw");
	}
	return vnni;
#else
	return 0;
#endif
}

static void
dots(const int8_t *q, const int8_t *docs, size_t n, int32_t *out)
{
	size_t i;

#ifdef HAVE_AVX2_PATH
	if (have_vnni()) {
		dots_vnni(q, docs, n, out);
		return;
	}
	if (have_avx2()) {
		dots_avx2(q, docs, n, out);
		return;
	}
#endif
	for (i = 0; i < n; i++)
		out[i] = dot(q, docs + i * VEC_DIMS);
}

void
vec_nib_pack(const int8_t *v, uint8_t *out)
{
	size_t c, b;
	long lo, hi;

	for (c = 0; c < VEC_DIMS / 64; c++)
		for (b = 0; b < 32; b++) {
			lo = lrint(v[64 * c + b] * 7.0 / 127.0) + 8;
			hi = lrint(v[64 * c + 32 + b] * 7.0 / 127.0) + 8;
			out[32 * c + b] = (uint8_t)(lo | hi << 4);
		}
}

/* q against n 4-bit rows: dot(q, row) in units of 127/7 of the row's
 * scale. */
static void
nibs(const int8_t *q, const uint8_t *docs, size_t n, int32_t *out)
{
	size_t i, c, b;
	int32_t s;

#ifdef HAVE_AVX2_PATH
	if (have_vnni()) {
		nibs_vnni(q, docs, n, out);
		return;
	}
	if (have_avx2()) {
		nibs_avx2(q, docs, n, out);
		return;
	}
#endif
	for (i = 0; i < n; i++, docs += VEC_NIB) {
		for (s = 0, c = 0; c < VEC_DIMS / 64; c++)
			for (b = 0; b < 32; b++) {
				s += ((docs[32 * c + b] & 15) - 8) *
				    (int32_t)q[64 * c + b];
				s += ((docs[32 * c + b] >> 4) - 8) *
				    (int32_t)q[64 * c + 32 + b];
			}
		out[i] = s;
	}
}

/* The heap of the best k: hits[0] is the worst kept. */
static void
sift_down(struct vec_hit *h, size_t n, size_t i)
{
	struct vec_hit t;
	size_t c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && h[c + 1].score < h[c].score)
			c++;
		if (h[i].score <= h[c].score)
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void
sift_up(struct vec_hit *h, size_t i)
{
	struct vec_hit t;

	while (i > 0 && h[(i - 1) / 2].score > h[i].score) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static int
cmphit(const void *a, const void *b)
{
	const struct vec_hit *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->paper_id < y->paper_id ? -1 : x->paper_id > y->paper_id;
}

#define BLOCK 256

/* Offers (id, score) to the heap of the best k, h[0..*n); *worst is
 * the worst kept once the heap is full. */
static void
offer(struct vec_hit *h, size_t *n, size_t k, int64_t id, float score,
    float *worst)
{
	if (*n == k && score <= *worst)
		return;
	if (*n < k) {
		h[*n].paper_id = id;
		h[*n].score = score;
		sift_up(h, (*n)++);
	} else {
		h[0].paper_id = id;
		h[0].score = score;
		sift_down(h, *n, 0);
	}
	if (*n == k)
		*worst = h[0].score;
}

/* Every full vector. */
static size_t
search_exact(const struct vec_index *idx, const struct vec_query *q, size_t k,
    int64_t exclude_id, struct vec_hit *hits)
{
	float s[BLOCK];
	int32_t d[BLOCK];
	size_t r, b, nb, n = 0;
	float worst = -INFINITY;

	for (r = 0; r < idx->ndocs; r += BLOCK) {
		nb = idx->ndocs - r < BLOCK ? idx->ndocs - r : BLOCK;
		/* First the arithmetic for a block, then the bookkeeping. */
		dots(q->v, idx->vecs + r * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++)
			s[b] = (float)d[b] * idx->scales[r + b];
		for (b = 0; b < nb; b++)
			if ((n < k || s[b] > worst) &&
			    idx->ids[r + b] != exclude_id)
				offer(hits, &n, k, idx->ids[r + b], s[b],
				    &worst);
	}
	return n;
}

/* The best cand rows by their 4-bit rows, then the best k of those by
 * their full vectors. */
static size_t
search_two(const struct vec_index *idx, const struct vec_query *q, size_t k,
    int64_t exclude_id, size_t cand, struct vec_hit *hits)
{
	struct vec_hit *c = core_xcalloc(cand, sizeof(*c));
	float s[BLOCK], worst = -INFINITY;
	int32_t d[BLOCK], full;
	size_t r, b, nb, nc = 0, n = 0;

	for (r = 0; r < idx->ndocs; r += BLOCK) {
		nb = idx->ndocs - r < BLOCK ? idx->ndocs - r : BLOCK;
		nibs(q->v, idx->nib + r * VEC_NIB, nb, d);
		for (b = 0; b < nb; b++)
			s[b] = (float)d[b] * idx->scales[r + b];
		for (b = 0; b < nb; b++)
			if (nc < cand || s[b] > worst)
				offer(c, &nc, cand, (int64_t)(r + b), s[b],
				    &worst); /* paper_id holds the row */
	}
	worst = -INFINITY;
	for (b = 0; b < nc; b++) {
		r = (size_t)c[b].paper_id;
		if (idx->ids[r] == exclude_id)
			continue;
		dots(q->v, idx->vecs + r * VEC_DIMS, 1, &full);
		offer(hits, &n, k, idx->ids[r], (float)full * idx->scales[r],
		    &worst);
	}
	free(c);
	return n;
}

enum core_err
vec_search_cand(const struct vec_index *idx, const struct vec_query *q,
    size_t k, int64_t exclude_id, size_t cand, struct vec_hit *hits, size_t *np)
{
	size_t b, n;

	*np = 0;
	if (k == 0)
		return CORE_EINPUT;
	if (cand == 0 || cand >= idx->ndocs)
		n = search_exact(idx, q, k, exclude_id, hits);
	else
		n = search_two(idx, q, k, exclude_id, cand < k ? k : cand,
		    hits);
	for (b = 0; b < n; b++)
		hits[b].score *= q->scale;
	qsort(hits, n, sizeof(*hits), cmphit);
	*np = n;
	return CORE_OK;
}

enum core_err
vec_search(const struct vec_index *idx, const struct vec_query *q, size_t k,
    int64_t exclude_id, struct vec_hit *hits, size_t *np)
{
	size_t cand = 0;

	if (idx->ndocs > VEC_EXACT_MAX)
		cand = k * 8 > VEC_CANDIDATES ? k * 8 : VEC_CANDIDATES;
	return vec_search_cand(idx, q, k, exclude_id, cand, hits, np);
}

void
vec_scan_all(const struct vec_index *idx, const struct vec_query *q,
    float *scores)
{
	int32_t d[BLOCK];
	size_t r, b, nb;

	for (r = 0; r < idx->ndocs; r += BLOCK) {
		nb = idx->ndocs - r < BLOCK ? idx->ndocs - r : BLOCK;
		dots(q->v, idx->vecs + r * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++)
			scores[r + b] =
			    (float)d[b] * idx->scales[r + b] * q->scale;
	}
}

int64_t
vec_row(const struct vec_index *idx, int64_t paper_id)
{
	size_t lo = 0, hi = idx->ndocs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx->ids[mid] == paper_id)
			return (int64_t)mid;
		if (idx->ids[mid] < paper_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void
vec_row_query(const struct vec_index *idx, size_t r, struct vec_query *q)
{
	memcpy(q->v, idx->vecs + r * VEC_DIMS, VEC_DIMS);
	q->scale = idx->scales[r];
	q->known = 1;
}

int64_t
vec_row_id(const struct vec_index *idx, size_t r)
{
	return idx->ids[r];
}

enum core_err
vec_query_text(const struct vec_index *idx, const char *text, size_t k,
    struct vec_hit *hits, size_t *n)
{
	struct vec_query q;
	enum core_err er;

	*n = 0;
	if ((er = vec_embed(idx, text, &q)) != CORE_OK)
		return er;
	return vec_search(idx, &q, k, -1, hits, n);
}

enum core_err
vec_similar(const struct vec_index *idx, int64_t paper_id, size_t k,
    struct vec_hit *hits, size_t *n)
{
	struct vec_query q;
	int64_t r;

	*n = 0;
	if ((r = vec_row(idx, paper_id)) < 0)
		return CORE_ENOTFOUND;
	vec_row_query(idx, (size_t)r, &q);
	return vec_search(idx, &q, k, paper_id, hits, n);
}

enum core_err
vec_score(const struct vec_index *idx, const struct vec_query *q,
    int64_t paper_id, float *score)
{
	int64_t r;

	*score = 0;
	if ((r = vec_row(idx, paper_id)) < 0)
		return CORE_ENOTFOUND;
	*score = (float)dot(q->v, idx->vecs + (size_t)r * VEC_DIMS) *
	    idx->scales[r] * q->scale;
	return CORE_OK;
}

double
vec_hybrid(double w, double text, double max_text, double vector)
{
	double t = max_text > 0 ? text / max_text : 0;

	return w * t + (1 - w) * vector;
}
