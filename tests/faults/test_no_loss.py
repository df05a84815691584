"""Nothing lost: 1,000 burn notifications by SMS through the real stack (Rasa, the action server and the web
front as separate processes) while each of the three is killed with SIGKILL and restarted at random moments.

Simulated residents (RESIDENTS at a time, each notification from its own number and name) text the webhook
the way Twilio delivers (same MessageSid again on a connection error, a timeout or a 5xx) and answer like
residents (the same answer again, as a new message, when the reply is the "can't answer right now" fallback;
the notification started over when the bot lost track). Afterwards, on SQLite and on PostgreSQL:

- every message the webhook acknowledged (HTTP 200) is stored exactly once, by MessageSid, with its text;
- every reference a resident was given exists exactly once, with that resident's name and phone;
- no notification is stored twice (same resident and facts), and nothing is stored that no resident was given;
- the database passes its integrity check; the SMS spool is empty.

FAULTS_NOTIFICATIONS (default 1000) and FAULTS_RESIDENTS (default 16) change the size; FAULTS_SEED the random
kill moments (printed, to replay a failure).
"""

from __future__ import annotations

import os
import random
import re
import threading
import time

import pytest
import sqlalchemy as sa

from records import Store
from records import schema as s
from tests.support.stack import Stack, have_model

from .conftest import NOW
from .integrity import integrity_problems
from .residents import Ledger, Resident

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not have_model(), reason="no trained Rasa model in models/ (make train)")]

NOTIFICATIONS = int(os.environ.get("FAULTS_NOTIFICATIONS", "1000"))
RESIDENTS = int(os.environ.get("FAULTS_RESIDENTS", "16"))
KILLS = {"web": 3, "actions": 3, "rasa": 3}


def digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-10:]


def test_nothing_acknowledged_or_confirmed_is_lost(database_url, tmp_path):
    seed = int(os.environ.get("FAULTS_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    print(f"\nseed {seed}: {NOTIFICATIONS} notifications, {RESIDENTS} residents at a time, kills {KILLS}")
    env = {"RASA_TIMEOUT": "8", "WEB_THREADS": str(2 * RESIDENTS + 8), "SPOOL_DIR": str(tmp_path / "spool"),
           "FAILURE_LOG": str(tmp_path / "failures.jsonl")}
    ledger = Ledger()
    done: list[int] = []
    errors: list[str] = []
    kills: list[tuple[float, str, float]] = []  # (when, process, seconds until it answered again)
    next_index = iter(range(NOTIFICATIONS))
    take = threading.Lock()
    t0 = time.monotonic()
    with Stack(tmp_path / "stack", database_url=database_url, env=env, now=NOW) as stack:
        started = time.monotonic()
        print(f"stack up in {started - t0:.0f} s")

        def resident_worker():
            while not errors:
                with take:
                    i = next(next_index, None)
                if i is None:
                    return
                r = Resident(stack.web, i, ledger)
                try:
                    r.notify()
                    with take:
                        done.append(i)
                except Exception as exc:  # noqa: BLE001 - reported below
                    errors.append(f"{exc}")
                    return

        # kill moments: at random points of the run's progress (plus a random delay), shuffled across processes
        plan = [name for name, n in KILLS.items() for _ in range(n)]
        rnd.shuffle(plan)
        points = sorted(rnd.uniform(0.03, 0.9) * NOTIFICATIONS for _ in plan)
        finished = threading.Event()

        def killer():
            for name, point in zip(plan, points):
                while len(done) < point and not finished.is_set():
                    time.sleep(0.2)
                if finished.is_set():
                    return
                time.sleep(rnd.uniform(0, 3))
                at = time.monotonic() - started
                stack.kill(name)
                time.sleep(rnd.uniform(0, 1))
                stack.start(name)
                kills.append((at, name, time.monotonic() - started - at))
                print(f"  {at:6.0f} s: killed {name} (SIGKILL) at {len(done)} done; back after "
                      f"{kills[-1][2]:.0f} s", flush=True)

        threads = [threading.Thread(target=resident_worker, daemon=True) for _ in range(RESIDENTS)]
        k = threading.Thread(target=killer, daemon=True)
        k.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=max(1.0, 3600 - (time.monotonic() - started)))
        finished.set()
        k.join(timeout=300)
        elapsed = time.monotonic() - started
        # the spool (used only if the database refused a write) must drain into the database
        deadline = time.monotonic() + 60
        while any((tmp_path / "spool").glob("*.jsonl")) and time.monotonic() < deadline:
            time.sleep(1)
        left_in_spool = list((tmp_path / "spool").glob("*.jsonl"))

    print(f"{len(done)} notifications in {elapsed:.0f} s ({len(done) / elapsed * 60:.0f}/min); "
          f"{len(ledger.acked)} messages acknowledged; {ledger.twilio_retries} Twilio-style retries, "
          f"{ledger.unreachable} unanswered attempts, {len(ledger.refused)} 5xx; {ledger.resends} resends after "
          f"the fallback; {ledger.restarts} notifications started over; slowest webhook answer "
          f"{ledger.slowest:.1f} s; kills {[(round(a), n) for a, n, _ in kills]}")
    assert not errors, errors[:3]
    assert len(done) == NOTIFICATIONS
    assert not left_in_spool
    for name, n in KILLS.items():
        assert sum(1 for _, k_name, _ in kills if k_name == name) == n, kills

    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            sms = s.inbound_sms
            stored = {}
            for row in conn.execute(sa.select(sms.c.message_sid, sms.c.from_number, sms.c.body)):
                assert row.message_sid not in stored, f"{row.message_sid} stored twice"
                stored[row.message_sid] = (row.from_number, row.body)
            missing = [sid for sid in ledger.acked if sid not in stored]
            assert not missing, f"{len(missing)} acknowledged messages not stored, e.g. {missing[:5]}"
            wrong = [sid for sid, fb in ledger.acked.items() if stored[sid] != fb]
            assert not wrong, wrong[:5]

            bn = s.burn_notifications
            rows = conn.execute(sa.select(bn.c.reference, bn.c.name, bn.c.phone, bn.c.address, bn.c.burn_date,
                                          bn.c.location, bn.c.conversation_id)).all()
            by_ref = {}
            for r in rows:
                assert r.reference not in by_ref
                by_ref[r.reference] = r
            assert len(ledger.references) == NOTIFICATIONS
            for i, (ref, name, phone) in ledger.references.items():
                r = by_ref.get(ref)
                assert r is not None, f"resident {i} was given {ref}, which is not stored"
                assert r.name == name and digits(r.phone) == digits(phone), (i, ref, r)
            facts = [(r.name, digits(r.phone), r.address, r.burn_date, r.location) for r in rows]
            dupes = {f for f in facts if facts.count(f) > 1} if len(set(facts)) != len(facts) else set()
            assert not dupes, f"stored twice: {sorted(dupes)[:5]}"
            given = {ref for ref, _, _ in ledger.references.values()}
            assert set(by_ref) == given, f"stored but never given to a resident: {sorted(set(by_ref) - given)[:5]}"
            assert len(rows) == NOTIFICATIONS
        assert integrity_problems(store.engine) == []
    finally:
        store.close()
    print(f"checked: {len(ledger.acked)} acknowledged messages stored once each; {len(rows)} notifications, "
          f"each given to its resident, none twice; integrity ok ({store.engine.dialect.name})")
