/*
 * model.c -- from texts to a model: the vocabulary, document counts,
 * the TF-IDF matrix and its truncated SVD.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

/* ------------------------------------------------------------------ */
/* Vocabulary: open addressing over dense ids                          */
/* ------------------------------------------------------------------ */

#define EMPTY UINT32_MAX

struct vec_vocab {
	char **terms;
	size_t n, cap;
	uint32_t *slot; /* ids, EMPTY when free */
	size_t nslot;   /* a power of two, at least twice n */
};

struct vec_vocab *
vec_vocab_new(void)
{
	struct vec_vocab *v = core_xcalloc(1, sizeof(*v));

	v->nslot = 1024;
	v->slot = core_xcalloc(v->nslot, sizeof(*v->slot));
	memset(v->slot, 0xff, v->nslot * sizeof(*v->slot));
	return v;
}

void
vec_vocab_free(struct vec_vocab *v)
{
	if (v == NULL)
		return;
	core_strv_free(v->terms, v->n);
	free(v->slot);
	free(v);
}

static size_t
probe(const struct vec_vocab *v, const char *t, size_t n)
{
	size_t i = (size_t)vec_fnv(t, n) & (v->nslot - 1);

	while (v->slot[i] != EMPTY &&
	    (strncmp(v->terms[v->slot[i]], t, n) != 0 ||
		v->terms[v->slot[i]][n] != '\0'))
		i = (i + 1) & (v->nslot - 1);
	return i;
}

static void
grow(struct vec_vocab *v)
{
	size_t i, j;

	free(v->slot);
	v->nslot *= 2;
	v->slot = core_xcalloc(v->nslot, sizeof(*v->slot));
	memset(v->slot, 0xff, v->nslot * sizeof(*v->slot));
	for (i = 0; i < v->n; i++) {
		j = probe(v, v->terms[i], strlen(v->terms[i]));
		v->slot[j] = (uint32_t)i;
	}
}

uint32_t
vec_vocab_add(struct vec_vocab *v, const char *t, size_t n)
{
	size_t i = probe(v, t, n);

	if (v->slot[i] != EMPTY)
		return v->slot[i];
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->terms = core_xrealloc(v->terms, v->cap * sizeof(*v->terms));
	}
	v->terms[v->n] = core_xstrndup(t, n);
	v->slot[i] = (uint32_t)v->n;
	if (++v->n * 2 > v->nslot)
		grow(v);
	return (uint32_t)(v->n - 1);
}

int64_t
vec_vocab_find(const struct vec_vocab *v, const char *t, size_t n)
{
	size_t i = probe(v, t, n);

	return v->slot[i] == EMPTY ? -1 : (int64_t)v->slot[i];
}

size_t
vec_vocab_size(const struct vec_vocab *v)
{
	return v->n;
}

const char *
vec_vocab_term(const struct vec_vocab *v, uint32_t id)
{
	return v->terms[id];
}

/* ------------------------------------------------------------------ */
/* Sparse rows                                                         */
/* ------------------------------------------------------------------ */

void
vec_csr_free(struct vec_csr *a)
{
	free(a->ptr);
	free(a->col);
	free(a->val);
	memset(a, 0, sizeof(*a));
}

static void
csr_push(struct vec_csr *a, uint32_t col, float val)
{
	if (a->nnz == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 65536;
		a->col = core_xrealloc(a->col, a->cap * sizeof(*a->col));
		a->val = core_xrealloc(a->val, a->cap * sizeof(*a->val));
	}
	a->col[a->nnz] = col;
	a->val[a->nnz++] = val;
}

/* Closes the current row (rows are appended one after the other). */
static void
csr_endrow(struct vec_csr *a)
{
	if (a->rows + 2 > a->rowcap) {
		a->rowcap = a->rowcap ? 2 * a->rowcap : 4096;
		a->ptr = core_xrealloc(a->ptr, a->rowcap * sizeof(*a->ptr));
	}
	if (a->rows == 0)
		a->ptr[0] = 0;
	a->ptr[++a->rows] = a->nnz;
}

