#!/bin/bash
# t_metrics.sh -- honest metrics (issue 16): a researcher's h-index,
# citations and works total appear only from a named source with its
# date, never as "unknown" and never as papers here copied into works
# total; what the papers here say (citations summed, h-index, the
# first-or-last-author h-index) is shown once citation counts exist,
# labelled as the archive's own, in HTML, markdown and JSON.
. "$(dirname "$0")/lib.sh"

# A researcher with no source and several papers.
read -r RID NPAP < <(sql "SELECT id, paper_count FROM researchers
    WHERE metrics_source IS NULL AND paper_count BETWEEN 5 AND 12
    ORDER BY paper_count DESC, id LIMIT 1" | tr '|' ' ')
[ -n "$RID" ]
ok $? "a researcher without a source ($RID, $NPAP papers)"
get "/researchers/$RID" -L -H "Accept: application/json"
json_is ".metrics.papers_here" "$NPAP" "json: papers here"
json_is "[.metrics.h_index, .metrics.citations, .metrics.works_total,
    .metrics.source, .metrics.as_of] | map(. == null) | all" true \
    "json: no source, so no h-index, citations, works total or date"
json_is ".metrics.here.papers_with_citations" 0 "json: no paper has a count"
json_is ".metrics.here.h_index" null "json: h-index here unknown, not 0"
get "/researchers/$RID" -L
body_lacks "unknown" "html: no 'unknown' badge"
body_lacks "works total" "html: no works total"
body_lacks "badge-red" "html: no h-index badge"
get "/researchers/$RID" -L -H "Accept: text/markdown"
body_lacks "unknown" "md: no 'unknown'"
body_lacks "Works total" "md: no works total"
# No researcher's works total is a copy of its papers here.
[ "$(sql "SELECT count(*) FROM researchers WHERE metrics_source IS NULL
    AND (works_count IS NOT NULL OR h_index IS NOT NULL)")" = 0 ]
ok $? "database: no metrics without a source"
[ "$(sql "SELECT count(*) FROM researchers
    WHERE (metrics_source IS NULL) <> (metrics_at IS NULL)")" = 0 ]
ok $? "database: every source has its date"

# A paper without a count: no "Citations: unknown".
AID=$(sql "SELECT p.arxiv_id FROM papers p JOIN authorships a
    ON a.paper_id = p.id WHERE a.researcher_id = $RID LIMIT 1")
get "/papers/$AID" -L
body_lacks "unknown" "paper html: no 'unknown'"
get "/papers/$AID" -L -H "Accept: text/markdown"
body_lacks "Citations:" "paper md: no citations line without a count"

# Counts from a source for the researcher's papers (restored at exit).
# The figures here follow at the refresh after the write (0046), which
# weft_here_refresh stands for, as a harvest's refresh would run it.
trap 'sql "UPDATE papers p SET citation_count = NULL, citation_source = NULL
    FROM authorships a WHERE a.paper_id = p.id AND a.researcher_id = $RID
    AND p.citation_source = '"'"'testsource'"'"'" >/dev/null
    sql "SELECT weft_here_refresh(false)" >/dev/null; data_changed' EXIT
sql "UPDATE papers p SET citation_count = c.n, citation_source = 'testsource'
    FROM (SELECT a.paper_id, (array[40, 12, 7, 3, 3, 1, 0, 9, 2, 5, 8, 4])
                 [row_number() OVER (ORDER BY a.paper_id)::int] AS n
            FROM authorships a WHERE a.researcher_id = $RID) c
   WHERE p.id = c.paper_id AND p.citation_count IS NULL" >/dev/null
sql "SELECT weft_here_refresh(false)" >/dev/null
data_changed
# The expected figures, by another formulation: h is the largest k with
# at least k papers cited k times or more.
hof() {
	sql "WITH d AS (SELECT DISTINCT p.id, p.citation_count AS n,
	       bool_or(a.position = 1 OR a.position = p.author_count) AS lead
	  FROM papers p JOIN authorships a ON a.paper_id = p.id
	 WHERE a.researcher_id = $RID AND p.citation_count IS NOT NULL
	 GROUP BY p.id, p.citation_count)
	SELECT coalesce(max(k), 0) FROM generate_series(1, 100) k
	 WHERE (SELECT count(*) FROM d WHERE n >= k $1) >= k"
}
H=$(hof "")
HL=$(hof "AND lead")
CIT=$(sql "SELECT sum(citation_count) FROM papers p WHERE EXISTS (SELECT 1
    FROM authorships a WHERE a.paper_id = p.id AND a.researcher_id = $RID)")
