"""Rabies quarantine periods after a bite or an exposure, with dates when the day of the incident is known.

Dunkirk Code 7.02-5(d) (isolation and confinement periods) and 7.02-9 (the owner's duty after a bite): both
periods apply after a bite, and both are reported. Mequon Code 58-527 (derived number): home quarantine with
proof of vaccination, clinic quarantine without it, and the certificate returned within its deadline; after an
exposure, the periods of Wis. Stat. 95.21 (58-525 refers to it) as our summary of the statute gives them.
Without the day of the incident the answer names every period and asks for the day (``data["needs"]``).
The words of the law are the towns' parameter descriptions and quarantine topic rules (topics.yml).
"""

from __future__ import annotations

from datetime import date, timedelta

from ..errors import NeedsClarification
from ..model import Answer, Town
from ..rules import lead_of
from .common import a_day, a_past_day, add_contact, add_gaps, not_covered, plural, say_rule, use, with_lead

KINDS = ("bite", "exposure")
ANIMALS = ("dog", "cat", "other")


def _period(answer: Answer, town: Town, name: str, incident: date | None, today: date) -> tuple[int, date | None]:
    """A step for the period set by parameter ``name``: its length and, with a day of the incident, its end."""
    p = town.param(name)
    days = use(answer, town, name, incident or today)
    if incident is None:
        answer.step(f"{p.description} ({p.reference.ref}): {plural(days, 'day')}.", p.reference)
        answer.data.setdefault("periods_days", {})[name] = days
        return days, None
    end = incident + timedelta(days=days)
    status = "still running" if today <= end else "over"
    answer.step(f"{p.description} ({p.reference.ref}): {plural(days, 'day')} from {incident:%B %-d, %Y} → through "
                f"{end:%B %-d, %Y} ({status} as of {today:%B %-d, %Y}).", p.reference)
    answer.data.setdefault("periods", {})[name] = end.isoformat()
    return days, end


@with_lead
def quarantine(town: Town, *, incident: date | None = None, today: date, kind: str = "bite", animal: str = "dog",
               vaccinated: bool | None = None) -> Answer:
    """Quarantine periods for an incident on ``incident`` (None: the periods in days, and the day is asked)."""
    today = a_day(today, "today")
    incident = None if incident is None else a_day(incident, "incident")
    if kind not in KINDS:
        raise NeedsClarification("Was it a bite, or contact with an animal that may have rabies?", field="kind")
    if animal not in ANIMALS:
        raise NeedsClarification("Which animal: a dog, a cat or another animal?", field="animal")
    if incident is not None:
        a_past_day(incident, "incident", today, "{day:%B %-d, %Y} is in the future. On what date did it happen?")
    if not town.topics["quarantine"].covered:
        return not_covered(town, "quarantine", today)
    answer = Answer(topic="quarantine", town=town.key, result="")
    if town.has_param("quarantine.bite_observation_days"):
        _isolation_style(answer, town, incident, today, kind, animal, vaccinated)
    else:
        _home_clinic_style(answer, town, incident, today, kind, animal, vaccinated)
    if incident is None and "needs" not in answer.data and not answer.data.get("no_period"):
        answer.data["needs"] = "incident"
        answer.result += " Tell me the date it happened for the exact dates."
    answer.data.pop("no_period", None)
    add_gaps(answer, town, "quarantine")
    add_contact(answer, town)
    return answer


def _say(answer: Answer, town: Town, name: str, on: date, step: bool = True) -> str:
    """The text of the quarantine topic's rule ``name`` (topics.yml); a step citing it unless ``step`` is False."""
    return say_rule(answer, town, town.topics["quarantine"].rules[name], on, step)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _on(day: date | None) -> str:
    return f" on {day:%B %-d, %Y}" if day else ""


