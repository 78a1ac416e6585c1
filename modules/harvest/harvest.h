/*
 * harvest.h -- weft-harvest's private header, one section per .c file.
 */
#ifndef HARVEST_H
#define HARVEST_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

/* ------------------------------------------------------------------ */
/* name.c: author names                                                */
/* ------------------------------------------------------------------ */

/*
 * s with the common TeX accent commands turned into Unicode letters:
 * \'a \"o \`e \^o \~n \=a \.z \c{c} \v{s} \u{g} \H{o} \k{a} \r{a}, with or
 * without braces ({\"u}, \"{u}), \i, and the letters \o \O \l \L \ss \aa
 * \AA \ae \AE \oe \OE.  Anything else passes unchanged.  The result is in
 * NFC.  Caller frees with free().
 */
char *harvest_tex_unaccent(const char *s);

/*
 * s with leading and trailing white space removed and every inner run of
 * white space (including line breaks) turned into one space.  Caller
 * frees.
 */
char *harvest_squash(const char *s);

/*
 * The normalised key of an author name, used to group one name's papers:
 * mojibake repaired (core_utf8_demojibake()), TeX accents resolved, NFKD, marks stripped, case folded, a few letters
 * without decomposition spelt in ASCII (ł l, ø o, æ ae ...), every run of
 * characters other than letters and digits as one space, no space at
 * either end.  "Last, First" (one comma; a second one before a suffix:
 * "Last, First, Jr.") is reordered to "First Last".  "" when nothing is
 * left.  Caller frees.
 */
char *harvest_name_key(const char *name);

/*
 * "First Last Suffix" from the parts of a parsed name (any may be NULL or
 * empty), TeX accents resolved, white space squashed.  Caller frees.
 */
char *harvest_name_join(const char *last, const char *first,
    const char *suffix);

/* ------------------------------------------------------------------ */
/* records.c: one JSON line to one row set, no database                */
/* ------------------------------------------------------------------ */

enum harvest_shape {
	HARVEST_SHAPE_LISTING,  /* daily listing: authors as a list */
	HARVEST_SHAPE_KAGGLE,   /* Kaggle/OAI snapshot: authors_parsed */
	HARVEST_SHAPE_OPENALEX, /* an OpenAlex work carrying an arXiv id */
	HARVEST_SHAPE__MAX
};

/* A paper and its authors in order.  Strings are owned by the struct;
 * NULL means unknown (SQL NULL). */
struct harvest_paper {
	enum harvest_shape shape;
	char *arxiv_id; /* canonical, without version */
	char *title;    /* squashed, TeX accents resolved */
	char *abstract; /* trimmed, never NULL */
	char *comment;
	char *categories; /* JSON array text, primary first */
	char *
	    class_codes; /* MSC/ACM codes (JSON array text), never categories */
	char *primary;
	char *published; /* "YYYY-MM-DD" */
	char *updated;
	char *versions; /* JSON text: [{"version":1,"date":"2007-04-02"}] */
	char *doi;
	char *journal_ref;
	char *license;
	char *slug;         /* core_slug(title, 80) */
	const char *source; /* static: "arxiv-listing", "kaggle", "openalex" */
	char **authors;     /* display names, in order */
	size_t nauthors;
	struct core_pool pool; /* owns the strings and array above */
};

/* An institution (from ROR, or from OpenAlex). */
struct harvest_inst {
	char *ror_id;      /* "02jx3x895" */
	char *openalex_id; /* "I136199984" */
	char *name;
	char *slug;    /* core_slug(name, 60) */
	char *aliases; /* JSON array text */
	char *country_code;
	char *country_name;
	char *type;
	char *status;
	char *website;
	char *established; /* decimal text */
	/*
	 * ROR's relationships as JSON array text, [{"type": "successor",
	 * "id": "04nbqb988", "label": "..."}] (parent, child, related,
	 * predecessor, successor); NULL where the source has none.
	 */
	char *relationships;
	struct core_pool pool; /* owns the strings above */
};

