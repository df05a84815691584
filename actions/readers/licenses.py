"""Readers of license questions that compute on what is said: the deadline from the day a dog reaches the
licensable age or its owner moves in, the rule for the dog's age, the late fee on the days said, and several
dogs' licenses."""
from __future__ import annotations

import re
from calendar import monthrange

from rasa_sdk import Tracker

from knowledge import NeedsClarification, handlers, when
from knowledge.model import Answer

from .. import common, conversation, parsing
from .base import Asked, animal_kind


def deadline_at_age(q: Asked) -> Answer | None:
    """"he turned 5 months on May 1", "born Jan 10": licensed within the days after reaching the age."""
    if q.intent not in ("ask_license_required", "ask_late_fee") or parsing.about_cats(q.text) or not (
            q.intent == "ask_license_required" or parsing.asks_deadline(q.text)):
        return None
    reached = licensable_day_said(q.tracker, q.t, q.now)
    if reached is None:
        return None
    return handlers.license_deadline(q.t, on=q.today, licensable_age_on=reached,
                                     acquired=acquired_day_said(q.tracker, q.t, q.now))


def rule_for_age(q: Asked) -> Answer | None:
    """"our 4 yr old lab": the rule for a grown dog, never "not yet if under 5 months"."""
    if q.intent != "ask_license_required" or parsing.about_cats(q.text):
        return None
    aspect = license_rule_for_age(q.t, q.text, q.today)
    return handlers.topic(q.t, q.key, on=q.today, question=q.text, aspect=aspect) if aspect is not None else None


def deadline_after_moving_in(q: Asked) -> Answer | None:
    """"we just moved here, when do we need a license by?": the deadline from the day of the move, when it is
    said as a whole day and as past or to come; else the rule, not a guessed deadline."""
    if q.intent not in LICENSE_INTENTS or not parsing.asks_deadline_after_moving_in(q.text, (q.t.short_name,)):
        return None
    said = common.when_text(q.tracker)
    days = common.entities(q.tracker, "when")  # the move's day: the last said ("moved ... in 2020, moving ... July 10")
    tense = parsing.moving_still_to_come(q.text, days[-1]["start"] if days else None)
    # "moved here in March" (no day), "moving here June 20" (past or to come?): the rule, not a guessed deadline
    relative = parsing.counted_from_today(said)
    known = said and not parsing.month_only(said) and (tense is not None or relative)
    ahead = "future" if tense or (tense is None and relative) else "past"
    return handlers.license_deadline(q.t, on=q.today, moved_in=when.parse_day(said, q.t, now=q.now, prefer=ahead)
                                     if known else None)


def late_fee_on_days(q: Asked) -> Answer | None:
    """The late fee on the days said (late_fee_on_dates_said)."""
    return late_fee_on_dates_said(q.tracker, q.t, q.now) if q.intent == "ask_late_fee" else None


def several_dogs(q: Asked) -> Answer | None:
    """"how much for 3 dogs?" under the multiple-dog license: its cost for that many."""
    if q.intent != "ask_multiple_dog_license":
        return None
    dogs = parsing.animals_and_young(q.tracker.latest_message.get("entities", [])).get("dogs")
    return handlers.license_cost(q.t, on=q.today, dogs=dogs, option="multiple") if dogs and dogs > 1 else None


READERS = [deadline_at_age, rule_for_age, deadline_after_moving_in, late_fee_on_days, several_dogs]


#: intents under which "we just moved here, when do we need a license by?" is asked
LICENSE_INTENTS = {"ask_license_required", "ask_late_fee", "ask_license_cost", "ask_license_tags"}


def licensable_day_said(tracker: Tracker, t, now):
    """The day the dog reaches the town's licensable age, said as that day ("he turned 5 months on May 1") or as
    its birth day ("born Jan 10", plus dog_license.licensable_age_months); None when neither is said."""
    text, whens = common.text_of(tracker), common.entities(tracker, "when")
    months = handlers.licensable_age_months(t, now.date())
    said, born = parsing.licensable_age_when(whens, text, months), parsing.birth_when(whens, text)
    if said is None and born is None:
        return None
    try:
        day = when.parse_day(str((said or born)["value"]), t, now=now,
                             prefer="past" if born or parsing.licensable_age_past(text, months) else "future")
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
