"""Readers of questions about animals: how many may be kept, the fine for a rule, a bite's quarantine, and when a
rabies shot is due."""
from __future__ import annotations

import re

from rasa_sdk import Tracker

from knowledge import NeedsClarification, handlers, rules, when
from knowledge.model import Answer

from .. import common, conversation, parsing
from .base import Asked, animal_kind, asked_words, crosses, has_rule, kept_rule
from .clauses import clause_asked
from .licenses import acquired_day_said


def limits(q: Asked) -> Answer | None:
    """"how many chickens?": that animal's topic; "2 dogs and a litter of 7": the limit computed on the count."""
    if q.intent != "ask_animal_limits":
        return None
    t, text, entities = q.t, q.text, q.tracker.latest_message.get("entities", [])
    other = conversation.other_animals_topic(text)
    if other is not None and other[4:] in t.topics:  # "how many chickens?": not the dogs-and-cats limit
        return handlers.topic(t, other[4:], on=q.today, question=text, cross=False)
    counted = parsing.animals_and_young(entities, text)
    said = common.when_text(q.tracker)
    if any(counted.get(k) is not None for k in ("dogs", "cats", "puppies", "kittens")) or (
            said and parsing.names_young(entities, text)):
        born = when.parse_day(said, t, now=q.now, prefer="past") if said else None
        return handlers.animal_limits(t, on=q.today, litter_born=born, **counted)
    return None


def penalty(q: Asked) -> Answer | None:
    """The fine for the rule a penalty question names (fine_asked)."""
    return fine_asked(q.tracker, q.t, q.today) if q.intent == "ask_animal_penalties" else None


def quarantine_consequence(q: Asked) -> Answer | None:
    """"what happens if I don't keep my dog quarantined?": the penalty, not the periods again."""
    if q.intent in ("ask_quarantine", "ask_bites") and parsing.asks_consequence(q.text) and \
            not common.when_text(q.tracker):
        return handlers.topic(q.t, "animal_penalties", on=q.today, question=q.text, aspect="quarantine_order")
    return None


def bite_rule(q: Asked) -> Answer | None:
    """"who do I report a bite to?": the bites topic leads with the rule asked (report, confine, ...)."""
    if q.intent == "ask_bites" and not common.when_text(q.tracker) and not parsing.asks_how_long(q.text):
        return handlers.topic(q.t, "bites", on=q.today, animal=animal_kind(common.entity(q.tracker, "animal")),
                              question=asked_words(q.tracker), aspect=kept_rule(q.tracker, q.t, "bites"),
                              cross=crosses(q.tracker))
    return None


def quarantine_clause(q: Asked) -> Answer | None:
    """"does the vet have to see him?", "who pays?", "do i have to report it?" after the dated periods: that rule,
    not the periods (clauses.clause_asked)."""
    if q.intent not in ("ask_quarantine", "ask_bites"):
        return None
    message = q.tracker.latest_message
    aspect = message.get("aspect")
    asks_a_clause = bool(aspect and rules.words(aspect) and not re.search(r"\bwhy\b", aspect, re.I)
                         and not message.get("corrects"))
    if common.when_text(q.tracker) and not asks_a_clause:
        return None
    clause = clause_asked(q.t, ("quarantine", "bites"), aspect if asks_a_clause else asked_words(q.tracker),
                          near=not message.get("values_said"))
    if clause is None:
        return None
    return handlers.topic(q.t, clause.topic, on=q.today, question=asked_words(q.tracker), aspect=clause.name)


