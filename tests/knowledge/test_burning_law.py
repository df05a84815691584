"""The burning answers state the law from the towns' data, and every step says which text backs it.

Issue #10: burning.py and the burn_*.py modules it uses hold no statement of law (no section numbers, no
"Class C", no "Town Board"...), and every step of every burning answer (burning, burn_window,
burning_order_status) carries its own citation.
"""

from __future__ import annotations

import ast
import importlib
import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge import handlers, town as shared_town
from knowledge.model import BurningOrder, Step
from knowledge.when import Moment

burning_module = importlib.import_module("knowledge.handlers.burning")
#: the burning handler's modules: the answer (burning.py), and the rules, orders, materials and window it uses
BURNING_MODULES = [importlib.import_module(f"knowledge.handlers.{name}")
                   for name in ("burning", "burn_rules", "burn_orders", "burn_materials", "burn_window")]
TZ = ZoneInfo("America/Chicago")
TOWNS = {key: shared_town(key) for key in ("dunkirk", "mequon")}
NAMES = sorted({" ".join(n) for groups in TOWNS["dunkirk"].materials.values() for g in groups for n in g.names})
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

moments = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31)).map(
    lambda d: d.replace(tzinfo=TZ))
intervals = st.builds(lambda s, hours, kind: Moment(s, s + timedelta(hours=hours), kind, ""),
                      moments, st.integers(0, 30), st.sampled_from(["evening", "day", "night", "interval"]))
orders = st.none() | st.builds(BurningOrder, st.booleans(), st.sampled_from(["", "exceptional dryness"]))
materials = st.none() | st.sampled_from(NAMES) | st.sampled_from(["corn stalks", "hay", "an old shed", "  "])


def assert_every_step_cited(answer) -> None:
    assert answer.steps, answer.result
    for step in answer.steps:
        assert isinstance(step, Step), f"a bare step without its citations: {step!r}"
        assert step.citations, f"step without a citation: {step.text!r}"
        for c in step.citations:
            assert any(c.ref == a.ref and c.quote == a.quote for a in answer.citations), \
                f"{c.ref} backs a step but is not among the answer's sources"


@SETTINGS
@given(st.sampled_from(sorted(TOWNS)), moments | intervals, orders, materials)
def test_every_step_of_a_burning_answer_carries_a_citation(town, at, order, material):
    assert_every_step_cited(handlers.burning(TOWNS[town], at=at, order=order, material=material))


@SETTINGS
@given(st.sampled_from(sorted(TOWNS)), moments, orders)
def test_every_step_of_the_window_and_the_order_status_carries_a_citation(town, at, order):
    t = TOWNS[town]
    assert_every_step_cited(handlers.burn_window(t, day=at.date(), order=order))
    assert_every_step_cited(handlers.burning_order_status(t, now=at, order=order))


@SETTINGS
@given(moments | intervals, orders, materials)
def test_no_answer_says_yes_unless_the_material_is_allowed_or_unnamed(at, order, material):
    """A wrong "yes" is the worst answer: a material on no allowed list never gets allowed=True."""
    answer = handlers.burning(TOWNS["dunkirk"], at=at, order=order, material=material)
    kind = answer.value["material_kind"]
    if answer.value["allowed"] is True:
        assert kind in (None, "allowed") and not answer.value["order_active"] and answer.value["in_hours"]
        assert answer.result.startswith("Yes")
    if kind in ("prohibited", "permit_required") or answer.value["order_active"] or not answer.value["in_hours"]:
        assert answer.value["allowed"] is False and answer.result.startswith("No")


