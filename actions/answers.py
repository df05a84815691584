"""Single questions: one intent -> one handler in knowledge/ -> one message."""
from __future__ import annotations

import logging
import re
from calendar import monthrange
from typing import Any, Dict, List, Text

from pathlib import Path
from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher

from knowledge import NeedsClarification, burn_hours, daypart, handlers, render, rules, when
from knowledge.handlers import measure
from knowledge.loader import read_yaml
from knowledge.model import Answer

from . import common, conversation, dialogue, parsing, search_fallback
from .conversation import facts_in, noted

log = logging.getLogger(__name__)
TOPICS = read_yaml(Path(__file__).resolve().parents[1] / "knowledge" / "topics.yml")


def topic_title(intent: str) -> str:
    key = intent[4:] if intent.startswith("ask_") else intent
    if key in TOPICS:
        return TOPICS[key]["title"]
    return {"notify_burn": "Notify the fire department of a burn", "ask_section": "Read a section of the code"
            }.get(intent, key.replace("_", " "))


def animals_counted(tracker: Tracker) -> dict[str, int]:
    """{"dog": 2, "cat": 1} from "2 dogs and a cat": each count goes with the animal after it."""
    return parsing.animals_counted(tracker.latest_message.get("entities", []))


def has_rule(t, topic: str, name: str) -> bool:
    """Does the town's ``topic`` have the rule ``name`` (a town may lack either)?"""
    found = t.topics.get(topic)
    return found is not None and name in found.rules


def answer_for(intent: str, tracker: Tracker, t, now) -> Answer:
    today = now.date()
    text = common.text_of(tracker)
    if intent == "ask_kennels" and parsing.asks_about_the_limit(text) and \
            parsing.animals_and_young(tracker.latest_message.get("entities", []), text):
        intent = "ask_animal_limits"  # "2 dogs and a litter of 7: are we breaking the 5 dog rule?" is no kennel
    key = intent[4:]
    chosen = tracker.latest_message.get("rule")
    if chosen and has_rule(t, key, chosen):  # the reading of the turn chose the rule ("what can I do about it?")
        return handlers.topic(t, key, on=today, question=text, aspect=chosen)
    if intent == "ask_section":
        ref = common.entity(tracker, "section")
        if ref:
            return handlers.section(t, ref)
        return handlers.search(t, text, on=today)
    term = defined_term_asked(t, text)
    if term is not None:  # "is a conservation warden a law enforcement officer?": the code's definition
        return handlers.definition(t, term)
    if intent == "ask_definitions" or (intent == "ask_at_large" and parsing.asks_a_meaning(text)):
        return handlers.definition(t, parsing.defined_term(text, t.definitions))
    if intent == "ask_animal_limits":
        other = conversation.other_animals_topic(text)
        if other is not None and other[4:] in t.topics:  # "how many chickens?": not the dogs-and-cats limit
            return handlers.topic(t, other[4:], on=today, question=text, cross=False)
        counted = parsing.animals_and_young(tracker.latest_message.get("entities", []), text)
        said = common.when_text(tracker)
        if any(counted.get(k) is not None for k in ("dogs", "cats", "puppies", "kittens")) or (
                said and parsing.names_young(tracker.latest_message.get("entities", []), text)):
            born = when.parse_day(said, t, now=now, prefer="past") if said else None
            return handlers.animal_limits(t, on=today, litter_born=born, **counted)
    if intent in BURNING_INTENTS - {"ask_burning_penalties", "ask_no_burning_order"} and \
            conversation.burns_unannounced(text) and t.topics["burn_notification"].covered:
        # "can i just burn it today without telling anyone?": No, never a Yes on conditions (7.12(1))
        answer = handlers.topic(t, "burn_notification", on=today, aspect=burn_hours.scheme(t).before_rule)
        answer.lead = f"No: {answer.lead[:1].lower()}{answer.lead[1:]}" if answer.lead else answer.lead
        return answer
    if intent in ("ask_burn_notification", "ask_burning_rules", "ask_burning_hours", "ask_permits") and \
            parsing.asks_after_dark_permission(text) and not common.when_text(tracker):
        return handlers.topic(t, "burning_hours", on=today, question=text, aspect=burn_hours.scheme(t).exception_rule)
    if intent in ("ask_license_required", "ask_late_fee") and not parsing.about_cats(text) and (
            intent == "ask_license_required" or parsing.asks_deadline(text)):
        reached = licensable_day_said(tracker, t, now)
        if reached is not None:  # "he turned 5 months on May 1", "born Jan 10": licensed within the days after
            return handlers.license_deadline(t, on=today, licensable_age_on=reached, acquired=acquired_day_said(
                tracker, t, now))
    if intent == "ask_license_required" and not parsing.about_cats(text):
        aspect = license_rule_for_age(t, text, today)
        if aspect is not None:  # "our 4 yr old lab": the rule for a grown dog, never "not yet if under 5 months"
            return handlers.topic(t, key, on=today, question=text, aspect=aspect)
    if intent == "ask_animal_penalties":
        fine = fine_asked(tracker, t, today)
        if fine is not None:
            return fine
    if intent in ("ask_quarantine", "ask_bites") and parsing.asks_consequence(text) and not common.when_text(tracker):
        # "what happens if I don't keep my dog quarantined?": the penalty, not the periods again
        return handlers.topic(t, "animal_penalties", on=today, question=text, aspect="quarantine_order")
    if intent == "ask_bites" and not common.when_text(tracker) and not parsing.asks_how_long(text):
        # "who do I report a bite to?": the bites topic leads with the rule asked (report, confine, ...)
        return handlers.topic(t, "bites", on=today, animal=animal_kind(common.entity(tracker, "animal")),
                              question=asked_words(tracker), aspect=kept_rule(tracker, t, "bites"),
                              cross=crosses(tracker))
    aspect = tracker.latest_message.get("aspect")
    asks_a_clause = bool(aspect and rules.words(aspect) and not re.search(r"\bwhy\b", aspect, re.I)
                         and not tracker.latest_message.get("corrects"))
    if intent in ("ask_quarantine", "ask_bites") and (not common.when_text(tracker) or asks_a_clause):
        # "do i have to report it?" after the dated periods: the reporting rule, not the dates again
        clause = clause_asked(t, ("quarantine", "bites"), aspect if asks_a_clause else asked_words(tracker),
                              near=not tracker.latest_message.get("values_said"))
        if clause is not None:  # "does the vet have to see him?", "who pays?": that rule, not the periods
            return handlers.topic(t, clause.topic, on=today, question=asked_words(tracker), aspect=clause.name)
    if intent in ("ask_quarantine", "ask_bites"):
        said = common.when_text(tracker)
        kind = parsing.incident_kind(text, [e.get("value") for e in common.entities(tracker, "incident")])
        named = [animal_kind(str(e.get("value"))) for e in common.entities(tracker, "animal")]
        # an exposure ("a rabid skunk fought our dog"): the pet, not the wild animal, is the one confined; a bite
        # ("my ferret bit my nephew ... like a dog?"): the animal named first bit
        pets = [a for a in named if a in ("dog", "cat")] if kind == "exposure" else []
        animal = (pets or named or ["dog"])[0]
        vacc = common.entity(tracker, "vaccinated")
        return handlers.quarantine(
            t, incident=when.parse_day(said, t, now=now, prefer="past") if said else None, today=today,
            kind=kind,
            animal=animal if animal in ("dog", "cat") else "other",
            vaccinated=None if vacc is None else vacc == "vaccinated")
    if intent in LICENSE_INTENTS and parsing.asks_deadline_after_moving_in(text, (t.short_name,)):
        said = common.when_text(tracker)
        days = common.entities(tracker, "when")  # the move's day: the last said ("moved ... in 2020, moving ... July 10")
        tense = parsing.moving_still_to_come(text, days[-1]["start"] if days else None)
        # "moved here in March" (no day), "moving here June 20" (past or to come?): the rule, not a guessed deadline
        relative = parsing.counted_from_today(said)
        known = said and not parsing.month_only(said) and (tense is not None or relative)
        ahead = "future" if tense or (tense is None and relative) else "past"
        return handlers.license_deadline(t, on=today, moved_in=when.parse_day(said, t, now=now, prefer=ahead)
                                         if known else None)
    if intent == "ask_late_fee":
        dated = late_fee_on_dates_said(tracker, t, now)
        if dated is not None:
            return dated
    if intent == "ask_multiple_dog_license":
        dogs = parsing.animals_and_young(tracker.latest_message.get("entities", [])).get("dogs")
        if dogs and dogs > 1:
            return handlers.license_cost(t, on=today, dogs=dogs, option="multiple")
    if intent == "ask_no_burning_order":
        said = common.when_text(tracker)  # "this weekend", "Saturday": the orders in force then
        during = when.resolve(said, t, now=now) if said else None
        try:
            orders = common.burning_orders(t)
        except Exception:  # the records store is down: the rule, without claiming a status
            answer = handlers.topic(t, "no_burning_order", on=today)
            answer.caveats.insert(0, "I can't check right now whether an order is in effect; call the Fire "
                                     "Department or the Clerk before you burn.")
            return answer
        return handlers.burning_order_status(t, now=now, orders=orders, during=during)
    feet = parsing.distance_feet(text) if intent == "ask_burn_setbacks" else \
        parsing.distance_feet(text, away=True) if intent == "ask_can_burn" else None
    if feet is not None:  # "is 50 ft from the house far enough?"; a burn asked about too close gets its "No"
        setback = handlers.burn_setback(t, distance_feet=feet, on=today)
        if intent == "ask_burn_setbacks" or setback.value is not True:
            return setback
    if intent in ("ask_can_burn", "ask_burning_rules") and parsing.names_weather(text) and \
            has_rule(t, "burning_rules", "weather"):
        # "it's really windy today ... ok to burn this afternoon?": the weather rule decides (Dunkirk 7.12(4)),
        # unless the time asked is outside the hours or under an order: that No comes first ("tomorrow at 5 am
        # before it gets windy" is before sunrise)
        said = time_phrase(tracker) if common.when_text(tracker) else None
        if said:
            timed = handlers.burning(t, at=when.resolve(said, t, now=now), orders=common.burning_orders(t),
                                     material=material_said(tracker))
            if (timed.value or {}).get("allowed") is False:
                return timed
        return handlers.topic(t, "burning_rules", on=today, question=text, aspect="weather")
    if intent in ("ask_can_burn", "ask_burning_hours") or (
            intent == "ask_prohibited_materials" and common.entity(tracker, "material")):
        said = time_phrase(tracker)
        if intent == "ask_burning_hours" and not common.when_text(tracker) and not parsing.asks_may_i(text):
            said = None  # "does the fire need to be out when it gets dark?": the hours rule, not a Yes or No
        if said or intent == "ask_can_burn":
            at = when.resolve(said, t, now=now) if said else now
            return handlers.burning(t, at=at, orders=common.burning_orders(t), material=material_said(tracker))
    if intent == "ask_prohibited_materials" and common.entity(tracker, "material"):
        return handlers.burning(t, at=now, orders=common.burning_orders(t), material=material_said(tracker))
    if intent == "ask_rabies_vaccination" and animal_kind(common.entity(tracker, "animal")) in (None, "dog"):
        got = acquired_day_said(tracker, t, now)
        due = handlers.vaccination_due(t, on=today, obtained=got, age_months=parsing.age_months(text)) if got else None
        if due is not None:  # "got her yesterday, how long do i have to get her vaccinated?": the day (7.02-2(a))
            return due
    animal = animal_kind(common.entity(tracker, "animal"))
    if key == "permits" and animal == "cat" and has_rule(t, "license_required", "for_cat"):
        key = "license_required"  # "do cats need a license/permit?": the license topic's answer for cats
    answer = handlers.topic(t, key, on=today, animal=animal, question=asked_words(tracker),
                            aspect=kept_rule(tracker, t, key), cross=crosses(tracker) and not silence_named(t, key, tracker))
    return measured_instead(tracker, t, answer, today) or answer


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


