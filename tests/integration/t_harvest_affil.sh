#!/bin/bash
# t_harvest_affil.sh -- institutions woven in (issue 16, item 4), through
# the real harvester against a private nginx serving recorded responses
# and through HTTP: arXivRaw's parenthesised affiliation ("(1) Harvard
# University") and the Atom API's arxiv:affiliation kept as raw strings,
# "affil link" matching them to ROR (precision first: "Ohio State" and
# "CfA" without a country give nothing) and linking the researchers with
# the paper's year, a rerun that changes nothing; OpenAlex authorships'
# institutions linked with the work's year (source openalex-work); the
# institution page listing only the papers written within a link's
# years (HTML, markdown, JSON, RSS), and an institution whose links hold
# no paper noindex and out of the sitemap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }

OA_IDS="'1205.5611','1304.7300'"
clean() {
	sql "DELETE FROM researcher_institutions WHERE source IN ('test',
	         'arxiv', 'openalex-work');
	    DELETE FROM authorship_affiliations;
	    DELETE FROM papers WHERE source = 'arxiv-api' OR
	        (source = 'test' AND arxiv_id IN ($OA_IDS));
	    DELETE FROM harvest_cursors;
	    UPDATE institutions i SET researcher_count = c.n
	      FROM (SELECT q.id, count(DISTINCT ri.researcher_id) AS n
	              FROM institutions q LEFT JOIN researcher_institutions ri
	                ON ri.institution_id = q.id GROUP BY q.id) c
	     WHERE c.id = i.id AND i.researcher_count <> c.n;" >/dev/null
}
# (replaces hv_nginx_up's trap: stop the fixture server too)
trap 'clean; data_changed; hv_nginx_down; rm -rf "$T_TMP"' EXIT
clean
HARVARD=$(sql "SELECT id FROM institutions WHERE ror_id = '03vek6s52'")

# --- arXivRaw: "Arthur Jaffe (1) and Gordon Ritter (1) ((1) Harvard
# University)" on 0704.0052 (a paper of the bundled Kaggle snapshot).
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oairaw/ok"
hv arxiv oai --from 2007-03-01 --prefix arXivRaw
is_rc 0 "arXivRaw harvest"
sql_is "SELECT string_agg(a.raw_name || '=' || f.raw, '; ' ORDER BY
    f.position) FROM authorship_affiliations f JOIN authorships a USING
    (paper_id, position) JOIN papers p ON p.id = f.paper_id WHERE
    p.arxiv_id = '0704.0052'" \
    "Arthur Jaffe=Harvard University; Gordon Ritter=Harvard University" \
    "the raw affiliation strings kept per authorship"
sql_is "SELECT count(*) FROM authorship_affiliations WHERE
    institution_ids IS NOT NULL" 0 "not matched before affil link"
t0=$(sql "SELECT now()")
hv affil link
is_rc 0 "affil link"
out_has "to an institution" "affil link says what it matched"
sql_is "SELECT DISTINCT institution_ids::text FROM authorship_affiliations f
    JOIN papers p ON p.id = f.paper_id WHERE p.arxiv_id = '0704.0052'" \
    "{$HARVARD}" "Harvard University matched to ROR 03vek6s52"
sql_is "SELECT string_agg(r.name || ' ' || ri.first_year || '-' ||
    ri.last_year, '; ' ORDER BY r.name) FROM researcher_institutions ri
    JOIN researchers r ON r.id = ri.researcher_id
    WHERE ri.institution_id = $HARVARD AND ri.source = 'arxiv'" \
    "Arthur Jaffe 2007-2007; Gordon Ritter 2007-2007" \
    "both authors linked, source arxiv, with the paper's year"
sql_is "SELECT researcher_count > 1, modified_at >= '$t0'
    FROM institutions WHERE id = $HARVARD" "t|t" \
    "the institution's count and modification written"
before=$(sql "SELECT md5(string_agg(researcher_id || ':' || institution_id
    || ':' || source || ':' || coalesce(first_year, 0), ',' ORDER BY 1))
    FROM researcher_institutions")
