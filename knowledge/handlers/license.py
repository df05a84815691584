"""Dog license cost: tax per dog, the multiple-dog license, service dogs, half price and late fees.

Dunkirk Code 7.02-1 to 7.02-4 (adopting Wis. Stat. 174.05-174.10); Mequon Code 58-533 (derived number).
Where the code delegates an amount that our copy does not give, the state-law minimum is used and the answer
says "at least"; the Clerk's fee schedule (fees.yml) supplies the real amount when the town publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ..errors import NeedsClarification
from ..model import Answer, Town
from .common import a_day, add_contact, add_gaps, fmt, plural, use, whole_count


@dataclass(frozen=True)
class Rate:
    amount: float
    exact: bool  # False: only the state minimum is known
    how: str


def _rate(answer: Answer, town: Town, name: str, on: date) -> Rate:
    """The per-dog tax: the town's own amount, else the state minimum it may not go below."""
    value = use(answer, town, name, on)
    if value is not None:
        return Rate(value, True, f"{fmt(town, name, value)} ({town.param(name).description.lower()})")
    p = town.param(name)
    if not p.minimum:
        raise NeedsClarification(f"The amount of {p.description.lower()} is not published in our copy of "
                                 f"the code. Please ask {town.contact_line()}.", field="fee")
    minimum = use(answer, town, p.minimum, on)
    return Rate(minimum, False, f"at least {fmt(town, p.minimum, minimum)}, the state minimum "
                                f"({town.param(p.minimum).reference.label}); {_unpublished(p.delegated_to)}")


def _unpublished(delegated_to: str) -> str:
    """'the amount set by <body> is not in our copy', without saying so twice when the data already does."""
    if "our copy" in delegated_to:
        return f"the amount is set by {delegated_to}"
    return f"the amount set by {delegated_to} is not in our copy"


def _month_day(year: int, value: str) -> date:
    month, day = (int(x) for x in value.split("-"))
    return date(year, month, day)


def _late(answer: Answer, town: Town, on: date, acquired: date | None, moved_in: date | None,
          licensable_age_on: date | None) -> tuple[bool | None, str]:
    """Is the license late on ``on``? The verdict (None: the code does not say) and the rule, in words."""
    year_start = _month_day(on.year, use(answer, town, "wi.dog_license.year_start", on))
    events = []  # (day the dog became licensable in the owner's hands in this town, deadline, words)
    if acquired and acquired >= year_start:
        days = use(answer, town, "dog_license.late_fee.days_after_acquiring", on)
        events.append((acquired, acquired + timedelta(days=days),
                       f"acquired on {acquired:%B %-d, %Y}: license due within {plural(days, 'day')}"))
    if moved_in and moved_in >= year_start:
        if town.has_param("dog_license.days_after_residency"):
            days = use(answer, town, "dog_license.days_after_residency", on)
            events.append((moved_in, moved_in + timedelta(days=days),
                           f"moved in on {moved_in:%B %-d, %Y}: license due within {plural(days, 'day')}"))
        else:
            answer.caveats.append(f"{town.name}'s code sets no licensing deadline for people who move into "
                                  f"the {town.name.split()[0].lower()} with a dog; ask the Clerk whether a late "
                                  "fee applies.")
            if not events and not (licensable_age_on and licensable_age_on >= year_start):
                return None, (f"You moved in on {moved_in:%B %-d, %Y}; the code gives no deadline for that, so "
                              "the late fee is left out.")
    if licensable_age_on and licensable_age_on >= year_start:
        days = use(answer, town, "dog_license.late_fee.days_after_licensable_age", on)
        events.append((licensable_age_on, licensable_age_on + timedelta(days=days),
                       f"reached licensable age on {licensable_age_on:%B %-d, %Y}: license due "
                       + ("on or before that day" if days == 0 else f"within {plural(days, 'day')}")))
    if events:
        start, deadline, words = max(events)
        late = on > deadline
        return late, f"The dog {words}, so by {deadline:%B %-d, %Y}; bought {on:%B %-d, %Y}: " + (
            "late." if late else "on time.")
    first_late = _month_day(on.year, use(answer, town, "dog_license.late_fee.first_late_day", on))
    late = on >= first_late
    return late, (f"A dog kept since before the license year must be licensed before "
                  f"{first_late:%B %-d}; bought {on:%B %-d, %Y}: " + ("late." if late else "on time."))


