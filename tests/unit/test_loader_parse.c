/*
 * test_loader_parse.c -- one JSON line to one row set, for each kind of
 * record the loader reads: both paper shapes, a ROR organisation, an
 * OpenAlex author and institution; and the COPY row encoding.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harvest.h"
#include "t.h"

static json_t *
j(const char *text)
{
	json_error_t e;
	json_t *o = json_loads(text, 0, &e);

	if (o == NULL)
		printf("# bad test JSON: %s\n", e.text);
	return o;
}

/* A daily-listing line as bundled (the real record of 2512.20345). */
static const char listing[] =
    "{\"id\": \"2512.20345\", \"categories\": [\"cs.SE\"], "
    "\"pdf\": \"https://arxiv.org/pdf/2512.20345\", "
    "\"abs\": \"https://arxiv.org/abs/2512.20345\", "
    "\"authors\": [\"Xiaoxue Ma\", \"Wanwei Zhan\", \"Jiale Chen\", "
    "\"Yishu Li\", \"Jacky Keung\", \"Federica Sarro\"], "
    "\"title\": \"A Comprehensive Study of Bugs in Modern Distributed Deep "
    "Learning Systems\", \"comment\": null, "
    "\"summary\": \"In today's data-driven era, deep learning is vital.\\n"
    "Results show that 45.1\\\\% of bug symptoms ...\", "
    "\"_listing_date\": \"2025-12-24\", "
    "\"_source\": \"AntiO2/daily-arXiv-ai-enhanced@d338b0ee6ff8:data/"
    "2025-12-24.jsonl\"}";

/* A Kaggle snapshot line (0704.0001, abstract shortened). */
static const char kaggle[] =
    "{\"id\":\"0704.0001\",\"submitter\":\"Pavel Nadolsky\","
    "\"authors\":\"C. Bal\\\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. "
    "Yuan\",\"title\":\"Calculation of prompt diphoton production cross "
    "sections at Tevatron and\\n  LHC energies\","
    "\"comments\":\"37 pages, 15 figures; published version\","
    "\"journal-ref\":\"Phys.Rev.D76:013009,2007\","
    "\"doi\":\"10.1103/PhysRevD.76.013009\",\"report-no\":"
    "\"ANL-HEP-PR-07-12\",\"categories\":\"hep-ph\",\"license\":null,"
    "\"abstract\":\"  A fully differential calculation in perturbative "
    "quantum chromodynamics is\\npresented.\\n\","
    "\"versions\":[{\"version\":\"v1\",\"created\":\"Mon, 2 Apr 2007 "
    "19:18:42 GMT\"},{\"version\":\"v2\",\"created\":\"Tue, 24 Jul 2007 "
    "20:10:27 GMT\"}],\"update_date\":\"2008-11-26\","
    "\"authors_parsed\":[[\"Bal\\u00e1zs\",\"C.\",\"\"],[\"Berger\","
    "\"E. L.\",\"\"],[\"Nadolsky\",\"P. M.\",\"\"],[\"Yuan\",\"C. -P.\","
    "\"\"],[\"G\\\\\\\"odel\",\"Kurt\",\"Jr\"]]}";

/* A ROR v2 record (000025p04 from the bundled dump). */
static const char ror[] =
    "{\"admin\":{\"created\":{\"date\":\"2023-03-16\",\"schema_version\":"
    "\"1.0\"}},\"domains\":[],\"established\":2019,\"external_ids\":[],"
    "\"id\":\"https://ror.org/000025p04\",\"links\":[{\"type\":"
    "\"wikipedia\",\"value\":\"https://en.wikipedia.org/x\"},{\"type\":"
    "\"website\",\"value\":\"https://www.tsri.or.th\"}],\"locations\":"
    "[{\"geonames_details\":{\"continent_code\":\"AS\",\"country_code\":"
    "\"TH\",\"country_name\":\"Thailand\",\"name\":\"Bangkok\"},"
    "\"geonames_id\":1609350}],\"names\":[{\"lang\":null,\"types\":"
    "[\"acronym\"],\"value\":\"TSRI\"},{\"lang\":\"en\",\"types\":"
    "[\"ror_display\",\"label\"],\"value\":\"Thailand Science Research "
    "and Innovation\"},{\"lang\":\"th\",\"types\":[\"label\"],\"value\":"
    "\"\\u0e2a\\u0e33\\u0e19\\u0e31\\u0e01\"}],\"relationships\":[],"
    "\"status\":\"active\",\"types\":[\"funder\",\"government\"]}";

