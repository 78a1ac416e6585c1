/*
 * md.c -- the markdown writer, for text served to agents and mailed out.
 * Data must stay data once a markdown renderer reads it: no emphasis,
 * links, headings, lists, tables, HTML or entities may appear from a
 * title: every character CommonMark or GFM gives a meaning to where it
 * stands is backslash-escaped (CommonMark allows a backslash before any
 * ASCII punctuation).  Characters that only matter at the start of a
 * line are escaped only there, so that text stays readable for agents.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/*
 * Characters that mean something anywhere in a line (emphasis, code,
 * links, autolinks and HTML, GFM tables and strikethrough, entities),
 * \ ` * _ { } [ ] < > | ~ &, are told by inline_special() below.
 */
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

/* 1 for the bytes flatten() changes: C0 controls and DEL. */
static int
needs_flatten(const char *s)
{
	unsigned char c;

	for (; (c = (unsigned char)*s) != '\0'; s++)
		if (c < 0x20 || c == 0x7f)
			return 1;
	return 0;
}

/* 1 for the inline specials (a switch: this runs per byte). */
static int
inline_special(char c)
{
	switch (c) {
	case '\\':
	case '`':
	case '*':
	case '_':
	case '{':
	case '}':
	case '[':
	case ']':
	case '<':
	case '>':
	case '|':
	case '~':
	case '&':
		return 1;
	default:
		return 0;
	}
}

void
core_md_text(struct core_buf *b, const char *s)
{
	struct core_buf flat = CORE_BUF_INIT, clean = CORE_BUF_INIT;
	const char *p, *run;
	size_t n;

	if (s == NULL)
		return;
	/* Most text has no control and is clean: then s is used as is. */
	p = s;
	if (needs_flatten(s)) {
		flatten(&flat, s);
		p = core_buf_cstr(&flat);
	}
	/* Replaces invalid UTF-8 and drops C1 controls. */
	n = strlen(p);
	if (core_utf8_clean_span(p, n) < n) {
		core_utf8_clean(&clean, p, n);
		p = core_buf_cstr(&clean);
	}
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
	/* The rest in runs, broken only where something is added. */
	for (run = p; *p != '\0'; p++) {
		/* U+FEFF as a character reference: a reader drops a byte
		 * order mark at the start of a document, and what follows it
		 * would then begin a line unescaped. */
		if (p[0] == '\xEF' && p[1] == '\xBB' && p[2] == '\xBF') {
			core_buf_put(b, run, (size_t)(p - run));
			core_buf_puts(b, "&#xFEFF;");
			p += 2;
			run = p + 1;
			continue;
		}
		if (inline_special(*p)) {
			core_buf_put(b, run, (size_t)(p - run));
			core_buf_putc(b, '\\');
			run = p;
		}
	}
	core_buf_put(b, run, (size_t)(p - run));
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
	static const char hex[] = "0123456789ABCDEF";
	struct core_buf clean = CORE_BUF_INIT;
	const char *p, *run;
	unsigned char c;
	char pct[3];

	core_utf8_clean(&clean, url, strlen(url));
	p = run = core_buf_cstr(&clean);
	for (; (c = (unsigned char)*p) != '\0'; p++) {
		if (c > 0x20 && c != 0x7f && strchr("()<>\\", c) == NULL)
			continue;
		core_buf_put(b, run, (size_t)(p - run));
		pct[0] = '%';
		pct[1] = hex[c >> 4];
		pct[2] = hex[c & 0xf];
		core_buf_put(b, pct, sizeof(pct));
		run = p + 1;
	}
	core_buf_put(b, run, (size_t)(p - run));
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

void
core_md_absolutise(struct core_buf *b, const char *md, const char *base)
{
	const char *p = md, *q;

	while ((q = strstr(p, "](/")) != NULL) {
		core_buf_put(b, p, (size_t)(q - p) + 2);
		core_buf_puts(b, base);
		p = q + 2;
	}
	core_buf_puts(b, p);
}

char *
core_file_read(const char *path, size_t max)
{
	struct core_buf b = CORE_BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	/* Larger files are a mistake, not content: cut at max. */
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && b.len + n <= max)
		core_buf_put(&b, chunk, n);
	fclose(f);
	core_buf_puts(&b, "");
	return core_buf_steal(&b);
}
