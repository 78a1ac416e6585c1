/*
 * xmlin.c -- reading XML that arrived over the network.  Every response
 * is treated as hostile: no network access, no DTD, no entity
 * declarations at all (a DOCTYPE is refused before libxml2 sees the
 * bytes, and again if one slipped through), and an HTML error page is
 * named as such instead of being reported as "bad XML".
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "core.h"
#include "remote.h"

/* Case-insensitive search for needle (lower case) in p[0..n). */
static const char *
ci_find(const char *p, size_t n, const char *needle)
{
	size_t m = strlen(needle), i, j;

	if (m > n)
		return NULL;
	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if (tolower((unsigned char)p[i + j]) != needle[j])
				break;
		if (j == m)
			return p + i;
	}
	return NULL;
}

int
harvest_xml_precheck(const char *p, size_t n, char why[HARVEST_WHY_LEN])
{
	size_t i = 0;

	if (n == 0) {
		snprintf(why, HARVEST_WHY_LEN, "empty response");
		return -1;
	}
	if (n > INT_MAX) {
		snprintf(why, HARVEST_WHY_LEN, "response too large");
		return -1;
	}
	if (memchr(p, '\0', n) != NULL) {
		snprintf(why, HARVEST_WHY_LEN, "NUL byte in an XML response");
		return -1;
	}
	/* The first markup that is not a declaration, PI or comment. */
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n) {
		if (isspace((unsigned char)p[i])) {
			i++;
			continue;
		}
		if (p[i] != '<')
			break;
		if (i + 1 < n && p[i + 1] == '?') {
			const char *e = ci_find(p + i, n - i, "?>");
			if (e == NULL)
				break;
			i = (size_t)(e - p) + 2;
			continue;
		}
		if (i + 3 < n && memcmp(p + i, "<!--", 4) == 0) {
			const char *e = ci_find(p + i, n - i, "-->");
			if (e == NULL)
				break;
			i = (size_t)(e - p) + 3;
			continue;
		}
		break;
	}
	if (ci_find(p + i, n - i > 16 ? 16 : n - i, "<!doctype html") ==
		p + i ||
	    ci_find(p + i, n - i > 6 ? 6 : n - i, "<html") == p + i) {
		snprintf(why, HARVEST_WHY_LEN,
		    "an HTML page instead of XML (an error page?)");
		return -1;
	}
	/*
	 * Anywhere: a DOCTYPE can only be markup in the prolog, and in text
	 * it would be escaped, so a raw one is refused wherever it is.
	 */
	if (ci_find(p, n, "<!doctype") != NULL) {
		snprintf(why, HARVEST_WHY_LEN,
		    "document has a DOCTYPE (refused: no DTDs or entities)");
		return -1;
	}
	if (i >= n || p[i] != '<') {
		/* p is not NUL-terminated: print at most what is there. */
		snprintf(why, HARVEST_WHY_LEN, "not XML (starts with \"%.*s\")",
		    (int)(n - (i < n ? i : 0) > 20 ? 20 : n - (i < n ? i : 0)),
		    p + (i < n ? i : 0));
		/* Keep the message printable. */
		for (i = 0; why[i] != '\0'; i++)
			if ((unsigned char)why[i] < 0x20)
				why[i] = ' ';
		return -1;
	}
	return 0;
}

