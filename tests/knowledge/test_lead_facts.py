"""The lead-fact labels (tests/bot/lead_facts.yml), read by the engine alone: asked under its dev-set intent,
each question's topic answer must lead with the fact the ordinance gives (bar: 95% of the labels; the
channel bench, bench/answer_report.py, measures the same labels through the NLU)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import yaml

from knowledge import handlers, town as shared_town

LABELS = Path(__file__).resolve().parents[1] / "bot" / "lead_facts.yml"


def test_the_labels_are_many_and_well_formed():
    labels = yaml.safe_load(LABELS.read_text())
    assert len(labels) >= 150
    for label in labels:
        assert set(label) == {"town", "question", "intent", "fact", "why"}, label
        re.compile(label["fact"])


def test_topic_answers_lead_with_the_ordinance_fact():
    towns = {k: shared_town(k) for k in ("dunkirk", "mequon")}
    labels = yaml.safe_load(LABELS.read_text())
    missed = []
    for label in labels:
        key = "burn_notification" if label["intent"] == "notify_burn" else label["intent"][4:]
        lead = handlers.topic(towns[label["town"]], key, on=date(2026, 5, 1), question=label["question"]).lead
        if not re.search(label["fact"], lead):
            missed.append((label["question"], label["fact"], lead))
    assert len(missed) <= 0.05 * len(labels), missed
