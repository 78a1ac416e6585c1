#!/bin/bash
# t_openapi_responses.sh -- openapi.json against real responses: every
# documented operation is requested with real ids from the database
# (papers old and new, researchers, institutions, searches, similar
# papers, the feeds, accounts signed in and out) in every representation
# it documents, and for the errors it documents (301, 303, 400, 403,
# 404, 406); tests/openapi-responses.js checks each status, Content-Type
# and JSON body against the document served at /openapi.json, with
# schemas that are closed (an undocumented field fails) and say what is
# required (a missing field fails).  tests/static/t_openapi_routes.sh
# checks that every route the site serves is documented.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CASES=$T_TMP/cases
: >"$CASES"
H=text/html MD=text/markdown J=application/json
# case STATUS METHOD PATH URL [ACCEPT] [COOKIE] [BODY]
case_() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" \
	    "${5:--}" "${6:--}" "${7:--}" >>"$CASES"
}
# every representation of a negotiated page: STATUS PATH URL [COOKIE]
reps() {
	local a
	for a in "$H" "$MD" "$J"; do
		case_ "$1" GET "$2" "$3" "$a" "${4:--}"
	done
}
# The canonical path a 301 points to.
canon() {
	curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL$1" |
	    sed "s|^$WEFT_URL||"
}
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }

