/*
 * core.h -- libweftcore, the one library shared by weftd, every module and
 * weft-harvest.  This header is the contract: each prototype says what it
 * returns, who owns what, and which errors it can give.
 *
 * Sections: errors, memory, buffers and sinks, UTF-8, URLs and forms,
 * Accept negotiation, slugs, arXiv identifiers, output writers (HTML,
 * markdown, XML, JSON), configuration, logging, PostgreSQL, Redis,
 * requests and responses, modules.
 */
#ifndef CORE_H
#define CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <libpq-fe.h>

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/*
 * Every fallible function returns one of these; each maps to one HTTP
 * status (core_err_status()).  CORE_ECACHE means "carry on without Redis"
 * and never reaches a client.
 */
enum core_err {
	CORE_OK = 0,
	CORE_EINPUT,     /* 400: malformed input */
	CORE_EFORBIDDEN, /* 403: CSRF, foreign origin */
	CORE_ENOTFOUND,  /* 404 */
	CORE_EMETHOD,    /* 405 */
	CORE_ENOTACCEPT, /* 406: no acceptable representation */
	CORE_ETOOLARGE,  /* 413 */
	CORE_ELIMIT,     /* 429: rate limited */
	CORE_EDB,        /* 503: PostgreSQL unavailable or failed */
	CORE_EUPSTREAM,  /* 502: a remote source failed (harvester) */
	CORE_ECACHE,     /* Redis failed: carry on uncached */
	CORE_ESYS,       /* 500: a system call failed (our bug or the OS) */
	CORE_EFAIL,      /* the status and message in a struct core_fail */
	CORE_ERR__MAX
};

/* The HTTP status for an error (CORE_OK gives 200). */
int core_err_status(enum core_err);
/* A short English description, e.g. "not found".  Static storage. */
const char *core_err_str(enum core_err);
/* The reason phrase for a status code ("Not Found"), "" if unknown. */
const char *core_status_reason(int status);

/*
 * A failure that carries its own status and message to the client ("sort
 * must be newest or citations"), where an enum core_err carries only its
 * code.  A handler records one with core_req_fail() (below) and returns
 * CORE_EFAIL; core renders it once, in the negotiated representation, as
 * it renders every other error.
 */
struct core_fail {
	int status; /* 400..599; 0: nothing recorded */
	char *msg;  /* owned; NULL: nothing recorded */
};
/*
 * Records status and a copy of msg in f, replacing what it held, and
 * returns CORE_EFAIL.  A status outside 400..599 is recorded as 500 (a
 * failure never answers 2xx or 3xx); a NULL msg as the status's default
 * text.  Free with core_fail_free().
 */
enum core_err core_fail_set(struct core_fail *f, int status, const char *msg);
/*
 * The status and message to answer er with: f's for CORE_EFAIL (500 and
 * core_err_str(CORE_ESYS) when f holds nothing), core_err_status(er) and
 * core_err_str(er) otherwise.  *msg is borrowed from f or static.
 */
int core_fail_answer(const struct core_fail *f, enum core_err er,
    const char **msg);
/* Frees f's message and zeroes it (NULL-safe). */
void core_fail_free(struct core_fail *f);

/* ------------------------------------------------------------------ */
/* Memory: these abort on exhaustion, so callers never check.          */
/* ------------------------------------------------------------------ */

void *core_xcalloc(size_t nmemb, size_t size);
void *core_xrealloc(void *p, size_t size);
char *core_xstrdup(const char *s);
char *core_xstrndup(const char *s, size_t n);
/* printf into a fresh string; caller frees with free(). */
char *core_xasprintf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/*
 * Allocations freed together (pool.c): a record's strings.  Zeroed is
 * empty.  core_pool_keep() takes p (from malloc; NULL passes through)
 * and returns it; core_pool_free() frees all it took and empties it.
 */
struct core_pool {
	void **v;
	size_t n, cap;
};
void *core_pool_keep(struct core_pool *pl, void *p);
void core_pool_free(struct core_pool *pl);
/* Frees the n strings of v, then v (NULL when n is 0 passes). */
void core_strv_free(char **v, size_t n);

/*
 * A set of strings (sset.c): zeroed is empty; it holds the pointers, the
 * caller owns the strings.  core_sset_add() returns 1 if k was added, 0
 * if an equal string was there.  core_sset_free() frees the table only.
 * The members are the non-NULL v[i], i < cap.
 */
struct core_sset {
	const char **v;
	size_t cap, n;
};
int core_sset_has(const struct core_sset *s, const char *k);
int core_sset_add(struct core_sset *s, const char *k);
void core_sset_free(struct core_sset *s);

/* ------------------------------------------------------------------ */
/* Buffers and sinks                                                   */
/* ------------------------------------------------------------------ */

/*
 * A growable byte buffer.  ptr is always NUL-terminated once anything has
 * been written (len excludes the NUL).  Zero-initialise with CORE_BUF_INIT;
 * free with core_buf_free().
 */
struct core_buf {
	char *ptr;
	size_t len;
	size_t cap;
};
#define CORE_BUF_INIT                                                          \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

