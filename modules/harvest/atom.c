/*
 * atom.c -- arXiv API responses: Atom 1.0 with opensearch totals and the
 * arxiv namespace (primary_category, doi, journal_ref, comment,
 * affiliation).  The 2016 format declares the namespaces on each element
 * and the 2025+ one on <feed>; namespaces are matched by URI, so both
 * read the same.  An error is an entry whose id is under
 * http://arxiv.org/api/errors, with the message in <summary>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core.h"
#include "remote.h"

#define ERR_ID "arxiv.org/api/errors"

static long
text_long(const xmlNode *n)
{
	return harvest_count_take(harvest_xml_text(n));
}

static void
put_opt(json_t *o, const char *key, const xmlNode *e, const char *name)
{
	char *s =
	    harvest_xml_text(harvest_xml_child(e, HARVEST_NS_ARXIVAPI, name));

	json_object_set_new(o, key,
	    s != NULL && *s != '\0' ? core_json_str(s) : json_null());
	free(s);
}

/* Appends term to cats unless it is there already. */
static void
add_cat(json_t *cats, const char *term)
{
	size_t i;

	for (i = 0; i < json_array_size(cats); i++)
		if (strcmp(json_string_value(json_array_get(cats, i)), term) ==
		    0)
			return;
	if (json_array_size(cats) < 64)
		json_array_append_new(cats, core_json_str(term));
}

static enum core_err
entry(const xmlNode *e, struct harvest_page *pg, char why[HARVEST_WHY_LEN])
{
	struct core_arxiv_id id;
	xmlNode *n, *a;
	json_t *o, *cats, *auth, *vers;
	char *s = NULL, *t, d1[11], d2[11];
	const char *abs;
	size_t used;
	enum core_err er = CORE_EINPUT;

	o = json_object();
	s = harvest_xml_text(harvest_xml_child(e, HARVEST_NS_ATOM, "id"));
	if (s != NULL && strstr(s, ERR_ID) != NULL) {
		free(s);
		s = harvest_xml_text(
		    harvest_xml_child(e, HARVEST_NS_ATOM, "summary"));
		snprintf(why, HARVEST_WHY_LEN, "arXiv API error: %s",
		    s != NULL ? s : "(no message)");
		er = CORE_EUPSTREAM;
		goto out;
	}
	abs = s != NULL ? strstr(s, "/abs/") : NULL;
	if (abs == NULL ||
	    core_arxiv_parse(abs + 5, strlen(abs + 5), &id, &used) != CORE_OK ||
	    used != strlen(abs + 5)) {
		snprintf(why, HARVEST_WHY_LEN, "entry with a bad id \"%.60s\"",
		    s != NULL ? s : "");
		goto out;
	}
	free(s);
	json_object_set_new(o, "arxiv_id", json_string(id.id));
	json_object_set_new(o, "version", json_integer(id.version));

	s = harvest_xml_text(harvest_xml_child(e, HARVEST_NS_ATOM, "title"));
	if (s == NULL || *s == '\0') {
		snprintf(why, HARVEST_WHY_LEN, "%s: no title", id.id);
		goto out;
	}
	json_object_set_new(o, "title", core_json_str(s));
	free(s);
	s = harvest_xml_text_raw(
	    harvest_xml_child(e, HARVEST_NS_ATOM, "summary"));
	json_object_set_new(o, "abstract", core_json_str(s ? s : ""));
	free(s);

	s = harvest_xml_text(
	    harvest_xml_child(e, HARVEST_NS_ATOM, "published"));
	if (harvest_date10(s, d1) != 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: bad <published>", id.id);
		goto out;
	}
	free(s);
	s = harvest_xml_text(harvest_xml_child(e, HARVEST_NS_ATOM, "updated"));
	if (s == NULL)
		memcpy(d2, d1, sizeof(d2));
	else if (harvest_date10(s, d2) != 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: bad <updated>", id.id);
		goto out;
	}
	free(s);
	s = NULL;
	json_object_set_new(o, "published", json_string(d1));
	json_object_set_new(o, "updated", json_string(d2));
	/* The feed knows the first and the latest version's dates only. */
	vers = json_array();
	json_array_append_new(vers,
	    json_pack("{s:i, s:s}", "version", 1, "date", d1));
	if (id.version > 1)
		json_array_append_new(vers,
		    json_pack("{s:i, s:s}", "version", id.version, "date", d2));
	json_object_set_new(o, "versions", vers);

	cats = json_array();
	json_object_set_new(o, "categories", cats);
	if ((n = harvest_xml_child(e, HARVEST_NS_ARXIVAPI,
		 "primary_category")) != NULL &&
	    (t = harvest_xml_attr(n, "term")) != NULL) {
		if (*t)
			add_cat(cats, t);
		free(t);
	}
	for (n = harvest_xml_child(e, HARVEST_NS_ATOM, "category"); n != NULL;
	     n = harvest_xml_next(n, HARVEST_NS_ATOM, "category"))
		if ((t = harvest_xml_attr(n, "term")) != NULL) {
			if (*t)
				add_cat(cats, t);
			free(t);
		}
	if (json_array_size(cats) == 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: no categories", id.id);
		goto out;
	}
	json_object_set(o, "primary", json_array_get(cats, 0));
	put_opt(o, "comment", e, "comment");
	put_opt(o, "doi", e, "doi");
	put_opt(o, "journal_ref", e, "journal_ref");
	json_object_set_new(o, "license", json_null());

	auth = json_array();
	json_object_set_new(o, "authors", auth);
	for (a = harvest_xml_child(e, HARVEST_NS_ATOM, "author"); a != NULL;
	     a = harvest_xml_next(a, HARVEST_NS_ATOM, "author")) {
		s = harvest_xml_text(
		    harvest_xml_child(a, HARVEST_NS_ATOM, "name"));
		if (harvest_author_add(auth, a, HARVEST_NS_ARXIVAPI, s, id.id,
			why) != 0)
			goto out;
		free(s);
		s = NULL;
	}
	json_object_set_new(o, "source", json_string("arxiv-api"));
	json_array_append(pg->papers, o);
	er = CORE_OK;
out:
	free(s);
	json_decref(o);
	return er;
}

enum core_err
harvest_atom_parse(const char *p, size_t n, struct harvest_page *pg,
    char why[HARVEST_WHY_LEN])
{
	xmlDoc *doc;
	xmlNode *root;
	enum core_err er = CORE_EINPUT;

	if ((doc = harvest_page_read(p, n, pg, HARVEST_NS_ATOM, "feed",
		 "an Atom feed", why)) == NULL)
		goto out;
	root = xmlDocGetRootElement(doc);
	pg->total = text_long(
	    harvest_xml_child(root, HARVEST_NS_OSEARCH, "totalResults"));
	pg->start = text_long(
	    harvest_xml_child(root, HARVEST_NS_OSEARCH, "startIndex"));
	pg->per_page = text_long(
	    harvest_xml_child(root, HARVEST_NS_OSEARCH, "itemsPerPage"));
	if ((er = harvest_page_each(root, HARVEST_NS_ATOM, "entry", "entries",
		 pg, entry, why)) != CORE_OK)
		goto out;
	if (pg->total < 0) {
		snprintf(why, HARVEST_WHY_LEN,
		    "feed without "
		    "opensearch:totalResults");
		er = CORE_EINPUT;
		goto out;
	}
	er = CORE_OK;
out:
	return harvest_page_end(doc, pg, er);
}
