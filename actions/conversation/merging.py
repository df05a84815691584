"""A follow-up read on the last question: its values put in place of the old ones ("what about 16?"), a
correction of a time, a material, the opposite of a condition ("and if she isn't?")."""
from __future__ import annotations

import re

from .. import parsing
from .follow_ups import residue
from .said import Said, config, joined


def _pairs(said: Said) -> dict[int, dict]:
    """For each count entity, the animal it counts (parsing.counted_animals)."""
    out = {}
    for n, animal in parsing.counted_animals(said.entities):
        counts = [e for e in said.entities if e["entity"] == "count" and e["end"] <= animal["start"]]
        if counts:
            out[id(counts[-1])] = animal
    return out


def _target(last: Said, e: dict, new: Said) -> dict | None:
    """The entity of the last question that ``e`` (of the follow-up) takes the place of, or None. A bare number
    said after a question about a clock time is the hour ("tonight at 8" ... "i mean 9")."""
    same = [x for x in last.entities if x["entity"] == e["entity"]]
    if not same and e["entity"] == "when" and re.fullmatch(r"\s*\d{1,3}\s*", new.text[e["start"]:e["end"]]):
        counts = [x for x in last.entities if x["entity"] == "count"]
        if len(counts) == 1:
            return counts[0]  # "what about 16?" after "a multiple dog license for 10 dogs": the count, not a time
    if not same and e["entity"] == "count" and not any(x["entity"] == "animal" for x in new.entities):
        days = [x for x in last.entities if x["entity"] == "when"]
        if len(days) == 1 and not re.search(r"\d", last.text[days[0]["start"]:days[0]["end"]]) and \
                not any(x["entity"] == "count" for x in last.entities):
            at = days[0]["start"]  # "what about 7?" after "tonight": "at 7 tonight"
            return {"entity": "count", "value": e.get("value"), "start": at, "end": at, "_in": days[0],
                    "_text": f"at {new.text[e['start']:e['end']]} "}
        hours = [x for x in last.entities if x["entity"] == "when" and re.search(r"\d", last.text[x["start"]:x["end"]])]
        if len(hours) == 1 and not any(x["entity"] == "count" for x in last.entities):
            m = re.search(r"\d{1,2}(?::\d\d)?", last.text[hours[0]["start"]:hours[0]["end"]])
            start = hours[0]["start"] + m.start()
            return {"entity": "count", "value": m.group(0), "start": start, "end": start + len(m.group(0)),
                    "_in": hours[0]}
    if not same:
        return None
    if e["entity"] == "count":
        animal = _pairs(new).get(id(e))
        pairs = _pairs(last)
        if animal is not None:
            kind = parsing.animal_of(animal)
            match = [x for x in same if id(x) in pairs and parsing.animal_of(pairs[id(x)]) == kind]
            return match[0] if match else None
        return same[0]
    if e["entity"] == "animal":  # "can i get another cat?" after "2 dogs and 4 cats": the dogs stay dogs
        kind = parsing.animal_of(e)
        alike = [x for x in same if parsing.animal_of(x) == kind]
        if alike or len(same) > 1 or _pairs(last):
            return alike[0] if alike and not _pairs(last) else None
    if e["entity"] == "material" and _ADDED.search(new.text):
        return None  # "what if i add some brush?": with the others, not in place of one
    if e["entity"] == "when" and len(same) > 1:
        return None  # two days (got the dog / buy the license): which one changes is not said
    if e["entity"] == "when" and bool(parsing.birth_when([e], new.text)) != bool(parsing.birth_when(same, last.text)):
        return None  # "he was born feb 20" after "got a puppy april 10": a day of another kind, said with it
    if e["entity"] == "when":
        return _clock_in(last, same[0], new.text[e["start"]:e["end"]]) or same[0]
    return same[0]


_CLOCK_SPAN = re.compile(r"\b(\d{1,2}(?::\d\d)?)(\s*(?:am|pm|a\.m\.?|p\.m\.?)(?![a-z]))?", re.I)
_MERIDIEM = re.compile(r"\d\s*(?:am|pm|a\.m|p\.m)|\b(?:morning|afternoon|evening|night|tonight|noon)\b", re.I)


