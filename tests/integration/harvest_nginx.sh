# shellcheck shell=bash
# tests/integration/harvest_nginx.sh -- the harvester tests' fake
# upstream: a private nginx on a free loopback port serving the recorded
# responses of tests/data/harvest with location rules that map request
# URIs (and their query strings) to files, plus the failure cases.
# Source it after lib.sh:
#
#   . "$(dirname "$0")/harvest_nginx.sh"
#   hv_nginx_up            # sets $HV_URL, $HV_LOG (access log)
#   hv arxiv oai ...       # runs weft-harvest against the test stack
#   sql "SELECT ..."       # psql on the stack's database
#
# State without scripting: retries are provoked with nginx's limit_req
# (one request in 5 s, no burst), so a request that follows another
# within 5 s is refused with 503 or 429 and Retry-After: 5, and the retry
# 5 s later passes -- whatever the timing of the first two.  Slowness is
# limit_rate; a dead server is a port nobody listens on.

: "${WEFT_VAR:?WEFT_VAR must be set}"
HV_ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
HV_BIN=${WEFT_HARVEST:-$HV_ROOT/build-san/weft-harvest}
HV_DATA=$HV_ROOT/tests/data/harvest
HV_NGX=$T_TMP/ngx
HV_WWW=$T_TMP/www

sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "$1"; }

# hv ARGS...: weft-harvest on the stack's database; output in $HV_OUT,
# exit status in $HV_RC.  HV_ENV may hold extra VAR=value words.
hv() {
	HV_OUT=$T_TMP/hv.out
	env WEFT_CONF="$WEFT_VAR/weft.conf" WEFT_ARXIV_DELAY=0 \
	    WEFT_OPENALEX_DELAY=0 WEFT_S2_DELAY=0 WEFT_HARVEST_BACKOFF=200 \
	    WEFT_HARVEST_CONTACT=tests@weft.invalid ${HV_ENV:-} \
	    "$HV_BIN" "$@" >"$HV_OUT" 2>&1
	HV_RC=$?
}
# hv_bg ARGS...: the same in the background; $HV_PID is weft-harvest
# itself (exec), so that kill -9 hits the harvester, not a subshell.
hv_bg() {
	(exec env WEFT_CONF="$WEFT_VAR/weft.conf" WEFT_ARXIV_DELAY=0 \
	    WEFT_OPENALEX_DELAY=0 WEFT_S2_DELAY=0 WEFT_HARVEST_BACKOFF=200 \
	    WEFT_HARVEST_CONTACT=tests@weft.invalid ${HV_ENV:-} \
	    "$HV_BIN" "$@" >"$T_TMP/bg.out" 2>&1) &
	# shellcheck disable=SC2034 # for the script that sources this file
	HV_PID=$!
}
out_has() {
	grep -qF -- "$1" "$HV_OUT"
	ok $? "$2" "output lacks '$1': $(tail -c 600 "$HV_OUT")"
}
is_rc() {
	[ "$HV_RC" = "$1" ]
	ok $? "$2" "exit $HV_RC, want $1: $(tail -c 600 "$HV_OUT")"
}
sql_is() {
	local v
	v=$(sql "$1")
	[ "$v" = "$2" ]
	ok $? "$3" "'$1' gave '$v', want '$2'"
}

hv_free_port() {
	local p
	for p in $(seq "${1:-8097}" 8199); do
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || {
			echo "$p"; return 0; }
	done
	return 1
}

