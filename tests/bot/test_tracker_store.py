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
