"""Text helpers: citation links for bot text (as segments, never HTML), GSM-7, and SMS paging -- the one
paging implementation: the SMS webhook pages answers and texts here and keeps the pages for "MORE"."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# ---- citations -> links ------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _section_pattern(numbers: tuple[str, ...]) -> re.Pattern | None:
    if not numbers:
        return None
    alts = "|".join(re.escape(n) for n in sorted(numbers, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?P<num>{alts})(?P<path>(\([0-9a-zA-Z]{{1,4}}\))*)(?![\w-]|\.\d)")


def segments(text: str, section_numbers: tuple[str, ...], href) -> list[dict]:
    """Split ``text`` into [{"text": ...}] and [{"text": ..., "href": ...}] parts: section numbers the town
    knows become links to their pages. The client renders each part as a text node or an <a>."""
    pat = _section_pattern(section_numbers)
    if not pat:
        return [{"text": text}]
    out, pos = [], 0
    for m in pat.finditer(text):
        if m.start() > pos:
            out.append({"text": text[pos:m.start()]})
        out.append({"text": m.group(0), "href": href(m.group("num"))})
        pos = m.end()
    if pos < len(text):
        out.append({"text": text[pos:]})
    return out


# ---- GSM-7 -------------------------------------------------------------------------------------------

GSM7_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
    "¿abcdefghijklmnopqrstuvwxyzäöñüà")
#: The extension table less the form feed (page break): XML 1.0 has no form feed, so a reply holding one would
#: make the SMS webhook's TwiML malformed and Twilio would send nothing. to_gsm7 turns it into a space.
GSM7_EXT = set("^{}\\[~]|€")
REPLACE = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\f": " ", "\u2026": "...", "\u2022": "*", "\u00b7": "*", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
    "\u00a7": "§", "\u00b6": "P.", "\t": " ", "\u00bd": "1/2", "\u00bc": "1/4", "\u00be": "3/4",
    "\u2192": "->", "\u2264": "<=", "\u2265": ">=", "\u00d7": "x", "\u00b0": " deg",
}
#: a page is at most two concatenated GSM-7 segments (153 septets each: REFERENCE, Twilio)
SMS_LIMIT = 2 * 153
MORE_FIRST = " Reply MORE for details."  # page 1 of an answer: the lead, when there is more
MORE_NOTE = " Reply MORE for more."  # every later page but the last


def to_gsm7(text: str) -> str:
    """Replace characters outside the GSM-7 alphabet so a message never falls back to UCS-2."""
    out = []
    for ch in text:
        if ch in GSM7_BASIC or ch in GSM7_EXT:
            out.append(ch)
            continue
        if ch in REPLACE:
            out.append(REPLACE[ch])
            continue
        base = unicodedata.normalize("NFKD", ch)
        base = "".join(c for c in base if not unicodedata.combining(c))
        out.append(base if base and all(c in GSM7_BASIC for c in base) else "?")
    return "".join(out)


def gsm7_length(text: str) -> int:
    """Septets used (extension characters count twice)."""
    return sum(2 if ch in GSM7_EXT else 1 for ch in text)


def is_gsm7(text: str) -> bool:
    return all(ch in GSM7_BASIC or ch in GSM7_EXT for ch in text)


def _units(text: str) -> list[tuple[str, str]]:
    """(separator before it, sentence) for every sentence of ``text``; lines stay lines."""
    from knowledge.render import sentences
    out = []
    for line in text.split("\n"):
        for i, sentence in enumerate(sentences(line)):
            out.append(("\n" if out and i == 0 else " ", sentence))
    return out


def sms_pages(text: str, limit: int = SMS_LIMIT, more: str = MORE_NOTE) -> list[str]:
    """``text`` in GSM-7, cut into pages of at most ``limit`` septets on sentence boundaries (a sentence
    longer than a page on a clause, then a word boundary); every page but the last ends with ``more``."""
    from knowledge.render import fit
    text = to_gsm7(re.sub(r"[ \t]+", " ", text or "").strip())
    if gsm7_length(text) <= limit:
        return [text] if text else []
    room = limit - gsm7_length(more)
    pages, page = [], ""
    units = _units(text)
    while units:
        sep, sentence = units.pop(0)
        joined = f"{page}{sep}{sentence}" if page else sentence
        last = not units
        if gsm7_length(joined) <= (limit if last else room):
            page = joined
            continue
        if page and gsm7_length(joined) <= limit and last:
            page = joined
            continue
        if page:  # the sentence starts the next page
            pages.append(page)
            page = ""
            units.insert(0, ("", sentence))
            continue
        head, rest = fit(sentence, room, gsm7_length)  # one sentence longer than a page
        pages.append(head)
        units.insert(0, ("", rest))
    if page:
        pages.append(page)
    return [p + more if i < len(pages) - 1 else p for i, p in enumerate(pages)]


# ---- answers in parts (knowledge.render.payload, sent by the action server) ---------------------------------

def _str(value, limit: int = 4000) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _strs(value, limit: int = 60) -> list[str]:
    return [v[:4000] for v in value[:limit] if isinstance(v, str) and v] if isinstance(value, list) else []


def clean_answer(value) -> dict | None:
    """An answer's parts as the action server sent them, checked and cut to size (None if not an answer)."""
    if not isinstance(value, dict) or not isinstance(value.get("lead"), str) or not value["lead"].strip():
        return None
    steps = [{"text": _str(s.get("text")), "cites": _strs(s.get("cites"), 20)}
             for s in (value.get("steps") or [])[:60] if isinstance(s, dict) and _str(s.get("text"))] \
        if isinstance(value.get("steps"), list) else []
    sources = [{k: _str(s.get(k), 2000) for k in ("label", "ref", "section", "quote")}
               for s in (value.get("sources") or [])[:60] if isinstance(s, dict) and _str(s.get("label"))] \
        if isinstance(value.get("sources"), list) else []
    return {"lead": _str(value["lead"], 1000), "rest": _str(value.get("rest")), "steps": steps, "sources": sources,
            "gaps": _strs(value.get("gaps")), "caveats": _strs(value.get("caveats")),
            "topic": _str(value.get("topic"), 80)}


