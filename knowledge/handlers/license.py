"""Dog license cost: tax per dog, the multiple-dog license, service dogs, half price, late fees.

Dunkirk Code 7.02-1 to 7.02-4 (adopting Wis. Stat. 174.05-174.10); Mequon Code 58-533 (derived number), which
adopts the same statutes. Where the code delegates an amount that our copy does not give, the state-law minimum
is used and the answer says "at least"; the Clerk's fee schedule (fees.yml) supplies the real amount when the
town publishes it. Every step carries the citations that back it; the words of the law are in the towns' YAML.
When a license is due and whether it is late: license_dates.py; the answer's words: license_words.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..errors import NeedsClarification
from ..model import Answer, Citation, Town
from .common import a_day, add_contact, add_gaps, fmt, plural, use, whole_count, with_lead
from .license_dates import LateRule, late_rule, month_day, refs, topic_rule
from .license_words import cost_result, set_cost_lead

OPTIONS = (None, "individual", "multiple")


@dataclass(frozen=True)
class Rate:
    amount: float
    exact: bool  # False: only the state minimum is known
    how: str
    citations: tuple[Citation, ...]


def _rate(answer: Answer, town: Town, name: str, on: date) -> Rate:
    """The per-dog tax: the town's own amount, else the state minimum it may not go below."""
    value = use(answer, town, name, on)
    p = town.param(name)
    if value is not None:
        return Rate(value, True, f"{fmt(town, name, value)} ({p.description.lower()})", (p.reference,))
    if not p.minimum:
        raise NeedsClarification(f"The amount of {p.description.lower()} is not published in our copy of "
                                 f"the code. Please ask {town.contact_line()}.", field="fee")
    minimum = use(answer, town, p.minimum, on)
    return Rate(minimum, False, f"at least {fmt(town, p.minimum, minimum)}, the state minimum "
                                f"({town.param(p.minimum).reference.label}); {_unpublished(p.delegated_to)}",
                (p.reference, town.param(p.minimum).reference))


def _unpublished(delegated_to: str) -> str:
    """'the amount set by <body> is not in our copy', without saying so twice when the data already does."""
    if "our copy" in delegated_to:
        return f"the amount is set by {delegated_to}"
    return f"the amount set by {delegated_to} is not in our copy"


def _half(town: Town, on: date, licensable_age_on: date | None) -> bool:
    """Wis. Stat. 174.05(2): half the tax if the dog became licensable age after July 1 of the license year."""
    half_after = town.value("dog_license.half_after", on)
    year_start = month_day(on.year, town.value("wi.dog_license.year_start", on))
    return bool(licensable_age_on and licensable_age_on >= year_start
                and licensable_age_on > month_day(on.year, half_after))


def _check(on, dogs, neutered, service_dogs, acquired, moved_in, licensable_age_on, option):
    on = a_day(on, "on")
    dogs = whole_count(dogs, "dogs", "dogs", low=1)
    service_dogs = whole_count(service_dogs, "service_dogs", "service dogs")
    if service_dogs > dogs:
        raise NeedsClarification(f"You mentioned {service_dogs} service dogs but {dogs} dogs in all. "
                                 "How many dogs do you have?", field="dogs")
    if neutered is not None:
        neutered = whole_count(neutered, "neutered", "spayed or neutered dogs")
        if neutered > dogs:
            raise NeedsClarification(f"You mentioned {neutered} spayed or neutered dogs but {dogs} dogs in "
                                     "all. How many are spayed or neutered?", field="neutered")
    for name, value in (("acquired", acquired), ("moved_in", moved_in)):
        if value is not None and a_day(value, name) > on:
            raise NeedsClarification("That date is after the day you'd buy the license. When did you get "
                                     "the dog (or move in)?", field=name)
    if licensable_age_on is not None:
        licensable_age_on = a_day(licensable_age_on, "licensable_age_on")
    if option not in OPTIONS:
        raise NeedsClarification("Do you mean individual licenses or a multiple dog license?", field="option")
    if option == "multiple" and dogs < 2:
        raise NeedsClarification("A multiple dog license is for a person who keeps more than one dog. "
                                 "How many dogs do you keep?", field="dogs")
    return on, dogs, neutered, service_dogs, licensable_age_on


