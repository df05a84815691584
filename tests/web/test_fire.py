"""The Fire Department's view (Dunkirk 7.09(4)): its own account role, the coming days' burn notifications with
sunset and the order status, printable and as CSV; clerk pages stay clerk-only."""

import csv
import io
from datetime import date, datetime, timezone

import pytest

from conftest import CLERK_PW
from test_clerk import PAGES


@pytest.fixture
def fire_client(make_app, store):
    store.create_clerk("engine1", CLERK_PW, role="fire")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    r = c.post("/clerk/login", data={"username": "engine1", "password": CLERK_PW})
    assert r.status_code == 302 and r.headers["Location"] == "/clerk/fire"
    return c


def _burn(store, day, name="Ann Lee"):
    return store.add_burn_notification(town="dunkirk", name=name, address="N1234 County Road K",
                                       phone="+16085550100", burn_date=day, location="back field",
                                       approx_time="9 a.m.", channel="sms", conversation_id="c")


def test_the_fire_department_sees_the_coming_days_with_sunset_and_the_order(fire_client, store):
    # ASSISTANT_NOW: Monday 2026-11-30, 9:00 a.m. CST
    today, wed, later = _burn(store, date(2026, 11, 30)), _burn(store, date(2026, 12, 2), "Bo Berg"), \
        _burn(store, date(2026, 12, 20), "Cy Dahl")
    store.record_order("dunkirk", datetime(2026, 12, 1, 14, tzinfo=timezone.utc),
                       datetime(2026, 12, 3, 0, tzinfo=timezone.utc), reason="Exceptional dryness",
                       board_action="Special meeting 11/30", recorded_by="ann")
    page = fire_client.get("/clerk/fire").get_data(as_text=True)
    assert today.reference in page and wed.reference in page and later.reference not in page
    assert "Monday, November 30" in page and "Sunday, December 6" in page and "December 7" not in page
    assert "sunset 4:23 p.m. CST" in page  # astral for Dunkirk on 2026-11-30: 16:23:32
    monday, _, tuesday = page.partition("Tuesday, December 1")
    assert "No no-burning order is recorded for this day." in monday
    assert "Exceptional dryness" in tuesday and "Special meeting 11/30" in tuesday
    assert 'media="print"' in page and "Fire Department pages" in page and "Unanswered" not in page
    assert "Cy Dahl" in fire_client.get("/clerk/fire?days=21").get_data(as_text=True)


def test_the_fire_department_csv_lists_each_notification_with_its_day(fire_client, store):
    _burn(store, date(2026, 12, 2), "=cmd()")
    store.record_order("dunkirk", datetime(2026, 12, 1, 14, tzinfo=timezone.utc), None, reason="Dry",
                       board_action="Meeting", recorded_by="ann")
    r = fire_client.get("/clerk/fire.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert len(rows) == 1
    assert rows[0]["burn_date"] == "2026-12-02" and rows[0]["name"] == "'=cmd()"
    assert rows[0]["sunset"].endswith("CST") and "until it is lifted" in rows[0]["no_burning_order"]


#: pages the Fire Department reads, not changes (tests/web/test_fee_schedule.py, test_contacts_page.py)
READS = {"/clerk/fees", "/clerk/contacts"}


@pytest.mark.parametrize("path", [p for p in PAGES if p not in READS])
def test_a_fire_department_account_cannot_open_clerk_pages(fire_client, path):
    assert fire_client.get(path).status_code == 403
    assert fire_client.post("/clerk/order", data={"start": "2026-11-30T09:00", "until_lifted": "y",
                                                  "board_action": "x", "reason": "y"}).status_code == 403


def test_clerks_see_the_fire_department_page_and_strangers_are_sent_to_login(clerk_client, client):
    assert clerk_client.get("/clerk/fire").status_code == 200
    assert client.get("/clerk/fire").status_code == 302
    assert client.get("/clerk/fire.csv").headers["Location"].startswith("/clerk/login")


def test_fire_accounts_are_made_by_the_cli(app, store):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-fire-account", "station2", "--password", "a long fire password"])
    assert result.exit_code == 0, result.output
    assert store.verify_clerk("station2", "a long fire password").role == "fire"
    result = runner.invoke(args=["create-clerk", "station3", "--role", "fire", "--password", "a long fire password"])
    assert result.exit_code == 0 and store.verify_clerk("station3", "a long fire password").role == "fire"
    assert runner.invoke(args=["create-clerk", "x", "--role", "chief", "--password", "a long password"]).exit_code != 0
