/*
 * match_db.c -- "weft-harvest match": match.c's decisions against the
 * database.
 *
 * The day's pass (the default) reads, in the name blocks that changed
 * since the last match (0058: the writers note them), the authorships
 * still to decide and the decided ones of the researchers whose names
 * fit them (0059), 500 blocks a read, and places the new ones
 * (harvest_match_place()).  --blocks and --full read every authorship of
 * the changed blocks, or of all, through one cursor (memory holds one
 * batch and one block, never the table) and decide the blocks whole.
 * Both read on a second connection in one REPEATABLE READ snapshot,
 * newest first, and write each batch of blocks in one transaction on
 * the first connection, whose writes note no block (weft.matcher); a
 * batch's writes run while this process reads and decides the next.
 * Researcher ids stay: a cluster keeps the id most of its authorships
 * had (a followed id first), so that a rerun on the same data writes
 * nothing and follows keep pointing at the same person.
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
#include "match_rows.h"
#include "remote.h"

#define BATCH      2000 /* authorships a transaction (whole blocks) */
#define FETCH_ROWS "FETCH 5000 FROM match_cur"
#define KEYS_BATCH 20000

/* orient_keys() reads both with the columns of the first. */
_Static_assert((int)HARVEST_MATCH_KEY_COUNTS__RAW_NAME ==
	    (int)HARVEST_MATCH_KEY_COUNTS_DAY__RAW_NAME &&
	(int)HARVEST_MATCH_KEY_COUNTS__N ==
	    (int)HARVEST_MATCH_KEY_COUNTS_DAY__N,
    "MATCH_KEY_COUNTS_DAY has the columns of MATCH_KEY_COUNTS");

/* A text cell, "" for NULL (borrowed until PQclear). */
static const char *
text(const PGresult *res, int r, int c)
{
	const char *v = core_cell_text(res, r, c);

	return v != NULL ? v : "";
}

struct mrun {
	struct core_db *db; /* writes */
	struct mrow *rows;
	size_t n, cap;
	struct core_pool pool; /* the rows' strings and arrays */
	struct core_buf st, gone;
	struct core_buf moves, ev; /* 0064: researchers moved whole, evidence */
	struct core_buf made;      /* new researchers, written first */
	struct core_buf renames;   /* kept ones named by a longer form */
	int64_t ids[512];          /* researchers' ids taken, not yet used */
	size_t nids;
	struct harvest_mstats *st_out;
	int day; /* the day's pass (HARVEST_MATCH_DAY) */
	/* match_evidence_min: a researcher's evidence is kept (0064) from
	 * that many authorships in a block.  Below it, its row would be
	 * written each time the researcher changes for about as many rows
	 * saved at the next read, and most researchers have a paper or two
	 * (2.2 authorships a researcher at 1.36 M papers). */
	long ev_min;
	long done, created, removed, ev_written;
	struct timespec t0;
	/* The batch being written: MATCH_APPLY and its COMMIT sent on db,
	 * their results not yet taken (apply_wait()), and its rows. */
	int applying;
	long applying_n;
	struct core_buf apply; /* that script, built once */
};

/*
 * The batch sent by flush() written: every result of its script taken,
 * its rows counted as done.  A failed statement rolls the batch back.
 * Anything else that uses the writer calls this first.
 */
static enum core_err
apply_wait(struct mrun *m)
{
	PGconn *c = core_db_conn(m->db);
	PGresult *res;
	enum core_err er = CORE_OK;

	if (!m->applying)
		return CORE_OK;
	m->applying = 0;
	while ((res = PQgetResult(c)) != NULL) {
		if (er == CORE_OK && PQresultStatus(res) != PGRES_COMMAND_OK &&
		    PQresultStatus(res) != PGRES_TUPLES_OK) {
			core_log(CORE_LOG_ERROR, "harvest.match",
			    "MATCH_APPLY: %s", PQresultErrorMessage(res));
			er = CORE_EDB;
		}
		PQclear(res);
	}
	if (er != CORE_OK) {
		if (PQtransactionStatus(c) != PQTRANS_IDLE)
			core_db_cmd(m->db, "ROLLBACK");
		return er;
	}
	m->done += m->applying_n;
	core_log(CORE_LOG_INFO, "harvest.match", "%ld authorships, %.0f/s",
	    m->done, m->done / (core_elapsed(&m->t0) + 1e-9));
	return CORE_OK;
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

/* Counts of (cluster, old researcher) pairs, for keeping ids. */
struct claim {
	size_t cluster;
	int64_t rid;
	long count;
	long key_len; /* its researcher's name key, in characters */
	int followed;
};

static int
int64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* By researcher, then cluster: a row's claims counted run by run. */
static int
claim_pair_cmp(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->rid != y->rid)
		return x->rid < y->rid ? -1 : 1;
	return x->cluster < y->cluster ? -1 : x->cluster > y->cluster;
}

/* Followed first, then the most authorships: who keeps which id. */
static int
claim_cmp(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->followed != y->followed)
		return y->followed - x->followed;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return claim_pair_cmp(a, b);
}

/* A set of researcher ids (> 0), open addressing; room for cap / 2. */
struct idset {
	int64_t *v;
	size_t mask;
};

static void
idset_init(struct idset *s, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n + 2)
		cap *= 2;
	s->v = core_xcalloc(cap, sizeof(*s->v));
	s->mask = cap - 1;
}

/* The slot of id: where it is, or the empty one where it would go. */
static size_t
idset_slot(const struct idset *s, int64_t id)
{
	size_t i =
	    (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15u) >> 17) & s->mask;

	while (s->v[i] != 0 && s->v[i] != id)
		i = (i + 1) & s->mask;
	return i;
}

static int
idset_has(const struct idset *s, int64_t id)
{
	return s->v[idset_slot(s, id)] == id;
}

static void
idset_add(struct idset *s, int64_t id)
{
	s->v[idset_slot(s, id)] = id;
}

