"""Nothing lost: 1,000 burn notifications by SMS through the real stack (Rasa, the action server and the web
front as separate processes) while each of the three is killed with SIGKILL and restarted at random moments.

Simulated residents (RESIDENTS at a time, each notification from its own number and name) text the webhook
the way Twilio delivers (same MessageSid again on a connection error, a timeout or a 5xx) and answer like
residents (the same answer again, as a new message, 5-20 s after a "can't answer right now" fallback; the
notification started over when the bot lost track; the read-back checked, and a wrong fact corrected, before
"yes"). The stack runs RASA_INSTANCES Rasa instances (default 2, the documented scale-out shape, with Redis as
Rasa's lock store when redis-server is installed); the web front routes each conversation to one and fails over
while it is down, and the Rasa kills go to each instance in turn. Afterwards, on SQLite and on PostgreSQL:

- every message the webhook acknowledged (HTTP 200) is stored exactly once, by MessageSid, with its text;
- every reference a resident was given exists exactly once, with that resident's facts (name, phone, address,
  date, time, location: what the resident meant, not just what the bot read back);
- no notification is stored twice (same resident and facts), and nothing is stored that no resident was given;
- the database passes its integrity check; the SMS spool is empty.

FAULTS_NOTIFICATIONS (default 1000), FAULTS_RESIDENTS (default 10) and FAULTS_RASA_INSTANCES (default 2) change
the size; FAULTS_SEED the random kill moments and resident pauses (printed, to replay a failure).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import resource
import threading
import time
from datetime import date

import pytest
import sqlalchemy as sa

from records import Store
from records import schema as s
from tests.support.services import have_redis, redis
from tests.support.stack import Stack, have_model

from .conftest import NOW
from .integrity import integrity_problems
from .residents import Ledger, Resident, digits

pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(not have_model(), reason="no trained Rasa model in models/ (make train)")]

NOTIFICATIONS = int(os.environ.get("FAULTS_NOTIFICATIONS", "1000"))
RESIDENTS = int(os.environ.get("FAULTS_RESIDENTS", "10"))
RASA_INSTANCES = int(os.environ.get("FAULTS_RASA_INSTANCES", "2"))
KILLS = {"web": 3, "actions": 3, "rasa": 3}  # "rasa": each instance in turn


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the stack's processes, killed or stopped)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN)))


def test_nothing_acknowledged_or_confirmed_is_lost(database_url, tmp_path):
    seed = int(os.environ.get("FAULTS_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    print(f"\nseed {seed}: {NOTIFICATIONS} notifications, {RESIDENTS} residents at a time, {RASA_INSTANCES} Rasa "
          f"instance(s), kills {KILLS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    env = {"RASA_TIMEOUT": "8", "WEB_THREADS": str(2 * RESIDENTS + 8), "SPOOL_DIR": str(tmp_path / "spool"),
           "FAILURE_LOG": str(tmp_path / "failures.jsonl")}
    ledger = Ledger()
    done: list[int] = []
    errors: list[str] = []
    kills: list[tuple[float, str, float]] = []  # (when, process, seconds until it answered again)
    loads: list[float] = []  # 1-minute load average, sampled by the killer thread
    next_index = iter(range(NOTIFICATIONS))
    take = threading.Lock()
    t0, cpu0 = time.monotonic(), cpu_seconds()
    lock_store = (redis(tmp_path) if RASA_INSTANCES > 1 and have_redis() else contextlib.nullcontext(None))
    with lock_store as lock_store_url, Stack(tmp_path / "stack", database_url=database_url, env=env, now=NOW,
                                             rasa_instances=RASA_INSTANCES, lock_store_url=lock_store_url) as stack:
        started = time.monotonic()
        print(f"stack up in {started - t0:.0f} s (Rasa lock store: {lock_store_url or 'in memory'})", flush=True)

        def resident_worker():
            while not errors:
                with take:
                    i = next(next_index, None)
                if i is None:
                    return
                r = Resident(stack.web, i, ledger, seed=seed)
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

        rasa_turn = itertools.cycle(stack.rasa_names)

        def killer():
            for name, point in zip(plan, points):
                while len(done) < point and not finished.is_set():
                    time.sleep(0.2)
                    if int(time.monotonic() * 5) % 150 == 0:
                        loads.append(os.getloadavg()[0])
                if finished.is_set():
                    return
                time.sleep(rnd.uniform(0, 3))
                process = next(rasa_turn) if name == "rasa" else name
                at, done_then = time.monotonic() - started, len(done)
                stack.kill(process)
                time.sleep(rnd.uniform(0, 1))
                stack.start(process)
                kills.append((at, process, time.monotonic() - started - at))
                print(f"  {at:6.0f} s: killed {process} (SIGKILL) at {done_then} done; back after "
                      f"{kills[-1][2]:.0f} s; load {os.getloadavg()[0]:.1f}", flush=True)

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

    cpu = cpu_seconds() - cpu0  # Rasa, actions, web, Redis and the residents; not the PostgreSQL server
    load_note = (f"load average {min(loads):.1f}-{max(loads):.1f} during the run" if loads
                 else f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"SUMMARY ({database_url.split(':')[0]}, {RASA_INSTANCES} Rasa instance(s), {RESIDENTS} residents, "
          f"{os.cpu_count()} CPUs, {load_note}):\n"
          f"  notifications confirmed: {len(done)} of {NOTIFICATIONS} in {elapsed:.0f} s "
          f"({len(done) / max(elapsed, 1) * 60:.0f}/min; stack start {started - t0:.0f} s)\n"
          f"  messages acknowledged: {len(ledger.acked)} ({len(ledger.acked) / max(len(done), 1):.1f} per "
          f"notification); Twilio-style retries: {ledger.twilio_retries} ({ledger.unreachable} unanswered "
          f"attempts, {len(ledger.refused)} 5xx)\n"
          f"  resends after the fallback: {ledger.resends}; notifications started over: {ledger.restarts}; "
          f"read-backs corrected: {ledger.corrections}; slowest webhook answer {ledger.slowest:.1f} s\n"
          f"  kills (at s, process, back after s): {[(round(a), n, round(b)) for a, n, b in kills]}\n"
          f"  CPU used (stack processes, Redis, residents; start included): {cpu:.0f} s, "
          f"{cpu / max(len(done), 1):.2f} s per notification: at least {cpu / (os.cpu_count() or 1):.0f} s of wall "
          f"time on {os.cpu_count()} idle CPUs", flush=True)
    for e in errors[:3]:
        print(f"ERROR: {e}")
    assert not errors, errors[:3]
    assert len(done) == NOTIFICATIONS
    assert not left_in_spool
    for name, n in KILLS.items():
        assert sum(1 for _, k_name, _ in kills if k_name.rstrip("0123456789") == name) == n, kills
    assert {n for _, n, _ in kills} >= set(stack.rasa_names[:KILLS["rasa"]]), kills  # each instance in turn

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
                                          bn.c.approx_time, bn.c.location, bn.c.conversation_id)).all()
            by_ref = {}
            for r in rows:
                assert r.reference not in by_ref
                by_ref[r.reference] = r
            assert len(ledger.references) == NOTIFICATIONS
            for i, (ref, meant) in ledger.references.items():
                r = by_ref.get(ref)
                assert r is not None, f"resident {i} was given {ref}, which is not stored"
                stored_facts = {"name": r.name, "phone": digits(r.phone), "address": r.address,
                                "burn_date": str(r.burn_date if isinstance(r.burn_date, date) else r.burn_date)[:10],
                                "approx_time": r.approx_time, "location": r.location}
                assert stored_facts == meant, (i, ref, stored_facts, meant)
            facts = [(r.name, digits(r.phone), r.address, r.burn_date, r.location) for r in rows]
            dupes = {f for f in facts if facts.count(f) > 1} if len(set(facts)) != len(facts) else set()
            assert not dupes, f"stored twice: {sorted(dupes)[:5]}"
            given = {ref for ref, _ in ledger.references.values()}
            assert set(by_ref) == given, f"stored but never given to a resident: {sorted(set(by_ref) - given)[:5]}"
            assert len(rows) == NOTIFICATIONS
        assert integrity_problems(store.engine) == []
    finally:
        store.close()
    print(f"checked: {len(ledger.acked)} acknowledged messages stored once each; {len(rows)} notifications, "
          f"each given to its resident, none twice; integrity ok ({store.engine.dialect.name})")
