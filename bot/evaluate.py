"""Print the held-out NLU figures from a `rasa test nlu` output directory.

    python -m bot.evaluate results/heldout
    python -m bot.evaluate --intent-only results/dev3a   (dev sets without entity annotations)

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


if __name__ == "__main__":
    sys.exit(main())
