"""The slot lists in actions/ agree with the domain (bot/domain/*.yml): a slot renamed on one side only would
make the forms ask forever or the reset forget an answer."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import yaml
from rasa_sdk.executor import CollectingDispatcher

from actions.burn_form import BURN_SLOTS, ValidateBurnForm
from actions.form_control import ActionCancelForm, ActionLeaveLicenseForm
from actions.license_form import LICENSE_SLOTS, ValidateLicenseForm
from tests.actions.action_helpers import make_tracker

DOMAIN_DIR = Path(__file__).resolve().parents[2] / "bot" / "domain"


def domain() -> dict:
    merged: dict = {"slots": {}, "forms": {}, "actions": []}
    for path in sorted(DOMAIN_DIR.glob("*.yml")):
        part = yaml.safe_load(path.read_text()) or {}
        merged["slots"].update(part.get("slots") or {})
        merged["forms"].update(part.get("forms") or {})
        merged["actions"] += part.get("actions") or []
    return merged


def test_every_slot_the_actions_name_is_in_the_domain():
    slots = domain()["slots"]
    missing = [s for s in LICENSE_SLOTS + BURN_SLOTS if s not in slots]
    assert missing == []


def test_the_forms_ask_for_exactly_the_slots_the_actions_reset():
    forms = domain()["forms"]
    # the day the dog turns 5 months is asked only when the answer depends on it (required_slots adds it)
    assert forms["license_form"]["required_slots"] + ["licensable_age_on"] == LICENSE_SLOTS
    assert forms["burn_form"]["required_slots"] == BURN_SLOTS


def test_the_validation_actions_are_named_for_the_domain_forms():
    forms = domain()["forms"]
    for action in (ValidateLicenseForm(), ValidateBurnForm()):
        assert action.form_name() in forms


def test_the_validation_actions_require_the_domain_slots():
    d = domain()
    for action in (ValidateLicenseForm(), ValidateBurnForm()):
        form = action.form_name()
        tracker = make_tracker("", "inform", active_loop=form)
        required = asyncio.run(action.required_slots(action.domain_slots(d), CollectingDispatcher(), tracker, d))
        assert required == d["forms"][form]["required_slots"], form


def test_cancel_forgets_every_form_slot_and_leaving_forgets_the_license_slots():
    for action, slots in ((ActionCancelForm(), LICENSE_SLOTS + BURN_SLOTS), (ActionLeaveLicenseForm(), LICENSE_SLOTS)):
        events = asyncio.run(action.run(CollectingDispatcher(), make_tracker("cancel", "cancel"), {}))
        cleared = {e["name"] for e in events if e.get("event") == "slot" and e["value"] is None}
        assert cleared == set(slots) | {"requested_slot"}
        assert cleared - {"requested_slot"} <= set(domain()["slots"])


def test_the_entry_point_registers_every_action_the_domain_lists():
    # a fresh interpreter: only what actions/actions.py imports is registered (not what these tests imported)
    code = ("from rasa_sdk.executor import ActionExecutor; e = ActionExecutor(); "
            "e.register_package('actions.actions'); print('\\n'.join(e.actions))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=DOMAIN_DIR.parents[1], env={**os.environ, "PYTHONPATH": str(DOMAIN_DIR.parents[1])})
    registered = set(out.stdout.split())
    missing = [a for a in domain()["actions"] if a not in registered]
    assert registered and missing == []