/* An OpenAlex author, trimmed from A5023888391. */
static const char oa_author[] =
    "{\"id\":\"https://openalex.org/A5023888391\",\"orcid\":"
    "\"https://orcid.org/0000-0001-6187-6610\",\"display_name\":\"Jason "
    "Priem\",\"works_count\":62,\"cited_by_count\":3984,\"summary_stats\":"
    "{\"2yr_mean_citedness\":6,\"h_index\":17,\"i10_index\":20},"
    "\"affiliations\":[{\"institution\":{\"id\":"
    "\"https://openalex.org/I4200000001\",\"ror\":"
    "\"https://ror.org/02nr0ka47\",\"display_name\":\"OpenAlex\","
    "\"country_code\":\"CA\",\"type\":\"nonprofit\"},\"years\":[2023,"
    "2022,2021,2019]},{\"institution\":{\"id\":"
    "\"https://openalex.org/I114027177\",\"ror\":"
    "\"https://ror.org/0130frc33\",\"display_name\":\"University of North "
    "Carolina at Chapel Hill\",\"country_code\":\"US\",\"type\":"
    "\"funder\"},\"years\":[2014,2013,2010]}],"
    "\"last_known_institutions\":[{\"id\":"
    "\"https://openalex.org/I4200000001\",\"ror\":"
    "\"https://ror.org/02nr0ka47\",\"display_name\":\"OpenAlex\","
    "\"country_code\":\"CA\",\"type\":\"nonprofit\"}]}";

static const char oa_inst[] =
    "{\"id\":\"https://openalex.org/I114027177\",\"ror\":"
    "\"https://ror.org/0130frc33\",\"display_name\":\"University of North "
    "Carolina at Chapel Hill\",\"country_code\":\"US\",\"type\":\"funder\","
    "\"homepage_url\":\"https://www.unc.edu\",\"display_name_acronyms\":"
    "[\"UNC\"],\"display_name_alternatives\":[\"UNC-Chapel Hill\"],"
    "\"geo\":{\"city\":\"Chapel Hill\",\"country\":\"United States\"}}";

/* text parsed into p (zeroed first), which must succeed; the JSON. */
static json_t *
parse_ok(const char *text, struct harvest_paper *p, const char *what)
{
	const char *why = NULL;
	json_t *o = j(text);

	memset(p, 0, sizeof(*p));
	T_EQ(harvest_paper_parse(o, p, &why), CORE_OK, what);
	return o;
}

static void
listing_paper(void)
{
	struct harvest_paper p;
	json_t *o = parse_ok(listing, &p, "listing parses");

	T_EQ(p.shape, HARVEST_SHAPE_LISTING, "listing shape detected");
	T_STREQ(p.arxiv_id, "2512.20345", "listing id");
	T_STREQ(p.title,
	    "A Comprehensive Study of Bugs in Modern "
	    "Distributed Deep Learning Systems",
	    "listing title");
	T_STREQ(p.slug,
	    "a-comprehensive-study-of-bugs-in-modern-"
	    "distributed-deep-learning-systems",
	    "listing slug");
	T_CONTAINS(p.abstract, "45.1\\%", "abstract kept verbatim");
	T_OK(p.comment == NULL, "null comment is NULL");
	T_STREQ(p.categories, "[\"cs.SE\"]", "categories as JSON");
	T_STREQ(p.primary, "cs.SE", "primary category");
	T_STREQ(p.published, "2025-12-24", "published = listing date");
	T_STREQ(p.updated, "2025-12-24", "updated = listing date");
	T_STREQ(p.versions, "[]", "no versions known");
	T_OK(p.doi == NULL && p.journal_ref == NULL && p.license == NULL,
	    "no DOI, journal ref or licence");
	T_STREQ(p.source, "arxiv-listing", "source");
	T_EQ(p.nauthors, 6, "six authors");
	if (p.nauthors == 6) {
		T_STREQ(p.authors[0], "Xiaoxue Ma", "first author");
		T_STREQ(p.authors[5], "Federica Sarro", "last author");
	}
	harvest_paper_free(&p);
	json_decref(o);
}

