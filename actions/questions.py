"""The forms' questions (action_ask_<form>_<slot>): one message each, SMS-safe, with buttons where useful."""
from __future__ import annotations

from typing import Any, Dict, List, Text

from datetime import date

from rasa_sdk import Action

from knowledge import burn_hours, when
from knowledge.model import PLACEHOLDER

from . import common
from .license_answer import price_before_acquired

YES_NO = [{"title": "Yes", "payload": "yes"}, {"title": "No", "payload": "no"}]
QUESTIONS: dict[str, tuple[str, list]] = {
    "license_form_dog_count": ("How many dogs are you licensing?", []),
    "license_form_dogs_neutered": ("Are they spayed or neutered? (all, none, or how many)",
                                   [{"title": "All are", "payload": "they are all spayed or neutered"},
                                    {"title": "None are", "payload": "not fixed"}]),
    "license_form_service_dog": ("Is any of them a service dog?", YES_NO),
    "license_form_acquired": ("When did you get the dog, or move to town with it? (a date, or 'over a year ago')",
                              []),
    "license_form_purchase_day": ("When will you buy the license? (for example 'today' or 'March 3')", []),
    "license_form_licensable_age_on": ("On what day did (or will) your dog turn {dog_license.licensable_age_months} "
                                       "old? (the late fee and a half-price license depend on it)", []),
    "burn_form_burner_name": ("First, your full name?", []),
    "burn_form_burn_address": ("Your address? (for example N1234 County Road K)", []),
    "burn_form_burn_phone": ("A phone number where the fire department can reach you?", []),
    "burn_form_burn_date": ("What day will you burn?", []),
    "burn_form_burn_time": ("About what time will you start? (burning is allowed only between {opens} and {closes})",
                            []),
    "burn_form_burn_location": ("Where on the property will the fire be? (for example 'behind the barn, 100 feet "
                                "from the house')", []),
}

#: the license form's questions when one dog is being licensed ("how much for my dog?"): never "are they ...?"
ONE_DOG: dict[str, tuple[str, list]] = {
    "license_form_dogs_neutered": ("Is your dog spayed or neutered?", YES_NO),
    "license_form_service_dog": ("Is it a service dog?", YES_NO),
}


def question_for(key: str, tracker) -> tuple[str, list]:
    """The question for ``key``, in the singular when the license form counts one dog; the burning window's ends
    as the town's scheme names them ("sunrise and sunset", "12:00 p.m. and 7:00 p.m."); the town's parameters
    (the licensable age) as in force today."""
    if key in ONE_DOG and tracker.get_slot("dog_count") == 1:
        return ONE_DOG[key]
    text, buttons = QUESTIONS[key]
    if key == "license_form_acquired":
        price = price_before_acquired(tracker)
        text = f"{price} {text}" if price else text
    if "{opens}" in text:
        text = text.format(**window_ends(tracker))
    elif PLACEHOLDER.search(text):  # the town's parameters in force today: "turn 5 months old"
        t = common.town()
        text = t.render(text, common.now(t).date())
    return text, buttons


def window_ends(tracker) -> dict:
    """{"opens": ..., "closes": ...}: the words for the ends of the burning window of the day asked about (the
    form's burn_date, else today), from the town's scheme (knowledge/burn_hours.py)."""
    t = common.town()
    said = tracker.get_slot("burn_date")
    try:
        day = date.fromisoformat(str(said)) if said else common.now(t).date()
    except ValueError:
        day = common.now(t).date()
    w = burn_hours.window(t, day)

    def clock(at) -> str:
        return when.words_for_time(at).rsplit(" ", 1)[0]  # "12:00 p.m." (the zone left off)
    return {"opens": w.start_word or clock(w.start), "closes": w.end_word or clock(w.end)}


class _Ask(Action):
    key = ""

    def name(self) -> Text:
        return f"action_ask_{self.key}"

    async def run(self, dispatcher, tracker, domain) -> List[Dict[Text, Any]]:
        text, buttons = question_for(self.key, tracker)
        if asked_before(tracker, text):
            text += " " + stop_hint(tracker)
        common.send_text(dispatcher, tracker, text, buttons=buttons or None)
        return []


STOP_HINT = "(Or say '{word}' to stop these questions.)"


def stop_hint(tracker) -> str:
    """How to leave the questions: 'cancel' on the web, 'exit' on SMS (CANCEL is a carrier opt-out keyword)."""
    return STOP_HINT.format(word=common.leave_word(tracker))


def asked_before(tracker, question: str) -> bool:
    """The same question was the bot's last question before the resident's latest reply: they are stuck (or
    asking something else), so the re-ask says how to get out."""
    seen_user = False
    for event in reversed(tracker.events):
        kind = event.get("event")
        if kind == "user":
            if seen_user:
                return False
            seen_user = True
        elif kind == "bot" and seen_user and (event.get("text") or "").startswith(question):
            return True
    return False


# one class per question: rasa_sdk registers every Action subclass by its name()
ASK_ACTIONS = [type(f"ActionAsk_{k}", (_Ask,), {"key": k}) for k in QUESTIONS]
