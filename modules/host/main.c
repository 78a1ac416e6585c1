/*
 * weftd -- the plugin host.  Loads one module (a shared object), opens
 * its FastCGI socket, pre-forks workers that accept on it, restarts a
 * worker that dies, reloads on SIGHUP by replacing workers one by one,
 * and on SIGTERM lets workers finish their request and exits.
 *
 *   weftd -c conf/weft.conf -m pages
 *
 * Several processes accepting on one socket is safe: the kernel hands
 * each connection to one of them.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>
#include <sodium.h>

#include "core.h"
#include "host.h"

#define MAX_WORKERS 64

static volatile sig_atomic_t got_term, got_hup, got_chld;

struct worker {
	pid_t pid;
	time_t started;
	int retiring; /* sent SIGTERM after a reload */
};

static void
on_signal(int sig)
{
	if (sig == SIGTERM || sig == SIGINT)
		got_term = 1;
	else if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGCHLD)
		got_chld = 1;
}

/*
 * Without SA_RESTART, so that a blocking accept() or waitpid() returns
 * EINTR and the loops see the flags (glibc's signal() would restart).
 */
static void catch (int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: weftd [-c conf] -m module [-n workers] "
	    "[-l listen] [-d modules_dir]\n"
	    "       weftd [-c conf] -m module [-d modules_dir] -x command "
	    "[args...]\n"
	    "  listen is a unix socket path or :port / host:port\n");
	exit(2);
}

/*
 * Runs the module's init on ctx; when it fails, logs that and runs its
 * fini, which releases what init built before it stopped.
 */
static enum core_err
mod_init(struct host *hs, struct core_ctx *ctx)
{
	enum core_err er;

	if (hs->mod->init == NULL || (er = hs->mod->init(ctx)) == CORE_OK)
		return CORE_OK;
	core_log(CORE_LOG_ERROR, "init", "module init failed: %s",
	    core_err_str(er));
	if (hs->mod->fini != NULL)
		hs->mod->fini(ctx);
	return er;
}

/*
 * weftd -x: runs the module's command once in this process, with a
 * worker's context (database, Redis, config), and returns its status.
 */
static int
command_main(struct host *hs, int argc, char **argv)
{
	struct core_ctx ctx;
	int rc = 1;

	signal(SIGPIPE, SIG_IGN);
	if (hs->mod->command == NULL) {
		core_log(CORE_LOG_ERROR, "start", "module %s has no commands",
		    hs->mod->name);
		return 2;
	}
	if (host_ctx_open(hs, &ctx) != CORE_OK)
		return 1;
	if (mod_init(hs, &ctx) != CORE_OK) {
		host_ctx_close(&ctx);
		return 1;
	}
	rc = hs->mod->command(&ctx, argc, argv);
	if (hs->mod->fini != NULL)
		hs->mod->fini(&ctx);
	host_ctx_close(&ctx);
	return rc;
}

/* The worker process: never returns. */
static void
worker_main(struct host *hs)
{
	FCGX_Request req;
	struct core_ctx ctx;
	int rc;

	got_term = 0;
	catch (SIGTERM);
	catch (SIGINT);
	signal(SIGHUP, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);

	if (host_ctx_open(hs, &ctx) != CORE_OK)
		_exit(1);
	if (mod_init(hs, &ctx) != CORE_OK)
		_exit(1);
	FCGX_Init();
	FCGX_InitRequest(&req, hs->fd, FCGI_FAIL_ACCEPT_ON_INTR);
	while (!got_term) {
		rc = FCGX_Accept_r(&req);
		if (rc < 0) {
			if (got_term)
				break;
			if (rc == -EINTR || errno == EINTR)
				continue;
			core_log(CORE_LOG_ERROR, "accept", "accept failed: %d",
			    rc);
			break;
		}
		core_serve(&ctx, &req);
		FCGX_Finish_r(&req);
	}
	if (hs->mod->fini != NULL)
		hs->mod->fini(&ctx);
	host_ctx_close(&ctx);
	_exit(0);
}

