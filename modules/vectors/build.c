/*
 * build.c -- weft-vectors build: papers -> model -> one index file, then
 * a row in vector_index.  Two passes over the papers: the first reads a
 * sample (all of them up to opts->sample) and fits the model, the second
 * projects every paper with it and writes the vectors as they come.
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

struct pass {
	struct vec_trainer tr;
	struct vec_progress pr;
	struct core_buf text;
	size_t seen, count, sample, skipped;
	/* second pass */
	struct vec_index *model;
	struct vec_writer *w;
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

static enum core_err
latest(struct core_db *db, uint64_t *version, char **path, char **fp)
{
	PGresult *res = NULL;
	enum core_err er;

	*version = 0;
	*path = *fp = NULL;
	if ((er = core_db_exec(db, VECTORS_SQL_LATEST, NULL, 0, &res)) !=
	    CORE_OK)
		return er;
	if (PQntuples(res) == 1) {
		*version = (uint64_t)core_cell_bigint(res, 0,
		    VECTORS_LATEST__VERSION, 0);
		*path =
		    core_xstrdup(core_cell_text(res, 0, VECTORS_LATEST__PATH));
		/* NOT NULL both (0004_vectors.sql). */
		*fp = core_xstrdup(
		    core_cell_text(res, 0, VECTORS_LATEST__FINGERPRINT));
	}
	PQclear(res);
	return CORE_OK;
}

