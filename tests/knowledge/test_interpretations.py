"""docs/interpretations.md is generated from the notes beside the law (tools/interpretations.py): a note edited
without regenerating the file fails here, saying which command to run."""

from datetime import date

import pytest

import knowledge
from knowledge import render
from knowledge.handlers import lookup
from tools import interpretations


def test_the_committed_interpretations_are_what_the_notes_give():
    committed = interpretations.OUT.read_text(encoding="utf-8")
    assert committed == interpretations.render(), (
        f"docs/interpretations.md is not what the notes in knowledge/ give: run `{interpretations.COMMAND}` "
        "(python -m tools.interpretations) and commit the result")


def test_every_kind_of_note_reaches_the_interpretations():
    text = interpretations.render()
    for words in ("A bare clock hour",                       # knowledge/state/notes.yml
                  "Wis. Stat. 174.053 and 174.055 wording",  # a state parameter's note
                  "Chickens in Dunkirk",                     # a town.yml note
                  "Exactly 40 feet from a building",         # a town parameter's note
                  "An order covering part of a day",         # a topic rule's note
                  "Off leash in a Mequon park"):             # another town's rule
        assert words in text, words


@pytest.mark.parametrize("key", knowledge.town_keys())
def test_no_note_is_said_in_a_topic_answer(key):
    """A rule's or a town's note is for the people who keep the data, never words of an answer."""
    town = knowledge.town(key)
    notes = [r.note for t in town.topics.values() for r in t.rules.values() if r.note]
    notes += [n.note for n in town.notes]
    assert notes
    for topic in town.topics:
        said = render.text(lookup.topic(town, topic, on=date(2026, 6, 1)))
        for note in notes:
            assert note[:60] not in said, (topic, note)
