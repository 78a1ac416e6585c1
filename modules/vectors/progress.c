/*
 * progress.c -- "projecting 1,200,000/2,500,000 (48%) 21,000/s ETA
 * 1m02s" on a terminal, nothing otherwise (cron and systemd get the
 * log lines instead).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "internal.h"

/* Seconds on clock id, 0 when it cannot be read. */
static double
seconds(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double
vec_now(void)
{
	return seconds(CLOCK_MONOTONIC);
}

double
vec_cpu_now(int thread)
{
	return seconds(
	    thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID);
}

void
vec_progress_start(struct vec_progress *p, const char *what, size_t total)
{
	p->what = what;
	p->done = 0;
	p->total = total;
	p->t0 = p->last = vec_now();
	p->tty = isatty(STDERR_FILENO);
}

static void
draw(struct vec_progress *p, double now)
{
	double el = now - p->t0, rate = el > 0 ? (double)p->done / el : 0;
	double eta = rate > 0 && p->total > p->done
	    ? (double)(p->total - p->done) / rate
	    : 0;

	fprintf(stderr, "\r\033[K%s %zu/%zu (%.0f%%) %.0f/s ETA %dm%02ds",
	    p->what, p->done, p->total,
	    p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, rate,
	    (int)eta / 60, (int)eta % 60);
	p->last = now;
}

void
vec_progress_tick(struct vec_progress *p, size_t done)
{
	double now;

	p->done = done;
	if (!p->tty || (done & 255) != 0)
		return;
	if ((now = vec_now()) - p->last >= 0.2)
		draw(p, now);
}

void
vec_progress_end(struct vec_progress *p)
{
	double el = vec_now() - p->t0;

	if (p->tty) {
		draw(p, vec_now());
		fputc('\n', stderr);
	}
	core_log(CORE_LOG_INFO, "vectors", "%s: %zu in %.1f s", p->what,
	    p->done, el);
}
