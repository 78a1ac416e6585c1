#!/bin/bash
# t_chat_retrieval.sh -- chat with the papers (issue 17), what t_chat.sh
# leaves out: retrieval is hybrid (a question worded unlike the paper
# still finds it through the semantic index), every scope in markdown,
# JSON and the HTML form, CSRF and Origin on delete, the global and the
# daily token quotas, and a deleted paper or researcher answered 404
# with nothing written, without an LLM as with one.
. "$(dirname "$0")/lib.sh"
redis() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
turns() { sql "SELECT count(*) FROM chat_turns"; }
unquota() { redis --scan --pattern 'weft:chat:[mgt]:*' | while read -r k; do
	redis DEL "$k" >/dev/null; done; }
EVIL=2401.00777
RGONE=987654321
cleanup() {
	sql "DELETE FROM papers WHERE arxiv_id = '$EVIL'" >/dev/null 2>&1
	unquota
	rm -rf "$T_TMP"
}
trap cleanup EXIT

email="chat-r-$$-$RANDOM@example.org"
signup_verified "$email" "correct horse battery staple 3"
ok $? "a new user signs up"
UID_=$(sql "SELECT id FROM users WHERE lower(email) = lower('$email')")
get /chat -H 'Accept: application/json'
CSRF=$(jq -r .csrf "$BODY")
ask() { # ask ACCEPT [curl args]
	local a=$1
	shift
	unquota
	post /chat -H "Accept: $a" -H "Origin: $WEFT_URL" \
	    --data-urlencode "csrf=$CSRF" "$@"
}

# ---------------------------------------------------------- hybrid
# A question that shares no word with a paper (full text cannot find
# it) but is about what the paper is about: the semantic index finds
# it, and the hybrid ranking puts it among the references.  The scope
# is a researcher of the bundled data with nine papers, none of which
# has a word of the question: by full text alone they would come newest
# first, and this paper, the sixth oldest, would not be among the six.
PAPER=2506.04405 # MedAgentGym: ... Code-Based Medical Reasoning
QUESTION='Anything on hospitals and doctors?'
RID=$(sql "SELECT a.researcher_id FROM authorships a JOIN papers p
    ON p.id = a.paper_id WHERE p.arxiv_id = '$PAPER'
    AND a.researcher_id IN (SELECT b.researcher_id FROM authorships b
    JOIN papers q ON q.id = b.paper_id WHERE q.arxiv_id = '2602.01511')
    ORDER BY (SELECT count(*) FROM authorships c
              WHERE c.researcher_id = a.researcher_id), 1 LIMIT 1")
if [ "$(sql "SELECT count(*) FROM vector_index")" -gt 0 ] && [ -n "$RID" ]; then
	words="replace(plainto_tsquery('english', \$q\$$QUESTION\$q\$)::text,
	    '&', '|')::tsquery"
	[ "$(sql "SELECT count(*) FROM papers p JOIN authorships a
	    ON a.paper_id = p.id WHERE a.researcher_id = $RID
	    AND p.search_vector @@ $words")" = 0 ]
	ok $? "no paper of researcher $RID has a word of the question"
	[ "$(sql "SELECT count(*) FROM papers p JOIN authorships a
	    ON a.paper_id = p.id WHERE a.researcher_id = $RID AND p.published >
	    (SELECT published FROM papers WHERE arxiv_id = '$PAPER')")" -ge 6 ]
	ok $? "... and six of them are newer than $PAPER"
	ask application/json --data-urlencode "question=$QUESTION" \
	    --data-urlencode scope=researcher --data-urlencode "id=$RID" \
	    --data-urlencode mode=extractive
	is_status 201 "a question worded unlike the papers"
	json_is "[.references[].arxiv_id] | index(\"$PAPER\") != null" \
	    true "... finds $PAPER through the semantic index"
	grep 'scope=researcher' "$WEFT_VAR/log/chat.log" | tail -1 |
	    grep -q 'retrieve_ms='
	ok $? "the chat log says how long retrieval took"
else
	skip "no semantic index (weft-vectors build) or no such researcher"
fi

