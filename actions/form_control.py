"""Stopping a form: "cancel" (said, with every answer forgotten) and leaving the license questions for another
form ("actually I want to notify a burn")."""
from __future__ import annotations

from typing import Text

from rasa_sdk import Action
from rasa_sdk.events import ActiveLoop, SlotSet

from .burn_form import BURN_SLOTS
from .license_form import LICENSE_SLOTS


def stop_form(slots: list[str]) -> list:
    """Events that end the active form and forget ``slots``."""
    return [ActiveLoop(None), SlotSet("requested_slot", None)] + [SlotSet(s, None) for s in slots]


class ActionCancelForm(Action):
    """ "cancel": says so (utter_cancelled) and forgets the answers of both forms."""

    def name(self) -> Text:
        return "action_cancel_form"

    async def run(self, dispatcher, tracker, domain):
        dispatcher.utter_message(response="utter_cancelled")
        return stop_form(LICENSE_SLOTS + BURN_SLOTS)


class ActionLeaveLicenseForm(Action):
    """Stops the license form without a word and forgets its answers, so that the next form starts clean."""

    def name(self) -> Text:
        return "action_leave_license_form"

    async def run(self, dispatcher, tracker, domain):
        return stop_form(LICENSE_SLOTS)
