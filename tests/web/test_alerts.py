"""Every notifier told, exactly once (#14): an order recorded and lifted through the clerk's page, the texts
sent by `flask send-alerts --once` through the fake Twilio REST API, delivery reported by signed status
callbacks, and the clerk shown who could not be reached; without Twilio settings the pages say nothing is
being sent."""

import random
from collections import Counter
from datetime import date, timedelta
from urllib.parse import urlsplit

import pytest

from conftest import PUBLIC, TOKEN, sign
from records.outbox import e164
from tests.fakes.twilio_api import FakeTwilio
from web.text import SMS_LIMIT, gsm7_length, to_gsm7

FROM = "+16085550000"
FIRE = "+16085550911"
FIRST = date(2026, 12, 1)  # ASSISTANT_NOW is Monday 2026-11-30


@pytest.fixture
def twilio(monkeypatch):
    with FakeTwilio(auth_token=TOKEN) as tw:
        for name, value in (("TWILIO_ACCOUNT_SID", tw.account_sid), ("TWILIO_AUTH_TOKEN", TOKEN),
                            ("TWILIO_FROM", FROM), ("TWILIO_API_BASE", tw.url), ("PUBLIC_URL", PUBLIC),
                            ("ALERT_BACKOFF_SECONDS", "0"), ("ALERT_UNCERTAIN_WAIT", "0")):
            monkeypatch.setenv(name, value)
        yield tw


@pytest.fixture
def app_(make_app, store):
    from conftest import CLERK_PW
    app = make_app(WTF_CSRF_ENABLED=False, TWILIO_ACCOUNT_SID="AC" + "f" * 32, TWILIO_FROM=FROM,
                   FIRE_DEPARTMENT_SMS=FIRE)
    store.create_clerk("ann", CLERK_PW)
    c = app.test_client()
    assert c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW}).status_code == 302
    app.clerk = c
    return app


def send_alerts(app) -> str:
    r = app.test_cli_runner().invoke(args=["send-alerts", "--once"])
    assert r.exit_code == 0, r.output
    return r.output


def callbacks(app, twilio) -> int:
    def post(url, form, signature):
        u = urlsplit(url)
        r = app.test_client().post(f"{u.path}?{u.query}", data=form, headers={"X-Twilio-Signature": signature})
        assert r.status_code == 204
    return twilio.deliver_callbacks(post)


def two_weeks_of_notifications(store, n=200):
    rng = random.Random(14)
    notes = []
    for i in range(n):
        phone = f"+1608555{i:04d}" if i % 2 else f"(608) 555-{i:04d}"  # SMS notifiers and web notifiers
        notes.append(store.add_burn_notification(
            town="dunkirk", name=f"Resident {i}", address=f"N{i} County Road K", phone=phone,
            burn_date=FIRST + timedelta(days=rng.randrange(14)), location="back field", approx_time="10 a.m.",
            channel="web" if i % 2 == 0 else "sms", conversation_id=f"c{i}"))
    return notes


