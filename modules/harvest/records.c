/*
 * records.c -- one decoded JSON line to one row set: papers in both of
 * the shapes we bundle, ROR organisations, OpenAlex institutions and
 * authors.  Pure functions (no database, no I/O) so that the unit tests
 * can check every field.  A record is either converted whole or refused
 * with a reason: the loader never writes half of one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "harvest.h"
#include "remote.h"

#define PAPER_SLUG_MAX 80
#define NAME_SLUG_MAX  60

/* A string member, or NULL when absent, null or not a string. */
static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A trimmed copy of a string member; NULL when absent or blank. */
static char *
opt_str(const json_t *o, const char *key)
{
	const char *s;
	char *t;

	if ((s = str(o, key)) == NULL)
		return NULL;
	t = harvest_squash(s);
	if (*t == '\0') {
		free(t);
		return NULL;
	}
	return t;
}

/* The text after the last '/' of a URL ("https://ror.org/0abc" gives
 * "0abc"); NULL when that is empty. */
static char *
last_part(const char *url)
{
	const char *p;

	if (url == NULL)
		return NULL;
	p = strrchr(url, '/');
	p = p != NULL ? p + 1 : url;
	return *p != '\0' ? core_xstrdup(p) : NULL;
}

/* The short id of an OpenAlex URL of that kind ("openalex.org/I",
 * "openalex.org/A"), or NULL when s is not one. */
static char *
oa_id(const char *s, const char *kind)
{
	return s != NULL && strstr(s, kind) != NULL ? last_part(s) : NULL;
}

char *
harvest_oa_ror(const json_t *inst)
{
	return last_part(str(inst, "ror"));
}

char *
harvest_oa_inst_id(const json_t *inst)
{
	return oa_id(str(inst, "id"), "openalex.org/I");
}

/*
 * What every OpenAlex entity starts with: an object whose "id" is an
 * OpenAlex URL of that kind (into *id; else *why is bad_id) and a
 * display name (into *name).  The strings go to the caller's pool.
 */
static enum core_err
oa_entity(const json_t *o, const char *kind, const char *bad_id,
    struct core_pool *pl, char **id, char **name, const char **why)
{
	*why = NULL;
	if (!json_is_object(o)) {
		*why = "not a JSON object";
		return CORE_EINPUT;
	}
	if ((*id = core_pool_keep(pl, oa_id(str(o, "id"), kind))) == NULL) {
		*why = bad_id;
		return CORE_EINPUT;
	}
	if ((*name = core_pool_keep(pl, opt_str(o, "display_name"))) == NULL) {
		*why = "no display_name";
		return CORE_EINPUT;
	}
	return CORE_OK;
}

/* A JSON integer member as decimal text; NULL when absent (unknown is
 * not zero). */
static char *
int_text(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		return NULL;
	return core_xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
}

/* Compact JSON text of v; caller frees. */
static char *
json_text(const json_t *v)
{
	char *s =
	    json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);

	return s != NULL ? s : core_xstrdup("[]");
}

/* 1 if s is "YYYY-MM-DD" with a plausible month and day. */
static int
is_date(const char *s)
{
	int i;

	if (s == NULL || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	return atoi(s + 5) >= 1 && atoi(s + 5) <= 12 && atoi(s + 8) >= 1 &&
	    atoi(s + 8) <= 31;
}

int
harvest_rfc2822_date(const char *s, char out[11])
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	const char *p;
	int day, year, mon;
	char name[4], tmp[48];

	if (s == NULL)
		return -1;
	/* The day of the week is optional (RFC 2822, 3.3). */
	if ((p = strchr(s, ',')) != NULL)
		s = p + 1;
	if (sscanf(s, " %2d %3s %4d", &day, name, &year) != 3)
		return -1;
	if (strlen(name) != 3 || (p = strstr(months, name)) == NULL ||
	    (p - months) % 3 != 0)
		return -1;
	mon = (int)((size_t)(p - months) / 3) + 1;
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || year < 1000 ||
	    year > 9999)
		return -1;
	/* Ranges checked above; the compiler cannot see that. */
	snprintf(tmp, sizeof(tmp), "%04d-%02d-%02d", year, mon, day);
	memcpy(out, tmp, 11);
	return 0;
}

/*
 * The free function of every record type below: a record keeps all it
 * owns in its pool pl, so emptying the size bytes at rec is freeing the
 * pool and zeroing them.
 */
static void
record_free(struct core_pool *pl, void *rec, size_t size)
{
	core_pool_free(pl);
	memset(rec, 0, size);
}

