"""Headless Chromium (Debian's package) on the pages of #14 as they look in use: the clerk's order page with
its text-message section filled (waiting, sent, and the people not reached, with the "alerts are not being
sent" notice when the Twilio settings are missing), the status page with the same section, and the Fire
Department's page over several days with an order in force. Each page is walked by Tab from top to bottom -
every control reached in document order, focus always visible - and is axe-clean (WCAG 2.1 A/AA) at 1024 and
320 px wide, without sideways scrolling of the page at 320 px."""

import os
from datetime import date, datetime, timezone

import pytest

from conftest import CLERK_PW
from live import LiveServer
from test_browser import CHROMIUM, axe_violations, browser  # noqa: F401 - fixture

pytestmark = [
    pytest.mark.stack,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason=f"{CHROMIUM} is missing: `make system-deps` installs Debian's chromium"),
]

FIRE = "+16085550911"
# ASSISTANT_NOW (conftest) is Monday 2026-11-30 09:00 in Dunkirk; the order covers Tuesday to Thursday.
ORDER_FROM = datetime(2026, 12, 1, 14, tzinfo=timezone.utc)
ORDER_UNTIL = datetime(2026, 12, 4, 6, tzinfo=timezone.utc)
PEOPLE = [  # name, phone, burn day, what becomes of the text about the order
    ("Ann Lee", "+16085550100", date(2026, 12, 2), "delivered"),
    ("Bo Diaz", "+16085550101", date(2026, 12, 2), "undelivered"),
    ("Cy Park", "+16085550102", date(2026, 12, 3), "failed"),
    ("Di Ross", "+16085550103", date(2026, 12, 3), "opted out"),
    ("Ed Moe", "ask at the farm", date(2026, 12, 3), "no number"),
    ("Flo Kim", "+16085550105", date(2026, 12, 2), "waiting"),
]
NOT_REACHED = {"Bo Diaz", "Cy Park", "Di Ross", "Ed Moe"}


def _serve(make_app, store, **config):
    app = make_app(SESSION_COOKIE_SECURE=True, PUBLIC_URL="", FIRE_DEPARTMENT_SMS=FIRE, **config)
    store.create_clerk("ann", CLERK_PW)
    store.create_clerk("engine1", CLERK_PW, role="fire")
    store.set_sms_opt_out("+16085550103", True)
    notes = {name: store.add_burn_notification(
        town="dunkirk", name=name, address=f"N{i} County Road K", phone=phone, burn_date=day,
        location="back field", approx_time="9 a.m.", channel="web", conversation_id=f"c{i}")
        for i, (name, phone, day, _) in enumerate(PEOPLE)}
    with app.app_context():
        from web import alerts
        plan = alerts.plan(date(2026, 11, 30))
    order = store.record_order("dunkirk", ORDER_FROM, ORDER_UNTIL, reason="Exceptional dryness",
                               board_action="Special meeting 11/30, motion 3", recorded_by="ann", alerts=plan).order
    by_note = {a.notification_id: a for a in store.alerts(order.id)}
    for name, _, _, fate in PEOPLE:
        a = by_note[notes[name].id]
        if fate in ("delivered", "undelivered"):
            store.alert_sent(a.id, f"SM{a.id:032d}")
            store.alert_delivery(a.id, f"SM{a.id:032d}", fate, "30003" if fate == "undelivered" else "")
        elif fate == "failed":
            store.alert_failed(a.id, "Twilio 400 21211: invalid 'To' phone number")
    return LiveServer(app)


@pytest.fixture
def unconfigured(make_app, store):
    """The conftest app has TWILIO_AUTH_TOKEN (for signed webhooks) but neither TWILIO_ACCOUNT_SID nor TWILIO_FROM."""
    with _serve(make_app, store) as srv:
        yield srv


@pytest.fixture
def configured(make_app, store):
    with _serve(make_app, store, TWILIO_ACCOUNT_SID="AC" + "f" * 32, TWILIO_FROM="+16085550000") as srv:
        yield srv


