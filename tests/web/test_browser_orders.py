"""Headless Chromium (Debian's package): the clerk records a dated no-burning order by keyboard
alone, and the Fire Department account sees its page, axe-clean (WCAG 2.1 A/AA), with a screenshot of each
page under the test's tmp directory (kept in SCREENSHOT_DIR when set) and the print stylesheet applied."""

import os
from datetime import date
from pathlib import Path

import pytest

from conftest import CLERK_PW
from live import LiveServer
from test_browser import ARGS, CHROMIUM, axe_violations, browser, focused, tab_to  # noqa: F401 - fixtures

pytestmark = [
    pytest.mark.stack,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason=f"{CHROMIUM} is missing: `make system-deps` installs Debian's chromium"),
]


@pytest.fixture
def live(make_app, store):
    app = make_app(SESSION_COOKIE_SECURE=True, PUBLIC_URL="")
    store.create_clerk("ann", CLERK_PW)
    store.create_clerk("engine1", CLERK_PW, role="fire")
    store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1234 County Road K", phone="+16085550100",
                                burn_date=date(2026, 12, 2), location="back field", approx_time="9 a.m.",
                                channel="sms", conversation_id="c")
    with LiveServer(app) as srv:
        yield srv


def _shots(tmp_path) -> Path:
    return Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)


def _login(page, url, user):
    page.goto(url + "/clerk/login")
    page.fill("#username", user)
    page.fill("#password", CLERK_PW)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_the_clerk_records_an_order_by_keyboard_axe_clean(browser, live, store, tmp_path):
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    _login(page, live.url, "ann")
    page.goto(live.url + "/clerk/order")
    assert axe_violations(page) == []
    f = tab_to(page, lambda f: f["id"] == "start")
    assert f["outline"].split()[0] != "none"
    page.keyboard.type("12012026")  # Chromium's datetime-local takes the digits field by field
    page.keyboard.press("Tab")
    page.keyboard.type("0800AM")
    tab_to(page, lambda f: f["id"] == "until_lifted")
    page.keyboard.press("Space")
    tab_to(page, lambda f: f["id"] == "board_action")
    page.keyboard.type("Special meeting 11/30, motion 3")
    page.keyboard.press("Tab")
    page.keyboard.type("Exceptional dryness")
    f = tab_to(page, lambda f: f["text"] == "Record the order")
    page.keyboard.press("Enter")
    page.wait_for_selector(".flash")
    assert "recorded" in page.inner_text(".flash")
    # the notification on December 2 falls under the order: listed on the page from the records, not in the flash
    assert "Ann Lee" in page.inner_text("ul.affected")
    orders = store.orders("dunkirk")
    assert len(orders) == 1 and orders[0].end_at is None and orders[0].board_action.startswith("Special meeting")
    assert axe_violations(page) == []
    page.screenshot(path=str(_shots(tmp_path) / "clerk-order.png"), full_page=True)
    # a form with errors stays accessible
    page.click("button:has-text('Record the order')")
    page.wait_for_selector(".error")
    assert axe_violations(page) == []


def test_the_fire_department_page_is_axe_clean_printable_and_its_own(browser, live, store, tmp_path):
    from datetime import datetime, timezone
    store.record_order("dunkirk", datetime(2026, 12, 1, 14, tzinfo=timezone.utc), None, reason="Exceptional dryness",
                       board_action="Special meeting 11/30", recorded_by="ann")
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    _login(page, live.url, "engine1")
    assert page.url == live.url + "/clerk/fire"
    assert "Ann Lee" in page.content() and "sunset" in page.content()
    assert axe_violations(page) == []
    f = tab_to(page, lambda f: f["text"] == "Download as CSV")
    assert f["outline"].split()[0] != "none"
    page.screenshot(path=str(_shots(tmp_path) / "fire.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('header.site-header')).display") == "none"
    page.screenshot(path=str(_shots(tmp_path) / "fire-print.png"), full_page=True)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 320, "height": 640})
    assert axe_violations(page) == []
    assert page.goto(live.url + "/clerk/order").status == 403
