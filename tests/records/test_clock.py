"""One clock: the records stamp "now" as the bot reads it (knowledge.when.clock in the configured town)."""

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import records
from knowledge import town
from knowledge.when import clock


def test_a_pinned_time_without_a_zone_is_read_in_the_towns_time_zone(monkeypatch):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-05-15T10:00")
    now = records.utcnow()
    assert now == datetime(2026, 5, 15, 10, 0, tzinfo=ZoneInfo("America/Chicago"))
    assert now.tzinfo == timezone.utc and (now.hour, now.minute) == (15, 0)  # CDT is UTC-5


def test_the_records_clock_and_the_bots_clock_agree(monkeypatch):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-12-01T09:30")
    assert records.utcnow() == clock(town())


def test_a_pinned_time_with_a_zone_keeps_its_instant(monkeypatch):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-30T15:00:00+00:00")
    assert records.utcnow() == datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Chicago"))


def test_the_real_clock_is_used_when_nothing_is_pinned(monkeypatch):
    monkeypatch.delenv("ASSISTANT_NOW", raising=False)
    before = datetime.now(timezone.utc)
    now = records.utcnow()
    assert now.tzinfo == timezone.utc and before <= now <= datetime.now(timezone.utc)


def test_records_stamped_without_a_time_use_the_one_clock(monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-05-15T10:00")
    store = records.Store(f"sqlite:///{tmp_path / 'clock.db'}")
    q = store.record_unanswered(town="dunkirk", text="can I keep bees")
    assert store.list_unanswered("dunkirk")[0].created_at == q.created_at == datetime(
        2026, 5, 15, 15, 0, tzinfo=timezone.utc)
    store.close()


def test_the_alert_sender_starts_without_the_heavy_libraries():
    """The sender (a process of its own) once took ~8 s to start: the one clock pulled in the whole knowledge
    package with bm25s (jax, scipy) and dateparser, and the records an argon2 hash at import. None of these
    is needed to send an alert; they load where they are used (ranking, parsing words, checking a password)."""
    import subprocess
    import sys
    from pathlib import Path
    code = ("import sys, records.alert_sender, records.clock\n"
            "heavy = sorted({'bm25s', 'jax', 'scipy', 'dateparser', 'rasa', 'flask'} & set(sys.modules))\n"
            "print(','.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2], check=True)
    assert out.stdout.strip() == "", f"the sender imports {out.stdout.strip()}"
