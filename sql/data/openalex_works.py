#!/usr/bin/env python3
"""openalex_works.py -- sql/data/openalex_works.jsonl.gz from the recorded
OpenAlex responses: every work that carries an arXiv id (its DataCite DOI
10.48550/arXiv.ID or an arxiv.org location), all works of an id, the one
the loader makes the paper from last.  An id whose preferred work predates
the arXiv id itself (OpenAlex tying a 1994 article to a 2002 preprint) is
left out.  Values unchanged; one compact line a work.

  sql/data/openalex_works.py ../shared/data/openalex \\
      | gzip -9n > sql/data/openalex_works.jsonl.gz
"""
import json,gzip,os,re,sys
root=sys.argv[1] if len(sys.argv)>1 else '../shared/data/openalex'
pre='https://doi.org/10.48550/arxiv.'
axre=re.compile(r'^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$')
def stub(w):
    d=(w.get('ids') or {}).get('doi') or w.get('doi')
    if isinstance(d,str) and d.lower().startswith(pre):
        x=d[len(pre):]
        m=axre.match(x)
        if m: return m.group(1)
def loc(w):
    for l in [w.get('primary_location')]+(w.get('locations') or []):
        if not isinstance(l,dict): continue
        for k in ('landing_page_url','pdf_url'):
            u=l.get(k) or ''
            # the prefixes harvest_oa_work_arxiv_loc() takes
            m=re.match(r'^(?:https?://arxiv\.org/(?:abs|pdf)/|https?://export\.arxiv\.org/abs/)(.+?)(\.pdf|/)?$',u,re.I)
            if m and axre.match(m.group(1)): return axre.match(m.group(1)).group(1)
found={}
def walk(o,src):
    if isinstance(o,dict):
        wid=o.get('id')
        if isinstance(wid,str) and 'openalex.org/W' in wid and isinstance(o.get('authorships'),list) and o.get('authorships'):
            ax=stub(o); kind=0
            if ax is None: ax=loc(o); kind=1
            if ax:
                # names written "First Last" (not "Last, First") first,
                # then the DataCite stub (arXiv's own record), then the
                # most authorships
                plain=all(',' not in (a.get('raw_author_name') or '')
                          for a in o['authorships'])
                score=(plain, 1-kind, len(o['authorships']))
                found.setdefault(ax,{})[o['id']]=(score,o,src)
        for v in o.values(): walk(v,src)
    elif isinstance(o,list):
        for v in o: walk(v,src)
for d,ds,fs in sorted(os.walk(root)):
    for fn in sorted(fs):
        p=os.path.join(d,fn)
        op=gzip.open if fn.endswith('.gz') else open
        try: walk(json.load(op(p,'rt',encoding='utf-8')),p)
        except Exception as e: print('skip',p,e,file=sys.stderr)
def axyear(ax):
    m=re.match(r'^(\d\d)(\d\d)\.',ax) or re.match(r'^[a-z-]+(?:\.[A-Z]{2})?/(\d\d)(\d\d)',ax)
    y=int(m.group(1)); return 2000+y if y<91 else 1900+y
out=[]
for ax in sorted(found):
    # the preferred record last (the loader keeps the last line of an id)
    ws=sorted(found[ax].values(), key=lambda t:(t[0],t[1]['id']))
    if (ws[-1][1].get('publication_year') or 0) < axyear(ax):
        print('drop',ax,file=sys.stderr); continue
    for sc,o,src in ws:
        print(ax,o['id'],o.get('cited_by_count'),src.replace(root,''),file=sys.stderr)
        out.append(json.dumps(o,ensure_ascii=False,separators=(',',':')))
sys.stdout.write('\n'.join(out)+'\n')
