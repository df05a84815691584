"""Tables of the records store (SQLAlchemy 1.4 core). A change here needs a migration in records/migrations/
(``python -m records revision "what changed"`` writes one; the store applies it when it opens the database).

Every table a resident's words or a clerk's decision land in has ``created_at`` (UTC) and ``legal_hold``:
the retention purge (``Store.purge``) deletes rows older than the retention period unless they are held.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (Boolean, Column, Date, DateTime, Index, Integer, MetaData, String, Table,
                        Text, UniqueConstraint)
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    """Aware datetimes in, aware UTC datetimes out; stored as naive UTC so SQLite and PostgreSQL agree."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the records store; pass an aware datetime")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if isinstance(value, str):  # defensive: SQLite text
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=timezone.utc)


metadata = MetaData()

burn_notifications = Table(
    "burn_notifications", metadata,
    Column("id", Integer, primary_key=True),
    Column("reference", String(16), nullable=False, unique=True),
    Column("town", String(40), nullable=False),
    Column("name", String(200), nullable=False),
    Column("address", String(300), nullable=False),
    Column("phone", String(40), nullable=False),
    Column("burn_date", Date, nullable=False),
    Column("location", String(300), nullable=False, default=""),
    Column("approx_time", String(100), nullable=False, default=""),
    Column("channel", String(20), nullable=False),
    Column("conversation_id", String(80), nullable=False, default=""),
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
    # sha256 of the conversation id and the six facts: the same notification submitted again (a resident's
    # resend after a crash, Rasa re-running the submit action) finds the stored one instead of a duplicate
    Column("idempotency_key", String(64), nullable=True),
    # the phone in E.164 when it is a US number that can receive texts (records/phones.py); None otherwise: such
    # a notice is never texted (its alerts are kept as "no_number" for the clerk to call)
    Column("phone_e164", String(16), nullable=True),
)
Index("ix_burn_town_date", burn_notifications.c.town, burn_notifications.c.burn_date)
Index("uq_burn_idempotency", burn_notifications.c.idempotency_key, unique=True)

