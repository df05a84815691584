"""System status (live checks and recent failures, web/health.py) and the records retention policy."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from .. import alerts, get_store, get_town, health
from .auth import login_required

bp = Blueprint("system", __name__)


@bp.get("/status")
@login_required
def status():
    """System status: live checks of Rasa, the action server, the database (does it take a write?) and the SMS
    spool, and the failures the web front recorded recently (kept outside the database)."""
    checks = health.checks(get_store())
    try:
        last_purge = get_store().last_scheduled_purge()
    except Exception:  # noqa: BLE001 - the database check above already says it is down
        last_purge = None
    try:
        alert_summary = alerts.summary()
    except Exception:  # noqa: BLE001 - as above
        alert_summary = None
    return render_template("clerk/status.html", town=get_town(), checks=checks, last_purge=last_purge,
                           all_ok=all(c["ok"] for c in checks), failures=health.recent_failures(50),
                           alerts=alert_summary)


@bp.get("/records")
@login_required
def records():
    return render_template("clerk/records.html", town=get_town(), days=current_app.config["RETENTION_DAYS"])
