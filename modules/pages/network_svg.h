/*
 * network_svg.h -- server-side SVG drawings for researcher pages: the
 * co-author network and the publication timeline.  Both write through
 * the core HTML writer, so every name and URL is escaped by it.
 */
#ifndef NETWORK_SVG_H
#define NETWORK_SVG_H

/*
 * Draws net as an inline <svg class="net">:
 *   {"center":{"id":1,"name":"…","url":"/researchers/1-x"},
 *    "nodes":[{"id":2,"name":"…","url":"/researchers/2-y","papers":5}],
 *    "edges":[{"a":1,"b":2,"weight":5}]}
 * The centre sits in the middle, co-authors on one or two rings (more
 * joint papers, closer in), co-authors who write together next to each
 * other.  At most 36 co-authors are drawn (the heaviest).  base_path
 * (NULL or "" at the site root) is put before node URLs starting with
 * '/'.  Writes nothing when there is no centre or no co-author; the
 * caller then says so in a sentence.  Deterministic: the same net gives
 * the same bytes.  Borrows net.
 */
void pages_network_svg(struct core_html *h, const json_t *net,
    const char *base_path);

/*
 * Draws years, [{"year":2024,"count":3},…] in any order, as a bar chart
 * <svg class="timeline"> from the first to the last year (at most the
 * last 60), with year labels, counts and a <title> per bar.  Writes
 * nothing when no year has a positive count.  Borrows years.
 */
void pages_timeline_svg(struct core_html *h, const json_t *years);

/*
 * v formatted into buf as snprintf(buf, sz, "%.1f", v) would (the same
 * bytes for every v), only faster for the coordinates these drawings
 * use.  Returns buf.
 */
const char *pages_svg_num(char *buf, size_t sz, double v);

#endif /* NETWORK_SVG_H */
