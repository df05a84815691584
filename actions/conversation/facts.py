"""Facts said in a message ("we have 4 dogs", "he bit her on March 3"): the clauses that hold them and their
kinds, which later questions use them, and the words that acknowledge them ("Noted: 4 dogs.")."""
from __future__ import annotations

import re
from typing import Iterable

from .. import parsing
from .said import Said, _entity_copy, config, joined


_CLAUSE_END = re.compile(r"[.;!?]+\s*|,\s+(?=(?:and\s+|but\s+|so\s+)?(?:how|what|when|can|could|do|does|is|are|"
                         r"will|would|should|who|where|which|why|am i|may)\b)|\s+but\s+", re.I)
_MOVE = re.compile(r"\b(mov(?:ed|ing|e)|relocat\w*|new (?:to|in) (?:town|the (?:town|city)))\b", re.I)
_BORN = re.compile(r"\b(born|turn(?:s|ed)? (?:5|five) months|birthday)\b", re.I)
_QUESTION_WORDS = re.compile(r"^\s*(?:how|what|when|can|could|do|does|is|are|will|would|should|who|where|which|why|"
                             r"may)\b|\?\s*$", re.I)


def clauses(said: Said) -> list[Said]:
    """The message cut at sentence ends and before a question ("we have 4 dogs, how many are allowed?")."""
    out, start = [], 0
    for m in list(_CLAUSE_END.finditer(said.text)) + [None]:
        end = m.start() if m else len(said.text)
        stop = m.end() if m else len(said.text)
        piece = said.text[start:end]
        if piece.strip():
            ents = [_entity_copy(e, -start) for e in said.entities if start <= e.get("start", -1) < end]
            out.append(Said(piece, ents))
        start = stop
    return out


def kinds_of(clause: Said) -> set[str]:
    """The kinds of fact a clause states: "animals" (a count of animals), "animal", "neutered", "service",
    "vaccinated", "incident", "acquired", "moved", "born", "bought", "time", "material", "distance", "day"."""
    counting = parsing.counting_whens(clause.entities)  # "about 14 dogs": a count, no time
    names = {e["entity"] for e in clause.entities if not any(e is c for c in counting)}
    text = clause.text
    kinds = set()
    if parsing.animals_counted(clause.entities):
        kinds.add("animals")
    elif names & {"animal", "service_dog"}:
        kinds.add("animal")
    for entity, kind in (("neutered", "neutered"), ("service_dog", "service"), ("vaccinated", "vaccinated"),
                         ("material", "material")):
        if entity in names:
            kinds.add(kind)
    if "incident" in names or parsing.names_an_exposure(text):
        kinds.add("incident")
    if "distance" in names:
        kinds.add("distance")
    if parsing.names_weather(text):
        kinds.add("weather")
    if "count" in names and not kinds & {"animals", "distance"}:
        kinds.add("count")  # "sorry, 15": how many, of the animals the last question counted
    if "when" in names and "incident" not in kinds:
        whens = [e for e in clause.entities if e["entity"] == "when" and not any(e is c for c in counting)]
        if _BORN.search(text):
            kinds.add("born")
        elif _MOVE.search(text):
            kinds.add("moved")
        elif parsing.when_after(whens, text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked=False) or (
                _BOUGHT_A_DOG.search(text)) or parsing.says_had_from_a_year(text):
            kinds.add("acquired")
        elif parsing.when_after(whens, text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked=False):
            kinds.add("bought")
        elif any(_CLOCK.search(str(e.get("value", ""))) for e in whens):
            kinds.add("time")
        else:
            kinds.add("day")
    elif "when" not in names and (parsing.says_had_long(text) or parsing.says_had_from_a_year(text)):
        kinds.add("acquired")  # "had him since 2019", "we've had her for years"
    return kinds


_CLOCK = re.compile(r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m|p\.m|o'?clock)\b|\b(?:at|around|about|by) \d{1,2}\b|"
                    r"noon|morning|afternoon|evening|tonight|tonite|night|dark|sunset|sunrise|dusk|dawn|weekend", re.I)
_BOUGHT_A_DOG = re.compile(r"\bbought (?:a|an|our|my|the|this|that)\b(?!.*\blicen[cs])", re.I)


