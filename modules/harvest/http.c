/*
 * http.c -- the harvester's HTTP client: one libcurl easy handle per
 * source, reused so that connections are kept.
 *
 * Configuration (milliseconds unless said; SRC is arxiv_oai, arxiv_api,
 * openalex or s2):
 *   SRC_url                  base URL (required in practice; defaults are
 *                            the public services)
 *   harvest_contact          mailto for the User-Agent and OpenAlex
 *   harvest_connect_timeout  5000
 *   harvest_timeout          60000 (whole request)
 *   harvest_max_bytes        33554432 (32 MB a response)
 *   harvest_retries          4 (after the first attempt)
 *   harvest_backoff          1000 (first retry; doubles)
 *   harvest_max_wait         120000 (cap of any one wait, Retry-After too)
 *   SRC_delay                between two requests: arxiv 3000, openalex
 *                            100, s2 1000 (tests set 0)
 *   openalex_api_key, s2_api_key   sent, never logged
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "core.h"
#include "remote.h"

const char *const harvest_src_name[HARVEST_SRC__MAX] = {
	"arxiv-oai",
	"arxiv-api",
	"openalex",
	"s2",
};

/*
 * What differs between the sources, so that a new one is one line here
 * (and a value of enum harvest_src): its config keys and defaults, and
 * how it wants the contact address and the API key.
 */
static const struct srcdef {
	const char *url_key;
	const char *url_def;
	const char *delay_key;
	long delay_def;
	const char *mailto;     /* query parameter for harvest_contact */
	const char *key_key;    /* config key of the API key, or NULL */
	const char *key_param;  /* the key as this query parameter, or */
	const char *key_header; /* as this header */
} srcdefs[HARVEST_SRC__MAX] = {
	[HARVEST_SRC_OAI] = { "arxiv_oai_url", "https://oaipmh.arxiv.org/oai",
	    "arxiv_delay", 3000, NULL, NULL, NULL, NULL },
	[HARVEST_SRC_ARXIV] = { "arxiv_api_url",
	    "https://export.arxiv.org/api/query", "arxiv_delay", 3000, NULL,
	    NULL, NULL, NULL },
	[HARVEST_SRC_OPENALEX] = { "openalex_url", "https://api.openalex.org",
	    "openalex_delay", 100, "mailto", "openalex_api_key", "api_key",
	    NULL },
	[HARVEST_SRC_S2] = { "s2_url",
	    "https://api.semanticscholar.org/graph/v1", "s2_delay", 1000, NULL,
	    "s2_api_key", NULL, "x-api-key" },
};

struct harvest_http {
	CURL *curl;
	enum harvest_src src;
	char *base;
	char *ua;
	char *query;        /* public parameters: "mailto=..." or NULL */
	char *secret_query; /* "api_key=..." or NULL: never logged */
	struct curl_slist *hdrs;
	long connect_ms, timeout_ms, backoff_ms, max_wait_ms, delay_ms;
	long retries;
	curl_off_t max_bytes;
	struct timespec last; /* end of the previous request */
	int have_last;
	long nreq, nretry;
	unsigned long long rng;
	char err[512];
};

/* What the write callback needs. */
struct sinkarg {
	struct core_buf *b;
	curl_off_t max;
	int over;
};

static void
global_init(void)
{
	static int done;

	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
}

static double
now_s(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	return (double)t->tv_sec + t->tv_nsec / 1e9;
}

