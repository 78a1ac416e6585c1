#!/usr/bin/env python3
"""tests/bench/corpus/gen.py -- a synthetic arXiv listing of any size.

    tests/bench/corpus/gen.py N OUT [--seed S] [--src FILE]
    tests/bench/corpus/gen.py N OUT --after W --day D [--seed S]

With --after, the N papers are day D (0, 1, ...) of the harvest that
follows a corpus of W papers written with the same seed: new papers by
the same world of authors (the pool of W, the same circles), so that
most of a day's authors have histories in the corpus and some are new,
as on a real day; ids YYMM.NNNNN in the D+1-th month after the corpus's
last (one month a day, the bench's calendar), all dated that month's
first weekday.  tests/bench/refresh_daily.sh loads them with
`weft-harvest load`.

Writes N papers as gzipped JSON lines in the shape of the bundled
listing (sql/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz), the shape
`weft-harvest load` reads, to OUT ("-" for stdout).  Everything is
derived from the bundled papers (--src), with their distributions, but
no paper is a copy:

* title: a word chain (bigrams of the real titles), its length drawn
  from the real titles' word counts;
* abstract: real sentences recombined, drawn from the papers of the same
  primary category, the number of sentences drawn from the real
  abstracts;
* categories and comment: those of a real paper drawn at random (the
  joint distribution of category lists);
* authors: the count drawn from the real counts per paper; each author
  a rank in a pool that grows with N (Heaps' law, fitted below), drawn
  from a power law so that papers per author has the real long tail
  (at 13,663 papers: 75 % of names with one paper, the busiest with
  about 50; real: 76 %, 62); 30 % of co-authors come from the first
  author's circle (a few ranks derived from its own), so pairs repeat
  as real teams do; a rank's name is a first and a last name of the
  real authors, each drawn by its real frequency from a hash of the
  rank, so same-name researchers occur as they do in the real data;
* dates and ids: chronological, max(17, N / 28,000) months ending with
  the bundled data's last month (arXiv takes about 28,000 papers a
  month), weekdays only; ids YYMM.NNNNN with NNNNN from 30001, so they
  never collide with a real paper's.

The same N and seed give the same bytes.  Memory is bounded by the
source (about 100 MB), whatever N: papers are written as they are made.
On a terminal, progress (papers/s, ETA) goes to stderr.
"""

import argparse
import bisect
import collections
import datetime
import gzip
import io
import json
import math
import os
import random
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
SRC = os.path.join(ROOT, "sql/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz")

# Pool of author ranks at N papers: POOL_K times the 48,888 distinct
# names of the bundled listing (13,663 papers), growing as N^0.7.  The
# pool is larger than the names that occur: the power law below leaves
# most of its tail unused, which gives the real share of one-paper
# names.  p(rank) ~ (rank + SHIFT)^-ALPHA; SHIFT flattens the head (the
# busiest researcher).  POOL_K, ALPHA, SHIFT and CIRCLE were fitted
# (--stats) at 13,663 papers against the bundled counts: 48,888 names,
# 76.5 % with one paper, two papers 0.18 and three 0.06 of one, the
# busiest 62 (a shared name), then 50, 38.
BASE_N = 13663
POOL_K = 4.0
HEAPS = 0.7
ALPHA = 0.60
SHIFT = 20.0
CIRCLE = 0.3
PER_MONTH = 28000
M64 = (1 << 64) - 1
SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def mix(x):
    """splitmix64: a rank (and salt) to 64 well-mixed bits."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


class Weighted:
    """Draws a key by its count, from a 64-bit value or a Random."""

    def __init__(self, counter):
        self.keys = list(counter)
        self.cum = []
        t = 0
        for k in self.keys:
            t += counter[k]
            self.cum.append(t)
        self.total = t

    def at(self, u):  # u in [0, 1)
        return self.keys[bisect.bisect_right(self.cum, u * self.total)]


def read_source(path):
    """The real papers' distributions and text pieces."""
    src = {"titles": [], "nsent": [], "nauth": [], "cats": [],
           "comments": [], "sents": collections.defaultdict(list),
           "first": collections.Counter(), "last": collections.Counter(),
           "last_month": "0000-00"}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            words = o["title"].split()
            if words:
                src["titles"].append(words)
            sents = [s for s in SENT.split(" ".join(o["summary"].split()))
                     if s]
            src["nsent"].append(max(1, len(sents)))
            src["sents"][o["categories"][0]].extend(sents)
            src["nauth"].append(max(1, len(o["authors"])))
            src["cats"].append(o["categories"])
            src["comments"].append(o.get("comment"))
            for a in o["authors"]:
                parts = a.split()
                if len(parts) >= 2:
                    src["first"][" ".join(parts[:-1])] += 1
                    src["last"][parts[-1]] += 1
            src["last_month"] = max(src["last_month"],
                                    o["_listing_date"][:7])
    # Categories with few sentences borrow from the whole pool.
    everything = [s for v in src["sents"].values() for s in v]
    for k in list(src["sents"]):
        if len(src["sents"][k]) < 200:
            src["sents"][k] = everything
    src["all_sents"] = everything
    # Title bigrams: word -> the words that follow it; None ends.
    nxt = collections.defaultdict(list)
    for w in src["titles"]:
        for a, b in zip(w, w[1:] + [None]):
            nxt[a].append(b)
    src["next"] = nxt
    src["first_w"] = Weighted(src["first"])
    src["last_w"] = Weighted(src["last"])
    return src


