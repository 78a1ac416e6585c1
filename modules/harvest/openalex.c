/*
 * openalex.c -- OpenAlex responses: lists ({"meta": {...}, "results":
 * [...]}, paged by cursor with meta.next_cursor) and single entities
 * (works, authors, institutions).  Only the shape is checked here: the
 * fields the harvester reads must have the types it expects, so that
 * storing never meets a number where it wanted a string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "remote.h"

#define OA_PREFIX "https://openalex.org/"

/* Allowed JSON types, as a mask. */
enum {
	T_STR = 1 << 0,
	T_INT = 1 << 1,
	T_NUM = 1 << 2, /* integer or real */
	T_OBJ = 1 << 3,
	T_ARR = 1 << 4,
	T_NULL = 1 << 5,
	T_BOOL = 1 << 6,
};

static const struct field {
	const char *key;
	int types;
} fields[] = {
	{ "display_name", T_STR | T_NULL },
	{ "doi", T_STR | T_NULL },
	{ "ids", T_OBJ | T_NULL },
	{ "cited_by_count", T_INT | T_NULL },
	{ "works_count", T_INT | T_NULL },
	{ "orcid", T_STR | T_NULL },
	{ "ror", T_STR | T_NULL },
	{ "summary_stats", T_OBJ | T_NULL },
	{ "authorships", T_ARR | T_NULL },
	{ "last_known_institutions", T_ARR | T_NULL },
	{ "affiliations", T_ARR | T_NULL },
	{ "country_code", T_STR | T_NULL },
	{ "type", T_STR | T_NULL },
	{ "publication_date", T_STR | T_NULL },
};

static int
type_ok(const json_t *v, int types)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return types & T_STR;
	case JSON_INTEGER:
		return types & (T_INT | T_NUM);
	case JSON_REAL:
		return types & T_NUM;
	case JSON_OBJECT:
		return types & T_OBJ;
	case JSON_ARRAY:
		return types & T_ARR;
	case JSON_NULL:
		return types & T_NULL;
	case JSON_TRUE:
	case JSON_FALSE:
		return types & T_BOOL;
	}
	return 0;
}

/* Formats why and returns -1: what a check says when it refuses. */
static int bad(char why[HARVEST_WHY_LEN], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
bad(char why[HARVEST_WHY_LEN], const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, HARVEST_WHY_LEN, fmt, ap);
	va_end(ap);
	return -1;
}

const char *
harvest_oa_short(const char *s)
{
	const char *r;

	if (s == NULL || strncmp(s, OA_PREFIX, strlen(OA_PREFIX)) != 0)
		return NULL;
	r = s + strlen(OA_PREFIX);
	if (r[0] < 'A' || r[0] > 'Z' || r[1] < '0' || r[1] > '9' ||
	    strlen(r) > 24 || strspn(r + 1, "0123456789") != strlen(r + 1))
		return NULL;
	return r;
}

/* An entity nested in a list field (authorships[].author, ...). */
static int
check_ref(const json_t *o, const char *where, char why[HARVEST_WHY_LEN])
{
	const json_t *v;

	if (!json_is_object(o))
		return bad(why, "%s: not an object", where);
	v = json_object_get(o, "id");
	if (v != NULL && !json_is_null(v) &&
	    harvest_oa_short(json_string_value(v)) == NULL)
		return bad(why, "%s: bad id", where);
	v = json_object_get(o, "display_name");
	if (v != NULL && !json_is_string(v) && !json_is_null(v))
		return bad(why, "%s: display_name is not a string", where);
	v = json_object_get(o, "ror");
	if (v != NULL && !json_is_string(v) && !json_is_null(v))
		return bad(why, "%s: ror is not a string", where);
	return 0;
}