/* Given names written out in name key k (tokens before the last, not
 * initials). */
static size_t
full_names(const char *k)
{
	size_t n = 0, len;

	for (;;) {
		while (*k == ' ')
			k++;
		for (len = 0; k[len] != '\0' && k[len] != ' '; len++)
			continue;
		if (k[len] == '\0')
			return n;
		if (len > 1 && (len > 2 || (unsigned char)*k < 0x80))
			n++;
		k += len;
	}
}

/*
 * Whether item a's name form names the person better than b's (> 0):
 * more given names written out, then the form more of the cluster's
 * items have (same[i]: how many have item i's), then the longer.
 */
static int
form_cmp(const struct harvest_mitem *it, const size_t *same, size_t a, size_t b)
{
	size_t fa = full_names(it[a].name_key), fb = full_names(it[b].name_key);

	if (fa != fb)
		return fa > fb ? 1 : -1;
	if (same[a] != same[b])
		return same[a] > same[b] ? 1 : -1;
	return strlen(it[a].name_key) > strlen(it[b].name_key) ? 1 : -1;
}

/* By cluster, then name key: same[] counted run by run. */
static int
form_order(const void *a, const void *b)
{
	const struct harvest_mitem *x = *(const struct harvest_mitem *const *)a,
				   *y = *(const struct harvest_mitem *const *)b;

	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	return strcmp(x->name_key, y->name_key);
}

/* Each cluster's best-named item: best[k] for k < nc (a row of kept
 * evidence counts as the authorships it stands for). */
static void
best_forms(const struct mrow *rows, const struct harvest_mitem *it, size_t n,
    size_t nc, size_t *best)
{
	const struct harvest_mitem **ix = core_xcalloc(n, sizeof(*ix));
	size_t *same = core_xcalloc(n, sizeof(*same)), i, s, k, w;

	for (i = 0; i < n; i++)
		ix[i] = &it[i];
	qsort(ix, n, sizeof(*ix), form_order);
	for (s = 0; s < n; s = i) {
		for (i = s + 1; i < n && ix[i]->cluster == ix[s]->cluster &&
		     strcmp(ix[i]->name_key, ix[s]->name_key) == 0;
		     i++)
			continue;
		for (w = 0, k = s; k < i; k++)
			w += (size_t)rows[ix[k] - it].weight;
		for (k = s; k < i; k++)
			same[ix[k] - it] = w;
	}
	for (k = 0; k < nc; k++)
		best[k] = n;
	for (i = 0; i < n; i++) {
		k = it[i].cluster;
		if (best[k] == n || form_cmp(it, same, i, best[k]) > 0)
			best[k] = i;
	}
	free(ix);
	free(same);
}

