#!/bin/sh
# modules/pages/static/icons.sh -- the raster icons, made from favicon.svg
# with librsvg (Debian's librsvg2-bin): apple-touch-icon.png (180 px) and
# favicon.ico (a 32 and a 48 px PNG in an ICO container, as browsers and
# crawlers asking for /favicon.ico expect).  The results are committed;
# run this again after changing favicon.svg.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rsvg-convert -w 180 -h 180 -b '#2a55c9' favicon.svg -o apple-touch-icon.png
rsvg-convert -w 32 -h 32 favicon.svg -o "$tmp/32.png"
rsvg-convert -w 48 -h 48 favicon.svg -o "$tmp/48.png"
python3 - "$tmp/32.png" "$tmp/48.png" >favicon.ico <<'PY'
import struct, sys
pngs = [open(f, "rb").read() for f in sys.argv[1:]]
out = struct.pack("<HHH", 0, 1, len(pngs))
off = 6 + 16 * len(pngs)
for p in pngs:
    w, h = struct.unpack(">II", p[16:24])
    out += struct.pack("<BBBBHHII", w % 256, h % 256, 0, 0, 1, 32, len(p), off)
    off += len(p)
sys.stdout.buffer.write(out + b"".join(pngs))
PY
