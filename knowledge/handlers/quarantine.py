"""Rabies quarantine dates after a bite or an exposure.

Dunkirk Code 7.02-5(d) (isolation and confinement periods) and 7.02-9 (the owner's duty after a bite): both
periods apply after a bite, and both are reported. Mequon Code 58-527 (derived number): home quarantine with
proof of vaccination, clinic quarantine without it, and the certificate returned within its deadline.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..errors import NeedsClarification
from ..model import Answer, Town
from .common import a_day, add_contact, add_gaps, not_covered, plural, use

KINDS = ("bite", "exposure")
ANIMALS = ("dog", "cat", "other")


def _period(answer: Answer, town: Town, name: str, incident: date, today: date, what: str) -> date:
    days = use(answer, town, name, incident)
    end = incident + timedelta(days=days)
    status = "still running" if today <= end else "over"
    answer.steps.append(f"{what} ({town.param(name).reference.ref}): {plural(days, 'day')} from {incident:%B %-d, %Y} → through "
                        f"{end:%B %-d, %Y} ({status} as of {today:%B %-d, %Y}).")
    answer.data.setdefault("periods", {})[name] = end.isoformat()
    return end


def quarantine(town: Town, *, incident: date, today: date, kind: str = "bite", animal: str = "dog",
               vaccinated: bool | None = None) -> Answer:
    """Quarantine periods with concrete end dates for an incident on ``incident``."""
    incident, today = a_day(incident, "incident"), a_day(today, "today")
    if kind not in KINDS:
        raise NeedsClarification("Was it a bite, or contact with an animal that may have rabies?", field="kind")
    if animal not in ANIMALS:
        raise NeedsClarification("Which animal: a dog, a cat or another animal?", field="animal")
    if incident > today:
        raise NeedsClarification(f"{incident:%B %-d, %Y} is in the future. On what date did it happen?",
                                 field="incident")
    if not town.topics["quarantine"].covered:
        return not_covered(town, "quarantine", today)
    answer = Answer(topic="quarantine", town=town.key, result="")
    if town.has_param("quarantine.bite_observation_days"):
        _dunkirk_rules(answer, town, incident, today, kind, animal, vaccinated)
    else:
        _mequon_rules(answer, town, incident, today, kind, animal, vaccinated)
    add_gaps(answer, town, "quarantine")
    add_contact(answer, town)
    return answer


def _say(answer: Answer, town: Town, name: str, on: date) -> str:
    """The text of the quarantine topic's rule ``name`` (topics.yml), its citation added to the answer."""
    rule = town.topics["quarantine"].rules[name]
    answer.cite(rule.citation)
    return town.render(rule.text, on)


