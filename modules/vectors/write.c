/*
 * write.c -- writing an index, front to back: the model, then each
 * paper's vector as it is computed (2.5 M of them never sit in the
 * heap together), then the lists: the k-means reads the vectors back
 * through a mapping of the file and they are put in list order where
 * they are; then ids, slots and scales (50 MB, kept until the end), the
 * centroids, and last the header, whose checksum makes a file that
 * stopped half way unreadable even if someone renamed it into place.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"

#define FLUSH_AT (1 << 20)
/* Lists: the writer decides (vec_ivf_nlist), unless told. */
#define NLIST_AUTO SIZE_MAX

struct vec_writer {
	int fd;
	struct core_buf *mem;
	struct core_buf pend; /* bytes not yet written to fd */
	uint64_t off;         /* bytes emitted so far */
	int failed, unordered;
	uint64_t nterms, strbytes, version;
	int64_t *ids;
	float *scales;
	size_t n, cap, nlist;
	/* vec_writer_reuse(): the lists are the old file's, each row's
	 * list known as it is added. */
	int fixed;
	const int8_t *cent;
	const float *cscales;
	uint32_t *list;
	double fit; /* sum of the rows' cosines to their centroid */
};

static void
flush_fd(struct vec_writer *w)
{
	size_t done = 0;
	ssize_t r;

	while (!w->failed && done < w->pend.len) {
		r = write(w->fd, w->pend.ptr + done, w->pend.len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			core_log(CORE_LOG_ERROR, "vectors", "write: %s",
			    strerror(errno));
			w->failed = 1;
			break;
		}
		done += (size_t)r;
	}
	core_buf_reset(&w->pend);
}

static void
emit(struct vec_writer *w, const void *p, size_t n)
{
	if (n == 0) /* p may be NULL then */
		return;
	w->off += n;
	if (w->mem != NULL) {
		core_buf_put(w->mem, p, n);
		return;
	}
	core_buf_put(&w->pend, p, n);
	if (w->pend.len >= FLUSH_AT)
		flush_fd(w);
}

/* Zero bytes up to offset to (sections start 64-byte aligned). */
static void
pad(struct vec_writer *w, uint64_t to)
{
	static const char zero[64];

	while (w->off < to)
		emit(w, zero,
		    to - w->off < sizeof(zero) ? (size_t)(to - w->off)
					       : sizeof(zero));
}

/* A writer whose model has nterms terms of strbytes bytes: the header's
 * place emitted, l set; NULL (w->failed) when they do not fit. */
static struct vec_writer *
start(int fd, struct core_buf *mem, uint64_t version, uint64_t nterms,
    uint64_t strbytes, struct vec_layout *l)
{
	struct vec_writer *w = core_xcalloc(1, sizeof(*w));
	struct vec_header h;

	w->fd = fd;
	w->mem = fd == -1 ? mem : NULL;
	w->version = version;
	w->nlist = NLIST_AUTO;
	w->nterms = nterms;
	w->strbytes = strbytes;
	if (vec_layout(w->nterms, w->strbytes, 0, 0, l) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "vocabulary too large");
		w->failed = 1;
		return w;
	}
	/* The real header comes last; until then zeros (bad magic). */
	memset(&h, 0, sizeof(h));
	emit(w, &h, sizeof(h));
	pad(w, l->termoff);
	return w;
}

/* The model's idf and projection after its terms, up to the vectors:
 * the same bytes for a new model and for one an index keeps. */
static void
model_tail(struct vec_writer *w, const struct vec_layout *l, const float *idf,
    const float *proj, size_t nterms)
{
	pad(w, l->idf);
	emit(w, idf, nterms * sizeof(*idf));
	pad(w, l->proj);
	emit(w, proj, nterms * VEC_DIMS * sizeof(*proj));
	pad(w, l->vecs);
}

