/*
 * test_err.c -- the one error channel: each enum core_err's status and
 * text, and struct core_fail, which carries a handler's own status and
 * message (core_req_fail() records one in the request and core renders
 * it through core_fail_answer()).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

static void
codes(void)
{
	const char *msg = NULL;

	T_EQ(core_err_status(CORE_OK), 200, "CORE_OK is 200");
	T_EQ(core_err_status(CORE_EINPUT), 400, "CORE_EINPUT is 400");
	T_EQ(core_err_status(CORE_ENOTFOUND), 404, "CORE_ENOTFOUND is 404");
	T_EQ(core_err_status(CORE_EDB), 503, "CORE_EDB is 503");
	T_EQ(core_err_status(CORE_ERR__MAX), 500, "out of range is 500");
	T_EQ(core_fail_answer(NULL, CORE_ENOTFOUND, &msg), 404,
	    "an enum value answers its own status");
	T_STREQ(msg, "nothing is here", "... and its own text");
}

static void
fail(void)
{
	struct core_fail f = { 0, NULL };
	const char *msg = NULL;

	T_EQ(core_fail_answer(&f, CORE_EFAIL, &msg), 500,
	    "CORE_EFAIL with nothing recorded is our bug: 500");
	T_STREQ(msg, "an internal error occurred", "... with CORE_ESYS's text");

	T_EQ(core_fail_set(&f, 400, "sort must be newest or citations"),
	    CORE_EFAIL, "core_fail_set returns CORE_EFAIL");
	T_EQ(core_fail_answer(&f, CORE_EFAIL, &msg), 400, "its status");
	T_STREQ(msg, "sort must be newest or citations", "its message");
	T_EQ(core_fail_answer(&f, CORE_EDB, &msg), 503,
	    "another code ignores what f holds");

	core_fail_set(&f, 404, "page 9 is beyond the last page (2)");
	T_EQ(core_fail_answer(&f, CORE_EFAIL, &msg), 404,
	    "a later failure replaces the status");
	T_STREQ(msg, "page 9 is beyond the last page (2)",
	    "... and the message");

	core_fail_set(&f, 200, "fine");
	T_EQ(f.status, 500, "a 2xx is no failure: recorded as 500");
	core_fail_set(&f, 302, "elsewhere");
	T_EQ(f.status, 500, "nor a 3xx");
	core_fail_set(&f, 600, "x");
	T_EQ(f.status, 500, "nor a status beyond 599");
	core_fail_set(&f, 429, NULL);
	T_STREQ(f.msg, "Too Many Requests", "no message: the reason phrase");

	core_fail_free(&f);
	T_OK(f.msg == NULL && f.status == 0, "free empties it");
	core_fail_free(&f);
	core_fail_free(NULL);
	T_OK(1, "free is idempotent and NULL-safe");
}

int
main(void)
{
	codes();
	fail();
	return T_DONE();
}
