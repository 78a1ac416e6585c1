/*
 * host.c -- loading the module, the listening socket, worker contexts.
 */
#include <sys/stat.h>

#include <dlfcn.h>
#include <grp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "core.h"
#include "host.h"

static enum core_loglevel
parse_level(const char *s)
{
	if (strcmp(s, "debug") == 0)
		return CORE_LOG_DEBUG;
	if (strcmp(s, "warn") == 0)
		return CORE_LOG_WARN;
	if (strcmp(s, "error") == 0)
		return CORE_LOG_ERROR;
	return CORE_LOG_INFO;
}

static enum core_err
load_module(struct host *hs, const char *modname, const char *moddir)
{
	char path[4096];
	size_t i;

	/* The name becomes a file name: letters only. */
	for (i = 0; modname[i] != '\0'; i++)
		if (!(modname[i] >= 'a' && modname[i] <= 'z'))
			break;
	if (i == 0 || modname[i] != '\0') {
		core_log(CORE_LOG_ERROR, "start", "bad module name");
		return CORE_EINPUT;
	}
	if (moddir == NULL)
		moddir = core_conf_get(hs->conf, "modules_dir", "build");
	snprintf(path, sizeof(path), "%s/%s.so", moddir, modname);
	if ((hs->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		core_log(CORE_LOG_ERROR, "start", "dlopen %s: %s", path,
		    dlerror());
		return CORE_ESYS;
	}
	hs->mod = dlsym(hs->dl, "weft_module");
	if (hs->mod == NULL || hs->mod->name == NULL ||
	    strcmp(hs->mod->name, modname) != 0 || hs->mod->routes == NULL) {
		core_log(CORE_LOG_ERROR, "start", "%s: no weft_module "
		    "descriptor named %s", path, modname);
		return CORE_ESYS;
	}
	return CORE_OK;
}

static enum core_err
open_socket(struct host *hs, const char *listen)
{
	char buf[4096];
	const char *group;
	struct group *gr;
	long mode;

	if (listen == NULL) {
		/* listen.<module> first: each pool has its own address. */
		snprintf(buf, sizeof(buf), "listen.%s", hs->mod->name);
		listen = core_conf_get(hs->conf, buf, NULL);
	}
	if (listen == NULL)
		listen = core_conf_get(hs->conf, "listen", NULL);
	if (listen == NULL) {
		snprintf(buf, sizeof(buf), "%s/%s.sock",
		    core_conf_get(hs->conf, "socket_dir", "var/run"),
		    hs->mod->name);
		listen = buf;
	}
	hs->listen = core_xstrdup(listen);
	hs->unix_socket = strchr(listen, ':') == NULL;
	if (hs->unix_socket)
		unlink(listen); /* a stale socket from a crash */
	if ((hs->fd = FCGX_OpenSocket(listen, 1024)) < 0) {
		core_log(CORE_LOG_ERROR, "start", "cannot listen on %s: %s",
		    listen, strerror(errno));
		return CORE_ESYS;
	}
	if (hs->unix_socket) {
		/* nginx's workers must be able to connect: 0660 with the
		 * nginx group in production, 0666 for the local default. */
		mode = strtol(core_conf_get(hs->conf, "socket_mode", "0660"),
		    NULL, 8);
		if (chmod(listen, (mode_t)mode) != 0) {
			core_log(CORE_LOG_ERROR, "start", "chmod %s: %s",
			    listen, strerror(errno));
			return CORE_ESYS;
		}
		if ((group = core_conf_get(hs->conf, "socket_group", NULL)) !=
		    NULL && *group != '\0') {
			if ((gr = getgrnam(group)) == NULL ||
			    chown(listen, (uid_t)-1, gr->gr_gid) != 0) {
				core_log(CORE_LOG_ERROR, "start", "cannot give "
				    "%s to group %s (is the service user in "
				    "it?)", listen, group);
				return CORE_ESYS;
			}
		}
	}
	return CORE_OK;
}

static void
apply_conf(struct host *hs, long nworkers)
{
	core_log_setlevel(parse_level(core_conf_get(hs->conf, "log_level",
	    "info")));
	if (nworkers < 0)
		nworkers = core_conf_int(hs->conf, "workers", 2);
	if (nworkers < 1)
		nworkers = 1;
	if (nworkers > 32)
		nworkers = 32;
	hs->nworkers = (int)nworkers;
}

/*
 * The connection string of this module: "db.<module>" when set, else
 * "db".  With streaming replicas, "db" names the replicas first and
 * libpq picks one (target_session_attrs=prefer-standby), while the
 * modules that write -- accounts -- get the primary through
 * db.accounts (target_session_attrs=read-write); a user then reads back
 * their own follows from the primary, never from a lagging replica.
 */
static const char *
host_conninfo(struct host *hs)
{
	char key[64];
	const char *v;

	snprintf(key, sizeof(key), "db.%s", hs->mod->name);
	if ((v = core_conf_get(hs->conf, key, NULL)) != NULL && *v != '\0')
		return v;
	return core_conf_get(hs->conf, "db", "dbname=weft");
}

/*
 * The newest migration this build was made with (the Makefile passes it).
 * Workers refuse a database whose schema is older (queries would fail
 * later, one by one) or newer (a newer deploy is running against it).
 */
#ifndef WEFT_SCHEMA_VERSION
#error "WEFT_SCHEMA_VERSION must be defined by the build"
#endif

enum { SCHEMA_VERSION__VERSION, SCHEMA_VERSION__MAX };
static const char *const version_cols[SCHEMA_VERSION__MAX] = { "version" };
static const struct core_stmt version_stmt[] = {
	{ "SCHEMA_VERSION",
	  "SELECT coalesce(max(version), 0) AS version FROM schema_migrations",
	  version_cols, SCHEMA_VERSION__MAX },
};

static enum core_err
check_schema(struct host *hs)
{
	struct core_db *db = NULL;
	PGresult *res = NULL;
	enum core_err er;
	long have;

	er = core_db_open(host_conninfo(hs), version_stmt, 1, &db);
	if (er != CORE_OK && PQstatus(core_db_conn(db)) != CONNECTION_OK) {
		/* Down: start anyway, answer 503 until it is back. */
		core_log(CORE_LOG_WARN, "start", "database unreachable; "
		    "starting without checking the schema version");
		er = CORE_OK;
		goto out;
	}
	if (er == CORE_OK)
		er = core_db_exec(db, 0, NULL, 0, &res);
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "start", "the database has no "
		    "migrations; run weft-harvest migrate");
		goto out;
	}
	have = core_cell_bigint(res, 0, SCHEMA_VERSION__VERSION, 0);
	if (have != WEFT_SCHEMA_VERSION) {
		core_log(CORE_LOG_ERROR, "start", "the database schema is "
		    "version %ld, this build needs %d: %s", have,
		    WEFT_SCHEMA_VERSION, have < WEFT_SCHEMA_VERSION ?
		    "run weft-harvest migrate" : "deploy the newer build");
		er = CORE_EINPUT;
	}