hv_nginx_up() {
	local port oai_dc hep
	port=$(hv_free_port 8097) || { echo "no free port" >&2; return 1; }
	# shellcheck disable=SC2034 # for the script that sources this file
	HV_URL=http://127.0.0.1:$port
	HV_LOG=$HV_NGX/access.log
	mkdir -p "$HV_NGX" "$HV_WWW/bad"
	chmod 755 "$T_TMP" "$HV_NGX" "$HV_WWW"
	cp -r "$HV_DATA"/oai "$HV_DATA"/atom "$HV_DATA"/openalex \
	    "$HV_DATA"/s2 "$HV_DATA"/arxivraw "$HV_WWW"/
	oai_dc=atomiklabs_ListRecords_oai_dc_cs_2024-01-25_with_resumptionToken.xml
	hep=hepcrawl_arxiv-physics-hep-ex.xml
	# Failure fixtures, derived here from the recorded ones.
	head -c 3000 "$HV_WWW/oai/$oai_dc" >"$HV_WWW/bad/truncated.xml"
	head -c 6000 "$HV_WWW/arxivraw/ListRecords_arXivRaw_0704.xml" \
	    >"$HV_WWW/bad/raw_truncated.xml"
	sed 's#<size>[^<]*</size>##g' \
	    "$HV_WWW/arxivraw/ListRecords_arXivRaw_0704.xml" \
	    >"$HV_WWW/bad/raw_nosize.xml"
	printf '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title>'\
'</head><body><h1>Bad Gateway</h1></body></html>\n' >"$HV_WWW/bad/error.html"
	head -c $((50 * 1024 * 1024)) /dev/zero | tr '\0' 'x' \
	    >"$HV_WWW/bad/big.xml"
	head -c $((300 * 1024)) /dev/zero | tr '\0' ' ' >"$HV_WWW/bad/slow.xml"
	# Semantic Scholar pages cut short: a search page, a bulk page 2.
	head -c 6000 "$HV_WWW/s2/search_turing_p1.json" \
	    >"$HV_WWW/bad/s2_truncated.json"
	head -c 60000 "$HV_WWW/s2/bulk_kubernetes_p2.json" \
	    >"$HV_WWW/bad/s2_bulk_truncated.json"
	chmod -R a+rX "$HV_WWW"
	cat >"$HV_NGX/nginx.conf" <<CONF
worker_processes 1;
pid $HV_NGX/nginx.pid;
error_log $HV_NGX/error.log warn;
events { worker_connections 64; }
http {
	include /etc/nginx/mime.types;
	types { application/xml xml; application/json json; }
	log_format t '\$status \$request_method \$request_uri';
	access_log $HV_LOG t;
	client_body_temp_path $HV_NGX/body;
	proxy_temp_path $HV_NGX/proxy;
	fastcgi_temp_path $HV_NGX/fastcgi;
	uwsgi_temp_path $HV_NGX/uwsgi;
	scgi_temp_path $HV_NGX/scgi;
	limit_req_zone \$server_port zone=r503:1m rate=12r/m;
	limit_req_zone \$server_port zone=r429:1m rate=12r/m;
	limit_req_zone \$server_port zone=s429:1m rate=12r/m;
	server {
		listen 127.0.0.1:$port;
		root $HV_WWW;

		# Files, also for POST (S2): the static module answers 405
		# to a POST, error_page turns that into a GET of the file.
		location /files/ {
			alias $HV_WWW/;
			error_page 405 =200 \$uri;
		}

		# OAI-PMH: the first page by its arguments, the second by
		# the first page's resumptionToken (sent alone).
		location ~ ^/oai/(ok|slow)\$ {
			if (\$arg_resumptionToken ~* "^6960524(%7C|\\|)1001\$") {
				rewrite ^/oai/(.*)\$ /page2/\$1 last;
			}
			if (\$arg_metadataPrefix = "") {
				return 400;
			}
			rewrite ^ /files/oai/$oai_dc last;
		}
		location = /page2/ok {
			# OAI-PMH: resumptionToken is an exclusive argument.
			if (\$arg_metadataPrefix != "") { return 400; }
			rewrite ^ /files/oai/$hep last;
		}
		location = /page2/slow {
			limit_rate 600;
			alias $HV_WWW/oai/$hep;
		}
		location = /oai/r503 {
			if (\$arg_resumptionToken ~* "^6960524(%7C|\\|)1001\$") {
				rewrite ^ /l503/oai/$hep last;
			}
			rewrite ^ /l503/oai/$oai_dc last;
		}
		location /l503/ {
			limit_req zone=r503;
			limit_req_status 503;
			error_page 503 = @retry503;
			alias $HV_WWW/;
		}
		location @retry503 {
			add_header Retry-After 5 always;
			return 503 "busy\n";
		}

		# OAI-PMH arXivRaw: one page, only for that metadataPrefix
		# (another is refused as arXiv refuses an unknown one:
		# cannotDisseminateFormat); a truncated copy.
		location = /oairaw/ok {
			if (\$arg_metadataPrefix != "arXivRaw") {
				rewrite ^ /oairaw/noformat last;
			}
			rewrite ^ /files/arxivraw/ListRecords_arXivRaw_0704.xml last;
		}
		location = /oairaw/noformat {
			default_type application/xml;
			return 200 '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-12-02T00:00:00Z</responseDate><request verb="ListRecords">http://export.arxiv.org/oai2</request><error code="cannotDisseminateFormat">Unknown metadata format</error></OAI-PMH>';
		}
		# A day with nothing new (OAI-PMH 2.0, 3.6: noRecordsMatch).
		location = /oai/none {
			default_type application/xml;
			return 200 '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-12-08T00:00:00Z</responseDate><request verb="ListRecords" from="2026-12-07" metadataPrefix="oai_dc" set="cs">http://export.arxiv.org/oai2</request><error code="noRecordsMatch">No records match</error></OAI-PMH>';
		}
		location = /oairaw/nosize {
			rewrite ^ /files/bad/raw_nosize.xml last;
		}
		location = /oairaw/truncated {
			rewrite ^ /files/bad/raw_truncated.xml last;
		}

		# The Atom API: search paging by start, ids by id_list.
		location ~ ^/(api|api429)/query\$ {
			set \$f "";
			set \$k "\$arg_search_query:\$arg_start:\$arg_max_results";
			if (\$k = "testing:0:10") { set \$f q_testing_s0_m10_bc5a6c384fe9; }
			if (\$k = "testing:10:10") { set \$f q_testing_s10_m10_34e56e15aaac; }
			if (\$k = "testing:20:10") { set \$f q_testing_s20_m10_348a237fecab; }
			if (\$arg_id_list = "astro-ph/0601001") {
				set \$f id_astro-ph_0601001_s0_m100_3150dca9dc76;
			}
			if (\$arg_id_list = "1707.08567") {
				set \$f id_1707.08567_s0_m100_6a1afebfc6a3;
			}
			if (\$f = "") { return 404; }
			if (\$uri ~ ^/api429/) {
				rewrite ^ /l429/atom/\$f.body.xml last;
			}
			rewrite ^ /files/atom/\$f.body.xml last;
		}
		location /l429/ {
			limit_req zone=r429;
			limit_req_status 429;
			error_page 429 = @retry429;
			alias $HV_WWW/;
		}
		location @retry429 {
			add_header Retry-After 5 always;
			return 429 "slow down\n";
		}

		# OpenAlex: works by cursor, authors by filter.
		location = /openalex/works {
			if (\$arg_cursor ~ "^(\\*|%2A)\$") {
				rewrite ^ /files/openalex/works_cursor_page1.json last;
			}
			if (\$arg_cursor ~ "^IlsxMDAu") {
				rewrite ^ /files/openalex/works_cursor_page2.json last;
			}
			return 404;
		}
		location = /openalex/authors {
			rewrite ^ /files/openalex/authors_list.json last;
		}
		# The same works, but an institution where authors were asked.
		location = /oabad/works {
			rewrite ^ /files/openalex/works_cursor_page2.json last;
		}
		location = /oabad/authors {
			rewrite ^ /files/openalex/I114027177.json last;
		}
		# A list of institutions where works were asked (issue 16).
		location = /oainst/works {
			rewrite ^ /files/openalex/institutions_list.json last;
		}
		# The works again; the authors' answer holds a Deleted Author
		# record under another id than any asked for (a merged id).
		location = /oadel/works {
			if (\$arg_cursor ~ "^(\\*|%2A)\$") {
				rewrite ^ /files/openalex/works_cursor_page1.json last;
			}
			if (\$arg_cursor ~ "^IlsxMDAu") {
				rewrite ^ /files/openalex/works_cursor_page2.json last;
			}
			return 404;
		}
		location = /oadel/authors {
			rewrite ^ /files/openalex/authors_list_deleted.json last;
		}

		# Works of which none is on arXiv (a real, complete answer:
		# the 24 works citing W2766808518): nothing to write.
		location = /oanone/works {
			rewrite ^ /files/openalex/works_cited_by_W2766808518.json last;
		}

		# Semantic Scholar batches (POST), and a 429 first.
		location = /s2/paper/batch {
			rewrite ^ /files/s2/test_get_papers_return_not_found.json last;
		}
		location = /s2l/paper/batch {
			rewrite ^ /ls2/s2/test_get_papers_return_not_found.json last;
		}
		location /ls2/ {
			limit_req zone=s429;
			limit_req_status 429;
			error_page 429 = @retry429;
			error_page 405 =200 /files/s2/test_get_papers_return_not_found.json;
			alias $HV_WWW/;
		}
		# Three papers, but without the citationCount asked for (the
		# real answer to a request for other fields): nothing to write.
		location = /s2nocount/paper/batch {
			rewrite ^ /files/s2/test_get_papers.json last;
		}
		location = /s2bad/paper/batch {
			rewrite ^ /files/openalex/authors_list.json last;
		}

		# Semantic Scholar search, bulk search and recommendations
		# (s2_url $HV_URL/s2f/graph/v1; t_harvest_s2find.sh): the
		# recorded answers by query and offset or token; errors with
		# their recorded status and body.
		location = /s2f/graph/v1/paper/search {
			set \$f "";
			set \$k "\$arg_query:\$arg_offset";
			if (\$k = "turing:0") { set \$f s2/search_turing_p1.json; }
			if (\$k = "turing:100") { set \$f s2/search_turing_p2.json; }
			if (\$arg_query ~ "^sublinear") { set \$f s2/search_edit_distance.json; }
			if (\$arg_query = "mincite") { set \$f s2/search_min_citations.json; }
			if (\$arg_query = "nothing") { set \$f s2/search_empty.json; }
			if (\$arg_query = "authors") { set \$f s2/paper_authors.json; }
			if (\$arg_query = "truncated") { set \$f bad/s2_truncated.json; }
			if (\$arg_query = "badfields") { return 400; }
			error_page 400 /files/s2/error_bad_fields.json;
			if (\$f = "") { return 404; }
			rewrite ^ /files/\$f last;
		}
		location ~ ^/(s2f|s2trunc)/graph/v1/paper/search/bulk\$ {
			set \$f "";
			if (\$arg_token = "") { set \$f s2/bulk_kubernetes_p1.json; }
			if (\$arg_token ~ "^PCOKWVSK") { set \$f s2/bulk_kubernetes_p2.json; }
			if (\$arg_token ~ "^PCOA3RZLB2ADAEAF") { set \$f s2/bulk_kubernetes_p3.json; }
			if (\$arg_query != "kubernetes") { return 404; }
			set \$t "\$uri:\$arg_token";
			if (\$t ~ "^/s2trunc/.*:PCO") {
				rewrite ^ /files/bad/s2_bulk_truncated.json last;
			}
			if (\$f = "") { return 404; }
			rewrite ^ /files/\$f last;
		}
		location = /s2f/recommendations/v1/papers {
			# A POST only (the log shows the GET of the redirect).
			if (\$request_method != POST) { return 405; }
			rewrite ^ /files/s2/recommend_lists.json last;
		}
		location = /s2f/recommendations/v1/papers/forpaper/0 {
			error_page 404 /files/s2/error_paper_not_found.json;
			return 404;
		}
		location /s2f/recommendations/v1/papers/forpaper/ {
			rewrite ^ /files/s2/recommend_forpaper.json last;
		}
		# Only negative examples: S2's 400 (recorded).
		location = /s2neg/recommendations/v1/papers {
			error_page 400 /files/s2/error_no_positive.json;
			return 400;
		}
		# The authors of a paper where recommended papers are expected.
		location /s2auth/recommendations/v1/papers/forpaper/ {
			rewrite ^ /files/s2/paper_authors.json last;
		}

		# Failures.
		location = /bad/truncated { rewrite ^ /files/bad/truncated.xml last; }
		location = /bad/html { rewrite ^ /files/bad/error.html last; }
		location = /bad/big { rewrite ^ /files/bad/big.xml last; }
		location = /bad/bigchunked {
			gzip on;
			gzip_types application/xml;
			gzip_min_length 0;
			alias $HV_WWW/bad/big.xml;
		}
		location = /bad/slow {
			limit_rate 1k;
			alias $HV_WWW/bad/slow.xml;
		}
		location = /bad/500 { return 500; }
	}
}
CONF
	nginx -p "$HV_NGX" -c "$HV_NGX/nginx.conf" 2>"$HV_NGX/start.err" || {
		cat "$HV_NGX/start.err" >&2; return 1; }
	trap 'hv_nginx_down; rm -rf "$T_TMP"' EXIT
}

hv_nginx_down() {
	[ -f "$HV_NGX/nginx.pid" ] &&
	    nginx -p "$HV_NGX" -c "$HV_NGX/nginx.conf" -s stop 2>/dev/null
	return 0
}