/* One institution an OpenAlex author is linked to. */
struct harvest_affil {
	char *ror_id;
	char *openalex_id;
	char *name;
	char *slug;
	char *country_code;
	char *type;
	int last_known;
	int first_year; /* 0: unknown */
	int last_year;
};

/* An OpenAlex author. */
struct harvest_author {
	char *openalex_id; /* "A5023888391" */
	char *name;
	char *name_key;
	char *slug;    /* core_slug(name, 60) */
	char *orcid;   /* bare "0000-0001-6187-6610" */
	char *h_index; /* decimal text; NULL when unknown */
	char *citations;
	char *works_count;
	struct harvest_affil *affils; /* in pool, with their strings */
	size_t naffils;
	int deleted; /* OpenAlex's "Deleted Author" placeholder: never staged
			as a researcher (issue 16) */
	struct core_pool pool; /* owns the strings above */
};

/*
 * Converts one decoded JSON line into a paper, detecting the shape.  On
 * CORE_OK *p is filled (free with harvest_paper_free()); on CORE_EINPUT
 * *why is a static reason and *p holds nothing.  p must be zeroed.
 */
enum core_err harvest_paper_parse(const json_t *o, struct harvest_paper *p,
    const char **why);
void harvest_paper_free(struct harvest_paper *p);

/* A ROR v2 organisation record, same contract as harvest_paper_parse(). */
enum core_err harvest_ror_parse(const json_t *o, struct harvest_inst *in,
    const char **why);
/* An OpenAlex institution entity, same contract. */
enum core_err harvest_oa_inst_parse(const json_t *o, struct harvest_inst *in,
    const char **why);
void harvest_inst_free(struct harvest_inst *in);

/* An OpenAlex author entity, same contract; OpenAlex's "Deleted Author"
 * placeholder parses with a->deleted set and *why saying so. */
/*
 * An OpenAlex institution object's ROR id ("02jx3x895") and OpenAlex id
 * ("I45129253"), NULL when it has none.  Caller frees.
 */
char *harvest_oa_ror(const json_t *inst);
char *harvest_oa_inst_id(const json_t *inst);
enum core_err harvest_oa_author_parse(const json_t *o, struct harvest_author *a,
    const char **why);
void harvest_author_free(struct harvest_author *a);

/*
 * Appends one row in COPY text format: fields separated by tabs, NULL as
 * \N, backslash, tab, line feed and carriage return escaped, a line feed
 * at the end.
 */
void harvest_copy_row(struct core_buf *b, const char *const *fields, size_t n);
/* s (NULL: NULL) as the next element of a PostgreSQL array literal in b,
 * which it opens when empty; the caller closes it with '}'. */
void harvest_array_add(struct core_buf *b, const char *s);

/*
 * The date part of an RFC 2822 date ("Mon, 2 Apr 2007 19:18:42 GMT") as
 * "YYYY-MM-DD" into out[11]; 0 on success, -1 if it is not one.
 */
int harvest_rfc2822_date(const char *s, char out[11]);

struct core_conf;

/* ------------------------------------------------------------------ */
/* match.c: researcher matching, pure (no database)                    */
/* ------------------------------------------------------------------ */

/*
 * Thresholds (see match.c and the eval in match_db.c).  Co-authors join
 * when at least HARVEST_M_COAUTH_SHARED of the item's co-author names
 * are the cluster's, or one is and that is at least HARVEST_M_COAUTH_MIN
 * of them (a paper with four co-authors or fewer): two same-name people
 * sharing a same-name co-author is rare, one shared name among twenty
 * is not enough on its own.  Fields join when at least
 * HARVEST_M_FIELDS_MIN of the item's categories are the cluster's.
 */
#define HARVEST_M_COAUTH_SHARED 2
#define HARVEST_M_COAUTH_MIN    0.25
#define HARVEST_M_FIELDS_MIN    0.5

