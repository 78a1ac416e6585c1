/*
 * test_harvest_analyse.c -- the pure half of "weft-harvest analyse":
 * sentences, the extractive summary, key phrases, the type rules, the
 * research fields and the validation of a language model's answer.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "analyse.h"
#include "t.h"
#include "vectors.h"

/* Words as the index would give them, without an index: the real
 * tokeniser and stemmer, every known word of idf 0 (analyse_rules.c
 * then weighs them all alike). */
static int
word(void *arg, const char *w, size_t n, char *stem, float *idf)
{
	(void)arg;
	return vec_word(NULL, w, n, stem, idf) == CORE_OK ? 0 : -1;
}

static const struct harvest_words words = { word, NULL };

static const char abs1[] =
    "In today's data-driven era, deep learning is vital for processing "
    "massive datasets, yet single-device training is constrained by "
    "computational and memory limits. Distributed deep learning overcomes "
    "these challenges by leveraging multiple GPUs or machines in parallel. "
    "While general-purpose frameworks (e.g., TensorFlow and PyTorch) "
    "provide distributed capabilities, these are often add-on features. "
    "This study conducts the first large-scale empirical analysis of "
    "practitioner challenges in dedicated distributed frameworks. We "
    "examine 849 real-world issues from DeepSpeed, Megatron-LM, and "
    "Colossal-AI and construct a taxonomy of 34 bug symptoms, 28 root "
    "causes, and 6 fix patterns. Our results show that 45.1% of bug "
    "symptoms are unique to distributed frameworks.";

static void
test_sentences(void)
{
	struct harvest_span sp[16];
	const char *s = "We use e.g. Adam and 0.5 dropout, as in Smith et al. "
			"2020. It works!  Does it? yes. J. Doe agrees.";
	size_t n = harvest_sentences(s, sp, 16);

	T_EQ(n, 4,
	    "sentences: e.g., decimals, et al., initials, lower "
	    "case after ? do not split");
	T_OK(n >= 1 && strncmp(s + sp[0].off, "We use", 6) == 0 &&
		s[sp[0].off + sp[0].len - 1] == '.',
	    "sentence 1 ends at its period");
	T_OK(n >= 2 && strncmp(s + sp[1].off, "It works!", sp[1].len) == 0,
	    "sentence 2 is \"It works!\"");
	T_EQ(harvest_sentences("", sp, 16), 0, "empty text: no sentence");
	T_EQ(harvest_sentences("no period at all", sp, 16), 1,
	    "text without a period is one sentence");
}

static void
test_summary(void)
{
	char *s = harvest_summary(&words, abs1);

	T_CONTAINS(s, "This study conducts the first large-scale empirical",
	    "summary: the sentence that announces the study");
	T_LACKS(s, "In today's data-driven era", "summary: not the preamble");
	T_OK(s != NULL && strlen(s) <= 360, "summary fits in 360 bytes");
	free(s);
	T_OK(harvest_summary(&words, "") == NULL, "no abstract: no summary");
	s = harvest_summary(&words, "One short line\nwith a break.");
	T_STREQ(s, "One short line with a break.", "line breaks become spaces");
	free(s);
}

static void
test_topics(void)
{
	char *t[5];
	size_t n, i;
	int dist = 0, digits = 0;

	n = harvest_topics(&words,
	    "A Comprehensive Study of Bugs in Modern Distributed Deep "
	    "Learning Systems",
	    abs1, t, 5);
	T_OK(n >= 3 && n <= 5, "three to five topics");
	for (i = 0; i < n; i++) {
		dist |= strstr(t[i], "distributed") != NULL;
		digits |= strpbrk(t[i], "0123456789") != NULL;
		T_OK(strstr(t[i], "study") == NULL &&
			strstr(t[i], "results") == NULL,
		    "no generic word in a topic");
	}
	T_OK(dist, "a topic names \"distributed\" (title and abstract)");
	T_OK(!digits, "no topic with digits");
	for (i = 0; i < n; i++)
		free(t[i]);
	T_EQ(harvest_topics(&words, "", "", t, 5), 0, "empty: no topic");
}

struct typed {
	const char *title, *abstract, *cat;
	int want;
};

