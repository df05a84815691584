"""Dates of the license in residents' words: the day a dog came or was bought, the day it reaches the
licensable age, a move into town, and questions of deadline or total."""
from __future__ import annotations

import re
from typing import Iterable, Optional

from ..numbers import count_value
from .notice import is_time_only


#: "got/get" of the dog, not of its license ("I never got licenses this year": not a day the dog came)
ACQUIRED_CUE = re.compile(r"\b((?:got|get)(?!\s+(?:\w+\s+){0,2}licen[cs]e)|adopt\w*|bought (?:him|her|it|the dog|the pup\w*)|"
                          r"bought (?:a|an|our|my|this|that)\s+(?:[\w'-]+\s+){0,4}?(?:dog|puppy|pup|mutt|cat|kitten|female|male|girl|"
                          r"boy|lab|retriever|shepherd|beagle|poodle|terrier|husky|collie|rescue)s?\b|rescued|moved|acquired|brought|born|since)\b", re.I)
BUY_CUE = re.compile(r"\b(buy|buying|bought (?:(?:the|his|her|their|our|my|a) licen[cs]es?)|purchas\w*|pay|paid|paying|"
                     r"licensed|register\w*|renew\w*|license (?:it|him|her|them)|get (?:it|the license)|"
                     r"licensing)\b", re.I)
#: a buying verb said as still to come, right before it ("will license her", "if we pay"; not "wanted to pay right
#: away but only paid on June 20"); "are licensing" only with an -ing verb, "would buy" only with a bare one (not
#: "we're licensed since", "I would have paid", "we'd paid")
_BUY_LATER = re.compile(r"\b(?:will|'ll|shall|going to|gonna|plan(?:s|ning)? to|intend(?:s|ing)? to|want(?:s)? to|"
                        r"hope to|need to|have to|if (?:i|we))\s+(?:\w+\s+)?$", re.I)
_BUY_NOW = re.compile(r"\b(?:are|am)\s+(?:\w+\s+)?$|(?<=')(?:re|m)\s+(?:\w+\s+)?$|"
                      r"(?:\bwould|\bwill|(?<=')d|(?<=')ll) be\s+(?:\w+\s+)?$", re.I)
_BUY_WOULD = re.compile(r"(?:\bwould|(?<=')d)\s+(?:\w+\s+)?$", re.I)


def buys_later(text: str, start: int) -> bool:
    """Is the day of buying at ``start`` said as still to come? The buying verb nearest before it ("will license her
    July 10", "if I pay on July 20", "are licensing her on July 10", "would buy it July 30") has a future word right
    before it; read back otherwise."""
    window = cue_window(text, start).replace("\u2019", "'")
    verbs = list(BUY_CUE.finditer(window))
    if not verbs:
        return False
    before, verb = window[:verbs[-1].start()], verbs[-1].group(0).split()[0].lower()
    return bool(_BUY_LATER.search(before) or (verb.endswith("ing") and _BUY_NOW.search(before)) or
                (verb in ("buy", "pay", "register", "renew", "purchase", "license", "get") and _BUY_WOULD.search(before)))


_LONG_AGO = re.compile(r"\b(years?|yrs?|long|ages|forever|always|before this year|last year|a while|since birth|"
                       r"born here|months? ago)\b", re.I)
_HAD = re.compile(r"\b(had|have had|owned)\b", re.I)


def cue_window(text: str, start: int) -> str:
    """The 40 characters before ``start``, where a cue for the day at ``start`` is looked for."""
    return text[max(0, start - 40):start]


def cue_before(text: str, start: int, cue: re.Pattern) -> bool:
    """Does ``cue`` occur in the 40 characters before ``start``? ("got him in May": "got" before "in May")."""
    return bool(cue.search(cue_window(text, start)))


