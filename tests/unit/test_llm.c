/*
 * test_llm.c -- the streamed-answer parser of the LLM client: the same
 * SSE body cut at every position (and byte by byte) gives the same text,
 * finish reason and usage; CRLF, CR and comments; malformed, cut and
 * aborted streams; non-streamed bodies.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "llm.h"
#include "t.h"

static const char body[] =
    ": keep-alive\r\n\r\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"},"
    "\"finish_reason\":null}]}\r\n\r\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Graphs \\u00e9"
    "t\"},\"finish_reason\":null}]}\n\n"
    "event: message\r"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" [1].\"},"
    "\"finish_reason\":\"stop\"}]}\r\r"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
    "\"completion_tokens\":3}}\n\n"
    "data: [DONE]\n\n";

struct seen {
	struct core_buf b;
	int calls;
	int stop_after;
};

static int
on_delta(void *arg, const char *p, size_t n)
{
	struct seen *s = arg;

	if (s == NULL)
		return 0;
	core_buf_put(&s->b, p, n);
	s->calls++;
	return s->stop_after > 0 && s->calls >= s->stop_after;
}

/* Feeds body in pieces of the given sizes (cycling) and ends it. */
static enum core_llm_fail
parse(const char *b, size_t n, size_t cut, size_t step,
    struct core_llm_result *r, struct seen *s)
{
	struct core_llm_sse sse;
	enum core_llm_fail f = CORE_LLM_OK;
	size_t off = 0;

	core_llm_sse_open(&sse, r, on_delta, s);
	if (cut > 0 && cut < n) {
		f = core_llm_sse_feed(&sse, b, cut);
		off = cut;
	}
	while (f == CORE_LLM_OK && off < n) {
		size_t k = step == 0 || off + step > n ? n - off : step;

		f = core_llm_sse_feed(&sse, b + off, k);
		off += k;
	}
	if (f == CORE_LLM_OK)
		f = core_llm_sse_end(&sse);
	core_llm_sse_free(&sse);
	return f;
}

