/*
 * t.h -- a TAP harness.  Each check prints "ok N - what" or "not ok N";
 * T_DONE() prints the plan and returns the exit status for main().
 */
#ifndef T_H
#define T_H

#include <stdio.h>
#include <string.h>

static int t_n, t_fail;

static int
t_check(int cond, const char *file, int line, const char *what)
{
	t_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", t_n, what);
	if (!cond) {
		t_fail++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define T_OK(c, what) t_check(!!(c), __FILE__, __LINE__, (what))
#define T_EQ(a, b, what) \
	do { \
		long long t_a = (long long)(a), t_b = (long long)(b); \
		if (!t_check(t_a == t_b, __FILE__, __LINE__, (what))) \
			printf("#   got %lld, want %lld\n", t_a, t_b); \
	} while (0)
#define T_STREQ(a, b, what) \
	do { \
		const char *t_a = (a), *t_b = (b); \
		int t_c = t_a != NULL && t_b != NULL && strcmp(t_a, t_b) == 0; \
		if (!t_check(t_c, __FILE__, __LINE__, (what))) \
			printf("#   got  \"%s\"\n#   want \"%s\"\n", \
			    t_a ? t_a : "(null)", t_b ? t_b : "(null)"); \
	} while (0)
#define T_CONTAINS(hay, needle, what) \
	do { \
		const char *t_h = (hay), *t_nd = (needle); \
		int t_c = t_h != NULL && strstr(t_h, t_nd) != NULL; \
		if (!t_check(t_c, __FILE__, __LINE__, (what))) \
			printf("#   \"%s\" not in \"%.300s\"\n", t_nd, \
			    t_h ? t_h : "(null)"); \
	} while (0)
#define T_LACKS(hay, needle, what) \
	do { \
		const char *t_h = (hay), *t_nd = (needle); \
		int t_c = t_h != NULL && strstr(t_h, t_nd) == NULL; \
		if (!t_check(t_c, __FILE__, __LINE__, (what))) \
			printf("#   \"%s\" found in \"%.300s\"\n", t_nd, \
			    t_h ? t_h : "(null)"); \
	} while (0)
#define T_DONE() (printf("1..%d\n", t_n), t_fail ? 1 : 0)

#endif /* T_H */
