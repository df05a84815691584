"""Login brute force. tests/web/test_clerk.py already checks that the sixth wrong password in a minute gets
429 with no trace; these add: the right password is refused too while throttled, the throttle is per address
and not dodged by proxy headers, another username or a trailing slash, and a failed login does not say
whether the username exists."""

from __future__ import annotations

from .conftest import assert_no_leak

CLERK_PW = "a long clerk password"
LIMIT = 5  # web/security.py LOGIN_LIMIT: "5 per minute;30 per hour"


def login(c, username, password, addr="10.0.0.1", headers=None, path="/clerk/login"):
    return c.post(path, data={"username": username, "password": password}, headers=headers or {},
                  environ_base={"REMOTE_ADDR": addr})


def throttle(c, addr="10.0.0.1"):
    codes = [login(c, "ann", f"wrong password {i}", addr).status_code for i in range(LIMIT + 1)]
    assert codes == [401] * LIMIT + [429]


def test_right_password_is_refused_while_throttled(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    throttle(c)
    r = login(c, "ann", CLERK_PW)
    assert r.status_code == 429
    assert "clerk_session" not in r.headers.get("Set-Cookie", "")
    assert c.get("/clerk/", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 302  # not signed in
    assert store.get_clerk(1).last_login is None  # the password was not even checked
    assert_no_leak(r.data)
    assert b"ann" not in r.data
    assert c.get("/clerk/login", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200  # page still shows


def test_throttle_is_not_dodged(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    throttle(c)
    for headers in ({"X-Forwarded-For": "203.0.113.9"}, {"X-Real-IP": "203.0.113.9"},
                    {"Forwarded": "for=203.0.113.9"}, {"X-Forwarded-For": "10.0.0.2, 203.0.113.9"},
                    {"Client-IP": "203.0.113.9", "True-Client-IP": "203.0.113.9"}):
        assert login(c, "ann", CLERK_PW, headers=headers).status_code == 429, headers
    assert login(c, "bob", "another password").status_code == 429
    assert login(c, "ANN", CLERK_PW).status_code == 429
    assert login(c, "ann", CLERK_PW, path="/clerk/login?next=/clerk/").status_code == 429
    assert login(c, "ann", CLERK_PW, path="/clerk//login").status_code in (308, 404, 429)
    # per address: someone else is not locked out by this one
    assert login(c, "ann", CLERK_PW, addr="10.0.0.2").status_code == 302


def normalized(resp, username: str) -> tuple[int, str]:
    return resp.status_code, resp.get_data(as_text=True).replace(username, "USER")


def test_failed_logins_do_not_reveal_whether_the_user_exists(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    app = make_app(WTF_CSRF_ENABLED=False)
    c = app.test_client()
    wrong_pw = login(c, "ann", "not the password", addr="10.0.1.1")
    no_user = login(c, "zed", "not the password", addr="10.0.1.2")
    assert wrong_pw.status_code == no_user.status_code == 401
    assert normalized(wrong_pw, "ann") == normalized(no_user, "zed")
    assert "Wrong username or password." in wrong_pw.get_data(as_text=True)
    assert wrong_pw.headers.get("Set-Cookie") == no_user.headers.get("Set-Cookie")
    # throttled, too: the same 429 for both
    for addr in ("10.0.1.1", "10.0.1.2"):
        for _ in range(LIMIT):
            login(c, "x", "y", addr=addr)
    t1, t2 = login(c, "ann", "nope", addr="10.0.1.1"), login(c, "zed", "nope", addr="10.0.1.2")
    assert t1.status_code == t2.status_code == 429 and t1.data == t2.data
