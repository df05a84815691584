"""What every adapter needs: the town, "now", the channel, the records store, and sending an answer."""
from __future__ import annotations

import logging
import re
import time
from datetime import datetime
from typing import Any

from rasa_sdk import Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher

from knowledge import NeedsClarification, render, town as configured_town
from knowledge import when

log = logging.getLogger(__name__)

# Intents whose message carries a value for the form being filled (others are questions or commands).
VALUE_INTENTS = {"inform", "affirm", "deny", "nlu_fallback", "notify_burn", "ask_license_cost", "followup"}
COMMAND_INTENTS = {"cancel", "greet", "thank", "goodbye", "help", "human_handoff", "more", "bot_challenge",
                   "out_of_scope"}
_QUESTION = re.compile(r"\?\s*$|(?:^|[,.;:!]\s*)(wait|hold on|what|whats|what's|how|why|when|where|who|which|can|"
                       r"could|do|does|is|are|am|should|may|will|would)\s+(?!\w+ (?:ago|old)\b)\w", re.I)


def town():
    """The configured town (TOWN, default dunkirk) with the fee schedule and contacts the clerk keeps on the web;
    one trained model serves every town."""
    return as_kept(configured_town())


def as_kept(t):
    """``t`` with the amounts and contacts the clerk set on the "Fees" and "Contacts" pages (records/kept.py:
    read again at most once a second, so a change reaches the next answer without a restart); as loaded when
    the store cannot open."""
    global _STORE_FAILED_AT
    from records.kept import town_as_kept
    if _STORE is None and time.monotonic() - _STORE_FAILED_AT < STORE_RETRY:
        return t
    try:
        s = store()
    except Exception:
        _STORE_FAILED_AT = time.monotonic()
        log.exception("cannot open the records store for the clerk's fees and contacts")
        return t
    return town_as_kept(t, s)


#: seconds before opening a store that would not open is tried again (answers meanwhile: the town as loaded)
STORE_RETRY = 30.0
_STORE_FAILED_AT = float("-inf")


def now(t=None) -> datetime:
    """ASSISTANT_NOW when set (tests, demos), else the real clock; in the town's time zone."""
    return when.clock(t or town())


def intent_of(tracker: Tracker) -> str:
    return (tracker.latest_message.get("intent") or {}).get("name") or ""


def text_of(tracker: Tracker) -> str:
    text = (tracker.latest_message.get("text") or "").strip()
    # Defensive: a "/intent{...}" message is never a value (the web front strips them too).
    return "" if text.startswith("/") else text


def looks_like_question(text: str) -> bool:
    return bool(_QUESTION.search(text or ""))


def entities(tracker: Tracker, name: str) -> list[dict]:
    return [e for e in tracker.latest_message.get("entities", []) if e.get("entity") == name]


def entity(tracker: Tracker, name: str) -> str | None:
    found = entities(tracker, name)
    return str(found[0]["value"]) if found else None


def when_text(tracker: Tracker) -> str | None:
    """All time phrases of the message joined ("tomorrow" + "at 3" -> "tomorrow at 3")."""
    found = entities(tracker, "when")
    return " ".join(str(e["value"]) for e in found) if found else None


#: The word a resident says to leave a form, by channel. On SMS "cancel" (like STOP, END, QUIT, UNSUBSCRIBE,
#: STOPALL) is a carrier opt-out keyword: it would unsubscribe the number. NLU reads "exit" and "start over"
#: as the cancel intent too (data/nlu.yml).
LEAVE_WORD = {"web": "cancel", "sms": "exit"}


def leave_word(tracker: Tracker) -> str:
    return LEAVE_WORD[channel(tracker)]


def channel(tracker: Tracker) -> str:
    """"sms" when the front says so (metadata channel or an "sms:" sender id), else "web"."""
    meta = tracker.latest_message.get("metadata") or {}
    if not meta:
        for e in reversed(tracker.events):
            if e.get("event") == "user":
                meta = e.get("metadata") or {}
                break
    if str(meta.get("channel", "")).lower() == "sms" or str(tracker.sender_id).startswith("sms:"):
        return "sms"
    return "web"


def send(dispatcher: CollectingDispatcher, tracker: Tracker, answer) -> list[dict[str, Any]]:
    """One answer, whole, on every channel: its parts as a custom message ({"answer": knowledge.render.payload,
    "text": the plain text}) for the fronts to render (the web chat's disclosures, the SMS webhook's pages and
    "MORE"), and the same plain text as the message's text for clients that ignore the parts."""
    text = one_message(render.text(answer))
    if channel(tracker) == "sms":
        text = render.gsm7(text)
    parts = render.payload(answer)
    dispatcher.utter_message(text=text, json_message={"answer": parts, "text": text})
    return [SlotSet("last_answer", last_answer(parts, text, (answer.data or {}).get("rule")))]


def last_answer(parts: dict, text: str, rule: str | None = None) -> dict:
    """What "why?", "which section?", "more" and a correction read of the answer just sent (actions/dialogue.py):
    ``rule`` is the topic rule that led it ("bites.report"), when a rule did."""
    lead = parts.get("lead") or ""
    out = {"topic": parts.get("topic"), "lead": lead, "sources": parts.get("sources") or [],
           "details": text[len(lead):].strip() if text.startswith(lead) else text}
    return {**out, "rule": rule} if rule else out


def one_message(text: str) -> str:
    # Rasa's REST channel splits a text on blank lines into separate messages: keep the answer one message.
    return re.sub(r"\n{2,}", "\n", text.strip())


def send_text(dispatcher: CollectingDispatcher, tracker: Tracker, text: str, **kwargs) -> None:
    if channel(tracker) == "sms":
        text = render.gsm7(text)
    dispatcher.utter_message(text=one_message(text), **kwargs)


def clarify(dispatcher: CollectingDispatcher, tracker: Tracker, problem: NeedsClarification | str,
            hint: str = "") -> None:
    """Say what was not understood and how to say it again: a NeedsClarification's message (a text from
    knowledge/, safe to show) or the adapter's own words, then ``hint`` ("(or say 'over a year ago')")."""
    text = problem.message if isinstance(problem, NeedsClarification) else str(problem)
    send_text(dispatcher, tracker, text + hint)


_STORE = None


def store():
    """The shared records store (records.Store.from_env); None when it cannot be opened."""
    global _STORE
    if _STORE is None:
        from records import Store
        _STORE = Store.from_env()
    return _STORE


def burning_orders(t):
    """Every dated no-burning order of the town, for the engine to check the one in force at the moment asked."""
    try:
        return store().no_burning_orders(t.key)
    except Exception:  # the store is down: say nothing rather than claim "no order"
        log.exception("cannot read the no-burning orders")
        raise
