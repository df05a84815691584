"""A durable spool for inbound SMS the database could not take.

When ``save_inbound_sms`` fails (database locked, read-only, full or down), the webhook writes the message to
``SPOOL_DIR`` (default ``instance/spool``) as one JSON line in a file of its own -- written to a temporary
name, fsync'd, renamed, and the directory fsync'd -- and only then answers Twilio with 200 and the fallback
text. If even that write fails, the webhook answers 503 so Twilio does not count the message as delivered
and retries it.

A background thread of the web process replays spooled messages into the database (by MessageSid, so a
message spooled twice, or stored meanwhile by a retry, is stored once) and deletes each file once stored.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

from records import settings
from records.failure_log import describe, record_failure

log = logging.getLogger(__name__)

_replayer_lock = threading.Lock()
_replayers: dict[int, threading.Thread] = {}
_wake = threading.Event()


def spool_dir() -> Path:
    return settings.spool_dir()


def _files() -> list[Path]:
    try:
        return sorted(p for p in spool_dir().iterdir() if p.suffix == ".jsonl")
    except OSError:  # no spool yet (or one that cannot be read: the status page says so via pending_count)
        return []


def pending_count() -> int:
    return len(_files())


def write(message_sid: str, from_: str, to: str, body: str, reply: str | None, town: str | None = None,
          conversation_id: str = "") -> Path:
    """Durably spool one inbound message (of ``town`` and its SMS conversation); raises OSError if it cannot be
    made durable."""
    d = spool_dir()
    d.mkdir(parents=True, exist_ok=True)
    received = datetime.now(timezone.utc)
    entry = {"message_sid": message_sid, "from": from_, "to": to, "body": body, "reply": reply,
             "received_at": received.isoformat(), "town": town, "conversation_id": conversation_id}
    name = f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.jsonl"
    tmp = d / ("." + name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    final = d / name
    os.rename(tmp, final)
    dfd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    _wake.set()
    return final


def replay(store) -> int:
    """Store every spooled message not yet in the database; returns how many files were cleared. Stops at the
    first database error (the rest wait for the next round)."""
    done = 0
    for path in _files():
        try:
            entry = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        except (OSError, ValueError, IndexError):
            log.error("spool: unreadable file %s left in place", path)
            continue
        received = datetime.fromisoformat(entry["received_at"])
        rec, _created = store.save_inbound_sms(entry["message_sid"], entry["from"], entry["to"], entry["body"],
                                               now=received, town=entry.get("town"),
                                               conversation_id=entry.get("conversation_id") or "")
        if rec.reply is None and entry.get("reply") is not None:
            store.set_sms_reply(entry["message_sid"], entry["reply"])
        path.unlink()
        done += 1
    return done


def start_replayer(store, interval: float = 2.0) -> None:
    """A daemon thread per store (one per web process in production) that replays the spool: at once, then
    whenever something is spooled, every ``interval`` seconds while files wait."""
    with _replayer_lock:
        t = _replayers.get(id(store))
        if t is not None and t.is_alive():
            _wake.set()
            return

        def loop():
            failing = False
            while True:
                if _files():
                    try:
                        n = replay(store)
                        if n:
                            log.info("spool: %d SMS replayed into the database", n)
                        failing = False
                    except Exception as exc:  # noqa: BLE001 - the database is still not back: try later
                        log.warning("spool: replay failed, will retry: %s", describe(exc))
                        if not failing:
                            record_failure("spool", "replaying spooled SMS into the database failed; retrying",
                                           exc)
                        failing = True
                    _wake.wait(interval)
                else:
                    _wake.wait(30)
                _wake.clear()

        t = _replayers[id(store)] = threading.Thread(target=loop, name="sms-spool-replay", daemon=True)
        t.start()
