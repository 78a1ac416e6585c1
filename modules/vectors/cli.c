/*
 * cli.c -- weft-vectors: options, configuration, the subcommands.
 * Exit codes: 0 done, 1 failed, 2 usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"

#define DEFAULT_CONF "conf/weft.conf"

static const char usage_text[] =
    "usage: weft-vectors [-c FILE] COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  build [--force] [--sample N] [--dir DIR]\n"
    "        fit the model on (a sample of at most N = 200000) papers,\n"
    "        write every paper's vector to DIR (config vectors_dir,\n"
    "        default var/vectors) and record it in vector_index.  Does\n"
    "        nothing when the papers did not change, unless --force.\n"
    "  eval [--queries N] [--seed S] [--wordvecs on|off] [--wv-share X]\n"
    "        retrieval figures on a seeded sample (default 1000, 42):\n"
    "        lexical (BM25), vector, hybrid.  Builds its own model in\n"
    "        memory; writes nothing.  Word vectors as the config says\n"
    "        unless --wordvecs.\n"
    "  bench [--papers N] [--queries N] [--threads T] [--file FILE]\n"
    "        [--nlist L] [--texts FILE]\n"
    "        query time (similar: top 16; text: embed + top 200) over N\n"
    "        synthetic papers (default 2500000), shaped like the papers\n"
    "        of index FILE when given (N 0: FILE's own papers), with L\n"
    "        lists (default: as a build would), and recall against the\n"
    "        brute force for a few numbers of lists read.  Text\n"
    "        queries: lines of FILE, else six random words.\n"
    "  check [FILE]\n"
    "        open and check an index (default: the newest recorded).\n"
    "  query [--file FILE] [--similar ID] [TEXT...]\n"
    "        the 10 papers nearest to TEXT or to paper ID.\n"
    "\n"
    "Options:\n"
    "  -c FILE  configuration (else $WEFT_CONF, else " DEFAULT_CONF ")\n"
    "  -h       this text\n"
    "\n"
    "Configuration keys: db (libpq conninfo), vectors_dir, log_level,\n"
    "vectors_wordvecs (auto: fastText word vectors when the fasttext\n"
    "command is installed; on; off).\n";

static const struct level {
	const char *name;
	enum core_loglevel level;
} levels[] = {
	{ "debug", CORE_LOG_DEBUG },
	{ "info", CORE_LOG_INFO },
	{ "warn", CORE_LOG_WARN },
	{ "error", CORE_LOG_ERROR },
};

/* A positive number from an option; 0 when malformed. */
static size_t
number(const char *s)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	v = strtoull(s, &end, 10);
	return *end == '\0' ? (size_t)v : 0;
}

/* The newest recorded index file (caller frees), or NULL. */
static char *
current_path(const struct core_conf *conf)
{
	const char *dir = core_conf_get(conf, "vectors_dir", "var/vectors");

	return core_xasprintf("%s/current.wvec", dir);
}

static int
cmd_check(const struct core_conf *conf, const char *file)
{
	struct vec_index *idx = NULL;
	char *path = file != NULL ? core_xstrdup(file) : current_path(conf);
	int rc = VEC_EXIT_FAIL;

	if (vec_open(path, &idx) != CORE_OK)
		fprintf(stderr, "weft-vectors: %s: %s\n", path, vec_open_why());
	else {
		printf("%s: version %" PRIu64 ", %zu papers, %zu terms, "
		       "%d dims, %zu lists\n",
		    path, vec_version(idx), vec_count(idx), vec_nterms(idx),
		    VEC_DIMS, idx->nlist);
		rc = VEC_EXIT_OK;
	}
	vec_close(idx);
	free(path);
	return rc;
}

