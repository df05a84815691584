"""The independent scenarios (tests/scenarios/independent.yml): loading them and checking an answer's text.

Each scenario: town, now, message, engine {call, args} or none, expect {answer: [regex all must match],
not: [regex none may match], cites: [section numbers the answer must cite]}; `disputed: "reason"` marks one whose
expectation we believe misreads the law (reported, not counted as a failure).
"""
from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path

import yaml

FILE = Path(__file__).with_name("independent.yml")


def load() -> list[dict]:
    return yaml.safe_load(FILE.read_text())


def now_of(scenario: dict) -> datetime:
    """The scenario's "now" as a naive datetime (the town's zone implied)."""
    value = scenario["now"]
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def problems(scenario: dict, text: str) -> list[str]:
    """What in ``text`` (the answer as the resident sees it) breaks the scenario's expectation; [] when none."""
    expect = scenario.get("expect") or {}
    out = [f"missing /{rx}/" for rx in expect.get("answer", []) if not re.search(rx, text)]
    out += [f"forbidden /{rx}/" for rx in expect.get("not", []) if re.search(rx, text)]
    out += [f"no citation of {ref}" for ref in expect.get("cites", []) if not cites(text, str(ref))]
    return out


def cites(text: str, ref: str) -> bool:
    """Is section ``ref`` ("7.02-3", "174.05", "58-533") named in the text, not as part of a longer number?"""
    return bool(re.search(r"(?<![\d.-])" + re.escape(ref) + r"(?![\d]|-\d|\.\d)", text))


def as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))