@with_lead
def license_cost(town: Town, *, on: date, dogs: int = 1, neutered: int | None = None, service_dogs: int = 0,
                 acquired: date | None = None, moved_in: date | None = None,
                 licensable_age_on: date | None = None, option: str | None = None) -> Answer:
    """What a resident pays for dog licenses bought on ``on`` (Dunkirk 7.02-3, 7.02-4; Mequon 58-533).

    ``option``: None (the cheaper of individual licenses and a multiple dog license), "individual" or
    "multiple" (the license the resident asked about). ``answer.data["needs"] == "licensable_age_on"`` when
    the day the dog turned licensable age would change the answer and was not given.
    """
    on, dogs, neutered, service_dogs, licensable_age_on = _check(
        on, dogs, neutered, service_dogs, acquired, moved_in, licensable_age_on, option)
    exempt = service_dogs if town.has_param("dog_license.service_dog_tax") else 0
    taxed = dogs - exempt
    if neutered is not None:
        neutered = min(neutered, taxed)

    answer = Answer(topic="license_cost", town=town.key, result="")
    age = use(answer, town, "dog_license.licensable_age_months", on)
    if licensable_age_on and licensable_age_on > on:
        return _not_yet_licensable(answer, town, age, dogs=dogs, neutered=neutered, service_dogs=service_dogs,
                                   acquired=acquired, moved_in=moved_in, licensable_age_on=licensable_age_on,
                                   option=option)

    rule = late_rule(answer, town, on, acquired, moved_in, licensable_age_on)
    half, factor = _license_year(answer, town, on, age, licensable_age_on)
    _needs_age(answer, town, on, rule, half, acquired, moved_in, licensable_age_on)

    n_rate = _rate(answer, town, "dog_license.tax.neutered", on)
    u_rate = _rate(answer, town, "dog_license.tax.unneutered", on)
    rates_exact = n_rate.exact and u_rate.exact
    individual, individual_words, scenarios = _individual(answer, taxed, neutered, n_rate, u_rate, factor, half,
                                                          option)
    _service_dogs(answer, town, on, service_dogs, exempt)

    total, chosen = _choose(answer, town, on, dogs, taxed, individual, rates_exact, option)

    answer.step(rule.text, *rule.citations)
    late_fee, fees_known = _late_fee(answer, town, on, rule)
    if late_fee is not None:
        total += late_fee
    admin_known, admin = _administrative_fee(answer, town, on, rule.late)
    total += admin
    fees_known = admin_known and fees_known
    if rule.late is None:
        fees_known = False

    exact_total = (taxed == 0 or chosen == "multiple" or rates_exact) and fees_known
    option_name = {"individual": "individual licenses", "multiple": "a multiple dog license"}[chosen]
    answer.value = {"total": round(total, 2), "exact": exact_total, "late": rule.late, "option": option_name,
                    "late_fee": late_fee, "half": half, "scenarios": scenarios}
    facts = (town, on, dogs, taxed, total, exact_total, chosen, individual_words, rule.late, late_fee)
    answer.result = cost_result(*facts, rates_exact)
    set_cost_lead(answer, facts, chosen=chosen, taxed=taxed, exact=exact_total)
    _limit_warning(answer, town, dogs, on)
    add_gaps(answer, town, "license_cost", on)
    add_contact(answer, town)
    return answer


