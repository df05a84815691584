"""The action server answers a third town from its data (#23): the fixture town Fairview
(tests/fixtures/towns/fairview, invented) burns by permit (9.03) within a clock window, 12:00 p.m. to 7:00 p.m.
(9.04(1)), closed on Sundays and legal holidays (9.04(2)). A permit town runs no notification form; a town that
is told of burns within a clock window (Fairview's scheme with `before: notify`, built here) hears its clock
hours, never sunrise or sunset."""
from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
from rasa_sdk.executor import CollectingDispatcher

from actions import common
from actions.burn_form import ValidateBurnForm, burning_covered
from actions.burn_notice import ActionStartBurn, ActionSubmitBurn
from actions.questions import question_for
from knowledge import load_town
from tests.actions.action_helpers import ent, make_tracker, texts
from tests.actions.test_forms import BURN_DOMAIN, BURN_SLOTS, run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "towns"
WEDNESDAY = "2026-07-08"  # NOW (conftest) is Thursday 2026-07-02


@pytest.fixture(scope="module")
def fairview_town():
    return load_town("fairview", root=FIXTURES)


@pytest.fixture
def fairview(monkeypatch, fairview_town):
    monkeypatch.setattr(common, "town", lambda: fairview_town)
    return fairview_town


@pytest.fixture
def clock_notify_town(monkeypatch, fairview_town):
    """Fairview's clock window and closed days, but the fire department is told of a burn (no permit)."""
    scheme = dataclasses.replace(fairview_town.burning_scheme, before="notify")
    t = dataclasses.replace(fairview_town, burning_scheme=scheme)
    monkeypatch.setattr(common, "town", lambda: t)
    return t


def burn_questions(tracker) -> list:
    return asyncio.run(ValidateBurnForm().required_slots(BURN_SLOTS, CollectingDispatcher(), tracker, BURN_DOMAIN))


def test_a_permit_town_gets_no_burn_notification_form(fairview):
    text = "I want to notify the fire department of a burn"
    assert not burning_covered(fairview)
    assert burn_questions(make_tracker(text, "notify_burn", active_loop="burn_form")) == []
    d, _ = run(ActionStartBurn(), make_tracker(text, "notify_burn"), {})
    said = " ".join(texts(d))
    assert "permit" in said and "9.03(1)" in said, said  # its permit_first rule: get a permit first
    assert "I'll record" not in said and "record your notification" not in said
    d, _ = run(ActionSubmitBurn(), make_tracker(text, "notify_burn"), {})
    assert texts(d) == []  # nothing was being recorded


def test_dunkirk_still_runs_its_notification_form_citing_its_notify_rule():
    d, _ = run(ActionStartBurn(), make_tracker("I want to notify the fire department of a burn", "notify_burn"), {})
    assert texts(d)[0].startswith("I'll record your burn notification for the Fire Department (Dunkirk Code "
                                  "7.12(1)).")
    assert burn_questions(make_tracker("I want to notify a burn", "notify_burn", active_loop="burn_form")) == BURN_SLOTS


def test_the_burn_time_question_names_the_town_window_ends():
    tracker = make_tracker("saturday", "inform", slots={"burn_date": "2026-07-04"})
    assert question_for("burn_form_burn_time", tracker)[0] == \
        "About what time will you start? (burning is allowed only between sunrise and sunset)"


def test_a_clock_town_burn_time_question_names_its_clock_hours(fairview):
    tracker = make_tracker("wednesday", "inform", slots={"burn_date": WEDNESDAY})
    assert question_for("burn_form_burn_time", tracker)[0] == \
        "About what time will you start? (burning is allowed only between 12:00 p.m. and 7:00 p.m.)"


@pytest.mark.parametrize("said, words", [("10:00", "No: 10:00 a.m is before 12:00 p.m. CDT."),
                                         ("20:00", "No: 8:00 p.m is after 7:00 p.m. CDT.")])
def test_a_clock_town_form_refuses_a_time_outside_its_window_in_clock_words(clock_notify_town, said, words):
    tracker = make_tracker(said, "inform", slots={"requested_slot": "burn_time", "burn_date": WEDNESDAY},
                           active_loop="burn_form")
    d, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    assert slots["burn_time"] is None
    said_back = " ".join(texts(d))
    assert said_back.startswith(words), said_back
    assert "sunrise" not in said_back and "sunset" not in said_back


def test_a_clock_town_form_takes_a_time_within_its_window(clock_notify_town):
    tracker = make_tracker("15:00", "inform", slots={"requested_slot": "burn_time", "burn_date": WEDNESDAY},
                           active_loop="burn_form")
    _, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    assert slots["burn_time"] == "15:00"


def test_a_closed_day_is_refused_by_its_rule_not_as_a_no_burning_order(clock_notify_town):
    tracker = make_tracker("sunday", "inform", [ent("sunday", "sunday", "when")],
                           slots={"requested_slot": "burn_date"}, active_loop="burn_form")
    d, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    said = " ".join(texts(d))
    assert slots["burn_date"] is None
    assert "No burning is allowed on Sunday, July 5, 2026" in said and "9.04(2)" in said, said
    assert "no-burning order" not in said.lower()


def test_asked_who_may_allow_burning_outside_the_hours_a_clock_town_gives_its_own_exception(fairview):
    from actions.answers import ActionAnswer
    d = CollectingDispatcher()
    asyncio.run(ActionAnswer().run(d, make_tracker("can i get permission to burn after dark", "ask_burning_hours"),
                                   {}))
    lead = texts(d)[0].split("\n")[0]
    assert "9.04" in lead and "sunset" not in lead.lower() and "Town Board" not in lead, lead


