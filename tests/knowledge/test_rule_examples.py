"""Rules' and definitions' `examples:` (knowledge/DATA.md): residents' questions each lead answers, for ranking
rules by meaning. Every lead-bearing rule and every definition has 3 to 6; a malformed list fails at load; a
rule's examples tell it apart from its sibling rules; and the BM25 ranking does not read them.

Distinctiveness is checked with BM25 (bm25s) within each topic of two or more lead-bearing rules, each rule a
document, each of its examples a query that must score its own rule above every sibling:

- ``in_sample``: documents are the rules' examples (the example asked is in its own rule's document): an
  example that still ranks to a sibling reads as that sibling's question;
- ``held_out``: the example asked is left out of its rule's document, so it must look like its rule's other
  examples rather than the siblings' ones: a lexical proxy for meaning, low where the examples are paraphrases
  sharing no word ("moved", "adopted", "bought" a dog);
- ``held_out_with_rule_words``: as ``held_out``, each document also holding its rule's lead and text, as the
  sentence-encoder ranking compares a question with both.

The bars are the figures measured when the examples were written, rounded down (Dunkirk / Mequon: 100% / 99%,
64.8% / 61.1%, 73.6% / 69.0%): 70% held out is not reached by lexical matching because examples are varied on
purpose. A change that makes examples less distinct drops below them.
"""

from __future__ import annotations

import dataclasses

import pytest

import knowledge
from knowledge import load_town, town as shared_town
from knowledge.rules import Rule, pick, words

from tests.knowledge.broken_copy import edit, fails

TOWNS = knowledge.town_keys()
BARS = {"in_sample": 0.95, "held_out": 0.60, "held_out_with_rule_words": 0.65}


def lead_rules(town):
    return [(key, name, rule) for key, topic in town.topics.items() for name, rule in topic.rules.items()
            if isinstance(rule, Rule) and rule.lead]


@pytest.mark.parametrize("key", TOWNS)
def test_every_lead_bearing_rule_has_three_to_six_distinct_examples(key):
    rules = lead_rules(shared_town(key))
    assert rules
    wrong = [f"{k}.rules.{n}: {len(r.examples)}" for k, n, r in rules if not 3 <= len(r.examples) <= 6]
    assert not wrong, f"examples per rule must be 3 to 6: {wrong}"
    repeated = [f"{k}.rules.{n}" for k, n, r in rules
                if len({" ".join(words(e)) for e in r.examples}) < len(r.examples)]
    assert not repeated, f"an example repeats another of its rule: {repeated}"


@pytest.mark.parametrize("key", TOWNS)
def test_every_definition_has_three_to_six_examples(key):
    definitions = {d.term: d for d in shared_town(key).definitions.values()}
    wrong = [f"{term}: {len(d.examples)}" for term, d in definitions.items() if not 3 <= len(d.examples) <= 6]
    assert definitions and not wrong, f"examples per definition must be 3 to 6: {wrong}"


# -- a malformed list fails at load --------------------------------------------------------------------------

def set_rule_examples(value):
    return lambda d: d["quarantine"]["rules"]["costs"].update(examples=value)


@pytest.mark.parametrize("value, key, problem", [
    ("who pays for the quarantine?", "quarantine.rules.costs.examples", "must be a list"),
    (["who pays for the quarantine?", ""], "quarantine.rules.costs.examples[1]", "must be non-empty text"),
    (["who pays?", "   "], "quarantine.rules.costs.examples[1]", "must be non-empty text"),
    ([42, "who pays?"], "quarantine.rules.costs.examples[0]", "must be non-empty text"),
    ([["who pays?"]], "quarantine.rules.costs.examples[0]", "must be non-empty text"),
])
def test_a_malformed_rule_examples_list_is_named_with_its_file_and_key(kb, value, key, problem):
    edit(kb / "towns/dunkirk/topics.yml", set_rule_examples(value))
    fails(kb, "towns/dunkirk/topics.yml", key, problem, exact_key=True)


@pytest.mark.parametrize("value, key, problem", [
    ({"q": "what does at large mean?"}, "at large.examples", "must be a list"),
    (["what does at large mean?", None], "at large.examples[1]", "must be non-empty text"),
])
def test_a_malformed_definition_examples_list_is_named_with_its_file_and_key(kb, value, key, problem):
    edit(kb / "towns/dunkirk/definitions.yml",
         lambda d: next(e for e in d if e["term"] == "at large").update(examples=value))
    fails(kb, "towns/dunkirk/definitions.yml", key, problem, exact_key=True)


