/*
 * svg.c -- a card as SVG: text wrapped to measured widths, every string
 * written by core's XML writer (names are literals here, text and
 * attribute values escaped), the site's colours from weft.css and its
 * mark from favicon.svg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "card.h"

/* weft.css's light palette. */
#define INK          "#1c1e22"
#define SOFT         "#4b505a"
#define FAINT        "#666b74"
#define PAPER        "#fbfaf7"
#define LINE         "#e5e1d8"
#define PRIMARY      "#2a55c9"
#define PRIMARY_WASH "#e9eefb"
#define RED          "#c23a2b"
#define RED_WASH     "#fbeae7"

#define MARGIN   80
#define TEXT_W   (CARD_W - 2 * MARGIN)
#define ELLIPSIS "\xe2\x80\xa6"

/* Is byte c the start of a UTF-8 character (not a continuation)? */
#define LEAD(c) (((unsigned char)(c)&0xc0) != 0x80)

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

static double
width_of(card_width_fn wfn, void *arg, const struct card_font *f,
    const struct core_buf *b)
{
	return b->len == 0 ? 0 : wfn(arg, f, b->ptr, b->len);
}

/*
 * The longest prefix of s[0..n), at a character boundary, that with
 * tail (may be "") fits width: its length in bytes (0 when nothing
 * does).  Widths grow with the prefix, so a binary search over the
 * character boundaries finds it in O(log n) measurements.
 */
static size_t
fit_prefix(const char *s, size_t n, const char *tail, const struct card_font *f,
    double width, card_width_fn wfn, void *arg)
{
	struct core_buf b = CORE_BUF_INIT;
	size_t *cut, nc = 0, lo = 0, hi, mid, i;

	cut = core_xcalloc(n + 1, sizeof(*cut));
	for (i = 1; i <= n; i++)
		if (i == n || LEAD(s[i]))
			cut[nc++] = i;
	/* lo: how many of the cuts are known to fit. */
	hi = nc;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		core_buf_reset(&b);
		core_buf_put(&b, s, cut[mid - 1]);
		core_buf_puts(&b, tail);
		if (wfn(arg, f, b.ptr, b.len) <= width)
			lo = mid;
		else
			hi = mid - 1;
	}
	i = lo == 0 ? 0 : cut[lo - 1];
	free(cut);
	core_buf_free(&b);
	return i;
}

size_t
card_wrap(const char *s, const struct card_font *f, double width,
    size_t maxlines, card_width_fn wfn, void *arg, char **lines)
{
	struct core_buf text = CORE_BUF_INIT, cur = CORE_BUF_INIT;
	struct core_buf cand = CORE_BUF_INIT;
	size_t nl = 0, n, i, j, k, wl;
	const char *p;

	if (s == NULL || maxlines == 0)
		return 0;
	/* The text, cut to CARD_TEXT_MAX at a boundary, invalid UTF-8
	 * replaced, whitespace runs made one space, trimmed. */
	n = strlen(s);
	if (n > CARD_TEXT_MAX) {
		n = CARD_TEXT_MAX;
		while (n > 0 && !LEAD(s[n]))
			n--;
	}
	{
		struct core_buf clean = CORE_BUF_INIT;

		core_utf8_clean(&clean, s, n);
		for (i = 0; i < clean.len; i++) {
			if (is_space(clean.ptr[i])) {
				if (text.len > 0 &&
				    text.ptr[text.len - 1] != ' ')
					core_buf_putc(&text, ' ');
			} else
				core_buf_putc(&text, clean.ptr[i]);
		}
		core_buf_free(&clean);
		if (text.len > 0 && text.ptr[text.len - 1] == ' ')
			text.len--;
	}
	p = core_buf_cstr(&text);
	n = text.len;
	i = 0;
	while (i < n) {
		/* The next word: p[i..j). */
		for (j = i; j < n && p[j] != ' '; j++)
			;
		wl = j - i;
		core_buf_reset(&cand);
		core_buf_put(&cand, cur.ptr, cur.len);
		if (cur.len > 0)
			core_buf_putc(&cand, ' ');
		core_buf_put(&cand, p + i, wl);
		if (width_of(wfn, arg, f, &cand) <= width) {
			core_buf_reset(&cur);
			core_buf_put(&cur, cand.ptr, cand.len);
			i = j < n ? j + 1 : j;
			continue;
		}
		if (nl + 1 == maxlines)
			break; /* the last line: ellipsis below */
		if (cur.len > 0) {
			lines[nl++] = core_xstrndup(cur.ptr, cur.len);
			core_buf_reset(&cur);
			continue;
		}
		/* One word wider than a line: break it where it fills one. */
		k = fit_prefix(p + i, wl, "", f, width, wfn, arg);
		if (k == 0) { /* not even one character: take one anyway */
			k = 1;
			while (k < wl && !LEAD(p[i + k]))
				k++;
		}
		lines[nl++] = core_xstrndup(p + i, k);
		i += k;
	}
	if (i < n) {
		/* Text remains for the last line: as much as fits, "…". */
		core_buf_reset(&cand);
		core_buf_put(&cand, cur.ptr, cur.len);
		if (cur.len > 0)
			core_buf_putc(&cand, ' ');
		core_buf_put(&cand, p + i, n - i);
		k = fit_prefix(cand.ptr, cand.len, ELLIPSIS, f, width, wfn,
		    arg);
		/* End on a word when that keeps most of the line. */
		for (j = k; j > 0 && cand.ptr[j] != ' '; j--)
			;
		if (k < cand.len && j > 0 && j * 10 >= k * 7)
			k = j;
		while (k > 0 && strchr(" ,;:-", cand.ptr[k - 1]) != NULL)
			k--;
		core_buf_reset(&cur);
		core_buf_put(&cur, cand.ptr, k);
		core_buf_puts(&cur, ELLIPSIS);
	}
	if (cur.len > 0 && nl < maxlines)
		lines[nl++] = core_xstrndup(cur.ptr, cur.len);
	core_buf_free(&text);
	core_buf_free(&cur);
	core_buf_free(&cand);
	return nl;
}

