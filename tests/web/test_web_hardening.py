"""Issue #13, hardening: each fix with a test that fails on the code before it."""

from __future__ import annotations

import os
import stat

import pytest

from conftest import CLERK_PW, PUBLIC, TOKEN


def test_stray_query_arguments_on_the_burn_list_are_not_passed_to_url_for(clerk_client):
    """A stray ``endpoint=`` (or ``_external``, ``_scheme``) once reached url_for and gave a 500."""
    for extra in ("endpoint=x", "_external=1", "_scheme=javascript", "_anchor=x"):
        r = clerk_client.get(f"/clerk/burns?from=2026-12-01&{extra}")
        assert r.status_code == 200, extra
        page = r.get_data(as_text=True)
        assert "/clerk/burns.csv?from=2026-12-01" in page and "javascript" not in page


def _app_without_secret_key(store, fake_rasa, tmp_path, **extra):
    from web import create_app
    cfg = {"TESTING": True, "STORE": store, "TOWN": "dunkirk", "RASA_URL": fake_rasa.url, "RASA_TIMEOUT": 2.0,
           "TWILIO_AUTH_TOKEN": TOKEN, "PUBLIC_URL": PUBLIC, "SECRET_KEY_FILE": str(tmp_path / "secret_key")}
    cfg.update(extra)
    return create_app(cfg)


def test_sms_conversation_ids_survive_a_restart_without_secret_key(store, fake_rasa, tmp_path, monkeypatch):
    """With SECRET_KEY unset (the `make run` default) the key was random per start: every SMS conversation in
    progress lost its id at a restart. Now it is generated once and kept in instance/ (0600)."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    from web.sms import sender_id
    first = _app_without_secret_key(store, fake_rasa, tmp_path)
    with first.app_context():
        before = sender_id("+16085550100")
    restarted = _app_without_secret_key(store, fake_rasa, tmp_path)
    with restarted.app_context():
        assert sender_id("+16085550100") == before
    assert stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode) == 0o600
    assert restarted.config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_the_session_key_and_the_sms_id_key_rotate_apart(store, fake_rasa, tmp_path, monkeypatch):
    from web.sms import sender_id
    a = _app_without_secret_key(store, fake_rasa, tmp_path, SECRET_KEY="master")
    b = _app_without_secret_key(store, fake_rasa, tmp_path, SECRET_KEY="master", SESSION_KEY_VERSION=2)
    assert a.config["SECRET_KEY"] != a.config["SMS_ID_KEY"] and "master" not in (a.config["SECRET_KEY"],)
    assert a.config["SECRET_KEY"] != b.config["SECRET_KEY"]  # sessions rotated ...
    with a.app_context():
        id_a = sender_id("+16085550100")
    with b.app_context():
        assert sender_id("+16085550100") == id_a  # ... SMS conversations kept


def test_a_cookie_copied_before_logout_is_dead_after_it(clerk_client):
    copy = clerk_client.get_cookie("clerk_session").value
    assert clerk_client.get("/clerk/burns.csv").status_code == 200
    clerk_client.post("/clerk/logout")
    clerk_client.set_cookie("clerk_session", copy)
    r = clerk_client.get("/clerk/burns.csv")
    assert r.status_code == 302 and "/clerk/login" in r.headers["Location"]


def test_a_password_change_ends_every_session(clerk_client, store, app):
    assert clerk_client.get("/clerk/burns.csv").status_code == 200
    result = app.test_cli_runner().invoke(args=["set-password", "ann", "--password", "another long password"])
    assert result.exit_code == 0, result.output
    assert clerk_client.get("/clerk/burns.csv").status_code == 302
    assert store.verify_clerk("ann", "another long password") is not None


def test_a_session_in_use_ends_at_the_absolute_lifetime(clerk_client, monkeypatch):
    """The cookie was re-signed on every request, so a session in use never ended."""
    import time
    real = time.time
    for hours in (4, 8, 11.9):  # in use: a request every few hours (the idle limit is 8 h)
        monkeypatch.setattr(time, "time", lambda h=hours: real() + h * 3600)
        assert clerk_client.get("/clerk/burns.csv").status_code == 200
    monkeypatch.setattr(time, "time", lambda: real() + 12 * 3600 + 5)
    assert clerk_client.get("/clerk/burns.csv").status_code == 302


@pytest.mark.parametrize("public_url", [PUBLIC, PUBLIC + "/", PUBLIC + "/sms", PUBLIC + "/sms/"])
def test_public_url_may_be_the_base_or_the_full_webhook_url(make_app, public_url):
    """PUBLIC_URL set to the full webhook URL made every genuine request fail the signature (403)."""
    from twilio.request_validator import RequestValidator
    client = make_app(PUBLIC_URL=public_url).test_client()
    params = {"From": "+16085550100", "To": "+16085550199", "Body": "hello", "MessageSid": "SMpublicurl"}
    signed = RequestValidator(TOKEN).compute_signature(PUBLIC + "/sms", params)
    assert client.post("/sms", data=params, headers={"X-Twilio-Signature": signed}).status_code == 200
    forged = RequestValidator("another token").compute_signature(PUBLIC + "/sms", params)
    assert client.post("/sms", data=params, headers={"X-Twilio-Signature": forged}).status_code == 403


def test_public_url_with_a_path_prefix_signs_the_prefixed_webhook(make_app):
    from twilio.request_validator import RequestValidator
    client = make_app(PUBLIC_URL=PUBLIC + "/dunkirk").test_client()
    params = {"From": "+16085550100", "To": "+16085550199", "Body": "hello", "MessageSid": "SMprefix"}
    signed = RequestValidator(TOKEN).compute_signature(PUBLIC + "/dunkirk/sms", params)
    assert client.post("/sms", data=params, headers={"X-Twilio-Signature": signed}).status_code == 200


def test_the_status_page_shows_the_last_scheduled_purge(clerk_client, store):
    from web import purge_schedule
    assert "last run never" in clerk_client.get("/clerk/status").get_data(as_text=True)
    assert purge_schedule.run_once(store, 3650) and not purge_schedule.run_once(store, 3650)
    assert "last run never" not in clerk_client.get("/clerk/status").get_data(as_text=True)


def test_the_rasa_token_is_not_on_any_command_line(tmp_path, monkeypatch):
    """Procfiles, `make bot-run` and the test stack once put it on Rasa's command line (visible in ps)."""
    import sys
    import types
    from pathlib import Path
    repo = Path(__file__).resolve().parents[2]
    for name in ("Procfile", "Procfile.scale", "mk/bot.mk", "tests/support/stack.py"):
        assert "--auth-token" not in (repo / name).read_text().replace('"--auth-token", token()', ""), name
    (tmp_path / "token").write_text("file-token\n")
    monkeypatch.delenv("RASA_TOKEN", raising=False)
    monkeypatch.setenv("RASA_TOKEN_FILE", str(tmp_path / "token"))
    seen = {}
    monkeypatch.setitem(sys.modules, "rasa.__main__",
                        types.SimpleNamespace(main=lambda: seen.setdefault("argv", list(sys.argv))))
    monkeypatch.setattr(sys, "argv", ["rasa_run", "--port", "5005"])
    from tools import rasa_run
    rasa_run.main()
    assert seen["argv"] == ["rasa", "run", "--port", "5005", "--auth-token", "file-token"]