def answer_details(answer: dict) -> str:
    """The details of an answer as SMS text: the rest of the result, how it was worked out, the sections, what
    our copy does not say, and the notes."""
    parts = [answer.get("rest") or ""]
    steps = [s["text"] for s in answer.get("steps") or []]
    if steps:
        parts.append("How: " + " ".join(s if s.endswith((".", ":")) else s + "." for s in steps))
    labels = list(dict.fromkeys(s["label"] for s in answer.get("sources") or []))
    if labels:
        parts.append("Sources: " + "; ".join(labels) + ".")
    if answer.get("gaps"):
        parts.append("Not in our copy: " + " ".join(answer["gaps"]))
    if answer.get("caveats"):
        parts.append(" ".join(answer["caveats"]))
    return "\n".join(p for p in parts if p)


def reply_pages(now: str, details: str = "", limit: int = SMS_LIMIT) -> list[str]:
    """SMS pages of a reply: page 1 is ``now`` (the leads and any question), with "Reply MORE for details"
    when there are ``details``; the details follow on sentence boundaries."""
    if not details.strip():
        return sms_pages(now, limit)
    first = sms_pages(now, limit)
    if len(first) == 1 and gsm7_length(first[0] + MORE_FIRST) <= limit:
        return [first[0] + MORE_FIRST] + sms_pages(details, limit)
    return sms_pages(now + "\n" + details, limit)  # a page 1 longer than a page (handlers keep leads short)


def answer_pages(answer: dict, limit: int = SMS_LIMIT) -> list[str]:
    """An answer as SMS pages: page 1 is the lead (with "Reply MORE for details" when there is more), then the
    details on sentence boundaries."""
    return reply_pages(answer.get("lead") or "", answer_details(answer), limit)


def answer_plain(answer: dict) -> str:
    """The whole answer as plain text (transcripts, the web's text fallback)."""
    return "\n".join(p for p in (answer.get("lead") or "", answer_details(answer)) if p)
