/*
 * test_json.c -- core_json_render() and core_json_str().
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "t.h"

static char *
render(const json_t *v, int nl)
{
	struct core_buf b = CORE_BUF_INIT;

	core_json_render(&b, v, nl);
	return core_buf_steal(&b);
}

#define CHECK(expr, want, what)                                                \
	do {                                                                   \
		char *t_s = (expr);                                            \
		T_STREQ(t_s, (want), (what));                                  \
		free(t_s);                                                     \
	} while (0)

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	json_t *v, *s;

	v = json_pack("{s:i, s:s, s:[i,b,n]}", "id", 1, "title",
	    "</script><script>alert(1)</script>", "x", 2, 1);
	CHECK(render(v, 0),
	    "{\"id\":1,\"title\":\"<\\/script><script>alert(1)"
	    "<\\/script>\",\"x\":[2,true,null]}",
	    "compact, slash escaped");
	CHECK(render(v, 1),
	    "{\"id\":1,\"title\":\"<\\/script><script>alert(1)"
	    "<\\/script>\",\"x\":[2,true,null]}\n",
	    "trailing newline");
	json_decref(v);

	v = json_string("a\"b\\c\x01\n");
	CHECK(render(v, 0), "\"a\\\"b\\\\c\\u0001\\n\"", "string escapes");
	json_decref(v);
	v = json_integer(42);
	CHECK(render(v, 0), "42", "a bare number");
	json_decref(v);
	CHECK(render(NULL, 1), "null\n", "NULL renders null");

	core_buf_puts(&b, "x=");
	v = json_pack("[s]", "y");
	core_json_render(&b, v, 0);
	T_STREQ(core_buf_cstr(&b), "x=[\"y\"]", "appends");
	json_decref(v);
	core_buf_free(&b);

	s = core_json_str("caf\xc3\xa9 <b>\x01\x7f \xff\xfe end");
	T_OK(json_is_string(s), "core_json_str gives a string");
	T_STREQ(json_string_value(s),
	    "caf\xc3\xa9 <b> \xef\xbf\xbd\xef\xbf\xbd end",
	    "controls dropped, invalid UTF-8 replaced");
	CHECK(render(s, 0), "\"caf\xc3\xa9 <b> \xef\xbf\xbd\xef\xbf\xbd end\"",
	    "and renders");
	json_decref(s);

	s = core_json_str("tab\tnl\n");
	T_STREQ(json_string_value(s), "tab\tnl\n", "tab and newline kept");
	json_decref(s);

	s = core_json_str(NULL);
	T_OK(json_is_null(s), "NULL gives json null");
	json_decref(s);

	s = core_json_str("");
	T_STREQ(json_string_value(s), "", "empty string");
	json_decref(s);
	return T_DONE();
}
