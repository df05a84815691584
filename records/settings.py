"""The assistant's settings from the environment, each read here with its one default (docs/configuration.md).

The web front reads them once into its app config (web/__init__.py); the records CLI, the action server, Rasa's
tracker store (bot/tracker_store.py) and the tools call these functions. Each reads the environment when called
(tests set it per test); each process keeps what it read (the web config, the action server's one store, the
loaded town). ``TOWN`` and ``env`` come from knowledge/settings.py, which the knowledge engine reads itself.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.settings import env, town_key

REPO = Path(__file__).resolve().parent.parent
INSTANCE = REPO / "instance"
DEFAULT_DATABASE_URL = "sqlite:///" + str(INSTANCE / "assistant.db")

DEFAULT_RASA_PORT = 5005
DEFAULT_ACTION_PORT = 5055
DEFAULT_WEB_PORT = 8000
DEFAULT_WEB_HOST = "127.0.0.1"  # loopback: put a reverse proxy in front (docs/configuration.md)
DEFAULT_RETENTION_DAYS = 7 * 365 + 2  # Wis. Stat. 19.21(4)(b): seven years unless a schedule says otherwise
DEFAULT_SESSION_HOURS = 12  # a clerk signs in again at least this often


def env_int(name: str, default: int) -> int:
    return int(env(name, str(default)))


def env_bool(name: str, default: bool) -> bool:
    raw = env(name)
    return default if raw == "" else raw.lower() in ("1", "true", "yes", "on")


def town() -> str:
    return town_key()


def database_url() -> str:
    """``DATABASE_URL``, default the SQLite file instance/assistant.db; a relative SQLite path is taken from the
    repository root, so the web front, the action server and Rasa's tracker store open the same file wherever
    they are started."""
    url = env("DATABASE_URL", DEFAULT_DATABASE_URL)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        rel = url[len("sqlite:///"):]
        if rel and rel != ":memory:" and not Path(rel).is_absolute():
            url = "sqlite:///" + str(REPO / rel)
    return url


def retention_days() -> int:
    return env_int("RECORDS_RETENTION_DAYS", DEFAULT_RETENTION_DAYS)


def rasa_port() -> int:
    return env_int("RASA_PORT", DEFAULT_RASA_PORT)


def action_url() -> str:
    return env("ACTION_URL").rstrip("/") or f"http://127.0.0.1:{env_int('ACTION_PORT', DEFAULT_ACTION_PORT)}"


def web_host() -> str:
    return env("WEB_HOST", DEFAULT_WEB_HOST)


def web_port() -> int:
    return env_int("WEB_PORT", DEFAULT_WEB_PORT)


def failure_log_path() -> Path:
    return Path(env("FAILURE_LOG") or INSTANCE / "failures.jsonl")


def spool_dir() -> Path:
    return Path(env("SPOOL_DIR") or INSTANCE / "spool")


def secret_key_file() -> Path:
    """Where the generated SECRET_KEY is kept when the environment gives none (made 0600 on first start)."""
    return Path(env("SECRET_KEY_FILE") or INSTANCE / "secret_key")


def rasa_token_file() -> Path:
    return Path(env("RASA_TOKEN_FILE") or INSTANCE / "rasa_auth_token")
