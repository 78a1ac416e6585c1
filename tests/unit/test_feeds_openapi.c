/*
 * test_feeds_openapi.c -- the openapi.json compiled into the plugin
 * parses, is OpenAPI 3.1, describes every route the feeds module serves
 * and gives every 4xx a JSON body of the error schema; the documents
 * built at init name the site's base URL.  (The full validation by an
 * OpenAPI validator runs in tests/integration/t_feeds_guide.sh.)
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../../modules/feeds/feeds.h"
#include "t.h"

/* Operations whose 4xx are their own page (a form with its error). */
static int
own_errors(const char *path)
{
	static const char *const own[] = { "/signin", "/signup", "/readyz",
		"/account/nav", "/account/follow/{id}",
		"/account/follow/institution/{id}",
		"/account/follow/category/{category}", "/account/follows",
		"/account/verify", "/account/forgot", "/account/reset",
		"/account/password", "/account/delete", "/account/keys",
		"/account/keys/revoke", "/mcp" };
	size_t i;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(path, own[i]) == 0)
			return 1;
	return 0;
}

static void
openapi(void)
{
	static const char *const paths[] = {
		"/",
		"/search",
		"/papers/{paper}",
		"/researchers",
		"/researchers/{researcher}",
		"/institutions",
		"/institutions/{institution}",
		"/about",
		"/privacy",
		"/contact",
		"/developers",
		"/signup",
		"/signin",
		"/signout",
		"/account",
		"/account/feed-token",
		"/researchers/{id}/follow",
		"/researchers/{id}/unfollow",
		"/feed",
		"/rss/latest.xml",
		"/rss/categories/{category}.xml",
		"/rss/researchers/{id}.xml",
		"/rss/institutions/{id}.xml",
		"/rss/feed/{token}.xml",
		"/sitemap.xml",
		"/sitemaps/{kind}-{n}.xml",
		"/robots.txt",
		"/llms.txt",
		"/llms-full.txt",
		"/openapi.json",
	};
	json_error_t e;
	json_t *doc, *p, *op, *resp, *r, *err;
	const char *k, *m, *code;
	size_t i;
	int missing = 0, bad = 0;

	doc = json_loadb((const char *)feeds_openapi_json,
	    feeds_openapi_json_len, 0, &e);
	T_OK(json_is_object(doc), "openapi.json parses");
	if (!json_is_object(doc)) {
		printf("# line %d: %s\n", e.line, e.text);
		return;
	}
	T_STREQ(json_string_value(json_object_get(doc, "openapi")), "3.1.0",
	    "OpenAPI 3.1");
	p = json_object_get(doc, "paths");
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (json_object_get(p, paths[i]) == NULL) {
			printf("# missing %s\n", paths[i]);
			missing++;
		}
	T_EQ(missing, 0, "every public URL of DESIGN.md is described");
	/* Every 4xx/5xx response is a shared one (offering JSON with the
	 * Error schema), but the forms' 400 and readiness' 503. */
	json_object_foreach(p, k, op)
	{
		json_object_foreach(op, m, resp)
		{
			json_object_foreach(json_object_get(resp, "responses"),
			    code, r)
			{
				if (code[0] != '4' && code[0] != '5')
					continue;
				err = json_object_get(r, "$ref");
				/* The SSI fragments fail as an empty body
				 * (nginx shows nothing), not an error object;
				 * the account forms answer with the form or
				 * the page again, its error in it; the MCP
				 * server with JSON-RPC error objects. */
				if (err == NULL && !own_errors(k)) {
					printf("# %s %s %s inline\n", m, k,
					    code);
					bad++;
				}
			}
		}
	}
	T_EQ(bad, 0, "errors refer to the shared error responses");
	err =
	    json_object_get(json_object_get(json_object_get(doc, "components"),
				"schemas"),
		"Error");
	T_OK(json_object_get(json_object_get(json_object_get(err, "properties"),
				 "error"),
		 "properties") != NULL,
	    "the error object schema is there");
	json_decref(doc);
}

static void
guide(void)
{
	struct feeds_state st;
	struct core_conf *conf = NULL;
	json_t *doc;

	/* The developers' guide as shipped (run from the source tree). */
	setenv("WEFT_CONTENT_DIR", "modules/pages/content", 1);
	T_EQ(core_conf_load("/dev/null", &conf), CORE_OK, "an empty conf");
	memset(&st, 0, sizeof(st));
	T_EQ(feeds_guide_build(&st, "https://weft.example", conf), CORE_OK,
	    "guide documents build");
	doc = json_loads(st.doc[FEEDS_DOC_OPENAPI], 0, NULL);
	T_STREQ(json_string_value(
		    json_object_get(json_array_get(json_object_get(doc,
						       "servers"),
					0),
			"url")),
	    "https://weft.example", "servers[0].url is the base URL");
	json_decref(doc);
	T_CONTAINS(st.doc[FEEDS_DOC_ROBOTS],
	    "Sitemap: https://weft.example/sitemap.xml\n",
	    "robots.txt names the sitemap");
	T_CONTAINS(st.doc[FEEDS_DOC_ROBOTS], "Disallow: /rss/feed/\n",
	    "robots.txt keeps private feeds out");
	T_CONTAINS(st.doc[FEEDS_DOC_ROBOTS], "Disallow: /account\n",
	    "and the account");
	T_OK(strncmp(st.doc[FEEDS_DOC_LLMS], "# weft\n\n> ", 10) == 0,
	    "llms.txt starts with the title and the summary");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS], "`Accept: text/markdown`",
	    "markdown by Accept");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS], "`?format=md`",
	    "markdown by ?format");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS], "`Accept: application/json`",
	    "JSON");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS], "\n## Optional\n",
	    "an Optional section");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS],
	    "(https://weft.example/openapi.json)", "absolute links");
	T_LACKS(st.doc[FEEDS_DOC_LLMS], "](/", "no relative links");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS], "\n## Fair use and API keys\n",
	    "llms.txt states the limits");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS],
	    "RateLimit-Policy: \"read\";q=120;w=60",
	    "with the policy header of the default limits");
	T_OK(strncmp(st.doc[FEEDS_DOC_LLMS_FULL], st.doc[FEEDS_DOC_LLMS],
		 strlen(st.doc[FEEDS_DOC_LLMS])) == 0,
	    "llms-full.txt begins with llms.txt");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS_FULL], "\n### MCP server\n",
	    "llms-full.txt has the developers' guide, MCP included");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS_FULL], "| `get_paper` |",
	    "with the tools");
	T_CONTAINS(st.doc[FEEDS_DOC_LLMS_FULL],
	    "(https://weft.example/rss/latest.xml)", "its links absolute");
	feeds_guide_free(&st);
	core_conf_free(conf);
}

int
main(void)
{
	openapi();
	guide();
	return T_DONE();
}
