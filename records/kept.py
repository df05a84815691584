"""The town as the clerk keeps it: the town as loaded (its data folder) with the fee schedule (records/fees.py)
and the offices' contacts (records/contacts.py) the clerk set on the web. Every process (web, action server)
asks for it when it answers, so a change takes effect without a restart: at once in the process that made it,
within READ_EVERY seconds in the others."""

from __future__ import annotations

import logging
import time
import weakref

from knowledge import contacts, fee_schedule
from knowledge.model import Town

log = logging.getLogger(__name__)

#: how long one process reuses what it read (seconds): a change reaches every answer after this
READ_EVERY = 1.0
#: after a failed read, how long the last good read (or the town as loaded) is used before trying again
RETRY_AFTER = 30.0
#: store -> town key -> (when read, the town as loaded, what was read, the town with it, read failed)
_seen: "weakref.WeakKeyDictionary[object, dict[str, tuple]]" = weakref.WeakKeyDictionary()


def forget(store, town_key: str) -> None:
    """Read ``town_key``'s fees and contacts again on the next answer (the store just changed them)."""
    _seen.get(store, {}).pop(town_key, None)


def town_as_kept(town: Town, store) -> Town:
    """``town`` with the clerk's fee schedule and contacts from ``store``. When the store cannot be read (logged),
    the last good read stands; before any, the town as loaded (its data folder's amounts and contacts)."""
    now = time.monotonic()
    by_town = _seen.setdefault(store, {})
    cached = by_town.get(town.key)
    if cached and cached[1] is not town:
        cached = None
    if cached and now - cached[0] < (RETRY_AFTER if cached[4] else READ_EVERY):
        return cached[3]
    try:
        read = (tuple(c.entry for c in store.fee_changes(town.key, in_force=True)),
                tuple(c.entry for c in store.contact_changes(town.key, in_force=True)))
    except Exception:  # the store is down: never an error in place of an answer
        log.exception("cannot read the fee schedule and contacts of %s; using the last good read for %.0f s",
                      town.key, RETRY_AFTER)
        last = cached[3] if cached else town
        by_town[town.key] = (now, town, cached[2] if cached else None, last, True)
        return last
    out = cached[3] if cached and cached[2] == read else \
        contacts.with_entries(fee_schedule.with_entries(town, read[0]), read[1])
    by_town[town.key] = (now, town, read, out, False)
    return out