/* ------------------------------------------------------------ papers */

void
harvest_paper_free(struct harvest_paper *p)
{
	if (p != NULL)
		record_free(&p->pool, p, sizeof(*p));
}

/* The canonical id (without version) of the "id" member. */
static enum core_err
paper_id(const json_t *o, struct harvest_paper *p, const char **why)
{
	struct core_arxiv_id id;
	const char *s;
	size_t used;

	if ((s = str(o, "id")) == NULL) {
		*why = "no id";
		return CORE_EINPUT;
	}
	if (core_arxiv_parse(s, strlen(s), &id, &used) != CORE_OK ||
	    used != strlen(s)) {
		*why = "id is not an arXiv identifier";
		return CORE_EINPUT;
	}
	p->arxiv_id = core_pool_keep(&p->pool, core_xstrdup(id.id));
	return CORE_OK;
}

/*
 * The inline markup Crossref passes on in OpenAlex titles ("Models
 * Using<b>lme4</b>", "CO<sub>2</sub>", "<i>E. coli</i>"): the tags go,
 * their text stays.  Where a b/i/em/strong/u/scp tag stood between two
 * letters, the space it replaced comes back; sub and sup join
 * ("CO2").  Anything else that starts with '<' is text ("p < 0.05").
 */
static void
strip_title_markup(char *s)
{
	static const struct {
		const char *name;
		int spaced;
	} tags[] = { { "b", 1 }, { "i", 1 }, { "em", 1 }, { "strong", 1 },
		{ "u", 1 }, { "scp", 1 }, { "sub", 0 }, { "sup", 0 } };
	char *w = s, *r = s;
	size_t i, n;

	while (*r != '\0') {
		if (*r != '<') {
			*w++ = *r++;
			continue;
		}
		n = r[1] == '/' ? 2 : 1;
		for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
			size_t k = strlen(tags[i].name);

			if (strncasecmp(r + n, tags[i].name, k) == 0 &&
			    r[n + k] == '>')
				break;
		}
		if (i == sizeof(tags) / sizeof(tags[0])) {
			*w++ = *r++;
			continue;
		}
		r += n + strlen(tags[i].name) + 1;
		if (tags[i].spaced && w > s && isalnum((unsigned char)w[-1]) &&
		    isalnum((unsigned char)*r))
			*w++ = ' ';
	}
	*w = '\0';
}

/* Title and abstract, common to both shapes. */
static enum core_err
paper_text(const json_t *o, const char *abskey, struct harvest_paper *p,
    const char **why)
{
	const char *s;
	char *tex;

	if ((s = str(o, "title")) == NULL) {
		*why = "no title";
		return CORE_EINPUT;
	}
	tex = harvest_tex_unaccent(s);
	p->title = core_pool_keep(&p->pool, harvest_squash(tex));
	free(tex);
	if (*p->title == '\0') {
		*why = "empty title";
		return CORE_EINPUT;
	}
	p->slug = core_pool_keep(&p->pool, core_slug(p->title, PAPER_SLUG_MAX));
	/*
	 * The abstract keeps its line breaks (arXiv's hard wrapping and
	 * paragraph breaks); only the ends are trimmed.
	 */
	s = str(o, abskey);
	if (s == NULL)
		s = "";
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	p->abstract = core_pool_keep(&p->pool, core_xstrdup(s));
	{
		size_t n = strlen(p->abstract);

		while (n > 0 &&
		    (p->abstract[n - 1] == ' ' || p->abstract[n - 1] == '\n' ||
			p->abstract[n - 1] == '\t' ||
			p->abstract[n - 1] == '\r'))
			p->abstract[--n] = '\0';
	}
	return CORE_OK;
}

/* Sets categories (JSON) and primary from a list of names, primary
 * first. */
static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* An arXiv category name: archive[.subject], letters and hyphens. */
static int
is_category(const char *s)
{
	int dot = 0;

	if (*s < 'a' || *s > 'z')
		return 0;
	for (; *s != '\0'; s++) {
		if (*s == '.') {
			if (dot++ || s[1] == '\0')
				return 0;
		} else if (!((*s >= 'a' && *s <= 'z') ||
			       (dot && *s >= 'A' && *s <= 'Z') || *s == '-'))
			return 0;
	}
	return 1;
}

