"""Is open burning allowed at a given moment, and what must the resident do?

Dunkirk Code 7.09 to 7.13: burning is permitted only between sunrise and sunset, never while a
no-burning order is in effect, never of the materials 7.10 prohibits, and only after notifying the
Fire Department; 7.12 sets the rules for a burn and 7.13 the costs and penalties.
A town whose code has no burning rules (Mequon) gets "not covered" and the clerk's contact, never Dunkirk's rules.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

from ..errors import NeedsClarification
from ..model import Answer, BurningOrder, Town
from ..sun import sun_times
from ..when import Moment, words_for_day, words_for_time
from .common import a_day, add_contact, add_gaps, fmt, not_covered, use

NOTICE_FACTS = ("your name", "address", "telephone number", "the date", "the location",
                "the approximate time of the burn")


def _notify_steps(answer: Answer, town: Town) -> None:
    t = town.topics["burn_notification"]
    for c in t.citations:
        answer.cite(c)
    answer.steps.append("Before burning, notify the Fire Department with " + ", ".join(NOTICE_FACTS[:-1])
                        + f" and {NOTICE_FACTS[-1]}.")


def _rule_steps(answer: Answer, town: Town, on: date) -> None:
    feet = use(answer, town, "open_burning.setback_feet", on)
    answer.steps.append("A responsible adult must attend the fire until it is totally extinguished.")
    answer.steps.append("Burn only when wind and weather do not create a risk of the fire spreading.")
    answer.steps.append(f"Keep the fire at least {fmt(town, 'open_burning.setback_feet', feet)} from any "
                        "structure, hay stack or fuel storage, and never on a paved surface within a "
                        "right-of-way; provide firebreaks.")
    answer.caveats.append("The landowner pays the cost of extinguishing a fire burned in violation, and of "
                          "any fire that gets out of control; violations, including failing to notify, are "
                          "Class C forfeitures under Chapter 17, which our copy does not include.")
    for key in ("burning_rules", "burning_penalties"):
        for c in town.topics[key].citations:
            answer.cite(c)


def material_rule(town: Town, material: str) -> tuple[str, str, object | None]:
    """("prohibited" | "permit" | "state_rules" | "not_listed", what, citation) for a material's name."""
    text = " " + re.sub(r"[^a-z ]+", " ", material.lower()) + " "
    groups = town.materials or {}
    for kind, label in (("prohibited", "prohibited"), ("permit_required", "permit")):
        for g in groups.get(kind, []):
            if any(f" {w} " in text for w in g["words"]):
                return label, g["what"], g["citation"]
    state = groups.get("state_rules")
    if state and any(f" {w} " in text for w in state["words"]):
        return "state_rules", material.strip(), state["citation"]
    return "not_listed", material.strip(), None


def _check_material(answer: Answer, town: Town, material: str | None) -> bool:
    """Adds the material's rule to the answer; False when it may not be burned."""
    if not material:
        return True
    kind, what, citation = material_rule(town, material)
    if citation is not None:
        answer.cite(citation)
    if kind == "prohibited":
        answer.steps.append(f"{what.capitalize()} may not be burned in the Town at any time.")
        return False
    if kind == "permit":
        answer.steps.append(f"Burning {what} is prohibited without a permit.")
        return False
    if kind == "state_rules":
        answer.caveats.append(f"{citation.ref} also bans materials prohibited by state statute or administrative rule; "
                              f"our copy does not include those rules, so check with the Wisconsin DNR before "
                              f"burning {what}.")
        return True
    answer.steps.append(f"The code's list of prohibited materials does not include {what}; open burning not "
                        "prohibited there is permitted between sunrise and sunset.")
    return True


def _order_blocks(answer: Answer, order: BurningOrder | None) -> bool:
    if order is not None and order.active:
        reason = f" ({order.reason})" if order.reason else ""
        since = f" since {order.since:%B %-d, %Y}" if order.since else ""
        answer.steps.append(f"A no-burning order is in effect{since}{reason}: no open burning of any type.")
        return True
    answer.steps.append("No no-burning order is in effect right now.")
    return False


