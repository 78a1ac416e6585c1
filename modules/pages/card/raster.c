/*
 * raster.c -- SVG to PNG: librsvg draws the document on a cairo image
 * surface of the card's size, cairo encodes it.  The surface is opaque
 * RGB (the card has a background), which makes the PNG smaller.
 */
#include <librsvg/rsvg.h>
#include <cairo.h>

#include "core.h"
#include "card.h"

static cairo_status_t
png_out(void *closure, const unsigned char *data, unsigned int n)
{
	core_buf_put(closure, data, n);
	return CAIRO_STATUS_SUCCESS;
}

enum core_err
card_png(const char *svg, size_t n, struct core_buf *png)
{
	RsvgRectangle vp = { 0, 0, CARD_W, CARD_H };
	RsvgHandle *rh;
	GError *err = NULL;
	cairo_surface_t *sf;
	cairo_t *cr;
	enum core_err er = CORE_OK;
	int ok;

	rh = rsvg_handle_new_from_data((const guint8 *)svg, n, &err);
	if (rh == NULL) {
		core_log(CORE_LOG_ERROR, "card", "librsvg: %s",
		    err != NULL ? err->message : "?");
		g_clear_error(&err);
		return CORE_ESYS;
	}
	sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, CARD_W, CARD_H);
	cr = cairo_create(sf);
	ok = rsvg_handle_render_document(rh, cr, &vp, &err);
	cairo_destroy(cr);
	if (!ok) {
		core_log(CORE_LOG_ERROR, "card", "librsvg: %s",
		    err != NULL ? err->message : "?");
		g_clear_error(&err);
		er = CORE_ESYS;
	} else if (cairo_surface_write_to_png_stream(sf, png_out, png) !=
	    CAIRO_STATUS_SUCCESS) {
		core_log(CORE_LOG_ERROR, "card", "cairo: cannot write the PNG");
		er = CORE_ESYS;
	}
	cairo_surface_destroy(sf);
	g_object_unref(rh);
	return er;
}