/* Why an authorship has its researcher: authorships.match_reason. */
enum harvest_mreason {
	HARVEST_MR_OPENALEX,  /* "openalex_id": the source's author id */
	HARVEST_MR_ORCID,     /* "orcid" */
	HARVEST_MR_S2,        /* "s2_id" */
	HARVEST_MR_COAUTHORS, /* shared co-authors; score: their share */
	HARVEST_MR_FIELDS,    /* shared categories; score: their share */
	HARVEST_MR_NEW,       /* "new_identity": a same-name group split;
				 score: the best evidence that fell short */
	HARVEST_MR_SINGLE,    /* "single": the only person of that name */
	HARVEST_MR__MAX
};
extern const char *const harvest_mreasons[HARVEST_MR__MAX];

/* One authorship to place.  The inputs are borrowed. */
struct harvest_mitem {
	const char *name_key;         /* harvest_name_key() */
	const char *const *coauthors; /* the other authors' keys */
	size_t ncoauthors;
	const char *const *fields; /* categories */
	size_t nfields;
	const char *ext_id; /* "openalex:A1", "orcid:0000-...", "s2:12", NULL */
	/* In, for harvest_match_place(): cluster (below the number of
	 * items) is decided already. */
	int settled;
	/* Out. */
	size_t cluster; /* 0.. in order of first appearance */
	enum harvest_mreason reason;
	double score;
};

struct harvest_mstats {
	long blocks, clusters;
	long groups;                   /* same-name groups (one name key) */
	long split_blocks, split_into; /* groups of more than one person */
	long merges; /* clusters found to be one by a later paper */
	long joins_coauthors, joins_fields;
	long initials; /* joins across name forms ("J. Smith") */
};

/*
 * Decides one block (items newest first, all of one
 * harvest_match_block()): sets each item's cluster, reason and score and
 * returns the number of clusters.  st (may be NULL) is added to.
 */
size_t harvest_match_group(struct harvest_mitem *items, size_t n,
    struct harvest_mstats *st);
/*
 * A day's match of one block (the online pass): the settled items form
 * their clusters whole (cluster given, reason and score kept); the
 * others, newest first, are decided against them as
 * harvest_match_group() decides, joining, merging or starting clusters.
 * ambiguous: harvest_match_ambiguous() of the whole block's name keys.
 * Sets every item's cluster (dense again, in order of first appearance)
 * and returns their number.
 */
size_t harvest_match_place(struct harvest_mitem *items, size_t n, int ambiguous,
    struct harvest_mstats *st);
/* Whether the name keys hold two different full first names: then an
 * initial does not say which one it stands for. */
int harvest_match_ambiguous(const char *const *keys, size_t n);
/*
 * Whether name keys a and b can be one person: same family name (last
 * token), first given names equal or one the other's initial (not when
 * first_ambiguous: the block holds two different full first names),
 * middle names, where both have one, likewise.
 */
int harvest_name_compatible(const char *a, const char *b, int first_ambiguous);
/*
 * How two raw names of one person differ, for the eval's case types:
 * the same form (case and punctuation aside), accents (TeX, mojibake,
 * marks, ł/l), order ("Priem, Jason", "Priem Jason"), an initial ("J.
 * Priem"), a middle name on one side only, or other.  The first that
 * applies in that order, order before initials.
 */
enum harvest_ncase {
	HARVEST_NC_SAME,
	HARVEST_NC_ACCENTS,
	HARVEST_NC_INITIALS,
	HARVEST_NC_MIDDLE,
	HARVEST_NC_ORDER,
	HARVEST_NC_OTHER,
	HARVEST_NC__MAX
};
extern const char *const harvest_ncases[HARVEST_NC__MAX];
enum harvest_ncase harvest_name_case(const char *a, const char *b);
/*
 * Family-name-first forms among n distinct name keys (counts[i]: how
 * many authorships have keys[i]): a two-token key "priem jason" is read
 * as "jason priem" when "priem" is the family name of strictly more
 * authorships than "jason" and another key with family name "priem"
 * starts with "jason" and is compatible with the turned form; "priem j"
 * (an initial last) when any such key is compatible.  The decision
 * depends on the keys and counts only: give it the keys as
 * harvest_name_key() makes them from the raw names, and a rerun decides
 * the same.  Returns n entries, NULL (keep) or the key given names
 * first; caller frees each and the array.
 */
