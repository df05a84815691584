"""#11 "Answer first": every answer opens with a lead that answers the question, in one SMS segment.

The lead is one or two sentences of at most 160 GSM-7 characters with the section in short form; it may not
carry placeholders or internal text. The rule a topic answer leads with is the one that answers what was asked.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from knowledge import handlers, town as shared_town
from knowledge.render import gsm7
from knowledge.rules import Rule, lead_of

from .test_cases import _all_cases, _call

INTERNAL = re.compile(r"not yet configured|knowledge/|\.yml\b|\bNone\b|\{|\}|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_]+\.[a-z_]+\b")
SECTION = re.compile(r"\((Wis\. (Stat\.|Admin\. Code) )?[\w.\-]+(\([\w.]+\))*[a-z]?\)")


def check_lead(lead: str) -> None:
    assert lead, "the answer has no lead"
    assert gsm7(lead) == lead.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"') \
        or "?" not in gsm7(lead), f"lead has characters outside GSM-7: {lead!r}"
    assert len(gsm7(lead)) <= 160, f"lead is {len(gsm7(lead))} characters: {lead!r}"
    assert not INTERNAL.search(lead), f"lead carries internal text: {lead!r}"


@pytest.mark.parametrize("case", [c for c in _all_cases()
                                  if c.values[0]["handler"] != "when" and "raises" not in c.values[0]["expect"]])
def test_every_case_answer_has_a_short_lead(case):
    check_lead(_call(case).lead)


@pytest.mark.parametrize("town", ["dunkirk", "mequon"])
def test_every_covered_topic_has_a_lead_rule_and_every_topic_answer_a_lead(town):
    t = shared_town(town)
    for key, topic in t.topics.items():
        if topic.covered:
            assert any(isinstance(r, Rule) and r.lead and r.asks for r in topic.rules.values()), f"{town} {key}"
        check_lead(handlers.topic(t, key, on=date(2026, 12, 1), cross=False).lead)


@pytest.mark.parametrize("town", ["dunkirk", "mequon"])
def test_every_rule_lead_fits_and_names_its_section(town):
    t = shared_town(town)
    for key, topic in t.topics.items():
        for name, rule in topic.rules.items():
            if isinstance(rule, Rule) and rule.lead:
                lead = lead_of(t, rule, date(2026, 12, 1))
                check_lead(lead)
                assert lead.endswith(")."), f"{key}.{name}: {lead!r}"


# The grain asked: the rule that answers the question leads (worked from the ordinances, see the comments).
GRAIN = [
    # 7.02-5(d)(2): "for at least ten (10) days after the incident occurred"
    ("dunkirk", "quarantine", "how long is the quarantine for a dog that bit someone", r"\b10 days\b"),
    # 7.02-9: "shall immediately report such fact to a law enforcement officer"
    ("dunkirk", "bites", "who do I report a dog bite to", r"(?i)law enforcement officer"),
    # 7.02-18(c): "not less than Twenty-Five Dollars ($25.00) and not more than One Hundred Dollars ($100.00)"
    ("dunkirk", "animal_penalties", "what's the fine for breaking the animal rules", r"\$25\.00 to \$100\.00"),
    # 7.02-14(c)(2)b: "a shelter of suitable size to accommodate the dog shall be provided"
    ("dunkirk", "animal_care", "what shelter does my dog need outside in winter", r"(?i)shelter"),
    # 7.02-5(d)(3)a: "leashed or confined for one hundred eighty (180) days"
    ("dunkirk", "quarantine", "my unvaccinated dog fought a rabid raccoon, how long is he confined", r"\b180 days\b"),
    # 7.02-17(b)(2): "may be waived by the Town Board under extraordinary circumstances"
    ("dunkirk", "animal_limits", "can I get a waiver to keep more dogs", r"(?i)waive"),
    # 58-527(a): "shall immediately report such fact to the police department"
    ("mequon", "bites", "who do i call if my dog bit the mailman", r"(?i)police department"),
    # 58-527(d): return the certification "within 15 days of the date of the bite"
    ("mequon", "quarantine", "when do I return the quarantine certificate", r"\b15 days\b"),
    # 58-521(a)(2)a: "not more than 20 feet in length"
    ("mequon", "at_large", "how long can the leash be", r"\b20 feet\b"),
    # 58-530(b)(1): "Roosters are prohibited."
    ("mequon", "chickens", "can i have a rooster", r"(?i)^no\b.*rooster"),
]


@pytest.mark.parametrize("town,key,question,fact", GRAIN)
def test_topic_answer_leads_with_the_rule_asked(town, key, question, fact):
    answer = handlers.topic(shared_town(town), key, on=date(2026, 12, 1), question=question)
    assert re.search(fact, answer.lead), answer.lead
    check_lead(answer.lead)


def test_a_question_in_a_neighbouring_topic_is_answered_from_the_rule_that_answers_it():
    # Classified as "permits" (a topic Dunkirk's code is silent on), but the words ask whether a cat needs a
    # license, which 7.02-1(a) answers: the code licenses "any dog more than five (5) months of age".
    t = shared_town("dunkirk")
    answer = handlers.topic(t, "permits", on=date(2026, 12, 1), question="is a license required for cats in dunkirk")
    assert answer.lead.startswith("No") and "cat" in answer.lead and answer.data.get("asked_topic") == "permits"
    # Without cross-topic ranking the same question is answered "not covered".
    assert "does not cover" in handlers.topic(t, "permits", on=date(2026, 12, 1), cross=False,
                                              question="is a license required for cats in dunkirk").lead


def test_an_aspect_the_caller_knows_picks_the_rule():
    t = shared_town("dunkirk")
    answer = handlers.topic(t, "quarantine", on=date(2026, 12, 1), aspect="costs")
    assert answer.lead.startswith("The owner pays") and answer.data["rule"] == "quarantine.costs"
