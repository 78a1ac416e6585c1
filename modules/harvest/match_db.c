/*
 * match_db.c -- "weft-harvest match" and "weft-harvest eval": match.c's
 * decisions against the database and against a gold set.
 *
 * "match" reads every authorship on a second connection, in one
 * REPEATABLE READ snapshot through a cursor (memory holds one batch and
 * one block, never the table), block by block and newest first, and
 * writes each batch of blocks in one transaction on the first
 * connection.  Researcher ids stay: a cluster keeps the id most of its
 * authorships had (a followed id first), so that a rerun on the same data
 * writes nothing and follows keep pointing at the same person.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

#define BATCH      2000 /* authorships a transaction (whole blocks) */
#define FETCH_ROWS "FETCH 5000 FROM match_cur"
#define KEYS_BATCH 20000

/* A text cell, "" for NULL (borrowed until PQclear). */
static const char *
text(const PGresult *res, int r, int c)
{
	const char *v = core_cell_text(res, r, c);

	return v != NULL ? v : "";
}

/* One authorship as the reader gives it.  Strings are owned. */
struct mrow {
	char *block, *raw_name, *name_key, *ext_id, *coauth, *fields;
	const char **coauthors, **fieldv;
	size_t ncoauthors, nfields;
	int64_t paper_id, rid;
	int position, rid_ext, rid_followed;
};

struct mrun {
	struct core_db *db; /* writes */
	struct mrow *rows;
	size_t n, cap;
	struct core_buf st, gone;
	struct harvest_mstats *st_out;
	long done, created, removed;
	struct timespec t0;
};

static double
since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "a|b|c" split in place; *v is allocated (caller frees). */
static size_t
split(char *s, const char ***v)
{
	size_t n = 0, cap = 0;
	char *p;

	*v = NULL;
	while (*s != '\0') {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*v = core_xrealloc(*v, cap * sizeof(**v));
		}
		(*v)[n++] = s;
		if ((p = strchr(s, '|')) == NULL)
			break;
		*p = '\0';
		s = p + 1;
	}
	return n;
}

static void
row_free(struct mrow *r)
{
	free(r->block);
	free(r->raw_name);
	free(r->name_key);
	free(r->ext_id);
	free(r->coauth);
	free(r->fields);
	free(r->coauthors);
	free(r->fieldv);
}

/* Counts of (cluster, old researcher) pairs, for keeping ids. */
struct claim {
	size_t cluster;
	int64_t rid;
	long count;
	int followed;
};

static int
claim_cmp(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->followed != y->followed)
		return y->followed - x->followed;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->rid != y->rid)
		return x->rid < y->rid ? -1 : 1;
	return x->cluster < y->cluster ? -1 : x->cluster > y->cluster;
}

static int
has_id(const int64_t *v, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return 1;
	return 0;
}

/*
 * Decides rows [s, e) (one block) and stages the result: authorships in
 * m->st, researchers left without papers in m->gone.  New researchers
 * are inserted here, inside the batch's transaction.
 */
