"""Shared fixtures: the two towns' knowledge, loaded once (as the product loads it).

Tests take a town from ``knowledge.town(key)`` (imported as ``shared_town``), the product's once-per-process
cache, so a town is parsed and checked once per run; ``load_town`` only where a test needs its own copy (a
broken folder, a patched Town)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from knowledge import town as shared_town

CHICAGO = ZoneInfo("America/Chicago")


@pytest.fixture(scope="session")
def dunkirk():
    return shared_town("dunkirk")


@pytest.fixture(scope="session")
def mequon():
    return shared_town("mequon")


def local(*args) -> datetime:
    return datetime(*args, tzinfo=CHICAGO)
