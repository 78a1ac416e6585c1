/*
 * test_cli.c -- core_cli_parse(), core_cli_usage(), core_cli_main(): the
 * options parser of weft-harvest and weft-vectors, on a table shaped
 * like theirs (a one-word command, a group of two, operands, every type
 * of option).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "t.h"

struct fetch_args {
	int check;
	const char *from, *prefix;
	size_t max, nlist;
};

static int ran_argc = -1;
static const struct fetch_args *ran_args;

static int
run(const struct core_conf *conf, void *args, int argc, char **argv)
{
	(void)conf;
	(void)argv;
	ran_args = args;
	ran_argc = argc;
	return argc > 0 && strcmp(argv[0], "bad") == 0 ? CORE_EXIT_USAGE
						       : CORE_EXIT_OK;
}

/* A command without operands: run_opts, which gets no argc/argv. */
static int ran_plain;

static int
run_plain(const struct core_conf *conf, void *args)
{
	(void)conf;
	(void)args;
	ran_plain++;
	return CORE_EXIT_OK;
}

static const char *const prefixes[] = { "arXiv", "oai_dc", NULL };

static const struct core_opt opts[] = {
	{ "--check", CORE_OPT_FLAG, offsetof(struct fetch_args, check), NULL,
	    NULL, "check only" },
	{ "--from", CORE_OPT_STR, offsetof(struct fetch_args, from),
	    "YYYY-MM-DD", NULL, "first day" },
	{ "--prefix", CORE_OPT_STR, offsetof(struct fetch_args, prefix), NULL,
	    prefixes, "metadata format" },
	{ "--max", CORE_OPT_POS, offsetof(struct fetch_args, max), "N", NULL,
	    "at most N" },
	{ "--nlist", CORE_OPT_COUNT, offsetof(struct fetch_args, nlist), "L",
	    NULL, "lists" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct fetch_args init = { 0, NULL, "arXiv", 100, 7 };

/* Two tables, as weft-harvest's commands come from several files. */
static const struct core_cmd first[] = {
	{ .name = "plain",
	    .summary = "no options, no operands",
	    .run_opts = run_plain },
	{ .name = NULL },
};
static const struct core_cmd src[] = {
	{ .name = "src oai",
	    .opts = opts,
	    CORE_CMD_ARGS(init),
	    .operands = "[FILE...]",
	    .summary = "harvest by OAI",
	    .help = "Harvests by OAI-PMH.",
	    .run = run },
	{ .name = "src ids",
	    .operands = "ID...",
	    .max_args = 2,
	    .summary = "by id",
	    .run = run },
	{ .name = NULL },
};
static const struct core_cmd *const plain = &first[0], *const oai = &src[0];
static const struct core_cmd *const tables[] = { first, src, NULL };
static const struct core_cli cli = { "prog", tables, "Footer text.\n", "prog" };

/* Parses the words of line (at most 30); returns the error or "". */
static enum core_err
parse(const char *line, struct core_cli_args *a, struct core_buf *err)
{
	static char copy[512];
	char *argv[32], *p;
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	argv[argc++] = "prog";
	for (p = strtok(copy, " "); p != NULL && argc < 31;
	     p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	core_buf_reset(err);
	return core_cli_parse(&cli, argc, argv, a, err);
}

/* The error message of a command line that must be refused. */
static const char *
refused(const char *line)
{
	static struct core_buf err = CORE_BUF_INIT;
	struct core_cli_args a;
	enum core_err er = parse(line, &a, &err);

	core_cli_args_free(&a);
	return er == CORE_EINPUT ? core_buf_cstr(&err) : "(accepted)";
}

static void
accepted(void)
{
	struct core_buf err = CORE_BUF_INIT;
	struct core_cli_args a;
	const struct fetch_args *f;

	T_EQ(parse("plain", &a, &err), CORE_OK, "one-word command");
	T_OK(a.cmd == plain && a.argc == 0 && a.conf == NULL && !a.help,
	    "plain: no conf, no help, no operands");
	core_cli_args_free(&a);

	T_EQ(parse("-c x.conf src oai --check --from 2024-01-25 --prefix "
		   "oai_dc --max 5 --nlist 0 a b",
		 &a, &err),
	    CORE_OK, "group command with every type of option");
	f = a.args;
	T_OK(a.cmd == oai, "src oai chosen");
	T_STREQ(a.conf, "x.conf", "-c before the command");
	T_EQ(f->check, 1, "flag set");
	T_STREQ(f->from, "2024-01-25", "string value");
	T_STREQ(f->prefix, "oai_dc", "choice value");
	T_EQ(f->max, 5, "positive number");
	T_EQ(f->nlist, 0, "count may be 0");
	T_EQ(a.argc, 2, "two operands");
	T_STREQ(a.argv[1], "b", "operands in order");
	core_cli_args_free(&a);

	T_EQ(parse("src oai", &a, &err), CORE_OK, "defaults");
	f = a.args;
	T_OK(f->check == 0 && f->from == NULL &&
		strcmp(f->prefix, "arXiv") == 0 && f->max == 100 &&
		f->nlist == 7,
	    "the struct starts as args_init");
	core_cli_args_free(&a);

	T_EQ(parse("src oai --from=2024-02-01 x --config=y.conf -- --max", &a,
		 &err),
	    CORE_OK, "--name=value, options among operands, --");
	f = a.args;
	T_STREQ(f->from, "2024-02-01", "--from=VALUE");
	T_STREQ(a.conf, "y.conf", "--config=FILE after the command");
	T_EQ(a.argc, 2, "\"--\" makes --max an operand");
	T_STREQ(a.argv[1], "--max", "the operand after --");
	core_cli_args_free(&a);

	T_EQ(parse("src ids - 1", &a, &err), CORE_OK, "a lone - is an operand");
	T_EQ(a.argc, 2, "two ids");
	core_cli_args_free(&a);
}

static void
bad_options(void)
{
	T_STREQ(refused("plain --check"), "prog: unexpected \"--check\"",
	    "an option of another command");
	T_STREQ(refused("--check src oai"), "prog: unexpected \"--check\"",
	    "a command's option before the command");
	T_STREQ(refused("src oai --bogus"), "prog: unexpected \"--bogus\"",
	    "an unknown option");
	T_STREQ(refused("src oai --check=1"), "prog: unexpected \"--check=1\"",
	    "a flag with a value");
	T_STREQ(refused("src oai --prefix xml"),
	    "prog: --prefix is arXiv or oai_dc, not \"xml\"",
	    "a value outside the choices");
	T_STREQ(refused("src oai --max 0"),
	    "prog: --max needs a number above 0, not \"0\"",
	    "0 for a positive number");
	T_STREQ(refused("src oai --max 5x"),
	    "prog: --max needs a number above 0, not \"5x\"",
	    "trailing garbage in a number");
	T_STREQ(refused("src oai --nlist -1"),
	    "prog: --nlist needs a number, not \"-1\"", "a negative count");
	T_STREQ(refused("src oai --max 99999999999999999999999"),
	    "prog: --max needs a number above 0, not "
	    "\"99999999999999999999999\"",
	    "an overflowing number");
	T_STREQ(refused("plain extra"), "prog: unexpected \"extra\"",
	    "an operand where none is taken");
	T_STREQ(refused("src ids 1 2 3"), "prog: unexpected \"3\"",
	    "more operands than max_args");
	T_STREQ(refused("nosuch"), "prog: unknown command \"nosuch\"",
	    "an unknown command");
	T_STREQ(refused("src"), "prog: src: oai or ids?",
	    "a group without its second word");
	T_STREQ(refused("src zzz"), "prog: src: oai or ids?",
	    "a group with a wrong second word");
	T_STREQ(refused(""), "", "no command: no message, just the usage");
	T_STREQ(refused("-x"), "prog: unexpected \"-x\"",
	    "an unknown option before the command");
}

static void
missing_values(void)
{
	T_STREQ(refused("src oai --from"), "prog: missing value for --from",
	    "a string option at the end");
	T_STREQ(refused("src oai --max"), "prog: missing value for --max",
	    "a number option at the end");
	T_STREQ(refused("-c"), "prog: missing value for -c", "-c alone");
	T_STREQ(refused("plain --config"), "prog: missing value for --config",
	    "--config at the end");
	T_STREQ(refused("src ids"), "prog: src ids: missing ID...",
	    "fewer operands than the synopsis names");
}

static void
help(void)
{
	struct core_buf err = CORE_BUF_INIT, out = CORE_BUF_INIT;
	struct core_cli_args a;

	T_EQ(parse("--help", &a, &err), CORE_OK, "--help alone");
	T_OK(a.help && a.cmd == NULL && a.group == NULL, "main help");
	core_cli_args_free(&a);
	T_EQ(parse("src oai -h --bogus", &a, &err), CORE_OK,
	    "-h stops the parse before a bad option");
	T_OK(a.help && a.cmd == oai, "the command's help");
	core_cli_args_free(&a);
	T_EQ(parse("src -h", &a, &err), CORE_OK, "help of a group");
	T_OK(a.help && a.cmd == NULL && strcmp(a.group, "src") == 0,
	    "group remembered");
	core_cli_args_free(&a);

	core_cli_usage(&cli, NULL, NULL, &out);
	T_CONTAINS(core_buf_cstr(&out),
	    "usage: prog [-c FILE] COMMAND "
	    "[OPTIONS]\n",
	    "main usage: first line");
	T_CONTAINS(core_buf_cstr(&out),
	    "  src oai [--check] [--from "
	    "YYYY-MM-DD] [--prefix arXiv|oai_dc] [--max N]\n        [--nlist L]"
	    " [FILE...]\n        harvest by OAI\n",
	    "main usage: synopsis from the table, wrapped, then the summary");
	T_CONTAINS(core_buf_cstr(&out), "  src ids ID...\n",
	    "main usage: operands");
	T_CONTAINS(core_buf_cstr(&out), "\nFooter text.\n", "footer");

	core_buf_reset(&out);
	core_cli_usage(&cli, oai, NULL, &out);
	T_CONTAINS(core_buf_cstr(&out),
	    "usage: prog [-c FILE] src oai "
	    "[--check] [--from YYYY-MM-DD]\n",
	    "command usage: synopsis");
	T_CONTAINS(core_buf_cstr(&out), "\nHarvests by OAI-PMH.\n",
	    "command usage: its help");
	T_CONTAINS(core_buf_cstr(&out),
	    "  --prefix arXiv|oai_dc  metadata "
	    "format\n",
	    "command usage: options aligned");

	core_buf_reset(&out);
	core_cli_usage(&cli, NULL, "src", &out);
	T_CONTAINS(core_buf_cstr(&out),
	    "\n       prog [-c FILE] src ids "
	    "ID...\n",
	    "group usage: each synopsis");
	T_LACKS(core_buf_cstr(&out), "plain", "group usage: only the group");
	core_buf_free(&out);
	core_buf_free(&err);
}

/* core_cli_main(): the exit codes, and run called with the struct. */
static void
main_codes(void)
{
	char *ok[] = { "prog", "-c", "/dev/null", "src", "oai", "--max", "3",
		"f", NULL };
	char *usage_err[] = { "prog", "src", "oai", "--max", NULL };
	char *run_usage[] = { "prog", "-c", "/dev/null", "src", "ids", "bad",
		NULL };
	char *plain_ok[] = { "prog", "-c", "/dev/null", "plain", NULL };
	char *no_conf[] = { "prog", "-c", "/nonexistent/x.conf", "plain",
		NULL };
	FILE *saved;

	T_EQ(core_cli_main(&cli, 8, ok), CORE_EXIT_OK, "main: runs, 0");
	T_EQ(ran_argc, 1, "main: run got the operand");
	T_EQ(core_cli_main(&cli, 4, plain_ok), CORE_EXIT_OK,
	    "main: run_opts runs, 0");
	T_EQ(ran_plain, 1, "main: run_opts called once");
	/* The usage texts go to stderr: keep this output TAP. */
	saved = stderr;
	stderr = fopen("/dev/null", "w");
	T_EQ(core_cli_main(&cli, 4, usage_err), CORE_EXIT_USAGE,
	    "main: a missing value is 2");
	T_EQ(core_cli_main(&cli, 6, run_usage), CORE_EXIT_USAGE,
	    "main: run's usage error is 2");
	core_log_setlevel(CORE_LOG__MAX); /* main set it from /dev/null */
	T_EQ(core_cli_main(&cli, 4, no_conf), CORE_EXIT_FAIL,
	    "main: an unreadable config is 1");
	fclose(stderr);
	stderr = saved;
}

/* core_conf_path(): -c, else $WEFT_CONF, else the default file. */
static void
conf_path(void)
{
	char cwd[4096];

	T_STREQ(core_conf_path("x.conf", 1), "x.conf", "conf: -c wins");
	setenv("WEFT_CONF", "/env.conf", 1);
	T_STREQ(core_conf_path("x.conf", 0), "x.conf",
	    "conf: -c wins over WEFT_CONF");
	T_STREQ(core_conf_path(NULL, 1), "/env.conf", "conf: then WEFT_CONF");
	unsetenv("WEFT_CONF");
	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir("/") != 0)
		return;
	T_STREQ(core_conf_path(NULL, 1), "/dev/null",
	    "conf: no default file: /dev/null for a command");
	T_STREQ(core_conf_path(NULL, 0), CORE_CONF_DEFAULT,
	    "conf: a server is told the missing default");
	if (chdir(cwd) != 0)
		return;
}

int
main(void)
{
	core_log_setlevel(CORE_LOG__MAX); /* quiet: conf errors are logged */
	accepted();
	bad_options();
	missing_values();
	help();
	main_codes();
	conf_path();
	return T_DONE();
}
