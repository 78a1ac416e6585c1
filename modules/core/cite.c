/*
 * cite.c -- papers as citations a reference manager imports: BibTeX,
 * RIS and CSL-JSON, one writer per format, shared by every module that
 * offers a list (pages: a paper, a researcher, a search; accounts: the
 * feed).  Each writer works on one paper at a time, so a list of any
 * length is written as its rows arrive.
 *
 * Every value is hostile until written: titles and names go through
 * core_tex_plain() (arXiv's TeX made plain Unicode), then BibTeX
 * escapes its specials so a title cannot close its braces or smuggle in
 * a command, RIS folds every line break (a new line would start a new
 * tag), and CSL-JSON is built with jansson.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---------------------------------------------------------------- keys */

/* The last word of a name, as ASCII letters ("Müller" -> "muller"). */
static void
key_name(struct core_buf *b, const char *name)
{
	char *slug = core_slug(name != NULL ? name : "", 64);
	const char *last = strrchr(slug, '-');
	const char *p;

	for (p = last != NULL ? last + 1 : slug; *p != '\0'; p++)
		if (*p >= 'a' && *p <= 'z')
			core_buf_putc(b, *p);
	free(slug);
}

/* The first title word of four letters or more. */
static void
key_word(struct core_buf *b, const char *title)
{
	char *slug = core_slug(title != NULL ? title : "", 200);
	const char *p = slug, *e;

	while (*p != '\0') {
		e = p + strcspn(p, "-");
		if (e - p >= 4) {
			for (; p < e; p++)
				if (*p >= 'a' && *p <= 'z')
					core_buf_putc(b, *p);
			break;
		}
		p = *e == '-' ? e + 1 : e;
	}
	free(slug);
}

/* An author's name whether the list holds {name} objects or strings. */
static const char *
author_name(const json_t *a)
{
	const char *s;

	if (json_is_string(a))
		return json_string_value(a);
	s = core_json_text(a, "name");
	return s != NULL ? s : "";
}

/* "2025" from "2025-01-31...", or "" when there is no such date. */
static void
year_of(const json_t *p, char year[5])
{
	const char *pub = core_json_text(p, "published");
	int i;

	year[0] = '\0';
	if (pub == NULL || strlen(pub) < 4)
		return;
	for (i = 0; i < 4; i++)
		if (pub[i] < '0' || pub[i] > '9')
			return;
	memcpy(year, pub, 4);
	year[4] = '\0';
}

char *
core_cite_key(const json_t *paper)
{
	struct core_buf key = CORE_BUF_INIT;
	const char *id = core_json_text(paper, "arxiv_id");
	char year[5], *s;
	int named;

	year_of(paper, year);
	/* "ma2025comprehensive", as Google Scholar builds keys. */
	key_name(&key,
	    author_name(json_array_get(json_object_get(paper, "authors"), 0)));
	named = key.len > 0;
	core_buf_puts(&key, year);
	key_word(&key, core_json_text(paper, "title"));
	if (!named || year[0] == '\0') {
		/* No author name in ASCII or no date: a key from the id,
		 * "arxiv2512_20345". */
		core_buf_reset(&key);
		core_buf_puts(&key, "arxiv");
		for (; id != NULL && *id != '\0'; id++)
			if ((*id >= 'a' && *id <= 'z') ||
			    (*id >= '0' && *id <= '9'))
				core_buf_putc(&key, *id);
			else if (*id >= 'A' && *id <= 'Z')
				core_buf_putc(&key, (char)(*id - 'A' + 'a'));
			else if (*id == '/' || *id == '.')
				core_buf_putc(&key, '_');
	}
	s = core_xstrdup(core_buf_cstr(&key));
	core_buf_free(&key);
	return s;
}

/*
 * The key of paper within this list: its own key the first time, then
 * "b", "c" ... "z", then "_27", "_28" ... appended, the first suffix
 * no earlier entry holds.  The first paper keeps the key its own page
 * gives it, and the same list in the same order gives the same keys.
 */