class Authors:
    """Author ranks from a truncated power law; names from a rank."""

    def __init__(self, n, seed, src):
        self.pool = max(1000, int(POOL_K * 48888 *
                                  (n / BASE_N) ** HEAPS))
        self.seed = seed
        self.e = 1.0 - ALPHA
        self.lo = (1.0 + SHIFT) ** self.e
        self.top = (self.pool + SHIFT) ** self.e - self.lo
        self.src = src
        self.names = {}

    def rank(self, u):
        """Inverse CDF of p(r) ~ (r + SHIFT)^-ALPHA on [1, pool]."""
        return int((self.top * u + self.lo) ** (1.0 / self.e) - SHIFT)

    def circle(self, lead, rng):
        """One of a rank's usual co-authors: 12 ranks derived from it."""
        h = mix(lead * 16 + rng.randrange(12) + (self.seed << 40))
        return self.rank((h >> 11) / float(1 << 53))

    def name(self, r):
        s = self.names.get(r)
        if s is None:
            h1 = mix(r ^ (self.seed << 32))
            h2 = mix(h1)
            s = (self.src["first_w"].at((h1 >> 11) / float(1 << 53)) +
                 " " + self.src["last_w"].at((h2 >> 11) / float(1 << 53)))
            # Bounded: a cache of the busiest ranks' names only.
            if r < 200000:
                self.names[r] = s
        return s


def title(rng, src):
    n = len(rng.choice(src["titles"]))
    w = rng.choice(src["titles"])[0]
    out = [w]
    while len(out) < n:
        w = rng.choice(src["next"].get(w) or [None])
        if w is None:
            # A dead end before the length: start a new phrase.
            if len(out) >= 3:
                break
            w = rng.choice(src["titles"])[0]
        out.append(w)
    return " ".join(out)