/* Characters of UTF-8 s. */
static long
u8chars(const char *s)
{
	long n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/*
 * The clusters' researcher ids (cid[k], 0: a new person; len[k], ext[k]:
 * its key length and whether it has an external id) from the rows'
 * old ones, and the claims counted (*cl, *ncl, sorted by claim_cmp).
 * An external id's researcher is its cluster's, whatever else; a
 * name-only researcher goes to the cluster holding most of its rows (a
 * followed one first).  In the day's pass a settled row of a researcher
 * with an external id keeps it as an external id's row would (its rows
 * may have been placed by name before the id came), and a row still to
 * decide claims nothing where a settled row has its researcher or
 * shares its cluster: its researcher is the loader's guess.
 */
static void
keep_ids(const struct mrow *rows, const struct harvest_mitem *it, size_t n,
    size_t nc, int64_t *cid, long *len, int *ext, struct idset *used,
    struct claim **clp, size_t *nclp)
{
	struct claim *cl = core_xcalloc(n + 1, sizeof(*cl));
	struct idset settled;
	int *has_settled = core_xcalloc(nc + 1, sizeof(*has_settled));
	size_t i, j, ncl = 0;

	idset_init(&settled, n);
	for (i = 0; i < n; i++)
		if (rows[i].settled) {
			has_settled[it[i].cluster] = 1;
			if (rows[i].rid > 0)
				idset_add(&settled, rows[i].rid);
		}
	for (i = 0; i < n; i++) {
		const struct mrow *r = &rows[i];

		if ((r->ext_id != NULL || (r->settled && r->rid_ext)) &&
		    r->rid > 0 && cid[it[i].cluster] == 0 &&
		    !idset_has(used, r->rid)) {
			cid[it[i].cluster] = r->rid;
			len[it[i].cluster] = r->rid_key_len;
			ext[it[i].cluster] = r->rid_ext;
			idset_add(used, r->rid);
		}
	}
	for (i = 0; i < n; i++) {
		const struct mrow *r = &rows[i];

		if (r->rid <= 0 || r->rid_ext)
			continue;
		if (!r->settled &&
		    (has_settled[it[i].cluster] || idset_has(&settled, r->rid)))
			continue;
		cl[ncl].rid = r->rid;
		cl[ncl].cluster = it[i].cluster;
		cl[ncl].followed = r->rid_followed;
		cl[ncl].key_len = r->rid_key_len;
		cl[ncl].count = r->weight;
		ncl++;
	}
	qsort(cl, ncl, sizeof(*cl), claim_pair_cmp);
	for (i = 0, j = 0; i < ncl; i++) {
		if (j > 0 && claim_pair_cmp(&cl[j - 1], &cl[i]) == 0)
			cl[j - 1].count += cl[i].count;
		else
			cl[j++] = cl[i];
	}
	ncl = j;
	qsort(cl, ncl, sizeof(*cl), claim_cmp);
	for (j = 0; j < ncl; j++)
		if (cid[cl[j].cluster] == 0 && !idset_has(used, cl[j].rid)) {
			cid[cl[j].cluster] = cl[j].rid;
			len[cl[j].cluster] = cl[j].key_len;
			idset_add(used, cl[j].rid);
		}
	free(settled.v);
	free(has_settled);
	*clp = cl;
	*nclp = ncl;
}

/* Researcher id, unless kept (in used), staged as gone to successor. */
static void
gone(struct mrun *m, struct idset *used, int64_t id, int64_t successor)
{
	char old[24], to[24];

	if (idset_has(used, id))
		return;
	snprintf(old, sizeof(old), "%" PRId64, id);
	snprintf(to, sizeof(to), "%" PRId64, successor);
	harvest_copy_row(&m->gone, (const char *const[]){ old, to }, 2);
	idset_add(used, id);
	m->removed++;
}

/*
 * A new researcher: an id taken from the sequence, its row staged for
 * flush(), which copies the batch's new researchers before the rest.
 * One statement a batch, not one a researcher: 20,000 a day at 2 M
 * papers, 2.57 M in a 2.5 M load, each firing the researchers' four
 * statement triggers.  Ids are taken ahead, as many as ids[] holds; the
 * ones a run does not use are gaps, as a rollback leaves.
 */
static enum core_err
new_researcher(struct mrun *m, const char *name, const char *key,
    const char *slug, int64_t *id)
{
	char want[24], rid[24];
	PGresult *res;
	int i, nt;
	enum core_err er;

	if (m->nids == 0) {
		snprintf(want, sizeof(want), "%zu",
		    sizeof(m->ids) / sizeof(m->ids[0]));
		if ((er = apply_wait(m)) != CORE_OK ||
		    (er = core_db_exec(m->db, HARVEST_SQL_MATCH_RESEARCHER_IDS,
			 (const char *const[]){ want }, 1, &res)) != CORE_OK)
			return er;
		nt = PQntuples(res);
		/* Used from the end: the smallest id first. */
		for (i = nt - 1; i >= 0; i--)
			m->ids[m->nids++] = core_cell_bigint(res, i,
			    HARVEST_MATCH_RESEARCHER_IDS__ID, 0);
		PQclear(res);
		if (m->nids == 0)
			return CORE_EDB;
	}
	*id = m->ids[--m->nids];
	snprintf(rid, sizeof(rid), "%" PRId64, *id);
	harvest_copy_row(&m->made,
	    (const char *const[]){ rid, name, key, slug }, 4);
	return CORE_OK;
}

/*
 * Decides rows [s, e) (one block) and stages the result: authorships in
 * m->st, researchers left without papers in m->gone, new researchers in
 * m->made and renamed ones in m->renames; flush() writes them all in the
 * batch's transaction.  The day's pass (rows that are settled) decides
 * the others against them.
 */
static enum core_err
do_block(struct mrun *m, size_t s, size_t e)
{
	struct mrow *rows = &m->rows[s];
	struct harvest_mitem *it = NULL;
	struct claim *cl = NULL;
	struct idset used, moved = { NULL, 0 };
	int64_t *cid = NULL, *sid = NULL;
	long *len = NULL;
	int *ext = NULL;
	size_t n = e - s, nc, ncl = 0, nsid = 0, i, j, k, *best = NULL;
	char pid[24], pos[24], rid[24], old[24], score[32], *slug, *name;
	const char *reason, *sc;
	enum core_err er = CORE_OK;

	it = core_xcalloc(n, sizeof(*it));
	sid = core_xcalloc(n, sizeof(*sid));
	for (i = 0; i < n; i++) {
		struct mrow *r = &rows[i];

		it[i].name_key = r->name_key;
		it[i].coauthors = r->coauthors;
		it[i].ncoauthors = r->ncoauthors;
		it[i].fields = r->fieldv;
		it[i].nfields = r->nfields;
		it[i].ext_id = r->ext_id;
		if (r->settled)
			sid[nsid++] = r->rid;
	}
	if (m->day) {
		/* A settled researcher is a cluster: its rank among them. */
		qsort(sid, nsid, sizeof(*sid), int64_cmp);
		for (i = 0, j = 0; i < nsid; i++)
			if (j == 0 || sid[j - 1] != sid[i])
				sid[j++] = sid[i];
		nsid = j;
		for (i = 0; i < n; i++) {
			int64_t *at;

			if (!rows[i].settled)
				continue;
			at = bsearch(&rows[i].rid, sid, nsid, sizeof(*sid),
			    int64_cmp);
			it[i].settled = 1;
			it[i].cluster = (size_t)(at - sid);
		}
		nc = harvest_match_place(it, n, rows[0].ambiguous, m->st_out);
	} else
		nc = harvest_match_group(it, n, m->st_out);
	cid = core_xcalloc(nc + 1, sizeof(*cid));
	len = core_xcalloc(nc + 1, sizeof(*len));
	ext = core_xcalloc(nc + 1, sizeof(*ext));
	best = core_xcalloc(nc + 1, sizeof(*best));
	idset_init(&used, n);
	idset_init(&moved, n);
	keep_ids(rows, it, n, nc, cid, len, ext, &used, &cl, &ncl);
	/*
	 * The others are new people, named by their most complete
	 * well-attested form: the most given names written out ("Adrian
	 * Del Maestro" over "A. Del Maestro"), then the form most of the
	 * cluster's papers use, then the longest.  A kept name-only
	 * researcher takes a longer best form (MATCH_APPLY refuses a
	 * shorter one: known here, without staging it).
	 */
	best_forms(rows, it, n, nc, best);
	for (k = 0; k < nc; k++) {
		const char *key = rows[best[k]].name_key;

		if (cid[k] != 0 && (ext[k] || u8chars(key) <= len[k]))
			continue;
		name = core_utf8_demojibake(rows[best[k]].raw_name, NULL);
		slug = core_slug(name, 60);
		if (cid[k] != 0) {
			/* MATCH_APPLY renames, in the order copied. */
			snprintf(rid, sizeof(rid), "%" PRId64, cid[k]);
			harvest_copy_row(&m->renames,
			    (const char *const[]){ rid, name, key, slug }, 4);
		} else if ((er = new_researcher(m, name, key, slug, &cid[k])) ==
		    CORE_OK)
			m->created++;
		free(slug);
		free(name);
		if (er != CORE_OK)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct mrow *r = &rows[i];

		/* A settled authorship whose researcher stays: nothing to
		 * write (MATCH_APPLY would skip it). */
		if (r->settled && cid[it[i].cluster] == r->rid)
			continue;
		/* A researcher kept as evidence moves whole, once. */
		if (r->evidence) {
			if (idset_has(&moved, r->rid))
				continue;
			idset_add(&moved, r->rid);
			snprintf(old, sizeof(old), "%" PRId64, r->rid);
			snprintf(rid, sizeof(rid), "%" PRId64,
			    cid[it[i].cluster]);
			harvest_copy_row(&m->moves,
			    (const char *const[]){ old, r->block, rid }, 3);
			continue;
		}
		snprintf(pid, sizeof(pid), "%" PRId64, r->paper_id);
		snprintf(pos, sizeof(pos), "%d", r->position);
		snprintf(rid, sizeof(rid), "%" PRId64, cid[it[i].cluster]);
		snprintf(old, sizeof(old), "%" PRId64, r->rid);
		snprintf(score, sizeof(score), "%.4f", it[i].score);
		/* A settled authorship keeps why it was placed. */
		reason =
		    r->settled ? r->reason : harvest_mreasons[it[i].reason];
		sc = r->settled ? r->score : score;
		harvest_copy_row(&m->st,
		    (const char *const[]){ pid, pos, rid,
			r->rid > 0 ? old : NULL, reason, sc },
		    6);
	}
	/*
	 * Old ids no cluster kept: their followers go where most went (the
	 * first claim of an id in claim_cmp's order has the most).
	 */
	for (j = 0; j < ncl; j++)
		gone(m, &used, cl[j].rid, cid[cl[j].cluster]);
	/* The loader's guesses the day's pass claimed nothing for go too,
	 * once they hold no authorship (MATCH_APPLY). */
	for (i = 0; i < n; i++)
		if (rows[i].rid > 0 && !rows[i].rid_ext)
			gone(m, &used, rows[i].rid, cid[it[i].cluster]);
	/* What the next day's pass reads of these researchers (0064); a
	 * block decided whole holds all of each one's authorships there. */
	m->ev_written +=
	    harvest_match_evidence(&m->ev, rows, it, n, cid, m->ev_min);
out:
	free(moved.v);
	free(it);
	free(sid);
	free(cid);
	free(len);
	free(ext);
	free(best);
	free(cl);
	free(used.v);
	return er;
}

/*
 * Decides rows [0, n) (whole blocks) and writes them in one transaction,
 * once the batch before is written: its staging tables by COPY, then
 * MATCH_APPLY and COMMIT sent and left to run while the caller reads
 * and decides the next batch (apply_wait() takes their results).
 */
static enum core_err
flush(struct mrun *m, size_t n)
{
	size_t s, e;
	enum core_err er;

	if (n == 0)
		return CORE_OK;
	core_buf_reset(&m->st);
	core_buf_reset(&m->gone);
	core_buf_reset(&m->moves);
	core_buf_reset(&m->ev);
	core_buf_reset(&m->made);
	core_buf_reset(&m->renames);
	for (s = 0; s < n; s = e) {
		for (e = s + 1;
		     e < n && strcmp(m->rows[e].block, m->rows[s].block) == 0;
		     e++)
			continue;
		if ((er = do_block(m, s, e)) != CORE_OK)
			return er;
	}
	if ((er = apply_wait(m)) != CORE_OK ||
	    (er = core_db_cmd(m->db, "BEGIN")) != CORE_OK)
		return er;
	/* The new researchers before the rows that name them, the renames
	 * for MATCH_APPLY. */
	if ((m->made.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_NEW,
		     &m->made)) != CORE_OK) ||
	    (m->renames.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_RENAMES,
		     &m->renames)) != CORE_OK) ||
	    (er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY, &m->st)) !=
		CORE_OK ||
	    (m->gone.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_GONE,
		     &m->gone)) != CORE_OK) ||
	    (m->moves.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_MOVES,
		     &m->moves)) != CORE_OK) ||
	    (m->ev.len > 0 &&
		(er = harvest_copy_in(m->db, HARVEST_SQL_MATCH_COPY_EVIDENCE,
		     &m->ev)) != CORE_OK))
		goto rollback;
	if (m->apply.len == 0)
		core_buf_printf(&m->apply, "%s;\nCOMMIT;",
		    harvest_sql[HARVEST_SQL_MATCH_APPLY].sql);
	if (PQsendQuery(core_db_conn(m->db), core_buf_cstr(&m->apply)) != 1) {
		core_log(CORE_LOG_ERROR, "harvest.match", "MATCH_APPLY: %s",
		    PQerrorMessage(core_db_conn(m->db)));
		er = CORE_EDB;
		goto rollback;
	}
	m->applying = 1;
	m->applying_n = (long)n;
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

