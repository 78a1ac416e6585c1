#!/bin/bash
# t_harvest_arxivraw.sh -- weft-harvest arxiv oai --prefix arXivRaw
# against a private nginx serving an arXivRaw page of 15 papers the
# bundled data already holds from the Kaggle snapshot (the OAI arXiv
# format's fields; tests/data/harvest/arxivraw, re-serialised from
# arXiv's own .abs files): the second source changes nothing it should
# not (rows compared before and after), adds what only it knows (version
# sizes, MSC classes), a rerun changes nothing, the same versions without
# sizes do not drop them, and a truncated page or a refused format
# writes nothing and exits 1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

IDS="'0704.0001','0704.0002','0704.0003','0704.0004','0704.0005',\
'0704.0006','0704.0007','0704.0008','0704.0009','0704.0010','0704.0025',\
'0704.0044','0704.0052','0704.0128','0704.0177'"

# What must not change: every paper column but versions' sizes, class
# codes and modified_at; the authorships' positions, name keys and
# researchers.
papers() {
	sql "SELECT arxiv_id, title, abstract, comment, categories,
	    primary_category, published, updated, doi, journal_ref, license,
	    slug, source, author_count,
	    (SELECT jsonb_agg(v - 'size') FROM jsonb_array_elements(versions) v)
	    FROM papers WHERE arxiv_id IN ($IDS) ORDER BY 1"
}
authors() {
	sql "SELECT p.arxiv_id, a.position, r.name_key, a.researcher_id
	    FROM authorships a JOIN papers p ON p.id = a.paper_id
	    LEFT JOIN researchers r ON r.id = a.researcher_id
	    WHERE p.arxiv_id IN ($IDS) ORDER BY 1, 2"
}
stamp() {
	sql "SELECT arxiv_id, modified_at, versions, class_codes FROM papers
	    WHERE arxiv_id IN ($IDS) ORDER BY 1" | md5sum
}

hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
[ "$(sql "SELECT count(*) FROM papers WHERE arxiv_id IN ($IDS)")" = 15 ] ||
    { echo "1..0 # SKIP the bundled Kaggle papers are not loaded"; exit 0; }
sql "DELETE FROM harvest_cursors" >/dev/null
# The rows as the bundled load left them, restored at the end (what a
# run of this test left, if it was interrupted, is undone first).
sql "CREATE TABLE IF NOT EXISTS t_arxivraw_saved AS
    SELECT arxiv_id, (SELECT jsonb_agg(v - 'size')
                        FROM jsonb_array_elements(versions) v) AS versions,
           class_codes FROM papers WHERE arxiv_id IN ($IDS)" >/dev/null
restore() {
	sql "UPDATE papers p SET versions = s.versions,
	    class_codes = s.class_codes FROM t_arxivraw_saved s
	    WHERE s.arxiv_id = p.arxiv_id" >/dev/null
}
restore

p_before=$(papers)
a_before=$(authors)
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($IDS) AND
    versions -> 0 ? 'size'" 0 "before: no version has a size"

# --- the arXivRaw harvest of the same papers
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oairaw/ok"
hv arxiv oai --from 2007-03-01 --prefix arXivRaw
is_rc 0 "arXivRaw run succeeds"
out_has "15 records" "15 records"
grep -q 'metadataPrefix=arXivRaw' "$HV_LOG"
ok $? "asked for metadataPrefix=arXivRaw"
p_after=$(papers)
[ "$p_after" = "$p_before" ]
ok $? "papers: nothing changed but what arXivRaw adds" \
    "$(diff <(echo "$p_before") <(echo "$p_after") | head -c 1500)"
a_after=$(authors)
[ "$a_after" = "$a_before" ]
ok $? "authorships: the same positions, name keys and researchers" \
    "$(diff <(echo "$a_before") <(echo "$a_after") | head -c 1500)"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($IDS) AND
    NOT EXISTS (SELECT 1 FROM jsonb_array_elements(versions) v
                 WHERE NOT v ? 'size')" 15 "every version has its size"
sql_is "SELECT versions FROM papers WHERE arxiv_id = '0704.0003'" \
    '[{"date": "2007-04-01", "size": "130kb", "version": 1}, {"date": "2007-12-08", "size": "135kb", "version": 2}, {"date": "2008-01-13", "size": "138kb", "version": 3}]' \
    "0704.0003: three versions with dates and sizes"
sql_is "SELECT class_codes FROM papers WHERE arxiv_id = '0704.0002'" \
    "{05C85,05C70,68R10,05B35}" "MSC classes as class codes"
sql_is "SELECT categories FROM papers WHERE arxiv_id = '0704.0002'" \
    "{math.CO,cs.CG}" "categories unchanged, no class code among them"

# --- a rerun changes nothing
before=$(stamp)
hv arxiv oai --from 2007-03-01 --prefix arXivRaw
is_rc 0 "rerun succeeds"
[ "$(stamp)" = "$before" ]
ok $? "rerun: no row written"

# --- a later source with the same versions but no sizes keeps them
# (the page again, its <size> elements removed at run time)
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oairaw/nosize"
hv arxiv oai --from 2007-03-01 --prefix arXivRaw
is_rc 0 "the same page without sizes"
[ "$(stamp)" = "$before" ]
ok $? "no size dropped, no row written"

# --- failures: a clear message, exit 1, nothing written
fail_raw() { # NAME URL MESSAGE
	before=$(stamp)
	HV_ENV="WEFT_ARXIV_OAI_URL=$2"
	hv arxiv oai --from 2007-03-01 --prefix arXivRaw
	is_rc 1 "$1: exit 1"
	out_has "$3" "$1: says why"
	[ "$(stamp)" = "$before" ]
	ok $? "$1: nothing written"
	sql_is "SELECT last_error IS NOT NULL FROM harvest_cursors WHERE
	    source = 'arxiv-oai'" t "$1: recorded as the last error"
}
fail_raw "truncated arXivRaw" "$HV_URL/oairaw/truncated" "not well-formed XML"
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oairaw/ok"
before=$(stamp)
hv arxiv oai --from 2007-03-01 --prefix arXiv
is_rc 1 "a format the server refuses: exit 1"
out_has "cannotDisseminateFormat" "says the OAI error"
[ "$(stamp)" = "$before" ]
ok $? "refused format: nothing written"
hv arxiv oai --prefix arXivRawX
is_rc 2 "an unknown prefix is a usage error"

restore
sql "DROP TABLE t_arxivraw_saved; DELETE FROM harvest_cursors" >/dev/null
done_testing
