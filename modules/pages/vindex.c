/*
 * vindex.c -- the worker's current semantic index: the newest row of
 * vector_index, read now and then, its file mapped with vec_open() and
 * the previous one closed.  The state is the worker's own (one request
 * at a time), so it lives in this file's statics.
 *
 * Failures degrade to NULL (lexical search), logged once per version
 * and path: at each check a worker retries a failed file only when it
 * changed since (it may have been restored or rewritten), so the same
 * failure is not logged again.
 */
#include <sys/stat.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages_sql.h"
#include "vindex.h"

static struct {
	struct core_ctx *ctx;
	int stmt; /* the statement that reads the newest row */
	struct vec_index *idx;
	struct pages_vindex_seen seen;
	char *path; /* owns seen.path */
	time_t checked;
	time_t gen_read;
	long long gen;
	long long seen_gen;
	uint64_t logged_version; /* the last failure logged */
	char *logged_path;
	struct stat logged_st; /* its file then (st_ino 0: none) */
} vs = { .gen = -1, .seen_gen = -1 };

int
pages_vindex_due(time_t now, time_t checked, long long gen, long long seen_gen)
{
	if (checked == 0 || now - checked >= PAGES_VINDEX_CHECK_S ||
	    now < checked)
		return 1;
	return gen != seen_gen;
}

enum pages_vindex_act
pages_vindex_plan(int have_row, uint64_t version, const char *path,
    const struct pages_vindex_seen *s)
{
	if (!have_row)
		return s->version != 0 || s->open ? PAGES_VINDEX_DROP
						  : PAGES_VINDEX_KEEP;
	if (s->path == NULL || s->version != version ||
	    strcmp(s->path, path) != 0)
		return PAGES_VINDEX_OPEN;
	return s->open ? PAGES_VINDEX_KEEP : PAGES_VINDEX_OPEN;
}

static void
forget(void)
{
	vec_close(vs.idx);
	vs.idx = NULL;
	free(vs.path);
	vs.path = NULL;
	memset(&vs.seen, 0, sizeof(vs.seen));
}

void
pages_vindex_init(struct core_ctx *ctx)
{
	pages_vindex_init_stmt(ctx, PAGES_SQL_VECTOR_INDEX_LATEST);
}

void
pages_vindex_init_stmt(struct core_ctx *ctx, int stmt)
{
	forget();
	vs.ctx = ctx;
	vs.stmt = stmt;
	vs.checked = vs.gen_read = 0;
	vs.gen = vs.seen_gen = -1;
}

void
pages_vindex_fini(void)
{
	forget();
	free(vs.logged_path);
	vs.logged_path = NULL;
	vs.logged_version = 0;
	vs.ctx = NULL;
}

/* The page cache generation, read at most every PAGES_VINDEX_GEN_S
 * seconds; -1 without Redis. */
static long long
generation(time_t now)
{
	if (vs.ctx->redis == NULL)
		return -1;
	if (vs.gen_read != 0 && now >= vs.gen_read &&
	    now - vs.gen_read < PAGES_VINDEX_GEN_S)
		return vs.gen;
	vs.gen_read = now;
	if (core_cache_gen(vs.ctx->redis, &vs.gen) != CORE_OK)
		vs.gen = -1;
	return vs.gen;
}

/* The file as stat() sees it now; a zeroed st when missing. */
static void
file_state(const char *path, struct stat *st)
{
	if (stat(path, st) != 0)
		memset(st, 0, sizeof(*st));
}

/* Logs a failure of version/path unless it was the last one logged. */
static void
log_once(uint64_t version, const char *path, const char *why)
{
	if (vs.logged_path != NULL && vs.logged_version == version &&
	    strcmp(vs.logged_path, path) == 0)
		return;
	free(vs.logged_path);
	vs.logged_path = core_xstrdup(path);
	vs.logged_version = version;
	file_state(path, &vs.logged_st);
	core_log(CORE_LOG_WARN, "vectors",
	    "semantic index %" PRIu64 " at %s unusable (%s): lexical search "
	    "only",
	    version, path, why);
}

/* 1 when path is the failure last logged and its file has not changed
 * since: retrying would only log the same failure again. */
static int
same_failure(uint64_t version, const char *path)
{
	struct stat st;

	if (vs.logged_path == NULL || vs.logged_version != version ||
	    strcmp(vs.logged_path, path) != 0)
		return 0;
	file_state(path, &st);
	return st.st_ino == vs.logged_st.st_ino &&
	    st.st_dev == vs.logged_st.st_dev &&
	    st.st_size == vs.logged_st.st_size &&
	    st.st_mtime == vs.logged_st.st_mtime;
}

/* Opens the row's file in place of the current one. */
static void
open_row(uint64_t version, const char *path)
{
	struct vec_index *idx = NULL;
	enum core_err er;
	int quiet;

	quiet = same_failure(version, path);
	forget();
	vs.path = core_xstrdup(path);
	vs.seen.version = version;
	vs.seen.path = vs.path;
	if (quiet)
		return;
	if ((er = vec_open(path, &idx)) != CORE_OK) {
		log_once(version, path,
		    vec_open_why()[0] != '\0' ? vec_open_why()
					      : core_err_str(er));
		return;
	}
	if (vec_version(idx) != version) {
		vec_close(idx);
		log_once(version, path,
		    "stale: the file holds another version");
		return;
	}
	vs.idx = idx;
	vs.seen.open = 1;
	core_log(CORE_LOG_INFO, "vectors",
	    "semantic index %" PRIu64 ": %zu papers, %zu terms", version,
	    vec_count(idx), vec_nterms(idx));
}

/* Reads the newest row and acts on it; a database error keeps the
 * current state (logged by core_db_exec). */
static void
check(void)
{
	PGresult *res = NULL;
	uint64_t version = 0;
	const char *path = NULL;
	int have;

	if (vs.ctx->db == NULL ||
	    core_db_exec(vs.ctx->db, vs.stmt, NULL, 0, &res) != CORE_OK)
		return;
	have = PQntuples(res) == 1;
	if (have) {
		version = (uint64_t)core_cell_bigint(res, 0,
		    PAGES_VECTOR_INDEX_LATEST__VERSION, 0);
		path = core_cell_text(res, 0, PAGES_VECTOR_INDEX_LATEST__PATH);
	}
	switch (pages_vindex_plan(have, version, path, &vs.seen)) {
	case PAGES_VINDEX_OPEN:
		open_row(version, path);
		break;
	case PAGES_VINDEX_DROP:
		if (vs.idx != NULL)
			core_log(CORE_LOG_WARN, "vectors",
			    "no semantic index recorded: lexical search only");
		forget();
		break;
	default:
		break;
	}
	PQclear(res);
}

const struct vec_index *
pages_vectors(void)
{
	time_t now;
	long long gen;

	if (vs.ctx == NULL)
		return NULL;
	now = time(NULL);
	gen = generation(now);
	if (pages_vindex_due(now, vs.checked, gen, vs.seen_gen)) {
		vs.checked = now;
		vs.seen_gen = gen;
		check();
	}
	return vs.idx;
}
