"""What a conversation carries from one message to the next: the facts said so far, the last question answered
and the last answer. Plain functions over text and entity lists (no Rasa), read by the actions.

A message is kept as a ``Said``: its text and its entities (offsets into the text). A fact ("we have 4 dogs",
"he bit her on March 3") is the clause of a message that holds it, with its kinds ("animals", "incident"); a later
question on a topic that uses such a fact is answered as if the resident had said it again, in their own words,
before the question (actions/conversation.yml `uses`). A follow-up ("and if she's spayed?", "what about 16?",
"how long?") is the last question again with the new message's values put in place of the old ones and its
remaining words added, answered on the last question's topic.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable


from knowledge.loader import read_yaml

from . import parsing

CONFIG = Path(__file__).with_name("conversation.yml")


@lru_cache(maxsize=1)
def config() -> dict:
    data = read_yaml(CONFIG)
    return {"uses": {k: frozenset(v) for k, v in data["uses"].items()},
            "topics": [(re.compile(r"\b(?:" + "|".join(g["words"].split()) + r")\b", re.I), frozenset(g["intents"]))
                       for g in data["topic_words"]],
            "filler": frozenset(data["filler"].split()),
            "reported_claim": re.compile(r"\b(?:%s)(?:'s|\s+\S+){0,5}?\s+(?:%s)\b" % (
                "|".join(data["claim_by"]), "|".join(data["claim_verb"])), re.I),
            "other_senses": re.compile(r"\b(?:" + "|".join(data["other_senses"]) + r")\b", re.I),
            "rule_again": frozenset(data["rule_again"].split()),
            "rule_asked": frozenset(data["rule_asked"].split()),
            "question_openers": frozenset(data["question_openers"].split()),
            "question_lead_in": frozenset(data["question_lead_in"].split()),
            "burning": re.compile(r"\b(?:" + "|".join(data["burning_words"].split()) + r")\b", re.I),
            "what_to_do": re.compile(r"(?:%s )*(?:%s)(?: %s)?" % (
                data["what_to_do_opening"], "|".join(data["what_to_do"]), data["what_to_do_closing"]), re.I),
            "complaint_topics": frozenset(data["complaint_topics"]),
            "duty_rules": dict(data["duty_rules"]),
            "duty_incident": data["duty_incident"],
            "duty_intent": data["duty_intent"],
            "not_a_time": frozenset(data["not_a_time"]),
            "other_animal_topics": tuple(data["other_animal_topics"]),
            "unannounced_burn": re.compile(r"\b(?:" + "|".join(data["unannounced_burn"]) + r")\b", re.I),
            "counted_animals": re.compile(r"\b(?:" + "|".join(data["counted_animals"].split()) + r")\b", re.I),
            "forbidden_asked": re.compile(r"(?:^|[.!?]\s+|\b(?:%s)\s+)(?:%s)\b[^.!?]*\b(?:%s)\b" % (
                data["forbidden_sentence_starts"], data["forbidden_openers"], "|".join(data["forbidden_words"])), re.I),
            "forbidden_other_conditions": re.compile(r"\b(?:%s)\b" % data["forbidden_other_conditions"], re.I),
            "verdict_topics": frozenset(data["verdict_topics"]),
            "permitting_leads": re.compile(data["permitting_leads"]),
            "silence_topics": frozenset(data["silence_topics"]),
            "points_back": re.compile(data["points_back"], re.I),
            "shot_words": re.compile(r"\b(?:" + "|".join(data["shot_words"]) + r")\b", re.I),
            "others_animal": re.compile(r"\b(?:" + "|".join(data["others_animal"]) + r")\b", re.I)}


@dataclass
class Said:
    """A message, or the joined messages a question is answered from: text and entities (offsets into it)."""

    text: str
    entities: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"text": self.text, "entities": self.entities}

    @classmethod
    def of(cls, value) -> "Said | None":
        if isinstance(value, dict) and isinstance(value.get("text"), str):
            return cls(value["text"], [e for e in value.get("entities") or [] if isinstance(e, dict)])
        return None


def _entity_copy(e: dict, shift: int) -> dict:
    keep = {k: e[k] for k in ("entity", "value", "start", "end") if k in e}
    keep["start"] = int(e.get("start", 0)) + shift
    keep["end"] = int(e.get("end", 0)) + shift
    return keep


def joined(*parts: Said, sep: str = " ") -> Said:
    """The parts one after the other, their entities moved to the joined text."""
    text, ents = "", []
    for part in parts:
        if part is None or not part.text.strip():
            continue
        if text:
            text = text.rstrip()
            text += ("" if text[-1:] in ".?!;," else ".") + sep
        shift = len(text)
        text += part.text.strip()
        lead = len(part.text) - len(part.text.lstrip())
        ents += [_entity_copy(e, shift - lead) for e in part.entities]
    return Said(text, ents)


# ----------------------------------------------------------------------------------------------------- facts

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


# ------------------------------------------------------------------------------------------------- follow-ups

_OPENER = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|what about|how about|what if|wat about|wht about|and if|if|"
                     r"same|but)\b", re.I)
_WORD = re.compile(r"[a-z0-9']+", re.I)


def _straight(text: str) -> str:
    """The message with typographic apostrophes made plain ("he\u2019s" -> "he's")."""
    return (text or "").replace("\u2019", "'")


def _plain(text: str) -> str:
    """The message as topic words are looked for in it: plain apostrophes, and the words that only look like a
    topic's taken out ("he's fine": well, no penalty; actions/conversation.yml `other_senses`)."""
    return config()["other_senses"].sub(" ", _straight(text))


