/*
 * date.c -- dates for HTTP (Last-Modified, If-Modified-Since), RSS and
 * sitemaps: the one formatter and parser.  Times are seconds since the
 * epoch in UTC, converted with Howard Hinnant's days-from-civil
 * algorithms rather than gmtime()/strftime(), so that neither the
 * locale (day and month names) nor TZ can change what a client sees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

static const char *const wdays[7] = {
	"Sun",
	"Mon",
	"Tue",
	"Wed",
	"Thu",
	"Fri",
	"Sat",
};
static const char *const wdays_long[7] = {
	"Sunday",
	"Monday",
	"Tuesday",
	"Wednesday",
	"Thursday",
	"Friday",
	"Saturday",
};
static const char *const months[12] = {
	"Jan",
	"Feb",
	"Mar",
	"Apr",
	"May",
	"Jun",
	"Jul",
	"Aug",
	"Sep",
	"Oct",
	"Nov",
	"Dec",
};

const char *
core_month_abbr(int m)
{
	return m >= 1 && m <= 12 ? months[m - 1] : NULL;
}

struct civil {
	long long y;
	int m, d; /* 1..12, 1..31 */
	int hh, mm, ss;
	int wday; /* 0 = Sunday */
};

/* Days since 1970-01-01 of y-m-d (proleptic Gregorian). */
static long long
days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void
civil_from_time(int64_t t, struct civil *c)
{
	long long z, era, doe, yoe, doy, mp, secs;

	z = t / 86400;
	secs = t % 86400;
	if (secs < 0) {
		secs += 86400;
		z--;
	}
	c->hh = (int)(secs / 3600);
	c->mm = (int)(secs / 60 % 60);
	c->ss = (int)(secs % 60);
	/* 1970-01-01 was a Thursday. */
	c->wday = (int)((z + 4) % 7);
	if (c->wday < 0)
		c->wday += 7;
	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	c->d = (int)(doy - (153 * mp + 2) / 5 + 1);
	c->m = (int)(mp < 10 ? mp + 3 : mp - 9);
	c->y = yoe + era * 400 + (c->m <= 2);
}

/* Years outside 0..9999 do not fit the formats; clamp the time. */
static int64_t
clamp(int64_t t)
{
	const int64_t lo = -62167219200LL; /* 0000-01-01T00:00:00 */
	const int64_t hi = 253402300799LL; /* 9999-12-31T23:59:59 */

	return t < lo ? lo : t > hi ? hi : t;
}

/* "Sun, 06 Nov 1994 08:49:37 " and zone: RFC 822 and HTTP differ only
 * there. */
static void
rfc_date(char out[32], int64_t t, const char *zone)
{
	struct civil c;

	civil_from_time(clamp(t), &c);
	snprintf(out, 32, "%s, %02d %s %04lld %02d:%02d:%02d %s", wdays[c.wday],
	    c.d, months[c.m - 1], c.y, c.hh, c.mm, c.ss, zone);
}

void
core_date_rfc822(char out[32], int64_t t)
{
	rfc_date(out, t, "+0000");
}

void
core_http_date(char out[32], int64_t t)
{
	rfc_date(out, t, "GMT");
}

void
core_date_w3c(char out[32], int64_t t)
{
	struct civil c;

	civil_from_time(clamp(t), &c);
	snprintf(out, 32, "%04lld-%02d-%02dT%02d:%02d:%02d+00:00", c.y, c.m,
	    c.d, c.hh, c.mm, c.ss);
}

/* ---------------------------------------------------------------- parse */

/* Reads exactly n digits at *s. */
static int
digits(const char **s, int n, int *v)
{
	int i, x = 0;

	for (i = 0; i < n; i++) {
		if ((*s)[i] < '0' || (*s)[i] > '9')
			return -1;
		x = x * 10 + ((*s)[i] - '0');
	}
	*s += n;
	*v = x;
	return 0;
}

