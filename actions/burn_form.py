"""The burn notification form (Dunkirk 7.12(1)): six facts, checked against the town's burning hours (Dunkirk
7.11; knowledge/burn_hours.py reads each town's scheme) and any no-burning order (7.10(4)), read back, then
stored with a reference (burn_notice.py). Only a town whose scheme notifies first (town.yml `burning.before:
notify`) runs it; the words of the law (the hours, the rules cited) come from the town's data."""
from __future__ import annotations

from datetime import date, datetime, time
from typing import List, Text
from zoneinfo import ZoneInfo

from rasa_sdk import Tracker

from knowledge import NeedsClarification, burn_hours, when
from records.phones import burn_notice_phone, refused_message

from . import common, parsing
from .burn_times import burn_window, closed_at, daylight_reading, resolve_with_pending
from .burn_reading import BurnFormReading
from .form_base import FormValidator, given


BURN_SLOTS = ["burner_name", "burn_address", "burn_phone", "burn_date", "burn_time", "burn_location",
              "burn_confirmed"]


def burning_covered(t) -> bool:
    """Does the town take burn notifications? Its code covers `burn_notification` (Mequon's does not) and its
    scheme has the fire department notified before a burn (town.yml `burning.before: notify`); a permit town
    gets its `burn_notification` topic's answer (get a permit first), never a notification form."""
    topic = t.topics.get("burn_notification")
    return bool(topic and topic.covered) and burn_hours.scheme(t).before == "notify"


def _rule_ref(t, topic: str, rule: str) -> str:
    """The short reference of a rule of the town ("7.10(4)"); "" when the town has no such rule."""
    r = t.topics[topic].rules.get(rule) if topic in t.topics else None
    return r.citation.label.removeprefix(t.code_name).strip() if r and r.citation else ""


def asked_how_to_notify(tracker: Tracker) -> bool:
    """The message that opened the form asks how to give notice ("what number do I call?"): it is answered
    (7.12(1)) and the form asks nothing, stores nothing."""
    return (common.intent_of(tracker) == "notify_burn" and not tracker.get_slot("requested_slot")
            and not any(tracker.get_slot(s) for s in BURN_SLOTS) and not common.entities(tracker, "when")
            and parsing.asks_how_to_notify(common.text_of(tracker) or ""))


