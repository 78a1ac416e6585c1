# shellcheck shell=bash
# tests/integration/lib.sh -- TAP helpers for the integration tests, which
# talk HTTP to the real nginx started by tests/run.sh.  Source it:
#
#   . "$(dirname "$0")/lib.sh"
#   get /papers/2512.20345 -H 'Accept: text/markdown'
#   is_status 301 "bare id redirects"
#   header_is Location "$WEFT_URL/papers/2512.20345-a-comprehensive-..." "..."
#   body_has '# A Comprehensive Study' "markdown title"
#   done_testing
#
# After get/post: $STATUS, $HDRS (headers file, lower-cased names),
# $BODY (body file).  $WEFT_URL is the site, e.g. http://127.0.0.1:8091.

: "${WEFT_URL:?WEFT_URL must be set (tests/run.sh sets it)}"
T_N=0
T_FAIL=0
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT
HDRS=$T_TMP/headers
BODY=$T_TMP/body
JAR=$T_TMP/cookies

ok() {
	T_N=$((T_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $T_N - $2"
	else
		T_FAIL=$((T_FAIL + 1))
		echo "not ok $T_N - $2"
		[ -n "${3:-}" ] && printf '#   %s\n' "$3"
	fi
	return 0
}
# skip WHY: a check that cannot run here, as a TAP skip.
skip() { T_N=$((T_N + 1)); echo "ok $T_N # SKIP $1"; }

# request METHOD PATH [curl args...]: raw request, no redirects followed.
request() {
	local method=$1 path=$2
	shift 2
	: >"$BODY"
	STATUS=$(curl -s -g -o "$BODY" -D "$T_TMP/raw" -w '%{http_code}' \
	    --max-time 20 -X "$method" -b "$JAR" -c "$JAR" "$@" \
	    "$WEFT_URL$path") || STATUS=000
	tr -d '\r' <"$T_TMP/raw" | awk -F': ' 'NR>1 && NF>1 {
	    printf "%s: %s\n", tolower($1), substr($0, length($1) + 3) }' >"$HDRS"
}
get() { request GET "$@"; }
head_() { request HEAD "$1" -I "${@:2}"; : >"$BODY"; }
post() { request POST "$@"; }

# Every value of a response header, one a line (Link comes several times).
headers() { awk -v n="$(echo "$1" | tr 'A-Z' 'a-z')" -F': ' \
    '$1 == n { print substr($0, length($1) + 3) }' "$HDRS"; }
# The value of a response header (first one), "" when absent.
header() { awk -v n="$(echo "$1" | tr 'A-Z' 'a-z')" -F': ' \
    '$1 == n { print substr($0, length($1) + 3); exit }' "$HDRS"; }

is_status() {
	[ "$STATUS" = "$1" ]
	ok $? "$2" "status $STATUS, want $1"
}
header_is() {
	local v
	v=$(header "$1")
	[ "$v" = "$2" ]
	ok $? "$3" "$1: '$v', want '$2'"
}
header_has() {
	local v
	v=$(header "$1")
	case "$v" in *"$2"*) ok 0 "$3" ;; *) ok 1 "$3" "$1: '$v' lacks '$2'" ;; esac
}
header_absent() {
	[ -z "$(header "$1")" ]
	ok $? "$2" "$1 present: $(header "$1")"
}
body_has() {
	grep -qF -- "$1" "$BODY"
	ok $? "$2" "body lacks '$1': $(head -c 300 "$BODY")"
}
body_lacks() {
	! grep -qF -- "$1" "$BODY"
	ok $? "$2" "body has '$1'"
}
body_empty() {
	[ ! -s "$BODY" ]
	ok $? "$1" "body not empty"
}
# json_is JQ-FILTER EXPECTED NAME: jq -r on the body.
json_is() {
	local v
	v=$(jq -r "$1" "$BODY" 2>/dev/null)
	[ "$v" = "$2" ]
	ok $? "$3" "jq '$1' gave '$v', want '$2'"
}
# The status is a 4xx (never 5xx).
is_4xx() {
	case "$STATUS" in 4??) ok 0 "$1" ;; *) ok 1 "$1" "status $STATUS" ;; esac
}
# After a test writes to the database directly: make cached pages stale
# (the generation writers bump) and wait out the workers' 1 s memo of it.
data_changed() {
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null
	sleep 1.1
}
# psql against the test stack's database.
sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "$1"; }
# A command as the postgres user (through sudo when not root), from a
# directory it can enter.
aspg() {
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	(cd /tmp && $sudo runuser -u postgres -- "$@")
}

