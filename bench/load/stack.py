"""The stacks the benchmark starts (tests/support/stack.py; PostgreSQL and Redis for --scale), the CPU their
processes and the whole machine use, and the runs: the load levels, --compare side by side, --scale."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import tempfile
import time
from pathlib import Path

from tests.support import services
from tests.support.stack import PUBLIC_URL, TWILIO_TOKEN, Stack

from .report import merge, ms, summarize
from .residents import run_level, warm_up

#: A pinned "now" (9:00 a.m. CST on a Tuesday) so that the burning answers are the same on every run.
NOW = "2026-12-01T15:00:00+00:00"


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "?")
    mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal:"))
    return {"nproc": len(os.sched_getaffinity(0)), "cpu": model, "ram_gb": round(mem_kb / 1024 / 1024, 1),
            "loadavg": os.getloadavg()[0], "python": platform.python_version()}


CLK = os.sysconf("SC_CLK_TCK")


def cpu_by_session(sessions: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user+system) used so far by every process in each named session (a stack process and its
    children share the session of the process the stack started)."""
    wanted = {sid: name for name, sid in sessions.items()}
    out = {name: 0.0 for name in sessions}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = wanted.get(int(fields[3]))  # fields[3] is the session id (field 6 of proc(5))
        if name:
            out[name] += (int(fields[11]) + int(fields[12])) / CLK
    return out


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all cores (/proc/stat)."""
    v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)  # idle + iowait
    total = sum(v[:8])  # guest time is already counted in user
    return (total - idle) / CLK, total / CLK


def stack_sessions(stack: Stack) -> dict[str, int]:
    # Stack starts every process with start_new_session=True: its pid is its session id.
    return {name: proc.pid for name, proc in stack.procs.items() if proc.poll() is None}


def stack_env(args, extra: dict | None = None) -> dict:
    env = {"CHAT_RATE_LIMIT": "1000000 per minute", "WEB_THREADS": str(args.web_threads)}
    env.update(extra or {})
    env.update(dict(kv.split("=", 1) for kv in args.env))
    return env


def measure(stack: Stack | None, web: str, label: str, concurrency: int, args, token: str, public: str,
            keep_raw: bool = False) -> dict:
    before = cpu_by_session(stack_sessions(stack)) if stack else None
    m0, me0 = machine_cpu(), time.process_time()
    res, elapsed = asyncio.run(run_level(web, concurrency, args.duration, args.think, args.timeout, token, public,
                                         seed=concurrency))
    (busy1, total1), me1 = machine_cpu(), time.process_time()
    cpu = None
    if stack:
        after = cpu_by_session(stack_sessions(stack))
        cpu = {k: after[k] - before.get(k, 0.0) for k in after}
    row = summarize(label, concurrency, res, elapsed, cpu)
    cores = len(os.sched_getaffinity(0))
    # the whole machine's busy share of all cores during the level, and this client's own CPU (one core = 100)
    row["machine_busy_pct"] = round(100 * (busy1 - m0[0]) / max(total1 - m0[1], 1e-9))
    row["client_cpu_pct"] = round(100 * (me1 - me0) / elapsed)
    if cpu is not None:
        ours = sum(cpu.values()) + (me1 - me0)
        row["others_cpu_pct"] = max(0, round(100 * ((busy1 - m0[0]) - ours) / elapsed))  # other jobs on the machine
    row["cores"] = cores
    if keep_raw:
        row["_lat"], row["_web"], row["_sms"] = res.all_latencies, res.latencies["web"], res.latencies["sms"]
    r = row
    print(f"  {label} x{concurrency}: {r['messages']} msgs in {r['seconds']} s = {r['msg_per_s']:.1f} msg/s, "
          f"p50/p95/p99 {ms(r['p50'])}/{ms(r['p95'])}/{ms(r['p99'])} ms, errors {r['errors']}; machine "
          f"{r['machine_busy_pct']}% busy", flush=True)
    return row


def warm(web: str, token: str, public: str, timeout: float) -> None:
    res = asyncio.run(warm_up(web, token, public, timeout))
    if res.errors:
        print(f"  warm-up errors: {dict(res.errors)}: {res.examples}", flush=True)


@contextlib.contextmanager
def workdir(args, prefix: str):
    """A temporary directory for the stack's database and logs, or --keep DIR (kept, for reading the logs)."""
    if args.keep:
        path = Path(args.keep).resolve()
        path.mkdir(parents=True, exist_ok=True)
        yield str(Path(tempfile.mkdtemp(prefix=prefix, dir=path)))
    else:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            yield tmp


