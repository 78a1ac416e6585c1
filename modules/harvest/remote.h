/*
 * remote.h -- weft-harvest's remote sources: the HTTP client (http.c),
 * the parsers of what arXiv, OpenAlex and Semantic Scholar answer
 * (oai.c, atom.c, openalex.c, s2.c, with xmlin.c shared by the XML ones)
 * and the harvesters, the subcommands that fetch and store (fetch.c,
 * enrich.c, with run.c under both).
 *
 * The parsers are pure: bytes in, a struct holding jansson values out,
 * no network and no database, so that unit tests and fuzzers run them on
 * recorded responses.  A malformed response is an error for the whole
 * response: the caller writes nothing of it.
 */
#ifndef HARVEST_REMOTE_H
#define HARVEST_REMOTE_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>
#include <libxml/tree.h>

#include "harvest.h"

struct core_conf;
struct core_buf;

/* Caps on what one response may hold; beyond them it is refused. */
#define HARVEST_MAX_ITEMS   2000 /* records/entries/results a response */
#define HARVEST_MAX_AUTHORS 5000 /* authors of one paper */
#define HARVEST_WHY_LEN     256

/* ------------------------------------------------------------------ */
/* http.c: libcurl with timeouts, size cap, retries, politeness        */
/* ------------------------------------------------------------------ */

/* The sources: each has its base URL, wait and credentials in conf. */
enum harvest_src {
	HARVEST_SRC_OAI,      /* arxiv_oai_url */
	HARVEST_SRC_ARXIV,    /* arxiv_api_url */
	HARVEST_SRC_OPENALEX, /* openalex_url */
	HARVEST_SRC_S2,       /* s2_url */
	HARVEST_SRC__MAX
};

/* "arxiv-oai", "arxiv-api", "openalex", "s2": the harvest_cursors key. */
extern const char *const harvest_src_name[HARVEST_SRC__MAX];

struct harvest_http;

/*
 * A client for source src, configured from conf (see http.c for the
 * keys and their defaults; timeouts and waits are in milliseconds).
 * Never NULL; free with harvest_http_free().  The base URL (without a
 * trailing '/') is harvest_http_base().
 */
struct harvest_http *harvest_http_new(const struct core_conf *conf,
    enum harvest_src src);
void harvest_http_free(struct harvest_http *);
/* Borrowed, valid until the client is freed. */
const char *harvest_http_base(const struct harvest_http *);

/*
 * One request: GET url, or POST with the JSON body post when post is
 * not NULL.  The source's public query parameters (OpenAlex mailto) and
 * its secrets (OpenAlex api_key, the S2 x-api-key header) are added
 * here and never logged.  Waits the source's delay since the previous
 * request; retries 429, 5xx, timeouts and failed connections with
 * exponential backoff and jitter, or after Retry-After (seconds or an
 * HTTP date), never waiting more than the configured maximum.
 *
 * The response body goes to body (reset first) and the final status to
 * *status (0 when no response arrived).  CORE_OK for a 2xx status;
 * otherwise CORE_EUPSTREAM, and harvest_http_error() says why in one
 * line (also logged) -- the body of a 4xx is kept for callers that can
 * read an error document from it.
 */
enum core_err harvest_http_fetch(struct harvest_http *, const char *url,
    const char *post, struct core_buf *body, long *status);
/* The last failure's message, "" after a success.  Borrowed. */
const char *harvest_http_error(const struct harvest_http *);
/* Requests and retries made so far. */
long harvest_http_requests(const struct harvest_http *);
long harvest_http_retries(const struct harvest_http *);

/*
 * The wait before retry number attempt (0 for the first retry): base
 * doubled per attempt, a random part ("equal jitter": between half and
 * all of it, from r in [0,1)), at most cap.  retry_after (seconds, -1:
 * none) takes precedence, also capped.  Milliseconds.  Pure, for tests.
 */
long harvest_backoff_ms(int attempt, long base, long cap, long retry_after,
    double r);

/* ------------------------------------------------------------------ */
/* The paper object every arXiv parser yields                           */
/* ------------------------------------------------------------------ */

