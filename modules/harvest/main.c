/*
 * main.c -- weft-harvest, the ingest command: the tables of subcommands.
 * The remote ones (the harvesters) are tables in fetch.c, enrich.c,
 * s2find.c and affil.c; core_cli_main() parses, answers --help, loads the
 * configuration and runs one.  Exit codes: 0 done, 1 failed, 2 usage,
 * 3 "migrate --check" found the database behind the migration files.
 */
#include <stddef.h>

#include "core.h"
#include "analyse.h"
#include "harvest.h"
#include "remote.h"

struct migrate_args {
	int check;
};

static int
run_migrate(const struct core_conf *conf, void *args)
{
	const struct migrate_args *a = args;

	return harvest_migrate(conf, a->check);
}

static const struct core_opt migrate_opts[] = {
	{ "--check", CORE_OPT_FLAG, offsetof(struct migrate_args, check), NULL,
	    NULL,
	    "print the current and the latest version; exit 0 "
	    "when they are equal, 3 when the database is behind" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const char help_migrate[] =
    "Applies the files sql_dir/schema/NNNN_name.sql whose version is not\n"
    "in the table schema_migrations yet, in version order, each in its\n"
    "own transaction, and records them.  Running it again does nothing.\n"
    "A database newer than the newest file is an error.";

struct load_args {
	const char *data;
};

static int
run_load(const struct core_conf *conf, void *args)
{
	const struct load_args *a = args;

	return harvest_load(conf, a->data);
}

static const struct core_opt load_opts[] = {
	{ "--data", CORE_OPT_STR, offsetof(struct load_args, data), "DIR", NULL,
	    "where the files are (default: data_dir, else sql/data)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const char help_load[] =
    "Loads the bundled dataset (see DIR/SOURCES.md): ROR and OpenAlex\n"
    "institutions, OpenAlex authors, arXiv papers in the daily-listing\n"
    "and the Kaggle snapshot shape, their authorships and one researcher\n"
    "per normalised author name.  Batches of 2,000 records, each in one\n"
    "transaction; a malformed line is reported and skipped.  Loading the\n"
    "same data again changes nothing.  The database must be migrated.";

struct match_args {
	int blocks, full, no_refresh;
};

static int
run_match(const struct core_conf *conf, void *args)
{
	const struct match_args *a = args;

	if (a->blocks && a->full) {
		fprintf(stderr,
		    "weft-harvest match: --blocks or --full, "
		    "not both\n");
		return HARVEST_EXIT_USAGE;
	}
	return harvest_match(conf,
	    a->full         ? HARVEST_MATCH_FULL
		: a->blocks ? HARVEST_MATCH_BLOCKS
			    : HARVEST_MATCH_DAY,
	    !a->no_refresh);
}

static const struct core_opt match_opts[] = {
	{ "--blocks", CORE_OPT_FLAG, offsetof(struct match_args, blocks), NULL,
	    NULL,
	    "decide the blocks changed since the last match whole, as a "
	    "first load does" },
	{ "--full", CORE_OPT_FLAG, offsetof(struct match_args, full), NULL,
	    NULL,
	    "decide every block whole and recompute every count: the "
	    "periodic rebuild" },
	{ "--no-refresh", CORE_OPT_FLAG,
	    offsetof(struct match_args, no_refresh), NULL, NULL,
	    "leave the derived tables and the cached pages to a later "
	    "\"weft-harvest refresh\" (several matches, one refresh; "
	    "tests/bench/refresh_ab.sh)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const char help_match[] =
    "Attaches authorships to researchers, newest paper first, block by\n"
    "block (family name and first initial).  By default, the day's pass:\n"
    "in the blocks whose authorships or whose researchers' external ids\n"
    "changed since the last match, the authorships not yet decided (the\n"
    "loader's guess by name) are decided against the researchers whose\n"
    "names fit them; decided authorships keep their researcher, unless a\n"
    "new paper shows two of them are one person.  --blocks decides the\n"
    "changed blocks whole (a block is decided from its own rows alone),\n"
    "--full every block: the periodic rebuild, which the day's passes\n"
    "approach (tests/integration/t_match_blocks.sh bounds the gap).\n"
    "An external id (OpenAlex author id, ORCID, S2 id, from enrichment)\n"
    "decides; otherwise a same-name group is split where co-authors and\n"
    "categories do not overlap and joined where they do.  Each authorship\n"
    "keeps the reason and the score (authorships.match_reason,\n"
    "match_score).  Researcher ids stay across runs; followers of a\n"
    "researcher merged away move to the survivor.  Then the paper counts\n"
    "and fully_matched of what it moved (metrics come only from a source:\n"
    "OpenAlex or S2, with their date).  One transaction per batch; a\n"
    "rerun changes nothing.  Then the derived tables are refreshed, as\n"
    "\"weft-harvest refresh\" does, unless --no-refresh.  \"load\" runs\n"
    "it (a first load by blocks).";

static int
run_eval(const struct core_conf *conf, void *args, int argc, char **argv)
{
	(void)args;
	return harvest_eval(conf, argv, argc);
}

static const char help_eval[] =
    "Matches the gold authorships (default: eval_gold, else\n"
    "tests/data/harvest/gold/authorships.jsonl.gz: every recorded OpenAlex\n"
    "and Semantic Scholar work whose authors carry author ids; FILEs may\n"
    "also be OpenAlex list responses or single works, gzip or plain) on\n"
    "names, co-authors and fields only, and compares every pair with the\n"
    "sources' author ids and ORCIDs.  People are split by a fixed seed\n"
    "into a tuning and a held-out part: prints precision and recall of\n"
    "both, and per case type (same form, accents, initials, middle name,\n"
    "order, other), first on the sources' ids alone, then with the ids\n"
    "that eval_adjudicated (default: tests/data/harvest/gold/\n"
    "adjudicated.jsonl) says are one person, each with its evidence\n"
    "(eval_pairs=1 lists the wrong pairs).  Then the split/merge counts\n"
    "of the database as the last match left it.";

static const struct core_cmd main_cmds[] = {
	{ .name = "migrate",
	    .opts = migrate_opts,
	    .args_size = sizeof(struct migrate_args),
	    .summary = "apply sql/schema/NNNN_*.sql not yet applied",
	    .help = help_migrate,
	    .run_opts = run_migrate },
	{ .name = "load",
	    .opts = load_opts,
	    .args_size = sizeof(struct load_args),
	    .summary = "load the bundled dataset (idempotent)",
	    .help = help_load,
	    .run_opts = run_load },
	{ .name = "match",
	    .opts = match_opts,
	    .args_size = sizeof(struct match_args),
	    .summary = "attach authorships to researchers (evidence kept)",
	    .help = help_match,
	    .run_opts = run_match },
	{ .name = "eval",
	    .operands = "[FILE...]",
	    .summary = "matching precision/recall on the gold authorships",
	    .help = help_eval,
	    .run = run_eval },
	{ .name = NULL },
};

/* The order of the usage; a new harvester adds its table here. */
static const struct core_cmd *const tables[] = {
	main_cmds,
	harvest_cmds_refresh,
	harvest_cmds_arxiv,
	harvest_cmds_enrich,
	harvest_cmds_s2find,
	harvest_cmds_ror,
	harvest_cmds_affil,
	harvest_cmds_status,
	harvest_cmds_analyse,
	NULL,
};

static const struct core_cli cli = {
	.prog = "weft-harvest",
	.tables = tables,
	.footer =
	    "Configuration keys: db (libpq conninfo), sql_dir (default sql),\n"
	    "data_dir (default sql/data), log_level.  WEFT_<KEY> in the\n"
	    "environment overrides the file.\n"
	    "Exit status: 0 ok, 1 failure, 2 usage, 3 migrate --check: "
	    "behind.\n",
	.log_name = "harvest",
};

int
main(int argc, char *argv[])
{
	return core_cli_main(&cli, argc, argv);
}
