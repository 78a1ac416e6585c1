/*
 * match_eval.c -- "weft-harvest eval": match.c's decisions, whole
 * blocks and the day's pass, against a gold set of authorships whose
 * sources gave author ids (precision and recall, tuning and held-out
 * parts), and the database's same-name groups as the last match left
 * them.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"

/* A text cell, "" for NULL (borrowed until PQclear). */
static const char *
text(const PGresult *res, int r, int c)
{
	const char *v = core_cell_text(res, r, c);

	return v != NULL ? v : "";
}

/*
 * The gold set: authorships whose source (OpenAlex, Semantic Scholar)
 * gave an author id.  Two authorships are one person when they share an
 * id of one source or an ORCID; across sources without ORCIDs the truth
 * is unknown and the pair is not counted.  Each person (a connected set
 * of ids) falls by a fixed seed into the tuning part or the held-out
 * part; a pair is held-out when either of its people is.  Thresholds
 * (harvest.h) were chosen on the tuning part only.
 */
#define GOLD_SEED    "weft-gold-16"
#define GOLD_HELD    50 /* per cent of the people held out */
#define GOLD_DAY     10 /* per cent of the dates that are gold_day()'s */
#define GOLD_DEFAULT "tests/data/harvest/gold/authorships.jsonl.gz"
#define GOLD_ADJ     "tests/data/harvest/gold/adjudicated.jsonl"

/* One gold authorship; its strings are in the gold set's pool. */
struct gitem {
	const char *src, *truth, *orcid; /* truth: "src:id" */
	const char *raw, *key, *block, *date, *work;
	size_t position;
	const char **coauthors, **fields;
	size_t ncoauthors, nfields;
	size_t label, cluster; /* block number, cluster in it */
};

struct gold {
	struct gitem *g;
	size_t n, cap, nworks;
	size_t *ident;         /* people: a union-find over g (core_uf) */
	struct core_pool pool; /* the items' strings and arrays */
	char **keep;           /* name keys the items borrow */
	size_t nkeep;
	json_t *seen;  /* "src:work" */
	json_t *ids;   /* identifier -> item index */
	json_t *works; /* per source: works */
};

static json_t *
load_json(const char *path)
{
	struct core_buf b = CORE_BUF_INIT;
	char chunk[1 << 16];
	json_error_t je;
	json_t *o = NULL, *d;
	gzFile gz;
	int n;

	if ((gz = gzopen(path, "rb")) == NULL) {
		fprintf(stderr, "weft-harvest eval: %s: cannot read\n", path);
		return NULL;
	}
	while ((n = gzread(gz, chunk, sizeof(chunk))) > 0)
		core_buf_put(&b, chunk, (size_t)n);
	gzclose(gz);
	/* JSON lines (the gold file): one array of them. */
	if (strstr(path, ".jsonl") != NULL) {
		const char *p = b.ptr != NULL ? core_buf_cstr(&b) : "", *e;

		o = json_array();
		for (; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
			if ((e = strchr(p, '\n')) == NULL)
				e = p + strlen(p);
			if (e == p)
				continue;
			if ((d = json_loadb(p, (size_t)(e - p), 0, &je)) ==
			    NULL) {
				fprintf(stderr, "weft-harvest eval: %s: %s\n",
				    path, je.text);
				json_decref(o);
				o = NULL;
				break;
			}
			json_array_append_new(o, d);
		}
		core_buf_free(&b);
		return o;
	}
	if ((o = json_loadb(b.ptr != NULL ? b.ptr : "", b.len, 0, &je)) == NULL)
		fprintf(stderr, "weft-harvest eval: %s: %s\n", path, je.text);
	core_buf_free(&b);
	/* The source app's wrapper: {"data": body, "url": ...}. */
	if (o != NULL && (d = json_object_get(o, "data")) != NULL) {
		json_incref(d);
		json_decref(o);
		o = d;
	}
	return o;
}

static int
gitem_cmp(const void *a, const void *b)
{
	const struct gitem *x = a, *y = b;
	int c;

	if ((c = strcmp(x->block, y->block)) != 0)
		return c;
	if ((c = strcmp(y->date, x->date)) != 0) /* newest first */
		return c;
	if ((c = strcmp(y->work, x->work)) != 0)
		return c;
	return x->position < y->position ? -1 : x->position > y->position;
}