/* ------------------------------------------------------------------ */
/* The trainer                                                         */
/* ------------------------------------------------------------------ */

struct ids {
	uint32_t *v;
	size_t n, cap;
	struct vec_vocab *vocab;
};

static void
collect(void *arg, const char *tok, size_t len)
{
	struct ids *s = arg;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 512;
		s->v = core_xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = vec_vocab_add(s->vocab, tok, len);
}

void
vec_trainer_init(struct vec_trainer *t)
{
	memset(t, 0, sizeof(*t));
	t->vocab = vec_vocab_new();
}

void
vec_trainer_add(struct vec_trainer *t, const char *text)
{
	struct ids s = { NULL, 0, 0, t->vocab };
	size_t i, run, nv;

	vec_tokenize(text, strlen(text), collect, &s);
	if (t->text != NULL && s.n > 0) {
		if (t->label != NULL && t->label[0] != '\0') {
			const char *c;

			/* fastText's labels are words: no blanks in them */
			fputs("__label__", t->text);
			for (c = t->label; *c != '\0'; c++)
				fputc((unsigned char)*c <= ' ' ? '_' : *c,
				    t->text);
			fputc(' ', t->text);
		}
		for (i = 0; i < s.n; i++)
			fprintf(t->text, "%s%s", i > 0 ? " " : "",
			    vec_vocab_term(t->vocab, s.v[i]));
		fputc('\n', t->text);
	}
	if (s.n > 1)
		qsort(s.v, s.n, sizeof(*s.v), vec_cmpu32);
	nv = vec_vocab_size(t->vocab);
	if (nv > t->dfcap) {
		size_t old = t->dfcap;

		t->dfcap = nv * 2;
		t->df = core_xrealloc(t->df, t->dfcap * sizeof(*t->df));
		memset(t->df + old, 0, (t->dfcap - old) * sizeof(*t->df));
	}
	for (i = 0; i < s.n; i += run) {
		for (run = 1; i + run < s.n && s.v[i + run] == s.v[i]; run++)
			;
		csr_push(&t->counts, s.v[i], (float)run);
		t->df[s.v[i]]++;
	}
	csr_endrow(&t->counts);
	free(s.v);
}

void
vec_trainer_free(struct vec_trainer *t)
{
	vec_vocab_free(t->vocab);
	vec_csr_free(&t->counts);
	free(t->df);
	memset(t, 0, sizeof(*t));
}

void
vec_fit_defaults(struct vec_fit_opts *o)
{
	o->wv = NULL;
	o->wv_share = VEC_WV_SHARE;
	o->max_terms = 131072;
	o->min_df = 2;
	o->oversample = 24;
	o->power_iters = 3;
	o->beta = 0;          /* chosen on eval's tuning sample */
	o->seed = 0x77656674; /* "weft" */
	o->quiet = 0;
}

void
vec_model_free(struct vec_model *m)
{
	if (m == NULL)
		return;
	core_strv_free(m->terms, m->nterms);
	free(m->idf);
	free(m->proj);
	memset(m, 0, sizeof(*m));
}

/* Sorting kept terms: by document count (to cap), then by text. */
static const uint32_t *sort_df;
static const struct vec_vocab *sort_vocab;

