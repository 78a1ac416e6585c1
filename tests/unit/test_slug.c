/*
 * test_slug.c -- core_slug().
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "t.h"

#define S(in, max, want)                                                       \
	do {                                                                   \
		char *t_s = core_slug((in), (max));                            \
		T_STREQ(t_s, (want), "slug " #in);                             \
		free(t_s);                                                     \
	} while (0)

/* 1 if s is made of [a-z0-9-] with no leading, trailing or double '-'. */
static int
well_formed(const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++) {
		if (s[i] == '-') {
			if (i == 0 || i == n - 1 || s[i + 1] == '-')
				return 0;
		} else if (!((s[i] >= 'a' && s[i] <= 'z') ||
			       (s[i] >= '0' && s[i] <= '9')))
			return 0;
	}
	return 1;
}

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	char *s;
	size_t i;

	/* ASCII. */
	S("Hello World", 80, "hello-world");
	S("  Attention Is All You Need  ", 80, "attention-is-all-you-need");
	S("BERT: Pre-training of Deep Bidirectional Transformers", 80,
	    "bert-pre-training-of-deep-bidirectional-transformers");
	S("a -- b", 80, "a-b");
	S("O'Brien", 80, "o-brien");
	S("GPT-4 & 3.5", 80, "gpt-4-3-5");
	S("", 80, "");
	S("!!! ... ???", 80, "");
	S("---", 80, "");
	S("\t\n", 80, "");
	S(NULL, 80, "");

	/* Accents and compatibility forms. */
	S("\xc3\x89mile Zola", 80, "emile-zola");
	S("E\xcc\x81mile", 80, "emile"); /* decomposed: E + U+0301 */
	S("Paul Erd\xc5\x91s", 80, "paul-erdos");
	S("Fran\xc3\xa7ois Truffaut", 80, "francois-truffaut");
	S("Ant\xc3\xb3nio Egas Moniz", 80, "antonio-egas-moniz");
	S("\xef\xac\x81nance", 80, "finance");      /* U+FB01 fi ligature */
	S("\xe2\x91\xa0 \xe2\x84\x96", 80, "1-no"); /* circled 1, numero */
	S("\xef\xbc\xa1\xef\xbc\xa9", 80, "ai");    /* fullwidth AI */
	S("x\xc2\xb2", 80, "x2");                   /* superscript two */
	S("soft\xc2\xad"
	  "hyphen",
	    80, "softhyphen");
	S("\xc4\xb0stanbul", 80, "istanbul");
	S("Dvo\xc5\x99\xc3\xa1k", 80, "dvorak");

	/* Letters without a decomposition, mapped by hand. */
	S("\xc3\x98rsted", 80, "orsted");
	S("H. C. \xc3\x98rsted", 80, "h-c-orsted");
	S("Gau\xc3\x9f", 80, "gauss");
	S("\xe1\xba\x9e", 80, "ss");
	S("\xc3\x86sop", 80, "aesop");
	S("C\xc3\xa6sar", 80, "caesar");
	S("\xc5\x92uvre \xc5\x93il", 80, "oeuvre-oeil");
	S("\xc5\x81ukasiewicz", 80, "lukasiewicz");
	S("Wa\xc5\x82\xc4\x99sa", 80, "walesa");
	S("\xc4\x90or\xc4\x91"
	  "e",
	    80, "dorde");
	S("\xc3\x9e\xc3\xb3r \xc3\xbe", 80, "thor-th");
	S("Kar\xc4\xb1", 80, "kari");
	S("\xc7\xbf", 80, "o"); /* U+01FF: o-slash with acute */

	/* Scripts with no ASCII form separate words and vanish. */
	S("\xe6\xb7\xb1\xe5\xba\xa6\xe5\xad\xa6\xe4\xb9\xa0", 80, "");
	S("BERT: \xe6\xb7\xb1\xe5\xba\xa6 Learning", 80, "bert-learning");
	S("BERT\xe6\xb7\xb1\xe5\xba\xa6Learning", 80, "bert-learning");
	S("\xd0\x9c\xd0\xb8\xd1\x80 2024", 80, "2024");
	S("\xf0\x9f\x98\x80 emoji \xf0\x9f\x98\x80", 80, "emoji");

	/* Invalid UTF-8: bytes are separators, nothing crashes. */
	S("caf\xc3", 80, "caf");
	S("a\xff"
	  "b",
	    80, "a-b");
	S("a\xc0\xaf"
	  "b",
	    80, "a-b");
	S("a\xed\xa0\x80"
	  "b",
	    80, "a-b");
	S("\xf4\x90\x80\x80x", 80, "x");
	S("\xe6\xb7", 80, "");

	/* Cut at a '-' boundary to at most maxlen bytes. */
	S("hello world again", 11, "hello-world");
	S("hello world again", 12, "hello-world");
	S("hello world again", 13, "hello-world");
	S("hello world again", 10, "hello");
	S("hello world again", 17, "hello-world-again");
	S("hello world again", 5, "hello");
	S("hello world again", 4, "hell");
	S("supercalifragilistic word", 9, "supercali");
	S("abc", 0, "");
	S("\xc3\x89mile Zola", 5, "emile");
	S("Gau\xc3\x9f Weber", 5, "gauss");
	S("Gau\xc3\x9f Weber", 4, "gaus");

	/* A long title. */
	for (i = 0; i < 10000; i++)
		core_buf_puts(&b, "word\xc3\xa9 ");
	s = core_slug(b.ptr, 80);
	T_OK(strlen(s) <= 80, "long input within maxlen");
	T_EQ(strlen(s), 77, "cut after the last whole word");
	T_OK(well_formed(s), "long slug well formed");
	T_OK(strncmp(s, "worde-worde-", 12) == 0, "long slug content");
	free(s);
	s = core_slug(b.ptr, (size_t)-1);
	T_EQ(strlen(s), 60000 - 1, "unbounded maxlen keeps it all");
	T_OK(well_formed(s), "unbounded slug well formed");
	free(s);
	core_buf_free(&b);

	return T_DONE();
}
