#!/bin/bash
# tests/attack/sqlmap.sh -- sqlmap (Debian package, conf/local.sh
# installs it) against every endpoint with parameters, level 3 / risk 2,
# batch mode, one thread, every parameter tested (no --smart).  Slow
# (minutes per endpoint): run by hand against a stack of your own, not
# part of `make test`:
#
#   WEFT_NGINX_CACHE=off conf/local.sh up --var var/h-attack --port 8089 \
#       --build build-h-attack-san
#   WEFT_URL=http://127.0.0.1:8089 WEFT_VAR=var/h-attack \
#       tests/attack/sqlmap.sh [OUTDIR [NAME...]]
#
# NAMEs pick targets (default: all); SQLMAP_PARAMS=a,b tests only those
# parameters of them (to finish an endpoint that was cut short).  SQLMAP_LEVEL, SQLMAP_RISK and
# SQLMAP_DBMS override 3, 2 and PostgreSQL (the database behind every
# endpoint: naming it spares the payloads of other DBMSes, not those of
# PostgreSQL; SQLMAP_DBMS= tests them all).  SQLMAP_BUDGET (seconds, default
# 3600) bounds the whole run: each endpoint gets the time left divided by
# the endpoints left, so the run ends in time and a slow endpoint shows
# "stopped at the limit" with the parameters it finished.
# WEFT_VAR is the stack's var directory: the script reads ids from its
# PostgreSQL, signs up an account for the signed-in endpoints (follow,
# unfollow, /account, /feed, the feed token), and empties its Redis
# before every request (sqlmap --eval) so that the sign-in/sign-up rate
# limits do not answer sqlmap's payloads with 429 before the SQL is
# reached, and no cached page hides the application's answer.
# The forms (sign-in, sign-up, follow, unfollow, the feed token) are sent
# with a fixed cookie and the CSRF token that goes with it, so sqlmap
# reaches the handlers.  Cookies are tested wherever one is sent; the
# User-Agent and Referer headers (level 3) on one endpoint per module
# (/, /rss/latest.xml, /signin) and skipped elsewhere to bound the time.
# A full run takes about an hour on this machine (tests/attack/README.md
# has the figures); `make test` runs six of the endpoints
# (tests/integration/t_attack_sqlmap.sh, about a minute).
# Prints one line per endpoint: its time, the parameters sqlmap found
# clean, and the verdict ("no injection" or what it found), with
# the requests nginx logged for it, how many were answered 429 and how
# many 5xx; exits 1 if any is injectable or answered a 5xx, 2 if any
# endpoint was not tested to the end.
set -u
: "${WEFT_URL:?WEFT_URL must be set}"
: "${WEFT_VAR:?WEFT_VAR must be set (the stack var directory)}"
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/weft-sqlmap.XXXXXX")}
[ $# -gt 0 ] && shift
only=" $* "
level=${SQLMAP_LEVEL:-3}
risk=${SQLMAP_RISK:-2}
dbms=${SQLMAP_DBMS-PostgreSQL}
budget=${SQLMAP_BUDGET:-3600}
mkdir -p "$out"
WEFT_VAR=$(cd "$WEFT_VAR" && pwd)
psql=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc)
q() { "${psql[@]}" "$1" 2>/dev/null; }
rnum=$(q "SELECT id FROM researchers ORDER BY paper_count DESC LIMIT 1")
rid=$(q "SELECT id || '-' || slug FROM researchers WHERE id = ${rnum:-1}")
aid=$(q "SELECT arxiv_id || '-' || slug FROM papers ORDER BY id LIMIT 1")
bare=${aid%%-*}
cat=$(q "SELECT primary_category FROM papers GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
inum=$(q "SELECT id FROM institutions ORDER BY id LIMIT 1")
iid=$(q "SELECT id || '-' || slug FROM institutions WHERE id = ${inum:-1}")
if [ -z "$rnum" ] || [ -z "$aid" ] || [ -z "$inum" ]; then
	echo "sqlmap.sh: no data in $WEFT_VAR's database" >&2
	exit 2
fi

# A signed-in session: sign up a fresh account with curl.
jar=$out/jar
email="sqlmap-$(date +%s)-$$@example.org"
pw=sqlmap-pass-$$-0123
csrf_of() { grep -o 'name="csrf" value="[0-9a-f]*"' | head -1 | sed 's/.*value="//; s/"$//'; }
c=$(curl -s -c "$jar" -b "$jar" "$WEFT_URL/signup" | csrf_of)
curl -s -o /dev/null -c "$jar" -b "$jar" -H "Origin: $WEFT_URL" \
    --data-urlencode "email=$email" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$c" "$WEFT_URL/signup"
# Sign-up signs nobody in: the address is verified from the mail that
# conf/local.sh's SMTP server keeps in $WEFT_VAR/mail.
tok=
for _ in $(seq 50); do
	tok=$(/usr/bin/python3 - "$WEFT_VAR/mail" "$email" <<'PY'
import email, email.policy, os, re, sys
d, to = sys.argv[1], sys.argv[2]
for sub in ("new", "cur"):
    p = os.path.join(d, sub)
    for f in (os.listdir(p) if os.path.isdir(p) else []):
        with open(os.path.join(p, f), "rb") as fh:
            m = email.message_from_binary_file(fh, policy=email.policy.default)
        if str(m["To"]) == to:
            print(re.findall(r"verify\?token=([A-Za-z0-9_-]+)", m.get_content())[-1])
PY
	) && [ -n "$tok" ] && break
	sleep 0.1
done
c=$(curl -s -c "$jar" -b "$jar" "$WEFT_URL/account/verify?token=$tok" | csrf_of)
curl -s -o /dev/null -c "$jar" -b "$jar" -H "Origin: $WEFT_URL" \
    --data-urlencode "token=$tok" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$c" "$WEFT_URL/account/verify"
sess=$(awk '$6 == "weft_session" { print $7 }' "$jar" | tail -1)
if [ -z "$sess" ]; then
	echo "sqlmap.sh: could not sign up $email" >&2
	exit 2
fi
ck="weft_session=$sess"
# The signed-in forms' CSRF token (it follows from the session, so it
# stays valid for every request sqlmap makes with that cookie).
scsrf=$(curl -s -b "$jar" "$WEFT_URL/account" | csrf_of)
# A signed-out visitor's pre-session cookie and the token of its forms,
# from a fresh cookie jar for each form (presession NAME: sets pck, pcsrf).
presession() {
	local pjar=$out/pjar-$1
	rm -f "$pjar"
	pcsrf=$(curl -s -c "$pjar" -b "$pjar" "$WEFT_URL/$1" | csrf_of)
	pck=$(awk '$6 == "weft_presession" { print $6 "=" $7 }' "$pjar" | tail -1)
	if [ -z "$pcsrf" ] || [ -z "$pck" ]; then
		echo "sqlmap.sh: no CSRF token or pre-session cookie on /$1" >&2
		exit 2
	fi
}
presession signin
in_ck=$pck in_csrf=$pcsrf
presession signup
up_ck=$pck up_csrf=$pcsrf
if [ -z "$scsrf" ]; then
	echo "sqlmap.sh: no CSRF token on /account" >&2
	exit 2
fi
# The private feed's token is shown once, after it is made.
c=$(curl -s -b "$jar" "$WEFT_URL/account" | csrf_of)
token=$(curl -s -L -b "$jar" -c "$jar" -H "Origin: $WEFT_URL" \
    --data-urlencode "csrf=$c" "$WEFT_URL/account/feed-token" |
    grep -o '/rss/feed/[0-9A-Za-z_-]*\.xml' | head -1)
token=${token#/rss/feed/}
token=${token%.xml}

# Empties Redis before each request (see the header).
redis_sock=$WEFT_VAR/redis/redis.sock
flush="import socket; s = socket.socket(socket.AF_UNIX); s.connect('$redis_sock'); s.sendall(b'FLUSHDB\\r\\n'); s.recv(64); s.close()"
# The forms: a fixed cookie and its token, kept whatever the answers set
# (a wrong password is a 401, which sqlmap would otherwise stop at).
# /signin and /signup are rate limited by nginx per address (600/min in
# the local configuration, then 429): sqlmap waits between their requests
# so that every payload reaches the handler -- 0.22 s where it also
# fetches the form for its token (--csrf-token/--csrf-url: two requests
# a payload), 0.11 s otherwise.  The 429s of each endpoint are counted
# from the access log and printed, so a run that hit the limit shows.
post=("--headers=Origin:$WEFT_URL" --drop-set-cookie --ignore-code=401)
# shellcheck disable=SC2054 # one option whose value is a comma list
noh=(--skip=user-agent,referer)

# Each target: a name and sqlmap arguments.  '*' marks a path injection
# point (sqlmap's custom injection marker).
targets=(
	"search-papers|-u $WEFT_URL/search?q=dark+matter&type=papers&mode=hybrid&sort=newest&category=$cat&from=2015&to=2025&researcher=$rnum&institution=$inum&page=1"
	"search-page|-u $WEFT_URL/search?q=dark+matter&type=papers&page=2 -p page"
	"search-names|-u $WEFT_URL/search?q=smith&type=researchers&page=1"
	"home-headers|-u $WEFT_URL/?format=html --cookie=weft_session=x -p user-agent,referer,weft_session,format"
	"paper|-u $WEFT_URL/papers/$aid?format=json"
	"paper-path|-u $WEFT_URL/papers/$bare*"
	"similar|-u $WEFT_URL/papers/$aid/similar?format=json&page=1"
	"similar-path|-u $WEFT_URL/papers/$bare*/similar"
	"researcher|-u $WEFT_URL/researchers/$rid?category=$cat&sort=newest&page=1&format=json"
	"researcher-path|-u $WEFT_URL/researchers/$rnum*"
	"researchers|-u $WEFT_URL/researchers?page=2&format=json"
	"institution|-u $WEFT_URL/institutions/$iid?page=1&format=json"
	"institution-path|-u $WEFT_URL/institutions/$inum*"
	"institutions|-u $WEFT_URL/institutions?page=2&format=json"
	"rss-latest|-u $WEFT_URL/rss/latest.xml?format=rss -p user-agent,referer,format"
	"rss-category|-u $WEFT_URL/rss/categories/$cat*.xml"
	"rss-researcher|-u $WEFT_URL/rss/researchers/$rnum*.xml"
	"rss-institution|-u $WEFT_URL/rss/institutions/$inum*.xml"
	"rss-private|-u $WEFT_URL/rss/feed/${token:-0123abcd}*.xml"
	"sitemap|-u $WEFT_URL/sitemaps/papers-1*.xml"
	"signin-get|-u $WEFT_URL/signin?next=%2Fresearchers --cookie=weft_session=x -p user-agent,referer,weft_session,next"
	"signin|-u $WEFT_URL/signin --data=email=a%40example.org&password=0123456789ab&csrf=$in_csrf&next=%2F --cookie=$in_ck --csrf-token=csrf --csrf-url=$WEFT_URL/signin ${post[*]} --delay=0.22"
	"signin-csrf|-u $WEFT_URL/signin --data=email=a%40example.org&password=0123456789ab&csrf=$in_csrf&next=%2F --cookie=$in_ck -p csrf ${post[*]} --delay=0.11"
	"signup|-u $WEFT_URL/signup --data=email=b%40example.org&password=0123456789ab&csrf=$up_csrf&next=%2F --cookie=$up_ck --csrf-token=csrf --csrf-url=$WEFT_URL/signup ${post[*]} --delay=0.22"
	"signup-csrf|-u $WEFT_URL/signup --data=email=b%40example.org&password=0123456789ab&csrf=$up_csrf&next=%2F --cookie=$up_ck -p csrf ${post[*]} --delay=0.11"
	"follow|-u $WEFT_URL/researchers/$rnum/follow --data=csrf=$scsrf&next=%2Fresearchers%2F$rid --cookie=$ck ${post[*]}"
	"unfollow|-u $WEFT_URL/researchers/$rnum/unfollow --data=csrf=$scsrf&next=%2Fresearchers%2F$rid --cookie=$ck ${post[*]}"
	"follow-path|-u $WEFT_URL/researchers/$rnum*/follow --data=csrf=$scsrf --cookie=$ck ${post[*]} -p #1*"
	"feed-token|-u $WEFT_URL/account/feed-token --data=csrf=$scsrf --cookie=$ck ${post[*]}"
	"account|-u $WEFT_URL/account?field=$cat&q=smith&next=%2F --cookie=$ck -p field,q,next,weft_session"
	"feed|-u $WEFT_URL/feed?page=1&format=json --cookie=$ck -p page,format"
	"follow-fragment|-u $WEFT_URL/account/follow/$rnum* --cookie=$ck"
)
picked() { case "$only" in "  ") ;; *" $1 "*) ;; *) false ;; esac; }
left=0
for t in "${targets[@]}"; do picked "${t%%|*}" && left=$((left + 1)); done
end=$(($(date +%s) + budget))
alog=$WEFT_VAR/log/nginx-access.log
alines() { if [ -f "$alog" ]; then wc -l <"$alog"; else echo 0; fi; }
# status_count FROM CODE-REGEX: access-log lines after line FROM whose
# status matches.
status_count() {
	tail -n +"$(($1 + 1))" "$alog" 2>/dev/null |
	    grep -cE "\"status\":($2)[,}]"
}
treq=0 t429=0 t5xx=0
bad=0
incomplete=0
for t in "${targets[@]}"; do
	name=${t%%|*}
	args=${t#*|}
	picked "$name" || continue
	log=$out/$name.log
	extra=()
	case "$args" in *" -p "*) ;; *) extra=("${noh[@]}") ;; esac
	# SQLMAP_PARAMS: test only these (to finish an endpoint cut short).
	[ -n "${SQLMAP_PARAMS:-}" ] && extra=(-p "$SQLMAP_PARAMS")
	[ -n "$dbms" ] && extra+=("--dbms=$dbms")
	start=$(date +%s)
	from=$(alines)
	limit=$(((end - start) / left))
	[ "$limit" -ge 10 ] || limit=10
	left=$((left - 1))
	# shellcheck disable=SC2086 # the target's arguments are words
	timeout "$limit" sqlmap --batch --level "$level" --risk "$risk" \
	    --flush-session --time-sec 2 --threads 1 --output-dir "$out/$name" \
	    --disable-coloring --eval "$flush" "${extra[@]}" $args \
	    >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	nreq=$(($(alines) - from))
	n429=$(status_count "$from" 429)
	n5xx=$(status_count "$from" '5[0-9][0-9]')
	treq=$((treq + nreq)) t429=$((t429 + n429)) t5xx=$((t5xx + n5xx))
	clean=$(sed -n "s/.*parameter '\([^']*\)' does not seem to be injectable.*/\1/p" \
	    "$log" | sort -u | paste -sd, -)
	if grep -qE 'sqlmap identified the following injection point|is vulnerable' "$log"; then
		verdict="INJECTION FOUND (see $log)"
		bad=1
	elif grep -qE 'all tested parameters do not appear to be injectable' "$log"; then
		verdict="no injection"
	elif [ "$rc" = 124 ]; then
		verdict="stopped at the ${limit}s limit, none found so far"
		incomplete=1
	else
		verdict="inconclusive (rc $rc): $(grep -E '^\[[0-9:]+\] \[(CRITICAL|ERROR)\]' "$log" | tail -1)"
		incomplete=1
	fi
	printf '%-17s %5ss %6s req %4s 429 %3s 5xx  %s  [clean: %s]\n' \
	    "$name" "$secs" "$nreq" "$n429" "$n5xx" "$verdict" "${clean:-none}"
	[ "$n5xx" -eq 0 ] || bad=1
done
echo "total: $treq requests, $t429 answered 429, $t5xx 5xx; logs in $out"
[ "$bad" = 1 ] && exit 1
[ "$incomplete" = 1 ] && exit 2
exit 0
