/*
 * test_llm_live.c -- the LLM client against the fake server
 * (tests/fakellm/server.py) at $WEFT_FAKELLM_URL: streamed and whole
 * answers, JSON-schema answers, and each failure mode.  Skipped when the
 * variable is unset (plain `prove build-san/tests/test_*`);
 * tests/integration/t_llm_client.sh starts the server and runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "llm.h"
#include "t.h"

static int ndeltas;

static int
count(void *arg, const char *p, size_t n)
{
	(void)arg;
	(void)p;
	(void)n;
	ndeltas++;
	return 0;
}

static int
stop(void *arg, const char *p, size_t n)
{
	(void)arg;
	(void)p;
	(void)n;
	return 1;
}

static json_t *
ask(const char *question)
{
	return json_pack("[{s:s, s:s}, {s:s, s:s}]", "role", "system",
	    "content", "Answer from the papers only.", "role", "user",
	    "content", question);
}

/* One call; r is reset first. */
static enum core_err
call(struct core_llm *l, const char *q, const json_t *fmt, core_llm_delta cb,
    struct core_llm_result *r)
{
	json_t *m = ask(q);
	enum core_err er;

	core_llm_result_free(r);
	*r = (struct core_llm_result)CORE_LLM_RESULT_INIT;
	er = core_llm_chat(l, m, fmt, cb, NULL, r);
	json_decref(m);
	return er;
}

int
main(void)
{
	const char *url = getenv("WEFT_FAKELLM_URL");
	struct core_conf *c = NULL;
	struct core_llm *l;
	struct core_llm_result r = CORE_LLM_RESULT_INIT;
	json_t *fmt, *o;
	char *v1;

	if (url == NULL || url[0] == '\0') {
		printf("1..0 # SKIP WEFT_FAKELLM_URL is not set\n");
		return 0;
	}
	v1 = core_xasprintf("%s/v1", url);
	setenv("WEFT_LLM_URL", v1, 1);
	setenv("WEFT_LLM_MODEL", "fake-1", 1);
	setenv("WEFT_LLM_TIMEOUT", "3", 1);
	if (core_conf_load("/dev/null", &c) != CORE_OK)
		return 1;
	l = core_llm_open(c);
	T_OK(l != NULL, "client opens with llm_url");
	if (l == NULL)
		return T_DONE();
	T_STREQ(core_llm_model(l), "fake-1", "model from llm_model");

	T_EQ(call(l, "<papers>\n[1] Graph neural networks\n</papers>\nWhat?",
		 NULL, count, &r),
	    CORE_OK, "streamed answer");
	T_CONTAINS(core_buf_cstr(&r.text), "Paper [1] is titled Graph",
	    "streamed text");
	T_OK(ndeltas > 1, "several deltas");
	T_STREQ(r.finish, "stop", "finish reason");
	T_OK(r.prompt_tokens > 0 && r.completion_tokens > 0, "usage");
	T_OK(r.first_byte >= 0, "time to first byte");

	T_EQ(call(l, "plain", NULL, NULL, &r), CORE_OK, "whole answer");
	T_STREQ(core_buf_cstr(&r.text), "These papers do not say.",
	    "whole text");

	fmt = json_pack("{s:s, s:{s:s, s:{s:s, s:{s:{s:s}, s:{s:[s,s]}}}}}",
	    "type", "json_schema", "json_schema", "name", "a", "schema", "type",
	    "object", "properties", "summary", "type", "string", "paper_type",
	    "enum", "method", "survey");
	T_EQ(call(l, "analyse", fmt, NULL, &r), CORE_OK, "schema answer");
	o = json_loads(core_buf_cstr(&r.text), 0, NULL);
	T_STREQ(core_json_text(o, "paper_type"), "method", "schema enum");
	T_STREQ(core_json_text(o, "summary"), "fake summary", "schema str");
	json_decref(o);
	json_decref(fmt);

	T_EQ(call(l, "x fake:429", NULL, count, &r), CORE_EUPSTREAM, "429");
	T_EQ(r.fail, CORE_LLM_ELIMIT, "429 is ELIMIT");
	T_EQ(r.retry_after, 7, "Retry-After read");
	T_EQ(call(l, "x fake:500", NULL, NULL, &r), CORE_EUPSTREAM, "500");
	T_EQ(r.fail, CORE_LLM_ESERVER, "500 is ESERVER");
	T_EQ(call(l,
		 "<papers>\n[1] a b c d e f g h\n[2] i j k l m n\n"
		 "</papers> fake:malformed",
		 NULL, count, &r),
	    CORE_EUPSTREAM, "malformed");
	T_EQ(r.fail, CORE_LLM_EMALFORMED, "malformed is EMALFORMED");
	T_OK(r.text.len > 0, "malformed keeps the partial text");
	T_EQ(call(l,
		 "<papers>\n[1] a b c d e f g h\n[2] i j k l m n\n"
		 "</papers> fake:cut",
		 NULL, count, &r),
	    CORE_EUPSTREAM, "cut");
	T_EQ(r.fail, CORE_LLM_ECUT, "cut is ECUT");
	T_OK(r.text.len > 0, "cut keeps the partial text");
	T_EQ(call(l, "x fake:latency=5000", NULL, count, &r), CORE_EUPSTREAM,
	    "timeout");
	T_EQ(r.fail, CORE_LLM_ETIMEOUT, "slow server is ETIMEOUT");
	T_EQ(call(l, "x fake:slow", NULL, stop, &r), CORE_EUPSTREAM,
	    "callback stops");
	T_EQ(r.fail, CORE_LLM_EABORT, "stopped is EABORT");
	core_llm_result_free(&r);
	core_llm_close(l);
	core_conf_free(c);

	setenv("WEFT_LLM_URL", "http://127.0.0.1:9/v1", 1);
	if (core_conf_load("/dev/null", &c) == CORE_OK &&
	    (l = core_llm_open(c)) != NULL) {
		T_EQ(call(l, "x", NULL, NULL, &r), CORE_EUPSTREAM, "refused");
		T_EQ(r.fail, CORE_LLM_ECONNECT, "refused is ECONNECT");
		core_llm_close(l);
	}
	core_llm_result_free(&r);
	core_conf_free(c);
	free(v1);
	return T_DONE();
}
