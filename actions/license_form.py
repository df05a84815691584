"""The license form: what a dog license costs, asking only for what the resident has not said (7.02); the
answer computed from its slots is license_answer.py's."""
from __future__ import annotations

from datetime import date
from typing import Any, Dict, List, Text

from rasa_sdk import Tracker

from knowledge import NeedsClarification, handlers, when

from . import common, dialogue, parsing
from .form_base import FormValidator, given
from .license_reading import LicenseFormReading, licensable_months


LICENSE_SLOTS = ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day", "licensable_age_on"]


class ValidateLicenseForm(LicenseFormReading, FormValidator):
    subject_questions = ("ask_license_cost", "ask_late_fee", "ask_multiple_dog_license")

    def name(self) -> Text:
        return "validate_license_form"

    async def run(self, dispatcher, tracker, domain):
        """On the form's first turn the facts said earlier in the conversation count as said now ("we have 4
        dogs" ... "how much to license them?")."""
        events = dialogue.remember_facts(tracker)
        if not tracker.get_slot("requested_slot"):
            tracker = _with_context(tracker)
        return events + list(await super().run(dispatcher, tracker, domain))

    async def required_slots(self, domain_slots, dispatcher, tracker, domain) -> List[Text]:
        """The form's questions, the day the dog came only when the late fee could depend on it (7.02-4's 30
        days from acquiring), and the day the dog reaches the licensable age only when the answer depends on it
        (license_cost's data["needs"], 7.02-4 / 174.05(2))."""
        slots = list(domain_slots)
        if tracker.get_slot("acquired") is None and not acquisition_matters(tracker):
            slots.remove("acquired")
        whens, text = common.entities(tracker, "when"), common.text_of(tracker)
        if tracker.get_slot("licensable_age_on") or parsing.licensable_age_when(whens, text, licensable_months()) or \
                parsing.birth_when(whens, text) or parsing.age_months(text) is not None:
            return slots + ["licensable_age_on"]  # said already ("turns 5 months on Sept 10", "2 yrs old"): read it
        if any(tracker.get_slot(s) is None for s in slots):
            return slots
        try:
            answer = handlers.license_cost(common.town(), **license_inputs(tracker))
        except (NeedsClarification, TypeError, ValueError):
            return slots
        if (answer.data or {}).get("needs") == "licensable_age_on":
            slots.append("licensable_age_on")
        return slots


    # validation
    @given
    def validate_dog_count(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        try:
            n = int(float(value))
        except (TypeError, ValueError):
            n = -1
        if n < 1 or n > 200:
            common.clarify(dispatcher, tracker, "Please tell me how many dogs, as a number (for example 2).")
            return {"dog_count": None}
        return {"dog_count": float(n)}

    @given
    def validate_dogs_neutered(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        dogs = tracker.get_slot("dog_count")
        if value not in ("all", "none") and dogs is not None:
            try:
                if int(value) > int(dogs):
                    n = int(dogs)
                    common.clarify(dispatcher, tracker, (
                        "So far I have 1 dog. How many dogs are you licensing, and how many are spayed or neutered?"
                        if n == 1 else f"You have {n} dogs in all; how many of them are spayed or neutered?"))
                    return {"dogs_neutered": None}
            except ValueError:
                return {"dogs_neutered": None}
        return {"dogs_neutered": value}

    @given
    def validate_service_dog(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        return {"service_dog": value}

    @given
    def validate_acquired(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value == "long ago":
            return {"acquired": value}
        kind, _, said = str(value).partition(":")
        t = common.town()
        now = common.now(t)
        year = parsing.year_said(said)
        if year is not None and year < now.year - 1:  # "had him since 2019": grown before this license year
            return {"acquired": "long ago", "licensable_age_on": tracker.get_slot("licensable_age_on") or "long ago"}
        if year is not None and year < now.year:
            return {"acquired": "long ago"}  # "got him last year": before this license year
        try:
            day = when.parse_day(parsing.plain_numbers(said), t, now=now, prefer="past")
        except NeedsClarification as exc:
            if year == now.year:
                common.clarify(dispatcher, tracker, f"On what day this year? For example \"{now:%B} 2\".")
            else:
                common.clarify(dispatcher, tracker, exc, hint=" (or say 'over a year ago')")
            return {"acquired": None}
        return {"acquired": f"{kind}:{day.isoformat()}"}

    @given
    def validate_licensable_age_on(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value == "long ago" or parsing.is_iso_date(str(value)):
            return {"licensable_age_on": value}
        prefer, _, said = str(value).partition(":")
        t = common.town()
        try:
            day = when.parse_day(said, t, now=common.now(t), prefer="future" if prefer == "future" else "past")
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc, hint=" (or say 'over a year ago')")
            return {"licensable_age_on": None}
        if prefer == "born":  # the day the dog reaches the town's licensable age (7.02-1(a), 58-533(c)(2))
            day = handlers.licensable_on(t, day)
        return {"licensable_age_on": day.isoformat()}

    @given
    def validate_purchase_day(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        t = common.town()
        try:
            day = when.parse_day(str(value), t, now=common.now(t), prefer="future")
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc)
            return {"purchase_day": None}
        return {"purchase_day": day.isoformat()}


def acquisition_matters(tracker: Tracker) -> bool:
    """Could the day the dog came change the late fee for the day of buying? Not when a dog kept since before
    the year, one got on January 1 and one got that day all pay the same (in January, say); asked otherwise."""
    day = tracker.get_slot("purchase_day")
    if not day or not parsing.is_iso_date(str(day)):
        return True
    t = common.town()
    on = date.fromisoformat(day)
    verdicts = set()
    for came in (None, date(on.year, 1, 1), on):
        try:
            answer = handlers.license_cost(t, on=on, acquired=came)
        except (NeedsClarification, TypeError, ValueError):
            return True
        verdicts.add((answer.value or {}).get("late"))
    return len(verdicts) > 1


def license_inputs(tracker: Tracker) -> dict[str, Any]:
    """The form's slots as license_cost keyword arguments."""
    return license_inputs_on(tracker, date.fromisoformat(tracker.get_slot("purchase_day")))


def license_inputs_on(tracker: Tracker, on: date) -> dict[str, Any]:
    """license_inputs for a license bought on ``on``."""
    dogs = int(float(tracker.get_slot("dog_count") or 1))
    neutered_slot = tracker.get_slot("dogs_neutered")
    neutered = dogs if neutered_slot == "all" else 0 if neutered_slot == "none" else (
        int(neutered_slot) if neutered_slot not in (None, "") else None)
    service = int(tracker.get_slot("service_dog") or 0)
    acquired = moved_in = None
    acq = tracker.get_slot("acquired")
    if acq and acq != "long ago":
        kind, _, iso = acq.partition(":")
        day = date.fromisoformat(iso)
        if kind == "moved":
            moved_in = day
        else:
            acquired = day
    age = tracker.get_slot("licensable_age_on")
    return {"on": on, "dogs": dogs, "neutered": neutered, "service_dogs": min(service, dogs),
            "acquired": acquired, "moved_in": moved_in,
            "licensable_age_on": date.fromisoformat(age) if age and parsing.is_iso_date(age) else None}


def _with_context(tracker: Tracker) -> Tracker:
    """The message with the facts said earlier that a license cost uses (never a follow-up reading: a license
    question names its topic)."""
    from .conversation import context_for, joined
    said = dialogue.said_of(tracker)
    context = context_for(dialogue.facts(tracker), "ask_license_cost", said)
    return dialogue.with_message(tracker, joined(context, said)) if context is not None else tracker
