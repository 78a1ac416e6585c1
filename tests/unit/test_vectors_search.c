/*
 * test_vectors_search.c -- format 2's 4-bit section (written from memory
 * and through a file descriptor alike) and the two-stage search: exact
 * scores, the excluded paper left out, and recall against the brute
 * force on vectors with an SVD-like spectrum.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t.h"
#include "core.h"
#include "internal.h"

#define NDOCS  6000
#define TOPICS 300
#define K      50
#define CAND   600

static double
gauss(uint64_t *st)
{
	double u = ((double)(vec_rand(st) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(vec_rand(st) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* NDOCS papers of random topics (ids 10, 20, ...) through w. */
static void
fill(struct vec_writer *w)
{
	static float topics[TOPICS][VEC_DIMS];
	float x[VEC_DIMS];
	struct vec_query q;
	uint64_t st = 11;
	size_t i, j, t;

	for (t = 0; t < TOPICS; t++)
		for (j = 0; j < VEC_DIMS; j++)
			topics[t][j] = (float)(gauss(&st) / sqrt(1.0 + j));
	for (i = 0; i < NDOCS; i++) {
		t = (size_t)(vec_rand(&st) % TOPICS);
		for (j = 0; j < VEC_DIMS; j++)
			x[j] = topics[t][j] +
			    (float)(0.7 * gauss(&st) / sqrt(1.0 + j));
		if (vec_quantize(x, &q) != CORE_OK)
			abort();
		vec_writer_add(w, 10 * ((int64_t)i + 1), &q);
	}
}

static void
empty_model(struct vec_model *m)
{
	memset(m, 0, sizeof(*m));
}

int
main(void)
{
	struct core_buf mem = CORE_BUF_INIT, disk = CORE_BUF_INIT;
	struct vec_model m;
	struct vec_index *idx = NULL, *fidx = NULL;
	struct vec_writer *w;
	struct vec_hit exact[K], two[K], all[K];
	struct vec_query q;
	struct vec_header h;
	struct vec_layout l;
	char path[] = "/tmp/test_vsearch_XXXXXX";
	uint8_t nib[VEC_NIB];
	size_t i, j, x, n1, n2, n3, heads_ok = 1, scores_ok = 1, same = 1;
	size_t found = 0, total = 0, sorted = 1, noself = 1;
	float s;
	int fd;

	empty_model(&m);
	w = vec_writer_new(-1, &mem, &m, 3);
	fill(w);
	T_EQ(vec_writer_finish(w, NULL), CORE_OK, "written to memory");
	T_EQ(vec_open_mem(mem.ptr, mem.len, &idx), CORE_OK, "opens");
	T_EQ(vec_count(idx), NDOCS, "all papers");
	for (i = 0; i < NDOCS; i++)
		for (j = 0; j < VEC_DIMS; j++) {
			const uint8_t *b =
			    idx->nib + i * VEC_NIB + 32 * (j / 64) + j % 32;
			int v4 = ((j % 64 < 32 ? *b & 15 : *b >> 4)) - 8;
			int v8 = idx->vecs[i * VEC_DIMS + j];

			/* 4 bits hold the byte to within half a step */
			if (fabs(v4 - v8 * 7.0 / 127.0) > 0.5 + 1e-9)
				heads_ok = 0;
		}
	T_OK(heads_ok, "each 4-bit row is its full row within half a step");
	vec_nib_pack(idx->vecs, nib);
	T_OK(memcmp(nib, idx->nib, VEC_NIB) == 0, "packed by vec_nib_pack");

	/* Through a file descriptor: the rows are read back from it. */
	fd = mkstemp(path);
	T_OK(fd != -1, "temporary file");
	w = vec_writer_new(fd, NULL, &m, 3);
	fill(w);
	T_EQ(vec_writer_finish(w, NULL), CORE_OK, "written to a file");
	close(fd);
	T_EQ(vec_open(path, &fidx), CORE_OK, "the file opens");
	memcpy(&h, mem.ptr, sizeof(h));
	vec_layout(h.nterms, h.strbytes, h.ndocs, &l);
	T_OK(fidx != NULL && fidx->size == mem.len &&
		memcmp((const char *)fidx->base + sizeof(h),
		    mem.ptr + sizeof(h), mem.len - sizeof(h)) == 0,
	    "file and memory hold the same bytes after the header");
	vec_close(fidx);
	unlink(path);
	(void)disk;

	/* Two stages against the brute force. */
	for (i = 0; i < 40; i++) {
		x = (i * 149) % NDOCS;
		vec_row_query(idx, x, &q);
		vec_search_cand(idx, &q, K, idx->ids[x], 0, exact, &n1);
		vec_search_cand(idx, &q, K, idx->ids[x], CAND, two, &n2);
		vec_search_cand(idx, &q, K, idx->ids[x], NDOCS, all, &n3);
		if (n1 != K || n2 != K || n3 != K)
			same = 0;
		for (j = 0; j < n3; j++)
			if (all[j].paper_id != exact[j].paper_id)
				same = 0;
		for (j = 0; j < n2; j++) {
			vec_score(idx, &q, two[j].paper_id, &s);
			if (fabsf(s - two[j].score) > 1e-6f)
				scores_ok = 0;
			if (j > 0 && two[j].score > two[j - 1].score)
				sorted = 0;
			if (two[j].paper_id == idx->ids[x])
				noself = 0;
		}
		for (j = 0; j < n1; j++)
			for (x = 0; x < n2; x++)
				if (two[x].paper_id == exact[j].paper_id) {
					found++;
					break;
				}
		total += n1;
	}
	T_OK(same, "as many candidates as papers: the brute force itself");
	T_OK(scores_ok, "two-stage scores are the exact cosines");
	T_OK(sorted, "best first");
	T_OK(noself, "the excluded paper is left out");
	T_OK((double)found / (double)total >= 0.95,
	    "recall@50 from 600 of 6000 candidates is at least 0.95");
	T_EQ(vec_search_cand(idx, &q, 0, -1, 10, two, &n2), CORE_EINPUT, "k 0");
	T_EQ(vec_search_cand(idx, &q, K, -1, 5, two, &n2), CORE_OK,
	    "fewer candidates than k: k of them");
	T_EQ(n2, K, "k hits");

	/* Format 1 files (no 4-bit rows) are refused, and say to rebuild. */
	memcpy(&h, mem.ptr, sizeof(h));
	h.format = 1;
	h.check = vec_fnv(&h, offsetof(struct vec_header, check));
	memcpy(mem.ptr, &h, sizeof(h));
	vec_close(idx);
	idx = NULL;
	T_EQ(vec_open_mem(mem.ptr, mem.len, &idx), CORE_EINPUT,
	    "format 1 refused");
	T_CONTAINS(vec_open_why(), "rebuild", "says to rebuild");
	core_buf_free(&mem);
	return T_DONE();
}