/*
 * A paper is a JSON object:
 *   "arxiv_id"    canonical id without version ("2512.20345",
 *                 "math.GT/0309136")
 *   "version"     latest version known (integer, 0: unknown)
 *   "title", "abstract"   white space squashed, never null
 *   "comment", "doi", "journal_ref", "license"   string or null
 *   "categories"  array of strings, primary first (never empty)
 *   "primary"     primary category
 *   "published"   "YYYY-MM-DD" (first version) or null
 *   "updated"     "YYYY-MM-DD" (latest version) or null
 *   "versions"    [{"version":1,"date":"YYYY-MM-DD"}, ...] as known
 *   "authors"     [{"name":"First Last","affiliations":["..."]}, ...]
 *   "source"      "arxiv-oai", "arxiv-oai-dc" or "arxiv-api"
 */

/* One page of an arXiv feed (OAI-PMH or the Atom API). */
struct harvest_page {
	json_t *papers;  /* array of paper objects; never NULL after parse */
	json_t *deleted; /* array of arXiv ids (OAI deleted records) */
	/* OAI-PMH */
	char *token;   /* resumptionToken, NULL or "" on the last page */
	long cursor;   /* -1 when not given */
	long complete; /* completeListSize, -1 when not given */
	int no_match;  /* the noRecordsMatch error: an empty result */
	/* Atom (opensearch) */
	long total, start, per_page; /* -1 when not given */
};

void harvest_page_free(struct harvest_page *);

/* ------------------------------------------------------------------ */
/* xmlin.c: hostile XML in                                             */
/* ------------------------------------------------------------------ */

/*
 * The checks before libxml2 sees a response: not empty, no NUL, no
 * DOCTYPE (so no DTD and no entity can be declared), and not an HTML
 * page.  0 when it may be parsed; -1 with why filled otherwise.
 */
int harvest_xml_precheck(const char *p, size_t n, char why[HARVEST_WHY_LEN]);

/*
 * Prechecks and parses p[0..n) with XML_PARSE_NONET, no entity
 * substitution and no DTD loading; a document with an internal subset
 * is refused too.  NULL with why filled on failure ("not well-formed
 * XML at line 12: ..." for a truncated response).  Caller frees the
 * document with xmlFreeDoc().
 */
xmlDoc *harvest_xml_read(const char *p, size_t n, char why[HARVEST_WHY_LEN]);

/* Namespaces of the feeds. */
#define HARVEST_NS_OAI      "http://www.openarchives.org/OAI/2.0/"
#define HARVEST_NS_ARXIV    "http://arxiv.org/OAI/arXiv/"
#define HARVEST_NS_OAI_DC   "http://www.openarchives.org/OAI/2.0/oai_dc/"
#define HARVEST_NS_DC       "http://purl.org/dc/elements/1.1/"
#define HARVEST_NS_ATOM     "http://www.w3.org/2005/Atom"
#define HARVEST_NS_OSEARCH  "http://a9.com/-/spec/opensearch/1.1/"
#define HARVEST_NS_ARXIVAPI "http://arxiv.org/schemas/atom"
#define HARVEST_NS_ARXIVRAW "http://arxiv.org/OAI/arXivRaw/"

/* 1 when n is an element named name in namespace ns (NULL: any). */
int harvest_xml_is(const xmlNode *n, const char *ns, const char *name);
/* The first element child of parent so named, or NULL. */
xmlNode *harvest_xml_child(const xmlNode *parent, const char *ns,
    const char *name);
/* The next element sibling after n so named, or NULL. */
xmlNode *harvest_xml_next(const xmlNode *n, const char *ns, const char *name);
/*
 * n's text content with white space trimmed and inner runs squashed to
 * one space; "" for an empty element, NULL when n is NULL.  Caller frees
 * with free().
 */
char *harvest_xml_text(const xmlNode *n);
/* The same without squashing: an abstract keeps its line breaks (arXiv's
 * hard wrapping and its paragraphs, lines that begin with two spaces),
 * as the bulk loader keeps them); only the ends are trimmed. */
char *harvest_xml_text_raw(const xmlNode *n);
/* An attribute's value (caller frees with free()), or NULL. */
char *harvest_xml_attr(const xmlNode *n, const char *name);