int
vec_build(const struct core_conf *conf, const struct vec_build_opts *o)
{
	struct core_db *db = NULL;
	struct pass s;
	struct vec_fit_opts fo;
	struct vec_model m;
	struct core_buf modelbuf = CORE_BUF_INIT;
	struct vec_index *check = NULL;
	struct vec_wordvecs wv;
	char *wvdir = NULL;
	PGresult *res = NULL;
	char fp[160], *oldpath = NULL, *oldfp = NULL, *tmp = NULL;
	char *final = NULL, *dir = NULL, *link = NULL, *linktmp = NULL;
	char vbuf[24], nbuf[24], tbuf[24], dbuf[24], sbuf[32];
	const char *params[7];
	uint64_t oldv, version;
	size_t count, ndocs = 0;
	double t0 = vec_now();
	int fd = -1, rc = VEC_EXIT_FAIL;
	enum core_err er;

	memset(&s, 0, sizeof(s));
	memset(&m, 0, sizeof(m));
	memset(&wv, 0, sizeof(wv));
	if (vec_store_open(conf, 0, &db) != CORE_OK)
		goto out;
	if (core_db_exec(db, VECTORS_SQL_LOCK, NULL, 0, &res) != CORE_OK)
		goto out;
	if (!core_cell_bool(res, 0, VECTORS_LOCK__LOCKED, 0)) {
		core_log(CORE_LOG_ERROR, "vectors",
		    "another weft-vectors build is running");
		goto out;
	}
	if (vec_store_state(db, &count, fp, sizeof(fp)) != CORE_OK ||
	    latest(db, &oldv, &oldpath, &oldfp) != CORE_OK)
		goto out;
	/*
	 * Unchanged: the same fingerprint (which names VEC_FORMAT, so a
	 * build of another format never matches) and a file that opens
	 * (vec_open() refuses other formats: a fingerprint recorded
	 * before it named the format still rebuilds).
	 */
	if (!o->force && oldfp != NULL && strcmp(oldfp, fp) == 0 &&
	    vec_open(oldpath, &check) == CORE_OK) {
		core_log(CORE_LOG_INFO, "vectors",
		    "up to date: version %" PRIu64 " (%s), %zu papers", oldv,
		    oldpath, vec_count(check));
		rc = VEC_EXIT_OK;
		goto out;
	}
	vec_close(check);
	check = NULL;

	/* Pass 1: the sample, the model. */
	vec_trainer_init(&s.tr);
	s.count = count;
	s.sample = o->sample;
	if (vec_wordvecs_wanted(conf) && vec_wv_begin(&s.tr, &wvdir) != CORE_OK)
		goto out;
	vec_progress_start(&s.pr, "reading", count);
	if (vec_store_each(db, fit_one, &s) != CORE_OK)
		goto out;
	vec_progress_end(&s.pr);
	vec_fit_defaults(&fo);
	if (wvdir != NULL) {
		/* Without them the index is still good, only less so. */
		if (vec_wv_end(&s.tr, wvdir, &wv) == CORE_OK)
			fo.wv = &wv;
		else
			core_log(CORE_LOG_WARN, "vectors",
			    "no word vectors: SVD dimensions only");
		wvdir = NULL;
	}
	core_log(CORE_LOG_INFO, "vectors",
	    "fitting on %zu papers, %zu distinct terms", s.tr.counts.rows,
	    vec_vocab_size(s.tr.vocab));
	if (vec_fit(&s.tr, &fo, &m) != CORE_OK)
		goto out;
	vec_trainer_free(&s.tr);
	core_log(CORE_LOG_INFO, "vectors",
	    "model: %zu terms, sigma %.2f .. %.2f, word vectors in %zu dims, "
	    "%.1f s",
	    m.nterms, (double)m.sigma[0], (double)m.sigma[VEC_DIMS - 1],
	    m.wv_dims, vec_now() - t0);
	if (vec_model_index(&m, &modelbuf, &s.model) != CORE_OK)
		goto out;

	/* Pass 2: every paper, into a temporary file. */
	version = oldv + 1;
	dir = core_xstrdup(o->dir != NULL
		? o->dir
		: core_conf_get(conf, "vectors_dir", "var/vectors"));
	if (dir[0] != '/') {
		char cwd[4096], *abs;

		if (getcwd(cwd, sizeof(cwd)) == NULL)
			goto out;
		abs = core_xasprintf("%s/%s", cwd, dir);
		free(dir);
		dir = abs;
	}
	if (mkdirs(dir) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "cannot create %s: %s", dir,
		    strerror(errno));
		goto out;
	}
	final = core_xasprintf("%s/vectors-%" PRIu64 ".wvec", dir, version);
	tmp = core_xasprintf("%s.tmp", final);
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) ==
	    -1) {
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", tmp,
		    strerror(errno));
		goto out;
	}
	s.w = vec_writer_new(fd, NULL, &m, version);
	s.seen = 0;
	vec_progress_start(&s.pr, "projecting", count);
	er = vec_store_each(db, project_one, &s);
	vec_progress_end(&s.pr);
	if (er != CORE_OK) {
		vec_writer_abort(s.w);
		goto out;
	}
	er = vec_writer_finish(s.w, &ndocs);
	s.w = NULL;
	if (er != CORE_OK)
		goto out;
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		core_log(CORE_LOG_ERROR, "vectors", "%s: %s", tmp,
		    strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, final) != 0) {
		core_log(CORE_LOG_ERROR, "vectors", "rename %s: %s", tmp,
		    strerror(errno));
		goto out;
	}
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1) {
		(void)fsync(fd); /* the rename survives a crash */
		close(fd);
		fd = -1;
	}
	/* Read back what workers will read before telling them about it. */
	if (vec_open(final, &check) != CORE_OK)
		goto out;

	/* "current.wvec" follows the newest, for tools without the DB. */
	link = core_xasprintf("%s/current.wvec", dir);
	linktmp = core_xasprintf("%s/current.wvec.tmp", dir);
	(void)unlink(linktmp);
	if (symlink(final + strlen(dir) + 1, linktmp) != 0 ||
	    rename(linktmp, link) != 0)
		core_log(CORE_LOG_WARN, "vectors", "%s: %s", link,
		    strerror(errno));

	snprintf(vbuf, sizeof(vbuf), "%" PRIu64, version);
	snprintf(nbuf, sizeof(nbuf), "%zu", ndocs);
	snprintf(tbuf, sizeof(tbuf), "%zu", m.nterms);
	snprintf(dbuf, sizeof(dbuf), "%d", VEC_DIMS);
	snprintf(sbuf, sizeof(sbuf), "%.1f", vec_now() - t0);
	params[0] = vbuf;
	params[1] = final;
	params[2] = nbuf;
	params[3] = tbuf;
	params[4] = dbuf;
	params[5] = fp;
	params[6] = sbuf;
	PQclear(res);
	res = NULL;
	if (core_db_exec(db, VECTORS_SQL_RECORD, params, 7, &res) != CORE_OK)
		goto out;
	prune(dir, version);
	core_log(CORE_LOG_INFO, "vectors",
	    "version %" PRIu64 ": %s, %zu papers (%zu without known words), "
	    "%zu terms, %.1f s",
	    version, final, ndocs, s.skipped, m.nterms, vec_now() - t0);
	printf("version %" PRIu64 " %s %zu papers %.1f s\n", version, final,
	    ndocs, vec_now() - t0);
	rc = VEC_EXIT_OK;
out:
	if (fd != -1) {
		close(fd);
		(void)unlink(tmp);
	}
	PQclear(res);
	vec_close(check);
	vec_close(s.model);
	core_buf_free(&modelbuf);
	core_buf_free(&s.text);
	if (wvdir != NULL)
		(void)vec_wv_end(&s.tr, wvdir, &wv);
	vec_wv_free(&wv);
	if (s.tr.vocab != NULL)
		vec_trainer_free(&s.tr);
	vec_model_free(&m);
	core_db_close(db);
	free(oldpath);
	free(oldfp);
	free(tmp);
	free(final);
	free(dir);
	free(link);
	free(linktmp);
	return rc;
}
