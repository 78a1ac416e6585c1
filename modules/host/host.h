/*
 * host.h -- weftd's private interface: the loaded module, its socket and
 * the per-worker context.
 */
#ifndef HOST_H
#define HOST_H

#include "core.h"

struct host {
	struct core_conf *conf;
	const struct core_module *mod;
	void *dl;     /* dlopen() handle */
	char *listen; /* socket path or ":port" */
	int fd;       /* the listening socket */
	int nworkers;
	int unix_socket; /* 1: listen is a path we unlink at exit */
	struct core_metrics *metrics; /* shared with the workers */
};

/*
 * Loads conf and the module, opens the listening socket.  listen,
 * moddir and nworkers (< 0) fall back to the config.  Started as root
 * with "user.<module>" (or "user") set, it checks the schema as that
 * user, gives it the socket and then becomes it for good.  listen "-"
 * opens no socket (weftd -x: a module's command).  CORE_EINPUT or
 * CORE_ESYS, logged, on failure.
 */
enum core_err host_open(struct host *, const char *confpath,
    const char *modname, const char *listen, const char *moddir, long nworkers);
/* Re-reads the config (for SIGHUP); the old one stays on failure. */
enum core_err host_reload(struct host *, const char *confpath);
void host_close(struct host *);

/*
 * Fills a worker's context: database (with the module's statements
 * prepared), base URL, cookie name.  A database that is down is not an
 * error (requests get 503 until it is back); a statement that does not
 * prepare is (the schema does not match this build).
 */
enum core_err host_ctx_open(struct host *, struct core_ctx *);
void host_ctx_close(struct core_ctx *);

#endif /* HOST_H */
