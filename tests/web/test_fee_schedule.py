"""The clerk's "Fee schedule" page (web/clerk/fees.py): a clerk previews and saves an amount the code delegates,
refused with the loader's reasons, undoes one with a reason, and exports fees.yml; the Fire Department reads
only; the amount reaches the clerk's calculator at once."""

from __future__ import annotations

import re

import pytest
import yaml

from conftest import CLERK_PW
from records import kept

TAX = "dog_license.tax.neutered"


@pytest.fixture(autouse=True)
def read_every_time(monkeypatch):
    monkeypatch.setattr(kept, "READ_EVERY", 0.0)


def entry(**changes):
    data = {"parameter": TAX, "value": "10.00", "since": "2027-01-01", "source": "Town Board resolution 2026-14",
            "reason": "the 2027 license fee"}
    data.update(changes)
    return data


def license_answer(client, day="2027-02-01"):
    page = client.post("/clerk/calc/license", data={"on": day, "dogs": "1", "neutered": "1"})
    return page.get_data(as_text=True)


def test_showing_what_residents_would_be_told_saves_nothing(clerk_client, store):
    page = clerk_client.post("/clerk/fees/preview", data=entry()).get_data(as_text=True)
    assert "Preview" in page and "$10.00" in page and "Would be told" in page
    assert store.fee_changes("dunkirk") == []


def test_a_saved_amount_is_listed_with_who_and_why_and_used_by_the_calculator_at_once(clerk_client, store):
    r = clerk_client.post("/clerk/fees", data=entry())
    assert r.status_code == 302
    [c] = store.fee_changes("dunkirk")
    assert (c.parameter, c.amount_cents, c.entered_by, c.reason) == (TAX, 1000, "ann", "the 2027 license fee")
    page = clerk_client.get("/clerk/fees").get_data(as_text=True)
    assert "Town Board resolution 2026-14" in page and "ann" in page
    assert "$10.00" in license_answer(clerk_client)


@pytest.mark.parametrize("changes, says", [
    ({"parameter": "dog_license.late_fee"}, "Not a valid choice"),  # the code sets it: not offered
    ({"value": "-5"}, "must not be negative"),
    ({"value": "ten dollars"}, "must be an amount in dollars"),
    ({"value": "10.005"}, "whole cents"),
    ({"since": "2027-13-01"}, "Not a valid date"),
    ({"source": ""}, "This field is required"),
    ({"reason": ""}, "This field is required"),
    ({"value": "1e30"}, "a slip of the keyboard"),
    ({"value": "99999999999999999999"}, "a slip of the keyboard"),
    ({"value": "NaN"}, "must be an amount in dollars"),
])
def test_an_entry_the_loader_would_refuse_gets_a_400_naming_the_problem_and_nothing_is_kept(
        clerk_client, store, changes, says):
    for path in ("/clerk/fees", "/clerk/fees/preview"):
        r = clerk_client.post(path, data=entry(**changes))
        assert r.status_code == 400
        assert says.lower() in r.get_data(as_text=True).lower()
    assert store.fee_changes("dunkirk") == []


def test_undoing_an_entry_needs_a_reason_and_puts_the_earlier_amount_back(clerk_client, store):
    clerk_client.post("/clerk/fees", data=entry(value="100"))  # a slip
    assert "$100.00" in license_answer(clerk_client)
    [c] = store.fee_changes("dunkirk")
    assert clerk_client.post("/clerk/fees/undo", data={"change_id": str(c.id), "reason": ""}).status_code == 400
    r = clerk_client.post("/clerk/fees/undo", data={"change_id": str(c.id), "reason": "typo: meant $10"})
    assert r.status_code == 302
    assert "$100.00" not in license_answer(clerk_client)
    page = clerk_client.get("/clerk/fees").get_data(as_text=True)
    assert "Undone by ann" in page and "typo: meant $10" in page
    assert clerk_client.post("/clerk/fees/undo", data={"change_id": str(c.id), "reason": "again"}).status_code == 404
    assert clerk_client.post("/clerk/fees/undo", data={"change_id": "x1", "reason": "r"}).status_code == 400


def test_a_correction_after_an_entry_is_a_new_entry_and_the_later_one_counts(clerk_client, store):
    clerk_client.post("/clerk/fees", data=entry(value="10"))
    clerk_client.post("/clerk/fees", data=entry(value="12.50", reason="resolution corrected"))
    assert "$12.50" in license_answer(clerk_client)
    assert len(store.fee_changes("dunkirk")) == 2


def test_the_export_is_a_fees_yml_the_loader_reads(clerk_client, tmp_path):
    clerk_client.post("/clerk/fees", data=entry())
    r = clerk_client.get("/clerk/fees.yml")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    data = yaml.safe_load(r.get_data(as_text=True))
    assert data == {TAX: [{"value": 10.0, "since": __import__("datetime").date(2027, 1, 1),
                           "source": "Town Board resolution 2026-14"}]}
    import shutil
    from knowledge import handlers, load_town
    from knowledge.loader import ROOT
    shutil.copytree(ROOT / "towns" / "dunkirk", tmp_path / "dunkirk")
    (tmp_path / "dunkirk" / "fees.yml").write_bytes(r.data)
    town = load_town("dunkirk", root=tmp_path)
    assert "$10.00" in handlers.license_cost(town, on=__import__("datetime").date(2027, 2, 1), dogs=1,
                                             neutered=1).lead


def test_the_fire_department_reads_the_schedule_but_cannot_change_it(make_app, store):
    store.create_clerk("engine1", CLERK_PW, role="fire")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    c.post("/clerk/login", data={"username": "engine1", "password": CLERK_PW})
    page = c.get("/clerk/fees")
    assert page.status_code == 200 and "Save the amount" not in page.get_data(as_text=True)
    assert c.post("/clerk/fees", data=entry()).status_code == 403
    assert c.post("/clerk/fees/preview", data=entry()).status_code == 403
    assert store.fee_changes("dunkirk") == []


def test_saving_an_amount_needs_the_csrf_token(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app().test_client()
    page = c.get("/clerk/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW, "csrf_token": token})
    assert c.post("/clerk/fees", data=entry()).status_code == 400
    assert store.fee_changes("dunkirk") == []


@pytest.mark.parametrize("change_id", ["\u00b2", "99999999999999999999", "-1", ""])
def test_undoing_an_entry_that_cannot_exist_is_a_400_not_an_error(clerk_client, change_id):
    assert clerk_client.post("/clerk/fees/undo", data={"change_id": change_id, "reason": "r"}).status_code == 400


def test_the_fire_department_cannot_undo_an_entry(make_app, store):
    from knowledge import load_town
    change = store.set_fee(town=load_town("dunkirk"), parameter=TAX, value=10, since=__import__("datetime").date(
        2027, 1, 1), source="res 14", entered_by="ann")
    store.create_clerk("engine1", CLERK_PW, role="fire")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    c.post("/clerk/login", data={"username": "engine1", "password": CLERK_PW})
    assert c.post("/clerk/fees/undo", data={"change_id": str(change.id), "reason": "r"}).status_code == 403
    assert store.fee_changes("dunkirk", in_force=True) != []
