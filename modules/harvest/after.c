/*
 * after.c -- what every writer does once its rows are committed, so that
 * production needs no script around weft-harvest: the derived tables of
 * the researcher page (0009, 0011, 0013), the planner's statistics and
 * search's word frequencies brought up to date (AFTER_BULK, after load
 * and match), then every cached page made stale (a new cache generation
 * in Redis).  After a harvest batch (AFTER_BATCH) only the latter: the
 * batch's papers are attached to researchers by the match that follows
 * the harvest (the timer and cron run it next), whose AFTER_BULK
 * refreshes the derived tables once.  Redis being down is not an error:
 * cached pages then expire by their TTL.
 *
 * The refresh is incremental (0036): the writers' triggers note the
 * papers, researchers and search vectors they changed, and the refresh
 * recomputes only the researchers those notes reach and moves the
 * lexeme counts by the vectors that came and went.  AFTER_FULL (and
 * "weft-harvest refresh --full") recomputes everything instead; both
 * give the same rows (tests/integration/t_refresh.sh); after a refresh
 * of every row, the tables it rewrote are vacuumed (AFTER_FULL_VACUUM).
 * The papers' cards, the search terms and the name words (0075, 0076),
 * which keep notes of their own and write tables the rest does not
 * read, are refreshed on a second connection meanwhile: a second core's
 * work.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"

/* A new cache generation; logs and carries on without Redis. */
static void
bump_cache(const struct core_conf *conf)
{
	struct core_redis *rd;

	if ((rd = core_redis_open(conf)) == NULL)
		return;
	if (core_cache_bump(rd) != CORE_OK)
		core_log(CORE_LOG_WARN, "harvest.after",
		    "Redis (%s) did not take the new cache generation; "
		    "cached pages expire by their TTL instead",
		    core_redis_where(rd));
	core_redis_close(rd);
}

/*
 * The search windows due (0048, 0053, 0056).  A citation window is a
 * partial index of papers, built again where it holds far more or far
 * less than its share or lacks the categories: the new index built
 * CONCURRENTLY (searches and writers never wait), then the window row
 * pointed at it, then the old index dropped CONCURRENTLY.  A date
 * window's rows are a table (0087, 0088): SEARCH_WINDOW_SET moves them
 * with its date, nothing is built.  A window that fails stays as it
 * was (searches take the other ways): a warning, not an error.  Prints
 * what it built or set.
 */
void
harvest_build_windows(struct core_db *db)
{
	struct timespec t0;
	PGresult *due = NULL, *set = NULL;
	const char *params[3], *pre, *ddl, *drop, *what;
	int r;

	if (core_db_exec(db, HARVEST_SQL_SEARCH_WINDOWS_DUE, NULL, 0, &due) !=
	    CORE_OK)
		goto fail;
	for (r = 0; r < PQntuples(due); r++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pre = core_cell_text(due, r, HARVEST_SEARCH_WINDOWS_DUE__PRE);
		params[0] =
		    core_cell_text(due, r, HARVEST_SEARCH_WINDOWS_DUE__NAME);
		params[1] =
		    core_cell_text(due, r, HARVEST_SEARCH_WINDOWS_DUE__BOUND);
		what = core_cell_text(due, r, HARVEST_SEARCH_WINDOWS_DUE__WHAT);
		params[2] = core_cell_text(due, r,
		    HARVEST_SEARCH_WINDOWS_DUE__INDEX_NAME);
		ddl = core_cell_text(due, r, HARVEST_SEARCH_WINDOWS_DUE__DDL);
		if ((pre != NULL && core_db_cmd(db, pre) != CORE_OK) ||
		    (ddl != NULL && core_db_cmd(db, ddl) != CORE_OK) ||
		    core_db_exec(db, HARVEST_SQL_SEARCH_WINDOW_SET, params, 3,
			&set) != CORE_OK)
			goto fail;
		drop = core_cell_text(set, 0, HARVEST_SEARCH_WINDOW_SET__DROP);
		if (drop != NULL && core_db_cmd(db, drop) != CORE_OK)
			goto fail;
		PQclear(set);
		set = NULL;
		printf("search window %s: %s, %s in %.1f s\n", params[0],
		    what != NULL ? what : "", ddl != NULL ? "built" : "set",
		    core_elapsed(&t0));
	}
	PQclear(due);
	return;
fail:
	core_log(CORE_LOG_WARN, "harvest.after",
	    "building a search window failed; searches take the other ways "
	    "until the next refresh builds it");
	PQclear(set);
	PQclear(due);
}

