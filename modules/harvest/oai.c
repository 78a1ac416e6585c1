/*
 * oai.c -- OAI-PMH 2.0 ListRecords responses from arXiv, in the arXiv
 * metadata format (authors split into keyname/forenames, created and
 * updated dates, DOI, journal reference, licence) or in oai_dc (the
 * fallback: "Last, First" creators, dates, identifiers).  GetRecord
 * responses parse too (one record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core.h"
#include "remote.h"

#define OAI_PREFIX "oai:arXiv.org:"

/* The canonical id of s (with "oai:arXiv.org:" or not); -1 if none. */
static int
canon_id(const char *s, struct core_arxiv_id *id)
{
	size_t used = 0, n;

	if (s == NULL)
		return -1;
	if (strncmp(s, OAI_PREFIX, strlen(OAI_PREFIX)) == 0)
		s += strlen(OAI_PREFIX);
	n = strlen(s);
	if (core_arxiv_parse(s, n, id, &used) != CORE_OK || used != n)
		return -1;
	return 0;
}

void
harvest_put_str(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key,
	    s != NULL && *s != '\0' ? core_json_str(s) : json_null());
}

/* "cs" -> "cs", "physics:hep-ex" -> "hep-ex": a set as a category. */
static const char *
set_category(const char *spec)
{
	const char *c = strrchr(spec, ':');

	return c != NULL ? c + 1 : spec;
}

static json_t *
versions_one(int v, const char *date)
{
	return json_pack("{s:i, s:s}", "version", v, "date", date);
}

/*
 * The title, the abstract (its line breaks kept, as the loader keeps
 * them), the categories (primary first, at most 64) and "primary" of
 * metadata m in namespace ns (the arXiv and arXivRaw formats share
 * them); -1 with why set when the title or the categories are missing.
 */
int
harvest_oai_text(const xmlNode *m, const char *ns, const char *id, json_t *o,
    char why[HARVEST_WHY_LEN])
{
	char *s, *tok, *save = NULL;
	json_t *cats;

	s = harvest_xml_text(harvest_xml_child(m, ns, "title"));
	if (s == NULL || *s == '\0') {
		free(s);
		snprintf(why, HARVEST_WHY_LEN, "%s: no title", id);
		return -1;
	}
	harvest_put_str(o, "title", s);
	free(s);
	s = harvest_xml_text_raw(harvest_xml_child(m, ns, "abstract"));
	json_object_set_new(o, "abstract", core_json_str(s ? s : ""));
	free(s);
	s = harvest_xml_text(harvest_xml_child(m, ns, "categories"));
	cats = json_array();
	json_object_set_new(o, "categories", cats);
	for (tok = s != NULL ? strtok_r(s, " ", &save) : NULL; tok != NULL;
	     tok = strtok_r(NULL, " ", &save))
		if (json_array_size(cats) < 64)
			json_array_append_new(cats, core_json_str(tok));
	free(s);
	if (json_array_size(cats) == 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: no categories", id);
		return -1;
	}
	json_object_set(o, "primary", json_array_get(cats, 0));
	return 0;
}

void
harvest_oai_notes(const xmlNode *m, const char *ns, json_t *o)
{
	static const struct {
		const char *el, *key;
	} opt[] = {
		{ "comments", "comment" },
		{ "journal-ref", "journal_ref" },
		{ "doi", "doi" },
		{ "license", "license" },
	};
	char *s;
	size_t i;

	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		s = harvest_xml_text(harvest_xml_child(m, ns, opt[i].el));
		harvest_put_str(o, opt[i].key, s);
		free(s);
	}
}

/*
 * The arXiv metadata format.  <categories> is space separated with the
 * primary first; <created> is the first version's date, <updated> the
 * latest (absent when there was one version).
 */