def test_the_license_form_asks_for_the_day_the_dog_reaches_the_towns_own_licensable_age(fairview_town, monkeypatch):
    tracker = make_tracker("today", "inform")
    assert "turn 5 months old?" in question_for("license_form_licensable_age_on", tracker)[0]  # Dunkirk
    monkeypatch.setattr(common, "town", lambda: fairview_town)
    assert "turn 6 months old?" in question_for("license_form_licensable_age_on", tracker)[0]  # Fairview 6.01(1)


def test_turning_the_towns_licensable_age_on_a_day_is_read_as_that_day_and_another_age_is_not(fairview):
    from actions import parsing
    from actions.license_form import ValidateLicenseForm
    from tests.actions.test_forms import AGE_DOMAIN
    text = "our puppy turns 6 months on sept 10. how much is her license?"
    whens = [ent(text, "on sept 10", "when")]
    assert parsing.licensable_age_when(whens, text, 6) is not None
    assert parsing.licensable_age_when(whens, text, 5) is None  # six months is no licensable age in Dunkirk
    _, slots = run(ValidateLicenseForm(), make_tracker(text, "ask_license_cost", whens, active_loop="license_form"),
                   AGE_DOMAIN)
    assert slots["licensable_age_on"] == "2026-09-10"


#: a resident's question for every intent the action server answers with action_answer (bot/domain), in the third
#: town's terms where it has them; (intent, question, entities as (value, entity, canonical))
EVERY_INTENT = [
    ("ask_animal_care", "what do i have to give my dog for food and shelter?", ()),
    ("ask_animal_limits", "how many dogs can i have?", ()),
    ("ask_animal_penalties", "what is the fine for an unlicensed dog?", ()),
    ("ask_animal_waste", "do i have to pick up after my dog?", ()),
    ("ask_at_large", "can my dog run loose?", ()),
    ("ask_barking", "my neighbor's dog barks all night, is that allowed?", ()),
    ("ask_bees", "can i keep bees?", ()),
    ("ask_bites", "my dog bit someone, what do i do?", ()),
    ("ask_burn_notification", "do i have to tell anyone before i burn?", ()),
    ("ask_burn_setbacks", "how far from my house does a burn pile have to be?", ()),
    ("ask_burning_hours", "what hours can i burn?", ()),
    ("ask_burning_penalties", "what is the fine for illegal burning?", ()),
    ("ask_burning_rules", "what are the rules for open burning?", ()),
    ("ask_can_burn", "can i burn brush today?", ()),
    ("ask_cemeteries", "can i take my dog into the cemetery?", ()),
    ("ask_chickens", "can i keep chickens?", ()),
    ("ask_cruelty", "what counts as animal cruelty?", ()),
    ("ask_definitions", "what does owner mean?", ()),
    ("ask_dog_houses_and_runs", "are there rules for dog runs?", ()),
    ("ask_enforcement", "who enforces the animal rules?", ()),
    ("ask_impoundment", "my dog was impounded, how do i get him back?", ()),
    ("ask_kennels", "do i need a kennel license?", ()),
    ("ask_late_fee", "is there a late fee for a dog license?", ()),
    ("ask_license_cost", "how much is a dog license?", ()),
    ("ask_license_required", "does my dog need a license?", ()),
    ("ask_license_tags", "does my dog have to wear its tag?", ()),
    ("ask_livestock", "can i keep goats?", ()),
    ("ask_multiple_dog_license", "is there a multiple dog license?", ()),
    ("ask_no_burning_order", "is there a burning ban right now?", ()),
    ("ask_permits", "do i need a permit for my chickens?", (("chickens", "animal", "chicken"),)),
    ("ask_permits", "do i need a permit to burn brush?", ()),
    ("ask_pets", "what pets can i keep?", ()),
    ("ask_prohibited_materials", "can i burn garbage?", (("garbage", "material", "garbage"),)),
    ("ask_quarantine", "how long is the quarantine after a bite?", ()),
    ("ask_rabies_vaccination", "does my dog need a rabies shot?", ()),
    ("ask_section", "what does section 9.04 say?", (("9.04", "section", "9.04"),)),
    ("ask_service_dog", "do service dogs need a license?", ()),
    ("ask_vicious_animals", "what makes a dog vicious?", ()),
    ("ask_wild_animals", "can i keep a raccoon?", ()),
]


@pytest.mark.parametrize("intent, question, said", EVERY_INTENT, ids=[f"{i}: {q}" for i, q, _ in EVERY_INTENT])
def test_every_intent_in_the_third_town_is_answered_from_its_own_code_or_its_silence(fairview, intent, question, said):
    from actions.answers import ActionAnswer
    d, _ = run(ActionAnswer(), make_tracker(question, intent, [ent(question, *s) for s in said]), {})
    answer = "\n".join(texts(d))
    lead = answer.split("\n")[0]
    assert lead, intent
    assert not re.search(r"\{|\}|Dunkirk|Mequon|\.ya?ml\b|\b[a-z]+(?:_[a-z]+)+\.[a-z_.]+", answer), answer
    topic = fairview.topics.get(intent[4:])
    cites_its_code = re.search(r"\(\d\.\d\d(?:\(\d+\))*\)|\b9\.0\d\b", lead)
    says_it_is_silent = re.search(r"does not (?:cover|define)", answer) and "Clerk" in answer
    assert cites_its_code or says_it_is_silent, lead
    if topic is not None and topic.covered:
        assert cites_its_code, lead  # a topic the town's code covers is answered from it, never as silent
    if "burn" in question:
        assert cites_its_code, lead  # Fairview covers burning (9.03 to 9.08): never "our copy does not cover"