def kept_rule(tracker: Tracker, t, key: str) -> str | None:
    """The rule a correction keeps leading ("sorry, it was my cat" after the duty to report a bite), when the
    topic ``key`` has it (dialogue.read)."""
    name = tracker.latest_message.get("kept_rule")
    return name if name and has_rule(t, key, name) else None


#: a defined term answers a question that asks whether something counts as it when it is at least this close in
#: meaning (cosine of the question and the term's words, definition and example questions; dev sets, #21)
TERM_FLOOR = 0.6
#: ... and, asked without such words, when it is this close and closer than any rule
TERM_ALONE = 0.8


def defined_term_asked(t, text: str) -> str | None:
    """The defined term a question asks about by meaning ("does a 10 week old puppy count as a dog?", "is a
    warden a law enforcement officer?"), or None (meaning ranking only, #21)."""
    if not rules.by_meaning() or not t.definitions or not text:
        return None
    from . import meaning
    term, sim = meaning.best_term(t, text)
    if term is None:
        return None
    if parsing.asks_whether_it_counts(text) and sim >= TERM_FLOOR:
        return term
    if sim >= TERM_ALONE:
        rk = rules.ranker(t)
        best_rule = max(rk.combined(text)[0], default=0.0)
        if sim > best_rule:
            return term
    return None


#: an unsure intent is answered by the rule the question means when that rule scores at least this (meaning plus
#: words, knowledge.rules) and this much more than the best rule of any other topic (dev sets, #21)
MEANT_FLOOR = 0.62
MEANT_MARGIN = 0.06


def topic_meant(t, text: str) -> str | None:
    """The intent of the topic whose rule a question clearly means, across all the town's topics; None when no
    rule stands out (the resident is then asked to choose)."""
    if not rules.by_meaning() or not text:
        return None
    rk = rules.ranker(t)
    scores, _ = rk.combined(text)
    if not scores:
        return None
    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)
    best = order[0]
    topic = rk.entries[best][0]
    other = next((scores[i] for i in order[1:] if rk.entries[i][0] != topic), 0.0)
    if scores[best] >= MEANT_FLOOR and scores[best] - other >= MEANT_MARGIN:
        return f"ask_{topic}"
    return None


