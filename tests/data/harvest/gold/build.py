#!/usr/bin/env python3
"""build.py -- the gold authorships of "weft-harvest eval".

Walks every recorded OpenAlex and Semantic Scholar response given (JSON,
gzip or not, the source app's {"data": ...} wrapper, vcrpy YAML
cassettes), finds every work / paper whose authors carry the source's
author ids, and writes one JSON line a work, deduplicated by source and
id, sorted:

  {"src": "openalex"|"s2", "id": ..., "date": "YYYY-MM-DD" or "YYYY" or "",
   "fields": [...], "authors": [{"name": ..., "id": ... or null,
   "orcid": ... or null}, ...]}

Nothing is edited: names are the raw names the source gave (OpenAlex's
raw_author_name, else display_name; S2's name).  Run:

  tests/data/harvest/gold/build.py tests/data/harvest /work/shared/data \
      | gzip -n9 > tests/data/harvest/gold/authorships.jsonl.gz
"""
import gzip
import json
import os
import sys

import yaml

works = {}


def oa_work(w):
    ash = w.get("authorships")
    wid = w.get("id")
    if not isinstance(ash, list) or not isinstance(wid, str) or \
            "openalex.org/W" not in wid:
        return
    authors = []
    for a in ash:
        au = a.get("author") or {}
        name = a.get("raw_author_name") or au.get("display_name")
        if not name:
            continue
        orcid = au.get("orcid")
        if orcid:
            orcid = orcid.rsplit("/", 1)[-1]
        authors.append({"name": name, "id": au.get("id"), "orcid": orcid})
    if not any(a["id"] for a in authors):
        return
    fields = [c["display_name"] for c in w.get("concepts") or []
              if c.get("level") == 0 and c.get("display_name")]
    sub = ((w.get("primary_topic") or {}).get("subfield") or {})
    if sub.get("display_name"):
        fields.append(sub["display_name"])
    date = w.get("publication_date") or str(w.get("publication_year") or "")
    key = ("openalex", wid)
    old = works.get(key)
    # The richest record of a work wins (select= variants carry less).
    if old is None or len(authors) > len(old["authors"]):
        works[key] = {"src": "openalex", "id": wid, "date": date,
                      "fields": fields, "authors": authors}


def s2_paper(p):
    pid = p.get("paperId")
    au = p.get("authors")
    if not isinstance(pid, str) or not isinstance(au, list):
        return
    authors = []
    for a in au:
        if not isinstance(a, dict) or not a.get("name"):
            continue
        ext = a.get("externalIds") or {}
        orcid = ext.get("ORCID") if isinstance(ext, dict) else None
        authors.append({"name": a["name"], "id": a.get("authorId"),
                        "orcid": orcid})
    if not any(a["id"] for a in authors):
        return
    fields = []
    for f in p.get("s2FieldsOfStudy") or []:
        if isinstance(f, dict) and f.get("category") and \
                f["category"] not in fields:
            fields.append(f["category"])
    for f in p.get("fieldsOfStudy") or []:
        if isinstance(f, str) and f not in fields:
            fields.append(f)
    date = p.get("publicationDate") or str(p.get("year") or "")
    key = ("s2", pid)
    old = works.get(key)
    if old is None or len(authors) > len(old["authors"]) or \
            (len(authors) == len(old["authors"]) and
             (len(fields) > len(old["fields"]) or
              len(date) > len(old["date"]))):
        works[key] = {"src": "s2", "id": pid, "date": date,
                      "fields": fields, "authors": authors}


def walk(o):
    if isinstance(o, dict):
        oa_work(o)
        s2_paper(o)
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        text = f.read()
    name = path[:-3] if path.endswith(".gz") else path
    if name.endswith(".yaml") or name.endswith(".yml"):
        cas = yaml.safe_load(text)
        for it in cas.get("interactions") or []:
            body = ((it.get("response") or {}).get("body") or {})
            s = body.get("string")
            if isinstance(s, str) and s.strip():
                try:
                    walk(json.loads(s))
                except ValueError:
                    pass
        return
    if name.endswith(".jsonl"):
        for line in text.splitlines():
            if line.strip():
                walk(json.loads(line))
        return
    try:
        walk(json.loads(text))
    except ValueError:
        pass


def main():
    for root in sys.argv[1:]:
        for d, dirs, files in os.walk(root):
            dirs.sort()
            if "/gold" in d or os.path.basename(d) == "gold":
                continue
            for fn in sorted(files):
                base = fn[:-3] if fn.endswith(".gz") else fn
                if base.endswith((".json", ".jsonl", ".yaml", ".yml")):
                    load(os.path.join(d, fn))
    for k in sorted(works):
        sys.stdout.write(json.dumps(works[k], ensure_ascii=False,
                                    sort_keys=True) + "\n")


main()
