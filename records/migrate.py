"""Schema migrations of the records store with alembic (records/migrations/).

``upgrade(engine)`` brings a database to the newest schema: a new database gets every table; one made by an
older release gets the missing changes. A database made before migrations existed (tables but no
``alembic_version``) is stamped if its tables already match the schema, and refused with a clear message if
they do not, so a stale development file fails at start-up instead of on a resident's first message.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
import time

from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.engine import Engine

from .engine import safe_url
from .schema import metadata

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


RACE_ERRORS = (OperationalError, IntegrityError, ProgrammingError)


class SchemaOutOfDate(RuntimeError):
    """The database was made by an unmigrated older version and does not match the schema."""


def config(url: str = "") -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def _mismatches(conn) -> list[str]:
    insp = inspect(conn)
    have = set(insp.get_table_names())
    problems = []
    for name, table in metadata.tables.items():
        if name not in have:
            problems.append(f"table {name} is missing")
            continue
        columns = {c["name"] for c in insp.get_columns(name)}
        problems += [f"table {name} lacks column {c.name}" for c in table.columns if c.name not in columns]
    return problems


def upgrade(engine: Engine, attempts: int = 3) -> None:
    """Upgrade to the newest schema. Processes starting together (web, actions) may race to create the
    tables; the loser's DDL fails, and its retry finds the schema current."""
    for attempt in range(attempts):
        try:
            return _upgrade(engine)
        except RACE_ERRORS:  # another process created the tables first
            if attempt == attempts - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


def _upgrade(engine: Engine) -> None:
    cfg = config(str(engine.url))
    with engine.begin() as conn:
        tables = set(inspect(conn).get_table_names())
        cfg.attributes["connection"] = conn
        if "alembic_version" not in tables and tables & set(metadata.tables):
            problems = _mismatches(conn)
            if problems:
                raise SchemaOutOfDate(
                    f"The records database {safe_url(engine.url)} was made by an older, unmigrated version of the "
                    f"assistant and does not match the schema ({'; '.join(problems)}). Back it up, then move "
                    "it aside to start a new one.")
            command.stamp(cfg, "head")
            return
        command.upgrade(cfg, "head")