def test_an_order_over_three_days_texts_exactly_those_notifiers_once_and_the_lift_clears_the_last_day(
        app_, store, twilio):
    notes = two_weeks_of_notifications(store)
    days = [date(2026, 12, 5), date(2026, 12, 6), date(2026, 12, 7)]
    inside = {e164(n.phone): n for n in notes if n.burn_date in days}
    last_day = {e164(n.phone) for n in notes if n.burn_date == days[-1]}
    undeliverable = sorted(inside)[:2]
    twilio.undeliverable.update(undeliverable)

    r = app_.clerk.post("/clerk/order", data={"start": "2026-12-05T00:00", "end": "2026-12-08T00:00",
                                              "board_action": "Special meeting 11/30, motion 3",
                                              "reason": "Exceptional dryness"})
    assert r.status_code == 302
    print(send_alerts(app_))
    sent = Counter(m["to"] for m in twilio.messages)
    assert set(sent) == set(inside) | {FIRE} and set(sent.values()) == {1}
    for m in twilio.messages:
        assert to_gsm7(m["body"]) == m["body"] and gsm7_length(m["body"]) <= SMS_LIMIT
        if m["to"] != FIRE:
            n = inside[m["to"]]
            assert "The Town Board has issued a no-burning order from Sat Dec 5 12:00 a.m. CST to Tue Dec 8 " \
                   "12:00 a.m. CST." in m["body"]
            day = f"{n.burn_date:%a %b} {n.burn_date.day}"
            assert f"Your burn on {day} (ref {n.reference}) may not go ahead." in m["body"]
    fire = twilio.sent_to(FIRE)[0]["body"]
    assert "Special meeting 11/30, motion 3" in fire and "Exceptional dryness" in fire
    print(f"e2e: {len(notes)} notifications, {len(inside)} inside the order: {len(twilio.messages) - 1} texts to "
          "them, 1 to the Fire Department")
    print("\n".join(sorted({m["body"] for m in twilio.messages}, key=len)[-2:]))

    assert callbacks(app_, twilio) == len(inside) + 1
    page = app_.clerk.get("/clerk/order").get_data(as_text=True)
    for number in undeliverable:
        assert inside[number].phone in page and inside[number].name in page
    assert page.count("undelivered (Twilio error 30003)") == 2

    r = app_.clerk.post("/clerk/order/lift", data={"at": "2026-12-07T00:00", "board_action": "Meeting 12/3",
                                                   "reason": "Rain"})
    assert r.status_code == 302
    before = len(twilio.messages)
    send_alerts(app_)
    clear = [m for m in twilio.messages[before:] if m["to"] != FIRE]
    assert Counter(m["to"] for m in clear) == Counter({number: 1 for number in last_day})
    assert all("may go ahead" in m["body"] for m in clear)
    (fire_lift,) = [m["body"] for m in twilio.messages[before:] if m["to"] == FIRE]
    assert "has lifted no-burning order" in fire_lift and "from Mon Dec 7 12:00 a.m. CST." in fire_lift
    clear = twilio.messages[before:]
    print(clear[0]["body"])
    print(f"e2e lift: {len(clear)} all-clear texts to the {len(last_day)} notifiers of the last day")

    send_alerts(app_)  # nothing is due any more: nothing is sent again
    assert len(twilio.messages) == before + len(clear)


def test_the_fire_department_is_texted_an_extension_made_on_the_order_page(app_, store, twilio):
    r = app_.clerk.post("/clerk/order", data={"start": "2026-12-05T00:00", "end": "2026-12-08T00:00",
                                              "board_action": "Meeting 11/30", "reason": "Dry"})
    assert r.status_code == 302
    order = store.orders("dunkirk")[0]
    r = app_.clerk.post("/clerk/order/extend", data={"order_id": str(order.id), "end": "2026-12-10T18:00",
                                                     "board_action": "Meeting 12/3"})
    assert r.status_code == 302
    send_alerts(app_)
    (told,) = [m["body"] for m in twilio.sent_to(FIRE)]  # the recorded text, now stale, is not sent
    assert told == (f"Town of Dunkirk: The Town Board has extended no-burning order {order.id}: it is now in force "
                    "from Sat Dec 5 12:00 a.m. CST to Thu Dec 10 6:00 p.m. CST.")


