"""The assistant's records (public records under Wis. Stat. 19.32): burn notifications, the no-burning order
and its history, unanswered questions, inbound SMS, chat transcripts, clerk accounts.

    from records import Store
    store = Store.from_env()     # DATABASE_URL, default sqlite:///instance/assistant.db under the repo
"""

from .store import (DEFAULT_RETENTION_DAYS, BurnNotification, Clerk, InboundSMS, OrderChange, PurgeResult,
                    Store, TranscriptMessage, UnansweredQuestion, burn_idempotency_key, utcnow)

__all__ = ["DEFAULT_RETENTION_DAYS", "BurnNotification", "Clerk", "InboundSMS", "OrderChange", "PurgeResult",
           "Store", "TranscriptMessage", "UnansweredQuestion", "burn_idempotency_key", "utcnow"]