hv affil link
is_rc 0 "affil link again"
out_has "0 strings matched" "a rerun has nothing to match"
sql_is "SELECT md5(string_agg(researcher_id || ':' || institution_id
    || ':' || source || ':' || coalesce(first_year, 0), ',' ORDER BY 1))
    FROM researcher_institutions" "$before" "a rerun changes no link"

# --- Atom API: "Ohio State", "CfA", "Warsaw University Observatory".
HV_ENV="WEFT_ARXIV_API_URL=$HV_URL/api/query"
hv arxiv ids astro-ph/0601001
is_rc 0 "Atom harvest"
sql_is "SELECT string_agg(f.raw, '; ' ORDER BY f.position) FROM
    authorship_affiliations f JOIN papers p ON p.id = f.paper_id WHERE
    p.arxiv_id = 'astro-ph/0601001'" \
    "Ohio State; Ohio State; CfA; Warsaw University Observatory" \
    "arxiv:affiliation kept"
hv affil link
is_rc 0 "affil link after the Atom harvest"
sql_is "SELECT count(*), count(*) FILTER (WHERE institution_ids = '{}')
    FROM authorship_affiliations f JOIN papers p ON p.id = f.paper_id
    WHERE p.arxiv_id = 'astro-ph/0601001'" "4|4" \
    "weak or ambiguous strings (no country, an acronym) link nothing"

# --- OpenAlex: each authorship's institutions, with the work's year.
# 1205.5611 (2012): Stefanie Haustein at Forschungszentrum Juelich
# (02nv7yv05), which her author record does not list.  The bundled data
# has both papers (sql/data/openalex_works.jsonl.gz): they are used as
# loaded, and made here only when absent (a database without them).
for p in "1205.5611|2012-05-24|Judit Bar-Ilan|Stefanie Haustein|Isabella Peters|Jason Priem|Hadas Shema|Jens Terliesner" \
    "1304.7300|2013-04-26|Stefanie Haustein|Isabella Peters|Judit Bar-Ilan|Jason Priem|Hadas Shema|Jens Terliesner"; do
	IFS='|' read -r id date a1 a2 a3 a4 a5 a6 <<<"$p"
	[ "$(sql "SELECT count(*) FROM papers WHERE arxiv_id = '$id'")" = 0 ] ||
	    continue
	sql "INSERT INTO papers (arxiv_id, title, primary_category, slug,
	    source, published) VALUES ('$id', 'test paper $id', 'cs.DL',
	    'test-paper', 'test', '$date');
	    INSERT INTO authorships (paper_id, position, raw_name)
	    SELECT p.id, n, x FROM papers p, unnest(ARRAY['$a1', '$a2', '$a3',
	        '$a4', '$a5', '$a6']) WITH ORDINALITY AS u(x, n)
	    WHERE p.arxiv_id = '$id'" >/dev/null
done
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/openalex"
hv openalex works --filter author.id:A5023888391
is_rc 0 "openalex run"
sql_is "SELECT ri.first_year || '-' || ri.last_year FROM
    researcher_institutions ri JOIN researchers r ON r.id = ri.researcher_id
    JOIN institutions i ON i.id = ri.institution_id
    WHERE r.openalex_id = 'A5014077037' AND i.ror_id = '02nv7yv05'
      AND ri.source = 'openalex-work'" "2012-2012" \
    "an authorship's institution linked with the work's year"
sql_is "SELECT count(*) FROM researcher_institutions ri JOIN researchers r
    ON r.id = ri.researcher_id JOIN institutions i ON i.id =
    ri.institution_id WHERE r.openalex_id = 'A5014077037' AND i.ror_id =
    '02nv7yv05' AND ri.source = 'openalex'" 0 \
    "(the author record does not name it)"
