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
