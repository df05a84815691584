"""Headless Chromium (Debian's package, no browser download): a whole conversation by keyboard alone, reflow
at 320 px, and axe-core with zero WCAG 2.1 A/AA violations on the chat page and every clerk page. The chat
talks to a fake Rasa on loopback (the end-to-end test covers the real one)."""

import os
from datetime import date

import pytest

from conftest import CLERK_PW
from live import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations"]}

pytestmark = [
    pytest.mark.stack,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason=f"{CHROMIUM} is missing: `make system-deps` installs Debian's chromium"),
]


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def live(make_app, store):
    app = make_app(SESSION_COOKIE_SECURE=True, PUBLIC_URL="")
    store.create_clerk("ann", CLERK_PW)
    store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1234 County Road K", phone="+16085550100",
                                burn_date=date(2026, 11, 30), location="back field", approx_time="9 a.m.",
                                channel="sms", conversation_id="c")
    store.record_unanswered(town="dunkirk", text="<b>llamas?</b>", channel="web", suggestions=["livestock"])
    store.set_burning_order("dunkirk", True, "Dry and windy", "ann")
    store.save_inbound_sms("SM1", "+16085550100", "+16085550199", "can I burn")
    with LiveServer(app) as srv:
        yield srv


def axe_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe
    results = Axe().run(page, options=WCAG)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: {v['nodes'][0]['target']})"
            for v in results.response["violations"]]


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
        return {id: e.id, tag: e.tagName, text: (e.textContent || '').trim(),
                outline: s.outlineStyle + ' ' + s.outlineWidth}; }""")


def tab_to(page, predicate, key="Tab", limit=40) -> dict:
    for _ in range(limit):
        page.keyboard.press(key)
        f = focused(page)
        if predicate(f):
            return f
    raise AssertionError(f"never reached the element by {key}")


def test_conversation_by_keyboard_alone_and_axe_clean(browser, live):
    page = browser.new_page(viewport={"width": 1024, "height": 800})
    page.goto(live.url + "/chat")
    page.wait_for_selector("#transcript .msg.bot")
    assert axe_violations(page) == []

    f = tab_to(page, lambda f: f["id"] == "chat-input")
    assert f["outline"].split()[0] != "none"  # focus is visible
    page.keyboard.type("hello there")
    page.keyboard.press("Enter")
    page.wait_for_selector(".msg.bot:has-text('You said: hello there')")

    page.keyboard.type("show me topics")  # focus stays in the input
    page.keyboard.press("Enter")
    page.wait_for_selector(".choices button:has-text('Barking dogs')")
    f = tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "Barking dogs", key="Shift+Tab")
    assert f["outline"].split()[0] != "none"
    page.keyboard.press("Enter")
    link = page.wait_for_selector("#transcript a[href='/code/7.02-6']")
    assert link.text_content() == "7.02-6"
    assert focused(page)["id"] == "chat-input"

    page.keyboard.type("xss <img src=x onerror=window.pwned=1>")
    page.keyboard.press("Enter")
    page.wait_for_selector(".msg.bot:has-text('<script>alert(2)</script>')")  # the bot's markup, as text
    assert page.evaluate("() => window.pwned === undefined && !document.querySelector('#transcript img, #transcript script')")

    log = page.query_selector("#transcript")
    assert log.get_attribute("role") == "log"
    assert axe_violations(page) == []

    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    assert axe_violations(page) == []


def test_embed_page_and_code_pages_axe_clean(browser, live):
    page = browser.new_page()
    for path in ["/chat?embed=1", "/code/", "/code/7.02-6"]:
        page.goto(live.url + path)
        assert axe_violations(page) == [], path


def test_clerk_pages_axe_clean(browser, live):
    page = browser.new_page(viewport={"width": 1024, "height": 800})
    page.goto(live.url + "/clerk/")
    assert "/clerk/login" in page.url
    assert axe_violations(page) == []
    page.fill("#username", "ann")
    page.fill("#password", CLERK_PW)
    page.keyboard.press("Enter")
    page.wait_for_url(live.url + "/clerk/")
    pages = ["/clerk/", "/clerk/code", "/clerk/code?q=rabies", "/clerk/code/7.02-5", "/clerk/calc/license",
             "/clerk/calc/quarantine", "/clerk/calc/burning", "/clerk/burns", "/clerk/order",
             "/clerk/fire", "/clerk/unanswered", "/clerk/fees", "/clerk/contacts", "/clerk/sms", "/clerk/records"]
    problems = {}
    for path in pages:
        page.goto(live.url + path)
        assert "/clerk/login" not in page.url, path
        v = axe_violations(page)
        if v:
            problems[path] = v
    # a calculator with its answer, and a form with errors
    page.goto(live.url + "/clerk/calc/burning")
    page.click("button:has-text('Work it out')")
    page.wait_for_selector("#answer-h")
    if axe_violations(page):
        problems["burning answer"] = axe_violations(page)
    page.goto(live.url + "/clerk/order")
    page.click("button:has-text('Record the order')")
    page.wait_for_selector(".error")
    if axe_violations(page):
        problems["order errors"] = axe_violations(page)
    # the fee schedule: a preview, then the saved entry with its undo form
    page.goto(live.url + "/clerk/fees")
    page.fill("#value", "10.00")
    page.fill("#since", "2027-01-01")
    page.fill("#source", "Town Board resolution 2026-14")
    page.fill("#reason", "the 2027 license fee")
    page.click("button:has-text('Preview what residents are told')")
    page.wait_for_selector("#preview-h")
    if axe_violations(page):
        problems["fee preview"] = axe_violations(page)
    page.click("button:has-text('Save the amount')")
    page.wait_for_selector("button:has-text('Undo entry')")
    if axe_violations(page):
        problems["fee history"] = axe_violations(page)
    page.goto(live.url + "/clerk/contacts")
    page.fill("#phone", "608-555-01")
    page.click("button:has-text('Save the contact')")
    page.wait_for_selector(".error")
    if axe_violations(page):
        problems["contact errors"] = axe_violations(page)
    page.fill("#phone", "608-555-0100")
    page.fill("#reason", "the office's new line")
    page.click("button:has-text('Save the contact')")
    page.wait_for_selector("button:has-text('Undo change')")
    if axe_violations(page):
        problems["contact history"] = axe_violations(page)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live.url + "/clerk/burns")
    if axe_violations(page):
        problems["burns 320"] = axe_violations(page)
    assert problems == {}


def test_widget_embeds_with_one_script_tag(browser, live):
    page = browser.new_page()
    # Two public origins, as in production: the town's site and the assistant. Playwright routes both (the
    # assistant's requests are forwarded to the live server), so Chromium's local-network rules don't apply.
    assistant, site = "http://assistant.example", "http://town.example"
    page.route(site + "/", lambda route: route.fulfill(
        content_type="text/html",
        body=f'<!doctype html><html lang="en"><head><title>Town</title></head><body><main><h1>Town of Dunkirk</h1>'
             f'</main><script src="{assistant}/widget.js"></script></body></html>'))
    page.route(assistant + "/**", lambda route: route.fulfill(
        response=route.fetch(url=route.request.url.replace(assistant, live.url))))
    page.goto(site + "/")
    launcher = page.wait_for_selector("button:has-text('Questions about town rules?')")
    tab_to(page, lambda f: f["tag"] == "BUTTON")
    page.keyboard.press("Enter")
    assert launcher.get_attribute("aria-expanded") == "true"
    frame = page.frame_locator("iframe[title='Town ordinance assistant chat']")
    frame.locator("#transcript .msg.bot").first.wait_for()
    frame.locator("#chat-input").fill("hello widget")
    frame.locator("#chat-input").press("Enter")
    frame.locator(".msg.bot:has-text('You said: hello widget')").wait_for()
    assert axe_violations(page) == []


def test_an_answer_leads_and_its_details_are_closed_disclosures_by_keyboard(browser, live, tmp_path):
    from fake_rasa import answer_reply
    answer = answer_reply(False)[1]["custom"]["answer"]  # loaded before the page asks (the fake replies fast)
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    page.goto(live.url + "/chat")
    page.wait_for_selector("#transcript .msg.bot")
    page.focus("#chat-input")
    page.keyboard.type("license cost for my two dogs")
    page.keyboard.press("Enter")
    msg = page.wait_for_selector(".msg.bot.answer")
    assert msg.query_selector(".lead").text_content() == answer["lead"]
    summaries = [s.text_content() for s in msg.query_selector_all("details > summary")]
    assert summaries == ["How we worked it out", "Sources", "What our copy doesn\u2019t say", "Good to know"]
    assert page.evaluate("() => [...document.querySelectorAll('.msg.answer details')].every(d => !d.open)")
    assert not msg.query_selector("details ol").is_visible(), "closed by default"
    page.screenshot(path=str(tmp_path / "answer-closed.png"), full_page=True)
    assert axe_violations(page) == []

    f = tab_to(page, lambda f: f["tag"] == "SUMMARY" and f["text"] == "Sources", key="Shift+Tab")
    assert f["outline"].split()[0] != "none"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.parentElement.open")
    link = msg.query_selector("details[open] a[href='/code/7.02-4']")
    assert link is not None and link.is_visible() and "Dunkirk Code 7.02-4" in link.text_content()
    gaps = msg.query_selector_all("details")[2]
    gaps.query_selector("summary").click()
    assert "the Clerk can tell you the exact amount" in gaps.inner_text()
    page.screenshot(path=str(tmp_path / "answer-open.png"), full_page=True)
    assert axe_violations(page) == []
    if os.environ.get("SCREENSHOTS"):
        import shutil
        for name in ("answer-closed.png", "answer-open.png"):
            shutil.copy(tmp_path / name, os.path.join(os.environ["SCREENSHOTS"], name))
