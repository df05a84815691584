"""When a dog license is due, and whether one bought on a given day is late (the late fee's triggers).

Wis. Stat. 174.05(5) as the town words it: Dunkirk Code 7.02-4; Mequon Code 58-533(c)(3), (c)(4)c (derived
number). The first late day of the license year, the days after acquiring a dog or moving in, and the day a
dog reaches licensable age are the towns' parameters; every step carries the citations that back it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ..model import Answer, Citation, Town
from .common import a_day, add_contact, add_gaps, plural, use, with_lead


def refs(town: Town, name: str) -> tuple[Citation, ...]:
    """The citations behind parameter ``name``: its own, and the state statute's twin (``wi.<name>``)."""
    own = town.param(name).reference
    twin = f"wi.{name}"
    if town.has_param(twin) and town.param(twin).reference.ref != own.ref:
        return own, town.param(twin).reference
    return (own,)


def topic_rule(town: Town, topic: str, name: str):
    """The rule ``name`` of the town's ``topic`` (topics.yml) when its code covers the topic, else None."""
    t = town.topics.get(topic)
    return t.rules.get(name) if t is not None and t.covered else None


def month_day(year: int, value: str) -> date:
    """The day of ``year`` a "month-day" parameter names (the license year's start, its first late day)."""
    month, day = (int(x) for x in value.split("-"))
    return date(year, month, day)


@dataclass(frozen=True)
class LateRule:
    """Whether a license bought on a day is late, its last day on time, and the words and sections that say so."""

    late: bool | None  # None: the code gives no deadline for what happened
    deadline: date | None
    text: str
    citations: tuple[Citation, ...]
    #: the dog may have been under licensable age when acquired or brought in: the verdict rests on that
    assumes_licensable: bool = False


def late_rule(answer: Answer, town: Town, on: date, acquired: date | None, moved_in: date | None,
          licensable_age_on: date | None) -> LateRule:
    """Is the license late on ``on``? The three late-fee triggers of Wis. Stat. 174.05(5) as the town words
    them: the first late day of the year, days after acquiring a licensable dog (after moving in, where the
    town says so), and the day the dog reaches licensable age. A dog that was not yet licensable when
    acquired or brought in is governed by the licensable-age trigger only."""
    year_start = month_day(on.year, use(answer, town, "wi.dog_license.year_start", on))
    events = []  # (start, deadline, words, citations)
    young_then = lambda day: licensable_age_on is not None and licensable_age_on > day  # noqa: E731
    if acquired and acquired >= year_start and not young_then(acquired):
        name = "dog_license.late_fee.days_after_acquiring"
        days = use(answer, town, name, on)
        events.append((acquired, acquired + timedelta(days=days),
                       f"acquired on {acquired:%B %-d, %Y}: license due within {plural(days, 'day')}",
                       refs(town, name)))
    if moved_in and moved_in >= year_start and not young_then(moved_in):
        if town.has_param("dog_license.days_after_residency"):
            name = "dog_license.days_after_residency"
            days = use(answer, town, name, on)
            events.append((moved_in, moved_in + timedelta(days=days),
                           f"moved in on {moved_in:%B %-d, %Y}: license due within {plural(days, 'day')}",
                           refs(town, name)))
        else:
            rule = topic_rule(town, "late_fee", "moving_in")
            words = town.render(rule.text, on) if rule else f"{town.name}'s code sets no licensing deadline " \
                "for people who move in with a dog."
            answer.caveats.append(f"{words} Ask the Clerk whether a late fee applies.")
            if not events and not (licensable_age_on and licensable_age_on >= year_start):
                return LateRule(None, None, f"You moved in on {moved_in:%B %-d, %Y}; the code gives no deadline "
                                "for that, so the late fee is left out.", (rule.citation,) if rule else
                                refs(town, "dog_license.late_fee"))
    if licensable_age_on and licensable_age_on >= year_start:
        name = "dog_license.late_fee.days_after_licensable_age"
        days = use(answer, town, name, on)
        events.append((licensable_age_on, licensable_age_on + timedelta(days=days),
                       f"reached licensable age on {licensable_age_on:%B %-d, %Y}: license due "
                       + ("on or before that day" if days == 0 else f"within {plural(days, 'day')}"),
                       refs(town, name)))
    if events:
        start, deadline, words, cites = max(events, key=lambda e: e[0])
        late = on > deadline
        assumes = licensable_age_on is None and start in (acquired, moved_in)
        text = f"The dog {words}, so by {deadline:%B %-d, %Y}; bought {on:%B %-d, %Y}: " + (
            "late" if late else "on time") + (
            "; this takes the dog to have been licensable age by then." if assumes else ".")
        return LateRule(late, deadline, text, cites, assumes)
    name = "dog_license.late_fee.first_late_day"
    first_late = month_day(on.year, use(answer, town, name, on))
    late = on >= first_late
    return LateRule(late, first_late - timedelta(days=1),
                    f"A dog kept since before the license year must be licensed before {first_late:%B %-d}; "
                    f"bought {on:%B %-d, %Y}: " + ("late." if late else "on time."), refs(town, name))


