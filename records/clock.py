"""The records' clock: the one "now" of the assistant (knowledge.when.clock), in UTC for storage."""

from __future__ import annotations

from datetime import datetime, timezone

from knowledge import town
from knowledge.when import clock


def utcnow() -> datetime:
    """Now, as an aware UTC datetime: ``knowledge.when.clock`` of the configured town (``TOWN``), so a pinned
    ``ASSISTANT_NOW`` without a zone is read in the town's time zone here exactly as the bot reads it."""
    return clock(town()).astimezone(timezone.utc)
