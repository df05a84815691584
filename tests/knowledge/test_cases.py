"""Run the YAML cases in cases/<topic>/*.yml, in the manner of OpenFisca's YAML tests.

Each case names, in a full sentence, what the law says should happen; the comment above it works the
arithmetic. A case gives the town, the handler, its input and what to expect:

    - name: A spayed dog licensed on March 31 pays no late fee.
      town: dunkirk
      handler: license_cost
      input: {on: 2026-03-31, dogs: 1, neutered: 1}
      expect:
        value.total: 3.00            # a dotted path into the Answer
        result_contains: ["$3.00"]
        cites: ["7.02-4"]            # citations whose reference starts with these
        step_cites: [{step: "words of a step", cites: ["7.11"]}]   # that step's own citations
        raises: field                # instead: the handler asks to clarify this field

The test also records every parameter the cases read; test_every_parameter_is_exercised checks the list.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from knowledge import NeedsClarification, handlers, load_town, town as shared_town, when
from knowledge.loader import SAFE_LOADER
from knowledge.model import BurningOrder, Town

CASES = Path(__file__).parent / "cases"
USED: dict[str, set[str]] = {}
_TOWNS: dict[str, Town] = {}


@lru_cache(maxsize=None)
def case_files() -> tuple[tuple[Path, tuple[dict, ...]], ...]:
    """Every case file with its cases, read once per run with libyaml (as knowledge/loader.py reads the towns):
    the cases are parametrized here, run again by test_every_parameter_is_exercised and rendered by
    test_render.py. Nothing changes a case."""
    return tuple((path, tuple(yaml.load(path.read_text(), Loader=SAFE_LOADER) or ()))
                 for path in sorted(CASES.rglob("*.yml")))


def _all_cases():
    for path, cases in case_files():
        for case in cases:
            yield pytest.param(case, id=f"{path.parent.name}/{path.stem}: {case['name']}")


def _town(key: str) -> Town:
    if key not in _TOWNS:
        town = load_town(key)
        seen = USED.setdefault(key, set())
        original = town.param

        def recording(name, _orig=original, _seen=seen):
            _seen.add(name)
            return _orig(name)
        town.param = recording
        _TOWNS[key] = town
    return _TOWNS[key]


def _moment(value, town):
    if isinstance(value, str):
        return datetime.fromisoformat(value).replace(tzinfo=ZoneInfo(town.timezone)) \
            if value[:4].isdigit() else value
    if isinstance(value, datetime):
        return value.replace(tzinfo=ZoneInfo(town.timezone)) if value.tzinfo is None else value
    return value


def _orders(args: dict, town) -> None:
    """``order: {active, reason}`` as before; ``orders: [{start, end, reason, board_action}]``, dated orders."""
    if "order" in args:
        args["order"] = BurningOrder(**args["order"]) if args["order"] else None
    if "orders" in args:
        args["orders"] = [BurningOrder(active=True, reason=o.get("reason", ""), board_action=o.get("board_action", ""),
                                       start=_moment(o["start"], town),
                                       end=_moment(o["end"], town) if o.get("end") else None)
                          for o in args["orders"]]


def _call(case: dict):
    town = _town(case["town"])
    # YAML 1.1 reads a bare `on:` key as the boolean true; in these files it is the date argument `on`.
    args = {("on" if k is True else k): v for k, v in (case.get("input") or {}).items()}
    name = case["handler"]
    if name == "burning":
        now = _moment(args.pop("now", None), town)
        at = args.pop("at")
        args["at"] = when.resolve(at, town, now) if not str(at)[:4].isdigit() else _moment(at, town)
        _orders(args, town)
        return handlers.burning(town, **args)
    if name == "burning_order_status":
        _orders(args, town)
        now = _moment(args.pop("now"), town)
        if args.get("during"):
            args["during"] = when.resolve(args["during"], town, now)
        return handlers.burning_order_status(town, now=now, **args)
    if name == "burn_window":
        _orders(args, town)
        return handlers.burn_window(town, **args)
    if name == "topic":
        return handlers.topic(town, args.pop("key"), **args)
    if name == "section":
        return handlers.section(town, args["ref"])
    if name == "when":
        moment = when.resolve(args["text"], town, _moment(args["now"], town), prefer=args.get("prefer", "future"))
        return {"start": moment.start.isoformat(), "end": moment.end.isoformat() if moment.end else None,
                "kind": moment.kind, "part": moment.part, "said": moment.said}
    return getattr(handlers, name)(town, **args)


def _get(obj, path: str):
    for part in path.split("."):
        if isinstance(obj, dict):
            obj = obj[part]
        elif isinstance(obj, (list, tuple)):
            obj = obj[int(part)]
        else:
            obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("case", list(_all_cases()))
def test_case(case):
    expect = case["expect"]
    if "raises" in expect:
        with pytest.raises(NeedsClarification) as err:
            _call(case)
        assert err.value.field == expect["raises"]
        return
    answer = _call(case)
    for key, wanted in expect.items():
        if key == "result_contains":
            for bit in wanted:
                assert bit in answer.result, f"{bit!r} not in {answer.result!r}"
        elif key == "steps_contain":
            joined = " ".join(str(s) for s in answer.steps)
            for bit in wanted:
                assert bit in joined, f"{bit!r} not in steps {joined!r}"
        elif key == "caveats_contain":
            joined = " ".join(answer.caveats)
            for bit in wanted:
                assert bit in joined, f"{bit!r} not in caveats {answer.caveats!r}"
        elif key == "cites":
            refs = [c.ref for c in answer.citations]
            for ref in wanted:
                assert any(r.startswith(ref) for r in refs), f"no citation of {ref} in {refs}"
        elif key == "step_cites":
            # either [{step: words, cites: [refs]}] or {words of a step: the ref one of its own citations starts with}
            pairs = ([(w["step"], w["cites"]) for w in wanted] if isinstance(wanted, list)
                     else [(words, [ref]) for words, ref in wanted.items()])
            for words, refs_wanted in pairs:
                steps = [st for st in answer.steps if words in str(st)]
                assert steps, f"no step contains {words!r}: {answer.steps!r}"
                refs = [c.ref for st in steps for c in getattr(st, "citations", ())]
                for ref in refs_wanted:
                    assert any(r.startswith(ref) for r in refs), f"step {words!r} cites {refs}, not {ref}"
        elif key == "absent":  # dotted paths that must not be there, e.g. data.needs
            for path in wanted:
                with pytest.raises((KeyError, AttributeError, IndexError)):
                    _get(answer, path)
        elif key == "said_contains":
            assert wanted in answer["said"]
        else:
            got = _get(answer, key)
            if isinstance(wanted, float) or isinstance(got, float):
                assert got == pytest.approx(wanted), f"{key}: {got!r} != {wanted!r}"
            else:
                assert got == (wanted.isoformat() if isinstance(wanted, date) and isinstance(got, str)
                               else wanted), f"{key}: {got!r} != {wanted!r}"


def test_every_parameter_is_exercised():
    """Every parameter of every town is read by at least one case."""
    for param in _all_cases():
        try:
            _call(param.values[0])
        except NeedsClarification:
            pass
    for key in ("dunkirk", "mequon"):
        town = shared_town(key)
        unused = sorted(set(town.parameters) - USED.get(key, set()))
        assert not unused, f"{key}: parameters no case exercises: {unused}"


#: handlers whose every step must carry its own citation (issue #10: law lives in data, step by step)
STEP_CITED = {"license_cost", "license_deadline", "animal_limits", "quarantine", "topic", "section", "search",
              "definition"}


def test_every_step_of_the_law_handlers_carries_a_citation():
    """Each step of every license, limits, quarantine and lookup answer in the cases is a Step with at least
    one citation behind it, and every one of those citations is among the answer's sources."""
    checked = 0
    for param in _all_cases():
        case = param.values[0]
        if case["handler"] not in STEP_CITED or "raises" in case["expect"]:
            continue
        answer = _call(case)
        for step in answer.steps:
            assert getattr(step, "citations", ()), f"{case['name']}: step without a citation: {step!r}"
            refs = {(c.ref, c.quote) for c in answer.citations}
            assert all((c.ref, c.quote) in refs for c in step.citations), f"{case['name']}: {step.text!r}"
            checked += 1
    assert checked > 100
