"""Readers of the code's own words: the rule a turn chose, a section asked by number, a defined term."""
from __future__ import annotations

from knowledge import handlers
from knowledge.model import Answer

from .. import common, parsing
from .base import Asked, has_rule
from .clauses import defined_term_asked


def chosen_rule(q: Asked) -> Answer | None:
    """The rule the reading of the turn chose ("what can I do about it?" after an answer)."""
    chosen = q.tracker.latest_message.get("rule")
    if chosen and has_rule(q.t, q.key, chosen):
        return handlers.topic(q.t, q.key, on=q.today, question=q.text, aspect=chosen)
    return None


def section(q: Asked) -> Answer | None:
    """"What does 7.02-9 say?": that section; without a number, the code searched for the words."""
    if q.intent != "ask_section":
        return None
    ref = common.entity(q.tracker, "section")
    return handlers.section(q.t, ref) if ref else handlers.search(q.t, q.text, on=q.today)


def term_meant(q: Asked) -> Answer | None:
    """"is a conservation warden a law enforcement officer?": the code's definition (by meaning)."""
    term = defined_term_asked(q.t, q.text)
    return handlers.definition(q.t, term) if term is not None else None


def term_named(q: Asked) -> Answer | None:
    """"what counts as at large?": the definition of the term named."""
    if q.intent == "ask_definitions" or (q.intent == "ask_at_large" and parsing.asks_a_meaning(q.text)):
        return handlers.definition(q.t, parsing.defined_term(q.text, q.t.definitions))
    return None


READERS = [chosen_rule, section, term_meant, term_named]
