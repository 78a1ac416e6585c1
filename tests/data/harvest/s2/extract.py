#!/usr/bin/env python3
"""Copies the Semantic Scholar response bodies the s2 search, bulk and
recommend tests serve out of the vcrpy cassettes of
danielnsilva/semanticscholar (../shared/data/semanticscholar/cassettes):
each file is interactions[N].response's body string (or its older
"content" key), written unchanged.  Run from the repository root:

    python3 tests/data/harvest/s2/extract.py ../shared/data/semanticscholar/cassettes
"""
import gzip
import os
import sys

import yaml

# output file: (cassette, interaction index)
FILES = {
    "search_turing_p1.json": ("test_search_paper_next_page.yaml", 0),
    "search_turing_p2.json": ("test_search_paper_next_page.yaml", 1),
    "search_edit_distance.json": ("test_search_paper_traversing_results.yaml", 0),
    "search_min_citations.json": ("test_search_paper_min_citation_count.yaml", 0),
    "search_empty.json": ("test_empty_paginated_results.yaml", 0),
    "bulk_kubernetes_p1.json":
        ("test_search_paper_bulk_retrieval_traversing_results.yaml.gz", 0),
    "bulk_kubernetes_p2.json":
        ("test_search_paper_bulk_retrieval_traversing_results.yaml.gz", 1),
    "bulk_kubernetes_p3.json":
        ("test_search_paper_bulk_retrieval_traversing_results.yaml.gz", 2),
    "recommend_lists.json": ("test_get_recommended_papers_from_lists.yaml", 0),
    "recommend_forpaper.json": ("test_get_recommended_papers_pool_from.yaml", 0),
    "paper_authors.json": ("test_get_paper_authors.yaml", 0),
    "error_bad_fields.json": ("test_bad_query_parameters.yaml", 0),
    "error_paper_not_found.json": ("test_not_found.yaml", 0),
    "error_no_positive.json":
        ("test_get_recommended_papers_from_lists_negative_only.yaml", 0),
}


def main():
    src = sys.argv[1]
    out = os.path.dirname(os.path.abspath(__file__))
    for name, (cas, i) in sorted(FILES.items()):
        path = os.path.join(src, cas)
        op = gzip.open if path.endswith(".gz") else open
        with op(path, "rt", encoding="utf-8") as f:
            r = yaml.safe_load(f)["interactions"][i]["response"]
        body = r["body"]["string"] if "body" in r else r["content"]
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(body)


if __name__ == "__main__":
    main()