def _strings(path: Path) -> list[str]:
    """The string literals of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


LAW = re.compile(r"\b\d+\.\d+|Class [A-Z]\b|Town Board|Fire Department|Chapter|forfeit|prohibit|permitted|"
                 r"Dunkirk|Mequon|NR \d|Clerk|landowner|no.burning order|extinguish|notif", re.I)


def test_burning_module_states_no_law():
    """Every statement of law in a burning answer comes from the town's YAML, none from Python."""
    found = [(Path(m.__file__).name, s) for m in BURNING_MODULES for s in _strings(Path(m.__file__))
             if LAW.search(s) and not re.fullmatch(r"[a-z_]+", s)]  # data keys ("forfeitures") are not law
    assert not found, f"statements of law in the burning handler: {found}"


def test_the_law_check_finds_a_statement_of_law():
    """The check above is not vacuous: it flags the kind of sentence the handler used to hold."""
    assert LAW.search("Violations are Class C forfeitures under Chapter 17.")
    assert LAW.search("The Town Board may permit burning after sunset")


@pytest.mark.parametrize("town", sorted(TOWNS))
def test_a_town_that_covers_burning_has_every_rule_the_handler_states(town):
    t = TOWNS[town]
    if not t.topics["burning_hours"].covered:
        return
    for topic, names in burning_module.RULES.items():
        assert set(names) <= set(t.topics[topic].rules), f"{topic} lacks {set(names) - set(t.topics[topic].rules)}"


def test_a_night_interval_is_answered_with_the_after_sunset_exception():
    """However "after dark" is resolved into an interval, every minute of it after sunset gets 7.11's answer."""
    t = TOWNS["dunkirk"]
    night = Moment(datetime(2026, 7, 4, 21, 0, tzinfo=TZ), datetime(2026, 7, 5, 5, 0, tzinfo=TZ), "night",
                   "after dark on Saturday, July 4, 2026")
    answer = handlers.burning(t, at=night, material="brush")
    assert answer.value["allowed"] is False and answer.value["in_hours"] is False
    exception = t.topics["burning_hours"].rules["after_sunset_exception"]
    assert exception.text in answer.result and exception.citation in answer.citations
    assert "after sunset (8:38 p.m. CDT)" in answer.result


def test_an_interval_reaching_past_sunset_is_allowed_only_until_sunset():
    t = TOWNS["dunkirk"]
    evening = Moment(datetime(2026, 7, 4, 19, 0, tzinfo=TZ), datetime(2026, 7, 4, 23, 0, tzinfo=TZ), "evening", "")
    answer = handlers.burning(t, at=evening, material="leaves")
    assert answer.value["allowed"] is True
    assert "until sunset at 8:38 p.m. CDT, not after" in answer.result
    assert t.topics["burning_hours"].rules["after_sunset_exception"].text in answer.result


def test_mequon_burning_is_not_covered_and_borrows_no_dunkirk_rule():
    answer = handlers.burning(TOWNS["mequon"], at=datetime(2026, 7, 4, 12, tzinfo=TZ), material="plastic")
    assert "does not cover" in answer.result
    assert not any(c.section.code == "Dunkirk Code" for c in answer.citations)


def test_every_material_name_reads_as_its_own_group():
    """Each name of materials.yml, said alone, is read by the group that lists it (no name shadows another)."""
    t = TOWNS["dunkirk"]
    for groups in t.materials.values():
        for g in groups:
            for name in g.names:
                match = handlers.material_rule(t, " ".join(name))
                assert match.groups == (g,), f"{' '.join(name)!r} reads as {[x.what for x in match.groups]}"


# -- an order covering part of a day (issue #25): 7.10(4) forbids burning only "while a 'no burning order' is in
# effect"; 7.11 permits it "between sunrise and sunset". The rest of the day's daylight stays open, and the
# instant, the interval, the whole day and the burn-notice form's window say so alike.

MONDAY = datetime(2026, 12, 7, tzinfo=TZ).date()  # sunrise 7:14 a.m., sunset 4:22 p.m. CST


def _at(hour, minute=0):
    return datetime(2026, 12, 7, hour, minute, tzinfo=TZ)