static char *
list_key(struct core_cite *c, const json_t *paper)
{
	char *base = core_cite_key(paper), *k = core_xstrdup(base);
	int n;

	for (n = 2; core_sset_has(&c->keys, k); n++) {
		free(k);
		k = n <= 26 ? core_xasprintf("%s%c", base, 'a' + n - 1)
			    : core_xasprintf("%s_%d", base, n);
	}
	free(base);
	(void)core_sset_add(&c->keys,
	    core_pool_keep(&c->owned, core_xstrdup(k)));
	return k;
}

/* ---------------------------------------------------------------- BibTeX */

void
core_bib_escape(struct core_buf *b, const char *s)
{
	struct core_buf clean = CORE_BUF_INIT;
	const char *p;

	if (s == NULL)
		return;
	core_utf8_clean(&clean, s, strlen(s));
	for (p = core_buf_cstr(&clean); *p != '\0'; p++) {
		switch (*p) {
		case '\\':
			core_buf_puts(b, "\\textbackslash{}");
			break;
		case '{':
		case '}':
		case '#':
		case '$':
		case '%':
		case '&':
		case '_':
			core_buf_putc(b, '\\');
			core_buf_putc(b, *p);
			break;
		case '^':
			core_buf_puts(b, "\\^{}");
			break;
		case '~':
			core_buf_puts(b, "\\~{}");
			break;
		case '\n':
		case '\r':
		case '\t':
			core_buf_putc(b, ' ');
			break;
		default:
			core_buf_putc(b, *p);
			break;
		}
	}
	core_buf_free(&clean);
}

static void
bib_field(struct core_buf *b, const char *name, const char *val)
{
	if (val == NULL || *val == '\0')
		return;
	core_buf_printf(b, ",\n  %s = {", name);
	core_bib_escape(b, val);
	core_buf_putc(b, '}');
}

/* 1 if the name holds the word "and", which BibTeX would split on. */
static int
has_and(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "and")) != NULL; p += 3)
		if ((p == s || p[-1] == ' ') && (p[3] == ' ' || p[3] == '\0'))
			return 1;
	for (p = s; (p = strstr(p, "AND")) != NULL; p += 3)
		if ((p == s || p[-1] == ' ') && (p[3] == ' ' || p[3] == '\0'))
			return 1;
	return 0;
}

/* Plain text of a TeX-bearing value; caller frees. */
static char *
plain(const char *s)
{
	return s != NULL ? core_tex_plain(s, 0) : NULL;
}

/* 1 when the list shows fewer authors than the paper has. */
static int
more_authors(const json_t *p)
{
	const json_t *as = json_object_get(p, "authors");

	return core_json_int(p, "author_count", 0) >
	    (long long)json_array_size(as);
}

static void
write_bib(struct core_cite *c, const json_t *p, const char *key)
{
	struct core_buf *b = c->out;
	const json_t *as = json_object_get(p, "authors"), *a;
	char *title = plain(core_json_text(p, "title"));
	char year[5];
	size_t i;

	year_of(p, year);
	if (c->n > 0)
		core_buf_putc(b, '\n');
	core_buf_printf(b, "@misc{%s", key);
	bib_field(b, "title", title);
	if (json_array_size(as) > 0) {
		core_buf_puts(b, ",\n  author = {");
		json_array_foreach(as, i, a)
		{
			char *n = plain(author_name(a));

			if (i > 0)
				core_buf_puts(b, " and ");
			/* A name with "and" in it is one name: brace it. */
			if (has_and(n)) {
				core_buf_putc(b, '{');
				core_bib_escape(b, n);
				core_buf_putc(b, '}');
			} else
				core_bib_escape(b, n);
			free(n);
		}
		if (more_authors(p))
			core_buf_puts(b, " and others");
		core_buf_putc(b, '}');
	}
	bib_field(b, "year", year);
	bib_field(b, "eprint", core_json_text(p, "arxiv_id"));
	bib_field(b, "archivePrefix", "arXiv");
	bib_field(b, "primaryClass", core_json_text(p, "primary_category"));
	bib_field(b, "doi", core_json_text(p, "doi"));
	bib_field(b, "journal", core_json_text(p, "journal_ref"));
	bib_field(b, "url", core_json_text(json_object_get(p, "links"), "abs"));
	core_buf_puts(b, "\n}\n");
	free(title);
}

/* ---------------------------------------------------------------- RIS */

/*
 * One RIS line, "TAG  - value" with CR LF: the value on one line (a
 * line break would start a new tag), control characters dropped,
 * leading blanks trimmed; nothing for an empty value.
 */
