"""The figures: percentiles, one row per configuration and level, the tables, the bars, pooling the rounds of
--compare, and --summary of earlier --json files."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from .residents import Result

BAR_LEVEL, BAR_P95 = 20, 1.0


def machine_line(m: dict) -> str:
    return (f"machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram_gb']} GB RAM, "
            f"1-min load average {m['loadavg']:.2f} at start")


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
