/*
 * internal.h -- libvectors inside: the tokeniser, the file layout, the
 * model learned by the offline step, and the weft-vectors commands.
 * One section per file.  Callers outside modules/vectors and its tests
 * include vectors.h only.
 */
#ifndef VECTORS_INTERNAL_H
#define VECTORS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "vectors.h"

/* ------------------------------------------------------------ token.c */

/* Longest token kept (longer words are LaTeX, URLs or chemistry). */
#define VEC_TOK_MAX 32

/* Receives one token, NUL-terminated and borrowed for the call. */
typedef void (*vec_tok_fn)(void *arg, const char *tok, size_t len);

/*
 * Splits s[0..n) into tokens and calls fn for each: code points are
 * NFKD-decomposed with marks stripped and case folded (utf8proc), so
 * "Schrödinger" gives "schrodinger"; a token is a run of ASCII letters
 * and digits; tokens of one character, of digits only, longer than
 * VEC_TOK_MAX, or English stop words are dropped; the rest are stemmed
 * (vec_stem).  Returns the number of tokens passed to fn.
 */
size_t vec_tokenize(const char *s, size_t n, vec_tok_fn fn, void *arg);
/* 1 if w[0..n) (lower case) is a stop word. */
int vec_stopword(const char *w, size_t n);
/*
 * Porter's (1980) stemmer on the lower-case word w[0..n), in place:
 * returns the new length (w is not NUL-terminated by it).  Words with a
 * digit are left alone.
 */
size_t vec_stem(char *w, size_t n);
/* qsort's order of term ids (uint32_t), ascending. */
int vec_cmpu32(const void *a, const void *b);

/* ------------------------------------------------------------- file.c */

/*
 * The file: a header, then sections each starting at a multiple of 64
 * bytes:
 *   termoff  uint32[nterms + 1]  offsets of the terms in str
 *   str      char[strbytes]      the terms, sorted (strcmp), each + NUL
 *   idf      float[nterms]
 *   proj     float[nterms * dims]   row t: term t's contribution
 *   vecs     int8[ndocs * dims]     the papers' vectors by slot: list 0's
 *                                   papers in id order, then list 1's,
 *                                   and so on (with no lists, id order)
 *   ids      int64[ndocs]           ascending: paper ids by row
 *   slot     uint32[ndocs]          slot[r]: where row r's vector is
 *   row      uint32[ndocs]          row[s]: whose vector slot s holds
 *                                   (slot and row are inverse
 *                                   permutations: checked)
 *   scales   float[ndocs]           by slot: cosine = dot * scale_a *
 *                                   scale_b
 *   cent     int8[nlist * dims]     the lists' centroids (unit vectors,
 *                                   quantised like papers)
 *   cscales  float[nlist]
 *   lists    uint32[nlist + 1]      list c holds slots lists[c] up to
 *                                   lists[c + 1]; 0, ..., ndocs (none
 *                                   when nlist is 0)
 * Format 3.  A "row" is a paper's rank by id (vec_row()); a "slot" the
 * place of its vector, so that a list is read front to back.  Integers
 * in the host's byte order (the endian field tells).
 */
#define VEC_MAGIC  "WEFTVEC\n"
#define VEC_ENDIAN 0x01020304u
/* The most lists a file may have. */
#define VEC_NLIST_MAX (1u << 20)

struct vec_header {
	char magic[8];
	uint32_t format;
	uint32_t dims;
	uint64_t version;
	uint64_t nterms;
	uint64_t strbytes;
	uint64_t ndocs;
	uint64_t size;  /* of the whole file */
	uint64_t built; /* unix time */
	uint32_t endian;
	uint32_t nlist; /* lists of the IVF, 0 for none */
	uint64_t check; /* FNV-1a 64 of the bytes above */
};

struct vec_layout {
	uint64_t termoff, str, idf, proj, vecs, ids, slot, row, scales, cent,
	    cscales, lists, size;
};

/* An open index: pointers into the checked bytes. */
struct vec_index {
	const unsigned char *base;
	size_t size;
	int mapped;
	uint64_t version;
	size_t nterms, ndocs, nlist;
	const uint32_t *termoff;
	const char *str;
	const float *idf, *proj, *scales, *cscales;
	const int8_t *vecs, *cent;
	const int64_t *ids;
	const uint32_t *slot, *row, *lists;
};

