"""One alert sender, on the database's clock: a second sender waits while the first holds the lock (a PostgreSQL
advisory lock, a lock row with a heartbeat on SQLite); leases and retries run on the database's clock, so a host
whose clock is fast does not take a live claim and a pinned ASSISTANT_NOW freezes nothing; a sender whose claim
ran out checks it just before sending and sends nothing, and its updates are fenced by the claim. Each scenario
once gave the resident the same text twice (or never). SQLite and PostgreSQL, against the fake Twilio API."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

from records.alert_sender import Sender, TwilioGateway, TwilioSettings
from records.outbox import AlertPlan, e164
from tests.fakes.twilio_api import FakeTwilio
from tests.records.test_outbox import CHI, MON, burns, compose, day, record
from tests.records.test_store import pg_url, store  # noqa: F401 - the fixtures: every test on both databases

NO_FIRE = AlertPlan(CHI, MON.date(), compose, "")


@pytest.fixture
def twilio(monkeypatch):
    monkeypatch.setenv("ALERT_BACKOFF_SECONDS", "0")
    monkeypatch.setenv("ALERT_UNCERTAIN_WAIT", "0")
    with FakeTwilio() as tw:
        yield tw


@pytest.fixture
def cfg(twilio):
    return TwilioSettings(twilio.account_sid, twilio.auth_token, "+16085550000", twilio.url, "", http_timeout=5.0)


@pytest.fixture
def senders():
    made = []
    yield made
    for s in made:
        getattr(s, "close", lambda: None)()


class PausedBeforeTwilio(TwilioGateway):
    """A sender paused (or a network that stalls) between its checks and the moment the request reaches Twilio."""

    def __init__(self, cfg, pause: float):
        super().__init__(cfg)
        self.pause = pause

    def send(self, alert):
        time.sleep(self.pause)
        return super().send(alert)


class SlowLookup(TwilioGateway):
    """A look-up in Twilio's log that finds nothing, then takes ``pause`` more seconds (many pages; a stall)."""

    def __init__(self, cfg, pause: float):
        super().__init__(cfg)
        self.pause = pause

    def find(self, alert, keepalive=None):
        found = super().find(alert)
        time.sleep(self.pause)
        return found


def _one_alert(store):
    (note,) = burns(store, [1])
    record(store, day(1), day(2), plan=NO_FIRE)
    return e164(note.phone)


def test_a_second_sender_waits_while_the_first_is_paused_before_its_text_reaches_twilio(store, twilio, cfg,
                                                                                      senders):
    """The first sender's claim (0.5 s lease) runs out while it is paused; the second used to re-claim the alert,
    find nothing in Twilio's log (the first had not sent yet) and send it, and then the first sent it too."""
    number = _one_alert(store)
    first = Sender(store, cfg, gateway=PausedBeforeTwilio(cfg, pause=1.5), lease=0.5)
    second = Sender(store, cfg, lease=0.5)
    senders += [first, second]
    t = threading.Thread(target=first.run_once)
    t.start()
    time.sleep(0.9)
    second.run_once()
    t.join()
    deadline = time.monotonic() + 10  # a loaded machine may leave the text for a later pass: never for a second
    while not twilio.sent_to(number) and time.monotonic() < deadline:
        second.run_once()
        time.sleep(0.2)
    second.run_once()
    assert len(twilio.sent_to(number)) == 1
    assert [a.state for a in store.alerts()] == ["sent"]


def test_a_sender_on_a_clock_ten_minutes_fast_does_not_take_a_live_claim(store, twilio, cfg, senders, monkeypatch):
    """Leases were stamped and compared on each host's own clock: a sender whose clock is fast saw the first
    sender's live claim (30 s lease) as run out, took it and sent the text a second time."""
    import records.alert_sender
    import records.outbox
    skew = threading.local()

    def host_clock():
        return datetime.now(timezone.utc) + getattr(skew, "ahead", timedelta(0))
    monkeypatch.setattr(records.outbox, "utcnow", host_clock)
    monkeypatch.setattr(records.alert_sender, "utcnow", host_clock, raising=False)
    number = _one_alert(store)
    first = Sender(store, cfg, gateway=PausedBeforeTwilio(cfg, pause=1.5), lease=30)
    fast = Sender(store, cfg, lease=30)
    senders += [first, fast]
    t = threading.Thread(target=first.run_once)
    t.start()
    time.sleep(0.5)

    def on_the_fast_host():
        skew.ahead = timedelta(minutes=10)
        fast.run_once()
    other = threading.Thread(target=on_the_fast_host)
    other.start()
    other.join()
    t.join()
    assert len(twilio.sent_to(number)) == 1
    assert [a.state for a in store.alerts()] == ["sent"]


def test_a_live_claim_is_not_due_to_a_host_whose_clock_is_fast(store, monkeypatch):
    import records.outbox
    _one_alert(store)
    (a,) = store.due_alerts()
    assert store.claim_alert(a, 30) is not None
    stale = a
    monkeypatch.setattr(records.outbox, "utcnow", lambda: datetime.now(timezone.utc) + timedelta(minutes=10))
    assert store.due_alerts() == []
    assert store.claim_alert(stale, 30) is None


