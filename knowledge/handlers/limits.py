"""How many dogs and cats a household may keep, litters included.

Dunkirk Code 7.02-17: five dogs and five cats per residential unit, a litter kept beyond the limit for up to ten
weeks from birth, the Town Board's waiver and the kennel exception. Mequon Code 58-517 (derived number): the
limits are in tables our copy lacks; newborn dogs and cats are not counted until five months old (58-517(d)).
Puppies and kittens are dogs and cats (Dunkirk 7.02-1(b)(3), Mequon 58-516 "regardless of age"). The words of
the law are the animal_limits topic rules (topics.yml) and the parameter descriptions.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..model import Answer, Town
from .. import rules
from .common import (a_day, a_past_day, add_contact, add_gaps, not_covered, plural, say_rule, use, whole_count,
                     with_lead)

#: the parameter that says how long a litter is left out of the count, by town style
LITTER_PERIODS = ("animal_limits.litter_weeks", "newborn_count.dogs_cats_months")


def _add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise ValueError(day)


def _litter_until(answer: Answer, town: Town, born: date, on: date) -> tuple[str, date] | None:
    """(parameter, last day the litter is left out of the count) for a litter born on ``born``."""
    for name in LITTER_PERIODS:
        if town.has_param(name):
            n = use(answer, town, name, on)
            unit = town.param(name).unit
            if unit == "weeks":  # "for not more than ten (10) weeks from birth": through the day 10 weeks on
                return name, born + timedelta(weeks=n)
            return name, _add_months(born, n) - timedelta(days=1)  # "until the following ages"
    return None


def _rule(answer: Answer, town: Town, name: str, on: date, step: bool = True) -> str | None:
    """The animal_limits topic's rule ``name`` said (``say_rule``); None where the town has no such rule."""
    rule = town.topics["animal_limits"].rules.get(name)
    return None if rule is None else say_rule(answer, town, rule, on, step)


@with_lead
def animal_limits(town: Town, *, on: date, dogs: int | None = None, cats: int | None = None,
                  puppies: int | None = None, kittens: int | None = None, litter_born: date | None = None) -> Answer:
    """Is the household within the limit? ``puppies``/``kittens`` are young counted in addition to ``dogs``/
    ``cats``; ``litter_born`` is the day their litter was born. ``data["needs"] == "litter_born"`` when that day
    decides the answer and was not given."""
    on = a_day(on, "on")
    counts = {}
    for field, value, what in (("dogs", dogs, "dogs"), ("cats", cats, "cats"), ("puppies", puppies, "puppies"),
                               ("kittens", kittens, "kittens")):
        counts[field] = None if value is None else whole_count(value, field, what)
    if litter_born is not None:
        litter_born = a_past_day(litter_born, "litter_born", on,
                                 "That birth date is in the future. When was the litter born?")
    topic = town.topics["animal_limits"]
    if not topic.covered:
        return not_covered(town, "animal_limits", on)
    answer = Answer(topic="animal_limits", town=town.key, result="")
    young = {"dog": counts["puppies"] or 0, "cat": counts["kittens"] or 0}
    if any(young.values()):
        _rule(answer, town, "young_count", on)
    # a litter with its birth day but not its size ("our dog had puppies on March 1") still has a date
    litter = any(young.values()) or (litter_born is not None and counts["puppies"] is None
                                     and counts["kittens"] is None)
    until = _litter_until(answer, town, litter_born, on) if litter_born and litter else None
    if town.has_param("animal_limits.dogs"):
        _numeric_limits(answer, town, on, counts, young, until)
    else:
        answer.result = town.render(topic.summary, on)
        answer.value = {"max_dogs": None, "max_cats": None, "over": []}
        chosen = rules.pick(town, "animal_limits", cross=False)
        if chosen is not None:
            answer.lead = rules.lead_of(town, chosen.rule, on)
        if litter:
            _rule(answer, town, "litter", on)
            if until:
                answer.step(f"Your litter born {litter_born:%B %-d, %Y} counts from {until[1] + timedelta(days=1):%B %-d, %Y}.",
                            town.param(until[0]).reference)
        if any(v is not None for v in counts.values()):
            _rule(answer, town, "no_tables", on)
    for c in topic.citations:
        answer.cite(c)
    answer.caveats.extend(town.render(c, on) for c in topic.caveats)
    add_gaps(answer, town, "animal_limits", on)
    add_contact(answer, town)
    return answer


def _numeric_limits(answer: Answer, town: Town, on: date, counts: dict, young: dict, until) -> None:
    """Towns with a number per kind (Dunkirk 7.02-17(b)(1))."""
    most = {"dog": use(answer, town, "animal_limits.dogs", on), "cat": use(answer, town, "animal_limits.cats", on)}
    answer.step(f"Limit: {plural(most['dog'], 'dog')} and {plural(most['cat'], 'cat')} "
                f"({town.param('animal_limits.dogs').description.lower()}).", town.param("animal_limits.dogs").reference)
    _rule(answer, town, "litter", on)
    use(answer, town, "animal_limits.litter_weeks", on)
    litter_ref = town.param("animal_limits.litter_weeks").reference
    over, unsure = [], []
    for kind, grown_field in (("dog", "dogs"), ("cat", "cats")):
        grown = counts[grown_field]
        if grown is None and not young[kind]:
            continue
        grown = grown or 0
        litter = young[kind]
        counted = grown
        if litter:
            if until is None:
                if grown <= most[kind] < grown + litter:
                    unsure.append(kind)
                answer.step(f"Your {plural(litter, 'young ' + kind)} are left out of the count only while their "
                            "litter is within the age above; the day they were born decides.", litter_ref)
            elif on <= until[1]:
                answer.step(f"The litter ({plural(litter, 'young ' + kind)}) may be kept beyond the limit through "
                            f"{until[1]:%B %-d, %Y}; until then it is not counted.", litter_ref)
            else:
                counted += litter
                answer.step(f"The litter ({plural(litter, 'young ' + kind)}) is past that age since "
                            f"{until[1] + timedelta(days=1):%B %-d, %Y}, so it counts.", litter_ref)
        verdict = "within the limit" if counted <= most[kind] else f"{plural(counted - most[kind], kind)} over the limit"
        words = plural(grown, kind) + (f" and {plural(litter, 'young ' + kind)}" if litter else "")
        answer.step(f"You have {words}" + (f", {counted} counted" if litter else "") + f": {verdict}.",
                    town.param(f"animal_limits.{grown_field}").reference)
        if counted > most[kind]:
            over.append(kind)
    answer.value = {"max_dogs": most["dog"], "max_cats": most["cat"], "over": over, "unsure": unsure}
    limit_words = f"{plural(most['dog'], 'dog')} and {plural(most['cat'], 'cat')}"
    ref = town.param("animal_limits.dogs").reference.ref
    if over:
        answer.result = f"That is over {town.name}'s limit of {limit_words} ({ref})."
    elif unsure:
        answer.data["needs"] = "litter_born"
        answer.result = (f"It depends on the litter's age: {town.name}'s limit is {limit_words} ({ref}), and the "
                         "litter is left out of the count only while it is young enough. When was it born?")
    else:
        described = any(v is not None for v in counts.values())
        # not "Yes": the resident may have asked "are we over the limit?"
        answer.result = f"You may keep up to {limit_words} ({ref})" + (
            " — what you describe is allowed: within the limit." if described else ".")
    for name in ("waiver", "kennel"):
        text = _rule(answer, town, name, on, step=False)
        if text:
            answer.caveats.append(text)