def _not_yet_licensable(answer: Answer, town: Town, age, *, dogs, neutered, service_dogs, acquired, moved_in,
                        licensable_age_on: date, option) -> Answer:
    """A dog not yet of licensable age on the day asked: no license yet, the day to license it by, and what the
    license will cost when bought on the day it reaches that age."""
    answer.result = (f"No license is needed yet: your dog reaches licensable age ({age} months) on "
                     f"{licensable_age_on:%B %-d, %Y}.")
    answer.step(f"A license is required for a dog {age} months of age or older.",
                *refs(town, "dog_license.licensable_age_months"))
    rule = late_rule(answer, town, licensable_age_on, acquired, moved_in, licensable_age_on)
    if rule.deadline:
        answer.step(f"License it by {rule.deadline:%B %-d, %Y} to avoid the late fee.", *rule.citations)
    # what the license will cost when bought by that day (the resident asked "how much is her license?")
    then = license_cost(town, on=licensable_age_on, dogs=dogs, neutered=neutered, service_dogs=service_dogs,
                        acquired=acquired, moved_in=moved_in, licensable_age_on=licensable_age_on,
                        option=option)
    answer.step(f"Bought on {licensable_age_on:%B %-d, %Y}: {then.result}", *then.citations)
    for step in then.steps:
        answer.step(str(step), *step.citations)
    answer.value = {"total": 0.0, "exact": True, "late": False, "then": then.value}
    add_contact(answer, town)
    return answer


def _license_year(answer: Answer, town: Town, on: date, age, licensable_age_on: date | None) -> tuple[bool, float]:
    """The license year as a step, and whether the dog pays part of the tax for reaching licensable age late in
    it (Wis. Stat. 174.05(2)): (half, the share of the tax paid)."""
    year_start = month_day(on.year, use(answer, town, "wi.dog_license.year_start", on))
    answer.step(f"License year: {year_start:%B %-d, %Y} to December 31, {on.year}.",
                *refs(town, "wi.dog_license.year_start"))

    use(answer, town, "dog_license.half_after", on)
    half = _half(town, on, licensable_age_on)
    factor = use(answer, town, "dog_license.half_rate", on) if half else 1
    if half:
        answer.step(f"The dog reached licensable age ({age} months) on {licensable_age_on:%B %-d, %Y}, after "
                    f"{fmt(town, 'dog_license.half_after', town.value('dog_license.half_after', on))} of the "
                    f"license year, so it pays {'half' if factor == 0.5 else f'{factor:g}'} of the tax.",
                    *refs(town, "dog_license.half_after"), *refs(town, "dog_license.half_rate"))
    elif licensable_age_on and licensable_age_on >= year_start:
        answer.step(f"The dog reached licensable age ({age} months) on {licensable_age_on:%B %-d, %Y}, not after "
                    f"{fmt(town, 'dog_license.half_after', town.value('dog_license.half_after', on))}, so the full "
                    "tax applies (not half).", *refs(town, "dog_license.half_after"))
    return half, factor


def _individual(answer: Answer, taxed: int, neutered: int | None, n_rate: Rate, u_rate: Rate, factor, half: bool,
                option: str | None) -> tuple[float, str, dict]:
    """The tax of individual licenses for the ``taxed`` dogs, as a step unless the resident asked about the
    multiple license: (the total, the dogs counted by kind, {scenario: total} when ``neutered`` is unknown)."""
    rates_exact = n_rate.exact and u_rate.exact
    scenarios = {}
    if neutered is None and taxed:
        scenarios = {"all spayed or neutered": taxed * n_rate.amount * factor,
                     "none spayed or neutered": taxed * u_rate.amount * factor}
        individual = scenarios["none spayed or neutered"]
        if option != "multiple":
            answer.step(f"Per dog: spayed or neutered {n_rate.how}; not spayed or neutered {u_rate.how}.",
                        *n_rate.citations, *u_rate.citations)
            answer.caveats.append("You didn't say whether your dogs are spayed or neutered; the total assumes "
                                  "they are not (the higher tax). Spayed or neutered dogs pay less.")
        individual_words = f"{taxed} not spayed or neutered"
    else:
        k = neutered or 0
        individual = (k * n_rate.amount + (taxed - k) * u_rate.amount) * factor
        parts, counted, cites = [], [], []
        if k:
            parts.append(f"{plural(k, 'spayed or neutered dog')} × {n_rate.how}")
            counted.append(f"{k} spayed or neutered")
            cites += n_rate.citations
        if taxed - k:
            parts.append(f"{plural(taxed - k, 'dog')} not spayed or neutered × {u_rate.how}")
            counted.append(f"{taxed - k} not spayed or neutered")
            cites += u_rate.citations
        if parts and option != "multiple":
            answer.step("License tax: " + "; ".join(parts) + (", halved" if half else "") +
                        f" = {'at least ' if not rates_exact else ''}${individual:,.2f}.", *cites)
        individual_words = ", ".join(counted)
    return individual, individual_words, scenarios


