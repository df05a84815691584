"""Answers in parts for the channels: the lead first, then the details on request (issue #11).

- ``lead(answer)``: the one or two whole sentences (at most 160 characters) that answer the question asked;
  the handler's ``Answer.lead`` when set, else derived here, in this one place, from ``result``.
- ``payload(answer)``: the answer as parts, {"lead", "rest", "steps", "sources", "gaps", "caveats"}; the
  action server sends it as a custom message and each channel (web chat, SMS) renders it. Paging is the SMS
  layer's (web/text.py), nowhere else.
- ``text(answer)``: the whole answer as plain text (the fallback for clients that ignore the parts).
- ``gap_lines(answer)``: the gaps of our copy in plain words, one line per kind.
- ``internal_text(text)``: what in a resident-facing text is internal (file paths, YAML keys, parameter names,
  "None", "not yet configured"); tests use it as a guard.
"""

from __future__ import annotations

import re

from . import timewords
from .model import Answer, Citation

LEAD_MAX = 160
GAP_PREFIX = "Our copy of the code has a gap:"

_GSM = ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
        "¿abcdefghijklmnopqrstuvwxyzäöñüà")
_ASCII = {"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-", "…": "...", "→": "->", "×": "x",
          "•": "-", "\u00a0": " ", "≤": "<=", "≥": ">="}

# ---- sentences ------------------------------------------------------------------------------------------

_MONTH_SHORT = "|".join(w.capitalize() for w in timewords.MONTH_NUMBER if w not in timewords.MONTHS)  # "Jan", "Sept"
#: words ending in a period that do not end a sentence ("Wis. Stat. 174.05", "e.g. a dog", "Sec. 7.02")
_ABBREV = re.compile(r"(?:\b(?:Wis|Stat|Stats|Sec|Secs|Admin|No|Nos|Mr|Mrs|Ms|Dr|St|vs|etc|approx|ch|Ch|"
                     r"par|sub|" + _MONTH_SHORT + r")|\be\.g|\bi\.e|\b[A-Z])\.$")