def _clock_in(last: Said, when: dict, new_value: str) -> dict | None:
    """A correction of the clock alone ("i mean 4:30" after "tomorrow at 5:30pm"): the clock inside the last
    question's time, so that its day stays ("tomorrow at 4:30pm", never today). None when the correction names a
    day or the last time has no clock or nothing but one."""
    old = last.text[when["start"]:when["end"]]
    if not parsing.is_time_only(new_value) or parsing.is_time_only(old):
        return None
    clocks = [m for m in _CLOCK_SPAN.finditer(old) if m.group(2) or ":" in m.group(1) or re.search(
        r"\b(?:at|around|about|by|after|before)\s+$", old[:m.start()], re.I)]  # never the 5 of "december 5"
    if not clocks:
        return None
    m = clocks[-1]
    start = when["start"] + m.start()
    hour = re.match(r"\s*(?:at|around|about|by)?\s*(\d{1,2})", new_value, re.I)
    near = hour is not None and abs(int(hour.group(1)) % 12 - int(m.group(1).split(":")[0]) % 12) <= 3
    # "4:30" after "5:30pm" keeps the "pm"; "2" after "10am" does not (then it is read, or asked, afresh)
    span = m.group(0) if _MERIDIEM.search(new_value) or not near else m.group(1)
    clock = re.sub(r"^\s*(?:at|around|about|by)\s+", "", new_value, flags=re.I).strip()
    return {"entity": "when", "value": new_value, "start": start, "end": start + len(span), "_in": when,
            "_text": clock}


_NOT_BEFORE = re.compile(r"\b(?:not|no|isn'?t|wasn'?t|never)\s+(?:the\s+|any\s+|a\s+|an\s+|my\s+|that\s+)?$", re.I)


def _blanked(said: Said, drop: list) -> Said:
    """``said`` with the spans of ``drop`` blanked (the offsets of the rest unchanged)."""
    text = said.text
    for e in drop:
        text = text[:e["start"]] + " " * (e["end"] - e["start"]) + text[e["end"]:]
    return Said(text, [e for e in said.entities if not any(e is d for d in drop)])


def _materials_replaced(last: Said, new: Said) -> tuple[Said, Said]:
    """A follow-up that names what it burns ("sorry not trash, just dry leaves", "what about leaves?") asks
    about those materials in place of the last question's: the last question's materials and the ones the
    follow-up says it does not mean are taken out (their words too: the answer reads its materials from them)."""
    said = [e for e in new.entities if e["entity"] == "material"]
    negated = [e for e in said if _NOT_BEFORE.search(new.text[:e["start"]])]
    if not said or (_ADDED.search(new.text) and not negated):
        return last, new  # "what if i add some brush?": added to what was asked about, never in place of it
    return (_blanked(last, [e for e in last.entities if e["entity"] == "material"]), _blanked(new, negated))


_ADDED = re.compile(r"\b(?:add\w*|also|too|plus|as well|along with|together with|mixed in|on top)\b", re.I)
_OTHERWISE = re.compile(r"^\s*(?:and|but|so|ok(?:ay)?)?\W*(?:what\s+)?if\s+(?:he|she|it|they|hes|shes|its|he'?s|she'?s|"
                        r"it'?s|the dog|the cat)?\s*(?:does\s*n[o']?t|doesn'?t|dont|don'?t|isn'?t|is not|wasn'?t|was not|"
                        r"hasn'?t|has not|didn'?t|did not|aren'?t|hadn'?t|not)(?:\s+(?:have|had|one|them|it|any))?\s*"
                        r"[?.!]*\s*$", re.I)
#: "and if she was?" after "she's not vaccinated": the positive turns over only a "not" fact
_OTHERWISE_YES = re.compile(r"^\s*(?:and|but|so|ok(?:ay)?)?\W*(?:what\s+)?if\s+(?:he|she|the dog|the cat)\s*"
                            r"(?:was|is|has|had)(?:\s+(?:one|them|some))?\s*[?.!]*\s*$", re.I)
#: a yes-or-no fact and its opposite (the entity's value, and words the handlers read as it)
_OPPOSITE = {"vaccinated": ("unvaccinated", "not vaccinated"), "unvaccinated": ("vaccinated", "vaccinated"),
             "neutered": ("unneutered", "not spayed or neutered"), "unneutered": ("neutered", "spayed or neutered")}


