"""The user lines of tests/bot/test_stories.yml through the trained model: intent and entities as labelled.

`rasa test core` replays the labelled intents; this checks that the model really reads those words that way.
Needs the trained model (make train); skipped without it.
"""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.stack
ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "ordinance.tar.gz"
ANNOT = re.compile(r"\[([^\]]+)\]\(([a-z_]+)\)")


def story_lines():
    data = yaml.safe_load((ROOT / "tests" / "bot" / "test_stories.yml").read_text())
    seen = set()
    for story in data["stories"]:
        for step in story["steps"]:
            if "user" in step:
                key = (step["user"].strip(), step["intent"])
                if key not in seen:
                    seen.add(key)
                    yield key


@pytest.fixture(scope="module")
def agent():
    if not MODEL.exists():
        pytest.skip("no trained model: run `make train`")
    from rasa.core.agent import Agent
    return Agent.load(str(MODEL))


def test_story_user_lines_parse_as_labelled(agent):
    wrong = []
    for annotated, intent in story_lines():
        text = ANNOT.sub(r"\1", annotated)
        expected = sorted((m.group(2), m.group(1).lower()) for m in ANNOT.finditer(annotated))
        parsed = asyncio.run(agent.parse_message(text))
        got_intent = parsed["intent"]["name"]
        got = sorted((e["entity"], text[e["start"]:e["end"]].lower()) for e in parsed["entities"])
        if got_intent != intent or got != expected:
            wrong.append(f"{text!r}: intent {got_intent} (want {intent}), entities {got} (want {expected})")
    assert not wrong, "\n".join(wrong)
