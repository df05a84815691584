"""The alert sender (#14): works the SMS outbox (records/outbox.py) off through Twilio's REST API with the
official ``twilio`` client; its own process (Procfile ``sender``; ``python -m records send-alerts``, or
``flask --app web send-alerts``; ``--once`` works through what is due and stops).

Exactly once (docs/reliability.md "SMS alerts"): an alert is claimed (state "sending" with a lease) before
it is sent, and its Twilio SID recorded after. A claim that finds the alert "sending" (its sender died or
stalled past the lease) or marked ``uncertain`` (an earlier attempt ended without a clear answer: a
timeout, a dropped connection, a 5xx) first looks the alert up in Twilio's message log (To, From, sent since
the alert was queued, the exact body) and records the SID it finds instead of sending again. Failures are
retried with exponential backoff and jitter; a clear refusal (4xx but 429) or too many attempts ends as
"failed", which the clerk sees with the phone number to call.

One sender per town (``TOWN``) runs at a time: it holds the sender lock (records/sender_lock.py: a PostgreSQL
advisory lock, a lock row with a heartbeat on SQLite) and a second one waits. Leases and retry times are on the
database's clock (records/engine.py ``db_now``), never a host's own or a pinned ASSISTANT_NOW. Every claim has a
token: the sender's updates of the alert are fenced by it, and just before sending it checks that the claim is
still its own and unexpired (renewing the lease), and that it still holds the lock; a long look-up in Twilio's
log renews the claim as it pages.

Settings (docs/configuration.md): TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM; TWILIO_API_BASE (tests
only: the fake Twilio's URL); PUBLIC_URL (status callbacks go to PUBLIC_URL/sms/status); ALERT_LEASE_SECONDS;
ALERT_SENDER_LOCK_SECONDS. Without the three Twilio settings nothing is sent: alerts stay queued and the clerk's
pages say so.
"""

from __future__ import annotations

import logging
import random
import signal
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from . import settings
from .outbox import Alert
from .sender_lock import DEFAULT_TTL as DEFAULT_LOCK_TTL

log = logging.getLogger(__name__)
# twilio's HTTP client logs each request's query at INFO: the message-log lookups carry residents' numbers
logging.getLogger("twilio.http_client").setLevel(logging.WARNING)


@lru_cache(maxsize=None)
def _town_tz(town: str) -> ZoneInfo:
    from knowledge import town as load_town  # the town's data, once per town and process
    return ZoneInfo(load_town(town).timezone)

TWILIO_HOST = "https://api.twilio.com"
HTTP_TIMEOUT = 15.0  # seconds; always well under the lease, so a live sender never outlasts its claim
DEFAULT_LEASE = 120.0  # also gives Twilio's message log time to list a message before a crashed claim is retried
MAX_ATTEMPTS = 10
BACKOFF_BASE, BACKOFF_CAP = 5.0, 1800.0  # seconds: 5, 10, 20 ... at most 30 minutes, with jitter
UNCERTAIN_WAIT = 60.0  # an unclear attempt is looked up no sooner: Twilio's message list can lag a little
KEEPALIVE_EVERY = 5.0  # seconds between renewals of the claim while paging through Twilio's log
HEARTBEAT_EVERY = 5.0  # seconds between the sender's heartbeats (System status: "not running" after 90 s)


@dataclass(frozen=True)
class TwilioSettings:
    account_sid: str
    auth_token: str
    from_number: str
    api_base: str = ""  # "" = Twilio itself
    public_url: str = ""
    http_timeout: float = HTTP_TIMEOUT

    @classmethod
    def from_env(cls) -> "TwilioSettings":
        return cls(settings.env("TWILIO_ACCOUNT_SID"), settings.env("TWILIO_AUTH_TOKEN"), settings.env("TWILIO_FROM"),
                   settings.env("TWILIO_API_BASE").rstrip("/"), settings.env("PUBLIC_URL"),
                   float(settings.env("TWILIO_HTTP_TIMEOUT", str(HTTP_TIMEOUT))))

    def missing(self) -> list[str]:
        """The settings sending needs that are not set (none: alerts can be sent)."""
        return [name for name, v in (("TWILIO_ACCOUNT_SID", self.account_sid), ("TWILIO_AUTH_TOKEN", self.auth_token),
                                     ("TWILIO_FROM", self.from_number)) if not v]