static enum core_err
do_block(struct mrun *m, size_t s, size_t e)
{
	struct harvest_mitem *it = NULL;
	struct claim *cl = NULL;
	int64_t *cid = NULL, *used = NULL;
	size_t n = e - s, nc, ncl = 0, nused = 0, i, j, k, best;
	PGresult *res = NULL;
	char pid[24], pos[24], rid[24], old[24], score[32], *slug;
	enum core_err er = CORE_OK;

	it = core_xcalloc(n, sizeof(*it));
	for (i = 0; i < n; i++) {
		struct mrow *r = &m->rows[s + i];

		it[i].name_key = r->name_key;
		it[i].coauthors = r->coauthors;
		it[i].ncoauthors = r->ncoauthors;
		it[i].fields = r->fieldv;
		it[i].nfields = r->nfields;
		it[i].ext_id = r->ext_id;
	}
	nc = harvest_match_group(it, n, m->st_out);
	cid = core_xcalloc(nc, sizeof(*cid));
	used = core_xcalloc(n + 1, sizeof(*used));
	cl = core_xcalloc(n, sizeof(*cl));

	/* An external id's researcher is its cluster's, whatever else. */
	for (i = 0; i < n; i++) {
		struct mrow *r = &m->rows[s + i];

		if (r->ext_id != NULL && r->rid > 0 &&
		    cid[it[i].cluster] == 0 && !has_id(used, nused, r->rid)) {
			cid[it[i].cluster] = r->rid;
			used[nused++] = r->rid;
		}
	}
	/* Name-only researchers go to the cluster holding most of them. */
	for (i = 0; i < n; i++) {
		struct mrow *r = &m->rows[s + i];

		if (r->rid <= 0 || r->rid_ext)
			continue;
		for (j = 0; j < ncl; j++)
			if (cl[j].rid == r->rid &&
			    cl[j].cluster == it[i].cluster)
				break;
		if (j == ncl) {
			cl[ncl].rid = r->rid;
			cl[ncl].cluster = it[i].cluster;
			cl[ncl].followed = r->rid_followed;
			ncl++;
		}
		cl[j].count++;
	}
	qsort(cl, ncl, sizeof(*cl), claim_cmp);
	for (j = 0; j < ncl; j++)
		if (cid[cl[j].cluster] == 0 &&
		    !has_id(used, nused, cl[j].rid)) {
			cid[cl[j].cluster] = cl[j].rid;
			used[nused++] = cl[j].rid;
		}
	/* The others are new people, named by their fullest form. */
	for (k = 0; k < nc; k++) {
		if (cid[k] != 0)
			continue;
		best = n;
		for (i = 0; i < n; i++)
			if (it[i].cluster == k &&
			    (best == n ||
				strlen(it[i].name_key) >
				    strlen(it[best].name_key)))
				best = i;
		slug = core_slug(m->rows[s + best].raw_name, 60);
		er = core_db_exec(m->db, HARVEST_SQL_MATCH_RESEARCHER_NEW,
		    (const char *const[]){ m->rows[s + best].raw_name,
			m->rows[s + best].name_key, slug },
		    3, &res);
		free(slug);
		if (er != CORE_OK)
			goto out;
		cid[k] = core_cell_bigint(res, 0,
		    HARVEST_MATCH_RESEARCHER_NEW__ID, 0);
		PQclear(res);
		res = NULL;
		m->created++;
	}
	for (i = 0; i < n; i++) {
		struct mrow *r = &m->rows[s + i];

		snprintf(pid, sizeof(pid), "%" PRId64, r->paper_id);
		snprintf(pos, sizeof(pos), "%d", r->position);
		snprintf(rid, sizeof(rid), "%" PRId64, cid[it[i].cluster]);
		snprintf(old, sizeof(old), "%" PRId64, r->rid);
		snprintf(score, sizeof(score), "%.4f", it[i].score);
		harvest_copy_row(&m->st,
		    (const char *const[]){ pid, pos, rid,
			r->rid > 0 ? old : NULL, harvest_mreasons[it[i].reason],
			score },
		    6);
	}
	/* Old ids no cluster kept: their followers go where most went. */
	for (j = 0; j < ncl; j++) {
		long most = 0;

		if (has_id(used, nused, cl[j].rid))
			continue;
		for (i = 0, best = nc; i < ncl; i++)
			if (cl[i].rid == cl[j].rid && cl[i].count > most) {
				most = cl[i].count;
				best = cl[i].cluster;
			}
		snprintf(old, sizeof(old), "%" PRId64, cl[j].rid);
		snprintf(rid, sizeof(rid), "%" PRId64, cid[best]);
		harvest_copy_row(&m->gone, (const char *const[]){ old, rid },
		    2);
		used[nused++] = cl[j].rid;
		m->removed++;
	}
out:
	PQclear(res);
	free(it);
	free(cid);
	free(used);
	free(cl);
	return er;
}

