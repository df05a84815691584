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


def change_values(**values):
    data = {"office": "clerk", "phone": "608-555-0100", "email": "clerk@dunkirk.example",
            "hours": "Mon-Thu 9 a.m.-noon", "reason": "the office's new line"}
    data.update(values)
    return data


def test_a_saved_contact_is_shown_with_who_and_why_and_given_to_residents_at_once(clerk_client, store, sms):
    assert clerk_client.post("/clerk/contacts", data=change_values()).status_code == 302
    [c] = store.contact_changes("dunkirk")
    assert (c.phone, c.entered_by, c.reason) == ("(608) 555-0100", "ann", "the office's new line")
    page = clerk_client.get("/clerk/contacts").get_data(as_text=True)
    assert "(608) 555-0100" in page and "the office&#39;s new line" in page
    assert "(608) 555-0100" in sms("HELP").get_data(as_text=True)


@pytest.mark.parametrize("values, says", [
    ({"phone": "555-01"}, "not a phone number"),
    ({"email": "clerk at dunkirk"}, "not an email address"),
    ({"office": "mayor"}, "not a valid choice"),
    ({"reason": ""}, "this field is required"),
])
def test_values_the_loader_would_refuse_get_a_400_naming_the_problem_and_nothing_is_kept(
        clerk_client, store, values, says):
    r = clerk_client.post("/clerk/contacts", data=change_values(**values))
    assert r.status_code == 400 and says in r.get_data(as_text=True).lower()
    assert store.contact_changes("dunkirk") == []


def test_undoing_a_change_needs_a_reason_and_brings_back_the_values_before(clerk_client, store):
    clerk_client.post("/clerk/contacts", data=change_values(office="fire_department", phone="608-555-0199"))
    clerk_client.post("/clerk/contacts", data=change_values(office="fire_department", phone="608-555-0911"))
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
    assert c.post("/clerk/contacts", data=change_values()).status_code == 403
    assert store.contact_changes("dunkirk") == []


def test_the_form_offers_the_office_asked_for_with_what_residents_are_given_now(clerk_client, store):
    store.set_contact(town="dunkirk", office="fire_department", phone="608-555-0199", email="fd@dunkirk.example",
                      entered_by="ann")
    page = clerk_client.get("/clerk/contacts?office=fire_department").get_data(as_text=True)
    assert 'value="(608) 555-0199"' in page and 'value="fd@dunkirk.example"' in page
    assert '<option selected value="fire_department">' in page
    assert 'value="(608) 555-0199"' not in clerk_client.get("/clerk/contacts").get_data(as_text=True)


@pytest.mark.parametrize("change_id", ["\u00b2", "99999999999999999999", "x"])
def test_undoing_a_change_that_cannot_exist_is_a_400_not_an_error(clerk_client, change_id):
    assert clerk_client.post("/clerk/contacts/undo", data={"change_id": change_id, "reason": "r"}).status_code == 400


def test_the_fire_department_cannot_undo_a_change_and_saving_needs_the_csrf_token(make_app, store):
    change = store.set_contact(town="dunkirk", office="clerk", phone="608-555-0100", entered_by="ann")
    store.create_clerk("engine1", CLERK_PW, role="fire")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    c.post("/clerk/login", data={"username": "engine1", "password": CLERK_PW})
    assert c.post("/clerk/contacts/undo", data={"change_id": str(change.id), "reason": "r"}).status_code == 403
    import re
    store.create_clerk("ann", CLERK_PW)
    c = make_app().test_client()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      c.get("/clerk/login").get_data(as_text=True)).group(1)
    c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW, "csrf_token": token})
    assert c.post("/clerk/contacts", data=change_values()).status_code == 400
    assert len(store.contact_changes("dunkirk")) == 1