static enum core_err
arxiv_meta(const xmlNode *m, json_t *o, char why[HARVEST_WHY_LEN])
{
	struct core_arxiv_id id;
	xmlNode *a, *as;
	int bad;
	json_t *auth, *vers;
	char *s = NULL, d1[11], d2[11];
	char *kn, *fn, *sx, *name;
	enum core_err er = CORE_EINPUT;

	s = harvest_xml_text(harvest_xml_child(m, HARVEST_NS_ARXIV, "id"));
	if (canon_id(s, &id) != 0) {
		snprintf(why, HARVEST_WHY_LEN,
		    "record with a bad arXiv id "
		    "\"%.40s\"",
		    s != NULL ? s : "");
		goto out;
	}
	json_object_set_new(o, "arxiv_id", json_string(id.id));
	json_object_set_new(o, "version", json_integer(0));
	free(s);

	s = harvest_xml_text(harvest_xml_child(m, HARVEST_NS_ARXIV, "created"));
	if (harvest_date10(s, d1) != 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: bad <created>", id.id);
		goto out;
	}
	free(s);
	s = harvest_xml_text(harvest_xml_child(m, HARVEST_NS_ARXIV, "updated"));
	if (s != NULL && harvest_date10(s, d2) != 0) {
		snprintf(why, HARVEST_WHY_LEN, "%s: bad <updated>", id.id);
		goto out;
	}
	json_object_set_new(o, "published", json_string(d1));
	json_object_set_new(o, "updated", json_string(s != NULL ? d2 : d1));
	/*
	 * <updated> is there only when the paper was replaced: the latest
	 * version, whose number the format does not give.  It is kept as
	 * v2, the least it can be (issue 16: not just [v1]); a source that
	 * knows more (the API's vN, a full list) is not shrunk by it
	 * (MERGE_PAPERS).
	 */
	vers = json_array();
	json_array_append_new(vers, versions_one(1, d1));
	if (s != NULL)
		json_array_append_new(vers, versions_one(2, d2));
	json_object_set_new(o, "versions", vers);
	free(s);
	s = NULL;

	if (harvest_oai_text(m, HARVEST_NS_ARXIV, id.id, o, why) != 0)
		goto out;
	harvest_oai_notes(m, HARVEST_NS_ARXIV, o);

	auth = json_array();
	json_object_set_new(o, "authors", auth);
	as = harvest_xml_child(m, HARVEST_NS_ARXIV, "authors");
	for (a = harvest_xml_child(as, HARVEST_NS_ARXIV, "author"); a != NULL;
	     a = harvest_xml_next(a, HARVEST_NS_ARXIV, "author")) {
		kn = harvest_xml_text(
		    harvest_xml_child(a, HARVEST_NS_ARXIV, "keyname"));
		fn = harvest_xml_text(
		    harvest_xml_child(a, HARVEST_NS_ARXIV, "forenames"));
		sx = harvest_xml_text(
		    harvest_xml_child(a, HARVEST_NS_ARXIV, "suffix"));
		name = core_xasprintf("%s%s%s%s%s", fn ? fn : "",
		    fn && *fn ? " " : "", kn ? kn : "", sx && *sx ? " " : "",
		    sx ? sx : "");
		harvest_squash_ws(name);
		bad = harvest_author_add(auth, a, HARVEST_NS_ARXIV, name, id.id,
		    why);
		free(kn);
		free(fn);
		free(sx);
		free(name);
		if (bad)
			goto out;
	}
	er = CORE_OK;
out:
	free(s);
	return er;
}

/* "Last, First" -> "First Last"; anything else unchanged.  Frees s. */
static char *
dc_name(char *s)
{
	char *c = strchr(s, ','), *r;

	if (c == NULL || strchr(c + 1, ',') != NULL)
		return s;
	*c = '\0';
	r = core_xasprintf("%s %s", c + 1, s);
	free(s);
	return harvest_squash_ws(r);
}

/*
 * oai_dc.  There are no category codes in it (dc:subject holds names
 * like "Computer Science - Information Theory"), so the record's sets
 * stand in for them; dc:date lists the versions' dates in order.
 */
