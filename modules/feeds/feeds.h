/*
 * feeds.h -- the feeds module's private header: one section per file.
 *
 * feeds.so serves what programs read rather than people: RSS 2.0 feeds
 * (rss.c), the sitemap index and its chunks (sitemap.c), and the
 * machine-readable guidance robots.txt, llms.txt and openapi.json
 * (guide.c).  store.c is the only file that talks to PostgreSQL;
 * path.c is pure and unit-tested.  Dates are core's (core_http_date()).
 */
#ifndef FEEDS_H
#define FEEDS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core.h"

/* Items in every RSS feed: the newest 50. */
#define FEEDS_RSS_ITEMS 50
/* URLs in a sitemap chunk (sitemaps.org allows at most 50,000). */
#define FEEDS_SITEMAP_URLS 50000
/* Ids a row of sitemap_blocks covers (0045): a chunk is whole blocks. */
#define FEEDS_SITEMAP_BLOCK 1000
/* Rows fetched from PostgreSQL at a time while writing a chunk. */
#define FEEDS_SITEMAP_BATCH 5000
/*
 * The longest <loc> written.  A <url> entry is at most about 70 bytes
 * plus its location, so 50,000 entries stay under the protocol's
 * 50 MiB (52,428,800 bytes) by construction.
 */
#define FEEDS_SITEMAP_LOC_MAX 950

/* The documents guide.c builds once and serves from memory. */
enum feeds_doc {
	FEEDS_DOC_ROBOTS,    /* robots.txt */
	FEEDS_DOC_LLMS,      /* llms.txt */
	FEEDS_DOC_LLMS_FULL, /* llms-full.txt */
	FEEDS_DOC_OPENAPI,   /* openapi.json with servers[0].url filled in */
	FEEDS_DOC__MAX
};

/* Process state, in ctx->mod_state (built once by init). */
struct feeds_state {
	char *doc[FEEDS_DOC__MAX]; /* owned, freed by feeds_guide_free() */
	char *content_dir;         /* the static pages' markdown, for lastmod */
};

/* ------------------------------------------------------------------ */
/* path.c: checks on what comes in a feed URL                          */
/* ------------------------------------------------------------------ */

/*
 * Splits "NAME.xml" (a route's rest): 0 and *n the length of NAME
 * (which may be 0), or -1 when the rest does not end in ".xml".
 */
int feeds_strip_xml(const char *rest, size_t *n);
/* 1 when s looks like a private feed token: [A-Za-z0-9_-]{16,128}. */
int feeds_token_ok(const char *s, size_t n);
/* The lower-case hex BLAKE2b-256 of s[0..n) (libsodium's
 * crypto_generichash, no key), as stored in feed_tokens.token_hash. */
void feeds_token_hash(const char *s, size_t n, char out[65]);

/* ------------------------------------------------------------------ */
/* rss.c                                                               */
/* ------------------------------------------------------------------ */

/* One item of a feed: a paper.  Strings and json are owned. */
struct feeds_item {
	char *arxiv_id;
	char *title;
	char *slug;
	char *abstract;
	json_t *authors;    /* array of strings, in order */
	json_t *categories; /* array of strings, primary first */
	int64_t published;  /* -1: unknown */
	int64_t modified;
	int version;          /* 0: the paper; n >= 2: "vn replaced vn-1" */
	int64_t version_date; /* that version's date (epoch) */
	/* The private feed's (issue 21): why the item is there ("new paper
	 * by X"; NULL elsewhere). */
	char *why;
};

/* A feed: the channel and its items, newest first. */
struct feeds_feed {
	char *title;
	char *link; /* absolute */
	char *description;
	char *self;       /* absolute URL of the feed itself */
	int64_t modified; /* newest change of the channel or an item */
	struct feeds_item *items;
	size_t nitems;
	enum core_feed_fmt fmt; /* the format written (0: RSS) */
	struct core_pool pool;  /* owns title, link, description, self */
};

void feeds_feed_free(struct feeds_feed *);
/*
 * Writes f as an RSS 2.0 document to sink; base is the site's base URL
 * (for item links).  Returns the XML writer's sticky error.
 */
enum core_err feeds_rss_render(struct core_sink sink, const char *base,
    const struct feeds_feed *f);
/* The same in f->fmt (RSS, Atom or JSON Feed: core_feed_render()). */
enum core_err feeds_render(struct core_sink sink, const char *base,
    const struct feeds_feed *f);

enum core_err feeds_rss_latest(struct core_req *);
enum core_err feeds_rss_category(struct core_req *);
enum core_err feeds_rss_researcher(struct core_req *);
enum core_err feeds_rss_institution(struct core_req *);
enum core_err feeds_rss_private(struct core_req *);

/* ------------------------------------------------------------------ */
/* sitemap.c                                                           */
/* ------------------------------------------------------------------ */

/* What a sitemap chunk lists. */
enum feeds_kind {
	FEEDS_KIND_PAPERS,
	FEEDS_KIND_RESEARCHERS,
	FEEDS_KIND_INSTITUTIONS,
	FEEDS_KIND_STATIC,
	FEEDS_KIND__MAX
};
extern const char *const feeds_kind_name[FEEDS_KIND__MAX];

/*
 * Parses "{kind}-{n}.xml" (n from 1, no leading zero): 0, or -1 when
 * rest is not one.
 */
int feeds_sitemap_name_parse(const char *rest, enum feeds_kind *kind,
    long long *n);

