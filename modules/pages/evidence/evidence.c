/*
 * evidence.c -- "why these papers are here": /researchers/{id}-{slug}/evidence
 * (every authorship of the researcher with the matcher's reason, score
 * and the evidence behind it, 24 a page) with the 301s from the bare id
 * and a wrong slug, and the words shared by the researcher page's
 * summary (labels of the reasons, why two namesakes were kept apart).
 *
 * The reasons are the matcher's (modules/harvest/match.c,
 * sql/schema/0006_match.sql): an external id decided, or the name with
 * shared co-authors or fields joined an existing profile (score: the
 * share), or the name started a profile of its own because the evidence
 * fell short of every namesake ("new_identity", score: the best share
 * seen), or nobody else has the name ("single").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

#define SUFFIX "/evidence"

struct label {
	const char *reason, *text;
};

static const struct label labels[] = {
	{ "openalex_id", "matched by OpenAlex author id" },
	{ "openalex", "matched by OpenAlex author id" },
	{ "orcid", "matched by ORCID" },
	{ "s2_id", "matched by Semantic Scholar author id" },
	{ "s2", "matched by Semantic Scholar author id" },
	{ "coauthors", "by name, with shared co-authors" },
	{ "fields", "by name, with shared fields" },
	{ "new_identity", "by name, started apart from its namesakes" },
	{ "single", "by name only: nobody else here has this name" },
	{ "name_key", "by name only, before matching ran" },
	{ "", "no recorded reason" },
};

const char *
pages_evidence_label(const char *reason)
{
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strcmp(labels[i].reason, reason != NULL ? reason : "") == 0)
			return labels[i].text;
	return "by another rule of the matcher";
}

int
pages_evidence_route(const char *rest)
{
	size_t n = strlen(rest), k = strlen(SUFFIX);

	return n > k && strcmp(rest + n - k, SUFFIX) == 0;
}

/* The kinds of external id, as in the researcher's "ids". */
static const char *const id_keys[3] = { "openalex", "orcid",
	"semantic_scholar" };
static const char *const id_names[3] = { "OpenAlex author ids", "ORCIDs",
	"Semantic Scholar author ids" };

static int
is_new(const json_t *s)
{
	const char *r = pages_str(s, "reason");

	return r != NULL && strcmp(r, "new_identity") == 0;
}

json_t *
pages_evidence_apart(const json_t *ids, const json_t *self,
    const json_t *ns_ids, const json_t *ns_seed)
{
	const json_t *later = NULL;
	const char *a, *b, *r;
	char *text;
	json_t *o;
	size_t i;

	for (i = 0; i < 3; i++) {
		a = pages_str(ids, id_keys[i]);
		b = pages_str(ns_ids, id_keys[i]);
		if (a == NULL || b == NULL || strcmp(a, b) == 0)
			continue;
		text = core_xasprintf("Different %s: the source says these "
				      "are two people.",
		    id_names[i]);
		o = json_pack("{s:s,s:s,s:n,s:n}", "why", "external_ids",
		    "text", text, "paper", "score");
		free(text);
		return o;
	}
	/*
	 * The matcher goes newest first: of two profiles started apart,
	 * the one whose first paper comes later in that order (the older
	 * paper) was compared with the other and fell short.
	 */
	if (is_new(self) && is_new(ns_seed))
		later = strcmp(pages_str(self, "order"),
			    pages_str(ns_seed, "order")) < 0
		    ? self
		    : ns_seed;
	else if (is_new(ns_seed))
		later = ns_seed;
	else if (is_new(self))
		later = self;
	if (later != NULL) {
		double sc = json_number_value(json_object_get(later, "score"));

		int pct = (int)(sc * 100 + 0.5);
		char share[32];

		if (pct > 0)
			snprintf(share, sizeof(share), "at most %d%%", pct);
		else
			snprintf(share, sizeof(share), "none");
		text = core_xasprintf("When %s newest paper was matched, %s "
				      "of its co-authors and fields were "
				      "shared with the profiles of this name "
				      "matched before it: too little to be "
				      "the same person.",
		    later == self ? "this profile's" : "that profile's", share);
		o = json_pack("{s:s,s:s,s:O,s:O}", "why", "evidence", "text",
		    text, "paper", json_object_get(later, "paper"), "score",
		    json_object_get(later, "score"));
		free(text);
		return o;
	}
	r = pages_str(ns_seed, "reason");
	if (r != NULL && strcmp(r, "new_identity") != 0)
		return json_pack("{s:s,s:s,s:O,s:n}", "why", "own_id", "text",
		    "That profile was placed by an external id of its own.",
		    "paper", json_object_get(ns_seed, "paper"), "score");
	return json_pack("{s:s,s:s,s:n,s:n}", "why", "unrecorded", "text",
	    "No matching decision between the two is recorded.", "paper",
	    "score");
}

/* The page's model for the researcher r at canon. */
static enum core_err
evidence_model(struct core_req *req, json_t *r, const char *canon, json_t **m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *items = NULL;
	long long total = 0;
	long page;
	enum core_err er;

	if ((er = pages_page_param(req, &page)) != CORE_OK)
		return er;
	if ((er = pages_store_evidence_summary(ctx->db, ctx->base_url, r)) !=
		CORE_OK ||
	    (er = pages_store_evidence_papers(ctx->db, ctx->base_url,
		 pages_int(r, "id", 0), page, &items, &total)) != CORE_OK)
		goto out;
	/* No row to read the total from beyond the last page. */
	if (json_array_size(items) == 0)
		total =
		    pages_int(json_object_get(r, "metrics"), "papers_here", 0);
	if ((er = pages_beyond_last(req, page, total)) != CORE_OK)
		goto out;
	*m = json_pack("{s:s,s:O,s:O,s:o,s:{s:O,s:O,s:O},s:O,s:o,s:o}", "type",
	    "researcher_evidence", "id", json_object_get(r, "id"), "name",
	    json_object_get(r, "name"), "url",
	    pages_json_abs(ctx->base_url, canon), "researcher", "id",
	    json_object_get(r, "id"), "name", json_object_get(r, "name"), "url",
	    json_object_get(r, "url"), "summary",
	    json_object_get(r, "evidence"), "items", items, "pagination",
	    pages_pagination(ctx->base_url, canon, page, total));
	items = NULL;
out:
	json_decref(items);
	return er;
}

enum core_err
pages_evidence(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *rest = core_req_rest(req);
	json_t *r = NULL;
	long long id;
	enum core_err er;

	if (pages_parse_id(rest, strcspn(rest, "-/"), &id) != 0)
		return CORE_ENOTFOUND;
	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;
	if ((er = pages_store_researcher(ctx->db, ctx->base_url, id, &r)) !=
	    CORE_OK)
		return er;
	return pages_respond_sub(req, PAGES_EVIDENCE, r,
	    pages_researcher_path(id, pages_str(r, "slug")), SUFFIX, 0,
	    evidence_model);
}
