"""A distance the resident measured against the bounded parameter of a rule (knowledge/handlers/measure.py)."""
from __future__ import annotations

from datetime import date

from knowledge import handlers

DAY = date(2026, 5, 15)


def test_a_setback_is_met_at_or_beyond_it_and_not_short_of_it(mequon):
    short = handlers.measured(mequon, topic="chickens", rule="setback", amount=30, unit="feet", on=DAY)
    assert short.value is False and short.lead.startswith("No: 30 feet is less than 50 feet (58-530(b)(3))")
    assert "written consent" in short.result  # the rule's exception is read with the No
    for amount in (50, 60):
        assert handlers.measured(mequon, topic="chickens", rule="setback", amount=amount, unit="feet",
                                 on=DAY).value is True


def test_a_leash_is_met_at_or_under_its_length_and_not_over_it(mequon):
    rule = "leash"  # "answer" names the leash and the distance from the owner both: no verdict from it
    assert handlers.measured(mequon, topic="at_large", rule="answer", amount=25, unit="feet", on=DAY) is None
    over = handlers.measured(mequon, topic="at_large", rule=rule, amount=25, unit="feet", on=DAY)
    assert over.value is False and over.lead.startswith("No: 25 feet is more than 20 feet")
    assert handlers.measured(mequon, topic="at_large", rule=rule, amount=20, unit="feet", on=DAY).value is True


def test_a_rule_without_a_bounded_distance_gives_no_verdict(mequon):
    assert handlers.measured(mequon, topic="chickens", rule="roosters", amount=30, unit="feet", on=DAY) is None
    assert handlers.measured(mequon, topic="chickens", rule="setback", amount=30, unit="pounds", on=DAY) is None