static int
check_entity(const json_t *o, size_t i, char why[HARVEST_WHY_LEN])
{
	const json_t *v, *a, *x;
	size_t k, j;

	if (!json_is_object(o))
		return bad(why, "result %zu is not an object", i);
	if (harvest_oa_short(json_string_value(json_object_get(o, "id"))) ==
	    NULL)
		return bad(why, "result %zu has no OpenAlex id", i);
	for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		v = json_object_get(o, fields[k].key);
		if (v != NULL && !type_ok(v, fields[k].types))
			return bad(why, "result %zu: %s has the wrong type", i,
			    fields[k].key);
	}
	v = json_object_get(o, "summary_stats");
	if (json_is_object(v) && (a = json_object_get(v, "h_index")) != NULL &&
	    !json_is_integer(a) && !json_is_null(a))
		return bad(why, "result %zu: h_index has the wrong type", i);
	v = json_object_get(o, "authorships");
	json_array_foreach(v, j, a)
	{
		if (check_ref(a, "authorship", why) != 0 ||
		    ((x = json_object_get(a, "author")) != NULL &&
			check_ref(x, "authorship author", why) != 0))
			return -1;
		if (j >= HARVEST_MAX_AUTHORS)
			return bad(why, "result %zu: too many authorships", i);
	}
	v = json_object_get(o, "last_known_institutions");
	json_array_foreach(v, j,
	    a) if (check_ref(a, "institution", why) != 0) return -1;
	v = json_object_get(o, "affiliations");
	json_array_foreach(v, j, a) if (!json_is_object(a) ||
	    ((x = json_object_get(a, "institution")) != NULL &&
		check_ref(x, "affiliation", why) != 0))
	{
		if (!json_is_object(a))
			return bad(why, "affiliation is not an object");
		return -1;
	}
	return 0;
}

enum core_err
harvest_oa_parse(const char *p, size_t n, int entity, struct harvest_oa_list *l,
    char why[HARVEST_WHY_LEN])
{
	json_error_t je;
	json_t *root, *meta, *res, *v;
	size_t i;
	enum core_err er = CORE_EINPUT;

	memset(l, 0, sizeof(*l));
	l->count = -1;
	why[0] = '\0';
	root = json_loadb(p, n, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "not JSON (%s at line %d)",
		    je.text, je.line);
		return CORE_EINPUT;
	}
	if (!json_is_object(root)) {
		snprintf(why, HARVEST_WHY_LEN, "response is not an object");
		goto out;
	}
	if ((v = json_object_get(root, "error")) != NULL) {
		snprintf(why, HARVEST_WHY_LEN, "OpenAlex error: %.100s %.100s",
		    json_is_string(v) ? json_string_value(v) : "",
		    json_string_value(json_object_get(root, "message"))
			? json_string_value(json_object_get(root, "message"))
			: "");
		er = CORE_EUPSTREAM;
		goto out;
	}
	if (entity) {
		if (check_entity(root, 0, why) != 0)
			goto out;
		l->results = l->doc = json_array();
		json_array_append(l->results, root);
		er = CORE_OK;
		goto out;
	}
	meta = json_object_get(root, "meta");
	res = json_object_get(root, "results");
	if (!json_is_object(meta) || !json_is_array(res)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "list response without meta "
		    "and results");
		goto out;
	}
	if (json_array_size(res) > HARVEST_MAX_ITEMS) {
		snprintf(why, HARVEST_WHY_LEN, "more than %d results",
		    HARVEST_MAX_ITEMS);
		goto out;
	}
	v = json_object_get(meta, "count");
	if (v != NULL && !json_is_integer(v) && !json_is_null(v)) {
		snprintf(why, HARVEST_WHY_LEN, "meta.count is not a number");
		goto out;
	}
	l->count = json_is_integer(v) ? (long)json_integer_value(v) : -1;
	v = json_object_get(meta, "next_cursor");
	if (v != NULL && !json_is_string(v) && !json_is_null(v)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "meta.next_cursor is not a "
		    "string");
		goto out;
	}
	for (i = 0; i < json_array_size(res); i++)
		if (check_entity(json_array_get(res, i), i, why) != 0)
			goto out;
	if (json_is_string(v) && *json_string_value(v) != '\0')
		l->next_cursor = json_string_value(v);
	l->results = res;
	l->doc = json_incref(root);
	er = CORE_OK;
out:
	json_decref(root);
	return er;
}