@with_lead
def license_deadline(town: Town, *, on: date, moved_in: date | None = None, acquired: date | None = None,
                     licensable_age_on: date | None = None) -> Answer:
    """By when must a dog be licensed? ("I just moved here with my dog, when do I need a license by?")

    The late-fee triggers as the town words them (Dunkirk 7.02-4; Mequon 58-533(c)(3), (c)(4)c), with a date
    where the code gives one; where the code names no moving-in deadline the answer says so and points to
    the Clerk. ``data["deadline"]`` is the ISO date, or None.
    """
    on = a_day(on, "on")
    for name, value in (("moved_in", moved_in), ("acquired", acquired), ("licensable_age_on", licensable_age_on)):
        if value is not None:
            a_day(value, name)
    answer = Answer(topic="license_deadline", town=town.key, result="")
    moving = topic_rule(town, "late_fee", "moving_in")
    practice = topic_rule(town, "late_fee", "moving_in_practice")
    rabies = topic_rule(town, "late_fee", "moving_in_rabies")
    if moved_in is not None and rabies is not None:
        answer.step(town.render(rabies.text, on), rabies.citation)
    rule = None
    if moved_in or acquired or licensable_age_on:
        day = max(d for d in (moved_in, acquired, licensable_age_on, on) if d)
        rule = late_rule(Answer(topic="", result=""), town, day, acquired, moved_in, licensable_age_on)
    if rule is not None and rule.late is not None and rule.deadline is not None and \
            (rule.deadline >= (moved_in or acquired or licensable_age_on)):
        if moving is not None:
            answer.step(town.render(moving.text, on), moving.citation)
        answer.step(rule.text.split(";")[0] + ".", *rule.citations)
        answer.result = f"License your dog by {rule.deadline:%B %-d, %Y} to avoid the late fee."
        answer.data["deadline"] = rule.deadline.isoformat()
    else:
        answer.result = (town.render(moving.text, on) if moving is not None else
                         f"{town.name}'s code, as we hold it, names no licensing deadline for this.")
        if moving is not None and practice is not None:
            # the lead says the code is silent and whom to ask: "...when you move into the Town; ask the Town
            # Clerk/Treasurer." (the office's name before its town, from town.yml)
            first, _, rest = answer.result.partition(". ")
            answer.result = f"{first}; ask the {town.clerk.name.split(',')[0]}." + (f" {rest}" if rest else "")
        if moving is not None:
            answer.citations.insert(0, moving.citation)
        answer.data["deadline"] = None
        if moved_in is None and town.has_param("dog_license.days_after_residency"):
            answer.data["needs"] = "moved_in"
    if practice is not None:
        answer.caveats.append(f"{town.render(practice.text, on)}: {town.contact_line()}.")
    else:
        add_contact(answer, town)
    answer.value = answer.data.get("deadline")
    add_gaps(answer, town, "late_fee", on)
    return answer


def late_fee_due(town: Town, *, on: date, acquired: date | None = None, moved_in: date | None = None,
                 licensable_age_on: date | None = None) -> Answer:
    """Is a license bought on ``on`` late, and what is added for it? ("is it late if I buy it April 1?"): the
    late-fee triggers as the town words them (Dunkirk 7.02-4 "prior to April 1"; Mequon 58-533(c)(4)c "after
    April 1"), the verdict first. ``value``: True (late), False (on time) or None (the code sets no deadline
    for what happened); ``data["deadline"]`` the last day on time (ISO) when there is one."""
    on = a_day(on, "on")
    answer = Answer(topic="late_fee", town=town.key, result="")
    rule = late_rule(answer, town, on, acquired, moved_in, licensable_age_on)
    fee = town.render("{dog_license.late_fee}", on)
    answer.cite(town.param("dog_license.late_fee").reference)  # the town's own late-fee words lead
    for citation in rule.citations:
        answer.cite(citation)
    bought = f"{on:%B %-d, %Y}"
    if rule.late is None:
        answer.result = rule.text
    elif rule.late:
        exact = bool(town.param("dog_license.late_fee").values)
        answer.result = (f"Yes: bought {bought}, it is late, so the {fee} late fee is added." if exact else
                         f"Yes: bought {bought}, it is late, so a late fee is added ({fee}).") + \
            f" It was on time through {rule.deadline:%B %-d, %Y}."
    else:
        answer.result = (f"No: bought {bought}, it is on time, so no late fee. It is on time through "
                         f"{rule.deadline:%B %-d, %Y}.")
    if rule.late is not None:  # the verdict with the town's own late-fee section (its first words)
        verdict = answer.result.split(". ")[0].rstrip(".")
        answer.lead = f"{verdict} ({town.param('dog_license.late_fee').reference.ref})."
    answer.step(rule.text, *rule.citations)
    answer.value = rule.late
    answer.data["deadline"] = rule.deadline.isoformat() if rule.deadline else None
    add_gaps(answer, town, "late_fee", on)
    add_contact(answer, town)
    return answer