def clause_asked(t, topics: tuple[str, ...], words: str, near: bool = True):
    """The rule of ``topics`` a question asks about when it is not one the handler computes (its lead states a
    period from the town's parameters, "{quarantine....}"): "does the vet have to see him?" is the examinations
    rule; None when a period rule ranks first, or no rule is clearly asked (meaning ranking only, #21). A period
    rule ranked first gives way to a close rule of another kind when the question does not ask how long and
    (``near``) changes no fact ("do i have to report it?" after the dated periods)."""
    if not rules.by_meaning():
        return None
    best = None
    for key in topics:
        if has_rule(t, key, "answer") or (key in t.topics and t.topics[key].rules):
            pick = rules.pick(t, key, words, cross=False)
            if pick is not None and (best is None or pick.score > best.score):
                best = pick
    if best is None:
        return None
    if "{quarantine." in (best.rule.lead or ""):
        return None if parsing.asks_how_long(words) or not near else _close_clause(t, topics, words, best.score)
    return best


#: a rule that states no period answers a question that does not ask how long when it ranks this close to the
#: period rule that ranked first ("do i have to report it?" after a bite: the reporting rule; dev sets, #20)
CLAUSE_NEAR = 0.1
#: ... and shares a telling word with it (BM25 at least this: "report", "call"; not "dog" or "other"): "can i
#: walk him?" is near the neighbourhood-quarantine exemption by meaning alone, and must not read as permission
CLAUSE_WORDS = 2.0


def _close_clause(t, topics: tuple[str, ...], words: str, best: float):
    """The best-ranked rule of ``topics`` that states no period, when within CLAUSE_NEAR of ``best`` and sharing a
    telling word with the question (CLAUSE_WORDS); else None."""
    rk = rules.ranker(t)
    scores, _ = rk.combined(words)
    bm25 = rk.scores(words)
    near = [(s, k, n, r) for (k, n, r), s, b in zip(rk.entries, scores, bm25)
            if k in topics and r.lead and "{quarantine." not in r.lead and s >= best - CLAUSE_NEAR
            and b >= CLAUSE_WORDS]
    if not near:
        return None
    s, k, n, r = max(near, key=lambda x: x[0])
    return rules.Pick(k, n, r, score=s)


def asked_words(tracker: Tracker) -> str:
    """The words that choose which rule of the topic leads: a follow-up's own when they say what is asked
    ("what's the fee?" after an impound answer), else the whole question (a follow-up's with the last one's:
    "what can I do?" asks about what was said before)."""
    aspect = tracker.latest_message.get("aspect")
    if aspect and len(rules.words(aspect)) >= 2 and not tracker.latest_message.get("corrects"):
        return aspect  # a correction's other words ("oops, it's more like 30 feet") ask nothing of their own
    return common.text_of(tracker)


def licensable_day_said(tracker: Tracker, t, now):
    """The day the dog reaches the town's licensable age, said as that day ("he turned 5 months on May 1") or as
    its birth day ("born Jan 10", plus dog_license.licensable_age_months); None when neither is said."""
    text, whens = common.text_of(tracker), common.entities(tracker, "when")
    said, born = parsing.five_months_when(whens, text), parsing.birth_when(whens, text)
    if said is None and born is None:
        return None
    try:
        day = when.parse_day(str((said or born)["value"]), t, now=now,
                             prefer="past" if born or parsing.five_months_past(text) else "future")
    except NeedsClarification:
        return None  # a day not understood: the rule, not a question back about a question
    return day if said is not None else handlers.licensable_on(t, day)


def acquired_day_said(tracker: Tracker, t, now):
    """The day the dog came ("got a puppy april 10"), not its birth day; None when not said or not understood."""
    text, whens = common.text_of(tracker), common.entities(tracker, "when")
    born = parsing.birth_when(whens, text)
    got = parsing.when_after([e for e in whens if e is not born], text, parsing.ACQUIRED_CUE, parsing.BUY_CUE,
                             asked=False)
    window = parsing.cue_window(text, got["start"]) if got is not None else ""
    cue = list(parsing.ACQUIRED_CUE.finditer(window))
    if cue and conversation.config()["shot_words"].search(window[cue[-1].end():]):
        return None  # "got her shots yesterday": the day of a shot, not the day the dog came
    try:
        return when.parse_day(str(got["value"]), t, now=now, prefer="past") if got is not None else None
    except NeedsClarification:
        return None


def license_rule_for_age(t, text: str, today) -> str | None:
    """The license rule a dog's age said picks (7.02-1(a), 58-533): the main rule ("answer") for a dog of the
    licensable age or older, the rule for a puppy under it; None when no age is said or the town has no such rule."""
    months = parsing.age_months(text)
    rules_ = t.topics["license_required"].rules
    if months is None or "answer" not in rules_:
        return None
    if months >= t.value("dog_license.licensable_age_months", today):
        return "answer"
    return "puppy" if "puppy" in rules_ else None


def crosses(tracker: Tracker) -> bool:
    """May another topic's rule answer? Not for a follow-up: it asks on the last answer's topic ("we have 3 dogs
    though" after the late fee is the late fee for them, not the limit on dogs)."""
    return not tracker.latest_message.get("aspect")


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


def late_fee_on_dates_said(tracker: Tracker, t, now) -> Answer | None:
    """"We adopted her on June 1 and license her today: is there a late fee?": the license computed on the days
    said (the day the dog came, the day of buying, else today), which says whether the late fee applies (7.02-4,
    58-533(c)(4)). None when no day the dog came is said."""
    text = common.text_of(tracker)
    whens = common.entities(tracker, "when")
    named = [animal_kind(str(e.get("value"))) for e in common.entities(tracker, "animal")]
    ageless = re.sub(r"\b\w+[- ](?:years?|months?|weeks?)[- ]old\b", "", text, flags=re.I)  # "a 2 year old dog"
    if (named and "dog" not in named) or parsing.says_long_ago(ageless) or re.search(r"\bborn\b", text, re.I):
        return None  # cats; a dog kept for years (the April 1 rule); a birthday (the licensable age): the rule
    got = parsing.when_after(whens, text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked=False)
    if got is None:
        return late_on_day_of_buying(tracker, t, now, whens)
    bought = parsing.when_after(whens, text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked=False)
    days = [e for e in whens if not parsing.is_time_only(text[e["start"]:e["end"]])
            and not re.fullmatch(r"(?i)\s*(right )?(now|today)\s*", text[e["start"]:e["end"]])]
    if bought is None and len(days) > 1:
        return None  # another day said that is not clearly the day of buying: the rule, not today's sum
    try:
        came = when.parse_day(str(got["value"]), t, now=now, prefer="past")
        on = now.date()
        if bought is not None:  # read back, unless said as still to come ("will license her July 10")
            on = when.parse_day(str(bought["value"]), t, now=now, prefer="past")
            if parsing.buys_later(text, bought["start"]):
                on = when.parse_day(str(bought["value"]), t, now=now, prefer="future")
    except NeedsClarification:
        return None  # a day not understood: the rule, not a question back about a question
    dogs = parsing.animals_counted(tracker.latest_message.get("entities", [])).get("dog")
    if dogs is None and re.search(r"\b(dogs|puppies|pups)\b", text, re.I):
        return None  # "our dogs", not how many: the rule, not one dog's sum
    dogs = dogs or 1
    said = parsing.neutered_said(text) or (None if parsing.neutered_mixed(text) else {
        "neutered": "all", "unneutered": "none"}.get(str(common.entity(tracker, "neutered"))))
    if said not in (None, "all", "none") and int(said) > dogs:
        return None  # more spayed or neutered dogs than dogs: the rule, not a sum on a count misread
    neutered = dogs if said == "all" else 0 if said == "none" else int(said) if said else None
    kind = "moved_in" if parsing.acquired_kind(text) == "moved" else "acquired"
    answer = handlers.license_cost(t, on=on, dogs=dogs, neutered=neutered, **{kind: came})
    if parsing.month_only(str(got["value"])):  # "got the dog in June": June 1 and June 30 may not agree
        last = came.replace(day=monthrange(came.year, came.month)[1])
        other = handlers.license_cost(t, on=on, dogs=dogs, neutered=neutered, **{kind: last}) if last <= on else None
        if other is None or (other.value or {}).get("late") != (answer.value or {}).get("late"):
            return None  # which day of the month decides the late fee: the rule, not a verdict on the 1st
    if not parsing.asks_total(text):  # "is there a late fee?", "what's the deadline?": the late fee's own answer
        return handlers.license_deadline(t, on=on, **{kind: came}) if parsing.asks_deadline(text) else \
            handlers.late_fee_due(t, on=on, **{kind: came})
    return answer


