/*
 * fuzz_tex.c -- core_tex_plain(), core_md_tex() and core_html_tex() on
 * any bytes: no crash, bounded output, no writer error, and the HTML
 * holds no markup but the MathML elements and their one attribute.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const allowed[] = { "math", "mi", "mn", "mo", "mtext",
	"mrow", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "mover",
	"munder" };

/* Length of the allowed tag name at s, or 0. */
static size_t
tag_ok(const char *s)
{
	size_t i, n;

	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		n = strlen(allowed[i]);
		if (strncmp(s, allowed[i], n) == 0 &&
		    (s[n] == '>' || s[n] == ' '))
			return n;
	}
	return 0;
}

/* Every '<' opens or closes an allowed element; no other quotes. */
static void
check_html(const char *s)
{
	static const char attr[] = " mathvariant=\"normal\">";
	const char *p;
	size_t n;

	for (p = s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\'')
			abort();
		if (*p == '>')
			abort();
		if (*p != '<')
			continue;
		p++;
		if (*p == '/')
			p++;
		if ((n = tag_ok(p)) == 0)
			abort();
		p += n;
		if (strncmp(p, attr, sizeof(attr) - 1) == 0)
			p += sizeof(attr) - 2;
		if (*p != '>')
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_buf out = CORE_BUF_INIT;
	struct core_html h;
	char *in, *t;
	size_t n;

	in = core_xstrndup((const char *)data, size);
	n = strlen(in);

	t = core_tex_plain(in, 0);
	/* A byte of TeX gives at most a few characters of text. */
	if (strlen(t) > 8 * n + 16)
		abort();
	free(t);
	t = core_tex_plain(in, 1);
	if (strlen(t) > 8 * n + 16)
		abort();
	free(t);
	core_md_tex(&out, in);
	core_buf_reset(&out);

	core_html_open(&h, core_buf_sink(&out));
	core_html_tex(&h, in);
	if (core_html_close(&h) != CORE_OK)
		abort();
	if (out.len > 64 * n + 64)
		abort();
	check_html(core_buf_cstr(&out));
	core_buf_free(&out);
	free(in);
	return 0;
}
