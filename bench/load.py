"""Load benchmark of the whole assistant: residents chatting on the web page and texting the SMS number, at
1, 10, 20 and 50 concurrent conversations (make bench-load). Not a timed test: it prints figures.

By default it starts the real stack itself (tests/support/stack.py: Rasa with the trained model in models/,
the action server and the web front on 127.0.0.1, one SQLite database in a temporary directory); --web URL
drives a stack that is already running instead (its CHAT_RATE_LIMIT must be raised, see below).

A concurrent conversation is a closed-loop simulated resident: it sends a message, waits for the reply and
sends the next one straight away (no think time unless --think SECONDS), and when its conversation is over
starts a new one. Two thirds of the conversations are web chats (POST /chat/api/start, then /chat/api/message
turns), one third SMS (POST /sms, form-encoded and signed like Twilio: X-Twilio-Signature over PUBLIC_URL/sms,
a new MessageSid for every message and a new From number for every conversation). The scripts mix single
questions ("how much is a dog license", "can i burn brush tonight", "how many dogs can I have", "my dog bit
someone on March 3, how long is quarantine", ...) with form conversations (the dog license form; the burn
notification form by SMS, which ends with a stored notification).

Each level runs for --duration seconds (residents start no new message after that; the ones in flight finish).
Per level it prints p50/p95/p99 latency of the message turns (web /chat/api/message and /sms; /chat/api/start
is counted for errors but not in the latency figures), messages per second, and errors: non-2xx answers,
connection errors, timeouts (--timeout, 15 s) and any reply that is the assistant's fallback ("not answering
right now" on the web, "can't answer right now" by SMS: Rasa was down, slow or failed). With the stack started
here it also prints the CPU each process used per message (rasa, actions, web), how busy the whole machine
was and how much of it went to other processes (PostgreSQL and Redis in --scale, other jobs): this shows
where the time goes, and whether a figure was taken on a machine busy with something else. Bars: 0 errors at every level; p95 <= 1 s at 20 concurrent conversations.

All simulated residents come from 127.0.0.1, so the stack started here sets CHAT_RATE_LIMIT to
"1000000 per minute" (the chat API's per-address limit; the default, 60 per minute, is unchanged otherwise).

--compare 1,2 starts SQLite stacks with 1 and 2 Rasa instances side by side and measures each level in
alternating rounds, pooled per stack (on a machine shared with other jobs, a fairer comparison than two runs).

--scale runs the scale-out comparison instead: it starts PostgreSQL and Redis (tests/support/services.py),
then for 1, 2 and 3 Rasa instances (--instances) a fresh stack on a fresh PostgreSQL database with Rasa's Redis
lock store (bot/endpoints-scale.yml) and the web front's rate limits in Redis, and runs --scale-concurrency
(20) conversations for --duration seconds against each.

    .venv/bin/python bench/load.py [--levels 1,10,20,50] [--duration 30] [--think 0] [--rasa-instances 1]
        [--web-threads 8] [--web URL --twilio-token T --public-url U] [--json FILE] [--keep DIR]
    .venv/bin/python bench/load.py --scale [--instances 1,2,3] [--scale-concurrency 20] [--duration 30]
    .venv/bin/python bench/load.py --compare 1,2 [--levels 20] [--rounds 4] [--duration 60]
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import itertools
import json
import math
import os
import platform
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from twilio.request_validator import RequestValidator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import services  # noqa: E402
from tests.support.stack import PUBLIC_URL, TWILIO_TOKEN, Stack, have_model  # noqa: E402

#: A pinned "now" (9:00 a.m. CST on a Tuesday) so that the burning answers are the same on every run.
NOW = "2026-12-01T15:00:00+00:00"
LEVELS = (1, 10, 20, 50)
FALLBACKS = ("not answering right now", "can't answer right now")
BAR_LEVEL, BAR_P95 = 20, 1.0

SINGLE = [
    ["how much is a dog license", "can i burn brush tonight", "how many dogs can I have"],
    ["my dog bit someone on March 3, how long is quarantine", "is there a leash law", "thanks"],
    ["can i burn brush tonight", "is there a burn ban", "can i burn tires", "what time can i burn"],
    ["how many dogs can I have", "neighbors dog barks all night", "what does 7.02-6 say"],
    ["my cat was exposed to a rabid raccoon", "do i have to pick up after my dog", "can i keep chickens"],
]
LICENSE_FORM = ["how much is my dog license", "2", "both are neutered", "no", "over a year ago", "today"]
BURN_FORM = ["I want to notify the fire department of a burn", "Pat Olson", "N1234 County Road K",
             "608-555-0142", "tomorrow", "10 am", "behind the barn, 100 feet from the house", "yes"]
SCRIPTS = {"web": [*SINGLE, LICENSE_FORM], "sms": [*SINGLE[:3], BURN_FORM, LICENSE_FORM]}
SMS_SHARE = 1 / 3


# ---- the machine and the processes ----------------------------------------------------------------------


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "?")
    mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal:"))
    return {"nproc": len(os.sched_getaffinity(0)), "cpu": model, "ram_gb": round(mem_kb / 1024 / 1024, 1),
            "loadavg": os.getloadavg()[0], "python": platform.python_version()}


def machine_line(m: dict) -> str:
    return (f"machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram_gb']} GB RAM, "
            f"1-min load average {m['loadavg']:.2f} at start")


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


# ---- one simulated resident --------------------------------------------------------------------------------


@dataclass
class Result:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"web": [], "sms": []})
    errors: Counter = field(default_factory=Counter)
    starts: int = 0
    conversations: int = 0
    examples: dict[str, str] = field(default_factory=dict)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        self.examples.setdefault(kind, detail[:300])

    @property
    def all_latencies(self) -> list[float]:
        return self.latencies["web"] + self.latencies["sms"]


class Client:
    def __init__(self, session: aiohttp.ClientSession, web: str, twilio_token: str, public_url: str,
                 timeout: float):
        self.session, self.web = session, web.rstrip("/")
        self.validator = RequestValidator(twilio_token)
        self.sms_url = public_url.rstrip("/") + "/sms"
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.numbers = itertools.count(random.SystemRandom().randrange(10**6))

    async def _post(self, res: Result, what: str, path: str, **kw) -> str | None:
        try:
            async with self.session.post(self.web + path, timeout=self.timeout, **kw) as resp:
                body = await resp.text()
                if not 200 <= resp.status < 300:
                    res.error(f"http {resp.status}", f"{what}: {body}")
                    return None
                return body
        except asyncio.TimeoutError:
            res.error("timeout", what)
        except (aiohttp.ClientError, OSError) as exc:
            res.error("connection", f"{what}: {exc!r}")
        return None

    def _fallback(self, res: Result, what: str, text: str) -> bool:
        low = html.unescape(text).lower()
        if any(f in low for f in FALLBACKS):
            res.error("fallback reply", what)
            return True
        return False

    async def web_conversation(self, res: Result, script: list[str], deadline: float, think: float,
                               record: bool = True) -> None:
        body = await self._post(res, "start", "/chat/api/start")
        res.starts += 1
        if body is None:
            return
        cid = json.loads(body)["conversation_id"]
        for text in script:
            if time.monotonic() >= deadline:
                return
            t0 = time.perf_counter()
            body = await self._post(res, f"web {text!r}", "/chat/api/message",
                                    json={"conversation_id": cid, "text": text})
            elapsed = time.perf_counter() - t0
            if body is not None:
                replies = " ".join(m.get("text", "") for m in json.loads(body).get("messages", []))
                self._fallback(res, f"web {text!r}", replies)
                if record:
                    res.latencies["web"].append(elapsed)
            if think:
                await asyncio.sleep(think)

    async def sms_conversation(self, res: Result, script: list[str], deadline: float, think: float,
                               record: bool = True) -> None:
        phone = f"+1608{next(self.numbers) % 10**7:07d}"
        for text in script:
            if time.monotonic() >= deadline:
                return
            params = {"From": phone, "To": "+16085550199", "Body": text, "MessageSid": "SM" + uuid.uuid4().hex}
            headers = {"X-Twilio-Signature": self.validator.compute_signature(self.sms_url, params)}
            t0 = time.perf_counter()
            body = await self._post(res, f"sms {text!r}", "/sms", data=params, headers=headers)
            elapsed = time.perf_counter() - t0
            if body is not None:
                self._fallback(res, f"sms {text!r}", body)
                if record:
                    res.latencies["sms"].append(elapsed)
            if think:
                await asyncio.sleep(think)


async def resident(client: Client, res: Result, seed: int, deadline: float, think: float) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        channel = "sms" if rng.random() < SMS_SHARE else "web"
        script = rng.choice(SCRIPTS[channel])
        res.conversations += 1
        if channel == "web":
            await client.web_conversation(res, script, deadline, think)
        else:
            await client.sms_conversation(res, script, deadline, think)


async def run_level(web: str, concurrency: int, duration: float, think: float, timeout: float,
                    twilio_token: str, public_url: str, seed: int = 0) -> tuple[Result, float]:
    res = Result()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        client = Client(session, web, twilio_token, public_url, timeout)
        t0 = time.monotonic()
        deadline = t0 + duration
        await asyncio.gather(*(resident(client, res, seed * 1000 + i, deadline, think)
                               for i in range(concurrency)))
        return res, time.monotonic() - t0


async def warm_up(web: str, twilio_token: str, public_url: str, timeout: float) -> Result:
    """Every script once, one message at a time (not measured): loads whatever Rasa loads lazily and shows at
    once if a script gets the fallback reply."""
    res = Result()
    async with aiohttp.ClientSession() as session:
        client = Client(session, web, twilio_token, public_url, timeout)
        far = time.monotonic() + 3600
        for script in SCRIPTS["web"]:
            await client.web_conversation(res, script, far, 0, record=False)
        for script in SCRIPTS["sms"]:
            await client.sms_conversation(res, script, far, 0, record=False)
    return res


# ---- figures ------------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def summarize(label: str, concurrency: int, res: Result, elapsed: float, cpu: dict[str, float] | None) -> dict:
    lat = res.all_latencies
    row = {"config": label, "concurrency": concurrency, "messages": len(lat), "seconds": round(elapsed, 1),
           "msg_per_s": round(len(lat) / elapsed, 2) if elapsed else 0.0,
           "p50": pct(lat, 50), "p95": pct(lat, 95), "p99": pct(lat, 99), "max": max(lat, default=float("nan")),
           "web_p95": pct(res.latencies["web"], 95), "sms_p95": pct(res.latencies["sms"], 95),
           "web_messages": len(res.latencies["web"]), "sms_messages": len(res.latencies["sms"]),
           "conversations": res.conversations, "starts": res.starts,
           "errors": sum(res.errors.values()), "error_kinds": dict(res.errors), "error_examples": res.examples}
    if cpu:
        row["cpu_pct"] = {name: round(100 * sec / elapsed) for name, sec in cpu.items()}
        row["cpu_ms_per_msg"] = {name: round(1000 * sec / max(len(lat), 1)) for name, sec in cpu.items()}
    return row


def ms(x: float) -> str:
    return "-" if x != x else f"{x * 1000:.0f}"


def print_table(rows: list[dict], title: str) -> None:
    print(f"\n{title}")
    head = (f"{'config':<22} {'conc':>4} {'msgs':>5} {'msg/s':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
            f"{'max ms':>7} {'web p95':>7} {'sms p95':>7} {'errors':>6}  CPU ms per message (one core)")
    print(head)
    print("-" * len(head))
    for r in rows:
        cpu = " ".join(f"{k}={v}" for k, v in sorted(r.get("cpu_ms_per_msg", {}).items()))
        if "others_cpu_pct" in r:
            cpu += f" | rest of machine {r['others_cpu_pct']}%"
        cpu += f" | {r['machine_busy_pct']}% of {r['cores']} cores busy"
        print(f"{r['config']:<22} {r['concurrency']:>4} {r['messages']:>5} {r['msg_per_s']:>6.1f} {ms(r['p50']):>7} "
              f"{ms(r['p95']):>7} {ms(r['p99']):>7} {ms(r['max']):>7} {ms(r['web_p95']):>7} {ms(r['sms_p95']):>7} "
              f"{r['errors']:>6}  {cpu}")
        for kind, n in r["error_kinds"].items():
            print(f"{'':<22}      error {kind} x{n}: e.g. {r['error_examples'][kind]}")


def verdict(rows: list[dict]) -> list[str]:
    out = []
    for config in dict.fromkeys(r["config"] for r in rows):
        mine = [r for r in rows if r["config"] == config]
        errs = [r for r in mine if r["errors"]]
        out.append(f"{config}: bar 0 errors at every level: " + ("MET" if not errs else
                   "MISSED (" + ", ".join(f"{r['errors']} at {r['concurrency']}" for r in errs) + ")"))
        at = [r for r in mine if r["concurrency"] == BAR_LEVEL]
        if at:
            p95 = at[0]["p95"]
            out.append(f"{config}: bar p95 <= {BAR_P95:.0f} s at {BAR_LEVEL} concurrent: "
                       f"{'MET' if p95 <= BAR_P95 else 'MISSED'} (p95 {ms(p95)} ms)")
    return out


# ---- runs ---------------------------------------------------------------------------------------------------


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


def merge(rows: list[dict]) -> dict:
    """Pool the rounds of one configuration and level (latencies are re-read from the rounds' raw lists)."""
    lat = [x for r in rows for x in r["_lat"]]
    res = Result()
    res.latencies["web"] = [x for r in rows for x in r["_web"]]
    res.latencies["sms"] = [x for r in rows for x in r["_sms"]]
    for r in rows:
        res.errors.update(r["error_kinds"])
        for k, v in r["error_examples"].items():
            res.examples.setdefault(k, v)
        res.conversations += r["conversations"]
        res.starts += r["starts"]
    elapsed = sum(r["seconds"] for r in rows)
    cpu = {k: sum(r["cpu_pct"][k] * r["seconds"] / 100 for r in rows) for k in rows[0].get("cpu_pct", {})}
    out = summarize(rows[0]["config"], rows[0]["concurrency"], res, elapsed, cpu)
    assert len(lat) == out["messages"]
    out["machine_busy_pct"] = round(sum(r["machine_busy_pct"] * r["seconds"] for r in rows) / elapsed)
    out["others_cpu_pct"] = round(sum(r.get("others_cpu_pct", 0) * r["seconds"] for r in rows) / elapsed)
    out["cores"] = rows[0]["cores"]
    out["rounds"] = len(rows)
    return out


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


def summary(files: list[str]) -> int:
    """One compact table of the runs written with --json (make bench-load prints it at the end)."""
    runs = [json.loads(Path(f).read_text()) for f in files if Path(f).exists()]
    if not runs:
        print("no results to summarize", file=sys.stderr)
        return 1
    print("\nsummary (latency of message turns in ms; closed loop, think time "
          + ", ".join(sorted({f"{r['think']:g} s" for r in runs})) + ")")
    print(f"{'configuration':<24} {'conc':>4} {'msg/s':>6} {'p50':>6} {'p95':>6} {'p99':>6} {'errors':>6} "
          f"{'other load':>10}")
    for run in runs:
        for r in run["rows"]:
            other = f"{r['others_cpu_pct']}%" if "others_cpu_pct" in r else "-"
            print(f"{r['config']:<24} {r['concurrency']:>4} {r['msg_per_s']:>6.1f} {ms(r['p50']):>6} {ms(r['p95']):>6} "
                  f"{ms(r['p99']):>6} {r['errors']:>6} {other:>10}")
    print("(other load: CPU used meanwhile by everything but the stack and this client, % of one core: other jobs, "
          "and PostgreSQL + Redis in the scale-out rows)")
    level_rows = [r for run in runs if not run["title"].startswith("scale-out") for r in run["rows"]]
    for line in verdict(level_rows) if level_rows else []:
        print(line)
    m = runs[0]["machine"]
    print(machine_line(m))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(map(str, LEVELS)), help="concurrent conversations per level")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds per level")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a resident waits between messages (0)")
    ap.add_argument("--timeout", type=float, default=15.0, help="client timeout per request, seconds")
    ap.add_argument("--rasa-instances", type=int, default=1, help="Rasa instances in the SQLite stack")
    ap.add_argument("--web-threads", type=int, default=int(os.environ.get("WEB_THREADS", "8")),
                    help="waitress threads of the web front started here (WEB_THREADS)")
    ap.add_argument("--web", help="drive a running stack at this base URL instead of starting one")
    ap.add_argument("--twilio-token", help="with --web: its TWILIO_AUTH_TOKEN (default: the environment's)")
    ap.add_argument("--public-url", help="with --web: its PUBLIC_URL (default: the environment's)")
    ap.add_argument("--scale", action="store_true", help="scale-out run: PostgreSQL + Redis, 1/2/3 Rasa instances")
    ap.add_argument("--instances", default="1,2,3", help="with --scale: Rasa instance counts")
    ap.add_argument("--scale-concurrency", type=int, default=20, help="with --scale: concurrent conversations")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="extra environment for the stack started here (repeatable)")
    ap.add_argument("--keep", metavar="DIR", help="keep the stack's databases and logs under DIR")
    ap.add_argument("--compare", metavar="N,M", help="SQLite stacks with N, M, ... Rasa instances side by side, "
                    "measured in alternating rounds (--rounds) at each level")
    ap.add_argument("--rounds", type=int, default=4, help="with --compare: rounds per level (--duration split)")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    ap.add_argument("--summary", nargs="+", metavar="JSON", help="only print one table of earlier --json files")
    args = ap.parse_args(argv)
    if args.summary:
        return summary(args.summary)
    if not args.web and not have_model():
        print("no trained model in models/ (make train)", file=sys.stderr)
        return 2
    m = machine()
    print(machine_line(m))
    print(f"closed loop: each conversation sends its next message as soon as the reply arrives; think time "
          f"{args.think:g} s; {args.duration:g} s per level; {round(SMS_SHARE * 100)}% of conversations by SMS")
    if args.compare:
        rows = run_compare(args, m)
        title = f"side by side, {args.rounds} alternating rounds per level pooled"
    elif args.scale:
        rows = run_scale(args, m)
        title = f"scale-out: {args.scale_concurrency} concurrent conversations, PostgreSQL tracker store + records, " \
                "Redis lock store and rate limits"
    else:
        rows = run_levels(args, m)
        title = "load levels"
    m["loadavg_end"] = os.getloadavg()[0]
    print_table(rows, title)
    print(machine_line(m) + f", {m['loadavg_end']:.2f} at the end")
    if not args.scale:
        for line in verdict(rows):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": m, "think": args.think, "duration": args.duration,
                                               "title": title, "rows": rows}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
