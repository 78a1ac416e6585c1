/*
 * merge.c -- the search words of the papers a run writes, merged from
 * the GIN indexes' pending lists into the indexes (MERGE_SEARCH_WORDS)
 * every harvest_merge_every papers committed, on a connection of its
 * own while the run writes its next batches, and once more at the end.
 *
 * A merge holds no lock a batch waits for: it opens the indexes as a
 * writer does, and a writer that finds the pending list long skips its
 * own cleanup while the merge runs (PostgreSQL's ginInsertCleanup()), so
 * the two use both cores.  At most one merge is in flight: the next one
 * is sent only when the one before has answered.
 */
#include <stdio.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"

void
harvest_merge_init(struct harvest_merge *m, const struct core_conf *conf)
{
	m->conf = conf;
	m->side = NULL;
	m->every =
	    core_conf_int(conf, "harvest_merge_every", HARVEST_MERGE_EVERY);
	if (m->every < 1)
		m->every = HARVEST_MERGE_EVERY;
	m->unmerged = 0;
	m->sent = 0;
	m->busy = 0;
}

/* The merge in flight, if any, answered. */
static enum core_err
merge_wait(struct harvest_merge *m)
{
	PGresult *res = NULL;
	enum core_err er;

	if (!m->busy)
		return CORE_OK;
	m->busy = 0;
	er = harvest_wait(m->side, HARVEST_SQL_MERGE_SEARCH_WORDS, &res);
	PQclear(res);
	return er;
}

enum core_err
harvest_merge_note(struct harvest_merge *m, long n)
{
	enum core_err er;

	m->unmerged += n;
	if (m->unmerged < m->every)
		return CORE_OK;
	if ((er = merge_wait(m)) != CORE_OK)
		return er;
	if (m->side == NULL &&
	    (er = harvest_connect(m->conf, HARVEST_NMIGRATE, &m->side)) !=
		CORE_OK)
		return er;
	if ((er = harvest_send(m->side, HARVEST_SQL_MERGE_SEARCH_WORDS, NULL,
		 0)) != CORE_OK)
		return er;
	m->busy = 1;
	m->sent++;
	m->unmerged = 0;
	return CORE_OK;
}

enum core_err
harvest_merge_end(struct harvest_merge *m, struct core_db *db)
{
	enum core_err er = merge_wait(m);

	if (er != CORE_OK || m->unmerged == 0)
		return er;
	if ((er = core_db_cmd(db,
		 harvest_sql[HARVEST_SQL_MERGE_SEARCH_WORDS].sql)) == CORE_OK)
		m->unmerged = 0;
	return er;
}

void
harvest_merge_close(struct harvest_merge *m)
{
	(void)merge_wait(m);
	if (m->sent > 0)
		core_log(CORE_LOG_INFO, "harvest.merge",
		    "%ld merges of search words beside the batches "
		    "(harvest_merge_every %ld)",
		    m->sent, m->every);
	core_db_close(m->side);
	m->side = NULL;
}
