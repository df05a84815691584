"""Conversations and their transcripts, with the buttons last offered and the SMS pages not yet sent."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import schema as s
from .clock import utcnow
from .engine import db_text
from .sms import conversation_held


@dataclass(frozen=True)
class TranscriptMessage:
    id: int
    conversation_id: str
    town: str
    channel: str
    speaker: str
    text: str
    created_at: datetime


class Conversations:
    """The ``Store`` methods for conversations and transcripts."""

    engine: Engine

    def new_conversation(self, town: str, channel: str = "web", now: datetime | None = None) -> str:
        """Issue a conversation id (server-side; clients never choose their own)."""
        cid = secrets.token_urlsafe(18)
        with self.engine.begin() as conn:
            conn.execute(insert(s.conversations).values(id=cid, town=town, channel=channel,
                                                        created_at=now or utcnow(), legal_hold=False))
        return cid

    def ensure_conversation(self, conversation_id: str, town: str, channel: str,
                            now: datetime | None = None) -> None:
        """Create the conversation row if missing (SMS conversations are keyed by a hash of the number)."""
        if self.conversation_exists(conversation_id):
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(s.conversations).values(id=conversation_id, town=town, channel=channel,
                                                            created_at=now or utcnow(), legal_hold=False))
        except IntegrityError:
            pass

    def conversation_exists(self, conversation_id: str) -> bool:
        t = s.conversations
        with self.engine.connect() as conn:
            return conn.execute(select(t.c.id).where(t.c.id == conversation_id)).first() is not None

    def set_offered(self, conversation_id: str, buttons: list[dict]) -> None:
        """Remember the buttons the bot just offered (the allow-list for the next payload)."""
        t = s.conversations
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.id == conversation_id).values(offered=json.dumps(buttons)))

    def offered(self, conversation_id: str) -> list[dict]:
        t = s.conversations
        with self.engine.connect() as conn:
            raw = conn.execute(select(t.c.offered).where(t.c.id == conversation_id)).scalar()
        return json.loads(raw or "[]")

    def set_pending_pages(self, conversation_id: str, pages: list[str]) -> None:
        t = s.conversations
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.id == conversation_id).values(pending_pages=json.dumps(pages)))

    def pop_pending_page(self, conversation_id: str) -> str | None:
        """The next unsent page of the last reply, removed from the queue; None if there is none."""
        t = s.conversations
        with self.engine.begin() as conn:
            raw = conn.execute(select(t.c.pending_pages).where(t.c.id == conversation_id)).scalar()
            pages = json.loads(raw or "[]")
            if not pages:
                return None
            conn.execute(update(t).where(t.c.id == conversation_id).values(pending_pages=json.dumps(pages[1:])))
        return pages[0]

    def log_message(self, conversation_id: str, town: str, channel: str, speaker: str, text: str,
                    now: datetime | None = None) -> None:
        if speaker not in ("user", "bot"):
            raise ValueError("speaker must be 'user' or 'bot'")
        with self.engine.begin() as conn:
            held = conversation_held(conn, conversation_id)  # a message logged after a legal hold is held too
            conn.execute(insert(s.transcript).values(conversation_id=db_text(conversation_id), town=town,
                                                     channel=channel, speaker=speaker, text=db_text(text),
                                                     created_at=now or utcnow(), legal_hold=held))

    def transcript(self, conversation_id: str) -> list[TranscriptMessage]:
        t = s.transcript
        q = select(t).where(t.c.conversation_id == conversation_id).order_by(t.c.id)
        with self.engine.connect() as conn:
            return [TranscriptMessage(**{k: v for k, v in r._mapping.items() if k != "legal_hold"})
                    for r in conn.execute(q)]
