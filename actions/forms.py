"""The two forms: license cost (asks only for what is missing) and burn notification (Dunkirk 7.12(1))."""
from __future__ import annotations

import logging
import re
from datetime import date, datetime, time
from typing import Any, Dict, List, Optional, Text
from zoneinfo import ZoneInfo

import phonenumbers
import usaddress
from rasa_sdk import Action, FormValidationAction, Tracker
from rasa_sdk.events import ActiveLoop, EventType, SlotSet
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict

from knowledge import NeedsClarification, handlers, when
from records import burn_idempotency_key

from . import common
from .numbers import count_value, first_number

log = logging.getLogger(__name__)

LICENSE_SLOTS = ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day"]
BURN_SLOTS = ["burner_name", "burn_address", "burn_phone", "burn_date", "burn_time", "burn_location",
              "burn_confirmed"]


def _takes_values(tracker: Tracker, *slots: str) -> bool:
    """Does the latest message carry values for ``slots``? Value intents do; so does a statement that is not a
    question or a command answering the question asked for one of ``slots`` ("got them in May" read as
    another intent)."""
    intent = common.intent_of(tracker)
    if intent in common.VALUE_INTENTS:
        return True
    return (tracker.get_slot("requested_slot") in slots and intent not in common.COMMAND_INTENTS
            and not common.looks_like_question(common.text_of(tracker)))


#: the request that starts the burn form, resent mid-form (after a slow reply, or by a resident unsure the
#: first text arrived): found by the no-loss run, which once stored it as a resident's name
_ASKS_TO_NOTIFY = re.compile(r"\b(notif\w*|report\w*|tell\w*|let\b.*\bknow|inform\w*)\b.*\b(fire|burn\w*)\b|"
                             r"\b(burn\w*|fire)\b.*\b(notif\w*|report\w*)\b", re.I)


def _free_text(tracker: Tracker, slot: str, open_answer: bool = False) -> Optional[str]:
    """The reply's text when it answers the question asked for ``slot``. ``open_answer``: the question takes any
    words (a name, an address, a place), which NLU often reads as out_of_scope ("My name is Parker Hanson",
    "the back field behind barn 96"); such a reply, not a question, is the answer (the read-back shows it)."""
    if tracker.get_slot("requested_slot") != slot:
        return None
    intent = common.intent_of(tracker)
    text = common.text_of(tracker)
    if not text or (intent in common.COMMAND_INTENTS and not (open_answer and intent == "out_of_scope")):
        return None
    if open_answer and intent == "notify_burn" and _ASKS_TO_NOTIFY.search(text):
        return None  # "I want to notify the fire department of a burn" sent again: not a name, address or place
    if intent in common.VALUE_INTENTS or not common.looks_like_question(text):
        return text
    return None


# ----------------------------------------------------------------------------------------- license form

_ACQUIRED_CUE = re.compile(r"\b(got|get|adopt\w*|bought (?:him|her|it|the dog|the pup\w*)|rescued|moved|acquired|"
                           r"brought|born|since)\b", re.I)
_BUY_CUE = re.compile(r"\b(buy|buying|purchas\w*|pay|paying|license (?:it|him|her|them)|get (?:it|the license)|"
                      r"licensing)\b", re.I)
_LONG_AGO = re.compile(r"\b(years?|long|ages|forever|always|before this year|last year|a while|since birth|"
                       r"born here|months? ago)\b", re.I)


def _cue_before(text: str, start: int, cue: re.Pattern) -> bool:
    return bool(cue.search(text[max(0, start - 40):start]))


# ----------------------------------------------------------------------------------------- digressions
# A question asked mid-form ("wait, what can't I burn?") is answered by the form's validation action itself and
# the form asks its question again. Doing it here instead of with one rule per intent and form keeps
# RulePolicy small (measured: rule matching was ~8 ms of a 36 ms turn with 150 rules).

_UTTER = {"bot_challenge": "utter_iamabot", "thank": "utter_thank"}


