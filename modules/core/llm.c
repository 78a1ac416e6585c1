/*
 * llm.c -- the OpenAI-compatible chat-completions client (llm.h).
 *
 * One CURL easy handle per process, reset before each request.  The
 * streamed body is parsed as server-sent events while it arrives
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html): lines
 * end with LF, CRLF or CR, "data:" lines accumulate, an empty line ends
 * an event, lines starting with ':' are comments.  Every event carries a
 * chat.completion.chunk; "[DONE]" ends the stream.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

#include "core.h"
#include "llm.h"

/* A line or an event longer than this is not a chunk we can use. */
#define SSE_MAX_LINE (1024 * 1024)
/* The most of a non-streamed (or error) body we read. */
#define BODY_MAX (4 * 1024 * 1024)

struct core_llm {
	CURL *curl;
	char *url; /* {llm_url}/chat/completions */
	char *model;
	char *auth; /* "Authorization: Bearer …", or NULL */
	long connect_ms;
	long timeout_ms;
	long max_tokens;
	struct core_pool pool; /* owns url, model and auth */
};

static const char *const fails[CORE_LLM__MAX] = {
	[CORE_LLM_OK] = "complete",
	[CORE_LLM_ELIMIT] = "the language model is busy (rate limited)",
	[CORE_LLM_ESERVER] = "the language model server failed",
	[CORE_LLM_EHTTP] = "the language model server refused the request",
	[CORE_LLM_ECONNECT] = "the language model server cannot be reached",
	[CORE_LLM_ETIMEOUT] = "the language model took too long",
	[CORE_LLM_EMALFORMED] = "the language model sent a malformed answer",
	[CORE_LLM_ECUT] = "the language model's answer was cut off",
	[CORE_LLM_EABORT] = "the answer was stopped",
};

const char *
core_llm_fail_str(enum core_llm_fail f)
{
	if ((int)f < 0 || f >= CORE_LLM__MAX)
		return "unknown failure";
	return fails[f];
}

void
core_llm_result_free(struct core_llm_result *r)
{
	if (r == NULL)
		return;
	core_buf_free(&r->text);
	free(r->finish);
	r->finish = NULL;
}

/* Copies usage.{prompt,completion}_tokens of o into r when present. */
static void
take_usage(const json_t *o, struct core_llm_result *r)
{
	const json_t *u = json_object_get(o, "usage"), *v;

	if (!json_is_object(u))
		return;
	if (json_is_integer(v = json_object_get(u, "prompt_tokens")))
		r->prompt_tokens = (long)json_integer_value(v);
	if (json_is_integer(v = json_object_get(u, "completion_tokens")))
		r->completion_tokens = (long)json_integer_value(v);
}

static void
take_finish(const json_t *choice, struct core_llm_result *r)
{
	const json_t *f = json_object_get(choice, "finish_reason");

	if (json_is_string(f)) {
		free(r->finish);
		r->finish = core_xstrdup(json_string_value(f));
	}
}

/* ------------------------------------------------------------------ */
/* Server-sent events                                                  */
/* ------------------------------------------------------------------ */

void
core_llm_sse_open(struct core_llm_sse *s, struct core_llm_result *r,
    core_llm_delta cb, void *arg)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->cb = cb;
	s->arg = arg;
}

void
core_llm_sse_free(struct core_llm_sse *s)
{
	if (s == NULL)
		return;
	core_buf_free(&s->line);
	core_buf_free(&s->data);
}

