"""What both forms share: reading a reply as a value, answering a question asked mid-form, and validation
methods that only see real values."""
from __future__ import annotations

import functools
import re
from abc import abstractmethod
from typing import Any, Dict, List, Optional, Text

from rasa_sdk import FormValidationAction, Tracker
from rasa_sdk.events import EventType, SlotSet

from . import common
from .answers import ActionAnswer
from .last_answer import ActionMore, ActionWhy
from .replies import ActionClarify, ActionGreet, ActionHandoff, ActionHelp, ActionOutOfScope
from .parsing import asks_a_change, asks_to_notify, fields_named, new_value


def takes_values(tracker: Tracker, *slots: str) -> bool:
    """Does the latest message carry values for ``slots``? Value intents do; so does a statement that is not a
    question or a command answering the question asked for one of ``slots`` ("got them in May" read as
    another intent)."""
    intent = common.intent_of(tracker)
    if intent in common.VALUE_INTENTS:
        return True
    return (tracker.get_slot("requested_slot") in slots and intent not in common.COMMAND_INTENTS
            and not common.looks_like_question(common.text_of(tracker)))


def free_text(tracker: Tracker, slot: str, open_answer: bool = False) -> Optional[str]:
    """The reply's text when it answers the question asked for ``slot``. ``open_answer``: the question takes any
    words (a name, an address, a place), which NLU often reads as out_of_scope ("My name is Parker Hanson",
    "the back field behind barn 96"); such a reply, not a question, is the answer (the read-back shows it)."""
    if tracker.get_slot("requested_slot") != slot:
        return None
    intent = common.intent_of(tracker)
    text = common.text_of(tracker)
    if not text or (intent in common.COMMAND_INTENTS and not (open_answer and _not_a_command(intent, text))):
        return None
    if open_answer and intent == "notify_burn" and asks_to_notify(text):
        return None  # "I want to notify the fire department of a burn" sent again: not a name, address or place
    if open_answer and changes_another_field(text, slot):
        return None  # "change the address to N1243 Hwy 51" answering "where on the property?"
    if intent in common.VALUE_INTENTS or not common.looks_like_question(text):
        return text
    return None


_COMMAND_WORDS = re.compile(r"\b(help|person|human|someone|somebody|clerk|bye|goodbye|thanks|thank|hello|hi|hey|"
                            r"stop|exit|cancel|quit|more|menu|robot|bot)\b", re.I)


def _not_a_command(intent: str, text: str) -> bool:
    """A reply to an open question ("your full name?") that NLU read as a command or small talk ("Lisa
    Haugen" as human_handoff) is still the answer, unless it has a command's words."""
    return intent != "cancel" and not _COMMAND_WORDS.search(text)


def changes_another_field(text: str, slot: str) -> bool:
    """"change the address to ...", "the phone is ...": a correction of another fact, not this one's answer."""
    named = [f for f in fields_named(text) if f != slot]
    return bool(named) and (asks_a_change(text) or any(new_value(f, text) for f in named))


def given(validate):
    """For ``validate_<slot>``: a slot cleared to None (a new form, a correction) is not an answer; it stays
    None without a word, so the method only checks real values."""
    slot = validate.__name__.removeprefix("validate_")

    @functools.wraps(validate)
    def checked(self, value, dispatcher, tracker, domain) -> Dict[Text, Any]:
        if value is None:
            return {slot: None}
        return validate(self, value, dispatcher, tracker, domain)
    return checked


# ----------------------------------------------------------------------------------------- digressions
# A question asked mid-form ("wait, what can't I burn?") is answered by the form's validation action itself and
# the form asks its question again. Doing it here instead of with one rule per intent and form keeps
# RulePolicy small (measured: rule matching was ~8 ms of a 36 ms turn with 150 rules).

_UTTER = {"bot_challenge": "utter_iamabot", "thank": "utter_thank"}
_ACTIONS = {"help": ActionHelp, "human_handoff": ActionHandoff, "out_of_scope": ActionOutOfScope,
            "greet": ActionGreet, "more": ActionMore, "nlu_fallback": ActionClarify, "ask_why": ActionWhy}
#: besides every ask_<topic> intent, the intents that are a question or request of their own mid-form
DIGRESSION_INTENTS = {"help", "human_handoff", "out_of_scope", "greet", "more", "bot_challenge", "thank",
                      "nlu_fallback", "notify_burn", "ask_why", "followup"}


async def answer_digression(dispatcher, tracker, domain, subject: frozenset = frozenset()) -> List[EventType]:
    """Answer the message as if no form were open, except that a question naming no topic of its own is taken to
    be on the form's ``subject`` (its family of intents): mid burn notice, "how far from the house does it have to
    be?" asks the burning setbacks (support.supported_intent)."""
    intent = common.intent_of(tracker)
    tracker.latest_message["form_subject"] = sorted(subject)
    if intent in _UTTER:
        dispatcher.utter_message(response=_UTTER[intent])
        return []
    return list(await _ACTIONS.get(intent, ActionAnswer)().run(dispatcher, tracker, domain))


class FormValidator(FormValidationAction):
    """A form's validation action that also answers questions asked mid-form, then asks its question again."""

    #: intents that start this form: sent again mid-form, they are not a digression
    opening_intents: frozenset[str] = frozenset()
    #: the questions of the form's subject: one asked mid-form that names no topic of its own (and no animal) is
    #: answered as read, without the subject's words; never one whose answer is whether one may burn at a time
    subject_questions: tuple[str, ...] = ()

    @abstractmethod
    def name(self) -> Text:
        """validate_<form>; abstract, so the action server does not register this base class itself."""

    def is_digression(self, tracker: Tracker, events: List[EventType]) -> bool:
        """The reply filled nothing and is a question or request of its own."""
        intent = common.intent_of(tracker)
        if not tracker.get_slot("requested_slot") or tracker.active_loop.get("name") != self.form_name():
            return False
        if any(e.get("event") == "slot" and e.get("name") != "requested_slot" for e in events):
            return False
        if intent in self.opening_intents:
            return False
        return intent.startswith("ask_") or intent in DIGRESSION_INTENTS

    async def run(self, dispatcher, tracker, domain):
        events = await super().run(dispatcher, tracker, domain)
        if self.is_digression(tracker, events):
            # the answer is sent; setting the requested slot again makes the form ask its question again
            subject = frozenset(self.subject_questions)
            answered = await answer_digression(dispatcher, tracker, domain, subject)
            slot = tracker.get_slot("requested_slot")
            return events + answered + [SlotSet(slot, tracker.get_slot(slot))]
        return events
