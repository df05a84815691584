"""The knowledge engine's settings from the environment (docs/configuration.md), pure Python.

``TOWN`` (default dunkirk) is read here and nowhere else: ``knowledge.town()`` reads it once per process and
keeps the town loaded; records/settings.py, which holds the web, records and Rasa settings, takes ``env`` and
``town_key`` from here. ``ASSISTANT_NOW`` is read when asked (tests and demos pin the clock per run).
"""

from __future__ import annotations

import os

DEFAULT_TOWN = "dunkirk"


def env(name: str, default: str = "") -> str:
    """The environment variable ``name`` without surrounding blanks; ``default`` when it is unset or blank."""
    return os.environ.get(name, "").strip() or default


def town_key() -> str:
    """The folder of knowledge/towns/ to serve: ``TOWN``, default dunkirk."""
    return env("TOWN", DEFAULT_TOWN)


def pinned_now() -> str:
    """``ASSISTANT_NOW``, an ISO 8601 date-time that pins "now" ("" for the real clock)."""
    return env("ASSISTANT_NOW")