static enum core_err
dc_meta(const xmlNode *hdr, const xmlNode *m, json_t *o,
    char why[HARVEST_WHY_LEN])
{
	struct core_arxiv_id id;
	xmlNode *n;
	json_t *auth, *cats, *vers;
	char *s = NULL, d[11];
	int have_id = 0, v = 0;
	enum core_err er = CORE_EINPUT;

	auth = json_array();
	cats = json_array();
	vers = json_array();
	json_object_set_new(o, "authors", auth);
	json_object_set_new(o, "categories", cats);
	json_object_set_new(o, "versions", vers);
	harvest_put_str(o, "doi", NULL);
	harvest_put_str(o, "journal_ref", NULL);
	harvest_put_str(o, "comment", NULL);
	harvest_put_str(o, "license", NULL);
	json_object_set_new(o, "abstract", json_string(""));
	for (n = m->children; n != NULL; n = n->next) {
		if (n->type != XML_ELEMENT_NODE || n->ns == NULL ||
		    strcmp((const char *)n->ns->href, HARVEST_NS_DC) != 0)
			continue;
		s = harvest_xml_text(n);
		if (strcmp((const char *)n->name, "title") == 0 && *s)
			harvest_put_str(o, "title", s);
		else if (strcmp((const char *)n->name, "creator") == 0 && *s) {
			if (json_array_size(auth) >= HARVEST_MAX_AUTHORS) {
				snprintf(why, HARVEST_WHY_LEN,
				    "more than %d authors",
				    HARVEST_MAX_AUTHORS);
				goto out;
			}
			s = dc_name(s);
			json_array_append_new(auth,
			    json_pack("{s:o, s:[]}", "name", core_json_str(s),
				"affiliations"));
		} else if (strcmp((const char *)n->name, "description") == 0) {
			if (strncmp(s, "Comment:", 8) == 0)
				harvest_put_str(o, "comment",
				    harvest_squash_ws(s + 8));
			else if (json_string_value(
				     json_object_get(o, "abstract")) == NULL ||
			    *json_string_value(
				json_object_get(o, "abstract")) == '\0') {
				/* Its line breaks kept, as the loader's. */
				free(s);
				s = harvest_xml_text_raw(n);
				harvest_put_str(o, "abstract", s);
			}
		} else if (strcmp((const char *)n->name, "date") == 0) {
			if (harvest_date10(s, d) != 0) {
				snprintf(why, HARVEST_WHY_LEN,
				    "bad dc:date "
				    "\"%.20s\"",
				    s);
				goto out;
			}
			if (v < 100)
				json_array_append_new(vers,
				    versions_one(++v, d));
		} else if (strcmp((const char *)n->name, "identifier") == 0) {
			const char *abs = strstr(s, "arxiv.org/abs/");
			if (abs != NULL && !have_id &&
			    canon_id(abs + 14, &id) == 0)
				have_id = 1;
			else if (strncmp(s, "doi:", 4) == 0)
				harvest_put_str(o, "doi", s + 4);
			else if (abs == NULL && strncmp(s, "http", 4) != 0 &&
			    json_is_null(json_object_get(o, "journal_ref")))
				harvest_put_str(o, "journal_ref", s);
		}
		free(s);
		s = NULL;
	}
	if (!have_id) {
		/* The header's identifier says it as well. */
		s = harvest_xml_text(
		    harvest_xml_child(hdr, HARVEST_NS_OAI, "identifier"));
		if (canon_id(s, &id) != 0) {
			snprintf(why, HARVEST_WHY_LEN,
			    "oai_dc record without "
			    "an arXiv id");
			goto out;
		}
		free(s);
		s = NULL;
	}
	json_object_set_new(o, "arxiv_id", json_string(id.id));
	json_object_set_new(o, "version", json_integer(v));
	if (json_object_get(o, "title") == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "%s: no title", id.id);
		goto out;
	}
	for (n = harvest_xml_child(hdr, HARVEST_NS_OAI, "setSpec"); n != NULL;
	     n = harvest_xml_next(n, HARVEST_NS_OAI, "setSpec")) {
		s = harvest_xml_text(n);
		if (*s && json_array_size(cats) < 64)
			json_array_append_new(cats,
			    core_json_str(set_category(s)));
		free(s);
		s = NULL;
	}
	if (json_array_size(cats) == 0)
		json_array_append_new(cats, json_string("unknown"));
	json_object_set(o, "primary", json_array_get(cats, 0));
	if (v > 0) {
		json_object_set(o, "published",
		    json_object_get(json_array_get(vers, 0), "date"));
		json_object_set(o, "updated",
		    json_object_get(json_array_get(vers, (size_t)v - 1),
			"date"));
	} else {
		harvest_put_str(o, "published", NULL);
		harvest_put_str(o, "updated", NULL);
	}
	er = CORE_OK;
out:
	free(s);
	return er;
}

/* One <record>: a paper appended to pg->papers, or an id to deleted. */
static enum core_err
record(const xmlNode *r, struct harvest_page *pg, char why[HARVEST_WHY_LEN])
{
	struct core_arxiv_id id;
	xmlNode *hdr, *md, *m;
	char *st, *s;
	const char *source = NULL;
	json_t *o;
	enum core_err er;

