/*
 * name.c -- author names: TeX accents to Unicode, white space, and the
 * normalised name key that groups one name's papers until the harvester
 * matches people for real.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"
#include "harvest.h"

/*
 * TeX accent commands and the combining mark each stands for.  The letter
 * and the mark are composed by NFC at the end, so the table needs no
 * per-letter entries ("\'e" and "\'a" are one row).
 */
static const struct accent {
	char cmd;
	utf8proc_int32_t mark;
} accents[] = {
	{ '\'', 0x0301 }, /* acute */
	{ '`', 0x0300 },  /* grave */
	{ '^', 0x0302 },  /* circumflex */
	{ '"', 0x0308 },  /* diaeresis */
	{ '~', 0x0303 },  /* tilde */
	{ '=', 0x0304 },  /* macron */
	{ '.', 0x0307 },  /* dot above */
	{ 'c', 0x0327 },  /* cedilla */
	{ 'v', 0x030c },  /* caron */
	{ 'u', 0x0306 },  /* breve */
	{ 'H', 0x030b },  /* double acute */
	{ 'k', 0x0328 },  /* ogonek */
	{ 'r', 0x030a },  /* ring above */
};

/* TeX letter commands ("\o", "\ss"), longest first where they share a
 * prefix, so "\aa" is not read as "\a" followed by "a". */
static const struct letter {
	const char *cmd;
	const char *utf8;
} letters[] = {
	{ "AA", "\xc3\x85" }, /* Å */
	{ "aa", "\xc3\xa5" }, /* å */
	{ "AE", "\xc3\x86" }, /* Æ */
	{ "ae", "\xc3\xa6" }, /* æ */
	{ "OE", "\xc5\x92" }, /* Œ */
	{ "oe", "\xc5\x93" }, /* œ */
	{ "ss", "\xc3\x9f" }, /* ß */
	{ "O", "\xc3\x98" },  /* Ø */
	{ "o", "\xc3\xb8" },  /* ø */
	{ "L", "\xc5\x81" },  /* Ł */
	{ "l", "\xc5\x82" },  /* ł */
	{ "i", "\xc4\xb1" },  /* ı, dotless: the base of \'\i */
	{ "j", "\xc8\xb7" },  /* ȷ */
};

/*
 * Letters with no Unicode decomposition and an obvious ASCII spelling, so
 * that "Łukasz" and "Lukasz" get one key.  Looked up after case folding.
 */
static const struct fold {
	utf8proc_int32_t cp;
	const char *ascii;
} folds[] = {
	{ 0x00e6, "ae" }, /* æ */
	{ 0x00f0, "d" },  /* ð */
	{ 0x00f8, "o" },  /* ø */
	{ 0x00fe, "th" }, /* þ */
	{ 0x0111, "d" },  /* đ */
	{ 0x0127, "h" },  /* ħ */
	{ 0x0131, "i" },  /* ı */
	{ 0x0142, "l" },  /* ł */
	{ 0x0153, "oe" }, /* œ */
	{ 0x0237, "j" },  /* ȷ */
};

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
put_cp(struct core_buf *b, utf8proc_int32_t cp)
{
	utf8proc_uint8_t tmp[4];
	utf8proc_ssize_t n;

	n = utf8proc_encode_char(cp, tmp);
	core_buf_put(b, tmp, (size_t)n);
}

/*
 * A letter command at s (just after the backslash): its length and
 * *utf8, or 0.  A command made of letters ends at the first non-letter,
 * as in TeX: "\ssa" is not "\ss" followed by "a".
 */
static size_t
letter_cmd(const char *s, const char **utf8)
{
	size_t i, n;

	for (n = 0; is_alpha(s[n]); n++)
		continue;
	for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (strlen(letters[i].cmd) == n &&
		    strncmp(s, letters[i].cmd, n) == 0) {
			*utf8 = letters[i].utf8;
			return n;
		}
	return 0;
}

