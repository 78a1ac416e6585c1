/*
 * cli.c -- the command lines of weft-harvest and weft-vectors: a table of
 * subcommands (struct core_cmd), one parser for their options and
 * operands, and the usage text generated from the same table, so that
 * the help cannot drift from what is accepted.
 *
 * The grammar is the usual one: "--name VALUE" or "--name=VALUE", flags
 * alone, "--" ends the options, a lone "-" is an operand.  Options and
 * operands may be mixed after the command's name; the global -c and -h
 * are taken anywhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define WRAP_COLS 78

static int
has_value(const struct core_opt *o)
{
	return o->type != CORE_OPT_FLAG;
}

/* The length of name's first word. */
static size_t
first_len(const char *name)
{
	const char *sp = strchr(name, ' ');

	return sp != NULL ? (size_t)(sp - name) : strlen(name);
}

/* 1 when cmd's name has first word w (w may be longer: "w=...", no). */
static int
in_group(const struct core_cmd *cmd, const char *w)
{
	size_t n = first_len(cmd->name);

	return strlen(w) == n && strncmp(cmd->name, w, n) == 0;
}

/* The i-th command of cli, in the usage's order; NULL past the last. */
static const struct core_cmd *
nth_cmd(const struct core_cli *cli, size_t i)
{
	const struct core_cmd *const *t, *c;

	for (t = cli->tables; *t != NULL; t++)
		for (c = *t; c->name != NULL; c++)
			if (i-- == 0)
				return c;
	return NULL;
}

/* "NAME: oai, ids or query?" -- the commands of a group. */
static void
group_question(const struct core_cli *cli, const char *group,
    struct core_buf *err)
{
	const struct core_cmd *c;
	size_t i;
	size_t n = 0, k = 0;

	for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++)
		n += in_group(c, group);
	core_buf_printf(err, "%s: %s: ", cli->prog, group);
	for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++) {
		if (!in_group(c, group))
			continue;
		if (k > 0)
			core_buf_puts(err, k + 1 == n ? " or " : ", ");
		core_buf_puts(err, c->name + first_len(c->name) + 1);
		k++;
	}
	core_buf_putc(err, '?');
}

/*
 * How many operands cmd takes, counted on its synopsis so that the two
 * cannot disagree: a word is one, "[WORD]" may be left out, "WORD..."
 * may repeat.  max_args, when not 0, caps the repetition.
 */
static void
arity(const struct core_cmd *cmd, int *min, int *max)
{
	const char *w;
	size_t n;
	int opt, rep;

	*min = *max = 0;
	for (w = cmd->operands; w != NULL && *w != '\0';
	     w += n + (w[n] == ' ')) {
		n = first_len(w);
		opt = w[0] == '[';
		rep = n >= (size_t)(3 + opt) &&
		    strncmp(w + n - 3 - opt, "...", 3) == 0;
		*min += !opt;
		*max = *max < 0 || rep ? -1 : *max + 1;
	}
	if (cmd->max_args != 0)
		*max = cmd->max_args;
}

static void
select_cmd(struct core_cli_args *a, const struct core_cmd *cmd)
{
	a->cmd = cmd;
	a->group = NULL;
	a->args = core_xcalloc(1, cmd->args_size > 0 ? cmd->args_size : 1);
	if (cmd->args_init != NULL)
		memcpy(a->args, cmd->args_init, cmd->args_size);
}

/*
 * The word w names a command, or the first half of one (a group), or,
 * after a group, its second half.
 */
static enum core_err
name_word(const struct core_cli *cli, struct core_cli_args *a, const char *w,
    struct core_buf *err)
{
	const struct core_cmd *c;
	size_t i;
	size_t n;

	for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++) {
		n = first_len(c->name);
		if (a->group != NULL) {
			if (in_group(c, a->group) && c->name[n] == ' ' &&
			    strcmp(c->name + n + 1, w) == 0) {
				select_cmd(a, c);
				return CORE_OK;
			}
		} else if (in_group(c, w)) {
			if (c->name[n] == '\0') {
				select_cmd(a, c);
				return CORE_OK;
			}
			a->group = w; /* its second word must follow */
			return CORE_OK;
		}
	}
	if (a->group != NULL)
		group_question(cli, a->group, err);
	else
		core_buf_printf(err, "%s: unknown command \"%s\"", cli->prog,
		    w);
	return CORE_EINPUT;
}