def test_a_session_signed_on_a_host_whose_clock_is_ahead_stays_valid(clerk_client, monkeypatch):
    """Two web hosts a second (or a few minutes) apart: the login stamped on the faster one is read on the slower
    one. Only a login stamped further ahead than the allowed skew (web/clerk/auth.py CLOCK_SKEW, 5 minutes) is
    refused."""
    import time
    real = time.time
    for behind in (1, 60, 240):
        monkeypatch.setattr(time, "time", lambda b=behind: real() - b)
        assert clerk_client.get("/clerk/burns.csv").status_code == 200, behind
    monkeypatch.setattr(time, "time", lambda: real() - 600)
    assert clerk_client.get("/clerk/burns.csv").status_code == 302


def test_a_form_rendered_on_a_host_whose_clock_is_ahead_posts_on_another(make_app, store, monkeypatch):
    """The CSRF token carried its own timestamp: a form rendered on a host a second ahead was refused as
    "expired" by the next host. It is now good for as long as the session is."""
    import re
    import time
    store.create_clerk("ann", CLERK_PW)
    c = make_app().test_client()  # CSRF on
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 2)  # the host that renders the login form
    page = c.get("/clerk/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    monkeypatch.setattr(time, "time", real)  # the host the form is posted to
    r = c.post("/clerk/login", data={"csrf_token": token, "username": "ann", "password": CLERK_PW})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]


