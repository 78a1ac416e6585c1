/*
 * bench.c -- weft-vectors bench: query time at the size of arXiv, and
 * what the lists (vec_search on an index with an IVF) lose against the
 * brute force.
 *
 * The papers are synthetic, but shaped like real ones: with an index
 * file (opts->file), each is a random blend of three of its papers
 * (1, up to 0.5 and up to 0.25 of each), and its model embeds the
 * queries; without one, each is a random topic among 2,048 plus noise,
 * with variance falling along the dimensions as an SVD's does.  With
 * papers 0 they are the file's own papers, written again (so that the
 * lists can be learned with another nlist).  A text query is embedded
 * from text (six words of the vocabulary, drawn as often as papers use
 * them) and searched for the top opts->k; a "similar" query is a
 * stored paper's vector, for the top 16 without itself (what the paper
 * page asks).  Recall and time per query against the brute force for
 * a few numbers of lists read; then vec_search() timed on 1 thread and
 * on opts->threads at once (the workers of a 2-core machine answering
 * together share its memory bandwidth).
 */
#include <sys/resource.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "internal.h"

#define TOPICS         2048
#define RECALL_QUERIES 200
#define SIMILAR_K      16 /* PAGES_SIMILAR_N + SLACK in pages.so */

struct worker {
	pthread_t th;
	const struct vec_index *idx;
	size_t queries, k;
	int similar; /* vec_similar() of a random paper, else text */
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

/* Query texts of a file (opts->texts), one a line, or none. */
static char **texts;
static size_t ntexts;

static int
texts_load(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[4096];
	size_t cap = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0')
			continue;
		if (ntexts == cap) {
			cap = cap ? 2 * cap : 256;
			texts = core_xrealloc(texts, cap * sizeof(*texts));
		}
		texts[ntexts++] = core_xstrdup(line);
	}
	fclose(f);
	return ntexts > 0 ? 0 : -1;
}

static void
texts_free(void)
{
	core_strv_free(texts, ntexts);
	texts = NULL;
	ntexts = 0;
}

/* Six words of the index's vocabulary, drawn by document frequency, or
 * a line of the texts file drawn at random. */
static void
random_text(const struct vec_index *idx, uint64_t *st, struct core_buf *b)
{
	size_t lo, hi, mid;
	double u;
	int i;

	core_buf_reset(b);
	if (ntexts > 0) {
		core_buf_puts(b, texts[vec_rand(st) % ntexts]);
		return;
	}
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
		if (w->similar) {
			int64_t id = w->idx->ids[vec_rand(&st) % w->idx->ndocs];

			t = vec_now();
			vec_similar(w->idx, id, w->k, hits, &n);
			w->ms[i] = (vec_now() - t) * 1000;
			continue;
		}
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
    unsigned nt, int similar)
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
		w[i].k = similar ? SIMILAR_K : o->k;
		w[i].similar = similar;
		w[i].seed = 1000 + i;
		w[i].ms = all + i * o->queries;
		pthread_create(&w[i].th, NULL, run, &w[i]);
	}
	for (i = 0; i < nt; i++)
		pthread_join(w[i].th, NULL);
	el = vec_now() - t0;
	loadavg(la, sizeof(la));
	qsort(all, n, sizeof(*all), cmpd);
	printf("%u concurrent: %zu %s (vec_search), p50 %.3f ms, "
	       "p95 %.3f ms, p99 %.3f ms, max %.3f ms, %.0f queries/s; "
	       "load average %s\n",
	    nt, n, similar ? "similar, top 16" : "texts, embed + top k",
	    all[n / 2], all[n * 95 / 100], all[n * 99 / 100], all[n - 1],
	    (double)n / el, la);
	free(all);
	free(w);
}

