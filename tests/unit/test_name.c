/*
 * test_name.c -- author names: the normalised key, TeX accents, joining
 * Kaggle's parsed names.
 */
#include <stdlib.h>

#include "core.h"
#include "harvest.h"
#include "t.h"

static void
key_is(const char *in, const char *want, const char *what)
{
	char *got = harvest_name_key(in);

	T_STREQ(got, want, what);
	free(got);
}

static void
tex_is(const char *in, const char *want, const char *what)
{
	char *got = harvest_tex_unaccent(in);

	T_STREQ(got, want, what);
	free(got);
}

static void
moj_is(const char *in, const char *want, int rounds, const char *what)
{
	int n = -1;
	char *got = core_utf8_demojibake(in, &n);

	T_STREQ(got, want, what);
	T_EQ(n, rounds, what);
	free(got);
}

static void
join_is(const char *last, const char *first, const char *suffix,
    const char *want, const char *what)
{
	char *got = harvest_name_join(last, first, suffix);

	T_STREQ(got, want, what);
	free(got);
}

int
main(void)
{
	char *s;

	/* The key. */
	key_is("Xiaoxue Ma", "xiaoxue ma", "plain name lower-cased");
	key_is("Ma, Xiaoxue", "xiaoxue ma", "\"Last, First\" reordered");
	key_is("  Federica   Sarro ", "federica sarro", "spaces folded");
	key_is("José Müller-Lüdenscheidt", "jose muller ludenscheidt",
	    "accents stripped, hyphen folded");
	key_is("O'Brien, J.-P.", "j p o brien",
	    "punctuation folded, reordered");
	key_is("Smith, John, Jr.", "john smith jr",
	    "suffix after second comma");
	key_is("C. Bal\\'azs", "c balazs", "TeX accent in the key");
	key_is("Łukasz Ørsted", "lukasz orsted",
	    "letters without decomposition");
	key_is("ＡＢＣ Ｄｅｆ", "abc def", "NFKD: full-width letters");
	key_is("Émile ZOLA", "emile zola", "upper case and precomposed accent");
	key_is("E\xcc\x81mile Zola", "emile zola", "decomposed accent");
	key_is("王小明", "王小明", "CJK kept as letters");
	key_is(":", "", "punctuation only gives an empty key");
	key_is("", "", "empty");
	key_is("Jürgen Straße", "jurgen strasse", "sharp s case-folded");

	/* TeX accents. */
	tex_is("Bal\\'azs", "Balázs", "\\'a");
	tex_is("G\\\"odel", "Gödel", "\\\"o");
	tex_is("Cr\\`eme", "Crème", "\\`e");
	tex_is("H\\^opital", "Hôpital", "\\^o");
	tex_is("Espa\\~na", "España", "\\~n");
	tex_is("Gar\\c{c}on", "Garçon", "\\c{c}");
	tex_is("Gar\\c con", "Garçon", "\\c c");
	tex_is("M{\\\"u}ller", "Müller", "{\\\"u} braces dropped");
	tex_is("M\\\"{u}ller", "Müller", "\\\"{u}");
	tex_is("Erd\\H{o}s", "Erdős", "\\H{o}");
	tex_is("\\v{S}ediv\\'y", "Šedivý", "\\v{S}");
	tex_is("Mart\\'{\\i}nez", "Martínez", "\\'{\\i}");
	tex_is("Mart\\'\\i nez", "Martínez", "\\'\\i eats the space after");
	tex_is("{\\o}stergaard", "østergaard", "{\\o}");
	tex_is("\\L{}ukasz", "Łukasz", "\\L{}");
	tex_is("Gau\\ss", "Gauß", "\\ss");
	tex_is("\\AA{}ngstr\\\"om", "Ångström", "\\AA and \\\"o");
	tex_is("$\\alpha$-decay and \\cite{x}", "$\\alpha$-decay and \\cite{x}",
	    "unknown commands unchanged");
	tex_is("\\cal L", "\\cal L",
	    "\\c followed by a letter is another "
	    "command");
	tex_is("no accents", "no accents", "plain text unchanged");
	tex_is("trailing \\", "trailing \\", "lone backslash at the end");
	tex_is("\\'", "\\'", "accent without a letter");

	/*
	 * Mojibake.  The first ones are names as arXiv's Atom API served
	 * them (tests/data/harvest/atom/q_testing_s20_m10_*.body.xml):
	 * UTF-8 read as Latin-1 and encoded again twice; "WeiÃ\u009fl"
	 * carries a C1 control, Latin-1's reading of the byte 9f.
	 */
	moj_is("Mika V. M\xc3\x83\xc2\xa4ntyl\xc3\x83\xc2\xa4",
	    "Mika V. Mäntylä", 1, "Atom: MÃ¤ntylÃ¤");
	moj_is("Oliver Wei\xc3\x83\xc2\x9fl", "Oliver Weißl", 1,
	    "Atom: a C1 control (Latin-1) in the middle");
	moj_is("Jos\xc3\x83\xc2\xa9 Ra\xc3\x83\xc2\xbal Romero",
	    "José Raúl Romero", 1, "Atom: two accents");
	moj_is("MÃƒÂ¤ntylÃƒÂ¤", "Mäntylä", 2, "twice: MÃƒÂ¤ntylÃƒÂ¤");
	moj_is("Ã…â€šukasz", "łukasz", 2, "twice, Windows-1252 both times");
	moj_is("Ã‰mile Zola", "Émile Zola", 1, "Windows-1252: 0x89 read as ‰");
	moj_is("Wojciech KotÅ‚owski", "Wojciech Kotłowski", 1,
	    "Windows-1252: 0x82 read as ‚");
	moj_is("Garc\xc3\xad"
	       "a",
	    "Garc\xc3\xad"
	    "a",
	    0, "García is right already");
	moj_is("GarcÃ\xc2\xad"
	       "a",
	    "García", 1, "soft hyphen U+00AD");
	moj_is("Müller", "Müller", 0, "Latin-1 letter, not UTF-8 bytes");
	moj_is("Ãlvaro", "Ãlvaro", 0, "Ã then a letter: not UTF-8 bytes");
	moj_is("Søren Hauberg", "Søren Hauberg", 0, "ø alone is right");
	moj_is("王小明", "王小明", 0, "CJK: no single-byte reading");
	moj_is("Zhang Wei "
	       "\xc3\xa5\xc2\xbc\xc2\xa0\xc3\xa4\xc2\xbc\xc5\xb8",
	    "Zhang Wei 张伟", 1, "three-byte characters");
	moj_is("Ada Lovelace", "Ada Lovelace", 0, "ASCII unchanged");
	moj_is("", "", 0, "empty");
	moj_is("\xff\xfe", "\xff\xfe", 0, "invalid UTF-8 unchanged");
	key_is("Mika V. M\xc3\x83\xc2\xa4ntyl\xc3\x83\xc2\xa4",
	    "mika v mantyla", "the key of a repaired name");
	key_is("MÃ¤ntylÃ¤, Mika", "mika mantyla", "repaired, then reordered");

	/* Kaggle's authors_parsed. */
	join_is("Bal\\'azs", "C.", "", "C. Balázs", "last, first joined");
	join_is("Smith", "John", "Jr", "John Smith Jr", "with suffix");
	join_is("Collaboration", NULL, NULL, "Collaboration", "only a last");
	join_is("Yuan", "C. -P.", "", "C. -P. Yuan", "first kept as is");

	s = harvest_squash("  a\n  b\t\tc  ");
	T_STREQ(s, "a b c", "squash");
	free(s);
	return T_DONE();
}
