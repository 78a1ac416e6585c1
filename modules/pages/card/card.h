/*
 * card.h -- the og:image cards: a 1200x630 PNG for every paper,
 * researcher and institution and for the site, built as SVG with core's
 * XML writer (svg.c), its text wrapped to measured widths (measure.c:
 * pango, the fonts librsvg will use), rasterised by librsvg and cairo
 * (raster.c), cached in Redis by entity and data generation and served
 * by /cards/... (card.c).
 */
#ifndef PAGES_CARD_H
#define PAGES_CARD_H

#include <stddef.h>

#include "core.h"

/* The card's size in pixels: what og:image:width/height announce. */
#define CARD_W 1200
#define CARD_H 630
/* At most this many chips (counts) at the bottom. */
#define CARD_CHIPS_MAX 4
/* Bytes of a title or subtitle considered; beyond is cut before layout. */
#define CARD_TEXT_MAX 600

/* A face of the card: serif (headings) or sans, bold or not, size in px. */
struct card_font {
	int serif;
	int bold;
	double px;
};

/*
 * The advance width in px of s[0..n) (UTF-8) set in font f.  arg is the
 * measurer's own state.  measure.c's card_pango_width() is the real
 * one; tests may pass a fixed-pitch one.
 */
typedef double (*card_width_fn)(void *arg, const struct card_font *f,
    const char *s, size_t n);

/* What one card says.  All strings plain UTF-8 (TeX already made text),
 * borrowed for the call; NULL members are left out. */
struct card {
	const char *eyebrow; /* "paper · arXiv:2512.20345" */
	const char *title;   /* the paper's title, the person's name */
	const char *sub;     /* authors, affiliation, country */
	const char *chips[CARD_CHIPS_MAX];
	int red_chip;     /* index of the headline metric, or -1 */
	const char *foot; /* the page's address, shown small */
	int title_lines;  /* at most this many lines of title (1..4) */
	int sub_lines;    /* at most this many lines of sub (1..3) */
	double title_px;  /* the title's size */
};

/* The family lists written into the SVG and given to pango. */
#define CARD_SERIF "Liberation Serif, DejaVu Serif, serif"
#define CARD_SANS  "Lato, DejaVu Sans, sans-serif"

/*
 * Breaks s into at most maxlines lines no wider than width in font f:
 * at spaces, inside a word only when the word alone is wider than a
 * line, the last line ending in "…" when text remains.  Whitespace runs
 * count as one space; only the first CARD_TEXT_MAX bytes are read
 * (cut at a character boundary).  lines[0..maxlines) receive strings
 * the caller frees with free(); returns how many were set (0 for an
 * empty s).
 */
size_t card_wrap(const char *s, const struct card_font *f, double width,
    size_t maxlines, card_width_fn wfn, void *arg, char **lines);

/*
 * Appends the card as a standalone SVG document (1200x630) to out: every
 * string through core's XML writer, so the text escapes as text.
 * CORE_OK or the writer's sticky error.
 */
enum core_err card_svg(struct core_buf *out, const struct card *c,
    card_width_fn wfn, void *arg);

/* measure.c: pango's widths with the fonts librsvg uses.  arg unused. */
double card_pango_width(void *arg, const struct card_font *f, const char *s,
    size_t n);

/*
 * raster.c: the SVG svg[0..n) as a PNG of CARD_W x CARD_H appended to
 * png.  CORE_OK, or CORE_ESYS (logged) when librsvg or cairo fail.
 */
enum core_err card_png(const char *svg, size_t n, struct core_buf *png);

#endif

/* ------------------------------------------------------------------ */
/* card.c: the route and the pages' link to it                         */
/* ------------------------------------------------------------------ */

struct pages_page;

/*
 * GET /cards/site.png, /cards/papers/{arxiv-id}.png,
 * /cards/researchers/{id}.png, /cards/institutions/{id}.png: the PNG
 * (image/png, ETag, Last-Modified: when it was drawn), rendered once
 * per entity and data generation (Redis keeps it).  CORE_ENOTFOUND for
 * anything else or an unknown entity (core answers in the client's
 * representation).
 */
enum core_err pages_card(struct core_req *);
/*
 * The absolute URL of the card of the page p shows (home, paper,
 * researcher, institution), or NULL for pages without one.  Caller
 * frees.
 */
char *pages_card_url(const struct pages_page *p);
