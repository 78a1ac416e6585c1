/*
 * token.c -- words of titles, abstracts and queries: ASCII folding with
 * utf8proc, lower case, stop words, Porter stemming.  Papers and queries
 * go through this one function, so a query term always meets the same
 * spelling in the vocabulary.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core.h"
#include "internal.h"

/* Longest decomposition is 18 code points (U+FDFA); leave room. */
#define DECOMP_MAX 32

/*
 * English function words and the boilerplate of abstracts ("we
 * propose", "in this paper").  Sorted for bsearch(); a test checks.
 */
/* clang-format off */
static const char *const stops[] = {
	"a", "about", "above", "after", "again", "against", "all", "also",
	"although", "am", "among", "an", "and", "another", "any", "are",
	"as", "at", "be", "because", "been", "before", "being", "below",
	"between", "both", "but", "by", "can", "cannot", "could", "did",
	"do", "does", "doing", "done", "down", "due", "during", "each",
	"either", "etc", "even", "ever", "every", "few", "for", "from",
	"further", "had", "has", "have", "having", "he", "her", "here",
	"hers", "herein", "him", "his", "how", "however", "i", "ie", "if",
	"in", "into", "is", "it", "its", "itself", "just", "may", "me",
	"might", "more", "most", "much", "must", "my", "neither", "no",
	"nor", "not", "now", "of", "off", "on", "once", "one", "only", "or",
	"other", "our", "ours", "ourselves", "out", "over", "own", "paper",
	"per", "rather", "same", "she", "should", "since", "so", "some",
	"such", "than", "that", "the", "their", "theirs", "them",
	"themselves", "then", "there", "thereby", "therefore", "these",
	"they", "this", "those", "though", "through", "thus", "to", "too",
	"under", "until", "up", "upon", "us", "very", "via", "was", "we",
	"were", "what", "when", "where", "whether", "which", "while", "who",
	"whom", "whose", "why", "will", "with", "within", "without",
	"would", "yet", "you", "your",
};
/* clang-format on */
#define NSTOPS (sizeof(stops) / sizeof(stops[0]))

/*
 * Letters without a Unicode decomposition but with an obvious ASCII
 * spelling (names of authors: "Łukasiewicz", "Ørsted").
 */
/* clang-format off */
static const struct fold {
	utf8proc_int32_t cp;
	const char *ascii;
} folds[] = {
	{ 0x00c6, "ae" }, { 0x00d0, "d" }, { 0x00d8, "o" }, { 0x00de, "th" },
	{ 0x00df, "ss" }, { 0x00e6, "ae" }, { 0x00f0, "d" }, { 0x00f8, "o" },
	{ 0x00fe, "th" }, { 0x0110, "d" }, { 0x0111, "d" }, { 0x0131, "i" },
	{ 0x0141, "l" }, { 0x0142, "l" }, { 0x0152, "oe" }, { 0x0153, "oe" },
};
/* clang-format on */

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
vec_stopword(const char *w, size_t n)
{
	char buf[16];
	const char *key = buf;

	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return bsearch(&key, stops, NSTOPS, sizeof(stops[0]), cmpstr) != NULL;
}

/* ------------------------------------------------------------------ */
/* Porter's stemmer, after his reference C version: b[0..k] is the     */
/* word, j a cursor set by ends().                                     */
/* ------------------------------------------------------------------ */

struct stem {
	char *b;
	int k, j;
};

static int
cons(const struct stem *z, int i)
{
	switch (z->b[i]) {
	case 'a':
	case 'e':
	case 'i':
	case 'o':
	case 'u':
		return 0;
	case 'y':
		return i == 0 ? 1 : !cons(z, i - 1);
	default:
		return 1;
	}
}

/* Moves *i to the next consonant (c 1) or vowel (c 0) in b[0..j]; 0
 * when there is none. */
static int
seek(const struct stem *z, int *i, int c)
{
	for (; *i <= z->j; (*i)++)
		if ((cons(z, *i) != 0) == c)
			return 1;
	return 0;
}

/* The number of vowel-consonant sequences in b[0..j]. */
static int
measure(const struct stem *z)
{
	int n = 0, i = 0;

	if (!seek(z, &i, 0))
		return n;
	for (i++;; i++) {
		if (!seek(z, &i, 1))
			return n;
		i++;
		n++;
		if (!seek(z, &i, 0))
			return n;
	}
}

