"""Print the held-out NLU figures from a `rasa test nlu` output directory.

    python -m bot.evaluate results/heldout
    python -m bot.evaluate --intent-only results/dev3a   (dev sets without entity annotations)
    python -m bot.evaluate --model models/ordinance.tar.gz tests/bot/nlu_dev.yml results/typos/nlu_dev_typos.yml

The --model form loads the model once and prints the intent accuracy of each NLU file (or data/COVERAGE.md) (the top intent other
than nlu_fallback, as `rasa test nlu` scores it) and its three weakest intents: many sets in one run.

Bars (issue 3): intent accuracy >= 95 %, entity F1 >= 90 % (micro average over entity types, of the
RulerEntityExtractor: the entities the bot actually uses). Exit status 1 when a bar is missed.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    intent_only = "--intent-only" in args
    args = [a for a in args if a != "--intent-only"]
    if args and args[0] == "--model":
        bars = "--bars" in args
        return intent_accuracy_of_sets(args[1], [a for a in args[2:] if a != "--bars"], bars)
    out = Path((args or ["results/heldout"])[0])
    intents = json.loads((out / "intent_report.json").read_text())
    acc = intents["accuracy"]
    print(f"intent accuracy: {acc:.1%} (weighted F1 {intents['weighted avg']['f1-score']:.3f})")
    worst = sorted(((k, v) for k, v in intents.items() if isinstance(v, dict) and "support" in v
                    and k not in ("micro avg", "macro avg", "weighted avg")), key=lambda kv: kv[1]["f1-score"])
    for k, v in worst[:3 if intent_only else 8]:
        print(f"  {k:32s} f1 {v['f1-score']:.2f}  support {v['support']}")
    if intent_only:  # a dev set: figures only, no bar
        return 0
    ok = acc >= 0.95
    reports = sorted(out.glob("*Extractor_report.json"))
    for r in reports:
        ents = json.loads(r.read_text())
        micro = ents.get("micro avg") or ents.get("weighted avg")
        f1 = micro["f1-score"]
        print(f"entity F1 ({r.name.replace('_report.json', '')}): {f1:.1%} "
              f"(precision {micro['precision']:.1%}, recall {micro['recall']:.1%})")
        for k, v in sorted(ents.items()):
            if isinstance(v, dict) and "support" in v and k not in ("micro avg", "macro avg", "weighted avg"):
                print(f"  {k:14s} f1 {v['f1-score']:.2f}  p {v['precision']:.2f}  r {v['recall']:.2f}  "
                      f"support {v['support']}")
        ok = ok and f1 >= 0.90
    if not reports:
        print("no entity report found")
        ok = False
    print("bars met" if ok else "BARS NOT MET (intent accuracy >= 95%, entity F1 >= 90%)")
    return 0 if ok else 1


def coverage_rows(path: str = "data/COVERAGE.md") -> list:
    """The rows of data/COVERAGE.md's table as dicts: town, topic, rule, question, intent."""
    rows = []
    for line in Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and cells[0] not in ("town", "---"):
            rows.append(dict(zip(("town", "topic", "rule", "question", "intent"), cells)))
    return rows


def coverage_questions(path: str) -> list:
    return [(r["question"], r["intent"]) for r in coverage_rows(path)]


def intent_accuracy_of_sets(model: str, files: list, bars: bool = False) -> int:
    """Print intent accuracy and the weakest intents (by F1) of each NLU file, one model load. With bars
    (held-out sets): 95 % for a clean set, 90 % for a misspelled one (*_typos.yml); exit 1 when one is missed."""
    import asyncio
    from collections import Counter

    import logging

    from rasa.core.agent import Agent
    from rasa.shared.nlu.training_data.loading import load_data
    from rasa.utils.common import configure_logging_and_warnings
    from rasa.utils.log_utils import configure_structlog

    configure_logging_and_warnings(logging.WARNING)
    configure_structlog(logging.WARNING)  # no per-message debug lines among the figures

    agent = Agent.load(model)
    ok = True
    for path in files:
        if path.endswith(".md"):
            examples = coverage_questions(path)
        else:
            examples = [(m.get("text"), m.get("intent")) for m in load_data(path).intent_examples]
        right, tp, fp, fn = 0, Counter(), Counter(), Counter()
        for text, gold in examples:
            parsed = asyncio.run(agent.parse_message(text))
            ranking = [r["name"] for r in parsed.get("intent_ranking", []) if r["name"] != "nlu_fallback"]
            got = ranking[0] if ranking else None
            if got == gold:
                right += 1
                tp[gold] += 1
            else:
                fn[gold] += 1
                fp[got] += 1
        f1 = {i: 2 * tp[i] / (2 * tp[i] + fp[i] + fn[i]) for i in set(tp) | set(fn)}
        weakest = ", ".join(f"{i} {f:.2f}" for i, f in sorted(f1.items(), key=lambda kv: kv[1])[:3])
        acc = right / len(examples)
        bar = ""
        if bars:
            need = 0.90 if path.endswith("_typos.yml") else 0.95
            bar = f"  bar {need:.0%} {'met' if acc >= need else 'NOT MET'}"
            ok = ok and acc >= need
        print(f"{Path(path).stem} ({len(examples)} examples): intent accuracy {acc:.1%}{bar}"
              f"  weakest: {weakest}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
