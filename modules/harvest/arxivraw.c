/*
 * arxivraw.c -- the OAI-PMH arXivRaw metadata format (schema
 * http://arxiv.org/OAI/arXivRaw.xsd): what arXiv's own .abs file says,
 * with every version (<version version="v2"><date>RFC 2822</date>
 * <size>609kb</size><source_type>D</source_type></version>), the
 * submitter, the MSC and ACM classes, and the authors as one line of
 * text ("A. One, B. Two (MIT) and C. Three"), the form arXiv shows.
 * oai.c calls it for a record whose metadata is an <arXivRaw> element.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core.h"
#include "harvest.h"
#include "remote.h"

#define RAW_MAX_LEGEND 64 /* numbered affiliations "((1) X, (2) Y)" */
#define RAW_MAX_AFFILS 16 /* as harvest_author_add() */

/* s without white space at either end, in place. */
static char *
trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	return s;
}

/* Whether s holds only numbers separated by commas, spaces or the word
 * "and": "1", "1,2", "1 and 3" -- references into a numbered
 * affiliation list. */
static int
is_refs(const char *s)
{
	int digit = 0;

	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			digit = 1;
		else if (strncmp(s, "and", 3) == 0)
			s += 2;
		else if (*s != ',' && *s != ' ')
			return 0;
	}
	return digit;
}

struct legend {
	long num[RAW_MAX_LEGEND];
	char *text[RAW_MAX_LEGEND];
	size_t n;
};

/*
 * "(1) MIT, (2) CERN" -> the legend.  Each "(k)" starts an entry that
 * runs to the next "(k)" at the same level; separators at its end go.
 */
static void
legend_parse(struct legend *lg, const char *s)
{
	const char *p = s, *start = NULL;
	char *end;
	long k = -1, cur = -1;

	for (;;) {
		if (*p == '\0' ||
		    (*p == '(' && isdigit((unsigned char)p[1]) &&
			(k = strtol(p + 1, &end, 10)) >= 0 && *end == ')')) {
			if (start != NULL && lg->n < RAW_MAX_LEGEND) {
				char *t =
				    core_xstrndup(start, (size_t)(p - start));
				size_t l = strlen(t);

				while (l > 0 &&
				    (t[l - 1] == ',' || t[l - 1] == ';' ||
					t[l - 1] == ' '))
					t[--l] = '\0';
				lg->num[lg->n] = cur;
				lg->text[lg->n++] = t;
			}
			if (*p == '\0')
				break;
			cur = k;
			p = end + 1;
			start = p;
			continue;
		}
		p++;
	}
}

static const char *
legend_get(const struct legend *lg, long k)
{
	size_t i;

	for (i = 0; i < lg->n; i++)
		if (lg->num[i] == k)
			return trim(lg->text[i]);
	return NULL;
}

/* One author: the text outside parentheses is the name; each top-level
 * group is an affiliation, a list of references ("(1, 2)") or a legend
 * ("((1) MIT, (2) CERN)", into lg). */
struct rawauth {
	char *name;
	json_t *affs; /* array of strings */
	json_t *refs; /* array of integers */
};

static void
token_parse(const char *t, size_t n, struct rawauth *ra, struct legend *lg)
{
	struct core_buf name = CORE_BUF_INIT;
	size_t i, open = 0;
	int depth = 0;
	char *g, *gt, *tok, *save;

	ra->affs = json_array();
	ra->refs = json_array();
	for (i = 0; i < n; i++) {
		if (t[i] == '(') {
			if (depth++ == 0)
				open = i + 1;
			continue;
		}
		if (t[i] == ')' && depth > 0) {
			if (--depth > 0)
				continue;
			g = core_xstrndup(t + open, i - open);
			gt = trim(g);
			if (*gt == '(')
				legend_parse(lg, gt);
			else if (is_refs(gt)) {
				for (tok = strtok_r(gt, ", ", &save);
				     tok != NULL;
				     tok = strtok_r(NULL, ", ", &save))
					if (isdigit((unsigned char)*tok) &&
					    json_array_size(ra->refs) <
						RAW_MAX_AFFILS)
						json_array_append_new(ra->refs,
						    json_integer(
							strtol(tok, NULL, 10)));
			} else if (*gt != '\0' &&
			    json_array_size(ra->affs) < RAW_MAX_AFFILS)
				json_array_append_new(ra->affs,
				    core_json_str(gt));
			free(g);
			continue;
		}
		if (depth == 0)
			core_buf_putc(&name, t[i]);
	}
	/* An unclosed group: its text is not a name either. */
	ra->name = core_buf_steal(&name);
	harvest_squash_ws(ra->name);
}