async def answer_digression(dispatcher, tracker, domain) -> List[EventType]:
    from .answers import (ActionAnswer, ActionClarify, ActionGreet, ActionHandoff, ActionHelp, ActionMore,
                          ActionOutOfScope)
    intent = common.intent_of(tracker)
    if intent in _UTTER:
        dispatcher.utter_message(response=_UTTER[intent])
        return []
    action = {"help": ActionHelp, "human_handoff": ActionHandoff, "out_of_scope": ActionOutOfScope,
              "greet": ActionGreet, "more": ActionMore, "nlu_fallback": ActionClarify}.get(intent, ActionAnswer)
    return list(await action().run(dispatcher, tracker, domain))


DIGRESSION_INTENTS_EXTRA = {"help", "human_handoff", "out_of_scope", "greet", "more", "bot_challenge", "thank",
                            "nlu_fallback", "notify_burn"}


def _is_digression(form: str, tracker: Tracker, events: List[EventType]) -> bool:
    """The reply filled nothing and is a question or request of its own."""
    intent = common.intent_of(tracker)
    if not tracker.get_slot("requested_slot") or tracker.active_loop.get("name") != form:
        return False
    if any(e.get("event") == "slot" and e.get("name") != "requested_slot" for e in events):
        return False
    if form == "burn_form" and intent == "notify_burn":
        return False
    return intent.startswith("ask_") or intent in DIGRESSION_INTENTS_EXTRA


class _DigressionMixin:
    form = ""

    async def run(self, dispatcher, tracker, domain):
        events = await super().run(dispatcher, tracker, domain)
        if _is_digression(self.form, tracker, events):
            # the answer's own SlotSet (sms_more) tells the form a reply was handled: it asks its question again
            answered = await answer_digression(dispatcher, tracker, domain)
            slot = tracker.get_slot("requested_slot")
            return events + answered + [SlotSet(slot, tracker.get_slot(slot))]
        return events



