"""A topic's rules as the unit of an answer: the rule that answers the question asked leads.

Each rule of a town's topics.yml is one statement of its code with its citation; a rule with a `lead:` can
open an answer ("The quarantine lasts at least 10 days."), with the section appended in short form. Which
rule leads is decided by an aspect the caller knows (a rule name) or by ranking the rules against the
resident's words with Okapi BM25 (bm25s): first within the topic the question was classified under, then
across all the town's rules when another topic's rule matches the question clearly better (CROSS_MARGIN,
chosen on the dev sets with bench/grain_report.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from .model import Citation, Topic, TopicRule, Town

#: another topic's rule replaces the classified topic's best rule only when it scores this many times higher
CROSS_MARGIN = 2.0
#: ... and at least this much in absolute terms (a single common word is not a match)
CROSS_FLOOR = 5.0

#: With a meaning scorer (use_meaning): a rule's score is its similarity of meaning to the question plus
#: BM25_WEIGHT times its BM25 score over the best BM25 score of the question; another topic's rule replaces the
#: classified topic's best one when it scores MEANING_MARGIN more and at least MEANING_FLOOR (chosen on the
#: development sets, tests/bot/clause_questions_dev.yml and lead_facts.yml, with bench/grain_report.py).
BM25_WEIGHT = 0.25
MEANING_MARGIN = 0.12
MEANING_FLOOR = 0.55

#: scores(town, entries, question) -> one similarity per entry: set by an adapter that has a sentence encoder
#: (actions/meaning.py); knowledge itself never loads one, and ranks by BM25 alone without it
_MEANING = None


def by_meaning() -> bool:
    """Are rules ranked by meaning in this process (an adapter installed a scorer)?"""
    return _MEANING is not None


def use_meaning(scorer) -> None:
    """Rank rules by meaning as well as by words: ``scorer(town, entries, question)`` gives, for each
    (topic, name, rule) entry of the town's Ranker, how close the question's meaning is to the rule's
    (its lead, text and example questions); None goes back to words alone."""
    global _MEANING
    _MEANING = scorer

STOPWORDS = set("""a an and are as at be by can do does for from have i if in is it its me my of on or our
so that the their there this to will with would you your about any please hi hey ok thanks u im ive dont
pls plz town city code""".split())


@dataclass(frozen=True)
class Rule(TopicRule):
    """A topic rule that may open an answer: `lead` is its one-sentence answer, `asks` the words residents
    use for what it answers ("how long", "fine"), `examples` questions residents might ask that it answers
    (not used in ranking yet), all from the town's data."""

    lead: str = ""
    asks: str = ""
    examples: tuple[str, ...] = ()
    #: leading, the rule is the whole answer: the topic's summary and other rules do not apply to what it
    #: answers ("the fine for too many dogs": no fine is named, so the other fines are not listed)
    alone: bool = False
    #: what the question must say for the rule to be ranked at all (a rule for a situation only the resident
    #: can tell us of: a neighbourhood rabies quarantine): groups separated by ";", one of which the question
    #: says every word of ("neighborhood; area quarantine"); empty: always ranked
    when_said: str = ""
    #: how we read the law here (topics.yml `note:`); never said in an answer: docs/interpretations.md is made of it
    note: str = ""


def words(text: str) -> list[str]:
    """Lower-case word stems for ranking: stop words dropped, a plural or -ing/-ed ending cut."""
    out = []
    for w in re.findall(r"[a-z0-9]+", (text or "").lower()):
        if w in STOPWORDS or len(w) < 3 or w.isdigit():  # numbers match amounts by chance, not meaning
            continue
        out.append(re.sub(r"(ies|es|s|ing|ed)$", "", w) if len(w) > 4 else w.rstrip("s") if len(w) > 3 else w)
    return out


def short_ref(citation: Citation) -> str:
    """The section in short form for a lead: "7.12(1)", "58-527(b)", "58-516" (a definition's name dropped)."""
    return re.sub(r"\[[^\]]*\]", "", citation.ref)


def lead_of(town: Town, rule: Rule, day: date) -> str:
    """The rule's lead with its section: "Report the bite to the police at once (58-527(a))."."""
    text = " ".join(town.render(rule.lead, day).split()).rstrip()
    end = text[-1] if text[-1:] in ".!?" else ""
    return f"{text[:-1] if end else text} ({short_ref(rule.citation)}){end or '.'}"


def _leads(rule) -> bool:
    """A rule may lead a topic answer when it has a lead and the words it answers (`asks`); rules without
    `asks` lead only where a handler names them (a status, a material not on any list)."""
    return isinstance(rule, Rule) and bool(rule.lead) and bool(rule.asks)


def _document(topic: Topic, name: str, rule: Rule, without_name=lambda text: text) -> list[str]:
    return words(without_name(" ".join((topic.title, name.replace("_", " "), rule.text, rule.lead, rule.asks * 2,
                                        rule.citation.quote))))