/*
 * Family-name-first keys ("priem jason") turned where the other forms of
 * the database say so (harvest_name_orient()), in one statement.  The
 * day's pass weighs and turns the forms of the authorships it decides
 * only (every raw name of the database is minutes of name.c at 1 M
 * papers): a form turned by the whole database waits for --full.
 */
static enum core_err
orient_keys(struct core_db *db, enum harvest_match_mode mode)
{
	int day = mode == HARVEST_MATCH_DAY;

	struct core_buf from = CORE_BUF_INIT, to = CORE_BUF_INIT;
	PGresult *res = NULL;
	json_t *cnt = json_object(), *v;
	const char **keys, *ck;
	char **rot, *k;
	long *counts;
	size_t n, i, turned = 0;
	int r, nr;
	enum core_err er;

	if ((er = core_db_exec(db,
		 day ? HARVEST_SQL_MATCH_KEY_COUNTS_DAY
		     : HARVEST_SQL_MATCH_KEY_COUNTS,
		 NULL, 0, &res)) != CORE_OK) {
		json_decref(cnt);
		return er;
	}
	/* The keys name.c makes of the raw names, and their counts. */
	nr = PQntuples(res);
	for (r = 0; r < nr; r++) {
		k = harvest_name_key(
		    text(res, r, HARVEST_MATCH_KEY_COUNTS__RAW_NAME));
		if (*k != '\0') {
			v = json_object_get(cnt, k);
			json_object_set_new(cnt, k,
			    json_integer(json_integer_value(v) +
				core_cell_bigint(res, r,
				    HARVEST_MATCH_KEY_COUNTS__N, 0)));
		}
		free(k);
	}
	PQclear(res);
	res = NULL;
	n = json_object_size(cnt);
	keys = core_xcalloc(n + 1, sizeof(*keys));
	counts = core_xcalloc(n + 1, sizeof(*counts));
	i = 0;
	json_object_foreach(cnt, ck, v)
	{
		keys[i] = ck;
		counts[i++] = (long)json_integer_value(v);
	}
	rot = harvest_name_orient(keys, counts, n);
	for (i = 0; i < n; i++) {
		if (rot[i] == NULL)
			continue;
		harvest_array_add(&from, keys[i]);
		harvest_array_add(&to, rot[i]);
		turned++;
		free(rot[i]);
	}
	core_buf_putc(&from, '}');
	core_buf_putc(&to, '}');
	free(rot);
	free(keys);
	free(counts);
	if (turned > 0) {
		er = core_db_exec(db,
		    day ? HARVEST_SQL_MATCH_KEYS_TURN_DAY
			: HARVEST_SQL_MATCH_KEYS_TURN,
		    (const char *const[]){ core_buf_cstr(&from),
			core_buf_cstr(&to) },
		    2, &res);
		PQclear(res);
		core_log(CORE_LOG_INFO, "harvest.match",
		    "%zu family-name-first name forms read given names first",
		    turned);
	}
	core_buf_free(&from);
	core_buf_free(&to);
	json_decref(cnt);
	return er;
}

