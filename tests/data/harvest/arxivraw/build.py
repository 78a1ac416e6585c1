#!/usr/bin/env python3
"""Builds ListRecords_arXivRaw_0704.xml from arXiv's own .abs
files (shared/data/arxiv/abs_files/arxiv-browse_abs_files.tar.gz, arXiv's
browse test data): an OAI-PMH arXivRaw page of 15 papers the bundled data
also holds (the Kaggle snapshot's 0704.0001-0704.0200).

No real arXivRaw response is public (shared/data/SOURCES.md, "Known
gaps"); arXivRaw is arXiv's serialisation of exactly these .abs fields,
so this is a re-serialisation: every value comes from the .abs file
unchanged (XML-escaped), in arXivRaw.xsd's element order, inside the
envelope of the recorded arXiv-format response (oai/hepcrawl_*.xml).
The header has no setSpec and responseDate/datestamp are the latest
version's date: those are the only values not in the .abs files.

    python3 build.py ../../../../../shared/data/arxiv/abs_files/\
arxiv-browse_abs_files.tar.gz > ListRecords_arXivRaw_0704.xml
"""
import email.utils
import re
import sys
import tarfile
from xml.sax.saxutils import escape

# 0704.0001-0010, and five whose authors line names affiliations
# ("Name (Inst)", numbered "(1) ... ((1) Inst, (2) Inst)", "(1 and 2)").
IDS = ["0704.%04d" % i for i in list(range(1, 11)) + [25, 44, 52, 128, 177]]
FIELDS = [("Title", "title"), ("Authors", "authors"),
          ("Categories", "categories"), ("Comments", "comments"),
          ("Proxy", "proxy"), ("Report-no", "report-no"),
          ("MSC-class", "msc-class"), ("ACM-class", "acm-class"),
          ("Journal-ref", "journal-ref"), ("DOI", "doi"),
          ("License", "license")]


def parse(text):
    parts = text.split("\\\\\n")
    head, abstract = parts[1], parts[2]
    meta = head.split("\n\n", 1)[1]
    rec = {"versions": []}
    for line in head.split("\n\n", 1)[0].splitlines():
        if line.startswith("arXiv:"):
            rec["id"] = line[6:].strip()
        elif line.startswith("From: "):
            rec["submitter"] = re.sub(r"\s*<[^>]*>\s*$", "", line[6:])
        elif line.startswith("Date"):
            m = re.match(r"Date(?: \(revised v(\d+)\))?: (.*?)\s+\((\d+kb)"
                         r"(?:,(\w+))?\)", line)
            rec["versions"].append((m.group(2), m.group(3), m.group(4)))
    key = None
    for line in meta.splitlines():
        if line.startswith("  ") and key:
            rec[key] += "\n" + line
        elif ": " in line:
            key, val = line.split(": ", 1)
            rec[key] = val
    rec["abstract"] = abstract
    return rec


def record(rec):
    last = email.utils.parsedate_to_datetime(rec["versions"][-1][0])
    out = ["<record>\n<header>\n <identifier>oai:arXiv.org:%s</identifier>"
           "\n <datestamp>%s</datestamp>\n</header>\n<metadata>\n"
           % (rec["id"], last.strftime("%Y-%m-%d")),
           ' <arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://arxiv.org/OAI/arXivRaw/ '
           'http://arxiv.org/OAI/arXivRaw.xsd">\n <id>%s</id>' % rec["id"],
           "<submitter>%s</submitter>" % escape(rec["submitter"])]
    for i, (date, size, stype) in enumerate(rec["versions"]):
        out.append('<version version="v%d"><date>%s</date><size>%s</size>'
                   % (i + 1, escape(date), size))
        if stype:
            out.append("<source_type>%s</source_type>" % stype)
        out.append("</version>")
    for k, el in FIELDS:
        if k in rec:
            out.append("<%s>%s</%s>" % (el, escape(rec[k]), el))
    out.append("<abstract>%s</abstract></arXivRaw>\n</metadata>\n"
               "</record>\n" % escape(rec["abstract"]))
    return "".join(out), last


def main():
    recs = []
    with tarfile.open(sys.argv[1]) as tar:
        for i in IDS:
            f = tar.extractfile("abs_files/ftp/arxiv/papers/0704/%s.abs" % i)
            recs.append(record(parse(f.read().decode("utf-8"))))
    newest = max(r[1] for r in recs)
    sys.stdout.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.'
        'openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/'
        'XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org'
        '/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n'
        "<responseDate>%s</responseDate>\n"
        '<request verb="ListRecords" metadataPrefix="arXivRaw">'
        "http://export.arxiv.org/oai2</request>\n<ListRecords>\n"
        % newest.strftime("%Y-%m-%dT%H:%M:%SZ"))
    for text, _ in recs:
        sys.stdout.write(text)
    sys.stdout.write("</ListRecords>\n</OAI-PMH>\n")


main()
