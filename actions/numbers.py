"""Counts in residents' words: "2", "three", "a", "a couple"."""
from __future__ import annotations

import re

WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "another": 1, "just one": 1, "both": 2, "couple": 2,
         "a couple": 2, "two": 2, "to": 2, "too": 2, "three": 3, "thre": 3, "tree": 3, "four": 4, "for": 4,
         "five": 5, "fiv": 5, "dozen": 12, "a dozen": 12}


def count_value(text: str) -> int | None:
    """An integer for a count phrase, or None ("a few", "several" are not a number)."""
    s = str(text).strip().lower()
    if re.fullmatch(r"\d{1,4}", s):
        return int(s)
    if s in WORDS:
        return WORDS[s]
    try:
        from text_to_num import text2num
        return int(text2num(s, "en"))
    except Exception:
        return None


def first_number(text: str) -> int | None:
    """The first number in free text: "3", "three of them", "i have 2"."""
    m = re.search(r"\b\d{1,4}\b", text or "")
    if m:
        return int(m.group())
    for w in re.findall(r"[a-z]+", (text or "").lower()):
        if w in ("a", "an", "to", "too", "for", "tree"):
            continue
        v = count_value(w)
        if v is not None:
            return v
    return None