/*
 * The date part of "YYYY-MM-DD..." into out[11] after checking it is a
 * real calendar date; 0 on success, -1 otherwise.
 */
int harvest_date10(const char *s, char out[11]);
/*
 * Appends {"name": name, "affiliations": [...]} to auth, the
 * affiliations being the texts of a's ns:affiliation children (at most
 * 16, empty ones dropped); nothing when name is NULL or "".  -1 with why
 * filled ("ID: more than 5000 authors") when auth is already full.
 */
int harvest_author_add(json_t *auth, const xmlNode *a, const char *ns,
    const char *name, const char *id, char why[HARVEST_WHY_LEN]);
/*
 * Starts parsing a page: *pg emptied (counts -1, empty paper and deleted
 * arrays), p[0..n) read as harvest_xml_read() does and its root checked
 * to be ns:root.  The document, or NULL with why filled ("not an Atom
 * feed (root <html>)" with what "an Atom feed").  Either way the parse
 * ends with harvest_page_end().
 */
xmlDoc *harvest_page_read(const char *p, size_t n, struct harvest_page *pg,
    const char *ns, const char *root, const char *what,
    char why[HARVEST_WHY_LEN]);
/*
 * Ends a parse begun by harvest_page_read(): frees doc (NULL too) and,
 * unless er is CORE_OK, empties *pg, which then holds nothing.  Returns
 * er.
 */
enum core_err harvest_page_end(xmlDoc *doc, struct harvest_page *pg,
    enum core_err er);
/*
 * Calls fn for each ns:name child of parent, in order, stopping at the
 * first that fails (its error, why filled by fn) or past
 * HARVEST_MAX_ITEMS of them ("more than 50000 entries" with what
 * "entries").
 */
enum core_err harvest_page_each(const xmlNode *parent, const char *ns,
    const char *name, const char *what, struct harvest_page *pg,
    enum core_err (
	*fn)(const xmlNode *, struct harvest_page *, char[HARVEST_WHY_LEN]),
    char why[HARVEST_WHY_LEN]);
/*
 * s (which may be NULL) as a count: a non-negative decimal integer and
 * nothing else, -1 otherwise.  Takes ownership of s and frees it.
 */
long harvest_count_take(char *s);
/* Title, abstract, categories and primary of metadata m in namespace ns
 * (oai.c); -1 with why set when the title or the categories are missing. */
int harvest_oai_text(const xmlNode *m, const char *ns, const char *id,
    json_t *o, char why[HARVEST_WHY_LEN]);
/* comment, journal_ref, doi and license of metadata m in namespace ns,
 * each null when absent (oai.c; the arXiv and arXivRaw formats). */
void harvest_oai_notes(const xmlNode *m, const char *ns, json_t *o);
/* Sets o's key to s (cleaned), or to null when s is NULL or "" (oai.c). */
void harvest_put_str(json_t *o, const char *key, const char *s);
/* Squashes white space in place (as harvest_xml_text()); returns s. */
char *harvest_squash_ws(char *s);

/* ------------------------------------------------------------------ */
/* oai.c: OAI-PMH ListRecords (metadataPrefix arXiv, or oai_dc)        */
/* ------------------------------------------------------------------ */

/*
 * Parses one ListRecords response.  On CORE_OK *pg is filled (free with
 * harvest_page_free()); the noRecordsMatch error is an empty page with
 * no_match set.  CORE_EUPSTREAM for an OAI error (badResumptionToken,
 * badArgument, ...) and CORE_EINPUT for anything malformed (not XML, a
 * DOCTYPE, an HTML page, a record without an id or title, too many
 * records); why says which and *pg holds nothing.
 */
enum core_err harvest_oai_parse(const char *p, size_t n,
    struct harvest_page *pg, char why[HARVEST_WHY_LEN]);

/* ------------------------------------------------------------------ */
/* arxivraw.c: the OAI-PMH arXivRaw format                             */
/* ------------------------------------------------------------------ */

