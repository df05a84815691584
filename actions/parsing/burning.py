"""Burning questions in residents' words: the time phrase asked about, the material, the distance, the
weather, and asking permission after dark."""
from __future__ import annotations

import re
from typing import Iterable, Optional

from knowledge import daypart, timewords


_CLOCK_BEFORE = re.compile(r"(?:\b(?:at|around|about|by|after|before|from|until|till)\s+)?\b\d{1,2}(?::\d\d)?\s*"
                           r"(?:am|pm|a\.m\.?|p\.m\.?|o'?clock)?\s*$", re.I)
_PART_AFTER = re.compile(r"^\s*,?\s*(?:(?:in the|this|tomorrow|that|on|at)\s+)?(?:morning|afternoon|evening|night|"
                         r"nite|tonight|today|tomorrow|am|pm|a\.m\.|p\.m\.|o'?clock)\b\.?", re.I)


def time_phrase(text: str, whens: Iterable[dict]) -> Optional[str]:
    """The whole time phrase of a message with its words, for when.resolve: from the first to the last time
    entity, with a clock number just before it ("9 tonight") and part-of-day words just after it ("at 6 in the
    morning", "at 5 pm"); counts elsewhere in the message ("2 old tires") stay out. None without a time entity."""
    spans = [(e["start"], e["end"]) for e in whens if e.get("start") is not None and e.get("end") is not None]
    if not text or not spans:
        return None
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    before = _CLOCK_BEFORE.search(text[:start])
    if before and before.group(0).strip():
        start = before.start()
    while True:
        after = _PART_AFTER.match(text[end:])
        if not after:
            break
        end += after.end()
    return " ".join(text[start:end].split()) or None


_BURN_VERB = re.compile(r"\b(?:burn|burning|light|throw|torch)\b\s+(?:up\s+|off\s+)?(.*)", re.I)
_OBJECT_END = re.compile(r"\b(?:at|in|on|into|behind|out|outside|near|with|from|this|next|tomorrow|tonight|today|"
                         r"tonite|tnite|2nite|2night|tmrw|tmr|tmrow|tomorow|2day|2morrow|rn|asap|later|"
                         r"right|now|before|after|during|around|about|is|if|when|or|and then|to)\b|[,?.!;]", re.I)
_PRONOUN = re.compile(r"^\s*(?:it|them|those|these|that|this|all of it|all of them)\b", re.I)
_NOT_MATERIAL = {"a", "an", "the", "my", "our", "his", "her", "their", "some", "of", "pile", "piles", "bunch", "lot",
                 "lots", "few", "little", "bit", "stuff", "things", "thing", "old", "big", "small", "ok", "okay",
                 "fire", "burn", "pit", "barrel", "there", "here", "yard", "property", "land", "anything", "something",
                 "legally", "today", "tonight", "tomorrow", "weekend", "morning", "afternoon", "evening", "night",
                 "overnight", "dark", "sunset", "sundown", "sunrise", "dawn", "dusk", "late", "early", "noon",
                 "midnight", *timewords.WEEKDAYS, *timewords.WEEKDAY_SHORT, *timewords.MONTH_NUMBER}


def names_a_material(text: str) -> bool:
    """Does a burning question name something to burn that the NLU did not tag ("a pile of old horse manure",
    "the boards", "them" after "railroad ties")? "can I burn right now?", "can i burn at 5 am" do not."""
    m = _BURN_VERB.search(text or "")
    if not m:
        return False
    if _PRONOUN.match(m.group(1)):
        return True
    obj = _OBJECT_END.split(m.group(1), maxsplit=1)[0]
    return any(w not in _NOT_MATERIAL and len(w) > 2 for w in re.findall(r"[a-z]+", obj.lower()))


def material_names(text: str, names: Iterable[Iterable[tuple]]) -> str:
    """The material names of a town (materials.yml, as words) found in ``text``, in the resident's words and in
    the order said, a name inside a longer one left out: "old tires and some painted wood" -> "tires and painted
    wood"; "" when none."""
    from knowledge.model import material_words
    words = material_words(text)
    raw = re.findall(r"[a-z0-9]+", (text or "").lower())
    found = []
    for group in names:
        for name in group:
            n = len(name)
            found += [(i, i + n) for i in range(len(words) - n + 1) if words[i:i + n] == tuple(name)]
    kept = sorted({f for f in found if not any(o[0] <= f[0] and f[1] <= o[1] and o != f for o in found)})
    return " and ".join(" ".join(raw[a:b]) for a, b in kept) if len(raw) == len(words) else ""


def burn_object(text: str) -> str:
    """The words after "burn" up to a time, place or the end ("can i burn an old mattress tonight" -> "an old
    mattress"); "" when none."""
    m = _BURN_VERB.search(text or "")
    if not m or _PRONOUN.match(m.group(1)):
        return ""
    obj = _OBJECT_END.split(m.group(1), maxsplit=1)[0]
    return " ".join(re.findall(r"[A-Za-z0-9'-]+", obj)[:6])


#: "at night": after dark, as readers.burning.time_phrase reads it said alone; every other after-dark phrase is daypart's
_AT_NIGHT = re.compile(r"\bat night\b", re.I)
_PERMISSION = re.compile(r"\b(permission|approv\w*|exception|town board|special permit)\b", re.I)
_MAY_I = re.compile(r"\b(?:can|may|could) (?:i|we|you|my|our|they|he|she|people)\b|\b(?:allowed|ok|okay|alright|"
                    r"all right|legal|permitted)\b|\b(?:is it|it'?s|i'?m|we'?re) (?:good|fine) to\b", re.I)


def asks_may_i(text: str) -> bool:
    """"can I burn after dark?", "is it OK to burn tonight?": asks whether a burn may happen (a Yes or No answers
    it); not "does the fire need to be out when it gets dark?" nor "is it illegal to burn after dark?"."""
    return bool(_MAY_I.search(text or ""))


def asks_after_dark_permission(text: str) -> bool:
    """"How do we get permission for a bonfire after dark?": the Town Board's exception to the daylight rule
    (Dunkirk 7.11), whichever burning intent it was read as."""
    after_dark = daypart.after_dark(daypart.normalise_sun(text)) or _AT_NIGHT.search(text or "")
    return bool(after_dark and _PERMISSION.search(text or "") and
                re.search(r"\b(how|who|get|ask|request|apply)\b", text or "", re.I))


_WEATHER = re.compile(r"\b(wind\w*|gust\w*|breez\w*|dry|drought|red flag|blowing)\b", re.I)


def names_weather(text: str) -> bool:
    """"it's really windy today", "gusts like 35 mph", "so dry": weather that bears on a burn (7.12(4))."""
    return bool(_WEATHER.search(text or ""))