/* Section offsets for these counts; -1 when they overflow or exceed
 * the limits (2^32 terms, string bytes or papers, VEC_NLIST_MAX lists,
 * more lists than papers). */
int vec_layout(uint64_t nterms, uint64_t strbytes, uint64_t ndocs,
    uint64_t nlist, struct vec_layout *l);
/* FNV-1a 64 of p[0..n). */
uint64_t vec_fnv(const void *p, size_t n);

/* ------------------------------------------------------------ query.c */

/*
 * The embedding of papers and queries alike (vec_embed() is this on an
 * index): text -> *q.  Exposed so that the build uses the very code
 * queries use.  Returns CORE_ENOTFOUND when no token is known.
 */
/*
 * Cosine scores of q against every paper, into scores[0..vec_count()).
 * The eval's hybrid needs all of them.
 */
void vec_scan_all(const struct vec_index *, const struct vec_query *q,
    float *scores);
/*
 * vec_search() with the number of lists read given: 0 (or an index
 * without lists) is the exact brute force over every vector; otherwise
 * q is scored against the nlist centroids and every paper of the
 * nprobe best lists (all of them when nprobe >= nlist) is scored, the
 * best k of those kept.  Scores of the hits are exact either way; only which papers
 * make the top k can differ (recall: weft-vectors bench).  Ties are
 * broken by paper id (the smaller first), whatever the order the
 * vectors are read in.  CORE_EINPUT when k is 0.
 */
enum core_err vec_search_probe(const struct vec_index *,
    const struct vec_query *q, size_t k, int64_t exclude_id, size_t nprobe,
    struct vec_hit *hits, size_t *n);
/*
 * The lists vec_search() reads for the top k: VEC_NPROBE_MIN + k /
 * VEC_NPROBE_PER (32 for the 16 "similar papers" asks, 216 for search's
 * 200), or 0 (the exact scan) for an index without lists or when that
 * is all of them.  Measured with weft-vectors bench (README): recall@16
 * of a paper's neighbours 0.98-0.99 on real vectors, recall@200 of
 * text queries 0.98-0.99 (a quarter as many lists gave 0.92-0.93); the
 * time grows as the lists' length, about sqrt(N) / 2 papers each.
 */
#define VEC_NPROBE_MIN 16
#define VEC_NPROBE_PER 1
size_t vec_nprobe(const struct vec_index *, size_t k);
/* dot(q, docs[i]) for n consecutive vectors of VEC_DIMS bytes, into
 * out[0..n): the scan's kernel (AVX-512 VNNI, AVX2 or plain C, chosen
 * at run time), for the k-means of the build too. */
void vec_dots(const int8_t *q, const int8_t *docs, size_t n, int32_t *out);
/* x (VEC_DIMS floats) normalised and quantised into q->v and q->scale
 * (q->known untouched); CORE_ENOTFOUND when x is 0 or not finite. */
enum core_err vec_quantize(const float *x, struct vec_query *q);
/*
 * Adds text's tokens to *tokens and those the index's vocabulary does
 * not hold to *unknown: how well the model still fits new papers (an
 * incremental build compares the share with the one at the fit).
 */
void vec_text_unknown(const struct vec_index *, const char *text,
    size_t *tokens, size_t *unknown);
/* The row of paper_id, or -1. */
int64_t vec_row(const struct vec_index *, int64_t paper_id);
/* The stored vector and scale of row r (the r-th paper by id), as a
 * query. */
void vec_row_query(const struct vec_index *, size_t r, struct vec_query *q);
/* The paper id of row r. */
int64_t vec_row_id(const struct vec_index *, size_t r);

/* -------------------------------------------------------------- ivf.c */

/*
 * Indexes of up to VEC_IVF_MIN papers have no lists: the exact scan
 * (about 15 ns a paper) is cheap there and its results are exact.
 * Above, about VEC_IVF_C * sqrt(n) lists.
 */
#define VEC_IVF_MIN 20000
#define VEC_IVF_C   2.0
/* The number of lists for an index of n papers: 0 up to VEC_IVF_MIN. */
size_t vec_ivf_nlist(size_t n);
/*
 * Learns nlist centroids (cent: nlist x VEC_DIMS, cscales: nlist) for
 * the n rows vecs (VEC_DIMS bytes each, row i's cosine scale
 * scales[i]): a spherical k-means on a sample of up to 64 rows a list,
 * seeded by seed (the same input gives the same lists).  Then puts
 * every row in the list of its nearest centroid, list[i], as a query
 * would rank them.  Returns the mean cosine of a row and its
 * centroid (how tight the lists are).  Two threads; nothing kept.
 */
