"""The license cost computed from the form's answers (knowledge.handlers.license_cost): the price told before
asking when the dog came, the answer, and a follow-up that changes one input ("and if she's spayed?")."""
from __future__ import annotations

import re
from datetime import date
from typing import List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import EventType, SlotSet

from knowledge import NeedsClarification, handlers, when

from . import common, dialogue, parsing
from .license_form import LICENSE_SLOTS, license_inputs, license_inputs_on
from .numbers import first_number


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
