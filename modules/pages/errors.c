/*
 * errors.c -- the catch-all route (404 in the negotiated representation)
 * and the html_error hook: the designed 404 page and the other error
 * pages, in the site's layout.
 */
#include "core.h"
#include "pages.h"

enum core_err
pages_not_found(struct core_req *req)
{
	/*
	 * Negotiate so that the 404 comes in the client's representation;
	 * a client accepting none of ours still gets its 404 (the core
	 * falls back to plain text), not a 406.
	 */
	(void)pages_negotiate(req);
	return CORE_ENOTFOUND;
}

void
pages_html_error(struct core_req *req, int status, const char *msg)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct pages_page pg;
	json_t *m;

	m = json_pack("{s:s,s:i,s:s,s:o}", "type", "error", "status", status,
	    "title", core_status_reason(status), "message", core_json_str(msg));
	if (m == NULL)
		return;
	pg.kind = PAGES_ERROR;
	pg.model = m;
	pg.base = ctx->base_url;
	if (pages_render_html(core_resp_body(req), &pg) != CORE_OK)
		core_log(CORE_LOG_ERROR, "render", "error page %d", status);
	json_decref(m);
}