struct vec_writer *
vec_writer_new(int fd, struct core_buf *mem, const struct vec_model *m,
    uint64_t version)
{
	struct vec_writer *w;
	struct vec_layout l;
	uint64_t strbytes = 0;
	uint32_t off = 0;
	size_t i;

	for (i = 0; i < m->nterms; i++)
		strbytes += strlen(m->terms[i]) + 1;
	w = start(fd, mem, version, m->nterms, strbytes, &l);
	if (w->failed)
		return w;
	for (i = 0; i < m->nterms; i++) {
		emit(w, &off, sizeof(off));
		off += (uint32_t)strlen(m->terms[i]) + 1;
	}
	emit(w, &off, sizeof(off));
	pad(w, l.str);
	for (i = 0; i < m->nterms; i++)
		emit(w, m->terms[i], strlen(m->terms[i]) + 1);
	model_tail(w, &l, m->idf, m->proj, m->nterms);
	return w;
}

/* dot(a, b) of two vectors: one centroid's score, as vec_dots(). */
static int32_t
dot(const int8_t *a, const int8_t *b)
{
	int32_t d;

	vec_dots(a, b, 1, &d);
	return d;
}

struct vec_writer *
vec_writer_reuse(int fd, struct core_buf *mem, const struct vec_index *idx,
    uint64_t version)
{
	struct vec_writer *w;
	struct vec_layout l;
	uint64_t strbytes = idx->termoff[idx->nterms];

	/* The very bytes vec_writer_new() wrote for this model. */
	w = start(fd, mem, version, idx->nterms, strbytes, &l);
	if (w->failed)
		return w;
	emit(w, idx->termoff, (idx->nterms + 1) * sizeof(*idx->termoff));
	pad(w, l.str);
	emit(w, idx->str, (size_t)strbytes);
	model_tail(w, &l, idx->idf, idx->proj, idx->nterms);
	w->fixed = 1;
	w->nlist = idx->nlist;
	w->cent = idx->cent;
	w->cscales = idx->cscales;
	return w;
}

void
vec_writer_add(struct vec_writer *w, int64_t id, const struct vec_query *q)
{
	vec_writer_add_in(w, id, q, VEC_LIST_NEAREST);
}

void
vec_writer_add_in(struct vec_writer *w, int64_t id, const struct vec_query *q,
    uint32_t list)
{
	float sc = 0;

	if (w->n > 0 && id <= w->ids[w->n - 1])
		w->unordered = 1;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 4096;
		w->ids = core_xrealloc(w->ids, w->cap * sizeof(*w->ids));
		w->scales =
		    core_xrealloc(w->scales, w->cap * sizeof(*w->scales));
		if (w->fixed)
			w->list =
			    core_xrealloc(w->list, w->cap * sizeof(*w->list));
	}
	if (w->fixed && w->nlist > 0) {
		if (list == VEC_LIST_NEAREST || list >= w->nlist)
			list = vec_ivf_nearest(q->v, w->cent, w->cscales,
			    w->nlist, &sc);
		else
			sc = (float)dot(q->v, w->cent + list * VEC_DIMS) *
			    w->cscales[list];
		w->list[w->n] = list;
		w->fit += (double)sc * q->scale;
	}
	w->ids[w->n] = id;
	w->scales[w->n++] = q->scale;
	emit(w, q->v, VEC_DIMS);
}

void
vec_writer_abort(struct vec_writer *w)
{
	if (w == NULL)
		return;
	core_buf_free(&w->pend);
	free(w->ids);
	free(w->scales);
	free(w->list);
	free(w);
}

void
vec_writer_lists(struct vec_writer *w, size_t nlist)
{
	if (!w->fixed)
		w->nlist = nlist;
}

/*
 * The rows written so far, read and written through: the memory buffer
 * itself, or a shared mapping of the file up to the end of the vectors
 * (*len set: munmap it).  NULL when mapping failed (logged).
 */
