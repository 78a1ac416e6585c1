/*
 * cli.c -- weft-vectors: the table of subcommands, which
 * core_cli_main() parses, documents and runs.  Exit codes: 0 done,
 * 1 failed, 2 usage.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "internal.h"

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

/* ------------------------------------------------------------------ */
/* The commands                                                        */
/* ------------------------------------------------------------------ */

static int
run_build(const struct core_conf *conf, void *args)
{
	return vec_build(conf, args);
}

static const struct core_opt build_opts[] = {
	{ "--force", CORE_OPT_FLAG, offsetof(struct vec_build_opts, force),
	    NULL, NULL,
	    "fit a new model, even when the papers did not "
	    "change" },
	{ "--reuse-model", CORE_OPT_FLAG,
	    offsetof(struct vec_build_opts, reuse_model), NULL, NULL,
	    "project every paper with the current model and lists" },
	{ "--sample", CORE_OPT_POS, offsetof(struct vec_build_opts, sample),
	    "N", NULL, "fit on at most N papers (default 200000)" },
	{ "--dir", CORE_OPT_STR, offsetof(struct vec_build_opts, dir), "DIR",
	    NULL, "where the index goes (default: vectors_dir)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct vec_build_opts build_init = { 200000, 0, NULL, 0 };

static const char summary_build[] =
    "fit the model on (a sample of at most N = 200000) papers,\n"
    "write every paper's vector to DIR (config vectors_dir,\n"
    "default var/vectors) and record it in vector_index.  Does\n"
    "nothing when the papers did not change, unless --force.\n"
    "Incremental when an index exists and few papers changed\n"
    "since its fit: its model and lists kept, only the new or\n"
    "changed papers projected (a full fit above 20 % changed or\n"
    "when their words drift from the model's; the first line\n"
    "printed says which and why).";

/* eval's numbers other than --queries are read as strtoull/strtod do. */
struct eval_args {
	size_t queries;
	const char *seed, *beta, *wordvecs, *wv_share;
};

static int
run_eval(const struct core_conf *conf, void *args)
{
	const struct eval_args *a = args;
	struct vec_eval_opts eo = { 1000, 42, -99, -1, 0 };

	eo.queries = a->queries;
	if (a->seed != NULL)
		eo.seed = strtoull(a->seed, NULL, 10);
	if (a->beta != NULL)
		eo.beta = strtod(a->beta, NULL);
	if (a->wv_share != NULL)
		eo.wv_share = strtod(a->wv_share, NULL);
	eo.wordvecs = a->wordvecs != NULL ? strcmp(a->wordvecs, "on") == 0
					  : vec_wordvecs_wanted(conf);
	return vec_eval(conf, &eo);
}

static const char *const on_off[] = { "on", "off", NULL };

static const struct core_opt eval_opts[] = {
	{ "--queries", CORE_OPT_POS, offsetof(struct eval_args, queries), "N",
	    NULL, "size of the sample (default 1000)" },
	{ "--seed", CORE_OPT_STR, offsetof(struct eval_args, seed), "S", NULL,
	    "of the sample (default 42)" },
	{ "--wordvecs", CORE_OPT_STR, offsetof(struct eval_args, wordvecs),
	    NULL, on_off,
	    "blend in word vectors (default: as the config "
	    "says)" },
	{ "--wv-share", CORE_OPT_STR, offsetof(struct eval_args, wv_share), "X",
	    NULL, "their share of a paper's vector" },
	{ "--beta", CORE_OPT_STR, offsetof(struct eval_args, beta), "B", NULL,
	    "projection V_k * sigma^-B (default: the build's)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct eval_args eval_init = { 1000, NULL, NULL, NULL, NULL };

static const char summary_eval[] =
    "retrieval figures on a seeded sample (default 1000, 42):\n"
    "lexical (BM25), vector, hybrid.  Builds its own model in\n"
    "memory; writes nothing.  Word vectors as the config says\n"
    "unless --wordvecs.";

struct bench_args {
	size_t papers, queries, threads;
	const char *file;
	size_t nlist;
	const char *texts;
};

static int
run_bench(const struct core_conf *conf, void *args)
{
	const struct bench_args *a = args;
	struct vec_bench_opts no = { 2500000, 200, 2, 200, NULL, SIZE_MAX,
		NULL };

	(void)conf;
	no.papers = a->papers;
	no.queries = a->queries;
	no.threads = (unsigned)a->threads;
	no.file = a->file;
	no.nlist = a->nlist;
	no.texts = a->texts;
	return vec_bench(&no);
}

static const struct core_opt bench_opts[] = {
	{ "--papers", CORE_OPT_COUNT, offsetof(struct bench_args, papers), "N",
	    NULL, "synthetic papers (default 2500000; 0: FILE's own)" },
	{ "--queries", CORE_OPT_POS, offsetof(struct bench_args, queries), "N",
	    NULL, "queries a thread (default 200)" },
	{ "--threads", CORE_OPT_POS, offsetof(struct bench_args, threads), "T",
	    NULL, "concurrent queries (default 2)" },
	{ "--file", CORE_OPT_STR, offsetof(struct bench_args, file), "FILE",
	    NULL, "an index the synthetic papers resemble" },
	{ "--nlist", CORE_OPT_COUNT, offsetof(struct bench_args, nlist), "L",
	    NULL, "lists (default: as a build would)" },
	{ "--texts", CORE_OPT_STR, offsetof(struct bench_args, texts), "FILE",
	    NULL, "query texts, one a line (default: six random words)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct bench_args bench_init = { 2500000, 200, 2, NULL, SIZE_MAX,
	NULL };

static const char summary_bench[] =
    "query time (similar: top 16; text: embed + top 200) over N\n"
    "synthetic papers (default 2500000), shaped like the papers\n"
    "of index FILE when given (N 0: FILE's own papers), with L\n"
    "lists (default: as a build would), and recall against the\n"
    "brute force for a few numbers of lists read.  Text\n"
    "queries: lines of FILE, else six random words.";

static int
run_check(const struct core_conf *conf, void *args, int argc, char **argv)
{
	(void)args;
	return cmd_check(conf, argc > 0 ? argv[0] : NULL);
}

static const char summary_check[] =
    "open and check an index (default: the newest recorded).";

struct query_args {
	const char *file;
	size_t similar;
};

static int
run_query(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct query_args *a = args;
	struct core_buf text = CORE_BUF_INIT;
	int i, rc;

	if (a->similar == 0 && argc == 0) {
		fprintf(stderr, "weft-vectors: query: TEXT or --similar ID\n");
		return VEC_EXIT_USAGE;
	}
	for (i = 0; i < argc; i++) {
		if (i > 0)
			core_buf_putc(&text, ' ');
		core_buf_puts(&text, argv[i]);
	}
	rc =
	    cmd_query(conf, a->file, (int64_t)a->similar, core_buf_cstr(&text));
	core_buf_free(&text);
	return rc;
}

static const struct core_opt query_opts[] = {
	{ "--file", CORE_OPT_STR, offsetof(struct query_args, file), "FILE",
	    NULL, "the index (default: the newest recorded)" },
	{ "--similar", CORE_OPT_POS, offsetof(struct query_args, similar), "ID",
	    NULL, "the papers nearest to paper ID" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const char summary_query[] =
    "the 10 papers nearest to TEXT or to paper ID.";

static const struct core_cmd cmds[] = {
	{ .name = "build",
	    .opts = build_opts,
	    CORE_CMD_ARGS(build_init),
	    .summary = summary_build,
	    .run_opts = run_build },
	{ .name = "eval",
	    .opts = eval_opts,
	    CORE_CMD_ARGS(eval_init),
	    .summary = summary_eval,
	    .run_opts = run_eval },
	{ .name = "bench",
	    .opts = bench_opts,
	    CORE_CMD_ARGS(bench_init),
	    .summary = summary_bench,
	    .run_opts = run_bench },
	{ .name = "check",
	    .operands = "[FILE]",
	    .summary = summary_check,
	    .run = run_check },
	{ .name = "query",
	    .operands = "[TEXT...]",
	    .opts = query_opts,
	    .args_size = sizeof(struct query_args),
	    .summary = summary_query,
	    .run = run_query },
	{ .name = NULL },
};

static const struct core_cmd *const tables[] = { cmds, NULL };

static const struct core_cli cli = {
	.prog = "weft-vectors",
	.tables = tables,
	.footer =
	    "Configuration keys: db (libpq conninfo), vectors_dir, log_level,\n"
	    "vectors_wordvecs (auto: fastText word vectors when the fasttext\n"
	    "command is installed; on; off).\n",
	.log_name = "vectors",
};

int
main(int argc, char *argv[])
{
	return core_cli_main(&cli, argc, argv);
}
