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

    def spooled():
        n = spool.pending_count()
        return n == 0, ("empty" if n == 0 else f"{n} SMS waiting for the database (replayed when it is back)")
    timed("SMS spool", spooled)
    return out