/* Decides and writes rows [0, n) (whole blocks) in one transaction. */
static enum core_err
flush(struct mrun *m, size_t n)
{
	size_t s, e;
	enum core_err er;

	if (n == 0)
		return CORE_OK;
	core_buf_reset(&m->st);
	core_buf_reset(&m->gone);
	if ((er = core_db_cmd(m->db, "BEGIN")) != CORE_OK)
		return er;
	for (s = 0; s < n; s = e) {
		for (e = s + 1;
		     e < n && strcmp(m->rows[e].block, m->rows[s].block) == 0;
		     e++)
			continue;
		if ((er = do_block(m, s, e)) != CORE_OK)
			goto rollback;
	}
	if ((er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY, &m->st)) !=
		CORE_OK ||
	    (m->gone.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_GONE,
		     &m->gone)) != CORE_OK) ||
	    (er = core_db_cmd(m->db,
		 harvest_sql[HARVEST_SQL_MATCH_APPLY].sql)) != CORE_OK)
		goto rollback;
	if ((er = core_db_cmd(m->db, "COMMIT")) != CORE_OK)
		return er;
	m->done += (long)n;
	core_log(CORE_LOG_INFO, "harvest.match", "%ld authorships, %.0f/s",
	    m->done, m->done / (since(&m->t0) + 1e-9));
	return CORE_OK;
rollback:
	core_db_cmd(m->db, "ROLLBACK");
	return er;
}

/* Name keys for authorships written before 0006_match.sql. */
static enum core_err
fill_keys(struct core_db *db)
{
	struct core_buf b = CORE_BUF_INIT;
	PGresult *res;
	char *key;
	int i, nt;
	enum core_err er = CORE_OK;

	res = PQexec(core_db_conn(db),
	    harvest_sql[HARVEST_SQL_MATCH_KEYS_TODO].sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		core_log(CORE_LOG_ERROR, "harvest.match", "name keys: %s",
		    PQresultErrorMessage(res));
		PQclear(res);
		return CORE_EDB;
	}
	/* A script, not prepared: its columns are checked here. */
	if (core_db_columns(&harvest_sql[HARVEST_SQL_MATCH_KEYS_TODO], res) !=
	    CORE_OK) {
		PQclear(res);
		return CORE_EDB;
	}
	nt = PQntuples(res);
	for (i = 0; i < nt && er == CORE_OK; i++) {
		key = harvest_name_key(
		    core_cell_text(res, i, HARVEST_MATCH_KEYS_TODO__RAW_NAME));
		harvest_copy_row(&b,
		    (const char *const[]){
			core_cell_text(res, i,
			    HARVEST_MATCH_KEYS_TODO__PAPER_ID),
			core_cell_text(res, i,
			    HARVEST_MATCH_KEYS_TODO__POSITION),
			key },
		    3);
		free(key);
		if ((i + 1) % KEYS_BATCH != 0 && i + 1 < nt)
			continue;
		if ((er = core_db_cmd(db, "BEGIN")) != CORE_OK)
			break;
		if ((er = harvest_copy_in(db, HARVEST_SQL_MATCH_COPY_KEYS,
			 &b)) != CORE_OK ||
		    (er = core_db_cmd(db,
			 harvest_sql[HARVEST_SQL_MATCH_KEYS_APPLY].sql)) !=
			CORE_OK) {
			core_db_cmd(db, "ROLLBACK");
			break;
		}
		er = core_db_cmd(db, "COMMIT");
		core_buf_reset(&b);
	}
	if (nt > 0)
		core_log(CORE_LOG_INFO, "harvest.match",
		    "name keys of %d authorships filled", nt);
	PQclear(res);
	core_buf_free(&b);
	return er;
}