# npm_ready PATH...: 0 when each PATH under tests/node_modules exists,
# after one `npm ci` of tests/ (the versions its lockfile pins) when one
# is missing; 1 when npm could not install them (offline).
npm_ready() {
	local nm p
	nm=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules
	for p in "$@"; do
		[ -e "$nm/$p" ] && continue
		command -v npm >/dev/null && npm ci --prefix "${nm%/*}" \
		    --no-audit --no-fund >"$T_TMP/npm.log" 2>&1
		break
	done
	for p in "$@"; do
		[ -e "$nm/$p" ] || return 1
	done
}

done_testing() {
	echo "1..$T_N"
	[ "$T_FAIL" = 0 ]
}

# ---------------------------------------------------------------- mail
# conf/local.sh runs an SMTP server that keeps every message it receives
# in the maildir $WEFT_VAR/mail.

# mail_body ADDR: the Subject line and decoded text of the newest message
# to ADDR (any case), waiting up to 5 s for it; 1 when there is none.
mail_body() {
	local _
	for _ in $(seq 50); do
		/usr/bin/python3 - "$WEFT_VAR/mail" "$1" <<'PY' && return 0
import email, email.policy, os, sys
d, to = sys.argv[1], sys.argv[2].lower()
best = None
for sub in ("new", "cur"):
    p = os.path.join(d, sub)
    for f in (os.listdir(p) if os.path.isdir(p) else []):
        fp = os.path.join(p, f)
        with open(fp, "rb") as fh:
            m = email.message_from_binary_file(fh, policy=email.policy.default)
        if str(m["To"] or "").lower() == to:
            k = (os.stat(fp).st_mtime_ns, f)
            if best is None or k > best[0]:
                best = (k, m)
if best is None:
    sys.exit(1)
print("Subject: " + str(best[1]["Subject"]))
print(best[1].get_content())
PY
		sleep 0.1
	done
	return 1
}
# mail_count ADDR: how many messages ADDR (any case) received.
mail_count() {
	/usr/bin/python3 - "$WEFT_VAR/mail" "$1" <<'PY'
import email, email.policy, os, sys
d, to = sys.argv[1], sys.argv[2].lower()
n = 0
for sub in ("new", "cur"):
    p = os.path.join(d, sub)
    for f in (os.listdir(p) if os.path.isdir(p) else []):
        with open(os.path.join(p, f), "rb") as fh:
            m = email.message_from_binary_file(fh, policy=email.policy.default)
        n += str(m["To"] or "").lower() == to
print(n)
PY
}
# mail_link ADDR PATH: the link to PATH?token=... in ADDR's newest message.
mail_link() {
	mail_body "$1" | grep -o "https\?://[^/ ]*$2?token=[A-Za-z0-9_-]*" | tail -1 |
	    grep .
}
# The CSRF token of the last page's first form.
form_csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
# signup_verified EMAIL PASSWORD: signs up in the current cookie jar,
# follows the verification link from the mail and confirms it with the
# password: signed in afterwards.  0 on success.  The forms carry
# Origin: $WEFT_ORIGIN when set (a probe pinned to one host), else
# $WEFT_URL.
signup_verified() {
	local link origin=${WEFT_ORIGIN:-$WEFT_URL}
	get /signup
	post /signup -H "Origin: $origin" --data-urlencode "email=$1" \
	    --data-urlencode "password=$2" --data-urlencode "csrf=$(form_csrf)"
	[ "$STATUS" = 200 ] || return 1
	link=$(mail_link "$(echo "$1" | sed 's/^ *//; s/ *$//')" \
	    /account/verify) || return 1
	get "/${link#*://*/}"
	[ "$STATUS" = 200 ] || return 1
	post /account/verify -H "Origin: $origin" \
	    --data-urlencode "token=${link##*token=}" \
	    --data-urlencode "password=$2" --data-urlencode "csrf=$(form_csrf)"
	[ "$STATUS" = 303 ]
}

# ---------------------------------------------------------------- fake LLM
# tests/fakellm/server.py, an OpenAI-compatible endpoint with failure
# modes.  fakellm_start [PORT]: starts it (default $WEFT_FAKELLM_PORT or
# 8095) unless one already answers there, waits for /health and sets
# $FAKELLM_URL (http://127.0.0.1:PORT, the API under /v1).  fakellm_stop
# stops only a server fakellm_start started.  1 when it does not come up.
fakellm_start() {
	local port=${1:-${WEFT_FAKELLM_PORT:-8095}} _
	FAKELLM_URL=http://127.0.0.1:$port
	curl -fs "$FAKELLM_URL/health" >/dev/null 2>&1 && return 0
	python3 "${WEFT_ROOT:-.}/tests/fakellm/server.py" --port "$port" \
	    >/dev/null 2>&1 &
	FAKELLM_PID=$!
	for _ in $(seq 50); do
		curl -fs "$FAKELLM_URL/health" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
fakellm_stop() {
	[ -n "${FAKELLM_PID:-}" ] && kill "$FAKELLM_PID" 2>/dev/null
	FAKELLM_PID=
}
