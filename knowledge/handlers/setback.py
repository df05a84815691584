"""Is a fire this far from a building far enough? The town's setback (Dunkirk 7.12(5): no open burning "within
40 feet from any structure, hay stack or fuel storage location") against the distance the resident gives.

The words of the law are the town's burn_setbacks topic rules (`far_enough`, `too_close`, `on_the_line`,
`other_rules`) and the parameter ``open_burning.setback_feet``; a distance exactly at the setback is not read
either way (the code's "within" does not say), and the resident is told to keep farther or ask the Clerk.
"""

from __future__ import annotations

from datetime import date

from ..errors import NeedsClarification
from ..model import Answer, Town
from ..rules import short_ref
from .common import a_day, add_contact, add_gaps, not_covered, use, with_lead

SETBACK = "open_burning.setback_feet"


@with_lead
def burn_setback(town: Town, *, distance_feet: float, on: date) -> Answer:
    """Whether a fire ``distance_feet`` from a structure meets the town's setback: value True (far enough),
    False (too close) or None (exactly at the setback: the code does not say)."""
    on = a_day(on, "on")
    if isinstance(distance_feet, bool) or not isinstance(distance_feet, (int, float)) or distance_feet < 0:
        raise NeedsClarification("How far from the building would the fire be, in feet?", field="distance")
    topic = town.topics.get("burn_setbacks")
    if topic is None or not topic.covered or not town.has_param(SETBACK):
        return not_covered(town, "burn_setbacks", on)
    answer = Answer(topic="burn_setbacks", town=town.key, result="")
    setback = use(answer, town, SETBACK, on)
    p = town.param(SETBACK)
    said, rule_words = p.format(distance_feet), p.format(setback)
    ref = short_ref(p.reference)
    if distance_feet > setback:
        opening, name, value = f"Yes, {said} is far enough: more than the setback of {rule_words} ({ref}).", \
            "far_enough", True
    elif distance_feet < setback:
        opening, name, value = f"No, {said} is too close: less than the setback of {rule_words} ({ref}).", \
            "too_close", False
    else:
        opening, name, value = f"Not clearly: {said} is exactly the setback of {rule_words} ({ref}).", \
            "on_the_line", None
    texts = []
    for rule_name in (name, "other_rules") if value else (name,):
        rule = topic.rules[rule_name]
        texts.append(town.render(rule.text, on))
        answer.step(texts[-1], rule.citation)
    answer.result = " ".join([opening, *texts])
    answer.lead = opening
    answer.value = value
    answer.data.update(distance_feet=distance_feet, setback_feet=setback)
    answer.caveats.extend(town.render(c, on) for c in topic.caveats)
    add_gaps(answer, town, "burn_setbacks", on)
    add_contact(answer, town)
    return answer
