/*
 * test_match.c -- researcher matching decisions on small in-memory
 * blocks: names and initials, splits, joins by co-authors and by fields,
 * external ids, merges.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harvest.h"
#include "t.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
item(struct harvest_mitem *it, const char *key, const char *const *co,
    size_t nco, const char *const *f, size_t nf, const char *ext)
{
	memset(it, 0, sizeof(*it));
	it->name_key = key;
	it->coauthors = co;
	it->ncoauthors = nco;
	it->fields = f;
	it->nfields = nf;
	it->ext_id = ext;
}

/* it, settled in cluster k (harvest_match_place()). */
static void
settle(struct harvest_mitem *it, size_t k)
{
	it->settled = 1;
	it->cluster = k;
}

static void
case_is(const char *a, const char *b, enum harvest_ncase want)
{
	enum harvest_ncase got = harvest_name_case(a, b);

	T_STREQ(harvest_ncases[got], harvest_ncases[want], a);
}

static void
block_is(const char *key, const char *want)
{
	char *b = harvest_match_block(key);

	T_STREQ(b, want, key);
	free(b);
}

int
main(void)
{
	static const char *const coA[] = { "alice jones", "bob brown" };
	static const char *const coA2[] = { "alice jones", "bob brown",
		"carol white" };
	static const char *const coB[] = { "dmitri ivanov", "eva novak" };
	static const char *const coAB[] = { "alice jones", "bob brown",
		"dmitri ivanov", "eva novak" };
	static const char *const coX[] = { "xavier ruiz" };
	static const char *const fSE[] = { "cs.SE" };
	static const char *const fSEPL[] = { "cs.SE", "cs.PL" };
	static const char *const fBIO[] = { "q-bio.GN" };
	struct harvest_mitem it[4];
	struct harvest_mstats st;
	size_t n;

	/* Names. */
	T_OK(harvest_name_compatible("john smith", "j smith", 0),
	    "an initial fits a full first name");
	T_OK(!harvest_name_compatible("john smith", "j smith", 1),
	    "not when the block holds two full first names");
	T_OK(!harvest_name_compatible("john smith", "jane smith", 0),
	    "two different first names");
	T_OK(harvest_name_compatible("heather a piwowar", "heather piwowar", 0),
	    "a middle initial on one side only");
	T_OK(!harvest_name_compatible("john a smith", "john b smith", 0),
	    "different middle initials");
	T_OK(!harvest_name_compatible("john smith", "john smyth", 0),
	    "different family names");
	block_is("john smith", "j smith");
	block_is("j smith", "j smith");
	block_is("smith", "s smith");
	block_is("", "");

	/* One paper: nothing to decide. */
	memset(&st, 0, sizeof(st));
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	T_EQ(harvest_match_group(it, 1, &st), 1, "one item, one researcher");
	T_EQ(it[0].reason, HARVEST_MR_SINGLE, "reason single");

	/* Same name, nothing shared: two people. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "john smith", coB, N(coB), fBIO, N(fBIO), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 2,
	    "disjoint co-authors and fields split");
	T_OK(it[0].cluster != it[1].cluster, "different clusters");
	T_EQ(it[1].reason, HARVEST_MR_NEW, "reason new_identity");
	T_OK(it[1].score < 0.01, "its score: nothing overlapped");

	/* Shared co-authors: one person, whatever the fields. */
	item(&it[0], "john smith", coA2, N(coA2), fSE, N(fSE), NULL);
	item(&it[1], "john smith", coA, N(coA), fBIO, N(fBIO), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 1, "shared co-authors join");
	T_EQ(it[1].reason, HARVEST_MR_COAUTHORS, "reason coauthors");
	T_OK(it[1].score > 0.99, "both co-authors shared: score 1");

	/* One shared co-author among one is enough (share >= 0.25). */
	item(&it[0], "john smith", coA, N(coA), fBIO, N(fBIO), NULL);
	item(&it[1], "john smith", coX, 0, fSE, N(fSE), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 2,
	    "no co-authors, other field: split");

	/* Fields alone. */
	item(&it[0], "john smith", coA, N(coA), fSEPL, N(fSEPL), NULL);
	item(&it[1], "john smith", coB, N(coB), fSE, N(fSE), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 1, "same field joins");
	T_EQ(it[1].reason, HARVEST_MR_FIELDS, "reason fields");

	/* An external id decides against the evidence ... */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), "openalex:A1");
	item(&it[1], "john smith", coB, N(coB), fBIO, N(fBIO), "openalex:A1");
	T_EQ(harvest_match_group(it, 2, NULL), 1, "same OpenAlex id: one");
	T_EQ(it[1].reason, HARVEST_MR_OPENALEX, "reason openalex_id");
	/* ... both ways. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), "openalex:A1");
	item(&it[1], "john smith", coA, N(coA), fSE, N(fSE), "orcid:0000-1");
	T_EQ(harvest_match_group(it, 2, NULL), 2,
	    "different ids: two, though everything is shared");
	T_EQ(it[1].reason, HARVEST_MR_ORCID, "reason orcid");
	/* A name-only paper joins the identified person on evidence. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), "openalex:A1");
	item(&it[1], "john smith", coA, N(coA), fBIO, N(fBIO), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 1, "joins the id's cluster");

	/* Initials: unambiguous ... */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "j smith", coA, N(coA), fBIO, N(fBIO), NULL);
	memset(&st, 0, sizeof(st));
	T_EQ(harvest_match_group(it, 2, &st), 1, "J. Smith is John Smith");
	T_EQ(st.initials, 1, "counted as a join across name forms");
	/* ... and ambiguous. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "jane smith", coB, N(coB), fSE, N(fSE), NULL);
	item(&it[2], "j smith", coA, N(coA), fSE, N(fSE), NULL);
	n = harvest_match_group(it, 3, NULL);
	T_EQ(n, 3, "John, Jane and J. Smith: J. is neither");
	T_EQ(it[0].reason, HARVEST_MR_SINGLE,
	    "John: no compatible name to split from");

	/* A later paper bridging two clusters merges them. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "john smith", coB, N(coB), fBIO, N(fBIO), NULL);
	item(&it[2], "john smith", coAB, N(coAB), fSE, N(fSE), NULL);
	memset(&st, 0, sizeof(st));
	T_EQ(harvest_match_group(it, 3, &st), 1, "bridged: one person");
	T_EQ(st.merges, 1, "one merge");
	T_EQ(it[0].cluster, it[1].cluster, "relabelled");

	/* Counts. */
	item(&it[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "john smith", coB, N(coB), fBIO, N(fBIO), NULL);
	memset(&st, 0, sizeof(st));
	harvest_match_group(it, 2, &st);
	T_EQ(st.groups, 1, "one same-name group");
	T_EQ(st.split_blocks, 1, "split");
	T_EQ(st.split_into, 2, "into two");
	T_STREQ(harvest_mreasons[HARVEST_MR_NEW], "new_identity", "name");

	/* The eval's case types, on forms from the gold set. */
	case_is("Jason Priem", "Jason Priem", HARVEST_NC_SAME);
	case_is("J.W. Mearman", "J. W. Mearman", HARVEST_NC_SAME);
	case_is("Marc-André Simard", "Marc-Andre Simard", HARVEST_NC_ACCENTS);
	case_is("Vincent Larivi\\`ere", "Vincent Larivière",
	    HARVEST_NC_ACCENTS);
	case_is("MÃ¤ntylÃ¤ Mika", "Mika Mäntylä", HARVEST_NC_ORDER);
	case_is("Priem, Jason", "Jason Priem", HARVEST_NC_ORDER);
	case_is("Sarro Federica", "Federica Sarro", HARVEST_NC_ORDER);
	case_is("Priem J", "Jason Priem", HARVEST_NC_ORDER);
	case_is("A. Del Maestro", "Adrian Del Maestro", HARVEST_NC_INITIALS);
	case_is("J.C. Roberts", "Jonathan C. Roberts", HARVEST_NC_INITIALS);
	case_is("Heather A. Piwowar", "Heather Piwowar", HARVEST_NC_MIDDLE);
	case_is("Jason Priem", "Heather Piwowar", HARVEST_NC_OTHER);

	/* Family name first: turned only where another form says so. */
	{
		static const char *const keys[] = { "jason priem",
			"priem jason", "sarro federica", "federica sarro",
			"priem j", "lee kim", "kim lee", "wei zhang" };
		static const long counts[] = { 40, 3, 1, 2, 1, 1, 1, 1 };
		char **r = harvest_name_orient(keys, counts, N(keys));

		T_OK(r[0] == NULL, "jason priem stays");
		T_STREQ(r[1] != NULL ? r[1] : "(kept)", "jason priem",
		    "priem jason turned");
		T_STREQ(r[2] != NULL ? r[2] : "(kept)", "federica sarro",
		    "Sarro Federica turned");
		T_OK(r[3] == NULL, "federica sarro stays");
		T_STREQ(r[4] != NULL ? r[4] : "(kept)", "j priem",
		    "priem j: an initial is no family name");
		T_OK((r[5] == NULL) != (r[6] == NULL) || (!r[5] && !r[6]),
		    "lee kim / kim lee: at most one of them turns");
		T_OK(r[7] == NULL, "no other form: wei zhang stays");
		for (n = 0; n < N(keys); n++)
			free(r[n]);
		free(r);
	}

	/* "A. Del Maestro" and "Adrian Del Maestro" with co-authors. */
	{
		static const char *const coD[] = { "kipton barros",
			"nicholas sherman" };
		static const char *const coE[] = { "kipton barros",
			"bernd rosenow" };
		static const char *const fCM[] = { "cond-mat.str-el" };

		block_is("a del maestro", "a maestro");
		block_is("adrian del maestro", "a maestro");
		item(&it[0], "adrian del maestro", coD, N(coD), fCM, N(fCM),
		    NULL);
		item(&it[1], "a del maestro", coE, N(coE), fCM, N(fCM), NULL);
		T_EQ(harvest_match_group(it, 2, NULL), 1,
		    "initial and full name, a shared co-author: one");
		T_EQ(it[1].reason, HARVEST_MR_COAUTHORS, "by co-authors");
		/* Two people, one initial and surname, nothing shared. */
		item(&it[0], "a del maestro", coD, N(coD), fCM, N(fCM), NULL);
		item(&it[1], "a del maestro", coB, N(coB), fBIO, N(fBIO), NULL);
		T_EQ(harvest_match_group(it, 2, NULL), 2,
		    "same initials and surname, no evidence: two");
	}

	/* A single-author paper joins the only person of its name. */
	item(&it[0], "alan turing", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "a turing", NULL, 0, fSEPL, N(fSEPL), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 1, "no co-authors: joins");
	item(&it[0], "alan turing", coA, N(coA), fSE, N(fSE), NULL);
	item(&it[1], "a turing", NULL, 0, fBIO, N(fBIO), NULL);
	T_EQ(harvest_match_group(it, 2, NULL), 2,
	    "no co-authors and another field: apart");

	/* The day's pass: new items against settled clusters. */
	{
		static const char *const amb[] = { "john smith", "jane smith",
			"j smith" };
		struct harvest_mitem d[6];

		T_OK(harvest_match_ambiguous(amb, 2),
		    "two full first names: ambiguous");
		T_OK(!harvest_match_ambiguous(amb + 2, 1) &&
			!harvest_match_ambiguous(amb, 1),
		    "one full first name, or none: not");
		T_OK(!harvest_match_ambiguous((const char
						      *const[]){ "john smith",
						  "john smith", "j smith" },
			 3),
		    "the same one twice: not");

		/* Settled: cluster 1 (co-authors A, cs.SE), cluster 0
		 * (co-authors B, q-bio), listed in that order. */
		item(&d[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
		settle(&d[0], 1);
		item(&d[1], "john smith", coB, N(coB), fBIO, N(fBIO), NULL);
		settle(&d[1], 0);
		/* New: A's co-authors; an initial with B's; nobody's. */
		item(&d[2], "john smith", coA2, N(coA2), fBIO, N(fBIO), NULL);
		item(&d[3], "j smith", coB, N(coB), fSE, N(fSE), NULL);
		item(&d[4], "john smith", coX, N(coX), fSEPL, 0, NULL);
		item(&d[5], "john smith", coX, N(coX), fBIO, 0, NULL);
		memset(&st, 0, sizeof(st));
		n = harvest_match_place(d, 6, 0, &st);
		T_EQ(n, 3, "two settled people and one new");
		T_OK(d[0].cluster != d[1].cluster,
		    "settled clusters stay apart");
		T_EQ(d[2].cluster, d[0].cluster, "A's co-authors join A");
		T_EQ(d[2].reason, HARVEST_MR_COAUTHORS, "by co-authors");
		T_EQ(d[3].cluster, d[1].cluster, "an initial joins B");
		T_OK(d[4].cluster != d[0].cluster &&
			d[4].cluster != d[1].cluster,
		    "no evidence for either: somebody new");
		T_EQ(d[4].reason, HARVEST_MR_NEW, "reason new_identity");
		T_EQ(d[5].cluster, d[4].cluster,
		    "a later one without fields joins the new one by its "
		    "co-author");
		T_EQ(st.blocks, 1, "one block counted");

		/* A paper with both people's co-authors: one person. */
		item(&d[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
		settle(&d[0], 0);
		item(&d[1], "john smith", coB, N(coB), fBIO, N(fBIO), NULL);
		settle(&d[1], 1);
		item(&d[2], "john smith", coAB, N(coAB), fSE, N(fSE), NULL);
		T_EQ(harvest_match_place(d, 3, 0, NULL), 1,
		    "a paper sharing both merges them");
		T_OK(d[0].cluster == d[1].cluster &&
			d[1].cluster == d[2].cluster,
		    "all three one");
		/* The same with different external ids: kept apart. */
		item(&d[0], "john smith", coA, N(coA), fSE, N(fSE), "orcid:1");
		settle(&d[0], 0);
		item(&d[1], "john smith", coB, N(coB), fBIO, N(fBIO),
		    "orcid:2");
		settle(&d[1], 1);
		item(&d[2], "john smith", coAB, N(coAB), fSE, N(fSE), NULL);
		T_EQ(harvest_match_place(d, 3, 0, NULL), 2,
		    "two external ids are never merged");
		/* An ambiguous block: the initial fits neither full name. */
		item(&d[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
		settle(&d[0], 0);
		item(&d[1], "jane smith", coB, N(coB), fBIO, N(fBIO), NULL);
		settle(&d[1], 1);
		item(&d[2], "j smith", coA, N(coA), fSE, N(fSE), NULL);
		T_EQ(harvest_match_place(d, 3, 1, NULL), 3,
		    "ambiguous: an initial is somebody of its own");
		/* A settled cluster number out of range is decided. */
		item(&d[0], "john smith", coA, N(coA), fSE, N(fSE), NULL);
		settle(&d[0], 7);
		T_EQ(harvest_match_place(d, 1, 0, NULL), 1,
		    "a bad cluster number: decided as new");
		T_EQ(d[0].cluster, 0, "labelled 0");
	}

	return T_DONE();
}
