/*
 * write.c -- writing an index, front to back in one pass: the model,
 * then each paper's vector as it is computed (2.5 M of them never sit
 * in memory together), then the same in 4 bits (read back from the
 * file),
 * then ids and scales (30 MB, kept until the end),
 * and last the header, whose checksum makes a file that stopped half
 * way unreadable even if someone renamed it into place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"

#define FLUSH_AT  (1 << 20)
#define NIB_BLOCK 4096 /* rows read back at a time for the nib section */

struct vec_writer {
	int fd;
	struct core_buf *mem;
	struct core_buf pend; /* bytes not yet written to fd */
	uint64_t off;         /* bytes emitted so far */
	int failed, unordered;
	uint64_t nterms, strbytes, version;
	int64_t *ids;
	float *scales;
	size_t n, cap;
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

struct vec_writer *
vec_writer_new(int fd, struct core_buf *mem, const struct vec_model *m,
    uint64_t version)
{
	struct vec_writer *w = core_xcalloc(1, sizeof(*w));
	struct vec_header h;
	struct vec_layout l;
	uint32_t off = 0;
	size_t i;

	w->fd = fd;
	w->mem = fd == -1 ? mem : NULL;
	w->version = version;
	w->nterms = m->nterms;
	for (i = 0; i < m->nterms; i++)
		w->strbytes += strlen(m->terms[i]) + 1;
	if (vec_layout(w->nterms, w->strbytes, 0, &l) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "vocabulary too large");
		w->failed = 1;
		return w;
	}
	/* The real header comes last; until then zeros (bad magic). */
	memset(&h, 0, sizeof(h));
	emit(w, &h, sizeof(h));
	pad(w, l.termoff);
	for (i = 0; i < m->nterms; i++) {
		emit(w, &off, sizeof(off));
		off += (uint32_t)strlen(m->terms[i]) + 1;
	}
	emit(w, &off, sizeof(off));
	pad(w, l.str);
	for (i = 0; i < m->nterms; i++)
		emit(w, m->terms[i], strlen(m->terms[i]) + 1);
	pad(w, l.idf);
	emit(w, m->idf, m->nterms * sizeof(*m->idf));
	pad(w, l.proj);
	emit(w, m->proj, m->nterms * VEC_DIMS * sizeof(*m->proj));
	pad(w, l.vecs);
	return w;
}

void
vec_writer_add(struct vec_writer *w, int64_t id, const struct vec_query *q)
{
	if (w->n > 0 && id <= w->ids[w->n - 1])
		w->unordered = 1;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 4096;
		w->ids = core_xrealloc(w->ids, w->cap * sizeof(*w->ids));
		w->scales =
		    core_xrealloc(w->scales, w->cap * sizeof(*w->scales));
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
	free(w);
}

/*
 * The nib section: every row written so far in 4 bits, read back from
 * the file (or memory) a block of rows at a time, so that a build of
 * millions of papers still holds none of them.
 */
static int
write_nibs(struct vec_writer *w, const struct vec_layout *l)
{
	unsigned char *rows = NULL;
	uint8_t nib[VEC_NIB];
	size_t r, nb, b, want;
	ssize_t got;
	int rc = 0;

	pad(w, l->nib);
	if (w->mem == NULL)
		flush_fd(w);
	rows = core_xcalloc(NIB_BLOCK, VEC_DIMS);
	for (r = 0; r < w->n && !w->failed; r += nb) {
		nb = w->n - r < NIB_BLOCK ? w->n - r : NIB_BLOCK;
		want = nb * VEC_DIMS;
		/* A copy even from memory: emit() may move w->mem. */
		if (w->mem != NULL)
			memcpy(rows, w->mem->ptr + l->vecs + r * VEC_DIMS,
			    want);
		else if ((got = pread(w->fd, rows, want,
			      (off_t)(l->vecs + r * VEC_DIMS))) !=
		    (ssize_t)want) {
			core_log(CORE_LOG_ERROR, "vectors",
			    "reading back the vectors: %s",
			    got < 0 ? strerror(errno) : "short read");
			rc = -1;
			break;
		}
		for (b = 0; b < nb; b++) {
			vec_nib_pack((const int8_t *)(rows + b * VEC_DIMS),
			    nib);
			emit(w, nib, VEC_NIB);
		}
	}
	free(rows);
	return w->failed ? -1 : rc;
}

enum core_err
vec_writer_finish(struct vec_writer *w, size_t *ndocs)
{
	struct vec_header h;
	struct vec_layout l;
	enum core_err er = CORE_OK;
	ssize_t r;

	if (ndocs != NULL)
		*ndocs = w->n;
	if (w->unordered) {
		core_log(CORE_LOG_ERROR, "vectors", "paper ids not ascending");
		er = CORE_EINPUT;
		goto out;
	}
	if (w->failed || vec_layout(w->nterms, w->strbytes, w->n, &l) != 0) {
		er = CORE_ESYS;
		goto out;
	}
	if (write_nibs(w, &l) != 0) {
		er = CORE_ESYS;
		goto out;
	}
	pad(w, l.ids);
	emit(w, w->ids, w->n * sizeof(*w->ids));
	pad(w, l.scales);
	emit(w, w->scales, w->n * sizeof(*w->scales));

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