xmlDoc *
harvest_xml_read(const char *p, size_t n, char why[HARVEST_WHY_LEN])
{
	xmlDoc *doc;
	const xmlError *e;

	if (harvest_xml_precheck(p, n, why) != 0)
		return NULL;
	xmlResetLastError();
	doc = xmlReadMemory(p, (int)n, "response.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL) {
		e = xmlGetLastError();
		snprintf(why, HARVEST_WHY_LEN,
		    "not well-formed XML at line %d: %s",
		    e != NULL ? e->line : 0,
		    e != NULL && e->message != NULL ? e->message : "?");
		n = strlen(why);
		while (n > 0 && (why[n - 1] == '\n' || why[n - 1] == ' '))
			why[--n] = '\0';
		return NULL;
	}
	if (doc->intSubset != NULL || doc->extSubset != NULL ||
	    xmlDocGetRootElement(doc) == NULL) {
		snprintf(why, HARVEST_WHY_LEN, "%s",
		    xmlDocGetRootElement(doc) == NULL
			? "no root element"
			: "document has a DOCTYPE (refused)");
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

int
harvest_xml_is(const xmlNode *n, const char *ns, const char *name)
{
	if (n == NULL || n->type != XML_ELEMENT_NODE ||
	    strcmp((const char *)n->name, name) != 0)
		return 0;
	if (ns == NULL)
		return 1;
	return n->ns != NULL && n->ns->href != NULL &&
	    strcmp((const char *)n->ns->href, ns) == 0;
}

xmlNode *
harvest_xml_child(const xmlNode *parent, const char *ns, const char *name)
{
	xmlNode *c;

	if (parent == NULL)
		return NULL;
	for (c = parent->children; c != NULL; c = c->next)
		if (harvest_xml_is(c, ns, name))
			return c;
	return NULL;
}

xmlNode *
harvest_xml_next(const xmlNode *n, const char *ns, const char *name)
{
	xmlNode *c;

	for (c = n->next; c != NULL; c = c->next)
		if (harvest_xml_is(c, ns, name))
			return c;
	return NULL;
}

char *
harvest_squash_ws(char *s)
{
	char *r = s, *w = s;
	int space = 0;

	for (; *r != '\0'; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = 0;
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

char *
harvest_xml_text_raw(const xmlNode *n)
{
	xmlChar *c;
	const char *b;
	char *s;
	size_t len;

	if (n == NULL)
		return NULL;
	c = xmlNodeGetContent(n);
	b = c != NULL ? (const char *)c : "";
	b += strspn(b, " \t\r\n");
	len = strlen(b);
	while (len > 0 && strchr(" \t\r\n", b[len - 1]) != NULL)
		len--;
	s = core_xstrndup(b, len);
	xmlFree(c);
	return s;
}

/* Squashing the trimmed text gives what squashing all of it would. */
char *
harvest_xml_text(const xmlNode *n)
{
	char *s = harvest_xml_text_raw(n);

	return s != NULL ? harvest_squash_ws(s) : NULL;
}

char *
harvest_xml_attr(const xmlNode *n, const char *name)
{
	xmlChar *c;
	char *s;

	if (n == NULL || (c = xmlGetProp(n, (const xmlChar *)name)) == NULL)
		return NULL;
	s = core_xstrdup((const char *)c);
	xmlFree(c);
	return s;
}

int
harvest_author_add(json_t *auth, const xmlNode *a, const char *ns,
    const char *name, const char *id, char why[HARVEST_WHY_LEN])
{
	const xmlNode *n;
	json_t *aff;
	char *t;

	if (json_array_size(auth) >= HARVEST_MAX_AUTHORS) {
		snprintf(why, HARVEST_WHY_LEN, "%s: more than %d authors", id,
		    HARVEST_MAX_AUTHORS);
		return -1;
	}
	if (name == NULL || *name == '\0')
		return 0;
	aff = json_array();
	for (n = harvest_xml_child(a, ns, "affiliation"); n != NULL;
	     n = harvest_xml_next(n, ns, "affiliation")) {
		t = harvest_xml_text(n);
		if (t != NULL && *t != '\0' && json_array_size(aff) < 16)
			json_array_append_new(aff, core_json_str(t));
		free(t);
	}
	json_array_append_new(auth,
	    json_pack("{s:o, s:o}", "name", core_json_str(name), "affiliations",
		aff));
	return 0;
}

xmlDoc *
harvest_page_read(const char *p, size_t n, struct harvest_page *pg,
    const char *ns, const char *root, const char *what,
    char why[HARVEST_WHY_LEN])
{
	xmlDoc *doc;
	const xmlNode *r;

	memset(pg, 0, sizeof(*pg));
	pg->cursor = pg->complete = pg->total = pg->start = pg->per_page = -1;
	pg->papers = json_array();
	pg->deleted = json_array();
	why[0] = '\0';
	if ((doc = harvest_xml_read(p, n, why)) == NULL)
		return NULL;
	r = xmlDocGetRootElement(doc);
	if (!harvest_xml_is(r, ns, root)) {
		snprintf(why, HARVEST_WHY_LEN, "not %s (root <%.40s>)", what,
		    (const char *)r->name);
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

enum core_err
harvest_page_end(xmlDoc *doc, struct harvest_page *pg, enum core_err er)
{
	xmlFreeDoc(doc);
	if (er != CORE_OK)
		harvest_page_free(pg);
	return er;
}

enum core_err
harvest_page_each(const xmlNode *parent, const char *ns, const char *name,
    const char *what, struct harvest_page *pg,
    enum core_err (
	*fn)(const xmlNode *, struct harvest_page *, char[HARVEST_WHY_LEN]),
    char why[HARVEST_WHY_LEN])
{
	const xmlNode *e;
	size_t count = 0;
	enum core_err er;

	for (e = harvest_xml_child(parent, ns, name); e != NULL;
	     e = harvest_xml_next(e, ns, name)) {
		if (++count > HARVEST_MAX_ITEMS) {
			snprintf(why, HARVEST_WHY_LEN, "more than %d %s",
			    HARVEST_MAX_ITEMS, what);
			return CORE_EINPUT;
		}
		if ((er = fn(e, pg, why)) != CORE_OK)
			return er;
	}
	return CORE_OK;
}

long
harvest_count_take(char *s)
{
	char *end;
	long v;

	if (s == NULL)
		return -1;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0)
		v = -1;
	free(s);
	return v;
}

int
harvest_date10(const char *s, char out[11])
{
	int i, y, m, d;

	if (s == NULL)
		return -1;
	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return -1;
		} else if (s[i] < '0' || s[i] > '9')
			return -1;
	}
	y = atoi(s);
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1900 || y > 2999 || !core_date_is_day(y, m, d))
		return -1;
	memcpy(out, s, 10);
	out[10] = '\0';
	return 0;
}

void
harvest_page_free(struct harvest_page *pg)
{
	if (pg == NULL)
		return;
	json_decref(pg->papers);
	json_decref(pg->deleted);
	free(pg->token);
	memset(pg, 0, sizeof(*pg));
}
