"""The rule-based spaCy pipeline (bot/spacy_build.py) and RulerEntityExtractor's tidy-up, without Rasa."""
from __future__ import annotations

import pytest

spacy = pytest.importorskip("spacy")

from bot.components import tidy  # noqa: E402
from bot.spacy_build import build  # noqa: E402


@pytest.fixture(scope="module")
def nlp(tmp_path_factory):
    out = tmp_path_factory.mktemp("spacy") / "pipeline"
    build(out)
    return spacy.load(out)


def ents(nlp, text):
    return [(e["entity"], e["value"]) for e in tidy(nlp(text))]


@pytest.mark.parametrize("text, expected", [
    ("i have 2 dogs and a cat", [("count", "2"), ("animal", "dogs"), ("count", "a"), ("animal", "cat")]),
    ("three spayed dogs", [("count", "three"), ("neutered", "spayed"), ("animal", "dogs")]),
    ("how much is a dog license", []),
    ("can i burn brush tomorrow at 3", [("material", "brush"), ("when", "tomorrow at 3")]),
    ("can i burn tonight at 10pm", [("when", "tonight at 10pm")]),
    ("my dog bit someone last Tuesday", [("animal", "dog"), ("incident", "bit"), ("when", "last Tuesday")]),
    ("what does 7.02-6 say", [("section", "7.02-6")]),
    ("section 58-527", [("section", "58-527")]),
    ("my seeing eye dog isn't fixed", [("service_dog", "seeing eye dog"), ("neutered", "n't fixed")]),
    ("he is not vaccinated", [("vaccinated", "not vaccinated")]),
    ("his rabies isnt current", [("vaccinated", "rabies isnt current")]),
    ("my dog license is not current", []),  # a lapsed license is not a lapsed shot
    ("my burn permit isnt current", []),
    ("what if i cant find his rabies papers", [("vaccinated", "cant find his rabies papers")]),
    ("leaves in May", [("material", "leaves"), ("when", "in May")]),
    ("on March 3", [("when", "on March 3")]),
    ("2", [("count", "2")]),
    ("my number is 608-555-0142", []),
])
def test_entities(nlp, text, expected):
    assert ents(nlp, text) == expected


def test_patterns_come_from_the_knowledge_base():
    from bot.spacy_build import kb_sections
    numbers = kb_sections()
    assert "7.02-6" in numbers and "58-527" in numbers and "7.12" in numbers
