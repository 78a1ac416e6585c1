/*
 * metrics.c -- request counters and latency histograms shared by the
 * workers of one weftd, and the Prometheus text rendering of all of them.
 *
 * Each weftd maps a file <socket_dir>/<module>.metrics (MAP_SHARED) before
 * forking, so its workers count into one table with relaxed atomics and a
 * restarted worker loses nothing.  /metrics, answered by any module, reads
 * every *.metrics file in the socket directory: one scrape shows the
 * whole machine.  The file layout is this struct, versioned by magic.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

#define METRICS_MAGIC   0x77656674u /* "weft" */
#define METRICS_VERSION 2
#define NROUTES         48 /* routes of one module, plus "unrouted" */
#define NSTATUS         16
#define NBUCKETS        12

/* clang-format off */
static const int statuses[NSTATUS] = {
	200, 300, 301, 303, 304, 400, 403, 404, 405, 406, 413, 414, 429,
	500, 503, 0, /* 0: any other */
};
/* Upper bounds in microseconds; the last is +Inf. */
static const long buckets_us[NBUCKETS] = {
	1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, -1,
};
static const char *const bucket_le[NBUCKETS] = {
	"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25",
	"0.5", "1", "2.5", "+Inf",
};
/* clang-format on */

struct core_metrics {
	uint32_t magic;
	uint32_t version;
	char module[16];
	uint32_t nroutes;
	char routes[NROUTES][48];
	uint64_t requests[NROUTES][NSTATUS][CORE_REP__MAX];
	uint64_t latency[NROUTES][NBUCKETS];
	uint64_t latency_sum_us[NROUTES];
	uint64_t counts[CORE_METRIC__MAX];
};

/*
 * The counters of core_metrics_count, as /metrics shows them: rows of
 * one family follow each other, the first one with its help text.
 */
static const struct {
	const char *family;
	const char *help;  /* NULL: the family of the row above */
	const char *label; /* a label of the row, or NULL */
} counters[CORE_METRIC__MAX] = {
	[CORE_METRIC_CACHE_HIT] = { "weft_cache_requests_total",
	    "Rendered-page cache lookups in Redis.", "result=\"hit\"" },
	[CORE_METRIC_CACHE_MISS] = { "weft_cache_requests_total", NULL,
	    "result=\"miss\"" },
	[CORE_METRIC_DB_ERROR] = { "weft_db_errors_total",
	    "Failed database statements.", NULL },
	[CORE_METRIC_WORKER_START] = { "weft_worker_starts_total",
	    "Worker processes started (restarts included).", NULL },
	[CORE_METRIC_MAIL_CAPPED] = { "weft_mail_not_sent_total",
	    "Mails not sent: the address had its daily cap, or the relay "
	    "failed.",
	    "reason=\"cap\"" },
	[CORE_METRIC_MAIL_FAILED] = { "weft_mail_not_sent_total", NULL,
	    "reason=\"relay\"" },
	[CORE_METRIC_LIMITED] = { "weft_read_limit_total",
	    "Reads checked against the fair-use limits: refused (429), "
	    "passed unchecked because Redis was down, with an API key, "
	    "refused for an unknown key (401).",
	    "result=\"limited\"" },
	[CORE_METRIC_LIMIT_OPEN] = { "weft_read_limit_total", NULL,
	    "result=\"open\"" },
	[CORE_METRIC_KEY_READ] = { "weft_read_limit_total", NULL,
	    "result=\"key\"" },
	[CORE_METRIC_KEY_REFUSED] = { "weft_read_limit_total", NULL,
	    "result=\"bad_key\"" },
};

struct core_metrics *
core_metrics_open(const char *dir, const struct core_module *mod)
{
	struct core_metrics *m;
	char path[4096];
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.metrics", dir, mod->name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1 || ftruncate(fd, sizeof(*m)) == -1) {
		core_log(CORE_LOG_WARN, "metrics", "%s: %s", path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return NULL;
	}
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	memset(m, 0, sizeof(*m));
	snprintf(m->module, sizeof(m->module), "%s", mod->name);
	for (i = 0; mod->routes[i].pattern != NULL && i < NROUTES - 1; i++)
		snprintf(m->routes[i], sizeof(m->routes[i]), "%s",
		    mod->routes[i].pattern);
	snprintf(m->routes[i], sizeof(m->routes[i]), "(unrouted)");
	m->nroutes = (uint32_t)i + 1;
	m->version = METRICS_VERSION;
	__atomic_store_n(&m->magic, METRICS_MAGIC, __ATOMIC_RELEASE);
	return m;
}

void
core_metrics_request(struct core_metrics *m, int route, int status,
    enum core_rep rep, long us)
{
	int s, b;

	if (m == NULL)
		return;
	if (route < 0 || (uint32_t)route >= m->nroutes)
		route = (int)m->nroutes - 1;
	for (s = 0; s < NSTATUS - 1 && statuses[s] != status; s++)
		;
	if ((unsigned)rep >= CORE_REP__MAX)
		rep = CORE_REP_TEXT;
	for (b = 0; b < NBUCKETS - 1 && us > buckets_us[b]; b++)
		;
	__atomic_fetch_add(&m->requests[route][s][rep], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&m->latency[route][b], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&m->latency_sum_us[route],
	    (uint64_t)(us > 0 ? us : 0), __ATOMIC_RELAXED);
}

void
core_metrics_count(struct core_metrics *m, enum core_metric what)
{
	if (m == NULL || (unsigned)what >= CORE_METRIC__MAX)
		return;
	__atomic_fetch_add(&m->counts[what], 1, __ATOMIC_RELAXED);
}

