/*
 * test_vectors_search.c -- format 3's lists (the IVF): written from
 * memory and through a file descriptor alike, every paper in the list
 * of its nearest centroid and its vector moved with it, the search
 * through all lists equal to the brute force, recall through a few of
 * them on clustered vectors, ties broken by id whatever the order read,
 * small indexes without lists, and damaged list sections refused.
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
#define NLIST  60
#define K      16
#define NQ     60

static int8_t rows[NDOCS][VEC_DIMS]; /* what was written, by row */

/*
 * NDOCS papers of random topics (ids 10, 20, ...) through w; with dups,
 * every tenth paper has the vector of the one before it (equal scores).
 */
static void
fill(struct vec_writer *w, int dups)
{
	static float topics[TOPICS][VEC_DIMS];
	float x[VEC_DIMS];
	struct vec_query q;
	uint64_t st = 11;
	size_t i, j, t;

	for (t = 0; t < TOPICS; t++)
		for (j = 0; j < VEC_DIMS; j++)
			topics[t][j] = (float)(vec_gauss(&st) / sqrt(1.0 + j));
	for (i = 0; i < NDOCS; i++) {
		t = (size_t)(vec_rand(&st) % TOPICS);
		for (j = 0; j < VEC_DIMS; j++)
			x[j] = topics[t][j] +
			    (float)(0.7 * vec_gauss(&st) / sqrt(1.0 + j));
		if (!dups || i % 10 != 9)
			if (vec_quantize(x, &q) != CORE_OK)
				abort();
		memcpy(rows[i], q.v, VEC_DIMS);
		vec_writer_add(w, 10 * ((int64_t)i + 1), &q);
	}
}

static void
write_mem(struct core_buf *mem, size_t nlist, int dups)
{
	struct vec_model m;
	struct vec_writer *w;

	memset(&m, 0, sizeof(m));
	core_buf_reset(mem);
	w = vec_writer_new(-1, mem, &m, 3);
	if (nlist != SIZE_MAX)
		vec_writer_lists(w, nlist);
	fill(w, dups);
	if (vec_writer_finish(w, NULL) != CORE_OK)
		abort();
}

/* Opens a copy of mem with the uint32 at off set to val. */
static enum core_err
open_patched(const struct core_buf *mem, uint64_t off, uint32_t val)
{
	struct vec_index *idx = NULL;
	char *copy = core_xcalloc(1, mem->len + 8);
	enum core_err er;

	memcpy(copy, mem->ptr, mem->len);
	memcpy(copy + off, &val, sizeof(val));
	er = vec_open_mem(copy, mem->len, &idx);
	vec_close(idx);
	free(copy);
	return er;
}

/* Opens a copy of mem whose header says nlist lists. */
static enum core_err
open_nlist(const struct core_buf *mem, uint32_t nlist)
{
	struct vec_index *idx = NULL;
	struct vec_header h;
	char *copy = core_xcalloc(1, mem->len + 8);
	enum core_err er;

	memcpy(copy, mem->ptr, mem->len);
	memcpy(&h, copy, sizeof(h));
	h.nlist = nlist;
	h.check = vec_fnv(&h, offsetof(struct vec_header, check));
	memcpy(copy, &h, sizeof(h));
	er = vec_open_mem(copy, mem->len, &idx);
	vec_close(idx);
	free(copy);
	return er;
}

static int
same_hits(const struct vec_hit *a, size_t na, const struct vec_hit *b,
    size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (a[i].paper_id != b[i].paper_id || a[i].score != b[i].score)
			return 0;
	return 1;
}

/*
 * vec_dots() (AVX2 or VNNI when the machine has them) against the
 * plain sum, on random bytes: papers anywhere in -128..127, queries in
 * -127..127 (what vec_quantize makes), odd and even counts.
 */
