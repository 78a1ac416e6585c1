/*
 * s2.c -- Semantic Scholar Graph API responses: batches, and the lists of
 * papers that search, bulk search and recommendations answer.  POST
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

/* An optional string field, borrowed from o (NULL when absent/null). */
static int
get_cstr(const json_t *o, const char *key, const char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = json_string_value(v);
	return 0;
}

/* The same as a copy in *out. */
static int
get_str(const json_t *o, const char *key, char **out)
{
	const char *s;

	*out = NULL;
	if (get_cstr(o, key, &s) != 0)
		return -1;
	if (s != NULL)
		*out = core_xstrdup(s);
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

/*
 * The JSON of an S2 answer into *root (caller decrefs), or CORE_EINPUT
 * (not JSON) / CORE_EUPSTREAM (S2's error object, {"error": ...} or
 * {"message": ...}: a bad parameter, an id not found, a rate limit) with
 * why filled and *root NULL.
 */
static enum core_err
s2_root(const char *p, size_t n, json_t **root, char why[HARVEST_WHY_LEN])
{
	json_error_t je;
	json_t *v;

	why[0] = '\0';
	if ((*root = json_loadb(p, n, JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "not JSON (%s at line %d)",
		    je.text, je.line);
		return CORE_EINPUT;
	}
	if (json_is_object(*root) &&
	    ((v = json_object_get(*root, "error")) != NULL ||
		(v = json_object_get(*root, "message")) != NULL)) {
		snprintf(why, HARVEST_WHY_LEN, "Semantic Scholar error: %.200s",
		    json_is_string(v) ? json_string_value(v) : "?");
		json_decref(*root);
		*root = NULL;
		return CORE_EUPSTREAM;
	}
	return CORE_OK;
}

enum core_err
harvest_s2_parse(const char *p, size_t n, size_t want, int authors,
    struct harvest_s2_batch *b, char why[HARVEST_WHY_LEN])
{
	json_t *root;
	size_t i;
	enum core_err er;

	memset(b, 0, sizeof(*b));
	if ((er = s2_root(p, n, &root, why)) != CORE_OK)
		return er;
	er = CORE_EINPUT;
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

/* ------------------------------------------------------------------ */
/* Paper lists: search, bulk-search pages, recommendations             */
/* ------------------------------------------------------------------ */

#define S2_MAX_AFFILS 16 /* affiliation strings kept per author */

/* Where each shape keeps its papers, and its name in messages. */
static const struct {
	const char *array;
	const char *what;
} s2_shapes[HARVEST_S2_SHAPE__MAX] = {
	[HARVEST_S2_SEARCH] = { "data", "a search page" },
	[HARVEST_S2_BULK] = { "data", "a bulk-search page" },
	[HARVEST_S2_RECS] = { "recommendedPapers", "a recommendations answer" },
};

/*
 * The authors of paper o as [{"id", "name", "affiliations"}]: S2's
 * authorId and name (string or null), and its affiliation strings (the
 * non-empty ones, at most S2_MAX_AFFILS).  -1 with why for a field of
 * the wrong type or too many authors.
 */
static int
paper_authors(const json_t *o, size_t i, json_t *out, char why[HARVEST_WHY_LEN])
{
	const json_t *au = json_object_get(o, "authors"), *a, *f, *x;
	json_t *affs;
	const char *id, *name;
	size_t j, k;

	if (au == NULL || json_is_null(au))
		return 0;
	if (!json_is_array(au) || json_array_size(au) > HARVEST_MAX_AUTHORS) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: authors is not an array of at most %d", i,
		    HARVEST_MAX_AUTHORS);
		return -1;
	}
	json_array_foreach(au, j, a)
	{
		f = json_is_object(a) ? json_object_get(a, "affiliations")
				      : NULL;
		if (!json_is_object(a) || get_cstr(a, "authorId", &id) != 0) {
			snprintf(why, HARVEST_WHY_LEN,
			    "result %zu: author %zu is not an S2 author", i, j);
			return -1;
		}
		if (get_cstr(a, "name", &name) != 0 ||
		    (f != NULL && !json_is_null(f) && !json_is_array(f))) {
			snprintf(why, HARVEST_WHY_LEN,
			    "result %zu: author %zu has a bad name or "
			    "affiliations",
			    i, j);
			return -1;
		}
		affs = json_array();
		json_array_foreach(f, k, x)
		{
			if (!json_is_string(x)) {
				snprintf(why, HARVEST_WHY_LEN,
				    "result %zu: author %zu: an affiliation "
				    "is not a string",
				    i, j);
				json_decref(affs);
				return -1;
			}
			if (json_string_length(x) > 0 &&
			    json_array_size(affs) < S2_MAX_AFFILS)
				json_array_append_new(affs,
				    core_json_str(json_string_value(x)));
		}
		json_array_append_new(out,
		    json_pack("{s:o, s:o, s:o}", "id", core_json_str(id),
			"name", core_json_str(name), "affiliations", affs));
	}
	return 0;
}

/* -1 with why filled when o is an S2 author (authorId, no paperId). */
static int
author_not_paper(const json_t *o, size_t i, char why[HARVEST_WHY_LEN])
{
	if (!json_is_object(o) || json_object_get(o, "paperId") != NULL ||
	    !json_is_string(json_object_get(o, "authorId")))
		return 0;
	snprintf(why, HARVEST_WHY_LEN,
	    "wrong entity type: result %zu is an author (authorId %.40s), "
	    "not a paper",
	    i, json_string_value(json_object_get(o, "authorId")));
	return -1;
}

/*
 * Result i of a list into *pp: CORE_OK, with pp->id NULL for a null
 * result (a paper S2 no longer has).  An object naming an author and no
 * paper is the wrong entity type; anything else of the wrong type is
 * malformed.
 */
static int
list_item(const json_t *o, size_t i, struct harvest_s2_paper *pp,
    char why[HARVEST_WHY_LEN])
{
	const json_t *ext, *pid;

	pp->citations = pp->year = -1;
	pp->authors = json_array();
	if (json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu is neither an object nor null", i);
		return -1;
	}
	if (author_not_paper(o, i, why) != 0)
		return -1;
	pid = json_object_get(o, "paperId");
	if (json_is_null(pid))
		return 0;
	if (get_str(o, "paperId", &pp->id) != 0 || pp->id == NULL ||
	    pp->id[0] == '\0') {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu: paperId missing or not a string", i);
		return -1;
	}
	ext = json_object_get(o, "externalIds");
	if (get_str(o, "title", &pp->title) != 0 ||
	    get_count(o, "citationCount", &pp->citations) != 0 ||
	    get_count(o, "year", &pp->year) != 0 ||
	    (ext != NULL && !json_is_null(ext) && !json_is_object(ext)) ||
	    (json_is_object(ext) && get_str(ext, "ArXiv", &pp->arxiv) != 0)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "result %zu (%.40s): title, citationCount, year or "
		    "externalIds of the wrong type",
		    i, pp->id);
		return -1;
	}
	return paper_authors(o, i, pp->authors, why);
}