def test_without_twilio_settings_the_clerk_is_told_alerts_are_not_sent(make_app, store, monkeypatch):
    from conftest import CLERK_PW
    for name in ("TWILIO_ACCOUNT_SID", "TWILIO_FROM", "TWILIO_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    app = make_app(WTF_CSRF_ENABLED=False, TWILIO_ACCOUNT_SID="", TWILIO_FROM="", FIRE_DEPARTMENT_SMS=FIRE)
    store.create_clerk("ann", CLERK_PW)
    c = app.test_client()
    c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW})
    store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1 Road K", phone="608-555-0100",
                                burn_date=date(2026, 12, 2))
    assert c.post("/clerk/order", data={"start": "2026-12-02T00:00", "end": "2026-12-03T00:00",
                                        "board_action": "Meeting", "reason": "Dry"}).status_code == 302
    for path in ("/clerk/order", "/clerk/status"):
        page = c.get(path).get_data(as_text=True)
        assert "Alerts are not being sent:" in page and "TWILIO_ACCOUNT_SID, TWILIO_FROM are not set" in page
        assert "Waiting to be sent: 2." in page
    r = app.test_cli_runner().invoke(args=["send-alerts", "--once"])
    assert r.exit_code != 0 and "not set" in r.output
    assert {a.state for a in store.alerts()} == {"queued"}


def test_the_status_page_says_when_the_alerts_sender_is_not_running(app_, store):
    """The sender wrote a heartbeat nobody read: with it stopped, texts about orders waited unseen."""
    from test_web_hardening import _status_row
    row = _status_row(app_.clerk.get("/clerk/status").get_data(as_text=True), "Alerts sender")
    assert row.startswith("FAILING: alerts sender not running")
    store.heartbeat("alert-sender:dunkirk")  # what the running sender of this town writes
    assert _status_row(app_.clerk.get("/clerk/status").get_data(as_text=True), "Alerts sender").startswith("Working")
    stale = store.db_now() - timedelta(minutes=5)
    store.heartbeat("alert-sender:dunkirk", now=stale)
    row = _status_row(app_.clerk.get("/clerk/status").get_data(as_text=True), "Alerts sender")
    assert row.startswith("FAILING: alerts sender not running: last seen 5 min")


def test_the_sender_keeps_its_heartbeat_fresh_while_it_runs(app_, store, twilio):
    import threading
    from records.alert_sender import Sender
    stop = threading.Event()
    sender = Sender(store)
    t = threading.Thread(target=sender.run, args=(stop, 0.1))
    t.start()
    try:
        for _ in range(50):
            if "Working" in _row(app_):
                break
            stop.wait(0.1)
        assert _row(app_).startswith("Working: running")
    finally:
        stop.set()
        t.join()


def _row(app_):
    from test_web_hardening import _status_row
    return _status_row(app_.clerk.get("/clerk/status").get_data(as_text=True), "Alerts sender")


def test_a_status_callback_must_be_signed_and_well_formed(app_, store):
    client = app_.test_client()
    form = {"MessageSid": "SM1", "MessageStatus": "failed"}
    assert client.post("/sms/status?alert=1", data=form).status_code == 403
    bad = sign("/sms/status?alert=2", form)  # signed for another alert
    assert client.post("/sms/status?alert=1", data=form, headers={"X-Twilio-Signature": bad}).status_code == 403
    assert client.post("/sms/status?alert=x", data=form,
                       headers={"X-Twilio-Signature": sign("/sms/status?alert=x", form)}).status_code == 400


def test_every_text_is_gsm7_and_at_most_two_segments_even_with_a_long_reason(app_):
    from types import SimpleNamespace
    from datetime import datetime, timezone
    from web import alerts, get_town
    order = SimpleNamespace(id=7, start_at=datetime(2026, 12, 5, 6, tzinfo=timezone.utc), end_at=None,
                            board_action="Special meeting \u2014 motion 3 \U0001F525", reason="Very dry. " * 60)
    note = SimpleNamespace(burn_date=date(2026, 12, 6), reference="DK-ABCDE")
    with app_.app_context():
        town = get_town()
        texts = {k: alerts.compose(town, k, order, note, order.start_at) for k in ("order", "lifted", "fire")}
    assert "from Sat Dec 5 12:00 a.m. CST until it is lifted" in texts["order"]
    assert "Special meeting - motion 3" in texts["fire"] and texts["fire"].endswith("...")
    for text in texts.values():
        assert to_gsm7(text) == text and gsm7_length(text) <= SMS_LIMIT
