"""Benchmark of the Rasa layer against a plain `rasa init` assistant, in the same run (make bench).

Prints, for both: full training time (empty cache), REST-channel message latency p50/p95 sequential and
with 10 concurrent conversations, messages per second, errors, and peak memory (VmHWM) of the Rasa server
and the action server. Not a timed test. Targets (2-core machine): training <= 3 min; our p50/p95 within
1.3x of the plain assistant's; no errors under 10 concurrent conversations.

    .venv/bin/python bench/bot_bench.py [--messages 60] [--concurrency 10] [--per-conversation 12]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
QUESTIONS = [
    "how much is a dog license", "can i burn tonight", "is there a leash law", "what does 7.02-6 say",
    "how many dogs can i have", "my dog bit someone last tuesday how long is quarantine",
    "can i burn tires", "what time can i burn", "is there a burn ban", "hello", "thanks",
    "neighbors dog barks all night", "do i have to pick up after my dog", "can i keep chickens",
    "what can you do", "can i burn brush tomorrow at 3", "cancel",
]


def env_for(extra: dict | None = None) -> dict:
    env = dict(os.environ, RASA_TELEMETRY_ENABLED="false", PYTHONPATH=str(ROOT), SQLALCHEMY_SILENCE_UBER_WARNING="1",
               TF_CPP_MIN_LOG_LEVEL="3")
    env.update(extra or {})
    return env


def timed(cmd: list[str], cwd: Path, env: dict, log: Path) -> float:
    t0 = time.perf_counter()
    with open(log, "w") as f:
        subprocess.run(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT, check=True)
    return time.perf_counter() - t0


def wait_for(url: str, timeout: float = 240) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status < 500:
                    return
        except Exception:
            time.sleep(1)
    raise RuntimeError(f"{url} did not come up")


def post(port: int, sender: str, text: str) -> tuple[float, bool]:
    body = json.dumps({"sender": sender, "message": text}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/webhooks/rest/webhook", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            ok = r.status == 200 and isinstance(json.loads(r.read()), list)
    except Exception:
        ok = False
    return time.perf_counter() - t0, ok


def peak_kb(pid: int) -> int:
    """VmHWM of a process and its children, in kB."""
    total = 0
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(p) for p in out]
    except Exception:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def measure(name: str, port: int, n_seq: int, conc: int, per_conv: int) -> dict:
    for i in range(3):  # warm-up
        post(port, f"warm-{name}-{i}", QUESTIONS[i])
    seq, errors = [], 0
    t0 = time.perf_counter()
    for i in range(n_seq):
        lat, ok = post(port, f"seq-{name}-{i // 6}", QUESTIONS[i % len(QUESTIONS)])
        seq.append(lat)
        errors += not ok
    seq_wall = time.perf_counter() - t0
    conc_lat: list[float] = []
    conc_err = [0]
    lock = threading.Lock()

    def conversation(c: int) -> None:
        for j in range(per_conv):
            lat, ok = post(port, f"conc-{name}-{c}", QUESTIONS[(c + j) % len(QUESTIONS)])
            with lock:
                conc_lat.append(lat)
                conc_err[0] += not ok

    threads = [threading.Thread(target=conversation, args=(c,)) for c in range(conc)]
    t1 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conc_wall = time.perf_counter() - t1
    return {"seq_p50": pct(seq, 0.5) * 1000, "seq_p95": pct(seq, 0.95) * 1000, "seq_mps": n_seq / seq_wall,
            "seq_errors": errors, "conc_p50": pct(conc_lat, 0.5) * 1000, "conc_p95": pct(conc_lat, 0.95) * 1000,
            "conc_mps": len(conc_lat) / conc_wall, "conc_errors": conc_err[0]}


def port_free(port: int) -> bool:
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


class Servers:
    def __init__(self, cwd: Path, model: Path, rasa_port: int, action_port: int, env: dict, endpoints: Path | None,
                 actions_module: str, logdir: Path, name: str):
        for port in (rasa_port, action_port):
            if not port_free(port):
                raise RuntimeError(f"port {port} is in use; stop what uses it or edit the bench ports")
        aenv = dict(env, SANIC_HOST="127.0.0.1")
        self.actions = subprocess.Popen([str(BIN / "rasa"), "run", "actions", "--actions", actions_module, "--port",
                                         str(action_port)], cwd=cwd, env=aenv, start_new_session=True,
                                        stdout=open(logdir / f"{name}-actions.log", "w"), stderr=subprocess.STDOUT)
        cmd = [str(BIN / "rasa"), "run", "--model", str(model), "--interface", "127.0.0.1", "--port", str(rasa_port)]
        if endpoints:
            cmd += ["--endpoints", str(endpoints)]
        self.rasa = subprocess.Popen(cmd, cwd=cwd, env=dict(env, ACTION_PORT=str(action_port)),
                                     start_new_session=True, stdout=open(logdir / f"{name}-rasa.log", "w"),
                                     stderr=subprocess.STDOUT)
        wait_for(f"http://127.0.0.1:{action_port}/health")
        wait_for(f"http://127.0.0.1:{rasa_port}/status" if False else f"http://127.0.0.1:{rasa_port}/")

    def peaks(self) -> tuple[int, int]:
        return peak_kb(self.rasa.pid), peak_kb(self.actions.pid)

    def stop(self) -> None:
        for p in (self.rasa, self.actions):
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except Exception:
                pass


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=60)
    ap.add_argument("--concurrency", type=int, default=10)
    ap.add_argument("--per-conversation", type=int, default=12)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    logdir = work / "logs"
    logdir.mkdir()
    results = {}
    try:
        # ours: full training with an empty cache
        env = env_for({"RASA_CACHE_DIRECTORY": str(work / "cache-ours"),
                       "DATABASE_URL": f"sqlite:///{work / 'bench.db'}", "TOWN": os.environ.get("TOWN", "dunkirk")})
        subprocess.run([str(BIN / "python"), "-m", "bot.spacy_build"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t_ours = timed([str(BIN / "rasa"), "train", "--domain", "bot/domain", "--config", "bot/config.yml",
                        "--data", "data", "--out", str(work / "models"), "--fixed-model-name", "ours"],
                       ROOT, env, logdir / "train-ours.log")
        # plain: rasa init (untrained), then full training with an empty cache
        # the project `rasa init` writes (its template, copied without the automatic training)
        import rasa.cli
        plain = work / "plain"
        shutil.copytree(Path(rasa.cli.__file__).parent / "initial_project", plain)
        penv = env_for({"RASA_CACHE_DIRECTORY": str(work / "cache-plain")})
        t_plain = timed([str(BIN / "rasa"), "train", "--out", "models", "--fixed-model-name", "plain"], plain, penv,
                        logdir / "train-plain.log")
        print(f"full training (empty cache): ours {t_ours:.0f} s; plain rasa init {t_plain:.0f} s", flush=True)

        for name, srv_args in (
                ("ours", dict(cwd=ROOT, model=work / "models" / "ours.tar.gz", rasa_port=5305, action_port=5355,
                              env=env, endpoints=ROOT / "bot" / "endpoints.yml", actions_module="actions")),
                ("plain", dict(cwd=plain, model=plain / "models" / "plain.tar.gz", rasa_port=5405, action_port=5455,
                               env=penv, endpoints=plain / "endpoints.yml", actions_module="actions"))):
            srv = Servers(logdir=logdir, name=name, **srv_args)
            try:
                r = measure(name, srv_args["rasa_port"], args.messages, args.concurrency, args.per_conversation)
                r["rasa_peak_mb"], r["actions_peak_mb"] = (v / 1024 for v in srv.peaks())
                results[name] = r
            finally:
                srv.stop()
        results["train_s"] = {"ours": t_ours, "plain": t_plain}
        o, p = results["ours"], results["plain"]
        print(f"{'':28s}{'ours':>12s}{'plain':>12s}{'ratio':>8s}")
        for key, label in (("seq_p50", "sequential p50 (ms)"), ("seq_p95", "sequential p95 (ms)"),
                           ("seq_mps", "sequential msg/s"), ("conc_p50", f"{args.concurrency} concurrent p50 (ms)"),
                           ("conc_p95", f"{args.concurrency} concurrent p95 (ms)"), ("conc_mps", "concurrent msg/s"),
                           ("seq_errors", "errors sequential"), ("conc_errors", "errors concurrent"),
                           ("rasa_peak_mb", "Rasa server peak MB"), ("actions_peak_mb", "action server peak MB")):
            ratio = o[key] / p[key] if p[key] else float("nan")
            print(f"{label:28s}{o[key]:12.1f}{p[key]:12.1f}{ratio:8.2f}")
        verdicts = [
            ("full training <= 180 s", t_ours <= 180),
            ("p50 within 1.3x of plain", o["seq_p50"] <= 1.3 * p["seq_p50"] and o["conc_p50"] <= 1.3 * p["conc_p50"]),
            ("p95 within 1.3x of plain", o["seq_p95"] <= 1.3 * p["seq_p95"] and o["conc_p95"] <= 1.3 * p["conc_p95"]),
            ("no errors under concurrency", o["conc_errors"] == 0 and o["seq_errors"] == 0),
        ]
        for label, ok in verdicts:
            print(f"{'MET ' if ok else 'MISSED '} {label}")
        (ROOT / "results").mkdir(exist_ok=True)
        (ROOT / "results" / "bot_bench.json").write_text(json.dumps(results, indent=2))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"work directory kept: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
