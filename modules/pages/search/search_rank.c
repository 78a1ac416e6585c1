/*
 * search_rank.c -- the pure part of a paper search: the mode parameter,
 * the ranking of the candidates (text, vector similarity, or the hybrid
 * of both; newest; most cited) and the category facets counted over
 * them.  search_store.c fetches the candidates and the page's cards.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "search/search.h"

const char *const pages_search_modes[PAGES_SEARCH_MODE__MAX] = {
	"hybrid",
	"lexical",
	"semantic",
};

int
pages_search_mode_parse(const char *s, enum pages_search_mode *m)
{
	int i;

	*m = PAGES_SEARCH_HYBRID;
	if (s == NULL || *s == '\0')
		return 0;
	for (i = 0; i < PAGES_SEARCH_MODE__MAX; i++)
		if (strcmp(s, pages_search_modes[i]) == 0) {
			*m = (enum pages_search_mode)i;
			return 0;
		}
	return -1;
}

static enum pages_search_sort rank_sort;
static enum pages_search_mode rank_mode;

/* Newer first, then the higher id (the statements' tie-break). */
static int
by_date(const struct pages_search_cand *a, const struct pages_search_cand *b)
{
	int c = strcmp(b->published, a->published);

	if (c != 0)
		return c;
	return a->id < b->id ? 1 : a->id > b->id ? -1 : 0;
}

static int
by_double(double a, double b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int
cmp(const void *pa, const void *pb)
{
	const struct pages_search_cand *a = pa, *b = pb;
	int c;

	switch (rank_sort) {
	case PAGES_SEARCH_NEWEST:
		if (a->tier != b->tier)
			return a->tier - b->tier;
		return by_date(a, b);
	case PAGES_SEARCH_CITATIONS:
		if (a->tier != b->tier)
			return a->tier - b->tier;
		if (a->citations != b->citations)
			return a->citations < b->citations ? 1 : -1;
		return by_date(a, b);
	default:
		break;
	}
	if (rank_mode == PAGES_SEARCH_LEXICAL && a->tier != b->tier)
		return a->tier - b->tier;
	if ((c = by_double(a->score, b->score)) != 0)
		return c;
	return by_date(a, b);
}

void
pages_search_rank(struct pages_search_cand *c, size_t n,
    enum pages_search_mode mode, enum pages_search_sort sort, double w)
{
	double max_text = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i].text > max_text)
			max_text = c[i].text;
	for (i = 0; i < n; i++)
		switch (mode) {
		case PAGES_SEARCH_LEXICAL:
			c[i].score = c[i].text;
			break;
		case PAGES_SEARCH_SEMANTIC:
			c[i].score = c[i].sim;
			break;
		default:
			c[i].score =
			    (max_text > 0 ? w * c[i].text / max_text : 0) +
			    (1 - w) * c[i].sim;
			break;
		}
	rank_sort = sort;
	rank_mode = mode;
	if (n > 1)
		qsort(c, n, sizeof(*c), cmp);
}

/* Here, not in search.c, so that chat links the ranking alone. */
const char *
pages_search_word(const char **p, size_t *len)
{
	const char *s;

	while (**p == ' ')
		(*p)++;
	if (**p == '\0')
		return NULL;
	s = *p;
	while (**p != '\0' && **p != ' ')
		(*p)++;
	*len = (size_t)(*p - s);
	return s;
}

/* One category and its count, for the facets' sort. */
struct facet {
	const char *cat;
	size_t len;
	long long n;
};

static int
cmp_name(const void *pa, const void *pb)
{
	const struct facet *a = pa, *b = pb;
	size_t l = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->cat, b->cat, l);

	return c != 0 ? c : a->len < b->len ? -1 : a->len > b->len;
}

static int
cmp_count(const void *pa, const void *pb)
{
	const struct facet *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return cmp_name(pa, pb);
}

json_t *
pages_search_facets(const struct pages_search_cand *c, size_t n, size_t max)
{
	struct facet *f = NULL;
	size_t nf = 0, cap = 0, i, j, k;
	json_t *out = json_array();
	const char *p, *s;
	size_t len;
	char *cat;

	for (i = 0; i < n; i++)
		for (p = c[i].cats != NULL ? c[i].cats : "";
		     (s = pages_search_word(&p, &len)) != NULL;) {
			if (nf == cap) {
				cap = cap ? 2 * cap : 64;
				f = core_xrealloc(f, cap * sizeof(*f));
			}
			f[nf].cat = s;
			f[nf].len = len;
			f[nf++].n = 1;
		}
	if (nf > 1)
		qsort(f, nf, sizeof(*f), cmp_name);
	/* Runs of one name become one entry with its count. */
	for (i = 0, k = 0; i < nf; i = j) {
		for (j = i + 1; j < nf && cmp_name(&f[i], &f[j]) == 0; j++)
			;
		f[k] = f[i];
		f[k++].n = (long long)(j - i);
	}
	if (k > 1)
		qsort(f, k, sizeof(*f), cmp_count);
	for (i = 0; i < k && i < max; i++) {
		cat = core_xstrndup(f[i].cat, f[i].len);
		json_array_append_new(out,
		    json_pack("{s:o,s:I}", "category", core_json_str(cat),
			"count", (json_int_t)f[i].n));
		free(cat);
	}
	free(f);
	return out;
}

json_t *
pages_search_type_facets(const struct pages_search_cand *c, size_t n)
{
	long long cnt[16] = { 0 };
	size_t i, j, best, nt;
	json_t *out = json_array();
	int used[16] = { 0 };

	for (nt = 0; core_paper_types[nt] != NULL && nt < 16; nt++)
		;
	for (i = 0; i < n; i++)
		for (j = 0; c[i].ptype != NULL && j < nt; j++)
			if (strcmp(c[i].ptype, core_paper_types[j]) == 0) {
				cnt[j]++;
				break;
			}
	/* A selection sort over at most 16 types: the first of equal
	 * counts wins, which keeps core_paper_types' order for ties. */
	for (;;) {
		best = nt;
		for (j = 0; j < nt; j++)
			if (!used[j] && cnt[j] > 0 &&
			    (best == nt || cnt[j] > cnt[best]))
				best = j;
		if (best == nt)
			break;
		used[best] = 1;
		json_array_append_new(out,
		    json_pack("{s:s,s:s,s:I}", "paper_type",
			core_paper_types[best], "label",
			core_paper_type_label(core_paper_types[best]), "count",
			(json_int_t)cnt[best]));
	}
	return out;
}
