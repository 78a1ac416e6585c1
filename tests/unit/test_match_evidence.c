/*
 * test_match_evidence.c -- the evidence the day's match keeps of a
 * researcher (0064, match_evidence.c): which clusters of a decided block
 * are written, and their COPY rows: name forms newest first with counts,
 * raw names and dates as PostgreSQL array literals (quotes, backslashes,
 * commas and braces in a raw name), co-authors and fields as sets.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harvest.h"
#include "match_rows.h"
#include "t.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Row r: an authorship (weight 1) of researcher rid, or with evidence
 * set, a kept name form of weight w. */
static void
row(struct mrow *r, const char *key, const char *raw, const char *date,
    const char **co, size_t nco, const char **f, size_t nf)
{
	memset(r, 0, sizeof(*r));
	r->block = "j smith";
	r->name_key = key;
	r->raw_name = raw;
	r->published = date;
	r->reason = "";
	r->coauthors = co;
	r->ncoauthors = nco;
	r->fieldv = f;
	r->nfields = nf;
	r->weight = 1;
}

static void
kept(struct mrow *r, int64_t rid, long w, const char *ext)
{
	r->settled = 1;
	r->evidence = 1;
	r->rid = rid;
	r->weight = w;
	r->reason = ext != NULL ? ext : "";
}

/* The rows written for n rows in clusters k[], researchers cid[]. */
static long
run(struct core_buf *out, struct mrow *rows, size_t n, const size_t *k,
    const enum harvest_mreason *why, const int64_t *cid, long min)
{
	struct harvest_mitem it[8];
	size_t i;

	memset(it, 0, sizeof(it));
	for (i = 0; i < n; i++) {
		it[i].cluster = k[i];
		it[i].reason = why != NULL ? why[i] : HARVEST_MR_COAUTHORS;
		it[i].settled = rows[i].settled;
	}
	core_buf_reset(out);
	return harvest_match_evidence(out, rows, it, n, cid, min);
}

