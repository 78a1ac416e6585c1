/*
 * test_vectors_token.c -- the tokeniser and stemmer of modules/vectors:
 * papers and queries must meet on the same spelling.
 */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "core.h"
#include "internal.h"

static void
join(void *arg, const char *tok, size_t len)
{
	struct core_buf *b = arg;

	if (b->len > 0)
		core_buf_putc(b, ' ');
	core_buf_put(b, tok, len);
}

static char *
toks(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;

	vec_tokenize(s, strlen(s), join, &b);
	return core_buf_steal(&b);
}

static char *
stem(const char *w)
{
	char buf[64];
	size_t n = strlen(w);

	memcpy(buf, w, n);
	return core_xstrndup(buf, vec_stem(buf, n));
}

#define STEM(w, want)                                                          \
	do {                                                                   \
		char *t_s = stem(w);                                           \
		T_STREQ(t_s, want, "stem " w);                                 \
		free(t_s);                                                     \
	} while (0)
#define TOKS(s, want, what)                                                    \
	do {                                                                   \
		char *t_s = toks(s);                                           \
		T_STREQ(t_s, want, what);                                      \
		free(t_s);                                                     \
	} while (0)

int
main(void)
{
	size_t n;

	/* Porter's own examples (his 1980 paper and reference output). */
	STEM("caresses", "caress");
	STEM("ponies", "poni");
	STEM("cats", "cat");
	STEM("plastered", "plaster");
	STEM("motoring", "motor");
	STEM("hopping", "hop");
	STEM("falling", "fall");
	STEM("filing", "file");
	STEM("happy", "happi");
	STEM("relational", "relat");
	STEM("conditional", "condit");
	STEM("generalization", "gener");
	STEM("adoption", "adopt");
	STEM("effective", "effect");
	STEM("networks", "network");
	STEM("learning", "learn");
	STEM("controll", "control");
	STEM("gpt4s", "gpt4s"); /* digits: left alone */
	STEM("as", "as");       /* two letters: left alone */

	TOKS("The networks are learning", "network learn",
	    "stop words dropped, the rest stemmed");
	TOKS("Neural NETWORKS", "neural network", "case folded");
	TOKS("GPT-4 in 2020, e.g. 3D", "gpt 3d",
	    "digits-only and one-letter tokens dropped");
	TOKS("\xC5\x81UKASIEWICZ", "lukasiewicz", "L with stroke folded");
	TOKS("Schro\xCC\x88"
	     "dinger",
	    "schroding", "combining mark dropped, one word");
	TOKS("Schr\xC3\xB6"
	     "dinger",
	    "schroding", "precomposed o-umlaut");
	TOKS("a\xFF"
	     "bc de",
	    "bc de", "invalid byte separates words");
	TOKS("self-supervised", "self supervis", "hyphen separates");
	TOKS("", "", "empty text");
	TOKS("of the and", "", "only stop words");
	TOKS("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa short", "short",
	    "overlong token dropped");
	TOKS("$\\mathcal{O}(n \\log n)$", "mathcal log",
	    "LaTeX gives its words");

	T_OK(vec_stopword("the", 3), "the is a stop word");
	T_OK(!vec_stopword("network", 7), "network is not");
	n = vec_tokenize("x y z", 5, join, &(struct core_buf)CORE_BUF_INIT);
	T_EQ(n, 0, "single letters give no tokens");
	return T_DONE();
}