/* Text cell (i, c) copied into m's pool ("" for NULL). */
static char *
keep_text(struct mrun *m, const PGresult *res, int i, int c)
{
	return core_pool_keep(&m->pool, core_xstrdup(text(res, i, c)));
}

/* Row i of a MATCH_ROW_COLUMNS result into m->rows. */
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
	r->block = keep_text(m, res, i, HARVEST_MATCH_ROW__BLOCK);
	r->paper_id = core_cell_bigint(res, i, HARVEST_MATCH_ROW__PAPER_ID, 0);
	r->position = core_cell_int(res, i, HARVEST_MATCH_ROW__POSITION, 0);
	r->raw_name = keep_text(m, res, i, HARVEST_MATCH_ROW__RAW_NAME);
	r->name_key = keep_text(m, res, i, HARVEST_MATCH_ROW__NAME_KEY);
	r->rid = core_cell_bigint(res, i, HARVEST_MATCH_ROW__RESEARCHER_ID, 0);
	r->ext_id = core_cell_isnull(res, i, HARVEST_MATCH_ROW__EXT_ID)
	    ? NULL
	    : keep_text(m, res, i, HARVEST_MATCH_ROW__EXT_ID);
	r->rid_ext = core_cell_bool(res, i, HARVEST_MATCH_ROW__HAS_EXT_ID, 0);
	r->rid_key_len = core_cell_bigint(res, i,
	    HARVEST_MATCH_ROW__RESEARCHER_KEY_LENGTH, 0);
	r->rid_followed =
	    core_cell_bool(res, i, HARVEST_MATCH_ROW__FOLLOWED, 0);
	r->coauth = keep_text(m, res, i, HARVEST_MATCH_ROW__COAUTHORS);
	r->fields = keep_text(m, res, i, HARVEST_MATCH_ROW__CATEGORIES);
	r->settled = core_cell_bool(res, i, HARVEST_MATCH_ROW__SETTLED, 0);
	r->reason = keep_text(m, res, i, HARVEST_MATCH_ROW__MATCH_REASON);
	r->score = core_cell_isnull(res, i, HARVEST_MATCH_ROW__MATCH_SCORE)
	    ? NULL
	    : keep_text(m, res, i, HARVEST_MATCH_ROW__MATCH_SCORE);
	r->published = core_cell_isnull(res, i, HARVEST_MATCH_ROW__PUBLISHED)
	    ? NULL
	    : keep_text(m, res, i, HARVEST_MATCH_ROW__PUBLISHED);
	r->weight = core_cell_bigint(res, i, HARVEST_MATCH_ROW__WEIGHT, 1);
	r->evidence = core_cell_bool(res, i, HARVEST_MATCH_ROW__EVIDENCE, 0);
	r->ncoauthors = split(r->coauth, &r->coauthors);
	core_pool_keep(&m->pool, r->coauthors);
	/* The paper's authors include this one: drop its name once (kept
	 * evidence holds the co-authors only). */
	for (j = 0; j < r->ncoauthors && !r->evidence; j++)
		if (strcmp(r->coauthors[j], r->name_key) == 0) {
			r->coauthors[j] = r->coauthors[--r->ncoauthors];
			break;
		}
	r->nfields = split(r->fields, &r->fieldv);
	core_pool_keep(&m->pool, r->fieldv);
}

/* Row i of res, whose block is block: the batch flushed first when it
 * is full and a block ends here. */
static enum core_err
add_row(struct mrun *m, PGresult *res, int i, const char *block)
{
	enum core_err er;

	if (m->n >= BATCH && strcmp(m->rows[m->n - 1].block, block) != 0) {
		if ((er = flush(m, m->n)) != CORE_OK)
			return er;
		core_pool_free(&m->pool);
		m->n = 0;
	}
	take_row(m, res, i);
	return CORE_OK;
}

