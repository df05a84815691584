"""Text helpers: citation links for bot text (as segments, never HTML) and GSM-7 SMS paging."""

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
MORE_NOTE = " Reply MORE for the rest."  # as knowledge.render.sms_pages says it


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


def sms_pages(text: str, limit: int = 320) -> list[str]:
    """Cut ``text`` (converted to GSM-7) into pages of at most ``limit`` septets, breaking at spaces; every
    page but the last ends with "Reply MORE for the rest"."""
    text = to_gsm7(re.sub(r"[ \t]+", " ", text).strip())
    if gsm7_length(text) <= limit:
        return [text]
    room = limit - gsm7_length(MORE_NOTE)
    pages, rest = [], text
    while gsm7_length(rest) > limit:
        cut, used = 0, 0
        for i, ch in enumerate(rest):
            used += 2 if ch in GSM7_EXT else 1
            if used > room:
                break
            cut = i + 1
        space = max(rest.rfind(" ", 0, cut + 1), rest.rfind("\n", 0, cut + 1))
        if space > room // 2:
            cut = space
        pages.append(rest[:cut].rstrip() + MORE_NOTE)
        rest = rest[cut:].lstrip()
    if rest:
        pages.append(rest)
    return pages