json_t *
harvest_class_codes(json_t *list)
{
	json_t *codes = json_array(), *v;
	const char *s, *e;
	size_t i, k, n;
	char *one;
	int dup;

	for (i = 0; i < json_array_size(list);) {
		s = json_string_value(json_array_get(list, i));
		if (s != NULL && is_category(s)) {
			i++;
			continue;
		}
		for (; s != NULL && *s != '\0'; s = *e != '\0' ? e + 1 : e) {
			for (e = s; *e != '\0' && *e != ',' && *e != ';'; e++)
				continue;
			while (s < e && is_space(*s))
				s++;
			for (n = (size_t)(e - s); n > 0 && is_space(s[n - 1]);
			     n--)
				continue;
			if (n == 0)
				continue;
			one = core_xasprintf("%.*s", (int)n, s);
			dup = 0;
			json_array_foreach(codes, k, v) dup |=
			    strcmp(json_string_value(v), one) == 0;
			if (!dup)
				json_array_append_new(codes,
				    core_json_str(one));
			free(one);
		}
		json_array_remove(list, i);
	}
	return codes;
}

static enum core_err
paper_cats(json_t *list, struct harvest_paper *p, const char **why)
{
	json_t *codes = harvest_class_codes(list);

	p->class_codes = core_pool_keep(&p->pool, json_text(codes));
	json_decref(codes);
	if (json_array_size(list) == 0) {
		*why = "no categories";
		return CORE_EINPUT;
	}
	p->primary = core_pool_keep(&p->pool,
	    core_xstrdup(json_string_value(json_array_get(list, 0))));
	p->categories = core_pool_keep(&p->pool, json_text(list));
	return CORE_OK;
}

/* 1 when s has a letter or digit (any non-ASCII byte counts as one). */
static int
has_word(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s >= 0x80 || isalnum((unsigned char)*s))
			return 1;
	return 0;
}

/*
 * Appends name to the authors of p, whose source lists room names at
 * most: the array is made once, that size, and kept in the pool.
 */
static void
add_author(struct harvest_paper *p, size_t room, char *name)
{
	if (p->authors == NULL)
		p->authors = core_pool_keep(&p->pool,
		    core_xcalloc(room, sizeof(*p->authors)));
	p->authors[p->nauthors++] = core_pool_keep(&p->pool, name);
}

static enum core_err
listing_parse(const json_t *o, struct harvest_paper *p, const char **why)
{
	json_t *cats = NULL, *authors, *v;
	const char *s;
	char *tex, *name;
	size_t i;
	enum core_err er;

	cats = json_array();
	json_array_foreach(json_object_get(o, "categories"), i, v)
	{
		if ((s = json_string_value(v)) == NULL || *s == '\0') {
			*why = "a category is not a string";
			er = CORE_EINPUT;
			goto out;
		}
		json_array_append_new(cats, json_string(s));
	}
	if ((er = paper_cats(cats, p, why)) != CORE_OK)
		goto out;

	authors = json_object_get(o, "authors");
	json_array_foreach(authors, i, v)
	{
		if ((s = json_string_value(v)) == NULL) {
			*why = "an author is not a string";
			er = CORE_EINPUT;
			goto out;
		}
		tex = harvest_tex_unaccent(s);
		name = harvest_squash(tex);
		free(tex);
		if (*name == '\0') {
			free(name);
			*why = "an author name is empty";
			er = CORE_EINPUT;
			goto out;
		}
		/* "Team Olmo: A, B" split by the listing's scraper leaves a
		 * lone ":" between the names: punctuation is no author. */
		if (!has_word(name)) {
			free(name);
			continue;
		}
		add_author(p, json_array_size(authors), name);
	}

	/* The listing day is the only date this shape has. */
	if ((s = str(o, "_listing_date")) != NULL) {
		if (!is_date(s)) {
			*why = "_listing_date is not YYYY-MM-DD";
			er = CORE_EINPUT;
			goto out;
		}
		p->published = core_pool_keep(&p->pool, core_xstrdup(s));
		p->updated = core_pool_keep(&p->pool, core_xstrdup(s));
	}
	p->versions = core_pool_keep(&p->pool, core_xstrdup("[]"));
out:
	json_decref(cats);
	return er;
}

