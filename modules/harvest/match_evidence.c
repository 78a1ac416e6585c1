/*
 * match_evidence.c -- what the day's match keeps of a researcher between
 * two matches (0064): per researcher and name block, the sets the
 * matcher weighs (harvest_match_place()) and the name forms it names a
 * person by, written from the block it has just decided, so that the
 * next day reads one row where it read every decided authorship.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_rows.h"

/* The items of each cluster together, in row order (newest first). */
struct by_cluster {
	const struct harvest_mitem *it;
	size_t i;
};

static int
by_cluster_cmp(const void *a, const void *b)
{
	const struct by_cluster *x = a, *y = b;

	if (x->it[x->i].cluster != y->it[y->i].cluster)
		return x->it[x->i].cluster < y->it[y->i].cluster ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* A name form of a cluster: its newest row, and the authorships. */
struct form {
	const struct mrow *newest;
	long count;
};

/* Whether match_reason r says an external id placed the authorship
 * (the reasons MATCH_ROW_COLUMNS reads an id for). */
static int
ext_reason(const char *r)
{
	static const char *const ext[] = { "openalex", "openalex_id", "orcid",
		"s2", "s2_id" };
	size_t i;

	for (i = 0; r != NULL && i < sizeof(ext) / sizeof(ext[0]); i++)
		if (strcmp(r, ext[i]) == 0)
			return 1;
	return 0;
}

/* A set's members '|'-joined into b. */
static void
joined(struct core_buf *b, const struct core_sset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		if (s->v[i] != NULL) {
			if (b->len > 0)
				core_buf_putc(b, '|');
			core_buf_puts(b, s->v[i]);
		}
}

/* Whether cluster [s, e) of ix is to be kept: it is anything but one
 * researcher's kept evidence, kept by the same researcher, and stands
 * for min authorships or more, or its researcher's row is kept already
 * (written with a lower min: it would be stale). */
static int
to_keep(const struct mrow *rows, const struct by_cluster *ix, size_t s,
    size_t e, int64_t cid, long min)
{
	size_t k;
	long n = 0;
	int changed = 0, kept = 0;

	for (k = s; k < e; k++) {
		const struct mrow *r = &rows[ix[k].i];

		n += r->weight;
		if (!r->evidence || r->rid != cid)
			changed = 1;
		else
			kept = 1;
	}
	return changed && (n >= min || kept);
}

/* Cluster [s, e) of ix as one COPY row of stage_match_evidence. */
static void
stage(struct core_buf *out, const struct mrow *rows,
    const struct harvest_mitem *it, const struct by_cluster *ix, size_t s,
    size_t e, int64_t cid)
{
	struct core_buf keys = CORE_BUF_INIT, raws = CORE_BUF_INIT,
			counts = CORE_BUF_INIT, dates = CORE_BUF_INIT,
			co = CORE_BUF_INIT, fi = CORE_BUF_INIT;
	struct core_sset coauthors = { 0 }, fields = { 0 };
	struct form *forms = core_xcalloc(e - s, sizeof(*forms));
	const char *ext = NULL;
	char rid[24], num[24];
	size_t nf = 0, k, j, f;

	for (k = s; k < e; k++) {
		const struct mrow *r = &rows[ix[k].i];
		const char *why = r->settled
		    ? r->reason
		    : harvest_mreasons[it[ix[k].i].reason];

		for (f = 0; f < nf; f++)
			if (strcmp(forms[f].newest->name_key, r->name_key) == 0)
				break;
		if (f == nf)
			forms[nf++].newest = r;
		forms[f].count += r->weight;
		for (j = 0; j < r->ncoauthors; j++)
			if (*r->coauthors[j] != '\0')
				(void)core_sset_add(&coauthors,
				    r->coauthors[j]);
		for (j = 0; j < r->nfields; j++)
			if (*r->fieldv[j] != '\0')
				(void)core_sset_add(&fields, r->fieldv[j]);
		if (ext == NULL && ext_reason(why))
			ext = why;
	}
	for (f = 0; f < nf; f++) {
		harvest_array_add(&keys, forms[f].newest->name_key);
		harvest_array_add(&raws, forms[f].newest->raw_name);
		snprintf(num, sizeof(num), "%ld", forms[f].count);
		core_buf_putc(&counts, counts.len > 0 ? ',' : '{');
		core_buf_puts(&counts, num);
		harvest_array_add(&dates, forms[f].newest->published);
	}
	core_buf_putc(&keys, '}');
	core_buf_putc(&raws, '}');
	core_buf_putc(&counts, '}');
	core_buf_putc(&dates, '}');
	joined(&co, &coauthors);
	joined(&fi, &fields);
	snprintf(rid, sizeof(rid), "%" PRId64, cid);
	harvest_copy_row(out,
	    (const char *const[]){ rid, rows[ix[s].i].block,
		core_buf_cstr(&keys), core_buf_cstr(&raws),
		core_buf_cstr(&counts), core_buf_cstr(&dates),
		core_buf_cstr(&co), core_buf_cstr(&fi), ext },
	    9);
	core_buf_free(&keys);
	core_buf_free(&raws);
	core_buf_free(&counts);
	core_buf_free(&dates);
	core_buf_free(&co);
	core_buf_free(&fi);
	core_sset_free(&coauthors);
	core_sset_free(&fields);
	free(forms);
}

long
harvest_match_evidence(struct core_buf *out, const struct mrow *rows,
    const struct harvest_mitem *it, size_t n, const int64_t *cid, long min)
{
	struct by_cluster *ix = core_xcalloc(n + 1, sizeof(*ix));
	size_t i, s, e;
	long written = 0;

	for (i = 0; i < n; i++) {
		ix[i].it = it;
		ix[i].i = i;
	}
	qsort(ix, n, sizeof(*ix), by_cluster_cmp);
	for (s = 0; s < n; s = e) {
		size_t k = it[ix[s].i].cluster;

		for (e = s + 1; e < n && it[ix[e].i].cluster == k; e++)
			continue;
		if (!to_keep(rows, ix, s, e, cid[k], min))
			continue;
		stage(out, rows, it, ix, s, e, cid[k]);
		written++;
	}
	free(ix);
	return written;
}