/* An OpenAlex work in the gold line's shape (new reference). */
static json_t *
openalex_line(const json_t *w)
{
	const json_t *a, *c, *au;
	json_t *line, *authors = json_array(), *fields = json_array();
	const char *s, *raw, *orcid;
	size_t i;

	json_array_foreach(json_object_get(w, "concepts"), i, c)
	{
		if (json_integer_value(json_object_get(c, "level")) == 0 &&
		    (s = json_string_value(
			 json_object_get(c, "display_name"))) != NULL)
			json_array_append_new(fields, json_string(s));
	}
	if ((s = json_string_value(
		 json_object_get(json_object_get(json_object_get(w,
						     "primary_topic"),
				     "subfield"),
		     "display_name"))) != NULL)
		json_array_append_new(fields, json_string(s));
	json_array_foreach(json_object_get(w, "authorships"), i, a)
	{
		au = json_object_get(a, "author");
		if ((raw = json_string_value(
			 json_object_get(a, "raw_author_name"))) == NULL)
			raw = json_string_value(
			    json_object_get(au, "display_name"));
		if (raw == NULL)
			continue;
		orcid = json_string_value(json_object_get(au, "orcid"));
		if (orcid != NULL && strrchr(orcid, '/') != NULL)
			orcid = strrchr(orcid, '/') + 1;
		json_array_append_new(authors,
		    json_pack("{s:s, s:O?, s:s?}", "name", raw, "id",
			json_object_get(au, "id"), "orcid", orcid));
	}
	s = json_string_value(json_object_get(w, "publication_date"));
	line = json_pack("{s:s, s:O?, s:s, s:o, s:o}", "src", "openalex", "id",
	    json_object_get(w, "id"), "date", s != NULL ? s : "", "fields",
	    fields, "authors", authors);
	return line;
}

static void
gold_add(struct gold *gd, struct gitem *it)
{
	if (gd->n == gd->cap) {
		gd->cap = gd->cap ? gd->cap * 2 : 256;
		gd->g = core_xrealloc(gd->g, gd->cap * sizeof(*gd->g));
	}
	gd->g[gd->n++] = *it;
}

/* Adds the authorships of one gold line (a work) to gd. */
static void
gold_line(struct gold *gd, const json_t *w)
{
	const json_t *a, *f, *authors = json_object_get(w, "authors");
	const char **keys, **fields, *src, *id, *wid, *s, *date, *work;
	size_t i, j, na = json_array_size(authors), nf = 0, first = gd->n;
	char *k, *seen;
	struct core_pool *pl = &gd->pool;
	struct gitem it;

	src = json_string_value(json_object_get(w, "src"));
	wid = json_string_value(json_object_get(w, "id"));
	if (src == NULL || wid == NULL)
		return;
	/* A work in two files counts once. */
	seen = core_xasprintf("%s:%s", src, wid);
	if (json_object_get(gd->seen, seen) != NULL) {
		free(seen);
		return;
	}
	json_object_set_new(gd->seen, seen, json_true());
	free(seen);
	json_object_set_new(gd->works, src,
	    json_integer(
		json_integer_value(json_object_get(gd->works, src)) + 1));
	gd->nworks++;
	/* The work's strings, shared by its authorships. */
	src = core_pool_keep(pl, core_xstrdup(src));
	work = core_pool_keep(pl, core_xasprintf("%s:%s", src, wid));
	s = json_string_value(json_object_get(w, "date"));
	date = core_pool_keep(pl, core_xstrdup(s != NULL ? s : ""));
	keys = core_xcalloc(na + 1, sizeof(*keys));
	fields = core_pool_keep(pl,
	    core_xcalloc(json_array_size(json_object_get(w, "fields")) + 1,
		sizeof(*fields)));
	json_array_foreach(json_object_get(w, "fields"), i, f)
	{
		if ((s = json_string_value(f)) != NULL)
			fields[nf++] = core_pool_keep(pl, core_xstrdup(s));
	}
	json_array_foreach(authors, i, a)
	{
		if ((s = json_string_value(json_object_get(a, "name"))) == NULL)
			continue;
		k = harvest_name_key(s);
		keys[i] = k;
		gd->keep = core_xrealloc(gd->keep,
		    (gd->nkeep + 1) * sizeof(*gd->keep));
		gd->keep[gd->nkeep++] = k;
		if ((id = json_string_value(json_object_get(a, "id"))) ==
			NULL ||
		    *k == '\0')
			continue;
		memset(&it, 0, sizeof(it));
		it.src = src;
		it.truth = core_pool_keep(pl, core_xasprintf("%s:%s", src, id));
		s = json_string_value(json_object_get(a, "orcid"));
		it.orcid =
		    s != NULL ? core_pool_keep(pl, core_xstrdup(s)) : NULL;
		it.raw = core_pool_keep(pl,
		    core_xstrdup(
			json_string_value(json_object_get(a, "name"))));
		it.key = core_pool_keep(pl, core_xstrdup(k));
		it.block = core_pool_keep(pl, harvest_match_block(k));
		it.date = date;
		it.work = work;
		it.position = i;
		gold_add(gd, &it);
	}
	for (i = first; i < gd->n; i++) {
		struct gitem *g = &gd->g[i];

		g->coauthors = core_pool_keep(pl,
		    core_xcalloc(na + 1, sizeof(*g->coauthors)));
		for (j = 0; j < na; j++)
			if (j != g->position && keys[j] != NULL &&
			    *keys[j] != '\0')
				g->coauthors[g->ncoauthors++] = keys[j];
		g->fields = fields;
		g->nfields = nf;
	}
	free(keys);
}