def late_on_day_of_buying(tracker: Tracker, t, now, whens: list) -> Answer | None:
    """"Is there a late fee if I buy the license on April 1?": the license computed on that day for a dog kept
    since before the license year (the answer says so), which says whether the deadline has passed (Dunkirk
    "prior to April 1", Mequon "after April 1"). None unless exactly one whole day is said as the day of buying."""
    text = common.text_of(tracker)
    days = [e for e in whens if not parsing.is_time_only(text[e["start"]:e["end"]])]
    if len(days) != 1 or parsing.month_only(str(days[0]["value"])) or (
            parsing.asks_total(text) and re.search(r"\b(?:dogs|puppies|pups)\b", text, re.I)):
        return None  # the verdict is the same for any number of dogs; a total for several is the license form's
    bought = parsing.when_after(days, text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked=True)
    if bought is None:
        return None
    try:
        if parsing.cue_before(text, bought["start"], parsing.ACQUIRED_CUE) or re.search(
                r"\b(?:bought|adopted|got) (?:a|an|our|my|the|this)\b(?![^.?!]*\blicen[cs])", text, re.I):
            return None  # "we bought a 2 year old dog on June 10": the day the dog came, not the day of buying
        ahead = parsing.buys_later(text, bought["start"]) or re.search(r"\b(?:if|will|would)\b|\bwhen (?:i|we|you)\b",
                                                                       text, re.I) or not \
            re.search(r"\b(?:bought|paid|got|licensed|registered|purchased|did|was|were)\b", text, re.I)  # "is april
        # 1 too late to license?" asks of the coming April 1; "I paid on April 1" of the one past
        on = when.parse_day(str(bought["value"]), t, now=now, prefer="future" if ahead else "past")
        return handlers.license_cost(t, on=on, dogs=1) if parsing.asks_total(text) else \
            handlers.late_fee_due(t, on=on)
    except (NeedsClarification, TypeError, ValueError):
        return None


#: intents under which "we just moved here, when do we need a license by?" is asked
LICENSE_INTENTS = {"ask_license_required", "ask_late_fee", "ask_license_cost", "ask_license_tags"}


def time_phrase(tracker: Tracker) -> str | None:
    """The message's time phrase with its words ("9 tonight", "tomorrow at 6 in the morning"), for when.resolve;
    "after dark" or "before sunrise" said anywhere in the message goes with it ("can I burn after dark tomorrow?":
    tomorrow after dark, never the whole of tomorrow or now)."""
    text = common.text_of(tracker)
    said = parsing.time_phrase(text, common.entities(tracker, "when"))
    dark = daypart.dark_phrase(text)  # "once it’s dark", "b4 sunrise", "after the sun goes down"
    if dark and dark not in daypart.normalise_sun(said or ""):
        return f"{said} {dark}" if said else dark
    if (said is None and re.search(r"\b(?:at|in the) (?:night|nite)\b", text, re.I)) or \
            re.fullmatch(r"\s*(?:at|in the) (?:night|nite)\s*", said or "", re.I):
        return "after dark"  # "can I burn at night?": after sunset, never now nor "the evening until sunset"
    return said


def material_said(tracker: Tracker) -> str | None:
    """What the resident wants to burn, in their words: the town's material names found in the message
    ("railroad ties ... burn them" -> "railroad ties"), else the words after "burn" ("a pile of old horse
    manure"); None when it names none ("can I burn now?"). Never the whole message: the answer repeats it."""
    text = common.text_of(tracker)
    named_entity = [e for e in common.entities(tracker, "material")
                    if not parsing.is_day_word(text[e.get("start", 0):e.get("end", 0)])]  # "sat at 3": a day
    untimed = text
    for e in sorted(common.entities(tracker, "when"), key=lambda e: -e.get("start", 0)):
        untimed = untimed[:e["start"]] + ", " + untimed[e["end"]:]  # "this weekend" names no material
    if not (named_entity or parsing.names_a_material(untimed)):
        return None
    named = parsing.material_names(text, [g.names for kind in (common.town().materials or {}).values() for g in kind])
    if named:
        return named
    spans = sorted((e["start"], e["end"]) for e in common.entities(tracker, "when"))
    for start, end in reversed(spans):
        text = text[:start] + " " + text[end:]
    return parsing.burn_object(text) or "that material"  # "railroad ties ..., ok to burn them?": not on a list


def pick_for(pending: dict, text: str) -> str | None:
    """The original question's time phrase with the resident's pick of reading added ("at 9" + "at night");
    None when the reply picks neither ("yes")."""
    words = (text or "").strip()
    if re.search(r"\d", words):  # "9pm": the reading, not a second time
        words = "pm" if re.search(r"p\.?\s*m\b", words, re.I) else "am" if re.search(r"a\.?\s*m\b", words, re.I) \
            else words
    if not re.search(r"\b(am|pm|a\.m|p\.m|morning|afternoon|evening|night|tonight|nite|dark|day|daytime)\b", words,
                     re.I):
        return None
    return f"{pending.get('phrase', '')} {words}"


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