def _answers(orders, instant):
    t = TOWNS["dunkirk"]
    day = Moment(_at(0), _at(23, 59), "day", "")
    morning = Moment(_at(6), _at(11, 59), "interval", "Monday morning")
    return (handlers.burning(t, at=instant, orders=orders).value["allowed"],
            handlers.burning(t, at=morning, orders=orders), handlers.burning(t, at=day, orders=orders),
            handlers.burn_window(t, day=MONDAY, orders=orders, at=instant))


def test_an_order_ending_at_8_leaves_monday_open_from_8_until_sunset_for_every_question():
    orders = [BurningOrder(True, start=datetime(2026, 12, 1, 8, tzinfo=TZ), end=_at(8))]
    for instant, open_ in ((_at(7, 59), False), (_at(8), True), (_at(15), True), (_at(16, 30), False)):
        allowed, morning, day, window = _answers(orders, instant)
        assert allowed is open_ and window.value["open_at"] is open_, instant
    assert morning.value["allowed"]
    assert "only from 8:00 a.m. CST (when the order ends) until 11:59 a.m. CST" in morning.result
    assert day.value["allowed"]
    assert "only from 8:00 a.m. CST (when the order ends) until sunset (4:22 p.m. CST)" in day.result
    assert window.value["allowed"] and window.value["open"] == [(_at(8), window.value["sunset"])]
    assert "from 8:00 a.m. (when the order ends) to sunset, 4:22 p.m." in window.lead


def test_an_order_starting_at_8_leaves_monday_open_from_sunrise_until_8_for_every_question():
    orders = [BurningOrder(True, start=_at(8), end=datetime(2026, 12, 9, 8, tzinfo=TZ))]
    for instant, open_ in ((_at(7), False), (_at(7, 30), True), (_at(7, 59), True), (_at(8), False), (_at(12), False)):
        allowed, morning, day, window = _answers(orders, instant)
        assert allowed is open_ and window.value["open_at"] is open_, instant
    opening = "only from sunrise (7:14 a.m. CST) until 8:00 a.m. CST (when the order begins)"
    assert morning.value["allowed"] and opening in morning.result
    assert day.value["allowed"] and opening in day.result
    assert window.value["allowed"] and window.value["open"] == [(window.value["sunrise"], _at(8))]


quarter_hours = st.integers(0, 24 * 4 - 1).map(lambda q: _at(q // 4, q % 4 * 15))
day_orders = st.lists(st.builds(lambda a, b: BurningOrder(True, start=min(a, b), end=max(a, b) if a != b else None),
                                quarter_hours, quarter_hours), max_size=3)


@SETTINGS
@given(day_orders, quarter_hours, quarter_hours)
def test_the_instant_the_interval_the_day_and_the_window_agree_on_any_orders(orders, a, b):
    """Whatever orders cover parts of a day: a time is allowed exactly when the form's window has it open; the
    window is open exactly when the whole-day question says yes; an interval is yes exactly when one of the
    window's open parts reaches into it."""
    t = TOWNS["dunkirk"]
    window = handlers.burn_window(t, day=MONDAY, orders=orders, at=a)
    assert handlers.burning(t, at=a, orders=orders).value["allowed"] is window.value["open_at"]
    day = handlers.burning(t, at=Moment(_at(0), _at(23, 59), "day", ""), orders=orders)
    assert day.value["allowed"] is window.value["allowed"] is bool(window.value["open"])
    start, end = min(a, b), max(a, b)
    if start < end:
        interval = handlers.burning(t, at=Moment(start, end, "interval", ""), orders=orders)
        reaches = any(max(p, start) < min(q, end) for p, q in window.value["open"])
        assert interval.value["allowed"] is reaches, (interval.result, window.value["open"])
    for p, q in window.value["open"]:
        middle = p + (q - p) / 2
        assert handlers.burning(t, at=middle, orders=orders).value["allowed"], (middle, window.value["open"])
