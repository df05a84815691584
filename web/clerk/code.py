"""The code for the clerk: every section by code, a search with the matches marked, and one section with the
parameters it sets, the topics that cite it and the gaps noted in it."""

from __future__ import annotations

import re

from flask import Blueprint, abort, render_template, request

from .. import get_town
from .auth import login_required
from .local_time import local_now

bp = Blueprint("code", __name__)


def _terms(q: str) -> list[str]:
    return [w for w in re.findall(r"[\w.\-()]+", q.lower()) if len(w) > 1][:8]


def highlight(text: str, terms: list[str]) -> list[tuple[str, bool]]:
    """Split ``text`` into (piece, matched) for <mark>; the template escapes every piece."""
    if not terms:
        return [(text, False)]
    pat = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.I)
    out, pos = [], 0
    for m in pat.finditer(text):
        out.append((text[pos:m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    out.append((text[pos:], False))
    return [p for p in out if p[0]]


def search_sections(t, q: str):
    terms = _terms(q)
    if not terms:
        return []
    hits = []
    for sec in t.sections.values():
        hay = f"{sec.number} {sec.title} {sec.text}".lower()
        if all(term in hay for term in terms):
            score = sum(hay.count(term) for term in terms) + (5 if any(term in sec.title.lower()
                                                                       for term in terms) else 0)
            paras = [p for p in sec.paragraphs if any(term in p.text.lower() for term in terms)][:3]
            hits.append((score, sec, [(p.path, highlight(p.text, terms)) for p in paras]))
    hits.sort(key=lambda h: -h[0])
    return hits


def params_for(t, number: str):
    return [p for p in t.parameters.values() if p.reference.section.number == number]


@bp.get("/code")
@login_required
def browse():
    t = get_town()
    q = request.args.get("q", "")[:200]
    groups: dict[str, list] = {}
    for sec in t.sections.values():
        groups.setdefault(sec.code, []).append(sec)
    return render_template("clerk/code.html", town=t, q=q, hits=search_sections(t, q) if q else None,
                           groups=groups, gaps=t.gaps)


@bp.get("/code/<path:number>")
@login_required
def section(number: str):
    t = get_town()
    sec = t.sections.get(number)
    if sec is None:
        abort(404, "No such section in our copy of the code.")
    today = local_now().date()
    topics = [tp for tp in t.topics.values() if any(c.section.number == number for c in tp.citations)]
    return render_template("clerk/section.html", town=t, section=sec, params=params_for(t, number), today=today,
                           gaps=[g_ for g_ in t.gaps if g_.section.split("(")[0] == number], topics=topics)
