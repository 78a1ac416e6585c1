/*
 * match.c -- who wrote what: the pure part of researcher matching.  One
 * call decides one block of authorships (same last name, same first
 * initial: "j smith" holds "John Smith", "J. Smith", "Jane Smith"), with
 * no database, so that the unit tests, "match" and "eval" run the same
 * decisions.
 *
 * Items arrive newest first.  Each one joins a cluster or starts one:
 *
 *  1. An external id (OpenAlex author id, ORCID, S2 id) decides: the
 *     cluster holding that id, else a new one with it.
 *  2. Otherwise only clusters with a compatible name are candidates
 *     (same given names, or an initial where the block leaves no doubt
 *     which full name it stands for).  The best candidate by co-authors
 *     wins when they overlap (HARVEST_M_COAUTH_*), else the best by
 *     fields (categories) when those overlap (HARVEST_M_FIELDS_MIN).
 *     Two or more candidates over a threshold are merged: this item
 *     shows they are one person.
 *  3. No candidate over a threshold: a new identity.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "harvest.h"

/* clang-format off */
const char *const harvest_mreasons[HARVEST_MR__MAX] = {
	"openalex_id", "orcid", "s2_id", "coauthors", "fields",
	"new_identity", "single",
};
/* clang-format on */

/* Name keys, co-authors and fields as sets of borrowed strings; an
 * empty key (a name with no letters) is never a member. */
static void
sset_add(struct core_sset *s, const char *k)
{
	if (*k != '\0')
		(void)core_sset_add(s, k);
}

static void
sset_union(struct core_sset *into, const struct core_sset *from)
{
	size_t i;

	for (i = 0; i < from->cap; i++)
		if (from->v[i] != NULL)
			sset_add(into, from->v[i]);
}

/* A cluster: one person so far. */
struct cluster {
	struct core_sset names;     /* name keys seen */
	struct core_sset coauthors; /* co-authors' name keys */
	struct core_sset fields;
	const char *ext_id; /* borrowed from an item, or NULL */
	size_t size;
};

/* Bytes of the UTF-8 character that starts with c. */
static size_t
u8len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		return 2;
	if ((c & 0xf0) == 0xe0)
		return 3;
	return 4;
}

/* The n-th space-separated token of s into buf; its length, 0 if none. */
static size_t
token(const char *s, size_t n, const char **tok)
{
	size_t len;

	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			return 0;
		for (len = 0; s[len] != '\0' && s[len] != ' '; len++)
			continue;
		if (n-- == 0) {
			*tok = s;
			return len;
		}
		s += len;
	}
}

/* How many tokens s has, in one pass (the matcher asks it of every
 * pair of names it compares). */
static size_t
ntokens(const char *s)
{
	size_t n = 0;

	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			return n;
		n++;
		while (*s != '\0' && *s != ' ')
			s++;
	}
}

/*
 * Two given-name tokens agree: equal, or one is a single letter that
 * starts the other.  *initial is set when the agreement needed that.
 */
static int
tok_agree(const char *a, size_t al, const char *b, size_t bl, int *initial)
{
	if (al == bl && memcmp(a, b, al) == 0)
		return 1;
	if (al == u8len((unsigned char)*a) && bl > al && memcmp(a, b, al) == 0)
		return *initial = 1;
	if (bl == u8len((unsigned char)*b) && al > bl && memcmp(a, b, bl) == 0)
		return *initial = 1;
	return 0;
}

int
harvest_name_compatible(const char *a, const char *b, int first_ambiguous)
{
	const char *ta = "", *tb = "";
	size_t na = ntokens(a), nb = ntokens(b), la, lb, i;
	int initial = 0;

	if (na == 0 || nb == 0)
		return 0;
	/* The last token is the family name; the block made it equal. */
	la = token(a, na - 1, &ta);
	lb = token(b, nb - 1, &tb);
	if (la != lb || memcmp(ta, tb, la) != 0)
		return 0;
	if (na == 1 || nb == 1)
		return na == nb;
	la = token(a, 0, &ta);
	lb = token(b, 0, &tb);
	if (!tok_agree(ta, la, tb, lb, &initial))
		return 0;
	/* "J. Smith" stands for John or Jane: only one of them may be here. */
	if (initial && first_ambiguous)
		return 0;
	/* A middle name, when both have one, must agree too. */
	for (i = 1; i + 1 < na && i + 1 < nb; i++) {
		la = token(a, i, &ta);
		lb = token(b, i, &tb);
		if (!tok_agree(ta, la, tb, lb, &initial))
			return 0;
	}
	return 1;
}

