"""Does what the resident measured meet the rule? ("our coop would be 30 feet from the back lot line", "I use a
25 foot leash"): the amount said against the one bounded parameter of the rule that answers the question.

A parameter's `bound` (knowledge/DATA.md) says what the law requires of a measured amount: at least the value (a
setback, Mequon 58-530(b)(3)) or at most it (a leash, 58-521(a)(2)a). The rule's own lead follows the verdict, so
its conditions and exceptions ("or closer with the neighbor's written consent") are read with it. An amount equal
to the value meets "at least" and "at most" alike (the parameter's quote says "at least" or "not more than").
"""

from __future__ import annotations

import re
from datetime import date

from ..model import Answer, Town
from .. import render, rules
from .common import a_day, add_contact, add_gaps, use

_PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)\}")


def placeholders(rule) -> set[str]:
    """The parameters a rule's lead and text name."""
    return {n for part in (getattr(rule, "lead", ""), rule.text) for n in _PLACEHOLDER.findall(part or "")}


def bounded_parameter(town: Town, rule, unit: str) -> str | None:
    """The one parameter with a `bound` in ``unit`` that the rule's lead or text names; None when none or several."""
    names = placeholders(rule)
    found = [n for n in sorted(names) if town.has_param(n) and town.param(n).bound and town.param(n).unit == unit]
    return found[0] if len(found) == 1 else None


def measured(town: Town, *, topic: str, rule: str, amount: float, unit: str, on: date) -> Answer | None:
    """The verdict on ``amount`` ``unit`` against the bounded parameter of ``topic``'s rule ``rule``: value True
    (meets it) or False; None when the rule has no such parameter (the rule answers alone)."""
    on = a_day(on, "on")
    found = town.topics.get(topic)
    r = found.rules.get(rule) if found is not None and found.covered else None
    name = bounded_parameter(town, r, unit) if r is not None else None
    if name is None or isinstance(amount, bool) or not isinstance(amount, (int, float)) or amount < 0:
        return None
    p = town.param(name)
    answer = Answer(topic=topic, town=town.key, result="")
    limit = use(answer, town, name, on)
    if limit is None:
        return None
    meets = amount >= limit if p.bound == "at_least" else amount <= limit
    side = ("more" if amount > limit else "less") if amount != limit else "exactly"
    said, words = p.format(amount), p.format(limit)
    opening = (f"{'Yes' if meets else 'No'}: {said} is {side}" + ("" if side == "exactly" else " than")
               + f" {words} ({rules.short_ref(p.reference)}).")
    lead = rules.lead_of(town, r, on)
    answer.result = f"{opening} {lead}"
    # a No is read with the rule's conditions ("or closer with the neighbor's written consent") when they fit
    answer.lead = answer.result if not meets and len(answer.result) <= render.LEAD_MAX else opening
    answer.value = meets
    answer.data.update(rule=f"{topic}.{rule}", amount=amount, limit=limit)
    answer.step(f"{p.description}: {words}; you said {said}.", p.reference)
    answer.step(town.render(r.text, on), r.citation)
    add_gaps(answer, town, topic, on)
    add_contact(answer, town)
    return answer
