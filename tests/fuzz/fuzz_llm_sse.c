/*
 * fuzz_llm_sse.c -- the LLM client's streamed-answer parser on hostile
 * bytes: never crashes, and cutting the body in two anywhere (the first
 * byte picks where) gives the same text and outcome as one piece.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "llm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum core_llm_fail
run(const char *p, size_t n, size_t cut, struct core_llm_result *r)
{
	struct core_llm_sse s;
	enum core_llm_fail f;

	core_llm_sse_open(&s, r, NULL, NULL);
	f = core_llm_sse_feed(&s, p, cut);
	if (f == CORE_LLM_OK)
		f = core_llm_sse_feed(&s, p + cut, n - cut);
	if (f == CORE_LLM_OK)
		f = core_llm_sse_end(&s);
	core_llm_sse_free(&s);
	return f;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_llm_result a = CORE_LLM_RESULT_INIT;
	struct core_llm_result b = CORE_LLM_RESULT_INIT;
	const char *p = (const char *)data + 1;
	size_t n, cut;
	enum core_llm_fail fa, fb;

	if (size < 1)
		return 0;
	n = size - 1;
	cut = n == 0 ? 0 : data[0] % (n + 1);
	fa = run(p, n, 0, &a);
	fb = run(p, n, cut, &b);
	if (fa != fb || a.text.len != b.text.len ||
	    (a.text.len > 0 && memcmp(a.text.ptr, b.text.ptr, a.text.len) != 0))
		abort();
	core_llm_result_free(&a);
	core_llm_result_free(&b);
	return 0;
}