/* ---------------------------------------------------------------- SVG */

static void
attr_num(struct core_xml *x, const char *name, double v)
{
	char num[32];

	snprintf(num, sizeof(num), "%.1f", v);
	/* "12.0" reads as "12": shorter and the same number. */
	if (strlen(num) > 2 && strcmp(num + strlen(num) - 2, ".0") == 0)
		num[strlen(num) - 2] = '\0';
	core_xml_attr(x, name, num);
}

static void
text_start(struct core_xml *x, double px, double y, const struct card_font *f,
    const char *fill)
{
	core_xml_start(x, "text");
	attr_num(x, "x", px);
	attr_num(x, "y", y);
	core_xml_attr(x, "font-family", f->serif ? CARD_SERIF : CARD_SANS);
	attr_num(x, "font-size", f->px);
	if (f->bold)
		core_xml_attr(x, "font-weight", "bold");
	core_xml_attr(x, "fill", fill);
}

static void
rect(struct core_xml *x, double px, double py, double w, double h, double r,
    const char *fill)
{
	core_xml_start(x, "rect");
	attr_num(x, "x", px);
	attr_num(x, "y", py);
	attr_num(x, "width", w);
	attr_num(x, "height", h);
	if (r > 0)
		attr_num(x, "rx", r);
	core_xml_attr(x, "fill", fill);
	core_xml_end(x);
}

/* favicon.svg's mark (32 units), at (px, py) scaled by s. */
static void
mark(struct core_xml *x, double px, double py, double s)
{
	char tr[64];

	snprintf(tr, sizeof(tr), "translate(%g %g) scale(%g)", px, py, s);
	core_xml_start(x, "g");
	core_xml_attr(x, "transform", tr);
	rect(x, 0, 0, 32, 32, 7, PRIMARY);
	core_xml_start(x, "g");
	core_xml_attr(x, "fill", "none");
	core_xml_attr(x, "stroke", "#fff");
	core_xml_attr(x, "stroke-width", "2.2");
	core_xml_attr(x, "stroke-linecap", "round");
	core_xml_start(x, "path");
	core_xml_attr(x, "d", "M7 11c3 0 3 4 6 4s3-4 6-4 3 4 6 4");
	core_xml_end(x);
	core_xml_start(x, "path");
	core_xml_attr(x, "d", "M7 19c3 0 3 4 6 4s3-4 6-4 3 4 6 4");
	core_xml_attr(x, "opacity", ".7");
	core_xml_end(x);
	core_xml_end(x); /* g */
	core_xml_start(x, "circle");
	core_xml_attr(x, "cx", "16");
	core_xml_attr(x, "cy", "7.5");
	core_xml_attr(x, "r", "1.6");
	core_xml_attr(x, "fill", "#fff");
	core_xml_end(x);
	core_xml_end(x); /* g */
}

