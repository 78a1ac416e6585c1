/*
 * metrics.c -- the words of a researcher's metrics, shared by the HTML
 * and markdown renderers: whose figures they are and of when, and what
 * the papers here say, labelled as the archive's own.  A figure nobody
 * gave is left out, never shown as "unknown".
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

static const char *
source_name(const char *s)
{
	if (s == NULL)
		return NULL;
	if (strcmp(s, "openalex") == 0)
		return "OpenAlex";
	if (strcmp(s, "s2") == 0)
		return "Semantic Scholar";
	return s;
}

char *
pages_metrics_source(const json_t *metrics)
{
	const char *src = source_name(pages_str(metrics, "source"));
	const char *at = pages_str(metrics, "as_of");

	if (src == NULL)
		return NULL;
	if (at == NULL)
		return core_xasprintf("Figures from %s.", src);
	return core_xasprintf("Figures from %s, as of %s.", src, at);
}

char *
pages_metrics_here(const json_t *metrics)
{
	const json_t *here = json_object_get(metrics, "here"), *v;
	struct core_buf b = CORE_BUF_INIT;
	long long k = pages_int(here, "papers_with_citations", 0);
	size_t i;
	char *s;

	if (k <= 0)
		return NULL;
	core_buf_printf(&b,
	    "Here: %lld citation%s of %lld paper%s with a count; h-index %lld, "
	    "%lld as first or last author (counts from ",
	    pages_int(here, "citations", 0),
	    pages_int(here, "citations", 0) == 1 ? "" : "s", k,
	    k == 1 ? "" : "s", pages_int(here, "h_index", 0),
	    pages_int(here, "h_index_lead", 0));
	json_array_foreach(json_object_get(here, "sources"), i, v)
	{
		const char *n = source_name(json_string_value(v));

		core_buf_printf(&b, "%s%s", i > 0 ? " and " : "",
		    n != NULL ? n : "a source");
	}
	core_buf_puts(&b, ").");
	s = core_xstrdup(core_buf_cstr(&b));
	core_buf_free(&b);
	return s;
}
