/*
 * fuzz_ident.c -- modules/pages/resolve.c's identifier parsers on any
 * bytes: pages_ident_query() and pages_ident_researcher() never crash,
 * a success names a kind and a non-empty value without white space or
 * control characters, and an arXiv value parses again as itself.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/pages/pages.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(int r, const struct pages_ident *id)
{
	struct core_arxiv_id a;
	size_t i, n = strlen(id->value), used = 0;

	if (!r) {
		if (id->kind != PAGES_IDENT_NONE)
			abort();
		return;
	}
	if (id->kind == PAGES_IDENT_NONE || n == 0 || n >= sizeof(id->value))
		abort();
	for (i = 0; i < n; i++)
		if (isspace((unsigned char)id->value[i]) ||
		    iscntrl((unsigned char)id->value[i]))
			abort();
	if (id->kind == PAGES_IDENT_ARXIV &&
	    (core_arxiv_parse(id->value, n, &a, &used) != CORE_OK ||
		used != n || strcmp(a.id, id->value) != 0))
		abort();
	if (id->kind == PAGES_IDENT_ORCID && n != 19)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pages_ident id;
	char *s = malloc(size + 1);

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check(pages_ident_query(s, &id), &id);
	check(pages_ident_researcher(s, &id), &id);
	free(s);
	return 0;
}