static enum core_err
kaggle_parse(const json_t *o, struct harvest_paper *p, const char **why)
{
	json_t *cats = NULL, *vers = NULL, *v, *ap;
	const char *s, *start, *end;
	char date[11], first[11], last[11], *name;
	size_t i;
	long n, lo = 0, hi = 0;
	enum core_err er;

	p->doi = core_pool_keep(&p->pool, opt_str(o, "doi"));
	p->journal_ref = core_pool_keep(&p->pool, opt_str(o, "journal-ref"));
	p->license = core_pool_keep(&p->pool, opt_str(o, "license"));

	/* "math.CO cs.CG": space-separated, primary first. */
	cats = json_array();
	if ((s = str(o, "categories")) != NULL)
		for (start = s; *start != '\0'; start = end) {
			while (*start == ' ')
				start++;
			for (end = start; *end != '\0' && *end != ' '; end++)
				continue;
			if (end > start)
				json_array_append_new(cats,
				    json_stringn(start, (size_t)(end - start)));
		}
	if ((er = paper_cats(cats, p, why)) != CORE_OK)
		goto out;

	/* Versions: "v1" created "Mon, 2 Apr 2007 19:18:42 GMT". */
	vers = json_array();
	json_array_foreach(json_object_get(o, "versions"), i, v)
	{
		s = str(v, "version");
		if (s == NULL || s[0] != 'v' || (n = atol(s + 1)) < 1 ||
		    harvest_rfc2822_date(str(v, "created"), date) != 0) {
			*why = "a version has no number or no date";
			er = CORE_EINPUT;
			goto out;
		}
		json_array_append_new(vers,
		    json_pack("{s:I,s:s}", "version", (json_int_t)n, "date",
			date));
		if (lo == 0 || n < lo) {
			lo = n;
			memcpy(first, date, sizeof(first));
		}
		if (n > hi) {
			hi = n;
			memcpy(last, date, sizeof(last));
		}
	}
	if (lo > 0) {
		p->published = core_pool_keep(&p->pool, core_xstrdup(first));
		p->updated = core_pool_keep(&p->pool, core_xstrdup(last));
	}
	p->versions = core_pool_keep(&p->pool, json_text(vers));
	if (p->updated == NULL && is_date(str(o, "update_date")))
		p->updated = core_pool_keep(&p->pool,
		    core_xstrdup(str(o, "update_date")));

	/* [[last, first, suffix], ...] */
	ap = json_object_get(o, "authors_parsed");
	if (!json_is_array(ap)) {
		*why = "no authors_parsed";
		er = CORE_EINPUT;
		goto out;
	}
	json_array_foreach(ap, i, v)
	{
		if (!json_is_array(v) || json_array_size(v) == 0 ||
		    json_string_value(json_array_get(v, 0)) == NULL) {
			*why = "an authors_parsed entry is not [last, first, "
			       "suffix]";
			er = CORE_EINPUT;
			goto out;
		}
		name =
		    harvest_name_join(json_string_value(json_array_get(v, 0)),
			json_string_value(json_array_get(v, 1)),
			json_string_value(json_array_get(v, 2)));
		if (*name == '\0') {
			free(name);
			*why = "an author name is empty";
			er = CORE_EINPUT;
			goto out;
		}
		add_author(p, json_array_size(ap), name);
	}
out:
	json_decref(cats);
	json_decref(vers);
	return er;
}

/*
 * An OpenAlex work's abstract: OpenAlex ships it as an inverted index
 * ({"word": [positions]}); the words put back in order, one space
 * apart.  "" without one, or when a position is out of range.
 */
static char *
oa_abstract(json_t *inv)
{
	json_t *pos, *v;
	const char *w, **at;
	struct core_buf b = CORE_BUF_INIT;
	json_int_t max = -1, k;
	size_t i;
	char *r;

	json_object_foreach(inv, w, pos) json_array_foreach(pos, i,
	    v) if (json_integer_value(v) > max) max = json_integer_value(v);
	if (max < 0 || max > 100000)
		return core_xstrdup("");
	at = core_xcalloc((size_t)max + 1, sizeof(*at));
	json_object_foreach(inv, w, pos) json_array_foreach(pos, i, v)
	{
		k = json_integer_value(v);
		if (json_is_integer(v) && k >= 0 && k <= max)
			at[k] = w;
	}
	for (k = 0; k <= max; k++)
		if (at[k] != NULL)
			core_buf_printf(&b, "%s%s", b.len > 0 ? " " : "",
			    at[k]);
	free(at);
	r = core_xstrdup(b.ptr != NULL ? core_buf_cstr(&b) : "");
	core_buf_free(&b);
	return r;
}

/*
 * An OpenAlex work that carries an arXiv id (its DataCite DOI
 * 10.48550/arXiv.ID, else an arxiv.org location): the paper as OpenAlex
 * knows it.  OpenAlex has no arXiv categories, so the paper has none
 * (never a guessed one; a later arXiv harvest fills them); no versions.
 */
