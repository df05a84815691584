"""The daily retention purge, run from the web process (PURGE_SCHEDULE, on by default): a daemon thread that
checks every hour whether a day has passed since the last purge; one process across all claims it
(Store.claim_scheduled_purge, a compare-and-set in the database). Its last run shows on the System status page.
"""

from __future__ import annotations

import logging
import threading

from records.failure_log import describe, record_failure

log = logging.getLogger(__name__)

CHECK_EVERY = 3600.0
_started: set[int] = set()
_lock = threading.Lock()


def run_once(store, retention_days: int) -> bool:
    """Purge if this process claims today's run; True if it purged."""
    if not store.claim_scheduled_purge():
        return False
    result = store.purge_all(retention_days)
    log.info("scheduled purge: %d records before %s deleted", result.total, result.cutoff.date())
    return True


def start(store, retention_days: int) -> None:
    with _lock:
        if id(store) in _started:
            return
        _started.add(id(store))

    def loop():
        while True:
            try:
                run_once(store, retention_days)
            except Exception as exc:  # noqa: BLE001 - the database may be down: try at the next check
                log.warning("scheduled purge failed: %s", describe(exc))
                record_failure("database", "the scheduled retention purge failed", exc)
            threading.Event().wait(CHECK_EVERY)

    threading.Thread(target=loop, name="retention-purge", daemon=True).start()