static int
cmd_query(const struct core_conf *conf, const char *file, int64_t similar,
    const char *text)
{
	struct vec_index *idx = NULL;
	struct vec_hit hits[10];
	char *path = file != NULL ? core_xstrdup(file) : current_path(conf);
	size_t n = 0, i;
	enum core_err er;
	int rc = VEC_EXIT_FAIL;
	double t0;

	if (vec_open(path, &idx) != CORE_OK) {
		fprintf(stderr, "weft-vectors: %s: %s\n", path, vec_open_why());
		goto out;
	}
	t0 = vec_now();
	er = similar > 0 ? vec_similar(idx, similar, 10, hits, &n)
			 : vec_query_text(idx, text, 10, hits, &n);
	if (er == CORE_ENOTFOUND) {
		fprintf(stderr, "weft-vectors: %s\n",
		    similar > 0
			? "that paper is not in the index"
			: "no word of the query is known: use lexical search");
		goto out;
	}
	for (i = 0; i < n; i++)
		printf("%" PRId64 "\t%.4f\n", hits[i].paper_id,
		    (double)hits[i].score);
	fprintf(stderr, "%.1f ms\n", (vec_now() - t0) * 1000);
	rc = VEC_EXIT_OK;
out:
	vec_close(idx);
	free(path);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct core_conf *conf = NULL;
	struct vec_build_opts bo = { 200000, 0, NULL };
	struct vec_eval_opts eo = { 1000, 42, -99, -1, 0 };
	struct vec_bench_opts no = { 2500000, 200, 2, 200, NULL, SIZE_MAX,
		NULL };
	struct core_buf text = CORE_BUF_INIT;
	const char *cfile = NULL, *cmd = NULL, *file = NULL, *lv;
	int64_t similar = 0;
	int i, rc = VEC_EXIT_USAGE;
	size_t j;

	core_log_setname("vectors");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i],
			   *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "-c") == 0 && val != NULL) {
			cfile = val;
			i++;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			return VEC_EXIT_OK;
		} else if (cmd == NULL && a[0] != '-')
			cmd = a;
		else if (cmd == NULL)
			goto usage;
		else if (strcmp(a, "--force") == 0)
			bo.force = 1;
		else if (strcmp(a, "--sample") == 0 &&
		    (bo.sample = number(val)) > 0)
			i++;
		else if (strcmp(a, "--dir") == 0 && val != NULL) {
			bo.dir = val;
			i++;
		} else if (strcmp(a, "--queries") == 0 &&
		    (eo.queries = no.queries = number(val)) > 0)
			i++;
		else if (strcmp(a, "--seed") == 0 && val != NULL) {
			eo.seed = strtoull(val, NULL, 10);
			i++;
		} else if (strcmp(a, "--beta") == 0 && val != NULL) {
			eo.beta = strtod(val, NULL);
			i++;
		} else if (strcmp(a, "--wordvecs") == 0 && val != NULL &&
		    (strcmp(val, "on") == 0 || strcmp(val, "off") == 0)) {
			eo.wordvecs = strcmp(val, "on") == 0;
			i++;
		} else if (strcmp(a, "--wv-share") == 0 && val != NULL) {
			eo.wv_share = strtod(val, NULL);
			i++;
		} else if (strcmp(a, "--papers") == 0 && val != NULL &&
		    (strcmp(val, "0") == 0 || (no.papers = number(val)) > 0)) {
			if (strcmp(val, "0") == 0)
				no.papers = 0;
			i++;
		} else if (strcmp(a, "--nlist") == 0 && val != NULL &&
		    (strcmp(val, "0") == 0 || (no.nlist = number(val)) > 0)) {
			if (strcmp(val, "0") == 0)
				no.nlist = 0;
			i++;
		} else if (strcmp(a, "--threads") == 0 &&
		    (no.threads = (unsigned)number(val)) > 0)
			i++;
		else if (strcmp(a, "--file") == 0 && val != NULL) {
			file = no.file = val;
			i++;
		} else if (strcmp(a, "--texts") == 0 && val != NULL) {
			no.texts = val;
			i++;
		} else if (strcmp(a, "--similar") == 0 &&
		    (similar = (int64_t)number(val)) > 0)
			i++;
		else if (strcmp(cmd, "check") == 0 && file == NULL &&
		    a[0] != '-')
			file = a;
		else if (strcmp(cmd, "query") == 0 && a[0] != '-') {
			if (text.len > 0)
				core_buf_putc(&text, ' ');
			core_buf_puts(&text, a);
		} else {
			fprintf(stderr, "weft-vectors: unexpected \"%s\"\n", a);
			goto usage;
		}
	}
	if (cmd == NULL)
		goto usage;

	if (cfile == NULL && (cfile = getenv("WEFT_CONF")) == NULL) {
		cfile = DEFAULT_CONF;
		if (access(cfile, F_OK) != 0)
			cfile = "/dev/null";
	}
	if (core_conf_load(cfile, &conf) != CORE_OK)
		return VEC_EXIT_FAIL;
	lv = core_conf_get(conf, "log_level", "info");
	for (j = 0; j < sizeof(levels) / sizeof(levels[0]); j++)
		if (strcmp(lv, levels[j].name) == 0)
			core_log_setlevel(levels[j].level);

	if (strcmp(cmd, "build") == 0)
		rc = vec_build(conf, &bo);
	else if (strcmp(cmd, "eval") == 0) {
		if (eo.wordvecs < 0)
			eo.wordvecs = vec_wordvecs_wanted(conf);
		rc = vec_eval(conf, &eo);
	} else if (strcmp(cmd, "bench") == 0)
		rc = vec_bench(&no);
	else if (strcmp(cmd, "check") == 0)
		rc = cmd_check(conf, file);
	else if (strcmp(cmd, "query") == 0 && (similar > 0 || text.len > 0))
		rc = cmd_query(conf, file, similar, core_buf_cstr(&text));
	else {
		fprintf(stderr, "weft-vectors: unknown command \"%s\"\n", cmd);
		rc = VEC_EXIT_USAGE;
		fputs(usage_text, stderr);
	}
	core_buf_free(&text);
	core_conf_free(conf);
	return rc;
usage:
	fputs(usage_text, stderr);
	return VEC_EXIT_USAGE;
}
