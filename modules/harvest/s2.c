/*
 * s2.c -- Semantic Scholar Graph API batch responses.  POST
 * /paper/batch and /author/batch answer with an array holding, for each
 * id sent and in the same order, an object or null (not found); the
 * harvester matches results to ids by position, so the length must be
 * right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "remote.h"

/* A non-negative integer field: *out, -1 when absent or null. */
static int
get_count(const json_t *o, const char *key, long *out)
{
	const json_t *v = json_object_get(o, key);

	*out = -1;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (long)json_integer_value(v);
	return 0;
}

/* An optional string field: a copy in *out (NULL when absent/null). */
static int
get_str(const json_t *o, const char *key, char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = core_xstrdup(json_string_value(v));
	return 0;
}

static int
item(const json_t *o, int authors, struct harvest_s2_item *it, size_t i,
    char why[HARVEST_WHY_LEN])
{
	const json_t *ext;

	if (json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu is neither an object "
		    "nor null",
		    i);
		return -1;
	}
	it->found = 1;
	if (get_str(o, authors ? "authorId" : "paperId", &it->id) != 0 ||
	    it->id == NULL) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: %s missing or not "
		    "a string",
		    i, authors ? "authorId" : "paperId");
		return -1;
	}
	if (get_str(o, "name", &it->name) != 0) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: name is not a "
		    "string",
		    i);
		return -1;
	}
	if (get_count(o, "citationCount", &it->citations) != 0 ||
	    get_count(o, "hIndex", &it->h_index) != 0 ||
	    get_count(o, "paperCount", &it->paper_count) != 0) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: a count is not a "
		    "non-negative integer",
		    i);
		return -1;
	}
	ext = json_object_get(o, "externalIds");
	if (ext != NULL && !json_is_null(ext) && !json_is_object(ext)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: externalIds is not "
		    "an object",
		    i);
		return -1;
	}
	if (json_is_object(ext) && get_str(ext, "ArXiv", &it->arxiv) != 0) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: externalIds.ArXiv "
		    "is not a string",
		    i);
		return -1;
	}
	return 0;
}

enum core_err
harvest_s2_parse(const char *p, size_t n, size_t want, int authors,
    struct harvest_s2_batch *b, char why[HARVEST_WHY_LEN])
{
	json_error_t je;
	json_t *root, *v;
	size_t i;
	enum core_err er = CORE_EINPUT;

	memset(b, 0, sizeof(*b));
	why[0] = '\0';
	root = json_loadb(p, n, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "not JSON (%s at line %d)",
		    je.text, je.line);
		return CORE_EINPUT;
	}
	if (json_is_object(root) &&
	    ((v = json_object_get(root, "error")) != NULL ||
		(v = json_object_get(root, "message")) != NULL)) {
		snprintf(why, HARVEST_WHY_LEN, "Semantic Scholar error: %.200s",
		    json_is_string(v) ? json_string_value(v) : "?");
		er = CORE_EUPSTREAM;
		goto out;
	}
	if (!json_is_array(root)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "batch response is not an array");
		goto out;
	}
	if (json_array_size(root) != want || want > HARVEST_MAX_ITEMS) {
		snprintf(why, HARVEST_WHY_LEN,
		    "batch response has %zu results "
		    "for %zu ids",
		    json_array_size(root), want);
		goto out;
	}
	b->v = core_xcalloc(want ? want : 1, sizeof(*b->v));
	b->n = want;
	for (i = 0; i < want; i++) {
		b->v[i].citations = b->v[i].h_index = b->v[i].paper_count = -1;
		if (item(json_array_get(root, i), authors, &b->v[i], i, why) !=
		    0)
			goto out;
	}
	er = CORE_OK;
out:
	json_decref(root);
	if (er != CORE_OK)
		harvest_s2_batch_free(b);
	return er;
}

void
harvest_s2_batch_free(struct harvest_s2_batch *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->v[i].id);
		free(b->v[i].arxiv);
		free(b->v[i].name);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}
