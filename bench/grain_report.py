"""#11 "the grain asked": which rule leads a topic answer, measured on the dev sets (never the held-out ones).

For every message of tests/bot/nlu_dev*.yml whose gold intent names a topic, the gold topic is answered with
the message as the question, and the report counts how often the lead rule is from the gold topic or from
another one, without and with cross-topic ranking, for several margins (knowledge.rules.CROSS_MARGIN).
The town is the one the message names ("mequon"), else Dunkirk.

    PYTHONPATH=$PWD .venv/bin/python bench/grain_report.py [--sample 50]   # --sample prints a seeded sample
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from pathlib import Path

import yaml

from knowledge import load_town, rules

ROOT = Path(__file__).resolve().parents[1]
SPECIAL = {"notify_burn": "burn_notification"}


def messages():
    """(file, intent, text, topic) for every dev-set message whose intent names a topic."""
    towns = {k: load_town(k) for k in ("dunkirk", "mequon")}
    for path in sorted((ROOT / "tests" / "bot").glob("nlu_dev*.yml")):
        for block in yaml.safe_load(path.read_text())["nlu"]:
            intent = block.get("intent")
            key = SPECIAL.get(intent) or (intent[4:] if intent and intent.startswith("ask_") else None)
            if key not in towns["dunkirk"].topics:
                continue
            for line in block["examples"].splitlines():
                text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line.strip()[2:]).strip()
                if text:
                    town = "mequon" if "mequon" in text.lower() else "dunkirk"
                    yield path.name, intent, text, key, towns[town]


def run(rows, cross: bool, margin: float, floor: float):
    rules.CROSS_MARGIN, rules.CROSS_FLOOR = margin, floor
    out = Counter()
    picks = []
    for _, intent, text, key, town in rows:
        p = rules.pick(town, key, text, cross=cross)
        kind = "none" if p is None else "gold" if p.topic == key else "other"
        out[kind] += 1
        picks.append(p)
    return out, picks


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0)
    args = ap.parse_args()
    rows = list(messages())
    n = len(rows)
    print(f"{n} dev-set messages with a topic intent ({Counter(r[4].key for r in rows)})")
    base, plain = run(rows, cross=False, margin=rules.CROSS_MARGIN, floor=rules.CROSS_FLOOR)
    print(f"within the gold topic only: lead rule from gold topic {base['gold']} ({base['gold'] / n:.1%}), "
          f"no lead rule (topic not covered) {base['none']}")
    chosen = (rules.CROSS_MARGIN, rules.CROSS_FLOOR)
    for margin in (1.0, 1.5, 2.0, 3.0):
        for floor in (2.0, 3.0, 5.0):
            c, _ = run(rows, cross=True, margin=margin, floor=floor)
            mark = " <- chosen" if (margin, floor) == chosen else ""
            print(f"cross-topic, margin {margin}, floor {floor}: gold {c['gold']} ({c['gold'] / n:.1%}), "
                  f"other topic {c['other']} ({c['other'] / n:.1%}), none {c['none']}{mark}")
    counts, picks = run(rows, cross=True, margin=chosen[0], floor=chosen[1])
    moved = Counter((r[3], p.topic) for r, p in zip(rows, picks) if p is not None and p.topic != r[3])
    print("cross-topic moves at the chosen margin (gold -> lead topic):",
          ", ".join(f"{a}->{b} {k}" for (a, b), k in moved.most_common(12)))
    if args.sample:
        random.seed(11)
        for i in sorted(random.sample(range(n), args.sample)):
            f, intent, text, key, town = rows[i]
            p = picks[i]
            where = "-" if p is None else f"{p.topic}.{p.name}" + (" (cross)" if p.crossed else "")
            lead = "" if p is None else rules.lead_of(town, p.rule, __import__("datetime").date(2026, 12, 1))
            print(f"- {{i: {i}, town: {town.key}, intent: {intent}, q: {text!r}, rule: {where}}}\n    # {lead}")


if __name__ == "__main__":
    main()