static void
sleep_ms(long ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* xorshift64*: jitter only, not cryptography. */
static double
rnd(struct harvest_http *h)
{
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return (double)((h->rng * 2685821657736338717ULL) >> 11) /
	    9007199254740992.0;
}

long
harvest_backoff_ms(int attempt, long base, long cap, long retry_after, double r)
{
	double w;

	if (retry_after >= 0) {
		/* The server said when: believe it, within our patience. */
		w = (double)retry_after * 1000.0;
		return w > (double)cap ? cap : (long)w;
	}
	if (attempt > 30)
		attempt = 30;
	w = (double)base * (double)(1L << attempt);
	if (w > (double)cap)
		w = (double)cap;
	if (r < 0)
		r = 0;
	if (r >= 1)
		r = 0.999999;
	return (long)(w / 2 + w / 2 * r);
}

struct harvest_http *
harvest_http_new(const struct core_conf *conf, enum harvest_src src)
{
	struct harvest_http *h;
	const struct srcdef *d = &srcdefs[src];
	const char *contact, *site, *key;
	struct core_buf b = CORE_BUF_INIT;
	size_t n;
	struct timespec t;

	global_init();
	h = core_xcalloc(1, sizeof(*h));
	h->src = src;
	h->base = core_xstrdup(core_conf_get(conf, d->url_key, d->url_def));
	n = strlen(h->base);
	while (n > 0 && h->base[n - 1] == '/')
		h->base[--n] = '\0';
	contact = core_conf_get(conf, "harvest_contact", "");
	site = core_conf_get(conf, "base_url", "https://weft.example");
	h->ua = core_xasprintf("weft-harvest/1.0 (+%s%s%s)", site,
	    *contact ? "; mailto:" : "", contact);
	h->connect_ms = core_conf_int(conf, "harvest_connect_timeout", 5000);
	h->timeout_ms = core_conf_int(conf, "harvest_timeout", 60000);
	h->max_bytes =
	    (curl_off_t)core_conf_int(conf, "harvest_max_bytes", 32L << 20);
	h->retries = core_conf_int(conf, "harvest_retries", 4);
	h->backoff_ms = core_conf_int(conf, "harvest_backoff", 1000);
	h->max_wait_ms = core_conf_int(conf, "harvest_max_wait", 120000);
	h->delay_ms = core_conf_int(conf, d->delay_key, d->delay_def);
	if (h->retries < 0)
		h->retries = 0;
	if (h->retries > 20)
		h->retries = 20;

	h->hdrs = curl_slist_append(NULL, "Accept: */*");
	if (d->mailto != NULL && *contact) {
		core_buf_printf(&b, "%s=", d->mailto);
		core_url_encode(&b, contact, 0);
		h->query = core_buf_steal(&b);
	}
	key = d->key_key != NULL ? core_conf_get(conf, d->key_key, "") : "";
	if (*key && d->key_param != NULL) {
		core_buf_printf(&b, "%s=", d->key_param);
		core_url_encode(&b, key, 0);
		h->secret_query = core_buf_steal(&b);
	} else if (*key && d->key_header != NULL &&
	    /* A key with CR or LF would forge headers: refuse it. */
	    strpbrk(key, "\r\n") == NULL) {
		core_buf_printf(&b, "%s: %s", d->key_header, key);
		h->hdrs = curl_slist_append(h->hdrs, core_buf_cstr(&b));
		core_buf_free(&b);
	}
	h->rng = (unsigned long long)now_s(&t) * 1000003ULL ^
	    (unsigned long long)t.tv_nsec ^
	    ((unsigned long long)getpid() << 32) ^ 0x9e3779b97f4a7c15ULL;
	if (h->rng == 0)
		h->rng = 1;
	h->curl = curl_easy_init();
	if (h->curl == NULL) {
		fputs("weft-harvest: curl_easy_init failed\n", stderr);
		abort();
	}
	return h;
}

void
harvest_http_free(struct harvest_http *h)
{
	if (h == NULL)
		return;
	curl_easy_cleanup(h->curl);
	curl_slist_free_all(h->hdrs);
	free(h->base);
	free(h->ua);
	free(h->query);
	free(h->secret_query);
	free(h);
}

const char *
harvest_http_base(const struct harvest_http *h)
{
	return h->base;
}

const char *
harvest_http_error(const struct harvest_http *h)
{
	return h->err;
}

long
harvest_http_requests(const struct harvest_http *h)
{
	return h->nreq;
}

long
harvest_http_retries(const struct harvest_http *h)
{
	return h->nretry;
}

/*
 * Appends to the body, refusing to grow past the maximum: a server that
 * sends no Content-Length (or lies) is stopped here, not by malloc.
 */
static size_t
on_write(char *p, size_t size, size_t nmemb, void *arg)
{
	struct sinkarg *s = arg;
	size_t n = size * nmemb;

	if ((curl_off_t)(s->b->len + n) > s->max) {
		s->over = 1;
		return 0; /* CURLE_WRITE_ERROR */
	}
	core_buf_put(s->b, p, n);
	return n;
}

/* The URL with the public and secret parameters; caller frees. */
static char *
full_url(const struct harvest_http *h, const char *url, int secret)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *sep = strchr(url, '?') != NULL ? "&" : "?";

	core_buf_puts(&b, url);
	if (h->query != NULL) {
		core_buf_printf(&b, "%s%s", sep, h->query);
		sep = "&";
	}
	if (secret && h->secret_query != NULL)
		core_buf_printf(&b, "%s%s", sep, h->secret_query);
	return core_buf_steal(&b);
}