json_t *
harvest_arxivraw_authors(const char *s)
{
	struct legend lg = { .n = 0 };
	struct rawauth *v = NULL;
	size_t nv = 0, cap = 0, i, j, start = 0, len;
	json_t *out = json_array(), *affs, *r;
	const char *txt;
	int depth = 0;

	if (s == NULL)
		return out;
	len = strlen(s);
	/*
	 * Split at ',', ';' and the word "and" outside parentheses: arXiv's
	 * "A, B and C", "A, B, and C".
	 */
	for (i = 0; i <= len; i++) {
		size_t skip = 0;

		if (i < len && s[i] == '(')
			depth++;
		else if (i < len && s[i] == ')' && depth > 0)
			depth--;
		if (depth > 0 && i < len)
			continue;
		if (i == len || s[i] == ',' || s[i] == ';')
			skip = 1;
		else if (isspace((unsigned char)s[i]) &&
		    strncmp(s + i + 1, "and", 3) == 0 &&
		    isspace((unsigned char)s[i + 4]))
			skip = 5;
		if (skip == 0)
			continue;
		if (nv == cap) {
			cap = cap ? 2 * cap : 8;
			v = realloc(v, cap * sizeof(*v));
			if (v == NULL)
				abort();
		}
		token_parse(s + start, i - start, &v[nv], &lg);
		nv++;
		start = i + skip;
		i = start - 1;
		if (nv > HARVEST_MAX_AUTHORS)
			break;
	}
	for (i = 0; i < nv; i++) {
		/* Cleaned first: a name of control characters is none. */
		json_t *nm = core_json_str(v[i].name);

		if (json_string_length(nm) > 0 &&
		    strcmp(v[i].name, "et al.") != 0 &&
		    strcmp(v[i].name, "et al") != 0) {
			affs = json_deep_copy(v[i].affs);
			json_array_foreach(v[i].refs, j, r)
			{
				txt = legend_get(&lg,
				    (long)json_integer_value(r));
				if (txt != NULL && *txt != '\0' &&
				    json_array_size(affs) < RAW_MAX_AFFILS)
					json_array_append_new(affs,
					    core_json_str(txt));
			}
			json_array_append_new(out,
			    json_pack("{s:O, s:o}", "name", nm, "affiliations",
				affs));
		}
		json_decref(nm);
		free(v[i].name);
		json_decref(v[i].affs);
		json_decref(v[i].refs);
	}
	for (i = 0; i < lg.n; i++)
		free(lg.text[i]);
	free(v);
	return out;
}

/* The versions: [{"version":1,"date":"2007-04-02","size":"443kb"}, ...]
 * in number order; -1 with why for a version without a number or a
 * date, or one given twice. */
