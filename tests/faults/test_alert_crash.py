"""The alert sender SIGKILLed at random moments of its work (FAULTS_KILLS times, 6 by default) while it
works through 500 alerts about a no-burning order, and restarted each time, against the fake Twilio REST API
(which also loses or delays some answers): in the end every alert is sent, none is lost and none is sent
twice (docs/reliability.md "SMS alerts"). SQLite and PostgreSQL. Prints the kills, the alerts looked up in
Twilio's log after an unclear attempt or a crash, and the runtime."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from records import Store
from records.engine import REPO
from records.outbox import AlertPlan
from tests.fakes.twilio_api import FakeTwilio

pytestmark = pytest.mark.faults

ALERTS = int(os.environ.get("FAULTS_ALERTS", "500"))
SEED = int(os.environ.get("FAULTS_SEED", str(int(time.time()))))
KILLS = int(os.environ.get("FAULTS_KILLS", "6"))
DEADLINE = 170.0  # seconds per database
CHI = ZoneInfo("America/Chicago")
FROM = "+16085550000"


def _queue(store: Store) -> None:
    first = date(2026, 12, 2)
    for i in range(ALERTS):
        store.add_burn_notification(town="dunkirk", name=f"Resident {i}", address=f"N{i} Road K",
                                    phone=f"+1608{5550000 + i:07d}", burn_date=first + timedelta(days=i % 3))
    def text(kind, order, note, at):
        return f"Order {order.id}: your burn (ref {note.reference}) may not go ahead."
    plan = AlertPlan(CHI, date(2026, 12, 1), text)
    store.record_order("dunkirk", datetime(2026, 12, 2, tzinfo=CHI), datetime(2026, 12, 5, tzinfo=CHI),
                       reason="dry", board_action="Board", recorded_by="ann", alerts=plan)
    assert len(store.alerts()) == ALERTS


def _sender(url: str, tw: FakeTwilio, log) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "TWILIO_ACCOUNT_SID": tw.account_sid, "TWILIO_AUTH_TOKEN": tw.auth_token,
           "TWILIO_FROM": FROM, "TWILIO_API_BASE": tw.url, "PUBLIC_URL": "", "ALERT_LEASE_SECONDS": "1", "ALERT_SENDER_LOCK_SECONDS": "2",
           "TWILIO_HTTP_TIMEOUT": "0.5", "ALERT_BACKOFF_SECONDS": "0.2", "ALERT_UNCERTAIN_WAIT": "0.2",
           "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "records", "send-alerts", "--once"], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)


def test_the_sender_killed_at_random_loses_nothing_and_sends_nothing_twice(database_url, tmp_path):
    rng = random.Random(SEED)
    store = Store(database_url)
    _queue(store)
    kills = runs = 0
    started = time.monotonic()
    with FakeTwilio() as tw, open(tmp_path / "sender.log", "wb") as log:
        while True:
            alerts = store.alerts()
            if all(a.state == "sent" for a in alerts):
                break
            assert time.monotonic() - started < DEADLINE, (f"seed {SEED}: not done in {DEADLINE} s: "
                                                          f"{Counter(a.state for a in alerts)}")
            if rng.random() < 0.3:
                tw.lose_next(1)  # Twilio takes the next message, the answer never comes
            if rng.random() < 0.2:
                tw.stall_next(1, seconds=1.0)  # ... or comes after the client gave up
            before = tw.requests
            proc = _sender(database_url, tw, log)
            runs += 1
            if kills < KILLS:  # the process takes seconds to start: kill it at a random moment of its work
                while tw.requests == before and proc.poll() is None:
                    time.sleep(0.005)
                time.sleep(rng.uniform(0, 1.5))
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGKILL)
                    kills += 1
            proc.wait()
            time.sleep(rng.uniform(0, 0.3))
    took = time.monotonic() - started
    alerts = store.alerts()
    by_body = Counter(m["body"] for m in tw.messages)
    twice = [b for b, n in by_body.items() if n > 1]
    lost = [a for a in alerts if by_body[a.body] == 0]
    looked_up = sum(1 for a in alerts if a.uncertain)
    kind = database_url.split(":", 1)[0]
    print(f"\nalert crash test ({kind}, seed {SEED}): {len(alerts)} alerts, {len(tw.messages)} texts, "
          f"{len(lost)} lost, {len(twice)} sent twice; {runs} sender runs, {kills} SIGKILLs, {looked_up} alerts "
          f"looked up in Twilio's log after an unclear attempt or a crash; {took:.1f} s")
    assert kills >= KILLS // 2, "the sender finished before it could be killed enough to prove anything"
    assert looked_up > 0
    assert not lost and not twice and len(tw.messages) == ALERTS
    assert {a.message_sid for a in alerts} == {m["sid"] for m in tw.messages}
    store.close()