/* Joins item i's person with the first item that had identifier id. */
static void
ujoin(struct gold *gd, size_t i, const char *id)
{
	json_t *v = json_object_get(gd->ids, id);

	if (v == NULL)
		json_object_set_new(gd->ids, id, json_integer((json_int_t)i));
	else
		core_uf_join(gd->ident, i, (size_t)json_integer_value(v));
}

/*
 * Family-name-first keys turned (harvest_name_orient()) in the items and
 * their co-authors.  Returns the map old key -> new key, which the
 * turned keys and the co-author lists then borrow from.
 */
static json_t *
gold_orient(struct gold *gd)
{
	json_t *cnt = json_object(), *map = json_object(), *v;
	const char **keys, *k;
	long *counts;
	char **rot;
	size_t n = 0, i, j;

	for (i = 0; i < gd->nkeep; i++) {
		v = json_object_get(cnt, gd->keep[i]);
		json_object_set_new(cnt, gd->keep[i],
		    json_integer(json_integer_value(v) + 1));
	}
	keys = core_xcalloc(json_object_size(cnt) + 1, sizeof(*keys));
	counts = core_xcalloc(json_object_size(cnt) + 1, sizeof(*counts));
	json_object_foreach(cnt, k, v)
	{
		keys[n] = k;
		counts[n++] = (long)json_integer_value(v);
	}
	rot = harvest_name_orient(keys, counts, n);
	for (i = 0; i < n; i++)
		if (rot[i] != NULL) {
			json_object_set_new(map, keys[i], json_string(rot[i]));
			free(rot[i]);
		}
	free(rot);
	free(keys);
	free(counts);
	json_decref(cnt);
	for (i = 0; i < gd->n; i++) {
		struct gitem *it = &gd->g[i];

		/* The old key and block stay in the pool until the end. */
		if ((k = json_string_value(json_object_get(map, it->key))) !=
		    NULL) {
			it->key = k;
			it->block =
			    core_pool_keep(&gd->pool, harvest_match_block(k));
		}
		for (j = 0; j < it->ncoauthors; j++)
			if ((k = json_string_value(json_object_get(map,
				 it->coauthors[j]))) != NULL)
				it->coauthors[j] = k;
	}
	return map;
}

/* Counts of one part: [case][tp, fp, fn]. */
struct gcount {
	long c[HARVEST_NC__MAX][3];
};

