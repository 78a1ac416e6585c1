#!/usr/bin/env python3
"""limit_load.py -- the read limiter under 64 connections (issue 22).

64 kept-alive HTTP/1.1 connections from loopback source addresses
(127.0.0.10 and up; the stack exempts only 127.0.0.1), all at once:

  polite   48 clients, one connection and address each, reading below
           the limit (reads that reach a worker: 404s, which are never
           cached): every answer must be a 404;
  greedy   one client (address) on 8 connections reading far past the
           limit: q of them pass, plus what the bucket refills while
           the run lasts, the rest are 429 with Retry-After,
           RateLimit-Policy and RateLimit;
  cached   the same greedy address on 8 more connections, reading a
           page in the cache: every answer must be a 200 (cached pages
           are never limited).

Prints one line of figures per kind and exits 1 when a rule is broken.
    WEFT_URL=http://127.0.0.1:8117 tests/bench/limit_load.py [--quick]
"""
import http.client
import os
import re
import sys
import threading
import time
import urllib.parse

URL = urllib.parse.urlsplit(os.environ.get("WEFT_URL", "http://127.0.0.1:8091"))
QUICK = "--quick" in sys.argv
CONNS = 64


def conn(src):
    return http.client.HTTPConnection(URL.hostname, URL.port, timeout=30,
                                      source_address=(src, 0))


def limits():
    c = http.client.HTTPConnection(URL.hostname, URL.port, timeout=30)
    c.request("GET", "/llms.txt")
    body = c.getresponse().read().decode()
    m = re.search(r'RateLimit-Policy: "read";q=(\d+);w=(\d+)', body)
    return int(m.group(1)), int(m.group(2))


class Client(threading.Thread):
    def __init__(self, kind, n, src, paths):
        super().__init__()
        self.kind, self.n, self.src, self.paths = kind, n, src, paths
        self.codes, self.lat, self.bad = {}, [], []

    def run(self):
        c = conn(self.src)
        for i in range(self.n):
            path = self.paths(i)
            t0 = time.monotonic()
            try:
                c.request("GET", path, headers={"Accept": "text/html"})
                r = c.getresponse()
                r.read()
            except (OSError, http.client.HTTPException) as e:
                self.bad.append("%s: %s" % (path, e))
                c.close()
                c = conn(self.src)
                continue
            self.lat.append(time.monotonic() - t0)
            self.codes[r.status] = self.codes.get(r.status, 0) + 1
            if r.status == 429:
                ra = r.getheader("Retry-After")
                if not (ra and ra.isdigit() and int(ra) >= 1 and
                        re.fullmatch(r'"read";q=\d+;w=\d+',
                                     r.getheader("RateLimit-Policy") or "")
                        and re.fullmatch(r'"read";r=0;t=%s' % ra,
                                         r.getheader("RateLimit") or "")):
                    self.bad.append("429 without its headers: %s" %
                                    r.getheaders())
        c.close()


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))] * 1000 if v else 0


def main():
    q, w = limits()
    tag = "%d%d" % (os.getpid(), int(time.time()))
    rc = 0
    # Prime a cached page, and empty the buckets of the "cached" clients.
    c = http.client.HTTPConnection(URL.hostname, URL.port, timeout=30)
    for _ in range(2):
        c.request("GET", "/about?bench=" + tag, headers={"Accept": "text/html"})
        c.getresponse().read()
    polite_n = max(1, q // 2) if not QUICK else min(20, q // 2)
    greedy_n = q if not QUICK else q // 8 + 30
    cached_n = q // 2 if not QUICK else 30
    kinds = [("polite", 48, polite_n), ("greedy", 8, greedy_n),
             ("cached", 8, cached_n)]
    clients = []
    greedy_src = "127.0.0.%d" % (10 + 48)
    for j in range(48):
        src = "127.0.0.%d" % (10 + j)
        clients.append(Client("polite", polite_n, src,
                              lambda i, s=src: "/no-such-bench-%s-%s-%d" %
                              (tag, s, i)))
    for j in range(8):
        clients.append(Client("greedy", greedy_n, greedy_src,
                              lambda i, j=j: "/no-such-bench-%s-g%d-%d" %
                              (tag, j, i)))
    for j in range(8):
        clients.append(Client("cached", cached_n, greedy_src,
                              lambda i: "/about?bench=" + tag))
    assert len(clients) == CONNS
    t0 = time.monotonic()
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    wall = time.monotonic() - t0
    total = sum(len(t.lat) for t in clients)
    print("limit q=%d w=%ds; %d connections, %d requests in %.1f s "
          "(%.0f req/s)" % (q, w, CONNS, total, wall, total / wall))
    for kind, count, n in kinds:
        cs = [t for t in clients if t.kind == kind]
        codes, lat, bad = {}, [], []
        for t in cs:
            for s, m in t.codes.items():
                codes[s] = codes.get(s, 0) + m
            lat += t.lat
            bad += t.bad
        print("%-7s %2d clients x %4d: %s; p50 %.1f ms, p99 %.1f ms" %
              (kind, count, n,
               ", ".join("%d: %d" % kv for kv in sorted(codes.items())),
               pct(lat, 0.5), pct(lat, 0.99)))
        for b in bad[:3]:
            print("  error: %s" % b)
        if bad:
            rc = 1
        if kind == "polite" and set(codes) != {404}:
            print("  FAIL: a client under the limit saw something else")
            rc = 1
        if kind == "greedy":
            passed = codes.get(404, 0)
            # q, plus what the bucket refilled while the run lasted.
            most = q + int(wall * q / w) + 2
            if codes.get(429, 0) == 0 or passed < min(q, count * n) or \
                    passed > most:
                print("  FAIL: %d passed, %d refused; expected %d..%d to "
                      "pass" % (passed, codes.get(429, 0), q, most))
                rc = 1
            if set(codes) - {404, 429}:
                rc = 1
        if kind == "cached" and set(codes) != {200}:
            print("  FAIL: a cached page was not a 200")
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
