"""Starting the burn notice, reading it back, and storing it (Dunkirk 7.12(1)): the form's start, its
confirmation question and its submission, in a town whose code has the fire department told of a burn."""
from __future__ import annotations

import logging
from datetime import date, datetime, time
from typing import Text
from zoneinfo import ZoneInfo

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet

from knowledge import burn_hours, handlers, when
from records import burn_idempotency_key

from . import common, dialogue
from .burn_form import BURN_SLOTS, asked_how_to_notify, burning_covered
from .burn_times import burn_window, closing_words

log = logging.getLogger(__name__)


def readback(tracker: Tracker) -> str:
    """The six facts in words, ending "Is that all correct?"."""
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
    """Says what the form will ask (citing the town's notify-first rule, Dunkirk 7.12(1)), or, where the code has
    no notification (Mequon) or a permit comes first (town.yml `burning.before: permit`), the topic's answer."""

    def name(self) -> Text:
        return "action_start_burn"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        reset = [SlotSet(s, None) for s in BURN_SLOTS]
        if not burning_covered(t) or asked_how_to_notify(tracker):
            answer = handlers.topic(t, "burn_notification", on=common.now(t).date(),
                                    question=common.text_of(tracker))
            sent = common.send(dispatcher, tracker, answer)
            if burning_covered(t):
                common.send_text(dispatcher, tracker, "I can record your notification for the Fire Department here: "
                                                      "say 'I want to notify a burn'.")
            # what follows ("it's for Saturday morning", "can you pass it on?") goes on from this answer
            return sent + reset + dialogue.asked(dialogue.Turn("notify_burn", tracker))
        rule = t.topics["burn_notification"].rules.get(burn_hours.scheme(t).before_rule)
        labels = [c.label for c in t.topics["burn_notification"].citations]
        cites = rule.citation.label if rule and rule.citation else (labels[0] if labels else t.code_name)
        common.send_text(dispatcher, tracker,
                         f"I'll record your burn notification for the Fire Department ({cites}). I need six "
                         "facts: name, address, phone, date, approximate time and location. "
                         f"Say '{common.leave_word(tracker)}' any time.")
        return []


class ActionSubmitBurn(Action):
    """Stores the confirmed notification (once, however often it runs) and gives its reference."""

    def name(self) -> Text:
        return "action_submit_burn"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        reset = [SlotSet(s, None) for s in BURN_SLOTS]
        if not burning_covered(t) or asked_how_to_notify(tracker):
            return reset  # action_start_burn answered: no notification (none in the code, or a permit), or how
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
        window = burn_window(t, day, at=start)[3]
        common.send_text(dispatcher, tracker,
                         f"Saved. Your burn notification reference is {record.reference}: burning on "
                         f"{when.words_for_day(day)} at about {when.words_for_time(start)}. Quote it if the Fire "
                         f"Department asks. Burn only until {window.data.get('until') or closing_words(t, day)}, attend the fire, "
                         "and check for a no-burning order before you light it.")
        return reset