/*
 * The argument of an accent at s: "x", "{x}", "\i", "{\i}", and after a
 * letter accent such as \c also " x".  Appends the base letter to b and
 * returns the bytes used, or 0 when it is none of these.
 */
static size_t
accent_arg(const char *s, int letter_accent, struct core_buf *b)
{
	const char *utf8;
	size_t i = 0, n;
	int brace = 0;

	if (letter_accent)
		while (s[i] == ' ')
			i++;
	if (s[i] == '{') {
		brace = 1;
		i++;
	}
	if (s[i] == '\\' && (n = letter_cmd(s + i + 1, &utf8)) > 0) {
		/* \i and \j are dotless only to carry an accent: the
		 * accented letter is the ordinary one's. */
		if (n == 1 && (s[i + 1] == 'i' || s[i + 1] == 'j'))
			core_buf_putc(b, s[i + 1]);
		else
			core_buf_puts(b, utf8);
		i += 1 + n;
		/* TeX ends a control word at the space and eats it. */
		if (!brace && s[i] == ' ')
			i++;
	} else if (is_alpha(s[i])) {
		core_buf_putc(b, s[i]);
		i++;
	} else
		return 0;
	if (brace) {
		if (s[i] != '}')
			return 0;
		i++;
	}
	return i;
}

/*
 * One TeX command at s (s[0] == '\\'): appends its letter to b and
 * returns the bytes used, or 0 (nothing appended) when it is not one we
 * know.
 */
static size_t
tex_cmd(const char *s, struct core_buf *b)
{
	struct core_buf arg = CORE_BUF_INIT;
	const char *utf8;
	size_t i, n;
	int letter_accent;

	for (i = 0; i < sizeof(accents) / sizeof(accents[0]); i++) {
		if (s[1] != accents[i].cmd)
			continue;
		letter_accent = is_alpha(s[1]);
		/* "\cc" would be a command named "cc": a letter accent
		 * needs a space or a brace before its argument. */
		if (letter_accent && is_alpha(s[2]))
			break;
		if ((n = accent_arg(s + 2, letter_accent, &arg)) == 0)
			break;
		core_buf_put(b, arg.ptr, arg.len);
		put_cp(b, accents[i].mark);
		core_buf_free(&arg);
		return 2 + n;
	}
	core_buf_free(&arg);
	if (is_alpha(s[1]) && (n = letter_cmd(s + 1, &utf8)) > 0) {
		core_buf_puts(b, utf8);
		/* "\ss x" and "\o{}": TeX eats the space or empty group. */
		if (s[1 + n] == ' ')
			return 2 + n;
		if (s[1 + n] == '{' && s[2 + n] == '}')
			return 3 + n;
		return 1 + n;
	}
	return 0;
}