int
main(void)
{
	static const char *coa[] = { "alice jones" }, *cob[] = { "bob brown" },
			  *f1[] = { "cs.SE" }, *f2[] = { "cs.SE", "cs.LG" },
			  *none[] = { "" };
	struct core_buf out = CORE_BUF_INIT;
	struct mrow rows[4];
	const char *s;
	long n;

	/* Two new authorships of one person, two forms; a raw name with
	 * every character an array literal or COPY must escape. */
	row(&rows[0], "john smith", "John \"Jo\" Smith, {x}", "2026-03-02", coa,
	    N(coa), f1, N(f1));
	row(&rows[1], "j smith", "J. \\Smith", NULL, cob, N(cob), f2, N(f2));
	n = run(&out, rows, 2, (const size_t[]){ 0, 0 },
	    (const enum harvest_mreason[]){ HARVEST_MR_ORCID,
		HARVEST_MR_COAUTHORS },
	    (const int64_t[]){ 7 }, 1);
	s = core_buf_cstr(&out);
	T_EQ(n, 1, "one cluster, one row");
	T_OK(strncmp(s,
		 "7\tj smith\t{\"john smith\",\"j smith\"}\t"
		 "{\"John \\\\\"Jo\\\\\" Smith, {x}\",\"J. \\\\\\\\Smith\"}\t"
		 "{1,1}\t{\"2026-03-02\",NULL}\t",
		 strlen(
		     "7\tj smith\t{\"john smith\",\"j smith\"}\t"
		     "{\"John \\\\\"Jo\\\\\" Smith, {x}\",\"J. \\\\\\\\Smith\"}"
		     "\t{1,1}\t{\"2026-03-02\",NULL}\t")) == 0,
	    "forms newest first, raw names escaped, counts, dates");
	T_CONTAINS(s, "alice jones", "the co-authors of both");
	T_CONTAINS(s, "bob brown", "the co-authors of both");
	T_CONTAINS(s, "cs.LG", "the fields of both");
	T_OK(strstr(s, "cs.SE|cs.SE") == NULL, "a field once");
	T_OK(strlen(s) > 7 && strcmp(s + strlen(s) - 7, "\torcid\n") == 0,
	    "the external id's reason, newest first");

	/* One researcher's kept evidence, nothing new: left as kept. */
	row(&rows[0], "john smith", "John Smith", "2026-01-01", coa, N(coa), f1,
	    N(f1));
	kept(&rows[0], 7, 5, NULL);
	n = run(&out, rows, 1, (const size_t[]){ 0 }, NULL,
	    (const int64_t[]){ 7 }, 4);
	T_EQ(n, 0, "unchanged evidence is not written again");
	T_EQ(out.len, 0, "nothing staged");

	/* The same researcher kept by another id (it moves): written. */
	n = run(&out, rows, 1, (const size_t[]){ 0 }, NULL,
	    (const int64_t[]){ 8 }, 4);
	T_EQ(n, 1, "evidence that moves is written for its new researcher");
	T_STREQ(core_buf_cstr(&out),
	    "8\tj smith\t{\"john smith\"}\t{\"John Smith\"}\t{5}\t"
	    "{\"2026-01-01\"}\talice jones\tcs.SE\t\\N\n",
	    "as kept, under its new researcher");

	/* Two new authorships alone, below the minimum: not kept. */
	row(&rows[0], "john smith", "John Smith", "2026-01-01", coa, N(coa), f1,
	    N(f1));
	row(&rows[1], "john smith", "John Smith", "2025-01-01", cob, N(cob), f1,
	    N(f1));
	n = run(&out, rows, 2, (const size_t[]){ 0, 0 }, NULL,
	    (const int64_t[]){ 7 }, 4);
	T_EQ(n, 0, "a researcher of fewer than the minimum is not kept");

	/* Below the minimum, but its row is kept already: rewritten, or it
	 * would be stale. */
	kept(&rows[1], 7, 1, NULL);
	n = run(&out, rows, 2, (const size_t[]){ 0, 0 }, NULL,
	    (const int64_t[]){ 7 }, 4);
	T_EQ(n, 1, "a kept row is rewritten whatever the minimum");
	T_CONTAINS(core_buf_cstr(&out), "\t{\"john smith\"}\t", "one form");
	T_CONTAINS(core_buf_cstr(&out), "\t{2}\t", "counted twice");

	/* Two researchers' evidence merged, a new authorship, two clusters
	 * (the second one new, below the minimum). */
	row(&rows[0], "john smith", "John Smith", "2026-05-01", coa, N(coa), f1,
	    N(f1));
	row(&rows[1], "john smith", "John Smith", "2026-01-01", cob, N(cob), f2,
	    N(f2));
	kept(&rows[1], 7, 3, "openalex");
	row(&rows[2], "j smith", "J Smith", "2025-01-01", none, 0, none, 0);
	kept(&rows[2], 9, 2, NULL);
	row(&rows[3], "jane smith", "Jane Smith", "2026-04-01", cob, N(cob), f1,
	    N(f1));
	n = run(&out, rows, 4, (const size_t[]){ 0, 0, 0, 1 }, NULL,
	    (const int64_t[]){ 7, 10 }, 4);
	s = core_buf_cstr(&out);
	T_EQ(n, 1, "the merged cluster only");
	T_CONTAINS(s, "7\tj smith\t{\"john smith\",\"j smith\"}\t",
	    "the forms of both researchers and the new authorship");
	T_CONTAINS(s, "\t{4,2}\t{\"2026-05-01\",\"2025-01-01\"}\t",
	    "counts summed by form, newest dates");
	T_OK(strcmp(s + strlen(s) - 10, "\topenalex\n") == 0,
	    "a kept external id's reason carries over");
	T_LACKS(s, "jane smith", "another cluster's form");

	core_buf_free(&out);
	return T_DONE();
}