static enum core_err
openalex_parse(const json_t *o, struct harvest_paper *p, const char **why)
{
	struct core_arxiv_id id;
	const json_t *ships = json_object_get(o, "authorships"), *a, *au;
	const char *s;
	char ax[48], *name;
	size_t i, used;
	enum core_err er;

	p->shape = HARVEST_SHAPE_OPENALEX;
	p->source = "openalex";
	if (harvest_oa_work_arxiv(o, ax) != 0 &&
	    harvest_oa_work_arxiv_loc(o, ax) != 0) {
		*why = "an OpenAlex work without an arXiv id";
		return CORE_EINPUT;
	}
	if (core_arxiv_parse(ax, strlen(ax), &id, &used) != CORE_OK) {
		*why = "id is not an arXiv identifier";
		return CORE_EINPUT;
	}
	p->arxiv_id = core_pool_keep(&p->pool, core_xstrdup(id.id));
	/* A work has no "abstract" member: paper_text() gives "". */
	if ((er = paper_text(o, "abstract", p, why)) != CORE_OK)
		return er;
	/* The slug and abstract paper_text() made stay in the pool. */
	strip_title_markup(p->title);
	p->slug = core_pool_keep(&p->pool, core_slug(p->title, PAPER_SLUG_MAX));
	p->abstract = core_pool_keep(&p->pool,
	    oa_abstract(json_object_get(o, "abstract_inverted_index")));
	p->categories = core_pool_keep(&p->pool, core_xstrdup("[]"));
	p->class_codes = core_pool_keep(&p->pool, core_xstrdup("[]"));
	p->primary = core_pool_keep(&p->pool, core_xstrdup(""));
	p->versions = core_pool_keep(&p->pool, core_xstrdup("[]"));
	if ((s = str(o, "publication_date")) != NULL && is_date(s)) {
		p->published = core_pool_keep(&p->pool, core_xstrdup(s));
		p->updated = core_pool_keep(&p->pool, core_xstrdup(s));
	}
	/* The DOI of the work itself, not arXiv's DataCite one. */
	if ((s = str(o, "doi")) != NULL &&
	    strncasecmp(s, "https://doi.org/", 16) == 0 &&
	    strncasecmp(s + 16, "10.48550/", 9) != 0)
		p->doi = core_pool_keep(&p->pool, core_xstrdup(s + 16));
	json_array_foreach(ships, i, a)
	{
		au = json_object_get(a, "author");
		if ((s = str(a, "raw_author_name")) == NULL &&
		    (s = str(au, "display_name")) == NULL)
			continue;
		name = harvest_squash(s);
		if (!has_word(name)) {
			free(name);
			continue;
		}
		add_author(p, json_array_size(ships), name);
	}
	return CORE_OK;
}

/* Each shape's source, the keys of its abstract and comment, the rest. */
static const struct shape {
	const char *source, *abstract, *comment;
	enum core_err (
	    *parse)(const json_t *, struct harvest_paper *, const char **);
} shapes[HARVEST_SHAPE__MAX] = {
	[HARVEST_SHAPE_LISTING] = { "arxiv-listing", "summary", "comment",
	    listing_parse },
	[HARVEST_SHAPE_KAGGLE] = { "kaggle", "abstract", "comments",
	    kaggle_parse },
};

/* A listing or Kaggle record through its shapes[] entry. */
static enum core_err
shaped_parse(const json_t *o, enum harvest_shape k, struct harvest_paper *p,
    const char **why)
{
	const struct shape *sh = &shapes[k];
	enum core_err er;

	p->shape = k;
	p->source = sh->source;
	if ((er = paper_id(o, p, why)) == CORE_OK &&
	    (er = paper_text(o, sh->abstract, p, why)) == CORE_OK) {
		p->comment = core_pool_keep(&p->pool, opt_str(o, sh->comment));
		er = sh->parse(o, p, why);
	}
	return er;
}

enum core_err
harvest_paper_parse(const json_t *o, struct harvest_paper *p, const char **why)
{
	enum core_err er;

	*why = NULL;
	if (!json_is_object(o)) {
		*why = "not a JSON object";
		return CORE_EINPUT;
	}
	/* The listing has a list of names; Kaggle a string plus
	 * authors_parsed. */
	if (json_is_array(json_object_get(o, "authorships")))
		er = openalex_parse(o, p, why);
	else if (json_is_array(json_object_get(o, "authors")))
		er = shaped_parse(o, HARVEST_SHAPE_LISTING, p, why);
	else if (json_object_get(o, "authors_parsed") != NULL)
		er = shaped_parse(o, HARVEST_SHAPE_KAGGLE, p, why);
	else {
		*why = "neither a listing nor a Kaggle record (no authors)";
		return CORE_EINPUT;
	}
	if (er == CORE_OK && p->nauthors == 0) {
		*why = "no authors";
		er = CORE_EINPUT;
	}
	if (er != CORE_OK)
		harvest_paper_free(p);
	return er;
}

