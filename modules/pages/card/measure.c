/*
 * measure.c -- text widths from pango with the fonts fontconfig picks
 * for the card's families, which are the ones librsvg (itself drawing
 * text with pango) renders: what fits here fits on the PNG.
 */
#include <pango/pangocairo.h>

#include "core.h"
#include "card.h"

/* One layout per worker process, made at the first card it draws. */
static PangoContext *pctx;
static PangoLayout *layout;

double
card_pango_width(void *arg, const struct card_font *f, const char *s, size_t n)
{
	PangoFontDescription *fd;
	PangoRectangle logical;

	(void)arg;
	if (n == 0)
		return 0;
	if (layout == NULL) {
		pctx = pango_font_map_create_context(
		    pango_cairo_font_map_get_default());
		layout = pango_layout_new(pctx);
	}
	fd = pango_font_description_new();
	pango_font_description_set_family(fd,
	    f->serif ? CARD_SERIF : CARD_SANS);
	pango_font_description_set_weight(fd,
	    f->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_font_description_set_absolute_size(fd, f->px * PANGO_SCALE);
	pango_layout_set_font_description(layout, fd);
	pango_font_description_free(fd);
	/* s is valid UTF-8 (card_wrap cleans it); n fits an int. */
	pango_layout_set_text(layout, s, n > 65536 ? 65536 : (int)n);
	pango_layout_get_extents(layout, NULL, &logical);
	return (double)logical.width / PANGO_SCALE;
}
