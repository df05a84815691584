"""Rasa's tracker store (bot/tracker_store.py) under a locked database and on a new SQLite file: a turn that
meets a lock is retried, not dropped; its error never carries the resident's words; the file is private."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import stat
import threading
import time

import pytest

ADDRESS = "N1234 Secret Lane"


def _store(tmp_path, monkeypatch, name="rasa.db"):
    from rasa.shared.core.domain import Domain

    from bot.tracker_store import UrlSQLTrackerStore
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / name}")
    return UrlSQLTrackerStore(Domain.load("bot/domain"))


def _tracker(store, sender="c1"):
    from rasa.shared.core.events import ActionExecuted, SessionStarted, UserUttered
    from rasa.shared.core.trackers import DialogueStateTracker
    events = [ActionExecuted("action_session_start"), SessionStarted(), ActionExecuted("action_listen"),
              UserUttered(f"I burn at {ADDRESS}", {"name": "inform", "confidence": 0.9})]
    return DialogueStateTracker.from_events(sender, events, store.domain.slots)


def _lock(store, path):
    """Another process's write transaction (SQLite BEGIN EXCLUSIVE on its own connection), once the store has
    made the database WAL and holds a pooled connection (a first turn saved), as in a running Rasa."""
    asyncio.run(store.save(_tracker(store, "earlier")))
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN EXCLUSIVE")
    return conn


@pytest.fixture
def quick_busy_timeout(monkeypatch):
    """The driver waits 0.2 s for a lock instead of 5 s, so the tests take seconds."""
    monkeypatch.setattr("bot.tracker_store.SQLITE_PRAGMAS", ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                                                             "PRAGMA busy_timeout=200"))


def test_a_new_tracker_database_file_is_private_whoever_creates_it(tmp_path, monkeypatch):
    old = os.umask(0o022)
    try:
        store = _store(tmp_path, monkeypatch)
        asyncio.run(store.save(_tracker(store)))
    finally:
        os.umask(old)
    for suffix in ("", "-wal", "-shm"):
        if (tmp_path / f"rasa.db{suffix}").exists():
            assert stat.S_IMODE(os.stat(tmp_path / f"rasa.db{suffix}").st_mode) == 0o600, suffix


def test_a_turn_that_meets_a_locked_database_is_retried_not_dropped(tmp_path, monkeypatch, quick_busy_timeout,
                                                                   caplog):
    store = _store(tmp_path, monkeypatch)
    holder = _lock(store, str(tmp_path / "rasa.db"))
    threading.Timer(1.5, holder.rollback).start()  # the lock goes after 1.5 s: longer than the busy timeout
    caplog.set_level(logging.WARNING)
    started = time.monotonic()
    asyncio.run(store.save(_tracker(store)))
    assert time.monotonic() - started >= 1.0
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM events WHERE sender_id='c1'").scalar() == 4
    assert ADDRESS not in caplog.text


def test_a_tracker_store_error_never_carries_the_residents_words(tmp_path, monkeypatch, quick_busy_timeout, caplog):
    import sqlalchemy as sa
    monkeypatch.setattr("bot.tracker_store.LOCKED_RETRIES", (0.1,), raising=False)
    store = _store(tmp_path, monkeypatch)
    holder = _lock(store, str(tmp_path / "rasa.db"))
    caplog.set_level(logging.DEBUG)
    try:
        with pytest.raises(sa.exc.OperationalError) as err:
            asyncio.run(store.save(_tracker(store)))
    finally:
        holder.rollback()
    assert ADDRESS not in str(err.value) and "locked" in str(err.value)
    assert ADDRESS not in caplog.text
