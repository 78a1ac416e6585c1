/*
 * analyse.h -- "weft-harvest analyse" (issue 17, paper analysis): the
 * pure rules (analyse_rules.c, unit-tested) and the command (analyse.c).
 * Private to modules/harvest and its tests.
 */
#ifndef HARVEST_ANALYSE_H
#define HARVEST_ANALYSE_H

#include <stddef.h>

#include "core.h"
#include "remote.h"

/* ------------------------------------------------------------------ */
/* analyse_rules.c                                                     */
/* ------------------------------------------------------------------ */

/* The paper types, in the order of core_paper_types[] (the stored
 * values: papers.paper_type, the ?paper_type= filter). */
enum harvest_ptype {
	HARVEST_PT_EMPIRICAL,
	HARVEST_PT_METHOD,
	HARVEST_PT_SYSTEM,
	HARVEST_PT_BENCHMARK,
	HARVEST_PT_SURVEY,
	HARVEST_PT_THEORY,
	HARVEST_PT_POSITION,
	HARVEST_PT__MAX
};
/* The type named s (a stored value), or -1. */
int harvest_ptype_parse(const char *s);

/* The most topics kept. */
#define HARVEST_TOPICS_MAX 8
/* A word's stem, with its NUL (vectors.h's VEC_WORD_MAX). */
#define HARVEST_STEM_MAX 33

/* One paper's analysis; strings are owned (harvest_analysis_clear()). */
struct harvest_analysis {
	char *summary;
	char *topics[HARVEST_TOPICS_MAX];
	size_t ntopics;
	int ptype; /* enum harvest_ptype, -1: none */
	char *field;
	char *novelty;    /* NULL without a language model */
	int significance; /* 1..10, 0: none */
	char *rationale;
};
/* Frees the strings and empties *a (ptype -1). */
void harvest_analysis_clear(struct harvest_analysis *a);

/*
 * How words are weighed: word() gives the stem of w[0..n) (into stem,
 * HARVEST_STEM_MAX bytes) and its idf (0: unknown to the model), and
 * returns 0; non-zero for no word (a stop word, one letter).  analyse.c
 * passes the semantic index's vec_word().
 */
struct harvest_words {
	int (*word)(void *arg, const char *w, size_t n, char *stem, float *idf);
	void *arg;
};

/* A part of a string: s[off .. off + len). */
struct harvest_span {
	size_t off, len;
};
/*
 * Splits s into sentences (at . ! ? followed by a space and not a lower
 * case letter; not after "e.g.", "et al.", an initial, ...), at most
 * max, trimmed; returns how many.
 */
size_t harvest_sentences(const char *s, struct harvest_span *out, size_t max);
/*
 * The extractive summary: the abstract's best sentence, and the second
 * best when it scores at least 0.6 of the best and both fit in 360
 * bytes, in their order.  A sentence scores up to 4 for its central
 * words (idf of the words the abstract repeats, per sqrt of its length,
 * relative to the best sentence), 3 when it says what the paper is ("we
 * propose", "this paper", ...) or 1.5 what it found ("we show", "our
 * results"), up to 0.5 for being among the first three, 4 less under 8
 * words and 3 less over 60.  Caller frees; NULL for an empty abstract.
 */
char *harvest_summary(const struct harvest_words *, const char *abstract);
/*
 * Up to max key phrases of the title and abstract into out (caller
 * frees each): runs of one to three topic words (not stop words, not
 * generic words like "propose" or "results", no digits) not across
 * punctuation, scored by the sum of (1 + ln tf) idf of their words per
 * sqrt of their length, times 1 + 0.7 ln of the phrase's count, times
 * 1.5 in the title; a lone word needs idf >= 3 and two uses.  A phrase
 * whose words are all in a chosen one (or the reverse) is skipped.
 * Returns how many.
 */
size_t harvest_topics(const struct harvest_words *, const char *title,
    const char *abstract, char **out, size_t max);
/*
 * The rule-based type (see the table of cues in analyse_rules.c):
 * returns an enum harvest_ptype; the points of each type go to points
 * when not NULL.
 */
int harvest_ptype_rules(const char *title, const char *abstract,
    const char *primary_category, int points[HARVEST_PT__MAX]);
/*
 * The readable field of an arXiv category: "Computer Science ›
 * Software Engineering" for cs.SE, "Quantum Physics" for quant-ph, the
 * archive's name alone for a category not in the table; NULL for an
 * unknown archive.  Caller frees.
 */
char *harvest_field(const char *category);

/* The JSON schema of the answer asked of a language model. */
extern const char harvest_analysis_schema[];
/*
 * Validates a language model's answer text[0..n) against that schema
 * (and sane lengths): on CORE_OK *a holds it; else CORE_EINPUT, *a
 * empty and why says what was wrong.
 */
enum core_err harvest_analysis_validate(const char *text, size_t n,
    struct harvest_analysis *a, char why[HARVEST_WHY_LEN]);

/* ------------------------------------------------------------------ */
/* analyse.c                                                           */
/* ------------------------------------------------------------------ */

struct core_cmd;
extern const struct core_cmd harvest_cmds_analyse[];

#endif /* HARVEST_ANALYSE_H */