# ------------------------------------------------------------ the ids
new_ids=$(sql "SELECT arxiv_id FROM papers WHERE arxiv_id NOT LIKE '%/%'
    ORDER BY arxiv_id DESC LIMIT 3")
new_ids="$new_ids $(sql "SELECT arxiv_id FROM (SELECT arxiv_id FROM papers
    WHERE arxiv_id NOT LIKE '%/%' ORDER BY md5(arxiv_id) LIMIT 6) p")"
# a paper with its versions listed (the Kaggle snapshot's)
new_ids="$new_ids $(sql "SELECT arxiv_id FROM papers
    WHERE jsonb_array_length(versions) > 0 ORDER BY arxiv_id LIMIT 1")"
# An old-style id, which the bundled data lacks, with an author matched
# to no researcher (null ids and URLs): a row of this test's own.
old_id=math.GT/0309136
rows_delete() {
	sql "DELETE FROM papers WHERE arxiv_id = '$old_id' AND source = 'test'"
	data_changed
}
trap 'rows_delete; rm -rf "$T_TMP"' EXIT
rows_delete
pid=$(sql "INSERT INTO papers (arxiv_id, title, slug, primary_category,
    categories, published, source, author_count, fully_matched)
    VALUES ('$old_id', 'An old-style paper', 'an-old-style-paper',
    'math.GT', '{math.GT}', '2003-09-08', 'test', 1, false) RETURNING id")
sql "INSERT INTO authorships (paper_id, position, raw_name, name_key)
    VALUES ($pid, 1, 'Unmatched Author', '')" >/dev/null
data_changed
res_ids=$(sql "SELECT id FROM researchers ORDER BY paper_count DESC, id
    LIMIT 3")
# with institutions and external profiles
res_ids="$res_ids $(sql "SELECT researcher_id FROM researcher_institutions
    ORDER BY researcher_id LIMIT 2")"
res_ids="$res_ids $(sql "SELECT id FROM (SELECT id FROM researchers
    ORDER BY md5(id::text) LIMIT 5) r")"
# with papers over 100 authors (0040: network.large_papers_left_out)
res_ids="$res_ids $(sql "SELECT researcher_id FROM researcher_stats
    WHERE large_papers > 0 ORDER BY large_papers DESC, researcher_id
    LIMIT 1")"
inst_ids=$(sql "SELECT i.id FROM institutions i JOIN researcher_institutions
    ri ON ri.institution_id = i.id GROUP BY i.id ORDER BY count(*) DESC,
    i.id LIMIT 3")
inst_ids="$inst_ids $(sql "SELECT id FROM (SELECT id FROM institutions
    ORDER BY md5(id::text) LIMIT 3) i")"
ror=$(sql "SELECT ror_id FROM institutions WHERE ror_id IS NOT NULL
    ORDER BY id LIMIT 1")
category=$(sql "SELECT primary_category FROM papers GROUP BY 1
    ORDER BY count(*) DESC LIMIT 1")
# One line each, ids separated by spaces: ${x%% *} is the first.
flat() { tr -s '\n' ' ' <<<"$1" | sed 's/^ //; s/ $//'; }
new_ids=$(flat "$new_ids") res_ids=$(flat "$res_ids") inst_ids=$(flat "$inst_ids")
[ -n "$new_ids" ] && [ -n "$res_ids" ] && [ -n "$inst_ids" ] &&
    [ -n "$category" ]
ok $? "ids from the database" "papers: $new_ids researchers: $res_ids"

# ------------------------------------------------------------ site
for p in / /about /privacy /contact /developers; do
	reps 200 "$p" "$p"
done
case_ 200 GET / "/?format=json"
case_ 406 GET / / image/png
case_ 406 GET / / "application/json;q=0, image/png"
case_ 400 GET /researchers "/researchers?page=0" "$J"

# ------------------------------------------------------------ papers
first=
for id in $new_ids; do
	c=$(canon "/papers/$id")
	[ -n "$first" ] || first=$c
	reps 200 "/papers/{paper}" "$c"
	case_ 200 GET "/papers/{paper}" "$c?format=bib"
	reps 200 "/papers/{paper}/similar" "$c/similar"
done
case_ 200 GET "/papers/{paper}" "$first" application/x-bibtex
case_ 200 GET "/papers/{paper}" "$first" application/x-research-info-systems
case_ 200 GET "/papers/{paper}" "$first" application/vnd.citationstyles.csl+json
for a in "$H" "$MD" "$J"; do
	case_ 301 GET "/papers/{paper}" "/papers/${new_ids%% *}" "$a"
	case_ 301 GET "/papers/{paper}/similar" "/papers/${new_ids%% *}/similar" "$a"
	case_ 404 GET "/papers/{paper}" /papers/0000.00000 "$a"
	case_ 404 GET "/papers/{paper}/similar" /papers/0000.00000/similar "$a"
done
case_ 406 GET "/papers/{paper}" "$first" image/png
case_ 406 GET "/papers/{paper}/similar" "$first/similar" image/png
c=$(canon "/papers/$old_id")
[ "$c" = "/papers/$old_id-an-old-style-paper" ]
ok $? "the old-style paper's canonical URL" "$c"
reps 200 "/papers/{archive}/{paper}" "$c"
case_ 200 GET "/papers/{archive}/{paper}" "$c" application/x-bibtex
case_ 200 GET "/papers/{archive}/{paper}" "$c" application/x-research-info-systems
case_ 200 GET "/papers/{archive}/{paper}" "$c" application/vnd.citationstyles.csl+json
case_ 301 GET "/papers/{archive}/{paper}" "/papers/$old_id" "$J"
case_ 404 GET "/papers/{archive}/{paper}" /papers/math.GT/0000000 "$J"
# not in the semantic index: an empty list that says why
case_ 200 GET "/papers/{paper}/similar" "$c/similar" "$J"
case_ 200 GET /search "/search?q=old-style+paper&mode=lexical" "$J"

# ------------------------------------------------------------ researchers
reps 200 /researchers /researchers
reps 200 /researchers "/researchers?page=2"
case_ 404 GET /researchers "/researchers?page=99999" "$J"
first=
for id in $res_ids; do
	c=$(canon "/researchers/$id")
	[ -n "$first" ] || first=$c
	reps 200 "/researchers/{researcher}" "$c"
	case_ 200 GET "/researchers/{researcher}" "$c?sort=citations" "$J"
	reps 200 "/researchers/{researcher}/evidence" "$c/evidence"
done
case_ 200 GET "/researchers/{researcher}" "$first?category=$category" "$J"
case_ 200 GET "/researchers/{researcher}" "$first?page=2" "$J"
for a in application/x-bibtex application/x-research-info-systems application/vnd.citationstyles.csl+json; do
	case_ 200 GET "/researchers/{researcher}" "$first" "$a"
	case_ 200 GET "/search" "/search?q=graph" "$a"
done
for a in "$H" "$MD" "$J"; do
	case_ 301 GET "/researchers/{researcher}" "/researchers/${res_ids%% *}" "$a"
	case_ 404 GET "/researchers/{researcher}" /researchers/999999999 "$a"
	case_ 400 GET "/researchers/{researcher}" "$first?sort=x" "$a"
done
case_ 301 GET "/researchers/{researcher}/evidence" \
    "/researchers/${res_ids%% *}/evidence" "$J"
case_ 404 GET "/researchers/{researcher}/evidence" \
    /researchers/999999999/evidence "$J"
case_ 406 GET "/researchers/{researcher}" "$first" image/png

# ------------------------------------------------------------ institutions
reps 200 /institutions /institutions
case_ 200 GET /institutions "/institutions?page=2" "$J"
first=
for id in $inst_ids; do
	c=$(canon "/institutions/$id")
	[ -n "$first" ] || first=$c
	reps 200 "/institutions/{institution}" "$c"
done
[ -n "$ror" ] && case_ 301 GET "/institutions/{institution}" \
    "/institutions/$ror" "$J"
for a in "$H" "$MD" "$J"; do
	case_ 301 GET "/institutions/{institution}" \
	    "/institutions/${inst_ids%% *}" "$a"
	case_ 404 GET "/institutions/{institution}" /institutions/999999999 "$a"
	case_ 300 GET "/institutions/{institution}" /institutions/ministry-of-health "$a"
done
case_ 406 GET "/institutions/{institution}" "$first" image/png

# ------------------------------------------------------------ cards
# The og:image PNGs: not negotiated, errors in the client's representation.
case_ 200 GET /cards/site.png /cards/site.png
case_ 200 GET "/cards/papers/{paper}.png" "/cards/papers/${new_ids%% *}.png"
case_ 200 GET "/cards/papers/{archive}/{paper}.png" "/cards/papers/$old_id.png"
case_ 200 GET "/cards/researchers/{id}.png" "/cards/researchers/${res_ids%% *}.png"
case_ 200 GET "/cards/institutions/{id}.png" \
    "/cards/institutions/${inst_ids%% *}.png"
for a in "$H" "$MD" "$J"; do
	case_ 404 GET "/cards/papers/{paper}.png" /cards/papers/0000.00000.png "$a"
	case_ 404 GET "/cards/researchers/{id}.png" \
	    /cards/researchers/999999999.png "$a"
	case_ 404 GET "/cards/institutions/{id}.png" \
	    /cards/institutions/999999999.png "$a"
done
case_ 404 GET "/cards/papers/{archive}/{paper}.png" \
    /cards/papers/math.GT/0000000.png "$J"

# ------------------------------------------------------------ search
for q in "q=learning" "q=neural+networks&sort=newest" \
    "q=quantum&mode=lexical" "q=graph&mode=semantic" \
    "q=learning&type=papers&page=2" "q=learning&type=researchers" \
    "q=university&type=institutions" "q=zzzzqqqxxy" "" \
    "q=learning&category=$category&from=2020&to=2030-12-31" \
    "q=learning&researcher=${res_ids%% *}" \
    "q=learning&institution=${inst_ids%% *}" "q=model&sort=citations"; do
	reps 200 /search "/search?$q"
done
for a in "$H" "$MD" "$J"; do
	case_ 400 GET /search "/search?q=x&mode=nope" "$a"
done
case_ 400 GET /search "/search?q=x&from=yesterday" "$J"
case_ 404 GET /search "/search?q=learning&page=99999" "$J"
case_ 406 GET /search "/search?q=x" image/png
# Browse without a query, and the categories it starts from.
reps 200 /search "/search?category=$category&sort=newest"
reps 200 /search "/search?category=$category&from=2020&page=2"
case_ 404 GET /search "/search?category=zz.XX" "$J"
reps 200 /categories /categories

# ------------------------------------------------------------ feeds
case_ 200 GET /rss/latest.xml /rss/latest.xml
case_ 200 GET "/rss/categories/{category}.xml" "/rss/categories/$category.xml"
case_ 404 GET "/rss/categories/{category}.xml" /rss/categories/zz.zz.xml
case_ 400 GET "/rss/categories/{category}.xml" "/rss/categories/a%20b.xml"
case_ 200 GET "/rss/researchers/{id}.xml" "/rss/researchers/${res_ids%% *}.xml"
case_ 404 GET "/rss/researchers/{id}.xml" /rss/researchers/999999999.xml
case_ 200 GET "/rss/institutions/{id}.xml" "/rss/institutions/${inst_ids%% *}.xml"
case_ 404 GET "/rss/institutions/{id}.xml" /rss/institutions/999999999.xml
case_ 404 GET "/rss/feed/{token}.xml" /rss/feed/nosuchtoken.xml
for ext in atom json; do
	case_ 200 GET "/rss/latest.$ext" "/rss/latest.$ext"
	case_ 200 GET "/rss/categories/{category}.$ext" \
	    "/rss/categories/$category.$ext"
	case_ 404 GET "/rss/categories/{category}.$ext" "/rss/categories/zz.zz.$ext"
	case_ 200 GET "/rss/researchers/{id}.$ext" \
	    "/rss/researchers/${res_ids%% *}.$ext"
	case_ 200 GET "/rss/institutions/{id}.$ext" \
	    "/rss/institutions/${inst_ids%% *}.$ext"
done
for ext in xml atom json; do
	case_ 200 GET "/rss/search.$ext" "/rss/search.$ext?q=software+testing"
	case_ 400 GET "/rss/search.$ext" "/rss/search.$ext?q="
done
case_ 200 GET /sitemap.xml /sitemap.xml
for k in static-1 papers-1 researchers-1; do
	case_ 200 GET "/sitemaps/{kind}-{n}.xml" "/sitemaps/$k.xml"
done
# Only institutions with papers here are in the sitemap: the bundled data
# has none, so its index may list no institutions chunk (then -1 is 404).
k=$(curl -s "$WEFT_URL/sitemap.xml" | grep -o 'institutions-[0-9]*' | head -1)
if [ -n "$k" ]; then
	case_ 200 GET "/sitemaps/{kind}-{n}.xml" "/sitemaps/$k.xml"
else
	case_ 404 GET "/sitemaps/{kind}-{n}.xml" /sitemaps/institutions-1.xml
fi
case_ 404 GET "/sitemaps/{kind}-{n}.xml" /sitemaps/papers-999.xml
for p in /robots.txt /llms.txt /llms-full.txt /openapi.json /healthz /readyz; do
	case_ 200 GET "$p" "$p"
done

# ------------------------------------------------------------ accounts
# Anonymous, then signed in: accounts made here, cookies and CSRF
# tokens handed to the checker in the cases.
rcli --scan --pattern 'weft:rl:*' | while read -r k; do
	rcli del "$k" >/dev/null; done
for p in /signup /signin; do
	reps 200 "$p" "$p"
	case_ 403 POST "$p" "$p" "$J" - "email=a@example.org&password=x"
done
reps 303 /account /account
case_ 303 GET /feed /feed "$J"
case_ 303 GET /account/welcome /account/welcome
case_ 303 POST "/researchers/{id}/follow" "/researchers/${res_ids%% *}/follow" "$J"
case_ 303 POST /signout /signout "$J"
case_ 200 GET "/account/follow/{id}" "/account/follow/${res_ids%% *}"
case_ 200 GET /account/nav /account/nav

email="openapi.$$.$RANDOM@example.org"
pw="a long enough passphrase $$"
# A fresh form's pre-session cookie and CSRF token: "COOKIE<tab>CSRF".
form() {
	local keep=$JAR
	JAR=$T_TMP/jar.$RANDOM
	get "$1"
	printf '%s\t%s\n' "$(awk '$6 == "weft_presession" { print $6 "=" $7 }' \
	    "$JAR" | tail -1)" "$(csrf)"
	JAR=$keep
}
IFS=$'\t' read -r pre c < <(form /signup)
case_ 200 POST /signup /signup "$H" "$pre" \
    "email=$email&password=${pw// /+}&csrf=$c"
IFS=$'\t' read -r pre c < <(form /signup)
case_ 400 POST /signup /signup "$J" "$pre" "email=nope&password=x&csrf=$c"
# Signed in: an account of this script's own (the checker's sign-up
# above happens later).
signup_verified "x$email" "$pw"
ok $? "signed up as x$email, the address confirmed from the mail"
S=$(awk '$6 == "weft_session" { print $6 "=" $7 }' "$JAR" | tail -1)
IFS=$'\t' read -r pre c < <(form /signin)
case_ 303 POST /signin /signin "$H" "$pre" \
    "email=x$email&password=${pw// /+}&csrf=$c"
IFS=$'\t' read -r pre c < <(form /signin)
case_ 400 POST /signin /signin "$J" "$pre" \
    "email=x$email&password=wrong+one&csrf=$c"
get /account
c=$(csrf)
r=${res_ids%% *}
case_ 303 POST "/researchers/{id}/follow" "/researchers/$r/follow" "$H" "$S" \
    "csrf=$c"
case_ 303 POST "/researchers/{id}/follow" "/researchers/$r/follow" "$J" "$S" \
    "csrf=$c"
case_ 403 POST "/researchers/{id}/unfollow" "/researchers/$r/unfollow" "$J" \
    "$S" "csrf=bad"
reps 200 /account /account "$S"
reps 200 /feed /feed "$S"
for a in application/x-bibtex application/x-research-info-systems application/vnd.citationstyles.csl+json; do
	case_ 200 GET /feed /feed "$a" "$S"
done
reps 200 /account/welcome /account/welcome "$S"
case_ 200 GET /account/welcome "/account/welcome?field=$category" "$J" "$S"
case_ 200 GET /account/welcome "/account/welcome?q=liu" "$J" "$S"
case_ 400 GET /account/welcome "/account/welcome?field=a%20b" "$J" "$S"
case_ 200 GET "/account/follow/{id}" "/account/follow/$r" "$H" "$S"
case_ 200 GET /account/nav /account/nav "$H" "$S"
case_ 404 GET "/account/follow/{id}" /account/follow/999999999 "$H" "$S"
case_ 400 GET /feed "/feed?page=x" "$J" "$S"
case_ 404 GET /feed "/feed?page=99999" "$J" "$S"
post /account/feed-token -H "Origin: $WEFT_URL" --data-urlencode "csrf=$c"
tok=$(grep -o "/rss/feed/[A-Za-z0-9_-]*\.xml" "$BODY" | head -1)
[ -n "$tok" ]
ok $? "a private feed URL" "$(head -c 300 "$BODY")"
case_ 200 GET "/rss/feed/{token}.xml" "$tok"
case_ 303 POST "/researchers/{id}/unfollow" "/researchers/$r/unfollow" "$MD" \
    "$S" "csrf=$c"
for a in "$H" "$MD" "$J"; do
	case_ 200 POST /account/feed-token /account/feed-token "$a" "$S" \
	    "csrf=$c"
done
for a in "$H" "$MD" "$J"; do
	case_ 200 POST /account/keys /account/keys "$a" "$S" \
	    "csrf=$c&name=openapi+key"
done
# The cases run after this script has listed them all: the key to revoke
# is made now, not by the cases above (on a fresh database there would
# be none yet, and the revoke a 400).
post /account/keys -H "Origin: $WEFT_URL" --data-urlencode "csrf=$c" \
    --data-urlencode "name=key to revoke"
kid=$(sql "SELECT max(id) FROM api_keys")
case_ 303 POST /account/keys/revoke /account/keys/revoke "$MD" "$S" \
    "csrf=$c&id=$kid"
# Chat (issue 17): questions from this account, one conversation kept
# for its own page and deleted last (the cases run in this order).
reps 200 /chat /chat "$S"
case_ 401 GET /chat /chat "$J"
q="question=What+do+these+papers+say+about+graph+databases%3F"
case_ 201 POST /chat /chat "$J" "$S" "csrf=$c&$q&scope=all&mode=extractive"
case_ 201 POST /chat /chat "$MD" "$S" \
    "csrf=$c&$q&scope=paper&id=$(sql "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")&mode=extractive"
case_ 303 POST /chat /chat "$H" "$S" "csrf=$c&$q&scope=all&mode=extractive"
case_ 200 POST /chat /chat text/event-stream "$S" \
    "csrf=$c&$q&scope=all&mode=extractive"
case_ 400 POST /chat /chat "$J" "$S" "csrf=$c&question=&scope=all"
case_ 403 POST /chat /chat "$J" "$S" "csrf=bad&$q&scope=all"
post /chat -H "Origin: $WEFT_URL" -H "Accept: application/json" \
    --data "csrf=$c&$q&scope=all&mode=extractive"
conv=$(jq -r '.conversation // empty' "$BODY" 2>/dev/null)
[ -n "$conv" ]
ok $? "a conversation to read back" "$STATUS $(head -c 300 "$BODY")"
reps 200 "/chat/{id}" "/chat/$conv" "$S"
case_ 404 GET "/chat/{id}" /chat/999999999 "$J" "$S"
case_ 404 POST "/chat/{id}/delete" /chat/999999999/delete "$J" "$S" "csrf=$c"
case_ 204 POST "/chat/{id}/delete" "/chat/$conv/delete" "$J" "$S" "csrf=$c"
# Issue 21: the other follow kinds, the digest setting, unsubscribe.
fi_=$(sql "SELECT id FROM institutions ORDER BY id LIMIT 1")
case_ 200 GET "/account/follow/institution/{id}" \
    "/account/follow/institution/$fi_" "$H" "$S"
case_ 404 GET "/account/follow/institution/{id}" \
    /account/follow/institution/999999999 "$H" "$S"
fc_=$(sql "SELECT primary_category FROM papers WHERE primary_category <> ''
    GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
case_ 200 GET "/account/follow/category/{category}" \
    "/account/follow/category/$fc_" "$H" "$S"
case_ 404 GET "/account/follow/category/{category}" \
    /account/follow/category/zz.XX "$H" "$S"
case_ 303 POST /account/follows /account/follows "$J" "$S" \
    "kind=search&q=graph+databases&csrf=$c"
case_ 400 POST /account/follows /account/follows "$J" "$S" \
    "kind=planet&csrf=$c"
case_ 303 POST /account/follows/remove /account/follows/remove "$J" "$S" \
    "kind=search&id=999999999&csrf=$c"
reps 200 /account/follows/new "/account/follows/new?kind=search&q=graph" "$S"
case_ 400 GET /account/follows/new "/account/follows/new?kind=search&q=" \
    "$J" "$S"
case_ 400 POST /account/digest /account/digest "$J" "$S" \
    "digest=hourly&csrf=$c"
case_ 303 POST /account/digest /account/digest "$J" "$S" \
    "digest=weekly&csrf=$c"
# Three unsubscribe tokens (each works once) on three throwaway users.
for a in "$H" "$MD" "$J"; do
	ut=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
	uh=$(/usr/bin/python3 -c 'import hashlib,sys
print(hashlib.blake2b(sys.argv[1].encode(), digest_size=32).hexdigest())' "$ut")
	sql "INSERT INTO users (email, password_hash, email_key, digest,
	         digest_since, digest_token_hash)
	     VALUES ('unsub.$RANDOM.$$@example.org', 'x',
	             'unsub.$RANDOM.$$@example.org', 'daily', now(), '$uh')" \
	    >/dev/null
	case_ 200 GET /account/unsubscribe "/account/unsubscribe?token=$ut" "$a"
	case_ 200 POST /account/unsubscribe "/account/unsubscribe?token=$ut" \
	    "$a" - "List-Unsubscribe=One-Click"
done
case_ 404 POST /account/unsubscribe "/account/unsubscribe?token=x" "$J" - \
    "List-Unsubscribe=One-Click"
# The mail flows (recover.c): links of a second account, unconfirmed.
IFS=$'\t' read -r pre c2 < <(form /signup)
for a in "$J" "$MD"; do
	case_ 200 POST /signup /signup "$a" "$pre" \
	    "email=v$RANDOM$email&password=${pw// /+}&csrf=$c2"
done
keep=$JAR
JAR=$T_TMP/jar.w
get /signup
post /signup -H "Origin: $WEFT_URL" --data-urlencode "email=w$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
# A third account, confirmed, whose reset link is used last.
JAR=$T_TMP/jar.y
signup_verified "y$email" "$pw"
ok $? "a third account"
get /account/forgot
post /account/forgot -H "Origin: $WEFT_URL" --data-urlencode "email=y$email" \
    --data-urlencode "csrf=$(csrf)"
# A fourth, unconfirmed and signed in: its confirmation mail is sent
# again, then it is deleted.
# (three of them: each representation of the deletion needs one).
zs=() czs=()
for i in 1 2 3; do
	JAR=$T_TMP/jar.z$i
	get /signup
	post /signup -H "Origin: $WEFT_URL" --data-urlencode "email=z$i$email" \
	    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
	get /signin
	post /signin -H "Origin: $WEFT_URL" --data-urlencode "email=z$i$email" \
	    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
	zs+=("$(awk '$6 == "weft_session" { print $6 "=" $7 }' "$JAR" | tail -1)")
	get /account
	czs+=("$(csrf)")
	[ -n "${zs[-1]}" ] && [ -n "${czs[-1]}" ]
	ok $? "an unconfirmed account z$i, signed in"
done
Z=${zs[0]} cz=${czs[0]}
JAR=$keep
vlink=$(mail_link "w$email" /account/verify)
ok $? "a confirmation link"
vtok=${vlink##*token=}
reps 200 /account/verify "/account/verify?token=$vtok"
reps 410 /account/verify "/account/verify?token=no-such-token"
IFS=$'\t' read -r pre c2 < <(form "/account/verify?token=$vtok")
case_ 410 POST /account/verify /account/verify "$J" "$pre" \
    "token=no-such-token&password=x&csrf=$c2"
case_ 401 POST /account/verify /account/verify "$J" "$pre" \
    "token=$vtok&password=wrong+password+here&csrf=$c2"
case_ 303 POST /account/verify /account/verify "$H" "$pre" \
    "token=$vtok&password=${pw// /+}&csrf=$c2"
reps 200 /account/forgot /account/forgot
IFS=$'\t' read -r pre c2 < <(form /account/forgot)
for a in "$H" "$MD" "$J"; do
	case_ 200 POST /account/forgot /account/forgot "$a" "$pre" \
	    "email=nobody.$RANDOM@example.org&csrf=$c2"
done
case_ 400 POST /account/forgot /account/forgot "$J" "$pre" "email=nope&csrf=$c2"
rlink=$(mail_link "y$email" /account/reset)
ok $? "a reset link"
rtok=${rlink##*token=}
reps 200 /account/reset "/account/reset?token=$rtok"
reps 410 /account/reset "/account/reset?token=no-such-token"
IFS=$'\t' read -r rpre rc < <(form "/account/reset?token=$rtok")
case_ 410 POST /account/reset /account/reset "$J" "$rpre" \
    "token=no-such-token&password=${pw// /+}&csrf=$rc"
# Signed in, the account's own forms (the session survives these).
case_ 303 POST /account/verify/resend /account/verify/resend "$J" "$S" "csrf=$c"
case_ 303 POST /account/verify/resend /account/verify/resend "$H" "$Z" \
    "csrf=$cz"
i=0
for a in "$H" "$MD" "$J"; do
	case_ 200 POST /account/delete /account/delete "$a" "${zs[$i]}" \
	    "current=${pw// /+}&csrf=${czs[$i]}"
	i=$((i + 1))
done
for a in "$H" "$MD" "$J"; do
	case_ 401 POST /account/password /account/password "$a" "$S" \
	    "current=wrong+one&password=another+long+password&csrf=$c"
	case_ 401 POST /account/delete /account/delete "$a" "$S" \
	    "current=wrong+one&csrf=$c"
done
case_ 400 POST /account/password /account/password "$J" "$S" \
    "current=${pw// /+}&password=short&csrf=$c"
case_ 400 POST /account/sessions/end /account/sessions/end "$J" "$S" \
    "id=abc&csrf=$c"
case_ 303 POST /account/sessions/end /account/sessions/end "$J" "$S" \
    "id=999999999&csrf=$c"
case_ 303 POST /account/sessions/end-others /account/sessions/end-others \
    "$J" "$S" "csrf=$c"
case_ 303 POST /account/password /account/password "$J" "$S" \
    "current=${pw// /+}&password=${pw// /+}+again&csrf=$c"
case_ 303 POST /signout /signout "$J" "$S" "csrf=$c"
# Last: a reset (of the third account) ends every session of it.
case_ 303 POST /account/reset /account/reset "$H" "$rpre" \
    "token=$rtok&password=${pw// /+}+anew&csrf=$rc"
# The MCP server: JSON-RPC over POST; its session header travels in the
# cookie field as "Mcp-Session-Id: ...".  A session for the cases:
mcp_init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"openapi","version":"1"}}}'
post /mcp -H 'Accept: application/json' -H 'Content-Type: application/json' \
    --data-binary "$mcp_init"
msid="Mcp-Session-Id: $(header Mcp-Session-Id)"
case_ 200 POST /mcp /mcp 'application/json, text/event-stream' - "$mcp_init"
case_ 200 POST /mcp /mcp 'text/event-stream' - "$mcp_init"
case_ 200 POST /mcp /mcp "$J" "$msid" \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_paper","arguments":{"id":"2512.20345"}}}'
case_ 200 POST /mcp /mcp "$J" "$msid" \
    '{"jsonrpc":"2.0","id":3,"method":"no/such/method"}'
case_ 202 POST /mcp /mcp "$J" "$msid" \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}'
case_ 400 POST /mcp /mcp "$J" "$msid" '[{"jsonrpc":"2.0","id":4,"method":"ping"}]'
case_ 400 POST /mcp /mcp "$J" "$msid" '{"jsonrpc":"2.0","id":5,"method":'
case_ 400 POST /mcp /mcp "$J" - '{"jsonrpc":"2.0","id":6,"method":"ping"}'
case_ 404 POST /mcp /mcp "$J" "Mcp-Session-Id: not-a-session" \
    '{"jsonrpc":"2.0","id":7,"method":"ping"}'
case_ 406 POST /mcp /mcp "$H" "$msid" '{"jsonrpc":"2.0","id":8,"method":"ping"}'
case_ 415 POST /mcp /mcp "$J" "$msid" 'jsonrpc=2.0'
case_ 400 DELETE /mcp /mcp "$J"
case_ 204 DELETE /mcp /mcp "$J" "$msid"
case_ 404 DELETE /mcp /mcp "$J" "$msid"
# WEFT_OPENAPI_KEEP=FILE keeps the cases, to run the checker again by
# hand on an edited document (the signed-in ones hold a session this
# script has signed out by then):
#   node tests/openapi-responses.js modules/feeds/openapi.json FILE
[ -n "${WEFT_OPENAPI_KEEP:-}" ] && cp "$CASES" "$WEFT_OPENAPI_KEEP"

# ------------------------------------------------------------ the checker
nm=$ROOT/tests/node_modules
if [ ! -d "$nm/ajv" ] || [ ! -d "$nm/ajv-formats" ]; then
	npm ci --prefix "$ROOT/tests" --no-audit --no-fund \
	    >"$T_TMP/npm.log" 2>&1 || sed 's/^/#   /' "$T_TMP/npm.log" | tail -5
fi
get /openapi.json
cp "$BODY" "$T_TMP/openapi.json"
if [ -d "$nm/ajv" ] && [ -d "$nm/ajv-formats" ]; then
	TAP_START=$T_N node "$ROOT/tests/openapi-responses.js" \
	    "$T_TMP/openapi.json" "$CASES" | tee "$T_TMP/tap"
	read -r n f < <(sed -n 's/^# counts //p' "$T_TMP/tap")
	if [ -n "$n" ]; then
		T_N=$n
		T_FAIL=$((T_FAIL + f))
	else
		ok 1 "the checker ran to the end"
	fi
else
	skip "npm could not install ajv (offline?)"
fi
done_testing
