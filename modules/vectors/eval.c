/*
 * eval.c -- weft-vectors eval: how well lexical (BM25), vector and
 * hybrid ranking find what they should, on a seeded sample of papers.
 *
 *  (a) title -> its own abstract, over an index of every abstract:
 *      MRR, recall@10, and MRR on the quarter of queries whose titles
 *      share the fewest words with their abstracts;
 *  (b) an abstract's first sentence -> its title, over an index of
 *      every title (the query papers' first sentences are left out of
 *      the text the model is fitted on);
 *  (c) more like this: a whole abstract against title + abstract of
 *      every other paper: precision@10 of the query's primary category.
 *
 * Hybrid = w * BM25 / max BM25 + (1 - w) * cosine; w is chosen per task
 * on a tuning sample disjoint from the test queries (the next papers of
 * the same shuffle), never on the test queries.  Ranks with ties count
 * half of the tied papers ahead (the expected rank of a random order),
 * so a query sharing no word with its target gets no lucky rank.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "internal.h"

#define NW   21 /* text weights 0, 0.05, ..., 1 */
#define TOPK 10

struct paper {
	int64_t id;
	char *title, *abstract, *primary;
	size_t s1; /* bytes of the first sentence */
};

struct corpus {
	struct paper *p;
	size_t n, cap;
};

static enum core_err
load_one(void *arg, const struct vec_paper *p)
{
	struct corpus *c = arg;
	struct paper *q;

	if (p->title[0] == '\0' || p->abstract[0] == '\0')
		return CORE_OK;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16384;
		c->p = core_xrealloc(c->p, c->cap * sizeof(*c->p));
	}
	q = &c->p[c->n++];
	q->id = p->id;
	q->title = core_xstrdup(p->title);
	q->abstract = core_xstrdup(p->abstract);
	q->primary = core_xstrdup(p->primary);
	q->s1 = 0;
	return CORE_OK;
}

static int
abbrev(const char *w, size_t n)
{
	static const char *const abbr[] = { "e.g", "i.e", "al", "vs", "cf",
		"etc", "fig", "eq", "resp", "approx", "ref", "sec", "no", "viz",
		"dr", "prof", "st" };
	size_t i;

	if (n == 1)
		return 1; /* an initial: "J. Smith" */
	for (i = 0; i < sizeof(abbr) / sizeof(abbr[0]); i++)
		if (strlen(abbr[i]) == n && strncasecmp(abbr[i], w, n) == 0)
			return 1;
	return 0;
}

/* The bytes of the first sentence of a (all of it if only one). */
static size_t
first_sentence(const char *a)
{
	size_t i, w;

	for (i = 20; a[i] != '\0'; i++) {
		if (a[i] != '.' && a[i] != '?' && a[i] != '!')
			continue;
		if (a[i + 1] != ' ' && a[i + 1] != '\n' && a[i + 1] != '\0')
			continue;
		for (w = i; w > 0 && a[w - 1] != ' ' && a[w - 1] != '\n'; w--)
			;
		if (a[i] == '.' && abbrev(a + w, i - w))
			continue;
		return i + 1;
	}
	return strlen(a);
}

/* ------------------------------------------------------------------ */
/* BM25 (k1 1.2, b 0.75) over one field                                */
/* ------------------------------------------------------------------ */

struct posting {
	uint32_t *doc;
	uint16_t *tf;
	size_t n, cap;
};

struct bm25 {
	struct vec_vocab *vocab;
	struct posting *post;
	size_t npost;
	float *len;
	size_t ndocs;
	double avg;
};

struct toks {
	uint32_t *v;
	size_t n, cap, all;
	struct vec_vocab *vocab;
	int add;
};

static void
tok_ids(void *arg, const char *tok, size_t len)
{
	struct toks *t = arg;
	int64_t id;

	t->all++;
	if (t->add)
		id = vec_vocab_add(t->vocab, tok, len);
	else if ((id = vec_vocab_find(t->vocab, tok, len)) < 0)
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = core_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (uint32_t)id;
}

