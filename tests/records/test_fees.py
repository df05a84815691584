"""The clerk's fee schedule in the records store (records/fees.py, knowledge/fee_schedule.py): an amount set is
used by the next answer of every process, refused with the loader's reasons, kept with who, when and why, and
undone without being deleted."""

from __future__ import annotations

from datetime import date

import pytest

from knowledge import handlers, load_town
from records import Store, kept
from tests.records.test_store import pg_url, store  # noqa: F401 - the fixtures: every test on both databases

FEB = date(2027, 2, 1)


@pytest.fixture(scope="module")
def dunkirk():
    return load_town("dunkirk")


@pytest.fixture(autouse=True)
def read_every_time(monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 0.0)


def neutered_license(town):
    return handlers.license_cost(town, on=FEB, dogs=1, neutered=1)


def set_tax(store, town, value=10, since=date(2027, 1, 1), by="ann"):
    return store.set_fee(town=town, parameter="dog_license.tax.neutered", value=value, since=since,
                         source="Town Board resolution 2026-14", reason="the 2027 fee", entered_by=by)


def test_an_amount_the_clerk_sets_is_used_by_the_next_answer_and_cites_its_resolution(store, dunkirk):
    assert "$10.00" not in neutered_license(kept.town_as_kept(dunkirk, store)).lead
    set_tax(store, dunkirk)
    answer = neutered_license(kept.town_as_kept(dunkirk, store))
    assert "$10.00" in answer.lead
    assert any("Town Board resolution 2026-14" in c for c in answer.caveats)
    assert "$10.00" not in neutered_license(dunkirk).lead, "the town as loaded is not changed"


def test_an_amount_applies_from_its_day_only(store, dunkirk):
    set_tax(store, dunkirk, since=date(2027, 3, 1))
    town = kept.town_as_kept(dunkirk, store)
    assert "$10.00" not in neutered_license(town).lead
    assert "$10.00" in handlers.license_cost(town, on=date(2027, 3, 2), dogs=1, neutered=1).lead


def test_another_process_sees_the_change_on_its_next_answer(store, dunkirk, tmp_path):
    if store.kind != "sqlite":
        pytest.skip("one SQLite file opened twice stands for two processes")
    other = Store(store.url)
    try:
        assert "$10.00" not in neutered_license(kept.town_as_kept(dunkirk, other)).lead
        set_tax(store, dunkirk)
        assert "$10.00" in neutered_license(kept.town_as_kept(dunkirk, other)).lead
    finally:
        other.close()


@pytest.mark.parametrize("parameter, value, since, source, field", [
    ("dog_license.tax.neuterd", 10, date(2027, 1, 1), "res 14", "parameter"),   # a typo
    ("dog_license.late_fee", 10, date(2027, 1, 1), "res 14", "parameter"),      # the code sets it (7.02-4)
    ("dog_license.tax.neutered", -5, date(2027, 1, 1), "res 14", "value"),
    ("dog_license.tax.neutered", "ten", date(2027, 1, 1), "res 14", "value"),
    ("dog_license.tax.neutered", "10.005", date(2027, 1, 1), "res 14", "value"),
    ("dog_license.tax.neutered", 10, "2027-13-01", "res 14", "since"),
    ("dog_license.tax.neutered", 10, date(2027, 1, 1), "  ", "source"),
])
def test_an_entry_the_loader_would_refuse_is_refused_naming_its_field_and_nothing_is_kept(
        store, dunkirk, parameter, value, since, source, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        store.set_fee(town=dunkirk, parameter=parameter, value=value, since=since, source=source, entered_by="ann")
    assert store.fee_changes("dunkirk") == []


def test_undoing_an_amount_withdraws_it_and_keeps_who_did_what_and_why(store, dunkirk):
    first = set_tax(store, dunkirk, value=100, by="ann")  # a slip: $100
    assert "$100.00" in neutered_license(kept.town_as_kept(dunkirk, store)).lead
    assert store.withdraw_fee(town="dunkirk", change_id=first.id, withdrawn_by="bob", reason="typo, meant $10")
    assert "$100.00" not in neutered_license(kept.town_as_kept(dunkirk, store)).lead
    assert not store.withdraw_fee(town="dunkirk", change_id=first.id, withdrawn_by="bob"), "undone once only"
    [entered] = store.fee_changes("dunkirk")
    assert (entered.entered_by, entered.reason, entered.withdrawn_by, entered.withdrawn_reason) == (
        "ann", "the 2027 fee", "bob", "typo, meant $10")
    assert entered.withdrawn_at is not None and store.fee_changes("dunkirk", in_force=True) == []


def test_a_later_entry_for_the_same_day_replaces_the_earlier_one(store, dunkirk):
    set_tax(store, dunkirk, value=10)
    set_tax(store, dunkirk, value=12.5)
    assert "$12.50" in neutered_license(kept.town_as_kept(dunkirk, store)).lead


def test_one_town_s_fees_never_reach_another_town_sharing_the_database(store, dunkirk):
    mequon = load_town("mequon")
    set_tax(store, dunkirk)
    assert "$10.00" not in neutered_license(kept.town_as_kept(mequon, store)).lead
    assert not store.withdraw_fee(town="mequon", change_id=store.fee_changes("dunkirk")[0].id, withdrawn_by="x")


def test_a_store_that_cannot_be_read_leaves_the_amounts_as_loaded(dunkirk):
    class Down:
        def fee_changes(self, town, in_force=False):
            raise OSError("database is down")
    assert kept.town_as_kept(dunkirk, Down()) is dunkirk