void core_buf_put(struct core_buf *, const void *p, size_t n);
void core_buf_puts(struct core_buf *, const char *s);
void core_buf_putc(struct core_buf *, char c);
void core_buf_printf(struct core_buf *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void core_buf_vprintf(struct core_buf *, const char *fmt, va_list)
    __attribute__((format(printf, 2, 0)));
/* Empties the buffer, keeping its memory. */
void core_buf_reset(struct core_buf *);
/* Always a valid C string ("" for an empty buffer); borrowed. */
const char *core_buf_cstr(struct core_buf *);
/* Moves the bytes out: caller frees the result with free(). */
char *core_buf_steal(struct core_buf *);
void core_buf_free(struct core_buf *);

/*
 * Where writers write.  A sink is a callback and its argument; writers
 * never know whether they fill a buffer, a FastCGI stream or a file.
 */
struct core_sink {
	void (*write)(void *arg, const char *p, size_t n);
	void *arg;
};
/* A sink appending to b (borrowed: b must outlive the sink). */
struct core_sink core_buf_sink(struct core_buf *b);
/* FNV-1a (64 bits) of the C string s: for hash tables, and for splits
 * that must come out the same on every machine and run. */
uint64_t core_fnv1a(const char *s);

/* ------------------------------------------------------------------ */
/* UTF-8                                                               */
/* ------------------------------------------------------------------ */

/* 1 if s[0..n) is valid UTF-8 with no NUL, else 0. */
int core_utf8_valid(const char *s, size_t n);
/*
 * Appends s[0..n) to b with every invalid UTF-8 sequence replaced by
 * U+FFFD and every C0 control except \t \n \r dropped (also DEL and
 * C1 controls).  Used before text reaches XML or JSON.
 */
void core_utf8_clean(struct core_buf *b, const char *s, size_t n);
/*
 * Writes s[0..n) to sk cleaned like core_utf8_clean(), and every ASCII
 * byte c for which subst[c] is not NULL as that string instead (the
 * escaping writers' tables: "&amp;" for '&' ...).  Runs of bytes that
 * need no change are written at once.  A table must not change once
 * used (what it replaces is cached by its address): make it const.
 */
void core_utf8_clean_subst(struct core_sink sk, const char *s, size_t n,
    const char *const subst[128]);
/* How many leading bytes of s[0..n) core_utf8_clean() keeps unchanged:
 * n when the whole string is clean already. */
size_t core_utf8_clean_span(const char *s, size_t n);
/*
 * What code point cp folds to for matching and slugs (utf8proc: NFKD,
 * marks stripped, case folded, default ignorables dropped: "É" gives
 * "e", a soft hyphen nothing): at most max code points written to d.
 * Returns how many (0: none), or -1 when cp is invalid or they do not
 * fit.
 */
int core_utf8_fold_cp(int32_t cp, int32_t *d, int max);
/*
 * s with mojibake repaired: UTF-8 that was decoded as Latin-1 or
 * Windows-1252 and encoded again, once or more ("MÃ¤ntylÃ¤", and twice
 * "MÃƒÂ¤ntylÃƒÂ¤", give "Mäntylä").  A round is undone only when every
 * character maps back to one byte and those bytes are valid UTF-8, so
 * correct names ("Müller", "Ãlvaro" is not valid as bytes) pass
 * unchanged.  *rounds (may be NULL) is the number of rounds undone.
 * Caller frees.
 */
char *core_utf8_demojibake(const char *s, int *rounds);
/*
 * A person's name as shown: raw with mojibake repaired, as a new JSON
 * string (core_json_str()); JSON null for NULL.  The raw form stays in
 * the database.
 */
json_t *core_json_name(const char *raw);

/* ------------------------------------------------------------------ */
/* URLs, query strings, forms, cookies                                 */
/* ------------------------------------------------------------------ */

/*
 * Percent-decodes in[0..n).  With plus_space, '+' becomes ' ' (query
 * strings and form bodies; not paths).  On CORE_OK *out is a fresh
 * NUL-terminated string the caller frees with free(), *outlen its length.
 * CORE_EINPUT for a bad escape, an encoded or raw NUL, or a result that is
 * not valid UTF-8; *out is then NULL.
 */
enum core_err core_url_decode(const char *in, size_t n, int plus_space,
    char **out, size_t *outlen);

/*
 * Appends s percent-encoded to b.  Unreserved characters (RFC 3986
 * ALPHA DIGIT - . _ ~) pass; with keep_slash also '/'.
 */
void core_url_encode(struct core_buf *b, const char *s, int keep_slash);

/* Decoded key/value pairs in input order; keys may repeat. */
struct core_kv {
	char *key;
	char *val;
};
struct core_params {
	struct core_kv *v;
	size_t n;
};

/*
 * Parses an application/x-www-form-urlencoded string (query strings and
 * form bodies) into *p, which must be zeroed or freed before.  At most
 * 256 pairs.  CORE_EINPUT on bad escapes, NUL, invalid UTF-8 or too many
 * pairs; *p is then empty.  Free with core_params_free().
 */
enum core_err core_query_parse(const char *s, size_t n, struct core_params *p);
/*
 * Parses a Cookie request header ("a=1; b=2", pairs split on ';' and
 * ',' as nginx splits them) into *p.  Values are not percent-decoded
 * (RFC 6265); surrounding double quotes are removed.  Malformed pairs
 * are skipped, never an error.
 */
void core_cookie_parse(const char *header, struct core_params *p);
/*
 * 1 if the Cookie header holds a pair named name in any ASCII case,
 * whatever its value (even malformed): the one rule, shared with nginx's
 * $weft_signed_in, for "this request is signed in".
 */
int core_cookie_has(const char *header, const char *name);
/* The first value for key, or NULL; borrowed from p. */
const char *core_params_get(const struct core_params *p, const char *key);
void core_params_free(struct core_params *p);

/* ------------------------------------------------------------------ */
/* Representations and Accept negotiation (RFC 9110, 12.5.1)           */
/* ------------------------------------------------------------------ */

enum core_rep {
	CORE_REP_HTML,
	CORE_REP_MD,
	CORE_REP_JSON,
	CORE_REP_BIB,
	CORE_REP_RSS,
	CORE_REP_XML,
	CORE_REP_TEXT,
	CORE_REP_RIS,
	CORE_REP_CSL,
	CORE_REP__MAX
};

/* "text/html" ...: the media type without parameters. */
extern const char *const core_rep_mime[CORE_REP__MAX];
/* Full Content-Type values: "text/html; charset=utf-8", ... */
extern const char *const core_rep_ctype[CORE_REP__MAX];
/* The ?format= names: "html", "md", "json", "bib", "rss", "xml", "txt",
 * "ris", "csl". */
extern const char *const core_rep_format[CORE_REP__MAX];

/*
 * Chooses among offers[0..n) (in the server's order of preference) by the
 * Accept header value: q-values, type/ and full wildcards, the most
 * specific matching range decides an offer's q, q=0 excludes, ties go to
 * the earlier offer.  A NULL, empty or unparseable header means * / *.
 * Returns the index into offers, or -1 when none is acceptable.
 */
int core_accept_choose(const char *accept, const enum core_rep *offers,
    size_t n);
/* Maps a ?format= value to a representation: 0 and *rep set, or -1. */
int core_rep_from_format(const char *fmt, enum core_rep *rep);

/* ------------------------------------------------------------------ */
/* Citations: BibTeX, RIS and CSL-JSON of papers (cite.c)              */
/* ------------------------------------------------------------------ */

/*
 * A paper is a JSON object as the pages' models hold it: arxiv_id,
 * title, authors ([{name}] or [string]), published ("YYYY-MM-DD..."),
 * primary_category, doi, journal_ref, abstract, links {abs, pdf}, and
 * author_count when authors lists only the first ones.  Missing fields
 * are left out; a paper without arxiv_id is skipped.
 */
struct core_req;
struct core_cite {
	enum core_rep rep;      /* CORE_REP_BIB, _RIS or _CSL */
	struct core_buf *out;   /* borrowed */
	size_t n;               /* entries written */
	struct core_sset keys;  /* the keys given so far, */
	struct core_pool owned; /* which it holds here */
	struct core_req *req;   /* core_cite_open_resp(): borrowed, or NULL */
	enum core_err err;      /* the first failed flush: the client left */
};

/* 1 for the citation representations (BibTeX, RIS, CSL-JSON). */
int core_rep_is_cite(enum core_rep);
/*
 * The citation key of paper alone: "lastname2025firstword" (the first
 * author's last name, the year, the first title word of four letters or
 * more, ASCII), or "arxiv2512_20345" without author or year.  Caller
 * frees.
 */
char *core_cite_key(const json_t *paper);
/* Appends s to b escaped for a braced BibTeX value. */
void core_bib_escape(struct core_buf *b, const char *s);
/* The CSL-JSON item of paper with id key.  Caller json_decref()s. */
json_t *core_cite_csl(const json_t *paper, const char *key);
/*
 * Writing a list: open, add each paper as it comes (keys made unique
 * within the list: the first keeps its own key, later ones with the
 * same key get "b", "c" ...), close (ends a CSL-JSON array; frees the
 * key set).  out is borrowed until close.
 */
void core_cite_open(struct core_cite *, enum core_rep rep,
    struct core_buf *out);
/*
 * core_cite_open() on the response body of req in its negotiated
 * representation, spilling (core_resp_spill()): after each paper the
 * body goes out once it is long enough, so an export of any length is
 * never whole in memory.  Set the headers before the first paper; err
 * is CORE_EUPSTREAM once the client has gone (stop adding then).
 */
void core_cite_open_resp(struct core_cite *, struct core_req *req);
void core_cite_add(struct core_cite *, const json_t *paper);
/* core_cite_add() for each element of the array papers. */
void core_cite_add_all(struct core_cite *, const json_t *papers);
void core_cite_close(struct core_cite *);

/* ------------------------------------------------------------------ */
/* Dates: seconds since the epoch (UTC), formatted by hand so that     */
/* neither the locale nor TZ can change what a client sees (date.c)    */
/* ------------------------------------------------------------------ */

/* "Sun, 06 Nov 1994 08:49:37 GMT": an IMF-fixdate (RFC 9110 5.6.7),
 * for Last-Modified.  Years outside 0..9999 are clamped. */
void core_http_date(char out[32], int64_t t);
/*
 * Parses an HTTP-date in any of the three forms RFC 9110 (5.6.7) says a
 * recipient must accept: IMF-fixdate, RFC 850 and asctime.  0 and *t
 * set, or -1 when s (NULL allowed) is not one of them.
 */
int core_http_date_parse(const char *s, int64_t *t);
/* "Sun, 06 Nov 1994 08:49:37 +0000": RFC 822 with a four-digit year,
 * as RSS 2.0 wants. */
void core_date_rfc822(char out[32], int64_t t);
/* "1994-11-06T08:49:37+00:00": a W3C datetime, for sitemaps. */
void core_date_w3c(char out[32], int64_t t);
/* "YYYY-MM-DD..." (what follows the day is ignored): 0 and *t, its
 * midnight UTC, or -1 when s (NULL allowed) does not start with one. */
int core_date_day_parse(const char *s, int64_t *t);
/* 1 when y-m-d (m 1..12) is a day of the Gregorian calendar, else 0. */
int core_date_is_day(int y, int m, int d);
/* Seconds from t0 to now, both on CLOCK_MONOTONIC (durations, rates). */
struct timespec;
double core_elapsed(const struct timespec *t0);

/* ------------------------------------------------------------------ */
/* Slugs and identifiers                                               */
/* ------------------------------------------------------------------ */

/*
 * A URL slug of s: NFKD, marks stripped, lower-case ASCII letters and
 * digits, runs of anything else as one '-', no leading or trailing '-',
 * cut at a '-' boundary to at most maxlen bytes.  Characters with no
 * ASCII form (CJK) are dropped, so the result may be "".  Caller frees.
 */
char *core_slug(const char *s, size_t maxlen);

/* An arXiv identifier. */
struct core_arxiv_id {
	char id[48];   /* canonical, without version: "2512.20345",
			   "math.GT/0309136" */
	int version;   /* 0 when none was given */
	int old_style; /* 1 for archive(.SC)/YYMMNNN */
};

/*
 * Parses an arXiv identifier at the start of s[0..n): new style
 * YYMM.NNNN or YYMM.NNNNN (five digits from 1501), old style
 * archive(.SC)/YYMMNNN, each with an optional vN.  An "arXiv:" prefix is
 * accepted.  *consumed (if not NULL) gets the bytes used, so callers can
 * look at what follows ("-slug").  CORE_EINPUT when s does not start with
 * an identifier.
 */
enum core_err core_arxiv_parse(const char *s, size_t n,
    struct core_arxiv_id *out, size_t *consumed);

/* ------------------------------------------------------------------ */
/* Canonical paths of the site (every module links with these)         */
/* ------------------------------------------------------------------ */

/* "/papers/{id}-{slug}" ("/papers/{id}" for an empty slug; a slug that
 * repeats the id is not repeated).  Caller frees. */
char *core_paper_path(const char *arxiv_id, const char *slug);
/* "/researchers/{id}-{slug}", "/institutions/{id}-{slug}".  Caller frees. */
char *core_researcher_path(long long id, const char *slug);
char *core_institution_path(long long id, const char *slug);
/* 1 if s[0..n) can be an arXiv category ([A-Za-z0-9.-]{1,32}). */
int core_category_ok(const char *s, size_t n);
/* A positive decimal id of at most 18 digits: 0 and *id set, or -1. */
int core_id_parse(const char *s, size_t n, long long *id);

/* ------------------------------------------------------------------ */
/* HTML writer: escapes by construction                                */
/* ------------------------------------------------------------------ */

/* Elements (HTML and the SVG subset we draw). */
enum core_tag {
	CORE_TAG_A,
	CORE_TAG_ABBR,
	CORE_TAG_ARTICLE,
	CORE_TAG_ASIDE,
	CORE_TAG_B,
	CORE_TAG_BODY,
	CORE_TAG_BR,
	CORE_TAG_BUTTON,
	CORE_TAG_CODE,
	CORE_TAG_DD,
	CORE_TAG_DETAILS,
	CORE_TAG_DIV,
	CORE_TAG_DL,
	CORE_TAG_DT,
	CORE_TAG_EM,
	CORE_TAG_FIELDSET,
	CORE_TAG_FOOTER,
	CORE_TAG_FORM,
	CORE_TAG_H1,
	CORE_TAG_H2,
	CORE_TAG_H3,
	CORE_TAG_H4,
	CORE_TAG_HEAD,
	CORE_TAG_HEADER,
	CORE_TAG_HR,
	CORE_TAG_HTML,
	CORE_TAG_I,
	CORE_TAG_IMG,
	CORE_TAG_INPUT,
	CORE_TAG_LABEL,
	CORE_TAG_LEGEND,
	CORE_TAG_LI,
	CORE_TAG_LINK,
	CORE_TAG_MAIN,
	CORE_TAG_MARK,
	CORE_TAG_META,
	CORE_TAG_NAV,
	CORE_TAG_OL,
	CORE_TAG_OPTION,
	CORE_TAG_P,
	CORE_TAG_PRE,
	CORE_TAG_SCRIPT, /* only <script src type=module></script> */
	CORE_TAG_SECTION,
	CORE_TAG_SELECT,
	CORE_TAG_SMALL,
	CORE_TAG_SPAN,
	CORE_TAG_STRONG,
	CORE_TAG_SUMMARY,
	CORE_TAG_TABLE,
	CORE_TAG_TBODY,
	CORE_TAG_TD,
	CORE_TAG_TEXTAREA,
	CORE_TAG_TH,
	CORE_TAG_THEAD,
	CORE_TAG_TIME,
	CORE_TAG_TITLE,
	CORE_TAG_TR,
	CORE_TAG_UL,
	/* SVG */
	CORE_TAG_SVG,
	CORE_TAG_G,
	CORE_TAG_LINE,
	CORE_TAG_CIRCLE,
	CORE_TAG_RECT,
	CORE_TAG_PATH,
	CORE_TAG_POLYLINE,
	CORE_TAG_TEXT,
	CORE_TAG_SVGTITLE, /* <title> inside SVG */
	/* MathML (core_html_tex) */
	CORE_TAG_MATH,
	CORE_TAG_MI,
	CORE_TAG_MN,
	CORE_TAG_MO,
	CORE_TAG_MTEXT,
	CORE_TAG_MROW,
	CORE_TAG_MSUP,
	CORE_TAG_MSUB,
	CORE_TAG_MSUBSUP,
	CORE_TAG_MFRAC,
	CORE_TAG_MSQRT,
	CORE_TAG_MROOT,
	CORE_TAG_MOVER,
	CORE_TAG_MUNDER,
	CORE_TAG__MAX
};

/* Attribute names. */
enum core_attrname {
	CORE_ATTR_ACTION,
	CORE_ATTR_ALT,
	CORE_ATTR_ARIA_CURRENT,
	CORE_ATTR_ARIA_HIDDEN,
	CORE_ATTR_ARIA_LABEL,
	CORE_ATTR_AUTOCOMPLETE,
	CORE_ATTR_CHARSET,
	CORE_ATTR_CLASS,
	CORE_ATTR_CONTENT,
	CORE_ATTR_DATETIME,
	CORE_ATTR_FOR,
	CORE_ATTR_HEIGHT,
	CORE_ATTR_HREF,
	CORE_ATTR_HREFLANG,
	CORE_ATTR_ID,
	CORE_ATTR_LANG,
	CORE_ATTR_MAXLENGTH,
	CORE_ATTR_METHOD,
	CORE_ATTR_MINLENGTH,
	CORE_ATTR_NAME,
	CORE_ATTR_PLACEHOLDER,
	CORE_ATTR_PROPERTY,
	CORE_ATTR_REL,
	CORE_ATTR_REQUIRED,
	CORE_ATTR_ROLE,
	CORE_ATTR_SELECTED,
	CORE_ATTR_SRC,
	CORE_ATTR_TITLE,
	CORE_ATTR_TYPE,
	CORE_ATTR_VALUE,
	CORE_ATTR_WIDTH,
	/* SVG */
	CORE_ATTR_CX,
	CORE_ATTR_CY,
	CORE_ATTR_D,
	CORE_ATTR_FILL,
	CORE_ATTR_POINTS,
	CORE_ATTR_R,
	CORE_ATTR_STROKE,
	CORE_ATTR_STROKE_WIDTH,
	CORE_ATTR_TEXT_ANCHOR,
	CORE_ATTR_VIEWBOX,
	CORE_ATTR_X,
	CORE_ATTR_X1,
	CORE_ATTR_X2,
	CORE_ATTR_XMLNS,
	CORE_ATTR_Y,
	CORE_ATTR_Y1,
	CORE_ATTR_Y2,
	/* MathML */
	CORE_ATTR_MATHVARIANT,
	CORE_ATTR__MAX
};

/* One attribute; lists end with { CORE_ATTR__MAX, NULL }. */
struct core_attr {
	enum core_attrname key;
	const char *val; /* NULL: attribute left out; "" for boolean */
};
/*
 * An attribute list written in place:
 * (const struct core_attr[]){ CORE_A(HREF, u), CORE_A(CLASS, c),
 * CORE_A_END }.
 */
#define CORE_A(k, v)                                                           \
	{                                                                      \
		CORE_ATTR_##k, (v)                                             \
	}
#define CORE_A_END                                                             \
	{                                                                      \
		CORE_ATTR__MAX, NULL                                           \
	}

#define CORE_HTML_DEPTH 64

/*
 * An HTML document being written.  Errors are sticky: after the first
 * (too deep, a pop with nothing open, a bad SSI name) the writer writes
 * nothing more and core_html_close() returns CORE_EINPUT.  An unsafe URL
 * is not an error: the attribute is written empty.
 */
struct core_html {
	struct core_sink sink;
	enum core_tag stack[CORE_HTML_DEPTH];
	size_t depth;
	enum core_err err;
};

void core_html_open(struct core_html *, struct core_sink);
/* Writes "<!doctype html>". */
void core_html_doctype(struct core_html *);
/*
 * Opens tag with attrs (may be NULL).  Void elements (br, hr, img, input,
 * link, meta) are not pushed; SVG leaf shapes (line, circle, rect, path,
 * polyline) are written self-closed and not pushed either.  Attribute
 * values are escaped; href/src/action values must be relative, http(s):
 * or mailto:, otherwise the attribute is written empty.
 */
void core_html_elem(struct core_html *, enum core_tag,
    const struct core_attr *attrs);
/* Escaped text (& < > " '), invalid UTF-8 replaced, controls dropped. */
void core_html_text(struct core_html *, const char *s);
void core_html_textn(struct core_html *, const char *s, size_t n);
/* printf-formatted text, escaped like core_html_text(). */
void core_html_textf(struct core_html *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Closes the innermost open element. */
void core_html_pop(struct core_html *);
/* Closes open elements until depth is left open. */
void core_html_popto(struct core_html *, size_t depth);
/* Shorthand: open tag (with attrs), write text, close. */
void core_html_elemtext(struct core_html *, enum core_tag,
    const struct core_attr *attrs, const char *text);
/* Renders markdown md (with GFM tables) with cmark-gfm in its safe mode. */
void core_html_md(struct core_html *, const char *md);
/*
 * Writes <script type="application/ld+json"> with the JSON serialised
 * using JSON_ESCAPE_SLASH, so no string inside can close the script.
 */
void core_html_jsonld(struct core_html *, const json_t *);
/*
 * <time datetime="2025-12-23">23 Dec 2025</time> for an ISO date (the
 * text is iso itself when it is not YYYY-MM-DD...); nothing for NULL.
 */
void core_html_date(struct core_html *, const char *iso);
/* "Jan" .. "Dec" for m in 1..12, NULL otherwise (core/date.c). */
const char *core_month_abbr(int m);
/*
 * nginx SSI: "<!--# if expr="$weft_signed_in" --><!--# include
 * virtual="PATH" --><!--# else -->".  Follow it with the signed-out
 * markup and core_html_ssi_endif().  $weft_signed_in is nginx's side of
 * core_req_signed_in() (nginx/upstreams.conf.in).  path must be
 * [A-Za-z0-9_/.-] only (sticky error otherwise).
 */
void core_html_ssi_if_signed_in(struct core_html *, const char *virtual_path);
void core_html_ssi_endif(struct core_html *);
/* Closes everything still open; returns the sticky error. */
enum core_err core_html_close(struct core_html *);

/*
 * The <link>s of every page's <head> that are the site's own: the
 * stylesheet, the SVG favicon and the apple-touch-icon.
 */
void core_site_head_links(struct core_html *);
/*
 * The site's chrome, shared by every module that renders HTML: the skip
 * link and header bar (brand, search, navigation), whose account slot
 * account(h, arg) fills (an SSI include on public pages, direct links on
 * account pages), and the footer (links, credits, licences).
 */
void core_site_header(struct core_html *,
    void (*account)(struct core_html *, const void *), const void *arg);
void core_site_footer(struct core_html *);
/*
 * The content of an error page, the same from every module: the status
 * as an eyebrow, title as the heading, msg, and a link home.
 */
void core_site_error(struct core_html *, int status, const char *title,
    const char *msg);

/* Appends s HTML-escaped to b (for code that builds attribute text). */
void core_html_escape(struct core_buf *b, const char *s);
/*
 * The bytes the HTML writer escapes and their entity names, X(byte,
 * name) each: one list for html.c and for xml.c, whose HTML text must
 * escape exactly what the HTML writer does.  The single quote is
 * escaped too, so text is safe inside either kind of quoted attribute.
 */
#define CORE_HTML_ENTITIES(X)                                                  \
	X('&', "amp") X('<', "lt") X('>', "gt") X('"', "quot") X('\'', "#39")

/* ------------------------------------------------------------------ */
/* Markdown writer (output for agents)                                 */
/* ------------------------------------------------------------------ */

/*
 * Appends s to b as markdown text: ASCII punctuation backslash-escaped,
 * line breaks and controls turned into spaces, invalid UTF-8 replaced.
 */
void core_md_text(struct core_buf *b, const char *s);
/* Appends "[text](url)"; url gets ( ) < > and spaces percent-encoded. */
void core_md_link(struct core_buf *b, const char *text, const char *url);
/* Appends a level-deep ATX heading ("## text" for 2), escaped, "\n\n". */
void core_md_heading(struct core_buf *b, int level, const char *text);
/*
 * Appends md to b with every site link made absolute: each "](/" link
 * target prefixed by base (the static pages, llms-full.txt).
 */
void core_md_absolutise(struct core_buf *b, const char *md, const char *base);
/*
 * The bytes of the file at path, NUL-terminated, at most max of them:
 * caller frees with free().  NULL when it cannot be opened.
 */
char *core_file_read(const char *path, size_t max);

/* ------------------------------------------------------------------ */
/* TeX in titles and abstracts (tex.c)                                 */
/* ------------------------------------------------------------------ */

/*
 * arXiv titles and abstracts are TeX.  These converters know its
 * accents (\"o, \c{c}, \ss), escapes (\%, \&), dashes and quotes (--,
 * ``...''), font commands (\emph{x} gives x) and inline math ($...$,
 * \(...\)) with Greek letters, scripts, \frac, \sqrt, \mathbb and the
 * common operators.  Anything else stays as its literal source; math
 * they cannot parse stays as "$...$".  Work and nesting are bounded.
 */
/*
 * s as plain UTF-8 text: accents composed (NFC), escapes undone, math as
 * Unicode ("$x^2 \leq \alpha$" gives "x² ≤ α"), or, with keep_math, as
 * its TeX source.  For <title>, meta descriptions, feeds.  NULL for a
 * NULL s; otherwise the caller frees the result with free().
 */
char *core_tex_plain(const char *s, int keep_math);
/*
 * Writes s as escaped text, its inline math as MathML (<math><mi>...),
 * through the HTML writer: no markup comes from s itself.
 */
void core_html_tex(struct core_html *, const char *s);
/* Appends s to b as markdown: core_tex_plain(s, 1) through core_md_text(). */
void core_md_tex(struct core_buf *b, const char *s);

/* ------------------------------------------------------------------ */
/* XML writer (RSS, sitemaps), over libxml2's xmlTextWriter            */
/* ------------------------------------------------------------------ */

struct core_xml; /* opaque */

/*
 * Starts a UTF-8 XML document written to sink.  Caller ends it with
 * core_xml_close().  Errors are sticky as in the HTML writer.
 */
struct core_xml *core_xml_open(struct core_sink sink);
/* Element names and attribute names are literals in our code. */
void core_xml_start(struct core_xml *, const char *name);
void core_xml_attr(struct core_xml *, const char *name, const char *val);
/* Text content: controls and invalid UTF-8 dropped, < > & escaped. */
void core_xml_text(struct core_xml *, const char *s);
/*
 * Text content that a reader takes as HTML (an RSS description): s as
 * plain text, escaped for HTML as core_html_escape() does and then for
 * XML as core_xml_text() does, in one pass ("a < b" arrives as text).
 */
void core_xml_html_text(struct core_xml *, const char *s);
void core_xml_end(struct core_xml *);
/* <name>text</name>; nothing at all when text is NULL. */
void core_xml_elemtext(struct core_xml *, const char *name, const char *text);
/* <name>text</name> with text as core_xml_html_text() writes it. */
void core_xml_elemhtml(struct core_xml *, const char *name, const char *text);
/* Flushes pending output to the sink (streaming writers call it). */
void core_xml_flush(struct core_xml *);
/* Ends the document, frees the writer, returns the sticky error. */
enum core_err core_xml_close(struct core_xml *);

/* ------------------------------------------------------------------ */
/* Feeds: one model, three writers (feed.c)                            */
/* ------------------------------------------------------------------ */

enum core_feed_fmt {
	CORE_FEED_RSS,  /* RSS 2.0, NAME.xml */
	CORE_FEED_ATOM, /* Atom (RFC 4287), NAME.atom */
	CORE_FEED_JSON, /* JSON Feed 1.1, NAME.json */
	CORE_FEED__MAX
};
/* "xml", "atom", "json": the extension of a feed URL in each format. */
extern const char *const core_feed_ext[CORE_FEED__MAX];
/* The media types ("application/atom+xml"), for <link type>. */
extern const char *const core_feed_mime[CORE_FEED__MAX];
/* Full Content-Type values, for core_resp_ctype(). */
extern const char *const core_feed_ctype[CORE_FEED__MAX];
/* "RSS", "Atom", "JSON Feed": names for people. */
extern const char *const core_feed_label[CORE_FEED__MAX];

/*
 * One entry of a feed; every pointer is borrowed for the render.  id is
 * the stable GUID (an absolute URL; equal to link for a paper, the
 * paper's URL and "v2" for its second version).  title and summary are
 * plain text; authors and categories arrays of strings (NULL: none).
 * Dates are seconds since the epoch, -1 when unknown.
 */
struct core_feed_item {
	const char *id;
	const char *link;
	const char *title;
	const char *summary;
	const json_t *authors;
	const json_t *categories;
	int64_t published;
	int64_t updated;
};
/* A feed: its channel (absolute URLs, borrowed) and items, newest first. */
struct core_feed {
	const char *title;
	const char *link; /* the page the feed follows */
	const char *description;
	const char *self; /* the feed's own URL in the format written */
	int64_t updated;  /* newest change; -1 unknown */
	const struct core_feed_item *items;
	size_t nitems;
};
/*
 * Splits "NAME.EXT" for EXT one of core_feed_ext: 0, *n the length of
 * NAME (maybe 0) and *fmt, or -1 when rest ends in none of them.
 */
int core_feed_ext_parse(const char *rest, size_t *n, enum core_feed_fmt *fmt);
/* Writes f to sink in fmt; returns the writer's sticky error. */
enum core_err core_feed_render(struct core_sink sink, enum core_feed_fmt fmt,
    const struct core_feed *f);

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* Appends v serialised with JSON_COMPACT | JSON_ESCAPE_SLASH (and a
 * trailing newline when nl) to b. */
void core_json_render(struct core_buf *b, const json_t *v, int nl);
/*
 * A JSON string from possibly dirty bytes (invalid UTF-8 replaced,
 * controls dropped); json_null() for NULL.  New reference.
 */
json_t *core_json_str(const char *s);
/* o's string member key (borrowed from o), NULL when absent or not one. */
const char *core_json_text(const json_t *o, const char *key);
/* o's integer member key, def when absent or not an integer. */
long long core_json_int(const json_t *o, const char *key, long long def);

/* ------------------------------------------------------------------ */
/* Configuration: "key = value" lines, '#' comments                    */
/* ------------------------------------------------------------------ */

struct core_conf;

/*
 * Loads path.  Environment variables WEFT_<KEY> (key upper-cased, '.' as
 * '_') override the file.  CORE_EINPUT (logged) if it cannot be read or a
 * line is malformed.  Free with core_conf_free().
 */
enum core_err core_conf_load(const char *path, struct core_conf **cp);
/* The value for key, or def; borrowed from the conf. */
const char *core_conf_get(const struct core_conf *, const char *key,
    const char *def);
long core_conf_int(const struct core_conf *, const char *key, long def);
/*
 * A secret kept out of the configuration file: key names a file whose
 * first line is the secret (a password, an API key).  *secret is NULL
 * when key is unset, else a copy the caller frees; CORE_EINPUT (logged,
 * without the secret) when the file cannot be read.
 */
enum core_err core_conf_secret(const struct core_conf *, const char *key,
    char **secret);
void core_conf_free(struct core_conf *);

/* The file a program reads when told nothing else. */
#define CORE_CONF_DEFAULT "conf/weft.conf"
/*
 * The configuration file of a program: path (its -c) when not NULL, else
 * $WEFT_CONF when set, else CORE_CONF_DEFAULT.  When optional and that
 * default does not exist, "/dev/null": the WEFT_<KEY> variables are then
 * all the configuration there is.  Borrowed (path, the environment or a
 * literal).
 */
const char *core_conf_path(const char *path, int optional);
/*
 * What the command-line programs do first: loads core_conf_path(path, 1)
 * and applies its log_level (core_log_conf()).  Same errors and
 * ownership as core_conf_load().
 */
enum core_err core_conf_start(const char *path, struct core_conf **cp);

/* ------------------------------------------------------------------ */
/* Logging: one JSON object per line on stderr                         */
/* ------------------------------------------------------------------ */

enum core_loglevel {
	CORE_LOG_DEBUG,
	CORE_LOG_INFO,
	CORE_LOG_WARN,
	CORE_LOG_ERROR,
	CORE_LOG__MAX
};

/* Messages below level are not written. */
void core_log_setlevel(enum core_loglevel level);
/* Sets the "module" field written with every line (borrowed, static). */
void core_log_setname(const char *name);
/* Sets the request id written with every line until reset with NULL. */
void core_log_setreqid(const char *reqid);
/*
 * Sets the level from the key log_level of c: "debug", "info", "warn" or
 * "error"; anything else (and no key) is "info".
 */
void core_log_conf(const struct core_conf *c);
/*
 * Writes {"ts":…,"level":…,"module":…,"pid":…,"event":event,"msg":…}.
 * Control characters in msg are escaped by jansson; never pass
 * passwords or tokens.
 */
void core_log(enum core_loglevel, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------ */
/* PostgreSQL                                                          */
/* ------------------------------------------------------------------ */

/*
 * One named statement, generated from sql/queries/<module>.sql: its
 * result columns are cols[0..ncols) (NULL, 0 when it returns none), the
 * names that the generated MOD_STMT__COL enum indexes.
 */
struct core_stmt {
	const char *name;
	const char *sql;
	const char *const *cols;
	int ncols;
	/* Planned with its parameters' values at every execution ("-- plan:
	 * each", sql/stmts.awk), never from a generic plan. */
	int plan_each;
};

struct core_db;

/*
 * Connects with conninfo and prepares stmts[0..n) (borrowed: must outlive
 * the db), checking that each returns exactly its cols, by name and in
 * order.  CORE_EDB (logged, naming the statement and the column) if the
 * server is unreachable, a statement does not prepare or its columns
 * differ; *dbp is set even then (a handle that reconnects on the next
 * core_db_exec), and the caller frees it with core_db_close().
 */
enum core_err core_db_open(const char *conninfo, const struct core_stmt *stmts,
    size_t n, struct core_db **dbp);
/*
 * Executes prepared statement number stmt with text params.  On CORE_OK
 * *res holds the result (caller PQclear()s it).  A lost connection is
 * reset and the statement retried once.  CORE_EDB (logged) otherwise,
 * with *res NULL.  Results are always in text format.
 */
enum core_err core_db_exec(struct core_db *, int stmt,
    const char *const *params, int nparams, PGresult **res);
/*
 * CORE_OK if res has exactly st's columns, by name and in order;
 * CORE_EDB (logged, naming the statement and the column) otherwise.
 * core_db_open() checks every prepared statement so; a statement run
 * otherwise (a script, a cursor's FETCH) can check its first result.
 */
enum core_err core_db_columns(const struct core_stmt *st, const PGresult *res);
/* The connection, for COPY and transactions; borrowed. */
PGconn *core_db_conn(struct core_db *);
/* Runs a parameterless SQL command (BEGIN, COMMIT); CORE_EDB on error. */
enum core_err core_db_cmd(struct core_db *, const char *sql);
void core_db_close(struct core_db *);

/*
 * Cells of a result row, read with the column enums that sql/stmts.awk
 * generates (MOD_STMT__COL), never with a bare number.  NULL means one
 * thing everywhere: the value is unknown or absent.  The C readers then
 * return NULL (text, date) or the caller's def (numbers, bool), so each
 * call site says what an unknown number stands for; the view-model
 * readers (core_cell_j*) return json null, so an unknown metric stays
 * null on a page, never 0.  Text is borrowed until PQclear(); JSON
 * values are new references.
 */
int core_cell_isnull(const PGresult *, int row, int col);
/* The text, NULL for NULL. */
const char *core_cell_text(const PGresult *, int row, int col);
/* The text, "" for NULL: for printing a cell as it is. */
const char *core_cell_str(const PGresult *, int row, int col);
/* An integer column (int2, int4): def for NULL or not a number. */
int core_cell_int(const PGresult *, int row, int col, int def);
/* A bigint column (or any integer): def for NULL or not a number. */
long long core_cell_bigint(const PGresult *, int row, int col, long long def);
/* A boolean column: 1 for 't', 0 for 'f', def for NULL. */
int core_cell_bool(const PGresult *, int row, int col, int def);
/* A date column as "YYYY-MM-DD", NULL for NULL or any other form. */
const char *core_cell_date(const PGresult *, int row, int col);
/*
 * A column of JSON text (json, jsonb, to_json()::text): the document
 * parsed (any JSON value); def for NULL or text that does not parse.
 * Takes ownership of def (which may be NULL) and returns a new reference.
 */
json_t *core_cell_json(const PGresult *, int row, int col, json_t *def);
/* A text column as a JSON string (as core_json_str()), null for NULL. */
json_t *core_cell_jtext(const PGresult *, int row, int col);
/* An integer column as a JSON integer, null for NULL. */
json_t *core_cell_jint(const PGresult *, int row, int col);
/* A boolean column as a JSON boolean, null for NULL. */
json_t *core_cell_jbool(const PGresult *, int row, int col);

/* Which view-model reader core_row_set() reads a column with. */
enum core_cell_kind {
	CORE_CELL_TEXT, /* core_cell_jtext() */
	CORE_CELL_INT,  /* core_cell_jint() */
	CORE_CELL_BOOL, /* core_cell_jbool() */
	CORE_CELL_LIST, /* core_cell_json(), [] for NULL or bad */
	CORE_CELL__MAX
};

/* One member of a row's JSON object: key, column col read as kind. */
struct core_cell_field {
	const char *key;
	int col;
	enum core_cell_kind kind;
};

/*
 * Sets in o, in the order given, each of fields[0..n): its key to the
 * cell (row, its col) read as its kind.  The table says once what a
 * row's object holds, instead of a json_object_set_new() per member.
 */
void core_row_set(json_t *o, const PGresult *, int row,
    const struct core_cell_field *fields, size_t n);
/* Every row of res as an object of fields[0..n), in an array (new). */
json_t *core_rows_json(const PGresult *, const struct core_cell_field *fields,
    size_t n);

/* ------------------------------------------------------------------ */
/* Redis: fails soft (CORE_ECACHE), callers carry on without it        */
/* ------------------------------------------------------------------ */

struct core_redis;
struct redisReply; /* hiredis */

/*
 * The Redis the configuration names, or NULL when it names none:
 * "redis" (a unix socket path, "host:port" or "[v6]:port"), or
 * "redis_sentinels" (host:port list) with "redis_master" (the monitored
 * group, default "weft"; "redis_sentinel_password_file" when they ask
 * for one), plus "redis_user" and "redis_password_file" for AUTH.  The connection is made now if possible and again (at most
 * once a second) whenever it is broken; with Sentinels, each new
 * connection asks them for the current primary.  Free with
 * core_redis_close().
 */
struct core_redis *core_redis_open(const struct core_conf *);
/* Where the connection goes, for messages (no password). */
const char *core_redis_where(const struct core_redis *);
/*
 * Runs one command.  fmt is a hiredis format and always a literal: each
 * %s and %b becomes one argument, so values with spaces or CR/LF stay
 * data.  On CORE_OK *reply is set (caller frees with freeReplyObject());
 * CORE_ECACHE (logged) when Redis is down or answers an error.
 */
enum core_err core_redis_cmd(struct core_redis *, struct redisReply **reply,
    const char *fmt, ...);
enum core_err core_redis_vcmd(struct core_redis *, struct redisReply **reply,
    const char *fmt, va_list ap);
/*
 * A fixed-window counter: INCR key and, on its first hit, EXPIRE it
 * after ttl seconds.  On CORE_OK *n is the new count (0 if Redis
 * answered something else); CORE_ECACHE (logged) when Redis fails.
 */
enum core_err core_redis_incr(struct core_redis *, const char *key, long ttl,
    long long *n);
void core_redis_close(struct core_redis *);

/* ------------------------------------------------------------------ */
/* Requests and responses                                              */
/* ------------------------------------------------------------------ */

struct core_ctx;
struct core_req;
struct core_module;

/* What a worker process keeps: borrowed by requests. */
struct core_ctx {
	struct core_conf *conf;
	struct core_db *db;       /* NULL when the module has no SQL */
	struct core_redis *redis; /* NULL when not configured */
	const struct core_module *mod;
	const char *base_url;         /* "http://127.0.0.1:8080", no '/' */
	const char *session_cookie;   /* cookie name, "weft_session" */
	void *mod_state;              /* the module's own process state */
	struct core_metrics *metrics; /* shared by the pool, may be NULL */
	long cache_ttl;               /* seconds pages stay in Redis; 0: off */
};

/* A handler fills the response and returns CORE_OK, or returns an error
 * that the core renders in the negotiated representation: an enum value
 * with its default text, or CORE_EFAIL from core_req_fail() with the
 * status and message the handler chose. */
typedef enum core_err (*core_handler)(struct core_req *);

/*
 * A route.  pattern is an exact path ("/about"), or ends in '*' to match
 * any path with that prefix ("/papers/ *" without the space): the rest is
 * then in core_req_rest().  method "GET" also serves HEAD; "ANY" all.
 * A path some route matches but not with the request's method is a 405
 * whose Allow lists the methods of the routes that match it.
 */
struct core_route {
	const char *method;
	const char *pattern;
	core_handler handler;
};

/* The request, as handlers see it. */
const char *core_req_method(const struct core_req *);
int core_req_is_head(const struct core_req *);
/* The decoded path (valid UTF-8, no NUL). */
const char *core_req_path(const struct core_req *);
/* The raw query string ("" when none). */
const char *core_req_query(const struct core_req *);
/* The path remainder matched by a '*' route, "" otherwise. */
const char *core_req_rest(const struct core_req *);
/* A decoded query parameter, or NULL. */
const char *core_req_param(const struct core_req *, const char *key);
/* A cookie value, or NULL. */
const char *core_req_cookie(const struct core_req *, const char *name);
/*
 * 1 if the request carries the session cookie (core_cookie_has() on all
 * its Cookie headers): such a request is answered as signed in, never
 * with a response a shared cache may store, whether or not the session
 * is valid.  nginx decides the same way ($weft_signed_in).
 */
int core_req_signed_in(const struct core_req *);
/*
 * The session cookie's value (the first pair whose name is the session
 * cookie's in any ASCII case), or NULL.
 */
const char *core_req_session(const struct core_req *);
/* A FastCGI parameter ("HTTP_ORIGIN", "REMOTE_ADDR"), or NULL. */
const char *core_req_env(const struct core_req *, const char *name);
/*
 * The request body (POST), at most max bytes: CORE_ETOOLARGE beyond,
 * CORE_EINPUT if shorter than CONTENT_LENGTH.  Borrowed for the request.
 */
enum core_err core_req_body(struct core_req *, size_t max, const char **p,
    size_t *n);
/* The form fields of an urlencoded POST body (parsed once). */
enum core_err core_req_form(struct core_req *, const struct core_params **);
struct core_ctx *core_req_ctx(struct core_req *);
/* Per-request id (from nginx's $request_id when passed, else made). */
const char *core_req_id(const struct core_req *);

/*
 * Chooses the representation among offers: ?format= when present (an
 * unknown or unoffered value gives CORE_ENOTACCEPT), else Accept.  Sets
 * the request's representation and the Vary header.  The chosen one is
 * returned by core_req_rep(); before negotiation (and after a failure)
 * it is the best guess used for error pages.
 */
enum core_err core_req_negotiate(struct core_req *, const enum core_rep *offers,
    size_t n);
enum core_rep core_req_rep(const struct core_req *);
/*
 * Sets the representation errors are rendered in when the handler
 * answers in a form no offer names (a text/event-stream answer).
 */
void core_req_set_rep(struct core_req *, enum core_rep);
/* The offers of the last negotiation (for 406 bodies). */
size_t core_req_offers(const struct core_req *, const enum core_rep **);

/* The response.  Status defaults to 200. */
void core_resp_status(struct core_req *, int status);
/* Adds a header; CORE_EINPUT (nothing added) if name or value holds CR,
 * LF or NUL, or name is not a token. */
enum core_err core_resp_header(struct core_req *, const char *name,
    const char *value);
/* Sets Content-Type from a representation. */
void core_resp_type(struct core_req *, enum core_rep);
/*
 * Sets Content-Type to a media type that is no representation of ours
 * ("image/png"): the body is then bytes the handler puts with
 * core_buf_put(), sent as they are (validators, HEAD and the caches
 * treat it as any body).  CORE_EINPUT as core_resp_header().
 */
enum core_err core_resp_ctype(struct core_req *, const char *ctype);
/* The body buffer the handler writes into (also through a sink). */
struct core_buf *core_resp_body(struct core_req *);
struct core_sink core_resp_sink(struct core_req *);
/*
 * The strong ETag of a body, quoted, into out: 32 hex digits of a
 * 128-bit SipHash-2-4 of the bytes under a fixed key.
 */
void core_etag(const char *body, size_t n, char out[40]);
/*
 * Marks the response as cacheable by validator: when finished, a 200
 * response gets a strong ETag computed over its body and a matching
 * If-None-Match gives 304 — for anonymous requests only; a request with
 * the session cookie gets "Cache-Control: private, no-cache" instead.
 */
void core_resp_etag(struct core_req *);
/* Sets "Link: <url>; rel=REL" (absolute urls; added, not replaced). */
void core_resp_link(struct core_req *, const char *url, const char *rel);
/* Adds "Link: <url>; rel="alternate"; type="mime"" (url absolute). */
void core_resp_alternate(struct core_req *, const char *url, const char *mime);
/*
 * core_resp_alternate() for every offer of the last negotiation but the
 * chosen one, as url?format=NAME (url&format= when url has a query).
 */
void core_resp_alternates(struct core_req *, const char *url);
/*
 * core_resp_alternate() for a feed in each format (core_feed_ext): url
 * is its address in any one of them (absolute, a query kept), and the
 * one that is the request's own path is left out, so that a feed names
 * its siblings and a page all three.  Nothing when url is no feed's.
 * A negotiated 2xx answer whose handler set no alternate gets
 * core_resp_alternates() of its own address (without format=) from
 * core_serve(): every negotiated response names the others.
 */
void core_resp_feed_alternates(struct core_req *, const char *url);
/*
 * A redirect: status (301, 302, 303, 307) and Location (absolute url
 * built from the base url when loc starts with '/').  The body is a
 * short note in the negotiated representation.
 */
void core_resp_redirect(struct core_req *, int status, const char *loc);
/*
 * Renders an error page for status with message msg in the negotiated
 * representation (module hook for HTML when it has one).
 */
void core_resp_error(struct core_req *, int status, const char *msg);

/*
 * Streamed responses (a chat answer as it grows, text/event-stream).
 * core_resp_stream_begin() sends the status and headers set so far with
 * Content-Type ctype, no Content-Length, "Cache-Control: no-store" and
 * "X-Accel-Buffering: no"; from then on the response is the handler's:
 * neither validators nor caches see it, and the body buffer is unused.
 * core_resp_stream_write() sends p[0..n) and flushes it to nginx
 * (FCGX_FFlush).  Both return CORE_OK, or CORE_EUPSTREAM once a write
 * failed (the client went away and nginx closed the connection); later
 * writes then fail at once.  CORE_EINPUT from begin when ctype holds CR
 * or LF, or when the response was already streamed.  A handler that
 * began a stream returns CORE_OK whatever happens after.
 */
enum core_err core_resp_stream_begin(struct core_req *, const char *ctype);
enum core_err core_resp_stream_write(struct core_req *, const char *p,
    size_t n);
/* Has the response been streamed (core_resp_stream_begin() ran)? */
int core_resp_streamed(const struct core_req *);

/*
 * Long bodies (an export of every paper of a list), never whole in
 * memory.  core_resp_spill() lets the response leave in pieces: each
 * core_resp_flush() then sends the body written so far once it holds
 * CORE_SPILL_MIN bytes or more, and empties it; the first piece carries
 * the status and the headers set until then, without Content-Length
 * (nginx sends the body to the client chunked), and what is left goes
 * when the handler returns.  A body that never reaches CORE_SPILL_MIN
 * is an ordinary response (Content-Length, ETag, the page cache); once
 * a piece has gone, the response has no validator and is not cached,
 * and a handler error cuts the connection (the client sees a truncated
 * transfer, never a short body that looks whole).  Flush does nothing
 * in a subrequest or a streamed response; it returns CORE_EUPSTREAM
 * once a write failed (the client went away).
 */
#define CORE_SPILL_MIN (64u * 1024)
void core_resp_spill(struct core_req *);
enum core_err core_resp_flush(struct core_req *);
/* Has a piece of the response been sent (core_resp_flush())? */
int core_resp_spilled(const struct core_req *);

/*
 * Fails the request with status (4xx, 5xx) and msg (copied): returns
 * CORE_EFAIL for the handler to return, and core renders the error page
 * as core_resp_error() does once the handler has returned:
 *	return core_req_fail(req, 400, "sort must be newest or citations");
 * A later call replaces the status and message.
 */
enum core_err core_req_fail(struct core_req *, int status, const char *msg);
/* The same with a printf-formatted message. */
enum core_err core_req_failf(struct core_req *, int status, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

/* Absolute URL for a site path: base_url + path.  Caller frees. */
char *core_abs_url(const struct core_req *, const char *path);

/*
 * Subrequests: a GET of path?query (both as a client would send them,
 * query raw) run on the module's own routes inside a request, so that a
 * second interface (the MCP server) answers with the pages' own views.
 * The subrequest shares parent's context, environment and id, but has
 * no cookies (it is anonymous) and no body; ?format= in query chooses
 * its representation.  It goes through neither cache nor validators.
 * core_req_sub_new() copies path and query; free with
 * core_req_sub_free() (NULL-safe).  core_req_sub_run() routes and runs
 * it, rendering a failure as an error page, and returns its status;
 * core_resp_body() is then its body.
 */
struct core_req *core_req_sub_new(struct core_req *parent, const char *path,
    const char *query);
int core_req_sub_run(struct core_req *);
void core_req_sub_free(struct core_req *);
/* The response's status, and a header it set (NULL when none). */
int core_resp_get_status(const struct core_req *);
const char *core_resp_get_header(const struct core_req *, const char *name);

/* ------------------------------------------------------------------ */
/* The page cache in Redis (core_serve uses it; writers bump it)       */
/* ------------------------------------------------------------------ */

/*
 * The cache key of one variant (module, path, query, Accept) under the
 * current generation, written to key.  CORE_ECACHE without Redis.
 */
enum core_err core_cache_key(struct core_ctx *, const char *path,
    const char *query, const char *accept, char *key, size_t keysz);
/*
 * The current generation (the counter core_cache_bump() increments; 0
 * before the first bump), re-read from Redis at most once a second:
 * CORE_OK and *gen, or CORE_ECACHE.  Other per-worker state that must
 * follow the data (the search index) watches it too.
 */
enum core_err core_cache_gen(struct core_redis *, long long *gen);
/* Appends the cached bytes to blob: CORE_OK, CORE_ENOTFOUND or CORE_ECACHE. */
enum core_err core_cache_get(struct core_ctx *, const char *key,
    struct core_buf *blob);
enum core_err core_cache_put(struct core_ctx *, const char *key,
    const char *blob, size_t n, long ttl);
/*
 * Single flight: 1 when this worker should render key (it holds the lock,
 * or Redis is down); 0 when another worker rendered it meanwhile (blob
 * filled) or did not in time (blob empty: render anyway).
 */
int core_cache_lock(struct core_ctx *, const char *key, struct core_buf *blob);
void core_cache_unlock(struct core_ctx *, const char *key);
/*
 * Makes every cached page stale (a new generation).  Writers call it
 * after committing; CORE_ECACHE when Redis is down (then pages expire
 * by their TTL).
 */
enum core_err core_cache_bump(struct core_redis *);

/* ------------------------------------------------------------------ */
/* Metrics (Prometheus) and operations endpoints                       */
/* ------------------------------------------------------------------ */

struct core_metrics;

enum core_metric {
	CORE_METRIC_CACHE_HIT,
	CORE_METRIC_CACHE_MISS,
	CORE_METRIC_DB_ERROR,
	CORE_METRIC_WORKER_START,
	CORE_METRIC_MAIL_CAPPED, /* a mail not sent: over the address's cap */
	CORE_METRIC_MAIL_FAILED, /* a mail not sent: the relay failed */
	CORE_METRIC_LIMITED,     /* a read refused: 429 */
	CORE_METRIC_LIMIT_OPEN,  /* a read passed unlimited: Redis down */
	CORE_METRIC_KEY_READ,    /* a read with a valid API key */
	CORE_METRIC_KEY_REFUSED, /* a read with an unknown key: 401 */
	CORE_METRIC__MAX
};

/*
 * Creates and maps <dir>/<module>.metrics, shared by the processes
 * forked afterwards.  NULL (logged) when it cannot; counting then does
 * nothing.  Mapped for the life of the process.
 */
struct core_metrics *core_metrics_open(const char *dir,
    const struct core_module *mod);
/* Counts one answered request: route index (-1: unrouted), status,
 * representation and the time it took in microseconds. */
void core_metrics_request(struct core_metrics *, int route, int status,
    enum core_rep rep, long us);
void core_metrics_count(struct core_metrics *, enum core_metric);
/* Appends the Prometheus text of every *.metrics file in dir to b. */
void core_metrics_render(struct core_buf *b, const char *dir);

/* ------------------------------------------------------------------ */
/* Fair use: read limits and API keys (limit.c)                        */
/* ------------------------------------------------------------------ */

/*
 * The rate-limit key of a client address (REMOTE_ADDR): IPv4 in dotted
 * form; IPv6 as its /64 ("2001:db8:1:2::/64"), an IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) as the IPv4 one; anything else (NULL, a unix
 * socket) as given, at most 64 bytes ("-" when NULL or empty).
 */
#define CORE_CLIENT_KEY_MAX 72
void core_client_key(const char *addr, char out[CORE_CLIENT_KEY_MAX]);

/* The limits of weft.conf: q requests per w seconds (a token bucket of
 * q refilled at q/w a second), for a client and for an API key.  A
 * read_limit of 0 or less turns the client limit off. */
struct core_limits {
	long read_limit, read_window;
	long key_limit, key_window;
};
void core_limits(const struct core_conf *, struct core_limits *);
/* 1 when client (a core_client_key) is in read_limit_exempt. */
int core_limit_exempt(const struct core_conf *, const char *client);

/* What one token bucket said (core_limit_take). */
struct core_limit_state {
	int passed;     /* 1: the request may go on */
	long quota;     /* q */
	long window;    /* w, seconds */
	long remaining; /* whole tokens left */
	long retry;     /* seconds until the next token; 0 when passed */
	long reset;     /* seconds until the bucket is full again */
};
/*
 * Takes one token from the bucket named bucket (a Redis key), of size q
 * refilled in w seconds, atomically in Redis.  CORE_OK and *st, or
 * CORE_ECACHE when Redis is down: st then says "passed" (reads pass;
 * counted and logged at most once a minute).
 */
enum core_err core_limit_take(struct core_ctx *, const char *bucket, long q,
    long w, struct core_limit_state *st);

/*
 * The token of an Authorization header into tok (toksz bytes): 1 for
 * "Bearer TOKEN" (scheme in any case, token68 characters), 0 when authz
 * is NULL, -1 for anything else (another scheme, a malformed token).
 */
int core_bearer_parse(const char *authz, char *tok, size_t toksz);
/*
 * The lower-case hex of BLAKE2b-(8 * hlen) (libsodium's
 * crypto_generichash, no key) of data[0..len) into hex, 2 * hlen + 1
 * bytes; hlen is 16 to 64.
 */
void core_hash_hex(const void *data, size_t len, size_t hlen, char *hex);
/* The stored form of an API key: hex of BLAKE2b-256 of the secret. */
void core_key_hash(const char *secret, char hex[65]);
/*
 * The id of the live API key secret (Redis for a minute, else the
 * database's weft_api_key()): CORE_OK and *id (0: unknown or revoked),
 * or CORE_EDB (logged).  Revoking deletes weft:apikey:<hash>.
 */
enum core_err core_key_lookup(struct core_ctx *, const char *secret,
    long long *id);

/*
 * Fair use for one read, once per request (later calls return the first
 * answer): a request with "Authorization: Bearer KEY" is counted against
 * its key (401 with WWW-Authenticate when the key is unknown or revoked,
 * or the header malformed), any other against its client address.
 * CORE_OK: go on; CORE_EFAIL: 401 or 429 recorded with Retry-After,
 * RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-
 * headers-10), for the handler to return; CORE_EDB: a key could not be
 * checked.  core_serve() calls it before the handler of every GET and
 * HEAD of a module with limit_reads; a module calls it itself for other
 * reads (a POST to /mcp).
 */
enum core_err core_req_limit(struct core_req *);
/* The API key id of the request after core_req_limit(), 0: none. */
long long core_req_key(const struct core_req *);
/*
 * Appends the markdown section "Fair use and API keys" (the limits of
 * c, links under base): the one text /developers, llms.txt and
 * llms-full.txt show, so that they cannot disagree.
 */
void core_limits_md(struct core_buf *, const struct core_conf *c,
    const char *base);

/* ------------------------------------------------------------------ */
/* Modules                                                             */
/* ------------------------------------------------------------------ */

/*
 * One line of the markdown 404's "Where to look next": "- label: URL",
 * the URL being the site's base url and path (which may show a
 * {placeholder}).  Lists end with a NULL label.
 */
struct core_hint {
	const char *label;
	const char *path;
};
/* The site's entry points (papers, researchers, institutions, search,
 * the sitemap, llms.txt), for modules to register as their 404 hints. */
extern const struct core_hint core_site_hints[];

/*
 * What a plugin exports as the symbol "weft_module".  The host calls
 * init once per worker process after connecting to PostgreSQL (with the
 * module's statements prepared) and Redis.
 */
struct core_module {
	const char *name;
	const struct core_route *routes; /* ends with a NULL pattern */
	const struct core_stmt *stmts;
	size_t nstmts;
	enum core_err (*init)(struct core_ctx *);
	void (*fini)(struct core_ctx *);
	/* Optional: HTML for error pages (404 etc.); NULL for the plain one */
	void (*html_error)(struct core_req *, int status, const char *msg);
	/* Optional: where the markdown 404 tells an agent to look next */
	const struct core_hint *hints;
	/*
	 * Optional, NULL-terminated: path prefixes ("/rss/feed/") whose
	 * rest is a secret, logged as the prefix and "[token]".
	 */
	const char *const *secret_paths;
	/* 1: core_serve() applies core_req_limit() to every GET and HEAD
	 * that reaches the handler (not to pages served from the cache). */
	int limit_reads;
	/*
	 * Optional: "weftd -m MOD -x ARGS..." runs this once, after init,
	 * instead of serving (a timer's job, such as the accounts module's
	 * digests); its result is weftd's exit status.
	 */
	int (*command)(struct core_ctx *, int argc, char **argv);
	/*
	 * The size of the module's process state: weftd allocates it zeroed
	 * as ctx->mod_state before init and frees it after fini, which it
	 * calls after a failed init too (so fini must accept a state that
	 * init left half built, and init just returns its error).
	 */
	size_t state_size;
};

/*
 * The fields every plugin declares alike, first in its weft_module: the
 * name mod, the statements sql/stmts.awk generates from
 * sql/queries/mod.sql (mod_sql, MOD_SQL__MAX), the file's routes, init
 * and fini, and its state, a struct type:
 *
 *	const struct core_module weft_module = {
 *		CORE_MODULE(feeds, FEEDS, struct feeds_state),
 *		.hints = core_site_hints,
 *	};
 */
#define CORE_MODULE(mod, MOD, state)                                           \
	.name = #mod, .routes = routes, .stmts = mod##_sql,                    \
	.nstmts = MOD##_SQL__MAX, .init = init, .fini = fini,                  \
	.state_size = sizeof(state)

/*
 * Serves one FastCGI request (called by weftd's workers): parses and
 * validates the request, routes it, runs the handler, renders errors,
 * applies ETag/304 and HEAD, writes the response and logs it.  fcgi is a
 * FCGX_Request * (void here so that this header needs no fcgiapp.h).
 */
void core_serve(struct core_ctx *, void *fcgi);

/* ------------------------------------------------------------------ */
/* Command lines: a table of subcommands, one options parser (cli.c)   */
/* ------------------------------------------------------------------ */

/* Exit status of the command-line programs (weft-harvest, weft-vectors). */
enum core_exit {
	CORE_EXIT_OK = 0,
	CORE_EXIT_FAIL = 1,
	CORE_EXIT_USAGE = 2,
	CORE_EXIT__MAX
};

/* What an option's value is, and what it sets in the command's struct. */
enum core_opt_type {
	CORE_OPT_FLAG,  /* no value; sets an int to 1 */
	CORE_OPT_STR,   /* any string; sets a const char * (borrowed argv) */
	CORE_OPT_COUNT, /* decimal digits, 0 or more; sets a size_t */
	CORE_OPT_POS,   /* decimal digits, above 0; sets a size_t */
	CORE_OPT__MAX
};

/*
 * One option of a command: "--name VALUE" or "--name=VALUE" (a flag is
 * just "--name").  off is offsetof() its field in the command's struct.
 * choices (STR only): the values allowed, NULL-terminated, or NULL for
 * any.  arg names the value in the usage ("N"); help is one line.
 */
struct core_opt {
	const char *name;
	enum core_opt_type type;
	size_t off;
	const char *arg;
	const char *const *choices;
	const char *help;
};

/*
 * One subcommand.  name is one word or two ("arxiv oai": a group of
 * commands sharing the first word).  The options (a table ending with a
 * NULL name, or NULL) fill a struct of args_size bytes that starts as a
 * copy of args_init (zeros when NULL).  The operands (other words, in
 * order) are counted on their synopsis: a word is one, "[WORD]" may be
 * left out, "WORD..." may repeat (up to max_args when not 0).  run gets the
 * loaded configuration, that struct and the operands, and returns a
 * core_exit; for CORE_EXIT_USAGE (run printed why) the command's usage
 * follows on stderr.  A command without operands may set run_opts
 * instead: the same without the operands it never has.
 */
struct core_cmd {
	const char *name;
	const struct core_opt *opts;
	size_t args_size;
	const void *args_init;
	const char *operands; /* their synopsis: "[FILE...]", or NULL */
	int max_args;         /* 0: as operands says */
	const char *summary;  /* for the list of commands; may hold '\n' */
	const char *help;     /* paragraphs for COMMAND --help, or NULL */
	int (*run)(const struct core_conf *, void *args, int argc, char **argv);
	int (*run_opts)(const struct core_conf *, void *args);
};

/* A command's args_size and args_init, for a struct that starts as init. */
#define CORE_CMD_ARGS(init) .args_size = sizeof(init), .args_init = &(init)

/*
 * A program: its name, its commands and closing text.  The commands come
 * in tables (each ending with a NULL name), listed NULL-terminated, in
 * the order of the usage: a source file keeps its commands together.
 */
struct core_cli {
	const char *prog;
	const struct core_cmd *const *tables;
	const char *footer;   /* after the options of the main usage, or NULL */
	const char *log_name; /* for core_log_setname(), or NULL */
};

/*
 * A parsed command line.  Every program takes "-c FILE" / "--config
 * FILE" and "-h" / "--help" before or after the command; a command's
 * options come after its name; "--" ends the options.
 */
struct core_cli_args {
	const struct core_cmd *cmd; /* NULL: none (or not all of it) named */
	const char *group;          /* "arxiv" alone: the group named */
	const char *conf;           /* -c FILE, or NULL */
	int help;                   /* -h seen (parsing stopped there) */
	void *args;                 /* cmd's struct (owned) */
	int argc;                   /* the operands */
	char **argv;                /* owned array of borrowed strings */
};

/*
 * Parses argv[1..argc).  CORE_OK, or CORE_EINPUT with err set to one
 * line ("weft-harvest: missing value for --data"); either way *a holds
 * what was found (cmd and group say which usage fits) and is freed with
 * core_cli_args_free().
 */
enum core_err core_cli_parse(const struct core_cli *, int argc, char **argv,
    struct core_cli_args *a, struct core_buf *err);
void core_cli_args_free(struct core_cli_args *);
/*
 * Appends the usage generated from the table: of cmd when not NULL, else
 * of the commands of group when not NULL, else the program's.
 */
void core_cli_usage(const struct core_cli *, const struct core_cmd *cmd,
    const char *group, struct core_buf *out);
/*
 * The whole of a program's main(): names its log lines (log_name, when
 * set), parses, answers --help (stdout, 0) and usage errors (stderr, 2),
 * loads the configuration with core_conf_start() (1 when it fails), runs
 * the command and returns its exit status.
 */
int core_cli_main(const struct core_cli *, int argc, char **argv);

/* ------------------------------------------------------------------ */
/* Paper types (ptype.c): papers.paper_type, weft-harvest analyse      */
/* ------------------------------------------------------------------ */

/* The stored values, in this order, NULL-terminated: "empirical",
 * "method", "system", "benchmark", "survey", "theory", "position". */
extern const char *const core_paper_types[];
/* The readable label of a stored value ("benchmark" -> "benchmark /
 * dataset", "empirical" -> "empirical study"), or NULL when s is not
 * one; static storage. */
const char *core_paper_type_label(const char *s);

/* ------------------------------------------------------------------ */
/* Union-find (uf.c)                                                   */
/* ------------------------------------------------------------------ */

/*
 * Sets over items 0..n-1 in a parent array the caller keeps beside them:
 * core_uf_init() makes each item its own set; core_uf_find() returns the
 * root of i's set (and shortens the path); core_uf_join() joins the sets
 * of a and b under the lesser of their roots, and returns it.  A caller
 * that picks the root itself sets p[root_b] = root_a.
 */
void core_uf_init(size_t *p, size_t n);
size_t core_uf_find(size_t *p, size_t i);
size_t core_uf_join(size_t *p, size_t a, size_t b);

#endif /* CORE_H */