get "/researchers/$RID" -L -H "Accept: application/json"
json_is ".metrics.here.papers_with_citations" "$NPAP" "json: every paper counted"
json_is ".metrics.here.citations" "$CIT" "json: citations here summed ($CIT)"
json_is ".metrics.here.h_index" "$H" "json: h-index here ($H)"
json_is ".metrics.here.h_index_lead" "$HL" "json: first-or-last h-index ($HL)"
json_is ".metrics.here.sources | join(\",\")" testsource "json: whose counts"
json_is ".metrics.h_index" null "json: still no source h-index"
get "/researchers/$RID" -L
body_has "Here: $CIT citations of $NPAP papers with a count; h-index $H, $HL as first or last author" \
    "html: the archive's own figures, labelled"
get "/researchers/$RID" -L -H "Accept: text/markdown"
body_has "Here: $CIT citations of $NPAP papers with a count" "md: the same"
get "/papers/$AID" -L -H "Accept: text/markdown"
body_has "- Citations from: testsource" "paper md: the count's source"

# A researcher with OpenAlex figures shows them with source and date.
OA=$(sql "SELECT id FROM researchers WHERE metrics_source = 'openalex'
    AND h_index IS NOT NULL ORDER BY id LIMIT 1")
get "/researchers/$OA" -L -H "Accept: application/json"
json_is ".metrics.source" openalex "source named"
json_is ".metrics.as_of | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\")" true \
    "with its date"
AS_OF=$(jq -r .metrics.as_of "$BODY")
get "/researchers/$OA" -L
body_has "Figures from OpenAlex, as of $AS_OF." "html: source and date"
body_has "badge-red" "html: the source's h-index badge"

# The bundled data itself (issue 16, item 7): the OpenAlex works bundled
# as papers link their authors to the bundled OpenAlex researchers, so
# some researcher has papers here and a source's figures with its date,
# and the papers carry OpenAlex's citation counts with theirs.
read -r BR BN < <(sql "SELECT id, paper_count FROM researchers
    WHERE metrics_source = 'openalex' AND h_index IS NOT NULL
      AND paper_count > 0 ORDER BY paper_count DESC, id LIMIT 1" | tr '|' ' ')
[ -n "$BR" ]
ok $? "bundled: a researcher with papers and OpenAlex figures ($BR)"
get "/researchers/$BR" -L -H "Accept: application/json"
json_is ".metrics.papers_here" "$BN" "bundled: papers here ($BN)"
json_is "[.metrics.source, (.metrics.h_index != null),
    (.metrics.as_of | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\"))]
    | map(tostring) | join(\",\")" "openalex,true,true" \
    "bundled: h-index from OpenAlex, dated"
json_is ".metrics.here.papers_with_citations > 0" true \
    "bundled: its papers have citation counts"
json_is ".metrics.here.sources | index(\"openalex\") != null" true \
    "bundled: counted by OpenAlex"
get "/researchers/$BR" -L
body_has "Figures from OpenAlex, as of" "bundled html: source and date"
[ "$(sql "SELECT count(*) FROM papers WHERE source = 'openalex'
    AND citation_source = 'openalex' AND citation_at IS NOT NULL")" -ge 10 ]
ok $? "bundled: the OpenAlex papers carry dated OpenAlex counts"

done_testing
