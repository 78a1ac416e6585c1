/*
 * md.c -- the markdown writer, for text served to agents and mailed out.
 * Data must stay data once a markdown renderer reads it: no emphasis,
 * links, headings, lists, tables, HTML or entities may appear from a
 * title: every character CommonMark or GFM gives a meaning to where it
 * stands is backslash-escaped (CommonMark allows a backslash before any
 * ASCII punctuation).  Characters that only matter at the start of a
 * line are escaped only there, so that text stays readable for agents.
 */
#include <string.h>

#include "core.h"

/*
 * Characters that mean something anywhere in a line: emphasis, code,
 * links, autolinks and HTML, GFM tables and strikethrough, entities.
 */
static const char inline_specials[] = "\\`*_{}[]<>|~&";
/*
 * Characters that mean something only where a line (or a list item,
 * since callers write "- " before text) begins: headings, list and quote
 * markers, setext underlines.  Digits then '.' or ')' start an ordered
 * list.  Escaping these only there keeps agents' text readable: a title
 * "GPT-4.5 (a study)" stays as it is.
 */
static const char lead_specials[] = "#+-=!";

/*
 * Copies s with every C0 control (line breaks included) and DEL turned
 * into a space, and a CR LF pair into one space, so the text stays on
 * one line and cannot start a block of its own.
 */
static void
flatten(struct core_buf *b, const char *s)
{
	unsigned char c;

	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '\r' && s[1] == '\n')
			continue;
		core_buf_putc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
	}
}

void
core_md_text(struct core_buf *b, const char *s)
{
	struct core_buf flat = CORE_BUF_INIT, clean = CORE_BUF_INIT;
	const char *p;
	size_t n;

	if (s == NULL)
		return;
	flatten(&flat, s);
	/* Replaces invalid UTF-8 and drops C1 controls. */
	core_utf8_clean(&clean, core_buf_cstr(&flat), flat.len);
	p = core_buf_cstr(&clean);
	/* Four spaces at a line start make an indented code block: keep
	 * at most three (more mean nothing in text anyway). */
	for (n = 0; *p == ' '; p++)
		if (n++ < 3)
			core_buf_putc(b, ' ');
	if (*p != '\0' && strchr(lead_specials, *p) != NULL)
		core_buf_putc(b, '\\');
	else if (*p >= '0' && *p <= '9') {
		/* "1." / "1)" at the start would be an ordered list. */
		const char *q = p;

		while (*q >= '0' && *q <= '9')
			core_buf_putc(b, *q++);
		if (*q == '.' || *q == ')')
			core_buf_putc(b, '\\');
		p = q;
	}
	for (; *p != '\0'; p++) {
		/* U+FEFF as a character reference: a reader drops a byte
		 * order mark at the start of a document, and what follows it
		 * would then begin a line unescaped. */
		if (strncmp(p, "\xEF\xBB\xBF", 3) == 0) {
			core_buf_puts(b, "&#xFEFF;");
			p += 2;
			continue;
		}
		if (strchr(inline_specials, *p) != NULL)
			core_buf_putc(b, '\\');
		core_buf_putc(b, *p);
	}
	core_buf_free(&flat);
	core_buf_free(&clean);
}

/*
 * A link destination ends at a space or ')' (or '>' in the <...> form),
 * and a backslash there escapes the next character, so a URL ending in
 * '\' would swallow the closing parenthesis.  Those bytes, controls and
 * spaces are percent-encoded; browsers decode them to the same URL.
 */
static void
md_url(struct core_buf *b, const char *url)
{
	struct core_buf clean = CORE_BUF_INIT;
	const char *p;
	unsigned char c;

	core_utf8_clean(&clean, url, strlen(url));
	for (p = core_buf_cstr(&clean); (c = (unsigned char)*p) != '\0'; p++) {
		if (c <= 0x20 || c == 0x7f || strchr("()<>\\", c) != NULL)
			core_buf_printf(b, "%%%02X", c);
		else
			core_buf_putc(b, (char)c);
	}
	core_buf_free(&clean);
}

void
core_md_link(struct core_buf *b, const char *text, const char *url)
{
	core_buf_putc(b, '[');
	core_md_text(b, text);
	core_buf_puts(b, "](");
	if (url != NULL)
		md_url(b, url);
	core_buf_putc(b, ')');
}

void
core_md_heading(struct core_buf *b, int level, const char *text)
{
	struct core_buf t = CORE_BUF_INIT;
	const char *s;
	size_t end, run;
	int i;

	/* ATX headings have levels 1 to 6; more '#' is a paragraph. */
	if (level < 1)
		level = 1;
	if (level > 6)
		level = 6;
	for (i = 0; i < level; i++)
		core_buf_putc(b, '#');
	core_buf_putc(b, ' ');
	core_md_text(&t, text);
	/*
	 * "# a #" is the heading "a": a trailing run of '#' after a space
	 * is an optional closing sequence and would vanish, so a title
	 * ending in " #" gets that run escaped.
	 */
	s = core_buf_cstr(&t);
	end = t.len;
	while (end > 0 && s[end - 1] == ' ')
		end--;
	for (run = end; run > 0 && s[run - 1] == '#'; run--)
		;
	if (run < end && (run == 0 || s[run - 1] == ' ')) {
		core_buf_put(b, s, run);
		core_buf_putc(b, '\\');
		core_buf_put(b, s + run, t.len - run);
	} else
		core_buf_put(b, s, t.len);
	core_buf_free(&t);
	core_buf_puts(b, "\n\n");
}
