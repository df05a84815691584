"""Shared fixtures: the two towns' knowledge, loaded once (as the product loads it)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from knowledge import load_town

CHICAGO = ZoneInfo("America/Chicago")


@pytest.fixture(scope="session")
def dunkirk():
    return load_town("dunkirk")


@pytest.fixture(scope="session")
def mequon():
    return load_town("mequon")


def local(*args) -> datetime:
    return datetime(*args, tzinfo=CHICAGO)
