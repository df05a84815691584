"""The town's local time for the clerk pages: records.utcnow (the one clock; ASSISTANT_NOW pins it) in the
town's time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from records import utcnow

from .. import get_town


def local_now() -> datetime:
    """Now in the town's time zone (ASSISTANT_NOW pins it)."""
    return utcnow().astimezone(ZoneInfo(get_town().timezone))
