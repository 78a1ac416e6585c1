/*
 * test_vectors_file.c -- the index file: write, read back, queries on
 * it, quantisation, and refusal of every kind of damaged file.  With
 * WEFT_VEC_SEEDS=DIR it also writes the fuzzer's seeds there (DIR is
 * tests/fuzz/corpus/vectors): small.wvec, these three papers, and
 * lists.wvec, 24 papers in 4 lists.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t.h"
#include "core.h"
#include "internal.h"

static const char *const terms[] = { "alpha", "beta", "gamma", "delta" };
#define NTERMS 4

/* Terms sorted as the file wants them, each along its own axis plus a
 * little of the next. */
static void
model(struct vec_model *m)
{
	static const char *const sorted[NTERMS] = { "alpha", "beta", "delta",
		"gamma" };
	size_t i;

	memset(m, 0, sizeof(*m));
	m->nterms = NTERMS;
	m->terms = core_xcalloc(NTERMS, sizeof(*m->terms));
	m->idf = core_xcalloc(NTERMS, sizeof(*m->idf));
	m->proj = core_xcalloc(NTERMS * VEC_DIMS, sizeof(*m->proj));
	for (i = 0; i < NTERMS; i++) {
		m->terms[i] = core_xstrdup(sorted[i]);
		m->idf[i] = 1.0f + (float)i / 10;
		m->proj[i * VEC_DIMS + i] = 1.0f;
		m->proj[i * VEC_DIMS + (i + 1) % VEC_DIMS] = 0.25f;
		m->proj[i * VEC_DIMS + 100 + i] = 0.1f;
	}
}

/* An index of three papers (ids 5, 7, 9) into mem. */
static void
build(struct core_buf *mem, uint64_t version)
{
	struct vec_model m;
	struct core_buf mb = CORE_BUF_INIT;
	struct vec_index *mi = NULL;
	struct vec_writer *w;
	struct vec_query q;
	static const char *const texts[] = { "alpha alpha beta", "beta gamma",
		"gamma delta delta" };
	size_t i;

	model(&m);
	if (vec_model_index(&m, &mb, &mi) != CORE_OK)
		abort();
	w = vec_writer_new(-1, mem, &m, version);
	for (i = 0; i < 3; i++) {
		if (vec_embed(mi, texts[i], &q) != CORE_OK)
			abort();
		vec_writer_add(w, 5 + 2 * (int64_t)i, &q);
	}
	if (vec_writer_finish(w, NULL) != CORE_OK)
		abort();
	vec_close(mi);
	core_buf_free(&mb);
	vec_model_free(&m);
}

/*
 * 24 papers (ids 5, 7, ...) of the same four terms in varying measure,
 * in 4 lists, into mem: the fuzzer's seed with lists.
 */
static void
build_lists(struct core_buf *mem)
{
	struct vec_model m;
	struct core_buf mb = CORE_BUF_INIT, text = CORE_BUF_INIT;
	struct vec_index *mi = NULL;
	struct vec_writer *w;
	struct vec_query q;
	size_t i, r;

	model(&m);
	if (vec_model_index(&m, &mb, &mi) != CORE_OK)
		abort();
	w = vec_writer_new(-1, mem, &m, 7);
	vec_writer_lists(w, 4);
	for (i = 0; i < 24; i++) {
		core_buf_reset(&text);
		for (r = 0; r <= i / 8; r++)
			core_buf_printf(&text, "%s ", terms[i % 4]);
		if (i % 2)
			core_buf_printf(&text, "%s", terms[(i / 2 + 1) % 4]);
		if (vec_embed(mi, core_buf_cstr(&text), &q) != CORE_OK)
			abort();
		vec_writer_add(w, 5 + 2 * (int64_t)i, &q);
	}
	if (vec_writer_finish(w, NULL) != CORE_OK)
		abort();
	vec_close(mi);
	core_buf_free(&mb);
	core_buf_free(&text);
	vec_model_free(&m);
}

/* Writes mem to dir/name (the fuzzer's seeds). */
static void
save(const char *dir, const char *name, const struct core_buf *mem)
{
	char *path = core_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(mem->ptr, 1, mem->len, f) != mem->len ||
	    fclose(f) != 0)
		abort();
	free(path);
}