def topics_named(text: str) -> frozenset:
    """The intents whose topic the message names by its words (actions/conversation.yml `topic_words`)."""
    out = frozenset()
    text = _plain(text)
    for words, intents in config()["topics"]:
        if words.search(text):
            out |= intents
    return out


def burns_unannounced(text: str) -> bool:
    """"so i can just burn it today without telling anyone?": a burn asked of without the notice or permit that
    must come first (actions/conversation.yml `unannounced_burn`)."""
    return bool(config()["unannounced_burn"].search(_straight(text)))


def other_animals_topic(text: str) -> str | None:
    """"we have chickens, maybe 20. is there a limit on how many?": the one topic of the animals named when the
    message names none the household limit counts (actions/conversation.yml `other_animal_topics`); else None."""
    cfg = config()
    text = _plain(text)
    if cfg["counted_animals"].search(text):
        return None
    # by the animals' own words: "permit" names the chickens, bees and wild animals alike
    named = {i for words, intents in cfg["topics"] if words.search(text)
             for i in intents & set(cfg["other_animal_topics"]) if len(intents & set(cfg["other_animal_topics"])) == 1}
    return named.pop() if len(named) == 1 else None


def family(intent: str) -> frozenset:
    """The intents that share a group of topic words with ``intent`` (the burning questions, the license
    questions, the quarantine and bite questions ...)."""
    out = frozenset({intent})
    for _, intents in config()["topics"]:
        if intent in intents:
            out |= intents
    return out


def names_only(text: str, intent: str) -> bool:
    """Does every group of topic words the message says include ``intent`` ("and for a rabies exposure?" names
    only the quarantine's own words; "and what's the fine for burning trash?" names the penalties too)?"""
    text = _plain(text)
    return all(intent in intents for words, intents in config()["topics"] if words.search(text))


def brings_facts_for(said: Said, intent: str, last_intent: str) -> bool:
    """Does the message state a fact that ``intent`` uses and ``last_intent`` does not ("tomorrow at 9" after the
    burning rules: a question whether one may burn then)?"""
    uses = config()["uses"]
    kinds = {k for c in clauses(said) for k in kinds_of(c)}
    return any(intent in uses.get(k, ()) and last_intent not in uses.get(k, ()) for k in kinds)


def about_burning(text: str) -> bool:
    """"can I burn the old coop boards?": words that can only be about burning (actions/conversation.yml)."""
    return bool(config()["burning"].search(text or ""))


def names_a_topic(text: str) -> bool:
    return bool(topics_named(text))


def supports(intent: str, text: str) -> bool:
    """Do the message's words name ``intent``'s topic? A late-fee reading of "how late can it go?" (after a
    bonfire) or a burning reading of a question about dogs is not supported by the words."""
    return intent in topics_named(text)


def residue(said: Said, drop: Iterable[dict] = ()) -> str:
    """The message's words without the spans in ``drop`` and without filler: what it asks beyond its values."""
    text = said.text
    for e in sorted(drop, key=lambda e: -e["start"]):
        text = text[:e["start"]] + " " + text[e["end"]:]
    words = [w for w in _WORD.findall(text) if w.lower() not in config()["filler"]]
    return " ".join(words)


_CONDITION = re.compile(r"^\s*(?:and |but |so )?(?:what )?if\b|^\s*(?:and|but) (?:he|she|it|they|hes|shes|its)\b|"
                        r"^\s*(?:oops|sorry|actually|correction|no wait|wait|i mean|i meant|no,)", re.I)
_NEW_TOPIC = re.compile(r"\b(?:diff|different|another|other|new|unrelated|separate|next) (?:topic|question|q|thing|"
                        r"subject)\b|\bchang\w* (?:the )?subject\b|\bone more question\b", re.I)


