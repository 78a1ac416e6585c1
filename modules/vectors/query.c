/*
 * query.c -- embedding a text with the index's model and the scan.
 * 2.5 M papers x 256 bytes is 640 MB, read once per query by a brute
 * force; an index with lists (the IVF, ivf.c) scores the query against
 * its centroids first and then reads only the papers of the best few
 * lists, each list a run of consecutive vectors.  The loop below is
 * what the compiler turns into widening multiply-adds, so keep it
 * plain (no branches inside, fixed trip count).
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

struct unknown {
	const struct vec_index *idx;
	size_t tokens, unknown;
};

static void
count_unknown(void *arg, const char *tok, size_t len)
{
	struct unknown *u = arg;

	(void)len;
	u->tokens++;
	if (lookup(u->idx, tok) < 0)
		u->unknown++;
}

void
vec_text_unknown(const struct vec_index *idx, const char *text, size_t *tokens,
    size_t *unknown)
{
	struct unknown u = { idx, 0, 0 };

	if (idx != NULL && text != NULL)
		vec_tokenize(text, strlen(text), count_unknown, &u);
	*tokens += u.tokens;
	*unknown += u.unknown;
}

struct word {
	char *stem;
	int got;
};

static void
first_token(void *arg, const char *tok, size_t len)
{
	struct word *w = arg;

	if (w->got++ > 0 || len >= VEC_WORD_MAX)
		return;
	memcpy(w->stem, tok, len);
	w->stem[len] = '\0';
}

enum core_err
vec_word(const struct vec_index *idx, const char *w, size_t n,
    char stem[VEC_WORD_MAX], float *idf)
{
	struct word wd = { stem, 0 };
	int64_t id;

	*idf = 0;
	stem[0] = '\0';
	if (vec_tokenize(w, n, first_token, &wd) == 0 || stem[0] == '\0')
		return CORE_ENOTFOUND;
	if (idx != NULL && (id = lookup(idx, stem)) >= 0)
		*idf = idx->idf[id];
	return CORE_OK;
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
	qsort(e->ids, e->n, sizeof(e->ids[0]), vec_cmpu32);

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
 * once at run time, so one binary serves every machine) 32 dimensions
 * at a time, two papers at once: vpmaddubsw multiplies unsigned bytes
 * by signed ones, so each paper byte gives its magnitude and its sign
 * goes to the query's byte (|d| * sign(d) q = d q); pairs of products
 * are summed in 16 bits, which holds 2 * 128 * 127.  Exact for queries
 * within -127..127, which is all vec_quantize() makes (sign() cannot
 * negate -128).  In the first-level cache (the centroids, the k-means)
 * a paper costs about 5 ns, 40 % less than widening to 16 bits first;
 * a large scan is bound by memory either way.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX2_PATH 1

__attribute__((target("avx2"))) static inline __m256i
madd_row(__m256i acc, __m256i d, __m256i q)
{
	const __m256i ones = _mm256_set1_epi16(1);
	__m256i p =
	    _mm256_maddubs_epi16(_mm256_abs_epi8(d), _mm256_sign_epi8(q, d));

	return _mm256_add_epi32(acc, _mm256_madd_epi16(p, ones));
}

/* a's eight sums and b's, down to one each in s[0] and s[1]. */
__attribute__((target("avx2"))) static inline __m128i
sum_two(__m256i a, __m256i b)
{
	__m256i h = _mm256_hadd_epi32(a, b);

	h = _mm256_hadd_epi32(h, h);
	return _mm_add_epi32(_mm256_castsi256_si128(h),
	    _mm256_extracti128_si256(h, 1));
}

#define LOAD32(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

