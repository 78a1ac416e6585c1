/*
 * file.c -- opening an index file: map it, then believe nothing in it
 * until checked.  The file comes from our own build, but a disk, a
 * copy or a half-finished deploy can hand us anything, and a worker
 * that crashes on it would take the page down with it.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"

static char why[160];

const char *
vec_open_why(void)
{
	return why;
}

static enum core_err refuse(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static enum core_err
refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return CORE_EINPUT;
}

uint64_t
vec_fnv(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t
align64(uint64_t x)
{
	return (x + 63) & ~(uint64_t)63;
}

int
vec_layout(uint64_t nterms, uint64_t strbytes, uint64_t ndocs, uint64_t nlist,
    struct vec_layout *l)
{
	/* With these bounds no sum or product below can overflow. */
	if (nterms >= (1ULL << 32) || strbytes >= (1ULL << 32) ||
	    ndocs >= (1ULL << 32) || nlist > VEC_NLIST_MAX || nlist > ndocs)
		return -1;
	l->termoff = align64(sizeof(struct vec_header));
	l->str = align64(l->termoff + (nterms + 1) * sizeof(uint32_t));
	l->idf = align64(l->str + strbytes);
	l->proj = align64(l->idf + nterms * sizeof(float));
	l->vecs = align64(l->proj + nterms * VEC_DIMS * sizeof(float));
	l->ids = align64(l->vecs + ndocs * VEC_DIMS);
	l->slot = align64(l->ids + ndocs * sizeof(int64_t));
	l->row = align64(l->slot + ndocs * sizeof(uint32_t));
	l->scales = align64(l->row + ndocs * sizeof(uint32_t));
	l->cent = align64(l->scales + ndocs * sizeof(float));
	l->cscales = align64(l->cent + nlist * VEC_DIMS);
	l->lists = align64(l->cscales + nlist * sizeof(float));
	l->size = l->lists + (nlist > 0 ? nlist + 1 : 0) * sizeof(uint32_t);
	return 0;
}

/* Checks the bytes of an index and fills idx; the reason goes to why. */
static enum core_err
check(struct vec_index *idx, const unsigned char *p, size_t n)
{
	struct vec_header h;
	struct vec_layout l;
	const char *prev;
	uint64_t i;

	why[0] = '\0';
	if (((uintptr_t)p & 7) != 0)
		return refuse("buffer not aligned");
	if (n < sizeof(h))
		return refuse("%zu bytes: shorter than a header", n);
	memcpy(&h, p, sizeof(h));
	if (memcmp(h.magic, VEC_MAGIC, sizeof(h.magic)) != 0)
		return refuse("not a weft vector index (bad magic)");
	if (h.endian != VEC_ENDIAN)
		return refuse("written on a machine of another byte order");
	if (h.format != VEC_FORMAT)
		return refuse("format %u, this build reads %u: rebuild it "
			      "with weft-vectors build",
		    h.format, VEC_FORMAT);
	if (h.dims != VEC_DIMS)
		return refuse("%u dimensions, expected %u", h.dims, VEC_DIMS);
	if (vec_fnv(&h, offsetof(struct vec_header, check)) != h.check)
		return refuse("header checksum mismatch");
	if (vec_layout(h.nterms, h.strbytes, h.ndocs, h.nlist, &l) != 0 ||
	    l.size != h.size)
		return refuse("inconsistent header");
	if ((uint64_t)n != h.size)
		return refuse("%zu bytes, the header says %llu: truncated or "
			      "extended",
		    n, (unsigned long long)h.size);

	idx->base = p;
	idx->size = n;
	idx->version = h.version;
	idx->nterms = (size_t)h.nterms;
	idx->ndocs = (size_t)h.ndocs;
	idx->nlist = h.nlist;
	idx->termoff = (const uint32_t *)(const void *)(p + l.termoff);
	idx->str = (const char *)(p + l.str);
	idx->idf = (const float *)(const void *)(p + l.idf);
	idx->proj = (const float *)(const void *)(p + l.proj);
	idx->vecs = (const int8_t *)(p + l.vecs);
	idx->ids = (const int64_t *)(const void *)(p + l.ids);
	idx->slot = (const uint32_t *)(const void *)(p + l.slot);
	idx->row = (const uint32_t *)(const void *)(p + l.row);
	idx->scales = (const float *)(const void *)(p + l.scales);
	idx->cent = (const int8_t *)(p + l.cent);
	idx->cscales = (const float *)(const void *)(p + l.cscales);
	idx->lists = (const uint32_t *)(const void *)(p + l.lists);

	/*
	 * Lookups bsearch() the terms and the ids, so both must be strictly
	 * ascending, and every term a NUL-terminated string in str.
	 */
	if (idx->termoff[0] != 0 || idx->termoff[idx->nterms] != h.strbytes)
		return refuse("vocabulary offsets out of range");
	prev = NULL;
	for (i = 0; i < h.nterms; i++) {
		uint32_t a = idx->termoff[i], b = idx->termoff[i + 1];
		const char *t = idx->str + a;

		if (b <= a + 1 || b > h.strbytes || idx->str[b - 1] != '\0' ||
		    strlen(t) != (size_t)(b - a - 1))
			return refuse("vocabulary term %llu malformed",
			    (unsigned long long)i);
		if (prev != NULL && strcmp(prev, t) >= 0)
			return refuse("vocabulary not sorted at term %llu",
			    (unsigned long long)i);
		prev = t;
	}
	for (i = 1; i < h.ndocs; i++)
		if (idx->ids[i] <= idx->ids[i - 1])
			return refuse("paper ids not ascending at row %llu",
			    (unsigned long long)i);
	/*
	 * Queries index vecs and scales by slot[r] and ids by row[s]: each
	 * in range, and row[slot[r]] == r for every r makes slot one-to-one
	 * on 0..ndocs, so onto, so each vector is some paper's and row is
	 * its inverse.
	 */
	for (i = 0; i < h.ndocs; i++)
		if (idx->slot[i] >= h.ndocs || idx->row[idx->slot[i]] != i)
			return refuse("slot of row %llu out of range or not "
				      "one-to-one",
			    (unsigned long long)i);
	/*
	 * The lists cut the slots into consecutive runs, every slot in
	 * exactly one: offsets from 0 up to ndocs, never decreasing.
	 */
	if (h.nlist > 0 &&
	    (idx->lists[0] != 0 || idx->lists[h.nlist] != h.ndocs))
		return refuse("lists do not cover the papers");
	for (i = 0; i < h.nlist; i++)
		if (idx->lists[i + 1] < idx->lists[i])
			return refuse("list %llu ends before it starts",
			    (unsigned long long)i);
	return CORE_OK;
}

