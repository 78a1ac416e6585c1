/*
 * conf.c -- the configuration file: "key = value" lines, '#' comments,
 * blank lines ignored.  WEFT_<KEY> environment variables override it, so
 * that tests and service units can change one setting without a file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

struct core_conf {
	struct core_params kv; /* reuses the key/value list */
};

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void
conf_set(struct core_conf *c, const char *k, const char *v)
{
	size_t i;

	for (i = 0; i < c->kv.n; i++)
		if (strcmp(c->kv.v[i].key, k) == 0) {
			free(c->kv.v[i].val);
			c->kv.v[i].val = core_xstrdup(v);
			return;
		}
	c->kv.v = core_xrealloc(c->kv.v, (c->kv.n + 1) * sizeof(*c->kv.v));
	c->kv.v[c->kv.n].key = core_xstrdup(k);
	c->kv.v[c->kv.n].val = core_xstrdup(v);
	c->kv.n++;
}

enum core_err
core_conf_load(const char *path, struct core_conf **cp)
{
	struct core_conf *c;
	FILE *f;
	char *line = NULL, *k, *v, *eq;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0;
	enum core_err er = CORE_OK;

	c = core_xcalloc(1, sizeof(*c));
	*cp = NULL;
	if ((f = fopen(path, "r")) == NULL) {
		core_log(CORE_LOG_ERROR, "conf", "cannot open %s: %s", path,
		    strerror(errno));
		core_conf_free(c);
		return CORE_EINPUT;
	}
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		k = trim(line);
		if (*k == '\0' || *k == '#')
			continue;
		if ((eq = strchr(k, '=')) == NULL) {
			core_log(CORE_LOG_ERROR, "conf",
			    "%s:%d: expected key = value", path, lineno);
			er = CORE_EINPUT;
			break;
		}
		*eq = '\0';
		v = trim(eq + 1);
		k = trim(k);
		if (*k == '\0') {
			core_log(CORE_LOG_ERROR, "conf", "%s:%d: empty key",
			    path, lineno);
			er = CORE_EINPUT;
			break;
		}
		conf_set(c, k, v);
	}
	free(line);
	fclose(f);
	if (er != CORE_OK) {
		core_conf_free(c);
		return er;
	}
	*cp = c;
	return CORE_OK;
}

/* WEFT_<KEY> with '.' and '-' as '_', upper case. */
static const char *
conf_env(const char *key)
{
	char name[128];
	size_t i, n;

	n = snprintf(name, sizeof(name), "WEFT_%s", key);
	if (n >= sizeof(name))
		return NULL;
	for (i = 5; i < n; i++) {
		if (name[i] == '.' || name[i] == '-')
			name[i] = '_';
		else
			name[i] = (char)toupper((unsigned char)name[i]);
	}
	return getenv(name);
}

const char *
core_conf_get(const struct core_conf *c, const char *key, const char *def)
{
	const char *v;

	if ((v = conf_env(key)) != NULL)
		return v;
	if (c != NULL && (v = core_params_get(&c->kv, key)) != NULL)
		return v;
	return def;
}

long
core_conf_int(const struct core_conf *c, const char *key, long def)
{
	const char *v;
	char *end;
	long n;

	if ((v = core_conf_get(c, key, NULL)) == NULL || *v == '\0')
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0') {
		core_log(CORE_LOG_WARN, "conf", "%s: not a number, using %ld",
		    key, def);
		return def;
	}
	return n;
}

enum core_err
core_conf_secret(const struct core_conf *c, const char *key, char **secretp)
{
	const char *path = core_conf_get(c, key, "");
	char line[512];
	FILE *f;

	*secretp = NULL;
	if (*path == '\0')
		return CORE_OK;
	if ((f = fopen(path, "r")) == NULL) {
		core_log(CORE_LOG_ERROR, "conf", "%s: cannot read %s: %s", key,
		    path, strerror(errno));
		return CORE_EINPUT;
	}
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\r\n")] = '\0';
	*secretp = core_xstrdup(line);
	return CORE_OK;
}

void
core_conf_free(struct core_conf *c)
{
	if (c == NULL)
		return;
	core_params_free(&c->kv);
	free(c);
}

const char *
core_conf_path(const char *path, int optional)
{
	if (path != NULL)
		return path;
	if ((path = getenv("WEFT_CONF")) != NULL)
		return path;
	/*
	 * A command run from a checkout or by a unit with WEFT_<KEY> in its
	 * environment needs no file; a server is told which one it reads.
	 */
	if (optional && access(CORE_CONF_DEFAULT, F_OK) != 0)
		return "/dev/null";
	return CORE_CONF_DEFAULT;
}

enum core_err
core_conf_start(const char *path, struct core_conf **cp)
{
	enum core_err er;

	if ((er = core_conf_load(core_conf_path(path, 1), cp)) != CORE_OK)
		return er;
	core_log_conf(*cp);
	return CORE_OK;
}
