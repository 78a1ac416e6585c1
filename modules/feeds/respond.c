/*
 * respond.c -- what every feeds handler does once its body is written:
 * the content type, Cache-Control and the validators.  The conditional
 * requests that let feed readers poll cheaply (If-None-Match, and
 * If-Modified-Since against Last-Modified) are core's, as for every
 * other page.
 */
#include "core.h"
#include "feeds.h"

void
feeds_finish(struct core_req *r, enum core_rep rep, const char *cc,
    int64_t modified)
{
	char date[32];

	if (cc != NULL)
		core_resp_header(r, "Cache-Control", cc);
	core_resp_etag(r);
	if (modified >= 0) {
		core_http_date(date, modified);
		core_resp_header(r, "Last-Modified", date);
	}
	core_resp_type(r, rep);
}