static int8_t *
map_rows(struct vec_writer *w, const struct vec_layout *l, size_t *len)
{
	void *p;

	*len = 0;
	if (w->mem != NULL)
		return (int8_t *)w->mem->ptr + l->vecs;
	flush_fd(w);
	if (w->failed)
		return NULL;
	p = mmap(NULL, (size_t)(l->vecs + w->n * VEC_DIMS),
	    PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
	if (p == MAP_FAILED) {
		core_log(CORE_LOG_ERROR, "vectors", "mapping the vectors: %s",
		    strerror(errno));
		return NULL;
	}
	*len = (size_t)(l->vecs + w->n * VEC_DIMS);
	return (int8_t *)p + l->vecs;
}

/*
 * Puts the rows in slot order, where they are: slot s gets the vector
 * of row row[s], by following each cycle of the permutation (one row
 * in hand, a bit a row to know which are in place).
 */
static void
permute_rows(int8_t *v, const uint32_t *row, size_t n)
{
	unsigned char *done = core_xcalloc(n / 8 + 1, 1);
	int8_t hand[VEC_DIMS];
	size_t start, s, r;

	for (start = 0; start < n; start++) {
		if (done[start / 8] & (1u << (start % 8)))
			continue;
		memcpy(hand, v + start * VEC_DIMS, VEC_DIMS);
		for (s = start;; s = r) {
			done[s / 8] |= (unsigned char)(1u << (s % 8));
			r = row[s];
			if (r == start) {
				memcpy(v + s * VEC_DIMS, hand, VEC_DIMS);
				break;
			}
			memcpy(v + s * VEC_DIMS, v + r * VEC_DIMS, VEC_DIMS);
		}
	}
	free(done);
}

/*
 * Learns the lists and writes every section after the vectors: ids,
 * slot, row, scales by slot, centroids, list offsets.  -1 on failure
 * (logged).
 */
static int
write_lists(struct vec_writer *w, const struct vec_layout *l, size_t nlist)
{
	int8_t *v = NULL, *cent = NULL;
	uint32_t *list = NULL, *slot = NULL, *row = NULL, *off = NULL;
	float *cscales = NULL, *scales = NULL;
	const uint32_t *lst;
	const int8_t *cen = NULL;
	const float *csc = NULL;
	size_t maplen = 0, r, c;
	double t0 = vec_now(), c0 = vec_cpu_now(0), fit;
	int rc = -1;

	slot = core_xcalloc(w->n + 1, sizeof(*slot));
	row = core_xcalloc(w->n + 1, sizeof(*row));
	off = core_xcalloc(nlist + 1, sizeof(*off));
	scales = core_xcalloc(w->n + 1, sizeof(*scales));
	if (nlist == 0) {
		for (r = 0; r < w->n; r++)
			slot[r] = row[r] = (uint32_t)r;
		if (w->n > 0) /* w->scales is NULL before the first */
			memcpy(scales, w->scales, w->n * sizeof(*scales));
	} else {
		if ((v = map_rows(w, l, &maplen)) == NULL)
			goto out;
		if (w->fixed) { /* the lists came with the rows */
			lst = w->list;
			cen = w->cent;
			csc = w->cscales;
			fit = w->fit / (double)w->n;
		} else {
			cen = cent = core_xcalloc(nlist, VEC_DIMS);
			csc = cscales = core_xcalloc(nlist, sizeof(*cscales));
			lst = list = core_xcalloc(w->n, sizeof(*list));
			fit = vec_ivf_train(v, w->scales, w->n, nlist,
			    0x5eed0000u + w->n, cent, cscales, list);
		}
		/* A counting sort: slots list by list, rows ascending. */
		for (r = 0; r < w->n; r++)
			off[lst[r] + 1]++;
		for (c = 0; c < nlist; c++)
			off[c + 1] += off[c];
		for (r = 0; r < w->n; r++) {
			slot[r] = off[lst[r]]++;
			row[slot[r]] = (uint32_t)r;
			scales[slot[r]] = w->scales[r];
		}
		for (c = nlist; c > 0; c--) /* back to the starts */
			off[c] = off[c - 1];
		off[0] = 0;
		permute_rows(v, row, w->n);
		if (maplen > 0 &&
		    munmap((unsigned char *)v - l->vecs, maplen) != 0) {
			core_log(CORE_LOG_ERROR, "vectors", "munmap: %s",
			    strerror(errno));
			goto out;
		}
		core_log(CORE_LOG_INFO, "vectors",
		    "%zu lists for %zu papers in %.1f s (%.1f s of CPU), mean "
		    "cosine to the centroid %.3f",
		    nlist, w->n, vec_now() - t0, vec_cpu_now(0) - c0, fit);
	}
	pad(w, l->ids);
	emit(w, w->ids, w->n * sizeof(*w->ids));
	pad(w, l->slot);
	emit(w, slot, w->n * sizeof(*slot));
	pad(w, l->row);
	emit(w, row, w->n * sizeof(*row));
	pad(w, l->scales);
	emit(w, scales, w->n * sizeof(*scales));
	pad(w, l->cent);
	emit(w, cen, nlist * VEC_DIMS);
	pad(w, l->cscales);
	emit(w, csc, nlist * sizeof(*csc));
	pad(w, l->lists);
	emit(w, off, (nlist > 0 ? nlist + 1 : 0) * sizeof(*off));
	rc = w->failed ? -1 : 0;
out:
	free(slot);
	free(row);
	free(off);
	free(scales);
	free(cent);
	free(cscales);
	free(list);
	return rc;
}

enum core_err
vec_writer_finish(struct vec_writer *w, size_t *ndocs)
{
	struct vec_header h;
	struct vec_layout l;
	enum core_err er = CORE_OK;
	size_t nlist;
	ssize_t r;

	if (ndocs != NULL)
		*ndocs = w->n;
	if (w->unordered) {
		core_log(CORE_LOG_ERROR, "vectors", "paper ids not ascending");
		er = CORE_EINPUT;
		goto out;
	}
	nlist = w->nlist == NLIST_AUTO ? vec_ivf_nlist(w->n) : w->nlist;
	if (w->fixed && nlist > w->n) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "%zu papers for %zu lists: fit a new model", w->n, nlist);
		er = CORE_EINPUT;
		goto out;
	}
	if (nlist > w->n)
		nlist = w->n;
	if (w->failed ||
	    vec_layout(w->nterms, w->strbytes, w->n, nlist, &l) != 0) {
		er = CORE_ESYS;
		goto out;
	}
	if (write_lists(w, &l, nlist) != 0) {
		er = CORE_ESYS;
		goto out;
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, VEC_MAGIC, sizeof(h.magic));
	h.format = VEC_FORMAT;
	h.dims = VEC_DIMS;
	h.version = w->version;
	h.nterms = w->nterms;
	h.strbytes = w->strbytes;
	h.ndocs = w->n;
	h.size = l.size;
	h.built = (uint64_t)time(NULL);
	h.endian = VEC_ENDIAN;
	h.nlist = (uint32_t)nlist;
	h.check = vec_fnv(&h, offsetof(struct vec_header, check));
	if (w->mem != NULL) {
		memcpy(w->mem->ptr, &h, sizeof(h));
		goto out;
	}
	flush_fd(w);
	if (w->failed) {
		er = CORE_ESYS;
		goto out;
	}
	while ((r = pwrite(w->fd, &h, sizeof(h), 0)) < 0 && errno == EINTR)
		;
	if (r != (ssize_t)sizeof(h)) {
		core_log(CORE_LOG_ERROR, "vectors", "write: %s",
		    strerror(errno));
		er = CORE_ESYS;
	}
out:
	vec_writer_abort(w);
	return er;
}

enum core_err
vec_model_index(const struct vec_model *m, struct core_buf *mem,
    struct vec_index **ip)
{
	struct vec_writer *w;
	enum core_err er;

	*ip = NULL;
	core_buf_reset(mem);
	w = vec_writer_new(-1, mem, m, 0);
	if ((er = vec_writer_finish(w, NULL)) != CORE_OK)
		return er;
	if ((er = vec_open_mem(mem->ptr, mem->len, ip)) != CORE_OK)
		core_log(CORE_LOG_ERROR, "vectors", "model index: %s",
		    vec_open_why());
	return er;
}