def _dunkirk_rules(answer, town, incident, today, kind, animal, vaccinated) -> None:
    if animal == "other":
        answer.result = _say(answer, town, "other_animal", today)
        answer.caveats.append(_say(answer, town, "other_animal_next_step", today))
        return
    if kind == "bite":
        obs = _period(answer, town, "quarantine.bite_observation_days", incident, today,
                      "Strict isolation under a veterinarian's supervision")
        conf = _period(answer, town, "quarantine.bite_confinement_days", incident, today,
                       "The owner keeps the animal confined")
        answer.steps.append(_say(answer, town, "examinations", today))
        hours = use(answer, town, "quarantine.delivery_hours", incident)
        if vaccinated:
            answer.steps.append("With a current rabies vaccination the officer may order the quarantine on the "
                                "owner's premises.")
        else:
            answer.steps.append(f"Without proof of current vaccination the animal goes to an isolation facility "
                                f"within {plural(hours, 'hour')} of the order"
                                + ("." if vaccinated is False else " (unless it is currently vaccinated, when "
                                   "the officer may allow quarantine at home)."))
        obs_ref, conf_ref = (town.param(n).reference.ref for n in ("quarantine.bite_observation_days",
                                                                   "quarantine.bite_confinement_days"))
        answer.result = (f"After a bite on {incident:%B %-d, %Y}: isolation and observation through at least "
                         f"{obs:%B %-d, %Y} ({obs_ref}), and the {animal} must stay confined through at least "
                         f"{conf:%B %-d, %Y} ({conf_ref}). Both apply; the longer one ends {max(obs, conf):%B %-d, %Y}.")
        answer.value = {"observation_end": obs.isoformat(), "confinement_end": conf.isoformat(),
                        "ends": max(obs, conf).isoformat()}
        answer.caveats.append(_say(answer, town, "report_bite", today))
        return
    # exposure to a rabid animal
    if vaccinated is None:
        answer.caveats.append("You didn't say whether the animal is currently vaccinated; both cases are shown.")
    results = []
    if vaccinated in (False, None):
        end = _period(answer, town, "quarantine.exposure.unvaccinated_days", incident, today,
                      "Not vaccinated: leashed or confined")
        lo = use(answer, town, "quarantine.exposure.vaccinate_from_day", incident)
        hi = use(answer, town, "quarantine.exposure.vaccinate_to_day", incident)
        first, last = incident + timedelta(days=lo), incident + timedelta(days=hi)
        answer.steps.append(f"Vaccinate against rabies between day {lo} and day {hi} after the exposure: "
                            f"{first:%B %-d, %Y} to {last:%B %-d, %Y}.")
        results.append(f"if not vaccinated, leashed or confined through {end:%B %-d, %Y} and vaccinated "
                       f"between {first:%B %-d} and {last:%B %-d, %Y}")
        answer.value = {"unvaccinated_end": end.isoformat(), "vaccinate_from": first.isoformat(),
                        "vaccinate_to": last.isoformat()}
    if vaccinated in (True, None):
        end = _period(answer, town, "quarantine.exposure.vaccinated_days", incident, today,
                      "Vaccinated: leashed or confined")
        answer.steps.append("Have the animal revaccinated as soon as possible after the exposure.")
        results.append(f"if currently vaccinated, leashed or confined through {end:%B %-d, %Y} and "
                       "revaccinated as soon as possible")
        answer.value = {**(answer.value or {}), "vaccinated_end": end.isoformat()}
    answer.result = f"After exposure to a rabid animal on {incident:%B %-d, %Y}: " + "; ".join(results) + "."


def _mequon_rules(answer, town, incident, today, kind, animal, vaccinated) -> None:
    if kind != "bite" or animal == "other":
        answer.result = _say(answer, town, "other_cases", today)
        for c in town.topics["quarantine"].citations:
            answer.cite(c)
        return
    ret = _period(answer, town, "quarantine.certificate_return_days", incident, today,
                  "Return the certificate of quarantine to the police department")
    if vaccinated is not False:
        home = _period(answer, town, "quarantine.home_days", incident, today,
                       "With proof of current rabies vaccination: quarantine on the owner's premises")
        answer.steps.append(_say(answer, town, "home_quarantine_care", today))
    if vaccinated is not True:
        clinic = _period(answer, town, "quarantine.clinic_days", incident, today,
                         "Without proof of vaccination: quarantine in a licensed veterinary clinic")
    if vaccinated is None:
        answer.caveats.append("You didn't say whether you can show proof of rabies vaccination; both cases are "
                              "shown.")
        answer.result = (f"After a bite on {incident:%B %-d, %Y}: home quarantine through {home:%B %-d, %Y} with "
                         f"proof of vaccination, or clinic quarantine through {clinic:%B %-d, %Y} without it; "
                         f"return the certificate of quarantine by {ret:%B %-d, %Y}.")
    elif vaccinated:
        answer.result = (f"After a bite on {incident:%B %-d, %Y}: home quarantine through {home:%B %-d, %Y}; "
                         f"return the certificate of quarantine by {ret:%B %-d, %Y}.")
    else:
        answer.result = (f"After a bite on {incident:%B %-d, %Y}: quarantine in a licensed veterinary clinic "
                         f"through {clinic:%B %-d, %Y}, costs paid by the owner; return the certificate of "
                         f"quarantine by {ret:%B %-d, %Y}.")
    names = {"quarantine.home_days": "home_end", "quarantine.clinic_days": "clinic_end",
             "quarantine.certificate_return_days": "certificate_by"}
    answer.value = {names[k]: v for k, v in answer.data.get("periods", {}).items()}
    answer.caveats.append(_say(answer, town, "report_bite", today))
