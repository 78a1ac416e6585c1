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
	return T_DONE();
}
