/*
 * accept.c -- the representations we serve (media types, Content-Type
 * values, ?format= names) and proactive negotiation on the Accept header
 * (RFC 9110, 12.5.1).  The header is client input: parsing is linear in
 * its length and looks at no more than ACCEPT_MAXRANGES media ranges.
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "core.h"

/* Past this many ranges the rest is ignored: no browser sends 20. */
#define ACCEPT_MAXRANGES 64
/* q-values are kept in thousandths: "0.5" is 500. */
#define Q_ONE 1000

const char *const core_rep_mime[CORE_REP__MAX] = {
	"text/html",
	"text/markdown",
	"application/json",
	"application/x-bibtex",
	"application/rss+xml",
	"application/xml",
	"text/plain",
	"application/x-research-info-systems",
	"application/vnd.citationstyles.csl+json",
};

/* JSON has no charset parameter: RFC 8259, 11 defines none. */
const char *const core_rep_ctype[CORE_REP__MAX] = {
	"text/html; charset=utf-8",
	"text/markdown; charset=utf-8",
	"application/json",
	"application/x-bibtex; charset=utf-8",
	"application/rss+xml; charset=utf-8",
	"application/xml; charset=utf-8",
	"text/plain; charset=utf-8",
	"application/x-research-info-systems; charset=utf-8",
	"application/vnd.citationstyles.csl+json",
};

const char *const core_rep_format[CORE_REP__MAX] = {
	"html",
	"md",
	"json",
	"bib",
	"rss",
	"xml",
	"txt",
	"ris",
	"csl",
};

/* One media range: type and subtype point into the header. */
struct range {
	const char *type;
	size_t typelen;
	const char *sub;
	size_t sublen;
	int q;
};

