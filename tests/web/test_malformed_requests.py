"""A malformed request is a 4xx with no trace, never a 500: digits that are not ASCII digits ("²" passes
str.isdigit but not int), and CR/LF where a URL goes into a header."""

from __future__ import annotations

from conftest import CLERK_PW, PUBLIC, TOKEN
from twilio.request_validator import RequestValidator


def _no_trace(r) -> None:
    body = r.get_data(as_text=True)
    assert "Traceback" not in body and "ValueError" not in body and "invalid literal" not in body


def test_the_fire_view_answers_400_to_a_superscript_digit_in_days(clerk_client):
    for raw in ("\u00b2", "\u0663", "1\u00b2", "\uff17"):  # superscript two, Arabic-Indic three, fullwidth seven
        r = clerk_client.get("/clerk/fire", query_string={"days": raw})
        assert r.status_code == 400, raw
        _no_trace(r)
        assert clerk_client.get("/clerk/fire.csv", query_string={"days": raw}).status_code == 400
    assert clerk_client.get("/clerk/fire?days=21").status_code == 200
    assert clerk_client.get("/clerk/fire?days=").status_code == 200  # blank: the default week


def test_a_signed_status_callback_with_a_superscript_alert_id_is_400(client):
    form = {"MessageSid": "SM" + "1" * 32, "MessageStatus": "delivered"}
    path = "/sms/status?alert=%C2%B2"  # alert=² as Twilio would call it
    signature = RequestValidator(TOKEN).compute_signature(PUBLIC + path, form)
    r = client.post(path, data=form, headers={"X-Twilio-Signature": signature})
    assert r.status_code == 400
    _no_trace(r)


def test_cr_lf_in_the_login_next_is_400_not_a_split_header(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    for nxt in ("/clerk/%0d%0aSet-Cookie:%20x=1", "/clerk/%0aLocation:%20https://evil.example", "/clerk/%7f"):
        r = c.post(f"/clerk/login?next={nxt}", data={"username": "ann", "password": CLERK_PW})
        assert r.status_code == 400, nxt
        assert "Set-Cookie: x" not in str(r.headers) and "evil.example" not in r.headers.get("Location", "")
        _no_trace(r)
        assert c.get(f"/clerk/login?next={nxt}").status_code == 400
    r = c.post("/clerk/login?next=/clerk/burns", data={"username": "ann", "password": CLERK_PW})
    assert r.status_code == 302 and r.headers["Location"] == "/clerk/burns"
