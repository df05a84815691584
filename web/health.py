"""What the clerk's System status page shows: live checks of Rasa, the action server and the database, and the
recent failures the web front met (records/failure_log.py keeps them, outside the database).
"""

from __future__ import annotations

import logging
import os
import time
import urllib.error
import urllib.request

from flask import current_app

from records import settings
from records.failure_log import record_failure, recent_failures  # noqa: F401 - the status page's source

from . import spool

log = logging.getLogger(__name__)


def _http(url: str, timeout: float) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - loopback URLs from config
            return r.status == 200, f"HTTP {r.status}"
    except urllib.error.HTTPError as exc:
        return False, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return False, str(getattr(exc, "reason", exc))


def action_server_url() -> str:
    return current_app.config.get("ACTION_URL") or settings.action_url()


#: Seconds without a heartbeat after which the alerts sender counts as not running (it beats every 2 s while
#: idle and before every alert it sends).
SENDER_STALE = 90


def sender_status(store, town: str) -> tuple[bool, str]:
    """Is the town's alerts sender (records/alert_sender.py) running? Its heartbeat, on the database's clock."""
    from records.alert_sender import heartbeat_name
    at, now = store.last_heartbeat(heartbeat_name(town))
    start = "start it: the Procfile's sender, or python -m records send-alerts"
    if at is None:
        return False, f"alerts sender not running: it has never run on this database ({start})"
    age = max(0, int((now - at).total_seconds()))
    if age > SENDER_STALE:
        return False, (f"alerts sender not running: last seen {age // 60} min {age % 60} s ago; texts about "
                       f"orders wait until it runs ({start})")
    return True, f"running (last seen {age} s ago)"


def checks(store, timeout: float = 3.0) -> list[dict]:
    """Live checks, each {name, ok, detail, ms}."""
    out = []

    def timed(name, fn):
        t0 = time.monotonic()
        try:
            ok, detail = fn()
        except Exception as exc:  # noqa: BLE001 - a check reports, it does not raise
            ok, detail = False, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        out.append({"name": name, "ok": ok, "detail": detail, "ms": int((time.monotonic() - t0) * 1000)})

    raw = current_app.config["RASA_URL"]
    parts = raw.split(",") if isinstance(raw, str) else list(raw)  # one URL, or several (comma list or tuple)
    rasa_urls = [str(u).strip() for u in parts if str(u).strip()]
    for i, url in enumerate(rasa_urls):
        timed("Rasa" + (f" {i + 1}" if len(rasa_urls) > 1 else ""), lambda url=url: _http(url.rstrip("/") + "/", timeout))
    timed("Action server", lambda: _http(action_server_url() + "/health", timeout))

    def database():
        store.heartbeat(f"web:{os.getpid()}")
        return True, "takes writes"
    timed("Database", database)

    from . import twilio_auth
    timed("Twilio webhooks", twilio_auth.status)
    timed("Alerts sender", lambda: sender_status(store, current_app.config["TOWN"]))

    def spooled():
        n = spool.pending_count()
        return n == 0, ("empty" if n == 0 else f"{n} SMS waiting for the database (replayed when it is back)")
    timed("SMS spool", spooled)
    return out
