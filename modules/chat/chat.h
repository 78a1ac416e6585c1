/*
 * chat.h -- the chat module's private header.  chat.c: the handlers
 * (list, one conversation, ask, delete); answer.c: retrieval and the
 * answer (LLM or extractive) with its references.
 */
#ifndef CHAT_H
#define CHAT_H

#include "core.h"
#include "llm.h"

/* The process state: the LLM client, or NULL (extractive mode). */
struct chat_state {
	struct core_llm *llm;
	long per_minute;    /* questions a user may ask a minute */
	long global_minute; /* questions all users may ask a minute */
	long tokens_day;    /* LLM tokens a user may spend a day */
};

/* Questions longer than this (bytes) are refused with 413. */
#define CHAT_QUESTION_MAX 4000
/* Papers retrieved per question. */
#define CHAT_TOPK 6
/* Candidates ranked for them: the best by the question's words, and the
 * semantic index's nearest (as many as /search takes). */
#define CHAT_CANDIDATES 200
#define CHAT_NEAR       200

enum chat_scope {
	CHAT_SCOPE_ALL,
	CHAT_SCOPE_PAPER,
	CHAT_SCOPE_RESEARCHER,
	CHAT_SCOPE_FOLLOWED,
	CHAT_SCOPE_SEARCH,
	CHAT_SCOPE__MAX
};
extern const char *const chat_scope_names[CHAT_SCOPE__MAX];

/* One question's answer.  Free with chat_answer_free(). */
struct chat_answer {
	char *md;           /* the answer, safe markdown */
	json_t *refs;       /* [{n, arxiv_id, title, path}] */
	int llm;            /* 1: generated; 0: extracts */
	int partial;        /* the upstream failed mid-answer */
	char *note;         /* why partial / why extracts, or NULL */
	char *model;        /* NULL for extracts */
	long prompt_tokens; /* -1 when unknown */
	long completion_tokens;
	double retrieve_ms;    /* time spent retrieving */
	struct core_pool pool; /* owns md, note and model */
};
void chat_answer_free(struct chat_answer *);

/*
 * Where an answer goes as it is made, for a streamed response: refs()
 * sees the references once retrieved, delta() each piece of the text
 * (the model's raw text as it arrives, or the extracts in one piece)
 * and returns non-zero when the client went away, which stops the
 * upstream request.  Both borrow what they are given.
 */
struct chat_emit {
	void (*refs)(void *arg, const json_t *refs);
	core_llm_delta delta;
	void *arg;
};

/*
 * Retrieves the passages of scope (arg: the paper's arXiv id, the
 * researcher's id, the search query; uid for "followed") for question
 * and answers it, with the LLM unless extractive or none configured;
 * emit (NULL: none) sees the answer as it grows.  CORE_OK with *a
 * filled, or CORE_EDB.
 */
enum core_err chat_answer(struct core_ctx *, enum chat_scope scope,
    const char *arg, long long uid, const char *question, int extractive,
    const struct chat_emit *emit, struct chat_answer *a);

/*
 * Appends s to b as markdown that can hold no link, image, HTML or
 * reference definition: every <, [, ], !, &, ` and backslash is
 * backslash-escaped, URLs other than arXiv and DOI ones dropped, @ spelt
 * out; other text kept (an LLM's answer: paragraphs and
 * emphasis survive, links cannot be smuggled in).
 */
void chat_md_safe(struct core_buf *b, const char *s);

/* Writes the sentences of text, one per call of fn, in order. */
void chat_sentences(const char *text,
    void (*fn)(void *arg, const char *s, size_t n), void *arg);

/* chat.c: the handlers (module.c routes them). */
enum core_err chat_list_get(struct core_req *);
enum core_err chat_one_get(struct core_req *);
enum core_err chat_ask_post(struct core_req *);
enum core_err chat_post_dispatch(struct core_req *);

#endif /* CHAT_H */
