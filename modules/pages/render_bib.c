/*
 * render_bib.c -- a paper as a BibTeX @misc entry in arXiv's own style
 * (eprint, archivePrefix, primaryClass).  Every value is escaped for
 * BibTeX, so a title cannot close its braces or smuggle in a command.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

void
pages_bib_escape(struct core_buf *b, const char *s)
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

static void
field(struct core_buf *b, const char *name, const char *val)
{
	if (val == NULL || *val == '\0')
		return;
	core_buf_printf(b, ",\n  %s = {", name);
	pages_bib_escape(b, val);
	core_buf_putc(b, '}');
}

enum core_err
pages_render_bib(struct core_buf *b, const struct pages_page *p)
{
	const json_t *m = p->model, *as, *a;
	const char *id, *pub, *s;
	struct core_buf key = CORE_BUF_INIT, names = CORE_BUF_INIT;
	char year[5] = "";
	size_t i;

	if (p->kind != PAGES_PAPER || m == NULL ||
	    (id = pages_str(m, "arxiv_id")) == NULL)
		return CORE_EINPUT;
	as = json_object_get(m, "authors");
	pub = pages_str(m, "published");
	if (pub != NULL && strlen(pub) >= 4) {
		memcpy(year, pub, 4);
		year[4] = '\0';
	}

	/* "ma2025comprehensive", as Google Scholar builds keys. */
	key_name(&key, pages_str(json_array_get(as, 0), "name"));
	core_buf_puts(&key, year);
	key_word(&key, pages_str(m, "title"));
	if (key.len == 0 || strlen(year) != 4) {
		/* No author or date: a key from the id, "arxiv2512_20345". */
		core_buf_reset(&key);
		core_buf_puts(&key, "arxiv");
		for (s = id; *s != '\0'; s++)
			core_buf_putc(&key, *s == '/' || *s == '.' ? '_' : *s);
	}

	json_array_foreach(as, i, a)
	{
		if (i > 0)
			core_buf_puts(&names, " and ");
		core_buf_puts(&names,
		    pages_str(a, "name") != NULL ? pages_str(a, "name") : "");
	}

	core_buf_printf(b, "@misc{%s", core_buf_cstr(&key));
	field(b, "title", pages_str(m, "title"));
	field(b, "author", core_buf_cstr(&names));
	field(b, "year", year);
	field(b, "eprint", id);
	field(b, "archivePrefix", "arXiv");
	field(b, "primaryClass", pages_str(m, "primary_category"));
	field(b, "doi", pages_str(m, "doi"));
	field(b, "journal", pages_str(m, "journal_ref"));
	field(b, "url", pages_str(json_object_get(m, "links"), "abs"));
	core_buf_puts(b, "\n}\n");
	core_buf_free(&key);
	core_buf_free(&names);
	return CORE_OK;
}
