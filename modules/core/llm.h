/*
 * llm.h -- a client for an OpenAI-compatible chat-completions endpoint
 * (llama.cpp, vLLM, Ollama or a hosted one), shared by the chat module
 * and `weft-harvest analyse`.  One blocking call per question, over
 * libcurl; streamed answers ("stream": true) are parsed incrementally as
 * server-sent events and handed to a callback piece by piece.
 *
 * Configuration (weft.conf):
 *   llm_url              base URL up to and including the version,
 *                        e.g. http://127.0.0.1:8095/v1; empty: no endpoint
 *   llm_model            the "model" sent with each request
 *   llm_key_file         a file whose first line is the bearer token
 *   llm_connect_timeout  seconds to connect (default 5)
 *   llm_timeout          seconds a whole answer may take (default 60)
 *   llm_max_tokens       "max_tokens" of each request (default 512)
 */
#ifndef CORE_LLM_H
#define CORE_LLM_H

#include <stddef.h>

#include <jansson.h>

#include "core.h"

/*
 * Why a call gave no complete answer.  Each one is a message a user can
 * read (core_llm_fail_str()); the text received before it stays in the
 * result, so a cut answer can be shown marked as partial.
 */
enum core_llm_fail {
	CORE_LLM_OK = 0,
	CORE_LLM_ELIMIT,     /* HTTP 429: retry_after says when */
	CORE_LLM_ESERVER,    /* HTTP 5xx */
	CORE_LLM_EHTTP,      /* another non-2xx status (bad key, model) */
	CORE_LLM_ECONNECT,   /* could not connect */
	CORE_LLM_ETIMEOUT,   /* connect or total timeout */
	CORE_LLM_EMALFORMED, /* not the JSON or SSE we expect */
	CORE_LLM_ECUT,       /* the stream ended before its end mark */
	CORE_LLM_EABORT,     /* the delta callback asked to stop */
	CORE_LLM__MAX
};

/* A short English sentence for f; static storage. */
const char *core_llm_fail_str(enum core_llm_fail f);

/*
 * The outcome of one call.  Zero-initialise with CORE_LLM_RESULT_INIT;
 * free with core_llm_result_free().
 */
struct core_llm_result {
	struct core_buf text;    /* the answer's content, as received */
	char *finish;            /* finish_reason ("stop", "length"), or NULL */
	long prompt_tokens;      /* usage; -1 when the server gave none */
	long completion_tokens;  /* usage; -1 when the server gave none */
	enum core_llm_fail fail; /* CORE_LLM_OK when complete */
	long status;             /* the HTTP status, 0 if none */
	long retry_after;        /* seconds from Retry-After, -1 if none */
	double first_byte;       /* seconds to the first content, -1 if none */
};
#define CORE_LLM_RESULT_INIT                                                   \
	{                                                                      \
		CORE_BUF_INIT, NULL, -1, -1, CORE_LLM_OK, 0, -1, -1            \
	}
void core_llm_result_free(struct core_llm_result *r);

/*
 * Called with each piece of content as it arrives (p[0..n), UTF-8 as the
 * server sent it, possibly cut inside a character).  Returning non-zero
 * stops the request (the client went away): the call then fails with
 * CORE_LLM_EABORT.
 */
typedef int (*core_llm_delta)(void *arg, const char *p, size_t n);
/*
 * The delta callback of a caller that wants the answer streamed (so
 * that a stream cut short still leaves the text received in r->text)
 * but does nothing with the pieces: it never stops the request.
 */
int core_llm_keep_going(void *arg, const char *p, size_t n);

/*
 * The incremental parser of a streamed answer, exposed for the unit tests
 * and the fuzzer: feed it the body in chunks cut anywhere.  Each complete
 * "data:" event is decoded as a chat.completion.chunk; its delta content
 * is appended to r->text and passed to cb (when not NULL).
 */
struct core_llm_sse {
	struct core_buf line; /* the current line, without its end */
	struct core_buf data; /* the data lines of the current event */
	int cr;               /* the previous byte was a CR */
	int done;             /* "data: [DONE]" seen */
	core_llm_delta cb;
	void *arg;
	struct core_llm_result *r;
};
/* Starts a parser writing into r (borrowed until core_llm_sse_free()). */
void core_llm_sse_open(struct core_llm_sse *s, struct core_llm_result *r,
    core_llm_delta cb, void *arg);
/*
 * Parses p[0..n).  Returns CORE_LLM_OK, or the failure that ends the
 * stream (CORE_LLM_EMALFORMED: an event that is not a chunk, or a line
 * over 1 MB; CORE_LLM_EABORT: cb returned non-zero).  Once it has failed
 * it keeps failing.
 */
enum core_llm_fail core_llm_sse_feed(struct core_llm_sse *s, const char *p,
    size_t n);
/*
 * The end of the body: CORE_LLM_OK if the stream was complete ("[DONE]"
 * or a finish_reason), CORE_LLM_ECUT otherwise.
 */
enum core_llm_fail core_llm_sse_end(struct core_llm_sse *s);
void core_llm_sse_free(struct core_llm_sse *s);

/*
 * Decodes a non-streamed chat.completion body into r (text, finish,
 * usage).  CORE_LLM_OK or CORE_LLM_EMALFORMED.
 */
enum core_llm_fail core_llm_parse_completion(const char *body, size_t n,
    struct core_llm_result *r);

struct core_llm;

/*
 * The client configured by c, or NULL when llm_url is empty or absent
 * (extractive mode) or the key file cannot be read (logged).  Owns a
 * CURL handle: a process-lifetime object; free with core_llm_close().
 */
struct core_llm *core_llm_open(const struct core_conf *c);
void core_llm_close(struct core_llm *);
/* The configured model name (borrowed from the client). */
const char *core_llm_model(const struct core_llm *);

/*
 * POSTs {model, messages, max_tokens, stream, response_format} to
 * {llm_url}/chat/completions.  messages is borrowed (an array of
 * {role, content}); response_format may be NULL (else borrowed, e.g.
 * {"type":"json_schema","json_schema":{...}}).  With cb the answer is
 * streamed and cb sees each piece; without, one JSON answer is read.
 * Returns CORE_OK with r->fail == CORE_LLM_OK when the answer is
 * complete, CORE_EUPSTREAM (logged) otherwise with r->fail saying why
 * and r->text holding what arrived.  r must be CORE_LLM_RESULT_INIT.
 */
enum core_err core_llm_chat(struct core_llm *, const json_t *messages,
    const json_t *response_format, core_llm_delta cb, void *arg,
    struct core_llm_result *r);

#endif /* CORE_LLM_H */
