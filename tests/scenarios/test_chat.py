"""The independent scenarios through the whole dialogue (run_chat.py), with the trained model: `make test` runs
it (marked stack), `make check` does not."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "ordinance.tar.gz"
#: scenarios answered right through the chat when this was measured (#10); fewer is a regression. The failures
#: left are listed by the runner (mostly intents the NLU misreads; see the #10 report).
FLOOR = 102  # measured 106/106 on 2026-12-01 (stop 18; 99 at stop 17, 84 at stop 16);
#            below it: a model trained afresh (CI) is not bit-identical (TensorFlow's threads on CPU)


@pytest.mark.stack
@pytest.mark.skipif(not MODEL.exists(), reason="needs the trained model (make train)")
def test_every_independent_scenario_is_answered_right_through_the_chat():
    done = subprocess.run([sys.executable, "-m", "tests.scenarios.run_chat", "--model", str(MODEL)], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600, env={**__import__("os").environ,
                                                                            "PYTHONPATH": str(ROOT)})
    m = re.search(r"^chat: (\d+)/(\d+) passed", done.stdout, re.M)
    assert m, done.stdout[-5000:] + done.stderr[-3000:]
    assert int(m.group(1)) >= FLOOR, done.stdout[-20000:]
