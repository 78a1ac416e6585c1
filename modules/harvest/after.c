/*
 * after.c -- what every writer does once its rows are committed, so that
 * production needs no script around weft-harvest: the derived tables of
 * the researcher page (0009), the planner's statistics and search's word
 * frequencies brought up to date (AFTER_BULK, after load and match), then
 * every cached page made stale (a new cache generation in Redis).  After
 * a harvest batch (AFTER_BATCH) only the latter: the batch's papers are
 * attached to researchers by the match that follows the harvest (the
 * timer and cron run it next), whose AFTER_BULK refreshes the derived
 * tables once -- refreshing them after every batch took seconds each and
 * held the harvest between two requests to the source.  Redis being
 * down is not an error: cached pages then expire by their TTL.
 */
#include <stdio.h>
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

enum core_err
harvest_after_write(const struct core_conf *conf, struct core_db *db,
    enum harvest_after how)
{
	struct timespec t0;
	enum core_err er;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (how == HARVEST_AFTER_BULK &&
	    (er = core_db_cmd(db, harvest_sql[HARVEST_SQL_AFTER_BULK].sql)) !=
		CORE_OK) {
		core_log(CORE_LOG_ERROR, "harvest.after",
		    "refreshing the derived tables failed; the data itself "
		    "is committed: run weft-harvest match to retry");
		return er;
	}
	bump_cache(conf);
	if (how == HARVEST_AFTER_BULK)
		printf("derived tables, statistics and search terms "
		       "refreshed in %.1f s; cached pages are stale\n",
		    harvest_elapsed(&t0));
	return CORE_OK;
}
