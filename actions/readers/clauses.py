"""Which rule, defined term or topic a question means, by the sentence encoder with the words (#21): used when
the classifier's intent alone does not say which clause is asked (meaning ranking only: off in plain unit tests,
on in the action server, actions/meaning.py)."""
from __future__ import annotations

from knowledge import rules

from .. import parsing
from .base import has_rule


#: a defined term answers a question that asks whether something counts as it when it is at least this close in
#: meaning (cosine of the question and the term's words, definition and example questions; dev sets, #21)
TERM_FLOOR = 0.6
#: ... and, asked without such words, when it is this close and closer than any rule
TERM_ALONE = 0.8


def defined_term_asked(t, text: str) -> str | None:
    """The defined term a question asks about by meaning ("does a 10 week old puppy count as a dog?", "is a
    warden a law enforcement officer?"), or None (meaning ranking only, #21)."""
    if not rules.by_meaning() or not t.definitions or not text:
        return None
    from .. import meaning
    term, sim = meaning.best_term(t, text)
    if term is None:
        return None
    if parsing.asks_whether_it_counts(text) and sim >= TERM_FLOOR:
        return term
    if sim >= TERM_ALONE:
        rk = rules.ranker(t)
        best_rule = max(rk.combined(text)[0], default=0.0)
        if sim > best_rule:
            return term
    return None


#: an unsure intent is answered by the rule the question means when that rule scores at least this (meaning plus
#: words, knowledge.rules) and this much more than the best rule of any other topic (dev sets, #21)
MEANT_FLOOR = 0.62
MEANT_MARGIN = 0.06


def topic_meant(t, text: str) -> str | None:
    """The intent of the topic whose rule a question clearly means, across all the town's topics; None when no
    rule stands out (the resident is then asked to choose)."""
    if not rules.by_meaning() or not text:
        return None
    rk = rules.ranker(t)
    scores, _ = rk.combined(text)
    if not scores:
        return None
    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)
    best = order[0]
    topic = rk.entries[best][0]
    other = next((scores[i] for i in order[1:] if rk.entries[i][0] != topic), 0.0)
    if scores[best] >= MEANT_FLOOR and scores[best] - other >= MEANT_MARGIN:
        return f"ask_{topic}"
    return None


def clause_asked(t, topics: tuple[str, ...], words: str, near: bool = True):
    """The rule of ``topics`` a question asks about when it is not one the handler computes (its lead states a
    period from the town's parameters, "{quarantine....}"): "does the vet have to see him?" is the examinations
    rule; None when a period rule ranks first, or no rule is clearly asked (meaning ranking only, #21). A period
    rule ranked first gives way to a close rule of another kind when the question does not ask how long and
    (``near``) changes no fact ("do i have to report it?" after the dated periods)."""
    if not rules.by_meaning():
        return None
    best = None
    for key in topics:
        if has_rule(t, key, "answer") or (key in t.topics and t.topics[key].rules):
            pick = rules.pick(t, key, words, cross=False)
            if pick is not None and (best is None or pick.score > best.score):
                best = pick
    if best is None:
        return None
    if "{quarantine." in (best.rule.lead or ""):
        return None if parsing.asks_how_long(words) or not near else _close_clause(t, topics, words, best.score)
    return best


#: a rule that states no period answers a question that does not ask how long when it ranks this close to the
#: period rule that ranked first ("do i have to report it?" after a bite: the reporting rule; dev sets, #20)
CLAUSE_NEAR = 0.1
#: ... and shares a telling word with it (BM25 at least this: "report", "call"; not "dog" or "other"): "can i
#: walk him?" is near the neighbourhood-quarantine exemption by meaning alone, and must not read as permission
CLAUSE_WORDS = 2.0


def _close_clause(t, topics: tuple[str, ...], words: str, best: float):
    """The best-ranked rule of ``topics`` that states no period, when within CLAUSE_NEAR of ``best`` and sharing a
    telling word with the question (CLAUSE_WORDS); else None."""
    rk = rules.ranker(t)
    scores, _ = rk.combined(words)
    bm25 = rk.scores(words)
    near = [(s, k, n, r) for (k, n, r), s, b in zip(rk.entries, scores, bm25)
            if k in topics and r.lead and "{quarantine." not in r.lead and s >= best - CLAUSE_NEAR
            and b >= CLAUSE_WORDS]
    if not near:
        return None
    s, k, n, r = max(near, key=lambda x: x[0])
    return rules.Pick(k, n, r, score=s)