def _service_dogs(answer: Answer, town: Town, on: date, service_dogs: int, exempt: int) -> None:
    """Service dogs: the free license where the town's code has one, else a caveat that they are counted."""
    if service_dogs and not exempt:
        answer.caveats.append(f"{town.name}'s code, as we hold it, says nothing about service dogs, so they are "
                              "counted at the regular rate here; ask the Clerk.")
    elif service_dogs:
        free = use(answer, town, "dog_license.service_dog_tax", on)
        answer.step(f"{plural(service_dogs, 'service dog')}: license tax "
                    f"{fmt(town, 'dog_license.service_dog_tax', free)} (a free license, applied for every year).",
                    *refs(town, "dog_license.service_dog_tax"))


def _late_fee(answer: Answer, town: Town, on: date, rule: LateRule) -> tuple[float | None, bool]:
    """The late fee of a late license as a step, once per owner where the town says so: (its amount, None when
    not late or not published; whether the fees are known)."""
    late_fee, fees_known = None, rule.late is not None
    if rule.late:
        late_fee = use(answer, town, "dog_license.late_fee", on)
        once = topic_rule(town, "late_fee", "once_per_owner")
        once_words, once_cites = (f" {town.render(once.text, on)}.", (once.citation,)) if once else ("", ())
        if late_fee is None:
            fees_known = False
            answer.step(f"Late fee: {_unpublished(town.param('dog_license.late_fee').delegated_to)}.{once_words}",
                        *refs(town, "dog_license.late_fee"), *once_cites)
        else:
            answer.step(f"Late fee: {fmt(town, 'dog_license.late_fee', late_fee)}, added once to the license "
                        f"tax.{once_words}", *refs(town, "dog_license.late_fee"), *once_cites)
    return late_fee, fees_known


def _needs_age(answer, town, on, rule: LateRule, half: bool, acquired, moved_in, licensable_age_on) -> None:
    """Flag ``data["needs"] = "licensable_age_on"`` when a puppy's five-month day would change the answer:
    a dog acquired or brought in this year may have been younger than licensable age then."""
    if licensable_age_on is not None or not rule.assumes_licensable:
        return
    # The other end of the range: the dog turned licensable age on the day the license is bought.
    alt = late_rule(Answer(topic="", result=""), town, on, acquired, moved_in, on)
    if alt.late != rule.late or _half(town, on, on) != half:
        answer.data["needs"] = "licensable_age_on"
        age = town.value("dog_license.licensable_age_months", on)
        answer.caveats.insert(0, f"If your dog was younger than {age} months when you got it (or moved in), "
                                 f"tell me the day it turned {age} months: the deadline counts from that day, "
                                 "and a dog that turned that age after "
                                 f"{fmt(town, 'dog_license.half_after', town.value('dog_license.half_after', on))}"
                                 " pays half.")


