"""Every route that is not on the public list needs a clerk session. The routes are read from the app's URL
map, so a new clerk page (or any new page) added without @login_required fails here."""

from __future__ import annotations

from urllib.parse import urlsplit

from werkzeug.routing import IntegerConverter

#: Endpoints anyone may reach. Adding a public route means adding it here, on purpose.
PUBLIC = {"static", "healthz", "chat.page", "chat.widget", "chat.code_index", "chat.section", "chat_api.start",
          "chat_api.message", "sms.inbound", "clerk.login"}
CLERK_PW = "a long clerk password"


def sample_url(app, rule) -> str:
    values = {}
    for name in rule.arguments:
        conv = rule._converters.get(name)
        values[name] = 1 if isinstance(conv, IntegerConverter) else "7.02-6"  # a real section number
    return rule.build(values, append_unknown=False)[1]


def refused(resp) -> bool:
    if resp.status_code in (302, 303, 307):
        return urlsplit(resp.headers.get("Location", "")).path == "/clerk/login"
    return resp.status_code in (401, 403, 405)


def forged_clients(make_app, app):
    """Clients without a valid clerk session: none at all, one signed with another key, one naming a clerk
    that does not exist, one with the id as a string."""
    out = {"anonymous": app.test_client()}
    other = make_app(SECRET_KEY="not-the-app-key").test_client()
    with other.session_transaction() as s:
        s["clerk_id"] = 1
    cookie = other.get_cookie("clerk_session")
    c = app.test_client()
    c.set_cookie("clerk_session", cookie.value)
    out["foreign key"] = c
    for name, value in (("no such clerk", 999), ("id as text", "1")):
        c = app.test_client()
        with c.session_transaction() as s:
            s["clerk_id"] = value
        out[name] = c
    return out


def unprotected_routes(make_app, app) -> list[str]:
    failures = []
    clients = forged_clients(make_app, app)
    for rule in app.url_map.iter_rules():
        if rule.endpoint in PUBLIC:
            continue
        url = sample_url(app, rule)
        methods = {"GET", "POST"} | (set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for method in sorted(methods):
            for who, c in clients.items():
                r = c.open(url, method=method, data={"action": "set", "reason": "x", "username": "ann"})
                if not refused(r):
                    failures.append(f"{method} {url} ({rule.endpoint}) as {who}: {r.status_code}")
    return failures


def test_every_non_public_route_needs_a_clerk_session(make_app, store):
    store.create_clerk("ann", CLERK_PW)  # clerk id 1 exists: forged sessions name a real account
    app = make_app(WTF_CSRF_ENABLED=False)  # POSTs reach the login check, not the CSRF check
    clerk_endpoints = {r.endpoint for r in app.url_map.iter_rules() if r.endpoint.startswith("clerk.")}
    assert len(clerk_endpoints - PUBLIC) >= 10  # the map was read (not vacuously empty)
    assert unprotected_routes(make_app, app) == []
    assert store.burning_order("dunkirk") is None  # no POST got through to the order form


def test_a_new_unprotected_route_is_caught(make_app):
    app = make_app(WTF_CSRF_ENABLED=False)
    app.add_url_rule("/clerk/export/<int:year>", endpoint="clerk.export", view_func=lambda year: f"all {year} data")
    app.add_url_rule("/admin", endpoint="admin", view_func=lambda: "secret", methods=["GET", "POST"])
    failures = unprotected_routes(make_app, app)
    assert any("/clerk/export/1 (clerk.export)" in f for f in failures)
    assert any("/admin (admin)" in f for f in failures)


def test_the_public_list_is_current(make_app):
    """A stale entry would hide a future route of the same name."""
    endpoints = {r.endpoint for r in make_app().url_map.iter_rules()}
    assert PUBLIC <= endpoints, PUBLIC - endpoints
