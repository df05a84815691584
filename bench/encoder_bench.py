"""The sentence encoder's cost per message on one core, beside the rest of the NLU pipeline, and its memory.

    .venv/bin/python bench/encoder_bench.py [--model models/ordinance.tar.gz] [--reference OTHER.tar.gz]
        [--messages 300] [--cpu 1] [--backends int8,onnx,tf] [--pipeline-cpus]

Pinned to one CPU (sched_setaffinity; ONNX Runtime and TensorFlow on one thread), it prints:
- the encoder alone, per message (texts of tests/bot/nlu_dev*.yml, each new to the cache): the int8 ONNX
  network that serves, the float32 ONNX file and the TensorFlow reference; p50/p95 of wall and CPU time;
- in the same run, the trained model's NLU pipeline on the same messages, component by component (the graph
  nodes timed one by one): the spaCy tokenizer, normaliser, sparse featurisers and DIET beside the encoder's
  ranker, so the encoder's share of a parse is measured, not guessed;
- memory: peak RSS of a bare Python with numpy and tokenizers, and of one that loads the encoder (each backend)
  and encodes one sentence, each in its own process: what the action server would add by importing it.
Target (issue #21): at most 10 ms per message on one core.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_NUM_INTRAOP_THREADS", "1")
os.environ.setdefault("TF_NUM_INTEROP_THREADS", "1")

MEMORY_PROBE = r"""
import os, sys
sys.path.insert(0, sys.argv[2])
import numpy, tokenizers
if sys.argv[1] != "bare":
    from bot.encoder import get_encoder
    get_encoder(sys.argv[1]).encode("can I burn leaves in my yard tonight")
