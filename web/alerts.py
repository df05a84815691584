"""Texts about no-burning orders (#14) and what the clerk's pages say about them: the one template module
for the outbox's SMS (records/outbox.py), GSM-7 and at most two segments each, and the plan the order
pages pass to the store so the texts are queued in the order's own transaction.

    "order"   The Town Board has issued a no-burning order from ... to .... Your burn on ... (ref DK-XXXXX)
              may not go ahead. (Who issues orders is the town's data: town.yml `burning.orders_by`.)
    "lifted"  ... the order is lifted ...: your burn may go ahead (the usual rules still apply).
    "fire"    the order itself, for the Fire Department (Dunkirk 7.09(4) "it will notify the Fire Department"),
              and each later change of it: "fire-extended", "fire-lifted", "fire-superseded".
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from flask import current_app

from knowledge.burn_hours import orders_by, scheme
from knowledge.when import words_for_time
from records.alert_sender import TwilioSettings
from records.outbox import AlertPlan, e164

from . import get_store, get_town
from .text import SMS_LIMIT, gsm7_length, to_gsm7


def _moment(t: datetime, tz) -> str:
    lt = t.astimezone(tz)
    return f"{lt:%a %b} {lt.day} {words_for_time(lt)}"


def _day(d: date) -> str:
    return f"{d:%a %b} {d.day}"


def _fit(text: str) -> str:
    text = to_gsm7(" ".join(text.split()))
    while gsm7_length(text) > SMS_LIMIT:
        text = text[: SMS_LIMIT - 4].rsplit(" ", 1)[0] + "..."
    return text


def issuer(town) -> str:
    """"The Town Board" (town.yml `burning.orders_by`, Dunkirk 7.09(4)), "The Fire Department"; "" when the town
    names no one."""
    who = orders_by(town)
    return f"The {who}" if who else ""


def order_words(town) -> dict:
    """What the clerk's pages say of who issues orders: who ("Town Board"; "" when the town names no one), action
    ("Board", as in "Board action"), ref (where the code says so: "7.09(4)"; "")."""
    who = orders_by(town)
    cited = scheme(town).orders_citation
    return {"who": who, "action": (who.split() or ["Order"])[-1],
            "ref": cited.label.removeprefix(town.code_name).strip() if cited else ""}


def _has(town, done: str, what: str) -> str:
    """"The Town Board has issued no-burning order 3" or, with no issuer, "No-burning order 3 has been issued"."""
    who = issuer(town)
    return f"{who} has {done} {what}" if who else f"{what[0].upper()}{what[1:]} has been {done}"


def compose(town, kind: str, order, note, at: datetime | None) -> str:
    """The text of one alert (town data: the town's name and time zone, who issues orders; the order; the
    notification)."""
    tz = ZoneInfo(town.timezone)
    action = order_words(town)["action"]  # "Board action: ..." (Dunkirk), "Department action: ..."
    span = (f"from {_moment(order.start_at, tz)} "
            + (f"to {_moment(order.end_at, tz)}" if order.end_at else "until it is lifted"))
    if kind == "order":
        return _fit(f"{town.name}: {_has(town, 'issued', 'a no-burning order')} {span}. Your burn on "
                    f"{_day(note.burn_date)} (ref {note.reference}) may not go ahead.")
    if kind == "lifted":
        return _fit(f"{town.name}: The no-burning order is lifted from {_moment(at or order.end_at, tz)}. "
                    f"Your burn on {_day(note.burn_date)} (ref {note.reference}) may go ahead; the usual burning "
                    "rules still apply.")
    if kind == "fire":
        return _fit(f"{town.name}: {_has(town, 'issued', f'no-burning order {order.id}')} {span}. "
                    f"{action} action: {order.board_action}. Reason: {order.reason}")
    if kind == "fire-extended":
        return _fit(f"{town.name}: {_has(town, 'extended', f'no-burning order {order.id}')}: it is now in force "
                    f"{span}.")
    if kind == "fire-lifted":
        return _fit(f"{town.name}: {_has(town, 'lifted', f'no-burning order {order.id}')} (in force from "
                    f"{_moment(order.start_at, tz)}) from {_moment(at or order.end_at, tz)}.")
    if kind == "fire-superseded":
        if order.end_at is not None and order.end_at <= order.start_at:
            return _fit(f"{town.name}: No-burning order {order.id} (from {_moment(order.start_at, tz)}) will not "
                        "take effect: a new order replaces it.")
        return _fit(f"{town.name}: No-burning order {order.id} is now in force {span}, where a new order takes "
                    "over.")
    raise ValueError(f"no text for alert kind {kind!r}")


def fire_number() -> str:
    """The number the Fire Department gets orders on: FIRE_DEPARTMENT_SMS, else town.yml's fire department
    phone; "" when neither is set."""
    configured = current_app.config.get("FIRE_DEPARTMENT_SMS") or ""
    if configured:
        return configured
    fd = get_town().fire_department
    return fd.phone if fd and fd.phone else ""


def plan(today: date) -> AlertPlan:
    town = get_town()
    return AlertPlan(tz=ZoneInfo(town.timezone), today=today,
                     compose=lambda kind, order, note, at: compose(town, kind, order, note, at),
                     fire_number=fire_number())


def twilio_missing() -> list[str]:
    """The Twilio settings the sender needs that this deployment lacks (as the web process sees them)."""
    cfg = current_app.config
    return TwilioSettings(cfg.get("TWILIO_ACCOUNT_SID", ""), cfg.get("TWILIO_AUTH_TOKEN", ""),
                          cfg.get("TWILIO_FROM", "")).missing()


def summary() -> dict:
    """For the order and status pages: counts by state, who could not be reached, and whether alerts go out."""
    store = get_store()
    town = get_town()
    fire = fire_number()
    return {"counts": store.alert_counts(town.key), "unreachable": store.unreachable_alerts(town.key),
            "missing": twilio_missing(), "fire_number": fire, "fire_number_ok": bool(fire and e164(fire))}
