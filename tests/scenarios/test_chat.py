"""The independent scenarios through the whole dialogue (run_chat.py), with the trained model: `make test` runs
it (marked stack), `make check` does not."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "ordinance.tar.gz"


@pytest.mark.stack
@pytest.mark.skipif(not MODEL.exists(), reason="needs the trained model (make train)")
def test_every_independent_scenario_is_answered_right_through_the_chat():
    done = subprocess.run([sys.executable, "-m", "tests.scenarios.run_chat", "--model", str(MODEL)], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600, env={**__import__("os").environ,
                                                                            "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]