static void
ris_line(struct core_buf *b, const char *tag, const char *val)
{
	struct core_buf clean = CORE_BUF_INIT;
	const char *p;
	size_t start;

	if (val == NULL)
		return;
	core_utf8_clean(&clean, val, strlen(val));
	p = core_buf_cstr(&clean);
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p == '\0')
		goto out;
	core_buf_printf(b, "%s  - ", tag);
	start = b->len;
	for (; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			/* Runs of blanks and breaks become one space. */
			if (b->len > start && b->ptr[b->len - 1] != ' ')
				core_buf_putc(b, ' ');
		} else
			core_buf_putc(b, *p);
	}
	while (b->len > start && b->ptr[b->len - 1] == ' ')
		b->len--;
	core_buf_puts(b, "\r\n");
out:
	core_buf_free(&clean);
}

static void
write_ris(struct core_cite *c, const json_t *p, const char *key)
{
	struct core_buf *b = c->out;
	const json_t *as = json_object_get(p, "authors"), *a;
	const char *pub = core_json_text(p, "published"), *id;
	char *s, year[5], date[16];
	size_t i;

	year_of(p, year);
	/* Preprints are unpublished work; with a journal ref, articles. */
	ris_line(b, "TY",
	    core_json_text(p, "journal_ref") != NULL ? "JOUR" : "UNPB");
	ris_line(b, "ID", key);
	s = plain(core_json_text(p, "title"));
	ris_line(b, "TI", s);
	free(s);
	json_array_foreach(as, i, a)
	{
		s = plain(author_name(a));
		ris_line(b, "AU", s);
		free(s);
	}
	ris_line(b, "PY", year);
	/* DA is YYYY/MM/DD. */
	if (year[0] != '\0' && pub != NULL && strlen(pub) >= 10 &&
	    pub[4] == '-' && pub[7] == '-') {
		snprintf(date, sizeof(date), "%.4s/%.2s/%.2s", pub, pub + 5,
		    pub + 8);
		ris_line(b, "DA", date);
	}
	s = plain(core_json_text(p, "abstract"));
	ris_line(b, "AB", s);
	free(s);
	ris_line(b, "JO", core_json_text(p, "journal_ref"));
	ris_line(b, "DO", core_json_text(p, "doi"));
	if ((id = core_json_text(p, "arxiv_id")) != NULL) {
		s = core_xasprintf("arXiv:%s", id);
		ris_line(b, "AN", s);
		free(s);
	}
	ris_line(b, "PB", "arXiv");
	ris_line(b, "KW", core_json_text(p, "primary_category"));
	ris_line(b, "UR", core_json_text(json_object_get(p, "links"), "abs"));
	ris_line(b, "L1", core_json_text(json_object_get(p, "links"), "pdf"));
	core_buf_puts(b, "ER  - \r\n");
}

/* ---------------------------------------------------------------- CSL */

/* A CSL name: family and given split at the last space, else literal. */
static json_t *
csl_name(const char *name)
{
	char *s = plain(name);
	const char *sp = strrchr(s, ' ');
	json_t *o;

	if (sp == NULL || sp == s || sp[1] == '\0')
		o = json_pack("{s:o}", "literal", core_json_str(s));
	else {
		char *given = core_xstrndup(s, (size_t)(sp - s));

		o = json_pack("{s:o,s:o}", "family", core_json_str(sp + 1),
		    "given", core_json_str(given));
		free(given);
	}
	free(s);
	return o;
}

/* [[y, m, d]] from "YYYY-MM-DD", as much of it as is there. */
static json_t *
csl_date(const char *pub)
{
	json_t *parts = json_array();
	int y, m, d, n;

	if (pub == NULL || (n = sscanf(pub, "%4d-%2d-%2d", &y, &m, &d)) < 1) {
		json_decref(parts);
		return NULL;
	}
	json_array_append_new(parts, json_integer(y));
	if (n >= 2)
		json_array_append_new(parts, json_integer(m));
	if (n >= 3)
		json_array_append_new(parts, json_integer(d));
	return json_pack("{s:[o]}", "date-parts", parts);
}