/* Papers in the nprobe lists nearest to q (what search_ivf reads). */
static size_t
rows_read(const struct vec_index *idx, const struct vec_query *q, size_t nprobe,
    float *cs, uint32_t *order)
{
	int32_t d[256];
	size_t c, b, nb, rows = 0;

	if (nprobe == 0 || nprobe >= idx->nlist)
		return idx->ndocs + idx->nlist;
	for (c = 0; c < idx->nlist; c += nb) {
		nb = idx->nlist - c < 256 ? idx->nlist - c : 256;
		vec_dots(q->v, idx->cent + c * VEC_DIMS, nb, d);
		for (b = 0; b < nb; b++) {
			cs[c + b] = (float)d[b] * idx->cscales[c + b];
			order[c + b] = (uint32_t)(c + b);
		}
	}
	/* A partial selection sort is enough for a bench. */
	for (b = 0; b < nprobe; b++) {
		size_t m = b;
		uint32_t t;

		for (c = b + 1; c < idx->nlist; c++)
			if (cs[order[c]] > cs[order[m]])
				m = c;
		t = order[b];
		order[b] = order[m];
		order[m] = t;
		rows += idx->lists[order[b] + 1] - idx->lists[order[b]];
	}
	return rows + idx->nlist;
}

/* The queries of one kind: row numbers (similar) or embedded texts. */
struct qset {
	struct vec_query *q;
	int64_t *self;
	size_t n;
	struct vec_hit *exact; /* n x k, the brute force's */
	size_t *nexact;
	double exact_us;
};

static void
qset_make(const struct vec_index *idx, size_t k, int similar, struct qset *s)
{
	struct core_buf text = CORE_BUF_INIT;
	uint64_t st = similar ? 99 : 98;
	size_t i, x, tries;
	double t;

	memset(s, 0, sizeof(*s));
	s->q = core_xcalloc(RECALL_QUERIES, sizeof(*s->q));
	s->self = core_xcalloc(RECALL_QUERIES, sizeof(*s->self));
	s->exact = core_xcalloc(RECALL_QUERIES * k, sizeof(*s->exact));
	s->nexact = core_xcalloc(RECALL_QUERIES, sizeof(*s->nexact));
	for (tries = 0; s->n < RECALL_QUERIES && tries < 10 * RECALL_QUERIES;
	     tries++) {
		s->self[s->n] = -1;
		if (similar) {
			x = (size_t)(vec_rand(&st) % idx->ndocs);
			vec_row_query(idx, x, &s->q[s->n]);
			s->self[s->n] = idx->ids[x];
		} else {
			random_text(idx, &st, &text);
			if (vec_embed(idx, core_buf_cstr(&text), &s->q[s->n]) !=
			    CORE_OK)
				continue;
		}
		s->n++;
	}
	t = vec_cpu_now(1);
	for (i = 0; i < s->n; i++)
		vec_search_probe(idx, &s->q[i], k, s->self[i], 0,
		    s->exact + i * k, &s->nexact[i]);
	s->exact_us = s->n ? (vec_cpu_now(1) - t) * 1e6 / (double)s->n : 0;
	core_buf_free(&text);
}

static void
qset_free(struct qset *s)
{
	free(s->q);
	free(s->self);
	free(s->exact);
	free(s->nexact);
}

static int
cmphit_id(const void *a, const void *b)
{
	const struct vec_hit *x = a, *y = b;

	return x->paper_id < y->paper_id ? -1 : x->paper_id > y->paper_id;
}

/* How many of the exact top k a[0..na) are among b[0..nb) (sorted in
 * place by id). */
static size_t
overlap(const struct vec_hit *a, size_t na, struct vec_hit *b, size_t nb)
{
	size_t i, found = 0;

	qsort(b, nb, sizeof(*b), cmphit_id);
	for (i = 0; i < na; i++)
		if (bsearch(&a[i], b, nb, sizeof(*b), cmphit_id) != NULL)
			found++;
	return found;
}

/*
 * Recall@k against the brute force and microseconds a query for the
 * lists read: vec_search()'s choice, and a few around it.
 */