char **harvest_name_orient(const char *const *keys, const long *counts,
    size_t n);
/* The block of a name key: first letter, space, last token ("j smith").
 * Caller frees. */
char *harvest_match_block(const char *name_key);

/* ------------------------------------------------------------------ */
/* match_db.c: "match"; match_eval.c: "eval"                          */
/* ------------------------------------------------------------------ */

struct core_db;

/* What a match reads and decides. */
enum harvest_match_mode {
	/* The daily pass: in the blocks changed since the last match
	 * (0058), the authorships still to decide, against the researchers
	 * whose names fit (0059); the others keep theirs. */
	HARVEST_MATCH_DAY,
	/* The blocks changed since the last match, decided whole (a first
	 * load: every block). */
	HARVEST_MATCH_BLOCKS,
	/* Every block decided whole: the periodic rebuild. */
	HARVEST_MATCH_FULL,
};

/*
 * Matches as mode says on db (migrated, statements prepared), newest
 * first, one transaction per batch of blocks, then recomputes the counts
 * of what it can have moved.  A second connection reads, in one
 * snapshot.  Fills st (may be NULL).  Errors are logged.
 */
enum core_err harvest_match_run(const struct core_conf *conf,
    struct core_db *db, enum harvest_match_mode mode,
    struct harvest_mstats *st);
/* Prints a match's statistics, one line headed what. */
void harvest_match_print_stats(const char *what,
    const struct harvest_mstats *st);
/* Runs "match [--blocks | --full]", then the refresh unless !refresh
 * ("--no-refresh").  Returns an exit code. */
int harvest_match(const struct core_conf *conf, enum harvest_match_mode mode,
    int refresh);
/* Runs "eval" on the OpenAlex works files (NULL: the recorded ones). */
int harvest_eval(const struct core_conf *conf, char **files, int nfiles);

/* ------------------------------------------------------------------ */
/* migrate.c, load.c: the subcommands (main.c parses the options)      */
/* ------------------------------------------------------------------ */

struct core_conf;

/* Exit codes. */
#define HARVEST_EXIT_OK     0
#define HARVEST_EXIT_FAIL   1
#define HARVEST_EXIT_USAGE  2
#define HARVEST_EXIT_BEHIND 3 /* migrate --check: not at the latest */

/*
 * The prepared statements: sql/queries/harvest.sql lists the migration
 * statements first, then the loader's, then the scripts (run with
 * core_db_cmd(), never prepared; see that file).
 */
#define HARVEST_NMIGRATE  HARVEST_SQL_LOAD_COUNTS
#define HARVEST_NPREPARED HARVEST_SQL_MIGRATIONS_ENSURE

/* Runs "migrate"; check for --check.  Returns an exit code. */
int harvest_migrate(const struct core_conf *conf, int check);
/* Runs "load" from dir (NULL: the configured one).  Returns an exit code. */
int harvest_load(const struct core_conf *conf, const char *dir);

/*
 * After a writer committed (after.c): for HARVEST_AFTER_BULK (load,
 * match) statistics and the derived tables (0009, 0011, 0013) with
 * search's word frequencies, from what changed since the last refresh
 * (0036); HARVEST_AFTER_FULL recomputes all of them; then, for all, a
 * new cache generation (Redis down: logged, not an error).  CORE_EDB
 * when the refresh failed.
 */
enum harvest_after {
	HARVEST_AFTER_BATCH,
	HARVEST_AFTER_BULK,
	HARVEST_AFTER_FULL
};
enum core_err harvest_after_write(const struct core_conf *conf,
    struct core_db *db, enum harvest_after how);
/*
 * Before a step that reads relations at random ("harvest", "match" or
 * "refresh"): those it reads most of read in order into the kernel's
 * cache (PREWARM, 0096-0098), within a share of effective_cache_size;
 * prints what it read.  A failure is a warning: the step then reads
 * them as it goes.
 */
