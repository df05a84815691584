"""Shared pieces of the abuse tests: an app wired to the fake Rasa with the rate limiter off (the fuzzers
send thousands of requests from one address), reply checks, a records snapshot, and the input count."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from twilio.request_validator import RequestValidator

from records import Store
from records import schema as S

WEB_TESTS = Path(__file__).resolve().parents[1] / "web"
if str(WEB_TESTS) not in sys.path:
    sys.path.insert(0, str(WEB_TESTS))

from fake_rasa import FakeRasa  # noqa: E402

from tests.support.quick import fresh_store, migrated_db, quick_password_hashes  # noqa: E402,F401 - fixtures

from web import create_app  # noqa: E402

TOKEN = "abuse-twilio-token"
PUBLIC = "https://assistant.example.gov"
NOW = "2026-11-30T15:00:00+00:00"

#: Inputs sent, per target (each fuzzer checks its own count).
SENT: Counter = Counter()


def examples(full: int) -> int:
    """How many inputs one fuzzer sends: ``full`` (make test; the four in-process fuzzers send 4,200 + 4,200 +
    800 + 800 = 10,000), or ABUSE_EXAMPLES when set (make check sets a small number)."""
    return int(os.environ.get("ABUSE_EXAMPLES") or full)

# ---- leaks -------------------------------------------------------------------------------------------

LEAK_PATTERNS = [
    re.compile(p) for p in (
        r"Traceback", r'File "', r"line \d+, in ", r"\b[A-Z][A-Za-z0-9]*(Error|Exception|Warning)\b",
        r"site-packages", r"/work/", r"/root/", r"/home/", r"/usr/lib", r"\.py\b", r"\[SQL:", r"(?i)sqlalchemy",
        r"(?i)sqlite3?\b", r"(?i)psycopg", r"INSERT INTO", r"(?i)\bwerkzeug\b", r"Background on this error",
        r"<module>", r"0x[0-9a-f]{8,}",
    )]


def leak_markers(text: str) -> set[str]:
    return {m.group(0) for p in LEAK_PATTERNS for m in p.finditer(text)}


def assert_no_leak(body: bytes | str, inputs: str | set = "") -> None:
    """No stack trace, exception name, SQL, file path or module name in a reply, unless the same marker was
    in what the client sent (a bot may quote the resident). ``inputs``: the text sent, or its markers."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    leaked = leak_markers(text) - (inputs if isinstance(inputs, set) else leak_markers(inputs))
    assert not leaked, f"reply shows internals {sorted(leaked)}: {text[:600]!r}"


# ---- the records -------------------------------------------------------------------------------------

TABLES = [S.burn_notifications, S.unanswered, S.burning_orders, S.inbound_sms, S.sms_opt_outs, S.conversations,
          S.transcript, S.clerks]


class Records:
    """Row counts and the newest ids of every table, to compare before and after one request. Reads the
    SQLite file over one plain sqlite3 connection of its own (the store, on SQLAlchemy 1.4's NullPool for
    SQLite files, opens a connection per call; checking every request that way would double the run time)."""

    def __init__(self, store_or_path):
        path = store_or_path if isinstance(store_or_path, (str, Path)) else store_or_path.url.split("///", 1)[1]
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        parts = [f"(SELECT count(*) FROM {t.name}) AS {t.name}" for t in TABLES]
        parts += ["(SELECT coalesce(max(id), 0) FROM transcript_messages) AS tmax",
                  "(SELECT coalesce(max(id), 0) FROM inbound_sms) AS smax"]
        self.query = "SELECT " + ", ".join(parts)

    def counts(self) -> dict:
        return dict(self.conn.execute(self.query).fetchone())

    def rows(self, table, **where) -> list[dict]:
        q = f"SELECT * FROM {table.name}"
        if where:
            q += " WHERE " + " AND ".join(f"{k} = ?" for k in where)
        return [dict(r) for r in self.conn.execute(q + " ORDER BY rowid", tuple(where.values()))]

    def transcript_after(self, tmax: int) -> list[dict]:
        return [dict(r) for r in self.conn.execute(
            "SELECT * FROM transcript_messages WHERE id > ? ORDER BY id", (tmax,))]

    def everything(self) -> dict:
        return {t.name: self.rows(t) for t in TABLES}

    def close(self):
        self.conn.close()


def unchanged_except(before: dict, after: dict, *allowed: str) -> list[str]:
    return [k for k in before if k not in allowed and before[k] != after[k]]


# ---- fixtures ----------------------------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def private_spool_and_failure_log(tmp_path_factory):
    """The web front spools SMS it cannot store and logs failures under instance/ by default: keep this run's
    (hostile) ones in a temporary directory, for the in-process apps and the real stack alike."""
    d = tmp_path_factory.mktemp("abuse-instance")
    mp = pytest.MonkeyPatch()
    mp.setenv("SPOOL_DIR", str(d / "spool"))
    mp.setenv("FAILURE_LOG", str(d / "failures.jsonl"))
    yield d
    mp.undo()


@pytest.fixture(scope="module")
def fake_rasa():
    with FakeRasa() as fr:
        yield fr


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory, fake_rasa):
    """One app and database for a whole fuzz module: the limiter is off so thousands of requests from one
    test client are all judged on their content."""
    mp = pytest.MonkeyPatch()
    mp.setenv("ASSISTANT_NOW", NOW)
    store, where = fast_store(tmp_path_factory)
    app = create_app({"TESTING": False, "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "abuse-secret",
                      "STORE": store, "TOWN": "dunkirk", "RASA_URL": fake_rasa.url, "RASA_TIMEOUT": 3.0,
                      "TWILIO_AUTH_TOKEN": TOKEN, "PUBLIC_URL": PUBLIC, "SESSION_COOKIE_SECURE": False,
                      "SMS_DUPLICATE_WAIT": 0.5, "RATELIMIT_ENABLED": False})
    yield app
    store.close()
    shutil.rmtree(where, ignore_errors=True)
    mp.undo()


def fast_store(tmp_path_factory) -> tuple[Store, Path]:
    """A SQLite store in memory-backed /dev/shm when there is one: the store commits with synchronous=FULL,
    and thousands of fsyncs to disk would make the fuzzers I/O-bound (minutes instead of seconds)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        where = Path(tempfile.mkdtemp(prefix="abuse-", dir=shm))
    else:
        where = tmp_path_factory.mktemp("abuse")
    return Store(f"sqlite:///{where / 'abuse.db'}"), where


def sign(url_path: str, params: dict, token: str = TOKEN) -> str:
    return RequestValidator(token).compute_signature(PUBLIC + url_path, params)


@pytest.fixture
def store(tmp_path, migrated_db):
    st = fresh_store(migrated_db, tmp_path / "web.db")
    yield st
    st.close()


@pytest.fixture
def make_app(store, fake_rasa, monkeypatch):
    """A fresh app per test (its own rate limiter), like tests/web's, on this module's fake Rasa."""
    monkeypatch.setenv("ASSISTANT_NOW", NOW)

    def make(**overrides):
        cfg = {"TESTING": True, "SECRET_KEY": "abuse-secret", "STORE": store, "TOWN": "dunkirk",
               "RASA_URL": fake_rasa.url, "RASA_TIMEOUT": 2.0, "TWILIO_AUTH_TOKEN": TOKEN, "PUBLIC_URL": PUBLIC,
               "SESSION_COOKIE_SECURE": False}
        cfg.update(overrides)
        return create_app(cfg)
    return make
