"""Property-based checks (hypothesis): no valid input raises, and every answer cites existing text."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge import NeedsClarification, handlers, load_town, town as shared_town, when
from knowledge.loader import resolve
from knowledge.model import Answer, BurningOrder

TOWNS = {key: shared_town(key) for key in ("dunkirk", "mequon")}
towns = st.sampled_from(sorted(TOWNS))
days = st.dates(min_value=date(2020, 1, 1), max_value=date(2032, 12, 31))
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_cited(answer: Answer, town_key: str) -> None:
    town = TOWNS[town_key]
    assert answer.result.strip(), "an answer states a result"
    assert answer.citations, f"no citation for {answer.result!r}"
    for c in answer.citations:
        found = resolve(town.sections, c.ref)
        assert found is not None, f"{c.ref} is not a section of {town_key}"
        assert c.quote in " ".join(found[0].text_at(found[1]).split()), f"{c.quote!r} not in {c.ref}"


@st.composite
def license_inputs(draw):
    on = draw(days)
    dogs = draw(st.integers(1, 40))
    before = st.none() | st.dates(min_value=on - timedelta(days=800), max_value=on)
    return dict(on=on, dogs=dogs, neutered=draw(st.none() | st.integers(0, dogs)),
                service_dogs=draw(st.integers(0, dogs)), acquired=draw(before), moved_in=draw(before),
                licensable_age_on=draw(st.none() | st.dates(min_value=on - timedelta(days=800),
                                                            max_value=on + timedelta(days=200))))


@SETTINGS
@given(towns, license_inputs())
def test_license_cost_never_raises_and_cites(town, inputs):
    answer = handlers.license_cost(TOWNS[town], **inputs)
    assert_cited(answer, town)
    assert answer.value["total"] >= 0


@SETTINGS
@given(towns, days, st.integers(0, 400), st.sampled_from(["bite", "exposure"]),
       st.sampled_from(["dog", "cat", "other"]), st.none() | st.booleans())
def test_quarantine_never_raises_and_cites(town, incident, later, kind, animal, vaccinated):
    answer = handlers.quarantine(TOWNS[town], incident=incident, today=incident + timedelta(days=later),
                                 kind=kind, animal=animal, vaccinated=vaccinated)
    assert_cited(answer, town)


@SETTINGS
@given(towns, days, st.none() | st.integers(0, 100), st.none() | st.integers(0, 100))
def test_animal_limits_never_raise_and_cite(town, on, dogs, cats):
    assert_cited(handlers.animal_limits(TOWNS[town], on=on, dogs=dogs, cats=cats), town)


materials = st.none() | st.sampled_from(["brush", "leaves", "old tires", "garbage", "plastic", "fireworks",
                                         "oily rags", "a couch", "wet leaves", "asphalt shingles", ""])


@SETTINGS
@given(towns, st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2032, 12, 31)),
       st.none() | st.booleans(), materials)
def test_burning_never_raises_and_cites(town, moment, order, material):
    at = moment.replace(tzinfo=ZoneInfo("America/Chicago"))
    answer = handlers.burning(TOWNS[town], at=at, order=None if order is None else BurningOrder(order, "test"),
                              material=material)
    assert_cited(answer, town)
    if town == "dunkirk" and order:
        assert answer.value["allowed"] is False


@pytest.mark.parametrize("town", sorted(TOWNS))
def test_every_topic_and_section_answers_with_a_citation(town):
    t = TOWNS[town]
    for key in t.topics:
        answer = handlers.topic(t, key, on=date(2026, 5, 1))
        if t.topics[key].covered:
            assert_cited(answer, town)
        else:
            assert "does not cover" in answer.result and t.clerk.name in " ".join(answer.caveats)
    for number, section in t.sections.items():
        if section.code == t.code_name:
            assert_cited(handlers.section(t, number), town)


phrases = st.lists(st.sampled_from(["now", "tonight", "tomorrow", "at", "3", "10pm", "on", "saturday", "next",
                                    "last", "tuesday", "march", "july 4", "in", "may", "noon", "the", "weekend",
                                    "12/5", "2026-03-03", "blorp", "at 25:99", "this evening", "99pm"]),
                   min_size=1, max_size=5).map(" ".join)


@SETTINGS
@given(towns, phrases, st.datetimes(min_value=datetime(2021, 1, 1), max_value=datetime(2031, 1, 1)))
def test_time_phrases_resolve_or_ask_never_crash(town, phrase, now):
    t = TOWNS[town]
    try:
        moment = when.resolve(phrase, t, now.replace(tzinfo=ZoneInfo(t.timezone)))
    except NeedsClarification as err:
        assert err.field in ("when", "time")
        return
    assert moment.start.tzinfo is not None and moment.said


def test_impossible_inputs_ask_for_clarification():
    t = TOWNS["dunkirk"]
    cases = [
        (lambda: handlers.license_cost(t, on=date(2026, 5, 1), dogs=-1), "dogs"),
        (lambda: handlers.quarantine(t, incident=date(2026, 12, 1), today=date(2026, 11, 30)), "incident"),
        (lambda: load_town("atlantis"), "town"),
        (lambda: handlers.burning(t, at=datetime(2026, 7, 4, 12, 0)), "when"),  # no time zone
        (lambda: when.resolve("tomorrow", t, datetime(2026, 7, 4, 12, 0)), "now"),
        (lambda: handlers.animal_limits(t, on=date(2026, 5, 1), dogs=2.5), "dogs"),
        (lambda: handlers.topic(t, "parking_tickets", on=date(2026, 5, 1)), "topic"),
    ]
    for call, field in cases:
        with pytest.raises(NeedsClarification) as err:
            call()
        assert err.value.field == field and err.value.message
