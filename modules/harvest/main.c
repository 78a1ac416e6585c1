/*
 * main.c -- weft-harvest, the ingest command: options, configuration and
 * the subcommands.  Exit codes: 0 done, 1 failed, 2 usage, 3 "migrate
 * --check" found the database behind the migration files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "harvest.h"
#include "remote.h"

#define DEFAULT_CONF "conf/weft.conf"

static const char usage_main[] =
    "usage: weft-harvest [-c FILE] COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  migrate [--check]  apply sql/schema/NNNN_*.sql not yet applied\n"
    "  load [--data DIR]  load the bundled dataset (idempotent)\n"
    "  match              attach authorships to researchers (evidence kept)\n"
    "  eval [FILE...]     matching precision/recall on OpenAlex works\n"
    "  arxiv oai|ids|query  harvest arXiv (OAI-PMH, Atom API)\n"
    "  openalex           enrich papers and researchers from OpenAlex\n"
    "  s2 papers|authors  enrich from Semantic Scholar\n"
    "  ror FILE           load institutions from a ROR v2 dump\n"
    "  status             each source's cursor, last run, errors, counts\n"
    "\n"
    "Options:\n"
    "  -c FILE            configuration (else $WEFT_CONF, else "
    DEFAULT_CONF ")\n"
    "  -h, --help         this text; COMMAND --help for a command's\n"
    "\n"
    "Configuration keys: db (libpq conninfo), sql_dir (default sql),\n"
    "data_dir (default sql/data), log_level.  WEFT_<KEY> in the\n"
    "environment overrides the file.\n"
    "Exit status: 0 ok, 1 failure, 2 usage, 3 migrate --check: behind.\n";

static const char usage_migrate[] =
    "usage: weft-harvest [-c FILE] migrate [--check]\n"
    "\n"
    "Applies the files sql_dir/schema/NNNN_name.sql whose version is not\n"
    "in the table schema_migrations yet, in version order, each in its\n"
    "own transaction, and records them.  Running it again does nothing.\n"
    "A database newer than the newest file is an error.\n"
    "\n"
    "  --check  print the current and the latest version; exit 0 when\n"
    "           they are equal, 3 when the database is behind\n";

static const char usage_load[] =
    "usage: weft-harvest [-c FILE] load [--data DIR]\n"
    "\n"
    "Loads the bundled dataset (see DIR/SOURCES.md): ROR and OpenAlex\n"
    "institutions, OpenAlex authors, arXiv papers in the daily-listing\n"
    "and the Kaggle snapshot shape, their authorships and one researcher\n"
    "per normalised author name.  Batches of 2,000 records, each in one\n"
    "transaction; a malformed line is reported and skipped.  Loading the\n"
    "same data again changes nothing.  The database must be migrated.\n"
    "\n"
    "  --data DIR  where the files are (default: data_dir, else sql/data)\n";

static const char usage_match[] =
    "usage: weft-harvest [-c FILE] match\n"
    "\n"
    "Attaches every authorship to a researcher, newest paper first, block\n"
    "by block (family name and first initial).  An external id (OpenAlex\n"
    "author id, ORCID, S2 id, from enrichment) decides; otherwise a\n"
    "same-name group is split where co-authors and categories do not\n"
    "overlap and joined where they do.  Each authorship keeps the reason\n"
    "and the score (authorships.match_reason, match_score).  Researcher\n"
    "ids stay across runs; followers of a researcher merged away move to\n"
    "the survivor.  Then paper counts, fully_matched and computed metrics\n"
    "(metrics_source 'computed' where no source has any).  One\n"
    "transaction per batch; a rerun changes nothing.  \"load\" runs it.\n";

static const char usage_eval[] =
    "usage: weft-harvest [-c FILE] eval [FILE...]\n"
    "\n"
    "Matches the authorships of recorded OpenAlex works (list responses\n"
    "or single works, gzip or plain; default: eval_dir, else\n"
    "tests/data/harvest/openalex, works_cursor_page{1,2}.json and\n"
    "W2741809807.json) on names, co-authors and fields only, and compares\n"
    "every pair of authorships with their OpenAlex author ids: prints\n"
    "\"precision P recall R\" and the counts behind them.  Then the\n"
    "split/merge counts of the database as the last match left it.\n";

static int
usage(const char *text, int rc)
{
	fputs(text, rc == HARVEST_EXIT_OK ? stdout : stderr);
	return rc;
}

static const struct level {
	const char *name;
	enum core_loglevel level;
} levels[] = {
	{ "debug", CORE_LOG_DEBUG },
	{ "info", CORE_LOG_INFO },
	{ "warn", CORE_LOG_WARN },
	{ "error", CORE_LOG_ERROR },
};

int
main(int argc, char *argv[])
{
	struct core_conf *conf = NULL;
	const char *cfile = NULL, *cmd = NULL, *data = NULL, *lv;
	int i, check = 0, help = 0, rc = HARVEST_EXIT_USAGE;
	size_t j;

	core_log_setname("harvest");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		/* The remote commands parse their own arguments. */
		if (cmd != NULL && harvest_remote_is(cmd))
			break;
		/* eval's arguments are files. */
		if (cmd != NULL && strcmp(cmd, "eval") == 0 && a[0] != '-')
			break;

		if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) {
			if (++i >= argc)
				goto usage;
			cfile = argv[i];
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			help = 1;
		else if (cmd != NULL && strcmp(cmd, "migrate") == 0 &&
		    strcmp(a, "--check") == 0)
			check = 1;
		else if (cmd != NULL && strcmp(cmd, "load") == 0 &&
		    strcmp(a, "--data") == 0) {
			if (++i >= argc)
				goto usage;
			data = argv[i];
		} else if (cmd != NULL && strcmp(cmd, "load") == 0 &&
		    strncmp(a, "--data=", 7) == 0)
			data = a + 7;
		else if (cmd == NULL && a[0] != '-')
			cmd = a;
		else {
			fprintf(stderr, "weft-harvest: unexpected \"%s\"\n", a);
			goto usage;
		}
	}
	if (cmd == NULL)
		return usage(usage_main, help ? HARVEST_EXIT_OK :
		    HARVEST_EXIT_USAGE);
	if (harvest_remote_is(cmd)) {
		if (help)
			return harvest_remote_usage(cmd);
		goto config;
	}
	if (strcmp(cmd, "match") == 0 || strcmp(cmd, "eval") == 0) {
		if (help)
			return usage(strcmp(cmd, "match") == 0 ? usage_match :
			    usage_eval, HARVEST_EXIT_OK);
		goto config;
	}
	if (strcmp(cmd, "migrate") != 0 && strcmp(cmd, "load") != 0) {
		fprintf(stderr, "weft-harvest: unknown command \"%s\"\n", cmd);
		return usage(usage_main, HARVEST_EXIT_USAGE);
	}
	if (help)
		return usage(strcmp(cmd, "migrate") == 0 ? usage_migrate :
		    usage_load, HARVEST_EXIT_OK);