class Ranker:
    """BM25 over every lead-bearing rule of one town (built once per town, cached on it)."""

    def __init__(self, town: Town):
        self.town = town
        self.entries = [(key, name, rule) for key, t in town.topics.items() if t.covered
                        for name, rule in t.rules.items() if _leads(rule)]
        import bm25s  # here, not at the top: it pulls in jax and scipy (seconds), which loading a town never needs

        self.index = bm25s.BM25()
        #: the town's own name ("Town of Dunkirk", "Dunkirk"), taken out of rules and questions as a phrase: in
        #: many rules' words, it tells no rule apart (and a Town of Burns keeps "burning")
        names = sorted({n for n in (town.name, town.short_name) if n}, key=len, reverse=True)
        self.own_name = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b", re.I) if names else None
        corpus = [_document(town.topics[k], n, r, self.without_name) for k, n, r in self.entries] or [["empty"]]
        self.index.index(corpus, show_progress=False)
        #: each entry's `when_said` as groups of stems (None: always ranked), stemmed once here
        self.said_groups = [[set(words(g)) for g in r.when_said.split(";") if words(g)] if r.when_said else None
                            for _, _, r in self.entries]

    def scores(self, question: str) -> list[float]:
        terms = [w for w in words(self.without_name(question)) if w in self.index.vocab_dict]
        if not terms or not self.entries:
            return [0.0] * len(self.entries)
        return [float(s) for s in self.index.get_scores(terms)]

    def without_name(self, text: str) -> str:
        return self.own_name.sub(" ", text or "") if self.own_name else text

    def combined(self, question: str) -> tuple[list[float], bool]:
        """Each entry's score for ``question`` and whether meaning was part of it: similarity of meaning plus
        BM25_WEIGHT times BM25 over the question's best BM25 (with a scorer), else BM25 alone. A rule whose
        `when_said` words the question does not say scores UNSAID."""
        bm25 = self.scores(question)
        if _MEANING is None or not self.entries or not (question or "").strip():
            return self._unsaid_out(question, bm25), False
        top = max(bm25) or 1.0
        meaning = _MEANING(self.town, self.entries, question)
        return self._unsaid_out(question, [m + BM25_WEIGHT * b / top for m, b in zip(meaning, bm25)]), True

    def _unsaid_out(self, question: str, scores: list[float]) -> list[float]:
        said = set(words(question))
        return [UNSAID if groups is not None and not any(g <= said for g in groups) else s
                for groups, s in zip(self.said_groups, scores)]


#: the score of a rule whose situation the question does not name (Rule.when_said): below any real score
UNSAID = -1.0


def ranker(town: Town) -> Ranker:
    cached = getattr(town, "_rule_ranker", None)
    if cached is None:
        cached = Ranker(town)
        town._rule_ranker = cached
    return cached


@dataclass(frozen=True)
class Pick:
    """The rules chosen to answer a question: `lead` first (its topic may differ from the one asked)."""

    topic: str
    name: str
    rule: Rule
    others: tuple[tuple[str, str, Rule], ...] = ()
    crossed: bool = False
    score: float = 0.0


def pick(town: Town, key: str, question: str | None = None, aspect: str | None = None,
         cross: bool = True) -> Pick | None:
    """The rule of topic ``key`` that answers ``question`` (or the rule named ``aspect``); across the town's
    topics when another topic's rule matches clearly better (``cross``). None if the topic has no lead rule."""
    t = town.topics.get(key)
    own = [(n, r) for n, r in (t.rules.items() if t else ()) if _leads(r)] if t is not None and t.covered else []
    if aspect and t is not None and isinstance(t.rules.get(aspect), Rule) and t.rules[aspect].lead:
        rest = tuple((key, n, r) for n, r in own if n != aspect)
        return Pick(key, aspect, t.rules[aspect], rest)
    if not own and not cross:
        return None
    rk = ranker(town)
    scores, by_meaning = rk.combined(question) if question else ([0.0] * len(rk.entries), False)
    by_entry = {(k, n): s for (k, n, _), s in zip(rk.entries, scores)}
    ranked_own = sorted(own, key=lambda nr: -by_entry.get((key, nr[0]), 0.0))  # stable: data order on ties
    best_own = by_entry.get((key, ranked_own[0][0]), 0.0) if ranked_own else 0.0
    if cross and question:
        i = max(range(len(scores)), key=scores.__getitem__, default=None)
        clearly = (scores[i] >= MEANING_FLOOR and scores[i] >= best_own + MEANING_MARGIN) if by_meaning and \
            i is not None else (i is not None and scores[i] >= CROSS_FLOOR and scores[i] >= CROSS_MARGIN * best_own)
        if i is not None and rk.entries[i][0] != key and clearly:
            k, n, r = rk.entries[i]
            return Pick(k, n, r, tuple((key, n2, r2) for n2, r2 in ranked_own), crossed=True, score=scores[i])
    if not ranked_own:
        return None
    n, r = ranked_own[0]
    return Pick(key, n, r, tuple((key, n2, r2) for n2, r2 in ranked_own[1:]), score=best_own)