/* Digits only, as a size_t; -1 when s is not that (or overflows). */
static int
digits(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0' || errno != 0 || v > (unsigned long long)SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* Stores val into the command's struct as o says. */
static enum core_err
set_value(const struct core_cli *cli, const struct core_opt *o, void *args,
    const char *val, struct core_buf *err)
{
	char *field = (char *)args + o->off;
	const char *const *ch;
	size_t n;

	switch (o->type) {
	case CORE_OPT_FLAG:
		*(int *)(void *)field = 1;
		return CORE_OK;
	case CORE_OPT_STR:
		if (o->choices != NULL) {
			for (ch = o->choices; *ch != NULL; ch++)
				if (strcmp(*ch, val) == 0)
					break;
			if (*ch == NULL) {
				core_buf_printf(err, "%s: %s is ", cli->prog,
				    o->name);
				for (ch = o->choices; *ch != NULL; ch++)
					core_buf_printf(err, "%s%s",
					    ch == o->choices    ? ""
						: ch[1] == NULL ? " or "
								: ", ",
					    *ch);
				core_buf_printf(err, ", not \"%s\"", val);
				return CORE_EINPUT;
			}
		}
		*(const char **)(void *)field = val;
		return CORE_OK;
	case CORE_OPT_COUNT:
	case CORE_OPT_POS:
		if (digits(val, &n) != 0 ||
		    (o->type == CORE_OPT_POS && n == 0)) {
			core_buf_printf(err,
			    "%s: %s needs a number%s, not "
			    "\"%s\"",
			    cli->prog, o->name,
			    o->type == CORE_OPT_POS ? " above 0" : "", val);
			return CORE_EINPUT;
		}
		*(size_t *)(void *)field = n;
		return CORE_OK;
	case CORE_OPT__MAX:
		break;
	}
	abort(); /* a bad table: our bug */
}

/*
 * The option at argv[*i] (which starts with '-'): a global one or one of
 * the command's.  Its value is the rest after '=' or the next argument.
 */
static enum core_err
option(const struct core_cli *cli, struct core_cli_args *a, int argc,
    char **argv, int *i, struct core_buf *err)
{
	const char *s = argv[*i], *eq = strchr(s, '='), *val = NULL;
	size_t n = eq != NULL && s[1] == '-' ? (size_t)(eq - s) : strlen(s);
	const struct core_opt *o = NULL, *p;

	if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
		a->help = 1;
		return CORE_OK;
	}
	if ((n == 2 && strcmp(s, "-c") == 0) ||
	    (n == 8 && strncmp(s, "--config", 8) == 0)) {
		if (s[n] == '=')
			a->conf = s + n + 1;
		else if (*i + 1 < argc)
			a->conf = argv[++*i];
		else
			goto missing;
		return CORE_OK;
	}
	if (a->cmd != NULL && a->cmd->opts != NULL)
		for (p = a->cmd->opts; p->name != NULL; p++)
			if (strlen(p->name) == n &&
			    strncmp(p->name, s, n) == 0) {
				o = p;
				break;
			}
	if (o == NULL || (s[n] == '=' && !has_value(o)))
		goto unexpected;
	if (has_value(o)) {
		if (s[n] == '=')
			val = s + n + 1;
		else if (*i + 1 < argc)
			val = argv[++*i];
		else
			goto missing;
	}
	return set_value(cli, o, a->args, val, err);
missing:
	core_buf_printf(err, "%s: missing value for %.*s", cli->prog, (int)n,
	    s);
	return CORE_EINPUT;
unexpected:
	core_buf_printf(err, "%s: unexpected \"%s\"", cli->prog, s);
	return CORE_EINPUT;
}

enum core_err
core_cli_parse(const struct core_cli *cli, int argc, char **argv,
    struct core_cli_args *a, struct core_buf *err)
{
	enum core_err er;
	int i, min, max, options = 1;

