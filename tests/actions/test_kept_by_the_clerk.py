"""What the clerk keeps on the web reaches the action server's next answer without a restart (records/kept.py,
actions/common.as_kept): an amount set on the "Fees" page, a phone number set on the "Contacts" page."""
from __future__ import annotations

import asyncio
from datetime import date

import pytest
from rasa_sdk.executor import CollectingDispatcher

from actions import common
from actions.answers import ActionAnswer
from actions.license_answer import ActionLicenseAnswer
from knowledge import town as configured_town
from records import kept
from tests.actions.action_helpers import make_tracker, texts

pytestmark = pytest.mark.kept_by_the_clerk


@pytest.fixture(autouse=True)
def read_every_time(monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 0.0)


def said(action, tracker) -> str:
    d = CollectingDispatcher()
    asyncio.run(action.run(d, tracker, {}))
    return texts(d)[0]


def test_a_license_answer_uses_the_amount_the_clerk_set_from_its_next_answer():
    tr = make_tracker("today", "inform", slots={"dog_count": 1.0, "dogs_neutered": "all", "service_dog": "0",
                                               "acquired": "long ago", "purchase_day": "2026-07-02"})
    before = said(ActionLicenseAnswer(), tr)
    assert "$10.00" not in before
    common.store().set_fee(town=configured_town(), parameter="dog_license.tax.neutered", value=10,
                           since=date(2026, 1, 1), source="Town Board resolution 2026-3", entered_by="ann")
    after = said(ActionLicenseAnswer(), tr)
    assert "$10.00" in after and after != before


def test_an_answer_that_sends_a_resident_to_the_clerk_gives_the_number_the_clerk_set_and_not_after_undo(
        monkeypatch):
    mequon = configured_town("mequon")  # its code is silent on burning: "please ask the Mequon Clerk"
    monkeypatch.setattr(common, "configured_town", lambda: mequon)
    tr = make_tracker("can I burn brush in my yard?", "ask_burning_rules")
    assert "(262) 555-0142" not in said(ActionAnswer(), tr)
    change = common.store().set_contact(town="mequon", office="clerk", phone="262-555-0142", entered_by="ann")
    assert "(262) 555-0142" in said(ActionAnswer(), tr).split("\n")[0]
    common.store().withdraw_contact(town="mequon", change_id=change.id, withdrawn_by="ann", reason="wrong line")
    assert "(262) 555-0142" not in said(ActionAnswer(), tr)


def test_a_records_store_that_will_not_open_leaves_answers_as_loaded_and_is_not_retried_on_every_call(monkeypatch):
    attempts = []

    def will_not_open():
        attempts.append(1)
        raise OSError("could not connect to server")
    monkeypatch.setattr(common, "store", will_not_open)
    monkeypatch.setattr(common, "_STORE_FAILED_AT", float("-inf"))
    t = configured_town()
    assert common.as_kept(t) is t and common.as_kept(t) is t
    assert len(attempts) == 1