def status_callback_url(public_url: str, alert_id: int) -> str:
    """PUBLIC_URL (the base, or the full SMS webhook URL .../sms) + /sms/status?alert=ID; "" without it."""
    base = public_url.strip().split("?", 1)[0].rstrip("/")
    if not base:
        return ""
    if urlsplit(base).path.rstrip("/").endswith("/sms"):
        base = base[: -len("/sms")]
    return f"{base}/sms/status?alert={alert_id}"


def make_client(cfg: TwilioSettings):
    """The official client; with ``api_base`` its requests go there instead of api.twilio.com (tests)."""
    from twilio.http.http_client import TwilioHttpClient
    from twilio.rest import Client

    class _Based(TwilioHttpClient):
        def request(self, method, url, *args, **kwargs):
            if cfg.api_base and url.startswith(TWILIO_HOST):
                url = cfg.api_base + url[len(TWILIO_HOST):]
            return super().request(method, url, *args, **kwargs)

    return Client(cfg.account_sid, cfg.auth_token, http_client=_Based(timeout=cfg.http_timeout, max_retries=0))


class Unclear(Exception):
    """Twilio's answer did not say whether the message was taken (timeout, dropped connection, 5xx)."""


class Refused(Exception):
    """Twilio said no, for good (a 4xx but 429): retrying would not help."""


class Later(Exception):
    """Twilio said not now (429), or it could not be reached at all: nothing was sent."""


class ClaimLost(Exception):
    """The alert's claim ran out or was taken, or the sender lock was lost: this sender must not go on with it."""


def heartbeat_name(town: str) -> str:
    """The heartbeats row the running sender of ``town`` keeps fresh (the clerk's System status reads it)."""
    return f"alert-sender:{town}"


class TwilioGateway:
    """Sending and looking up messages; Twilio's errors mapped to Unclear / Refused / Later."""

    def __init__(self, cfg: TwilioSettings):
        self.cfg = cfg
        self.client = make_client(cfg)

    def _call(self, fn):
        import requests
        from twilio.base.exceptions import TwilioRestException
        try:
            return fn()
        except TwilioRestException as exc:
            if exc.status == 429:
                raise Later(f"Twilio {exc.status} {exc.code or ''}".strip()) from None
            if 400 <= exc.status < 500:
                raise Refused(f"Twilio {exc.status} {exc.code or ''}: {exc.msg}"[:300]) from None
            raise Unclear(f"Twilio {exc.status}") from None
        except requests.exceptions.ConnectTimeout:
            raise Later("Twilio could not be reached (connect timeout)") from None
        except requests.exceptions.ConnectionError as exc:
            if "refused" in str(exc).lower() and "reset" not in str(exc).lower():
                raise Later("Twilio could not be reached (connection refused)") from None
            raise Unclear("the connection to Twilio broke") from None
        except requests.exceptions.Timeout:
            raise Unclear("Twilio did not answer in time") from None

    def send(self, alert: Alert) -> str:
        kwargs = dict(to=alert.to_number, from_=self.cfg.from_number, body=alert.body)
        callback = status_callback_url(self.cfg.public_url, alert.id)
        if callback:
            kwargs["status_callback"] = callback
        return self._call(lambda: self.client.messages.create(**kwargs)).sid

    def find(self, alert: Alert, keepalive=None) -> str | None:
        """The SID of a message already sent for this alert (same To, From and body, created since a day before
        it was queued), or None. No DateSent filter: Twilio leaves DateSent empty while a message waits in
        its queue, and such a message must be found too; the log is read newest first, by creation, page by
        page; ``keepalive()`` (renewing the claim) is called every few seconds and ends the look-up with
        ClaimLost when it returns False."""
        since = (alert.queued_at or alert.created_at) - timedelta(days=1)
        if since.tzinfo is None:
            since = since.replace(tzinfo=timezone.utc)

        def look():
            last = time.monotonic()
            for m in self.client.messages.stream(to=alert.to_number, from_=self.cfg.from_number, page_size=100,
                                                 limit=1000):
                if keepalive is not None and time.monotonic() - last > KEEPALIVE_EVERY:
                    if not keepalive():
                        raise ClaimLost("the claim ran out during the look-up")
                    last = time.monotonic()
                if m.body == alert.body:
                    return m.sid
                created = getattr(m, "date_created", None)
                if isinstance(created, datetime) and created.tzinfo is not None and created < since:
                    return None  # older than the alert: it was never sent
            return None
        try:
            return self._call(look)
        except Refused as exc:  # a lookup refused is not an answer: try again later
            raise Unclear(str(exc)) from None