class ValidateLicenseForm(_DigressionMixin, FormValidationAction):
    form = "license_form"

    def name(self) -> Text:
        return "validate_license_form"

    # extraction: entities of the first message and of each reply, the reply's text for the slot asked
    async def extract_dog_count(self, dispatcher, tracker: Tracker, domain: DomainDict) -> Dict[Text, Any]:
        if not _takes_values(tracker, "dog_count"):
            return {}
        ents = sorted(tracker.latest_message.get("entities", []), key=lambda e: e.get("start", 0))
        total, pending, saw_dog = 0, None, False
        for e in ents:
            if e["entity"] == "count":
                pending = count_value(str(e["value"]))
            elif e["entity"] in ("animal", "service_dog"):
                if e["entity"] == "service_dog" or str(e["value"]).lower() == "dog":
                    saw_dog = True
                    if pending is not None:
                        total += pending
                pending = None
        if total:
            return {"dog_count": float(total)}
        if tracker.get_slot("requested_slot") == "dog_count":
            n = first_number(common.text_of(tracker))
            if n is not None:
                return {"dog_count": float(n)}
        if saw_dog and tracker.get_slot("dog_count") is None and re.search(
                r"\b(my|our|one|this)\s+(new\s+|only\s+)?(dog|puppy|pup)\b(?!\s+licen)", common.text_of(tracker), re.I):
            return {"dog_count": 1.0}
        return {}

    async def extract_dogs_neutered(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not _takes_values(tracker, "dogs_neutered"):
            return {}
        text = common.text_of(tracker)
        m = re.search(r"\b(\d+|one|two|three|four|five|six|none|all|both)\s+(?:of them\s+)?(?:is|are)\s+"
                      r"(?:not\s+)?(spayed|neutered|fixed)", text, re.I)
        if m:
            n = m.group(1).lower()
            negated = " not " in m.group(0).lower()
            if n in ("all", "both"):
                return {"dogs_neutered": "none" if negated else "all"}
            if n == "none":
                return {"dogs_neutered": "none"}
            v = count_value(n)
            if v is not None and not negated:
                return {"dogs_neutered": str(v)}
        value = common.entity(tracker, "neutered")
        if value == "neutered":
            return {"dogs_neutered": "all"}
        if value == "unneutered":
            return {"dogs_neutered": "none"}
        if tracker.get_slot("requested_slot") == "dogs_neutered":
            intent = common.intent_of(tracker)
            if intent == "affirm":
                return {"dogs_neutered": "all"}
            if intent == "deny" or re.search(r"\b(no|none|neither)\b", text, re.I):
                return {"dogs_neutered": "none"}
            n = first_number(text)
            if n is not None:
                return {"dogs_neutered": str(n)}
        return {}

    async def extract_service_dog(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not _takes_values(tracker, "service_dog"):
            return {}
        text = common.text_of(tracker)
        if common.entity(tracker, "service_dog"):
            negated = re.search(r"\b(not|no|none|isn't|isnt|aren't|arent|neither)\b", text, re.I)
            if negated:
                return {"service_dog": "0"}
            m = re.search(r"\b(\d+|one|two|three|both)\s+(?:of them\s+)?(?:are|is)?\s*(?:a\s+)?service", text, re.I)
            n = count_value(m.group(1)) if m else 1
            return {"service_dog": str(n or 1)}
        if tracker.get_slot("requested_slot") == "service_dog":
            intent = common.intent_of(tracker)
            if intent == "deny" or re.search(r"\b(no|nope|none|neither)\b", text, re.I):
                return {"service_dog": "0"}
            if intent == "affirm":
                return {"service_dog": "1"}
            n = first_number(text)
            if n is not None:
                return {"service_dog": str(n)}
        return {}

    async def extract_acquired(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not _takes_values(tracker, "acquired", "purchase_day"):
            return {}
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "acquired"
        for e in common.entities(tracker, "when"):
            if _cue_before(text, e["start"], _ACQUIRED_CUE) or (asked and not _cue_before(text, e["start"], _BUY_CUE)):
                kind = "moved" if re.search(r"\bmoved?\b", text, re.I) else "got"
                return {"acquired": f"{kind}:{e['value']}"}
        if asked:
            if _LONG_AGO.search(text) or common.intent_of(tracker) == "deny":
                return {"acquired": "long ago"}
            return {"acquired": f"got:{text}"}
        if _LONG_AGO.search(text) and re.search(r"\b(had|have had|owned)\b", text, re.I):
            return {"acquired": "long ago"}
        return {}

    async def extract_purchase_day(self, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if not _takes_values(tracker, "acquired", "purchase_day"):
            return {}
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "purchase_day"
        for e in common.entities(tracker, "when"):
            if _cue_before(text, e["start"], _BUY_CUE) or (asked and not _cue_before(text, e["start"], _ACQUIRED_CUE)):
                return {"purchase_day": str(e["value"])}
        if asked and text:
            return {"purchase_day": text}
        return {}

    # validation
    def validate_dog_count(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:  # cleared, not given: nothing to check
            return {"dog_count": None}
        try:
            n = int(float(value))
        except (TypeError, ValueError):
            n = -1
        if n < 1 or n > 200:
            common.send_text(dispatcher, tracker, "Please tell me how many dogs, as a number (for example 2).")
            return {"dog_count": None}
        return {"dog_count": float(n)}

    def validate_dogs_neutered(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:  # cleared, not given: nothing to check
            return {"dogs_neutered": None}
        dogs = tracker.get_slot("dog_count")
        if value not in ("all", "none") and dogs is not None:
            try:
                if int(value) > int(dogs):
                    common.send_text(dispatcher, tracker,
                                     f"You have {int(dogs)} dogs in all; how many of them are spayed or neutered?")
                    return {"dogs_neutered": None}
            except ValueError:
                return {"dogs_neutered": None}
        return {"dogs_neutered": value}

    def validate_service_dog(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:  # cleared, not given: nothing to check
            return {"service_dog": None}
        return {"service_dog": value}

    def validate_acquired(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:  # cleared, not given: nothing to check
            return {"acquired": None}
        if value == "long ago":
            return {"acquired": value}
        kind, _, said = str(value).partition(":")
        t = common.town()
        try:
            day = when.parse_day(said, t, now=common.now(t), prefer="past")
        except NeedsClarification as exc:
            common.send_text(dispatcher, tracker, str(exc.args[0] if exc.args else exc) +
                             " (or say 'over a year ago')")
            return {"acquired": None}
        return {"acquired": f"{kind}:{day.isoformat()}"}

    def validate_purchase_day(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:  # cleared, not given: nothing to check
            return {"purchase_day": None}
        t = common.town()
        try:
            day = when.parse_day(str(value), t, now=common.now(t), prefer="future")
        except NeedsClarification as exc:
            common.send_text(dispatcher, tracker, str(exc.args[0] if exc.args else exc))
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
    return {"on": on, "dogs": dogs, "neutered": neutered, "service_dogs": min(service, dogs),
            "acquired": acquired, "moved_in": moved_in}


class ActionLicenseAnswer(Action):
    def name(self) -> Text:
        return "action_license_answer"

    async def run(self, dispatcher, tracker, domain) -> List[EventType]:
        reset = [SlotSet(s, None) for s in LICENSE_SLOTS]
        t = common.town()
        try:
            answer = handlers.license_cost(t, **license_inputs(tracker))
        except NeedsClarification as exc:
            common.send_text(dispatcher, tracker, str(exc.args[0] if exc.args else exc))
            return reset
        except (TypeError, ValueError):
            common.send_text(dispatcher, tracker, "Sorry, I lost track of your answers. Please ask again.")
            return reset
        return common.send(dispatcher, tracker, answer) + reset


# ----------------------------------------------------------------------------------------- burn form

#: a when-phrase that is only a time of day ("3pm", "at 10:30", "noon"), not a day
TIME_ONLY = r"(?i)(at|around|about|by)?\s*\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)?|(at |around )?(noon)"
FIELD_WORDS = {
    "burner_name": r"\bname\b", "burn_address": r"\baddress\b|\bstreet\b", "burn_phone": r"\bphone|number|cell\b",
    "burn_date": r"\bdate\b|\bday\b", "burn_time": r"\btime\b|\bhour\b", "burn_location": r"\blocation|where|spot|place\b",
}


#: an answer that says outright it is a name
_SAYS_NAME = re.compile(r"\s*(?:my name is|my name's|name is|name:)\s+([A-Za-z][A-Za-z .'-]{1,60}?)\s*[.!]?\s*$", re.I)


def _burning_covered(t) -> bool:
    topic = t.topics.get("burn_notification")
    return bool(topic and topic.covered)


def _phone_in(text: str) -> Optional[str]:
    for m in phonenumbers.PhoneNumberMatcher(text or "", "US"):
        return phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return None


def _window(t, day: date):
    """(sunrise, sunset, order_active) for ``day``."""
    answer = handlers.burn_window(t, day=day, order=common.burning_order(t))
    v = answer.value or {}
    return v.get("sunrise"), v.get("sunset"), not v.get("allowed", True), answer


class ValidateBurnForm(_DigressionMixin, FormValidationAction):
    form = "burn_form"

    def name(self) -> Text:
        return "validate_burn_form"

    async def required_slots(self, domain_slots, dispatcher, tracker, domain) -> List[Text]:
        # A town whose code does not cover burning (Mequon) never runs the form.
        if not _burning_covered(common.town()):
            return []
        return domain_slots

    async def extract_burner_name(self, dispatcher, tracker, domain):
        text = _free_text(tracker, "burner_name", open_answer=True)
        said = _SAYS_NAME.match(common.text_of(tracker) or "")
        if text is None and said and tracker.get_slot("requested_slot") == "burner_name":
            # "My name is Parker Hanson" answering "your full name?" is the name whatever intent NLU gave it
            # (that one was read as out_of_scope, and the resident was asked for the name again and again)
            return {"burner_name": said.group(1).strip(" .")}
        if text is None:
            m = re.search(r"\bmy name is ([A-Za-z][A-Za-z .'-]{1,60})", common.text_of(tracker), re.I)
            return {"burner_name": m.group(1).strip()} if m and _takes_values(tracker) else {}
        text = re.sub(r"(?i)^(my name is|name is|name:|it'?s|i'?m|i am|this is)\s+", "", text).strip(" .")
        return {"burner_name": text}

    async def extract_burn_address(self, dispatcher, tracker, domain):
        text = _free_text(tracker, "burn_address", open_answer=True)
        if text is None:
            m = re.search(r"\b(?:my )?address is (.+)$", common.text_of(tracker), re.I)
            return {"burn_address": m.group(1).strip()} if m and _takes_values(tracker) else {}
        return {"burn_address": re.sub(r"(?i)^(my address is|address is|address:|i live at|it'?s)\s+", "", text)}

    async def extract_burn_phone(self, dispatcher, tracker, domain):
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "burn_phone"
        if not asked and not _takes_values(tracker):
            return {}
        phone = _phone_in(text)
        if phone and (asked or tracker.get_slot("burn_phone") or re.search(FIELD_WORDS["burn_phone"], text, re.I)):
            return {"burn_phone": phone}
        if asked and _free_text(tracker, "burn_phone"):
            return {"burn_phone": f"invalid:{text}"}
        return {}

    async def extract_burn_date(self, dispatcher, tracker, domain):
        if not _takes_values(tracker, "burn_date", "burn_time"):
            return {}
        said = common.when_text(tracker)
        if said and not re.fullmatch(TIME_ONLY, said.strip()):
            return {"burn_date": said}
        text = _free_text(tracker, "burn_date")
        return {"burn_date": text} if text else {}

    async def extract_burn_time(self, dispatcher, tracker, domain):
        if not _takes_values(tracker, "burn_date", "burn_time"):
            return {}
        said = common.when_text(tracker)
        if said and re.search(r"\d|noon", said, re.I) and not re.fullmatch(r"(?i)\s*\d{1,2}/\d{1,2}(/\d{2,4})?\s*|"
                                                                             r".*\b[a-z]+\s+\d{1,2}(st|nd|rd|th)?\s*$",
                                                                             said):
            return {"burn_time": said}
        text = _free_text(tracker, "burn_time")
        return {"burn_time": text} if text else {}

    async def extract_burn_location(self, dispatcher, tracker, domain):
        text = _free_text(tracker, "burn_location", open_answer=True)
        return {"burn_location": text} if text else {}

    async def extract_burn_confirmed(self, dispatcher, tracker, domain):
        if tracker.get_slot("requested_slot") != "burn_confirmed":
            return {}
        intent = common.intent_of(tracker)
        text = common.text_of(tracker)
        if intent == "affirm":
            return {"burn_confirmed": True}
        if intent in ("deny", "inform", "nlu_fallback") or re.search(r"\b(change|wrong|fix|actually)\b", text, re.I):
            return {"burn_confirmed": False}
        return {}

    # validation
    def validate_burner_name(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burner_name": None}
        name = " ".join(str(value).split())
        if not re.search(r"[A-Za-z]", name) or len(name) < 2 or len(name) > 80 or re.search(r"\d{3}", name):
            common.send_text(dispatcher, tracker, "Please tell me your name (for example 'Pat Olson').")
            return {"burner_name": None}
        return {"burner_name": name}

    def validate_burn_address(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_address": None}
        address = " ".join(str(value).split())
        try:
            tagged, _ = usaddress.tag(address)
        except usaddress.RepeatedLabelError:
            tagged = {}
        if not (tagged.get("AddressNumber") and (tagged.get("StreetName") or tagged.get("StreetNamePreType"))):
            common.send_text(dispatcher, tracker, "I need a street address with a house number, like "
                             "'N1234 County Road K' or '2345 Hwy 51'. What is your address?")
            return {"burn_address": None}
        return {"burn_address": address}

    def validate_burn_phone(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_phone": None}
        if str(value).startswith("invalid:"):
            common.send_text(dispatcher, tracker, "That doesn't look like a phone number I can use. Please "
                             "give a 10-digit number, like 608-555-0142.")
            return {"burn_phone": None}
        try:
            number = phonenumbers.parse(str(value), "US")
            ok = phonenumbers.is_valid_number(number)
        except phonenumbers.NumberParseException:
            ok = False
        if not ok:
            common.send_text(dispatcher, tracker, "That doesn't look like a valid phone number. Please give a "
                             "10-digit number, like 608-555-0142.")
            return {"burn_phone": None}
        return {"burn_phone": phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL),
                "burn_confirmed": None}

    def validate_burn_date(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_date": None}
        t = common.town()
        now = common.now(t)
        try:
            moment = when.resolve(str(value), t, now=now, prefer="future")
        except NeedsClarification as exc:
            common.send_text(dispatcher, tracker, str(exc.args[0] if exc.args else exc))
            return {"burn_date": None}
        day = moment.day
        if day < now.date():
            common.send_text(dispatcher, tracker, f"I understood {when.words_for_day(day)}, which has passed. "
                             "Which day will you burn?")
            return {"burn_date": None}
        rise, set_, blocked, _ = _window(t, day)
        if blocked:
            common.send_text(dispatcher, tracker, "A no-burning order is in effect, so no open burning is allowed "
                             "(7.10(4)). Nothing was saved; please notify again once the order is lifted.")
            return {"burn_date": None, "requested_slot": None}
        out = {"burn_date": day.isoformat(), "burn_confirmed": None}
        if moment.kind == "instant" and not tracker.get_slot("burn_time"):
            out["burn_time"] = moment.start.strftime("%H:%M")
        return out

    def validate_burn_time(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_time": None}
        t = common.town()
        tz = ZoneInfo(t.timezone)
        if re.fullmatch(r"\d\d:\d\d", str(value)):
            at = time.fromisoformat(str(value))
        else:
            try:
                moment = when.resolve(str(value), t, now=common.now(t), prefer="future")
            except NeedsClarification:
                common.send_text(dispatcher, tracker, f"I couldn't tell what time you mean by \"{str(value).strip()}\". "
                                 "Could you give a time like '10 am' or '2:30 pm'?")
                return {"burn_time": None}
            if moment.kind != "instant":
                common.send_text(dispatcher, tracker, "About what time will you start? For example '10 am'.")
                return {"burn_time": None}
            at = moment.start.time()
        day_iso = tracker.get_slot("burn_date")
        if not day_iso or not re.fullmatch(r"\d{4}-\d\d-\d\d", str(day_iso)):
            return {"burn_time": at.strftime("%H:%M")}
        day = date.fromisoformat(day_iso)
        rise, set_, blocked, _ = _window(t, day)
        start = datetime.combine(day, at, tz)
        if rise and set_ and not (rise <= start <= set_):
            common.send_text(dispatcher, tracker,
                             f"On {when.words_for_day(day)} burning is allowed only between sunrise "
                             f"({when.words_for_time(rise)}) and sunset ({when.words_for_time(set_)}) (7.11). "
                             "What time will you start?")
            return {"burn_time": None}
        if start < common.now(t):
            common.send_text(dispatcher, tracker, "That time has already passed today. What time will you start?")
            return {"burn_time": None}
        return {"burn_time": at.strftime("%H:%M"), "burn_confirmed": None}

    def validate_burn_location(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_location": None}
        place = " ".join(str(value).split())
        if len(place) < 3 or len(place) > 200:
            common.send_text(dispatcher, tracker, "Where on the property will the fire be?")
            return {"burn_location": None}
        return {"burn_location": place}

    def _new_values(self, named: dict, text: str, dispatcher, tracker, domain) -> dict:
        """A correction that carries its new value ("no, the time is 3pm", "make it saturday", "the location
        is the north field"): checked like an answer to the question, so nothing needs asking again."""
        out: dict = {}
        said = common.when_text(tracker)
        if said:
            time_only = re.fullmatch(TIME_ONLY, said.strip())
            if "burn_date" in named or (not named and not time_only):
                out.update(self.validate_burn_date(said, dispatcher, tracker, domain))
            if "burn_time" in named or (not named and time_only):
                out.update(self.validate_burn_time(said, dispatcher, tracker, domain))
        checks = {"burner_name": self.validate_burner_name, "burn_address": self.validate_burn_address,
                  "burn_location": self.validate_burn_location}
        for slot, check in checks.items():
            m = re.search("(?:" + FIELD_WORDS[slot] + r")\s+(?:is|should be|to|=|:)\s+(.{2,})$", text, re.I)
            if slot in named and m:
                out.update(check(m.group(1).strip(" .!"), dispatcher, tracker, domain))
        return out

    def validate_burn_confirmed(self, value, dispatcher, tracker, domain):
        if value is None:  # cleared, not given: nothing to check
            return {"burn_confirmed": None}
        if value is True:
            return {"burn_confirmed": True}
        text = common.text_of(tracker)
        # "no, the phone is 608-555-0199" / "change the date": clear what they named so the form asks again
        cleared = {s: None for s, pattern in FIELD_WORDS.items() if re.search(pattern, text, re.I)}
        phone = _phone_in(text)
        if phone:
            cleared["burn_phone"] = phone
        cleared.update(self._new_values(cleared, text, dispatcher, tracker, domain))
        if cleared:
            return {**cleared, "burn_confirmed": None}
        common.send_text(dispatcher, tracker, "What should I change: name, address, phone, date, time or "
                         "location? You can give the new value too, e.g. 'phone 608-555-0142'.")
        return {"burn_confirmed": None}


def readback(tracker: Tracker) -> str:
    t = common.town()
    day = date.fromisoformat(tracker.get_slot("burn_date"))
    at = datetime.combine(day, time.fromisoformat(tracker.get_slot("burn_time")), ZoneInfo(t.timezone))
    return (f"Please check: name {tracker.get_slot('burner_name')}; address {tracker.get_slot('burn_address')}; "
            f"phone {tracker.get_slot('burn_phone')}; burning on {when.words_for_day(day)} at about "
            f"{when.words_for_time(at)}; location: {tracker.get_slot('burn_location')}. Is that all correct?")


class ActionAskBurnConfirmed(Action):
    """The read-back before saving."""

    def name(self) -> Text:
        return "action_ask_burn_form_burn_confirmed"

    async def run(self, dispatcher, tracker, domain):
        try:
            text = readback(tracker)
        except (TypeError, ValueError):
            text = "Is everything correct?"
        common.send_text(dispatcher, tracker, text, buttons=[{"title": "Yes, send it", "payload": "yes"},
                                                             {"title": "Change something", "payload": "no"}])
        return []


class ActionStartBurn(Action):
    def name(self) -> Text:
        return "action_start_burn"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        reset = [SlotSet(s, None) for s in BURN_SLOTS]
        if not _burning_covered(t):
            answer = handlers.topic(t, "burn_notification", on=common.now(t).date())
            return common.send(dispatcher, tracker, answer) + reset
        labels = [c.label for c in t.topics["burn_notification"].citations]
        cites = next((lb for lb in labels if lb.endswith("7.12(1)")), labels[0] if labels else t.code_name)
        common.send_text(dispatcher, tracker,
                         f"I'll record your burn notification for the Fire Department ({cites}). I need six "
                         "facts: name, address, phone, date, approximate time and location. Say 'cancel' any time.")
        return []


class ActionSubmitBurn(Action):
    def name(self) -> Text:
        return "action_submit_burn"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        reset = [SlotSet(s, None) for s in BURN_SLOTS]
        if not _burning_covered(t):
            return reset  # action_start_burn already said the code does not cover burning
        if tracker.get_slot("burn_confirmed") is not True:
            common.send_text(dispatcher, tracker, "Nothing was saved.")
            return reset
        day = date.fromisoformat(tracker.get_slot("burn_date"))
        at = time.fromisoformat(tracker.get_slot("burn_time"))
        start = datetime.combine(day, at, ZoneInfo(t.timezone))
        facts = dict(town=t.key, name=tracker.get_slot("burner_name"), address=tracker.get_slot("burn_address"),
                     phone=tracker.get_slot("burn_phone"), burn_date=day, location=tracker.get_slot("burn_location"),
                     approx_time=when.words_for_time(start))
        try:
            # Idempotent: if this action runs again for the same conversation and facts (the action server was
            # killed after storing but before answering, and the resident sent "yes" again), the stored
            # notification and its reference come back instead of a second record.
            record = common.store().add_burn_notification(
                **facts, channel=common.channel(tracker), conversation_id=tracker.sender_id,
                idempotency_key=burn_idempotency_key(tracker.sender_id, **facts))
        except Exception:
            log.exception("could not store a burn notification")
            common.send_text(dispatcher, tracker, "Sorry, I could not save your notification just now, so the Fire "
                             f"Department has NOT been notified. Please call: {t.fire_department or t.clerk}.")
            return reset
        rise, set_, _, _ = _window(t, day)
        common.send_text(dispatcher, tracker,
                         f"Saved. Your burn notification reference is {record.reference}: burning on "
                         f"{when.words_for_day(day)} at about {when.words_for_time(start)}. Quote it if the Fire "
                         f"Department asks. Burn only until sunset ({when.words_for_time(set_)}), attend the fire, "
                         "and check for a no-burning order before you light it.")
        return reset


class ActionCancelForm(Action):
    def name(self) -> Text:
        return "action_cancel_form"

    async def run(self, dispatcher, tracker, domain):
        dispatcher.utter_message(response="utter_cancelled")
        return [ActiveLoop(None), SlotSet("requested_slot", None)] + [
            SlotSet(s, None) for s in LICENSE_SLOTS + BURN_SLOTS]
