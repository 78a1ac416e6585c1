/*
 * test_utf8.c -- core_utf8_valid() and core_utf8_clean().
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

#define V(lit) core_utf8_valid((lit), sizeof(lit) - 1)

/* core_utf8_clean() of the literal, as a fresh string. */
static char *
clean(const char *s, size_t n)
{
	struct core_buf b = CORE_BUF_INIT;

	core_utf8_clean(&b, s, n);
	return core_buf_steal(&b);
}

#define C(lit, want)                                                           \
	do {                                                                   \
		char *t_s = clean((lit), sizeof(lit) - 1);                     \
		T_STREQ(t_s, (want), "clean " #lit);                           \
		free(t_s);                                                     \
	} while (0)

int
main(void)
{
	char *s;

	/* Valid. */
	T_OK(core_utf8_valid("", 0), "empty is valid");
	T_OK(V("hello"), "ASCII");
	T_OK(V("\xc3\xa9mile"), "2-byte é");
	T_OK(V("\xe6\xb7\xb1\xe5\xba\xa6"), "3-byte CJK");
	T_OK(V("\xf0\x9f\x98\x80"), "4-byte emoji");
	T_OK(V("\xf4\x8f\xbf\xbf"), "U+10FFFF");
	T_OK(V("\xee\x80\x80"), "U+E000 private use");
	T_OK(V("\xef\xbf\xbf"), "U+FFFF noncharacter is still UTF-8");
	T_OK(V("\t\n\r\x01\x7f"), "controls are valid UTF-8");

	/* Invalid. */
	T_OK(!V("a\0b"), "NUL");
	T_OK(!V("\x80"), "lone continuation");
	T_OK(!V("\xbf"), "lone continuation 0xbf");
	T_OK(!V("\xc3"), "truncated 2-byte");
	T_OK(!V("\xc3\x28"), "bad continuation");
	T_OK(!V("\xc0\xaf"), "overlong / (2 bytes)");
	T_OK(!V("\xc1\xbf"), "overlong 0x7f");
	T_OK(!V("\xe0\x80\xaf"), "overlong / (3 bytes)");
	T_OK(!V("\xe0\x9f\xbf"), "overlong U+07FF");
	T_OK(!V("\xf0\x80\x80\xaf"), "overlong / (4 bytes)");
	T_OK(!V("\xf0\x8f\xbf\xbf"), "overlong U+FFFF");
	T_OK(!V("\xed\xa0\x80"), "surrogate U+D800");
	T_OK(!V("\xed\xbf\xbf"), "surrogate U+DFFF");
	T_OK(!V("\xed\xa0\xbd\xed\xb8\x80"), "CESU-8 surrogate pair");
	T_OK(!V("\xf4\x90\x80\x80"), "U+110000");
	T_OK(!V("\xf5\x80\x80\x80"), "lead 0xf5");
	T_OK(!V("\xf8\x88\x80\x80\x80"), "5-byte form");
	T_OK(!V("\xfe"), "0xfe");
	T_OK(!V("\xff"), "0xff");
	T_OK(!V("\xe6\xb7"), "truncated 3-byte");
	T_OK(!V("\xf0\x9f\x98"), "truncated 4-byte");
	T_OK(!core_utf8_valid("\xc3\xa9", 1), "length respected");
	T_OK(core_utf8_valid("ab\xff", 2), "bytes past n not read");

	/* Clean: valid text unchanged. */
	C("", "");
	C("plain text", "plain text");
	C("tab\there\nCR\r", "tab\there\nCR\r");
	C("\xc3\xa9mile \xe6\xb7\xb1 \xf0\x9f\x98\x80",
	    "\xc3\xa9mile \xe6\xb7\xb1 \xf0\x9f\x98\x80");
	/* Controls dropped. */
	C("a\0b", "ab");
	C("a\x01\x1b[31mb", "a[31mb");
	C("a\x7f"
	  "b",
	    "ab");
	C("a\xc2\x80\xc2\x9f"
	  "b",
	    "ab");
	C("a\xc2\xa0"
	  "b",
	    "a\xc2\xa0"
	    "b");
	C("\x0b\x0c", "");
	/* Invalid sequences replaced, one U+FFFD per maximal subpart. */
	C("a\xff"
	  "b",
	    "a\xef\xbf\xbd"
	    "b");
	C("\xc3\x28", "\xef\xbf\xbd(");
	C("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	C("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	C("\xe6\xb7", "\xef\xbf\xbd");
	C("\xe6\xb7x", "\xef\xbf\xbdx");
	C("\xf0\x9f\x98", "\xef\xbf\xbd");
	C("\xf0\x9f\x98\xf0\x9f\x98\x80", "\xef\xbf\xbd\xf0\x9f\x98\x80");
	C("\xf4\x90\x80\x80",
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	C("\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd");

	/* Clean appends and its output is always valid. */
	{
		struct core_buf b = CORE_BUF_INIT;

		core_buf_puts(&b, "x:");
		core_utf8_clean(&b, "\xff\xfe\xc3", 3);
		T_STREQ(core_buf_cstr(&b),
		    "x:\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "appends");
		T_OK(core_utf8_valid(b.ptr, b.len), "result valid");
		core_buf_free(&b);
	}
	s = clean("\xe0\x80\x80\xed\xbf\xbf\xf4\xbf\xbf\xbfok", 12);
	T_OK(core_utf8_valid(s, strlen(s)), "mixed garbage cleans valid");
	T_OK(strstr(s, "ok") != NULL, "text after garbage kept");
	free(s);

	return T_DONE();
}