/* One event's data: "[DONE]" or a chat.completion.chunk. */
static enum core_llm_fail
sse_event(struct core_llm_sse *s)
{
	struct core_llm_result *r = s->r;
	json_t *o = NULL, *choice;
	const json_t *content;
	const char *txt;
	size_t n;
	enum core_llm_fail f = CORE_LLM_OK;

	if (s->data.len == 0)
		return CORE_LLM_OK;
	if (strcmp(core_buf_cstr(&s->data), "[DONE]") == 0) {
		s->done = 1;
		goto out;
	}
	if (s->done) /* nothing may follow the end mark */
		return CORE_LLM_EMALFORMED;
	o = json_loadb(s->data.ptr, s->data.len, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(o)) {
		f = CORE_LLM_EMALFORMED;
		goto out;
	}
	if (json_object_get(o, "error") != NULL) {
		/* A server that fails after its 200 says so in an event. */
		f = CORE_LLM_ESERVER;
		goto out;
	}
	take_usage(o, r);
	choice = json_array_get(json_object_get(o, "choices"), 0);
	if (choice == NULL)
		goto out; /* a usage-only chunk */
	if (!json_is_object(choice)) {
		f = CORE_LLM_EMALFORMED;
		goto out;
	}
	take_finish(choice, r);
	content = json_object_get(json_object_get(choice, "delta"), "content");
	if (content == NULL || json_is_null(content))
		goto out;
	if (!json_is_string(content)) {
		f = CORE_LLM_EMALFORMED;
		goto out;
	}
	txt = json_string_value(content);
	n = json_string_length(content);
	if (n == 0)
		goto out;
	core_buf_put(&r->text, txt, n);
	if (s->cb != NULL && s->cb(s->arg, txt, n) != 0)
		f = CORE_LLM_EABORT;
out:
	json_decref(o);
	core_buf_reset(&s->data);
	return f;
}

/* One complete line (without its end). */
static enum core_llm_fail
sse_line(struct core_llm_sse *s)
{
	const char *l = core_buf_cstr(&s->line);
	size_t n = s->line.len;

	if (n == 0)
		return sse_event(s);
	if (l[0] == ':')
		return CORE_LLM_OK; /* a comment (keep-alive) */
	if (n >= 5 && memcmp(l, "data:", 5) == 0) {
		l += 5;
		n -= 5;
		if (n > 0 && l[0] == ' ')
			l++, n--;
		if (s->data.len > 0)
			core_buf_putc(&s->data, '\n');
		if (s->data.len + n > SSE_MAX_LINE)
			return CORE_LLM_EMALFORMED;
		core_buf_put(&s->data, l, n);
	}
	/* event:, id:, retry: and unknown fields carry nothing we use. */
	return CORE_LLM_OK;
}

enum core_llm_fail
core_llm_sse_feed(struct core_llm_sse *s, const char *p, size_t n)
{
	enum core_llm_fail f;
	size_t i, start = 0;

	if (s->r->fail != CORE_LLM_OK)
		return s->r->fail;
	for (i = 0; i < n; i++) {
		if (p[i] != '\n' && p[i] != '\r')
			continue;
		/* The LF of a CRLF cut between two chunks ends nothing. */
		if (p[i] == '\n' && i == 0 && s->cr) {
			s->cr = 0;
			start = 1;
			continue;
		}
		core_buf_put(&s->line, p + start, i - start);
		if (s->line.len > SSE_MAX_LINE)
			return s->r->fail = CORE_LLM_EMALFORMED;
		if ((f = sse_line(s)) != CORE_LLM_OK)
			return s->r->fail = f;
		core_buf_reset(&s->line);
		if (p[i] == '\r' && i + 1 < n && p[i + 1] == '\n')
			i++;
		s->cr = p[i] == '\r';
		start = i + 1;
	}
	if (start < n) {
		s->cr = 0;
		core_buf_put(&s->line, p + start, n - start);
		if (s->line.len > SSE_MAX_LINE)
			return s->r->fail = CORE_LLM_EMALFORMED;
	}
	return CORE_LLM_OK;
}

enum core_llm_fail
core_llm_sse_end(struct core_llm_sse *s)
{
	if (s->r->fail != CORE_LLM_OK)
		return s->r->fail;
	/*
	 * An event without its blank line is discarded, as the SSE spec
	 * says: a stream cut inside a chunk must not parse as malformed.
	 */
	core_buf_reset(&s->line);
	core_buf_reset(&s->data);
	if (s->done || s->r->finish != NULL)
		return CORE_LLM_OK;
	return s->r->fail = CORE_LLM_ECUT;
}

enum core_llm_fail
core_llm_parse_completion(const char *body, size_t n, struct core_llm_result *r)
{
	json_t *o, *choice;
	const json_t *content;
	enum core_llm_fail f = CORE_LLM_EMALFORMED;

	o = json_loadb(body, n, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(o))
		goto out;
	choice = json_array_get(json_object_get(o, "choices"), 0);
	if (!json_is_object(choice))
		goto out;
	content =
	    json_object_get(json_object_get(choice, "message"), "content");
	if (!json_is_string(content))
		goto out;
	core_buf_put(&r->text, json_string_value(content),
	    json_string_length(content));
	take_finish(choice, r);
	take_usage(o, r);
	f = CORE_LLM_OK;
out:
	json_decref(o);
	return f;
}

