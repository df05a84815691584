"""The web front's keys: one master secret, and a key derived from it for each use, so that rotating one does
not move the other.

    master            SECRET_KEY, else generated once into instance/secret_key (SECRET_KEY_FILE), mode 0600
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


def load_or_create_master(path: Path) -> str:
    """The secret kept in ``path``; made (0600, never overwritten) on first use."""
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text:
            return text
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(48)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text(encoding="utf-8").strip()
    try:
        os.write(fd, (value + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    log.info("generated a secret key in %s (kept across restarts)", path)
    return value


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
