#!/usr/bin/env python3
"""tests/bench/cost_curve.py -- the cost curve of issue 19, item 7, as an
SVG: load time, refresh time, search p95, cold researcher page p99 and
a whole day's harvest against the corpus size, one small log-log panel
each.

    tests/bench/cost_curve.py tests/bench/cost_curve.csv > tests/bench/cost_curve.svg

The CSV has a header "papers,metric,value,kind": metric one of load_s,
refresh_s, search_p95_ms, researcher_p99_ms, daily_refresh_s, day_s;
kind "measured", "extrapolated" (drawn hollow, joined by a dashed
line) or "superseded" (measured with code since changed: drawn grey,
joined to nothing).  Empty values are left out.  A panel whose metric
issue 19 sets a bound for draws it as a red line (TARGETS).  The days'
panel draws its points unjoined: several days measured at nearby sizes
spread more than they grow.  Standard library only: it runs wherever
the benches do.
"""
import csv
import math
import sys
from xml.sax.saxutils import escape

PANELS = [
    ("load_s", "load (weft-harvest load, with match), s"),
    ("refresh_s", "full refresh of the derived tables, s"),
    ("search_p95_ms", "search p95, one client, ms (worst row)"),
    ("researcher_p99_ms", "cold busiest researcher p99, 32 conns, ms"),
    ("daily_refresh_s", "refresh after a day's 20,000 papers, s"),
    ("day_s", "a whole day of 20,000 papers, cold, s"),
]
# Issue 19's bounds: search p95 <= 100 ms (item 2), the cold researcher
# page's p99 < 50 ms (item 4), a day under 2 minutes (item 3).
TARGETS = {"search_p95_ms": 100, "researcher_p99_ms": 50, "day_s": 120}
SCATTER = {"day_s"}
W, H = 360, 240          # one panel
ML, MR, MT, MB = 56, 16, 34, 40


def ticks(lo, hi):
    """Powers of ten (and 2x, 5x when the range is short) in [lo, hi]."""
    out = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5) if math.log10(hi / lo) < 2.5 else (1,):
            v = m * 10 ** e
            if lo * 0.9999 <= v <= hi * 1.0001:
                out.append(v)
        e += 1
    return out


def label(v):
    if v >= 1e6:
        return "%.3gM" % (v / 1e6)
    if v >= 1e3:
        return "%.3gk" % (v / 1e3)
    return "%.3g" % v


def panel(ox, oy, title, pts, xs, named, target=None, joined=True):
    out = []
    ys = [v for _, v, _ in pts] or [1]
    if target is not None:
        ys.append(target)
    x0, x1 = min(xs) / 1.5, max(xs) * 1.5
    y0, y1 = min(ys) / 2, max(ys) * 2
    pw, ph = W - ML - MR, H - MT - MB

    def px(x):
        return ox + ML + pw * math.log(x / x0) / math.log(x1 / x0)

    def py(y):
        return oy + MT + ph * (1 - math.log(y / y0) / math.log(y1 / y0))

    out.append('<text x="%d" y="%d" class="t">%s</text>' %
               (ox + ML, oy + 20, escape(title)))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>' %
               (ox + ML, oy + MT, pw, ph))
    for x in xs:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>'
                   % (px(x), oy + MT, px(x), oy + MT + ph))
        # Only the sizes loaded are named; the days' sizes between them
        # keep their line (1M, 1.02M and 1.84M would overprint 2.5M).
        if x not in named:
            continue
        out.append('<text x="%.1f" y="%d" class="xl">%s</text>' %
                   (px(x), oy + MT + ph + 16, label(x)))
    for y in ticks(y0, y1):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" class="grid"/>'
                   % (ox + ML, py(y), ox + ML + pw, py(y)))
        out.append('<text x="%d" y="%.1f" class="yl">%s</text>' %
                   (ox + ML - 6, py(y) + 4, label(y)))
    if target is not None:
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" class="target"/>'
                   '<text x="%d" y="%.1f" class="tl">target %s</text>' %
                   (ox + ML, py(target), ox + ML + pw, py(target),
                    ox + ML + 4, py(target) - 4, label(target)))
    old = [p for p in pts if p[2] == "superseded"]
    pts = sorted(p for p in pts if p[2] != "superseded")
    for (xa, ya, ka), (xb, yb, kb) in zip(pts, pts[1:] if joined else []):
        dash = "measured" if ka == kb == "measured" else "extrapolated"
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" '
                   'class="%s"/>' % (px(xa), py(ya), px(xb), py(yb), dash))
    for x, y, k in pts + old:
        out.append('<circle cx="%.1f" cy="%.1f" r="4" class="p%s">'
                   '<title>%s papers: %g (%s)</title></circle>' %
                   (px(x), py(y), k[0], label(x), y, k))
    if not pts:
        out.append('<text x="%d" y="%d" class="yl">not measured</text>' %
                   (ox + ML + pw // 2 + 30, oy + MT + ph // 2))
    return out


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    xs = sorted({int(r["papers"]) for r in rows})
    named = {int(r["papers"]) for r in rows if r["metric"] == "load_s"}
    cols = 3
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" role="img" aria-label="Cost against corpus '
           'size">' % (W * cols, H * 2 + 24, W * cols, H * 2 + 24),
           '<style>text{font:11px sans-serif;fill:#333}.t{font-weight:bold}'
           '.xl{text-anchor:middle}.yl{text-anchor:end}'
           '.frame{fill:none;stroke:#999}.grid{stroke:#eee}'
           '.measured{stroke:#1f5fa8;stroke-width:2}'
           '.extrapolated{stroke:#1f5fa8;stroke-width:1.5;'
           'stroke-dasharray:4 3}.pm{fill:#1f5fa8}'
           '.pe{fill:#fff;stroke:#1f5fa8;stroke-width:1.5}'
           '.target{stroke:#c0392b;stroke-width:1;stroke-dasharray:6 3}'
           '.ps{fill:#fff;stroke:#999;stroke-width:1.5}'
           '.tl{fill:#c0392b}</style>']
    for i, (key, title) in enumerate(PANELS):
        pts = [(int(r["papers"]), float(r["value"]), r["kind"])
               for r in rows if r["metric"] == key and r["value"]]
        svg += panel((i % cols) * W, (i // cols) * H, title, pts, xs, named,
                     TARGETS.get(key), key not in SCATTER)
    svg.append('<text x="8" y="%d">papers (log scale); filled: measured, '
               'hollow: extrapolated; grey: measured with '
               'earlier code; red: the issue\'s bound</text>' % (H * 2 + 16))
    svg.append("</svg>")
    print("\n".join(svg))


if __name__ == "__main__":
    main()