static void
print_part(const char *what, const struct gcount *gc, long people, long items)
{
	long tp = 0, fp = 0, fn = 0;
	int k;

	for (k = 0; k < HARVEST_NC__MAX; k++) {
		tp += gc->c[k][0];
		fp += gc->c[k][1];
		fn += gc->c[k][2];
	}
	printf("%s: %ld people, %ld authorships; pairs: %ld right (tp), "
	       "%ld wrong (fp), %ld missed (fn); precision %.4f recall "
	       "%.4f\n",
	    what, people, items, tp, fp, fn,
	    tp + fp > 0 ? (double)tp / (double)(tp + fp) : 1.0,
	    tp + fn > 0 ? (double)tp / (double)(tp + fn) : 1.0);
	for (k = 0; k < HARVEST_NC__MAX; k++) {
		const long *c = gc->c[k];
		char p[16] = "-", r[16] = "-";

		if (c[0] + c[1] > 0)
			snprintf(p, sizeof(p), "%.4f",
			    (double)c[0] / (double)(c[0] + c[1]));
		if (c[0] + c[2] > 0)
			snprintf(r, sizeof(r), "%.4f",
			    (double)c[0] / (double)(c[0] + c[2]));
		printf("  %s %s: tp %ld fp %ld fn %ld precision %s recall "
		       "%s\n",
		    what, harvest_ncases[k], c[0], c[1], c[2], p, r);
	}
}

/* One scoring of the gold set: its parts, as gold_score() leaves them. */
struct gscore {
	struct gcount parts[2]; /* tuning, held-out */
	long people[2], items[2];
	const char **minid; /* per person (root): its least id, borrowed */
	int *held;          /* per person (root): 1 if held out */
	json_t *missed;     /* least id -> pairs missed */
};

static int
date_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The day's pass on the gold set (g[].cluster written): the authorships
 * of the newest GOLD_DAY per cent of dates are the day's; in each block
 * the older ones are decided whole (harvest_match_group()), then the
 * day's placed against them (harvest_match_place()), as a daily match
 * does after the last full one.  Returns the day's authorships.
 */
static size_t
gold_day(struct gold *gd, struct harvest_mitem *mi)
{
	struct gitem *g = gd->g;
	const char **dates = core_xcalloc(gd->n + 1, sizeof(*dates)),
		   **keys = core_xcalloc(gd->n + 1, sizeof(*keys));
	const char *cut;
	size_t n = gd->n, i, s, e, k, nday = 0;

	for (i = 0; i < n; i++)
		dates[i] = g[i].date;
	qsort(dates, n, sizeof(*dates), date_cmp);
	cut = dates[n - 1 - n * GOLD_DAY / 100];
	for (s = 0; s < n; s = e) {
		for (e = s + 1; e < n && g[e].label == g[s].label; e++)
			continue;
		/* Newest first (gitem_cmp): the day's come first. */
		for (k = s; k < e && strcmp(g[k].date, cut) > 0; k++)
			continue;
		nday += k - s;
		for (i = s; i < e; i++) {
			memset(&mi[i], 0, sizeof(mi[i]));
			mi[i].name_key = keys[i - s] = g[i].key;
			mi[i].coauthors = g[i].coauthors;
			mi[i].ncoauthors = g[i].ncoauthors;
			mi[i].fields = g[i].fields;
			mi[i].nfields = g[i].nfields;
		}
		harvest_match_group(&mi[k], e - k, NULL);
		for (i = k; i < e; i++)
			mi[i].settled = 1;
		harvest_match_place(&mi[s], e - s,
		    harvest_match_ambiguous(keys, e - s), NULL);
		for (i = s; i < e; i++)
			g[i].cluster = mi[i].cluster;
	}
	free(dates);
	free(keys);
	return nday;
}

/*
 * Scores the matcher's clusters (g[].label, g[].cluster) against the
 * people of the union-find (gd->ident): each person's part by the seed
 * and its least id, then the pairs said to be one person (one block,
 * one cluster) and the pairs that are one person but were kept apart.
 * Across sources without ORCIDs a pair is unknown and not counted.
 * gs is reset first; it borrows the items' ids.  With pairs, each
 * wrong pair is written there (eval_pairs: the candidates of the
 * adjudication file).
 */
