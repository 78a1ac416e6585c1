# shellcheck shell=bash
# tests/bench/twin.sh -- sourced by run.sh and search_matrix.sh: nginx
# serving saved bytes as static files, the baseline every speed figure
# here is a ratio to.
#
# The static twin: same nginx build and settings, the bytes as files,
# with the headers the site adds to every answer (the same header bytes
# on the wire).  Logging and the open file cache are the site's own
# lines, copied from its generated configuration: no access log on
# either side, or (log "on") the same log format, variables and
# buffering on both, each side to its own file.

# twin_conf NGINX-CONF-DIR TWIN-DIR PORT LOG: writes TWIN-DIR/nginx.conf
# (files under TWIN-DIR/files, logs under TWIN-DIR/logs) and sets
# sitelog to the site's access log file (empty when log is not "on").
# shellcheck disable=SC2034 # sitelog is read by the caller
twin_conf() {
	local nconf=$1 st=$2 sport=$3 log=$4 twinlog twinofc
	rm -rf "$st" && mkdir -p "$st/files" "$st/logs"
	sitelog=
	if [ "$log" = on ]; then
		sitelog=$(sed -n 's|^[[:space:]]*access_log \([^ ;]*\).*|\1|p' \
		    "$nconf/nginx.conf" | head -1)
		twinlog=$(awk '/^[ \t]*log_format/, /;$/' "$nconf/nginx.conf"
		    awk '/^map \$uri \$weft_log_uri/, /^}/' "$nconf/upstreams.conf"
		    sed -n "s|^[[:space:]]*access_log [^ ;]*|access_log $st/logs/access.log|p" \
			"$nconf/nginx.conf" | head -1)
	else
		twinlog="access_log off;"
	fi
	twinofc=$(cat "$nconf/nginx.conf" "$nconf/locations.conf" |
	    sed -n 's/^[[:space:]]*\(open_file_cache.*\)/\1/p')
	cat >"$st/nginx.conf" <<-CONF
	worker_processes 2;
	pid $st/nginx.pid;
	error_log $st/logs/error.log warn;
	$( [ "$(id -u)" = 0 ] && echo "user www-data www-data;" )
	events { worker_connections 1024; }
	http {
		$twinlog
		$twinofc
		sendfile on;
		tcp_nopush on;
		keepalive_timeout 30s;
		default_type text/html;
		charset utf-8;
		add_header Content-Security-Policy "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'" always;
		add_header X-Content-Type-Options nosniff always;
		add_header Referrer-Policy strict-origin-when-cross-origin always;
		add_header X-Frame-Options DENY always;
		add_header Vary Accept;
		client_body_temp_path $st/cb; proxy_temp_path $st/px;
		fastcgi_temp_path $st/fc; uwsgi_temp_path $st/uw; scgi_temp_path $st/sc;
		server { listen 127.0.0.1:$sport; root $st/files; }
	}
	CONF
}

# twin_start TWIN-DIR: starts it (the files written), stopped at exit.
twin_start() {
	twin_dir=$1
	chmod -R a+rX "$twin_dir"
	nginx -p "$twin_dir" -c "$twin_dir/nginx.conf"
	trap 'nginx -p "$twin_dir" -c "$twin_dir/nginx.conf" -s stop 2>/dev/null || true' EXIT
}
