"""Faults: Rasa down, action server down, the database locked, read-only and full, and the store failing
under the burn submit. For each: residents get the fallback reply within 15 s on SMS and web chat (measured,
printed, asserted), the clerk's System status page shows the failure, and nothing acknowledged is lost (an SMS the
database could not take is spooled and replayed into it once the fault is gone).

The real stack (tests/support/stack.py) on SQLite -- its database on a small tmpfs of our own, so the disk can
really fill up (root only; elsewhere the disk-full test skips) -- and on PostgreSQL for read-only (ALTER
SYSTEM SET default_transaction_read_only, reloaded into every session). The first tests need no stack.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
import sqlalchemy as sa

from records import Store
from tests.support.services import create_database, have_postgres, postgres
from tests.support.stack import PUBLIC_URL, TWILIO_TOKEN, Stack, have_model

from .conftest import NOW
from .residents import FALLBACK, START, Ledger, Resident, sms_request

BAR = 15.0  # Twilio waits 15 s for the webhook; the web chat gets the same bar
CHAT_FALLBACK = "not answering right now"
CLERK, CLERK_PW = "faultclerk", "fault clerk password"
needs_model = pytest.mark.skipif(not have_model(), reason="no trained Rasa model (make train)")


# ---- without the stack: the webhook's last resort, the spool, the chat API -------------------------------


def _app(tmp_path, store, **cfg):
    from web import create_app
    return create_app({"TESTING": True, "SECRET_KEY": "k", "STORE": store, "TOWN": "dunkirk",
                       "RASA_URL": "http://127.0.0.1:9", "RASA_TIMEOUT": 1.0, "TWILIO_AUTH_TOKEN": TWILIO_TOKEN,
                       "PUBLIC_URL": PUBLIC_URL, "SMS_DUPLICATE_WAIT": 0.2, **cfg})


def _signed(client, sid, body="hello", from_="+16085550142"):
    from twilio.request_validator import RequestValidator
    params = {"From": from_, "To": "+16085550100", "Body": body, "MessageSid": sid}
    sig = RequestValidator(TWILIO_TOKEN).compute_signature(PUBLIC_URL + "/sms", params)
    return client.post("/sms", data=params, headers={"X-Twilio-Signature": sig})


class BrokenStore(Store):
    """Reads work; every write fails like a full disk."""

    def _fail(self, *a, **k):
        raise sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))

    save_inbound_sms = log_message = new_conversation = set_offered = _fail


def test_sms_is_spooled_when_the_database_fails_and_replayed_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SPOOL_DIR", str(tmp_path / "spool"))
    monkeypatch.setenv("FAILURE_LOG", str(tmp_path / "failures.jsonl"))
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    client = _app(tmp_path, BrokenStore(url)).test_client()
    for _ in range(2):  # Twilio's retry of the same message is spooled again; it is stored once
        r = _signed(client, "SMspool1", "burning tonight")
        assert r.status_code == 200 and FALLBACK in r.get_data(as_text=True)
    assert len(list((tmp_path / "spool").glob("*.jsonl"))) == 2
    from web import spool
    good = Store(url)
    assert spool.replay(good) == 2 and spool.replay(good) == 0
    rec = good.get_inbound_sms("SMspool1")
    assert rec.body == "burning tonight" and FALLBACK in rec.reply
    assert len(good.list_inbound_sms()) == 1
    failures = [json.loads(x) for x in (tmp_path / "failures.jsonl").read_text().splitlines()]
    assert failures and failures[0]["component"] == "database"


def test_sms_gets_503_when_neither_the_database_nor_the_spool_takes_it(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("SPOOL_DIR", str(blocker / "spool"))  # mkdir fails: the spool cannot be written
    monkeypatch.setenv("FAILURE_LOG", str(tmp_path / "failures.jsonl"))
    client = _app(tmp_path, BrokenStore(f"sqlite:///{tmp_path / 'db.sqlite'}")).test_client()
    r = _signed(client, "SMnospool", "hello")
    assert r.status_code == 503 and r.headers.get("Retry-After")
    assert "spool" in (tmp_path / "failures.jsonl").read_text()


def test_chat_api_answers_the_fallback_not_a_500_when_the_store_fails(tmp_path, monkeypatch):
    monkeypatch.setenv("FAILURE_LOG", str(tmp_path / "failures.jsonl"))
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    cid = Store(url).new_conversation("dunkirk", "web")
    client = _app(tmp_path, BrokenStore(url)).test_client()
    r = client.post("/chat/api/start", json={})
    assert r.status_code == 200 and CHAT_FALLBACK in r.get_json()["messages"][0]["text"]
    r = client.post("/chat/api/message", json={"conversation_id": cid, "text": "can I burn today?"})
    assert r.status_code == 200 and CHAT_FALLBACK in r.get_json()["messages"][0]["text"]


# ---- the real stack -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def volume(tmp_path_factory):
    """A 48 MB tmpfs for the SQLite database (so the disk can fill up); None where we may not mount."""
    path = tmp_path_factory.mktemp("dbvol")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m,mode=0755", "tmpfs", str(path)],
                          capture_output=True)
    mounted = done.returncode == 0
    yield path, mounted
    if mounted:
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.fixture(scope="module")
def sqlite_stack(tmp_path_factory, volume):
    tmp = tmp_path_factory.mktemp("faults-sqlite")
    path, _ = volume
    env = {"RASA_TIMEOUT": "8", "SPOOL_DIR": str(tmp / "spool"), "FAILURE_LOG": str(tmp / "failures.jsonl")}
    with Stack(tmp / "stack", database_url=f"sqlite:///{path / 'faults.db'}", env=env, now=NOW) as stack:
        stack.store = Store(stack.database_url)
        stack.store.create_clerk(CLERK, CLERK_PW)
        stack.clerk = clerk_session(stack.web)
        yield stack
        stack.store.close()


@pytest.fixture(scope="module")
def pg_stack(tmp_path_factory):
    if not have_postgres():
        pytest.skip("PostgreSQL is not installed (make system-deps installs it)")
    tmp = tmp_path_factory.mktemp("faults-pg")
    env = {"RASA_TIMEOUT": "8", "SPOOL_DIR": str(tmp / "spool"), "FAILURE_LOG": str(tmp / "failures.jsonl")}
    with postgres(tmp) as server:
        url = create_database(server, "faults")
        with Stack(tmp / "stack", database_url=url, env=env, now=NOW) as stack:
            stack.store = Store(url)
            stack.store.create_clerk(CLERK, CLERK_PW)
            stack.clerk = clerk_session(stack.web)
            yield stack
            stack.store.close()


def clerk_session(web):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    page = opener.open(web + "/clerk/login", timeout=30).read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    opener.open(web + "/clerk/login", urllib.parse.urlencode(
        {"username": CLERK, "password": CLERK_PW, "csrf_token": token}).encode(), timeout=30)
    return opener


def status_page(stack) -> str:
    import html
    return html.unescape(stack.clerk.open(stack.web + "/clerk/status", timeout=30).read().decode())


def check_row(page: str, name: str) -> str:
    m = re.search(rf'<th scope="row">{re.escape(name)}</th>\s*<td>(\w+)</td><td>([^<]*)</td>', page)
    assert m, page[-3000:]
    return m.group(1) + " " + m.group(2)


_sid = iter(range(10**6))


def timed_sms(stack, label, body="can I burn brush today?", from_="+16085559001"):
    sid = f"SMfault{next(_sid):06d}"
    t0 = time.monotonic()
    status, reply = sms_request(stack.web, from_, body, sid, timeout=30)
    took = time.monotonic() - t0
    print(f"\n{label}: SMS answered {status} in {took:.2f} s: {reply[:70]!r}")
    assert status == 200 and FALLBACK in reply, reply
    assert took < BAR
    return sid


def timed_chat(stack, label, cid):
    body = json.dumps({"conversation_id": cid, "text": "how much is a dog license?"}).encode()
    req = urllib.request.Request(stack.web + "/chat/api/message", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=30) as r:
        status, data = r.status, json.loads(r.read())
    took = time.monotonic() - t0
    print(f"{label}: web chat answered {status} in {took:.2f} s")
    assert status == 200 and CHAT_FALLBACK in data["messages"][0]["text"], data
    assert took < BAR


def new_chat(stack) -> str:
    req = urllib.request.Request(stack.web + "/chat/api/start", data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["conversation_id"]


def stored_soon(store, sid, within=30.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if store.get_inbound_sms(sid):
                return store.get_inbound_sms(sid)
        time.sleep(0.5)
    return None


@pytest.mark.faults
@needs_model
@pytest.mark.parametrize("process,row", [("rasa", "Rasa"), ("actions", "Action server")])
def test_a_process_down(sqlite_stack, process, row):
    stack = sqlite_stack
    cid = new_chat(stack)
    stack.kill(process)
    try:
        label = f"{row} down"
        sid = timed_sms(stack, label, START if process == "actions" else "can I burn brush today?")
        timed_chat(stack, label, cid)
        page = status_page(stack)
        assert check_row(page, row).startswith("FAILING")
        assert check_row(page, "Database").startswith("Working")
        assert "rasa" in page and "Rasa did not answer" in page
        assert stored_soon(stack.store, sid)
    finally:
        stack.start(process)
    assert check_row(status_page(stack), row).startswith("Working")


@pytest.mark.faults
@needs_model
def test_database_locked(sqlite_stack):
    stack = sqlite_stack
    cid = new_chat(stack)
    lock = sqlite3.connect(stack.database_url.split("///", 1)[1], isolation_level=None, timeout=30)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        sid = timed_sms(stack, "database locked")
        timed_chat(stack, "database locked", cid)
        assert list(Path(stack.env["SPOOL_DIR"]).glob("*.jsonl"))  # spooled, not stored
        page = status_page(stack)
        assert check_row(page, "Database").startswith("FAILING") and "locked" in page
        assert "spooled" in page
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    rec = stored_soon(stack.store, sid)
    assert rec and FALLBACK in rec.reply  # replayed from the spool once the lock is gone
    assert check_row(status_page(stack), "Database").startswith("Working")


@pytest.mark.faults
@needs_model
def test_disk_full(sqlite_stack, volume):
    path, mounted = volume
    if not mounted:
        pytest.skip("cannot mount a tmpfs here (not root): no disk to fill")
    stack = sqlite_stack
    cid = new_chat(stack)
    with stack.store.engine.connect() as conn:  # an empty WAL: the next write needs new disk space
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    filler = path / "filler"
    with open(filler, "wb") as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * (1 << 20))
            f.flush()
    with contextlib.suppress(OSError), open(path / "filler2", "wb") as f:  # the last few KB too
        while True:
            f.write(b"\0" * 4096)
            f.flush()
    try:
        sid = timed_sms(stack, "disk full")
        timed_chat(stack, "disk full", cid)
        page = status_page(stack)
        assert check_row(page, "Database").startswith("FAILING") and "full" in page
    finally:
        filler.unlink()
        (path / "filler2").unlink()
    rec = stored_soon(stack.store, sid)
    assert rec and FALLBACK in rec.reply
    assert Store(stack.database_url).pragma("integrity_check") == "ok"


@pytest.mark.faults
@needs_model
def test_store_failure_at_submit_tells_the_resident_nothing_was_saved(sqlite_stack):
    """The action server cannot store the notification: the resident is told it was NOT saved."""
    stack = sqlite_stack
    before = len(stack.store.list_burn_notifications("dunkirk"))
    with stack.store.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TRIGGER refuse_burns BEFORE INSERT ON burn_notifications "
                             "BEGIN SELECT RAISE(ABORT, 'disk I/O error (test)'); END")
    try:
        r = Resident(stack.web, 900, Ledger(), patience=60)
        reply = r.say(START)
        for _ in range(12):
            if "NOT been notified" in reply or "reference is" in reply:
                break
            last = reply.split("Reply 1 for")[0].strip().splitlines()[-1]
            answer = next(a(r) for pat, a in Resident.ANSWERS if re.search(pat, last, re.I))
            reply = r.say(answer)
        print("\nstore failure at submit:", reply)
        assert "NOT been notified" in reply and "reference is" not in reply
        assert len(stack.store.list_burn_notifications("dunkirk")) == before
    finally:
        with stack.store.engine.begin() as conn:
            conn.exec_driver_sql("DROP TRIGGER refuse_burns")


def set_read_only(admin, url: str, on: bool, within: float = 10.0) -> None:
    """ALTER SYSTEM + pg_reload_conf, then wait until a new session sees the setting: the postmaster has
    reloaded, and it signals every backend as it does (each rereads its configuration before its next command)."""
    value = "on" if on else "off"
    with admin.connect() as c:
        c.exec_driver_sql("SET default_transaction_read_only = off")
        c.exec_driver_sql("ALTER SYSTEM SET default_transaction_read_only = " + value)
        c.exec_driver_sql("SELECT pg_reload_conf()")
    probe = sa.create_engine(url, poolclass=sa.pool.NullPool)  # a new session each time
    deadline = time.monotonic() + within
    try:
        while True:
            with probe.connect() as c:
                if c.exec_driver_sql("SHOW default_transaction_read_only").scalar() == value:
                    return
            assert time.monotonic() < deadline, f"PostgreSQL did not reload default_transaction_read_only={value}"
            time.sleep(0.05)
    finally:
        probe.dispose()


@pytest.mark.faults
@needs_model
def test_database_read_only(pg_stack):
    stack = pg_stack
    cid = new_chat(stack)
    admin = sa.create_engine(stack.database_url, isolation_level="AUTOCOMMIT")

    def read_only(on: bool):
        set_read_only(admin, stack.database_url, on)

    read_only(True)
    try:
        sid = timed_sms(stack, "database read-only")
        timed_chat(stack, "database read-only", cid)
        page = status_page(stack)
        assert check_row(page, "Database").startswith("FAILING") and "read-only" in page
    finally:
        read_only(False)
    rec = stored_soon(stack.store, sid)
    assert rec and FALLBACK in rec.reply
    admin.dispose()