def quarantine_days(q: Asked) -> Answer | None:
    """The quarantine's periods, dated from the incident said, for the animal and incident said."""
    if q.intent not in ("ask_quarantine", "ask_bites"):
        return None
    tracker = q.tracker
    said = common.when_text(tracker)
    kind = parsing.incident_kind(q.text, [e.get("value") for e in common.entities(tracker, "incident")])
    named = [animal_kind(str(e.get("value"))) for e in common.entities(tracker, "animal")]
    # an exposure ("a rabid skunk fought our dog"): the pet, not the wild animal, is the one confined; a bite
    # ("my ferret bit my nephew ... like a dog?"): the animal named first bit
    pets = [a for a in named if a in ("dog", "cat")] if kind == "exposure" else []
    animal = (pets or named or ["dog"])[0]
    vacc = common.entity(tracker, "vaccinated")
    return handlers.quarantine(
        q.t, incident=when.parse_day(said, q.t, now=q.now, prefer="past") if said else None, today=q.today,
        kind=kind, animal=animal if animal in ("dog", "cat") else "other",
        vaccinated=None if vacc is None else vacc == "vaccinated")


def vaccination_due(q: Asked) -> Answer | None:
    """"got her yesterday, how long do i have to get her vaccinated?": the day the shot is due (7.02-2(a))."""
    if q.intent != "ask_rabies_vaccination" or animal_kind(common.entity(q.tracker, "animal")) not in (None, "dog"):
        return None
    got = acquired_day_said(q.tracker, q.t, q.now)
    return handlers.vaccination_due(q.t, on=q.today, obtained=got, age_months=parsing.age_months(q.text)) \
        if got else None


READERS = [limits, penalty, quarantine_consequence, bite_rule, quarantine_clause, quarantine_days, vaccination_due]


def fine_asked(tracker: Tracker, t, today) -> Answer | None:
    """The fine a penalty question asks about, by the rule it names (Dunkirk 7.02-18): a missing license, tag or
    shot (b)(1) (a cat's: none, the rules are for dogs); dog waste; the rules of 7.02-6 to -12 (c); the sections no
    fine is named for, or a count over the limit; never the quarantine order's (b)(2) on the word "fine" alone.
    None: the topic's ranking answers it."""
    text = common.text_of(tracker)
    if parsing.names_the_license_fine(text):
        if parsing.about_cats(text, [e.get("value") for e in common.entities(tracker, "animal")]):
            # "fine for an unlicensed cat": the license and rabies rules are for dogs, so no fine is named for it
            topic = "rabies_vaccination" if re.search(r"vaccin|rabies|shots", text, re.I) else "license_required"
            if has_rule(t, topic, "for_cat"):
                return handlers.topic(t, topic, on=today, question=text, aspect="for_cat")
        elif has_rule(t, "animal_penalties", "license"):
            return handlers.topic(t, "animal_penalties", on=today, question=text, aspect="license")  # 7.02-18(b)(1)
    if parsing.names_waste(text) and has_rule(t, "animal_waste", "penalty"):
        return handlers.topic(t, "animal_waste", on=today, question=text, aspect="penalty")  # 7.02-18(c)
    if parsing.names_an_animal_rule_fine(text) and has_rule(t, "animal_penalties", "answer"):
        return handlers.topic(t, "animal_penalties", on=today, question=text, aspect="answer")  # 7.02-18(c)
    if parsing.asks_fine_unnamed(text) or (not parsing.names_a_fine(text) and over_the_limit(tracker, t, today)):
        # "the fine for having more than 5 dogs": the penalty for the animal limits (a rule the town may lack)
        return handlers.topic(t, "animal_penalties", on=today, question=text, aspect="animal_limits")
    if not parsing.names_a_quarantine_order(text) and \
            getattr(rules.pick(t, "animal_penalties", text), "name", None) == "quarantine_order":
        general = "answer" if has_rule(t, "animal_penalties", "answer") else None
        return handlers.topic(t, "animal_penalties", on=today, question=text, aspect=general)  # not (b)(2) on "fine"
    return None


def over_the_limit(tracker: Tracker, t, today) -> bool:
    """The animals the question counts ("if I keep 8 dogs") are more than the town allows (animal_limits)."""
    counted = parsing.animals_and_young(tracker.latest_message.get("entities", []), common.text_of(tracker))
    if not any(counted.get(k) for k in ("dogs", "cats")):
        return False
    try:
        return bool((handlers.animal_limits(t, on=today, **counted).value or {}).get("over"))
    except (NeedsClarification, TypeError, ValueError):
        return False