static int
vowelinstem(const struct stem *z)
{
	int i;

	for (i = 0; i <= z->j; i++)
		if (!cons(z, i))
			return 1;
	return 0;
}

static int
doublec(const struct stem *z, int j)
{
	if (j < 1 || z->b[j] != z->b[j - 1])
		return 0;
	return cons(z, j);
}

/* Consonant-vowel-consonant ending at i, the last not w, x or y. */
static int
cvc(const struct stem *z, int i)
{
	int ch;

	if (i < 2 || !cons(z, i) || cons(z, i - 1) || !cons(z, i - 2))
		return 0;
	ch = z->b[i];
	return ch != 'w' && ch != 'x' && ch != 'y';
}

/* 1 if b[0..k] ends with s (sets j before the suffix). */
static int
ends(struct stem *z, const char *s)
{
	int len = (int)strlen(s);

	if (len > z->k + 1 || s[len - 1] != z->b[z->k])
		return 0;
	if (memcmp(z->b + z->k - len + 1, s, (size_t)len) != 0)
		return 0;
	z->j = z->k - len;
	return 1;
}

/* Replaces b[j+1..k] by s; never longer than what it replaces here. */
static void
setto(struct stem *z, const char *s)
{
	int len = (int)strlen(s);

	memmove(z->b + z->j + 1, s, (size_t)len);
	z->k = z->j + len;
}

static void
rep(struct stem *z, const char *s)
{
	if (measure(z) > 0)
		setto(z, s);
}

/* Plurals and -ed, -ing. */
static void
step1ab(struct stem *z)
{
	int ch;

	if (z->b[z->k] == 's') {
		if (ends(z, "sses"))
			z->k -= 2;
		else if (ends(z, "ies"))
			setto(z, "i");
		else if (z->b[z->k - 1] != 's')
			z->k--;
	}
	if (ends(z, "eed")) {
		if (measure(z) > 0)
			z->k--;
	} else if ((ends(z, "ed") || ends(z, "ing")) && vowelinstem(z)) {
		z->k = z->j;
		if (ends(z, "at"))
			setto(z, "ate");
		else if (ends(z, "bl"))
			setto(z, "ble");
		else if (ends(z, "iz"))
			setto(z, "ize");
		else if (doublec(z, z->k)) {
			z->k--;
			ch = z->b[z->k];
			if (ch == 'l' || ch == 's' || ch == 'z')
				z->k++;
		} else if ((z->j = z->k, measure(z) == 1) && cvc(z, z->k))
			setto(z, "e");
	}
}

static void
step1c(struct stem *z)
{
	if (ends(z, "y") && vowelinstem(z))
		z->b[z->k] = 'i';
}

/* Double suffixes to single ones: -ization to -ize, ... */
/* clang-format off */
static const char *const step2_tab[][2] = {
	{ "ational", "ate" }, { "tional", "tion" }, { "enci", "ence" },
	{ "anci", "ance" }, { "izer", "ize" }, { "bli", "ble" },
	{ "alli", "al" }, { "entli", "ent" }, { "eli", "e" },
	{ "ousli", "ous" }, { "ization", "ize" }, { "ation", "ate" },
	{ "ator", "ate" }, { "alism", "al" }, { "iveness", "ive" },
	{ "fulness", "ful" }, { "ousness", "ous" }, { "aliti", "al" },
	{ "iviti", "ive" }, { "biliti", "ble" }, { "logi", "log" },
};

static const char *const step3_tab[][2] = {
	{ "icate", "ic" }, { "ative", "" }, { "alize", "al" },
	{ "iciti", "ic" }, { "ical", "ic" }, { "ful", "" }, { "ness", "" },
};

static const char *const step4_tab[] = {
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement",
	"ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
};
/* clang-format on */

/*
 * Porter's steps 2 and 3 switch on a letter to try few suffixes; with
 * words of at most VEC_TOK_MAX letters a scan of the table is as fast
 * and the longest match wins as in his ordering.
 */
static void
step23(struct stem *z, const char *const (*tab)[2], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ends(z, tab[i][0])) {
			rep(z, tab[i][1]);
			return;
		}
}