def when_after(whens: Iterable[dict], text: str, cue: re.Pattern, other_cue: re.Pattern,
               asked: bool) -> Optional[dict]:
    """The first when-entity of ``text`` with ``cue`` words before it; when the form asked for this date, also
    one without ``other_cue`` words ("got them in May, buying today": May is acquired, today is purchase). A time
    of day alone is no such day ("got our dog (he's about 3) on May 1st": May 1st, not "about 3")."""
    for e in whens:
        if is_time_only(text[e["start"]:e["end"]] if e.get("end") else str(e.get("value", ""))):
            continue
        if cue_before(text, e["start"], cue) or (asked and not cue_before(text, e["start"], other_cue)):
            return e
    return None


def says_long_ago(text: str) -> bool:
    """"years ago", "forever", "last year": before this license year."""
    return bool(_LONG_AGO.search(text))


_BEFORE_THIS_YEAR = re.compile(r"\bbefore (?:this|the) (?:year|license year)\b|\b(?:since|from) last year\b", re.I)
_HAD_SINCE = re.compile(r"\b(?:had|have had|owned|since)\b", re.I)


def says_before_this_year(text: str) -> bool:
    """"since before this year", "had her from last year": before this license year, no day to ask."""
    return bool(_BEFORE_THIS_YEAR.search(text or ""))


def says_had_since(text: str) -> bool:
    """"had them since 2023", "owned him since": the year said is when the dog came."""
    return bool(_HAD_SINCE.search(text or ""))


def says_had_from_a_year(text: str) -> bool:
    """"had them since 2023", "owned her in 2020": the year said is when the dogs came (not "since" alone)."""
    return bool(_HAD.search(text or "")) and year_said(text) is not None


def names_neutering(text: str) -> bool:
    """"spayed", "neutered", "fixed", "intact": the words of the spayed-or-neutered question."""
    return bool(re.search(r"\b(?:spay\w*|neuter\w*|fixed|intact|altered|unaltered|unfixed)\b", text or "", re.I))


def says_had_long(text: str) -> bool:
    """"we've had her for years": said outright, without being asked."""
    return says_long_ago(text) and bool(_HAD.search(text))


def acquired_kind(text: str) -> str:
    """"moved" when the resident moved to town with the dog, else "got"."""
    return "moved" if _MOVED.search(text) else "got"


_MOVED = re.compile(r"\b(mov(?:ed|ing|e)|relocat\w*|new (?:to|in) (?:town|the (?:town|city)))\b", re.I)
_DEADLINE = re.compile(r"\b(when|by when|deadline|how long|how soon|how many days|by what date|until when)\b", re.I)


def asks_moving_deadline(text: str) -> bool:
    """"We moved here on April 25, when do they need licenses?": the deadline after moving in."""
    return bool(_MOVED.search(text or "") and _DEADLINE.search(text or ""))


#: "turns 5 months (old) (on)": an age in months reached; the number is the licensable age only where it is the town's
_MONTHS_REACHED = re.compile(r"\b(turn(?:s|ed|ing)?|reach(?:es|ed)?|be|is|was|will be|hit(?:s)?)\s+(\d{1,2}|[a-z]+)\s+"
                             r"months?(?:\s+old)?\b", re.I)


def _age_reached(text: str, months: int | None) -> Optional[re.Match]:
    """The first "turns N months" of ``text`` whose N is ``months`` (None: the town sets no age, so none is)."""
    if months is None:
        return None
    return next((m for m in _MONTHS_REACHED.finditer(text or "") if count_value(m.group(2)) == months), None)


def licensable_age_when(whens: Iterable[dict], text: str, months: int | None) -> Optional[dict]:
    """The time entity that follows "turns 5 months (on)" / "turned five months old (on)", where 5 is the town's
    licensable age in ``months`` (dog_license.licensable_age_months)."""
    for e in whens:
        if _age_reached(cue_window(text, e["start"]), months):
            return e
    return None


_BORN = re.compile(r"\b(?:born|birthday|birth date|date of birth|dob)\b", re.I)


def birth_when(whens: Iterable[dict], text: str) -> Optional[dict]:
    """The time entity said as the dog's birth day ("he was born jan 10", "born feb 10, not neutered")."""
    return next((e for e in whens if cue_before(text, e["start"], _BORN)), None)