json_t *
core_cite_csl(const json_t *p, const char *key)
{
	const json_t *as = json_object_get(p, "authors"), *a;
	json_t *o = json_object(), *names = json_array(), *d;
	const char *id = core_json_text(p, "arxiv_id");
	char *s;
	size_t i;

	json_object_set_new(o, "id", core_json_str(key));
	/* CSL 1.0.2: "article" is a preprint, not a journal article. */
	json_object_set_new(o, "type",
	    json_string(core_json_text(p, "journal_ref") != NULL
		    ? "article-journal"
		    : "article"));
	s = plain(core_json_text(p, "title"));
	if (s != NULL)
		json_object_set_new(o, "title", core_json_str(s));
	free(s);
	json_array_foreach(as, i, a)
	    json_array_append_new(names, csl_name(author_name(a)));
	json_object_set_new(o, "author", names);
	if ((d = csl_date(core_json_text(p, "published"))) != NULL)
		json_object_set_new(o, "issued", d);
	if ((s = plain(core_json_text(p, "abstract"))) != NULL)
		json_object_set_new(o, "abstract", core_json_str(s));
	free(s);
	if (core_json_text(p, "journal_ref") != NULL)
		json_object_set_new(o, "container-title",
		    core_json_str(core_json_text(p, "journal_ref")));
	if (core_json_text(p, "doi") != NULL)
		json_object_set_new(o, "DOI",
		    core_json_str(core_json_text(p, "doi")));
	if (id != NULL) {
		json_object_set_new(o, "number", core_json_str(id));
		s = core_xasprintf("arXiv:%s", id);
		json_object_set_new(o, "archive_location", core_json_str(s));
		free(s);
	}
	json_object_set_new(o, "publisher", json_string("arXiv"));
	json_object_set_new(o, "archive", json_string("arXiv"));
	if (core_json_text(json_object_get(p, "links"), "abs") != NULL)
		json_object_set_new(o, "URL",
		    core_json_str(
			core_json_text(json_object_get(p, "links"), "abs")));
	return o;
}

static void
write_csl(struct core_cite *c, const json_t *p, const char *key)
{
	json_t *o = core_cite_csl(p, key);
	char *s = json_dumps(o, JSON_COMPACT | JSON_ESCAPE_SLASH);

	core_buf_puts(c->out, c->n > 0 ? ",\n" : "[\n");
	if (s != NULL)
		core_buf_puts(c->out, s);
	free(s);
	json_decref(o);
}

/* ---------------------------------------------------------------- lists */

int
core_rep_is_cite(enum core_rep rep)
{
	return rep == CORE_REP_BIB || rep == CORE_REP_RIS ||
	    rep == CORE_REP_CSL;
}

void
core_cite_open(struct core_cite *c, enum core_rep rep, struct core_buf *out)
{
	memset(c, 0, sizeof(*c));
	c->rep = rep;
	c->out = out;
}

void
core_cite_open_resp(struct core_cite *c, struct core_req *req)
{
	core_cite_open(c, core_req_rep(req), core_resp_body(req));
	c->req = req;
	core_resp_spill(req);
}

void
core_cite_add(struct core_cite *c, const json_t *paper)
{
	char *key;

	if (!json_is_object(paper) || core_json_text(paper, "arxiv_id") == NULL)
		return;
	key = list_key(c, paper);
	switch (c->rep) {
	case CORE_REP_BIB:
		write_bib(c, paper, key);
		break;
	case CORE_REP_RIS:
		write_ris(c, paper, key);
		break;
	case CORE_REP_CSL:
		write_csl(c, paper, key);
		break;
	default:
		break;
	}
	c->n++;
	free(key);
	/* A long list leaves in pieces (req.c), not whole. */
	if (c->req != NULL && c->err == CORE_OK)
		c->err = core_resp_flush(c->req);
}

void
core_cite_add_all(struct core_cite *c, const json_t *papers)
{
	const json_t *p;
	size_t i;

	json_array_foreach(papers, i, p) core_cite_add(c, p);
}

void
core_cite_close(struct core_cite *c)
{
	/* CSL-JSON is one array, empty or not. */
	if (c->rep == CORE_REP_CSL)
		core_buf_puts(c->out, c->n > 0 ? "\n]\n" : "[]\n");
	core_sset_free(&c->keys);
	core_pool_free(&c->owned);
}
