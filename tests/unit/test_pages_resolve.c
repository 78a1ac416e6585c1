/*
 * test_pages_resolve.c -- identifiers typed where a page is expected
 * (modules/pages/resolve.c): which queries and researcher path segments
 * are an arXiv id, a DOI, an ORCID, an OpenAlex or S2 id, and which are
 * ordinary words.
 */
#include <string.h>

#include "t.h"
#include "core.h"
#include "../../modules/pages/pages.h"

static void
query(const char *q, enum pages_ident_kind kind, const char *value)
{
	struct pages_ident id;
	char what[512];
	int r = pages_ident_query(q, &id);

	snprintf(what, sizeof(what), "query \"%s\"", q);
	T_EQ(r, kind != PAGES_IDENT_NONE, what);
	T_EQ(id.kind, kind, what);
	if (kind != PAGES_IDENT_NONE)
		T_STREQ(id.value, value, what);
}

static void
path(const char *rest, enum pages_ident_kind kind, const char *value)
{
	struct pages_ident id;
	char what[512];
	int r = pages_ident_researcher(rest, &id);

	snprintf(what, sizeof(what), "path \"%s\"", rest);
	T_EQ(r, kind != PAGES_IDENT_NONE, what);
	T_EQ(id.kind, kind, what);
	if (kind != PAGES_IDENT_NONE)
		T_STREQ(id.value, value, what);
}

int
main(void)
{
	/* arXiv ids, every form people paste. */
	query("2512.20345", PAGES_IDENT_ARXIV, "2512.20345");
	query("  2512.20345v2 ", PAGES_IDENT_ARXIV, "2512.20345");
	query("arXiv:2512.20345", PAGES_IDENT_ARXIV, "2512.20345");
	query("ARXIV:2512.20345v1", PAGES_IDENT_ARXIV, "2512.20345");
	query("https://arxiv.org/abs/2512.20345v3", PAGES_IDENT_ARXIV,
	    "2512.20345");
	query("http://arxiv.org/pdf/2512.20345.pdf", PAGES_IDENT_ARXIV,
	    "2512.20345");
	query("hep-th/9901001", PAGES_IDENT_ARXIV, "hep-th/9901001");
	query("math.GT/0309136v2", PAGES_IDENT_ARXIV, "math.GT/0309136");
	query("0704.0001", PAGES_IDENT_ARXIV, "0704.0001");
	/* DOIs: arXiv's own name the paper; others are looked up. */
	query("10.48550/arXiv.2512.20345", PAGES_IDENT_ARXIV, "2512.20345");
	query("https://doi.org/10.48550/ARXIV.2108.04680", PAGES_IDENT_ARXIV,
	    "2108.04680");
	query("10.1145/3597503.3639187", PAGES_IDENT_DOI,
	    "10.1145/3597503.3639187");
	query("doi:10.1103/PhysRevD.76.013009", PAGES_IDENT_DOI,
	    "10.1103/PhysRevD.76.013009");
	query("https://dx.doi.org/10.1016/j.jss.2024.112001", PAGES_IDENT_DOI,
	    "10.1016/j.jss.2024.112001");
	/* ORCIDs, their check character right. */
	query("0000-0002-1825-0097", PAGES_IDENT_ORCID, "0000-0002-1825-0097");
	query("https://orcid.org/0000-0001-5109-3700", PAGES_IDENT_ORCID,
	    "0000-0001-5109-3700");
	query("orcid:0000-0002-1694-233x", PAGES_IDENT_ORCID,
	    "0000-0002-1694-233X");
	/* Words, near misses and hostile input stay a search. */
	query("", PAGES_IDENT_NONE, NULL);
	query("graph databases", PAGES_IDENT_NONE, NULL);
	query("2512.20345 bugs", PAGES_IDENT_NONE, NULL);
	query("0000-0002-1825-0098", PAGES_IDENT_NONE, NULL);
	query("0000-0002-1825-009", PAGES_IDENT_NONE, NULL);
	query("10.1/x", PAGES_IDENT_NONE, NULL);
	query("10.1145/ with space", PAGES_IDENT_NONE, NULL);
	query("10.1145/", PAGES_IDENT_NONE, NULL);
	query("https://example.org/2512.20345", PAGES_IDENT_NONE, NULL);
	query("https://doi.org/not-a-doi", PAGES_IDENT_NONE, NULL);
	query("<script>2512.20345", PAGES_IDENT_NONE, NULL);
	query("1999", PAGES_IDENT_NONE, NULL);
	/* Researcher paths. */
	path("0000-0002-1825-0097", PAGES_IDENT_ORCID, "0000-0002-1825-0097");
	path("openalex:A5023888391", PAGES_IDENT_OPENALEX, "A5023888391");
	path("openalex:a5023888391", PAGES_IDENT_OPENALEX, "A5023888391");
	path("s2:1741101", PAGES_IDENT_S2, "1741101");
	path("42-ada-lovelace", PAGES_IDENT_NONE, NULL);
	path("openalex:W123", PAGES_IDENT_NONE, NULL);
	path("openalex:A", PAGES_IDENT_NONE, NULL);
	path("s2:12ab", PAGES_IDENT_NONE, NULL);
	path("s2:", PAGES_IDENT_NONE, NULL);
	path("0000-0002-1825-0098", PAGES_IDENT_NONE, NULL);
	return T_DONE();
}
