"""Tracker and message helpers for the action tests."""
from __future__ import annotations

from typing import Any

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher


def ent(text: str, value: str, entity: str, canonical: str | None = None) -> dict:
    start = text.lower().index(value.lower())
    return {"entity": entity, "value": canonical or value, "start": start, "end": start + len(value)}


def make_tracker(text: str = "", intent: str = "inform", entities: list[dict] | None = None,
                 slots: dict[str, Any] | None = None, sender_id: str = "test-user",
                 metadata: dict | None = None, active_loop: str | None = None,
                 ranking: list[dict] | None = None) -> Tracker:
    latest = {"text": text, "intent": {"name": intent, "confidence": 0.9}, "entities": entities or [],
              "intent_ranking": ranking or [{"name": intent, "confidence": 0.9}], "metadata": metadata or {}}
    events = [{"event": "user", "text": text, "parse_data": latest, "metadata": metadata or {}}]
    return Tracker(sender_id, slots or {}, latest, events, False, None,
                   {"name": active_loop} if active_loop else {}, "action_listen")


def texts(dispatcher: CollectingDispatcher) -> list[str]:
    return [m.get("text") or "" for m in dispatcher.messages]
