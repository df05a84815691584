"""A gap of our copy about an amount the code delegates (gaps.yml `filled_by`) is told in its `filled` words, or
not at all, once the fee schedule gives the amount on the day asked; before that day, and for other gaps, as
written."""

from datetime import date

import pytest

from knowledge import handlers, load_town
from knowledge.fee_schedule import FeeEntry, with_entries
from tests.knowledge.broken_copy import edit, fails

FROM = date(2027, 1, 1)


def with_fees(town, **amounts):
    return with_entries(town, [FeeEntry(name.replace("__", "."), value, FROM, "resolution 2026-14")
                               for name, value in amounts.items()])


def gaps(answer) -> str:
    return " ".join(c for c in answer.caveats if c.startswith("Our copy of the code has a gap"))


def test_dunkirk_s_license_answer_no_longer_says_the_town_s_amounts_are_unknown_once_the_clerk_set_them():
    dunkirk = load_town("dunkirk")
    town = with_fees(dunkirk, dog_license__tax__neutered=10, dog_license__tax__unneutered=15,
                     dog_license__administrative_fee=2.5)
    after = gaps(handlers.license_cost(town, on=date(2027, 2, 1), dogs=1, neutered=1))
    assert "the Town's own amounts are not" not in after and "administrative fee" not in after
    assert "The amounts given here are the Town's fee schedule's." in after
    assert "174.054" in after, "a gap the fee schedule does not fill is still told"
    before = gaps(handlers.license_cost(town, on=date(2026, 12, 1), dogs=1, neutered=1))
    assert "the Town's own amounts are not" in before and "administrative fee" in before


def test_a_gap_stays_while_one_of_its_amounts_is_still_missing():
    town = with_fees(load_town("dunkirk"), dog_license__tax__neutered=10)
    assert "the Town's own amounts are not" in gaps(handlers.license_cost(town, on=date(2027, 2, 1), dogs=1,
                                                                           neutered=1))


def test_mequon_s_impoundment_answer_keeps_only_what_the_fee_schedule_does_not_answer():
    town = with_fees(load_town("mequon"), impoundment__fee=40)
    said = gaps(handlers.topic(town, "impoundment", on=date(2027, 2, 1)))
    assert "No amounts are in our copy" not in said and "boarding and impoundment fee" in said


@pytest.mark.parametrize("name", ["dog_license.late_fee", "no.such_fee"])
def test_filled_by_must_name_an_amount_the_code_delegates(kb, name):
    edit(kb / "towns/dunkirk/gaps.yml", lambda gaps: gaps[0].update(filled_by=[name]))
    fails(kb, "gaps.yml", "filled_by", "not an amount the code delegates")
