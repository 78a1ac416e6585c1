/*
 * test_md.c -- the markdown writer: everything markdown gives a meaning
 * to is escaped, text stays on one line, links cannot be broken out of.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

static char *
text(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;

	core_md_text(&b, s);
	return core_buf_steal(&b);
}

static char *
mdlink(const char *t, const char *url)
{
	struct core_buf b = CORE_BUF_INIT;

	core_md_link(&b, t, url);
	return core_buf_steal(&b);
}

static char *
heading(int level, const char *t)
{
	struct core_buf b = CORE_BUF_INIT;

	core_md_heading(&b, level, t);
	return core_buf_steal(&b);
}

#define CHECK(expr, want, what)                                                \
	do {                                                                   \
		char *t_s = (expr);                                            \
		T_STREQ(t_s, (want), (what));                                  \
		free(t_s);                                                     \
	} while (0)

/*
 * The writer as first written, one step at a time (flatten controls,
 * clean, line start, then every byte): core_md_text() does the same in
 * runs and must agree byte for byte.
 */
static void
ref_md_text(struct core_buf *b, const char *s)
{
	struct core_buf flat = CORE_BUF_INIT, clean = CORE_BUF_INIT;
	const char *p;
	size_t n;

	for (p = s; *p != '\0'; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		core_buf_putc(&flat,
		    (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
	}
	core_utf8_clean(&clean, core_buf_cstr(&flat), flat.len);
	p = core_buf_cstr(&clean);
	for (n = 0; *p == ' '; p++)
		if (n++ < 3)
			core_buf_putc(b, ' ');
	if (*p != '\0' && strchr("#+-=!", *p) != NULL)
		core_buf_putc(b, '\\');
	else if (*p >= '0' && *p <= '9') {
		while (*p >= '0' && *p <= '9')
			core_buf_putc(b, *p++);
		if (*p == '.' || *p == ')')
			core_buf_putc(b, '\\');
	}
	for (; *p != '\0'; p++) {
		if (strncmp(p, "\xEF\xBB\xBF", 3) == 0) {
			core_buf_puts(b, "&#xFEFF;");
			p += 2;
			continue;
		}
		if (strchr("\\`*_{}[]<>|~&", *p) != NULL)
			core_buf_putc(b, '\\');
		core_buf_putc(b, *p);
	}
	core_buf_free(&flat);
	core_buf_free(&clean);
}

/* How many random texts core_md_text() writes unlike the reference. */
static int
md_mismatches(int rounds)
{
	static const char *const pick[] = { "a", " ", "    ", "#", "-", "1",
		"2.", "3)", "*", "_", "\\", "`", "[", "]", "<", "&", "|", "~",
		"\r\n", "\r", "\n", "\t", "\x01", "\x7f", "\xc2\x85",
		"\xEF\xBB\xBF", "\xc3\xa9", "\xff", "\xe6\xb7", "(", "!" };
	unsigned long st = 5;
	char s[160];
	int r, k, bad = 0;

	for (r = 0; r < rounds; r++) {
		struct core_buf want = CORE_BUF_INIT, got = CORE_BUF_INIT;

		s[0] = '\0';
		for (k = 0; k < 10; k++) {
			st = st * 6364136223846793005UL + 1442695040888963407UL;
			strcat(s,
			    pick[(st >> 33) %
				(sizeof(pick) / sizeof(pick[0]))]);
		}
		ref_md_text(&want, s);
		core_md_text(&got, s);
		bad += strcmp(core_buf_cstr(&want), core_buf_cstr(&got)) != 0;
		core_buf_free(&want);
		core_buf_free(&got);
	}
	return bad;
}

int
main(void)
{
	CHECK(text("plain words"), "plain words", "plain text unchanged");
	CHECK(text("\\`*_{}[]()#+-.!|<>&~;="),
	    "\\\\\\`\\*\\_\\{\\}\\[\\]()#+-.!\\|\\<\\>\\&\\~;=",
	    "inline specials escaped everywhere, line-start ones not mid-line");
	CHECK(text("#1"), "\\#1", "heading marker escaped at the start");
	CHECK(text("-x"), "\\-x", "list marker escaped at the start");
	CHECK(text("  +x"), "  \\+x", "after leading spaces too");
	CHECK(text("> q"), "\\> q", "quote marker at the start");
	CHECK(text("2024. A year"), "2024\\. A year", "ordered list start");
	CHECK(text("3) x"), "3\\) x", "ordered list start with )");
	CHECK(text("GPT-4.5 (a study)"), "GPT-4.5 (a study)",
	    "ordinary punctuation stays readable");
	CHECK(text("<script>alert('x')</script>"),
	    "\\<script\\>alert('x')\\</script\\>", "script tag");
	CHECK(text("**bold** [a](javascript:x) &amp;"),
	    "\\*\\*bold\\*\\* \\[a\\](javascript:x) \\&amp;",
	    "emphasis, link, entity");
	CHECK(text("line one\nline two\r\nthree\rfour"),
	    "line one line two three four", "line breaks become spaces");
	CHECK(text("# not a heading\n- not a list"),
	    "\\# not a heading - not a list", "no block starts");
	CHECK(text("a\x01"
		   "b\tc\x7f"
		   "d"),
	    "a b c d", "controls become spaces");
	CHECK(text("caf\xc3\xa9 \xff x\xc2\x85y"),
	    "caf\xc3\xa9 \xef\xbf\xbd xy",
	    "invalid UTF-8 replaced, C1 dropped");
	CHECK(text("\xef\xbb\xbf# x"), "&#xFEFF;# x",
	    "a leading byte order mark as a reference (readers drop it)");
	CHECK(text("a\xef\xbb\xbf"
		   "b"),
	    "a&#xFEFF;b", "and anywhere else");
	CHECK(text(NULL), "", "NULL appends nothing");

	CHECK(mdlink("A *paper*", "/papers/1-x"),
	    "[A \\*paper\\*](/papers/1-x)", "link");
	CHECK(mdlink("x](javascript:alert(1))", "/a b(c)<d>"),
	    "[x\\](javascript:alert(1))](/a%20b%28c%29%3Cd%3E)",
	    "text cannot close the link, URL specials encoded");
	CHECK(mdlink("t", "http://x/\\"), "[t](http://x/%5C)",
	    "trailing backslash cannot escape the parenthesis");
	CHECK(mdlink("t", "/a\nb\x01"), "[t](/a%0Ab)",
	    "newline encoded, control dropped");
	CHECK(mdlink("t", NULL), "[t]()", "NULL url");

	CHECK(heading(1, "Title <b>"), "# Title \\<b\\>\n\n", "heading 1");
	CHECK(heading(3, "x\ny"), "### x y\n\n", "heading 3, one line");
	CHECK(heading(0, "z"), "# z\n\n", "level clamped up");
	CHECK(heading(9, "z"), "###### z\n\n", "level clamped down");
	/* Found by fuzz_writers: cmark read these back as something else. */
	CHECK(heading(1, "Fixing bug #"), "# Fixing bug \\#\n\n",
	    "a trailing ' #' is not a closing sequence");
	CHECK(heading(2, "a ## "), "## a \\## \n\n",
	    "nor a trailing ' ##' with spaces after");
	CHECK(heading(1, "C# and F#"), "# C# and F#\n\n",
	    "a '#' inside a word stays as it is");
	CHECK(text("      indented"), "   indented",
	    "four leading spaces would be a code block: three kept");
	T_OK(md_mismatches(50000) == 0,
	    "50,000 random texts as the step-by-step writer");
	return T_DONE();
}
