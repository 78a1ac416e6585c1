/*
 * host.c -- loading the module, the listening socket, worker contexts.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dlfcn.h>
#include <grp.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "core.h"
#include "host.h"

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
		core_log(CORE_LOG_ERROR, "start",
		    "%s: no weft_module "
		    "descriptor named %s",
		    path, modname);
		return CORE_ESYS;
	}
	return CORE_OK;
}

/* The user a pool runs as (see pool_user()). */
struct pool_id {
	uid_t uid;
	gid_t gid;
	char name[64];
};

static enum core_err
open_socket(struct host *hs, const char *listen, const struct pool_id *pw)
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
		/* Only nginx's workers may connect: 0660, the pool's user
		 * and the nginx group (socket_group). */
		mode = strtol(core_conf_get(hs->conf, "socket_mode", "0660"),
		    NULL, 8);
		if (chmod(listen, (mode_t)mode) != 0) {
			core_log(CORE_LOG_ERROR, "start", "chmod %s: %s",
			    listen, strerror(errno));
			return CORE_ESYS;
		}
		if ((group = core_conf_get(hs->conf, "socket_group", NULL)) !=
			NULL &&
		    *group != '\0') {
			if ((gr = getgrnam(group)) == NULL ||
			    chown(listen, (uid_t)-1, gr->gr_gid) != 0) {
				core_log(CORE_LOG_ERROR, "start",
				    "cannot give "
				    "%s to group %s (is the service user in "
				    "it?)",
				    listen, group);
				return CORE_ESYS;
			}
		}
		/* Owned by the pool's user, which it is about to become. */
		if (pw != NULL && chown(listen, pw->uid, (gid_t)-1) != 0) {
			core_log(CORE_LOG_ERROR, "start", "chown %s: %s",
			    listen, strerror(errno));
			return CORE_ESYS;
		}
	}
	return CORE_OK;
}

/*
 * The system user this pool runs as: "user.<module>", else "user".
 * weftd started as root opens its socket and then becomes that user for
 * good, as slowcgi does: the workers, which parse every request, never
 * hold root.  Started as another user (a developer's make run), that
 * user must be the configured one, or none be configured.  On CORE_OK
 * *pwp is the user to become, or NULL to stay as we are.
 */
static enum core_err
pool_user(struct host *hs, struct pool_id *id, struct pool_id **pwp)
{
	char key[64];
	const char *name;
	struct passwd *pw;

	*pwp = NULL;
	snprintf(key, sizeof(key), "user.%s", hs->mod->name);
	if ((name = core_conf_get(hs->conf, key, NULL)) == NULL)
		name = core_conf_get(hs->conf, "user", NULL);
	if (name == NULL || *name == '\0') {
		if (geteuid() == 0)
			core_log(CORE_LOG_WARN, "start",
			    "running as root: set %s to the pool's own user",
			    key);
		return CORE_OK;
	}
	if ((pw = getpwnam(name)) == NULL) {
		core_log(CORE_LOG_ERROR, "start", "%s: no user %s", key, name);
		return CORE_EINPUT;
	}
	if (pw->pw_uid == 0) {
		core_log(CORE_LOG_ERROR, "start", "%s: %s is root", key, name);
		return CORE_EINPUT;
	}
	if (geteuid() == pw->pw_uid)
		return CORE_OK;
	if (geteuid() != 0) {
		core_log(CORE_LOG_ERROR, "start",
		    "%s is %s: start weftd as root (it switches) or as that "
		    "user",
		    key, name);
		return CORE_EINPUT;
	}
	/* getpwnam()'s answer lives only until the next look-up. */
	id->uid = pw->pw_uid;
	id->gid = pw->pw_gid;
	snprintf(id->name, sizeof(id->name), "%s", name);
	*pwp = id;
	return CORE_OK;
}

/*
 * Becomes pw for good: supplementary groups, group, then user (in that
 * order: setuid first would leave no right to change the groups).  The
 * supplementary groups are the user's in /etc/group (redis, for its
 * socket); the sockets' group (socket_group, www-data) must not be one
 * of them, or a pool could connect to another pool's socket.
 */