/*
 * BESIDE_REFRESH (the cards, search terms and name words: 0075, 0076)
 * sent on a connection of its own, to run beside DERIVED_REFRESH; NULL
 * when it could not be: refresh() then runs it after DERIVED_REFRESH,
 * on the first connection.
 */
static struct core_db *
beside_send(const struct core_conf *conf, const char *const *params)
{
	struct core_db *b = NULL;

	if (harvest_connect(conf, HARVEST_NMIGRATE, &b) == CORE_OK &&
	    harvest_send(b, HARVEST_SQL_BESIDE_REFRESH, params, 1) == CORE_OK)
		return b;
	core_db_close(b);
	return NULL;
}

/* BESIDE_REFRESH ended, into *res: on b, sent by beside_send(), or run
 * on db when b is NULL. */
static enum core_err
beside_wait(struct core_db *db, struct core_db *b, const char *const *params,
    PGresult **res)
{
	if (b != NULL)
		return harvest_wait(b, HARVEST_SQL_BESIDE_REFRESH, res);
	return core_db_exec(db, HARVEST_SQL_BESIDE_REFRESH, params, 1, res);
}

/* Whether DERIVED_REFRESH, which succeeded into res, took its all-rows
 * path: asked (--full), or of its own accord (a first load, or more of
 * the papers changed than weft.refresh_full_share): its answer then
 * begins "full:" (weft_derived_refresh, 0076). */
static int
refreshed_whole(const PGresult *res)
{
	const char *what =
	    core_cell_text(res, 0, HARVEST_DERIVED_REFRESH__WHAT);

	return what != NULL && strncmp(what, "full:", 5) == 0;
}

void
harvest_prewarm(struct core_db *db, const char *step)
{
	struct timespec t0;
	PGresult *res = NULL;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (core_db_exec(db, HARVEST_SQL_PREWARM, (const char *const[]){ step },
		1, &res) == CORE_OK)
		printf("prewarmed for the %s: %s in %.1f s\n", step,
		    core_cell_text(res, 0, HARVEST_PREWARM__WHAT),
		    core_elapsed(&t0));
	else
		core_log(CORE_LOG_WARN, "harvest.after",
		    "reading the %s's tables ahead failed; it reads them as "
		    "it goes",
		    step);
	PQclear(res);
}

/* Statistics, the derived tables and the cards, search terms and name
 * words beside them, their statistics, the stale marks of more than a
 * week ago gone, the consumed notes' space back (and, after an all-rows
 * refresh, the tables it rewrote vacuumed); prints what it did. */
