"""How many dogs and cats a household may keep.

Dunkirk Code 7.02-17: five dogs and five cats per residential unit, litters up to ten weeks from birth, the
Town Board's waiver and the kennel exception. Mequon Code 58-517 (derived number): the limits are in tables
our copy lacks; the text gives the ages at which newborns count and the kennel definition.
"""

from __future__ import annotations

from datetime import date

from ..model import Answer, Town
from .common import a_day, add_contact, add_gaps, fmt, not_covered, plural, use, whole_count


def animal_limits(town: Town, *, on: date, dogs: int | None = None, cats: int | None = None) -> Answer:
    on = a_day(on, "on")
    dogs = None if dogs is None else whole_count(dogs, "dogs", "dogs")
    cats = None if cats is None else whole_count(cats, "cats", "cats")
    topic = town.topics["animal_limits"]
    if not topic.covered:
        return not_covered(town, "animal_limits", on)
    answer = Answer(topic="animal_limits", town=town.key, result="")
    if town.has_param("animal_limits.dogs"):
        max_dogs = use(answer, town, "animal_limits.dogs", on)
        max_cats = use(answer, town, "animal_limits.cats", on)
        weeks = use(answer, town, "animal_limits.litter_weeks", on)
        answer.steps.append(f"Limit: {plural(max_dogs, 'dog')} and {plural(max_cats, 'cat')} per residential unit.")
        answer.steps.append(f"A litter of pups or kittens may be kept beyond the limit for up to "
                            f"{fmt(town, 'animal_limits.litter_weeks', weeks)} from birth.")
        over = []
        for have, most, kind in ((dogs, max_dogs, "dog"), (cats, max_cats, "cat")):
            if have is not None:
                verdict = "within the limit" if have <= most else f"{plural(have - most, kind)} over the limit"
                answer.steps.append(f"You have {plural(have, kind)}: {verdict}.")
                if have > most:
                    over.append(kind)
        answer.value = {"max_dogs": max_dogs, "max_cats": max_cats, "over": over}
        if over:
            answer.result = (f"That is over {town.name}'s limit of {plural(max_dogs, 'dog')} and "
                             f"{plural(max_cats, 'cat')} per residential unit, unless the Town Board waives the "
                             "limit or you operate a licensed kennel.")
        else:
            answer.result = (f"You may keep up to {plural(max_dogs, 'dog')} and {plural(max_cats, 'cat')} per "
                             "residential unit" + (" — what you describe is within the limit." if
                                                   dogs is not None or cats is not None else "."))
        for c in topic.citations:
            answer.cite(c)
        answer.caveats.append("The Town Board may waive the limit under extraordinary circumstances (apply to "
                              "the Town Clerk/Treasurer); it does not apply to a kennel legally operating under "
                              "the Dane County Zoning Code.")
        answer.caveats.extend(town.render(c, on) for c in topic.caveats)
    else:
        answer.result = town.render(topic.summary, on)
        for c in topic.citations:
            answer.cite(c)
        answer.caveats.extend(town.render(c, on) for c in topic.caveats)
        answer.value = {"max_dogs": None, "max_cats": None, "over": []}
        if dogs is not None or cats is not None:
            answer.steps.append("Our copy of the code lacks the tables that set the numbers, so we cannot say "
                                "whether your count is allowed.")
    add_gaps(answer, town, "animal_limits")
    add_contact(answer, town)
    return answer