static void
recall(const struct vec_index *idx, size_t k, int similar)
{
	struct qset s;
	struct vec_hit *b = core_xcalloc(k, sizeof(*b));
	float *cs = core_xcalloc(idx->nlist + 1, sizeof(*cs));
	uint32_t *order = core_xcalloc(idx->nlist + 1, sizeof(*order));
	size_t probes[8], np = 0, def = vec_nprobe(idx, k), i, p, nb, found,
			  n20;
	size_t rows, top = k > 20 ? 20 : k, pass;
	double t, us, sum, worst, r, sumtop;
	const char *what = similar ? "similar" : "text";

	qset_make(idx, k, similar, &s);
	printf("%s, top %zu, %zu queries (CPU time of one thread): brute "
	       "force %.0f us a query\n",
	    what, k, s.n, s.exact_us);
	if (idx->nlist == 0) {
		printf("  (no lists: vec_search is the brute force)\n");
		goto out;
	}
	/* vec_search()'s nprobe, a quarter and half of it, twice, four
	 * times; 1 for the floor. */
	probes[np++] = 1;
	probes[np++] = def / 4;
	probes[np++] = def / 2;
	probes[np++] = def;
	probes[np++] = 2 * def;
	probes[np++] = 4 * def;
	for (p = 0; p < np; p++) {
		if (p > 0 && probes[p] <= probes[p - 1])
			continue; /* def / 4 of a small def */
		if (probes[p] >= idx->nlist)
			break;
		sum = sumtop = 0;
		worst = 1;
		rows = 0;
		/* CPU time, the best of three passes: other work on the
		 * machine only ever adds to it (caches, memory). */
		for (us = INFINITY, pass = 0; pass < 3; pass++) {
			t = vec_cpu_now(1);
			for (i = 0; i < s.n; i++)
				vec_search_probe(idx, &s.q[i], k, s.self[i],
				    probes[p], b, &nb);
			t = s.n ? (vec_cpu_now(1) - t) * 1e6 / (double)s.n : 0;
			if (t < us)
				us = t;
		}
		for (i = 0; i < s.n; i++) {
			vec_search_probe(idx, &s.q[i], k, s.self[i], probes[p],
			    b, &nb);
			found = overlap(s.exact + i * k, s.nexact[i], b, nb);
			r = s.nexact[i] ? (double)found / (double)s.nexact[i]
					: 1;
			sum += r;
			if (r < worst)
				worst = r;
			/* The first page's share: the exact best 20 among
			 * the k found. */
			n20 = s.nexact[i] < top ? s.nexact[i] : top;
			found = overlap(s.exact + i * k, n20, b, nb);
			sumtop += n20 ? (double)found / (double)n20 : 1;
			rows += rows_read(idx, &s.q[i], probes[p], cs, order);
		}
		printf("  nprobe %4zu%s: recall@%zu mean %.3f, worst %.3f",
		    probes[p], probes[p] == def ? " (vec_search)" : "", k,
		    s.n ? sum / (double)s.n : 0, worst);
		if (top < k)
			printf(" (exact top %zu found: %.3f)", top,
			    s.n ? sumtop / (double)s.n : 0);
		printf("; %6.0f us a query (%.1fx faster), %zu papers and "
		       "centroids scored\n",
		    us, us > 0 ? s.exact_us / us : 0, s.n ? rows / s.n : 0);
	}
out:
	qset_free(&s);
	free(b);
	free(cs);
	free(order);
}

/*
 * How clustered the papers are, to compare synthetic with real ones:
 * the lists' sizes, each paper's cosine to its centroid, and the
 * cosine of a paper's 1st and 16th nearest neighbour.
 */