char *
harvest_match_block(const char *name_key)
{
	const char *t = "";
	size_t n = ntokens(name_key), l;

	if (n == 0)
		return core_xstrdup("");
	l = token(name_key, n - 1, &t);
	return core_xasprintf("%.*s %.*s", (int)u8len((unsigned char)*name_key),
	    name_key, (int)l, t);
}

/* clang-format off */
const char *const harvest_ncases[HARVEST_NC__MAX] = {
	"same", "accents", "initials", "middle", "order", "other",
};
/* clang-format on */

/* s with its first token moved to the end ("priem jason": "jason priem"). */
static char *
rotate(const char *s)
{
	const char *t = "";
	size_t l = token(s, 0, &t);

	if (ntokens(s) < 2)
		return core_xstrdup(s);
	return core_xasprintf("%s %.*s", t + l + 1, (int)l, t);
}

/*
 * Whether keys a and b (given names first) name one person, as
 * harvest_name_compatible(a, b, 0) does; *initial and *middle say whether
 * that needed an initial, or a middle name on one side only.
 */
static int
relate(const char *a, const char *b, int *initial, int *middle)
{
	*initial = 0;
	*middle = ntokens(a) != ntokens(b);
	if (!harvest_name_compatible(a, b, 0))
		return 0;
	if (!harvest_name_compatible(a, b, 1))
		*initial = 1;
	return 1;
}

/* Letters and digits of s, lower-cased ASCII, other bytes as they are. */
static char *
plain(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 'A' && c <= 'Z')
			core_buf_putc(&b, (char)(c - 'A' + 'a'));
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c >= 0x80)
			core_buf_putc(&b, (char)c);
	}
	return core_buf_steal(&b);
}