char *
harvest_tex_unaccent(const char *s)
{
	struct core_buf b = CORE_BUF_INIT, grp = CORE_BUF_INIT;
	utf8proc_uint8_t *nfc;
	size_t i = 0, n;

	if (strchr(s, '\\') == NULL)
		return core_xstrdup(s);
	while (s[i] != '\0') {
		/* "{\"u}": the braces only group the accent; drop them. */
		if (s[i] == '{' && s[i + 1] == '\\') {
			core_buf_reset(&grp);
			n = tex_cmd(s + i + 1, &grp);
			if (n > 0 && s[i + 1 + n] == '}') {
				core_buf_put(&b, grp.ptr, grp.len);
				i += n + 2;
				continue;
			}
		}
		if (s[i] == '\\' && (n = tex_cmd(s + i, &b)) > 0) {
			i += n;
			continue;
		}
		core_buf_putc(&b, s[i]);
		i++;
	}
	core_buf_free(&grp);
	/* A letter and its combining mark become the precomposed letter. */
	nfc = utf8proc_NFC((const utf8proc_uint8_t *)core_buf_cstr(&b));
	if (nfc == NULL) /* invalid UTF-8 around: keep the bytes as they are */
		return core_buf_steal(&b);
	core_buf_free(&b);
	return (char *)nfc;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

char *
harvest_squash(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	int pending = 0;

	for (; *s != '\0'; s++) {
		if (is_space(*s)) {
			pending = b.len > 0;
			continue;
		}
		if (pending)
			core_buf_putc(&b, ' ');
		pending = 0;
		core_buf_putc(&b, *s);
	}
	return core_buf_steal(&b);
}

static const char *
fold(utf8proc_int32_t cp)
{
	size_t i;

	for (i = 0; i < sizeof(folds) / sizeof(folds[0]); i++)
		if (folds[i].cp == cp)
			return folds[i].ascii;
	return NULL;
}

/* "Last, First" and "Last, First, Jr." in the natural order, else a copy. */
static char *
reorder(const char *s)
{
	const char *c1, *c2;
	char *last, *first, *suffix, *out;

	if ((c1 = strchr(s, ',')) == NULL)
		return core_xstrdup(s);
	c2 = strchr(c1 + 1, ',');
	if (c2 != NULL && strchr(c2 + 1, ',') != NULL)
		return core_xstrdup(s); /* a list, not a name: leave it */
	last = core_xstrndup(s, (size_t)(c1 - s));
	if (c2 != NULL) {
		first = core_xstrndup(c1 + 1, (size_t)(c2 - c1 - 1));
		suffix = core_xstrdup(c2 + 1);
	} else {
		first = core_xstrdup(c1 + 1);
		suffix = core_xstrdup("");
	}
	out = core_xasprintf("%s %s %s", first, last, suffix);
	free(last);
	free(first);
	free(suffix);
	return out;
}

char *
harvest_name_key(const char *name)
{
	struct core_buf b = CORE_BUF_INIT;
	utf8proc_uint8_t *dec = NULL;
	utf8proc_int32_t cp;
	utf8proc_ssize_t r, len;
	const utf8proc_uint8_t *p;
	char *fixed, *tex, *ordered;
	const char *f;
	int pending = 0, keep;

	fixed = core_utf8_demojibake(name, NULL);
	tex = harvest_tex_unaccent(fixed);
	free(fixed);
	ordered = reorder(tex);
	len = utf8proc_map((const utf8proc_uint8_t *)ordered, 0, &dec,
	    UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPAT |
		UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK | UTF8PROC_CASEFOLD);
	if (len < 0) /* not UTF-8: nothing sensible to key on */
		goto out;
	for (p = dec; *p != '\0'; p += r) {
		r = utf8proc_iterate(p, -1, &cp);
		if (r <= 0)
			break;
		switch (utf8proc_category(cp)) {
		case UTF8PROC_CATEGORY_LU:
		case UTF8PROC_CATEGORY_LL:
		case UTF8PROC_CATEGORY_LT:
		case UTF8PROC_CATEGORY_LM:
		case UTF8PROC_CATEGORY_LO:
		case UTF8PROC_CATEGORY_ND:
		case UTF8PROC_CATEGORY_NL:
		case UTF8PROC_CATEGORY_NO:
			keep = 1;
			break;
		case UTF8PROC_CATEGORY_MN:
		case UTF8PROC_CATEGORY_MC:
		case UTF8PROC_CATEGORY_ME:
			continue; /* a mark left by STRIPMARK's rules */
		default:
			keep = 0;
			break;
		}
		if (!keep) {
			pending = b.len > 0;
			continue;
		}
		if (pending)
			core_buf_putc(&b, ' ');
		pending = 0;
		if ((f = fold(cp)) != NULL)
			core_buf_puts(&b, f);
		else
			put_cp(&b, cp);
	}
out:
	free(dec);
	free(tex);
	free(ordered);
	return core_buf_steal(&b);
}

char *
harvest_name_join(const char *last, const char *first, const char *suffix)
{
	char *raw, *tex, *out;

	raw = core_xasprintf("%s %s %s", first != NULL ? first : "",
	    last != NULL ? last : "", suffix != NULL ? suffix : "");
	tex = harvest_tex_unaccent(raw);
	out = harvest_squash(tex);
	free(raw);
	free(tex);
	return out;
}