class ActionAnswer(Action):
    """Answers any ask_<topic> intent with the topic's handler."""

    def name(self) -> Text:
        return "action_answer"

    async def run(self, dispatcher: CollectingDispatcher, tracker: Tracker,
                  domain: Dict[Text, Any]) -> List[Dict[Text, Any]]:
        intent = common.intent_of(tracker)
        if not intent.startswith("ask_"):
            intent = "ask_" + intent if ("ask_" + intent)[4:] in TOPICS else intent
        picked = await answer_pick(dispatcher, tracker)
        if picked is not None:
            return picked
        if intent == "ask_section" and not common.entity(tracker, "section") and \
                parsing.asks_for_the_source(common.text_of(tracker)) and tracker.get_slot("last_answer"):
            return await ActionWhy().run(dispatcher, tracker, domain)  # "which section is that?"
        return await answer_turn(dialogue.read(tracker, intent), dispatcher, domain)

    @staticmethod
    def answer(intent: str, dispatcher: CollectingDispatcher, tracker: Tracker) -> List[Dict[Text, Any]]:
        """Send the answer to ``intent``'s question (the one NLU gave, or a guess the words confirm)."""
        t = common.town()
        try:
            if intent == "notify_burn":
                answer = handlers.topic(t, "burn_notification", on=common.now(t).date())
            else:
                answer = answer_for(intent, tracker, t, common.now(t))
        except when.AmbiguousTime as exc:
            common.clarify(dispatcher, tracker, exc)
            return [SlotSet("pending_when", {"intent": intent, "text": common.text_of(tracker),
                                             "phrase": time_phrase(tracker) or common.text_of(tracker),
                                             "material": material_said(tracker)})]
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc)
            return clear_pending(tracker)
        if undefined_of_the_last_answer(answer, tracker) and rule_again(dispatcher, tracker):
            return clear_pending(tracker)  # "does that count as leashed?": the rule just given, not "not defined"
        return common.send(dispatcher, tracker, forbidden_asked(answer, common.text_of(tracker))) + \
            clear_pending(tracker)


def undefined_of_the_last_answer(answer: Answer, tracker: Tracker) -> bool:
    """A word the code does not define, asked of what was just answered ("does that count as leashed?" after the
    leash's length): the last answer's rule answers it when its lead or law's words use the word
    (actions/conversation.yml `points_back`)."""
    last = tracker.get_slot(dialogue.LAST_ANSWER)
    if answer.topic != "definitions" or answer.data.get("defined") is not False or not isinstance(last, dict) or \
            not conversation.config()["points_back"].search(common.text_of(tracker)):
        return False
    said = " ".join([str(last.get("lead") or "")] + [str(s.get("quote") or "") for s in last.get("sources") or []])
    return bool(set(rules.words(str(answer.data.get("asked") or ""))) & set(rules.words(said)))


def forbidden_asked(answer: Answer, text: str) -> Answer:
    """"Is it illegal to burn tires?" answered by a verdict that it is not allowed ("No: rubber products may not be
    burned ...") leads "Yes: ...", and by one that it is ("Yes: at 10:00 a.m. Saturday, until sunset ...") "No, it is
    allowed: ...". Only verdicts are turned (burning then, a distance against its bound: actions/conversation.yml
    `verdict_topics`), never a rule's words, and never a question that asks more ("is it illegal not to call
    first?")."""
    c = conversation.config()
    lead = render.lead(answer)
    verdict = answer.topic in c["verdict_topics"] or "limit" in answer.data
    if not lead or not verdict or not c["forbidden_asked"].search(text or "") or \
            c["forbidden_other_conditions"].search(text or ""):
        return answer
    value = answer.value
    allowed = value if isinstance(value, bool) else value.get("allowed") if isinstance(value, dict) else None
    permits = c["permitting_leads"].match(lead)
    if allowed is False and lead.startswith("No: "):
        answer.lead = f"Yes: {lead[4:5].lower()}{lead[5:]}"
    elif allowed is True and permits:
        answer.lead = f"No, it is allowed: {lead[permits.end():]}"
    return answer


async def answer_turn(turn: dialogue.Turn, dispatcher, domain) -> List[Dict[Text, Any]]:
    """Answer the question a turn asks (a follow-up of a license computed from the form's answers is computed
    again with the new values) and remember it."""
    if turn.rule_again and rule_again(dispatcher, turn.tracker):
        return turn.events  # "is that against the rules?" after an answer: its rule and the law's words
    if turn.follow_up and turn.last and "inputs" in turn.last:
        from .license_form import answer_again
        return turn.events + answer_again(dispatcher, turn.tracker, turn.last)
    if not turn.intent.startswith("ask_") and turn.intent != "notify_burn":
        return turn.events + list(await ActionClarify().run(dispatcher, turn.tracker, domain))
    if burning_not_covered(turn.tracker):
        # "can I burn the old coop boards?" where the code has no burning rules: that silence, never another
        # topic's rule by its other words ("backyard" is no beehive question)
        turn.intent = "ask_burning_rules"
        turn.tracker = dialogue.with_message(turn.tracker, dialogue.said_of(turn.tracker), turn.intent,
                                             common.text_of(turn.tracker))
    supported = supported_intent(turn.intent, common.text_of(turn.tracker), turn.tracker)
    if supported is None:  # its words name other topics only: asked which, never answered on the wrong topic
        turn.tracker.latest_message["unsupported"] = True  # ActionClarify then offers choices, routes no more
        return turn.events + list(await ActionClarify().run(dispatcher, turn.tracker, domain))
    if supported != turn.intent and not conversation.topics_named(common.text_of(turn.tracker)):
        turn.tracker = with_earlier_facts(turn.tracker, supported)  # asked of what was said before
    turn.intent = supported
    events = ActionAnswer.answer(turn.intent, dispatcher, turn.tracker)
    return turn.events + events + dialogue.asked(turn, events)


def with_earlier_facts(tracker: Tracker, intent: str) -> Tracker:
    """The question read on the topic the facts said earlier name ("were throwing a bonfire on saturday" ...
    "how late can it go?"): those facts joined before it, and its own words choosing the rule of that topic only."""
    said = dialogue.said_of(tracker)
    earlier = [conversation.Said(str(f.get("text", "")), f.get("entities") or []) for f in dialogue.facts(tracker)
               if intent in conversation.topics_named(str(f.get("text", "")))]
    return dialogue.with_message(tracker, conversation.joined(*earlier, said), intent, said.text)


_COMMAND_WORD = re.compile(r"\s*(help|menu|start|hi|hello|hey|thanks?|thank you|bye|ok|okay|yes|yep|no|nope|"
                           r"stop|exit|cancel)\W*", re.I)


#: intents whose computed answer would mislead on a message about something else ("Yes, you may burn" to a
#: question about dogs, a license total for an impound fee): their words must name their topic
SUPPORT_NEEDED = {"ask_can_burn", "ask_burning_hours", "ask_burning_rules", "ask_prohibited_materials",
                  "ask_burn_setbacks", "ask_no_burning_order", "ask_burn_notification", "ask_license_cost",
                  "ask_late_fee", "ask_multiple_dog_license"}


def only_a_time(tracker: Tracker) -> bool:
    """The message states a time and nothing else the code is about ("what about tomorrow morning at 7?"), in a
    town whose code has burning hours: the only topic a bare time is asked of."""
    said = dialogue.said_of(tracker)
    kinds = {k for c in conversation.clauses(said) for k in conversation.kinds_of(c)}
    return bool(kinds) and kinds <= {"time", "day"} and not conversation.names_a_topic(said.text) and \
        common.town().topics["burning_hours"].covered