def backoff(attempts: int, uncertain: bool = False) -> float:
    """Seconds before the next attempt (ALERT_BACKOFF_SECONDS and ALERT_UNCERTAIN_WAIT scale it, for tests)."""
    base = float(settings.env("ALERT_BACKOFF_SECONDS", str(BACKOFF_BASE)))
    wait = min(BACKOFF_CAP, base * 2 ** max(attempts - 1, 0)) * random.uniform(0.8, 1.2)
    return max(wait, float(settings.env("ALERT_UNCERTAIN_WAIT", str(UNCERTAIN_WAIT)))) if uncertain else wait


class Sender:
    """One sender: ``run_once`` works through the alerts due now; ``run`` loops until stopped. Only while it
    holds the town's sender lock; another sender waits."""

    def __init__(self, store, cfg: TwilioSettings | None = None, gateway: TwilioGateway | None = None,
                 lease: float | None = None, max_attempts: int = MAX_ATTEMPTS, town: str | None = None,
                 lock=None):
        self.store = store
        self.cfg = cfg or TwilioSettings.from_env()
        self.lease = lease if lease is not None else float(settings.env("ALERT_LEASE_SECONDS", str(DEFAULT_LEASE)))
        self.max_attempts = max_attempts
        self.town = town or settings.town()
        self.gateway = gateway
        if self.gateway is None and not self.cfg.missing():
            self.gateway = TwilioGateway(self.cfg)
        self.lock_ttl = float(settings.env("ALERT_SENDER_LOCK_SECONDS", str(DEFAULT_LOCK_TTL)))
        self.lock = lock if lock is not None else store.sender_lock(heartbeat_name(self.town), self.lock_ttl)
        self.waiting = False  # another sender holds the lock
        self._held_at: float | None = None  # monotonic time the lock was last confirmed in the database
        self._beat_at = float("-inf")

    def _hold(self, force: bool = False) -> bool:
        """Take or keep the sender lock (confirmed in the database at least every quarter of its time, and always
        with ``force``: just before a send), and keep the heartbeat fresh while holding it."""
        now = time.monotonic()
        if not force and self._held_at is not None and now - self._held_at < self.lock_ttl / 4:
            return True
        held = self.lock.acquire()
        self._held_at = now if held else None
        if held and now - self._beat_at >= HEARTBEAT_EVERY:
            self.store.heartbeat(heartbeat_name(self.town))
            self._beat_at = now
        if held == self.waiting:  # a change: say it once
            log.info("alert sender (%s): %s", self.town, "holds the sender lock" if held else
                     "another sender holds the lock; waiting")
        self.waiting = not held
        return held

    def run_once(self) -> dict[str, int]:
        """Every alert of the town due now, one attempt each; counts by outcome. Nothing without the Twilio
        settings, nor while another sender holds the lock."""
        done = {"sent": 0, "found": 0, "retry": 0, "failed": 0, "skipped": 0, "lost": 0}
        if self.gateway is None or not self._hold():
            return done
        for alert in self.store.due_alerts(self.town, limit=200):
            if not self._hold():
                break  # the lock is gone: another sender may be working now
            claimed = self.store.claim_alert(alert, self.lease)
            if claimed is not None:
                done[self._attempt(claimed)] += 1
        return done

    def _keep(self, a: Alert) -> bool:
        """Still this sender's to send: the lock held and the claim unexpired and its own (renewed)."""
        return self._hold(force=True) and self.store.renew_claim(a, self.lease)

    def _attempt(self, a: Alert) -> str:
        claim = a.claim_token
        if a.message_sid:  # Twilio's status callback (or a sender that lost its claim) told us its SID
            self.store.alert_sent(a.id, a.message_sid, claim=claim)
            return "found"
        if self.store.sms_opted_out(a.to_number):
            self.store.alert_opted_out(a.id, claim=claim)
            return "skipped"
        try:
            if a.uncertain:
                sid = self.gateway.find(a, keepalive=lambda: self._keep(a))
                if sid:
                    self.store.alert_sent(a.id, sid, claim=claim)
                    return "found"
            if not self.store.alert_still_true(a, self._tz(a.town)):
                self.store.alert_superseded(a.id, claim=claim)
                return "skipped"
            if not self._keep(a):  # just before sending: a claim that ran out may be someone else's now
                raise ClaimLost("the claim ran out or was taken before sending")
            sid = self.gateway.send(a)
        except ClaimLost as exc:
            log.warning("alert %d: %s; left to the next claim", a.id, exc)
            return "lost"
        except Refused as exc:
            self.store.alert_failed(a.id, str(exc), claim=claim)
            return "failed"
        except (Later, Unclear) as exc:
            if a.attempts >= self.max_attempts:
                self.store.alert_failed(a.id, f"gave up after {a.attempts} attempts: {exc}", claim=claim)
                return "failed"
            unclear = isinstance(exc, Unclear)
            self.store.alert_retry(a.id, backoff(a.attempts, unclear), str(exc), uncertain=unclear, claim=claim)
            return "retry"
        if not self.store.alert_sent(a.id, sid, claim=claim):
            log.warning("alert %d: sent, but its claim had run out; its SID is left for the next claim", a.id)
        return "sent"

    @staticmethod
    def _tz(town: str):
        """The town's time zone (burn days are town days), from its data; loaded once per town."""
        return _town_tz(town)

    def run(self, stop: threading.Event | None = None, poll: float = 2.0) -> None:
        stop = stop or threading.Event()
        missing = self.cfg.missing()
        if missing:
            log.warning("alert sender: %s not set; alerts stay queued and are not sent", ", ".join(missing))
        try:
            while not stop.is_set():
                try:
                    if self.gateway is None:
                        self._hold()  # the status page sees the sender running (and says Twilio is not set)
                    counts = self.run_once()
                    if any(counts.values()):
                        log.info("alert sender: %s", counts)
                except Exception:  # noqa: BLE001 - the database or Twilio is down: keep going, try again
                    log.exception("alert sender: a round failed; trying again")
                stop.wait(poll)
        finally:
            self.close()

    def close(self) -> None:
        """Let another sender take over at once (the lock is released)."""
        self._held_at = None
        self.lock.release()


def main(once: bool = False) -> int:
    from .store import Store
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    store = Store.from_env()
    sender = Sender(store)
    if once:
        if sender.gateway is None:
            print("Twilio settings missing (" + ", ".join(sender.cfg.missing()) + "): nothing sent")
            return 1
        total = {}
        try:
            while True:
                counts = sender.run_once()
                for k, v in counts.items():
                    total[k] = total.get(k, 0) + v
                if not any(counts.values()):
                    break
        finally:
            sender.close()
        if sender.waiting:
            print("another alert sender holds the lock: nothing sent")
            return 3
        print(" ".join(f"{k}={v}" for k, v in total.items()))
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # honcho's stop: release the lock on the way out
    sender.run(stop)
    return 0