/* Term ids of text, sorted (duplicates kept: runs are counts). */
static void
ids_of(struct vec_vocab *v, const char *text, int add, struct toks *t)
{
	t->n = t->all = 0;
	t->vocab = v;
	t->add = add;
	vec_tokenize(text, strlen(text), tok_ids, t);
	qsort(t->v, t->n, sizeof(*t->v), vec_cmpu32);
}

static void
bm25_init(struct bm25 *b, size_t ndocs)
{
	memset(b, 0, sizeof(*b));
	b->vocab = vec_vocab_new();
	b->ndocs = ndocs;
	b->len = core_xcalloc(ndocs, sizeof(*b->len));
}

static void
bm25_add(struct bm25 *b, uint32_t doc, const char *text, struct toks *t)
{
	struct posting *p;
	size_t i, run, nv;

	ids_of(b->vocab, text, 1, t);
	nv = vec_vocab_size(b->vocab);
	if (nv > b->npost) {
		b->post = core_xrealloc(b->post, nv * 2 * sizeof(*b->post));
		memset(b->post + b->npost, 0,
		    (nv * 2 - b->npost) * sizeof(*b->post));
		b->npost = nv * 2;
	}
	for (i = 0; i < t->n; i += run) {
		for (run = 1; i + run < t->n && t->v[i + run] == t->v[i]; run++)
			;
		p = &b->post[t->v[i]];
		if (p->n == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 4;
			p->doc =
			    core_xrealloc(p->doc, p->cap * sizeof(*p->doc));
			p->tf = core_xrealloc(p->tf, p->cap * sizeof(*p->tf));
		}
		p->doc[p->n] = doc;
		p->tf[p->n++] = (uint16_t)(run > 65535 ? 65535 : run);
	}
	b->len[doc] = (float)t->n;
	b->avg += (double)t->n / (double)b->ndocs;
}

/* Any-word BM25 of query against every document, into out[ndocs]. */
static void
bm25_score(const struct bm25 *b, const char *query, struct toks *t, float *out)
{
	const struct posting *p;
	size_t i, j, run;
	double idf, tf, k1 = 1.2, bb = 0.75;

	memset(out, 0, b->ndocs * sizeof(*out));
	ids_of(b->vocab, query, 0, t);
	for (i = 0; i < t->n; i += run) {
		for (run = 1; i + run < t->n && t->v[i + run] == t->v[i]; run++)
			;
		p = &b->post[t->v[i]];
		idf = log(1 +
		    ((double)b->ndocs - (double)p->n + 0.5) /
			((double)p->n + 0.5));
		for (j = 0; j < p->n; j++) {
			tf = p->tf[j];
			out[p->doc[j]] += (float)(run * idf * tf * (k1 + 1) /
			    (tf +
				k1 *
				    (1 - bb +
					bb * b->len[p->doc[j]] / b->avg)));
		}
	}
}

static void
bm25_free(struct bm25 *b)
{
	size_t i;

	for (i = 0; i < b->npost; i++) {
		free(b->post[i].doc);
		free(b->post[i].tf);
	}
	free(b->post);
	free(b->len);
	vec_vocab_free(b->vocab);
}

/* ------------------------------------------------------------------ */
/* Vector indexes of one field                                         */
/* ------------------------------------------------------------------ */

enum field { F_ABSTRACT, F_TITLE, F_DOC, F__MAX };

struct vindex {
	struct core_buf mem;
	struct vec_index *idx;
	int64_t *row; /* corpus index -> row, -1 when not embedded */
	float *rowscore;
};

static const char *
field_text(const struct paper *p, enum field f, struct core_buf *b)
{
	switch (f) {
	case F_ABSTRACT:
		return p->abstract;
	case F_TITLE:
		return p->title;
	default:
		vec_doc_text(b, p->title, p->abstract);
		return core_buf_cstr(b);
	}
}