void harvest_prewarm(struct core_db *db, const char *step);
/*
 * The search windows (0048, 0053, 0056) built again where due, each
 * index CONCURRENTLY (outside a transaction); prints each one.  A
 * failure is a warning: searches take the other ways until the next
 * refresh (after.c).
 */
void harvest_build_windows(struct core_db *db);
/* "weft-harvest refresh [--full]" (after.c). */
extern const struct core_cmd harvest_cmds_refresh[];

/*
 * Connects as the subcommands do: schema_migrations is created if
 * missing (DDL cannot be prepared), then a second connection prepares
 * the first nstmts statements of harvest_sql.  On CORE_OK *dbp is set
 * (free with core_db_close()); errors are logged.
 */
enum core_err harvest_connect(const struct core_conf *conf, size_t nstmts,
    struct core_db **dbp);
/*
 * Statement stmt of harvest_sql sent on db with its np parameters, not
 * prepared there (send.c); harvest_wait() takes its result, which must
 * be rows with the statement's columns.  Errors are logged.
 */
enum core_err harvest_send(struct core_db *db, int stmt,
    const char *const *params, int np);
enum core_err harvest_wait(struct core_db *db, int stmt, PGresult **res);
/*
 * harvest_connect() with every statement prepared, after checking that
 * the database is at the newest migration: when it is not, an error is
 * logged under area ("harvest.load") saying to run "weft-harvest
 * migrate" and the result is CORE_EDB.
 */
enum core_err harvest_connect_migrated(const struct core_conf *conf,
    const char *area, struct core_db **dbp);
/*
 * The migration files of sql_dir/schema, "NNNN_name.sql", in version
 * order.  On CORE_OK *files is an array of *n entries (free with
 * harvest_migrations_free()).
 */
struct harvest_mfile {
	int version;
	char *name; /* "0001_init" */
	char *path;
};
enum core_err harvest_migrations(const struct core_conf *conf,
    struct harvest_mfile **files, size_t *n);
void harvest_migrations_free(struct harvest_mfile *files, size_t n);
/* The database's schema version (0 when none); CORE_EDB. */
enum core_err harvest_db_version(struct core_db *db, int *version);
/*
 * Papers written between two merges of their search words into the GIN
 * indexes (MERGE_SEARCH_WORDS; harvest_merge_every in weft.conf): a
 * merge costs mostly per word, so one of 5,000 papers took 2.0 s where
 * one of 1,000 took 0.85-1.5 s, while a search reads the pending list of
 * 5,000 in about 11 ms (tests/bench/README.md, twenty-fifth session).
 */
#define HARVEST_MERGE_EVERY 5000
/* The merges of one run that writes papers (merge.c). */
struct harvest_merge {
	const struct core_conf *conf;
	struct core_db *side; /* opened for the first merge sent */
	long every;           /* papers between two merges */
	long unmerged;        /* papers committed since the last one */
	long sent;            /* merges sent beside the batches */
	int busy;             /* one sent and not yet answered */
};
void harvest_merge_init(struct harvest_merge *, const struct core_conf *);
/*
 * n more papers committed; every m->every of them a merge is sent on
 * the side connection, once the one before has answered, and the run
 * goes on writing meanwhile.  Errors are logged.
 */
enum core_err harvest_merge_note(struct harvest_merge *, long n);
/*
 * The end of a run: the merge in flight answered and what is left
 * merged on db (outside a transaction), so that no pending list is left
 * for searches to read.
 */
enum core_err harvest_merge_end(struct harvest_merge *, struct core_db *db);
/* The side connection closed, after the merge in flight answered. */
void harvest_merge_close(struct harvest_merge *);
/*
 * COPY FROM STDIN of b with the COPY statement stmt (run.c); CORE_EDB,
 * logged, when the server refuses any of it.
 */
enum core_err harvest_copy_in(struct core_db *, int stmt,
    const struct core_buf *b);