int
main(void)
{
	size_t n = strlen(body), cut;
	int same = 1;
	struct core_llm_result r = CORE_LLM_RESULT_INIT;
	struct seen s = { CORE_BUF_INIT, 0, 0 };
	enum core_llm_fail f;

	f = parse(body, n, 0, 0, &r, &s);
	T_EQ(f, CORE_LLM_OK, "whole body parses");
	T_STREQ(core_buf_cstr(&r.text), "Graphs \xc3\xa9t [1].", "text");
	T_STREQ(core_buf_cstr(&s.b), "Graphs \xc3\xa9t [1].", "deltas");
	T_EQ(s.calls, 2, "one callback per content delta");
	T_STREQ(r.finish, "stop", "finish reason");
	T_EQ(r.prompt_tokens, 12, "prompt tokens");
	T_EQ(r.completion_tokens, 3, "completion tokens");
	core_llm_result_free(&r);
	core_buf_free(&s.b);

	/* Every cut point, then one byte at a time. */
	for (cut = 1; cut <= n + 1; cut++) {
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;
		struct seen s2 = { CORE_BUF_INIT, 0, 0 };

		f = parse(body, n, cut, cut > n ? 1 : 0, &r2, &s2);
		if (f != CORE_LLM_OK ||
		    strcmp(core_buf_cstr(&r2.text), "Graphs \xc3\xa9t [1].") !=
			0 ||
		    r2.completion_tokens != 3 || r2.finish == NULL)
			same = 0;
		core_llm_result_free(&r2);
		core_buf_free(&s2.b);
	}
	T_OK(same, "the same answer wherever the body is cut");

	/* A stream cut before its end mark and finish reason. */
	{
		const char *cutb =
		    "data: {\"choices\":[{\"delta\":{\"content\":"
		    "\"half\"}}]}\n\ndata: {\"choi";
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;

		f = parse(cutb, strlen(cutb), 0, 0, &r2, NULL);
		T_EQ(f, CORE_LLM_ECUT, "cut stream is ECUT");
		T_STREQ(core_buf_cstr(&r2.text), "half", "partial text kept");
		core_llm_result_free(&r2);
	}
	/* Not JSON. */
	{
		const char *bad = "data: {\"choices\":[{\"delta\":{\"content\":"
				  "\"ok\"}}]}\n\ndata: {not json\n\n";
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;

		f = parse(bad, strlen(bad), 0, 0, &r2, NULL);
		T_EQ(f, CORE_LLM_EMALFORMED, "malformed event");
		T_STREQ(core_buf_cstr(&r2.text), "ok", "text before it kept");
		core_llm_result_free(&r2);
	}
	/* content of the wrong type; data after [DONE]; error events. */
	{
		const char *b1 =
		    "data: {\"choices\":[{\"delta\":{\"content\":3}}]}"
		    "\n\n";
		const char *b2 = "data: [DONE]\n\ndata: {\"choices\":[]}\n\n";
		const char *b3 = "data: {\"error\":{\"message\":\"oom\"}}\n\n";
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;
		struct core_llm_result r3 = CORE_LLM_RESULT_INIT;
		struct core_llm_result r4 = CORE_LLM_RESULT_INIT;

		T_EQ(parse(b1, strlen(b1), 0, 0, &r2, NULL),
		    CORE_LLM_EMALFORMED, "content not a string");
		T_EQ(parse(b2, strlen(b2), 0, 0, &r3, NULL),
		    CORE_LLM_EMALFORMED, "an event after [DONE]");
		T_EQ(parse(b3, strlen(b3), 0, 0, &r4, NULL), CORE_LLM_ESERVER,
		    "an error event");
		core_llm_result_free(&r2);
		core_llm_result_free(&r3);
		core_llm_result_free(&r4);
	}
	/* The callback stops the stream (the client went away). */
	{
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;
		struct seen s2 = { CORE_BUF_INIT, 0, 1 };

		f = parse(body, n, 0, 0, &r2, &s2);
		T_EQ(f, CORE_LLM_EABORT, "callback aborts");
		T_EQ(s2.calls, 1, "no delta after the abort");
		core_llm_result_free(&r2);
		core_buf_free(&s2.b);
	}
	/* A non-streamed completion. */
	{
		const char *c =
		    "{\"choices\":[{\"message\":{\"role\":"
		    "\"assistant\",\"content\":\"{\\\"a\\\":1}\"},"
		    "\"finish_reason\":\"length\"}],\"usage\":"
		    "{\"prompt_tokens\":5,\"completion_tokens\":7}}";
		struct core_llm_result r2 = CORE_LLM_RESULT_INIT;
		struct core_llm_result r3 = CORE_LLM_RESULT_INIT;

		T_EQ(core_llm_parse_completion(c, strlen(c), &r2), CORE_LLM_OK,
		    "completion parses");
		T_STREQ(core_buf_cstr(&r2.text), "{\"a\":1}", "its content");
		T_STREQ(r2.finish, "length", "its finish reason");
		T_EQ(r2.completion_tokens, 7, "its usage");
		T_EQ(core_llm_parse_completion("{\"choices\":[]}", 14, &r3),
		    CORE_LLM_EMALFORMED, "no choice is malformed");
		core_llm_result_free(&r2);
		core_llm_result_free(&r3);
	}
	/* No endpoint configured: no client (whatever the environment
	 * of the test run says: tests/run.sh names the fake one). */
	{
		struct core_conf *conf = NULL;

		unsetenv("WEFT_LLM_URL");
		if (core_conf_load("/dev/null", &conf) == CORE_OK)
			T_OK(core_llm_open(conf) == NULL,
			    "no llm_url, no client");
		core_conf_free(conf);
	}
	T_OK(strstr(core_llm_fail_str(CORE_LLM_ELIMIT), "busy") != NULL,
	    "failures read as sentences");
	return T_DONE();
}