static int
cmpdf(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (sort_df[x] != sort_df[y])
		return sort_df[x] > sort_df[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int
cmpterm(const void *a, const void *b)
{
	return strcmp(vec_vocab_term(sort_vocab, *(const uint32_t *)a),
	    vec_vocab_term(sort_vocab, *(const uint32_t *)b));
}

enum core_err
vec_fit(struct vec_trainer *t, const struct vec_fit_opts *o,
    struct vec_model *m)
{
	struct vec_csr a;
	uint32_t *keep = NULL;
	int64_t *map = NULL;
	float *v = NULL;
	size_t nv = vec_vocab_size(t->vocab), nk = 0, i, p, c;
	size_t ndocs = t->counts.rows;
	double norm, ratio;
	enum core_err er = CORE_OK;

	memset(m, 0, sizeof(*m));
	memset(&a, 0, sizeof(a));
	keep = core_xcalloc(nv + 1, sizeof(*keep));
	for (i = 0; i < nv; i++)
		if (t->df[i] >= o->min_df && t->df[i] < ndocs)
			keep[nk++] = (uint32_t)i;
	sort_df = t->df;
	sort_vocab = t->vocab;
	if (nk > o->max_terms) {
		qsort(keep, nk, sizeof(*keep), cmpdf);
		nk = o->max_terms;
	}
	qsort(keep, nk, sizeof(*keep), cmpterm);
	if (nk < VEC_DIMS + o->oversample || ndocs < VEC_DIMS + o->oversample) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "%zu papers and %zu terms: too few for %d dimensions",
		    ndocs, nk, VEC_DIMS);
		er = CORE_EINPUT;
		goto out;
	}

	m->nterms = nk;
	m->terms = core_xcalloc(nk, sizeof(*m->terms));
	m->idf = core_xcalloc(nk, sizeof(*m->idf));
	map = core_xcalloc(nv, sizeof(*map));
	for (i = 0; i < nv; i++)
		map[i] = -1;
	for (i = 0; i < nk; i++) {
		map[keep[i]] = (int64_t)i;
		m->terms[i] = core_xstrdup(vec_vocab_term(t->vocab, keep[i]));
		m->idf[i] = (float)log((double)ndocs / t->df[keep[i]]);
	}

	/* TF-IDF rows of unit length: long abstracts do not dominate. */
	a.cols = nk;
	for (i = 0; i < ndocs; i++) {
		size_t start = a.nnz;

		norm = 0;
		for (p = t->counts.ptr[i]; p < t->counts.ptr[i + 1]; p++) {
			int64_t id = map[t->counts.col[p]];
			double w;

			if (id < 0)
				continue;
			w = (1.0 + log(t->counts.val[p])) * m->idf[id];
			csr_push(&a, (uint32_t)id, (float)w);
			norm += w * w;
		}
		if (a.nnz == start)
			continue; /* nothing left of it: no row */
		norm = sqrt(norm);
		for (p = start; p < a.nnz; p++)
			a.val[p] = (float)(a.val[p] / norm);
		csr_endrow(&a);
	}
	if (a.rows < VEC_DIMS + o->oversample) {
		core_log(CORE_LOG_ERROR, "vectors", "too few papers with text");
		er = CORE_EINPUT;
		goto out;
	}

	v = core_xcalloc(nk * VEC_DIMS, sizeof(*v));
	if ((er = vec_svd(&a, VEC_DIMS, o->oversample, o->power_iters, o->seed,
		 v, m->sigma)) != CORE_OK)
		goto out;
	/*
	 * Projection = V_k sigma^-beta: beta 0 is classic LSA (a paper is
	 * U_k sigma_k, the first dimensions dominate), 1 whitens (noise
	 * weighs as much as topic).  On eval's tuning sample 0 gave the best
	 * "more like this" and the same (a) and (b) as 0.5 or 1.
	 */
	m->proj = v;
	v = NULL;
	for (c = 0; c < VEC_DIMS; c++) {
		ratio = m->sigma[c] > 0 ? m->sigma[c] / m->sigma[0] : 1;
		ratio = pow(ratio, -o->beta);
		for (i = 0; i < nk; i++)
			m->proj[i * VEC_DIMS + c] *= (float)ratio;
	}
	if (o->wv != NULL)
		vec_wv_blend(m, o->wv, &a, o->wv_share);
out:
	if (er != CORE_OK)
		vec_model_free(m);
	vec_csr_free(&a);
	free(keep);
	free(map);
	free(v);
	return er;
}