double vec_ivf_train(const int8_t *vecs, const float *scales, size_t n,
    size_t nlist, uint64_t seed, int8_t *cent, float *cscales, uint32_t *list);
/*
 * The list of one vector v (VEC_DIMS bytes) among nlist centroids: the
 * one vec_ivf_train() would put it in, scored and tie-broken alike (an
 * incremental build adds papers with it).  *score, when not NULL, gets
 * the centroid's score (times v's scale: the cosine).  0 when nlist is
 * 0.
 */
uint32_t vec_ivf_nearest(const int8_t *v, const int8_t *cent,
    const float *cscales, size_t nlist, float *score);

/* ------------------------------------------------------------ model.c */

/* A vocabulary being built: interned terms with their document counts. */
struct vec_vocab;

struct vec_vocab *vec_vocab_new(void);
void vec_vocab_free(struct vec_vocab *);
/* The id of term t[0..n), added when new (ids are dense from 0). */
uint32_t vec_vocab_add(struct vec_vocab *, const char *t, size_t n);
/* The id of t[0..n), or -1. */
int64_t vec_vocab_find(const struct vec_vocab *, const char *t, size_t n);
size_t vec_vocab_size(const struct vec_vocab *);
/* The text of term id (borrowed until vec_vocab_free). */
const char *vec_vocab_term(const struct vec_vocab *, uint32_t id);

/* A sparse matrix in compressed rows. */
struct vec_csr {
	size_t rows, cols, nnz, cap, rowcap;
	size_t *ptr; /* rows + 1 */
	uint32_t *col;
	float *val;
};
void vec_csr_free(struct vec_csr *);

/*
 * A bag of documents turned into term counts: the fitting sample.
 * vec_trainer_add() tokenises text into a new row (counts as values).
 */
struct vec_trainer {
	FILE *text;        /* when set, each paper's tokens, one paper a line */
	const char *label; /* set before vec_trainer_add(): the paper's
			    * category for the word vectors, or NULL */
	struct vec_vocab *vocab;
	struct vec_csr counts;
	uint32_t *df; /* per vocabulary id */
	size_t dfcap;
};

void vec_trainer_init(struct vec_trainer *);
void vec_trainer_add(struct vec_trainer *, const char *text);
void vec_trainer_free(struct vec_trainer *);

struct vec_wordvecs;

struct vec_fit_opts {
	const struct vec_wordvecs *wv; /* word vectors to blend in, or NULL */
	double wv_share;  /* their part of a paper's vector (VEC_WV_SHARE) */
	size_t max_terms; /* the most frequent terms kept (131072) */
	unsigned min_df;  /* terms in fewer papers are dropped (2) */
	unsigned oversample, power_iters; /* randomized SVD (24, 3) */
	double beta; /* projection = V_k * sigma^-beta (0) */
	uint64_t seed;
	int quiet;
};
void vec_fit_defaults(struct vec_fit_opts *);

/* The model: sorted terms, idf, projection (nterms x VEC_DIMS). */
struct vec_model {
	size_t nterms;
	char **terms;
	float *idf;
	float *proj;
	float sigma[VEC_DIMS];
	size_t wv_dims;  /* the last dimensions hold word vectors (or 0) */
	double wv_share; /* their part of an average paper's vector */
};
void vec_model_free(struct vec_model *);

/*
 * Fits the model on the trainer's documents: vocabulary pruning, TF-IDF
 * ((1 + ln tf) * ln(N / df), rows of unit length), randomized truncated
 * SVD.  CORE_EINPUT (logged) when there are too few documents or terms
 * for VEC_DIMS dimensions.  Caller frees *m with vec_model_free().
 */
enum core_err vec_fit(struct vec_trainer *, const struct vec_fit_opts *,
    struct vec_model *m);

/* --------------------------------------------------------- wordvec.c */

/*
 * Word vectors: the Debian `fasttext supervised` on the fitting sample's
 * tokens, labelled with each paper's primary category (the trainer
 * writes them, one paper a line), read back from its .vec text: a line
 * "WORDS DIMS", then per word the word and DIMS numbers.  Its last VEC_WV_DIMS dimensions replace the SVD's weakest
 * ones; each paper is then the idf-weighted sum of its words' vectors
 * there, less the direction all texts share.
 */
