"""Fixtures in the style of RasaHQ/financial-demo: a Tracker built from slots and a latest message, and a
CollectingDispatcher to read what the action said."""
from __future__ import annotations

import pytest
from rasa_sdk.executor import CollectingDispatcher

from knowledge import town as shared_town

from tests.actions.action_helpers import make_tracker  # noqa: E402

NOW = "2026-07-02T10:00:00-05:00"  # a Thursday morning in July, Central time


@pytest.fixture(autouse=True)
def pinned(monkeypatch, tmp_path, request):
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    monkeypatch.setenv("TOWN", "dunkirk")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'records.db'}")
    from actions import common
    monkeypatch.setattr(common, "_STORE", None)
    if request.node.get_closest_marker("kept_by_the_clerk") is None:  # a records store per test costs ~0.4 s
        monkeypatch.setattr(common, "as_kept", lambda t: t)
    yield


@pytest.fixture
def dispatcher() -> CollectingDispatcher:
    return CollectingDispatcher()


@pytest.fixture
def domain() -> dict:
    return {}


@pytest.fixture
def tracker_factory():
    return make_tracker


@pytest.fixture
def mequon(monkeypatch):
    from actions import common
    t = shared_town("mequon")
    monkeypatch.setattr(common, "town", lambda: t)
    return t