static void
take_row(struct mrun *m, PGresult *res, int i)
{
	struct mrow *r;
	size_t j;

	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4096;
		m->rows = core_xrealloc(m->rows, m->cap * sizeof(*m->rows));
	}
	r = &m->rows[m->n++];
	memset(r, 0, sizeof(*r));
	r->block = core_xstrdup(text(res, i, HARVEST_MATCH_DECLARE__BLOCK));
	r->paper_id =
	    core_cell_bigint(res, i, HARVEST_MATCH_DECLARE__PAPER_ID, 0);
	r->position = core_cell_int(res, i, HARVEST_MATCH_DECLARE__POSITION, 0);
	r->raw_name =
	    core_xstrdup(text(res, i, HARVEST_MATCH_DECLARE__RAW_NAME));
	r->name_key =
	    core_xstrdup(text(res, i, HARVEST_MATCH_DECLARE__NAME_KEY));
	r->rid =
	    core_cell_bigint(res, i, HARVEST_MATCH_DECLARE__RESEARCHER_ID, 0);
	r->ext_id = core_cell_isnull(res, i, HARVEST_MATCH_DECLARE__EXT_ID)
	    ? NULL
	    : core_xstrdup(
		  core_cell_text(res, i, HARVEST_MATCH_DECLARE__EXT_ID));
	r->rid_ext =
	    core_cell_bool(res, i, HARVEST_MATCH_DECLARE__HAS_EXT_ID, 0);
	r->rid_followed =
	    core_cell_bool(res, i, HARVEST_MATCH_DECLARE__FOLLOWED, 0);
	r->coauth =
	    core_xstrdup(text(res, i, HARVEST_MATCH_DECLARE__COAUTHORS));
	r->fields =
	    core_xstrdup(text(res, i, HARVEST_MATCH_DECLARE__CATEGORIES));
	r->ncoauthors = split(r->coauth, &r->coauthors);
	/* The paper's authors include this one: drop its name once. */
	for (j = 0; j < r->ncoauthors; j++)
		if (strcmp(r->coauthors[j], r->name_key) == 0) {
			r->coauthors[j] = r->coauthors[--r->ncoauthors];
			break;
		}
	r->nfields = split(r->fields, &r->fieldv);
}

enum core_err
harvest_match_run(const struct core_conf *conf, struct core_db *db,
    struct harvest_mstats *st)
{
	struct harvest_mstats local;
	struct core_db *rd = NULL;
	struct mrun m;
	PGresult *res = NULL;
	size_t i, cut;
	int nt, r;
	enum core_err er;

	memset(&m, 0, sizeof(m));
	memset(&local, 0, sizeof(local));
	m.db = db;
	m.st_out = st != NULL ? st : &local;
	clock_gettime(CLOCK_MONOTONIC, &m.t0);
	if ((er = core_db_cmd(db,
		 harvest_sql[HARVEST_SQL_MATCH_STAGE_CREATE].sql)) != CORE_OK ||
	    (er = fill_keys(db)) != CORE_OK)
		goto out;
	/* The reader's snapshot is taken after the keys are in. */
	if ((er = harvest_connect(conf, HARVEST_NMIGRATE, &rd)) != CORE_OK ||
	    (er = core_db_cmd(rd, "SET jit = off")) != CORE_OK ||
	    (er = core_db_cmd(rd,
		 "BEGIN ISOLATION LEVEL REPEATABLE READ "
		 "READ ONLY")) != CORE_OK ||
	    (er = core_db_cmd(rd,
		 harvest_sql[HARVEST_SQL_MATCH_DECLARE].sql)) != CORE_OK)
		goto out;
	for (;;) {
		res = PQexec(core_db_conn(rd), FETCH_ROWS);
		if (PQresultStatus(res) != PGRES_TUPLES_OK) {
			core_log(CORE_LOG_ERROR, "harvest.match", "read: %s",
			    PQresultErrorMessage(res));
			er = CORE_EDB;
			goto out;
		}
		/* The cursor's query is not prepared: check its columns. */
		if ((er = core_db_columns(&harvest_sql
					      [HARVEST_SQL_MATCH_DECLARE],
			 res)) != CORE_OK)
			goto out;
		if ((nt = PQntuples(res)) == 0)
			break;
		for (r = 0; r < nt; r++) {
			/* A block ends here: flush when the batch is full. */
			if (m.n >= BATCH &&
			    strcmp(m.rows[m.n - 1].block,
				text(res, r, HARVEST_MATCH_DECLARE__BLOCK)) !=
				0) {
				if ((er = flush(&m, m.n)) != CORE_OK)
					goto out;
				for (i = 0; i < m.n; i++)
					row_free(&m.rows[i]);
				m.n = 0;
			}
			take_row(&m, res, r);
		}
		PQclear(res);
		res = NULL;
	}
	cut = m.n;
	if ((er = flush(&m, cut)) != CORE_OK)
		goto out;
	core_db_cmd(rd, "COMMIT");