def supported_intent(intent: str, text: str, tracker: Tracker) -> str | None:
    """The intent a message's own words support (#21: a topic must be supported by the message): ``intent``
    when it is not one of SUPPORT_NEEDED, or its words name no topic or name its own; else the first of the
    topics they name in the classifier's ranking (a burning reading of a question about dogs becomes the dog
    question); None when none of them was ranked (the resident is asked which). A follow-up carries the last
    question's words."""
    named = conversation.topics_named(text)
    if not named and intent in (tracker.latest_message.get("form_subject") or ()) and \
            not common.entities(tracker, "animal"):
        return intent  # mid burn notice, "how far from the house does it have to be?" is asked of the burn
    if intent in BURNING_INTENTS and not named & BURNING_INTENTS and not common.entity(tracker, "material"):
        if only_a_time(tracker):
            return intent  # "what about tomorrow morning at 7?": a time is asked of burning only
        named = named or frozenset({"nlu_fallback"})  # no word of burning at all: never a burning answer
    ranked = [r.get("name") for r in tracker.latest_message.get("intent_ranking") or []]
    if intent in SUPPORT_NEEDED and not named and not tracker.latest_message.get("entities"):
        # "how late can it go?" after "a bonfire on saturday": that topic ("we have 3 dogs, how much?" keeps its own)
        earlier = conversation.topics_named(" ".join(str(f.get("text", "")) for f in dialogue.facts(tracker)))
        if earlier and intent not in earlier:
            return next((name for name in ranked if name in earlier), None)
    if intent not in SUPPORT_NEEDED or not named or intent in named:
        return intent
    return next((name for name in ranked if name in named), None)


BURNING_INTENTS = {"ask_burning_rules", "ask_burning_hours", "ask_can_burn", "ask_burn_notification", "notify_burn",
                   "ask_prohibited_materials", "ask_burn_setbacks", "ask_no_burning_order", "ask_burning_penalties"}


def burning_not_covered(tracker: Tracker) -> bool:
    """A message about burning in a town whose code has no burning rules (Mequon): its answer says so."""
    t = common.town()
    return not t.topics["burning_rules"].covered and conversation.about_burning(common.text_of(tracker))


async def continued(dispatcher, tracker: Tracker, domain) -> list | None:
    """A message the classifier was unsure of, or read as help, out of scope, a statement or a denial, that goes
    on from the last answer ("how late can it go?", "and if it bit someone", "sorry, 15", "is that right?"):
    answered as a follow-up (or, when unsure, as the last topic it names). None when it does not."""
    last = dialogue.last_question(tracker)
    text = common.text_of(tracker)
    if last is None or not text or _COMMAND_WORD.fullmatch(text):
        return None
    intent = common.intent_of(tracker)
    said = dialogue.said_of(tracker)
    before = conversation.Said.of(last) or conversation.Said("")
    confidence = float((tracker.latest_message.get("intent") or {}).get("confidence") or 0.0)
    if conversation.is_follow_up(said, intent, before, confidence, last["intent"]):
        return await answer_turn(dialogue.read(tracker, "followup"), dispatcher, domain)
    ranked = [r.get("name") for r in tracker.latest_message.get("intent_ranking") or []
              if r.get("name") not in ("nlu_fallback", None)]
    answered = tracker.get_slot(dialogue.LAST_ANSWER)
    topic = f"ask_{answered.get('topic')}" if isinstance(answered, dict) else None
    if intent == "nlu_fallback" and ranked and ranked[0] in (last["intent"], topic):
        return await answer_turn(dialogue.read(tracker, ranked[0]), dispatcher, domain)  # "how long must he stay confined"
    return None


def clear_pending(tracker: Tracker) -> list:
    """Forget a time asked back ("9 in the morning or at night?") once another answer is given."""
    return [SlotSet("pending_when", None)] if tracker.get_slot("pending_when") is not None else []


async def answer_pick(dispatcher, tracker: Tracker) -> list | None:
    """The reply to "Do you mean 9 in the morning or 9 at night?": the earlier burning question answered for the
    reading picked. None when no time was asked back, or the reply picks no reading (it is then a new message)."""
    pending = tracker.get_slot("pending_when")
    if not isinstance(pending, dict) or common.entities(tracker, "material"):
        return None
    phrase = pick_for(pending, common.text_of(tracker))
    if phrase is None or len(common.text_of(tracker).split()) > 6:
        return None
    t = common.town()
    now = common.now(t)
    try:
        at = when.resolve(phrase, t, now=now)
    except NeedsClarification as exc:
        common.clarify(dispatcher, tracker, exc)
        return []
    answer = handlers.burning(t, at=at, orders=common.burning_orders(t), material=pending.get("material"))
    return common.send(dispatcher, tracker, answer) + [SlotSet("pending_when", None)]


class ActionMore(Action):
    """"more": on the web, the last answer's details (its steps, sources and notes, which the chat page also
    shows behind a disclosure); by SMS the webhook keeps the pages of the last answer and sends the next one
    itself (web/sms.py), so reaching here means there is nothing more to send."""

    def name(self) -> Text:
        return "action_more"

    async def run(self, dispatcher, tracker, domain):
        last = tracker.get_slot(dialogue.LAST_ANSWER)
        details = last.get("details") if isinstance(last, dict) else None
        if details and common.channel(tracker) == "web":
            common.send_text(dispatcher, tracker, details)
            return [SlotSet(dialogue.LAST_ANSWER, {**last, "details": ""})]
        common.send_text(dispatcher, tracker, "That's all I have on that. Ask me another question any time.")
        return []


def rule_again(dispatcher, tracker: Tracker) -> bool:
    """The last answer's lead and the law's words it comes from, for a follow-up that asks about the rule just
    given ("is that against the rules?", "any rules on that?"); False when the last answer cited nothing."""
    last = tracker.get_slot(dialogue.LAST_ANSWER)
    if not isinstance(last, dict) or not last.get("lead"):
        return False
    quoted = law_quoted(last, whole=common.channel(tracker) == "web")
    if not quoted:
        return False
    common.send_text(dispatcher, tracker, "\n".join([verdict_turned(last, common.text_of(tracker)), quoted[0]]
                                                    + quoted[1:2]))
    return True


def verdict_turned(last: dict, text: str) -> str:
    """The last answer's lead for "is that illegal?" asked of it: a verdict's "Yes: at 10:00 a.m. ..." leads "No, it
    is allowed: ...", its "No: that is after sunset ..." "Yes: ..." (forbidden_asked); any other lead as it was."""
    lead = str(last.get("lead") or "")
    verdict = True if lead.startswith("Yes") else False if lead.startswith("No: ") else None
    said = Answer(topic=str(last.get("topic") or ""), result=lead, lead=lead, value=verdict)
    return forbidden_asked(said, text).lead