out:
	PQclear(res);
	core_db_close(db);
	return er;
}

enum core_err
host_open(struct host *hs, const char *confpath, const char *modname,
    const char *listen, const char *moddir, long nworkers)
{
	enum core_err er;
	char key[64];

	memset(hs, 0, sizeof(*hs));
	hs->fd = -1;
	if ((er = core_conf_load(confpath, &hs->conf)) != CORE_OK)
		return er;
	if (nworkers < 0) {
		snprintf(key, sizeof(key), "workers.%s", modname);
		nworkers = core_conf_int(hs->conf, key, -1);
	}
	apply_conf(hs, nworkers);
	if ((er = load_module(hs, modname, moddir)) != CORE_OK)
		return er;
	if (hs->mod->nstmts > 0 && (er = check_schema(hs)) != CORE_OK)
		return er;
	if ((er = open_socket(hs, listen)) != CORE_OK)
		return er;
	hs->metrics = core_metrics_open(core_conf_get(hs->conf, "socket_dir",
	    "var/run"), hs->mod);
	return CORE_OK;
}

enum core_err
host_reload(struct host *hs, const char *confpath)
{
	struct core_conf *c;
	char key[64];

	if (core_conf_load(confpath, &c) != CORE_OK) {
		core_log(CORE_LOG_ERROR, "reload", "keeping the old config");
		return CORE_EINPUT;
	}
	core_conf_free(hs->conf);
	hs->conf = c;
	snprintf(key, sizeof(key), "workers.%s", hs->mod->name);
	apply_conf(hs, core_conf_int(hs->conf, key, -1));
	core_log(CORE_LOG_INFO, "reload", "config reloaded, %d workers",
	    hs->nworkers);
	return CORE_OK;
}

void
host_close(struct host *hs)
{
	if (hs->fd >= 0)
		close(hs->fd);
	if (hs->unix_socket && hs->listen != NULL)
		unlink(hs->listen);
	free(hs->listen);
	core_conf_free(hs->conf);
	/* The module stays loaded: its descriptor may still be referenced. */
}

enum core_err
host_ctx_open(struct host *hs, struct core_ctx *ctx)
{
	const char *conninfo, *redis;
	enum core_err er;

	memset(ctx, 0, sizeof(*ctx));
	ctx->conf = hs->conf;
	ctx->mod = hs->mod;
	ctx->metrics = hs->metrics;
	ctx->cache_ttl = core_conf_int(hs->conf, "cache_ttl", 300);
	core_metrics_count(ctx->metrics, CORE_METRIC_WORKER_START);
	ctx->base_url = core_conf_get(hs->conf, "base_url",
	    "http://127.0.0.1:8080");
	ctx->session_cookie = core_conf_get(hs->conf, "session_cookie",
	    "weft_session");
	if ((redis = core_conf_get(hs->conf, "redis", NULL)) != NULL &&
	    *redis != '\0')
		ctx->redis = core_redis_open(redis);
	if (hs->mod->nstmts == 0)
		return CORE_OK;
	conninfo = host_conninfo(hs);
	er = core_db_open(conninfo, hs->mod->stmts, hs->mod->nstmts,
	    &ctx->db);
	if (er != CORE_OK &&
	    PQstatus(core_db_conn(ctx->db)) == CONNECTION_OK) {
		core_log(CORE_LOG_ERROR, "start", "the database schema does "
		    "not match this build (run weft-harvest migrate)");
		return er;
	}
	return CORE_OK;
}

void
host_ctx_close(struct core_ctx *ctx)
{
	core_db_close(ctx->db);
	ctx->db = NULL;
	core_redis_close(ctx->redis);
	ctx->redis = NULL;
}
