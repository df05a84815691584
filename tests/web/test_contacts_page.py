"""The clerk's "Contacts" page (web/clerk/contacts.py): a clerk sets an office's phone, email and hours, refused
with the loader's reasons, undoes a change with a reason; the Fire Department reads only; SMS HELP gives the
number at once."""

from __future__ import annotations

import pytest

from conftest import CLERK_PW
from records import kept


@pytest.fixture(autouse=True)
def read_every_time(monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 0.0)


def change(**values):
    data = {"office": "clerk", "phone": "608-555-0100", "email": "clerk@dunkirk.example",
            "hours": "Mon-Thu 9 a.m.-noon", "reason": "the office's new line"}
    data.update(values)
    return data


def test_a_saved_contact_is_shown_with_who_and_why_and_given_to_residents_at_once(clerk_client, store, sms):
    assert clerk_client.post("/clerk/contacts", data=change()).status_code == 302
    [c] = store.contact_changes("dunkirk")
    assert (c.phone, c.entered_by, c.reason) == ("(608) 555-0100", "ann", "the office's new line")
    page = clerk_client.get("/clerk/contacts").get_data(as_text=True)
    assert "(608) 555-0100" in page and "the office&#39;s new line" in page
    assert "(608) 555-0100" in sms("HELP").get_data(as_text=True)


@pytest.mark.parametrize("values, says", [
    ({"phone": "555-01"}, "not a phone number"),
    ({"email": "clerk at dunkirk"}, "not an email address"),
    ({"office": "mayor"}, "not a valid choice"),
])
def test_values_the_loader_would_refuse_get_a_400_naming_the_problem_and_nothing_is_kept(
        clerk_client, store, values, says):
    r = clerk_client.post("/clerk/contacts", data=change(**values))
    assert r.status_code == 400 and says in r.get_data(as_text=True).lower()
    assert store.contact_changes("dunkirk") == []


def test_undoing_a_change_needs_a_reason_and_brings_back_the_values_before(clerk_client, store):
    clerk_client.post("/clerk/contacts", data=change(office="fire_department", phone="608-555-0199"))
    clerk_client.post("/clerk/contacts", data=change(office="fire_department", phone="608-555-0911"))
    slip = store.contact_changes("dunkirk")[-1]
    assert clerk_client.post("/clerk/contacts/undo", data={"change_id": str(slip.id), "reason": ""}).status_code == 400
    assert clerk_client.post("/clerk/contacts/undo", data={"change_id": str(slip.id),
                                                           "reason": "wrong number"}).status_code == 302
    page = clerk_client.get("/clerk/contacts").get_data(as_text=True)
    assert "Undone by ann" in page and "wrong number" in page
    assert "Town Fire Department, (608) 555-0199" in page
    assert clerk_client.post("/clerk/contacts/undo", data={"change_id": str(slip.id),
                                                           "reason": "again"}).status_code == 404


def test_the_fire_department_reads_the_contacts_but_cannot_change_them(make_app, store):
    store.create_clerk("engine1", CLERK_PW, role="fire")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    c.post("/clerk/login", data={"username": "engine1", "password": CLERK_PW})
    page = c.get("/clerk/contacts")
    assert page.status_code == 200 and "Save the contact" not in page.get_data(as_text=True)
    assert c.post("/clerk/contacts", data=change()).status_code == 403
    assert store.contact_changes("dunkirk") == []
