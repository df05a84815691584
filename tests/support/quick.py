"""Fixtures that spare the in-process web tests repeated work, not checks (tests/web, tests/abuse conftests).

- ``quick_password_hashes``: argon2id at its lowest cost. These tests check who may sign in, the throttles and
  the sessions, not what a hash costs; with argon2-cffi's defaults (64 MiB, three passes) every login and
  every new account took ~0.1-0.8 s, most of the login-throttle tests' time. tests/records/test_store.py, in its
  own process, checks the real hasher. Unknown names still verify a dummy hash of the same cost.
- ``migrated_db`` / ``fresh_store``: the migrations run once per run into a template SQLite file; each test
  gets a copy, which the store's own upgrade finds at head (~20 ms instead of ~200 ms a test).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from records import Store

QUICK_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
QUICK_DUMMY_HASH = QUICK_HASHER.hash("a dummy password for unknown names")


@pytest.fixture(autouse=True)
def quick_password_hashes(monkeypatch):
    """Per test, so that tests elsewhere in the same run (tests/records, in make check's front half) keep the
    real hasher."""
    from records import clerks
    monkeypatch.setattr(clerks, "_hasher", QUICK_HASHER)
    monkeypatch.setattr(clerks, "_dummy_hash", lambda: QUICK_DUMMY_HASH)


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory) -> Path:
    """A SQLite file brought to the newest schema by the migrations, once per run."""
    path = tmp_path_factory.mktemp("migrated") / "template.db"
    Store(f"sqlite:///{path}").close()
    return path


def fresh_store(template: Path, path: Path) -> Store:
    """A store of its own at ``path``, a copy of the migrated template."""
    shutil.copyfile(template, path)
    return Store(f"sqlite:///{path}")
