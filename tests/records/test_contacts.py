"""The offices' contacts the clerk keeps in the records store (records/contacts.py, knowledge/contacts.py): used
by the next answer of every process, refused with the loader's reasons, the latest change counting, undone
without being deleted, never crossing to another town."""

from __future__ import annotations

import pytest

from knowledge import load_town
from records import kept
from tests.records.test_store import pg_url, store  # noqa: F401 - the fixtures: every test on both databases


@pytest.fixture(scope="module")
def dunkirk():
    return load_town("dunkirk")


@pytest.fixture(autouse=True)
def read_every_time(monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 0.0)


def test_a_phone_the_clerk_sets_is_written_the_usual_way_and_given_with_the_office(store, dunkirk):
    store.set_contact(town="dunkirk", office="clerk", phone="608 555 0100", email="clerk@dunkirk.example",
                      hours="Mon-Thu 9 a.m.-noon", reason="new office line", entered_by="ann")
    t = kept.town_as_kept(dunkirk, store)
    assert str(t.clerk) == ("Town Clerk/Treasurer, Town of Dunkirk, (608) 555-0100, clerk@dunkirk.example "
                            "(Mon-Thu 9 a.m.-noon)")
    assert t.office_hours == "Mon-Thu 9 a.m.-noon" and not t.clerk.placeholder
    assert dunkirk.clerk.phone == "", "the town as loaded is not changed"


@pytest.mark.parametrize("office, phone, email, hours, field", [
    ("clerk", "555-01", "", "", "phone"),
    ("clerk", "", "clerk at dunkirk", "", "email"),
    ("clerk", "", "[x](http://example.com)a@b.com", "", "email"),
    ("clerk", "", "", "x" * 200, "hours"),
    ("mayor", "608-555-0100", "", "", "office"),
])
def test_values_the_loader_would_refuse_are_refused_naming_the_field_and_nothing_is_kept(
        store, office, phone, email, hours, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        store.set_contact(town="dunkirk", office=office, phone=phone, email=email, hours=hours, entered_by="ann")
    assert store.contact_changes("dunkirk") == []


def test_the_latest_change_counts_and_undoing_it_brings_back_the_one_before(store, dunkirk):
    store.set_contact(town="dunkirk", office="fire_department", phone="608-555-0199", entered_by="ann")
    slip = store.set_contact(town="dunkirk", office="fire_department", phone="608-555-0911", entered_by="bob")
    assert kept.town_as_kept(dunkirk, store).fire_department.phone == "(608) 555-0911"
    assert store.withdraw_contact(town="dunkirk", change_id=slip.id, withdrawn_by="ann", reason="wrong number")
    assert kept.town_as_kept(dunkirk, store).fire_department.phone == "(608) 555-0199"
    assert not store.withdraw_contact(town="dunkirk", change_id=slip.id, withdrawn_by="ann"), "undone once only"
    assert [c.withdrawn_reason for c in store.contact_changes("dunkirk")] == ["", "wrong number"]


def test_one_town_s_contacts_never_reach_another_town_and_a_town_without_the_office_gets_none(store):
    mequon = load_town("mequon")  # no fire department in its town.yml
    store.set_contact(town="dunkirk", office="clerk", phone="608-555-0100", entered_by="ann")
    store.set_contact(town="mequon", office="fire_department", phone="262-555-0100", entered_by="ann")
    t = kept.town_as_kept(mequon, store)
    assert t.clerk.phone == "" and t.fire_department is None


def test_a_store_that_cannot_be_read_leaves_the_contacts_as_loaded(dunkirk):
    class Down:
        def fee_changes(self, town, in_force=False):
            return []

        def contact_changes(self, town, in_force=False):
            raise OSError("database is down")
    assert kept.town_as_kept(dunkirk, Down()) is dunkirk


def test_a_store_that_cannot_be_read_is_asked_again_only_after_a_while_not_on_every_call(dunkirk, monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 60.0)
    calls = []

    class Down:
        def fee_changes(self, town, in_force=False):
            calls.append(town)
            raise OSError("database is down")
    store = Down()
    assert kept.town_as_kept(dunkirk, store) is dunkirk and kept.town_as_kept(dunkirk, store) is dunkirk
    assert len(calls) == 1


def test_a_number_abroad_keeps_its_country_code(store, dunkirk):
    store.set_contact(town="dunkirk", office="clerk", phone="+44 20 7946 0958", entered_by="ann")
    assert kept.town_as_kept(dunkirk, store).clerk.phone == "+44 20 7946 0958"


def test_the_process_that_saves_a_change_uses_it_at_once_however_long_it_reuses_a_read(store, dunkirk, monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 60.0)
    assert kept.town_as_kept(dunkirk, store).clerk.phone == ""
    change = store.set_contact(town="dunkirk", office="clerk", phone="608-555-0100", entered_by="ann")
    assert kept.town_as_kept(dunkirk, store).clerk.phone == "(608) 555-0100"
    store.withdraw_contact(town="dunkirk", change_id=change.id, withdrawn_by="ann")
    assert kept.town_as_kept(dunkirk, store).clerk.phone == ""


def test_when_the_store_goes_down_the_last_good_read_stands_not_the_data_folder(store, dunkirk, monkeypatch):
    store.set_contact(town="dunkirk", office="clerk", phone="608-555-0100", entered_by="ann")
    assert kept.town_as_kept(dunkirk, store).clerk.phone == "(608) 555-0100"

    def down(town, in_force=False):
        raise OSError("database is down")
    monkeypatch.setattr(store, "contact_changes", down)
    assert kept.town_as_kept(dunkirk, store).clerk.phone == "(608) 555-0100"