/* Lines of s from baseline y, lead px apart; returns the next baseline. */
static double
block(struct core_xml *x, const char *s, const struct card_font *f,
    size_t maxlines, double y, double lead, const char *fill, card_width_fn wfn,
    void *arg)
{
	char *lines[4];
	size_t n, i;

	if (maxlines > 4)
		maxlines = 4;
	n = card_wrap(s, f, TEXT_W, maxlines, wfn, arg, lines);
	for (i = 0; i < n; i++) {
		text_start(x, MARGIN, y, f, fill);
		core_xml_text(x, lines[i]);
		core_xml_end(x);
		free(lines[i]);
		y += lead;
	}
	return y;
}

enum core_err
card_svg(struct core_buf *out, const struct card *c, card_width_fn wfn,
    void *arg)
{
	const struct card_font brand = { 1, 1, 40 }, eyebrow = { 0, 1, 24 },
			       sub = { 0, 0, 30 }, chip = { 0, 1, 24 },
			       foot = { 0, 0, 22 };
	struct card_font title = { 1, 1, c->title_px > 0 ? c->title_px : 60 };
	struct core_xml *x;
	double y, cx, w;
	char *one[1];
	size_t i, n;

	x = core_xml_open(core_buf_sink(out));
	core_xml_start(x, "svg");
	core_xml_attr(x, "xmlns", "http://www.w3.org/2000/svg");
	attr_num(x, "width", CARD_W);
	attr_num(x, "height", CARD_H);
	core_xml_attr(x, "viewBox", "0 0 1200 630");
	rect(x, 0, 0, CARD_W, CARD_H, 0, PAPER);
	rect(x, 0, 0, CARD_W, 10, 0, PRIMARY);

	/* The brand: the mark and the name, as in the site's header. */
	mark(x, MARGIN, 58, 2);
	text_start(x, MARGIN + 84, 106, &brand, INK);
	core_xml_text(x, "weft");
	core_xml_end(x);

	/* The eyebrow, then the title and what it is by or where. */
	y = 196;
	if (c->eyebrow != NULL) {
		n = card_wrap(c->eyebrow, &eyebrow, TEXT_W, 1, wfn, arg, one);
		if (n == 1) {
			text_start(x, MARGIN, y, &eyebrow, FAINT);
			core_xml_attr(x, "letter-spacing", "1");
			core_xml_text(x, one[0]);
			core_xml_end(x);
			free(one[0]);
		}
	}
	y += 16 + title.px;
	y = block(x, c->title, &title,
	    c->title_lines > 0 ? (size_t)c->title_lines : 2, y, title.px * 1.16,
	    INK, wfn, arg);
	if (c->sub != NULL)
		block(x, c->sub, &sub,
		    c->sub_lines > 0 ? (size_t)c->sub_lines : 1,
		    y - title.px * 1.16 + 62, 40, SOFT, wfn, arg);

	/* A hairline, the counts as chips, the address. */
	core_xml_start(x, "line");
	attr_num(x, "x1", MARGIN);
	attr_num(x, "x2", CARD_W - MARGIN);
	attr_num(x, "y1", 508.5);
	attr_num(x, "y2", 508.5);
	core_xml_attr(x, "stroke", LINE);
	core_xml_attr(x, "stroke-width", "2");
	core_xml_end(x);
	cx = MARGIN;
	for (i = 0; i < CARD_CHIPS_MAX && c->chips[i] != NULL; i++) {
		w = wfn(arg, &chip, c->chips[i], strlen(c->chips[i])) + 44;
		if (cx + w > CARD_W - MARGIN)
			break;
		rect(x, cx, 532, w, 50, 25,
		    (int)i == c->red_chip ? RED_WASH : PRIMARY_WASH);
		text_start(x, cx + 22, 565, &chip,
		    (int)i == c->red_chip ? RED : PRIMARY);
		core_xml_text(x, c->chips[i]);
		core_xml_end(x);
		cx += w + 14;
	}
	if (c->foot != NULL && cx < CARD_W - MARGIN - 120) {
		n = card_wrap(c->foot, &foot, CARD_W - MARGIN - cx - 24, 1, wfn,
		    arg, one);
		if (n == 1) {
			text_start(x, CARD_W - MARGIN, 565, &foot, FAINT);
			core_xml_attr(x, "text-anchor", "end");
			core_xml_text(x, one[0]);
			core_xml_end(x);
			free(one[0]);
		}
	}
	core_xml_end(x); /* svg */
	return core_xml_close(x);
}
