"""The town as the clerk keeps it: the town as loaded (its data folder) with the fee schedule (records/fees.py)
and the offices' contacts (records/contacts.py) the clerk set on the web. Every process (web, action server)
asks for it when it answers, so a change takes effect without a restart."""

from __future__ import annotations

import logging
import time

from knowledge import contacts, fee_schedule
from knowledge.model import Town

log = logging.getLogger(__name__)

#: how long one process reuses what it read (seconds): a change reaches every answer after this
READ_EVERY = 1.0
#: (store, town key) -> (when read, the town as loaded, what was read, the town with it)
_seen: dict[tuple[int, str], tuple[float, Town, tuple, Town]] = {}


def town_as_kept(town: Town, store) -> Town:
    """``town`` with the clerk's fee schedule and contacts from ``store``; the town as loaded when the store
    cannot be read, which is logged (answers then use the amounts and contacts of its data folder)."""
    key = (id(store), town.key)
    now = time.monotonic()
    cached = _seen.get(key)
    if cached and cached[1] is not town:
        cached = None
    if cached and now - cached[0] < READ_EVERY:
        return cached[3]
    try:
        read = (tuple(c.entry for c in store.fee_changes(town.key, in_force=True)),
                tuple(c.entry for c in store.contact_changes(town.key, in_force=True)))
    except Exception:  # the store is down: the data folder's values, never an error in place of an answer
        log.exception("cannot read the fee schedule and contacts of %s", town.key)
        _seen[key] = (now, town, None, town)  # tried again after READ_EVERY, not on every call meanwhile
        return town
    out = cached[3] if cached and cached[2] == read else \
        contacts.with_entries(fee_schedule.with_entries(town, read[0]), read[1])
    _seen[key] = (now, town, read, out)
    return out
