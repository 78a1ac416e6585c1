/*
 * affil.c -- "affil eval": the affiliation matcher (affil_ror.c) measured
 * on labelled raw strings, and "affil link": the raw affiliation strings
 * harvested from arXiv (Atom arxiv:affiliation, arXivRaw) matched to the
 * institutions and turned into researcher-institution links with years.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "core.h"
#include "harvest.h"
#include "harvest_sql.h"
#include "remote.h"

#define AFF_FILE_MAX (256LL << 20) /* uncompressed bytes of an input */
#define AFF_CHUNK    (1 << 16)
#define AFF_IDS_MAX  8 /* institutions one string may name */
#define AFF_SEED     "weft-affil-16"

/* ----------------------------------------------------------- files */

/*
 * Feeds the JSON records of file path (gzip or not: a JSON array, one
 * object or JSON lines) to rec(arg, ...).  0, or -1 with why filled.
 */
static int
read_records(const char *path, int (*rec)(void *, const char *, size_t),
    void *arg, char why[HARVEST_JSEQ_WHY])
{
	struct harvest_jseq j;
	gzFile gz;
	char *chunk;
	long long total = 0;
	int got, rc = -1, zerr;

	harvest_jseq_open(&j, 16 << 20);
	if ((gz = gzopen(path, "rb")) == NULL) {
		snprintf(why, HARVEST_JSEQ_WHY, "cannot read %s: %s", path,
		    strerror(errno));
		harvest_jseq_close(&j);
		return -1;
	}
	chunk = core_xcalloc(1, AFF_CHUNK);
	while ((got = gzread(gz, chunk, AFF_CHUNK)) > 0) {
		if ((total += got) > AFF_FILE_MAX) {
			snprintf(why, HARVEST_JSEQ_WHY, "%s: too large", path);
			goto out;
		}
		if (harvest_jseq_push(&j, chunk, (size_t)got, rec, arg, why) !=
		    0)
			goto out;
	}
	(void)gzerror(gz, &zerr);
	if (got < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
		snprintf(why, HARVEST_JSEQ_WHY, "cannot read %s: truncated",
		    path);
		goto out;
	}
	if (harvest_jseq_end(&j, why) != 0)
		goto out;
	rc = 0;
out:
	free(chunk);
	gzclose(gz);
	harvest_jseq_close(&j);
	return rc;
}

/* ------------------------------------------------------------ eval */

struct eval_ror {
	struct harvest_affix *x;
	json_t *ids;   /* index -> ROR id */
	json_t *known; /* ROR id -> true */
};

/* One ROR record into the index; its number is its place in ids. */
static int
eval_ror_rec(void *arg, const char *s, size_t len)
{
	struct eval_ror *e = arg;
	struct harvest_inst in;
	const char *why;
	json_t *o;

	if ((o = json_loadb(s, len, 0, NULL)) == NULL)
		return 0;
	memset(&in, 0, sizeof(in));
	if (harvest_ror_parse(o, &in, &why) == CORE_OK) {
		harvest_affix_add(e->x, (long long)json_array_size(e->ids),
		    in.name, in.aliases, in.country_code, in.country_name,
		    in.status == NULL || strcmp(in.status, "active") == 0);
		json_array_append_new(e->ids, json_string(in.ror_id));
		json_object_set_new(e->known, in.ror_id, json_true());
		harvest_inst_free(&in);
	}
	json_decref(o);
	return 0;
}

/* One labelled string: {"affiliation": "...", "ror_ids": [URL, ...]}. */
struct eval_item {
	json_t *items;
};

static int
eval_gold_rec(void *arg, const char *s, size_t len)
{
	struct eval_item *g = arg;
	json_t *o;

	if ((o = json_loadb(s, len, 0, NULL)) != NULL)
		json_array_append_new(g->items, o);
	return 0;
}

