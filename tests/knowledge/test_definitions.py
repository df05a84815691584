"""Every term either town's code defines has exactly one entry in its definitions.yml, and each answers."""

from __future__ import annotations

import re

import pytest

from knowledge import handlers, town as shared_town
from knowledge.model import term_key

#: where each town's code defines terms: (section, paragraph pattern) and how the term is printed there
DEFINING = {
    "dunkirk": [("7.02-1", r"^\(b\)\(\d+\)$", r'^\(\d+\) ["“]([^"”]+)["”]'),
                ("7.09", r"^\(\d+\)$", r'^\(\d+\) ["“]([^"”]+)["”]')],
    "mequon": [("58-516", r"^\[[^\]]+\]$", r"^\[([^\]]+)\]$")],
}


def _defined_terms(town_key: str) -> list[tuple[str, str]]:
    town = shared_town(town_key)
    out = []
    for number, path_pattern, term_pattern in DEFINING[town_key]:
        for p in town.sections[number].paragraphs:
            if re.match(path_pattern, p.path):
                source = p.path if term_pattern.startswith(r"^\[") else p.text
                out.append((re.match(term_pattern, source).group(1), f"{number}{p.path}"))
    return out


@pytest.mark.parametrize("town_key", sorted(DEFINING))
def test_every_defined_term_has_its_entry(town_key):
    town = shared_town(town_key)
    terms = _defined_terms(town_key)
    assert len(terms) >= 11
    for term, ref in terms:
        entry = town.definitions.get(term_key(term))
        assert entry is not None, f"{town_key}: {term!r} ({ref}) has no entry in definitions.yml"
        assert entry.citation.ref == ref, f"{term!r} cites {entry.citation.ref}, defined in {ref}"
        answer = handlers.definition(town, term)
        assert answer.data["defined"] and answer.citations[0].ref == ref
        assert entry.citation.quote in answer.result


@pytest.mark.parametrize("town_key", sorted(DEFINING))
def test_entries_quote_a_defining_paragraph(town_key):
    """No entry cites anything but a definition (or a paragraph that defines a term in its own words)."""
    town = shared_town(town_key)
    refs = {ref for _, ref in _defined_terms(town_key)}
    for entry in {d.term: d for d in town.definitions.values()}.values():
        assert entry.citation.ref in refs or "means" in entry.citation.quote or "includes" in entry.citation.quote