/*
 * An OpenAlex work as bundled (sql/data/openalex_works.jsonl.gz), the
 * DataCite record of 1305.3328, trimmed to the members read; values as
 * recorded (the abstract's index shortened to its first words).
 */
static const char oa_work[] =
    "{\"id\": \"https://openalex.org/W4301303362\", "
    "\"doi\": \"https://doi.org/10.48550/arxiv.1305.3328\", "
    "\"title\": \"Riding the crest of the altmetrics wave: How librarians "
    "can help prepare faculty for the next generation of research impact "
    "metrics\", \"publication_date\": \"2013-01-01\", "
    "\"ids\": {\"openalex\": \"https://openalex.org/W4301303362\", "
    "\"doi\": \"https://doi.org/10.48550/arxiv.1305.3328\"}, "
    "\"cited_by_count\": 0, "
    "\"abstract_inverted_index\": {\"As\": [0], \"scholars\": [1], "
    "\"migrate\": [2]}, "
    "\"authorships\": [{\"author\": {\"id\": "
    "\"https://openalex.org/A5089455644\", \"display_name\": "
    "\"Scott Lapinski\"}, \"raw_author_name\": \"Lapinski, Scott\"}, "
    "{\"author\": {\"id\": \"https://openalex.org/A5048491430\", "
    "\"display_name\": \"Heather Piwowar\"}}]}";

static void
openalex_paper(void)
{
	struct harvest_paper p;
	const char *why = NULL;
	json_t *o = parse_ok(oa_work, &p, "openalex work parses");

	T_STREQ(p.arxiv_id, "1305.3328", "arXiv id from the DataCite DOI");
	T_STREQ(p.source, "openalex", "source");
	T_STREQ(p.categories, "[]", "no categories invented");
	T_STREQ(p.primary, "", "no primary category invented");
	T_STREQ(p.published, "2013-01-01", "publication date");
	T_STREQ(p.abstract, "As scholars migrate", "abstract from its index");
	T_OK(p.doi == NULL, "the arXiv DOI is not the work's DOI");
	T_EQ(p.nauthors, 2, "two authors");
	if (p.nauthors == 2) {
		T_STREQ(p.authors[0], "Lapinski, Scott", "raw author name");
		T_STREQ(p.authors[1], "Heather Piwowar",
		    "display name without a raw one");
	}
	harvest_paper_free(&p);
	json_decref(o);
	/* Crossref's inline markup in a title: the tags go, text stays. */
	o = parse_ok("{\"id\": \"https://openalex.org/W2\", \"doi\": "
		     "\"https://doi.org/10.48550/arxiv.1406.5823\", "
		     "\"title\": \"Fitting Linear Mixed-Effects Models "
		     "Using<b>lme4</b> for CO<sub>2</sub>\", "
		     "\"authorships\": [{\"author\": {\"display_name\": "
		     "\"Douglas Bates\"}}]}",
	    &p, "a work with markup in its title parses");
	T_STREQ(p.title,
	    "Fitting Linear Mixed-Effects Models Using lme4 for CO2",
	    "tags stripped, the lost space back, sub joined");
	T_OK(strstr(p.slug, "using-lme4-for-co2") != NULL, p.slug);
	harvest_paper_free(&p);
	json_decref(o);
	/* A work without an arXiv id is no paper here. */
	o = j("{\"id\": \"https://openalex.org/W1\", \"title\": \"x\", "
	      "\"authorships\": []}");
	memset(&p, 0, sizeof(p));
	T_EQ(harvest_paper_parse(o, &p, &why), CORE_EINPUT,
	    "a work without an arXiv id is refused");
	json_decref(o);
}