def test_a_pinned_assistant_now_does_not_freeze_retries(store, twilio, cfg, senders, monkeypatch):
    """With ASSISTANT_NOW pinned, an alert put back for a retry "0.2 s from now" was never due again."""
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-30T15:00:00+00:00")
    monkeypatch.setenv("ALERT_BACKOFF_SECONDS", "0.2")
    monkeypatch.setenv("ALERT_UNCERTAIN_WAIT", "0.2")
    number = _one_alert(store)
    sender = Sender(store, cfg, lease=5)
    senders.append(sender)
    twilio.fail_next(1, status=429)  # not now: retried with backoff
    assert sender.run_once()["retry"] == 1
    time.sleep(0.6)
    sender.run_once()
    assert len(twilio.sent_to(number)) == 1 and [a.state for a in store.alerts()] == ["sent"]


def test_a_pinned_assistant_now_does_not_freeze_the_lease_of_a_crashed_sender(store, twilio, cfg, senders,
                                                                            monkeypatch):
    """A sender that died holding a claim: with ASSISTANT_NOW pinned its lease never ran out, and the text was
    never sent."""
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-30T15:00:00+00:00")
    number = _one_alert(store)
    (a,) = store.due_alerts()
    assert store.claim_alert(a, 0.3) is not None  # ... and the sender that claimed it was killed
    time.sleep(0.6)
    sender = Sender(store, cfg, lease=5)
    senders.append(sender)
    sender.run_once()
    alerts = store.alerts()
    assert len(twilio.sent_to(number)) == 1 and [(x.state, x.uncertain) for x in alerts] == [("sent", True)]


class AlwaysHeld:
    """No sender lock (as if two senders ran anyway): the claim alone must keep a text from going twice."""

    def acquire(self):
        return True

    def release(self):
        pass


def test_a_sender_whose_claim_ran_out_during_a_slow_look_up_does_not_send(store, twilio, cfg, senders,
                                                                         monkeypatch):
    monkeypatch.setattr(store, "sender_lock", lambda name, ttl: AlwaysHeld(), raising=False)
    number = _one_alert(store)
    twilio.fail_next(1, status=503)  # an unclear answer: the next attempt looks in Twilio's log first
    warmup = Sender(store, cfg, lease=5)
    senders.append(warmup)
    assert warmup.run_once()["retry"] == 1
    slow = Sender(store, cfg, gateway=SlowLookup(cfg, pause=1.2), lease=0.4)
    other = Sender(store, cfg, lease=5)
    senders += [slow, other]
    outcome = {}
    t = threading.Thread(target=lambda: outcome.update(slow.run_once()))
    t.start()
    time.sleep(0.8)  # the slow sender's claim has run out: the other takes it, finds nothing and sends
    assert other.run_once()["sent"] == 1
    t.join()
    assert outcome.get("lost") == 1  # it saw its claim gone just before sending
    assert len(twilio.sent_to(number)) == 1
    (a,) = store.alerts()
    assert a.state == "sent" and a.message_sid == twilio.sent_to(number)[0]["sid"]


def test_updates_by_a_sender_that_lost_its_claim_are_fenced(store):
    _one_alert(store)
    (a,) = store.due_alerts()
    mine = store.claim_alert(a, 0.2)
    time.sleep(0.4)
    (again,) = store.due_alerts()
    theirs = store.claim_alert(again, 30)
    assert theirs.claim_token != mine.claim_token and theirs.uncertain
    assert not store.renew_claim(mine, 30)
    assert not store.alert_retry(a.id, 0, "late answer", uncertain=True, claim=mine.claim_token)
    assert not store.alert_failed(a.id, "refused", claim=mine.claim_token)
    assert not store.alert_sent(a.id, "SMlate", claim=mine.claim_token)
    (now,) = store.alerts()
    assert (now.state, now.claim_token, now.message_sid) == ("sending", theirs.claim_token, "SMlate")
    assert store.alert_sent(a.id, "SMlate", claim=theirs.claim_token)


def test_the_sender_lock_passes_to_a_waiting_sender(store, cfg, senders, monkeypatch):
    """One sender per town at a time; the next takes over when the first stops, or dies (SQLite: its lock row
    expires; PostgreSQL: its session and advisory lock end with the process)."""
    monkeypatch.setenv("ALERT_SENDER_LOCK_SECONDS", "0.5")
    first, second = Sender(store, cfg), Sender(store, cfg)
    senders += [first, second]
    first.run_once()
    second.run_once()
    assert not first.waiting and second.waiting
    first.close()
    second.run_once()
    assert not second.waiting
    first.run_once()
    assert first.waiting
    # the holder dies without a word
    if store.kind == "postgresql":
        second.lock._conn.invalidate()
    else:
        time.sleep(0.7)  # it stopped renewing its row
    first.run_once()
    assert not first.waiting
    other_town = Sender(store, cfg, town="mequon")  # each town has its own sender
    senders.append(other_town)
    other_town.run_once()
    assert not other_town.waiting
