"""The web side answers a third town from its data (#23): the fixture town Fairview (tests/fixtures/towns/fairview,
invented) whose Fire Department, not a Town Board, prohibits burning (9.05(1); town.yml `burning.orders_by`), and
which burns within a clock window, 12:00 p.m. to 7:00 p.m., never on Sundays (9.04). The order texts and the
clerk's pages name who issues orders and the town's hours from that data; Dunkirk's words stay as they were."""

from datetime import date, datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import CLERK_PW
from knowledge import load_town, town as shared_town
from web.alerts import compose

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "towns"


@pytest.fixture(scope="module")
def fairview():
    return load_town("fairview", root=FIXTURES)


def _order(end=None):
    return SimpleNamespace(id=3, start_at=datetime(2026, 12, 1, 14, tzinfo=timezone.utc), end_at=end,
                           board_action="Chief's order 12/1", reason="High winds")


NOTE = SimpleNamespace(burn_date=date(2026, 12, 2), reference="FV-ABCDE")


def test_alert_names_who_issues_orders_from_the_town_data(fairview):
    order = _order(datetime(2026, 12, 3, 0, tzinfo=timezone.utc))
    assert compose(fairview, "order", order, NOTE, None).startswith(
        "Town of Fairview: The Fire Department has issued a no-burning order from Tue Dec 1 8:00 a.m. CST")
    fire = compose(fairview, "fire", order, None, None)
    assert "The Fire Department has issued no-burning order 3" in fire and "Department action: Chief's order" in fire
    assert "The Fire Department has extended no-burning order 3" in compose(fairview, "fire-extended", order, None,
                                                                           None)
    assert "The Fire Department has lifted no-burning order 3" in compose(fairview, "fire-lifted", order, None, None)
    assert all("Board" not in compose(fairview, k, order, NOTE, None)
               for k in ("order", "fire", "fire-extended", "fire-lifted"))


def test_dunkirk_alerts_still_name_its_town_board():
    fire = compose(shared_town("dunkirk"), "fire", _order(), None, None)
    assert "The Town Board has issued no-burning order 3" in fire and "Board action: Chief's order 12/1" in fire


@pytest.fixture
def fairview_app(make_app, store, fairview):
    app = make_app(WTF_CSRF_ENABLED=False, TOWN="fairview")
    app.extensions.setdefault("towns", {})["fairview"] = fairview
    store.create_clerk("ann", CLERK_PW, town="fairview")
    store.create_clerk("engine1", CLERK_PW, role="fire", town="fairview")
    return app


def _signed_in(app, username):
    c = app.test_client()
    assert c.post("/clerk/login", data={"username": username, "password": CLERK_PW}).status_code == 302
    return c


def test_the_fire_department_page_gives_a_clock_towns_hours_closed_days_and_who_orders(fairview_app):
    # ASSISTANT_NOW: Monday 2026-11-30, 9:00 a.m. CST; the week shown ends on Sunday, December 6
    page = _signed_in(fairview_app, "engine1").get("/clerk/fire").get_data(as_text=True)
    assert "Burning hours 12:00 p.m. CST to 7:00 p.m. CST." in page
    sunday = page.partition("Sunday, December 6")[2]
    assert "No burning: a Sunday." in sunday
    assert "tell each person who asks you for a burning permit (Code 9.05(1))." in page and "7.09(4)" not in page
    assert "Sunrise" not in page and "sunset" not in page


def test_the_order_page_names_who_issues_orders_from_the_town_data(fairview_app):
    page = _signed_in(fairview_app, "ann").get("/clerk/order").get_data(as_text=True)
    assert "Record each order as the Fire Department issued it." in page
    assert "Department action that issued it" in page and "Board" not in page


def test_dunkirk_clerk_pages_keep_their_words(clerk_client):
    page = clerk_client.get("/clerk/order").get_data(as_text=True)
    assert "Record each order as the Town Board issued it." in page and "Board action that issued it" in page
    fire = clerk_client.get("/clerk/fire").get_data(as_text=True)
    assert "tell each person who notifies you of a burn (Code 7.09(4))." in fire and "Sunrise 7:" in fire and ", sunset 4:2" in fire