def _choose(answer, town, on, dogs, taxed, individual, rates_exact, option) -> tuple[float, str]:
    """Individual licenses or the multiple dog license (Wis. Stat. 174.053; Dunkirk 7.02-3(b))."""
    if not town.has_param("dog_license.multiple.fee"):
        if dogs > 1:
            answer.caveats.append(f"{town.name}'s code, as we hold it, does not describe a multiple dog license; "
                                  "ask the Clerk whether one is offered under state law.")
        return individual, "individual"
    if dogs < 2 or option == "individual" or (taxed < 2 and option is None):
        return individual, "individual"
    base = use(answer, town, "dog_license.multiple.fee", on)
    included = use(answer, town, "dog_license.multiple.included_dogs", on)
    extra = use(answer, town, "dog_license.multiple.fee_per_extra_dog", on)
    over = max(0, taxed - included)
    multiple = base + over * extra
    cites = (*refs(town, "dog_license.multiple.fee"), *refs(town, "dog_license.multiple.included_dogs"),
             *refs(town, "dog_license.multiple.fee_per_extra_dog"))
    label = "Multiple dog license" if option == "multiple" else "Multiple dog license instead"
    answer.step(f"{label}: {fmt(town, 'dog_license.multiple.fee', base)} for {included} or fewer dogs"
                + (f" + {over} dog{'s' if over != 1 else ''} over {included} × "
                   f"{fmt(town, 'dog_license.multiple.fee_per_extra_dog', extra)}" if over else
                   f" ({plural(taxed, 'dog')}, none over {included})")
                + f" = ${multiple:,.2f}.", *cites)
    if option == "multiple":
        return multiple, "multiple"
    if multiple < individual:
        answer.step("The multiple dog license is cheaper.", *cites)
        chosen = "multiple"
    elif rates_exact:
        answer.step("Individual licenses cost the same." if multiple == individual
                    else "Individual licenses are cheaper.", *cites)
        chosen = "individual"
    else:
        answer.step(f"Individual licenses cost at least ${individual:,.2f}; whether they are cheaper than the "
                    f"multiple license depends on the {town.short_name} rate, which our copy does not give.",
                    *cites, *refs(town, "dog_license.tax.neutered"))
        chosen = "individual"
    if town.has_param("animal_limits.dogs"):
        answer.caveats.append("A multiple dog license does not raise the limit on how many dogs you may keep.")
    return (multiple if chosen == "multiple" else individual), chosen


def _administrative_fee(answer: Answer, town: Town, on: date, late: bool | None) -> tuple[bool, float]:
    """A fee the code names beside the license (Dunkirk 7.02-4): added when its amount is known and the
    license is late; otherwise named in a step, and the total stays "at least". (nothing unknown?, amount)"""
    name = "dog_license.administrative_fee"
    if not town.has_param(name):
        return True, 0.0
    p = town.param(name)
    amount = use(answer, town, name, on)
    if amount is None:
        answer.step(f"{p.description} may be added: {_unpublished(p.delegated_to)}, so the total is a "
                    "minimum.", *refs(town, name))
        return False, 0.0
    if late:
        answer.step(f"{p.description}: {fmt(town, name, amount)}, added.", *refs(town, name))
        return True, amount
    answer.step(f"{p.description}: {fmt(town, name, amount)}; the code names it beside the late fee, so ask the "
                "Clerk whether it applies to a license bought on time.", *refs(town, name))
    return False, 0.0


def _limit_warning(answer: Answer, town: Town, dogs: int, on: date) -> None:
    if not town.has_param("animal_limits.dogs"):
        return
    limit = town.value("animal_limits.dogs", on)
    if dogs > limit:
        answer.cite(town.param("animal_limits.dogs").reference)
        p = town.param("animal_limits.dogs")
        exceptions = []
        for name in ("waiver", "kennel"):  # the limit's own exceptions (7.02-17(b)(2), (c))
            rule = town.topics["animal_limits"].rules.get(name)
            if rule is not None:
                exceptions.append(town.render(rule.text, on).rstrip("."))
                answer.cite(rule.citation)
        answer.caveats.append(f"{town.name} allows at most {plural(limit, 'dog')} ({p.description.lower()}, "
                              f"{p.reference.ref})" + (": " + "; ".join(exceptions) if exceptions else "") + ".")

