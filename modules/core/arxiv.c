/*
 * arxiv.c -- arXiv identifiers, as
 * https://info.arxiv.org/help/arxiv_identifier.html describes them:
 * new style YYMM.NNNN (2007-04 to 2014-12) and YYMM.NNNNN (from 2015-01),
 * old style archive(.SC)/YYMMNNN (1991 to 2007-03), each with an optional
 * version.  Input comes from URLs and harvested metadata, is not
 * NUL-terminated, and is never read past its length.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

/* The archives of old-style identifiers; no new ones will appear. */
static const char *const archives[] = {
	"acc-phys",
	"adap-org",
	"alg-geom",
	"ao-sci",
	"astro-ph",
	"atom-ph",
	"bayes-an",
	"chao-dyn",
	"chem-ph",
	"cmp-lg",
	"comp-gas",
	"cond-mat",
	"cs",
	"dg-ga",
	"funct-an",
	"gr-qc",
	"hep-ex",
	"hep-lat",
	"hep-ph",
	"hep-th",
	"math",
	"math-ph",
	"mtrl-th",
	"nlin",
	"nucl-ex",
	"nucl-th",
	"patt-sol",
	"physics",
	"plasm-ph",
	"q-alg",
	"q-bio",
	"quant-ph",
	"solv-int",
	"supr-con",
};

/* Longest archive or subject class we look at ("cond-mat.mes-hall"). */
#define NAME_MAX_LEN 16

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The number of digits at s[i..n). */
static size_t
ndigits(const char *s, size_t n, size_t i)
{
	size_t k;

	for (k = 0; i + k < n && digit(s[i + k]); k++)
		;
	return k;
}

/* The value of the k digits at s (k small, all digits). */
static int
num(const char *s, size_t k)
{
	int v = 0;

	while (k-- > 0)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* The length of the run of letters and '-' at s[i..n). */
static size_t
namelen(const char *s, size_t n, size_t i)
{
	size_t k;

	for (k = 0; i + k < n && (letter(s[i + k]) || s[i + k] == '-'); k++)
		;
	return k;
}

/*
 * New style at s[i..n): on success the id is written and the index past
 * the number is returned, else 0.
 */
static size_t
parse_new(const char *s, size_t n, size_t i, struct core_arxiv_id *out)
{
	int yymm, yy, mm;
	size_t k, want;

	if (ndigits(s, n, i) != 4 || i + 4 >= n || s[i + 4] != '.')
		return 0;
	yymm = num(s + i, 4);
	yy = yymm / 100;
	mm = yymm % 100;
	/* The scheme began in April 2007.  YY 91-99 would be 2091 on but
	 * reads as the 1990s of old-style ids: refuse the ambiguity. */
	if (mm < 1 || mm > 12 || yymm < 704 || yy > 90)
		return 0;
	/* Four digits up to 1412, five from 1501; more digits than that
	 * is not a shorter id followed by a digit but no id at all. */
	want = yymm < 1501 ? 4 : 5;
	if ((k = ndigits(s, n, i + 5)) != want || num(s + i + 5, k) == 0)
		return 0;
	snprintf(out->id, sizeof(out->id), "%.4s.%.*s", s + i, (int)k,
	    s + i + 5);
	return i + 5 + k;
}

/*
 * A subject class such as "GT", "AI" or "mes-hall": letters and inner
 * single '-', all upper or all lower case (arXiv uses both, never mixed).
 */
static int
valid_class(const char *s, size_t k)
{
	int upper = 0, lower = 0;
	size_t j;

	if (k < 2 || k > NAME_MAX_LEN || !letter(s[0]) || !letter(s[k - 1]))
		return 0;
	for (j = 0; j < k; j++) {
		if (s[j] == '-' && s[j + 1] == '-')
			return 0;
		if (s[j] >= 'A' && s[j] <= 'Z')
			upper = 1;
		else if (s[j] >= 'a' && s[j] <= 'z')
			lower = 1;
	}
	return !(upper && lower);
}

/* Old style at s[i..n), as parse_new(). */
static size_t
parse_old(const char *s, size_t n, size_t i, struct core_arxiv_id *out)
{
	const char *arch = NULL, *sc = NULL;
	size_t a, c = 0, j, k;
	int yymm;

	a = namelen(s, n, i);
	for (k = 0; k < sizeof(archives) / sizeof(archives[0]); k++)
		if (strlen(archives[k]) == a &&
		    strncasecmp(s + i, archives[k], a) == 0)
			arch = archives[k];
	if (arch == NULL)
		return 0;
	j = i + a;
	if (j < n && s[j] == '.') {
		sc = s + j + 1;
		c = namelen(s, n, j + 1);
		if (!valid_class(sc, c))
			return 0;
		j += 1 + c;
	}
	if (j >= n || s[j] != '/' || ndigits(s, n, j + 1) != 7)
		return 0;
	j++;
	/* YYMM from August 1991 (hep-th/9108001) to March 2007; NNN from
	 * 001. */
	yymm = num(s + j, 4);
	if (yymm % 100 < 1 || yymm % 100 > 12 || num(s + j + 4, 3) == 0)
		return 0;
	if (yymm > 703 && yymm < 9108)
		return 0;
	/* The archive is canonical in lower case (the table's spelling);
	 * the subject class keeps its case: math.GT but cond-mat.mes-hall. */
	if (sc != NULL)
		snprintf(out->id, sizeof(out->id), "%s.%.*s/%.7s", arch, (int)c,
		    sc, s + j);
	else
		snprintf(out->id, sizeof(out->id), "%s/%.7s", arch, s + j);
	out->old_style = 1;
	return j + 7;
}

enum core_err
core_arxiv_parse(const char *s, size_t n, struct core_arxiv_id *out,
    size_t *consumed)
{
	struct core_arxiv_id id;
	enum core_err er = CORE_EINPUT;
	size_t i = 0, j, k;

	memset(&id, 0, sizeof(id));
	if (s == NULL)
		goto out;
	if (n >= 6 && strncasecmp(s, "arxiv:", 6) == 0)
		i = 6;
	if ((j = parse_new(s, n, i, &id)) == 0 &&
	    (j = parse_old(s, n, i, &id)) == 0)
		goto out;
	/* vN: 1 to 999 without a leading zero; "v0" or "v01" make the
	 * whole id invalid, while a 'v' without a digit is left to the
	 * caller as trailing text. */
	if (j + 1 < n && s[j] == 'v' && digit(s[j + 1])) {
		k = ndigits(s, n, j + 1);
		if (s[j + 1] == '0' || k > 3)
			goto out;
		id.version = num(s + j + 1, k);
		j += 1 + k;
	}
	if (consumed != NULL)
		*consumed = j;
	er = CORE_OK;
out:
	if (er != CORE_OK) {
		memset(&id, 0, sizeof(id));
		if (consumed != NULL)
			*consumed = 0;
	}
	if (out != NULL)
		*out = id;
	return er;
}
