"""What the assistant offers before any question comes from knowledge/offer.yml and what the town covers (#23)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from knowledge import offer, town as shared_town

CATALOGUE = yaml.safe_load((Path(offer.__file__).with_name("topics.yml")).read_text())


def test_every_offer_names_a_topic_of_the_catalogue():
    data = yaml.safe_load(offer.OFFER.read_text())
    for kind in ("subjects", "services", "starters", "examples"):
        for entry in data[kind]:
            assert entry["topic"] in CATALOGUE, (kind, entry)


@pytest.mark.parametrize("key", ["dunkirk", "mequon"])
def test_each_town_is_offered_only_topics_its_code_covers(key):
    t = shared_town(key)
    data = yaml.safe_load(offer.OFFER.read_text())
    offered = {e["ask"]: e["topic"] for e in data["starters"] + data["examples"]}
    for ask in [s.ask for s in offer.starters(t)] + offer.examples(t):
        assert t.topics[offered[ask]].covered, ask
    assert len(offer.starters(t)) == 4


def test_mequon_whose_code_has_no_burning_rules_is_offered_no_burning():
    t = shared_town("mequon")
    words = " ".join([offer.greeting(t), offer.sms_help(t, "the Clerk", "the fire department"),
                      offer.unavailable(t, "the fire department"), offer.subjects(t)]
                     + [s.title + s.ask for s in offer.starters(t)] + offer.examples(t))
    assert "burn" not in words.lower()
    assert offer.greeting(t) == ("Hello! I answer questions about the City of Mequon's animal ordinances. Type a "
                                 "question or choose a topic.")
