"""The conversation's memory in Rasa's slots, and the question a message asks given what came before.

Slots (bot/domain/conversation.yml): ``facts`` (the facts said this session, actions/conversation/), and
``last_question`` ({"intent", "text", "entities"} of the question last answered, or {"intent", "inputs"} for a
license computed from the form's answers) and ``last_answer`` ({"topic", "lead", "sources", "details"}, set by
common.send). Rasa's session expiry ends them (bot/domain/intents.yml session_config).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from rasa_sdk import Tracker
from rasa_sdk.events import SlotSet

from . import common, parsing
from .conversation import (Said, asks_the_rule_again, asks_what_to_do_about_another, brings_facts_for, context_for,
                           duty_rule, facts_in, family, is_follow_up, joined, kept, merge, names_only, refers_back,
                           states_a_condition, supports)

FACTS, LAST_QUESTION, LAST_ANSWER = "facts", "last_question", "last_answer"


def said_of(tracker: Tracker) -> Said:
    """The latest message as a Said (a "/intent" payload has no words), with its distances ("25 ft") as entities
    too, so that a correction of one takes its place."""
    text = common.text_of(tracker)
    ents = [e for e in tracker.latest_message.get("entities") or [] if isinstance(e.get("start"), int)]
    if not any(e.get("entity") == "distance" for e in ents):
        found = parsing.distances(text)  # "about 30 ft": a distance, not a time or a count
        ents = [e for e in ents if not (e["entity"] in ("count", "when") and any(
            d["start"] < e["end"] and e["start"] < d["end"] for d in found))] + found
    bare = re.fullmatch(r"\s*(?:(?:and|what about|how about|for|make it|with)\s+)?(\d{1,3})\s*\??\s*", text or "")
    if bare and all(e["entity"] in ("count", "when") for e in ents):
        # "what about 16?": a bare number (even one read as a time) is a count; the merge decides of what
        ents = [{"entity": "count", "value": bare.group(1), "start": bare.start(1), "end": bare.end(1)}]
    return Said(text, sorted(ents, key=lambda e: e["start"]))


def with_message(tracker: Tracker, said: Said, intent: str | None = None, aspect: str | None = None) -> Tracker:
    """A copy of ``tracker`` whose latest message is ``said`` (its intent ``intent``): what every reader of the
    message (readers.answer_for, the forms' extractors) then reads. ``aspect``: the words a follow-up asks with,
    which choose the rule of the topic that leads."""
    latest = copy.deepcopy(tracker.latest_message)
    latest["text"] = said.text
    latest["entities"] = said.entities
    if intent:
        latest["intent"] = {**(latest.get("intent") or {}), "name": intent}
    if aspect:
        latest["aspect"] = aspect
    return Tracker(tracker.sender_id, tracker.slots, latest, tracker.events, tracker.is_paused(),
                   tracker.followup_action, tracker.active_loop, tracker.latest_action_name)


def last_question(tracker: Tracker) -> dict | None:
    value = tracker.get_slot(LAST_QUESTION)
    return value if isinstance(value, dict) and value.get("intent") else None


def facts(tracker: Tracker) -> list[dict]:
    value = tracker.get_slot(FACTS)
    return [f for f in value if isinstance(f, dict)] if isinstance(value, list) else []


def remember_facts(tracker: Tracker) -> list:
    """The latest message's facts added to the session's (a newer fact of a kind replaces the older)."""
    new = facts_in(said_of(tracker))
    return [SlotSet(FACTS, kept(facts(tracker), new))] if new else []


@dataclass
class Turn:
    """The question to answer: its intent, a tracker whose latest message is that question (with the facts said
    earlier that it uses), whether it goes on from the last answer, and the slot events that remember it."""

    intent: str
    tracker: Tracker
    follow_up: bool = False
    events: list = field(default_factory=list)
    last: dict | None = None
    rule_again: bool = False  # "is that against the rules?": the last answer's rule and its words


#: the name of a topic's rule on the complaints that make a violation (knowledge/towns/*/topics.yml)
COMPLAINT_RULE = "complaints"


def read(tracker: Tracker, intent: str) -> Turn:
    """The question ``tracker``'s latest message asks: a follow-up of the last question ("how long?", "and for
    3 dogs?") asks it again with the new values; a new question gets the facts said earlier that its topic uses."""
    said = said_of(tracker)
    last = last_question(tracker)
    before = Said.of(last) if last else None
    events = remember_facts(tracker)
    confidence = float((tracker.latest_message.get("intent") or {}).get("confidence") or 0.0)
    if last and asks_what_to_do_about_another(said.text, last):
        # "what can I do about it?": the complaint procedure of the last topic (barking: the written complaints
        # that make a violation, 7.02-11), else the chapter's (enforcement: 7.02-19)
        topics = common.town().topics
        own = topics.get(last["intent"][4:])
        key = last["intent"][4:] if own is not None and COMPLAINT_RULE in own.rules else "enforcement"
        if key in topics and topics[key].covered:
            asked = with_message(tracker, said, f"ask_{key}")
            asked.latest_message["rule"] = COMPLAINT_RULE if key != "enforcement" else "answer"
            return Turn(f"ask_{key}", asked, False, events, last)
    duty = duty_rule(said.text, last) if last else None
    if duty is not None and duty[0] in common.town().topics and common.town().topics[duty[0]].covered:
        # "what do we have to do now?" after a bite: the owner's duties (report it, confine the animal, 7.02-9)
        key, rule = duty
        asked = with_message(tracker, Said.of(last) or said, f"ask_{key}")
        asked.latest_message["rule"] = rule
        return Turn(f"ask_{key}", asked, False, events, last)
    if last and is_follow_up(said, intent, before if before else Said(""), confidence, last["intent"]):
        if before is None:  # the last answer was computed from the form's answers (inputs), not a message
            return Turn(last["intent"], tracker, True, events, last)
        merged, aspect = merge(before, said)
        # "can I do it tomorrow at 9?" after the burning rules: the burning question it asks, on what was said
        # ... unless it states a fact only the last question uses ("and for a rabies exposure?" after a bite
        # quarantine: the exposure's quarantine, not the rabies-shot rule)
        ask = intent if intent.startswith("ask_") and confidence >= 0.5 and intent in family(last["intent"]) and (
            not states_a_condition(said.text)) and (supports(intent, said.text) or brings_facts_for(
                said, intent, last["intent"])) and not (brings_facts_for(said, last["intent"], intent)
                                                     and names_only(said.text, last["intent"])) else last["intent"]
        followed = with_message(tracker, merged, ask, aspect or None)
        followed.latest_message["values_said"] = bool(said.entities)  # a correction: computed again, no new clause
        # ... and said as a statement ("no sorry, his shots lapsed"), its other words ask no clause of their own
        followed.latest_message["corrects"] = bool(said.entities) and not common.looks_like_question(said.text)
        # a correction of which animal it was ("sorry, it was my cat" after "report the bite at once") keeps the
        # rule that led; one of a fact the rules turn on ("his rabies shot expired") ranks them again
        kept_rule = _last_rule(tracker, ask) if followed.latest_message["corrects"] and ask == last["intent"] and all(
            e.get("entity") == "animal" for e in said.entities) else None
        if kept_rule:
            followed.latest_message["kept_rule"] = kept_rule  # where the topic's rule leads (not a computation)
        return Turn(ask, followed, True, events, last, rule_again=asks_the_rule_again(said.text))
    context = context_for(facts(tracker), intent, said)
    if before is not None and refers_back(said.text):
        context = joined(context, before) if context is not None else before  # "what's the fine for that?"
    return Turn(intent, with_message(tracker, joined(context, said) if context is not None else said, intent), False,
                events, last)


def _last_rule(tracker: Tracker, intent: str) -> str | None:
    """The rule of ``intent``'s topic that led the last answer ("report" of "bites.report"), if a rule did."""
    value = tracker.get_slot(LAST_ANSWER)
    topic, _, name = str((value or {}).get("rule") or "").partition(".") if isinstance(value, dict) else ("", "", "")
    return name if name and topic == intent[4:] else None


def asked(turn: Turn, events: list | None = None) -> list:
    """Remember the question just answered, as asked (with its context) and on the topic the answer gave
    ("do cats need a permit?" is answered from the license topic: a follow-up asks that again)."""
    message = turn.tracker.latest_message
    topic = next((e["value"].get("topic") for e in reversed(events or []) if e.get("event") == "slot"
                  and e.get("name") == LAST_ANSWER and isinstance(e.get("value"), dict)), None)
    asked_topic = common.town().topics.get(turn.intent[4:])
    intent = f"ask_{topic}" if topic and asked_topic is not None and not asked_topic.covered else turn.intent
    return [SlotSet(LAST_QUESTION, {"intent": intent, "text": message.get("text") or "",
                                    "entities": [{k: e[k] for k in ("entity", "value", "start", "end") if k in e}
                                                 for e in message.get("entities") or []]})]


def guessed(tracker: Tracker) -> list:
    """A statement noted without an answer ("my neighbor's dog killed 2 of my hens yesterday") is kept as the
    last question on the topic the classifier ranked first, so that "what can I do?" goes on from it."""
    ranked = [r for r in tracker.latest_message.get("intent_ranking") or [] if str(r.get("name")).startswith("ask_")]
    if not ranked or float(ranked[0].get("confidence") or 0) < 0.3:
        return []
    return asked(Turn(ranked[0]["name"], tracker))