/* RFC 9110, 5.6.2: tchar. */
static int
tchar(char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static const char *
skip_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Skips a token; returns p itself when there is none. */
static const char *
skip_token(const char *p)
{
	while (tchar(*p))
		p++;
	return p;
}

/*
 * Skips a quoted-string starting at the '"' at p; NULL when it is not
 * closed.  Needed so that a ',' inside quotes does not end the range.
 */
static const char *
skip_quoted(const char *p)
{
	for (p++; *p != '"'; p++) {
		if (*p == '\0')
			return NULL;
		if (*p == '\\' && *++p == '\0')
			return NULL;
	}
	return p + 1;
}

/*
 * Parses a qvalue, s[0..n): "0" ["." 0*3DIGIT] / "1" ["." 0*3"0"].
 * Returns thousandths, or -1 when malformed ("abc", "1.0001", "2").
 */
static int
parse_q(const char *s, size_t n)
{
	int q, scale;
	size_t i;

	if (n == 0 || (s[0] != '0' && s[0] != '1'))
		return -1;
	q = (s[0] - '0') * Q_ONE;
	if (n == 1)
		return q;
	if (s[1] != '.' || n > 5)
		return -1;
	for (i = 2, scale = Q_ONE / 10; i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		q += (s[i] - '0') * scale;
	}
	return q > Q_ONE ? -1 : q;
}

/*
 * Parses one media range at p into *r.  Returns where it stopped (at
 * ',' or the NUL) and sets *ok to 0 when the range is malformed, in
 * which case the caller skips to the next ','.
 */
static const char *
parse_range(const char *p, struct range *r, int *ok)
{
	const char *name, *val, *e;
	int sawq = 0, q;

	*ok = 0;
	r->q = Q_ONE;
	r->type = p;
	if ((e = skip_token(p)) == p || *e != '/')
		return e;
	r->typelen = (size_t)(e - p);
	r->sub = p = e + 1;
	if ((e = skip_token(p)) == p)
		return e;
	r->sublen = (size_t)(e - p);
	/* A "*" type needs a "*" subtype; "* /html" means nothing. */
	if (r->typelen == 1 && r->type[0] == '*' &&
	    !(r->sublen == 1 && r->sub[0] == '*'))
		return e;
	p = skip_ows(e);
	/* parameters = *( OWS ";" OWS [ parameter ] ), so ";;" is fine. */
	while (*p == ';') {
		p = skip_ows(p + 1);
		if (*p == ';' || *p == ',' || *p == '\0')
			continue;
		name = p;
		if ((e = skip_token(p)) == p || *e != '=')
			return e;
		val = p = e + 1;
		if (*p == '"') {
			if ((p = skip_quoted(p)) == NULL)
				return val + strlen(val);
		} else if ((p = skip_token(p)) == val)
			return p;
		/* Only q matters; charset, level and the like are ignored
		 * because each of our types comes in one variant. */
		if (e - name == 1 && (*name == 'q' || *name == 'Q')) {
			if (sawq || (q = parse_q(val, (size_t)(p - val))) < 0)
				return p;
			r->q = q;
			sawq = 1;
		}
		p = skip_ows(p);
	}
	if (*p == ',' || *p == '\0')
		*ok = 1;
	return p;
}

/* Skips the rest of a malformed range, honouring quoted strings. */
static const char *
skip_range(const char *p)
{
	const char *e;

	while (*p != ',' && *p != '\0') {
		if (*p == '"') {
			if ((e = skip_quoted(p)) == NULL)
				return p + strlen(p);
			p = e;
		} else
			p++;
	}
	return p;
}

/* 1 if s[0..n) equals the NUL-terminated lit, ignoring case. */
static int
eqi(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && strncasecmp(s, lit, n) == 0;
}

/*
 * How specifically range r matches media type mime: 3 for type/subtype,
 * 2 for type/ *, 1 for * / *, 0 for no match.
 */
static int
match(const struct range *r, const char *mime)
{
	const char *slash = strchr(mime, '/');
	size_t tl = (size_t)(slash - mime);

	if (eqi(r->type, r->typelen, "*"))
		return 1;
	if (r->typelen != tl || strncasecmp(r->type, mime, tl) != 0)
		return 0;
	if (eqi(r->sub, r->sublen, "*"))
		return 2;
	return eqi(r->sub, r->sublen, slash + 1) ? 3 : 0;
}

/*
 * The q the ranges give rep: that of the most specific matching range
 * (RFC 9110: "text/html;q=0, text/ *" excludes HTML only).  Equally
 * specific ranges ("text/html;level=1;q=0, text/html") differ only by
 * parameters we ignore, so the most generous one counts.
 */
static int
rep_q(const struct range *rs, size_t nr, enum core_rep rep)
{
	int best = 0, q = 0, m;
	size_t i;

	for (i = 0; i < nr; i++) {
		m = match(&rs[i], core_rep_mime[rep]);
		/* Older clients still ask for text/x-markdown. */
		if (rep == CORE_REP_MD && m < 3 &&
		    match(&rs[i], "text/x-markdown") == 3)
			m = 3;
		if (m > best || (m == best && m > 0 && rs[i].q > q)) {
			best = m;
			q = rs[i].q;
		}
	}
	return q;
}

int
core_accept_choose(const char *accept, const enum core_rep *offers, size_t n)
{
	struct range rs[ACCEPT_MAXRANGES];
	const char *p;
	size_t nr = 0, i;
	int ok, q, bestq = 0, best = -1;

	p = accept != NULL ? accept : "";
	while (*p != '\0' && nr < ACCEPT_MAXRANGES) {
		/* Empty list elements (", ,") are allowed (RFC 9110, 5.6.1). */
		p = skip_ows(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		p = parse_range(p, &rs[nr], &ok);
		if (ok)
			nr++;
		else
			p = skip_range(p);
		if (*p == ',')
			p++;
	}
	/* Nothing usable: as if there were no header, i.e. "* / *". */
	if (nr == 0) {
		rs[0].type = rs[0].sub = "*";
		rs[0].typelen = rs[0].sublen = 1;
		rs[0].q = Q_ONE;
		nr = 1;
	}
	for (i = 0; i < n; i++) {
		if ((int)offers[i] < 0 || (int)offers[i] >= CORE_REP__MAX)
			continue;
		/* Strictly greater: on a tie the server's order wins. */
		if ((q = rep_q(rs, nr, offers[i])) > bestq) {
			bestq = q;
			best = (int)i;
		}
	}
	return best;
}

int
core_rep_from_format(const char *fmt, enum core_rep *rep)
{
	int i;

	if (fmt == NULL)
		return -1;
	for (i = 0; i < CORE_REP__MAX; i++) {
		if (strcasecmp(fmt, core_rep_format[i]) == 0) {
			*rep = (enum core_rep)i;
			return 0;
		}
	}
	if (strcasecmp(fmt, "markdown") == 0) {
		*rep = CORE_REP_MD;
		return 0;
	}
	return -1;
}