	/* Counts and fully_matched, in one transaction. */
	if ((er = core_db_cmd(db, "BEGIN")) != CORE_OK)
		goto out;
	if ((er = core_db_cmd(db, harvest_sql[HARVEST_SQL_RECOMPUTE].sql)) !=
	    CORE_OK) {
		core_db_cmd(db, "ROLLBACK");
		goto out;
	}
	er = core_db_cmd(db, "COMMIT");
	core_log(CORE_LOG_INFO, "harvest.match",
	    "%ld authorships in %.1f s: %ld new researchers, %ld merged away",
	    m.done, since(&m.t0), m.created, m.removed);
out:
	PQclear(res);
	for (i = 0; i < m.n; i++)
		row_free(&m.rows[i]);
	free(m.rows);
	core_buf_free(&m.st);
	core_buf_free(&m.gone);
	core_db_close(rd);
	return er;
}

static void
print_stats(const char *what, const struct harvest_mstats *st)
{
	printf("%s: %ld name blocks, %ld same-name groups, %ld researchers; "
	       "%ld same-name groups split into %ld researchers; %ld cluster "
	       "merges; joins: %ld by co-authors, %ld by fields, %ld across "
	       "name forms\n",
	    what, st->blocks, st->groups, st->clusters, st->split_blocks,
	    st->split_into, st->merges, st->joins_coauthors, st->joins_fields,
	    st->initials);
}

/* Connects to a migrated database with every statement prepared. */
static enum core_err
connect_migrated(const struct core_conf *conf, struct core_db **dbp)
{
	struct harvest_mfile *files = NULL;
	size_t nfiles = 0;
	int current = 0;
	enum core_err er;

	*dbp = NULL;
	if ((er = harvest_migrations(conf, &files, &nfiles)) != CORE_OK ||
	    (er = harvest_connect(conf, HARVEST_NMIGRATE, dbp)) != CORE_OK ||
	    (er = harvest_db_version(*dbp, &current)) != CORE_OK)
		goto out;
	if (nfiles == 0 || current != files[nfiles - 1].version) {
		core_log(CORE_LOG_ERROR, "harvest.match",
		    "the database is at version %d, the migrations at %d: "
		    "run weft-harvest migrate first",
		    current, nfiles > 0 ? files[nfiles - 1].version : 0);
		er = CORE_EDB;
		goto out;
	}
	core_db_close(*dbp);
	*dbp = NULL;
	er = harvest_connect(conf, HARVEST_NPREPARED, dbp);
out:
	harvest_migrations_free(files, nfiles);
	return er;
}

int
harvest_match(const struct core_conf *conf)
{
	struct harvest_mstats st;
	struct core_db *db = NULL;
	int rc = HARVEST_EXIT_FAIL;

	memset(&st, 0, sizeof(st));
	if (connect_migrated(conf, &db) != CORE_OK ||
	    harvest_match_run(conf, db, &st) != CORE_OK)
		goto out;
	print_stats("matched", &st);
	if (harvest_after_write(conf, db, HARVEST_AFTER_BULK) != CORE_OK)
		goto out;
	rc = HARVEST_EXIT_OK;
out:
	core_db_close(db);
	return rc;
}

/* ------------------------------------------------------------ eval */