def law_quoted(last: dict, whole: bool = False) -> list[str]:
    """The last answer's sections with the law's words ("From 7.02-9: “...”"), at most three; ``whole``: the
    words in full (on the web), else cut to one SMS page each."""
    sources = [s for s in (last.get("sources") or []) if s.get("label")]
    lead = last.get("lead") or ""
    cited = re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\.?\s*$", lead)  # "(7.10(1))." at the lead's end
    if cited:  # the section the lead cites first: "why?" is asked of the lead
        ref = cited[0].split(";")[0].split(" (")[0].strip()
        sources.sort(key=lambda s: not s["label"].replace(" (section number derived)", "").endswith(ref))
    quoted = [f"{s['label']}: \u201c{' '.join(s['quote'].split()) if whole else _quote(s['quote'])}\u201d"
              for s in sources[:3] if s.get("quote")]
    if quoted:
        quoted[0] = "From " + quoted[0]
    return quoted


class ActionWhy(Action):
    """"Why?", "which section is that?", "source?": the sections of the last answer and the law's words."""

    def name(self) -> Text:
        return "action_why"

    async def run(self, dispatcher, tracker, domain):
        last = tracker.get_slot(dialogue.LAST_ANSWER)
        sources = [s for s in (last.get("sources") or []) if s.get("label")] if isinstance(last, dict) else []
        if not sources:
            t = common.town()
            common.send_text(dispatcher, tracker, "Ask me a question about the "
                             f"{t.code_name} and I'll show the section the answer comes from.")
            return []
        quoted = law_quoted(last, whole=common.channel(tracker) == "web") or [
            "That comes from " + _and(list(dict.fromkeys(s["label"] for s in sources))[:3]) + "."]
        common.send_text(dispatcher, tracker, "\n".join(quoted))
        return []


WHY_QUOTE = 240  # characters of the law's words in one SMS page with the section's label


def _quote(words: str) -> str:
    """The law's words as quoted, or their first words up to WHY_QUOTE characters ending on a word, with an
    ellipsis marking the cut (the rest is in the section, which the chat links)."""
    words = " ".join(words.split())
    if len(words) <= WHY_QUOTE:
        return words
    cut = words[:WHY_QUOTE].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " \u2026"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class ActionNote(Action):
    """A message that states facts without a question ("we have 4 dogs", "it was March 3", "actually she's
    spayed"): when the last answer uses such a fact it is answered again with it; else the facts are kept for
    the next answer and acknowledged. With no fact, as before: a pick of a time asked back, or the help."""

    def name(self) -> Text:
        return "action_note"

    async def run(self, dispatcher, tracker, domain):
        picked = await answer_pick(dispatcher, tracker)  # "at night", after "9 in the morning or at night?"
        if picked is not None:
            return picked
        said = dialogue.said_of(tracker)
        new = facts_in(said)
        last = dialogue.last_question(tracker)
        uses = conversation.config()["uses"]
        before = conversation.Said.of(last) if last else None
        replaces = before is not None and {e["entity"] for e in said.entities} & {e["entity"] for e in before.entities}
        if new and last and (replaces or any(last["intent"] in uses.get(k, ()) for f in new for k in f["kinds"])):
            return await answer_turn(dialogue.read(tracker, "followup"), dispatcher, domain)
        going_on = await continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        asked_back = hour_of_a_planned_burn(dispatcher, tracker, new)
        if asked_back is not None:
            return dialogue.remember_facts(tracker) + asked_back
        # a claim someone else made is checked; a question read as a statement is answered
        claim = (claim_topic(tracker) if new else None) or question_topic(tracker)
        if claim is not None:  # "my neighbor says you can have 6 dogs on a farm": checked, not only noted
            return await answer_turn(dialogue.read(tracker, claim), dispatcher, domain)
        if new:
            common.send_text(dispatcher, tracker, noted(new) + " What would you like to know?")
            return dialogue.remember_facts(tracker) + dialogue.guessed(tracker)
        if common.intent_of(tracker) == "deny":
            common.send_text(dispatcher, tracker, "OK. Anything else about licenses, animals or burning?")
            return []
        return await ActionHelp().run(dispatcher, tracker, domain)


#: a reported claim is answered on the topic the classifier ranked first among the questions when at least this
#: sure of it (and the meaning of the town's rules does not name another): below, it is only noted
CLAIM_FLOOR = 0.2
#: ... or a question ranked at least this share of the first one that uses the facts the claim states
CLAIM_CLOSE = 0.5


def claim_topic(tracker: Tracker) -> str | None:
    """The question a message reporting what someone else said asks ("the deputy told me I can burn 30 ft from
    the garage": the setbacks), or None when it reports nothing or its topic is unclear."""
    text = common.text_of(tracker)
    if not conversation.reports_a_claim(text):
        return None
    # a claim asks whether a rule is so, never whether one may burn at this moment: "my neighbor says you can burn
    # brush during a burn ban" is the no-burning order's rule, not "Yes, you may burn brush now"
    ranked = [r for r in tracker.latest_message.get("intent_ranking") or [] if str(r.get("name")).startswith("ask_")
              and r.get("name") not in ("ask_section", "ask_can_burn")]
    if not ranked:
        return None
    top = float(ranked[0].get("confidence") or 0)
    uses = conversation.config()["uses"]
    kinds = {k for f in facts_in(dialogue.said_of(tracker)) for k in f["kinds"]} - {"animal"}
    for r in ranked:  # "6 dogs": the close-ranked question that uses a count (the limit), not any farm rule
        if float(r.get("confidence") or 0) >= max(CLAIM_FLOOR / 4, top * CLAIM_CLOSE) and \
                any(r["name"] in uses.get(k, ()) for k in kinds):
            return r["name"]
    meant = topic_meant(common.town(), text)
    if meant is not None and meant != "ask_can_burn":
        return meant
    return ranked[0]["name"] if top >= CLAIM_FLOOR else None


def question_topic(tracker: Tracker) -> str | None:
    """The question a message read as a statement of facts still asks ("how long do i have to get my new dog
    vaccinated? got her yesterday"): the first question the classifier ranked whose topic the words name; None
    when the message asks nothing or names no ranked topic (then it is only noted)."""
    text = common.text_of(tracker)
    if not common.looks_like_question(text):
        return None
    # however unsure the classifier is of it (it read a statement): the message's own words name the topic; never
    # whether one may burn now, and burning only when the words can only be about burning ("trash", "leaves" and
    # "fire trucks" are not: "we put the dog poop in the trash, is that ok?")
    ranked = [r["name"] for r in tracker.latest_message.get("intent_ranking") or []
              if str(r.get("name")).startswith("ask_") and r.get("name") not in ("ask_section", "ask_can_burn")]
    return next((name for name in ranked if conversation.supports(name, text) and (
        name not in BURNING_INTENTS or conversation.about_burning(text))), None)