sql_is "SELECT count(DISTINCT ri.source) FROM researcher_institutions ri
    JOIN researchers r ON r.id = ri.researcher_id JOIN institutions i ON
    i.id = ri.institution_id WHERE r.openalex_id = 'A5023888391' AND
    i.ror_id = '0130frc33'" 2 \
    "one link per source for the same pair (0037's key)"

# --- The institution page: the papers written while there.
R=$(sql "SELECT a.researcher_id FROM authorships a JOIN papers p ON
    p.id = a.paper_id WHERE a.researcher_id IS NOT NULL GROUP BY 1
    HAVING count(*) FILTER (WHERE extract(year FROM p.published) = 2025)
        > 0 AND count(*) FILTER (WHERE extract(year FROM p.published) =
        2026) BETWEEN 1 AND 20 ORDER BY 1 LIMIT 1")
IID=$(sql "SELECT id FROM institutions i WHERE NOT EXISTS (SELECT 1 FROM
    researcher_institutions ri WHERE ri.institution_id = i.id)
    ORDER BY id LIMIT 1")
EMPTY=$(sql "SELECT id FROM institutions i WHERE NOT EXISTS (SELECT 1 FROM
    researcher_institutions ri WHERE ri.institution_id = i.id)
    ORDER BY id LIMIT 1 OFFSET 1")
sql "INSERT INTO researcher_institutions (researcher_id, institution_id,
    source, first_year, last_year) VALUES ($R, $IID, 'test', 2026, 2026),
    ($R, $EMPTY, 'test', 1990, 1991)" >/dev/null
data_changed
N26=$(sql "SELECT count(DISTINCT a.paper_id) FROM authorships a JOIN papers
    p ON p.id = a.paper_id WHERE a.researcher_id = $R AND
    extract(year FROM p.published) = 2026")
IN=$(sql "SELECT p.arxiv_id FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE a.researcher_id = $R AND extract(year FROM
    p.published) = 2026 ORDER BY p.published DESC, p.id DESC LIMIT 1")
OUT=$(sql "SELECT p.arxiv_id FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE a.researcher_id = $R AND extract(year FROM
    p.published) = 2025 ORDER BY p.published DESC LIMIT 1")
get "/institutions/$IID" -L -H "Accept: application/json"
is_status 200 "institution page (JSON)"
json_is .pagination.total "$N26" "only the papers of the link's years"
json_is .recent_papers[0].arxiv_id "$IN" "newest first"
json_is .researchers.items[0].first_year 2026 "the link's years in JSON"
json_is .indexable true "with papers: indexable"
body_lacks "\"$OUT\"" "a paper from before the link: not listed"
get "/institutions/$IID" -L
body_has "$IN" "HTML lists a paper from the years"
body_lacks "$OUT" "HTML leaves out the others"
body_has "wrote while there" "HTML says which papers it lists"
get "/institutions/$IID" -L -H "Accept: text/markdown"
body_has "paper" "markdown answers"
body_has ", 2026" "markdown: the researcher's years"
get "/rss/institutions/$IID.xml"
is_status 200 "its RSS feed"
xmllint --noout "$BODY" 2>"$T_TMP/err"
ok $? "RSS: well-formed XML" "$(head -2 "$T_TMP/err")"
body_has "$IN" "RSS: a paper from the years"
body_lacks "$OUT" "RSS: not the others"
[ "$(grep -c '<item>' "$BODY")" = "$N26" ]
ok $? "RSS: only the papers from the years" "$(grep -c '<item>' "$BODY")"

get "/institutions/$EMPTY" -L -H "Accept: application/json"
json_is .indexable false "links without a paper in their years: noindex"
header_is X-Robots-Tag noindex "X-Robots-Tag noindex"
get "/institutions/$EMPTY" -L
body_has '<meta name="robots" content="noindex">' "HTML robots noindex"
chunk=$(( (EMPTY - 1) / 50000 + 1 ))
get "/sitemaps/institutions-$chunk.xml"
body_lacks "/institutions/$EMPTY-" "left out of the sitemap"
body_has "/institutions/$IID-" "the one with papers is in it"

done_testing