void
harvest_oa_list_free(struct harvest_oa_list *l)
{
	if (l == NULL)
		return;
	json_decref(l->doc);
	memset(l, 0, sizeof(*l));
	l->count = -1;
}

int
harvest_oa_check_kind(const struct harvest_oa_list *l, char kind,
    char why[HARVEST_WHY_LEN])
{
	static const struct {
		char c;
		const char *name;
	} kinds[] = { { 'W', "a work" }, { 'A', "an author" },
		{ 'I', "an institution" }, { 'S', "a source" },
		{ 'P', "a publisher" }, { 'F', "a funder" }, { 'T', "a topic" },
		{ 'C', "a concept" } };
	const char *id, *is = "something else", *want = "?";
	size_t i, k;

	for (i = 0; i < json_array_size(l->results); i++) {
		id = harvest_oa_short(json_string_value(
		    json_object_get(json_array_get(l->results, i), "id")));
		if (id != NULL && id[0] == kind)
			continue;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (id != NULL && kinds[k].c == id[0])
				is = kinds[k].name;
			if (kinds[k].c == kind)
				want = kinds[k].name;
		}
		snprintf(why, HARVEST_WHY_LEN,
		    "wrong entity type: result %zu (%s) is %s, not %s", i,
		    id != NULL ? id : "no id", is, want);
		return -1;
	}
	return 0;
}

int
harvest_oa_work_arxiv(const json_t *work, char out[48])
{
	static const char pre[] = "https://doi.org/10.48550/arxiv.";
	const char *d;
	struct core_arxiv_id id;
	size_t used;

	d = json_string_value(
	    json_object_get(json_object_get(work, "ids"), "doi"));
	if (d == NULL)
		d = json_string_value(json_object_get(work, "doi"));
	if (d == NULL || strncasecmp(d, pre, sizeof(pre) - 1) != 0)
		return -1;
	d += sizeof(pre) - 1;
	if (core_arxiv_parse(d, strlen(d), &id, &used) != CORE_OK ||
	    used != strlen(d))
		return -1;
	memcpy(out, id.id, sizeof(id.id));
	return 0;
}

/* The arXiv id of an arxiv.org abs/pdf URL ("https://arxiv.org/abs/
 * 1304.7300", "http://arxiv.org/pdf/1304.7300v2.pdf"); -1 otherwise. */
static int
arxiv_url_id(const char *u, char out[48])
{
	static const char *const pre[] = { "https://arxiv.org/abs/",
		"http://arxiv.org/abs/", "https://arxiv.org/pdf/",
		"http://arxiv.org/pdf/", "https://export.arxiv.org/abs/",
		"http://export.arxiv.org/abs/" };
	struct core_arxiv_id id;
	size_t k, used, rest;

	if (u == NULL)
		return -1;
	for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strncasecmp(u, pre[k], strlen(pre[k])) == 0)
			break;
	if (k == sizeof(pre) / sizeof(pre[0]))
		return -1;
	u += strlen(pre[k]);
	if (core_arxiv_parse(u, strlen(u), &id, &used) != CORE_OK)
		return -1;
	rest = strlen(u + used);
	if (rest != 0 && strcmp(u + used, ".pdf") != 0 &&
	    strcmp(u + used, "/") != 0)
		return -1;
	memcpy(out, id.id, sizeof(id.id));
	return 0;
}

static int
loc_arxiv(const json_t *loc, char out[48])
{
	if (!json_is_object(loc))
		return -1;
	if (arxiv_url_id(json_string_value(
			     json_object_get(loc, "landing_page_url")),
		out) == 0)
		return 0;
	return arxiv_url_id(json_string_value(json_object_get(loc, "pdf_url")),
	    out);
}

int
harvest_oa_work_arxiv_loc(const json_t *work, char out[48])
{
	const json_t *l;
	size_t i;

	if (loc_arxiv(json_object_get(work, "primary_location"), out) == 0)
		return 0;
	json_array_foreach(json_object_get(work, "locations"), i,
	    l) if (loc_arxiv(l, out) == 0) return 0;
	return -1;
}
