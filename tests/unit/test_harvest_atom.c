/*
 * test_harvest_atom.c -- harvest_atom_parse() on recorded arXiv API
 * responses, 2016 and 2025+ formats, and on the API's error entry.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/remote.h"
#include "t.h"
#include "harvest_data.h"

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct harvest_page pg;
	char why[HARVEST_WHY_LEN];
	json_t *p, *a;
	const char *err;

	/* 2016: namespaces on each element; versioned id. */
	T_OK(data_read("atom/id_list_1111.2011v2.xml", &b) == 0, "read 2016");
	T_EQ(harvest_atom_parse(b.ptr, b.len, &pg, why), CORE_OK, "parse 2016");
	T_EQ(pg.total, 1, "totalResults");
	T_EQ(pg.start, 0, "startIndex");
	T_EQ(pg.per_page, 10, "itemsPerPage");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "1111.2011", "id without version");
	T_EQ(json_integer_value(json_object_get(p, "version")), 2, "version");
	T_STREQ(jstr(p, "published"), "2011-11-08", "published");
	T_STREQ(jstr(p, "updated"), "2012-04-02", "updated");
	T_EQ(json_array_size(json_object_get(p, "versions")), 2,
	    "v1 and v2 dates");
	T_STREQ(jstr(p, "doi"), "10.1103/PhysRevB.85.115117", "doi");
	T_STREQ(jstr(p, "journal_ref"), "Phys. Rev. B 85, 115117 (2012)",
	    "journal ref");
	T_STREQ(jstr(p, "comment"), "8 pages, 3 figures. Published version",
	    "comment");
	T_STREQ(jstr(p, "primary"), "cond-mat.str-el", "primary");
	T_EQ(json_array_size(json_object_get(p, "categories")), 2,
	    "primary not repeated");
	T_STREQ(jstr(p, "title"),
	    "Quantum Criticality for Extended Nodes on a "
	    "Bethe Lattice in the Large Connectivity Limit",
	    "title squashed");
	a = json_object_get(p, "authors");
	T_EQ(json_array_size(a), 3, "three authors");
	T_STREQ(jstr(json_array_get(a, 1), "name"), "Adrian Del Maestro",
	    "author name");
	harvest_page_free(&pg);

	/* 2025+: old-style id with affiliations. */
	T_OK(data_read("atom/id_astro-ph_0601001_s0_m100_3150dca9dc76.body.xml",
		 &b) == 0,
	    "read 2026 old-style");
	T_EQ(harvest_atom_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse old-style");
	p = json_array_get(pg.papers, 0);
	T_STREQ(jstr(p, "arxiv_id"), "astro-ph/0601001", "old-style id");
	T_EQ(json_integer_value(json_object_get(p, "version")), 1, "v1");
	T_STREQ(jstr(p, "journal_ref"), "ActaAstron.56:1-50,2006", "journal");
	a = json_array_get(json_object_get(p, "authors"), 2);
	T_STREQ(jstr(a, "name"), "B. Scott Gaudi", "third author");
	T_STREQ(json_string_value(
		    json_array_get(json_object_get(a, "affiliations"), 0)),
	    "CfA", "affiliation");
	T_OK(strstr(jstr(p, "abstract"), "Gould & Morgan (2003)") != NULL,
	    "entities in the abstract decoded");
	harvest_page_free(&pg);

	/* Paging: totals and ten entries a page. */
	T_OK(data_read("atom/q_testing_s10_m10_34e56e15aaac.body.xml", &b) == 0,
	    "read page 2");
	T_EQ(harvest_atom_parse(b.ptr, b.len, &pg, why), CORE_OK, "parse page");
	T_EQ(pg.total, 214881, "total");
	T_EQ(pg.start, 10, "start");
	T_EQ(json_array_size(pg.papers), 10, "ten entries");
	harvest_page_free(&pg);

	/* No such id: an empty feed, not an error. */
	T_OK(data_read("atom/id_0000.0000_s0_m100_8b51d9633a68.body.xml", &b) ==
		0,
	    "read empty");
	T_EQ(harvest_atom_parse(b.ptr, b.len, &pg, why), CORE_OK,
	    "parse empty");
	T_EQ(pg.total, 0, "zero total");
	T_EQ(json_array_size(pg.papers), 0, "no entries");
	harvest_page_free(&pg);

	/* The API's error entry (the documented shape). */
	err =
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http:"
	    "//www.w3.org/2005/Atom\" xmlns:opensearch=\"http://a9.com/-/spec/"
	    "opensearch/1.1/\"><title>ArXiv Query: id_list=1234.12345</title>"
	    "<opensearch:totalResults>1</opensearch:totalResults><entry><id>"
	    "http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345"
	    "</id><title>Error</title><summary>incorrect id format for "
	    "1234.12345</summary></entry></feed>";
	T_EQ(harvest_atom_parse(err, strlen(err), &pg, why), CORE_EUPSTREAM,
	    "error entry");
	T_CONTAINS(why, "incorrect id format for 1234.12345", "message");

	/* Broken: truncated, HTML, no totals. */
	T_OK(data_read("atom/q_testing_s0_m10_bc5a6c384fe9.body.xml", &b) == 0,
	    "read page 1");
	T_EQ(harvest_atom_parse(b.ptr, b.len - 200, &pg, why), CORE_EINPUT,
	    "truncated feed");
	err = "<html><head><title>502 Bad Gateway</title></head></html>";
	T_EQ(harvest_atom_parse(err, strlen(err), &pg, why), CORE_EINPUT,
	    "HTML");
	T_CONTAINS(why, "HTML", "HTML why");
	err = "<feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>";
	T_EQ(harvest_atom_parse(err, strlen(err), &pg, why), CORE_EINPUT,
	    "no totals");

	/* Fuzzer find: the "not XML" message read past an unterminated
	 * buffer (ASan in SAN=1 builds catches a regression). */
	{
		char *heap = malloc(15);
		memcpy(heap, "plain text here", 15);
		T_EQ(harvest_atom_parse(heap, 15, &pg, why), CORE_EINPUT,
		    "unterminated non-XML");
		T_CONTAINS(why, "not XML", "not XML why");
		free(heap);
	}

	core_buf_free(&b);
	return T_DONE();
}