/* ------------------------------------------------------------------ */
/* The client                                                          */
/* ------------------------------------------------------------------ */

/* The first line of path, trimmed; NULL (logged) if unreadable/empty. */
static char *
read_key(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t n;

	if (f == NULL) {
		core_log(CORE_LOG_ERROR, "llm_key", "%s: %s", path,
		    strerror(errno));
		return NULL;
	}
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (n == 0) {
		core_log(CORE_LOG_ERROR, "llm_key", "%s: empty", path);
		return NULL;
	}
	return core_xstrdup(line);
}

struct core_llm *
core_llm_open(const struct core_conf *c)
{
	struct core_llm *l;
	const char *url = core_conf_get(c, "llm_url", "");
	const char *keyf = core_conf_get(c, "llm_key_file", "");
	char *key = NULL;
	size_t n = strlen(url);

	if (n == 0)
		return NULL;
	if (strncmp(url, "http://", 7) != 0 &&
	    strncmp(url, "https://", 8) != 0) {
		core_log(CORE_LOG_ERROR, "llm_conf", "llm_url must be http(s)");
		return NULL;
	}
	if (keyf[0] != '\0' && (key = read_key(keyf)) == NULL)
		return NULL;
	l = core_xcalloc(1, sizeof(*l));
	while (n > 0 && url[n - 1] == '/')
		n--;
	l->url = core_pool_keep(&l->pool,
	    core_xasprintf("%.*s/chat/completions", (int)n, url));
	l->model = core_pool_keep(&l->pool,
	    core_xstrdup(core_conf_get(c, "llm_model", "default")));
	if (key != NULL) {
		l->auth = core_pool_keep(&l->pool,
		    core_xasprintf("Authorization: Bearer %s", key));
		free(key);
	}
	l->connect_ms = 1000 * core_conf_int(c, "llm_connect_timeout", 5);
	l->timeout_ms = 1000 * core_conf_int(c, "llm_timeout", 60);
	l->max_tokens = core_conf_int(c, "llm_max_tokens", 512);
	if (l->connect_ms <= 0)
		l->connect_ms = 5000;
	if (l->timeout_ms <= 0)
		l->timeout_ms = 60000;
	if (l->max_tokens <= 0)
		l->max_tokens = 512;
	if ((l->curl = curl_easy_init()) == NULL) {
		core_log(CORE_LOG_ERROR, "llm_curl", "curl_easy_init failed");
		core_llm_close(l);
		return NULL;
	}
	return l;
}

void
core_llm_close(struct core_llm *l)
{
	if (l == NULL)
		return;
	if (l->curl != NULL)
		curl_easy_cleanup(l->curl);
	core_pool_free(&l->pool);
	free(l);
}

const char *
core_llm_model(const struct core_llm *l)
{
	return l->model;
}

int
core_llm_keep_going(void *arg, const char *p, size_t n)
{
	(void)arg;
	(void)p;
	(void)n;
	return 0;
}

/* What one transfer's callbacks share. */
struct xfer {
	CURL *curl;
	struct core_llm_sse sse; /* streaming */
	int streaming;
	struct core_buf body; /* non-streamed or error bodies */
	struct core_llm_result *r;
	struct timespec t0;
};

/* Retry-After: delta-seconds (an HTTP date is taken as unknown). */
static size_t
on_header(char *p, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	size_t n = size * nmemb;
	const char *name = "retry-after:";
	size_t k = strlen(name), i;
	long v = 0;

	if (n <= k || strncasecmp(p, name, k) != 0)
		return n;
	for (i = k; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (i == n || !isdigit((unsigned char)p[i]))
		return n;
	for (; i < n && isdigit((unsigned char)p[i]) && v < 86400; i++)
		v = v * 10 + (p[i] - '0');
	x->r->retry_after = v;
	return n;
}

static size_t
on_write(char *p, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	size_t n = size * nmemb;
	long status = 0;

	curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &status);
	if (!x->streaming || status < 200 || status > 299) {
		if (x->body.len + n > BODY_MAX)
			return 0;
		core_buf_put(&x->body, p, n);
		return n;
	}
	if (x->r->first_byte < 0)
		x->r->first_byte = core_elapsed(&x->t0);
	if (core_llm_sse_feed(&x->sse, p, n) != CORE_LLM_OK)
		return 0; /* stops the transfer: CURLE_WRITE_ERROR */
	return n;
}