__attribute__((target("avx2"))) static void
dots_avx2(const int8_t *q, const int8_t *docs, size_t n, int32_t *out)
{
	__m256i qv[VEC_DIMS / 32], a, b;
	__m128i s;
	size_t i, j;

	for (j = 0; j < VEC_DIMS / 32; j++)
		qv[j] = LOAD32(q + 32 * j);
	for (i = 0; i + 2 <= n; i += 2, docs += 2 * VEC_DIMS) {
		a = b = _mm256_setzero_si256();
		for (j = 0; j < VEC_DIMS / 32; j++) {
			a = madd_row(a, LOAD32(docs + 32 * j), qv[j]);
			b = madd_row(b, LOAD32(docs + VEC_DIMS + 32 * j),
			    qv[j]);
		}
		s = sum_two(a, b);
		out[i] = _mm_cvtsi128_si32(s);
		out[i + 1] = _mm_extract_epi32(s, 1);
	}
	if (i < n) {
		a = _mm256_setzero_si256();
		for (j = 0; j < VEC_DIMS / 32; j++)
			a = madd_row(a, LOAD32(docs + 32 * j), qv[j]);
		out[i] = _mm_cvtsi128_si32(sum_two(a, a));
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

#endif

enum { CPU_AVX2 = 1, CPU_VNNI = 2 };

/* What this CPU offers of CPU_AVX2 and CPU_VNNI, asked once. */
static int
cpu_features(void)
{
#ifdef HAVE_AVX2_PATH
	static int f = -1;

	if (f < 0) {
		__builtin_cpu_init();
		f = (__builtin_cpu_supports("avx2") ? CPU_AVX2 : 0) |
		    (__builtin_cpu_supports("avx512vnni") &&
				__builtin_cpu_supports("avx512bw")
			    ? CPU_VNNI
			    : 0);
	}
	return f;
#else
	return 0;
#endif
}

void
vec_dots(const int8_t *q, const int8_t *docs, size_t n, int32_t *out)
{
	size_t i;

#ifdef HAVE_AVX2_PATH
	if (cpu_features() & CPU_VNNI) {
		dots_vnni(q, docs, n, out);
		return;
	}
	if (cpu_features() & CPU_AVX2) {
		dots_avx2(q, docs, n, out);
		return;
	}
#endif
	for (i = 0; i < n; i++)
		out[i] = dot(q, docs + i * VEC_DIMS);
}

/*
 * The heap of the best k: hits[0] is the worst kept.  Of two equal
 * scores the larger paper id is the worse, so that the top k do not
 * depend on the order the vectors are read in (slots, lists).
 */
static int
worse(const struct vec_hit *a, const struct vec_hit *b)
{
	return a->score < b->score ||
	    (a->score == b->score && a->paper_id > b->paper_id);
}

static void
sift_down(struct vec_hit *h, size_t n, size_t i)
{
	struct vec_hit t;
	size_t c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &h[i]))
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

	while (i > 0 && worse(&h[i], &h[(i - 1) / 2])) {
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

/*
 * Offers (id, score) to the heap of the best k, h[0..*n); *worst is
 * the score of the worst kept once the heap is full (-inf before):
 * callers skip scores below it without calling.
 */
static void
offer(struct vec_hit *h, size_t *n, size_t k, int64_t id, float score,
    float *worst)
{
	struct vec_hit c;

	c.paper_id = id;
	c.score = score;
	if (*n < k) {
		h[*n] = c;
		sift_up(h, (*n)++);
	} else if (worse(&h[0], &c)) {
		h[0] = c;
		sift_down(h, *n, 0);
	}
	if (*n == k)
		*worst = h[0].score;
}

/*
 * The vectors of slots lo..hi into the heap of the best k, hits[0..*n),
 * leaving slot skip out.
 */
static void
scan(const struct vec_index *idx, const struct vec_query *q, size_t lo,
    size_t hi, size_t skip, size_t k, struct vec_hit *hits, size_t *n,
    float *worst)
{
	float s[BLOCK];
	int32_t d[BLOCK];
	size_t r, b, nb;

	for (r = lo; r < hi; r += nb) {
		nb = hi - r < BLOCK ? hi - r : BLOCK;
		/* First the arithmetic for a block, then the bookkeeping. */
		vec_dots(q->v, idx->vecs + r * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++)
			s[b] = (float)d[b] * idx->scales[r + b];
		for (b = 0; b < nb; b++)
			if ((*n < k || s[b] >= *worst) && r + b != skip)
				offer(hits, n, k, idx->ids[idx->row[r + b]],
				    s[b], worst);
	}
}

/*
 * The nprobe lists whose centroids are nearest to q, then the best k
 * of their papers.  The lists are read best first, so that the heap's
 * floor rises early and most papers cost no bookkeeping.
 */
static size_t
search_ivf(const struct vec_index *idx, const struct vec_query *q, size_t k,
    size_t skip, size_t nprobe, struct vec_hit *hits)
{
	struct vec_hit *best = core_xcalloc(nprobe, sizeof(*best));
	float s[BLOCK], worst = -INFINITY;
	int32_t d[BLOCK];
	size_t c, b, nb, nbest = 0, n = 0;

	for (c = 0; c < idx->nlist; c += nb) {
		nb = idx->nlist - c < BLOCK ? idx->nlist - c : BLOCK;
		vec_dots(q->v, idx->cent + c * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++)
			s[b] = (float)d[b] * idx->cscales[c + b];
		for (b = 0; b < nb; b++)
			if (nbest < nprobe || s[b] >= worst)
				offer(best, &nbest, nprobe, (int64_t)(c + b),
				    s[b], &worst); /* paper_id: the list */
	}
	qsort(best, nbest, sizeof(*best), cmphit);
	worst = -INFINITY;
	for (b = 0; b < nbest; b++) {
		c = (size_t)best[b].paper_id;
		scan(idx, q, idx->lists[c], idx->lists[c + 1], skip, k, hits,
		    &n, &worst);
	}
	free(best);
	return n;
}

enum core_err
vec_search_probe(const struct vec_index *idx, const struct vec_query *q,
    size_t k, int64_t exclude_id, size_t nprobe, struct vec_hit *hits,
    size_t *np)
{
	size_t b, n = 0, skip = SIZE_MAX;
	float worst = -INFINITY;
	int64_t r;

	*np = 0;
	if (k == 0)
		return CORE_EINPUT;
	if ((r = vec_row(idx, exclude_id)) >= 0)
		skip = idx->slot[r];
	if (nprobe == 0 || idx->nlist == 0)
		scan(idx, q, 0, idx->ndocs, skip, k, hits, &n, &worst);
	else
		n = search_ivf(idx, q, k, skip,
		    nprobe < idx->nlist ? nprobe : idx->nlist, hits);
	for (b = 0; b < n; b++)
		hits[b].score *= q->scale;
	qsort(hits, n, sizeof(*hits), cmphit);
	*np = n;
	return CORE_OK;
}

size_t
vec_nprobe(const struct vec_index *idx, size_t k)
{
	size_t p;

	if (idx->nlist == 0)
		return 0;
	p = VEC_NPROBE_MIN + k / VEC_NPROBE_PER;
	return p >= idx->nlist ? 0 : p;
}

enum core_err
vec_search(const struct vec_index *idx, const struct vec_query *q, size_t k,
    int64_t exclude_id, struct vec_hit *hits, size_t *np)
{
	return vec_search_probe(idx, q, k, exclude_id, vec_nprobe(idx, k), hits,
	    np);
}

void
vec_scan_all(const struct vec_index *idx, const struct vec_query *q,
    float *scores)
{
	int32_t d[BLOCK];
	size_t r, b, nb;

	for (r = 0; r < idx->ndocs; r += BLOCK) {
		nb = idx->ndocs - r < BLOCK ? idx->ndocs - r : BLOCK;
		vec_dots(q->v, idx->vecs + r * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++)
			scores[idx->row[r + b]] =
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
	size_t s = idx->slot[r];

	memcpy(q->v, idx->vecs + s * VEC_DIMS, VEC_DIMS);
	q->scale = idx->scales[s];
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
	size_t s;

	*score = 0;
	if ((r = vec_row(idx, paper_id)) < 0)
		return CORE_ENOTFOUND;
	s = idx->slot[r];
	*score = (float)dot(q->v, idx->vecs + s * VEC_DIMS) * idx->scales[s] *
	    q->scale;
	return CORE_OK;
}
