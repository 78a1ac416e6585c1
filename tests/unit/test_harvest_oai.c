/*
 * test_harvest_oai.c -- harvest_oai_parse() on recorded OAI-PMH
 * responses (arXiv and oai_dc formats) and on broken ones.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"
#include "t.h"
#include "harvest_data.h"

static enum core_err
parse_str(const char *s, struct harvest_page *pg, char *why)
{
	return harvest_oai_parse(s, strlen(s), pg, why);
}

#define ENV_HEAD                                                               \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OAI-PMH xmlns=\""        \
	"http://www.openarchives.org/OAI/2.0/\"><responseDate>2024-01-27T17:"  \
	"53:42Z</responseDate><request verb=\"ListRecords\">http://export."    \
	"arxiv.org/oai2</request>"

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT, t = CORE_BUF_INIT;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN];
	json_t *p, *a;

	/* arXiv format: three records, no token. */
	T_OK(data_read("oai/hepcrawl_arxiv-physics-hep-ex.xml", &b) == 0,
	    "read hep-ex");
	T_EQ(harvest_oai_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse hep-ex");
	T_EQ(json_array_size(pg.papers), 3, "three papers");
	T_OK(pg.token == NULL, "no resumption token");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "1706.05371", "id");
	T_STREQ(jstr(p, "title"),
	    "Evaluation of Silicon Photomultipliers for "
	    "use as Photosensors in Liquid Xenon Detectors",
	    "title squashed");
	T_STREQ(jstr(p, "published"), "2017-06-16", "created");
	T_STREQ(jstr(p, "updated"), "2017-12-12", "updated");
	T_STREQ(jstr(p, "primary"), "physics.ins-det", "primary category");
	T_EQ(json_array_size(json_object_get(p, "categories")), 2,
	    "two categories");
	T_STREQ(jstr(p, "comment"), "10 pages, 9 figures", "comment");
	T_STREQ(jstr(p, "license"),
	    "http://arxiv.org/licenses/nonexclusive-distrib/1.0/", "license");
	T_OK(json_is_null(json_object_get(p, "doi")), "no doi");
	a = json_object_get(p, "authors");
	T_EQ(json_array_size(a), 13, "13 authors");
	T_STREQ(jstr(json_array_get(a, 0), "name"), "Tyler Anderson",
	    "forenames keyname");
	T_STREQ(jstr(json_array_get(a, 12), "name"), "Mani Tripathi",
	    "last author");
	T_OK(strncmp(jstr(p, "abstract"), "Silicon photomultipliers (SiPMs)",
		 31) == 0,
	    "abstract trimmed");
	T_STREQ(jstr(p, "source"), "arxiv-oai", "source");
	harvest_page_free(&pg);

	/* GetRecord with DOI and journal-ref. */
	T_OK(data_read("oai/hepcrawl_arxiv-single.xml", &b) == 0,
	    "read single");
	T_EQ(harvest_oai_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse single");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "1401.2122", "single id");
	T_STREQ(jstr(p, "doi"), "10.1007/s11005-017-1013-4", "doi");
	T_STREQ(jstr(p, "journal_ref"),
	    "Lett. Math. Phys. 108 (2018), no. 2, "
	    "359-376",
	    "journal-ref");
	T_STREQ(jstr(p, "primary"), "math.AP", "primary");
	T_EQ(json_array_size(json_object_get(p, "categories")), 6, "six cats");
	T_STREQ(jstr(json_array_get(json_object_get(p, "authors"), 0), "name"),
	    "A. Sergyeyev", "initial forename");
	harvest_page_free(&pg);

	/* oai_dc with a resumption token. */
	T_OK(data_read("oai/atomiklabs_ListRecords_oai_dc_cs_2024-01-25_with_"
		       "resumptionToken.xml",
		 &b) == 0,
	    "read oai_dc");
	T_EQ(harvest_oai_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse oai_dc");
	T_EQ(json_array_size(pg.papers), 5, "five records");
	T_STREQ(pg.token, "6960524|1001", "token");
	T_EQ(pg.cursor, 0, "cursor");
	T_EQ(pg.complete, 1162, "completeListSize");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "1303.2033", "dc id from identifier");
	T_STREQ(jstr(json_array_get(json_object_get(p, "authors"), 0), "name"),
	    "Vilnis Liepins", "Last, First reordered");
	T_STREQ(jstr(p, "primary"), "cs", "set as category");
	T_STREQ(jstr(p, "source"), "arxiv-oai-dc", "dc source");
	p = json_array_get(pg.papers, 4);
	T_STREQ(jstr(p, "arxiv_id"), "2401.14040", "last dc id");
	T_STREQ(jstr(p, "comment"), "Accepted to the Findings of EACL 2024",
	    "Comment: description");
	harvest_page_free(&pg);

	/* Deleted records, an empty token, the OAI errors. */
	T_EQ(parse_str(ENV_HEAD
		 "<ListRecords><record><header status=\"deleted"
		 "\"><identifier>oai:arXiv.org:math/0309136</"
		 "identifier><datestamp>"
		 "2024-01-01</datestamp></header></record><resumptionToken "
		 "cursor="
		 "\"1000\" completeListSize=\"1001\"/></ListRecords></OAI-PMH>",
		 &pg, why),
	    CORE_OK, "deleted record");
	T_EQ(json_array_size(pg.papers), 0, "no papers");
	T_STREQ(json_string_value(json_array_get(pg.deleted, 0)),
	    "math/0309136", "deleted id");
	T_OK(pg.token == NULL, "empty token: last page");
	T_EQ(pg.cursor, 1000, "cursor on the last page");
	harvest_page_free(&pg);
	T_EQ(parse_str(ENV_HEAD "<error code=\"noRecordsMatch\">none</error>"
				"</OAI-PMH>",
		 &pg, why),
	    CORE_OK, "noRecordsMatch is empty");
	T_OK(pg.no_match && json_array_size(pg.papers) == 0, "no_match set");
	harvest_page_free(&pg);
	T_EQ(parse_str(ENV_HEAD "<error code=\"badResumptionToken\">The value "
				"of the resumptionToken argument is invalid or "
				"expired.</error>"
				"</OAI-PMH>",
		 &pg, why),
	    CORE_EUPSTREAM, "badResumptionToken");
	T_CONTAINS(why, "badResumptionToken", "error code in why");
	T_OK(pg.papers == NULL, "nothing kept on error");

	/* Hostile and broken input: each refused as a whole. */
	core_buf_reset(&t);
	core_buf_put(&t, b.ptr, b.len / 2);
	T_EQ(harvest_oai_parse(t.ptr, t.len, &pg, why), CORE_EINPUT,
	    "truncated XML");
	T_CONTAINS(why, "not well-formed XML", "truncated: why");
	T_EQ(parse_str("<!DOCTYPE html><html><body><h1>503 Service "
		       "Unavailable</h1></body></html>",
		 &pg, why),
	    CORE_EINPUT, "HTML page");
	T_CONTAINS(why, "HTML page", "HTML: why");
	T_EQ(parse_str("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaa"
		       "\"><!ENTITY b \"&a;&a;&a;&a;\">]><OAI-PMH "
		       "xmlns=\"http://www."
		       "openarchives.org/OAI/2.0/\">&b;</OAI-PMH>",
		 &pg, why),
	    CORE_EINPUT, "entity bomb refused");
	T_CONTAINS(why, "DOCTYPE", "DOCTYPE: why");
	T_EQ(parse_str("<?xml version=\"1.0\"?><!DOCTYPE x SYSTEM \"file:///"
		       "etc/passwd\"><x/>",
		 &pg, why),
	    CORE_EINPUT, "external DTD refused");
	T_EQ(parse_str("", &pg, why), CORE_EINPUT, "empty");
	T_EQ(parse_str("{\"json\": true}", &pg, why), CORE_EINPUT, "JSON");
	T_EQ(parse_str("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>", &pg,
		 why),
	    CORE_EINPUT, "wrong root");
	T_EQ(parse_str(ENV_HEAD
		 "<ListRecords><record><header><identifier>"
		 "oai:arXiv.org:1706.05371</identifier></"
		 "header><metadata><arXiv "
		 "xmlns=\"http://arxiv.org/OAI/arXiv/\"><id>1706.05371</"
		 "id><created>"
		 "2017-02-30</created><title>x</title><categories>cs.SE</"
		 "categories>"
		 "</arXiv></metadata></record></ListRecords></OAI-PMH>",
		 &pg, why),
	    CORE_EINPUT, "impossible date refused");
	T_EQ(parse_str(ENV_HEAD
		 "<ListRecords><record><header><identifier>"
		 "oai:arXiv.org:junk</identifier></header><metadata><arXiv "
		 "xmlns=\"http://arxiv.org/OAI/arXiv/\"><id>junk</id></arXiv>"
		 "</metadata></record></ListRecords></OAI-PMH>",
		 &pg, why),
	    CORE_EINPUT, "bad id refused");

	core_buf_free(&b);
	core_buf_free(&t);
	return T_DONE();
}
