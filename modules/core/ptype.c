/*
 * ptype.c -- the paper types weft-harvest analyse assigns and the pages
 * show, filter and count (sql/schema/0025_paper_analysis.sql checks the
 * same values).
 */
#include <string.h>

#include "core.h"

const char *const core_paper_types[] = { "empirical", "method", "system",
	"benchmark", "survey", "theory", "position", NULL };

static const char *const labels[] = { "empirical study", "method", "system",
	"benchmark / dataset", "survey", "theory", "position", NULL };

const char *
core_paper_type_label(const char *s)
{
	size_t i;

	for (i = 0; s != NULL && core_paper_types[i] != NULL; i++)
		if (strcmp(s, core_paper_types[i]) == 0)
			return labels[i];
	return NULL;
}