static enum core_err
refresh(const struct core_conf *conf, struct core_db *db, int full)
{
	struct timespec t0;
	PGresult *res = NULL, *bres = NULL;
	struct core_db *beside = NULL;
	const char *params[1] = { full ? "true" : "false" };
	enum core_err er, ber;

	clock_gettime(CLOCK_MONOTONIC, &t0); /* the prewarm counted in */
	if (!full) /* --full reads its tables whole anyway */
		harvest_prewarm(db, "refresh");
	/* Each ANALYZE decision reads this session's writes too: flushed
	 * first (STATS_FLUSH, its own round trip), or they would count as
	 * written after the ANALYZE. */
	if ((er = core_db_cmd(db, harvest_sql[HARVEST_SQL_STATS_FLUSH].sql)) ==
		CORE_OK &&
	    (er = core_db_cmd(db, harvest_sql[HARVEST_SQL_AFTER_BULK].sql)) ==
		CORE_OK) {
		beside = beside_send(conf, params);
		er = core_db_exec(db, HARVEST_SQL_DERIVED_REFRESH, params, 1,
		    &res);
		/* Independent of the rest: it ends (or runs, without a
		 * second connection) whatever the first did. */
		ber = beside_wait(db, beside, params, &bres);
		core_db_close(beside);
		if (er == CORE_OK)
			er = ber;
	}
	if (er != CORE_OK ||
	    (er = core_db_cmd(db, harvest_sql[HARVEST_SQL_STATS_FLUSH].sql)) !=
		CORE_OK ||
	    (er = core_db_cmd(db,
		 harvest_sql[HARVEST_SQL_AFTER_DERIVED].sql)) != CORE_OK ||
	    (er = core_db_cmd(db, harvest_sql[HARVEST_SQL_STALE_PRUNE].sql)) !=
		CORE_OK ||
	    (er = core_db_cmd(db, harvest_sql[HARVEST_SQL_AFTER_VACUUM].sql)) !=
		CORE_OK ||
	    (refreshed_whole(res) &&
		(er = core_db_cmd(db,
		     harvest_sql[HARVEST_SQL_AFTER_FULL_VACUUM].sql)) !=
		    CORE_OK)) {
		core_log(CORE_LOG_ERROR, "harvest.after",
		    "refreshing the derived tables failed; the data itself "
		    "is committed: run weft-harvest refresh to retry");
		goto out;
	}
	printf("derived tables, statistics and search terms refreshed (%s; "
	       "beside: %s) in %.1f s; cached pages are stale\n",
	    core_cell_text(res, 0, HARVEST_DERIVED_REFRESH__WHAT),
	    core_cell_text(bres, 0, HARVEST_BESIDE_REFRESH__WHAT),
	    core_elapsed(&t0));
	harvest_build_windows(db);
out:
	PQclear(res);
	PQclear(bres);
	return er;
}

enum core_err
harvest_after_write(const struct core_conf *conf, struct core_db *db,
    enum harvest_after how)
{
	enum core_err er;

	if (how != HARVEST_AFTER_BATCH &&
	    (er = refresh(conf, db, how == HARVEST_AFTER_FULL)) != CORE_OK)
		return er;
	bump_cache(conf);
	return CORE_OK;
}

struct refresh_args {
	int full;
};

static int
run_refresh(const struct core_conf *conf, void *args)
{
	const struct refresh_args *a = args;
	struct core_db *db = NULL;
	int rc = HARVEST_EXIT_FAIL;

	if (harvest_connect(conf, HARVEST_NPREPARED, &db) == CORE_OK &&
	    harvest_after_write(conf, db,
		a->full ? HARVEST_AFTER_FULL : HARVEST_AFTER_BULK) == CORE_OK)
		rc = HARVEST_EXIT_OK;
	core_db_close(db);
	return rc;
}

static const struct core_opt refresh_opts[] = {
	{ "--full", CORE_OPT_FLAG, offsetof(struct refresh_args, full), NULL,
	    NULL, "recompute every derived row, not only what changed" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

const struct core_cmd harvest_cmds_refresh[] = {
	{ .name = "refresh",
	    .opts = refresh_opts,
	    .args_size = sizeof(struct refresh_args),
	    .summary = "bring the derived tables up to date",
	    .help =
		"What load and match run at their end: the planner's "
		"statistics, then the\n"
		"co-author pairs, researcher stats, evidence, paper cards and "
		"search terms\n"
		"recomputed for what the writers changed since the last "
		"refresh (every\n"
		"row with --full: the same result, slower), then a new cache "
		"generation.",
	    .run_opts = run_refresh },
	{ .name = NULL },
};
