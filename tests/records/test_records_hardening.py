"""Issue #13, hardening of the records store: file modes, no bound values in errors, the failure log, the
migrate command's output."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy.exc import IntegrityError

from records import Store, failure_log
from records.__main__ import main as records_main


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_sqlite_database_and_its_wal_are_readable_by_their_owner_only(tmp_path):
    old = os.umask(0o022)
    try:
        st = Store(f"sqlite:///{tmp_path / 'records.db'}")
        with st.engine.connect() as conn:  # the -wal and -shm exist while a connection is open
            st.save_inbound_sms("SM1", "+16085550100", "+16085550199", "hello")
            assert mode(tmp_path / "records.db") == 0o600
            assert mode(tmp_path / "records.db-wal") == 0o600 and mode(tmp_path / "records.db-shm") == 0o600
            conn.exec_driver_sql("SELECT 1")
        st.close()
    finally:
        os.umask(old)


def test_an_existing_0644_database_is_made_private_when_opened(tmp_path):
    Store(f"sqlite:///{tmp_path / 'records.db'}").close()
    os.chmod(tmp_path / "records.db", 0o644)
    Store(f"sqlite:///{tmp_path / 'records.db'}").close()
    assert mode(tmp_path / "records.db") == 0o600


def test_database_errors_carry_no_bound_values(tmp_path):
    """A constraint error (or a locked database) once showed the sender's number and the body in its message."""
    st = Store(f"sqlite:///{tmp_path / 'records.db'}")
    from records import schema
    from sqlalchemy import insert
    row = dict(message_sid="SM1", from_number="+16085550123", to_number="+1", body="my secret body",
               created_at=datetime.now(timezone.utc), legal_hold=False)
    with st.engine.begin() as conn:
        conn.execute(insert(schema.inbound_sms).values(**row))
    with pytest.raises(IntegrityError) as err:
        with st.engine.begin() as conn:
            conn.execute(insert(schema.inbound_sms).values(**row))
    assert "+16085550123" not in str(err.value) and "my secret body" not in str(err.value)
    assert failure_log.describe(err.value) == "IntegrityError (sqlite3.IntegrityError)"
    st.close()


def test_the_failure_log_is_private_rotated_by_size_and_purged(tmp_path, monkeypatch):
    path = tmp_path / "failures.jsonl"
    monkeypatch.setenv("FAILURE_LOG", str(path))
    monkeypatch.setattr(failure_log, "MAX_BYTES", 2000)
    failure_log.record_failure("database", "could not store", ValueError("+16085550123 said hello"))
    assert mode(path) == 0o600
    entry = json.loads(path.read_text().splitlines()[0])
    assert entry["detail"] == "ValueError" and "+1608" not in path.read_text()
    for _ in range(200):
        failure_log.record_failure("rasa", "down", "timed out")
    rotated = sorted(p.name for p in tmp_path.iterdir())
    assert rotated == ["failures.jsonl", "failures.jsonl.1", "failures.jsonl.2", "failures.jsonl.3"]
    assert all(mode(tmp_path / n) == 0o600 and (tmp_path / n).stat().st_size <= 2200 for n in rotated)
    # the retention purge: entries older than the cutoff go, newer ones stay
    old = {"at": (datetime.now(timezone.utc) - timedelta(days=4000)).isoformat(timespec="seconds"),
           "component": "database", "what": "old", "detail": "", "pid": 1}
    with open(path, "a") as f:
        f.write(json.dumps(old) + "\n")
    st = Store(f"sqlite:///{tmp_path / 'records.db'}")
    result = st.purge_all(3650)
    assert result.deleted["failure_log"] == 1
    assert '"old"' not in path.read_text() and '"down"' in path.read_text()
    assert all(e["what"] != "old" for e in failure_log.recent_failures(500))
    st.close()


def test_migrate_prints_the_database_url_with_its_password_masked(monkeypatch, capsys):
    class FakeStore:
        from sqlalchemy.engine import make_url
        engine = type("E", (), {"url": make_url("postgresql://records:hunter2secret@db.example/records")})()
    monkeypatch.setattr("records.__main__.Store", type("S", (), {"from_env": staticmethod(lambda: FakeStore)}))
    assert records_main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert "hunter2secret" not in out and "db.example/records" in out and "***" in out


def test_a_password_change_raises_the_session_generation(tmp_path):
    st = Store(f"sqlite:///{tmp_path / 'records.db'}")
    clerk = st.create_clerk("ann", "a long clerk password")
    assert st.get_clerk(clerk.id).session_generation == 0
    st.end_clerk_sessions(clerk.id)
    assert st.set_clerk_password("ann", "another long password")
    assert st.get_clerk(clerk.id).session_generation == 2
    assert not st.set_clerk_password("bob", "another long password")
    st.close()


def test_the_scheduled_purge_runs_once_a_day_across_processes(tmp_path):
    now = datetime(2026, 11, 30, 15, 0, tzinfo=timezone.utc)
    a = Store(f"sqlite:///{tmp_path / 'records.db'}")
    b = Store(f"sqlite:///{tmp_path / 'records.db'}")
    assert a.last_scheduled_purge() is None
    assert a.claim_scheduled_purge(now=now) and not b.claim_scheduled_purge(now=now + timedelta(hours=23))
    assert b.claim_scheduled_purge(now=now + timedelta(hours=24)) and not a.claim_scheduled_purge(now=now + timedelta(hours=25))
    assert a.last_scheduled_purge() == now + timedelta(hours=24)
    a.close(), b.close()
