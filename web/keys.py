"""The web front's keys: one master secret, and a key derived from it for each use, so that rotating one does
not move the other.

    master            SECRET_KEY, else generated once into instance/secret_key (SECRET_KEY_FILE), mode 0600,
                      atomically (temporary file, fsync, link); an empty or short file refuses to start
    session key       signs the clerk's session cookie and CSRF tokens (label "clerk-session/v<N>",
                      N = SESSION_KEY_VERSION: raise it to end every session without touching SMS ids)
    SMS id key        keys the hash that turns a phone number into an SMS conversation id ("sms-sender-id/v1"):
                      the same across restarts, so a conversation in progress survives one

HKDF-SHA256 (RFC 5869, ``cryptography``) when installed, else HMAC-SHA256 of the label.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger(__name__)


#: The shortest master key accepted from SECRET_KEY_FILE (a generated one has 64 characters): anything shorter was
#: cut short (a crash or a full disk during the first start, ``touch``) and would let anyone forge a session.
MIN_KEY_CHARS = 32


class SecretKeyError(RuntimeError):
    """The key file exists but holds no usable key: the web front refuses to start (never runs on "")."""


def _read_master(path: Path) -> str | None:
    """The key in ``path``; None when there is no file; SecretKeyError when it is empty or short."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    if len(text) < MIN_KEY_CHARS:
        raise SecretKeyError(
            f"The secret key file {path} holds {'no key' if not text else f'a key of only {len(text)} characters'} "
            f"(at least {MIN_KEY_CHARS} are needed): it was probably cut short by a crash or a full disk. Refusing "
            "to start, as an empty or short key would let anyone forge a clerk session. Remove the file to have a "
            "new key generated (every clerk session ends, SMS conversations in progress start over), or set "
            "SECRET_KEY.")
    return text


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def load_or_create_master(path: Path) -> str:
    """The secret kept in ``path``; made on first use, atomically: the key is written to a temporary file of
    this process's own (0600) and fsync'd, then hard-linked to ``path``, which fails if the file exists. So
    ``path`` never exists half-written, and processes starting together (``make run``: web and sender) all end
    up with the one key that won the link. An empty or short file refuses to start (SecretKeyError)."""
    found = _read_master(path)
    if found is not None:
        return found
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(48)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            _write_all(fd, (value + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
            _fsync_dir(path.parent)
            log.info("generated a secret key in %s (kept across restarts)", path)
        except FileExistsError:  # another process linked its key first: use theirs, whole by construction
            pass
    finally:
        tmp.unlink(missing_ok=True)
    found = _read_master(path)
    if found is None:  # removed again in between: never run without a key
        raise SecretKeyError(f"The secret key file {path} disappeared while it was being created.")
    return found


def derive(master: str, label: str) -> str:
    """A 256-bit key for one use (``label``), hex."""
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    except ImportError:
        return hmac.new(master.encode(), label.encode(), hashlib.sha256).hexdigest()
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=label.encode()).derive(master.encode()).hex()


def session_label(version: int) -> str:
    return f"clerk-session/v{version}"


SMS_ID_LABEL = "sms-sender-id/v1"


def sms_sender_id(sms_key: str, phone: str) -> str:
    """The Rasa sender for a phone number: a keyed hash, so the number is not the conversation id."""
    return "sms:" + hmac.new(sms_key.encode(), phone.encode(), hashlib.sha256).hexdigest()[:24]