/*
 * One <arXivRaw> element m into the paper object o (see above; the
 * caller adds "source"), every version with its date and, where
 * given, its "size" ("609kb"), "submitter" (string or null), the MSC
 * and ACM classes appended to "categories" (the harvester moves them to
 * the class codes).  CORE_EINPUT with why for a bad id, no title, no
 * categories, a version without a number or a date, or too many
 * authors.
 */
enum core_err harvest_arxivraw_meta(const xmlNode *m, json_t *o,
    char why[HARVEST_WHY_LEN]);
/*
 * arXiv's authors line ("A. One, B. Two (MIT) and C. Three (1, 2)
 * ((1) CERN, (2) DESY)") as [{"name": "A. One", "affiliations": []},
 * ...]: split at ',', ';' and "and" outside parentheses, a
 * parenthesised group is an affiliation, numbered references resolve
 * through the numbered list; "et al." is dropped.  At most one author
 * past HARVEST_MAX_AUTHORS.  s may be NULL (an empty array).  Caller
 * owns the result.
 */
json_t *harvest_arxivraw_authors(const char *s);

/* ------------------------------------------------------------------ */
/* atom.c: the arXiv API (Atom 1.0 + opensearch + arxiv namespaces)     */
/* ------------------------------------------------------------------ */

/*
 * Parses one API response (the 2016 and the 2025+ formats).  Same
 * contract as harvest_oai_parse(); the API's error entry (an entry whose
 * id is under http://arxiv.org/api/errors) is CORE_EUPSTREAM with its
 * summary in why.
 */
enum core_err harvest_atom_parse(const char *p, size_t n,
    struct harvest_page *pg, char why[HARVEST_WHY_LEN]);

/* ------------------------------------------------------------------ */
/* openalex.c: OpenAlex lists and entities                             */
/* ------------------------------------------------------------------ */

/*
 * An OpenAlex response: results holds the list's results, or the one
 * entity of a single-entity response.  Entities are checked for the
 * types of the fields we use ("id" a string starting with
 * https://openalex.org/, numbers numbers, ...) and kept as the JSON
 * objects they are, in the parsed response that doc holds.
 */
struct harvest_oa_list {
	json_t *results;         /* array of objects */
	long count;              /* meta.count, -1 when absent */
	const char *next_cursor; /* meta.next_cursor; NULL: no more pages */
	json_t *doc;             /* owns results and next_cursor */
};

/*
 * Parses a list response ({"meta":…,"results":[…]}) or, when entity is
 * set, one entity.  CORE_EINPUT with why for anything of the wrong
 * shape; *l then holds nothing.  Free with harvest_oa_list_free().
 */
enum core_err harvest_oa_parse(const char *p, size_t n, int entity,
    struct harvest_oa_list *l, char why[HARVEST_WHY_LEN]);
void harvest_oa_list_free(struct harvest_oa_list *);
/*
 * Checks that every result of l is of the kind asked for, by its id's
 * letter ('W' works, 'A' authors, 'I' institutions): an answer of
 * institutions where works were asked is wrong as a whole.  0 when all
 * are; -1 with why naming the first that is not.
 */
int harvest_oa_check_kind(const struct harvest_oa_list *l, char kind,
    char why[HARVEST_WHY_LEN]);

/* The short id of an OpenAlex URL id: "https://openalex.org/A123" ->
 * "A123"; NULL when it is not one.  Borrowed from s. */
const char *harvest_oa_short(const char *s);
/*
 * The arXiv id of a work: from ids.doi / doi "https://doi.org/10.48550/
 * arxiv.2108.04680" (case-insensitive) into out.  0 on success, -1 when
 * the work has no arXiv DOI.
 */
int harvest_oa_work_arxiv(const json_t *work, char out[48]);
/*
 * The arXiv id of a work hosted on arXiv: the first of primary_location,
 * locations[] whose landing_page_url or pdf_url is an arxiv.org abs or
 * pdf URL (the journal version of a paper carries its preprint there;
 * so does the DataCite stub).  0 on success, -1 when none is.
 */
int harvest_oa_work_arxiv_loc(const json_t *work, char out[48]);

/* ------------------------------------------------------------------ */
/* s2.c: Semantic Scholar Graph API batch responses                    */
/* ------------------------------------------------------------------ */