_TIME = re.compile(r"\b[ap]\.m\.$")
_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences, each with its end mark; nothing dropped but the spaces between them.

    A period ends a sentence only before a capital letter, a digit, an amount ("$25") or a quote, and not after an
    abbreviation ("Wis. Stat.", "e.g.") or after "a.m."/"p.m." followed by a time zone ("3:00 p.m. CST")."""
    text = re.sub(r"\s+", " ", text or "").strip()
    out, start = [], 0
    for m in _END.finditer(text):
        before, after = text[start:m.start()], text[m.end():]
        head = before + text[m.start():m.end()].rstrip()
        if not after or not re.match(r"[A-Z0-9$£\"'(]", after):
            continue
        if _ABBREV.search(head.rstrip("\"')]")):
            continue
        if _TIME.search(head) and re.match(r"[A-Z]{2,4}\b", after):
            continue
        out.append(text[start:m.end()].strip())
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def clauses(sentence: str) -> list[str]:
    """A sentence cut after its clause marks ("; ", ": ", ", " but not in "July 4, 2026", before " - "), each
    piece keeping its mark."""
    parts = re.split(r"(?<=[;:])\s+|(?<=,)\s+(?!\d)|\s+(?=[-—]\s)", sentence)
    return [p for p in parts if p]


def fit(text: str, limit: int, measure=len) -> tuple[str, str]:
    """(head, rest): as many whole sentences of ``text`` as fit in ``limit`` characters (as ``measure``
    counts them); when even the first does not, as many of its clauses, then words (a word is cut only when it
    alone is longer than the limit). ``head`` + " " + ``rest`` is ``text`` with its spaces collapsed."""
    sents = sentences(text)
    head = ""
    for i, s in enumerate(sents):
        joined = f"{head} {s}" if head else s
        if measure(joined) > limit:
            if head:
                return head, " ".join(sents[i:])
            break
        head = joined
    else:
        return head, ""
    first, later = sents[0], " ".join(sents[1:])
    for unit in (clauses(first), first.split(" ")):
        head = ""
        for j, piece in enumerate(unit):
            joined = f"{head} {piece}" if head else piece
            if measure(joined) > limit:
                if head:
                    return head, " ".join(unit[j:] + ([later] if later else []))
                break
            head = joined
    # a single word longer than the limit (a URL): cut it
    cut = limit
    while cut > 1 and measure(first[:cut]) > limit:
        cut -= 1
    return first[:cut], (first[cut:] + (" " + later if later else "")).strip()


# ---- the parts of an answer -----------------------------------------------------------------------------

def _short_ref(c: Citation) -> str:
    return c.ref if c.section.code.startswith("Wisconsin") else f"Sec. {c.ref}"


def _whole(text: str, limit: int) -> tuple[str, str]:
    """(head, rest): as many whole sentences of ``text`` as fit in ``limit`` characters, never fewer than one:
    a lead is never cut mid-sentence (a first sentence longer than the limit is kept whole)."""
    sents = sentences(text)
    head = sents[0] if sents else ""
    for i, s in enumerate(sents[1:], 1):
        if len(f"{head} {s}") > limit:
            return head, " ".join(sents[i:])
        head = f"{head} {s}"
    return head, ""


def lead(answer: Answer) -> str:
    """The lead: ``answer.lead`` when a handler set it, else the first whole sentence(s) of ``result`` that fit
    in 160 characters, with the first source's section in short form when it fits and the words do not
    already name a section. A lead is whole sentences, never one cut mid-phrase (handlers write a shorter
    lead where their result's first sentence is too long; tests/knowledge/test_leads.py checks every one)."""
    if answer.lead:
        return answer.lead if len(answer.lead) <= LEAD_MAX else _whole(answer.lead, LEAD_MAX)[0]
    head, _ = _whole(answer.result, LEAD_MAX)
    if answer.citations and not re.search(r"\d+\.\d+", head):
        cited = f"{head} ({_short_ref(answer.citations[0])})"
        if len(cited) <= LEAD_MAX:
            head = cited
    return head


def rest(answer: Answer) -> str:
    """What ``result`` says beyond the lead (it follows the lead in the details)."""
    if answer.lead:
        return "" if answer.result.strip() == answer.lead.strip() else answer.result.strip()
    return _whole(answer.result, LEAD_MAX)[1]


_GAP_KINDS = (  # (kind, words that mark it, the plain line); the first that matches wins
    ("dates", r"\b(adoption|amendment) dates|effective date",
     "Our copy doesn't show when these rules were adopted or last changed - the Clerk can confirm they are "
     "current."),
    ("penalty", r"forfeiture|penalt|fine",
     "The penalty amounts are in a part of the code our copy doesn't include - the Clerk can tell you."),
    ("fee", r"\bfees?\b|amounts?\b|\btax\b|\$|cost",
     "Part of this fee is set by {fees_set_by} and isn't in our copy of the code - the Clerk can tell you the "
     "exact amount."),
    ("state", r"Wis\. ?Stat|Sec\. 1\d\d|state law|statute",
     "Some state laws this rule refers to aren't in our copy - the Clerk can tell you what they require."),
    ("table", r"table",
     "A table this rule refers to is missing from our copy of the code - the Clerk can tell you what it says."),
    ("other", r"",
     "Part of this section is missing from our copy of the code - the Clerk can tell you what it says."),
)


def gap_kind(what: str) -> tuple[str, str]:
    """(kind, plain line) of a gap described in the data's own words."""
    for kind, words, line in _GAP_KINDS:
        if re.search(words, what, re.I):
            return kind, line
    raise AssertionError("the last kind matches everything")


def gap_lines(answer: Answer) -> list[str]:
    """The answer's gaps (its "Our copy of the code has a gap: ..." caveats) in plain words, one line per kind;
    who sets a missing fee is the town's word (``data["fees_set_by"]``, from its town.yml)."""
    who = answer.data.get("fees_set_by") or "the local government"
    lines = [gap_kind(c[len(GAP_PREFIX):])[1].format(fees_set_by=who) for c in answer.caveats
             if c.startswith(GAP_PREFIX)]
    return list(dict.fromkeys(lines))


def notes(answer: Answer) -> list[str]:
    """The caveats that are not gaps, each once."""
    return list(dict.fromkeys(c for c in answer.caveats if not c.startswith(GAP_PREFIX)))


def sources(answer: Answer) -> list[dict]:
    """Each cited section once, in order: {"label", "ref", "section", "quote"} (quotes of one ref joined)."""
    out: dict[str, dict] = {}
    for c in answer.citations:
        item = out.setdefault(c.label, {"label": c.label, "ref": c.ref, "section": c.section.number, "quote": ""})
        if c.quote and c.quote not in item["quote"]:
            item["quote"] = f"{item['quote']} ... {c.quote}" if item["quote"] else c.quote
    return list(out.values())


def payload(answer: Answer) -> dict:
    """The answer as parts, for the custom message the action server sends (JSON-safe)."""
    return {"lead": lead(answer), "rest": rest(answer),
            "steps": [{"text": str(s), "cites": [c.label for c in getattr(s, "citations", ())]}
                      for s in answer.steps],
            "sources": sources(answer), "gaps": gap_lines(answer), "caveats": notes(answer),
            "topic": answer.topic}


def text(answer: Answer) -> str:
    """The whole answer as plain text: the lead, the rest of the result, then How / Source / Not in our copy /
    Note paragraphs."""
    parts = [lead(answer), rest(answer)]
    if answer.steps:
        parts.append("How: " + " ".join(str(s) if s.endswith((".", ":")) else f"{s}." for s in answer.steps))
    if answer.citations:
        parts.append("Source: " + "; ".join(dict.fromkeys(c.label for c in answer.citations)) + ".")
    if gap_lines(answer):
        parts.append("Not in our copy: " + " ".join(gap_lines(answer)))
    if notes(answer):
        parts.append("Note: " + " ".join(notes(answer)))
    return "\n\n".join(p for p in parts if p)


def gsm7(value: str) -> str:
    """Replace characters outside the GSM-7 alphabet so an SMS is not sent as 70-character UCS-2 pages."""
    out = "".join(_ASCII.get(ch, ch) for ch in value)
    return "".join(ch if ch in _GSM else "?" for ch in out)


# ---- the guard -------------------------------------------------------------------------------------------

_INTERNAL = [
    (r"not (yet )?configured", "placeholder"),
    (r"\bplaceholder\b", "placeholder"),
    (r"\bknowledge/\w+|\b\w+/\w+\.(py|ya?ml)\b", "file path"),
    (r"\b\w+\.ya?ml\b", "file name"),
    (r"\bNone\b|\bnull\b|\bTrue\b|\bFalse\b", "Python value"),
    (r"\b[a-z]+(?:_[a-z0-9]+)+(?:\.[a-z0-9_]+)*\b|\b[a-z]+\.[a-z]+_[a-z0-9_.]+\b", "identifier"),
    (r"\{[a-z0-9_.]+\}", "unfilled template"),
    (r"\bparameters?\b", "internal word"),
    (r"Traceback|Exception\b|Error:", "error"),
]


def internal_text(text: str) -> list[str]:
    """The bits of a resident-facing ``text`` that are internal: placeholders ("not yet configured"), file
    paths and names, YAML keys and parameter names (snake_case, dotted), Python values ("None"), unfilled
    templates, error text. [] when the text is clean."""
    found = []
    for pattern, _what in _INTERNAL:
        found += [m.group(0) for m in re.finditer(pattern, text or "")]
    return found