	if ((hdr = harvest_xml_child(r, HARVEST_NS_OAI, "header")) == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "record without a header");
		return CORE_EINPUT;
	}
	st = harvest_xml_attr(hdr, "status");
	if (st != NULL && strcmp(st, "deleted") == 0) {
		free(st);
		s = harvest_xml_text(
		    harvest_xml_child(hdr, HARVEST_NS_OAI, "identifier"));
		if (canon_id(s, &id) != 0) {
			snprintf(why, HARVEST_WHY_LEN,
			    "deleted record with a "
			    "bad identifier \"%.40s\"",
			    s ? s : "");
			free(s);
			return CORE_EINPUT;
		}
		free(s);
		json_array_append_new(pg->deleted, json_string(id.id));
		return CORE_OK;
	}
	free(st);
	md = harvest_xml_child(r, HARVEST_NS_OAI, "metadata");
	o = json_object();
	if ((m = harvest_xml_child(md, HARVEST_NS_ARXIV, "arXiv")) != NULL) {
		er = arxiv_meta(m, o, why);
		source = "arxiv-oai";
	} else if ((m = harvest_xml_child(md, HARVEST_NS_OAI_DC, "dc")) !=
	    NULL) {
		er = dc_meta(hdr, m, o, why);
		source = "arxiv-oai-dc";
	} else if ((m = harvest_xml_child(md, HARVEST_NS_ARXIVRAW,
			"arXivRaw")) != NULL) {
		er = harvest_arxivraw_meta(m, o, why);
		source = "arxiv-oai-raw";
	} else {
		snprintf(why, HARVEST_WHY_LEN,
		    "record without arXiv, arXivRaw or "
		    "oai_dc metadata");
		er = CORE_EINPUT;
	}
	if (er == CORE_OK) {
		/* Last, after what the format's parser set: key order shows. */
		json_object_set_new(o, "source", json_string(source));
		json_array_append_new(pg->papers, o);
	} else
		json_decref(o);
	return er;
}

static long
attr_long(const xmlNode *n, const char *name)
{
	return harvest_count_take(harvest_xml_attr(n, name));
}

enum core_err
harvest_oai_parse(const char *p, size_t n, struct harvest_page *pg,
    char why[HARVEST_WHY_LEN])
{
	xmlDoc *doc;
	xmlNode *root, *list, *r, *e;
	char *code, *msg;
	enum core_err er = CORE_EINPUT;

	if ((doc = harvest_page_read(p, n, pg, HARVEST_NS_OAI, "OAI-PMH",
		 "an OAI-PMH response", why)) == NULL)
		goto out;
	root = xmlDocGetRootElement(doc);
	if ((e = harvest_xml_child(root, HARVEST_NS_OAI, "error")) != NULL) {
		code = harvest_xml_attr(e, "code");
		msg = harvest_xml_text(e);
		if (code != NULL && strcmp(code, "noRecordsMatch") == 0) {
			pg->no_match = 1;
			er = CORE_OK;
		} else {
			snprintf(why, HARVEST_WHY_LEN, "OAI-PMH error %s: %s",
			    code ? code : "?", msg);
			er = CORE_EUPSTREAM;
		}
		free(code);
		free(msg);
		goto out;
	}
	if ((list = harvest_xml_child(root, HARVEST_NS_OAI, "ListRecords")) ==
		NULL &&
	    (list = harvest_xml_child(root, HARVEST_NS_OAI, "GetRecord")) ==
		NULL) {
		snprintf(why, HARVEST_WHY_LEN,
		    "OAI-PMH response without "
		    "ListRecords");
		goto out;
	}
	if ((er = harvest_page_each(list, HARVEST_NS_OAI, "record", "records",
		 pg, record, why)) != CORE_OK)
		goto out;
	if ((r = harvest_xml_child(list, HARVEST_NS_OAI, "resumptionToken")) !=
	    NULL) {
		pg->token = harvest_xml_text(r);
		pg->cursor = attr_long(r, "cursor");
		pg->complete = attr_long(r, "completeListSize");
		if (*pg->token == '\0') {
			free(pg->token);
			pg->token = NULL;
		}
	}
out:
	if (er != CORE_OK && er != CORE_EUPSTREAM)
		er = CORE_EINPUT;
	return harvest_page_end(doc, pg, er);
}
