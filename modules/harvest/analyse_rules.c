/*
 * analyse_rules.c -- the pure half of "weft-harvest analyse": the
 * extractive summary, the key phrases, the rule-based paper type, the
 * research field of an arXiv category, and the validation of a language
 * model's answer.  No database and no network, so the unit tests
 * (test_harvest_analyse) call all of it; analyse.c runs it per paper.
 *
 * Words are weighed by the caller's word function (analyse.c passes the
 * semantic index's vocabulary: vec_word(), the stems and idf of the
 * TF-IDF model weft-vectors fits), so that "central" means what the
 * search's model thinks it means.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "analyse.h"

int
harvest_ptype_parse(const char *s)
{
	int i;

	for (i = 0; s != NULL && i < HARVEST_PT__MAX; i++)
		if (strcmp(s, core_paper_types[i]) == 0)
			return i;
	return -1;
}

void
harvest_analysis_clear(struct harvest_analysis *a)
{
	size_t i;

	free(a->summary);
	for (i = 0; i < a->ntopics; i++)
		free(a->topics[i]);
	free(a->field);
	free(a->novelty);
	free(a->rationale);
	memset(a, 0, sizeof(*a));
	a->ptype = -1;
}

/* ------------------------------------------------------------------ */
/* Words and sentences                                                 */
/* ------------------------------------------------------------------ */

/* A byte of a word: letters, digits, '-', and any UTF-8 byte. */
static int
wordbyte(unsigned char c)
{
	return isalnum(c) || c == '-' || c >= 0x80;
}

/*
 * The next word of s[*i..n): its start and length, *i moved past it;
 * -1 at the end.  *brk is set when punctuation (anything but spaces)
 * lies between the previous word and this one: a phrase never spans it.
 */
static long
next_word(const char *s, size_t n, size_t *i, size_t *len, int *brk)
{
	size_t j = *i, k;

	*brk = 0;
	while (j < n && !wordbyte((unsigned char)s[j])) {
		if (!isspace((unsigned char)s[j]))
			*brk = 1;
		j++;
	}
	if (j >= n)
		return -1;
	for (k = j; k < n && wordbyte((unsigned char)s[k]); k++)
		;
	/* "-" at either end is a dash, not part of the word */
	while (k > j && s[k - 1] == '-')
		k--;
	while (j < k && s[j] == '-')
		j++;
	*i = k + (k < n && s[k] == '-' ? 1 : 0);
	*len = k - j;
	if (*len == 0)
		return next_word(s, n, i, len, brk);
	return (long)j;
}

/* Abbreviations a period does not end a sentence after. */
static const char *const abbrevs[] = { "e.g", "i.e", "al", "etc", "vs", "cf",
	"fig", "figs", "eq", "eqs", "sec", "ref", "refs", "resp", "approx",
	"no", "dr", "prof", "st", "ca", "viz", NULL };

static int
abbrev_before(const char *s, size_t dot)
{
	size_t b = dot;
	size_t k;
	int i;

	while (b > 0 && (isalpha((unsigned char)s[b - 1]) || s[b - 1] == '.'))
		b--;
	k = dot - b;
	for (i = 0; abbrevs[i] != NULL; i++)
		if (strlen(abbrevs[i]) == k &&
		    strncasecmp(s + b, abbrevs[i], k) == 0)
			return 1;
	/* one capital letter: an initial ("J. Smith") */
	return k == 1 && isupper((unsigned char)s[b]);
}

size_t
harvest_sentences(const char *s, struct harvest_span *out, size_t max)
{
	size_t n = strlen(s), i, start = 0, k = 0, j;

	for (i = 0; i < n && k < max; i++) {
		if (s[i] != '.' && s[i] != '!' && s[i] != '?')
			continue;
		j = i + 1;
		while (j < n && (s[j] == '"' || s[j] == ')' || s[j] == '\''))
			j++;
		if (j < n && !isspace((unsigned char)s[j]))
			continue; /* "0.5", "e.g.," */
		if (s[i] == '.' && abbrev_before(s, i))
			continue;
		while (j < n && isspace((unsigned char)s[j]))
			j++;
		if (j < n && islower((unsigned char)s[j]))
			continue;
		while (start < i && isspace((unsigned char)s[start]))
			start++;
		if (i + 1 > start) {
			out[k].off = start;
			out[k].len = i + 1 - start;
			k++;
		}
		start = j;
		i = j - 1;
	}
	while (start < n && isspace((unsigned char)s[start]))
		start++;
	if (k < max && start < n) {
		j = n;
		while (j > start && isspace((unsigned char)s[j - 1]))
			j--;
		out[k].off = start;
		out[k].len = j - start;
		k++;
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* The document's terms: stems with their counts and idf               */
/* ------------------------------------------------------------------ */

#define TERMS_MAX 1024

struct terms {
	char stem[TERMS_MAX][HARVEST_STEM_MAX];
	float idf[TERMS_MAX];
	int tf[TERMS_MAX];
	size_t n;
};

/* Stems the caller's word function treats as no word at all, plus the
 * words of every abstract that name no topic. */
static const char *const generic[] = { "paper", "propos", "present", "show",
	"novel", "new", "result", "also", "use", "base", "via", "exist",
	"variou", "differ", "sever", "howev", "first", "specif", "signific",
	"effect", "effici", "recent", "well", "work", "studi", "approach",
	"achiev", "demonstr", "improv", "outperform", "enabl", "provid",
	"introduc", "develop", "evalu", "conduct", "examin", "investig",
	"reveal", "find", "includ", "make", "remain", "across", "within",
	"without", "among", "key", "larg", "high", "low", "good", "better",
	"best", "state", "art", "typic", "common", "often", "mani", "moreov",
	"furthermor", "addit", "import", "challeng", "problem", "task",
	"perform", "abl", "allow", "given", "two", "three", "one", "model",
	"method", "framework", "techniqu", "result", "leverag", "aim", "goal",
	"toward", "paradigm", "set", "show", "signific", "term", "way", "still",
	"like", "requir", "need", "lack", "limit", "despit", "wide", "broad",
	"potenti", "current", "previou", "prior", "manner", "extens",
	"comprehens", "robust", "accur", "outcom", "novel", "consist", "overal",
	"real", "world", "wherea", "thu", "henc", "therefor", "addition",
	NULL };

static int
is_generic(const char *stem)
{
	int i;

	for (i = 0; generic[i] != NULL; i++)
		if (strcmp(stem, generic[i]) == 0)
			return 1;
	return 0;
}

/* The idf given to a word the model does not know (seen in fewer than
 * two papers when it was fit: rare, so specific). */
#define IDF_UNKNOWN 7.0f

static int
term_add(struct terms *t, const char *stem, float idf)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->stem[i], stem) == 0) {
			t->tf[i]++;
			return (int)i;
		}
	if (t->n == TERMS_MAX)
		return -1;
	snprintf(t->stem[t->n], HARVEST_STEM_MAX, "%s", stem);
	t->idf[t->n] = idf > 0 ? idf : IDF_UNKNOWN;
	t->tf[t->n] = 1;
	return (int)t->n++;
}

