"""The amounts a town's code leaves to a fee schedule or a resolution (a parameter with `delegated:`), as the
clerk sets them: in fees.yml (the seed, read when the town loads) and on the clerk's "Fee schedule" page (kept in
the records store). One check for both (``problems``) and one way to apply them (``with_entries``); pure: the
adapters fetch the page's entries and pass them in.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

from .model import Parameter, Town, Value

#: the longest a source may be ("Town Board resolution 2026-14, adopted 2026-12-08")
SOURCE_MAX = 300
#: the largest amount taken (dollars): not law, a check against a slip of the keyboard ("1000000" for "10.00")
AMOUNT_MAX = Decimal("100000")


@dataclass(frozen=True)
class FeeEntry:
    """One amount the clerk set: ``value`` dollars for ``parameter`` from ``since``, set by ``source``."""

    parameter: str
    value: float
    since: date
    source: str


def problems(params: dict[str, Parameter], parameter: Any, value: Any, since: Any, source: Any) -> dict[str, str]:
    """What is wrong with an entry, by field ("parameter", "value", "since", "source"); empty when it can be
    applied. A parameter the code itself sets is refused: only an amendment of the code changes it."""
    out: dict[str, str] = {}
    p = params.get(str(parameter)) if isinstance(parameter, str) else None
    if p is None:
        out["parameter"] = f"no such fee: {parameter!r} (the Clerk page 'Fee schedule' lists the names)"
    elif not p.delegated_to:
        out["parameter"] = (f"the code itself sets this amount ({p.reference.label}); it cannot be overridden "
                            "by the fee schedule")
    elif p.unit != "USD":
        out["parameter"] = f"not an amount in dollars ({p.unit})"
    amount = _amount(value)
    if amount is None:
        out["value"] = f"must be an amount in dollars, like 10 or 12.50, not {value!r}"
    elif amount < 0:
        out["value"] = f"must not be negative: {value}"
    elif amount > AMOUNT_MAX:
        out["value"] = f"more than ${AMOUNT_MAX:,}: {value} (a slip of the keyboard?)"
    elif amount != amount.quantize(Decimal("0.01")):
        out["value"] = f"must be whole cents: {value}"
    if not isinstance(since, date):
        out["since"] = f"not a date (YYYY-MM-DD): {since!r}"
    if not isinstance(source, str) or not source.strip():
        out["source"] = "name the resolution or notice that set the amount"
    elif len(source) > SOURCE_MAX:
        out["source"] = f"at most {SOURCE_MAX} characters"
    return out


def _amount(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        return None
    try:
        amount = Decimal(str(value).strip().removeprefix("$").replace(",", ""))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() else None


def entry(params: dict[str, Parameter], parameter: str, value: Any, since: Any, source: str) -> FeeEntry:
    """A checked entry; ValueError naming the field and the problem otherwise."""
    found = problems(params, parameter, value, since, source)
    if found:
        field, message = next(iter(found.items()))
        raise ValueError(f"{field}: {message}")
    return FeeEntry(parameter, float(_amount(value)), since, " ".join(source.split()))


def with_entries(town: Town, entries: Iterable[FeeEntry]) -> Town:
    """The town with ``entries`` added to its parameters' dated values, in order: each applies from its `since`,
    and of two from the same day the later one counts (``Parameter.at``). The town itself is not changed; the
    copy keeps what is cached on it (the rule ranker: amounts do not change which rule answers)."""
    by_param: dict[str, list[FeeEntry]] = {}
    for e in entries:
        by_param.setdefault(e.parameter, []).append(e)
    if not by_param:
        return town
    params = dict(town.parameters)
    for name, es in by_param.items():
        p = params.get(name)
        if p is not None and p.delegated_to:  # checked when entered; a town whose data changed since: skipped
            params[name] = with_values(p, es)
    out = copy.copy(town)
    out.parameters = params
    return out


def with_values(p: Parameter, entries: Iterable[FeeEntry]) -> Parameter:
    """``p`` with ``entries`` among its dated values, by day; of two from the same day the later one counts."""
    values = sorted([*p.values, *(Value(e.since, e.value, source=e.source) for e in entries)], key=lambda v: v.since)
    return replace(p, values=tuple(values), from_fee_schedule=True)
