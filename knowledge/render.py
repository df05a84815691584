"""Answers as text: the result first, then the steps, the citations and the caveats.

`sms_pages` keeps every page within one or two SMS segments of GSM-7 characters (REFERENCE: 320 characters);
the first page ends by offering "MORE" when there is more to say.
"""

from __future__ import annotations

from .model import Answer

_GSM = ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
        "¿abcdefghijklmnopqrstuvwxyzäöñüà")
_ASCII = {"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-", "…": "...", "→": "->", "×": "x",
          "•": "-", "\u00a0": " ", "≤": "<=", "≥": ">="}
MORE = " Reply MORE for the rest."


def text(answer: Answer) -> str:
    parts = [answer.result]
    if answer.steps:
        parts.append("How: " + " ".join(str(s) if s.endswith((".", ":")) else f"{s}." for s in answer.steps))
    if answer.citations:
        parts.append("Source: " + "; ".join(dict.fromkeys(c.label for c in answer.citations)) + ".")
    if answer.caveats:
        parts.append("Note: " + " ".join(answer.caveats))
    return "\n\n".join(p for p in parts if p)


def gsm7(value: str) -> str:
    """Replace characters outside the GSM-7 alphabet so an SMS is not sent as 70-character UCS-2 pages."""
    out = "".join(_ASCII.get(ch, ch) for ch in value)
    return "".join(ch if ch in _GSM else "?" for ch in out)


def sms_pages(answer: Answer, limit: int = 320) -> list[str]:
    """The answer as SMS pages of at most ``limit`` GSM-7 characters; the first offers MORE."""
    words = gsm7(text(answer).replace("\n\n", " ")).split(" ")
    pages, current = [], ""
    for w in words:
        room = limit - len(MORE)
        if current and len(current) + 1 + len(w) > room:
            pages.append(current)
            current = w
        else:
            current = f"{current} {w}" if current else w
    if current:
        pages.append(current)
    return [p + MORE if i < len(pages) - 1 else p for i, p in enumerate(pages)]