enum core_err
vec_open_mem(const void *p, size_t n, struct vec_index **ip)
{
	struct vec_index *idx;
	enum core_err er;

	*ip = NULL;
	idx = core_xcalloc(1, sizeof(*idx));
	if ((er = check(idx, p, n)) != CORE_OK) {
		free(idx);
		return er;
	}
	*ip = idx;
	return CORE_OK;
}

enum core_err
vec_open(const char *path, struct vec_index **ip)
{
	struct vec_index *idx = NULL;
	struct stat st;
	void *map = MAP_FAILED;
	enum core_err er;
	int fd;

	*ip = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		er = errno == ENOENT ? CORE_ENOTFOUND : CORE_ESYS;
		snprintf(why, sizeof(why), "%s", strerror(errno));
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", path, why);
		return er;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why), "not a regular file");
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", path, why);
		close(fd);
		return CORE_EINPUT;
	}
	if (st.st_size < (off_t)sizeof(struct vec_header)) {
		refuse("%lld bytes: shorter than a header",
		    (long long)st.st_size);
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", path, why);
		close(fd);
		return CORE_EINPUT;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map != MAP_FAILED) /* read ahead now, not on the first query */
		(void)madvise(map, (size_t)st.st_size, MADV_WILLNEED);
	close(fd); /* the mapping keeps the file */
	if (map == MAP_FAILED) {
		snprintf(why, sizeof(why), "mmap: %s", strerror(errno));
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", path, why);
		return CORE_ESYS;
	}
	idx = core_xcalloc(1, sizeof(*idx));
	if ((er = check(idx, map, (size_t)st.st_size)) != CORE_OK) {
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", path, why);
		munmap(map, (size_t)st.st_size);
		free(idx);
		return er;
	}
	idx->mapped = 1;
	*ip = idx;
	return CORE_OK;
}

void
vec_close(struct vec_index *idx)
{
	if (idx == NULL)
		return;
	if (idx->mapped)
		munmap((void *)(uintptr_t)idx->base, idx->size);
	free(idx);
}

uint64_t
vec_version(const struct vec_index *idx)
{
	return idx->version;
}

size_t
vec_count(const struct vec_index *idx)
{
	return idx->ndocs;
}

size_t
vec_nterms(const struct vec_index *idx)
{
	return idx->nterms;
}
