"""Answers in parts: the lead, the details, gaps in plain words, and no internal text (issue #11)."""

from datetime import date
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge import handlers, render, town as shared_town
from knowledge.model import Answer, Step
from knowledge.render import gsm7

from tests.knowledge import test_cases

TOPICS = yaml.safe_load((Path(__file__).resolve().parents[2] / "knowledge" / "topics.yml").read_text())


def every_answer():
    """Every answer the knowledge cases produce, and every topic's answer in both towns."""
    for _, cases in test_cases.case_files():
        for case in cases:
            if "raises" not in (case.get("expect") or {}):
                yield case["name"], test_cases._call(case)
    for key in ("dunkirk", "mequon"):
        town = shared_town(key)
        for topic in TOPICS:
            yield f"{key} topic {topic}", handlers.topic(town, topic, on=date(2026, 7, 2))


ANSWERS = [a for a in every_answer() if isinstance(a[1], Answer)]


def test_text_puts_the_lead_first_then_steps_sources_and_notes(dunkirk):
    answer = handlers.license_cost(dunkirk, on=date(2026, 5, 15), dogs=1, neutered=0)
    out = render.text(answer)
    assert out.startswith(render.lead(answer))
    assert out.index("How:") < out.index("Source:") < out.index("Not in our copy:") < out.index("Note:")
    assert "Dunkirk Code 7.02-4" in out


@pytest.mark.parametrize("name,answer", ANSWERS, ids=[a[0][:80] for a in ANSWERS])
def test_every_lead_fits_one_sms_and_no_resident_text_is_internal(name, answer):
    lead = render.lead(answer)
    assert lead and len(lead) <= render.LEAD_MAX
    assert render.internal_text(render.text(answer)) == [], name
    for part in render.payload(answer)["gaps"]:
        assert render.internal_text(part) == []


def test_the_fallback_lead_is_the_first_sentence_with_the_section_in_short_form(dunkirk):
    answer = Answer(topic="t", result="You may keep up to five dogs. The Board may waive it.")
    answer.cite(dunkirk.param("dog_license.tax.neutered").reference)
    assert render.lead(answer) == f"You may keep up to five dogs. The Board may waive it. (Sec. " \
        f"{answer.citations[0].ref})"
    long = Answer(topic="t", result="A" * 10 + " first sentence, " + "x " * 100 + "end. Second.")
    lead = render.lead(long)
    assert lead == "A" * 10 + " first sentence, " + "x " * 99 + "x end.", "a lead is never cut mid-sentence"
    assert render.rest(long) == "Second."


def test_a_handlers_lead_too_long_is_never_cut_mid_sentence():
    first = "Yes, you may burn " + "brush, leaves and " * 9 + "grass."
    answer = Answer(topic="t", result="r", lead=f"{first} Then stop.")
    assert render.lead(answer) == first


def test_a_handlers_lead_is_used_as_given():
    answer = Answer(topic="t", result="Long result. With more.", lead="Yes: $5.00 (Sec. 7.02-4).")
    assert render.lead(answer) == "Yes: $5.00 (Sec. 7.02-4)."
    assert render.rest(answer) == "Long result. With more."


def test_sentences_keep_abbreviations_times_and_dates_whole():
    text = ("Burn until 8:38 p.m. CDT today. After 8:38 p.m. You may not. See Wis. Stat. 174.05(2) and "
            "Sec. 7.02-4. It is $5.00, e.g. for one dog. Done")
    assert render.sentences(text) == ["Burn until 8:38 p.m. CDT today.", "After 8:38 p.m.", "You may not.",
                                      "See Wis. Stat. 174.05(2) and Sec. 7.02-4.", "It is $5.00, e.g. for one dog.",
                                      "Done"]
    assert render.sentences("The fee is 5. $10 is late.") == ["The fee is 5.", "$10 is late."], \
        "a sentence may open with an amount"
    assert render.clauses("On July 4, 2026, you may; or not") == ["On July 4, 2026,", "you may;", "or not"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh ,;.ABC0123", min_size=1, max_size=80), min_size=1, max_size=12),
       st.integers(min_value=20, max_value=320))
def test_fit_takes_whole_words_and_loses_nothing(chunks, limit):
    text = " ".join(chunks)
    head, rest = render.fit(text, limit)
    words = text.split()
    assert len(head) <= limit
    assert (head + " " + rest).split() == words or "".join((head + rest).split()) == "".join(words)
    if all(len(w) <= limit for w in words):
        assert (head + " " + rest).split() == words, "no word is cut"


def test_gaps_are_plain_one_line_per_kind(dunkirk):
    answer = handlers.license_cost(dunkirk, on=date(2026, 5, 1), dogs=1, neutered=None)
    gaps = render.gap_lines(answer)
    assert gaps[0] == ("Part of this fee is set by the Town and isn't in our copy of the code - the Clerk can "
                       "tell you the exact amount.")
    assert len(gaps) == len(set(gaps))
    twice = Answer(topic="t", result="r", caveats=[render.GAP_PREFIX + " the fee amount is missing.",
                                                   render.GAP_PREFIX + " the late fee amount is not given."])
    assert len(render.gap_lines(twice)) == 1
    assert not any(c.startswith(render.GAP_PREFIX) for c in render.payload(answer)["caveats"])


def test_payload_carries_each_steps_own_citations(dunkirk):
    answer = Answer(topic="t", result="r.")
    citation = dunkirk.param("dog_license.tax.neutered").reference
    answer.step("Step one", citation)
    answer.steps.append("A plain step")
    parts = render.payload(answer)
    assert parts["steps"] == [{"text": "Step one", "cites": [citation.label]}, {"text": "A plain step", "cites": []}]
    assert parts["sources"][0]["label"] == citation.label and parts["sources"][0]["quote"] == citation.quote
    assert isinstance(answer.steps[0], Step)


@pytest.mark.parametrize("bad", ["phone number not yet configured", "only 174.05 is in knowledge/state",
                                 "see sections.yml", "None", "dog_license.tax.neutered", "{fee.amount}",
                                 "the parameter says", "license_cost"])
def test_the_guard_names_internal_text(bad):
    assert render.internal_text(f"Ask the Clerk; {bad}.")
    assert render.internal_text("Ask the Town Clerk/Treasurer, Town of Dunkirk, (608) 555-0100.") == []


def test_gsm7_replaces_typographic_characters():
    assert gsm7("“Quoted” — it’s 5…") == '"Quoted" - it\'s 5...'
