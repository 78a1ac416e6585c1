/*
 * bench.c -- weft-vectors bench: query time at the size of arXiv, and
 * what the two-stage search (vec_search above VEC_EXACT_MAX papers)
 * loses against the brute force.
 *
 * The papers are synthetic, but shaped like real ones: with an index
 * file (opts->file), each is a random blend of three of its papers
 * (1, up to 0.5 and up to 0.25 of each), and its model embeds the
 * queries; without one, each is a random topic among 2,048 plus noise,
 * with variance falling along the dimensions as an SVD's does.  A
 * query is embedded from text (six words of the vocabulary, drawn as
 * often as papers use them) and
 * searched for the top opts->k; "similar" queries start from a stored
 * paper.  Timed on 1 thread, then on opts->threads at once (the workers
 * of a 2-core machine answering together share its memory bandwidth).
 */
#include <sys/resource.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

#define TOPICS         2048
#define RECALL_QUERIES 50

struct worker {
	pthread_t th;
	const struct vec_index *idx;
	size_t queries, k;
	uint64_t seed;
	double *ms;
};

static double
unif(uint64_t *st)
{
	return (double)(vec_rand(st) >> 11) / 9007199254740992.0;
}

static double
gauss(uint64_t *st)
{
	return sqrt(-2 * log(unif(st) + 1e-300)) * cos(2 * M_PI * unif(st));
}

/* Cumulative document frequencies of the vocabulary (from the idf),
 * so that queries use words as often as papers do. */
static double *cumdf;

static void
cumdf_init(const struct vec_index *idx)
{
	size_t i;

	cumdf = core_xcalloc(idx->nterms + 1, sizeof(*cumdf));
	for (i = 0; i < idx->nterms; i++)
		cumdf[i + 1] = cumdf[i] + exp(-(double)idx->idf[i]);
}

/* Six words of the index's vocabulary, drawn by document frequency. */
static void
random_text(const struct vec_index *idx, uint64_t *st, struct core_buf *b)
{
	size_t lo, hi, mid;
	double u;
	int i;

	core_buf_reset(b);
	for (i = 0; i < 6; i++) {
		u = unif(st) * cumdf[idx->nterms];
		for (lo = 0, hi = idx->nterms; lo + 1 < hi;) {
			mid = lo + (hi - lo) / 2;
			if (cumdf[mid] <= u)
				lo = mid;
			else
				hi = mid;
		}
		if (i > 0)
			core_buf_putc(b, ' ');
		core_buf_puts(b, idx->str + idx->termoff[lo]);
	}
}