def licensable_age_past(text: str, months: int | None) -> bool:
    """"turned 5 months", "reached five months" (``months``: the town's licensable age): the date lies in the past."""
    m = _age_reached(text, months)
    return bool(m and m.group(1).lower() in ("turned", "reached", "was", "hit"))


_MOVING_OUT = re.compile(r"\b(mov\w*|relocat\w*)\s+(?:out|away)\b|\bleav(?:e|ing)\b", re.I)
_INTO_TOWN = (r"\bmov\w* (?:here|in\b(?! (?:to|a|an|the|our|my)\b))|"
              r"\bin ?to (?:town|here|the (?:town|city|village|area){})\b")


def asks_deadline_after_moving_in(text: str, places: Iterable[str] = ()) -> bool:
    """"We moved to Mequon on April 25, when do they need licenses?" (not "when we move out ...", nor "leaving
    Mequon and moving into a house in Grafton"): a move out is overridden only by a move into this town
    (``places``: its names)."""
    names = "".join(f"|{re.escape(p)}" for p in places if p)
    return asks_moving_deadline(text) and (not _MOVING_OUT.search(text or "") or
                                           bool(re.search(_INTO_TOWN.format(names), text or "", re.I)))


#: a moving verb; "ahead" when said as still to come ("we're moving", "will move", not "moved" nor a bare "moving")
_MOVE_VERB = re.compile(r"(?:\b(?P<ahead>(?:are|am|will be|going to be|were|im|ill be|well be) (?:moving|relocating)|"
                        r"(?:will|going to|gonna|plan(?:ning)? to|ill|well) (?:move|relocate))|"
                        r"(?<=')(?P<ahead2>(?:re|m|ll be) (?:moving|relocating)|ll (?:move|relocate)))\b|"
                        r"\b(?P<past>moved|relocated)\b|\b(?:moving|move|relocating|relocate)\b", re.I)
#: a move or arrival already made, anywhere in the message
_ARRIVED = re.compile(r"\b(?:moved|relocated|arrived|came|got here|have lived|lived|been here|closed on)\b", re.I)


def moving_still_to_come(text: str, at: int | None = None) -> Optional[bool]:
    """"we're moving to Mequon on July 10": the move is still to come (its day read forward, not back). The moving
    verb nearest before the day said (at ``at``; else the last) decides: "we moved to Grafton in 2020 and now
    we're moving to Mequon on July 10" is to come; "we moved here June 20 and I'm moving his tags over" and
    "moving here from Texas, arrived June 20" are not. A bare "moving to Mequon Aug 1" or "our move was June 25"
    says neither: None (the caller gives the rule rather than a deadline a year off)."""
    text = (text or "").replace("\u2019", "'")
    verbs = list(_MOVE_VERB.finditer(text[:at] if at is not None else text)) or list(_MOVE_VERB.finditer(text))
    if not verbs:
        return False
    last = verbs[-1]
    if last.group("ahead") or last.group("ahead2"):
        return True
    return False if last.group("past") or _ARRIVED.search(text) else None


_YEAR = re.compile(r"\b(?:since|in|from|back in|around|about)?\s*((?:19|20)\d\d)\b", re.I)


def year_said(text: str) -> Optional[int]:
    """The year a reply names ("had him since 2019", "in 2020"), when it names one; None otherwise."""
    m = _YEAR.search(text or "")
    return int(m.group(1)) if m else None


_TOTAL = re.compile(r"\b(how much|total|cost|costs|owe|price|pay|charge|altogether)\b", re.I)
_ASKS_DEADLINE = re.compile(r"\b(deadline|by when|how long do|how much time|until when|when do (?:i|we) (?:have|need)|"
                            r"last day|due date|when is it due|when(?:'?s| is) (?:the |my |our |his |her )?(?:dog )?"
                            r"licen[cs]e due)\b", re.I)


def asks_total(text: str) -> bool:
    """"how much do I owe?", "what's the total?": the whole license cost, not only whether it is late."""
    return bool(_TOTAL.search(text or ""))


def asks_deadline(text: str) -> bool:
    """"what's the deadline to license her?", "how long do I have?": the last day on time."""
    return bool(_ASKS_DEADLINE.search(text or ""))