static void
gold_score(const struct gold *gd, struct gscore *gs, FILE *pairs)
{
	const struct gitem *g = gd->g;
	size_t n = gd->n, i, j, s, e, a, b;
	char *id;
	json_t *v;

	memset(gs->parts, 0, sizeof(gs->parts));
	memset(gs->people, 0, sizeof(gs->people));
	memset(gs->items, 0, sizeof(gs->items));
	memset(gs->minid, 0, n * sizeof(*gs->minid));
	memset(gs->held, 0, n * sizeof(*gs->held));
	json_object_clear(gs->missed);
	for (i = 0; i < n; i++) {
		a = core_uf_find(gd->ident, i);
		if (gs->minid[a] == NULL ||
		    strcmp(g[i].truth, gs->minid[a]) < 0)
			gs->minid[a] = g[i].truth;
	}
	for (i = 0; i < n; i++) {
		if (gs->minid[i] == NULL)
			continue;
		id = core_xasprintf("%s:%s", GOLD_SEED, gs->minid[i]);
		gs->held[i] = core_fnv1a(id) % 100 < GOLD_HELD;
		free(id);
		gs->people[gs->held[i]]++;
	}
	for (i = 0; i < n; i++)
		gs->items[gs->held[core_uf_find(gd->ident, i)]]++;
	for (s = 0; s < n; s = e) {
		for (e = s + 1; e < n && g[e].label == g[s].label; e++)
			continue;
		for (i = s; i < e; i++)
			for (j = i + 1; j < e; j++) {
				int same, part;
				enum harvest_ncase c;

				if (g[i].cluster != g[j].cluster)
					continue;
				a = core_uf_find(gd->ident, i);
				b = core_uf_find(gd->ident, j);
				same = a == b;
				if (!same && strcmp(g[i].src, g[j].src) != 0 &&
				    (g[i].orcid == NULL || g[j].orcid == NULL))
					continue; /* unknown */
				part = gs->held[a] || gs->held[b];
				c = harvest_name_case(g[i].raw, g[j].raw);
				gs->parts[part].c[c][same ? 0 : 1]++;
				if (!same && pairs != NULL)
					fprintf(pairs,
					    "wrong pair (%s): %s \"%s\" %s | "
					    "%s \"%s\" %s\n",
					    part ? "held-out" : "tuning",
					    g[i].truth, g[i].raw, g[i].work,
					    g[j].truth, g[j].raw, g[j].work);
			}
	}
	for (i = 0; i < n; i++) {
		a = core_uf_find(gd->ident, i);
		for (j = i + 1; j < n; j++) {
			enum harvest_ncase c;

			if (core_uf_find(gd->ident, j) != a ||
			    (g[i].label == g[j].label &&
				g[i].cluster == g[j].cluster))
				continue;
			c = harvest_name_case(g[i].raw, g[j].raw);
			gs->parts[gs->held[a]].c[c][2]++;
			v = json_object_get(gs->missed, gs->minid[a]);
			json_object_set_new(gs->missed, gs->minid[a],
			    json_integer(json_integer_value(v) + 1));
		}
	}
}

/*
 * The adjudication file (GOLD_ADJ): one JSON line per pair of one
 * source's author ids that the source keeps apart, with the evidence
 * from the recordings and a verdict.  The ids of each entry whose
 * "same" is true are joined into one person.  Returns the number of
 * entries applied (both ids present in the gold set), -1 when the file
 * cannot be read.
 */
static int
gold_adjudicate(struct gold *gd, const char *path)
{
	json_t *o, *e, *ids, *va, *vb;
	size_t i, k;
	int applied = 0;

	if ((o = load_json(path)) == NULL)
		return -1;
	json_array_foreach(o, i, e)
	{
		if (!json_is_true(json_object_get(e, "same")))
			continue;
		ids = json_object_get(e, "ids");
		va = json_object_get(gd->ids,
		    json_string_value(json_array_get(ids, 0)) != NULL
			? json_string_value(json_array_get(ids, 0))
			: "");
		if (va == NULL)
			continue;
		for (k = 1; k < json_array_size(ids); k++) {
			const char *idb =
			    json_string_value(json_array_get(ids, k));

			if (idb == NULL ||
			    (vb = json_object_get(gd->ids, idb)) == NULL)
				continue;
			core_uf_join(gd->ident, (size_t)json_integer_value(va),
			    (size_t)json_integer_value(vb));
			applied++;
		}
	}
	json_decref(o);
	return applied;
}