static enum core_err
become(const struct pool_id *pw)
{
	if (initgroups(pw->name, pw->gid) != 0 || setgid(pw->gid) != 0 ||
	    setuid(pw->uid) != 0) {
		core_log(CORE_LOG_ERROR, "start", "cannot become %s: %s",
		    pw->name, strerror(errno));
		return CORE_ESYS;
	}
	if (getuid() != pw->uid || geteuid() != pw->uid ||
	    getgid() != pw->gid || getegid() != pw->gid || setuid(0) == 0) {
		core_log(CORE_LOG_ERROR, "start",
		    "still privileged after becoming %s", pw->name);
		return CORE_ESYS;
	}
#if defined(__SANITIZE_ADDRESS__)
	/*
	 * LeakSanitizer ptraces the process at exit, which the kernel
	 * refuses once credentials changed (the process is no longer
	 * dumpable).  Sanitizer builds only: production stays undumpable.
	 */
	(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
#endif
	return CORE_OK;
}

static void
apply_conf(struct host *hs, long nworkers)
{
	core_log_conf(hs->conf);
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
	    "SELECT coalesce(max(version), 0) AS version FROM "
	    "schema_migrations",
	    version_cols, SCHEMA_VERSION__MAX, 0 },
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
		core_log(CORE_LOG_WARN, "start",
		    "database unreachable; "
		    "starting without checking the schema version");
		er = CORE_OK;
		goto out;
	}
	if (er == CORE_OK)
		er = core_db_exec(db, 0, NULL, 0, &res);
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "start",
		    "the database has no "
		    "migrations; run weft-harvest migrate");
		goto out;
	}
	have = core_cell_bigint(res, 0, SCHEMA_VERSION__VERSION, 0);
	if (have != WEFT_SCHEMA_VERSION) {
		core_log(CORE_LOG_ERROR, "start",
		    "the database schema is "
		    "version %ld, this build needs %d: %s",
		    have, WEFT_SCHEMA_VERSION,
		    have < WEFT_SCHEMA_VERSION ? "run weft-harvest migrate"
					       : "deploy the newer build");
		er = CORE_EINPUT;
	}
out:
	PQclear(res);
	core_db_close(db);
	return er;
}

/*
 * check_schema() as the pool's user: peer authentication maps the
 * system user to the database role, so the check connects as the
 * workers will.  In a child, so that no socket exists yet when the
 * check fails.
 */
static enum core_err
check_schema_as(struct host *hs, const struct pool_id *pw)
{
	pid_t pid;
	int st;

	if (pw == NULL)
		return check_schema(hs);
	if ((pid = fork()) == -1) {
		core_log(CORE_LOG_ERROR, "start", "fork: %s", strerror(errno));
		return CORE_ESYS;
	}
	if (pid == 0)
		_exit(become(pw) != CORE_OK || check_schema(hs) != CORE_OK);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return CORE_ESYS;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? CORE_OK : CORE_EINPUT;
}

enum core_err
host_open(struct host *hs, const char *confpath, const char *modname,
    const char *listen, const char *moddir, long nworkers)
{
	struct pool_id id, *pw = NULL;
	const char *sockdir;
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
	if ((er = pool_user(hs, &id, &pw)) != CORE_OK)
		return er;
	if (hs->mod->nstmts > 0 && (er = check_schema_as(hs, pw)) != CORE_OK)
		return er;
	/* listen "-": a command (weftd -x) that serves nothing. */
	if (listen != NULL && strcmp(listen, "-") == 0) {
		if (pw != NULL && (er = become(pw)) != CORE_OK)
			return er;
		return CORE_OK;
	}
	if ((er = open_socket(hs, listen, pw)) != CORE_OK)
		return er;
	sockdir = core_conf_get(hs->conf, "socket_dir", "var/run");
	hs->metrics = core_metrics_open(sockdir, hs->mod);
	/* Last: the socket and the metrics file need root to be made. */
	if (pw != NULL && (er = become(pw)) != CORE_OK)
		return er;
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
	const char *conninfo;
	enum core_err er;

	memset(ctx, 0, sizeof(*ctx));
	ctx->conf = hs->conf;
	ctx->mod = hs->mod;
	if (hs->mod->state_size > 0)
		ctx->mod_state = core_xcalloc(1, hs->mod->state_size);
	ctx->metrics = hs->metrics;
	ctx->cache_ttl = core_conf_int(hs->conf, "cache_ttl", 300);
	core_metrics_count(ctx->metrics, CORE_METRIC_WORKER_START);
	ctx->base_url =
	    core_conf_get(hs->conf, "base_url", "http://127.0.0.1:8080");
	ctx->session_cookie =
	    core_conf_get(hs->conf, "session_cookie", "weft_session");
	ctx->redis = core_redis_open(hs->conf);
	if (hs->mod->nstmts == 0)
		return CORE_OK;
	conninfo = host_conninfo(hs);
	er = core_db_open(conninfo, hs->mod->stmts, hs->mod->nstmts, &ctx->db);
	if (er != CORE_OK && PQstatus(core_db_conn(ctx->db)) == CONNECTION_OK) {
		core_log(CORE_LOG_ERROR, "start",
		    "the database schema does "
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
	free(ctx->mod_state);
	ctx->mod_state = NULL;
}