def hour_of_a_planned_burn(dispatcher, tracker: Tracker, new: list[dict]) -> list | None:
    """"probably around 9" after "we're gonna burn the old hay bales tomorrow": the hour is asked back ("9 in the
    morning or 9 at night?", 7.11 allows only the daylight), and the pick answers whether that burn may go ahead.
    None unless a bare hour is said after a burn was."""
    whens = [e for f in new if "time" in f["kinds"] for e in f.get("entities") or [] if e["entity"] == "when"]
    said = " ".join(str(e.get("value", "")) for e in whens) if len(whens) == 1 else common.text_of(tracker)
    hour = parsing.bare_hour(said)  # "around 9", or a bare "9" (read as a count)
    earlier = dialogue.facts(tracker)
    if hour is None or not any(conversation.about_burning(str(f.get("text", ""))) for f in earlier):
        return None
    days = [str(e.get("value")) for f in earlier if "day" in f.get("kinds", ()) for e in f.get("entities") or []
            if e.get("entity") == "when"]
    materials = [str(e.get("value")) for f in earlier for e in f.get("entities") or [] if e.get("entity") == "material"]
    h, m = hour
    said = f"{h}:{m:02d}" if m else str(h)
    common.send_text(dispatcher, tracker, f"Do you mean {said} in the morning or {said} at night?")
    return [SlotSet("pending_when", {"intent": "ask_can_burn", "text": common.text_of(tracker),
                                     "phrase": " ".join(days[-1:] + [f"at {said}"]),
                                     "material": " and ".join(materials) or None})]


def _contact(t) -> str:
    return t.contact_line()


class ActionGreet(Action):
    def name(self) -> Text:
        return "action_greet"

    async def run(self, dispatcher, tracker, domain):
        picked = await answer_pick(dispatcher, tracker)  # "morning", after "9 in the morning or 9 at night?"
        if picked is not None:
            return picked
        t = common.town()
        common.send_text(dispatcher, tracker,
                         f"Hi! I answer questions about the {t.name}'s code: dog licenses, animal rules"
                         + (", open burning and burn notifications" if t.topics["burning_rules"].covered else "")
                         + ". Each answer cites the section it comes from. What would you like to know?")
        return []


class ActionHelp(Action):
    def name(self) -> Text:
        return "action_help"

    async def run(self, dispatcher, tracker, domain):
        picked = await answer_pick(dispatcher, tracker)  # "at night", read as inform or unsure
        if picked is not None:
            return picked
        going_on = await continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        guess = parsing.confirmed_guess(tracker.latest_message.get("intent_ranking") or [], common.text_of(tracker))
        if guess is not None:  # "we moved here on April 25, when do they need licenses?" just under the threshold
            return ActionAnswer.answer(guess, dispatcher, tracker)
        t = common.town()
        covered = [v.title for k, v in t.topics.items() if v.covered][:8]
        text = (f"I can answer from the {t.code_name}, with the section cited. For example: "
                + "; ".join(covered) + ". Ask in your own words, e.g. \"how much is a dog license?\""
                + (" or \"can I burn brush tomorrow at 3?\"" if t.topics["burning_rules"].covered else "")
                + f" For anything else: {_contact(t)}.")
        common.send_text(dispatcher, tracker, text)
        return []


class ActionHandoff(Action):
    def name(self) -> Text:
        return "action_handoff"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        common.send_text(dispatcher, tracker, f"To talk to a person, contact the {_contact(t)}.")
        return []


class ActionOutOfScope(Action):
    def name(self) -> Text:
        return "action_out_of_scope"

    async def run(self, dispatcher, tracker, domain):
        going_on = None if tracker.latest_message.get("unsupported") else await continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        if facts_in(dialogue.said_of(tracker)) and not common.looks_like_question(common.text_of(tracker)) and \
                not tracker.latest_message.get("unsupported"):
            return await ActionNote().run(dispatcher, tracker, domain)  # "i have a 7 foot boa"
        t = common.town()
        _record(t, tracker, [])
        common.send_text(dispatcher, tracker,
                         f"Sorry, I only know the {t.code_name}'s rules on dog licenses, animals"
                         + (" and open burning" if t.topics["burning_rules"].covered else "")
                         + f". For other questions please contact the {_contact(t)}.")
        return []


def _record(t, tracker: Tracker, suggestions: list[str]) -> None:
    try:
        common.store().record_unanswered(town=t.key, text=common.text_of(tracker) or "",
                                         channel=common.channel(tracker), conversation_id=tracker.sender_id,
                                         suggestions=suggestions)
    except Exception:  # never lose the reply because the records store is down; the log keeps it
        log.exception("could not record an unanswered question")


class ActionClarify(Action):
    """Low confidence: offer the 2-3 likeliest topics as buttons and the clerk's contact; record it."""

    def name(self) -> Text:
        return "action_clarify"

    @staticmethod
    async def routed(dispatcher, tracker, domain) -> list | None:
        """An unsure message answered all the same: a follow-up of the last answer, a guess its words confirm,
        burning where the code has none, the rule it clearly means, a bare time (burning), a statement of
        facts; None when the resident is to be asked which topic."""
        going_on = await continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        guess = parsing.confirmed_guess(tracker.latest_message.get("intent_ranking") or [], common.text_of(tracker))
        if guess is not None:  # "we moved here on April 25, when do they need licenses?" just under the threshold
            return ActionAnswer.answer(guess, dispatcher, tracker)
        if burning_not_covered(tracker):
            return await answer_turn(dialogue.read(tracker, "ask_burning_rules"), dispatcher, domain)
        meant = topic_meant(common.town(), common.text_of(tracker))
        if meant is not None:  # unsure of the intent, sure of the rule: "neighbor's dog chases every car ..."
            return await answer_turn(dialogue.read(tracker, meant), dispatcher, domain)
        if only_a_time(tracker):  # "what about tomorrow morning at 7?": times are asked of burning only
            return await answer_turn(dialogue.read(tracker, "ask_can_burn"), dispatcher, domain)
        if facts_in(dialogue.said_of(tracker)) and not common.looks_like_question(common.text_of(tracker)):
            return await ActionNote().run(dispatcher, tracker, domain)  # "were throwing a bonfire on saturday"
        return None

    async def run(self, dispatcher, tracker, domain):
        picked = await answer_pick(dispatcher, tracker)  # "at night", read as inform or unsure
        if picked is not None:
            return picked
        if not tracker.latest_message.get("unsupported"):  # not when answer_turn found no topic to answer on
            routed = await self.routed(dispatcher, tracker, domain)
            if routed is not None:
                return routed
        t = common.town()
        # Issue #12: search the town's topics for the question (actions/search_fallback.py) instead of
        # offering only the unsure classifier's guesses; plainly off-topic questions get the out-of-scope answer.
        found = search_fallback.suggest(t, common.text_of(tracker), tracker.latest_message.get("intent_ranking"))
        if found.out_of_scope:
            return await ActionOutOfScope().run(dispatcher, tracker, domain)
        titles = [s.label for s in found.suggestions]
        _record(t, tracker, titles)
        buttons = [{"title": s.label, "payload": f"/{s.intent}"} for s in found.suggestions]
        if buttons:
            text = ("I'm not sure I understood. Did you mean one of these? "
                    + " / ".join(titles) + f". If not, the {_contact(t)} can help.")
        else:
            text = f"I'm not sure I understood. Could you say it another way? Or ask the {_contact(t)}."
        common.send_text(dispatcher, tracker, text, buttons=buttons)
        # its facts are kept all the same ("pile is about 30 ft from the garage"): the next question uses them
        return dialogue.remember_facts(tracker)