static void
setopts(struct harvest_http *h, const char *url, const char *post,
    struct sinkarg *sa, struct curl_slist *hdrs)
{
	CURL *c = h->curl;

	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, h->connect_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, h->timeout_ms);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, h->max_bytes);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_USERAGENT, h->ua);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, sa);
	if (post != NULL) {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, post);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)strlen(post));
	}
}

/* Sleeps until the source's delay since the previous request is over. */
static void
polite_wait(struct harvest_http *h)
{
	struct timespec t;
	double el;

	if (!h->have_last || h->delay_ms <= 0)
		return;
	el = now_s(&t) - ((double)h->last.tv_sec + h->last.tv_nsec / 1e9);
	if (el * 1000.0 < (double)h->delay_ms)
		sleep_ms(h->delay_ms - (long)(el * 1000.0));
}

static int
transient_status(long st)
{
	return st == 429 || st == 408 || (st >= 500 && st <= 599);
}

static int
transient_curl(CURLcode cc)
{
	switch (cc) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
		return 1;
	default:
		return 0;
	}
}

enum core_err
harvest_http_fetch(struct harvest_http *h, const char *url, const char *post,
    struct core_buf *body, long *status)
{
	struct sinkarg sa;
	struct curl_slist *hdrs = h->hdrs, *extra = NULL;
	char *real = NULL, *shown = NULL;
	CURLcode cc;
	curl_off_t ra;
	long st = 0, wait;
	int attempt, last;
	enum core_err er = CORE_EUPSTREAM;

	h->err[0] = '\0';
	*status = 0;
	real = full_url(h, url, 1);
	shown = full_url(h, url, 0);
	if (post != NULL) {
		/* A private copy of the list: the shared one has no type. */
		for (extra = NULL; hdrs != NULL; hdrs = hdrs->next)
			extra = curl_slist_append(extra, hdrs->data);
		extra =
		    curl_slist_append(extra, "Content-Type: application/json");
		hdrs = extra;
	}
	for (attempt = 0;; attempt++) {
		last = attempt >= h->retries;
		core_buf_reset(body);
		sa.b = body;
		sa.max = h->max_bytes;
		sa.over = 0;
		polite_wait(h);
		setopts(h, real, post, &sa, hdrs);
		h->nreq++;
		cc = curl_easy_perform(h->curl);
		clock_gettime(CLOCK_MONOTONIC, &h->last);
		h->have_last = 1;
		st = 0;
		ra = -1;
		if (cc == CURLE_OK) {
			curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &st);
			/* Both forms: delta-seconds and an HTTP date. */
			if (curl_easy_getinfo(h->curl, CURLINFO_RETRY_AFTER,
				&ra) != CURLE_OK ||
			    ra == 0)
				ra = -1;
			if (st >= 200 && st <= 299) {
				er = CORE_OK;
				break;
			}
			snprintf(h->err, sizeof(h->err), "HTTP %ld from %s", st,
			    shown);
			if (!transient_status(st))
				break;
		} else if (sa.over || cc == CURLE_FILESIZE_EXCEEDED) {
			snprintf(h->err, sizeof(h->err),
			    "response from %s larger than the maximum of "
			    "%" CURL_FORMAT_CURL_OFF_T
			    " bytes (harvest_max_bytes)",
			    shown, h->max_bytes);
			break;
		} else {
			snprintf(h->err, sizeof(h->err), "%s: %s%s", shown,
			    curl_easy_strerror(cc),
			    cc == CURLE_OPERATION_TIMEDOUT
				? " (harvest_timeout)"
				: "");
			if (!transient_curl(cc))
				break;
		}
		if (last) {
			size_t n = strlen(h->err);

			snprintf(h->err + n, sizeof(h->err) - n,
			    "; gave up after %d attempts", attempt + 1);
			break;
		}
		wait = harvest_backoff_ms(attempt, h->backoff_ms,
		    h->max_wait_ms, (long)ra, rnd(h));
		core_log(CORE_LOG_WARN, "harvest.http",
		    "%s; retry %d of %ld in %ld ms", h->err, attempt + 1,
		    h->retries, wait);
		h->nretry++;
		sleep_ms(wait);
	}
	*status = st;
	if (er == CORE_OK) {
		h->err[0] = '\0';
		core_log(CORE_LOG_DEBUG, "harvest.http",
		    "GET %s: %ld, %zu bytes", shown, st, body->len);
	} else {
		core_log(CORE_LOG_ERROR, "harvest.http", "%s", h->err);
		if (st < 400 || st >= 500)
			core_buf_reset(body);
	}
	curl_slist_free_all(extra);
	free(real);
	free(shown);
	return er;
}
