"""Leaving the license questions for a burn notification."""
from __future__ import annotations

import asyncio

from rasa_sdk.executor import CollectingDispatcher

from actions.form_control import ActionLeaveLicenseForm
from actions.license_form import LICENSE_SLOTS
from tests.actions.action_helpers import make_tracker


def test_leaving_the_license_form_forgets_its_answers_and_says_nothing():
    tracker = make_tracker("actually i want to notify a burn", "notify_burn", active_loop="license_form",
                           slots={"dog_count": 2, "dogs_neutered": 2, "requested_slot": "service_dog"})
    d = CollectingDispatcher()
    events = asyncio.run(ActionLeaveLicenseForm().run(d, tracker, {}))
    assert d.messages == []
    assert {"event": "active_loop", "name": None, "timestamp": None} in events
    cleared = {e["name"] for e in events if e.get("event") == "slot" and e["value"] is None}
    assert cleared == set(LICENSE_SLOTS) | {"requested_slot"}


def test_a_question_asked_again_says_how_to_stop():
    from rasa_sdk import Tracker
    from actions.questions import ASK_ACTIONS, QUESTIONS, STOP_HINT
    ask = next(a for a in ASK_ACTIONS if a().name() == "action_ask_license_form_purchase_day")()
    question = QUESTIONS["license_form_purchase_day"][0]

    def tracker(events):
        return Tracker("t", {}, {"intent": {"name": "inform"}, "entities": [], "text": "x"}, events, False, None,
                       {"name": "license_form"}, "action_listen")
    first = [{"event": "user", "text": "how much is a license"}]
    d = CollectingDispatcher()
    asyncio.run(ask.run(d, tracker(first), {}))
    assert "to stop these questions" not in d.messages[0]["text"]
    again = first + [{"event": "bot", "text": question}, {"event": "user", "text": "burn notice"}]
    d = CollectingDispatcher()
    asyncio.run(ask.run(d, tracker(again), {}))
    assert d.messages[0]["text"] == f"{question} {STOP_HINT.format(word='cancel')}"


def test_on_sms_the_way_out_of_a_form_is_not_a_carrier_opt_out_word():
    """'cancel' on SMS unsubscribes the number at the carrier (CANCEL, STOP, END, QUIT, UNSUBSCRIBE, STOPALL)."""
    from rasa_sdk import Tracker
    from actions.questions import ASK_ACTIONS, QUESTIONS
    ask = next(a for a in ASK_ACTIONS if a().name() == "action_ask_license_form_purchase_day")()
    question = QUESTIONS["license_form_purchase_day"][0]
    events = [{"event": "user", "text": "how much is a license", "metadata": {"channel": "sms"}},
              {"event": "bot", "text": question}, {"event": "user", "text": "x", "metadata": {"channel": "sms"}}]
    d = CollectingDispatcher()
    asyncio.run(ask.run(d, Tracker("sms:abc", {}, {"intent": {"name": "inform"}, "entities": [], "text": "x",
                                                   "metadata": {"channel": "sms"}}, events, False, None,
                                   {"name": "license_form"}, "action_listen"), {}))
    text = d.messages[0]["text"].lower()
    assert "'exit'" in text
    assert not {"cancel", "stop", "end", "quit", "unsubscribe", "stopall"} & set(
        w.strip("'().,") for w in text.split() if "'" in w)