/* FNV-1a of the seed and s: the part (0 tuning, 1 held-out) of s. */
static int
part_of(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	const char *p;

	for (p = AFF_SEED; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (p = s; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (int)((h >> 17) & 1);
}

struct tally {
	long strings, gold, gold_known, pred, tp, fp;
};

static double
ratio(long a, long b)
{
	return b > 0 ? (double)a / (double)b : 0.0;
}

struct affil_eval_args {
	const char *ror;
	int misses;
};

static int
affil_eval(const struct core_conf *conf, void *args, int argc, char **argv)
{
	const struct affil_eval_args *a = args;
	struct eval_ror e = { NULL, NULL, NULL };
	struct eval_item g = { NULL };
	struct tally t[2];
	char why[HARVEST_JSEQ_WHY], *ror = NULL;
	const char *rid;
	const char *gold, *raw, *url;
	long long ids[AFF_IDS_MAX];
	json_t *it, *v, *want;
	size_t i, j, k, n;
	int p, rc = HARVEST_EXIT_FAIL;
	static const char *const label[2] = { "tuning", "held-out" };

	memset(t, 0, sizeof(t));
	ror = a->ror != NULL ? core_xstrdup(a->ror)
			     : core_xasprintf("%s/%s",
				   core_conf_get(conf, "data_dir", "sql/data"),
				   "ror_v2_records_from_ror-records.jsonl.gz");
	gold = argc > 0
	    ? argv[0]
	    : "tests/data/harvest/affil/crossref_affiliations.json.gz";
	e.x = harvest_affix_new();
	e.ids = json_array();
	e.known = json_object();
	g.items = json_array();
	if (read_records(ror, eval_ror_rec, &e, why) != 0 ||
	    read_records(gold, eval_gold_rec, &g, why) != 0) {
		fprintf(stderr, "weft-harvest: %s\n", why);
		goto out;
	}
	if (harvest_affix_size(e.x) == 0 || json_array_size(g.items) == 0) {
		fprintf(stderr, "weft-harvest: no %s\n",
		    harvest_affix_size(e.x) == 0 ? "ROR record"
						 : "gold string");
		goto out;
	}
	json_array_foreach(g.items, i, it)
	{
		raw = json_string_value(json_object_get(it, "affiliation"));
		if (raw == NULL)
			continue;
		p = part_of(raw);
		t[p].strings++;
		want = json_object();
		json_array_foreach(json_object_get(it, "ror_ids"), j, v)
		{
			if ((url = json_string_value(v)) == NULL)
				continue;
			url = strrchr(url, '/') != NULL ? strrchr(url, '/') + 1
							: url;
			json_object_set_new(want, url, json_false());
			t[p].gold++;
			if (json_object_get(e.known, url) != NULL)
				t[p].gold_known++;
		}
		n = harvest_affix_match(e.x, raw, ids, AFF_IDS_MAX);
		for (k = 0; k < n; k++) {
			rid = json_string_value(
			    json_array_get(e.ids, (size_t)ids[k]));
			t[p].pred++;
			if (json_object_get(want, rid) != NULL) {
				t[p].tp++;
				json_object_set_new(want, rid, json_true());
			} else {
				t[p].fp++;
				/* Only the tuning part's misses are shown. */
				if (a->misses && p == 0)
					printf("fp\t%s\t%s\n", rid, raw);
			}
		}
		if (a->misses && p == 0) {
			const char *key;

			json_object_foreach(want, key,
			    v) if (!json_is_true(v) &&
			    json_object_get(e.known, key) != NULL)
			    printf("fn\t%s\t%s\n", key, raw);
		}
		json_decref(want);
	}
	printf("affiliation matching: %zu ROR institutions, seed %s\n",
	    harvest_affix_size(e.x), AFF_SEED);
	printf("%-9s %7s %6s %10s %6s %5s %5s %9s %8s %10s\n", "part",
	    "strings", "gold", "gold_in_ror", "links", "tp", "fp", "precision",
	    "recall", "recall_all");
	for (p = 0; p < 2; p++)
		printf("%-9s %7ld %6ld %10ld %6ld %5ld %5ld %9.4f %8.4f "
		       "%10.4f\n",
		    label[p], t[p].strings, t[p].gold, t[p].gold_known,
		    t[p].pred, t[p].tp, t[p].fp, ratio(t[p].tp, t[p].pred),
		    ratio(t[p].tp, t[p].gold_known), ratio(t[p].tp, t[p].gold));
	rc = HARVEST_EXIT_OK;
out:
	free(ror);
	harvest_affix_free(e.x);
	json_decref(e.ids);
	json_decref(e.known);
	json_decref(g.items);
	return rc;
}

static const struct core_opt affil_eval_opts[] = {
	{ "--ror", CORE_OPT_STR, offsetof(struct affil_eval_args, ror), "FILE",
	    NULL,
	    "the ROR records (default: data_dir/"
	    "ror_v2_records_from_ror-records.jsonl.gz)" },
	{ "--misses", CORE_OPT_FLAG, offsetof(struct affil_eval_args, misses),
	    NULL, NULL,
	    "list the tuning part's wrong and missed links (never the "
	    "held-out part's)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

/* ------------------------------------------------------------ link */

struct affil_link_args {
	int again;
};

/* ids[0..n) as a PostgreSQL bigint[] literal into b. */
static void
id_array(struct core_buf *b, const long long *ids, size_t n)
{
	size_t i;

	core_buf_reset(b);
	core_buf_putc(b, '{');
	for (i = 0; i < n; i++)
		core_buf_printf(b, "%s%lld", i ? "," : "", ids[i]);
	core_buf_putc(b, '}');
}

static int
affil_link(const struct core_conf *conf, void *args)
{
	const struct affil_link_args *a = args;
	struct harvest_run r;
	struct harvest_affix *x = NULL;
	struct core_buf arr = CORE_BUF_INIT;
	PGresult *res = NULL;
	long long ids[AFF_IDS_MAX];
	long matched = 0;
	size_t n;
	int row, rc = HARVEST_EXIT_FAIL;

	if (harvest_run_open(&r, conf, (enum harvest_src) - 1, "affil",
		"affil link") != CORE_OK ||
	    harvest_run_start(&r, "{\"mode\":\"link\"}") != CORE_OK)
		goto out;
	if (core_db_cmd(r.db, "BEGIN") != CORE_OK)
		goto fail;
	if (a->again &&
	    harvest_exec0(r.db, HARVEST_SQL_AFFIL_RESET, NULL, 0) != CORE_OK)
		goto rollback;
	if (core_db_exec(r.db, HARVEST_SQL_AFFIL_INSTITUTIONS, NULL, 0, &res) !=
	    CORE_OK)
		goto rollback;
	x = harvest_affix_new();
	for (row = 0; row < PQntuples(res); row++)
		harvest_affix_add(x,
		    core_cell_bigint(res, row, HARVEST_AFFIL_INSTITUTIONS__ID,
			0),
		    core_cell_text(res, row, HARVEST_AFFIL_INSTITUTIONS__NAME),
		    core_cell_text(res, row,
			HARVEST_AFFIL_INSTITUTIONS__ALIASES),
		    core_cell_text(res, row,
			HARVEST_AFFIL_INSTITUTIONS__COUNTRY_CODE),
		    core_cell_text(res, row,
			HARVEST_AFFIL_INSTITUTIONS__COUNTRY_NAME),
		    core_cell_bool(res, row, HARVEST_AFFIL_INSTITUTIONS__ACTIVE,
			1));
	PQclear(res);
	res = NULL;
	if (core_db_exec(r.db, HARVEST_SQL_AFFIL_TODO, NULL, 0, &res) !=
	    CORE_OK)
		goto rollback;
	r.seen = PQntuples(res);
	for (row = 0; row < PQntuples(res); row++) {
		const char *raw =
		    core_cell_text(res, row, HARVEST_AFFIL_TODO__RAW);

		n = harvest_affix_match(x, raw, ids, AFF_IDS_MAX);
		matched += n > 0;
		id_array(&arr, ids, n);
		if (harvest_exec0(r.db, HARVEST_SQL_AFFIL_SET,
			(const char *const[]){ raw, core_buf_cstr(&arr) },
			2) != CORE_OK)
			goto rollback;
		r.records++;
	}
	if (harvest_exec0(r.db, HARVEST_SQL_AFFIL_LINKS, NULL, 0) != CORE_OK ||
	    harvest_exec0(r.db, HARVEST_SQL_AFFIL_COUNTS, NULL, 0) != CORE_OK ||
	    harvest_exec0(r.db, HARVEST_SQL_HV_MARK_STALE, NULL, 0) != CORE_OK)
		goto rollback;
	if (core_db_cmd(r.db, "COMMIT") != CORE_OK)
		goto fail;
	(void)harvest_after_write(conf, r.db, HARVEST_AFTER_BATCH);
	rc = harvest_run_done(&r);
	printf("affil link: %ld strings matched, %ld to an institution "
	       "(%zu institutions known)\n",
	    r.records, matched, harvest_affix_size(x));
	goto out;
rollback:
	core_db_cmd(r.db, "ROLLBACK");
fail:
	harvest_run_fail(&r, "database write failed; rolled back");
out:
	PQclear(res);
	core_buf_free(&arr);
	harvest_affix_free(x);
	harvest_run_close(&r);
	return rc;
}

static const struct core_opt affil_link_opts[] = {
	{ "--again", CORE_OPT_FLAG, offsetof(struct affil_link_args, again),
	    NULL, NULL,
	    "match every string afresh (after a ROR load or a matcher "
	    "change)" },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

const struct core_cmd harvest_cmds_affil[] = {
	{ .name = "affil link",
	    .opts = affil_link_opts,
	    .args_size = sizeof(struct affil_link_args),
	    .summary =
		"match arXiv affiliation strings to ROR, link researchers",
	    .help =
		"Matches the raw affiliation strings the arXiv harvesters "
		"kept (Atom\n"
		"arxiv:affiliation, arXivRaw) and not matched yet to the ROR "
		"institutions\n"
		"(names, aliases, acronyms, labels in other languages, "
		"country; an\n"
		"ambiguous or weak string gets none), then rebuilds the "
		"researcher-\n"
		"institution links of source 'arxiv': each researcher whose "
		"authorship\n"
		"names an institution, with the years of the first and last "
		"such paper.\n"
		"Run it after \"match\" (links follow the researchers of the "
		"authorships).\n"
		"One transaction; a rerun changes nothing.",
	    .run_opts = affil_link },
	{ .name = "affil eval",
	    .operands = "[FILE]",
	    .opts = affil_eval_opts,
	    .args_size = sizeof(struct affil_eval_args),
	    .summary =
		"affiliation matching precision/recall on labelled strings",
	    .help =
		"Matches labelled raw affiliation strings (default: "
		"tests/data/harvest/affil/\n"
		"crossref_affiliations.json.gz, ROR's Crossref test set: a "
		"JSON list of\n"
		"{\"affiliation\", \"ror_ids\"}) to the ROR records and "
		"compares.  The strings\n"
		"are split by a fixed seed (FNV-1a of \"" AFF_SEED
		"\" and the string) into a\n"
		"tuning and a held-out part; the rules were tuned on the "
		"tuning part only.\n"
		"Precision is over the links made; recall over the gold ids "
		"among the ROR\n"
		"records loaded (recall_all: over every gold id).",
	    .run = affil_eval },
	{ .name = NULL },
};