/* ------------------------------------------------------ institutions */

void
harvest_inst_free(struct harvest_inst *in)
{
	if (in != NULL)
		record_free(&in->pool, in, sizeof(*in));
}

/* 1 if the names[] entry n has type t among its types. */
static int
has_type(const json_t *n, const char *t)
{
	const char *s;
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(n, "types"), i,
	    v) if ((s = json_string_value(v)) != NULL &&
	    strcmp(s, t) == 0) return 1;
	return 0;
}

/* Appends s to the JSON array a unless blank, equal to name or there. */
static void
alias_add(json_t *a, const char *s, const char *name)
{
	json_t *v;
	size_t i;

	if (s == NULL || *s == '\0' || strcmp(s, name) == 0)
		return;
	json_array_foreach(a, i,
	    v) if (strcmp(json_string_value(v), s) == 0) return;
	json_array_append_new(a, json_string(s));
}

/*
 * ROR's "relationships" kept as [{type, id, label}] with the id's last
 * part: an organisation that was merged or renamed names its successor,
 * which is what a page about it must point to.  A relationship without
 * a type or a ROR id is refused (the record is malformed).
 */
static enum core_err
ror_relationships(const json_t *o, struct harvest_inst *in, const char **why)
{
	const json_t *rels = json_object_get(o, "relationships"), *v;
	json_t *out;
	char *id;
	size_t i;

	if (rels == NULL || json_is_null(rels))
		return CORE_OK;
	if (!json_is_array(rels)) {
		*why = "relationships is not an array";
		return CORE_EINPUT;
	}
	out = json_array();
	json_array_foreach(rels, i, v)
	{
		if (str(v, "type") == NULL || str(v, "id") == NULL ||
		    strstr(str(v, "id"), "ror.org/") == NULL ||
		    (id = last_part(str(v, "id"))) == NULL) {
			json_decref(out);
			*why = "a relationship without a type or a ROR id";
			return CORE_EINPUT;
		}
		json_array_append_new(out,
		    json_pack("{s:s, s:o, s:o}", "type", str(v, "type"), "id",
			core_json_str(id), "label",
			core_json_str(str(v, "label"))));
		free(id);
	}
	in->relationships = core_pool_keep(&in->pool, json_text(out));
	json_decref(out);
	return CORE_OK;
}

/*
 * An institution from either source: fill() sets in's fields and adds
 * the aliases to the array it is given, which becomes in->aliases.  On
 * failure in holds nothing.
 */
static enum core_err
inst_parse(const json_t *o, struct harvest_inst *in, const char **why,
    enum core_err (
	*fill)(const json_t *, struct harvest_inst *, json_t *, const char **))
{
	json_t *aliases = json_array();
	enum core_err er;

	*why = NULL;
	if (!json_is_object(o)) {
		*why = "not a JSON object";
		er = CORE_EINPUT;
	} else
		er = fill(o, in, aliases, why);
	if (er == CORE_OK)
		in->aliases = core_pool_keep(&in->pool, json_text(aliases));
	else
		harvest_inst_free(in);
	json_decref(aliases);
	return er;
}

static enum core_err
ror_fill(const json_t *o, struct harvest_inst *in, json_t *aliases,
    const char **why)
{
	struct core_pool *pl = &in->pool;
	json_t *names, *n, *disp = NULL, *geo, *v;
	const char *s;
	size_t i;

	if ((in->ror_id = core_pool_keep(pl, last_part(str(o, "id")))) ==
		NULL ||
	    strstr(str(o, "id"), "ror.org/") == NULL) {
		*why = "id is not a ROR URL";
		return CORE_EINPUT;
	}
	/* The display name is the entry typed "ror_display" (schema v2). */
	names = json_object_get(o, "names");
	json_array_foreach(names, i,
	    n) if (has_type(n, "ror_display") && str(n, "value") != NULL)
	{
		disp = n;
		break;
	}
	if (disp == NULL) {
		*why = "no ror_display name";
		return CORE_EINPUT;
	}
	in->name = core_pool_keep(pl, harvest_squash(str(disp, "value")));
	if (*in->name == '\0') {
		*why = "empty ror_display name";
		return CORE_EINPUT;
	}
	in->slug = core_pool_keep(pl, core_slug(in->name, NAME_SLUG_MAX));
	json_array_foreach(names, i, n)
	{
		if (n == disp)
			continue;
		if (has_type(n, "alias") || has_type(n, "label") ||
		    has_type(n, "acronym"))
			alias_add(aliases, str(n, "value"), in->name);
	}

	geo =
	    json_object_get(json_array_get(json_object_get(o, "locations"), 0),
		"geonames_details");
	in->country_code = core_pool_keep(pl, opt_str(geo, "country_code"));
	in->country_name = core_pool_keep(pl, opt_str(geo, "country_name"));
	if ((s = json_string_value(
		 json_array_get(json_object_get(o, "types"), 0))) != NULL &&
	    *s != '\0')
		in->type = core_pool_keep(pl, core_xstrdup(s));
	in->status = core_pool_keep(pl, opt_str(o, "status"));
	json_array_foreach(json_object_get(o, "links"), i,
	    v) if ((s = str(v, "type")) != NULL && strcmp(s, "website") == 0 &&
	    str(v, "value") != NULL)
	{
		in->website = core_pool_keep(pl, opt_str(v, "value"));
		break;
	}
	in->established = core_pool_keep(pl, int_text(o, "established"));
	return ror_relationships(o, in, why);
}