/* Opens a copy of mem with byte off changed to val (or cut at len). */
static enum core_err
open_damaged(const struct core_buf *mem, size_t off, int val, size_t len)
{
	struct vec_index *idx = NULL;
	char *copy = core_xcalloc(1, mem->len + 8);
	enum core_err er;

	memcpy(copy, mem->ptr, mem->len);
	if (val >= 0)
		copy[off] = (char)val;
	er = vec_open_mem(copy, len, &idx);
	vec_close(idx);
	free(copy);
	return er;
}

/* Rewrites the header of a copy with field changes and a good checksum. */
static enum core_err
open_reheadered(const struct core_buf *mem, uint32_t format, int swapids)
{
	struct vec_index *idx = NULL;
	struct vec_header h;
	struct vec_layout l;
	char *copy = core_xcalloc(1, mem->len);
	int64_t t;
	enum core_err er;

	memcpy(copy, mem->ptr, mem->len);
	memcpy(&h, copy, sizeof(h));
	h.format = format;
	h.check = vec_fnv(&h, offsetof(struct vec_header, check));
	memcpy(copy, &h, sizeof(h));
	if (swapids) {
		vec_layout(h.nterms, h.strbytes, h.ndocs, h.nlist, &l);
		memcpy(&t, copy + l.ids, sizeof(t));
		memcpy(copy + l.ids, copy + l.ids + 8, sizeof(t));
		memcpy(copy + l.ids + 8, &t, sizeof(t));
	}
	er = vec_open_mem(copy, mem->len, &idx);
	vec_close(idx);
	free(copy);
	return er;
}