@pytest.mark.parametrize("content", ["", "\n", "short-key\n"])
def test_an_empty_or_short_secret_key_file_stops_the_start_with_a_clear_message(store, fake_rasa, tmp_path,
                                                                                 monkeypatch, content):
    """An empty instance/secret_key (a crash or a full disk during the first start, `touch`) made the master key
    "": anyone could forge a clerk session. The web front now refuses to start and says what to do."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text(content)
    with pytest.raises(RuntimeError, match="secret key file .*secret_key.* Remove the file") as err:
        _app_without_secret_key(store, fake_rasa, tmp_path)
    assert "SECRET_KEY" in str(err.value)


def _slow_key_writes(monkeypatch, seconds=0.3):
    """Every write to a file named like the key file takes ``seconds``: the first start's write is slow (a
    loaded disk), so a process starting meanwhile finds the file before its key is in it."""
    real = os.write

    def write(fd, data):
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if "secret_key" in name:
            import time
            time.sleep(seconds)
        return real(fd, data)
    monkeypatch.setattr(os, "write", write)


def _first_start(path, results):
    from web import keys
    try:
        results.put(keys.load_or_create_master(path))
    except Exception as exc:  # noqa: BLE001 - reported to the test
        results.put(f"error: {exc}")


def test_processes_starting_together_all_get_the_same_full_key(tmp_path, monkeypatch):
    """`make run` starts the web front and the sender together: the loser of the race read the file before the
    winner had written it, and ran on the key "". Six processes start at once on a slow disk."""
    import multiprocessing
    _slow_key_writes(monkeypatch)
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    path = tmp_path / "instance" / "secret_key"
    procs = [ctx.Process(target=_first_start, args=(path, results)) for _ in range(6)]
    for p in procs:
        p.start()
    keys_seen = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(10)
    assert len(set(keys_seen)) == 1, keys_seen
    assert len(keys_seen[0]) >= 32 and not keys_seen[0].startswith("error")
    assert path.read_text().strip() == keys_seen[0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["secret_key"]  # no temporary file left


def test_threads_starting_together_all_get_the_same_full_key(tmp_path, monkeypatch):
    import queue
    import threading
    _slow_key_writes(monkeypatch)
    results: queue.Queue = queue.Queue()
    path = tmp_path / "secret_key"
    threads = [threading.Thread(target=_first_start, args=(path, results)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    got = [results.get_nowait() for _ in threads]
    assert len(set(got)) == 1 and len(got[0]) >= 32, got


def _status_row(page: str, name: str) -> str:
    import re
    m = re.search(rf'<tr class="check-(\w+)"><th scope="row">{name}</th>\s*<td>(\w+)</td><td>(.*?)</td>', page, re.S)
    assert m, f"no {name} row on the status page"
    return f"{m.group(2)}: {m.group(3)}"


def test_a_public_url_twilio_does_not_sign_is_logged_counted_and_red_on_the_status_page(make_app, store, caplog):
    """PUBLIC_URL with http where Twilio signs https made every webhook a silent 403 with a green status page;
    Twilio does not retry, so residents' texts were lost. Each refusal is now logged with its reason (never
    the body or the number), counted, and the status page shows a red line until a request passes again."""
    import logging
    from twilio.request_validator import RequestValidator
    app = make_app(WTF_CSRF_ENABLED=False, PUBLIC_URL="http://assistant.example.gov")
    store.create_clerk("ann", CLERK_PW)
    clerk = app.test_client()
    assert clerk.post("/clerk/login", data={"username": "ann", "password": CLERK_PW}).status_code == 302
    assert _status_row(clerk.get("/clerk/status").get_data(as_text=True), "Twilio webhooks").startswith("Working")
    client = app.test_client()
    caplog.set_level(logging.INFO)
    for i in range(2):
        params = {"From": "+16085550123", "To": "+16085550199", "Body": "my address is N1 Secret Lane",
                  "MessageSid": f"SMmismatch{i}"}
        signed = RequestValidator(TOKEN).compute_signature(PUBLIC + "/sms", params)  # https, as Twilio signs
        assert client.post("/sms", data=params, headers={"X-Twilio-Signature": signed}).status_code == 403
    form = {"MessageSid": "SM1", "MessageStatus": "delivered"}
    signed = RequestValidator(TOKEN).compute_signature(PUBLIC + "/sms/status?alert=1", form)
    assert client.post("/sms/status?alert=1", data=form, headers={"X-Twilio-Signature": signed}).status_code == 403
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 3, refusals
    assert all("PUBLIC_URL gives http://assistant.example.gov/sms" in m and "Twilio signed https://assistant"
               ".example.gov/sms" in m for m in refusals)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Secret Lane" not in logged and "+16085550123" not in logged
    row = _status_row(clerk.get("/clerk/status").get_data(as_text=True), "Twilio webhooks")
    assert row.startswith("FAILING: 3 request(s) from Twilio refused") and "Twilio signed https://" in row
    assert store.list_inbound_sms() == []  # refused: nothing stored
    from web import twilio_auth
    with app.app_context():
        assert twilio_auth.refusals()["public-url-mismatch"] == 3


def test_an_unsigned_request_is_counted_but_leaves_the_status_line_green(make_app, store):
    from web import twilio_auth
    app = make_app()
    c = app.test_client()
    assert c.post("/sms", data={"From": "+16085550123", "Body": "x", "MessageSid": "SMx"}).status_code == 403
    with app.test_request_context():
        ok, detail = twilio_auth.status()
        assert ok and "1 unsigned request(s) refused" in detail and twilio_auth.refusals()["unsigned"] == 1
    with app.test_request_context():
        app.config["PUBLIC_URL"] = ""
        assert twilio_auth.status() == (False, "PUBLIC_URL not set: every text message from residents is "
                                               "refused (403)")
