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
