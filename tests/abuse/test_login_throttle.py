"""Login brute force. tests/web/test_clerk.py already checks that the sixth wrong password in a minute gets
429 with no trace; these add: the right password is refused too while throttled, the throttle is per address
and username and not dodged by proxy headers, case or a trailing slash; per address, per username (IPv6 by
its /64) and overall limits; and a failed login does not say whether the username exists."""

from __future__ import annotations

from .conftest import assert_no_leak

CLERK_PW = "a long clerk password"
LIMIT = 5  # web/security.py LOGIN_LIMIT: "5 per minute;30 per hour" (failed logins per address and username)


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
    assert login(c, "bob", "another password").status_code == 401  # another account: its own count ...
    assert login(c, "ANN", CLERK_PW).status_code == 429
    assert login(c, "ann", CLERK_PW, path="/clerk/login?next=/clerk/").status_code == 429
    assert login(c, "ann", CLERK_PW, path="/clerk//login").status_code in (308, 404, 429)
    # per address: someone else is not locked out by this one
    assert login(c, "ann", CLERK_PW, addr="10.0.0.2").status_code == 302


def test_one_address_trying_many_accounts_is_throttled(make_app, store):
    """... but not an unlimited one: the per-address limit (LOGIN_ADDRESS_LIMIT, 30 a minute) whatever the name."""
    from web.security import LOGIN_ADDRESS_LIMIT
    per_minute = int(LOGIN_ADDRESS_LIMIT.split()[0])
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [login(c, f"user{i}", "wrong password").status_code for i in range(per_minute + 1)]
    assert codes == [401] * per_minute + [429]


def test_one_account_guessed_from_many_addresses_is_throttled(make_app, store):
    from web.security import LOGIN_USERNAME_LIMIT
    per_hour = int(LOGIN_USERNAME_LIMIT.split()[0])
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [login(c, "ann", "wrong password", addr=f"10.9.{i}.1").status_code for i in range(per_hour + 1)]
    assert codes == [401] * per_hour + [429]


def test_an_ipv6_client_is_one_client_across_its_64(make_app, store):
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [login(c, "ann", "wrong password", addr=f"2001:db8:1:2::{i:x}").status_code for i in range(LIMIT + 1)]
    assert codes == [401] * LIMIT + [429]
    assert login(c, "ann", "wrong password", addr="2001:db8:1:3::1").status_code == 401  # another /64


def test_every_failed_login_together_is_throttled(make_app, store, monkeypatch):
    """(A smaller global limit than LOGIN_GLOBAL_LIMIT's 100 a minute, so that the run takes well under one.)"""
    per_minute = 12
    monkeypatch.setattr("web.security.LOGIN_GLOBAL_LIMIT", f"{per_minute} per minute")
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [login(c, f"u{i}", "wrong password", addr=f"10.{i // 250}.{i % 250}.9").status_code
             for i in range(per_minute + 1)]
    assert codes == [401] * per_minute + [429]


def test_successful_logins_are_not_counted(make_app, store):
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    assert {login(c, "ann", CLERK_PW).status_code for _ in range(LIMIT + 2)} == {302}


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
    for addr, user in (("10.0.1.1", "ann"), ("10.0.1.2", "zed")):
        for _ in range(LIMIT):
            login(c, user, "y", addr=addr)
    t1, t2 = login(c, "ann", "nope", addr="10.0.1.1"), login(c, "zed", "nope", addr="10.0.1.2")
    assert t1.status_code == t2.status_code == 429 and t1.data == t2.data


def test_the_clerk_still_signs_in_while_her_account_is_being_guessed(make_app, store):
    """20 wrong passwords for "ann" from a few addresses used to lock the real clerk out even with the right
    password (the per-username limit). Throttle, don't lock out (NIST SP 800-63B 5.2.2): an address that has
    not been failing still has its password checked."""
    from web.security import LOGIN_USERNAME_LIMIT
    per_hour = int(LOGIN_USERNAME_LIMIT.split()[0])
    store.create_clerk("ann", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    guessers = [f"203.0.113.{i}" for i in range(per_hour // LIMIT)]
    codes = [login(c, "ann", f"guess {i}", addr=guessers[i % len(guessers)]).status_code for i in range(per_hour)]
    assert codes == [401] * per_hour
    assert login(c, "ann", "guess again", addr="203.0.113.99").status_code == 429  # the account is throttled ...
    assert login(c, "ann", CLERK_PW, addr="203.0.113.99").status_code == 429  # ... and that address now fails
    assert login(c, "ann", CLERK_PW, addr=guessers[0]).status_code == 429  # the guessers' addresses stay out
    r = login(c, "ann", CLERK_PW, addr="198.51.100.20")  # the clerk, from an address that has not been failing
    assert r.status_code == 302 and store.get_clerk(1).last_login is not None


def test_failures_at_other_accounts_do_not_lock_out_an_account_nobody_targeted(make_app, store, monkeypatch):
    """The global limit on failed logins used to refuse every sign-in, also for accounts nobody guessed at."""
    per_minute = 12
    monkeypatch.setattr("web.security.LOGIN_GLOBAL_LIMIT", f"{per_minute} per minute")
    store.create_clerk("bea", CLERK_PW)
    c = make_app(WTF_CSRF_ENABLED=False).test_client()
    codes = [login(c, f"u{i}", "wrong password", addr=f"10.{i // 250}.{i % 250}.9").status_code
             for i in range(per_minute)]
    assert codes == [401] * per_minute
    assert login(c, "u99", "wrong password", addr="10.7.7.7").status_code == 429  # the brake holds ...
    assert login(c, "bea", CLERK_PW, addr="192.0.2.50").status_code == 302  # ... but not against bea