/* Label values are our own route patterns, but escape as the format asks. */
static void
label(struct core_buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			core_buf_putc(b, '\\');
		if (*s == '\n')
			core_buf_puts(b, "\\n");
		else
			core_buf_putc(b, *s);
	}
}

static void
render_one(struct core_buf *b, const struct core_metrics *m, int part)
{
	const uint64_t *cell;
	uint32_t r;
	uint64_t v, cum;
	int s, k;

	for (r = 0; r < m->nroutes && r < NROUTES; r++) {
		if (part == 0) {
			for (s = 0; s < NSTATUS; s++)
				for (k = 0; k < CORE_REP__MAX; k++) {
					cell = &m->requests[r][s][k];
					v = __atomic_load_n(cell,
					    __ATOMIC_RELAXED);
					if (v == 0)
						continue;
					core_buf_printf(b,
					    "weft_requests_total"
					    "{module=\"%s\",route=\"",
					    m->module);
					label(b, m->routes[r]);
					if (statuses[s] != 0)
						core_buf_printf(b,
						    "\",status=\""
						    "%d\"",
						    statuses[s]);
					else
						core_buf_puts(b,
						    "\",status=\""
						    "other\"");
					core_buf_printf(b,
					    ",representation=\"%s\"} %llu\n",
					    core_rep_format[k],
					    (unsigned long long)v);
				}
			continue;
		}
		for (cum = 0, k = 0; k < NBUCKETS; k++)
			cum += m->latency[r][k];
		if (cum == 0)
			continue;
		for (cum = 0, k = 0; k < NBUCKETS; k++) {
			cum += __atomic_load_n(&m->latency[r][k],
			    __ATOMIC_RELAXED);
			core_buf_printf(b,
			    "weft_request_duration_seconds_bucket"
			    "{module=\"%s\",route=\"",
			    m->module);
			label(b, m->routes[r]);
			core_buf_printf(b, "\",le=\"%s\"} %llu\n", bucket_le[k],
			    (unsigned long long)cum);
		}
		core_buf_printf(b,
		    "weft_request_duration_seconds_sum"
		    "{module=\"%s\",route=\"",
		    m->module);
		label(b, m->routes[r]);
		core_buf_printf(b, "\"} %.6f\n",
		    (double)m->latency_sum_us[r] / 1e6);
		core_buf_printf(b,
		    "weft_request_duration_seconds_count"
		    "{module=\"%s\",route=\"",
		    m->module);
		label(b, m->routes[r]);
		core_buf_printf(b, "\"} %llu\n", (unsigned long long)cum);
	}
}

/* The help and type of render_one's two parts. */
static const char *const route_heads[2] = {
	"# HELP weft_requests_total Requests answered, by "
	"module, route, status and representation.\n"
	"# TYPE weft_requests_total counter\n",
	"# HELP weft_request_duration_seconds Time from "
	"accept to the last byte handed to nginx.\n"
	"# TYPE weft_request_duration_seconds histogram\n",
};

/* One row of counter k: "family{module="m",label} value". */
static void
counter_row(struct core_buf *b, const struct core_metrics *m, int k)
{
	const char *label = counters[k].label;

	core_buf_printf(b, "%s{module=\"%s\"%s%s} %llu\n", counters[k].family,
	    m->module, label != NULL ? "," : "", label != NULL ? label : "",
	    (unsigned long long)__atomic_load_n(&m->counts[k],
		__ATOMIC_RELAXED));
}

/* Maps every valid *.metrics file of dir; returns how many (max n). */
static size_t
map_all(const char *dir, const struct core_metrics **ms, size_t n)
{
	struct dirent *de;
	struct stat st;
	char path[4096];
	size_t k = 0, len;
	void *p;
	DIR *d;
	int fd;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && k < n) {
		len = strlen(de->d_name);
		if (len < 9 || strcmp(de->d_name + len - 8, ".metrics") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			continue;
		if (fstat(fd, &st) == 0 &&
		    (size_t)st.st_size == sizeof(struct core_metrics)) {
			p = mmap(NULL, sizeof(struct core_metrics), PROT_READ,
			    MAP_SHARED, fd, 0);
			if (p != MAP_FAILED &&
			    ((const struct core_metrics *)p)->magic ==
				METRICS_MAGIC)
				ms[k++] = p;
			else if (p != MAP_FAILED)
				munmap(p, sizeof(struct core_metrics));
		}
		close(fd);
	}
	closedir(d);
	return k;
}

void
core_metrics_render(struct core_buf *b, const char *dir)
{
	const struct core_metrics *ms[16];
	size_t n, i;
	int c, e, k;

	n = map_all(dir, ms, 16);
	/* The per-route families: render_one's part 0, then part 1. */
	for (c = 0; c < 2; c++) {
		core_buf_puts(b, route_heads[c]);
		for (i = 0; i < n; i++)
			render_one(b, ms[i], c);
	}
	/* Each family: its help, then its rows for each module. */
	for (c = 0; c < CORE_METRIC__MAX; c = e) {
		e = c + 1;
		while (e < CORE_METRIC__MAX && counters[e].help == NULL)
			e++;
		core_buf_printf(b, "# HELP %s %s\n# TYPE %s counter\n",
		    counters[c].family, counters[c].help, counters[c].family);
		for (i = 0; i < n; i++)
			for (k = c; k < e; k++)
				counter_row(b, ms[i], k);
	}
	for (i = 0; i < n; i++)
		munmap((void *)(uintptr_t)ms[i], sizeof(struct core_metrics));
}