class ValidateBurnForm(BurnFormReading, FormValidator):
    opening_intents = frozenset({"notify_burn"})
    subject_questions = ("ask_burn_setbacks", "ask_prohibited_materials", "ask_burn_notification")

    def name(self) -> Text:
        return "validate_burn_form"

    async def required_slots(self, domain_slots, dispatcher, tracker, domain) -> List[Text]:
        # A town whose code does not cover burning (Mequon) never runs the form.
        if not burning_covered(common.town()) or asked_how_to_notify(tracker):
            return []
        return domain_slots

    # validation
    @given
    def validate_burner_name(self, value, dispatcher, tracker, domain):
        name = parsing.clean_name(value)
        if name is None:
            common.clarify(dispatcher, tracker, "Please tell me your name (for example 'Pat Olson').")
        return {"burner_name": name}

    @given
    def validate_burn_address(self, value, dispatcher, tracker, domain):
        address = parsing.street_address(value)
        if address is None:
            common.clarify(dispatcher, tracker, "I need a street address with a house number, like "
                           "'N1234 County Road K' or '2345 Hwy 51'. What is your address?")
        return {"burn_address": address}

    @given
    def validate_burn_phone(self, value, dispatcher, tracker, domain):
        if str(value).startswith("invalid:"):
            common.clarify(dispatcher, tracker, "That doesn't look like a phone number I can use. Please "
                           "give a 10-digit number, like 608-555-0142.")
            return {"burn_phone": None}
        phone = burn_notice_phone(value)  # records/phones.py: a US number that can receive texts
        if phone is None:
            common.clarify(dispatcher, tracker, refused_message())
            return {"burn_phone": None}
        return {"burn_phone": phone, "burn_confirmed": None}

    @given
    def validate_burn_date(self, value, dispatcher, tracker, domain):
        t = common.town()
        now = common.now(t)
        try:
            moment = when.resolve(str(value), t, now=now, prefer="future")
        except when.AmbiguousTime as exc:  # "tomorrow at 9": the day is sure; ask which 9, then the time
            try:
                day = when.parse_day(str(value), t, now=now, prefer="future")
            except NeedsClarification:
                common.clarify(dispatcher, tracker, exc)
                return {"burn_date": None}
            common.clarify(dispatcher, tracker, exc)
            return {"burn_date": day.isoformat(), "burn_time": None, "burn_confirmed": None,
                    "pending_when": {"phrase": str(value)}}
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc)
            return {"burn_date": None}
        day = moment.day
        if day < now.date():
            common.clarify(dispatcher, tracker, f"I understood {when.words_for_day(day)}, which has passed. "
                           "Which day will you burn?")
            return {"burn_date": None}
        _, _, blocked, window = burn_window(t, day)
        if blocked and not burn_hours.window(t, day).open:  # a day the town closes (a Sunday, a legal holiday)
            common.clarify(dispatcher, tracker, f"{window.data['hours']} Which day will you burn?")
            return {"burn_date": None}
        if blocked:
            ref = _rule_ref(t, "no_burning_order", "order_in_effect")
            common.send_text(dispatcher, tracker, "A no-burning order is in effect, so no open burning is allowed"
                             + (f" ({ref})" if ref else "") + ". Nothing was saved; please notify again once the "
                             "order is lifted.")
            return {"burn_date": None, "requested_slot": None}
        out = {"burn_date": day.isoformat(), "burn_confirmed": None}
        if moment.kind == "instant" and not tracker.get_slot("burn_time"):
            out["burn_time"] = moment.start.strftime("%H:%M")
        return out

    @given
    def validate_burn_time(self, value, dispatcher, tracker, domain):
        t = common.town()
        tz = ZoneInfo(t.timezone)
        day_iso = tracker.get_slot("burn_date")
        day = date.fromisoformat(day_iso) if day_iso and parsing.is_iso_date(str(day_iso)) else None
        hour = parsing.bare_hour(str(value))
        if parsing.is_clock_time(str(value)):
            at = time.fromisoformat(str(value))
        elif hour is not None and 13 <= hour[0] <= 23:
            at = time(*hour)  # "15": a 24-hour clock
        elif hour is not None and day is not None and not tracker.get_slot("pending_when"):
            picked = daylight_reading(t, day, *hour)
            if picked is None:  # both readings within the hours, or neither: ask which is meant
                h, m = hour
                said = f"{h}:{m:02d}" if m else str(h)
                common.clarify(dispatcher, tracker, f"Do you mean {said} in the morning (a.m.) or {said} in the "
                                                    "evening (p.m.)?")
                return {"burn_time": None, "pending_when": {"phrase": f"at {said}"}}
            at = picked
        else:
            try:
                moment = resolve_with_pending(str(value), tracker, t)
            except when.AmbiguousTime as exc:  # "at 9": ask which, and read the pick against "at 9"
                if not any(exc.message in (m.get("text") or "") for m in dispatcher.messages):
                    common.clarify(dispatcher, tracker, exc)  # (not again when the date's check asked it)
                return {"burn_time": None, "pending_when": {"phrase": str(value)}}
            except NeedsClarification as exc:
                common.clarify(dispatcher, tracker, exc.message + " Could you give a time like '10 am' or '2:30 pm'?")
                return {"burn_time": None}
            if moment.kind != "instant":
                if day is not None:  # "after dark", "tonight": refused when it lies outside the hours
                    start = datetime.combine(day, moment.start.time(), tz)
                    window = burn_window(t, day, at=start)[3]
                    if window.value and not window.value["open_at"]:
                        common.send_text(dispatcher, tracker, f"{closed_at(start, window, t)} {window.data['hours']} "
                                                              "What time will you start?")
                        return {"burn_time": None, "pending_when": None}
                common.clarify(dispatcher, tracker, "About what time will you start? For example '10 am'.")
                return {"burn_time": None}
            at = moment.start.time()
        if day is None:
            return {"burn_time": at.strftime("%H:%M")}
        start = datetime.combine(day, at, tz)
        window = burn_window(t, day, at=start)[3]
        if window.value and not window.value["open_at"]:
            common.send_text(dispatcher, tracker, f"{closed_at(start, window, t)} {window.data['hours']} "
                                                  "What time will you start?")
            return {"burn_time": None, "pending_when": None}
        if start < common.now(t):
            common.send_text(dispatcher, tracker, "That time has already passed today. What time will you start?")
            return {"burn_time": None}
        return {"burn_time": at.strftime("%H:%M"), "burn_confirmed": None, "pending_when": None}

    @given
    def validate_burn_location(self, value, dispatcher, tracker, domain):
        place = parsing.clean_place(value)
        if place is None:
            common.clarify(dispatcher, tracker, "Where on the property will the fire be?")
        return {"burn_location": place}

    def _new_values(self, named: dict, text: str, dispatcher, tracker, domain) -> dict:
        """A correction that carries its new value ("no, the time is 3pm", "make it saturday", "the location
        is the north field"): checked like an answer to the question, so nothing needs asking again."""
        out: dict = {}
        said = common.when_text(tracker)
        if said:
            time_only = parsing.is_time_only(said)
            if "burn_date" in named or (not named and not time_only):
                out.update(self.validate_burn_date(said, dispatcher, tracker, domain))
            if "burn_time" in named or (not named and time_only):
                out.update(self.validate_burn_time(said, dispatcher, tracker, domain))
        checks = {"burner_name": self.validate_burner_name, "burn_address": self.validate_burn_address,
                  "burn_location": self.validate_burn_location}
        for slot, check in checks.items():
            value = parsing.new_value(slot, text)
            if slot in named and value:
                out.update(check(value, dispatcher, tracker, domain))
        return out

    @given
    def validate_burn_confirmed(self, value, dispatcher, tracker, domain):
        if value is True:
            return {"burn_confirmed": True}
        text = common.text_of(tracker)
        # "no, the phone is 608-555-0199" / "change the date": clear what they named so the form asks again
        cleared = {s: None for s in parsing.fields_named(text)}
        phone = parsing.phone_in(text)
        if phone:
            cleared["burn_phone"] = phone
        cleared.update(self._new_values(cleared, text, dispatcher, tracker, domain))
        if cleared:
            return {**cleared, "burn_confirmed": None}
        common.send_text(dispatcher, tracker, "What should I change: name, address, phone, date, time or "
                         "location? You can give the new value too, e.g. 'phone 608-555-0142'.")
        return {"burn_confirmed": None}
