/*
 * fuzz_search.c -- the pure parsers of /search (modules/pages/search/search.c)
 * on arbitrary bytes:
 *
 *   pages_search_date   a success is "YYYY-MM-DD" of a real day, and
 *                       parses again to itself (lower and upper bound)
 *   pages_search_words  never fails; the positive words carry no quote
 *                       and no white space but ' ' (a phrase keeps its
 *                       spaces as typed, so runs of them are fine)
 *   pages_search_or     "a b" becomes "a or b": as many words, joined
 *   pages_search_mode_parse  0 exactly for "" and the names of the
 *                       modes (the one it names); hybrid on a failure
 *   pages_search_marks  the segments' texts, joined, are the input with
 *                       the markers removed, cleaned as every JSON
 *                       string is (for valid UTF-8 input)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/pages/pages.h"
#include "../../modules/pages/search/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* 1 if d is "YYYY-MM-DD" of a day that exists. */
static int
real_day(const char *d)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
		30, 31 };
	int i, y, m, dd;

	if (strlen(d) != 10 || d[4] != '-' || d[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
			return 0;
	y = atoi(d);
	m = atoi(d + 5);
	dd = atoi(d + 8);
	if (m < 1 || m > 12 || dd < 1)
		return 0;
	return dd <= mdays[m - 1] + (m == 2 && leap(y));
}

static void
check_date(const char *s)
{
	char out[11], again[11];
	int upper;

	for (upper = 0; upper <= 1; upper++) {
		memset(out, 'x', sizeof(out));
		if (pages_search_date(s, upper, out) != 0)
			continue;
		if (memchr(out, '\0', sizeof(out)) == NULL || !real_day(out))
			abort();
		if (pages_search_date(out, upper, again) != 0 ||
		    strcmp(out, again) != 0)
			abort();
	}
}

static size_t
words(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (*s != ' ' && (s[1] == ' ' || s[1] == '\0'))
			n++;
	return n;
}

static void
check_words(const char *s)
{
	struct core_buf pos = CORE_BUF_INIT, neg = CORE_BUF_INIT;
	struct core_buf ors = CORE_BUF_INIT;
	const char *p;
	size_t n;

	pages_search_words(s, &pos, &neg);
	p = core_buf_cstr(&pos);
	if (strpbrk(p, "\"\t\n\r\f\v") != NULL)
		abort();
	(void)core_buf_cstr(&neg);
	pages_search_or(p, &ors);
	/* n words make n + (n - 1) words: the words and n - 1 "or". */
	n = words(p);
	if (words(core_buf_cstr(&ors)) != (n > 0 ? 2 * n - 1 : 0))
		abort();
	core_buf_free(&pos);
	core_buf_free(&neg);
	core_buf_free(&ors);
}

static void
check_mode(const char *s)
{
	enum pages_search_mode m = PAGES_SEARCH_MODE__MAX;
	int i, want = *s == '\0' ? (int)PAGES_SEARCH_HYBRID : -1;

	for (i = 0; i < PAGES_SEARCH_MODE__MAX; i++)
		if (strcmp(s, pages_search_modes[i]) == 0)
			want = i;
	if (pages_search_mode_parse(s, &m) != (want >= 0 ? 0 : -1))
		abort();
	if ((int)m != (want >= 0 ? want : (int)PAGES_SEARCH_HYBRID))
		abort();
}

static void
check_marks(const char *s)
{
	struct core_buf raw = CORE_BUF_INIT, want = CORE_BUF_INIT;
	struct core_buf got = CORE_BUF_INIT;
	json_t *arr, *v;
	const char *t;
	size_t i;

	arr = pages_search_marks(s);
	if (arr == NULL || !json_is_array(arr))
		abort();
	if (core_utf8_valid(s, strlen(s))) {
		while (*s != '\0') {
			if (strncmp(s, "\xee\x80\x80", 3) == 0 ||
			    strncmp(s, "\xee\x80\x81", 3) == 0) {
				s += 3;
				continue;
			}
			core_buf_putc(&raw, *s++);
		}
		core_utf8_clean(&want, core_buf_cstr(&raw), raw.len);
		json_array_foreach(arr, i, v)
		{
			t = json_string_value(json_object_get(v, "text"));
			if (t == NULL)
				abort();
			core_buf_puts(&got, t);
		}
		if (strcmp(core_buf_cstr(&got), core_buf_cstr(&want)) != 0)
			abort();
	}
	json_decref(arr);
	core_buf_free(&raw);
	core_buf_free(&want);
	core_buf_free(&got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = core_xstrndup((const char *)data, size);

	check_date(s);
	check_words(s);
	check_mode(s);
	check_marks(s);
	free(s);
	return 0;
}
