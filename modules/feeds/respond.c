/*
 * respond.c -- what every feeds handler does once its body is written:
 * the content type, Cache-Control, the validators, and the conditional
 * requests that let feed readers poll cheaply.
 */
#include <string.h>

#include "core.h"
#include "feeds.h"

void
feeds_finish(struct core_req *r, enum core_rep rep, const char *cc,
    int64_t modified)
{
	const char *ims;
	char date[32], etag[40];
	int64_t since;

	if (cc != NULL)
		core_resp_header(r, "Cache-Control", cc);
	core_resp_etag(r);
	if (modified >= 0) {
		feeds_http_date(date, modified);
		core_resp_header(r, "Last-Modified", date);
	}
	ims = core_req_env(r, "HTTP_IF_MODIFIED_SINCE");
	/*
	 * If-Modified-Since counts only without If-None-Match (RFC 9110
	 * 13.2.2), for a valid date, and (as with the ETag, which core
	 * withholds then) only for requests without the session cookie.
	 */
	if (modified < 0 || ims == NULL ||
	    core_req_env(r, "HTTP_IF_NONE_MATCH") != NULL ||
	    core_req_signed_in(r) ||
	    feeds_http_date_parse(ims, &since) != 0 || modified > since) {
		core_resp_type(r, rep);
		return;
	}
	/* A 304 carries the validator the 200 would have carried (RFC
	 * 9110 15.4.5): the one core_resp_etag() gives this body. */
	core_etag(core_buf_cstr(core_resp_body(r)), core_resp_body(r)->len,
	    etag);
	core_resp_header(r, "ETag", etag);
	core_resp_status(r, 304);
	core_buf_reset(core_resp_body(r));
}

enum core_err
feeds_fail(struct core_req *r, int status, const char *msg)
{
	core_resp_error(r, status, msg);
	return CORE_OK;
}
