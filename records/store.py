"""The records store: burn notifications, unanswered questions, the no-burning order and its history,
inbound SMS, chat transcripts and clerk accounts.

SQLite (the default) runs in WAL mode with ``synchronous=FULL`` and foreign keys on; every record is written
in its own transaction, so a record the resident was told about survives a crash or power loss.
``DATABASE_URL`` switches to PostgreSQL (``postgresql://user:pass@host/db``).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import and_, create_engine, event, func, insert, select, update, delete
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from knowledge.model import BurningOrder

from . import schema as s

REPO = Path(__file__).resolve().parent.parent
DEFAULT_URL = "sqlite:///" + str(REPO / "instance" / "assistant.db")
DEFAULT_RETENTION_DAYS = 7 * 365 + 2  # Wis. Stat. 19.21(4)(b): seven years unless a schedule says otherwise

#: Reference codes: no 0/O, 1/I/L, so a resident can read one out over the phone.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


def utcnow() -> datetime:
    """The current time; ``ASSISTANT_NOW`` (ISO datetime) pins it for demos and tests."""
    pinned = os.environ.get("ASSISTANT_NOW", "").strip()
    if pinned:
        moment = datetime.fromisoformat(pinned)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment
    return datetime.now(timezone.utc)


# --- records handed back to callers ------------------------------------------------------------------


@dataclass(frozen=True)
class BurnNotification:
    id: int
    reference: str
    town: str
    name: str
    address: str
    phone: str
    burn_date: date
    location: str
    approx_time: str
    channel: str
    conversation_id: str
    created_at: datetime
    legal_hold: bool = False
    idempotency_key: str | None = None


def burn_idempotency_key(conversation_id: str, town: str, name: str, address: str, phone: str, burn_date,
                         approx_time: str, location: str) -> str:
    """The key of one notification: the conversation and the six facts (normalised for spacing and case)."""
    parts = [conversation_id or "", town, name, address, phone, str(burn_date), approx_time or "", location or ""]
    canon = "\x1f".join(" ".join(str(p).split()).lower() for p in parts)
    return hashlib.sha256(canon.encode()).hexdigest()


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


@dataclass(frozen=True)
class OrderChange:
    id: int
    town: str
    active: bool
    reason: str
    set_by: str
    created_at: datetime
    legal_hold: bool = False

    def as_order(self) -> BurningOrder:
        return BurningOrder(active=self.active, reason=self.reason, since=self.created_at, set_by=self.set_by)


@dataclass(frozen=True)
class InboundSMS:
    id: int
    message_sid: str
    from_: str
    to: str
    body: str
    reply: str | None
    created_at: datetime
    replied_at: datetime | None
    legal_hold: bool = False


@dataclass(frozen=True)
class TranscriptMessage:
    id: int
    conversation_id: str
    town: str
    channel: str
    speaker: str
    text: str
    created_at: datetime


@dataclass(frozen=True)
class Clerk:
    id: int
    username: str
    created_at: datetime
    last_login: datetime | None = None


@dataclass
class PurgeResult:
    cutoff: datetime
    deleted: dict[str, int] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.deleted.values())


# --- the store ----------------------------------------------------------------------------------------


def _sqlite_pragmas(dbapi_connection, connection_record):  # noqa: ARG001 - SQLAlchemy event signature
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(url: str) -> Engine:
    if url.startswith("postgres://"):  # Heroku-style URLs
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, future=True, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, future=True, pool_pre_ping=True)



def _t(value):
    """Text as every database takes it: PostgreSQL refuses NUL in text, so it is stored as U+FFFD."""
    return value.replace("\x00", "\ufffd") if isinstance(value, str) else value

class Store:
    """All reads and writes of the assistant's records. Thread-safe; share one per process."""

    def __init__(self, url: str = DEFAULT_URL, create: bool = True):
        self.url = url
        self.engine = make_engine(url)
        if create:
            from .migrate import upgrade
            upgrade(self.engine)  # alembic: new databases get every table, older ones the missing changes

    @classmethod
    def from_env(cls) -> "Store":
        """``DATABASE_URL`` or ``sqlite:///instance/assistant.db`` under the repository root."""
        url = os.environ.get("DATABASE_URL", "").strip() or DEFAULT_URL
        if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
            rel = url[len("sqlite:///"):]
            if rel and rel != ":memory:" and not Path(rel).is_absolute():
                url = "sqlite:///" + str(REPO / rel)
        return cls(url)

    def close(self) -> None:
        self.engine.dispose()

    def heartbeat(self, name: str, now: datetime | None = None) -> datetime:
        """A committed write (one row per process name): proves the database takes writes now (not locked,
        read-only or full). Raises the database's error otherwise."""
        t = s.heartbeats
        when = now or datetime.now(timezone.utc)
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.name == name).values(at=when))
            if done.rowcount == 0:
                conn.execute(insert(t).values(name=name, at=when))
        return when

    def pragma(self, name: str) -> Any:
        """A SQLite PRAGMA's value on a pooled connection (for checks and tests)."""
        with self.engine.connect() as conn:
            return conn.exec_driver_sql(f"PRAGMA {name}").scalar()

    # -- burn notifications ---------------------------------------------------------------------------

    def add_burn_notification(self, *, town: str, name: str, address: str, phone: str, burn_date: date,
                              location: str = "", approx_time: str = "", channel: str = "web",
                              conversation_id: str = "", now: datetime | None = None,
                              idempotency_key: str | None = None) -> BurnNotification:
        """Store a notification under a new reference. With ``idempotency_key`` (see
        ``burn_idempotency_key``), a notification already stored under that key is returned instead of a
        second one: the resident's resend after a crash gets the reference of the first."""
        if isinstance(burn_date, datetime):
            burn_date = burn_date.date()
        if isinstance(burn_date, str):
            burn_date = date.fromisoformat(burn_date)
        name, address, phone, location, approx_time, conversation_id = map(
            _t, (name, address, phone, location, approx_time, conversation_id))
        for label, value in (("town", town), ("name", name), ("address", address), ("phone", phone)):
            if not str(value or "").strip():
                raise ValueError(f"burn notification needs {label}")
        if idempotency_key:
            existing = self._burn_by_key(idempotency_key)
            if existing:
                return existing
        created = now or utcnow()
        row = dict(town=town, name=name.strip(), address=address.strip(), phone=phone.strip(),
                   burn_date=burn_date, location=(location or "").strip(), approx_time=(approx_time or "").strip(),
                   channel=channel, conversation_id=conversation_id or "", created_at=created, legal_hold=False,
                   idempotency_key=idempotency_key or None)
        prefix = _town_prefix(town)
        for _ in range(20):
            ref = prefix + "-" + "".join(secrets.choice(ALPHABET) for _ in range(5))
            try:
                with self.engine.begin() as conn:
                    new_id = conn.execute(insert(s.burn_notifications).values(reference=ref, **row)).inserted_primary_key[0]
            except IntegrityError:
                if idempotency_key:  # the same notification, stored meanwhile by a concurrent submit
                    existing = self._burn_by_key(idempotency_key)
                    if existing:
                        return existing
                continue  # reference collision: draw again
            return BurnNotification(id=new_id, reference=ref, **row)
        raise RuntimeError("could not allocate a unique burn notification reference")

    def _burn_by_key(self, key: str) -> BurnNotification | None:
        t = s.burn_notifications
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.idempotency_key == key)).first()
        return BurnNotification(**dict(r._mapping)) if r else None

    def list_burn_notifications(self, town: str, from_date: date | None = None,
                                to_date: date | None = None) -> list[BurnNotification]:
        t = s.burn_notifications
        q = select(t).where(t.c.town == town)
        if from_date:
            q = q.where(t.c.burn_date >= from_date)
        if to_date:
            q = q.where(t.c.burn_date <= to_date)
        q = q.order_by(t.c.burn_date, t.c.created_at, t.c.id)
        with self.engine.connect() as conn:
            return [BurnNotification(**dict(r._mapping)) for r in conn.execute(q)]

    def get_burn_notification(self, reference: str) -> BurnNotification | None:
        t = s.burn_notifications
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.reference == reference.strip().upper())).first()
        return BurnNotification(**dict(r._mapping)) if r else None

    # -- unanswered questions -------------------------------------------------------------------------

    def record_unanswered(self, *, town: str, text: str, channel: str = "web", conversation_id: str = "",
                          suggestions: Iterable[str] = (), now: datetime | None = None) -> UnansweredQuestion:
        suggestions = tuple(_t(str(x)) for x in (suggestions or ()))
        text, conversation_id = _t(text), _t(conversation_id)
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

    # -- the no-burning order -------------------------------------------------------------------------

    def set_burning_order(self, town: str, active: bool, reason: str = "", set_by: str = "",
                          now: datetime | None = None) -> BurningOrder:
        if not set_by.strip():
            raise ValueError("a burning-order change must say who made it")
        row = dict(town=town, active=bool(active), reason=(reason or "").strip(), set_by=set_by.strip(),
                   created_at=now or utcnow(), legal_hold=False)
        with self.engine.begin() as conn:
            conn.execute(insert(s.burning_orders).values(**row))
        return BurningOrder(active=row["active"], reason=row["reason"], since=row["created_at"],
                            set_by=row["set_by"])

    def burning_order(self, town: str) -> BurningOrder | None:
        """The order in force: the newest change for ``town``; None if no order was ever set."""
        t = s.burning_orders
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.town == town).order_by(t.c.id.desc()).limit(1)).first()
        return OrderChange(**dict(r._mapping)).as_order() if r else None

    def order_history(self, town: str) -> list[OrderChange]:
        """Every change, newest first, with who and when."""
        t = s.burning_orders
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.town == town).order_by(t.c.id.desc()))
            return [OrderChange(**dict(r._mapping)) for r in rows]

    # -- SMS ------------------------------------------------------------------------------------------

    def save_inbound_sms(self, message_sid: str, from_: str, to: str, body: str,
                         now: datetime | None = None) -> tuple[InboundSMS, bool]:
        """Store an inbound message keyed by MessageSid; a retry returns the stored one and ``False``."""
        if not message_sid:
            raise ValueError("MessageSid is required")
        message_sid, from_, to, body = map(_t, (message_sid, from_, to, body))
        row = dict(message_sid=message_sid, from_number=from_ or "", to_number=to or "", body=body or "",
                   reply=None, created_at=now or utcnow(), replied_at=None, legal_hold=False)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(s.inbound_sms).values(**row))
            created = True
        except IntegrityError:
            created = False
        return self.get_inbound_sms(message_sid), created

    def get_inbound_sms(self, message_sid: str) -> InboundSMS | None:
        t = s.inbound_sms
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.message_sid == _t(message_sid))).first()
        return _sms(r) if r else None

    def set_sms_reply(self, message_sid: str, reply: str, now: datetime | None = None) -> None:
        """Keep the reply we gave, so a retried webhook gets the same answer."""
        t = s.inbound_sms
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.message_sid == _t(message_sid))
                         .values(reply=_t(reply), replied_at=now or utcnow()))

    def list_inbound_sms(self, limit: int = 200, unanswered_only: bool = False) -> list[InboundSMS]:
        t = s.inbound_sms
        q = select(t).order_by(t.c.id.desc()).limit(limit)
        if unanswered_only:
            q = q.where(t.c.reply.is_(None))
        with self.engine.connect() as conn:
            return [_sms(r) for r in conn.execute(q)]

    def set_sms_opt_out(self, phone: str, opted_out: bool, now: datetime | None = None) -> None:
        t = s.sms_opt_outs
        phone = _t(phone)
        when = now or utcnow()
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.phone == phone).values(opted_out=opted_out, updated_at=when))
            if done.rowcount == 0:
                conn.execute(insert(t).values(phone=phone, opted_out=opted_out, updated_at=when))

    def sms_opted_out(self, phone: str) -> bool:
        t = s.sms_opt_outs
        with self.engine.connect() as conn:
            return bool(conn.execute(select(t.c.opted_out).where(t.c.phone == phone)).scalar())

    # -- conversations and transcripts ----------------------------------------------------------------

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

    def conversation_exists(self, conversation_id: str) -> bool:
        t = s.conversations
        with self.engine.connect() as conn:
            return conn.execute(select(t.c.id).where(t.c.id == conversation_id)).first() is not None

    def log_message(self, conversation_id: str, town: str, channel: str, speaker: str, text: str,
                    now: datetime | None = None) -> None:
        if speaker not in ("user", "bot"):
            raise ValueError("speaker must be 'user' or 'bot'")
        with self.engine.begin() as conn:
            conn.execute(insert(s.transcript).values(conversation_id=_t(conversation_id), town=town, channel=channel,
                                                     speaker=speaker, text=_t(text), created_at=now or utcnow(),
                                                     legal_hold=False))

    def transcript(self, conversation_id: str) -> list[TranscriptMessage]:
        t = s.transcript
        q = select(t).where(t.c.conversation_id == conversation_id).order_by(t.c.id)
        with self.engine.connect() as conn:
            return [TranscriptMessage(**{k: v for k, v in r._mapping.items() if k != "legal_hold"})
                    for r in conn.execute(q)]

    # -- clerk accounts -------------------------------------------------------------------------------

    def create_clerk(self, username: str, password: str, now: datetime | None = None) -> Clerk:
        username = username.strip()
        if not username:
            raise ValueError("username is required")
        if len(password) < 12:
            raise ValueError("password must be at least 12 characters")
        row = dict(username=username, password_hash=_hasher.hash(password), created_at=now or utcnow())
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(insert(s.clerks).values(**row)).inserted_primary_key[0]
        except IntegrityError:
            raise ValueError(f"clerk {username!r} already exists") from None
        return Clerk(id=new_id, username=username, created_at=row["created_at"])

    def set_clerk_password(self, username: str, password: str) -> None:
        if len(password) < 12:
            raise ValueError("password must be at least 12 characters")
        t = s.clerks
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.username == username).values(password_hash=_hasher.hash(password)))
        if done.rowcount == 0:
            raise ValueError(f"no clerk {username!r}")

    def verify_clerk(self, username: str, password: str, now: datetime | None = None) -> Clerk | None:
        """The clerk if the password matches; the hash is checked even for unknown names (same timing)."""
        t = s.clerks
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.username == (username or "").strip())).first()
        stored = r.password_hash if r else _DUMMY_HASH
        try:
            _hasher.verify(stored, password or "")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if r is None:
            return None
        with self.engine.begin() as conn:
            values: dict[str, Any] = {"last_login": now or utcnow()}
            if _hasher.check_needs_rehash(stored):
                values["password_hash"] = _hasher.hash(password)
            conn.execute(update(t).where(t.c.id == r.id).values(**values))
        return Clerk(id=r.id, username=r.username, created_at=r.created_at, last_login=values["last_login"])

    def get_clerk(self, clerk_id: int) -> Clerk | None:
        t = s.clerks
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.id == clerk_id)).first()
        return Clerk(id=r.id, username=r.username, created_at=r.created_at, last_login=r.last_login) if r else None

    def clerk_count(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(s.clerks)).scalar()

    # -- retention ------------------------------------------------------------------------------------

    def set_legal_hold(self, table: str, record_id: int | str, hold: bool = True) -> bool:
        """Put a record (or take it) under legal hold: the purge never deletes it. ``table`` is one of
        ``schema.RETAINED``; ``record_id`` is the id (the reference for burn notifications, the MessageSid for
        SMS, the conversation id for a conversation — which holds its whole transcript)."""
        t = s.RETAINED[table]
        with self.engine.begin() as conn:
            if table == "burn_notifications" and isinstance(record_id, str):
                cond = t.c.reference == record_id
            elif table == "inbound_sms" and isinstance(record_id, str):
                cond = t.c.message_sid == record_id
            else:
                cond = t.c.id == record_id
            n = conn.execute(update(t).where(cond).values(legal_hold=hold)).rowcount
            if table == "conversations":
                conn.execute(update(s.transcript).where(s.transcript.c.conversation_id == record_id)
                             .values(legal_hold=hold))
        return n > 0

    def purge(self, older_than_days: int = DEFAULT_RETENTION_DAYS, now: datetime | None = None) -> PurgeResult:
        """Delete records created more than ``older_than_days`` days before ``now`` that are not under legal
        hold. The newest burning-order row of each town (the order in force) is always kept."""
        if older_than_days < 0:
            raise ValueError("older_than_days must be >= 0")
        cutoff = (now or utcnow()) - timedelta(days=older_than_days)
        result = PurgeResult(cutoff=cutoff)
        with self.engine.begin() as conn:
            bo = s.burning_orders
            current_ids = [r[0] for r in conn.execute(select(func.max(bo.c.id)).group_by(bo.c.town))]
            for name, t in s.RETAINED.items():
                old = t.c.created_at < cutoff
                cond = and_(old, t.c.legal_hold.is_(False))
                if t is bo and current_ids:
                    cond = and_(cond, bo.c.id.notin_(current_ids))
                result.held[name] = conn.execute(
                    select(func.count()).select_from(t).where(and_(old, t.c.legal_hold.is_(True)))).scalar()
                result.deleted[name] = conn.execute(delete(t).where(cond)).rowcount
            self._purge_rasa_events(conn, cutoff, result)
        return result

    def _purge_rasa_events(self, conn, cutoff: datetime, result: PurgeResult) -> None:
        """Rasa's tracker store keeps each conversation's events in its own ``events`` table when it shares
        this database (the default). Old events go with the transcripts, except conversations on legal hold."""
        if not self.engine.dialect.has_table(conn, "events"):
            return
        from sqlalchemy import MetaData, Table as SqlTable
        events = SqlTable("events", MetaData(), autoload_with=conn)
        held = select(s.conversations.c.id).where(s.conversations.c.legal_hold.is_(True))
        old = events.c.timestamp < cutoff.timestamp()
        result.held["rasa_events"] = conn.execute(
            select(func.count()).select_from(events).where(and_(old, events.c.sender_id.in_(held)))).scalar()
        result.deleted["rasa_events"] = conn.execute(
            delete(events).where(and_(old, events.c.sender_id.notin_(held)))).rowcount


def _sms(r) -> InboundSMS:
    return InboundSMS(id=r.id, message_sid=r.message_sid, from_=r.from_number, to=r.to_number, body=r.body,
                      reply=r.reply, created_at=r.created_at, replied_at=r.replied_at, legal_hold=r.legal_hold)


def _town_prefix(town: str) -> str:
    known = {"dunkirk": "DK", "mequon": "MQ"}
    if town in known:
        return known[town]
    letters = [c for c in town.upper() if c.isalpha()]
    return ("".join(letters[:1] + letters[-1:]) or "XX")