static void
shape(const struct vec_index *idx)
{
	struct vec_hit h[SIMILAR_K];
	struct vec_query q;
	uint64_t st = 5;
	size_t i, c, n, big = 0, nq = 0, sizes = 0;
	double fit = 0, first = 0, last = 0;
	int32_t d;

	for (c = 0; c < idx->nlist; c++) {
		n = idx->lists[c + 1] - idx->lists[c];
		if (n > big)
			big = n;
		sizes += n * n;
	}
	for (i = 0; i < 200 && idx->ndocs > SIMILAR_K; i++) {
		size_t x = (size_t)(vec_rand(&st) % idx->ndocs);

		vec_row_query(idx, x, &q);
		vec_search_probe(idx, &q, SIMILAR_K, idx->ids[x], 0, h, &n);
		if (n < SIMILAR_K)
			continue;
		first += h[0].score;
		last += h[SIMILAR_K - 1].score;
		nq++;
		if (idx->nlist == 0)
			continue;
		for (c = 0;
		     c + 1 < idx->nlist && idx->lists[c + 1] <= idx->slot[x];
		     c++)
			;
		d = 0;
		vec_dots(q.v, idx->cent + c * VEC_DIMS, 1, &d);
		fit += (double)d * q.scale * idx->cscales[c];
	}
	printf("shape: %zu lists, mean %.0f papers, max %zu, a paper's list "
	       "has %.0f on average; cosine to the centroid %.3f; nearest "
	       "neighbour %.3f, 16th %.3f (means of %zu papers)\n",
	    idx->nlist, idx->nlist ? (double)idx->ndocs / idx->nlist : 0, big,
	    idx->ndocs ? (double)sizes / idx->ndocs : 0, nq ? fit / nq : 0,
	    nq ? first / nq : 0, nq ? last / nq : 0, nq);
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
	double t0 = vec_now(), t1;
	char la[64];
	int rc = VEC_EXIT_FAIL;

	memset(&m, 0, sizeof(m));
	if (o->papers == 0 && o->file == NULL) {
		fprintf(stderr, "weft-vectors: --papers 0 needs --file\n");
		goto out;
	}
	if (o->texts != NULL && texts_load(o->texts) != 0) {
		fprintf(stderr, "weft-vectors: %s: no query texts\n", o->texts);
		goto out;
	}
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
	if (o->nlist != SIZE_MAX)
		vec_writer_lists(w, o->nlist);
	if (o->papers == 0) /* the file's own papers, as they are */
		for (i = 0; i < real->ndocs; i++) {
			vec_row_query(real, i, &q);
			vec_writer_add(w, real->ids[i], &q);
			n++;
		}
	for (i = 0; i < o->papers; i++) {
		paper(real, topics, &st, x);
		if (vec_quantize(x, &q) != CORE_OK)
			continue;
		vec_writer_add(w, (int64_t)i + 1, &q);
		n++;
	}
	t1 = vec_now();
	if (vec_writer_finish(w, NULL) != CORE_OK ||
	    vec_open_mem(mem.ptr, mem.len, &idx) != CORE_OK)
		goto out;
	t1 = vec_now() - t1;
	cumdf_init(idx);
	loadavg(la, sizeof(la));
	printf("weft-vectors bench: %zu papers x %d dims int8 (%.0f MB "
	       "file), %s %s; set up in %.1f s, of which %.1f s writing "
	       "(the lists); load average %s\n",
	    vec_count(idx), VEC_DIMS, (double)mem.len / 1e6,
	    o->papers == 0 ? "the papers of" : "like",
	    real != NULL ? o->file : "random topics", vec_now() - t0, t1, la);
	shape(idx);
	recall(idx, SIMILAR_K, 1);
	recall(idx, o->k, 0);
	measure(idx, o, 1, 1);
	measure(idx, o, 1, 0);
	if (o->threads > 1) {
		measure(idx, o, o->threads, 1);
		measure(idx, o, o->threads, 0);
	}
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
	texts_free();
	free(topics);
	core_buf_free(&mem);
	return rc;
}