int
harvest_eval(const struct core_conf *conf, char **files, int nfiles)
{
	static const char *const gold_default[] = { GOLD_DEFAULT };
	struct harvest_mstats st;
	struct harvest_mitem *mi = NULL;
	struct gold gd;
	struct gitem *g;
	struct core_db *db = NULL;
	struct gscore gs;
	json_t *o, *w, *res_a, *line, *v;
	json_t *orient = NULL;
	const char *mk, *path0, *adj;
	PGresult *res = NULL;
	char *path, *id;
	size_t n, i, s, e, blocks = 0, nr;
	int f, rc = HARVEST_EXIT_FAIL, nd;

	memset(&st, 0, sizeof(st));
	memset(&gd, 0, sizeof(gd));
	memset(&gs, 0, sizeof(gs));
	gd.seen = json_object();
	gd.ids = json_object();
	gd.works = json_object();
	nd = nfiles > 0 ? nfiles : 1;
	for (f = 0; f < nd; f++) {
		path0 = nfiles > 0
		    ? files[f]
		    : core_conf_get(conf, "eval_gold", gold_default[0]);
		path = core_xstrdup(path0);
		o = load_json(path);
		free(path);
		if (o == NULL)
			goto out;
		/* Gold lines, an OpenAlex list response, or one work. */
		res_a = json_is_array(o) ? o : json_object_get(o, "results");
		nr = json_is_array(res_a) ? json_array_size(res_a) : 1;
		for (i = 0; i < nr; i++) {
			w = json_is_array(res_a) ? json_array_get(res_a, i) : o;
			if (json_object_get(w, "authors") != NULL &&
			    json_object_get(w, "src") != NULL) {
				gold_line(&gd, w);
				continue;
			}
			if ((line = openalex_line(w)) == NULL)
				continue;
			gold_line(&gd, line);
			json_decref(line);
		}
		json_decref(o);
	}
	if ((n = gd.n) == 0) {
		fprintf(stderr,
		    "weft-harvest eval: no authorships with "
		    "author ids in the files\n");
		goto out;
	}
	g = gd.g;
	orient = gold_orient(&gd);
	/* Match on names, co-authors and fields only: the ids are hidden. */
	qsort(g, n, sizeof(*g), gitem_cmp);
	mi = core_xcalloc(n, sizeof(*mi));
	for (s = 0; s < n; s = e) {
		for (e = s + 1; e < n && strcmp(g[e].block, g[s].block) == 0;
		     e++)
			continue;
		for (i = s; i < e; i++) {
			memset(&mi[i], 0, sizeof(mi[i]));
			mi[i].name_key = g[i].key;
			mi[i].coauthors = g[i].coauthors;
			mi[i].ncoauthors = g[i].ncoauthors;
			mi[i].fields = g[i].fields;
			mi[i].nfields = g[i].nfields;
		}
		harvest_match_group(&mi[s], e - s, &st);
		for (i = s; i < e; i++) {
			g[i].label = blocks;
			g[i].cluster = mi[i].cluster;
		}
		blocks++;
	}

	/* People: one source's id, or an ORCID, joins authorships. */
	gd.ident = core_xcalloc(n, sizeof(*gd.ident));
	core_uf_init(gd.ident, n);
	for (i = 0; i < n; i++) {
		ujoin(&gd, i, g[i].truth);
		if (g[i].orcid != NULL) {
			id = core_xasprintf("orcid:%s", g[i].orcid);
			ujoin(&gd, i, id);
			free(id);
		}
	}
	gs.minid = core_xcalloc(n, sizeof(*gs.minid));
	gs.held = core_xcalloc(n, sizeof(*gs.held));
	gs.missed = json_object();
	gold_score(&gd, &gs, NULL);
	printf("gold: %zu works (", gd.nworks);
	f = 0;
	json_object_foreach(gd.works, mk, v)
	{
		printf("%s%s %lld", f++ > 0 ? ", " : "", mk,
		    (long long)json_integer_value(v));
	}
	printf("), %zu authorships with an author id, %ld people, %zu name "
	       "blocks; split by seed \"%s\", %d%% of the people held out\n",
	    n, gs.people[0] + gs.people[1], blocks, GOLD_SEED, GOLD_HELD);
	/*
	 * First the sources' own identities; then, with the default gold
	 * set, the same after the adjudicated joins (the figures that
	 * count: a source's split of one person is not the matcher's
	 * error).
	 */
	adj =
	    nfiles > 0 ? "" : core_conf_get(conf, "eval_adjudicated", GOLD_ADJ);
	print_part(*adj != '\0' ? "sources only, tuning" : "tuning",
	    &gs.parts[0], gs.people[0], gs.items[0]);
	print_part(*adj != '\0' ? "sources only, held-out" : "held-out",
	    &gs.parts[1], gs.people[1], gs.items[1]);
	if (*adj != '\0') {
		if ((f = gold_adjudicate(&gd, adj)) < 0)
			goto out;
		gold_score(&gd, &gs,
		    *core_conf_get(conf, "eval_pairs", "") != '\0' ? stdout
								   : NULL);
		printf("adjudicated: %s, %d pairs of one source's ids joined; "
		       "%ld people\n",
		    adj, f, gs.people[0] + gs.people[1]);
		print_part("tuning", &gs.parts[0], gs.people[0], gs.items[0]);
		print_part("held-out", &gs.parts[1], gs.people[1], gs.items[1]);
	}
	/* What was missed, named in the tuning part only. */
	json_object_foreach(gs.missed, mk, v)
	{
		for (i = 0; i < n && strcmp(g[i].truth, mk) != 0; i++)
			continue;
		if (i < n && !gs.held[core_uf_find(gd.ident, i)])
			printf("missed (tuning): %s (%s): %lld pairs\n", mk,
			    g[i].raw, (long long)json_integer_value(v));
	}
	harvest_match_print_stats("gold matching", &st);
	/* The same gold, the newest papers by the day's pass. */
	i = gold_day(&gd, mi);
	gold_score(&gd, &gs, NULL);
	printf("day's pass: the %zu authorships of the newest %d%% of dates "
	       "placed against the older ones, decided whole\n",
	    i, GOLD_DAY);
	print_part("day's pass, tuning", &gs.parts[0], gs.people[0],
	    gs.items[0]);
	print_part("day's pass, held-out", &gs.parts[1], gs.people[1],
	    gs.items[1]);

	/* The bundled dataset as the last "match" left it. */
	if (harvest_connect_migrated(conf, "harvest.match", &db) != CORE_OK) {
		printf("database: not reachable, no split/merge counts\n");
		rc = HARVEST_EXIT_OK;
		goto out;
	}
	if (core_db_exec(db, HARVEST_SQL_MATCH_EVAL_GROUPS, NULL, 0, &res) !=
	    CORE_OK)
		goto out;
	printf("database: %s same-name groups (one name key); %s split into "
	       "%s researchers; %s researchers hold more than one name form "
	       "(merges); %s researchers; %s authorships without one\n",
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__GROUPS),
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__GROUPS_SPLIT),
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__SPLIT_INTO),
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__NAME_FORMS),
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__RESEARCHERS),
	    text(res, 0, HARVEST_MATCH_EVAL_GROUPS__UNMATCHED));
	PQclear(res);
	res = NULL;
	if (core_db_exec(db, HARVEST_SQL_MATCH_EVAL_REASONS, NULL, 0, &res) !=
	    CORE_OK)
		goto out;
	for (f = 0; f < PQntuples(res); f++)
		printf("reason %s: %s authorships, mean score %s\n",
		    text(res, f, HARVEST_MATCH_EVAL_REASONS__REASON),
		    text(res, f, HARVEST_MATCH_EVAL_REASONS__N),
		    core_cell_isnull(res, f,
			HARVEST_MATCH_EVAL_REASONS__MEAN_SCORE)
			? "-"
			: core_cell_text(res, f,
			      HARVEST_MATCH_EVAL_REASONS__MEAN_SCORE));
	rc = HARVEST_EXIT_OK;
out:
	PQclear(res);
	core_db_close(db);
	core_pool_free(&gd.pool);
	free(gd.g);
	free(gd.ident);
	free(mi);
	free(gs.minid);
	free(gs.held);
	core_strv_free(gd.keep, gd.nkeep);
	json_decref(gd.seen);
	json_decref(gd.ids);
	json_decref(gd.works);
	json_decref(gs.missed);
	json_decref(orient);
	return rc;
}