enum core_err
harvest_ror_parse(const json_t *o, struct harvest_inst *in, const char **why)
{
	return inst_parse(o, in, why, ror_fill);
}

static enum core_err
oa_inst_fill(const json_t *o, struct harvest_inst *in, json_t *aliases,
    const char **why)
{
	struct core_pool *pl = &in->pool;
	json_t *v;
	const char *s;
	size_t i;
	enum core_err er;

	if ((er = oa_entity(o, "openalex.org/I",
		 "id is not an OpenAlex institution URL", pl, &in->openalex_id,
		 &in->name, why)) != CORE_OK)
		return er;
	if ((s = str(o, "ror")) != NULL)
		in->ror_id = core_pool_keep(pl, last_part(s));
	in->slug = core_pool_keep(pl, core_slug(in->name, NAME_SLUG_MAX));
	json_array_foreach(json_object_get(o, "display_name_alternatives"), i,
	    v) alias_add(aliases, json_string_value(v), in->name);
	json_array_foreach(json_object_get(o, "display_name_acronyms"), i, v)
	    alias_add(aliases, json_string_value(v), in->name);
	in->country_code = core_pool_keep(pl, opt_str(o, "country_code"));
	in->country_name =
	    core_pool_keep(pl, opt_str(json_object_get(o, "geo"), "country"));
	in->type = core_pool_keep(pl, opt_str(o, "type"));
	in->website = core_pool_keep(pl, opt_str(o, "homepage_url"));
	return CORE_OK;
}

enum core_err
harvest_oa_inst_parse(const json_t *o, struct harvest_inst *in,
    const char **why)
{
	return inst_parse(o, in, why, oa_inst_fill);
}

/* ----------------------------------------------------------- authors */

void
harvest_author_free(struct harvest_author *a)
{
	if (a != NULL)
		record_free(&a->pool, a, sizeof(*a));
}

/* A bare ORCID iD from "https://orcid.org/0000-0001-6187-6610", or NULL
 * when it is not one (16 digits in groups of four, the last may be X). */
static char *
orcid_bare(const char *s)
{
	char *id;
	int i;

	if ((id = last_part(s)) == NULL)
		return NULL;
	if (strlen(id) != 19)
		goto bad;
	for (i = 0; i < 19; i++) {
		if (i % 5 == 4) {
			if (id[i] != '-')
				goto bad;
		} else if (!isdigit((unsigned char)id[i]) &&
		    !(i == 18 && id[i] == 'X'))
			goto bad;
	}
	return id;
bad:
	free(id);
	return NULL;
}

/*
 * The affiliation for institution object inst, found or added; NULL when
 * inst names neither a ROR nor an OpenAlex id.  One entry per
 * institution, keyed by ROR id, else OpenAlex id, in a->affils (zeroed,
 * room for every institution the record names).
 */
