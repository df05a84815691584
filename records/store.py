"""The records store: one ``Store`` over the database (records/engine.py) with the methods of each kind of
record, each in its own module: burn notifications (burns.py), unanswered questions (unanswered.py), the
no-burning order (orders.py), the SMS outbox (outbox.py), SMS (sms.py), conversations and transcripts (conversations.py), clerk accounts
(clerks.py), the clerk's fee schedule (fees.py) and contacts (contacts.py), and retention (retention.py). ``records.clock.utcnow`` is the one "now" they stamp records with.
"""

from __future__ import annotations

from .burns import ALPHABET, BurnNotification, BurnNotifications, burn_idempotency_key
from .clerks import Clerk, ClerkAccounts
from .clock import utcnow
from .contacts import ContactBook, ContactChange
from .conversations import Conversations, TranscriptMessage
from .engine import DEFAULT_URL, REPO, Database, make_engine
from .fees import FeeChange, FeeSchedule
from .orders import BurningOrders, OrderChange
from .outbox import Outbox
from .retention import DEFAULT_RETENTION_DAYS, PurgeResult, Retention
from .sms import InboundSMS, SMSMessages
from .unanswered import UnansweredQuestion, UnansweredQuestions

__all__ = ["ALPHABET", "DEFAULT_RETENTION_DAYS", "DEFAULT_URL", "REPO", "BurnNotification", "Clerk", "ContactChange",
           "FeeChange", "InboundSMS", "OrderChange", "PurgeResult", "Store", "TranscriptMessage", "UnansweredQuestion",
           "burn_idempotency_key", "make_engine", "utcnow"]


class Store(BurnNotifications, UnansweredQuestions, BurningOrders, Outbox, SMSMessages, Conversations, ClerkAccounts,
            FeeSchedule, ContactBook, Retention, Database):
    """All reads and writes of the assistant's records. Thread-safe; share one per process.

        store = Store.from_env()     # DATABASE_URL, default sqlite:///instance/assistant.db under the repo
    """