static int
term_find(const struct terms *t, const char *stem)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->stem[i], stem) == 0)
			return (int)i;
	return -1;
}

/* A word: its stem's term, or -1 for a stop word, a generic word, a
 * word with digits or one too long. */
static int
word_term(const struct harvest_words *wf, struct terms *t, const char *w,
    size_t n, int add)
{
	char stem[HARVEST_STEM_MAX];
	float idf;
	size_t i;

	if (n >= HARVEST_STEM_MAX * 2)
		return -1;
	for (i = 0; i < n; i++)
		if (isdigit((unsigned char)w[i]))
			return -1;
	if (wf->word(wf->arg, w, n, stem, &idf) != 0 || is_generic(stem))
		return -1;
	return add ? term_add(t, stem, idf) : term_find(t, stem);
}

static void
count_terms(const struct harvest_words *wf, struct terms *t, const char *s)
{
	size_t i = 0, len, n = strlen(s);
	long at;
	int brk;

	while ((at = next_word(s, n, &i, &len, &brk)) >= 0)
		(void)word_term(wf, t, s + at, len, 1);
}

/* ------------------------------------------------------------------ */
/* The summary                                                         */
/* ------------------------------------------------------------------ */

/* Phrases that announce what the paper does: the TL;DR is there.  The
 * first ones say what the paper is (3 points), the others what it
 * found (1.5). */
static const char *const cues[] = { "we propose", "we present", "we introduce",
	"this paper", "in this paper", "in this work", "this study",
	"we develop", "we design", "we build", "this work", "this article",
	"we survey", "we review", "here we", "we study", "we investigate",
	"we argue", "we prove", NULL, "we show", "we find", "our results",
	"we conduct", "we release", "we demonstrate", "results show", NULL };

