"""The license form: what a dog license costs, asking only for what the resident has not said (7.02)."""
from __future__ import annotations

from datetime import date
from typing import Any, Dict, List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import EventType, SlotSet
from rasa_sdk.types import DomainDict

from knowledge import NeedsClarification, handlers, when

from . import common, parsing
from .form_base import FormValidator, given, takes_values
from .numbers import first_number

LICENSE_SLOTS = ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day", "licensable_age_on"]
AGE_QUESTION = ("On what day did (or will) your dog turn 5 months old? (the late fee and a half-price license "
                "depend on it)")


class ValidateLicenseForm(FormValidator):
    def name(self) -> Text:
        return "validate_license_form"

    async def required_slots(self, domain_slots, dispatcher, tracker, domain) -> List[Text]:
        """The form's questions, and the day the dog turns 5 months only when the answer depends on it
        (license_cost's data["needs"], 7.02-4 / 174.05(2))."""
        slots = list(domain_slots)
        if tracker.get_slot("licensable_age_on") or parsing.five_months_when(
                common.entities(tracker, "when"), common.text_of(tracker)):
            return slots + ["licensable_age_on"]  # said already ("turns 5 months on Sept 10"): read it
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
        e = parsing.five_months_when(common.entities(tracker, "when"), text)
        if e:
            return {"licensable_age_on": f"{'past' if parsing.five_months_past(text) else 'future'}:"
                                         f"{parsing.time_phrase(text, [e]) or e['value']}"}
        if tracker.get_slot("requested_slot") == "licensable_age_on" and text:
            if parsing.says_long_ago(text):
                return {"licensable_age_on": "long ago"}
            return {"licensable_age_on": f"past:{text}"}
        return {}

    # extraction: entities of the first message and of each reply, the reply's text for the slot asked
    async def extract_dog_count(self, dispatcher, tracker: Tracker, domain: DomainDict) -> Dict[Text, Any]:
        if not takes_values(tracker, "dog_count"):
            return {}
        ents = tracker.latest_message.get("entities", [])
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
        if not takes_values(tracker, "service_dog"):
            return {}
        text = common.text_of(tracker)
        if common.entity(tracker, "service_dog"):
            return {"service_dog": parsing.service_dogs_said(text)}
        if tracker.get_slot("requested_slot") == "service_dog":
            intent = common.intent_of(tracker)
            if intent == "deny" or parsing.says_none(text, nope=True):
                return {"service_dog": "0"}
            if intent == "affirm":
                return {"service_dog": "1"}
            n = first_number(text)
            if n is not None:
                return {"service_dog": str(n)}
        return {}

    async def extract_acquired(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not takes_values(tracker, "acquired", "purchase_day"):
            return {}
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "acquired"
        e = parsing.when_after(common.entities(tracker, "when"), text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked)
        if e:
            return {"acquired": f"{parsing.acquired_kind(text)}:{e['value']}"}
        if asked:
            if parsing.says_long_ago(text) or common.intent_of(tracker) == "deny":
                return {"acquired": "long ago"}
            return {"acquired": f"got:{text}"}
        if parsing.says_had_long(text):
            return {"acquired": "long ago"}
        return {}

    async def extract_purchase_day(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not takes_values(tracker, "acquired", "purchase_day"):
            return {}
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "purchase_day"
        e = parsing.when_after(common.entities(tracker, "when"), text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked)
        if e:
            return {"purchase_day": str(e["value"])}
        if asked and text:
            return {"purchase_day": text}
        return {}

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
                    common.clarify(dispatcher, tracker,
                                   f"You have {int(dogs)} dogs in all; how many of them are spayed or neutered?")
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
        try:
            day = when.parse_day(said, t, now=common.now(t), prefer="past")
        except NeedsClarification as exc:
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
            day = when.parse_day(said, t, now=common.now(t), prefer="past" if prefer == "past" else "future")
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc, hint=" (or say 'over a year ago')")
            return {"licensable_age_on": None}
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


def license_inputs(tracker: Tracker) -> dict[str, Any]:
    """The form's slots as license_cost keyword arguments."""
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
    on = date.fromisoformat(tracker.get_slot("purchase_day"))
    age = tracker.get_slot("licensable_age_on")
    return {"on": on, "dogs": dogs, "neutered": neutered, "service_dogs": min(service, dogs),
            "acquired": acquired, "moved_in": moved_in,
            "licensable_age_on": date.fromisoformat(age) if age and parsing.is_iso_date(age) else None}


class ActionAskLicensableAge(Action):
    """The license form's question for the day the dog turns 5 months, asked only when it matters."""

    def name(self) -> Text:
        return "action_ask_license_form_licensable_age_on"

    async def run(self, dispatcher, tracker, domain) -> List[EventType]:
        common.send_text(dispatcher, tracker, AGE_QUESTION)
        return []


class ActionLicenseAnswer(Action):
    """The license cost for the form's answers (handlers.license_cost); the answers are then forgotten."""

    def name(self) -> Text:
        return "action_license_answer"

    async def run(self, dispatcher, tracker, domain) -> List[EventType]:
        reset = [SlotSet(s, None) for s in LICENSE_SLOTS]
        t = common.town()
        try:
            answer = handlers.license_cost(t, **license_inputs(tracker))
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc)
            return reset
        except (TypeError, ValueError):
            common.send_text(dispatcher, tracker, "Sorry, I lost track of your answers. Please ask again.")
            return reset
        return common.send(dispatcher, tracker, answer) + reset
