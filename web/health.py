"""What the clerk's System status page shows: live checks of Rasa, the action server and the database, and the
recent failures the web front met.

Failures are kept where they survive the database being down: an in-process ring buffer (the page) and a
JSON-lines file (``FAILURE_LOG``, default ``instance/failures.jsonl``; appended, one object a line), which the
page reads back after a restart.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

from flask import current_app

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parent.parent
_lock = threading.Lock()
_recent: collections.deque = collections.deque(maxlen=200)


def failure_log_path() -> Path:
    raw = os.environ.get("FAILURE_LOG", "").strip()
    return Path(raw) if raw else REPO / "instance" / "failures.jsonl"


def record_failure(component: str, what: str, detail: str = "") -> None:
    """Note a failure (component: rasa, database, spool, ...). Never raises."""
    entry = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "component": component,
             "what": what, "detail": (detail or "")[:300], "pid": os.getpid()}
    with _lock:
        _recent.append(entry)
        try:
            path = failure_log_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
        except OSError as exc:  # the log's disk may be the full one: the ring buffer still has it
            log.warning("could not append to the failure log: %s", exc)


def recent_failures(limit: int = 50) -> list[dict]:
    """The newest failures first: this process's ring buffer, completed from the file (earlier processes)."""
    with _lock:
        items = list(_recent)
    seen = {(e["at"], e["component"], e["what"], e["pid"]) for e in items}
    try:
        with open(failure_log_path(), "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            lines = f.read().decode("utf-8", "replace").splitlines()[1:]
        for line in lines:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if isinstance(e, dict) and (e.get("at"), e.get("component"), e.get("what"), e.get("pid")) not in seen:
                items.append(e)
    except OSError:
        pass
    items.sort(key=lambda e: str(e.get("at", "")), reverse=True)
    return items[:limit]


def _http(url: str, timeout: float) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - loopback URLs from config
            return r.status == 200, f"HTTP {r.status}"
    except urllib.error.HTTPError as exc:
        return False, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return False, str(getattr(exc, "reason", exc))


def action_server_url() -> str:
    raw = os.environ.get("ACTION_URL", "").strip()
    if raw:
        return raw.rstrip("/")
    return f"http://127.0.0.1:{os.environ.get('ACTION_PORT', '5055')}"


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

    from . import spool
    def spooled():
        n = spool.pending_count()
        return n == 0, ("empty" if n == 0 else f"{n} SMS waiting for the database (replayed when it is back)")
    timed("SMS spool", spooled)
    return out
