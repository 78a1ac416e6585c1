/*
 * utf8.c -- UTF-8 validation and cleaning.  Everything that reaches
 * XML, JSON or a database column passes through here first, so the
 * decoder must reject overlong forms, surrogates and code points above
 * U+10FFFF (Unicode 15, table 3-7: the well-formed byte sequences).
 *
 * This is on every request's path (each string of a page is checked
 * once), so an ASCII byte costs a comparison or two and the decoder is
 * written out here rather than called per character (utf8proc's
 * iterator, which it matches: tests/unit/test_utf8.c compares them).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core.h"

/*
 * The length of the sequence lead byte c starts, 2 to 4, or 0 for a
 * byte that starts none: a continuation, C0 and C1 (overlong leads),
 * F5..FF (past U+10FFFF).
 */
static size_t
seq_len(unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/*
 * 1 when byte c may follow lead byte lead: a continuation byte, narrowed
 * after E0 and F0 (overlongs), ED (surrogates) and F4 (past U+10FFFF).
 */
static int
second_ok(unsigned char lead, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (lead == 0xe0)
		lo = 0xa0;
	else if (lead == 0xed)
		hi = 0x9f;
	else if (lead == 0xf0)
		lo = 0x90;
	else if (lead == 0xf4)
		hi = 0x8f;
	return c >= lo && c <= hi;
}

/*
 * The length of the well-formed sequence at s[0..n), n > 0, s[0] >=
 * 0x80, or 0 when there is none; *cp gets the code point.
 */
static size_t
decode_multi(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = seq_len(s[0]);

	if (len == 0 || n < len || !second_ok(s[0], s[1]))
		return 0;
	switch (len) {
	case 2:
		*cp = (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	case 3:
		if ((s[2] & 0xc0) != 0x80)
			return 0;
		*cp = (uint32_t)(s[0] & 0x0f) << 12 |
		    (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		return 3;
	default:
		if ((s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		*cp = (uint32_t)(s[0] & 0x07) << 18 |
		    (uint32_t)(s[1] & 0x3f) << 12 |
		    (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		return 4;
	}
}

/*
 * Length of the "maximal subpart" of the invalid sequence at s[0..n):
 * the lead byte and the continuation bytes that could still have begun a
 * valid sequence (Unicode 15, 3.9, U+FFFD substitution).  Replacing each
 * maximal subpart by one U+FFFD is what browsers and ICU do, so our
 * output matches theirs byte for byte.
 */
static size_t
bad_len(const unsigned char *s, size_t n)
{
	size_t len = seq_len(s[0]), k;

	if (len == 0 || n < 2 || !second_ok(s[0], s[1]))
		return 1;
	for (k = 2; k < n && k < len && s[k] >= 0x80 && s[k] <= 0xbf; k++)
		;
	return k;
}

int
core_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t i, len;

	for (i = 0; i < n; i += len) {
		if (p[i] < 0x80) {
			if (p[i] == '\0')
				return 0;
			len = 1;
		} else if ((len = decode_multi(p + i, n - i, &cp)) == 0)
			return 0;
	}
	return 1;
}

/* The ASCII bytes dropped, as a 128-bit set: C0 but tab, LF, CR, and
 * DEL. */
static const uint64_t dropped[2] = { 0xffffd9ffu, (uint64_t)1 << 63 };

/* 1 when ASCII byte c is in the 128-bit set. */
#define IN_SET(set, c) ((set)[(c) >> 6] >> ((c)&63) & 1)

/*
 * The ASCII bytes the loop below stops at: those dropped and those with
 * a subst entry, as a 128-bit set, and the printable ones among them
 * (at most STOP_CHARS) for the 16-byte scan.
 */
#define STOP_CHARS 8
struct stops {
	uint64_t set[2];
	unsigned char chars[STOP_CHARS];
	int nchars; /* -1: too many for the scan; byte by byte */
};

/*
 * The stops of subst (NULL: only the dropped bytes).  Those of the last
 * table are kept, since the same few (constant) tables come again and
 * again.
 */
static void
stop_set(const char *const subst[128], struct stops *st)
{
	static _Thread_local const char *const *last;
	static _Thread_local struct stops last_st;
	unsigned c;

	if (subst == NULL) {
		memset(st, 0, sizeof(*st));
		st->set[0] = dropped[0];
		st->set[1] = dropped[1];
		return;
	}
	if (subst != last) {
		memset(&last_st, 0, sizeof(last_st));
		last_st.set[0] = dropped[0];
		last_st.set[1] = dropped[1];
		for (c = 0; c < 128; c++) {
			if (subst[c] == NULL)
				continue;
			last_st.set[c >> 6] |= (uint64_t)1 << (c & 63);
			if (c < 0x20 || c == 0x7f || last_st.nchars < 0)
				continue; /* the scan stops at controls anyway */
			if (last_st.nchars == STOP_CHARS)
				last_st.nchars = -1;
			else
				last_st.chars[last_st.nchars++] =
				    (unsigned char)c;
		}
		last = subst;
	}
	*st = last_st;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* st's printable stops, each in every byte of a vector. */
struct scan {
	__m128i c[STOP_CHARS];
	int n;
};

static void
scan_init(struct scan *sc, const struct stops *st)
{
	int k;

	for (k = 0; k < st->nchars; k++)
		sc->c[k] = _mm_set1_epi8((char)st->chars[k]);
	sc->n = st->nchars;
}

/*
 * The first i' >= i at which p[i'] may need the byte loop's attention:
 * the first 16-byte block, from i, holding a byte below 0x20 or above
 * 0x7e, or one of the printable stops.  A block that holds none is all
 * printable ASCII that passes unchanged.  The tail shorter than a block
 * is left to the byte loop.
 */
static size_t
skip_plain(const unsigned char *p, size_t i, size_t n, const struct scan *sc)
{
	const __m128i lo = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
	__m128i x, m;
	int k, mask;

	for (; n - i >= 16; i += 16) {
		x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		/* Signed: bytes from 0x80 compare below 0x20 too. */
		m = _mm_or_si128(_mm_cmplt_epi8(x, lo), _mm_cmpeq_epi8(x, del));
		for (k = 0; k < sc->n; k++)
			m = _mm_or_si128(m, _mm_cmpeq_epi8(x, sc->c[k]));
		if ((mask = _mm_movemask_epi8(m)) != 0)
			return i + (size_t)__builtin_ctz((unsigned)mask);
	}
	return i;
}
#else
struct scan {
	int n;
};

static void
scan_init(struct scan *sc, const struct stops *st)
{
	sc->n = st->nchars;
}

static size_t
skip_plain(const unsigned char *p, size_t i, size_t n, const struct scan *sc)
{
	(void)p;
	(void)n;
	(void)sc;
	return i;
}
#endif

/*
 * The one cleaning loop.  Runs of bytes that need no change go to the
 * sink at once; an ASCII byte with a subst entry goes as that string,
 * other controls (C0 but tab/LF/CR, DEL, C1) are dropped, and each
 * maximal subpart of an invalid sequence becomes one U+FFFD.  With
 * stop set it writes nothing and returns the length of the prefix that
 * would pass unchanged.  Plain printable ASCII is passed over 16 bytes
 * at a time (skip_plain); the rest byte by byte.
 */
static size_t
clean(struct core_sink sk, const char *s, size_t n,
    const char *const subst[128], int stop)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *p = (const unsigned char *)s;
	const char *e;
	struct stops st;
	struct scan sc;
	uint32_t cp;
	size_t i, run, len;
	unsigned char c;
	int scanning;

	stop_set(subst, &st);
	/* The scan pays for itself from a block; short text goes byte by
	 * byte at once. */
	scanning = st.nchars >= 0 && n >= 16;
	sc.n = 0;
	if (scanning)
		scan_init(&sc, &st);
	run = 0;
	for (i = 0; i < n; i += len) {
		if (scanning && n - i >= 16 &&
		    (i = skip_plain(p, i, n, &sc)) == n)
			break;
		c = p[i];
		len = 1;
		if (c < 0x80) {
			if (!IN_SET(st.set, c))
				continue;
		} else if ((len = decode_multi(p + i, n - i, &cp)) != 0 &&
		    cp > 0x9f)
			continue;
		if (stop)
			return i;
		if (i > run)
			sk.write(sk.arg, s + run, i - run);
		if (c < 0x80) {
			/* Stopped at: dropped, or else substituted. */
			if (!IN_SET(dropped, c)) {
				e = subst[c];
				sk.write(sk.arg, e, strlen(e));
			}
		} else if (len == 0) {
			sk.write(sk.arg, fffd, sizeof(fffd) - 1);
			len = bad_len(p + i, n - i);
		}
		run = i + len;
	}
	if (stop)
		return n;
	if (n > run)
		sk.write(sk.arg, s + run, n - run);
	return n;
}

void
core_utf8_clean(struct core_buf *b, const char *s, size_t n)
{
	clean(core_buf_sink(b), s, n, NULL, 0);
}

void
core_utf8_clean_subst(struct core_sink sk, const char *s, size_t n,
    const char *const subst[128])
{
	clean(sk, s, n, subst, 0);
}

size_t
core_utf8_clean_span(const char *s, size_t n)
{
	static const struct core_sink none = { NULL, NULL };

	return clean(none, s, n, NULL, 1);
}