def facts_in(said: Said) -> list[dict]:
    """The facts a message states, each {"kinds": [...], "text", "entities"}: its clauses that hold one."""
    out = []
    for clause in clauses(said):
        kinds = kinds_of(clause)
        if kinds:
            out.append({"kinds": sorted(kinds), **clause.as_dict()})
    return out


def kept(facts: Iterable[dict], new: Iterable[dict]) -> list[dict]:
    """The session's facts after ``new``: a newer fact replaces the kinds it states in the older ones (a
    correction, "actually 3 dogs"); an older fact left with no kind is dropped."""
    new = list(new)
    told = {k for f in new for k in f.get("kinds", ())}
    out = []
    for f in facts or []:
        if not isinstance(f, dict):
            continue
        left = [k for k in f.get("kinds", ()) if k not in told]
        if left:
            out.append({**f, "kinds": left})
    return (out + new)[-12:]


def context_for(facts: Iterable[dict], intent: str, said: Said) -> Said | None:
    """The facts said earlier that an answer to ``intent`` uses and ``said`` does not state itself, joined as the
    resident said them; None when there are none."""
    uses = config()["uses"]
    own = {k for c in clauses(said) for k in kinds_of(c)}
    for kind, also in (("animals", {"animal", "count"}), ("count", {"animals"}), ("time", {"day"}),
                       ("day", {"time"})):
        if kind in own:
            own |= also
    chosen = []
    for f in facts or []:
        kinds = [k for k in f.get("kinds", ()) if intent in uses.get(k, ()) and k not in own]
        if kinds:
            # its values of kinds not carried stay out: "windy today, gusts like 35 mph" before "this afternoon"
            # brings the wind, not "today" nor a "35" read as a clock
            dropped = ({"when"} if own & {"day", "time"} else set()) | (
                {"count"} if not set(kinds) & {"count", "animals"} else set())
            chosen.append(Said(f["text"], [e for e in f.get("entities") or [] if e.get("entity") not in dropped]))
    return joined(*chosen) if chosen else None


def noted(facts: list[dict]) -> str:
    """"Noted: 4 dogs, spayed or neutered: all." in the assistant's words (never the resident's message)."""
    parts = []
    for f in facts:
        said = Said(f["text"], f.get("entities") or [])
        for kind in f["kinds"]:
            part = _kind_words(kind, said)
            if part and part not in parts:
                parts.append(part)
    return "Noted: " + "; ".join(parts) + "." if parts else "Noted."


def _kind_words(kind: str, said: Said) -> str | None:
    ents = said.entities
    if kind == "animals":
        counted = parsing.animals_counted(ents)
        return " and ".join(f"{n} {a if n == 1 else _plural(a)}" for a, n in counted.items())
    values = {e["entity"]: str(e.get("value", "")) for e in ents}
    if kind == "animal":
        return f"a {values.get('animal') or 'dog'}" if "animal" in values else "a service dog"
    if kind == "neutered":
        count = parsing.neutered_said(said.text)  # "3 dogs, none fixed": none, whatever the tagged word
        if count == "none":
            return "not spayed or neutered"
        if count not in (None, "all"):
            return f"{count} spayed or neutered"
        return "spayed or neutered" if values.get("neutered") == "neutered" else "not spayed or neutered"
    if kind == "vaccinated":
        return "vaccinated" if values.get("vaccinated") == "vaccinated" else "not vaccinated"
    if kind == "service":
        return "a service dog"
    if kind == "material":
        return "burning " + " and ".join(e["value"] for e in ents if e["entity"] == "material")
    if kind == "weather":
        return "the weather"
    if kind == "distance":
        feet = parsing.distance_feet(said.text)
        return f"{feet:g} feet" if feet is not None else None
    when = " ".join(str(e["value"]).strip(" ,.;") for e in ents if e["entity"] == "when")
    return {"incident": "a " + (parsing.incident_kind(said.text, [values.get("incident", "")]) or "bite")
                        + (f" {when}" if when else ""),
            "acquired": f"you got the dog {when}" if when else "you have had the dog a long time",
            "moved": f"the move {when}", "born": f"the birthday {when}", "bought": f"buying the license {when}",
            "time": f"the time {when}", "day": when or None}.get(kind)


def _plural(animal: str) -> str:
    return animal if animal.endswith("s") else animal + "s"