static void
step4(struct stem *z)
{
	size_t i;

	for (i = 0; i < sizeof(step4_tab) / sizeof(step4_tab[0]); i++) {
		if (!ends(z, step4_tab[i]))
			continue;
		/* -ion only after s or t ("adoption", not "onion") */
		if (strcmp(step4_tab[i], "ion") == 0 &&
		    (z->j < 0 || (z->b[z->j] != 's' && z->b[z->j] != 't')))
			continue;
		if (measure(z) > 1)
			z->k = z->j;
		return;
	}
}

static void
step5(struct stem *z)
{
	int a;

	z->j = z->k;
	if (z->b[z->k] == 'e') {
		a = measure(z);
		if (a > 1 || (a == 1 && !cvc(z, z->k - 1)))
			z->k--;
	}
	/* j stays at the old end, as in Porter's code */
	if (z->b[z->k] == 'l' && doublec(z, z->k) && measure(z) > 1)
		z->k--;
}

size_t
vec_stem(char *w, size_t n)
{
	struct stem z;
	size_t i;

	if (n <= 2 || n > VEC_TOK_MAX)
		return n;
	for (i = 0; i < n; i++)
		if (w[i] < 'a' || w[i] > 'z')
			return n;
	z.b = w;
	z.k = (int)n - 1;
	z.j = 0;
	step1ab(&z);
	if (z.k > 0) {
		step1c(&z);
		step23(&z, step2_tab, sizeof(step2_tab) / sizeof(step2_tab[0]));
		step23(&z, step3_tab, sizeof(step3_tab) / sizeof(step3_tab[0]));
		step4(&z);
		step5(&z);
	}
	return (size_t)z.k + 1;
}

/* ------------------------------------------------------------------ */
/* The tokeniser                                                       */
/* ------------------------------------------------------------------ */

struct tok {
	char w[VEC_TOK_MAX + 1];
	size_t len;
	int toolong, alpha;
	vec_tok_fn fn;
	void *arg;
	size_t count;
};

static void
flush(struct tok *t)
{
	if (t->len >= 2 && !t->toolong && t->alpha &&
	    !vec_stopword(t->w, t->len)) {
		t->len = vec_stem(t->w, t->len);
		t->w[t->len] = '\0';
		t->fn(t->arg, t->w, t->len);
		t->count++;
	}
	t->len = 0;
	t->toolong = 0;
	t->alpha = 0;
}

static void
put(struct tok *t, utf8proc_int32_t cp)
{
	size_t i;

	if (cp >= 'A' && cp <= 'Z')
		cp += 'a' - 'A';
	if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
		if (cp >= 'a')
			t->alpha = 1;
		if (t->len == VEC_TOK_MAX)
			t->toolong = 1;
		else
			t->w[t->len++] = (char)cp;
		return;
	}
	for (i = 0; i < sizeof(folds) / sizeof(folds[0]); i++)
		if (folds[i].cp == cp) {
			const char *a;

			for (a = folds[i].ascii; *a != '\0'; a++)
				put(t, (unsigned char)*a);
			return;
		}
	flush(t);
}

size_t
vec_tokenize(const char *s, size_t n, vec_tok_fn fn, void *arg)
{
	struct tok t;
	const unsigned char *p = (const unsigned char *)s;
	utf8proc_int32_t cp, d[DECOMP_MAX];
	utf8proc_ssize_t r, k, i;

	memset(&t, 0, sizeof(t));
	t.fn = fn;
	t.arg = arg;
	while (n > 0) {
		if (*p < 0x80) {
			put(&t, *p);
			p++;
			n--;
			continue;
		}
		r = utf8proc_iterate(p, n < 4 ? (utf8proc_ssize_t)n : 4, &cp);
		if (r <= 0) {
			/* An invalid byte separates words. */
			flush(&t);
			p++;
			n--;
			continue;
		}
		p += r;
		n -= (size_t)r;
		/* Marks and ignorables give nothing: "e" + U+0301 is "e". */
		if ((k = core_utf8_fold_cp(cp, d, DECOMP_MAX)) < 0) {
			flush(&t);
			continue;
		}
		if (k == 0)
			continue;
		for (i = 0; i < k; i++)
			put(&t, d[i]);
	}
	flush(&t);
	return t.count;
}

int
vec_cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}