/* One gold authorship: a recorded OpenAlex work's author. */
struct gitem {
	char *author; /* OpenAlex id: the truth */
	char *key, *block, *date, *work;
	size_t w, position;
	const char **coauthors, **fields;
	size_t ncoauthors, nfields;
	size_t label; /* block number, then cluster */
	size_t cluster;
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

/* Adds the authorships of one work to *g. */
static void
gold_work(const json_t *w, struct gitem **g, size_t *n, size_t *cap, size_t wno,
    char ***keep, size_t *nkeep)
{
	const json_t *a, *c, *ash = json_object_get(w, "authorships");
	const char **keys, **fields, *id, *raw, *s;
	size_t i, j, na = json_array_size(ash), nf = 0, first = *n;
	char *k;

	keys = core_xcalloc(na + 1, sizeof(*keys));
	fields =
	    core_xcalloc(json_array_size(json_object_get(w, "concepts")) + 2,
		sizeof(*fields));
	/* Fields: the level-0 concepts and the primary topic's subfield. */
	json_array_foreach(json_object_get(w, "concepts"), i,
	    c) if (json_integer_value(json_object_get(c, "level")) == 0 &&
	    (s = json_string_value(json_object_get(c, "display_name"))) != NULL)
	    fields[nf++] = s;
	if ((s = json_string_value(
		 json_object_get(json_object_get(json_object_get(w,
						     "primary_topic"),
				     "subfield"),
		     "display_name"))) != NULL)
		fields[nf++] = s;
	json_array_foreach(ash, i, a)
	{
		id = json_string_value(
		    json_object_get(json_object_get(a, "author"), "id"));
		raw = json_string_value(json_object_get(a, "raw_author_name"));
		if (raw == NULL)
			raw = json_string_value(
			    json_object_get(json_object_get(a, "author"),
				"display_name"));
		if (raw == NULL)
			continue;
		k = harvest_name_key(raw);
		keys[i] = k;
		*keep = core_xrealloc(*keep, (*nkeep + 1) * sizeof(**keep));
		(*keep)[(*nkeep)++] = k;
		if (id == NULL || *k == '\0')
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 256;
			*g = core_xrealloc(*g, *cap * sizeof(**g));
		}
		memset(&(*g)[*n], 0, sizeof(**g));
		(*g)[*n].author = core_xstrdup(id);
		(*g)[*n].key = core_xstrdup(k);
		(*g)[*n].block = harvest_match_block(k);
		s = json_string_value(json_object_get(w, "publication_date"));
		(*g)[*n].date = core_xstrdup(s != NULL ? s : "");
		s = json_string_value(json_object_get(w, "id"));
		(*g)[*n].work = core_xstrdup(s != NULL ? s : "");
		(*g)[*n].w = wno;
		(*g)[*n].position = i;
		(*n)++;
	}
	for (i = first; i < *n; i++) {
		struct gitem *it = &(*g)[i];

		it->coauthors = core_xcalloc(na + 1, sizeof(*it->coauthors));
		for (j = 0; j < na; j++)
			if (j != it->position && keys[j] != NULL &&
			    *keys[j] != '\0')
				it->coauthors[it->ncoauthors++] = keys[j];
		it->fields = core_xcalloc(nf + 1, sizeof(*it->fields));
		memcpy(it->fields, fields, nf * sizeof(*fields));
		it->nfields = nf;
	}
	free(keys);
	free(fields);
}

static const char *const gold_default[] = {
	"works_cursor_page1.json",
	"works_cursor_page2.json",
	"W2741809807.json",
};

