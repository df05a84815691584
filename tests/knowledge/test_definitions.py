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

#: terms the code defines where it uses them, outside the definition sections: (term, paragraph, its words).
#: Found by reading both ordinances for "means", "shall mean", "includes", "deemed", "considered", "As used in",
#: "In this paragraph"; Mequon's (58-521 at large, 58-524 vicious) are reached through 58-516's entries (`see`).
IN_TEXT = {
    "dunkirk": [("supervision of a veterinarian", "7.02-5(d)(2)", 'In this paragraph, "supervision of a veterinarian" includes'),
                ("vicious", "7.02-6(b)(1)", "a dog shall be deemed as being of a vicious disposition if"),
                ("caged", "7.02-14(c)(1)", 'As used in this paragraph, "caged" does not include farm fencing'),
                ("at large", "7.02-6(c)(2)", "shall be considered to be running at large if")],
    "mequon": [("at large", "58-521(a)", '"At large" shall mean any animal off the premises of its owner'),
               ("vicious animal", "58-524(a)", "a domestic animal may be declared vicious if")],
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
    refs |= {ref for _, ref, _ in IN_TEXT[town_key]}
    for entry in {d.term: d for d in town.definitions.values()}.values():
        assert entry.citation.ref in refs, f"{entry.term!r} cites {entry.citation.ref}, which defines no term"


@pytest.mark.parametrize("town_key", sorted(IN_TEXT))
def test_every_term_defined_in_the_text_has_its_entry_quoting_it(town_key):
    """A term the code defines where it uses it ("vicious", 7.02-6(b)(1)) is answered with those words."""
    town = shared_town(town_key)
    for term, ref, words in IN_TEXT[town_key]:
        entry = town.definitions.get(term_key(term))
        assert entry is not None, f"{town_key}: {term!r} ({ref}) has no entry in definitions.yml"
        quoted = [c for c in (entry.citation, entry.see) if c is not None and c.ref.startswith(ref)]
        assert quoted and any(words in c.quote for c in quoted), f"{term!r}: {ref} is not quoted"
        answer = handlers.definition(town, term)
        assert answer.data["defined"] and any(c.ref.startswith(ref) for c in answer.citations)
