"""The independent conversations (tests/scenarios/dialogues.yml, written by a separate author from the ordinances,
REFERENCE.md and data/INTENTS.md only, never tuned on) through the real stack: Rasa, the action server and the web
front as processes, web turns through the chat API and SMS turns through the signed webhook (run_dialogues.py).
`make test` runs it (marked stack); the development set (dialogues_dev.yml) is run by hand while working."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "ordinance.tar.gz"
#: conversations whose last answer holds the expected fact when this was measured; fewer is a regression (a model
#: trained afresh in CI is not bit-identical: TensorFlow's threads on CPU). #20's bar is 90 % of the set.
FLOOR = 190  # measured 200/275 through the stack on 2026-12-02 (182 at the start of that session, 173 first)


@pytest.mark.stack
@pytest.mark.skipif(not MODEL.exists(), reason="needs the trained model (make train)")
def test_independent_conversations_hold_the_expected_fact_through_the_stack():
    done = subprocess.run([sys.executable, "-m", "tests.scenarios.run_dialogues", "tests/scenarios/dialogues.yml"],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    m = re.search(r"^dialogues: (\d+)/(\d+) passed", done.stdout, re.M)
    assert m, done.stdout[-5000:] + done.stderr[-3000:]
    assert int(m.group(1)) >= FLOOR, done.stdout[-20000:]
