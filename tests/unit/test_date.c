/*
 * test_date.c -- core's dates for HTTP and feeds: RFC 822 for RSS,
 * IMF-fixdate for Last-Modified, W3C for sitemaps, and the three
 * HTTP-date forms If-Modified-Since may arrive in.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "t.h"

static void
formats(void)
{
	char b[32];

	core_date_rfc822(b, 0);
	T_STREQ(b, "Thu, 01 Jan 1970 00:00:00 +0000", "epoch, RFC 822");
	core_date_rfc822(b, 784111777);
	T_STREQ(b, "Sun, 06 Nov 1994 08:49:37 +0000", "RFC 9110's example");
	core_date_rfc822(b, 951782400);
	T_STREQ(b, "Tue, 29 Feb 2000 00:00:00 +0000",
	    "leap day of a /400 year");
	core_date_rfc822(b, 1766620800);
	T_STREQ(b, "Thu, 25 Dec 2025 00:00:00 +0000", "a date of the corpus");
	core_date_rfc822(b, -86400);
	T_STREQ(b, "Wed, 31 Dec 1969 00:00:00 +0000", "before the epoch");
	core_date_rfc822(b, -1);
	T_STREQ(b, "Wed, 31 Dec 1969 23:59:59 +0000", "one second before");
	core_date_rfc822(b, 4107542400LL);
	T_STREQ(b, "Mon, 01 Mar 2100 00:00:00 +0000", "2100 is not leap");
	core_http_date(b, 784111777);
	T_STREQ(b, "Sun, 06 Nov 1994 08:49:37 GMT", "IMF-fixdate");
	core_date_w3c(b, 784111777);
	T_STREQ(b, "1994-11-06T08:49:37+00:00", "W3C datetime");
	core_date_w3c(b, INT64_MAX);
	T_STREQ(b, "9999-12-31T23:59:59+00:00", "clamped to four digits");
}

/* Every day for 200 years agrees with the C library's gmtime_r(). */
static void
against_libc(void)
{
	char want[64], got[32];
	struct tm tm;
	time_t t;
	int64_t s;
	int bad = 0;

	for (s = -2208988800LL; s < 4102444800LL; s += 86400 + 3599) {
		t = (time_t)s;
		gmtime_r(&t, &tm);
		/* strftime's %a/%b are locale-bound; C locale here. */
		strftime(want, sizeof(want), "%a, %d %b %Y %H:%M:%S +0000",
		    &tm);
		core_date_rfc822(got, s);
		if (strcmp(want, got) != 0 && bad++ < 3)
			printf("# %lld: got %s want %s\n", (long long)s, got,
			    want);
	}
	T_EQ(bad, 0, "RFC 822 agrees with gmtime_r over 1900..2100");
}

static void
parse(void)
{
	int64_t t = 0;

	T_EQ(core_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT", &t), 0,
	    "IMF-fixdate parses");
	T_EQ(t, 784111777, "IMF-fixdate value");
	t = 0;
	T_EQ(core_http_date_parse("Sunday, 06-Nov-94 08:49:37 GMT", &t), 0,
	    "RFC 850 parses");
	T_EQ(t, 784111777, "RFC 850 value");
	t = 0;
	T_EQ(core_http_date_parse("Sun Nov  6 08:49:37 1994", &t), 0,
	    "asctime parses");
	T_EQ(t, 784111777, "asctime value");
	T_EQ(core_http_date_parse("Sun Nov 16 08:49:37 1994", &t), 0,
	    "asctime, two-digit day");
	T_EQ(t, 784111777 + 10 * 86400, "asctime two-digit value");
	T_EQ(core_http_date_parse("Thursday, 01-Jan-15 00:00:00 GMT", &t), 0,
	    "RFC 850 in this century");
	T_EQ(t, 1420070400, "two-digit year 15 is 2015");
	T_EQ(core_http_date_parse("Tue, 29 Feb 2000 00:00:00 GMT", &t), 0,
	    "leap day");
	T_EQ(core_http_date_parse("Tue, 29 Feb 1900 00:00:00 GMT", &t), -1,
	    "1900 has no 29 February");
	T_EQ(core_http_date_parse("Sun, 31 Apr 1994 08:49:37 GMT", &t), -1,
	    "31 April");
	T_EQ(core_http_date_parse("Sun, 06 Nov 1994 08:49:37 +0000", &t), -1,
	    "an offset is not an HTTP-date");
	T_EQ(core_http_date_parse("Sun, 06 Nov 1994 24:00:00 GMT", &t), -1,
	    "hour 24");
	T_EQ(core_http_date_parse("Sun, 6 Nov 1994 08:49:37 GMT", &t), -1,
	    "one-digit day in IMF-fixdate");
	T_EQ(core_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT junk", &t), -1,
	    "trailing junk");
	T_EQ(core_http_date_parse("", &t), -1, "empty");
	T_EQ(core_http_date_parse("yesterday", &t), -1, "words");
	T_EQ(core_http_date_parse(NULL, &t), -1, "NULL");
	T_EQ(core_http_date_parse("Sun, 06 Xyz 1994 08:49:37 GMT", &t), -1,
	    "unknown month");
}

/* What we send comes back unchanged. */
static void
round_trip(void)
{
	char b[32];
	int64_t s, t;
	int bad = 0;

	for (s = 0; s < 4102444800LL; s += 7777777) {
		core_http_date(b, s);
		if (core_http_date_parse(b, &t) != 0 || t != s)
			bad++;
	}
	T_EQ(bad, 0, "http_date -> parse round trip");
}

static void
calendar(void)
{
	T_EQ(core_date_is_day(2024, 2, 29), 1, "29 Feb of a leap year");
	T_EQ(core_date_is_day(2023, 2, 29), 0, "29 Feb of another year");
	T_EQ(core_date_is_day(1900, 2, 29), 0, "1900 is not a leap year");
	T_EQ(core_date_is_day(2000, 2, 29), 1, "2000 is");
	T_EQ(core_date_is_day(2025, 4, 31), 0, "31 April");
	T_EQ(core_date_is_day(2025, 12, 31), 1, "31 December");
	T_EQ(core_date_is_day(2025, 13, 1), 0, "month 13");
	T_EQ(core_date_is_day(2025, 1, 0), 0, "day 0");
}

int
main(void)
{
	calendar();
	formats();
	against_libc();
	parse();
	round_trip();
	return T_DONE();
}