static enum core_err
vindex_build(struct vindex *vi, const struct vec_model *m,
    const struct vec_index *model, const struct corpus *c, enum field f)
{
	struct vec_writer *w;
	struct vec_query q;
	struct core_buf b = CORE_BUF_INIT;
	size_t i;
	enum core_err er;

	memset(vi, 0, sizeof(*vi));
	w = vec_writer_new(-1, &vi->mem, m, 0);
	vi->row = core_xcalloc(c->n, sizeof(*vi->row));
	for (i = 0; i < c->n; i++) {
		vi->row[i] = -1;
		if (vec_embed(model, field_text(&c->p[i], f, &b), &q) !=
		    CORE_OK)
			continue;
		vec_writer_add(w, c->p[i].id, &q);
	}
	core_buf_free(&b);
	if ((er = vec_writer_finish(w, NULL)) != CORE_OK)
		return er;
	if ((er = vec_open_mem(vi->mem.ptr, vi->mem.len, &vi->idx)) !=
	    CORE_OK) {
		core_log(CORE_LOG_ERROR, "vectors", "%s", vec_open_why());
		return er;
	}
	for (i = 0; i < c->n; i++)
		vi->row[i] = vec_row(vi->idx, c->p[i].id);
	vi->rowscore = core_xcalloc(vec_count(vi->idx) + 1, sizeof(float));
	return CORE_OK;
}

/* Cosines of text against every paper, -1 for papers not embedded. */
static void
vindex_score(struct vindex *vi, const struct vec_index *model, const char *text,
    size_t n, float *out)
{
	struct vec_query q;
	size_t i;

	if (vec_embed(model, text, &q) != CORE_OK) {
		for (i = 0; i < n; i++)
			out[i] = 0; /* nothing known: no preference */
		return;
	}
	vec_scan_all(vi->idx, &q, vi->rowscore);
	for (i = 0; i < n; i++)
		out[i] = vi->row[i] < 0 ? -1 : vi->rowscore[vi->row[i]];
}

static void
vindex_free(struct vindex *vi)
{
	vec_close(vi->idx);
	core_buf_free(&vi->mem);
	free(vi->row);
	free(vi->rowscore);
}

/* ------------------------------------------------------------------ */
/* Measures                                                            */
/* ------------------------------------------------------------------ */

/* Expected rank of target under w * lex / max + (1 - w) * vec. */
static double
rank_of(const float *lex, const float *vec, size_t n, size_t target, double w,
    double lmax)
{
	double s, t, inv = lmax > 0 ? 1 / lmax : 0;
	size_t i, gt = 0, eq = 0;

	t = w * lex[target] * inv + (1 - w) * vec[target];
	for (i = 0; i < n; i++) {
		s = w * lex[i] * inv + (1 - w) * vec[i];
		if (s > t)
			gt++;
		else if (s == t && i != target)
			eq++;
	}
	return 1 + (double)gt + (double)eq / 2;
}

/* Share of the top 10 (without self) in self's primary category. */
static double
prec_at10(const float *lex, const float *vec, const struct corpus *c,
    size_t self, double w, double lmax)
{
	double top[TOPK], s, inv = lmax > 0 ? 1 / lmax : 0;
	size_t who[TOPK], k = 0, i, j, hit = 0;

	for (i = 0; i < c->n; i++) {
		if (i == self)
			continue;
		s = w * lex[i] * inv + (1 - w) * vec[i];
		if (k == TOPK && s <= top[TOPK - 1])
			continue;
		j = k < TOPK ? k++ : TOPK - 1;
		for (; j > 0 && top[j - 1] < s; j--) {
			top[j] = top[j - 1];
			who[j] = who[j - 1];
		}
		top[j] = s;
		who[j] = i;
	}
	for (i = 0; i < k; i++)
		hit += strcmp(c->p[who[i]].primary, c->p[self].primary) == 0;
	return k > 0 ? (double)hit / TOPK : 0;
}

