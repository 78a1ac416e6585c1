/*
 * affil_ror.c -- raw affiliation strings ("Dept. of Physics, University
 * College London, UK") matched to ROR institutions (issue 16, item 4).
 *
 * The string is cut into parts at commas, semicolons, parentheses and
 * line breaks; each part, and each run of two or three neighbouring
 * parts, is keyed as an author name is (harvest_name_key(): accents,
 * case, punctuation) with the usual abbreviations spelt out ("Univ." is
 * "university") and looked up among the institutions' names, aliases
 * and labels in other languages.  An acronym counts only written as
 * ROR writes it (case and all), as a part of its own, and only when the
 * string names the institution's country.  A country named in the
 * string (a part that is a country's name) removes candidates of other
 * countries, and a name made only of common words ("Institute of
 * Education") counts only where one is named.  Precision first: a part that still names two
 * institutions names none, and a string whose parts name institutions
 * of different countries gives nothing.  Pure functions, no database.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "harvest.h"

#define AFF_MAX_PARTS  32   /* parts of one string looked at */
#define AFF_MAX_BYTES  2000 /* longer strings are cut there */
#define AFF_JOIN       3    /* neighbouring parts keyed together */
#define AFF_GENERIC_DF 150  /* a word in more name keys is common */

/* What cuts a string into parts (also as a character reference). */
#define SEPS ",;()[]|\n\r\t"

struct aff_inst {
	long long id;
	char cc[3]; /* ISO 3166-1 alpha-2, "" when unknown */
	int active;
};

struct harvest_affix {
	struct aff_inst *insts;
	size_t n, cap;
	json_t *names;     /* key -> [index, ...] */
	json_t *acronyms;  /* exact acronym -> [index, ...] */
	json_t *countries; /* key -> "GB" */
	json_t *df;        /* word -> number of name keys holding it */
};

/*
 * Spelt out before lookup, on both sides: the abbreviations affiliation
 * strings use and ROR's names do not.  "and" and "the" are left out
 * ("Science & Technology" is "science technology" once keyed).
 */
static const struct abbrev {
	const char *from, *to;
} abbrevs[] = {
	{ "univ", "university" },
	{ "universite", "university" },
	{ "universitat", "university" },
	{ "universitaet", "university" },
	{ "universidad", "university" },
	{ "universidade", "university" },
	{ "universita", "university" },
	{ "universiteit", "university" },
	{ "universitet", "university" },
	{ "inst", "institute" },
	{ "instit", "institute" },
	{ "dept", "department" },
	{ "tech", "technology" },
	{ "technol", "technology" },
	{ "natl", "national" },
	{ "sci", "science" },
	{ "hosp", "hospital" },
	{ "coll", "college" },
	{ "ctr", "center" },
	{ "centre", "center" },
	{ "lab", "laboratory" },
	{ "labs", "laboratories" },
	{ "med", "medical" },
	{ "res", "research" },
	{ "intl", "international" },
	{ "acad", "academy" },
	{ "st", "saint" },
	{ "co", "company" },
	{ "corp", "corporation" },
	{ "ltd", "limited" },
	{ "inc", "incorporated" },
};

/* Words left out of every key. */
static const char *const dropped[] = { "and", "the", "et", "und" };

/* Countries as affiliation strings write them and ROR does not. */
static const struct country {
	const char *name, *cc;
} extra_countries[] = {
	{ "usa", "US" },
	{ "u s a", "US" },
	{ "us", "US" },
	{ "u s", "US" },
	{ "united states of america", "US" },
	{ "america", "US" },
	{ "uk", "GB" },
	{ "u k", "GB" },
	{ "england", "GB" },
	{ "scotland", "GB" },
	{ "wales", "GB" },
	{ "northern ireland", "GB" },
	{ "great britain", "GB" },
	{ "p r china", "CN" },
	{ "pr china", "CN" },
	{ "prc", "CN" },
	{ "people s republic of china", "CN" },
	{ "peoples republic of china", "CN" },
	{ "korea", "KR" },
	{ "republic of korea", "KR" },
	{ "korea republic of", "KR" },
	{ "south korea", "KR" },
	{ "russian federation", "RU" },
	{ "russia", "RU" },
	{ "the netherlands", "NL" },
	{ "holland", "NL" },
	{ "deutschland", "DE" },
	{ "brasil", "BR" },
	{ "espana", "ES" },
	{ "iran", "IR" },
	{ "viet nam", "VN" },
	{ "vietnam", "VN" },
	{ "turkiye", "TR" },
	{ "turkey", "TR" },
	{ "czechia", "CZ" },
	{ "czech republic", "CZ" },
	{ "taiwan", "TW" },
	{ "hong kong", "HK" },
	{ "macau", "MO" },
	{ "macao", "MO" },
};