/*
 * The blocks this match reads taken (0058), on the writer, before the
 * reader's snapshot; their number logged.  The writer's own writes note
 * no block from here on.
 */
static enum core_err
take_blocks(struct core_db *db, enum harvest_match_mode mode)
{
	static const char *const said[] = {
		[HARVEST_MATCH_DAY] = ", changed since the last match",
		[HARVEST_MATCH_BLOCKS] =
		    ", changed since the last match (decided whole)",
		[HARVEST_MATCH_FULL] = " (--full)",
	};
	PGresult *res = NULL;
	enum core_err er;

	if ((er = core_db_cmd(db,
		 harvest_sql[mode == HARVEST_MATCH_FULL
			 ? HARVEST_SQL_MATCH_TAKE_ALL
			 : HARVEST_SQL_MATCH_TAKE]
		     .sql)) != CORE_OK ||
	    (mode != HARVEST_MATCH_DAY &&
		(er = core_db_cmd(db,
		     harvest_sql[mode == HARVEST_MATCH_FULL
			     ? HARVEST_SQL_MATCH_EVIDENCE_DROP_ALL
			     : HARVEST_SQL_MATCH_EVIDENCE_DROP_TAKEN]
			 .sql)) != CORE_OK) ||
	    (er = core_db_exec(db, HARVEST_SQL_MATCH_TAKEN, NULL, 0, &res)) !=
		CORE_OK ||
	    (er = core_db_cmd(db, "SET weft.matcher = on")) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "harvest.match", "%s name blocks to read%s",
	    core_cell_text(res, 0, HARVEST_MATCH_TAKEN__BLOCKS), said[mode]);
out:
	PQclear(res);
	return er;
}

/* Rows of the cursor over the taken blocks (MATCH_DECLARE), decided
 * block by block. */
static enum core_err
read_blocks(struct mrun *m, struct core_db *rd)
{
	PGresult *res = NULL;
	int nt, r;
	enum core_err er;

	if ((er = core_db_cmd(rd,
		 harvest_sql[HARVEST_SQL_MATCH_DECLARE].sql)) != CORE_OK)
		return er;
	for (;;) {
		res = PQexec(core_db_conn(rd), FETCH_ROWS);
		if (PQresultStatus(res) != PGRES_TUPLES_OK) {
			core_log(CORE_LOG_ERROR, "harvest.match", "read: %s",
			    PQresultErrorMessage(res));
			er = CORE_EDB;
			break;
		}
		/* The cursor's query is not prepared: check its columns. */
		if ((er = core_db_columns(&harvest_sql
					      [HARVEST_SQL_MATCH_DECLARE],
			 res)) != CORE_OK ||
		    (nt = PQntuples(res)) == 0)
			break;
		for (r = 0; r < nt && er == CORE_OK; r++)
			er = add_row(m, res, r,
			    text(res, r, HARVEST_MATCH_ROW__BLOCK));
		if (er != CORE_OK)
			break;
		PQclear(res);
	}
	PQclear(res);
	return er;
}

/* A script with parameters on the reader, its columns checked. */
static enum core_err
rd_query(struct core_db *rd, int stmt, const char *const *params, int np,
    PGresult **res)
{
	enum core_err er;

	*res = NULL;
	if ((er = harvest_send(rd, stmt, params, np)) != CORE_OK)
		return er;
	return harvest_wait(rd, stmt, res);
}

/* A read's candidates, (researcher, block) pairs as two arrays. */
struct cand {
	struct core_buf ids, blocks;
};

/*
 * The day's candidates in the blocks of keys (MATCH_DAY_KEYS: the keys
 * to decide, researcher 0, the blocks' researchers, and the sure ones):
 * into c, each researcher whose key can name one of the keys to decide,
 * and each sure one, with its block; into amb, the blocks whose
 * initials are ambiguous.
 */
static void
day_candidates(PGresult *keys, struct cand *c, struct core_sset *amb,
    long *ncand)
{
	const char **k = NULL;
	int64_t *rid = NULL;
	int *sure = NULL;
	size_t cap = 0, n, ntodo, i, j;
	int nt = PQntuples(keys), s, e, ambiguous;
	char num[24];

	for (s = 0; s < nt; s = e) {
		const char *block =
		    text(keys, s, HARVEST_MATCH_DAY_KEYS__BLOCK);

		for (e = s + 1; e < nt &&
		     strcmp(text(keys, e, HARVEST_MATCH_DAY_KEYS__BLOCK),
			 block) == 0;
		     e++)
			continue;
		if ((size_t)(e - s) > cap) {
			cap = (size_t)(e - s);
			k = core_xrealloc(k, cap * sizeof(*k));
			rid = core_xrealloc(rid, cap * sizeof(*rid));
			sure = core_xrealloc(sure, cap * sizeof(*sure));
		}
		for (n = 0, ntodo = 0; n < (size_t)(e - s); n++) {
			int r = s + (int)n;

			k[n] = text(keys, r, HARVEST_MATCH_DAY_KEYS__NAME_KEY);
			rid[n] = core_cell_bigint(keys, r,
			    HARVEST_MATCH_DAY_KEYS__RESEARCHER_ID, 0);
			sure[n] = core_cell_bool(keys, r,
			    HARVEST_MATCH_DAY_KEYS__SURE, 0);
			ntodo += rid[n] == 0;
		}
		ambiguous = harvest_match_ambiguous(k, n);
		if (ambiguous)
			(void)core_sset_add(amb, block);
		/* Researcher 0 first (ORDER BY): k[0..ntodo) to decide. */
		for (i = ntodo; i < n; i++)
			for (j = 0; j < ntodo || sure[i]; j++)
				if (sure[i] || strcmp(k[i], k[j]) == 0 ||
				    harvest_name_compatible(k[j], k[i],
					ambiguous)) {
					snprintf(num, sizeof(num), "%" PRId64,
					    rid[i]);
					harvest_array_add(&c->ids, num);
					harvest_array_add(&c->blocks, block);
					(*ncand)++;
					break;
				}
	}
	free(k);
	free(rid);
	free(sure);
}