static int
versions(const xmlNode *m, const char *id, json_t *o, char why[HARVEST_WHY_LEN])
{
	xmlNode *v;
	json_t *vers = json_array(), *e;
	char *num, *date, *size, *end, d[11];
	long n, prev = 0;
	int rc = -1;

	json_object_set_new(o, "versions", vers);
	for (v = harvest_xml_child(m, HARVEST_NS_ARXIVRAW, "version");
	     v != NULL;
	     v = harvest_xml_next(v, HARVEST_NS_ARXIVRAW, "version")) {
		num = harvest_xml_attr(v, "version");
		date = harvest_xml_text(
		    harvest_xml_child(v, HARVEST_NS_ARXIVRAW, "date"));
		size = harvest_xml_text(
		    harvest_xml_child(v, HARVEST_NS_ARXIVRAW, "size"));
		n = num != NULL && (num[0] == 'v' || num[0] == 'V')
		    ? strtol(num + 1, &end, 10)
		    : -1;
		if (n <= prev || n > 1000 || *end != '\0' ||
		    harvest_rfc2822_date(date, d) != 0) {
			snprintf(why, HARVEST_WHY_LEN,
			    "%s: a version without a "
			    "number, out of order, or without a date",
			    id);
			free(num);
			free(date);
			free(size);
			return -1;
		}
		e = json_pack("{s:i, s:s}", "version", (int)n, "date", d);
		if (size != NULL && *size != '\0')
			json_object_set_new(e, "size", core_json_str(size));
		json_array_append_new(vers, e);
		prev = n;
		free(num);
		free(date);
		free(size);
	}
	if (json_array_size(vers) == 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: no version", id);
		goto out;
	}
	json_object_set_new(o, "version", json_integer(prev));
	json_object_set(o, "published",
	    json_object_get(json_array_get(vers, 0), "date"));
	json_object_set(o, "updated",
	    json_object_get(json_array_get(vers, json_array_size(vers) - 1),
		"date"));
	rc = 0;
out:
	return rc;
}

enum core_err
harvest_arxivraw_meta(const xmlNode *m, json_t *o, char why[HARVEST_WHY_LEN])
{
	struct core_arxiv_id id;
	json_t *cats, *auth;
	char *s = NULL, *tok, *save;
	size_t used = 0, i;
	enum core_err er = CORE_EINPUT;

	s = harvest_xml_text(harvest_xml_child(m, HARVEST_NS_ARXIVRAW, "id"));
	if (s == NULL ||
	    core_arxiv_parse(s, strlen(s), &id, &used) != CORE_OK ||
	    used != strlen(s)) {
		snprintf(why, HARVEST_WHY_LEN,
		    "arXivRaw record with a bad id \"%.40s\"", s ? s : "");
		goto out;
	}
	free(s);
	s = NULL;
	json_object_set_new(o, "arxiv_id", json_string(id.id));
	if (versions(m, id.id, o, why) != 0)
		goto out;

	/*
	 * Title, abstract, categories (primary first); the MSC and ACM
	 * classes follow the categories so that the harvester files them
	 * with the class codes (harvest_class_codes()), never as categories.
	 */
	if (harvest_oai_text(m, HARVEST_NS_ARXIVRAW, id.id, o, why) != 0)
		goto out;
	cats = json_object_get(o, "categories");
	for (i = 0; i < 2; i++) {
		s = harvest_xml_text(harvest_xml_child(m, HARVEST_NS_ARXIVRAW,
		    i == 0 ? "msc-class" : "acm-class"));
		/* "05C85; 05C70", and the arXiv format's "37K05 37K10". */
		for (tok = s != NULL ? strtok_r(s, i == 0 ? " ,;" : ",;", &save)
				     : NULL;
		     tok != NULL;
		     tok = strtok_r(NULL, i == 0 ? " ,;" : ",;", &save))
			if (json_array_size(cats) < 96)
				json_array_append_new(cats, core_json_str(tok));
		free(s);
		s = NULL;
	}

	harvest_oai_notes(m, HARVEST_NS_ARXIVRAW, o);
	s = harvest_xml_text(
	    harvest_xml_child(m, HARVEST_NS_ARXIVRAW, "submitter"));
	harvest_put_str(o, "submitter", s);
	free(s);
	s = NULL;

	s = harvest_xml_text(
	    harvest_xml_child(m, HARVEST_NS_ARXIVRAW, "authors"));
	auth = harvest_arxivraw_authors(s);
	json_object_set_new(o, "authors", auth);
	if (json_array_size(auth) > HARVEST_MAX_AUTHORS) {
		snprintf(why, HARVEST_WHY_LEN, "%s: more than %d authors",
		    id.id, HARVEST_MAX_AUTHORS);
		goto out;
	}
	er = CORE_OK;
out:
	free(s);
	return er;
}