def _isolation_style(answer, town, incident, today, kind, animal, vaccinated) -> None:
    """Towns with an isolation period and the owner's confinement after a bite (Dunkirk 7.02-5(d), 7.02-9)."""
    if animal == "other":
        answer.result = _say(answer, town, "other_animal", today, step=False)
        answer.caveats.append(_say(answer, town, "other_animal_next_step", today, step=False))
        answer.data["no_period"] = True
        return
    if kind == "bite":
        obs_name, conf_name = "quarantine.bite_observation_days", "quarantine.bite_confinement_days"
        obs_days, obs = _period(answer, town, obs_name, incident, today)
        conf_days, conf = _period(answer, town, conf_name, incident, today)
        _say(answer, town, "examinations", today)
        use(answer, town, "quarantine.delivery_hours", incident or today)
        if vaccinated:
            _say(answer, town, "home_if_vaccinated", today)
        else:
            _say(answer, town, "isolation_facility", today)
            if vaccinated is None:
                _say(answer, town, "home_if_vaccinated", today)
        _say(answer, town, "release", today)
        _say(answer, town, "officer_may_direct", today)
        obs_ref, conf_ref = (town.param(n).reference.ref for n in (obs_name, conf_name))
        obs_what, conf_what = (town.param(n).description.lower() for n in (obs_name, conf_name))
        if incident is None:
            answer.result = (f"After a bite, two periods apply: {obs_what} for at least {plural(obs_days, 'day')} "
                             f"after the bite ({obs_ref}), and {conf_what} for not less than "
                             f"{plural(conf_days, 'day')} ({conf_ref}). The longer one, "
                             f"{plural(max(obs_days, conf_days), 'day')}, ends the quarantine.")
            answer.value = {"observation_days": obs_days, "confinement_days": conf_days}
            longer = conf_ref if conf_days >= obs_days else obs_ref
            answer.lead = (f"At least {plural(max(obs_days, conf_days), 'day')} ({longer}); "
                           f"{obs_what} for at least {plural(obs_days, 'day')} ({obs_ref}).")
        else:
            answer.result = (f"After a bite on {incident:%B %-d, %Y}: {obs_what} through at least "
                             f"{obs:%B %-d, %Y} ({obs_ref}), and {conf_what} through at least {conf:%B %-d, %Y} "
                             f"({conf_ref}). Both apply; the longer one ends {max(obs, conf):%B %-d, %Y}.")
            answer.value = {"observation_end": obs.isoformat(), "confinement_end": conf.isoformat(),
                            "ends": max(obs, conf).isoformat()}
            longer = conf_ref if conf >= obs else obs_ref
            end = max(obs, conf)  # the year only when it is not this one: the lead fits one SMS segment
            answer.lead = (f"At least {plural(max(obs_days, conf_days), 'day')}, through "
                           f"{end:%B %-d}{'' if end.year == today.year else f', {end.year}'} "
                           f"({longer}); {obs_what} for at least {plural(obs_days, 'day')}, through {obs:%B %-d} ({obs_ref}).")
        answer.caveats.append(_say(answer, town, "report_bite", today, step=False))
        return
    _exposure(answer, town, incident, today, vaccinated)