int
harvest_eval(const struct core_conf *conf, char **files, int nfiles)
{
	struct harvest_mstats st;
	struct harvest_mitem *mi = NULL;
	struct gitem *g = NULL;
	struct core_db *db = NULL;
	json_t *docs = json_array(), *seen = json_object(), *o, *w, *res_a;
	json_t *authors = json_object(), *missed = json_object(), *miss;
	const char *mk;
	PGresult *res = NULL;
	char **keep = NULL, *path;
	const char *dir, *id;
	size_t n = 0, cap = 0, nkeep = 0, i, j, s, e, blocks = 0, nw = 0, nr;
	long tp = 0, fp = 0, fn = 0, tn = 0;
	int f, rc = HARVEST_EXIT_FAIL, nd;
	double p, r;

	memset(&st, 0, sizeof(st));
	dir = core_conf_get(conf, "eval_dir", "tests/data/harvest/openalex");
	nd = nfiles > 0 ? nfiles
			: (int)(sizeof(gold_default) / sizeof(gold_default[0]));
	for (f = 0; f < nd; f++) {
		path = nfiles > 0
		    ? core_xstrdup(files[f])
		    : core_xasprintf("%s/%s", dir, gold_default[f]);
		o = load_json(path);
		free(path);
		if (o == NULL)
			goto out;
		json_array_append_new(docs, o);
		/* A list response, or one work. */
		res_a = json_object_get(o, "results");
		nr = json_is_array(res_a) ? json_array_size(res_a) : 1;
		for (i = 0; i < nr; i++) {
			w = json_is_array(res_a) ? json_array_get(res_a, i) : o;
			/* A work in two files counts once. */
			if ((id = json_string_value(
				 json_object_get(w, "id"))) == NULL ||
			    json_object_get(seen, id))
				continue;
			json_object_set_new(seen, id, json_true());
			gold_work(w, &g, &n, &cap, nw++, &keep, &nkeep);
		}
	}
	if (n == 0) {
		fprintf(stderr,
		    "weft-harvest eval: no authorships with "
		    "OpenAlex author ids in the files\n");
		goto out;
	}
	/* Match on names, co-authors and fields only: the ids are hidden. */
	qsort(g, n, sizeof(*g), gitem_cmp);
	for (i = 0; i < n; i++)
		json_object_set_new(authors, g[i].author, json_true());
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
	/* Every pair of authorships: the same author or not. */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			int same = strcmp(g[i].author, g[j].author) == 0;
			int said = g[i].label == g[j].label &&
			    g[i].cluster == g[j].cluster;

			if (same && said)
				tp++;
			else if (said)
				fp++;
			else if (same) {
				fn++;
				miss = json_object_get(missed, g[i].author);
				json_object_set_new(missed, g[i].author,
				    json_integer(json_integer_value(miss) + 1));
			} else
				tn++;
		}
	p = tp + fp > 0 ? (double)tp / (double)(tp + fp) : 1;
	r = tp + fn > 0 ? (double)tp / (double)(tp + fn) : 1;
	printf("gold: %zu recorded OpenAlex works, %zu authorships with an "
	       "author id, %ld author ids, %zu name blocks\n",
	    nw, n, (long)json_object_size(authors), blocks);
	printf("pairs: %ld same-author decisions, %ld right (tp), %ld wrong "
	       "(fp), %ld missed (fn), %ld different-author pairs kept "
	       "apart (tn)\n",
	    tp + fp, tp, fp, fn, tn);
	printf("precision %.4f recall %.4f\n", p, r);
	json_object_foreach(missed, mk, miss)
	{
		for (i = 0; i < n && strcmp(g[i].author, mk) != 0; i++)
			continue;
		printf("missed: %s (%s): %lld pairs\n", mk,
		    i < n ? g[i].key : "?",
		    (long long)json_integer_value(miss));
	}
	print_stats("gold matching", &st);

	/* The bundled dataset as the last "match" left it. */
	if (connect_migrated(conf, &db) != CORE_OK) {
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
	for (i = 0; i < n; i++) {
		free(g[i].author);
		free(g[i].key);
		free(g[i].block);
		free(g[i].date);
		free(g[i].work);
		free(g[i].coauthors);
		free(g[i].fields);
	}
	free(g);
	free(mi);
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	json_decref(seen);
	json_decref(authors);
	json_decref(missed);
	json_decref(docs);
	return rc;
}