/* One read of the day's pass: its blocks, the candidates' keys (which
 * amb borrows from) and researchers. */
struct day_read {
	struct core_buf blocks;
	struct cand c;
	PGresult *keys;
	struct core_sset amb; /* its ambiguous blocks */
};

static void
day_read_clear(struct day_read *d)
{
	PQclear(d->keys);
	d->keys = NULL;
	core_sset_free(&d->amb);
	memset(&d->amb, 0, sizeof(d->amb));
}

/* Read d of blocks [b0, b0 + per) of all: its candidates, then its
 * rows' query sent, not waited for. */
static enum core_err
day_send(struct core_db *rd, const PGresult *all, int b0, int per,
    struct day_read *d, long *ncand)
{
	int b, nb = PQntuples(all);
	enum core_err er;

	core_buf_reset(&d->blocks);
	core_buf_reset(&d->c.ids);
	core_buf_reset(&d->c.blocks);
	for (b = b0; b < nb && b < b0 + per; b++)
		harvest_array_add(&d->blocks,
		    text(all, b, HARVEST_MATCH_DAY_BLOCKS__BLOCK));
	core_buf_putc(&d->blocks, '}');
	if ((er = rd_query(rd, HARVEST_SQL_MATCH_DAY_KEYS,
		 (const char *const[]){ core_buf_cstr(&d->blocks) }, 1,
		 &d->keys)) != CORE_OK)
		return er;
	day_candidates(d->keys, &d->c, &d->amb, ncand);
	if (d->c.ids.len == 0) {
		core_buf_putc(&d->c.ids, '{');
		core_buf_putc(&d->c.blocks, '{');
	}
	core_buf_putc(&d->c.ids, '}');
	core_buf_putc(&d->c.blocks, '}');
	return harvest_send(rd, HARVEST_SQL_MATCH_DAY_ROWS,
	    (const char *const[]){ core_buf_cstr(&d->blocks),
		core_buf_cstr(&d->c.ids), core_buf_cstr(&d->c.blocks) },
	    3);
}

/*
 * The day's pass (HARVEST_MATCH_DAY): the taken blocks, match_day_blocks
 * (500, kept within 1-100,000) at a time, each read as its authorships
 * to decide and the settled ones of its candidate researchers
 * (MATCH_DAY_ROWS).  Two reads in flight: the reader's backend computes
 * the next read's rows while this process decides the last one's and
 * the writer writes them (the reader's snapshot never sees those
 * writes, so the order changes nothing).
 */
static enum core_err
read_day(struct mrun *m, const struct core_conf *conf, struct core_db *rd)
{
	struct day_read d[2];
	PGresult *all = NULL, *res = NULL;
	long ncand = 0, nread = 0, nsettled = 0, nev = 0;
	int nb, b0, r, nt, cur = 0;
	long blocks = core_conf_int(conf, "match_day_blocks", 500);
	int per = blocks < 1 ? 1 : blocks > 100000 ? 100000 : (int)blocks;
	enum core_err er;

	memset(d, 0, sizeof(d));
	if ((er = rd_query(rd, HARVEST_SQL_MATCH_DAY_BLOCKS, NULL, 0, &all)) !=
	    CORE_OK)
		goto out;
	nb = PQntuples(all);
	if (nb > 0 &&
	    (er = day_send(rd, all, 0, per, &d[0], &ncand)) != CORE_OK)
		goto out;
	for (b0 = 0; b0 < nb; b0 += per, cur ^= 1) {
		if ((er = harvest_wait(rd, HARVEST_SQL_MATCH_DAY_ROWS, &res)) !=
		    CORE_OK)
			goto out;
		if (b0 + per < nb &&
		    (er = day_send(rd, all, b0 + per, per, &d[cur ^ 1],
			 &ncand)) != CORE_OK)
			goto out;
		nt = PQntuples(res);
		for (r = 0; r < nt; r++) {
			const char *block =
			    text(res, r, HARVEST_MATCH_ROW__BLOCK);

			if ((er = add_row(m, res, r, block)) != CORE_OK)
				goto out;
			m->rows[m->n - 1].ambiguous =
			    core_sset_has(&d[cur].amb, block);
			nsettled += m->rows[m->n - 1].settled;
			nev += m->rows[m->n - 1].evidence;
		}
		nread += nt;
		PQclear(res);
		res = NULL;
		day_read_clear(&d[cur]);
	}
	core_log(CORE_LOG_INFO, "harvest.match",
	    "the day's pass read %ld authorships in %d reads: %ld to decide, "
	    "%ld settled ones, and %ld name forms of kept evidence (0064), of "
	    "%ld researchers whose names fit",
	    nread - nev, (nb + per - 1) / per, nread - nsettled, nsettled - nev,
	    nev, ncand);
out:
	PQclear(all);
	PQclear(res);
	for (r = 0; r < 2; r++) {
		day_read_clear(&d[r]);
		core_buf_free(&d[r].blocks);
		core_buf_free(&d[r].c.ids);
		core_buf_free(&d[r].c.blocks);
	}
	return er;
}

/*
 * The day's pass runs as --full once match_full_days (7; 0: never)
 * passed since the last full match, so that the decisions it does not
 * revisit (forms only the whole database turns, people a day's papers
 * show to be one) are made again on a schedule.
 */
static enum core_err
full_due(const struct core_conf *conf, struct core_db *db,
    enum harvest_match_mode *mode)
{
	long days = core_conf_int(conf, "match_full_days", 7);
	PGresult *res = NULL;
	char d[24];
	enum core_err er;