#define VEC_WV_DIMS      64
#define VEC_WV_SHARE     0.3
#define VEC_WV_MAX_WORDS 10000000
#define VEC_WV_MAX_DIM   1024

struct vec_wordvecs {
	size_t n, dim;
	char **words;
	float *v; /* n x dim */
};

/*
 * Parses .vec text p[0..n) (no NUL needed).  CORE_EINPUT for anything
 * else than the format above (counts out of range, a line short of or
 * beyond DIMS numbers, a non-finite number, more or fewer lines than
 * the header says): vec_wv_why() tells which.  Caller frees *wv.
 */
enum core_err vec_wv_parse(const char *p, size_t n, struct vec_wordvecs *wv);
const char *vec_wv_why(void);
/* Reads and parses a .vec file (errors logged). */
enum core_err vec_wv_load(const char *path, struct vec_wordvecs *wv);
void vec_wv_free(struct vec_wordvecs *);
/* 1 if the fasttext command is on PATH. */
int vec_wv_available(void);
/* Config key vectors_wordvecs: on, off, or auto (the default: on when
 * fasttext is on PATH, logged when not). */
int vec_wordvecs_wanted(const struct core_conf *);
/*
 * Runs fasttext supervised (dim dimensions, 5 epochs, no subwords, 2
 * threads) on corpus, writing prefix.bin and prefix.vec, and loads the
 * .vec.  CORE_ESYS when it cannot run or fails.
 */
enum core_err vec_wv_train(const char *corpus, const char *prefix, size_t dim,
    struct vec_wordvecs *wv);
/*
 * Puts wv into the last wv->dim columns of m->proj, scaled so that on
 * the fitting rows a (TF-IDF, unit rows) they carry share of the
 * squared length.  Nothing when the sizes do not fit.
 */
void vec_wv_blend(struct vec_model *m, const struct vec_wordvecs *wv,
    const struct vec_csr *a, double share);
/*
 * Around the trainer's pass over the papers: vec_wv_begin() makes a
 * temporary directory (*dir) and points t->text at a file in it;
 * vec_wv_end() closes it, trains, loads *wv and removes the directory
 * (and frees dir) whatever happened.
 */
enum core_err vec_wv_begin(struct vec_trainer *t, char **dir);
enum core_err vec_wv_end(struct vec_trainer *t, char *dir,
    struct vec_wordvecs *wv);

/* ------------------------------------------------------------- svd.c */

/*
 * The top k right singular vectors of the m x n sparse matrix a by a
 * randomized SVD (Halko, Martinsson, Tropp 2011: oversampling p, q power
 * iterations, each re-orthonormalised by a QR).  v gets n x k (row
 * major), sigma k values.  CORE_EINPUT when k + p > min(m, n);
 * CORE_ESYS when LAPACK fails (both logged).
 */
enum core_err vec_svd(const struct vec_csr *a, size_t k, size_t p, unsigned q,
    uint64_t seed, float *v, float *sigma);
/* A small deterministic PRNG (splitmix64) for samples and sketches. */
uint64_t vec_rand(uint64_t *state);
/* A standard normal deviate (Box-Muller) from vec_rand(). */
double vec_gauss(uint64_t *state);

/* ------------------------------------------------------------ write.c */

/*
 * Writes an index: the model, then papers one by one in ascending id
 * order, then the trailer.  To a file descriptor (positioned at 0,
 * open for reading too: the rows are read back from it) or, with fd
 * -1, to mem.
 */
struct vec_writer;

struct vec_writer *vec_writer_new(int fd, struct core_buf *mem,
    const struct vec_model *m, uint64_t version);
/*
 * A writer of a new version of idx: its model and lists as they are
 * (idx must stay open until vec_writer_finish()), every paper added
 * going to the list of its nearest centroid (the old papers' lists
 * therefore stay theirs).  vec_writer_lists() is ignored.
 */
struct vec_writer *vec_writer_reuse(int fd, struct core_buf *mem,
    const struct vec_index *idx, uint64_t version);
/* Appends paper id (ascending) with its vector q. */
void vec_writer_add(struct vec_writer *, int64_t id, const struct vec_query *q);
/* vec_writer_add() into a given list of a vec_writer_reuse() writer
 * (the one an old paper had: not computed again); VEC_LIST_NEAREST
 * computes it. */
