/*
 * mojibake.c -- names that arrive double-encoded: UTF-8 decoded as
 * Latin-1 or Windows-1252 and encoded again (issue 16).  The harvester
 * repairs them before names are keyed and keeps the raw form; the pages
 * and feeds repair the raw form they show.
 */
#include <stdlib.h>

#include <utf8proc.h>

#include "core.h"

/*
 * Windows-1252's letters in 0x80-0x9f: the code point each byte was
 * read as.  A UTF-8 name decoded as cp1252 shows these ("Ã„" is Ä's C3
 * 84); decoded as Latin-1 it shows the C1 controls U+0080-U+009F, which
 * map back to their byte directly.
 */
/* clang-format off */
static const utf8proc_int32_t cp1252[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6,
	0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019,
	0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161,
	0x203a, 0x0153, 0, 0x017e, 0x0178,
};
/* clang-format on */

/* The byte that code point cp was read from, or -1. */
static int
latin_byte(utf8proc_int32_t cp)
{
	int i;

	if (cp >= 0 && cp <= 0xff)
		return (int)cp;
	for (i = 0; i < 32; i++)
		if (cp1252[i] != 0 && cp1252[i] == cp)
			return 0x80 + i;
	return -1;
}

/*
 * One round of repair: every character of s back to the byte it was read
 * from, and those bytes read as UTF-8.  NULL when s does not look like
 * mojibake: a character no single-byte reading gives, no byte above
 * 0x7f, or bytes that are not valid UTF-8 (what "Müller" in Latin-1
 * gives: FC then a letter).  Valid UTF-8 from such bytes by chance is
 * rare: every lead byte needs its continuation bytes, 0x80-0xbf, which
 * are symbols (Â° ¤ ©), not letters, in a real Latin-1 name.
 */
static char *
demojibake_once(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
	utf8proc_int32_t cp;
	utf8proc_ssize_t r;
	int byte, high = 0;

	for (; *p != '\0'; p += r) {
		if ((r = utf8proc_iterate(p, -1, &cp)) <= 0 ||
		    (byte = latin_byte(cp)) < 0) {
			core_buf_free(&b);
			return NULL;
		}
		high |= byte >= 0x80;
		core_buf_putc(&b, (char)byte);
	}
	if (!high || b.len == 0) {
		core_buf_free(&b);
		return NULL;
	}
	for (p = (const utf8proc_uint8_t *)core_buf_cstr(&b); *p != '\0';
	     p += r)
		if ((r = utf8proc_iterate(p, -1, &cp)) <= 0 || cp == 0xfffd) {
			core_buf_free(&b);
			return NULL;
		}
	return core_buf_steal(&b);
}

char *
core_utf8_demojibake(const char *s, int *rounds)
{
	char *cur = core_xstrdup(s), *next;
	int n = 0;

	/* Twice is what real pipelines do; a third round is cheap. */
	while (n < 3 && (next = demojibake_once(cur)) != NULL) {
		free(cur);
		cur = next;
		n++;
	}
	if (rounds != NULL)
		*rounds = n;
	return cur;
}

json_t *
core_json_name(const char *s)
{
	json_t *j;
	char *fixed;

	if (s == NULL)
		return json_null();
	fixed = core_utf8_demojibake(s, NULL);
	j = core_json_str(fixed);
	free(fixed);
	return j;
}