enum core_err feeds_sitemap_index(struct core_req *);
enum core_err feeds_sitemap_chunk(struct core_req *);

/* ------------------------------------------------------------------ */
/* guide.c: robots.txt, llms.txt, openapi.json                         */
/* ------------------------------------------------------------------ */

/* openapi.json as shipped (modules/feeds/openapi.json, compiled in). */
extern const unsigned char feeds_openapi_json[];
extern const size_t feeds_openapi_json_len;

/*
 * Builds the three documents for the site at base into st (whose
 * strings the caller frees with feeds_guide_free()).  CORE_EINPUT
 * (logged) if the shipped openapi.json does not parse.
 */
enum core_err feeds_guide_build(struct feeds_state *st, const char *base,
    const struct core_conf *conf);
void feeds_guide_free(struct feeds_state *st);

/* Serves the document whose path the request has (robots.txt, llms.txt,
 * llms-full.txt, openapi.json). */
enum core_err feeds_guide(struct core_req *);

/* ------------------------------------------------------------------ */
/* respond.c: validators shared by every handler                       */
/* ------------------------------------------------------------------ */

/*
 * Finishes a response whose body is already written: Content-Type rep,
 * Cache-Control cc (NULL: core's default), the ETag, and when modified
 * >= 0 Last-Modified.  Core answers If-None-Match and If-Modified-Since
 * with a 304 (core_resp_etag()).
 */
void feeds_finish(struct core_req *r, enum core_rep rep, const char *cc,
    int64_t modified);

/* ------------------------------------------------------------------ */
/* store.c                                                             */
/* ------------------------------------------------------------------ */

/* The channel subject of a feed: a researcher or an institution (the
 * caller frees name and slug). */
struct feeds_subject {
	char *name;
	char *slug;
	int64_t modified;
};

/*
 * Each loads up to limit items (the latest: FEEDS_RSS_ITEMS), newest
 * first, into *items / *n (the caller frees each with feeds_feed_free()
 * through a feed, or with feeds_items_free()).  CORE_EDB (logged) on
 * failure.
 */
enum core_err feeds_load_latest(struct core_db *, struct feeds_item **items,
    size_t *n);
enum core_err feeds_load_category(struct core_db *, const char *cat, int limit,
    struct feeds_item **items, size_t *n);
enum core_err feeds_load_researcher(struct core_db *, long long id, int limit,
    struct feeds_item **items, size_t *n);
enum core_err feeds_load_institution(struct core_db *, long long id, int limit,
    struct feeds_item **items, size_t *n);
enum core_err feeds_load_user(struct core_db *, const char *user_id, int limit,
    struct feeds_item **items, size_t *n);
void feeds_items_free(struct feeds_item *items, size_t n);

/* Which papers' new versions a feed carries. */
enum feeds_versions {
	FEEDS_VERSIONS_LATEST,     /* every paper (arg NULL) */
	FEEDS_VERSIONS_CATEGORY,   /* arg: the category */
	FEEDS_VERSIONS_RESEARCHER, /* arg: the researcher's id */
	FEEDS_VERSIONS__MAX
};
/*
 * Loads the newest version items (a paper's versions 2 and later, each
 * one item) of kind, merges them by date into *items / *n (newest
 * first; a paper dates from its publication, a version from its own
 * date) and keeps the first limit.  *items is replaced (the old array is
 * freed).  CORE_EDB (logged) on failure, *items then unchanged.
 */
enum core_err feeds_add_versions(struct core_db *, enum feeds_versions kind,
    const char *arg, int limit, struct feeds_item **items, size_t *n);

/* A researcher / institution by id: CORE_ENOTFOUND when none. */
enum core_err feeds_load_researcher_subject(struct core_db *, long long id,
    struct feeds_subject *s);
enum core_err feeds_load_institution_subject(struct core_db *, long long id,
    struct feeds_subject *s);
/*
 * The user whose private feed token hashes to hash (hex): CORE_OK and
 * *user_id (caller frees) or CORE_ENOTFOUND.
 */
enum core_err feeds_load_token_user(struct core_db *, const char *hash,
    char **user_id);

/* One sitemap chunk entry (lastmod -1: none); borrowed for the call. */
typedef void (*feeds_url_cb)(void *arg, const char *path, int64_t lastmod);

/*
 * Calls cb for every URL of chunk n (1-based) of kind, in id order,
 * fetching FEEDS_SITEMAP_BATCH rows at a time (keyset pagination over
 * the id range of the chunk), so memory stays constant whatever the
 * chunk size.  *count gets the number of URLs.  CORE_EDB on failure.
 */
enum core_err feeds_store_chunk(struct core_db *, enum feeds_kind kind,
    long long n, long long per_chunk, feeds_url_cb cb, void *arg,
    size_t *count);
/* One line of the sitemap index: a chunk and its newest change. */
typedef void (*feeds_chunk_cb)(void *arg, enum feeds_kind kind, long long n,
    int64_t lastmod);
/* Calls cb for every non-empty chunk of kind (not FEEDS_KIND_STATIC). */
enum core_err feeds_store_chunks(struct core_db *, enum feeds_kind kind,
    long long per_chunk, feeds_chunk_cb cb, void *arg);
/* The newest change of papers, researchers and institutions (-1 when
 * the table is empty), for the static chunk. */
enum core_err feeds_store_newest(struct core_db *, int64_t out[3]);

#endif /* FEEDS_H */
