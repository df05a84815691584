"""The fee schedule: every parameter in US dollars with its value today, since when, and its source."""

from __future__ import annotations

from flask import Blueprint, render_template

from .. import get_town
from .auth import login_required
from .local_time import local_now

bp = Blueprint("fees", __name__)


@bp.get("/fees")
@login_required
def index():
    t = get_town()
    today = local_now().date()
    rows = []
    for p in t.parameters.values():
        if p.unit != "USD":
            continue
        v = p.at(today)
        rows.append({"param": p, "value": None if v is None or v.value is None else p.format(v.value),
                     "since": v.since if v else None, "source": (v.source if v and v.source else "")})
    return render_template("clerk/fees.html", town=t, rows=rows, today=today)