/* ------------------------------------------------------------ parts */

/* Appends code point cp to b as UTF-8 (nothing for an invalid one). */
static void
put_cp(struct core_buf *b, long cp)
{
	char u[4];

	if (cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return;
	if (cp < 0x80) {
		core_buf_putc(b, (char)cp);
		return;
	}
	if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		core_buf_put(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		core_buf_put(b, u, 3);
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		core_buf_put(b, u, 4);
	}
}

/*
 * The HTML character reference at s ("&amp;", "&#38;", "&#x0026;"):
 * its length, its code point in *cp; 0 when s starts none.
 */
static size_t
char_ref(const char *s, long *cp)
{
	static const struct {
		const char *name;
		long cp;
	} named[] = { { "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
		{ "quot;", '"' }, { "apos;", '\'' }, { "nbsp;", ' ' } };
	const char *p = s + 1;
	size_t i;
	long v = 0;
	int hex = 0, nd = 0;

	if (*p != '#') {
		for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (strncmp(p, named[i].name, strlen(named[i].name)) ==
			    0) {
				*cp = named[i].cp;
				return 1 + strlen(named[i].name);
			}
		return 0;
	}
	p++;
	if (*p == 'x' || *p == 'X') {
		hex = 1;
		p++;
	}
	for (; nd < 7 &&
	     (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p));
	     p++, nd++)
		v = v * (hex ? 16 : 10) +
		    (isdigit((unsigned char)*p)
			    ? *p - '0'
			    : tolower((unsigned char)*p) - 'a' + 10);
	if (nd == 0 || *p != ';')
		return 0;
	*cp = v;
	return (size_t)(p + 1 - s);
}

size_t
harvest_affil_split(const char *raw, char ***partsp)
{
	struct core_buf b = CORE_BUF_INIT;
	char **parts = NULL, *t;
	const char *s, *end;
	size_t n = 0, k;
	long cp;

	*partsp = NULL;
	end = raw + strnlen(raw, AFF_MAX_BYTES);
	for (s = raw;; s++) {
		if (s < end && *s == '&' && (k = char_ref(s, &cp)) > 0 &&
		    s + k <= end) {
			/* A decoded separator still separates. */
			s += k - 1;
			if (cp > 0 && cp < 0x80 &&
			    strchr(SEPS, (int)cp) != NULL)
				goto cut;
			put_cp(&b, cp);
			continue;
		}
		if (s < end && strchr(SEPS, *s) == NULL) {
			core_buf_putc(&b, *s);
			continue;
		}
cut:
		t = harvest_squash(core_buf_cstr(&b));
		/* Trailing dots and dashes: "UK." is "UK". */
		for (k = strlen(t); k > 0 && strchr(".-:", t[k - 1]) != NULL;
		     k--)
			t[k - 1] = '\0';
		if (*t != '\0' && n < AFF_MAX_PARTS) {
			parts = core_xrealloc(parts, (n + 1) * sizeof(*parts));
			parts[n++] = t;
		} else
			free(t);
		core_buf_reset(&b);
		if (s >= end)
			break;
	}
	core_buf_free(&b);
	*partsp = parts;
	return n;
}

char *
harvest_affil_key(const char *s)
{
	struct core_buf b = CORE_BUF_INIT;
	char *nc, *key, *w, *save = NULL;
	const char *out;
	size_t i;

	/* Commas inside a name ("University of California, Berkeley")
	 * must not read as "Last, First". */
	nc = core_xstrdup(s);
	for (w = nc; *w != '\0'; w++)
		if (*w == ',')
			*w = ' ';
	key = harvest_name_key(nc);
	free(nc);
	for (w = strtok_r(key, " ", &save); w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		/* A footnote mark glued on: "1University". */
		while (isdigit((unsigned char)*w) &&
		    isalpha((unsigned char)w[strspn(w, "0123456789")]))
			w++;
		out = w;
		for (i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
			if (strcmp(w, dropped[i]) == 0)
				out = NULL;
		if (out == NULL)
			continue;
		for (i = 0; i < sizeof(abbrevs) / sizeof(abbrevs[0]); i++)
			if (strcmp(w, abbrevs[i].from) == 0) {
				out = abbrevs[i].to;
				break;
			}
		if (b.len > 0)
			core_buf_putc(&b, ' ');
		core_buf_puts(&b, out);
	}
	free(key);
	return core_buf_steal(&b);
}

/* ------------------------------------------------------------ index */

struct harvest_affix *
harvest_affix_new(void)
{
	struct harvest_affix *x = core_xcalloc(1, sizeof(*x));
	char *k;
	size_t i;

	x->names = json_object();
	x->acronyms = json_object();
	x->countries = json_object();
	x->df = json_object();
	for (i = 0; i < sizeof(extra_countries) / sizeof(extra_countries[0]);
	     i++) {
		k = harvest_affil_key(extra_countries[i].name);
		json_object_set_new(x->countries, k,
		    json_string(extra_countries[i].cc));
		free(k);
	}
	return x;
}

void
harvest_affix_free(struct harvest_affix *x)
{
	if (x == NULL)
		return;
	free(x->insts);
	json_decref(x->names);
	json_decref(x->acronyms);
	json_decref(x->countries);
	json_decref(x->df);
	free(x);
}

size_t
harvest_affix_size(const struct harvest_affix *x)
{
	return x->n;
}

/* Counts each word of a new name key k once in df. */
static void
count_words(json_t *df, const char *k)
{
	char *copy = core_xstrdup(k), *w, *save = NULL;
	json_t *seen = json_object(), *c;

	for (w = strtok_r(copy, " ", &save); w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		if (json_object_get(seen, w) != NULL)
			continue;
		json_object_set_new(seen, w, json_true());
		c = json_object_get(df, w);
		json_object_set_new(df, w,
		    json_integer(c != NULL ? json_integer_value(c) + 1 : 1));
	}
	json_decref(seen);
	free(copy);
}

/*
 * 1 when every word of key is common among the names ("institute of
 * education", "university of agriculture"): such a name is shared by
 * institutions the index may not hold, so it needs the country.
 */
static int
is_generic(const struct harvest_affix *x, const char *key)
{
	const char *p = key;
	char w[64];
	size_t n;
	const json_t *c;

	while (*p != '\0') {
		n = strcspn(p, " ");
		if (n < sizeof(w)) {
			memcpy(w, p, n);
			w[n] = '\0';
			c = json_object_get(x->df, w);
			if (c == NULL || json_integer_value(c) < AFF_GENERIC_DF)
				return 0;
		} else
			return 0;
		p += n;
		p += *p == ' ';
	}
	return 1;
}

/* Adds institution number idx under key k of table t, once. */
static void
index_add(json_t *t, const char *k, size_t idx, json_t *df)
{
	json_t *a = json_object_get(t, k), *v;
	size_t i;

	if (*k == '\0')
		return;
	if (a == NULL) {
		a = json_array();
		json_object_set_new(t, k, a);
		if (df != NULL)
			count_words(df, k);
	}
	json_array_foreach(a, i,
	    v) if ((size_t)json_integer_value(v) == idx) return;
	json_array_append_new(a, json_integer((json_int_t)idx));
}

/*
 * ROR's acronyms are among the aliases: one word of capitals and
 * digits (and '&', '-'), at least two capitals ("UCL", "MIT", "KU").
 */
static int
is_acronym(const char *s)
{
	size_t n = 0, up = 0;

	for (; *s != '\0'; s++, n++) {
		if (isupper((unsigned char)*s))
			up++;
		else if (!isdigit((unsigned char)*s) && *s != '&' && *s != '-')
			return 0;
	}
	/* Two letters are too often a state ("CA", "MI") or initials. */
	return up >= 2 && n >= 3 && n <= 12;
}

void
harvest_affix_add(struct harvest_affix *x, long long id, const char *name,
    const char *aliases, const char *cc, const char *country, int active)
{
	struct aff_inst *in;
	json_t *al, *v;
	const char *s;
	char *k;
	size_t i, idx;

	if (name == NULL)
		return;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 1024;
		x->insts = core_xrealloc(x->insts, x->cap * sizeof(*x->insts));
	}
	idx = x->n++;
	in = &x->insts[idx];
	in->id = id;
	in->active = active;
	in->cc[0] = '\0';
	if (cc != NULL && strlen(cc) == 2) {
		in->cc[0] = (char)toupper((unsigned char)cc[0]);
		in->cc[1] = (char)toupper((unsigned char)cc[1]);
		in->cc[2] = '\0';
	}
	k = harvest_affil_key(name);
	index_add(x->names, k, idx, x->df);
	free(k);
	al = aliases != NULL ? json_loads(aliases, 0, NULL) : NULL;
	json_array_foreach(al, i, v)
	{
		if ((s = json_string_value(v)) == NULL)
			continue;
		if (is_acronym(s)) {
			index_add(x->acronyms, s, idx, NULL);
			continue;
		}
		k = harvest_affil_key(s);
		/* One word of an alias ("MI", "Baltimore") names too much. */
		if (strchr(k, ' ') != NULL)
			index_add(x->names, k, idx, x->df);
		free(k);
	}
	json_decref(al);
	if (country != NULL && in->cc[0] != '\0') {
		k = harvest_affil_key(country);
		if (*k != '\0' && json_object_get(x->countries, k) == NULL)
			json_object_set_new(x->countries, k,
			    json_string(in->cc));
		free(k);
	}
}

/* ------------------------------------------------------------ match */

/* One part's (or run of parts') candidates after the filters. */
struct cand {
	size_t idx;
	int acronym;
};

/*
 * The candidates of array a (indexes), filtered by the string's country
 * cc ("" unknown): of another country, out; then, when several are left,
 * the active ones.  The one institution left, or -1; -1 also when key
 * (the name looked up, or NULL) is common and the country unknown.
 */
static long
pick_key(const struct harvest_affix *x, const json_t *a, const char *cc,
    const char *key)
{
	const struct aff_inst *in;
	const json_t *v;
	size_t i, nleft = 0, nactive = 0;
	long left = -1, active = -1;

	/* A common name counts only in its country. */
	if (key != NULL && is_generic(x, key) && *cc == '\0')
		return -1;
	json_array_foreach(a, i, v)
	{
		in = &x->insts[json_integer_value(v)];
		if (*cc != '\0' && in->cc[0] != '\0' && strcmp(cc, in->cc) != 0)
			continue;
		nleft++;
		left = (long)json_integer_value(v);
		if (in->active) {
			nactive++;
			active = left;
		}
	}
	if (nleft == 1)
		return left;
	if (nactive == 1)
		return active;
	return -1;
}

/* pick_key() for a key that needs no country. */
static long
pick(const struct harvest_affix *x, const json_t *a, const char *cc)
{
	return pick_key(x, a, cc, NULL);
}

#define AFF_MAX_WORDS 40

/*
 * The longest run of at least two words of key (but not all of them:
 * the whole part was looked up already) that names institutions: 1 and
 * *got the one picked (-1 when ambiguous); 0 when no run is a name.
 */
static int
scan_part(const struct harvest_affix *x, const char *key, const char *cc,
    long *got, struct core_buf *run)
{
	const char *w[AFF_MAX_WORDS];
	size_t wl[AFF_MAX_WORDS], nw = 0, len, i, j;
	const json_t *a;
	const char *p = key;

	while (*p != '\0' && nw < AFF_MAX_WORDS) {
		w[nw] = p;
		wl[nw] = strcspn(p, " ");
		p += wl[nw++];
		p += *p == ' ';
	}
	for (len = nw - (nw > 0); len >= 2; len--)
		for (i = 0; i + len <= nw; i++) {
			core_buf_reset(run);
			for (j = i; j < i + len; j++) {
				if (j > i)
					core_buf_putc(run, ' ');
				core_buf_put(run, w[j], wl[j]);
			}
			if ((a = json_object_get(x->names,
				 core_buf_cstr(run))) != NULL &&
			    !is_generic(x, core_buf_cstr(run))) {
				*got = pick(x, a, cc);
				return 1;
			}
		}
	return 0;
}

size_t
harvest_affix_match(const struct harvest_affix *x, const char *raw,
    long long *ids, size_t max)
{
	char **parts = NULL, *keys[AFF_MAX_PARTS], cc[3] = "";
	struct cand found[AFF_MAX_PARTS];
	struct core_buf run = CORE_BUF_INIT;
	const json_t *a, *c;
	size_t n, i, j, len, nf = 0, nout = 0;
	int *covered;
	long got;

	n = harvest_affil_split(raw, &parts);
	covered = core_xcalloc(n + 1, sizeof(*covered));
	for (i = 0; i < n; i++)
		keys[i] = harvest_affil_key(parts[i]);
	/* The country: the last part that names one. */
	for (i = n; i-- > 0;)
		if ((c = json_object_get(x->countries, keys[i])) != NULL) {
			snprintf(cc, sizeof(cc), "%s", json_string_value(c));
			break;
		}
	/* Longest runs first, so "University of California, Berkeley"
	 * wins over "University of California". */
	for (len = AFF_JOIN; len >= 1; len--) {
		for (i = 0; i + len <= n; i++) {
			for (j = i; j < i + len && !covered[j]; j++)
				;
			if (j < i + len)
				continue;
			core_buf_reset(&run);
			for (j = i; j < i + len; j++) {
				if (j > i)
					core_buf_putc(&run, ' ');
				core_buf_puts(&run, keys[j]);
			}
			if ((a = json_object_get(x->names,
				 core_buf_cstr(&run))) == NULL)
				continue;
			for (j = i; j < i + len; j++)
				covered[j] = 1;
			if ((got = pick_key(x, a, cc, core_buf_cstr(&run))) >=
				0 &&
			    nf < AFF_MAX_PARTS) {
				found[nf].idx = (size_t)got;
				found[nf++].acronym = 0;
			}
		}
	}
	/* A part with more around the name ("Department of Physics
	 * University College London" without commas): its longest run of
	 * two or more words that is a name. */
	for (i = 0; i < n; i++)
		if (!covered[i] && scan_part(x, keys[i], cc, &got, &run)) {
			covered[i] = 1;
			if (got >= 0 && nf < AFF_MAX_PARTS) {
				found[nf].idx = (size_t)got;
				found[nf++].acronym = 0;
			}
		}
	/* Acronyms, only where the string names the country. */
	for (i = 0; i < n && *cc != '\0'; i++) {
		if (covered[i] ||
		    (a = json_object_get(x->acronyms, parts[i])) == NULL)
			continue;
		if ((got = pick(x, a, cc)) >= 0 &&
		    strcmp(x->insts[got].cc, cc) == 0 && nf < AFF_MAX_PARTS) {
			found[nf].idx = (size_t)got;
			found[nf++].acronym = 1;
		}
	}
	/* Parts naming institutions of two countries: a confused string. */
	for (i = 1; i < nf; i++)
		if (strcmp(x->insts[found[i].idx].cc,
			x->insts[found[0].idx].cc) != 0)
			nf = 0;
	for (i = 0; i < nf && nout < max; i++) {
		for (j = 0; j < nout; j++)
			if (ids[j] == x->insts[found[i].idx].id)
				break;
		if (j == nout)
			ids[nout++] = x->insts[found[i].idx].id;
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(covered);
	core_buf_free(&run);
	core_strv_free(parts, n);
	return nout;
}
