"""The failure log: failures the web front met (Rasa down, database locked, spool full), kept where they survive
the database being down -- an in-process ring buffer and a JSON-lines file (``FAILURE_LOG``, default
``instance/failures.jsonl``), read back by the clerk's System status page after a restart.

No personal data: a failure's detail is the exception's type (``describe``), never its message (a database
error's message can carry the bound values: a sender's number, an SMS body). The file is created 0600, rotated
by size (``MAX_BYTES``; ``KEEP`` older files, ``failures.jsonl.1`` newest), and the retention purge drops
entries older than the retention period (``purge``). A leaf module: nothing of the web front imported.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import threading
from datetime import datetime, timezone
from pathlib import Path

from .settings import failure_log_path

log = logging.getLogger(__name__)

MAX_BYTES = 1024 * 1024
KEEP = 3

_lock = threading.Lock()
_recent: collections.deque = collections.deque(maxlen=200)


def describe(exc: BaseException | str | None) -> str:
    """What may be logged of an exception: its type (and the database driver's error type), never its text."""
    if exc is None or isinstance(exc, str):
        return exc or ""
    name = type(exc).__name__
    orig = getattr(exc, "orig", None)  # SQLAlchemy's DBAPIError wraps the driver's exception
    if orig is not None:
        name += f" ({type(orig).__module__}.{type(orig).__name__})"
    return name


def _rotated(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.{n}")


def _rotate(path: Path) -> None:
    try:
        if path.stat().st_size < MAX_BYTES:
            return
    except OSError:
        return
    for n in range(KEEP, 0, -1):
        src = path if n == 1 else _rotated(path, n - 1)
        try:
            os.replace(src, _rotated(path, n))
        except OSError:
            pass


def _append(path: Path, line: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _rotate(path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file made by an older version (0644)
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def record_failure(component: str, what: str, exc: BaseException | str | None = None) -> None:
    """Note a failure (component: rasa, database, spool, ...); ``exc`` is logged as its type only. Never raises."""
    entry = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "component": component,
             "what": what, "detail": describe(exc)[:300], "pid": os.getpid()}
    with _lock:
        _recent.append(entry)
        try:
            _append(failure_log_path(), json.dumps(entry) + "\n")
        except OSError as exc2:  # the log's disk may be the full one: the ring buffer still has it
            log.warning("could not append to the failure log: %s", type(exc2).__name__)


def recent_failures(limit: int = 50) -> list[dict]:
    """The newest failures first: this process's ring buffer, completed from the file (earlier processes)."""
    with _lock:
        items = list(_recent)
    seen = {(e["at"], e["component"], e["what"], e["pid"]) for e in items}
    try:
        with open(failure_log_path(), "rb") as f:
            f.seek(0, os.SEEK_END)
            start = max(0, f.tell() - 64 * 1024)
            f.seek(start)
            lines = f.read().decode("utf-8", "replace").splitlines()[1 if start else 0:]
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


def purge(cutoff: datetime, path: Path | None = None) -> int:
    """Drop entries recorded before ``cutoff`` from the log and its rotated files (the retention purge);
    returns how many were dropped. An older file left empty is removed."""
    path = path or failure_log_path()
    dropped = 0
    with _lock:
        for p in [path] + [_rotated(path, n) for n in range(1, KEEP + 1)]:
            try:
                lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            keep = []
            for line in lines:
                try:
                    at = datetime.fromisoformat(json.loads(line)["at"])
                except (ValueError, KeyError, TypeError):
                    at = None  # unreadable: dropped with the old ones only if the whole file goes
                if at is not None and at < cutoff:
                    dropped += 1
                else:
                    keep.append(line)
            if len(keep) == len(lines):
                continue
            if not keep and p != path:
                p.unlink(missing_ok=True)
                continue
            tmp = p.with_name("." + p.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, "".join(x + "\n" for x in keep).encode("utf-8"))
            finally:
                os.close(fd)
            os.replace(tmp, p)
        for e in [e for e in _recent if str(e.get("at", "")) < cutoff.isoformat(timespec="seconds")]:
            _recent.remove(e)
    return dropped
