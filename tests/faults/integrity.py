"""Checks of a records database after a crash-ridden run: the engine's own integrity check, and the counts."""

from __future__ import annotations

import sqlalchemy as sa


def integrity_problems(engine) -> list[str]:
    """Empty if the database is sound. SQLite: PRAGMA integrity_check and foreign_key_check. PostgreSQL:
    amcheck's bt_index_check (heapallindexed) on every B-tree index of the public schema."""
    problems = []
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check")]
            if rows != ["ok"]:
                problems += [f"integrity_check: {r}" for r in rows]
            problems += [f"foreign_key_check: {tuple(r)}" for r in conn.exec_driver_sql("PRAGMA foreign_key_check")]
        else:
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS amcheck")
            indexes = conn.exec_driver_sql(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam "
                "WHERE n.nspname = 'public' AND a.amname = 'btree'").scalars().all()
            for name in indexes:
                try:
                    conn.execute(sa.text("SELECT bt_index_check(CAST(:n AS regclass), true)"), {"n": name})
                except sa.exc.DBAPIError as exc:
                    problems.append(f"amcheck {name}: {exc.orig}")
            if not indexes:
                problems.append("no indexes found to check")
            conn.commit()
    return problems
