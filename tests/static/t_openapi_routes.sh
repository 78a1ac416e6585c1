#!/bin/bash
# t_openapi_routes.sh -- every route the site serves is documented in
# modules/feeds/openapi.json: the route tables of each module.c, the
# operations endpoints core answers in every pool (req.c's serve_ops),
# and every site path written as a string literal in the C code of
# core, pages, accounts and feeds (which is how sub-routes dispatched
# inside a handler, such as /papers/{id}/similar, and the pages the
# modules link to show up).  tests/integration/t_openapi_responses.sh
# checks the other direction: each documented route answers as described.
cd "$(dirname "$0")/../.." || exit 1
exec python3 - <<'PY'
import glob, json, re, sys

doc = json.load(open("modules/feeds/openapi.json"))
ops = {(m.upper(), p) for p, item in doc["paths"].items() for m in item
       if m in ("get", "post", "put", "delete", "patch")}
# A documented path as a regex: a {placeholder} is anything but "/".
def rx(p):
    return re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+",
                                   re.escape(p)) + "$")
docrx = [(m, p, rx(p)) for m, p in ops]

# Paths the site serves that are deliberately not in the document.
EXCEPTIONS = {
    # Prometheus metrics for a scraper on the same machine: nginx and
    # the workers answer it to loopback clients only; not an API.
    "/metrics",
    # Static assets (CSS, SVG, fonts), served by nginx from
    # modules/pages/static; hashed names, not an API.
    "/static/",
    # A file path (the config default when none exists), not a URL.
    "/dev/null",
}
def excepted(p):
    return any(p == e or (e.endswith("/") and p.startswith(e))
               for e in EXCEPTIONS)

n = 0
fail = 0
def check(cond, name, diag=""):
    global n, fail
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        fail += 1
        if diag:
            print("#   " + diag)

# Comments out, string and character literals kept ("/account/follow/*"
# holds a comment opener).
def strip_comments(src):
    return re.sub(r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|/\*.*?\*/|//[^\n]*""",
                  lambda m: m.group(1) or " ", src, flags=re.S)

# 1. The route tables: { "METHOD", "PATTERN", handler }.
routes = []
for f in sorted(glob.glob("modules/*/module.c")):
    for m, p in re.findall(r'\{\s*"([A-Z]+)",\s*"([^"]*)",\s*\w+\s*\}',
                           strip_comments(open(f).read())):
        routes.append((f, m, p))
check(len(routes) >= 30, "the route tables list %d routes" % len(routes))
for f, m, p in routes:
    if p == "*":
        # accounts' SSI dispatcher: a fragment subrequest arrives with
        # its page's path; the fragments are /account/nav and
        # /account/follow/{id}, routed above it in the same table.
        continue
    if p.endswith("/*"):
        pre = p[:-1]
        ok = any(dm == m and dp.startswith(pre) for dm, dp in ops)
    elif m == "ANY":
        # One handler for several methods (/mcp): one of them documented.
        ok = any(dp == p for dm, dp in ops)
    else:
        ok = (m, p) in ops or excepted(p)
    check(ok, "%s %s (%s) is documented" % (m, p, f))

# 2. What core answers in every pool before routing.
core = strip_comments(open("modules/core/req.c").read())
body = core[core.index("serve_ops(struct core_req *r)"):]
body = body[:body.index("\n}\n")]
builtin = re.findall(r'strcmp\(r->path, "(/[^"]*)"\)', body)
check(len(builtin) >= 3, "core answers %s" % " ".join(builtin))
for p in builtin:
    check(("GET", p) in ops or excepted(p), "GET %s (core) is documented" % p)

# 3. Site paths in the C code: "/a/b" (a path), "/a/" (a prefix of
# documented paths) or "/b" used as a suffix (a sub-route such as
# "/similar"); format strings count up to their first conversion.
lits = set()
for f in glob.glob("modules/*/**/*.c", recursive=True):
    if f.split("/")[1] not in ("core", "pages", "accounts", "feeds"):
        continue
    for s in re.findall(r'"((?:[^"\\\n]|\\.)*)"', strip_comments(open(f).read())):
        s = s.split("%")[0].split("?")[0].split("#")[0]
        if re.match(r"^/[a-z][a-z0-9._/-]*$", s) and "*" not in s:
            lits.add(s)
def known(s):
    if excepted(s):
        return True
    for m, p, r in docrx:
        if r.match(s) or p.startswith(s) and s.endswith("/"):
            return True
        if s.endswith("/") and r.match(s + "x"):
            return True
        # a suffix: the last segments of a documented path
        if s.count("/") == 1 and p.endswith(s) and p != s:
            return True
    return False
check(len(lits) >= 30, "%d site paths in the C code" % len(lits))
for s in sorted(lits):
    check(known(s), "path %s in the C code is documented" % s)

print("1..%d" % n)
sys.exit(1 if fail else 0)
PY