def _exposure(answer, town, incident, today, vaccinated) -> None:
    """A dog or cat exposed to a rabid animal: the periods of the town's quarantine.exposure.* parameters
    (Dunkirk 7.02-5(d)(3); Mequon: Wis. Stat. 95.21, which 58-525 refers to). The quarantine topic's rules
    `report_exposure` (optional: opens the answer), `vaccinate_window` and `revaccinate` (optional) give the words."""
    rules = town.topics["quarantine"].rules
    report = _say(answer, town, "report_exposure", today) if "report_exposure" in rules else ""
    if report and getattr(rules["report_exposure"], "lead", ""):
        answer.lead = lead_of(town, rules["report_exposure"], today)
    if vaccinated is None:
        answer.caveats.append("You didn't say whether the animal is currently vaccinated; both cases are shown.")
    results, value = [], {}
    if vaccinated in (False, None):
        name = "quarantine.exposure.unvaccinated_days"
        days, end = _period(answer, town, name, incident, today)
        lo = use(answer, town, "quarantine.exposure.vaccinate_from_day", incident or today)
        hi = use(answer, town, "quarantine.exposure.vaccinate_to_day", incident or today)
        window = _say(answer, town, "vaccinate_window", today)
        what = _lower(town.param(name).description)
        if incident is None:
            results.append(f"{what} for {plural(days, 'day')}; {_lower(window).rstrip('.')}")
            value.update(unvaccinated_days=days, vaccinate_from_day=lo, vaccinate_to_day=hi)
        else:
            first, last = incident + timedelta(days=lo), incident + timedelta(days=hi)
            answer.step(f"That is {first:%B %-d, %Y} to {last:%B %-d, %Y}.",
                        town.param("quarantine.exposure.vaccinate_from_day").reference)
            results.append(f"{what} for {plural(days, 'day')}, through {end:%B %-d, %Y}; vaccination between {first:%B %-d} and "
                           f"{last:%B %-d, %Y}")
            value.update(unvaccinated_end=end.isoformat(), vaccinate_from=first.isoformat(),
                         vaccinate_to=last.isoformat())
    if vaccinated in (True, None):
        name = "quarantine.exposure.vaccinated_days"
        days, end = _period(answer, town, name, incident, today)
        again = _say(answer, town, "revaccinate", today) if "revaccinate" in rules else ""
        span = f"for {plural(days, 'day')}" + ("" if incident is None else f", through {end:%B %-d, %Y}")
        results.append(f"{_lower(town.param(name).description)} {span}"
                       + (f"; {_lower(again).rstrip('.')}" if again else ""))
        value.update(vaccinated_days=days) if incident is None else value.update(vaccinated_end=end.isoformat())
    answer.value = value
    answer.result = (f"{report} " if report else "") + \
        f"After exposure to a rabid animal{_on(incident)}: " + "; ".join(results) + "."


def _home_clinic_style(answer, town, incident, today, kind, animal, vaccinated) -> None:
    """Towns with home quarantine given proof of vaccination, clinic quarantine without (Mequon 58-527)."""
    if kind == "exposure" and animal != "other" and town.has_param("quarantine.exposure.unvaccinated_days"):
        _exposure(answer, town, incident, today, vaccinated)
        return
    if kind != "bite" or animal == "other":
        answer.result = _say(answer, town, "other_cases", today, step=False)
        for c in town.topics["quarantine"].citations:
            answer.cite(c)
        answer.data["no_period"] = True
        return
    ret_days, ret = _period(answer, town, "quarantine.certificate_return_days", incident, today)
    home_days = clinic_days = home = clinic = None
    if vaccinated is not False:
        home_days, home = _period(answer, town, "quarantine.home_days", incident, today)
        _say(answer, town, "home_quarantine_care", today)
    if vaccinated is not True:
        clinic_days, clinic = _period(answer, town, "quarantine.clinic_days", incident, today)
        _say(answer, town, "clinic_costs", today)
    if vaccinated is None:
        answer.caveats.append("You didn't say whether you can show proof of rabies vaccination; both cases are "
                              "shown.")

    def said(name, days, end, within=False):
        when = f"within {plural(days, 'day')} of the bite" if within else f"for {plural(days, 'day')}"
        if incident is not None:
            when += f", by {end:%B %-d, %Y}" if within else f", through {end:%B %-d, %Y}"
        return f"{town.param(name).description} {when}"
    parts = []
    if home_days is not None:
        parts.append(said("quarantine.home_days", home_days, home))
    if clinic_days is not None:
        parts.append(said("quarantine.clinic_days", clinic_days, clinic))
    parts.append(said("quarantine.certificate_return_days", ret_days, ret, within=True))
    answer.result = f"After a bite{_on(incident)}: " + "; ".join(_lower(p) for p in parts) + "."
    if incident is None:
        answer.value = {k: v for k, v in (("home_days", home_days), ("clinic_days", clinic_days),
                                          ("certificate_within_days", ret_days)) if v is not None}
    else:
        names = {"quarantine.home_days": "home_end", "quarantine.clinic_days": "clinic_end",
                 "quarantine.certificate_return_days": "certificate_by"}
        answer.value = {names[k]: v for k, v in answer.data.get("periods", {}).items()}
    answer.caveats.append(_say(answer, town, "report_bite", today, step=False))
