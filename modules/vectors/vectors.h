/*
 * vectors.h -- libvectors, the query side of weft's own semantic index:
 * what pages.so (search, "similar papers") links.  The offline side
 * (weft-vectors build/eval/bench) is in internal.h.
 *
 * One file holds everything a query needs: the model (vocabulary, idf,
 * the 256-column projection learned by a truncated SVD of the TF-IDF
 * matrix), one unit vector per paper, 8-bit quantised, and above
 * 20,000 papers an inverted file (IVF): about 2 sqrt(N) centroids
 * learned by k-means, each paper's vector stored in the list of its
 * nearest, so that a query reads a few lists instead of every vector.
 * A worker maps it read-only with vec_open(); the pages are
 * shared by every worker of the pool and stay valid until vec_close(),
 * even when a newer build renames another file over the path.
 *
 * The code here uses no BLAS and allocates little per query (the
 * embedding's token ids, the lists to read), so linking libvectors.a
 * into a plugin costs only libutf8proc (already linked by core).  Linking: only the objects
 * of query.c, file.c and token.c are pulled in by these functions.
 *
 * Which file is current: the newest row of the table vector_index
 * (sql/schema/0004_vectors.sql):
 *
 *	SELECT version, path FROM vector_index
 *	 ORDER BY version DESC LIMIT 1;
 *
 * A worker checks that row now and then (say every 60 s, or when the
 * page cache generation moves); when version differs from
 * vec_version() it opens the new path and closes the old index.  No
 * row, or a file that will not open, means: no semantic ranking, serve
 * lexical results (and log it once), never a 5xx.
 *
 * Usage, for search:
 *
 *	struct vec_query q;
 *	struct vec_hit hits[200];
 *	size_t n;
 *
 *	switch (vec_embed(idx, text, &q)) {
 *	case CORE_OK:		// candidates by vector similarity
 *		vec_search(idx, &q, 200, -1, hits, &n);
 *		// ... and for the lexical candidates:
 *		// vec_score(idx, &q, paper_id, &sim)
 *		break;
 *	case CORE_ENOTFOUND:	// no term of text is known: lexical only
 *		break;
 *	}
 *
 * and for "similar papers": vec_similar(idx, paper_id, 10, hits, &n).
 * Scores are cosine similarities in [-1, 1] (quantisation error about
 * 0.01), comparable between the two calls.
 */
#ifndef VECTORS_H
#define VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Dimensions of every vector; a file with another value is refused. */
#define VEC_DIMS 256
/* The file format; bumped whenever the layout or the tokeniser changes. */
#define VEC_FORMAT 3

struct vec_index; /* opaque: one mapped file */

/* One result: a paper and its cosine similarity to the query. */
struct vec_hit {
	int64_t paper_id;
	float score;
};

/* A query vector, quantised like the papers' (fills no heap memory). */
struct vec_query {
	int8_t v[VEC_DIMS];
	float scale;  /* cosine = dot(v, paper) * scale * paper scale */
	size_t known; /* how many of the query's tokens the model knows */
};

/*
 * Maps the index file at path and checks it: magic, format, dimensions,
 * a header checksum, every section inside the file, the vocabulary
 * sorted and NUL-terminated, paper ids ascending, every paper's vector
 * in one place and every place one paper's, the lists cutting them into
 * consecutive runs.  On CORE_OK *ip is set
 * and the caller frees it with vec_close().  Otherwise *ip is NULL and
 * the result is CORE_ENOTFOUND (no such file), CORE_EINPUT (not an
 * index, another format, truncated or corrupt) or CORE_ESYS (mmap
 * failed); all logged with the path and the reason.
 */
enum core_err vec_open(const char *path, struct vec_index **ip);
/*
 * The same checks on a buffer already in memory (tests, fuzzing, eval).
 * p is borrowed: it must stay valid and unchanged until vec_close().
 * Errors are not logged (the fuzzer calls this millions of times);
 * vec_open_why() gives the reason for the last refusal.
 */
enum core_err vec_open_mem(const void *p, size_t n, struct vec_index **ip);
/* The reason the last vec_open*() of this process failed ("" if none);
 * static storage. */
const char *vec_open_why(void);
void vec_close(struct vec_index *);

/* The build's version (vector_index.version), its paper count, and
 * the number of terms of its vocabulary. */
uint64_t vec_version(const struct vec_index *);
size_t vec_count(const struct vec_index *);
size_t vec_nterms(const struct vec_index *);

/*
 * Turns text (any UTF-8; invalid bytes separate words) into a query
 * vector with the index's model: tokenised like the papers, TF-IDF
 * weighted, projected, normalised and quantised.  CORE_OK with *q set;
 * CORE_ENOTFOUND when no token of text is in the vocabulary (or text
 * is empty): the caller says so and falls back to lexical search.
 */
enum core_err vec_embed(const struct vec_index *, const char *text,
    struct vec_query *q);

/*
 * The k papers most similar to q, best first (equal scores: the smaller
 * paper id first), into hits[0..k) (caller's array of at least k); *n
 * gets how many were written (fewer when the index holds fewer papers).
 * exclude_id (-1: none) is left out, so "similar papers" does not list
 * the paper itself.  An index without lists (up to 20,000 papers) is
 * read whole: the exact top k (about 15 ns a paper on one core).  With
 * lists, q is scored against their centroids and only the papers of
 * the best few lists are read (more for a larger k): one of the exact
 * top k is missed now and then (recall against the brute force:
 * weft-vectors bench).  The scores returned are exact.  CORE_EINPUT
 * when k is 0.
 */
enum core_err vec_search(const struct vec_index *, const struct vec_query *q,
    size_t k, int64_t exclude_id, struct vec_hit *hits, size_t *n);

/*
 * vec_embed() then vec_search(): the papers nearest to a text.  Same
 * errors as those two (CORE_ENOTFOUND: no known term).
 */
enum core_err vec_query_text(const struct vec_index *, const char *text,
    size_t k, struct vec_hit *hits, size_t *n);

/*
 * The k papers nearest to paper_id, without itself.  CORE_ENOTFOUND
 * when the paper is not in the index (added since the build: the page
 * then shows no similar papers until the next build).
 */
enum core_err vec_similar(const struct vec_index *, int64_t paper_id, size_t k,
    struct vec_hit *hits, size_t *n);

/*
 * The cosine similarity of q and one paper (the hybrid ranking scores
 * its lexical candidates with this; its weight is pages.h's
 * PAGES_SEARCH_W).  CORE_ENOTFOUND when the paper is
 * not in the index; *score is then 0.
 */
enum core_err vec_score(const struct vec_index *, const struct vec_query *q,
    int64_t paper_id, float *score);

/* The longest stem vec_word() writes, with its NUL. */
#define VEC_WORD_MAX 33

/*
 * One word as the model sees it (weft-harvest analyse weighs key phrases
 * with it): w[0..n) tokenised like the papers' text, its first token's
 * stem into stem (VEC_WORD_MAX bytes, NUL-terminated) and its idf into
 * *idf (0 when the vocabulary does not hold it).  CORE_ENOTFOUND when w
 * gives no token (a stop word, one letter, digits only); *idf is then 0.
 */
enum core_err vec_word(const struct vec_index *, const char *w, size_t n,
    char stem[VEC_WORD_MAX], float *idf);

#endif /* VECTORS_H */