def burning(town: Town, *, at: datetime | Moment, order: BurningOrder | None = None,
            material: str | None = None) -> Answer:
    """May the resident burn at ``at`` (an aware datetime, or a Moment from knowledge.when)?"""
    moment = at if isinstance(at, Moment) else Moment(at, None, "instant", "")
    if not isinstance(moment.start, datetime) or moment.start.tzinfo is None:
        raise NeedsClarification("I need to know the time zone of that time.", field="when")
    if not town.topics["burning_hours"].covered:
        return not_covered(town, "burning_hours", moment.start.date())
    start = moment.start.astimezone(ZoneInfo(town.timezone))
    day = start.date()
    said = moment.said or f"{words_for_day(day)} at {words_for_time(start)}"
    rise, set_ = sun_times(town, day)
    answer = Answer(topic="burning_hours", town=town.key, result="")
    answer.data.update(sunrise=rise.isoformat(), sunset=set_.isoformat(), understood=said)
    for c in town.topics["burning_hours"].citations:
        answer.cite(c)
    answer.steps.append(f"I understood: {said}.")
    answer.steps.append(f"On {words_for_day(day)}, sunrise is {words_for_time(rise)} and sunset "
                        f"{words_for_time(set_)}: burning is permitted only between them.")
    blocked = _order_blocks(answer, order)
    material_ok = _check_material(answer, town, material)

    if moment.kind == "instant":
        in_hours = rise <= start <= set_
        when_words = f"at {words_for_time(start)} on {words_for_day(day)}"
        if not in_hours:
            answer.steps.append("That time is " + ("before sunrise." if start < rise else "after sunset."))
    else:
        end = moment.end or start
        in_hours = start <= set_ and end >= rise
        when_words = ("tonight" if moment.kind == "evening" else f"on {words_for_day(day)}")
        if moment.kind == "evening" and in_hours:
            answer.steps.append(f"The evening starts before sunset: you may burn until sunset at "
                                f"{words_for_time(set_)}, not after.")
        elif moment.kind == "evening":
            answer.steps.append(f"Tonight is after sunset ({words_for_time(set_)}).")
    allowed = in_hours and not blocked and material_ok
    answer.value = {"allowed": allowed, "in_hours": in_hours, "order_active": blocked,
                    "material_ok": material_ok}
    if allowed:
        hours = (f"between sunrise ({words_for_time(rise)}) and sunset ({words_for_time(set_)})"
                 if moment.kind == "day" else f"until sunset at {words_for_time(set_)}")
        answer.result = (f"Yes, open burning is allowed {when_words}"
                         + ("" if moment.kind == "instant" else f" {hours}")
                         + ", if you notify the Fire Department first and follow the burning rules.")
    else:
        why = ("a no-burning order is in effect" if blocked else
               "that material may not be burned" if not material_ok else
               "burning is allowed only between sunrise and sunset")
        answer.result = f"No, you may not burn {when_words}: {why}."
        if not in_hours and not blocked and material_ok:
            answer.caveats.append("The Town Board may permit burning after sunset when a landowner asks for a "
                                  "specific exception.")
    _notify_steps(answer, town)
    _rule_steps(answer, town, day)
    add_gaps(answer, town, "burning_hours")
    add_contact(answer, town)
    return answer


def burn_window(town: Town, *, day: date, order: BurningOrder | None = None) -> Answer:
    """Sunrise-to-sunset window on ``day`` for the burn-notification form (7.11, 7.10(4))."""
    day = a_day(day, "day")
    if not town.topics["burning_hours"].covered:
        return not_covered(town, "burning_hours", day)
    rise, set_ = sun_times(town, day)
    answer = Answer(topic="burning_hours", town=town.key, result="")
    for c in town.topics["burning_hours"].citations:
        answer.cite(c)
    blocked = _order_blocks(answer, order)
    answer.value = {"sunrise": rise, "sunset": set_, "allowed": not blocked}
    answer.result = (f"On {words_for_day(day)} burning is permitted between sunrise ({words_for_time(rise)}) "
                     f"and sunset ({words_for_time(set_)})" + (", but a no-burning order is in effect."
                                                               if blocked else "."))
    add_contact(answer, town)
    return answer


def burning_order_status(town: Town, *, now: datetime, order: BurningOrder | None) -> Answer:
    """Is a no-burning order in effect right now (Dunkirk 7.09(4), 7.10(4))? The status comes from the
    records the Clerk keeps; the rule text comes from the town's `no_burning_order` topic."""
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise NeedsClarification("I need to know the time zone of that time.", field="now")
    local = now.astimezone(ZoneInfo(town.timezone))
    if "no_burning_order" not in town.topics or not town.topics["no_burning_order"].covered:
        return not_covered(town, "no_burning_order", local.date())
    t = town.topics["no_burning_order"]
    as_of = f"{words_for_time(local)} on {words_for_day(local.date())}"
    if order is not None and order.active:
        since = f" since {order.since.astimezone(ZoneInfo(town.timezone)):%B %-d, %Y}" if order.since else ""
        reason = f" ({order.reason})" if order.reason else ""
        result = (f"Yes: a no-burning order is in effect{since}{reason}. No open burning of any type is "
                  f"allowed until the Town Board lifts it (as of {as_of}).")
    else:
        result = f"No: no no-burning order is in effect in the {town.name} as of {as_of}."
    answer = Answer(topic="no_burning_order", town=town.key, result=result,
                    value={"order_active": bool(order is not None and order.active)})
    answer.steps.append(town.render(t.summary, local.date()))
    for c in t.citations:
        answer.cite(c)
    answer.caveats.append("The status is the one the Town Clerk records in this assistant; an order can be "
                          "issued at any time, so check again on the day you burn.")
    answer.caveats.extend(town.render(c, local.date()) for c in t.caveats)
    add_gaps(answer, town, "no_burning_order")
    add_contact(answer, town)
    return answer
