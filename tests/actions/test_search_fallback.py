"""action_clarify searches the town's topics when the classifier is unsure (actions/search_fallback.py)."""
from __future__ import annotations

import asyncio

import pytest

from actions import common
from actions.replies import ActionClarify
from actions.search_fallback import index_for, label, suggest
from knowledge import town as shared_town

from tests.actions.action_helpers import make_tracker


def clarify(dispatcher, text, ranking):
    tracker = make_tracker(text, "nlu_fallback", ranking=[{"name": "nlu_fallback", "confidence": 0.4}] + ranking)
    asyncio.run(ActionClarify().run(dispatcher, tracker, {}))
    return dispatcher.messages[0]


UNSURE = [{"name": "ask_license_cost", "confidence": 0.3}, {"name": "greet", "confidence": 0.2}]


def test_a_misspelled_question_is_offered_the_topic_that_answers_it_with_its_section(dispatcher):
    msg = clarify(dispatcher, "how long is the quarentine after a bite", UNSURE)
    assert msg["buttons"][0] == {"title": "Quarantine after a bite or rabies exposure (7.02-5)",
                                 "payload": "/ask_quarantine"}
    assert 2 <= len(msg["buttons"]) <= 3
    assert "Clerk" in msg["text"]


def test_the_search_overrules_the_unsure_classifier_guesses(dispatcher):
    msg = clarify(dispatcher, "my dog has no shelter outside in the cold", UNSURE)
    payloads = [b["payload"] for b in msg["buttons"]]
    assert payloads[0] == "/ask_animal_care"
    assert "/ask_license_cost" not in payloads
    assert msg["buttons"][0]["title"] == "Food, water and shelter for animals (7.02-13)"


def test_the_unsure_question_is_recorded_with_what_was_offered(dispatcher):
    clarify(dispatcher, "dog poop all over my lawn from next door", UNSURE)
    rows = common.store().list_unanswered("dunkirk")
    assert rows and rows[0].text == "dog poop all over my lawn from next door"
    assert rows[0].suggestions[0] == "Animal waste (7.02-6)"


@pytest.mark.parametrize("question", ["when is trash pickup", "are property taxes due in january",
                                      "best pizza in town"])
def test_a_question_plainly_outside_the_ordinances_gets_the_out_of_scope_answer(dispatcher, question):
    msg = clarify(dispatcher, question, [{"name": "out_of_scope", "confidence": 0.35}] + UNSURE)
    assert "buttons" not in msg or not msg["buttons"]
    assert "only know" in msg["text"] and "Clerk" in msg["text"]
    rows = common.store().list_unanswered("dunkirk")
    assert rows and rows[0].text == question


def test_a_strong_match_is_offered_even_when_the_classifier_leans_out_of_scope(dispatcher):
    msg = clarify(dispatcher, "the roosters crowing next door", [{"name": "out_of_scope", "confidence": 0.3}])
    assert msg["buttons"][0]["payload"] == "/ask_chickens"


def test_each_town_offers_its_own_sections(mequon, dispatcher):
    msg = clarify(dispatcher, "my dog has no shelter outside in the cold", UNSURE)
    assert msg["buttons"][0]["title"] == "Food, water and shelter for animals (58-519)"


def test_a_topic_the_code_is_silent_on_is_labelled_by_its_title_alone():
    mequon = shared_town("mequon")
    assert label(mequon.topics["burning_rules"]) == mequon.topics["burning_rules"].title


def test_short_words_are_not_spell_corrected_into_other_words():
    index = index_for(shared_town("dunkirk"))
    assert index.spell("quarrantinne") == "quarantine"
    assert index.spell("lawm") is None  # not "law": too short to guess
    assert index.spell("zzzzzzz") is None


def test_nothing_matched_and_no_guess_offers_no_buttons():
    found = suggest(shared_town("dunkirk"), "hmm", [])
    assert not found.out_of_scope and found.suggestions == []
