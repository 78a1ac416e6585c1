/*
 * slug.c -- URL slugs from titles and names: "Émile Zola" gives
 * "emile-zola".  Each code point is decomposed by utf8proc (NFKD, marks
 * stripped, case folded) and only ASCII letters and digits are kept.
 */
#include <stddef.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"

/* Longest decomposition is 18 code points (U+FDFA); leave room. */
#define DECOMP_MAX 32

/*
 * Letters that have no decomposition in Unicode yet an obvious ASCII
 * spelling, common in the names of authors: "Ørsted", "Łukasiewicz",
 * "Þórsson".  Without this they would split the name in two.
 */
static const struct special {
	utf8proc_int32_t cp;
	const char *ascii;
} specials[] = {
	{ 0x00c6, "ae" }, /* Æ */
	{ 0x00d0, "d" },  /* Ð */
	{ 0x00d8, "o" },  /* Ø */
	{ 0x00de, "th" }, /* Þ */
	{ 0x00df, "ss" }, /* ß */
	{ 0x00e6, "ae" }, /* æ */
	{ 0x00f0, "d" },  /* ð */
	{ 0x00f8, "o" },  /* ø */
	{ 0x00fe, "th" }, /* þ */
	{ 0x0110, "d" },  /* Đ */
	{ 0x0111, "d" },  /* đ */
	{ 0x0126, "h" },  /* Ħ */
	{ 0x0127, "h" },  /* ħ */
	{ 0x0131, "i" },  /* ı */
	{ 0x0141, "l" },  /* Ł */
	{ 0x0142, "l" },  /* ł */
	{ 0x0152, "oe" }, /* Œ */
	{ 0x0153, "oe" }, /* œ */
	{ 0x1e9e, "ss" }, /* ẞ */
};

/* The slug being built: bytes, and whether a '-' is owed. */
struct slug {
	struct core_buf b;
	int sep;
};

static const char *
special(utf8proc_int32_t cp)
{
	size_t i;

	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (specials[i].cp == cp)
			return specials[i].ascii;
	return NULL;
}

/*
 * Appends one ASCII letter or digit, lower-cased.  The '-' is written
 * only here, before the next word, so none is ever leading or trailing
 * and runs of separators collapse into one.
 */
static void
put_alnum(struct slug *sl, char c)
{
	if (sl->sep && sl->b.len > 0)
		core_buf_putc(&sl->b, '-');
	sl->sep = 0;
	if (c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	core_buf_putc(&sl->b, c);
}

/* Adds code point cp, which is already decomposed, to the slug. */
static void
put_cp(struct slug *sl, utf8proc_int32_t cp)
{
	const char *a;

	if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
	    (cp >= '0' && cp <= '9'))
		put_alnum(sl, (char)cp);
	else if ((a = special(cp)) != NULL)
		for (; *a != '\0'; a++)
			put_alnum(sl, *a);
	else
		sl->sep = 1;
}

int
core_utf8_fold_cp(int32_t cp, int32_t *d, int max)
{
	utf8proc_ssize_t k;
	int bound = 0;

	k = utf8proc_decompose_char(cp, d, max,
	    UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT | UTF8PROC_STRIPMARK |
		UTF8PROC_CASEFOLD | UTF8PROC_IGNORE,
	    &bound);
	return k < 0 || k > max ? -1 : (int)k;
}

char *
core_slug(const char *s, size_t maxlen)
{
	struct slug sl = { CORE_BUF_INIT, 0 };
	utf8proc_int32_t cp, d[DECOMP_MAX];
	utf8proc_ssize_t r, k, i;
	const unsigned char *p;
	size_t n, cut;

	if (s == NULL)
		return core_xstrdup("");
	p = (const unsigned char *)s;
	n = strlen(s);
	/* Stops once past maxlen: enough to know where to cut. */
	while (n > 0 && sl.b.len <= maxlen) {
		r = utf8proc_iterate(p, n < 4 ? (utf8proc_ssize_t)n : 4, &cp);
		if (r <= 0) {
			/* An invalid byte separates words, like a space. */
			sl.sep = 1;
			p++;
			n--;
			continue;
		}
		p += r;
		n -= (size_t)r;
		if (cp < 0x80 || special(cp) != NULL) {
			put_cp(&sl, cp);
			continue;
		}
		/* Marks and default ignorables (soft hyphen, ZWJ) give
		 * nothing, so "e" + U+0301 stays one word. */
		if ((k = core_utf8_fold_cp(cp, d, DECOMP_MAX)) < 0) {
			sl.sep = 1;
			continue;
		}
		for (i = 0; i < k; i++)
			put_cp(&sl, d[i]);
	}
	if (sl.b.len > maxlen) {
		/* Cuts at the last '-' that keeps us within maxlen; a
		 * single word longer than maxlen is cut inside. */
		for (cut = maxlen; cut > 0 && sl.b.ptr[cut] != '-'; cut--)
			;
		if (cut == 0)
			cut = maxlen;
		sl.b.len = cut;
		sl.b.ptr[cut] = '\0';
	}
	return core_buf_steal(&sl.b);
}