def months(n, last):
    """The months, oldest first, as (yymm, date of day 1)."""
    k = max(17, -(-n // PER_MONTH))
    y, m = int(last[:4]), int(last[5:7])
    out = []
    for _ in range(k):
        out.append((y, m))
        m -= 1
        if m == 0:
            y, m = y - 1, 12
    return out[::-1]


def weekdays(y, m):
    d = datetime.date(y, m, 1)
    out = []
    while d.month == m:
        if d.weekday() < 5:
            out.append(d.isoformat())
        d += datetime.timedelta(days=1)
    return out


def paper(rng, src, auth, pid, date, seed):
    """One paper: its id and date given, everything else drawn."""
    cats = rng.choice(src["cats"])
    pool = src["sents"].get(cats[0]) or src["all_sents"]
    summary = " ".join(rng.choice(pool)
                       for _ in range(rng.choice(src["nsent"])))
    na = rng.choice(src["nauth"])
    lead = auth.rank(rng.random())
    ranks = [lead]
    seen = {lead}
    for _ in range(na - 1):
        for _ in range(4):  # a paper names an author once
            r = (auth.circle(lead, rng)
                 if rng.random() < CIRCLE
                 else auth.rank(rng.random()))
            if r not in seen:
                break
        seen.add(r)
        ranks.append(r)
    # The lead is often not listed first.
    rng.shuffle(ranks)
    names = [auth.name(r) for r in ranks]
    # In this order: the draws of a seed stay those of earlier versions.
    t = title(rng, src)
    return {"id": pid, "authors": names, "title": t,
            "categories": cats, "comment": rng.choice(src["comments"]),
            "summary": summary, "_listing_date": date,
            "_source": "tests/bench/corpus/gen.py seed %d" % seed}


def day_of(src, after, day):
    """Day D after a corpus: its month (yy, mm) and first weekday."""
    y, m = months(after, src["last_month"])[-1]
    m += day + 1
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    return y, m, weekdays(y, m)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--src", default=SRC)
    ap.add_argument("--after", type=int, metavar="W",
                    help="write day --day of the harvest after W papers")
    ap.add_argument("--day", type=int, default=0, metavar="D")
    ap.add_argument("--stats", action="store_true",
                    help="print the distributions of the result to stderr")
    a = ap.parse_args()
    if a.after is None and a.day != 0:
        ap.error("--day needs --after")
    if a.after is not None and (a.after < 1 or a.day < 0):
        ap.error("--after is a corpus size (1 or more), --day 0 or more")
    src = read_source(a.src)
    if a.after is not None:
        # A day: its own draws (a string seed is hashed, stable across
        # runs), the authors of the corpus before it.
        rng = random.Random("%d/day/%d" % (a.seed, a.day))
        auth = Authors(a.after, a.seed, src)
        y, m, date = day_of(src, a.after, a.day)
        mon, per = [(y, m)], [a.n]
    else:
        rng = random.Random(a.seed)
        auth = Authors(a.n, a.seed, src)
        mon = months(a.n, src["last_month"])
        per = [a.n * (i + 1) // len(mon) - a.n * i // len(mon)
               for i in range(len(mon))]
    if max(per) > 69999:
        sys.exit("gen.py: too many papers for five-digit ids")
    # mtime=0: the same N and seed give the same bytes, gzip's too.
    raw = sys.stdout.buffer if a.out == "-" else open(a.out, "wb")
    gz = gzip.GzipFile(filename="", fileobj=raw, mode="wb",
                       compresslevel=1, mtime=0)
    out = io.TextIOWrapper(gz, encoding="utf-8")
    tty = sys.stderr.isatty()
    t0 = last = time.monotonic()
    counts = collections.Counter() if a.stats else None
    done = 0
    for (y, m), k in zip(mon, per):
        days = weekdays(y, m)
        for j in range(k):
            pid = "%02d%02d.%05d" % (y % 100, m, 30001 + j)
            o = paper(rng, src, auth, pid,
                      date if a.after is not None
                      else days[j * len(days) // k], a.seed)
            if counts is not None:
                counts.update(set(o["authors"]))
            out.write(json.dumps(o, ensure_ascii=False))
            out.write("\n")
            done += 1
            if tty and done % 1000 == 0:
                now = time.monotonic()
                if now - last >= 0.5:
                    last = now
                    rate = done / (now - t0)
                    sys.stderr.write(
                        "\r%d/%d papers  %.0f papers/s  ETA %.0f s   " %
                        (done, a.n, rate, (a.n - done) / rate))
    out.close()
    raw.close()
    secs = time.monotonic() - t0
    if tty:
        sys.stderr.write("\r%60s\r" % "")
    sys.stderr.write("gen.py: %d papers in %.1f s (%.0f papers/s), "
                     "%d months from %d-%02d\n" %
                     (done, secs, done / max(secs, 1e-9), len(mon),
                      mon[0][0], mon[0][1]))
    if counts is not None:
        d = collections.Counter(counts.values())
        tot = sum(counts.values())
        sys.stderr.write(
            "names %d, authorships %d (%.2f per paper), one paper %.1f %%, "
            "busiest %s\npapers per name: %s\n" %
            (len(counts), tot, tot / max(done, 1),
             100.0 * d[1] / max(len(counts), 1),
             counts.most_common(3), sorted(d.items())[:12]))


if __name__ == "__main__":
    main()