def states_a_condition(text: str) -> bool:
    """"what if he's vaccinated?", "sorry, it was my cat": a condition or a correction of the last question."""
    return bool(_CONDITION.match(text or ""))


def is_follow_up(said: Said, intent: str, last: Said | None, confidence: float = 0.0,
                 last_intent: str | None = None) -> bool:
    """A message that goes on from the last answer rather than asking a new question: the follow-up intent; a
    condition or correction of it ("what if she's vaccinated?", "and if it bit someone", "sorry, 15"); or a
    message that names no topic of its own and is short, opens like a follow-up ("and ...", "what about ...")
    or was not read confidently as a new question."""
    if last is None or _NEW_TOPIC.search(said.text):
        return False
    if intent == "followup" or _CONDITION.match(said.text) or asks_the_rule_again(said.text):
        return True
    uses = config()["uses"]
    named = topics_named(said.text)
    same = not named or last_intent in named
    if same and _OPENER.match(said.text) and any(last_intent in uses.get(k, ()) for c in clauses(said)
                                                 for k in kinds_of(c)):
        return True  # "and for a rabies exposure if he's not vaccinated?" after a quarantine answer
    short = len(_WORD.findall(said.text)) <= 4
    if named:  # "how long is it confined?" on the same topic; another topic's words start a new question
        return same and (short or intent == "nlu_fallback")
    if short or _OPENER.match(said.text):
        return True
    if intent in _NOT_GOING_ON:
        return False
    return not (intent.startswith("ask_") and confidence >= 0.8 and intent != last_intent and supports(intent,
                                                                                                        said.text))


#: intents that, said at length without a follow-up's opening, are their own request, not a follow-up
_NOT_GOING_ON = {"out_of_scope", "greet", "goodbye", "thank", "help", "bot_challenge", "human_handoff", "cancel",
                 "more", "notify_burn"}


_REFERS = re.compile(r"\b(?:that|this|it|doing that|those|these)\b\s*\??\s*$|\bfor (?:that|this|it)\b", re.I)


def asks_the_rule_again(text: str) -> bool:
    """"is that against the rules?", "any rules on that?", "what do I need to do?": a follow-up whose words ask
    about the rule just given and name nothing else (actions/conversation.yml `rule_again`)."""
    words = [w.lower() for w in _WORD.findall(text or "")]
    if not 3 <= len(words) <= 9:  # "ok" alone is a thanks, not a question
        return False
    cfg = config()
    opening = next((w for w in words if w not in cfg["question_lead_in"]), "")
    asked = "?" in text or opening in cfg["question_openers"]
    return asked and all(w in cfg["rule_again"] or w in cfg["filler"] for w in words) and any(
        w in cfg["rule_asked"] for w in words) and not names_a_topic(text)


def reports_a_claim(text: str) -> bool:
    """"my neighbor says you can have 6 dogs on a farm": what someone else said, which the resident asks us to
    check (actions/conversation.yml `reported_claim`)."""
    return bool(config()["reported_claim"].search(_straight(text)))


def asks_what_to_do(text: str) -> bool:
    """"what can I do about it?", "ok so what do we have to do now?": said as the whole message (after any "he's
    fine"), nothing else asked (actions/conversation.yml `what_to_do`)."""
    cfg = config()
    plain = " ".join(re.findall(r"[a-z']+", _plain(text).lower()))
    return bool(cfg["what_to_do"].fullmatch(plain))


def asks_what_to_do_about_another(text: str, last: dict) -> bool:
    """"what can I do about it?" after a question about a neighbour's animal and a nuisance a resident complains
    of (barking, a dog at large): how to have the rules enforced (`others_animal`, `complaint_topics`)."""
    cfg = config()
    return last.get("intent") in cfg["complaint_topics"] and asks_what_to_do(text) \
        and bool(cfg["others_animal"].search(last.get("text") or ""))


def duty_rule(text: str, last: dict) -> tuple[str, str] | None:
    """The topic and rule naming the owner's duties when "what do we have to do now?" follows a question on a
    topic that has them (a bite: report it and confine the animal; `duty_rules`), else None."""
    cfg = config()
    named = cfg["duty_rules"].get(last.get("intent"))
    incidents = {str(e.get("value")) for e in last.get("entities") or [] if e.get("entity") == "incident"}
    after = incidents == {cfg["duty_incident"]} or (not incidents and last.get("intent") == cfg["duty_intent"])
    return tuple(named.split(".", 1)) if named and after and asks_what_to_do(text) else None


def refers_back(text: str) -> bool:
    """"what's the fine for that?", "who enforces it?": a short question about what was just asked."""
    return len(_WORD.findall(text or "")) <= 8 and bool(_REFERS.search(text or ""))


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


# --------------------------------------------------------------------------------------------- acknowledging

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
