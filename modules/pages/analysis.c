/*
 * analysis.c -- a paper's analysis (weft-harvest analyse, 0025) in its
 * view model and on its pages: the seven keys every paper's JSON
 * carries (null until analysed), the summary block of the paper page,
 * and the type a card shows.
 */
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "pages.h"

/* The keys of the paper JSON, null until analysed. */
static const char *const keys[] = { "summary", "topics", "novelty",
	"significance_score", "paper_type", "research_field", NULL };

void
pages_analysis_set(json_t *o, json_t *a)
{
	const char *pt;
	size_t i;

	if (!json_is_object(a)) {
		json_decref(a);
		a = NULL;
	}
	json_object_set_new(o, "analysed", json_boolean(a != NULL));
	for (i = 0; keys[i] != NULL; i++) {
		json_t *v = a != NULL ? json_object_get(a, keys[i]) : NULL;

		json_object_set(o, keys[i], v != NULL ? v : json_null());
	}
	if (a == NULL) {
		json_object_set_new(o, "analysis", json_null());
		return;
	}
	/* what produced it, and the label the pages show */
	pt = pages_str(a, "paper_type");
	json_object_set_new(o, "analysis",
	    json_pack("{s:O,s:O,s:O,s:o}", "model", json_object_get(a, "model"),
		"analysed_at", json_object_get(a, "analysed_at"),
		"significance_rationale",
		json_object_get(a, "significance_rationale"),
		"paper_type_label",
		pt != NULL && core_paper_type_label(pt) != NULL
		    ? json_string(core_paper_type_label(pt))
		    : json_null()));
	json_decref(a);
}

/* 1 when the analysis was extractive (no language model). */
static int
extractive(const json_t *m)
{
	const char *model = pages_str(json_object_get(m, "analysis"), "model");

	return model != NULL && strncmp(model, "extractive", 10) == 0;
}

void
pages_html_analysis(struct core_html *h, const json_t *m)
{
	const json_t *topics = json_object_get(m, "topics"), *v;
	const json_t *an = json_object_get(m, "analysis");
	const char *s, *label;
	size_t i;

	if (!json_is_true(json_object_get(m, "analysed")))
		return;
	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ CORE_A(CLASS, "analysis"),
		CORE_A(ARIA_LABEL, "Summary"), CORE_A_END });
	pages_h_text(h, CORE_TAG_H2, "eyebrow", "summary");
	if ((s = pages_str(m, "summary")) != NULL) {
		core_html_elem(h, CORE_TAG_P, NULL);
		core_html_tex(h, s);
		core_html_pop(h);
	}
	pages_h_open(h, CORE_TAG_UL, "badges");
	label = core_paper_type_label(pages_str(m, "paper_type"));
	if (label != NULL) {
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_text(h, CORE_TAG_SPAN, "badge badge-red", label);
		core_html_pop(h);
	}
	json_array_foreach(topics, i, v) if (json_is_string(v))
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		pages_h_text(h, CORE_TAG_SPAN, "pill", json_string_value(v));
		core_html_pop(h);
	}
	core_html_pop(h);
	if ((s = pages_str(m, "research_field")) != NULL)
		pages_h_text(h, CORE_TAG_P, "faint", s);
	if ((s = pages_str(m, "novelty")) != NULL) {
		pages_h_text(h, CORE_TAG_H2, "eyebrow", "novelty");
		pages_h_text(h, CORE_TAG_P, "soft", s);
	}
	if (pages_has_int(m, "significance_score")) {
		pages_h_text(h, CORE_TAG_H2, "eyebrow", "significance");
		pages_h_open(h, CORE_TAG_P, "soft");
		core_html_textf(h, "%lld / 10",
		    pages_int(m, "significance_score", 0));
		if ((s = pages_str(an, "significance_rationale")) != NULL) {
			core_html_text(h, " \xe2\x80\x94 ");
			core_html_text(h, s);
		}
		core_html_pop(h);
	}
	pages_h_open(h, CORE_TAG_P, "note");
	if (extractive(m))
		core_html_text(h,
		    "Extracted, not written: the summary is the abstract's "
		    "own sentences, the topics its most specific phrases, "
		    "the type a rule.");
	else
		core_html_textf(h,
		    "Written by a language model (%s) from "
		    "the abstract; check it against the paper.",
		    pages_str(an, "model") != NULL ? pages_str(an, "model")
						   : "unnamed");
	core_html_pop(h);
	core_html_pop(h);
}

void
pages_md_analysis(struct core_buf *b, const json_t *m)
{
	const json_t *topics = json_object_get(m, "topics");
	const json_t *an = json_object_get(m, "analysis");
	const char *s, *label;

	if (!json_is_true(json_object_get(m, "analysed")))
		return;
	core_buf_puts(b, "\n## Summary\n\n");
	if ((s = pages_str(m, "summary")) != NULL) {
		core_md_tex(b, s);
		core_buf_puts(b, "\n\n");
	}
	if ((label = core_paper_type_label(pages_str(m, "paper_type"))) !=
	    NULL) {
		core_buf_puts(b, "- Type: ");
		core_md_text(b, label);
		core_buf_putc(b, '\n');
	}
	if ((s = pages_str(m, "research_field")) != NULL) {
		core_buf_puts(b, "- Field: ");
		core_md_text(b, s);
		core_buf_putc(b, '\n');
	}
	if (json_array_size(topics) > 0) {
		core_buf_puts(b, "- Topics: ");
		pages_md_join(b, topics, ", ");
		core_buf_putc(b, '\n');
	}
	if ((s = pages_str(m, "novelty")) != NULL) {
		core_buf_puts(b, "- Novelty: ");
		core_md_text(b, s);
		core_buf_putc(b, '\n');
	}
	if (pages_has_int(m, "significance_score")) {
		core_buf_printf(b, "- Significance: %lld/10",
		    pages_int(m, "significance_score", 0));
		if ((s = pages_str(an, "significance_rationale")) != NULL) {
			core_buf_puts(b, " \xe2\x80\x94 ");
			core_md_text(b, s);
		}
		core_buf_putc(b, '\n');
	}
	core_buf_puts(b, "- Analysis: ");
	core_md_text(b,
	    extractive(m) ? "extracted from the abstract (no "
			    "language model)"
			  : pages_str(an, "model"));
	if ((s = pages_str(an, "analysed_at")) != NULL) {
		core_buf_puts(b, ", ");
		core_md_text(b, s);
	}
	core_buf_putc(b, '\n');
}

void
pages_html_card_type(struct core_html *h, const json_t *c)
{
	const char *label = core_paper_type_label(pages_str(c, "paper_type"));

	if (label != NULL)
		pages_h_text(h, CORE_TAG_SPAN, "pill ptype", label);
}

void
pages_md_card_type(struct core_buf *b, const json_t *c)
{
	const char *label = core_paper_type_label(pages_str(c, "paper_type"));

	if (label == NULL)
		return;
	core_buf_puts(b, "; ");
	core_md_text(b, label);
}
