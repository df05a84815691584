"""The license form: what a dog license costs, asking only for what the resident has not said (7.02)."""
from __future__ import annotations

import re
from datetime import date

from dateutil.relativedelta import relativedelta
from typing import Any, Dict, List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import EventType, SlotSet
from rasa_sdk.types import DomainDict

from knowledge import NeedsClarification, handlers, when

from . import common, dialogue, parsing
from .form_base import FormValidator, given, takes_values
from .numbers import first_number

LICENSE_SLOTS = ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day", "licensable_age_on"]
AGE_QUESTION = ("On what day did (or will) your dog turn 5 months old? (the late fee and a half-price license "
                "depend on it)")


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
        days from acquiring), and the day the dog turns 5 months only when the answer depends on it
        (license_cost's data["needs"], 7.02-4 / 174.05(2))."""
        slots = list(domain_slots)
        if tracker.get_slot("acquired") is None and not acquisition_matters(tracker):
            slots.remove("acquired")
        whens, text = common.entities(tracker, "when"), common.text_of(tracker)
        if tracker.get_slot("licensable_age_on") or parsing.five_months_when(whens, text) or \
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
        e = parsing.five_months_when(common.entities(tracker, "when"), text)
        if e:
            return {"licensable_age_on": f"{'past' if parsing.five_months_past(text) else 'future'}:"
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


_LEAD_REF = re.compile(r"\(((?:Wis\. Stat\. )?\d+[.-]\d+[^ ()]*(?:\([0-9a-z]+\))*)\)")


def price_before_acquired(tracker: Tracker) -> str | None:
    """Before asking when the dog came, the price it decides between: "At least $3.00 if licensed on time, $8.00
    with the late fee (Wis. Stat. 174.05(2))." (license_cost for a dog got on the day of buying, and for one kept
    since before the year; one price when they agree); None until the count and spayed/neutered are known, or when the handler cannot say."""
    if tracker.get_slot("dogs_neutered") in (None, ""):
        return None
    t = common.town()
    day = tracker.get_slot("purchase_day")
    on = date.fromisoformat(day) if day and parsing.is_iso_date(str(day)) else common.now(t).date()
    try:
        inputs = {**license_inputs_on(tracker, on), "acquired": None, "moved_in": None}
        kept, got = (handlers.license_cost(t, **{**inputs, "acquired": came}) for came in (None, on))
    except (NeedsClarification, TypeError, ValueError):
        return None
    late, on_time = ((a.value or {}).get("total") for a in (kept, got))
    ref = _LEAD_REF.search(got.lead or "")
    if not late or not on_time or ref is None or got.data.get("needs") or kept.data.get("needs") or \
            (kept.value or {}).get("late") and (kept.value or {}).get("late_fee") is None:
        # no price, none yet (a puppy not yet of licensable age), one that turns on the day the dog reached the
        # licensable age (half the tax after July 1), or a late fee whose amount our copy lacks
        return None
    least = "" if (got.value or {}).get("exact") else "At least "
    if late == on_time:
        return f"{least}${on_time:,.2f} ({ref.group(1)})."
    return f"{least}${on_time:,.2f} if licensed on time, ${late:,.2f} with the late fee ({ref.group(1)})."


class ActionAskLicensableAge(Action):
    """The license form's question for the day the dog turns 5 months, asked only when it matters."""

    def name(self) -> Text:
        return "action_ask_license_form_licensable_age_on"

    async def run(self, dispatcher, tracker, domain) -> List[EventType]:
        common.send_text(dispatcher, tracker, AGE_QUESTION)
        return []


class ActionLicenseAnswer(Action):
    """The license cost for the form's answers (handlers.license_cost); the form's slots are then cleared, and
    the answers kept as the last question, for a follow-up ("and if she's spayed?") to change one."""

    def name(self) -> Text:
        return "action_license_answer"

    async def run(self, dispatcher, tracker, domain) -> List[EventType]:
        reset = [SlotSet(s, None) for s in LICENSE_SLOTS]
        try:
            inputs = license_inputs(tracker)
        except (TypeError, ValueError):
            common.send_text(dispatcher, tracker, "Sorry, I lost track of your answers. Please ask again.")
            return reset
        return send_cost(dispatcher, tracker, inputs) + reset


def send_cost(dispatcher, tracker, inputs: dict) -> List[EventType]:
    """Send license_cost for ``inputs`` and remember them as the last question."""
    try:
        answer = handlers.license_cost(common.town(), **inputs)
    except NeedsClarification as exc:
        common.clarify(dispatcher, tracker, exc)
        return []
    kept = {k: v.isoformat() if isinstance(v, date) else v for k, v in inputs.items()}
    return common.send(dispatcher, tracker, answer) + [
        SlotSet(dialogue.LAST_QUESTION, {"intent": "ask_license_cost", "inputs": kept})]


def answer_again(dispatcher, tracker: Tracker, last: dict) -> List[EventType]:
    """A follow-up of a license computed from the form's answers ("and if she's spayed?", "what about 3 dogs?",
    "what if I buy it in July?"): computed again with the values the message changes."""
    inputs = {k: date.fromisoformat(v) if k in _DAYS and v else v for k, v in (last.get("inputs") or {}).items()}
    t = common.town()
    try:
        inputs = changed_inputs(inputs, dialogue.said_of(tracker), t, common.now(t))
    except NeedsClarification as exc:
        common.clarify(dispatcher, tracker, exc)
        return []
    return send_cost(dispatcher, tracker, inputs)


_DAYS = ("on", "acquired", "moved_in", "licensable_age_on")


def changed_inputs(inputs: dict, said, t, now) -> dict:
    """license_cost's inputs with what a follow-up says instead: the number of dogs, how many are spayed or
    neutered, service dogs, the day the dog came (or that it was long ago), the day of buying."""
    out = dict(inputs)
    text, ents = said.text, said.entities
    dogs = parsing.animals_counted(ents).get("dog")
    if dogs is None and any(e["entity"] == "count" for e in ents) and not parsing.animals_counted(ents):
        dogs = first_number(text)  # "what about 3?"
    if dogs:
        out["dogs"] = dogs
        out["service_dogs"] = min(out.get("service_dogs") or 0, dogs)
        if out.get("neutered") is not None and out["neutered"] > dogs:
            out["neutered"] = None
    fixed = parsing.neutered_said(text)
    entity = next((str(e["value"]) for e in ents if e["entity"] == "neutered"), None)
    if fixed is None and entity and not parsing.neutered_mixed(text):
        fixed = {"neutered": "all", "unneutered": "none"}[entity] if entity in ("neutered", "unneutered") else None
    if fixed is not None:
        n = out.get("dogs") or 1
        out["neutered"] = n if fixed == "all" else 0 if fixed == "none" else min(int(fixed), n)
    if any(e["entity"] == "service_dog" for e in ents):
        out["service_dogs"] = min(int(parsing.service_dogs_said(text)), out.get("dogs") or 1)
    whens = [e for e in ents if e["entity"] == "when"]
    got = parsing.when_after(whens, text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked=False)
    if got is not None:
        day = when.parse_day(str(got["value"]), t, now=now, prefer="past")
        kind = "moved_in" if parsing.acquired_kind(text) == "moved" else "acquired"
        out.update({"acquired": None, "moved_in": None, kind: day})
    elif parsing.says_long_ago(text):
        out.update({"acquired": None, "moved_in": None})
    born = parsing.birth_when(whens, text)
    if born is not None:  # "oops he was born jan 10": he reaches the licensable age from that day (7.02-1(a))
        day = when.parse_day(str(born["value"]), t, now=now, prefer="past")
        out["licensable_age_on"] = handlers.licensable_on(t, day)
    bought = parsing.when_after(whens, text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked=False)
    bare = [e for e in whens if e is not got and e is not bought and not parsing.is_time_only(str(e["value"]))]
    if bought is None and got is None and bare:
        came = "moved_in" if out.get("moved_in") else "acquired" if out.get("acquired") else None
        if came:  # "sorry, april 20" after "we got him march 20": the day said before is the one corrected
            out[came] = when.parse_day(str(bare[0]["value"]), t, now=now, prefer="past")
            return out
        bought = bare[0]
    if bought is not None:
        out["on"] = when.parse_day(str(bought["value"]), t, now=now, prefer="future")
    return out


def _with_context(tracker: Tracker) -> Tracker:
    """The message with the facts said earlier that a license cost uses (never a follow-up reading: a license
    question names its topic)."""
    from .conversation import context_for, joined
    said = dialogue.said_of(tracker)
    context = context_for(dialogue.facts(tracker), "ask_license_cost", said)
    return dialogue.with_message(tracker, joined(context, said)) if context is not None else tracker
