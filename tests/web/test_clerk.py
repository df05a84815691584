"""The clerk quick reference: login, CSRF, rate limit, pages, calculators, order, CSV."""

import csv
import io
import re
from datetime import date, datetime, timezone

import pytest

from conftest import CLERK_PW

PAGES = ["/clerk/", "/clerk/code", "/clerk/code?q=barking", "/clerk/code/7.02-6", "/clerk/calc/license",
         "/clerk/calc/quarantine", "/clerk/calc/burning", "/clerk/burns", "/clerk/burns?all=1", "/clerk/burns.csv",
         "/clerk/order", "/clerk/unanswered", "/clerk/fees", "/clerk/contacts", "/clerk/sms", "/clerk/records"]


@pytest.mark.parametrize("path", PAGES)
def test_anonymous_clerk_pages_redirect_to_login(client, path):
    r = client.get(path)
    assert r.status_code == 302
    assert r.headers["Location"].startswith("/clerk/login?next=")


@pytest.mark.parametrize("path", PAGES)
def test_clerk_pages_render(clerk_client, path):
    r = clerk_client.get(path)
    assert r.status_code == 200, r.data[:500]
    assert r.headers["Cache-Control"] == "no-store"


def test_login_form_requires_csrf_token(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app().test_client()  # CSRF on
    r = c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW})
    assert r.status_code == 400
    page = c.get("/clerk/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW, "csrf_token": token})
    assert r.status_code == 302 and r.headers["Location"] == "/clerk/"


def test_order_form_requires_csrf_token(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app().test_client()
    page = c.get("/clerk/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW, "csrf_token": token})
    r = c.post("/clerk/order", data={"start": "2026-11-30T09:00", "until_lifted": "y", "board_action": "x",
                                     "reason": "dry"})
    assert r.status_code == 400
    assert store.orders("dunkirk") == []


def test_wrong_password_and_rate_limit(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [c.post("/clerk/login", data={"username": "ann", "password": "wrong password"}).status_code
             for _ in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]
    assert b"Traceback" not in c.post("/clerk/login", data={"username": "ann", "password": "x"}).data


def test_login_does_not_redirect_off_site(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    r = c.post("/clerk/login?next=//evil.example/x", data={"username": "ann", "password": CLERK_PW})
    assert r.headers["Location"] == "/clerk/"


def test_session_cookie_flags(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False, SESSION_COOKIE_SECURE=True).test_client()
    r = c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW})
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie


def test_logout(clerk_client):
    r = clerk_client.post("/clerk/logout")
    assert r.status_code == 302
    assert clerk_client.get("/clerk/").status_code == 302


def test_recording_extending_and_lifting_an_order_through_the_page_keeps_history(clerk_client, store):
    # ASSISTANT_NOW is 2026-11-30 15:00 UTC, 9:00 a.m. in Dunkirk
    r = clerk_client.post("/clerk/order", data={"start": "2026-12-01T08:00", "end": "2026-12-03T18:00",
                                                 "board_action": "Special meeting 11/30, motion 3",
                                                 "reason": "Dry and windy"})
    assert r.status_code == 302
    assert store.burning_order("dunkirk", at=datetime(2026, 11, 30, 16, tzinfo=timezone.utc)) is None  # not yet
    order = store.burning_order("dunkirk", at=datetime(2026, 12, 2, 18, tzinfo=timezone.utc))
    assert order.set_by == "ann" and order.reason == "Dry and windy"
    assert order.board_action == "Special meeting 11/30, motion 3"
    assert order.start == datetime(2026, 12, 1, 14, tzinfo=timezone.utc)  # 8:00 a.m. CST
    r = clerk_client.post("/clerk/order/extend", data={"order_id": str(order.order_id), "end": "2026-12-06T18:00",
                                                        "board_action": "Meeting 12/3"})
    assert r.status_code == 302
    assert store.burning_order("dunkirk", at=datetime(2026, 12, 5, 18, tzinfo=timezone.utc)) is not None
    page = clerk_client.get("/clerk/order").get_data(as_text=True)
    assert "Dry and windy" in page and "Meeting 12/3" in page and "extended" in page
    assert "No order is in force now" in page  # it begins tomorrow
    # no end and no "until lifted": asked back, nothing saved
    r = clerk_client.post("/clerk/order", data={"start": "2026-12-10T08:00", "board_action": "x", "reason": "y"})
    assert r.status_code == 400 and "until lifted" in r.get_data(as_text=True)
    assert clerk_client.post("/clerk/order", data={"start": "bad", "board_action": "x", "reason": "y",
                                                   "until_lifted": "y"}).status_code == 400
    # an order from now until lifted, then lifted early through the page
    clerk_client.post("/clerk/order", data={"start": "2026-11-30T09:00", "until_lifted": "y",
                                            "board_action": "Emergency meeting", "reason": "Drought"})
    assert "is in force now" in clerk_client.get("/clerk/order").get_data(as_text=True)
    r = clerk_client.post("/clerk/order/lift", data={"at": "2026-11-30T09:00", "board_action": "Meeting 11/30",
                                                      "reason": "Rain"})
    assert r.status_code == 302
    kinds = [h.kind for h in store.order_history("dunkirk")]
    assert kinds[:2] == ["lifted", "superseded"] and kinds.count("recorded") == 2
    first = next(o for o in store.orders("dunkirk") if o.id == order.order_id)
    assert first.ended_by.startswith("superseded")  # the order from today took over the one from tomorrow


def test_recording_an_order_lists_the_burn_notifications_it_covers(clerk_client, store):
    covered = store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1234 County Road K",
                                          phone="+16085550100", burn_date=date(2026, 12, 2), location="field",
                                          approx_time="9 a.m.", channel="sms", conversation_id="c")
    r = clerk_client.post("/clerk/order", data={"start": "2026-12-01T08:00", "end": "2026-12-03T18:00",
                                                 "board_action": "Meeting", "reason": "Dry"}, follow_redirects=True)
    assert f"{covered.reference} (Ann Lee, 2026-12-02)" in r.get_data(as_text=True)


def test_the_notifications_an_order_affects_are_listed_from_the_records_not_the_session_cookie(clerk_client, store):
    """The list went into the session cookie as a flash message; past 4 KB (about 200 notices) browsers drop
    the cookie, so the clerk saw none of them (and was signed out)."""
    import random
    rng = random.Random(12)
    names = ["".join(rng.choice("bcdfghklmnprstvwz") + rng.choice("aeiou") for _ in range(3)).title() + " "
             + "".join(rng.choice("bcdfghklmnprstvwz") + rng.choice("aeiou") for _ in range(4)).title()
             for _ in range(250)]
    notes = [store.add_burn_notification(town="dunkirk", name=name, address=f"N{i} County Road K",
                                         phone=f"+1608555{i:04d}", burn_date=date(2026, 12, 1 + i % 3),
                                         channel="web") for i, name in enumerate(names)]
    r = clerk_client.post("/clerk/order", data={"start": "2026-12-01T00:00", "end": "2026-12-04T00:00",
                                                 "board_action": "Meeting", "reason": "Dry"})
    assert r.status_code == 302
    for cookie in r.headers.getlist("Set-Cookie"):
        assert len(cookie) < 4093, f"a {len(cookie)}-byte cookie: browsers drop it"
    page = clerk_client.get(r.headers["Location"]).get_data(as_text=True)
    assert "250 burn notification(s) fall on the days this change affects" in page
    assert all(f"{n.reference} ({n.name}, {n.burn_date.isoformat()})" in page for n in notes)
    assert clerk_client.get("/clerk/order?affected_from=yesterday").status_code == 400
    assert clerk_client.get("/clerk/order?affected_from=2026-12-01T00:00").status_code == 400  # no offset
    assert "this change affects" not in clerk_client.get("/clerk/order").get_data(as_text=True)


def test_burn_list_filter_and_csv(clerk_client, store):
    store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1234 County Road K", phone="+16085550100",
                                burn_date=date(2026, 11, 30), location="field", approx_time="9 a.m.",
                                channel="sms", conversation_id="c")
    store.add_burn_notification(town="dunkirk", name="=HYPERLINK(\"x\")", address="1 Main St", phone="+1",
                                burn_date=date(2026, 12, 20), location="", approx_time="", channel="web",
                                conversation_id="c")
    store.add_burn_notification(town="dunkirk", name="Old Burn", address="2 Main St", phone="+1",
                                burn_date=date(2026, 1, 2), channel="web")
    page = clerk_client.get("/clerk/burns").get_data(as_text=True)
    assert "Ann Lee" in page and "Old Burn" not in page  # today and upcoming by default
    page = clerk_client.get("/clerk/burns?from=2026-12-01&to=2026-12-31").get_data(as_text=True)
    assert "Ann Lee" not in page and "1 Main St" in page
    assert "Ann Lee" in clerk_client.get("/clerk/").get_data(as_text=True)  # today's list on the overview
    r = clerk_client.get("/clerk/burns.csv?all=1")
    assert r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert len(rows) == 3
    assert [x["name"] for x in rows if x["address"] == "1 Main St"] == ["'=HYPERLINK(\"x\")"]
    assert clerk_client.get("/clerk/burns?from=yesterday").status_code == 400


def test_xss_in_records_is_shown_literally(clerk_client, store):
    payload = "<script>alert(1)</script>"
    store.record_unanswered(town="dunkirk", text=payload, channel="web", suggestions=[payload])
    page = clerk_client.get("/clerk/unanswered").get_data(as_text=True)
    assert payload not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    q = clerk_client.get("/clerk/code?q=" + payload).get_data(as_text=True)
    assert payload not in q


def test_code_search_finds_sections(clerk_client):
    page = clerk_client.get("/clerk/code?q=rabies").get_data(as_text=True)
    assert "<mark>" in page.lower() and "7.02-5" in page


def test_fees_page_shows_sources(clerk_client):
    page = clerk_client.get("/clerk/fees").get_data(as_text=True)
    assert "Where the amount comes from" in page and "$" in page


def test_calculators_show_steps_and_citations(clerk_client):
    r = clerk_client.post("/clerk/calc/license", data={"on": "2026-03-01", "dogs": "1", "neutered": "1",
                                                       "service_dogs": "0"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "Answer" in page and "Citations" in page, page[-3000:]
    r = clerk_client.post("/clerk/calc/quarantine", data={"incident": "2026-11-25", "today": "2026-11-30",
                                                          "kind": "bite", "animal": "dog", "vaccinated": "yes"})
    assert "Citations" in r.get_data(as_text=True)
    r = clerk_client.post("/clerk/calc/burning", data={"day": "2026-11-30", "at": "23:30", "material": ""})
    assert "Citations" in r.get_data(as_text=True)


def test_burning_calculator_uses_the_order_in_force(clerk_client, store):
    store.record_order("dunkirk", datetime(2026, 12, 1, 14, tzinfo=timezone.utc), None, reason="Drought emergency",
                       board_action="Meeting", recorded_by="ann")
    r = clerk_client.post("/clerk/calc/burning", data={"day": "2026-11-30", "at": "12:00", "material": ""})
    assert "Drought emergency" not in r.get_data(as_text=True)  # the order begins tomorrow
    r = clerk_client.post("/clerk/calc/burning", data={"day": "2026-12-02", "at": "12:00", "material": ""})
    assert "Drought emergency" in r.get_data(as_text=True) and "No, you may not burn" in r.get_data(as_text=True)


def test_create_clerk_command(app, store):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-clerk", "bob", "--password", "another long password"])
    assert result.exit_code == 0, result.output
    assert store.verify_clerk("bob", "another long password")
    result = runner.invoke(args=["create-clerk", "carl", "--password", "short"])
    assert result.exit_code != 0


def test_purge_command(app, store):
    result = app.test_cli_runner().invoke(args=["purge", "--days", "3650"])
    assert result.exit_code == 0 and "burn_notifications" in result.output


def test_state_statute_sections_have_pages(clerk_client, client):
    from knowledge import load_town
    number = next(n for n in load_town("dunkirk").sections if n.startswith("Wis. Stat."))
    assert clerk_client.get(f"/clerk/code/{number}").status_code == 200
    assert client.get(f"/code/{number}").status_code == 200


@pytest.mark.parametrize("path", ["/clerk/", "/clerk/code", "/clerk/fees", "/clerk/calc/burning", "/clerk/order"])
def test_mequon_clerk_pages_render(make_app, store, path):
    store.create_clerk("mq", CLERK_PW, town="mequon")
    c = make_app(TOWN="mequon", WTF_CSRF_ENABLED=False).test_client()
    c.post("/clerk/login", data={"username": "mq", "password": CLERK_PW})
    assert c.get(path).status_code == 200


def test_mequon_chat_links_its_own_sections(make_app, fake_rasa):
    c = make_app(TOWN="mequon").test_client()
    assert b"Mequon" in c.get("/chat").data
    cid = c.post("/chat/api/start").get_json()["conversation_id"]
    r = c.post("/chat/api/message", json={"conversation_id": cid, "text": "what about 58-521"})
    parts = r.get_json()["messages"][0]["parts"]
    assert {"text": "58-521", "href": "/code/58-521"} in parts


def test_the_clerks_calculator_shows_every_step_with_its_own_citations_and_every_gap(clerk_client):
    import re
    r = clerk_client.post("/clerk/calc/burning", data={"day": "2026-11-30", "at": "23:30", "material": ""})
    page = r.get_data(as_text=True)
    steps = re.search(r"How it was worked out</h3>\s*<ol>(.*?)</ol>", page, re.S).group(1)
    assert steps.count("<li>") >= 2 and steps.count('class="step-cites"') == steps.count("<li>"), \
        "every burning step shows the sections that back it"
    r = clerk_client.post("/clerk/calc/license", data={"on": "2026-05-01", "dogs": "1", "neutered": "1",
                                                       "service_dogs": "0"})
    page = r.get_data(as_text=True)
    assert "Our copy of the code has a gap" in page, "the clerk sees each gap in full"
