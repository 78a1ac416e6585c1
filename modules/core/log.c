/*
 * log.c -- JSON-lines logging on stderr.  jansson escapes control
 * characters, so data in a message cannot forge a log line; invalid
 * UTF-8 is cleaned first because jansson refuses it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

static enum core_loglevel minlevel = CORE_LOG_INFO;
static const char *logname = "weft";
static char reqid[64];

static const char *const levels[CORE_LOG__MAX] = {
	"debug",
	"info",
	"warn",
	"error",
};

void
core_log_setlevel(enum core_loglevel level)
{
	minlevel = level;
}

void
core_log_conf(const struct core_conf *c)
{
	const char *name = core_conf_get(c, "log_level", "info");
	int i;

	for (i = 0; i < CORE_LOG__MAX; i++)
		if (strcmp(name, levels[i]) == 0) {
			minlevel = (enum core_loglevel)i;
			return;
		}
	minlevel = CORE_LOG_INFO;
}

void
core_log_setname(const char *name)
{
	logname = name;
}

void
core_log_setreqid(const char *id)
{
	if (id == NULL)
		reqid[0] = '\0';
	else
		snprintf(reqid, sizeof(reqid), "%s", id);
}

void
core_log(enum core_loglevel level, const char *event, const char *fmt, ...)
{
	struct core_buf msg = CORE_BUF_INIT, clean = CORE_BUF_INIT;
	struct timespec ts;
	struct tm tm;
	char when[64];
	json_t *o;
	char *line;
	va_list ap;

	if (level < minlevel || (unsigned)level >= CORE_LOG__MAX)
		return;
	va_start(ap, fmt);
	core_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	core_utf8_clean(&clean, core_buf_cstr(&msg), msg.len);

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(when, sizeof(when), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (int)(ts.tv_nsec / 1000000));

	o = json_object();
	json_object_set_new(o, "ts", json_string(when));
	json_object_set_new(o, "level", json_string(levels[level]));
	json_object_set_new(o, "module", json_string(logname));
	json_object_set_new(o, "pid", json_integer(getpid()));
	if (reqid[0] != '\0')
		json_object_set_new(o, "request_id", json_string(reqid));
	json_object_set_new(o, "event", core_json_str(event));
	json_object_set_new(o, "msg", core_json_str(core_buf_cstr(&clean)));
	if ((line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER)) !=
	    NULL) {
		/* One write so lines from several workers do not interleave. */
		size_t n = strlen(line);
		line[n] = '\n';
		if (write(STDERR_FILENO, line, n + 1) < 0) {
			/* Nothing sensible to do when stderr is gone. */
		}
		free(line);
	}
	json_decref(o);
	core_buf_free(&msg);
	core_buf_free(&clean);
}
