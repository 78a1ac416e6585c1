/*
 * vindex.h -- the pages worker's current semantic index (libvectors,
 * modules/vectors/vectors.h): which file is current, opened and closed
 * as weft-vectors build records new ones.  Search and "similar papers"
 * call pages_vectors(); NULL means "no semantic ranking now": they serve
 * lexical results (never a 5xx).
 */
#ifndef PAGES_VINDEX_H
#define PAGES_VINDEX_H

#include <stdint.h>
#include <time.h>

#include "vectors.h"

struct core_ctx;

/* Seconds between two reads of the newest vector_index row, and
 * between two reads of the page cache generation (a moved generation
 * triggers a read of the row at once). */
#define PAGES_VINDEX_CHECK_S 60
#define PAGES_VINDEX_GEN_S   2

/*
 * Binds the worker's context (borrowed for the life of the worker:
 * its db and redis) and clears the state; pages_vindex_fini() closes
 * the index.  Called from the module's init and fini.
 */
void pages_vindex_init(struct core_ctx *);
void pages_vindex_fini(void);
/*
 * The same for another module's worker (chat links this file): stmt is
 * its own statement reading the newest row, with pages.sql's
 * VECTOR_INDEX_LATEST columns (version, path) in that order.
 */
void pages_vindex_init_stmt(struct core_ctx *, int stmt);

/*
 * This worker's current semantic index, or NULL: no row, a missing,
 * corrupt or stale file (logged once per version and path), or no
 * pages_vindex_init().  Re-reads the row at most every
 * PAGES_VINDEX_CHECK_S seconds, or when the page cache generation
 * moved; a new row opens the new file and closes the old.  Borrowed
 * until the next call.
 */
const struct vec_index *pages_vectors(void);

/* ---- the pure parts, for the unit tests ---- */

/* What the worker knows: the row it last acted on and its outcome. */
struct pages_vindex_seen {
	uint64_t version; /* 0: none yet */
	const char *path; /* NULL: none yet */
	int open;         /* 1: that file is open now */
};

enum pages_vindex_act {
	PAGES_VINDEX_KEEP, /* nothing to do */
	PAGES_VINDEX_OPEN, /* open the row's file (closing any other) */
	PAGES_VINDEX_DROP, /* close the index: no row any more */
	PAGES_VINDEX_ACT__MAX
};

/*
 * 1 when the row must be read again: never read, checked at least
 * PAGES_VINDEX_CHECK_S seconds before now, or the generation gen
 * differs from seen_gen (gen -1: unknown, Redis down).
 */
int pages_vindex_due(time_t now, time_t checked, long long gen,
    long long seen_gen);

/*
 * What to do given the newest row (have_row 0: the table is empty;
 * otherwise its version and path) and what was seen: OPEN when the row
 * differs from the open file, or when it names the file that failed
 * last time (a retry: it may have been restored); DROP when there is no
 * row but something was seen; KEEP otherwise.
 */
enum pages_vindex_act pages_vindex_plan(int have_row, uint64_t version,
    const char *path, const struct pages_vindex_seen *);

#endif /* PAGES_VINDEX_H */
