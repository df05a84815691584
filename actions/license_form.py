"""The license form: what a dog license costs, asking only for what the resident has not said (7.02); the
answer computed from its slots is license_answer.py's."""
from __future__ import annotations

import re
from datetime import date
from typing import Any, Dict, List, Text

from dateutil.relativedelta import relativedelta
from rasa_sdk import Tracker
from rasa_sdk.types import DomainDict

from knowledge import NeedsClarification, handlers, when

from . import common, dialogue, parsing
from .form_base import FormValidator, given, takes_values
from .numbers import first_number


LICENSE_SLOTS = ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day", "licensable_age_on"]


class ValidateLicenseForm(FormValidator):
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

    async def extract_licensable_age_on(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not takes_values(tracker, "licensable_age_on"):
            return {}
        text = common.text_of(tracker)
        months = licensable_months()
        e = parsing.licensable_age_when(common.entities(tracker, "when"), text, months)
        if e:
            return {"licensable_age_on": f"{'past' if parsing.licensable_age_past(text, months) else 'future'}:"
                                         f"{parsing.time_phrase(text, [e]) or e['value']}"}
        born = parsing.birth_when(common.entities(tracker, "when"), text)
        if born:  # "he was born jan 10": the licensable age counted from that day (validate_licensable_age_on)
            return {"licensable_age_on": f"born:{parsing.time_phrase(text, [born]) or born['value']}"}
        reached = licensable_from_age(text)
        if reached is not None:  # "my 2 yr old dog": licensable age long before; "a 10 week old puppy": ahead
            return {"licensable_age_on": reached}
        if tracker.get_slot("requested_slot") == "licensable_age_on" and text:
            if parsing.says_long_ago(text):
                return {"licensable_age_on": "long ago"}
            return {"licensable_age_on": f"past:{text}"}
        return {}

    # extraction: entities of the first message and of each reply, the reply's text for the slot asked
    async def extract_dog_count(self, dispatcher, tracker: Tracker, domain: DomainDict) -> Dict[Text, Any]:
        if not takes_values(tracker, "dog_count"):
            return {}
        ents = parsing.without_negated_service(tracker.latest_message.get("entities", []), common.text_of(tracker))
        total = parsing.animals_counted(ents).get("dog")
        if total:
            return {"dog_count": float(total)}
        if tracker.get_slot("requested_slot") == "dog_count":
            n = first_number(common.text_of(tracker))
            if n is not None:
                return {"dog_count": float(n)}
        if (parsing.names_a_dog(ents) and tracker.get_slot("dog_count") is None
                and parsing.says_one_dog(common.text_of(tracker))):
            return {"dog_count": 1.0}
        if tracker.get_slot("requested_slot") in ("dog_count", None) and tracker.get_slot("dog_count") is None \
                and (parsing.one_animal_meant(common.text_of(tracker)) or parsing.one_dog_said(common.text_of(tracker))):
            return {"dog_count": 1.0}  # "and if she's spayed?", "a license for one neutered male": one dog
        return {}

    async def extract_dogs_neutered(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not takes_values(tracker, "dogs_neutered"):
            return {}
        text = common.text_of(tracker)
        said = parsing.neutered_said(text)
        if said is not None:
            return {"dogs_neutered": said}
        value = None if parsing.neutered_mixed(text) else common.entity(tracker, "neutered")
        if value == "neutered":
            return {"dogs_neutered": "all"}
        if value == "unneutered":
            return {"dogs_neutered": "none"}
        if tracker.get_slot("requested_slot") == "dogs_neutered":
            ents = tracker.latest_message.get("entities", [])
            answers = re.search(r"\b(?:yes|yeah|yep|no|nope|all|none|both|neither|are)\b", text, re.I) or \
                common.intent_of(tracker) in ("affirm", "deny")
            if not parsing.names_neutering(text) and not answers and (parsing.animals_counted(ents) or common.entity(
                    tracker, "service_dog")):
                return {}  # "2 dogs. one is my service dog": the count and a service dog, not how many are fixed
            intent = common.intent_of(tracker)
            if intent == "affirm":
                return {"dogs_neutered": "all"}
            if intent == "deny" or parsing.says_none(text):
                return {"dogs_neutered": "none"}
            n = first_number(text)
            if n is not None:
                return {"dogs_neutered": str(n)}
        return {}

    async def extract_service_dog(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        """A service dog counts when said ("one is a guide dog"); it is not asked: none unless said (the
        answer says that a service dog's license is free)."""
        if common.entity(tracker, "service_dog") and takes_values(tracker, "service_dog"):
            return {"service_dog": parsing.service_dogs_said(common.text_of(tracker))}  # "not a service dog": "0"
        if tracker.get_slot("service_dog") is None and not tracker.get_slot("requested_slot"):
            return {"service_dog": "0"}
        return {}

    async def extract_acquired(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not takes_values(tracker, "acquired", "purchase_day"):
            return {}
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "acquired"
        if parsing.says_before_this_year(text):
            return {"acquired": "long ago"}  # "since before this year": no day of this year to read
        e = parsing.when_after(common.entities(tracker, "when"), text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked)
        if e:
            return {"acquired": f"{parsing.acquired_kind(text)}:{e['value']}"}
        if asked:
            if parsing.says_long_ago(text) or common.intent_of(tracker) == "deny":
                return {"acquired": "long ago"}
            ents = tracker.latest_message.get("entities", [])
            if parsing.animals_counted(ents) or any(e["entity"] in ("neutered", "service_dog") for e in ents):
                return {}  # "actually it's 3 dogs": a correction of another answer, not the day
            return {"acquired": f"got:{text}"}
        if parsing.says_had_long(text):
            return {"acquired": "long ago"}
        year = parsing.year_said(text)
        if year is not None and parsing.says_had_since(text):
            return {"acquired": f"got:{year}"}  # "had them since 2023": validate_acquired reads the year
        return {}

    async def extract_purchase_day(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        """The day of buying when said ("if I buy it in May"), else today (the answer names the day, and a
        follow-up such as "what if I buy it in July?" computes it again)."""
        default = {} if tracker.get_slot("purchase_day") or tracker.get_slot("requested_slot") else {
            "purchase_day": "today"}
        if not takes_values(tracker, "acquired", "purchase_day"):
            return default
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "purchase_day"
        e = parsing.when_after(common.entities(tracker, "when"), text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked)
        if e:
            return {"purchase_day": str(e["value"])}
        if asked and text:
            return {"purchase_day": text}
        return default

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


def licensable_from_age(text: str) -> str | None:
    """The licensable-age slot from a dog's age said ("my 2 yr old dog", "a 10 week old puppy"): "long ago" when
    it reached the licensable age before this year, the ISO day it did (or will) otherwise; None when no age."""
    months = parsing.age_months(text)
    if months is None:
        return None
    t = common.town()
    today = common.now(t).date()
    age = t.value("dog_license.licensable_age_months", today)
    reached = today - relativedelta(days=round((months - float(age)) * 30.44))
    return "long ago" if reached.year < today.year else reached.isoformat()


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


def licensable_months() -> int | None:
    """The town's licensable age in months today (dog_license.licensable_age_months: 5 in Dunkirk and Mequon);
    None when its code sets none."""
    t = common.town()
    return handlers.licensable_age_months(t, common.now(t).date())


def _with_context(tracker: Tracker) -> Tracker:
    """The message with the facts said earlier that a license cost uses (never a follow-up reading: a license
    question names its topic)."""
    from .conversation import context_for, joined
    said = dialogue.said_of(tracker)
    context = context_for(dialogue.facts(tracker), "ask_license_cost", said)
    return dialogue.with_message(tracker, joined(context, said)) if context is not None else tracker