static void *
run(void *arg)
{
	struct worker *w = arg;
	struct vec_hit *hits = core_xcalloc(w->k, sizeof(*hits));
	struct core_buf text = CORE_BUF_INIT;
	struct vec_query q;
	uint64_t st = w->seed;
	size_t i, n;
	double t;

	for (i = 0; i < w->queries; i++) {
		random_text(w->idx, &st, &text);
		t = vec_now();
		if (vec_embed(w->idx, core_buf_cstr(&text), &q) == CORE_OK)
			vec_search(w->idx, &q, w->k, -1, hits, &n);
		w->ms[i] = (vec_now() - t) * 1000;
	}
	core_buf_free(&text);
	free(hits);
	return NULL;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "re");

	snprintf(buf, n, "?");
	if (f != NULL) {
		if (fgets(buf, (int)n, f) != NULL)
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* Runs nt threads of o->queries each; prints p50, p95, p99, max. */
static void
measure(const struct vec_index *idx, const struct vec_bench_opts *o,
    unsigned nt)
{
	struct worker *w = core_xcalloc(nt, sizeof(*w));
	double *all = core_xcalloc(nt * o->queries, sizeof(*all));
	double t0 = vec_now(), el;
	size_t n = nt * o->queries;
	char la[64];
	unsigned i;

	for (i = 0; i < nt; i++) {
		w[i].idx = idx;
		w[i].queries = o->queries;
		w[i].k = o->k;
		w[i].seed = 1000 + i;
		w[i].ms = all + i * o->queries;
		pthread_create(&w[i].th, NULL, run, &w[i]);
	}
	for (i = 0; i < nt; i++)
		pthread_join(w[i].th, NULL);
	el = vec_now() - t0;
	loadavg(la, sizeof(la));
	qsort(all, n, sizeof(*all), cmpd);
	printf("%u concurrent: %zu queries (embed + top %zu), p50 %.1f ms, "
	       "p95 %.1f ms, p99 %.1f ms, max %.1f ms, %.1f queries/s; "
	       "load average %s\n",
	    nt, n, o->k, all[n / 2], all[n * 95 / 100], all[n * 99 / 100],
	    all[n - 1], (double)n / el, la);
	free(all);
	free(w);
}

/* Share of the brute force's top k that the two-stage search finds. */
static void
recall(const struct vec_index *idx, size_t k, int similar)
{
	struct vec_hit *a = core_xcalloc(k, sizeof(*a));
	struct vec_hit *b = core_xcalloc(k, sizeof(*b));
	struct core_buf text = CORE_BUF_INIT;
	struct vec_query q;
	uint64_t st = similar ? 99 : 98;
	size_t i, j, x, na, nb, found, nq = 0, ntwo = 0;
	double sum = 0, worst = 1, r, t, ta = 0, tb = 0;
	int64_t self;

	for (i = 0; i < RECALL_QUERIES; i++) {
		self = -1;
		if (similar) {
			x = (size_t)(vec_rand(&st) % idx->ndocs);
			vec_row_query(idx, x, &q);
			self = idx->ids[x];
		} else {
			random_text(idx, &st, &text);
			if (vec_embed(idx, core_buf_cstr(&text), &q) != CORE_OK)
				continue;
		}
		ntwo += idx->ndocs > VEC_EXACT_MAX;
		t = vec_now();
		vec_search_cand(idx, &q, k, self, 0, a, &na);
		ta += vec_now() - t;
		t = vec_now();
		vec_search(idx, &q, k, self, b, &nb);
		tb += vec_now() - t;
		for (found = 0, j = 0; j < na; j++)
			for (x = 0; x < nb; x++)
				if (b[x].paper_id == a[j].paper_id) {
					found++;
					break;
				}
		r = na > 0 ? (double)found / (double)na : 1;
		sum += r;
		if (r < worst)
			worst = r;
		nq++;
	}
	printf("recall@%zu of vec_search against the brute force, %zu %s "
	       "queries (%zu in two stages): mean %.3f, worst %.3f (1 "
	       "thread: brute force %.1f ms, vec_search %.1f ms a query)\n",
	    k, nq, similar ? "\"similar\"" : "text", ntwo, nq ? sum / nq : 0,
	    worst, nq ? ta * 1000 / nq : 0, nq ? tb * 1000 / nq : 0);
	core_buf_free(&text);
	free(a);
	free(b);
}

/* The model of the real index, or a random one of 4,096 words. */
static void
bench_model(const struct vec_index *real, struct vec_model *m, uint64_t *st)
{
	size_t i, j, nt = real != NULL ? real->nterms : 4096;

	memset(m, 0, sizeof(*m));
	m->nterms = nt;
	m->terms = core_xcalloc(nt, sizeof(*m->terms));
	m->idf = core_xcalloc(nt, sizeof(*m->idf));
	m->proj = core_xcalloc(nt * VEC_DIMS, sizeof(*m->proj));
	for (i = 0; i < nt; i++) {
		if (real != NULL) {
			m->terms[i] =
			    core_xstrdup(real->str + real->termoff[i]);
			m->idf[i] = real->idf[i];
			memcpy(m->proj + i * VEC_DIMS,
			    real->proj + i * VEC_DIMS,
			    VEC_DIMS * sizeof(*m->proj));
			continue;
		}
		m->terms[i] = core_xasprintf("w%04zu", i); /* sorted */
		m->idf[i] = (float)(1 + 6 * unif(st));
		for (j = 0; j < VEC_DIMS; j++)
			m->proj[i * VEC_DIMS + j] =
			    (float)(gauss(st) / sqrt(1.0 + (double)j));
	}
}

/* One synthetic paper into x. */
static void
paper(const struct vec_index *real, const float *topics, uint64_t *st, float *x)
{
	static const double mix[3] = { 1, 0.5, 0.25 };
	struct vec_query q;
	size_t j, r;
	int i;
	double u;

	memset(x, 0, VEC_DIMS * sizeof(*x));
	if (real == NULL) {
		r = (size_t)(vec_rand(st) % TOPICS);
		for (j = 0; j < VEC_DIMS; j++)
			x[j] = topics[r * VEC_DIMS + j] +
			    (float)(0.7 * gauss(st) / sqrt(1.0 + (double)j));
		return;
	}
	for (i = 0; i < 3; i++) {
		vec_row_query(real, (size_t)(vec_rand(st) % real->ndocs), &q);
		u = (i == 0 ? 1 : unif(st)) * mix[i] * q.scale;
		for (j = 0; j < VEC_DIMS; j++)
			x[j] += (float)(u * q.v[j]);
	}
}

int
vec_bench(const struct vec_bench_opts *o)
{
	struct vec_model m;
	struct core_buf mem = CORE_BUF_INIT;
	struct vec_writer *w;
	struct vec_index *idx = NULL, *real = NULL;
	struct vec_query q;
	struct rusage ru;
	float x[VEC_DIMS], *topics = NULL;
	uint64_t st = 7;
	size_t i, j, n = 0;
	double t0 = vec_now();
	char la[64];
	int rc = VEC_EXIT_FAIL;

	memset(&m, 0, sizeof(m));
	if (o->file != NULL && vec_open(o->file, &real) != CORE_OK) {
		fprintf(stderr, "weft-vectors: %s: %s\n", o->file,
		    vec_open_why());
		goto out;
	}
	if (real != NULL && (vec_count(real) == 0 || vec_nterms(real) == 0)) {
		fprintf(stderr, "weft-vectors: %s: no papers\n", o->file);
		goto out;
	}
	bench_model(real, &m, &st);
	if (real == NULL) {
		topics = core_xcalloc(TOPICS * VEC_DIMS, sizeof(*topics));
		for (i = 0; i < TOPICS; i++)
			for (j = 0; j < VEC_DIMS; j++)
				topics[i * VEC_DIMS + j] =
				    (float)(gauss(&st) / sqrt(1.0 + (double)j));
	}
	w = vec_writer_new(-1, &mem, &m, 1);
	for (i = 0; i < o->papers; i++) {
		paper(real, topics, &st, x);
		if (vec_quantize(x, &q) != CORE_OK)
			continue;
		vec_writer_add(w, (int64_t)i + 1, &q);
		n++;
	}
	if (vec_writer_finish(w, NULL) != CORE_OK ||
	    vec_open_mem(mem.ptr, mem.len, &idx) != CORE_OK)
		goto out;
	cumdf_init(idx);
	loadavg(la, sizeof(la));
	printf("weft-vectors bench: %zu papers x %d dims int8 (%.0f MB "
	       "file, of which %.0f MB 4-bit rows), like %s; set up in %.1f s; "
	       "load average %s\n",
	    vec_count(idx), VEC_DIMS, (double)mem.len / 1e6,
	    (double)n * VEC_NIB / 1e6, real != NULL ? o->file : "random topics",
	    vec_now() - t0, la);
	printf("search: %s\n",
	    n > VEC_EXACT_MAX ? "two stages (4-bit rows of every paper, then "
				"full vectors of the best candidates)"
			      : "brute force (few papers)");
	recall(idx, o->k, 0);
	recall(idx, o->k, 1);
	measure(idx, o, 1);
	if (o->threads > 1)
		measure(idx, o, o->threads);
	getrusage(RUSAGE_SELF, &ru);
	printf("memory: index %.0f MB, peak RSS of this process %.0f MB\n",
	    (double)mem.len / 1e6, (double)ru.ru_maxrss / 1e3);
	rc = VEC_EXIT_OK;
out:
	vec_close(idx);
	vec_close(real);
	vec_model_free(&m);
	free(cumdf);
	cumdf = NULL;
	free(topics);
	core_buf_free(&mem);
	return rc;
}