static double
cue_points(const char *s, size_t n)
{
	char buf[1024];
	size_t i, m = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	int k;
	double pts = 3.0;

	for (i = 0; i < m; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[m] = '\0';
	for (k = 0; pts > 0; k++) {
		if (cues[k] == NULL) {
			pts = pts > 2 ? 1.5 : 0;
			continue;
		}
		if (strstr(buf, cues[k]) != NULL)
			return pts;
	}
	return 0;
}

#define SENT_MAX 64
/* The summary's budget: one sentence always, a second when both fit. */
#define SUMMARY_MAX 360

char *
harvest_summary(const struct harvest_words *wf, const char *abstract)
{
	struct harvest_span sp[SENT_MAX];
	struct terms *t = core_xcalloc(1, sizeof(*t));
	double score[SENT_MAX], cent[SENT_MAX], maxcent = 0;
	double best = -1e9, second = -1e9;
	size_t ns, i, j, len, nw;
	long at, b1 = -1, b2 = -1;
	struct core_buf out = CORE_BUF_INIT;
	char *r = NULL;
	int brk, ti;

	if (abstract == NULL ||
	    (ns = harvest_sentences(abstract, sp, SENT_MAX)) == 0)
		goto out;
	count_terms(wf, t, abstract);
	for (i = 0; i < ns; i++) {
		const char *s = abstract + sp[i].off;
		double w = 0;

		j = 0;
		nw = 0;
		while ((at = next_word(s, sp[i].len, &j, &len, &brk)) >= 0) {
			nw++;
			ti = word_term(wf, t, s + at, len, 0);
			/* central: a specific word the abstract repeats */
			if (ti >= 0 && t->tf[ti] > 1)
				w += t->idf[ti] * log(1.0 + t->tf[ti]);
		}
		cent[i] = w / sqrt((double)(nw > 0 ? nw : 1));
		if (cent[i] > maxcent)
			maxcent = cent[i];
		score[i] = cue_points(s, sp[i].len) +
		    (i < 3 ? 0.5 - (double)i / 6 : 0) - (nw < 8 ? 4.0 : 0) -
		    (nw > 60 ? 3.0 : 0);
	}
	for (i = 0; i < ns; i++)
		score[i] += maxcent > 0 ? 4.0 * cent[i] / maxcent : 0;
	for (i = 0; i < ns; i++)
		if (score[i] > best) {
			best = score[i];
			b1 = (long)i;
		}
	for (i = 0; i < ns; i++)
		if ((long)i != b1 && score[i] > second &&
		    sp[i].len + sp[b1].len + 1 <= SUMMARY_MAX) {
			second = score[i];
			b2 = (long)i;
		}
	/* the second only when it is nearly as good */
	if (b2 >= 0 && second < best * 0.6)
		b2 = -1;
	if (b2 >= 0 && b2 < b1) {
		at = b1;
		b1 = b2;
		b2 = at;
	}
	core_buf_put(&out, abstract + sp[b1].off, sp[b1].len);
	if (b2 >= 0) {
		core_buf_putc(&out, ' ');
		core_buf_put(&out, abstract + sp[b2].off, sp[b2].len);
	}
	/* line breaks of the abstract become spaces */
	for (i = 0; i < out.len; i++)
		if (out.ptr[i] == '\n' || out.ptr[i] == '\r' ||
		    out.ptr[i] == '\t')
			out.ptr[i] = ' ';
	r = core_xstrdup(core_buf_cstr(&out));
out:
	core_buf_free(&out);
	free(t);
	return r;
}

/* ------------------------------------------------------------------ */
/* Key phrases                                                         */
/* ------------------------------------------------------------------ */

#define CAND_MAX   512
#define PHRASE_MAX 3

struct cand {
	int term[PHRASE_MAX];
	int nterm;
	size_t off, len; /* surface text in its source */
	int title;       /* 1: from the title */
	int freq;
	double score;
};

static int
same_terms(const struct cand *a, const struct cand *b)
{
	int i;

	if (a->nterm != b->nterm)
		return 0;
	for (i = 0; i < a->nterm; i++)
		if (a->term[i] != b->term[i])
			return 0;
	return 1;
}

/* 1 when every term of a is among b's. */
static int
terms_within(const struct cand *a, const struct cand *b)
{
	int i, j, found;

	for (i = 0; i < a->nterm; i++) {
		for (found = 0, j = 0; j < b->nterm; j++)
			found |= a->term[i] == b->term[j];
		if (!found)
			return 0;
	}
	return 1;
}

static void
cand_add(struct cand *c, size_t *nc, const int *term, int k, const size_t *woff,
    const size_t *wend, int title)
{
	struct cand x;
	size_t i;

	memset(&x, 0, sizeof(x));
	memcpy(x.term, term, (size_t)k * sizeof(int));
	x.nterm = k;
	x.off = woff[0];
	x.len = wend[k - 1] - woff[0];
	x.title = title;
	x.freq = 1;
	for (i = 0; i < *nc; i++)
		if (same_terms(&c[i], &x)) {
			c[i].freq++;
			c[i].title |= title;
			return;
		}
	if (*nc < CAND_MAX)
		c[(*nc)++] = x;
}

/* Every run of 1..PHRASE_MAX topic words of s, not across punctuation. */
static void
candidates(const struct harvest_words *wf, struct terms *t, const char *s,
    int title, struct cand *c, size_t *nc)
{
	size_t i = 0, len, n = strlen(s), woff[64], wend[64];
	int run[64], nrun = 0, brk, ti, k, st;
	long at;

	for (;;) {
		at = next_word(s, n, &i, &len, &brk);
		ti = at >= 0 ? word_term(wf, t, s + at, len, 0) : -1;
		if (at < 0 || brk || ti < 0 || nrun == 64) {
			for (st = 0; st < nrun; st++)
				for (k = 1; k <= PHRASE_MAX && st + k <= nrun;
				     k++)
					cand_add(c, nc, run + st, k, woff + st,
					    wend + st, title);
			nrun = 0;
		}
		if (at < 0)
			break;
		if (ti < 0)
			continue;
		run[nrun] = ti;
		woff[nrun] = (size_t)at;
		wend[nrun] = (size_t)at + len;
		nrun++;
	}
}

static int
cmpcand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The phrase as shown: lower case, but "GPU", "PyTorch", "LLMs" kept. */
static char *
surface(const char *s, size_t len)
{
	char *r = core_xcalloc(1, len + 1);
	size_t i, w;
	int keep;

	memcpy(r, s, len);
	/* lower-case each word whose letters after the first are lower */
	for (i = 0; i < len; i = w + 1) {
		size_t j;

		for (w = i; w < len && !isspace((unsigned char)r[w]); w++)
			;
		for (keep = 0, j = i + 1; j < w; j++)
			keep |= isupper((unsigned char)r[j]);
		if (!keep)
			r[i] = (char)tolower((unsigned char)r[i]);
		if (w >= len)
			break;
	}
	for (i = 0; i < len; i++)
		if (isspace((unsigned char)r[i]))
			r[i] = ' ';
	return r;
}

size_t
harvest_topics(const struct harvest_words *wf, const char *title,
    const char *abstract, char **out, size_t max)
{
	struct terms *t = core_xcalloc(1, sizeof(*t));
	struct cand *c = core_xcalloc(CAND_MAX, sizeof(*c));
	size_t nc = 0, ntitle, i, k = 0, j;
	double tfidf;
	int w, dup;
	const char *src;

	count_terms(wf, t, title != NULL ? title : "");
	count_terms(wf, t, abstract != NULL ? abstract : "");
	candidates(wf, t, title != NULL ? title : "", 1, c, &nc);
	ntitle = nc;
	candidates(wf, t, abstract != NULL ? abstract : "", 0, c, &nc);
	for (i = 0; i < nc; i++) {
		tfidf = 0;
		for (w = 0; w < c[i].nterm; w++)
			tfidf += log(1.0 + t->tf[c[i].term[w]]) *
			    t->idf[c[i].term[w]];
		c[i].score = tfidf / sqrt((double)c[i].nterm) *
		    (1.0 + 0.7 * log((double)c[i].freq)) *
		    (c[i].title ? 1.5 : 1.0);
		/* a lone word must be specific and repeated */
		if (c[i].nterm == 1 &&
		    (t->idf[c[i].term[0]] < 3.0 || t->tf[c[i].term[0]] < 2))
			c[i].score = 0;
		/* a phrase seen once is a phrase only if it is short */
		if (c[i].nterm == 3 && c[i].freq < 2)
			c[i].score *= 0.5;
		/* which text the surface form comes from */
		c[i].title = i < ntitle;
	}
	qsort(c, nc, sizeof(*c), cmpcand);
	for (i = 0; i < nc && k < max; i++) {
		if (c[i].score <= 0)
			break;
		for (dup = 0, j = 0; j < i && !dup; j++)
			if (c[j].score < 0 &&
			    (terms_within(&c[i], &c[j]) ||
				terms_within(&c[j], &c[i])))
				dup = 1;
		if (dup)
			continue;
		src = c[i].title ? title : abstract;
		out[k++] = surface(src + c[i].off, c[i].len);
		c[i].score = -c[i].score; /* chosen: the dedup sees it */
	}
	free(c);
	free(t);
	return k;
}

/* ------------------------------------------------------------------ */
/* The paper type                                                      */
/* ------------------------------------------------------------------ */

/*
 * The rules, measured with "weft-harvest analyse --eval" on the
 * hand-labelled sample tests/data/analyse/paper_types.tsv (64 bundled
 * papers, the first 44 used to tune these cues, the last 20 held out):
 * tuning 36/44 = 0.82, held-out 19/20 = 0.95 (a first cut, before
 * weights and the systems categories, gave 0.50 and 0.60: "benchmark"
 * and "dataset" in any ML abstract, "latency" or "tool" anywhere).
 * Each type has cue phrases with a weight, some for the title only or
 * the abstract only; a cue counts its weight in the abstract, three
 * times it in the title, once each.  The type with the most points
 * wins, ties to the rarer, more telling types first (survey,
 * benchmark, position, theory, empirical, system); no points at all is
 * "method", the most common type of the archive.  A primary category
 * in math or theory of computing (cs.CC, cs.DM, cs.FL, cs.LO, cs.GT,
 * math-ph, hep-th) gives theory 2 points, one in systems (cs.DC, cs.OS,
 * cs.DB, cs.NI, cs.AR, cs.PF) gives system 2.
 */
struct cue {
	int type;
	const char *text;
	int where; /* 0 title or abstract, 1 title only, 2 abstract only */
	int w;     /* points in the abstract; three times that in the title */
};

#define E HARVEST_PT_EMPIRICAL
#define M HARVEST_PT_METHOD
#define S HARVEST_PT_SYSTEM
#define B HARVEST_PT_BENCHMARK
#define V HARVEST_PT_SURVEY
#define T HARVEST_PT_THEORY
#define P HARVEST_PT_POSITION
static const struct cue type_cues[] = {
	{ V, "survey", 1, 2 },
	{ V, "a survey", 2, 3 },
	{ V, "this survey", 2, 3 },
	{ V, "literature review", 0, 3 },
	{ V, "systematic review", 0, 3 },
	{ V, "systematic mapping", 0, 3 },
	{ V, "a review of", 0, 2 },
	{ V, "we review", 2, 2 },
	{ V, "tutorial", 0, 2 },
	{ V, "overview of", 0, 1 },
	{ B, "bench", 1, 2 },
	{ B, "benchmark", 1, 1 },
	{ B, "dataset", 1, 2 },
	{ B, "corpus", 1, 2 },
	{ B, "new benchmark", 2, 3 },
	{ B, "novel benchmark", 2, 3 },
	{ B, "a benchmark for", 2, 3 },
	{ B, "a benchmark of", 2, 3 },
	{ B, "new dataset", 2, 3 },
	{ B, "a dataset of", 2, 2 },
	{ B, "a large-scale dataset", 2, 3 },
	{ B, "leaderboard", 2, 1 },
	{ B, "we release", 2, 1 },
	{ P, "position paper", 2, 6 },
	{ P, "vision paper", 2, 6 },
	{ P, "position:", 1, 3 },
	{ P, "our vision", 2, 3 },
	{ P, "we argue", 2, 2 },
	{ P, "this paper argues", 2, 3 },
	{ P, "we advocate", 2, 3 },
	{ P, "we call for", 2, 3 },
	{ P, "we envision", 2, 2 },
	{ P, "research agenda", 2, 2 },
	{ P, "manifesto", 0, 3 },
	{ P, "towards a", 1, 1 },
	{ P, " as a ", 1, 1 },
	{ P, "should", 1, 1 },
	{ T, "we prove", 2, 3 },
	{ T, "theorem", 0, 2 },
	{ T, "lemma", 2, 2 },
	{ T, "upper bound", 2, 2 },
	{ T, "lower bound", 2, 2 },
	{ T, "tight bound", 2, 2 },
	{ T, "theoretically", 2, 2 },
	{ T, "we formalize", 2, 2 },
	{ T, "identifiab", 0, 2 },
	{ T, "conjecture", 0, 2 },
	{ T, "np-hard", 2, 2 },
	{ T, "sample complexity", 2, 2 },
	{ T, "convergence rate", 2, 2 },
	{ T, "near-optimal", 0, 1 },
	{ T, "optimality", 1, 1 },
	{ E, "empirical study", 0, 3 },
	{ E, "empirical analysis", 0, 3 },
	{ E, "empirical evaluation", 0, 2 },
	{ E, "exploratory study", 0, 3 },
	{ E, "large-scale study", 0, 3 },
	{ E, "case study", 0, 3 },
	{ E, "user study", 2, 2 },
	{ E, "we study", 2, 1 },
	{ E, "we analyze", 2, 1 },
	{ E, "we analyse", 2, 1 },
	{ E, "we investigate", 2, 1 },
	{ E, "we examine", 2, 1 },
	{ E, "we explore", 2, 1 },
	{ E, "this study investigates", 2, 2 },
	{ E, "we interviewed", 2, 3 },
	{ E, "we surveyed", 2, 3 },
	{ E, "interviews", 2, 2 },
	{ E, "questionnaire", 2, 2 },
	{ E, "practitioners", 2, 1 },
	{ E, "our findings", 2, 2 },
	{ E, "findings", 2, 1 },
	{ E, "we find that", 2, 2 },
	{ E, "comparative study", 0, 3 },
	{ E, "study", 1, 1 },
	{ E, "understanding", 1, 1 },
	{ E, "rethinking", 1, 1 },
	{ E, "effect of", 1, 1 },
	{ E, "reliability of", 1, 1 },
	{ E, "how do", 1, 1 },
	{ E, "do we", 1, 1 },
	{ E, "are ", 1, 1 },
	{ E, "what a", 1, 1 },
	{ S, "we implement", 2, 2 },
	{ S, "we build", 2, 2 },
	{ S, "design and implement", 2, 3 },
	{ S, "open-source", 2, 1 },
	{ S, "prototype", 2, 1 },
	{ S, "runtime", 0, 1 },
	{ S, "serving", 0, 1 },
	{ S, "throughput", 2, 1 },
	{ S, "in production", 2, 2 },
	{ S, "production", 2, 1 },
	{ S, "our platform", 2, 2 },
	{ S, "our system", 2, 2 },
	{ S, "the system", 2, 1 },
	{ S, "toolkit", 0, 2 },
	{ S, "simulator", 0, 1 },
	{ S, "system", 1, 1 },
	{ S, "layer", 1, 1 },
	{ S, "abstraction", 1, 1 },
	{ M, "we propose", 2, 2 },
	{ M, "we introduce", 2, 1 },
	{ M, "novel method", 2, 2 },
	{ M, "novel framework", 2, 2 },
	{ M, "a novel", 2, 1 },
	{ M, "algorithm", 2, 1 },
	{ M, "outperforms", 2, 2 },
	{ M, "state-of-the-art", 2, 1 },
	{ M, "our method", 2, 2 },
	{ M, "our approach", 2, 2 },
	{ M, "our model", 2, 1 },
	{ M, "framework", 1, 1 },
	{ M, "learning", 1, 1 },
	{ M, " via ", 1, 1 },
	{ M, " with ", 1, 1 },
	{ M, " for ", 1, 1 },
	{ 0, NULL, 0, 0 },
};
#undef E
#undef M
#undef S
#undef B
#undef V
#undef T
#undef P

/* The order ties are broken in: the rarer, more telling types first. */
static const int tie_order[HARVEST_PT__MAX] = { HARVEST_PT_SURVEY,
	HARVEST_PT_BENCHMARK, HARVEST_PT_POSITION, HARVEST_PT_THEORY,
	HARVEST_PT_EMPIRICAL, HARVEST_PT_SYSTEM, HARVEST_PT_METHOD };

static char *
lower_dup(const char *s)
{
	char *r = core_xstrdup(s != NULL ? s : "");
	size_t i;

	for (i = 0; r[i] != '\0'; i++) {
		r[i] = (char)tolower((unsigned char)r[i]);
		if (r[i] == '\n' || r[i] == '\t')
			r[i] = ' ';
	}
	return r;
}

static int
theory_category(const char *cat)
{
	static const char *const cats[] = { "cs.CC", "cs.DM", "cs.FL", "cs.LO",
		"cs.GT", "math-ph", "hep-th", NULL };
	int i;

	if (cat == NULL)
		return 0;
	if (strncmp(cat, "math.", 5) == 0 && strcmp(cat, "math.NA") != 0 &&
	    strcmp(cat, "math.OC") != 0 && strcmp(cat, "math.ST") != 0)
		return 1;
	for (i = 0; cats[i] != NULL; i++)
		if (strcmp(cat, cats[i]) == 0)
			return 1;
	return 0;
}

static int
systems_category(const char *cat)
{
	static const char *const cats[] = { "cs.DC", "cs.OS", "cs.DB", "cs.NI",
		"cs.AR", "cs.PF", NULL };
	int i;

	for (i = 0; cat != NULL && cats[i] != NULL; i++)
		if (strcmp(cat, cats[i]) == 0)
			return 1;
	return 0;
}

int
harvest_ptype_rules(const char *title, const char *abstract,
    const char *primary_category, int points[HARVEST_PT__MAX])
{
	char *t = lower_dup(title), *a = lower_dup(abstract);
	int p[HARVEST_PT__MAX] = { 0 }, i, best = HARVEST_PT_METHOD, bp = 0;
	const struct cue *c;

	for (c = type_cues; c->text != NULL; c++) {
		if (c->where != 2 && strstr(t, c->text) != NULL)
			p[c->type] += 3 * c->w;
		else if (c->where != 1 && strstr(a, c->text) != NULL)
			p[c->type] += c->w;
	}
	if (theory_category(primary_category))
		p[HARVEST_PT_THEORY] += 2;
	if (systems_category(primary_category))
		p[HARVEST_PT_SYSTEM] += 2;
	for (i = 0; i < HARVEST_PT__MAX; i++)
		if (p[tie_order[i]] > bp) {
			bp = p[tie_order[i]];
			best = tie_order[i];
		}
	if (points != NULL)
		memcpy(points, p, sizeof(p));
	free(t);
	free(a);
	return best;
}

/* ------------------------------------------------------------------ */
/* Research fields: the arXiv category taxonomy, readable              */
/* ------------------------------------------------------------------ */

struct field {
	const char *code, *name;
};

/* Archives (the part before the dot), then categories. */
static const struct field archives[] = {
	{ "cs", "Computer Science" },
	{ "math", "Mathematics" },
	{ "stat", "Statistics" },
	{ "eess", "Electrical Engineering and Systems Science" },
	{ "econ", "Economics" },
	{ "q-bio", "Quantitative Biology" },
	{ "q-fin", "Quantitative Finance" },
	{ "astro-ph", "Astrophysics" },
	{ "cond-mat", "Condensed Matter" },
	{ "physics", "Physics" },
	{ "hep-th", "Physics" },
	{ "hep-ph", "Physics" },
	{ "hep-ex", "Physics" },
	{ "hep-lat", "Physics" },
	{ "gr-qc", "Physics" },
	{ "quant-ph", "Physics" },
	{ "math-ph", "Physics" },
	{ "nucl-th", "Physics" },
	{ "nucl-ex", "Physics" },
	{ "nlin", "Physics" },
	{ NULL, NULL },
};

static const struct field categories[] = {
	{ "cs.AI", "Artificial Intelligence" },
	{ "cs.AR", "Hardware Architecture" },
	{ "cs.CC", "Computational Complexity" },
	{ "cs.CE", "Computational Engineering, Finance, and Science" },
	{ "cs.CG", "Computational Geometry" },
	{ "cs.CL", "Computation and Language" },
	{ "cs.CR", "Cryptography and Security" },
	{ "cs.CV", "Computer Vision and Pattern Recognition" },
	{ "cs.CY", "Computers and Society" },
	{ "cs.DB", "Databases" },
	{ "cs.DC", "Distributed, Parallel, and Cluster Computing" },
	{ "cs.DL", "Digital Libraries" },
	{ "cs.DM", "Discrete Mathematics" },
	{ "cs.DS", "Data Structures and Algorithms" },
	{ "cs.ET", "Emerging Technologies" },
	{ "cs.FL", "Formal Languages and Automata Theory" },
	{ "cs.GL", "General Literature" },
	{ "cs.GR", "Graphics" },
	{ "cs.GT", "Computer Science and Game Theory" },
	{ "cs.HC", "Human-Computer Interaction" },
	{ "cs.IR", "Information Retrieval" },
	{ "cs.IT", "Information Theory" },
	{ "cs.LG", "Machine Learning" },
	{ "cs.LO", "Logic in Computer Science" },
	{ "cs.MA", "Multiagent Systems" },
	{ "cs.MM", "Multimedia" },
	{ "cs.MS", "Mathematical Software" },
	{ "cs.NA", "Numerical Analysis" },
	{ "cs.NE", "Neural and Evolutionary Computing" },
	{ "cs.NI", "Networking and Internet Architecture" },
	{ "cs.OH", "Other Computer Science" },
	{ "cs.OS", "Operating Systems" },
	{ "cs.PF", "Performance" },
	{ "cs.PL", "Programming Languages" },
	{ "cs.RO", "Robotics" },
	{ "cs.SC", "Symbolic Computation" },
	{ "cs.SD", "Sound" },
	{ "cs.SE", "Software Engineering" },
	{ "cs.SI", "Social and Information Networks" },
	{ "cs.SY", "Systems and Control" },
	{ "math.AG", "Algebraic Geometry" },
	{ "math.AP", "Analysis of PDEs" },
	{ "math.AT", "Algebraic Topology" },
	{ "math.CA", "Classical Analysis and ODEs" },
	{ "math.CO", "Combinatorics" },
	{ "math.CT", "Category Theory" },
	{ "math.CV", "Complex Variables" },
	{ "math.DG", "Differential Geometry" },
	{ "math.DS", "Dynamical Systems" },
	{ "math.FA", "Functional Analysis" },
	{ "math.GM", "General Mathematics" },
	{ "math.GN", "General Topology" },
	{ "math.GR", "Group Theory" },
	{ "math.GT", "Geometric Topology" },
	{ "math.HO", "History and Overview" },
	{ "math.IT", "Information Theory" },
	{ "math.KT", "K-Theory and Homology" },
	{ "math.LO", "Logic" },
	{ "math.MG", "Metric Geometry" },
	{ "math.MP", "Mathematical Physics" },
	{ "math.NA", "Numerical Analysis" },
	{ "math.NT", "Number Theory" },
	{ "math.OA", "Operator Algebras" },
	{ "math.OC", "Optimization and Control" },
	{ "math.PR", "Probability" },
	{ "math.QA", "Quantum Algebra" },
	{ "math.RA", "Rings and Algebras" },
	{ "math.RT", "Representation Theory" },
	{ "math.SG", "Symplectic Geometry" },
	{ "math.SP", "Spectral Theory" },
	{ "math.ST", "Statistics Theory" },
	{ "stat.AP", "Applications" },
	{ "stat.CO", "Computation" },
	{ "stat.ME", "Methodology" },
	{ "stat.ML", "Machine Learning" },
	{ "stat.OT", "Other Statistics" },
	{ "stat.TH", "Statistics Theory" },
	{ "eess.AS", "Audio and Speech Processing" },
	{ "eess.IV", "Image and Video Processing" },
	{ "eess.SP", "Signal Processing" },
	{ "eess.SY", "Systems and Control" },
	{ "econ.EM", "Econometrics" },
	{ "econ.GN", "General Economics" },
	{ "econ.TH", "Theoretical Economics" },
	{ "q-bio.BM", "Biomolecules" },
	{ "q-bio.GN", "Genomics" },
	{ "q-bio.NC", "Neurons and Cognition" },
	{ "q-bio.PE", "Populations and Evolution" },
	{ "q-bio.QM", "Quantitative Methods" },
	{ "q-fin.CP", "Computational Finance" },
	{ "q-fin.RM", "Risk Management" },
	{ "q-fin.ST", "Statistical Finance" },
	{ "astro-ph.CO", "Cosmology and Nongalactic Astrophysics" },
	{ "astro-ph.EP", "Earth and Planetary Astrophysics" },
	{ "astro-ph.GA", "Astrophysics of Galaxies" },
	{ "astro-ph.HE", "High Energy Astrophysical Phenomena" },
	{ "astro-ph.IM", "Instrumentation and Methods for Astrophysics" },
	{ "astro-ph.SR", "Solar and Stellar Astrophysics" },
	{ "cond-mat.dis-nn", "Disordered Systems and Neural Networks" },
	{ "cond-mat.mes-hall", "Mesoscale and Nanoscale Physics" },
	{ "cond-mat.mtrl-sci", "Materials Science" },
	{ "cond-mat.other", "Other Condensed Matter" },
	{ "cond-mat.quant-gas", "Quantum Gases" },
	{ "cond-mat.soft", "Soft Condensed Matter" },
	{ "cond-mat.stat-mech", "Statistical Mechanics" },
	{ "cond-mat.str-el", "Strongly Correlated Electrons" },
	{ "cond-mat.supr-con", "Superconductivity" },
	{ "hep-th", "High Energy Physics - Theory" },
	{ "hep-ph", "High Energy Physics - Phenomenology" },
	{ "hep-ex", "High Energy Physics - Experiment" },
	{ "hep-lat", "High Energy Physics - Lattice" },
	{ "gr-qc", "General Relativity and Quantum Cosmology" },
	{ "quant-ph", "Quantum Physics" },
	{ "math-ph", "Mathematical Physics" },
	{ "nucl-th", "Nuclear Theory" },
	{ "nucl-ex", "Nuclear Experiment" },
	{ "physics.optics", "Optics" },
	{ "physics.comp-ph", "Computational Physics" },
	{ "physics.soc-ph", "Physics and Society" },
	{ "physics.data-an", "Data Analysis, Statistics and Probability" },
	{ "physics.flu-dyn", "Fluid Dynamics" },
	{ "physics.chem-ph", "Chemical Physics" },
	{ "physics.bio-ph", "Biological Physics" },
	{ "physics.app-ph", "Applied Physics" },
	{ "physics.gen-ph", "General Physics" },
	{ "physics.ins-det", "Instrumentation and Detectors" },
	{ "physics.med-ph", "Medical Physics" },
	{ "physics.plasm-ph", "Plasma Physics" },
	{ "physics.atom-ph", "Atomic Physics" },
	{ "physics.class-ph", "Classical Physics" },
	{ "physics.ed-ph", "Physics Education" },
	{ "physics.geo-ph", "Geophysics" },
	{ "physics.hist-ph", "History and Philosophy of Physics" },
	{ "physics.ao-ph", "Atmospheric and Oceanic Physics" },
	{ "physics.acc-ph", "Accelerator Physics" },
	{ "physics.space-ph", "Space Physics" },
	{ NULL, NULL },
};

char *
harvest_field(const char *cat)
{
	const struct field *a = NULL, *c = NULL, *f;
	size_t k;
	char buf[256];

	if (cat == NULL || *cat == '\0')
		return NULL;
	k = strcspn(cat, ".");
	for (f = archives; f->code != NULL && a == NULL; f++)
		if (strlen(f->code) == k && strncmp(cat, f->code, k) == 0)
			a = f;
	for (f = categories; f->code != NULL && c == NULL; f++)
		if (strcmp(cat, f->code) == 0)
			c = f;
	if (a == NULL && c == NULL)
		return NULL;
	if (a == NULL || (c != NULL && strcmp(c->name, a->name) == 0))
		return core_xstrdup(c->name);
	if (c == NULL)
		return core_xstrdup(a->name);
	/* "hep-th" alone is a category of the Physics group */
	snprintf(buf, sizeof(buf), "%s \xe2\x80\xba %s", a->name, c->name);
	return core_xstrdup(buf);
}

/* ------------------------------------------------------------------ */
/* A language model's answer                                           */
/* ------------------------------------------------------------------ */

const char harvest_analysis_schema[] =
    "{\"type\":\"object\",\"additionalProperties\":false,"
    "\"required\":[\"summary\",\"topics\",\"paper_type\","
    "\"research_field\",\"novelty\",\"significance_score\","
    "\"significance_rationale\"],"
    "\"properties\":{"
    "\"summary\":{\"type\":\"string\",\"minLength\":20,"
    "\"description\":"
    "\"one or two sentences: what the paper does and finds\"},"
    "\"topics\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":8,"
    "\"items\":{\"type\":\"string\"}},"
    "\"paper_type\":{\"enum\":[\"empirical\",\"method\",\"system\","
    "\"benchmark\",\"survey\",\"theory\",\"position\"]},"
    "\"research_field\":{\"type\":\"string\"},"
    "\"novelty\":{\"type\":\"string\",\"description\":"
    "\"what is new compared with prior work, one sentence\"},"
    "\"significance_score\":{\"type\":\"integer\",\"minimum\":1,"
    "\"maximum\":10},"
    "\"significance_rationale\":{\"type\":\"string\"}}}";

/* A string member of o of 1..max bytes, valid UTF-8 (jansson checks). */
static int
str_member(const json_t *o, const char *key, size_t min, size_t max, char **out,
    char why[HARVEST_WHY_LEN])
{
	const json_t *v = json_object_get(o, key);
	const char *s;
	size_t n;

	if (!json_is_string(v)) {
		snprintf(why, HARVEST_WHY_LEN, "%s: not a string", key);
		return -1;
	}
	s = json_string_value(v);
	n = json_string_length(v);
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n < min || n > max || memchr(s, '\0', n) != NULL) {
		snprintf(why, HARVEST_WHY_LEN, "%s: %zu bytes (%zu..%zu)", key,
		    n, min, max);
		return -1;
	}
	*out = core_xcalloc(1, n + 1);
	memcpy(*out, s, n);
	return 0;
}

