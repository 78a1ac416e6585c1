/*
 * update.c -- the incremental build: the current file's model and
 * lists kept, only the papers new or written since it projected, each
 * into the list of its nearest centroid, the others' vectors copied as
 * they are.  The result is what a full projection of every paper with
 * that model gives (weft-vectors build --reuse-model: the integration
 * test compares the two files byte for byte), at the cost of reading
 * the ids and the few changed papers instead of every abstract.
 *
 * Three steps: the ids (every paper's, and which were written since
 * the file's watermark), the projections of the changed ones (kept in
 * memory: 260 bytes a paper, 5 MB for a daily harvest of 20,000), then
 * the decision, and only then the file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

struct vec_inc {
	const struct vec_index *old;
	int64_t *ids; /* every paper, ascending */
	size_t n, cap;
	int64_t *todo; /* those to project, ascending */
	size_t ntodo, tcap;
	unsigned char *real; /* by todo: added or modified, not the margin */
	size_t rcap;
	size_t added, modified, matched, deleted;
	/* the projections of todo[0..ntodo), by index */
	int8_t *v;
	float *scale;
	unsigned char *ok; /* a known word: in the index */
	size_t next;       /* the todo the next fetched paper is at */
	size_t tokens, unknown, skipped;
	struct core_buf text;
	struct vec_progress pr;
};

int
vec_refit_why(const struct vec_drift *d, char *why, size_t n)
{
	double share, unknown;

	if (d == NULL)
		return 0;
	if (d->papers == 0) {
		snprintf(why, n, "no papers");
		return 1;
	}
	if (d->nlist == 0 && vec_ivf_nlist(d->papers) > 0) {
		snprintf(why, n, "%zu papers need lists (above %d)", d->papers,
		    VEC_IVF_MIN);
		return 1;
	}
	if (d->papers < d->nlist) {
		snprintf(why, n, "%zu papers for %zu lists", d->papers,
		    d->nlist);
		return 1;
	}
	share = (double)(d->since_fit + d->changed) / (double)d->papers;
	if (share > VEC_INC_MAX_SHARE) {
		snprintf(why, n,
		    "%.1f %% of the papers changed since the fit (above %.0f "
		    "%%)",
		    100 * share, 100 * VEC_INC_MAX_SHARE);
		return 1;
	}
	if (d->tokens < VEC_INC_MIN_TOKENS)
		return 0;
	unknown = (double)d->unknown / (double)d->tokens;
	if (unknown > d->fit_unknown + VEC_INC_UNKNOWN_RISE) {
		snprintf(why, n,
		    "%.1f %% of the new papers' words are unknown to the "
		    "model, %.1f %% at the fit (drift above %.0f points)",
		    100 * unknown, 100 * d->fit_unknown,
		    100 * VEC_INC_UNKNOWN_RISE);
		return 1;
	}
	return 0;
}

static void
push(int64_t **a, size_t *n, size_t *cap, int64_t id)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 65536;
		*a = core_xrealloc(*a, *cap * sizeof(**a));
	}
	(*a)[(*n)++] = id;
}

/*
 * One paper id: new to the index, written since its watermark, or
 * within the margin before it, it is projected; only the first two
 * count as changes (the margin's papers are most likely the same).
 */
static enum core_err
scan_one(void *arg, int64_t id, int changed, int recent)
{
	struct vec_inc *c = arg;
	int in = vec_row(c->old, id) >= 0;

	push(&c->ids, &c->n, &c->cap, id);
	c->matched += in;
	c->added += !in;
	c->modified += in && changed;
	if (!in || changed || recent) {
		if (c->ntodo == c->rcap) {
			c->rcap = c->rcap ? 2 * c->rcap : 65536;
			c->real = core_xrealloc(c->real, c->rcap);
		}
		c->real[c->ntodo] = !in || changed;
		push(&c->todo, &c->ntodo, &c->tcap, id);
	}
	return CORE_OK;
}

