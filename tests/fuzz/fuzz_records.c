/*
 * fuzz_records.c -- the loader's JSON-line parsers (modules/harvest/
 * records.c: papers in the arXiv listing and Kaggle shapes, ROR and
 * OpenAlex institutions, OpenAlex authors) on arbitrary bytes.  The first
 * byte picks the parser, the rest is the line.  A success gives valid
 * UTF-8 in every string, an arXiv id that parses whole and a slug made of
 * [a-z0-9-]; a failure gives a reason and leaves the record empty.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/harvest/harvest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
str_ok(const char *s)
{
	if (s != NULL && !core_utf8_valid(s, strlen(s)))
		abort();
}

static void
slug_ok(const char *s)
{
	if (s != NULL && s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-")])
		abort();
}

/* 1 if the n bytes at p are all zero. */
static int
zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0)
		if (*b++ != 0)
			return 0;
	return 1;
}

static void
paper(const json_t *o)
{
	struct harvest_paper p;
	struct core_arxiv_id id;
	const char *why = NULL;
	size_t used = 0, i;

	memset(&p, 0, sizeof(p));
	if (harvest_paper_parse(o, &p, &why) != CORE_OK) {
		if (why == NULL || !zero(&p, sizeof(p)))
			abort();
		return;
	}
	if (p.arxiv_id == NULL || p.abstract == NULL ||
	    core_arxiv_parse(p.arxiv_id, strlen(p.arxiv_id), &id, &used) !=
		CORE_OK ||
	    used != strlen(p.arxiv_id))
		abort();
	str_ok(p.title);
	str_ok(p.abstract);
	str_ok(p.comment);
	str_ok(p.categories);
	str_ok(p.primary);
	str_ok(p.doi);
	str_ok(p.journal_ref);
	str_ok(p.license);
	slug_ok(p.slug);
	for (i = 0; i < p.nauthors; i++) {
		if (p.authors[i] == NULL)
			abort();
		str_ok(p.authors[i]);
	}
	harvest_paper_free(&p);
}

static void
inst(const json_t *o, int ror)
{
	struct harvest_inst in;
	const char *why = NULL;
	enum core_err er;

	memset(&in, 0, sizeof(in));
	er = ror ? harvest_ror_parse(o, &in, &why)
		 : harvest_oa_inst_parse(o, &in, &why);
	if (er != CORE_OK) {
		if (why == NULL || !zero(&in, sizeof(in)))
			abort();
		return;
	}
	if (in.name == NULL)
		abort();
	str_ok(in.name);
	str_ok(in.aliases);
	str_ok(in.website);
	str_ok(in.country_name);
	slug_ok(in.slug);
	harvest_inst_free(&in);
}

static void
author(const json_t *o)
{
	struct harvest_author a;
	const char *why = NULL;
	size_t i;

	memset(&a, 0, sizeof(a));
	if (harvest_oa_author_parse(o, &a, &why) != CORE_OK) {
		if (why == NULL || !zero(&a, sizeof(a)))
			abort();
		return;
	}
	if (a.name == NULL)
		abort();
	str_ok(a.name);
	str_ok(a.name_key);
	slug_ok(a.slug);
	for (i = 0; i < a.naffils; i++) {
		str_ok(a.affils[i].name);
		slug_ok(a.affils[i].slug);
	}
	harvest_author_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *o;

	if (size < 1)
		return 0;
	o = json_loadb((const char *)data + 1, size - 1,
	    JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, NULL);
	if (o == NULL)
		return 0;
	switch (data[0] % 4) {
	case 0:
		paper(o);
		break;
	case 1:
		inst(o, 1);
		break;
	case 2:
		inst(o, 0);
		break;
	default:
		author(o);
		break;
	}
	json_decref(o);
	return 0;
}
