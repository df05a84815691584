"""Reading a resident's answers to the license form (7.02): the count of dogs, how many are spayed or
neutered, a service dog, the day the dog came, the day of buying and the day the dog reaches the town's
licensable age, from entities and the words of the reply. Validation is license_form.py's."""
from __future__ import annotations

import re
from typing import Any, Dict, Text

from dateutil.relativedelta import relativedelta
from rasa_sdk import Tracker
from rasa_sdk.types import DomainDict

from knowledge import handlers

from . import common, parsing
from .form_base import takes_values
from .numbers import first_number


class LicenseFormReading:
    """The license form's extract_<slot> methods (rasa_sdk calls them by name): entities of the first message
    and of each reply, the reply's text for the slot asked."""

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


def licensable_months() -> int | None:
    """The town's licensable age in months today (dog_license.licensable_age_months: 5 in Dunkirk and Mequon);
    None when its code sets none."""
    t = common.town()
    return handlers.licensable_age_months(t, common.now(t).date())
