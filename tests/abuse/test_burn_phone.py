"""The burn form's phone question (actions/burn_form.py validate_burn_phone, policy in records/phones.py): a
number the town would not text (premium, toll-free, non-US with +1, not a number) is refused with a message
that says which numbers are taken and that alerts are capped; a US number is read back as the resident knows it."""

from __future__ import annotations

import pytest
from rasa_sdk.executor import CollectingDispatcher

from tests.actions.action_helpers import make_tracker, texts


def _validate(value):
    from actions.burn_form import ValidateBurnForm
    d = CollectingDispatcher()
    tracker = make_tracker(str(value), slots={"requested_slot": "burn_phone"}, active_loop="burn_form")
    return ValidateBurnForm().validate_burn_phone(value, d, tracker, {}), texts(d)


@pytest.mark.parametrize("number", ["+1 900 555 0142", "900-555-0142", "(876) 555-0142", "+1 416 555 0142",
                                    "800-555-0142", "+1 500 555 0142"])
def test_the_burn_form_refuses_a_number_the_town_would_not_text(number, monkeypatch):
    monkeypatch.setenv("TOWN", "dunkirk")
    slots, said = _validate(number)
    assert slots == {"burn_phone": None}
    assert said and "US phone number that can get text messages" in said[0] and "at most 5 texts a day" in said[0]


def test_the_burn_form_takes_a_us_number_and_reads_it_back_as_given(monkeypatch):
    monkeypatch.setenv("TOWN", "dunkirk")
    slots, said = _validate("608-555-0142")
    assert slots["burn_phone"] == "(608) 555-0142" and said == []