# ------------------------------------- every scope, every representation
PAPER1=$(sql "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")
RID1=$(sql "SELECT researcher_id FROM authorships WHERE researcher_id IS NOT NULL
    ORDER BY researcher_id LIMIT 1")
sql "INSERT INTO follows (user_id, researcher_id) VALUES ($UID_, $RID1)
    ON CONFLICT DO NOTHING" >/dev/null
for scope in paper researcher followed search all; do
	case $scope in
	paper) id=$PAPER1 ;;
	researcher) id=$RID1 ;;
	search) id=software ;;
	*) id= ;;
	esac
	ask text/markdown --data-urlencode "question=What methods do they use?" \
	    --data-urlencode scope=$scope --data-urlencode "id=$id" \
	    --data-urlencode mode=extractive
	is_status 201 "$scope, markdown: 201"
	body_has "References:" "$scope, markdown: with its references"
	grep -q '(/papers/[0-9]' "$BODY"
	ok $? "$scope, markdown: linked to /papers/{id}-{slug}"
	ask application/json --data-urlencode "question=What methods do they use?" \
	    --data-urlencode scope=$scope --data-urlencode "id=$id" \
	    --data-urlencode mode=extractive
	is_status 201 "$scope, JSON: 201"
	json_is ".scope.kind" $scope "$scope, JSON: the scope recorded"
	json_is '.references | length > 0' true "$scope, JSON: references"
	# The HTML form without JavaScript: 303 to the conversation, which
	# shows the answer.
	ask text/html --data-urlencode "question=What methods do they use?" \
	    --data-urlencode scope=$scope --data-urlencode "id=$id" \
	    --data-urlencode mode=extractive
	is_status 303 "$scope, HTML form: 303"
	loc=$(header Location)
	[[ "$loc" =~ /chat/[0-9]+$ ]]
	ok $? "$scope, HTML form: to the conversation ($loc)"
	get "${loc#"$WEFT_URL"}"
	is_status 200 "$scope, HTML: the conversation page"
	body_has 'class="chat-answer"' "$scope, HTML: with the answer"
	body_has 'href="/papers/' "$scope, HTML: and its references"
done

# ------------------------------------------------ CSRF and Origin: delete
ask application/json --data-urlencode "question=x" --data-urlencode scope=all \
    --data-urlencode mode=extractive
CONV=$(jq -r .conversation "$BODY")
post "/chat/$CONV/delete" -H 'Accept: application/json' -H "Origin: $WEFT_URL" \
    --data-urlencode confirm=1
is_status 403 "delete without the CSRF token: 403"
post "/chat/$CONV/delete" -H 'Accept: application/json' \
    -H 'Origin: https://evil.example' --data-urlencode "csrf=$CSRF"
is_status 403 "delete from another origin: 403"
get "/chat/$CONV" -H 'Accept: application/json'
is_status 200 "... the conversation is still there"

# ------------------------------------------------------------ quotas
n0=$(turns)
minute=$(( $(date +%s) / 60 ))
day=$(( $(date +%s) / 86400 ))
unquota
for m in $minute $((minute + 1)); do
	redis SET "weft:chat:g:$m" 1000000 EX 180 >/dev/null
done
post /chat -H 'Accept: application/json' -H "Origin: $WEFT_URL" \
    --data-urlencode "csrf=$CSRF" --data-urlencode question=x
is_status 429 "over the questions all users may ask a minute: 429"
[ -n "$(header Retry-After)" ]
ok $? "... with Retry-After"
unquota
redis SET "weft:chat:t:$UID_:$day" 1000000000 EX 600 >/dev/null
redis SET "weft:chat:t:$UID_:$((day + 1))" 1000000000 EX 600 >/dev/null
post /chat -H 'Accept: application/json' -H "Origin: $WEFT_URL" \
    --data-urlencode "csrf=$CSRF" --data-urlencode question=x
is_status 429 "over the tokens a user may spend a day: 429"
ra=$(header Retry-After)
[ -n "$ra" ] && [ "$ra" -gt 0 ] && [ "$ra" -le 86400 ]
ok $? "... with Retry-After up to the end of the day ($ra)"
unquota
[ "$(turns)" = "$n0" ]
ok $? "nothing written over quota"

# ------------------------------------------- deleted paper and researcher
sql "INSERT INTO papers (arxiv_id, title, abstract, primary_category, slug,
    source) VALUES ('$EVIL', 'A paper soon gone', 'It will be withdrawn.',
    'cs.CL', 'a-paper-soon-gone', 'test') ON CONFLICT DO NOTHING" >/dev/null
ask application/json --data-urlencode "question=What is it?" \
    --data-urlencode scope=paper --data-urlencode "id=$EVIL" \
    --data-urlencode mode=extractive
is_status 201 "a paper that is here: 201"
sql "DELETE FROM papers WHERE arxiv_id = '$EVIL'" >/dev/null
n1=$(turns)
ask application/json --data-urlencode "question=What is it?" \
    --data-urlencode scope=paper --data-urlencode "id=$EVIL" \
    --data-urlencode mode=extractive
is_status 404 "the same paper deleted: 404"
json_is '.error.message | test("no paper")' true "... with a clear message"
ask application/json --data-urlencode "question=What is it?" \
    --data-urlencode scope=researcher --data-urlencode "id=$RGONE"
is_status 404 "a researcher weft does not have: 404"
[ "$(turns)" = "$n1" ]
ok $? "nothing written for them"
done_testing