static pid_t
spawn(struct host *hs)
{
	pid_t pid;

	if ((pid = fork()) == -1) {
		core_log(CORE_LOG_ERROR, "fork", "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		worker_main(hs);
	return pid;
}

static int
alive(const struct worker *w, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (w[i].pid > 0)
			k++;
	return k;
}

/* Reaps dead workers, logging the unexpected deaths. */
static void
reap(struct worker *w, int n)
{
	pid_t pid;
	int i, st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (i = 0; i < n; i++)
			if (w[i].pid == pid) {
				if (!w[i].retiring && !got_term)
					core_log(CORE_LOG_WARN, "worker",
					    "worker %d died (%s %d), "
					    "restarting",
					    (int)pid,
					    WIFSIGNALED(st) ? "signal"
							    : "status",
					    WIFSIGNALED(st) ? WTERMSIG(st)
							    : WEXITSTATUS(st));
				w[i].pid = 0;
				w[i].retiring = 0;
			}
}

int
main(int argc, char *argv[])
{
	struct host hs;
	struct worker w[MAX_WORKERS];
	const char *confpath = NULL;
	const char *modname = NULL, *listen = NULL, *moddir = NULL;
	long nworkers = -1;
	time_t now;
	int ch, i, live, cmd = 0, rc;

	while ((ch = getopt(argc, argv, "+c:m:n:l:d:x")) != -1)
		switch (ch) {
		case 'c':
			confpath = optarg;
			break;
		case 'm':
			modname = optarg;
			break;
		case 'n':
			nworkers = strtol(optarg, NULL, 10);
			break;
		case 'l':
			listen = optarg;
			break;
		case 'd':
			moddir = optarg;
			break;
		case 'x':
			cmd = 1;
			break;
		default:
			usage();
		}
	if (modname == NULL || (cmd ? optind == argc : optind != argc))
		usage();
	/*
	 * A worker answers request after request with the same few large
	 * buffers (the page, its model, the copies for the cache): keep the
	 * freed memory in the heap rather than give it back to the kernel
	 * at every free.  With glibc's defaults (trim above 128 KiB, mmap
	 * above a threshold that moves) each large page faulted its memory
	 * in again: 2.4 ms of a worker's CPU for the 48 KB researcher page
	 * served from Redis, 0.23 ms with these (tests/bench/README.md).
	 * The workers' RSS stays that of their largest request.  Release
	 * builds link tcmalloc (Makefile), which keeps its pages by itself
	 * and takes these as no-ops; they matter for glibc's allocator
	 * (a build without tcmalloc, the sanitizer builds' own aside).
	 */
	mallopt(M_MMAP_THRESHOLD, 8 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	/* -c, else $WEFT_CONF, else conf/weft.conf, which must exist. */
	confpath = core_conf_path(confpath, 0);
	core_log_setname(modname);
	if (sodium_init() < 0) {
		core_log(CORE_LOG_ERROR, "start", "libsodium failed");
		return 1;
	}
	if (host_open(&hs, confpath, modname, cmd ? "-" : listen, moddir,
		nworkers) != CORE_OK) {
		host_close(&hs);
		return 1;
	}
	if (cmd) {
		rc = command_main(&hs, argc - optind, argv + optind);
		host_close(&hs);
		return rc;
	}

	catch (SIGTERM);
	catch (SIGINT);
	catch (SIGHUP);
	catch (SIGCHLD);
	signal(SIGPIPE, SIG_IGN);

	memset(w, 0, sizeof(w));
	core_log(CORE_LOG_INFO, "start", "%s: %d workers on %s", modname,
	    hs.nworkers, hs.listen);
	while (!got_term) {
		reap(w, MAX_WORKERS);
		if (got_hup) {
			got_hup = 0;
			/* New config first; old workers retire as new ones
			 * take over, so the socket always has acceptors. */
			if (host_reload(&hs, confpath) == CORE_OK)
				for (i = 0; i < MAX_WORKERS; i++)
					if (w[i].pid > 0 && !w[i].retiring) {
						w[i].retiring = 1;
						kill(w[i].pid, SIGTERM);
					}
		}
		now = time(NULL);
		live = 0;
		for (i = 0; i < MAX_WORKERS; i++)
			if (w[i].pid > 0 && !w[i].retiring)
				live++;
		for (i = 0; i < MAX_WORKERS && live < hs.nworkers; i++) {
			/* A slot whose worker died in the second it started
			 * (schema mismatch, bad config) waits a second. */
			if (w[i].pid != 0 || w[i].started == now)
				continue;
			if ((w[i].pid = spawn(&hs)) > 0) {
				w[i].started = now;
				live++;
			}
		}
		got_chld = 0;
		/* Sleeps until a signal arrives, or 1 s for retries. */
		if (!got_chld && !got_term && !got_hup)
			sleep(1);
	}
	core_log(CORE_LOG_INFO, "stop", "stopping %d workers",
	    alive(w, MAX_WORKERS));
	for (i = 0; i < MAX_WORKERS; i++)
		if (w[i].pid > 0)
			kill(w[i].pid, SIGTERM);
	while (alive(w, MAX_WORKERS) > 0) {
		pid_t pid = wait(NULL);
		if (pid < 0 && errno == ECHILD)
			break;
		for (i = 0; i < MAX_WORKERS; i++)
			if (w[i].pid == pid)
				w[i].pid = 0;
	}
	host_close(&hs);
	return 0;
}
