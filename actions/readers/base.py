"""What every topic's reader shares: the question asked (Asked), and the topic's own answer when no reader
computes one (its rules ranked against the question, a distance said measured against the rule's bound)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from rasa_sdk import Tracker

from knowledge import handlers, rules
from knowledge.handlers import measure
from knowledge.model import Answer

from .. import common, conversation, parsing


@dataclass
class Asked:
    """One question to answer: its intent, the conversation (its latest message is the question, with the facts a
    follow-up carries), the town and the time it is asked."""
    intent: str
    tracker: Tracker
    t: Any
    now: datetime

    @classmethod
    def of(cls, intent: str, tracker: Tracker, t, now: datetime) -> "Asked":
        if intent == "ask_kennels" and parsing.asks_about_the_limit(common.text_of(tracker)) and \
                parsing.animals_and_young(tracker.latest_message.get("entities", []), common.text_of(tracker)):
            intent = "ask_animal_limits"  # "2 dogs and a litter of 7: are we breaking the 5 dog rule?" is no kennel
        return cls(intent, tracker, t, now)

    @property
    def key(self) -> str:
        """The topic asked about ("ask_late_fee" -> "late_fee")."""
        return self.intent[4:]

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def text(self) -> str:
        return common.text_of(self.tracker)


def topic_answer(q: Asked) -> Answer:
    """The topic's rule the question asks (knowledge.handlers.topic ranks them), or the distance it says measured
    against that rule's bound; a cat's license or permit is the license topic's answer for cats."""
    key, t = q.key, q.t
    animal = animal_kind(common.entity(q.tracker, "animal"))
    if key == "permits" and animal == "cat" and has_rule(t, "license_required", "for_cat"):
        key = "license_required"  # "do cats need a license/permit?": the license topic's answer for cats
    answer = handlers.topic(t, key, on=q.today, animal=animal, question=asked_words(q.tracker),
                            aspect=kept_rule(q.tracker, t, key),
                            cross=crosses(q.tracker) and not silence_named(t, key, q.tracker))
    return measured_instead(q.tracker, t, answer, q.today) or answer


def has_rule(t, topic: str, name: str) -> bool:
    """Does the town's ``topic`` have the rule ``name`` (a town may lack either)?"""
    found = t.topics.get(topic)
    return found is not None and name in found.rules


def animal_kind(value: str | None) -> str | None:
    """'cats', 'kitten', 'Cat' -> 'cat'; 'puppy', 'dogs' -> 'dog'; anything else as said, lower case."""
    if not value:
        return None
    v = value.strip().lower()
    if v.startswith(("cat", "kitt")):
        return "cat"
    if v.startswith(("dog", "pup")):
        return "dog"
    return v


def asked_words(tracker: Tracker) -> str:
    """The words that choose which rule of the topic leads: a follow-up's own when they say what is asked
    ("what's the fee?" after an impound answer), else the whole question (a follow-up's with the last one's:
    "what can I do?" asks about what was said before)."""
    aspect = tracker.latest_message.get("aspect")
    if aspect and len(rules.words(aspect)) >= 2 and not tracker.latest_message.get("corrects"):
        return aspect  # a correction's other words ("oops, it's more like 30 feet") ask nothing of their own
    return common.text_of(tracker)


def crosses(tracker: Tracker) -> bool:
    """May another topic's rule answer? Not for a follow-up: it asks on the last answer's topic ("we have 3 dogs
    though" after the late fee is the late fee for them, not the limit on dogs)."""
    return not tracker.latest_message.get("aspect")


def kept_rule(tracker: Tracker, t, key: str) -> str | None:
    """The rule a correction keeps leading ("sorry, it was my cat" after the duty to report a bite), when the
    topic ``key`` has it (dialogue.read)."""
    name = tracker.latest_message.get("kept_rule")
    return name if name and has_rule(t, key, name) else None


def silence_named(t, key: str, tracker: Tracker) -> bool:
    """"do I need a permit for chickens?" where the code has no animal permits: the message names an animal and a
    topic the code is silent on whose silence answers it (conversation.yml `silence_topics`), never another
    topic's rule its other words rank ("domestic animal"). A "DNR permit" mid burn notice names no animal."""
    return key in conversation.config()["silence_topics"] and key in t.topics and not t.topics[key].covered and \
        f"ask_{key}" in conversation.topics_named(common.text_of(tracker)) and bool(common.entities(tracker, "animal"))


def measured_instead(tracker: Tracker, t, answer: Answer, today) -> Answer | None:
    """"our coop would be 30 feet from the back lot line": the distance said, against the bounded parameter of the
    rule that led the answer, or of the topic's one rule that bounds a distance (knowledge/handlers/measure.py)."""
    said = [e for e in tracker.latest_message.get("entities") or [] if e.get("entity") == "distance"
            and isinstance(e.get("value"), (int, float))]
    topic, _, led = str(answer.data.get("rule") or "").partition(".")
    found = t.topics.get(topic)
    if not said or found is None:
        return None
    bounded = {n: (r, p) for n, r in found.rules.items() if (p := measure.bounded_parameter(t, r, "feet"))}
    # the rule that led, else the topic's rules naming a bound, the most specific first (the setback rule before
    # the coop's size, height and setback); measured only against a bound whose description shares a word with
    # the words around the distance ("30 feet from the back lot line", "a 25 foot leash"): "can my dog be 30 feet
    # away from me off leash?" measures no leash
    text, at = common.text_of(tracker), said[-1]
    near = " ".join(text[:at["start"]].split()[-3:] + text[at["end"]:].split()[:4])
    asked = set(rules.words(near)) - set(rules.words("feet foot ft"))
    ordered = sorted(bounded, key=lambda n: len(measure.placeholders(bounded[n][0])))
    for name in ([led] if led in bounded else []) + [n for n in ordered if n != led]:
        if set(rules.words(t.param(bounded[name][1]).description)) & asked:
            return handlers.measured(t, topic=topic, rule=name, amount=float(said[-1]["value"]), unit="feet",
                                     on=today)
    return None