	memset(a, 0, sizeof(*a));
	a->argv = core_xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (options && strcmp(s, "--") == 0) {
			options = 0;
			continue;
		}
		if (options && s[0] == '-' && s[1] != '\0') {
			if ((er = option(cli, a, argc, argv, &i, err)) !=
			    CORE_OK)
				return er;
			if (a->help)
				return CORE_OK; /* the rest is not read */
			continue;
		}
		if (a->cmd == NULL) {
			if ((er = name_word(cli, a, s, err)) != CORE_OK)
				return er;
			continue;
		}
		arity(a->cmd, &min, &max);
		if (max >= 0 && a->argc >= max) {
			core_buf_printf(err, "%s: unexpected \"%s\"", cli->prog,
			    s);
			return CORE_EINPUT;
		}
		a->argv[a->argc++] = argv[i];
	}
	if (a->cmd == NULL) {
		/* No command: the usage says it all, without a message. */
		if (a->group != NULL)
			group_question(cli, a->group, err);
		return CORE_EINPUT;
	}
	arity(a->cmd, &min, &max);
	if (a->argc < min) {
		core_buf_printf(err, "%s: %s: missing %s", cli->prog,
		    a->cmd->name,
		    a->cmd->operands != NULL ? a->cmd->operands : "operands");
		return CORE_EINPUT;
	}
	return CORE_OK;
}

void
core_cli_args_free(struct core_cli_args *a)
{
	if (a == NULL)
		return;
	free(a->args);
	free(a->argv);
	a->args = NULL;
	a->argv = NULL;
}

/* ------------------------------------------------------------------ */
/* Usage                                                               */
/* ------------------------------------------------------------------ */

/* "--name ARG", "--name a|b" or "--name"; '\1' where a space may not
 * break the line. */
static void
opt_form(struct core_buf *b, const struct core_opt *o, char sp)
{
	const char *const *ch;

	core_buf_puts(b, o->name);
	if (!has_value(o))
		return;
	core_buf_putc(b, sp);
	if (o->choices != NULL)
		for (ch = o->choices; *ch != NULL; ch++)
			core_buf_printf(b, "%s%s", ch == o->choices ? "" : "|",
			    *ch);
	else
		core_buf_puts(b, o->arg != NULL ? o->arg : "VALUE");
}

/*
 * Appends text (words separated by ' ', '\1' an unbreakable space)
 * after a first line already col columns wide, wrapping at WRAP_COLS
 * with indent spaces before each continuation line.
 */
static void
wrap(struct core_buf *out, const char *text, size_t col, size_t indent)
{
	const char *p = text, *e;
	size_t n, k;

	while (*p != '\0') {
		e = strchr(p, ' ');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (p != text) {
			if (col + 1 + n > WRAP_COLS) {
				core_buf_putc(out, '\n');
				for (col = 0; col < indent; col++)
					core_buf_putc(out, ' ');
			} else {
				core_buf_putc(out, ' ');
				col++;
			}
		}
		for (k = 0; k < n; k++)
			core_buf_putc(out, p[k] == '\1' ? ' ' : p[k]);
		col += n;
		p += n;
		if (*p == ' ')
			p++;
	}
}

/* "name [--opt ARG] ... operands", for wrap(). */
static void
synopsis(struct core_buf *b, const struct core_cmd *cmd)
{
	const struct core_opt *o;

	core_buf_puts(b, cmd->name);
	if (cmd->opts != NULL)
		for (o = cmd->opts; o->name != NULL; o++) {
			core_buf_puts(b, " [");
			opt_form(b, o, '\1');
			core_buf_putc(b, ']');
		}
	if (cmd->operands != NULL)
		core_buf_printf(b, " %s", cmd->operands);
}

/* Each line of text with indent spaces before it. */
static void
indented(struct core_buf *out, const char *text, int indent)
{
	const char *e;

	while (*text != '\0') {
		e = strchr(text, '\n');
		core_buf_printf(out, "%*s%.*s\n", indent, "",
		    (int)(e != NULL ? e - text : (long)strlen(text)), text);
		if (e == NULL)
			break;
		text = e + 1;
	}
}

/* "usage: PROG [-c FILE] name [--opt ARG]... operands", wrapped. */
static void
usage_line(const struct core_cli *cli, const struct core_cmd *cmd,
    const char *lead, struct core_buf *out)
{
	struct core_buf syn = CORE_BUF_INIT;
	size_t col = strlen(lead) + strlen(cli->prog) + 11;

	core_buf_printf(out, "%s%s [-c FILE] ", lead, cli->prog);
	synopsis(&syn, cmd);
	wrap(out, core_buf_cstr(&syn), col, col);
	core_buf_putc(out, '\n');
	core_buf_free(&syn);
}

static void
cmd_usage(const struct core_cli *cli, const struct core_cmd *cmd,
    struct core_buf *out)
{
	struct core_buf f = CORE_BUF_INIT;
	const struct core_opt *o;
	size_t w = 0;

