"""Burn notifications residents sent (web or SMS): from today on by default, a date range (from, to) or all,
filtered by a search; the same rows as CSV."""

from __future__ import annotations

import csv
import io
from datetime import date

from flask import Blueprint, Response, abort, render_template, request

from .. import get_store, get_town
from .auth import login_required
from .local_time import local_now

bp = Blueprint("burns", __name__)

#: The filter arguments the list passes on to its CSV link (nothing else from the query string reaches url_for).
FILTER_ARGS = ("from", "to", "all", "q")

CSV_COLUMNS = ["reference", "burn_date", "approx_time", "name", "address", "location", "phone", "channel",
               "received_utc"]


def _date_arg(name: str) -> date | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        abort(400, f"{name} must be a date like 2026-12-01.")


def _burn_filter():
    today = local_now().date()
    if request.args.get("all") == "1":
        return None, None
    start = _date_arg("from") if "from" in request.args else today
    end = _date_arg("to")
    return start, end


@bp.get("/burns")
@login_required
def index():
    t = get_town()
    start, end = _burn_filter()
    q = request.args.get("q", "").strip().lower()[:100]
    rows = get_store().list_burn_notifications(t.key, start, end)
    if q:
        rows = [r for r in rows if q in f"{r.name} {r.address} {r.location} {r.phone} {r.reference}".lower()]
    csv_args = {k: request.args[k] for k in FILTER_ARGS if k in request.args}
    return render_template("clerk/burns.html", town=t, rows=rows, start=start, end=end, q=q,
                           today=local_now().date(), csv_args=csv_args)


def _csv_cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text  # no spreadsheet formulas


@bp.get("/burns.csv", endpoint="csv")
@login_required
def as_csv():
    t = get_town()
    start, end = _burn_filter()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for r in get_store().list_burn_notifications(t.key, start, end):
        w.writerow([_csv_cell(x) for x in (r.reference, r.burn_date.isoformat(), r.approx_time, r.name, r.address,
                                           r.location, r.phone, r.channel, r.created_at.isoformat())])
    name = f"burn-notifications-{t.key}-{local_now().date().isoformat()}.csv"
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
