#!/bin/bash
# tests/bench/run.sh -- speed, measured as ratios to nginx serving the same
# bytes as a static file, in the same run on the same machine (absolute
# figures drift +-30 % here between runs; ratios measured back to back are
# stable to about +-0.03).
#
#   tests/bench/run.sh [seconds] [connections]
#
# Starts a release-build stack under var/bench (port 8195, access log off),
# fetches each page once, writes its bytes to a static directory served by
# a second private nginx (port 8196, same settings), then runs wrk against
# both, page by page.  Prints a table: req/s, p50, p99, ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
secs=${1:-10}
conns=${2:-32}
var=$root/var/bench
port=8195
sport=8196

WEFT_ACCESS_LOG=off conf/local.sh up --var "$var" --port "$port" \
    --build build >/dev/null
base=http://127.0.0.1:$port

db() { psql -h "$var/pg/run" -U weft -d weft -Atc "$1"; }
# The busiest researcher and a known paper, by canonical URL.
rid=$(db "SELECT id FROM researchers ORDER BY paper_count DESC, id LIMIT 1")
researcher=$(curl -s -o /dev/null -w '%{redirect_url}' "$base/researchers/$rid")
paper=$(curl -s -o /dev/null -w '%{redirect_url}' "$base/papers/2512.20345")
pages=("researcher ${researcher#"$base"}" "paper ${paper#"$base"}"
    "home /")
[ -f "$root/build/feeds.so" ] && pages+=("rss /rss/latest.xml")

# The static twin: same nginx build and settings, the bytes as files.
st=$var/static
rm -rf "$st" && mkdir -p "$st/files" "$st/logs"
cat >"$st/nginx.conf" <<CONF
worker_processes 2;
pid $st/nginx.pid;
error_log $st/logs/error.log warn;
$( [ "$(id -u)" = 0 ] && echo "user www-data www-data;" )
events { worker_connections 1024; }
http {
	access_log off;
	sendfile on;
	tcp_nopush on;
	keepalive_timeout 30s;
	default_type text/html;
	client_body_temp_path $st/cb; proxy_temp_path $st/px;
	fastcgi_temp_path $st/fc; uwsgi_temp_path $st/uw; scgi_temp_path $st/sc;
	server { listen 127.0.0.1:$sport; root $st/files; }
}
CONF
chmod -R a+rX "$st"
for p in "${pages[@]}"; do
	name=${p%% *}
	curl -s -o "$st/files/$name" "$base${p#* }"
done
nginx -p "$st" -c "$st/nginx.conf"
trap 'nginx -p "$st" -c "$st/nginx.conf" -s stop 2>/dev/null || true' EXIT

# wrk's summary -> "req/s p50 p99" (latencies in ms).
measure() {
	wrk -t2 -c"$conns" -d"${secs}s" --latency "$1" | awk '
	function ms(v) {
		if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
		if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
		if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000
		return v
	}
	/^ +50%/ { p50 = ms($2) }
	/^ +99%/ { p99 = ms($2) }
	/Non-2xx/ { bad = $NF }
	/^Requests\/sec/ { rps = $2 }
	END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, bad }'
}

printf '%-11s %9s %9s %9s %9s %9s %7s\n' page 'req/s' 'p50 ms' 'p99 ms' \
    'static/s' 'st p99' ratio
for p in "${pages[@]}"; do
	name=${p%% *}
	read -r rps p50 p99 bad < <(measure "$base${p#* }")
	read -r srps sp50 sp99 _ < <(measure "http://127.0.0.1:$sport/$name")
	printf '%-11s %9s %9s %9s %9s %9s %7.2f%s\n' "$name" "$rps" "$p50" \
	    "$p99" "$srps" "$sp99" "$(awk -v a="$rps" -v b="$srps" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
	    "$( [ "$bad" -gt 0 ] && echo "  ($bad non-2xx)")"
done
echo "wrk -t2 -c$conns -d${secs}s, $(nproc) cores; bodies: $(du -b "$st"/files/* | awk '{printf "%s=%sB ", substr($2, match($2, /[^\/]+$/)), $1}')"
