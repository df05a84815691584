"""The SQL tracker store follows DATABASE_URL like the records store."""
from bot.tracker_store import DEFAULT_SQLITE, sql_settings


def test_default_is_the_embedded_sqlite_file(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert sql_settings() == {"dialect": "sqlite", "db": str(DEFAULT_SQLITE)}


def test_postgres_url():
    s = sql_settings("postgresql://bot:secret@db.local:5433/town")
    assert (s["dialect"], s["host"], s["port"], s["db"], s["username"], s["password"]) == (
        "postgresql", "db.local", 5433, "town", "bot", "secret")


def test_relative_sqlite_is_under_the_repo(tmp_path):
    s = sql_settings(f"sqlite:///{tmp_path}/x.db")
    assert s["db"] == f"{tmp_path}/x.db"


def test_action_response_validation_still_rejects_bad_responses():
    import pytest
    from jsonschema import ValidationError
    from rasa.core.actions.action import RemoteAction
    from rasa.utils.endpoints import EndpointConfig

    from bot import speedups
    speedups.apply()
    action = RemoteAction("action_x", EndpointConfig("http://127.0.0.1:1/webhook"))
    assert action._validate_action_result({"events": [{"event": "slot", "name": "a", "value": 1}], "responses": []})
    with pytest.raises(ValidationError):
        action._validate_action_result({"events": "not a list"})


def _tracker_events():
    from rasa.shared.core.events import ActionExecuted, BotUttered, SessionStarted, SlotSet, UserUttered
    return [ActionExecuted("action_session_start"), SessionStarted(), ActionExecuted("action_listen"),
            UserUttered("how much is a dog license", {"name": "ask_license_cost", "confidence": 0.9}),
            ActionExecuted("license_form"), SlotSet("requested_slot", "dog_count"),
            BotUttered("How many dogs are you licensing?"), ActionExecuted("action_listen")]


def _store(tmp_path, monkeypatch, name="t.db"):
    from rasa.shared.core.domain import Domain

    from bot.tracker_store import UrlSQLTrackerStore
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / name}")
    return UrlSQLTrackerStore(Domain.load("bot/domain"))


def test_save_and_retrieve_keep_every_event_once(tmp_path, monkeypatch):
    import asyncio

    from rasa.shared.core.trackers import DialogueStateTracker
    store = _store(tmp_path, monkeypatch)

    async def go():
        tracker = DialogueStateTracker.from_events("c1", _tracker_events()[:4], store.domain.slots)
        await store.save(tracker)
        tracker = await store.retrieve("c1")
        for e in _tracker_events()[4:]:
            tracker.update(e)
        await store.save(tracker)
        await store.save(tracker)  # nothing new: nothing written twice
        return await store.retrieve("c1"), await store.retrieve("nobody")

    again, missing = asyncio.run(go())
    assert missing is None
    # like Rasa's store: the latest session, from its session_started event on
    assert [e.as_dict()["event"] for e in again.events] == [e.as_dict()["event"] for e in _tracker_events()[1:]]
    assert again.get_slot("requested_slot") == "dog_count"
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM events WHERE sender_id='c1'").scalar() == 8


def test_rows_are_the_ones_rasa_writes(tmp_path, monkeypatch):
    """Rasa's own SQLTrackerStore reads what ours wrote (same table and columns), session by session."""
    import asyncio

    from rasa.core.tracker_store import SQLTrackerStore
    from rasa.shared.core.events import ActionExecuted, SessionStarted
    from rasa.shared.core.trackers import DialogueStateTracker
    store = _store(tmp_path, monkeypatch)
    events = _tracker_events() + [ActionExecuted("action_session_start", timestamp=10 ** 10),
                                  SessionStarted(timestamp=10 ** 10), ActionExecuted("action_listen", timestamp=10 ** 10)]
    asyncio.run(store.save(DialogueStateTracker.from_events("c2", events, store.domain.slots)))
    rasa_store = SQLTrackerStore(store.domain, dialect="sqlite", db=str(tmp_path / "t.db"))
    theirs = asyncio.run(rasa_store.retrieve("c2"))
    ours = asyncio.run(store.retrieve("c2"))
    assert [e.as_dict() for e in ours.events] == [e.as_dict() for e in theirs.events]
    assert len(ours.events) == 3  # only the latest session
    assert len(asyncio.run(store.retrieve_full_tracker("c2")).events) == 11
    with store.engine.connect() as conn:
        row = conn.exec_driver_sql("SELECT type_name, intent_name, action_name FROM events WHERE sender_id='c2' "
                                   "ORDER BY id LIMIT 5").fetchall()
    assert row[3] == ("user", "ask_license_cost", None) and row[4] == ("action", None, "license_form")


def test_sqlite_is_durable_wal(tmp_path, monkeypatch):
    store = _store(tmp_path, monkeypatch)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL: a committed turn survives power loss
    assert store.engine.pool.__class__.__name__ == "QueuePool"  # not a new connection per query
