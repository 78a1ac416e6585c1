#!/bin/bash
# t_privsep.sh -- one system user and one PostgreSQL role per pool
# (issue 20, item 9; sql/schema/0017_roles.sql, weftd's user.<module>):
# the pages worker's role cannot read users, sessions, follows or feed
# tokens, nor write anything; feeds reads of the personal tables only
# what the private feed needs; accounts alone writes them; each pool
# runs as its own user; the sockets are 0660, the pool's user and
# nginx's group, and a pool cannot connect to another pool's socket.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}" "${WEFT_ROOT:?WEFT_ROOT must be set}"

modules="pages accounts feeds"
# as ROLE SQL: runs SQL as ROLE (the test cluster trusts local roles);
# prints the output and error, fails as psql does.
as() { psql -h "$WEFT_VAR/pg/run" -U "$1" -d weft -v ON_ERROR_STOP=1 \
    -Atqc "$2" 2>&1; }
denied() { # ROLE SQL WHAT
	local out
	out=$(as "$1" "$2")
	case "$out" in *"permission denied"*) ok 0 "$3" ;;
	*) ok 1 "$3" "$2 as $1: $out" ;; esac
}
allowed() { # ROLE SQL WHAT
	local out
	out=$(as "$1" "$2")
	ok $? "$3" "$2 as $1: $out"
}

# ---------------------------------------------------------------- roles
for m in $modules; do
	[ "$(sql "SELECT rolcanlogin AND NOT rolsuper AND NOT rolcreaterole
	    AND NOT rolcreatedb FROM pg_roles WHERE rolname = 'weft-$m'")" = t ]
	ok $? "role weft-$m: may log in, nothing more"
done
# The workers are connected, each pool as its own role (a request to
# each first, so that every pool has opened its connections).
for p in / /signin /rss/latest.xml; do get "$p"; done
# chat reads the database for a well-formed session cookie only (an
# unknown one: a 303, after the lookup).
fake=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
curl -s -o /dev/null -b "weft_session=$fake" "$WEFT_URL/chat"
conn=$(sql "SELECT string_agg(DISTINCT usename, ' ' ORDER BY usename)
    FROM pg_stat_activity WHERE datname = 'weft' AND usename LIKE 'weft-%'")
[ "$conn" = "weft-accounts weft-chat weft-feeds weft-pages" ]
ok $? "each pool is connected as its own role ($conn)"
# Again, but rolled back: applied for good, it would hide a leak below.
out=$( { echo "BEGIN;"; cat "$WEFT_ROOT/sql/schema/0017_roles.sql"
    echo "ROLLBACK;"; } | psql -h "$WEFT_VAR/pg/run" -U weft -d weft \
    -v ON_ERROR_STOP=1 -q -f - 2>&1)
ok $? "0017_roles.sql can be applied again" "$out"

# ---------------------------------------------------------------- pages
for t in users sessions follows feed_tokens; do
	denied weft-pages "SELECT count(*) FROM $t" "pages cannot read $t"
done
denied weft-pages "SELECT password_hash FROM users LIMIT 1" \
    "pages cannot read password hashes"
denied weft-pages "SELECT token_hash FROM sessions LIMIT 1" \
    "pages cannot read session hashes"
allowed weft-pages "SELECT count(*) FROM papers" "pages reads papers"
allowed weft-pages "SELECT count(*) FROM researchers" \
    "pages reads researchers"
denied weft-pages "UPDATE papers SET title = title WHERE false" \
    "pages cannot write papers"
denied weft-pages "DELETE FROM researchers WHERE false" \
    "pages cannot delete researchers"
denied weft-pages "CREATE TABLE t_privsep (x int)" \
    "pages cannot create tables"

# ---------------------------------------------------------------- feeds
for t in users sessions; do
	denied weft-feeds "SELECT count(*) FROM $t" "feeds cannot read $t"
done
denied weft-feeds "SELECT created_at FROM feed_tokens LIMIT 1" \
    "feeds cannot read feed_tokens beyond user_id, token_hash"
allowed weft-feeds "SELECT user_id, token_hash FROM feed_tokens LIMIT 1" \
    "feeds reads a token's hash and owner (the private feed)"
allowed weft-feeds "SELECT user_id, researcher_id FROM follows LIMIT 1" \
    "feeds reads whom a user follows (the private feed)"
denied weft-feeds "SELECT created_at FROM follows LIMIT 1" \
    "feeds cannot read follows beyond user_id, researcher_id"
denied weft-feeds "DELETE FROM follows WHERE false" \
    "feeds cannot write follows"

# ---------------------------------------------------------------- accounts
allowed weft-accounts "SELECT count(*) FROM users" "accounts reads users"
allowed weft-accounts "UPDATE users SET email = email WHERE false" \
    "accounts writes users"
allowed weft-accounts "DELETE FROM sessions WHERE false" \
    "accounts writes sessions"
denied weft-accounts "UPDATE papers SET title = title WHERE false" \
    "accounts cannot write papers"

# ---------------------------------------------------------------- the rule
# Personal data is "users" and every table that references it (through
# any chain of foreign keys): a table added later must be made private by
# its migration (SELECT weft_private('t')), or this fails.
personal="WITH RECURSIVE personal(rel) AS (
	SELECT 'users'::regclass
	UNION
	SELECT c.conrelid::regclass FROM pg_constraint c
	  JOIN personal p ON c.confrelid = p.rel WHERE c.contype = 'f')"