def test_examples_are_kept_as_a_tuple_with_spaces_tidied(kb):
    edit(kb / "towns/dunkirk/topics.yml", set_rule_examples(["who  pays\nfor it?", "do i pay the vet?"]))
    rule = load_town("dunkirk", root=kb).topics["quarantine"].rules["costs"]
    assert rule.examples == ("who pays for it?", "do i pay the vet?")
    edit(kb / "towns/dunkirk/topics.yml", lambda d: d["quarantine"]["rules"]["costs"].pop("examples"))
    assert load_town("dunkirk", root=kb).topics["quarantine"].rules["costs"].examples == ()


# -- distinct from the sibling rules ---------------------------------------------------------------------------

def distinctiveness(town, mode: str) -> tuple[int, int, list[str]]:
    """(examples ranked to their own rule, examples asked, the misses) over the topics of 2+ lead rules."""
    import bm25s

    hits = asked = 0
    misses = []
    for key, topic in town.topics.items():
        siblings = [(n, r) for n, r in topic.rules.items() if isinstance(r, Rule) and r.lead]
        if len(siblings) < 2:
            continue

        def documents(left_out=None):
            docs = []
            for k, (_, r) in enumerate(siblings):
                text = [e for m, e in enumerate(r.examples) if (k, m) != left_out]
                if mode == "held_out_with_rule_words":
                    text += [r.lead, r.text]
                docs.append(words(" ".join(text)) or ["(none)"])
            index = bm25s.BM25()
            index.index(docs, show_progress=False)
            return index

        shared = documents() if mode == "in_sample" else None
        for i, (name, rule) in enumerate(siblings):
            for j, question in enumerate(rule.examples):
                index = shared or documents(left_out=(i, j))
                terms = [w for w in words(question) if w in index.vocab_dict]
                scores = [float(s) for s in index.get_scores(terms)] if terms else [0.0] * len(siblings)
                asked += 1
                if all(scores[i] > s for k, s in enumerate(scores) if k != i):
                    hits += 1
                else:
                    best = siblings[max(range(len(scores)), key=scores.__getitem__)][0]
                    misses.append(f"{key}.{name}: {question!r} -> {best}")
    return hits, asked, misses


@pytest.mark.parametrize("mode", list(BARS))
@pytest.mark.parametrize("key", TOWNS)
def test_each_rules_examples_rank_to_it_rather_than_to_its_siblings(key, mode):
    hits, asked, misses = distinctiveness(shared_town(key), mode)
    assert asked and hits / asked >= BARS[mode], (
        f"{key} {mode}: {hits}/{asked} = {hits / asked:.1%} < {BARS[mode]:.0%}; misses:\n" + "\n".join(misses))


# -- the ranking does not read them -----------------------------------------------------------------------------

@pytest.mark.parametrize("key", TOWNS)
def test_the_rule_ranking_is_the_same_without_examples(key):
    town = shared_town(key)
    bare = dataclasses.replace(town, topics={
        k: dataclasses.replace(t, rules={n: dataclasses.replace(r, examples=()) if isinstance(r, Rule) else r
                                         for n, r in t.rules.items()})
        for k, t in town.topics.items()})
    assert not any(r.examples for _, _, r in lead_rules(bare))

    def chosen(t, topic, question):
        p = pick(t, topic, question)
        return p and (p.topic, p.name, p.crossed, round(p.score, 9), [(k, n) for k, n, _ in p.others])

    for topic, _, rule in lead_rules(town):
        for question in rule.examples:
            assert chosen(town, topic, question) == chosen(bare, topic, question), question


def test_a_rule_for_a_situation_the_resident_must_name_is_ranked_only_when_it_is_said(dunkirk):
    """`when_said` (knowledge/DATA.md): Dunkirk's neighbourhood rabies quarantine (7.02-5(a), (b)) is never the
    answer to a question about one's own dog that names no neighbourhood, district or outbreak."""
    from knowledge import rules
    rk = rules.ranker(dunkirk)
    names = [n for _, n, _ in rk.entries]
    for question, ranked in (("can i walk him during the quarantine", False), ("is my vaccinated dog exempt", False),
                             ("does he have to stay inside the whole time", False),
                             ("he has his rabies tag on his collar, does he still need to be quarantined", False),
                             ("rabies quarantine in our neighborhood, must my cats stay in", True),
                             ("is a vaccinated dog with the tag on its collar exempt from the district quarantine", True),
                             ("rabies quarantine in our area, does it apply to my vaccinated dog", True),
                             ("we're in the quarantine zone, is she still exempt", True),
                             ("is my dog exempt from the zone", False)):  # one word of a group is not the group
        scores, _ = rk.combined(question)
        area = [scores[names.index(n)] for n in ("area_quarantine", "area_exemption")]
        assert (max(area) > rules.UNSAID) == ranked, question
