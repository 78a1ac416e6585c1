/*
 * test_vectors_update.c -- the incremental build's pieces: the decision
 * between an incremental build and a full fit (vec_refit_why), and the
 * writer that extends an index with its own model and lists: old papers
 * added with the lists they had and new ones with the nearest give the
 * very bytes of every paper projected again into the nearest list (what
 * weft-vectors build --reuse-model writes), deleted papers are gone and
 * a new paper has similar papers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "internal.h"

#define NDOCS 3000
#define NLIST 40

/* A random vector near one of 50 topics (seeded by *st). */
static void
paper(uint64_t *st, struct vec_query *q)
{
	static float topics[50][VEC_DIMS];
	static int made;
	float x[VEC_DIMS];
	uint64_t ts = 5;
	size_t j, t;

	if (!made++)
		for (t = 0; t < 50; t++)
			for (j = 0; j < VEC_DIMS; j++)
				topics[t][j] = (float)vec_gauss(&ts);
	t = (size_t)(vec_rand(st) % 50);
	for (j = 0; j < VEC_DIMS; j++)
		x[j] = topics[t][j] + (float)(0.8 * vec_gauss(st));
	if (vec_quantize(x, q) != CORE_OK)
		abort();
}

/* The list of slot s, the slow way. */
static uint32_t
list_of(const struct vec_index *idx, size_t s)
{
	uint32_t c = 0;

	while (c + 1 < idx->nlist && idx->lists[c + 1] <= s)
		c++;
	return c;
}

/* vec_list_of() against the slow way, for every slot. */
static int
lists_found(const struct vec_index *idx)
{
	size_t s;

	for (s = 0; s < vec_count(idx); s++)
		if (vec_list_of(idx, (uint32_t)s) != list_of(idx, s))
			return 0;
	return 1;
}

/* Whether id is one of the new papers (between the old ones). */
static int
is_new(int64_t id)
{
	return id % 10 == 5;
}

/* Whether old paper id was deleted since. */
static int
deleted(int64_t id)
{
	return id % 70 == 0;
}

/*
 * The next version of old: its papers but the deleted ones, with the
 * lists they had (keep) or the nearest computed again, and every 9th
 * gap filled by a new paper.
 */
static void
extend(const struct vec_index *old, struct core_buf *out, int keep)
{
	struct vec_writer *w = vec_writer_reuse(-1, out, old, 8);
	struct vec_query q;
	uint64_t st = 77;
	size_t r;
	int64_t id;

	for (r = 0; r < vec_count(old); r++) {
		id = vec_row_id(old, r);
		if (!deleted(id)) {
			vec_row_query(old, r, &q);
			vec_writer_add_in(w, id, &q,
			    keep ? vec_list_of(old, old->slot[r])
				 : VEC_LIST_NEAREST);
		}
		if (r % 9 == 0) {
			paper(&st, &q);
			vec_writer_add_in(w, id + 5, &q, VEC_LIST_NEAREST);
		}
	}
	if (vec_writer_finish(w, NULL) != CORE_OK)
		abort();
}

static void
refit(void)
{
	struct vec_drift d;
	char why[200];

	memset(&d, 0, sizeof(d));
	d.papers = 10000;
	d.changed = 500;
	d.fit_unknown = 0.08;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 0, "5 %: incremental");
	d.since_fit = 1600;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 1,
	    "21 % since the fit: refit");
	T_CONTAINS(why, "21.0 % of the papers changed", "  says so");
	d.since_fit = 1500;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 0, "20 %: still incremental");
	d.tokens = 100000;
	d.unknown = 12000;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 0,
	    "12 % unknown against 8 %: within the bound");
	d.unknown = 14000;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 1, "14 %: drift, refit");
	T_CONTAINS(why, "14.0 % of the new papers' words", "  says so");
	d.tokens = VEC_INC_MIN_TOKENS - 1;
	d.unknown = d.tokens;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 0,
	    "too few tokens to tell drift");
	d.tokens = 0;
	d.papers = VEC_IVF_MIN + 1;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 1,
	    "no lists above VEC_IVF_MIN: refit");
	T_CONTAINS(why, "need lists", "  says so");
	d.nlist = 300;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 0, "with lists: incremental");
	d.papers = 299;
	d.changed = d.since_fit = 0;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 1, "fewer papers than lists");
	d.papers = 0;
	T_EQ(vec_refit_why(&d, why, sizeof(why)), 1, "no papers");
	T_EQ(vec_refit_why(NULL, why, sizeof(why)), 0, "NULL: nothing to say");
}

int
main(void)
{
	struct core_buf mem = CORE_BUF_INIT, a = CORE_BUF_INIT,
			b = CORE_BUF_INIT;
	struct vec_model m;
	struct vec_writer *w;
	struct vec_index *old = NULL, *ia = NULL;
	struct vec_query q;
	struct vec_hit hits[10];
	size_t i, n = 0, nnew = 0, ndel = 0, gone = 0, in = 0;
	uint64_t st = 3;
	int64_t id;

	refit();

	/* The old index: NDOCS papers, ids 10, 20, ..., NLIST lists. */
	memset(&m, 0, sizeof(m));
	w = vec_writer_new(-1, &mem, &m, 7);
	vec_writer_lists(w, NLIST);
	for (i = 0; i < NDOCS; i++) {
		paper(&st, &q);
		vec_writer_add(w, 10 * ((int64_t)i + 1), &q);
	}
	T_EQ(vec_writer_finish(w, NULL), CORE_OK, "the old index");
	T_EQ(vec_open_mem(mem.ptr, mem.len, &old), CORE_OK, "  opens");
	T_OK(lists_found(old), "vec_list_of: every slot's list");

	extend(old, &a, 1);
	extend(old, &b, 0);
	T_EQ(a.len, b.len, "incremental and full projection: same size");
	T_OK(a.len == b.len && a.len > sizeof(struct vec_header) &&
		memcmp(a.ptr + sizeof(struct vec_header),
		    b.ptr + sizeof(struct vec_header),
		    a.len - sizeof(struct vec_header)) == 0,
	    "  the same bytes after the header");
	T_EQ(vec_open_mem(a.ptr, a.len, &ia), CORE_OK, "the new index opens");
	T_EQ(ia->nlist, (size_t)NLIST, "  with the old lists");
	T_OK(memcmp(ia->cent, old->cent, NLIST * VEC_DIMS) == 0,
	    "  and their centroids");
	T_EQ(vec_version(ia), (uint64_t)8, "  its version");
	for (i = 0; i < vec_count(old); i++) {
		id = vec_row_id(old, i);
		if (deleted(id)) {
			ndel++;
			gone += vec_row(ia, id) < 0;
		} else
			in += vec_row(ia, id) >= 0;
	}
	for (i = 0; i < vec_count(ia); i++)
		nnew += is_new(vec_row_id(ia, i));
	T_EQ(gone, ndel, "deleted papers are gone");
	T_EQ(in, vec_count(old) - ndel, "the others are there");
	T_EQ(vec_count(ia), vec_count(old) - ndel + nnew,
	    "  with the new ones");
	T_OK(nnew > 300, "  (new ones added)");
	T_EQ(vec_similar(ia, 15, 10, hits, &n), CORE_OK,
	    "a new paper has similar papers");
	T_EQ(n, (size_t)10, "  10 of them");

	vec_close(ia);
	vec_close(old);
	core_buf_free(&mem);
	core_buf_free(&a);
	core_buf_free(&b);
	return T_DONE();
}
