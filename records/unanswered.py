"""Unanswered questions: what residents asked that the code does not answer, for the Clerk to review."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from . import schema as s
from .clock import utcnow
from .engine import db_text


@dataclass(frozen=True)
class UnansweredQuestion:
    id: int
    town: str
    text: str
    channel: str
    conversation_id: str
    suggestions: tuple[str, ...]
    created_at: datetime
    legal_hold: bool = False


class UnansweredQuestions:
    """The ``Store`` methods for unanswered questions."""

    engine: Engine

    def record_unanswered(self, *, town: str, text: str, channel: str = "web", conversation_id: str = "",
                          suggestions: Iterable[str] = (), now: datetime | None = None) -> UnansweredQuestion:
        suggestions = tuple(db_text(str(x)) for x in (suggestions or ()))
        text, conversation_id = db_text(text), db_text(conversation_id)
        row = dict(town=town, text=text, channel=channel, conversation_id=conversation_id or "",
                   created_at=now or utcnow(), legal_hold=False)
        with self.engine.begin() as conn:
            new_id = conn.execute(insert(s.unanswered).values(suggestions=json.dumps(list(suggestions)),
                                                              **row)).inserted_primary_key[0]
        return UnansweredQuestion(id=new_id, suggestions=suggestions, **row)

    def list_unanswered(self, town: str, limit: int | None = None) -> list[UnansweredQuestion]:
        t = s.unanswered
        q = select(t).where(t.c.town == town).order_by(t.c.created_at.desc(), t.c.id.desc())
        if limit:
            q = q.limit(limit)
        out = []
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                d = dict(r._mapping)
                d["suggestions"] = tuple(json.loads(d["suggestions"] or "[]"))
                out.append(UnansweredQuestion(**d))
        return out