/* One result of a batch, in request order; found 0 for a null. */
struct harvest_s2_item {
	int found;
	char *id;         /* paperId or authorId */
	char *arxiv;      /* externalIds.ArXiv (papers), or NULL */
	char *name;       /* authors */
	long citations;   /* citationCount, -1: absent */
	long h_index;     /* hIndex (authors), -1: absent */
	long paper_count; /* paperCount (authors), -1: absent */
};

struct harvest_s2_batch {
	struct harvest_s2_item *v;
	size_t n;
};

/*
 * Parses a POST /graph/v1/{paper,author}/batch response: an array with
 * one object or null per requested id.  want is the number of ids sent:
 * a different length is an error (results are matched by position).
 * authors selects the author fields.  CORE_EINPUT with why otherwise; an
 * error object ({"error": ...} or {"message": ...}) is CORE_EUPSTREAM.
 */
enum core_err harvest_s2_parse(const char *p, size_t n, size_t want,
    int authors, struct harvest_s2_batch *b, char why[HARVEST_WHY_LEN]);
void harvest_s2_batch_free(struct harvest_s2_batch *);

/* The S2 answers that are lists of papers. */
enum harvest_s2_shape {
	HARVEST_S2_SEARCH, /* /graph/v1/paper/search: total, offset, next */
	HARVEST_S2_BULK,   /* /graph/v1/paper/search/bulk: total, token */
	HARVEST_S2_RECS,   /* /recommendations/v1/papers[/forpaper/ID] */
	HARVEST_S2_SHAPE__MAX
};

/* One paper of a list; id NULL for a null result (deleted). */
struct harvest_s2_paper {
	char *id;        /* paperId */
	char *title;     /* NULL when not asked for */
	char *arxiv;     /* externalIds.ArXiv as given, or NULL */
	long citations;  /* citationCount, -1: absent */
	long year;       /* -1: absent */
	json_t *authors; /* [{"id", "name", "affiliations": [...]}] */
};

struct harvest_s2_list {
	struct harvest_s2_paper *v;
	size_t n;
	size_t gone; /* null results: papers S2 no longer has */
	long total;  /* search, bulk: matches in all; -1 otherwise */
	long next;   /* search: the next page's offset; -1: last page */
	char *token; /* bulk: the next page's token; NULL: last page */
};

/*
 * Parses a page of shape: {"total", "offset", "next", "data": [...]}
 * (search; "data" left out when empty), {"total", "token", "data"}
 * (bulk; token null on the last page) or {"recommendedPapers": [...]}.
 * Every result must be a paper (a paperId) or null; an author where a
 * paper is expected is refused ("wrong entity type: result 0 is an
 * author ..."), as is any field of the wrong type.  CORE_EUPSTREAM with
 * S2's message for its error object, CORE_EINPUT with why otherwise;
 * *l then holds nothing.  Free with harvest_s2_list_free().
 */
enum core_err harvest_s2_list_parse(const char *p, size_t n,
    enum harvest_s2_shape shape, struct harvest_s2_list *l,
    char why[HARVEST_WHY_LEN]);
void harvest_s2_list_free(struct harvest_s2_list *);

/* ------------------------------------------------------------------ */
/* The harvesters: tables of subcommands, listed in main.c            */
/* ------------------------------------------------------------------ */

struct core_cmd;

/* fetch.c: arxiv oai, ids, query; status */
extern const struct core_cmd harvest_cmds_arxiv[], harvest_cmds_status[];
/* enrich.c: openalex, s2 papers, s2 authors; ror */
extern const struct core_cmd harvest_cmds_enrich[], harvest_cmds_ror[];
/* s2find.c: s2 search, bulk, recommend, similar */
extern const struct core_cmd harvest_cmds_s2find[];
/* affil.c: affil link, eval */
extern const struct core_cmd harvest_cmds_affil[];

/* ------------------------------------------------------------------ */
/* run.c: what the harvesters' runs share                              */
/* ------------------------------------------------------------------ */

struct core_db;

