"""Headers, limits and error pages for every kind of malformed request."""


def test_security_headers(client):
    r = client.get("/chat")
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"


def test_hsts_when_public_url_is_https(client):
    assert "Strict-Transport-Security" in client.get("/chat").headers


def test_oversized_request_gets_413(client):
    r = client.post("/chat/api/message", data="x" * (64 * 1024), content_type="application/json")
    assert r.status_code == 413
    r = client.post("/clerk/login", data={"username": "x" * 70000, "password": "y"})
    assert r.status_code == 413


def test_unknown_page_is_404_without_trace(client):
    r = client.get("/nope")
    assert r.status_code == 404 and b"Traceback" not in r.data


def test_wrong_method_is_405(client):
    assert client.get("/sms").status_code == 405
    assert client.put("/chat").status_code == 405


def test_unhandled_error_shows_no_trace(make_app):
    app = make_app()
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    r = app.test_client().get("/boom")
    assert r.status_code == 500 and b"secret detail" not in r.data and b"Traceback" not in r.data


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_behind_a_trusted_proxy_limits_are_per_resident_address(make_app, store):
    """TRUSTED_PROXIES=1: the address comes from X-Forwarded-For, so one throttled address does not lock out
    another; without it the header is ignored (a client cannot pick its own address)."""
    store.create_clerk("ann", "a long clerk password")
    proxied = make_app(WTF_CSRF_ENABLED=False, TRUSTED_PROXIES=1).test_client()

    def attempts(client, address, n):
        return [client.post("/clerk/login", data={"username": "ann", "password": "wrong"},
                            headers={"X-Forwarded-For": address}).status_code for _ in range(n)]
    assert attempts(proxied, "203.0.113.7", 6)[-1] == 429
    assert attempts(proxied, "198.51.100.9", 1) == [401]
    direct = make_app(WTF_CSRF_ENABLED=False).test_client()
    assert attempts(direct, "203.0.113.7", 6)[-1] == 429
    assert attempts(direct, "198.51.100.9", 1) == [429]
    # with the default, behind a proxy everyone has the proxy's address: one person's failed logins on one
    # account do not lock another clerk out
    store.create_clerk("bea", "a long clerk password")
    r = direct.post("/clerk/login", data={"username": "bea", "password": "a long clerk password"},
                    headers={"X-Forwarded-For": "198.51.100.10"})
    assert r.status_code == 302
