"""data/COVERAGE.md lists a resident's question for every topic and topic rule of both towns."""
from __future__ import annotations

from pathlib import Path

import yaml

from bot.evaluate import coverage_rows

ROOT = Path(__file__).resolve().parents[2]
INTENTS = {list(i)[0] if isinstance(i, dict) else i
           for i in yaml.safe_load((ROOT / "bot/domain/intents.yml").read_text())["intents"]}


def test_every_topic_and_every_topic_rule_of_each_town_has_a_question():
    rows = coverage_rows(str(ROOT / "data/COVERAGE.md"))
    listed = {(r["town"], r["topic"], r["rule"]) for r in rows}
    missing = []
    for path in sorted((ROOT / "knowledge/towns").glob("*/topics.yml")):
        town = path.parent.name
        for key, topic in yaml.safe_load(path.read_text()).items():
            if (town, key, "") not in listed and ("both", key, "") not in listed:
                missing.append((town, key))
            for rule in (topic or {}).get("rules") or {}:
                if (town, key, rule) not in listed:
                    missing.append((town, key, rule))
    assert not missing


def test_every_listed_intent_is_one_of_the_bot_intents_and_in_the_label_guide():
    guide = (ROOT / "data/INTENTS.md").read_text()
    for row in coverage_rows(str(ROOT / "data/COVERAGE.md")):
        assert row["intent"] in INTENTS, row
        assert f"| {row['intent']} |" in guide, row
        assert row["question"], row