static void
kaggle_paper(void)
{
	struct harvest_paper p;
	json_t *o = parse_ok(kaggle, &p, "kaggle parses");

	T_EQ(p.shape, HARVEST_SHAPE_KAGGLE, "kaggle shape detected");
	T_STREQ(p.arxiv_id, "0704.0001", "kaggle id");
	T_STREQ(p.title,
	    "Calculation of prompt diphoton production cross "
	    "sections at Tevatron and LHC energies",
	    "title line break folded");
	T_STREQ(p.abstract,
	    "A fully differential calculation in perturbative "
	    "quantum chromodynamics is\npresented.",
	    "abstract trimmed");
	T_STREQ(p.comment, "37 pages, 15 figures; published version",
	    "comments");
	T_STREQ(p.doi, "10.1103/PhysRevD.76.013009", "doi");
	T_STREQ(p.journal_ref, "Phys.Rev.D76:013009,2007", "journal-ref");
	T_OK(p.license == NULL, "null licence");
	T_STREQ(p.categories, "[\"hep-ph\"]", "space-separated categories");
	T_STREQ(p.published, "2007-04-02", "published = v1 date");
	T_STREQ(p.updated, "2007-07-24", "updated = last version date");
	T_STREQ(p.versions,
	    "[{\"version\":1,\"date\":\"2007-04-02\"},"
	    "{\"version\":2,\"date\":\"2007-07-24\"}]",
	    "versions JSON");
	T_STREQ(p.source, "kaggle", "source");
	T_EQ(p.nauthors, 5, "five authors");
	if (p.nauthors == 5) {
		T_STREQ(p.authors[0], "C. Balázs", "First Last");
		T_STREQ(p.authors[3], "C. -P. Yuan", "initials kept");
		T_STREQ(p.authors[4], "Kurt Gödel Jr", "TeX accent, suffix");
	}
	harvest_paper_free(&p);
	json_decref(o);
}

static void
refused(const char *text, const char *what)
{
	struct harvest_paper p;
	const char *why = NULL;
	json_t *o = j(text);

	memset(&p, 0, sizeof(p));
	T_EQ(harvest_paper_parse(o, &p, &why), CORE_EINPUT, what);
	T_OK(why != NULL && p.arxiv_id == NULL && p.nauthors == 0,
	    "refused with a reason, nothing kept");
	json_decref(o);
}

static void
bad_papers(void)
{
	refused("[1]", "not an object");
	refused("{\"id\":\"2512.20345\",\"title\":\"x\"}", "no authors");
	refused("{\"id\":\"nope\",\"title\":\"x\",\"categories\":[\"cs.SE\"],"
		"\"authors\":[\"A B\"]}",
	    "bad id");
	refused("{\"id\":\"2512.20345\",\"title\":\"  \",\"categories\":"
		"[\"cs.SE\"],\"authors\":[\"A B\"]}",
	    "blank title");
	refused("{\"id\":\"2512.20345\",\"title\":\"T\",\"categories\":[],"
		"\"authors\":[\"A B\"]}",
	    "no categories");
	refused("{\"id\":\"2512.20345\",\"title\":\"T\",\"categories\":"
		"[\"cs.SE\"],\"authors\":[\"A B\", 7]}",
	    "author not a string");
	refused("{\"id\":\"2512.20345\",\"title\":\"T\",\"categories\":"
		"[\"cs.SE\"],\"authors\":[\"A "
		"B\"],\"_listing_date\":\"24.12.\"}",
	    "bad listing date");
	refused("{\"id\":\"0704.0001\",\"title\":\"T\",\"categories\":"
		"\"hep-ph\",\"authors_parsed\":[[\"A\",\"B\",\"\"]],"
		"\"versions\":"
		"[{\"version\":\"v1\",\"created\":\"yesterday\"}]}",
	    "bad version date");
}