static double
maxf(const float *v, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* Word overlap of title with abstract: shared distinct / title's. */
static double
overlap(struct vec_vocab *v, const struct paper *p, struct toks *t)
{
	uint32_t *ti;
	size_t nt, i, j, same = 0, distinct = 0;

	ids_of(v, p->title, 1, t);
	ti = core_xcalloc(t->n + 1, sizeof(*ti));
	for (i = 0; i < t->n; i++)
		if (i == 0 || t->v[i] != t->v[i - 1])
			ti[distinct++] = t->v[i];
	nt = distinct;
	ids_of(v, p->abstract, 1, t);
	for (i = 0, j = 0; i < nt; i++) {
		while (j < t->n && t->v[j] < ti[i])
			j++;
		if (j < t->n && t->v[j] == ti[i])
			same++;
	}
	free(ti);
	return nt > 0 ? (double)same / (double)nt : 1;
}

enum task { T_A, T_B, T_C, T__MAX };

static void
run_task(enum task task, const size_t *qs, size_t nq, const struct corpus *c,
    struct bm25 *lexi, struct vindex *vi, const struct vec_index *model,
    struct toks *t, double *out)
{
	float *lex = core_xcalloc(c->n, sizeof(float));
	float *vec = core_xcalloc(c->n, sizeof(float));
	struct core_buf sent = CORE_BUF_INIT;
	const char *query;
	size_t i, w, self;
	double lmax;
	struct vec_progress pr;

	vec_progress_start(&pr,
	    task == T_A       ? "(a)"
		: task == T_B ? "(b)"
			      : "(c)",
	    nq);
	for (i = 0; i < nq; i++) {
		self = qs[i];
		if (task == T_A)
			query = c->p[self].title;
		else if (task == T_B) {
			core_buf_reset(&sent);
			core_buf_put(&sent, c->p[self].abstract, c->p[self].s1);
			query = core_buf_cstr(&sent);
		} else
			query = c->p[self].abstract;
		bm25_score(lexi, query, t, lex);
		vindex_score(vi, model, query, c->n, vec);
		lmax = maxf(lex, c->n);
		for (w = 0; w < NW; w++)
			out[i * NW + w] = task == T_C
			    ? prec_at10(lex, vec, c, self, w / (NW - 1.0), lmax)
			    : rank_of(lex, vec, c->n, self, w / (NW - 1.0),
				  lmax);
		vec_progress_tick(&pr, i + 1);
	}
	pr.tty = 0;
	vec_progress_end(&pr);
	core_buf_free(&sent);
	free(lex);
	free(vec);
}

/* The mean measure over queries sel[0..n) (all when sel is NULL) at
 * weight w: MRR, recall@10 or P@10. */
enum measure { M_MRR, M_R10, M_P10 };

static double
mean(const double *r, size_t nq, const size_t *sel, size_t n, size_t w,
    enum measure m)
{
	double s = 0, x;
	size_t i, q;

	if (sel == NULL)
		n = nq;
	for (i = 0; i < n; i++) {
		q = sel != NULL ? sel[i] : i;
		x = r[q * NW + w];
		s += m == M_MRR ? 1 / x : m == M_R10 ? (x <= 10.0) : x;
	}
	return n > 0 ? s / (double)n : 0;
}

static size_t
best_w(const double *r, size_t nq, enum measure m)
{
	size_t w, best = 0;

	for (w = 1; w < NW; w++)
		if (mean(r, nq, NULL, 0, w, m) > mean(r, nq, NULL, 0, best, m))
			best = w;
	return best;
}

static const double *sort_ov;

static int
cmpov(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_ov[x] != sort_ov[y])
		return sort_ov[x] < sort_ov[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

int
vec_eval(const struct core_conf *conf, const struct vec_eval_opts *o)
{
	struct core_db *db = NULL;
	struct corpus c;
	struct vec_trainer tr;
	struct vec_fit_opts fo;
	struct vec_model m;
	struct core_buf mbuf = CORE_BUF_INIT, text = CORE_BUF_INIT;
	struct vec_index *model = NULL;
	struct vindex vi[F__MAX];
	struct bm25 lexi[F__MAX];
	struct toks t;
	struct vec_wordvecs wv;
	char *wvdir = NULL;
	size_t *perm = NULL, *low = NULL, i, j, nq, tmp, nlow;
	double *res[T__MAX][2], *ov = NULL, t0 = vec_now();
	unsigned char *isq = NULL;
	uint64_t st;
	int rc = VEC_EXIT_FAIL, f, k, s;
	size_t wa, wb, wc, w7 = 14;

	memset(&c, 0, sizeof(c));
	memset(&tr, 0, sizeof(tr));
	memset(&m, 0, sizeof(m));
	memset(vi, 0, sizeof(vi));
	memset(lexi, 0, sizeof(lexi));
	memset(&t, 0, sizeof(t));
	memset(&wv, 0, sizeof(wv));
	memset(res, 0, sizeof(res));
	if (vec_store_open(conf, 1, &db) != CORE_OK)
		goto out;
	if (vec_store_each(db, load_one, &c) != CORE_OK)
		goto out;
	core_db_close(db);
	db = NULL;
	nq = o->queries;
	if (c.n < 2 * nq + 1000) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "%zu papers with title and abstract: too few for %zu + %zu "
		    "queries",
		    c.n, nq, nq);
		goto out;
	}

	/* The shuffle: test queries first, then the tuning queries. */
	perm = core_xcalloc(c.n, sizeof(*perm));
	for (i = 0; i < c.n; i++)
		perm[i] = i;
	st = o->seed;
	for (i = 0; i < 2 * nq; i++) {
		j = i + (size_t)(vec_rand(&st) % (c.n - i));
		tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
	isq = core_xcalloc(c.n, 1);
	for (i = 0; i < 2 * nq; i++)
		isq[perm[i]] = 1;
	for (i = 0; i < c.n; i++)
		c.p[i].s1 = first_sentence(c.p[i].abstract);

	/* The model, without the query papers' first sentences (b). */
	vec_trainer_init(&tr);
	if (o->wordvecs && vec_wv_begin(&tr, &wvdir) != CORE_OK)
		goto out;
	for (i = 0; i < c.n; i++) {
		const char *a = c.p[i].abstract;

		if (isq[i]) {
			a += c.p[i].s1;
			while (*a == ' ' || *a == '\n')
				a++;
		}
		vec_doc_text(&text, c.p[i].title, a);
		/* No query paper's category reaches the model. */
		tr.label = isq[i] ? NULL : c.p[i].primary;
		vec_trainer_add(&tr, core_buf_cstr(&text));
	}
	if (o->wordvecs) {
		if (vec_wv_end(&tr, wvdir, &wv) != CORE_OK)
			goto out;
		wvdir = NULL;
	}
	vec_fit_defaults(&fo);
	if (o->wordvecs)
		fo.wv = &wv;
	if (o->wv_share > 0)
		fo.wv_share = o->wv_share;
	if (o->beta > -10)
		fo.beta = o->beta;
	if (vec_fit(&tr, &fo, &m) != CORE_OK)
		goto out;
	if (vec_model_index(&m, &mbuf, &model) != CORE_OK)
		goto out;
	for (f = 0; f < F__MAX; f++) {
		if (vindex_build(&vi[f], &m, model, &c, (enum field)f) !=
		    CORE_OK)
			goto out;
		bm25_init(&lexi[f], c.n);
		for (i = 0; i < c.n; i++)
			bm25_add(&lexi[f], (uint32_t)i,
			    field_text(&c.p[i], (enum field)f, &text), &t);
	}
	core_log(CORE_LOG_INFO, "vectors", "model and indexes: %.1f s",
	    vec_now() - t0);

	for (k = 0; k < T__MAX; k++)
		for (s = 0; s < 2; s++) {
			static const enum field fld[T__MAX] = { F_ABSTRACT,
				F_TITLE, F_DOC };

			res[k][s] = core_xcalloc(nq * NW, sizeof(double));
			run_task((enum task)k, perm + (size_t)s * nq, nq, &c,
			    &lexi[fld[k]], &vi[fld[k]], model, &t, res[k][s]);
		}

	/* The test quarter with the least title/abstract word overlap. */
	ov = core_xcalloc(nq, sizeof(*ov));
	low = core_xcalloc(nq, sizeof(*low));
	for (i = 0; i < nq; i++) {
		ov[i] = overlap(lexi[F_DOC].vocab, &c.p[perm[i]], &t);
		low[i] = i;
	}
	sort_ov = ov;
	qsort(low, nq, sizeof(*low), cmpov);
	nlow = nq / 4;

	wa = best_w(res[T_A][1], nq, M_MRR);
	wb = best_w(res[T_B][1], nq, M_MRR);
	wc = best_w(res[T_C][1], nq, M_P10);
	printf("weft-vectors eval: %zu papers with title and abstract; "
	       "%zu test queries (seed %llu), tuning on the next %zu\n",
	    c.n, nq, (unsigned long long)o->seed, nq);
	printf("model: %zu terms, %d dims, beta %.2f, title x%d; "
	       "lexical = BM25 (k1 1.2, b 0.75) any word, our tokeniser\n",
	    m.nterms, VEC_DIMS, fo.beta, VEC_TITLE_REPEAT);
	if (m.wv_dims > 0)
		printf("word vectors: fasttext supervised on the other papers' "
		       "categories, %zu words; the last %zu dims, share %.2f\n",
		    wv.n, m.wv_dims, m.wv_share);
	else
		printf("word vectors: none (SVD dims only)\n");
	printf("hybrid = w * BM25/max + (1 - w) * cosine, w tuned on the "
	       "tuning sample: (a) %.2f (b) %.2f (c) %.2f\n\n",
	    wa / (NW - 1.0), wb / (NW - 1.0), wc / (NW - 1.0));
	printf("%-40s %8s %8s %8s %8s\n", "", "lexical", "vector", "hybrid",
	    "w=0.70");
#define ROW(name, r, sel, n, meas, wt)                                         \
	printf("%-40s %8.3f %8.3f %8.3f %8.3f\n", name,                        \
	    mean(r, nq, sel, n, NW - 1, meas), mean(r, nq, sel, n, 0, meas),   \
	    mean(r, nq, sel, n, wt, meas), mean(r, nq, sel, n, w7, meas))
	ROW("(a) title -> abstract  MRR", res[T_A][0], NULL, 0, M_MRR, wa);
	ROW("                       recall@10", res[T_A][0], NULL, 0, M_R10,
	    wa);
	ROW("    lowest-overlap quarter MRR", res[T_A][0], low, nlow, M_MRR,
	    wa);
	ROW("(b) 1st sentence -> title  MRR", res[T_B][0], NULL, 0, M_MRR, wb);
	ROW("                       recall@10", res[T_B][0], NULL, 0, M_R10,
	    wb);
	ROW("(c) more like this  P@10 (category)", res[T_C][0], NULL, 0, M_P10,
	    wc);
#undef ROW
	printf("%-40s %8.3f %8.3f %8.3f %8.3f\n",
	    "tuning sample: (a) MRR, (b) MRR, (c) P@10",
	    mean(res[T_A][1], nq, NULL, 0, wa, M_MRR),
	    mean(res[T_B][1], nq, NULL, 0, wb, M_MRR),
	    mean(res[T_C][1], nq, NULL, 0, wc, M_P10),
	    mean(res[T_C][1], nq, NULL, 0, 0, M_P10));
	printf("  (hybrid at its tuned w; last: (c) vector alone)\n");
	printf("\n(%.1f s; lowest-overlap quarter: %zu queries, overlap "
	       "<= %.2f)\n",
	    vec_now() - t0, nlow, nlow > 0 ? ov[low[nlow - 1]] : 0.0);
	rc = VEC_EXIT_OK;
out:
	core_db_close(db);
	for (k = 0; k < T__MAX; k++)
		for (s = 0; s < 2; s++)
			free(res[k][s]);
	for (f = 0; f < F__MAX; f++) {
		vindex_free(&vi[f]);
		if (lexi[f].vocab != NULL)
			bm25_free(&lexi[f]);
	}
	vec_close(model);
	core_buf_free(&mbuf);
	core_buf_free(&text);
	if (tr.vocab != NULL)
		vec_trainer_free(&tr);
	vec_model_free(&m);
	vec_wv_free(&wv);
	if (wvdir != NULL)
		(void)vec_wv_end(&tr, wvdir, &wv);
	for (i = 0; i < c.n; i++) {
		free(c.p[i].title);
		free(c.p[i].abstract);
		free(c.p[i].primary);
	}
	free(c.p);
	free(perm);
	free(isq);
	free(ov);
	free(low);
	free(t.v);
	return rc;
}
