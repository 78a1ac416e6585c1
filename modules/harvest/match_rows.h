/*
 * match_rows.h -- the matcher's rows as its reader gives them
 * (match_db.c), shared with the evidence it keeps (match_evidence.c).
 */
#ifndef WEFT_HARVEST_MATCH_ROWS_H
#define WEFT_HARVEST_MATCH_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "harvest.h"

/* One authorship as the reader gives it, or one name form of a
 * researcher's kept evidence (evidence: paper_id 0, weight the
 * authorships of that form); its strings are in mrun's pool. */
struct mrow {
	const char *block, *raw_name, *name_key, *ext_id;
	char *coauth, *fields;      /* split in place */
	const char *reason, *score; /* as stored (score NULL when none) */
	const char *published;      /* the paper's date, NULL when unknown */
	const char **coauthors, **fieldv;
	size_t ncoauthors, nfields;
	int64_t paper_id, rid;
	long weight; /* authorships the row stands for */
	int position, rid_ext, rid_followed;
	long rid_key_len; /* characters of its researcher's name key */
	int settled;      /* the day's pass: decided, its researcher kept */
	int evidence;     /* a settled researcher's kept evidence (0064) */
	int ambiguous;    /* its block's harvest_match_ambiguous() */
};

/*
 * The evidence (0064) of the clusters of one decided block that the
 * match changed, as COPY rows of stage_match_evidence into out:
 * rows[0, n) and their items (cluster: their dense labels), cid[k]
 * cluster k's researcher.  A cluster that is one researcher's kept
 * evidence and nothing new is left as kept, one of fewer than min
 * authorships is not kept.  Returns the rows written.
 */
long harvest_match_evidence(struct core_buf *out, const struct mrow *rows,
    const struct harvest_mitem *it, size_t n, const int64_t *cid, long min);

#endif