/* One run of a subcommand: its connection, client, counts, progress. */
struct harvest_run {
	const struct core_conf *conf;
	struct core_db *db;
	struct harvest_http *http; /* NULL for status, ror */
	const char *key;           /* harvest_cursors.source, or NULL */
	const char *label;         /* "arxiv oai" */
	struct core_buf st_papers, st_authors, st_a, st_b;
	long seq;
	long records, deleted, batches, reqs_noted;
	long expect; /* records expected, -1: unknown */
	struct timespec t0;
	int tty;
	/* Records of the input read and skipped (harvest_run_judge()). */
	long seen, skipped;
	char first_skip[HARVEST_WHY_LEN];
	/* The search words' merges of the papers it writes. */
	struct harvest_merge merge;
	int prewarmed; /* its relations read ahead (write_batch()) */
};

/*
 * More records of a run's input skipped than this share, or none
 * written from a non-empty input, fails the run (issue 16).
 */
#define HARVEST_MAX_SKIP_PCT 5

/*
 * Connects (all prepared statements, the staging tables) and, when src
 * is not -1, makes the source's HTTP client.  Close with
 * harvest_run_close() whatever the result.
 */
enum core_err harvest_run_open(struct harvest_run *, const struct core_conf *,
    enum harvest_src src, const char *key, const char *label);
void harvest_run_close(struct harvest_run *);
/* Progress line (terminal) or one log line per batch. */
void harvest_run_progress(struct harvest_run *, int final);
/* Requests made since the last call. */
long harvest_run_requests(struct harvest_run *);
/*
 * Starts a new run of the source's cursor with params (JSON text: what
 * the run was asked, {"mode":"ids"}); CORE_EDB, logged.
 */
enum core_err harvest_run_start(struct harvest_run *, const char *params);
/*
 * The run ended well: marks the source's cursor done (with the requests
 * made since it was last told) and prints the final progress line.
 * HARVEST_EXIT_OK, or HARVEST_EXIT_FAIL when the database refused.
 */
int harvest_run_done(struct harvest_run *);
/*
 * Ends the batch written since BEGIN on r->db: derived columns, stale
 * marks, the source's cursor (cursor: the position after this batch,
 * NULL or "" for none; n records written, ndel deleted; complete: the
 * source's total, -1 unknown), COMMIT, then the refresh after a batch
 * and the run's counts.  On failure the transaction is rolled back and
 * the CORE_EDB (logged) returned.
 */
enum core_err harvest_run_commit(struct harvest_run *, const char *cursor,
    long n, long ndel, long complete);
/* Prints and logs msg and stores it as the source's last error. */
void harvest_run_fail(struct harvest_run *, const char *msg);
/*
 * harvest_run_fail() for a response that did not parse (er from the
 * parser, why its reason): "error response from BASE: WHY; LOST" when
 * the source answered with an error (CORE_EUPSTREAM), else "malformed
 * response ...".  lost says what is not written ("nothing of it written").
 */
void harvest_run_fail_parse(struct harvest_run *, enum core_err er,
    const char *why, const char *lost);
/* Counts one record of the input skipped; the first why is kept. */
void harvest_run_skip(struct harvest_run *, const char *why);
/*
 * At the end of a run that counted r->seen records of input: -1, the
 * cause recorded with harvest_run_fail() ("50 records read, none
 * written (none: no work has an arXiv DOI)", "7 of 40 records skipped,
 * more than 5% (first: ...)"), when it wrote nothing (r->records 0)
 * from a non-empty input or skipped more than HARVEST_MAX_SKIP_PCT of
 * it; 0 otherwise.  none says why nothing was usable when nothing was
 * skipped.
 */
int harvest_run_judge(struct harvest_run *, const char *none);
/* core_db_exec() without a result. */
enum core_err harvest_exec0(struct core_db *, int stmt, const char *const *p,
    int n);
/*
 * Prints "weft-harvest: msg arg" (arg may be NULL) and returns
 * HARVEST_EXIT_USAGE, after which the command's usage follows.
 */
int harvest_bad_usage(const char *msg, const char *arg);
/* Compact ASCII JSON text; caller frees. */
char *harvest_jdump(const json_t *v);

#endif /* HARVEST_REMOTE_H */
