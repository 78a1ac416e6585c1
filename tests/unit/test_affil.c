/*
 * test_affil.c -- raw affiliation strings (modules/harvest/affil_ror.c):
 * the parts, the keys, and the matcher's rules on a small index.
 */
#include <stdlib.h>

#include "core.h"
#include "harvest.h"
#include "t.h"

static void
key_is(const char *in, const char *want, const char *what)
{
	char *got = harvest_affil_key(in);

	T_STREQ(got, want, what);
	free(got);
}

/* The one institution s is matched to, 0 for none, -1 for several. */
static long long
one(const struct harvest_affix *x, const char *s)
{
	long long ids[4];
	size_t n = harvest_affix_match(x, s, ids, 4);

	return n == 0 ? 0 : n == 1 ? ids[0] : -1;
}

int
main(void)
{
	struct harvest_affix *x;
	char **parts;
	size_t n;

	n = harvest_affil_split("Dept. of Physics, University College "
				"London (UCL);  London, UK.",
	    &parts);
	T_EQ(n, 5, "five parts");
	T_STREQ(parts[0], "Dept. of Physics", "first part");
	T_STREQ(parts[2], "UCL", "parenthesised part");
	T_STREQ(parts[4], "UK", "trailing dot dropped");
	core_strv_free(parts, n);
	n = harvest_affil_split("Aerospace Science &#x0026; Industry &amp; "
				"Co&#44;Shenzhen",
	    &parts);
	T_EQ(n, 2, "a decoded comma cuts");
	T_STREQ(parts[0], "Aerospace Science & Industry & Co",
	    "references decoded");
	core_strv_free(parts, n);
	/* fuzz_affil: a decoded ')' left inside a part. */
	n = harvest_affil_split("WB&#41; The J", &parts);
	T_EQ(n, 2, "a decoded parenthesis cuts too");
	T_STREQ(parts[1], "The J", "the part after it");
	core_strv_free(parts, n);
	T_EQ(harvest_affil_split(" , ;() ", &parts), 0, "nothing: no part");
	T_OK(parts == NULL, "and no array");
	n = harvest_affil_split("&#xFFFFFFFF; &#0; &bogus; &#12", &parts);
	T_EQ(n, 3, "bad references kept as text, NUL dropped");
	T_STREQ(parts[0], "&#xFFFFFFFF", "too long: text");
	core_strv_free(parts, n);

	key_is("Toyohashi Univ. of Tech.", "toyohashi university of technology",
	    "abbreviations spelt out");
	key_is("Université Grenoble Alpes", "university grenoble alpes",
	    "accents and the word university");
	key_is("Science & Technology and the Arts", "science technology arts",
	    "and, the, & left out");
	key_is("1University of Bern", "university of bern", "footnote mark");
	key_is("University of California, Berkeley",
	    "university of california berkeley", "a comma in a name");

	x = harvest_affix_new();
	harvest_affix_add(x, 1, "University College London", "[\"UCL\"]", "GB",
	    "United Kingdom", 1);
	harvest_affix_add(x, 2, "Université catholique de Louvain",
	    "[\"UCL\", \"UCLouvain\"]", "BE", "Belgium", 1);
	harvest_affix_add(x, 3, "University of California, Berkeley",
	    "[\"UC Berkeley\"]", "US", "United States", 1);
	harvest_affix_add(x, 4, "Institute of Physics", "[]", "PL", "Poland",
	    1);
	harvest_affix_add(x, 5, "Institute of Physics", "[]", "HR", "Croatia",
	    1);
	harvest_affix_add(x, 6, "Kyoto University", "[\"Kyōto daigaku\"]", "JP",
	    "Japan", 1);
	harvest_affix_add(x, 7, "Kyoto University", "[]", "JP", "Japan", 0);

	T_EQ(one(x, "Dept. of Physics, University College London, UK"), 1,
	    "the brief's example");
	T_EQ(one(x, "Dept of Physics University College London"), 1,
	    "a name inside a part");
	T_EQ(one(x, "Dept. of Physics, UCL, London, UK"), 1,
	    "an acronym with its country");
	T_EQ(one(x, "Dept. of Physics, UCL"), 0,
	    "an acronym without a country: none");
	T_EQ(one(x, "ucl, Belgium"), 0, "an acronym in another case: none");
	T_EQ(one(x, "University of California, Berkeley, CA 94720, USA"), 3,
	    "two parts make the name");
	T_EQ(one(x, "Institute of Physics, Zagreb"), 0,
	    "two of that name, no country: none");
	T_EQ(one(x, "Institute of Physics, Zagreb, Croatia"), 5,
	    "the country decides");
	T_EQ(one(x, "Kyōto Daigaku, Japan"), 6,
	    "a label in another language; the active one of two");
	T_EQ(one(x, "University College London, Japan"), 0,
	    "a country that contradicts: none");
	T_EQ(one(x, ""), 0, "empty");
	harvest_affix_free(x);
	return T_DONE();
}
