"""By when must a dog brought in be vaccinated against rabies? Dunkirk Code 7.02-2(a): a dog obtained or brought
into the Town after it reached the vaccination age is vaccinated "within thirty (30) days" after, unless it has a
current rabies certificate.

The words of the law are the rabies_vaccination topic rule ``new_dog`` and the parameters
``rabies_vaccination.days_after_obtaining`` and ``rabies_vaccination.age_months``; a town without them is
answered from its topic (the handler returns None).
"""

from __future__ import annotations

from datetime import date, timedelta

from ..model import Answer, Town
from .. import rules
from .common import a_day, a_past_day, add_contact, add_gaps, use

DAYS = "rabies_vaccination.days_after_obtaining"
AGE = "rabies_vaccination.age_months"
RULE = "new_dog"


def covers_new_dogs(town: Town) -> bool:
    """Does the town's code give a number of days to vaccinate a dog obtained or brought in?"""
    topic = town.topics.get("rabies_vaccination")
    return (topic is not None and topic.covered and RULE in topic.rules and town.has_param(DAYS)
            and town.has_param(AGE))


def vaccination_due(town: Town, *, on: date, obtained: date, age_months: float | None = None) -> Answer | None:
    """The last day to vaccinate a dog obtained on ``obtained`` (``age_months``: its age then, when said), or
    None when the town's code sets no such number of days (its topic answers instead). ``value``: the ISO day, or
    None when the dog was younger than the vaccination age (then its age decides: ``data["needs"] = "born"``)."""
    on = a_day(on, "on")
    obtained = a_past_day(obtained, "obtained", on, "That day is still to come. When did you get the dog?")
    if not covers_new_dogs(town):
        return None
    rule = town.topics["rabies_vaccination"].rules[RULE]
    answer = Answer(topic="rabies_vaccination", town=town.key, result="")
    days, age = use(answer, town, DAYS, obtained), use(answer, town, AGE, obtained)
    rule_words = town.render(rule.text, obtained)
    answer.step(rule_words, rule.citation)
    young = town.topics["rabies_vaccination"].rules.get("answer")  # the rule by age: a dog got younger
    if age_months is not None and age_months < age and young is not None:
        answer.value, answer.data["needs"] = None, "born"
        answer.result = rules.lead_of(town, young, obtained) + " When was it born?"
        answer.lead = answer.result
        answer.step(town.render(young.text, obtained), young.citation)
    else:
        due = obtained + timedelta(days=days)
        answer.value = due.isoformat()
        got = f"{obtained:%B %-d, %Y}" if obtained.year != on.year else f"{obtained:%B %-d}"
        lead = rules.lead_of(town, rule, obtained)
        answer.result = answer.lead = f"By {due:%B %-d, %Y}: {lead[:1].lower()}{lead[1:]}"
        answer.step(f"Got on {got}: {town.param(DAYS).format(days)} from then is {due:%B %-d, %Y}"
                    + (" (already past)." if due < on else "."), town.param(DAYS).reference)
        if age_months is None and young is not None:  # for a dog of the vaccination age when got
            answer.caveats.append(town.render(young.text, obtained))
    add_gaps(answer, town, "rabies_vaccination", on)
    add_contact(answer, town)
    return answer