int
main(void)
{
	struct core_buf mem = CORE_BUF_INIT, lists = CORE_BUF_INIT;
	struct vec_index *idx = NULL;
	struct vec_hit hits[4];
	const char *seeds;
	struct vec_query q;
	struct vec_header h;
	struct vec_layout l;
	char path[] = "/tmp/test_vectors_XXXXXX";
	double norm = 0, x;
	float s;
	size_t n, i;
	int fd;

	build(&mem, 42);
	T_EQ(vec_open_mem(mem.ptr, mem.len, &idx), CORE_OK, "index opens");
	T_EQ(vec_version(idx), 42, "version read back");
	T_EQ(vec_count(idx), 3, "three papers");
	T_EQ(vec_nterms(idx), NTERMS, "four terms");

	/* Quantisation: the stored vector is a unit vector within 1%. */
	vec_row_query(idx, 0, &q);
	for (i = 0; i < VEC_DIMS; i++) {
		x = q.v[i] * (double)q.scale;
		norm += x * x;
	}
	T_OK(fabs(sqrt(norm) - 1) < 0.01, "dequantised norm is 1");
	T_EQ(vec_score(idx, &q, 5, &s), CORE_OK, "self score");
	T_OK(fabs(s - 1) < 0.02, "self cosine is 1");
	T_EQ(vec_score(idx, &q, 6, &s), CORE_ENOTFOUND, "no paper 6");

	T_EQ(vec_query_text(idx, "Alpha", 4, hits, &n), CORE_OK, "query");
	T_EQ(n, 3, "all three papers returned");
	T_EQ(hits[0].paper_id, 5, "alpha paper first");
	T_OK(hits[0].score >= hits[1].score && hits[1].score >= hits[2].score,
	    "best first");
	T_EQ(vec_query_text(idx, "gammas and deltas", 1, hits, &n), CORE_OK,
	    "stemmed query");
	T_EQ(hits[0].paper_id, 9, "gamma delta paper first");
	T_EQ(vec_query_text(idx, "zeta eta", 4, hits, &n), CORE_ENOTFOUND,
	    "no known term: ENOTFOUND");
	T_EQ(n, 0, "and no hits");
	T_EQ(vec_query_text(idx, "", 4, hits, &n), CORE_ENOTFOUND,
	    "empty query: ENOTFOUND");
	T_EQ(vec_similar(idx, 7, 4, hits, &n), CORE_OK, "similar");
	T_EQ(n, 2, "similar leaves the paper out");
	T_OK(hits[0].paper_id != 7 && hits[1].paper_id != 7, "not itself");
	T_EQ(vec_similar(idx, 8, 4, hits, &n), CORE_ENOTFOUND,
	    "similar to an unknown paper");
	T_EQ(vec_search(idx, &q, 0, -1, hits, &n), CORE_EINPUT, "k 0");
	vec_close(idx);
	idx = NULL;

	/* Damage. */
	memcpy(&h, mem.ptr, sizeof(h));
	vec_layout(h.nterms, h.strbytes, h.ndocs, h.nlist, &l);
	T_EQ(open_damaged(&mem, 0, 'X', mem.len), CORE_EINPUT, "bad magic");
	T_CONTAINS(vec_open_why(), "magic", "reason given");
	T_EQ(open_damaged(&mem, offsetof(struct vec_header, version), 7,
		 mem.len),
	    CORE_EINPUT, "header byte changed");
	T_CONTAINS(vec_open_why(), "checksum", "checksum reason");
	T_EQ(open_damaged(&mem, 0, -1, mem.len - 1), CORE_EINPUT,
	    "truncated by one byte");
	T_CONTAINS(vec_open_why(), "truncated", "truncated reason");
	T_EQ(open_damaged(&mem, 0, -1, mem.len + 8), CORE_EINPUT,
	    "extended by eight bytes");
	T_EQ(open_damaged(&mem, 0, -1, 10), CORE_EINPUT, "only 10 bytes");
	T_EQ(open_damaged(&mem, 0, -1, 0), CORE_EINPUT, "empty");
	T_EQ(open_damaged(&mem, l.str, 'z', mem.len), CORE_EINPUT,
	    "vocabulary out of order");
	T_CONTAINS(vec_open_why(), "sorted", "sorted reason");
	T_EQ(open_damaged(&mem, l.str + 5, 'x', mem.len), CORE_EINPUT,
	    "term without its NUL");
	T_EQ(open_damaged(&mem, l.termoff + 4, 200, mem.len), CORE_EINPUT,
	    "term offset out of range");
	T_EQ(open_reheadered(&mem, VEC_FORMAT + 1, 0), CORE_EINPUT,
	    "another format");
	T_CONTAINS(vec_open_why(), "rebuild", "says to rebuild");
	T_EQ(open_reheadered(&mem, VEC_FORMAT, 1), CORE_EINPUT,
	    "ids out of order");
	T_EQ(open_reheadered(&mem, VEC_FORMAT, 0), CORE_OK,
	    "rewritten header alone is fine");
	T_EQ(open_damaged(&mem, l.vecs + 3, 99, mem.len), CORE_OK,
	    "a changed vector byte is no error (scores only)");

	/* On disk: write through a descriptor, map, refuse the missing. */
	fd = mkstemp(path);
	T_OK(fd != -1, "temporary file");
	if (write(fd, mem.ptr, mem.len) != (ssize_t)mem.len)
		abort();
	close(fd);
	T_EQ(vec_open(path, &idx), CORE_OK, "mapped file opens");
	T_EQ(vec_count(idx), 3, "mapped: three papers");
	vec_close(idx);
	idx = NULL;
	if (truncate(path, (off_t)(mem.len / 2)) != 0)
		abort();
	T_EQ(vec_open(path, &idx), CORE_EINPUT, "truncated file refused");
	T_OK(idx == NULL, "no index");
	unlink(path);
	T_EQ(vec_open(path, &idx), CORE_ENOTFOUND, "missing file");
	T_EQ(vec_open("/", &idx), CORE_EINPUT, "a directory");

	/* Lists in a small index: the fuzzer's second seed. */
	build_lists(&lists);
	T_EQ(vec_open_mem(lists.ptr, lists.len, &idx), CORE_OK,
	    "24 papers in 4 lists open");
	T_EQ(idx != NULL ? idx->nlist : 0, 4, "four lists");
	T_EQ(vec_similar(idx, 7, 4, hits, &n), CORE_OK, "similar on it");
	T_EQ(n, 4, "four hits");
	vec_close(idx);
	idx = NULL;
	if ((seeds = getenv("WEFT_VEC_SEEDS")) != NULL) {
		save(seeds, "small.wvec", &mem);
		save(seeds, "lists.wvec", &lists);
	}

	core_buf_free(&mem);
	core_buf_free(&lists);
	return T_DONE();
}