leak=$(sql "$personal SELECT string_agg(rel::text, ' ') FROM personal
    WHERE has_any_column_privilege('weft-pages', rel, 'SELECT')")
[ -z "$leak" ]
ok $? "pages reads no personal table" "readable: $leak"
cols=$(sql "$personal SELECT string_agg(rel::text || '.' || a.attname, ' '
        ORDER BY rel::text, a.attname)
      FROM personal JOIN pg_attribute a ON a.attrelid = rel
     WHERE a.attnum > 0 AND NOT a.attisdropped
       AND has_column_privilege('weft-feeds', rel, a.attname, 'SELECT')")
# follow_targets (0026): what else a user follows, for the private feed.
want="feed_tokens.token_hash feed_tokens.user_id follow_targets.category"
want="$want follow_targets.institution_id follow_targets.kind"
want="$want follow_targets.query follow_targets.user_id"
want="$want follows.researcher_id follows.user_id"
[ "$cols" = "$want" ]
ok $? "feeds reads exactly $want of the personal tables" "it reads: $cols"
for r in weft-pages weft-feeds; do
	w=$(sql "SELECT string_agg(c.relname, ' ') FROM pg_class c
	    JOIN pg_namespace n ON n.oid = c.relnamespace
	   WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
	     AND has_table_privilege('$r', c.oid,
	         'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')")
	[ -z "$w" ]
	ok $? "$r may change no table" "it may change: $w"
done
w=$(sql "$personal SELECT string_agg(rel::text, ' ') FROM personal
    WHERE NOT has_table_privilege('weft-accounts', rel,
        'SELECT') OR NOT has_table_privilege('weft-accounts', rel,
        'INSERT') OR NOT has_table_privilege('weft-accounts', rel, 'DELETE')")
[ -z "$w" ]
ok $? "accounts reads and writes every personal table" "it cannot: $w"
# ... and draws their ids: a sequence a later migration adds (sessions.id
# in 0018) is granted by weft_private() too.
w=$(sql "$personal SELECT string_agg(d.objid::regclass::text, ' ')
      FROM personal JOIN pg_depend d ON d.refobjid = rel
      JOIN pg_class s ON s.oid = d.objid
     WHERE d.deptype IN ('a', 'i')
       AND CASE WHEN s.relkind = 'S' THEN NOT has_sequence_privilege(
           'weft-accounts', d.objid, 'USAGE') ELSE false END" 2>&1)
[ -z "$w" ]
ok $? "accounts draws ids from every personal table's sequence" \
    "it cannot use: $w"

# ---------------------------------------------------------------- processes
# conf/local.sh switches users only when it runs as root.
if [ "$(id -u)" = 0 ]; then
	for m in $modules; do
		pid=$(cat "$WEFT_VAR/run/weftd-$m.pid")
		users=$( (ps -o user:32= -p "$pid"; ps -o user:32= --ppid "$pid") |
		    sort -u | tr -d ' ' | tr '\n' ' ')
		[ "$users" = "weft-$m " ]
		ok $? "weftd $m and its workers run as weft-$m" "users: $users"
		groups=$(ps -o supgrp:64= --ppid "$pid" | sort -u)
		case ",$groups," in *,www-data,*) ok 1 "... not in group www-data" "$groups" ;;
		*) ok 0 "... not in group www-data ($groups)" ;; esac
		s=$WEFT_VAR/run/$m.sock
		[ "$(stat -c '%a %U %G' "$s")" = "660 weft-$m www-data" ]
		ok $? "$m.sock: 0660 weft-$m www-data" "$(stat -c '%a %U %G' "$s")"
	done
	# Connecting to a unix socket needs write permission on it.
	runuser -u weft-pages -- test -w "$WEFT_VAR/run/accounts.sock"
	ok $((!$?)) "the pages user cannot connect to the accounts socket"
	runuser -u www-data -- test -w "$WEFT_VAR/run/accounts.sock"
	ok $? "nginx's user can"

	# weftd refuses to become root, and a user it cannot switch to.
	conf=$T_TMP/weft.conf
	mkdir -p "$T_TMP/run"
	sed -e '/^socket_dir/d' "$WEFT_VAR/weft.conf" >"$conf"
	echo "socket_dir = $T_TMP/run" >>"$conf"
	weftd=$(sed -n 's/^modules_dir = //p' "$conf")/weftd
	out=$(WEFT_USER_PAGES=root "$weftd" -c "$conf" -m pages 2>&1 </dev/null)
	[ $? != 0 ] && case "$out" in *"is root"*) true ;; *) false ;; esac
	ok $? "weftd refuses user.pages = root" "$out"
	chmod 755 "$T_TMP"
	out=$(runuser -u weft-feeds -- "$weftd" -c "$conf" -m pages 2>&1 </dev/null)
	[ $? != 0 ] && case "$out" in *"start weftd as root"*) true ;; *) false ;; esac
	ok $? "weftd started as weft-feeds refuses to be the pages pool" "$out"
	[ ! -e "$T_TMP/run/pages.sock" ]
	ok $? "... and made no socket"
else
	for m in $modules; do
		[ "$(stat -c '%a' "$WEFT_VAR/run/$m.sock")" = 660 ]
		ok $? "$m.sock: 0660"
	done
	skip "pool users: conf/local.sh switches users only as root"
fi

# ---------------------------------------------------------------- production
u=$WEFT_ROOT/conf/weft@.service
! grep -q '^User=' "$u" && grep -q '^CapabilityBoundingSet=CAP_CHOWN CAP_SETUID CAP_SETGID$' "$u"
ok $? "weft@.service: weftd starts as root with only CHOWN, SETUID, SETGID"
c=$WEFT_ROOT/conf/weft.conf
for m in $modules; do
	grep -q "^user\.$m = weft-$m$" "$c" &&
	    grep -q "^db\.$m = .* user=weft-$m$" "$c"
	ok $? "conf/weft.conf: user.$m and db.$m are weft-$m"
done
grep -q '^socket_mode = 0660$' "$c" && grep -q '^socket_group = www-data$' "$c"
ok $? "conf/weft.conf: sockets 0660, group www-data"
done_testing