def _otherwise(last: Said, new: Said) -> Said:
    """"and if it doesn't?" after "... if the dog has its shots": the last question's one yes-or-no fact (shots,
    spayed or neutered) turned over, said as a value the merge puts in its place. Otherwise ``new`` unchanged."""
    negative = not new.entities and bool(_OTHERWISE.match(new.text))
    if not negative and (new.entities or not _OTHERWISE_YES.match(new.text)):
        return new
    facts = [e for e in last.entities if str(e.get("value")) in _OPPOSITE
             and (negative or str(e.get("value")).startswith("un"))]
    if len(facts) != 1:
        return new  # none, or two ("spayed and vaccinated"): which one is turned over is not said
    value, words = _OPPOSITE[str(facts[0]["value"])]
    return Said(words, [{"entity": facts[0]["entity"], "value": value, "start": 0, "end": len(words)}])


#: the words that make a day said right after the shot's status the shot's own day ("expired in 2020", "shots
#: since march"); a comma or other words between them make it the incident's ("he's vaccinated, may 3")
_SHOT_DAY = re.compile(r"\s*(?:(?:expired|lapsed|ran out|was|were|got|given|done|back|due)\s+)*"
                       r"(?:in|since|on|until|till|through|thru|from|at|as of)\s*", re.I)
_A_YEAR = re.compile(r"\b(?:\d{4}|years?)\b", re.I)


def _no_time_dropped(last: Said, new: Said) -> Said:
    """"what do we do now?" after "he bit her yesterday": "now" is no new day of the incident (its entity and
    words left out, the bite stays yesterday's); "what about now?" after a burning time does move it."""
    if not any(x["entity"] == "incident" for x in last.entities):
        return new
    drop = [e for e in new.entities if e["entity"] == "when"
            and " ".join(new.text[e["start"]:e["end"]].lower().split()) in config()["not_a_time"]]
    return _blanked(new, drop) if drop else new


def _shot_dates_dropped(new: Said) -> Said:
    """A day said of the rabies shot ("his shot expired last year", "vaccinated in 2020") dates the shot, not the
    incident the last question was about: it is left out (its words too), the shot's status kept."""
    shots = [e for e in new.entities if e["entity"] == "vaccinated"]

    def of_the_shot(e: dict) -> bool:
        for s in shots:
            between = new.text[s["end"]:e["start"]] if s["end"] <= e["start"] else None
            if between is None:
                continue
            if _SHOT_DAY.fullmatch(between) or (not between.strip() and _A_YEAR.search(new.text[e["start"]:e["end"]])):
                return True
        return False

    dated = [e for e in new.entities if e["entity"] == "when" and of_the_shot(e)]
    return _blanked(new, dated) if dated else new


def merge(last: Said, new: Said) -> tuple[Said, str]:
    """The last question with the follow-up's values in place of the old ones and its other words added, and
    what the follow-up asks beyond its values (its residue: "how long", "the fee"; "" when only values)."""
    new = _no_time_dropped(last, _shot_dates_dropped(_otherwise(last, new)))
    last, new = _materials_replaced(last, new)
    text, ents = last.text, [dict(e) for e in last.entities]
    replaced = []
    pairs = _pairs(new)
    counted = {id(a): c for c, a in pairs.items()}
    for e in sorted(new.entities, key=lambda e: e["start"]):
        if id(e) in counted:  # "5 cats": the animal says which count changes; it changes nothing itself
            continue
        target = _target(Said(text, ents), e, new)
        if target is None:
            continue
        value = target.pop("_text", None) or new.text[e["start"]:e["end"]]
        shift = len(value) - (target["end"] - target["start"])
        text = text[:target["start"]] + value + text[target["end"]:]
        inside = target.pop("_in", None)
        for x in ents:
            if x is target:
                continue
            if x is inside:  # the hour inside a time: the time's span grows or shrinks with it
                x["end"] += shift
                x["value"] = text[x["start"]:x["end"]]
            elif x["start"] >= target["end"]:
                x["start"] += shift
                x["end"] += shift
        if inside is None:
            target.update({"value": e.get("value"), "end": target["start"] + len(value)})
        replaced.append(e)
    # an animal goes with its count: replaced with it, kept with it ("what about for 14 dogs?" adds both)
    replaced += [e for e in new.entities if id(e) in counted and any(id(r) == counted[id(e)] for r in replaced)]
    rest = residue(new, replaced)
    merged = Said(text, ents)
    if rest:
        keep = [e for e in new.entities if not any(e is r for r in replaced)]
        merged = joined(merged, Said(new.text, keep))
    return merged, rest