	usage_line(cli, cmd, "usage: ", out);
	core_buf_putc(out, '\n');
	if (cmd->help != NULL || cmd->summary != NULL)
		indented(out, cmd->help != NULL ? cmd->help : cmd->summary, 0);
	if (cmd->opts != NULL && cmd->opts[0].name != NULL) {
		for (o = cmd->opts; o->name != NULL; o++) {
			core_buf_reset(&f);
			opt_form(&f, o, ' ');
			if (f.len > w)
				w = f.len;
		}
		core_buf_puts(out, "\nOptions:\n");
		for (o = cmd->opts; o->name != NULL; o++) {
			core_buf_reset(&f);
			opt_form(&f, o, ' ');
			core_buf_printf(out, "  %-*s  ", (int)w,
			    core_buf_cstr(&f));
			wrap(out, o->help != NULL ? o->help : "", w + 4, w + 4);
			core_buf_putc(out, '\n');
		}
	}
	core_buf_free(&f);
}

void
core_cli_usage(const struct core_cli *cli, const struct core_cmd *cmd,
    const char *group, struct core_buf *out)
{
	const struct core_cmd *c;
	size_t i;
	struct core_buf syn = CORE_BUF_INIT;
	int k = 0;

	if (cmd != NULL) {
		cmd_usage(cli, cmd, out);
		return;
	}
	if (group != NULL) {
		/* The synopses, then what each does. */
		for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++)
			if (in_group(c, group))
				usage_line(cli, c,
				    k++ > 0 ? "       " : "usage: ", out);
		core_buf_putc(out, '\n');
		for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++)
			if (in_group(c, group) && c->summary != NULL)
				core_buf_printf(out, "  %-*s  %s\n", 14,
				    c->name, c->summary);
		core_buf_printf(out, "\n\"%s %s COMMAND --help\" says more.\n",
		    cli->prog, group);
		return;
	}
	core_buf_printf(out,
	    "usage: %s [-c FILE] COMMAND [OPTIONS]\n\n"
	    "Commands:\n",
	    cli->prog);
	for (i = 0; (c = nth_cmd(cli, i)) != NULL; i++) {
		core_buf_reset(&syn);
		synopsis(&syn, c);
		core_buf_puts(out, "  ");
		wrap(out, core_buf_cstr(&syn), 2, 8);
		core_buf_putc(out, '\n');
		if (c->summary != NULL)
			indented(out, c->summary, 8);
	}
	core_buf_printf(out,
	    "\nOptions:\n"
	    "  -c, --config FILE  configuration (else $WEFT_CONF, "
	    "else " CORE_CONF_DEFAULT ")\n"
	    "  -h, --help         this text; COMMAND --help for a "
	    "command's\n");
	if (cli->footer != NULL) {
		core_buf_putc(out, '\n');
		core_buf_puts(out, cli->footer);
	}
	core_buf_free(&syn);
}

int
core_cli_main(const struct core_cli *cli, int argc, char **argv)
{
	struct core_cli_args a;
	struct core_buf err = CORE_BUF_INIT, out = CORE_BUF_INIT;
	struct core_conf *conf = NULL;
	int rc;

	if (cli->log_name != NULL)
		core_log_setname(cli->log_name);
	if (core_cli_parse(cli, argc, argv, &a, &err) != CORE_OK) {
		if (err.len > 0)
			fprintf(stderr, "%s\n", core_buf_cstr(&err));
		core_cli_usage(cli, a.cmd, a.group, &out);
		fputs(core_buf_cstr(&out), stderr);
		rc = CORE_EXIT_USAGE;
		goto out;
	}
	if (a.help) {
		core_cli_usage(cli, a.cmd, a.group, &out);
		fputs(core_buf_cstr(&out), stdout);
		rc = CORE_EXIT_OK;
		goto out;
	}
	if (core_conf_start(a.conf, &conf) != CORE_OK) {
		rc = CORE_EXIT_FAIL;
		goto out;
	}
	rc = a.cmd->run != NULL ? a.cmd->run(conf, a.args, a.argc, a.argv)
				: a.cmd->run_opts(conf, a.args);
	if (rc == CORE_EXIT_USAGE) {
		/* run said what was wrong; the usage says what is right. */
		core_cli_usage(cli, a.cmd, NULL, &out);
		fputs(core_buf_cstr(&out), stderr);
	}
out:
	core_cli_args_free(&a);
	core_conf_free(conf);
	core_buf_free(&err);
	core_buf_free(&out);
	return rc;
}
