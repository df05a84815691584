"""Leaving one form for another: "actually I want to notify a burn" while the license questions are open."""
from __future__ import annotations

from typing import Text

from rasa_sdk import Action
from rasa_sdk.events import ActiveLoop, SlotSet

from .forms import LICENSE_SLOTS


class ActionLeaveLicenseForm(Action):
    """Stops the license form without a word and forgets its answers, so that the next form starts clean."""

    def name(self) -> Text:
        return "action_leave_license_form"

    async def run(self, dispatcher, tracker, domain):
        return [ActiveLoop(None), SlotSet("requested_slot", None)] + [SlotSet(s, None) for s in LICENSE_SLOTS]