static void
ror_record(void)
{
	struct harvest_inst in;
	const char *why = NULL;
	json_t *o = j(ror);

	memset(&in, 0, sizeof(in));
	T_EQ(harvest_ror_parse(o, &in, &why), CORE_OK, "ROR parses");
	T_STREQ(in.ror_id, "000025p04", "ror id = last path part");
	T_OK(in.openalex_id == NULL, "no OpenAlex id from ROR");
	T_STREQ(in.name, "Thailand Science Research and Innovation",
	    "ror_display name");
	T_STREQ(in.slug, "thailand-science-research-and-innovation", "slug");
	T_STREQ(in.aliases,
	    "[\"TSRI\",\"\xe0\xb8\xaa\xe0\xb8\xb3\xe0\xb8\x99"
	    "\xe0\xb8\xb1\xe0\xb8\x81\"]",
	    "acronym and other label as aliases");
	T_STREQ(in.country_code, "TH", "country code");
	T_STREQ(in.country_name, "Thailand", "country name");
	T_STREQ(in.type, "funder", "types[0]");
	T_STREQ(in.status, "active", "status");
	T_STREQ(in.website, "https://www.tsri.or.th", "website link");
	T_STREQ(in.established, "2019", "established");
	harvest_inst_free(&in);
	json_decref(o);

	o = j("{\"id\":\"https://ror.org/x\",\"names\":[{\"types\":"
	      "[\"label\"],\"value\":\"L\"}]}");
	memset(&in, 0, sizeof(in));
	T_EQ(harvest_ror_parse(o, &in, &why), CORE_EINPUT,
	    "ROR without ror_display refused");
	T_OK(in.ror_id == NULL, "nothing kept");
	json_decref(o);
}

static void
openalex_inst(void)
{
	struct harvest_inst in;
	const char *why = NULL;
	json_t *o = j(oa_inst);

	memset(&in, 0, sizeof(in));
	T_EQ(harvest_oa_inst_parse(o, &in, &why), CORE_OK,
	    "OpenAlex institution parses");
	T_STREQ(in.openalex_id, "I114027177", "openalex id");
	T_STREQ(in.ror_id, "0130frc33", "its ROR id");
	T_STREQ(in.aliases, "[\"UNC-Chapel Hill\",\"UNC\"]", "aliases");
	T_STREQ(in.country_name, "United States", "country from geo");
	T_STREQ(in.website, "https://www.unc.edu", "homepage");
	T_OK(in.established == NULL && in.status == NULL, "unknowns NULL");
	harvest_inst_free(&in);
	json_decref(o);
}