/* The envelope of a search or bulk page: total, next, token. */
static int
list_envelope(const json_t *root, enum harvest_s2_shape shape,
    struct harvest_s2_list *l, char why[HARVEST_WHY_LEN])
{
	const json_t *t;

	if (shape == HARVEST_S2_RECS)
		return 0;
	if (get_count(root, "total", &l->total) != 0 || l->total < 0) {
		snprintf(why, HARVEST_WHY_LEN, "not %s: no total",
		    s2_shapes[shape].what);
		return -1;
	}
	if (shape == HARVEST_S2_SEARCH &&
	    (get_count(root, "next", &l->next) != 0)) {
		snprintf(why, HARVEST_WHY_LEN, "next is not an offset");
		return -1;
	}
	t = json_object_get(root, "token");
	if (shape == HARVEST_S2_BULK && t != NULL && !json_is_null(t)) {
		if (!json_is_string(t) || json_string_length(t) == 0 ||
		    json_string_length(t) > 4096) {
			snprintf(why, HARVEST_WHY_LEN,
			    "token is not a continuation token");
			return -1;
		}
		l->token = core_xstrdup(json_string_value(t));
	}
	return 0;
}

enum core_err
harvest_s2_list_parse(const char *p, size_t n, enum harvest_s2_shape shape,
    struct harvest_s2_list *l, char why[HARVEST_WHY_LEN])
{
	json_t *root;
	const json_t *arr, *other;
	size_t i;
	enum core_err er;

	memset(l, 0, sizeof(*l));
	l->total = l->next = -1;
	if ((er = s2_root(p, n, &root, why)) != CORE_OK)
		return er;
	er = CORE_EINPUT;
	/* Where papers are expected, an author list (a batch's array or a
	 * list's "data") is the wrong entity type: say so first. */
	other = json_is_array(root)
	    ? json_array_get(root, 0)
	    : json_array_get(json_object_get(root, "data"), 0);
	if (!json_is_object(root)) {
		if (author_not_paper(other, 0, why) == 0)
			snprintf(why, HARVEST_WHY_LEN, "not %s: %s",
			    s2_shapes[shape].what,
			    json_is_array(root) ? "an array (a batch answer?)"
						: "not an object");
		goto out;
	}
	arr = json_object_get(root, s2_shapes[shape].array);
	/* S2 leaves "data" out of an empty search page. */
	if ((arr == NULL || json_is_null(arr)) && shape != HARVEST_S2_RECS &&
	    json_object_get(root, "total") != NULL)
		arr = NULL;
	else if (!json_is_array(arr)) {
		if (author_not_paper(other, 0, why) == 0)
			snprintf(why, HARVEST_WHY_LEN, "not %s: no %s array",
			    s2_shapes[shape].what, s2_shapes[shape].array);
		goto out;
	}
	if (json_array_size(arr) > HARVEST_MAX_ITEMS) {
		snprintf(why, HARVEST_WHY_LEN, "%zu results, more than %d",
		    json_array_size(arr), HARVEST_MAX_ITEMS);
		goto out;
	}
	l->v = core_xcalloc(json_array_size(arr) + 1, sizeof(*l->v));
	for (i = 0; i < json_array_size(arr); i++) {
		l->n++;
		if (list_item(json_array_get(arr, i), i, &l->v[i], why) != 0)
			goto out;
		if (l->v[i].id == NULL)
			l->gone++;
	}
	if (list_envelope(root, shape, l, why) != 0)
		goto out;
	er = CORE_OK;
out:
	json_decref(root);
	if (er != CORE_OK)
		harvest_s2_list_free(l);
	return er;
}

void
harvest_s2_list_free(struct harvest_s2_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].title);
		free(l->v[i].arxiv);
		json_decref(l->v[i].authors);
	}
	free(l->v);
	free(l->token);
	memset(l, 0, sizeof(*l));
	l->total = l->next = -1;
}
