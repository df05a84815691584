"""Towns that share one database (DATABASE_URL): every clerk page and action is the own town's. A Dunkirk clerk
saw Mequon's texts and could extend Mequon's order by its id; an account of one town signed in on the other's
site."""

from __future__ import annotations

from datetime import datetime, timezone

from conftest import CLERK_PW, PUBLIC, TOKEN
from twilio.request_validator import RequestValidator


def _text(app, body, sid, from_="+16085550123"):
    params = {"From": from_, "To": "+16085550199", "Body": body, "MessageSid": sid}
    signature = RequestValidator(TOKEN).compute_signature(PUBLIC + "/sms", params)
    return app.test_client().post("/sms", data=params, headers={"X-Twilio-Signature": signature})


def _account(app, username):
    """An account made with the site's own command (flask create-clerk): the site's town's."""
    r = app.test_cli_runner().invoke(args=["create-clerk", username, "--password", CLERK_PW])
    assert r.exit_code == 0, r.output


def _clerk(app, username):
    c = app.test_client()
    assert c.post("/clerk/login", data={"username": username, "password": CLERK_PW}).status_code == 302
    return c


def test_a_clerk_sees_only_the_own_towns_texts(make_app, store):
    dunkirk, mequon = make_app(WTF_CSRF_ENABLED=False), make_app(WTF_CSRF_ENABLED=False, TOWN="mequon")
    _account(dunkirk, "ann")
    _account(mequon, "mo")
    assert _text(mequon, "my neighbour at 12 Elm St burns trash", "SMmequon1").status_code == 200
    assert _text(dunkirk, "can I burn leaves", "SMdunkirk1").status_code == 200
    page = _clerk(dunkirk, "ann").get("/clerk/sms").get_data(as_text=True)
    assert "can I burn leaves" in page and "12 Elm St" not in page
    page = _clerk(mequon, "mo").get("/clerk/sms").get_data(as_text=True)
    assert "12 Elm St" in page and "can I burn leaves" not in page


def test_a_clerk_cannot_extend_another_towns_order_by_its_id(make_app, store):
    dunkirk = make_app(WTF_CSRF_ENABLED=False)
    _account(dunkirk, "ann")
    theirs = store.record_order("mequon", datetime(2026, 12, 1, 14, tzinfo=timezone.utc),
                                datetime(2026, 12, 3, 14, tzinfo=timezone.utc), reason="dry", board_action="Mequon",
                                recorded_by="mo").order
    r = _clerk(dunkirk, "ann").post("/clerk/order/extend", data={"order_id": str(theirs.id),
                                                                  "end": "2026-12-20T18:00",
                                                                  "board_action": "not ours"})
    assert r.status_code == 404
    (after,) = store.orders("mequon")
    assert after.end_at == theirs.end_at and [e.kind for e in store.order_history("mequon")] == ["recorded"]


def test_an_account_of_one_town_does_not_sign_in_on_the_others_site(make_app, store):
    dunkirk = make_app(WTF_CSRF_ENABLED=False)
    _account(make_app(TOWN="mequon"), "mo")
    c = dunkirk.test_client()
    r = c.post("/clerk/login", data={"username": "mo", "password": CLERK_PW})
    assert r.status_code == 401 and "Wrong username or password." in r.get_data(as_text=True)
    assert c.get("/clerk/sms").status_code == 302  # not signed in


def test_a_session_of_another_towns_account_is_not_honoured(make_app, store):
    """Two towns' sites with the same SECRET_KEY: a session cookie from one is no key to the other."""
    mequon = make_app(WTF_CSRF_ENABLED=False, TOWN="mequon")
    _account(mequon, "mo")
    c = _clerk(mequon, "mo")
    cookie = c.get_cookie("clerk_session").value
    other = make_app(WTF_CSRF_ENABLED=False).test_client()
    other.set_cookie("clerk_session", cookie)
    assert other.get("/clerk/sms").status_code == 302