static int
dots_exact(void)
{
	static int8_t docs[33 * VEC_DIMS];
	int8_t q[VEC_DIMS];
	int32_t got[33], want;
	uint64_t st = 3;
	size_t i, j, n, round;

	for (round = 0; round < 50; round++) {
		for (j = 0; j < VEC_DIMS; j++)
			q[j] = (int8_t)((int)(vec_rand(&st) % 255) - 127);
		if (round == 0)
			memset(q, 127, sizeof(q)); /* the largest sums */
		for (i = 0; i < sizeof(docs); i++)
			docs[i] = (int8_t)(vec_rand(&st) & 0xff);
		if (round == 1)
			memset(docs, -128, sizeof(docs));
		n = 1 + round % 33;
		vec_dots(q, docs, n, got);
		for (i = 0; i < n; i++) {
			for (want = 0, j = 0; j < VEC_DIMS; j++)
				want += (int32_t)q[j] * docs[i * VEC_DIMS + j];
			if (got[i] != want)
				return 0;
		}
	}
	return 1;
}

int
main(void)
{
	struct core_buf mem = CORE_BUF_INIT, small = CORE_BUF_INIT;
	struct vec_model m;
	struct vec_index *idx = NULL, *fidx = NULL, *sidx = NULL;
	struct vec_writer *w;
	struct vec_hit exact[K], ivf[K], all[K], big[200];
	struct vec_query q;
	struct vec_header h;
	struct vec_layout l;
	char path[] = "/tmp/test_vsearch_XXXXXX";
	size_t i, j, s, c, x, n1, n2, n3, found = 0, total = 0;
	int rows_ok = 1, nearest = 1, same = 1, scores_ok = 1, sorted = 1;
	int noself = 1, ties = 1, ascending = 1, probe_same = 1, identity = 1;
	int32_t d, dc;
	float sc;
	int fd;

	T_OK(dots_exact(), "vec_dots: the exact integer dot products");

	/* Lists learned and the vectors moved with their papers. */
	write_mem(&mem, NLIST, 0);
	T_EQ(vec_open_mem(mem.ptr, mem.len, &idx), CORE_OK, "opens");
	T_EQ(vec_count(idx), NDOCS, "all papers");
	T_EQ(idx->nlist, NLIST, "the lists asked for");
	for (i = 0; i < NDOCS; i++) {
		s = idx->slot[i];
		if (memcmp(idx->vecs + s * VEC_DIMS, rows[i], VEC_DIMS) != 0 ||
		    idx->row[s] != i || idx->ids[i] != 10 * ((int64_t)i + 1))
			rows_ok = 0;
		vec_row_query(idx, i, &q);
		if (memcmp(q.v, rows[i], VEC_DIMS) != 0)
			rows_ok = 0;
	}
	T_OK(rows_ok, "each row's vector is at its slot, and row inverts slot");
	for (s = 0; s < NDOCS; s++) {
		c = vec_list_of(idx, s);
		vec_dots(idx->vecs + s * VEC_DIMS, idx->cent + c * VEC_DIMS, 1,
		    &dc);
		for (j = 0; j < NLIST; j++) {
			vec_dots(idx->vecs + s * VEC_DIMS,
			    idx->cent + j * VEC_DIMS, 1, &d);
			sc = (float)d * idx->cscales[j];
			if (sc > (float)dc * idx->cscales[c] ||
			    (sc == (float)dc * idx->cscales[c] && j < c))
				nearest = 0;
		}
		if (s > 0 && c == vec_list_of(idx, s - 1) &&
		    idx->row[s] < idx->row[s - 1])
			ascending = 0;
	}
	T_OK(nearest, "every paper is in the list of its nearest centroid");
	T_OK(ascending, "within a list, papers in id order");
	for (c = 0; c < NLIST; c++)
		if (idx->lists[c + 1] == idx->lists[c])
			break;
	T_EQ(c, NLIST, "no list is empty");

	/* Through a file descriptor: the rows are mapped and moved there. */
	fd = mkstemp(path);
	T_OK(fd != -1, "temporary file");
	memset(&m, 0, sizeof(m));
	w = vec_writer_new(fd, NULL, &m, 3);
	vec_writer_lists(w, NLIST);
	fill(w, 0);
	T_EQ(vec_writer_finish(w, NULL), CORE_OK, "written to a file");
	close(fd);
	T_EQ(vec_open(path, &fidx), CORE_OK, "the file opens");
	T_OK(fidx != NULL && fidx->size == mem.len &&
		memcmp((const char *)fidx->base + sizeof(h),
		    mem.ptr + sizeof(h), mem.len - sizeof(h)) == 0,
	    "file and memory hold the same bytes after the header");
	vec_close(fidx);
	unlink(path);

	/* All lists: the brute force; a few: most of it. */
	for (i = 0; i < NQ; i++) {
		x = (i * 149) % NDOCS;
		vec_row_query(idx, x, &q);
		vec_search_probe(idx, &q, K, idx->ids[x], 0, exact, &n1);
		vec_search_probe(idx, &q, K, idx->ids[x], NLIST, all, &n3);
		vec_search_probe(idx, &q, K, idx->ids[x], 6, ivf, &n2);
		if (!same_hits(exact, n1, all, n3) || n1 != K)
			same = 0;
		for (j = 0; j < n2; j++) {
			vec_score(idx, &q, ivf[j].paper_id, &sc);
			if (fabsf(sc - ivf[j].score) > 1e-6f)
				scores_ok = 0;
			if (j > 0 && ivf[j].score > ivf[j - 1].score)
				sorted = 0;
			if (ivf[j].paper_id == idx->ids[x])
				noself = 0;
		}
		for (j = 0; j < n1; j++)
			for (s = 0; s < n2; s++)
				if (ivf[s].paper_id == exact[j].paper_id) {
					found++;
					break;
				}
		total += n1;
		vec_search_probe(idx, &q, K, -1, vec_nprobe(idx, K), all, &n3);
		vec_search(idx, &q, K, -1, ivf, &n2);
		if (!same_hits(all, n3, ivf, n2))
			probe_same = 0;
	}
	T_OK(same, "through every list: the brute force, hit for hit");
	T_OK(scores_ok, "scores through the lists are the exact cosines");
	T_OK(sorted, "best first");
	T_OK(noself, "the excluded paper is left out");
	/* 0.895 measured; lists of random papers would give about 0.1 */
	T_OK((double)found / (double)total >= 0.85,
	    "recall@16 through 6 of 60 lists is at least 0.85");
	T_OK(probe_same, "vec_search reads vec_nprobe() lists");
	T_OK(vec_nprobe(idx, 30) > vec_nprobe(idx, 16) &&
		vec_nprobe(idx, 16) > 0 && vec_nprobe(idx, 30) < NLIST,
	    "more lists for a larger k");
	T_EQ(vec_nprobe(idx, 200), 0, "as many as there are: the exact scan");
	T_EQ(vec_search_probe(idx, &q, 0, -1, 3, ivf, &n2), CORE_EINPUT, "k 0");
	vec_row_query(idx, 17, &q);
	c = vec_list_of(idx, idx->slot[17]);
	T_EQ(vec_search_probe(idx, &q, 200, -1, 1, big, &n2), CORE_OK,
	    "one list, k beyond its papers");
	T_OK(n2 > 0 && n2 == idx->lists[c + 1] - idx->lists[c],
	    "all the papers of the query's own list");

	/* Equal vectors: the smaller id first, and the same papers at the
	 * edge of the top k however the vectors lie. */
	write_mem(&small, NLIST, 1);
	T_EQ(vec_open_mem(small.ptr, small.len, &sidx), CORE_OK,
	    "with duplicates: opens");
	for (i = 0; i < NQ && sidx != NULL; i++) {
		x = (i * 149) % NDOCS;
		vec_row_query(sidx, x, &q);
		/* the top 2 from a twin: both twins, by id, through its
		 * own list alone as through every vector */
		vec_search_probe(sidx, &q, 2, -1, 0, exact, &n1);
		vec_search_probe(sidx, &q, 2, -1, x % 10 >= 8 ? 1 : NLIST, all,
		    &n3);
		if (!same_hits(exact, n1, all, n3))
			ties = 0;
		if (x % 10 == 8 || x % 10 == 9) {
			size_t a = x - x % 10 + 8;

			if (exact[0].paper_id != sidx->ids[a] ||
			    exact[1].paper_id != sidx->ids[a + 1] ||
			    exact[0].score != exact[1].score)
				ties = 0;
		}
	}
	T_OK(ties, "ties: smaller id first, lists or not");
	vec_close(sidx);
	sidx = NULL;

	/* Small indexes: no lists unless asked, and the brute force. */
	T_EQ(vec_ivf_nlist(NDOCS), 0, "6,000 papers: no lists");
	T_EQ(vec_ivf_nlist(VEC_IVF_MIN), 0, "VEC_IVF_MIN papers: none");
	T_OK(vec_ivf_nlist(VEC_IVF_MIN + 1) > 100, "one more: lists");
	T_OK(vec_ivf_nlist(1000000) >= 1000 && vec_ivf_nlist(1000000) <= 8000,
	    "a million papers: c * 1000 lists");
	write_mem(&small, SIZE_MAX, 0);
	T_EQ(vec_open_mem(small.ptr, small.len, &sidx), CORE_OK,
	    "default lists: opens");
	T_EQ(sidx->nlist, 0, "no lists");
	T_EQ(vec_nprobe(sidx, K), 0, "vec_nprobe 0: the exact scan");
	for (i = 0; i < NDOCS; i++)
		if (sidx->slot[i] != i || sidx->row[i] != i)
			identity = 0;
	T_OK(identity, "without lists the vectors stay in id order");
	vec_row_query(sidx, 17, &q);
	vec_search(sidx, &q, K, sidx->ids[17], ivf, &n2);
	vec_search_probe(idx, &q, K, idx->ids[17], 0, exact, &n1);
	T_OK(same_hits(exact, n1, ivf, n2),
	    "vec_search on it: the brute force's hits");
	vec_close(sidx);
	sidx = NULL;

	/* Damaged lists and slots. */
	memcpy(&h, mem.ptr, sizeof(h));
	vec_layout(h.nterms, h.strbytes, h.ndocs, h.nlist, &l);
	T_EQ(open_patched(&mem, l.slot + 4 * 5, NDOCS), CORE_EINPUT,
	    "a slot out of range");
	T_CONTAINS(vec_open_why(), "slot", "says which");
	T_EQ(open_patched(&mem, l.slot + 4 * 5, idx->slot[6]), CORE_EINPUT,
	    "two rows in one slot");
	T_EQ(open_patched(&mem, l.row + 4 * idx->slot[5], 6), CORE_EINPUT,
	    "row not the inverse of slot");
	T_EQ(open_patched(&mem, l.lists, 1), CORE_EINPUT,
	    "the first list not at slot 0");
	T_CONTAINS(vec_open_why(), "lists", "says lists");
	T_EQ(open_patched(&mem, l.lists + 4 * NLIST, NDOCS - 1), CORE_EINPUT,
	    "the last list short of the papers");
	T_EQ(open_patched(&mem, l.lists + 4 * NLIST, NDOCS + 1), CORE_EINPUT,
	    "the last list beyond the papers");
	T_EQ(open_patched(&mem, l.lists + 4 * 7, idx->lists[6] - 1),
	    CORE_EINPUT, "a list that ends before it starts");
	T_EQ(open_patched(&mem, l.lists + 4 * 7, NDOCS), CORE_EINPUT,
	    "a list beyond the next's end");
	T_EQ(open_nlist(&mem, NLIST + 1), CORE_EINPUT,
	    "more lists than the file has");
	T_EQ(open_nlist(&mem, NDOCS + 1), CORE_EINPUT,
	    "more lists than papers");
	T_EQ(open_nlist(&mem, 0), CORE_EINPUT, "lists the header denies");
	T_EQ(open_patched(&mem, l.cent + 40, 0x7f7f7f7f), CORE_OK,
	    "a changed centroid is no error (recall only)");
	T_EQ(open_patched(&mem, l.lists + 4 * 7, idx->lists[7] + 1), CORE_OK,
	    "a list boundary moved is no error (recall only)");

	/* Format 2 files (no lists) are refused, and say to rebuild. */
	h.format = 2;
	h.check = vec_fnv(&h, offsetof(struct vec_header, check));
	memcpy(mem.ptr, &h, sizeof(h));
	vec_close(idx);
	idx = NULL;
	T_EQ(vec_open_mem(mem.ptr, mem.len, &idx), CORE_EINPUT,
	    "format 2 refused");
	T_CONTAINS(vec_open_why(), "rebuild", "says to rebuild");
	core_buf_free(&mem);
	core_buf_free(&small);
	return T_DONE();
}