#define VEC_LIST_NEAREST UINT32_MAX
void vec_writer_add_in(struct vec_writer *, int64_t id,
    const struct vec_query *q, uint32_t list);
/* The number of lists to learn at vec_writer_finish() (at most one a
 * paper), instead of vec_ivf_nlist() of the papers: tests, bench. */
void vec_writer_lists(struct vec_writer *, size_t nlist);
/*
 * Learns the lists (ivf.c; logged with their time), puts the vectors
 * in list order, writes ids, slots, scales, centroids and the header;
 * frees w.  CORE_EINPUT when ids were not ascending, CORE_ESYS when a
 * write or the mapping of the file failed (logged).
 */
enum core_err vec_writer_finish(struct vec_writer *w, size_t *ndocs);
/* Frees w after a failure elsewhere. */
void vec_writer_abort(struct vec_writer *w);

/*
 * The model alone as an index of no papers, in mem (which then must
 * outlive the index): to embed papers with vec_embed().
 */
enum core_err vec_model_index(const struct vec_model *, struct core_buf *mem,
    struct vec_index **ip);

/* ------------------------------------------------------------ store.c */

struct vec_paper {
	int64_t id;
	const char *title, *abstract, *primary; /* borrowed for the call */
};
typedef enum core_err (*vec_paper_fn)(void *arg, const struct vec_paper *);

/*
 * Connects with config key "db" and prepares the statements: with
 * readonly only those reading papers (eval), else all of them, which
 * needs the table vector_index.  Caller closes *dbp with core_db_close()
 * (also after an error).
 */
enum core_err vec_store_open(const struct core_conf *, int readonly,
    struct core_db **dbp);
/* Calls fn for every paper in id order, fetched 2,000 at a time. */
enum core_err vec_store_each(struct core_db *, vec_paper_fn fn, void *arg);
/* Calls fn for the papers of ids[0..n) (ascending) still there, in id
 * order, 2,000 a round trip. */
enum core_err vec_store_some(struct core_db *, const int64_t *ids, size_t n,
    vec_paper_fn fn, void *arg);
/* Receives one paper id, whether it was written since the time
 * vec_store_ids() was given, and whether less than ten minutes before
 * it (sql/queries/vectors.sql, CHANGED, says why that matters). */
typedef enum core_err (
    *vec_id_fn)(void *arg, int64_t id, int changed, int recent);
/* Calls fn for every paper id in ascending order; since: a timestamptz
 * as text. */
enum core_err vec_store_ids(struct core_db *, const char *since, vec_id_fn fn,
    void *arg);
/* count(*), and a fingerprint of the papers' state (count, max id,
 * max modified_at); fp is caller's, 128 bytes; modified gets max
 * modified_at alone ("" without papers), the next incremental build's
 * watermark. */
enum core_err vec_store_state(struct core_db *, size_t *count, char *fp,
    size_t fpsz, char *modified, size_t msz);

/* --------------------------------------------------------- progress.c */

/* A progress line on stderr when it is a terminal: done/total, rate,
 * ETA, redrawn at most 5 times a second. */
struct vec_progress {
	const char *what;
	size_t done, total;
	double t0, last;
	int tty;
};
void vec_progress_start(struct vec_progress *, const char *what, size_t total);
void vec_progress_tick(struct vec_progress *, size_t done);
void vec_progress_end(struct vec_progress *);
double vec_now(void);
/*
 * Seconds of CPU used by the calling thread (thread 1) or by the whole
 * process (0; all its threads), 0 when the clock cannot be read: unlike
 * vec_now(), not counting the time other processes had the core.
 */
double vec_cpu_now(int thread);

/* ------------------------------------------- build.c, eval.c, bench.c */

/* Exit codes of weft-vectors. */
enum vec_exit {
	VEC_EXIT_OK = 0,
	VEC_EXIT_FAIL = 1,
	VEC_EXIT_USAGE = 2,
	VEC_EXIT__MAX
};

/* How many times a paper's title is counted against its abstract. */
#define VEC_TITLE_REPEAT 2
/* The text a paper is embedded from: title(s), then abstract. */
void vec_doc_text(struct core_buf *b, const char *title, const char *abstract);