static enum core_err
project_one(void *arg, const struct vec_paper *p)
{
	struct vec_inc *c = arg;
	struct vec_query q;
	size_t i;

	/* Fetched in id order; a paper deleted since the scan is absent. */
	while (c->next < c->ntodo && c->todo[c->next] < p->id)
		c->next++;
	if (c->next == c->ntodo || c->todo[c->next] != p->id)
		return CORE_OK;
	i = c->next++;
	vec_progress_tick(&c->pr, c->next);
	vec_doc_text(&c->text, p->title, p->abstract);
	/* Drift is the new text's: the margin's papers are most likely
	 * those of the last build, which would dilute it. */
	if (c->real[i])
		vec_text_unknown(c->old, core_buf_cstr(&c->text), &c->tokens,
		    &c->unknown);
	if (vec_embed(c->old, core_buf_cstr(&c->text), &q) != CORE_OK)
		return CORE_OK; /* no known word: not in the index */
	memcpy(c->v + i * VEC_DIMS, q.v, VEC_DIMS);
	c->scale[i] = q.scale;
	c->ok[i] = 1;
	return CORE_OK;
}

int
vec_inc_plan(struct core_db *db, const struct vec_index *old,
    const struct vec_prev *prev, struct vec_inc **ip, char *why, size_t n)
{
	struct vec_inc *c = core_xcalloc(1, sizeof(*c));
	struct vec_drift d;

	*ip = c;
	c->old = old;
	if (vec_store_ids(db, prev->modified_to, scan_one, c) != CORE_OK)
		return -1;
	c->deleted = old->ndocs - c->matched;
	memset(&d, 0, sizeof(d));
	d.papers = c->n;
	d.changed = c->added + c->modified + c->deleted;
	d.since_fit = prev->since_fit;
	d.nlist = old->nlist;
	d.fit_unknown = prev->fit_unknown;
	if (vec_refit_why(&d, why, n))
		return 1;

	c->v = core_xcalloc(c->ntodo + 1, VEC_DIMS);
	c->scale = core_xcalloc(c->ntodo + 1, sizeof(*c->scale));
	c->ok = core_xcalloc(c->ntodo + 1, 1);
	vec_progress_start(&c->pr, "projecting", c->ntodo);
	if (vec_store_some(db, c->todo, c->ntodo, project_one, c) != CORE_OK)
		return -1;
	vec_progress_end(&c->pr);
	d.tokens = c->tokens;
	d.unknown = c->unknown;
	return vec_refit_why(&d, why, n);
}

uint32_t
vec_list_of(const struct vec_index *idx, uint32_t s)
{
	size_t lo = 0, hi = idx->nlist, mid;

	/* The last list starting at or before s. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (idx->lists[mid] <= s)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

void
vec_inc_write(struct vec_inc *c, struct vec_writer *w)
{
	struct vec_query q;
	size_t i, t = 0;
	int64_t r;

	for (i = 0; i < c->n; i++) {
		while (t < c->ntodo && c->todo[t] < c->ids[i])
			t++;
		if (t < c->ntodo && c->todo[t] == c->ids[i]) {
			if (!c->ok[t]) {
				c->skipped++;
				continue;
			}
			memcpy(q.v, c->v + t * VEC_DIMS, VEC_DIMS);
			q.scale = c->scale[t];
			vec_writer_add_in(w, c->ids[i], &q, VEC_LIST_NEAREST);
			continue;
		}
		if ((r = vec_row(c->old, c->ids[i])) < 0)
			continue; /* not reached: new ids are projected */
		vec_row_query(c->old, (size_t)r, &q);
		vec_writer_add_in(w, c->ids[i], &q,
		    c->old->nlist > 0 ? vec_list_of(c->old, c->old->slot[r])
				      : VEC_LIST_NEAREST);
	}
}

void
vec_inc_counts(const struct vec_inc *c, struct vec_inc_counts *n)
{
	n->added = c->added;
	n->modified = c->modified;
	n->removed = c->deleted;
	n->projected = c->ntodo;
	n->unknown = c->tokens > 0 ? (double)c->unknown / (double)c->tokens : 0;
}

void
vec_inc_free(struct vec_inc *c)
{
	if (c == NULL)
		return;
	free(c->ids);
	free(c->todo);
	free(c->real);
	free(c->v);
	free(c->scale);
	free(c->ok);
	core_buf_free(&c->text);
	free(c);
}
