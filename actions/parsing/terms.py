"""Questions about the code's words: a defined term asked, "which section is that?", and an unsure intent the
words confirm."""
from __future__ import annotations

import re
from typing import Iterable, Optional

from ..numbers import count_value
from .licensing import asks_deadline_after_moving_in


_QUOTED = re.compile(r"(?<![A-Za-z])['\"‘“]([^'\"’”]{2,40})['\"’”](?![A-Za-z])")  # never the 's of "what's"
_TERM_CUE = re.compile(r"(?:what does (?:the (?:word|term) )?|counts? as |considered |definition of |define |"
                       r"meaning of |what(?:'s| is|s) (?:an? |the )?)(?:an? |the )?(.+?)(?:\s+mean\b|\s+in\b|"
                       r"\s+under\b|[?.,!]|$)", re.I)
_GENERIC = {"dog", "dogs", "cat", "cats", "pet", "pets", "animal", "animals", "puppy", "puppies", "pup", "pups"}
#: units residents give a distance in, as feet per unit (exact definitions: 1 yd = 3 ft, 1 ft = 0.3048 m)
_FEET_PER = {"ft": 1.0, "feet": 1.0, "foot": 1.0, "'": 1.0, "yd": 3.0, "yds": 3.0, "yard": 3.0, "yards": 3.0,
             "m": 1 / 0.3048, "meter": 1 / 0.3048, "meters": 1 / 0.3048, "metre": 1 / 0.3048, "metres": 1 / 0.3048}
_DISTANCE = re.compile(r"(\d+(?:\.\d+)?|\b[a-z]+(?:[- ][a-z]+)?)\s*(ft|feet|foot|'|yds?|yards?|meters?|metres?|m)(?![a-z])",
                       re.I)
_AWAY = re.compile(r"\s*(from|away|off|of (the|my|our|a|an|any|his|her|their|that|this)|to (the|my|our|a|an|any))\b",
                   re.I)


def _number_word(word: str) -> bool:
    return word not in ("a", "an", "to", "too", "for", "tree") and count_value(word) is not None


def distance_feet(text: str, away: bool = False) -> Optional[float]:
    """The first distance in ``text`` in feet ("50 ft", "50'", "fifty feet", "20 yards", "15 m"); None if none.
    ``away``: only a distance said as one ("20 feet from the garage", "30 ft away"), not a size ("a 10 foot
    pile", "2 ft of brush")."""
    for m in _DISTANCE.finditer(text or ""):
        number, unit = m.group(1), m.group(2).lower()
        if away and not _AWAY.match(text, m.end()):
            continue
        if re.fullmatch(r"\d+(?:\.\d+)?", number):
            value = float(number)
        else:  # number words only ("fifty", "forty five"): not "a foot", "and a foot"
            tokens = re.split(r"[- ]", number.lower())
            if len(tokens) == 2 and not _number_word(tokens[0]) and _number_word(tokens[1]):
                tokens, number = tokens[1:], tokens[1]  # "burn twenty feet": the word before is not the number's
            if not all(_number_word(w) for w in tokens):
                continue
            value = count_value(number)
            if value is None:
                continue
        feet = value * _FEET_PER[unit]
        return round(feet, 1) if feet != int(feet) else float(int(feet))
    return None


def distances(text: str) -> list[dict]:
    """Each distance said ("50 ft", "twenty feet") as an entity {"entity": "distance", "value": feet, "start",
    "end"}, in the order said."""
    out = []
    for m in _DISTANCE.finditer(text or ""):
        feet = distance_feet(m.group(0))
        if feet is not None:
            out.append({"entity": "distance", "value": feet, "start": m.start(), "end": m.end()})
    return out


def defined_term(text: str, terms: Iterable[str]) -> str:
    """The term a "what does X mean" question asks about, found among the town's defined ``terms`` (longest
    first; a quoted word or the words after "what does", "counts as", "considered" first; a generic word such as
    "dog" only when nothing else is named); else the words after the cue, else the whole text."""
    from knowledge.model import term_key

    keys = {term_key(t) for t in terms}

    def found_in(phrase: str, generic: bool = True) -> Optional[str]:
        """The longest defined term in ``phrase``; of two as long, the one said first (never the set's order)."""
        p = f" {term_key(phrase)} "
        hits = [k for k in keys if f" {k} " in p and (generic or k not in _GENERIC)]
        return min(hits, key=lambda k: (-len(k), p.index(f" {k} "), k), default=None)

    for pattern in (_QUOTED, _TERM_CUE):
        m = pattern.search(text or "")
        if m:
            return found_in(m.group(1)) or m.group(1).strip()
    return found_in(text, generic=False) or found_in(text) or text


_MEANING = re.compile(r"\b(mean|means|meaning|defin\w*|counts? as|considered)\b", re.I)


def asks_a_meaning(text: str) -> bool:
    """"what does at large mean", "who counts as an owner": a question about a defined word."""
    return bool(_MEANING.search(text or ""))


#: an unsure classifier's guess that the question's own words confirm: the intents, and the reading of the words
_CONFIRMS = ((frozenset({"ask_license_required", "ask_late_fee", "ask_license_cost"}), asks_deadline_after_moving_in),)
#: the least confidence a guess may have to be confirmed (on the dev sets, guesses under 0.4 were right less than
#: half the time: bot/README.md)
GUESS_FLOOR = 0.4


def confirmed_guess(ranking: list[dict], text: str) -> Optional[str]:
    """The intent NLU ranked first (under the fallback threshold) when the words say the same on their own:
    "we moved here on April 25, when do they need licenses?" is a license deadline question
    (asks_deadline_after_moving_in) whatever the confidence. None otherwise: the resident is offered topics to choose from."""
    ranked = [r for r in ranking if r.get("name") != "nlu_fallback"]
    if not ranked or ranked[0].get("confidence", 0) < GUESS_FLOOR:
        return None
    best = ranked[0]["name"]
    return best if any(best in intents and reads(text) for intents, reads in _CONFIRMS) else None


_SOURCE = re.compile(r"\b(?:which|what) (?:section|part|rule|law|ordinance|code)\b.*\b(?:that|this|it|says?)\b|"
                     r"\b(?:source|says who|where does it say|show me the (?:law|rule|section|ordinance|code))\b",
                     re.I)


def asks_for_the_source(text: str) -> bool:
    """"Which section is that?", "source?", "where does it say that?": the law behind the last answer, not a
    section named by its number."""
    return bool(_SOURCE.search(text or ""))


_COUNTS_AS = re.compile(r"\b(?:mean|means|meaning|defin\w*|count(?:s|ed)? (?:as|like)|treat(?:s|ed)? (?:as|like)|"
                        r"consider(?:s|ed)?|qualif\w*|classif\w*|regarded as|does .{1,40} include|who counts|"
                        r"is (?:a|an|my|the|that|this) .{1,40} (?:a|an)\b)",
                        re.I)


def asks_whether_it_counts(text: str) -> bool:
    """"does X count as a dog?", "is a warden a law enforcement officer?", "what does neutered mean?": a question
    about the scope of a word of the code."""
    return bool(_COUNTS_AS.search(text or ""))
