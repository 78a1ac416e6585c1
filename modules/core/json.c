/*
 * json.c -- JSON output.  JSON is never printf'd: values are built with
 * jansson and serialised here with JSON_ESCAPE_SLASH, so "</script>" in
 * a string comes out as "<\/script>" wherever the text ends up.
 */
#include <string.h>

#include <jansson.h>

#include "core.h"

static int
dump_cb(const char *p, size_t n, void *arg)
{
	core_buf_put(arg, p, n);
	return 0;
}

/*
 * JSON_ENCODE_ANY lets a bare string or number through too (API answers
 * are objects, but a caller rendering a scalar should get JSON, not
 * nothing).  On a failure the partial output is taken back and "null"
 * written, so b never holds half a document.
 */
void
core_json_render(struct core_buf *b, const json_t *v, int nl)
{
	size_t len = b->len;

	if (v == NULL ||
	    json_dump_callback(v, dump_cb, b,
		JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY) != 0) {
		b->len = len;
		if (b->ptr != NULL)
			b->ptr[len] = '\0';
		core_buf_puts(b, "null");
	}
	if (nl)
		core_buf_putc(b, '\n');
}

/*
 * jansson refuses invalid UTF-8 (json_string() returns NULL), so bytes
 * from outside are cleaned first; controls are dropped rather than
 * escaped because they never carry meaning in our data.
 */
json_t *
core_json_str(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	size_t n;
	json_t *j;

	if (s == NULL)
		return json_null();
	/*
	 * Cleaned text is valid UTF-8 without NUL, all that jansson's own
	 * check (which _nocheck skips) would make sure of.  Most strings
	 * are clean already and are copied once, by jansson.
	 */
	n = strlen(s);
	if (core_utf8_clean_span(s, n) == n)
		j = json_stringn_nocheck(s, n);
	else {
		core_utf8_clean(&b, s, n);
		j = json_stringn_nocheck(core_buf_cstr(&b), b.len);
		core_buf_free(&b);
	}
	/* Unreachable but for memory; keeps the "never NULL" promise. */
	return j != NULL ? j : json_string("");
}

const char *
core_json_text(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

long long
core_json_int(const json_t *o, const char *key, long long def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}