status = open(f"/proc/{os.getpid()}/status").read()
field = lambda k: int(status.split(k + ":")[1].split()[0]) / 1024
print(field("VmRSS"), field("VmHWM"))
"""


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def dev_texts(n):
    import yaml

    texts = []
    for path in sorted((ROOT / "tests" / "bot").glob("nlu_dev*.yml")):
        for block in yaml.safe_load(path.read_text())["nlu"]:
            for line in block.get("examples", "").splitlines():
                line = line.strip()
                if line.startswith("- "):
                    texts.append(line[2:])
    seen, unique = set(), []
    for t in texts:
        plain = t.replace("[", "").replace("]", "")
        if plain not in seen:
            seen.add(plain)
            unique.append(plain)
    return unique[:n]


def time_encoder(backend, texts):
    from bot.encoder import Encoder

    t0 = time.perf_counter()
    enc = Encoder(backend, cache_size=len(texts) + 10)
    load = time.perf_counter() - t0
    for t in texts[:10]:
        enc._run([t])
    wall, cpu = [], []
    for t in texts:
        w, c = time.perf_counter(), time.process_time()
        enc.encode(t)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    hit = []
    for t in texts[:100]:
        w = time.perf_counter()
        enc.encode(t)
        hit.append(time.perf_counter() - w)
    return load, wall, cpu, hit


def load_timed_agent(model):
    """The model's agent with every NLU graph node timed (CPU of the whole process: the encoder's prefetch
    thread counts)."""
    from rasa.core.agent import Agent
    from rasa.utils.common import configure_logging_and_warnings
    from rasa.utils.log_utils import configure_structlog

    configure_logging_and_warnings(logging.WARNING)
    configure_structlog(logging.WARNING)
    agent = Agent.load(model)
    times = defaultdict(list)
    for name, node in agent.processor.graph_runner._instantiated_nodes.items():
        if not name.startswith("run_") or node._fn_name != "process":
            continue

        def timed(component, _fn=node._fn, _name=name[len("run_"):], **kwargs):
            c = time.process_time()
            out = _fn(component, **kwargs)
            times[_name].append(time.process_time() - c)
            return out

        node._fn = timed
    return agent, times


def time_pipelines(models, texts):
    """Each model's NLU parse of each message, the models alternating message by message (so that load from
    elsewhere falls on both): per model, node times, CPU and wall time per parse."""
    agents = [load_timed_agent(m) for m in models]
    for agent, times in agents:
        for t in texts[:10]:
            asyncio.run(agent.parse_message(t))
        times.clear()
    cpu = [[] for _ in models]
    wall = [[] for _ in models]
    for t in texts:
        for i, (agent, _) in enumerate(agents):
            c, w = time.process_time(), time.perf_counter()
            asyncio.run(agent.parse_message(t))
            cpu[i].append(time.process_time() - c)
            wall[i].append(time.perf_counter() - w)
    return [(times, cpu[i], wall[i]) for i, (_, times) in enumerate(agents)]


def memory(backend):
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, backend, str(ROOT)], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if out.returncode:
        return None, None
    rss, peak = out.stdout.split()[-2:]
    return float(rss), float(peak)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=str(ROOT / "models" / "ordinance.tar.gz"))
    ap.add_argument("--messages", type=int, default=300)
    ap.add_argument("--cpu", type=int, default=None, help="the CPU to run on (default: the last one)")
    ap.add_argument("--backends", default="int8,onnx,tf")
    ap.add_argument("--reference", help="a second model (e.g. one trained without the encoder) timed beside it")
    ap.add_argument("--pipeline-cpus", action="store_true", help="time the pipelines on all CPUs (the encoder's "
                    "prefetch thread then runs beside DIET), not on one")
    args = ap.parse_args(argv)
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    texts = dev_texts(args.messages)
    print(f"{len(texts)} messages of the dev sets, one CPU ({cpu}), one thread; load average "
          f"{os.getloadavg()[0]:.2f} at the start", flush=True)
    results = {}
    print(f"{'encoder alone, per message':34s}{'wall p50':>9s}{'p95':>7s}{'cpu p50':>9s}{'p95':>7s}  load   cache hit p50")
    for backend in args.backends.split(","):
        load, wall, cpu_t, hit = time_encoder(backend, texts)
        results[backend] = {"wall_p50_ms": pct(wall, .5) * 1e3, "wall_p95_ms": pct(wall, .95) * 1e3,
                            "cpu_p50_ms": pct(cpu_t, .5) * 1e3, "cpu_p95_ms": pct(cpu_t, .95) * 1e3, "load_s": load}
        r = results[backend]
        print(f"  {backend:32s}{r['wall_p50_ms']:9.2f}{r['wall_p95_ms']:7.2f}{r['cpu_p50_ms']:9.2f}{r['cpu_p95_ms']:7.2f}"
              f"  {load:4.1f} s {pct(hit, .5) * 1e6:6.1f} us", flush=True)
    models = [m for m in [args.model] + ([args.reference] if args.reference else []) if Path(m).exists()]
    if models:
        if args.pipeline_cpus:
            os.sched_setaffinity(0, set(range(os.cpu_count())))
        where = "all CPUs" if args.pipeline_cpus else f"CPU {cpu}"
        for model, (times, total, wall) in zip(models, time_pipelines(models, texts)):
            print(f"the NLU pipeline of {model} on the same messages ({where}), per message (ms):")
            print(f"  {'whole parse, wall':32s} p50 {pct(wall, .5) * 1e3:6.2f}  p95 {pct(wall, .95) * 1e3:6.2f}")
            print(f"  {'whole parse, CPU':32s} p50 {pct(total, .5) * 1e3:6.2f}  p95 {pct(total, .95) * 1e3:6.2f}")
            r = results.setdefault("pipeline", {})[model] = {
                "parse_wall_p50_ms": pct(wall, .5) * 1e3, "parse_cpu_p50_ms": pct(total, .5) * 1e3,
                "parse_cpu_p95_ms": pct(total, .95) * 1e3}
            for name, values in sorted(times.items(), key=lambda kv: -statistics.median(kv[1])):
                r[name] = pct(values, .5) * 1e3
                print(f"  {name:32s} p50 {pct(values, .5) * 1e3:6.2f}  p95 {pct(values, .95) * 1e3:6.2f}")
    print("memory of a process (MB): RSS after encoding one sentence, peak")
    bare = memory("bare")
    print(f"  {'python + numpy + tokenizers':32s}{bare[0]:7.0f}{bare[1]:7.0f}")
    results["memory_mb"] = {"bare": bare}
    for backend in args.backends.split(","):
        rss, peak = memory(backend)
        results["memory_mb"][backend] = (rss, peak)
        print(f"  {'+ encoder ' + backend:32s}{rss:7.0f}{peak:7.0f}   (+{rss - bare[0]:.0f}, peak +{peak - bare[1]:.0f})")
    (ROOT / "results").mkdir(exist_ok=True)
    (ROOT / "results" / "encoder_bench.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
