/*
 * build.c -- weft-vectors build: papers -> model -> one index file, then
 * a row in vector_index.  A full fit makes two passes over the papers:
 * the first reads a sample (all of them up to opts->sample) and fits the
 * model, the second projects every paper with it and writes the vectors
 * as they come.  When a current index exists and few papers changed
 * since, the build is incremental instead (update.c): the model and the
 * lists are kept, and only the changed papers projected.  --reuse-model
 * projects every paper with the current model (the reference the
 * incremental result is compared with).
 *
 * Rerunning is safe at any point: nothing is in place until the final
 * rename, the row is written only after the renamed file opened and
 * checked, and a run on unchanged papers does nothing.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"
#include "vectors_sql.h"

void
vec_doc_text(struct core_buf *b, const char *title, const char *abstract)
{
	int i;

	/* Titles say in few words what the abstract spreads out; counting
	 * them VEC_TITLE_REPEAT times weighs them accordingly. */
	core_buf_reset(b);
	for (i = 0; i < VEC_TITLE_REPEAT; i++) {
		core_buf_puts(b, title);
		core_buf_puts(b, ".\n");
	}
	core_buf_puts(b, abstract);
}

/* Whether paper id belongs to the fitting sample (1 in count/sample). */
static int
sampled(int64_t id, size_t count, size_t sample)
{
	uint64_t st = (uint64_t)id;

	if (count <= sample)
		return 1;
	return vec_rand(&st) % count < sample;
}

/* Papers whose tokens a full build counts against the new model: the
 * baseline of the incremental builds' drift test (vec_refit_why). */
#define UNKNOWN_SAMPLE 20000

struct pass {
	struct vec_trainer tr;
	struct vec_progress pr;
	struct core_buf text;
	size_t seen, count, sample, skipped;
	/* second pass */
	const struct vec_index *model;
	struct vec_writer *w;
	size_t tokens, unknown;
};

static enum core_err
fit_one(void *arg, const struct vec_paper *p)
{
	struct pass *s = arg;

	vec_progress_tick(&s->pr, ++s->seen);
	if (!sampled(p->id, s->count, s->sample))
		return CORE_OK;
	vec_doc_text(&s->text, p->title, p->abstract);
	s->tr.label = p->primary;
	vec_trainer_add(&s->tr, core_buf_cstr(&s->text));
	return CORE_OK;
}

static enum core_err
project_one(void *arg, const struct vec_paper *p)
{
	struct pass *s = arg;
	struct vec_query q;

	vec_progress_tick(&s->pr, ++s->seen);
	vec_doc_text(&s->text, p->title, p->abstract);
	if (sampled(p->id, s->count, UNKNOWN_SAMPLE))
		vec_text_unknown(s->model, core_buf_cstr(&s->text), &s->tokens,
		    &s->unknown);
	if (vec_embed(s->model, core_buf_cstr(&s->text), &q) != CORE_OK) {
		s->skipped++; /* no known word: not in the index */
		return CORE_OK;
	}
	vec_writer_add(s->w, p->id, &q);
	return CORE_OK;
}

/* mkdir -p, for the vectors directory. */
static int
mkdirs(const char *path)
{
	char *p = core_xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) == -1 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

/* Deletes index files older than the two newest, and stray temporaries
 * of interrupted builds. */
static void
prune(const char *dir, uint64_t newest)
{
	DIR *d;
	struct dirent *e;
	unsigned long long v;
	char tail[16], *path;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		tail[0] = '\0';
		if (sscanf(e->d_name, "vectors-%llu.wvec%15s", &v, tail) < 1)
			continue;
		if (strcmp(tail, ".tmp") == 0
			? v == newest
			: tail[0] != '\0' || v + 1 >= newest)
			continue;
		path = core_xasprintf("%s/%s", dir, e->d_name);
		if (unlink(path) == 0)
			core_log(CORE_LOG_INFO, "vectors", "removed %s", path);
		free(path);
	}
	closedir(d);
}

static void
prev_free(struct vec_prev *p)
{
	if (p == NULL)
		return;
	free(p->path);
	free(p->fp);
	free(p->modified_to);
	memset(p, 0, sizeof(*p));
}