static void
openalex_author(void)
{
	struct harvest_author a;
	const char *why = NULL;
	json_t *o = j(oa_author);

	memset(&a, 0, sizeof(a));
	T_EQ(harvest_oa_author_parse(o, &a, &why), CORE_OK,
	    "OpenAlex author parses");
	T_STREQ(a.openalex_id, "A5023888391", "openalex id");
	T_STREQ(a.name, "Jason Priem", "display name");
	T_STREQ(a.name_key, "jason priem", "name key");
	T_STREQ(a.slug, "jason-priem", "slug");
	T_STREQ(a.orcid, "0000-0001-6187-6610", "bare ORCID");
	T_STREQ(a.h_index, "17", "h-index");
	T_STREQ(a.citations, "3984", "citations");
	T_STREQ(a.works_count, "62", "works");
	T_EQ(a.naffils, 2, "two institutions");
	if (a.naffils == 2) {
		T_STREQ(a.affils[0].ror_id, "02nr0ka47", "first by ROR id");
		T_STREQ(a.affils[0].openalex_id, "I4200000001",
		    "with its I id");
		T_EQ(a.affils[0].last_known, 1, "last known");
		T_EQ(a.affils[0].first_year, 2019, "first year");
		T_EQ(a.affils[0].last_year, 2023, "last year");
		T_STREQ(a.affils[1].name,
		    "University of North Carolina at "
		    "Chapel Hill",
		    "second");
		T_EQ(a.affils[1].last_known, 0, "not last known");
		T_EQ(a.affils[1].first_year, 2010, "first year 2");
	}
	harvest_author_free(&a);
	json_decref(o);

	/* Unknown metrics stay unknown, never 0; a bad ORCID is dropped. */
	o = j("{\"id\":\"https://openalex.org/A1\",\"display_name\":\"X Y\","
	      "\"orcid\":\"https://orcid.org/1234\"}");
	memset(&a, 0, sizeof(a));
	T_EQ(harvest_oa_author_parse(o, &a, &why), CORE_OK, "sparse author");
	T_OK(a.h_index == NULL && a.citations == NULL && a.works_count == NULL,
	    "missing metrics are NULL");
	T_OK(a.orcid == NULL, "malformed ORCID dropped");
	T_EQ(a.deleted, 0, "a real author is not deleted");
	harvest_author_free(&a);
	json_decref(o);

	/* OpenAlex's placeholder for a removed or merged profile (the real
	 * answer for A5092938886). */
	o = j("{\"id\":\"https://openalex.org/A5317838346\",\"orcid\":null,"
	      "\"display_name\":\"Deleted Author ID\",\"works_count\":0}");
	memset(&a, 0, sizeof(a));
	T_EQ(harvest_oa_author_parse(o, &a, &why), CORE_OK, "deleted author");
	T_EQ(a.deleted, 1, "marked deleted");
	T_OK(why != NULL && strstr(why, "Deleted Author") != NULL,
	    "why says so");
	harvest_author_free(&a);
	json_decref(o);
}

/*
 * MSC and ACM class codes leave the categories (the real category lists
 * of 2503.11954 and 2503.13008 in the bundled listings).
 */
static void
class_codes(void)
{
	struct harvest_paper p;
	const char *why = NULL;
	json_t *o, *l, *c;
	char *t;

	l = j("[\"eess.IV\", \"cs.AI\", \"cs.CV\", \"cs.IT\", \"cs.LG\", "
	      "\"math.IT\", \"94A29, 94A08, 94B05, 68T01, 68P30\", "
	      "\"I.4.2; E.4; I.2.10; I.5.4; I.5.1; I.4.1\"]");
	c = harvest_class_codes(l);
	t = json_dumps(l, JSON_COMPACT);
	T_STREQ(t,
	    "[\"eess.IV\",\"cs.AI\",\"cs.CV\",\"cs.IT\",\"cs.LG\","
	    "\"math.IT\"]",
	    "arXiv categories stay, in order");
	free(t);
	t = json_dumps(c, JSON_COMPACT);
	T_STREQ(t,
	    "[\"94A29\",\"94A08\",\"94B05\",\"68T01\",\"68P30\","
	    "\"I.4.2\",\"E.4\",\"I.2.10\",\"I.5.4\",\"I.5.1\","
	    "\"I.4.1\"]",
	    "class codes split, in order");
	free(t);
	json_decref(l);
	json_decref(c);
	l = j("[\"cond-mat.stat-mech\", \"hep-ex\", \"astro-ph.CO\", "
	      "\"q-bio.QM\", \"68\", \"I.2.7\", \"\\n  I.4.6, 68T50\", "
	      "\"I.2.7\", \"Cs.AI\", \"cs.\", \"cs..AI\"]");
	c = harvest_class_codes(l);
	T_EQ(json_array_size(l), 4, "hyphenated archives are categories");
	t = json_dumps(c, JSON_COMPACT);
	T_STREQ(t,
	    "[\"68\",\"I.2.7\",\"I.4.6\",\"68T50\",\"Cs.AI\","
	    "\"cs.\",\"cs..AI\"]",
	    "trimmed, once each, odd names out");
	free(t);
	json_decref(l);
	json_decref(c);

	o = j("{\"id\": \"2503.13008\", \"categories\": [\"cs.LG\", "
	      "\"cs.CV\", \"68T05, 68T07\", \"I.2.6; I.4.2; I.4.9\"], "
	      "\"authors\": [\"A B\"], \"title\": \"T\", "
	      "\"summary\": \"S\", \"_listing_date\": \"2025-03-18\"}");
	memset(&p, 0, sizeof(p));
	T_EQ(harvest_paper_parse(o, &p, &why), CORE_OK, "listing with codes");
	T_STREQ(p.categories, "[\"cs.LG\",\"cs.CV\"]",
	    "listing: categories only arXiv's");
	T_STREQ(p.class_codes,
	    "[\"68T05\",\"68T07\",\"I.2.6\",\"I.4.2\",\"I.4.9\"]",
	    "listing: class codes in their own field");
	T_STREQ(p.primary, "cs.LG", "listing: primary");
	harvest_paper_free(&p);
	json_decref(o);
}