/* The key of s read as written: commas are spaces, no "Last, First". */
static char *
surface_key(const char *s)
{
	char *c = core_xstrdup(s), *p, *k;

	for (p = c; *p != '\0'; p++)
		if (*p == ',')
			*p = ' ';
	k = harvest_name_key(c);
	free(c);
	return k;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a and b hold the same tokens in some order. */
static int
same_tokens(const char *a, const char *b)
{
	char *ca = core_xstrdup(a), *cb = core_xstrdup(b), *sa, *sb;
	char *va[64], *vb[64];
	size_t na = 0, nb = 0, i;
	int same;

	for (sa = strtok_r(ca, " ", &sb); sa != NULL && na < 64;
	     sa = strtok_r(NULL, " ", &sb))
		va[na++] = sa;
	for (sa = strtok_r(cb, " ", &sb); sa != NULL && nb < 64;
	     sa = strtok_r(NULL, " ", &sb))
		vb[nb++] = sa;
	same = na == nb;
	qsort(va, na, sizeof(*va), str_cmp);
	qsort(vb, nb, sizeof(*vb), str_cmp);
	for (i = 0; same && i < na; i++)
		same = strcmp(va[i], vb[i]) == 0;
	free(ca);
	free(cb);
	return same;
}

enum harvest_ncase
harvest_name_case(const char *a, const char *b)
{
	char *sa = surface_key(a), *sb = surface_key(b);
	char *ka = harvest_name_key(a), *kb = harvest_name_key(b);
	char *pa = NULL, *pb = NULL, *r = NULL;
	enum harvest_ncase c;
	int initial, middle;

	if (strcmp(sa, sb) == 0) {
		pa = plain(a);
		pb = plain(b);
		c = strcmp(pa, pb) == 0 ? HARVEST_NC_SAME : HARVEST_NC_ACCENTS;
	} else if (strcmp(ka, kb) == 0 || same_tokens(sa, sb))
		c = HARVEST_NC_ORDER;
	else if (relate(ka, kb, &initial, &middle))
		c = initial  ? HARVEST_NC_INITIALS
		    : middle ? HARVEST_NC_MIDDLE
			     : HARVEST_NC_OTHER;
	else {
		r = rotate(ka);
		c = relate(r, kb, &initial, &middle) ? HARVEST_NC_ORDER
						     : HARVEST_NC_OTHER;
		free(r);
		r = rotate(kb);
		if (c == HARVEST_NC_OTHER && relate(ka, r, &initial, &middle))
			c = HARVEST_NC_ORDER;
	}
	free(sa);
	free(sb);
	free(ka);
	free(kb);
	free(pa);
	free(pb);
	free(r);
	return c;
}

/* The last token of s and its length. */
static size_t
last_token(const char *s, const char **t)
{
	size_t n = ntokens(s);

	*t = "";
	return n > 0 ? token(s, n - 1, t) : 0;
}

char **
harvest_name_orient(const char *const *keys, const long *counts, size_t n)
{
	json_t *fam = json_object(), *by = json_object(), *v;
	char **out = core_xcalloc(n + 1, sizeof(*out)), *t1s, *tns, *r;
	const char *t1 = "", *tn = "";
	size_t i, j, l1, ln;
	long c1, cn;

	/* How often each token is a family name, and who carries it. */
	for (i = 0; i < n; i++) {
		if (ntokens(keys[i]) < 2)
			continue;
		ln = last_token(keys[i], &tn);
		tns = core_xstrndup(tn, ln);
		v = json_object_get(fam, tns);
		json_object_set_new(fam, tns,
		    json_integer(json_integer_value(v) + counts[i]));
		if ((v = json_object_get(by, tns)) == NULL) {
			v = json_array();
			json_object_set_new(by, tns, v);
		}
		json_array_append_new(v, json_integer((json_int_t)i));
		free(tns);
	}
	for (i = 0; i < n; i++) {
		/* Two tokens: "sarro federica", "priem j". */
		if (ntokens(keys[i]) != 2)
			continue;
		l1 = token(keys[i], 0, &t1);
		ln = last_token(keys[i], &tn);
		/* An initial is never the family name. */
		if (l1 == u8len((unsigned char)*t1))
			continue;
		t1s = core_xstrndup(t1, l1);
		tns = core_xstrndup(tn, ln);
		c1 = (long)json_integer_value(json_object_get(fam, t1s));
		cn = (long)json_integer_value(json_object_get(fam, tns));
		v = json_object_get(by, t1s);
		free(t1s);
		/*
		 * Read family name first only when the first token is the
		 * better attested family name (strictly: "lee kim" and "kim
		 * lee" once each stay as they are) and another form gives
		 * the same person given names first, with the given name
		 * written out as here ("jason priem", not "j priem").
		 */
		if (v == NULL ||
		    (c1 <= cn && ln != u8len((unsigned char)*tn))) {
			free(tns);
			continue;
		}
		r = rotate(keys[i]);
		for (j = 0; j < json_array_size(v); j++) {
			size_t k =
			    (size_t)json_integer_value(json_array_get(v, j));
			const char *g = "";
			size_t lg;

			if (k == i || !harvest_name_compatible(r, keys[k], 0))
				continue;
			lg = token(keys[k], 0, &g);
			if (ln == u8len((unsigned char)*tn) ||
			    (lg == ln && memcmp(g, tns, ln) == 0))
				break;
		}
		free(tns);
		if (j < json_array_size(v))
			out[i] = r;
		else
			free(r);
	}
	json_decref(fam);
	json_decref(by);
	return out;
}

/* Item i's evidence for cluster c. */
static void
evidence(const struct harvest_mitem *it, const struct cluster *c, double *co,
    size_t *shared, double *fi)
{
	size_t j, nf = 0;

	*shared = 0;
	for (j = 0; j < it->ncoauthors; j++)
		if (core_sset_has(&c->coauthors, it->coauthors[j]))
			(*shared)++;
	*co = it->ncoauthors > 0 ? (double)*shared / (double)it->ncoauthors : 0;
	for (j = 0; j < it->nfields; j++)
		if (core_sset_has(&c->fields, it->fields[j]))
			nf++;
	*fi = it->nfields > 0 ? (double)nf / (double)it->nfields : 0;
}

/* Whether the evidence joins; the reason and the score. */
static int
decide(double co, size_t shared, double fi, enum harvest_mreason *why,
    double *score)
{
	if (shared >= HARVEST_M_COAUTH_SHARED ||
	    (shared >= 1 && co >= HARVEST_M_COAUTH_MIN)) {
		*why = HARVEST_MR_COAUTHORS;
		*score = co;
		return 1;
	}
	if (fi >= HARVEST_M_FIELDS_MIN) {
		*why = HARVEST_MR_FIELDS;
		*score = fi;
		return 1;
	}
	*why = HARVEST_MR_NEW;
	*score = co > fi ? co : fi;
	return 0;
}

/* A candidate's name against any of the cluster's names. */
static int
names_fit(const struct cluster *c, const char *key, int ambiguous)
{
	size_t i;

	if (core_sset_has(&c->names, key))
		return 1;
	for (i = 0; i < c->names.cap; i++)
		if (c->names.v[i] != NULL &&
		    !harvest_name_compatible(key, c->names.v[i], ambiguous))
			return 0;
	return c->names.n > 0;
}

static void
absorb(struct cluster *c, const struct harvest_mitem *it)
{
	size_t j;

	sset_add(&c->names, it->name_key);
	for (j = 0; j < it->ncoauthors; j++)
		sset_add(&c->coauthors, it->coauthors[j]);
	for (j = 0; j < it->nfields; j++)
		sset_add(&c->fields, it->fields[j]);
	c->size++;
}

static void
cluster_free(struct cluster *c)
{
	core_sset_free(&c->names);
	core_sset_free(&c->coauthors);
	core_sset_free(&c->fields);
}

/* Same-name groups (one name key) and those split across clusters:
 * the items sorted by name key and cluster, counted run by run (a
 * block of 16,000 authorships made this quadratic scan the matcher's
 * second cost). */
static int
group_cmp(const void *a, const void *b)
{
	const struct harvest_mitem *x = *(const struct harvest_mitem *const *)a,
				   *y = *(const struct harvest_mitem *const *)b;
	int c = strcmp(x->name_key, y->name_key);

	if (c != 0)
		return c;
	return x->cluster < y->cluster ? -1 : x->cluster > y->cluster;
}

static void
name_groups(const struct harvest_mitem *items, size_t n,
    struct harvest_mstats *st)
{
	const struct harvest_mitem **ix = core_xcalloc(n, sizeof(*ix));
	size_t i, s, ns;

	for (i = 0; i < n; i++)
		ix[i] = &items[i];
	qsort(ix, n, sizeof(*ix), group_cmp);
	for (s = 0; s < n; s = i) {
		ns = 1;
		for (i = s + 1;
		     i < n && strcmp(ix[i]->name_key, ix[s]->name_key) == 0;
		     i++)
			ns += ix[i]->cluster != ix[i - 1]->cluster;
		st->groups++;
		if (ns > 1) {
			st->split_blocks++;
			st->split_into += (long)ns;
		}
	}
	free(ix);
}

int
harvest_match_ambiguous(const char *const *keys, size_t n)
{
	const char *t = "", *full = NULL;
	size_t i, l, lfull = 0;

	for (i = 0; i < n; i++) {
		if (ntokens(keys[i]) < 2)
			continue;
		l = token(keys[i], 0, &t);
		if (l == u8len((unsigned char)*t))
			continue;
		if (full == NULL) {
			full = t;
			lfull = l;
		} else if (l != lfull || memcmp(full, t, l) != 0)
			return 1;
	}
	return 0;
}

/* One block being decided: its items, clusters (union-find over them:
 * c[k] merged into c[parent[k]]) and which items started a cluster. */
struct group {
	struct harvest_mitem *items;
	size_t n, nc;
	struct cluster *c;
	size_t *parent;
	int *seed;
	int ambiguous;
	int day; /* harvest_match_place(): settled clusters are not re-read */
	struct harvest_mstats *st;
};

static void
group_init(struct group *g, struct harvest_mitem *items, size_t n,
    int ambiguous, struct harvest_mstats *st)
{
	memset(g, 0, sizeof(*g));
	g->items = items;
	g->n = n;
	g->c = core_xcalloc(n, sizeof(*g->c));
	g->parent = core_xcalloc(n, sizeof(*g->parent));
	core_uf_init(g->parent, n);
	g->seed = core_xcalloc(n, sizeof(*g->seed));
	g->ambiguous = ambiguous;
	g->st = st;
}

/* Whether cluster k is a live one (not merged away) whose names fit. */
static int
fits(const struct group *g, size_t k, const char *key)
{
	return core_uf_find(g->parent, k) == k &&
	    names_fit(&g->c[k], key, g->ambiguous);
}

/*
 * Every other fitting candidate with co-author evidence from it is the
 * same person as cluster best: merged in, unless two external ids say
 * otherwise.  Field evidence alone never merges two clusters (it would
 * chain a whole field together).
 */
static void
merge_into(struct group *g, size_t best, const struct harvest_mitem *it)
{
	struct cluster *c = g->c;
	size_t j, shared;
	enum harvest_mreason why;
	double co, fi, score;

	for (j = 0; j < g->nc; j++) {
		if (j == best || !fits(g, j, it->name_key))
			continue;
		evidence(it, &c[j], &co, &shared, &fi);
		if (!decide(co, shared, fi, &why, &score) ||
		    why != HARVEST_MR_COAUTHORS)
			continue;
		if (c[j].ext_id != NULL && c[best].ext_id != NULL &&
		    strcmp(c[j].ext_id, c[best].ext_id) != 0)
			continue;
		if (c[best].ext_id == NULL)
			c[best].ext_id = c[j].ext_id;
		sset_union(&c[best].names, &c[j].names);
		sset_union(&c[best].coauthors, &c[j].coauthors);
		sset_union(&c[best].fields, &c[j].fields);
		c[best].size += c[j].size;
		g->parent[j] = best; /* best keeps the merged sets */
		if (g->st != NULL)
			g->st->merges++;
	}
}

/* Item i, which has an external id: the cluster holding that id, else
 * a name-only cluster this id explains, else a new one. */
static void
place_ext(struct group *g, size_t i)
{
	struct harvest_mitem *it = &g->items[i];
	struct cluster *c = g->c;
	size_t k, j, shared;
	enum harvest_mreason why;
	double co, fi, score, bscore;

	it->reason = strncmp(it->ext_id, "orcid:", 6) == 0 ? HARVEST_MR_ORCID
	    : strncmp(it->ext_id, "s2:", 3) == 0           ? HARVEST_MR_S2
						 : HARVEST_MR_OPENALEX;
	for (k = 0; k < g->nc; k++)
		if (core_uf_find(g->parent, k) == k && c[k].ext_id != NULL &&
		    strcmp(c[k].ext_id, it->ext_id) == 0)
			break;
	if (k == g->nc) {
		bscore = -1;
		for (j = 0; j < g->nc; j++) {
			if (c[j].ext_id != NULL || !fits(g, j, it->name_key))
				continue;
			evidence(it, &c[j], &co, &shared, &fi);
			if (decide(co, shared, fi, &why, &score) &&
			    score > bscore) {
				bscore = score;
				k = j;
			}
		}
		if (k == g->nc) {
			g->nc++;
			g->seed[i] = 1;
		}
		c[k].ext_id = it->ext_id;
	}
	/*
	 * The day's pass does not decide its settled authorships again: an
	 * id's new authorship merges the clusters its co-authors share, as
	 * those authorships, decided after it, would have joined it.
	 */
	if (g->day)
		merge_into(g, k, it);
	it->cluster = k;
	absorb(&c[k], it);
}

/* Item i, name only: the best candidate, and any other that fits. */
static void
place_name(struct group *g, size_t i)
{
	struct harvest_mitem *it = &g->items[i];
	struct cluster *c = g->c;
	size_t j, best = g->nc, shared;
	enum harvest_mreason why, bwhy = HARVEST_MR_NEW;
	double co, fi, score, bscore = -1, bco = 0;

	for (j = 0; j < g->nc; j++) {
		if (!fits(g, j, it->name_key))
			continue;
		evidence(it, &c[j], &co, &shared, &fi);
		if (!decide(co, shared, fi, &why, &score)) {
			if (score > bco)
				bco = score;
			continue;
		}
		/* Co-authors beat fields whatever the numbers. */
		if (best == g->nc ||
		    (why == HARVEST_MR_COAUTHORS &&
			bwhy == HARVEST_MR_FIELDS) ||
		    (why == bwhy && score > bscore)) {
			best = j;
			bscore = score;
			bwhy = why;
		}
	}
	/*
	 * A paper of one author has no co-authors to compare, a paper
	 * without categories no fields: when one person of a fitting name
	 * is in the block, and the evidence there is does not speak
	 * against it, it is that person.
	 */
	if (best == g->nc && (it->ncoauthors == 0 || it->nfields == 0)) {
		size_t fit = g->nc, nfit = 0;

		for (j = 0; j < g->nc; j++)
			if (fits(g, j, it->name_key)) {
				fit = j;
				nfit++;
			}
		if (nfit == 1) {
			evidence(it, &c[fit], &co, &shared, &fi);
			if (it->nfields == 0 || fi > 0) {
				best = fit;
				bwhy = HARVEST_MR_FIELDS;
				bscore = fi;
			}
		}
	}
	if (best == g->nc) {
		it->cluster = g->nc++;
		it->reason = HARVEST_MR_NEW;
		it->score = bco;
		g->seed[i] = 1;
		absorb(&c[it->cluster], it);
		return;
	}
	merge_into(g, best, it);
	it->cluster = best;
	it->reason = bwhy;
	it->score = bscore;
	if (g->st != NULL) {
		if (bwhy == HARVEST_MR_COAUTHORS)
			g->st->joins_coauthors++;
		else
			g->st->joins_fields++;
		if (!core_sset_has(&c[best].names, it->name_key))
			g->st->initials++;
	}
	absorb(&c[best], it);
}

/* Item i decided. */
static void
place(struct group *g, size_t i)
{
	g->items[i].score = 1.0;
	if (g->items[i].ext_id != NULL)
		place_ext(g, i);
	else
		place_name(g, i);
}

/* Dense labels in order of first appearance (newest first), "single"
 * where no decision was needed; frees g.  Returns the clusters. */
static size_t
group_end(struct group *g)
{
	struct harvest_mitem *items = g->items;
	size_t *label = core_xcalloc(g->nc + 1, sizeof(*label)), out = 0, i, k;

	for (k = 0; k < g->nc; k++)
		label[k] = SIZE_MAX;
	for (i = 0; i < g->n; i++) {
		k = core_uf_find(g->parent, items[i].cluster);
		if (label[k] == SIZE_MAX)
			label[k] = out++;
		items[i].cluster = label[k];
	}
	/*
	 * A new cluster that no other one could have been (no compatible
	 * name in the block) needed no decision: "single".
	 */
	for (i = 0; i < g->n; i++) {
		if (!g->seed[i] || items[i].reason != HARVEST_MR_NEW)
			continue;
		for (k = 0; k < g->nc; k++)
			if (label[k] != items[i].cluster &&
			    fits(g, k, items[i].name_key))
				break;
		if (k == g->nc) {
			items[i].reason = HARVEST_MR_SINGLE;
			items[i].score = 1;
		}
	}
	if (g->st != NULL) {
		g->st->blocks++;
		g->st->clusters += (long)out;
		name_groups(items, g->n, g->st);
	}
	for (k = 0; k < g->nc; k++)
		cluster_free(&g->c[k]);
	free(g->c);
	free(g->parent);
	free(g->seed);
	free(label);
	return out;
}

size_t
harvest_match_group(struct harvest_mitem *items, size_t n,
    struct harvest_mstats *st)
{
	struct group g;
	const char **keys;
	size_t i;

	if (n == 0)
		return 0;
	keys = core_xcalloc(n, sizeof(*keys));
	for (i = 0; i < n; i++)
		keys[i] = items[i].name_key;
	group_init(&g, items, n, harvest_match_ambiguous(keys, n), st);
	free(keys);
	for (i = 0; i < n; i++)
		place(&g, i);
	return group_end(&g);
}

size_t
harvest_match_place(struct harvest_mitem *items, size_t n, int ambiguous,
    struct harvest_mstats *st)
{
	struct group g;
	size_t i;

	if (n == 0)
		return 0;
	group_init(&g, items, n, ambiguous, st);
	g.day = 1;
	/* The settled clusters first, whole, with their ids. */
	for (i = 0; i < n; i++) {
		struct cluster *c;

		if (!items[i].settled)
			continue;
		if (items[i].cluster >= n) { /* not a cluster: decide it */
			items[i].settled = 0;
			continue;
		}
		if (items[i].cluster >= g.nc)
			g.nc = items[i].cluster + 1;
		c = &g.c[items[i].cluster];
		if (items[i].ext_id != NULL && c->ext_id == NULL)
			c->ext_id = items[i].ext_id;
		absorb(c, &items[i]);
	}
	for (i = 0; i < n; i++)
		if (!items[i].settled)
			place(&g, i);
	return group_end(&g);
}