def run_levels(args, m: dict) -> list[dict]:
    levels = [int(x) for x in args.levels.split(",")]
    label = f"sqlite rasa x{args.rasa_instances}" if not args.web else "given stack"
    rows = []
    if args.web:
        token = args.twilio_token or os.environ.get("TWILIO_AUTH_TOKEN", "")
        public = args.public_url or os.environ.get("PUBLIC_URL", "")
        warm(args.web, token, public, args.timeout)
        for c in levels:
            rows.append(measure(None, args.web, label, c, args, token, public))
        return rows
    with workdir(args, "ordinance-load-") as tmp:
        print(f"starting the stack ({label}, {args.web_threads} waitress threads) in {tmp} ...", flush=True)
        with Stack(Path(tmp), rasa_instances=args.rasa_instances, now=NOW, env=stack_env(args)) as s:
            warm(s.web, TWILIO_TOKEN, PUBLIC_URL, args.timeout)
            for c in levels:
                rows.append(measure(s, s.web, label, c, args, TWILIO_TOKEN, PUBLIC_URL))
    return rows


def run_compare(args, m: dict) -> list[dict]:
    """Stacks with different numbers of Rasa instances (SQLite) running side by side; each level is measured
    in --rounds short rounds that alternate the stacks, pooled per stack, so that load from other jobs on the
    machine does not land on one configuration only. An idle stack costs memory, not CPU."""
    counts = [int(x) for x in args.compare.split(",")]
    levels = [int(x) for x in args.levels.split(",")]
    per_round = args.duration / args.rounds
    rows = []
    with workdir(args, "ordinance-compare-") as tmp, contextlib.ExitStack() as es:
        stacks = {}
        for n in counts:
            print(f"starting the stack (sqlite rasa x{n}) ...", flush=True)
            stacks[n] = es.enter_context(Stack(Path(tmp) / f"x{n}", rasa_instances=n, now=NOW, env=stack_env(args)))
            warm(stacks[n].web, TWILIO_TOKEN, PUBLIC_URL, args.timeout)
        for c in levels:
            got: dict[int, list[dict]] = {n: [] for n in counts}
            for rnd in range(args.rounds):
                for n in (counts if rnd % 2 == 0 else list(reversed(counts))):
                    sub = argparse.Namespace(**{**vars(args), "duration": per_round})
                    got[n].append(measure(stacks[n], stacks[n].web, f"sqlite rasa x{n}", c, sub, TWILIO_TOKEN,
                                          PUBLIC_URL, keep_raw=True))
            for n in counts:
                rows.append(merge(got[n]))
    return rows


def run_scale(args, m: dict) -> list[dict]:
    counts = [int(x) for x in args.instances.split(",")]
    rows = []
    with workdir(args, "ordinance-scale-") as tmp:
        tmp = Path(tmp)
        print("starting PostgreSQL and Redis ...", flush=True)
        with services.postgres(tmp) as pg, services.redis(tmp) as rd:
            base = rd.rsplit("/", 1)[0]
            for n in counts:
                db = services.create_database(pg, f"scale{n}")
                label = f"postgres+redis rasa x{n}"
                print(f"starting the stack ({label}, {args.web_threads} waitress threads) ...", flush=True)
                env = stack_env(args, {"RATELIMIT_STORAGE_URI": f"{base}/0"})
                with Stack(tmp / f"stack{n}", database_url=db, rasa_instances=n, lock_store_url=f"{base}/1",
                           now=NOW, env=env) as s:
                    warm(s.web, TWILIO_TOKEN, PUBLIC_URL, args.timeout)
                    rows.append(measure(s, s.web, label, args.scale_concurrency, args, TWILIO_TOKEN, PUBLIC_URL))
    return rows
