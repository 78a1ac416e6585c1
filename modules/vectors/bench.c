/*
 * bench.c -- weft-vectors bench: query time of the brute-force scan at
 * the size of arXiv.  Synthetic papers (random unit-ish int8 vectors):
 * the scan's cost does not depend on what the vectors mean.  Runs the
 * queries on 1 thread, then on opts->threads at once (two workers of a
 * 2-core machine answering together share its memory bandwidth).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

struct worker {
	pthread_t th;
	const struct vec_index *idx;
	size_t queries, k;
	uint64_t seed;
	double *ms;
};

static void
random_query(uint64_t *st, struct vec_query *q)
{
	uint64_t r = 0;
	size_t j;

	for (j = 0; j < VEC_DIMS; j++) {
		if (j % 8 == 0)
			r = vec_rand(st);
		q->v[j] = (int8_t)((int)(r & 0xff) % 255 - 127);
		r >>= 8;
	}
	q->scale = 1.0f / (127.0f * 16.0f);
	q->known = 1;
}

static void *
run(void *arg)
{
	struct worker *w = arg;
	struct vec_hit *hits = core_xcalloc(w->k, sizeof(*hits));
	struct vec_query q;
	uint64_t st = w->seed;
	size_t i, n;
	double t;

	for (i = 0; i < w->queries; i++) {
		random_query(&st, &q);
		t = vec_now();
		vec_search(w->idx, &q, w->k, -1, hits, &n);
		w->ms[i] = (vec_now() - t) * 1000;
	}
	free(hits);
	return NULL;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
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
	qsort(all, n, sizeof(*all), cmpd);
	printf("%u concurrent: %zu queries, p50 %.1f ms, p95 %.1f ms, "
	       "p99 %.1f ms, max %.1f ms, %.1f queries/s\n",
	    nt, n, all[n / 2], all[n * 95 / 100], all[n * 99 / 100],
	    all[n - 1], (double)n / el);
	free(all);
	free(w);
}

/*
 * The floor: one pass summing the same bytes, as fast as this machine
 * (and whatever else runs on it) reads memory.  Queries are within a
 * few percent of it; compare the two when the figures look slow.
 */
static void
membw(const char *p, size_t n)
{
	const uint64_t *w = (const uint64_t *)(const void *)p;
	volatile uint64_t sink;
	uint64_t s;
	double t, best = 1e9, ms[5];
	size_t i, r;

	for (r = 0; r < 5; r++) {
		t = vec_now();
		s = 0;
		for (i = 0; i < n / 8; i++)
			s += w[i];
		sink = s;
		ms[r] = (vec_now() - t) * 1000;
		if (ms[r] < best)
			best = ms[r];
	}
	(void)sink;
	qsort(ms, 5, sizeof(ms[0]), cmpd);
	printf("reading the %.0f MB once: best %.1f ms, median %.1f ms "
	       "(%.1f GB/s)\n",
	    (double)n / 1e6, best, ms[2], (double)n / best / 1e6);
}

int
vec_bench(const struct vec_bench_opts *o)
{
	struct vec_model m;
	struct core_buf mem = CORE_BUF_INIT;
	struct vec_writer *w;
	struct vec_index *idx = NULL;
	struct vec_query q;
	uint64_t st = 7;
	size_t i;
	double t0 = vec_now();
	int rc = VEC_EXIT_FAIL;

	memset(&m, 0, sizeof(m));
	w = vec_writer_new(-1, &mem, &m, 1);
	for (i = 0; i < o->papers; i++) {
		random_query(&st, &q);
		vec_writer_add(w, (int64_t)i + 1, &q);
	}
	if (vec_writer_finish(w, NULL) != CORE_OK ||
	    vec_open_mem(mem.ptr, mem.len, &idx) != CORE_OK)
		goto out;
	printf("weft-vectors bench: %zu papers x %d dims int8 (%.0f MB), "
	       "top %zu, brute force; set up in %.1f s\n",
	    vec_count(idx), VEC_DIMS, (double)mem.len / 1e6, o->k,
	    vec_now() - t0);
	membw(mem.ptr, mem.len);
	measure(idx, o, 1);
	if (o->threads > 1)
		measure(idx, o, o->threads);
	rc = VEC_EXIT_OK;
out:
	vec_close(idx);
	core_buf_free(&mem);
	return rc;
}
