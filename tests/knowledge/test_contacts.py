"""Contacts are the town's data: set values are shown (checked), unset ones are left out, never a placeholder."""

from datetime import date

import pytest

from knowledge import KnowledgeError, handlers, load_town, render
from knowledge.contacts import main as contacts_main, unset

from tests.knowledge.broken_copy import edit


def set_contacts(kb, **clerk):
    def change(data):
        data["clerk"].update(clerk)
    edit(kb / "towns" / "dunkirk" / "town.yml", change)


def test_an_unset_contact_names_the_office_alone(dunkirk):
    assert dunkirk.contact_line() == "Town Clerk/Treasurer, Town of Dunkirk"
    answer = handlers.license_cost(dunkirk, on=date(2026, 5, 1), dogs=1, neutered=1)
    assert "Town Clerk/Treasurer, Town of Dunkirk" in render.text(answer)
    assert render.internal_text(render.text(answer)) == []


def test_set_values_are_shown_and_the_phone_written_the_usual_way(kb):  # noqa: F811
    set_contacts(kb, phone="608.555.0100", email="clerk@dunkirk.example", hours="Mon-Thu 9 a.m.-noon")
    town = load_town("dunkirk", root=kb)
    assert town.contact_line() == ("Town Clerk/Treasurer, Town of Dunkirk, (608) 555-0100, clerk@dunkirk.example "
                                   "(Mon-Thu 9 a.m.-noon)")
    assert town.office_hours == "Mon-Thu 9 a.m.-noon"
    assert town.clerk.unset() == []


@pytest.mark.parametrize("field,value,problem", [("phone", "phone number not yet configured", "not a phone number"),
                                                 ("phone", "12", "not a phone number"),
                                                 ("email", "clerk at town", "not an email address")])
def test_a_placeholder_or_a_wrong_value_fails_at_load(kb, field, value, problem):  # noqa: F811
    set_contacts(kb, **{field: value})
    with pytest.raises(KnowledgeError) as err:
        load_town("dunkirk", root=kb)
    assert f"clerk.{field}" in err.value.key and problem in err.value.problem


def test_the_warning_names_each_unset_value_once(capsys):
    assert contacts_main(["--warn", "dunkirk"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert any("clerk.phone is not set" in line for line in lines)
    assert any("fire_department.phone is not set" in line for line in lines)
    assert len(lines) == len(set(lines)) == len(unset("dunkirk"))