static enum core_err
latest(struct core_db *db, struct vec_prev *p)
{
	PGresult *res = NULL;
	enum core_err er;

	memset(p, 0, sizeof(*p));
	if ((er = core_db_exec(db, VECTORS_SQL_LATEST, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1) {
		p->version = (uint64_t)core_cell_bigint(res, 0,
		    VECTORS_LATEST__VERSION, 0);
		/* NOT NULL both (0004_vectors.sql). */
		p->path =
		    core_xstrdup(core_cell_text(res, 0, VECTORS_LATEST__PATH));
		p->fp = core_xstrdup(
		    core_cell_text(res, 0, VECTORS_LATEST__FINGERPRINT));
		/* NULL in rows from before 0041: no incremental build. */
		p->has_fit =
		    !PQgetisnull(res, 0, VECTORS_LATEST__FIT_VERSION) &&
		    !PQgetisnull(res, 0, VECTORS_LATEST__SINCE_FIT) &&
		    !PQgetisnull(res, 0, VECTORS_LATEST__FIT_UNKNOWN) &&
		    !PQgetisnull(res, 0, VECTORS_LATEST__MODIFIED_TO);
		p->fit_version = (uint64_t)core_cell_bigint(res, 0,
		    VECTORS_LATEST__FIT_VERSION, 0);
		p->since_fit = (size_t)core_cell_bigint(res, 0,
		    VECTORS_LATEST__SINCE_FIT, 0);
		p->fit_unknown =
		    strtod(core_cell_str(res, 0, VECTORS_LATEST__FIT_UNKNOWN),
			NULL);
		p->modified_to = core_xstrdup(
		    core_cell_str(res, 0, VECTORS_LATEST__MODIFIED_TO));
	}
	PQclear(res);
	return CORE_OK;
}

/* What the new row of vector_index says besides the file. */
struct record {
	uint64_t version;
	const char *path, *fp, *modified;
	size_t ndocs, nterms;
	double seconds;
	uint64_t fit_version;
	size_t since_fit;
	double fit_unknown;
};

static enum core_err
record(struct core_db *db, const struct record *r)
{
	char vbuf[24], nbuf[24], tbuf[24], dbuf[24], sbuf[32], fvbuf[24],
	    sfbuf[24], fubuf[32];
	const char *params[11];
	PGresult *res = NULL;
	enum core_err er;

	snprintf(vbuf, sizeof(vbuf), "%" PRIu64, r->version);
	snprintf(nbuf, sizeof(nbuf), "%zu", r->ndocs);
	snprintf(tbuf, sizeof(tbuf), "%zu", r->nterms);
	snprintf(dbuf, sizeof(dbuf), "%d", VEC_DIMS);
	snprintf(sbuf, sizeof(sbuf), "%.1f", r->seconds);
	snprintf(fvbuf, sizeof(fvbuf), "%" PRIu64, r->fit_version);
	snprintf(sfbuf, sizeof(sfbuf), "%zu", r->since_fit);
	snprintf(fubuf, sizeof(fubuf), "%.6f", r->fit_unknown);
	params[0] = vbuf;
	params[1] = r->path;
	params[2] = nbuf;
	params[3] = tbuf;
	params[4] = dbuf;
	params[5] = r->fp;
	params[6] = sbuf;
	params[7] = fvbuf;
	params[8] = sfbuf;
	params[9] = fubuf;
	params[10] = r->modified;
	er = core_db_exec(db, VECTORS_SQL_RECORD, params, 11, &res);
	PQclear(res);
	return er;
}

/* The absolute directory of the index files (caller frees), or NULL
 * (logged). */
static char *
index_dir(const struct core_conf *conf, const struct vec_build_opts *o)
{
	char *dir = core_xstrdup(o->dir != NULL
		? o->dir
		: core_conf_get(conf, "vectors_dir", "var/vectors"));
	char cwd[4096], *abs;

	if (dir[0] != '/') {
		if (getcwd(cwd, sizeof(cwd)) == NULL) {
			free(dir);
			return NULL;
		}
		abs = core_xasprintf("%s/%s", cwd, dir);
		free(dir);
		dir = abs;
	}
	if (mkdirs(dir) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "cannot create %s: %s", dir,
		    strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * The written temporary file tmp (fd) becomes final: synced, renamed,
 * read back as workers will read it, "current.wvec" pointed at it.
 * Closes fd.  *check gets the opened index.
 */
static enum core_err
put_in_place(int fd, const char *dir, const char *tmp, const char *final,
    struct vec_index **check)
{
	char *link, *linktmp;

	if (fsync(fd) != 0 || close(fd) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", tmp,
		    strerror(errno));
		return CORE_ESYS;
	}
	if (rename(tmp, final) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "rename %s: %s", tmp,
		    strerror(errno));
		return CORE_ESYS;
	}
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1) {
		(void)fsync(fd); /* the rename survives a crash */
		close(fd);
	}
	/* Read back what workers will read before telling them about it. */
	if (vec_open(final, check) != CORE_OK)
		return CORE_EINPUT;

	/* "current.wvec" follows the newest, for tools without the DB. */
	link = core_xasprintf("%s/current.wvec", dir);
	linktmp = core_xasprintf("%s/current.wvec.tmp", dir);
	(void)unlink(linktmp);
	if (symlink(final + strlen(dir) + 1, linktmp) != 0 ||
	    rename(linktmp, link) != 0)
		core_log(CORE_LOG_WARN, "vectors", "%s: %s", link,
		    strerror(errno));
	free(link);
	free(linktmp);
	return CORE_OK;
}

/* Pass 1 of a full fit: the sample, the model, its index in modelbuf. */
static enum core_err
fit(const struct core_conf *conf, struct core_db *db, struct pass *s,
    struct vec_model *m, struct core_buf *modelbuf, struct vec_index **mi)
{
	struct vec_fit_opts fo;
	struct vec_wordvecs wv;
	char *wvdir = NULL;
	double t0 = vec_now();
	enum core_err er = CORE_ESYS;

	memset(&wv, 0, sizeof(wv));
	vec_trainer_init(&s->tr);
	if (vec_wordvecs_wanted(conf) &&
	    vec_wv_begin(&s->tr, &wvdir) != CORE_OK)
		goto out;
	vec_progress_start(&s->pr, "reading", s->count);
	if (vec_store_each(db, fit_one, s) != CORE_OK)
		goto out;
	vec_progress_end(&s->pr);
	vec_fit_defaults(&fo);
	if (wvdir != NULL) {
		/* Without them the index is still good, only less so. */
		if (vec_wv_end(&s->tr, wvdir, &wv) == CORE_OK)
			fo.wv = &wv;
		else
			core_log(CORE_LOG_WARN, "vectors",
			    "no word vectors: SVD dimensions only");
		wvdir = NULL;
	}
	core_log(CORE_LOG_INFO, "vectors",
	    "fitting on %zu papers, %zu distinct terms", s->tr.counts.rows,
	    vec_vocab_size(s->tr.vocab));
	if ((er = vec_fit(&s->tr, &fo, m)) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "vectors",
	    "model: %zu terms, sigma %.2f .. %.2f, word vectors in %zu dims, "
	    "%.1f s",
	    m->nterms, (double)m->sigma[0], (double)m->sigma[VEC_DIMS - 1],
	    m->wv_dims, vec_now() - t0);
	er = vec_model_index(m, modelbuf, mi);
out:
	if (wvdir != NULL)
		(void)vec_wv_end(&s->tr, wvdir, &wv);
	vec_wv_free(&wv);
	vec_trainer_free(&s->tr);
	return er;
}

/* How this build goes. */
enum mode { FULL, REUSE, INCREMENTAL };

int
vec_build(const struct core_conf *conf, const struct vec_build_opts *o)
{
	struct core_db *db = NULL;
	struct pass s;
	struct vec_model m;
	struct vec_prev prev;
	struct vec_inc *inc = NULL;
	struct record rec;
	struct core_buf modelbuf = CORE_BUF_INIT;
	struct vec_index *check = NULL, *old = NULL, *mi = NULL;
	PGresult *res = NULL;
	char fp[160], modified[64], why[256];
	char *tmp = NULL, *final = NULL, *dir = NULL;
	struct vec_inc_counts ic;
	size_t count, ndocs = 0, projected = 0, changed = 0;
	double t0 = vec_now();
	enum mode mode = FULL;
	int fd = -1, rc = VEC_EXIT_FAIL, plan;
	enum core_err er;

	memset(&s, 0, sizeof(s));
	memset(&m, 0, sizeof(m));
	memset(&prev, 0, sizeof(prev));
	memset(&rec, 0, sizeof(rec));
	if (vec_store_open(conf, 0, &db) != CORE_OK)
		goto out;
	if (core_db_exec(db, VECTORS_SQL_LOCK, NULL, 0, &res) != CORE_OK)
		goto out;
	if (!core_cell_bool(res, 0, VECTORS_LOCK__LOCKED, 0)) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "another weft-vectors build is running");
		goto out;
	}
	if (vec_store_state(db, &count, fp, sizeof(fp), modified,
		sizeof(modified)) != CORE_OK ||
	    latest(db, &prev) != CORE_OK)
		goto out;
	/*
	 * Unchanged: the same fingerprint (which names VEC_FORMAT, so a
	 * build of another format never matches) and a file that opens
	 * (vec_open() refuses other formats: a fingerprint recorded
	 * before it named the format still rebuilds).
	 */
	if (prev.path != NULL && vec_open(prev.path, &old) != CORE_OK)
		old = NULL;
	if (!o->force && !o->reuse_model && old != NULL &&
	    strcmp(prev.fp, fp) == 0) {
		core_log(CORE_LOG_INFO, "vectors",
		    "up to date: version %" PRIu64 " (%s), %zu papers",
		    prev.version, prev.path, vec_count(old));
		rc = VEC_EXIT_OK;
		goto out;
	}

	/* Which build: the one line saying so is printed below. */
	s.count = count;
	s.sample = o->sample;
	if (o->reuse_model) {
		if (old == NULL || !prev.has_fit) {
			core_log(CORE_LOG_ERROR, "vectors",
			    "--reuse-model: no current index with its model "
			    "recorded (weft-vectors build first)");
			goto out;
		}
		mode = REUSE;
		snprintf(why, sizeof(why), "--reuse-model");
	} else if (o->force)
		snprintf(why, sizeof(why), "--force");
	else if (old == NULL)
		snprintf(why, sizeof(why), "no current index");
	else if (!prev.has_fit)
		snprintf(why, sizeof(why),
		    "the current index was built before incremental builds");
	else {
		plan = vec_inc_plan(db, old, &prev, &inc, why, sizeof(why));
		if (plan < 0)
			goto out;
		if (plan == 0)
			mode = INCREMENTAL;
	}

	if ((dir = index_dir(conf, o)) == NULL)
		goto out;
	rec.version = prev.version + 1;
	final = core_xasprintf("%s/vectors-%" PRIu64 ".wvec", dir, rec.version);
	tmp = core_xasprintf("%s.tmp", final);
	if (mode == FULL) {
		printf("full fit: %s\n", why);
		fflush(stdout);
		if (fit(conf, db, &s, &m, &modelbuf, &mi) != CORE_OK)
			goto out;
		s.model = mi;
	} else
		s.model = old;
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) ==
	    -1) {
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", tmp,
		    strerror(errno));
		goto out;
	}
	s.w = mode == FULL ? vec_writer_new(fd, NULL, &m, rec.version)
			   : vec_writer_reuse(fd, NULL, old, rec.version);
	if (mode == INCREMENTAL) {
		vec_inc_counts(inc, &ic);
		changed = ic.added + ic.modified + ic.removed;
		projected = ic.projected;
		printf("incremental: %zu new, %zu changed, %zu removed since "
		       "version %" PRIu64 " (%zu projected); %.1f %% of the "
		       "papers changed since the fit, %.1f %% unknown words "
		       "(%.1f %% at the fit)\n",
		    ic.added, ic.modified, ic.removed, prev.version,
		    ic.projected,
		    100.0 * (double)(prev.since_fit + changed) / (double)count,
		    100 * ic.unknown, 100 * prev.fit_unknown);
		vec_inc_write(inc, s.w);
		er = CORE_OK;
	} else {
		if (mode == REUSE)
			printf("reuse model: every paper projected with the "
			       "model of version %" PRIu64 "\n",
			    prev.fit_version);
		s.seen = 0;
		vec_progress_start(&s.pr, "projecting", count);
		er = vec_store_each(db, project_one, &s);
		vec_progress_end(&s.pr);
		projected = s.seen;
	}
	if (er != CORE_OK) {
		vec_writer_abort(s.w);
		goto out;
	}
	er = vec_writer_finish(s.w, &ndocs);
	s.w = NULL;
	if (er != CORE_OK)
		goto out;
	er = put_in_place(fd, dir, tmp, final, &check);
	fd = -1;
	if (er != CORE_OK)
		goto out;

	rec.path = final;
	rec.fp = fp;
	rec.modified = modified;
	rec.ndocs = ndocs;
	rec.nterms = vec_nterms(check);
	rec.seconds = vec_now() - t0;
	if (mode == FULL) {
		rec.fit_version = rec.version;
		rec.since_fit = 0;
		rec.fit_unknown =
		    s.tokens > 0 ? (double)s.unknown / (double)s.tokens : 0;
	} else {
		/* The model is the same: so is the baseline of drift. */
		rec.fit_version = prev.fit_version;
		rec.since_fit =
		    prev.since_fit + (mode == INCREMENTAL ? changed : 0);
		rec.fit_unknown = prev.fit_unknown;
	}
	PQclear(res);
	res = NULL;
	if (record(db, &rec) != CORE_OK)
		goto out;
	prune(dir, rec.version);
	core_log(CORE_LOG_INFO, "vectors",
	    "version %" PRIu64 ": %s, %zu papers (%zu without known words), "
	    "%zu terms, %.1f s",
	    rec.version, final, ndocs, s.skipped, rec.nterms, rec.seconds);
	printf("version %" PRIu64 " %s %zu papers %.1f s (%zu projected, "
	       "%.0f papers/s)\n",
	    rec.version, final, ndocs, rec.seconds, projected,
	    rec.seconds > 0 ? (double)ndocs / rec.seconds : 0.0);
	rc = VEC_EXIT_OK;
out:
	if (fd != -1)
		close(fd);
	if (tmp != NULL)
		(void)unlink(tmp); /* gone after the rename */
	PQclear(res);
	vec_close(check);
	vec_close(mi);
	vec_close(old);
	vec_inc_free(inc);
	core_buf_free(&modelbuf);
	core_buf_free(&s.text);
	vec_model_free(&m);
	core_db_close(db);
	prev_free(&prev);
	free(tmp);
	free(final);
	free(dir);
	return rc;
}