static void
test_types(void)
{
	static const struct typed cases[] = {
		{ "A Survey of Large Language Models for Code",
		    "We review 200 papers and categorize them.", "cs.SE",
		    HARVEST_PT_SURVEY },
		{ "CodeBench: A Benchmark for Repository-Level Completion",
		    "We introduce a dataset of 5,000 tasks.", "cs.SE",
		    HARVEST_PT_BENCHMARK },
		{ "On the Hardness of Learning Sparse Parities",
		    "We prove a lower bound on the sample complexity.", "cs.LG",
		    HARVEST_PT_THEORY },
		{ "An Empirical Study of Flaky Tests in Python",
		    "We conduct a large-scale study of 10,000 projects.",
		    "cs.SE", HARVEST_PT_EMPIRICAL },
		{ "Fast Sparse Attention via Learned Routing",
		    "We propose a novel method that outperforms baselines.",
		    "cs.LG", HARVEST_PT_METHOD },
		{ "Hermes: A Serving System for Mixture-of-Experts",
		    "We design and implement Hermes; it raises throughput "
		    "3x and cuts latency.",
		    "cs.DC", HARVEST_PT_SYSTEM },
		{ "Position: AI Evaluation Should Be Reproducible",
		    "In this position paper we argue that ...", "cs.AI",
		    HARVEST_PT_POSITION },
		{ "Untitled", "", "cs.LG", HARVEST_PT_METHOD },
		{ "Modular forms of weight one", "Let f be a form.", "math.NT",
		    HARVEST_PT_THEORY },
	};
	int pts[HARVEST_PT__MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		T_STREQ(core_paper_types[harvest_ptype_rules(cases[i].title,
			    cases[i].abstract, cases[i].cat, pts)],
		    core_paper_types[cases[i].want], cases[i].title);
	T_EQ(harvest_ptype_parse("benchmark"), HARVEST_PT_BENCHMARK,
	    "parse a type");
	T_EQ(harvest_ptype_parse("novel"), -1, "unknown type: -1");
	T_EQ(harvest_ptype_parse(NULL), -1, "NULL type: -1");
}

static void
field_is(const char *cat, const char *want)
{
	char *f = harvest_field(cat);

	if (want == NULL)
		T_OK(f == NULL, cat != NULL ? cat : "(null)");
	else
		T_STREQ(f, want, cat);
	free(f);
}

static void
test_fields(void)
{
	field_is("cs.SE", "Computer Science \xe2\x80\xba Software Engineering");
	field_is("stat.ML", "Statistics \xe2\x80\xba Machine Learning");
	field_is("quant-ph", "Physics \xe2\x80\xba Quantum Physics");
	field_is("cs.XX", "Computer Science");
	field_is("zz.QQ", NULL);
	field_is("", NULL);
	field_is(NULL, NULL);
}

static void
valid(const char *json, int want_ok, const char *what)
{
	struct harvest_analysis a;
	char why[HARVEST_WHY_LEN];
	enum core_err er;

	memset(&a, 0, sizeof(a));
	er = harvest_analysis_validate(json, strlen(json), &a, why);
	T_EQ(er == CORE_OK, want_ok, what);
	if (!want_ok)
		T_OK(why[0] != '\0' && a.summary == NULL && a.ntopics == 0,
		    "refused: a reason, nothing kept");
	harvest_analysis_clear(&a);
}

#define GOOD_HEAD                                                              \
	"{\"summary\":\"We study bugs in distributed training frameworks.\","  \
	"\"topics\":[\"distributed training\",\"bugs\"],"                      \
	"\"research_field\":\"Software Engineering\","                         \
	"\"novelty\":\"First taxonomy across three frameworks.\","             \
	"\"significance_rationale\":\"Useful to maintainers.\","

static void
test_validate(void)
{
	struct harvest_analysis a;
	char why[HARVEST_WHY_LEN];
	const char *good =
	    GOOD_HEAD "\"paper_type\":\"empirical\",\"significance_score\":7}";

	memset(&a, 0, sizeof(a));
	T_EQ(harvest_analysis_validate(good, strlen(good), &a, why), CORE_OK,
	    "a good answer is taken");
	T_EQ(a.ptype, HARVEST_PT_EMPIRICAL, "its type");
	T_EQ(a.significance, 7, "its score");
	T_EQ(a.ntopics, 2, "its topics");
	T_STREQ(a.topics[1], "bugs", "a topic");
	harvest_analysis_clear(&a);
	valid("{\"summary\":", 0, "cut JSON is refused");
	valid("[]", 0, "an array is refused");
	valid(GOOD_HEAD "\"paper_type\":\"novel\",\"significance_score\":7}", 0,
	    "an unknown type is refused");
	valid(GOOD_HEAD "\"paper_type\":\"method\",\"significance_score\":11}",
	    0, "a score above 10 is refused");
	valid(GOOD_HEAD "\"paper_type\":\"method\",\"significance_score\":"
			"\"7\"}",
	    0, "a score as a string is refused");
	valid(GOOD_HEAD "\"paper_type\":\"method\"}", 0,
	    "a missing score is refused");
	valid("{\"summary\":\"short\",\"topics\":[\"a b\"],"
	      "\"research_field\":\"x y\",\"novelty\":\"n n\","
	      "\"significance_rationale\":\"r r\",\"paper_type\":\"method\","
	      "\"significance_score\":3}",
	    0, "a too short summary is refused");
	valid("{\"summary\":\"We study bugs in distributed training.\","
	      "\"topics\":[],\"research_field\":\"x y\",\"novelty\":\"n n\","
	      "\"significance_rationale\":\"r r\",\"paper_type\":\"method\","
	      "\"significance_score\":3}",
	    0, "no topics is refused");
	valid("{\"summary\":\"We study bugs in distributed training.\","
	      "\"topics\":[3],\"research_field\":\"x y\",\"novelty\":\"n n\","
	      "\"significance_rationale\":\"r r\",\"paper_type\":\"method\","
	      "\"significance_score\":3}",
	    0, "a topic that is not a string is refused");
}

int
main(void)
{
	test_sentences();
	test_summary();
	test_topics();
	test_types();
	test_fields();
	test_validate();
	return T_DONE();
}
