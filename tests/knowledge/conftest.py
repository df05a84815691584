"""Shared fixtures: the two towns' knowledge, loaded once (as the product loads it).

Tests take a town from ``knowledge.town(key)`` (imported as ``shared_town``), the product's once-per-process
cache, so a town is parsed and checked once per run; ``load_town`` only where a test needs its own copy (a
broken folder, a patched Town)."""

import shutil
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from knowledge import town as shared_town
from knowledge.loader import ROOT

CHICAGO = ZoneInfo("America/Chicago")


@pytest.fixture
def kb(tmp_path) -> Path:
    """A private copy of the knowledge folder to break (tests/knowledge/broken_copy.py)."""
    root = tmp_path / "knowledge"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return root


@pytest.fixture(scope="session")
def dunkirk():
    return shared_town("dunkirk")


@pytest.fixture(scope="session")
def mequon():
    return shared_town("mequon")


def local(*args) -> datetime:
    return datetime(*args, tzinfo=CHICAGO)