static int
lit(const char **s, const char *want)
{
	size_t n = strlen(want);

	if (strncmp(*s, want, n) != 0)
		return -1;
	*s += n;
	return 0;
}

/* Matches one of names[0..n) at *s (case-sensitive, as the grammar). */
static int
name(const char **s, const char *const *names, int n, int *idx)
{
	int i;
	size_t len;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (strncmp(*s, names[i], len) == 0) {
			*s += len;
			*idx = i;
			return 0;
		}
	}
	return -1;
}

/* "HH:MM:SS" */
static int
clock_(const char **s, int *hh, int *mm, int *ss)
{
	if (digits(s, 2, hh) || lit(s, ":") || digits(s, 2, mm) ||
	    lit(s, ":") || digits(s, 2, ss))
		return -1;
	/* 60 is a leap second; HTTP allows it. */
	return *hh > 23 || *mm > 59 || *ss > 60 ? -1 : 0;
}

static const int mdays[12] = {
	31,
	29,
	31,
	30,
	31,
	30,
	31,
	31,
	30,
	31,
	30,
	31,
};

int
core_date_is_day(int y, int m, int d)
{
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	/* 29 February only in a leap year of the Gregorian calendar. */
	return m != 2 || d != 29 ||
	    (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

int
core_http_date_parse(const char *s, int64_t *t)
{
	const char *p = s;
	int wd, d, m, y, hh, mm, ss, yy;

	if (s == NULL)
		return -1;
	if (name(&p, wdays_long, 7, &wd) == 0) {
		/* RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT".  A two-digit
		 * year more than 50 years ahead is in the past century
		 * (RFC 9110 5.6.7); we read 70..99 as 19xx. */
		if (lit(&p, ", ") || digits(&p, 2, &d) || lit(&p, "-") ||
		    name(&p, months, 12, &m) || lit(&p, "-") ||
		    digits(&p, 2, &yy) || lit(&p, " ") ||
		    clock_(&p, &hh, &mm, &ss) || lit(&p, " GMT"))
			return -1;
		y = yy < 70 ? 2000 + yy : 1900 + yy;
	} else if (name(&p, wdays, 7, &wd) == 0) {
		if (*p == ',') {
			/* IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" */
			if (lit(&p, ", ") || digits(&p, 2, &d) ||
			    lit(&p, " ") || name(&p, months, 12, &m) ||
			    lit(&p, " ") || digits(&p, 4, &y) || lit(&p, " ") ||
			    clock_(&p, &hh, &mm, &ss) || lit(&p, " GMT"))
				return -1;
		} else {
			/* asctime: "Sun Nov  6 08:49:37 1994" */
			if (lit(&p, " ") || name(&p, months, 12, &m) ||
			    lit(&p, " "))
				return -1;
			if (*p == ' ') {
				p++;
				if (digits(&p, 1, &d))
					return -1;
			} else if (digits(&p, 2, &d))
				return -1;
			if (lit(&p, " ") || clock_(&p, &hh, &mm, &ss) ||
			    lit(&p, " ") || digits(&p, 4, &y))
				return -1;
		}
	} else
		return -1;
	if (*p != '\0' || !core_date_is_day(y, m + 1, d))
		return -1;
	*t = (int64_t)days_from_civil(y, m + 1, d) * 86400 + hh * 3600 +
	    mm * 60 + ss;
	return 0;
}

int
core_date_day_parse(const char *s, int64_t *t)
{
	int y, m, d;

	/* The day's own range is checked loosely: 31 days in any month
	 * maps the 31st of a short month to the 1st of the next. */
	if (s == NULL || digits(&s, 4, &y) != 0 || lit(&s, "-") != 0 ||
	    digits(&s, 2, &m) != 0 || lit(&s, "-") != 0 ||
	    digits(&s, 2, &d) != 0 || m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	*t = (int64_t)days_from_civil(y, m, d) * 86400;
	return 0;
}

double
core_elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}
