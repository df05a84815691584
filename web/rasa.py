"""Talking to Rasa over its REST channel, with a short timeout; nothing here may hang a request.

One Rasa instance or several (RASA_URL is a comma-separated list; see ``parse_urls`` and ``route``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field

log = logging.getLogger(__name__)


class RasaUnavailable(Exception):
    """Rasa (or the action server behind it) is down, slow, or answered nothing usable."""


@dataclass
class Button:
    title: str
    payload: str

    def as_dict(self) -> dict:
        return {"title": self.title, "payload": self.payload}


@dataclass
class BotMessage:
    text: str = ""
    buttons: list[Button] = field(default_factory=list)
    #: an answer's parts (knowledge.render.payload, checked by web.text.clean_answer); ``text`` is its plain text
    answer: dict | None = None

    def as_dict(self) -> dict:
        return {"text": self.text, "buttons": [b.as_dict() for b in self.buttons]}


#: A payload the bot may offer: an intent, optionally with JSON entities (the bot writes them, not the user).
PAYLOAD = re.compile(r"^/[A-Za-z_][A-Za-z0-9_]*(\{.*\})?$", re.S)


def parse_urls(value: str | Sequence[str]) -> tuple[str, ...]:
    """RASA_URL as a tuple of base URLs: a comma-separated string (or a sequence), blanks and duplicates dropped,
    trailing slashes removed, order kept."""
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        url = str(item).strip().rstrip("/")
        if url and url not in out:
            out.append(url)
    return tuple(out)


def route(sender: str, urls: Sequence[str]) -> list[str]:
    """The Rasa instances to try for a conversation, in order: rendezvous (highest-random-weight) hashing of
    the sender id with each instance URL.

    Why this and not round robin or a shared "least busy" choice:

    - A conversation stays on one instance while that instance is up, so its turns are never processed by two
      instances at once even without a shared lock store (the single-instance SQLite set-up stays correct) and
      each instance's tracker reads hit a warm connection pool for "its" conversations.
    - The web front keeps no state to share: every web thread and every web process computes the same order
      from the sender id alone, with no coordination.
    - When an instance is down, only its own conversations move, each to its own second choice (spread over
      the survivors, not all onto one); when it comes back they return. Adding an instance moves about 1/N
      of the conversations. With several instances, Rasa's Redis lock store (bot/endpoints-scale.yml) makes a
      moved conversation safe anyway: any instance may process any conversation, one turn at a time.
    """
    def weight(url: str) -> bytes:
        return hashlib.blake2b(f"{url}|{sender}".encode(), digest_size=8).digest()
    return sorted(urls, key=weight, reverse=True)


def _not_delivered(exc: BaseException) -> bool:
    """True when the request certainly never reached Rasa (so another instance may be tried without the risk
    of a turn being processed twice): the connection was refused, or could not be made at all. A timeout or a
    reset after connecting is not retried elsewhere -- the instance may have processed the message."""
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, ConnectionRefusedError):
        return True
    if isinstance(reason, socket.gaierror):
        return True
    return isinstance(reason, OSError) and reason.errno in (errno.ECONNREFUSED, errno.EHOSTUNREACH,
                                                            errno.ENETUNREACH, errno.EADDRNOTAVAIL)


def send(base_url: str | Sequence[str], sender: str, message: str, metadata: dict, timeout: float
         ) -> list[BotMessage]:
    """POST to /webhooks/rest/webhook and return the bot's messages (text and buttons only).

    base_url is one Rasa URL or several (comma-separated, or a sequence): the conversation goes to its
    instance (``route``), and to the next one only if an instance refuses the connection."""
    urls = parse_urls(base_url)
    if not urls:
        raise RasaUnavailable("no Rasa URL configured")
    body = json.dumps({"sender": sender, "message": message, "metadata": metadata}).encode()
    order = route(sender, urls) if len(urls) > 1 else list(urls)
    for i, url in enumerate(order):
        try:
            return _post(url, body, timeout)
        except RasaUnavailable as exc:
            cause = exc.__cause__
            if cause is None or not _not_delivered(cause) or i == len(order) - 1:
                raise
            log.warning("Rasa at %s refused the connection; trying %s", url, order[i + 1])
    raise AssertionError("unreachable")


def _post(base_url: str, body: bytes, timeout: float) -> list[BotMessage]:
    req = urllib.request.Request(base_url + "/webhooks/rest/webhook", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - fixed loopback URL
            raw = resp.read(256 * 1024)
        data = json.loads(raw or b"[]")
    except (urllib.error.URLError, OSError, ValueError, TimeoutError) as exc:
        log.warning("Rasa unavailable at %s: %s", base_url, exc)
        raise RasaUnavailable(str(exc)) from exc
    if not isinstance(data, list):
        raise RasaUnavailable("unexpected reply from Rasa")
    from .text import clean_answer
    out: list[BotMessage] = []
    for item in data:
        if not isinstance(item, dict):
            continue
        custom = item.get("custom")
        answer = clean_answer(custom.get("answer")) if isinstance(custom, dict) else None
        if answer is not None:  # an answer in parts; Rasa sent its plain text just before it: one message
            text = custom.get("text") if isinstance(custom.get("text"), str) else ""
            if out and out[-1].text == text and not out[-1].buttons and out[-1].answer is None:
                out.pop()
            out.append(BotMessage(text=text, answer=answer))
            continue
        text = item.get("text") if isinstance(item.get("text"), str) else ""
        buttons = []
        for b in item.get("buttons") or []:
            if isinstance(b, dict) and isinstance(b.get("payload"), str) and isinstance(b.get("title"), str):
                buttons.append(Button(title=b["title"][:120], payload=b["payload"][:500]))
        if text or buttons:
            out.append(BotMessage(text=text, buttons=buttons))
    if not out:
        raise RasaUnavailable("Rasa answered nothing (is the action server down?)")
    return out


def clean_user_text(text: str) -> str:
    """What a resident typed, safe to pass to Rasa: never an intent. Leading slashes are removed, so
    "/restart" reaches Rasa as the words "restart" (NLU decides what they mean)."""
    text = (text or "").replace("\x00", "").strip()
    while text.startswith("/"):
        text = text.lstrip("/").strip()
    return text