static char *
request_body(const struct core_llm *l, const json_t *messages,
    const json_t *response_format, int stream)
{
	json_t *o;
	char *s;

	o = json_pack("{s:s, s:O, s:I, s:b}", "model", l->model, "messages",
	    messages, "max_tokens", (json_int_t)l->max_tokens, "stream",
	    stream);
	if (o == NULL)
		return NULL;
	if (response_format != NULL)
		json_object_set_new(o, "response_format",
		    json_deep_copy(response_format));
	if (stream)
		json_object_set_new(o, "stream_options",
		    json_pack("{s:b}", "include_usage", 1));
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

/* The failure for a finished transfer, from curl's code and the status. */
static enum core_llm_fail
classify(struct xfer *x, CURLcode cc)
{
	struct core_llm_result *r = x->r;

	if (r->fail != CORE_LLM_OK) /* the parser or the callback stopped */
		return r->fail;
	switch (cc) {
	case CURLE_OK:
	case CURLE_WRITE_ERROR:
		break;
	case CURLE_OPERATION_TIMEDOUT:
		return CORE_LLM_ETIMEOUT;
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return CORE_LLM_ECONNECT;
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		/* The peer closed in the middle of a body. */
		return r->status >= 200 && r->status <= 299 ? CORE_LLM_ECUT
							    : CORE_LLM_ESERVER;
	default:
		return r->status == 0 ? CORE_LLM_ECONNECT : CORE_LLM_EMALFORMED;
	}
	if (r->status == 429)
		return CORE_LLM_ELIMIT;
	if (r->status >= 500)
		return CORE_LLM_ESERVER;
	if (r->status < 200 || r->status > 299)
		return CORE_LLM_EHTTP;
	if (cc == CURLE_WRITE_ERROR)
		return CORE_LLM_EMALFORMED; /* non-streamed body too large */
	if (x->streaming)
		return core_llm_sse_end(&x->sse);
	return core_llm_parse_completion(x->body.ptr, x->body.len, r);
}

enum core_err
core_llm_chat(struct core_llm *l, const json_t *messages,
    const json_t *response_format, core_llm_delta cb, void *arg,
    struct core_llm_result *r)
{
	struct xfer x;
	struct curl_slist *hdrs = NULL;
	char *body = NULL;
	CURL *c = l->curl;
	CURLcode cc = CURLE_OK;

	memset(&x, 0, sizeof(x));
	x.curl = c;
	x.r = r;
	x.streaming = cb != NULL;
	core_llm_sse_open(&x.sse, r, cb, arg);
	clock_gettime(CLOCK_MONOTONIC, &x.t0);
	if ((body = request_body(l, messages, response_format, x.streaming)) ==
	    NULL) {
		r->fail = CORE_LLM_EMALFORMED;
		goto out;
	}
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	hdrs = curl_slist_append(hdrs,
	    x.streaming ? "Accept: text/event-stream"
			: "Accept: application/json");
	if (l->auth != NULL)
		hdrs = curl_slist_append(hdrs, l->auth);
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, l->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, l->connect_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, l->timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "weft");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)strlen(body));
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &x);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &x);
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	r->fail = classify(&x, cc);
	if (!x.streaming && r->fail == CORE_LLM_OK && r->first_byte < 0)
		r->first_byte = core_elapsed(&x.t0);
out:
	if (r->fail != CORE_LLM_OK && r->fail != CORE_LLM_EABORT)
		core_log(CORE_LOG_WARN, "llm_fail", "%s (HTTP %ld, curl: %s)",
		    core_llm_fail_str(r->fail), r->status,
		    curl_easy_strerror(cc));
	curl_slist_free_all(hdrs);
	free(body);
	core_llm_sse_free(&x.sse);
	core_buf_free(&x.body);
	return r->fail == CORE_LLM_OK ? CORE_OK : CORE_EUPSTREAM;
}