static struct harvest_affil *
affil_get(struct harvest_author *a, const json_t *inst)
{
	struct harvest_affil *f;
	char *ror, *oa;
	size_t i;

	ror = last_part(str(inst, "ror"));
	oa = oa_id(str(inst, "id"), "openalex.org/I");
	if ((ror == NULL && oa == NULL) || str(inst, "display_name") == NULL) {
		free(ror);
		free(oa);
		return NULL;
	}
	for (i = 0; i < a->naffils; i++) {
		f = &a->affils[i];
		if ((ror != NULL && f->ror_id != NULL &&
			strcmp(ror, f->ror_id) == 0) ||
		    (ror == NULL && f->ror_id == NULL && oa != NULL &&
			f->openalex_id != NULL &&
			strcmp(oa, f->openalex_id) == 0)) {
			free(ror);
			free(oa);
			return f;
		}
	}
	f = &a->affils[a->naffils++];
	f->ror_id = core_pool_keep(&a->pool, ror);
	f->openalex_id = core_pool_keep(&a->pool, oa);
	f->name =
	    core_pool_keep(&a->pool, harvest_squash(str(inst, "display_name")));
	f->slug = core_pool_keep(&a->pool, core_slug(f->name, NAME_SLUG_MAX));
	f->country_code =
	    core_pool_keep(&a->pool, opt_str(inst, "country_code"));
	f->type = core_pool_keep(&a->pool, opt_str(inst, "type"));
	return f;
}

enum core_err
harvest_oa_author_parse(const json_t *o, struct harvest_author *a,
    const char **why)
{
	struct core_pool *pl = &a->pool;
	struct harvest_affil *f;
	json_t *affs, *last, *v, *y;
	size_t i, j;
	int year;
	enum core_err er = CORE_EINPUT;

	if ((er = oa_entity(o, "openalex.org/A",
		 "id is not an OpenAlex author URL", pl, &a->openalex_id,
		 &a->name, why)) != CORE_OK)
		goto out;
	/* What OpenAlex leaves of a removed or merged profile: its works
	 * moved elsewhere, the name is a placeholder ("Deleted Author ID"). */
	if (strcasecmp(a->name, "Deleted Author") == 0 ||
	    strcasecmp(a->name, "Deleted Author ID") == 0) {
		a->deleted = 1;
		*why = "a Deleted Author record";
	}
	a->name_key = core_pool_keep(pl, harvest_name_key(a->name));
	a->slug = core_pool_keep(pl, core_slug(a->name, NAME_SLUG_MAX));
	a->orcid = core_pool_keep(pl, orcid_bare(str(o, "orcid")));
	a->h_index = core_pool_keep(pl,
	    int_text(json_object_get(o, "summary_stats"), "h_index"));
	a->citations = core_pool_keep(pl, int_text(o, "cited_by_count"));
	a->works_count = core_pool_keep(pl, int_text(o, "works_count"));

	/* One entry per institution named, at most; kept in the pool. */
	affs = json_object_get(o, "affiliations");
	last = json_object_get(o, "last_known_institutions");
	a->affils = core_pool_keep(pl,
	    core_xcalloc(json_array_size(affs) + json_array_size(last),
		sizeof(*a->affils)));
	json_array_foreach(affs, i, v)
	{
		if ((f = affil_get(a, json_object_get(v, "institution"))) ==
		    NULL)
			continue;
		json_array_foreach(json_object_get(v, "years"), j, y)
		{
			if (!json_is_integer(y))
				continue;
			year = (int)json_integer_value(y);
			if (f->first_year == 0 || year < f->first_year)
				f->first_year = year;
			if (year > f->last_year)
				f->last_year = year;
		}
	}
	json_array_foreach(last, i, v)
	{
		if ((f = affil_get(a, v)) != NULL)
			f->last_known = 1;
	}
	er = CORE_OK;
out:
	if (er != CORE_OK)
		harvest_author_free(a);
	return er;
}

/* -------------------------------------------------------------- COPY */

void
harvest_array_add(struct core_buf *b, const char *s)
{
	core_buf_putc(b, b->len > 0 ? ',' : '{');
	if (s == NULL) {
		core_buf_puts(b, "NULL");
		return;
	}
	core_buf_putc(b, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			core_buf_putc(b, '\\');
		core_buf_putc(b, *s);
	}
	core_buf_putc(b, '"');
}

void
harvest_copy_row(struct core_buf *b, const char *const *fields, size_t n)
{
	const char *s, *run;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			core_buf_putc(b, '\t');
		if ((s = fields[i]) == NULL) {
			core_buf_puts(b, "\\N");
			continue;
		}
		/* COPY text format: these four would end or split the field. */
		for (run = s; *s != '\0'; s++) {
			const char *esc;

			switch (*s) {
			case '\\':
				esc = "\\\\";
				break;
			case '\t':
				esc = "\\t";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			default:
				continue;
			}
			core_buf_put(b, run, (size_t)(s - run));
			core_buf_puts(b, esc);
			run = s + 1;
		}
		core_buf_put(b, run, (size_t)(s - run));
	}
	core_buf_putc(b, '\n');
}