def _login(page, url, user):
    page.goto(url + "/clerk/login")
    page.fill("#username", user)
    page.fill("#password", CLERK_PW)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def keyboard_walk(page) -> list[dict]:
    """Tab from the top of the page to its end. Every element that takes focus by Tab (visible, not disabled,
    tabindex >= 0) must be reached, in document order, with a visible outline; returns them as reached."""
    n = page.evaluate("""() => {
        const sel = 'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]';
        const all = [...document.querySelectorAll(sel)].filter(e => e.tabIndex >= 0 && !e.disabled
            && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden');
        all.forEach((e, i) => e.dataset.walk = i);
        document.activeElement && document.activeElement.blur();
        window.scrollTo(0, 0);
        return all.length; }""")
    page.focus("body")
    seen: list[dict] = []
    for _ in range(4 * n + 20):
        page.keyboard.press("Tab")
        f = page.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
            return {walk: e.dataset ? e.dataset.walk : undefined, tag: e.tagName,
                    text: (e.getAttribute('aria-label') || e.textContent || e.id || '').trim().slice(0, 60),
                    outline: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0}; }""")
        if f["walk"] is None:  # past the last control: focus left the document's controls
            break
        if seen and seen[-1]["walk"] == f["walk"]:
            continue  # Tab between the parts of a date-time field stays on the field
        assert f["outline"] != "none" and f["width"] >= 2, f"focus not visible on {f}"
        seen.append(f)
    order = [int(f["walk"]) for f in seen]
    assert order == list(range(n)), f"Tab reached {order} of {n} controls"
    return seen


def _narrow_and_clean(page):
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 1024, "height": 900})


def test_the_order_page_with_texts_waiting_sent_and_not_reached_is_walked_by_keyboard_and_axe_clean(
        browser, unconfigured, tmp_path):
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    _login(page, unconfigured.url, "ann")
    page.goto(unconfigured.url + "/clerk/order")
    section = page.inner_text("section[aria-labelledby=alerts-h]")
    assert "Alerts are not being sent: TWILIO_ACCOUNT_SID, TWILIO_FROM are not set." in section
    # waiting: Flo Kim's text and the Fire Department's; Ann's was delivered; four people were not reached
    assert "Waiting to be sent: 2. Sent: 0. Delivered: 1. Not reached: 4." in section
    table = page.inner_text("[role=region][aria-label='People the texts did not reach']")
    for name, phone, _, fate in PEOPLE:
        assert (name in table) == (name in NOT_REACHED), name
        if name in NOT_REACHED:
            assert phone in table, name
    for why in ("undelivered (30003)", "not sent: Twilio 400 21211", "opted out of texts", "not a US number that takes texts"):
        assert why in table
    assert axe_violations(page) == []
    reached = keyboard_walk(page)
    assert any(f["text"] == "People the texts did not reach" for f in reached)  # the table scrolls by keyboard
    assert {"Record the order", "Extend the order"} <= {f["text"] for f in reached}
    page.screenshot(path=str(tmp_path / "order-alerts.png"), full_page=True)
    _narrow_and_clean(page)

    page.goto(unconfigured.url + "/clerk/status")
    assert "Alerts are not being sent" in page.inner_text("main")
    assert "Ed Moe" in page.inner_text("main")
    assert axe_violations(page) == []
    keyboard_walk(page)
    _narrow_and_clean(page)


def test_with_the_twilio_settings_the_order_page_says_nothing_of_alerts_not_sent_and_stays_axe_clean(
        browser, configured):
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    _login(page, configured.url, "ann")
    page.goto(configured.url + "/clerk/order")
    section = page.inner_text("section[aria-labelledby=alerts-h]")
    assert "not being sent" not in section and "Not reached: 4." in section
    assert axe_violations(page) == []
    keyboard_walk(page)


def test_the_fire_department_page_over_several_days_is_walked_by_keyboard_and_axe_clean(
        browser, unconfigured, tmp_path):
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    _login(page, unconfigured.url, "engine1")
    page.goto(unconfigured.url + "/clerk/fire?days=7")
    main = page.inner_text("main")
    assert main.count("No-burning order:") == 3  # Tuesday (from 8 a.m.), Wednesday, Thursday (until midnight)
    assert all(name in main for name, *_ in PEOPLE)
    assert "Text messages about orders" not in main  # the clerk's section is not the Fire Department's
    assert axe_violations(page) == []
    reached = keyboard_walk(page)
    regions = [f["text"] for f in reached if f["text"].startswith("Burn notifications, ")]
    assert regions == ["Burn notifications, Wednesday, December 2", "Burn notifications, Thursday, December 3"]
    assert any(f["text"] == "Download as CSV" for f in reached)
    assert any(f["text"].startswith("Sign out") for f in reached)
    page.screenshot(path=str(tmp_path / "fire-week.png"), full_page=True)
    _narrow_and_clean(page)