struct vec_build_opts {
	size_t sample;   /* fit on at most this many papers (200,000) */
	int force;       /* a full fit even when the papers did not change */
	const char *dir; /* overrides the config's vectors_dir */
	int reuse_model; /* every paper projected with the current model */
};
int vec_build(const struct core_conf *, const struct vec_build_opts *);

/* ----------------------------------------------------------- update.c */

/*
 * An incremental build keeps the current file's model (vocabulary, idf,
 * projection, lists) and projects only the papers new or written since
 * it.  A full fit instead when, since the last fit, more than
 * VEC_INC_MAX_SHARE of the papers were added, changed or removed (the
 * model and the lists describe the corpus of then), or when the new
 * papers' tokens are unknown to the vocabulary more often than at the
 * fit by over VEC_INC_UNKNOWN_RISE (a field or a word the model never
 * saw: measured on at least VEC_INC_MIN_TOKENS tokens), or when an
 * index without lists grows past VEC_IVF_MIN papers.
 */
#define VEC_INC_MAX_SHARE    0.20
#define VEC_INC_UNKNOWN_RISE 0.05
#define VEC_INC_MIN_TOKENS   2000

/* What the decision looks at. */
struct vec_drift {
	size_t papers;      /* in the new index (about: the papers now) */
	size_t changed;     /* added, changed or removed by this build */
	size_t since_fit;   /* the same, by the builds since the fit */
	size_t nlist;       /* the current file's lists */
	size_t tokens;      /* of the papers added or written since */
	size_t unknown;     /* of those, not in the vocabulary */
	double fit_unknown; /* the share at the fit */
};

/*
 * 1 when a full fit is due, its reason into why[0..n); 0 when the
 * model still serves.  Rules applicable without tokens (tokens 0) are
 * checked alone, before anything is projected.
 */
int vec_refit_why(const struct vec_drift *, char *why, size_t n);

/* The newest row of vector_index. */
struct vec_prev {
	uint64_t version;
	char *path, *fp;
	int has_fit; /* the columns of 0041 are set */
	uint64_t fit_version;
	size_t since_fit;
	double fit_unknown;
	char *modified_to;
};

/* An incremental build in progress (update.c). */
struct vec_inc;

/*
 * Reads every paper id, projects those new or written since prev's
 * watermark with old's model and decides; on 0 *ip holds the plan for
 * vec_inc_write(), on 1 a full fit is due (reason in why), -1 failed
 * (logged).  Either way the caller frees *ip with vec_inc_free().
 */
int vec_inc_plan(struct core_db *, const struct vec_index *old,
    const struct vec_prev *prev, struct vec_inc **ip, char *why, size_t n);
/* The list holding slot s of an index with lists (the lists cut the
 * slots in runs; empty ones too). */
uint32_t vec_list_of(const struct vec_index *, uint32_t s);
/* Adds every paper to w (a vec_writer_reuse() of old): the old vectors
 * of those unchanged, in their lists, and the new ones. */
void vec_inc_write(struct vec_inc *, struct vec_writer *w);
/* What an incremental build did. */
struct vec_inc_counts {
	size_t added, modified, removed; /* the changes */
	size_t projected; /* added, modified, and those in the margin */
	double unknown;   /* share of their tokens unknown to the model */
};
void vec_inc_counts(const struct vec_inc *, struct vec_inc_counts *);
void vec_inc_free(struct vec_inc *);

struct vec_eval_opts {
	size_t queries;  /* sample size (1,000) */
	uint64_t seed;   /* of the test sample; the tuning sample uses seed+1 */
	double beta;     /* <= -10: the default */
	int wordvecs;    /* blend in fasttext word vectors */
	double wv_share; /* their share (<= 0: VEC_WV_SHARE) */
};
int vec_eval(const struct core_conf *, const struct vec_eval_opts *);

struct vec_bench_opts {
	size_t papers;     /* 2,500,000; 0: file's own papers */
	size_t queries;    /* per thread (200) */
	unsigned threads;  /* concurrent queries (2) */
	size_t k;          /* of text queries (200) */
	const char *file;  /* an index whose papers the synthetic ones
			   * resemble, or NULL (random topics) */
	size_t nlist;      /* SIZE_MAX: vec_ivf_nlist() of the papers */
	const char *texts; /* query texts, one a line, or NULL: six
			    * random words of the vocabulary each */
};
int vec_bench(const struct vec_bench_opts *);

#endif /* VECTORS_INTERNAL_H */