	if (days <= 0)
		return CORE_OK;
	snprintf(d, sizeof(d), "%ld", days);
	if ((er = core_db_exec(db, HARVEST_SQL_MATCH_FULL_DUE,
		 (const char *const[]){ d }, 1, &res)) != CORE_OK)
		return er;
	if (core_cell_bool(res, 0, HARVEST_MATCH_FULL_DUE__DUE, 0)) {
		core_log(CORE_LOG_INFO, "harvest.match",
		    "the last full match was on %s, more than %ld days ago: "
		    "this one decides every block (match_full_days)",
		    core_cell_text(res, 0, HARVEST_MATCH_FULL_DUE__FULL_AT),
		    days);
		*mode = HARVEST_MATCH_FULL;
	}
	PQclear(res);
	return CORE_OK;
}

enum core_err
harvest_match_run(const struct core_conf *conf, struct core_db *db,
    enum harvest_match_mode mode, struct harvest_mstats *st)
{
	static const int recompute[] = {
		[HARVEST_MATCH_DAY] = HARVEST_SQL_MATCH_RECOMPUTE_DAY,
		[HARVEST_MATCH_BLOCKS] = HARVEST_SQL_MATCH_RECOMPUTE_TAKEN,
		[HARVEST_MATCH_FULL] = HARVEST_SQL_RECOMPUTE,
	};
	struct harvest_mstats local;
	struct core_db *rd = NULL;
	struct mrun m;
	enum core_err er;

	memset(&m, 0, sizeof(m));
	memset(&local, 0, sizeof(local));
	m.db = db;
	m.st_out = st != NULL ? st : &local;
	clock_gettime(CLOCK_MONOTONIC, &m.t0);
	if (mode == HARVEST_MATCH_DAY &&
	    (er = full_due(conf, db, &mode)) != CORE_OK)
		goto out;
	m.day = mode == HARVEST_MATCH_DAY;
	/* A day's pass reads what it reads by key, at random; the whole
	 * rebuild and a first load's blocks read their tables whole. */
	if (m.day)
		harvest_prewarm(db, "match");
	m.ev_min = core_conf_int(conf, "match_evidence_min", 4);
	if ((er = core_db_cmd(db,
		 harvest_sql[HARVEST_SQL_MATCH_STAGE_CREATE].sql)) != CORE_OK ||
	    (er = fill_keys(db)) != CORE_OK ||
	    (er = orient_keys(db, mode)) != CORE_OK ||
	    (er = take_blocks(db, mode)) != CORE_OK)
		goto out;
	/* The reader's snapshot is taken after the keys are in. */
	if ((er = harvest_connect(conf, HARVEST_NMIGRATE, &rd)) != CORE_OK ||
	    (er = core_db_cmd(rd, "SET jit = off")) != CORE_OK ||
	    (er = core_db_cmd(rd,
		 "BEGIN ISOLATION LEVEL REPEATABLE READ "
		 "READ ONLY")) != CORE_OK)
		goto out;
	if ((er = mode == HARVEST_MATCH_DAY ? read_day(&m, conf, rd)
					    : read_blocks(&m, rd)) != CORE_OK ||
	    (er = flush(&m, m.n)) != CORE_OK ||
	    (er = apply_wait(&m)) != CORE_OK)
		goto out;
	core_db_cmd(rd, "COMMIT");

	/* Counts and fully_matched, in one transaction with the notes'
	 * end. */
	if ((er = core_db_cmd(db, "BEGIN")) != CORE_OK)
		goto out;
	if ((er = core_db_cmd(db, harvest_sql[recompute[mode]].sql)) !=
	    CORE_OK) {
		core_db_cmd(db, "ROLLBACK");
		goto out;
	}
	er = core_db_cmd(db, "COMMIT");
	core_log(CORE_LOG_INFO, "harvest.match",
	    "%ld authorships in %.1f s: %ld new researchers, %ld merged away; "
	    "evidence of %ld researchers kept",
	    m.done, core_elapsed(&m.t0), m.created, m.removed, m.ev_written);
out:
	/* A batch still being written when something else failed: its
	 * results taken (it commits, or rolls back on a failure of its
	 * own); a failed statement left the writer's transaction aborted. */
	(void)apply_wait(&m);
	if (PQtransactionStatus(core_db_conn(db)) == PQTRANS_IDLE)
		core_db_cmd(db, "RESET weft.matcher");
	core_pool_free(&m.pool);
	free(m.rows);
	core_buf_free(&m.st);
	core_buf_free(&m.gone);
	core_buf_free(&m.moves);
	core_buf_free(&m.ev);
	core_buf_free(&m.made);
	core_buf_free(&m.renames);
	core_buf_free(&m.apply);
	core_db_close(rd);
	return er;
}

void
harvest_match_print_stats(const char *what, const struct harvest_mstats *st)
{
	printf("%s: %ld name blocks, %ld same-name groups, %ld researchers; "
	       "%ld same-name groups split into %ld researchers; %ld cluster "
	       "merges; joins: %ld by co-authors, %ld by fields, %ld across "
	       "name forms\n",
	    what, st->blocks, st->groups, st->clusters, st->split_blocks,
	    st->split_into, st->merges, st->joins_coauthors, st->joins_fields,
	    st->initials);
}

int
harvest_match(const struct core_conf *conf, enum harvest_match_mode mode,
    int refresh)
{
	struct harvest_mstats st;
	struct core_db *db = NULL;
	int rc = HARVEST_EXIT_FAIL;

	memset(&st, 0, sizeof(st));
	if (harvest_connect_migrated(conf, "harvest.match", &db) != CORE_OK ||
	    harvest_match_run(conf, db, mode, &st) != CORE_OK)
		goto out;
	harvest_match_print_stats("matched", &st);
	if (refresh &&
	    harvest_after_write(conf, db, HARVEST_AFTER_BULK) != CORE_OK)
		goto out;
	rc = HARVEST_EXIT_OK;
out:
	core_db_close(db);
	return rc;
}