/*
 * Moves out of the JSON array list every entry that is not an arXiv
 * category name (archive, or archive.subject: "math.CO",
 * "cond-mat.stat-mech", "hep-ex"): the MSC and ACM class codes that
 * listings carry among categories ("68T50", "I.2.7; I.2.6",
 * "94A08, 47H10").  Returns them split at ',' and ';', trimmed and
 * without repeats, as a new array (empty when none).
 */
json_t *harvest_class_codes(json_t *list);

/* ------------------------------------------------------------------ */
/* jseq.c: the records of a JSON dump, chunk by chunk                  */
/* ------------------------------------------------------------------ */

#define HARVEST_JSEQ_WHY 160

/*
 * A splitter for a dump that is one JSON array of objects, one object,
 * or objects one after another (JSON lines), with or without a UTF-8
 * byte order mark.  Needs core.h (struct core_buf) included first.
 */
struct harvest_jseq {
	struct core_buf rec; /* the record being read */
	size_t max_rec;      /* its limit in bytes */
	long long off;       /* bytes pushed so far */
	long nrec;           /* records handed over */
	int state, depth, in_str, esc, array, comma, bom;
};
/* Ready for the first chunk; records up to max_rec bytes. */
void harvest_jseq_open(struct harvest_jseq *, size_t max_rec);
void harvest_jseq_close(struct harvest_jseq *);
/*
 * Feeds p[0..n): rec(arg, s, len) is called with the bytes of each
 * complete top-level object (borrowed until it returns; not parsed, not
 * NUL-terminated); a non-zero return stops the input.  0, or -1 with why
 * filled ("an array element that is not an object ('1' at byte 9)",
 * "record 3 is longer than 8388608 bytes"); after -1 every call fails.
 */
int harvest_jseq_push(struct harvest_jseq *, const char *p, size_t n,
    int (*rec)(void *arg, const char *s, size_t len), void *arg,
    char why[HARVEST_JSEQ_WHY]);
/*
 * The input is complete: 0, or -1 with why filled when it ended inside
 * a record or an open array ("truncated: ..."), or was empty.
 */
int harvest_jseq_end(struct harvest_jseq *, char why[HARVEST_JSEQ_WHY]);

/* ------------------------------------------------------------------ */
/* affil_ror.c: raw affiliation strings to ROR institutions            */
/* ------------------------------------------------------------------ */

/*
 * The parts of a raw affiliation string: HTML character references
 * decoded, cut at , ; ( ) [ ] | and line breaks, white space squashed,
 * trailing dots dropped, empty parts left out (at most 32 parts of the
 * first 2,000 bytes).  The count; *parts is an array the caller frees
 * with core_strv_free() (NULL when the count is 0).
 */
size_t harvest_affil_split(const char *raw, char ***parts);
/*
 * The lookup key of a name or a part: harvest_name_key() of it (commas
 * read as spaces), the usual abbreviations spelt out ("univ" university,
 * "dept" department, "centre" center ...), "and" and "the" left out.
 * Caller frees.
 */
char *harvest_affil_key(const char *s);

/* The institutions a matcher knows: names, aliases, acronyms, countries. */
struct harvest_affix;
/* An empty index; free with harvest_affix_free(). */
struct harvest_affix *harvest_affix_new(void);
void harvest_affix_free(struct harvest_affix *);
/*
 * Adds institution id: its name, its aliases (JSON array text of names,
 * acronyms and labels in other languages, as harvest_ror_parse() gives
 * them; NULL for none), its country code and name (either NULL), and
 * whether it is active.  Strings are copied as keys.
 */
void harvest_affix_add(struct harvest_affix *, long long id, const char *name,
    const char *aliases, const char *cc, const char *country, int active);
size_t harvest_affix_size(const struct harvest_affix *);
/*
 * The institutions raw names, at most max of them into ids[] (each once),
 * their count; 0 when none is named unambiguously (precision first: see
 * affil_ror.c for the rules).
 */
size_t harvest_affix_match(const struct harvest_affix *, const char *raw,
    long long *ids, size_t max);

#endif /* HARVEST_H */