enum core_err
harvest_analysis_validate(const char *text, size_t n,
    struct harvest_analysis *a, char why[HARVEST_WHY_LEN])
{
	json_t *o = NULL, *topics, *v;
	json_error_t jerr;
	enum core_err er = CORE_EINPUT;
	char *ptype = NULL;
	size_t i;

	harvest_analysis_clear(a);
	why[0] = '\0';
	if ((o = json_loadb(text, n, JSON_REJECT_DUPLICATES, &jerr)) == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "not JSON: %s", jerr.text);
		goto out;
	}
	if (!json_is_object(o)) {
		snprintf(why, HARVEST_WHY_LEN, "not an object");
		goto out;
	}
	if (str_member(o, "summary", 20, 800, &a->summary, why) != 0 ||
	    str_member(o, "research_field", 2, 120, &a->field, why) != 0 ||
	    str_member(o, "novelty", 2, 800, &a->novelty, why) != 0 ||
	    str_member(o, "significance_rationale", 2, 800, &a->rationale,
		why) != 0 ||
	    str_member(o, "paper_type", 1, 20, &ptype, why) != 0)
		goto out;
	if ((a->ptype = harvest_ptype_parse(ptype)) < 0) {
		snprintf(why, HARVEST_WHY_LEN, "paper_type: unknown");
		goto out;
	}
	v = json_object_get(o, "significance_score");
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 10) {
		snprintf(why, HARVEST_WHY_LEN,
		    "significance_score: not an integer 1..10");
		goto out;
	}
	a->significance = (int)json_integer_value(v);
	topics = json_object_get(o, "topics");
	if (!json_is_array(topics) || json_array_size(topics) == 0 ||
	    json_array_size(topics) > HARVEST_TOPICS_MAX) {
		snprintf(why, HARVEST_WHY_LEN, "topics: not 1..%d strings",
		    HARVEST_TOPICS_MAX);
		goto out;
	}
	for (i = 0; i < json_array_size(topics); i++) {
		json_t *wrap =
		    json_pack("{sO}", "t", json_array_get(topics, i));

		if (str_member(wrap, "t", 2, 80, &a->topics[a->ntopics], why) !=
		    0) {
			json_decref(wrap);
			snprintf(why, HARVEST_WHY_LEN, "topics[%zu]: bad", i);
			goto out;
		}
		a->ntopics++;
		json_decref(wrap);
	}
	er = CORE_OK;
out:
	if (er != CORE_OK)
		harvest_analysis_clear(a);
	free(ptype);
	json_decref(o);
	return er;
}