def license_cost(town: Town, *, on: date, dogs: int = 1, neutered: int | None = None, service_dogs: int = 0,
                 acquired: date | None = None, moved_in: date | None = None,
                 licensable_age_on: date | None = None) -> Answer:
    """What a resident pays for dog licenses bought on ``on`` (Dunkirk 7.02-3, 7.02-4; Mequon 58-533)."""
    on = a_day(on, "on")
    dogs = whole_count(dogs, "dogs", "dogs", low=1)
    service_dogs = whole_count(service_dogs, "service_dogs", "service dogs")
    if service_dogs > dogs:
        raise NeedsClarification(f"You mentioned {service_dogs} service dogs but {dogs} dogs in all. "
                                 "How many dogs do you have?", field="dogs")
    exempt = service_dogs if town.has_param("dog_license.service_dog_tax") else 0
    taxed = dogs - exempt
    if neutered is not None:
        neutered = whole_count(neutered, "neutered", "spayed or neutered dogs")
        if neutered > dogs:
            raise NeedsClarification(f"You mentioned {neutered} spayed or neutered dogs but {dogs} dogs in "
                                     "all. How many are spayed or neutered?", field="neutered")
        neutered = min(neutered, taxed)
    for name, value in (("acquired", acquired), ("moved_in", moved_in)):
        if value is not None and a_day(value, name) > on:
            raise NeedsClarification("That date is after the day you'd buy the license. When did you get "
                                     "the dog (or move in)?", field=name)
    if licensable_age_on is not None:
        licensable_age_on = a_day(licensable_age_on, "licensable_age_on")

    answer = Answer(topic="license_cost", town=town.key, result="")
    age = use(answer, town, "dog_license.licensable_age_months", on)
    if licensable_age_on and licensable_age_on > on:
        answer.result = (f"No license is needed yet: your dog reaches licensable age ({age} months) on "
                         f"{licensable_age_on:%B %-d, %Y}.")
        answer.steps.append(f"A license is required for a dog {age} months of age or older.")
        answer.value = {"total": 0.0, "exact": True, "late": False}
        _late(answer, town, licensable_age_on, acquired, moved_in, licensable_age_on)
        add_contact(answer, town)
        return answer

    late, late_rule = _late(answer, town, on, acquired, moved_in, licensable_age_on)
    year_start = _month_day(on.year, use(answer, town, "wi.dog_license.year_start", on))
    answer.steps.append(f"License year: {year_start:%B %-d, %Y} to December 31, {on.year}.")

    half_after = use(answer, town, "dog_license.half_after", on)
    half = bool(licensable_age_on and licensable_age_on > _month_day(on.year, half_after))
    factor = use(answer, town, "dog_license.half_rate", on) if half else 1
    if half:
        answer.steps.append(f"The dog reached licensable age after {fmt(town, 'dog_license.half_after', half_after)}"
                            f" of the license year, so it pays {factor:g} of the tax.")

    n_rate = _rate(answer, town, "dog_license.tax.neutered", on)
    u_rate = _rate(answer, town, "dog_license.tax.unneutered", on)
    exact = n_rate.exact and u_rate.exact
    scenarios = {}
    if neutered is None and taxed:
        scenarios = {"all spayed or neutered": taxed * n_rate.amount * factor,
                     "none spayed or neutered": taxed * u_rate.amount * factor}
        individual = scenarios["none spayed or neutered"]
        answer.steps.append(f"Per dog: spayed or neutered {n_rate.how}; not spayed or neutered {u_rate.how}.")
        answer.caveats.append("You didn't say whether your dogs are spayed or neutered; the total assumes "
                              "they are not (the higher tax). Spayed or neutered dogs pay less.")
        individual_words = f"{taxed} not spayed or neutered"
    else:
        k = neutered or 0
        individual = (k * n_rate.amount + (taxed - k) * u_rate.amount) * factor
        parts, counted = [], []
        if k:
            parts.append(f"{plural(k, 'spayed or neutered dog')} × {n_rate.how}")
            counted.append(f"{k} spayed or neutered")
        if taxed - k:
            parts.append(f"{plural(taxed - k, 'dog')} not spayed or neutered × {u_rate.how}")
            counted.append(f"{taxed - k} not spayed or neutered")
        if parts:
            answer.steps.append("License tax: " + "; ".join(parts) + (", halved" if half else "") +
                                f" = {'at least ' if not exact else ''}${individual:,.2f}.")
        individual_words = ", ".join(counted)
    if service_dogs and not exempt:
        answer.caveats.append(f"{town.name}'s chapter says nothing about service dogs, so they are counted at the "
                              "regular rate here; state law may exempt them — ask the Clerk.")
    elif service_dogs:
        free = use(answer, town, "dog_license.service_dog_tax", on)
        answer.steps.append(f"{plural(service_dogs, 'service dog')}: license tax {fmt(town, 'dog_license.service_dog_tax', free)}"
                            " (a free license, applied for every year).")

    total, option = individual, "individual licenses"
    if taxed > 1 and town.has_param("dog_license.multiple.fee"):
        base = use(answer, town, "dog_license.multiple.fee", on)
        included = use(answer, town, "dog_license.multiple.included_dogs", on)
        extra = use(answer, town, "dog_license.multiple.fee_per_extra_dog", on)
        multiple = base + max(0, taxed - included) * extra
        answer.steps.append(f"Multiple dog license instead: {fmt(town, 'dog_license.multiple.fee', base)} for up "
                            f"to {included} dogs + {fmt(town, 'dog_license.multiple.fee_per_extra_dog', extra)} for "
                            f"each dog beyond {included} = ${multiple:,.2f} for {plural(taxed, 'dog')}.")
        if multiple < individual:
            total, option = multiple, "a multiple dog license"
            answer.steps.append("The multiple dog license is cheaper.")
        elif exact:
            answer.steps.append("Individual licenses cost the same." if multiple == individual
                                else "Individual licenses are cheaper.")
        else:
            answer.steps.append(f"Individual licenses cost at least ${individual:,.2f}; whether they are cheaper "
                                f"than the multiple license depends on the {town.short_name} rate, which our copy "
                                "does not give.")
        if town.has_param("animal_limits.dogs"):
            answer.caveats.append("A multiple dog license does not raise the limit on how many dogs you may keep.")
    elif taxed > 1:
        answer.caveats.append(f"{town.name}'s chapter does not describe a multiple dog license; ask the Clerk "
                              "whether one is offered under state law.")

    answer.steps.append(late_rule)
    late_fee, fees_known = None, late is not None
    if late:
        late_fee = use(answer, town, "dog_license.late_fee", on)
        if late_fee is None:
            fees_known = False
            answer.steps.append(f"Late fee: {_unpublished(town.param('dog_license.late_fee').delegated_to)}.")
        else:
            total += late_fee
            answer.steps.append(f"Late fee: {fmt(town, 'dog_license.late_fee', late_fee)}, added to the license tax.")
        if town.has_param("dog_license.administrative_fee"):
            admin = use(answer, town, "dog_license.administrative_fee", on)
            if admin is None:
                fees_known = False
                answer.steps.append("Plus the Town administrative fee; its amount is not in our copy.")
            else:
                total += admin
                answer.steps.append(f"Town administrative fee: {fmt(town, 'dog_license.administrative_fee', admin)}.")

    # Exact when the tax part does not rest on a state minimum and every added fee is published.
    exact_total = (taxed == 0 or option == "a multiple dog license" or (n_rate.exact and u_rate.exact)) \
        and fees_known
    prefix = "" if exact_total else "at least "
    answer.value = {"total": round(total, 2), "exact": exact_total, "late": late, "option": option,
                    "late_fee": late_fee, "half": half, "scenarios": scenarios}
    who = f"{plural(dogs, 'dog')}" + (f" ({individual_words})" if individual_words and taxed else "")
    late_words = ""
    if late:
        late_words = (f", including the {fmt(town, 'dog_license.late_fee', late_fee)} late fee" if late_fee is not None
                      else ", plus a late fee whose amount is not in our copy")
    option_words = "an individual license" if option == "individual licenses" and dogs == 1 else option
    answer.result = (f"{prefix.capitalize() if prefix else ''}${total:,.2f} for {who} with {option_words}, bought "
                     f"{on:%B %-d, %Y}{late_words}.")
    if not exact_total:
        answer.result += (" Part of the amount is set locally and is not in our copy, so this uses the state "
                          "minimum where needed (see How): ask the Clerk for the exact amount.")
    _limit_warning(answer, town, dogs, on)
    add_gaps(answer, town, "license_cost")
    add_contact(answer, town)
    return answer


def _limit_warning(answer: Answer, town: Town, dogs: int, on: date) -> None:
    if not town.has_param("animal_limits.dogs"):
        return
    limit = town.value("animal_limits.dogs", on)
    if dogs > limit:
        answer.cite(town.param("animal_limits.dogs").reference)
        answer.caveats.append(f"Note: {town.name} allows at most {plural(limit, 'dog')} per residential unit "
                              "unless the limit is waived or you run a licensed kennel (see 'how many dogs').")