config:
	/*
	 * Without -c or WEFT_CONF a missing default file is no error: the
	 * WEFT_<KEY> variables may be all the configuration there is.
	 */
	if (cfile == NULL && (cfile = getenv("WEFT_CONF")) == NULL) {
		cfile = DEFAULT_CONF;
		if (access(cfile, F_OK) != 0)
			cfile = "/dev/null";
	}
	if (core_conf_load(cfile, &conf) != CORE_OK)
		return HARVEST_EXIT_FAIL;
	lv = core_conf_get(conf, "log_level", "info");
	for (j = 0; j < sizeof(levels) / sizeof(levels[0]); j++)
		if (strcmp(lv, levels[j].name) == 0)
			core_log_setlevel(levels[j].level);

	if (harvest_remote_is(cmd))
		rc = harvest_remote_main(conf, cmd, argc - i, argv + i);
	else if (strcmp(cmd, "match") == 0)
		rc = harvest_match(conf);
	else if (strcmp(cmd, "eval") == 0)
		rc = harvest_eval(conf, argv + i, argc - i);
	else if (strcmp(cmd, "migrate") == 0)
		rc = harvest_migrate(conf, check);
	else
		rc = harvest_load(conf, data);
	core_conf_free(conf);
	return rc;
usage:
	return usage(cmd == NULL ? usage_main : strcmp(cmd, "migrate") == 0 ?
	    usage_migrate : strcmp(cmd, "load") == 0 ? usage_load : usage_main,
	    HARVEST_EXIT_USAGE);
}