static void
copy_rows(void)
{
	struct core_buf b = CORE_BUF_INIT;
	char date[11];

	harvest_copy_row(&b,
	    (const char *const[]){ "a\tb", NULL, "back\\slash", "line\nfeed\r",
		"" },
	    5);
	T_STREQ(core_buf_cstr(&b),
	    "a\\tb\t\\N\tback\\\\slash\tline\\nfeed\\r\t\n", "COPY escaping");
	core_buf_free(&b);

	T_EQ(harvest_rfc2822_date("Mon, 2 Apr 2007 19:18:42 GMT", date), 0,
	    "RFC 2822 date");
	T_STREQ(date, "2007-04-02", "date part");
	T_EQ(harvest_rfc2822_date("24 Dec 2025 00:00:00 GMT", date), 0,
	    "without weekday");
	T_STREQ(date, "2025-12-24", "date part 2");
	T_EQ(harvest_rfc2822_date("Mon, 2 Foo 2007", date), -1, "bad month");
}

/* The real line of 2512.13961: the scraper split "Team Olmo: Allyson
 * Ettinger, ..." and left a lone ":" among the authors. */
static void
listing_punctuation(void)
{
	struct harvest_paper p;
	const char *why = NULL;
	json_t *o =
	    j("{\"id\": \"2512.13961\", \"categories\": "
	      "[\"cs.CL\", \"cs.LG\"], \"authors\": [\"Team Olmo\", "
	      "\":\", \"Allyson Ettinger\", \" , \", \"Amanda "
	      "Bertsch\"], \"title\": \"Olmo 3\", \"comment\": null, "
	      "\"summary\": \"We introduce Olmo 3.\", \"_listing_date\": "
	      "\"2025-12-17\"}");

	memset(&p, 0, sizeof(p));
	T_EQ(harvest_paper_parse(o, &p, &why), CORE_OK, "listing parses");
	T_EQ(p.nauthors, 3, "punctuation is no author");
	if (p.nauthors == 3) {
		T_STREQ(p.authors[0], "Team Olmo", "first author kept");
		T_STREQ(p.authors[1], "Allyson Ettinger", "the ':' dropped");
		T_STREQ(p.authors[2], "Amanda Bertsch", "the ',' dropped");
	}
	harvest_paper_free(&p);
	json_decref(o);
}

int
main(void)
{
	listing_paper();
	listing_punctuation();
	kaggle_paper();
	openalex_paper();
	bad_papers();
	ror_record();
	openalex_inst();
	openalex_author();
	copy_rows();
	class_codes();
	return T_DONE();
}