unanswered = Table(
    "unanswered_questions", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("text", Text, nullable=False),
    Column("channel", String(20), nullable=False),
    Column("conversation_id", String(80), nullable=False, default=""),
    Column("suggestions", Text, nullable=False, default="[]"),  # JSON list of strings
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_unanswered_town", unanswered.c.town, unanswered.c.created_at)

burning_orders = Table(
    "burning_order_history", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("reason", Text, nullable=False, default=""),
    Column("set_by", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_order_town", burning_orders.c.town, burning_orders.c.id)

#: Dated no-burning orders (7.09(4)); records/orders.py keeps them from overlapping. Not purged: Board actions.
no_burning_orders = Table(
    "no_burning_orders", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("start_at", UTCDateTime, nullable=False),
    Column("end_at", UTCDateTime, nullable=True),  # None: until lifted
    Column("reason", Text, nullable=False, default=""),
    Column("board_action", Text, nullable=False, default=""),
    Column("recorded_by", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("ended_by", String(80), nullable=False, default=""),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_nbo_town_start", no_burning_orders.c.town, no_burning_orders.c.start_at)

#: Every change to an order, never edited: recorded, extended, lifted, superseded, migrated.
no_burning_order_events = Table(
    "no_burning_order_events", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("order_id", Integer, nullable=False),
    Column("kind", String(20), nullable=False),
    Column("start_at", UTCDateTime, nullable=False),
    Column("end_at", UTCDateTime, nullable=True),
    Column("board_action", Text, nullable=False, default=""),
    Column("reason", Text, nullable=False, default=""),
    Column("recorded_by", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_nboe_town", no_burning_order_events.c.town, no_burning_order_events.c.id)

#: The SMS outbox (#14): one row per text the town owes someone about an order, written in the same transaction
#: as the order (records/outbox.py); the sender (records/alert_sender.py) works them off. ``key`` is the
#: idempotency key (order + notification + kind), unique: an alert is never queued twice.
sms_alerts = Table(
    "sms_alerts", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(120), nullable=False),
    Column("town", String(40), nullable=False),
    Column("order_id", Integer, nullable=False),
    Column("notification_id", Integer, nullable=True),  # None: the Fire Department's copy of the order
    Column("kind", String(20), nullable=False),  # "order" | "lifted" | "fire"
    Column("to_number", String(40), nullable=False),  # E.164 when it parsed; as given otherwise
    Column("body", Text, nullable=False),
    # queued -> sending -> sent (then delivery); opted_out / no_number are never sent; failed: gave up
    Column("state", String(20), nullable=False),
    Column("uncertain", Boolean, nullable=False, default=False),  # an attempt may have reached Twilio
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_attempt_at", UTCDateTime, nullable=False),
    Column("claimed_until", UTCDateTime, nullable=True),
    Column("message_sid", String(64), nullable=True),
    Column("delivery", String(20), nullable=False, default=""),  # "" | delivered | failed | undelivered
    Column("error", String(300), nullable=False, default=""),
    Column("created_at", UTCDateTime, nullable=False),
    Column("sent_at", UTCDateTime, nullable=True),
    Column("legal_hold", Boolean, nullable=False, default=False),
    # a new random token with each claim: the sender's later updates are fenced by it (a sender that lost its
    # claim changes nothing), and it is checked again just before the text is sent
    Column("claim_token", String(32), nullable=True),
    # when it was queued by the database's clock (created_at is the records' clock, which ASSISTANT_NOW pins):
    # the look-up in Twilio's message log starts a day before it
    Column("queued_at", UTCDateTime, nullable=True),
)
Index("uq_sms_alert_key", sms_alerts.c.key, unique=True)
Index("ix_sms_alert_due", sms_alerts.c.state, sms_alerts.c.next_attempt_at)
Index("ix_sms_alert_order", sms_alerts.c.order_id)

inbound_sms = Table(
    "inbound_sms", metadata,
    Column("id", Integer, primary_key=True),
    Column("message_sid", String(64), nullable=False, unique=True),
    Column("from_number", String(40), nullable=False),
    Column("to_number", String(40), nullable=False),
    Column("body", Text, nullable=False),
    Column("reply", Text, nullable=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("replied_at", UTCDateTime, nullable=True),
    Column("legal_hold", Boolean, nullable=False, default=False),
    # the town whose webhook took it: towns may share a database, and a clerk sees only the own town's texts
    # ("" for a message stored before towns were recorded where the database held several: shown to none)
    Column("town", String(40), nullable=False, default="", server_default=""),
    # the SMS conversation it belongs to (the sender's keyed hash, web/keys.py): a legal hold on the conversation
    # holds its raw messages too ("" for messages stored before it was recorded)
    Column("conversation_id", String(80), nullable=False, default="", server_default=""),
)
Index("ix_inbound_sms_town", inbound_sms.c.town, inbound_sms.c.id)
Index("ix_inbound_sms_conv", inbound_sms.c.conversation_id)

sms_opt_outs = Table(
    "sms_opt_outs", metadata,
    Column("phone", String(40), primary_key=True),
    Column("opted_out", Boolean, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

conversations = Table(
    "conversations", metadata,
    Column("id", String(80), primary_key=True),
    Column("town", String(40), nullable=False),
    Column("channel", String(20), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
    # the buttons the bot last offered (JSON [{"title", "payload"}]): the only "/" payloads the front sends
    Column("offered", Text, nullable=False, default="[]"),
    # SMS: the pages of the last reply not yet sent (JSON list), given one by one on "MORE"
    Column("pending_pages", Text, nullable=False, default="[]"),
)

transcript = Table(
    "transcript_messages", metadata,
    Column("id", Integer, primary_key=True),
    Column("conversation_id", String(80), nullable=False),
    Column("town", String(40), nullable=False),
    Column("channel", String(20), nullable=False),
    Column("speaker", String(10), nullable=False),  # "user" | "bot"
    Column("text", Text, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_transcript_conv", transcript.c.conversation_id, transcript.c.id)

clerks = Table(
    "clerk_accounts", metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String(80), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_login", UTCDateTime, nullable=True),
    Column("role", String(20), nullable=False, default="clerk", server_default="clerk"),  # "clerk" | "fire"
    # raised on logout and on a password change: a session signed with an older generation is refused
    Column("session_generation", Integer, nullable=False, default=0, server_default="0"),
    # the town the account works for: it signs in only on that town's site (towns may share a database)
    Column("town", String(40), nullable=False, default="", server_default=""),
    UniqueConstraint("username", name="uq_clerk_username"),
)

#: Amounts the code delegates, as the clerk set them on the "Fee schedule" page (knowledge/fee_schedule.py): one
#: row per amount set, never edited; undoing one stamps ``withdrawn_*``. Not purged: the town's fee history.
fee_entries = Table(
    "fee_entries", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("parameter", String(120), nullable=False),
    Column("amount_cents", Integer, nullable=False),
    Column("since", Date, nullable=False),
    Column("source", Text, nullable=False),  # the resolution or notice that set it
    Column("reason", Text, nullable=False, default=""),  # why the clerk entered it (a typo fixed, a new year)
    Column("entered_by", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("withdrawn_at", UTCDateTime, nullable=True),
    Column("withdrawn_by", String(120), nullable=False, default=""),
    Column("withdrawn_reason", Text, nullable=False, default=""),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_fee_entries_town", fee_entries.c.town, fee_entries.c.id)

#: How residents reach the town's offices, as the clerk set them on the "Contacts" page (knowledge/contacts.py):
#: one row per change, never edited; the latest row of an office in force counts; undoing stamps ``withdrawn_*``.
contact_entries = Table(
    "contact_entries", metadata,
    Column("id", Integer, primary_key=True),
    Column("town", String(40), nullable=False),
    Column("office", String(40), nullable=False),  # "clerk" | "fire_department"
    Column("phone", String(40), nullable=False, default=""),
    Column("email", String(200), nullable=False, default=""),
    Column("hours", String(200), nullable=False, default=""),
    Column("reason", Text, nullable=False, default=""),
    Column("entered_by", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("withdrawn_at", UTCDateTime, nullable=True),
    Column("withdrawn_by", String(120), nullable=False, default=""),
    Column("withdrawn_reason", Text, nullable=False, default=""),
    Column("legal_hold", Boolean, nullable=False, default=False),
)
Index("ix_contact_entries_town", contact_entries.c.town, contact_entries.c.id)

#: One row per process that checked the database can take a write (the clerk's System status page).
heartbeats = Table(
    "heartbeats", metadata,
    Column("name", String(80), primary_key=True),
    Column("at", UTCDateTime, nullable=False),
)

#: The lock that keeps one alert sender per town on SQLite (records/sender_lock.py; PostgreSQL uses an advisory
#: lock): held by ``holder`` until ``expires_at`` (the database's clock), renewed by the sender as it works.
sender_locks = Table(
    "sender_locks", metadata,
    Column("name", String(80), primary_key=True),
    Column("holder", String(120), nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
)

#: Tables the retention purge may delete from (the newest burning-order row per town is always kept).
RETAINED = {
    "burn_notifications": burn_notifications,
    "unanswered_questions": unanswered,
    "burning_order_history": burning_orders,
    "inbound_sms": inbound_sms,
    "transcript_messages": transcript,
    "conversations": conversations,
    "sms_alerts": sms_alerts,  # phone numbers and texts about orders (#14)
}
