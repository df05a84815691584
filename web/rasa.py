"""Talking to Rasa over its REST channel, with a short timeout; nothing here may hang a request."""

from __future__ import annotations

import json
import logging
import re
import urllib.error
import urllib.request
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

    def as_dict(self) -> dict:
        return {"text": self.text, "buttons": [b.as_dict() for b in self.buttons]}


#: A payload the bot may offer: an intent, optionally with JSON entities (the bot writes them, not the user).
PAYLOAD = re.compile(r"^/[A-Za-z_][A-Za-z0-9_]*(\{.*\})?$", re.S)


def send(base_url: str, sender: str, message: str, metadata: dict, timeout: float) -> list[BotMessage]:
    """POST to /webhooks/rest/webhook and return the bot's messages (text and buttons only)."""
    body = json.dumps({"sender": sender, "message": message, "metadata": metadata}).encode()
    req = urllib.request.Request(base_url.rstrip("/") + "/webhooks/rest/webhook", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - fixed loopback URL
            raw = resp.read(256 * 1024)
        data = json.loads(raw or b"[]")
    except (urllib.error.URLError, OSError, ValueError, TimeoutError) as exc:
        log.warning("Rasa unavailable: %s", exc)
        raise RasaUnavailable(str(exc)) from exc
    if not isinstance(data, list):
        raise RasaUnavailable("unexpected reply from Rasa")
    out: list[BotMessage] = []
    for item in data:
        if not isinstance(item, dict):
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
