"""The Fire Department's view (Dunkirk 7.09(4): the Board "will notify the Fire Department. When a no burning
order is in effect the Fire Department will so inform persons who notify it of their intention to burn"):
for today and the coming days, the burn notifications (name, address, phone, time, location, reference),
the burning window (sunrise and sunset, or a clock town's hours; knowledge/burn_hours.py), whether the town
closes the day, and whether an order is in force; printable, and as CSV. Fire Department accounts
(role "fire") see only this page; clerks see it too."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from flask import Blueprint, Response, abort, render_template, request

from knowledge import burn_hours, handlers
from knowledge.handlers.burn_orders import order_words
from knowledge.when import words_for_time

from .. import alerts, get_store, get_town
from .auth import role_required
from .burns import _csv_cell
from .local_time import local_now

bp = Blueprint("fire", __name__)

CSV_COLUMNS = ["burn_date", "sunset", "no_burning_order", "approx_time", "name", "address", "phone", "location",
               "reference"]


def _days_arg() -> int:
    """``days``: how many days from today (1 to 31; default 7). Anything but ASCII digits is a 400 (``"²"`` is a
    digit to ``str.isdigit`` but not to ``int``)."""
    raw = request.args.get("days", "").strip()
    if not raw:
        return 7
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 4:
        abort(400, "days must be a whole number of days from 1 to 31.")
    return min(max(int(raw), 1), 31)


def _days(t) -> list[dict]:
    """One entry a day from today: the day, its burn window (the engine's), the orders then, the notifications."""
    store = get_store()
    today = local_now().date()
    n = _days_arg()
    orders = store.no_burning_orders(t.key)
    notes = store.list_burn_notifications(t.key, today, today + timedelta(days=n - 1))
    out = []
    for i in range(n):
        day = today + timedelta(days=i)
        window = handlers.burn_window(t, day=day, orders=orders).value or {}
        in_force = window.get("orders") or []
        rise, set_ = window.get("sunrise"), window.get("sunset")
        rise_words = words_for_time(rise) if rise else "not known"
        set_words = words_for_time(set_) if set_ else "not known"
        out.append({"day": day, "sunrise": rise_words, "sunset": set_words,
                    "hours": _hours(t, day, rise_words, set_words),
                    "order": "; ".join("Order " + order_words(t, o) for o in in_force),
                    "rows": [r for r in notes if r.burn_date == day]})
    return out


def _hours(t, day, rise: str, set_: str) -> str:
    """"Sunrise 5:23 a.m. CDT, sunset 8:38 p.m. CDT." (a daylight town), "Burning hours 12:00 p.m. CDT to 7:00 p.m.
    CDT." (a clock town), with "No burning: a Sunday." first on a day the town closes."""
    w = burn_hours.window(t, day)
    hours = (f"{w.start_word.capitalize()} {rise}, {w.end_word} {set_}." if w.start_word else
             f"Burning hours {rise} to {set_}.")
    return hours if w.open else f"No burning: {w.closed_reason}. {hours}"


@bp.get("/fire")
@role_required("fire", "clerk")
def index():
    t = get_town()
    return render_template("clerk/fire.html", town=t, days=_days(t), n=_days_arg(), now=local_now(),
                           order_words=alerts.order_words(t), before=burn_hours.scheme(t).before)


@bp.get("/fire.csv", endpoint="csv")
@role_required("fire", "clerk")
def as_csv():
    t = get_town()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for d in _days(t):
        for r in d["rows"]:
            w.writerow([_csv_cell(x) for x in (d["day"].isoformat(), d["sunset"], d["order"] or "none", r.approx_time, r.name, r.address,
                                               r.phone, r.location, r.reference)])
    name = f"fire-department-burns-{t.key}-{local_now().date().isoformat()}.csv"
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
